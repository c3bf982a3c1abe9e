"""The grader that decides grades outside the student's kernel, without nbgrader: the child, the verdicts,
the CLI edges.

The child interpreter (gametrees.classroom.sandbox) is driven directly with
learner code that tries to reach around it; ``decide`` is run on notebooks
built from the released student versions. The nbgrader course with the real
exchange is tests/test_classroom_flow.py.
"""

import json
import math
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

import gametrees as gt
from gametrees import assignments as ga
from gametrees.classroom.questions import ASSIGNMENTS, exercises_for
from gametrees.classroom.sandbox import CallTimedOut, Sandbox
from gametrees.classroom.verdicts import decide, literal_answer

pytestmark = pytest.mark.sandbox   # the grader's child process, driven directly with learner code

ROOT = Path(__file__).resolve().parents[1]
INSTRUCTOR = ROOT / "instructor" / "assignments"
STUDENT = ROOT / "notebooks" / "assignments"
TEXTBOOK = gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])

ATTEMPTS = '''
import math, sys, os

def plain(game, state):
    if game.is_terminal(state):
        return game.utility(state)
    vals = [plain(game, game.result(state, m)) for m in game.actions(state)]
    return max(vals) if game.to_move(state) == "max" else min(vals)

def library(game, state):
    import gametrees
    return gametrees.minimax(game, state).value

def library_by_name(game, state):
    return __import__("game" + "trees").minimax(game, state).value

def read_package(game, state):
    return open(sys.argv[0] if sys.argv else "x").read()

def list_folder(game, state):
    return os.listdir(".")

def shell(game, state):
    return os.system("true")

def fork(game, state):
    return os.fork()

def tracing(game, state):
    sys.settrace(None)
    return 3

def thread(game, state):
    sys.modules["_thread"].start_new_thread(print, ())
    return 3

def ctypes_(game, state):
    import ctypes
    return 3

def environment(game, state):
    os.environ["NBGRADER_EXECUTION"] = "autograde"
    os.putenv("X", "1")
    return 3

def anything(game, state):
    class Anything:
        def __eq__(self, other):
            return True
    return Anything()

def subclass(game, state):
    class Three(int):
        def __eq__(self, other):
            return True
    return Three(3)

def forever(game, state):
    while True:
        pass

def swallow(game, state):
    try:
        import gametrees
    except BaseException:
        pass
    return plain(game, state)

def channel(game, state):
    sys.__stdout__.write("not the protocol\\n")
    sys.__stdout__.flush()
    return 3
'''
NAMES = ["plain", "library", "library_by_name", "read_package", "list_folder", "shell", "fork", "tracing",
         "thread", "ctypes_", "environment", "anything", "subclass", "forever", "swallow", "channel"]


@pytest.fixture
def box():
    with Sandbox([("attempts", ATTEMPTS)], NAMES, call_limit=1.5) as b:
        yield b


def _outcome(box, name):
    game = gt.TreeGame(TEXTBOOK)
    try:
        return box.functions[name](game, game.initial)
    except Exception as exc:  # noqa: BLE001
        return exc


def test_a_learners_function_runs_in_the_child_and_reaches_the_game_through_the_pipe(box):
    from gametrees.exercises.code_checks.harness import CountingTree

    game = CountingTree(TEXTBOOK)
    assert box.functions["plain"](game, game.initial) == 3
    assert len(game.evaluated) == 9  # every leaf it evaluated went through the grader's game
    assert str(box.functions["plain"].__signature__) == "(game, state)"
    assert gt.exercises.check_minimax(box.functions["plain"]).ok


@pytest.mark.parametrize("name, event", [
    ("library", "import"), ("library_by_name", "import"), ("read_package", "open"), ("list_folder",
                                                                                     "os.listdir"),
    ("shell", "os.system"), ("fork", "os.fork"), ("tracing", "sys.settrace"), ("thread",
                                                                               "_thread.start_new_thread"),
    ("ctypes_", "import"), ("environment", "os.putenv"),
])
def test_every_way_around_the_child_is_refused_and_recorded(box, name, event):
    out = _outcome(box, name)
    assert isinstance(out, PermissionError) and "refused while grading" in str(out), (name, out)
    assert any(e == event and phase == "call" for e, _, phase in box.refused), box.refused


def test_a_refusal_swallowed_by_the_learners_code_is_still_recorded(box):
    assert _outcome(box, "swallow") == 3
    assert [(e, d) for e, d, _ in box.refused] == [("import", "'gametrees'")]


