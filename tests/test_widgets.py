"""The replay widget and the boards, driven from Python as a front end would."""

import base64
import io
import itertools
import random

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pytest
from matplotlib.colors import to_rgb
from PIL import Image

import gametrees as gt
from gametrees.evaluation import tictactoe_open_lines
from gametrees.games import ConnectFour, TicTacToe
from gametrees.widgets import Board, Replay

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


@pytest.fixture(autouse=True)
def _no_pyplot_figures():
    """Widgets draw on their own figures: nothing may appear in pyplot."""
    plt.close("all")
    yield
    assert plt.get_fignums() == []


def png_size(data):
    return Image.open(io.BytesIO(data)).size


# ----------------------------------------------------------------------------
# Replay
# ----------------------------------------------------------------------------


def test_the_slider_changes_sentence_and_figure():
    r = gt.alphabeta(gt.tree_from_nested(TEXTBOOK))
    w = gt.replay(r)
    assert isinstance(w, Replay)
    assert (w.k, w.slider.min, w.slider.max) == (0, 1, len(r.trace))
    first_sentence, first_image = w.sentence.value, w.image.value
    assert "Start at the root A" in first_sentence
    w.slider.value = 14  # event 13: the cutoff at C
    assert w.k == 13 and w.frame == gt.frame(r.trace, 13)
    assert "prune I and J" in w.sentence.value
    assert w.image.value != first_image
    assert png_size(w.image.value) == png_size(first_image)  # the figure keeps its size
    assert "α = 3" in w.window.value and "MIN node" in w.window.value
    assert "step 14 of 26" in w.info.value and "1 cutoff so far" in w.info.value


def test_stepping_back_and_forth_lands_on_the_same_frames():
    r = gt.alphabeta(gt.random_tree(3, 3, seed=5))
    w = gt.replay(r)
    seen = {}
    w.show(30)
    for _ in range(6):
        seen[w.k] = (w.frame, w.sentence.value, w.image.value)
        w.forward.click()
    for _ in range(6):
        w.back.click()
        frame, sentence, image = seen[w.k]
        assert w.frame == frame and w.sentence.value == sentence and w.image.value == image
    assert w.k == 30
    w.restart.click()
    w.back.click()  # stays at the first step
    assert w.k == 0
    w.show(-1)
    w.forward.click()  # stays at the last step
    assert w.k == len(r.trace) - 1
    assert "The search is over" in w.sentence.value


def test_blitted_frames_equal_a_full_redraw():
    # Each step redraws only the tree over the kept pixels of the legend: the same picture.
    import numpy as np

    from gametrees.widgets.output import render_png

    w = gt.replay(gt.alphabeta(gt.random_tree((1, 3), 3, seed=4)))
    for k in (0, 7, -1):
        w.show(k)
        blitted = np.asarray(Image.open(io.BytesIO(w.image.value)).convert("RGB"))
        full = np.asarray(Image.open(io.BytesIO(render_png(w.figure))).convert("RGB"))
        assert np.array_equal(blitted, full)


def test_next_cutoff_and_reset():
    r = gt.alphabeta(gt.tree_from_nested(TEXTBOOK))
    w = gt.replay(r)
    w.next_cut.click()
    assert w.k == 13 and w.frame.event.kind == "prune"
    w.next_cut.click()  # the textbook tree has only one
    assert w.k == 13 and "No cutoff after this step" in w.info.value
    w.play.playing = True
    w.restart.click()
    assert w.k == 0 and w.play.playing is False
    # Minimax never prunes: the button is off and the window says why.
    m = gt.replay(gt.minimax(gt.tree_from_nested(TEXTBOOK)))
    assert m.next_cut.disabled
    assert "does not prune" in m.window.value


def test_speed_sets_the_play_interval():
    w = gt.replay(gt.alphabeta(gt.tree_from_nested(TEXTBOOK)), interval=300)
    assert w.play.interval == 300
    w.speed.value = 75
    assert w.play.interval == 75


