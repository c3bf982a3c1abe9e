"""Counting the checks of each exercise, and escalating a repeated wrong answer to a worked twin.

Feedback escalates: the first wrong check says what is wrong and which rule to
re-apply; from the second wrong check of the same exercise on, the same kind of
mistake is worked through on a *twin* (a generated tree or numbers of the same
shape, never this exercise's answer); the full worked answer comes only on
request (``ex.explain()``, ``ex.show_solution()``).

:func:`escalate` counts every check made under a key (an exercise's ``.key``, or
a lesson check's name) in this kernel and sets ``Feedback.attempt``;
:func:`counts` gives the counts for a graded notebook's record; :func:`reset`
forgets them.

May import: the standard library and :mod:`gametrees.exercises.feedback`.

Examples
--------
>>> from gametrees.exercises.feedback import Feedback
>>> reset()
>>> wrong = lambda: Feedback("Values: 0 of 1 right.", [("bad", "B: MIN takes which child?", None)])
>>> fb = escalate("demo", wrong(), twin=lambda fb: "on B = min(4, 9) MIN takes 4.")
>>> fb.attempt, len(fb.items)
(1, 1)
>>> fb = escalate("demo", wrong(), twin=lambda fb: "on B = min(4, 9) MIN takes 4.")
>>> fb.attempt, fb.lines[-1]
(2, '• Worked on a twin tree: on B = min(4, 9) MIN takes 4.')
>>> counts()
{'demo': {'checks': 2, 'wrong': 2}}
"""

from __future__ import annotations

import threading

from .feedback import Feedback

__all__ = ["TWIN_PREFIX", "counts", "escalate", "reset", "twin_prefix"]

#: How the twin's note item starts when the twin is a tree (the default).
TWIN_PREFIX = "Worked on a twin tree: "


def twin_prefix(on="a twin tree"):
    """How the twin's note item starts: ``"Worked on " + on + ": "``.

    ``on`` names what the twin is: ``"a twin tree"`` for a tree of the same
    shape, ``"another position"`` for a game position, ``"another entry"``
    for a table entry.

    >>> twin_prefix("another position")
    'Worked on another position: '
    >>> twin_prefix() == TWIN_PREFIX
    True
    """
    if not isinstance(on, str) or not on.strip():
        raise ValueError(f"on must name what the twin is, such as 'another position'; got {on!r}")
    return f"Worked on {on}: "

_COUNTS: dict = {}
_LOCK = threading.Lock()


def escalate(key, feedback, *, twin=None, on="a twin tree"):
    """Count this check of ``key``, set ``feedback.attempt``; on a 2nd+ wrong check add the twin.

    Parameters
    ----------
    key : str
        Which exercise was checked (same key, same exercise).
    feedback : Feedback
        The check's feedback (changed in place and returned).
    twin : callable, optional
        ``twin(feedback) -> str or None``: the same kind of mistake worked
        through on a twin. Called only on the second and later checks whose
        status is ``"wrong"``; its text becomes a note item starting
        ``"Worked on a twin tree: "``.
    on : str, default "a twin tree"
        What the twin is, in that note: ``"another position"`` for a game
        position, ``"another entry"`` for a table entry (see :func:`twin_prefix`).

    Returns
    -------
    Feedback
    """
    if not isinstance(feedback, Feedback):
        raise TypeError(f"feedback must be a Feedback, got {type(feedback).__name__}")
    prefix = twin_prefix(on)
    key = str(key)
    with _LOCK:
        entry = _COUNTS.setdefault(key, {"checks": 0, "wrong": 0})
        entry["checks"] += 1
        if feedback.status == "wrong":
            entry["wrong"] += 1
        wrong_so_far = entry["wrong"]
        feedback.attempt = entry["checks"]
    if twin is not None and feedback.status == "wrong" and wrong_so_far >= 2:
        text = twin(feedback)
        if text:
            feedback.items.append(("note", prefix + str(text), None))
    return feedback


def counts():
    """``{key: {"checks": n, "wrong": m}}`` for every exercise checked in this kernel (a copy)."""
    with _LOCK:
        return {k: dict(v) for k, v in _COUNTS.items()}


def reset(key=None):
    """Forget the counts of ``key`` (or of every exercise)."""
    with _LOCK:
        if key is None:
            _COUNTS.clear()
        else:
            _COUNTS.pop(str(key), None)
