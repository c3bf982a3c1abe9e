"""No value, probability, label, α/β or visit count is ever covered, and no number spills out of its node.

What a learner must read on a figure is measured as it is drawn (``gametrees.drawing.clearance``: the ink
box of every text, the outline of every mark and of the current node's ring, every edge as a segment of
its width, in pixels): over the figures the lessons draw, every frame of the lessons' replays, the
practice widget's trees in every mode (192: 8 seeds for each setting, its answer boxes and ✂ on top), and
random trees from hypothesis.
"""

from __future__ import annotations

import itertools

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from seeded_trees import DIFFICULTIES, KINDS, STUDENTS

import gametrees as gt
from gametrees.agents import MCTSAgent, MinimaxAgent
from gametrees.drawing import Drawing, marks, overlaps, segment_meets_box
from gametrees.games import CHANCE, MAX, MIN, Nim, TicTacToe
from gametrees.widgets import Replay
from gametrees.widgets.practice_widget import MODES

# Sweeps over hundreds of figures (about 45 s): the quick run (`pytest -m "not slow"`) leaves them to CI.
pytestmark = pytest.mark.slow

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def drawn(ax, G=None):
    ax.figure.canvas.draw()
    return overlaps(ax, G)


# ----------------------------------------------------------------------------
# The measure can fail
# ----------------------------------------------------------------------------


def test_the_measure_sees_a_label_moved_onto_a_node_an_edge_and_a_spilling_value():
    G = gt.tree_from_nested(TEXTBOOK)
    ax = gt.draw(gt.alphabeta(G))
    assert drawn(ax, G) == []
    labels = next(c for c in ax.collections if c.get_gid() == "labels")
    offsets = labels.get_offsets().copy()
    i = labels.texts.index("B")
    offsets[i] = gt.tidy_layout(G)[(1,)]  # B's label onto C's mark
    labels.set_offsets(offsets)
    problems = drawn(ax, G)
    assert any(p.startswith("labels 'B'") for p in problems), problems
    # A value too wide for its node spills out of it.
    ax = gt.draw(gt.tree_from_nested([[10, 20], [30, 40]]))
    assert drawn(ax) == []
    values = next(c for c in ax.collections if c.get_gid() == "values")
    wider = matplotlib.transforms.Affine2D().scale(4, 1)
    values.set_paths([p.transformed(wider) for p in values.get_paths()])
    assert any("spills out of its node's mark" in p for p in drawn(ax))


def test_the_measure_sees_an_edge_through_a_node():
    G = gt.tree_from_nested([[1, 2], [3, 4]])
    ax = gt.draw(G)
    edges = next(c for c in ax.collections if c.get_gid() == "edges:plain")
    segs = [np.array(s) for s in edges.get_segments()]
    pos = gt.tidy_layout(G)
    segs[0] = np.array([pos[(0, 0)], pos[(1, 1)]])  # straight through the leaves between
    edges.set_segments(segs)
    assert any("runs through the mark of" in p for p in drawn(ax, G))


# ----------------------------------------------------------------------------
# The lessons' figures and replays
# ----------------------------------------------------------------------------


def why_figure(agent, first_click=4):
    board = gt.play(TicTacToe(), agent=agent)
    board.click(first_click)
    return board.why()


