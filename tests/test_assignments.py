"""The assignments (instructor/assignments/): instructor versions, student versions, wrong answers, nbgrader.

* The instructor versions (stored executed; nbval re-runs them) pass every check, and again for another
  student's trees.
* The student versions (solutions cleared with nbgrader's ClearSolutions, by ``gametrees.assignments
  .release``) run top to bottom: no cell errors except the checks, which fail with feedback that says what
  to do, never a bare traceback. Student versions are made here, in a temporary folder, and never stored
  in notebooks/: nbval would run them and record failing checks as errors in the suite.
* Wrong-but-plausible solutions are caught with a message that names the mistake.
* nbgrader's own pipeline (``generate_assignment``, ``autograde``) accepts the notebooks, and the
  autograder checks a submission against the trees of the student it is filed under.

Each notebook version is executed once (module-scoped fixtures).
"""

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

import gametrees as gt
from gametrees import assignments as ga
from gametrees.classroom.connect_four import tournament_seed
from gametrees.classroom.grading import environment, execute, record
from gametrees.classroom.verdicts import decide

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "instructor" / "assignments"
NAMES = {"A1": "A1_minimax", "A2": "A2_alpha_beta", "A3": "A3_connect_four_evaluation"}
POINTS = {"A1": 9, "A2": 11, "A3": 8}


def read(key):
    return nbformat.read(FOLDER / f"{NAMES[key]}.ipynb", as_version=4)


def cell(nb, grade_id):
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def run(nb, cwd, student=None):
    """Execute ``nb`` in place (errors allowed), as ``student``."""
    with environment(**{ga.ENV_VAR: student, "NBGRADER_EXECUTION": None}):
        execute(nb, cwd, timeout=120)
    return nb


def outcome(nb):
    """``{grade_id or index: (is a test cell, error output or None, text of all outputs,
    the check's record)}``.

    A graded check's record (see ``ga.score``) holds its feedback as text (``"text"``), what nbgrader
    scores (``"earned"``), the misconceptions it named, its flags and id warnings.
    """
    out = {}
    for i, c in enumerate(nb.cells):
        if c.cell_type != "code":
            continue
        meta = c.metadata.get("nbgrader", {})
        err = next((o for o in c.outputs if o.output_type == "error"), None)
        text = "".join(o.get("text", "") + o.get("data", {}).get("text/plain", "") for o in c.outputs)
        out[meta.get("grade_id", i)] = (bool(meta.get("grade")), err, text, record(c.outputs))
    return out


def with_solution(nb, grade_id, source):
    """A copy of ``nb`` whose answer cell ``grade_id`` holds ``source`` (a student's answer)."""
    nb = nbformat.from_dict(json.loads(json.dumps(nb)))
    cell(nb, grade_id).source = source
    return nb


# ----------------------------------------------------------------------------
# The instructor versions
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("key", NAMES)
def test_instructor_version_is_an_nbgrader_source(key):
    nb = read(key)
    ids = []
    for c in nb.cells:
        meta = c.metadata.get("nbgrader")
        if meta is None:
            assert c.source.startswith("STUDENT_ID = "), f"only the id cell is left free: {c.source[:40]!r}"
            continue
        assert meta["schema_version"] == 3 and not meta["task"]
        ids.append(meta["grade_id"])
        has_region = "### BEGIN SOLUTION" in c.source
        assert has_region == meta["solution"], meta["grade_id"]
        if meta["solution"]:
            assert c.source.count("### END SOLUTION") == 1 and not meta["locked"] and not meta["grade"]
            # Inside a function: the student version still runs top to bottom.
            region = c.source.split("### BEGIN SOLUTION")[0].splitlines()[-1]
            assert region.startswith("    ") and c.source.startswith("def ")
        if meta["grade"]:
            assert meta["locked"] and meta["points"] > 0
            # the check's result is the cell's value: feedback and points, no traceback (see ga.score)
            last = c.source.splitlines()[-1]
            assert last.startswith("ga.score(") and last.endswith(f", {meta['points']})"), last
        if c.cell_type == "code" and ("gt.practice(" in c.source or "gt.play(" in c.source):
            assert (c.source.startswith("# NBVAL_IGNORE_OUTPUT")  # widgets: INSTRUCTORS.md, section 7
                    or "nbval-ignore-output" in c.metadata.get("tags", []))  # (the cell tag nbval reads)
    assert len(ids) == len(set(ids)), "grade ids must be unique"
    total = sum(c.metadata["nbgrader"].get("points", 0) for c in nb.cells
                if c.metadata.get("nbgrader", {}).get("grade"))
    assert total == POINTS[key]


