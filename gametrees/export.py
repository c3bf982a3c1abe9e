"""Instructor exports: searches as animations for slides, trees as figures for exam papers.

:func:`animate` writes the replay of a search as an animated GIF (or an MP4
when ffmpeg is installed): one frame per event of the trace, the event's
sentence as the caption, the same drawing as the notebook replay.

:func:`export` writes a tree as a figure, in two flavours:

``"question"``
    The tree with the utilities on the leaves and every inner node blank
    (optionally with instructions: "... mark the pruned branches").
``"answer"``
    The searched tree: backed-up values (bounds as ``≤ 2`` / ``≥ 5``), alpha
    and beta beside the nodes, pruned branches dashed and cut, the principal
    variation bold.

Formats, chosen by the file's suffix: ``.svg``, ``.pdf`` and ``.png``
(matplotlib, the notebook drawing itself), ``.tex`` (a standalone LaTeX
document that compiles with ``pdflatex``) and ``.tikz`` (a bare
``tikzpicture`` to paste into an exam; it needs ``\\usepackage{tikz}`` and
``\\usetikzlibrary{shapes.geometric}``). :func:`to_tikz` returns the TikZ
source as a string. The TikZ picture uses the notebook's layout
(:func:`~gametrees.layout.tidy_layout`, one layout unit = 12 mm) and symbols:
MAX an up-triangle, MIN a down-triangle, chance a circle, a leaf a square.

Files are written only where they are told to go: a relative path is taken
from the current working folder, and a missing folder is an error (nothing
creates folders behind your back). A file is written whole or not at all: it
is first written beside its destination under a temporary name, then moved
into place, so a failed export never leaves half a file or clobbers an older
one.

Drawing never searches: for the answer to a bare tree, :func:`export` runs
the search named by ``algorithm=`` first (this module is an instructor tool
layered on top of search and drawing).
"""

from __future__ import annotations

import io
import math
import numbers
import os
import re
import tempfile
import textwrap
from pathlib import Path

import networkx as nx
import numpy as np
from matplotlib import animation
from PIL import Image

from .games import CHANCE, MAX, MIN
from .search import SearchResult, alphabeta, expectimax, minimax

__all__ = ["ALGORITHMS", "FIGURE_FORMATS", "ANIMATION_FORMATS", "animate", "export", "to_tikz"]

#: Suffixes :func:`export` writes, and what each is.
FIGURE_FORMATS = {
    ".svg": "SVG (matplotlib)",
    ".pdf": "PDF (matplotlib)",
    ".png": "PNG (matplotlib)",
    ".tex": "a standalone LaTeX document with a TikZ picture",
    ".tikz": "a bare TikZ picture (tikzpicture environment)",
}
#: Suffixes :func:`animate` writes.
ANIMATION_FORMATS = {
    ".gif": "animated GIF (Pillow)",
    ".mp4": "MP4 video (needs ffmpeg)",
}
#: The searches :func:`export` can run for an answer, by name.
ALGORITHMS = ("minimax", "alphabeta", "alphabeta-strict", "expectimax")
FLAVOURS = ("question", "answer")

# Annotations a search writes (DESIGN.md): stripped for a question.
_NODE_ANNOTATIONS = ("value", "alpha", "beta", "order", "status", "bound")
_GRAPH_ANNOTATIONS = ("algorithm", "nodes_visited", "leaves_evaluated")


# ----------------------------------------------------------------------------
# Paths: check before working, write whole files only
# ----------------------------------------------------------------------------


def _target(path, formats, what):
    """``path`` as a Path with its lower-case suffix, checked: known format, writable folder."""
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a file name (str or pathlib.Path), got {type(path).__name__}")
    path = Path(path)
    suffix = path.suffix.lower()
    supported = ", ".join(formats)
    if not suffix:
        raise ValueError(f"{str(path)!r} has no suffix: {what} writes {supported} (chosen by the suffix)")
    if suffix not in formats:
        raise ValueError(f"unknown format {suffix!r} for {str(path)!r}: {what} writes {supported}")
    folder = path.parent
    if not folder.exists():
        raise FileNotFoundError(
            f"cannot write {str(path)!r}: the folder {str(folder)!r} does not exist "
            "(create it first; export does not create folders)"
        )
    if not folder.is_dir():
        raise NotADirectoryError(f"cannot write {str(path)!r}: {str(folder)!r} is not a folder")
    if path.is_dir():
        raise IsADirectoryError(f"cannot write {str(path)!r}: it is a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(f"cannot write {str(path)!r}: the folder {str(folder)!r} is not writable")
    if path.exists() and not os.access(path, os.W_OK):
        raise PermissionError(f"cannot write {str(path)!r}: the file exists and is read-only")
    return path, suffix


class _Atomic:
    """A temporary file beside ``path`` that replaces ``path`` only when writing succeeded."""

    def __init__(self, path):
        self.path = path

    def __enter__(self):
        fd, tmp = tempfile.mkstemp(prefix=f".{self.path.stem}.", suffix=f".partial{self.path.suffix}",
                                   dir=self.path.parent)
        os.close(fd)
        self.tmp = Path(tmp)
        return self.tmp

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            os.chmod(self.tmp, 0o666 & ~_umask())
            os.replace(self.tmp, self.path)
        else:
            self.tmp.unlink(missing_ok=True)
        return False


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


# ----------------------------------------------------------------------------
# What to draw: the tree, the search, the flavour
# ----------------------------------------------------------------------------


def _algorithm_name(algorithm):
    if algorithm is None:
        return None
    if not isinstance(algorithm, str):
        raise TypeError(f"algorithm must be a str, one of {', '.join(ALGORITHMS)}, got {algorithm!r}")
    key = algorithm.strip().lower().replace("_", "-").replace("alpha-beta", "alphabeta")
    if key not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}: choose one of {', '.join(ALGORITHMS)}")
    return key


