"""Lesson 03 (alpha-beta): what nodes return under fail-soft and fail-hard; arranging a tree for the most
pruning.

The checks lesson 03 calls. A check on an unanswered exercise says only that it is
unanswered; a wrong answer is told what is wrong and which rule to re-apply, never the
right value, order or count; from the second wrong check on, the same reasoning is worked
through on a twin tree (:func:`gametrees.exercises.attempts.escalate`). The worked answer
is printed by ``solution_fail_soft_hard`` and ``solution_pruning_order``, only after an attempt
(:func:`gametrees.exercises.attempts.worked_answer`); a check after it does not count as solved.
"""

from __future__ import annotations

import itertools
import math
import numbers
import random

from ...rules import fails_low, stops_only_when
from ...search import alphabeta, minimax
from ...trees import tree_from_nested
from ..attempts import escalate, worked_answer
from ..by_hand import twin_trees
from ..feedback import Feedback, Report, and_list, fmt, malformed
from .reading import dict_answer, is_blank, nested_text, unanswered

__all__ = ["FEWEST_REASONS", "check_fail_soft_hard", "check_pruning_order", "solution_fail_soft_hard",
           "solution_pruning_order"]


_ORDINAL = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def _two_level(tree, what, fewest=2):
    """``tree`` as a list of lists of numbers (a MAX root over MIN nodes over leaves), or a ValueError."""
    ok = (isinstance(tree, (list, tuple)) and len(tree) >= fewest
          and all(isinstance(c, (list, tuple)) and len(c) >= 1 for c in tree)
          and all(isinstance(x, numbers.Real) and not isinstance(x, bool) for c in tree for x in c))
    if not ok:
        raise ValueError(f"{what} must be a list of at least {fewest} lists of numbers (a MAX root over MIN "
                         f"nodes over leaves), such as [[3, 12, 8], [2, 4, 6]]; got {tree!r}")
    return [list(c) for c in tree]


def _leaves_evaluated(nested):
    return alphabeta(tree_from_nested(nested), trace=False).stats["leaves_evaluated"]


def _fewest(nested):
    """The arrangement that prunes the most: the best MIN node first, and the smallest leaf first under
    each."""
    return [sorted(c) for c in sorted(nested, key=lambda c: (-min(c), len(c)))]


def _most(nested):
    """The most leaves any arrangement of ``nested`` makes alpha-beta evaluate (every arrangement searched by
    the engine)."""
    per_node = [list(itertools.permutations(node)) for node in nested]
    return max(_leaves_evaluated(arranged)
               for nodes in itertools.permutations(range(len(nested)))
               for arranged in itertools.product(*(per_node[i] for i in nodes)))


# Why no order evaluates fewer leaves (lesson 03, exercise 4): the learner chooses one; _FEWEST_WHY decides
# it, _HALVES is the misconception that best ordering halves the work.
FEWEST_REASONS = {
    1: "Once the leaves are sorted smallest first, every MIN node can stop after its first leaf, the first "
       "one included.",
    2: "With the best order alpha-beta evaluates about half of the leaves: each MIN node skips half of its "
       "children.",
    3: "The first MIN node is searched while α is still -∞, so it needs all its leaves; every later one "
       "needs at least one leaf before it can be compared with α.",
    4: "α rises only when a MIN node is finished, so every MIN node but the last must be searched to its "
       "end.",
}
_FEWEST_WHY, _HALVES = 3, 2


