"""A3's tournaments, one per student: is the bar fair on every student's variant?

Each student's tournament against the weak reference is played from a seed drawn from their id
(gametrees.classroom.connect_four.tournament_seed), one of WEAK_SEEDS. This script measures, for the
first N student ids, that A3's reference evaluation (the instructor notebook's solution) passes both
tournaments on every variant, and that a weak evaluation (the weak reference's own: pieces in the
centre column; and a constant 0) fails the one against the weak reference on every variant::

    python benchmarks/a3_variants.py                 # 200 student ids
    python benchmarks/a3_variants.py --students 20

``--pool K`` measures candidate seeds 0, 1, 2, ... against the weak reference and prints the first K on
which the reference evaluation wins at least 14 of 20 games and the centre-column evaluation at most 11
(the bar is 13): the list WEAK_SEEDS holds. ``--plain K`` prints the same measurement for K seeds drawn
straight from student ids (no pool), to show why the pool is needed: there the two overlap.
"""

import argparse
import contextlib
import hashlib
import io
import json
import statistics
import sys
import time
from pathlib import Path

from report import table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# E402 below: gametrees is imported from this checkout, so after the sys.path.insert above

import gametrees as gt  # noqa: E402
from gametrees.agents import AlphaBetaAgent  # noqa: E402
from gametrees.classroom.connect_four import (  # noqa: E402
    centre_column_evaluation,
    check_tournament,
    reference_agent,
)
from gametrees.tournaments import tournament  # noqa: E402


def reference_evaluation():
    """A3's solution, read from the instructor notebook (its helper cell and its answer cell)."""
    nb = json.loads((ROOT / "instructor" / "assignments" / "A3_connect_four_evaluation.ipynb").read_text())
    cells = {c["metadata"].get("nbgrader", {}).get("grade_id"): "".join(c["source"]) for c in nb["cells"]}
    space = {"gt": gt}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(cells["a3-helpers"], space)  # noqa: S102 -- the notebook's own cells
        exec(cells["a3-answer"], space)  # noqa: S102
    return space["evaluate"]


EVALUATIONS = {"reference": reference_evaluation(), "centre column": centre_column_evaluation,
               "constant 0": lambda state: 0.0}


def wins(evaluate, seed, opponent="weak"):
    agent = AlphaBetaAgent(depth=3, evaluate=evaluate, name="you")
    result = tournament(agent, reference_agent(opponent), gt.ConnectFour(), games=20, seed=seed,
                        progress=False)
    return result.wins["you"]


def pool(k):
    found, seed = [], 0
    while len(found) < k:
        ref, weak = wins(EVALUATIONS["reference"], seed), wins(centre_column_evaluation, seed)
        if ref >= 14 and weak <= 11:
            found.append(seed)
        kept = "  (kept)" if found[-1:] == [seed] else ""
        print(f"seed {seed}: reference {ref}, centre column {weak}{kept}", flush=True)
        seed += 1
    print(f"WEAK_SEEDS = {tuple(found)!r}")


def plain(k):
    rows = []
    for name, evaluate in EVALUATIONS.items():
        seeds = [int.from_bytes(hashlib.sha256(f"student{i:03d}/A3/weak".encode()).digest()[:8], "big")
                 for i in range(k)]
        got = [wins(evaluate, seed) for seed in seeds]
        rows.append((name, k, min(got), statistics.median(got), max(got)))
    table(f"Wins of 20 against the weak reference, seeds straight from {k} student ids (no pool)",
          ["evaluation", "variants", "min", "median", "max"], rows)


def variants(n):
    rows = []
    for opponent in ("random", "weak"):
        for name, evaluate in EVALUATIONS.items():
            t0, passed, got = time.perf_counter(), 0, []
            for i in range(n):
                fb = check_tournament(evaluate, opponent, games=20, variant=f"student{i:03d}/A3")
                passed += fb.ok
                got.append(fb.result.wins["you"])
            rows.append((opponent, name, f"{passed} of {n}", min(got), statistics.median(got), max(got),
                         f"{time.perf_counter() - t0:.0f}"))
    table(f"A3's tournaments on the variants of {n} student ids (bar: 18 of 20 against random, 13 against "
          "weak)",
          ["opponent", "evaluation", "passed", "min wins", "median", "max wins", "seconds"], rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--pool", type=int, default=0, help="find this many seeds for WEAK_SEEDS")
    parser.add_argument("--plain", type=int, default=0, help="seeds straight from this many ids (no pool)")
    args = parser.parse_args()
    if args.pool:
        pool(args.pool)
    elif args.plain:
        plain(args.plain)
    else:
        variants(args.students)


if __name__ == "__main__":
    main()
