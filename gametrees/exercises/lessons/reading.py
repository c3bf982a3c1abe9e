"""Reading a lesson exercise's answer: blank (not answered yet) or a number.

What every lesson's checks share: :func:`is_blank` (``None`` or an empty string),
:func:`unanswered` (the feedback for an exercise not answered yet, which says only
that) and :func:`number_answer` (a learner's number, or the feedback that says why
it is not one).

Examples
--------
>>> number_answer(3, "The root's value")
(3.0, None)
>>> number_answer(None, "The root's value")[1]
✗ The root's value: not answered yet.
✗ Replace None with your answer (a number) and run the cell again.
>>> number_answer("three", "The root's value")[1].title
"The root's value: the answer could not be read."
"""

from __future__ import annotations

import math
import numbers

from ..feedback import Feedback

__all__ = ["is_blank", "number_answer", "unanswered"]


def unanswered(what, how):
    """The feedback for an exercise not answered yet: ``what`` is not answered, and ``how`` to answer it."""
    return Feedback(f"{what}: not answered yet.", [("bad", how, None)])


def is_blank(x):
    """Whether ``x`` is no answer at all: ``None`` or a string of blanks."""
    return x is None or (isinstance(x, str) and not x.strip())


def number_answer(x, what):
    """``(float, None)`` for a number, ``(None, Feedback)`` for a blank or unreadable answer."""
    if is_blank(x):
        return None, unanswered(what, "Replace None with your answer (a number) and run the cell again.")
    if isinstance(x, bool) or not isinstance(x, numbers.Real) or math.isnan(x):
        return None, Feedback(f"{what}: the answer could not be read.",
                              [("bad", f"Expected a number, got {x!r} ({type(x).__name__}).", None)])
    return float(x), None