@pytest.mark.parametrize("key", NAMES)
def test_instructor_version_was_saved_with_every_check_passing(key):
    results = outcome(read(key))
    checks = {k: v for k, v in results.items() if v[0]}
    assert len(checks) >= 3
    assert not [k for k, v in results.items() if v[1] is not None]
    for grade_id, (_, _, text, rec) in checks.items():
        assert text.lstrip().startswith(("✓", "ConnectFour")), (grade_id, text[:80])
        assert "✗" not in text, grade_id
        assert rec["ok"] and rec["earned"] == rec["points"], grade_id


@pytest.fixture(scope="module")
def other_student(tmp_path_factory):
    """A2, instructor version, run for a student other than the default (A1: see the nbgrader test)."""
    tmp = tmp_path_factory.mktemp("other")
    return {"A2": run(read("A2"), tmp, student="s7654321")}


@pytest.mark.slow
@pytest.mark.parametrize("key", ["A2"])
def test_instructor_version_passes_for_another_students_trees(other_student, key):
    results = outcome(other_student[key])
    assert not [k for k, v in results.items() if v[1] is not None]
    assert "made from the id 's7654321'" in results[f"{key.lower()}-trees"][2]
    tree_cell = "a1-q1-tree" if key == "A1" else "a2-tree"
    assert results[tree_cell][2] != outcome(read(key))[tree_cell][2]  # another tree


# ----------------------------------------------------------------------------
# Student versions
# ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def released(tmp_path_factory):
    out = tmp_path_factory.mktemp("student")
    paths = ga.release(FOLDER, out)
    return {key: out / f"{name}.ipynb" for key, name in NAMES.items()}, paths


def test_release_clears_solutions_and_outputs(released):
    paths, written = released
    assert sorted(p.name for p in written) == sorted(f"{n}.ipynb" for n in NAMES.values())
    for key, path in paths.items():
        nb = nbformat.read(path, as_version=4)
        instructor = read(key)
        assert len(nb.cells) == len(instructor.cells)
        for c, orig in zip(nb.cells, instructor.cells):
            assert "BEGIN SOLUTION" not in c.source and "END SOLUTION" not in c.source
            if c.cell_type == "code":
                assert c.outputs == [] and c.execution_count is None
            meta = c.metadata.get("nbgrader", {})
            if meta.get("solution"):
                assert c.source.endswith("    # YOUR CODE HERE\n    raise NotImplementedError()")
                assert c.source.split("\n")[0] == orig.source.split("\n")[0]  # the def line stays
            if meta.get("locked"):
                assert c.metadata["editable"] is False and c.metadata["deletable"] is False
                assert "checksum" in meta
            if meta.get("grade"):
                assert c.source == orig.source  # the checks stay as they are


def test_release_refuses_bad_paths(tmp_path):
    with pytest.raises(ValueError, match="no notebooks"):
        ga.release(tmp_path, tmp_path / "out")
    with pytest.raises(ValueError, match="not found"):
        ga.release(tmp_path / "missing.ipynb", tmp_path / "out")
    bad = read("A1")
    cell(bad, "a1-setup").source += "\n### BEGIN SOLUTION\nx = 1\n### END SOLUTION"
    nbformat.write(bad, tmp_path / "bad.ipynb")
    with pytest.raises(ValueError, match="non-solution cell"):
        ga.release(tmp_path / "bad.ipynb", tmp_path / "out")


