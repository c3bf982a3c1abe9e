"""The game-tree schema, its check (:func:`validate_tree`) and the depth limit.

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

Depth: trees, and searches, go at most :data:`MAX_PLIES` levels deep (the
searches recurse once per level; :func:`deep_recursion` gives them room on
Python's stack). Deeper inputs are refused with a message naming the depth
and the limit.

:func:`check_number` and :func:`refuse_repeated_moves` are the checks the
builders share with :func:`validate_tree`, so that a builder's message and
the schema's are the same.
"""

from __future__ import annotations

import math
import sys
import threading
from contextlib import contextmanager

import networkx as nx

from ..games import CHANCE, MAX, MIN
from ..games.protocol import number_problem

__all__ = ["MAX_PLIES", "deep_recursion", "validate_tree"]

PLAYERS = (MAX, MIN, CHANCE)

#: The deepest a tree may be built, and a search may go, in plies (levels
#: below the root or the start). Learners' trees are a few levels deep and a
#: game of Connect Four is 42 plies; Nim with 2,000 coins still fits.
MAX_PLIES = 2000

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


def check_number(value, what: str, where: str = "") -> None:
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
    >>> from gametrees.trees import tree_from_nested
    >>> G = tree_from_nested([[3, 12], [2, 4]])
    >>> validate_tree(G)
    >>> G.nodes[(0, 0)].pop("utility")
    3
    >>> validate_tree(G)
    Traceback (most recent call last):
    ...
    ValueError: leaf (0, 0) (label 'D') has no 'utility': every leaf needs a number from MAX's point of view
    """
    _check_shape(G)
    nodes = G.nodes
    for n in G:
        attrs = nodes[n]
        label = attrs.get("label")
        if label is not None and (isinstance(label, bool) or not isinstance(label, (str, int, float))):
            raise TypeError(f"node {n!r} has the label {label!r} ({type(label).__name__}): a label is "
                            "the name shown on the drawing, a str such as 'B' (or a number)")
        if G._succ[n]:
            _check_inner_node(G, n, attrs)
        else:
            if "utility" not in attrs:
                raise ValueError(
                    f"leaf {_name(G, n)} has no 'utility': every leaf needs a number from MAX's point of view"
                )
            check_number(attrs["utility"], f"the utility of leaf {_name(G, n)}")


def _check_shape(G) -> None:
    """A directed graph with a root, no cycle, and every node reached from the root."""
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


def _check_inner_node(G, n, attrs) -> None:
    """The player, the estimate, and the edges' probabilities or move labels of an inner node."""
    player = attrs.get("player")
    if player not in PLAYERS:
        raise ValueError(
            f"inner node {_name(G, n)} has player {player!r}: expected 'max', 'min' or 'chance'"
        )
    if "utility" in attrs:
        check_number(attrs["utility"], f"the estimate 'utility' of node {_name(G, n)}")
    if player == CHANCE:
        _check_probabilities(G, n)
        return
    moves = None
    for c, edge in G._succ[n].items():
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
        refuse_repeated_moves(n, moves)


def refuse_repeated_moves(node, moves) -> None:
    """Raise if two of ``node``'s children have the same move label."""
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
        check_number(p, f"the probability of the edge {n!r} -> {c!r}")
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
