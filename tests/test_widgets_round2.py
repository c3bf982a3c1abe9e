"""Issue 20's widget items as the kernel holds them (the browser test asserts the page:
tests/test_browser.py -k round2); each failed before the fix."""

import matplotlib
import matplotlib.pyplot as plt
import pytest
from matplotlib.colors import to_rgb

import gametrees as gt
from gametrees.evaluation import tictactoe_open_lines
from gametrees.games import TicTacToe

matplotlib.use("Agg")


def test_the_open_why_panel_follows_the_agents_latest_move():
    board = gt.play(TicTacToe(), agent="minimax", seed=1)
    board.click(0)
    assert "played 4" in board.why().axes[0].get_title("left")
    first = board._why_png
    board.click(next(m for m in board.game.actions(board.state)))
    latest = board.history[-1]
    assert latest[0] == "agent" and latest[1] != 4
    shown = board._why_png
    assert board.why_open and shown != first  # redrawn, not the first move's search
    assert f"played {latest[1]}" in board.why().axes[0].get_title("left")
    assert board._why_png == shown  # what was shown is the latest move's search
    board.new_game()
    assert not board.why_open and board.why_text.value == ""


def test_board_cells_name_their_square_and_what_is_on_it():
    board = gt.play(TicTacToe(), agent="random", seed=1)
    board.click(4)
    tips = [b.tooltip for b in board.cells]
    assert tips[4] == "cell 4 (b2): X"
    assert all(t.startswith(f"cell {i} (") and t.endswith((": X", ": O", ": empty")) for i, t in enumerate(tips))


def test_a_box_hidden_under_a_cut_is_never_called_empty():
    w = gt.practice(seed=1)
    w.boxes["A"].value, w.boxes["B"].value = "12", "3"
    w.cuts["B"].value = True  # hides B's box
    text = str(w.check())
    assert "Still empty: C and D." in text  # their boxes are shown, and empty
    assert "Still empty: B" not in text and ", B" not in text.split("Still empty:")[1].split(".")[0]
    assert "B is under your ✂ on A–B, so its box is hidden and not checked" in text
    assert w.boxes["B"].layout.visibility == "hidden"
    # every node the check names as empty has a box the page shows
    empty = text.split("Still empty: ")[1].split(".")[0].replace(" and ", ", ").split(", ")
    assert all(w.boxes[label].layout.visibility == "visible" for label in empty)


def test_every_widget_carries_the_line_for_a_reopened_notebook():
    from gametrees.widgets.output import OFFLINE_NOTE

    r = gt.alphabeta(gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    for w in (gt.replay(r), gt.play(TicTacToe(), agent="random", seed=1), gt.practice(seed=1), gt.explore()):
        assert "gt-widget" in w._dom_classes
        notes = [c for c in w.children if "gt-note" in getattr(c, "_dom_classes", ())]
        assert len(notes) == 1 and OFFLINE_NOTE in notes[0].value


def _contrast_on_white(colour):
    def lin(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in to_rgb(colour))
    return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)


@pytest.mark.parametrize("which", ["04 board tree", "03 replay"])
def test_alpha_beta_and_move_labels_are_at_least_10px_and_not_light_grey(which):
    ttt = TicTacToe()
    if which == "04 board tree":
        r = gt.alphabeta(ttt, ttt.from_string("X.O/.X./O.."), depth=2, evaluate=tictactoe_open_lines, trace=True)
        w = gt.replay(r, boards=ttt)
    else:
        w = gt.replay(gt.alphabeta(gt.random_tree(3, 3, seed=11, values=(0, 20))))
    seen = set()
    for k in range(0, len(w.trace), max(1, len(w.trace) // 8)):
        w.show(k)
        for coll in w._ax.collections:
            if coll.get_gid() not in ("windows", "moves"):
                continue
            seen.add(coll.get_gid())
            px = [size * w.figure.dpi / 72 for size in coll.fontsizes]
            assert min(px) >= 10, (coll.get_gid(), k, min(px))
            for colour in coll.get_facecolors():
                assert _contrast_on_white(colour[:3]) >= 4.5, (coll.get_gid(), k, colour)
    plt.close("all")
    assert "windows" in seen and (which != "04 board tree" or "moves" in seen)
