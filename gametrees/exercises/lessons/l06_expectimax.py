"""Lesson 06 (expectimax): rescaled leaves and an order-keeping flip that changes the choice.

The checks lesson 06 calls; each compares the learner's answer with what the engine or
the lesson's rule computes, and a check on an unanswered exercise says only that it is unanswered.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ...rules import fails_low
from ...search import expectimax
from ...trees import tree_from_nested
from ..answers import NodeNames
from ..attempts import escalate, worked_answer
from ..by_hand import as_tree
from ..code_checks.harness import Printed, run_learner
from ..feedback import Report, and_list, fmt, malformed, unanswered
from .reading import is_blank

__all__ = ["chance_pruned", "check_chance_pruning", "check_order_preserving_flip", "check_rescaled_choices",
           "solution_chance_pruning"]


def check_order_preserving_flip(tree, f):
    """Check that ``f`` keeps the order of the leaf values but flips expectimax's decision (lesson 06).

    The flip must be strict: a change after which two children of the root tie is told it is a tie.

    Examples
    --------
    >>> from gametrees.trees import tree_from_nested
    >>> gamble = tree_from_nested([{"chance": [5, 5]}, {"chance": [12, 0]}])
    >>> check_order_preserving_flip(gamble, math.sqrt).ok
    True
    >>> check_order_preserving_flip(gamble, {0: 0, 5: 5, 12: 10}.get).ok     # B and C tie at 5
    False
    """
    G = as_tree(tree, None)
    rep, printed = Report(), Printed()
    leaves = sorted({G.nodes[n]["utility"] for n in G if not G.out_degree(n)})
    blank = unanswered("Order-preserving flip", "f leaves every value as it is: change its body to your "
                                                "function.")
    if f is None:
        return blank
    images = []
    for v in leaves:
        out = run_learner(f, (v,), printed)
        if out.problem():
            return malformed("Order-preserving flip", f"Could not use f: f({fmt(v)}) {out.problem()}.")
        images.append(out.value)
    if images == leaves:
        return blank
    broken = [(a, b, fa, fb_) for (a, fa), (b, fb_) in zip(zip(leaves, images), zip(leaves[1:], images[1:]))
              if not fa < fb_]
    if broken:
        a, b, fa, fb_ = broken[0]
        rep.bad(f"f does not keep the order: {fmt(a)} < {fmt(b)} but f gives {fmt(fa)} and {fmt(fb_)}.")
    else:
        rep.good("f keeps the order of the leaf values.")
    H = G.copy()
    for n in H:
        if "utility" in H.nodes[n] and not H.out_degree(n):
            H.nodes[n]["utility"] = images[leaves.index(H.nodes[n]["utility"])]
    before, after_run = expectimax(G, trace=False).move, expectimax(H, trace=False, graph=True)
    after = after_run.move
    nodes = NodeNames(G)
    root = G.graph["root"]
    tied = [k for k in G.successors(root)
            if math.isclose(after_run.graph.nodes[k]["value"], after_run.value, rel_tol=1e-9, abs_tol=1e-9)]
    if len(tied) > 1:   # a tie is not a flip: the search picks by the order of the moves
        after = before
        rep.bad(f"After f, {' and '.join(nodes.name(k) for k in tied)} tie at {fmt(after_run.value)}: a tie "
                "is not a flip (the search then takes the first of the tied moves). Make the other move's "
                "average strictly better.")
    elif before != after:
        rep.good(f"Expectimax now chooses {nodes.name(after)} instead of {nodes.name(before)}.")
    elif not broken and _affine(leaves, images):
        a, b = _affine(leaves, images)
        rep.bad(f"Expectimax still chooses {nodes.name(before)}: f is a·v + b (a = {fmt(a)}, b = {fmt(b)}) "
                "on these leaves, and a·v + b with a > 0 never moves expectimax's choice: every average "
                "becomes a × itself + b, so they keep their order. Which f keeps the order of the leaves but "
                "not the sizes of the steps between them?")
    else:
        rep.bad(f"Expectimax still chooses {nodes.name(before)}: the averages have not changed places. Which "
                "average has to fall below the other, and what must f do to the largest leaf, compared with "
                "the gaps between the others, for that to happen?")
    if not broken and before != after:
        rep.note("Minimax's choice would not change: it only compares values, and f keeps their order.")
    flipped = before != after
    # how f broke the order: only by making leaves equal ("flat"), or by turning some around ("reversed")
    how = None if not broken else "flat" if all(fa == fb_ for _, _, fa, fb_ in broken) else "reversed"
    return escalate("l06.order_preserving_flip", rep.feedback("Order-preserving flip"),
                    twin=lambda _: _flip_twin(how, flipped))


def _affine(xs, ys):
    """``(a, b)`` when ``ys`` is ``a * x + b`` for every x of ``xs`` (at least two, sorted, distinct), else
    None."""
    if len(xs) < 2 or not all(isinstance(y, (int, float)) and math.isfinite(y) for y in ys):
        return None
    a = (ys[-1] - ys[0]) / (xs[-1] - xs[0])
    b = ys[0] - a * xs[0]
    ok = all(math.isclose(y, a * x + b, rel_tol=1e-9, abs_tol=1e-9) for x, y in zip(xs, ys))
    return (a, b) if ok else None


#: The flip twin's tree: a coin between 1 and 9 (B) against a sure 6 (C): C wins on average, the other way
#: round from the lesson's exercise, so the twin's f is not the exercise's answer.
_FLIP_TWIN = [{"chance": [1, 9]}, {"chance": [6, 6]}]


def _flip_twin(broke_order, flipped):
    """The learner's mistake worked through on a twin tree (other numbers, the other direction).

    ``broke_order``: how f failed to keep the order of the leaves, None if it kept it, ``"flat"`` if it
    only made some leaves equal, ``"reversed"`` if it turned some around; ``flipped``: the choice changed
    all the same.
    """
    T = tree_from_nested(_FLIP_TWIN)
    kids = list(T.successors(T.graph["root"]))
    names = NodeNames(T)

    def averages(f):
        r = expectimax(_mapped(T, f), trace=False, graph=True)
        return ", ".join(f"{names.name(k)} averages {fmt(r.graph.nodes[k]['value'])}" for k in kids), r.move

    plain, move0 = averages(lambda v: v)
    (low, high), mid = _FLIP_TWIN[0]["chance"], _FLIP_TWIN[1]["chance"][0]
    parts = [(f"B is a coin between {low} and {high}, C a sure {mid}: {plain}, so expectimax picks "
              f"{names.name(move0)}")]
    if broke_order == "flat":
        def flat(v):
            return max(v, mid)

        flattened, move1 = averages(flat)
        parts.append(f"f(v) = max(v, {mid}) gives {flattened}, so expectimax picks {names.name(move1)}; f "
                     f"turns no two leaves around, but it makes {low} and {mid} equal (f gives "
                     f"{fmt(flat(low))} and {fmt(flat(mid))}): an outcome worse than another is no longer "
                     f"worse, so f does not keep the order. An order-keeping f must give f({low}) < f({mid}) "
                     f"< f({high}), strictly, and change only the gaps between them")
    elif broke_order:
        def turn(v):
            return 10 - v

        turned, move1 = averages(turn)
        parts.append(f"f(v) = 10 − v gives {turned}, so expectimax picks {names.name(move1)}, but f turns "
                     f"the order around ({low} < {mid} while f gives {fmt(turn(low))} > {fmt(turn(mid))}): "
                     f"minimax would change its choice too. An order-keeping f must give f({low}) < f({mid}) "
                     f"< f({high}) and change only the gaps between them")
    if broke_order or not flipped:
        def square(v):
            return v * v

        squared, move2 = averages(square)
        parts.append(f"f(v) = v² keeps the order, but the gap from {mid} to {high} ({high - mid}) becomes "
                     f"{fmt(square(high) - square(mid))} while the gap from {low} to {mid} ({mid - low}) "
                     f"becomes only {fmt(square(mid) - square(low))}: {squared}, so expectimax picks "
                     f"{names.name(move2)}")
    return "; ".join(parts) + "."


def _mapped(G, f):
    """A copy of tree ``G`` with ``f`` applied to every leaf's utility."""
    H = G.copy()
    for n in H:
        if not H.out_degree(n):
            H.nodes[n]["utility"] = f(H.nodes[n]["utility"])
    return H


