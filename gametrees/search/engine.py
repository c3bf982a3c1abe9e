"""The search engine's shared parts: the arguments, the run, the result.

:class:`SearchResult` is what every search returns.  :class:`SearchSetup` checks
a search's arguments once and holds what the algorithms need;
:func:`run_search` runs one search (or iterative deepening under a time limit)
and builds the result.  :func:`children_in_order`, :func:`chance_error`,
:class:`SearchTimeout`, :data:`NO_LIMIT` and the bound kinds :data:`EXACT`,
:data:`LOWER`, :data:`UPPER` are shared by the algorithms in
:mod:`gametrees.search.backed_up` and :mod:`gametrees.search.pruning`.

Imports: :mod:`gametrees.games`, :mod:`gametrees.trees` and
:mod:`gametrees.trace` (for :func:`~gametrees.trace.annotate`).
"""

from __future__ import annotations

import gc
import math
from time import perf_counter

from ..games import CHANCE
from ..trace import annotate
from ..trees import TreeGame, as_game

__all__ = [
    "EXACT", "INF", "LOWER", "NO_LIMIT", "UPPER",
    "SearchResult", "SearchSetup", "SearchTimeout",
    "chance_error", "children_in_order", "run_search",
]

INF = math.inf
#: A depth no search reaches: "no depth limit" (and "trace every ply").
NO_LIMIT = 1 << 62
#: The kinds of a value: exact, or only a lower or an upper bound of the true value.
EXACT, LOWER, UPPER = "exact", "lower", "upper"


class SearchTimeout(Exception):
    """Raised inside a search when the time limit runs out (``args[0]``: nodes visited)."""


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


class SearchSetup:
    """Checks the arguments once and holds what every algorithm needs.

    ``SearchSetup(name, tree_or_game, state, depth, evaluate, order, table,
    symmetry, time_limit, trace, graph, trace_depth)`` takes the arguments of
    the public search functions; the algorithms read its attributes (``game``,
    ``state``, ``is_tree``, ``evaluate``, ``table``, ``key``, ``tracing``,
    ``trace_depth``, ``label`` ...).
    """

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
            chance = next((n for n, p in game.players.items() if p == CHANCE), None)
            if chance is not None:
                chance_error(self, chance)
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
        self.trace_depth = NO_LIMIT if trace_depth is None else trace_depth
        self.keep = "graph-only" if graph and not trace else bool(graph)
        self.base = game.graph if self.is_tree else None
        # Tracing only: fast label lookups (a dict's own method on a tree).
        self.label = game.labels.__getitem__ if self.is_tree else _path_label

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


def run_search(setup: SearchSetup, make_search):
    """Run one search, or iterative deepening under a time limit.

    ``make_search(setup, depth, deadline, first_move)`` searches once and
    returns ``(value, move, stats, events)``; it raises :class:`SearchTimeout`
    past ``deadline``.  Returns the :class:`SearchResult`.

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
        limit = setup.depth if setup.depth is not None else NO_LIMIT
        d = 1 if limit >= 1 else 0
        while True:
            try:
                found = make_search(setup, d, deadline, best[1] if best else None)
            except SearchTimeout as stop:
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


def children_in_order(setup, state, succ, ttmove):
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



def chance_error(setup, state):
    """Raise the ValueError of a MAX/MIN-only search that met a chance node."""
    where = f"node {state!r} ({setup.game.label(state)})" if setup.is_tree else f"state {state!r}"
    raise ValueError(
        f"{setup.name}: {where} is a chance node; "
        f"{setup.name} handles MAX and MIN only: use gt.expectimax for games with chance"
    )
