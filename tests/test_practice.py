"""The practice widget, driven from Python as a front end would: type, cut, Check, New tree, Show solution.

One test runs the widget in a real JupyterLab and clicks through it (Debian's Chromium through playwright:
skipped without them, failed in CI, ``GT_REQUIRE_BROWSER=1``).
"""

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pytest
from browser import NotebookPage, write_notebook
from PIL import Image

import gametrees as gt
from gametrees.exercises import attempts
from gametrees.exercises.attempts import NotYet
from gametrees.widgets import Practice, Replay

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
SHOTS = Path("/tmp/gt_practice")


@pytest.fixture(autouse=True)
def _no_pyplot_figures():
    """The widget draws on its own figure: nothing may appear in pyplot. (And no test sees another's
    checks: a solution shown stays shown for the same tree.)"""
    plt.close("all")
    attempts.reset()
    yield
    assert plt.get_fignums() == []


def png_size(data):
    return Image.open(io.BytesIO(data)).size


def margins(widget):
    """(top, left) in pixels of a control placed on the figure."""
    top, _, _, left = widget.layout.margin.split()
    return int(top.rstrip("px")), int(left.rstrip("px"))


def fill(w, values=None, cuts=()):
    for label, value in (values or {}).items():
        w.boxes[label].value = value
    for label in cuts:
        w.cuts[label].value = True


# ----------------------------------------------------------------------------
# The figure and the controls on it
# ----------------------------------------------------------------------------


def test_controls_sit_on_the_figure_beside_their_nodes():
    w = gt.practice("alphabeta", tree=TEXTBOOK)
    assert isinstance(w, Practice)
    assert sorted(w.boxes) == ["A", "B", "C", "D"]  # the inner nodes
    assert sorted(w.cuts) == sorted("BCDEFGHIJKLM")  # one ✂ per edge, keyed by the node below
    width, height = png_size(w.image.value)
    placed = list(w.boxes.values()) + list(w.cuts.values())
    for control in placed:
        top, left = margins(control)
        assert 0 <= left < width and 0 <= top < height
    # A box sits right of its node, level with it; B, C, D share a level.
    tops = {label: margins(w.boxes[label])[0] for label in "ABCD"}
    assert tops["B"] == tops["C"] == tops["D"] > tops["A"]
    lefts = {label: margins(w.boxes[label])[1] for label in "BCD"}
    assert lefts["B"] < lefts["C"] < lefts["D"]
    # Every ✂ sits on its edge, between the two levels.
    assert all(tops["A"] < margins(w.cuts[x])[0] < tops["B"] for x in "BCD")
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / "textbook_alphabeta.png").write_bytes(w.image.value)


def test_boxes_of_a_ragged_tree_do_not_cover_nodes_or_each_other():
    w = gt.practice("alphabeta", seed=3, difficulty="hard")
    boxes = [(margins(b), b) for b in w.boxes.values()]
    rects = [(left, top, left + 46, top + 22) for (top, left), _ in boxes]
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])
    # No box covers a node's centre.
    prep = w._drawing.prep
    for n in prep.order:
        x, y = w._pixels(prep.pos[n])
        assert not any(r[0] < x < r[2] and r[1] < y < r[3] for r in rects), w._nodes.name(n)
    (SHOTS / "hard_alphabeta.png").write_bytes(w.image.value)


def test_cutting_an_edge_redraws_and_hides_the_subtree_below():
    w = gt.practice("alphabeta", tree=TEXTBOOK)
    before = w.image.value
    w.cuts["C"].value = True  # a wrong cut: C is visited
    assert w.image.value != before  # C's subtree is drawn pruned now
    assert w.boxes["C"].layout.visibility == "hidden"  # a pruned node returns no value
    assert all(w.cuts[x].layout.visibility == "hidden" for x in "HIJ")
    assert w.cuts["C"].layout.visibility == "visible" and w.cuts["C"].button_style == "warning"
    assert w.answer()["pruned"] == ["C"]
    fb = w.check()
    assert not fb.ok
    assert any(line.startswith("✗ The edge A–C is cut, but alpha-beta follows that edge")
               for line in fb.lines)
    assert w.cuts["C"].button_style == "danger"
    w.cuts["C"].value = False
    assert w.image.value == before
    assert w.boxes["C"].layout.visibility == "visible"