def check_pruning_order(tree, answer, worst=None, why=None):
    """Check a rearrangement of a two-level tree that should make alpha-beta prune the most (lesson 03).

    ``tree`` is a MAX root over MIN nodes over leaves, as nested lists, e.g.
    ``[[5, 9, 7], [4, 8, 2], [6, 10, 11]]``. The learner may reorder the MIN
    nodes and, under each, its leaves (nothing else), so that alpha-beta
    (textbook rule, children left to right) evaluates as few leaves as
    possible. The fewest is measured with the engine on the arrangement
    "best MIN node first, smallest leaf first" (the Knuth-Moore count
    ``2b - 1`` on a uniform tree). All three parts are asked; one left out
    (``None``) is "not answered yet", so the order alone is not the exercise
    solved. ``worst`` is the learner's count
    of the leaves alpha-beta evaluates in the *worst* arrangement (found by
    trying every one); giving the best order's count or half of all leaves
    there is the misconception ``ordering-halves-work``. ``why`` is the number of the reason in
    :data:`FEWEST_REASONS` that no order can do with fewer leaves; a wrong one
    is told to test each reason on the tree, never which one is right.

    The feedback names what the learner's order costs and why: a first MIN
    node that is not the best (so α starts too low, and the best node must
    be searched to its end), or a later MIN node whose first leaf is above α
    although a leaf at most α exists (so it cannot stop after one leaf). It
    never gives the best order, its count or the worst count.

    Examples
    --------
    >>> tree = [[5, 9, 7], [4, 8, 2], [6, 10, 11]]
    >>> check_pruning_order(tree, [[6, 10, 11], [2, 4, 8], [5, 7, 9]], worst=9, why=3).ok
    True
    >>> check_pruning_order(tree, [[6, 10, 11], [2, 4, 8], [5, 7, 9]]).title
    'Order for the most pruning: 1 of 3 parts right.'
    >>> check_pruning_order(tree, None)
    ✗ Order for the most pruning: not answered yet.
    ✗ Give the tree with its children rearranged: nested lists, one list of leaves per MIN node, in the order
    alpha-beta should search them.
    """
    what = "Order for the most pruning"
    tree = _two_level(tree, "tree")
    worst_asked = why_asked = True   # the exercise asks all three parts: one left out is not answered yet
    if ((answer is None or (isinstance(answer, (list, tuple)) and len(answer) == 0)) and is_blank(worst)
            and is_blank(why)):
        return unanswered(what, "Give the tree with its children rearranged: nested lists, one list of "
                                "leaves per MIN node, in the order alpha-beta should search them.")
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
                return malformed(what, f"Could not read {answer!r}: give nested lists of numbers with the "
                                       "same shape as the tree, one list per MIN node, such as [[3, 12, 8], "
                                       "[2, 4, 6]].")
            rep.bad(f"The order: could not read {answer!r}: give nested lists of numbers, one list per MIN "
                    "node.")
    if mine is not None:
        wrong_shape = _not_a_rearrangement(tree, mine)
        if wrong_shape is not None:
            return escalate(key, Feedback(f"{what}: not a rearrangement of the tree.", wrong_shape.items))
        _judge_order(rep, tree, mine)
    if worst_asked and is_blank(worst) and mine is not None:
        rep.bad("The worst order: not answered yet.")
    if not is_blank(worst):
        _judge_worst(rep, tree, worst, total)
    if why_asked:
        _judge_why(rep, why)
    if mine is None and not rep.items:   # pragma: no cover - the blank case returned above
        return unanswered(what, "Give the rearranged tree.")

    def twin(fb):
        # the part answered wrong, worked on a twin: the order first, else the worst count, else the reason
        wrong = {t.split(":")[0] for k, t, _ in fb.items if k == "bad"}
        part = ("order" if "The order" in wrong or not wrong else
                "worst" if "The worst order" in wrong else "why")
        return _worked_order(tree, mine or tree, part)

    fb = rep.feedback(what)
    if not fb.ok:   # the title counts the parts asked (the order, the worst count, why), not the lines
        asked = 1 + worst_asked + why_asked
        order_right = mine is not None and _leaves_evaluated(mine) == _leaves_evaluated(_fewest(tree))
        worst_right = not is_blank(worst) and any(
            k == "good" and t.startswith("The worst order") for k, t, _ in rep.items
        )
        why_right = why_asked and why == _FEWEST_WHY and not isinstance(why, bool)
        fb = Feedback(
            f"{what}: {order_right + worst_right + why_right} of {asked} parts right.", fb.items, tags=fb.tags
        )
    return escalate(key, fb, twin=twin)


def _not_a_rearrangement(tree, mine):
    """What makes ``mine`` not the tree's MIN nodes (as multisets of leaves) in some order: a Report of ✗
    lines, or None when it is a rearrangement."""
    want = sorted(sorted(c) for c in tree)
    got = sorted(sorted(c) for c in mine)
    if got != want:
        extra = [c for c in mine if sorted(c) not in want]
        missing = [c for c in tree if sorted(c) not in got]
        wrong_shape = Report()
        if len(mine) != len(tree):
            wrong_shape.bad(f"The tree has {len(tree)} MIN nodes under the root; your answer has "
                            f"{len(mine)}.")
        if extra:
            wrong_shape.bad(f"Your MIN node with leaves {extra[0]} is not in the tree: you may only "
                            "reorder a node's leaves and the nodes themselves, never move a leaf to "
                            "another node or change it.")
        if missing:
            wrong_shape.bad(f"The tree's MIN node with leaves {missing[0]} is missing from your answer.")
        if not wrong_shape.items:
            wrong_shape.bad("Your answer repeats one MIN node and leaves out another: each must appear "
                            "once.")
        return wrong_shape
    return None


def _judge_order(rep, tree, mine):
    """The learner's order: the leaves alpha-beta evaluates in it against the fewest, and what costs more."""
    fewest, used = _leaves_evaluated(_fewest(tree)), _leaves_evaluated(mine)
    if used == fewest:
        rep.good(f"Alpha-beta evaluates {used} leaves, the fewest any order allows: the best MIN "
                 f"node (worth {min(mine[0])}) comes first, so α = {min(mine[0])} is known early, and "
                 "every later MIN node stops at its first leaf, which is at most α.")
    else:
        rep.bad(f"Alpha-beta evaluates {used} leaves in your order; another order needs fewer.")
        top = max(min(c) for c in tree)
        if min(mine[0]) < top:
            rep.bad(f"Your first MIN node is worth {min(mine[0])} to MAX (MIN takes its smallest leaf), "
                    "and it sets α for the rest of the search: is it the MIN node worth the most to MAX? "
                    "A later MIN node worth more than α cannot stop early: none of its leaves is at most "
                    "α.",
                    "MAX's best child should be searched first: the higher α is early, the sooner later "
                    "MIN nodes stop.")
        alpha = -math.inf
        for i, c in enumerate(mine):
            if i and not fails_low(c[0], alpha) and fails_low(min(c), alpha):
                rep.bad(f"Your {_ORDINAL[i]} MIN node (leaves {c}) starts with {fmt(c[0])} > α = "
                        f"{fmt(alpha)}, so it cannot stop after its first leaf. Which of its leaves "
                        "would let it stop at once?",
                        "Under a MIN node searched later, put a leaf at most α first: MIN can then "
                        "already hold MAX to α or less, and the other leaves cannot matter.")
            alpha = max(alpha, min(c))


