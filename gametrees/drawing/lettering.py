"""Lettering: the texts of a figure as glyph outlines, and where each text goes.

* :class:`TextCollection`: many short texts as one collection of glyph outlines (the reason a
  frame takes milliseconds), fitted to the pixel grid on a raster;
* :class:`Texts`: the texts of one painting, collected by layer, then added as collections;
* :class:`Placer`: where each text goes, the first of its candidate places that covers no mark,
  ring, edge or text (:func:`text_extent`, :func:`ink_box`: a placed text's ink box);
* :data:`MIN_TEXT_PT`, the smallest text.

It may import matplotlib, numpy and :mod:`gametrees.wording`;
:mod:`gametrees.drawing.painter` uses it.
"""

from __future__ import annotations

import itertools
import math
from functools import lru_cache

import numpy as np
from matplotlib.collections import PathCollection
from matplotlib.font_manager import FontProperties
from matplotlib.path import Path
from matplotlib.textpath import TextPath
from matplotlib.transforms import Affine2D, Bbox, IdentityTransform

from ..wording import visible

__all__ = ["GAP", "HALOED", "MIN_TEXT_PT", "Placer", "TextCollection", "Texts", "fontprops", "ink_box",
           "text_extent"]

#: The smallest text on a figure, in points: 7 pt is 9.7 px at the widgets'
#: 100 dpi, readable at 100% zoom. Texts that shrink to fit never go below it.
MIN_TEXT_PT = 7.0


# ----------------------------------------------------------------------------
# Text as one collection of glyph outlines
# ----------------------------------------------------------------------------


def fontprops(weight="normal"):
    return FontProperties(weight=weight)


@lru_cache(maxsize=1)
def _digit_box():
    """Vertical extent of a digit at size 1: texts are centred on digits."""
    ext = TextPath((0, 0), "0", size=100, prop=fontprops()).get_extents()
    return ext.y0 / 100, ext.y1 / 100


@lru_cache(maxsize=8192)
def _text_path(s, size, ha, va, dx, dy, fit, weight):
    """(the outline of ``s`` placed in points, its font size in points after shrinking to ``fit``)."""
    if not s.strip():   # an empty label (matplotlib cannot make the outline of no text)
        return Path(np.zeros((0, 2))), size
    s = s.replace("$", r"\$")
    path = TextPath((0, 0), s, size=size, prop=fontprops(weight))
    if not len(path.vertices):
        return path, size
    ext = path.get_extents()
    lo, hi = _digit_box()
    ax_ = {"left": ext.x0, "right": ext.x1}.get(ha, (ext.x0 + ext.x1) / 2)
    ay = {"bottom": lo * size, "top": hi * size}.get(va, (lo + hi) / 2 * size)
    scale = 1.0
    if fit and ext.width > fit:  # shrink to fit, but never below legibility
        scale = min(1.0, max(fit / ext.width, MIN_TEXT_PT / size))
    t = Affine2D().translate(-ax_, -ay).scale(scale).translate(dx, dy)
    return path.transformed(t), size * scale


