"""Classroom assignments: per-student variants, the assignments' checks, student versions, grading.

The assignments in ``notebooks/assignments/`` (A1 minimax, A2 alpha-beta, A3 a
Connect Four evaluation function) are written in nbgrader's format: solution
regions between ``### BEGIN SOLUTION`` and ``### END SOLUTION``, autograded test
cells with points. This module is the short façade of what they share (the code
lives in :mod:`gametrees.classroom`: ``ids``, ``checks``, ``connect_four``,
``releases``, ``grading``, ``cli``); it imports only their public names:

:func:`student_id`
    The id that seeds a student's trees: the environment variable
    ``GAMETREES_STUDENT_ID`` if set, else (while nbgrader autogrades) the
    student folder nbgrader files the submission under, else the id the
    student typed in the notebook, else ``"practice"``.
:func:`check_answer`
    Calls a student's answer function (``def my_values(): return {...}``) and
    checks what it returns against an exercise of :mod:`gametrees.exercises`;
    an unanswered question (``raise NotImplementedError()``) is a clear
    message, not a traceback.
:func:`check_code`
    Runs a checker of a student's function (``check_minimax``,
    ``check_alphabeta``, :func:`check_best_move`, ...), or says "not written
    yet" while the function still raises ``NotImplementedError``.
:func:`check_best_move`
    Checks ``best_move(game, state) -> move`` (minimax, or alpha-beta with
    the window carried from one root child to the next).
:func:`check_connect4_evaluation`, :func:`check_tournament`
    Check a Connect Four evaluation function on telling positions (the
    viewpoint, the scale against a win's utility of 1) and in a seeded
    tournament against reference agents (:func:`reference_agent`).
:func:`release`
    The student version of an assignment: solutions replaced by
    ``raise NotImplementedError()``, outputs cleared, with nbgrader's own
    preprocessors (as ``nbgrader generate_assignment`` does, without its
    database).
:func:`grade`
    Runs a notebook and scores its test cells (a small stand-in for
    ``nbgrader autograde`` when no gradebook is set up).
:func:`class_report`
    Per question of an assignment, from nbgrader's autograded submissions:
    how many students got it right, the mean points, the misconceptions
    named with their counts; a CSV and a bar chart.

From the command line::

    python -m gametrees.assignments release notebooks/assignments /tmp/student
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
✗ my_values() still raises NotImplementedError: replace the two lines `# YOUR CODE HERE` and `raise NotImplementedError()` with your answer, e.g. `return {'A': 3, 'B': 5}`.
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
from .classroom.grading import GradeReport, grade
from .classroom.ids import DEFAULT_ID, ENV_VAR, id_warnings, student_id
from .classroom.integrity import library_use, protect
from .classroom.releases import release
from .classroom.report import ClassReport, class_report
from .classroom.scoring import Score, score

__all__ = [
    "ClassReport",
    "DEFAULT_ID",
    "ENV_VAR",
    "GradeReport",
    "Score",
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
    "reference_agent",
    "release",
    "score",
    "student_id",
]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
