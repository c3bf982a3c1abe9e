"""What a graded check cell shows and how nbgrader scores it: :func:`score`, :class:`Score`, :func:`misconceptions`.

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
import re

from ..exercises.feedback import Feedback, fmt
from .ids import LAST, id_warnings
from .integrity import uses

#: The mime type of a check's record in a graded notebook's outputs.
MIME = "application/vnd.gametrees.check+json"

# Misconceptions named by the checks (the numbers are those of the course's list of learner
# misconceptions); each is recognised by what its ✗ line or hint says.
MISCONCEPTIONS = (
    ("hands the work to gametrees", "handed the work to the library"),
    ("still raises NotImplementedError|not answered yet|not written yet", "not answered"),
    ("could not read your answer|could not be read", "answer not in the expected form"),
    ("You took the (largest|smallest) value, but (MIN|MAX) picks|You chose what (MAX|MIN) would"
     "|Ask whose turn it is", "MAX and MIN roles swapped or turns assumed to alternate (1)"),
    ("You pruned with the (strict|textbook) rule|A tie counts under the textbook rule|A tie: the textbook rule",
     "tie rule (≤/≥ vs </>) wrong (7)"),
    ("pruned too:", "missed a cutoff (8)"),
    ("is evaluated: when|is visited, not pruned", "pruned without evidence (8)"),
    ("is not a leaf: the question asks for the leaves", "named an inner node as a pruned leaf"),
    ("There is no node", "a label that is not in the tree"),
    ("only as a bound|fail-hard|value is exact|never finds it", "bounds and exact values confused (9)"),
    ("fresh window", "root restarts the window per child (12)"),
    ("lowers? (its )?(ceiling|floor) [αβ]|raises? (its )?floor|wrong bound|lowers β to", "wrong bound updated (5)"),
    ("the window it was given does not allow a cut|global or shared bound",
     "a cut the window does not allow: wrong side or shared bounds (5, 6)"),
    ("O's point of\\s+view|scores for the player to move|wrong sign", "evaluation from the wrong viewpoint (16)"),
    ("strictly between -1 and \\+1", "estimates beyond a win or a loss (16)"),
    ("chose .* but .* is a (MAX|MIN) node", "value right, move wrong (13)"),
)


def misconceptions(fb):
    """The named misconceptions in a :class:`Feedback`'s ✗ lines and hints (no repeats).

    Examples
    --------
    >>> import gametrees as gt
    >>> ex = gt.exercises.PruningExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    >>> misconceptions(ex.check(["I"]))
    ['missed a cutoff (8)']
    """
    return named_in(repr(fb))


def named_in(text):
    """The named misconceptions in a check's plain text (its ✗ lines and their hints)."""
    wrong, keep = [], False
    for line in text.splitlines():
        if line.startswith("✗"):
            keep = True
            wrong.append(line)
        elif line.startswith("    Hint:") and keep:
            wrong.append(line)
        else:
            keep = False
    joined = "\n".join(wrong)
    found = []
    for pattern, name in MISCONCEPTIONS:
        if re.search(pattern, joined, flags=re.IGNORECASE) and name not in found:
            found.append(name)
    if "handed the work to the library" in found:
        return ["handed the work to the library"]
    if "tie rule (≤/≥ vs </>) wrong (7)" in found and "missed a cutoff (8)" in found:
        found.remove("missed a cutoff (8)")  # the tie is the cutoff missed
    return found


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
                "title": self.feedback.title, "right": self.feedback.score[0], "checked": self.feedback.score[1],
                "misconceptions": misconceptions(self.feedback), "flags": self.flags,
                "library": list(getattr(self.feedback, "library", [])), "warnings": self.warnings,
                "student": self.student, "text": repr(self), "deferred": bool(getattr(self.feedback, "deferred", False)),
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