@pytest.fixture(scope="module")
def student_grades(released, tmp_path_factory):
    """Each student version run once, by ``grade`` (as the default student): (report, executed notebook)."""
    paths, _ = released
    out = tmp_path_factory.mktemp("graded")
    runs = {}
    for key, path in paths.items():
        report = ga.grade(path, save=out / path.name)
        runs[key] = (report, nbformat.read(out / path.name, as_version=4))
    return runs


@pytest.fixture(scope="module")
def student_runs(student_grades):
    return {key: nb for key, (_, nb) in student_grades.items()}


# What each unanswered check says (the assertion message the student sees).
UNANSWERED = {
    "a1-q1-check": "not answered yet",
    "a1-q2-check": "not answered yet",
    "a1-q3-check": "minimax_value still raises NotImplementedError",
    "a1-q4-check": "best_move still raises NotImplementedError",
    "a2-q1-check": "still raises NotImplementedError: replace the two lines",
    "a2-q2-check": "not answered yet",
    "a2-q3-check": "not answered yet",
    "a2-q4-check": "alphabeta_value still raises NotImplementedError",
    "a2-q5-check": "alphabeta_best_move still raises NotImplementedError",
    "a3-check-positions": "evaluate still raises NotImplementedError",
    "a3-check-random": "write it first (no game was played)",
    "a3-check-weak": "write it first (no game was played)",
}


@pytest.mark.nbgrader
@pytest.mark.parametrize("key", NAMES)
def test_student_version_runs_and_every_check_fails_helpfully(student_runs, key):
    results = outcome(student_runs[key])
    broken = {k: v[1]["ename"] for k, v in results.items() if v[1] is not None and not v[0]}
    assert broken == {}, f"cells other than the checks failed: {broken}"
    checks = {k: v for k, v in results.items() if v[0]}
    assert checks and not [k for k, v in checks.items() if v[1] is not None], \
        "a check fails without a traceback"
    for grade_id, (_, _, text, rec) in checks.items():
        assert text == "0" and not rec["ok"] and rec["earned"] == 0  # nbgrader: no point
        message = rec["text"]
        assert message.startswith("✗"), message[:80]  # feedback, formatted as when it passes
        assert UNANSWERED[grade_id] in message, (grade_id, message)
        assert message.splitlines()[-1].startswith(f"✗ 0 of {rec['points']:g} points")
        if grade_id != "a3-check-positions":  # no id typed: every check of the student's own variant says so
            assert "No student id" in message, grade_id


@pytest.mark.nbgrader
@pytest.mark.parametrize("key", NAMES)
def test_grade_scores_the_student_version_like_nbgrader(student_grades, key):
    report, _ = student_grades[key]
    assert report.student == "practice"
    assert (report.score, report.total) == (0, POINTS[key]) and not report.errors


@pytest.mark.nbgrader
def test_grade_reports_the_id_the_notebook_used(released, tmp_path, capsys):
    paths, _ = released
    nb = nbformat.read(paths["A1"], as_version=4)
    next(c for c in nb.cells if c.source.startswith("STUDENT_ID")).source = 'STUDENT_ID = " JDoe "'
    nbformat.write(nb, tmp_path / "A1_minimax.ipynb")
    assert ga.main(["grade", str(tmp_path / "A1_minimax.ipynb")]) == 1
    assert capsys.readouterr().out.startswith("A1_minimax.ipynb (student 'jdoe'): 0 of 9 points")


def test_grade_report_lists_each_check():
    report = ga.GradeReport(Path("A1_minimax.ipynb"), "s1", [
        {"grade_id": "a1-q1-check", "points": 2.0, "earned": 0.0, "error": "AssertionError",
         "message": "✗ Minimax values: not answered yet.\n✗ more"},
        {"grade_id": "a1-q2-check", "points": 1.0, "earned": 1.0, "error": None, "message": None}], [], 1.0)
    assert (report.score, report.total) == (1, 3)
    assert repr(report).splitlines() == [
        "A1_minimax.ipynb (student 's1'): 1 of 3 points",
        "✗ a1-q1-check: 0/2",
        "    AssertionError: ✗ Minimax values: not answered yet.",
        "✓ a1-q2-check: 1/1"]