def _judge_worst(rep, tree, worst, total):
    """The learner's count of the leaves evaluated in the worst order (``ordering-halves-work`` for the
    best order's count or half of all ``total`` leaves)."""
    most = _most(tree)
    best_count = _leaves_evaluated(_fewest(tree))
    w = worst if isinstance(worst, numbers.Real) and not isinstance(worst, bool) else None
    if w is None:
        rep.bad(f"The worst order: could not read {worst!r}: give a number of leaves.")
    elif w == most:
        rep.good(f"The worst order: {most} leaves: a MIN node stops only at a leaf at most α; "
                 "searched from the worst MIN node to the best, every leaf of a later node is above α, "
                 "so none stops before its end.")
    elif w in (best_count, total / 2):
        rep.bad(f"The worst order: you wrote {fmt(w)}. Does the order of the children change nothing, or "
                "only halve the work? Arrange the tree so that no MIN node ever meets a leaf at most α "
                "before its last leaf, and count what alpha-beta then evaluates.",
                tag="ordering-halves-work")
    else:
        rep.bad(f"The worst order: you wrote {fmt(w)}. A MIN node stops at the first leaf at most α: "
                "arrange the MIN nodes and their leaves so that this happens as late as possible, and "
                "count.")


def _judge_why(rep, why):
    """The reason number the learner gives for no order doing better than the fewest."""
    if is_blank(why):
        rep.bad("Why no order does better: not answered yet.")
    elif isinstance(why, bool) or not isinstance(why, int) or why not in FEWEST_REASONS:
        rep.bad(f"Why no order does better: could not read {why!r}: give a reason number "
                f"{min(FEWEST_REASONS)}-{max(FEWEST_REASONS)}.")
    elif why == _FEWEST_WHY:
        rep.good(f"Why no order does better: {FEWEST_REASONS[_FEWEST_WHY]}")
    else:
        rep.bad(f"Why no order does better: test reason {why} on this tree. Which MIN node is searched "
                "while α is still -∞, and can any MIN node stop before it has evaluated a single leaf?",
                tag="ordering-halves-work" if why == _HALVES else None)


def _asked_nodes(nodes, soft):
    """The labels asked about: ``nodes`` (labels, or one string of them), default every inner node the
    search visits (the keys of ``soft``); a ValueError for a node it does not visit."""
    if nodes is None:
        return list(soft)
    asked = [str(x).strip() for x in (nodes.replace(",", " ").split() if isinstance(nodes, str) and
                                      ("," in nodes or " " in nodes) else nodes)]
    for x in asked:
        if x not in soft:
            raise ValueError(f"nodes must name inner nodes the search visits ({', '.join(soft)}), got "
                             f"{x!r}")
    return asked


def _judge_pair(rep, lab, pair, truth):
    """The learner's (fail-soft, fail-hard) ``pair`` for node ``lab`` ("full": the root with the full
    window), judged against ``truth`` (the returns, minimax values and windows entered): lines in ``rep``;
    returns ``(numbers read, numbers right)``."""
    soft, hard, root = truth["soft"], truth["hard"], truth["root"]
    readable = right_numbers = 0
    if not isinstance(pair, (list, tuple)) or len(pair) != 2:
        rep.bad(f"{lab}: could not read {pair!r}: give a pair (fail-soft, fail-hard).")
        return 0, 0
    mine = [_number(v) if not is_blank(v) else None for v in pair]
    goods = []
    if lab == "full" and None not in mine and mine[0] != mine[1]:
        rep.bad(f"{root} with the full window: you wrote {fmt(mine[0])} and {fmt(mine[1])}. Searched "
                "with (−∞, +∞), can fail-soft and fail-hard give the root different values? The root's "
                "own window is then (−∞, +∞): clamping its return into it changes nothing, and "
                "alpha-beta's root value with the full window is minimax's (nodes below are entered "
                "with narrower windows, and may differ there).",
                tag="pruning-changes-value")
        return 0, 0
    for i, (name, right) in enumerate((("fail-soft", soft[lab]), ("fail-hard", hard[lab]))):
        given, x = pair[i], mine[i]
        shown = f"{root} with the full window" if lab == "full" else lab
        if is_blank(given):
            rep.bad(f"{shown} under {name}: not answered yet.")
            continue
        if x is None:
            rep.bad(f"{shown} under {name}: could not read {given!r}: give a number.")
            continue
        readable += 1
        if x == right and lab == "full":
            goods.append(f"{name} {fmt(x)}, minimax's value")
            right_numbers += 1
            continue
        if lab == "full":
            rep.bad(f"{root} with the full window, under {name}: you wrote {fmt(x)}. With (−∞, +∞) at "
                    "the root, what does alpha-beta return there, either way?")
            continue
        if x == right:
            goods.append(f"{name} {fmt(x)}")
            right_numbers += 1
            continue
        text, tag = _wrong_return(lab, name, x, truth)
        rep.bad(text, tag=tag)
    where = f"{root} with the full window" if lab == "full" else lab
    if len(goods) == 2:
        rep.good(f"{where}: {goods[0]}, {goods[1]}.")
    elif goods:
        rep.good(f"{where}: {goods[0]}.")
    return readable, right_numbers


