"""A tidy tree layout: textbook positions for the nodes of a game tree.

networkx has no tree layout (``bfs_layout`` and ``multipartite_layout`` space
each level evenly and do not centre parents), and graphviz would add a system
dependency. :func:`tidy_layout` is the classic Reingold-Tilford layout:

* every node sits on its depth's level (``y = -depth``), the root on top;
* children keep their order from left to right, and every parent is centred
  over its children (halfway between the first and the last);
* two nodes on the same level are at least ``sep`` apart, so subtrees never
  overlap; a subtree is pushed only as far from its left neighbours as its
  contour (its leftmost and rightmost node on each level) requires, so small
  subtrees tuck in beside big ones;
* the layout is deterministic and mirror-symmetric: it is the average of
  packing the children from the left and from the right (both packings keep
  every constraint, and the constraints are linear, so the average does too),
  and a mirrored tree gets the mirrored layout.

It runs in O(n * depth) time, a few milliseconds for a thousand nodes.

This module imports networkx only (no matplotlib, nothing else of gametrees):
the first step of :mod:`gametrees.drawing`.
"""

from __future__ import annotations

from collections import deque

import networkx as nx

__all__ = ["tidy_layout", "tree_children"]


def tree_children(G, root=None) -> dict:
    """The children of every node reachable from ``root``, as a tree.

    A tree's children are its successors, in insertion order. In a DAG (a
    game tree with merged transpositions) a node with several parents is
    kept under the first parent that reaches it breadth-first, so the result
    is always a tree (its other edges are simply not part of the layout).

    Parameters
    ----------
    G : networkx.DiGraph
    root : hashable, optional
        Default: the graph attribute ``root``.

    Returns
    -------
    dict
        node -> list of children, for every node reachable from ``root``.

    Examples
    --------
    >>> import gametrees as gt
    >>> kids = tree_children(gt.tree_from_nested([[1, 2], 3]))
    >>> kids[()], kids[(0,)], kids[(1,)]
    ([(0,), (1,)], [(0, 0), (0, 1)], [])
    """
    if not isinstance(G, nx.DiGraph):
        raise TypeError(f"expected a game tree (networkx.DiGraph), got {type(G).__name__}")
    if root is None:
        if "root" not in G.graph:
            raise ValueError("the graph has no 'root' attribute: set G.graph['root'] or pass root=...")
        root = G.graph["root"]
    if root not in G:
        raise ValueError(f"the root {root!r} is not a node of the graph")
    children = {root: []}
    queue = deque([root])
    succ = G._succ
    while queue:
        u = queue.popleft()
        kids = children[u]
        for v in succ[u]:
            if v not in children:
                children[v] = []
                kids.append(v)
                queue.append(v)
    return children


