"""Game trees as networkx graphs: builders, validation, and the tree as a game.

A game tree is a :class:`networkx.DiGraph` that follows this schema (the
contract between every part of the package):

* graph attribute ``root``: the root's node id;
* inner nodes carry ``player`` = ``"max"``, ``"min"`` or ``"chance"``;
* leaves carry ``utility`` (a number, from MAX's point of view); an inner node
  may carry ``utility`` too, as the heuristic estimate a depth-limited search
  uses when it stops there;
* optional node ``label`` (display name) and ``state`` (a game state);
* optional edge ``move`` (display label) and, on the edges out of a chance
  node, ``prob`` (default: uniform).

Children are visited in insertion order (the order of ``G.successors(n)``).

The builders here make such graphs from nested lists
(:func:`tree_from_nested`), from a plain dict or JSON text
(:func:`tree_from_dict`), at random (:func:`random_tree`), or by expanding a
game (:func:`expand`). :class:`TreeGame` lets every search algorithm treat a
tree as a game whose states are node ids, so each algorithm exists once.

Imports: :mod:`gametrees.games` and networkx (never :mod:`gametrees.search`,
which is built on trees).
"""

from __future__ import annotations

import json
import math
import numbers
import random
from collections import deque
import networkx as nx

from .games import CHANCE, MAX, MIN, Game

PLAYERS = (MAX, MIN, CHANCE)

__all__ = [
    "TreeGame",
    "expand",
    "random_tree",
    "textbook_labels",
    "tree_from_dict",
    "tree_from_nested",
    "validate_tree",
]


# ----------------------------------------------------------------------------
# Validation
# ----------------------------------------------------------------------------


