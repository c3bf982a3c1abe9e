"""The figures: textbook drawings of game trees, search results and frames of a search.

:func:`draw` draws a tree (a networkx graph in the schema of
:mod:`gametrees.trees`), a :class:`~gametrees.search.SearchResult` or one
:class:`~gametrees.trace.Frame` of a search onto a matplotlib Axes.
:func:`side_by_side` shows two results next to each other with their counts.

The look, in short: MAX nodes are up-triangles, MIN nodes down-triangles,
chance nodes circles, leaves squares; the backed-up value is written inside
(``≤ 2`` / ``≥ 5`` when pruning left only a bound); alpha and beta are written
beside a node; pruned edges are grey, dashed and cut; the principal variation
is a bold double line; during a replay the current node has a halo ring, nodes not reached yet
are faint, and the nodes on the current path show their value so far as a
bound (``≥ 3`` at a MAX node: it can only go up). Colours come from the
Okabe-Ito palette, and every status is also told by shape, line style or
fill, so the figures read in greyscale; the colour pairs stay apart under
simulated protanopia, deuteranopia and tritanopia
(``tests/test_figures_readable.py``). Every figure fits the notebook column
(:data:`~gametrees.drawing.MAX_FIGURE_PX`) and no text is smaller than
:data:`~gametrees.drawing.MIN_TEXT_PT`. Boards of a game tree carry the move
that led to them ("X c2"), as the replay's sentences name positions.

Drawing never searches: it reads the annotations a search wrote on
``result.graph`` (or the state of the search in a frame).

This module holds the entry points :func:`draw` and :func:`side_by_side` and
:class:`Drawing`, the small interface that the replay, the practice widget
and the exports use: a tree prepared once, with its options, that gives the
geometry, the scene of any frame, and paints a scene (or only the legend)
onto an Axes. It may import :mod:`gametrees.search`, :mod:`gametrees.trace`,
:mod:`gametrees.games` and the other modules of :mod:`gametrees.drawing`
(:mod:`~gametrees.drawing.layout`, :mod:`~gametrees.drawing.scene`,
:mod:`~gametrees.drawing.painter`).
"""

from __future__ import annotations

import math
import textwrap

import matplotlib
import networkx as nx

from ..games import ConnectFour, TicTacToe
from ..search import SearchResult
from ..trace import Event, Frame
from ..trace import frame as _frame
from .painter import MAX_FIGURE_PX, Geometry, Painter, figure_limit, setup_axes
from .scene import Prepared, check_count, check_max_nodes, scene_from_frame, scene_from_graph, summary

__all__ = ["Drawing", "draw", "side_by_side"]


# ----------------------------------------------------------------------------
# Input
# ----------------------------------------------------------------------------


def _as_graph(tree, what):
    if isinstance(tree, SearchResult):
        if tree.graph is None:
            raise ValueError(f"{what} has no graph: search with trace=True (or graph=True)")
        return tree.graph
    if isinstance(tree, nx.DiGraph):
        return tree
    raise TypeError(f"{what} must be a game tree (networkx.DiGraph) or a SearchResult, "
                    f"got {type(tree).__name__}")


def _resolve(x, k, tree):
    """(graph, frame or None, number of events or None, result or None)."""
    if isinstance(x, SearchResult):
        if tree is not None:
            raise TypeError("tree= is only for drawing a Frame; a SearchResult brings its own graph")
        G = x.graph
        if G is None:
            raise ValueError(
                f"this {x.algorithm} result has no graph to draw: search with trace=True (or graph=True)"
            )
        if k is None:
            return G, None, None, x
        if x.trace is None:
            raise ValueError(f"k={k!r} asks for a frame, but this {x.algorithm} result has no trace: "
                             "search with trace=True")
        # MCTS on a tree: frames are drawn on the whole input tree (playouts run below the grown tree).
        G = getattr(x, "replay_tree", None) or G
        return G, _frame(x.trace, k), len(x.trace), x
    if isinstance(x, Frame):
        if k is not None:
            raise TypeError("k= is for a SearchResult; a Frame is already one step of the search")
        if tree is None:
            raise ValueError("a frame needs the tree to draw it on: gt.draw(frame, tree=result.graph)")
        return _as_graph(tree, "tree"), x, None, None
    if isinstance(x, nx.DiGraph):
        if k is not None:
            raise TypeError("k= is for a SearchResult (a frame of its trace); this is a plain graph")
        if tree is not None:
            raise TypeError("tree= is only for drawing a Frame")
        return x, None, None, None
    if isinstance(x, (list, tuple)) and x and isinstance(x[0], Event):
        raise TypeError("got a trace: draw one frame of it with gt.draw(result, k=...) "
                        "or gt.draw(gt.frame(trace, k), tree=result.graph)")
    raise TypeError(
        f"draw expects a game tree (networkx.DiGraph), a SearchResult or a Frame, got {type(x).__name__}"
    )


