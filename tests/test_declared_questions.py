"""Questions an instructor declares in the notebook, and every student's own variant of a code question.

The cells are read from INSTRUCTORS.md ("Writing your own question") exactly as printed there and added to
a copy of A2 (:func:`declared_a2`): a question by hand (the visiting order, question 6) and a code question
with a per-student tie rule (question 7). No file of the package changes. The class goes through nbgrader's
real exchange and ``python -m gametrees.assignments autograde`` (module fixture ``course``):

* ``alice`` answers everything right; ``dave`` hands in alice's code for question 7 (his tie rule is hers);
* ``bob`` answers questions 6 and 7 wrong (question 7 with the other tie rule);
* ``carol`` hands in alice's part 1 and code (her tie rule is not alice's): graded on her own variant;
* ``mallory`` replaces ``ga.check_answer`` and ``ga.check_code`` in her kernel, with wrong answers.
"""

import html as html_lib
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import prebuilt
import pytest
from courses import assignments_cli
from test_classroom_flow import _PHASE1, _PHASE2, RIGHT_CODE, answers

import gametrees as gt
from gametrees import assignments as ga
from gametrees.classroom.declarations import Declaration
from gametrees.classroom.verdicts import decide
from gametrees.exercises.code_checks.harness import alphabeta_groups

ROOT = Path(__file__).resolve().parents[1]
A2 = ROOT / "instructor" / "assignments" / "A2_alpha_beta.ipynb"
DOC = ROOT / "INSTRUCTORS.md"
ROLES = {"Read-only": {"locked": True, "solution": False, "grade": False},
         "Autograded answer": {"locked": False, "solution": True, "grade": False},
         "Autograder tests": {"locked": True, "solution": False, "grade": True}}


def doc_cells():
    """``[(grade id, role, points, source)]``: the cells of "Writing your own question", as printed."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("### Writing your own question", 1)[1].split("\n## ", 1)[0]
    cells = []
    for block in re.findall(r"```python\n(.*?)```", section, re.DOTALL):
        first, _, body = block.partition("\n")
        m = re.fullmatch(r"# cell (\S+) · (Read-only|Autograded answer|Autograder tests)(?:, (\d+) points?)?",
                         first)
        if m:
            cells.append((m[1], m[2], int(m[3]) if m[3] else None, body.rstrip("\n")))
    return cells


def declared_a2(replace=None):
    """A copy of A2 with the documented cells added after question 5 (``replace``: old -> new in their
    sources, for the refusals)."""
    nb = nbformat.read(A2, as_version=4)
    ids = [c.metadata.get("nbgrader", {}).get("grade_id") for c in nb.cells]
    at = ids.index("a2-q5-check") + 1
    for gid, role, points, source in doc_cells():
        for old, new in (replace or {}).items():
            source = source.replace(old, new)
        meta = {"grade_id": gid, "schema_version": 3, "task": False, **ROLES[role]}
        if points is not None:
            meta["points"] = points
        nb.cells.insert(at, nbformat.v4.new_code_cell(source, metadata={"nbgrader": meta}))
        at += 1
    return nb


def declaration(gid):
    src = next(s for g, _, _, s in doc_cells() if g == gid)
    from gametrees.classroom.declarations import calls, read

    (node, name), = calls(src)
    return read(node, name)


def rule_of(student):
    return declaration("a2-q7-task").options(student)["rule"]


def code_for(rule):
    """Question 7's answer with the tie rule ``rule`` written in (no reference to the read-only cell)."""
    src = next(s for g, _, _, s in doc_cells() if g == "a2-q7-answer")
    body = re.sub(r"    ### BEGIN SOLUTION\n    strict = .*\n", f"    strict = {rule == 'strict'}\n", src)
    return body.replace("    ### END SOLUTION\n", "").rstrip()


def order_answer(student, wrong=False):
    ex = declaration("a2-q6-tree").exercise(student)
    sol = ex.solution()
    if wrong:  # every node, depth first: the order without the cuts
        G = ex.tree
        names = ex.nodes
        sol = [names.name(n) for n in _dfs(G, G.graph["root"])]
    return f"def visiting_order():\n    return {sol!r}"


