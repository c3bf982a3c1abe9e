"""Alpha-beta and negamax: the searches with a window, where every cutoff is decided.

:func:`alphabeta` (MAX and MIN nodes, the AIMA fail-soft algorithm, ``strict``
or textbook tie rule) and :func:`negamax` (the same in negamax form, or plain
negamax with ``prune=False``).  A cutoff is decided in the loops of
``_make_alphabeta`` and ``_make_negamax`` (``cut = ...``) by the rules'
cutoff test (:func:`gametrees.rules.cutoff_tests`, the comparison chosen once
per search); a table entry answers or narrows the window by
:func:`gametrees.rules.table_probe` (``_probe``); :func:`gametrees.rules.window_bound`
and ``_node_bound`` say whether a returned value is exact or only a bound.

Imports: :mod:`gametrees.games`, :mod:`gametrees.rules`, :mod:`gametrees.trees` (:data:`MAX_PLIES`),
:mod:`gametrees.search.engine` (which gives a search its recorder,
:meth:`~gametrees.search.engine.SearchSetup.recorder`).
"""

from __future__ import annotations

from time import perf_counter

from ..games import CHANCE, MAX, MIN
from ..rules import EXACT, LOWER, UPPER, cutoff_tests, deep_enough, table_probe, window_bound
from ..trees import MAX_PLIES
from .engine import (
    DEPTH,
    FLAG,
    FLOAT_MAX,
    INF,
    MOVE,
    NO_LIMIT,
    VALUE,
    SearchResult,
    SearchSetup,
    SearchTimeout,
    bad_value,
    chance_error,
    children_in_order,
    no_moves,
    run_search,
    too_deep,
)

__all__ = ["alphabeta", "negamax"]

def _node_bound(player, up_ok, low_ok, best_kind, v, a0, b0, strict):
    """Is a node's value exact, or only an upper or lower bound?

    ``up_ok``: every child's true value is known to be <= its returned value
    (MAX) or ``low_ok`` >= (MIN), and nothing was pruned here; ``best_kind``:
    the bound kind of the child that gave the value.
    """
    if player == MAX:
        upper, lower = up_ok, best_kind in (EXACT, LOWER)
    else:
        upper, lower = best_kind in (EXACT, UPPER), low_ok
    if upper and lower:
        return EXACT
    if upper:
        return UPPER
    if lower:
        return LOWER
    return window_bound(v, a0, b0, strict)


# ----------------------------------------------------------------------------
# Alpha-beta
# ----------------------------------------------------------------------------


def _probe(entry, ply, max_depth, alpha, beta, strict, flip=False):
    """A table entry's answer for a node, or the window it leaves (:func:`~gametrees.rules.table_probe`).

    ``entry`` is a table entry (:data:`~gametrees.search.engine.FLAG`) or None; it is read only below the
    start and when it was searched at least as deep as the search wants (``max_depth - ply``).
    ``flip``: the window is MIN's (negamax), so the value and the flag are seen from MIN's side.
    Returns ``(answer, alpha, beta)``, ``answer`` None when the entry does not settle the node.
    """
    if entry is None or not ply or not deep_enough(entry[DEPTH], max_depth - ply):
        return None, alpha, beta
    flag, value = entry[FLAG], entry[VALUE]
    if flip:
        flag, value = _FLIPPED.get(flag, flag), -value
    return table_probe(flag, value, alpha, beta, strict)


#: A bound seen from the other side: "at least" for one player is "at most" for the other.
_FLIPPED = {LOWER: UPPER, UPPER: LOWER}


def _pruned(node, rest, is_tree):
    """The children a cutoff skips, as ``(ids, moves, states)`` (a game's ids are move paths)."""
    moves, states = zip(*rest)
    return (states if is_tree else tuple([node + (m,) for m in moves])), moves, states


