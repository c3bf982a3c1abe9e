"""Painting: a scene turned into matplotlib artists on an Axes.

This module holds the look of every figure: the colours (the Okabe-Ito
:data:`PALETTE`) and the styles of nodes and edges; :class:`TextCollection`
(many short texts as one collection of glyph outlines, the reason a frame
takes milliseconds); :class:`Geometry` (the figure's size and the scale of
every mark); and :class:`Painter`, which adds the artists of one
:class:`~gametrees.drawing.scene.Scene` to an Axes (shapes or game boards,
edges and cut marks, values, labels, alpha and beta, the legend).

It may import matplotlib, numpy, :mod:`gametrees.games`,
:mod:`gametrees.search` (to name the moves above boards) and
:mod:`gametrees.drawing.scene`; it never creates a figure (that is
:mod:`gametrees.drawing.figure`).
"""

from __future__ import annotations

import math
import numbers
from functools import lru_cache

import numpy as np
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.lines import Line2D
from matplotlib.markers import MarkerStyle
from matplotlib.path import Path
from matplotlib.textpath import TextPath
from matplotlib.transforms import Affine2D, IdentityTransform

from ..games import CHANCE, MAX, MIN, ConnectFour, TicTacToe
from ..search.engine import move_name
from ..wording import fmt_prob, visible
from .lettering import GAP, MIN_TEXT_PT, Placer, TextCollection, Texts, fontprops, text_extent
from .scene import format_number, format_value

__all__ = ["MAX_FIGURE_PX", "MIN_TEXT_PT", "PALETTE", "Geometry", "Painter", "TextCollection", "figure_limit",
           "setup_axes"]


# ----------------------------------------------------------------------------
# Colours and styles
# ----------------------------------------------------------------------------

#: The Okabe-Ito palette: distinguishable for the common forms of colour
#: blindness. Shapes, line styles and fills carry the meaning as well.
PALETTE = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermilion": "#D55E00",
    "purple": "#CC79A7",
}
_TINT = {MAX: "#CFE8F7", MIN: "#FBE3B3", CHANCE: "#BFE6DA", "leaf": "#FFFFFF"}
_INK = "#000000"
_GREY = "#8C8C8C"
_FAINT = "#B8B8B8"
_TODO_TEXT = "#767676"  # text of what the search has not reached: grey, but 4.5:1 on white (WCAG AA)
_PRUNED_FILL = "#DDDDDD"
_DASH = (0, (3.0, 2.0))

# Node styles: face, edge colour, line width, line style, text colour.
_NODE_STYLE = {
    "plain": (None, _INK, 1.2, "solid", _INK),
    "done": (None, _INK, 1.2, "solid", _INK),
    "active": (None, _INK, 2.0, "solid", "#303030"),
    "todo": ("#FFFFFF", _FAINT, 0.9, "solid", "#A6A6A6"),
    "pruned": (_PRUNED_FILL, _GREY, 1.0, _DASH, _GREY),
}
# Edge styles: colour, line width, line style, z-order.
_EDGE_STYLE = {
    "plain": ("#303030", 1.1, "solid", 1.0),
    "path": (_INK, 2.0, "solid", 1.2),
    "todo": ("#CFCFCF", 0.9, "solid", 0.8),
    "pruned": (_GREY, 1.0, _DASH, 0.9),
    "best": (PALETTE["blue"], 4.2, "solid", 1.3),
    "playout": (PALETTE["vermilion"], 1.8, (0, (1.0, 1.6)), 1.25),
}
_BEST_CORE = 1.3  # the white line inside the best line: a double line

_SHAPE_MARKER = {MAX: "^", MIN: "v", CHANCE: "o", "leaf": "s"}
# Size of each marker's bounding box in points at scale 1, and the width a
# text may take inside it; triangles are larger so that a value fits.
_SHAPE_SIZE = {MAX: 32.0, MIN: 32.0, CHANCE: 26.0, "leaf": 21.0}
_SHAPE_ROOM = {MAX: 17.0, MIN: 17.0, CHANCE: 20.0, "leaf": 18.0}
# Where a value sits inside the marker, in points (the wide part of a triangle).
_SHAPE_DY = {MAX: -7.0, MIN: 7.0, CHANCE: 0.0, "leaf": 0.0}

_HALO = 1.55  # the current node's halo, relative to its marker
# From a mark's centre to its farthest point, relative to its size (a triangle's and a square's corners).
_CORNER = {MAX: 0.71, MIN: 0.71, CHANCE: 0.5, "leaf": 0.71}
# The current node's halo: an orange disc (or board frame) with a vermilion ring, far from every
# node fill, the MIN tint included, under each colour-vision deficiency (tests/test_figures_readable.py).
_HALO_FACE, _HALO_RING = PALETTE["orange"], PALETTE["vermilion"]

# Inches per x unit and per level at scale 1, for shapes and for boards.
_UNIT = {"shapes": (0.52, 0.80), "boards": (1.02, 1.45)}


@lru_cache(maxsize=64)
def _marker_path(marker):
    style = marker if isinstance(marker, MarkerStyle) else MarkerStyle(marker)
    return style.get_path().transformed(style.get_transform())


@lru_cache(maxsize=4096)
def _grow_to_fit(kind, text, size, fm):
    """The factor (1 to 3) by which a node's mark grows so that its value fits inside.

    The value is shrunk to fit the mark's room first, but never below
    :data:`MIN_TEXT_PT`; what is still too wide grows the mark. The value keeps its
    place in the grown mark (the wide part of a triangle: its offset grows too), and a
    point of the mark's fill is kept around its ink.
    """
    room = _SHAPE_ROOM[kind] * fm
    e = text_extent(text, size, "center", "center", 0.0, 0.0, room, "normal") if text else None
    if e is None:
        return 1.0
    base = _SHAPE_SIZE[kind] * fm
    outline = _marker_path(_SHAPE_MARKER[kind])  # spans -0.5 .. 0.5
    x0, y0, x1, y1 = e[0] - 1.2, e[1] - 1.2, e[2] + 1.2, e[3] + 1.2
    k = np.arange(1.0, 3.001, 0.05)
    dy = _SHAPE_DY[kind] * fm * k
    corners = np.stack([np.stack([np.full_like(k, x), y + dy], axis=1) / (base * k)[:, None]
                        for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))], axis=1)
    inside = outline.contains_points(corners.reshape(-1, 2)).reshape(len(k), 4).all(axis=1)
    return float(k[np.argmax(inside)]) if inside.any() else 3.0


def _scatter(ax, x, y, *, s, marker, facecolors, edgecolors, linewidths=1.0, linestyles="solid", zorder=4):
    """``ax.scatter`` for what the drawings need, without its overhead (a third of a frame)."""
    offsets = np.column_stack([np.atleast_1d(x), np.atleast_1d(y)]).astype(float)
    coll = PathCollection(
        (_marker_path(marker),), sizes=np.atleast_1d(s), offsets=offsets, offset_transform=ax.transData,
        facecolors=facecolors, edgecolors=edgecolors, linewidths=linewidths, linestyles=linestyles,
        zorder=zorder, transform=IdentityTransform(),
    )
    ax.add_collection(coll, autolim=False)
    return coll


# ----------------------------------------------------------------------------
# Geometry: figure size and the scale of every mark
# ----------------------------------------------------------------------------


