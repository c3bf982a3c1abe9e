"""The search engine's shared parts: the arguments, the run, the result.

:class:`SearchResult` is what every search returns.  :class:`SearchSetup` checks
a search's arguments once and holds what the algorithms need;
:func:`run_search` runs one search (or iterative deepening under a time limit)
and builds the result.  :func:`children_in_order`, :func:`chance_error`,
:class:`SearchTimeout` and :data:`NO_LIMIT` are shared by the algorithms in
:mod:`gametrees.search.backed_up` and :mod:`gametrees.search.pruning`, and so
are the errors they raise at the edges: :func:`bad_value` (an evaluation that
is not a number), :func:`chance_nan` (an expected value that is NaN) and
:func:`too_deep` (past :data:`~gametrees.trees.MAX_PLIES`).

Imports: :mod:`gametrees.games`, :mod:`gametrees.trees` and
:mod:`gametrees.trace` (the recorders a search calls, and :func:`~gametrees.trace.annotate`).
"""

from __future__ import annotations

import gc
import math
import numbers
import sys
from time import perf_counter
from typing import NamedTuple

from ..games import CHANCE, MAX, MIN, ConnectFour, DiceGame, Nim, Pig, TicTacToe
from ..games.protocol import number_problem
from ..trace import GraphRecorder, Recorder, annotate
from ..trees import MAX_PLIES, TreeGame, as_game, deep_recursion

__all__ = [
    "DEPTH", "FLAG", "FLOAT_MAX", "INF", "MOVE", "NO_LIMIT", "START_NAME", "VALUE",
    "PositionNames", "SearchResult", "SearchSetup", "SearchTimeout", "TableSection",
    "bad_value", "chance_error", "chance_nan", "children_in_order", "move_name", "no_moves", "no_moves_error",
    "run_search", "too_deep", "trusts_chances",
]

