"""Minimax and expectimax: one backed-up-value recursion, no cutoffs.

:func:`minimax` and :func:`expectimax` share the recursion built by
``_make_backed_up``: MAX takes the largest child value, MIN the smallest, a
chance node (expectimax only) the probability-weighted sum.

Imports: :mod:`gametrees.games`, :mod:`gametrees.trees` (:data:`MAX_PLIES`),
:mod:`gametrees.search.engine` (which gives a search its recorder,
:meth:`~gametrees.search.engine.SearchSetup.recorder`).
"""

from __future__ import annotations

from time import perf_counter

from ..games import CHANCE, MAX, MIN
from ..games.protocol import check_chances
from ..rules import EXACT, deep_enough
from ..trees import MAX_PLIES
from .chance_pruning import check_bounds, make_star1
from .engine import (
    DEPTH,
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
    chance_nan,
    children_in_order,
    no_moves,
    run_search,
    too_deep,
)

__all__ = ["expectimax", "minimax"]

def _make_backed_up(with_chance):
    def search(setup, depth, deadline, first_move):
        game = setup.game
        is_terminal, utility, to_move = game.is_terminal, setup.utility, game.to_move
        succ = game.successors
        chances = game.chances
        check = setup.check_chances
        evaluate = setup.evaluate
        max_depth = NO_LIMIT if depth is None else depth
        # A search without a depth limit stores values that hold at any depth:
        # a position met again nearer the start (Nim) is answered, not searched again.
        to_the_end = NO_LIMIT if depth is None else None
        table, keyf = setup.table, setup.key
        tracing, is_tree = setup.tracing, setup.is_tree
        trace_on, tdepth = tracing, setup.trace_depth
        plain = setup.order is None and table is None and first_move is None
        rec = setup.recorder() if tracing else None
        nodes = leaves = hits = deepest = estimates = 0
        root_move = None

        def value(state, ply, node, parent):
            nonlocal nodes, leaves, hits, deepest, root_move, estimates
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
                    rec.leaf(node, parent, ply, v, state)
                return v
            if ply >= max_depth:
                leaves += 1
                estimates += 1
                v = evaluate(state)
                if v.__class__ is not float or v != v:  # NaN, None, 10**400 ... are refused
                    if v.__class__ is not int or not -FLOAT_MAX <= v <= FLOAT_MAX:
                        v = bad_value(setup, v, state)
                if tracing:
                    rec.estimate(node, parent, ply, to_move(state), v, state)
                return v
            player = to_move(state)
            key = entry = None
            if table is not None:
                key = keyf(state) if keyf else state
                entry = table.get(key)
                if entry is not None and ply and deep_enough(entry[DEPTH], max_depth - ply):
                    hits += 1
                    if tracing:
                        rec.hit(node, parent, ply, player, entry[VALUE], None, None, state, EXACT)
                    return entry[VALUE]
            if plain:
                kids = succ(state)
            else:
                ttmove = first_move if ply == 0 else (entry[MOVE] if entry and not keyf else None)
                kids = children_in_order(setup, state, succ, ttmove)
            if not kids:
                no_moves(setup, state)
            if tracing:
                rec.enter(node, parent, ply, player, None, None, state)
            bm = None
            if player == MAX or player == MIN:
                is_max = player == MAX
                best = -INF if is_max else INF
                for m, c in kids:
                    cid = (c if is_tree else node + (m,)) if tracing else None
                    v = value(c, ply + 1, cid, node)
                    if (v > best) if is_max else (v < best):
                        best = v
                        bm = m
                        improved = True
                    else:
                        improved = False
                    if tracing:
                        if bm is None:  # a first child at -inf (MAX) or +inf (MIN) is the best so far
                            bm = m
                            improved = True
                        rec.update(node, parent, ply, player, best, None, None, state, cid, v, improved,
                                   False)
            elif player == CHANCE and with_chance:
                if check:
                    probs = check_chances(chances(state), [m for m, _ in kids],
                                          f"{setup.name}: chance {setup.where(state)}")
                else:
                    probs = dict(chances(state))
                best = 0.0
                for m, c in kids:
                    cid = (c if is_tree else node + (m,)) if tracing else None
                    v = value(c, ply + 1, cid, node)
                    p = probs[m]
                    if p:  # an impossible outcome adds nothing (not 0 * inf = NaN)
                        best += p * v
                    if tracing:
                        rec.update(node, parent, ply, player, best, None, None, state, cid, v, False, False)
                if best != best:
                    chance_nan(setup, state, probs)
            elif player == CHANCE:
                chance_error(setup, state)
            else:
                raise ValueError(f"to_move({state!r}) returned {player!r}: expected 'max', 'min' or 'chance'")
            if table is not None:
                table[key] = (to_the_end or max_depth - ply, EXACT, best, bm)
            if tracing:
                rec.exit(node, parent, ply, player, best, None, None, state, EXACT,
                         bm if is_tree or bm is None else node + (bm,))
            if ply == 0:
                # The first child with the best value, even when that value is
                # -inf for MAX (+inf for MIN) and no child was strictly better.
                root_move = bm if bm is not None or player == CHANCE or not kids else kids[0][0]
            return best

        root = setup.state
        v = value(root, 0, root if is_tree else (), None)
        stats = {"nodes_visited": nodes, "leaves_evaluated": leaves, "cutoffs": 0,
                 "tt_hits": hits, "depth_reached": deepest,
                 "estimates": estimates}
        return v, root_move, stats, rec

    return search




