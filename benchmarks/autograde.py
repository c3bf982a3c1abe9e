"""How long does grading a class take: plain nbgrader autograde against the grader, in the same run.

Prints one table.

Two temporary nbgrader courses get the three assignments (``generate_assignment``)
and the same N synthetic submissions of each: every student id gets its own
trees, its answers by hand typed as literals for that tree (as a student would),
its code the instructor's solution (so every check runs to the end, including
A3's two 20-game tournaments). In one course plain ``nbgrader autograde`` grades
them one after the other (the grade decided in the kernel); in the other
:func:`gametrees.classroom.autograding.autograde` does (nbgrader's autograde plus
every grade decided outside the kernel and written to the gradebook) with
``--jobs N``, every piece of student code in its bubblewrap sandbox. The table
gives seconds per submission (wall time / submissions), the ratio, and the time
a class of 200 would take. A second table grades the A2 class again with one
more submission whose functions sleep 3 s in every call (the issue's slow
student): the class's time with and without it, and that submission's own.

Run: python benchmarks/autograde.py [--students N] [--jobs 2] [--assignments A1 A2 A3] [--no-sleeper]
(default 4 students of each assignment, 2 jobs).
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

import nbformat  # noqa: E402 (after the path is set)
from report import table  # noqa: E402 (after the path is set)
from traitlets.config import Config  # noqa: E402 (after the path is set)

import gametrees as gt  # noqa: E402 (after the path is set)

NAMES = {"A1": "A1_minimax", "A2": "A2_alpha_beta", "A3": "A3_connect_four_evaluation"}


def _literal(value):
    return re.sub(r"\binf\b", "math.inf", repr(value))


def by_hand(key, student):
    """``{answer cell: source}``: the right answers by hand for ``student``'s trees, as literals."""
    if key == "A1":
        t1 = gt.exercises.generate("values", seed=f"{student}/A1/1", difficulty="medium")
        t2 = gt.exercises.generate("best_move", seed=f"{student}/A1/2", difficulty="medium",
                                   root_player="min")
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


SLEEP = "import time as _time\n_time.sleep(3)\n"


def submission(student_version, instructor, key, student, sleeper=False):
    """The student version with the instructor's code and ``student``'s own answers by hand (a ``sleeper``'s
    functions sleep 3 s at the start of every call)."""
    nb = nbformat.from_dict(json.loads(json.dumps(student_version)))
    ours = {c.metadata.get("nbgrader", {}).get("grade_id"): c for c in instructor.cells}
    typed = by_hand(key, student)
    for c in nb.cells:
        gid = c.metadata.get("nbgrader", {}).get("grade_id")
        if gid in typed:
            c.source = typed[gid]
        elif c.metadata.get("nbgrader", {}).get("solution"):
            c.source = "\n".join(line for line in ours[gid].source.splitlines() if "### " not in line)
            if sleeper:
                c.source = re.sub(r"(def \w+\(.*\):\n)", lambda m: m.group(1) + "    " + SLEEP.replace(
                    "\n", "\n    ", 1), c.source)
        if c.source.startswith("STUDENT_ID"):
            c.source = f"STUDENT_ID = {student!r}"
    return nb


def _course(tmp, name, keys, students_per, sleepers=0):
    """A course folder with the assignments generated and every synthetic submission in ``submitted/``."""
    from nbgrader.apps import NbGraderAPI

    course = Path(tmp) / name
    config = Config()
    config.CourseDirectory.root = str(course)
    config.CourseDirectory.course_id = "bench"
    api = NbGraderAPI(config=config)
    (course).mkdir(parents=True)
    (course / "nbgrader_config.py").write_text("c = get_config()\nc.CourseDirectory.course_id = 'bench'\n")
    students = {}
    for key in keys:
        src = ROOT / "instructor" / "assignments" / f"{NAMES[key]}.ipynb"
        (course / "source" / key).mkdir(parents=True)
        instructor = nbformat.read(src, as_version=4)
        nbformat.write(instructor, course / "source" / key / src.name)
        result = api.generate_assignment(key)
        if not result["success"]:
            sys.exit(result["error"] + result["log"])
        student_version = nbformat.read(course / "release" / key / src.name, as_version=4)
        students[key] = [f"s{key.lower()}{i:03d}" for i in range(students_per)]
        students[key] += [f"zz-sleeper{i}" for i in range(sleepers)]
        for s in students[key]:
            folder = course / "submitted" / s / key
            folder.mkdir(parents=True)
            sleeper = s.startswith("zz-sleeper")
            nbformat.write(submission(student_version, instructor, key, s, sleeper=sleeper),
                           folder / src.name)
    return course, api, students


