"""The :class:`Feedback` object, the report that builds it, and the wording helpers.

What every exercise and every check returns (:class:`Feedback`: ``.ok``, one
✓/✗/• line per point, plain text and coloured HTML), the :class:`Report` the
checks fill in line by line, and the small helpers that word numbers, lists and
probabilities the same way everywhere (:func:`and_list`, :func:`or_list`,
:func:`plain`, :func:`close`, :func:`is_are`, :data:`ROLE_NAMES`; numbers by
:func:`gametrees.wording.fmt` and :func:`~gametrees.wording.fmt_prob`, re-exported
here, the one formatter of the package).

May import: the standard library, :mod:`gametrees.games` and
:mod:`gametrees.wording`; nothing else of :mod:`gametrees.exercises` (it is the
lowest layer).
"""

from __future__ import annotations

import html
import math

from ..games import CHANCE, MAX, MIN
from ..wording import fmt, fmt_prob

__all__ = ["Feedback", "ROLE_NAMES", "Report", "Tagged", "and_list", "close", "fmt", "fmt_prob", "is_are",
           "malformed", "or_list", "plain", "tagged", "unanswered"]

# ============================================================================
# Feedback
# ============================================================================

ROLE_NAMES = {MAX: "MAX", MIN: "MIN", CHANCE: "chance"}  # how a role is named in feedback

_MARK = {"good": "✓", "bad": "✗", "note": "•"}
# Okabe-Ito colours (distinguishable with colour-blindness); the marks carry
# the meaning too, so colour is never the only signal.
_COLOUR = {"good": "#0072B2", "bad": "#D55E00", "note": "#555555"}


class Feedback:
    """The verdict on an answer or on a learner's function.

    Attributes
    ----------
    ok : bool
        True when nothing is wrong (notes do not count against it).
    title : str
        One-line summary.
    items : list of (kind, text, hint)
        ``kind`` is ``"good"`` (✓), ``"bad"`` (✗) or ``"note"`` (•);
        ``hint`` is an optional longer explanation (or ``None``).
    tree : networkx.DiGraph or None
        For function checkers: the smallest tree on which the function
        failed, ready to draw.
    tags : tuple of str
        The misconception tags this feedback names (unique, in order), each
        an entry of :data:`gametrees.exercises.misconceptions.CATALOGUE`.
    status : {"right", "wrong", "unanswered", "unreadable"}
        ``"unanswered"``: nothing given yet; ``"unreadable"``: the answer could
        not be read (never a misconception); else right or wrong.
    attempt : int or None
        The number of this check of the same exercise (1 for the first), set by
        :func:`gametrees.exercises.attempts.escalate`.
    solved : bool or None
        Set by :func:`~gametrees.exercises.attempts.escalate`: True for a right
        answer checked before the exercise's solution was shown, False otherwise
        (a right answer after the solution was shown does not count as solved);
        None for a check that was not counted.
    flags : list of str
        Integrity flags (the classroom adds them).

    Examples
    --------
    >>> fb = Feedback("Best move: right.", [("good", "B is a best move.", None)])
    >>> fb.ok, fb.lines
    (True, ['✓ B is a best move.'])
    >>> fb
    ✓ Best move: right.
    ✓ B is a best move.
    >>> fb.status, fb.tags
    ('right', ())
    >>> sorted(fb.to_record())
    ['attempt', 'flags', 'lines', 'ok', 'score', 'status', 'tags', 'title']
    """

    STATUSES = ("right", "wrong", "unanswered", "unreadable")

    def __init__(self, title, items=(), *, tags=(), status=None):
        self.title = str(title)
        self.items = [(kind, str(text), None if hint is None else str(hint)) for kind, text, hint in items]
        for kind, _, _ in self.items:
            if kind not in _MARK:
                raise ValueError(f"feedback item kind must be 'good', 'bad' or 'note', got {kind!r}")
        self.ok = not any(kind == "bad" for kind, _, _ in self.items)
        self.tree = None
        self.tags = tuple(dict.fromkeys(str(t) for t in tags))
        if status is None:
            status = "right" if self.ok else "wrong"
        if status not in self.STATUSES:
            raise ValueError(f"status must be one of {self.STATUSES}, got {status!r}")
        if status == "right" and not self.ok:
            raise ValueError("status 'right' needs feedback without a ✗ item")
        self.status = status
        self.attempt = None
        self.solved = None
        self.flags = []

    def add_tags(self, tags):
        """Add misconception ``tags`` (kept unique, in order)."""
        self.tags = tuple(dict.fromkeys(self.tags + tuple(str(t) for t in tags)))

    def to_record(self):
        """The feedback as plain JSON-able data, for a graded notebook's record.

        Keys: ``status``, ``ok``, ``score`` (``[right, checked]``), ``tags``,
        ``attempt``, ``title``, ``lines`` (the ✓/✗/• lines) and ``flags``.
        """
        return {"status": self.status, "ok": bool(self.ok), "score": list(self.score),
                "tags": list(self.tags), "attempt": self.attempt, "title": self.title,
                "lines": list(self.lines), "flags": list(self.flags)}

    @property
    def lines(self):
        """The messages, one per point, each starting with ✓, ✗ or •."""
        return [f"{_MARK[kind]} {text}" for kind, text, _ in self.items]

    @property
    def hints(self):
        """The hints, in order (only items that have one)."""
        return [hint for _, _, hint in self.items if hint]

    @property
    def score(self):
        """``(right, checked)``: the number of ✓ points and of ✓ + ✗ points."""
        good = sum(kind == "good" for kind, _, _ in self.items)
        bad = sum(kind == "bad" for kind, _, _ in self.items)
        return good, good + bad

    def __bool__(self):
        return self.ok

    def __repr__(self):
        out = [f"{_MARK['good' if self.ok else 'bad']} {self.title}"]
        for kind, text, hint in self.items:
            out.append(f"{_MARK[kind]} {text}")
            if hint:
                out.append(f"    Hint: {hint}")
        return "\n".join(out)

    __str__ = __repr__

    def _repr_html_(self):
        esc = html.escape
        head = "good" if self.ok else "bad"
        parts = [
            '<div class="gametrees-feedback" style="font-family: sans-serif; line-height: 1.45">',
            f'<div style="font-weight: bold; color: {_COLOUR[head]}">{_MARK[head]} {esc(self.title)}</div>',
            '<ul style="list-style: none; margin: 0.25em 0; padding-left: 0.4em">',
        ]
        for kind, text, hint in self.items:
            li = f'<li style="color: {_COLOUR[kind]}; margin: 0.15em 0">{_MARK[kind]} {esc(text)}'
            if hint:
                li += (
                    '<details style="margin-left: 1.4em; color: #222222">'
                    f"<summary>Hint</summary>{esc(hint)}</details>"
                )
            parts.append(li + "</li>")
        parts.append("</ul></div>")
        return "\n".join(parts)


