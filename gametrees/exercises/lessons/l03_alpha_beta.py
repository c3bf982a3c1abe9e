"""Lesson 03 (alpha-beta): what a cut-off node returns (fail-soft, fail-hard); arranging a tree for the most pruning.

The checks lesson 03 calls. A check on an unanswered exercise says only that it is
unanswered; a wrong answer is told what is wrong and which rule to re-apply, never the
right value, order or count; from the second wrong check on, the same reasoning is worked
through on a twin tree (:func:`gametrees.exercises.attempts.escalate`). The worked answer
is the notebook's folded solution.
"""

from __future__ import annotations

import itertools
import math
import numbers
import random

from ...search import alphabeta, minimax
from ...trees import tree_from_nested
from ..attempts import escalate
from ..feedback import Feedback, Report, fmt, malformed
from .reading import dict_answer, is_blank, unanswered

__all__ = ["check_fail_soft_hard", "check_pruning_order"]


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


def _count_two_level(nested):
    """Leaves alpha-beta (textbook rule, left to right) evaluates in a MAX root over MIN nodes over leaves."""
    alpha, count = -math.inf, 0
    for node in nested:
        value = math.inf
        for leaf in node:
            count += 1
            value = min(value, leaf)
            if value <= alpha:
                break
        alpha = max(alpha, value)
    return count


def _most(nested):
    """The most leaves any arrangement of ``nested`` makes alpha-beta evaluate (every arrangement tried)."""
    per_node = [list(itertools.permutations(node)) for node in nested]
    return max(_count_two_level(arranged)
               for nodes in itertools.permutations(range(len(nested)))
               for arranged in itertools.product(*(per_node[i] for i in nodes)))


