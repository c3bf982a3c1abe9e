"""Painting: a scene turned into matplotlib artists on an Axes.

This module holds the look of every figure: the colours (the Okabe-Ito
:data:`PALETTE`) and the styles of nodes and edges; :class:`TextCollection`
(many short texts as one collection of glyph outlines, the reason a frame
takes milliseconds); :class:`Geometry` (the figure's size and the scale of
every mark); and :class:`Painter`, which adds the artists of one
:class:`~gametrees.drawing.scene.Scene` to an Axes (shapes or game boards,
edges and cut marks, values, labels, alpha and beta, the legend).

It may import matplotlib, numpy, :mod:`gametrees.games` and
:mod:`gametrees.drawing.scene`; it never creates a figure (that is
:mod:`gametrees.drawing.figure`).
"""

from __future__ import annotations

import math
import numbers
from functools import lru_cache

import numpy as np
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.font_manager import FontProperties
from matplotlib.lines import Line2D
from matplotlib.markers import MarkerStyle
from matplotlib.path import Path
from matplotlib.textpath import TextPath
from matplotlib.transforms import Affine2D, IdentityTransform

from ..games import CHANCE, MAX, MIN, ConnectFour, TicTacToe
from .scene import format_number

__all__ = ["PALETTE", "Geometry", "Painter", "TextCollection", "setup_axes"]


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
_PRUNED_FILL = "#EBEBEB"
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
    "best": (PALETTE["blue"], 3.4, "solid", 1.3),
}

_SHAPE_MARKER = {MAX: "^", MIN: "v", CHANCE: "o", "leaf": "s"}
# Size of each marker's bounding box in points at scale 1, and the width a
# text may take inside it; triangles are larger so that a value fits.
_SHAPE_SIZE = {MAX: 32.0, MIN: 32.0, CHANCE: 26.0, "leaf": 21.0}
_SHAPE_ROOM = {MAX: 17.0, MIN: 17.0, CHANCE: 20.0, "leaf": 18.0}
# Where a value sits inside the marker, in points (the wide part of a triangle).
_SHAPE_DY = {MAX: -7.0, MIN: 7.0, CHANCE: 0.0, "leaf": 0.0}

_HALO = 1.55  # the current node's halo, relative to its marker

# Inches per x unit and per level at scale 1, for shapes and for boards.
_UNIT = {"shapes": (0.52, 0.80), "boards": (1.02, 1.45)}


# ----------------------------------------------------------------------------
# Text as one collection of glyph outlines
# ----------------------------------------------------------------------------


def _fontprops(weight="normal"):
    return FontProperties(weight=weight)


@lru_cache(maxsize=1)
def _digit_box():
    """Vertical extent of a digit at size 1: texts are centred on digits."""
    ext = TextPath((0, 0), "0", size=100, prop=_fontprops()).get_extents()
    return ext.y0 / 100, ext.y1 / 100


@lru_cache(maxsize=8192)
def _text_path(s, size, ha, va, dx, dy, fit, weight):
    s = s.replace("$", r"\$")
    path = TextPath((0, 0), s, size=size, prop=_fontprops(weight))
    if not len(path.vertices):
        return path
    ext = path.get_extents()
    lo, hi = _digit_box()
    ax_ = {"left": ext.x0, "right": ext.x1}.get(ha, (ext.x0 + ext.x1) / 2)
    ay = {"bottom": lo * size, "top": hi * size}.get(va, (lo + hi) / 2 * size)
    scale = 1.0
    if fit and ext.width > fit:  # shrink to fit, but never below legibility
        scale = max(fit / ext.width, 0.8)
    t = Affine2D().translate(-ax_, -ay).scale(scale).translate(dx, dy)
    return path.transformed(t)


class TextCollection(PathCollection):
    """Many short texts drawn as one collection of glyph outlines.

    Drawing a few hundred :class:`matplotlib.text.Text` artists costs tens of
    milliseconds; one collection of cached outlines costs about one. Texts
    are placed at data coordinates (``offsets``) and shifted and sized in
    points, so they keep their size when the figure is zoomed or saved at
    another dpi.

    Attributes
    ----------
    texts : tuple of str
        The strings, one per item.
    nodes : tuple
        What each string belongs to (a node id, or an edge).
    """

    def __init__(self, items, ax, *, colors, zorder, gid):
        # items: (xy, text, size, ha, va, dx, dy, fit, weight, owner)
        paths = [_text_path(t, size, ha, va, dx, dy, fit, w) for _, t, size, ha, va, dx, dy, fit, w, _ in items]
        offsets = np.array([xy for xy, *_ in items], dtype=float).reshape(-1, 2)
        super().__init__(
            paths, sizes=[1.0], offsets=offsets, offset_transform=ax.transData, transform=IdentityTransform(),
            facecolors=colors, edgecolors="none", linewidths=0, zorder=zorder,
        )
        self.set_gid(gid)
        self.texts = tuple(t for _, t, *_ in items)
        self.nodes = tuple(it[-1] for it in items)