def _wrong_return(lab, name, x, truth):
    """``(text, tag)`` for a wrong ``name`` ("fail-soft" or "fail-hard") return ``x`` at ``lab``: the minimax
    value where a cut stops the node, the clamped value as fail-soft's, a fail-hard value outside the
    window, or the rule to re-apply."""
    soft, hard, exact = truth["soft"], truth["hard"], truth["exact"]
    (a, b), cut = truth["entered"][lab], soft[lab] != exact[lab]
    if name == "fail-soft" and cut and x == exact[lab]:
        kids, skipped = truth["kids"][lab]
        if skipped:   # the node itself stops with children left
            return (f"{lab} under fail-soft: you wrote {fmt(x)}, what {lab} is worth after looking at "
                    f"every child. Does {lab} look at every child with the window it was given? What "
                    "does `value` hold when its loop returns?", "cut-value-as-minimax")
        child, stopper, never = _bound_from_below(lab, truth)
        where = (f"{child} stops before its child {never}" if child == stopper else
                 f"below it, {stopper} stops before its child {never}")
        return (f"{lab} under fail-soft: you wrote {fmt(x)}, what {lab} is worth after looking at every "
                f"child. {lab} does look at every child ({and_list(kids)}), but {child} returns a bound, "
                f"not its minimax value ({where}). Fail-soft passes a bound up: what does each child of "
                f"{lab} return, and what does {lab} make of them?", "cut-value-as-minimax")
    if name == "fail-soft" and x == hard[lab] and soft[lab] != hard[lab]:
        return (f"{lab} under fail-soft: you wrote {fmt(x)}, a bound of the window {lab} was given. "
                f"Fail-soft returns `value`, the best {lab} had found when it stopped: which is it?",
                "fail-hard-bound")
    if name == "fail-soft":
        player = truth["player"][lab]
        return (f"{lab} under fail-soft: you wrote {fmt(x)}. Search {lab} with the window it is given, "
                f"child by child: {lab} is a {player.upper()} node, and {stops_only_when(player)}. What "
                "does `value` hold when the loop ends or returns?", None)
    w0, w1 = truth["window"]
    player = truth["player"].get(lab)
    if x == soft[lab] and player == "max" and x < a == hard[lab]:
        # the non-standard fail-hard: "a cut-off returns the bound, anything else the value"
        return (f"{lab} under fail-hard: you wrote {fmt(x)}, the best value {lab} found, below the α it was "
                f"given. {lab} is a MAX node that never gets above α: it is not cut off, but fail-hard still "
                "clamps its return, and a MAX node that never gets above α returns α under fail-hard, not "
                "its best value.", "fail-hard-unclamped")
    if x == soft[lab] and player == "min" and x > b == hard[lab]:
        return (f"{lab} under fail-hard: you wrote {fmt(x)}, the best value {lab} found, above the β it was "
                f"given. {lab} is a MIN node that never gets below β: it is not cut off, but fail-hard still "
                "clamps its return, and a MIN node that never gets below β returns β under fail-hard, not "
                "its best value.", "fail-hard-unclamped")
    if not a <= x <= b and w0 <= x <= w1:
        # e.g. the node's value clamped into the window the search started with, not into its own
        return (f"{lab} under fail-hard: you wrote {fmt(x)}, inside the window the search started with, "
                f"{_window_text((w0, w1))}, but outside the window {lab} was given: {lab} is entered with "
                "its parent's α and β at that moment, and they can have narrowed on the way down. Fail-hard "
                f"clamps into the node's own window: which bound of its window did {lab} cross?",
                "fail-hard-unclamped")
    if not a <= x <= b:
        return (f"{lab} under fail-hard: you wrote {fmt(x)}, outside the window {lab} was given. "
                f"Fail-hard clamps every return into [α, β]: which bound of its window did {lab} "
                "cross?", "fail-hard-unclamped")
    return (f"{lab} under fail-hard: you wrote {fmt(x)}. Which window is {lab} given when it is "
            f"entered (its parent's α and β at that moment)? Fail-hard returns {lab}'s value "
            "clamped into it: α if the value is at most α, β if at least β, else the value.", None)

def _bound_from_below(lab, truth):
    """For a node that looks at every child yet returns less or more than its minimax value: ``(child,
    stopper, never)``, the first child of ``lab`` that returns a bound, the node below (or at) it that
    stops early, and the first child that node never looks at."""
    soft, exact, kids = truth["soft"], truth["exact"], truth["kids"]

    def bounded(node):
        return next(c for c in kids[node][0] if c in soft and soft[c] != exact[c])

    child = stopper = bounded(lab)
    while not kids[stopper][1]:
        stopper = bounded(stopper)
    return child, stopper, kids[stopper][1][0]


def _looked_at(G, window):
    """``{label: (children looked at, children never looked at)}`` for every inner node alpha-beta (textbook
    rule), searched from the root with ``window``, visits; labels in the children's order."""
    r = alphabeta(G, trace=False, graph=True, window=window)
    status = {n: r.graph.nodes[n]["status"] for n in G}
    label = {n: G.nodes[n]["label"] for n in G}
    return {label[n]: ([label[c] for c in G.successors(n) if status[c] == "visited"],
                       [label[c] for c in G.successors(n) if status[c] != "visited"])
            for n in G if G.out_degree(n) and status[n] == "visited"}