# ----------------------------------------------------------------------------
# Wrong but plausible
# ----------------------------------------------------------------------------


A2_WRONG = {
    # Prunes on the wrong side: a MAX node compares with α and lowers β, a MIN node the reverse.
    "a2-q4-answer": '''
def alphabeta_value(game, state, alpha, beta):
    if game.is_terminal(state):
        return game.utility(state)
    if game.to_move(state) == "max":
        value = -math.inf
        for move in game.actions(state):
            value = max(value, alphabeta_value(game, game.result(state, move), alpha, beta))
            if value <= alpha:
                return value
            beta = min(beta, value)
        return value
    value = math.inf
    for move in game.actions(state):
        value = min(value, alphabeta_value(game, game.result(state, move), alpha, beta))
        if value >= beta:
            return value
        alpha = max(alpha, value)
    return value
''',
    # Searches every root child with a fresh window (with a right alpha-beta of its own).
    "a2-q5-answer": '''
def alphabeta_best_move(game, state):
    moves = game.actions(state)
    counted = []
    for move in moves:
        counted.append(_ab(game, game.result(state, move), -math.inf, math.inf))
    best = max(counted) if game.to_move(state) == "max" else min(counted)
    return moves[counted.index(best)]


def _ab(game, state, alpha, beta):
    if game.is_terminal(state):
        return game.utility(state)
    maximizing = game.to_move(state) == "max"
    value = -math.inf if maximizing else math.inf
    for move in game.actions(state):
        child = _ab(game, game.result(state, move), alpha, beta)
        if maximizing:
            value = max(value, child)
            if value >= beta:
                return value
            alpha = max(alpha, value)
        else:
            value = min(value, child)
            if value <= alpha:
                return value
            beta = min(beta, value)
    return value
''',
    # The strict rule's pruned leaves: the tie at I (11 ≥ β = 11) is not pruned.
    "a2-q1-answer": 'def pruned_leaves():\n    return ["Q", "R", "AG", "AH", "AI"]\n',
    # D's minimax value, where alpha-beta only learns a bound.
    "a2-q2-answer": ('def returned_values():\n    return {"A": 11, "B": 9, "C": 11, "D": 7, "E": 12, '
                     '"F": "≥ 15", "G": 9, "H": 11, "I": "≥ 11", "J": 13, "K": 9}\n'),
}


@pytest.fixture(scope="module")
def a2_wrong(tmp_path_factory):
    nb = read("A2")
    for grade_id, source in A2_WRONG.items():
        nb = with_solution(nb, grade_id, source.strip("\n"))
    return outcome(run(nb, tmp_path_factory.mktemp("a2wrong")))


@pytest.mark.slow
def test_a2_wrong_but_plausible_answers_are_named(a2_wrong):
    def message(grade_id):
        _, err, _, rec = a2_wrong[grade_id]
        assert err is None and not rec["ok"], grade_id
        return rec["text"]

    assert "You pruned with the strict rule; this exercise uses the textbook rule" in message("a2-q1-check")
    assert ("D: you wrote 7, the value D would have if every leaf below it were looked at"
            in message("a2-q2-check"))
    wrong_side = message("a2-q4-check")
    assert "the window it was given does not allow a cut" in wrong_side
    assert "compares the node's value with its own β (at MAX) or α (at MIN)" in wrong_side
    assert "searched each of the root's children with a fresh window" in message("a2-q5-check")
    assert a2_wrong["a2-q3-check"][3]["ok"]  # the right answer still passes
    assert "tie-rule" in a2_wrong["a2-q1-check"][3]["misconceptions"]
    assert "root-window-restart" in a2_wrong["a2-q5-check"][3]["misconceptions"]


