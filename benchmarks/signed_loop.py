"""Alpha-beta's MAX and MIN loops: two mirrored branches (as gametrees.search.pruning has them) against
one signed loop (negamax's trick: maximise sign * value, with the window seen from the mover's side).

Both are written here bare (no tracing, table or ordering), on the same TreeGame, to compare the loops
alone. Prints one table; the engine keeps the faster form.

Run: python benchmarks/signed_loop.py [--repeat N]
Timings are this process's CPU time, the best of N runs (default 15).
"""

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from report import best_of, table  # noqa: E402  (benchmarks/report.py)

import gametrees as gt  # noqa: E402
from gametrees.rules import cutoff_tests  # noqa: E402

INF = math.inf


def searches(game):
    """(two-branch alpha-beta, signed-loop alpha-beta) over ``game``, textbook tie rule."""
    is_terminal, utility, to_move, succ = game.is_terminal, game.utility, game.to_move, game.successors
    fails_high, fails_low = cutoff_tests(False)

    def branches(state, alpha, beta):
        if is_terminal(state):
            return utility(state)
        if to_move(state) == "max":
            v = -INF
            for _, c in succ(state):
                cv = branches(c, alpha, beta)
                if cv > v:
                    v = cv
                if fails_high(v, beta):
                    break
                if v > alpha:
                    alpha = v
        else:
            v = INF
            for _, c in succ(state):
                cv = branches(c, alpha, beta)
                if cv < v:
                    v = cv
                if fails_low(v, alpha):
                    break
                if v < beta:
                    beta = v
        return v

    def signed(state, alpha, beta):
        if is_terminal(state):
            return utility(state)
        s = 1 if to_move(state) == "max" else -1
        lo, hi = (alpha, beta) if s > 0 else (-beta, -alpha)  # the mover's window
        v = -INF
        for _, c in succ(state):
            cv = s * (signed(c, lo, hi) if s > 0 else signed(c, -hi, -lo))
            if cv > v:
                v = cv
            if fails_high(v, hi):
                break
            if v > lo:
                lo = v
        return s * v

    return branches, signed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    rows = []
    for name, G in [("random tree, b=3, d=9", gt.random_tree(3, 9, seed=1, values=(-50, 50))),
                    ("worst-ordered tree, b=3, d=8", gt.random_tree(3, 8, seed=1, values=(-10**6, 10**6),
                                                                   ordering="worst"))]:
        T = gt.TreeGame(G)
        branches, signed = searches(T)
        assert branches(T.initial, -INF, INF) == signed(T.initial, -INF, INF) == gt.alphabeta(T).value
        cpu = time.process_time
        t_b, _ = best_of(args.repeat, lambda f=branches, T=T: f(T.initial, -INF, INF), clock=cpu)
        t_s, _ = best_of(args.repeat, lambda f=signed, T=T: f(T.initial, -INF, INF), clock=cpu)
        rows.append([name, f"{t_b * 1000:.2f}", f"{t_s * 1000:.2f}", f"{t_s / t_b:.2f}"])
    table("Alpha-beta's loop, untraced: MAX and MIN branches against one signed loop",
          ["tree", "branches ms", "signed ms", "signed/branches"], rows)


if __name__ == "__main__":
    main()