def test_replay_of_a_game_search_with_boards():
    game = TicTacToe()
    r = gt.alphabeta(game, TicTacToe.from_string("XO./.X./O.."), trace=True, trace_depth=2)
    w = gt.replay(r, boards=game, start=20)
    assert w.k == 20
    assert "the position after X c1, O c3" in w.sentence.value  # the path (2, 8), named by its moves


def test_static_fallback_for_pages_without_widgets():
    r = gt.alphabeta(gt.tree_from_nested(TEXTBOOK))
    w = gt.replay(r)
    bundle = w._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"].startswith("Replay(alphabeta: 26 steps over 13 nodes; value 3)")
    assert "0x" not in bundle["text/plain"]  # stable text for nbval
    width, height = png_size(base64.b64decode(bundle["image/png"]))
    assert width > 300 and height > 200


def test_replay_bad_input():
    with pytest.raises(TypeError, match="replay expects a SearchResult"):
        gt.replay(gt.tree_from_nested(TEXTBOOK))
    r = gt.alphabeta(TicTacToe(), TicTacToe.from_string("XO./.X./O.."))
    with pytest.raises(ValueError, match="search with trace=True"):
        gt.replay(r)
    ok = gt.alphabeta(gt.tree_from_nested(TEXTBOOK))
    with pytest.raises(ValueError, match="start must be an event index"):
        gt.replay(ok, start=99)
    with pytest.raises(TypeError, match="k= is not an option"):
        gt.replay(ok, k=3)
    with pytest.raises(ValueError, match="interval must be a positive number"):
        gt.replay(ok, interval=0)
    with pytest.raises(ValueError, match="dpi must be"):
        gt.replay(ok, dpi="high")
    w = gt.replay(ok)
    with pytest.raises(ValueError, match="k must be an event index"):
        w.show(26)


# ----------------------------------------------------------------------------
# Boards
# ----------------------------------------------------------------------------


def play_out(board, rng):
    """Click random legal moves until the game ends; returns the number of clicks."""
    clicks = 0
    while not board.over:
        board.click(rng.choice(board.game.actions(board.state)))
        clicks += 1
    return clicks


