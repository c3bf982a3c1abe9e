"""Lesson 00 (start here): the check of the tour's exercise, the root's value.

The checks lesson 00 calls; each compares the learner's answer with what the engine or
the lesson's rule computes, and a check on an unanswered exercise says only that it is unanswered.
"""

from __future__ import annotations

from ...games import MAX
from ...search import minimax
from ..answers import NodeNames
from ..by_hand.base import as_tree
from ..feedback import ROLE_NAMES, Report, close, fmt
from .reading import number_answer

__all__ = ["check_value"]


def check_value(tree, guess):
    """Check a guess of a tree's minimax value (lesson 00).

    Examples
    --------
    >>> import gametrees as gt
    >>> check_value(gt.tree_from_nested([[3, 12], [2, 4]]), 3)
    ✓ The root's value: right.
    ✓ The root A is worth 3.
    """
    G = as_tree(tree, None)
    value, fb = number_answer(guess, "The root's value")
    if fb is not None:
        return fb
    r = minimax(G, trace=False, graph=True)
    root = G.graph["root"]
    nodes = NodeNames(G)
    rep = Report()
    if close(value, r.value):
        rep.good(f"The root {nodes.name(root)} is worth {fmt(r.value)}.")
        return rep.feedback("The root's value")
    kids = list(G.successors(root))
    player = ROLE_NAMES[G.nodes[root]["player"]]
    listing = ", ".join(f"{nodes.name(k)} = {fmt(r.graph.nodes[k]['value'])}" for k in kids)
    picks = "largest" if G.nodes[root]["player"] == MAX else "smallest"
    rep.bad(f"You wrote {fmt(value)}, but the root {nodes.name(root)} is a {player} node whose children are "
            f"worth {listing}, so it is worth {fmt(r.value)}, the {picks}.",
            "Work from the bottom up: each node takes the largest (MAX) or smallest (MIN) of its children's values.")
    return rep.feedback("The root's value")
