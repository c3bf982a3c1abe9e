"""The course on a real JupyterHub, end to end: two students and an instructor (tests/hub.py).

The students' environment is made with ``deploy/jupyterhub/make_env.sh student``, the hub is
started from ``deploy/jupyterhub/jupyterhub_config.py`` (try-out mode, on 127.0.0.1), and then, as
INSTRUCTORS.md's "The course on JupyterHub" says: the instructor generates and releases A2; two
students log in through the hub's page, fetch A2 in the Assignments panel, answer it with the id
cell left empty, Run All in JupyterLab, save and submit; the instructor collects, grades with the
one grading command and generates feedback. Asserted: each student was graded on the trees of
their hub login (s1 answers right for s1's trees; s2 copies s1's answers to part 1, which the
checks, run here on s2's own trees, say are wrong there), with the points the checks give those
answers; a student's home is private; a student cannot open the Formgrader, the instructor can;
the instructor version re-run and saved on the hub uses the practice trees.

Skipped without Chromium or configurable-http-proxy, unless GT_REQUIRE_HUB=1 (CI sets it).
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import sys
import time

import nbformat
import prebuilt
import pytest
from hub import REPO, HubCourse, HubUser, hub_missing, rss_mb

import gametrees as gt

ASSIGNMENT = "A2"
INSTRUCTOR_NOTEBOOK = REPO / "instructor" / "assignments" / "A2_alpha_beta.ipynb"
NOTEBOOK = f"{ASSIGNMENT}/{INSTRUCTOR_NOTEBOOK.name}"  # where nbgrader 0.9 fetches it: ~/A2/
POINTS = {"a2-q1-check": 2, "a2-q2-check": 2, "a2-q3-check": 1, "a2-q4-check": 4, "a2-q5-check": 2}

_missing = hub_missing()
if _missing and os.environ.get("GT_REQUIRE_HUB") == "1":
    raise RuntimeError(f"GT_REQUIRE_HUB=1 but the hub test cannot run: {_missing}")
pytestmark = [pytest.mark.hub, pytest.mark.skipif(_missing is not None, reason=_missing or "")]


def literal(x) -> str:
    """Python source for an answer, as a student types it (``math.inf`` for ∞)."""
    if isinstance(x, float) and math.isinf(x):
        return "math.inf" if x > 0 else "-math.inf"
    if isinstance(x, (list, tuple)):
        inner = ", ".join(literal(v) for v in x)
        return f"[{inner}]" if isinstance(x, list) else f"({inner}{',' if len(x) == 1 else ''})"
    if isinstance(x, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in x.items()) + "}"
    return repr(x)


def part_one(login: str):
    """The three part-1 exercises of A2 for ``login``, made as the notebook's trees cell makes them."""
    pruning = gt.exercises.generate("pruning", seed=f"{login}/A2", difficulty="medium")
    returned = gt.exercises.ValuesExercise(pruning.tree, algorithm="alphabeta")
    window = gt.exercises.WindowExercise(pruning.tree)
    return {"a2-q1": pruning, "a2-q2": returned, "a2-q3": window}


FUNCTIONS = {"a2-q1": "pruned_leaves", "a2-q2": "returned_values", "a2-q3": "window_when_it_returns"}


def solution_code(grade_id: str) -> str:
    """The instructor's solution of a code question (the student writes the same algorithm)."""
    nb = nbformat.read(INSTRUCTOR_NOTEBOOK, as_version=4)
    (cell,) = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id]
    return re.sub(r"\n? *### (BEGIN|END) SOLUTION", "", cell.source)


def answered(nb: dict, answers: dict) -> dict:
    """The student's notebook with their answers typed into the answer cells."""
    for cell in nb["cells"]:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id", "")
        if grade_id.endswith("-answer") and grade_id[:-7] in answers:
            cell["source"] = answers[grade_id[:-7]]
    return nb


def by_hand(answers_of: str) -> dict:
    """Part 1 answered with the right answers for ``answers_of``'s trees."""
    out = {}
    for q, ex in part_one(answers_of).items():
        out[q] = f"def {FUNCTIONS[q]}():\n    return {literal(ex.solution())}\n"
    return out


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    import browser
    from playwright.sync_api import sync_playwright

    course = HubCourse(tmp_path_factory.mktemp("hub"))
    course.prepare(INSTRUCTOR_NOTEBOOK, ASSIGNMENT)
    course.student_env, timings = prebuilt.result("hub_student_env", tmp_path_factory.mktemp)
    course.timings.update(timings)
    for login in ("s1", "s2", course.instructor):
        course.settings_for(login)
    t = time.monotonic()
    course.instructor_runs(sys.executable, "-m", "nbgrader", "generate_assignment", ASSIGNMENT)
    course.instructor_runs(sys.executable, "-m", "nbgrader", "release_assignment", ASSIGNMENT)
    course.timings["generate and release A2"] = time.monotonic() - t
    course.start()
    pw = sync_playwright().start()
    chromium = pw.chromium.launch(executable_path=browser.CHROMIUM, args=browser.CHROMIUM_ARGS)
    try:
        yield course, chromium
    finally:
        chromium.close()
        pw.stop()
        course.stop()
        print("\nhub timings (s): " + ", ".join(f"{k} {v:.1f}" for k, v in course.timings.items()))


@prebuilt.prebuild("hub_student_env", needed_by="hub")
def _student_env(folder):
    """The students' environment (``make_env.sh student``: a venv and pip), made in the background from the
    session's start (tests/prebuilt.py)."""
    course = HubCourse(folder)
    course.make_student_env()
    return course.student_env, course.timings


