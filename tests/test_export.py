"""Instructor exports: GIF replays, SVG/PDF/PNG figures, TikZ for exam papers, and the CLI.

The TikZ is checked by a small parser here (balanced braces, brackets and
environments; one ``\\node`` per tree node; dashed edges exactly on the
pruned branches) and, where a LaTeX engine is installed, by compiling it.

Set GAMETREES_FIGURES=/some/folder to keep the pictures this module saves
(the first GIF frame, the PDF as PNG; default: pytest's temporary folder).
"""

import importlib
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.image as mpimg
import matplotlib.pyplot as plt
import numpy as np
import pytest
from PIL import Image

import gametrees as gt

FIGURES = importlib.import_module("gametrees.exports.figures")  # the module of gt.export
ROOT = Path(__file__).resolve().parents[1]
TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture
def figdir(tmp_path):
    path = Path(os.environ.get("GAMETREES_FIGURES", tmp_path / "figures"))
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def tree():
    return gt.tree_from_nested(TEXTBOOK)


@pytest.fixture
def result(tree):
    return gt.alphabeta(tree)


# ----------------------------------------------------------------------------
# A small TikZ reader: enough to check what export writes, and strict about it
# ----------------------------------------------------------------------------


def strip_comments(src):
    """The source without TeX comments (``%`` to the end of the line, unless escaped)."""
    lines = []
    for line in src.splitlines():
        out, i = [], 0
        while i < len(line):
            if line[i] == "\\":
                out.append(line[i:i + 2])
                i += 2
                continue
            if line[i] == "%":
                break
            out.append(line[i])
            i += 1
        lines.append("".join(out))
    return "\n".join(lines)


def check_balanced(src):
    """Braces and brackets nest properly (escaped ones aside); \\begin/\\end pair up."""
    body = strip_comments(src)
    stack = []
    i = 0
    closing = {"}": "{", "]": "["}
    while i < len(body):
        c = body[i]
        if c == "\\":
            i += 2
            continue
        if c in "{[":
            stack.append((c, i))
        elif c in "}]":
            assert stack, f"unmatched {c!r} at {i}: ...{body[max(0, i - 40):i + 1]}"
            opener, at = stack.pop()
            assert opener == closing[c], f"{opener!r} at {at} closed by {c!r} at {i}: ...{body[at:i + 1]}"
        i += 1
    assert not stack, (
        f"unclosed {stack[-1][0]!r} at {stack[-1][1]}: ...{body[stack[-1][1]:stack[-1][1] + 60]}"
    )
    envs = []
    for kind, name in re.findall(r"\\(begin|end)\{([^}]*)\}", body):
        if kind == "begin":
            envs.append(name)
        else:
            assert envs and envs[-1] == name, f"\\end{{{name}}} closes {envs[-1:]}"
            envs.pop()
    assert not envs, f"unclosed environments {envs}"


def group(s, i, open_, close):
    """The balanced group starting at s[i] == open_: (its content, the index after it)."""
    assert s[i] == open_, (s[i:i + 30], open_)
    depth, j = 0, i
    while j < len(s):
        c = s[j]
        if c == "\\":
            j += 2
            continue
        if c == open_:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return s[i + 1:j], j + 1
        j += 1
    raise AssertionError(f"unclosed group at {i}")


def skip_space(s, i):
    while i < len(s) and s[i].isspace():
        i += 1
    return i


def options(text):
    """Top-level comma-separated options: 'a, b={x, y}, c' -> ['a', 'b={x, y}', 'c']."""
    out, depth, cur = [], 0, []
    for c in text:
        if c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
        if c == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


