"""Issue 20's edges: no crash, hang or lost file (each test failed before the fix).

Widgets are tested in the browser (tests/test_browser.py); the terminal game's
"Draw." in tests/test_cli.py.
"""

import io
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import gametrees as gt
from gametrees.cli import main

ROOT = Path(__file__).resolve().parents[1]


def cli(*args, cwd):
    """``python -m gametrees ARGS`` in a subprocess: (exit code, stdout, stderr)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "gametrees", *args], text=True, capture_output=True,
                          cwd=cwd, env=env, timeout=60, check=False)
    return done.returncode, done.stdout, done.stderr


def one_line_error(err, *words):
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err


# -- the recursion limit ------------------------------------------------------------------------

def test_searches_in_threads_leave_the_recursion_limit_as_it_was():
    tree = gt.random_tree(depth=4, branching=3, seed=1)
    before = sys.getrecursionlimit()
    seen = []

    def work():
        for _ in range(100):
            gt.alphabeta(tree)
            seen.append(sys.getrecursionlimit())

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sys.getrecursionlimit() == before
    assert max(seen) <= before + gt.trees.MAX_PLIES + 200  # one shared raise, never stacked


# -- sizes and hangs ----------------------------------------------------------------------------

@pytest.mark.parametrize("rows,cols", [(10 ** 5, 10 ** 5), (3000, 3000), (65, 7), (6, 65)])
def test_a_connect_four_board_past_the_limit_is_refused_at_once(rows, cols):
    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"must be an int <= ConnectFour.MAX_SIDE = 64, got"):
        gt.ConnectFour(rows, cols, 4)
    assert time.perf_counter() - start < 0.5


def test_the_largest_connect_four_board_is_playable():
    game = gt.ConnectFour(64, 64, 4)
    assert len(game.actions(game.initial)) == 64


def test_export_refuses_a_pipe_as_its_json_instead_of_blocking(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    code, out, err = cli("export", "--json", "fifo", "--answer", "a.svg", cwd=tmp_path)
    assert code == 2
    one_line_error(err, "'fifo' is not a regular file")


def test_a_learners_function_that_never_returns_is_stopped_with_a_time():
    from gametrees.exercises import lessons

    def negamax(game, state):
        while True:
            pass

    start = time.perf_counter()
    feedback = str(lessons.check_negamax(negamax))
    assert "did not return within 10 s" in feedback
    assert time.perf_counter() - start < 22  # once, not once per position


def test_a_learners_function_that_sleeps_in_a_thread_is_stopped_too():
    from gametrees.exercises.code_checks.harness import Printed, run_learner

    def slow():
        while True:
            time.sleep(0.01)

    got = []
    t = threading.Thread(target=lambda: got.append(run_learner(slow, (), Printed(), guard=False)))
    t.start()
    t.join(20)
    assert got and "did not return within" in got[0].error


# -- bad input named ----------------------------------------------------------------------------

def test_a_number_with_5000_digits_is_a_message_in_the_widget_and_on_the_command_line(tmp_path):
    text = "[" + "9" * 5000 + ", 1]"
    message = gt.explore().set_tree(text)
    assert "more than 4,300 digits" in message
    code, out, err = cli("export", "--tree", text, "--answer", "a.svg", cwd=tmp_path)
    assert code == 2
    one_line_error(err, "--tree:", "more than 4,300 digits")
    code, out, err = cli("export", "--json", json.dumps({"A": {"player": "max", "children": ["B"]},
                                                         "B": int("9" * 4000)}).replace("9" * 4000, "9" * 5000),
                         "--answer", "a.svg", cwd=tmp_path)
    assert code == 2
    one_line_error(err, "--json:", "more than 4,300 digits")


def test_a_key_given_twice_in_json_is_refused():
    text = '{"A": {"player": "max", "children": ["B", "C"]}, "B": 3, "C": 4, "B": 5}'
    with pytest.raises(ValueError, match="gives the key 'B' twice"):
        gt.tree_from_dict(text)
    assert "gives the key 'B' twice" in gt.explore().set_tree(text)


class _Stuck(gt.Game):
    """'start' -> 'a' (not terminal, but no moves) or 'b' (terminal)."""

    initial = "start"

    def to_move(self, state):
        return "max" if state == "start" else "min"

    def actions(self, state):
        return ["a", "b"] if state == "start" else []

    def result(self, state, move):
        return move

    def is_terminal(self, state):
        return state == "b"

    def utility(self, state):
        return 1


@pytest.mark.parametrize("search", [gt.minimax, gt.alphabeta, gt.negamax, gt.expectimax,
                                    lambda g: gt.alphabeta(g, table=True), lambda g: gt.minimax(g, depth=3, evaluate=lambda s: 0)])
def test_a_state_that_is_not_terminal_but_has_no_moves_is_named(search):
    with pytest.raises(ValueError, match=r"state 'a' is not terminal .* but has no moves"):
        search(_Stuck())


def test_replay_names_its_own_options():
    r = gt.alphabeta(gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    with pytest.raises(TypeError, match=r"gt.replay\(\) got an unexpected option step=: its options are result, start"):
        gt.replay(r, step=1)
    with pytest.raises(ValueError, match=r"start must be an event index in 0..25, got -5"):
        gt.replay(r, start=-5)


def test_a_list_as_a_node_label_is_refused():
    with pytest.raises(TypeError, match=r"node 'A' has the label \['x'\] \(list\)"):
        gt.tree_from_dict({"A": {"player": "max", "children": ["B"], "label": ["x"]}, "B": 3})


def test_random_tree_refuses_true_as_a_value_bound():
    with pytest.raises(ValueError, match=r"values must be a \(lo, hi\) pair of ints"):
        gt.random_tree(depth=2, branching=2, values=(True, 5))


def test_the_command_line_refuses_an_option_given_twice_and_an_empty_seed(tmp_path):
    code, out, err = cli("export", "--tree", "[1,2]", "--tree", "[3,4]", "--answer", "a.svg", cwd=tmp_path)
    assert code == 2
    one_line_error(err, "--tree: given twice")
    code, out, err = cli("export", "--seed", "", "--answer", "a.svg", cwd=tmp_path)
    assert code == 2
    one_line_error(err, "empty seed")
    assert not (tmp_path / "a.svg").exists()


# -- nothing is lost ----------------------------------------------------------------------------

def test_export_never_writes_over_its_json_input(tmp_path):
    (tmp_path / "tree.tex").write_text("[[3, 12], [2, 4]]")
    code, out, err = cli("export", "--json", "tree.tex", "--question", "tree.tex", cwd=tmp_path)
    assert code == 2
    one_line_error(err, "'tree.tex' is the --json input file")
    code, out, err = cli("export", "--json", "tree.tex", "--question", "tree.tex", "--force", cwd=tmp_path)
    assert code == 2
    assert (tmp_path / "tree.tex").read_text() == "[[3, 12], [2, 4]]"


@pytest.mark.parametrize("name", ["a.svg", "a.tex", "a.png", "a.pdf", "a.tikz"])
def test_export_overwrites_its_own_output_but_another_file_only_with_force(tmp_path, name):
    code, out, err = cli("export", "--tree", "[[1,2],[3,4]]", "--answer", name, cwd=tmp_path)
    assert code == 0, err
    code, out, err = cli("export", "--tree", "[[5,6],[7,8]]", "--answer", name, cwd=tmp_path)
    assert code == 0, err  # its own earlier output: replaced
    (tmp_path / name).write_bytes(b"the instructor's own file")
    code, out, err = cli("export", "--tree", "[[1,2],[3,4]]", "--answer", name, cwd=tmp_path)
    assert code == 2
    one_line_error(err, f"'{name}' exists and was not written by an export: give --force")
    assert (tmp_path / name).read_bytes() == b"the instructor's own file"
    code, out, err = cli("export", "--tree", "[[1,2],[3,4]]", "--answer", name, "--force", cwd=tmp_path)
    assert code == 0 and (tmp_path / name).read_bytes() != b"the instructor's own file"


def test_an_animation_is_its_own_output_too(tmp_path):
    result = gt.alphabeta(gt.tree_from_nested([1, 2]))
    from gametrees.exports.files import is_own_output

    assert is_own_output(gt.animate(result, tmp_path / "a.gif"))


# -- the search docstring -----------------------------------------------------------------------

def test_a_depth_limited_search_after_a_deeper_one_can_differ_as_the_docs_say():
    game = gt.TicTacToe()
    state = game.result(game.result(game.initial, 6), 7)
    zero = lambda s: 0  # noqa: E731
    fresh = gt.alphabeta(game, state, depth=2, evaluate=zero).value
    table = {}
    gt.alphabeta(game, state, depth=6, evaluate=zero, table=table)
    reused = gt.alphabeta(game, state, depth=2, evaluate=zero, table=table).value
    assert fresh != reused  # the deeper entries stood in
    doc = gt.search.__doc__
    assert "always safe" not in doc
    assert "deeper entries stand" in " ".join(doc.split())


# -- nbval reads the cell tag that replaces the `# NBVAL_IGNORE_OUTPUT` comment ------------------

@pytest.mark.parametrize("tags,passes", [(["nbval-ignore-output"], True), ([], False)])
def test_nbval_ignores_the_output_of_a_cell_tagged_nbval_ignore_output(tmp_path, tags, passes):
    import nbformat

    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("print('today')", metadata={"tags": tags}, execution_count=1)
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="yesterday\n")]
    nb.cells = [cell]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = tmp_path / "tagged.ipynb"
    nbformat.write(nb, path)
    done = subprocess.run([sys.executable, "-m", "pytest", "--nbval", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
                           str(path)], capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False)
    assert (done.returncode == 0) == passes, done.stdout[-2000:]
