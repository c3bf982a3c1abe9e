"""Monte Carlo tree search (UCT): :func:`mcts`, a search you can replay.

Instead of searching every move to a fixed depth, MCTS plays many quick
random games (*playouts*) and grows a tree where they look promising. Each
playout has four steps:

1. **Selection**: from the root, go down the tree while every child of the
   node is already in the tree, at each node taking the child with the
   highest UCB1 score (:func:`gametrees.rules.ucb1`)::

       mean result for the player choosing + c * sqrt(ln(visits of the node) / visits of the child)

   (at a chance node the outcome is drawn by its probability instead).
2. **Expansion**: the first child not yet in the tree joins it (a finished
   game adds nothing).
3. **Playout**: from the new node, random moves to the end of the game
   (uniform among the moves; chance outcomes by their probability).
4. **Backup**: every node on the path counts the visit and adds the result
   to its mean (means are kept from MAX's point of view; at a MIN node the
   player choosing wants the mean low, so UCB1 uses minus the mean there).

After the playouts the move played is the root's *most visited* child: a
child with one lucky win out of one visit has a high mean but proves nothing.

:func:`mcts` returns a :class:`~gametrees.search.SearchResult` like the other
searches (``algorithm == "mcts"``) whose trace records the four steps
playout by playout (``gt.frame(trace, k)`` gives every node's visits and mean
after step k; ``gt.replay(result)`` replays it), and whose ``graph`` is the
tree MCTS grew. A traced playout keeps a few KB, so by default only a search
of at most 10,000 playouts is traced (``trace=True`` traces any).
:class:`gametrees.MCTSAgent` (in :mod:`gametrees.agents`) plays with the same code.

MCTS searches trees, not graphs where a node has two parents (it refuses
them, naming the node), and games whose playouts end within 2,000 plies.

Imports: :mod:`gametrees.rules`, :mod:`gametrees.games`, :mod:`gametrees.trees`,
:mod:`gametrees.trace` and the search engine (:mod:`gametrees.search.engine`).

Examples
--------
>>> import gametrees as gt
>>> T = gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
>>> r = gt.mcts(T, playouts=3000, seed=0)
>>> r.move, r.graph.nodes[()]["visits"]
((0,), 3000)
>>> print(r.trace[2].text)
Playout 1 · backup: B now has 1 visit, mean 8; A now has 1 visit, mean 8.
>>> f = gt.frame(r.trace, 2)            # the search after that step: visits and means
>>> f.visits, f.means
({(): 1, (0,): 1}, {(0,): 8.0, (): 8.0})
"""

from __future__ import annotations

import gc
import math
import numbers
import random as random_module
import reprlib
from time import perf_counter

import networkx as nx

from ..games import CHANCE, MAX, MIN, Game
from ..games.protocol import check_chances, number_problem
from ..rules import ucb1_select
from ..trace import Recorder
from ..trees import MAX_PLIES, TreeGame, as_game
from .engine import PositionNames, SearchResult, no_moves_error, trusts_chances

__all__ = ["MCTSResult", "SQRT2", "TRACED_PLAYOUTS", "check_mcts_options", "mcts"]

#: UCB1's exploration constant, sqrt(2).
SQRT2 = math.sqrt(2)
#: ``trace=None`` (the default) traces a search of at most this many playouts, and no other: a
#: traced playout takes 2-5 KB (``benchmarks/mcts_memory.py``), and a replay is stepped by hand.
TRACED_PLAYOUTS = 10_000
#: Playout results within +-SAFE_RESULT cannot overflow a float when summed (fewer than 1e58 playouts).
SAFE_RESULT = 1e250