def _dfs(G, n):
    yield n
    for c in G.successors(n):
        yield from _dfs(G, c)



@pytest.fixture(autouse=True)
def _no_exercise_left_protected():
    """``ga.question`` protects the exercises it makes (as a notebook's trees cell does): forget them after
    each test, so that no other test's record of answers asked of the library lists them."""
    from gametrees.classroom import integrity

    yield
    integrity.GRADED.clear()
    integrity.SEEN.clear()

def test_the_documented_cells_declare_a_question_by_hand_and_a_code_question():
    cells = doc_cells()
    assert [(g, r, p) for g, r, p, _ in cells] == [
        ("a2-q6-tree", "Read-only", None), ("a2-q6-answer", "Autograded answer", None),
        ("a2-q6-check", "Autograder tests", 2), ("a2-q7-task", "Read-only", None),
        ("a2-q7-answer", "Autograded answer", None), ("a2-q7-check", "Autograder tests", 3)]
    assert declaration("a2-q6-tree").kind == "order" and declaration("a2-q7-task").check == "check_alphabeta"


def test_two_variants_draw_different_test_trees_and_keep_the_fixed_ones():
    def leaves(variant):
        return [sorted(G.nodes[n].get("utility", G.nodes[n].get("value")) for n in G if not G.out_degree(n))
                for _, trees in alphabeta_groups(variant) for G in trees]

    a, b, plain = leaves("alice/A2/q7"), leaves("dave/A2/q7"), leaves(None)
    assert len(a) == len(b) == len(plain)
    differ = [i for i in range(len(a)) if a[i] != b[i]]
    assert len(differ) >= 4  # the drawn trees (ragged, fractional, deeper)
    assert a[0] == b[0] == plain[0]  # the textbook tree stays
    assert leaves("alice/A2/q7") == a  # the same variant draws the same trees


def test_the_same_correct_code_is_run_on_each_students_own_games():
    seen = {}
    space = {"math": math}
    exec(code_for(rule_of("alice")), space)  # noqa: S102 -- the documented answer, as a student writes it
    answer = space["alphabeta_with_my_rule"]
    dave = _pick("dave", lambda s: rule_of(s) == rule_of("alice"))

    def spying(student):
        def spy(game, state, alpha, beta):
            if state == game.initial and hasattr(game, "graph"):
                seen.setdefault(student, []).append(sorted(map(str, game.graph.nodes(data=True))))
            return answer(game, state, alpha, beta)
        return spy

    passed = {}
    for student in ("alice", dave):
        ga.student_id(student)
        q = ga.question("code", check="check_alphabeta", variant="{student}/A2/q7",
                        rule=["textbook", "strict"], tictactoe=False)
        passed[student] = q(spying(student)).ok
    assert passed == {"alice": True, dave: True}
    assert seen["alice"] != seen[dave] and len(seen["alice"]) == len(seen[dave])


def test_the_learners_checks_give_feedback_on_their_variant_without_the_answer(monkeypatch):
    monkeypatch.delenv(ga.ENV_VAR, raising=False)
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    student = "bob"
    ga.student_id(student)
    order = ga.question("order", seed="{student}/A2/q6", difficulty="medium")
    assert order.seed == "bob/A2/q6"
    namespace = {"math": math}
    exec(order_answer(student, wrong=True), namespace)  # noqa: S102 -- a student's answer cell
    fb = ga.check_answer(order, namespace["visiting_order"])
    text = repr(fb)
    assert not fb.ok and "Visiting order" in text
    assert repr(order.solution()) not in text and ", ".join(order.solution()) not in text
    tie_rule = ga.question("code", check="check_alphabeta", variant="{student}/A2/q7",
                           rule=["textbook", "strict"], tictactoe=False)
    other = "textbook" if tie_rule.options["rule"] == "strict" else "strict"
    assert f"rule {tie_rule.options['rule']!r}" in repr(tie_rule) and "bob/A2/q7" in repr(tie_rule)
    exec(code_for(other), namespace)  # noqa: S102
    fb = ga.check_code(tie_rule, namespace["alphabeta_with_my_rule"])
    assert not fb.ok and f"your task asks for the {tie_rule.options['rule']} rule" in repr(fb)
    exec(code_for(tie_rule.options["rule"]), namespace)  # noqa: S102
    assert ga.check_code(tie_rule, namespace["alphabeta_with_my_rule"]).ok


