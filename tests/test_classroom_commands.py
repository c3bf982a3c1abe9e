"""Issue 32, items 6 and 7: no file lost and no wrong grade from the classroom commands and ``gt.export``.

``release`` replaces only the student versions it made (its mark in the notebook's metadata), never a
lesson, an instructor version, nbgrader's own release or a student's work, not even with ``--force``;
``autograde`` refuses bad arguments, a bad course folder or gradebook before nbgrader starts (the Python
API as the command line), and a failed run keeps a student's earlier result; ``report`` replaces only
its own unchanged files; ``gt.export`` and ``gt.animate`` replace only an export's file unless
``force=True``. The command lines' bad inputs, one table row each, are in tests/test_bad_inputs_cli.py.
"""

import json
import math
import shutil
import sqlite3

import nbformat
import numpy as np
import pytest
from courses import A1, ROOT, assignments_cli, course, read_only_works, snapshot, template

import gametrees as gt
from gametrees import assignments as ga
from gametrees.classroom.course import EarlierResults
from gametrees.classroom.releases import MARK, made_by_release

INSTRUCTOR = ROOT / "instructor" / "assignments"
STUDENT = ROOT / "notebooks" / "assignments"
LESSON = ROOT / "notebooks" / "01_game_trees.ipynb"


@pytest.fixture(scope="module")
def template_course(tmp_path_factory):
    return template(tmp_path_factory)


# ----------------------------------------------------------------------------
# release: only over its own student versions
# ----------------------------------------------------------------------------


def test_release_force_never_replaces_a_lesson(tmp_path, capsys):
    """The issue's reproduction, on a copy of the lesson: refused, named, the lesson's bytes unchanged."""
    lesson = tmp_path / "01_game_trees.ipynb"
    shutil.copy(LESSON, lesson)
    before = lesson.read_bytes()
    assert ga.main(["release", str(A1), str(lesson), "--force"]) == 2
    err = capsys.readouterr().err
    assert "01_game_trees.ipynb" in err and "not a student version release made" in err
    assert len(err.splitlines()) == 1
    assert lesson.read_bytes() == before


def _edited(nb, change):
    nb = nbformat.reads(nbformat.writes(nb), as_version=4)
    change(nb)
    return nb


def _markdown_answer(nb):
    next(c for c in nb.cells if c.cell_type == "markdown").source += "\n\nMy notes: alpha is the lower bound."


def _new_cell(nb):
    nb.cells.append(nbformat.v4.new_code_cell("print('my experiment')"))


def _forged_mark(nb):
    _markdown_answer(nb)
    nb.metadata[MARK] = dict(nb.metadata[MARK])  # the old mark kept, the cells changed


NOT_OURS = {
    "an instructor version": lambda: nbformat.read(INSTRUCTOR / A1.name, as_version=4),
    "a lesson": lambda: nbformat.read(LESSON, as_version=4),
    "a student version without the mark": lambda: _edited(nbformat.read(STUDENT / A1.name, as_version=4),
                                                          lambda nb: nb.metadata.pop(MARK)),
    "a student's notes in a markdown cell": lambda: _edited(nbformat.read(STUDENT / A1.name, as_version=4),
                                                            _markdown_answer),
    "a cell the student added": lambda: _edited(nbformat.read(STUDENT / A1.name, as_version=4), _new_cell),
    "a mark kept over changed cells": lambda: _edited(nbformat.read(STUDENT / A1.name, as_version=4),
                                                      _forged_mark),
}


@pytest.mark.parametrize("what", list(NOT_OURS))
def test_release_force_never_replaces_a_notebook_it_did_not_make(tmp_path, what):
    target = tmp_path / A1.name
    nbformat.write(NOT_OURS[what](), target)
    before = target.read_bytes()
    assert not made_by_release(target)
    with pytest.raises(ValueError, match=rf"{A1.name}'.*(holds|not a student version release made)"):
        ga.release(A1, target, force=True)
    assert target.read_bytes() == before


