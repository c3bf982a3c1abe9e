"""The builders of game trees: from nested lists, from a dict or JSON text, at random, from a game.

Each builder makes a graph that follows the schema of
:mod:`gametrees.trees.schema`: from nested lists (:func:`tree_from_nested`),
from a plain dict or JSON text (:func:`tree_from_dict`, reading the text with
:func:`read_json`), at random (:func:`random_tree`), or by expanding a game
(:func:`expand`). :func:`textbook_labels` names the nodes A, B, C, ... as
textbooks do.
"""

from __future__ import annotations

import json
import math
import random
import reprlib
import sys
from collections import deque

import networkx as nx

from ..games import CHANCE, MAX, MIN
from ..games.protocol import as_int
from .game import TreeGame, as_game
from .schema import MAX_PLIES, PLAYERS, check_number, deep_recursion, refuse_repeated_moves, validate_tree

__all__ = ["expand", "random_tree", "read_json", "textbook_labels", "tree_from_dict", "tree_from_nested"]

#: The most leaves :func:`random_tree` builds.
MAX_RANDOM_LEAVES = 2_000_000

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
      (``"p"`` optional: uniform; a list, tuple or numpy array);
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
    G, leaves = _build_nested(spec, root_player)
    for n, label in textbook_labels(G).items():
        G.nodes[n].setdefault("label", label)
    nodes = G.nodes
    for n in leaves:  # checked once the labels are known, so the message can name the node
        check_number(nodes[n]["utility"], f"leaf {n!r}", f" (node {nodes[n]['label']})")
    validate_tree(G)
    return G


def _build_nested(spec, root_player):
    """The graph of a nested-list ``spec``, unlabelled, and its leaves (their utilities not yet checked)."""
    G = nx.DiGraph(root=())
    leaves = []
    # Depth first, children in order, without recursion (a deep list must not
    # exhaust Python's stack): each entry makes the edge from its parent, then
    # the node, so nodes and edges are added in the same order as a recursion.
    todo = [(None, None, (), spec, root_player, None)]

    def build(node, sub, player, last_decider):
        if len(node) > MAX_PLIES:
            raise ValueError(
                f"the nested list is too deep: it goes more than {MAX_PLIES:,} levels down "
                f"(the limit: the searches recurse once per level, and stop at {MAX_PLIES:,})"
            )
        if isinstance(sub, dict):
            player, children, probs = _read_dict_node(node, sub)
            G.add_node(node, player=player)
            if "label" in sub:
                G.nodes[node]["label"] = sub["label"]
            build_children(node, children, player, last_decider, probs)
        elif isinstance(sub, (list, tuple)):
            if not sub:
                raise ValueError(f"node {node!r} is an empty list: an inner node needs children")
            G.add_node(node, player=player)
            build_children(node, sub, player, last_decider, None)
        else:
            G.add_node(node, utility=sub)
            leaves.append(node)

    def build_children(node, children, player, last_decider, probs):
        decider = last_decider if player == CHANCE else player
        nxt = MAX if decider is None else _opponent(decider)
        for i in range(len(children) - 1, -1, -1):
            todo.append((node, None if probs is None else probs[i], node + (i,), children[i], nxt, decider))

    while todo:
        parent, prob, node, sub, player, last_decider = todo.pop()
        if parent is not None:
            G.add_edge(parent, node)
            if prob is not None:
                G.edges[parent, node]["prob"] = prob
        build(node, sub, player, last_decider)
    return G, leaves


def _read_dict_node(node, sub):
    """The player, children and probabilities (or None) of a dict node: ``{"chance": [...], "p": [...]}``."""
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
    probs = sub.get("p")
    if probs is not None:
        if player != CHANCE:
            raise ValueError(f"node {node!r}: 'p' (probabilities) is only for chance nodes")
        if callable(getattr(probs, "tolist", None)):  # a numpy array: its numbers as floats
            probs = probs.tolist()
        if not isinstance(probs, (list, tuple)) or len(probs) != len(children):
            raise ValueError(
                f"chance node {node!r}: 'p' must list one probability per child "
                f"({len(children)}), got {probs!r}"
            )
    return player, children, probs


