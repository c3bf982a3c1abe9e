"""Search algorithms, each written once against the game protocol.

:func:`minimax`, :func:`alphabeta`, :func:`expectimax` and :func:`negamax`
accept a game tree (a networkx graph, see :mod:`gametrees.trees`) or a game
(see :mod:`gametrees.games`) with an optional start state, and return one
:class:`SearchResult`: ``value``, ``move``, ``stats``, ``trace``, ``graph``.

Options shared by all of them:

``depth`` and ``evaluate``
    Stop ``depth`` plies below the start and score the position with
    ``evaluate(state)`` (a number from MAX's point of view). On a tree the
    default estimate is the node's ``utility`` attribute.
``order``
    ``order(state, moves) -> moves``: the order in which to search the moves.
``table``
    A transposition table: ``True`` for a fresh one, or a dict to reuse
    across calls. ``symmetry=True`` stores positions under
    ``game.canonical(state)`` so symmetric positions share an entry.
``time_limit``
    Iterative deepening: search depth 1, 2, 3, ... (up to ``depth``) until
    the time in seconds runs out, trying the best move so far first; the
    result is that of the deepest finished iteration.
``trace`` and ``graph``
    Record the search as events (``result.trace``) and build the annotated
    tree (``result.graph``). Default: on for trees, off for games, so that
    solving a game stays fast.
``trace_depth``
    Record only the nodes at most this many plies below the start (e.g. 2
    to show why an agent chose its move without recording a whole game
    tree).
"""

from __future__ import annotations

import gc
import math
from time import perf_counter

from .games import CHANCE, MAX, MIN
from .trace import Event, annotate
from .trees import TreeGame, as_game

__all__ = ["SearchResult", "alphabeta", "expectimax", "minimax", "negamax"]

INF = math.inf
_NO_LIMIT = 1 << 62
_new = tuple.__new__
EXACT, LOWER, UPPER = "exact", "lower", "upper"


class _Timeout(Exception):
    pass


class SearchResult:
    """What a search returns.

    Attributes
    ----------
    value : number
        The backed-up value of the start position, from MAX's point of view.
    move
        The best first move (the edge's ``move`` attribute on a tree when it
        has one, else the child's node id); the first best in child order on
        ties. ``None`` when the start position is terminal or at depth 0.
    stats : dict
        ``nodes_visited`` (nodes entered, root included), ``leaves_evaluated``
        (terminal utilities and evaluations), ``cutoffs``, ``tt_hits``,
        ``depth_reached`` (deepest ply entered; for iterative deepening, in
        the deepest finished iteration), ``estimates`` (positions scored by
        the evaluation function). Iterative deepening adds up the counts of
        all its iterations.
    trace : list of Event or None
        The search step by step (with ``trace=True``).
    graph : networkx.DiGraph or None
        The annotated searched tree (with ``trace=True`` or ``graph=True``).
    algorithm : str
    seconds : float
        Wall-clock time of the search (varies run to run).
    """

    def __init__(self, algorithm, value, move, stats, trace, seconds, base, keep_graph):
        self.algorithm = algorithm
        self.value = value
        self.move = move
        self.stats = stats
        self.seconds = seconds
        self._events = trace
        self._keep_trace = trace is not None and keep_graph != "graph-only"
        self._base = base
        self._graph = None
        self._want_graph = bool(keep_graph)

    @property
    def trace(self):
        return self._events if self._keep_trace else None

    @property
    def graph(self):
        if self._graph is None and self._want_graph and self._events:
            self._graph = annotate(self._events, self._base, self.algorithm, self.stats)
        return self._graph

    def __repr__(self):
        s = self.stats
        return (
            f"SearchResult(algorithm={self.algorithm!r}, value={self.value!r}, move={self.move!r}, "
            f"nodes_visited={s['nodes_visited']}, leaves_evaluated={s['leaves_evaluated']})"
        )


# ----------------------------------------------------------------------------
# Shared set-up
# ----------------------------------------------------------------------------