class _Node:
    """A node of the grown tree (visits and the sum of results from MAX's point of view)."""

    __slots__ = ("state", "move", "parent_id", "player", "terminal", "children", "pending", "visits", "total",
                 "id", "added", "probs", "kids", "index", "child_visits", "child_totals", "sign")

    def __init__(self, state, move, parent_id, terminal, player, node_id):
        self.state = state
        self.move = move
        self.parent_id = parent_id    # the parent's id, not the parent: no cycles, so a tree no longer used
        #                               is freed at once (not left to the cyclic garbage collector)
        self.terminal = terminal
        self.player = player          # who moves here (None at a finished game)
        self.sign = 1.0               # MAX/MIN, once first left: 1.0 where MAX chooses, -1.0 where MIN does
        self.children = None          # MAX/MIN: the children in the tree (in move order); chance: all
        self.pending = None           # MAX/MIN: (move, state) of every child, from when the node is first
        #                               left until the last has joined the tree (then None again)
        self.visits = 0
        self.total = 0.0
        self.id = node_id             # the node's id in the trace and the graph (None when untraced)
        self.added = 0                # order in which it joined the tree (1 = the root)
        self.probs = None             # chance nodes: cumulative probabilities of the children
        self.kids = None              # traced: the children's ids
        self.index = 0                # traced: its place among its parent's children
        self.child_visits = None      # traced: the children's visits and totals, in child order (kept with
        self.child_totals = None      # theirs, so that a select record copies them as they are)

    def mean(self):
        """The mean result from MAX's point of view (``None`` before the first visit)."""
        return self.total / self.visits if self.visits else None


class MCTSResult(SearchResult):
    """What :func:`mcts` returns: a :class:`~gametrees.search.SearchResult` with ``algorithm == "mcts"``.

    Attributes
    ----------
    value : float
        The root's mean result from MAX's point of view.
    move
        The root's most visited child (a child node id on a tree, a move in a
        game); on a tie the first in move order.
    stats : dict
        ``playouts``, ``tree_nodes`` (nodes in the grown tree, the root
        included), ``positions`` (positions visited: the tree paths and the
        playouts), ``depth_reached`` (the grown tree's depth); for the
        tools shared with the other searches also ``nodes_visited``
        (= ``positions``) and ``leaves_evaluated`` (= ``playouts``).
    trace : list of Event or None
        The four steps of every playout (``trace=True``; by default a search
        of at most ``TRACED_PLAYOUTS`` playouts is traced, no other).
    graph : networkx.DiGraph or None
        The tree MCTS grew: each node with ``visits``, ``value`` (its mean
        result for MAX), ``order`` (when it joined the tree), ``player`` and,
        on a tree, the input tree's ids, labels, utilities, moves and
        probabilities; in a game, ``state`` and the edges' ``move``. The
        edges of the most visited line carry ``best=True``.
    replay_tree : networkx.DiGraph or None
        What a replay draws: on a tree the whole input tree (its nodes not in
        the grown tree are drawn faint; playouts run down through them), in a
        game the grown tree.
    c : float
        The exploration constant used.
    """

    def __init__(self, value, move, stats, trace, seconds, root, is_tree, base, want_graph, c, names,
                 to_move):
        super().__init__("mcts", value, move, stats, None, seconds, None, False)
        self._events = trace
        self._to_move = to_move
        self._root = root
        self._is_tree = is_tree
        self._tree_base = base
        self._want = want_graph
        self._grown = None
        self._names = names
        self.c = c

    @property
    def trace(self):
        return self._events

    @property
    def root_children(self):
        """``{move: (visits, mean for MAX)}`` for the root's children in the grown tree, in move order
        (in a game the game's move, on a tree the child's node id; the mean ``None`` before a visit)."""
        return {child.move: (child.visits, child.mean()) for child in self._root.children or ()}

    @property
    def graph(self):
        if self._grown is None and self._want:
            self._grown = _grown_graph(self._root, self._is_tree, self._tree_base, self._names, self.stats,
                                       self._to_move)
        return self._grown

    @property
    def replay_tree(self):
        if not self._want:
            return None
        if self._is_tree:
            G = self._tree_base.copy()
            grown = self.graph
            for n in G:
                G.nodes[n]["status"] = "visited" if n in grown else "unvisited"
            for n, attrs in grown.nodes(data=True):
                G.nodes[n].update({k: attrs[k] for k in ("visits", "value", "order") if k in attrs})
            G.graph.update(grown.graph)
            return G
        return self.graph

    def __repr__(self):
        s = self.stats
        return (f"SearchResult(algorithm='mcts', value={self.value!r}, move={self.move!r}, "
                f"playouts={s['playouts']}, tree_nodes={s['tree_nodes']})")