def _check_flag(value, name):
    if value is not None and not isinstance(value, bool):
        raise TypeError(f"{name} must be True, False or None (automatic), got {value!r}")
    return value


# ----------------------------------------------------------------------------
# A prepared drawing: one tree, any number of frames
# ----------------------------------------------------------------------------


def _legend_rows(prep, n_entries_guess, width):
    ncol = max(1, int(width / 1.45))
    return max(1, math.ceil(n_entries_guess / ncol))


def _title_for(result_or_graph, fr, n_events, title):
    if title is False:
        return None
    if isinstance(title, str):
        return title
    if title is not None:
        raise TypeError(f"title must be a str, False or None (automatic), got {title!r}")
    if fr is not None:
        step = f"Step {fr.k + 1} of {n_events}" if n_events else f"Step {fr.k + 1}"
        return f"{step}: {fr.text}"
    return summary(result_or_graph)


class Drawing:
    """A prepared tree with its options: draws any number of frames of it.

    What :func:`draw` does in one go, in steps, for figures that are drawn
    again and again (the replay, the practice widget, an animation) or
    adjusted before painting (the scene of "why did it play that?")::

        drawing = Drawing(G, framed=True, **options)   # checks the options, lays the tree out
        geom, title = drawing.geometry(title)           # sizes; the title wrapped to the width
        ax = drawing.new_axes(geom, figure)              # an Axes of that size on ``figure``
        drawing.paint(ax, geom, drawing.scene(frame), title)

    Parameters are those of :func:`draw` (``framed=True``: the figure will
    show frames of a search, so it keeps room for the window and the
    replay's legend entries).

    Attributes
    ----------
    prep : Prepared
        The tree as drawn: ``prep.G``, ``prep.order`` (breadth first),
        ``prep.pos`` (layout positions), ``prep.kind``, ``prep.note``.
    options : dict
        ``labels``, ``moves``, ``windows`` (``None``: automatic) and ``legend``.
    auto_labels, auto_moves : bool
        What ``labels=None`` and ``moves=None`` choose where there is room.
    """

    def __init__(self, G, *, boards=None, labels=None, moves=None, windows=None, legend=True, values=True,
                 max_depth=None, max_children=None, nodes=None, max_nodes=500, framed=False):
        if boards is not None and not isinstance(boards, (TicTacToe, ConnectFour)):
            raise TypeError(
                f"boards must be a TicTacToe() or ConnectFour(...) game (to draw its boards), got {boards!r}"
            )
        for name, v in (("labels", labels), ("moves", moves), ("windows", windows)):
            _check_flag(v, name)
        for name, v in (("legend", legend), ("values", values)):
            if not isinstance(v, bool):
                raise TypeError(f"{name} must be True or False, got {v!r}")
        max_depth = check_count(max_depth, "max_depth", 0)
        max_children = check_count(max_children, "max_children", 1)
        max_nodes = check_max_nodes(max_nodes)
        self.prep = prep = Prepared(G, nodes=nodes, max_depth=max_depth, max_children=max_children,
                                     max_nodes=max_nodes, boards=boards)
        self.values = values
        game_tree = any("state" in G.nodes[n] for n in (prep.root,))
        self.auto_labels = labels is None and not game_tree and prep.mode == "shapes"
        edges = G.edges(data=True)
        self.auto_moves = moves is None and (
            (prep.mode == "boards" and any("move" in d for _, _, d in edges))
            or (prep.mode == "shapes"
                and (any("prob" in d for _, _, d in edges)
                     or any(G.nodes[n].get("player") == "chance" for n in G)
                     or (game_tree and any("move" in d for _, _, d in edges)))))
        self.options = {"labels": labels, "moves": moves, "windows": windows, "legend": legend}
        self.framed = framed

    def geometry(self, title, *, dpi=100, max_px=MAX_FIGURE_PX):
        """``(Geometry, title wrapped to the figure's width)`` for a figure with this title (or None).

        The figure fits ``max_px`` pixels at ``dpi`` (default :data:`MAX_FIGURE_PX`,
        the notebook column of JupyterLab at 1366 px; ``None``: no limit, see
        :func:`figure_limit`): the nodes move closer and the marks shrink to a
        legible size; only a tree too big even then gets a larger figure.
        """
        wide = self.framed or bool(self.options["windows"]) or self.prep.G.graph.get("algorithm") == "mcts"
        max_size = figure_limit(dpi, max_px)
        labels = self.options["labels"] if self.options["labels"] is not None else self.auto_labels
        width_guess = Geometry(self.prep, legend_rows=0, wide=wide, max_size=max_size, labels=labels).width
        entries = len(set(self.prep.kind.values())) + 3 + (2 if self.framed else 0)
        least = min(5.0, max_size[0]) if max_size[0] is not None else 5.0
        rows = _legend_rows(self.prep, entries, max(width_guess, least)) if self.options["legend"] else 0
        lines = 0
        if title:
            chars = max(40, int(max(width_guess, least) * 72 / 5.6))
            title = "\n".join(textwrap.wrap(title, chars))
            lines = title.count("\n") + 1
        geom = Geometry(self.prep, legend_rows=rows, title_lines=lines, labels=labels,
                         note=bool(self.prep.note) and self.options["legend"], wide=wide, max_size=max_size)
        return geom, title

    def scene(self, fr=None):
        """The :class:`~gametrees.drawing.scene.Scene` of the tree (``fr=None``) or of the frame ``fr``."""
        if fr is None:
            return scene_from_graph(self.prep, self.values)
        return scene_from_frame(self.prep, fr, self.values)

    def new_axes(self, geom, figure=None):
        """A figure of the right size with one Axes for the tree (pyplot unless ``figure`` is given)."""
        if figure is None:
            import matplotlib.pyplot as plt

            figure = plt.figure(figsize=(geom.width, geom.height))
        else:
            figure.set_size_inches(geom.width, geom.height)
        ax = figure.add_axes((0.0, 0.0, 1.0, geom.axes_h / geom.height))
        return ax

    def painter(self, geom):
        """The painter for this drawing at this geometry (labels and moves where there is room)."""
        opts = dict(self.options)
        # Labels and moves are drawn at a readable size at any scale a figure is given (MIN_TEXT_PT);
        # on a caller's own tiny Axes (scale below the figures' smallest) they are left out.
        smallest = 0.4 if self.prep.mode == "boards" else 0.65
        if opts["labels"] is None:
            opts["labels"] = self.auto_labels and geom.f >= smallest
        if opts["moves"] is None:
            opts["moves"] = self.auto_moves and geom.f >= smallest
        return Painter(self.prep, geom, **opts)

    def paint(self, ax, geom, sc, title, legend=True):
        """Paint the scene ``sc`` (and the title, and the legend unless ``legend=False``) onto ``ax``.

        Returns the artists added, so that a caller can remove them to paint the next frame.
        """
        setup_axes(ax, geom)
        return self.painter(geom).paint(ax, sc, title, legend)

    def paint_legend(self, ax, geom, extra=()):
        """Paint only the legend (and the note of a cut tree): what stays the same in every frame.

        ``extra`` adds entries the first scene may not show yet: ``"current"``,
        ``"todo"``, ``"window"``. Returns the artists added (none with ``legend=False``).
        """
        if not self.options["legend"]:
            return []
        artists = [self.painter(geom).paint_legend(ax, self.scene(), extra=extra)]
        if self.prep.note:
            artists.append(ax.text(0.01, 0.01, self.prep.note, transform=ax.transAxes, fontsize=7.5,
                                   color="#505050", ha="left", va="bottom", gid="note"))
        return [a for a in artists if a is not None]