def lesson_figures():
    """(name, Axes, tree) for the figures the lessons draw."""
    ttt = TicTacToe()
    out = []
    textbook = gt.tree_from_nested(TEXTBOOK)
    for name, result in (("02 minimax", gt.minimax(textbook)), ("03 alpha-beta", gt.alphabeta(textbook))):
        out.append((name, gt.draw(result, title=f"{name} on the textbook tree"), result.graph))
    for name, tree in (("02 exercise", gt.exercises.ValuesExercise(seed=2).tree),
                       ("03 exercise", gt.exercises.PruningExercise(seed=7).tree),
                       ("03 cut-off", gt.tree_from_nested([[4, 9, 6], [7, 3, 1], [2, 8]])),
                       ("03 window", gt.exercises.generate("window", seed=17, difficulty="medium").tree),
                       ("06 exercise", gt.exercises.ExpectimaxExercise(seed=3, difficulty="medium").tree),
                       ("06 bounded", gt.tree_from_nested([{"chance": [6, 8], "p": [0.5, 0.5]},
                                                           {"chance": [2, 9, 5], "p": [0.5, 0.25, 0.25]},
                                                           {"chance": [4, 2, 9], "p": [0.25, 0.25, 0.5]}])),
                       ("06 quiz", gt.tree_from_nested([{"chance": [1, 9]}, {"chance": [4, 5]}]))):
        out.append((name, gt.draw(tree, values=False), tree))
    grown = gt.mcts(textbook, playouts=3000, seed=0)
    out.append(("07 grown", gt.draw(grown), grown.graph))
    agent = MCTSAgent(playouts=2000, seed=1)
    agent(ttt, ttt.from_string("X../.O./..X"))
    out.append(("07 boards", gt.draw(agent.last_result, boards=ttt, max_depth=1), agent.last_result.graph))
    out.append(("07 exercise", gt.exercises.generate("mcts", seed=3).draw(), None))
    out.append(("02 why", why_figure(MinimaxAgent(seed=3)).axes[0], None))
    return out


def test_the_lessons_figures_cover_no_text():
    problems = {name: drawn(ax, G) for name, ax, G in lesson_figures()}
    assert {name: p for name, p in problems.items() if p} == {}


LESSON_REPLAYS = {
    "02/03 textbook minimax": lambda: gt.minimax(gt.tree_from_nested(TEXTBOOK), trace=True),
    "03 textbook": lambda: gt.alphabeta(gt.tree_from_nested(TEXTBOOK), trace=True),
    "03 random": lambda: gt.alphabeta(gt.random_tree(3, 3, seed=11, values=(0, 20)), trace=True),
    "06 expectimax": lambda: gt.expectimax(gt.random_tree(2, 4, seed=5, values=(-9, 9),
                                                          players=(MAX, CHANCE, MIN, CHANCE)), trace=True),
    "07 mcts": lambda: gt.mcts(gt.tree_from_nested(TEXTBOOK), playouts=12, seed=0),
}


@pytest.mark.parametrize("name", LESSON_REPLAYS)
def test_every_frame_of_the_lessons_replays_covers_no_text(name):
    result = LESSON_REPLAYS[name]()
    replay = Replay(result)
    ax = replay.figure.axes[0]
    bad = {}
    for k in range(len(result.trace)):
        replay.show(k)
        problems = overlaps(ax, result.graph)
        if problems:
            bad[k] = problems
    assert bad == {}


def test_the_issue_frames_keep_labels_clear_of_the_ring_and_values_inside():
    """06: the ring round the current node hid label I and "−10.56" spilled; 07: "UCB 7.52" covered D."""
    result = LESSON_REPLAYS["06 expectimax"]()
    replay = Replay(result)
    ax = replay.figure.axes[0]
    wide = [k for k, fr in enumerate(gt.frames(result.trace))
            if any(len(gt.drawing.format_number(v)) >= 5 for v in fr.values.values() if v is not None)]
    assert wide  # frames with values like −10.56 exist
    for k in wide[:6]:
        replay.show(k)
        assert overlaps(ax, result.graph) == []


# ----------------------------------------------------------------------------
# The practice widget: every mode, 8 seeds for each of 24 settings
# ----------------------------------------------------------------------------


def control_rects(w):
    """(name, (left, top, right, bottom)) in the PNG's pixels of every visible box and ✂ on the figure."""
    out = []
    for kind, controls in (("box", w.boxes), ("cut", w.cuts)):
        for label, c in controls.items():
            if c.layout.visibility == "hidden":
                continue
            top, _, _, left = (float(x.rstrip("px")) for x in c.layout.margin.split())
            width, height = float(c.layout.width.rstrip("px")), float(c.layout.height.rstrip("px"))
            out.append((f"{kind} {label}", (left, top, left + width, top + height)))
    return out