@pytest.mark.parametrize("name", ["anything", "subclass"])
def test_objects_with_a_rigged_eq_cannot_be_returned(box, name):
    out = _outcome(box, name)
    assert isinstance(out, TypeError) and "not a number, string" in str(out)


def test_a_function_that_never_returns_is_stopped_and_named(box):
    with pytest.raises(CallTimedOut, match=r"your function forever\(\) did not return within 1.5 s"):
        _outcome(box, "forever")


def test_writing_to_the_grading_channel_breaks_only_that_call(box):
    from gametrees.classroom.sandbox import ChildBroken

    with pytest.raises(ChildBroken, match="wrote to the grader's channel"):
        _outcome(box, "channel")


def test_the_child_never_loaded_gametrees():
    probe = ("import sys\ndef mods():\n"
             "    return sorted(m for m in sys.modules if 'gametrees' in m or m == 'site')\n"
             "def stdlib():\n"
             "    import itertools, functools, collections, heapq, random, dataclasses, typing\n"
             "    return sum(itertools.accumulate(heapq.nsmallest(2, collections.Counter('aab')\n"
             "                                                    .values())))\n")
    with Sandbox([("probe", probe)], ["mods", "stdlib"]) as b:
        assert b.functions["mods"]() == []
        assert b.functions["stdlib"]() == 4 and not b.refused  # the standard modules a learner may use


def test_answers_by_hand_are_read_as_literals():
    cells = [("1", 'def a():\n    """doc"""\n    return {"A": 3, "B": (-math.inf, 2.5), "C": "≤ 2"}\n'),
             ("2", "def b():\n    # YOUR CODE HERE\n    raise NotImplementedError()\n"),
             ("3", "def c():\n    return pruning.solution()\n"),
             ("4", "def d():\n    return [1]\nd = lambda: [2]\n")]
    assert literal_answer(cells, "a") == ("literal", {"A": 3, "B": (-math.inf, 2.5), "C": "≤ 2"})
    assert literal_answer(cells, "b") == ("unanswered", None)
    assert literal_answer(cells, "c") == ("code", None)
    assert literal_answer(cells, "d") == ("code", None)  # rebound later: it must run


def _student_version(key):
    return nbformat.read(STUDENT / f"{ASSIGNMENTS[key].notebook}.ipynb", as_version=4)


def _answer(nb, grade_id, source):
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == grade_id:
            cell.source = source
    return nb


def test_a_blank_student_version_scores_nothing_and_is_unanswered():
    v = decide(_student_version("A2"), "jdoe", kernel=False)
    assert v.earned == 0 and v.points == 11
    assert {x.status for x in v.verdicts} == {"unanswered"} and not v.flags


def test_the_grade_depends_on_the_id_given_never_on_one_typed():
    right = exercises_for("A2", "jdoe")["pruning"].solution()
    nb = _answer(_student_version("A2"), "a2-q1-answer", f"def pruned_leaves():\n    return {right!r}")
    assert decide(nb, "jdoe", kernel=False).verdicts[0].earned == 2
    for cell in nb.cells:
        if cell.source.startswith("STUDENT_ID"):
            cell.source = 'STUDENT_ID = "jdoe"'
    other = decide(nb, "someone", kernel=False)
    if exercises_for("A2", "someone")["pruning"].solution() != right:
        assert other.verdicts[0].earned == 0
    assert "the id typed in the notebook ('jdoe') is not the submission's ('someone')" in other.flags[0]


def test_the_graders_exercises_are_the_ones_the_notebooks_build():
    for key, a in ASSIGNMENTS.items():
        nb = nbformat.read(INSTRUCTOR / f"{a.notebook}.ipynb", as_version=4)
        trees = next((c.source for c in nb.cells
                      if c.metadata.get("nbgrader", {}).get("grade_id") == f"{key.lower()}-trees"), None)
        ours = exercises_for(key, "jdoe")
        if trees is None:
            assert ours == {}
            continue
        space = {"gt": gt, "ga": ga, "STUDENT_ID": "jdoe", "print": lambda *a, **k: None}
        exec(trees.replace("ga.protect(", "(lambda *a: None)("), space)
        for name, ex in ours.items():
            assert ex.solution() == space[name].solution()
            assert ex.key.split("#")[0] == space[name].key.split("#")[0]
        for q in a.questions.values():  # every grade cell's source is the one the table knows
            cell = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == q.grade_id)
            assert q.matches(cell.source), q.grade_id


