"""Pruning below chance nodes when the leaf values are bounded: Ballard's Star1 (``expectimax(bounds=...)``).

Ballard (1983, "The *-minimax search procedure for trees containing chance nodes"; rediscovered by
Hauk, Buro and Schaeffer, 2004) extends alpha-beta to chance nodes. When every leaf lies in
[low, high], a chance node with window (α, β) knows after each outcome that it is worth at most the
outcomes seen plus every unseen one at ``high`` (:func:`gametrees.rules.chance_upper_bound`) and at
least the same with ``low`` (:func:`gametrees.rules.chance_lower_bound`). At or below α (the cutoff
test :func:`gametrees.rules.fails_low`, textbook tie rule) the node cannot matter to a MAX above:
its remaining outcomes are skipped; at or above β (:func:`~gametrees.rules.fails_high`) the same for
MIN. Each outcome of probability p is searched with the window where its value still matters,
``((α - most without it) / p, (β - least without it) / p)``, as in Star1; the literature clamps the
ends to [low, high], here an end outside [low, high] is open (±inf) instead, which cuts the same
nodes on exact numbers and never trusts an average of values >= low that rounds below low. MAX and
MIN nodes are alpha-beta's (fail-soft), so chance nodes at any depth prune.

Every decision is taken on the sums the search computes (the bounds add ``p * high`` outcome by
outcome, monotone under rounding), so the value is expectimax's to the bit. An outcome whose value
came back as a bound when its chance node does not stop (possible only through rounding) is searched
again with an open window.

Imports: :mod:`gametrees.games`, :mod:`gametrees.rules`, :mod:`gametrees.trees` (:data:`MAX_PLIES`),
:mod:`gametrees.search.engine` (which gives a search its recorder,
:meth:`~gametrees.search.engine.SearchSetup.recorder`).
"""

from __future__ import annotations

import numbers
from time import perf_counter

from ..games import CHANCE, MAX, MIN
from ..games.protocol import check_chances
from ..rules import EXACT, LOWER, UPPER, chance_lower_bound, chance_upper_bound, cutoff_tests, window_bound
from ..trees import MAX_PLIES
from .engine import (
    FLOAT_MAX,
    INF,
    NO_LIMIT,
    SearchTimeout,
    bad_value,
    chance_nan,
    children_in_order,
    no_moves,
    too_deep,
)

__all__ = ["check_bounds", "make_star1"]

#: The cutoff test, under the textbook tie rule (expectimax has no ``strict``).
_FAILS_HIGH, _FAILS_LOW = cutoff_tests(False)


def check_bounds(bounds):
    """``bounds`` as ``(low, high)``, two numbers (not NaN) with low <= high, else a ValueError.

    Examples
    --------
    >>> check_bounds((0, 10.5))
    (0, 10.5)
    >>> check_bounds((5, 1))
    Traceback (most recent call last):
    ...
    ValueError: bounds must be two numbers (low, high) with low <= high, got (5, 1)
    """
    try:
        low, high = bounds
        ok = all(isinstance(x, numbers.Real) and not isinstance(x, bool) and x == x for x in (low, high))
    except (TypeError, ValueError):
        ok = False
    if not ok or not low <= high:
        raise ValueError(f"bounds must be two numbers (low, high) with low <= high, got {bounds!r}")
    return low, high


def _outside(setup, state, v, low, high, source):
    raise ValueError(f"expectimax: {source} {v!r} at {setup.where(state)} is outside the bounds "
                     f"[{low}, {high}] given with bounds=({low}, {high}): every leaf must lie in them")