def _search(G, algorithm):
    """Run the named search on the tree ``G`` with a trace (for an answer)."""
    if algorithm == "minimax":
        return minimax(G, trace=True)
    if algorithm == "alphabeta":
        return alphabeta(G, trace=True)
    if algorithm == "alphabeta-strict":
        return alphabeta(G, strict=True, trace=True)
    return expectimax(G, trace=True)


def _has_chance(G):
    return any(p == CHANCE for _, p in G.nodes(data="player"))


def _plain(G):
    """A copy of the tree without any search's annotations: what a question shows."""
    H = G.copy()
    for _, attrs in H.nodes(data=True):
        for key in _NODE_ANNOTATIONS:
            attrs.pop(key, None)
    for _, _, attrs in H.edges(data=True):
        attrs.pop("best", None)
    for key in _GRAPH_ANNOTATIONS:
        H.graph.pop(key, None)
    return H


def _is_annotated(G):
    return any("status" in attrs for _, attrs in G.nodes(data=True))


def _resolve(x, flavour, algorithm):
    """``(graph to draw, SearchResult or None, algorithm name, flavour)``.

    ``x`` is a tree, an annotated graph, a SearchResult, or an exercise
    (anything with ``.tree`` and ``.result``). An answer to a bare tree is
    searched here; a question gets the tree without annotations.
    """
    if not isinstance(flavour, str) or flavour.strip().lower() not in FLAVOURS:
        raise ValueError(f"flavour must be 'question' or 'answer', got {flavour!r}")
    flavour = flavour.strip().lower()
    algorithm = _algorithm_name(algorithm)
    result = None
    if isinstance(x, SearchResult):
        if x.graph is None:
            raise ValueError(f"this {x.algorithm} result has no graph: search with trace=True (or graph=True)")
        result, G = x, x.graph
    elif isinstance(x, nx.DiGraph):
        G = x
    elif hasattr(x, "tree") and hasattr(x, "result") and isinstance(getattr(x, "tree"), nx.DiGraph):
        G = x.tree  # an exercise: its own search answers it, unless another algorithm is asked for
        if algorithm is None or algorithm == x.result.algorithm:
            result = x.result
    else:
        raise TypeError(
            "export expects a game tree (networkx.DiGraph), a SearchResult or an exercise, "
            f"got {type(x).__name__}; build a tree with gt.tree_from_nested or gt.tree_from_dict"
        )
    done = result.algorithm if result is not None else (G.graph.get("algorithm") if _is_annotated(G) else None)
    if done is not None and algorithm is not None and algorithm != done:
        raise ValueError(
            f"algorithm={algorithm!r}, but this was already searched with {done}: "
            "pass the tree (result.graph would keep the old search) or leave algorithm out"
        )
    if algorithm is None:
        algorithm = done or ("expectimax" if _has_chance(G) else "alphabeta")
    if algorithm == "negamax":  # a negamax result: in the question's words, alpha-beta if it pruned
        algorithm = "alphabeta" if _pruned_any(G) else "minimax"
    if flavour == "question":
        return _plain(G), None, algorithm, flavour
    if result is None and not _is_annotated(G):
        result = _search(G, algorithm)
    if result is not None:
        G = result.graph
    return G, result, algorithm, flavour


# ----------------------------------------------------------------------------
# Words: instructions for a question, the answer's summary
# ----------------------------------------------------------------------------


