"""Exact values of small Connect Four boards (k = 4). Prints a table.

Each board is solved from the empty position by the engine's alpha-beta with
a transposition table, centre-first move ordering and mirror symmetry folded
into the table:

    gt.alphabeta(ConnectFour(rows, cols, 4), table=True, order=game.centre_first, symmetry=True)

and, where that is small enough (``--check`` boards, by default those plain
minimax with a table finishes in well under a minute), cross-checked against
``gt.minimax(game, table=True)``.  Every board runs in its own process with a
time limit, so a board too large for the limit is reported, not waited for;
the table's memory goes back when the process ends (a few GB for 6x5).

Value: +1 the first player (X) wins with perfect play, 0 a draw, -1 the
second player (O) wins.

Run: python benchmarks/solve_connect4.py [--boards 4x4,5x4,...] [--timeout S] [--large]
Boards are ROWSxCOLS.
"""

import argparse
import multiprocessing as mp
import queue as queues
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gametrees as gt  # noqa: E402
from gametrees.games import ConnectFour  # noqa: E402

BOARDS = ["4x4", "5x4", "4x5", "6x4", "5x5", "4x6"]
LARGE = ["6x5", "4x7", "5x6"]
CHECK = ["4x4", "5x4", "4x5"]
OUTCOME = {1: "X wins", 0: "draw", -1: "O wins"}


def solve(rows, cols, check, queue):
    game = ConnectFour(rows, cols, 4)
    table = {}
    t = time.perf_counter()
    r = gt.alphabeta(game, table=table, order=game.centre_first, symmetry=True)
    out = {"value": r.value, "move": r.move, "nodes": r.stats["nodes_visited"], "entries": len(table),
           "seconds": time.perf_counter() - t}
    if check:
        t = time.perf_counter()
        m = gt.minimax(game, table=True)
        out.update(minimax=m.value, minimax_nodes=m.stats["nodes_visited"],
                   minimax_seconds=time.perf_counter() - t)
    queue.put(out)


def run(board, timeout, check):
    rows, cols = map(int, board.split("x"))
    queue = mp.Queue()
    proc = mp.Process(target=solve, args=(rows, cols, check, queue))
    proc.start()
    try:
        return queue.get(timeout=timeout)
    except queues.Empty:  # out of time
        return None
    finally:
        proc.terminate()
        proc.join()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", default=",".join(BOARDS), help="comma-separated ROWSxCOLS")
    ap.add_argument("--large", action="store_true", help=f"also {', '.join(LARGE)} (minutes, GBs)")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per board (default 900)")
    ap.add_argument("--check", default=",".join(CHECK),
                    help="boards to cross-check with plain minimax + table")
    args = ap.parse_args()
    boards = args.boards.split(",") + (LARGE if args.large else [])
    check = set(args.check.split(","))
    header = ["board", "value", "outcome", "first move", "nodes", "table entries", "seconds",
              "minimax check"]
    widths = [6, 5, 7, 10, 12, 13, 8, 30]
    print("Connect Four, k = 4, solved from the empty board (rows x cols)")
    print("  ".join(h.rjust(w) for h, w in zip(header, widths)))
    print("-" * (sum(widths) + 2 * (len(widths) - 1)))
    for board in boards:
        out = run(board, args.timeout, board in check)
        if out is None:
            cells = [board, "-", "-", "-", "-", "-", f">{args.timeout:.0f}", "not solved in time"]
        else:
            if "minimax" in out:
                agree = "agrees" if out["minimax"] == out["value"] else "DISAGREES"
                note = f"{agree} ({out['minimax_nodes']:,} nodes, {out['minimax_seconds']:.1f} s)"
            else:
                note = "-"
            cells = [board, f"{out['value']:+d}" if out["value"] else "0", OUTCOME[out["value"]],
                     str(out["move"]), f"{out['nodes']:,}", f"{out['entries']:,}",
                     f"{out['seconds']:.1f}", note]
        print("  ".join(c.rjust(w) for c, w in zip(cells, widths)), flush=True)


if __name__ == "__main__":
    main()