def tidy_layout(G, root=None, *, sep=1.0, level=1.0, fan=0.0) -> dict:
    """Positions ``{node: (x, y)}`` for a textbook drawing of the tree ``G``.

    Parameters
    ----------
    G : networkx.DiGraph or dict
        A game tree (see :func:`tree_children` for DAGs), or a dict
        ``node -> list of children`` describing a tree.
    root : hashable, optional
        Default: ``G.graph["root"]`` (required for a dict).
    sep : float
        The least horizontal distance between two nodes on the same level.
    level : float
        The vertical distance between levels: a node at depth d has
        ``y = -d * level``.
    fan : float
        The least distance between two neighbouring siblings, as a fraction
        of the farther one's horizontal distance from their parent (0: none).
        A parent far to the side of two close children draws two edges that
        run almost along each other, and the longer one through the nearer
        child's mark (a leaf tucked in beside a deep sibling); ``fan`` spreads
        such children apart (the figures use 0.5). Parents stay centred,
        and the layout stays mirror-symmetric.

    Returns
    -------
    dict
        node -> ``(x, y)``; the leftmost node has ``x = 0``. Nodes not
        reachable from the root get no position.

    Examples
    --------
    >>> import gametrees as gt
    >>> pos = tidy_layout(gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    >>> pos[()], pos[(0,)], pos[(1,)], pos[(0, 0)]
    ((4.0, 0.0), (1.0, -1.0), (4.0, -1.0), (0.0, -2.0))

    A ragged tree: the lone leaf tucks in beside the deep subtree, and each
    parent is centred over its children.

    >>> pos = tidy_layout(gt.tree_from_nested([7, [[1, 2], [3, 4]]]))
    >>> pos[(0,)], pos[(1,)], pos[()]
    ((0.5, -1.0), (1.5, -1.0), (1.0, 0.0))

    A leaf beside a wide sibling, far right of their parent, is pushed out by ``fan``:

    >>> spec = [[[1, 2], [3, 4], [5, 6]], [[1, 2], [3, 4], [5, 6]], 9]
    >>> def leaf_gap_and_reach(pos):  # from its sibling, and from their parent
    ...     return round(pos[(0, 2)][0] - pos[(0, 1)][0], 2), round(pos[(0, 2)][0] - pos[(0,)][0], 2)
    >>> leaf_gap_and_reach(tidy_layout(gt.tree_from_nested([spec, 0])))
    (1.0, 3.5)
    >>> leaf_gap_and_reach(tidy_layout(gt.tree_from_nested([spec, 0]), fan=0.45))
    (1.74, 3.87)
    """
    for name, value in (("sep", sep), ("level", level)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise ValueError(f"{name} must be a positive number, got {value!r}")
    if isinstance(fan, bool) or not isinstance(fan, (int, float)) or not 0 <= fan < 1:
        raise ValueError(f"fan must be a number in [0, 1), got {fan!r}")
    if isinstance(G, dict):
        if root is None:
            raise ValueError("with a dict of children, pass root=...")
        children = G
        if root not in children:
            raise ValueError(f"the root {root!r} is not a key of the children dict")
    else:
        children = tree_children(G, root)
        root = G.graph["root"] if root is None else root
    offsets = _offsets(children, root, float(sep), float(fan))
    # Absolute x from the offsets (pre-order), y from the depth.
    pos = {}
    stack = [(root, 0.0, 0)]
    while stack:
        u, x, d = stack.pop()
        pos[u] = (x, -d * float(level))
        for v in children.get(u, ()):
            stack.append((v, x + offsets[v], d + 1))
    x0 = min(x for x, _ in pos.values())
    return {u: (x - x0 + 0.0, y + 0.0) for u, (x, y) in pos.items()}


def _postorder(children, root):
    order, stack, seen = [], [root], set()
    while stack:
        u = stack.pop()
        if u in seen:
            raise ValueError(f"node {u!r} is reached twice: the children describe a graph, not a tree")
        seen.add(u)
        order.append(u)
        stack.extend(children.get(u, ()))
    order.reverse()
    return order


def _offsets(children, root, sep, fan=0.0):
    """x offset of every node relative to its parent (0 for the root).

    A contour is a list, per level below and including a subtree's root, of
    the (leftmost, rightmost) x relative to that root.
    """
    contour = {}
    offsets = {root: 0.0}
    for u in _postorder(children, root):
        kids = children.get(u, ())
        if not kids:
            contour[u] = [(0.0, 0.0)]
            continue
        conts = [contour.pop(v) for v in kids]
        left = _pack(conts, sep)
        right = [-x for x in reversed(_pack([[(-r, -lo) for lo, r in c] for c in reversed(conts)], sep))]
        mid_l = (left[0] + left[-1]) / 2
        mid_r = (right[0] + right[-1]) / 2
        offs = [((a - mid_l) + (b - mid_r)) / 2 for a, b in zip(left, right)]
        if fan and len(offs) > 1:
            offs = _spread(offs, fan)
        merged = [(0.0, 0.0)]
        for v, o, c in zip(kids, offs, conts):
            offsets[v] = o
            for i, (lo, hi) in enumerate(c, start=1):
                if i < len(merged):
                    mlo, mhi = merged[i]
                    merged[i] = (min(mlo, lo + o), max(mhi, hi + o))
                else:
                    merged.append((lo + o, hi + o))
        contour[u] = merged
    return offsets


def _spread(offs, fan):
    """Sibling offsets pushed apart until neighbours are ``fan`` times the farther one's offset apart.

    Each gap that is short grows outwards (a pair right of the parent pushes the
    siblings to its right, a pair to the left those to its left, a pair around
    the parent both halves), all gaps at once, so a mirrored family is spread
    the mirrored way; then the parent is centred again. A family is spread to at
    most one and a half times its width.
    """
    orig = offs = list(offs)
    n = len(offs)
    width0 = offs[-1] - offs[0]
    for _ in range(100):
        if offs[-1] - offs[0] > _MOST_SPREAD * width0:
            break
        push = [0.0] * n
        for i in range(n - 1):
            short = fan * max(abs(offs[i]), abs(offs[i + 1])) - (offs[i + 1] - offs[i])
            if short <= 1e-9:
                continue
            if offs[i] >= 0:
                push[i + 1] += short
            elif offs[i + 1] <= 0:
                push[i] -= short
            else:
                push[i] -= short / 2
                push[i + 1] += short / 2
        if not any(push):
            break
        # A push moves the pushed sibling and every one beyond it, outwards.
        shift, acc = [0.0] * n, 0.0
        for i in range(n):
            if push[i] > 0:
                acc += push[i]
            shift[i] += acc
        acc = 0.0
        for i in reversed(range(n)):
            if push[i] < 0:
                acc += push[i]
            shift[i] += acc
        offs = [o + d for o, d in zip(offs, shift)]
        mid = (offs[0] + offs[-1]) / 2
        offs = [o - mid for o in offs]
    width = offs[-1] - offs[0]
    if width > _MOST_SPREAD * width0:
        # A big family cannot fan out so far (its gaps would grow geometrically): spread it
        # part of the way, to at most _MOST_SPREAD times its width (every gap still grows).
        share = (_MOST_SPREAD - 1) * width0 / (width - width0)
        offs = [a + share * (b - a) for a, b in zip(orig, offs)]
    return offs


_MOST_SPREAD = 1.5  # fan spreads a family to at most one and a half times its packed width


def _pack(conts, sep):
    """Offsets placing each contour as far left as the ones before allow."""
    offs = [0.0]
    right = [hi for _, hi in conts[0]]  # rightmost x per level of the packed forest
    for c in conts[1:]:
        o = max(r - lo + sep for r, (lo, _) in zip(right, c))
        offs.append(o)
        for i, (_, hi) in enumerate(c):
            if i < len(right):
                right[i] = max(right[i], hi + o)
            else:
                right.append(hi + o)
    return offs