def _instructions(G, algorithm, tex=False):
    """What a question asks, in plain words: Unicode, or LaTeX with ``tex=True``."""
    # Each formula written both ways: (Unicode, LaTeX).
    formulas = {
        "up": ("▲", r"$\bigtriangleup$"), "down": ("▼", r"$\bigtriangledown$"), "dot": ("●", r"$\bullet$"),
        "ge_beta": ("v ≥ β", r"$v \ge \beta$"), "le_alpha": ("v ≤ α", r"$v \le \alpha$"),
        "gt_beta": ("v > β", r"$v > \beta$"), "lt_alpha": ("v < α", r"$v < \alpha$"),
        "le_v": ("≤ v", r"$\le v$"), "ge_v": ("≥ v", r"$\ge v$"), "cut": ("‖", r"$\|$"),
    }
    f = {key: pair[1 if tex else 0] for key, pair in formulas.items()}
    if algorithm.startswith("alphabeta"):
        at_max, at_min = ("gt_beta", "lt_alpha") if algorithm == "alphabeta-strict" else ("ge_beta", "le_alpha")
        return ("Run alpha-beta search on this tree, children left to right, pruning when "
                f"{f[at_max]} at a MAX node ({f['up']}) or {f[at_min]} at a MIN node ({f['down']}). "
                f"Write the value of every node the search reaches ({f['le_v']} or {f['ge_v']} where pruning "
                f"leaves only a bound), and mark the pruned branches with a cut ({f['cut']}).")
    if algorithm == "expectimax" or _has_chance(G):
        return (f"Fill in the expectimax value of every inner node: MAX ({f['up']}) takes the largest value "
                f"of its children, MIN ({f['down']}) the smallest, and a chance node ({f['dot']}) their "
                "average weighted by the probabilities on the edges.")
    return (f"Fill in the minimax value of every inner node: MAX ({f['up']}) takes the largest value of its "
            f"children, MIN ({f['down']}) the smallest.")


def _pruned_any(G):
    return any(s == "pruned" for _, s in G.nodes(data="status"))


def _caption(G, result, algorithm, flavour, title, instructions):
    """The text above the figure: ``(plain, latex)``, or None.

    A title (given, or the search's summary on an answer) and, on request,
    the instructions. Given strings are plain text: LaTeX gets them escaped.
    """
    from .draw import _summary

    if title is not None and title is not False and not isinstance(title, str):
        raise TypeError(f"title must be a str, False or None (automatic), got {title!r}")
    if instructions is not None and not isinstance(instructions, (bool, str)):
        raise TypeError(f"instructions must be True, False or a str, got {instructions!r}")
    plain, latex = [], []
    head = title if isinstance(title, str) else None
    if title is None and flavour == "answer":
        head = _summary(result if result is not None else G)
    if head and head.strip():
        plain.append(head.strip())
        latex.append(_tex(head.strip()))
    if isinstance(instructions, str):
        if instructions.strip():
            plain.append(instructions.strip())
            latex.append(_tex(instructions.strip()))
    elif instructions:
        plain.append(_instructions(G, algorithm))
        latex.append(_instructions(G, algorithm, tex=True))
    if not plain:
        return None
    return " ".join(plain), " ".join(latex)


# ----------------------------------------------------------------------------
# export
# ----------------------------------------------------------------------------


def export(x, path, *, flavour="answer", algorithm=None, instructions=False, title=None, labels=None,
           moves=None, windows=None, legend=True, standalone=None, max_width_cm=16.0, dpi=200,
           boards=None, max_depth=None, max_children=None, max_nodes=500):
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

    Returns
    -------
    pathlib.Path
        The file written.

    Raises
    ------
    ValueError
        An unknown suffix (the message lists the supported ones), flavour or
        algorithm; a result without a graph.
    FileNotFoundError, NotADirectoryError, PermissionError
        The folder is missing or not writable (the message names the path).

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
    """
    target, suffix = _target(path, FIGURE_FORMATS, "export")
    G, result, algorithm, flavour = _resolve(x, flavour, algorithm)
    text = _caption(G, result, algorithm, flavour, title, instructions)
    if windows is None:
        windows = flavour == "answer"
    options = dict(labels=labels, moves=moves, windows=windows, max_depth=max_depth,
                   max_children=max_children, max_nodes=max_nodes)
    if suffix in (".tex", ".tikz"):
        if boards is not None:
            raise ValueError("boards=... draws game boards, which TikZ export does not: write .svg, .pdf or .png")
        if standalone is None:
            standalone = suffix == ".tex"
        source = _tikz(G, text, standalone=bool(standalone), max_width_cm=max_width_cm, **options)
        with _Atomic(target) as tmp:
            tmp.write_text(source, encoding="utf-8")
        return target
    if standalone is not None:
        raise TypeError("standalone= is for TikZ (.tex / .tikz) only")
    if isinstance(dpi, bool) or not isinstance(dpi, numbers.Real) or not 20 <= dpi <= 1200:
        raise ValueError(f"dpi must be a number of dots per inch in 20..1200, got {dpi!r}")
    fig = _figure(G, text and text[0], legend=legend, boards=boards, **options)
    _save_figure(fig, target, suffix, dpi)
    return target


def _figure(G, text, *, legend, boards, labels, moves, windows, max_depth, max_children, max_nodes):
    """The notebook drawing of ``G`` on its own (non-pyplot) figure."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from .draw import _Drawing

    drawing = _Drawing(G, boards=boards, labels=labels, moves=moves, windows=windows, legend=legend,
                       max_depth=max_depth, max_children=max_children, max_nodes=max_nodes)
    geom, text = drawing.geometry(text)
    fig = Figure(facecolor="white")
    FigureCanvasAgg(fig)
    ax = drawing.new_axes(geom, fig)
    drawing.paint(ax, geom, drawing.scene(), _mpl_text(text))
    return fig


