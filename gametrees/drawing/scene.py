"""What to draw: the nodes of a tree, their places, and how each one looks.

This module holds the part of a drawing that needs no matplotlib:

* :class:`Prepared`: a tree made ready to draw, once for all its frames (the
  nodes kept, their tidy layout, each node's kind: MAX, MIN, chance or leaf);
* :class:`Scene`: how every node and edge looks at one moment (done, on the
  current path, not reached yet, pruned; the value written in each node;
  alpha and beta), made by :func:`scene_from_graph` (a plain or searched tree)
  or :func:`scene_from_frame` (one step of a search);
* the words and numbers a figure writes: :func:`format_number`,
  :func:`format_value` and :func:`summary`.

It may import :mod:`gametrees.games`, :mod:`gametrees.search` and
:mod:`gametrees.drawing.layout` (networkx only); :mod:`gametrees.drawing.painter`
turns a scene into matplotlib artists.
"""

from __future__ import annotations

import math
import numbers

import networkx as nx

from ..games import CHANCE, MAX, MIN
from ..search import SearchResult
from ..wording import fmt
from .layout import tidy_layout, tree_children

__all__ = ["MAX_DRAWN_NODES", "Prepared", "Scene", "TreeTooWide", "check_count", "check_max_nodes",
           "check_size", "format_number",
           "format_value", "scene_from_frame", "scene_from_graph", "summary"]


# ----------------------------------------------------------------------------
# Formatting
# ----------------------------------------------------------------------------


def format_number(x) -> str:
    """A value for a small figure: :func:`gametrees.wording.fmt` with the true minus sign
    (3, −2, 4.3333, +∞)."""
    if x is None:
        return ""
    return fmt(x, true_minus=True)


def format_value(x, bound=None) -> str:
    """A value, or a bound on it: ``≤ 2`` (``bound="upper"``), ``≥ 5`` (``"lower"``)."""
    s = format_number(x)
    if bound == "upper":
        return "≤\u200a" + s
    if bound == "lower":
        return "≥\u200a" + s
    return s


# ----------------------------------------------------------------------------
# What to draw: the nodes, their layout and their kinds
# ----------------------------------------------------------------------------


# Siblings at least this fraction of their distance from their parent apart (tidy_layout's fan).
_FAN = 0.5

#: The most nodes a figure draws: ``max_nodes`` may be raised up to this. A figure of
#: ``MAX_DRAWN_NODES // 2`` = 2,500 leaves side by side is already about 700 inches wide and takes
#: about 10 s to write; 20,000 would take minutes and gigabytes.
MAX_DRAWN_NODES = 5000


class TreeTooWide(ValueError):
    """A tree too wide to draw, even cut to its top level: more nodes side by side than ``max_nodes`` allows.

    Levels are cut from the bottom until a drawing fits ``max_nodes`` (at most
    ``max_nodes // 2`` nodes side by side); a tree still too wide at the level
    under the root is refused before any layout or drawing work.

    Attributes
    ----------
    node
        The node with the most children drawn (the root, when the tree is cut to one level).
    children : int
        How many children ``node`` has among the nodes drawn.
    side_by_side : int
        The nodes that would stand side by side on the bottom level drawn.
    max_nodes : int
        The limit given; ``max_nodes // 2`` nodes may stand side by side.
    """

    def __init__(self, node, label, children, side_by_side, max_nodes):
        self.node, self.children, self.side_by_side, self.max_nodes = node, children, side_by_side, max_nodes
        self.label = label
        super().__init__(
            f"the tree is too wide to draw: node {label} has {children:,} children, and {side_by_side:,} "
            f"nodes would stand side by side, more than the {max_nodes // 2:,} that max_nodes={max_nodes:,} "
            f"allows (half of it); draw the first children of "
            f"each node with max_children=..., choose nodes=..., or raise max_nodes "
            f"(at most {MAX_DRAWN_NODES:,})")


