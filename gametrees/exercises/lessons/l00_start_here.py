"""Lesson 00 (start here): the check of the tour's exercise, the root's value.

The checks lesson 00 calls. A check on an unanswered exercise says only that it is
unanswered; a wrong answer is told what is wrong and which rule to re-apply, never the
right value; from the second wrong check on, the same reasoning is worked through on a
twin tree (:func:`gametrees.exercises.attempts.escalate`). The worked answer,
:func:`solution_value`, opens only after an attempt
(:func:`gametrees.exercises.attempts.worked_answer`); a check after it says so and does not
count as solved.
"""

from __future__ import annotations

from ...games import MAX, MIN
from ...search import minimax
from ..attempts import escalate, worked_answer
from ..by_hand import as_tree
from ..feedback import ROLE_NAMES, Report, close, fmt
from .reading import nested_text, number_answer, tree_key, twin_tree, worked_minimax

__all__ = ["check_value", "solution_value"]


def _roles_swapped(G):
    H = G.copy()
    for n in H:
        p = H.nodes[n].get("player")
        if p in (MAX, MIN):
            H.nodes[n]["player"] = MIN if p == MAX else MAX
    return H


def check_value(tree, guess):
    """Check a guess of a tree's minimax value (lesson 00).

    A wrong guess is told which rule to re-apply (never the right value); the
    guess that swapping MAX and MIN gives is named as the misconception
    ``roles-inverted``.

    Examples
    --------
    >>> import gametrees as gt
    >>> check_value(gt.tree_from_nested([[3, 12], [2, 4]]), 3)
    ✓ The root's value: right.
    ✓ The root A is worth 3.
    >>> check_value(gt.tree_from_nested([[3, 12], [2, 4]]), 5).lines[0]    # doctest: +ELLIPSIS
    "✗ You wrote 5 for the root A, a MAX node (▲): work from the bottom up. ..."
    """
    G = as_tree(tree, None)
    what = "The root's value"
    value, fb = number_answer(guess, what)
    if fb is not None:
        return fb
    right = minimax(G, trace=False).value
    root = G.graph["root"]
    label = G.nodes[root].get("label", root)
    rep = Report()
    if close(value, right):
        rep.good(f"The root {label} is worth {fmt(right)}.")
        return escalate(tree_key("lesson00.value", G), rep.feedback(what))
    player = ROLE_NAMES[G.nodes[root]["player"]]
    mark = "▲" if G.nodes[root]["player"] == MAX else "▼"
    rule = ("work from the bottom up. Which player moves at each node below the root, and which of its "
            "children's values does that player take? Then which of those does " + player + f" at {label} "
                                                                                            "take?")
    if close(value, minimax(_roles_swapped(G), trace=False).value):
        rep.bad(f"You wrote {fmt(value)} for the root {label}, a {player} node ({mark}): that is the value "
                "the tree would have with MAX and MIN swapped. Read each node's triangle: ▲ is MAX, ▼ is "
                f"MIN; then {rule}",
                tag="roles-inverted")
    else:
        rep.bad(f"You wrote {fmt(value)} for the root {label}, a {player} node ({mark}): {rule}")

    def twin(_fb):
        H = twin_tree(G, seed=len(G) * 7 + int(value * 13) % 97, avoid=(right, value))
        root_role = ROLE_NAMES[H.nodes[H.graph["root"]]["player"]]
        return f"{nested_text(H)} with {root_role} at the root: {worked_minimax(H)}"

    return escalate(tree_key("lesson00.value", G), rep.feedback(what), twin=twin)


def solution_value(tree):
    """The worked answer of :func:`check_value` on ``tree``, only after an attempt (a check of a guess).

    Before it, the note that it opens after an attempt; after, the minimax values worked out bottom-up,
    deepest nodes first, and later checks of ``tree`` do not count as solved.

    Examples
    --------
    >>> import gametrees as gt
    >>> from gametrees.exercises import attempts
    >>> attempts.reset()
    >>> T = gt.tree_from_nested([[3, 12], [2, 4]])
    >>> print(solution_value(T))
    The solution opens after your first attempt: write your answer and check it, then ask again.
    >>> check_value(T, 12).status
    'wrong'
    >>> print(solution_value(T))
    B = min(3, 12) = 3; C = min(2, 4) = 2; A = max(3, 2) = 3. The root A is worth 3.
    """
    G = as_tree(tree, None)
    root = G.graph["root"]
    label = G.nodes[root].get("label", root)

    def make():
        return f"{worked_minimax(G)} The root {label} is worth {fmt(minimax(G, trace=False).value)}."

    return worked_answer(tree_key("lesson00.value", G), "solution_value(...)", make)