def _refuse_duplicates(pairs):
    made = dict(pairs)
    if len(made) != len(pairs):  # (looked for only then: a JSON object of 300,000 keys reads at C speed)
        keys = set()
        for key, _ in pairs:
            if key in keys:
                raise _DuplicateKey(key)
            keys.add(key)
    return made


class _DuplicateKey(Exception):
    pass


def read_json(text, what="the tree"):
    """The value of the JSON ``text``: :func:`json.loads`, refusing what it would quietly accept.

    A key given twice in one object (``json.loads`` keeps the last and drops
    the first without a word) and a number longer than Python reads (4,300
    digits by default) are a ``ValueError`` naming ``what``. Text that is not
    JSON raises :class:`json.JSONDecodeError` as usual; a nesting too deep for
    the reader raises ``RecursionError``.

    >>> read_json('{"A": {"player": "max", "children": ["B"]}, "B": 3}')["B"]
    3
    >>> read_json('{"B": 3, "B": 4}')
    Traceback (most recent call last):
    ...
    ValueError: the tree gives the key 'B' twice in one object: give each key once
    """
    try:
        return json.loads(text, object_pairs_hook=_refuse_duplicates)
    except _DuplicateKey as twice:
        raise ValueError(f"{what} gives the key {twice.args[0]!r} twice in one object: "
                         "give each key once") from None
    except json.JSONDecodeError:
        raise
    except ValueError as error:
        if "digits" not in str(error):
            raise
        limit = sys.get_int_max_str_digits()
        raise ValueError(f"{what} has a number with more than {limit:,} digits, more than Python reads: "
                         "a game value is a short number such as 12 or -3.5") from None


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
    if isinstance(spec, (str, bytes, bytearray)):
        spec = _read_tree_json(spec)
    if not isinstance(spec, dict) or not spec:
        raise TypeError(f"tree_from_dict expects a non-empty dict of nodes, got {type(spec).__name__}")
    G = nx.DiGraph()
    for name, node in spec.items():
        if (isinstance(name, bool) or not isinstance(name, (str, int))) and not (
                isinstance(node, dict) and "label" in node):
            raise TypeError(
                f"node {reprlib.repr(name)}: a node's name ({type(name).__name__}) is shown as its label, "
                "so it must be a str or an int, such as 'B' (or give the node a 'label'); "
                "gt.tree_from_nested makes tuple ids like (0, 1) from nested lists")
        if isinstance(node, dict):
            _add_dict_node(G, spec, name, node)
        else:
            check_number(node, f"leaf {name!r}")
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
    _refuse_too_deep(G, root)
    return G


def _read_tree_json(text):
    """The dict of a tree given as JSON text (str or UTF-8 bytes)."""
    if not isinstance(text, str):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(
                f"the tree's JSON bytes are not valid UTF-8: byte {exc.object[exc.start]:#04x} "
                f"at position {exc.start} ({exc.reason}); JSON text must be UTF-8"
            ) from None
    try:
        return read_json(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"the tree is not valid JSON: {exc}") from None
    except RecursionError:
        raise ValueError(
            "the tree's JSON is nested too deep for Python's JSON reader (about 1,000 levels "
            f"at most; a tree may be at most {MAX_PLIES:,} levels deep, and is written as "
            "a flat dict of nodes)"
        ) from None


def _add_dict_node(G, spec, name, node):
    """Add the node ``name`` given by the dict ``node`` to ``G``, with the edges to its children."""
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
    if callable(getattr(node.get("probs"), "tolist", None)):  # a numpy array: its numbers as floats
        node = {**node, "probs": node["probs"].tolist()}
    for key in ("probs", "moves"):
        if key in node and (
            not isinstance(node[key], (list, tuple)) or len(node[key]) != len(children)
        ):
            raise ValueError(
                f"node {name!r}: {key!r} must list one entry per child ({len(children)})"
            )
    refuse_repeated_moves(name, node.get("moves", ()))
    for i, child in enumerate(children):
        try:
            hash(child)
        except TypeError:
            raise TypeError(
                f"node {name!r}: child {reprlib.repr(child)} is not a node name: names are "
                "hashable keys of the dict (a str or an int), not lists or dicts"
            ) from None
        if child not in spec:
            raise ValueError(f"node {name!r} has child {child!r}, which is not defined")
        if G.has_edge(name, child):
            raise ValueError(f"node {name!r} lists child {child!r} twice")
        G.add_edge(name, child)
        if "probs" in node:
            G.edges[name, child]["prob"] = node["probs"][i]
        if "moves" in node:
            G.edges[name, child]["move"] = node["moves"][i]