@pytest.mark.nbgrader
def test_release_force_never_replaces_nbgraders_own_release_nor_a_file(template_course, tmp_path):
    theirs = course(template_course, tmp_path) / "release" / "A1"
    before = snapshot(theirs)
    with pytest.raises(ValueError, match="not a student version release made"):
        ga.release(A1, theirs, force=True)
    text = tmp_path / "notes.ipynb"
    text.write_text("my notes, not JSON")
    with pytest.raises(ValueError, match="notes.ipynb"):
        ga.release(A1, text, force=True)
    assert snapshot(theirs) == before and text.read_text() == "my notes, not JSON"


def test_release_force_replaces_its_own_student_version_even_after_it_ran(tmp_path):
    out = tmp_path / "student"
    first = ga.release(A1, out)[0]
    nb = nbformat.read(first, as_version=4)
    for cell in nb.cells:  # opened and run: outputs and counts, no cell changed
        if cell.cell_type == "code":
            cell.outputs = [nbformat.v4.new_output("stream", text="ran\n")]
            cell.execution_count = 1
    nbformat.write(nb, first)
    assert made_by_release(first)
    assert ga.release(A1, out, force=True) == [first]
    assert json.loads(first.read_text()) == json.loads((STUDENT / A1.name).read_text())  # the fresh release


def test_the_committed_student_versions_carry_the_mark():
    """So that ``release instructor/assignments notebooks/assignments --force`` (INSTRUCTORS.md) works."""
    for path in sorted(STUDENT.glob("*.ipynb")):
        assert made_by_release(path), path.name


def test_release_writes_nothing_when_one_target_is_refused(tmp_path):
    out = tmp_path / "student"
    ga.release(INSTRUCTOR, out)
    shutil.copy(LESSON, out / "A2_alpha_beta.ipynb")  # a lesson under an assignment's name
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in out.iterdir()}
    with pytest.raises(ValueError, match="A2_alpha_beta.ipynb"):
        ga.release(INSTRUCTOR, out, force=True)
    assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in out.iterdir()} == before


def test_release_force_must_be_a_bool(tmp_path):
    with pytest.raises(TypeError, match="force must be True or False, got 'yes'"):
        ga.release(A1, tmp_path, force="yes")


# ----------------------------------------------------------------------------
# autograde: every argument, the course and the gradebook checked before nbgrader
# ----------------------------------------------------------------------------

BAD_AUTOGRADE = [
    ({"call_limit": math.nan}, ValueError, "call_limit must be a number of seconds from 1 to 600, got nan"),
    ({"call_limit": math.inf}, ValueError, "call_limit must be a number of seconds from 1 to 600, got inf"),
    ({"call_limit": 0}, ValueError, "got 0"),
    ({"call_limit": -1}, ValueError, "got -1"),
    ({"call_limit": 0.5}, ValueError, "from 1 to 600"),
    ({"call_limit": 10**6}, ValueError, "from 1 to 600"),
    ({"call_limit": "5"}, TypeError, "call_limit must be a number of seconds"),
    ({"call_limit": True}, TypeError, "call_limit"),
    ({"jobs": 0}, ValueError, "jobs must be a whole number from 1 to 64, got 0"),
    ({"jobs": 65}, ValueError, "got 65"),
    ({"jobs": 2.0}, TypeError, "jobs must be a whole number"),
    ({"jobs": True}, TypeError, "jobs"),
    ({"students": "jdoe"}, TypeError, "students must be a list of student ids"),
    ({"students": []}, ValueError, "students is an empty list"),
    ({"students": [""]}, ValueError, "students must be a folder name such as 'jdoe', got ''"),
    ({"students": ["jdoe", "jdoe"]}, ValueError, "'jdoe' is given twice"),
    ({"students": ["../jdoe"]}, ValueError, "not a path"),
    ({"students": [7]}, TypeError, "students must be a str"),
    ({"assignment": ""}, ValueError, "assignment must be a folder name such as 'A2', got ''"),
    ({"assignment": "*"}, ValueError, "pattern"),
    ({"assignment": ".hidden"}, ValueError, "hidden"),
    ({"assignment": None}, TypeError, "assignment must be a str"),
    ({"course": b"course"}, TypeError, "course must be a folder"),
]


