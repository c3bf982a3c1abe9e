"""The command line of the assignments: ``python -m gametrees.assignments release|grade|report ...``
(:func:`main`).

Every error is one line on stderr (``error: ...``) and exit status 2, argparse's own included. ``autograde``
checks its arguments, the course folder and the gradebook (:mod:`gametrees.classroom.course`) before nbgrader
starts, and keeps a student's earlier autograded result when the new run fails.

May import: :mod:`gametrees.classroom.releases`, :mod:`gametrees.classroom.grading`,
:mod:`gametrees.classroom.report` and :mod:`gametrees.classroom.course`;
:mod:`gametrees.classroom.autograding` (which needs nbgrader) inside :func:`main` only.
``export-grades`` loads :mod:`gametrees.classroom.lms` (which needs nbgrader) inside :func:`main` too.
"""

from __future__ import annotations

import argparse
import sys

from .course import CALL_LIMITS, JOBS, QUESTION_LIMITS, SUBMISSION_LIMITS, run_autograde, seconds_in_range
from .grading import grade
from .isolation import Isolation
from .releases import release
from .report import class_report

# ============================================================================
# Command line
# ============================================================================


class _Parser(argparse.ArgumentParser):
    """argparse, with its errors as one line on stderr (exit status 2)."""

    def error(self, message):
        self.exit(2, f"error: {message} (see {self.prog} --help)\n")