def _mpl_text(text):
    """Text for a matplotlib title: a ``$`` is a dollar sign, not mathtext."""
    return None if text is None else text.replace("$", r"\$")


def _save_figure(fig, target, suffix, dpi):
    import matplotlib

    fmt = suffix[1:]
    metadata = {"svg": {"Date": None}, "pdf": {"CreationDate": None, "ModDate": None}}.get(fmt)
    # Reproducible files: no dates, fixed SVG ids; TrueType text in PDFs (editable, searchable).
    with matplotlib.rc_context({"svg.hashsalt": "gametrees", "pdf.fonttype": 42}):
        with _Atomic(target) as tmp:
            fig.savefig(tmp, format=fmt, dpi=dpi if fmt == "png" else "figure", metadata=metadata,
                        facecolor="white")


# ----------------------------------------------------------------------------
# TikZ
# ----------------------------------------------------------------------------

# Okabe-Ito tints and colours, as in the notebook drawing (gametrees.draw).
_TIKZ_COLOURS = {
    "max": (207, 232, 247),
    "min": (251, 227, 179),
    "chance": (191, 230, 218),
    "blue": (0, 114, 178),
    "vermilion": (213, 94, 0),
}
_UNIT_X_MM, _UNIT_Y_MM = 12.0, 18.0  # one layout unit, one level
_MARGIN_CM = 1.2  # labels left of the leftmost node, alpha/beta right of the rightmost


def _rgb(name):
    r, g, b = _TIKZ_COLOURS[name]
    return f"{{rgb,255:red,{r};green,{g};blue,{b}}}"


def _tikz_styles():
    narrow = (r"execute at begin node={\setbox0=\hbox\bgroup}, "
              r"execute at end node={\egroup\hbox to 0pt{\hss\box0\hss}}")
    return [
        r"gt node/.style={draw=black, line width=0.6pt, inner sep=0pt, font=\small}",
        # Values inside a triangle or a circle do not resize it (zero-width text box), and sit
        # in the triangle's wide part (text height / depth move the box's centre).
        f"gt narrow/.style={{{narrow}}}",
        (r"gt max/.style={gt node, gt narrow, regular polygon, regular polygon sides=3, minimum size=12mm, "
         f"text height=11pt, text depth=0pt, fill={_rgb('max')}}}"),
        (r"gt min/.style={gt node, gt narrow, regular polygon, regular polygon sides=3, "
         r"shape border rotate=180, minimum size=12mm, text height=1pt, text depth=0pt, "
         f"fill={_rgb('min')}}}"),
        (r"gt chance/.style={gt node, gt narrow, circle, minimum size=9mm, text height=1.5ex, "
         f"text depth=0pt, fill={_rgb('chance')}}}"),
        r"gt leaf/.style={gt node, rectangle, minimum size=7mm, inner xsep=1.5pt, fill=white}",
        r"gt pruned/.style={dashed, draw=gray, fill=black!7, text=gray}",
        r"gt todo/.style={draw=black!30, fill=white, text=black!45}",
        r"gt label/.style={font=\footnotesize, text=black!70, inner sep=2.5pt}",
        r"gt window/.style={font=\scriptsize, align=left, inner sep=1.5pt, text=black!85}",
        r"gt move/.style={font=\scriptsize, text=black!75, inner sep=2pt}",
        f"gt cut/.style={{sloped, inner sep=0pt, font=\\large, text={_rgb('vermilion')}}}",
        f"gt best/.style={{very thick, draw={_rgb('blue')}}}",
        r"gt hidden/.style={font=\scriptsize, text=black!65}",
        r"gt caption/.style={font=\small, align=left, inner sep=0pt}",
    ]


_TEX_SPECIALS = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
    "^": r"\^{}", "_": r"\_", "%": r"\%", "~": r"\textasciitilde{}",
}
# Symbols the package's own texts use (and learners' labels might), as LaTeX without
# packages beyond tikz (no amssymb: an exam's preamble may not load it).
_TEX_SYMBOLS = {
    "≤": r"$\le$", "≥": r"$\ge$", "α": r"$\alpha$", "β": r"$\beta$", "∞": r"$\infty$",
    "−": r"$-$", "‖": r"$\|$", "▲": r"$\bigtriangleup$", "▼": r"$\bigtriangledown$",
    "●": r"$\bullet$", "×": r"$\times$", "…": r"\dots{}", "\u200a": r"\,", "\u00a0": "~",
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}",
}