def check_count(value, name, minimum):
    """``value`` as an int >= ``minimum``, or None; TypeError/ValueError naming ``name`` otherwise."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be None or an int, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return int(value)


def check_max_nodes(max_nodes, name="max_nodes"):
    """``max_nodes`` as an int in ``1..MAX_DRAWN_NODES``; TypeError/ValueError naming ``name`` otherwise."""
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, numbers.Integral):
        raise TypeError(f"{name} must be an int (the most nodes a figure draws), got {max_nodes!r}")
    if not 1 <= max_nodes <= MAX_DRAWN_NODES:
        raise ValueError(f"{name} must be in 1..{MAX_DRAWN_NODES:,} (the most nodes a figure draws; "
                         f"a wider figure takes minutes to write), got {max_nodes:,}")
    return int(max_nodes)


class Prepared:
    """Everything about a drawing that does not change from frame to frame.

    Raises :class:`TreeTooWide` (a ValueError) before any layout when even
    the top level of the tree has more nodes side by side than ``max_nodes``
    allows.
    """

    def __init__(self, G, *, nodes=None, max_depth=None, max_children=None, max_nodes=500,
                 boards=None):
        max_nodes = check_max_nodes(max_nodes)
        if "root" not in G.graph:
            raise ValueError("the graph has no 'root' attribute: set G.graph['root'] to the root's node id")
        root = G.graph["root"]
        if root not in G:
            raise ValueError(f"the root {root!r} (G.graph['root']) is not a node of the graph")
        _refuse_wide_root(G, root, nodes, max_depth, max_children, max_nodes)  # at once: no walk
        if not nx.is_directed_acyclic_graph(G):
            cycle = nx.find_cycle(G)
            raise ValueError(f"the graph has a cycle through {cycle[0][0]!r}: a game tree must be acyclic")
        self.G = G
        self.root = root
        full = tree_children(G, root)
        if len(full) != len(G):
            stray = next(n for n in G if n not in full)
            raise ValueError(f"node {stray!r} cannot be reached from the root {root!r}")
        self.parent = {v: u for u, kids in full.items() for v in kids}
        depth = {root: 0}
        for u in _bfs(full, root):
            for v in full[u]:
                depth[v] = depth[u] + 1
        self.full_depth = max(depth.values())
        keep, shown_depth, cut = _drawn(G, full, depth, nodes, max_depth, max_children, max_nodes)
        self.note = ""
        if cut:
            self.note = (f"{len(G)} nodes: the top {shown_depth} of {self.full_depth} levels are shown "
                         "(… marks hidden subtrees; choose with max_depth= or max_children=)")
        self.keep = keep
        self.children = {u: [v for v in full[u] if v in keep] for u in keep}
        self.hidden = {u: len(full[u]) - len(self.children[u])
                       for u in keep if len(full[u]) > len(self.children[u])}
        self.depth = depth
        # (fan: no edge runs along a sibling's and through its mark; see tidy_layout)
        self.pos = tidy_layout(self.children, root, fan=_FAN)
        self.order = list(_bfs(self.children, root))
        xs = [x for x, _ in self.pos.values()]
        self.xmin, self.xmax = min(xs), max(xs)
        self.levels = max(depth[n] for n in keep)
        nodes_ = G.nodes
        self.kind = {}
        for n in self.order:
            player = nodes_[n].get("player")
            if player in (MAX, MIN, CHANCE):
                self.kind[n] = player
            elif full[n]:
                raise ValueError(
                    f"inner node {n!r} has player {player!r}: expected 'max', 'min' or 'chance'"
                )
            elif "utility" in nodes_[n]:
                self.kind[n] = "leaf"
            else:
                # A pruned stub of a game search: whose turn it is was never
                # recorded; the opponent of its parent moves there.
                p = nodes_[self.parent[n]].get("player") if n in self.parent else None
                self.kind[n] = {MAX: MIN, MIN: MAX}.get(p, "leaf")
        self.is_leaf = {n: not full[n] for n in self.order}
        self.boards = boards
        if boards is not None:
            missing = next((n for n in self.order if "state" not in nodes_[n]), None)
            if missing is not None:
                raise ValueError(
                    f"boards=... draws each node's 'state', but node {missing!r} has none: "
                    "boards are for trees of games (gt.expand or a search of a game)"
                )
        self.mode = "boards" if boards is not None else "shapes"

    @staticmethod
    def _select(G, full, depth, nodes, max_depth, max_children):
        root = G.graph["root"]
        if nodes is not None:
            try:
                keep = set(nodes)
            except TypeError:
                raise TypeError("nodes must be a collection of node ids, "
                                f"got {type(nodes).__name__}") from None
            if root not in keep:
                raise ValueError(f"nodes must include the root {root!r}")
            parent = {v: u for u, kids in full.items() for v in kids}
            for n in keep:
                if n not in full:
                    raise ValueError(f"nodes lists {n!r}, which is not a node of the tree")
                if n != root and parent[n] not in keep:
                    raise ValueError(f"nodes lists {n!r} but not its parent {parent[n]!r}: "
                                     "a drawn node needs its path to the root")
        else:
            keep = set(full)
        if max_depth is not None:
            keep = {n for n in keep if depth[n] <= max_depth}
        if max_children is not None:
            best = {u for u, v, b in G.edges(data="best") if b}
            kept = {root}
            for u in _bfs(full, root):
                if u not in kept:
                    continue
                kids = [v for v in full[u] if v in keep]
                chosen = kids[:max_children]
                on_pv = [v for v in kids[max_children:] if (u in best and G.edges[u, v].get("best"))]
                if on_pv and chosen:
                    chosen = chosen[:-1] + on_pv[:1]
                kept.update(chosen)
            keep = kept
        return keep


def _bfs(children, root):
    out = [root]
    i = 0
    while i < len(out):
        out.extend(children.get(out[i], ()))
        i += 1
    return out


def _refuse_wide_root(G, root, nodes, max_depth, max_children, max_nodes):
    """Raise :class:`TreeTooWide` at once if the root alone has more children drawn than fit side by side.

    (Every child of the root is drawn unless ``nodes=``, ``max_depth=0`` or
    ``max_children=`` says otherwise: no need to walk the tree to know.)
    """
    if nodes is not None or max_depth == 0:
        return
    drawn = len(G._succ[root])
    if max_children is not None:
        drawn = min(drawn, max_children)
    if drawn > max_nodes // 2:
        label = G.nodes[root].get("label")
        name = repr(root) if label is None or label == root else f"{label} ({root!r})"
        raise TreeTooWide(root, name, drawn, drawn, max_nodes)


def _drawn(G, full, depth, nodes, max_depth, max_children, max_nodes):
    """``(nodes kept, levels shown, cut?)``: the choice, then levels cut from the bottom to fit ``max_nodes``.

    Raises :class:`TreeTooWide` when even one level under the root is too wide (before any layout).
    """
    keep = Prepared._select(G, full, depth, nodes, max_depth, max_children)
    shown_depth = max(depth[n] for n in keep)
    # Automatic limits: cut levels from the bottom until the drawing fits.
    max_span = max_nodes // 2  # leaves side by side
    cut = False
    while shown_depth > 1 and (len(keep) > max_nodes or _span(full, keep) > max_span):
        shown_depth -= 1
        keep = {n for n in keep if depth[n] <= shown_depth}
        cut = True
    # Cut to one level and still too wide: refused here, before the layout (a figure of
    # 20,000 leaves side by side would take minutes and gigabytes).
    if len(keep) > max_nodes or (shown_depth >= 1 and _span(full, keep) > max_span):
        drawn = {n: sum(1 for v in full[n] if v in keep) for n in keep}
        widest = max(drawn, key=drawn.get)
        label = G.nodes[widest].get("label")
        name = repr(widest) if label is None or label == widest else f"{label} ({widest!r})"
        raise TreeTooWide(widest, name, drawn[widest], _span(full, keep), max_nodes)
    return keep, shown_depth, cut


def check_size(G, *, nodes=None, max_depth=None, max_children=None, max_nodes=500):
    """Raise :class:`TreeTooWide` if the tree ``G`` is too wide to draw with these options; fast.

    What :class:`Prepared` checks before its layout, on its own: the exports
    call it before they search a tree, so a tree too wide fails at once (a
    root with 20,000 children in well under a millisecond, without walking
    the tree: ``benchmarks/wide_trees.py``).

    >>> import gametrees as gt
    >>> check_size(gt.tree_from_nested([[1, 2], [3, 4]]))
    >>> check_size(gt.tree_from_nested(list(range(300))))
    Traceback (most recent call last):
    ...
    gametrees.drawing.scene.TreeTooWide: the tree is too wide to draw: node A (()) has 300 children, ...
    >>> check_size(gt.tree_from_nested(list(range(300))), max_children=10)
    """
    max_nodes = check_max_nodes(max_nodes)
    max_depth = check_count(max_depth, "max_depth", 0)
    max_children = check_count(max_children, "max_children", 1)
    if not isinstance(G, nx.DiGraph) or G.graph.get("root") not in G:
        return  # (Prepared says what is wrong)
    root = G.graph["root"]
    _refuse_wide_root(G, root, nodes, max_depth, max_children, max_nodes)
    full = tree_children(G, root)
    depth = {root: 0}
    for u in _bfs(full, root):
        for v in full[u]:
            depth[v] = depth[u] + 1
    _drawn(G, full, depth, nodes, max_depth, max_children, max_nodes)


def _span(full, keep):
    """Width of the layout of the kept nodes, counted in leaves (an upper bound)."""
    leaves = 0
    for n in keep:
        if not any(v in keep for v in full[n]):
            leaves += 1
    return leaves


# ----------------------------------------------------------------------------
# What each node looks like: from annotations, from a frame, or plain
# ----------------------------------------------------------------------------


class Scene:
    """How each node and edge looks at one moment (a drawing of a tree, or one frame of a search)."""

    def __init__(self):
        self.style = {}       # node -> plain/done/active/todo/pruned
        self.value = {}       # node -> str
        self.edge = {}        # (u, v) -> plain/path/todo/pruned/best
        self.cut = []         # edges into the roots of pruned subtrees
        self.window = {}      # node -> (alpha, beta)
        self.current = None
        self.bounds = False   # some value is only a bound
        self.notes = {}       # node -> (line above, line below) beside it (MCTS: visits, UCB1)
        self.weights = {}     # (u, v) -> line width factor (MCTS: heavier with more visits)


def _utility(attrs):
    return format_number(attrs["utility"]) if "utility" in attrs else ""


def _edge_weight(visits, total):
    """An edge's line width factor: 0.6 for a single visit, up to 3 for all of them."""
    if not visits or not total:
        return 0.6
    return 0.6 + 2.4 * math.sqrt(min(visits, total) / total)