def _strokes(path, axis, widest):
    """The straight strokes of a glyph outline across ``axis`` (0: stems, 1: bars), in the path's units.

    ``(start, width, length)`` arrays: a stem starts at its left edge's x and
    is as wide as the gap to the facing right edge (at most ``widest``), as
    long as the two overlap (a bar: its lower edge's y, its thickness, its
    length). Which side of an edge is inside is told by the outline's
    turning direction (the outer contours dominate its signed area), so a
    gap (between F's bars, inside B) is not a stroke.
    """
    v, codes = path.vertices, path.codes
    if codes is None or len(v) < 3:
        return (np.empty(0),) * 3
    a, b = v[:-1], v[1:]
    drawn = (codes[1:] != Path.MOVETO) & (codes[1:] != Path.CLOSEPOLY)
    area = np.sum((a[:, 0] * b[:, 1] - b[:, 0] * a[:, 1])[drawn])
    # The inside lies right of the direction of travel on a clockwise outline, left on a
    # counter-clockwise one.
    turn = 1.0 if area < 0 else -1.0
    fixed, span = axis, 1 - axis
    d = b - a
    edge = drawn & (codes[1:] == Path.LINETO) & (np.abs(d[:, fixed]) < 1e-9) & (np.abs(d[:, span]) > 1e-9)
    pos = a[edge, fixed]
    lo = np.minimum(a[edge, span], b[edge, span])
    hi = np.maximum(a[edge, span], b[edge, span])
    # Inward normal along ``fixed``: (dy, -dx) times turn. Positive: the edge is a stroke's lower side.
    inward = turn * (d[edge, 1] if axis == 0 else -d[edge, 0])
    starts, widths, lengths = [], [], []
    for i in np.flatnonzero(inward > 0):
        overlap = np.minimum(hi[i], hi) - np.maximum(lo[i], lo)
        facing = (inward < 0) & (pos > pos[i]) & (overlap > 0)
        if facing.any():
            near = pos[facing].min()
            if near - pos[i] <= widest:  # (the right edge may be in pieces: F's, beside its middle bar)
                starts.append(pos[i])
                widths.append(near - pos[i])
                lengths.append(overlap[facing & (pos < near + 1e-9)].sum())
    return np.array(starts), np.array(widths), np.array(lengths)


@lru_cache(maxsize=8192)
def _grid_strokes(s, size, ha, va, dx, dy, fit, weight):
    """The stems and bars of a placed text (arguments as for :func:`_text_path`), for :func:`_grid_shifts`.

    One row per stroke: axis (0 a stem, 1 a bar), start, width, length, in points.
    """
    path, drawn_size = _text_path(s, size, ha, va, dx, dy, fit, weight)
    widest = 0.25 * drawn_size  # a stroke is thinner than a quarter of the font size (DejaVu Sans: a tenth)
    rows = [np.column_stack([np.full(len(st[0]), axis), *st]) for axis, st in
            ((0, _strokes(path, 0, widest)), (1, _strokes(path, 1, widest)))]
    return np.concatenate(rows).reshape(-1, 4)


# Candidate sub-pixel shifts, in pixels: the smallest first (it wins a tie; no strokes: no shift).
_SHIFTS = np.array(sorted(np.linspace(-0.5, 0.5, 16, endpoint=False), key=lambda x: (abs(x), x)))


def _peak(start, width):
    """The darkest pixel of a stroke from ``start`` as wide as ``width`` (pixels): its coverage of
    one pixel."""
    f = start - np.floor(start)
    end = f + width
    return np.where(end <= 1, width, np.where(end >= 2, 1.0, np.maximum(1 - f, end - 1)))


def _grid_shifts(origin, starts, widths, lengths, item, n):
    """The shift (pixels, one per text) that makes the texts' strokes darkest.

    A stroke about a pixel wide straddling two pixels is drawn as two light
    greys; on whole pixels, as one dark one. Each text takes the candidate
    of :data:`_SHIFTS` under which its strokes (``origin[item] + starts``
    onwards, ``widths`` wide, pixels) cover their darkest pixel most,
    weighted by length.
    """
    if not len(starts):
        return np.zeros(n)
    k = len(_SHIFTS)
    where = (origin[item] + starts)[:, None] + _SHIFTS[None, :]
    # (Squared: one stroke wholly dark beats two half dark, as H's two stems cannot both be whole.)
    dark = lengths[:, None] * _peak(where, widths[:, None]) ** 2
    score = np.bincount((item[:, None] * k + np.arange(k)).ravel(), weights=dark.ravel(), minlength=n * k)
    return _SHIFTS[np.argmax(score.reshape(n, k), axis=1)]


