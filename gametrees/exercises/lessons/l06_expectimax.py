"""Lesson 06 (expectimax): rescaled leaves and an order-keeping flip that changes the choice.

The checks lesson 06 calls; each compares the learner's answer with what the engine or
the lesson's rule computes, and a check on an unanswered exercise says only that it is unanswered.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ...search import expectimax
from ..answers import NodeNames
from ..by_hand.base import as_tree
from ..code_checks.harness import Printed, run_learner
from ..feedback import Feedback, Report, fmt
from .reading import is_blank, unanswered

__all__ = ["check_order_preserving_flip", "check_rescaled_choices"]


def check_order_preserving_flip(tree, f):
    """Check that ``f`` keeps the order of the leaf values but flips expectimax's decision (lesson 06)."""
    G = as_tree(tree, None)
    rep, printed = Report(), Printed()
    leaves = sorted({G.nodes[n]["utility"] for n in G if not G.out_degree(n)})
    unanswered = Feedback("Order-preserving flip: not answered yet.",
                          [("bad", "f leaves every value as it is: change its body to your function.", None)])
    if f is None:
        return unanswered
    images = []
    for v in leaves:
        out = run_learner(f, (v,), printed)
        if out.problem():
            return Feedback("Order-preserving flip: f failed.", [("bad", f"f({fmt(v)}) {out.problem()}.", None)])
        images.append(out.value)
    if images == leaves:
        return unanswered
    broken = [(a, b, fa, fb_) for (a, fa), (b, fb_) in zip(zip(leaves, images), zip(leaves[1:], images[1:])) if not fa < fb_]
    if broken:
        a, b, fa, fb_ = broken[0]
        rep.bad(f"f does not keep the order: {fmt(a)} < {fmt(b)} but f gives {fmt(fa)} and {fmt(fb_)}.")
    else:
        rep.good("f keeps the order of the leaf values.")
    H = G.copy()
    for n in H:
        if "utility" in H.nodes[n] and not H.out_degree(n):
            H.nodes[n]["utility"] = images[leaves.index(H.nodes[n]["utility"])]
    before, after = expectimax(G, trace=False).move, expectimax(H, trace=False).move
    nodes = NodeNames(G)
    if before != after:
        rep.good(f"Expectimax now chooses {nodes.name(after)} instead of {nodes.name(before)}.")
    else:
        top = max(leaves)
        kids = list(G.successors(G.graph["root"]))
        simple = all(G.nodes[k].get("player") == "chance" and
                     all(not G.out_degree(n) for n in G.successors(k)) for k in kids)
        holder = next((k for k in kids if any(G.nodes[n].get("utility") == top for n in G.successors(k))), None)
        if simple and holder is not None:
            way = ("brings the high values closer together" if holder == before else
                   "stretches the high values further apart")
            rep.bad(f"Expectimax still chooses {nodes.name(before)}. The largest leaf, {fmt(top)}, is under "
                    f"{nodes.name(holder)}: try an order-keeping change that {way}, so the averages change places.")
        else:
            rep.bad(f"Expectimax still chooses {nodes.name(before)}: change how far apart the values are, keeping "
                    "their order, until the averages change places.")
    if not broken and before != after:
        rep.note("Minimax's choice would not change: it only compares values, and f keeps their order.")
    return rep.feedback("Order-preserving flip")


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


def check_rescaled_choices(tree, rescalings, answer):
    """Check which child of the root expectimax prefers after each change of the leaf values (lesson 06).

    Parameters
    ----------
    tree : networkx.DiGraph
        A game tree with chance nodes (labelled A, B, ... as drawn).
    rescalings : dict
        ``{name: f}``: each ``f`` is applied to every leaf value.
    answer : dict
        ``{name: label}``: the root's child (e.g. ``"B"``) the learner predicts
        expectimax picks after that change.

    Examples
    --------
    >>> import gametrees as gt
    >>> T = gt.tree_from_nested([{"chance": [4, 4]}, {"chance": [7, 0]}])
    >>> check_rescaled_choices(T, {"v + 10": lambda v: v + 10}, {"v + 10": "B"})
    ✓ Expectimax after rescaling: right.
    ✓ v + 10: B (B averages 14, C averages 13.5).
    >>> check_rescaled_choices(T, {"v + 10": lambda v: v + 10}, {"v + 10": None})
    ✗ Expectimax after rescaling: not answered yet.
    ✗ For each change write the child you predict (B or C): {'v + 10': ...}.
    """
    G = as_tree(tree, None)
    if not isinstance(rescalings, Mapping) or not rescalings:
        raise TypeError("rescalings must be a non-empty dict {name: function}")
    nodes = NodeNames(G)
    root = G.graph["root"]
    kids = list(G.successors(root))
    labels = [nodes.name(k) for k in kids]
    form = "{" + ", ".join(f"{name!r}: ..." for name in rescalings) + "}"
    if answer is None or (isinstance(answer, Mapping) and all(is_blank(v) for v in answer.values())):
        return unanswered("Expectimax after rescaling",
                           f"For each change write the child you predict ({' or '.join(labels)}): {form}.")
    if not isinstance(answer, Mapping):
        return Feedback("Expectimax after rescaling: the answer could not be read.",
                        [("bad", f"Expected a dict {form}, got {type(answer).__name__}.", None)])
    leaves = sorted({G.nodes[n]["utility"] for n in G if not G.out_degree(n)})
    original = nodes.name(expectimax(G, trace=False).move)
    rep = Report()
    for name, f in rescalings.items():
        H = G.copy()
        for n in H:
            if not H.out_degree(n):
                H.nodes[n]["utility"] = f(H.nodes[n]["utility"])
        r = expectimax(H, trace=False, graph=True)
        values = {nodes.name(k): r.graph.nodes[k]["value"] for k in kids}
        best = max(values.values())
        right = [lab for lab in labels if math.isclose(values[lab], best, rel_tol=1e-12, abs_tol=1e-12)]
        averages = ", ".join(f"{lab} averages {fmt(values[lab])}" for lab in labels)
        got = answer.get(name)
        if is_blank(got):
            rep.bad(f"{name}: not answered yet.")
            continue
        got = str(got).strip().upper()
        if got not in labels:
            rep.bad(f"{name}: {got!r} is not a child of the root; the choices are {', '.join(labels)}.")
            continue
        if got in right:
            rep.good(f"{name}: {got} ({averages}).")
            continue
        kind = _kind_of_change(f, leaves)
        hint = {
            "affine+": f"{name} is a positive affine change (a·v + b with a > 0): every average is changed the "
                       f"same way, so the choice stays {original}, as before the change.",
            "affine-": f"{name} multiplies by a negative number: it turns every preference around, so the "
                       f"child with the smallest average before now has the largest.",
            "increasing": f"{name} keeps the order of the leaves but is not affine: it stretches some gaps more than "
                          f"others, so the averages can change places. Compute them.",
            "decreasing": f"{name} reverses the order of the leaves: compute the averages again.",
            "other": "Apply the change to every leaf, then average each chance node again.",
        }[kind]
        rep.bad(f"{name}: you wrote {got}, but after the change {averages}, so expectimax picks "
                f"{' or '.join(right)}.", hint)
    return rep.feedback("Expectimax after rescaling")