def _kind_of_change(f, values):
    """'affine+', 'affine-', 'increasing', 'decreasing' or 'other' for f on the sorted ``values``."""
    images = [f(v) for v in values]
    if len(values) >= 2:
        a = (images[1] - images[0]) / (values[1] - values[0])
        b = images[0] - a * values[0]
        if all(math.isclose(a * v + b, y, rel_tol=1e-9, abs_tol=1e-9) for v, y in zip(values, images)):
            return "affine+" if a > 0 else "affine-" if a < 0 else "other"
    steps = list(zip(images, images[1:]))
    if all(x < y for x, y in steps):
        return "increasing"
    if all(x > y for x, y in steps):
        return "decreasing"
    return "other"


def check_rescaled_choices(tree, rescalings, answer, *, with_averages=False):
    """Check which child of the root expectimax prefers after each change of the leaf values (lesson 06).

    Parameters
    ----------
    tree : networkx.DiGraph
        A game tree with chance nodes (labelled A, B, ... as drawn).
    rescalings : dict
        ``{name: f}``: each ``f`` is applied to every leaf value.
    answer : dict
        ``{name: label}``: the root's child (e.g. ``"B"``) the learner predicts
        expectimax picks after that change; with ``with_averages=True``,
        ``{name: (label, average of the first child, average of the second, ...)}``.
    with_averages : bool, default False
        Ask for the root's children's averages after each change too (to 2
        decimals): a change counts as right only with its child and its
        averages, which a guess between two children cannot give.

    Examples
    --------
    >>> import gametrees as gt
    >>> T = gt.tree_from_nested([{"chance": [4, 4]}, {"chance": [7, 0]}])
    >>> check_rescaled_choices(T, {"v + 10": lambda v: v + 10}, {"v + 10": "B"})
    ✓ Expectimax after rescaling: right.
    ✓ v + 10: B, right (B averages 14, C averages 13.5).
    >>> check_rescaled_choices(T, {"v + 10": lambda v: v + 10}, {"v + 10": None})
    ✗ Expectimax after rescaling: not answered yet.
    ✗ For each change write the child you predict (B or C): {'v + 10': ...}.
    >>> check_rescaled_choices(T, {"v + 10": lambda v: v + 10}, {"v + 10": ("B", 14, 13.5)},
    ...                        with_averages=True).ok
    True
    >>> print(check_rescaled_choices(T, {"v + 10": lambda v: v + 10}, {"v + 10": ("B", 4, 3.5)},
    ...                              with_averages=True).lines[0])
    ✗ v + 10: the child is right, but not every average: apply the change to every leaf, then average each
    chance node again.
    """
    G = as_tree(tree, None)
    if not isinstance(rescalings, Mapping) or not rescalings:
        raise TypeError("rescalings must be a non-empty dict {name: function}")
    nodes = NodeNames(G)
    root = G.graph["root"]
    kids = list(G.successors(root))
    labels = [nodes.name(k) for k in kids]
    form = "{" + ", ".join(f"{name!r}: ..." for name in rescalings) + "}"
    each = (f"({labels[0]!r} or {labels[1]!r}, " + ", ".join(f"{lab}'s average" for lab in labels) + ")"
            if with_averages and len(labels) == 2 else None)
    if answer is None or (isinstance(answer, Mapping) and all(is_blank(v) for v in answer.values())):
        return unanswered("Expectimax after rescaling",
                           f"For each change write {each} in place of None: {form}." if each else
                           f"For each change write the child you predict ({' or '.join(labels)}): {form}.")
    if not isinstance(answer, Mapping):
        return malformed("Expectimax after rescaling",
                         f"Could not read your answer: give a dict {form}, with B or C for each change; you "
                         f"gave {type(answer).__name__}.")
    leaves = sorted({G.nodes[n]["utility"] for n in G if not G.out_degree(n)})
    original = nodes.name(expectimax(G, trace=False).move)
    rep = Report()
    wrong, unread = [], 0
    case = {"G": G, "kids": kids, "nodes": nodes, "labels": labels, "each": each, "leaves": leaves,
            "original": original, "with_averages": with_averages}
    for name, f in rescalings.items():
        verdict = _judge_change(rep, name, f, answer.get(name), case)
        if verdict == "wrong":
            wrong.append(name)
        unread += verdict == "unread"
    fb = rep.feedback("Expectimax after rescaling")
    if fb.status == "wrong":   # one count per change asked, however many lines the answer takes
        fb.title = (f"Expectimax after rescaling: {sum(kind == 'good' for kind, _, _ in rep.items)} of "
                    f"{len(rescalings)} right.")
    if (
        fb.status == "wrong"
        and not any(k == "good" for k, _, _ in rep.items)
        and not wrong
        and unread == len(rescalings)
    ):
        fb.status = "unreadable"
    return escalate("l06.rescaled_choices", fb, twin=lambda _: _rescaled_twin(G, rescalings, wrong))