@pytest.mark.parametrize("agent_first", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_whole_tictactoe_game_against_minimax_is_never_lost(agent_first, seed):
    board = gt.play(TicTacToe(), gt.MinimaxAgent(seed=seed), agent_first=agent_first)
    assert isinstance(board, Board)
    play_out(board, random.Random(seed))
    agent_mark = "X" if agent_first else "O"
    assert board.winner in ("draw", agent_mark)
    assert board.message.endswith("It is a draw.") or board.message.endswith("The agent wins.")
    # The moves alternate, the first by whoever starts.
    who = [w for w, _ in board.history]
    assert who[0] == ("agent" if agent_first else "you")
    assert all(a != b for a, b in itertools.pairwise(who))


def test_the_default_agent_is_minimax_for_tictactoe():
    board = gt.play(TicTacToe(), seed=0)
    assert isinstance(board.agent, gt.MinimaxAgent)
    board = gt.play(ConnectFour(), seed=0)
    assert isinstance(board.agent, gt.AlphaBetaAgent) and board.agent.depth == 5
    assert gt.play(ConnectFour(), "minimax").agent.depth == 4  # never a search to the end of Connect Four
    assert gt.play(TicTacToe(), "alphabeta").agent.depth is None


def test_illegal_clicks_get_a_message_and_change_nothing():
    board = gt.play(TicTacToe(), gt.MinimaxAgent(seed=0))
    board.click(4)
    taken = next(m for w, m in board.history if w == "agent")
    state, history = board.state, list(board.history)
    assert board.click(taken) == f"Cell {taken} is taken: choose an empty cell."
    assert board.click(4) == "Cell 4 is taken: choose an empty cell."
    assert board.click(9) == "There is no cell 9: cells are numbered 0..8."
    assert board.click("a") == "There is no cell 'a': cells are numbered 0..8."
    assert board.status.value == "<b>There is no cell &#x27;a&#x27;: cells are numbered 0..8.</b>"
    assert (board.state, board.history) == (state, history)
    play_out(board, random.Random(0))
    over = board.state
    assert board.click(0).startswith("The game is over")
    assert board.state == over
    # Clicking the cell buttons goes through the same checks.
    board.new_game()
    assert board.history == [] and board.state == TicTacToe.initial
    board.cells[4].click()
    assert board.cells[4].description == "X"
    board.cells[4].click()
    assert board.message == "Cell 4 is taken: choose an empty cell."


def test_who_starts_and_new_game():
    board = gt.play(TicTacToe(), gt.RandomAgent(seed=3))
    assert board.history == [] and "You are X" in board.message
    board.starts.value = "agent"  # the toggle starts a new game, the agent opens as X
    assert [w for w, _ in board.history] == ["agent"] and board.human_player == "min"
    board.new_game(agent_first=False)
    assert board.history == [] and board.starts.value == "you"
    with pytest.raises(TypeError, match="agent_first must be True or False"):
        board.new_game(agent_first="yes")


def shown(board):
    """The nine cells as the browser shows them.

    ipywidgets' button view rewrites its text only for a non-empty label and keeps the old
    text for "", so a label set to "" shows what the cell showed before.
    """
    if not hasattr(board, "_shown"):
        board._shown = [""] * 9
    for i, b in enumerate(board.cells):
        if b.description:
            board._shown[i] = b.description.strip()
    return list(board._shown)


def expected_cells(board):
    return ["" if c == "." else c for c in TicTacToe.to_string(board.state).replace("/", "")]


def test_the_cells_show_the_game_after_new_game_and_who_starts():
    board = gt.play(TicTacToe(), gt.MinimaxAgent(seed=0))
    assert shown(board) == [""] * 9
    board.click(0)
    board.click(4 if board.cells[4].description.strip() == "" else 2)
    assert shown(board) == expected_cells(board) and sum(map(bool, shown(board))) == 4
    board.new.click()
    assert shown(board) == [""] * 9, "New game: every cell is empty again"
    board.click(0)
    board.starts.value = "agent"  # "Agent starts": a new game, the agent's X only
    assert shown(board) == expected_cells(board) and sorted(shown(board)) == [""] * 8 + ["X"]
    board.starts.value = "you"  # "You start": an empty board
    assert shown(board) == [""] * 9
    play_out(board, random.Random(5))
    board.new_game()
    assert shown(board) == [""] * 9 and board.history == []


def test_why_is_offered_only_when_there_is_a_search_to_explain():
    board = gt.play(TicTacToe(), gt.RandomAgent(seed=3))
    for move in (0, 1, 2):
        board.click(move) if move in board.game.actions(board.state) else None
        assert board.why_button.layout.display == "none" and board.why_button.disabled
    board.new_game(agent_first=True)
    assert board.history and board.why_button.layout.display == "none"
    assert board.why() is None and "does not record its search" in board.why_text.value
    for agent in (gt.MinimaxAgent(seed=0), gt.MCTSAgent(playouts=50, seed=0)):
        board = gt.play(TicTacToe(), agent)
        assert board.why_button.layout.display == "none"  # nothing to explain before its first move
        board.click(4)
        assert board.why_button.layout.display == "" and not board.why_button.disabled
        board.new_game()
        assert board.why_button.layout.display == "none"


def test_why_did_it_play_that():
    board = gt.play(TicTacToe(), gt.MinimaxAgent(seed=0))
    assert board.why_button.disabled and board.why() is None
    assert "has not moved yet" in board.why_text.value
    board.click(4)
    assert not board.why_button.disabled
    board.why_button.click()
    assert board.why_image.value and board.why_image.layout.display == ""
    fig = board.why()
    title = fig.axes[0].get_title(loc="left")
    played = board.history[-1][1]
    assert f"played cell {played} (" in title and "O takes" in title and "lowest" in title
    # The figure shows the agent's recorded tree, trimmed: every move and one reply each.
    G = board.agent.last_result.graph
    drawn = {n for c in fig.axes[0].collections if (c.get_gid() or "").startswith("nodes:") for n in c.nodes}
    assert set(G.successors(())) <= drawn < set(G)
    assert all(len(n) <= 2 for n in drawn)
    bold = [e for c in fig.axes[0].collections if c.get_gid() == "edges:best" for e in c.edges]
    assert bold[0] == ((), (played,))  # the move it played, even among equally good ones


def test_why_for_alphabeta_on_connect_four_and_for_mcts():
    game = ConnectFour(5, 6, 4)
    board = gt.play(game, gt.AlphaBetaAgent(depth=3))
    board.click(2)
    fig = board.why()
    assert "alphabeta (O) played" in fig.axes[0].get_title(loc="left")
    assert board.why_image.value
    board = gt.play(TicTacToe(), gt.MCTSAgent(playouts=200, seed=0))
    board.click(0)
    fig = board.why()
    ax = fig.axes[0]
    assert "most visited" in ax.get_title(loc="left") and "200 playouts" in ax.get_title(loc="left")
    # the tree MCTS grew: every move, the most visited reply below each, visits beside every board
    G = board.agent.last_result.graph
    notes = next(c for c in ax.collections if c.get_gid() == "notes")
    shown = dict(zip(notes.nodes, notes.texts))
    for child in G.successors(()):
        assert shown[child] == f"n={G.nodes[child]['visits']}"
    finished = sum(1 for c in G.successors(()) if not G.out_degree(c))
    assert len(shown) == len(set(G.successors(()))) * 2 + 1 - finished
    bold = [e for c in ax.collections if c.get_gid() == "edges:best" for e in c.edges]
    played = board.history[-1][1]
    assert bold == [((), (played,))]
    assert "most visited" in board.why_text.value


def test_connect_four_board():
    game = ConnectFour(4, 4, 4)

    def leftmost(game, state):
        return game.actions(state)[0]

    board = gt.play(game, leftmost)
    assert len(board.cells) == 4
    for _ in range(2):
        board.click(0)  # X, O, X, O: column 0 is full
    assert board.click(0) == "Column 0 is full: choose another column."
    assert board.cells[0].disabled
    assert board.click(7) == "There is no column 7: columns are numbered 0..3."
    assert "<svg" in board._picture.value
    play_out(board, random.Random(1))
    assert board.winner in ("X", "O", "draw")


def test_a_broken_agent_does_not_break_the_board():
    def crashes(game, state):
        raise RuntimeError("bug")

    def cheats(game, state):
        return 4  # the centre, taken or not

    board = gt.play(TicTacToe(), crashes)
    assert board.click(0).startswith("The agent crashes failed: RuntimeError: bug")
    board = gt.play(TicTacToe(), cheats)
    board.click(4)
    assert "chose 4, which is not a legal move" in board.message

    def first(game, state):
        return game.actions(state)[0]

    board = gt.play(TicTacToe(), first)
    board.click(4)
    assert board.why() is None and "does not record its search" in board.why_text.value


def test_board_bad_input_and_static_fallback():
    with pytest.raises(TypeError, match="boards for TicTacToe"):
        gt.play(gt.Nim(5))
    with pytest.raises(TypeError, match="agent must be a callable"):
        gt.play(TicTacToe(), agent=3)
    with pytest.raises(ValueError, match="one of"):
        gt.play(TicTacToe(), agent="deep-blue")
    board = gt.play(TicTacToe(), "random", seed=2)
    bundle = board._repr_mimebundle_()
    assert bundle["text/plain"].startswith("Board(TicTacToe against random: You are X")
    assert png_size(base64.b64decode(bundle["image/png"]))[0] > 100


# ----------------------------------------------------------------------------
# In a real kernel: one output per cell, with a static image for pages without widgets
# ----------------------------------------------------------------------------


@pytest.mark.slow
def test_in_a_notebook_widgets_show_one_output_with_a_png_fallback():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in (
        "%matplotlib inline\nimport gametrees as gt\n"
        "r = gt.alphabeta(gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))",
        "gt.replay(r)",
        "gt.play(gt.TicTacToe(), seed=0)",
        "gt.draw(r);",
    )]
    nbclient.NotebookClient(nb, timeout=60, kernel_name="python3",
                            resources={"metadata": {"path": str(root)}}).execute()
    outputs = [cell.outputs for cell in nb.cells]
    assert outputs[0] == []
    for cell in outputs[1:3]:  # the widgets: one output each, no stray figure
        assert len(cell) == 1
    view = {"application/vnd.jupyter.widget-view+json", "image/png", "text/plain"}
    assert set(outputs[1][0]["data"]) == view | {"text/html"}  # the replay: and its kernel-free player
    assert outputs[1][0]["data"]["text/html"].startswith('<div class="gt-player" data-steps="26"')
    assert set(outputs[2][0]["data"]) == view | {"text/html"}  # the board: its picture under a line
    assert "run the cell to play" in outputs[2][0]["data"]["text/html"]
    assert outputs[1][0]["data"]["text/plain"].startswith(
        "Replay(alphabeta: 26 steps over 13 nodes; value 3)")
    assert len(outputs[3]) == 1 and "image/png" in outputs[3][0]["data"]  # the figure, once
    # An HTML export of the notebook stored for readers shows the player and the static figures.
    from nbconvert import HTMLExporter

    from gametrees.site.readers import for_readers

    html, _ = HTMLExporter().from_notebook_node(for_readers(nb))
    import re

    assert len(re.findall(r'<img[^>]*src="data:image/png', html)) == 3
    assert html.count('<div class="gt-player"') == 1 and "widget-view+json" not in html