def _twin_numbers(tree, seed):
    """A tree of the same shape as ``tree`` with other leaves (same range), whose best order differs."""
    rng = random.Random(seed)
    flat = [x for c in tree for x in c]
    low, high = int(min(flat)), int(max(flat)) + 3
    for _ in range(500):
        twin = [[rng.randint(low, high) for _ in c] for c in tree]
        if len({min(c) for c in twin}) == len(twin) and sorted(map(sorted, twin)) != sorted(
            map(sorted, tree)
        ):
            return twin
    return [[x + 1 for x in c] for c in tree]  # pragma: no cover


def _worked_order(tree, mine, part="order"):
    """The ``part`` of the exercise ("order", "worst" or "why") worked on a twin of ``tree``."""
    twin = _twin_numbers(tree, seed=len(repr(mine)))
    best = _fewest(twin)
    worths = ", ".join(f"{c} is worth {min(c)}" for c in twin)
    top = min(best[0])
    if part == "worst":
        # the reasoning, not the count: a twin of the same shape often has the learner's count
        worst = [sorted(c, reverse=True) for c in sorted(twin, key=min)]
        return (f"{twin}: MIN takes each node's smallest leaf, so {worths}. The most leaves: the MIN nodes "
                f"from worst to best for MAX, each with its smallest leaf last, {worst}. α is only ever the "
                "value of a node already done, so a later node stops only at a leaf at most that value: "
                "follow this order leaf by leaf and count where each node stops.")
    if part == "why":
        fewest, one_each = _leaves_evaluated(best), len(best[0]) + len(twin) - 1
        total_line = (f"{len(best[0])} + {len(twin) - 1} = {fewest}" if fewest == one_each else f"{fewest}")
        return (f"{twin}: the first MIN node is searched while α is still -∞, so it needs all its leaves, "
                "whichever node it is; each later node needs at least one leaf before it can be compared "
                f"with α. Its best order {best} evaluates {total_line} leaves.")
    return (f"{twin}: MIN takes each node's smallest leaf, so {worths}. Search the one worth {top} first: it "
            f"is searched to its end ({len(best[0])} leaves; α is still -∞ there) and sets α = {top}. Every "
            f"other MIN node has a leaf at most {top}: put it first and the node stops after one leaf. Order "
            f"{best}.")


def _returns(G, hard, window=(-math.inf, math.inf)):
    """What every inner node of ``G`` that alpha-beta (textbook rule) visits, searched from the root with
    ``window``, returns to its parent: fail-soft (``hard=False``) or fail-hard; read from the engine.

    Fail-soft values are the engine's own. Fail-hard visits the same nodes with the same windows (a
    clamped return crosses a bound exactly when the fail-soft one does), and returns the node's minimax
    value clamped into the window (α, β) it was entered with.
    """
    r = alphabeta(G, trace=True, window=window)
    entry = {e.node: (e.alpha, e.beta) for e in r.trace if e.kind == "enter"}
    exact = _minimax_values(G)
    out = {}
    for n, (a, b) in entry.items():
        if not G.out_degree(n):
            continue
        label = G.nodes[n]["label"]
        if hard:
            out[label] = min(max(exact[label], a), b)
        else:
            out[label] = r.graph.nodes[n]["value"]
    return out


def _entered(G, window):
    """``{label: (α, β)}``: the window each inner node alpha-beta visits is entered with."""
    r = alphabeta(G, trace=True, window=window)
    return {
        G.nodes[e.node]["label"]: (e.alpha, e.beta)
        for e in r.trace
        if e.kind == "enter" and G.out_degree(e.node)
    }


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


def _check_window(window):
    ok = (isinstance(window, (list, tuple)) and len(window) == 2
          and all(isinstance(x, numbers.Real) and not isinstance(x, bool) for x in window)
          and window[0] < window[1])
    if not ok:
        raise ValueError(f"window must be a pair (alpha, beta) of numbers with alpha < beta, got {window!r}")
    return tuple(window)


def _root_player(root_player):
    """``"max"`` or ``"min"``, or a ValueError naming what was given."""
    if root_player not in ("max", "min"):
        raise ValueError(f"root_player must be 'max' or 'min', got {root_player!r}")
    return root_player


def _key(tree, window, root_player):
    """The attempts key of the fail-soft/fail-hard exercise on ``tree`` (a MIN root is another exercise)."""
    return f"lesson03.fail_soft_hard.{tree!r}.{window!r}" + ("" if root_player == "max" else ".min")