# ----------------------------------------------------------------------------
# Check
# ----------------------------------------------------------------------------


def test_check_gives_the_exercises_feedback_and_marks_each_box():
    w = gt.practice("alphabeta", tree=TEXTBOOK)
    assert w.feedback.value == ""
    fill(w, {"A": "3", "B": "3", "C": "<= 2", "D": "14"}, cuts="IJ")
    w.check_button.click()
    fb = w.last_feedback
    assert not fb.ok
    assert "✗" in w.feedback.value and "D: you wrote 14" in w.feedback.value
    assert w.boxes["A"].style.background == "#D6EAF8"  # right
    assert w.boxes["D"].style.background == "#FADBD8"  # wrong
    assert w.cuts["I"].button_style == "success"
    w.boxes["D"].value = "2"
    assert w.boxes["D"].style.background is None  # editing clears the mark
    w.check_button.click()
    assert w.last_feedback.ok
    assert "Alpha-beta values: all 4 right. Pruned leaves: right." in w.feedback.value


def test_empty_boxes_are_one_note_and_give_nothing_away():
    w = gt.practice("minimax", tree=TEXTBOOK)
    fb = w.check()
    assert not fb.ok and fb.title == "Minimax values: nothing typed yet."
    assert fb.lines == ["• Still empty: A, B, C and D. Type a value in the box beside each."]
    fill(w, {"B": "3", "C": "4"})
    fb = w.check()
    assert not fb.ok and fb.title == "Minimax values: 1 of 2 right so far; 2 still empty."
    assert fb.lines[-1] == "• Still empty: A and D. Type a value in the box beside each."
    assert not fb.hints or all("D" not in h.split(" is a")[0] for h in fb.hints)
    fill(w, {"A": "3", "C": "2", "D": "2"})
    assert w.check().ok


def test_the_tie_rule_matters_in_strict_mode():
    # C's first child equals α = 3: the textbook rule prunes I and J, the strict one does not.
    tree = [[3, 12, 8], [3, 4, 6], [14, 5, 2]]
    w = gt.practice("pruning", tree=tree, rule="strict")
    assert not w.boxes  # pruning only: no value boxes
    fill(w, cuts="IJ")
    fb = w.check()
    assert not fb.ok
    assert any("textbook rule" in line for line in fb.lines)
    w.rule.value = "textbook"  # regenerates: same tree, other rule
    assert w.exercise.rule == "textbook" and not any(b.value for b in w.cuts.values())
    fill(w, cuts="IJ")
    assert w.check().ok


def test_expectimax_mode_has_chance_nodes_and_names_the_plain_average():
    w = gt.practice("expectimax", seed=11, difficulty="medium")
    players = {p for _, p in w.exercise.tree.nodes(data="player")}
    assert "chance" in players and not w.cuts
    solution = w.values_exercise.solution()
    fill(w, {k: str(v) for k, v in solution.items()})
    assert w.check().ok
    # A chance node with unequal probabilities, answered with the plain mean:
    G = w.exercise.tree
    node = next(n for n in G if G.nodes[n].get("player") == "chance"
                and len({round(G.edges[n, c].get("prob", 0), 3) for c in G.successors(n)}) > 1)
    kids = [w.exercise.result.graph.nodes[c]["value"] for c in G.successors(node)]
    label = w._nodes.name(node)
    w.boxes[label].value = str(round(sum(kids) / len(kids), 2))
    fb = w.check()
    assert not fb.ok and any("plain average" in h for h in fb.hints)


def test_minimax_mode_with_min_at_the_root():
    w = gt.practice("minimax", tree=TEXTBOOK, root_player="min")
    assert not w.cuts and sorted(w.boxes) == ["A", "B", "C", "D"]
    fill(w, {"A": "6", "B": "3", "C": "2", "D": "2"})  # B, C, D are MAX nodes: 12, 6, 14
    fb = w.check()
    assert not fb.ok
    assert any("MAX takes the largest" in h for h in fb.hints) and fb.tags == ("roles-inverted",)
    fill(w, {"A": "6", "B": "12", "C": "6", "D": "14"})
    assert w.check().ok


