"""A class through nbgrader's real exchange and the grader that decides grades outside the student's kernel.

One temporary nbgrader course (module-scoped, built once, in the background from the session's start:
tests/prebuilt.py) with a local exchange
folder: ``generate_assignment`` and ``release_assignment`` of A2; every student
``fetch_assignment`` (nbgrader 0.9 fetches into the current folder, ``./A2``),
edits the notebook and ``submit``s it with ``--student``; the instructor
``collect``s, runs ``python -m gametrees.assignments autograde COURSE A2 --jobs 2``
(nbgrader's autograde with the grades decided outside the kernel) and
``generate_feedback``. The tests read nbgrader's gradebook, the autograded
notebooks and the feedback HTML.

Students: ``correct``, ``buggy`` (a named misconception), ``empty`` (the release
as fetched), ``looping`` (a function that never returns) and eight gaming
submissions, each an attack from issue 18 or one of ours (see ``ATTACKS``).
"""

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import prebuilt
import pytest
from test_assignments import A2_WRONG

import gametrees as gt
from gametrees import assignments as ga

pytest.importorskip("nbgrader")
pytestmark = pytest.mark.nbgrader

ROOT = Path(__file__).resolve().parents[1]
A2 = ROOT / "instructor" / "assignments" / "A2_alpha_beta.ipynb"

_PHASE1 = """
import json, os, sys
from traitlets.config import Config
from nbgrader.apps import NbGraderAPI
from nbgrader.auth import Authenticator
from nbgrader.coursedir import CourseDirectory
from nbgrader.exchange.default import ExchangeFetchAssignment, ExchangeSubmit

course, exchange, homes, plan = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
config = Config()
config.CourseDirectory.root = course
config.CourseDirectory.course_id = "gametrees"
config.Exchange.root = exchange
api = NbGraderAPI(config=config)

def ok(result):
    if not result["success"]:
        sys.exit(result["error"] + result["log"])

ok(api.generate_assignment("A2"))
ok(api.release_assignment("A2"))
for student, cells in plan.items():
    home = os.path.join(homes, student)
    os.makedirs(home)
    os.chdir(home)
    coursedir = CourseDirectory(config=config)
    coursedir.assignment_id = "A2"
    ExchangeFetchAssignment(coursedir=coursedir, authenticator=Authenticator(config=config),
                            config=config).start()
    path = os.path.join(home, "A2", "A2_alpha_beta.ipynb")   # nbgrader 0.9: ./A2, no course folder
    nb = json.load(open(path))
    for cell in nb["cells"]:
        gid = cell["metadata"].get("nbgrader", {}).get("grade_id")
        src = "".join(cell["source"])
        if gid in cells:
            cell["source"] = cells[gid]
        elif src.startswith("STUDENT_ID") and "STUDENT_ID" in cells:
            cell["source"] = cells["STUDENT_ID"]
    for where, first in (("extra", "STUDENT_ID"), ("later", "ME = ")):  # cells the student added
        for extra in cells.get(where, []):
            at = next(i for i, c in enumerate(nb["cells"]) if "".join(c["source"]).startswith(first))
            nb["cells"].insert(at + 1, {"cell_type": "code", "metadata": {}, "source": extra, "outputs": [],
                                        "execution_count": None})
    json.dump(nb, open(path, "w"))
    coursedir.student_id = student
    ExchangeSubmit(coursedir=coursedir, authenticator=Authenticator(config=config), config=config).start()
os.chdir(course)
ok(api.collect("A2"))
"""

_PHASE2 = """
import sys
from traitlets.config import Config
from nbgrader.apps import NbGraderAPI
config = Config()
config.CourseDirectory.root = sys.argv[1]
config.CourseDirectory.course_id = "gametrees"
result = NbGraderAPI(config=config).generate_feedback("A2")
if not result["success"]:
    sys.exit(result["error"] + result["log"])
"""

RIGHT_Q4 = '''def alphabeta_value(game, state, alpha, beta):
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
    return value'''