@pytest.mark.nbgrader
@pytest.mark.parametrize("old, new, said", [
    ('ga.question("order"', 'ga.question("odrer"',
     "cell 'a2-q6-tree': order = ga.question: unknown kind 'odrer'"),
    ('check="check_alphabeta"', 'check="check_minmax"',
     "cell 'a2-q7-task': tie_rule = ga.question: unknown check 'check_minmax'"),
    ("tictactoe=False)", "tictactoe=False, depth=3)", "check_alphabeta takes no option 'depth'"),
    ('rule=["textbook", "strict"]', 'rule=["textbook", "lenient"]', "option 'rule' must be one of"),
    ('difficulty="medium")', 'difficulty="medium", colour="red")',
     "cell 'a2-q6-tree': order = ga.question: order:"),
    ("ga.check_answer(order, visiting_order), 2)", "ga.check_answer(order, visiting_order), 5)",
     "grade cell 'a2-q6-check': ga.score gives 5 points, nbgrader's metadata 2"),
])
def test_release_refuses_a_declaration_it_cannot_build_in_one_line(tmp_path, old, new, said):
    pytest.importorskip("nbgrader")
    src = tmp_path / "source"
    src.mkdir()
    nbformat.write(declared_a2({old: new}), src / A2.name)
    done = assignments_cli("release", src, tmp_path / "student")
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and said in lines[0] and A2.name in lines[0], done.stderr
    assert not (tmp_path / "student").exists()
    if new == 'ga.question("odrer"':  # the line INSTRUCTORS.md shows
        shown = DOC.read_text(encoding="utf-8").split("exit status 2, e.g. `", 1)[1].split("`", 1)[0]
        assert " ".join(shown.split()) == lines[0]


@pytest.mark.nbgrader
def test_release_makes_the_student_version_with_the_declarations_and_without_the_solutions(tmp_path):
    pytest.importorskip("nbgrader")
    src = tmp_path / "source"
    src.mkdir()
    nbformat.write(declared_a2(), src / A2.name)
    done = assignments_cli("release", src, tmp_path / "student")
    assert done.returncode == 0, done.stderr
    nb = nbformat.read(tmp_path / "student" / A2.name, as_version=4)
    by_id = {c.metadata.get("nbgrader", {}).get("grade_id"): c.source for c in nb.cells}
    assert by_id["a2-q6-tree"].startswith('order = ga.question("order", seed="{student}/A2/q6"')
    assert "solution()" not in by_id["a2-q6-answer"] and "NotImplementedError" in by_id["a2-q6-answer"]
    assert "strict = " not in by_id["a2-q7-answer"]


# ----------------------------------------------------------------------------
# A class through nbgrader's exchange and the one grading command
# ----------------------------------------------------------------------------


def _pick(prefix, want):
    return next(f"{prefix}{k}" for k in range(200) if want(f"{prefix}{k}"))


def _part1(student):
    a = answers(student)
    return {k: a[k] for k in ("a2-q1-answer", "a2-q2-answer", "a2-q3-answer")}


FORGED = ("from gametrees.exercises.feedback import Feedback\n\n"
          "def _passed(*args, **kwargs):\n    return Feedback('all right', [('good', 'right', None)])\n\n"
          "ga.check_answer = _passed\nga.check_code = _passed\n")


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    return prebuilt.result("declared_questions_course", tmp_path_factory.mktemp)