def make_star1(low, high):
    """The search (for :func:`gametrees.search.engine.run_search`) of expectimax pruning below chance
    nodes, every leaf in [low, high] (Star1; the textbook tie rule).

    Examples
    --------
    >>> import gametrees as gt
    >>> T = gt.tree_from_nested([{"chance": [6, 8]}, {"chance": [2, 9], "p": [0.5, 0.5]}])
    >>> r = gt.expectimax(T, bounds=(0, 10))
    >>> r.value, r.stats["cutoffs"]
    (7.0, 1)
    >>> [T.nodes[n]["label"] for n, status in r.graph.nodes(data="status") if status == "pruned"]
    ['G']
    """
    fails_high, fails_low = _FAILS_HIGH, _FAILS_LOW

    def search(setup, depth, deadline, first_move):
        game = setup.game
        is_terminal, utility, to_move, succ = game.is_terminal, setup.utility, game.to_move, game.successors
        chances, check = game.chances, setup.check_chances
        evaluate = setup.evaluate
        max_depth = NO_LIMIT if depth is None else depth
        is_tree = setup.is_tree
        rec = setup.recorder() if setup.tracing else None
        trace_on, tdepth = rec is not None, setup.trace_depth
        plain = setup.order is None and first_move is None
        nodes = leaves = cutoffs = deepest = estimates = 0
        root_move = None
        kind = EXACT  # what the value just returned is: exact, or a bound (an upper bound: failed low)

        def star(state, ply, alpha, beta, node, parent):
            nonlocal nodes, leaves, cutoffs, deepest, root_move, kind, estimates
            nodes += 1
            tracing = trace_on and ply <= tdepth
            if ply > deepest:
                deepest = ply
                if ply > MAX_PLIES:
                    too_deep(setup)
            if deadline is not None and not nodes & 1023 and perf_counter() > deadline:
                raise SearchTimeout(nodes)
            terminal = is_terminal(state)
            if terminal or ply >= max_depth:
                leaves += 1
                kind = EXACT
                if terminal:
                    v = utility(state)
                    if not low <= v <= high:
                        _outside(setup, state, v, low, high, "the leaf's utility")
                    if tracing:
                        rec.leaf(node, parent, ply, v, state)
                    return v
                estimates += 1
                v = evaluate(state)
                if v.__class__ is not float or v != v:
                    if v.__class__ is not int or not -FLOAT_MAX <= v <= FLOAT_MAX:
                        v = bad_value(setup, v, state)
                if not low <= v <= high:
                    _outside(setup, state, v, low, high, "the estimate")
                if tracing:
                    rec.estimate(node, parent, ply, to_move(state), v, state)
                return v
            player = to_move(state)
            kids = succ(state) if plain else children_in_order(setup, state, succ,
                                                               first_move if ply == 0 else None)
            if not kids:
                no_moves(setup, state)
            if player == CHANCE:
                v, kind = chance(state, ply, alpha, beta, node, parent, kids, tracing)
                return v
            if player != MAX and player != MIN:
                raise ValueError(f"to_move({state!r}) returned {player!r}: expected 'max', 'min' or 'chance'")
            a0, b0 = alpha, beta
            if tracing:
                rec.enter(node, parent, ply, player, alpha, beta, state)
            is_max = player == MAX
            v = -INF if is_max else INF
            bm = None
            for i, (m, c) in enumerate(kids):
                cid = (c if is_tree else node + (m,)) if tracing else None
                cv = star(c, ply + 1, alpha, beta, cid, node)
                improved = cv > v if is_max else cv < v
                if improved:
                    v, bm = cv, m
                if is_max:
                    cut = fails_high(v, beta)
                    if not cut and v > alpha:
                        alpha = v
                else:
                    cut = fails_low(v, alpha)
                    if not cut and v < beta:
                        beta = v
                if tracing:
                    if bm is None:  # a first child at -inf (MAX) or +inf (MIN) is the best so far
                        bm, improved = m, True
                    rec.update(node, parent, ply, player, v, alpha, beta, state, cid, cv, improved, cut)
                if cut:
                    rest = kids[i + 1:]
                    if rest:
                        cutoffs += 1
                        if tracing:
                            rec.prune(node, parent, ply, player, v, alpha, beta, state,
                                      *_skipped(node, rest, is_tree), False)
                    break
            kind = window_bound(v, a0, b0)
            if tracing:
                rec.exit(node, parent, ply, player, v, alpha, beta, state, kind,
                         bm if is_tree or bm is None else node + (bm,))
            if ply == 0:
                root_move = bm if bm is not None else kids[0][0]
            return v

        def chance(state, ply, alpha, beta, node, parent, kids, tracing):
            """A chance node's value (or its bound) and what it is (exact, upper or lower)."""
            nonlocal cutoffs
            moves = [m for m, _ in kids]
            if check:
                probs = check_chances(chances(state), moves, f"{setup.name}: chance {setup.where(state)}")
            else:
                probs = dict(chances(state))
            ps = [probs[m] for m in moves]
            if tracing:
                rec.enter(node, parent, ply, CHANCE, alpha, beta, state)
            seen = 0.0
            exact = True  # every outcome's value is exact (a bound is kept only where the node fails)
            for i, (m, c) in enumerate(kids):
                p, rest = ps[i], ps[i + 1:]
                cid = (c if is_tree else node + (m,)) if tracing else None
                v = star(c, ply + 1, *_outcome_window(seen, p, rest, alpha, beta, low, high), cid, node)
                total = seen + p * v if p else seen
                most, least, cut_low, cut_high = _crossed(total, rest, alpha, beta, low, high)
                if (kind == UPPER and not cut_low) or (kind == LOWER and not cut_high):
                    v = star(c, ply + 1, -INF, INF, cid, node)  # only a bound, and it is needed: exactly
                    total = seen + p * v if p else seen
                    most, least, cut_low, cut_high = _crossed(total, rest, alpha, beta, low, high)
                seen = total
                exact = exact and kind == EXACT
                if tracing:
                    rec.update(node, parent, ply, CHANCE, seen, alpha, beta, state, cid, v, False,
                               bool(rest) and (cut_low or cut_high))
                if rest and (cut_low or cut_high):
                    cutoffs += 1
                    bound = most if cut_low else least
                    if tracing:
                        rec.prune(node, parent, ply, CHANCE, bound, alpha, beta, state,
                                  *_skipped(node, kids[i + 1:], is_tree), False)
                        rec.exit(node, parent, ply, CHANCE, bound, alpha, beta, state,
                                 UPPER if cut_low else LOWER, None)
                    return bound, UPPER if cut_low else LOWER
            if seen != seen:
                chance_nan(setup, state, probs)
            # an outcome known only as a bound where the node fails all the same (at most α, the last
            # outcome): the sum is that bound too
            bound = EXACT if exact else window_bound(seen, alpha, beta)
            if tracing:
                rec.exit(node, parent, ply, CHANCE, seen, alpha, beta, state, bound, None)
            return seen, bound

        root = setup.state
        v = star(root, 0, -INF, INF, root if is_tree else (), None)
        stats = {"nodes_visited": nodes, "leaves_evaluated": leaves, "cutoffs": cutoffs, "tt_hits": 0,
                 "depth_reached": deepest, "estimates": estimates}
        return v, root_move, stats, rec

    return search


