"""What covers what on a painted figure: every text, node mark, ring and edge, measured as drawn.

A learner must read every value, probability, label, α/β and visit count: no
text may be covered by another text, a node's mark, the current node's ring
or an edge, and a value written inside a node must stay inside it.
:func:`overlaps` measures a painted figure and lists every place where that
fails; the tests run it over the lessons' figures, the replays' frames and
many seeded trees, and the practice widget places its answer boxes clear of
:func:`marks` (the texts, nodes and edges in pixels).

Everything is measured in display pixels from the artists themselves: the
outlines of each :class:`~gametrees.drawing.lettering.TextCollection` item at
its offset, the marker outlines of the node collections at their sizes, the
edge segments through ``transData``, and the title and legend with the
renderer's ``get_window_extent``.

It may import matplotlib, numpy and :mod:`gametrees.drawing.lettering`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.path import Path
from matplotlib.transforms import Bbox

from .lettering import TextCollection, ink_box, segment_meets_box

__all__ = ["Marks", "marks", "overlaps", "segment_meets_box"]

# Layers whose texts sit inside their node's mark (shapes only: a board writes its value under it).
_INSIDE = "values"


@dataclass
class Marks:
    """The marks of a painted Axes, in display pixels (y up).

    Attributes
    ----------
    texts : list of (layer, owner, text, Bbox)
        Every text of the tree (values, labels, moves, windows, notes, ellipses),
        with the ink box of its outline; ``owner`` is the node it belongs to.
    nodes : dict
        node -> :class:`matplotlib.path.Path`, the outline of its mark (shape or board frame).
    node_boxes : dict
        node -> Bbox around its mark.
    ring : Path or None
        The current node's halo.
    edges : list of ((u, v), (p0, p1), width)
        Every edge as drawn: the segment and its line width in pixels.
    boxes : list of (name, Bbox)
        The title and the legend.
    inside : bool
        Values are written inside the marks (shapes) rather than under them (boards).
    """

    texts: list
    nodes: dict
    node_boxes: dict
    ring: Path | None
    edges: list
    boxes: list
    inside: bool


def _collection_paths(coll, dpi):
    """The outlines of a PathCollection's items in display pixels, one per offset.

    The paths are in points (the collections of :mod:`gametrees.drawing.painter` have an identity
    transform and sizes that scale points to pixels at the figure's dpi).
    """
    offsets = coll.get_offset_transform().transform(coll.get_offsets())
    paths = coll.get_paths()
    scales = np.sqrt(np.atleast_1d(coll.get_sizes())) * dpi / 72
    out = []
    for i, off in enumerate(offsets):
        path = paths[i % len(paths)]
        out.append(Path(path.vertices * scales[i % len(scales)] + off, path.codes))
    return out


def marks(ax, renderer=None) -> Marks:
    """The texts, node marks, ring, edges, title and legend of a figure painted by :mod:`gametrees.drawing`.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        An Axes that :func:`gametrees.draw` (or :class:`~gametrees.drawing.Drawing`) painted.
    renderer : optional
        For the title and legend extents; default: the figure canvas's renderer.
    """
    fig = ax.figure
    if renderer is None:
        renderer = fig.canvas.get_renderer()
    texts, nodes, edges, boxes = [], {}, [], []
    ring = None
    inside = True
    px_per_pt = fig.dpi / 72
    for coll in ax.collections:
        gid = coll.get_gid() or ""
        if isinstance(coll, TextCollection):
            if gid.endswith(":halo"):
                continue
            for (layer, owner, text, path) in zip([gid] * len(coll.texts), coll.nodes, coll.texts,
                                                  _collection_paths(coll, fig.dpi)):
                box = ink_box(path)
                if box is not None:
                    texts.append((layer, owner, text, Bbox.from_extents(*box)))
        elif isinstance(coll, PathCollection) and gid.startswith("nodes:"):
            for n, path in zip(coll.nodes, _collection_paths(coll, fig.dpi)):
                nodes[n] = path
            if getattr(coll, "board", False):
                inside = False
        elif isinstance(coll, PathCollection) and gid == "current":
            ring = _collection_paths(coll, fig.dpi)[0]
        elif isinstance(coll, LineCollection) and gid.startswith("edges:"):
            widths = coll.get_linewidths()
            to_px = ax.transData.transform
            for i, (e, seg) in enumerate(zip(coll.edges, coll.get_segments())):
                p0, p1 = to_px(seg)
                edges.append((e, (p0, p1), float(widths[i % len(widths)]) * px_per_pt))
    title = ax.title if ax.get_title(loc="left") == "" else ax._left_title
    for name, artist in (("title", title), ("legend", ax.get_legend())):
        if artist is not None and artist.get_visible() and (name != "title" or artist.get_text()):
            boxes.append((name, artist.get_window_extent(renderer)))
    node_boxes = {n: Bbox.from_extents(*ink_box(path)) for n, path in nodes.items()}
    return Marks(texts, nodes, node_boxes, ring, edges, boxes, inside)


# ----------------------------------------------------------------------------
# Geometry in pixels
# ----------------------------------------------------------------------------


def _shrunk(box, by):
    return Bbox.from_extents(box.x0 + by, box.y0 + by, box.x1 - by, box.y1 - by)


def _boxes_meet(a, b, tol=0.5):
    return a.x0 + tol < b.x1 and b.x0 + tol < a.x1 and a.y0 + tol < b.y1 and b.y0 + tol < a.y1


def _polygon(path):
    """The closed polygon (N x 2) of a mark's outline (markers are single polygons)."""
    return path.to_polygons(closed_only=False)[0]


def _point_segment_distance(pts, p0, p1):
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    d = p1 - p0
    length2 = float(d @ d) or 1e-12
    t = np.clip(((pts - p0) @ d) / length2, 0.0, 1.0)
    return np.hypot(*(pts - (p0 + t[:, None] * d)).T)


def _extent(poly):
    """The polygon's bounding box, ``(x0, y0, x1, y1)``."""
    (x0, y0), (x1, y1) = poly.min(axis=0), poly.max(axis=0)
    return float(x0), float(y0), float(x1), float(y1)


def _segment_near_extent(p0, p1, extent, width):
    """Can the segment (``width`` pixels thick) reach the box ``extent`` at all? (A quick, exact reject:
    every point the thick segment covers lies in its own bounding box grown by half its width.)"""
    half = width / 2
    x0, y0, x1, y1 = extent
    return (min(p0[0], p1[0]) - half <= x1 and x0 <= max(p0[0], p1[0]) + half
            and min(p0[1], p1[1]) - half <= y1 and y0 <= max(p0[1], p1[1]) + half)


def _segment_meets_polygon(p0, p1, poly, width, extent=None):
    """Does the segment (``width`` pixels thick) touch the polygon (its inside or its border)?"""
    if not _segment_near_extent(p0, p1, _extent(poly) if extent is None else extent, width):
        return False
    path = Path(poly)
    mid = [(p0[0] + (p1[0] - p0[0]) * t, p0[1] + (p1[1] - p0[1]) * t) for t in np.linspace(0, 1, 41)]
    if path.contains_points(mid).any():
        return True
    # The border within half the line width of the segment (the polygon's edges, sampled).
    border = np.concatenate([np.linspace(a, b, 12) for a, b in itertools.pairwise(poly)])
    return bool((_point_segment_distance(border, p0, p1) < width / 2).any())


def _box_meets_polygon(box, poly, extent=None):
    x0, y0, x1, y1 = _extent(poly) if extent is None else extent
    if box.x1 < x0 or x1 < box.x0 or box.y1 < y0 or y1 < box.y0:  # quick, exact reject
        return False
    path = Path(poly)
    return path.intersects_bbox(box, filled=True)


def _box_inside_polygon(box, poly, tol=0.5):
    corners = [(box.x0 + tol, box.y0 + tol), (box.x1 - tol, box.y0 + tol),
               (box.x0 + tol, box.y1 - tol), (box.x1 - tol, box.y1 - tol)]
    return bool(Path(poly).contains_points(corners).all())


# ----------------------------------------------------------------------------
# The check
# ----------------------------------------------------------------------------


def _name(G, n):
    if G is not None and n in G and G.nodes[n].get("label") is not None:
        return str(G.nodes[n]["label"])
    return repr(n)


def overlaps(ax, G=None, renderer=None) -> list:
    """Every place where a text of the figure cannot be read, or an edge runs through a node.

    Checked, all in display pixels as drawn:

    * a value inside a node's mark stays inside it (no number spills out);
    * no text's box overlaps another text's box, a node's mark (its own value
      aside), the current node's ring (its own value aside), an edge (edges
      into the node a value sits inside aside: they end under its mark), the
      title or the legend;
    * no edge passes through a node it does not join, nor through the title or legend;
    * no text is cut off at the edge of the Axes.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        A painted figure (:func:`gametrees.draw`, a replay's Axes, the practice figure).
    G : networkx.DiGraph, optional
        The tree, to name nodes by their labels in the messages.

    Returns
    -------
    list of str
        One sentence per problem; empty when every text is clear.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import gametrees as gt
    >>> G = gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    >>> ax = gt.draw(gt.alphabeta(G))
    >>> overlaps(ax, G)
    []
    """
    m = marks(ax, renderer)
    problems = []
    polys = {n: _polygon(p) for n, p in m.nodes.items()}
    extents = {n: _extent(poly) for n, poly in polys.items()}
    ring = _polygon(m.ring) if m.ring is not None else None
    frame = ax.bbox  # (the figure's tree area: texts outside it are not drawn)

    def what(item):
        layer, owner, text, _ = item
        return f"{layer} {text!r}" + (f" (of {_name(G, owner)})" if owner is not None else "")

    inside = []
    for item in m.texts:
        layer, owner, _, box = item
        own = m.inside and layer == _INSIDE and owner in polys
        inside.append(own)
        if own and not _box_inside_polygon(box, polys[owner]):
            problems.append(f"{what(item)} spills out of its node's mark")
    for i, a in enumerate(m.texts):
        for b in m.texts[i + 1:]:
            if _boxes_meet(a[3], b[3]):
                problems.append(f"{what(a)} overlaps {what(b)}")
    for item, own in zip(m.texts, inside):
        layer, owner, _, box = item
        clear_of = _shrunk(box, 0.5)
        for n, poly in polys.items():
            if own and n == owner:
                continue
            if _box_meets_polygon(clear_of, poly, extents[n]):
                problems.append(f"{what(item)} is covered by the mark of {_name(G, n)}")
        if ring is not None and not own and _box_meets_polygon(clear_of, ring):
            problems.append(f"{what(item)} is covered by the current node's ring")
        for (u, v), (p0, p1), width in m.edges:
            if own and owner in (u, v):
                continue
            grown = _shrunk(box, -width / 2 + 0.5)
            if segment_meets_box(p0, p1, grown):
                problems.append(f"{what(item)} is crossed by the edge {_name(G, u)}–{_name(G, v)}")
        for name, other in m.boxes:
            if _boxes_meet(box, other):
                problems.append(f"{what(item)} overlaps the {name}")
        if not (frame.x0 - 0.5 <= box.x0 and box.x1 <= frame.x1 + 0.5
                and frame.y0 - 0.5 <= box.y0 and box.y1 <= frame.y1 + 0.5):
            problems.append(f"{what(item)} is cut off at the edge of the figure")
    for (u, v), (p0, p1), width in m.edges:
        for n, poly in polys.items():
            if n in (u, v):
                continue
            if _segment_meets_polygon(p0, p1, poly, width, extents[n]):
                problems.append(f"the edge {_name(G, u)}–{_name(G, v)} runs through the mark of "
                                f"{_name(G, n)}")
        for name, other in m.boxes:
            if segment_meets_box(p0, p1, other):
                problems.append(f"the edge {_name(G, u)}–{_name(G, v)} crosses the {name}")
    return problems
