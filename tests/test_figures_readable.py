"""What a learner sees on a figure: it fits the notebook column, every text is readable,
and every colour has a non-colour cue and survives the common colour-vision deficiencies.

The sizes are measured on the figures the lessons show (a replay frame as the widget renders
it, the static ``gt.draw``, a board tree, the practice widget), in pixels at the widgets'
100 dpi. The colours are read from the drawn artists, simulated for protanopia, deuteranopia
and tritanopia with ColorAide (Brettel's model, full severity), and compared by CIEDE2000.
"""

import io

import matplotlib
import matplotlib.pyplot as plt
import pytest
from coloraide import Color  # requirements-test.txt: a well-kept colour library with CVD simulation
from matplotlib.colors import to_hex
from matplotlib.text import Text
from matplotlib.textpath import TextPath
from PIL import Image

import gametrees as gt
from gametrees.drawing import MAX_FIGURE_PX, MIN_TEXT_PT, TextCollection
from gametrees.evaluation import tictactoe_open_lines
from gametrees.games import ConnectFour, Nim, TicTacToe

matplotlib.use("Agg")

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
SMALLEST_PX = 9.0  # "readable at 100% zoom"


# Lesson 04's evaluation (open lines for X minus open lines for O) as the library has it, divided by 10:
# the same order of positions, so the same searched tree as in the lesson.
open_lines = tictactoe_open_lines


def lesson_replays():
    """The replays the issue names: 03's second replay, 04's board tree, 05's Nim, and the A2 practice
    tree."""
    ttt = TicTacToe()
    out = {
        "03 random tree": gt.replay(gt.alphabeta(gt.random_tree(3, 3, seed=11, values=(0, 20)))),
        "04 board tree": gt.replay(gt.alphabeta(ttt, ttt.from_string("X.O/.X./O.."), depth=2,
                                                evaluate=open_lines, trace=True), boards=ttt),
        "05 Nim": gt.replay(gt.alphabeta(Nim(6), table=True, trace=True)),
    }
    pruning = gt.exercises.generate("pruning", seed="student/A2", difficulty="medium")
    out["A2 practice"] = gt.practice("alphabeta", tree=pruning.tree, solutions=False)
    return out


def png_size(png):
    return Image.open(io.BytesIO(png)).size


# ---------------------------------------------------------------------------------------
# Fits the notebook column (and a replay's tree fits under its controls)
# ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def replays():
    widgets = lesson_replays()
    yield widgets
    plt.close("all")


