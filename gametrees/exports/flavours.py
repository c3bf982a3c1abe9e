"""Question or answer: which tree an export draws, which search answers it, and the words above it.

``"question"``
    The tree with the utilities on the leaves and every inner node blank
    (optionally with instructions: "... mark the pruned branches").
``"answer"``
    The searched tree: backed-up values (bounds as ``≤ 2`` / ``≥ 5``), alpha
    and beta beside the nodes, pruned branches dashed and cut, the principal
    variation bold.

:func:`resolve` turns what was given (a tree, a search result, an exercise)
into the graph to draw, running the search named by ``algorithm=`` for the
answer to a bare tree; :func:`caption` makes the text above the figure, in
plain text and in LaTeX (:func:`tex`, :func:`tex_number`, :func:`tex_value`).

This module may import networkx, :mod:`gametrees.games` and
:mod:`gametrees.search`; :mod:`gametrees.drawing` (for a result's summary)
only when a caption is made, so that the command line can read
:data:`ALGORITHMS` without loading matplotlib.
"""

from __future__ import annotations

import math
import numbers

import networkx as nx

from ..games import CHANCE
from ..rules import LOWER, UPPER
from ..search import SearchResult, alphabeta, expectimax, minimax
from ..wording import fmt, visible

__all__ = ["ALGORITHMS", "FLAVOURS", "caption", "check_width", "matplotlib_text", "resolve", "tex",
           "tex_number", "tex_value"]

#: The searches :func:`export` can run for an answer, by name.
ALGORITHMS = ("minimax", "alphabeta", "alphabeta-strict", "expectimax")
FLAVOURS = ("question", "answer")

# Annotations a search writes (the schema in gametrees/trees/schema.py): stripped for a question.
_NODE_ANNOTATIONS = ("value", "alpha", "beta", "order", "status", "bound")
_GRAPH_ANNOTATIONS = ("algorithm", "nodes_visited", "leaves_evaluated")


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


def _strict(algorithm):
    """The tie rule of an alpha-beta algorithm name: ``"alphabeta-strict"`` is alpha-beta with
    ``strict=True`` (the one place the name is read)."""
    return algorithm == "alphabeta-strict"


def _search(G, algorithm):
    """Run the named search on the tree ``G`` with a trace (for an answer)."""
    if algorithm == "minimax":
        return minimax(G, trace=True)
    if algorithm.startswith("alphabeta"):
        return alphabeta(G, strict=_strict(algorithm), trace=True)
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


def resolve(x, flavour, algorithm):
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
            raise ValueError(f"this {x.algorithm} result has no graph: "
                             "search with trace=True (or graph=True)")
        result, G = x, x.graph
    elif isinstance(x, nx.DiGraph):
        G = x
    elif hasattr(x, "tree") and hasattr(x, "result") and isinstance(x.tree, nx.DiGraph):
        G = x.tree  # an exercise: its own search answers it, unless another algorithm is asked for
        if algorithm is None or algorithm == x.result.algorithm:
            result = x.result
    else:
        raise TypeError(
            "export expects a game tree (networkx.DiGraph), a SearchResult or an exercise, "
            f"got {type(x).__name__}; build a tree with gt.tree_from_nested or gt.tree_from_dict"
        )
    if result is not None:
        done = result.algorithm
    else:
        done = G.graph.get("algorithm") if _is_annotated(G) else None
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


def check_width(x, **options):
    """Refuse a tree too wide to draw (:class:`~gametrees.drawing.TreeTooWide`) before searching it.

    ``x`` is what :func:`resolve` takes; ``options`` are the drawing's
    ``max_depth``, ``max_children`` and ``max_nodes``. Fast: no search, no layout.
    """
    from ..drawing import check_size  # (loads matplotlib: only when an export is made)

    if isinstance(x, SearchResult):
        G = x.graph
    elif isinstance(x, nx.DiGraph):
        G = x
    else:
        G = getattr(x, "tree", None)
    if isinstance(G, nx.DiGraph):
        check_size(G, **options)


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
        at_max, at_min = ("gt_beta", "lt_alpha") if _strict(algorithm) else ("ge_beta", "le_alpha")
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


def caption(G, result, algorithm, flavour, title, instructions):
    """The text above the figure: ``(plain, latex)``, or None.

    A title (given, or the search's summary on an answer) and, on request,
    the instructions. Given strings are plain text: LaTeX gets them escaped.
    """
    from ..drawing import summary  # (loads matplotlib: only when a caption is made)

    if title is not None and title is not False and not isinstance(title, str):
        raise TypeError(f"title must be a str, False or None (automatic), got {title!r}")
    if instructions is not None and not isinstance(instructions, (bool, str)):
        raise TypeError(f"instructions must be True, False or a str, got {instructions!r}")
    plain, latex = [], []
    head = title if isinstance(title, str) else None
    if title is None and flavour == "answer":
        head = summary(result if result is not None else G)
    if head and head.strip():
        plain.append(head.strip())
        latex.append(tex(head.strip()))
    if isinstance(instructions, str):
        if instructions.strip():
            plain.append(instructions.strip())
            latex.append(tex(instructions.strip()))
    elif instructions:
        plain.append(_instructions(G, algorithm))
        latex.append(_instructions(G, algorithm, tex=True))
    if not plain:
        return None
    return " ".join(plain), " ".join(latex)


# ----------------------------------------------------------------------------
# Words as LaTeX, and as a matplotlib title
# ----------------------------------------------------------------------------


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


def tex(text) -> str:
    """Plain text as LaTeX: specials escaped, the package's symbols typeset, newlines as spaces.

    Other control characters are written as their escapes (:func:`gametrees.wording.visible`),
    so that no raw NUL or form feed reaches a ``.tex`` file.

    >>> tex("50% of A_1 & {B} ≤ 3")
    '50\\\\% of A\\\\_1 \\\\& \\\\{B\\\\} $\\\\le$ 3'
    >>> print(tex("B\\x00b"))
    B\\textbackslash{}x00b
    """
    out = []
    for ch in str(text):
        if ch in _TEX_SPECIALS:
            out.append(_TEX_SPECIALS[ch])
        elif ch in _TEX_SYMBOLS:
            out.append(_TEX_SYMBOLS[ch])
        elif ch in "\r\n\t":
            out.append(" ")
        elif visible(ch) != ch:  # a control character: its escape, \x00
            out.append(_TEX_SPECIALS["\\"] + visible(ch)[1:])
        else:
            out.append(ch)
    return "".join(out)


def tex_number(x) -> str:
    """A number in math mode: 3, -2, 4.33, +\\infty (without the dollars)."""
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        return tex(x)
    if math.isinf(x):
        return r"+\infty" if x > 0 else r"-\infty"
    s = fmt(x)
    if "e" in s:
        mantissa, exp = s.split("e")
        s = rf"{mantissa}\cdot 10^{{{int(exp)}}}"
    return s


def tex_value(x, bound=None) -> str:
    s = tex_number(x)
    if bound == UPPER:
        s = r"\le " + s
    elif bound == LOWER:
        s = r"\ge " + s
    return f"${s}$"


def matplotlib_text(text):
    """Text for a matplotlib title: a ``$`` is a dollar sign, not mathtext; control characters escaped."""
    return None if text is None else visible(text).replace("$", r"\$")
