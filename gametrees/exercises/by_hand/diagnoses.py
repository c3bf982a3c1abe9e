"""Diagnoses of a wrong value at one node: the rule to re-apply, and the misconception the value shows.

:func:`rule_question` words the rule at a node with no value of the exercise in
it; :func:`value_slip` names the misconception (with its catalogue tag) that
gives the learner's number from the children's true values, and gives nothing
away; :func:`constant_answer` tells an answer that shows no misconception (the
same number everywhere). :func:`roles_hint` and :func:`chance_hint` word the
same slips *with* the values, for the checks of a learner's function (whose
test trees are not graded answers).

May import: the standard library, :mod:`gametrees.games` and
:mod:`gametrees.exercises.feedback`.

Examples
--------
>>> from gametrees import tree_from_nested
>>> from gametrees.exercises.answers import NodeNames
>>> G = tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]); nodes = NodeNames(G)
>>> D = nodes.by_label["D"]
>>> rule_question(G, nodes, D)
"D is a MIN node: which of its children's values does MIN take? (the smallest)"
>>> value_slip(G, nodes, D, 14, [14, 5, 2])[1]
'roles-inverted'
>>> value_slip(G, nodes, D, 7, [14, 5, 2]) is None   # a plain slip names no misconception
True
>>> constant_answer([0, 0, 0]), constant_answer([3, 2])
(True, False)
"""

from __future__ import annotations

import numbers

from ...games import CHANCE, MAX, MIN
from ..feedback import ROLE_NAMES, close, fmt, fmt_prob

__all__ = ["chance_hint", "constant_answer", "roles_hint", "rule_question", "value_slip"]


def _roles_inverted(G, nodes, n, learner, kid_values):
    """``(took, picks, extra)`` when ``learner`` is what the other player would choose at MAX/MIN node
    ``n`` (and not what its own player chooses), else None; ``extra`` says that turns need not alternate
    when ``n`` has its parent's player."""
    player = G.nodes[n].get("player")
    if player not in (MAX, MIN) or not kid_values:
        return None
    other = max(kid_values) if player == MIN else min(kid_values)
    right = min(kid_values) if player == MIN else max(kid_values)
    if not close(learner, other) or close(learner, right):
        return None
    took, picks = ("largest", "smallest") if player == MIN else ("smallest", "largest")
    parents = list(G.predecessors(n))
    same = parents and G.nodes[parents[0]].get("player") == player
    extra = (f" Turns need not alternate: {nodes.name(n)} is {ROLE_NAMES[player]} like its parent "
             f"{nodes.name(parents[0])}.") if same else ""
    return took, picks, extra


def roles_hint(G, nodes, n, learner, kid_values):
    """A hint when ``learner`` is what the other player would choose at ``n``."""
    inverted = _roles_inverted(G, nodes, n, learner, kid_values)
    if inverted is None:
        return None
    took, picks, extra = inverted
    player = ROLE_NAMES[G.nodes[n]["player"]]
    return (f"You took the {took} value, but {player} picks the {picks}. Ask whose turn it is at "
            f"{nodes.name(n)}.{extra}")


def chance_hint(n_name, learner, kid_values, probs):
    """Hints for the usual chance-node slips (misconception 18)."""
    if not kid_values:
        return None
    weights = list(probs)
    mean = sum(kid_values) / len(kid_values)
    equal = all(close(w, weights[0]) for w in weights)
    weighted = " + ".join(f"{fmt_prob(p)} × {fmt(v)}" for p, v in zip(weights, kid_values))
    if close(learner, min(kid_values)) or close(learner, max(kid_values)):
        which = "smallest" if close(learner, min(kid_values)) else "largest"
        return (f"You took the {which} outcome, but nobody chooses at a chance node {n_name}: "
                f"its value is the expected value, {weighted}.")
    if not equal and close(learner, mean):
        return (f"You took the plain average, but {n_name}'s outcomes are not equally likely: "
                f"weight each by its probability, {weighted}.")
    if close(learner, sum(kid_values)) and len(kid_values) > 1:
        return f"You added the outcomes: multiply each by its probability first, {weighted}."
    return None


def constant_answer(values):
    """Whether the learner's numbers are all the same (two or more of them): such an answer shows no
    misconception, only that the work is not done (an all-zero answer is not "you took the smallest")."""
    values = [v for v in values if isinstance(v, numbers.Real)]
    return len(values) >= 2 and all(close(v, values[0]) for v in values)


def rule_question(G, nodes, n):
    """The rule to re-apply at inner node ``n``, as a question, with no value of the exercise in it."""
    name = nodes.name(n)
    player = G.nodes[n].get("player")
    if player == CHANCE:
        return (f"{name} is a chance node: nobody chooses there; its value is the sum, over its outcomes, of "
                f"probability × the outcome's value. Recompute it from its children's values.")
    takes = "largest" if player == MAX else "smallest"
    return (f"{name} is a {ROLE_NAMES.get(player, '?')} node: which of its children's values does "
            f"{ROLE_NAMES.get(player, '?')} take? (the {takes})")


def value_slip(G, nodes, n, learner, kid_values, probs=None):
    """``(text, tag)`` naming the misconception that gives ``learner`` at ``n`` from its children's true
    values, or None; the text gives no value the learner did not write."""
    if not kid_values:
        return None
    name = nodes.name(n)
    player = G.nodes[n].get("player")
    x = fmt(learner)
    if player in (MAX, MIN):
        inverted = _roles_inverted(G, nodes, n, learner, kid_values)
        if inverted is None:
            return None
        took, picks, extra = inverted
        return (f"Your {x} is the {took} of {name}'s children's values, as if the other player chose at "
                f"{name}; but {name} is a {ROLE_NAMES[player]} node, and {ROLE_NAMES[player]} takes the "
                f"{picks}. Ask whose turn it is at {name}.{extra}", "roles-inverted")
    if player != CHANCE:
        return None
    weights = list(probs) if probs is not None else [1 / len(kid_values)] * len(kid_values)
    right = sum(p * v for p, v in zip(weights, kid_values))
    if close(learner, right, 0.005):
        return None
    mean = sum(kid_values) / len(kid_values)
    equal = all(close(w, weights[0]) for w in weights)
    if len(set(kid_values)) > 1 and (close(learner, min(kid_values)) or close(learner, max(kid_values))):
        which = "smallest" if close(learner, min(kid_values)) else "largest"
        return (
            f"Your {x} is the {which} of {name}'s outcomes, as if someone chose at {name}; but nobody "
            f"chooses at a chance node: weight each outcome by its probability and add.",
            "chance-as-choice",
        )
    if not equal and close(learner, mean, 0.005):
        return (f"Your {x} is the plain average of {name}'s outcomes, but they are not equally likely: "
                f"weight each by its probability.", "chance-unweighted")
    if len(kid_values) > 1 and close(learner, sum(kid_values), 0.005):
        return (f"Your {x} is the sum of {name}'s outcomes: multiply each by its probability before adding.",
                "chance-summed")
    return None