def test_a_class_on_the_hub(hub):
    course, chromium = hub
    answers = {
        # s1: right, for s1's own trees; the code as the instructor's solution
        "s1": {**by_hand("s1"), "a2-q4": solution_code("a2-q4-answer"),
               "a2-q5": solution_code("a2-q5-answer")},
        # s2: part 1 copied from s1 (right for s1's trees, not for s2's); the same code
        "s2": {**by_hand("s1"), "a2-q4": solution_code("a2-q4-answer"),
               "a2-q5": solution_code("a2-q5-answer")},
    }
    # What each student should get: the checks run here on the student's own trees.
    expected = {}
    for login in answers:
        mine = part_one(login)
        theirs = part_one("s1")
        points = {f"{q}-check": POINTS[f"{q}-check"] * mine[q].check(theirs[q].solution()).ok for q in mine}
        points.update({"a2-q4-check": 4, "a2-q5-check": 2})
        expected[login] = points
    assert sum(expected["s1"].values()) == 11
    assert sum(expected["s2"].values()) < 11, "s1's part-1 answers happen to be right for s2's trees too"

    memory = {}
    for login in ("s1", "s2"):
        student = HubUser(course, chromium, login)
        t = time.monotonic()
        student.log_in()
        course.timings[f"{login} log in (server starts)"] = time.monotonic() - t
        home = course.homes / login
        assert stat.S_IMODE(home.stat().st_mode) == 0o700, "a student's home must be private"

        t = time.monotonic()
        listed = student.assignments("fetch", ASSIGNMENT)
        course.timings[f"{login} fetch"] = time.monotonic() - t
        fetched = [a for a in listed["value"]
                   if a["assignment_id"] == ASSIGNMENT and a["status"] == "fetched"]
        assert fetched and fetched[0]["path"] == ASSIGNMENT, listed
        assert (home / NOTEBOOK).exists(), "nbgrader 0.9 fetches into ~/A2/"

        nb = student.read_notebook(NOTEBOOK)
        (id_cell,) = [c for c in nb["cells"] if "STUDENT_ID =" in "".join(c["source"])]
        assert re.search(r'STUDENT_ID = ""', "".join(id_cell["source"])), "the id cell is left empty"
        assert "BEGIN SOLUTION" not in json.dumps(nb) and "pruning.solution()" not in json.dumps(nb)
        student.write_notebook(NOTEBOOK, answered(nb, answers[login]))

        t = time.monotonic()
        cells = student.run_notebook(NOTEBOOK)
        course.timings[f"{login} Run All"] = time.monotonic() - t
        text = student.notebook_page.page.inner_text(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")
        assert f"Your tree is made from the id '{login}'." in text, "an empty id cell means the hub login"
        assert cells, "the page shows the notebook's cells"
        pid = student.server_pid()
        memory[login] = rss_mb(pid) if pid else float("nan")

        t = time.monotonic()
        student.assignments("submit", ASSIGNMENT)
        course.timings[f"{login} submit"] = time.monotonic() - t
        status, _ = student.request("GET", "formgrader", None)
        assert status == 404, f"a student opened the Formgrader (HTTP {status})"
        student.close()
    course.timings.update({f"memory of {k}'s server and kernel (MB)": v for k, v in memory.items()})

    instructor = HubUser(course, chromium, course.instructor)
    instructor.log_in()
    status, body = instructor.request("GET", "formgrader/api/assignments", None)
    assert status == 200 and ASSIGNMENT in body, f"the instructor's Formgrader: HTTP {status} {body[:300]}"
    # The instructor version, re-run on the hub: the practice trees, not the instructor's login as an id.
    source = f"course/source/{NOTEBOOK}"
    instructor.run_notebook(source)
    text = instructor.notebook_page.page.inner_text(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")
    assert "Your tree is made from the id 'practice'." in text and "No student id" not in text
    saved = json.dumps(instructor.read_notebook(source))
    assert "made from the id 'practice'" in saved and f"made from the id '{course.instructor}'" not in saved
    instructor.close()

    t = time.monotonic()
    course.instructor_runs(sys.executable, "-m", "nbgrader", "collect", ASSIGNMENT)
    collected = sorted(p.name for p in (course.course / "submitted").iterdir())
    assert collected == ["s1", "s2"], f"submissions filed under {collected}, not the hub logins"
    # The one grading command (INSTRUCTORS.md section 5): grades decided outside the students' kernels.
    course.instructor_runs(sys.executable, "-m", "gametrees.assignments", "autograde", ".", ASSIGNMENT,
                           "--jobs", "2")
    course.instructor_runs(sys.executable, "-m", "nbgrader", "generate_feedback", ASSIGNMENT)
    course.timings["collect, grade and feedback for 2"] = time.monotonic() - t

    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course.course / 'gradebook.db'}") as gb:
        for login, points in expected.items():
            sub = gb.find_submission_notebook(INSTRUCTOR_NOTEBOOK.stem, ASSIGNMENT, login)
            got = {g.name: g.score for g in sub.grades if g.name in POINTS}
            assert got == points, f"{login}: graded {got}, expected {points}"
    for login in expected:
        graded = (course.course / "autograded" / login / NOTEBOOK).read_text()
        assert f"Your tree is made from the id '{login}'." in graded
        feedback = course.course / "feedback" / login / ASSIGNMENT / f"{INSTRUCTOR_NOTEBOOK.stem}.html"
        assert feedback.exists()
