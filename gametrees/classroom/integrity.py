"""Answers by hand computed with the library: :func:`protect`, :func:`uses`, :func:`library_use`.

A by-hand question is graded on what the learner's answer function returns, so
nothing stops a notebook from returning ``pruning.solution()``. What this module
does is make that visible: :func:`protect` marks the assignment's graded
exercises and watches the library's public searches and ``gt.practice``; every
use of the worked answer from the notebook (not from gametrees itself) is
recorded:

* ``.solution()``, ``.explain()``, ``.show_solution()`` and ``.result`` of a
  graded exercise (recorded by the exercise itself, see
  :class:`gametrees.exercises.Exercise`);
* ``gt.minimax``, ``gt.alphabeta``, ``gt.negamax``, ``gt.expectimax`` (and
  the same names in :mod:`gametrees.search`) or ``gt.practice`` called on a
  graded tree, or on a copy of it (compared by shape, players and values).

The checks show every record as a flag ("⚑") in the feedback, and the grade
report and class report count them. What is not seen: a tree rebuilt by hand
in another form and searched, an answer worked out in another notebook or
program, or a search imported under another name before :func:`protect` ran.

May import: the standard library, :mod:`gametrees.search` and the public names
of :mod:`gametrees.exercises`.
"""

from __future__ import annotations

import functools
import importlib
import sys

from ..exercises import counts
from ..exercises.by_hand import Exercise, from_learner

#: The graded exercises (in the order they were protected) and what was seen.
GRADED = []
SEEN = []  # (exercise, what) from calls into the library's searches on a graded tree
_WATCHED = ("minimax", "alphabeta", "negamax", "expectimax")
_INSTALLED = set()


def _shape(G):
    """The tree's shape, players and leaf values, ignoring ids and labels (None if ``G`` is not a tree)."""
    try:
        root = G.graph["root"]

        def walk(n):
            kids = list(G.successors(n))
            if not kids:
                return ("leaf", G.nodes[n].get("utility"))
            return (G.nodes[n].get("player"), tuple(walk(c) for c in kids))

        return walk(root)
    except Exception:  # noqa: BLE001 -- not a tree: nothing to compare
        return None


def _graded_for(arg):
    """The graded exercise whose tree ``arg`` is (or copies), else None."""
    if not GRADED or arg is None:
        return None
    for ex in GRADED:
        if arg is ex.tree:
            return ex
    if hasattr(arg, "graph") and hasattr(arg, "successors"):
        shape = _shape(arg)
        if shape is not None:
            for ex in GRADED:
                if shape == ex.shape:
                    return ex
    return None


def _watch(module, name, label, lazy=None):
    """Wraps ``module.name`` so that calls from outside gametrees on a graded tree are recorded.

    With ``lazy`` (a module name), the original is imported on the first call, not now (``gt.practice``
    would load ipywidgets and matplotlib).
    """
    original = None if lazy else getattr(module, name, None)
    if (original is None and not lazy) or getattr(module.__dict__.get(name), "_gametrees_watched", False):
        return

    def call(*args, **kwargs):
        target = original if original is not None else getattr(importlib.import_module(lazy), name)
        return target(*args, **kwargs)

    @functools.wraps(original or call)
    def watched(*args, **kwargs):
        if from_learner():
            tree = args[0] if args else kwargs.get("tree", kwargs.get("game"))
            ex = _graded_for(tree)
            if ex is None and "tree" in kwargs:
                ex = _graded_for(kwargs["tree"])
            if ex is not None:
                SEEN.append((ex, f"{label}(...) on the graded tree"))
        return call(*args, **kwargs)

    watched._gametrees_watched = True
    setattr(module, name, watched)


def _install():
    """Wraps the public searches of ``gametrees`` and ``gametrees.search``, and ``gametrees.practice``."""
    for modname, prefix in (("gametrees", "gt."), ("gametrees.search", "gametrees.search.")):
        module = sys.modules.get(modname)
        if module is None or modname in _INSTALLED:
            continue
        for name in _WATCHED:
            _watch(module, name, prefix + name)
        _INSTALLED.add(modname)
    gt = sys.modules.get("gametrees")
    if gt is not None and "practice" not in _INSTALLED:
        if "practice" in gt.__dict__:  # the widgets are loaded already
            _watch(gt, "practice", "gt.practice")
        else:  # watched, and loaded on the first call
            _watch(gt, "practice", "gt.practice", lazy="gametrees.widgets")
        _INSTALLED.add("practice")


def protect(*exercises):
    """Mark the assignment's graded exercises and watch the library for uses of their answers.

    Parameters
    ----------
    *exercises : gametrees.exercises.Exercise
        The exercises whose answers are graded.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        If an argument is not an exercise.

    Examples
    --------
    >>> import gametrees as gt
    >>> ex = gt.exercises.PruningExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    >>> protect(ex)
    >>> uses(ex)
    []
    """
    for ex in exercises:
        if not isinstance(ex, Exercise):
            raise TypeError(f"protect() takes the graded exercises, got {ex!r}")
        if all(ex is not g for g in GRADED):
            ex.shape = _shape(ex.tree)
            GRADED.append(ex)
    _install()


def uses(exercise):
    """What the notebook asked the library for about ``exercise``'s answer (sentences; empty if nothing).

    Examples
    --------
    >>> import gametrees as gt
    >>> ex = gt.exercises.PruningExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    >>> _ = ex.solution()   # from outside gametrees this would be recorded
    >>> uses(ex)
    []
    """
    out = [f"the exercise's {what}" for what in getattr(exercise, "library_uses", [])]
    shape = getattr(exercise, "shape", None)
    for ex, what in SEEN:  # exercises on the same tree share what was seen of it
        if (ex is exercise or (shape is not None and ex.shape == shape)) and what not in out:
            out.append(what)
    return out


def all_uses():
    """``[(exercise, sentence), ...]`` for every graded exercise."""
    return [(ex, what) for ex in GRADED for what in uses(ex)]


class LibraryUse:
    """The end-of-notebook summary of :func:`library_use` (plain text and HTML)."""

    def __init__(self, records):
        self.records = records

    def __repr__(self):
        if not self.records:
            return "⚑ none: no graded answer was asked of the library in this notebook."
        return "\n".join(["⚑ Answers asked of the library (your instructor sees this):"]
                         + [f"⚑ {ex.what}: {what}" for ex, what in self.records])

    def _repr_mimebundle_(self, include=None, exclude=None):
        import html

        lines = repr(self).splitlines()
        body = "".join(f"<div>{html.escape(x)}</div>" for x in lines)
        colour = "#555555" if not self.records else "#D55E00"
        return {"text/plain": repr(self),
                "text/html": f'<div class="gametrees-integrity" style="color: {colour}">{body}</div>',
                "application/vnd.gametrees.integrity+json": {
                    "flags": [{"question": ex.what, "use": what} for ex, what in self.records],
                    "checks": counts()}}


def library_use():
    """The summary for the end of an assignment: every graded answer the notebook asked the library for."""
    return LibraryUse(all_uses())