def parse_tikz(src):
    """Nodes, edges and other statements of the one tikzpicture in ``src``.

    Returns ``(styles, nodes, edges, paths)``: styles ``name -> definition``
    (from the picture's options); nodes ``name -> dict(opts, xy, text)`` in
    order; edges ``[(u, v, opts, inline nodes)]``; paths (the other statements).
    """
    check_balanced(src)
    body = strip_comments(src)
    assert body.count(r"\begin{tikzpicture}") == 1
    start = body.index(r"\begin{tikzpicture}") + len(r"\begin{tikzpicture}")
    end = body.index(r"\end{tikzpicture}")
    i = skip_space(body, start)
    styles = {}
    if body[i] == "[":
        opts, i = group(body, i, "[", "]")
        for opt in options(opts):
            if "/.style=" in opt:
                name, definition = opt.split("/.style=", 1)
                styles[name.strip()] = options(definition.strip()[1:-1])
    nodes, edges, paths = {}, [], []
    while True:
        i = skip_space(body, i)
        if i >= end:
            break
        if body.startswith(r"\node", i):
            i += len(r"\node")
            opts, i = group(body, i, "[", "]") if body[i] == "[" else ("", i)
            i = skip_space(body, i)
            name, i = group(body, i, "(", ")")
            i = skip_space(body, i)
            assert body.startswith("at", i), body[i:i + 40]
            i = skip_space(body, i + 2)
            xy, i = group(body, i, "(", ")")
            i = skip_space(body, i)
            text, i = group(body, i, "{", "}")
            assert body[skip_space(body, i)] == ";", body[i:i + 40]
            i = skip_space(body, i) + 1
            assert name not in nodes, f"node {name} defined twice"
            x, y = (float(v) for v in xy.split(","))
            nodes[name] = {"opts": options(opts), "xy": (x, y), "text": text}
        elif body.startswith(r"\draw", i):
            i += len(r"\draw")
            opts, i = group(body, i, "[", "]") if body[i] == "[" else ("", i)
            i = skip_space(body, i)
            u, i = group(body, i, "(", ")")
            i = skip_space(body, i)
            assert body.startswith("--", i), body[i:i + 40]
            i = skip_space(body, i + 2)
            inline = []
            while body.startswith("node", i):
                i += 4
                nopts, i = group(body, i, "[", "]")
                i = skip_space(body, i)
                ntext, i = group(body, i, "{", "}")
                inline.append((options(nopts), ntext))
                i = skip_space(body, i)
            v, i = group(body, i, "(", ")")
            assert body[skip_space(body, i)] == ";", body[i:i + 40]
            i = skip_space(body, i) + 1
            edges.append((u, v, options(opts), inline))
        elif body.startswith(r"\path", i):
            j = i
            depth = 0
            while not (body[j] == ";" and depth == 0):
                depth += body[j] in "{[" and not body[j - 1] == "\\"
                depth -= body[j] in "}]" and not body[j - 1] == "\\"
                j += 1
            paths.append(body[i:j + 1])
            i = j + 1
        else:
            raise AssertionError(f"unexpected statement: {body[i:i + 60]!r}")
    return styles, nodes, edges, paths


def expand(opts, styles):
    """Options with the picture's styles expanded (recursively)."""
    out = []
    for opt in opts:
        if opt in styles:
            out += expand(styles[opt], styles)
        else:
            out.append(opt)
    return out


def node_labels(node):
    """The label texts beside a node: {'label': 'A', 'window': '...'}."""
    out = {}
    for opt in node["opts"]:
        m = re.fullmatch(r"label=\{\[gt (label|window)[^\]]*\]\w+:\{(.*)\}\}", opt)
        if m:
            out[m[1]] = m[2]
    return out


def tikz_of(x, tmp_path, name="tree.tikz", **kw):
    path = gt.export(x, tmp_path / name, **kw)
    return path.read_text(encoding="utf-8")


def by_label(G, nodes):
    """TikZ node name -> tree node, matched through the labels (A, B, ...)."""
    label_to_node = {str(d["label"]): n for n, d in G.nodes(data=True)}
    out = {}
    for name, node in nodes.items():
        label = node_labels(node)["label"]
        out[name] = label_to_node[label]
    return out


# ----------------------------------------------------------------------------
# TikZ: structure
# ----------------------------------------------------------------------------


def check_answer(src, G):
    """The TikZ of an answer matches the annotated graph G node for node, edge for edge."""
    styles, nodes, edges, _ = parse_tikz(src)
    assert len(nodes) == G.number_of_nodes() == src.count("\\node")
    name_of = {v: k for k, v in by_label(G, nodes).items()}
    assert len(name_of) == len(nodes)
    pruned = {(u, v) for u, v in G.edges if G.nodes[v].get("status") == "pruned"}
    dashed = {(u, v) for u, v, opts, _ in edges if "dashed" in expand(opts, styles)}
    tree_of = {k: v for v, k in name_of.items()}
    assert {(tree_of[u], tree_of[v]) for u, v in dashed} == pruned
    assert sorted((tree_of[u], tree_of[v]) for u, v, _, _ in edges) == sorted(G.edges)
    best = {(u, v) for u, v, b in G.edges(data="best") if b}
    thick = {(tree_of[u], tree_of[v]) for u, v, opts, _ in edges if "very thick" in expand(opts, styles)}
    assert thick == best
    # a cut mark on the edge into the root of each pruned subtree, and nowhere else
    cut = {(tree_of[u], tree_of[v]) for u, v, _, inline in edges
           if any("gt cut" in o for o, _ in inline)}
    assert cut == {(u, v) for u, v in pruned if G.nodes[u].get("status") != "pruned"}
    # every node's shape, and its status as a style
    kinds = {"max": "gt max", "min": "gt min", "chance": "gt chance"}
    for n, attrs in G.nodes(data=True):
        opts = nodes[name_of[n]]["opts"]
        want = kinds.get(attrs.get("player"), "gt leaf") if G.out_degree(n) else "gt leaf"
        assert opts[0] == want, (n, opts)
        assert ("gt pruned" in opts) == (attrs.get("status") == "pruned"), (n, opts)
    return styles, nodes, edges, name_of