@lru_cache(maxsize=64)
def _marker_path(marker):
    style = marker if isinstance(marker, MarkerStyle) else MarkerStyle(marker)
    return style.get_path().transformed(style.get_transform())


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


class _Texts:
    """Collects texts by layer, then adds one TextCollection per layer."""

    def __init__(self):
        self.layers = {}

    def add(self, layer, xy, text, color, size, ha="center", va="center", dx=0.0, dy=0.0,
            fit=0.0, weight="normal", owner=None):
        if text == "" or text is None:
            return
        self.layers.setdefault(layer, []).append(
            ((xy, text, round(size, 2), ha, va, round(dx, 2), round(dy, 2), round(fit, 2), weight, owner),
             color))

    def flush(self, ax, zorders):
        out = []
        for layer, entries in self.layers.items():
            items = [e for e, _ in entries]
            z = zorders.get(layer, 5)
            if layer in _HALOED:
                # A white outline underneath keeps small texts readable where an edge crosses them.
                halo = TextCollection(items, ax, colors="white", zorder=z - 0.05, gid=f"{layer}:halo")
                halo.set_edgecolor("white")
                halo.set_linewidth(2.2)
                ax.add_collection(halo, autolim=False)
                out.append(halo)
            coll = TextCollection(items, ax, colors=[c for _, c in entries], zorder=z, gid=layer)
            ax.add_collection(coll, autolim=False)
            out.append(coll)
        return out


_HALOED = ("labels", "moves", "windows")


# ----------------------------------------------------------------------------
# Geometry: figure size and the scale of every mark
# ----------------------------------------------------------------------------