INF = math.inf
#: The largest finite float: the searches' quick test of an evaluation's value
#: (an int beyond it, like 10**400, cannot be mixed with floats).
FLOAT_MAX = sys.float_info.max
#: A depth no search reaches: "no depth limit" (and "trace every ply").
NO_LIMIT = 1 << 62
#: Where a transposition-table entry keeps what: every search stores a plain tuple
#: ``(depth searched, flag, value for MAX, best move)`` (a tuple is made several times faster than a
#: named tuple, on every node of a search with a table) and reads it as ``entry[FLAG]``.
DEPTH, FLAG, VALUE, MOVE = range(4)


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
        has one, else the child's node id); the first best in the order
        searched on ties: child order (or ``order``'s). ``None`` when the
        start position is terminal or at depth 0. With ``time_limit`` every
        iteration searches the previous iteration's best move first, so on
        ties that move is kept: ``move`` is a best move of the deepest
        finished iteration (its value is ``value``, the value of a search
        with ``depth=stats["depth_reached"]`` and the same table), but on
        ties it can differ from that search's move.
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
        Wall-clock time of the search (varies run to run); a tree search asked only for its graph
        writes the graph as it goes, and that is counted in.
    """

    def __init__(self, algorithm, value, move, stats, recorded, seconds, base, keep_graph):
        # ``recorded``: the recorder the search called (SearchSetup.recorder) or None; ``base``: the
        # searched tree's snapshot (TreeGame.snapshot(), taken at search time) or None for a game, so
        # ``graph`` shows the tree as it was searched.
        self.algorithm = algorithm
        self.value = value
        self.move = move
        self.stats = stats
        self.seconds = seconds
        self._marked = recorded if isinstance(recorded, GraphRecorder) else None  # the graph, written
        self._events = recorded.log if isinstance(recorded, Recorder) else None
        self._keep_trace = self._events is not None and keep_graph != "graph-only"
        self._base = base
        self._graph = None
        self._want_graph = bool(keep_graph)

    @property
    def trace(self):
        return self._events if self._keep_trace else None

    @property
    def graph(self):
        if self._marked is not None:  # written by the search itself: only its last touches are left
            self._graph = self._marked.finish(self.algorithm, self.stats)
            self._marked = None
        if self._graph is None and self._want_graph and self._events:
            paused = gc.isenabled()
            if paused:  # many small dicts, no cycles: as in run_search
                gc.disable()
            try:
                base = None if self._base is None else self._base.graph(unvisited=True)
                self._graph = annotate(self._events, base, self.algorithm, self.stats, in_place=True,
                                       started=True)
            finally:
                if paused:
                    gc.enable()
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


class TableSection(NamedTuple):
    """The key of one section of a transposition table (see :class:`SearchSetup`).

    A table dict passed to a search holds one section (a dict of entries)
    per algorithm and rule, game, evaluation and symmetry folding, so that
    entries made under one never answer for another.
    """

    algorithm: str
    game: object
    evaluate: object
    symmetry: bool


class _Same:
    """An object as a dict key by identity (games and functions need not be hashable)."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __hash__(self):
        return id(self.obj)

    def __eq__(self, other):
        return isinstance(other, _Same) and other.obj is self.obj

    def __repr__(self):
        return repr(self.obj)


#: The games whose utility is known to return usable numbers (not checked again).
_CHECKED_UTILITIES = frozenset(
    cls.utility for cls in (TicTacToe, Nim, ConnectFour, DiceGame, TreeGame))
#: The games whose chances are known to be a probability distribution over the moves.
_CHECKED_CHANCES = frozenset(cls.chances for cls in (DiceGame, Pig, TreeGame))


def trusts_chances(game) -> bool:
    """Are ``game``'s chances the package's own (a tree's are checked when its TreeGame is made)?

    The searches check the chances of any other game at every chance state
    (:func:`gametrees.games.protocol.check_chances`).
    """
    return getattr(type(game), "chances", None) in _CHECKED_CHANCES


class SearchSetup:
    """Checks the arguments once and holds what every algorithm needs.

    Built by keyword from the arguments of the public search functions
    (``SearchSetup(name="alphabeta", tree_or_game=T, depth=3, window=(a, b), ...)``;
    every argument but ``name`` and ``tree_or_game`` has the search functions'
    default); the algorithms read its fields by name.

    Attributes
    ----------
    name : str
        The search as errors and results name it (``"alphabeta-strict"``).
    game : Game
        The game searched (a tree as a :class:`~gametrees.trees.TreeGame`); ``is_tree`` says which.
    state
        The start state (checked here once).
    utility : callable
        The game's utility, its values checked unless the game is one of the package's.
    check_chances : bool
        Check a chance state's probabilities at every chance node (a game not of the package).
    depth, evaluate, order, time_limit
        As passed (``evaluate``: the game's own when a depth or time limit needs one).
    table : dict or None
        This search's section of the transposition table; ``key`` folds symmetric states
        (``game.canonical``) or is None.
    window : (alpha, beta)
        Alpha-beta's window at the start.
    tracing : bool
        Call a recorder at every step (:meth:`recorder`: for ``result.trace`` or ``result.graph``);
        ``trace_depth`` the deepest ply recorded, ``keep`` what the result keeps (``True``,
        ``"graph-only"`` or ``False``).
    label : callable
        node -> display label, for the events (a tree's labels; :class:`PositionNames` in a game).
    base
        The searched tree's snapshot (taken by :func:`run_search` when the result keeps a graph).

    A start state handed in from outside is checked once here, by the game's
    ``check_state`` (on a tree: that it is a node), never at every node. A
    game's ``utility`` is wrapped in a check of its values unless the game
    is one of the package's.

    ``table``: the entries go to the section ``table[TableSection(...)]``
    of the dict, one per ``variant`` (the algorithm and its rule, e.g.
    ``"alphabeta-strict"``), game (a game object itself; a tree by its
    content, :attr:`~gametrees.trees.TreeGame.table_key`), evaluation and
    symmetry folding.
    """

    __slots__ = ("name", "game", "is_tree", "state", "utility", "check_chances", "depth", "evaluate", "order",
                 "table", "key", "time_limit", "window", "tracing", "trace_depth", "keep", "base", "label")

    def __init__(self, *, name, tree_or_game, state=None, depth=None, evaluate=None, order=None, table=False,
                 symmetry=False, time_limit=None, trace=None, graph=None, trace_depth=None, variant=None,
                 window=(-INF, INF)):
        self.name = name
        game = self.game = as_game(tree_or_game)
        self.is_tree = isinstance(game, TreeGame)
        if state is None:
            state = game.initial
        elif self.is_tree:
            if state not in game.graph:
                raise ValueError(f"start node {state!r} is not a node of the tree")
        elif callable(getattr(game, "check_state", None)):
            game.check_state(state)
        self.state = state
        utility = game.utility
        if getattr(type(game), "utility", None) not in _CHECKED_UTILITIES:
            utility = _checked_utility(self, utility)
        self.utility = utility
        # Chances are checked (sum 1, none negative, every outcome named) unless they are the
        # package's own (a tree's are checked when its TreeGame is made).
        self.check_chances = not trusts_chances(game)
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
        evaluate_key = evaluate
        if evaluate is None and (depth is not None or time_limit is not None):
            evaluate = game.estimate if self.is_tree else getattr(game, "evaluate", None)
            evaluate_key = "the tree's estimates" if self.is_tree else evaluate
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
        if symmetry and table is None:
            raise ValueError("symmetry=True folds symmetric positions in the transposition table: "
                             "pass table=True too")
        if table is not None:
            section = TableSection(variant or name, game.table_key if self.is_tree else _Same(game),
                                   evaluate_key, bool(symmetry))
            try:
                table = table.setdefault(section, {})
            except TypeError:  # an evaluate that cannot be a dict key
                table = table.setdefault(section._replace(evaluate=_Same(evaluate_key)), {})
        self.table = table
        self.key = game.canonical if symmetry else None
        if time_limit is not None:
            if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not time_limit > 0:
                raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
        self.time_limit = time_limit
        self.window = window  # alpha-beta's window at the root (alphabeta(window=...))
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
        # The tree as it is now (taken by run_search): result.graph must not
        # change if the tree is edited later.
        self.base = None
        # Tracing only: fast label lookups (a dict's own method on a tree).
        self.label = game.labels.__getitem__ if self.is_tree else PositionNames(game, state)

    def recorder(self):
        """A new recorder for one search (:mod:`gametrees.trace`): the searches call it at every step.

        A tree search asked for its graph and not its trace (``graph=True, trace=False``), without a
        time limit, writes the annotated graph as it goes (:class:`~gametrees.trace.GraphRecorder`, on
        a graph of the tree as it was searched): no events are made. Any other records its events
        (:class:`~gametrees.trace.Recorder`): for ``result.trace``, for a game's graph (the explored
        tree is built from them), and for iterative deepening, whose iterations each start again
        (the graph is built from the deepest finished one).
        """
        if self.keep == "graph-only" and self.base is not None and self.time_limit is None:
            return GraphRecorder(self.base.graph(unvisited=True))
        return Recorder(self.label)

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

    def where(self, state):
        """``state`` as a message names it: a tree's node by its label, a game's state."""
        if self.is_tree:
            label = self.game.labels.get(state, state)
            return f"node {label}" if label == state else f"node {label} ({state!r})"
        return f"state {state!r}"


def _checked_utility(setup, utility):
    """``utility`` of a game not known to the package, with its values checked."""
    def checked(state):
        v = utility(state)
        if v.__class__ is not float or v != v:
            if v.__class__ is not int or not -FLOAT_MAX <= v <= FLOAT_MAX:
                v = bad_value(setup, v, state, "utility")
        return v

    return checked


def bad_value(setup, v, state, source="evaluate"):
    """Return ``v`` if it is a usable value after all (e.g. a numpy float), else raise.

    The searches call this only when their quick test (a float that is not
    NaN, or an int that fits in a float) fails, so checking costs nothing on
    the usual path. The error names the function, the value and the state.
    """
    problem = number_problem(v)
    if problem is None:
        return v
    error, text = problem
    if text == "NaN":
        advice = "; NaN compares false with everything, so the search would silently ignore it"
    elif text.startswith("a number too large"):
        advice = "; use math.inf and -math.inf for a win and a loss"
    else:
        advice = ""
    raise error(
        f"{source} returned {text} for {setup.where(state)}: expected a number from MAX's "
        f"point of view{advice}"
    )


def chance_nan(setup, state, probs):
    """Raise the ValueError of a chance node whose expected value came out NaN."""
    bad = next((m for m, p in probs.items() if p != p), None)
    if bad is not None:
        why = f"the probability of outcome {bad!r} is NaN"
    else:
        why = ("its outcomes include +inf and -inf with probabilities above 0, and "
               "+inf plus -inf is not a number")
    raise ValueError(
        f"{setup.name}: the expected value of chance {setup.where(state)} is undefined "
        f"(NaN, not a number): {why}; give the outcomes finite values, or one of them probability 0"
    )


def too_deep(setup):
    """Raise the ValueError of a search that went past :data:`~gametrees.trees.MAX_PLIES`."""
    raise ValueError(
        f"{setup.name}: the search went deeper than {MAX_PLIES:,} plies below the start "
        f"(the limit: Python recurses once per ply); pass depth=... (at most {MAX_PLIES:,}) "
        "with an evaluation, or search a smaller game"
    )


#: The name of the position a game search starts from.
START_NAME = "the start position"
_TTT_FILES = "abc"
_C4_FILES = "abcdefghijklmnopqrstuvwxyz"


def move_name(game, state, move) -> str:
    """The move ``move`` in ``state`` as a player says it: "X c2", "O d", "MAX takes 2".

    Tic-tac-toe names a cell by its column a-c (left to right) and its row
    1-3 (top to bottom, as the board is printed): cell 0 is a1, cell 5 is c2.
    Connect Four names the column a, b, ... (left to right). X is MAX, O is MIN
    in both. Nim says how many coins are taken; another game gives the mover
    (MAX, MIN or chance) and the move.

    Examples
    --------
    >>> from gametrees.games import ConnectFour, Nim, TicTacToe
    >>> move_name(TicTacToe(), (0, 0), 5), move_name(TicTacToe(), (1, 0), 0)
    ('X c2', 'O a1')
    >>> move_name(ConnectFour(), ConnectFour().initial, 3), move_name(Nim(6), (6, "max"), 2)
    ('X d', 'MAX takes 2')
    """
    player = game.to_move(state)
    if isinstance(game, (TicTacToe, ConnectFour)):
        mark = "X" if player == MAX else "O"
        if isinstance(game, TicTacToe) and isinstance(move, numbers.Integral) and 0 <= move < 9:
            return f"{mark} {_TTT_FILES[move % 3]}{move // 3 + 1}"
        if (isinstance(game, ConnectFour) and isinstance(move, numbers.Integral)
                and 0 <= move < len(_C4_FILES)):
            return f"{mark} {_C4_FILES[move]}"
        return f"{mark} {move}"
    role = {MAX: "MAX", MIN: "MIN", CHANCE: "chance"}.get(player, str(player))
    if isinstance(game, Nim):
        return f"{role} takes {move}"
    return f"{role} {move}"


class PositionNames:
    """Names of the positions of a game search, as a player says them.

    A node of a traced game search is the path of moves from the start
    ``state``; its name lists the moves: ``"after X c2, O a1"`` (tic-tac-toe),
    ``"after X d, O c"`` (Connect Four), ``"after MAX takes 2, MIN takes 1"``
    (Nim); the start itself is :data:`START_NAME`. :mod:`gametrees.trace`
    words its sentences for names of this form (``"the position after ..."``)
    and the drawings label each board with its last move.

    Examples
    --------
    >>> from gametrees.games import TicTacToe
    >>> names = PositionNames(TicTacToe(), (0, 0))
    >>> names(()), names((5, 0))
    ('the start position', 'after X c2, O a1')
    """

    def __init__(self, game, state):
        self.game, self.state = game, state
        self._cache = {(): (START_NAME, state)}

    def _name_and_state(self, path):
        hit = self._cache.get(path)
        if hit is None:
            parent_name, parent_state = self._name_and_state(path[:-1])
            move = path[-1]
            said = move_name(self.game, parent_state, move)
            name = f"{parent_name}, {said}" if path[:-1] else f"after {said}"
            hit = self._cache[path] = (name, self.game.result(parent_state, move))
        return hit

    def __call__(self, path) -> str:
        if not isinstance(path, tuple):
            return str(path)
        return self._name_and_state(path)[0]


def run_search(setup: SearchSetup, make_search):
    """Run one search, or iterative deepening under a time limit.

    ``make_search(setup, depth, deadline, first_move)`` searches once and
    returns ``(value, move, stats, recorder)`` (the recorder it called, :meth:`SearchSetup.recorder`,
    or ``None`` untraced); it raises :class:`SearchTimeout`
    past ``deadline``.  Returns the :class:`SearchResult`.

    A traced search allocates one small record per event; the cyclic garbage
    collector would scan them over and over (they hold no cycles), so it is
    paused while tracing.
    """
    paused = setup.tracing and gc.isenabled()
    if paused:
        gc.disable()
    try:
        if setup.is_tree and setup.keep:  # (with the collector paused too: many small dicts)
            setup.base = setup.game.snapshot()
        with deep_recursion(MAX_PLIES):  # the searches stop themselves at MAX_PLIES
            return _run_timed(setup, make_search)
    finally:
        if paused:
            gc.enable()


def _run_timed(setup, make_search):
    t0 = perf_counter()
    if setup.time_limit is None:
        value, move, stats, recorded = make_search(setup, setup.depth, None, None)
    else:
        deadline = t0 + setup.time_limit
        totals = dict.fromkeys(("nodes_visited", "leaves_evaluated", "cutoffs", "tt_hits", "estimates"), 0)
        best = None
        limit = setup.depth if setup.depth is not None else MAX_PLIES
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
        value, move, last, recorded = best
        stats = {**totals, "depth_reached": last["depth_reached"]}
    seconds = perf_counter() - t0
    return SearchResult(
        setup.name, value, setup.move_label(move), stats, recorded, seconds, setup.base, setup.keep
    )


def children_in_order(setup, state, succ, ttmove):
    """Children in search order (custom ordering, then the table's move first)."""
    kids = succ(state)
    if setup.order is not None:
        kids = setup.ordered(state, kids)
    if ttmove is not None:
        for i, (m, _) in enumerate(kids):
            if m == ttmove:
                if i:
                    kids = [kids[i]] + kids[:i] + kids[i + 1:]
                break
    return kids


def no_moves(setup, state):
    """Raise the ValueError for a state that is not terminal but has no moves.

    Searching on would back up -inf (or +inf) and no move from an empty list:
    a wrong value instead of an error. The game's rules say the game goes on,
    so ``actions`` (or ``successors``) must give at least one move, or
    ``is_terminal`` must say it is over.
    """
    where = f"node {state!r} ({setup.game.label(state)})" if setup.is_tree else f"state {state!r}"
    raise no_moves_error(setup.name, where)


def no_moves_error(name, where):
    """The ValueError of :func:`no_moves` for the search ``name`` at ``where`` ("state 3")."""
    return ValueError(
        f"{name}: {where} is not terminal (is_terminal returned False) but has no moves "
        "(actions returned none): a state without moves must be terminal, with a utility"
    )


def chance_error(setup, state):
    """Raise the ValueError of a MAX/MIN-only search that met a chance node."""
    where = f"node {state!r} ({setup.game.label(state)})" if setup.is_tree else f"state {state!r}"
    raise ValueError(
        f"{setup.name}: {where} is a chance node; "
        f"{setup.name} handles MAX and MIN only: use gt.expectimax for games with chance"
    )