def _mcts_note(visits):
    return f"n={visits}"


def scene_from_graph(prep, values=True):
    """The scene of a plain tree or a finished search (the annotations a search wrote on the graph)."""
    if prep.G.graph.get("algorithm") == "mcts":
        return _scene_from_mcts_graph(prep, values)
    G, sc = prep.G, Scene()
    nodes = G.nodes
    for n in prep.order:
        a = nodes[n]
        status = a.get("status")
        leaf = prep.is_leaf[n]
        if status is None:
            sc.style[n] = "plain"
            sc.value[n] = _utility(a) if leaf else ""
        elif status == "visited":
            sc.style[n] = "done"
            if "value" in a and (values or leaf):
                sc.value[n] = format_value(a["value"], a.get("bound"))
                sc.bounds |= a.get("bound") in ("upper", "lower")
            else:
                sc.value[n] = _utility(a) if leaf else ""
            if "alpha" in a and not leaf and a.get("player") in (MAX, MIN):
                sc.window[n] = (a["alpha"], a["beta"])
        elif status == "pruned":
            sc.style[n] = "pruned"
            sc.value[n] = _utility(a) if leaf else ""
        else:
            sc.style[n] = "todo"
            sc.value[n] = _utility(a) if leaf else ""
    for u in prep.order:
        for v in prep.children[u]:
            e = G.edges[u, v]
            sv, su = sc.style[v], sc.style[u]
            if sv == "pruned":
                sc.edge[u, v] = "pruned"
                if su != "pruned":
                    sc.cut.append((u, v))
            elif e.get("best"):
                sc.edge[u, v] = "best"
            elif sv == "todo":
                sc.edge[u, v] = "todo"
            else:
                sc.edge[u, v] = "plain"
    return sc