def _refuse_too_deep(G, root):
    """Raise if a leaf of ``G`` lies more than :data:`MAX_PLIES` levels below ``root``."""
    level, depth = [root], 0
    while level:
        level = [c for n in level for c in G._succ[n]]
        if level:
            depth += 1
    if depth > MAX_PLIES:
        raise ValueError(
            f"the tree is too deep: {depth:,} levels below the root {root!r}; at most "
            f"{MAX_PLIES:,} (the limit: the searches recurse once per level)"
        )


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
    lo_b, hi_b = _branching_range(branching)
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise TypeError(f"depth must be an int, got {depth!r}")
    if depth < 0:
        raise ValueError(f"depth must be >= 0, got {depth}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(
            f"seed must be None or an int (the same int always gives the same tree), got {seed!r}"
        )
    lo_v, hi_v = _value_range(values)
    if ordering not in (None, "best", "worst"):
        raise ValueError(f"ordering must be None, 'best' or 'worst', got {ordering!r}")
    player_at = _players_by_level(root_player, players)
    _check_random_size(branching, hi_b, depth)
    with deep_recursion():  # the helpers below recurse once per level
        rng = random.Random(seed)
        skeleton = _random_shape(rng, 0, depth, lo_b, hi_b)
        n_leaves = _count_leaves(skeleton)
        span = range(lo_v, hi_v + 1)
        if ordering and len(span) >= n_leaves:
            drawn = rng.sample(span, n_leaves)
        else:
            drawn = [rng.randint(lo_v, hi_v) for _ in range(n_leaves)]
        if ordering == "worst":
            spec = _spec_worst_first(skeleton, 0, iter(sorted(drawn)), player_at)
        else:
            spec = _spec_in_order(skeleton, 0, iter(drawn), player_at)
        G = tree_from_nested(spec)
        if ordering == "best":
            G = tree_from_nested(_reorder(G, spec))
        return G


def _branching_range(branching):
    """``(lo, hi)`` children per inner node, from an int or a pair."""
    if isinstance(branching, bool) or not isinstance(branching, (int, tuple, list)):
        raise TypeError(f"branching must be an int or a (lo, hi) pair, got {branching!r}")
    if not isinstance(branching, int) and len(branching) != 2:
        raise ValueError(
            f"branching must be an int or a (lo, hi) pair, got {reprlib.repr(branching)} "
            f"({len(branching)} items)"
        )
    lo_b, hi_b = (branching, branching) if isinstance(branching, int) else tuple(branching)
    if (isinstance(lo_b, bool) or isinstance(hi_b, bool)
            or not (isinstance(lo_b, int) and isinstance(hi_b, int)) or not 1 <= lo_b <= hi_b):
        raise ValueError(f"branching must be >= 1 (and lo <= hi for a range), got {branching!r}")
    return lo_b, hi_b


def _value_range(values):
    """``(lo, hi)``, the range of the leaf values, checked."""
    try:
        lo_v, hi_v = values
    except (TypeError, ValueError):
        raise TypeError(f"values must be a (lo, hi) pair of ints, got {values!r}") from None
    if (isinstance(lo_v, bool) or isinstance(hi_v, bool)
            or not (isinstance(lo_v, int) and isinstance(hi_v, int)) or lo_v > hi_v):
        raise ValueError(f"values must be a (lo, hi) pair of ints with lo <= hi, got {values!r}")
    return lo_v, hi_v


def _players_by_level(root_player, players):
    """``player_at(level)``: who moves at each level of a random tree."""
    if players is not None:
        level_players = list(players)
        if not level_players or any(p not in PLAYERS for p in level_players):
            raise ValueError(f"players must be a non-empty sequence of 'max', 'min', 'chance', "
                             f"got {players!r}")
        return lambda level: level_players[level % len(level_players)]
    if root_player not in PLAYERS:
        raise ValueError(f"root_player must be 'max', 'min' or 'chance', got {root_player!r}")
    if root_player == CHANCE:
        return lambda level: CHANCE if level == 0 else (MAX if level % 2 else MIN)
    second = _opponent(root_player)
    return lambda level: root_player if level % 2 == 0 else second


