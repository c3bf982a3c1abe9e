"""The base of every exercise by hand (:class:`Exercise`), and how a check is made safe, counted and watched.

:class:`Exercise` draws or takes a tree, asks its question, and gives
``.check(answer)``, ``.solution()``, ``.explain()``, ``.show_solution()`` and
``.result``. Every subclass's ``check`` is wrapped so that it never raises on
an answer (blank: "not answered yet"; unreadable: "could not read"), and every
check is counted and escalated (:func:`gametrees.exercises.attempts.escalate`:
from the second wrong check on, the mistake is worked through on a twin tree).
The worked answer read from a learner's notebook (``.solution()``,
``.explain()``, ``.show_solution()``, ``.result``) is recorded in
``.library_uses`` (:func:`from_learner`), for the graded notebooks.

With ``try_first=True`` (per exercise object; the lessons make theirs so) the
worked answer opens only after an attempt, through
:func:`gametrees.exercises.attempts.open_solution`: asked for from a learner's
notebook before any check whose answer could be read, ``.solution()``,
``.explain()`` and ``.show_solution()`` give a
:class:`~gametrees.exercises.attempts.NotYet` note and ``.result`` raises
:class:`~gametrees.exercises.attempts.SolutionNotYet`; after one, they work, and
every later check says the solution was shown and, if right, does not count as
solved (``Feedback.solved`` False). The library's own calls (twins, the practice
widget, the graders) are never held back.

May import: :mod:`gametrees.rules`, the standard library, :mod:`gametrees.trees`,
:mod:`gametrees.exercises.feedback`, :mod:`~gametrees.exercises.answers`,
:mod:`~gametrees.exercises.attempts` and the modules ``trees`` and
``search_info`` of this package.
"""

from __future__ import annotations

import functools
import html
import itertools
import random
import sys

from ...rules import TIE_RULES, strict_rule
from ...trees import tree_from_nested
from ..answers import NodeNames
from ..attempts import NotYet, SolutionNotYet, escalate, open_solution
from ..feedback import ROLE_NAMES, Feedback, fmt, fmt_prob, malformed
from .trees import as_tree, check_seed, child_probs, inline, outline, random_spec, settings_for, twin_trees

__all__ = ["Exercise", "RULES", "from_learner", "set_viewers", "strict_option", "viewer"]

# How a worked solution is shown (set_viewers): name ("draw" or "replay") -> the function, or None.
_viewers = None


def set_viewers(lookup):
    """Tell the exercises how to show a worked solution: ``lookup("draw")`` / ``lookup("replay")`` gives the
    function (``gt.draw``, ``gt.replay``) or None.

    The package (``gametrees/__init__.py``) calls it with its own names, which load drawing and widgets on
    first use: drawing and widgets are layers below the exercises, so an exercise never imports them; it is
    handed the way to them. Until it is called, :meth:`Exercise.show_solution` says to use ``explain()``.
    """
    global _viewers
    if lookup is not None and not callable(lookup):
        raise TypeError(f"set_viewers takes a function name -> draw/replay (or None), got {lookup!r}")
    _viewers = lookup


def viewer(name):
    """The package's ``draw`` or ``replay`` as :func:`set_viewers` was told it, or None (not set, or not
    available in this installation)."""
    return _viewers(name) if _viewers is not None else None

RULES = TIE_RULES  # the tie rules' names an alpha-beta exercise or check accepts as ``rule=``


def strict_option(strict=None, rule=None):
    """The tie rule of an alpha-beta exercise or check, from its ``strict=`` (a bool; default False, the
    textbook rule) or the name it also accepts, ``rule="textbook"`` or ``"strict"`` (not both).

    Examples
    --------
    >>> strict_option(), strict_option(strict=True), strict_option(rule="strict")
    (False, True, True)
    """
    if rule is not None:
        if strict is not None:
            raise TypeError(f"give the tie rule once: strict={strict!r} or rule={rule!r}, not both")
        return strict_rule(rule)
    if strict is None:
        return False
    if not isinstance(strict, bool):
        raise TypeError(f"strict (the tie rule) must be True or False, got {strict!r}")
    return strict

_SERIALS = itertools.count(1)  # numbers exercise objects, for their attempt keys
_PACKAGE = __name__.split(".")[0]  # "gametrees": frames whose module starts with it are the library's


def from_learner(depth=2):
    """Whether the code ``depth`` frames up (the caller of the caller) is outside the gametrees package."""
    try:
        name = sys._getframe(depth).f_globals.get("__name__", "")
    except ValueError:
        return True
    return not (name == _PACKAGE or name.startswith(_PACKAGE + "."))


def _unanswered(answer):
    return answer is None or (isinstance(answer, str) and not answer.strip())