class _Setup:
    """Checks the arguments once and holds what every algorithm needs."""

    def __init__(self, name, tree_or_game, state, depth, evaluate, order, table, symmetry,
                 time_limit, trace, graph, trace_depth=None):
        self.name = name
        game = self.game = as_game(tree_or_game)
        self.is_tree = isinstance(game, TreeGame)
        if state is None:
            state = game.initial
        elif self.is_tree and state not in game.graph:
            raise ValueError(f"start node {state!r} is not a node of the tree")
        self.state = state
        if self.is_tree and name != "expectimax":
            chance = next((n for n, p in game._player.items() if p == CHANCE), None)
            if chance is not None:
                _chance_error(self, chance)
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int)):
            raise TypeError(f"depth must be None or an int, got {depth!r}")
        if depth is not None and depth < 0:
            raise ValueError(f"depth must be >= 0, got {depth}")
        self.depth = depth
        if evaluate is not None and not callable(evaluate):
            raise TypeError(f"evaluate must be a function state -> number, got {evaluate!r}")
        if evaluate is None and (depth is not None or time_limit is not None):
            evaluate = game.estimate if self.is_tree else getattr(game, "evaluate", None)
            if evaluate is None:
                raise ValueError(
                    f"a depth limit (depth={depth}, time_limit={time_limit}) needs an evaluation "
                    "function for the positions where the search stops: pass evaluate=f, with "
                    "f(state) a number from MAX's point of view"
                )
        self.evaluate = evaluate
        if order is not None and not callable(order):
            raise TypeError(f"order must be a function (state, moves) -> moves, got {order!r}")
        self.order = order
        if table is True:
            table = {}
        elif table is False or table is None:
            table = None
        elif not isinstance(table, dict):
            raise TypeError(f"table must be True, False or a dict, got {type(table).__name__}")
        self.table = table
        self.key = game.canonical if symmetry else None
        if symmetry and table is None:
            raise ValueError("symmetry=True folds symmetric positions in the transposition table: pass table=True too")
        if time_limit is not None:
            if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not time_limit > 0:
                raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
        self.time_limit = time_limit
        if trace is None:
            trace = self.is_tree
        if graph is None:
            graph = bool(trace)
        self.tracing = bool(trace) or bool(graph)
        if trace_depth is not None and (isinstance(trace_depth, bool) or not isinstance(trace_depth, int)
                                        or trace_depth < 0):
            raise ValueError(f"trace_depth must be None or an int >= 0, got {trace_depth!r}")
        self.trace_depth = _NO_LIMIT if trace_depth is None else trace_depth
        self.keep = "graph-only" if graph and not trace else bool(graph)
        self.base = game.graph if self.is_tree else None
        # Tracing only: fast label lookups (a dict's own method on a tree).
        self.label = game._labels.__getitem__ if self.is_tree else _path_label

    def ordered(self, state, kids):
        moves = [m for m, _ in kids]
        new = self.order(state, list(moves))
        by_move = dict(kids)
        try:
            same = len(new) == len(moves) and set(new) == set(by_move)
        except TypeError:  # unhashable moves in the answer
            same = False
        if not same:
            raise ValueError(
                f"order(state, moves) must return the same moves reordered: got {new!r} for {moves!r}"
            )
        return [(m, by_move[m]) for m in new]

    def move_label(self, move):
        if move is not None and self.is_tree:
            return self.game.move_label(self.state, move)
        return move


def _path_label(path):
    return "root" if not path else "-".join(map(str, path))


def _run(setup: _Setup, make_search):
    """Run one search, or iterative deepening under a time limit.

    A traced search allocates one small tuple per event; the cyclic garbage
    collector would scan them over and over (they hold no cycles), so it is
    paused while tracing.
    """
    paused = setup.tracing and gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _run_timed(setup, make_search)
    finally:
        if paused:
            gc.enable()


def _run_timed(setup, make_search):
    t0 = perf_counter()
    if setup.time_limit is None:
        value, move, stats, log = make_search(setup, setup.depth, None, None)
    else:
        deadline = t0 + setup.time_limit
        totals = dict.fromkeys(("nodes_visited", "leaves_evaluated", "cutoffs", "tt_hits", "estimates"), 0)
        best = None
        limit = setup.depth if setup.depth is not None else _NO_LIMIT
        d = 1 if limit >= 1 else 0
        while True:
            try:
                found = make_search(setup, d, deadline, best[1] if best else None)
            except _Timeout as stop:
                totals["nodes_visited"] += stop.args[0]
                break
            best = found
            for key in totals:
                totals[key] += found[2][key]
            # Stop at the depth limit, when the search was exact (it needed no
            # evaluation: deeper ones would repeat it), or out of time.
            if d >= limit or found[2]["estimates"] == 0 or perf_counter() >= deadline:
                break
            d += 1
        if best is None:
            raise ValueError(
                f"time_limit={setup.time_limit} s was too short to finish even a depth-1 search"
            )
        value, move, last, log = best
        stats = {**totals, "depth_reached": last["depth_reached"]}
    seconds = perf_counter() - t0
    return SearchResult(
        setup.name, value, setup.move_label(move), stats, log, seconds, setup.base, setup.keep
    )