def _rescaled_values(G, kids, nodes, f):
    """``{child label: expectimax value}`` of the root's children once ``f`` is applied to every leaf."""
    H = G.copy()
    for n in H:
        if not H.out_degree(n):
            H.nodes[n]["utility"] = f(H.nodes[n]["utility"])
    r = expectimax(H, trace=False, graph=True)
    return {nodes.name(k): r.graph.nodes[k]["value"] for k in kids}


def _judge_change(rep, name, f, got, case):
    """The learner's answer ``got`` for the change ``name`` (the function ``f``): a line in ``rep``;
    returns ``"right"``, ``"wrong"``, ``"unread"`` or ``"blank"``. ``case`` holds the tree and what the
    question asked (its children's labels, whether averages are asked)."""
    labels, each = case["labels"], case["each"]
    values = _rescaled_values(case["G"], case["kids"], case["nodes"], f)
    best = max(values.values())
    right = [lab for lab in labels if math.isclose(values[lab], best, rel_tol=1e-12, abs_tol=1e-12)]
    averages = ", ".join(f"{lab} averages {fmt(values[lab])}" for lab in labels)
    given = got
    if is_blank(got):
        rep.bad(f"{name}: not answered yet.")
        return "blank"
    given_averages = None
    if case["with_averages"]:
        try:
            got, *given_averages = got
            given_averages = [float(x) for x in given_averages]
            if len(given_averages) != len(labels):
                raise ValueError
        except (TypeError, ValueError):
            rep.bad(f"{name}: could not read {given!r}: give "
                    f"{each or 'the child, then each average'}.")
            return "unread"
    got = str(got).strip().upper()
    if got not in labels:
        rep.bad(f"{name}: {got!r} is not a child of the root; the choices are {', '.join(labels)}.")
        return "unread"
    if got in right and given_averages is not None and not all(
            math.isclose(x, values[lab], abs_tol=0.0051) for x, lab in zip(given_averages, labels)):
        rep.bad(f"{name}: the child is right, but not every average: apply the change to every leaf, "
                "then average each chance node again.")
        return "wrong"
    if got in right:
        rep.good(f"{name}: {got}, right ({averages}).")
        return "right"
    kind = _kind_of_change(f, case["leaves"])
    hint = {
        "affine+": f"{name} is a·v + b with a > 0: what does it do to each average, and so to the "
                   "choice?",
        "affine-": f"{name} multiplies by a negative number: what happens to the order of the averages?",
        "increasing": f"{name} keeps the order of the leaves but is not of the form a·v + b: apply it to "
        "every leaf, then average each chance node again.",
        "decreasing": f"{name} reverses the order of the leaves: apply it to every leaf, then average "
        "again.",
        "other": "Apply the change to every leaf, then average each chance node again.",
    }[kind]
    rep.bad(f"{name}: not the child expectimax picks after this change. {hint}",
            tag="scale-sensitivity" if kind == "increasing" and got == case["original"] else None)
    return "wrong"