def _class_plan():
    """The students and their cells (in the main thread: reading the declarations parses code)."""
    pytest.importorskip("nbgrader")
    alice = "alice"
    carol = _pick("carol", lambda s: rule_of(s) != rule_of(alice))
    dave = _pick("dave", lambda s: rule_of(s) == rule_of(alice))
    bob = "bob"
    other = {"textbook": "strict", "strict": "textbook"}
    alices = {**_part1(alice), **RIGHT_CODE, "a2-q6-answer": order_answer(alice),
              "a2-q7-answer": code_for(rule_of(alice))}
    plan = {
        alice: alices,
        dave: {**_part1(dave), **RIGHT_CODE, "a2-q6-answer": order_answer(dave),
               "a2-q7-answer": alices["a2-q7-answer"]},
        bob: {**_part1(bob), **RIGHT_CODE, "a2-q6-answer": order_answer(bob, wrong=True),
              "a2-q7-answer": code_for(other[rule_of(bob)])},
        carol: dict(alices),
        "mallory": {**_part1("mallory"), **RIGHT_CODE, "a2-q6-answer": order_answer("mallory", wrong=True),
                    "a2-q7-answer": code_for(other[rule_of("mallory")]), "extra": [FORGED]},
    }
    assert order_answer(carol) != alices["a2-q6-answer"]
    return plan, {"alice": alice, "bob": bob, "carol": carol, "dave": dave}


@prebuilt.prebuild("declared_questions_course", needed_by="course", prepare=_class_plan)
def _build_course(tmp, planned):
    """The class through the exchange, graded and reported (built while the first tests run)."""
    plan, names = planned
    root, exchange, homes = tmp / "course", tmp / "exchange", tmp / "homes"
    (root / "source" / "A2").mkdir(parents=True)
    exchange.mkdir(mode=0o777)
    exchange.chmod(0o777)
    homes.mkdir()
    (root / "nbgrader_config.py").write_text(
        "c = get_config()\nc.CourseDirectory.course_id = 'gametrees'\n"
        f"c.Exchange.root = {str(exchange)!r}\nc.Execute.timeout = 20\n")
    nbformat.write(declared_a2(), root / "source" / "A2" / A2.name)
    env = {k: v for k, v in os.environ.items()
           if k not in (ga.ENV_VAR, "NBGRADER_EXECUTION", "JUPYTERHUB_USER")}
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env["PYTHONPATH"] = str(ROOT)
    run = {"capture_output": True, "text": True, "timeout": 900, "env": env}
    out = subprocess.run([sys.executable, "-c", _PHASE1, str(root), str(exchange), str(homes),
                          json.dumps(plan)], check=False, **run)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    graded = subprocess.run([sys.executable, "-m", "gametrees.assignments", "autograde", str(root), "A2",
                             "--jobs", "2"], check=False, **run)
    assert graded.returncode == 0, graded.stdout[-3000:] + graded.stderr[-3000:]
    out = subprocess.run([sys.executable, "-c", _PHASE2, str(root)], check=False, **run)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    report = subprocess.run([sys.executable, "-m", "gametrees.assignments", "report", str(root), "A2",
                             "--no-chart"], check=False, **run)
    assert report.returncode == 0, report.stderr
    from nbgrader.api import Gradebook

    scores = {}
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}", course_id="gametrees") as gb:
        for student in plan:
            sub = gb.find_submission("A2", student)
            scores[student] = {g.name: g.score for nb_ in sub.notebooks for g in nb_.grades}
    return {"root": root, "scores": scores, **names, "report": report.stdout}


def verdicts(course, student):
    nb = nbformat.read(course["root"] / "autograded" / student / "A2" / A2.name, as_version=4)
    return {v["grade_id"]: v for v in nb.metadata["gametrees"]["verdicts"]}, nb


FULL = {"a2-q1-check": 2, "a2-q2-check": 2, "a2-q3-check": 1, "a2-q4-check": 4, "a2-q5-check": 2,
        "a2-q6-check": 2, "a2-q7-check": 3}