def test_the_student_versions_are_the_release_of_the_instructor_versions(tmp_path):
    written = ga.release(INSTRUCTOR, tmp_path)
    for path in written:
        assert json.loads(path.read_text()) == json.loads((STUDENT / path.name).read_text()), path.name
    from gametrees.classroom.releases import holds_answers

    for path in STUDENT.glob("*.ipynb"):
        nb = json.loads(path.read_text())
        assert holds_answers(path) is None and "widgets" not in nb["metadata"]
        code = [("".join(c["source"]), c) for c in nb["cells"] if c["cell_type"] == "code"]
        assert not any("BEGIN SOLUTION" in src or ".solution()" in src or c.get("outputs") for src, c in code)


def test_release_refuses_to_write_over_solutions_or_answers_even_with_force(tmp_path, capsys):
    course = tmp_path / "course" / "source" / "A2"
    course.mkdir(parents=True)
    (course / "A2_alpha_beta.ipynb").write_text((INSTRUCTOR / "A2_alpha_beta.ipynb").read_text())
    before = (course / "A2_alpha_beta.ipynb").read_bytes()
    assert ga.main(["release", str(STUDENT), str(course), "--force"]) == 2
    assert "holds solutions" in capsys.readouterr().err
    assert (course / "A2_alpha_beta.ipynb").read_bytes() == before
    answered = tmp_path / "mine"
    answered.mkdir()
    nb = _answer(_student_version("A2"), "a2-q1-answer", "def pruned_leaves():\n    return ['I']")
    nbformat.write(nb, answered / "A2_alpha_beta.ipynb")
    with pytest.raises(ValueError, match="holds answers"):
        ga.release(INSTRUCTOR / "A2_alpha_beta.ipynb", answered, force=True)
    fresh = tmp_path / "fresh"
    ga.release(INSTRUCTOR, fresh)
    assert len(ga.release(INSTRUCTOR, fresh, force=True)) == 3  # its own cleared output: allowed


@pytest.mark.slow
def test_command_line_edges_are_one_line_and_exit_2(tmp_path, capsys):
    """Issue 20's classroom edges: each a one-line error, exit 2, nothing written over."""
    afile = tmp_path / "afile"
    afile.write_text("x")
    sub = tmp_path / "sub.ipynb"
    nbformat.write(_student_version("A1"), sub)
    other = tmp_path / "tree.json"
    other.write_text("{}")
    course = tmp_path / "course"
    (course / "autograded" / "s1" / "A2").mkdir(parents=True)
    before = sub.read_bytes()
    cases = [
        ("grade", str(tmp_path)),                                   # a folder
        ("grade", str(sub), "--save", str(sub)),                    # its own input
        ("grade", str(sub), "--save", "/missing/x.ipynb"),          # checked before running anything
        ("grade", str(sub), "--save", str(other)),                  # not a notebook name
        ("release", str(INSTRUCTOR), str(afile / "x")),             # under a file
        ("report", str(course), "A2", "--out", str(afile)),
        ("report", str(course), "A2", "--out", "/proc/x"),
        ("report", str(course), "../s2/A2"),
        ("autograde", str(tmp_path / "nowhere"), "A2"),
        ("autograde", str(course), "A2", "--jobs", "0"),
    ]
    for args in cases:
        code = ga.main(list(args))  # an uncaught exception (a traceback, exit 1) fails the test here
        out, err = capsys.readouterr()
        assert code == 2, (args, out, err)
        assert err.startswith("error: ") and len(err.strip().splitlines()) == 1, (args, err)
        assert "Traceback" not in err
    assert afile.read_text() == "x" and other.read_text() == "{}" and sub.read_bytes() == before
    done = subprocess.run([sys.executable, "-m", "gametrees.assignments", "report", str(course), "../s2/A2"],
                          capture_output=True, text=True, timeout=120)  # and as a process
    assert done.returncode == 2 and done.stderr.startswith("error: ") and len(done.stderr.splitlines()) == 1