def test_clear_empties_boxes_cuts_and_feedback():
    w = gt.practice("alphabeta", tree=TEXTBOOK)
    empty = w.image.value
    fill(w, {"A": "3"}, cuts="IJ")
    w.check()
    w.clear_button.click()
    assert all(b.value == "" for b in w.boxes.values()) and not any(c.value for c in w.cuts.values())
    assert w.feedback.value == "" and w.last_feedback is None and w.image.value == empty


# ----------------------------------------------------------------------------
# New tree, settings, solution
# ----------------------------------------------------------------------------


@pytest.mark.slow
def test_new_tree_follows_the_seed_deterministically():
    w = gt.practice("alphabeta", seed=5, difficulty="medium")
    assert w.seed == 5
    first = w.image.value
    w.new.click()
    assert w.seed == 6
    expected = gt.exercises.generate("pruning", seed=6, difficulty="medium")
    assert w.exercise.outline() == expected.outline()
    again = gt.practice("alphabeta", seed=6, difficulty="medium")
    assert again.image.value == w.image.value != first
    w.new_tree(seed="s1234567")
    assert w.seed == "s1234567"
    w.new_tree()
    assert w.seed == "s1234567/1"
    assert w.exercise.outline() == gt.exercises.generate("pruning", seed="s1234567/1",
                                                         difficulty="medium").outline()
    given = gt.practice("minimax", tree=TEXTBOOK, seed=40)
    assert given.seed is None and given.difficulty.disabled
    given.new_tree()  # from the given tree to generated ones
    assert given.seed == 40 and not given.difficulty.disabled


def test_switching_settings_regenerates_from_the_same_seed():
    w = gt.practice("alphabeta", seed=8)
    fill(w, {"A": "1"})
    w.root.value = "min"
    assert w.exercise.root_player == "min" and w.seed == 8
    assert w.boxes["A"].value == ""  # fresh controls
    assert w.exercise.outline() == gt.exercises.generate("pruning", seed=8, root_player="min").outline()
    w.rule.value = "strict"
    assert w.exercise.rule == "strict" and w.values_exercise.rule == "strict"
    w.difficulty.value = "hard"
    assert w.exercise.outline() == gt.exercises.generate("pruning", seed=8, difficulty="hard",
                                                         root_player="min",
                                                         rule="strict").outline()
    w.mode.value = "minimax"
    assert w.rule.disabled and not w.cuts and w.boxes
    w.mode.value = "expectimax"
    assert any(p == "chance" for _, p in w.exercise.tree.nodes(data="player"))


def test_a_setting_that_does_not_fit_the_given_tree_is_refused_with_a_message():
    w = gt.practice("expectimax", tree=[{"chance": [1, 3]}, 2])
    w.mode.value = "minimax"
    assert w.mode.value == "expectimax" and isinstance(w.exercise, gt.exercises.ExpectimaxExercise)
    assert "the tree has chance nodes: practise it with mode=&#x27;expectimax&#x27;" in w.feedback.value


def test_show_solution_before_any_check_says_try_first_and_shows_no_values():
    w = gt.practice("expectimax", seed=3)
    solution = w.values_exercise.solution()
    w.check()                                   # an empty Check is no attempt
    w.solution_button.click()
    (note,) = w.solution_box.children
    assert "opens after your first attempt" in note.value
    assert not any(isinstance(c, Replay) for c in w.solution_box.children)
    assert not any(f"{k} = {v}" in note.value for k, v in solution.items())
    assert w.solution_button.description == "Show solution"
    assert isinstance(w.show_solution(), NotYet)
    # after a real (wrong) check the solution opens; a Check after it says so and is not solved
    w.boxes["A"].value = "0"
    assert w.check().status == "wrong"
    w.solution_button.click()
    assert isinstance(w.solution_box.children[1], Replay) and w.solution_button.description == "Hide solution"
    fill(w, {k: str(v) for k, v in solution.items()})
    fb = w.check()
    assert fb.ok and fb.solved is False
    assert fb.lines[0].startswith("• The solution was shown before this check")
    assert "The solution was shown before this check" in w.feedback.value
    assert attempts.counts()[w.values_exercise.key]["solved"] is False


def test_a_right_check_before_the_solution_is_solved_and_alphabeta_says_shown_once():
    w = gt.practice("alphabeta", tree=TEXTBOOK)
    fill(w, {"A": "3", "B": "3", "C": "≤ 2", "D": "2"}, cuts="IJ")
    assert w.check().solved is True
    w.show_solution()
    fb = w.check()
    assert fb.ok and fb.solved is False
    assert sum("The solution was shown" in line for line in fb.lines) == 1