#: The most room a figure takes on the page, in pixels: (width, height).
#:
#: Measured in JupyterLab 4 in Chromium at 1366x900 with the file browser open:
#: the notebook's output column is 934 px wide and the visible notebook area
#: 775 px high; a replay's controls, step sentence, window and counts take
#: about 250 px of it. A figure of at most 900 x 480 px therefore sits in the
#: column without sideways scrolling, and a replay (controls, sentence and
#: tree) fits on the screen at once. :meth:`Drawing.geometry` keeps every
#: figure inside it: the replay, the practice widget, "why did it play that?",
#: the exports and :func:`gametrees.draw` (see :func:`figure_limit`).
MAX_FIGURE_PX = (900, 480)



def figure_limit(dpi=100.0, size_px=MAX_FIGURE_PX):
    """The largest figure, ``(width, height)`` in inches, that fits ``size_px`` pixels at ``dpi``.

    ``size_px=None`` (or a ``None`` inside it) lifts the limit (in that direction).

    Examples
    --------
    >>> figure_limit()
    (9.0, 4.8)
    >>> figure_limit(200, (900, None))
    (4.5, None)
    """
    if size_px is None:
        return None, None
    if isinstance(dpi, bool) or not isinstance(dpi, numbers.Real) or not dpi > 0:
        raise ValueError(f"dpi must be a positive number, got {dpi!r}")
    if not isinstance(size_px, (tuple, list)) or len(size_px) != 2:
        raise TypeError(f"size_px must be a (width, height) pair of pixels, got {size_px!r}")
    out = []
    for name, v in zip(("width", "height"), size_px):
        if v is None:
            out.append(None)
        elif isinstance(v, bool) or not isinstance(v, numbers.Real) or not v > 0:
            raise ValueError(f"the {name} in size_px must be a positive number of pixels, got {v!r}")
        else:
            out.append(round(float(v) / float(dpi), 6))
    return tuple(out)


@lru_cache(maxsize=1)
def _window_text_width():
    """Width of the widest alpha/beta note ("α=−∞"), in points per point of font size."""
    return max(TextPath((0, 0), t, size=1, prop=fontprops()).get_extents().width for t in ("α=−∞", "β=+∞"))


# The smallest scale of the marks: a tree that is still too wide gets a wider figure.
_MIN_MARK_SCALE = {"shapes": 0.7, "boards": 0.42}


def _widest_values(prep, frames):
    """Per kind of node, the longest values its marks hold (a few, to size the figure).

    The values the tree carries: utilities, a search's values and bounds. The root's
    entry (``"root"``) adds, for the frames of a search (``frames``), a bound on the
    widest utility and a mean with four decimals where means appear (Monte Carlo tree
    search, chance nodes): room above the figure for the root's mark to grow.
    """
    G = prep.G
    out = {}
    for n in prep.order:
        a = G.nodes[n]
        texts = out.setdefault(prep.kind[n], set())
        for key in ("utility", "value"):
            if isinstance(a.get(key), numbers.Real):
                texts.add(format_value(a[key], a.get("bound") if key == "value" else None))
    root = set(out.get(prep.kind[prep.root], ()))
    utilities = [a["utility"] for a in G.nodes.values() if isinstance(a.get("utility"), numbers.Real)]
    if frames and utilities:
        biggest = max(abs(u) for u in utilities)
        whole = format_number(-biggest if any(u < 0 for u in utilities) else biggest)
        root.add("≤\u200a" + whole)
        if G.graph.get("algorithm") == "mcts" or CHANCE in prep.kind.values():
            root.add(whole + ".3333")
    out = {kind: tuple(sorted(texts, key=len)[-3:]) for kind, texts in out.items()}
    out["root"] = tuple(sorted(root, key=len)[-3:])
    return out