def test_tikz_answer_of_the_textbook_tree(tree, result, tmp_path):
    src = tikz_of(result, tmp_path)
    styles, nodes, edges, name_of = check_answer(src, result.graph)
    # pruned: exactly I and J, dashed and grey
    dashed = [(u, v) for u, v, opts, _ in edges if "dashed" in opts]
    assert [node_labels(nodes[v])["label"] for _, v in dashed] == ["I", "J"]
    assert all(opts == ["dashed", "gray"] for _, _, opts, _ in edges if "dashed" in opts)
    # values inside the nodes; C is only a bound
    text = {node_labels(nd)["label"]: nd["text"] for nd in nodes.values()}
    assert text["A"] == "$3$" and text["B"] == "$3$" and text["C"] == r"$\le 2$" and text["D"] == "$2$"
    assert text["I"] == "$4$"  # a pruned leaf keeps its utility (greyed)
    # alpha and beta beside the inner nodes
    window = {node_labels(nd)["label"]: node_labels(nd).get("window") for nd in nodes.values()}
    assert window["A"] == r"$\alpha=3$\\$\beta=+\infty$"
    assert window["B"] == r"$\alpha=-\infty$\\$\beta=3$"
    assert window["E"] is None
    # the notebook's layout, one unit = 12 mm, one level = 18 mm, no scaling for a small tree
    pos = gt.tidy_layout(tree)
    for name, n in ((name_of[n], n) for n in tree):
        assert nodes[name]["xy"] == pytest.approx(pos[n])
    assert r"\begin{tikzpicture}[x=12mm, y=18mm," in src and "scale=" not in src
    # the shapes
    assert "regular polygon sides=3" in " ".join(styles["gt max"])
    assert "shape border rotate=180" in styles["gt min"]
    assert "circle" in styles["gt chance"] and "rectangle" in styles["gt leaf"]


def test_tikz_question_blanks_inner_nodes(tree, result, tmp_path):
    for x in (tree, result):  # a result's question forgets the search
        src = tikz_of(x, tmp_path, flavour="question")
        styles, nodes, edges, paths = parse_tikz(src)
        assert len(nodes) == 13 == src.count("\\node")
        names = by_label(tree, nodes)
        for name, n in names.items():
            want = "" if tree.out_degree(n) else f"${tree.nodes[n]['utility']}$"
            assert nodes[name]["text"] == want
            assert "window" not in node_labels(nodes[name])
            assert "gt pruned" not in nodes[name]["opts"]
        assert all(opts == [] and not inline for _, _, opts, inline in edges)
        assert len(edges) == 12 and paths == []  # no title on a question


@pytest.mark.parametrize("seed", range(6))
def test_tikz_dashed_edges_are_exactly_the_pruned_ones_on_random_trees(seed, tmp_path):
    G = gt.random_tree((1, 3), 4, seed=seed, values=(0, 9))
    for algorithm in ("alphabeta", "alphabeta-strict", "minimax"):
        src = tikz_of(G, tmp_path, algorithm=algorithm)
        r = {"minimax": gt.minimax, "alphabeta": gt.alphabeta,
             "alphabeta-strict": lambda t: gt.alphabeta(t, strict=True)}[algorithm](G)
        check_answer(src, r.graph)
        if algorithm == "minimax":
            assert "dashed" not in strip_comments(src).split("]", 1)[1].replace("gt pruned/.style={dashed",
                                                                                "")


def test_tikz_of_a_chance_tree_has_circles_and_probabilities(tmp_path):
    G = gt.tree_from_nested([{"chance": [[3, 5], [1, 8]], "p": [0.25, 0.75]},
                             {"chance": [[4, 2], [7, -1.5]]}])
    src = tikz_of(G, tmp_path)  # the default answer for a tree with chance nodes: expectimax
    r = gt.expectimax(G)
    styles, nodes, edges, name_of = check_answer(src, r.graph)
    tree_of = {v: k for k, v in name_of.items()}
    probs = {(tree_of[u], tree_of[v]): [t for o, t in inline if "gt move" in o] for u, v, _, inline in edges}
    assert probs[(0,), (0, 0)] == ["$0.25$"] and probs[(0,), (0, 1)] == ["$0.75$"]
    assert probs[(1,), (1, 0)] == []  # uniform: no label, as in the notebook
    assert nodes[name_of[(1, 1, 1)]]["text"] == "$-1.5$"
    assert nodes[name_of[(0,)]]["opts"][0] == "gt chance"
    assert "expectimax: value 1.5" in src


def test_tikz_escapes_labels_and_moves(tmp_path):
    G = gt.tree_from_dict({
        "A_1": {"player": "max", "children": ["50%", "x&y"], "moves": ["left~", "{right}"]},
        "50%": {"player": "min", "children": ["$", "#é"]}, "x&y": -3, "$": 2, "#é": 4,
    })
    src = tikz_of(G, tmp_path, moves=True, title="Q1: 100% & {more}")
    styles, nodes, edges, paths = parse_tikz(src)
    labels = sorted(node_labels(nd)["label"] for nd in nodes.values())
    assert labels == [r"50\%", r"A\_1", r"\#é", r"\$", r"x\&y"]
    moves = sorted(t for _, _, _, inline in edges for o, t in inline)
    assert moves == [r"\{right\}", r"left\textasciitilde{}"]
    assert r"Q1: 100\% \& \{more\}" in paths[0]