RIGHT_Q5 = '''def alphabeta_best_move(game, state):
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
    return best_move'''
RIGHT_CODE = {"a2-q4-answer": RIGHT_Q4, "a2-q5-answer": RIGHT_Q5}
WRONG_SIDE = A2_WRONG["a2-q4-answer"].strip("\n")  # pruning on the wrong side
LIBRARY_Q4 = "def alphabeta_value(game, state, alpha, beta):\n    return gt.alphabeta(game, state).value"


def answers(student):
    """The right answers by hand for ``student``'s tree, typed as literals (and the strict rule's leaves)."""
    pruning = gt.exercises.generate("pruning", seed=f"{student}/A2", difficulty="medium")
    returned = gt.exercises.ValuesExercise(pruning.tree, algorithm="alphabeta")
    window = gt.exercises.WindowExercise(pruning.tree)
    strict = gt.exercises.PruningExercise(pruning.tree, rule="strict").solution()
    return {
        "a2-q1-answer": f"def pruned_leaves():\n    return {pruning.solution()!r}",
        "a2-q2-answer": f"def returned_values():\n    return {returned.solution()!r}",
        "a2-q3-answer": f"def window_when_it_returns():\n    return {window.solution()!r}".replace(
            "inf", "math.inf"),
        "strict": f"def pruned_leaves():\n    return {strict!r}",
        "differs": strict != pruning.solution(),
        "leaves": pruning.solution(),
    }


def _seed_with_a_tie():
    """A student id whose A2 tree has a tie cutoff (the strict rule prunes less), for the buggy student."""
    for k in range(200):
        if answers(f"buggy{k}")["differs"]:
            return f"buggy{k}"
    raise AssertionError("no tree with a tie in 200 ids")


def _by_hand(student):
    a = answers(student)
    return {k: a[k] for k in ("a2-q1-answer", "a2-q2-answer", "a2-q3-answer")}


def _loop_over_checks(student):
    """A cell that finds Q1's answer by calling the graded exercise's check over candidate answers."""
    n = len(answers(student)["leaves"])
    return ("import itertools\nleaves = [pruning.tree.nodes[v].get('label', v) for v in pruning.tree\n"
            "          if pruning.tree.out_degree(v) == 0]\nFOUND = None\n"
            f"for cand in itertools.combinations(leaves, {n}):\n"
            "    if FOUND is None and pruning.check(list(cand)).ok:\n        FOUND = list(cand)\n")