def check_fail_soft_hard(tree, window, answer, nodes=None, root_player="max"):
    """Check what nodes return under fail-soft and under fail-hard alpha-beta searched with ``window`` (lesson
    03).

    ``tree`` is nested lists (``root_player`` at the root, MAX by default, players
    alternating below; textbook rule, children left to
    right), searched from the root with the window ``window = (α, β)`` (a narrow
    one, as inside a larger search). ``answer`` maps a node's label to a pair
    ``(soft, hard)``: what that node returns to its parent in the lesson's
    fail-soft alpha-beta (the value it reached, a bound when it is outside the
    window it was given) and in fail-hard alpha-beta (the same value clamped into
    that window: never below α, never above β). ``nodes`` (labels; default every
    inner node the search visits) are the nodes asked about. The key ``"full"``
    (required: without it that part is "not answered yet") is the root's pair when
    it is searched with the full window (−∞, +∞) instead: the root's own return is
    then never clamped, so both give the minimax value (nodes below are entered with
    narrower windows and can differ), and two different values there are the
    misconception ``pruning-changes-value``.

    Named mistakes: a cut-off node given its minimax value as the fail-soft return
    (``cut-value-as-minimax``); the clamped value given as the fail-soft return
    (``fail-hard-bound``); a fail-hard return outside the node's window
    (``fail-hard-unclamped``; said apart when the value lies inside the window the
    search started with: clamped into the root's window, not the node's own; and said
    apart when a MAX node that never got above α is given its best value, not α, or a
    MIN node that never got below β its best, not β: fail-hard clamps a node that was
    not cut off too). The
    feedback never gives a right value or a node's window; its title says which
    player is at the root.

    Examples
    --------
    >>> tree = [[[5, 1], [0, 2]], [[7, 3], [4, 10]]]
    >>> check_fail_soft_hard(tree, (4, 6), {"E": (2, 4), "B": (2, 4), "A": (7, 6), "full": (7, 7)},
    ...                      nodes="EBA")
    ✓ Fail-soft and fail-hard returns (MAX at the root): all 8 numbers right.
    ✓ E: fail-soft 2, fail-hard 4.
    ✓ B: fail-soft 2, fail-hard 4.
    ✓ A: fail-soft 7, fail-hard 6.
    ✓ A with the full window: fail-soft 7, minimax's value, fail-hard 7, minimax's value.
    >>> check_fail_soft_hard(tree, (4, 6), {"E": (2, 4), "B": (2, 4), "A": (7, 6)}, nodes="EBA").title
    'Fail-soft and fail-hard returns (MAX at the root): 6 of 8 numbers right.'
    >>> check_fail_soft_hard([[2, 3], [6, 1]], (4, 6), {"A": (3, 4), "B": (3, 4), "full": (3, 3)},
    ...                      root_player="min")
    ✓ Fail-soft and fail-hard returns (MIN at the root): all 6 numbers right.
    ✓ A: fail-soft 3, fail-hard 4.
    ✓ B: fail-soft 3, fail-hard 4.
    ✓ A with the full window: fail-soft 3, minimax's value, fail-hard 3, minimax's value.
    >>> check_fail_soft_hard(tree, (4, 6), {"E": (2, 3), "B": (2, 4), "A": (7, 6)}, nodes="EBA").lines[0]
    '✗ E under fail-hard: you wrote 3, outside the window E was given. Fail-hard clamps every return into [α,
    β]: which bound of its window did E cross?'
    >>> check_fail_soft_hard(tree, (4, 6), {"E": (2, 2), "B": (2, 4), "A": (7, 6)}, nodes="EBA").lines[0]
    '✗ E under fail-hard: you wrote 2, the best value E found, below the α it was given. E is a MAX node
    that never gets above α: it is not cut off, but fail-hard still clamps its return, and a MAX node that
    never gets above α returns α under fail-hard, not its best value.'
    """
    window = _check_window(window)
    root_player = _root_player(root_player)
    G = tree_from_nested(tree, root_player=root_player)
    soft, hard = _returns(G, hard=False, window=window), _returns(G, hard=True, window=window)
    entered = _entered(G, window)
    exact = _minimax_values(G)
    asked = _asked_nodes(nodes, soft)
    what = f"Fail-soft and fail-hard returns ({root_player.upper()} at the root)"
    form = "give a dict {'A': (fail_soft, fail_hard), ...}, a pair of numbers for each node"
    answer, unread = dict_answer(answer, what, form)
    if unread is not None:
        return unread
    pairs = {}
    for lab in asked:
        given = answer.get(lab)
        pairs[lab] = (None, None) if given is None else given
    root = G.nodes[G.graph["root"]]["label"]
    # the root searched with the full window (a required part): both versions give minimax's value
    asked = asked + ["full"]
    pairs["full"] = (None, None) if answer.get("full") is None else answer["full"]
    soft, hard = {**soft, "full": exact[root]}, {**hard, "full": exact[root]}
    entered = {**entered, "full": (-math.inf, math.inf)}
    exact = {**exact, "full": exact[root]}
    if all(isinstance(p, (list, tuple)) and all(is_blank(v) for v in p) for p in pairs.values()):
        return unanswered(what, f"Replace each None with a number: {form}.")
    rep = Report()
    readable = right_numbers = 0
    starts = []   # where each label's lines start: the labels with a wrong part, for the twin
    truth = {"soft": soft, "hard": hard, "exact": exact, "entered": entered, "root": root, "window": window,
             "kids": _looked_at(G, window),
             "player": {G.nodes[n]["label"]: G.nodes[n]["player"] for n in G if G.out_degree(n)}}
    for lab in asked:
        starts.append(len(rep.items))
        read, right = _judge_pair(rep, lab, pairs[lab], truth)
        readable, right_numbers = readable + read, right_numbers + right
    if readable == 0 and not any(kind == "good" for kind, _, _ in rep.items):
        return malformed(what, f"Could not read your answer: {form}.")

    ends = starts[1:] + [len(rep.items)]
    wrong = [lab for lab, i, j in zip(asked, starts, ends) if any(k == "bad" for k, _, _ in rep.items[i:j])]

    def twin(fb):
        return _worked_soft_hard(tree, window, soft, hard, wrong, root_player,
                                 cut="cut-value-as-minimax" in fb.tags)

    total = 2 * len(asked)   # the title counts numbers, 2 per node, whatever is right or wrong
    title = f"all {total} numbers right." if right_numbers == total else (f"{right_numbers} of {total} "
                                                                          "numbers right.")
    fb = Feedback(f"{what}: {title}", rep.items, tags=rep.tags)
    return escalate(_key(tree, window, root_player), fb, twin=twin)


