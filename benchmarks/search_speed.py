"""How fast is the search engine? Prints five tables.

1. Full minimax of tic-tac-toe (549,946 nodes): the generic engine with
   tracing off against a bare tuple-board recursion written right here.
2. Nodes alpha-beta visits to solve tic-tac-toe: plain, with move ordering
   and a transposition table, and with symmetry folded into the table.
3.-4. The cost of tracing, and of the annotated graph (``result.graph``), for every search: on a
   random tree of about 10,000 nodes, and on a worst-ordered tree of 88,573 nodes where every
   untraced search takes well over 20 ms. ``+ read`` also reads the trace (its last sentence).
   ``graph`` is a search asked only for its graph, and the graph: ``a(T, trace=False,
   graph=True).graph`` (the search writes it as it goes); ``traced + graph`` builds it from the
   trace of a traced search, ``a(T, trace=True).graph``. Both are compared to a traced minimax of
   the tree (``/traced minimax``).
5. Pruning below chance nodes: expectimax of dice games without and with ``bounds=(low, high)``
   (Star1), untraced: the nodes it visits and the time.

Run: python benchmarks/search_speed.py [--repeat N] [--big-depth D]
Timings are this process's CPU time, the best of N runs (default 3): other programs on a shared
machine add less to it than to the wall-clock time (they still share its caches).
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from report import best_of as best_of_wall  # noqa: E402  (benchmarks/report.py)
from report import table  # noqa: E402

import gametrees as gt  # noqa: E402
from gametrees.games import DiceGame, TicTacToe  # noqa: E402

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


def best_of(repeat, fn):
    """The least CPU time of this process over ``repeat`` calls (the machine may be shared: wall time
    would count the other programs' work too), and the last result."""
    return best_of_wall(repeat, fn, clock=time.process_time)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--big-depth", type=int, default=10,
                    help="depth of the worst-ordered tree (b=3; 10: 88,573 nodes, about 20 s to build)")
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

    for G, title in [
        (gt.random_tree(3, 8, seed=1, values=(-50, 50)), "a random tree"),
        # Big enough that every untraced search takes well over 20 ms: worst-first children, so
        # alpha-beta and negamax prune nothing and visit every node too.
        (gt.random_tree(3, args.big_depth, seed=1, values=(-10**6, 10**6), ordering="worst"),
         "a worst-ordered tree (no cutoffs)"),
    ]:
        tracing_table(G, title, args.repeat)
    chance_table(args.repeat)


def chance_table(repeat):
    """Expectimax of dice games, every node (no bounds) and pruning below chance nodes (Star1)."""
    rows = []
    for rounds, safe, sides in [(2, 5, 6), (3, 3, 4), (3, 4, 6)]:
        game = DiceGame(rounds=rounds, safe=safe, sides=sides)
        most = rounds * max(safe, sides)   # the utility is MAX's points minus MIN's
        name = f"DiceGame(rounds={rounds}, safe={safe}, sides={sides})"
        t_plain, plain = best_of(repeat, lambda g=game: gt.expectimax(g))
        t_star, star = best_of(repeat, lambda g=game, m=most: gt.expectimax(g, bounds=(-m, m)))
        assert star.value == plain.value and star.move == plain.move
        rows.append([name, f"{plain.value:.4g}", f"{plain.stats['nodes_visited']:,}", f"{t_plain * 1000:.1f}",
                     f"±{most}", f"{star.stats['nodes_visited']:,}", f"{star.stats['cutoffs']:,}",
                     f"{t_star * 1000:.1f}", f"{t_star / t_plain:.2f}"])
    table(f"Pruning below chance nodes: expectimax without and with bounds (best of {repeat})",
          ["game", "value", "nodes", "ms", "bounds", "nodes (Star1)", "cutoffs", "ms (Star1)", "time ratio"],
          rows)


def _read(result):
    """``result`` after reading its trace (the last event's sentence)."""
    assert result.trace[-1].text
    return result


def _graphed(result):
    """``result`` after building its annotated graph."""
    assert result.graph is not None
    return result


def tracing_table(G, title, repeat):
    """What tracing and the annotated graph cost, for every search, on the tree ``G``."""
    T = gt.TreeGame(G)  # checked once, so the timings below are of the search alone
    searches = [("minimax", gt.minimax), ("alphabeta", gt.alphabeta), ("negamax", gt.negamax),
                ("expectimax", gt.expectimax)]
    t_minimax, _ = best_of(repeat, lambda: gt.minimax(T, trace=True))
    rows = []
    for name, algo in searches:
        t_off, _ = best_of(repeat, lambda a=algo: a(T, trace=False))
        t_on, res = best_of(repeat, lambda a=algo: a(T, trace=True))
        t_read, _ = best_of(repeat, lambda a=algo: _read(a(T, trace=True)))
        t_graph, _ = best_of(repeat, lambda a=algo: _graphed(a(T, trace=False, graph=True)))
        t_both, _ = best_of(repeat, lambda a=algo: _graphed(a(T, trace=True)))
        rows.append([name, f"{res.stats['nodes_visited']:,}", f"{len(res.trace):,}",
                     f"{t_off * 1000:.1f}", f"{t_on * 1000:.1f}", f"{t_on / t_off:.2f}",
                     f"{t_read / t_off:.2f}", f"{t_graph * 1000:.1f}", f"{t_graph / t_minimax:.2f}",
                     f"{t_both * 1000:.1f}", f"{t_both / t_minimax:.2f}"])
    table(f"Tracing on {title} of {G.number_of_nodes():,} nodes (best of {repeat}; goals: traced/off <= 2, "
          "graph <= 2x traced minimax; graph: a(T, trace=False, graph=True).graph, traced + graph: "
          "a(T, trace=True).graph)",
          ["search", "nodes", "events", "off ms", "traced ms", "traced/off", "+ read/off", "graph ms",
           "graph/traced minimax", "traced + graph ms", "/traced minimax"], rows)


if __name__ == "__main__":
    main()