class TextCollection(PathCollection):
    """Many short texts drawn as one collection of glyph outlines.

    Drawing a few hundred :class:`matplotlib.text.Text` artists costs tens of
    milliseconds; one collection of cached outlines costs about one. Texts
    are placed at data coordinates (``offsets``) and shifted and sized in
    points, so they keep their size when the figure is zoomed or saved at
    another dpi.

    On a raster (Agg: PNG, GIF, the widgets' frames) each text is moved by
    less than half a pixel so that its stems and bars start on pixel
    boundaries: outlines are not hinted, and a stem about a pixel wide that
    straddles two pixel columns is drawn as two light grey ones. F's stem
    at 100 dpi was such a pair; a palette or a downscale that drops light
    greys would leave "=". (Snapping the outlines themselves, matplotlib's
    default, is worse: a stroke thinner than a pixel can vanish, and F read
    as "=" and T as "I".) Vector output (SVG, PDF) is drawn where it is.

    Attributes
    ----------
    texts : tuple of str
        The strings, one per item.
    nodes : tuple
        What each string belongs to (a node id, or an edge).
    fontsizes : tuple of float
        The font size of each string in points, as drawn (after shrinking
        to fit its mark); ``points * dpi / 72`` pixels.
    """

    def __init__(self, items, ax, *, colors, zorder, gid):
        # items: (xy, text, size, ha, va, dx, dy, fit, weight, owner)
        placed = [_text_path(t, size, ha, va, dx, dy, fit, w)
                  for _, t, size, ha, va, dx, dy, fit, w, _ in items]
        paths = [p for p, _ in placed]
        self.fontsizes = tuple(size for _, size in placed)
        offsets = np.array([xy for xy, *_ in items], dtype=float).reshape(-1, 2)
        super().__init__(
            paths, sizes=[1.0], offsets=offsets, offset_transform=ax.transData, transform=IdentityTransform(),
            facecolors=colors, edgecolors="none", linewidths=0, zorder=zorder,
        )
        self.set_gid(gid)
        # Glyphs made only of straight strokes (E, F, H, T) would be snapped to the pixel grid,
        # which drops a bar thinner than a pixel at small sizes: E read as [ and T as I.
        self.set_snap(False)
        self.texts = tuple(t for _, t, *_ in items)
        self.nodes = tuple(it[-1] for it in items)
        # The stems and bars of every text (rows of _grid_strokes, and the text of each), for
        # fitting the texts to the pixel grid (see draw).
        strokes = [_grid_strokes(*it[1:-1]) for it in items]
        self._strokes = (np.concatenate(strokes) if strokes else np.empty((0, 4)),
                         np.repeat(np.arange(len(strokes)), [len(st) for st in strokes]))
        self._fitted = None  # the offsets in pixels while drawing on a raster

    def get_offsets(self):
        return self._fitted if self._fitted is not None else super().get_offsets()

    def get_offset_transform(self):
        return IdentityTransform() if self._fitted is not None else super().get_offset_transform()

    def draw(self, renderer):
        if not self.get_visible() or not hasattr(renderer, "buffer_rgba") or not len(self.texts):
            super().draw(renderer)
            return
        # Fit to the pixel grid: x pixels count from the left, y pixels from the top (Agg flips y).
        offsets = np.asarray(super().get_offset_transform().transform(super().get_offsets()), dtype=float)
        scale = renderer.points_to_pixels(1.0)  # the outlines are in points
        n = len(self.texts)
        strokes, item = self._strokes
        stem = strokes[:, 0] == 0
        bar = ~stem
        _, x0, xw, xl = strokes[stem].T
        _, y0, yw, yl = strokes[bar].T
        fitted = offsets.copy()
        fitted[:, 0] += _grid_shifts(offsets[:, 0], x0 * scale, xw * scale, xl, item[stem], n)
        # A bar from y0 up (points) starts, counted from the top, at its upper edge.
        top = renderer.height - offsets[:, 1]
        fitted[:, 1] -= _grid_shifts(top, -(y0 + yw) * scale, yw * scale, yl, item[bar], n)
        self._fitted = fitted
        try:
            super().draw(renderer)
        finally:
            self._fitted = None


