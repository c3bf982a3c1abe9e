"""Reading a lesson exercise's answer, and the twin trees the lessons' checks work through.

What every lesson's checks share: :func:`is_blank` (``None`` or an empty string),
:func:`unanswered` (the feedback for an exercise not answered yet, which says only
that), :func:`number_answer` and :func:`dict_answer` (a learner's number or dict,
or the feedback that says why it is not one), and for a repeated wrong answer a *twin*: :func:`twin_tree` (the
same shape with other leaf values) and :func:`worked_minimax` (its values worked
out bottom-up, in words). A lesson check passes its feedback through
:func:`gametrees.exercises.attempts.escalate`, which shows the twin from the
second wrong check on; the exercise's own answer comes only from the notebook's
folded solution.

Examples
--------
>>> number_answer(3, "The root's value")
(3.0, None)
>>> number_answer(None, "The root's value")[1]
✗ The root's value: not answered yet.
✗ Replace None with your answer (a number) and run the cell again.
>>> fb = number_answer("three", "The root's value")[1]
>>> fb.title, fb.status
("The root's value: the answer could not be read.", 'unreadable')
>>> dict_answer([3, "a1"], "Value and move", "give a dict {'value': ..., 'move': ...}")[1].status
'unreadable'
>>> import gametrees as gt
>>> print(worked_minimax(gt.tree_from_nested([[3, 12], [2, 4]])))
B = min(3, 12) = 3; C = min(2, 4) = 2; A = max(3, 2) = 3.
"""

from __future__ import annotations

import hashlib
import math
import numbers
import random
from collections.abc import Mapping

from ...games import MAX, MIN
from ...search import minimax
from ..by_hand import twin_trees
from ..feedback import fmt, malformed
from ..feedback import unanswered as _unanswered

__all__ = ["dict_answer", "is_blank", "nested_text", "number_answer", "tree_key", "twin_tree", "unanswered",
           "worked_minimax"]


def unanswered(what, how):
    """The feedback for an exercise not answered yet (status ``"unanswered"``): ``what`` is not answered, and
    ``how``."""
    return _unanswered(what, how)


def is_blank(x):
    """Whether ``x`` is no answer at all: ``None`` or a string of blanks."""
    return x is None or (isinstance(x, str) and not x.strip())


def number_answer(x, what):
    """``(float, None)`` for a number, ``(None, Feedback)`` for a blank or unreadable answer."""
    if is_blank(x):
        return None, unanswered(what, "Replace None with your answer (a number) and run the cell again.")
    if isinstance(x, str):
        return None, malformed(what, f"Could not read {x!r}: it is text, in quotes. Give a number, or write "
                                     "the expression without quotes and Python computes it.")
    if isinstance(x, bool) or not isinstance(x, numbers.Real) or math.isnan(x):
        return None, malformed(what, f"Could not read {x!r} ({type(x).__name__}): give a number (an int or a "
                                     f"float).")
    return float(x), None


def dict_answer(answer, what, form):
    """``(answer, None)`` for a dict (any mapping), ``(None, Feedback)`` for a blank or unreadable answer;
    ``form`` says the dict expected ("give a dict {'value': ..., 'move': ...}: ...")."""
    if isinstance(answer, Mapping):
        return answer, None
    if is_blank(answer):
        return None, unanswered(what, f"Replace None: {form}.")
    return None, malformed(what, f"Could not read {answer!r}: {form}.")


def twin_tree(G, seed, avoid=()):
    """A twin of the game tree ``G`` (:func:`~gametrees.exercises.by_hand.twin_trees`: same shape, players
    and labels, other leaf values) whose root value is none of ``avoid`` (e.g. the exercise's own answer),
    when a few hundred tries find one."""
    twin = None
    for twin in twin_trees(G, random.Random(seed), tries=300):
        if minimax(twin, trace=False).value not in avoid:
            break
    return twin


def worked_minimax(G):
    """The minimax values of ``G``'s inner nodes, worked out bottom-up in one line of words."""
    r = minimax(G, trace=False, graph=True)
    values = r.graph.nodes
    root = G.graph["root"]
    order, depth = [root], {root: 0}
    for n in order:
        for k in G.successors(n):
            order.append(k)
            depth[k] = depth[n] + 1
    inner = [n for n in order if G.out_degree(n)]
    steps = []
    for n in sorted(inner, key=lambda n: -depth[n]):   # deepest level first, left to right
        player = G.nodes[n]["player"]
        pick = "max" if player == MAX else "min" if player == MIN else "avg"
        kids = ", ".join(fmt(values[k]["value"]) for k in G.successors(n))
        steps.append(f"{G.nodes[n].get('label', n)} = {pick}({kids}) = {fmt(values[n]['value'])}")
    return "; ".join(steps) + "."


def tree_key(prefix, G):
    """A key for :func:`~gametrees.exercises.attempts.escalate` that is the same for the same tree, however
    built."""
    nodes = sorted((repr(n), G.nodes[n].get("player"), G.nodes[n].get("utility")) for n in G)
    return f"{prefix}:{hashlib.sha1(repr(nodes).encode()).hexdigest()[:10]}"   # the same in every kernel


def nested_text(G, n=None):
    """``G`` (or the subtree at ``n``) written as nested lists, as :func:`gametrees.tree_from_nested` reads
    them."""
    n = G.graph["root"] if n is None else n
    if not G.out_degree(n):
        return fmt(G.nodes[n]["utility"])
    return "[" + ", ".join(nested_text(G, k) for k in G.successors(n)) + "]"