@pytest.mark.slow
def test_a1_minimax_that_forgets_to_alternate_and_a_max_choice_at_a_min_root(tmp_path):
    nb = read("A1")
    tree2 = gt.exercises.generate("best_move", seed="practice/A1/2", difficulty="medium", root_player="min")
    worst = max(tree2.children, key=lambda c: tree2.result.graph.nodes[c]["value"])
    nb = with_solution(nb, "a1-q2-answer",
                       f"def best_move_at_root():\n    return {tree2.nodes.name(worst)!r}")
    nb = with_solution(nb, "a1-q3-answer", '''def minimax_value(game, state, maximizing=True):
    if game.is_terminal(state):
        return game.utility(state)
    values = [minimax_value(game, game.result(state, m), not maximizing) for m in game.actions(state)]
    return max(values) if maximizing else min(values)''')
    nb = with_solution(nb, "a1-q4-answer", '''def best_move(game, state):
    moves = game.actions(state)
    return max(moves, key=lambda m: minimax_value(game, game.result(state, m)))''')
    results = outcome(run(nb, tmp_path))
    q2 = results["a1-q2-check"][3]["text"]
    assert f"{tree2.nodes.name(worst)} is not MIN's best move" in q2
    assert f"MIN moves to {tree2.solution()}" not in q2  # the feedback does not hand over the answer
    q3 = results["a1-q3-check"][3]["text"]
    assert "turns that do not alternate (MIN moves twice in a row): 0 of 1 right" in q3
    assert "You took the largest value, but MIN picks the smallest. Ask whose turn it is" in q3
    q4 = results["a1-q4-check"][3]["text"]  # graded with a correct minimax_value: its own mistake shows
    assert "You chose what MAX would: at the root, ask game.to_move(state) who chooses" in q4
    assert "checked with a correct minimax_value in place of yours" in q4
    assert results["a1-q1-check"][3]["ok"]


@pytest.mark.slow
def test_a3_evaluation_from_os_side_is_named_and_loses(tmp_path):
    nb = read("A3")
    nb = with_solution(nb, "a3-answer", '''def evaluate(state):
    cells = board(state)
    score = 0
    for window in WINDOWS:
        marks = [cells[r][c] for r, c in window]
        xs, os = marks.count("X"), marks.count("O")
        if xs and os:
            continue
        score += {3: 5, 2: 2}.get(os, 0) - {3: 5, 2: 2}.get(xs, 0)   # O's windows count for: O's side
    return score / 1000''')
    results = outcome(run(nb, tmp_path))
    positions = results["a3-check-positions"][3]["text"]
    assert "your evaluation scores positions from O's point of view" in positions
    assert "Swap your X and O counts (or the sign)" in positions
    weak = results["a3-check-weak"][3]["text"]
    assert re.search(r"You won ([0-9]|1[0-2]) of 20 games \(at least 13 needed\)", weak)
    assert "an evaluation from the wrong viewpoint" in weak
    assert not [k for k, v in results.items() if v[1] is not None and not v[0]]


# ----------------------------------------------------------------------------
# nbgrader's own pipeline
# ----------------------------------------------------------------------------


_NBGRADER = """
import sys
from traitlets.config import Config
from nbgrader.apps import NbGraderAPI

config = Config()
config.CourseDirectory.root = sys.argv[1]
config.CourseDirectory.course_id = "gametrees"
api = NbGraderAPI(config=config)
for step in (lambda: api.generate_assignment("A1"), lambda: api.autograde("A1", "jdoe")):
    result = step()
    if not result["success"]:
        sys.exit(result["error"] + result["log"])
"""