class Geometry:
    """Axes limits, inches per unit, and the scale ``f`` of markers and fonts."""

    PADX = 0.8          # x units left and right of the outermost nodes
    MAX_WIDTH = 16.0    # inches before marks shrink
    MIN_SCALE = 0.7

    def __init__(self, prep, *, legend_rows=1, title_lines=0, note=False, wide=False):
        self.prep = prep
        ux0, uy0 = _UNIT[prep.mode]
        if wide and prep.mode == "boards":  # room for alpha and beta beside the boards
            ux0 *= 1.4
        self.unit0 = (ux0, uy0)
        span = prep.xmax - prep.xmin + 2 * self.PADX
        f = min(1.0, self.MAX_WIDTH / (span * ux0))
        self.f = max(f, self.MIN_SCALE)
        self.ux = ux0 * self.f
        self.uy = uy0 * (0.55 + 0.45 * self.f)
        self.top = 0.45 if prep.mode == "shapes" else 0.62
        self.bottom = 0.5 if prep.mode == "shapes" else 0.55
        if any(not prep.children[n] for n in prep.hidden):  # "… 7" under a node
            self.bottom += 0.25
        self.legend_in = 0.32 * legend_rows + (0.22 if note else 0.0)
        self.title_in = 0.2 * title_lines + (0.12 if title_lines else 0.0)
        tree_w = span * self.ux
        self.width = max(tree_w, 5.0 if legend_rows else 2.0)
        extra = (self.width - tree_w) / self.ux / 2
        self.xlim = (prep.xmin - self.PADX - extra, prep.xmax + self.PADX + extra)
        tree_h = (prep.levels + self.top + self.bottom) * self.uy
        self.ylim = (-prep.levels - self.bottom - self.legend_in / self.uy, self.top)
        self.axes_h = tree_h + self.legend_in
        self.height = self.axes_h + self.title_in

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

    def paint(self, ax, sc, title=None, legend=True):
        prep, g = self.prep, self.geom
        f = g.f
        pos = prep.pos
        artists = []
        texts = _Texts()
        # -- edges ---------------------------------------------------------
        groups = {}
        for (u, v), style in sc.edge.items():
            groups.setdefault(style, []).append((u, v))
        for style in ("todo", "pruned", "plain", "path", "best"):
            edges = groups.get(style)
            if not edges:
                continue
            color, lw, ls, z = _EDGE_STYLE[style]
            lc = LineCollection([self._segment(u, v) for u, v in edges], colors=color,
                                linewidths=lw * max(f, 0.6), linestyles=ls, zorder=z, capstyle="round")
            lc.set_gid(f"edges:{style}")
            lc.edges = tuple(edges)
            ax.add_collection(lc, autolim=False)
            artists.append(lc)
        if sc.cut:
            artists.append(self._cut_marks(ax, sc.cut))
        # -- nodes -----------------------------------------------------------
        if prep.mode == "boards":
            artists += self._boards(ax, sc, texts)
        else:
            artists += self._shapes(ax, sc, texts)
        # -- move labels on edges ----------------------------------------------
        if self.moves:
            G = prep.G
            for u in prep.order:
                for v in prep.children[u]:
                    e = G.edges[u, v]
                    if "prob" in e:
                        label = format_number(e["prob"])
                    elif "move" in e:
                        label = str(e["move"])
                    else:
                        continue
                    (x0, y0), (x1, y1) = self._segment(u, v)
                    # Move labels nearer the parent (a cut mark sits at 0.6); chance
                    # edges are never cut, and lower down their labels have room.
                    t = 0.62 if "prob" in e else 0.42
                    xy = (x0 + t * (x1 - x0), y0 + t * (y1 - y0))
                    side = -1 if x1 < x0 - 1e-9 else 1
                    texts.add("moves", xy, label, "#404040" if sc.style[v] != "todo" else _FAINT,
                              7.5 * max(f, 0.7), ha="left" if side > 0 else "right", dx=3.5 * side)
        # -- ellipsis markers for hidden children --------------------------------
        for n, h in prep.hidden.items():
            x, y = pos[n]
            kids = prep.children[n]
            if kids:
                lx, ly = pos[kids[-1]]
                xy = ((x + lx) / 2 + 0.32, (y + ly) / 2)
                texts.add("ellipsis", xy, f"+{h} …", "#505050", 7.5 * max(f, 0.7), ha="left",
                          owner=n)
            else:
                dy = -(self.half_height(n) + (19 if prep.mode == "boards" else 11) * f)
                texts.add("ellipsis", (x, y), f"… {h}", "#505050", 8.0 * max(f, 0.7), va="top",
                          dy=dy, owner=n)
        artists += texts.flush(ax, {"values": 6, "labels": 6, "windows": 6, "moves": 6,
                                    "ellipsis": 6, "board-values": 6})
        if self.legend and legend:
            leg = self.paint_legend(ax, sc)
            if leg is not None:
                artists.append(leg)
        if prep.note and self.legend and legend:
            artists.append(ax.text(0.01, 0.01, prep.note, transform=ax.transAxes, fontsize=7.5,
                                   color="#505050", ha="left", va="bottom", gid="note"))
        if title:
            artists.append(ax.set_title(title, fontsize=10, loc="left", x=0.012, ha="left"))
        return artists

    # -- pieces ------------------------------------------------------------------

    def _segment(self, u, v):
        """The line of the edge u -> v: centre to centre, or board to board below the value."""
        pos = self.prep.pos
        (x0, y0), (x1, y1) = pos[u], pos[v]
        if self.prep.mode == "boards":
            f, py = self.geom.f, 1 / (72 * self.geom.uy)
            bh = self._board_size()[1]
            return (x0, y0 - (bh / 2 + 17.0 * f) * py), (x1, y1 + (bh / 2 + 2.5 * f) * py)
        return (x0, y0), (x1, y1)

    def half_height(self, n):
        """Half the height of node ``n``'s mark (its shape or its board), in points."""
        f = self.geom.f
        if self.prep.mode == "boards":
            return self._board_size()[1] / 2
        return _SHAPE_SIZE[self.prep.kind[n]] * max(f, 0.8) / 2

    def _shapes(self, ax, sc, texts):
        prep, f = self.prep, self.geom.f
        fm = max(f, 0.8)  # marks and values shrink less than the spacing: they stay legible
        pos = prep.pos
        artists = []
        groups = {}
        for n in prep.order:
            groups.setdefault((prep.kind[n], sc.style[n]), []).append(n)
        if sc.current is not None and sc.current in pos:
            kind = prep.kind[sc.current]
            halo = _scatter(ax, *pos[sc.current], s=(_SHAPE_SIZE[kind] * fm * _HALO) ** 2,
                              marker=_SHAPE_MARKER[kind], facecolors=PALETTE["yellow"],
                              edgecolors=PALETTE["vermilion"], linewidths=2.2, zorder=3.5)
            halo.set_gid("current")
            halo.nodes = (sc.current,)
            artists.append(halo)
        for (kind, style), ns in groups.items():
            face, edge, lw, ls, _ = _NODE_STYLE[style]
            if face is None:
                face = _TINT[kind]
            xy = np.array([pos[n] for n in ns], dtype=float)
            coll = _scatter(ax, xy[:, 0], xy[:, 1], s=(_SHAPE_SIZE[kind] * fm) ** 2, marker=_SHAPE_MARKER[kind],
                              facecolors=face, edgecolors=edge, linewidths=lw * max(f, 0.7),
                              linestyles=ls, zorder=4 if style != "todo" else 3.8)
            coll.set_gid(f"nodes:{style}")
            coll.nodes = tuple(ns)
            coll.kind, coll.status = kind, style
            artists.append(coll)
        vsize = 10.0 * fm
        for n in prep.order:
            kind, style = prep.kind[n], sc.style[n]
            xy = pos[n]
            color = _NODE_STYLE[style][4]
            texts.add("values", xy, sc.value.get(n, ""), color, vsize, dy=_SHAPE_DY[kind] * fm,
                      fit=_SHAPE_ROOM[kind] * fm, owner=n)
            half = _SHAPE_SIZE[kind] * fm / 2
            if self.labels:
                label = prep.G.nodes[n].get("label")
                color = {"todo": _FAINT, "pruned": _GREY}.get(style, "#333333")
                if label is None:
                    pass
                elif prep.is_leaf[n]:  # below a leaf: the row of leaves is tight
                    texts.add("labels", xy, str(label), color, 8.5 * f, va="top", dy=-(half + 3.0 * f),
                              owner=n)
                else:
                    texts.add("labels", xy, str(label), color, 8.5 * f, ha="right", dx=-(half + 2.0 * f),
                              dy=half * 0.45 if kind != MIN else -half * 0.1, owner=n)
            if n in sc.window and (self.windows or (self.windows is None and style == "active")):
                a, b = sc.window[n]
                wsize = 7.5 * max(f, 0.75)
                dx = (half * _HALO if n == sc.current else half) + 1.5 * f
                texts.add("windows", xy, f"α={format_number(a)}", "#303030", wsize, ha="left", va="bottom",
                          dx=dx, dy=0.8, owner=n)
                texts.add("windows", xy, f"β={format_number(b)}", "#303030", wsize, ha="left", va="top",
                          dx=dx, dy=-1.8, owner=n)
        return artists

    def _board_size(self):
        """Board width and height in points."""
        game = self.prep.boards
        side = _BOARD_SIDE * self.geom.f
        if isinstance(game, ConnectFour):
            w = side * 1.12
            return w, w * game.rows / game.cols
        return side, side

    def _boards(self, ax, sc, texts):
        prep, g = self.prep, self.geom
        f = g.f
        game = prep.boards
        pos = prep.pos
        G = prep.G
        bw, bh = self._board_size()
        # points -> data units
        px, py = 1 / (72 * g.ux), 1 / (72 * g.uy)
        artists = []
        if sc.current is not None and sc.current in pos:
            halo = _scatter(ax, *pos[sc.current], s=(max(bw, bh) + 14 * f) ** 2, marker="s",
                              facecolors=PALETTE["yellow"], edgecolors=PALETTE["vermilion"],
                              linewidths=2.2, zorder=3.5)
            halo.set_gid("current")
            halo.nodes = (sc.current,)
            artists.append(halo)
        frames = {}
        grid, xs, highlights, discs = [], [], [], {}
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
        # board backgrounds and frames, grouped by player and style
        frame_color = {MAX: PALETTE["blue"], MIN: PALETTE["vermilion"], CHANCE: PALETTE["green"], "leaf": _INK}
        for (kind, style), ns in frames.items():
            face = {"todo": "#FFFFFF", "pruned": _PRUNED_FILL}.get(style, "#FFFFFF")
            edge = frame_color[kind] if style not in ("todo", "pruned") else (_GREY if style == "pruned" else _FAINT)
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
            coll.kind, coll.status = kind, style
            artists.append(coll)
        if highlights:
            # The mark just played: a shaded cell (tic-tac-toe) or a ring (Connect Four).
            hl = np.array(highlights)
            cell_pt = min(bw / len(cells[0]), bh / len(cells))
            if isinstance(game, TicTacToe):
                coll = _scatter(ax, hl[:, 0], hl[:, 1], s=(cell_pt * 0.98) ** 2, marker="s",
                                  facecolors="#FFF3A8", edgecolors="none", zorder=4.1)
            else:
                coll = _scatter(ax, hl[:, 0], hl[:, 1], s=(cell_pt * 0.92) ** 2, marker="o", facecolors="none",
                                  edgecolors=_INK, linewidths=1.8 * max(f, 0.7), zorder=4.4)
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
                coll = _scatter(ax, pts[:, 0], pts[:, 1], s=(cell_pt * 0.62) ** 2, marker="o", facecolors="none",
                                  edgecolors=_GREY if faded else _PIECE["O"], linewidths=1.6 * max(f, 0.7),
                                  zorder=4.3)
            else:
                face = {"X": _PIECE["X"], "O": PALETTE["yellow"], ".": "#FFFFFF"}[mark]
                if faded and mark != ".":
                    face = {"X": "#9A9A9A", "O": "#DADADA"}[mark]
                coll = _scatter(ax, pts[:, 0], pts[:, 1], s=(cell_pt * 0.8) ** 2, marker="o", facecolors=face,
                                  edgecolors="#606060" if mark != "." else "#C8C8C8",
                                  linewidths=0.6 * max(f, 0.7), zorder=4.3)
            coll.set_gid("board-o" if isinstance(game, TicTacToe) else f"board-discs:{mark}{':faded' if faded else ''}")
            artists.append(coll)
        # the value under each board, with the mover's shape
        vsize = 9.5 * f
        glyph = {MAX: "▲", MIN: "▼", CHANCE: "●", "leaf": "■"}
        for n in prep.order:
            style = sc.style[n]
            color = _NODE_STYLE[style][4]
            value = sc.value.get(n, "")
            kind = prep.kind[n]
            if prep.is_leaf[n] and "player" not in G.nodes[n] and "utility" in G.nodes[n]:
                kind = "leaf"
            texts.add("values", pos[n], f"{glyph[kind]} {value}".strip(), color, vsize, va="top",
                      dy=-(bh / 2 + 4.5 * f), owner=n)
            if n in sc.window and (self.windows or (self.windows is None and style == "active")):
                a, b = sc.window[n]
                wsize = 7.5 * max(f, 0.75)
                dx = bw / 2 + (9.0 if n == sc.current else 3.0) * f
                texts.add("windows", pos[n], f"α={format_number(a)}", "#303030", wsize, ha="left", va="bottom",
                          dx=dx, dy=0.8, owner=n)
                texts.add("windows", pos[n], f"β={format_number(b)}", "#303030", wsize, ha="left", va="top",
                          dx=dx, dy=-1.8, owner=n)
        return artists

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
                                          markerfacecolor=_TINT[kind], markeredgecolor=_INK, label=names[kind]))
        else:
            for kind, name in ((MAX, "MAX to move"), (MIN, "MIN to move")):
                if kind in kinds:
                    color = PALETTE["blue"] if kind == MAX else PALETTE["vermilion"]
                    handles.append(Line2D([], [], ls="none", marker="s", markersize=9, markerfacecolor="white",
                                          markeredgecolor=color, markeredgewidth=1.6, label=name))
        if "best" in edges:
            handles.append(Line2D([], [], color=_EDGE_STYLE["best"][0], lw=3, label="best line"))
        if "pruned" in styles:
            handles.append(Line2D([], [], color=_GREY, lw=1.2, ls="--", marker="s", markersize=6,
                                  markerfacecolor=_PRUNED_FILL, markeredgecolor=_GREY, label="pruned"))
        if sc.current is not None or "current" in extra:
            handles.append(Line2D([], [], ls="none", marker="o", markersize=10, markerfacecolor=PALETTE["yellow"],
                                  markeredgecolor=PALETTE["vermilion"], markeredgewidth=2, label="current node"))
        if "todo" in styles or "todo" in extra:
            handles.append(Line2D([], [], ls="none", marker="s", markersize=7, markerfacecolor="white",
                                  markeredgecolor=_FAINT, label="not reached"))
        if sc.bounds or any(v.startswith(("≤", "≥")) for v in sc.value.values()):
            handles.append(Line2D([], [], ls="none", label="≤ v, ≥ v: a bound, not exact"))
        if (sc.window and (self.windows or any(sc.style[n] == "active" for n in sc.window))) or "window" in extra:
            handles.append(Line2D([], [], ls="none", label="α, β: the window"))
        if not handles:
            return None
        ncol = max(1, min(len(handles), int(self.geom.width / 1.45)))
        leg = ax.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 0.0), ncol=ncol, fontsize=8,
                        frameon=False, handlelength=1.6, columnspacing=1.2, borderaxespad=0.2,
                        handletextpad=0.4)
        leg.set_gid("legend")
        return leg


def setup_axes(ax, geom):
    """Give ``ax`` the limits of ``geom``, no axis lines, and no autoscaling."""
    ax.set_xlim(*geom.xlim)
    ax.set_ylim(*geom.ylim)
    ax.set_axis_off()
    ax.set_autoscale_on(False)
