"""What a learner is told about the checks: those run in the notebook, and those the grader adds.

* In the notebook a code check that passes says what it ran ("the checks you can run here passed (11 of 11:
  the textbook tree, ...); the grader checks more after you submit"), never "all checks passed"; partial
  and empty answers get a title true of them.
* The grader adds checks of its own (:mod:`gametrees.classroom.hidden`, on the student's own variant). The
  feedback after grading names each that failed, by name, and never shows its tree, leaves or value.
* Through nbgrader's real exchange and ``python -m gametrees.assignments autograde`` (module fixture
  ``course``): ``erin`` starts her alpha-beta's best value at -1000 / +1000 instead of -∞ / +∞. Every check
  she can run passes in her kernel; the grader's "large values" check fails, and her feedback names it
  without its values.
"""

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
from test_classroom_flow import _PHASE1, _PHASE2, RIGHT_CODE, RIGHT_Q4, answers

import gametrees as gt
from gametrees import assignments as ga
from gametrees.classroom.grading import environment, execute
from gametrees.classroom.hidden import hidden_names, large_value_trees
from gametrees.classroom.verdicts import decide

ROOT = Path(__file__).resolve().parents[1]
A2 = ROOT / "instructor" / "assignments" / "A2_alpha_beta.ipynb"
LARGE = "large values (every leaf beyond ±1000)"
#: A2's alpha-beta with the best value so far started at -1000 / +1000: right on every tree whose values
#: lie within ±1000, as all the notebook's do.
SENTINEL_Q4 = RIGHT_Q4.replace("value = -math.inf", "value = -1000").replace("value = math.inf",
                                                                            "value = 1000")


def _names_below(fb):
    """The check names the ✓ lines under a title report (the words before ':' or ' (' / ' [')."""
    return list(dict.fromkeys(re.split(r"\s[(\[]|:", line[2:], maxsplit=1)[0] for line in fb.lines
                              if line.startswith("✓")))


def _functions(source):
    space = {"math": math}
    exec(source, space)  # noqa: S102 -- a learner's answer cell
    return space


@pytest.fixture(autouse=True)
def _as_jdoe(monkeypatch):
    monkeypatch.delenv(ga.ENV_VAR, raising=False)
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    ga.student_id("jdoe")


def test_a_passing_check_in_the_notebook_says_which_checks_ran_there_and_that_the_grader_checks_more():
    q = ga.question("code", check="check_alphabeta", variant="{student}/A2/q4")
    fb = ga.check_code(q, _functions(RIGHT_Q4)["alphabeta_value"])
    names = _names_below(fb)
    assert fb.ok and not re.search(r"\ball\b", fb.title) and "checks passed" not in fb.title
    assert fb.title == (f"check_alphabeta: the checks you can run here passed ({len(names)} of {len(names)}: "
                        f"{', '.join(names)}); the grader checks more after you submit.")


def test_a_partial_and_an_empty_answer_get_a_title_true_of_them():
    q = ga.question("code", check="check_minimax", variant="{student}/A1/q3")

    def minimax_value(game, state):  # MIN takes the largest value too
        if game.is_terminal(state):
            return game.utility(state)
        return max(minimax_value(game, game.result(state, m)) for m in game.actions(state))

    fb = ga.check_code(q, minimax_value)
    right = sum(line.startswith("✓") for line in fb.lines)
    wrong = sum(line.startswith("✗") for line in fb.lines)
    m = re.fullmatch(r"check_minimax: (\d+) of the (\d+) checks you can run here passed; the grader checks "
                     r"more after you submit\.", fb.title)
    assert not fb.ok and m, fb.title
    assert int(m[1]) < int(m[2]) and int(m[1]) <= right and wrong >= 1

    def unwritten(game, state):
        raise NotImplementedError()

    fb = ga.check_code(q, unwritten)
    assert fb.title == "check_minimax: not written yet." and "passed" not in str(fb)


def test_a3s_check_of_positions_says_the_grader_runs_it_again():
    fb = ga.check_connect4_evaluation(gt.classroom.connect_four.centre_column_evaluation)
    assert fb.ok
    assert fb.title.startswith("check_connect4_evaluation: the checks you can run here passed (4 of 4: ")
    assert fb.title.endswith("; the grader runs them again on what you submit.")