@pytest.mark.nbgrader
def test_a_right_submission_earns_the_declared_questions_decided_outside_the_kernel_in_the_sandbox(course):
    assert course["scores"][course["alice"]] == FULL
    v, nb = verdicts(course, course["alice"])
    assert nb.metadata["gametrees"]["isolation"] == "bwrap"
    for gid in ("a2-q6-check", "a2-q7-check"):
        assert v[gid]["decided"] and v[gid]["status"] == "right" and not v[gid]["flags"], v[gid]
    assert v["a2-q7-check"]["variant"] == f"rule {rule_of('alice')!r}, trees from 'alice/A2/q7'"


@pytest.mark.nbgrader
def test_a_wrong_submission_gets_nothing_for_them_and_its_feedback_holds_no_answer(course):
    bob = course["bob"]
    assert course["scores"][bob] == {**FULL, "a2-q6-check": 0, "a2-q7-check": 0}
    v, nb = verdicts(course, bob)
    assert v["a2-q6-check"]["status"] == "wrong" and "tie-rule" in v["a2-q7-check"]["tags"]
    cell = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "a2-q6-check")
    shown = html_lib.unescape(re.sub(r"<[^>]+>", " ", "".join(str(o.get("data", {}).get("text/html", ""))
                                                              for o in cell.outputs)))
    solution = declaration("a2-q6-tree").exercise(bob).solution()
    assert "Visiting order" in shown and repr(solution) not in shown and ", ".join(solution) not in shown
    html = (course["root"] / "feedback" / bob / "A2" / "A2_alpha_beta.html").read_text(encoding="utf-8")
    assert "Graded outside your notebook: 0 of 2 points" in html


@pytest.mark.nbgrader
def test_the_same_code_passes_on_each_students_own_trees_and_a_copy_is_graded_on_the_copiers(course):
    dave, carol = course["dave"], course["carol"]
    assert course["scores"][dave] == FULL
    vd, _ = verdicts(course, dave)
    va, _ = verdicts(course, course["alice"])
    assert vd["a2-q7-check"]["variant"] != va["a2-q7-check"]["variant"]
    assert f"'{dave}/A2/q7'" in vd["a2-q7-check"]["variant"]
    assert course["scores"][carol] == {**FULL, "a2-q1-check": 0, "a2-q2-check": 0, "a2-q3-check": 0,
                                       "a2-q6-check": 0, "a2-q7-check": 0}
    vc, _ = verdicts(course, carol)
    assert vc["a2-q7-check"]["variant"].startswith(f"rule {rule_of(carol)!r}")


@pytest.mark.nbgrader
def test_a_check_replaced_in_the_kernel_is_caught_on_the_declared_questions(course):
    assert course["scores"]["mallory"] == {**FULL, "a2-q6-check": 0, "a2-q7-check": 0}
    v, _ = verdicts(course, "mallory")
    for gid in ("a2-q6-check", "a2-q7-check"):
        assert "the notebook's own check passed; decided outside the notebook it failed" in " ".join(
            v[gid]["flags"]), v[gid]