def _tex(text) -> str:
    """Plain text as LaTeX: specials escaped, the package's symbols typeset, newlines as spaces.

    >>> _tex("50% of A_1 & {B} ≤ 3")
    '50\\\\% of A\\\\_1 \\\\& \\\\{B\\\\} $\\\\le$ 3'
    """
    out = []
    for ch in str(text):
        if ch in _TEX_SPECIALS:
            out.append(_TEX_SPECIALS[ch])
        elif ch in _TEX_SYMBOLS:
            out.append(_TEX_SYMBOLS[ch])
        elif ch in "\r\n\t":
            out.append(" ")
        else:
            out.append(ch)
    return "".join(out)


def _tex_num(x) -> str:
    """A number in math mode: 3, -2, 4.33, +\\infty (without the dollars)."""
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        return _tex(x)
    if math.isinf(x):
        return r"+\infty" if x > 0 else r"-\infty"
    if isinstance(x, numbers.Integral):
        return str(int(x))
    x = float(x)
    s = str(int(x)) if x.is_integer() and abs(x) < 1e15 else f"{x:.3g}"
    if "e" in s:
        mantissa, exp = s.split("e")
        s = rf"{mantissa}\cdot 10^{{{int(exp)}}}"
    return s


def _tex_value(x, bound=None) -> str:
    s = _tex_num(x)
    if bound == "upper":
        s = r"\le " + s
    elif bound == "lower":
        s = r"\ge " + s
    return f"${s}$"


def to_tikz(x, *, flavour="answer", algorithm=None, instructions=False, title=None, labels=None, moves=None,
            windows=None, standalone=False, max_width_cm=16.0, max_depth=None, max_children=None,
            max_nodes=500) -> str:
    """The TikZ source of a tree, a search's answer, or an exam question.

    The parameters are those of :func:`export` (which writes this text to
    a ``.tex`` or ``.tikz`` file). Every node of the tree is one ``\\node``
    named ``n0``, ``n1``, ... in breadth-first order, at its position in the
    notebook's layout; every edge is one ``\\draw``: ``dashed, gray`` for a
    pruned branch (with a cut mark ``$\\|$`` on the edge into it),
    ``gt best`` (``very thick``, blue) on the principal variation. Styles are
    defined in the picture's options, so a bare ``tikzpicture`` pastes into
    any document that loads ``tikz`` and ``\\usetikzlibrary{shapes.geometric}``.

    Parameters
    ----------
    standalone : bool
        ``True``: a whole document (``\\documentclass{standalone}``) that
        compiles with ``pdflatex``; ``False``: the bare ``tikzpicture``.

    Returns
    -------
    str

    Examples
    --------
    >>> import gametrees as gt
    >>> T = gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    >>> src = to_tikz(gt.alphabeta(T))
    >>> src.count(r"\\node["), src.count(r"\\draw[dashed, gray]")
    (13, 2)
    >>> print(next(line for line in src.splitlines() if "(n0) at" in line))
    \\node[gt max, label={[gt label]left:{A}}, label={[gt window]right:{$\\alpha=3$\\\\$\\beta=+\\infty$}}] (n0) at (4,0) {$3$};
    """
    G, result, algorithm, flavour = _resolve(x, flavour, algorithm)
    text = _caption(G, result, algorithm, flavour, title, instructions)
    if windows is None:
        windows = flavour == "answer"
    if not isinstance(standalone, bool):
        raise TypeError(f"standalone must be True or False, got {standalone!r}")
    return _tikz(G, text, standalone=standalone, max_width_cm=max_width_cm, labels=labels, moves=moves,
                 windows=windows, max_depth=max_depth, max_children=max_children, max_nodes=max_nodes)