def _kids(setup, state, succ, ttmove):
    """Children in search order (custom ordering, then the table's move first)."""
    kids = succ(state)
    if setup.order is not None:
        kids = setup.ordered(state, kids)
    if ttmove is not None:
        for i, (m, c) in enumerate(kids):
            if m == ttmove:
                if i:
                    kids = [kids[i]] + kids[:i] + kids[i + 1:]
                break
    return kids


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
    return _window_bound(v, a0, b0, strict)


def _window_bound(v, a0, b0, strict):
    if (v < a0) if strict else (v <= a0):
        return UPPER
    if (v > b0) if strict else (v >= b0):
        return LOWER
    return EXACT


def _chance_error(setup, state):
    where = f"node {state!r} ({setup.game.label(state)})" if setup.is_tree else f"state {state!r}"
    raise ValueError(
        f"{setup.name}: {where} is a chance node; "
        f"{setup.name} handles MAX and MIN only: use gt.expectimax for games with chance"
    )


# ----------------------------------------------------------------------------
# Minimax and expectimax: one backed-up-value recursion
# ----------------------------------------------------------------------------


def _make_backed_up(with_chance):
    def search(setup, depth, deadline, first_move):
        game = setup.game
        is_terminal, utility, to_move = game.is_terminal, game.utility, game.to_move
        succ = game.successors
        chances = game.chances
        evaluate = setup.evaluate
        max_depth = _NO_LIMIT if depth is None else depth
        table, keyf = setup.table, setup.key
        tracing, is_tree, names = setup.tracing, setup.is_tree, setup.label
        trace_on, tdepth = tracing, setup.trace_depth
        plain = setup.order is None and table is None and first_move is None
        log = [] if tracing else None
        add = log.append if tracing else None
        nodes = leaves = hits = deepest = estimates = 0
        root_move = None

        def value(state, ply, node, parent):
            nonlocal nodes, leaves, hits, deepest, root_move, estimates
            nodes += 1
            tracing = trace_on and ply <= tdepth
            if ply > deepest:
                deepest = ply
            if deadline is not None and not nodes & 1023 and perf_counter() > deadline:
                raise _Timeout(nodes)
            if is_terminal(state):
                leaves += 1
                v = utility(state)
                if tracing:
                    add(_new(Event, ("leaf", node, parent, ply, None, v, None, None, state, (), names)))
                return v
            if ply >= max_depth:
                leaves += 1
                estimates += 1
                v = evaluate(state)
                if tracing:
                    add(_new(Event, ("estimate", node, parent, ply, to_move(state), v, None, None,
                                     state, (), names)))
                return v
            player = to_move(state)
            key = entry = None
            if table is not None:
                key = keyf(state) if keyf else state
                entry = table.get(key)
                if entry is not None and ply and entry[0] >= max_depth - ply:
                    hits += 1
                    if tracing:
                        add(_new(Event, ("hit", node, parent, ply, player, entry[1], None, None,
                                         state, (EXACT,), names)))
                    return entry[1]
            if plain:
                kids = succ(state)
            else:
                ttmove = first_move if ply == 0 else (entry[2] if entry and not keyf else None)
                kids = _kids(setup, state, succ, ttmove)
            if tracing:
                add(_new(Event, ("enter", node, parent, ply, player, None, None, None, state, (), names)))
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
                        add(_new(Event, ("update", node, parent, ply, player, best, None, None, state,
                                         (cid, v, improved, False), names)))
            elif player == CHANCE and with_chance:
                probs = dict(chances(state))
                best = 0.0
                for m, c in kids:
                    cid = (c if is_tree else node + (m,)) if tracing else None
                    v = value(c, ply + 1, cid, node)
                    best += probs[m] * v
                    if tracing:
                        add(_new(Event, ("update", node, parent, ply, player, best, None, None, state,
                                         (cid, v, False, False), names)))
            elif player == CHANCE:
                _chance_error(setup, state)
            else:
                raise ValueError(f"to_move({state!r}) returned {player!r}: expected 'max', 'min' or 'chance'")
            if table is not None:
                table[key] = (max_depth - ply, best, bm)
            if tracing:
                add(_new(Event, ("exit", node, parent, ply, player, best, None, None, state, (EXACT,), names)))
            if ply == 0:
                root_move = bm
            return best

        root = setup.state
        v = value(root, 0, root if is_tree else (), None)
        stats = {"nodes_visited": nodes, "leaves_evaluated": leaves, "cutoffs": 0,
                 "tt_hits": hits, "depth_reached": deepest,
                 "estimates": estimates}
        return v, root_move, stats, log

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
    setup = _Setup("minimax", tree_or_game, state, depth, evaluate, order, table, symmetry,
                   time_limit, trace, graph, trace_depth)
    return _run(setup, _minimax_search)


