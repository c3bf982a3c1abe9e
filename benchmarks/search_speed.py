"""How fast is the search engine? Prints three tables.

1. Full minimax of tic-tac-toe (549,946 nodes): the generic engine with
   tracing off against a bare tuple-board recursion written right here.
2. Nodes alpha-beta visits to solve tic-tac-toe: plain, with move ordering
   and a transposition table, and with symmetry folded into the table.
3. The cost of tracing on a tree of about 10,000 nodes.

Run: python benchmarks/search_speed.py [--repeat N]
Timings are the best of N runs (default 3).
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from report import best_of, table  # noqa: E402  (benchmarks/report.py)

import gametrees as gt  # noqa: E402
from gametrees.games import TicTacToe  # noqa: E402

# --- the bare recursion: what a learner would write in 30 lines ---------------

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def winner(board):
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


def bare_minimax(board, player, counter):
    """Value of ``board`` for X (+1 win, 0 draw, -1 loss); counts nodes."""
    counter[0] += 1
    w = winner(board)
    if w is not None:
        return 1 if w == "X" else -1
    if "." not in board:
        return 0
    other = "O" if player == "X" else "X"
    values = [
        bare_minimax(board[:i] + (player,) + board[i + 1:], other, counter)
        for i in range(9)
        if board[i] == "."
    ]
    return max(values) if player == "X" else min(values)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    game = TicTacToe()

    counter = [0]

    def bare():
        counter[0] = 0
        return bare_minimax(("." ,) * 9, "X", counter)

    t_bare, v_bare = best_of(args.repeat, bare)
    t_engine, r = best_of(args.repeat, lambda: gt.minimax(game))
    table(
        "Full minimax of tic-tac-toe from the empty board",
        ["search", "value", "nodes", "seconds", "ratio to bare"],
        [
            ["bare tuple-board recursion", v_bare, f"{counter[0]:,}", f"{t_bare:.3f}", "1.00"],
            ["gt.minimax(TicTacToe())", r.value, f"{r.stats['nodes_visited']:,}",
             f"{t_engine:.3f}", f"{t_engine / t_bare:.2f}"],
        ],
    )

    rows = []
    for name, kwargs in [
        ("alpha-beta, natural order", {}),
        ("alpha-beta, centre-corners-edges", {"order": TicTacToe.centre_first}),
        ("  + transposition table", {"order": TicTacToe.centre_first, "table": True}),
        ("  + symmetry in the table", {"order": TicTacToe.centre_first, "table": True, "symmetry": True}),
    ]:
        t, res = best_of(args.repeat, lambda kw=kwargs: gt.alphabeta(game, **kw))
        rows.append([name, res.value, f"{res.stats['nodes_visited']:,}",
                     f"{res.stats['tt_hits']:,}", f"{t * 1000:.1f}"])
    table("Solving tic-tac-toe with alpha-beta",
          ["search", "value", "nodes visited", "table hits", "ms"], rows)

    G = gt.random_tree(3, 8, seed=1, values=(-50, 50))
    T = gt.TreeGame(G)  # checked once, so the timings below are of the search alone
    rows = []
    for name, algo in [("minimax", gt.minimax), ("alphabeta", gt.alphabeta)]:
        t_off, _ = best_of(args.repeat, lambda a=algo: a(T, trace=False))
        t_on, res = best_of(args.repeat, lambda a=algo: a(T, trace=True))
        t_graph, _ = best_of(args.repeat, lambda a=algo: a(T, trace=True).graph)
        rows.append([name, f"{res.stats['nodes_visited']:,}", f"{len(res.trace):,}",
                     f"{t_off * 1000:.1f}", f"{t_on * 1000:.1f}", f"{t_on / t_off:.2f}",
                     f"{t_graph * 1000:.1f}"])
    table(f"Tracing on a random tree of {G.number_of_nodes():,} nodes (b=3, d=8)",
          ["search", "nodes", "events", "off ms", "traced ms", "ratio", "+graph ms"], rows)


if __name__ == "__main__":
    main()