# ----------------------------------------------------------------------------
# Public API
# ----------------------------------------------------------------------------


def draw(x, ax=None, *, k=None, tree=None, boards=None, values=True, labels=None, moves=None,
         windows=None, legend=True, title=None, max_depth=None, max_children=None, nodes=None,
         max_nodes=500):
    """Draw a game tree, a search result, or one frame of a search.

    Parameters
    ----------
    x : networkx.DiGraph, SearchResult or Frame
        A tree (as built by :func:`~gametrees.trees.tree_from_nested`,
        :func:`~gametrees.trees.expand`, ...); a search result (its annotated
        ``graph`` is drawn: values, bounds, alpha/beta, pruned branches, the
        principal variation); or a frame of a search (``gt.frame(trace, k)``),
        drawn on ``tree``.
    ax : matplotlib.axes.Axes, optional
        Where to draw. Default: a new pyplot figure sized to the tree (a few
        hundred nodes stay readable; larger trees are cut at a depth, and
        ``…`` marks the hidden subtrees).
    k : int, optional
        With a SearchResult: draw the search after event ``k`` of its trace
        (negative counts from the end) instead of the finished search.
    tree : networkx.DiGraph or SearchResult, optional
        With a Frame: the tree to draw it on (``result.graph``).
    boards : TicTacToe or ConnectFour, optional
        Draw each node's ``state`` as a small board of this game instead of
        a shape (the mark just played is shaded; the board's frame is blue
        when MAX (X) moves there, vermilion when MIN (O) does).
    values : bool
        ``False`` hides the backed-up values of inner nodes (leaves keep
        their utilities): an exercise sheet.
    labels, moves, windows : bool or None
        Node labels (A, B, ...) beside the nodes; move labels (or chance
        probabilities) on the edges, or above each board the move that led
        to it as a player says it ("X c2", "O d": the names the replay's
        sentences use); alpha and beta beside the nodes. ``None``
        (default) decides: labels on trees without game states; moves on
        game trees and on chance edges; windows for the
        nodes on the current path of a frame.
    legend : bool
        A small legend under the tree.
    title : str, False or None
        ``None``: a summary (algorithm, value, counts) for a result, the
        event's sentence for a frame, nothing for a plain tree.
    max_depth, max_children : int, optional
        Draw only the levels down to ``max_depth``; at most ``max_children``
        children per node (the first ones, and the child on the principal
        variation). ``… 7`` / ``+7 …`` marks what is hidden.
    nodes : collection, optional
        Draw only these nodes (with the root and each node's parent).
    max_nodes : int
        Beyond this many nodes, or ``max_nodes / 2`` leaves side by side
        (a figure about 90 inches wide), levels are cut from the bottom; a
        tree wider than that even at the level under its root is refused
        (:class:`~gametrees.drawing.TreeTooWide`, a ValueError naming the
        node) before any drawing work. At most
        :data:`~gametrees.drawing.MAX_DRAWN_NODES` (5,000).

    Returns
    -------
    matplotlib.axes.Axes
        Its artists carry a gid, so that a test (or an autograder) can read
        the drawing: ``edges:<style>`` (LineCollections with an ``edges``
        attribute; style ``plain``, ``path``, ``todo``, ``pruned`` or
        ``best``), ``cut-marks`` (with ``edges``), ``nodes:<status>``
        (PathCollections with ``nodes``, ``kind`` and ``status`` attributes;
        status ``plain``, ``done``, ``active``, ``todo`` or ``pruned``),
        ``best-line-core`` (the white core that makes the best line a double
        line, with ``edges``), ``current`` (the halo, with ``nodes``), the text layers ``values``,
        ``labels``, ``windows``, ``moves`` and ``ellipsis``
        (:class:`TextCollection`, with ``texts``, ``nodes`` and ``fontsizes``), ``legend``,
        ``note``; with boards also ``board-grid``, ``board-x``, ``board-o``,
        ``board-discs:<mark>`` and ``last-moves``.

    Raises
    ------
    TypeError
        ``x`` is not a tree, result or frame; an option has the wrong type.
    ValueError
        A result without a graph (search with ``trace=True``), a frame
        without its tree, a frame of another tree, a graph without a root,
        with a cycle or with unreachable nodes.

    Examples
    --------
    >>> import gametrees as gt
    >>> r = gt.alphabeta(gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    >>> ax = gt.draw(r)
    >>> values = next(c for c in ax.collections if c.get_gid() == "values")
    >>> dict(zip(values.nodes, values.texts))[(1,)]  # a bound: C's true value is 2 or less
    '≤\u200a2'
    >>> pruned = next(c for c in ax.collections if c.get_gid() == "nodes:pruned")
    >>> sorted(pruned.nodes)
    [(1, 1), (1, 2)]

    One step of the replay: the search has just entered C.

    >>> ax = gt.draw(r, k=10)
    >>> print(ax.get_title(loc="left"))
    Step 11 of 26: Go down from A to C, a MIN node with window α =
    3, β = +∞.

    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    G, fr, n_events, result = _resolve(x, k, tree)
    if ax is not None and not isinstance(ax, matplotlib.axes.Axes):
        raise TypeError(f"ax must be a matplotlib Axes, got {type(ax).__name__}")
    if windows is None and fr is None and G.size() < 60 and any("alpha" in d for _, d in G.nodes(data=True)):
        windows = True  # a finished alpha-beta search on a small tree: show every node's window
    drawing = Drawing(G, boards=boards, labels=labels, moves=moves, windows=windows, legend=legend,
                       values=values, max_depth=max_depth, max_children=max_children, nodes=nodes,
                       max_nodes=max_nodes, framed=fr is not None)
    text = _title_for(result if result is not None else G, fr, n_events, title)
    geom, text = drawing.geometry(text, dpi=matplotlib.rcParams["figure.dpi"])
    if ax is None:
        ax = drawing.new_axes(geom)
    else:
        geom.fit_axes(ax)
    drawing.paint(ax, geom, drawing.scene(fr), text)
    return ax


def side_by_side(left, right, *, titles=None, **options):
    """Two searches next to each other (or one above the other when the trees are wide).

    For minimax against alpha-beta on one tree, best against worst move
    ordering, the textbook rule against the strict one, ...

    Parameters
    ----------
    left, right : SearchResult or networkx.DiGraph
        Results (or annotated graphs) to compare.
    titles : (str, str), optional
        Names for the two searches (default: their algorithms); each title
        goes on with the value and the counts.
    **options
        Passed to :func:`draw` (``boards``, ``labels``, ``max_depth``, ...).

    Returns
    -------
    matplotlib.figure.Figure
        A pyplot figure with the two Axes (``fig.axes``).

    Examples
    --------
    >>> import gametrees as gt
    >>> T = gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    >>> fig = side_by_side(gt.minimax(T), gt.alphabeta(T))
    >>> [ax.get_title(loc="left").replace("\\n", " ") for ax in fig.axes]  # doctest: +NORMALIZE_WHITESPACE
    ['minimax: value 3, 13 nodes visited, 9 leaves evaluated',
     'alphabeta: value 3, 11 nodes visited, 7 leaves evaluated']
    >>> import matplotlib.pyplot as plt; plt.close(fig)
    """
    import matplotlib.pyplot as plt

    if "ax" in options or "k" in options or "tree" in options:
        raise TypeError("side_by_side draws finished searches on its own figure: no ax=, k= or tree=")
    items = []
    for side, x in (("left", left), ("right", right)):
        G = _as_graph(x, side)
        items.append((x, G))
    if titles is None:
        titles = (None, None)
    elif (not isinstance(titles, (list, tuple)) or len(titles) != 2
          or not all(isinstance(t, str) for t in titles)):
        raise TypeError(f"titles must be a pair of strings, got {titles!r}")
    titles = [summary(x, label) or "" for (x, _), label in zip(items, titles)]
    gap = 0.4
    dpi = matplotlib.rcParams["figure.dpi"]
    max_w, max_h = MAX_FIGURE_PX
    # Side by side when both fit half the column; else one above the other, each the column's width.
    half = ((max_w - gap * dpi) / 2, max_h)
    made = [Drawing(G, **{k: v for k, v in options.items() if k != "title"}) for _, G in items]
    drawings = [(d, *d.geometry(t, dpi=dpi, max_px=half)) for d, t in zip(made, titles)]
    beside = all(geom.width * dpi <= half[0] + 0.5 for _, geom, _ in drawings)
    if not beside:
        drawings = [(d, *d.geometry(t, dpi=dpi)) for d, t in zip(made, titles)]
    if beside:  # side by side
        width = sum(geom.width for _, geom, _ in drawings) + gap
        height = max(geom.height for _, geom, _ in drawings)
        fig = plt.figure(figsize=(width, height))
        x0 = 0.0
        for d, geom, t in drawings:
            ax = fig.add_axes((x0, 0.0, geom.width / width, geom.axes_h / height))
            x0 += (geom.width + gap) / width
            geom.fit_axes(ax)
            d.paint(ax, geom, d.scene(), t)
    else:  # wide trees: one above the other, so that both stay readable
        width = max(geom.width for _, geom, _ in drawings)
        height = sum(geom.height for _, geom, _ in drawings) + gap
        fig = plt.figure(figsize=(width, height))
        y0 = 1.0
        for d, geom, t in drawings:
            y0 -= geom.height / height
            ax = fig.add_axes((0.0, y0, geom.width / width, geom.axes_h / height))
            y0 -= gap / height
            geom.fit_axes(ax)
            d.paint(ax, geom, d.scene(), t)
    return fig