def _make_alphabeta(strict):
    fails_high, fails_low = cutoff_tests(strict)

    def search(setup, depth, deadline, first_move):
        game = setup.game
        is_terminal, utility, to_move, succ = game.is_terminal, setup.utility, game.to_move, game.successors
        evaluate = setup.evaluate
        max_depth = NO_LIMIT if depth is None else depth
        # A search without a depth limit stores values that hold at any depth:
        # a position met again nearer the start (Nim) is answered, not searched again.
        to_the_end = NO_LIMIT if depth is None else None
        table, keyf = setup.table, setup.key
        is_tree = setup.is_tree
        rec = setup.recorder() if setup.tracing else None
        trace_on, tdepth = rec is not None, setup.trace_depth
        plain = setup.order is None and table is None and first_move is None
        nodes = leaves = hits = cutoffs = deepest = estimates = 0
        root_move = None
        kind = EXACT  # bound kind of the value just returned (tracing only)

        def ab(state, ply, alpha, beta, node, parent):
            nonlocal nodes, leaves, hits, cutoffs, deepest, root_move, kind, estimates
            nodes += 1
            tracing = trace_on and ply <= tdepth
            if ply > deepest:
                deepest = ply
                if ply > MAX_PLIES:
                    too_deep(setup)
            if deadline is not None and not nodes & 1023 and perf_counter() > deadline:
                raise SearchTimeout(nodes)
            if is_terminal(state):
                leaves += 1
                v = utility(state)
                if tracing:
                    kind = EXACT
                    rec.leaf(node, parent, ply, v, state)
                return v
            if ply >= max_depth:
                leaves += 1
                estimates += 1
                v = _estimate(setup, evaluate, state)
                if tracing:
                    kind = EXACT
                    rec.estimate(node, parent, ply, to_move(state), v, state)
                return v
            player = to_move(state)
            if player != MAX and player != MIN:
                _not_max_or_min(setup, state, player)
            key = entry = None
            if table is not None:
                key = keyf(state) if keyf else state
                entry = table.get(key)
                tv, alpha, beta = _probe(entry, ply, max_depth, alpha, beta, strict)
                if tv is not None:
                    hits += 1
                    if tracing:
                        kind = entry[FLAG]
                        rec.hit(node, parent, ply, player, tv, alpha, beta, state, kind)
                    return tv
            if plain:
                kids = succ(state)
            else:
                ttmove = first_move if ply == 0 else (entry[MOVE] if entry and not keyf else None)
                kids = children_in_order(setup, state, succ, ttmove)
            if not kids:
                no_moves(setup, state)
            a0, b0 = alpha, beta
            if tracing:
                rec.enter(node, parent, ply, player, alpha, beta, state)
                up_ok = low_ok = True
                best_kind = EXACT
            bm = None
            # MAX's and MIN's loops mirror each other: one signed loop, as in negamax, is slower
            # (benchmarks/signed_loop.py: 10-30% on the untraced search).
            if player == MAX:
                v = -INF
                for i, (m, c) in enumerate(kids):
                    cid = (c if is_tree else node + (m,)) if tracing else None
                    cv = ab(c, ply + 1, alpha, beta, cid, node)
                    improved = cv > v
                    if improved:
                        v = cv
                        bm = m
                    cut = fails_high(v, beta)
                    if not cut and v > alpha:
                        alpha = v
                    if tracing:
                        if bm is None:  # a first child at -inf is MAX's best so far
                            bm = m
                            improved = True
                        if improved:
                            best_kind = kind
                        up_ok = up_ok and kind != LOWER
                        rec.update(node, parent, ply, player, v, alpha, beta, state, cid, cv, improved, cut)
                    if cut:
                        rest = kids[i + 1:]
                        if rest:
                            cutoffs += 1
                            if tracing:
                                up_ok = False
                                rec.prune(node, parent, ply, player, v, alpha, beta, state,
                                          *_pruned(node, rest, is_tree), strict)
                        break
            else:
                v = INF
                for i, (m, c) in enumerate(kids):
                    cid = (c if is_tree else node + (m,)) if tracing else None
                    cv = ab(c, ply + 1, alpha, beta, cid, node)
                    improved = cv < v
                    if improved:
                        v = cv
                        bm = m
                    cut = fails_low(v, alpha)
                    if not cut and v < beta:
                        beta = v
                    if tracing:
                        if bm is None:  # a first child at +inf is MIN's best so far
                            bm = m
                            improved = True
                        if improved:
                            best_kind = kind
                        low_ok = low_ok and kind != UPPER
                        rec.update(node, parent, ply, player, v, alpha, beta, state, cid, cv, improved, cut)
                    if cut:
                        rest = kids[i + 1:]
                        if rest:
                            cutoffs += 1
                            if tracing:
                                low_ok = False
                                rec.prune(node, parent, ply, player, v, alpha, beta, state,
                                          *_pruned(node, rest, is_tree), strict)
                        break
            if table is not None:
                table[key] = (to_the_end or max_depth - ply, window_bound(v, a0, b0, strict), v, bm)
            if tracing:
                kind = (_node_bound(player, up_ok, low_ok, best_kind, v, a0, b0, strict)
                        if ply < tdepth else window_bound(v, a0, b0, strict))
                rec.exit(node, parent, ply, player, v, alpha, beta, state, kind,
                         bm if is_tree else node + (bm,))
            if ply == 0:
                root_move = _first_best(bm, kids)
            return v

        root = setup.state
        v = ab(root, 0, *setup.window, root if is_tree else (), None)
        return v, root_move, _stats(nodes, leaves, cutoffs, hits, deepest, estimates), rec

    return search