def test_tikz_scales_a_wide_tree_to_the_text_width(tmp_path):
    G = gt.random_tree(3, 3, seed=4)  # 27 leaves: 26 units = 31 cm at 12 mm a unit
    src = tikz_of(G, tmp_path, name="wide.tikz")
    scale = float(re.search(r"scale=([0-9.]+), transform shape", src)[1])
    styles, nodes, edges, _ = parse_tikz(src)
    xs = [nd["xy"][0] for nd in nodes.values()]
    width_cm = ((max(xs) - min(xs)) * 1.2 + 2 * 1.2) * scale
    assert 0.4 < scale < 1 and width_cm == pytest.approx(16.0, abs=0.05)
    narrower = tikz_of(G, tmp_path, name="narrow.tikz", max_width_cm=10)
    assert float(re.search(r"scale=([0-9.]+)", narrower)[1]) == pytest.approx(scale * 10 / 16, abs=0.002)


def test_tikz_bare_picture_and_standalone_document(result, tmp_path):
    bare = tikz_of(result, tmp_path, name="a.tikz")
    doc = tikz_of(result, tmp_path, name="a.tex")
    assert bare.lstrip().startswith("%") and r"\documentclass" not in bare
    assert strip_comments(bare).strip().startswith(r"\begin{tikzpicture}")
    assert strip_comments(bare).strip().endswith(r"\end{tikzpicture}")
    assert r"\documentclass[border=6pt]{standalone}" in doc and r"\usetikzlibrary{shapes.geometric}" in doc
    assert doc.rstrip().endswith(r"\end{document}") and bare in doc
    check_balanced(doc)
    # the option overrides the suffix, and to_tikz returns the same text
    assert tikz_of(result, tmp_path, name="b.tex", standalone=False) == bare
    assert gt.to_tikz(result) == bare and gt.to_tikz(result, standalone=True) == doc


def test_tikz_instructions(tree, tmp_path):
    src = tikz_of(tree, tmp_path, flavour="question", instructions=True)
    _, _, _, paths = parse_tikz(src)
    assert len(paths) == 1 and "mark the pruned branches" in paths[0]
    assert r"$v \ge \beta$ at a MAX node" in paths[0]
    strict = tikz_of(tree, tmp_path, flavour="question", instructions=True, algorithm="alphabeta-strict")
    assert r"$v > \beta$" in strict
    mm = tikz_of(tree, tmp_path, flavour="question", instructions=True, algorithm="minimax")
    assert "minimax value of every inner node" in mm and "pruned" not in strip_comments(mm).split("]", 1)[1]
    negamax = tikz_of(gt.negamax(tree), tmp_path, flavour="question", instructions=True)
    assert "mark the pruned branches" in negamax  # negamax pruned: the alpha-beta question
    own = tikz_of(tree, tmp_path, flavour="question", instructions="Fill in 50% of it.")
    assert r"Fill in 50\% of it." in own
    # the answer's summary line can be switched off
    answer = tikz_of(tree, tmp_path, title=False)
    assert parse_tikz(answer)[3] == []


def test_tikz_hidden_subtrees_are_marked(tmp_path):
    G = gt.random_tree(3, 3, seed=1)
    src = tikz_of(G, tmp_path, flavour="question", max_depth=1)
    _, nodes, edges, paths = parse_tikz(src)
    assert len(nodes) == 4 and len(edges) == 3
    assert sorted(p for p in paths) == sorted([r"\path (n1.south) node[gt hidden, below=2mm] {\dots\,3};",
                                               r"\path (n2.south) node[gt hidden, below=2mm] {\dots\,3};",
                                               r"\path (n3.south) node[gt hidden, below=2mm] {\dots\,3};"])


def test_export_an_exercise(tmp_path):
    ex = gt.exercises.generate("pruning", seed=3)
    question = tikz_of(ex, tmp_path, name="q.tikz", flavour="question", instructions=True)
    assert question.count("\\node") == ex.tree.number_of_nodes()
    answer = tikz_of(ex, tmp_path, name="a.tikz")
    check_answer(answer, ex.result.graph)
    minimax = tikz_of(ex, tmp_path, name="m.tikz", algorithm="minimax")  # another search of its tree
    check_answer(minimax, gt.minimax(ex.tree).graph)


# ----------------------------------------------------------------------------
# TikZ: compiling it, where a LaTeX engine is installed
# ----------------------------------------------------------------------------


def _pdflatex(folder, name):
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", name], cwd=folder,
                          capture_output=True, text=True, timeout=180, check=False)
    errors = [line for line in done.stdout.splitlines() if line.startswith("!")]
    assert done.returncode == 0, f"pdflatex failed on {name}: {errors or done.stdout[-2000:]}"
    return folder / (Path(name).stem + ".pdf")