@pytest.mark.nbgrader
@pytest.mark.parametrize(("change", "error", "words"), BAD_AUTOGRADE, ids=[str(r[0]) for r in BAD_AUTOGRADE])
def test_autograde_refuses_a_bad_argument_before_touching_the_course(template_course, tmp_path, change, error,
                                                                     words):
    root = course(template_course, tmp_path)
    before = snapshot(root)
    args = {"course": root, "assignment": "A1", **change}
    with pytest.raises(error) as caught:
        ga.autograde(args.pop("course"), args.pop("assignment"), **args)
    assert words in str(caught.value)
    assert snapshot(root) == before


def test_autograde_accepts_numpy_numbers_as_their_values():
    from gametrees.classroom.course import autograde_arguments

    assert autograde_arguments("c", "A1", jobs=np.int64(2), students=("a", "b"), call_limit=np.float64(2.5)) \
        == (2, ["a", "b"], 2.5)


def _no_gradebook(root):
    (root / "gradebook.db").unlink()


def _empty(root):
    (root / "gradebook.db").write_bytes(b"")


def _garbage(root):
    (root / "gradebook.db").write_bytes(bytes(range(256)) * 40)


def _truncated(root):
    data = (root / "gradebook.db").read_bytes()
    (root / "gradebook.db").write_bytes(data[: len(data) // 3])


def _other_sqlite(root):
    (root / "gradebook.db").unlink()
    with sqlite3.connect(root / "gradebook.db") as con:
        con.execute("CREATE TABLE marks (student, points)")


def _assignment_forgotten(root):
    with sqlite3.connect(root / "gradebook.db") as con:
        con.execute("PRAGMA foreign_keys = OFF")
        con.execute("DELETE FROM notebook")
        con.execute("DELETE FROM assignment")


def _gradebook_a_folder(root):
    (root / "gradebook.db").unlink()
    (root / "gradebook.db").mkdir()


def _autograded_a_file(root):
    (root / "autograded").write_text("not a folder")


def _config_breaks(root):
    (root / "nbgrader_config.py").write_text("raise RuntimeError('half-edited config')\n")


BAD_COURSES = {
    "no gradebook": (_no_gradebook, "no gradebook: "),
    "an empty gradebook": (_empty, "is empty, not an nbgrader database"),
    "a garbage gradebook": (_garbage, "file is not a database"),
    "a truncated gradebook": (_truncated, "cannot read the gradebook"),
    "another SQLite database": (_other_sqlite, "is not an nbgrader gradebook"),
    "the assignment not in the gradebook": (_assignment_forgotten, "no assignment 'A1' in the gradebook"),
    "a folder for a gradebook": (_gradebook_a_folder, "is not a file"),
    "a file for autograded/": (_autograded_a_file, "autograded' is not a folder"),
    "a broken nbgrader_config.py": (_config_breaks, "cannot load"),
}


@pytest.mark.nbgrader
@pytest.mark.parametrize("what", list(BAD_COURSES))
def test_a_bad_course_or_gradebook_is_one_sentence_before_nbgrader(template_course, tmp_path, what):
    root = course(template_course, tmp_path)
    damage, words = BAD_COURSES[what]
    damage(root)
    before = snapshot(root)
    with pytest.raises(ValueError) as caught:
        ga.autograde(root, "A1")
    message = str(caught.value)
    assert words in message and "\n" not in message and "Please see" not in message
    assert snapshot(root) == before


@pytest.mark.nbgrader
@pytest.mark.parametrize("read_only", ["the course", "autograded", "the student's result", "the gradebook"])
def test_an_unwritable_course_is_refused_before_nbgrader(template_course, tmp_path, read_only):
    if not read_only_works(tmp_path):
        pytest.skip("bubblewrap cannot mount a folder read-only here")
    root = course(template_course, tmp_path)
    (root / "autograded" / "jdoe" / "A1").mkdir(parents=True)
    (root / "autograded" / "jdoe" / "A1" / A1.name).write_text("jdoe's earlier result")
    path = {"the course": root, "autograded": root / "autograded",
            "the student's result": root / "autograded" / "jdoe" / "A1",
            "the gradebook": root / "gradebook.db"}[read_only]
    before = snapshot(root)
    done = assignments_cli("autograde", root, "A1", binds=[path])
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith("error: cannot write") and len(done.stderr.splitlines()) == 1, done.stderr
    assert str(path) in done.stderr and "Please see" not in done.stderr
    assert snapshot(root) == before


@pytest.mark.nbgrader
def test_a_failed_grade_run_keeps_the_students_earlier_result(template_course, tmp_path):
    """nbgrader deletes a submission's autograded folder when grading it fails: the earlier one comes back."""
    root = course(template_course, tmp_path)
    first = assignments_cli("autograde", root, "A1")
    assert first.returncode == 0 and "1 of 1 submissions graded" in first.stdout, first.stdout + first.stderr
    earlier = snapshot(root / "autograded")
    assert (root / "autograded" / "jdoe" / "A1" / A1.name).is_file()
    (root / "submitted" / "jdoe" / "A1" / A1.name).write_text("{ not a notebook")  # nbgrader will fail
    again = assignments_cli("autograde", root, "A1")
    assert again.returncode == 1, again.stdout + again.stderr
    assert "not graded: jdoe; earlier results kept for jdoe" in again.stdout
    assert snapshot(root / "autograded") == earlier
    assert not list(root.glob(".gametrees-earlier-*"))  # the copy is removed


def test_earlier_results_a_new_result_stays_a_lost_one_comes_back(tmp_path):
    graded = tmp_path / "autograded"
    for student in ("new", "failed", "untouched"):
        (graded / student / "A2").mkdir(parents=True)
        (graded / student / "A2" / "A2.ipynb").write_text(f"{student}: earlier")
    with EarlierResults(tmp_path, "A2") as kept:
        (graded / "new" / "A2" / "A2.ipynb").write_text("new: graded again")
        shutil.rmtree(graded / "failed" / "A2")
        kept.graded([{"student": "new", "success": True}, {"student": "failed", "success": False}])
    assert (graded / "new" / "A2" / "A2.ipynb").read_text() == "new: graded again"
    assert (graded / "failed" / "A2" / "A2.ipynb").read_text() == "failed: earlier"
    assert (graded / "untouched" / "A2" / "A2.ipynb").read_text() == "untouched: earlier"
    assert kept.restored == ["failed"] and not list(tmp_path.glob(".gametrees-earlier-*"))


def test_earlier_results_after_an_interrupted_run(tmp_path):
    """Interrupted, the successes are unknown: a whole new result stays, a lost or partial one comes back."""
    graded = tmp_path / "autograded"
    for student in ("done", "lost", "partial"):
        (graded / student / "A2").mkdir(parents=True)
        for name in ("A2.ipynb", "A2b.ipynb"):
            (graded / student / "A2" / name).write_text(f"{student}: earlier")
    kept = EarlierResults(tmp_path, "A2", ["done", "lost", "partial"])
    with pytest.raises(KeyboardInterrupt), kept:
        for name in ("A2.ipynb", "A2b.ipynb"):
            (graded / "done" / "A2" / name).write_text("done: new")
        shutil.rmtree(graded / "lost")
        (graded / "partial" / "A2" / "A2b.ipynb").unlink()
        raise KeyboardInterrupt
    assert (graded / "done" / "A2" / "A2.ipynb").read_text() == "done: new"
    assert (graded / "lost" / "A2" / "A2b.ipynb").read_text() == "lost: earlier"
    assert (graded / "partial" / "A2" / "A2b.ipynb").read_text() == "partial: earlier"
    assert sorted(kept.restored) == ["lost", "partial"]


# ----------------------------------------------------------------------------
# report: only over its own unchanged files
# ----------------------------------------------------------------------------


@pytest.fixture
def autograded(tmp_path):
    """A course folder whose autograded/ holds two students' A1 (the student version: nothing answered)."""
    root = tmp_path / "course"
    for student in ("ann", "bob"):
        (root / "autograded" / student / "A1").mkdir(parents=True)
        shutil.copy(STUDENT / A1.name, root / "autograded" / student / "A1")
    return root


def test_report_never_replaces_a_users_csv_without_force(autograded, tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "A1_report.csv").write_text("my own marks\n")
    assert ga.main(["report", str(autograded), "A1", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "A1_report.csv" in err and "not written by report" in err and "--force" in err
    assert (out / "A1_report.csv").read_text() == "my own marks\n"
    assert sorted(p.name for p in out.iterdir()) == ["A1_report.csv"]  # not even the chart
    assert ga.main(["report", str(autograded), "A1", "--out", str(out), "--force"]) == 0
    assert (out / "A1_report.csv").read_text().startswith("student,question,earned")


def test_report_replaces_its_own_files_but_not_once_they_were_edited(autograded, capsys):
    reports = autograded / "reports"
    assert ga.main(["report", str(autograded), "A1"]) == 0
    assert ga.main(["report", str(autograded), "A1"]) == 0  # its own, unchanged: replaced
    capsys.readouterr()
    with open(reports / "A1_report.csv", "a") as f:
        f.write("ann,my note\n")
    edited = (reports / "A1_report.csv").read_bytes()
    chart = (reports / "A1_report.png").read_bytes()
    assert ga.main(["report", str(autograded), "A1"]) == 2
    assert "A1_report.csv" in capsys.readouterr().err
    assert (reports / "A1_report.csv").read_bytes() == edited
    assert (reports / "A1_report.png").read_bytes() == chart


def test_report_refuses_a_users_chart_before_writing_the_csv(autograded, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "A1_report.png").write_bytes(b"my drawing")
    with pytest.raises(ValueError, match="A1_report.png' exists and was not written by report"):
        ga.class_report(autograded, "A1", out=out)
    assert sorted(p.name for p in out.iterdir()) == ["A1_report.png"]
    report = ga.class_report(autograded, "A1", out=out, chart=False)  # no chart: the PNG is not touched
    assert report.csv.is_file() and (out / "A1_report.png").read_bytes() == b"my drawing"
    with pytest.raises(TypeError, match="force must be True or False"):
        ga.class_report(autograded, "A1", out=out, force="yes")


# ----------------------------------------------------------------------------
# gt.export and gt.animate: the command line's rule in Python
# ----------------------------------------------------------------------------

TREE = gt.tree_from_nested([[3, 12], [2, 4]])


@pytest.mark.parametrize("name", ["exam.tex", "exam.svg", "exam.png"])
def test_export_replaces_only_an_exports_file_unless_force(tmp_path, name):
    mine = tmp_path / name
    mine.write_bytes(b"my own exam")
    with pytest.raises(FileExistsError,
                       match=rf"{name}' exists and was not written by an export: give force="):
        gt.export(TREE, mine)
    assert mine.read_bytes() == b"my own exam" and [p.name for p in tmp_path.iterdir()] == [name]
    gt.export(TREE, mine, force=True)
    replaced = mine.read_bytes()
    assert replaced != b"my own exam"
    gt.export(TREE, mine, flavour="question")  # now an export's own file: replaced without force
    assert mine.read_bytes() != replaced
    with pytest.raises(TypeError, match="force must be True or False"):
        gt.export(TREE, mine, force="no")


@pytest.mark.slow
def test_animate_replaces_only_an_exports_file_unless_force(tmp_path):
    result = gt.alphabeta(TREE)
    mine = tmp_path / "slide.gif"
    mine.write_bytes(b"GIF89a my own animation")
    with pytest.raises(FileExistsError, match="slide.gif' exists and was not written by an export"):
        gt.animate(result, mine)
    assert mine.read_bytes() == b"GIF89a my own animation"
    gt.animate(result, mine, force=True)
    gt.animate(result, mine)  # its own now
    assert mine.read_bytes().startswith(b"GIF8") and len(mine.read_bytes()) > 100