class Report:
    """Collects feedback items, then makes a :class:`Feedback`.

    Examples
    --------
    >>> rep = Report()
    >>> rep.good("A = 3")
    >>> rep.bad("D: you wrote 14; D is a MIN node: which of its children's values does MIN take?",
    ...         tag="roles-inverted")
    >>> fb = rep.feedback("Minimax values")
    >>> fb.title, fb.status, fb.tags
    ('Minimax values: 1 of 2 right.', 'wrong', ('roles-inverted',))
    """

    def __init__(self):
        self.items = []
        self.tags = []
        self._hints = set()

    def _add(self, kind, text, hint):
        if hint in self._hints:
            hint = None  # a hint is given once
        elif hint:
            self._hints.add(hint)
        self.items.append((kind, text, hint))

    def good(self, text, hint=None):
        self._add("good", text, hint)

    def bad(self, text, hint=None, *, tag=None):
        """A ✗ item; ``tag``: the catalogue tag of the misconception this item names (if it names one).

        A hint made by :func:`tagged` brings its own tag.
        """
        tag = tag if tag is not None else getattr(hint, "tag", None)
        self._add("bad", text, hint)
        if tag is not None and tag not in self.tags:
            self.tags.append(tag)

    def note(self, text, hint=None):
        self._add("note", text, hint)

    def feedback(self, what, unit="right", count_ok=True):
        good = sum(k == "good" for k, _, _ in self.items)
        bad = sum(k == "bad" for k, _, _ in self.items)
        if not bad:
            title = f"{what}: all {good} {unit}." if good > 1 and count_ok else f"{what}: {unit}."
        else:
            title = f"{what}: {good} of {good + bad} {unit}."
        return Feedback(title, self.items, tags=self.tags)


class Tagged(str):
    """A hint that names a misconception: the text, with the catalogue tag in ``.tag`` (see
    :func:`tagged`)."""

    tag = None


def tagged(text, tag):
    """``text`` (a hint) carrying the catalogue ``tag`` of the misconception it names.

    Functions that word a diagnosis return such a hint; :meth:`Report.bad` files the tag.

    Examples
    --------
    >>> rep = Report()
    >>> rep.bad("B is wrong.", tagged("MIN takes the smallest.", "roles-inverted"))
    >>> rep.feedback("Values").tags
    ('roles-inverted',)
    """
    if text is None:
        return None
    out = Tagged(text)
    out.tag = tag
    return out


def malformed(what, message):
    """A :class:`Feedback` saying the answer to ``what`` could not be read, and ``message`` (the form
    expected).

    Its status is ``"unreadable"``; it names no misconception.

    Examples
    --------
    >>> fb = malformed("Minimax values", "Could not read your answer: give a dict such as {'A': 3}.")
    >>> fb.status, fb.ok, fb.tags
    ('unreadable', False, ())
    """
    return Feedback(f"{what}: the answer could not be read.", [("bad", message, None)], status="unreadable")


def unanswered(what, message):
    """A :class:`Feedback` saying ``what`` is not answered yet (status ``"unanswered"``); ``message`` says the
    form.

    Examples
    --------
    >>> unanswered("Minimax values", "Nothing answered yet: give a dict such as {'A': 3}.").status
    'unanswered'
    """
    return Feedback(f"{what}: not answered yet.", [("bad", message, None)], status="unanswered")


# ============================================================================
# Formatting
# ============================================================================


def and_list(names):
    """``'B, C and D'``: names joined for a sentence."""
    names = [str(n) for n in names]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def or_list(names):
    """``'B, C or D'``: names joined for a sentence."""
    names = [str(n) for n in names]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


def plain(x):
    """A number for a solution: an int when it is integral, else a float."""
    if isinstance(x, float) and math.isfinite(x) and x.is_integer():
        return int(x)
    if isinstance(x, float) and math.isfinite(x):
        return round(x, 10)
    return x


def close(a, b, tol=1e-9):
    """Whether two values are equal up to ``tol`` (infinities only equal themselves)."""
    if math.isinf(a) or math.isinf(b):
        return a == b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=tol)


def is_are(n):
    """'is'/'are' for a list."""
    return "is" if len(n) == 1 else "are"