def test_tikz_compiles_with_pdflatex(result, tmp_path, figdir):
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed: the TikZ was checked by parsing only (install TeX Live "
                    "with the pgf and standalone packages to compile it)")
    gt.export(result, tmp_path / "answer.tex")
    gt.export(result.graph, tmp_path / "question.tex", flavour="question", instructions=True)
    G = gt.tree_from_nested([{"chance": [[3, -5], [1, 8]], "p": [0.25, 0.75]},
                             {"chance": [[4, 2], [7, 1.5]]}])
    gt.export(G, tmp_path / "chance.tex", title="Q2 (10% of the marks): A_1 & {B}")
    # the bare picture, pasted into an exam that loads tikz and shapes.geometric
    gt.export(result, tmp_path / "picture.tikz")
    (tmp_path / "exam.tex").write_text(
        "\\documentclass{article}\n\\usepackage{tikz}\n\\usetikzlibrary{shapes.geometric}\n"
        "\\begin{document}\nQuestion 1.\n\n\\input{picture.tikz}\n\\end{document}\n", encoding="utf-8")
    for name in ("answer.tex", "question.tex", "chance.tex", "exam.tex"):
        pdf = _pdflatex(tmp_path, name)
        assert pdf.read_bytes().startswith(b"%PDF-")
    if shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-png", "-r", "110", "-singlefile", str(tmp_path / "answer.pdf"),
                        str(figdir / "tikz_answer")], check=True, timeout=60)


# ----------------------------------------------------------------------------
# SVG, PDF, PNG
# ----------------------------------------------------------------------------


def read_pdf(path):
    """A minimal PDF reader: checks the cross-reference table, returns (pages, MediaBox, text streams)."""
    data = path.read_bytes()
    assert data.startswith(b"%PDF-1.") and data.rstrip().endswith(b"%%EOF")
    startxref = int(re.findall(rb"startxref\s+(\d+)", data)[-1])
    assert data[startxref:startxref + 4] == b"xref"
    head = re.match(rb"xref\s+(\d+) (\d+)\s+", data[startxref:])
    first, count = int(head[1]), int(head[2])
    table = data[startxref + head.end():]
    for k in range(count):
        entry = table[20 * k:20 * k + 20]
        offset, _, kind = entry.split()[:3]
        if kind == b"n":  # each object is where the table says it is
            assert re.match(rb"%d 0 obj" % (first + k), data[int(offset):]), (first + k, int(offset))
    pages = re.findall(rb"/Type\s*/Page\b", data)
    box = [float(v) for v in re.search(rb"/MediaBox\s*\[\s*([\d.\s]+)\]", data)[1].split()]
    streams = []
    for m in re.finditer(rb"(?<!end)stream\r?\n", data):
        end = data.index(b"endstream", m.end())
        try:
            streams.append(zlib.decompress(data[m.end():end]))
        except zlib.error:
            pass
    return len(pages), box, streams


@pytest.mark.slow
def test_pdf_and_svg_of_the_answer(result, tmp_path, figdir):
    pdf = gt.export(result, tmp_path / "answer.pdf")
    pages, box, streams = read_pdf(pdf)
    assert pages == 1 and box[:2] == [0, 0] and 300 < box[2] < 1200 and 200 < box[3] < 1200
    assert any(b" re" in s or b" l" in s for s in streams)  # drawing operators
    svg = gt.export(result, tmp_path / "answer.svg")
    root = ET.parse(svg).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("width").endswith("pt") and root.get("height").endswith("pt")
    assert float(root.get("width")[:-2]) == pytest.approx(box[2], abs=1)  # the same figure
    paths = root.findall(".//{http://www.w3.org/2000/svg}path")
    assert len(paths) > 30 and not root.findall(".//{http://www.w3.org/2000/svg}image")  # vector only
    # reproducible files: exporting again gives the same bytes (no dates, fixed ids)
    assert gt.export(result, tmp_path / "again.svg").read_bytes() == svg.read_bytes()
    assert gt.export(result, tmp_path / "again.pdf").read_bytes() == pdf.read_bytes()
    if shutil.which("pdftoppm"):  # a real reader: render the PDF and look at the pixels
        subprocess.run(["pdftoppm", "-png", "-r", "100", "-singlefile", str(pdf), str(figdir / "answer_pdf")],
                       check=True, timeout=60)
        image = mpimg.imread(figdir / "answer_pdf.png")
        assert image.shape[1] == pytest.approx(box[2] * 100 / 72, abs=2)
        dark = (image[..., :3].mean(axis=2) < 0.3).mean()
        assert 0.005 < dark < 0.2  # ink, but not a black page


def test_png_question_and_answer(tree, tmp_path, figdir):
    q = gt.export(tree, figdir / "question.png", flavour="question", instructions=True, dpi=100)
    a = gt.export(tree, figdir / "answer.png", dpi=100)
    qi, ai = mpimg.imread(q), mpimg.imread(a)
    assert qi.ndim == ai.ndim == 3 and qi.shape[1] == ai.shape[1] == 500
    hi = mpimg.imread(gt.export(tree, tmp_path / "answer200.png", dpi=200))
    assert hi.shape[1] == 1000
    # the question has no blue principal variation and no vermilion cut marks; the answer has both
    blue = np.array([0, 114, 178]) / 255
    vermilion = np.array([213, 94, 0]) / 255

    def has(image, colour):
        return bool((np.abs(image[..., :3] - colour).max(axis=2) < 0.06).sum() > 20)

    assert has(ai, blue) and has(ai, vermilion)
    assert not has(qi, blue) and not has(qi, vermilion)