def _notebook(check, function_source, call):
    def cell(source, **meta):
        return nbformat.v4.new_code_cell(source, metadata={"nbgrader": {"grade_id": meta.pop("gid"), **meta}})

    return nbformat.v4.new_notebook(cells=[
        cell("import math", gid="setup", locked=True),
        cell(f'q = ga.question("code", check="{check}", variant="{{student}}/own/{check}")', gid="decl",
             locked=True),
        cell(function_source, gid="answer", solution=True),
        cell(f"ga.score(ga.check_code(q, {call}), 3)", gid="check", grade=True, locked=True, points=3)])


VALUE = '''def value(game, state):
    if game.is_terminal(state):
        return game.utility(state)
    player = game.to_move(state)
    if player == "chance":
        return sum(p * value(game, game.result(state, m)) for m, p in game.chances(state))
    best = -1000 if player == "max" else 1000
    for m in game.actions(state):
        v = value(game, game.result(state, m))
        best = max(best, v) if player == "max" else min(best, v)
    return best


def best_move(game, state):
    maximizing = game.to_move(state) == "max"
    move, best = None, -1000 if maximizing else 1000
    for m in game.actions(state):
        v = value(game, game.result(state, m))
        if (v > best) if maximizing else (v < best):
            move, best = m, v
    return move
'''


@pytest.mark.parametrize("check, call", [("check_minimax", "value"), ("check_expectimax", "value"),
                                         ("check_alphabeta", "alphabeta_value"),
                                         ("check_best_move", "best_move")])
def test_the_grader_names_an_added_check_that_failed_and_never_its_tree(check, call):
    source = SENTINEL_Q4 if check == "check_alphabeta" else VALUE
    nb = _notebook(check, source, call)
    q = ga.question("code", check=check, variant="{student}/own/" + check)
    here = ga.check_code(q, _functions(source)[call])
    assert here.ok and "the checks you can run here passed" in here.title, here.title
    v = decide(nb, "jdoe", kernel=False).verdicts[0]
    assert (v.status, v.earned) == ("wrong", 0.0)
    shown = v.text() + "\n" + "\n".join(v.record()["lines"]) + v.record()["title"]
    assert f"Failed, a check the grader adds (its tree is not shown): {LARGE}." in shown
    assert v.record()["added_failed"] == [LARGE]
    for other in hidden_names(check, {})[1:]:
        assert f"Passed, a check the grader adds: {other}." in shown
    for G in large_value_trees(f"jdoe/own/{check}", chance=check == "check_expectimax"):
        values = [G.nodes[n]["utility"] for n in G if not G.out_degree(n)]
        values.append((gt.expectimax if check == "check_expectimax" else gt.minimax)(G).value)
        for x in values:
            assert not re.search(rf"(?<![\d.]){re.escape(gt.exercises.feedback.fmt(x))}(?![\d])", shown), x


# ----------------------------------------------------------------------------
# Through the real exchange and the grading command
# ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    built = prebuilt.result("hidden_checks_course", tmp_path_factory.mktemp)
    # Her kernel, as she runs the notebook at home (here, in the main thread: a kernel client in the
    # background thread would share this interpreter's event loop policy).
    kernel = nbformat.read(built["homes"] / "erin" / "A2" / A2.name, as_version=4)
    with environment(**{ga.ENV_VAR: None, "NBGRADER_EXECUTION": None}):
        execute(kernel, built["tmp"], timeout=120)
    return {**built, "kernel": kernel}


def _erins_plan():
    """Erin's cells (in the main thread: the by-hand answers are computed with the library)."""
    pytest.importorskip("nbgrader")
    by_hand = {k: v for k, v in answers("erin").items() if k.startswith("a2-q")}
    return {"erin": {**by_hand, **RIGHT_CODE, "a2-q4-answer": SENTINEL_Q4,
                     "STUDENT_ID": 'STUDENT_ID = "erin"'}}