@pytest.mark.nbgrader
def test_nbgrader_generates_and_autogrades_against_the_submitters_tree(tmp_path):
    pytest.importorskip("nbgrader")
    course = tmp_path / "course"
    (course / "source" / "A1").mkdir(parents=True)
    shutil.copy(FOLDER / "A1_minimax.ipynb", course / "source" / "A1")
    # jdoe's submission, made from our student version: question 1 answered for jdoe's own tree,
    # question 3 with a minimax that alternates by depth, and another student's id typed in.
    student = ga.release(FOLDER / "A1_minimax.ipynb", tmp_path / "student.ipynb")[0]
    mine = gt.exercises.generate("values", seed="jdoe/A1/1", difficulty="medium")
    answer = with_solution(nbformat.read(student, as_version=4), "a1-q1-answer",
                           f"def minimax_values():\n    return {mine.solution()!r}")
    answer = with_solution(answer, "a1-q3-answer", '''def minimax_value(game, state, maximizing=True):
    if game.is_terminal(state):
        return game.utility(state)
    values = [minimax_value(game, game.result(state, m), not maximizing) for m in game.actions(state)]
    return max(values) if maximizing else min(values)''')
    next(c for c in answer.cells if c.source.startswith("STUDENT_ID")).source = 'STUDENT_ID = "someone-else"'
    (course / "submitted" / "jdoe" / "A1").mkdir(parents=True)
    nbformat.write(answer, course / "submitted" / "jdoe" / "A1" / "A1_minimax.ipynb")
    # nbgrader generate_assignment A1, then nbgrader autograde A1 --student jdoe (one process: faster)
    env = {k: v for k, v in os.environ.items() if k not in (ga.ENV_VAR, "NBGRADER_EXECUTION")}
    out = subprocess.run([sys.executable, "-c", _NBGRADER, str(course)], capture_output=True, text=True,
                         timeout=300, env=env, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
    released = nbformat.read(course / "release" / "A1" / "A1_minimax.ipynb", as_version=4)
    ours = nbformat.read(student, as_version=4)
    assert [c.source for c in released.cells] == [c.source for c in ours.cells]  # release() == nbgrader's
    graded = outcome(nbformat.read(course / "autograded" / "jdoe" / "A1" / "A1_minimax.ipynb", as_version=4))
    assert "made from the id 'jdoe'" in graded["a1-trees"][2]  # the folder's id, not the typed one
    assert graded["a1-q1-check"][3]["ok"]
    assert "Ask whose turn it is" in graded["a1-q3-check"][3]["text"]
    assert any("'someone-else' typed in the notebook differs from the submission's folder 'jdoe'" in w
               for w in graded["a1-q1-check"][3]["warnings"])
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", course_id="gametrees") as gb:
        submission = gb.find_submission("A1", "jdoe")
        scores = {g.name: g.score for nb_ in submission.notebooks for g in nb_.grades}
        assert scores == {"a1-q1-check": 2, "a1-q2-check": 0, "a1-q3-check": 0, "a1-q4-check": 0}
        assert submission.max_score == 9


# ----------------------------------------------------------------------------
# The helpers on their own
# ----------------------------------------------------------------------------


def test_student_id_sources_in_order(monkeypatch, tmp_path):
    for var in (ga.ENV_VAR, "NBGRADER_EXECUTION", "JUPYTERHUB_USER", "GAMETREES_STUDENT_LIST",
                "GAMETREES_ROLE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)
    assert ga.student_id(" jdoe ") == ga.student_id("JDoe") == "jdoe" and not ga.id_warnings()
    assert ga.student_id("") == ga.DEFAULT_ID == "practice"
    assert "No student id" in ga.id_warnings()[0]
    monkeypatch.setenv("JUPYTERHUB_USER", "HubUser")
    assert ga.student_id("") == "hubuser" and not ga.id_warnings()  # the hub login when nothing is typed
    assert ga.student_id("jdoe") == "jdoe"  # a typed id first
    monkeypatch.setenv("GAMETREES_ROLE", "instructor")  # the instructor's server on the course hub
    assert ga.student_id("") == "practice" and not ga.id_warnings()  # never the instructor's login
    assert ga.student_id("jdoe") == "jdoe"  # previewing a student's trees: the typed id
    monkeypatch.delenv("GAMETREES_ROLE")
    folder = tmp_path / "autograded" / "asmith" / "A1"
    folder.mkdir(parents=True)
    monkeypatch.chdir(folder)
    assert ga.student_id("jdoe") == "jdoe"  # not autograding: the typed id
    monkeypatch.setenv(ga.ENV_VAR, "override")
    assert ga.student_id("jdoe") == "override"  # previewing a student's trees
    assert "overrides the id 'jdoe'" in ga.id_warnings()[0]
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert ga.student_id("jdoe") == "asmith"  # autograding: the submission's folder, always
    assert len(ga.id_warnings()) == 2 and all("differs from the submission's folder 'asmith'" in w
                                              for w in ga.id_warnings())
    assert ga.student_id("") == "asmith" and "GAMETREES_STUDENT_ID" in ga.id_warnings()[0]
    with pytest.raises(TypeError, match="given must be a student id"):
        ga.student_id(["jdoe"])


def test_an_id_not_in_the_student_list_is_warned(monkeypatch, tmp_path):
    for var in (ga.ENV_VAR, "NBGRADER_EXECUTION", "JUPYTERHUB_USER"):
        monkeypatch.delenv(var, raising=False)
    listed = tmp_path / "students.txt"
    listed.write_text("jdoe\nASmith\n")
    monkeypatch.setenv("GAMETREES_STUDENT_LIST", str(listed))
    assert ga.student_id("asmith") == "asmith" and not ga.id_warnings()
    assert ga.student_id("jdeo") == "jdeo" and "not in the course's student list" in ga.id_warnings()[0]
    monkeypatch.delenv("GAMETREES_STUDENT_LIST")
    import sqlite3  # nbgrader's gradebook, found above the notebook's folder

    with sqlite3.connect(tmp_path / "gradebook.db") as con:
        con.execute("CREATE TABLE student (id VARCHAR(128) PRIMARY KEY)")
        con.execute("INSERT INTO student VALUES ('jdoe')")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    assert ga.student_id("jdoe") == "jdoe" and not ga.id_warnings()
    assert ga.student_id("nobody") == "nobody" and "not in the course's student list" in ga.id_warnings()[0]


def test_check_answer_reports_a_crashing_answer_and_rejects_a_non_exercise():
    ex = gt.exercises.ValuesExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]])

    def my_values():
        return {"A": 3}["B"]

    fb = ga.check_answer(ex, my_values)
    assert not fb.ok and "my_values() raised KeyError: 'B'" in fb.lines[0]
    assert ga.check_answer(ex, {"A": 3, "B": 3, "C": 2, "D": 2}).ok  # a plain answer works too
    with pytest.raises(TypeError, match="exercise must be"):
        ga.check_answer("values", my_values)