# ----------------------------------------------------------------------------
# GIF and MP4
# ----------------------------------------------------------------------------


@pytest.mark.slow
def test_gif_has_one_frame_per_event(result, tmp_path, figdir):
    path = gt.animate(result, tmp_path / "alphabeta.gif", fps=4)
    size = path.stat().st_size
    print(f"{path.name}: {size / 1024:.0f} kB")
    assert 20_000 < size < 2_000_000
    with Image.open(path) as im:
        assert im.format == "GIF" and im.n_frames == len(result.trace) == 26
        assert 400 <= im.width <= 1600 and 300 <= im.height <= 1200
        assert im.info["loop"] == 0
        durations = []
        first = last = None
        for k in range(im.n_frames):
            im.seek(k)
            durations.append(im.info["duration"])
            if k == 0:
                first = np.asarray(im.convert("RGB"))
                im.convert("RGB").save(figdir / "first_frame.png")
            last = np.asarray(im.convert("RGB"))
    assert durations[:-1] == [250] * 25 and durations[-1] == 3000  # the finished search stays 3 s
    assert first.shape == last.shape and (first != last).any()


@pytest.mark.slow
def test_gif_width_is_capped(result, tmp_path):
    path = gt.animate(result, tmp_path / "small.gif", dpi=300, max_width=400, caption=False, legend=False)
    with Image.open(path) as im:
        assert im.width <= 400 and im.width % 2 == 0 and im.height % 2 == 0
        assert im.n_frames == len(result.trace)


def test_animate_errors_write_nothing(result, tree, tmp_path, monkeypatch):
    no_trace = gt.alphabeta(tree, trace=False)
    with pytest.raises(ValueError, match="search with trace=True"):
        gt.animate(no_trace, tmp_path / "a.gif")
    with pytest.raises(ValueError, match=r"unknown format '\.avi' .*writes \.gif, \.mp4"):
        gt.animate(result, tmp_path / "a.avi")
    with pytest.raises(FileNotFoundError, match="missing"):
        gt.animate(result, tmp_path / "missing" / "a.gif")
    with pytest.raises(ValueError, match="fps"):
        gt.animate(result, tmp_path / "a.gif", fps=0)
    with pytest.raises(ValueError, match="max_frames=10"):
        gt.animate(result, tmp_path / "a.gif", max_frames=10)
    with pytest.raises(TypeError, match="SearchResult"):
        gt.animate(tree, tmp_path / "a.gif")
    with pytest.raises(TypeError, match="title="):
        gt.animate(result, tmp_path / "a.gif", title="x")
    monkeypatch.setattr(matplotlib.animation.writers, "is_available", lambda name: False)
    with pytest.raises(RuntimeError, match="MP4 needs ffmpeg"):
        gt.animate(result, tmp_path / "a.mp4")
    assert list(tmp_path.iterdir()) == []


def test_mp4_when_ffmpeg_is_installed(result, tmp_path):
    if not matplotlib.animation.writers.is_available("ffmpeg"):
        pytest.skip("ffmpeg is not installed: MP4 export is checked to refuse clearly instead")
    path = gt.animate(result, tmp_path / "alphabeta.mp4", fps=4)
    data = path.read_bytes()
    assert data[4:8] == b"ftyp" and b"moov" in data and 10_000 < len(data) < 2_000_000


# ----------------------------------------------------------------------------
# Paths and errors
# ----------------------------------------------------------------------------