def practice_problems(w):
    """What covers what on the practice figure, the boxes and ✂ included."""
    ax = w.figure.axes[0]
    G = w.exercise.tree
    problems = overlaps(ax, G)
    m = marks(ax)
    height = w.figure.canvas.get_width_height(physical=True)[1]

    def rect(box):
        return (box.x0, height - box.y1, box.x1, height - box.y0)

    def meet(a, b):
        return a[0] + 0.5 < b[2] and b[0] + 0.5 < a[2] and a[1] + 0.5 < b[3] and b[1] + 0.5 < a[3]

    texts = [(f"{layer} {text!r}", rect(box)) for layer, _, text, box in m.texts]
    nodes = [(f"the mark of {G.nodes[n].get('label', n)}", rect(box)) for n, box in m.node_boxes.items()]
    controls = control_rects(w)
    for name, r in controls:
        for what, other in texts + nodes + [("the legend", rect(b)) for _, b in m.boxes]:
            if meet(r, other):
                problems.append(f"{name} covers {what}")
    for (a, ra), (b, rb) in itertools.combinations(controls, 2):
        if meet(ra, rb):
            problems.append(f"{a} covers {b}")
    return problems


SETTINGS = [(mode, difficulty, root) for mode in MODES for difficulty in ("easy", "medium", "hard")
            for root in (MAX, MIN)]


def test_the_issues_practice_tree_shows_every_probability():
    """expectimax, hard, MAX root, seed 259885: box G covered the 0.6 on C–G, the 0.2 on D–K was hidden and
    the edge D–K ran through J."""
    w = gt.practice("expectimax", seed=259885, difficulty="hard", root_player=MAX)
    assert practice_problems(w) == []
    G = w.exercise.tree
    written = [t for layer, _, t, _ in marks(w.figure.axes[0]).texts if layer == "moves"]
    edges = [(u, v) for u, v in G.edges if G.nodes[u].get("player") == CHANCE]
    assert len(written) == len(edges)  # every probability is on the figure, uncovered (above)


@pytest.mark.parametrize("mode, difficulty, root", SETTINGS)
def test_practice_trees_cover_nothing_a_learner_reads(mode, difficulty, root):
    """24 settings x 8 seeds: 192 trees, each with its boxes and ✂ placed."""
    bad = {}
    for seed in range(8):
        w = gt.practice(mode, seed=1000 * seed + 17, difficulty=difficulty, root_player=root)
        problems = practice_problems(w)
        if problems:
            bad[w.seed] = problems
    assert bad == {}


def test_a_box_is_kept_off_the_edges_where_there_is_room():
    w = gt.practice("minimax", tree=TEXTBOOK)
    lines = [(p0, p1, width) for _, (p0, p1), width in marks(w.figure.axes[0]).edges]
    height = w.figure.canvas.get_width_height(physical=True)[1]
    for name, (x0, y0, x1, y1) in control_rects(w):
        box = (x0, height - y1, x1, height - y0)
        assert not any(segment_meets_box(p0, p1, box) for p0, p1, _ in lines), name


# ----------------------------------------------------------------------------
# Random trees
# ----------------------------------------------------------------------------