def _rescaled_twin(G, rescalings, wrong):
    """The changes the learner got wrong, worked through on a twin: the root's children in reverse, leaves +
    1."""
    root = G.graph["root"]
    kids = list(G.successors(root))
    if not wrong or not all(all(not G.out_degree(n) for n in G.successors(k)) for k in kids):
        return None
    spec = []
    for k in reversed(kids):
        outs = list(G.successors(k))
        spec.append({G.nodes[k]["player"]: [G.nodes[n]["utility"] + 1 for n in outs],
                     "p": [G.edges[k, n].get("prob", 1 / len(outs)) for n in outs]}
                    if G.nodes[k].get("player") == "chance"
                    else {G.nodes[k]["player"]: [G.nodes[n]["utility"] + 1 for n in outs]})
    T = tree_from_nested(spec)
    names = NodeNames(T)
    tk = list(T.successors(T.graph["root"]))
    leaves = ", ".join(f"{names.name(k)} over "
                       f"{', '.join(fmt(T.nodes[n]['utility']) for n in T.successors(k))}" for k in tk)
    parts = []
    for name in wrong:
        r = expectimax(_mapped(T, rescalings[name]), trace=False, graph=True)
        av = ", ".join(f"{names.name(k)} averages {fmt(r.graph.nodes[k]['value'])}" for k in tk)
        parts.append(f"{name}: {av}, so expectimax picks {names.name(r.move)}")
    return f"the tree with {leaves}. " + "; ".join(parts) + "."