def _points(course, key, student):
    nb = nbformat.read(next((course / "autograded" / student / key).glob("*.ipynb")), as_version=4)
    return nb


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--assignments", nargs="+", default=list(NAMES), choices=list(NAMES))
    parser.add_argument("--no-sleeper", action="store_true",
                        help="leave out the class with a sleeping submission")
    args = parser.parse_args(argv)
    from nbgrader.api import Gradebook

    from gametrees.classroom.autograding import autograde

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        plain, api, students = _course(tmp, "plain", args.assignments, args.students)
        clean, _, _ = _course(tmp, "clean", args.assignments, args.students)
        for key in args.assignments:
            # plain nbgrader: one process, one submission after the other (the grade decided in the kernel)
            t0 = time.perf_counter()
            for s in students[key]:
                result = api.autograde(key, s)
                if not result["success"]:
                    sys.exit(result["error"] + result["log"])
            plain_per = (time.perf_counter() - t0) / len(students[key])
            # the grader: nbgrader's autograde plus the verdict outside the kernel, --jobs N
            t0 = time.perf_counter()
            graded = autograde(clean, key, jobs=args.jobs, echo=lambda line: None)
            clean_per = (time.perf_counter() - t0) / len(students[key])
            if not all(r["success"] for r in graded):
                sys.exit(f"autograde failed: {graded}")
            full = sum(r["earned"] == r["points"] and not r["flags"] for r in graded)
            with Gradebook(f"sqlite:///{clean / 'gradebook.db'}", course_id="bench") as gb:
                in_book = sum(gb.find_submission(key, s).score == gb.find_submission(key, s).max_score
                              for s in students[key])
            rows.append((key, len(students[key]), f"{full} of {len(students[key])}", f"{in_book}",
                         f"{plain_per:.2f}", f"{clean_per:.2f}", f"{clean_per / plain_per:.2f}",
                         f"{200 * clean_per / 60:.1f}"))
    table(f"seconds per submission: plain nbgrader autograde (sequential) vs the grader with --jobs "
          f"{args.jobs}, same run",
          ("assignment", "submissions", "full marks, no flag", "full in gradebook", "plain nbgrader",
           f"grader --jobs {args.jobs}", "ratio", "200 students (min)"), rows)
    total = sum(float(r[7]) for r in rows)
    print(f"\n200 students x {len(rows)} assignment{'s' if len(rows) > 1 else ''} with the grader, "
          f"--jobs {args.jobs}: about {math.ceil(total)} minutes")
    if not args.no_sleeper:
        sleeper_table(args.students, args.jobs)


def sleeper_table(students, jobs):
    """The A2 class graded with and without one submission that sleeps 3 s in every call."""
    from gametrees.classroom.autograding import autograde

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for label, sleepers in (("honest class", 0), ("with one sleeper", 1)):
            course, _, names = _course(tmp, label.replace(" ", "-"), ["A2"], students, sleepers=sleepers)
            t0 = time.perf_counter()
            graded = autograde(course, "A2", jobs=jobs, echo=lambda line: None)
            wall = time.perf_counter() - t0
            honest = [r for r in graded if not r["student"].startswith("zz-")]
            slow = [r for r in graded if r["student"].startswith("zz-")]
            rows.append((label, len(graded), f"{wall:.1f}",
                         f"{sum(r['earned'] == r['points'] for r in honest)} of {len(honest)}",
                         f"{slow[0]['seconds']:.1f}" if slow else "-",
                         f"{slow[0]['earned']:g} of {slow[0]['points']:g}" if slow else "-"))
    table(f"A2 with --jobs {jobs}: a submission that sleeps 3 s in every call (call limit 5 s, "
          "question limit 60 s)",
          ("class", "submissions", "wall s", "honest at full marks", "sleeper's own s", "sleeper's points"),
          rows)


if __name__ == "__main__":
    main()