def expectimax(tree_or_game, state=None, *, depth=None, evaluate=None, order=None, table=False,
               symmetry=False, time_limit=None, trace=None, graph=None, trace_depth=None) -> SearchResult:
    """Expectimax: MAX and MIN nodes as in minimax, chance nodes average.

    A chance node's value is the sum over its outcomes of probability times
    value. Without chance nodes it equals :func:`minimax`.

    Examples
    --------
    >>> import gametrees as gt
    >>> T = gt.tree_from_nested([{"chance": [3, 12], "p": [0.5, 0.5]}, {"chance": [2, 4]}])
    >>> gt.expectimax(T).value
    7.5
    """
    setup = _Setup("expectimax", tree_or_game, state, depth, evaluate, order, table, symmetry,
                   time_limit, trace, graph, trace_depth)
    return _run(setup, _expectimax_search)


# ----------------------------------------------------------------------------
# Alpha-beta
# ----------------------------------------------------------------------------


def _make_alphabeta(strict):
    def search(setup, depth, deadline, first_move):
        game = setup.game
        is_terminal, utility, to_move, succ = game.is_terminal, game.utility, game.to_move, game.successors
        evaluate = setup.evaluate
        max_depth = _NO_LIMIT if depth is None else depth
        table, keyf = setup.table, setup.key
        tracing, is_tree, names = setup.tracing, setup.is_tree, setup.label
        trace_on, tdepth = tracing, setup.trace_depth
        plain = setup.order is None and table is None and first_move is None
        rule = "strict" if strict else "textbook"
        log = [] if tracing else None
        add = log.append if tracing else None
        nodes = leaves = hits = cutoffs = deepest = estimates = 0
        root_move = None
        kind = EXACT  # bound kind of the value just returned (tracing only)

        def ab(state, ply, alpha, beta, node, parent):
            nonlocal nodes, leaves, hits, cutoffs, deepest, root_move, kind, estimates
            nodes += 1
            tracing = trace_on and ply <= tdepth
            if ply > deepest:
                deepest = ply
            if deadline is not None and not nodes & 1023 and perf_counter() > deadline:
                raise _Timeout(nodes)
            if is_terminal(state):
                leaves += 1
                v = utility(state)
                if tracing:
                    kind = EXACT
                    add(_new(Event, ("leaf", node, parent, ply, None, v, None, None, state, (), names)))
                return v
            if ply >= max_depth:
                leaves += 1
                estimates += 1
                v = evaluate(state)
                if tracing:
                    kind = EXACT
                    add(_new(Event, ("estimate", node, parent, ply, to_move(state), v, None, None,
                                     state, (), names)))
                return v
            player = to_move(state)
            if player != MAX and player != MIN:
                if player == CHANCE:
                    _chance_error(setup, state)
                raise ValueError(f"to_move({state!r}) returned {player!r}: expected 'max' or 'min'")
            key = entry = None
            if table is not None:
                key = keyf(state) if keyf else state
                entry = table.get(key)
                if entry is not None and ply and entry[0] >= max_depth - ply:
                    flag, tv = entry[1], entry[2]
                    if (flag == EXACT
                            or (flag == LOWER and ((tv > beta) if strict else (tv >= beta)))
                            or (flag == UPPER and ((tv < alpha) if strict else (tv <= alpha)))):
                        hits += 1
                        if tracing:
                            kind = flag
                            add(_new(Event, ("hit", node, parent, ply, player, tv, alpha, beta,
                                             state, (flag,), names)))
                        return tv
            if plain:
                kids = succ(state)
            else:
                ttmove = first_move if ply == 0 else (entry[3] if entry and not keyf else None)
                kids = _kids(setup, state, succ, ttmove)
            a0, b0 = alpha, beta
            if tracing:
                add(_new(Event, ("enter", node, parent, ply, player, None, alpha, beta, state, (), names)))
                up_ok = low_ok = True
                best_kind = EXACT
            bm = None
            if player == MAX:
                v = -INF
                for i, (m, c) in enumerate(kids):
                    cid = (c if is_tree else node + (m,)) if tracing else None
                    cv = ab(c, ply + 1, alpha, beta, cid, node)
                    improved = cv > v
                    if improved:
                        v = cv
                        bm = m
                    cut = (v > beta) if strict else (v >= beta)
                    if not cut and v > alpha:
                        alpha = v
                    if tracing:
                        if improved:
                            best_kind = kind
                        up_ok = up_ok and kind != LOWER
                        add(_new(Event, ("update", node, parent, ply, player, v, alpha, beta, state,
                                         (cid, cv, improved, cut), names)))
                    if cut:
                        rest = kids[i + 1:]
                        if rest:
                            cutoffs += 1
                            if tracing:
                                up_ok = False
                                add(_prune_event(node, parent, ply, player, v, alpha, beta, state,
                                                 rest, is_tree, names, rule))
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
                    cut = (v < alpha) if strict else (v <= alpha)
                    if not cut and v < beta:
                        beta = v
                    if tracing:
                        if improved:
                            best_kind = kind
                        low_ok = low_ok and kind != UPPER
                        add(_new(Event, ("update", node, parent, ply, player, v, alpha, beta, state,
                                         (cid, cv, improved, cut), names)))
                    if cut:
                        rest = kids[i + 1:]
                        if rest:
                            cutoffs += 1
                            if tracing:
                                low_ok = False
                                add(_prune_event(node, parent, ply, player, v, alpha, beta, state,
                                                 rest, is_tree, names, rule))
                        break
            if table is not None:
                table[key] = (max_depth - ply, _window_bound(v, a0, b0, strict), v, bm)
            if tracing:
                kind = (_node_bound(player, up_ok, low_ok, best_kind, v, a0, b0, strict)
                        if ply < tdepth else _window_bound(v, a0, b0, strict))
                add(_new(Event, ("exit", node, parent, ply, player, v, alpha, beta, state, (kind,), names)))
            if ply == 0:
                root_move = bm
            return v

        root = setup.state
        v = ab(root, 0, -INF, INF, root if is_tree else (), None)
        stats = {"nodes_visited": nodes, "leaves_evaluated": leaves, "cutoffs": cutoffs,
                 "tt_hits": hits, "depth_reached": deepest,
                 "estimates": estimates}
        return v, root_move, stats, log

    return search