def test_export_errors_name_the_problem(tree, result, tmp_path):
    with pytest.raises(ValueError, match=r"unknown format '\.docx' .*\.svg, \.pdf, \.png, \.tex, \.tikz"):
        gt.export(tree, tmp_path / "tree.docx")
    with pytest.raises(ValueError, match="has no suffix"):
        gt.export(tree, tmp_path / "tree")
    with pytest.raises(FileNotFoundError, match=re.escape(str(tmp_path / "no" / "such"))):
        gt.export(tree, tmp_path / "no" / "such" / "tree.svg")
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(NotADirectoryError, match="file.txt"):
        gt.export(tree, tmp_path / "file.txt" / "tree.svg")
    (tmp_path / "folder.svg").mkdir()
    with pytest.raises(IsADirectoryError, match="folder.svg"):
        gt.export(tree, tmp_path / "folder.svg")
    with pytest.raises(ValueError, match="flavour must be 'question' or 'answer'"):
        gt.export(tree, tmp_path / "t.svg", flavour="solution")
    with pytest.raises(ValueError, match="unknown algorithm 'mcts'"):
        gt.export(tree, tmp_path / "t.svg", algorithm="mcts")
    with pytest.raises(ValueError, match="already searched with alphabeta"):
        gt.export(result, tmp_path / "t.svg", algorithm="minimax")
    with pytest.raises(TypeError, match="tree_from_nested"):
        gt.export(TEXTBOOK, tmp_path / "t.svg")
    with pytest.raises(ValueError, match="chance"):
        gt.export(gt.tree_from_nested([{"chance": [1, 2]}, 3]), tmp_path / "t.svg", algorithm="minimax")
    with pytest.raises(TypeError, match="standalone"):
        gt.export(tree, tmp_path / "t.svg", standalone=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt", "folder.svg"]


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root may write anywhere")
def test_export_to_a_read_only_folder(tree, tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(PermissionError, match="not writable"):
            gt.export(tree, folder / "tree.svg")
    finally:
        folder.chmod(0o700)


def test_a_failed_export_keeps_the_old_file_and_leaves_nothing(tree, tmp_path, monkeypatch):
    old = tmp_path / "tree.tikz"
    old.write_text("the old picture")

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(FIGURES, "tikz_source", broken)
    with pytest.raises(RuntimeError, match="boom"):
        gt.export(tree, old, force=True)  # not an export's file: replaced only with force
    assert old.read_text() == "the old picture" and [p.name for p in tmp_path.iterdir()] == ["tree.tikz"]


def test_relative_paths_from_any_working_folder(tree, tmp_path, monkeypatch):
    work = tmp_path / "work"
    (work / "figs").mkdir(parents=True)
    monkeypatch.chdir(work)
    assert gt.export(tree, "figs/q.svg", flavour="question") == Path("figs/q.svg")
    assert gt.export(tree, Path("a.tikz")).name == "a.tikz"
    assert sorted(str(p.relative_to(work)) for p in work.rglob("*")) == ["a.tikz", "figs", "figs/q.svg"]
    assert os.stat(work / "a.tikz").st_mode & 0o777 == 0o666 & ~_umask()


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


# ----------------------------------------------------------------------------
# The command line: python -m gametrees export
# ----------------------------------------------------------------------------

TREE_ARG = "[[3,12,8],[2,4,6],[14,5,2]]"


def run(*args, cwd):
    """``python -m gametrees ARGS`` in a subprocess, from the folder ``cwd``: (exit code, stdout, stderr)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "gametrees", *args], text=True, capture_output=True,
                          cwd=cwd, env=env, timeout=180, check=False)
    return done.returncode, done.stdout, done.stderr


def call(*args, capsys):
    """``main(ARGS)`` in this process: (exit code, stdout, stderr)."""
    from gametrees.cli import main

    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.slow
def test_cli_export_the_issue_example(tmp_path):
    code, out, err = run("export", "--tree", TREE_ARG, "--answer", "alphabeta.svg", cwd=tmp_path)
    assert (code, err) == (0, "")
    assert re.fullmatch(r"wrote alphabeta\.svg: the answer \(alphabeta\) as SVG, \d+\.\d kB\n", out)
    assert [p.name for p in tmp_path.iterdir()] == ["alphabeta.svg"]  # written where it was told, only
    assert ET.parse(tmp_path / "alphabeta.svg").getroot().tag.endswith("svg")
    # the same figure as the API's (compared as drawings: other tests may change rcParams in this process)
    cli = ET.parse(tmp_path / "alphabeta.svg").getroot()
    api = ET.parse(gt.export(gt.tree_from_nested(TEXTBOOK), tmp_path / "api.svg")).getroot()
    assert (cli.get("width"), cli.get("height")) == (api.get("width"), api.get("height"))
    ids = [[g.get("id") for g in root.iter("{http://www.w3.org/2000/svg}g")] for root in (cli, api)]
    assert ids[0] == ids[1] and "edges:pruned" in ids[0] and "cut-marks" in ids[0]


@pytest.mark.slow
def test_cli_export_question_and_answers_in_several_formats(tmp_path):
    (tmp_path / "out").mkdir()
    code, out, err = run("export", "--tree", TREE_ARG, "--question", "out/q.tikz", "--instructions",
                         "--answer", "out/a.tex", "--answer", "out/a.gif", "--fps", "4", cwd=tmp_path)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == 3
    assert re.fullmatch(r"wrote out/q\.tikz: the question as a TikZ picture, \d+\.\d kB", lines[0])
    assert re.fullmatch(r"wrote out/a\.tex: the answer \(alphabeta\) as a LaTeX document, \d+\.\d kB",
                        lines[1])
    assert re.fullmatch(r"wrote out/a\.gif: the alphabeta search, 26 frames \(one per step\), \d+\.\d kB",
                        lines[2])
    tree = gt.tree_from_nested(TEXTBOOK)
    assert (tmp_path / "out/q.tikz").read_text() == gt.to_tikz(tree, flavour="question", instructions=True)
    assert (tmp_path / "out/a.tex").read_text() == gt.to_tikz(tree, standalone=True)
    with Image.open(tmp_path / "out/a.gif") as im:
        assert im.n_frames == 26 and im.info["duration"] == 250


def test_cli_export_from_json_and_from_a_seed(tmp_path, capsys):
    spec = ('{"A": {"player": "max", "children": ["B", "C"]}, '
            '"B": {"player": "chance", "children": ["D", "E"], "probs": [0.9, 0.1]}, '
            '"C": 4, "D": 5, "E": -20}')
    (tmp_path / "tree.json").write_text(spec)
    G = gt.tree_from_dict(spec)
    code, out, err = call("export", "--json", str(tmp_path / "tree.json"), "--answer",
                          str(tmp_path / "f.tikz"),
                          capsys=capsys)
    assert (code, err) == (0, "") and "the answer (expectimax)" in out
    code, out, err = call("export", "--json", spec, "--answer", str(tmp_path / "t.tikz"), capsys=capsys)
    assert (tmp_path / "f.tikz").read_text() == (tmp_path / "t.tikz").read_text() == gt.to_tikz(G)
    code, out, err = call("export", "--json", TREE_ARG, "--question", str(tmp_path / "n.tikz"), capsys=capsys)
    assert code == 0 and (tmp_path / "n.tikz").read_text() == gt.to_tikz(gt.tree_from_nested(TEXTBOOK),
                                                                         flavour="question")
    ex = gt.exercises.generate("pruning", seed=3, difficulty="medium")
    code, out, err = call("export", "--seed", "3", "--difficulty", "medium", "--question",
                          str(tmp_path / "q.tikz"),
                          "--answer", str(tmp_path / "a.tikz"), capsys=capsys)
    assert (code, err) == (0, "")
    assert (tmp_path / "q.tikz").read_text() == gt.to_tikz(ex, flavour="question")
    assert (tmp_path / "a.tikz").read_text() == gt.to_tikz(ex)
    code, out, err = call("export", "--seed", "s1234567", "--kind", "expectimax", "--answer",
                          str(tmp_path / "e.tikz"), capsys=capsys)
    ex = gt.exercises.generate("expectimax", seed="s1234567")
    assert code == 0 and (tmp_path / "e.tikz").read_text() == gt.to_tikz(ex)


BAD_EXPORTS = [
    (("--tree", TREE_ARG, "--answer", "a.docx"), "unknown format '.docx' for 'a.docx': --answer writes .svg, "
                                                 ".pdf, .png, .tex, .tikz, .gif, .mp4"),
    (("--tree", TREE_ARG, "--answer", "nope/a.svg"),
     "cannot write 'nope/a.svg': the folder 'nope' does not exist"),
    (("--answer", "a.svg"), "one of the arguments --tree --json --seed is required"),
    (("--tree", TREE_ARG, "--seed", "3", "--answer", "a.svg"), "not allowed with argument --tree"),
    (("--tree", TREE_ARG, "--question", "q.gif"), "a question is a figure"),
    (("--tree", TREE_ARG), "nothing to write"),
    (("--tree", "[[3,12],[oops", "--answer", "a.svg"), "--tree: '[[3,12],[oops' is not a nested list"),
    (("--tree", "[[1,2],[3,true]]", "--answer", "a.svg"), "--tree: leaf (1, 1) must be a number"),
    (("--tree", TREE_ARG, "--kind", "values", "--answer", "a.svg"), "use them with --seed"),
    (("--tree", TREE_ARG, "--algorithm", "mcts", "--answer", "a.svg"),
     "argument --algorithm: invalid choice"),
    (("--tree", TREE_ARG, "--answer", "a.svg", "--fps", "3"), "--fps is for an animated answer"),
    (("--tree", TREE_ARG, "--answer", "a.gif", "--fps", "0"), "argument --fps"),
    (("--tree", TREE_ARG, "--instructions", "--answer", "a.svg"), "--instructions go above the question"),
    (("--json", "missing.json", "--answer", "a.svg"), "--json: cannot read the file 'missing.json'"),
    (("--json", "{bad", "--answer", "a.svg"), "--json: not valid JSON"),
    (("--tree", '[{"chance": [1, 2]}, 3]', "--algorithm", "minimax", "--answer", "a.svg"), "chance node"),
    (("--tree", TREE_ARG, "--answer", "a.svg", "--answer", "b.avi"), "unknown format '.avi'"),
]


@pytest.mark.parametrize("args, message", BAD_EXPORTS)
def test_cli_export_bad_arguments_one_line_exit_2_nothing_written(args, message, tmp_path, capsys,
                                                                  monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = call("export", *args, capsys=capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("python -m gametrees export: error: ")
    assert message in err
    assert list(tmp_path.iterdir()) == []


def test_cli_export_mp4_without_ffmpeg(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(matplotlib.animation.writers, "is_available", lambda name: False)
    code, out, err = call("export", "--tree", TREE_ARG, "--answer", "a.mp4", capsys=capsys)
    assert code == 2 and "an .mp4 needs ffmpeg" in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_cli_export_errors_in_a_real_process(tmp_path):
    code, out, err = run("export", "--tree", TREE_ARG, "--answer", "tree.docx", cwd=tmp_path)
    assert (code, out) == (2, "") and err.count("\n") == 1 and "Traceback" not in err
    assert "unknown format '.docx'" in err
    code, out, err = run("export", "--help", cwd=tmp_path)
    assert code == 0 and "--question PATH" in out and "--answer alphabeta.svg" in out
    code, out, err = run("--help", cwd=tmp_path)
    assert code == 0 and "export" in out
    assert list(tmp_path.iterdir()) == []
