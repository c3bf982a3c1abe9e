"""Exam figures: :func:`export` writes a tree as a question or an answer (SVG, PDF, PNG or TikZ).

Formats, chosen by the file's suffix: ``.svg``, ``.pdf`` and ``.png``
(matplotlib, the notebook drawing itself), ``.tex`` and ``.tikz`` (LaTeX, see
:mod:`gametrees.exports.tikz`). What a question and an answer show is
:mod:`gametrees.exports.flavours`; how a file is written (whole or not at
all) is :mod:`gametrees.exports.files`.

Drawing never searches: for the answer to a bare tree, :func:`export` runs
the search named by ``algorithm=`` first (this module is an instructor tool
layered on top of search and drawing). It may import matplotlib,
:mod:`gametrees.drawing` and the other modules of :mod:`gametrees.exports`.
"""

from __future__ import annotations

import numbers

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..drawing import Drawing
from .files import FIGURE_FORMATS, MARK, AtomicFile, check_overwrite, check_target
from .flavours import caption, check_width, matplotlib_text, resolve
from .tikz import tikz_source

__all__ = ["export"]

# ----------------------------------------------------------------------------
# export
# ----------------------------------------------------------------------------


def export(x, path, *, flavour="answer", algorithm=None, instructions=False, title=None, labels=None,
           moves=None, windows=None, legend=True, standalone=None, max_width_cm=16.0, dpi=200,
           boards=None, max_depth=None, max_children=None, max_nodes=500, force=False):
    """Write a game tree as a figure for an exam paper or a slide: SVG, PDF, PNG or TikZ.

    Parameters
    ----------
    x : networkx.DiGraph, SearchResult or exercise
        A tree (``gt.tree_from_nested(...)``), a search result (its annotated
        graph), or an exercise from ``gt.exercises.generate`` (its tree, and
        its own search for the answer).
    path : str or pathlib.Path
        Where to write. The suffix picks the format: ``.svg``, ``.pdf``,
        ``.png``, ``.tex`` (a standalone LaTeX document), ``.tikz`` (a bare
        ``tikzpicture``). The folder must exist.
    flavour : {"answer", "question"}
        ``"question"``: the leaves' utilities, inner nodes blank, no search
        marks. ``"answer"``: values (bounds as ``≤ v`` / ``≥ v``), alpha and
        beta beside the nodes, pruned branches dashed and cut, the principal
        variation bold.
    algorithm : {"minimax", "alphabeta", "alphabeta-strict", "expectimax"}, optional
        The search that answers a bare tree (default: ``"expectimax"`` for a
        tree with chance nodes, else ``"alphabeta"``); for a question, the
        search the instructions describe. A result keeps its own search.
    instructions : bool or str
        ``True``: a sentence above the tree says what to do (for alpha-beta:
        "... and mark the pruned branches"); a str: your own words.
    title : str, False or None
        A line above the tree. ``None``: the search's summary on an answer
        (algorithm, value, counts), nothing on a question.
    labels, moves, windows : bool or None
        Node labels (A, B, ...), move labels or chance probabilities on the
        edges, alpha and beta beside the nodes. ``None``: as in the notebook
        (labels on textbook trees, probabilities on chance edges), and alpha
        and beta on an answer.
    legend : bool
        The legend under an SVG/PDF/PNG figure (TikZ pictures have none).
    standalone : bool, optional
        TikZ only: a whole LaTeX document (default for ``.tex``) or the bare
        ``tikzpicture`` (default for ``.tikz``).
    max_width_cm : float
        TikZ only: a wider picture is scaled down to this width (16 cm: the
        text width of an A4 page).
    dpi : int
        PNG only: dots per inch.
    boards, max_depth, max_children, max_nodes
        As in :func:`gametrees.draw` (``boards`` is for SVG/PDF/PNG only).
    force : bool
        Replace an existing file that no export wrote. Without it, an existing ``path`` is replaced only
        if an earlier export wrote it (every export carries a mark), as on the command line.

    Returns
    -------
    pathlib.Path
        The file written.

    Raises
    ------
    ValueError
        An unknown suffix (the message lists the supported ones), flavour or
        algorithm; a result without a graph; a tree too wide to draw
        (:class:`~gametrees.drawing.TreeTooWide`: more than ``max_nodes // 2``
        nodes side by side even at the level under the root), refused before
        any search or drawing; a PNG wider or taller than 65,535 pixels
        (lower ``dpi``).
    TypeError
        ``legend`` or ``standalone`` not True/False (``standalone`` may be None).
    FileNotFoundError, NotADirectoryError, PermissionError
        The folder is missing or not writable (the message names the path).
    FileExistsError
        ``path`` exists, no export wrote it, and ``force`` is False (checked before any work).

    See Also
    --------
    to_tikz : the TikZ source as a string.
    animate : a search as an animated GIF.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import gametrees as gt
    >>> T = gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> gt.export(T, folder / "alphabeta.svg").name  # the answer: alpha-beta searched it
    'alphabeta.svg'
    >>> p = gt.export(T, folder / "question.tikz", flavour="question", instructions=True)
    >>> print(p.read_text().count(r"\\node"))  # one per node of the tree
    13
    >>> gt.export(T, folder / "tree.docx")
    Traceback (most recent call last):
    ...
    ValueError: unknown format '.docx' for '...tree.docx': export writes .svg, .pdf, .png, .tex, .tikz
    >>> _ = (folder / "notes.tex").write_text("my own exam")
    >>> gt.export(T, folder / "notes.tex")
    Traceback (most recent call last):
    ...
    FileExistsError: '...notes.tex' exists and was not written by an export: give force=True ...
    """
    target, suffix = check_target(path, FIGURE_FORMATS, "export")
    if not isinstance(legend, bool):
        raise TypeError(f"legend must be True or False, got {legend!r}")
    if standalone is not None and not isinstance(standalone, bool):
        raise TypeError(f"standalone must be True, False or None (automatic: .tex a whole document, "
                        f".tikz a bare picture), got {standalone!r}")
    check_width(x, max_depth=max_depth, max_children=max_children, max_nodes=max_nodes)  # before a search
    check_overwrite(target, force)
    G, result, algorithm, flavour = resolve(x, flavour, algorithm)
    text = caption(G, result, algorithm, flavour, title, instructions)
    if windows is None:
        windows = flavour == "answer"
    options = dict(labels=labels, moves=moves, windows=windows, max_depth=max_depth,
                   max_children=max_children, max_nodes=max_nodes)
    if suffix in (".tex", ".tikz"):
        if boards is not None:
            raise ValueError("boards=... draws game boards, which TikZ export does not: "
                             "write .svg, .pdf or .png")
        if standalone is None:
            standalone = suffix == ".tex"
        source = tikz_source(G, text, standalone=standalone, max_width_cm=max_width_cm, **options)
        with AtomicFile(target) as tmp:
            tmp.write_text(source, encoding="utf-8")
        return target
    if standalone is not None:
        raise TypeError("standalone= is for TikZ (.tex / .tikz) only")
    if isinstance(dpi, bool) or not isinstance(dpi, numbers.Real) or not 20 <= dpi <= 1200:
        raise ValueError(f"dpi must be a number of dots per inch in 20..1200, got {dpi!r}")
    png_dpi = dpi if suffix == ".png" else None
    fig = _figure(G, text and text[0], legend=legend, boards=boards, png_dpi=png_dpi, **options)
    _save_figure(fig, target, suffix, dpi)
    return target