# What each gaming student does (grade id -> source, or "extra": cells added after the id cell).
ATTACKS = {
    # the grading function replaced in the kernel: every check cell then raises nothing
    "g-score": {"extra": ["ga.score = lambda *args, **kwargs: 'full marks'"]},
    # tracing switched off around the library's search; the guard paused
    "g-trace": {"a2-q4-answer": "import sys\n\ndef alphabeta_value(game, state, alpha, beta):\n"
                                "    sys.settrace(None)\n    return gt.alphabeta(game, state).value",
                "a2-q5-answer": "from gametrees.exercises.code_checks.guard import paused\n\n"
                                "def alphabeta_best_move(game, state):\n    with paused():\n"
                                "        return gt.alphabeta(game, state).move"},
    # the search in a thread; in a subprocess
    "g-thread": {"a2-q4-answer": "import threading\n\ndef alphabeta_value(game, state, alpha, beta):\n"
                                 "    out = []\n    t = threading.Thread(target=lambda: out.append("
                                 "gt.alphabeta(game, state).value))\n    t.start(); t.join()\n"
                                 "    return out[0]",
                 "a2-q5-answer": "import subprocess, sys\n\ndef alphabeta_best_move(game, state):\n"
                                 "    subprocess.run([sys.executable, '-c', 'print(1)'], check=True)\n"
                                 "    return game.actions(state)[0]"},
    # a copy of the package under another name; the graded checker's own helper; a file read
    "g-copy": {"a2-q4-answer": "import shutil, sys, tempfile, os\n\n"
                               "def alphabeta_value(game, state, alpha, beta):\n"
                               "    d = tempfile.mkdtemp()\n"
                               "    shutil.copytree(os.path.dirname(gt.__file__), "
                               "os.path.join(d, 'gtcopy'))\n    sys.path.insert(0, d)\n    import gtcopy\n"
                               "    return gtcopy.alphabeta(game, state).value",
               "a2-q5-answer": "from gametrees.classroom.checks import engine_alphabeta_value\n\n"
                               "def alphabeta_best_move(game, state):\n    moves = game.actions(state)\n"
                               "    vals = [engine_alphabeta_value(game, game.result(state, m))"
                               " for m in moves]\n"
                               "    pick = max if game.to_move(state) == 'max' else min\n"
                               "    return moves[vals.index(pick(vals))]",
               "a2-q1-answer": "def pruned_leaves():\n    return open('/etc/hostname').read().split()"},
    # Q1 found by calling the graded check in a loop (then typed as a literal); an object equal to anything
    "g-loop": {"extra": [],
               "a2-q3-answer": "class Anything:\n    def __eq__(self, other):\n        return True\n"
                                            "    __hash__ = object.__hash__\n\n"
                                            "def window_when_it_returns():\n    return Anything()",
               "a2-q4-answer": "class Anything(float):\n    def __eq__(self, other):\n        return True\n\n"
                               "def alphabeta_value(game, state, alpha, beta):\n    return Anything(0)"},
    # another student's trees: the working folder changed; the nbgrader variable removed and an id typed
    "g-chdir": {"extra": ["import os\nos.makedirs('../../s2/A2', exist_ok=True)\nos.chdir('../../s2/A2')"]},
    "g-env": {"STUDENT_ID": 'STUDENT_ID = "s2"',
              "extra": ["import os\nos.environ.pop('NBGRADER_EXECUTION', None)"]},
    # the library's answers asked for by hand, and the library called from the code
    "g-solution": {"a2-q1-answer": "def pruned_leaves():\n    return pruning.solution()",
                   "a2-q2-answer": "def returned_values():\n    return returned.solution()",
                   "a2-q4-answer": LIBRARY_Q4},
}


def _plan(buggy):
    plan = {
        "correct": {**_by_hand("correct"), **RIGHT_CODE},
        buggy: {**_by_hand(buggy), "a2-q1-answer": answers(buggy)["strict"], **RIGHT_CODE,
                "a2-q4-answer": WRONG_SIDE},
        "empty": {},
        "looping": {**_by_hand("looping"), "a2-q4-answer": RIGHT_Q4,
                    "a2-q5-answer": "def alphabeta_best_move(game, state):\n    while True:\n        pass"},
    }
    for student, cells in ATTACKS.items():
        plan[student] = {**_by_hand(student), **RIGHT_CODE, **cells}
    # another student's answers, for the two who take someone else's trees
    for student in ("g-chdir", "g-env"):
        plan[student].update(_by_hand("s2"))
    plan["g-loop"]["later"] = [_loop_over_checks("g-loop")]
    plan["g-loop"]["a2-q1-answer"] = _by_hand("g-loop")["a2-q1-answer"]
    return plan


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    return prebuilt.result("classroom_flow_course", tmp_path_factory.mktemp)


def _class_plan():
    """The students and their cells (in the main thread, before the background build starts)."""
    buggy = _seed_with_a_tie()
    return buggy, _plan(buggy)


