"""Lesson 03 (alpha-beta): arranging a tree's children so that alpha-beta prunes the most.

The checks lesson 03 calls; each compares the learner's answer with what the engine or
the lesson's rule computes, and a check on an unanswered exercise says only that it is unanswered.
"""

from __future__ import annotations

import math
import numbers

from ...search import alphabeta
from ...trees import tree_from_nested
from ..feedback import Feedback, Report, fmt
from .reading import unanswered

__all__ = ["check_pruning_order"]


_ORDINAL = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def _two_level(tree, what, fewest=2):
    """``tree`` as a list of lists of numbers (a MAX root over MIN nodes over leaves), or a ValueError."""
    ok = (isinstance(tree, (list, tuple)) and len(tree) >= fewest
          and all(isinstance(c, (list, tuple)) and len(c) >= 1 for c in tree)
          and all(isinstance(x, numbers.Real) and not isinstance(x, bool) for c in tree for x in c))
    if not ok:
        raise ValueError(f"{what} must be a list of at least {fewest} lists of numbers (a MAX root over MIN nodes "
                         f"over leaves), such as [[3, 12, 8], [2, 4, 6]]; got {tree!r}")
    return [list(c) for c in tree]


def _leaves_evaluated(nested):
    return alphabeta(tree_from_nested(nested), trace=False).stats["leaves_evaluated"]


def _fewest(nested):
    """The arrangement that prunes the most: the best MIN node first, and the smallest leaf first under each."""
    return [sorted(c) for c in sorted(nested, key=lambda c: (-min(c), len(c)))]


def check_pruning_order(tree, answer):
    """Check a rearrangement of a two-level tree that should make alpha-beta prune the most (lesson 03).

    ``tree`` is a MAX root over MIN nodes over leaves, as nested lists, e.g.
    ``[[5, 9, 7], [4, 8, 2], [6, 10, 11]]``. The learner may reorder the MIN
    nodes and, under each, its leaves (nothing else), so that alpha-beta
    (textbook rule, children left to right) evaluates as few leaves as
    possible. The fewest is measured with the engine on the arrangement
    "best MIN node first, smallest leaf first" (the Knuth-Moore count
    ``2b - 1`` on a uniform tree).

    The feedback names what the learner's order costs and why: a first MIN
    node that is not the best (so α starts too low, and the best node must
    be searched to its end), or a later MIN node whose first leaf is above α
    although a leaf at most α exists (so it cannot stop after one leaf).

    Examples
    --------
    >>> tree = [[5, 9, 7], [4, 8, 2], [6, 10, 11]]
    >>> check_pruning_order(tree, [[6, 10, 11], [2, 4, 8], [5, 7, 9]]).ok
    True
    >>> check_pruning_order(tree, None)
    ✗ Order for the most pruning: not answered yet.
    ✗ Give the tree with its children rearranged: nested lists, one list of leaves per MIN node, in the order alpha-beta should search them.
    """
    what = "Order for the most pruning"
    tree = _two_level(tree, "tree")
    if answer is None or (isinstance(answer, (list, tuple)) and len(answer) == 0):
        return unanswered(what, "Give the tree with its children rearranged: nested lists, one list of leaves per "
                                 "MIN node, in the order alpha-beta should search them.")
    try:
        mine = _two_level(answer, "your answer", fewest=1)
    except ValueError:
        return Feedback(f"{what}: not a tree.", [("bad", f"Give nested lists of numbers with the same shape as "
                                                         f"the tree, one list per MIN node; you gave {answer!r}.",
                                                  None)])
    rep = Report()
    # The same tree: the same MIN nodes (as multisets of leaves), in any order.
    want = sorted(sorted(c) for c in tree)
    got = sorted(sorted(c) for c in mine)
    if got != want:
        extra = [c for c in mine if sorted(c) not in want]
        missing = [c for c in tree if sorted(c) not in got]
        if len(mine) != len(tree):
            rep.bad(f"The tree has {len(tree)} MIN nodes under the root; your answer has {len(mine)}.")
        if extra:
            rep.bad(f"Your MIN node with leaves {extra[0]} is not in the tree: you may only reorder a node's "
                    f"leaves and the nodes themselves, never move a leaf to another node or change it.")
        if missing:
            rep.bad(f"The tree's MIN node with leaves {missing[0]} is missing from your answer.")
        if not rep.items:
            rep.bad("Your answer repeats one MIN node and leaves out another: each must appear once.")
        return Feedback(f"{what}: not a rearrangement of the tree.", rep.items)
    best = _fewest(tree)
    fewest, used = _leaves_evaluated(best), _leaves_evaluated(mine)
    total = sum(len(c) for c in tree)
    if used == fewest:
        rep.good(f"Alpha-beta evaluates {used} of the {total} leaves, the fewest any order allows: the best MIN "
                 f"node (worth {min(mine[0])}) comes first, so α = {min(mine[0])} is known early, and every later "
                 f"MIN node stops at its first leaf, which is at most α.")
        return Feedback(f"{what}: right.", rep.items)
    rep.bad(f"Alpha-beta evaluates {used} of the {total} leaves in your order; another order needs only {fewest}.")
    top = max(min(c) for c in tree)
    if min(mine[0]) < top:
        later = next(i for i, c in enumerate(mine) if min(c) == top)
        rep.bad(f"Your first MIN node is worth {min(mine[0])}, but your {_ORDINAL[later]} is worth {top}: when it "
                f"comes, α is below {top}, so none of its leaves is at most α and it is searched to its end as "
                f"well. With the best node first, α = {top} from the start.",
                "MAX's best child should be searched first: the higher α is early, the sooner later MIN nodes stop.")
    alpha = -math.inf
    for i, c in enumerate(mine):
        if i and c[0] > alpha and min(c) <= alpha:
            small = [x for x in c if x <= alpha]
            rep.bad(f"Your {_ORDINAL[i]} MIN node (leaves {c}) starts with {fmt(c[0])} > α = "
                    f"{fmt(alpha)}, so it cannot stop there; with {fmt(small[0])} first it would stop after one "
                    f"leaf.", "Under a MIN node searched later, put a leaf at most α first: MIN can then already "
                              "hold MAX to α or less, and the other leaves cannot matter.")
        alpha = max(alpha, min(c))
    return Feedback(f"{what}: {used} leaves evaluated, {fewest} is possible.", rep.items)