def _fmt_coord(v) -> str:
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _tikz(G, text, *, standalone, max_width_cm, labels, moves, windows, max_depth, max_children, max_nodes):
    from . import __version__
    from .draw import _Drawing

    if isinstance(max_width_cm, bool) or not isinstance(max_width_cm, numbers.Real) or not max_width_cm > 2:
        raise ValueError(f"max_width_cm must be a width in cm greater than 2, got {max_width_cm!r}")
    drawing = _Drawing(G, labels=labels, moves=moves, windows=windows, legend=False, max_depth=max_depth,
                       max_children=max_children, max_nodes=max_nodes)
    prep, sc = drawing.prep, drawing.scene()
    show_labels = drawing.auto_labels if labels is None else labels
    show_moves = drawing.auto_moves if moves is None else moves
    show_windows = bool(windows)
    pos, nodes = prep.pos, prep.G.nodes
    name = {n: f"n{i}" for i, n in enumerate(prep.order)}

    # -- size: one layout unit is 12 mm; scale down to max_width_cm ------------------
    tree_cm = (prep.xmax - prep.xmin) * _UNIT_X_MM / 10 + 2 * _MARGIN_CM
    text_cm = 0.0
    if text:
        text_cm = min(max(tree_cm - 2 * _MARGIN_CM + 1.6, 10.0), max_width_cm)
    width_cm = max(tree_cm, text_cm)
    scale = min(1.0, max_width_cm / width_cm)

    lines = []
    kinds = {MAX: "max", MIN: "min", CHANCE: "chance", "leaf": "leaf"}
    counts = {}
    for n in prep.order:
        counts[sc.style[n]] = counts.get(sc.style[n], 0) + 1
    what = ", ".join(f"{c} {s}" for s, c in sorted(counts.items()))
    lines.append(f"% A game tree drawn by gametrees {__version__}: {len(prep.order)} nodes ({what}).")
    lines.append(r"% Needs \usepackage{tikz} and \usetikzlibrary{shapes.geometric} in the preamble.")
    opts = [f"x={_fmt_coord(_UNIT_X_MM)}mm", f"y={_fmt_coord(_UNIT_Y_MM)}mm"]
    if scale < 1.0:
        opts.append(f"scale={scale:.3f}, transform shape")
    lines.append(r"\begin{tikzpicture}[" + ", ".join(opts) + ",")
    styles = _tikz_styles()
    for i, style in enumerate(styles):
        lines.append("  " + style + ("," if i < len(styles) - 1 else "]"))

    if text:
        x0 = prep.xmin - _MARGIN_CM * 10 / _UNIT_X_MM * 0.6
        lines.append(
            f"\\path ({_fmt_coord(x0)},0.45) node[gt caption, anchor=south west, text width={text_cm:.1f}cm] "
            f"{{{text[1]}}};"
        )

    # -- nodes -----------------------------------------------------------------------
    lines.append("% nodes: values inside, labels beside (alpha and beta on the right)")
    for n in prep.order:
        kind, style = prep.kind[n], sc.style[n]
        node_opts = [f"gt {kinds[kind]}"]
        if style in ("pruned", "todo"):
            node_opts.append(f"gt {style}")
        label = nodes[n].get("label")
        if show_labels and label is not None:
            where = "below" if prep.is_leaf[n] else "left"
            grey = ", text=gray" if style in ("pruned", "todo") else ""
            node_opts.append(f"label={{[gt label{grey}]{where}:{{{_tex(label)}}}}}")
        if show_windows and n in sc.window:
            a, b = sc.window[n]
            node_opts.append(
                f"label={{[gt window]right:{{$\\alpha={_tex_num(a)}$\\\\$\\beta={_tex_num(b)}$}}}}"
            )
        x, y = pos[n]
        lines.append(f"\\node[{', '.join(node_opts)}] ({name[n]}) at ({_fmt_coord(x)},{_fmt_coord(y)}) "
                     f"{{{_node_text(nodes[n], sc, n, style)}}};")

    # -- edges -----------------------------------------------------------------------
    lines.append("% edges: pruned branches dashed and cut, the principal variation very thick")
    cut = set(sc.cut)
    edge_opts = {"plain": "", "best": "[gt best]", "pruned": "[dashed, gray]", "todo": "[black!30]",
                 "path": ""}
    for u in prep.order:
        for v in prep.children[u]:
            style = sc.edge[u, v]
            extra = []
            if show_moves:
                e = prep.G.edges[u, v]
                mv = e.get("prob", e.get("move"))
                if mv is not None:
                    side = "left" if pos[v][0] < pos[u][0] - 1e-9 else "right"
                    t = 0.62 if "prob" in e else 0.42
                    body = f"${_tex_num(mv)}$" if isinstance(mv, numbers.Real) and not isinstance(mv, bool) \
                        else _tex(mv)
                    extra.append(f" node[gt move, pos={t}, {side}] {{{body}}}")
            if (u, v) in cut:
                extra.append(r" node[gt cut, pos=0.6] {$\|$}")
            lines.append(f"\\draw{edge_opts[style]} ({name[u]}) --{''.join(extra)} ({name[v]});")

    # -- hidden subtrees (a large tree cut to fit) -------------------------------------
    for n, h in prep.hidden.items():
        x, y = pos[n]
        kids = prep.children[n]
        if kids:
            lx, ly = pos[kids[-1]]
            lines.append(f"\\path ({_fmt_coord((x + lx) / 2 + 0.3)},{_fmt_coord((y + ly) / 2)}) "
                         f"node[gt hidden, right] {{+{h}\\,\\dots}};")
        else:
            lines.append(f"\\path ({name[n]}.south) node[gt hidden, below=2mm] {{\\dots\\,{h}}};")
    lines.append(r"\end{tikzpicture}")
    picture = "\n".join(lines) + "\n"
    if not standalone:
        return picture
    return (
        "% Compile with pdflatex (or lualatex / xelatex).\n"
        "\\documentclass[border=6pt]{standalone}\n"
        "\\usepackage{tikz}\n"
        "\\usetikzlibrary{shapes.geometric}\n"
        "\\begin{document}\n"
        f"{picture}"
        "\\end{document}\n"
    )


def _node_text(attrs, sc, n, style):
    """The value inside a node, as LaTeX (empty for a blank one)."""
    if not sc.value.get(n):
        return ""
    if style == "done" and "value" in attrs:
        return _tex_value(attrs["value"], attrs.get("bound"))
    if "utility" in attrs:
        return _tex_value(attrs["utility"])
    return _tex(sc.value[n])