def _safe_check(check):
    """``check`` that never raises on an answer: blank is "not answered yet", anything unreadable is
    "could not read your answer" with the form expected."""

    @functools.wraps(check)
    def safe_check(self, answer, **options):
        if isinstance(answer, NotYet):
            fb = Feedback(f"{self.what}: not answered yet.",
                          [("bad", (f"That is the note that the solution is not open yet, not an answer: "
                                    f"{self.answer_form}."), None)], status="unanswered")
        elif _unanswered(answer):
            fb = Feedback(f"{self.what}: not answered yet.",
                          [("bad", f"Nothing answered yet: {self.answer_form}.", None)], status="unanswered")
        else:
            try:
                fb = check(self, answer, **options)
            except (Exception, MemoryError, RecursionError) as exc:  # noqa: BLE001 -- never out of a check
                fb = malformed(self.what, f"Could not read your answer ({type(exc).__name__}): "
                                          f"{self.answer_form}.")
        return escalate(self.key, fb, twin=self._twin)

    return safe_check


def _watched(method, name):
    """``method``, recording in ``.library_uses`` each call made from outside the package."""

    @functools.wraps(method)
    def watched(self, *args, **kwargs):
        if from_learner():
            self.note_use(f".{name}()")
            if self.try_first:
                held = open_solution(self.key, f".{name}()")
                if held is not None:
                    return held
        return method(self, *args, **kwargs)

    return watched


