"""The command line of the assignments: ``python -m gametrees.assignments release|grade ...`` (:func:`main`).

May import: :mod:`gametrees.classroom.releases` and
:mod:`gametrees.classroom.grading`.
"""

from __future__ import annotations

import argparse
import sys

from .grading import grade
from .releases import release

# ============================================================================
# Command line
# ============================================================================


def main(argv=None):
    """``python -m gametrees.assignments release SRC DST`` / ``grade NOTEBOOK [--student ID]``."""
    parser = argparse.ArgumentParser(prog="python -m gametrees.assignments",
                                     description="Student versions and grading of the gametrees assignments.")
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("release", help="write student versions (solutions cleared, outputs removed)")
    r.add_argument("src", help="an instructor notebook, or a folder of them")
    r.add_argument("dst", help="the folder to write the student versions to")
    g = sub.add_parser("grade", help="run a notebook and score its test cells")
    g.add_argument("notebook")
    g.add_argument("--student", help="run as this student id (the seed of their trees)")
    g.add_argument("--save", help="write the executed notebook here")
    args = parser.parse_args(argv)
    try:
        if args.command == "release":
            for out in release(args.src, args.dst):
                print(f"wrote {out}")
            return 0
        report = grade(args.notebook, student=args.student, save=args.save)
    except (ValueError, TypeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(report)
    return 0 if report.score == report.total and not report.errors else 1