# ----------------------------------------------------------------------------
# Explore
# ----------------------------------------------------------------------------


def test_explore_replays_the_typed_tree_with_each_option():
    w = gt.explore()
    assert "explore" in gt.__all__ and isinstance(w.replay, Replay)
    assert (w.result.algorithm, w.result.value, w.result.stats["leaves_evaluated"]) == ("alphabeta", 3, 7)
    assert w.copy_field.value == "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]" and w.error == ""
    first = w.replay
    assert w.set_tree("[[3, 5], [3, 1]]").startswith("alpha-beta (textbook rule) on a tree of 7 nodes")
    assert w.replay is not first and w.tree.number_of_nodes() == 7
    pruned = {w.tree.nodes[n]["label"] for n, s in w.result.graph.nodes(data="status") if s == "pruned"}
    assert pruned == {"G"} and not w.rule.disabled  # C's second leaf: the tie prunes it
    w.rule.value = "strict"
    assert w.result.stats["leaves_evaluated"] == 4  # the tie does not prune under the strict rule
    w.algorithm.value = "minimax"
    assert w.result.algorithm == "minimax" and w.rule.disabled
    w.root.value = "min"
    assert w.result.value == 3 and w.tree.nodes[()]["player"] == "min"
    assert w.result.value == gt.minimax(gt.tree_from_nested([[3, 5], [3, 1]], root_player="min")).value
    w.set_tree(json_tree := '[[1, 2], {"chance": [4, 8], "p": [0.25, 0.75]}]')
    assert w.error.startswith("minimax: node (1,) (C) is a chance node")
    assert w.error.endswith("press the search button “expectimax” above to average over chance"), w.error
    w.algorithm.value = "expectimax"
    assert w.error == "" and w.result.value == 2 and w.copy_field.value == json_tree.replace('[[1, 2]',
                                                                                             '[[1, 2]')