def _minimax_values(G):
    m = minimax(G, trace=False, graph=True)
    return {G.nodes[n]["label"]: m.graph.nodes[n]["value"] for n in G if G.out_degree(n)}


def _worked_soft_hard(tree, window, soft, hard, wrong=(), root_player="max", cut=False):
    """The mistake made, worked out on a twin (the same shape, other leaves): the root searched with the full
    window when only that was wrong, else one of the nodes that were wrong (any node where the two differ
    when the wrong ones do not on any twin). With ``cut`` (a cut-off node given its minimax value) the twin's
    node is one that is cut off before it reaches its minimax value, when some twin has one."""
    G = tree_from_nested(tree, root_player=root_player)
    rng = random.Random(len(repr(tree)))
    at_root = "" if root_player == "max" else " (MIN at the root)"
    if list(wrong) == ["full"]:
        H = next(twin_trees(G, rng, tries=300), None)
        if H is None:  # pragma: no cover
            return None
        root = H.nodes[H.graph["root"]]["label"]
        value = _minimax_values(H)[root]
        full = (-math.inf, math.inf)
        s, h = _returns(H, hard=False, window=full), _returns(H, hard=True, window=full)
        inner = _entered(H, full)
        below = next((lab for lab in s if lab != root and s[lab] != h[lab]), None)
        where = ("" if below is None else
                 f" Nodes below are entered with narrower windows and are clamped to those: {below} is "
                 f"entered with {_window_text(inner[below])} and returns {fmt(s[below])} under fail-soft, "
                 f"{fmt(h[below])} under fail-hard; but the root's own return is never clamped.")
        return (f"{nested_text(H)}{at_root} searched from {root} with the full window (−∞, +∞): the root's "
                "own window is (−∞, +∞), so clamping the root's return changes nothing, and fail-soft and "
                f"fail-hard both return {root}'s minimax value, {fmt(value)}.{where}")
    asked = [lab for lab in wrong if lab != "full"]
    entered = _entered(G, window)
    sides = {lab: _side(soft[lab], entered[lab]) for lab in asked if lab in entered}
    stopped_twin = same_side = any_diff = None
    for H in twin_trees(G, rng, tries=300):
        s, h = _returns(H, hard=False, window=window), _returns(H, hard=True, window=window)
        diff = [lab for lab in s if s[lab] != h[lab] and (s[lab], h[lab]) != (soft.get(lab), hard.get(lab))]
        twin_entered = _entered(H, window)
        # the twin's node fails on the same side of its window as the learner's node did
        mine = [lab for lab in diff if lab in sides and _side(s[lab], twin_entered[lab]) == sides[lab]]
        if mine and same_side is None:
            same_side = (H, s, h, mine)
        if mine and cut:   # a minimax value given: a twin whose node is cut off short of its minimax value
            exact = _minimax_values(H)
            stopped = [lab for lab in mine if s[lab] != exact[lab]]
            if stopped:
                stopped_twin = (H, s, h, stopped)
                break
        elif mine:
            break
        if diff and any_diff is None:
            any_diff = (H, s, h, diff)
    found = stopped_twin or same_side or any_diff
    if found is None:  # pragma: no cover
        return None
    H, s, h, diff = found
    lab = diff[-1]
    # shift the twin's leaves and window by a constant: alpha-beta's windows and returns shift with them, and
    # the node's window and returns then differ from the exercise's own (which they would otherwise give)
    H, window = _shifted(H, window, s[lab], soft.get(lab), entered.get(lab))
    s, h = _returns(H, hard=False, window=window), _returns(H, hard=True, window=window)
    entered = _entered(H, window)
    a, b = entered[lab]
    n = next(k for k in H if H.nodes[k]["label"] == lab)
    player = H.nodes[n]["player"].upper()
    side = "at most α" if s[lab] <= a else "at least β"
    worth = _minimax_values(H)[lab]
    twin_truth = {"soft": s, "exact": _minimax_values(H), "kids": _looked_at(H, window)}
    if worth == s[lab]:
        stopped = ""
    elif twin_truth["kids"][lab][1]:
        stopped = (f" ({lab} is worth {fmt(worth)} after looking at every child, but the cutoff stops it at "
                   f"{fmt(s[lab])}: fail-soft returns what it has when it stops.)")
    else:
        child, stopper, never = _bound_from_below(lab, twin_truth)
        below = (f"{child} stops at {fmt(s[child])} before its child {never} and returns that bound"
                 if child == stopper else
                 f"{child} returns a bound, {fmt(s[child])}: below it, {stopper} stops at {fmt(s[stopper])} "
                 f"before its child {never}")
        stopped = (f" ({lab} is worth {fmt(worth)} after looking at every child, and it does look at every "
                   f"child, but {below}; fail-soft passes the bound up, and {lab} reaches {fmt(s[lab])}.)")
    return (f"{nested_text(H)}{at_root} searched with the window {_window_text(window)}, at {lab}: {lab} "
            f"({player}) is entered with (α, β) = {_window_text((a, b))}. Fail-soft returns {fmt(s[lab])}, "
            f"the value {lab} reached, {side}: a bound.{stopped} Fail-hard clamps it into [{fmt(a)}, "
            f"{fmt(b)}] and returns {fmt(h[lab])}. Both tell the parent the same side of the window; "
            "fail-soft's bound is tighter.")