class Geometry:
    """Axes limits, inches per unit, and the scale ``f`` of markers and fonts.

    The figure fits ``max_size`` (inches, ``(width, height)``; see
    :func:`figure_limit`): first the spacing of the nodes shrinks to what the
    marks need, then the marks (down to ``_MIN_MARK_SCALE``, legible); only a
    tree too big even then gets a larger figure.
    """

    PADX = 0.8          # x units left and right of the outermost nodes
    MAX_WIDTH = 16.0    # inches before marks shrink, without a limit

    def __init__(self, prep, *, legend_rows=1, title_lines=0, note=False, wide=False, max_size=None,
                 labels=False):
        self.prep = prep
        self.labels = labels  # node labels beside the inner nodes: room for them between neighbours
        mode = prep.mode
        ux0, uy0 = _UNIT[mode]
        self.wide = wide
        if wide and mode == "boards":  # room for alpha and beta beside the boards
            ux0 *= 1.4
        self.unit0 = (ux0, uy0)
        self._values = _widest_values(prep, wide) if mode == "shapes" else {}
        max_w, max_h = max_size if max_size is not None else (None, None)
        if max_w is None:
            max_w = self.MAX_WIDTH
        span = prep.xmax - prep.xmin + 2 * self.PADX
        self.legend_in = 0.3 * legend_rows + (0.22 if note else 0.0)
        self.title_in = 0.2 * title_lines + (0.12 if title_lines else 0.0)
        gaps = self._level_gaps()
        floor = _MIN_MARK_SCALE[mode]
        steps = max(1, int(round((1.0 - floor) / 0.05)))
        for i in range(steps + 1):
            f = 1.0 - (1.0 - floor) * i / steps
            self.f = f
            last = i == steps
            ux = min(ux0 * f, max_w / span)
            need_x = self._ux_needed(gaps)
            if ux < need_x:
                if not last:
                    continue
                # Still too wide: alpha and beta may overlap a neighbour's margin (they have a white halo).
                ux = max(ux, self._ux_needed(gaps, windows=False))
            top, bottom = self._margins()
            uy = uy0 * (0.55 + 0.45 * f)
            room = None
            if max_h is not None and prep.levels:
                room = (max_h - self.legend_in - self.title_in - top - bottom) / prep.levels
                uy = min(uy, room)
            need_y = self._uy_needed()
            if uy < need_y:
                if not last:
                    continue
                uy = need_y
            # No edge through a node it does not join: taller levels, as far as the page allows,
            # then wider units (see _uy_clear); a tree that cannot have both keeps to the page.
            widest = max(ux, max_w / span)
            while self._uy_clear(ux) > uy and ux < widest:
                if room is None or self._uy_clear(ux) <= room:
                    uy = self._uy_clear(ux)
                    break
                uy = max(uy, room)
                ux = min(widest, ux * 1.08)
            else:
                if room is None or self._uy_clear(ux) <= room:
                    uy = max(uy, self._uy_clear(ux))
            break
        self.ux, self.uy = ux, uy
        self.top_in, self.bottom_in = top, bottom
        tree_w = span * self.ux
        self.width = max(tree_w, min(5.0, max_w) if legend_rows else 2.0)  # room for the legend
        extra = (self.width - tree_w) / self.ux / 2
        self.xlim = (prep.xmin - self.PADX - extra, prep.xmax + self.PADX + extra)
        tree_h = prep.levels * self.uy + top + bottom
        self.ylim = (-prep.levels - (bottom + self.legend_in) / self.uy, top / self.uy)
        self.axes_h = tree_h + self.legend_in
        self.height = self.axes_h + self.title_in

    # -- what the marks need -------------------------------------------------------

    def _mark_size(self, kinds=None, grown=True):
        """(width, height) of the largest mark of these kinds (default: all), in points, at the scale
        ``self.f`` (``grown``: as large as the longest value makes it, see :func:`_grow_to_fit`)."""
        prep, f = self.prep, self.f
        if prep.mode == "boards":
            side = _BOARD_SIDE * f
            if isinstance(prep.boards, ConnectFour):
                w = side * 1.12
                return w + 5.0 * f, w * prep.boards.rows / prep.boards.cols + 5.0 * f
            return side, side
        fm = max(f, 0.7)
        kinds = kinds or set(prep.kind.values())
        size = max(_SHAPE_SIZE[k] * (self._grow(k) if grown else 1.0) for k in kinds)
        return size * fm, size * fm

    def _grow(self, kind):
        """How much the marks of this kind may grow to hold their values (see :func:`_grow_to_fit`)."""
        fm = max(self.f, 0.7)
        return max((_grow_to_fit(kind, v, 10.0 * fm, fm) for v in self._values.get(kind, ())), default=1.0)

    def _level_gaps(self):
        """(least x distance, is the left one an inner node, their kinds) for neighbours on a level."""
        prep = self.prep
        levels = {}
        for n in prep.order:
            levels.setdefault(prep.depth[n], []).append(n)
        out = {}
        for nodes in levels.values():
            nodes = sorted(nodes, key=lambda n: prep.pos[n][0])
            for a, b in zip(nodes, nodes[1:]):
                d = prep.pos[b][0] - prep.pos[a][0]
                if d > 0:
                    key = (bool(prep.children[a]), frozenset((prep.kind[a], prep.kind[b])),
                           bool(prep.children[a]) or bool(prep.children[b]))
                    out[key] = min(d, out.get(key, d))
        return [(d, inner, kinds, labelled) for (inner, kinds, labelled), d in out.items()]

    def _label_width(self):
        """The widest label of an inner node, in points (0 without labels): it stands beside its node."""
        if not self.labels or self.prep.mode != "shapes":
            return 0.0
        G = self.prep.G
        texts = {str(G.nodes[n]["label"]) for n in self.prep.order
                 if self.prep.children[n] and G.nodes[n].get("label") is not None}
        widest = sorted(texts, key=len)[-3:]
        size = max(8.5 * self.f, MIN_TEXT_PT)
        boxes = [text_extent(t, size, "left", "center", 0.0, 0.0, 0.0, "normal") for t in widest]
        return max((box[2] for box in boxes if box is not None), default=0.0)

    def _ux_needed(self, gaps, windows=True):
        """Inches per x unit so that neighbouring marks (and alpha and beta beside inner boards) keep
        apart."""
        need = 0.0
        label = self._label_width()
        for d, inner, kinds, labelled in gaps:
            w, _ = self._mark_size(kinds)
            room = w + 4.0 + 0.15 * w
            if windows and inner and self.wide and self.prep.mode == "boards":
                room += 3.0 + _window_text_width() * max(8.0 * self.f, MIN_TEXT_PT)
            if labelled and label:  # an inner node's label beside it, clear of the neighbour
                room = max(room, w + label + 2 * GAP + 2.0)
            need = max(need, room / d)
        return need / 72

    def _margins(self):
        """(top, bottom) in inches: the root's mark and halo; the leaves' marks, values and labels."""
        prep, f = self.prep, self.f
        _, h = self._mark_size()
        text = max(9.5 * f, MIN_TEXT_PT) + 2.0
        if prep.mode == "boards":
            top = h / 2 + 9.0 * f + 4.0
            bottom = h / 2 + 4.5 * f + text + 4.0
        else:
            fm = max(f, 0.7)
            root = prep.kind[prep.root]
            grow = max((_grow_to_fit(root, v, 10.0 * fm, fm) for v in self._values.get("root", ())),
                       default=1.0)
            top = _SHAPE_SIZE[root] * fm * grow * _HALO / 2 + 3.0
            if self.wide and prep.children[prep.root]:
                # α and β above the root, where the edges of a wide tree leave no room beside it
                top += 2 * (7.5 * max(f, 1.0) + 1.2) + 2.0
            leaf = _SHAPE_SIZE["leaf"] * max(f, 0.7) * self._grow("leaf")
            bottom = max(h * _HALO / 2, leaf / 2 + 3.0 * f + text) + 3.0
        if any(not prep.children[n] for n in prep.hidden):  # "… 7" under a node
            bottom += text
        return top / 72, bottom / 72

    def _uy_needed(self):
        """Inches per level: a mark, the line to the next level and (boards) the value and move under/over it.

        (The marks as they are before a value makes one grow: a few grown marks take room
        from the line to the next level, not a taller figure.)
        """
        _, h = self._mark_size(grown=False)
        text = max(9.5 * self.f, MIN_TEXT_PT)
        if self.prep.mode == "boards":
            return (h + 4.5 * self.f + 2 * text + 18.0) / 72
        return (h + text + 6.0) / 72

    def _uy_clear(self, ux):
        """Inches per level so that no edge runs through a node it does not join (shapes).

        An edge from u down to v passes the neighbours of v on v's level (and of u
        on u's level) that lie towards the other end: a neighbour ``a`` units from
        the end, on an edge ``b`` units wide, is ``a*X*H / sqrt((b*X)**2 + H**2)``
        points from the line (X points per unit, H points per level), which must
        exceed the neighbour's half mark and half the line: the least H that does.
        (A tree whose parent fans out far over a small neighbour, as a leaf beside
        a deep sibling, needs taller levels; wider ones cannot help enough.)
        """
        prep = self.prep
        if prep.mode != "shapes" or ux <= 0:
            return 0.0
        X = ux * 72
        fm = max(self.f, 0.7)
        levels = {}
        for n in prep.order:
            levels.setdefault(prep.depth[n], []).append(n)
        rank = {}
        for nodes in levels.values():
            nodes.sort(key=lambda n: prep.pos[n][0])
            for i, n in enumerate(nodes):
                rank[n] = (nodes, i)
        need = 0.0
        grow = {kind: self._grow(kind) for kind in set(prep.kind.values())}
        if self.wide:  # a search's frames write bounds ("≤ −1") in MAX and MIN nodes
            fm = max(self.f, 0.7)
            for kind in set(grow) & {MAX, MIN}:
                values = self._values.get("leaf", ()) + self._values.get(kind, ())
                grow[kind] = max([grow[kind]] + [_grow_to_fit(kind, "≤\u200a" + v, 10.0 * fm, fm)
                                                 for v in values if v[:1] not in "≤≥"])
        for u in prep.order:
            xu = prep.pos[u][0]
            for v in prep.children[u]:
                xv = prep.pos[v][0]
                b = abs(xu - xv)
                if b < 1e-9:
                    continue
                for end, other in ((v, xu), (u, xv)):
                    nodes, i = rank[end]
                    j = i - 1 if other < prep.pos[end][0] else i + 1
                    if not 0 <= j < len(nodes):
                        continue
                    w = nodes[j]
                    a = abs(prep.pos[w][0] - prep.pos[end][0])
                    if a >= b:
                        continue
                    r = _SHAPE_SIZE[prep.kind[w]] * fm * grow[prep.kind[w]] * _CORNER[prep.kind[w]] + 2.0
                    if a * X <= r * 1.05:
                        continue
                    need = max(need, r * b * X / math.sqrt((a * X) ** 2 - r ** 2))
        return need / 72

    def fit_axes(self, ax):
        """Scale and units for an Axes of any size (a caller's own Axes)."""
        fig = ax.figure
        bbox = ax.get_position()
        w_in = bbox.width * fig.get_figwidth()
        h_in = bbox.height * fig.get_figheight()
        span = self.xlim[1] - self.xlim[0]
        yspan = self.ylim[1] - self.ylim[0]
        self.ux = w_in / span
        self.uy = h_in / yspan
        ux0, uy0 = self.unit0
        self.f = min(1.25, max(0.3, min(self.ux / ux0, self.uy / (uy0 * 0.8))))


# ----------------------------------------------------------------------------
# Painting
# ----------------------------------------------------------------------------


_BOARD_SIDE = 56.0  # points, at scale 1
_PIECE = {"X": PALETTE["blue"], "O": PALETTE["vermilion"]}


