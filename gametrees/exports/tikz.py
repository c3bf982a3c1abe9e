"""TikZ: a tree, a search's answer or an exam question as LaTeX source.

:func:`to_tikz` returns the source as a string; :func:`gametrees.export`
writes it to a ``.tex`` file (a standalone LaTeX document that compiles with
``pdflatex``; it needs the ``standalone`` class, in Debian's and Ubuntu's
``texlive-latex-extra``, and TikZ, in ``texlive-pictures``) or a ``.tikz`` file
(a bare ``tikzpicture`` to paste into an exam; it needs ``\\usepackage{tikz}``
and ``\\usetikzlibrary{shapes.geometric}``). The picture uses the notebook's layout
(:func:`~gametrees.drawing.tidy_layout`, one layout unit = 12 mm), its
scene (values, bounds, windows, pruned branches) and its symbols: MAX an
up-triangle, MIN a down-triangle, chance a circle, a leaf a square.

This module may import :mod:`gametrees.drawing` (the prepared tree and its
scene) and :mod:`gametrees.exports.flavours`.
"""

from __future__ import annotations

import numbers

from ..drawing import Drawing
from ..games import CHANCE, MAX, MIN
from .flavours import caption, check_width, resolve, tex, tex_number, tex_value

__all__ = ["tikz_source", "to_tikz"]

# ----------------------------------------------------------------------------
# TikZ
# ----------------------------------------------------------------------------

