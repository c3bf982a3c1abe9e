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

Depth: trees, and searches, go at most :data:`MAX_PLIES` levels deep (the
searches recurse once per level; :func:`deep_recursion` gives them room on
Python's stack). Deeper inputs are refused with a message naming the depth
and the limit.

Imports: :mod:`gametrees.games` and networkx (never :mod:`gametrees.search`,
which is built on trees).
"""

from __future__ import annotations

import json
import math
import random
import reprlib
import sys
import threading
from collections import deque
from contextlib import contextmanager

import networkx as nx

from .games import CHANCE, MAX, MIN, Game
from .games.protocol import as_int, number_problem

PLAYERS = (MAX, MIN, CHANCE)

#: The deepest a tree may be built, and a search may go, in plies (levels
#: below the root or the start). Learners' trees are a few levels deep and a
#: game of Connect Four is 42 plies; Nim with 2,000 coins still fits.
MAX_PLIES = 2000

#: The most leaves :func:`random_tree` builds.
MAX_RANDOM_LEAVES = 2_000_000

__all__ = [
    "MAX_PLIES",
    "TreeGame",
    "as_game",
    "deep_recursion",
    "expand",
    "random_tree",
    "read_json",
    "textbook_labels",
    "tree_from_dict",
    "tree_from_nested",
    "validate_tree",
]


# deep_recursion's bookkeeping: Python's recursion limit is one number for the
# whole interpreter, so threads that search at the same time share one raise.
# The first to enter remembers the limit as it was; the last to leave puts it back.
_stack_lock = threading.Lock()
_stack_holders = 0
_stack_base = 0
_stack_raised = 0


@contextmanager
def deep_recursion(levels=MAX_PLIES):
    """Room on Python's stack for ``levels`` more nested calls, inside a ``with``.

    Raises Python's recursion limit by ``levels`` (plus a margin) and restores
    it afterwards. The limit is one number for the whole interpreter, so the
    raise is counted under a lock: searches running at the same time in several
    threads share it, and the last one to finish restores the limit that was
    set before the first one started (never a raised limit left behind). The
    searches recurse once per ply and stop themselves at :data:`MAX_PLIES`, so
    the raised limit is never reached. This is safe: since Python 3.11 a call
    from Python code to Python code uses no C stack, and on 3.10 a few thousand
    frames take well under the 8 MB of a main thread's stack.

    >>> import sys
    >>> before = sys.getrecursionlimit()
    >>> with deep_recursion(3000):
    ...     sys.getrecursionlimit() >= before + 3000
    True
    >>> sys.getrecursionlimit() == before
    True
    """
    global _stack_holders, _stack_base, _stack_raised
    with _stack_lock:
        if _stack_holders == 0:
            _stack_base = _stack_raised = sys.getrecursionlimit()
        need = _stack_base + levels + 200
        if need > _stack_raised:
            sys.setrecursionlimit(need)
            _stack_raised = need
        _stack_holders += 1
    try:
        yield
    finally:
        with _stack_lock:
            _stack_holders -= 1
            if _stack_holders == 0 and sys.getrecursionlimit() == _stack_raised:
                sys.setrecursionlimit(_stack_base)


# ----------------------------------------------------------------------------
# Validation
# ----------------------------------------------------------------------------


def _check_number(value, what: str, where: str = "") -> None:
    """Raise if ``value`` is not a usable game value (see ``number_problem``).

    ``what`` names the value ("leaf (0, 1)"), ``where`` adds e.g. " (node B)".
    """
    problem = number_problem(value)
    if problem is not None:
        error, text = problem
        if text.startswith("a number too large"):
            raise error(f"{what} must be a number that fits in a float, got {text}{where}; "
                        "use math.inf for a win")
        raise error(f"{what} must be a number, got {text}{where}")


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
        two edges out of one MAX or MIN node with the same ``move`` label,
        a leaf without a utility, a utility or probability that is NaN or
        too large for a float, chance probabilities that are negative or do
        not sum to 1, or a ``prob`` on an edge out of a MAX or MIN node. The
        message names the node.

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
        label = attrs.get("label")
        if label is not None and (isinstance(label, bool) or not isinstance(label, (str, int, float))):
            raise TypeError(f"node {n!r} has the label {label!r} ({type(label).__name__}): a label is "
                            "the name shown on the drawing, a str such as 'B' (or a number)")
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
                moves = None
                for c, edge in children.items():
                    if "prob" in edge:
                        label = attrs.get("label", n)
                        raise ValueError(
                            f"the edge {n!r} -> {c!r} has a 'prob' ({edge['prob']!r}), but node "
                            f"{label} is a {player.upper()} node: only the edges out of a chance "
                            "node carry probabilities (make the node a chance node, or drop 'prob')"
                        )
                    if "move" in edge:
                        if moves is None:
                            moves = []
                        moves.append(edge["move"])
                if moves is not None and len(moves) > 1:  # a result names its move by the label
                    _refuse_repeated_moves(n, moves)
        else:
            if "utility" not in attrs:
                raise ValueError(
                    f"leaf {_name(G, n)} has no 'utility': every leaf needs a number from MAX's point of view"
                )
            _check_number(attrs["utility"], f"the utility of leaf {_name(G, n)}")


def _refuse_repeated_moves(node, moves) -> None:
    seen, unhashable = set(), []
    for move in moves:
        try:
            again = move in seen
            seen.add(move)
        except TypeError:  # an unhashable label (a list): compared one by one
            again = move in unhashable
            unhashable.append(move)
        if again:
            raise ValueError(
                f"node {node!r}: the move {move!r} is given to two children: a search names its best move "
                "by its label, so each child of a node needs a different move label")


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
                if callable(getattr(probs, "tolist", None)):  # a numpy array: its numbers as floats
                    probs = probs.tolist()
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
    for n, label in textbook_labels(G).items():
        G.nodes[n].setdefault("label", label)
    nodes = G.nodes
    for n in leaves:  # checked once the labels are known, so the message can name the node
        _check_number(nodes[n]["utility"], f"leaf {n!r}", f" (node {nodes[n]['label']})")
    validate_tree(G)
    return G


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
        if not isinstance(spec, str):
            try:
                spec = bytes(spec).decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ValueError(
                    f"the tree's JSON bytes are not valid UTF-8: byte {exc.object[exc.start]:#04x} "
                    f"at position {exc.start} ({exc.reason}); JSON text must be UTF-8"
                ) from None
        try:
            spec = read_json(spec)
        except json.JSONDecodeError as exc:
            raise ValueError(f"the tree is not valid JSON: {exc}") from None
        except RecursionError:
            raise ValueError(
                "the tree's JSON is nested too deep for Python's JSON reader (about 1,000 levels "
                f"at most; a tree may be at most {MAX_PLIES:,} levels deep, and is written as "
                "a flat dict of nodes)"
            ) from None
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
            _refuse_repeated_moves(name, node.get("moves", ()))
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
    if not isinstance(branching, int) and len(branching) != 2:
        raise ValueError(
            f"branching must be an int or a (lo, hi) pair, got {reprlib.repr(branching)} "
            f"({len(branching)} items)"
        )
    lo_b, hi_b = (branching, branching) if isinstance(branching, int) else tuple(branching)
    if (isinstance(lo_b, bool) or isinstance(hi_b, bool)
            or not (isinstance(lo_b, int) and isinstance(hi_b, int)) or not 1 <= lo_b <= hi_b):
        raise ValueError(f"branching must be >= 1 (and lo <= hi for a range), got {branching!r}")
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise TypeError(f"depth must be an int, got {depth!r}")
    if depth < 0:
        raise ValueError(f"depth must be >= 0, got {depth}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(
            f"seed must be None or an int (the same int always gives the same tree), got {seed!r}"
        )
    try:
        lo_v, hi_v = values
    except (TypeError, ValueError):
        raise TypeError(f"values must be a (lo, hi) pair of ints, got {values!r}") from None
    if (isinstance(lo_v, bool) or isinstance(hi_v, bool)
            or not (isinstance(lo_v, int) and isinstance(hi_v, int)) or lo_v > hi_v):
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
            raise ValueError(f"players must be a non-empty sequence of 'max', 'min', 'chance', "
                             f"got {players!r}")
    _check_random_size(branching, hi_b, depth)
    with deep_recursion():  # the helpers below recurse once per level
        rng = random.Random(seed)

        def shape(level):
            if level == depth:
                return None
            return [shape(level + 1) for _ in range(rng.randint(lo_b, hi_b))]

        skeleton = shape(0)

        def count(s):
            if s is None:
                return 1
            total = 0
            for c in s:
                total += count(c)
            return total

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
# Trees as games
# ----------------------------------------------------------------------------


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

        >>> G = tree_from_nested([[3, 12], [2, 4]])
        >>> shot = TreeGame(G).snapshot()
        >>> G.nodes[(0, 0)]["utility"] = 100; G.remove_node((1, 1))
        >>> H = shot.graph()
        >>> H.nodes[(0, 0)]["utility"], (1, 1) in H, H.graph["root"]
        (3, True, ())
        """
        return _TreeSnapshot(self)

    @property
    def table_key(self):
        """A key equal for TreeGames of equal trees, different for different trees.

        Equal means the same root, nodes, children in the same order, players,
        utilities (estimates too) and probabilities; labels and move names do
        not count. The searches keep the entries of a transposition table
        apart by this key, so a table reused on another tree never answers
        with the first tree's values.

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

    __slots__ = ("game", "graph_attrs", "nodes", "edges")

    def __init__(self, game):
        G = game.graph
        self.game = game
        self.graph_attrs = dict(G.graph)
        if game._plain:  # everything is in the game already
            self.nodes = self.edges = None
            return
        self.nodes = {n: attrs.copy() for n, attrs in G._node.items()}
        self.edges = {(u, v): attrs.copy() for u, nbrs in G._succ.items()
                      for v, attrs in nbrs.items() if attrs}

    def graph(self):
        """A new DiGraph of the tree as it was (the game's structure, the copied attributes).

        Built pass by pass (nodes, edges, then each attribute): a node id is a tuple, whose hash
        Python computes again at every dict look-up, so the passes look each node up as few times
        as they can (a search's ``result.graph`` builds one per call).
        """
        game = self.game
        H = nx.DiGraph()
        H.graph.update(self.graph_attrs)
        H.graph["root"] = game.initial
        nodes, edges = self.nodes, self.edges or {}
        node, succ, pred = H._node, H._succ, H._pred
        kids_of = game._succ
        count = len(kids_of)
        attrs = [{} for _ in range(count)] if nodes is None else [nodes.get(n) or {} for n in kids_of]
        outs = [{} for _ in range(count)]
        node.update(zip(kids_of, attrs))
        succ.update(zip(kids_of, outs))
        pred.update(zip(kids_of, [{} for _ in range(count)]))
        for (u, kids), out in zip(kids_of.items(), outs):
            for c, _ in kids:
                out[c] = pred[c][u] = (edges.get((u, c)) or {}) if edges else {}
        # What the search read (the game's), should the graph have changed in between.
        for n, player in game._player.items():
            node[n]["player"] = player
        for n, value in game._utility.items():
            node[n]["utility"] = value
        if nodes is None:  # the labels, in the order of the nodes (both dicts were made node by node)
            unlabelled = game._unlabelled
            for (n, label), a in zip(game._labels.items(), attrs):
                if not unlabelled or n not in unlabelled:
                    a["label"] = label
        for n in game._given_probs:
            for c, p in game._chances[n]:
                succ[n][c]["prob"] = p
        return H


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
    elif isinstance(game, TreeGame):
        if state not in game.graph:
            raise ValueError(f"start node {state!r} is not a node of the tree")
    elif callable(getattr(game, "check_state", None)):
        game.check_state(state)
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
        raise ValueError(f"depth must be None or an int >= 0, got {depth!r}")
    if evaluate is not None and not callable(evaluate):
        raise TypeError(f"evaluate must be a function state -> number, got {evaluate!r}")
    try:
        max_nodes = as_int(max_nodes, "max_nodes")
    except TypeError as error:
        raise TypeError(f"{error} (the most nodes to build, e.g. 100_000)") from None
    if max_nodes < 1:
        raise ValueError(f"max_nodes must be an int >= 1 (the most nodes to build), got {max_nodes}")
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
            _check_number(value, f"the utility of state {st!r}")
            G.nodes[node]["utility"] = value
        else:
            G.nodes[node]["player"] = game.to_move(st)
            if depth is not None and ply >= depth and evaluate is not None:
                value = evaluate(st)
                _check_number(value, f"the value evaluate returned for state {st!r}")
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