# ============================================================================
# check_chance_pruning: pruning below chance nodes when the leaves are bounded
# ============================================================================


def _chance_shape(G):
    """The root (MAX) and its chance children, each over leaves; a ValueError for any other shape."""
    root = G.graph["root"]
    kids = list(G.successors(root))
    ok = G.nodes[root].get("player") == "max" and kids and all(
        G.nodes[k].get("player") == "chance" and all(not G.out_degree(n) for n in G.successors(k))
        for k in kids)
    if not ok:
        raise ValueError("check_chance_pruning needs a MAX root whose children are chance nodes over leaves")
    return root, kids


def chance_pruned(tree, low, high):
    """The leaves a left-to-right expectimax search never needs to look at, when every leaf lies in [low,
    high].

    MAX at the root searches its chance children in order; ``alpha`` is the
    best value found so far. Below a chance node, after each outcome the most
    the node can still be worth is (the weighted outcomes seen) + (the
    probability not yet seen) × ``high`` (:func:`gametrees.rules.chance_upper_bound`); once that is
    ≤ ``alpha``, MAX will not choose the node, and its remaining outcomes are skipped. The search is
    the engine's (``expectimax(tree, bounds=(low, high))``, Ballard's Star1).

    Returns ``(pruned leaves, {chance node: (bound when it stopped or its value, stopped early)})``.

    Examples
    --------
    >>> import gametrees as gt
    >>> T = gt.tree_from_nested([{"chance": [6, 8]}, {"chance": [2, 9], "p": [0.5, 0.5]}])
    >>> pruned, _ = chance_pruned(T, 0, 10)
    >>> sorted(T.nodes[n]["label"] for n in pruned)
    ['G']
    """
    G = as_tree(tree, None)
    if not low < high:
        raise ValueError(f"the leaf bounds must have low < high, got [{low}, {high}]")
    _, kids = _chance_shape(G)
    for n in G:
        if not G.out_degree(n) and not low <= G.nodes[n]["utility"] <= high:
            raise ValueError(f"leaf {G.nodes[n].get('label', n)} = {G.nodes[n]['utility']} is outside "
                             f"[{low}, {high}]")
    r = expectimax(G, bounds=(low, high), trace=True)
    pruned = [n for e in r.trace if e.kind == "prune" for n in e.children]
    cut = {e.node for e in r.trace if e.kind == "prune"}
    return pruned, {k: (r.graph.nodes[k]["value"], k in cut) for k in kids}


