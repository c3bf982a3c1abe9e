"""Checks of the reasoning exercises in lessons 01, 06 and 07 (counting a tree, the effective branching
factor, rescaled leaves, UCB1 selection, MCTS back-up).

Each check computes the right answer itself from what it is given (the tree,
the counts), says which points of the learner's answer are right, and names the
mistake when a wrong answer matches a known one (the most visited child chosen
in selection, rewards backed up from MAX's point of view, an order-preserving
change taken for a harmless one). A check on an unanswered exercise says only
that it is unanswered.

May import: :mod:`gametrees.games`, :mod:`gametrees.search`, and
:mod:`gametrees.exercises.feedback`, :mod:`gametrees.exercises.answers`,
:mod:`gametrees.exercises.by_hand` (it is a top layer of
:mod:`gametrees.exercises`, beside :mod:`~gametrees.exercises.lessons`).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping

from ..games import Nim
from ..search import expectimax, minimax
from .answers import NodeNames
from .by_hand.base import as_tree
from .feedback import Feedback, Report, fmt

__all__ = ["check_backup", "check_effective_branching", "check_nim_leaves", "check_rescaled_choices",
           "check_ucb_choice"]


def _unanswered(what, how):
    return Feedback(f"{what}: not answered yet.", [("bad", how, None)])


def _is_blank(x):
    return x is None or (isinstance(x, str) and not x.strip())


def _number(x, what):
    """(float, None) for a number, (None, Feedback) for a blank or unreadable answer."""
    if _is_blank(x):
        return None, _unanswered(what, "Replace None with your answer (a number) and run the cell again.")
    if isinstance(x, bool) or not isinstance(x, numbers.Real) or math.isnan(x):
        return None, Feedback(f"{what}: the answer could not be read.",
                              [("bad", f"Expected a number, got {x!r} ({type(x).__name__}).", None)])
    return float(x), None


def _nim_counts(coins):
    stats = minimax(Nim(coins), trace=False).stats
    return stats["leaves_evaluated"], stats["nodes_visited"]


# ----------------------------------------------------------------------------
# Lesson 01: counting a tree, and its effective branching factor
# ----------------------------------------------------------------------------


def check_nim_leaves(coins, answer):
    """Check a count, by reasoning, of the complete games (leaves) of Nim with ``coins`` coins (lesson 01).

    Examples
    --------
    >>> check_nim_leaves(4, 7).ok
    True
    >>> print(check_nim_leaves(4, 81).lines[0])   # doctest: +ELLIPSIS
    ✗ You wrote 81 = 3^4: ...
    """
    x, fb = _number(answer, f"Complete games of Nim with {coins} coins")
    if fb is not None:
        return fb
    leaves, nodes = _nim_counts(coins)
    small = [_nim_counts(n)[0] if n else 1 for n in range(coins + 1)]
    recursion = (f"L({coins}) = L({coins - 1}) + L({coins - 2}) + L({coins - 3}) = "
                 f"{' + '.join(str(small[coins - k]) for k in (1, 2, 3) if coins - k >= 0)} = {leaves}"
                 if coins >= 3 else f"L({coins}) = {leaves}")
    rep = Report()
    if x == leaves:
        rep.good(f"{leaves} complete games: the first move takes 1, 2 or 3 coins, and then the rest is a smaller "
                 f"game, so {recursion} (with L(0) = 1: the game is over).")
    elif x == nodes:
        rep.bad(f"You wrote {nodes}, the number of all nodes of the tree, positions in the middle of a game "
                f"included; count only the finished games (the leaves).")
    elif x == 3 ** coins:
        rep.bad(f"You wrote {fmt(x)} = 3^{coins}: that counts 3 moves at every ply for {coins} plies, but a game "
                f"ends as soon as the coins run out, and with 1 or 2 coins left there are fewer than 3 moves.")
    elif x == 2 ** (coins - 1):
        rep.bad(f"You wrote {fmt(x)} = 2^{coins - 1}, the ways to take {coins} coins in pieces of any size; here "
                f"a move takes at most 3.")
    else:
        rep.bad(f"You wrote {fmt(x)}. Count by the first move: after taking 1, 2 or 3 coins the rest is a "
                f"smaller game, so L(n) = L(n - 1) + L(n - 2) + L(n - 3), with L(0) = 1 and L(n) = 0 for n < 0. "
                f"Start from L(1) = 1 and L(2) = 2.")
    return rep.feedback(f"Complete games of Nim with {coins} coins")


def check_effective_branching(coins, answer):
    """Check the effective branching factor b* of Nim with ``coins`` coins: b*^d = leaves, d = ``coins`` (lesson 01).

    Examples
    --------
    >>> check_effective_branching(7, 44 ** (1 / 7)).ok
    True
    >>> print(check_effective_branching(7, 95 / 52).lines[0])   # doctest: +ELLIPSIS
    ✗ You wrote 1.827, the average number of moves of an inner node, (N - 1) / (N - L) ...
    """
    x, fb = _number(answer, f"Effective branching factor of Nim with {coins} coins")
    if fb is not None:
        return fb
    leaves, nodes = _nim_counts(coins)
    d = coins
    right = leaves ** (1 / d)
    average = (nodes - 1) / (nodes - leaves)
    rep = Report()

    def near(y):
        return abs(x - y) < 5e-3

    check = f"{fmt(round(right, 3))}^{d} = {fmt(round(right ** d, 2))}"
    if near(right):
        rep.good(f"b* = {leaves}^(1/{d}) = {right:.3f}: a uniform tree of depth {d} with {right:.3f} moves per "
                 f"node has {check} leaves, as many as the game.")
    elif near(average):
        rep.bad(f"You wrote {x:.3f}, the average number of moves of an inner node, (N - 1) / (N - L) = "
                f"{nodes - 1} / {nodes - leaves}. A uniform tree of depth {d} with that branching has "
                f"{x:.3f}^{d} ≈ {x ** d:.0f} leaves, not {leaves}: b* is the branching that gives the real count, "
                f"b*^d = {leaves}.")
    elif near(nodes ** (1 / d)):
        rep.bad(f"You wrote {x:.3f} = {nodes}^(1/{d}), from the number of nodes; the question uses the leaves: "
                f"b*^{d} = {leaves}.")
    elif near(3):
        rep.bad(f"3 is the most moves a state has; 3^{d} = {3 ** d} leaves, far more than the game's {leaves}, "
                f"because with 1 or 2 coins left there are fewer moves and games end at different depths.")
    elif near(leaves / d):
        rep.bad(f"You wrote {x:.3f} = {leaves} / {d}: b* is the d-th root of the leaves, not a quotient: "
                f"b*^{d} = {leaves}.")
    elif x <= 0:
        rep.bad(f"You wrote {fmt(round(x, 4))}, but a branching factor counts moves: it is positive. "
                f"Solve b*^{d} = {leaves}: b* = {leaves} ** (1 / {d}).")
    else:
        power = math.inf if math.log10(x) * d > 300 else x ** d
        shown = ("more than 10^300" if power == math.inf else f"{power:.3g}" if power >= 1e15
                 else f"{power:,.0f}" if power >= 100 else f"{power:.1f}")
        wrote = (fmt(round(x, 4)), fmt(round(x, 3))) if x < 1e6 else (f"{x:.3g}",) * 2
        rep.bad(f"You wrote {wrote[0]}; then {wrote[1]}^{d} ≈ {shown} leaves, but the game "
                f"has {leaves}. Solve b*^{d} = {leaves}: b* = {leaves} ** (1 / {d}).")
    return rep.feedback(f"Effective branching factor of Nim with {coins} coins")


# ----------------------------------------------------------------------------
# Lesson 06: which child does expectimax prefer after a rescaling?
# ----------------------------------------------------------------------------


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
    if answer is None or (isinstance(answer, Mapping) and all(_is_blank(v) for v in answer.values())):
        return _unanswered("Expectimax after rescaling",
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
        if _is_blank(got):
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


# ----------------------------------------------------------------------------
# Lesson 07: one MCTS iteration by hand
# ----------------------------------------------------------------------------


def _ucb(w, n, N, c):
    return math.inf if n == 0 else w / n + c * math.sqrt(math.log(N) / n)


def check_ucb_choice(children, parent_visits, answer, c=math.sqrt(2)):
    """Check which child MCTS's selection step takes by UCB1 (lesson 07).

    Parameters
    ----------
    children : dict
        ``{name: (wins, visits)}``, wins from the point of view of the player
        choosing at the parent.
    parent_visits : int
        The parent's visits N.
    answer : str
        The child the learner says selection takes.
    c : float, default sqrt(2)

    Examples
    --------
    >>> kids = {"a": (7, 10), "b": (1, 2), "c": (20, 38)}
    >>> check_ucb_choice(kids, 50, "b").ok
    True
    >>> check_ucb_choice(kids, 50, "c").lines[0]   # doctest: +ELLIPSIS
    '✗ You chose c, the most visited child: ...'
    """
    if not isinstance(children, Mapping) or not children:
        raise TypeError("children must be a non-empty dict {name: (wins, visits)}")
    if _is_blank(answer):
        return _unanswered("UCB1 selection", f"Write the name of the child selection takes, one of "
                                             f"{', '.join(map(repr, children))}.")
    scores = {m: _ucb(w, n, parent_visits, c) for m, (w, n) in children.items()}
    best = max(scores.values())
    right = [m for m in children if scores[m] == best or math.isclose(scores[m], best, rel_tol=1e-12)]
    listing = "; ".join(
        f"{m}: {fmt(w)}/{n} + {fmt(round(c, 3))}·√(ln {parent_visits}/{n}) = {fmt(round(scores[m], 3))}"
        if n else f"{m}: never visited, +∞" for m, (w, n) in children.items())
    key = answer.strip() if isinstance(answer, str) else answer
    rep = Report()
    if key not in children:
        rep.bad(f"{answer!r} is not one of the children {', '.join(map(repr, children))}.")
        return rep.feedback("UCB1 selection")
    if key in right:
        rep.good(f"{key}: it has the highest UCB1 score ({listing}).")
        return rep.feedback("UCB1 selection")
    w, n = children[key]
    most_visited = max(children.values(), key=lambda wn: wn[1])[1]
    best_mean = max(w2 / n2 for w2, n2 in children.values() if n2)
    if n == most_visited:
        rep.bad(f"You chose {key}, the most visited child: that is how the move to *play* is chosen after the "
                f"search, not how selection chooses. Selection takes the highest UCB1 score: {listing}.")
    elif n and w / n == best_mean:
        rep.bad(f"You chose {key}, the best mean ({fmt(w)}/{n}), which is exploitation only. UCB1 adds the "
                f"exploration term, which is larger for rarely tried children: {listing}.")
    else:
        rep.bad(f"You chose {key}, but {' or '.join(right)} scores higher: {listing}.")
    return rep.feedback("UCB1 selection")


def check_backup(path, max_won, answer):
    """Check the (wins, visits) of each node on an MCTS path after one back-up (lesson 07).

    Parameters
    ----------
    path : list of (name, mover, wins, visits)
        From the root down to the new node; ``mover`` is ``"max"``, ``"min"``
        or ``None`` (the root: nobody moved into it), ``wins`` from the mover's
        point of view (1 a win, 0.5 a draw).
    max_won : float
        The playout's result for MAX: 1 (MAX won), 0.5 (a draw) or 0 (MAX lost).
    answer : dict
        ``{name: (wins, visits)}`` after the back-up.

    Examples
    --------
    >>> path = [("root", None, 0, 10), ("B", "max", 6, 7), ("E", "min", 1, 3)]
    >>> check_backup(path, 1, {"root": (0, 11), "B": (7, 8), "E": (1, 4)}).ok
    True
    >>> print(check_backup(path, 1, {"root": (0, 11), "B": (7, 8), "E": (2, 4)}).lines[-1])
    ✗ E: you wrote (2, 4), but MIN moved into E and MIN lost this playout: you credited the result from MAX's point of view; its wins become 1 + 0 = 1.
    """
    if _is_blank(answer) or (isinstance(answer, Mapping) and all(_is_blank(v) for v in answer.values())):
        return _unanswered("MCTS back-up", "Write the new (wins, visits) of every node on the path, e.g. "
                                           f"{{{path[0][0]!r}: (wins, visits), ...}}.")
    if not isinstance(answer, Mapping):
        return Feedback("MCTS back-up: the answer could not be read.",
                        [("bad", f"Expected a dict name -> (wins, visits), got {type(answer).__name__}.", None)])
    rep = Report()
    for name, mover, wins, visits in path:
        got = answer.get(name)
        reward = max_won if mover == "max" else 1 - max_won if mover == "min" else 0
        right = (wins + reward, visits + 1)
        if _is_blank(got):
            rep.bad(f"{name}: not answered yet.")
            continue
        try:
            gw, gn = got
            gw, gn = float(gw), float(gn)
        except (TypeError, ValueError):
            rep.bad(f"{name}: expected a pair (wins, visits), got {got!r}.")
            continue
        if math.isclose(gw, right[0]) and gn == right[1]:
            who = {"max": "MAX", "min": "MIN"}.get(mover)
            why = (f"the root counts visits only" if who is None else
                   f"{who} moved into {name} and scores {fmt(reward)} for this playout")
            rep.good(f"{name}: ({fmt(right[0])}, {right[1]}): {why}.")
            continue
        problems = []
        if gn != right[1]:
            problems.append(f"every node on the path gets one more visit: {visits} + 1 = {right[1]}"
                            if gn == visits else f"the visits become {visits} + 1 = {right[1]}")
        if not math.isclose(gw, right[0]):
            if mover is None:
                problems.append(f"nobody moved into the root, so its wins are not used and stay {fmt(wins)}")
            else:
                who, other = ("MAX", "MIN") if mover == "max" else ("MIN", "MAX")
                outcome = {1: f"{who} won", 0: f"{who} lost", 0.5: "it was a draw"}.get(
                    max_won if mover == "max" else 1 - max_won, "")
                wrong_view = wins + (1 - reward)
                if math.isclose(gw, wrong_view) and not math.isclose(reward, 0.5):
                    problems.append(f"{who} moved into {name} and {outcome} this playout: you credited the "
                                    f"result from {other}'s point of view; its wins become "
                                    f"{fmt(wins)} + {fmt(reward)} = {fmt(right[0])}")
                else:
                    problems.append(f"{who} moved into {name} and {outcome} this playout, so its wins become "
                                    f"{fmt(wins)} + {fmt(reward)} = {fmt(right[0])}")
        rep.bad(f"{name}: you wrote ({fmt(gw)}, {fmt(gn)}), but " + "; ".join(problems) + ".")
    extra = [k for k in answer if k not in {p[0] for p in path}]
    if extra:
        rep.note(f"Not on the path (ignored): {', '.join(map(str, extra))}; nodes off the path do not change.")
    return rep.feedback("MCTS back-up")