@pytest.mark.slow
def test_grade_saves_next_to_its_own_earlier_output_but_not_over_a_stranger(tmp_path):
    sub = tmp_path / "sub.ipynb"
    nbformat.write(_student_version("A1"), sub)
    before = sub.read_bytes()
    out = tmp_path / "graded.ipynb"
    report = ga.grade(sub, student="jdoe", save=out)
    assert report.score == 0 and report.total == 9 and out.is_file() and sub.read_bytes() == before
    assert all(c["verdict"]["status"] == "unanswered" for c in report.cells)
    ga.grade(sub, student="jdoe", save=out)  # its own earlier output: replaced
    stranger = tmp_path / "stranger.ipynb"
    nbformat.write(_student_version("A2"), stranger)
    with pytest.raises(ValueError, match="not an earlier output of grade: give --force"):
        ga.grade(sub, student="jdoe", save=stranger)


def test_a_check_in_the_kernel_stops_a_function_that_never_returns(monkeypatch):
    monkeypatch.setenv("GAMETREES_CHECK_LIMIT", "1")

    def alphabeta_value(game, state, alpha, beta):
        while True:
            pass

    fb = ga.check_code(gt.exercises.check_alphabeta, alphabeta_value)
    assert not fb.ok and "your function did not return within 1 s" in repr(fb)


def test_under_the_graders_autograde_the_kernels_costly_checks_defer_and_score_nothing(monkeypatch):
    monkeypatch.setenv("GAMETREES_CLEAN_GRADER", "1")
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    fb = ga.check_code(gt.exercises.check_minimax, lambda game, state: 0)
    s = ga.score(fb, 4)
    assert s.earned == 0 and s._repr_mimebundle_()["text/plain"] == "0" and s.record()["deferred"]
    assert "decided by the grader outside this notebook" in repr(s)
    monkeypatch.delenv("NBGRADER_EXECUTION")  # not autograding: the check runs
    assert not ga.check_code(gt.exercises.check_minimax, lambda game, state: 0).ok


MEMO_ATTEMPTS = '''
def repeats(game, state):
    """Asks the pure methods again and again, evaluates each leaf twice, changes the lists it is given."""
    for _ in range(5):
        game.is_terminal(state)
    if game.is_terminal(state):
        return game.utility(state) + 0 * game.utility(state)
    for _ in range(5):
        game.to_move(state)
    moves = game.actions(state)
    moves.clear()  # a learner's change to a returned list is its own copy
    vals = [repeats(game, game.result(state, m)) for m in game.actions(state)]
    return max(vals) if game.to_move(state) == "max" else min(vals)

def hidden(game, state, alpha=None, beta=None):
    """Makes its proxy answer utility from the child's memo too, then searches every leaf twice."""
    object.__setattr__(game, "_pure", frozenset({"utility", "is_terminal", "to_move", "actions", "result"}))
    def full(s):
        if game.is_terminal(s):
            return game.utility(s)
        vals = [full(game.result(s, m)) for m in game.actions(s)]
        return max(vals) if game.to_move(s) == "max" else min(vals)
    full(state)
    return full(state)

def spins(game, state):
    while True:
        game.to_move(state)
'''


@pytest.mark.slow
def test_repeated_pure_calls_are_answered_in_the_child_but_every_leaf_is_seen_by_the_grader():
    from gametrees.exercises.code_checks.harness import CountingTicTacToe, CountingTree

    # a call limit far above the time 50,000 calls take even on a loaded machine: the budget must stop it
    with Sandbox([("memo", MEMO_ATTEMPTS)], ["repeats", "hidden", "spins"], call_limit=60) as box:
        game = CountingTree(TEXTBOOK)
        assert box.functions["repeats"](game, game.initial) == 3
        assert len(game.evaluated) == 18  # utility is never answered from the memo: twice per leaf, both seen
        assert len(game.generated) == 12  # nor result on a tree game (the checks read the children generated)
        ttt = CountingTicTacToe()
        state = gt.TicTacToe.from_string("XOX/OO./X..")
        assert box.functions["repeats"](ttt, state) == gt.minimax(gt.TicTacToe(), state).value
        assert len(ttt.evaluated) == 2 * gt.minimax(gt.TicTacToe(), state).stats["leaves_evaluated"]
        # A learner who makes the proxy answer utility from the child's memo hides only repeats: the first
        # evaluation of every leaf still came from (and is recorded by) the grader's game.
        game = CountingTree(TEXTBOOK)
        assert box.functions["hidden"](game, game.initial) == 3
        leaves = [n for n in TEXTBOOK.nodes if TEXTBOOK.out_degree(n) == 0]
        assert list(dict.fromkeys(game.evaluated)) == leaves
        fb = gt.exercises.check_alphabeta(box.functions["hidden"])
        assert not fb.ok and "leaves" in repr(fb)  # it evaluates every leaf: not alpha-beta
        # A loop on pure calls still meets the grader's budget of calls (not only the time limit).
        out = gt.exercises.check_minimax(box.functions["spins"])
        assert not out.ok and "made more than 50,000 calls to the game" in repr(out)