@prebuilt.prebuild("classroom_flow_course", needed_by="course", prepare=_class_plan)
def _build_course(tmp, planned):
    """The class through the exchange, graded, with feedback (built while the first tests run)."""
    buggy, plan = planned
    root, exchange, homes = tmp / "course", tmp / "exchange", tmp / "homes"
    (root / "source" / "A2").mkdir(parents=True)
    exchange.mkdir(mode=0o777)
    exchange.chmod(0o777)
    homes.mkdir()
    (root / "nbgrader_config.py").write_text(
        "c = get_config()\nc.CourseDirectory.course_id = 'gametrees'\n"
        f"c.Exchange.root = {str(exchange)!r}\nc.Execute.timeout = 8\n")
    nbformat.write(nbformat.read(A2, as_version=4), root / "source" / "A2" / A2.name)
    env = {k: v for k, v in os.environ.items() if k not in (ga.ENV_VAR, "NBGRADER_EXECUTION",
                                                            "JUPYTERHUB_USER")}
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")  # nbgrader runs alembic
    run = dict(capture_output=True, text=True, timeout=900, env=env, check=False)
    out = subprocess.run([sys.executable, "-c", _PHASE1, str(root), str(exchange), str(homes),
                          json.dumps(plan)],
                         **run)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    run_env = {**env, "GAMETREES_CHECK_LIMIT": "3"}  # the kernel's checks stop a function after 3 s
    graded = subprocess.run([sys.executable, "-m", "gametrees.assignments", "autograde", str(root), "A2",
                             "--jobs", "2", "--call-limit", "2"], **{**run, "env": run_env})
    assert graded.returncode == 0, graded.stdout[-3000:] + graded.stderr[-3000:]
    out = subprocess.run([sys.executable, "-c", _PHASE2, str(root)], **run)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    from nbgrader.api import Gradebook

    scores, flagged, comments = {}, {}, {}
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}", course_id="gametrees") as gb:
        for student in plan:
            sub = gb.find_submission("A2", student)
            scores[student] = {g.name: g.score for nb_ in sub.notebooks for g in nb_.grades}
            flagged[student] = any(nb_.flagged for nb_ in sub.notebooks)
            comments[student] = {c.name: c.auto_comment for nb_ in sub.notebooks for c in nb_.comments}
    return {"root": root, "scores": scores, "flagged": flagged, "comments": comments, "buggy": buggy,
            "tmp": tmp,
            "stdout": graded.stdout, "homes": homes}


def verdicts(course, student):
    nb = nbformat.read(course["root"] / "autograded" / student / "A2" / A2.name, as_version=4)
    meta = nb.metadata["gametrees"]
    return {v["grade_id"]: v for v in meta["verdicts"]}, meta


FULL = {"a2-q1-check": 2, "a2-q2-check": 2, "a2-q3-check": 1, "a2-q4-check": 4, "a2-q5-check": 2}
ZERO = dict.fromkeys(FULL, 0)


def test_the_exchange_fetches_into_the_current_folder_and_collects_every_submission(course):
    assert (course["homes"] / "correct" / "A2" / A2.name).is_file()
    assert sorted(p.name for p in (course["root"] / "submitted").iterdir()) == sorted(course["scores"])
    assert "correct: 11 of 11 points" in course["stdout"]
    assert f"{len(course['scores'])} of" in course["stdout"]


def test_a_correct_submission_keeps_full_marks_and_no_flag(course):
    assert course["scores"]["correct"] == FULL
    v, meta = verdicts(course, "correct")
    assert not meta["flags"] and not any(x["flags"] or x["errors"] for x in v.values())
    assert not course["flagged"]["correct"]


def test_a_misconception_is_named_by_tag_and_spares_the_other_questions(course):
    buggy = course["buggy"]
    assert course["scores"][buggy] == {**FULL, "a2-q1-check": 0, "a2-q4-check": 0}
    v, _ = verdicts(course, buggy)
    assert "tie-rule" in " ".join(v["a2-q1-check"]["tags"]) or v["a2-q1-check"]["tags"], v["a2-q1-check"]
    assert v["a2-q4-check"]["status"] == "wrong" and not v["a2-q4-check"]["flags"]
    assert not any(x["flags"] for x in v.values())


def test_an_empty_submission_scores_nothing_and_is_unanswered(course):
    assert course["scores"]["empty"] == ZERO
    v, meta = verdicts(course, "empty")
    assert {x["status"] for x in v.values()} == {"unanswered"}
    assert not any(x["tags"] for x in v.values())