def _figure(G, text, *, legend, boards, labels, moves, windows, max_depth, max_children, max_nodes,
            png_dpi=None):
    """The notebook drawing of ``G`` on its own (non-pyplot) figure (checked to fit a PNG at ``png_dpi``)."""
    drawing = Drawing(G, boards=boards, labels=labels, moves=moves, windows=windows, legend=legend,
                       max_depth=max_depth, max_children=max_children, max_nodes=max_nodes)
    geom, text = drawing.geometry(text)
    if png_dpi is not None:
        _check_pixels(geom.width, geom.height, png_dpi)
    fig = Figure(facecolor="white")
    FigureCanvasAgg(fig)
    ax = drawing.new_axes(geom, fig)
    drawing.paint(ax, geom, drawing.scene(), matplotlib_text(text))
    return fig


#: The most pixels a PNG may have in each direction (matplotlib's Agg renderer: less than 2**16).
MAX_PNG_PX = 2**16 - 1


def _check_pixels(width_in, height_in, dpi):
    """Refuse, before drawing, a PNG larger than the renderer makes (and say which dpi would fit)."""
    width, height = width_in * dpi, height_in * dpi
    if max(width, height) > MAX_PNG_PX:
        fits = int(dpi * MAX_PNG_PX / max(width, height))
        raise ValueError(
            f"the PNG would be {width:,.0f} x {height:,.0f} pixels at dpi={dpi}, more than the "
            f"{MAX_PNG_PX:,} pixels a side that matplotlib draws: lower dpi (at most {fits} for this tree), "
            "draw fewer nodes (max_depth=, max_children=), or write .svg or .pdf")


def _save_figure(fig, target, suffix, dpi):
    fmt = suffix[1:]
    # The mark (is_own_output) in the metadata; no dates, so the same tree gives the same file.
    metadata = {"svg": {"Date": None, "Creator": f"{MARK} (matplotlib)"},
                "pdf": {"CreationDate": None, "ModDate": None, "Creator": f"{MARK} (matplotlib)"},
                "png": {"Software": f"{MARK} (matplotlib)"}}[fmt]
    # Reproducible files: no dates, fixed SVG ids; TrueType text in PDFs (editable, searchable).
    with matplotlib.rc_context({"svg.hashsalt": "gametrees", "pdf.fonttype": 42}):
        with AtomicFile(target) as tmp:
            fig.savefig(tmp, format=fmt, dpi=dpi if fmt == "png" else "figure", metadata=metadata,
                        facecolor="white")