@pytest.mark.slow
def test_the_lessons_figures_fit_the_notebook_column(replays):
    max_w, max_h = MAX_FIGURE_PX
    for name, w in replays.items():
        steps = [0, len(w.trace) // 2, len(w.trace) - 1] if hasattr(w, "trace") else [None]
        for k in steps:
            if k is not None:
                w.show(k)
            width, height = png_size(w.image.value)
            assert width <= max_w and height <= max_h, (name, k, width, height)
        if hasattr(w, "static_png"):  # what a page without widgets shows, with its title
            width, height = png_size(w.static_png())
            assert width <= max_w, (name, "static", width, height)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_trees_up_to_three_levels_of_three_children_fit(seed):
    T = gt.random_tree(3, 3, seed=seed)
    w = gt.replay(gt.alphabeta(T))
    assert png_size(w.image.value)[0] <= MAX_FIGURE_PX[0]
    assert png_size(w.image.value)[1] <= MAX_FIGURE_PX[1]
    ax = gt.draw(gt.alphabeta(T))
    fig = ax.figure
    assert fig.get_figwidth() * fig.dpi <= MAX_FIGURE_PX[0] + 0.5
    plt.close(fig)


def test_a_wider_tree_moves_its_nodes_closer_before_it_spills():
    small, wide = gt.tree_from_nested([[1, 2], [3, 4]]), gt.random_tree(3, 3, seed=1)
    d_small, d_wide = gt.drawing.Drawing(small), gt.drawing.Drawing(wide)
    g_small, g_wide = d_small.geometry(None)[0], d_wide.geometry(None)[0]
    assert g_wide.ux < g_small.ux and g_wide.width * 100 <= MAX_FIGURE_PX[0] + 0.5
    # without a limit the same tree is drawn wider: the limit is what keeps it in the column
    assert d_wide.geometry(None, max_px=None)[0].width > g_wide.width
    # a replay at another dpi keeps the same pixel budget
    sharp = gt.replay(gt.alphabeta(gt.random_tree(2, 3, seed=1)), dpi=150)
    assert png_size(sharp.image.value)[0] <= MAX_FIGURE_PX[0]


# ---------------------------------------------------------------------------------------
# Text size
# ---------------------------------------------------------------------------------------


def text_sizes_px(fig):
    """(pixels, text, where) for every text drawn on the figure, at the figure's dpi.

    The texts drawn as glyph outlines (:class:`TextCollection`) are measured on their
    outlines: each outline is compared with the same string set at the size it claims,
    so a shrunk-to-fit text is measured as drawn.
    """
    fig.canvas.draw()
    px_per_pt = fig.dpi / 72
    out = []
    for ax in fig.axes:
        for coll in ax.collections:
            if not isinstance(coll, TextCollection) or not coll.get_visible():
                continue
            for path, text, size in zip(coll.get_paths(), coll.texts, coll.fontsizes):
                drawn = path.get_extents()
                model = TextPath((0, 0), text.replace("$", r"\$"), size=size).get_extents()
                assert drawn.height == pytest.approx(model.height, rel=0.02, abs=0.05), (text, size)
                out.append((size * px_per_pt, text, coll.get_gid()))
        for artist in ax.findobj(Text):
            if artist.get_visible() and artist.get_text().strip():
                out.append((artist.get_fontsize() * px_per_pt, artist.get_text(), "text"))
    return out


def smallest(fig):
    return min(text_sizes_px(fig))


def figures_of_the_lessons_kinds():
    """A tree, a searched tree, a board tree, replay frames (shapes and boards), the practice figure."""
    ttt = TicTacToe()
    figs = {}
    figs["tree"] = gt.draw(gt.tree_from_nested(TEXTBOOK)).figure
    figs["alpha-beta result"] = gt.draw(gt.alphabeta(gt.tree_from_nested(TEXTBOOK))).figure
    figs["3x3 result"] = gt.draw(gt.alphabeta(gt.random_tree(3, 3, seed=11, values=(0, 20)))).figure
    board = gt.alphabeta(ttt, ttt.from_string("X.O/.X./O.."), depth=2, evaluate=open_lines, trace=True)
    figs["board tree"] = gt.draw(board, boards=ttt).figure
    figs["board frame"] = gt.draw(board, k=len(board.trace) // 2, boards=ttt).figure
    c4 = ConnectFour(rows=4, cols=4, k=3)
    figs["connect four boards"] = gt.draw(gt.alphabeta(c4, depth=2, evaluate=lambda s: 0, trace=True),
                                          boards=c4).figure
    for name, w in lesson_replays().items():
        if hasattr(w, "trace"):
            for k in (0, len(w.trace) // 3, len(w.trace) - 1):
                w.show(k)
                yield f"replay {name}, step {k + 1}", w.figure
        else:
            figs[name] = w.figure
    yield from figs.items()


@pytest.mark.slow
def test_every_text_on_the_lessons_figures_is_readable():
    sizes = {}
    for name, fig in figures_of_the_lessons_kinds():
        px, text, where = smallest(fig)
        sizes[name] = px
        assert px >= SMALLEST_PX, f"{name}: {text!r} ({where}) is {px:.1f} px high"
    plt.close("all")
    assert min(sizes.values()) >= MIN_TEXT_PT * 100 / 72 - 1e-6  # the floor is what the smallest text gets


def test_alpha_and_beta_beside_boards_are_readable():
    ttt = TicTacToe()
    r = gt.alphabeta(ttt, ttt.from_string("X.O/.X./O.."), depth=2, evaluate=open_lines, trace=True)
    w = gt.replay(r, boards=ttt, start=5)
    windows = next(c for c in w._ax.collections if c.get_gid() == "windows")
    assert windows.texts and all(t.startswith(("α=", "β=")) for t in windows.texts)
    assert min(windows.fontsizes) * w.figure.dpi / 72 >= SMALLEST_PX


# ---------------------------------------------------------------------------------------
# Colour: a non-colour cue for every meaning, and colours apart under colour-vision deficiencies
# ---------------------------------------------------------------------------------------

DEFICIENCIES = ("protan", "deutan", "tritan")
APART = 15.0  # CIEDE2000 between two colours that must be told apart, under each simulation


def seen_by(hex_color, deficiency):
    c = Color(hex_color)
    if deficiency is None:
        return c
    return c.filter(deficiency, space="srgb-linear", out_space="srgb").clip()


def distance(a, b, deficiency):
    return seen_by(a, deficiency).delta_e(seen_by(b, deficiency), method="2000")


def by_gid(ax, gid):
    return [c for c in ax.collections if c.get_gid() == gid]


def hexes(colors):
    return {to_hex(c) for c in colors}


@pytest.fixture(scope="module")
def drawn():
    """The colours as drawn: a replay frame (shapes) and a board frame, read from their artists."""
    T = gt.tree_from_nested(TEXTBOOK)
    r = gt.alphabeta(T)
    k = next(i for i, e in enumerate(r.trace) if e.node == (2, 1))  # at L: a cut, the best line, a path
    ax = gt.draw(r, k=k)
    done = {c.kind: hexes(c.get_facecolor()) for c in by_gid(ax, "nodes:done")}
    active = {c.kind: hexes(c.get_facecolor()) for c in by_gid(ax, "nodes:active")}
    tints = {kind: (done.get(kind, set()) | active.get(kind, set())) for kind in ("max", "min")}
    halo = by_gid(ax, "current")[0]
    colours = {
        "MAX fill": tints["max"].pop(), "MIN fill": tints["min"].pop(),
        "best line": to_hex(by_gid(ax, "edges:best")[0].get_color()[0]),
        "plain edge": to_hex(by_gid(ax, "edges:plain")[0].get_color()[0]),
        "path edge": to_hex(by_gid(ax, "edges:path")[0].get_color()[0]),
        "pruned edge": to_hex(by_gid(ax, "edges:pruned")[0].get_color()[0]),
        "cut mark": to_hex(by_gid(ax, "cut-marks")[0].get_color()[0]),
        "current halo": to_hex(halo.get_facecolor()[0]), "current ring": to_hex(halo.get_edgecolor()[0]),
        "pruned fill": to_hex(by_gid(ax, "nodes:pruned")[0].get_facecolor()[0]),
        "background": "#ffffff",
    }
    plt.close(ax.figure)
    ttt = TicTacToe()
    rb = gt.alphabeta(ttt, ttt.from_string("X.O/.X./O.."), depth=2, evaluate=open_lines, trace=True)
    axb = gt.draw(rb, boards=ttt)
    frames = {c.kind: hexes(c.get_edgecolor()) for c in by_gid(axb, "nodes:done")}
    colours["MAX frame"], colours["MIN frame"] = frames["max"].pop(), frames["min"].pop()
    colours["X piece"] = to_hex(by_gid(axb, "board-x")[0].get_color()[0])
    colours["O piece"] = to_hex(by_gid(axb, "board-o")[0].get_edgecolor()[0])
    plt.close(axb.figure)
    return colours, ax, axb


# Pairs a learner must tell apart by colour (each also has a non-colour cue, tested below).
PAIRS = [
    ("MAX fill", "MIN fill"), ("MAX frame", "MIN frame"), ("X piece", "O piece"),
    ("best line", "plain edge"), ("best line", "path edge"),
    ("current halo", "MAX fill"), ("current halo", "MIN fill"), ("current halo", "background"),
    ("current ring", "MAX fill"), ("current ring", "MIN fill"), ("current ring", "background"),
    ("cut mark", "pruned edge"), ("cut mark", "background"),
]


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
@pytest.mark.parametrize("a, b", PAIRS)
def test_colour_pairs_stay_apart_under_colour_vision_deficiencies(drawn, a, b, deficiency):
    colours = drawn[0]
    d = distance(colours[a], colours[b], deficiency)
    assert d >= APART, (
        f"{a} {colours[a]} and {b} {colours[b]}: ΔE2000 {d:.1f} for {deficiency or 'normal vision'}"
    )


def test_pruned_differs_from_unreached_in_lightness_whatever_the_colour_vision(drawn):
    colours = drawn[0]
    for deficiency in (None, *DEFICIENCIES):
        assert distance(colours["pruned fill"], colours["background"], deficiency) >= 7.0


def test_every_colour_meaning_has_a_non_colour_cue():
    T = gt.tree_from_nested(TEXTBOOK)
    r = gt.alphabeta(T)
    k = next(i for i, e in enumerate(r.trace) if e.node == (2, 1))
    ax = gt.draw(r, k=k)
    # MAX and MIN: the shape (up and down triangles)
    markers = {c.kind: c.get_paths()[0] for c in ax.collections if (c.get_gid() or "").startswith("nodes:")}
    assert markers["max"].vertices[:, 1].max() != markers["min"].vertices[:, 1].max() or \
        not (markers["max"].vertices == markers["min"].vertices).all()
    # best line: a double line (a white core inside the wide blue line), wider than any other edge
    best, core = by_gid(ax, "edges:best")[0], by_gid(ax, "best-line-core")[0]
    assert core.edges == best.edges and to_hex(core.get_color()[0]) == "#ffffff"
    assert core.get_linewidth()[0] < best.get_linewidth()[0]
    others = [c.get_linewidth()[0] for c in ax.collections if (c.get_gid() or "") in ("edges:plain",
                                                                                      "edges:path")]
    assert best.get_linewidth()[0] > max(others)
    # pruned: dashed outline and dashed edges, and the cut marks across the edge
    pruned_nodes, pruned_edges = by_gid(ax, "nodes:pruned")[0], by_gid(ax, "edges:pruned")[0]
    assert pruned_nodes.get_linestyle()[0][1] is not None and pruned_edges.get_linestyle()[0][1] is not None
    assert by_gid(ax, "cut-marks")[0].edges
    # current node: a ring larger than its node
    halo = by_gid(ax, "current")[0]
    node = next(c for c in ax.collections
                if (c.get_gid() or "").startswith("nodes:") and halo.nodes[0] in c.nodes)
    assert halo.get_sizes()[0] > 1.5 * node.get_sizes()[0]
    # the legend shows the same cues: the best line as a double line, MAX and MIN by their shapes
    legend = ax.get_legend()
    labels = [t.get_text() for t in legend.get_texts()]
    assert {"MAX", "MIN", "best line", "pruned", "current node"} <= set(labels)
    plt.close(ax.figure)
    # boards: MAX and MIN to move by ▲ / ▼ under each board and in the legend, not only the frame colour
    ttt = TicTacToe()
    rb = gt.alphabeta(ttt, ttt.from_string("X.O/.X./O.."), depth=2, evaluate=open_lines, trace=True)
    axb = gt.draw(rb, boards=ttt)
    values = by_gid(axb, "values")[0]
    glyphs = {t.split()[0] for t in values.texts}
    assert {"▲", "▼"} <= glyphs
    handles = axb.get_legend().legend_handles
    shapes = {h.get_marker() for h in handles if hasattr(h, "get_marker") and h.get_marker() not in (None,
                                                                                                     "None")}
    assert {"^", "v"} <= shapes
    plt.close(axb.figure)


def test_boards_are_labelled_with_the_moves_the_sentences_name():
    ttt = TicTacToe()
    r = gt.alphabeta(ttt, ttt.from_string("X.O/.X./O.."), depth=2, evaluate=open_lines, trace=True)
    ax = gt.draw(r, boards=ttt)
    moves = by_gid(ax, "moves")[0]
    said = dict(zip(moves.nodes, moves.texts))
    G = r.graph
    for n, text in said.items():
        # the node's name in the sentences ends with the move written above its board
        assert G.nodes[n]["label"].endswith(text), (n, text, G.nodes[n]["label"])
    assert said[(1,)] == "X b1" and said[(1, 3)] == "O a2"
    assert "Go down to the position after X b1, O a2" in " ".join(e.text for e in r.trace)
    plt.close(ax.figure)