def _random_shape(rng, level, depth, lo_b, hi_b):
    """Nested lists of a random tree's shape from ``level`` down: None for a leaf."""
    if level == depth:
        return None
    return [_random_shape(rng, level + 1, depth, lo_b, hi_b) for _ in range(rng.randint(lo_b, hi_b))]


def _count_leaves(shape):
    if shape is None:
        return 1
    total = 0
    for c in shape:
        total += _count_leaves(c)
    return total


def _spec_in_order(shape, level, values, player_at):
    """The nested spec of ``shape``, its leaves taking ``values`` (an iterator) in order."""
    if shape is None:
        return next(values)
    return {player_at(level): [_spec_in_order(c, level + 1, values, player_at) for c in shape]}


def _spec_worst_first(shape, level, ranked, player_at):
    """The nested spec of ``shape`` whose children come worst first for every player: no cutoff ever.

    Gives every subtree a block of consecutive ranks (``ranked``: the leaf
    values in ascending order): ascending blocks under MAX, descending under
    MIN. Then every MIN node's value lies above any alpha and every MAX node's
    below any beta that reaches it, so no cutoff ever happens (sorting alone is
    not enough: a deep MIN node can still fall below an alpha from far above).
    """
    if shape is None:
        return next(ranked)
    player = player_at(level)
    kids = [None] * len(shape)
    order = range(len(shape)) if player != MIN else range(len(shape) - 1, -1, -1)
    for i in order:
        kids[i] = _spec_worst_first(shape[i], level + 1, ranked, player_at)
    return {player: kids}


def _check_random_size(branching, hi_b, depth):
    """Refuse a random tree that is too large or too deep, by arithmetic that cannot blow up."""
    if hi_b > 1:
        # hi_b ** depth, computed only while it stays small (a depth of 10**9
        # must not build a number of 10**9 bits).
        leaves = 1
        for _ in range(depth):
            leaves *= hi_b
            if leaves > MAX_RANDOM_LEAVES:
                break
        if leaves > MAX_RANDOM_LEAVES:
            exponent = depth * math.log10(hi_b)
            if exponent < 18:
                size = f"{hi_b ** depth:,}"
            else:
                size = f"{hi_b}^{depth} (about 10^{int(exponent):,})"
            raise ValueError(
                f"a tree with branching {branching!r} and depth {depth} could have {size} leaves; "
                f"at most {MAX_RANDOM_LEAVES:,} leaves are built"
            )
    if depth > MAX_PLIES:
        raise ValueError(
            f"a tree of depth {depth} (a chain of {depth + 1:,} nodes at least) is too deep: "
            f"at most {MAX_PLIES:,} levels (the searches recurse once per level)"
        )


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
    state = _start_state(game, state)
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
        raise ValueError(f"depth must be None or an int >= 0, got {depth!r}")
    if evaluate is not None and not callable(evaluate):
        raise TypeError(f"evaluate must be a function state -> number, got {evaluate!r}")
    max_nodes = _max_nodes(max_nodes)
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
            value = game.utility(st)
            check_number(value, f"the utility of state {st!r}")
            G.nodes[node]["utility"] = value
        else:
            G.nodes[node]["player"] = game.to_move(st)
            if depth is not None and ply >= depth and evaluate is not None:
                value = evaluate(st)
                check_number(value, f"the value evaluate returned for state {st!r}")
                G.nodes[node]["utility"] = value

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


def _start_state(game, state):
    """The state ``expand`` starts from: ``game.initial`` for None, else ``state`` once checked."""
    if state is None:
        return game.initial
    if isinstance(game, TreeGame):
        if state not in game.graph:
            raise ValueError(f"start node {state!r} is not a node of the tree")
    elif callable(getattr(game, "check_state", None)):
        game.check_state(state)
    return state


def _max_nodes(max_nodes):
    """``max_nodes`` as an int >= 1."""
    try:
        max_nodes = as_int(max_nodes, "max_nodes")
    except TypeError as error:
        raise TypeError(f"{error} (the most nodes to build, e.g. 100_000)") from None
    if max_nodes < 1:
        raise ValueError(f"max_nodes must be an int >= 1 (the most nodes to build), got {max_nodes}")
    return max_nodes