def _outcome_window(seen, p, rest, alpha, beta, low, high):
    """The window an outcome of probability ``p`` is searched with (Star1): below its low end the
    chance node fails low (at most α), above its high end it fails high; an end beyond [low, high]
    is open, and an outcome of probability 0 gets the open window (its value changes nothing).
    An open end of the node's window stays open (without the sums: they could only give it)."""
    if not p:
        return -INF, INF
    lo = -INF if alpha == -INF else (alpha - chance_upper_bound(seen, rest, high)) / p
    hi = INF if beta == INF else (beta - chance_lower_bound(seen, rest, low)) / p
    return (lo if lo > low else -INF), (hi if hi < high else INF)


def _crossed(total, rest, alpha, beta, low, high):
    """``(most, least, at most α, at least β)`` of a chance node whose outcomes so far add up to
    ``total``, ``rest`` the probabilities of those not yet seen (a bound against an open end of the
    window is not summed: it never crosses it)."""
    most = chance_upper_bound(total, rest, high) if alpha != -INF else INF
    least = chance_lower_bound(total, rest, low) if beta != INF else -INF
    return most, least, _FAILS_LOW(most, alpha), _FAILS_HIGH(least, beta)


def _skipped(node, rest, is_tree):
    """The outcomes (or children) a cutoff skips, as ``(ids, moves, states)`` (a game's ids are paths)."""
    moves, states = zip(*rest)
    return (states if is_tree else tuple([node + (m,) for m in moves])), moves, states