def draw_tree_and_a_frame(seed, branching, depth, algorithm, values):
    """The problems of a random tree's drawing, finished and halfway through its search."""
    players = (MAX, CHANCE, MIN, CHANCE) if algorithm == "expectimax" else (MAX, MIN)
    tree = gt.random_tree(branching, depth, seed=seed, values=values, players=players)
    result = getattr(gt, algorithm)(tree, trace=True)
    drawing = Drawing(result.graph, framed=True)
    geom, _ = drawing.geometry(None)
    fig = Figure()
    FigureCanvasAgg(fig)
    ax = drawing.new_axes(geom, fig)
    drawing.paint(ax, geom, drawing.scene(), None)
    problems = texts_covered(drawn(ax, result.graph))
    ax.clear()
    frame = gt.frame(result.trace, len(result.trace) // 2)
    drawing.paint(ax, geom, drawing.scene(frame), None)
    return problems + texts_covered(drawn(ax, result.graph))


# No shrinking: a failing tree is printed as drawn (shrinking a drawing took CI over five minutes).
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(seed=st.integers(0, 10**6), branching=st.sampled_from([2, 3, (1, 3), (2, 3)]),
       depth=st.integers(1, 3), algorithm=st.sampled_from(["minimax", "alphabeta"]),
       values=st.sampled_from([(0, 9), (-20, 20), (-999, 999)]))
def test_random_trees_and_a_frame_of_their_search_cover_no_text(seed, branching, depth, algorithm, values):
    """Every text clear on trees of the lessons' sizes (up to 27 leaves). (An edge grazing a node it does not
    join is asserted for the lessons' trees and the practice trees above, not here: a very ragged random tree
    can still have one.) Larger random trees: below."""
    assert draw_tree_and_a_frame(seed, branching, depth, algorithm, values) == []


@pytest.mark.parametrize("seed, branching, depth, algorithm", [(0, (2, 4), 4, "expectimax"),
                                                               (0, 3, 4, "expectimax")])
def test_larger_expectimax_trees_cover_no_text(seed, branching, depth, algorithm):
    """Two larger trees (4 levels, a probability on every edge) that covered a probability while a move or
    probability on a short edge could not go further out than beside its edge."""
    assert draw_tree_and_a_frame(seed, branching, depth, algorithm, (-20, 20)) == []


def texts_covered(problems):
    return [p for p in problems if "runs through the mark of" not in p]


@pytest.mark.parametrize("kind", KINDS)
def test_the_seeded_exercise_trees_cover_no_text(kind):
    """The trees a course's seeds make (tests/seeded_trees.py), as an exercise sheet draws them."""
    bad = {}
    seeds = [(difficulty, seed) for difficulty in DIFFICULTIES for seed in (0, 7, 2025, "s1234567")]
    seeds += [("medium", f"{sid}/A2") for sid in STUDENTS]
    for difficulty, seed in seeds:
        tree = gt.exercises.generate(kind, seed=seed, difficulty=difficulty).tree
        problems = drawn(gt.draw(tree, values=False), tree)
        plt.close("all")
        if problems:
            bad[difficulty, seed] = problems
    assert bad == {}


@pytest.mark.parametrize("n", [4, 5, pytest.param(6, marks=pytest.mark.xfail(strict=True, reason=(
    "known gap: Nim(6)'s dense levels leave no room beside a mark for α/β in a few frames, and one edge "
    "grazes a node (the figure keeps to the page); its moves are clear (below)")))])
def test_nim_replays_cover_no_text(n):
    result = gt.alphabeta(Nim(n), table=True, trace=True)
    replay = Replay(result)
    ax = replay.figure.axes[0]
    for k in range(len(result.trace)):   # the first frame that covers a text fails (Nim(6): 1,000 frames)
        replay.show(k)
        assert overlaps(ax, result.graph) == [], f"frame {k}: {result.trace[k].text}"


def test_lesson_05s_nim_replay_covers_no_move_label():
    """Lesson 05's replay of Nim(6): a move on a short edge between two big marks (the pruned children of
    a bound) is moved further out instead of onto its parent's mark and value."""
    result = gt.alphabeta(Nim(6), table=True, trace=True)
    replay = Replay(result)
    ax = replay.figure.axes[0]
    bad = {}
    for k in range(len(result.trace)):
        replay.show(k)
        moves = [p for p in overlaps(ax, result.graph) if "moves '" in p]
        if moves:
            bad[k] = moves
    assert bad == {}
