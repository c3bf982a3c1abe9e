"""The tree as a game: :class:`TreeGame` (states are node ids) and :func:`as_game`.

Every search algorithm is written once, against the game protocol
(:mod:`gametrees.games`); :class:`TreeGame` lets it run on a game tree that
follows the schema (:mod:`gametrees.trees.schema`), so each algorithm exists
once for games and trees alike.
"""

from __future__ import annotations

import networkx as nx

from ..games import CHANCE, Game
from .schema import validate_tree

__all__ = ["TreeGame", "as_game"]


class TreeGame(Game):
    """An explicit game tree seen as a game: states are node ids.

    Every search algorithm is written once, against the game protocol; this
    adapter lets it run on textbook trees. A move is the id of the child it
    leads to; :meth:`move_label` gives the edge's ``move`` attribute when it
    has one.

    The game is the tree as it was when the TreeGame was made: its
    structure, players, utilities, labels and probabilities are copied then,
    so editing the graph afterwards does not change the game (make a new
    TreeGame, or pass the graph to the search, which makes one each time).

    Examples
    --------
    >>> from gametrees.trees import tree_from_nested
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
        self._chances = {}
        self._given_probs = set()  # chance nodes whose edges carry 'prob' (else uniform)
        for n, player in self._player.items():
            if player == CHANCE:
                kids = succ[n]
                if "prob" in next(iter(kids.values())):
                    self._chances[n] = [(c, kids[c]["prob"]) for c in kids]
                    self._given_probs.add(n)
                else:
                    self._chances[n] = [(c, 1 / len(kids)) for c in kids]
        # Does the graph hold only what the game copied (label, player, utility,
        # prob)? Then a snapshot need copy nothing (see snapshot()).
        self._unlabelled = frozenset(n for n in G if "label" not in nodes[n])
        self._plain = (all(attrs.keys() <= _GAME_NODE_KEYS for attrs in G._node.values())
                       and all(attrs.keys() <= _GAME_EDGE_KEYS
                               for nbrs in succ.values() for attrs in nbrs.values()))
        self._key = None
        self._shape = None

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
        try:
            return list(self._chances[state])
        except (KeyError, TypeError):
            raise ValueError(f"node {state!r} is not a chance node") from None

    def snapshot(self):
        """The tree as it is now, to rebuild as a graph later (``.graph()``).

        The searches take one when they record the tree (``result.graph``), so
        that editing the graph afterwards does not change what the result
        shows. Cheap: the structure, labels, players, utilities and
        probabilities are the game's own (fixed when the TreeGame was made);
        only a graph with other attributes (``state``, edge ``move`` ...) has
        its node and edge attributes copied now.

        >>> from gametrees.trees import tree_from_nested
        >>> G = tree_from_nested([[3, 12], [2, 4]])
        >>> shot = TreeGame(G).snapshot()
        >>> G.nodes[(0, 0)]["utility"] = 100; G.remove_node((1, 1))
        >>> H = shot.graph()
        >>> H.nodes[(0, 0)]["utility"], (1, 1) in H, H.graph["root"]
        (3, True, ())
        """
        return _TreeSnapshot(self)

    def _graph_shape(self):
        """The tree's structure (and attributes) to build DiGraphs from in bulk, made once."""
        if self._shape is None:
            self._shape = _Shape(self)
        return self._shape

    @property
    def table_key(self):
        """A key equal for TreeGames of equal trees, different for different trees.

        Equal means the same root, nodes, children in the same order, players,
        utilities (estimates too) and probabilities; labels and move names do
        not count. The searches keep the entries of a transposition table
        apart by this key, so a table reused on another tree never answers
        with the first tree's values.

        >>> from gametrees.trees import tree_from_nested
        >>> a = TreeGame(tree_from_nested([[1, 1], [1, 1]]))
        >>> a.table_key == TreeGame(tree_from_nested([[1, 1], [1, 1]])).table_key
        True
        >>> a.table_key == TreeGame(tree_from_nested([[5, 6], [7, 8]])).table_key
        False
        """
        if self._key is None:
            player, utility, chances = self._player.get, self._utility.get, self._chances.get
            self._key = _TreeKey((self.initial, tuple(
                (n, player(n), utility(n), tuple([c for c, _ in kids]),
                 tuple([p for _, p in chances(n, ())]))
                for n, kids in self._succ.items())))
        return self._key

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