# ----------------------------------------------------------------------------
# animate
# ----------------------------------------------------------------------------


def animate(result, path, *, fps=1.0, dpi=150, max_width=1600, caption=True, max_frames=1000, hold=3.0,
            **options):
    """Write the replay of a search as an animated GIF (or MP4): one frame per event.

    Each frame is the notebook's drawing of the search after one event of
    the trace (``gt.draw(result, k=...)``) with the event's sentence as the
    caption ("Step 11 of 26: Go down from A to C, ..."). For slides: put the
    GIF on a slide, or the MP4 where a presentation program wants video.

    Parameters
    ----------
    result : SearchResult
        A search with a trace (``trace=True``; the default on trees).
    path : str or pathlib.Path
        ``.gif`` (Pillow, which comes with matplotlib) or ``.mp4`` (needs
        ffmpeg on the PATH). The folder must exist.
    fps : float
        Frames (events) per second, ``0 < fps <= 50``. Default 1: a step a
        second, slow enough to read the caption along.
    dpi : float
        Dots per inch of the frames. Lowered when a frame would be wider
        than ``max_width`` pixels.
    max_width : int
        The widest a frame may be, in pixels (default 1600: a full-HD slide).
    caption : bool
        Write the event's sentence above each frame.
    max_frames : int
        Refuse (ValueError) a trace of more events than this: a search that
        long is no animation for a slide (search a smaller tree, or use
        ``trace_depth=``).
    hold : float
        GIF only: the last frame (the finished search) stays at least this
        many seconds before the animation loops.
    **options
        Passed to the drawing (as in :func:`gametrees.draw`): ``boards``,
        ``labels``, ``moves``, ``windows``, ``legend``, ``values``,
        ``max_depth``, ``max_children``, ``nodes``, ``max_nodes``.

    Returns
    -------
    pathlib.Path
        The file written.

    Raises
    ------
    ValueError
        A result without a trace ("search with trace=True"), an unknown
        suffix, a bad ``fps``, too many events.
    RuntimeError
        ``.mp4`` without ffmpeg installed.
    FileNotFoundError, NotADirectoryError, PermissionError
        The folder is missing or not writable (the message names the path).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from PIL import Image
    >>> import gametrees as gt
    >>> r = gt.alphabeta(gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    >>> gif = gt.animate(r, pathlib.Path(tempfile.mkdtemp()) / "alphabeta.gif", fps=2)
    >>> with Image.open(gif) as im:
    ...     im.n_frames == len(r.trace), im.width <= 1600
    (True, True)
    >>> gt.animate(gt.alphabeta(gt.TicTacToe()), "never.gif")
    Traceback (most recent call last):
    ...
    ValueError: this alphabeta result has no trace to animate: search with trace=True
    """
    if not isinstance(result, SearchResult):
        raise TypeError(f"animate expects a SearchResult (e.g. gt.alphabeta(tree)), got {type(result).__name__}")
    if result.trace is None or result.graph is None:
        raise ValueError(f"this {result.algorithm} result has no trace to animate: search with trace=True")
    for bad in ("ax", "k", "tree", "title"):
        if bad in options:
            raise TypeError(f"animate draws its own frames: {bad}= is not an option here (caption= is)")
    if isinstance(fps, bool) or not isinstance(fps, numbers.Real) or not 0 < fps <= 50:
        raise ValueError(f"fps must be a number of frames per second in (0, 50], got {fps!r}")
    if isinstance(dpi, bool) or not isinstance(dpi, numbers.Real) or not 20 <= dpi <= 600:
        raise ValueError(f"dpi must be a number of dots per inch in 20..600, got {dpi!r}")
    if isinstance(max_width, bool) or not isinstance(max_width, numbers.Integral) or max_width < 200:
        raise ValueError(f"max_width must be a number of pixels >= 200, got {max_width!r}")
    if isinstance(max_frames, bool) or not isinstance(max_frames, numbers.Integral) or max_frames < 1:
        raise ValueError(f"max_frames must be an int >= 1, got {max_frames!r}")
    if isinstance(hold, bool) or not isinstance(hold, numbers.Real) or hold < 0:
        raise ValueError(f"hold must be a number of seconds >= 0, got {hold!r}")
    if not isinstance(caption, bool):
        raise TypeError(f"caption must be True or False, got {caption!r}")
    trace = result.trace
    if len(trace) > max_frames:
        raise ValueError(
            f"the trace has {len(trace)} events, more than max_frames={max_frames}: an animation that long "
            "is no use on a slide; search a smaller tree (or with trace_depth=), or raise max_frames"
        )
    target, suffix = _target(path, ANIMATION_FORMATS, "animate")
    if suffix == ".mp4":
        if not animation.writers.is_available("ffmpeg"):
            raise RuntimeError(
                f"cannot write {str(target)!r}: MP4 needs ffmpeg, which is not installed (not on the PATH); "
                "write a .gif instead, or install ffmpeg"
            )
        writer = animation.FFMpegWriter(fps=fps, codec="h264", extra_args=["-pix_fmt", "yuv420p"],
                                        metadata={"comment": "made with gametrees"})
    else:
        writer = _GifWriter(fps=fps, hold=hold)
    movie = _Movie(result, caption=caption, dpi=dpi, max_width=max_width, **options)
    with _Atomic(target) as tmp:
        with writer.saving(movie.figure, str(tmp), movie.dpi):
            for k in range(len(trace)):
                movie.show(k)
                writer.grab_frame(facecolor="white")
    return target


