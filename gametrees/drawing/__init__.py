"""Drawings of game trees, search results and frames of a search (matplotlib).

For a learner, two functions: :func:`draw` (a tree, a result, or one frame of
a search, onto a matplotlib Axes) and :func:`side_by_side` (two searches next
to each other); and :func:`tidy_layout`, the textbook positions of a tree's
nodes.

The package, in the order a drawing is made (each module imports only the
ones above it):

==============  ============================================================
``layout``      :func:`tidy_layout`, :func:`tree_children` (networkx only)
``scene``       what to draw: the nodes kept and their kinds, and how each
                node and edge looks at one moment (no matplotlib)
``lettering``   texts as glyph outlines (:class:`TextCollection`), and where each
                text goes so that it covers nothing (no figure of its own)
``painter``     the look: colours, styles, sizes, and the matplotlib artists
``figure``      :func:`draw`, :func:`side_by_side` and :class:`Drawing`
``clearance``   what covers what on a painted figure (:func:`overlaps`, :func:`marks`)
==============  ============================================================

The replay, the boards, the practice widget and the exports draw through
this small public interface (never through the modules' private names):

* :class:`Drawing`: a tree prepared once with its options; ``geometry``,
  ``new_axes``, ``scene``, ``paint``, ``paint_legend``, ``painter``;
* :class:`Scene`: how each node and edge looks (a caller may restyle it
  before painting, e.g. mark the subtrees a learner cut as pruned);
* :class:`Painter`: ``half_height(node)``, the size of a node's mark in points;
* :func:`setup_axes`: an Axes with a geometry's limits and no axis lines;
* :func:`summary` ("alphabeta: value 3, 11 nodes visited, ...") and
  :func:`format_number` (3, −2, 4.3333, +∞: :func:`gametrees.wording.fmt`) for texts beside a figure;
* :data:`PALETTE` and :class:`TextCollection` (what the texts of a figure are);
* :data:`MAX_FIGURE_PX` and :func:`figure_limit`: the most room a figure takes
  on the page (900 x 480 px: JupyterLab's notebook column at 1366 px, and a
  replay's tree under its controls), which every figure respects;
  :data:`MIN_TEXT_PT`, the smallest text (7 pt, 9.7 px at 100 dpi);
* :func:`overlaps` (every text a mark, ring, edge or other text covers, every value that spills out
  of its node, every edge through a node it does not join, measured on the painted figure) and
  :func:`marks` (those texts, marks and edges in pixels: where the practice widget must not put a box);
* :data:`MAX_DRAWN_NODES`, :func:`check_max_nodes` and :func:`check_size`: the most nodes a figure
  draws, and the fast check that a tree is not too wide to draw (:class:`TreeTooWide`, a ValueError),
  which the exports make before they search.

This package may import :mod:`gametrees.games`, :mod:`gametrees.trees`,
:mod:`gametrees.search` and :mod:`gametrees.trace`; importing it loads
matplotlib, which is why ``import gametrees`` loads it only on first use.
"""

from .clearance import Marks, marks, overlaps, segment_meets_box
from .figure import Drawing, draw, side_by_side
from .layout import tidy_layout, tree_children
from .painter import (
    MAX_FIGURE_PX,
    MIN_TEXT_PT,
    PALETTE,
    Geometry,
    Painter,
    TextCollection,
    figure_limit,
    setup_axes,
)
from .scene import (
    MAX_DRAWN_NODES,
    Prepared,
    Scene,
    TreeTooWide,
    check_max_nodes,
    check_size,
    format_number,
    format_value,
    summary,
)

__all__ = [
    "MAX_DRAWN_NODES", "MAX_FIGURE_PX", "MIN_TEXT_PT", "PALETTE", "Drawing", "Geometry", "Marks", "Painter",
    "Prepared", "Scene", "TextCollection", "TreeTooWide", "check_max_nodes", "check_size", "draw",
    "figure_limit", "format_number", "format_value", "marks", "overlaps", "segment_meets_box", "setup_axes",
    "side_by_side", "summary", "tidy_layout",
    "tree_children",
]
