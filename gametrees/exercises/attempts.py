"""Counting the checks of each exercise, escalating a repeated wrong answer to a worked twin, and the
solution that opens only after an attempt.

Feedback escalates: the first wrong check says what is wrong and which rule to
re-apply; from the second wrong check of the same exercise on, the same kind of
mistake is worked through on a *twin* (a generated tree or numbers of the same
shape, never this exercise's answer); the full worked answer comes only on
request (``ex.explain()``, ``ex.show_solution()``).

:func:`escalate` counts every check made under a key (an exercise's ``.key``, or
a lesson check's name) in this kernel and sets ``Feedback.attempt``;
:func:`counts` gives the counts for a graded notebook's record; :func:`reset`
forgets them.

The solution after an attempt
-----------------------------
Whatever shows a worked answer asks :func:`open_solution` first, with the key
and what it shows (``".solution()"``). Before any *attempt* under that key (a
check whose answer could be read, right or wrong: :func:`attempted`) it gets a
:class:`NotYet`, a note to display instead of the answer; after one, the
solution is recorded as shown (:func:`shown`) and ``None`` comes back: go on and
show it. From then on every check under the key says, in its first line, that
the solution was shown before it; a right one has ``Feedback.solved`` False and
does not count as solved (``counts()[key]["solved"]`` stays False). A right check
before any solution was shown has ``solved`` True.

The exercises by hand use it per exercise object: ``try_first=True`` (see
:class:`gametrees.exercises.by_hand.Exercise`) routes ``.solution()``,
``.explain()``, ``.show_solution()`` and ``.result`` through it. Anything else
with a key and a worked answer can do the same.

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
{'demo': {'checks': 2, 'wrong': 2, 'solved': False, 'shown': None}}

The solution opens after an attempt, and a check after it is not solved:

>>> reset()
>>> right = lambda: Feedback("Values: all 1 right.", [("good", "A = 3", None)])
>>> print(open_solution("demo", ".solution()"))
The solution opens after your first attempt: write your answer and check it, then ask again.
>>> escalate("demo", wrong()).attempt
1
>>> open_solution("demo", ".solution()") is None
True
>>> fb = escalate("demo", right())
>>> fb.ok, fb.solved, fb.lines[0]
(True, False, '• The solution was shown before this check (.solution()): a right answer now does not count as
solved.')
>>> counts()["demo"]
{'checks': 2, 'wrong': 1, 'solved': False, 'shown': '.solution()'}
"""

from __future__ import annotations

import html
import threading

from .feedback import Feedback

__all__ = ["SHOWN_PREFIX", "TWIN_PREFIX", "NotYet", "SolutionNotYet", "attempted", "counts", "escalate",
           "open_solution", "reset", "shown", "twin_prefix", "worked_answer"]

#: How the twin's note item starts when the twin is a tree (the default; see :func:`twin_prefix`).
TWIN_PREFIX = "Worked on a twin tree: "
#: How the note of a check made after the solution was shown starts.
SHOWN_PREFIX = "The solution was shown before this check"
#: What a learner who asks for the solution before an attempt is told.
NOT_YET_TEXT = "The solution opens after your first attempt: write your answer and check it, then ask again."
#: How the note starts where a real attempt is asked for (``open_solution(..., real=True)``).
REAL_NOT_YET_TEXT = "The solution opens after a real attempt"


class NotYet:
    """What a worked answer asked for before any attempt gives instead: a note, displayed as it is.

    It is falsy, and an exercise's check reads it as no answer at all.
    """

    def __init__(self, text=NOT_YET_TEXT):
        self.text = str(text)

    def __bool__(self):
        return False

    def __repr__(self):
        return self.text

    __str__ = __repr__

    def _repr_html_(self):
        return f'<div class="gametrees-not-yet" style="color: #555555">• {html.escape(self.text)}</div>'


class SolutionNotYet(RuntimeError):
    """Raised where a worked answer asked for before any attempt cannot be a :class:`NotYet` (an attribute
    such as ``ex.result`` that is drawn or replayed)."""


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
#: What showed the solution of a problem, by its key without the ``#n`` that tells exercise objects apart:
#: an exercise made again (its cell run again) is the same problem, and its solution stays shown.
_SHOWN: dict = {}
_LOCK = threading.Lock()


def _problem(key):
    """``key`` without the ``#n`` of the object (``"values:seed=2:easy#3"`` -> ``"values:seed=2:easy"``)."""
    base, sep, serial = key.rpartition("#")
    return base if sep and serial.isdigit() else key