def check_pruning_order(tree, answer, worst=None):
    """Check a rearrangement of a two-level tree that should make alpha-beta prune the most (lesson 03).

    ``tree`` is a MAX root over MIN nodes over leaves, as nested lists, e.g.
    ``[[5, 9, 7], [4, 8, 2], [6, 10, 11]]``. The learner may reorder the MIN
    nodes and, under each, its leaves (nothing else), so that alpha-beta
    (textbook rule, children left to right) evaluates as few leaves as
    possible. The fewest is measured with the engine on the arrangement
    "best MIN node first, smallest leaf first" (the Knuth-Moore count
    ``2b - 1`` on a uniform tree). ``worst``, if given, is the learner's count
    of the leaves alpha-beta evaluates in the *worst* arrangement (found by
    trying every one); giving the best order's count or half of all leaves
    there is the misconception ``ordering-halves-work``.

    The feedback names what the learner's order costs and why: a first MIN
    node that is not the best (so α starts too low, and the best node must
    be searched to its end), or a later MIN node whose first leaf is above α
    although a leaf at most α exists (so it cannot stop after one leaf). It
    never gives the best order, its count or the worst count.

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
    if (answer is None or (isinstance(answer, (list, tuple)) and len(answer) == 0)) and is_blank(worst):
        return unanswered(what, "Give the tree with its children rearranged: nested lists, one list of leaves per "
                                "MIN node, in the order alpha-beta should search them.")
    key = "lesson03.pruning_order." + repr(sorted(sorted(c) for c in tree))
    total = sum(len(c) for c in tree)
    rep = Report()
    mine = None
    if answer is None or (isinstance(answer, (list, tuple)) and len(answer) == 0):
        rep.bad("The order: not answered yet.")
    else:
        try:
            mine = _two_level(answer, "your answer", fewest=1)
        except ValueError:
            if is_blank(worst):
                return malformed(what, f"Could not read {answer!r}: give nested lists of numbers with the same "
                                       f"shape as the tree, one list per MIN node, such as [[3, 12, 8], [2, 4, 6]].")
            rep.bad(f"The order: could not read {answer!r}: give nested lists of numbers, one list per MIN node.")
    if mine is not None:
        # The same tree: the same MIN nodes (as multisets of leaves), in any order.
        want = sorted(sorted(c) for c in tree)
        got = sorted(sorted(c) for c in mine)
        if got != want:
            extra = [c for c in mine if sorted(c) not in want]
            missing = [c for c in tree if sorted(c) not in got]
            wrong_shape = Report()
            if len(mine) != len(tree):
                wrong_shape.bad(f"The tree has {len(tree)} MIN nodes under the root; your answer has {len(mine)}.")
            if extra:
                wrong_shape.bad(f"Your MIN node with leaves {extra[0]} is not in the tree: you may only reorder a "
                                f"node's leaves and the nodes themselves, never move a leaf to another node or "
                                f"change it.")
            if missing:
                wrong_shape.bad(f"The tree's MIN node with leaves {missing[0]} is missing from your answer.")
            if not wrong_shape.items:
                wrong_shape.bad("Your answer repeats one MIN node and leaves out another: each must appear once.")
            return escalate(key, Feedback(f"{what}: not a rearrangement of the tree.", wrong_shape.items))
        fewest, used = _leaves_evaluated(_fewest(tree)), _leaves_evaluated(mine)
        if used == fewest:
            rep.good(f"Alpha-beta evaluates {used} leaves, the fewest any order allows: the best MIN "
                     f"node (worth {min(mine[0])}) comes first, so α = {min(mine[0])} is known early, and every "
                     f"later MIN node stops at its first leaf, which is at most α.")
        else:
            rep.bad(f"Alpha-beta evaluates {used} leaves in your order; another order needs fewer.")
            top = max(min(c) for c in tree)
            if min(mine[0]) < top:
                rep.bad(f"Your first MIN node is worth {min(mine[0])} to MAX (MIN takes its smallest leaf), and it "
                        f"sets α for the rest of the search: is it the MIN node worth the most to MAX? A later MIN "
                        f"node worth more than α cannot stop early: none of its leaves is at most α.",
                        "MAX's best child should be searched first: the higher α is early, the sooner later MIN "
                        "nodes stop.")
            alpha = -math.inf
            for i, c in enumerate(mine):
                if i and c[0] > alpha and min(c) <= alpha:
                    rep.bad(f"Your {_ORDINAL[i]} MIN node (leaves {c}) starts with {fmt(c[0])} > α = {fmt(alpha)}, "
                            f"so it cannot stop after its first leaf. Which of its leaves would let it stop at once?",
                            "Under a MIN node searched later, put a leaf at most α first: MIN can then already "
                            "hold MAX to α or less, and the other leaves cannot matter.")
                alpha = max(alpha, min(c))
    if not is_blank(worst):
        most = _most(tree)
        best_count = _leaves_evaluated(_fewest(tree))
        w = worst if isinstance(worst, numbers.Real) and not isinstance(worst, bool) else None
        if w is None:
            rep.bad(f"The worst order: could not read {worst!r}: give a number of leaves.")
        elif w == most:
            rep.good(f"The worst order: {most} leaves: a MIN node stops only at a leaf at most α; "
                     f"searched from the worst MIN node to the best, every leaf of a later node is above α, so "
                     f"none stops before its end.")
        elif w in (best_count, total / 2):
            rep.bad(f"The worst order: you wrote {fmt(w)}. Does the order of the children change nothing, or only "
                    f"halve the work? Arrange the tree so that no MIN node ever meets a leaf at most α before its "
                    f"last leaf, and count what alpha-beta then evaluates.", tag="ordering-halves-work")
        else:
            rep.bad(f"The worst order: you wrote {fmt(w)}. A MIN node stops at the first leaf at most α: arrange "
                    f"the MIN nodes and their leaves so that this happens as late as possible, and count.")
    if mine is None and not rep.items:   # pragma: no cover - the blank case returned above
        return unanswered(what, "Give the rearranged tree.")

    def twin(_fb):
        return _worked_order(tree, mine or tree)

    fb = rep.feedback(what)
    if mine is not None and not fb.ok and rep.items[0][0] == "bad" and "another order needs fewer" in rep.items[0][1]:
        fb = Feedback(f"{what}: {_leaves_evaluated(mine)} leaves evaluated; fewer is possible.", fb.items,
                      tags=fb.tags)
    return escalate(key, fb, twin=twin)


def _twin_numbers(tree, seed):
    """A tree of the same shape as ``tree`` with other leaves (same range), whose best order differs."""
    rng = random.Random(seed)
    flat = [x for c in tree for x in c]
    low, high = int(min(flat)), int(max(flat)) + 3
    for _ in range(500):
        twin = [[rng.randint(low, high) for _ in c] for c in tree]
        if len({min(c) for c in twin}) == len(twin) and sorted(map(sorted, twin)) != sorted(map(sorted, tree)):
            return twin
    return [[x + 1 for x in c] for c in tree]  # pragma: no cover


def _worked_order(tree, mine):
    twin = _twin_numbers(tree, seed=len(repr(mine)))
    best = _fewest(twin)
    worths = ", ".join(f"{c} is worth {min(c)}" for c in twin)
    top = min(best[0])
    return (f"{twin}: MIN takes each node's smallest leaf, so {worths}. Search the one worth {top} first: it is "
            f"searched to its end ({len(best[0])} leaves; α is still -∞ there) and sets α = {top}. Every other "
            f"MIN node has a leaf at most {top}: put it first and the node stops after one leaf. Order "
            f"{best}.")


def _returns(G, hard):
    """What every inner node of ``G`` that alpha-beta visits returns to its parent (textbook rule),
    fail-soft or fail-hard, read from the engine's traced search (no second search here).

    Fail-soft values are the engine's own. Fail-hard visits the same nodes; a node whose value
    crossed its window returns that window's bound instead (β at a MAX node, α at a MIN node: the
    bound a node is cut against never changes inside it), and any other node takes the largest or
    smallest of what its visited children return.
    """
    r = alphabeta(G, trace=True)
    searched = r.graph.nodes
    entry = {e.node: (e.alpha, e.beta) for e in r.trace if e.kind == "enter"}
    crossed = {e.node for e in r.trace if e.kind == "update" and e.info[3]}
    out = {}

    def back_up(n):  # a fold over the searched tree, bottom-up
        if not G.out_degree(n):
            return G.nodes[n]["utility"]
        kids = [back_up(k) for k in G.successors(n) if searched[k].get("status") == "visited"]
        maximize = G.nodes[n]["player"] == "max"
        if not hard:
            value = searched[n]["value"]
        elif n in crossed:
            value = entry[n][1] if maximize else entry[n][0]
        else:
            value = max(kids) if maximize else min(kids)
        out[G.nodes[n]["label"]] = value
        return value

    back_up(G.graph["root"])
    return out


def _number(x):
    if isinstance(x, str):
        t = x.strip().replace("∞", "inf").replace("−", "-")
        try:
            x = float(t)
        except ValueError:
            return None
    if isinstance(x, bool) or not isinstance(x, numbers.Real) or math.isnan(x):
        return None
    return x


def check_fail_soft_hard(tree, node, answer):
    """Check what a cut-off node returns under fail-soft and fail-hard alpha-beta, and the root's value (lesson 03).

    ``tree`` is nested lists (MAX at the root, textbook rule, children left to
    right); ``node`` is the label of a node whose search is cut off;
    ``answer`` is ``{"soft": v, "hard": w, "root_soft": r, "root_hard": s}``:
    what ``node`` returns to its parent in the lesson's (fail-soft)
    alpha-beta, what it returns when a cut-off returns the bound it crossed
    instead (fail-hard: β at a MAX node, α at a MIN node), and the root's
    value under each (the same: minimax's). Named mistakes: the node's
    minimax value for a cut-off node (``cut-value-as-minimax``), the window's
    bound given as the fail-soft return (``fail-hard-bound``), two different
    root values (``pruning-changes-value``).

    Examples
    --------
    >>> check_fail_soft_hard([[4, 9], [7, 3, 1]], "C", {"soft": 3, "hard": 4, "root_soft": 4, "root_hard": 4})
    ✓ What C returns: all 4 right.
    ✓ Fail-soft: C returns 3, the value it had when it stopped.
    ✓ Fail-hard: C returns 4, the bound α it crossed.
    ✓ The root under fail-soft: 4, minimax's value.
    ✓ The root under fail-hard: 4, minimax's value (only cut-off nodes return something else).
    """
    G = tree_from_nested(tree)
    labels = {G.nodes[n]["label"]: n for n in G}
    if node not in labels or not G.out_degree(labels[node]):
        raise ValueError(f"node must be the label of an inner node of the tree, got {node!r}")
    soft, hard = _returns(G, hard=False), _returns(G, hard=True)
    if soft[node] == hard[node]:
        raise ValueError(f"{node} is not cut off in this tree, so fail-soft and fail-hard return the same")
    what = f"What {node} returns"
    form = "give a dict {'soft': ..., 'hard': ..., 'root_soft': ..., 'root_hard': ...}, a number for each"
    answer, unread = dict_answer(answer, what, form)
    if unread is not None:
        return unread
    parts = {k: answer.get(k) for k in ("soft", "hard", "root_soft", "root_hard")}
    if all(is_blank(v) for v in parts.values()):
        return unanswered(what, f"Replace each None with a number: {form}.")
    nid = labels[node]
    exact = _minimax_values(G)
    root = G.nodes[G.graph["root"]]["label"]
    assert soft[root] == hard[root] == minimax(G, trace=False).value
    roots = [_number(parts[k]) for k in ("root_soft", "root_hard")]
    split = None not in roots and roots[0] != roots[1]   # two root values: the variant changes the value?
    rep = Report()
    for part, right in (("soft", soft[node]), ("hard", hard[node]), ("root_soft", soft[root]),
                        ("root_hard", hard[root])):
        given = parts[part]
        name = {"soft": "Fail-soft", "hard": "Fail-hard", "root_soft": "The root under fail-soft",
                "root_hard": "The root under fail-hard"}[part]
        if is_blank(given):
            rep.bad(f"{name}: not answered yet.")
            continue
        x = _number(given)
        if x is None:
            rep.bad(f"{name}: could not read {given!r}: give a number.")
        elif x == right:
            rep.good({"soft": f"Fail-soft: {node} returns {fmt(right)}, the value it had when it stopped.",
                      "hard": f"Fail-hard: {node} returns {fmt(right)}, the bound "
                              f"{'α' if G.nodes[nid]['player'] == 'min' else 'β'} it crossed.",
                      "root_soft": f"The root under fail-soft: {fmt(right)}, minimax's value.",
                      "root_hard": f"The root under fail-hard: {fmt(right)}, minimax's value (only cut-off nodes "
                                   f"return something else)."}[part])
        elif part == "soft" and x == exact[node]:
            rep.bad(f"Fail-soft: you wrote {fmt(x)}, what {node} would be worth after looking at every child. Does "
                    f"{node} look at every child? Follow the code: when does its loop return, and what does "
                    f"`value` hold then?", tag="cut-value-as-minimax")
        elif part == "soft" and x == hard[node]:
            rep.bad(f"Fail-soft: you wrote {fmt(x)}, the bound of {node}'s window. The lesson's alpha-beta "
                    f"returns `value` at a cut-off, the best value {node} had found when it stopped: which is it?",
                    tag="fail-hard-bound")
        elif part == "soft":
            rep.bad(f"Fail-soft: you wrote {fmt(x)}. Search {node} with the window it inherits: after each child, "
                    f"is {node}'s value so far outside the window? What does `value` hold when the loop returns?")
        elif part == "hard":
            rep.bad(f"Fail-hard: you wrote {fmt(x)}. A fail-hard cut-off returns the bound it crossed instead of "
                    f"`value`: which bound does a {G.nodes[nid]['player'].upper()} node test, and what is it "
                    f"at {node} when it stops?")
        elif split:
            rep.bad(f"{name}: you wrote {fmt(x)}, and another value for the other version. Can returning a "
                    f"different bound from a cut-off node change the root's value? A cut-off child's return, either "
                    f"way, is at most the best so far: does it change which child is best, or its value?",
                    tag="pruning-changes-value")
        else:
            rep.bad(f"{name}: you wrote {fmt(x)}. MAX at the root takes the largest of what its children "
                    f"return, and a cut-off child's return is at most the best so far: does either version change "
                    f"which child is best, or its value?")

    def twin(_fb):
        return _worked_soft_hard(tree, soft[node], hard[node], soft[root])

    fb = rep.feedback(what)
    return escalate(f"lesson03.fail_soft_hard.{tree!r}.{node}", fb, twin=twin)


def _minimax_values(G):
    m = minimax(G, trace=False, graph=True)
    return {G.nodes[n]["label"]: m.graph.nodes[n]["value"] for n in G if G.out_degree(n)}


def _worked_soft_hard(tree, soft, hard, root_value):
    rng = random.Random(len(repr(tree)))
    for _ in range(500):
        twin = [[rng.randint(0, 12) for _ in c] for c in tree]
        G = tree_from_nested(twin)
        s, h = _returns(G, hard=False), _returns(G, hard=True)
        cut = [lab for lab in s if s[lab] != h[lab]]
        if (cut and s[cut[0]] != soft and h[cut[0]] != hard and s["A"] != root_value
                and len({s["A"], s[cut[0]], h[cut[0]]}) == 2):
            break
    else:  # pragma: no cover
        return None
    lab = cut[0]
    n = next(k for k in G if G.nodes[k]["label"] == lab)
    kids = [G.nodes[k] for k in G.successors(n)]
    return (f"{twin}, at {lab}: {lab} is a MIN node and inherits α = {fmt(h[lab])} from the root. Its leaves are "
            f"{', '.join(fmt(k['utility']) for k in kids)}; it takes them left to right and stops as soon as its "
            f"value is at most α, at {fmt(s[lab])}: fail-soft returns that {fmt(s[lab])}, fail-hard returns α = {fmt(h[lab])}. "
            f"Either way the root sees a value no better than its best so far, so the root's value is "
            f"{fmt(s[G.nodes[G.graph['root']]['label']])} in both.")