def _check_number(value, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{what} must be a number, got {value!r} ({type(value).__name__})")
    if math.isnan(value):
        raise ValueError(f"{what} must be a number, got NaN")


def validate_tree(G) -> None:
    """Check that ``G`` follows the game-tree schema; raise if it does not.

    Raises
    ------
    TypeError
        ``G`` is not a directed networkx graph, or a utility or probability
        is not a number.
    ValueError
        No ``root`` graph attribute, a root that is not a node or has a
        parent, a cycle, a node the root cannot reach, an unknown player,
        a leaf without a utility, or chance probabilities that are negative
        or do not sum to 1. The message names the node.

    Examples
    --------
    >>> G = tree_from_nested([[3, 12], [2, 4]])
    >>> validate_tree(G)
    >>> G.nodes[(0, 0)].pop("utility")
    3
    >>> validate_tree(G)
    Traceback (most recent call last):
    ...
    ValueError: leaf (0, 0) (label 'D') has no 'utility': every leaf needs a number from MAX's point of view
    """
    if not isinstance(G, nx.DiGraph) or isinstance(G, nx.MultiDiGraph):
        raise TypeError(
            f"a game tree must be a networkx.DiGraph, got {type(G).__name__}; "
            "build one with gt.tree_from_nested or gt.tree_from_dict"
        )
    if "root" not in G.graph:
        raise ValueError(
            "the tree has no 'root' graph attribute: set G.graph['root'] to the root's node id"
        )
    root = G.graph["root"]
    if root not in G:
        raise ValueError(f"the root {root!r} (G.graph['root']) is not a node of the tree")
    if G.in_degree(root):
        parents = list(G.predecessors(root))
        raise ValueError(f"the root {root!r} has a parent {parents[0]!r}: a root has none")
    if not nx.is_directed_acyclic_graph(G):
        cycle = nx.find_cycle(G)
        path = " -> ".join(repr(u) for u, _ in cycle) + f" -> {cycle[0][0]!r}"
        raise ValueError(f"the tree has a cycle: {path}; a game tree must be acyclic")
    reached = nx.descendants(G, root) | {root}
    if len(reached) != len(G):
        stray = next(n for n in G if n not in reached)
        raise ValueError(f"node {stray!r} cannot be reached from the root {root!r}")
    nodes = G.nodes
    for n in G:
        attrs = nodes[n]
        children = G._succ[n]
        if children:
            player = attrs.get("player")
            if player not in PLAYERS:
                raise ValueError(
                    f"inner node {_name(G, n)} has player {player!r}: expected 'max', 'min' or 'chance'"
                )
            if "utility" in attrs:
                _check_number(attrs["utility"], f"the estimate 'utility' of node {_name(G, n)}")
            if player == CHANCE:
                _check_probabilities(G, n)
        else:
            if "utility" not in attrs:
                raise ValueError(
                    f"leaf {_name(G, n)} has no 'utility': every leaf needs a number from MAX's point of view"
                )
            _check_number(attrs["utility"], f"the utility of leaf {_name(G, n)}")


def _check_probabilities(G, n) -> None:
    edges = G._succ[n]
    given = [c for c in edges if "prob" in edges[c]]
    if not given:
        return
    if len(given) != len(edges):
        missing = next(c for c in edges if "prob" not in edges[c])
        raise ValueError(
            f"chance node {_name(G, n)}: the edge to {missing!r} has no 'prob' while its siblings have one; "
            "give every outcome a probability, or none (uniform)"
        )
    total = 0.0
    for c in edges:
        p = edges[c]["prob"]
        _check_number(p, f"the probability of the edge {n!r} -> {c!r}")
        if p < 0:
            raise ValueError(f"the probability of the edge {n!r} -> {c!r} is {p}: expected 0 <= p <= 1")
        total += p
    if not math.isclose(total, 1.0, rel_tol=0, abs_tol=1e-9):
        raise ValueError(
            f"chance node {_name(G, n)}: outcome probabilities sum to {total:g}, expected 1"
        )


def _name(G, n) -> str:
    label = G.nodes[n].get("label")
    return f"{n!r} (label {label!r})" if label is not None and label != n else repr(n)


# ----------------------------------------------------------------------------
# Labels
# ----------------------------------------------------------------------------


def _letters(i: int) -> str:
    """0 -> 'A', 25 -> 'Z', 26 -> 'AA', like spreadsheet columns."""
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s


def textbook_labels(G) -> dict:
    """Labels A, B, C, ... for every node in breadth-first order from the root.

    Examples
    --------
    >>> G = tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    >>> textbook_labels(G)[(1,)]
    'C'
    """
    order = [G.graph["root"]] + [v for _, v in nx.bfs_edges(G, G.graph["root"])]
    return {n: _letters(i) for i, n in enumerate(order)}


# ----------------------------------------------------------------------------
# Builders
# ----------------------------------------------------------------------------


def _opponent(player: str) -> str:
    return MIN if player == MAX else MAX


def tree_from_nested(spec, root_player: str = "max") -> nx.DiGraph:
    """Build a game tree from nested lists.

    Numbers are leaves (their utility), lists are inner nodes, and players
    alternate MAX, MIN, MAX, ... from ``root_player`` down. Node ids are paths
    of child indices: ``()`` is the root, ``(1, 2)`` the third child of the
    second child. Labels are A, B, C, ... in breadth-first order.

    A dict makes one node with an explicit player:

    * ``{"chance": [sub, sub, ...], "p": [0.5, 0.5]}``: a chance node
      (``"p"`` optional: uniform);
    * ``{"max": [...]}`` or ``{"min": [...]}``: a MAX or MIN node;
    * an optional ``"label"`` key names the node.

    Below a chance node the turn passes on: its children belong to the
    opponent of the nearest MAX/MIN node above it (MAX under a chance root).

    Parameters
    ----------
    spec : list, number or dict
        The tree.
    root_player : {"max", "min", "chance"}
        Who moves at the root when ``spec`` is a list.

    Returns
    -------
    networkx.DiGraph

    Examples
    --------
    >>> G = tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    >>> G.graph["root"], G.nodes[()]["player"], G.nodes[(1,)]["player"]
    ((), 'max', 'min')
    >>> G.nodes[(1, 2)]["utility"], G.nodes[(1, 2)]["label"]
    (6, 'J')
    >>> D = tree_from_nested([{"chance": [3, [1, 5]], "p": [0.25, 0.75]}])
    >>> D.nodes[(0, 1)]["player"], D.edges[(0,), (0, 1)]["prob"]
    ('min', 0.75)
    """
    if root_player not in PLAYERS:
        raise ValueError(f"root_player must be 'max', 'min' or 'chance', got {root_player!r}")
    G = nx.DiGraph(root=())

    def build(node, sub, player, last_decider):
        if isinstance(sub, dict):
            keys = [k for k in sub if k in PLAYERS]
            extra = set(sub) - set(PLAYERS) - {"p", "label"}
            if len(keys) != 1 or extra:
                raise ValueError(
                    f"node {node!r}: a dict node needs exactly one of 'max', 'min', 'chance' "
                    f"(plus optional 'p' and 'label'), got keys {sorted(map(str, sub))}"
                )
            player = keys[0]
            children = sub[player]
            if not isinstance(children, (list, tuple)) or not children:
                raise ValueError(f"node {node!r}: {player!r} must map to a non-empty list of children")
            G.add_node(node, player=player)
            if "label" in sub:
                G.nodes[node]["label"] = sub["label"]
            probs = sub.get("p")
            if probs is not None:
                if player != CHANCE:
                    raise ValueError(f"node {node!r}: 'p' (probabilities) is only for chance nodes")
                if not isinstance(probs, (list, tuple)) or len(probs) != len(children):
                    raise ValueError(
                        f"chance node {node!r}: 'p' must list one probability per child "
                        f"({len(children)}), got {probs!r}"
                    )
            build_children(node, children, player, last_decider, probs)
        elif isinstance(sub, (list, tuple)):
            if not sub:
                raise ValueError(f"node {node!r} is an empty list: an inner node needs children")
            G.add_node(node, player=player)
            build_children(node, sub, player, last_decider, None)
        else:
            _check_number(sub, f"leaf {node!r}")
            G.add_node(node, utility=sub)

    def build_children(node, children, player, last_decider, probs):
        decider = last_decider if player == CHANCE else player
        nxt = MAX if decider is None else _opponent(decider)
        for i, child in enumerate(children):
            cid = node + (i,)
            G.add_edge(node, cid)
            if probs is not None:
                G.edges[node, cid]["prob"] = probs[i]
            build(cid, child, nxt, decider)

    build((), spec, root_player, None)
    for n, label in textbook_labels(G).items():
        G.nodes[n].setdefault("label", label)
    validate_tree(G)
    return G


def tree_from_dict(spec, root=None) -> nx.DiGraph:
    """Build a game tree of any shape from a dict (or its JSON text).

    Keys are node names (they become the node ids and labels). A value is
    either a number (a leaf's utility) or a dict with

    * ``"player"``: ``"max"``, ``"min"`` or ``"chance"`` (required on inner nodes);
    * ``"children"``: a list of node names, in visiting order;
    * ``"probs"``: for a chance node, one probability per child (optional: uniform);
    * ``"moves"``: optional move labels, one per child;
    * ``"utility"``: a leaf's utility, or an inner node's heuristic estimate;
    * ``"label"``: optional display name (default: the node's name).

    The root is ``root`` if given, else the one node that is no node's child.

    Examples
    --------
    >>> G = tree_from_dict({
    ...     "A": {"player": "max", "children": ["B", "C"], "moves": ["left", "right"]},
    ...     "B": {"player": "chance", "children": ["D", "E"], "probs": [0.9, 0.1]},
    ...     "C": 4, "D": 5, "E": -20,
    ... })
    >>> G.graph["root"], G.edges["A", "B"]["move"], G.edges["B", "E"]["prob"]
    ('A', 'left', 0.1)
    """
    if isinstance(spec, (str, bytes)):
        try:
            spec = json.loads(spec)
        except json.JSONDecodeError as exc:
            raise ValueError(f"the tree is not valid JSON: {exc}") from None
    if not isinstance(spec, dict) or not spec:
        raise TypeError(f"tree_from_dict expects a non-empty dict of nodes, got {type(spec).__name__}")
    G = nx.DiGraph()
    for name, node in spec.items():
        if isinstance(node, dict):
            unknown = set(node) - {"player", "children", "probs", "moves", "utility", "label"}
            if unknown:
                raise ValueError(f"node {name!r}: unknown keys {sorted(unknown)}")
            G.add_node(name, label=node.get("label", name))
            if "utility" in node:
                G.nodes[name]["utility"] = node["utility"]
            children = node.get("children", [])
            if not isinstance(children, (list, tuple)):
                raise TypeError(f"node {name!r}: 'children' must be a list of node names")
            if children:
                G.nodes[name]["player"] = node.get("player")
            for key in ("probs", "moves"):
                if key in node and (
                    not isinstance(node[key], (list, tuple)) or len(node[key]) != len(children)
                ):
                    raise ValueError(
                        f"node {name!r}: {key!r} must list one entry per child ({len(children)})"
                    )
            for i, child in enumerate(children):
                if child not in spec:
                    raise ValueError(f"node {name!r} has child {child!r}, which is not defined")
                if G.has_edge(name, child):
                    raise ValueError(f"node {name!r} lists child {child!r} twice")
                G.add_edge(name, child)
                if "probs" in node:
                    G.edges[name, child]["prob"] = node["probs"][i]
                if "moves" in node:
                    G.edges[name, child]["move"] = node["moves"][i]
        else:
            _check_number(node, f"leaf {name!r}")
            G.add_node(name, label=name, utility=node)
    if root is None:
        roots = [n for n in G if G.in_degree(n) == 0]
        if len(roots) != 1:
            raise ValueError(
                f"cannot tell the root: nodes without a parent are {roots!r}; pass root=..."
            )
        root = roots[0]
    G.graph["root"] = root
    validate_tree(G)
    return G


def random_tree(
    branching,
    depth: int,
    seed=None,
    values=(0, 20),
    ordering=None,
    root_player: str = "max",
    players=None,
) -> nx.DiGraph:
    """A random game tree with integer leaf values.

    Parameters
    ----------
    branching : int or (int, int)
        Children per inner node: a number for a uniform tree, or a range
        ``(lo, hi)`` (inclusive) drawn anew at each node for a ragged one.
    depth : int
        Depth of every leaf (0: the root is a leaf).
    seed : int, optional
        The same seed always gives the same tree.
    values : (int, int)
        Leaf values are drawn from ``lo..hi`` inclusive.
    ordering : {None, "best", "worst"}
        ``"best"`` sorts every node's children best first for the player to
        move: alpha-beta then examines exactly the Knuth-Moore minimal tree,
        b^ceil(d/2) + b^floor(d/2) - 1 leaves on a uniform tree. ``"worst"``
        arranges the leaves so that every node's children come worst first and
        no cutoff ever happens: alpha-beta examines all b^d leaves. With an
        ordering, leaf values are drawn without repeats when the range holds
        enough numbers (with ties the textbook rule can still prune a
        worst-ordered tree).
    root_player : {"max", "min", "chance"}
        Who moves at the root (players then alternate).
    players : sequence of str, optional
        The player of each level instead, cycled: e.g.
        ``("max", "chance", "min", "chance")`` for an expectiminimax tree.
        Chance nodes get uniform probabilities.

    Examples
    --------
    >>> G = random_tree(3, 2, seed=1)
    >>> sum(1 for n in G if G.out_degree(n) == 0)
    9
    >>> random_tree((1, 3), 3, seed=7).number_of_nodes() == random_tree((1, 3), 3, seed=7).number_of_nodes()
    True
    """
    if isinstance(branching, bool) or not isinstance(branching, (int, tuple, list)):
        raise TypeError(f"branching must be an int or a (lo, hi) pair, got {branching!r}")
    lo_b, hi_b = (branching, branching) if isinstance(branching, int) else tuple(branching)
    if not (isinstance(lo_b, int) and isinstance(hi_b, int)) or not 1 <= lo_b <= hi_b:
        raise ValueError(f"branching must be >= 1 (and lo <= hi for a range), got {branching!r}")
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise TypeError(f"depth must be an int, got {depth!r}")
    if depth < 0:
        raise ValueError(f"depth must be >= 0, got {depth}")
    try:
        lo_v, hi_v = values
    except (TypeError, ValueError):
        raise TypeError(f"values must be a (lo, hi) pair of ints, got {values!r}") from None
    if not (isinstance(lo_v, int) and isinstance(hi_v, int)) or lo_v > hi_v:
        raise ValueError(f"values must be a (lo, hi) pair of ints with lo <= hi, got {values!r}")
    if ordering not in (None, "best", "worst"):
        raise ValueError(f"ordering must be None, 'best' or 'worst', got {ordering!r}")
    if players is None:
        if root_player not in PLAYERS:
            raise ValueError(f"root_player must be 'max', 'min' or 'chance', got {root_player!r}")
        first = root_player if root_player != CHANCE else MAX
        level_players = None
    else:
        level_players = list(players)
        if not level_players or any(p not in PLAYERS for p in level_players):
            raise ValueError(f"players must be a non-empty sequence of 'max', 'min', 'chance', got {players!r}")
    if hi_b ** depth > 2_000_000:
        raise ValueError(
            f"a tree with branching {branching!r} and depth {depth} could have {hi_b ** depth:,} leaves; "
            "keep it under 2,000,000"
        )
    rng = random.Random(seed)

    def shape(level):
        if level == depth:
            return None
        return [shape(level + 1) for _ in range(rng.randint(lo_b, hi_b))]

    skeleton = shape(0)

    def count(s):
        return 1 if s is None else sum(count(c) for c in s)

    n_leaves = count(skeleton)
    span = range(lo_v, hi_v + 1)
    if ordering and len(span) >= n_leaves:
        drawn = rng.sample(span, n_leaves)
    else:
        drawn = [rng.randint(lo_v, hi_v) for _ in range(n_leaves)]

    def player_at(level):
        if level_players is not None:
            return level_players[level % len(level_players)]
        if root_player == CHANCE:
            return CHANCE if level == 0 else (MAX if level % 2 else MIN)
        return first if level % 2 == 0 else _opponent(first)

    if ordering == "worst":
        # Give every subtree a block of consecutive ranks: ascending blocks
        # under MAX, descending under MIN. Then every MIN node's value lies
        # above any alpha and every MAX node's below any beta that reaches
        # it, so no cutoff ever happens (sorting alone is not enough: a deep
        # MIN node can still fall below an alpha from far above).
        ranked = iter(sorted(drawn))

        def fill(s, level):
            if s is None:
                return next(ranked)
            player = player_at(level)
            kids = [None] * len(s)
            order = range(len(s)) if player != MIN else range(len(s) - 1, -1, -1)
            for i in order:
                kids[i] = fill(s[i], level + 1)
            return {player: kids}
    else:
        pool = iter(drawn)

        def fill(s, level):
            if s is None:
                return next(pool)
            return {player_at(level): [fill(c, level + 1) for c in s]}

    spec = fill(skeleton, 0)
    G = tree_from_nested(spec)
    if ordering == "best":
        G = tree_from_nested(_reorder(G, spec))
    return G


def _backed_up_values(G):
    """Every node's expectimax value, ``{node: value}``, on a whole tree.

    The same arithmetic as :func:`gametrees.search.expectimax` (MAX takes the
    first largest child value, MIN the first smallest, a chance node adds up
    probability times value from 0.0 in child order), written here so that
    trees need not import search, which is built on them.
    """
    T = TreeGame(G)
    values = {}

    def value(n):
        if T.is_terminal(n):
            v = T.utility(n)
        else:
            player = T.to_move(n)
            kids = T.successors(n)
            if player == CHANCE:
                probs = dict(T.chances(n))
                v = 0.0
                for m, c in kids:
                    v += probs[m] * value(c)
            else:
                is_max = player == MAX
                v = -math.inf if is_max else math.inf
                for _, c in kids:
                    cv = value(c)
                    if (cv > v) if is_max else (cv < v):
                        v = cv
        values[n] = v
        return v

    value(T.initial)
    return values


def _reorder(G, spec):
    """The nested spec with every node's children sorted best first for its player."""
    values = _backed_up_values(G)

    def sort(node, sub):
        if not isinstance(sub, dict):
            return sub
        (player,) = [k for k in sub if k in PLAYERS]
        kids = [(node + (i,), c) for i, c in enumerate(sub[player])]
        if player != CHANCE:
            kids.sort(key=lambda kc: values[kc[0]], reverse=(player == MAX))
        return {player: [sort(cid, c) for cid, c in kids]}

    return sort((), spec)


# ----------------------------------------------------------------------------
# Trees as games
# ----------------------------------------------------------------------------


class TreeGame(Game):
    """An explicit game tree seen as a game: states are node ids.

    Every search algorithm is written once, against the game protocol; this
    adapter lets it run on textbook trees. A move is the id of the child it
    leads to; :meth:`move_label` gives the edge's ``move`` attribute when it
    has one.

    Examples
    --------
    >>> T = TreeGame(tree_from_nested([[3, 12], [2, 4]]))
    >>> T.initial, T.to_move(()), T.actions(())
    ((), 'max', [(0,), (1,)])
    """

    def __init__(self, G):
        validate_tree(G)
        self.graph = G
        self.initial = G.graph["root"]
        nodes = G.nodes
        succ = G._succ
        self._succ = {n: [(c, c) for c in succ[n]] for n in G}
        self._player = {n: nodes[n].get("player") for n in G if succ[n]}
        self._utility = {n: nodes[n]["utility"] for n in G if "utility" in nodes[n]}
        self._labels = {n: nodes[n].get("label", n) for n in G}

    def to_move(self, state):
        try:
            return self._player[state]
        except KeyError:
            raise ValueError(f"node {state!r} is a leaf (or not in the tree): no one moves there") from None

    def actions(self, state):
        return [m for m, _ in self._node(state)]

    def result(self, state, move):
        if not any(m == move for m, _ in self._node(state)):
            raise ValueError(
                f"move {move!r} is not a child of node {state!r}; children: {self.actions(state)!r}"
            )
        return move

    def successors(self, state):
        try:
            return self._succ[state]
        except (KeyError, TypeError):
            raise ValueError(f"{state!r} is not a node of the tree") from None

    def is_terminal(self, state):
        try:
            return not self._succ[state]
        except (KeyError, TypeError):
            raise ValueError(f"{state!r} is not a node of the tree") from None

    def utility(self, state):
        if self._node(state):
            raise ValueError(f"node {state!r} is not a leaf")
        return self._utility[state]

    def estimate(self, state):
        """The heuristic estimate stored on an inner node (its ``utility``)."""
        try:
            return self._utility[state]
        except KeyError:
            raise ValueError(
                f"the search stops at node {self.label(state)!r} (depth limit) but it has no "
                "'utility' estimate: give the node one, or pass evaluate=..."
            ) from None

    def chances(self, state):
        kids = self.graph._succ[state]
        if self._player.get(state) != CHANCE:
            raise ValueError(f"node {state!r} is not a chance node")
        if kids and "prob" in next(iter(kids.values())):
            return [(c, kids[c]["prob"]) for c in kids]
        return [(c, 1 / len(kids)) for c in kids]

    @property
    def players(self):
        """``{node: role}`` for the inner nodes (read-only: do not change it)."""
        return self._player

    @property
    def labels(self):
        """``{node: display label}`` for every node (read-only: do not change it)."""
        return self._labels

    def label(self, state):
        """The node's display label (its ``label`` attribute, else its id)."""
        return self._labels[state]

    def move_label(self, state, move):
        """The edge's ``move`` attribute, else the child's node id."""
        return self.graph.edges[state, move].get("move", move)

    def display(self, state):
        return str(self.label(state))

    def _node(self, state):
        try:
            return self._succ[state]
        except (KeyError, TypeError):
            raise ValueError(f"{state!r} is not a node of the tree") from None


def as_game(tree_or_game):
    """A game for a game or a tree (a :class:`TreeGame` for a networkx graph)."""
    if isinstance(tree_or_game, nx.Graph):
        return TreeGame(tree_or_game)
    if isinstance(tree_or_game, Game) or all(
        hasattr(tree_or_game, a) for a in ("to_move", "is_terminal", "utility", "successors")
    ):
        return tree_or_game
    raise TypeError(
        f"expected a game tree (networkx.DiGraph) or a game, got {type(tree_or_game).__name__}"
    )


# ----------------------------------------------------------------------------
# Games make trees
# ----------------------------------------------------------------------------


def expand(game, state=None, depth=None, merge=False, evaluate=None, max_nodes=1_000_000):
    """The game tree of ``game`` from ``state`` as a networkx graph.

    Parameters
    ----------
    game : Game
    state : optional
        Start state (default ``game.initial``).
    depth : int, optional
        Expand this many plies; deeper positions are left out. A position at
        the depth limit that is not terminal gets ``utility = evaluate(state)``
        when ``evaluate`` is given (else only its ``player``).
    merge : bool
        Merge transpositions: one node per distinct state (node ids are then
        the states themselves), so the result is a DAG.
    max_nodes : int
        Refuse (ValueError) to build more nodes than this, instead of hanging.

    Returns
    -------
    networkx.DiGraph
        Node ids are tuples of moves from the start (``()`` is the start) or,
        with ``merge=True``, the states. Nodes carry ``state`` and ``player``
        or ``utility``; edges carry ``move`` (and ``prob`` below chance nodes).

    Examples
    --------
    >>> from gametrees.games import Nim
    >>> G = expand(Nim(3))
    >>> G.number_of_nodes(), G.nodes[(3,)]["utility"]
    (8, 1)
    """
    game = as_game(game)
    if state is None:
        state = game.initial
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
        raise ValueError(f"depth must be None or an int >= 0, got {depth!r}")
    G = nx.DiGraph()
    root = state if merge else ()
    G.graph["root"] = root
    queue = deque([(root, state, 0)])
    seen = {root}

    def add(node, st, ply):
        if len(G) >= max_nodes:
            raise ValueError(
                f"expanding the game reached max_nodes={max_nodes:,} nodes; "
                "pass a depth, merge=True or a larger max_nodes"
            )
        G.add_node(node, state=st)
        if game.is_terminal(st):
            G.nodes[node]["utility"] = game.utility(st)
        else:
            G.nodes[node]["player"] = game.to_move(st)
            if depth is not None and ply >= depth and evaluate is not None:
                G.nodes[node]["utility"] = evaluate(st)

    add(root, state, 0)
    while queue:
        node, st, ply = queue.popleft()
        if game.is_terminal(st) or (depth is not None and ply >= depth):
            continue
        probs = dict(game.chances(st)) if game.to_move(st) == CHANCE else None
        for move, child in game.successors(st):
            cid = child if merge else node + (move,)
            if cid not in seen:
                seen.add(cid)
                add(cid, child, ply + 1)
                queue.append((cid, child, ply + 1))
            G.add_edge(node, cid, move=move)
            if probs is not None:
                G.edges[node, cid]["prob"] = probs[move]
    return G
