"""A class through nbgrader's real pipeline: release, submissions, autograde, feedback, the class report.

One temporary nbgrader course (module-scoped: built once, about half a minute)
holds A2 (alpha-beta: questions by hand and in code) and five submissions:

``correct``  every answer right for its own tree, its id typed as " CORRECT " (case and space do not matter)
``gamer``    answers by hand from ``.solution()``, code that hands the work to ``gt.alphabeta``
             (directly, and through an alias imported from ``gametrees.search``)
``buggy``    the strict rule's pruned leaves (a tie missed), alpha-beta pruning on the wrong side
             (question 4), and a right ``alphabeta_best_move`` that calls it (question 5)
``envvar``   right for its own tree, autograded with ``GAMETREES_STUDENT_ID=jdoe`` set
``noid``     right for its own tree, no id typed

nbgrader runs ``generate_assignment``, ``autograde`` (each student) and
``generate_feedback`` in one subprocess; the tests read the gradebook, the
autograded notebooks, the feedback HTML and the class report.
"""

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

import gametrees as gt
from gametrees import assignments as ga
from gametrees.classroom.grading import notebook_facts, record
from test_assignments import A2_WRONG

pytest.importorskip("nbgrader")

ROOT = Path(__file__).resolve().parents[1]
A2 = ROOT / "notebooks" / "assignments" / "A2_alpha_beta.ipynb"

_NBGRADER = """
import os, sys, json
from traitlets.config import Config
from nbgrader.apps import NbGraderAPI

course, students, env_student = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
config = Config()
config.CourseDirectory.root = course
config.CourseDirectory.course_id = "gametrees"
api = NbGraderAPI(config=config)

def ok(result):
    if not result["success"]:
        sys.exit(result["error"] + result["log"])

ok(api.generate_assignment("A2"))
for s in students:
    if s == env_student:
        os.environ["GAMETREES_STUDENT_ID"] = "jdoe"
    ok(api.autograde("A2", s))
    os.environ.pop("GAMETREES_STUDENT_ID", None)
ok(api.generate_feedback("A2"))
"""

RIGHT_CODE = {
    "a2-q4-answer": '''def alphabeta_value(game, state, alpha, beta):
    if game.is_terminal(state):
        return game.utility(state)
    if game.to_move(state) == "max":
        value = -math.inf
        for move in game.actions(state):
            value = max(value, alphabeta_value(game, game.result(state, move), alpha, beta))
            if value >= beta:
                return value
            alpha = max(alpha, value)
        return value
    value = math.inf
    for move in game.actions(state):
        value = min(value, alphabeta_value(game, game.result(state, move), alpha, beta))
        if value <= alpha:
            return value
        beta = min(beta, value)
    return value''',
    "a2-q5-answer": '''def alphabeta_best_move(game, state):
    alpha, beta = -math.inf, math.inf
    maximizing = game.to_move(state) == "max"
    best_move, best_value = None, None
    for move in game.actions(state):
        value = alphabeta_value(game, game.result(state, move), alpha, beta)
        if best_value is None or (value > best_value if maximizing else value < best_value):
            best_move, best_value = move, value
        if maximizing:
            alpha = max(alpha, value)
        else:
            beta = min(beta, value)
    return best_move''',
}
WRONG_SIDE = A2_WRONG["a2-q4-answer"].strip("\n")  # pruning on the wrong side
GAMING = {
    "a2-q1-answer": "def pruned_leaves():\n    return pruning.solution()",
    "a2-q2-answer": "def returned_values():\n    return returned.solution()",
    "a2-q3-answer": "def window_when_it_returns():\n    return window.solution()",
    "a2-q4-answer": "def alphabeta_value(game, state, alpha, beta):\n    return gt.alphabeta(game, state).value",
    "a2-q5-answer": ("from gametrees.search import alphabeta as ab\n\n\ndef helper(game, state):\n"
                     "    return ab(game, state)\n\n\ndef alphabeta_best_move(game, state):\n"
                     "    return helper(game, state).move"),
}


def answers(student):
    """The right answers by hand for ``student``'s tree, as a student would type them (literals)."""
    pruning = gt.exercises.generate("pruning", seed=f"{student}/A2", difficulty="medium")
    returned = gt.exercises.ValuesExercise(pruning.tree, algorithm="alphabeta")
    window = gt.exercises.WindowExercise(pruning.tree)
    strict = gt.exercises.PruningExercise(pruning.tree, rule="strict").solution()
    return {
        "a2-q1-answer": f"def pruned_leaves():\n    return {pruning.solution()!r}",
        "a2-q2-answer": f"def returned_values():\n    return {returned.solution()!r}",
        "a2-q3-answer": f"def window_when_it_returns():\n    return {window.solution()!r}".replace("inf", "math.inf"),
        "strict": f"def pruned_leaves():\n    return {strict!r}",
        "differs": strict != pruning.solution(),
    }