def test_explore_orders_children_best_or_worst_first():
    w = gt.explore(order="best")
    assert w.copy_field.value == "[[3, 8, 12], [2, 4, 6], [2, 5, 14]]"
    best = w.result.stats["leaves_evaluated"]
    w.order.value = "worst"
    assert w.copy_field.value == "[[14, 5, 2], [6, 4, 2], [12, 8, 3]]"
    assert (best, w.result.stats["leaves_evaluated"]) == (5, 9)
    # Labels stay with their nodes: the leaf 14 is still K, now drawn first.
    assert w.tree.nodes[next(iter(w.tree.successors(next(iter(w.tree.successors(()))))))]["label"] == "K"
    # The copied text reads back as the tree shown.
    copied = w.copy_field.value
    w.order.value = "natural"
    w.set_tree(copied)
    assert w.copy_field.value == copied
    w.copy_field.value = "edited"  # the copy field gives the tree back; an edit there is undone
    assert w.copy_field.value == copied


@pytest.mark.parametrize("text, message", [
    ("", "type a tree, e.g. [[3, 12, 8]"),
    ("[[3, 12], [2, 4", 'this is not a tree yet: "[" at column 11 is never closed'),
    ("[[3,,4]]", "this is not a tree yet: expecting value at column 5"),
    ("[[3, 'a']]", "leaf (0, 1) must be a number, got 'a' (str)"),
    ("[[]]", "node (0,) is an empty list"),
    ('{"A": {"player": "max", "children": ["B"]}}', "node 'A' has child 'B', which is not defined"),
    ("[" * 3000 + "]" * 3000, "the tree is nested too deeply to read"),
    ("[" + ",".join(["[1, 2, 3]"] * 80) + "]", "the tree has 321 nodes"),
])
def test_explore_shows_a_mistake_in_one_line_and_keeps_the_last_replay(text, message):
    w = gt.explore()
    shown = w.replay
    assert w.set_tree(text).startswith(message)
    assert w.error.startswith(message) and "\n" not in w.error and "Traceback" not in w.message.value
    assert w.replay is shown and "still the last tree that worked" in w.message.value
    w.set_tree("[[1, 2]]")
    assert w.error == "" and w.replay is not shown