def _windows_evaluation():
    """A learner's evaluation (open windows, as in A3's solution): gametrees' own would be refused."""
    game = gt.ConnectFour()
    rows, cols = game.rows, game.cols
    windows = [[(r + i * dr, c + i * dc) for i in range(4)]
               for r in range(rows) for c in range(cols) for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1))
               if all(0 <= r + i * dr < rows and 0 <= c + i * dc < cols for i in range(4))]

    def evaluate(state):
        x, o = state
        cell = {(r, c): ("X" if x >> (c * (rows + 1) + r) & 1
                         else "O" if o >> (c * (rows + 1) + r) & 1 else ".")
                for r in range(rows) for c in range(cols)}
        score = 0
        for w in windows:
            marks = [cell[p] for p in w]
            xs, os_ = marks.count("X"), marks.count("O")
            if not (xs and os_):
                score += {3: 5, 2: 2}.get(xs, 0) - {3: 5, 2: 2}.get(os_, 0)
        return score / 1000

    return evaluate


def test_connect4_evaluation_checks_name_the_usual_slips():
    ours = _windows_evaluation()
    game = gt.ConnectFour()
    assert ga.check_connect4_evaluation(ours).ok
    library = gt.connect4_evaluation(game)
    assert not ga.check_connect4_evaluation(library).ok  # gametrees' own: write it yourself
    assert "write the evaluation yourself" in ga.check_connect4_evaluation(lambda s: library(s)).title

    def for_the_mover(state):
        v = ours(state)
        return v if game.to_move(state) == "max" else -v

    fb = ga.check_connect4_evaluation(for_the_mover)
    assert "your evaluation scores for the player to move" in fb.lines[1]
    fb = ga.check_connect4_evaluation(lambda s: 1000 * ours(s))
    assert "strictly between -1 and +1" in fb.lines[0] and "Divide your points" in fb.hints[0]
    fb = ga.check_connect4_evaluation(lambda s: 0)
    assert any("returns 0 on every position" in line for line in fb.lines)
    with pytest.raises(ValueError, match="standard ConnectFour"):
        ga.check_connect4_evaluation(ours, game=gt.ConnectFour(4, 4, 3))
    with pytest.raises(TypeError):
        ga.check_connect4_evaluation("evaluate")
    with pytest.raises(ValueError, match="opponent must be"):
        ga.check_tournament(ours, "strong")
    with pytest.raises(ValueError, match="games must be"):
        ga.check_tournament(ours, "random", games=0)