def _alpha_beta_like(G):
    """What pruning like alpha-beta (stop a chance node at an outcome ≤ the best so far) would skip."""
    _, kids = _chance_shape(G)
    alpha, pruned = -math.inf, []
    for k in kids:
        outs = list(G.successors(k))
        probs = [G.edges[k, n].get("prob", 1 / len(outs)) for n in outs]
        for i, n in enumerate(outs):
            if i < len(outs) - 1 and fails_low(G.nodes[n]["utility"], alpha):
                pruned += outs[i + 1:]
                break
        else:
            alpha = max(alpha, sum(p * G.nodes[n]["utility"] for n, p in zip(outs, probs)))
    return pruned


def _unweighted(G):
    """A copy of ``G`` whose chance nodes give every outcome the same probability (a plain mean)."""
    H = G.copy()
    for k in H:
        outs = list(H.successors(k))
        if H.nodes[k].get("player") == "chance":
            for n in outs:
                H.edges[k, n]["prob"] = 1 / len(outs)
    return H


def _unbounded_example(high):
    """A value for an unseen outcome, in the twin for a wrong without-bounds answer: far above the leaves.

    >>> _unbounded_example(10), _unbounded_example(500)
    (1000, 10000)
    """
    return 10 ** max(3, len(str(int(abs(high)))) + 1)


def _chance_twin(G, low, high, missed=("with the bounds", "without bounds")):
    """The pruning worked through on a twin: the same shape and probabilities, other leaves.

    ``missed`` names the parts the learner got wrong: ``"with the bounds"`` works
    the cuts the bounds allow; ``"without bounds"`` works why, with nothing
    known about the leaves, a leaf the bounds let the search skip must be looked at.
    """
    import random as _random

    rng = _random.Random(7)
    names = NodeNames(G)
    mine, _ = chance_pruned(G, low, high)
    leaves = [n for n in G if not G.out_degree(n)]

    def longest_look(T, pruned):
        """The most outcomes a chance node cut early had seen (0: none cut)."""
        return max((sum(n not in pruned for n in T.successors(k)) for k in T if T.out_degree(k)
                    and any(n in pruned for n in T.successors(k))), default=0)

    for _ in range(500):
        H = G.copy()
        for n in leaves:
            H.nodes[n]["utility"] = rng.randint(int(math.ceil(low)), int(math.floor(high)))
        pruned, info = chance_pruned(H, low, high)
        # other cuts, and one after as many outcomes as the exercise's latest cut (after two: after two)
        if not pruned or set(pruned) == set(mine) or longest_look(H, pruned) < longest_look(G, mine):
            continue
        steps, alpha, cut = [], None, None
        for k, (v, early) in info.items():
            outs = list(H.successors(k))
            if early:
                seen = [n for n in outs if n not in pruned]
                skipped = [names.name(n) for n in outs if n in pruned]
                cut = cut or (k, seen, skipped, alpha, v)
                steps.append(f"{names.name(k)}: after {and_list([names.name(n) for n in seen])} it can be "
                             f"worth at most {fmt(v)} (every unseen outcome at {fmt(high)}), no more than "
                             f"the {fmt(alpha)} MAX already has: skip {', '.join(skipped)}")
            else:
                steps.append(f"{names.name(k)} = {fmt(v)}")
                alpha = v if alpha is None else max(alpha, v)
        listing = ", ".join(f"{names.name(n)} = {fmt(H.nodes[n]['utility'])}" for n in leaves)
        head = f"the same tree with {listing}"
        if "with the bounds" in missed:
            text = f"{head}, every leaf in [{fmt(low)}, {fmt(high)}]: " + "; ".join(steps) + "."
        else:
            text = f"{head}."
        if "without bounds" in missed:
            k, seen, skipped, best, most = cut
            big = _unbounded_example(high)
            probs = {n: H.edges[k, n].get("prob", 1 / H.out_degree(k)) for n in H.successors(k)}
            lifted = sum(probs[n] * (H.nodes[n]["utility"] if n in seen else big) for n in probs)
            terms = " + ".join(f"{fmt(p)} × {fmt(H.nodes[n]['utility']) if n in seen else big}"
                               for n, p in probs.items())
            seen_names = and_list([names.name(n) for n in seen])
            text += (f" Without bounds: under {names.name(k)}, after {seen_names}, "
                     f"{'' if len(skipped) == 1 else 'each of '}{and_list(skipped)} could be {big} "
                     f"(nothing says otherwise), and then {names.name(k)} = {terms} = "
                     f"{fmt(round(lifted, 2))}, more than the {fmt(best)} MAX already has: {names.name(k)} "
                     f"could be MAX's choice, so {and_list(skipped)} must be looked at (with every leaf at "
                     f"most {fmt(high)}, {names.name(k)} is at most {fmt(most)} and the skip is safe). The "
                     "same holds for every outcome not yet seen: without bounds nothing can be skipped.")
        return text
    return None


