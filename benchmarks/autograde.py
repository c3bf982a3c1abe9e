"""How long does nbgrader take to autograde a class? Prints one table.

A temporary nbgrader course gets the three assignments (``generate_assignment``)
and N synthetic submissions of each: every student id gets its own trees, and
its answers by hand are typed in as literals for that tree (as a student would),
its code is the instructor's solution (so every check runs to the end,
including A3's two 20-game tournaments). Then ``autograde`` runs each
submission in one process, as ``nbgrader autograde ASSIGNMENT`` does, and the
table gives seconds per submission and the time a class of 200 would take.

Run: python benchmarks/autograde.py [--students N] [--assignments A1 A2 A3]
(default 4 students of each assignment; 2-core machine: about a minute).
"""

import argparse
import json
import math
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import nbformat  # noqa: E402
from traitlets.config import Config  # noqa: E402

import gametrees as gt  # noqa: E402
from gametrees.classroom.grading import earned  # noqa: E402
from report import table  # noqa: E402

NAMES = {"A1": "A1_minimax", "A2": "A2_alpha_beta", "A3": "A3_connect_four_evaluation"}


def _literal(value):
    return re.sub(r"\binf\b", "math.inf", repr(value))


def by_hand(key, student):
    """``{answer cell: source}``: the right answers by hand for ``student``'s trees, as literals."""
    if key == "A1":
        t1 = gt.exercises.generate("values", seed=f"{student}/A1/1", difficulty="medium")
        t2 = gt.exercises.generate("best_move", seed=f"{student}/A1/2", difficulty="medium", root_player="min")
        return {"a1-q1-answer": f"def minimax_values():\n    return {t1.solution()!r}",
                "a1-q2-answer": f"def best_move_at_root():\n    return {t2.solution()!r}"}
    if key == "A2":
        p = gt.exercises.generate("pruning", seed=f"{student}/A2", difficulty="medium")
        r = gt.exercises.ValuesExercise(p.tree, algorithm="alphabeta")
        w = gt.exercises.WindowExercise(p.tree)
        return {"a2-q1-answer": f"def pruned_leaves():\n    return {p.solution()!r}",
                "a2-q2-answer": f"def returned_values():\n    return {r.solution()!r}",
                "a2-q3-answer": f"def window_when_it_returns():\n    return {_literal(w.solution())}"}
    return {}


def submission(student_version, instructor, key, student):
    """The student version with the instructor's code and ``student``'s own answers by hand."""
    nb = nbformat.from_dict(json.loads(json.dumps(student_version)))
    ours = {c.metadata.get("nbgrader", {}).get("grade_id"): c for c in instructor.cells}
    typed = by_hand(key, student)
    for c in nb.cells:
        gid = c.metadata.get("nbgrader", {}).get("grade_id")
        if gid in typed:
            c.source = typed[gid]
        elif c.metadata.get("nbgrader", {}).get("solution"):
            c.source = "\n".join(line for line in ours[gid].source.splitlines() if "### " not in line)
        if c.source.startswith("STUDENT_ID"):
            c.source = f"STUDENT_ID = {student!r}"
    return nb


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=4)
    parser.add_argument("--assignments", nargs="+", default=list(NAMES), choices=list(NAMES))
    args = parser.parse_args(argv)
    from nbgrader.apps import NbGraderAPI

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        course = Path(tmp) / "course"
        config = Config()
        config.CourseDirectory.root = str(course)
        config.CourseDirectory.course_id = "bench"
        api = NbGraderAPI(config=config)
        for key in args.assignments:
            name = NAMES[key]
            src = ROOT / "notebooks" / "assignments" / f"{name}.ipynb"
            (course / "source" / key).mkdir(parents=True)
            instructor = nbformat.read(src, as_version=4)
            nbformat.write(instructor, course / "source" / key / src.name)
            t0 = time.perf_counter()
            result = api.generate_assignment(key)
            generate = time.perf_counter() - t0
            if not result["success"]:
                sys.exit(result["error"] + result["log"])
            student_version = nbformat.read(course / "release" / key / src.name, as_version=4)
            students = [f"s{key.lower()}{i:03d}" for i in range(args.students)]
            for s in students:
                folder = course / "submitted" / s / key
                folder.mkdir(parents=True)
                nbformat.write(submission(student_version, instructor, key, s), folder / src.name)
            times, full = [], 0
            for s in students:
                t0 = time.perf_counter()
                result = api.autograde(key, s)
                times.append(time.perf_counter() - t0)
                if not result["success"]:
                    sys.exit(result["error"] + result["log"])
                nb = nbformat.read(course / "autograded" / s / key / src.name, as_version=4)
                tests = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]
                points = [float(c.metadata["nbgrader"]["points"]) for c in tests]
                full += sum(earned(c.outputs, p)[0] for c, p in zip(tests, points)) == sum(points)
            per = sum(times) / len(times)
            rows.append((key, len(students), f"{full} of {len(students)}", f"{generate:.1f}", f"{sum(times):.1f}",
                         f"{per:.2f}", f"{min(times):.2f}-{max(times):.2f}", f"{200 * per / 60:.1f}"))
    table("nbgrader autograde, one process (seconds)",
          ("assignment", "submissions", "full marks", "generate", "autograde total", "per submission", "range",
           "200 students (min)"), rows)
    total = sum(float(r[7]) for r in rows)
    print(f"\n200 students x {len(rows)} assignment{'s' if len(rows) > 1 else ''}: about {math.ceil(total)} minutes")


if __name__ == "__main__":
    main()