_minimax_search = _make_backed_up(with_chance=False)
_expectimax_search = _make_backed_up(with_chance=True)


def minimax(tree_or_game, state=None, *, depth=None, evaluate=None, order=None, table=False,
            symmetry=False, time_limit=None, trace=None, graph=None, trace_depth=None) -> SearchResult:
    """Minimax: the value of a position when both sides play their best.

    MAX picks the child with the highest value, MIN the lowest; leaves are
    scored by their utility (from MAX's point of view).

    Parameters
    ----------
    tree_or_game : networkx.DiGraph or Game
    state : optional
        Start state (a node id on a tree); default the root / ``game.initial``.
    depth, evaluate, order, table, symmetry, time_limit, trace, graph
        See :mod:`gametrees.search`.

    Returns
    -------
    SearchResult

    Examples
    --------
    >>> import gametrees as gt
    >>> r = gt.minimax(gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    >>> r.value, r.move, r.stats["leaves_evaluated"]
    (3, (0,), 9)
    """
    setup = SearchSetup(name="minimax", tree_or_game=tree_or_game, state=state, depth=depth,
                        evaluate=evaluate, order=order, table=table, symmetry=symmetry,
                        time_limit=time_limit, trace=trace, graph=graph, trace_depth=trace_depth)
    return run_search(setup, _minimax_search)


def expectimax(tree_or_game, state=None, *, depth=None, evaluate=None, order=None, table=False,
               symmetry=False, time_limit=None, trace=None, graph=None, trace_depth=None,
               bounds=None) -> SearchResult:
    """Expectimax: MAX and MIN nodes as in minimax, chance nodes average.

    A chance node's value is the sum over its outcomes of probability times
    value. Without chance nodes it equals :func:`minimax`. At a chance start
    the move is ``None`` (the outcome is drawn, not chosen).

    Parameters
    ----------
    bounds : (low, high), optional
        Every leaf's value (utility or estimate) lies in [low, high]: the search
        then prunes below chance nodes as alpha-beta does above them (Ballard's
        Star1, :mod:`gametrees.search.chance_pruning`), with the same value and
        move; the trace shows windows and cutoffs, ``stats["cutoffs"]`` counts
        them. Not with ``table``.

    Raises
    ------
    ValueError, TypeError
        As :func:`minimax`; and a game's ``chances`` that are not a
        probability distribution over the state's moves (a probability that
        is negative, NaN or not a number, an outcome missing, unknown or
        given twice, a sum other than 1), naming the state and the outcome
        (:func:`gametrees.games.protocol.check_chances`). With ``bounds``:
        bounds that are not two numbers with low <= high, or a leaf met
        outside them (named with the bounds).

    Examples
    --------
    >>> import gametrees as gt
    >>> T = gt.tree_from_nested([{"chance": [3, 12], "p": [0.5, 0.5]}, {"chance": [2, 4]}])
    >>> gt.expectimax(T).value
    7.5
    >>> r = gt.expectimax(T, bounds=(0, 12))    # after 2, D is at most 0.5 * 2 + 0.5 * 12 = 7 <= 7.5
    >>> r.value, r.stats["cutoffs"], r.stats["leaves_evaluated"]
    (7.5, 1, 3)
    """
    setup = SearchSetup(name="expectimax", tree_or_game=tree_or_game, state=state, depth=depth,
                        evaluate=evaluate, order=order, table=table, symmetry=symmetry, time_limit=time_limit,
                        trace=trace, graph=graph, trace_depth=trace_depth)
    if bounds is None:
        return run_search(setup, _expectimax_search)
    low, high = check_bounds(bounds)
    if setup.table is not None:
        raise ValueError("expectimax: bounds=... prunes without a transposition table: pass table=False")
    return run_search(setup, make_star1(low, high))