def _a3_reference():
    """A3's solution, as the instructor notebook holds it (its helper cell and its answer cell)."""
    nb = read("A3")
    space = {"gt": gt}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(cell(nb, "a3-helpers").source, space)  # noqa: S102 -- the notebook's own cells
        exec(cell(nb, "a3-answer").source, space)  # noqa: S102
    return space["evaluate"]


def _ids_with_their_own_weak_seed(n):
    """The first ``n`` ids s0, s1, ... whose tournaments against the weak reference are all different."""
    out, seeds = [], set()
    for k in range(1000):
        seed = tournament_seed(f"s{k}/A3", "weak")
        if seed not in seeds:
            seeds.add(seed)
            out.append(f"s{k}")
        if len(out) == n:
            return out
    raise AssertionError("fewer seeds than asked for")


def test_a3_each_student_plays_their_own_tournaments_and_the_grader_names_which():
    ours, (one, two) = _windows_evaluation(), _ids_with_their_own_weak_seed(2)
    games = {s: ga.check_tournament(ours, "weak", games=4, variant=f"{s}/A3").result for s in (one, two)}
    assert games[one].seed == tournament_seed(f"{one}/A3", "weak") != games[two].seed
    assert [r.moves for r in games[one].records] != [r.moves for r in games[two].records]
    nb = read("A3")
    v = {x.grade_id: x for x in decide(nb, one, kernel=False).verdicts}
    for opponent in ("random", "weak"):
        assert v[f"a3-check-{opponent}"].status == "right", v[f"a3-check-{opponent}"].text()
        assert v[f"a3-check-{opponent}"].record()["variant"] == (
            f"tournament seed {tournament_seed(f'{one}/A3', opponent)}, from '{one}/A3'")


@pytest.mark.slow  # plays tournaments on a sample of variants
def test_a3s_bar_passes_the_reference_and_fails_a_weak_evaluation_on_a_sample_of_variants():
    """The full measurement, 200 ids: ``python benchmarks/a3_variants.py`` (INSTRUCTORS.md, section 3)."""
    reference = _a3_reference()
    centre = gt.classroom.connect_four.centre_column_evaluation
    for student in _ids_with_their_own_weak_seed(3):
        variant = f"{student}/A3"
        for opponent in ("random", "weak"):
            fb = ga.check_tournament(reference, opponent, variant=variant)
            assert fb.ok, (variant, opponent, fb.lines)
        for weak in (centre, lambda state: 0.0):
            fb = ga.check_tournament(weak, "weak", variant=variant)
            assert not fb.ok and "at least 13 needed" in fb.lines[0], (variant, fb.lines)


def test_the_command_line(tmp_path, capsys):
    assert ga.main(["release", str(FOLDER / "A1_minimax.ipynb"), str(tmp_path)]) == 0
    assert "wrote" in capsys.readouterr().out
    # exists: not overwritten
    assert ga.main(["release", str(FOLDER / "A1_minimax.ipynb"), str(tmp_path)]) == 2
    assert "does not overwrite without force=True (--force)" in capsys.readouterr().err
    assert ga.main(["release", str(FOLDER / "A1_minimax.ipynb"), str(tmp_path), "--force"]) == 0
    capsys.readouterr()
    assert ga.main(["release", str(tmp_path / "nothing.ipynb"), str(tmp_path)]) == 2
    assert "not found" in capsys.readouterr().err