#: The node and edge attributes a TreeGame copies when it is made.
_GAME_NODE_KEYS = frozenset(("label", "player", "utility"))
_GAME_EDGE_KEYS = frozenset(("prob",))


class _TreeSnapshot:
    """A TreeGame's graph attributes at one moment; :meth:`graph` rebuilds the DiGraph."""

    __slots__ = ("game", "graph_attrs", "nodes", "edges", "_attrs")

    def __init__(self, game):
        G = game.graph
        self.game = game
        self.graph_attrs = dict(G.graph)
        self._attrs = None
        if game._plain:  # everything is in the game already
            self.nodes = self.edges = None
            return
        self.nodes = {n: attrs.copy() for n, attrs in G._node.items()}
        self.edges = {(u, v): attrs.copy() for u, nbrs in G._succ.items()
                      for v, attrs in nbrs.items() if attrs}

    def graph(self, unvisited=False):
        """A new DiGraph of the tree as it was (the game's structure, the copied attributes); its index
        of predecessors is built when first used (:class:`_TreeGraph`).

        With ``unvisited``, every node also has ``status="unvisited"`` and every edge
        ``best=False`` (where an annotation of a search starts).

        The graph's dicts are made in bulk, copying its attribute dicts (made once per
        snapshot, or once per game when the tree holds only what the game copied) and the tree's
        shape (made once per game): a search's ``result.graph`` builds one per call.
        """
        game = self.game
        shape = game._graph_shape()
        if self._attrs is None:
            self._attrs = shape.attrs if self.nodes is None else {}
        if unvisited not in self._attrs:  # made when first asked for
            self._attrs[unvisited] = _attributes(game, self.nodes, self.edges, unvisited)
        node_attrs, edge_attrs = self._attrs[unvisited]
        edges = list(map(dict.copy, edge_attrs))  # parent by parent, each parent's children in order
        H = _TreeGraph()
        H.graph.update(self.graph_attrs)
        H.graph["root"] = game.initial
        H._pred = None  # built when first read (_TreeGraph)
        # Each outer dict a copy of one keyed by the nodes already (no growing table), its values replaced.
        H._node = _keyed(shape.index, map(dict.copy, node_attrs))
        H._succ = _keyed(shape.index, _filled(shape.children, edges))
        return H


class _PredecessorsOnDemand:
    """The ``_pred`` of a :class:`_TreeGraph` (networkx's index of predecessors): built from ``_succ``
    when first read, or as set (setting it resets the graph's cached views, as networkx's own does)."""

    _NX = getattr(nx.DiGraph.__dict__.get("_pred"), "__set__", None)  # networkx's setter, if it has one

    def __get__(self, G, owner=None):
        if G is None:
            return self
        pred = G.__dict__.get("_pred")
        if pred is None:
            succ = G._succ
            pred = dict.fromkeys(succ)
            for n in pred:
                pred[n] = {}
            for u, nbrs in succ.items():  # in the order of the nodes, as add_edge would have made it
                for v, attrs in nbrs.items():
                    pred[v][u] = attrs  # the same dict as the successor's
            G.__dict__["_pred"] = pred
        return pred

    def __set__(self, G, value):
        if self._NX is not None:
            self._NX(G, value)
        else:
            G.__dict__["_pred"] = value


class _TreeGraph(nx.DiGraph):
    """A networkx DiGraph whose index of predecessors (``G.pred``, ``G.predecessors(n)``,
    ``G.in_edges``, ``G.in_degree``) is built when first used, from its successors.

    A search's annotated graph is one (``result.graph``): most readers never ask a node's parent,
    and building the index costs a quarter of the graph. Everything else is networkx's own. It is
    safe with networkx because networkx reads ``G._pred`` for every use of the predecessors (this
    class builds it then) and every method that changes the graph is networkx's: those that change
    the successors before they first read the predecessors (``remove_edge``, ``remove_edges_from``)
    build the index first here, and so do the others, to be safe; a copy (``G.copy()``,
    ``copy.copy``, ``copy.deepcopy``), a pickle and a view (``G.subgraph``, ``nx.reverse_view``)
    hold or read the index as networkx made it. ``tests/test_graph_routes.py`` checks each of these
    against a plain DiGraph.
    """

    _pred = _PredecessorsOnDemand()

    def __getstate__(self):
        self._pred  # noqa: B018  (built, so that copies and pickles share it as a DiGraph's do)
        return self.__dict__