def _scene_from_mcts_graph(prep, values=True):
    """A finished Monte Carlo tree search: mean inside, visits beside, edges heavier with more visits."""
    G, sc = prep.G, Scene()
    nodes = G.nodes
    total = nodes[prep.root].get("visits") or 0
    for n in prep.order:
        a = nodes[n]
        leaf = prep.is_leaf[n]
        if a.get("status") == "unvisited":  # (a replay's tree: not grown by the end)
            sc.style[n] = "todo"
            sc.value[n] = _utility(a) if leaf else ""
            continue
        sc.style[n] = "done"
        sc.value[n] = format_number(a.get("value")) if values or leaf else ""
        if "visits" in a:
            sc.notes[n] = (_mcts_note(a["visits"]), "")
    for u in prep.order:
        for v in prep.children[u]:
            if sc.style[v] == "todo":
                sc.edge[u, v] = "todo"
                continue
            sc.edge[u, v] = "best" if G.edges[u, v].get("best") else "plain"
            sc.weights[u, v] = _edge_weight(nodes[v].get("visits"), total)
    return sc


def _scene_from_mcts_frame(prep, fr, values=True):
    """One step of a Monte Carlo tree search: the grown tree, the selection, the playout, the backup."""
    G, sc = prep.G, Scene()
    nodes = G.nodes
    on_path = set(fr.path) | set(fr.updated)
    walk = set(fr.playout[1:])
    total = fr.visits.get(prep.root) or 0
    for n in prep.order:
        a = nodes[n]
        leaf = prep.is_leaf[n]
        if n in fr.order:
            sc.style[n] = "active" if n in on_path else "done"
            visits = fr.visits.get(n, 0)
            mean = fr.means.get(n)
            sc.value[n] = format_number(mean) if visits and mean is not None and (values or leaf) else (
                _utility(a) if leaf else "")
            below = ""
            if n in fr.scores:
                score = fr.scores[n]
                below = (f"p={format_number(score)}" if fr.players.get(fr.current) == CHANCE
                         else "UCB " + f"{score:.2f}".replace("-", "\u2212"))
            sc.notes[n] = (_mcts_note(visits), below)
        else:
            sc.style[n] = "todo"
            sc.value[n] = _utility(a) if leaf else ""
    steps = list(zip(fr.path, fr.path[1:])) + [(v, u) for u, v in zip(fr.updated, fr.updated[1:])]
    path_edges = set(steps)
    walk_edges = set(zip(fr.playout, fr.playout[1:]))
    for u in prep.order:
        for v in prep.children[u]:
            if (u, v) in path_edges:
                sc.edge[u, v] = "path"
            elif (u, v) in walk_edges:
                sc.edge[u, v] = "playout"
            elif v in fr.order:
                sc.edge[u, v] = "plain"
            else:
                sc.edge[u, v] = "todo"
            if v in fr.order:
                sc.weights[u, v] = _edge_weight(fr.visits.get(v, 0), total)
    if walk and fr.playout[-1] in prep.keep:
        end = fr.playout[-1]
        if sc.style[end] == "todo":
            sc.style[end] = "plain"  # the playout's end: its utility is the result
    elif fr.playout and fr.event.kind == "playout" and fr.playout[0] in prep.keep:
        # A game's playout runs below the grown tree: its length and result beside the node.
        start = fr.playout[0]
        top = sc.notes.get(start, ("", ""))[0]
        sc.notes[start] = (top, f"→ {format_number(fr.event.value)}")
    cur = fr.current
    while cur not in prep.keep and cur in prep.parent:
        cur = prep.parent[cur]
    sc.current = cur if cur in prep.keep else None
    return sc