class Texts:
    """Collects texts by layer, then adds one TextCollection per layer."""

    def __init__(self):
        self.layers = {}

    def add(self, layer, xy, text, color, size, ha="center", va="center", dx=0.0, dy=0.0,
            fit=0.0, weight="normal", owner=None):
        if text == "" or text is None:
            return
        text = visible(text)  # a label's control characters as escapes (\x00): seen, and valid SVG
        size = max(size, MIN_TEXT_PT)  # every text readable at 100% zoom
        self.layers.setdefault(layer, []).append(
            ((xy, text, round(size, 2), ha, va, round(dx, 2), round(dy, 2), round(fit, 2), weight, owner),
             color))

    def flush(self, ax, zorders):
        out = []
        for layer, entries in self.layers.items():
            items = [e for e, _ in entries]
            z = zorders.get(layer, 5)
            if layer in HALOED:
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


HALOED = ("labels", "moves", "windows", "notes")


def text_extent(text, size, ha, va, dx, dy, fit, weight):
    """The ink box ``(x0, y0, x1, y1)`` of a text as :meth:`Texts.add` places it (points from its anchor)."""
    text = visible(text)
    size = round(max(size, MIN_TEXT_PT), 2)
    path, _ = _text_path(text, size, ha, va, round(dx, 2), round(dy, 2), round(fit, 2), weight)
    return ink_box(path)


def ink_box(path):
    """``(x0, y0, x1, y1)`` around a glyph outline: its points and the control points of its curves.

    A curve lies inside the hull of its control points, so the box holds all the ink (a
    fraction of a point more at round glyphs); it is a hundred times faster than
    ``Path.get_extents``, which solves for each curve's extremes. None for an empty path.
    """
    v = path.vertices
    if not len(v):
        return None
    if path.codes is not None:
        v = v[path.codes != Path.CLOSEPOLY]
    lo, hi = v.min(axis=0), v.max(axis=0)
    return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])


GAP = 1.8  # points between a text placed beside a mark and the mark (more than Placer.PAD)