def submission(student_version, student, typed_id, cells):
    nb = nbformat.from_dict(json.loads(json.dumps(student_version)))
    for c in nb.cells:
        gid = c.metadata.get("nbgrader", {}).get("grade_id")
        if gid in cells:
            c.source = cells[gid]
        if c.source.startswith("STUDENT_ID"):
            c.source = f"STUDENT_ID = {typed_id!r}"
    return nb


def _seed_with_a_tie():
    """A student id whose A2 tree has a tie cutoff (the strict rule prunes less), for the buggy student."""
    for k in range(200):
        if answers(f"buggy{k}")["differs"]:
            return f"buggy{k}"
    raise AssertionError("no tree with a tie in 200 ids")


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("course")
    root = tmp / "course"
    (root / "source" / "A2").mkdir(parents=True)
    nbformat.write(nbformat.read(A2, as_version=4), root / "source" / "A2" / A2.name)
    student_version = nbformat.read(ga.release(A2, tmp / "release" / A2.name)[0], as_version=4)
    buggy = _seed_with_a_tie()
    plan = {
        "correct": (" CORRECT ", {**answers("correct"), **RIGHT_CODE}),
        "gamer": ("gamer", GAMING),
        buggy: (buggy, {**answers(buggy), "a2-q1-answer": answers(buggy)["strict"], **RIGHT_CODE,
                        "a2-q4-answer": WRONG_SIDE}),
        "envvar": ("envvar", {**answers("envvar"), **RIGHT_CODE}),
        "noid": ("", {**answers("noid"), **RIGHT_CODE}),
    }
    for student, (typed, cells) in plan.items():
        folder = root / "submitted" / student / "A2"
        folder.mkdir(parents=True)
        nbformat.write(submission(student_version, student, typed, cells), folder / A2.name)
    env = {k: v for k, v in os.environ.items()
           if k not in (ga.ENV_VAR, "NBGRADER_EXECUTION", "JUPYTERHUB_USER")}
    out = subprocess.run([sys.executable, "-c", _NBGRADER, str(root), json.dumps(sorted(plan)), "envvar"],
                         capture_output=True, text=True, timeout=600, env=env, check=False)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    from nbgrader.api import Gradebook

    scores = {}
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}", course_id="gametrees") as gb:
        for student in plan:
            sub = gb.find_submission("A2", student)
            scores[student] = {g.name: g.score for nb_ in sub.notebooks for g in nb_.grades}
    return {"root": root, "scores": scores, "buggy": buggy, "tmp": tmp}


def graded(course, student):
    return nbformat.read(course["root"] / "autograded" / student / "A2" / A2.name, as_version=4)