def _shifted(H, window, twin_soft, soft, own):
    """``(H', window')``: ``H`` with every leaf and ``window`` shifted by the least constant wider than the
    window (so no window a node is entered with, nor a fail-hard return, is one of the exercise's) that also
    moves the node's fail-soft return ``twin_soft`` off the exercise's ``soft``; ``own`` is the exercise's
    window at that node."""
    width = window[1] - window[0]
    k = int(math.ceil(width)) + 1 if math.isfinite(width) else 3
    while twin_soft + k == soft or (own is not None and own[0] <= twin_soft + k <= own[1] and
                                    not math.isfinite(width)):
        k += 1
    H = H.copy()
    for n in H:
        if not H.out_degree(n):
            H.nodes[n]["utility"] = H.nodes[n]["utility"] + k
    return H, (window[0] + k, window[1] + k)


def _side(value, window):
    """Where a fail-soft return lies against the window its node was entered with: "low", "high" or
    "inside"."""
    return "low" if value <= window[0] else "high" if value >= window[1] else "inside"


def _window_text(w):
    return f"({fmt(w[0])}, {fmt(w[1])})"


def solution_pruning_order(tree):
    """The worked answer of :func:`check_pruning_order` on ``tree``, only after an attempt: the best order and
    its count, why no order does better, and the worst order's count (all computed from ``tree``)."""
    tree = _two_level(tree, "tree")

    def make():
        best = _fewest(tree)
        first, used, most = best[0], _leaves_evaluated(best), _most(tree)
        top = min(first)
        worths = ", ".join(f"{c} is worth {min(c)}" for c in tree)
        worst = sorted(tree, key=min)
        return (f"MIN takes each node's smallest leaf: {worths}. Put the MIN node worth the most to MAX "
                f"first ({first}, its leaves in any order): it is searched to its end, {len(first)} leaves, "
                f"and sets α = {top}. In each other node put a leaf at most {top} first: the node stops "
                "after it. "
                f"Order {best}: {used} leaves. No order does with fewer: reason {_FEWEST_WHY} ("
                f"{FEWEST_REASONS[_FEWEST_WHY]}). The worst order evaluates {most} of the "
                f"{sum(map(len, tree))} leaves: the MIN nodes from worst to best (worth "
                f"{', '.join(str(min(c)) for c in worst)}), each with its smallest leaf last; α is only ever "
                "the value of a node already done, so no leaf of a later node is at most α before its last "
                "one.")
    key = "lesson03.pruning_order." + repr(sorted(sorted(c) for c in tree))
    return worked_answer(key, "solution_pruning_order(...)", make)


def solution_fail_soft_hard(tree, window, nodes=None, root_player="max"):
    """The worked answer of :func:`check_fail_soft_hard`, only after an attempt: every node asked, in the
    order the search enters it, with the window it is entered with and its two returns (read from the
    engine), then the root with the full window."""
    window = _check_window(window)
    root_player = _root_player(root_player)

    def make():
        G = tree_from_nested(tree, root_player=root_player)
        soft, hard = _returns(G, hard=False, window=window), _returns(G, hard=True, window=window)
        entered = _entered(G, window)
        asked = [x for x in entered if nodes is None or x in nodes]
        player = {G.nodes[n]["label"]: G.nodes[n]["player"].upper() for n in G if G.out_degree(n)}
        side = {"low": "at most α: it fails low, and fail-hard returns α",
                "high": "at least β: it fails high, and fail-hard returns β",
                "inside": "inside its window: both return it"}
        lines = [f"{root_player.upper()} at the root, searched with {_window_text(window)}, in the order the "
                 "search enters the nodes:"]
        for lab in asked:
            lines.append(f"{lab} ({player[lab]}) is entered with {_window_text(entered[lab])}; its value "
                         f"reached is {fmt(soft[lab])}, {side[_side(soft[lab], entered[lab])]}: fail-soft "
                         f"{fmt(soft[lab])}, fail-hard {fmt(hard[lab])}.")
        root = G.nodes[G.graph["root"]]["label"]
        full = (-math.inf, math.inf)
        s, h, inner = _returns(G, False, full), _returns(G, True, full), _entered(G, full)
        below = [lab for lab in s if lab != root and s[lab] != h[lab]]
        lines.append(f"With the full window (−∞, +∞) the root's own window is (−∞, +∞), so its return is "
                     f"never clamped: {root} returns its minimax value, {fmt(s[root])}, under both."
                     + ("" if not below else
                        " Nodes below are entered with narrower windows and clamped to those: "
                        + "; ".join(f"{lab} is entered with {_window_text(inner[lab])}, fail-soft "
                                    f"{fmt(s[lab])}, fail-hard {fmt(h[lab])}" for lab in below) + "."))
        return "\n".join(lines)
    return worked_answer(_key(tree, window, root_player), "solution_fail_soft_hard(...)", make)