def _number(text, *kinds):
    """``text`` as the first of ``kinds`` (int, float) that reads it, or the text itself for the range check
    to name."""
    for kind in kinds:
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def main(argv=None):
    """``release SRC DST [--force]`` / ``grade NOTEBOOK [--student ID]`` / ``autograde COURSE_DIR ASSIGNMENT
    [--jobs N]`` / ``report COURSE_DIR ASSIGNMENT``."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help (0) or one line of argparse's (2)
        return stop.code
    try:
        if args.command == "release":
            for out in release(args.src, args.dst, force=args.force):
                print(f"wrote {out}")
            return 0
        if args.command == "autograde":
            return _autograde(args)
        if args.command == "report":
            print(class_report(args.course, args.assignment, out=args.out, chart=not args.no_chart,
                               force=args.force))
            return 0
        if args.command == "export-grades":
            from .lms import export_grades

            done = export_grades(args.course, args.format, roster=args.roster, out=args.out, force=args.force)
            for note in done.notes:
                print(f"note: {note}", file=sys.stderr)
            print(done)
            return 0
        report = grade(args.notebook, student=args.student, save=args.save, force=args.force)
    except (ValueError, TypeError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(report)
    return 0 if report.score == report.total and not report.errors else 1


def _parser():
    """The command line: one sub-command per task, each with its arguments."""
    parser = _Parser(prog="python -m gametrees.assignments",
                     description="Student versions, grading and class reports of the gametrees assignments.")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_release(sub)
    _add_grade(sub)
    _add_autograde(sub)
    _add_report(sub)
    _add_export_grades(sub)
    return parser


def _add_release(sub):
    r = sub.add_parser("release", help="write student versions (solutions cleared, outputs removed)")
    r.add_argument("src", help="an instructor notebook, or a folder of them")
    r.add_argument("dst", help="the folder to write the student versions to (never the source)")
    r.add_argument("--force", action="store_true",
                   help="overwrite student versions already in DST that release made (never any other "
                        "notebook: a lesson, an instructor version or a student's work)")


def _add_grade(sub):
    g = sub.add_parser("grade", help="run a notebook and score its test cells")
    g.add_argument("notebook")
    g.add_argument("--student", help="run as this student id (the seed of their trees)")
    g.add_argument("--save", help="write the executed notebook here (never the notebook itself)")
    g.add_argument("--force", action="store_true", help="replace an existing --save file grade did not write")


def _add_autograde(sub):
    a = sub.add_parser("autograde", help="nbgrader autograde of every submission, each grade decided outside "
                                         "the student's kernel and written into the gradebook",
                       description="nbgrader autograde of every submission, each grade decided outside the "
                                   "student's kernel and written into the gradebook. Every argument, the "
                                   "course folder and its gradebook are checked before nbgrader starts; a "
                                   "student's earlier autograded result is put back when grading them fails.")
    a.add_argument("course", help="the nbgrader course folder (holding source/, submitted/, gradebook.db)")
    a.add_argument("assignment", help="the assignment's name, e.g. A2")
    a.add_argument("--jobs", default="1", metavar="N",
                   help=f"submissions graded at the same time, {JOBS[0]} to {JOBS[1]} (default 1)")
    a.add_argument("--student", action="append", help="grade only this student (repeatable)")
    a.add_argument("--call-limit", default="5", metavar="SECONDS",
                   help=f"seconds one call of a student's function may take, {CALL_LIMITS[0]:g} to "
                        f"{CALL_LIMITS[1]:g} (default 5)")
    a.add_argument("--question-limit", default="60", metavar="SECONDS",
                   help=f"seconds one question's check may take in all, tournaments included, "
                        f"{QUESTION_LIMITS[0]:g} to {QUESTION_LIMITS[1]:g} (default 60)")
    a.add_argument("--submission-limit", default="300", metavar="SECONDS",
                   help="seconds the notebook's run, and the questions of one submission together, may "
                        f"take, {SUBMISSION_LIMITS[0]:g} to {SUBMISSION_LIMITS[1]:g} (default 300)")
    a.add_argument("--isolation", choices=("bwrap", "docker"), default="bwrap",
                   help="the sandbox every piece of student code runs in: bubblewrap (default) or Docker "
                        "(INSTRUCTORS.md builds its image)")
    a.add_argument("--unsafe-no-isolation", action="store_true",
                   help="grade WITHOUT a sandbox: student code runs with your rights (every verdict and the "
                        "report say so); only for a machine where bubblewrap cannot run")


def _add_report(sub):
    c = sub.add_parser("report",
                       help="what a class got right and wrong, from nbgrader's autograded submissions")
    c.add_argument("course", help="the nbgrader course folder (holding autograded/)")
    c.add_argument("assignment", help="the assignment's name, e.g. A2")
    c.add_argument("--out", help="folder for the CSV and the chart (default COURSE/reports)")
    c.add_argument("--no-chart", action="store_true", help="write the CSV only (no matplotlib)")
    c.add_argument("--force", action="store_true",
                   help="replace an existing CSV or PNG that no earlier report wrote, or that was changed "
                        "since (without it, only report's own unchanged files are replaced)")


def _add_export_grades(sub):
    """export-grades: grades to an LMS gradebook (gametrees.classroom.lms, nbgrader loaded on use)."""
    x = sub.add_parser("export-grades", help="nbgrader's grades as a file a Canvas or Moodle gradebook "
                                             "imports, or a plain CSV")
    x.add_argument("course", help="the nbgrader course folder (holding gradebook.db)")
    x.add_argument("--format", required=True, metavar="canvas|moodle|csv",
                   help="Canvas's gradebook import CSV, Moodle's grade import CSV, or a plain CSV")
    x.add_argument("--roster", metavar="FILE",
                   help="a CSV mapping nbgrader ids to the LMS's (columns: nbgrader_id, name, "
                        "lms_id, sis_user_id, login_id, section, email)")
    x.add_argument("--out", metavar="FILE",
                   help="the file to write (default COURSE/reports/grades_FORMAT.csv)")
    x.add_argument("--force", action="store_true", help="replace --out if it exists (never the gradebook "
                                                        "or the roster)")


def _autograde(args):
    """autograde: the sandbox checked first, then every submission graded; 1 when one was not."""
    def load():
        try:
            from .autograding import autograde
        except ImportError:
            raise ValueError("autograde needs nbgrader: pip install -r requirements-instructor.txt") \
                from None
        return autograde

    kind = "none" if args.unsafe_no_isolation else args.isolation
    Isolation(kind).check()  # fail closed before anything else: one line saying what to install
    rows, restored = run_autograde(
        load, args.course, args.assignment, jobs=_number(args.jobs, int), students=args.student,
        call_limit=_number(args.call_limit, int, float), cli=True,
        question_limit=seconds_in_range(_number(args.question_limit, int, float), QUESTION_LIMITS,
                                        "--question-limit"),
        submission_limit=seconds_in_range(_number(args.submission_limit, int, float),
                                          SUBMISSION_LIMITS, "--submission-limit"),
        isolation_kind=kind)
    failed = [r for r in rows if not r["success"]]
    print(f"{len(rows) - len(failed)} of {len(rows)} submissions graded"
          + (f"; not graded: {', '.join(r['student'] for r in failed)}" if failed else "")
          + (f"; earlier results kept for {', '.join(restored)}" if restored else ""))
    return 1 if failed else 0