def test_explore_accepts_named_nodes_and_graphs_and_refuses_bad_arguments():
    w = gt.explore('{"A": {"player": "max", "children": ["B", "C"]}, "B": 3, "C": 5}', algorithm="minimax")
    assert w.result.value == 5 and w.copy_field.value == "[3, 5]"
    assert gt.explore(gt.tree_from_nested([[3, 5]])).copy_field.value == "[[3, 5]]"
    with pytest.raises(ValueError, match="algorithm must be one of"):
        gt.explore(algorithm="negascout")
    with pytest.raises(ValueError, match="order must be one of"):
        gt.explore(order="random")
    with pytest.raises(ValueError, match="never closed"):
        gt.explore("[[1, 2]")
    with pytest.raises(TypeError, match="tree must be text"):
        gt.explore(3.5)
    bundle = gt.explore()._repr_mimebundle_()
    assert bundle["text/plain"].startswith("Explore(alpha-beta (textbook rule) on a tree of 13 nodes")
    assert "image/png" in bundle and "application/vnd.jupyter.widget-view+json" in bundle


# ----------------------------------------------------------------------------
# Issue 20's widget items as the kernel holds them (the browser test asserts the page, tests/test_browser.py);
# each failed before the fix
# ----------------------------------------------------------------------------

def test_the_open_why_panel_follows_the_agents_latest_move():
    board = gt.play(TicTacToe(), agent="minimax", seed=1)
    board.click(0)
    assert "played cell 4 (b2)" in board.why().axes[0].get_title("left")   # the number and the square
    first = board._why_png
    board.click(next(m for m in board.game.actions(board.state)))
    latest = board.history[-1]
    assert latest[0] == "agent" and latest[1] != 4
    shown = board._why_png
    assert board.why_open and shown != first  # redrawn, not the first move's search
    assert f"played cell {latest[1]} (" in board.why().axes[0].get_title("left")
    assert board._why_png == shown  # what was shown is the latest move's search
    board.new_game()
    assert not board.why_open and board.why_text.value == ""


def test_board_cells_name_their_square_and_what_is_on_it():
    board = gt.play(TicTacToe(), agent="random", seed=1)
    board.click(4)
    tips = [b.tooltip for b in board.cells]
    assert tips[4] == "cell 4 (b2): X"
    assert all(t.startswith(f"cell {i} (") and t.endswith((": X", ": O",
                                                           ": empty")) for i, t in enumerate(tips))


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
        r = gt.alphabeta(ttt, ttt.from_string("X.O/.X./O.."), depth=2, evaluate=tictactoe_open_lines,
                         trace=True)
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