def records(nb):
    """``{grade_id: the check's record}`` of the graded cells (``None`` where a cell raised)."""
    return {c.metadata["nbgrader"]["grade_id"]: record(c.outputs)
            for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")}


FULL = {"a2-q1-check": 2, "a2-q2-check": 2, "a2-q3-check": 1, "a2-q4-check": 4, "a2-q5-check": 2}


def test_a_correct_submission_gets_full_marks_from_nbgrader(course):
    assert course["scores"]["correct"] == FULL
    recs = records(graded(course, "correct"))
    assert all(r["ok"] and not r["flags"] and not r["warnings"] for r in recs.values())
    assert {r["student"] for r in recs.values()} == {"correct"}  # " CORRECT " typed: the same id


def test_a_gaming_submission_fails_the_code_and_is_flagged_by_hand(course):
    scores = course["scores"]["gamer"]
    assert scores["a2-q4-check"] == 0 and scores["a2-q5-check"] == 0
    recs = records(graded(course, "gamer"))
    for gid in ("a2-q4-check", "a2-q5-check"):
        assert "this question asks you to write the search yourself" in recs[gid]["text"]
        assert recs[gid]["misconceptions"] == ["handed the work to the library"]
    assert "gametrees.search.pruning.alphabeta" in recs["a2-q5-check"]["text"]  # through the alias
    for gid in ("a2-q1-check", "a2-q2-check", "a2-q3-check"):
        assert recs[gid]["flags"] == ["the exercise's .solution()"], gid
        assert "⚑ Flagged for your instructor" in recs[gid]["text"]
    assert len(notebook_facts(graded(course, "gamer"))[1]) == 3  # what the grade report lists


def test_a_buggy_submission_names_the_mistakes_and_spares_the_other_questions(course):
    buggy = course["buggy"]
    scores = course["scores"][buggy]
    assert scores == {**FULL, "a2-q1-check": 0, "a2-q4-check": 0}
    recs = records(graded(course, buggy))
    assert "tie rule (≤/≥ vs </>) wrong (7)" in recs["a2-q1-check"]["misconceptions"]
    assert "You pruned with the strict rule" in recs["a2-q1-check"]["text"]
    assert "0 of 2 points: a question earns its points only when all of it is right" in recs["a2-q1-check"]["text"]
    assert "the window it was given does not allow a cut" in recs["a2-q4-check"]["text"]
    q5 = recs["a2-q5-check"]["text"]
    assert recs["a2-q5-check"]["ok"] and "Graded with a correct alphabeta_value in place of yours" in q5


def test_the_folder_decides_the_tree_and_a_disagreeing_id_is_reported(course):
    assert course["scores"]["envvar"] == FULL  # GAMETREES_STUDENT_ID=jdoe was set: graded by folder
    recs = records(graded(course, "envvar"))
    assert all(r["student"] == "envvar" for r in recs.values())
    assert any("GAMETREES_STUDENT_ID differs from the submission's folder 'envvar'" in w
               for w in recs["a2-q1-check"]["warnings"])
    assert course["scores"]["noid"] == FULL  # nothing typed: the folder's id while autograding


def test_failed_checks_show_formatted_feedback_in_nbgraders_html(course):
    html = (course["root"] / "feedback" / course["buggy"] / "A2" / "A2_alpha_beta.html").read_text()
    assert "AssertionError" not in html and "Traceback (most recent call last)" not in html
    assert "ansi-red-fg" not in html  # no error output at all
    assert html.count('class="gametrees-score"') == 5
    assert "You pruned with the strict rule" in html and "overflow-wrap: anywhere" in html


def test_the_class_report_counts_right_answers_and_misconceptions(course, capsys):
    out = course["tmp"] / "reports"
    report = ga.class_report(course["root"], "A2", out=out)
    assert len(report.students) == 5
    q = {x["grade_id"]: x for x in report.questions}
    assert (q["a2-q4-check"]["right"], q["a2-q4-check"]["students"]) == (3, 5)
    assert q["a2-q4-check"]["mean"] == pytest.approx(12 / 5)
    assert ("handed the work to the library", 1) in q["a2-q4-check"]["misconceptions"]
    assert ("tie rule (≤/≥ vs </>) wrong (7)", 1) in q["a2-q1-check"]["misconceptions"]
    window = gt.exercises.WindowExercise(gt.exercises.generate("pruning", seed="gamer/A2", difficulty="medium").tree)
    assert report.flagged == {"gamer": ["Pruned leaves: the exercise's .solution()",
                                        "Alpha-beta values: the exercise's .solution()",
                                        f"{window.what}: the exercise's .solution()"]}
    text = repr(report)
    assert "a2-q4-check: right 3 of 5, mean 2.40 of 4 points" in text
    assert "    handed the work to the library: 1 of 5" in text
    rows = report.csv.read_text().splitlines()
    assert rows[0] == "student,question,earned,points,right,misconceptions,library flags" and len(rows) == 26
    assert report.chart.stat().st_size > 10_000
    # the command line prints the same
    assert ga.main(["report", str(course["root"]), "A2", "--out", str(out), "--no-chart"]) == 0
    assert "a2-q4-check: right 3 of 5" in capsys.readouterr().out


def _digest(folder):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(Path(folder).glob("*"))}


def test_release_never_writes_into_its_source_nor_overwrites(tmp_path, capsys):
    src = tmp_path / "assignments"
    src.mkdir()
    nbformat.write(nbformat.read(A2, as_version=4), src / A2.name)
    before = _digest(src)
    with pytest.raises(ValueError, match="never writes into its source"):
        ga.release(src, src)
    with pytest.raises(ValueError, match="never writes into its source"):
        ga.release(src, src / "student")
    with pytest.raises(ValueError, match="never writes into its source"):
        ga.release(src / A2.name, src, force=True)
    assert ga.main(["release", str(src), str(src)]) == 2
    assert "never writes into its source" in capsys.readouterr().err
    assert _digest(src) == before and sorted(p.name for p in src.iterdir()) == [A2.name]
    out = tmp_path / "student"
    ga.release(src, out)
    with pytest.raises(ValueError, match="does not overwrite without force"):
        ga.release(src, out)
    assert ga.release(src, out, force=True) == [out / A2.name]
    with pytest.raises(ValueError, match="not found"):
        ga.release(tmp_path / "missing.ipynb", out)
