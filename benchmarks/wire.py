"""What one round trip to the child costs: a learner's function called, a game method asked, a value sent.

Each row runs one kind of call many times in a :class:`gametrees.classroom.sandbox.Sandbox`
(the child that runs a learner's code for the grader) and gives the microseconds per call: wall
time, and CPU time in the grader's process and in the child's (every process under the grader, the
sandbox's included, read before and after the calls). On a busy machine the wall time grows with
the load; the CPU times are the cost of the wire itself (framing, numbering, encoding and decoding
at both ends).

Run: python benchmarks/wire.py [--calls N] (default 2000 calls a row)
"""

import argparse
import sys
import time
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from report import table

import gametrees as gt
from gametrees.classroom.sandbox import Sandbox
from gametrees.exercises.code_checks.harness import CountingTicTacToe

SOURCE = '''
def echo(x):
    return x

def asks(game, state, n):
    for _ in range(n):
        game.utility(state)

def repeats(game, state, n):
    for _ in range(n):
        game.to_move(state)
'''
SMALL = (3, 4.5, "e4")
LARGE = [{"move": (r, c), "value": r * 0.5, "seen": {r, c}} for r in range(25) for c in range(40)]  # 1,000


def children_cpu():
    """CPU seconds of every process under this one so far (the child, and the sandbox around it)."""
    total = 0.0
    for process in psutil.Process().children(recursive=True):
        try:
            times = process.cpu_times()
        except psutil.Error:  # ended meanwhile
            continue
        total += times.user + times.system
    return total


def measure(what, calls, run):
    """``[what, calls, wall, grader CPU, child CPU]`` in µs a call of ``run(box, calls)``."""
    with Sandbox([("bench", SOURCE)], ["echo", "asks", "repeats"], call_limit=600, load_limit=60) as box:
        wall, cpu, child = time.perf_counter(), time.process_time(), children_cpu()
        run(box, calls)
        wall, cpu, child = time.perf_counter() - wall, time.process_time() - cpu, children_cpu() - child
    return [what, f"{calls:,}"] + [f"{1e6 * t / calls:,.1f}" for t in (wall, cpu, child)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="calls a row (default 2000)")
    n = parser.parse_args(argv).calls
    won = gt.TicTacToe.from_string("XXX/OO./...")

    def echo(value):
        def run(box, calls):
            for _ in range(calls):
                box.functions["echo"](value)
        return run

    def game_calls(name, game, state):
        def run(box, calls):
            box.functions[name](game, state, calls)
        return run

    rows = [measure("a call: a small tuple there and back", n, echo(SMALL)),
            measure("a call: 1,000 dicts there and back", max(1, n // 20), echo(LARGE)),
            # utility of a game that logs the leaves always goes to the grader; to_move of tic-tac-toe is pure
            measure("a game method asked by the learner's code (utility)", n * 5,
                    game_calls("asks", CountingTicTacToe(), won)),
            measure("a pure method repeated (to_move, from the child's memo)", n * 50,
                    game_calls("repeats", gt.TicTacToe(), won))]
    table("The wire to the child: microseconds per call",
          ["call", "calls", "wall µs", "grader CPU µs", "child CPU µs"], rows)


if __name__ == "__main__":
    main()