class Exercise:
    """Common ground of the exercises (use a subclass, or :func:`generate`).

    Parameters
    ----------
    tree : networkx.DiGraph or nested lists, optional
        A given tree (nested lists are built with :func:`~gametrees.tree_from_nested`).
        Without it, a tree is drawn from ``seed`` and ``difficulty``.
    seed : int or str, optional
        The same seed always gives the same exercise (default: a random seed,
        kept in ``.seed`` so the exercise can be made again).
    difficulty : {"easy", "medium", "hard"}
        A preset (see the table in :mod:`gametrees.exercises`).
    root_player : {"max", "min"}, optional
        Who moves at the root (default MAX).
    depth, branching, values, ragged, players, probabilities : optional
        Override one entry of the preset.
    try_first : bool
        If True, the worked answer opens only after an attempt, and a check after it was shown does not
        count as solved (see the module's docstring); default False.

    Attributes
    ----------
    tree : networkx.DiGraph
    question : str
    result : SearchResult
        The engine's search, for ``gt.draw(ex.result)`` / ``gt.replay(ex.result)``.
    seed, difficulty, kind
    """

    kind = "exercise"
    _chance = False
    _what = "Answer"
    #: The form of the answer, for "could not read your answer" (each kind says its own).
    answer_form = "see the question for the form of the answer"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "check" in cls.__dict__:
            cls.check = _safe_check(cls.__dict__["check"])
        for name in ("solution", "explain", "show_solution"):
            if name in cls.__dict__:
                setattr(cls, name, _watched(cls.__dict__[name], name))

    def __init__(self, tree=None, *, seed=None, difficulty="easy", root_player=None, depth=None,
                 branching=None, values=None, ragged=None, players=None, probabilities=None, try_first=False):
        if not isinstance(try_first, bool):
            raise TypeError(f"try_first must be True or False, got {try_first!r}")
        self.try_first = try_first
        self.library_uses = []
        self._serial = next(_SERIALS)
        overrides = {"depth": depth, "branching": branching, "values": values, "ragged": ragged,
                     "players": players, "probabilities": probabilities, "root_player": root_player}
        if tree is not None:
            given = [k for k, v in overrides.items() if v is not None and k != "root_player"]
            if seed is not None or given:
                raise ValueError(
                    f"give either a tree or settings to draw one (seed, {', '.join(given) or 'depth, ...'}), "
                    "not both"
                )
            self.seed = None
            self.difficulty = None
            self.settings = None
            self.tree = as_tree(tree, root_player)
            self._rng = random.Random(0)
        else:
            self.settings = settings_for(difficulty, self._chance, overrides)
            self.difficulty = difficulty
            self.seed = check_seed(seed)
            self._rng = random.Random(self.seed)
            self.tree = self._draw_tree()
        self.nodes = NodeNames(self.tree)
        self.root_player = self.tree.nodes[self.nodes.root].get("player")
        self._setup()
        self.question = self._question()

    # -- making the tree ------------------------------------------------------

    def _draw_tree(self):
        G = None
        for _ in range(40):
            spec = random_spec(self._rng, self.settings)
            G = tree_from_nested(spec, root_player=self.settings["root_player"])
            if self._interesting(G):
                break
        return G

    def _interesting(self, G):
        return True

    # -- to override ----------------------------------------------------------

    def _setup(self):
        raise NotImplementedError

    def _question(self):
        raise NotImplementedError

    def check(self, answer):
        """Check ``answer``; return a :class:`Feedback` (never raises on a malformed answer)."""
        raise NotImplementedError

    def solution(self):
        """The answer, in the form a learner gives it."""
        raise NotImplementedError

    # -- shared ---------------------------------------------------------------

    @property
    def key(self):
        """The key this exercise object's checks are counted under
        (:func:`gametrees.exercises.attempts.counts`):
        ``"values:seed=3:easy#1"`` for a generated exercise, ``"values:A:max(...)#2"`` (the tree) for a given
        one; the number after ``#`` tells apart objects made in the same kernel (a cell run again)."""
        if self.seed is not None:
            return f"{self.kind}:seed={self.seed!r}:{self.difficulty}#{self._serial}"
        return f"{self.kind}:{inline(self.tree, self.nodes)}#{self._serial}"

    def _twin(self, feedback):
        """The same kind of mistake worked through on a twin tree (text), or None.

        Twins have this tree's shape with other leaf values (:func:`twin_trees`); the first one on
        which the kind's :meth:`_twin_text` can work the learner's mistake through is used.
        """
        wrong = getattr(self, "_last_wrong", None)
        if not wrong:
            return None
        rng = random.Random(f"{self.key}:{feedback.attempt}")
        for H in twin_trees(self.tree, rng):
            try:
                twin = self._make_twin(H)
            except (ValueError, TypeError):
                continue
            text = self._twin_text(twin, wrong)
            if text:
                return text
        return None

    def _twin_options(self):
        """The keyword arguments that make an exercise of the same kind and settings on another tree."""
        return {}

    def _make_twin(self, H):
        return type(self)(H, **self._twin_options())

    def _twin_text(self, twin, wrong):
        """The learner's mistake (``wrong``: what the last check found) worked through on ``twin``; kinds
        override it."""
        return None

    def outline(self):
        """The tree as indented text (labels, players, leaf values, probabilities)."""
        return outline(self.tree, self.nodes)

    def explain(self):
        """The worked solution as text: the engine's search, one sentence a step, then the answer."""
        steps = [f"{i:>3}. {e.text}" for i, e in enumerate(self._result.trace or [], 1)]
        return "\n".join(steps + [f"Answer: {self._answer_text()}"])

    def _answer_text(self):
        return repr(self.solution())

    def show_solution(self, replay=False, **kwargs):
        """Show the worked solution: ``gt.draw(ex.result)``, or ``gt.replay`` with ``replay=True``.

        Extra keyword arguments go to the drawing or replay function (found through :func:`set_viewers`).
        """
        name = "replay" if replay else "draw"
        show = viewer(name)
        if show is None:
            raise ImportError(
                f"gametrees.{name} is not available in this installation; "
                "print(ex.explain()) shows the worked solution as text"
            )
        return show(self.result, **kwargs)

    @property
    def result(self):
        """The engine's search of the tree (reading it from a notebook is recorded in ``.library_uses``)."""
        if from_learner():
            self.note_use(".result")
            if self.try_first and open_solution(self.key, ".result") is not None:
                raise SolutionNotYet(f"{NotYet().text} (exercise.result is the worked search.)")
        return self._result

    @result.setter
    def result(self, value):
        self._result = value

    def note_use(self, what):
        """Record that the learner's code asked the library for the worked answer (``what``, e.g.
        ``".solution()"``)."""
        if what not in self.library_uses:
            self.library_uses.append(what)

    def _root_text(self):
        r = self.nodes.root
        return f"{self.nodes.name(r)} is a {ROLE_NAMES.get(self.root_player, '?')} node at the root"

    def _origin(self):
        if self.seed is None:
            return ""
        return f" (seed {self.seed!r}, {self.difficulty})"

    @property
    def what(self):
        """What the answer gives, as feedback titles name it: ``"Minimax values"``, ``"Expectimax values"``,
        else ``"Answer"``."""
        return self._what

    def __repr__(self):
        return f"{self.question}\n\n{self.outline()}"

    def _repr_html_(self):
        return (f'<div class="gametrees-exercise"><p>{html.escape(self.question)}</p>'
                f"<pre>{html.escape(self.outline())}</pre></div>")

    # -- shared explanations ---------------------------------------------------

    def _value_of(self, n):
        return self.result.graph.nodes[n].get("value")

    def _kids_text(self, n, values=None):
        """'H = 2, I = 4, J = 6' with the engine's values."""
        G = self.tree
        values = values or {}
        parts = []
        for c in G.successors(n):
            v = values.get(c, self._value_of(c))
            parts.append(f"{self.nodes.name(c)} = {fmt(v)}")
        return ", ".join(parts)

    def _weighted_text(self, n):
        probs = child_probs(self.tree, n)
        terms = " + ".join(f"{fmt_prob(p)} × {fmt(self._value_of(c))}" for c, p in probs.items())
        return f"{terms} = {fmt(self._value_of(n))}"


Exercise.explain = _watched(Exercise.explain, "explain")
Exercise.show_solution = _watched(Exercise.show_solution, "show_solution")