@pytest.mark.slow
def test_the_verdicts_prepared_while_the_kernel_runs_are_the_ones_decided_after_it():
    from gametrees.classroom import autograding
    from gametrees.classroom.limits import deferred
    from gametrees.classroom.verdicts import finish, prepare

    nb = nbformat.read(INSTRUCTOR / "A1_minimax.ipynb", as_version=4)
    for cell in nb.cells:
        cell.pop("outputs", None) if cell.cell_type != "code" else cell.update(outputs=[])
    assert StartVerdictsFirst(autograding.preprocessors())
    resources = {"nbgrader": {"student": "jdoe", "assignment": "A1", "notebook": "A1_minimax", "db_url": "x"}}
    import os
    os.environ.update({"GAMETREES_CLEAN_GRADER": "1", "NBGRADER_EXECUTION": "autograde"})
    try:
        # what a kernel started now sees: the grader's thread does not change the environment
        assert deferred()
        autograding.StartVerdicts().preprocess(nb, resources)
        prepared = autograding._prepared(resources, nb, autograding.CALL_LIMIT)
        assert deferred()
    finally:
        for k in ("GAMETREES_CLEAN_GRADER", "NBGRADER_EXECUTION"):
            os.environ.pop(k)
    assert prepared is not None
    ours, direct = finish(prepared, nb, kernel=False), decide(nb, "jdoe", kernel=False)
    assert [v.record() for v in ours.verdicts] == [v.record() for v in direct.verdicts]
    earned = {v.grade_id: v.earned for v in ours.verdicts}
    # the code checks ran: not deferred to itself
    assert earned["a1-q3-check"] == 4 and earned["a1-q4-check"] == 2
    # A notebook whose sources changed after the verdicts were prepared is decided again.
    with pytest.raises(ValueError, match="not the one prepared"):
        finish(prepare(nb, "jdoe"), nbformat.from_dict({**nb, "cells": nb.cells[:-1]}))


def StartVerdictsFirst(steps):
    from gametrees.classroom.autograding import CleanGrades, StartVerdicts

    return steps[0] is StartVerdicts and CleanGrades in steps and steps.index(CleanGrades) > 1


@pytest.mark.slow
def test_a_tournament_asks_the_evaluation_once_per_position_and_plays_the_same_games():
    from gametrees.classroom.connect_four import check_tournament
    from gametrees.classroom.verdicts import once_per_position

    source = ("def evaluate(state):\n    x, o = state\n    centre = sum(1 << (3 * 7 + r) for r in range(6))\n"
              "    return (bin(x & centre).count('1') - bin(o & centre).count('1')) / 100\n")
    with Sandbox([("eval", source)], ["evaluate"], call_limit=5) as box:
        fn = box.functions["evaluate"]
        before = box.calls
        plain = check_tournament(fn, "weak", games=4, seed=7)
        asked = box.calls - before
        once = check_tournament(once_per_position(fn), "weak", games=4, seed=7)
        assert box.calls - before - asked < asked  # fewer round trips to the child
    assert [r.moves for r in once.result.records] == [r.moves for r in plain.result.records]
    assert once.lines == plain.lines


@pytest.mark.slow
def test_a_value_function_that_never_returns_costs_its_own_question_only():
    """A2's q5 is graded with a correct alphabeta_value in place of the learner's: when theirs (q4) never
    returns, q4 scores 0 (stopped at the call limit) and q5 is checked again in a fresh child with the
    correct one only."""
    from gametrees.classroom.verdicts import decide

    nb = nbformat.read(INSTRUCTOR / "A2_alpha_beta.ipynb", as_version=4)
    for cell in nb.cells:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "a2-q4-answer":
            cell.source = "def alphabeta_value(game, state, alpha, beta):\n    while True:\n        pass\n"
    verdict = {v.grade_id: v for v in decide(nb, "jdoe", call_limit=2, kernel=False).verdicts}
    q4, q5 = verdict["a2-q4-check"], verdict["a2-q5-check"]
    assert q4.earned == 0 and "alphabeta_value() did not return within 2 s" in " ".join(q4.errors)
    assert q5.earned == q5.points == 2, repr(q5.feedback)
    assert "with your own alphabeta_value, it did not finish" in repr(q5.feedback)