@pytest.mark.nbgrader
def test_the_class_report_names_each_students_variant(course):
    rows = (course["root"] / "reports" / "A2_report.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0].endswith(",variant")
    mine = [r for r in rows if ",a2-q7-check," in r]
    assert len(mine) == 5 and all(f"trees from '{r.split(',')[0]}/A2/q7'" in r for r in mine)
    assert "a2-q7-check" in course["report"] and "a variant per student (5 different" in course["report"]


@pytest.mark.parametrize("kind", sorted(gt.exercises.KINDS))
def test_every_exercise_kind_can_be_declared_and_is_decided_by_the_grader(kind):
    seed = "{student}/own/" + kind
    answer = Declaration(None, kind, seed=seed).exercise("jdoe").solution()
    written = repr(answer).replace("inf", "math.inf")

    def cell(source, **meta):
        return nbformat.v4.new_code_cell(source, metadata={"nbgrader": {"grade_id": meta.pop("gid"), **meta}})

    nb = nbformat.v4.new_notebook(cells=[
        cell(f'mine = ga.question("{kind}", seed="{seed}")', gid="decl", locked=True),
        cell(f"def my_answer():\n    return {written}", gid="answer", solution=True),
        cell("ga.score(ga.check_answer(mine, my_answer), 2)", gid="check", grade=True, locked=True,
             points=2)])
    verdict = decide(nb, "jdoe", kernel=False)
    assert [(v.grade_id, v.status, v.earned) for v in verdict.verdicts] == [("check", "right", 2.0)]
    right_for_other = Declaration(None, kind, seed=seed).exercise("other").check(answer).ok
    assert decide(nb, "other", kernel=False).verdicts[0].earned == (2.0 if right_for_other else 0.0)
    if kind != "best_move":  # a label of the root's children may be right on another tree too
        assert not right_for_other


VALUE = '''def value(game, state):
    if game.is_terminal(state):
        return game.utility(state)
    player = game.to_move(state)
    if player == "chance":
        return sum(p * value(game, game.result(state, m)) for m, p in game.chances(state))
    values = [value(game, game.result(state, m)) for m in game.actions(state)]
    return max(values) if player == "max" else min(values)


def best(game, state):
    pick = max if game.to_move(state) == "max" else min
    return pick(game.actions(state), key=lambda m: value(game, game.result(state, m)))
'''


@pytest.mark.parametrize("check, function", [("check_minimax", "value"), ("check_expectimax", "value"),
                                             ("check_best_move", "best")])
def test_a_code_question_of_each_check_is_decided_in_the_child_on_the_students_variant(check, function):
    def cell(source, **meta):
        return nbformat.v4.new_code_cell(source, metadata={"nbgrader": {"grade_id": meta.pop("gid"), **meta}})

    nb = nbformat.v4.new_notebook(cells=[
        cell(f'q = ga.question("code", check="{check}", variant="{{student}}/own/{check}")', gid="decl",
             locked=True),
        cell(VALUE, gid="answer", solution=True),
        cell(f"ga.score(ga.check_code(q, {function}), 3)", gid="check", grade=True, locked=True, points=3)])
    v = decide(nb, "jdoe", kernel=False).verdicts[0]
    assert (v.status, v.earned) == ("right", 3.0), v.text()
    assert v.question.variant == f"trees from 'jdoe/own/{check}'"
    nb.cells[1].source = VALUE.replace('"max" else min', '"max" else max')  # MIN takes the largest
    v = decide(nb, "jdoe", kernel=False).verdicts[0]
    assert v.status == "wrong" and v.earned == 0 and "roles-inverted" in v.tags, v.text()


@pytest.mark.nbgrader
def test_release_refuses_a_declaration_a_student_could_change(tmp_path):
    pytest.importorskip("nbgrader")
    nb = declared_a2()
    cell = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "a2-q7-task")
    cell.metadata["nbgrader"].update(locked=False, solution=True)
    cell.source = "### BEGIN SOLUTION\n" + cell.source + "\n### END SOLUTION"
    (tmp_path / "source").mkdir()
    nbformat.write(nb, tmp_path / "source" / A2.name)
    done = assignments_cli("release", tmp_path / "source", tmp_path / "student")
    assert done.returncode == 2 and not (tmp_path / "student").exists()
    assert done.stderr.strip() == (f"error: {A2.name}: cell 'a2-q7-task': ga.question(...) must be in a "
                                   "read-only cell (nbgrader's 'Read-only'), so that students cannot "
                                   "change it")


def test_the_task_the_documentation_shows_is_the_one_jdoe_is_given(monkeypatch):
    monkeypatch.delenv(ga.ENV_VAR, raising=False)
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    ga.student_id("jdoe")
    space = {"ga": ga, "print": lambda *args: None}
    task = next(s for g, _, _, s in doc_cells() if g == "a2-q7-task")
    exec(task, space)  # noqa: S102 -- the documented cell
    shown = DOC.read_text(encoding="utf-8").split("prints the student's task, e.g. `", 1)[1].split("`", 1)[0]
    assert " ".join(shown.split()) == repr(space["tie_rule"])