def _grown_graph(root, is_tree, base, names, stats, to_move):
    """The grown tree as a networkx graph (children in move order)."""
    rid = root.id if is_tree else ()
    G = nx.DiGraph(root=rid, algorithm="mcts", playouts=stats["playouts"],
                   nodes_visited=stats["nodes_visited"], leaves_evaluated=stats["leaves_evaluated"])

    def attrs(node, nid):
        if is_tree:
            a = dict(base.nodes[nid])
        else:
            a = {"state": node.state, "label": names(nid)}
            if node.terminal and node.visits:
                a["utility"] = node.total / node.visits
        if not node.terminal:
            a["player"] = _who(node, to_move)
        a.update(visits=node.visits, value=node.mean(), order=node.added, status="visited")
        return a

    G.add_node(rid, **attrs(root, rid))
    queue = [(root, rid)]
    for node, nid in queue:
        for child in node.children or ():
            if child.added:
                cid = child.state if is_tree else nid + (child.move,)
                G.add_node(cid, **attrs(child, cid))
                edge = dict(base.edges[nid, cid]) if is_tree else {"move": child.move}
                G.add_edge(nid, cid, **edge, best=False)
                queue.append((child, cid))
    n = rid
    while G.nodes[n].get("player") in (MAX, MIN):
        kids = list(G.successors(n))
        if not kids:
            break
        top = max(kids, key=lambda k: G.nodes[k]["visits"])  # the first of equals
        G.edges[n, top]["best"] = True
        n = top
    return G