def escalate(key, feedback, *, twin=None, on="a twin tree", lacks=None):
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
    lacks : str, optional
        What this answer lacks to be a *real* attempt, for a worked answer that opens only after one
        (``open_solution(..., real=True)``), e.g. ``"it never looked at a position's children"``. ``None``:
        an answer that could be read (right or wrong) is a real attempt.

    Returns
    -------
    Feedback
    """
    if not isinstance(feedback, Feedback):
        raise TypeError(f"feedback must be a Feedback, got {type(feedback).__name__}")
    prefix = twin_prefix(on)
    key = str(key)
    with _LOCK:
        entry = _entry(key)
        entry["checks"] += 1
        if feedback.status == "wrong":
            entry["wrong"] += 1
        if feedback.status in ("right", "wrong"):
            entry["answered"] += 1
            entry["real"] += lacks is None
            entry["lacks"] = None if lacks is None else str(lacks)
        shown_before = entry["shown"] or _SHOWN.get(_problem(key))
        feedback.solved = feedback.status == "right" and shown_before is None
        entry["solved"] = entry["solved"] or feedback.solved
        wrong_so_far = entry["wrong"]
        feedback.attempt = entry["checks"]
    if shown_before is not None and feedback.status in ("right", "wrong"):
        then = ("a right answer now does not count as solved" if feedback.status == "right"
                else "try the next exercise on your own")
        feedback.items.insert(0, ("note", f"{SHOWN_PREFIX} ({shown_before}): {then}.", None))
    if twin is not None and feedback.status == "wrong" and wrong_so_far >= 2:
        text = twin(feedback)
        if text:
            feedback.items.append(("note", prefix + str(text), None))
    return feedback


def _entry(key):
    return _COUNTS.setdefault(key, {"checks": 0, "wrong": 0, "answered": 0, "real": 0, "lacks": None,
                                    "solved": False, "shown": None})


def attempted(key):
    """Whether an answer that could be read (right or wrong) was checked under ``key``."""
    with _LOCK:
        return _COUNTS.get(str(key), {}).get("answered", 0) > 0


def shown(key):
    """What first showed the solution of ``key`` (``".solution()"``, ...), or None if it was never shown."""
    with _LOCK:
        return _COUNTS.get(str(key), {}).get("shown") or _SHOWN.get(_problem(str(key)))


def open_solution(key, what, *, also=(), real=False):
    """Ask to show the worked answer of ``key`` (``what``: how it is asked for, e.g. ``".solution()"``).

    ``also`` names the other keys one worked answer covers (the practice widget's alpha-beta tree checks
    its values and its cuts as two exercises): an attempt under any of them opens it, and it is recorded
    as shown under every one.

    ``real=True`` asks for a *real* attempt: a check whose answer lacked nothing (see ``lacks`` in
    :func:`escalate`; a code exercise's whole solution opens only after code of the learner's own that
    does the work). Until then the note says what the last answer lacked.

    Returns
    -------
    NotYet or None
        A :class:`NotYet` note before any attempt under ``key`` (or ``also``; show it instead of the
        answer); else ``None``, after recording the solution as shown: every later check under those keys
        says so, and a right one does not count as solved.

    Examples
    --------
    >>> reset()
    >>> _ = escalate("cuts", Feedback("Cuts: wrong.", [("bad", "I?", None)]))
    >>> open_solution("values", "Show solution", also=["cuts"]) is None, shown("values"), shown("cuts")
    (True, 'Show solution', 'Show solution')

    A real attempt, where one is asked for:

    >>> _ = escalate("code", Feedback("Wrong.", [("bad", "0 of 9", None)]), lacks="it searched nothing")
    >>> print(open_solution("code", "the code", real=True))
    The solution opens after a real attempt: your last check's answer was read, but it searched nothing.
    >>> _ = escalate("code", Feedback("Code: wrong.", [("bad", "3 of 9.", None)]))
    >>> open_solution("code", "the code", real=True) is None
    True
    """
    keys = [str(key)] + [str(k) for k in also]
    with _LOCK:
        entries = [_entry(k) for k in keys]
        if not any(entry["answered"] for entry in entries):
            return NotYet()
        if real and not any(entry["real"] for entry in entries):
            lacks = next((entry["lacks"] for entry in entries if entry["lacks"]), None)
            return NotYet(REAL_NOT_YET_TEXT + (f": your last check's answer was read, but {lacks}." if lacks
                                               else "."))
        for k, entry in zip(keys, entries):
            if entry["shown"] is None:
                entry["shown"] = str(what)
            _SHOWN.setdefault(_problem(k), str(what))
    return None


def worked_answer(key, what, make):
    """The worked answer of ``key`` as text, only after an attempt: ``make()`` after :func:`open_solution`
    lets it through (and records it as shown), else the :class:`NotYet` note.

    For exercises checked by a function rather than an exercise object: the lessons print it, e.g.
    ``print(gt.exercises.solution_fast_wins())``.

    >>> reset()
    >>> print(worked_answer("demo", "solution_demo()", lambda: "A = 3."))
    The solution opens after your first attempt: write your answer and check it, then ask again.
    >>> escalate("demo", Feedback("Values: 0 of 1 right.", [("bad", "A?", None)])).attempt
    1
    >>> print(worked_answer("demo", "solution_demo()", lambda: "A = 3."))
    A = 3.
    >>> shown("demo")
    'solution_demo()'
    """
    held = open_solution(key, what)
    return held if held is not None else str(make())


def counts():
    """``{key: {"checks": n, "wrong": m, "solved": bool, "shown": str or None}}`` for every exercise checked
    (or whose solution was asked for) in this kernel (a copy). ``solved``: a right check came before any
    solution was shown; ``shown``: what first showed the solution."""
    with _LOCK:
        return {k: {f: v[f] for f in ("checks", "wrong", "solved", "shown")} for k, v in _COUNTS.items()}


def reset(key=None):
    """Forget the counts of ``key`` (or of every exercise)."""
    with _LOCK:
        if key is None:
            _COUNTS.clear()
            _SHOWN.clear()
        else:
            _COUNTS.pop(str(key), None)
            _SHOWN.pop(_problem(str(key)), None)