def scene_from_frame(prep, fr, values=True):
    """The scene of one frame of a search (:class:`~gametrees.trace.Frame`) on the prepared tree."""
    if fr.event.kind in ("select", "expand", "playout", "backup"):
        return _scene_from_mcts_frame(prep, fr, values)
    G, sc = prep.G, Scene()
    nodes = G.nodes
    missing = next((n for n in (fr.current, *fr.path) if n not in G), None)
    if missing is not None:
        raise ValueError(
            f"the frame's node {missing!r} is not in the tree: draw a frame on the tree that was "
            "searched (tree=result.graph)"
        )
    on_path = set(fr.path)
    pruned = set()
    for n in fr.pruned:
        if n in prep.keep:
            pruned.update(_bfs(prep.children, n))
    for n in prep.order:
        a = nodes[n]
        leaf = prep.is_leaf[n]
        if n in fr.done:
            sc.style[n] = "done"
            bound = fr.bounds.get(n)
            if values or leaf:
                sc.value[n] = format_value(fr.values.get(n), bound)
            else:
                sc.value[n] = ""
            sc.bounds |= bound in ("upper", "lower")
        elif n in on_path:
            sc.style[n] = "active"
            v = fr.values.get(n)
            player = fr.players.get(n)
            if v is None or not values or (isinstance(v, float) and math.isinf(v)):
                sc.value[n] = ""
            elif player == MAX:
                sc.value[n] = format_value(v, "lower")
            elif player == MIN:
                sc.value[n] = format_value(v, "upper")
            else:
                sc.value[n] = format_number(v)
            if n in fr.alpha:
                sc.window[n] = (fr.alpha[n], fr.beta[n])
        elif n in pruned:
            sc.style[n] = "pruned"
            sc.value[n] = _utility(a) if leaf else ""
        else:
            sc.style[n] = "todo"
            sc.value[n] = _utility(a) if leaf else ""
    best = set()
    n = prep.root
    seen = {n}
    while n in fr.best and fr.best[n] in fr.order and fr.best[n] not in seen:
        best.add((n, fr.best[n]))
        n = fr.best[n]
        seen.add(n)
    path_edges = set(zip(fr.path, fr.path[1:]))
    for u in prep.order:
        for v in prep.children[u]:
            if v in pruned:
                sc.edge[u, v] = "pruned"
                if u not in pruned:
                    sc.cut.append((u, v))
            elif (u, v) in best:
                sc.edge[u, v] = "best"
            elif (u, v) in path_edges:
                sc.edge[u, v] = "path"
            elif v in fr.order:
                sc.edge[u, v] = "plain"
            else:
                sc.edge[u, v] = "todo"
    cur = fr.current
    while cur not in prep.keep and cur in prep.parent:
        cur = prep.parent[cur]
    sc.current = cur
    return sc