def _estimate(setup, evaluate, state):
    """The evaluation of ``state`` at the depth limit, refused unless it is a usable number."""
    v = evaluate(state)
    if v.__class__ is not float or v != v:  # NaN, None, 10**400 ... are refused
        if v.__class__ is not int or not -FLOAT_MAX <= v <= FLOAT_MAX:
            v = bad_value(setup, v, state)
    return v


def _not_max_or_min(setup, state, player):
    """Raise the error of a node whose player is not MAX or MIN (a chance node, or a wrong answer)."""
    if player == CHANCE:
        chance_error(setup, state)
    raise ValueError(f"to_move({state!r}) returned {player!r}: expected 'max' or 'min'")


def _first_best(bm, kids):
    """The root's move: the first child with the best value, even when that value is -inf for MAX
    (+inf for MIN) and no child was strictly better."""
    return bm if bm is not None or not kids else kids[0][0]


def _stats(nodes, leaves, cutoffs, hits, deepest, estimates):
    return {"nodes_visited": nodes, "leaves_evaluated": leaves, "cutoffs": cutoffs, "tt_hits": hits,
            "depth_reached": deepest, "estimates": estimates}


_alphabeta_search = {False: _make_alphabeta(False), True: _make_alphabeta(True)}


def alphabeta(tree_or_game, state=None, *, strict=False, depth=None, evaluate=None, order=None,
              table=False, symmetry=False, time_limit=None, trace=None, graph=None, trace_depth=None,
              window=(-INF, INF)) -> SearchResult:
    """Alpha-beta: minimax's value, skipping branches that cannot matter.

    alpha is the best value MAX can already guarantee on the path to a node,
    beta the best (lowest) MIN can. A MIN node whose value falls to alpha or
    below, or a MAX node whose value reaches beta or above, will never be
    reached in play: its remaining children are pruned.

    Parameters
    ----------
    strict : bool
        ``False`` (the textbook rule, AIMA): prune when ``v >= beta`` /
        ``v <= alpha``. ``True``: prune only on strict inequality (as some
        course autograders, e.g. CS188, require). Both give minimax's value at
        the root; they prune different nodes when values tie.
    depth, evaluate, order, table, symmetry, time_limit, trace, graph
        See :mod:`gametrees.search`.
    window : (alpha, beta)
        The window at the root, ``(-inf, inf)`` by default: the search then
        behaves as a call ``alphabeta(state, alpha, beta)`` inside a larger
        search (a value outside the window is only a bound, fail-soft), and
        evaluates the same leaves.

    Notes
    -----
    Values are fail-soft, as in AIMA: a node whose children were pruned
    returns the value it had reached, which is only a bound on its true
    value (``graph.nodes[n]["bound"]`` says which).

    Examples
    --------
    >>> import gametrees as gt
    >>> r = gt.alphabeta(gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    >>> r.value, r.move, r.stats["leaves_evaluated"]
    (3, (0,), 7)
    >>> sorted(n for n, s in r.graph.nodes(data="status") if s == "pruned")
    [(1, 1), (1, 2)]
    """
    if not isinstance(strict, bool):
        raise TypeError(f"strict must be True or False, got {strict!r}")
    try:
        alpha, beta = window
        ok = all(isinstance(x, (int, float)) and not isinstance(x, bool) and x == x for x in window)
    except (TypeError, ValueError):
        ok = False
    if not ok or not alpha < beta:
        raise ValueError(f"window must be a pair of numbers (alpha, beta) with alpha < beta, got {window!r}")
    setup = SearchSetup(name="alphabeta-strict" if strict else "alphabeta", tree_or_game=tree_or_game,
                        state=state, depth=depth, evaluate=evaluate, order=order, table=table,
                        symmetry=symmetry, time_limit=time_limit, trace=trace, graph=graph,
                        trace_depth=trace_depth, window=(alpha, beta))
    return run_search(setup, _alphabeta_search[strict])


