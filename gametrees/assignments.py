"""Classroom assignments: per-student variants, the checks, student versions, and grades decided outside
the kernel.

The assignments (A1 minimax, A2 alpha-beta, A3 a Connect Four evaluation
function) are written in nbgrader's format: the instructor versions, with
solutions, in ``instructor/assignments/``; the student versions ``release``
makes from them (no solutions, no outputs) in ``notebooks/assignments/``. This
module is the short façade of what they share (the code lives in
:mod:`gametrees.classroom`); it imports only their public names:

:func:`student_id`
    The id that seeds a student's trees *in their kernel*, for the feedback
    while working: while nbgrader autogrades, the submission's folder; else
    ``GAMETREES_STUDENT_ID``; else the id typed in the notebook; else
    ``"practice"`` on an instructor's hub server (``GAMETREES_ROLE=instructor``);
    else ``JUPYTERHUB_USER``; else ``"practice"`` (with a warning).
:func:`check_answer`, :func:`check_code`, :func:`check_best_move`,
:func:`check_connect4_evaluation`, :func:`check_tournament`, :func:`score`
    The checks the notebooks' check cells run: the student's feedback.
:func:`question`
    A question the instructor declares in the notebook (INSTRUCTORS.md, "Writing your own question"):
    the student's exercise or code check in their kernel; the grader reads the line as data.
:func:`release`
    Student versions, with nbgrader's own preprocessors; with ``force``, only
    over a student version it made itself (its mark in the metadata), never
    over a lesson, an instructor version or a student's work.
:func:`autograde`
    nbgrader's autograde of every submission, ``jobs`` at a time, with every
    grade decided **outside the student's kernel** and written into nbgrader's
    gradebook (:mod:`gametrees.classroom.autograding`); the arguments, the
    course folder and the gradebook checked first, a student's earlier result
    kept when the new run fails (:mod:`gametrees.classroom.course`).
:func:`grade`
    One notebook: run for its feedback, points decided as ``autograde`` does.
:func:`class_report`
    Per question: right, mean points, misconception tags with counts; flags,
    errors and timeouts apart; a CSV and a chart.

**Who decides the grade.** Anything in a student's kernel can be patched by the
student, so the checks in the notebook only give feedback. The grader reads
the submitted notebook as data: the trees from the id nbgrader files the
submission under (always; a typed id, an environment variable, the working
folder never change it, and a mismatch is flagged); answers by hand read with
``ast``; code run in a child interpreter (``python -I -S``, an audit hook
installed before any student code) that cannot import gametrees, open files,
start processes or threads, load ctypes or change tracing, and reaches the game
only through a proxy over a pipe; returned values are plain data (an object
with a rigged ``__eq__`` cannot be returned); a call that does not return in
5 s is stopped ("your function did not return within 5 s") and the rest is
graded. Refused: the library's search, tracing changes, threads, subprocesses,
a copy of the package, the classroom's helpers, file reads. Flagged: all of
those, the library's answers asked by hand, the graded check called in a loop,
ids that disagree, check cells whose record is missing or disagrees. Not
protected: work done outside the submitted notebook (another program, a loop
deleted before handing in) and code copied from this public repository
(INSTRUCTORS.md says how to run a course from a private copy).

nbgrader 0.9's ``fetch_assignment`` fetches into the current folder
(``./A2/``). nbgrader stops a cell after 30 s; the checks stop a student's
function after 20 s (``GAMETREES_CHECK_LIMIT``) with a plain message first.

From the command line::

    python -m gametrees.assignments release instructor/assignments /tmp/student
    python -m gametrees.assignments autograde ~/course A2 --jobs 2
    python -m gametrees.assignments grade /tmp/student/A1_minimax.ipynb --student jdoe
    python -m gametrees.assignments report ~/course A2

Examples
--------
>>> import gametrees as gt
>>> from gametrees import assignments as ga
>>> ex = gt.exercises.ValuesExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
>>> def my_values():
...     raise NotImplementedError()
>>> print(ga.check_answer(ex, my_values))
✗ Minimax values: not answered yet.
✗ my_values() still raises NotImplementedError: replace the two lines `# YOUR CODE HERE` and
`raise NotImplementedError()` with your answer, e.g. `return {'A': 3, 'B': 5}`.
>>> def my_values():
...     return {"A": 3, "B": 3, "C": 2, "D": 2}
>>> ga.check_answer(ex, my_values).ok
True
"""

from __future__ import annotations

import sys

from .classroom.checks import check_answer, check_best_move, check_code
from .classroom.cli import main
from .classroom.connect_four import (
    centre_column_evaluation,
    check_connect4_evaluation,
    check_tournament,
    reference_agent,
)
from .classroom.course import run_autograde
from .classroom.declarations import question
from .classroom.grading import GradeReport, grade
from .classroom.ids import DEFAULT_ID, ENV_VAR, id_warnings, student_id
from .classroom.integrity import library_use, protect
from .classroom.releases import release
from .classroom.report import ClassReport, class_report
from .classroom.scoring import Score, score


def autograde(course, assignment, *, jobs=1, students=None, call_limit=5.0, echo=print):
    """nbgrader's autograde of every submission, each grade decided outside the student's kernel.

    See :func:`gametrees.classroom.autograding.autograde` (needs nbgrader; loaded on first call). Every
    argument, the course folder and its gradebook are checked before nbgrader starts
    (:mod:`gametrees.classroom.course`); a student's earlier ``autograded/<student>/<assignment>`` is put
    back when the new run fails (:class:`~gametrees.classroom.course.EarlierResults`).
    """
    def load():
        from .classroom.autograding import autograde as run

        return run

    rows, restored = run_autograde(load, course, assignment, jobs=jobs, students=students,
                                   call_limit=call_limit, echo=echo)
    for student in restored:
        echo(f"{student}: earlier autograded result kept")
    return rows

__all__ = [
    "ClassReport",
    "DEFAULT_ID",
    "ENV_VAR",
    "GradeReport",
    "Score",
    "autograde",
    "centre_column_evaluation",
    "check_answer",
    "check_best_move",
    "check_code",
    "check_connect4_evaluation",
    "check_tournament",
    "class_report",
    "grade",
    "id_warnings",
    "library_use",
    "protect",
    "question",
    "reference_agent",
    "release",
    "score",
    "student_id",
]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
