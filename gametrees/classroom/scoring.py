"""What a graded check cell shows and how nbgrader scores it: :func:`score`, :class:`Score`,
:func:`misconceptions`.

A test cell ends with ``ga.score(fb, points)``. Its result is the check's
feedback, formatted the same whether it passed or not (wrapped to the page),
with the points in the grade's terms, the id warnings of
:func:`~gametrees.classroom.ids.id_warnings` and the flags of
:mod:`~gametrees.classroom.integrity`. nbgrader scores a test cell by its
output: no error and a result that is not a number earns every point; a
result that reads as a number earns that many. So a passed check's plain text
is a sentence (every point) and a failed one's is ``0`` (no point), with no
traceback in the feedback. The result also carries the check as JSON
(``application/vnd.gametrees.check+json``), which the class report reads.

May import: the standard library, :mod:`gametrees.classroom.ids`,
:mod:`gametrees.classroom.integrity` and the public names of
:mod:`gametrees.exercises.feedback`.
"""

from __future__ import annotations

import html

from ..exercises.feedback import Feedback, fmt
from .ids import LAST, id_warnings
from .integrity import uses

#: The mime type of a check's record in a graded notebook's outputs.
MIME = "application/vnd.gametrees.check+json"

def misconceptions(fb):
    """The misconception tags a :class:`Feedback` names (from the project's catalogue; no repeats).

    Examples
    --------
    >>> import gametrees as gt
    >>> ex = gt.exercises.PruningExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    >>> misconceptions(ex.check(["I", "J"]))
    []
    """
    return list(dict.fromkeys(getattr(fb, "tags", ())))


class Score:
    """A graded check's result: the feedback and the points (see the module's docstring).

    Attributes
    ----------
    feedback : Feedback
    points : float
        The question's points.
    earned : float
        ``points`` when the check passed, else 0 (a question is right or not).
    warnings, flags : list of str
        Id warnings, and the library's answers the notebook asked for.
    """

    def __init__(self, feedback, points, flags=()):
        self.feedback = feedback
        self.points = float(points)
        self.earned = self.points if feedback.ok else 0.0
        self.warnings = id_warnings()
        self.flags = list(flags)
        self.student = LAST["id"]

    def _points_line(self):
        if getattr(self.feedback, "deferred", False):
            return f"the {fmt(self.points)} points are decided by the grader outside this notebook."
        if self.feedback.ok:
            return f"{fmt(self.earned)} of {fmt(self.points)} points."
        # what was right, in the question's own terms, is the feedback's title just above
        return f"0 of {fmt(self.points)} points: a question earns its points only when all of it is right."

    def __repr__(self):
        lines = [repr(self.feedback)]
        lines += [f"⚠ {w}" for w in self.warnings]
        lines += [f"⚑ Flagged for your instructor: {f}." for f in self.flags]
        lines.append(("✓ " if self.feedback.ok else "✗ ") + self._points_line())
        return "\n".join(lines)

    def record(self):
        """The check as a dict (what the class report reads)."""
        return {"ok": self.feedback.ok, "earned": self.earned, "points": self.points,
                "title": self.feedback.title, "right": self.feedback.score[0],
                "checked": self.feedback.score[1],
                "misconceptions": misconceptions(self.feedback), "flags": self.flags,
                "library": list(getattr(self.feedback, "library", [])), "warnings": self.warnings,
                "student": self.student, "text": repr(self),
                "deferred": bool(getattr(self.feedback, "deferred", False)),
                "tags": list(getattr(self.feedback, "tags", ()))}

    def _repr_html_(self):
        esc = html.escape
        extra = "".join(f'<div style="color: #8a5a00">⚠ {esc(w)}</div>' for w in self.warnings)
        extra += "".join(f'<div style="color: #D55E00">⚑ Flagged for your instructor: {esc(f)}.</div>'
                         for f in self.flags)
        colour = "#0072B2" if self.feedback.ok else "#D55E00"
        mark = "✓" if self.feedback.ok else "✗"
        return ('<div class="gametrees-score" style="max-width: 100%; white-space: normal; '
                'overflow-wrap: anywhere; word-break: normal">'
                f"{self.feedback._repr_html_()}{extra}"
                f'<div style="font-weight: bold; color: {colour}; margin-top: 0.2em">{mark} '
                f"{esc(self._points_line())}</div></div>")

    def _repr_mimebundle_(self, include=None, exclude=None):
        # nbgrader reads text/plain: a sentence earns every point, "0" none.
        plain = repr(self) if self.feedback.ok else "0"
        return {"text/plain": plain, "text/html": self._repr_html_(), MIME: self.record()}


def score(feedback, points, exercise=None):
    """The result of a graded check cell: ``ga.score(fb, 2)`` as the cell's last line.

    Parameters
    ----------
    feedback : Feedback
        The check's feedback.
    points : int or float
        The question's points (as in the cell's nbgrader metadata).
    exercise : gametrees.exercises.Exercise, optional
        For a question by hand: its library uses are flagged
        (:func:`gametrees.classroom.integrity.uses`). Default: the exercise
        :func:`~gametrees.classroom.checks.check_answer` checked.

    Returns
    -------
    Score

    Raises
    ------
    TypeError
        If ``feedback`` is not a Feedback or ``points`` not a number.

    Examples
    --------
    >>> import gametrees as gt
    >>> ex = gt.exercises.PruningExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    >>> s = score(ex.check(["I"]), 2)
    >>> s.earned, s._repr_mimebundle_()["text/plain"]
    (0.0, '0')
    >>> print(repr(s).splitlines()[-1])
    ✗ 0 of 2 points: a question earns its points only when all of it is right.
    """
    if not isinstance(feedback, Feedback):
        raise TypeError(f"feedback must be the Feedback of a check, got {type(feedback).__name__}")
    if isinstance(points, bool) or not isinstance(points, (int, float)) or points < 0:
        raise TypeError(f"points must be a number >= 0, got {points!r}")
    exercise = exercise if exercise is not None else getattr(feedback, "exercise", None)
    flags = uses(exercise) if exercise is not None else []
    return Score(feedback, points, flags)
