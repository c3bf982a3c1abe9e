"""Monte Carlo tree search: the memory a traced playout keeps, and the largest search traced by default.

Prints two tables (memory measured by tracemalloc: what the result keeps once
the search has returned, and the peak during it):

1. bytes per playout of ``gt.mcts(..., trace=True)`` (every step recorded for
   the replay) and of ``trace=False`` (only the grown tree, ``result.graph``),
   from the root of textbook trees and the empty boards of the games;
2. the largest search the default (``trace=None``) traces: ``TRACED_PLAYOUTS``
   playouts (10,000), its trace's memory in MB; one more playout is untraced.

Issue 32: MCTS traced every search by default, at about 6.6 KB a playout, so a
million playouts needed gigabytes; the default now traces only searches of at
most ``TRACED_PLAYOUTS`` playouts (``trace=True`` traces any search).

Run: python benchmarks/mcts_memory.py [--playouts N]
"""

import argparse
import gc
import sys
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from report import table  # noqa: E402  (benchmarks/report.py)

import gametrees as gt  # noqa: E402
from gametrees.games import ConnectFour, DiceGame, Pig, TicTacToe  # noqa: E402
from gametrees.search.montecarlo import TRACED_PLAYOUTS  # noqa: E402


def subjects():
    return [
        ("textbook tree (3x3)", gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])),
        ("random tree (b 3, depth 6)", gt.random_tree(branching=3, depth=6, seed=0)),
        ("tic-tac-toe", TicTacToe()),
        ("Connect Four 7x6", ConnectFour()),
        ("dice game", DiceGame()),
        ("Pig (target 10)", Pig()),
    ]


def measure(game, playouts, **options):
    """(bytes kept by the result, peak bytes during the search) of one search, and the result."""
    gc.collect()
    tracemalloc.start()
    result = gt.mcts(game, playouts=playouts, seed=0, **options)  # (result.graph is built when read)
    kept, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return kept, peak, result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=3000, help="playouts per search in table 1")
    args = parser.parse_args()
    n = args.playouts
    rows, largest = [], []
    for label, game in subjects():
        traced, traced_peak, r = measure(game, n, trace=True, graph=False)
        events = len(r.trace)
        del r
        plain, _, r = measure(game, n, trace=False, graph=False)
        del r
        rows.append([label, f"{n:,}", f"{events / n:.1f}", f"{traced / n:,.0f}", f"{traced_peak / n:,.0f}",
                     f"{plain / n:,.0f}"])
        kept, peak, r = measure(game, TRACED_PLAYOUTS)
        assert r.trace is not None
        del r
        _, _, r = measure(game, TRACED_PLAYOUTS + 1)
        assert r.trace is None
        del r
        largest.append([label, f"{TRACED_PLAYOUTS:,}", f"{kept / 1e6:.1f}", f"{peak / 1e6:.1f}"])
    table(f"Memory per playout of gt.mcts, {n:,} playouts from the start (tracemalloc, bytes)",
          ["subject", "playouts", "events / playout", "traced: kept", "traced: peak",
           "untraced: kept"], rows)
    table("The largest search traced by default (trace=None: playouts <= TRACED_PLAYOUTS; "
          "one more is untraced)", ["subject", "playouts", "kept MB", "peak MB"], largest)


if __name__ == "__main__":
    main()