def check_chance_pruning(tree, bounds, with_bounds, without_bounds):
    """Check which leaves a search below chance nodes may skip, with and without bounds on the leaves (lesson
    06).

    ``with_bounds``: the leaves never looked at when every leaf is known to lie
    in ``bounds`` = (low, high) (see :func:`chance_pruned`); ``without_bounds``:
    the leaves that may be skipped when nothing is known about the leaves (none:
    any unseen outcome could move the average). Each is a set of leaf labels
    (an empty set for none). A wrong answer is named by chance node, with the
    bound to compute there, never with the leaves to skip; from the second
    wrong check on, a twin tree is worked through.

    Examples
    --------
    >>> import gametrees as gt
    >>> T = gt.tree_from_nested([{"chance": [6, 8]}, {"chance": [2, 9], "p": [0.5, 0.5]}])
    >>> check_chance_pruning(T, (0, 10), {"G"}, set()).ok
    True
    >>> check_chance_pruning(T, (0, 10), None, None)
    ✗ Pruning below chance nodes: not answered yet.
    ✗ Give two sets of leaf labels (set() for none): with_bounds and without_bounds.
    """
    what = "Pruning below chance nodes"
    G = as_tree(tree, None)
    low, high = bounds
    truth, _ = chance_pruned(G, low, high)
    names = NodeNames(G)
    _, kids = _chance_shape(G)
    if with_bounds is None and without_bounds is None:
        return unanswered(what, "Give two sets of leaf labels (set() for none): with_bounds and "
                                "without_bounds.")
    rep = Report()
    leaf_set = {n for n in G if not G.out_degree(n)}
    readable = 0
    for part, answer, right in (
        ("with the bounds", with_bounds, set(truth)),
        ("without bounds", without_bounds, set()),
    ):
        if answer is None:
            rep.bad(f"{part}: not answered yet.")
            continue
        if isinstance(answer, str):
            answer = [a for a in answer.replace(",", " ").split() if a]
        if not isinstance(answer, (set, frozenset, list, tuple)):
            rep.bad(f"{part}: could not read {answer!r}: give a set of leaf labels, such as {{'H'}}, or "
                    "set().")
            continue
        mine, unknown = set(), []
        for a in answer:
            n = names.resolve(a) if isinstance(a, (str, tuple)) else None
            if n is None or n not in leaf_set:
                unknown.append(a)
            else:
                mine.add(n)
        readable += 1
        if unknown:
            rep.bad(f"{part}: {', '.join(map(repr, unknown))} "
                    f"{'is not a leaf' if len(unknown) == 1 else 'are not leaves'} of the tree.")
        if part == "without bounds":
            if not mine:
                rep.good(f"{part}: nothing can be skipped, right.")
            else:
                rep.bad(f"{part}: you skip {', '.join(names.name(n) for n in sorted(mine, key=names.name))}. "
                        "With nothing known about the leaves, could an unseen outcome still be large enough "
                        "to lift its chance node above what MAX already has?", tag="chance-pruned")
            continue
        if mine == right:
            rep.good(f"{part}: right.")
            continue
        like_ab = set(_alpha_beta_like(G))
        plain_mean = set(chance_pruned(_unweighted(G), low, high)[0])
        if mine == plain_mean and plain_mean != right:
            rep.bad(f"{part}: your skips are exactly those of a search that bounds each chance node with a "
                    "plain mean, as if its outcomes were equally likely; they are not. After each outcome, "
                    f"weight what has been seen and the unseen outcomes (each at most {fmt(high)}) by their "
                    "probabilities, and compare that bound with what MAX already has.",
                    tag="chance-unweighted")
            continue
        for k in kids:
            outs = set(G.successors(k))
            got, want = mine & outs, right & outs
            if got == want:
                continue
            extra = got - want
            if extra:
                rep.bad(f"{part}: under {names.name(k)} you skip "
                        f"{', '.join(sorted(names.name(n) for n in extra))}, but the search must look there. "
                        f"After the outcomes before it, what is the most {names.name(k)} can still be worth, "
                        f"with every unseen outcome at {fmt(high)}? Is that more than MAX already has?",
                        tag="chance-pruned" if mine == like_ab and mine != right else None)
            else:
                rep.bad(f"{part}: under {names.name(k)} the search can stop earlier than you say. After each "
                        f"outcome, what is the most {names.name(k)} can still be worth, with every unseen "
                        f"outcome at {fmt(high)}? Compare it with what MAX already has.")
    fb = rep.feedback(what)
    parts_right = sum(kind == "good" for kind, _, _ in rep.items)
    if fb.status == "wrong":   # one count per part asked (two), however many lines a wrong part takes
        fb.title = f"{what}: {parts_right} of 2 right."
    if readable == 0 and fb.status == "wrong":
        fb.status = "unreadable"
    # every line on a part starts with the part's name: the twin works the parts the learner got wrong
    missed = [part for part in ("with the bounds", "without bounds")
              if any(kind == "bad" and text.startswith(f"{part}:") for kind, text, _ in rep.items)]
    return escalate("l06.chance_pruning", fb, twin=lambda _: _chance_twin(G, low, high, missed))


#: Lesson 06's exercise 2 worked through (the tests check its sets pass :func:`check_chance_pruning`).
CHANCE_PRUNING_ANSWER = (
    "B = 0.5 × 6 + 0.5 × 8 = 7. Under C, after G = 2: at most 0.5 × 2 + 0.5 × 10 = 6 ≤ 7, so H and I are "
    "skipped. Under D, after J = 4: at most 1 + 0.75 × 10 = 8.5 > 7; after K = 2: at most 1 + 0.5 + 0.5 × 10 "
    "= 6.5 ≤ 7, so L is skipped (though it is 9). With bounds: {\"H\", \"I\", \"L\"}. Without bounds nothing "
    "can be skipped (set()): an unseen outcome could be as large as you like.")


def solution_chance_pruning():
    """The worked answer of :func:`check_chance_pruning` (lesson 06, exercise 2), only after an attempt."""
    return worked_answer("l06.chance_pruning", "solution_chance_pruning()", lambda: CHANCE_PRUNING_ANSWER)