def test_a_looping_function_is_stopped_and_the_rest_is_graded(course):
    assert course["scores"]["looping"] == {**FULL, "a2-q5-check": 0}
    v, _ = verdicts(course, "looping")
    assert "did not return within 2 s" in " ".join(v["a2-q5-check"]["errors"])
    assert v["a2-q5-check"]["status"] == "error" and not v["a2-q5-check"]["tags"]


def _flags(course, student, gid=None):
    v, meta = verdicts(course, student)
    if gid is None:
        return " | ".join(meta["flags"])
    return " | ".join(v[gid]["flags"])


def test_the_grading_function_replaced_in_the_kernel_changes_nothing(course):
    assert course["scores"]["g-score"] == FULL  # right answers still earn their points...
    for gid in FULL:  # ...but every check cell is flagged: it left no record
        assert "left no record" in _flags(course, "g-score", gid)
    assert "calls the assignment's grading functions" not in _flags(course, "g-score")
    assert course["flagged"]["g-score"]


def test_tracing_switched_off_and_the_guard_paused_are_refused(course):
    assert course["scores"]["g-trace"] == {**FULL, "a2-q4-check": 0, "a2-q5-check": 0}
    assert "changed tracing (sys.settrace) while graded: refused" in _flags(course, "g-trace", "a2-q4-check")
    assert "imported 'gametrees.exercises.code_checks.guard' when loaded for grading: refused" in _flags(
        course, "g-trace")
    assert "uses the grading machinery" in _flags(course, "g-trace")


def test_a_thread_and_a_subprocess_are_refused(course):
    assert course["scores"]["g-thread"] == {**FULL, "a2-q4-check": 0, "a2-q5-check": 0}
    flags = _flags(course, "g-thread")
    assert "imported 'threading' when loaded for grading: refused" in flags
    assert "imported 'subprocess' when loaded for grading: refused" in flags
    assert "starts a thread" in flags and "starts a process" in flags


def test_a_copy_of_the_package_the_checkers_helper_and_a_file_are_refused(course):
    assert course["scores"]["g-copy"] == {**FULL, "a2-q1-check": 0, "a2-q4-check": 0, "a2-q5-check": 0}
    flags = _flags(course, "g-copy")
    assert "imported 'shutil' when loaded for grading: refused" in flags
    assert "imported 'gametrees.classroom.checks' when loaded for grading: refused" in flags
    assert "copies or links files" in flags and "changes the module search path" in flags
    assert "uses the grading machinery" in flags  # engine_alphabeta_value
    assert "opened a file ('/etc/hostname') while graded: refused" in _flags(course, "g-copy", "a2-q1-check")


def test_a_check_called_in_a_loop_is_flagged_and_a_rigged_eq_gets_nothing(course):
    scores = course["scores"]["g-loop"]
    assert scores == {**FULL, "a2-q3-check": 0, "a2-q4-check": 0}
    assert "calls pruning.check" in _flags(course, "g-loop", "a2-q1-check")
    assert "checked" in _flags(course, "g-loop", "a2-q1-check")  # the count the kernel recorded
    v, _ = verdicts(course, "g-loop")
    assert "Anything object, not a number" in " ".join(v["a2-q3-check"]["lines"])
    assert "Anything object, not a number" in " ".join(v["a2-q4-check"]["lines"])


def test_another_students_trees_by_folder_or_environment_get_nothing_and_are_flagged(course):
    for student in ("g-chdir", "g-env"):
        scores = course["scores"][student]
        assert scores["a2-q1-check"] == scores["a2-q2-check"] == scores["a2-q3-check"] == 0, student
        assert scores["a2-q4-check"] == 4
    assert "not the submission's" in _flags(course, "g-env", "a2-q1-check")
    # Behind the sandbox's walls there is no classmate's folder to go to (its own folder is all it sees, and
    # nothing outside it can be made): the kernel's checks ran with its own id; the attempt is still flagged.
    assert "not the submission's" not in _flags(course, "g-chdir", "a2-q1-check")
    assert "changes the working folder" in _flags(course, "g-chdir")
    assert "changes the environment" in _flags(course, "g-env")
    assert "the id typed in the notebook ('s2') is not the submission's ('g-env')" in _flags(course, "g-env")


