"""The command line of the assignments: ``python -m gametrees.assignments release|grade|report ...`` (:func:`main`).

May import: :mod:`gametrees.classroom.releases`, :mod:`gametrees.classroom.grading`
and :mod:`gametrees.classroom.report`; :mod:`gametrees.classroom.autograding` (which needs nbgrader) inside
:func:`main` only.
"""

from __future__ import annotations

import argparse
import sys

from .grading import grade
from .releases import release
from .report import class_report

# ============================================================================
# Command line
# ============================================================================


def main(argv=None):
    """``release SRC DST [--force]`` / ``grade NOTEBOOK [--student ID]`` / ``autograde COURSE_DIR ASSIGNMENT
    [--jobs N]`` / ``report COURSE_DIR ASSIGNMENT``."""
    parser = argparse.ArgumentParser(prog="python -m gametrees.assignments",
                                     description="Student versions, grading and class reports of the gametrees "
                                                 "assignments.")
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("release", help="write student versions (solutions cleared, outputs removed)")
    r.add_argument("src", help="an instructor notebook, or a folder of them")
    r.add_argument("dst", help="the folder to write the student versions to (never the source)")
    r.add_argument("--force", action="store_true", help="overwrite student versions already in DST")
    g = sub.add_parser("grade", help="run a notebook and score its test cells")
    g.add_argument("notebook")
    g.add_argument("--student", help="run as this student id (the seed of their trees)")
    g.add_argument("--save", help="write the executed notebook here (never the notebook itself)")
    g.add_argument("--force", action="store_true", help="replace an existing --save file grade did not write")
    a = sub.add_parser("autograde", help="nbgrader autograde of every submission, each grade decided outside the "
                                         "student's kernel and written into the gradebook")
    a.add_argument("course", help="the nbgrader course folder (holding source/, submitted/, gradebook.db)")
    a.add_argument("assignment", help="the assignment's name, e.g. A2")
    a.add_argument("--jobs", type=int, default=1, help="submissions graded at the same time (default 1)")
    a.add_argument("--student", action="append", help="grade only this student (repeatable)")
    a.add_argument("--call-limit", type=float, default=5.0,
                   help="seconds one call of a student's function may take (default 5)")
    a.add_argument("--question-limit", type=float, default=60.0,
                   help="seconds one question's check may take in all, tournaments included (default 60)")
    a.add_argument("--submission-limit", type=float, default=300.0,
                   help="seconds the notebook's run, and the questions of one submission together, may take "
                        "(default 300)")
    a.add_argument("--isolation", choices=("bwrap", "docker"), default="bwrap",
                   help="the sandbox every piece of student code runs in: bubblewrap (default) or Docker "
                        "(INSTRUCTORS.md builds its image)")
    a.add_argument("--unsafe-no-isolation", action="store_true",
                   help="grade WITHOUT a sandbox: student code runs with your rights (every verdict and the "
                        "report say so); only for a machine where bubblewrap cannot run")
    c = sub.add_parser("report", help="what a class got right and wrong, from nbgrader's autograded submissions")
    c.add_argument("course", help="the nbgrader course folder (holding autograded/)")
    c.add_argument("assignment", help="the assignment's name, e.g. A2")
    c.add_argument("--out", help="folder for the CSV and the chart (default COURSE/reports)")
    c.add_argument("--no-chart", action="store_true", help="write the CSV only (no matplotlib)")
    args = parser.parse_args(argv)
    try:
        if args.command == "release":
            for out in release(args.src, args.dst, force=args.force):
                print(f"wrote {out}")
            return 0
        if args.command == "autograde":
            if args.jobs < 1:
                raise ValueError(f"--jobs must be 1 or more, got {args.jobs}")
            try:
                from .autograding import autograde
            except ImportError:
                raise ValueError("autograde needs nbgrader: pip install -r requirements-instructor.txt") from None
            rows = autograde(args.course, args.assignment, jobs=args.jobs, students=args.student,
                             call_limit=args.call_limit, question_limit=args.question_limit,
                             submission_limit=args.submission_limit,
                             isolation_kind="none" if args.unsafe_no_isolation else args.isolation)
            failed = [r for r in rows if not r["success"]]
            print(f"{len(rows) - len(failed)} of {len(rows)} submissions graded"
                  + (f"; not graded: {', '.join(r['student'] for r in failed)}" if failed else ""))
            return 1 if failed else 0
        if args.command == "report":
            print(class_report(args.course, args.assignment, out=args.out, chart=not args.no_chart))
            return 0
        report = grade(args.notebook, student=args.student, save=args.save, force=args.force)
    except (ValueError, TypeError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(report)
    return 0 if report.score == report.total and not report.errors else 1