# ----------------------------------------------------------------------------
# Negamax
# ----------------------------------------------------------------------------


def _make_negamax(prune, strict):
    fails_high = cutoff_tests(strict)[0] if prune else None

    def search(setup, depth, deadline, first_move):
        game = setup.game
        is_terminal, utility, to_move, succ = game.is_terminal, setup.utility, game.to_move, game.successors
        evaluate = setup.evaluate
        max_depth = NO_LIMIT if depth is None else depth
        # A search without a depth limit stores values that hold at any depth:
        # a position met again nearer the start (Nim) is answered, not searched again.
        to_the_end = NO_LIMIT if depth is None else None
        table, keyf = setup.table, setup.key
        is_tree = setup.is_tree
        rec = setup.recorder() if setup.tracing else None
        trace_on, tdepth = rec is not None, setup.trace_depth
        plain = setup.order is None and table is None and first_move is None
        nodes = leaves = hits = cutoffs = deepest = estimates = 0
        root_move = None
        kind = EXACT  # MAX-view bound kind of the value just returned (tracing only)

        def neg(state, ply, alpha, beta, color, node, parent):
            """The value of ``state`` times ``color`` (+1: MAX's view, -1: MIN's)."""
            nonlocal nodes, leaves, hits, cutoffs, deepest, root_move, kind, estimates
            nodes += 1
            tracing = trace_on and ply <= tdepth
            if ply > deepest:
                deepest = ply
                if ply > MAX_PLIES:
                    too_deep(setup)
            if deadline is not None and not nodes & 1023 and perf_counter() > deadline:
                raise SearchTimeout(nodes)
            if is_terminal(state):
                leaves += 1
                v = utility(state)
                if tracing:
                    kind = EXACT
                    rec.leaf(node, parent, ply, v, state)
                return color * v
            if ply >= max_depth:
                leaves += 1
                estimates += 1
                v = _estimate(setup, evaluate, state)
                if tracing:
                    kind = EXACT
                    rec.estimate(node, parent, ply, to_move(state), v, state)
                return color * v
            player = to_move(state)
            if player != MAX and player != MIN:
                _not_max_or_min(setup, state, player)
            mine = 1 if player == MAX else -1
            if mine != color:  # the window, seen from the mover's side
                alpha, beta = -beta, -alpha
            key = entry = None
            if table is not None:
                key = keyf(state) if keyf else state
                entry = table.get(key)
                tv, alpha, beta = _probe(entry, ply, max_depth, alpha, beta, strict, flip=mine < 0)
                if tv is not None:
                    hits += 1
                    if tracing:
                        kind = entry[FLAG]  # stored from MAX's view
                        rec.hit(node, parent, ply, player, mine * tv, None, None, state, kind)
                    return tv if mine == color else -tv
            if plain:
                kids = succ(state)
            else:
                ttmove = first_move if ply == 0 else (entry[MOVE] if entry and not keyf else None)
                kids = children_in_order(setup, state, succ, ttmove)
            if not kids:
                no_moves(setup, state)
            a0, b0 = alpha, beta
            if tracing:
                rec.enter(node, parent, ply, player, *_max_view(mine, alpha, beta), state)
                up_ok = low_ok = True
                best_kind = EXACT
            v = -INF
            bm = None
            for i, (m, c) in enumerate(kids):
                cid = (c if is_tree else node + (m,)) if tracing else None
                cv = neg(c, ply + 1, alpha, beta, mine, cid, node)
                improved = cv > v
                if improved:
                    v = cv
                    bm = m
                cut = prune and fails_high(v, beta)
                if not cut and v > alpha:
                    alpha = v
                if tracing:
                    if bm is None:  # a first child at -inf is the mover's best so far
                        bm = m
                        improved = True
                    if improved:
                        best_kind = kind
                    up_ok = up_ok and kind != LOWER
                    low_ok = low_ok and kind != UPPER
                    if mine > 0:
                        rec.update(node, parent, ply, player, v, alpha, beta, state, cid, cv, improved, cut)
                    else:  # MIN's values and window, as MAX sees them
                        rec.update(node, parent, ply, player, -v, -beta, -alpha, state, cid, -cv, improved,
                                   cut)
                if cut:
                    rest = kids[i + 1:]
                    if rest:
                        cutoffs += 1
                        if tracing:
                            up_ok = low_ok = False
                            rec.prune(node, parent, ply, player, mine * v, *_max_view(mine, alpha, beta),
                                      state, *_pruned(node, rest, is_tree), strict)
                    break
            bound = window_bound(v, a0, b0, strict) if prune else EXACT
            if table is not None:
                max_bound = bound if mine > 0 else _FLIPPED.get(bound, bound)  # stored from MAX's view
                table[key] = (to_the_end or max_depth - ply, max_bound, mine * v, bm)
            if tracing:
                # The value, the window at the start and now, as MAX sees them.
                if mine > 0:
                    mv, ma0, mb0, ma, mb = v, a0, b0, alpha, beta
                else:
                    mv, ma0, mb0, ma, mb = -v, -b0, -a0, -beta, -alpha
                kind = (_node_bound(player, up_ok, low_ok, best_kind, mv, ma0, mb0, strict)
                        if ply < tdepth else window_bound(mv, ma0, mb0, strict))
                rec.exit(node, parent, ply, player, mv, ma, mb, state, kind, bm if is_tree else node + (bm,))
            if ply == 0:
                root_move = _first_best(bm, kids)
            return v if mine == color else -v

        root = setup.state
        v = neg(root, 0, -INF, INF, 1, root if is_tree else (), None)
        return v, root_move, _stats(nodes, leaves, cutoffs, hits, deepest, estimates), rec

    return search