# ----------------------------------------------------------------------------
# Words: a result's summary
# ----------------------------------------------------------------------------


def summary(x, label=None):
    """"alphabeta: value 3, 11 nodes visited, 7 leaves evaluated" (``label`` replaces the algorithm)."""
    if isinstance(x, SearchResult) and x.algorithm == "mcts":
        return (f"{label or 'mcts'}: value {format_number(x.value)} (the root's mean for MAX), "
                f"{x.stats['playouts']} playouts, {x.stats['tree_nodes']} nodes in the tree")
    if isinstance(x, nx.DiGraph) and x.graph.get("algorithm") == "mcts":
        root = x.graph["root"]
        return (f"{label or 'mcts'}: value {format_number(x.nodes[root].get('value'))} "
                "(the root's mean for MAX), "
                f"{x.graph.get('playouts')} playouts, {x.number_of_nodes()} nodes in the tree")
    if isinstance(x, SearchResult):
        algo, value, stats = x.algorithm, x.value, x.stats
        visited, leaves = stats.get("nodes_visited"), stats.get("leaves_evaluated")
    elif isinstance(x, nx.DiGraph) and "algorithm" in x.graph:
        algo = x.graph["algorithm"]
        root = x.graph["root"]
        value = x.nodes[root].get("value")
        visited, leaves = x.graph.get("nodes_visited"), x.graph.get("leaves_evaluated")
    else:
        return label
    parts = [f"{label or algo}: value {format_number(value)}"]
    if visited is not None:
        parts.append(f"{visited} nodes visited")
    if leaves is not None:
        parts.append(f"{leaves} leaves evaluated")
    return ", ".join(parts)