def test_show_solution_shows_the_replay_and_hides_it_again():
    w = gt.practice("alphabeta", tree=TEXTBOOK)
    fill(w, {"A": "1"})
    w.check()
    w.solution_button.click()
    replay = w.solution_box.children[1]
    assert isinstance(replay, Replay)
    assert replay.result is w.exercise.result
    assert "A = 3, B = 3, C ≤ 2, D = 2; pruned: I, J" in w.solution_box.children[0].value
    assert w.solution_button.description == "Hide solution"
    replay.next_cut.click()
    assert replay.frame.event.kind == "prune"
    w.solution_button.click()
    assert w.solution_box.children == () and w.solution_button.description == "Show solution"
    m = gt.practice("minimax", tree=TEXTBOOK)
    fill(m, {"A": "1"})
    m.check()
    assert m.show_solution().result.algorithm == "minimax"
    graded = gt.practice("alphabeta", tree=TEXTBOOK, solutions=False)
    assert graded.solution_button.layout.display == "none"
    with pytest.raises(ValueError, match="solutions=False"):
        graded.show_solution()


def test_static_fallback_for_pages_without_widgets():
    w = gt.practice("minimax", tree=TEXTBOOK)
    data = w._repr_mimebundle_()
    if isinstance(data, tuple):
        data = data[0]
    assert "image/png" in data and "application/vnd.jupyter.widget-view+json" in data
    assert data["text/plain"].startswith("Practice(minimax: A is a MAX node at the root.")


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="mode must be one of"):
        gt.practice("negamax")
    with pytest.raises(ValueError, match="difficulty must be one of"):
        gt.practice(difficulty="expert")
    with pytest.raises(ValueError, match="rule must be one of"):
        gt.practice(rule="loose")
    with pytest.raises(ValueError, match="root_player must be one of"):
        gt.practice(root_player="chance")
    with pytest.raises(TypeError, match="seed must be an int or a str"):
        gt.practice(seed=1.5)
    with pytest.raises(TypeError, match="tree must be a game tree"):
        gt.practice(tree="[[1, 2]]")
    with pytest.raises(ValueError, match="mode='expectimax'"):
        gt.practice("minimax", tree=[{"chance": [1, 3]}, 2])
    with pytest.raises(TypeError, match="solutions must be True or False"):
        gt.practice(solutions="no")
    with pytest.raises(ValueError, match="dpi"):
        gt.practice(dpi=5)
    with pytest.raises(TypeError, match="seed must be an int or a str"):
        gt.practice(tree=TEXTBOOK).new_tree(seed=[1])


# ----------------------------------------------------------------------------
# In a real JupyterLab (the fixtures ``jupyterlab`` and ``chromium``: conftest.py)
# ----------------------------------------------------------------------------


@pytest.mark.browser
def test_in_jupyterlab_typing_cutting_and_checking(jupyterlab, chromium):
    path = "practice/textbook.ipynb"
    write_notebook(jupyterlab.root / path, [
        "%matplotlib inline\nimport gametrees as gt",
        f"w = gt.practice('alphabeta', tree={TEXTBOOK})\nw",
    ])
    context = chromium.new_context(viewport={"width": 1300, "height": 1100})
    page = NotebookPage(jupyterlab, context, path, workspace="practice")
    try:
        page.open(timeout=90)
        page.run_all([True, True], timeout=120)
        page.page.wait_for_selector("input[placeholder='A']", timeout=60000)
        for label, value in {"A": "3", "B": "3", "C": "≤ 2", "D": "2"}.items():
            page.page.locator(f"input[placeholder='{label}']").fill(value)
        for edge in ("C–I", "C–J"):
            page.page.locator(f"button[title^='prune the edge {edge}']").click()
        page.page.locator("button:has-text('Check')").click()
        page.page.wait_for_selector("text=Pruned leaves: right.", timeout=20000)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.page.locator(".jp-Cell").nth(1).screenshot(path=str(SHOTS / "jupyterlab.png"))
    finally:
        page.close()
        context.close()
        jupyterlab.shutdown_kernels()