def _prune_event(node, parent, ply, player, v, alpha, beta, state, rest, is_tree, names, rule):
    moves, states = zip(*rest)
    ids = states if is_tree else tuple([node + (m,) for m in moves])
    return _new(Event, ("prune", node, parent, ply, player, v, alpha, beta, state,
                        (ids, moves, states, rule), names))


_alphabeta_search = {False: _make_alphabeta(False), True: _make_alphabeta(True)}


def alphabeta(tree_or_game, state=None, *, strict=False, depth=None, evaluate=None, order=None,
              table=False, symmetry=False, time_limit=None, trace=None, graph=None, trace_depth=None) -> SearchResult:
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
    setup = _Setup("alphabeta-strict" if strict else "alphabeta", tree_or_game, state, depth,
                   evaluate, order, table, symmetry, time_limit, trace, graph, trace_depth)
    return _run(setup, _alphabeta_search[strict])


# ----------------------------------------------------------------------------
# Negamax
# ----------------------------------------------------------------------------


def _make_negamax(prune, strict):
    def search(setup, depth, deadline, first_move):
        game = setup.game
        is_terminal, utility, to_move, succ = game.is_terminal, game.utility, game.to_move, game.successors
        evaluate = setup.evaluate
        max_depth = _NO_LIMIT if depth is None else depth
        table, keyf = setup.table, setup.key
        tracing, is_tree, names = setup.tracing, setup.is_tree, setup.label
        trace_on, tdepth = tracing, setup.trace_depth
        plain = setup.order is None and table is None and first_move is None
        rule = "strict" if strict else "textbook"
        log = [] if tracing else None
        add = log.append if tracing else None
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
            if deadline is not None and not nodes & 1023 and perf_counter() > deadline:
                raise _Timeout(nodes)
            if is_terminal(state) or ply >= max_depth:
                leaves += 1
                terminal = is_terminal(state)
                if not terminal:
                    estimates += 1
                v = utility(state) if terminal else evaluate(state)
                if tracing:
                    kind = EXACT
                    add(_new(Event, ("leaf" if terminal else "estimate", node, parent, ply,
                                     None if terminal else to_move(state), v, None, None,
                                     state, (), names)))
                return color * v
            player = to_move(state)
            if player != MAX and player != MIN:
                if player == CHANCE:
                    _chance_error(setup, state)
                raise ValueError(f"to_move({state!r}) returned {player!r}: expected 'max' or 'min'")
            mine = 1 if player == MAX else -1
            if mine != color:  # the window, seen from the mover's side
                alpha, beta = -beta, -alpha
            key = entry = None
            if table is not None:
                key = keyf(state) if keyf else state
                entry = table.get(key)
                if entry is not None and ply and entry[0] >= max_depth - ply:
                    flag, tv = entry[1], mine * entry[2]  # stored from MAX's view
                    if mine < 0:
                        flag = {LOWER: UPPER, UPPER: LOWER}.get(flag, flag)
                    if flag == EXACT or (prune and (
                            (flag == LOWER and ((tv > beta) if strict else (tv >= beta)))
                            or (flag == UPPER and ((tv < alpha) if strict else (tv <= alpha))))):
                        hits += 1
                        if tracing:
                            kind = entry[1]
                            add(_new(Event, ("hit", node, parent, ply, player, mine * tv, None, None,
                                             state, (entry[1],), names)))
                        return tv if mine == color else -tv
            if plain:
                kids = succ(state)
            else:
                ttmove = first_move if ply == 0 else (entry[3] if entry and not keyf else None)
                kids = _kids(setup, state, succ, ttmove)
            a0, b0 = alpha, beta
            if tracing:
                add(_new(Event, ("enter", node, parent, ply, player, None,
                                 *_max_view(mine, alpha, beta), state, (), names)))
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
                cut = prune and ((v > beta) if strict else (v >= beta))
                if not cut and v > alpha:
                    alpha = v
                if tracing:
                    if improved:
                        best_kind = kind
                    up_ok = up_ok and kind != LOWER
                    low_ok = low_ok and kind != UPPER
                    add(_new(Event, ("update", node, parent, ply, player, mine * v,
                                     *_max_view(mine, alpha, beta), state,
                                     (cid, mine * cv, improved, cut), names)))
                if cut:
                    rest = kids[i + 1:]
                    if rest:
                        cutoffs += 1
                        if tracing:
                            up_ok = low_ok = False
                            add(_prune_event(node, parent, ply, player, mine * v,
                                             *_max_view(mine, alpha, beta), state, rest, is_tree,
                                             names, rule))
                    break
            bound = _window_bound(v, a0, b0, strict) if prune else EXACT
            if table is not None:
                max_bound = bound if mine > 0 else {LOWER: UPPER, UPPER: LOWER}.get(bound, bound)
                table[key] = (max_depth - ply, max_bound, mine * v, bm)
            if tracing:
                kind = (_node_bound(player, up_ok, low_ok, best_kind, mine * v,
                                    *_max_view(mine, a0, b0), strict)
                        if ply < tdepth else _window_bound(mine * v, *_max_view(mine, a0, b0), strict))
                add(_new(Event, ("exit", node, parent, ply, player, mine * v,
                                 *_max_view(mine, alpha, beta), state, (kind,), names)))
            if ply == 0:
                root_move = bm
            return v if mine == color else -v

        root = setup.state
        v = neg(root, 0, -INF, INF, 1, root if is_tree else (), None)
        stats = {"nodes_visited": nodes, "leaves_evaluated": leaves, "cutoffs": cutoffs,
                 "tt_hits": hits, "depth_reached": deepest,
                 "estimates": estimates}
        return v, root_move, stats, log

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
    setup = _Setup("negamax", tree_or_game, state, depth, evaluate, order, table, symmetry,
                   time_limit, trace, graph, trace_depth)
    return _run(setup, _negamax_search[prune, strict])