def check_mcts_options(playouts, seconds, c, seed):
    """:func:`mcts`'s limits, constant and seed checked (what :class:`gametrees.MCTSAgent` checks when made).

    Returns ``(seconds, seed)``: seconds ``None`` when it sets no limit, seed an int or str. Raises the
    ``TypeError`` or ``ValueError`` :func:`mcts` raises, naming the option.
    """
    if playouts is not None and (isinstance(playouts, bool) or not isinstance(playouts, numbers.Integral)):
        raise TypeError(f"playouts must be None or an int >= 1, got {playouts!r}")
    if playouts is not None and playouts < 1:
        raise ValueError(f"playouts must be None or an int >= 1 (MCTS needs at least one playout), "
                         f"got {playouts!r}")
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, numbers.Real)):
        raise TypeError(f"seconds must be None or a positive number, got {seconds!r}")
    if seconds is not None and not seconds > 0:
        raise ValueError(f"seconds must be None or a positive number of seconds, got {seconds!r}")
    if playouts is None and seconds is None:
        raise ValueError("give playouts, seconds or both: MCTS needs a limit")
    if seconds is not None and not _as_float(seconds) < math.inf:
        if playouts is None:
            raise ValueError(f"seconds={reprlib.repr(seconds)} with playouts=None would never stop: "
                             "give playouts, or a finite number of seconds")
        seconds = None  # no time limit: the playouts stop the search
    if isinstance(c, bool) or not isinstance(c, numbers.Real):
        raise TypeError(f"c must be a number >= 0 (UCB1's exploration constant), got {c!r}")
    if not 0 <= _as_float(c) < math.inf:
        raise ValueError(f"c must be a number >= 0 and finite (UCB1's exploration constant), "
                         f"got {reprlib.repr(c)}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (numbers.Integral, str))):
        raise TypeError(f"seed must be None, an int or a str, got {seed!r}")
    return seconds, (int(seed) if isinstance(seed, numbers.Integral) else seed)


def _as_float(x):
    """A real number as a float: NaN stays NaN, a number too large for a float is infinite."""
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def mcts(tree_or_game, state=None, *, playouts=1000, seconds=None, c=SQRT2, seed=None, trace=None,
         graph=True) -> MCTSResult:
    """Monte Carlo tree search (UCT) from a tree's root or a game position.

    Parameters
    ----------
    tree_or_game : networkx.DiGraph or Game
        A game tree (see :mod:`gametrees.trees`; a playout picks uniformly
        among a node's children down to a leaf, chance children by their
        ``prob``) or a game of the package (or one following its protocol).
    state : optional
        The start (a node id on a tree); default the root / ``game.initial``.
        It must not be finished.
    playouts : int or None, default 1000
        Stop after this many playouts (``None``: give ``seconds``).
    seconds : float, optional
        Stop when this much time has passed (with ``playouts``, whichever
        comes first; nothing is prepared by ``playouts`` in advance, so
        ``playouts=2**63, seconds=0.5`` stops after half a second). The
        clock is read between playouts, and there is always at least one.
        Timed searches are not exactly repeatable. ``math.inf`` sets no time
        limit, so it needs ``playouts``.
    c : float, default sqrt(2)
        UCB1's exploration constant: larger explores more. It weighs the
        results' scale: sqrt(2) is UCB1's for results between 0 and 1 (Auer
        et al., 2002); for results spread over a range of width w the same
        balance needs sqrt(2) * w (2 * sqrt(2) for results of -1, 0, +1).
    seed : int or str, optional
        Seed of the random playouts (a numpy integer too); the same seed
        gives the same search, traced or not.
    trace : bool, optional
        Record the four steps of every playout (``result.trace``, what
        ``gt.replay`` steps through). A traced playout keeps 2-5 KB
        (``benchmarks/mcts_memory.py``), so the default (``None``) traces
        a search of at most ``TRACED_PLAYOUTS`` (10,000) playouts and no
        other (nor a search with ``playouts=None``); ``trace=True`` traces
        any search, ``trace=False`` none. An untraced search is up to 2.5
        times faster (``benchmarks/mcts_speed.py``).
    graph : bool, default True
        Keep the grown tree (``result.graph``).

    Returns
    -------
    MCTSResult
        A :class:`~gametrees.search.SearchResult` (see :class:`MCTSResult`).

    Raises
    ------
    TypeError
        An option of the wrong type (``playouts=2.5``, ``seed=1.5``,
        ``trace="yes"``), a utility or a probability that is not a number
        (a bool included).
    ValueError
        ``playouts`` below 1, ``c`` negative, NaN, infinite or too large for
        a float, ``seconds`` not positive, ``seconds=math.inf`` with
        ``playouts=None`` (nothing would stop the search), a finished start
        (a tree that is a single leaf), a start state that is not a node of
        the tree, a utility that is not a finite number, a state that is
        not finished but has no moves, a playout that goes on for more
        than 2,000 plies (``MAX_PLIES``: a game that never ends), a node
        of the tree with two parents (MCTS searches trees, not DAGs such
        as ``gt.expand(game, merge=True)``: it refuses them, naming the
        node), a game's ``chances`` that are not a probability distribution
        over the state's moves (negative, NaN, summing to other than 1, an
        outcome missing, unknown or given twice).

    Notes
    -----
    At a chance start the outcome is drawn, not chosen: ``result.move`` is
    ``None``, as in :func:`gametrees.expectimax`.

    Examples
    --------
    >>> import gametrees as gt
    >>> r = gt.mcts(gt.TicTacToe(), gt.TicTacToe.from_string("XX./OO./..."), playouts=300, seed=1)
    >>> r.move, r.stats["playouts"], r.graph.nodes[()]["visits"]
    (2, 300, 300)
    >>> r.value > 0.5       # X wins most playouts: the root's mean is near +1
    True
    """
    t0 = perf_counter()  # the time limit counts from here
    seconds, seed = check_mcts_options(playouts, seconds, c, seed)
    if trace is None:
        trace = playouts is not None and playouts <= TRACED_PLAYOUTS
    for name, flag in (("trace", trace), ("graph", graph)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be True or False, got {flag!r}")
    game = as_game(tree_or_game)
    is_tree = isinstance(game, TreeGame)
    state = _start(game, state, is_tree)
    names = game.labels.__getitem__ if is_tree else PositionNames(game, state)
    base = game.snapshot().graph() if is_tree and graph else None
    rng = random_module.Random(seed)
    deadline = None if seconds is None else t0 + seconds
    # Many small objects (nodes, events), few of them garbage: the cyclic collector
    # would scan them again and again, so it is paused during the search.
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        root, events, positions, done, grown, deepest = _search(game, state, playouts, deadline, c, rng,
                                                                trace, is_tree, names, graph)
    finally:
        if paused:
            _resume_collector()
    seconds_taken = perf_counter() - t0
    move = _most_visited_move(root, game, state, is_tree)
    stats = {"playouts": done, "tree_nodes": grown, "positions": positions,
             "depth_reached": deepest, "nodes_visited": positions, "leaves_evaluated": done,
             "cutoffs": 0, "tt_hits": 0, "estimates": 0}
    return MCTSResult(root.mean(), move, stats, events, seconds_taken, root, is_tree, base, graph, c, names,
                      game.to_move)


def _resume_collector():
    """Turn the cyclic garbage collector back on, what the search made counted as old.

    The search made many objects that outlive it (the grown tree, the trace) and no garbage cycle (the
    tree has none). Left young, they would all be scanned by the next collection of the youngest
    generation (on tic-tac-toe a fifth of a traced search's time, benchmarks/mcts_speed.py) and again by
    one of the middle generation; moved to the oldest (``gc.freeze`` then ``gc.unfreeze``) they are
    scanned by full collections only, as any long-lived data. The program's other young objects move
    with them (a garbage cycle among them waits for a full collection). Not done when the program has
    frozen objects of its own: ``gc.unfreeze`` would release them too.
    """
    if not gc.get_freeze_count():
        gc.freeze()
        gc.unfreeze()
    gc.enable()


def _start(game, state, is_tree):
    """The start checked (default the root / ``game.initial``): a node of the tree or a valid state of the
    game, not finished; on a tree no node below it with two parents."""
    if state is None:
        state = game.initial
    elif is_tree:
        try:
            known = state in game.graph
        except TypeError:
            known = False
        if not known:
            raise ValueError(f"start node {state!r} is not a node of the tree")
    elif callable(getattr(game, "check_state", None)):
        game.check_state(state)
    if game.is_terminal(state):
        if is_tree and state == game.initial:
            raise ValueError(
                f"the tree is a single leaf (the root {state!r} has no children): MCTS needs a move to "
                "choose; give a tree whose root has children")
        raise ValueError(f"the start {'node' if is_tree else 'state'} {state!r} is finished (a terminal "
                         "position): there is no move to search for")
    if is_tree:
        _refuse_shared_nodes(game, state)
    return state


def _most_visited_move(root, game, state, is_tree):
    """The move to play: the root's most visited child (the first of equals); None at a chance start,
    where the outcome is drawn, not chosen (as in expectimax). On a tree, the edge's move label."""
    kids = [k for k in root.children or () if k.added]
    best = max(kids, key=lambda k: k.visits) if kids else None
    move = None if best is None or root.player == CHANCE else best.move
    if is_tree and move is not None:
        move = game.move_label(state, move)
    return move


def _refuse_shared_nodes(game, start):
    """Raise if a node below ``start`` has two parents there (a DAG): MCTS grows a tree."""
    G = game.graph
    below = G if start == game.initial else nx.descendants(G, start) | {start}
    for n in below:
        if G.in_degree(n) > 1:
            parents = [p for p in G.predecessors(n) if p in below]
            if len(parents) > 1:
                label = game.labels[n]
                name = repr(n) if label == n else f"{label} ({n!r})"
                raise ValueError(
                    f"mcts: node {name} has two parents, {parents[0]!r} and {parents[1]!r}: MCTS grows a "
                    "tree in which each node has one parent and its own visit count, so it searches "
                    "trees, not graphs with shared nodes; give the game itself, or a tree without "
                    "merged positions (gt.expand(game, merge=False))")


def _refuse_overflow(root):
    """Raise if a node's sum of results overflowed to infinity (utilities near 1e308)."""
    todo = [root]
    while todo:
        node = todo.pop()
        if not -math.inf < node.total < math.inf:
            raise ValueError(
                f"MCTS adds up the results of its playouts, and at {reprlib.repr(node.state)} their sum "
                "is too large for a float: scale the utilities down (e.g. to +1 / 0 / -1)")
        todo.extend(node.children or ())


def _search(game, state, playouts, deadline, c, rng, tracing, is_tree, names, keep_ids):
    """The playouts: (root, events or None, positions visited, playouts done, nodes grown, depth grown).

    Each playout runs four phases, the numbered steps of the loop at the end: 1. selection (the closure
    ``select``), 2. expansion (written in the loop), 3. playout (the closure ``play_out``) and 4. backup
    (written in the loop: expansion and backup are a few lines each, and a call per playout would cost
    ~2% of an untraced search; benchmarks/mcts_speed.py). A traced search (``tracing``) records each
    phase as it ends through a :class:`~gametrees.trace.Recorder`; the select records carry every
    child's UCB1 score as :func:`~gametrees.rules.ucb1_select` computed it, and its visits and total as
    the node's lists ``child_visits`` and ``child_totals`` hold them (kept beside the children's own
    counts, so that a record copies a list rather than reading every child).

    A node's ``player`` is looked up when it is first left (its children are made then); tracing
    looks it up at once for the expansion's sentence.
    """
    successors, is_terminal, utility, to_move = game.successors, game.is_terminal, game.utility, game.to_move
    chances = game.chances if trusts_chances(game) else _checked(game.chances, successors)
    random = rng.random
    ids = tracing or keep_ids  # give nodes their ids (traced, or the graph is kept)
    may_draw = _has_chance(game, is_tree)
    root = _Node(state, None, None, False, _player(to_move, state), state if is_tree else ())
    root.added = added = 1  # (nodes in the tree)
    positions = 0
    deepest = 1
    huge = False  # a result beyond SAFE_RESULT: sums may overflow (checked at the end)
    if tracing:
        rec = Recorder(names)
        events, record_select, record_expand = rec.log, rec.select, rec.expand
        record_playout, record_backup = rec.playout, rec.backup
    else:
        events = None

    # 1. Selection -----------------------------------------------------------------------------------
    def select(done):
        """The path from the root down the tree while every child is in it: UCB1 picks the child (a chance
        node draws it). It ends at a finished game, at a node with a move not yet in the tree, or at a
        chance outcome drawn for the first time (not yet in the tree)."""
        node = root
        path = [node]
        while not node.terminal:
            children = node.children
            if children is None:
                children = first_left(node)
            if node.probs is not None:  # a chance node: the outcome is drawn
                child = children[_drawn(node.probs, random())]
                path.append(child)
                if not child.added:
                    break
                if tracing:
                    cum = node.probs
                    probs = tuple([cum[j] - (cum[j - 1] if j else 0.0) for j in range(len(cum))])
                    record_select(node.id, node.parent_id,
                                  len(path) - 2, CHANCE, node.visits, node.state,
                                  done, child.id, node.kids, tuple(node.child_visits),
                                  tuple(node.child_totals), None, probs)
            elif node.pending is not None:  # a move not yet in the tree
                break
            elif tracing:
                scores = []
                child = ucb1_select(children, node.visits, c, node.sign, scores)
                if node.kids is None:
                    node.kids = tuple([k.id for k in children])
                record_select(node.id, node.parent_id,
                              len(path) - 1, node.player, node.visits, node.state,
                              done, child.id, node.kids, tuple(node.child_visits),
                              tuple(node.child_totals), c, tuple(scores))
                path.append(child)
            else:
                child = ucb1_select(children, node.visits, c, node.sign)
                path.append(child)
            node = child
        return path

    def first_left(node):
        """Make ``node``'s children (a chance node's all, with their probabilities) as it is first left;
        they are returned (none yet at a MAX or MIN node)."""
        if node.player is None:
            node.player = _player(to_move, node.state)
        if node.player == CHANCE:
            node.children = _children(node, successors, is_terminal, is_tree, ids)
            node.probs = _cumulative(node, chances)
            if tracing:
                node.kids = tuple([k.id for k in node.children])
                for i, child in enumerate(node.children):
                    child.index = i
                node.child_visits, node.child_totals = [0] * len(node.children), [0.0] * len(node.children)
        else:  # MAX/MIN children are made as they join the tree
            node.sign = 1.0 if node.player == MAX else -1.0
            node.pending = successors(node.state)
            if not node.pending:
                raise no_moves_error("mcts", f"state {node.state!r}")
            node.children = []
            if tracing:
                node.child_visits, node.child_totals = [], []
        return node.children

    # 3. Playout (the loop below runs the four steps) -------------------------------------------------
    def play_out(node, depth, done):
        """The result of uniform random moves from ``node``, ``depth`` nodes down the path (chance outcomes by
        their probability), to the end of the game, at most MAX_PLIES below the start (a game that never
        ends is an error, not a hang)."""
        nonlocal positions, deepest, huge
        if depth > deepest:
            deepest = depth
        s, ply = node.state, depth - 1
        if tracing:
            walk = []
            s, ply = _walk(s, ply, successors, is_terminal, to_move if may_draw else None, chances, random,
                           walk.append)
        elif may_draw:
            s, ply = _walk(s, ply, successors, is_terminal, to_move, chances, random, None)
        else:  # no chance anywhere: the plainest loop (most of the time goes here)
            kids = None
            try:
                start = ply
                for ply in range(start, MAX_PLIES):  # noqa: B007 (ply: that of s, read after the loop)
                    if is_terminal(s):
                        break
                    kids = successors(s)
                    s = kids[int(random() * len(kids))][1]
                else:
                    if not is_terminal(s):
                        _endless(s)
                    ply = max(start, MAX_PLIES)
            except IndexError:
                _no_moves(kids, s)
        positions += ply + 1  # the path's nodes and the playout's
        result = utility(s)
        cls = result.__class__
        if not ((cls is int or cls is float) and -SAFE_RESULT <= result <= SAFE_RESULT):
            result = _usable_result(result, s)  # a numpy number as a float; else an error naming s
            huge = huge or not -SAFE_RESULT <= result <= SAFE_RESULT
        if tracing:
            walk = tuple(walk)
            record_playout(node.id, node.parent_id, depth - 1, node.player, result, s, done,
                           walk if is_tree else None, walk)
        return result

    # The playouts, each in the four steps numbered below.
    limit = playouts if playouts is not None else math.inf
    done = 0
    while done < limit and (deadline is None or not done or perf_counter() < deadline):
        done += 1
        # 1. Selection -------------------------------------------------------------------------------
        path = select(done)
        # 2. Expansion: the first move of the last node on the path not yet in the tree joins it (and the
        # path), or a chance outcome drawn for the first time does; at a finished game nothing does, and the
        # playout starts there.
        node = path[-1]
        if node.pending is not None:
            parent, pending, tried = node, node.pending, len(node.children)
            if tried + 1 == len(pending):  # the last of them
                parent.pending = None
            move, child_state = pending[tried]
            node = _Node(child_state, move, parent.id, is_terminal(child_state), None,
                         (child_state if is_tree else parent.id + (move,)) if ids else None)
            parent.children.append(node)
            path.append(node)
            added += 1
            node.added = added
            if tracing:
                node.index = tried
                parent.child_visits.append(0)
                parent.child_totals.append(0.0)
                record_expand(node.id, parent.id, len(path) - 1, _who(node, to_move), node.state, done, True,
                              parent.player)
        elif not node.added:  # a chance outcome drawn for the first time
            added += 1
            node.added = added
            if tracing:
                record_expand(node.id, node.parent_id, len(path) - 1, _who(node, to_move), node.state, done,
                              True, CHANCE)
        elif tracing:  # a finished game, already in the tree
            record_expand(node.id, node.parent_id, len(path) - 1, None, node.state, done,
                          False, None)
        # 3. Playout -----------------------------------------------------------------------------------
        result = play_out(node, len(path), done)
        # 4. Backup: every node on the path counts the visit and the result (for MAX) ----------------------
        for n in path:
            n.visits += 1
            n.total += result
        if tracing:
            parent = root
            for n in path[1:]:  # and in its parent's lists (the same sums: the same additions in order)
                i = n.index
                parent.child_visits[i] += 1
                parent.child_totals[i] += result
                parent = n
            rows = tuple([(n.id, n.visits, n.total / n.visits) for n in reversed(path)])
            record_backup(node.id, node.parent_id, len(path) - 1, node.player, result,
                          node.state, done, rows)
    if huge:
        _refuse_overflow(root)
    return root, events, positions, done, added, deepest - 1


def _drawn(cumulative, r):
    """The index of the outcome a uniform ``r`` in [0, 1) draws, by the cumulative probabilities."""
    i, last = 0, len(cumulative) - 1
    while i < last and r >= cumulative[i]:
        i += 1
    return i


def _walk(s, ply, successors, is_terminal, to_move, chances, random, keep):
    """``(finished state, its ply)`` after uniform random moves from ``s`` at ``ply`` (chance outcomes by
    their probability), each move passed to ``keep`` unless it is None; at most MAX_PLIES. ``to_move``
    None: no chance state can come (whose turn it is is not asked)."""
    kids = None
    try:
        while not is_terminal(s):
            ply += 1
            if ply > MAX_PLIES:
                _endless(s)
            kids = successors(s)
            if to_move is not None and to_move(s) == CHANCE:
                m, s = _draw(chances(s), kids, random)
            else:
                m, s = kids[int(random() * len(kids))]
            if keep is not None:
                keep(m)
    except IndexError:
        _no_moves(kids, s)
    return s, ply


def _no_moves(kids, s):
    """Raise the error of a playout's IndexError: a state that goes on without moves, or the game's own."""
    if kids is not None and not len(kids):
        raise no_moves_error("mcts", f"state {s!r}") from None
    raise


def _endless(state):
    """Raise the ValueError of a playout that found no end within MAX_PLIES."""
    raise ValueError(
        f"mcts: a playout went {MAX_PLIES:,} plies below the start without the game ending (is_terminal "
        f"never returned True; the last state: {reprlib.repr(state)}): MCTS plays every playout to the end "
        f"of the game, so a game must end within {MAX_PLIES:,} plies; for a longer game search with a depth "
        "limit and an evaluation (gt.alphabeta(..., depth=...))"
    )


def _has_chance(game, is_tree):
    """Can a playout meet a chance state? (If not, playouts skip asking whose turn it is.)"""
    if is_tree:
        return any(p == CHANCE for p in game.players.values())
    return type(game).chances is not Game.chances


def _who(node, to_move):
    """Who moves at ``node`` (looked up now, for the trace); None at a finished game."""
    if node.terminal:
        return None
    if node.player is None:
        node.player = _player(to_move, node.state)
    return node.player


def _player(to_move, state):
    player = to_move(state)
    if player not in (MAX, MIN, CHANCE):
        raise ValueError(f"to_move({state!r}) returned {player!r}: expected 'max', 'min' or 'chance'")
    return player


def _children(node, successors, is_terminal, is_tree, ids):
    nid = node.id
    if not ids:
        return [_Node(child, move, nid, is_terminal(child), None, None)
                for move, child in successors(node.state)]
    if is_tree:
        return [_Node(child, move, nid, is_terminal(child), None, child)
                for move, child in successors(node.state)]
    return [_Node(child, move, nid, is_terminal(child), None, nid + (move,))
            for move, child in successors(node.state)]


def _cumulative(node, chances):
    """A chance node's cumulative probabilities in child order (the last possible outcome at 1.0)."""
    probs = dict(chances(node.state))
    total, cum = 0.0, []
    for child in node.children:
        total += probs[child.move]
        cum.append(total)
    last = max(i for i, child in enumerate(node.children) if probs[child.move] > 0)
    for i in range(last, len(cum)):  # rounding never draws an impossible outcome
        cum[i] = 1.0
    return cum


def _draw(outcomes, kids, random):
    """A chance outcome ``(move, state)`` drawn by its probability."""
    r = random()
    total = 0.0
    by_move = dict(kids)
    last = None
    for m, p in outcomes:
        total += p
        if p > 0:
            last = m
        if r < total:
            return m, by_move[m]
    return last, by_move[last]


def _checked(chances, successors):
    """``chances`` of a game not known to the package, checked at every call (see check_chances)."""
    def checked(state):
        moves = [m for m, _ in successors(state)]
        if not moves:
            raise no_moves_error("mcts", f"chance state {state!r}")
        return list(check_chances(chances(state), moves, f"mcts: chance state {state!r}").items())

    return checked


def _usable_result(result, state):
    """A playout's result as a finite float (a numpy number ...), or raise naming it and the state."""
    problem = number_problem(result)
    if problem is None:
        value = float(result)
        if -math.inf < value < math.inf:
            return value
        problem = ValueError, repr(result)
    error, text = problem
    raise error(
        f"MCTS averages the results of its playouts, so utility must return a finite number; "
        f"it returned {text} for state {reprlib.repr(state)}"
    )