def _max_view(mine, alpha, beta):
    """A mover's window (alpha, beta) as MAX sees it."""
    return (alpha, beta) if mine > 0 else (-beta, -alpha)


_negamax_search = {(p, s): _make_negamax(p, s) for p in (False, True) for s in (False, True)}


def negamax(tree_or_game, state=None, *, prune=True, strict=False, depth=None, evaluate=None,
            order=None, table=False, symmetry=False, time_limit=None, trace=None,
            graph=None, trace_depth=None) -> SearchResult:
    """Negamax: minimax written once for both players.

    Every node maximises its own view of the value: a position worth ``v``
    to one side is worth ``-v`` to the other, so MIN's minimum is the
    negation of a maximum. With ``prune=True`` (default) this is alpha-beta in
    negamax form (``strict`` as in :func:`alphabeta`). Turns need not
    alternate. Values, windows and the trace are converted back to MAX's
    point of view, so results compare directly with :func:`alphabeta`.

    Examples
    --------
    >>> import gametrees as gt
    >>> T = gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    >>> r = gt.negamax(T)
    >>> r.value, r.stats["leaves_evaluated"] == gt.alphabeta(T).stats["leaves_evaluated"]
    (3, True)
    """
    for name, flag in (("prune", prune), ("strict", strict)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be True or False, got {flag!r}")
    variant = "negamax" + ("-strict" if strict else "") + ("" if prune else "-noprune")
    setup = SearchSetup(name="negamax", tree_or_game=tree_or_game, state=state, depth=depth,
                        evaluate=evaluate, order=order, table=table, symmetry=symmetry,
                        time_limit=time_limit, trace=trace, graph=graph, trace_depth=trace_depth,
                        variant=variant)
    return run_search(setup, _negamax_search[prune, strict])