class Placer:
    """Where the texts go: each takes the first of its candidate places that covers nothing drawn.

    What a text must not cover (or be covered by): the node marks, the current
    node's ring, the edges, and the texts placed before it. Everything is in
    points on the page (data x times points per unit); a uniform grid of
    buckets keeps the tests local, so a frame of a few hundred texts takes a
    few milliseconds.
    """

    CELL = 24.0  # points
    PAD = 1.0    # points of white kept around a text

    def __init__(self, X, Y, bounds=None):
        self.X, self.Y = X, Y  # points per data unit
        self.bounds = bounds  # (x0, y0, x1, y1) in points: where texts may go (the Axes, above the legend)
        self.boxes, self.segs = [], []
        self.grid = {}

    def pt(self, xy):
        return xy[0] * self.X, xy[1] * self.Y

    def _cells(self, x0, y0, x1, y1):
        c = self.CELL
        for i in range(math.floor(x0 / c), math.floor(x1 / c) + 1):
            for j in range(math.floor(y0 / c), math.floor(y1 / c) + 1):
                yield i, j

    def add_box(self, box, owner=None, shape=None):
        """Keep texts off ``box`` (points), or only off ``shape`` inside it (a mark's outline, in points)."""
        k = ("b", len(self.boxes))
        self.boxes.append((box, owner, shape))
        for cell in self._cells(*box):
            self.grid.setdefault(cell, []).append(k)

    def add_segment(self, p0, p1, width, owner=None):
        k = ("s", len(self.segs))
        self.segs.append((p0, p1, width / 2 + self.PAD, owner))
        (x0, y0), (x1, y1) = p0, p1
        # The cells along the segment, sampled at a quarter cell (a query looks a few points further
        # than its box, see hits, so a line that only grazes a cell's corner is still found).
        steps = max(1, int(math.hypot(x1 - x0, y1 - y0) / (self.CELL / 4)))
        t = np.linspace(0.0, 1.0, steps + 1)
        i = np.floor((x0 + (x1 - x0) * t) / self.CELL).astype(int)
        j = np.floor((y0 + (y1 - y0) * t) / self.CELL).astype(int)
        grid = self.grid
        for cell in set(zip(i.tolist(), j.tolist())):
            grid.setdefault(cell, []).append(k)

    def hits(self, box):
        """How many things (marks, edges, texts) the box ``(x0, y0, x1, y1)`` (points) covers."""
        pad = self.PAD
        x0, y0, x1, y1 = box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad
        found = set()
        reach = self.CELL / 4 + 4.0  # (lines are sampled a quarter cell apart, and are a few points wide)
        for cell in self._cells(x0 - reach, y0 - reach, x1 + reach, y1 + reach):
            found.update(self.grid.get(cell, ()))
        n = 0
        if self.bounds is not None:
            bx0, by0, bx1, by1 = self.bounds
            n += int(box[0] < bx0 or box[1] < by0 or box[2] > bx1 or box[3] > by1)
        for kind, i in found:
            if kind == "b":
                (a0, b0, a1, b1), _, shape = self.boxes[i]
                if a0 < x1 and x0 < a1 and b0 < y1 and y0 < b1 and (
                        shape is None
                        or shape.intersects_bbox(Bbox.from_extents(x0, y0, x1, y1), filled=True)):
                    n += 1
            else:
                p0, p1, grow, _ = self.segs[i]
                if segment_meets_box(p0, p1, (x0 - grow + pad, y0 - grow + pad,
                                              x1 + grow - pad, y1 + grow - pad)):
                    n += 1
        return n

    def place(self, anchor, choices, claim=True):
        """``(index, free)``: the first choice that covers nothing (else the one that covers least).

        The choice's boxes are claimed (later texts keep clear of them) unless ``claim=False``.

        ``anchor`` is in data units; each choice is a list of lines
        ``(text, size, ha, va, dx, dy, fit, weight)`` drawn together (α over β).
        """
        ax_, ay = self.pt(anchor)
        best, best_hits, best_boxes = 0, None, []
        for i, lines in enumerate(choices):
            boxes = []
            for line in lines:
                e = text_extent(*line)
                if e is not None:
                    boxes.append((ax_ + e[0], ay + e[1], ax_ + e[2], ay + e[3]))
            h = sum(self.hits(b) for b in boxes)
            # (the lines of one choice may not cover each other either)
            h += sum(1 for a, b in itertools.combinations(boxes, 2) if _meet(a, b))
            if best_hits is None or h < best_hits:
                best, best_hits, best_boxes = i, h, boxes
                if h == 0:
                    break
        if claim:
            for b in best_boxes:
                self.add_box(b)
        return best, best_hits == 0


def _meet(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def segment_meets_box(p0, p1, box):
    """Does the segment ``p0``-``p1`` pass through ``box`` (a Bbox, or ``(x0, y0, x1, y1)``)?

    Liang-Barsky clipping.

    >>> segment_meets_box((0, 0), (10, 10), (4, 0, 6, 2)), segment_meets_box((0, 0), (10, 10), (4, 5, 6, 6))
    (False, True)
    """
    if isinstance(box, Bbox):
        box = box.extents
    (x0, y0), (x1, y1) = p0, p1
    dx, dy = x1 - x0, y1 - y0
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, x0 - box[0]), (dx, box[2] - x0), (-dy, y0 - box[1]), (dy, box[3] - y0)):
        if abs(p) < 1e-12:
            if q < 0:
                return False
        else:
            t = q / p
            if p < 0:
                if t > hi:
                    return False
                lo = max(lo, t)
            else:
                if t < lo:
                    return False
                hi = min(hi, t)
    return lo <= hi