def task_variant_cells():
    """``{role: source}``: the cells of "A variant of the task: count the leaves", as printed."""
    text = DOC.read_text(encoding="utf-8").split("**A variant of the task: count the leaves.**", 1)[1]
    cells = {}
    text = text.split("\nA test cell of the shipped form", 1)[0]
    for block in re.findall(r"```python\n(.*?)```", text, re.DOTALL):
        first, _, body = block.partition("\n")
        m = re.fullmatch(r"# task variant · (Read-only|Autograded answer|Autograder tests) cell"
                         r"(?:, (\d+) points)?", first)
        assert m, first
        cells[m[1]] = (body.rstrip("\n"), int(m[2]) if m[2] else None)
    return cells


def _counting(rule):
    """A student's count_leaves with ``rule`` written in (the documented solution with the rule fixed)."""
    source = task_variant_cells()["Autograded answer"][0]
    solution = source.split("### BEGIN SOLUTION\n", 1)[1].split("    ### END SOLUTION", 1)[0]
    head = source.split("    ### BEGIN SOLUTION", 1)[0]
    return head + solution.replace('leaves.options["rule"] == "strict"', repr(rule == "strict"))


def test_the_documented_task_variant_counts_the_leaves_with_each_students_rule(monkeypatch):
    monkeypatch.delenv(ga.ENV_VAR, raising=False)
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    cells = task_variant_cells()
    assert set(cells) == {"Read-only", "Autograded answer", "Autograder tests"}
    ga.student_id("jdoe")
    printed = []
    space = {"ga": ga, "math": math, "print": printed.append}
    exec(cells["Read-only"][0], space)  # noqa: S102 -- the documented cells, as printed
    shown = DOC.read_text(encoding="utf-8").split("The read-only cell prints e.g. `check_leaf_count", 1)[1]
    assert " ".join(("check_leaf_count" + shown.split("`", 1)[0]).split()) == repr(printed[0])
    exec(cells["Autograded answer"][0], space)  # noqa: S102
    assert eval(cells["Autograder tests"][0], space).feedback.ok  # the documented test cell

    def cell(source, **meta):
        return nbformat.v4.new_code_cell(source, metadata={"nbgrader": {"grade_id": meta.pop("gid"), **meta}})

    def notebook(answer):
        return nbformat.v4.new_notebook(cells=[
            cell("import math", gid="setup", locked=True),
            cell(cells["Read-only"][0], gid="a2-q8-task", locked=True),
            cell(answer, gid="a2-q8-answer", solution=True),
            cell(cells["Autograder tests"][0], gid="a2-q8-check", grade=True, locked=True,
                 points=cells["Autograder tests"][1])])

    declared = Declaration(None, "code", check="check_leaf_count", variant="{student}/A2/q8",
                           rule=["textbook", "strict"])
    other = _pick("count", lambda s: declared.options(s)["rule"] != declared.options("jdoe")["rule"])
    rules = {s: declared.options(s)["rule"] for s in ("jdoe", other)}
    (one, _), (other, _) = rules.items()
    mine = notebook(_counting(rules[one]))
    v = decide(mine, one, kernel=False).verdicts[0]
    assert (v.status, v.earned) == ("right", 3.0), v.text()
    assert v.question.variant == f"rule {rules[one]!r}, trees from '{one}/A2/q8'"
    v = decide(mine, other, kernel=False).verdicts[0]  # the same code, another student's tie rule
    assert v.status == "wrong" and "alpha-beta evaluates" in v.text(), v.text()
    every = notebook("def count_leaves(game, state, alpha, beta):\n    if game.is_terminal(state):\n"
                     "        game.utility(state)\n        return 1\n    return sum(count_leaves(game, "
                     "game.result(state, m), alpha, beta) for m in game.actions(state))")
    v = decide(every, one, kernel=False).verdicts[0]
    assert v.status == "wrong" and "your function evaluated 9 leaves and returned 9" in v.text(), v.text()