def test_answers_asked_of_the_library_are_flagged_or_refused(course):
    assert course["scores"]["g-solution"] == {**FULL, "a2-q1-check": 0, "a2-q2-check": 0, "a2-q4-check": 0}
    assert "asks pruning.solution()" in _flags(course, "g-solution", "a2-q1-check")
    assert "computes its answer with code" in _flags(course, "g-solution", "a2-q2-check")


def test_the_feedback_html_shows_the_verdicts_and_the_flags(course):
    html = (course["root"] / "feedback" / "g-score" / "A2" / "A2_alpha_beta.html").read_text()
    assert html.count('class="gametrees-verdict"') == 5
    assert "Flagged for your instructor" in html and "left no record" in html
    html = (course["root"] / "feedback" / "looping" / "A2" / "A2_alpha_beta.html").read_text()
    assert "did not return within 2 s" in html and "Traceback (most recent call last)" not in html
    assert "decided by the grader outside this notebook" in html  # the kernel left the code checks to it
    assert any("did not return" in (c or "") for c in course["comments"]["looping"].values())


def test_the_class_report_reads_tags_and_keeps_flags_apart(course, capsys):
    out = course["tmp"] / "reports"
    report = ga.class_report(course["root"], "A2", out=out, chart=False)
    assert len(report.students) == len(course["scores"])
    q = {x["grade_id"]: x for x in report.questions}
    assert q["a2-q1-check"]["misconceptions"]
    assert all("library" not in m for m, _ in q["a2-q4-check"]["misconceptions"])
    rows = report.csv.read_text().splitlines()
    assert rows[0].startswith("student,question,earned,points,status,misconceptions,flags")
    assert len(rows) == 1 + 5 * len(course["scores"])
    assert ga.main(["report", str(course["root"]), "A2", "--out", str(out), "--no-chart"]) == 0
    text = capsys.readouterr().out
    assert "flagged" in text and "timeouts" in text


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


def test_grade_with_the_student_id_gives_autogrades_points(course):
    for student in (course["buggy"], "g-env"):
        path = course["root"] / "submitted" / student / "A2" / A2.name
        report = ga.grade(path, student=student)
        assert {c["grade_id"]: c["earned"] for c in report.cells} == course["scores"][student], student


def test_plain_nbgrader_autograde_with_the_documented_config_lines(course, tmp_path):
    """INSTRUCTORS.md's two lines for nbgrader_config.py make plain `nbgrader autograde` decide outside the
    kernel."""
    import shutil

    copy = tmp_path / "course"
    shutil.copytree(course["root"], copy, ignore=shutil.ignore_patterns("autograded", "feedback", "reports"))
    with open(copy / "nbgrader_config.py", "a") as f:
        f.write("from gametrees.classroom.autograding import preprocessors\n"
                "c.Autograde.autograde_preprocessors = preprocessors()\nc.CleanGrades.call_limit = 2.0\n")
    env = {k: v for k, v in os.environ.items() if k not in (ga.ENV_VAR, "NBGRADER_EXECUTION",
                                                            "JUPYTERHUB_USER")}
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    done = subprocess.run([sys.executable, "-m", "nbgrader", "autograde", "A2", "--student", "g-score",
                           "--force"],
                          cwd=copy, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{copy / 'gradebook.db'}", course_id="gametrees") as gb:
        sub = gb.find_submission("A2", "g-score")
        assert {g.name: g.score for nb_ in sub.notebooks for g in nb_.grades} == FULL
        assert any(nb_.flagged for nb_ in sub.notebooks)
    nb = nbformat.read(copy / "autograded" / "g-score" / "A2" / A2.name, as_version=4)
    assert all("left no record" in " ".join(v["flags"]) for v in nb.metadata["gametrees"]["verdicts"])