class _Movie:
    """One figure for every frame of a search; :meth:`show` paints frame k onto it."""

    def __init__(self, result, *, caption, dpi, max_width, **options):
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        from .draw import _Drawing
        from .trace import frames

        self.trace = result.trace
        self.frames = frames(self.trace)
        self.drawing = drawing = _Drawing(result.graph, framed=True, **options)
        n = len(self.trace)
        # The same geometry for every frame: the one with the longest caption (wrapped).
        self.captions = []
        geom = None
        lines = -1
        for fr in self.frames:
            text = f"Step {fr.k + 1} of {n}: {fr.text}" if caption else None
            g, wrapped = drawing.geometry(text)
            self.captions.append(wrapped)
            count = wrapped.count("\n") + 1 if wrapped else 0
            if count > lines:
                geom, lines = g, count
        self.geom = geom
        # Whole pixels, even ones (video codecs want even sizes), at most max_width wide.
        self.dpi = min(float(dpi), max_width / geom.width)
        w_px = max(2, int(geom.width * self.dpi) // 2 * 2)
        h_px = max(2, int(math.ceil(geom.height * self.dpi / 2)) * 2)
        # (+0.5: matplotlib floors inches x dpi; a hair over the whole pixel floors to it exactly)
        self.figure = Figure(figsize=((w_px + 0.5) / self.dpi, (h_px + 0.5) / self.dpi), dpi=self.dpi,
                             facecolor="white")
        FigureCanvasAgg(self.figure)
        self.size = (w_px, h_px)
        self.ax = self.figure.add_axes((0.0, 0.0, 1.0, geom.axes_h * self.dpi / (h_px + 0.5)))
        from .draw import _setup_axes

        _setup_axes(self.ax, geom)
        self._background()
        self.artists = []

    def _background(self):
        """The legend (the same in every frame, and half the cost of drawing one) as a picture.

        It is drawn once, at the frames' dpi, and kept as a figure image
        under the tree: every frame then draws only the tree and its caption.
        """
        drawing = self.drawing
        if not drawing.options["legend"]:
            return
        extra = {"current", "todo"} | ({"window"} if any(e.alpha is not None for e in self.trace) else set())
        static = [drawing.painter(self.geom)._legend(self.ax, drawing.scene(), extra=extra)]
        if drawing.prep.note:
            static.append(self.ax.text(0.01, 0.01, drawing.prep.note, transform=self.ax.transAxes,
                                       fontsize=7.5, color="#505050", ha="left", va="bottom", gid="note"))
        static = [a for a in static if a is not None]
        if not static:
            return
        canvas = self.figure.canvas
        canvas.draw()
        pixels = np.asarray(canvas.buffer_rgba()).copy()
        for artist in static:
            artist.remove()
        self.figure.figimage(pixels, 0, 0, origin="upper", zorder=-1, resize=False)

    def show(self, k):
        for artist in self.artists:
            artist.remove()
        fr = self.frames[k]
        self.artists = self.drawing.paint(self.ax, self.geom, self.drawing.scene(fr), None, legend=False)
        text = self.captions[k]
        self.ax.set_title(_mpl_text(text) or "", fontsize=10, loc="left", x=0.012, ha="left")


class _GifWriter(animation.PillowWriter):
    """PillowWriter that keeps frames small: palette images, and a longer last frame.

    Frames are line art: 128 colours hold them (antialiasing included), a
    palette frame takes a quarter of the memory of an RGBA one, and Pillow
    then stores only the rectangle that changed from one frame to the next.
    """

    def __init__(self, *args, hold=0.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.hold = hold

    def grab_frame(self, **savefig_kwargs):
        buf = io.BytesIO()
        self.fig.savefig(buf, **{**savefig_kwargs, "format": "rgba", "dpi": self.dpi})
        im = Image.frombuffer("RGBA", self.frame_size, buf.getbuffer(), "raw", "RGBA", 0, 1)
        self._frames.append(im.convert("RGB").quantize(colors=128, method=Image.Quantize.FASTOCTREE,
                                                       dither=Image.Dither.NONE))

    def finish(self):
        if not self._frames:
            return
        step = int(round(1000 / self.fps))
        durations = [step] * len(self._frames)
        durations[-1] = max(step, int(round(1000 * self.hold)))
        self._frames[0].save(self.outfile, format="GIF", save_all=True, append_images=self._frames[1:],
                             duration=durations, loop=0)