def _board_cells(game, state):
    """Rows of 'X' / 'O' / '.' from the top, for tic-tac-toe or Connect Four."""
    if isinstance(game, TicTacToe):
        return TicTacToe.to_string(state).split("/")
    lines = game.display(state).splitlines()[: game.rows]
    return [line[1:-1] for line in lines]


def _last_move_cell(game, cells, move):
    """(row from the top, col) of the mark the move into this node made, or None."""
    if not isinstance(move, numbers.Integral):
        return None
    if isinstance(game, TicTacToe):
        return (move // 3, move % 3) if 0 <= move < 9 else None
    col = int(move)
    for r, row in enumerate(cells):
        if 0 <= col < len(row) and row[col] != ".":
            return (r, col)
    return None


class Painter:
    """Adds the artists of one scene to an Axes (every call draws afresh)."""

    def __init__(self, prep, geom, *, labels, moves, windows, legend):
        self.prep, self.geom = prep, geom
        self.labels, self.moves, self.windows, self.legend = labels, moves, windows, legend
        self._current = None

    def paint(self, ax, sc, title=None, legend=True):
        prep, g = self.prep, self.geom
        artists = []
        texts = Texts()
        # Where texts may go: clear of every mark, ring, edge and text (see Placer).
        X, Y = g.ux * 72, g.uy * 72
        self.placer = Placer(X, Y, (g.xlim[0] * X, (g.ylim[0] + g.legend_in / g.uy) * Y,
                                    g.xlim[1] * X, g.ylim[1] * Y))
        self._current = sc.current
        artists += self._edges(ax, sc)
        if sc.cut:
            artists.append(self._cut_marks(ax, sc.cut))
        # -- nodes (and the texts beside them) ---------------------------------------
        if prep.mode == "boards":
            artists += self._boards(ax, sc, texts)
        else:
            artists += self._shapes(ax, sc, texts)
        if self.moves and prep.mode == "shapes":  # (boards carry theirs above them)
            self._edge_moves(texts, sc)
        self._ellipses(texts, sc)
        artists += texts.flush(ax, {"values": 6, "labels": 6, "windows": 6, "notes": 6, "moves": 6,
                                    "ellipsis": 6, "board-values": 6})
        if self.legend and legend:
            leg = self.paint_legend(ax, sc)
            if leg is not None:
                artists.append(leg)
        if prep.note and self.legend and legend:
            artists.append(ax.text(0.01, 0.01, prep.note, transform=ax.transAxes, fontsize=7.5,
                                   color="#505050", ha="left", va="bottom", gid="note"))
        if title:
            artists.append(ax.set_title(visible(title), fontsize=10, loc="left", x=0.012, ha="left"))
        return artists

    def _edges(self, ax, sc):
        """The edges, one LineCollection per style (the best line doubled by a white core)."""
        f = self.geom.f
        placer = self.placer
        artists = []
        groups = {}
        for (u, v), style in sc.edge.items():
            groups.setdefault(style, []).append((u, v))
        for style in ("todo", "pruned", "plain", "playout", "path", "best"):
            edges = groups.get(style)
            if not edges:
                continue
            color, lw, ls, z = _EDGE_STYLE[style]
            # MCTS: an edge is heavier the more playouts went through it (sc.weights).
            widths = ([lw * max(f, 0.6) * sc.weights.get(e, 1.0) for e in edges]
                      if sc.weights and style != "best" else lw * max(f, 0.6))
            segments = [self._segment(u, v) for u, v in edges]
            for e, (p0, p1), w in zip(edges, segments, np.broadcast_to(widths, (len(edges),))):
                placer.add_segment(placer.pt(p0), placer.pt(p1), float(w), owner=e)
            lc = LineCollection(segments, colors=color,
                                linewidths=widths, linestyles=ls, zorder=z, capstyle="round")
            lc.set_gid(f"edges:{style}")
            lc.edges = tuple(edges)
            ax.add_collection(lc, autolim=False)
            artists.append(lc)
            if style == "best":
                # A white core makes the best line a double line: it reads without its colour.
                core = LineCollection(segments, colors="white",
                                      linewidths=_BEST_CORE * max(f, 0.6), zorder=z + 0.01, capstyle="butt")
                core.set_gid("best-line-core")
                core.edges = tuple(edges)
                ax.add_collection(core, autolim=False)
                artists.append(core)
        return artists

    def _edge_moves(self, texts, sc):
        """Move labels (or chance probabilities) on the edges, each where it covers nothing."""
        prep = self.prep
        G = prep.G
        for u in prep.order:
            for v in prep.children[u]:
                e = G.edges[u, v]
                chance_edge = "prob" in e or G.nodes[u].get("player") == "chance"
                if "prob" in e:   # as the feedback writes it: 0.25, 1/3
                    label = fmt_prob(e["prob"])
                elif chance_edge:   # no prob on the edge: the outcomes are equally likely
                    label = fmt_prob(1 / G.out_degree(u))
                elif "move" in e:
                    label = str(e["move"])
                else:
                    continue
                self._edge_move(texts, sc, u, v, label, chance_edge)

    def _edge_move(self, texts, sc, u, v, label, chance_edge):
        """Place the move label of the edge u -> v: at the first free place along it (else the first)."""
        f, placer = self.geom.f, self.placer
        (x0, y0), (x1, y1) = self._segment(u, v)
        # Move labels nearer the parent (a cut mark sits at 0.6); chance
        # edges are never cut, and lower down their labels have room.
        ts = ((0.62, 0.5, 0.72, 0.4, 0.8, 0.3, 0.2) if chance_edge
              else (0.42, 0.32, 0.5, 0.24, 0.75, 0.16, 0.84))
        side = -1 if x1 < x0 - 1e-9 else 1
        # >= 10 px at 100 dpi; a move not reached yet in mid grey, still readable (4.5:1)
        size = 7.5 * max(f, 1.0)
        color = "#404040" if sc.style[v] != "todo" else _TODO_TEXT
        # (clear of the line itself: half its width, and the placer's pad)
        lw = (_EDGE_STYLE[sc.edge.get((u, v), "plain")][1] * max(f, 0.6)
              * sc.weights.get((u, v), 1.0))
        c = lw / 2 + 1.5
        # a second pass a little further out, where a short edge between big marks has no room
        for t, far in [(t, far) for far in (0.0, 7.0) for t in ts]:
            xy = (x0 + t * (x1 - x0), y0 + t * (y1 - y0))
            choices = [[(label, size, ha, va, dx, dy, 0.0, "normal")]
                       for sd in (side, -side) for ha in ("left" if sd > 0 else "right",)
                       for va, dx, dy in (("center", (c + 2.5 + far) * sd, 0.0),
                                          ("bottom", (c + far) * sd, c + 1.0),
                                          ("top", (c + far) * sd, -c - 1.0),
                                          ("center", (c + 9.0 + far) * sd, 0.0))]
            i, free = placer.place(xy, choices, claim=False)
            if free or (t, far) == (ts[-1], 7.0):
                if not free:  # nowhere free along the edge: the first place
                    xy = (x0 + ts[0] * (x1 - x0), y0 + ts[0] * (y1 - y0))
                    i = placer.place(xy, choices)[0]
                else:
                    placer.place(xy, choices[i:i + 1])
                self._put(texts, "moves", xy, choices[i], [color], (u, v))
                return

    def _ellipses(self, texts, sc):
        """The markers of hidden children: ``+7 …`` beside the last child shown, ``… 7`` under a cut node."""
        prep, f = self.prep, self.geom.f
        pos = prep.pos
        for n, h in prep.hidden.items():
            x, y = pos[n]
            kids = prep.children[n]
            if kids:
                lx, ly = pos[kids[-1]]
                xy = ((x + lx) / 2 + 0.32, (y + ly) / 2)
                line = (f"+{h} …", 7.5 * max(f, 0.7), "left", "center", 0.0, 0.0, 0.0, "normal")
                choices = [[line], [line[:4] + (0.0, 9.0) + line[6:]], [line[:4] + (0.0, -9.0) + line[6:]]]
            else:
                dy = -(self.half_height(n) + (19 if prep.mode == "boards" else 11) * f)
                if n in sc.notes:  # below the visits (and the score) written under the node
                    lines = 1 if prep.mode == "boards" else sum(1 for x in sc.notes[n] if x)
                    dy -= lines * (7.5 * max(f, 0.75) + 1.5) + (9.0 * f if prep.mode == "shapes" else 0.0)
                xy = (x, y)
                choices = [[(f"… {h}", 8.0 * max(f, 0.7), "center", "top", 0.0, dy, 0.0, "normal")],
                           [(f"… {h}", 8.0 * max(f, 0.7), "left", "top", 4.0, dy, 0.0, "normal")]]
            i = self.placer.place(xy, choices)[0]
            self._put(texts, "ellipsis", xy, choices[i], ["#505050"], n)

    # -- pieces ------------------------------------------------------------------

    def _segment(self, u, v):
        """The line of the edge u -> v: centre to centre, or board to board below the value."""
        pos = self.prep.pos
        (x0, y0), (x1, y1) = pos[u], pos[v]
        if self.prep.mode == "boards":
            f, py = self.geom.f, 1 / (72 * self.geom.uy)
            bh = self._board_size()[1]
            below = bh / 2 + 4.5 * f + max(9.5 * f, MIN_TEXT_PT) + 3.0  # under the value ("▲ 0")
            if self.prep.G.graph.get("algorithm") == "mcts":
                below += max(7.5 * f, MIN_TEXT_PT) + 2.0  # and the visits under it
            top = bh / 2 + 2.5 * f
            if self.moves and "move" in self.prep.G.edges[u, v]:
                # Above the move written over the board ("O c1"): the edge ends where the words begin.
                top = self._move_gap(v) + 0.8 * self._move_size() + 4.5  # (a best line is 4 points thick)
            return (x0, y0 - below * py), (x1, y1 + top * py)
        return (x0, y0), (x1, y1)

    def _move_size(self):
        """The size of the move written over a board, in points."""
        return 8.0 * max(self.geom.f, 0.94)

    def _move_gap(self, n):
        """From a board's centre to the foot of the move written over it, in points (clear of the halo)."""
        bh = self._board_size()[1]
        return bh / 2 + (9.0 * self.geom.f + 2.0 if n == self._current else 2.0)

    def half_height(self, n):
        """Half the height of node ``n``'s mark (its shape or its board), in points."""
        f = self.geom.f
        if self.prep.mode == "boards":
            return self._board_size()[1] / 2
        return _SHAPE_SIZE[self.prep.kind[n]] * max(f, 0.7) / 2

    def _put(self, texts, layer, xy, lines, colors, owner):
        """Add the lines of one placed choice (``(text, size, ha, va, dx, dy, fit, weight)``) to ``texts``."""
        for (text, size, ha, va, dx, dy, fit, weight), color in zip(lines, colors):
            texts.add(layer, xy, text, color, size, ha=ha, va=va, dx=dx, dy=dy, fit=fit, weight=weight,
                      owner=owner)

    def _block(self, layer, texts, xy, lines, colors, size, right, left, owner, first="right"):
        """Two short lines (α over β, visits over UCB1) beside a node, wherever they cover nothing.

        ``right`` and ``left`` are the distances (points) from the node's centre to its
        side; the lines straddle the centre's height, else stand above or below it.
        """
        step = size + 1.2
        lines = [line for line in lines if line]
        if not lines:
            return
        shapes = []
        for side in ((1, -1) if first == "right" else (-1, 1)):
            ha, dx = ("left", right) if side > 0 else ("right", -left)
            if len(lines) == 2:
                shapes += [[(ha, "bottom", dx, 0.8), (ha, "top", dx, -1.8)],
                           [(ha, "bottom", dx, 0.8 + step), (ha, "bottom", dx, 0.8)],
                           [(ha, "top", dx, -1.8), (ha, "top", dx, -1.8 - step)]]
            else:
                shapes += [[(ha, "center", dx, 0.0)], [(ha, "bottom", dx, 0.8)], [(ha, "top", dx, -1.8)]]
        # Then above or below the mark, and further out to the sides.
        up, down = max(right, left), -max(right, left)
        if len(lines) == 2:
            shapes += [[("center", "bottom", 0.0, up + step), ("center", "bottom", 0.0, up)],
                       [("center", "top", 0.0, down), ("center", "top", 0.0, down - step)]]
            for side in (1, -1):
                ha, dx = ("left", right * 0.7) if side > 0 else ("right", -left * 0.7)
                shapes += [[(ha, "bottom", dx, up + step), (ha, "bottom", dx, up)],
                           [(ha, "top", dx, down), (ha, "top", dx, down - step)]]
        else:
            shapes += [[("center", "bottom", 0.0, up)], [("center", "top", 0.0, down)]]
        choices = [[(text, size, ha, va, dx, dy, 0.0, "normal")
                    for text, (ha, va, dx, dy) in zip(lines, shape)] for shape in shapes]
        i = self.placer.place(xy, choices)[0]
        self._put(texts, layer, xy, choices[i], colors, owner)

    def _shapes(self, ax, sc, texts):
        prep, f = self.prep, self.geom.f
        fm = max(f, 0.7)  # marks and values shrink less than the spacing: they stay legible
        pos = prep.pos
        vsize = 10.0 * fm
        # Each mark grows where its value would not fit inside it ("−10.56" in a chance node).
        grow = {n: _grow_to_fit(prep.kind[n], sc.value.get(n, ""), vsize, fm) for n in prep.order}
        size = {n: _SHAPE_SIZE[prep.kind[n]] * fm * grow[n] for n in prep.order}
        artists, ring = self._shape_marks(ax, sc, size)
        # What the texts beside the nodes keep clear of: every mark and the ring (their boxes, with the line).
        half = {n: (ring.get(n, size[n]) + 2.4) / 2 for n in prep.order}
        placer = self.placer
        for n in prep.order:
            x, y = placer.pt(pos[n])
            outline = _marker_path(_SHAPE_MARKER[prep.kind[n]])
            shape = outline.transformed(Affine2D().scale(2 * half[n]).translate(x, y))
            placer.add_box((x - half[n], y - half[n], x + half[n], y + half[n]), owner=n, shape=shape)
        for n in prep.order:
            kind, style = prep.kind[n], sc.style[n]
            texts.add("values", pos[n], sc.value.get(n, ""), _NODE_STYLE[style][4], vsize,
                      dy=_SHAPE_DY[kind] * fm * grow[n], fit=_SHAPE_ROOM[kind] * fm, owner=n)
        # α and β, then the visits and scores, then the labels: each where it covers nothing.
        for n in prep.order:
            style = sc.style[n]
            if n in sc.window and (self.windows or (self.windows is None and style == "active")):
                a, b = sc.window[n]
                self._block("windows", texts, pos[n], [f"α={format_number(a)}", f"β={format_number(b)}"],
                            ["#303030"] * 2, 7.5 * max(f, 1.0), half[n] + GAP, half[n] + GAP, n)
            if n in sc.notes:
                under = None
                if prep.is_leaf[n]:  # under the leaf's label
                    under = half[n] + GAP + (
                        8.5 * f + 2.0 if self.labels and prep.G.nodes[n].get("label") is not None else 0.0)
                self._notes(texts, pos[n], sc.notes[n], half[n] + GAP, style, n, under)
        if self.labels:
            self._shape_labels(texts, sc, half)
        return artists

    def _shape_marks(self, ax, sc, size):
        """The current node's halo and the marks (a collection per kind and style); the halo's size."""
        prep, f = self.prep, self.geom.f
        pos = prep.pos
        artists = []
        groups = {}
        for n in prep.order:
            groups.setdefault((prep.kind[n], sc.style[n]), []).append(n)
        ring = {}
        if sc.current is not None and sc.current in pos:
            n = sc.current
            kind = prep.kind[n]
            ring[n] = size[n] * _HALO
            halo = _scatter(ax, *pos[n], s=ring[n] ** 2, marker=_SHAPE_MARKER[kind], facecolors=_HALO_FACE,
                            edgecolors=_HALO_RING, linewidths=2.4, zorder=3.5)
            halo.set_gid("current")
            halo.nodes = (n,)
            artists.append(halo)
        for (kind, style), ns in groups.items():
            face, edge, lw, ls, _ = _NODE_STYLE[style]
            if face is None:
                face = _TINT[kind]
            xy = np.array([pos[n] for n in ns], dtype=float)
            coll = _scatter(ax, xy[:, 0], xy[:, 1], s=[size[n] ** 2 for n in ns], marker=_SHAPE_MARKER[kind],
                            facecolors=face, edgecolors=edge, linewidths=lw * max(f, 0.7),
                            linestyles=ls, zorder=4 if style != "todo" else 3.8)
            coll.set_gid(f"nodes:{style}")
            coll.nodes = tuple(ns)
            coll.kind, coll.status = kind, style
            artists.append(coll)
        return artists, ring

    def _shape_labels(self, texts, sc, half):
        """Each node's label (A, B, ...): under a leaf, else beside the node, where it covers nothing."""
        prep, f = self.prep, self.geom.f
        pos = prep.pos
        for n in prep.order:
            label = prep.G.nodes[n].get("label")
            if label is None:
                continue
            style = sc.style[n]
            color = {"todo": _TODO_TEXT, "pruned": _GREY}.get(style, "#333333")
            lsize = 8.5 * f
            h = half[n]
            line = (str(label), lsize)
            if prep.is_leaf[n]:  # below a leaf: the row of leaves is tight
                choices = [[line + ("center", "top", 0.0, -(h + GAP), 0.0, "normal")],
                           [line + ("left", "center", h + GAP, 0.0, 0.0, "normal")],
                           [line + ("right", "center", -h - GAP, 0.0, 0.0, "normal")],
                           [line + ("left", "top", h * 0.7, -h * 0.7, 0.0, "normal")],
                           [line + ("right", "top", -h * 0.7, -h * 0.7, 0.0, "normal")]]
            else:
                # Beside the node, on the side its incoming edge does not come from: a right
                # child's edge arrives from the upper left, so its label goes right.
                side = -1.0
                pu = prep.parent.get(n)
                if pu is not None and pos[pu][0] < pos[n][0] - 1e-9:
                    side = 1.0
                dy = h * 0.45 if prep.kind[n] != MIN else -h * 0.1
                choices = []
                for sd in (side, -side):
                    ha = "right" if sd < 0 else "left"
                    choices += [[line + (ha, "center", sd * (h + GAP), dy, 0.0, "normal")],
                                [line + (ha, "bottom", sd * (h + GAP), h * 0.2, 0.0, "normal")],
                                [line + (ha, "top", sd * (h + GAP), -h * 0.2, 0.0, "normal")],
                                [line + (ha, "bottom", sd * h * 0.6, h + GAP, 0.0, "normal")],
                                [line + (ha, "top", sd * h * 0.6, -h - GAP, 0.0, "normal")]]
            i = self.placer.place(pos[n], choices)[0]
            self._put(texts, "labels", pos[n], choices[i], [color], n)

    def _board_size(self):
        """Board width and height in points."""
        game = self.prep.boards
        side = _BOARD_SIDE * self.geom.f
        if isinstance(game, ConnectFour):
            w = side * 1.12
            return w, w * game.rows / game.cols
        return side, side

    def _boards(self, ax, sc, texts):
        prep, f = self.prep, self.geom.f
        game = prep.boards
        pos = prep.pos
        G = prep.G
        bw, bh = self._board_size()
        artists = []
        if sc.current is not None and sc.current in pos:
            halo = _scatter(ax, *pos[sc.current], s=(max(bw, bh) + 14 * f) ** 2, marker="s",
                              facecolors=_HALO_FACE, edgecolors=_HALO_RING,
                              linewidths=2.4, zorder=3.5)
            halo.set_gid("current")
            halo.nodes = (sc.current,)
            artists.append(halo)
        frames, grid, xs, highlights, discs, cells = self._board_pieces(sc)
        artists += self._board_frames(ax, frames)
        artists += self._board_marks(ax, grid, xs, highlights, discs, cells)
        # What the texts keep clear of: every board's frame and the current node's halo.
        placer = self.placer
        pad = 0.0 if isinstance(game, TicTacToe) else 5.0 * f
        for n in prep.order:
            x, y = placer.pt(pos[n])
            hw, hh = (bw + pad) / 2 + 1.5, (bh + pad) / 2 + 1.5
            if n == sc.current:
                hw = hh = (max(bw, bh) + 14 * f) / 2 + 1.5
            placer.add_box((x - hw, y - hh, x + hw, y + hh), owner=n)
        # the value under each board, with the mover's shape
        vsize = 9.5 * f
        glyph = {MAX: "▲", MIN: "▼", CHANCE: "●", "leaf": "■"}
        for n in prep.order:
            style = sc.style[n]
            value = sc.value.get(n, "")
            kind = prep.kind[n]
            if prep.is_leaf[n] and "player" not in G.nodes[n] and "utility" in G.nodes[n]:
                kind = "leaf"
            line = (f"{glyph[kind]} {value}".strip(), vsize, "center", "top", 0.0, -(bh / 2 + 4.5 * f), 0.0,
                    "normal")
            placer.place(pos[n], [[line]])
            self._put(texts, "values", pos[n], [line], [_NODE_STYLE[style][4]], n)
        for n in prep.order:
            style = sc.style[n]
            if n in sc.window and (self.windows or (self.windows is None and style == "active")):
                a, b = sc.window[n]
                side = bw / 2 + (9.0 if n == sc.current else 3.0) * f
                side = max(side, (max(bw, bh) + 14 * f) / 2 + 1.5 + GAP if n == sc.current
                           else (bw + pad) / 2 + 1.5 + GAP)
                self._block("windows", texts, pos[n], [f"α={format_number(a)}", f"β={format_number(b)}"],
                            ["#303030"] * 2, 7.5 * max(f, 1.0), side, side, n)
            if n in sc.notes:  # under the value (boards stand close together)
                self._notes(texts, pos[n], sc.notes[n], 0.0, style, n, under=bh / 2 + 4.5 * f + vsize + 1.5)
        if self.moves:
            self._board_moves(texts, sc)
        return artists

    def _board_pieces(self, sc):
        """What each board shows, gathered to draw as a few collections.

        ``({(kind, style): nodes}, grid lines, X strokes (with faded), cells just played,
        {(mark, faded): disc centres}, the cells of a board)``, in data units.
        """
        prep, g = self.prep, self.geom
        game, pos, G = prep.boards, prep.pos, prep.G
        bw, bh = self._board_size()
        # points -> data units
        px, py = 1 / (72 * g.ux), 1 / (72 * g.uy)
        frames = {}
        grid, xs, highlights, discs = [], [], [], {}
        cells = None
        for n in prep.order:
            style = sc.style[n]
            kind = prep.kind[n]
            frames.setdefault((kind, style), []).append(n)
            cells = _board_cells(game, G.nodes[n]["state"])
            rows, cols = len(cells), len(cells[0])
            x, y = pos[n]
            cw, ch = bw / cols * px, bh / rows * py
            left, top = x - bw / 2 * px, y + bh / 2 * py
            faded = style in ("todo", "pruned")
            if isinstance(game, TicTacToe):
                for i in (1, 2):
                    grid.append(((left + i * cw, top), (left + i * cw, top - 3 * ch)))
                    grid.append(((left, top - i * ch), (left + 3 * cw, top - i * ch)))
            pu = self.prep.parent.get(n)
            if pu is not None and style not in ("todo",):
                cell = _last_move_cell(game, cells, G.edges[pu, n].get("move"))
                if cell is not None:
                    highlights.append((left + (cell[1] + 0.5) * cw, top - (cell[0] + 0.5) * ch))
            for r, row in enumerate(cells):
                for c, mark in enumerate(row):
                    cx, cy = left + (c + 0.5) * cw, top - (r + 0.5) * ch
                    if isinstance(game, TicTacToe):
                        if mark == "X":
                            dx, dy = 0.3 * cw, 0.3 * ch
                            xs.append((((cx - dx, cy - dy), (cx + dx, cy + dy)), faded))
                            xs.append((((cx - dx, cy + dy), (cx + dx, cy - dy)), faded))
                        elif mark == "O":
                            discs.setdefault(("O", faded), []).append((cx, cy))
                    else:
                        discs.setdefault((mark, faded), []).append((cx, cy))
        return frames, grid, xs, highlights, discs, cells

    def _board_frames(self, ax, frames):
        """The boards' backgrounds and frames, a collection per player and style."""
        f, game, pos = self.geom.f, self.prep.boards, self.prep.pos
        bw, bh = self._board_size()
        artists = []
        frame_color = {MAX: PALETTE["blue"], MIN: PALETTE["vermilion"], CHANCE: PALETTE["green"],
                       "leaf": _INK}
        for (kind, style), ns in frames.items():
            face = {"todo": "#FFFFFF", "pruned": _PRUNED_FILL}.get(style, "#FFFFFF")
            edge = (frame_color[kind] if style not in ("todo", "pruned")
                    else (_GREY if style == "pruned" else _FAINT))
            lw = {"active": 2.6, "todo": 0.9}.get(style, 1.6)
            xy = np.array([pos[n] for n in ns], dtype=float)
            pad = 0.0 if isinstance(game, TicTacToe) else 5.0 * f  # room around Connect Four's discs
            fw, fh = bw + pad, bh + pad
            verts = np.array([(-fw / 2, -fh / 2), (fw / 2, -fh / 2), (fw / 2, fh / 2), (-fw / 2, fh / 2),
                              (-fw / 2, -fh / 2)]) / max(fw, fh)
            marker = MarkerStyle(Path(verts, closed=True))
            coll = _scatter(ax, xy[:, 0], xy[:, 1], s=max(fw, fh) ** 2, marker=marker, facecolors=face,
                              edgecolors=edge, linewidths=lw * max(f, 0.7),
                              linestyles=_NODE_STYLE[style][3], zorder=4)
            coll.set_gid(f"nodes:{style}")
            coll.nodes = tuple(ns)
            coll.kind, coll.status, coll.board = kind, style, True
            artists.append(coll)
        return artists

    def _board_marks(self, ax, grid, xs, highlights, discs, cells):
        """On the boards: the cell just played, tic-tac-toe's grid, the Xs, then the Os or the discs."""
        f, game = self.geom.f, self.prep.boards
        bw, bh = self._board_size()
        artists = []
        if highlights:
            # The mark just played: a shaded cell (tic-tac-toe) or a ring (Connect Four).
            hl = np.array(highlights)
            cell_pt = min(bw / len(cells[0]), bh / len(cells))
            if isinstance(game, TicTacToe):
                coll = _scatter(ax, hl[:, 0], hl[:, 1], s=(cell_pt * 0.98) ** 2, marker="s",
                                  facecolors="#FFF3A8", edgecolors="none", zorder=4.1)
            else:
                coll = _scatter(ax, hl[:, 0], hl[:, 1], s=(cell_pt * 0.92) ** 2, marker="o",
                                  facecolors="none", edgecolors=_INK, linewidths=1.8 * max(f, 0.7),
                                  zorder=4.4)
            coll.set_gid("last-moves")
            artists.append(coll)
        if grid:
            lc = LineCollection(grid, colors="#505050", linewidths=0.8 * max(f, 0.7), zorder=4.2)
            lc.set_gid("board-grid")
            ax.add_collection(lc, autolim=False)
            artists.append(lc)
        if xs:
            lc = LineCollection([s for s, _ in xs], colors=[_GREY if fd else _PIECE["X"] for _, fd in xs],
                                linewidths=1.6 * max(f, 0.7), zorder=4.3, capstyle="round")
            lc.set_gid("board-x")
            ax.add_collection(lc, autolim=False)
            artists.append(lc)
        cell_pt = min(bw / (3 if isinstance(game, TicTacToe) else game.cols),
                      bh / (3 if isinstance(game, TicTacToe) else game.rows))
        for (mark, faded), pts in discs.items():
            pts = np.array(pts)
            if isinstance(game, TicTacToe):
                coll = _scatter(ax, pts[:, 0], pts[:, 1], s=(cell_pt * 0.62) ** 2, marker="o",
                                  facecolors="none", edgecolors=_GREY if faded else _PIECE["O"],
                                  linewidths=1.6 * max(f, 0.7), zorder=4.3)
            else:
                face = {"X": _PIECE["X"], "O": PALETTE["yellow"], ".": "#FFFFFF"}[mark]
                if faded and mark != ".":
                    face = {"X": "#9A9A9A", "O": "#DADADA"}[mark]
                coll = _scatter(ax, pts[:, 0], pts[:, 1], s=(cell_pt * 0.8) ** 2, marker="o", facecolors=face,
                                  edgecolors="#606060" if mark != "." else "#C8C8C8",
                                  linewidths=0.6 * max(f, 0.7), zorder=4.3)
            coll.set_gid("board-o" if isinstance(game, TicTacToe)
                         else f"board-discs:{mark}{':faded' if faded else ''}")
            artists.append(coll)
        return artists

    def _board_moves(self, texts, sc):
        """The move that led to each board above it, as a player says it ("X c2", "O d"), beside
        the end of the edge that comes down to the board (on the side the edge does not come from)."""
        prep = self.prep
        game, pos, G = prep.boards, prep.pos, prep.G
        bw = self._board_size()[0]
        for n in prep.order:
            pu = prep.parent.get(n)
            if pu is None or "move" not in G.edges[pu, n]:
                continue
            said = move_name(game, G.nodes[pu]["state"], G.edges[pu, n]["move"])
            color = {"todo": _TODO_TEXT, "pruned": _TODO_TEXT}.get(sc.style[n], "#303030")
            above = self._move_gap(n)  # clear of the current halo
            msize = self._move_size()
            side = 1 if pos[pu][0] <= pos[n][0] + 1e-9 else -1
            choices = [[(said, msize, "center", "bottom", 0.0, above, 0.0, "normal")]]
            for sd in (side, -side):
                ha = "left" if sd > 0 else "right"
                choices += [[(said, msize, ha, "bottom", sd * k, above, 0.0, "normal")]
                            for k in (3.0, bw / 4, bw / 2)]
            i = self.placer.place(pos[n], choices)[0]
            self._put(texts, "moves", pos[n], choices[i], [color], n)

    def _notes(self, texts, xy, lines, dx, style, n, under=None):
        """MCTS: visits, then the UCB1 score (or a playout's result): beside the node (``dx`` points
        from its centre to its side), or ``under`` it (points below its centre: a leaf's row is too
        tight for text beside it), wherever they cover nothing."""
        f = self.geom.f
        wsize = 7.5 * max(f, 0.75)
        color = _FAINT if style == "todo" else "#303030"
        top, bottom = lines
        bottom_color = PALETTE["vermilion"] if bottom.startswith("UCB") else "#303030"
        colors = [c for c, line in ((color, top), (bottom_color, bottom)) if line]
        if under is None:
            self._block("notes", texts, xy, [top, bottom], colors, wsize, dx, dx, n)
            return
        if bottom.startswith("UCB "):
            bottom = bottom[4:]  # the colour and the legend say it is the score
        if self.prep.mode == "boards" and top and bottom:  # one line under a board
            choices = [[(top, wsize, "right", "top", -1.5, -under, 0.0, "normal"),
                        (bottom, wsize, "left", "top", 1.5, -under, 0.0, "normal")]]
        else:
            stacked = [line for line in (top, bottom) if line]
            choices = [[(line, wsize, ha, "top", x, -(under + i * (wsize + 1.5)), 0.0, "normal")
                        for i, line in enumerate(stacked)] for ha, x in (("center", 0.0), ("left", 1.0),
                                                                          ("right", -1.0))]
        i = self.placer.place(xy, choices)[0]
        self._put(texts, "notes", xy, choices[i], colors, n)

    def _cut_marks(self, ax, cut):
        """Two short strokes across each edge into a pruned subtree."""
        g, f = self.geom, self.geom.f
        segs = []
        offsets = []
        for u, v in cut:
            (x0, y0), (x1, y1) = self._segment(u, v)
            # direction in points
            dx, dy = (x1 - x0) * g.ux * 72, (y1 - y0) * g.uy * 72
            length = math.hypot(dx, dy) or 1.0
            tx, ty = dx / length, dy / length
            nx_, ny_ = -ty, tx
            half = 6.0 * max(f, 0.7)
            gap = 1.8 * max(f, 0.7)
            for s in (-gap, gap):
                cx, cy = tx * s, ty * s
                segs.append(((cx - nx_ * half, cy - ny_ * half), (cx + nx_ * half, cy + ny_ * half)))
                offsets.append((x0 + 0.6 * (x1 - x0), y0 + 0.6 * (y1 - y0)))
            # (no text may cover the cut)
            cx, cy = self.placer.pt((x0 + 0.6 * (x1 - x0), y0 + 0.6 * (y1 - y0)))
            reach = half + gap + 1.0
            self.placer.add_box((cx - reach, cy - reach, cx + reach, cy + reach), owner=(u, v))
        lc = LineCollection(segs, offsets=offsets, offset_transform=ax.transData, colors=PALETTE["vermilion"],
                            linewidths=1.8 * max(f, 0.7), zorder=2.5)
        # points -> pixels at the dpi of the moment (savefig at another dpi, PDF/SVG at 72)
        lc.set_transform(Affine2D().scale(1 / 72) + ax.figure.dpi_scale_trans)
        lc.set_gid("cut-marks")
        lc.edges = tuple(cut)
        ax.add_collection(lc, autolim=False)
        return lc

    def paint_legend(self, ax, sc, extra=()):
        """The legend for what the scene shows (and ``extra``: "current", "todo", "window")."""
        prep = self.prep
        handles = []
        kinds = set(prep.kind.values())
        styles = set(sc.style.values())
        edges = set(sc.edge.values())
        if prep.mode == "shapes":
            names = {MAX: "MAX", MIN: "MIN", CHANCE: "chance", "leaf": "leaf"}
            for kind in (MAX, MIN, CHANCE, "leaf"):
                if kind in kinds:
                    handles.append(Line2D([], [], ls="none", marker=_SHAPE_MARKER[kind], markersize=8,
                                          markerfacecolor=_TINT[kind], markeredgecolor=_INK,
                                          label=names[kind]))
        else:  # the frame's colour, and the glyph under the board (▲ MAX, ▼ MIN)
            for kind, name in ((MAX, "MAX to move"), (MIN, "MIN to move")):
                if kind in kinds:
                    color = PALETTE["blue"] if kind == MAX else PALETTE["vermilion"]
                    handles.append(Line2D([], [], ls="none", marker=_SHAPE_MARKER[kind], markersize=9,
                                          markerfacecolor="white", markeredgecolor=color, markeredgewidth=1.8,
                                          label=name))
        if "best" in edges:
            handles.append((Line2D([], [], color=_EDGE_STYLE["best"][0], lw=_EDGE_STYLE["best"][1]),
                            Line2D([], [], color="white", lw=_BEST_CORE)))
        if "pruned" in styles:
            handles.append(Line2D([], [], color=_GREY, lw=1.2, ls="--", marker="s", markersize=6,
                                  markerfacecolor=_PRUNED_FILL, markeredgecolor=_GREY, label="pruned"))
        if sc.current is not None or "current" in extra:
            handles.append(Line2D([], [], ls="none", marker="o", markersize=10, markerfacecolor=_HALO_FACE,
                                  markeredgecolor=_HALO_RING, markeredgewidth=2, label="current node"))
        if "todo" in styles or "todo" in extra:
            handles.append(Line2D([], [], ls="none", marker="s", markersize=7, markerfacecolor="white",
                                  markeredgecolor=_FAINT, label="not reached"))
        if sc.bounds or any(v.startswith(("≤", "≥")) for v in sc.value.values()):
            handles.append(Line2D([], [], ls="none", label="≤ v, ≥ v: a bound, not exact"))
        if "playout" in edges or "playout" in extra:
            handles.append(Line2D([], [], color=_EDGE_STYLE["playout"][0], lw=1.8, ls=(0, (1.0, 1.6)),
                                  label="playout (random moves)"))
        if sc.notes or "visits" in extra:
            where = "inside" if prep.mode == "shapes" else "under the board"
            handles.append(Line2D([], [], ls="none", label=f"n: visits; {where}: mean for MAX"))
            handles.append(Line2D([], [], color=_EDGE_STYLE["plain"][0], lw=3.0,
                                  label="heavier: more visits"))
        if any(bottom.startswith("UCB") for _, bottom in sc.notes.values()) or "ucb" in extra:
            handles.append(Line2D([], [], ls="none", marker="$1.2$", markersize=9, color=PALETTE["vermilion"],
                                  label="UCB1 score"))
        if ((sc.window and (self.windows or any(sc.style[n] == "active" for n in sc.window)))
                or "window" in extra):
            handles.append(Line2D([], [], ls="none", label="α, β: the window"))
        if not handles:
            return None
        ncol = max(1, min(len(handles), int(self.geom.width / 1.45)))
        labels = ["best line" if isinstance(h, tuple) else h.get_label() for h in handles]
        leg = ax.legend(handles=handles, labels=labels, loc="lower center", bbox_to_anchor=(0.5, 0.0),
                        ncol=ncol, fontsize=8, frameon=False, handlelength=1.6, columnspacing=1.2,
                        borderaxespad=0.2, handletextpad=0.4)
        leg.set_gid("legend")
        return leg


def setup_axes(ax, geom):
    """Give ``ax`` the limits of ``geom``, no axis lines, and no autoscaling."""
    ax.set_xlim(*geom.xlim)
    ax.set_ylim(*geom.ylim)
    ax.set_axis_off()
    ax.set_autoscale_on(False)