@prebuilt.prebuild("hidden_checks_course", needed_by="course", prepare=_erins_plan)
def _build_course(tmp, plan):
    """Erin's A2 through the exchange, graded and reported (built while the first tests run)."""
    root, exchange, homes = tmp / "course", tmp / "exchange", tmp / "homes"
    (root / "source" / "A2").mkdir(parents=True)
    exchange.mkdir(mode=0o777)
    exchange.chmod(0o777)
    homes.mkdir()
    (root / "nbgrader_config.py").write_text(
        "c = get_config()\nc.CourseDirectory.course_id = 'gametrees'\n"
        f"c.Exchange.root = {str(exchange)!r}\nc.Execute.timeout = 20\n")
    (root / "source" / "A2" / A2.name).write_bytes(A2.read_bytes())
    env = {k: v for k, v in os.environ.items()
           if k not in (ga.ENV_VAR, "NBGRADER_EXECUTION", "JUPYTERHUB_USER")}
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env["PYTHONPATH"] = str(ROOT)
    run = {"capture_output": True, "text": True, "timeout": 900, "env": env}
    out = subprocess.run([sys.executable, "-c", _PHASE1, str(root), str(exchange), str(homes),
                          json.dumps(plan)], check=False, **run)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    graded = subprocess.run([sys.executable, "-m", "gametrees.assignments", "autograde", str(root), "A2"],
                            check=False, **run)
    assert graded.returncode == 0, graded.stdout[-3000:] + graded.stderr[-3000:]
    out = subprocess.run([sys.executable, "-c", _PHASE2, str(root)], check=False, **run)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    report = subprocess.run([sys.executable, "-m", "gametrees.assignments", "report", str(root), "A2",
                             "--no-chart"], check=False, **run)
    assert report.returncode == 0, report.stderr
    return {"root": root, "homes": homes, "tmp": tmp, "report": report.stdout}


def _cell(nb, gid):
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == gid)


def _text(cell):
    return "\n".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", ""))
                     for o in cell.outputs)


def test_in_her_kernel_every_check_she_can_run_passes_and_says_the_grader_checks_more(course):
    shown = _text(_cell(course["kernel"], "a2-q4-check"))
    assert "✓ check_alphabeta: the checks you can run here passed (" in shown, shown[:300]
    assert "the grader checks more after you submit." in shown and "✗" not in shown


def test_after_grading_her_feedback_names_the_added_check_that_failed_and_none_of_its_values(course):
    nb = nbformat.read(course["root"] / "autograded" / "erin" / "A2" / A2.name, as_version=4)
    verdicts = {v["grade_id"]: v for v in nb.metadata["gametrees"]["verdicts"]}
    assert verdicts["a2-q4-check"]["earned"] == 0 and verdicts["a2-q4-check"]["added_failed"] == [LARGE]
    assert not verdicts["a2-q4-check"]["flags"]  # what she could run passed: no disagreement to flag
    # q4's slip costs q5 nothing
    assert verdicts["a2-q5-check"]["earned"] == verdicts["a2-q5-check"]["points"]
    html = (course["root"] / "feedback" / "erin" / "A2" / "A2_alpha_beta.html").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", " ", html)
    assert f"Failed, a check the grader adds (its tree is not shown): {LARGE}." in text
    for G in large_value_trees("erin/A2/q4"):
        for x in [G.nodes[n]["utility"] for n in G if not G.out_degree(n)] + [gt.minimax(G).value]:
            assert str(abs(x)) not in text and f"{abs(x):,}" not in text, x
    assert f"failed a check the grader adds, {LARGE}: 1 of 1" in course["report"]


def test_an_added_check_that_does_not_finish_fails_by_name_and_is_a_timeout_not_a_slip():
    looping = VALUE.replace("        return game.utility(state)\n",
                            "        u = game.utility(state)\n        while abs(u) > 1000:\n"
                            "            pass\n        return u\n", 1)
    nb = _notebook("check_minimax", looping, "value")
    v = decide(nb, "jdoe", kernel=False, call_limit=1).verdicts[0]
    assert (v.status, v.earned) == ("error", 0.0), v.text()
    assert v.errors == ["your function value() did not return within 1 s"]
    assert (f"Failed, a check the grader adds (its tree is not shown): {LARGE} (it did not finish: your "
            "function value() did not return within 1 s).") in v.text()
    assert "Passed, a check the grader adds" not in v.text()  # the rest were not run