# Okabe-Ito tints and colours, as in the notebook drawing (gametrees.drawing.painter).
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
        # beside the node's widest part, not on its slanted side (a triangle is 12 mm wide at its base)
        (r"gt window/.style={font=\scriptsize, align=left, inner sep=1.5pt, text=black!85, "
         r"label distance=2.5mm}"),
        r"gt move/.style={font=\scriptsize, text=black!75, inner sep=2pt}",
        f"gt cut/.style={{sloped, inner sep=0pt, font=\\large, text={_rgb('vermilion')}}}",
        f"gt best/.style={{very thick, draw={_rgb('blue')}}}",
        r"gt hidden/.style={font=\scriptsize, text=black!65}",
        r"gt caption/.style={font=\small, align=left, inner sep=0pt}",
    ]


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
    \\node[gt max, label={[gt label]left:{A}},
    label={[gt window]right:{$\\alpha=3$\\\\$\\beta=+\\infty$}}] (n0) at (4,0) {$3$};
    """
    if not isinstance(standalone, bool):
        raise TypeError(f"standalone must be True or False, got {standalone!r}")
    check_width(x, max_depth=max_depth, max_children=max_children, max_nodes=max_nodes)  # before a search
    G, result, algorithm, flavour = resolve(x, flavour, algorithm)
    text = caption(G, result, algorithm, flavour, title, instructions)
    if windows is None:
        windows = flavour == "answer"
    return tikz_source(G, text, standalone=standalone, max_width_cm=max_width_cm, labels=labels, moves=moves,
                 windows=windows, max_depth=max_depth, max_children=max_children, max_nodes=max_nodes)


def _fmt_coord(v) -> str:
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def tikz_source(G, text, *, standalone, max_width_cm, labels, moves, windows, max_depth, max_children,
                max_nodes):
    """The TikZ picture of the graph ``G`` (as :func:`resolve` gives it) under ``text`` (:func:`caption`)."""
    if isinstance(max_width_cm, bool) or not isinstance(max_width_cm, numbers.Real) or not max_width_cm > 2:
        raise ValueError(f"max_width_cm must be a width in cm greater than 2, got {max_width_cm!r}")
    drawing = Drawing(G, labels=labels, moves=moves, windows=windows, legend=False, max_depth=max_depth,
                       max_children=max_children, max_nodes=max_nodes)
    prep, sc = drawing.prep, drawing.scene()
    show_labels = drawing.auto_labels if labels is None else labels
    show_moves = drawing.auto_moves if moves is None else moves
    name = {n: f"n{i}" for i, n in enumerate(prep.order)}

    # -- size: one layout unit is 12 mm; scale down to max_width_cm ------------------
    tree_cm = (prep.xmax - prep.xmin) * _UNIT_X_MM / 10 + 2 * _MARGIN_CM
    text_cm = 0.0
    if text:
        text_cm = min(max(tree_cm - 2 * _MARGIN_CM + 1.6, 10.0), max_width_cm)
    width_cm = max(tree_cm, text_cm)
    scale = min(1.0, max_width_cm / width_cm)

    lines = _preamble(prep, sc, scale)
    if text:
        x0 = prep.xmin - _MARGIN_CM * 10 / _UNIT_X_MM * 0.6
        lines.append(
            f"\\path ({_fmt_coord(x0)},0.45) node[gt caption, anchor=south west, text width={text_cm:.1f}cm] "
            f"{{{text[1]}}};"
        )
    lines += _node_lines(prep, sc, name, show_labels, bool(windows))
    lines += _edge_lines(prep, sc, name, show_moves)
    lines += _hidden_lines(prep, name)
    lines.append(r"\end{tikzpicture}")
    picture = "\n".join(lines) + "\n"
    if not standalone:
        return picture
    return (
        "% Compile with pdflatex (or lualatex / xelatex). LaTeX packages needed: the standalone class\n"
        "% (Debian/Ubuntu: texlive-latex-extra), tikz/pgf (texlive-pictures), "
        "and the base (texlive-latex-base).\n"
        "\\documentclass[border=6pt]{standalone}\n"
        "\\usepackage{tikz}\n"
        "\\usetikzlibrary{shapes.geometric}\n"
        "\\begin{document}\n"
        f"{picture}"
        "\\end{document}\n"
    )


def _preamble(prep, sc, scale):
    """The comment lines (what the picture shows, what it needs) and the ``tikzpicture`` with its styles."""
    from .. import __version__

    lines = []
    counts = {}
    for n in prep.order:
        counts[sc.style[n]] = counts.get(sc.style[n], 0) + 1
    what = ", ".join(f"{c} {s}" for s, c in sorted(counts.items()))
    lines.append(f"% A game tree drawn by gametrees {__version__}: {len(prep.order)} nodes ({what}).")
    lines.append(r"% Needs \usepackage{tikz} and \usetikzlibrary{shapes.geometric} in the preamble "
                 r"(LaTeX package tikz/pgf; Debian: texlive-pictures).")
    opts = [f"x={_fmt_coord(_UNIT_X_MM)}mm", f"y={_fmt_coord(_UNIT_Y_MM)}mm"]
    if scale < 1.0:
        opts.append(f"scale={scale:.3f}, transform shape")
    lines.append(r"\begin{tikzpicture}[" + ", ".join(opts) + ",")
    styles = _tikz_styles()
    for i, style in enumerate(styles):
        lines.append("  " + style + ("," if i < len(styles) - 1 else "]"))
    return lines


def _node_lines(prep, sc, name, show_labels, show_windows):
    """A ``\\node`` per node: its value inside, its label beside it (alpha and beta on the right)."""
    kinds = {MAX: "max", MIN: "min", CHANCE: "chance", "leaf": "leaf"}
    pos, nodes = prep.pos, prep.G.nodes
    lines = ["% nodes: values inside, labels beside (alpha and beta on the right)"]
    for n in prep.order:
        kind, style = prep.kind[n], sc.style[n]
        node_opts = [f"gt {kinds[kind]}"]
        if style in ("pruned", "todo"):
            node_opts.append(f"gt {style}")
        label = nodes[n].get("label")
        if show_labels and label is not None:
            where = "below" if prep.is_leaf[n] else "left"
            grey = ", text=gray" if style in ("pruned", "todo") else ""
            node_opts.append(f"label={{[gt label{grey}]{where}:{{{tex(label)}}}}}")
        if show_windows and n in sc.window:
            a, b = sc.window[n]
            node_opts.append(
                f"label={{[gt window]right:{{$\\alpha={tex_number(a)}$\\\\$\\beta={tex_number(b)}$}}}}"
            )
        x, y = pos[n]
        lines.append(f"\\node[{', '.join(node_opts)}] ({name[n]}) at ({_fmt_coord(x)},{_fmt_coord(y)}) "
                     f"{{{_node_text(nodes[n], sc, n, style)}}};")
    return lines


def _edge_lines(prep, sc, name, show_moves):
    """A ``\\draw`` per edge: its move or probability, a cut mark on a pruned branch."""
    pos = prep.pos
    lines = ["% edges: pruned branches dashed and cut, the principal variation very thick"]
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
                    number = isinstance(mv, numbers.Real) and not isinstance(mv, bool)
                    body = f"${tex_number(mv)}$" if number else tex(mv)
                    extra.append(f" node[gt move, pos={t}, {side}] {{{body}}}")
            if (u, v) in cut:
                extra.append(r" node[gt cut, pos=0.6] {$\|$}")
            lines.append(f"\\draw{edge_opts[style]} ({name[u]}) --{''.join(extra)} ({name[v]});")
    return lines


def _hidden_lines(prep, name):
    """The marks of hidden subtrees (a large tree cut to fit)."""
    pos = prep.pos
    lines = []
    for n, h in prep.hidden.items():
        x, y = pos[n]
        kids = prep.children[n]
        if kids:
            lx, ly = pos[kids[-1]]
            lines.append(f"\\path ({_fmt_coord((x + lx) / 2 + 0.3)},{_fmt_coord((y + ly) / 2)}) "
                         f"node[gt hidden, right] {{+{h}\\,\\dots}};")
        else:
            lines.append(f"\\path ({name[n]}.south) node[gt hidden, below=2mm] {{\\dots\\,{h}}};")
    return lines


def _node_text(attrs, sc, n, style):
    """The value inside a node, as LaTeX (empty for a blank one)."""
    if not sc.value.get(n):
        return ""
    if style == "done" and "value" in attrs:
        return tex_value(attrs["value"], attrs.get("bound"))
    if "utility" in attrs:
        return tex_value(attrs["utility"])
    return tex(sc.value[n])