def _building_predecessors_first(name):
    method = getattr(nx.DiGraph, name)

    def changes(self, *args, **kwargs):
        self._pred  # noqa: B018  (built from the successors before they change)
        return method(self, *args, **kwargs)

    changes.__name__, changes.__qualname__, changes.__doc__ = name, f"_TreeGraph.{name}", method.__doc__
    return changes


for _name in ("add_node", "add_nodes_from", "remove_node", "remove_nodes_from", "add_edge",
              "add_edges_from", "add_weighted_edges_from", "remove_edge", "remove_edges_from", "update",
              "clear", "clear_edges"):
    setattr(_TreeGraph, _name, _building_predecessors_first(_name))
del _name


def _keyed(index, values):
    """A copy of the dict ``index``, its values ``values`` in turn."""
    out = index.copy()
    out.update(zip(index, values))
    return out


def _filled(keyed, values):
    """Copies of the dicts ``keyed``, their values taken in turn from ``values`` (a copy keeps the
    table of its keys, so the values are replaced in place, the table never grown)."""
    dicts = list(map(dict.copy, keyed))
    take = iter(values).__next__
    for d in dicts:
        for k in d:
            d[k] = take()
    return dicts


class _Shape:
    """A tree's structure in the order of its nodes, to build its DiGraph in bulk.

    ``nodes``: the node ids (``index``: the same, as a dict's keys); ``children[i]``: node i's
    children as a dict (values ``None``) in the order of the edges. ``attrs``: the node and edge
    attributes when the tree holds only what the game copied (``{unvisited: them}``, see
    :func:`_attributes`).
    """

    __slots__ = ("nodes", "index", "children", "attrs")

    def __init__(self, game):
        kids_of = game._succ
        self.nodes = tuple(kids_of)
        self.index = dict.fromkeys(kids_of)
        self.children = [dict.fromkeys([c for c, _ in kids]) for kids in kids_of.values()]
        self.attrs = {}


def _attributes(game, nodes, edges, unvisited):
    """The attribute dicts of the tree's nodes (in the game's order) and edges (parent by parent).

    As the game read them: the snapshot's copies ``nodes`` and ``edges`` (``None`` when the tree
    holds only what the game copied), with the game's players, utilities, labels and
    probabilities; with ``unvisited``, also ``status="unvisited"`` on each node and ``best=False``
    on each edge (where :func:`gametrees.trace.annotate` starts).
    """
    kids_of = game._succ
    node_attrs = [{} for _ in kids_of] if nodes is None else [nodes.get(n, {}).copy() for n in kids_of]
    at = dict(zip(kids_of, node_attrs))
    # What the search read (the game's), should the graph have changed in between.
    for n, player in game._player.items():
        at[n]["player"] = player
    for n, value in game._utility.items():
        at[n]["utility"] = value
    if nodes is None:  # the labels, in the order of the nodes (both dicts were made node by node)
        unlabelled = game._unlabelled
        for (n, label), a in zip(game._labels.items(), node_attrs):
            if not unlabelled or n not in unlabelled:
                a["label"] = label
    edges = edges or {}
    edge_attrs, first = [], {}
    for u, kids in kids_of.items():
        first[u] = len(edge_attrs)
        edge_attrs.extend([edges.get((u, c), {}).copy() for c, _ in kids])
    for n in game._given_probs:
        for i, (_, p) in enumerate(game._chances[n], first[n]):
            edge_attrs[i]["prob"] = p
    if unvisited:
        for a in node_attrs:
            a["status"] = "unvisited"
        for a in edge_attrs:
            a["best"] = False
    return node_attrs, edge_attrs


class _TreeKey:
    """A tree's content as a dict key (its hash computed once)."""

    __slots__ = ("content", "hash")

    def __init__(self, content):
        self.content = content
        self.hash = hash(content)

    def __hash__(self):
        return self.hash

    def __eq__(self, other):
        return (isinstance(other, _TreeKey) and self.hash == other.hash
                and self.content == other.content)

    def __repr__(self):
        return f"<tree of {len(self.content[1])} nodes, root {self.content[0]!r}>"


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
