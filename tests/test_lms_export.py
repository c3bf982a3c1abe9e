"""``export-grades``: nbgrader's gradebook as a file Canvas's or Moodle's gradebook imports, or a plain CSV.

A real nbgrader gradebook is built with nbgrader's own API (assignments, notebooks, grade cells,
students, submissions, scores, a late penalty, a cell still to grade by hand); the command runs as an
instructor runs it (``python -m gametrees.assignments export-grades ...`` in a subprocess), and the
files are read back with :mod:`csv` and compared with what the gradebook holds, read again through
nbgrader's API. INSTRUCTORS.md's "Grades to your LMS" is run as written: its commands, its roster,
its Canvas file and its notes.
"""

import contextlib
import csv
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import types
import warnings
from pathlib import Path

import pytest

pytest.importorskip("nbgrader")
from nbgrader.api import Gradebook, MissingEntry

from gametrees.assignments import main

ROOT = Path(__file__).resolve().parents[1]
CELLS = {"A1": {"q1": 4.0, "q2": 6.0}, "A2": {"q1": 5.0, "q2": 6.0}}
STUDENTS = {"jdoe": ("Jane", "Doe"), "zoe": ("Zoë", "Ó Briain"), "kim": ("Kim", "Lee")}
# (student, assignment): ({cell: auto score}, late penalty, cells still to grade by hand)
SUBMISSIONS = {
    ("jdoe", "A1"): ({"q1": 4.0, "q2": 3.5}, 0.0, ()),
    ("jdoe", "A2"): ({"q1": 0.0, "q2": 0.0}, 0.0, ()),  # handed in, scored 0: a real 0
    ("zoe", "A1"): ({"q1": 4.0, "q2": 6.0}, 0.0, ()),  # zoe did not hand in A2: an empty cell
    ("kim", "A1"): ({"q1": 4.0, "q2": 2.0}, 0.0, ("q2",)),
    ("kim", "A2"): ({"q1": 5.0, "q2": 6.0}, 2.0, ()),
}
IDENTITY = {"canvas": ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"],
            "moodle": ["Username", "ID number", "Email address", "Full name"], "csv": ["student_id"]}


def _build(course):
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for name, cells in CELLS.items():
            gb.add_assignment(name)
            gb.add_notebook(name, name)
            for cell, points in cells.items():
                gb.add_grade_cell(cell, name, name, max_score=points, cell_type="code")
        for sid, (first, last) in STUDENTS.items():
            gb.add_student(sid, first_name=first, last_name=last)
        for (sid, name), (scores, penalty, by_hand) in SUBMISSIONS.items():
            gb.add_submission(name, sid)
            for cell, score in scores.items():
                grade = gb.find_grade(cell, name, name, sid)
                grade.auto_score = score
                grade.needs_manual_grade = cell in by_hand
            gb.find_submission_notebook(name, name, sid).late_submission_penalty = penalty
        gb.db.commit()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The gradebook, built once (nbgrader runs `alembic`, beside this interpreter, to create one)."""
    folder = tmp_path_factory.mktemp("built")
    with pytest.MonkeyPatch.context() as mp, warnings.catch_warnings():
        mp.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
        warnings.simplefilter("ignore")  # SQLAlchemy's notes on nbgrader's add_submission, not ours
        _build(folder)
    return folder / "gradebook.db"


@pytest.fixture
def course(tmp_path, built):
    """A course folder of its own for each test, holding a copy of the gradebook."""
    folder = tmp_path / "course"
    folder.mkdir()
    shutil.copyfile(built, folder / "gradebook.db")
    return folder


def _gradebook(course):
    """What the gradebook holds, read through nbgrader's API: {(student, assignment): score or None}."""
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        out = {}
        for a in gb.assignments:
            for s in gb.students:
                try:
                    sub = gb.find_submission(a.name, s.id)
                except MissingEntry:
                    out[s.id, a.name] = None
                else:
                    out[s.id, a.name] = max(0.0, sub.score - sub.late_submission_penalty)
        maxima = {a.name: a.max_score for a in gb.assignments}
    return out, maxima


def command(*args, cwd=None):
    """``python -m gametrees.assignments ARGS`` as an instructor types it (a process of its own)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "gametrees.assignments", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def run(*args):
    """The same command line through :func:`gametrees.assignments.main` in this process (nbgrader loaded
    once)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return types.SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())


def _rows(path):
    raw = Path(path).read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf")  # UTF-8 without a byte-order mark
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.reader(f))


def _digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _roster(tmp_path, text, name="roster.csv", encoding="utf-8"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


# ----------------------------------------------------------------------------
# Each format: header, columns, the round trip
# ----------------------------------------------------------------------------


@pytest.mark.nbgrader
@pytest.mark.parametrize("fmt", ["canvas", "moodle", "csv"])
def test_each_format_round_trips_the_gradebook_with_empty_cells_for_no_submission(course, tmp_path, fmt):
    out = tmp_path / f"{fmt}.csv"
    before = _digest(course / "gradebook.db")
    done = run("export-grades", course, "--format", fmt, "--out", out)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"wrote {out} ({fmt}): 3 students, 2 assignments"
    rows = _rows(out)
    grades, maxima = _gradebook(course)
    assignments = sorted(maxima)
    assert rows[0] == IDENTITY[fmt] + assignments
    if fmt == "canvas":  # the Points Possible row, as Canvas's export has it
        assert rows[1][0] == "Points Possible" and rows[1][1:5] == [""] * 4
        assert [float(v) for v in rows[1][5:]] == [maxima[a] for a in assignments]
        rows = rows[:1] + rows[2:]
        names = {r[3]: r[0] for r in rows[1:]}  # nbgrader's names, "Last, First", commas and accents kept
        assert names == {sid: f"{last}, {first}" for sid, (first, last) in STUDENTS.items()}
    key = {"canvas": "SIS Login ID", "moodle": "Username", "csv": "student_id"}[fmt]
    read = {}
    for row in rows[1:]:
        record = dict(zip(rows[0], row))
        for a in assignments:
            read[record[key], a] = None if record[a] == "" else float(record[a])
    assert read.keys() == grades.keys()
    for k, v in grades.items():
        assert read[k] == (None if v is None else pytest.approx(v, abs=5e-5)), k
    assert _digest(course / "gradebook.db") == before  # read only


@pytest.mark.nbgrader
def test_no_submission_is_empty_and_a_scored_zero_is_zero(course, tmp_path):
    out = tmp_path / "g.csv"
    assert run("export-grades", course, "--format", "csv", "--out", out).returncode == 0
    by_id = {r[0]: dict(zip(["A1", "A2"], r[1:])) for r in _rows(out)[1:]}
    assert by_id["zoe"]["A2"] == ""  # zoe has no A2 submission
    assert by_id["jdoe"]["A2"] == "0"  # jdoe handed A2 in and scored 0
    grades, _ = _gradebook(course)
    assert grades["zoe", "A2"] is None and grades["jdoe", "A2"] == 0.0


@pytest.mark.nbgrader
def test_the_late_penalty_is_taken_off_as_nbgrader_export_does(course, tmp_path):
    out = tmp_path / "g.csv"
    assert run("export-grades", course, "--format", "csv", "--out", out).returncode == 0
    by_id = {r[0]: r[1:] for r in _rows(out)[1:]}
    scores, penalty, _ = SUBMISSIONS["kim", "A2"]
    assert float(by_id["kim"][1]) == sum(scores.values()) - penalty


@pytest.mark.nbgrader
def test_default_file_is_in_the_course_reports_folder(course):
    done = run("export-grades", course, "--format", "moodle")
    assert done.returncode == 0, done.stderr
    assert (course / "reports" / "grades_moodle.csv").is_file()


# ----------------------------------------------------------------------------
# The roster
# ----------------------------------------------------------------------------

ROSTER = ('nbgrader_id,name,lms_id,sis_user_id,login_id,section,email\n'
          'jdoe,"Doe, Jane ""JD""",4711,S-1001,jane.doe,"Section 1, Mon",jane.doe@example.edu\n'
          'zoe,"Ó Briain, Zoë",4712,S-1002,zoe.obriain,Section 2,\n'
          'ghost,"Nobody, Ann",4799,S-1099,ann.nobody,Section 2,ann@example.edu\n')


@pytest.mark.nbgrader
def test_canvas_with_a_roster_maps_every_column_and_reports_who_is_missing(course, tmp_path):
    roster = _roster(tmp_path, ROSTER)
    out = tmp_path / "canvas.csv"
    done = run("export-grades", course, "--format", "canvas", "--roster", roster, "--out", out)
    assert done.returncode == 0, done.stderr
    rows = _rows(out)
    grades, _ = _gradebook(course)
    body = {r[3]: r for r in rows[2:]}
    assert body["jane.doe"][:5] == ["Doe, Jane \"JD\"", "4711", "S-1001", "jane.doe", "Section 1, Mon"]
    assert body["zoe.obriain"][:5] == ["Ó Briain, Zoë", "4712", "S-1002", "zoe.obriain", "Section 2"]
    # in the roster, not in the gradebook: empty grades, never 0
    assert body["ann.nobody"][5:] == ["", ""]
    # in the gradebook, not in the roster: written with the nbgrader id as login, nbgrader's name
    assert body["kim"][:5] == ["Lee, Kim", "", "", "kim", ""]
    assert [float(v) for v in body["kim"][5:]] == [grades["kim", "A1"], grades["kim", "A2"]]
    assert [r[3] for r in rows[2:]] == ["jane.doe", "zoe.obriain", "ann.nobody", "kim"]  # roster order first
    notes = done.stderr.splitlines()
    assert "note: not in the roster, written with their nbgrader id: kim" in notes
    assert "note: in the roster, not in the gradebook, written with empty grades: ghost" in notes


@pytest.mark.nbgrader
def test_moodle_with_a_roster_and_a_warning_for_an_empty_identifier(course, tmp_path):
    roster = _roster(tmp_path, ROSTER)
    out = tmp_path / "moodle.csv"
    done = run("export-grades", course, "--format", "moodle", "--roster", roster, "--out", out)
    assert done.returncode == 0, done.stderr
    rows = _rows(out)
    assert len(rows) == 1 + 4  # no points row: Moodle would read it as a student
    body = {r[0]: r for r in rows[1:]}
    assert body["jane.doe"][:4] == ["jane.doe", "S-1001", "jane.doe@example.edu", "Doe, Jane \"JD\""]
    # zoe's roster leaves email empty: nbgrader has none either, so the column has a hole, said so
    assert body["zoe.obriain"][2] == ""
    assert any(line.startswith("note: moodle: 'Email address' is empty for zoe")
               for line in done.stderr.splitlines())
    assert all(r[0] for r in rows[1:])  # Username is never empty


@pytest.mark.nbgrader
def test_a_roster_with_a_byte_order_mark_is_read(course, tmp_path):
    roster = _roster(tmp_path, "\ufeffnbgrader_id,login_id\njdoe,jane.doe\n")
    out = tmp_path / "c.csv"
    done = run("export-grades", course, "--format", "canvas", "--roster", roster, "--out", out)
    assert done.returncode == 0, done.stderr
    assert _rows(out)[2][3] == "jane.doe"


@pytest.mark.nbgrader
@pytest.mark.parametrize("text, encoding, message", [
    ("name,login_id\nJane,jane\n", "utf-8", "row 1 has no column 'nbgrader_id'"),
    ("nbgrader_id,emial\njdoe,j@x\n", "utf-8", "row 1, column 'emial': not a roster column"),
    ("nbgrader_id,name\njdoe,Jane\n,Zoë\n", "utf-8", "row 3, column 'nbgrader_id': empty"),
    ("nbgrader_id,name\njdoe,Jane\nzoe,Zoë\njdoe,J\n", "utf-8",
     "row 4, column 'nbgrader_id': 'jdoe' is already on row 2"),
    ("nbgrader_id,name\njdoe,Jane,extra\n", "utf-8", "row 2 has 3 fields, the header 2"),
    ("nbgrader_id,name\njdoe,Jane\nzoe,Zoë\n", "latin-1", "row 3, column 2 ('name') is not UTF-8"),
    ("", "utf-8", "is empty"),
])
def test_an_unreadable_roster_is_one_line_naming_row_and_column(course, tmp_path, text, encoding, message):
    roster = _roster(tmp_path, text, encoding=encoding)
    out = tmp_path / "never.csv"
    done = run("export-grades", course, "--format", "canvas", "--roster", roster, "--out", out)
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1 and message in done.stderr, done.stderr
    assert str(roster) in done.stderr
    assert not out.exists()


# ----------------------------------------------------------------------------
# Nothing is lost; bad input is one line and exit 2
# ----------------------------------------------------------------------------


@pytest.mark.nbgrader
def test_an_existing_file_is_replaced_only_with_force(course, tmp_path):
    out = tmp_path / "grades.csv"
    out.write_text("the instructor's own file\n")
    done = run("export-grades", course, "--format", "csv", "--out", out)
    assert done.returncode == 2 and done.stderr.strip() == f"error: {out} exists: pass --force to replace it"
    assert out.read_text() == "the instructor's own file\n"
    done = run("export-grades", course, "--format", "csv", "--out", out, "--force")
    assert done.returncode == 0, done.stderr
    assert _rows(out)[0] == ["student_id", "A1", "A2"]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left


@pytest.mark.nbgrader
def test_never_over_the_gradebook_or_the_roster_even_with_force(course, tmp_path):
    roster = _roster(tmp_path, "nbgrader_id\njdoe\n")
    before = {p: _digest(p) for p in (course / "gradebook.db", roster)}
    for target, what in ((course / "gradebook.db", "gradebook"), (roster, "roster")):
        done = run("export-grades", course, "--format", "csv", "--roster", roster, "--out", target, "--force")
        assert done.returncode == 2 and f"is the {what} itself" in done.stderr
        assert len(done.stderr.splitlines()) == 1
    assert {p: _digest(p) for p in before} == before


@pytest.mark.nbgrader
def test_missing_course_missing_gradebook_and_unknown_format(tmp_path, course):
    done = command("export-grades", tmp_path / "nowhere", "--format", "canvas")
    assert done.returncode == 2 and done.stderr.strip() == f"error: no course folder {tmp_path / 'nowhere'}"
    empty = tmp_path / "empty"
    empty.mkdir()
    done = run("export-grades", empty, "--format", "canvas")
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
    assert "has no gradebook.db" in done.stderr
    assert not (empty / "gradebook.db").exists()  # nbgrader was not allowed to create one
    done = run("export-grades", course, "--format", "blackboard")
    assert done.returncode == 2
    assert done.stderr.strip() == "error: unknown format 'blackboard': choose canvas, moodle or csv"
    assert not (course / "reports").exists()


@pytest.mark.nbgrader
def test_a_gradebook_without_assignments_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    folder = tmp_path / "c"
    folder.mkdir()
    Gradebook(f"sqlite:///{folder / 'gradebook.db'}").close()
    done = run("export-grades", folder, "--format", "canvas")
    assert done.returncode == 2
    assert done.stderr.strip() == f"error: {folder / 'gradebook.db'} has no assignments: nothing to export"
    assert not (folder / "reports" / "grades_canvas.csv").exists()


def test_a_file_that_is_not_a_gradebook_is_one_line(tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "gradebook.db").write_text("not a database")
    done = run("export-grades", folder, "--format", "csv", "--out", tmp_path / "g.csv")
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
    assert "could not be read as nbgrader's gradebook" in done.stderr
    assert (folder / "gradebook.db").read_text() == "not a database"


# ----------------------------------------------------------------------------
# INSTRUCTORS.md, as written
# ----------------------------------------------------------------------------


def _section():
    text = (ROOT / "INSTRUCTORS.md").read_text(encoding="utf-8")
    return text.split("### Grades to your LMS", 1)[1].split("\n## ", 1)[0]


def _blocks(section):
    return [b.strip("\n") for b in re.findall(r"```[a-z]*\n(.*?)```", section, flags=re.DOTALL)]


@pytest.mark.nbgrader
def test_instructors_md_commands_roster_file_and_notes_as_written(course):
    commands, roster, canvas, notes = _blocks(_section())
    (course / "roster.csv").write_text(roster + "\n", encoding="utf-8")
    lines = commands.splitlines()
    assert lines and all(line.startswith("python -m gametrees.assignments export-grades .") for line in lines)
    for line in lines:
        done = command(*line.split()[3:], cwd=course)
        assert done.returncode == 0, (line, done.stderr)
        out = course / line.split("--out ")[1].split()[0]
        assert out.is_file()
        if "canvas" in line:
            assert _rows(out) == list(csv.reader(canvas.splitlines()))
            assert done.stderr.splitlines() == notes.splitlines()
    # and the Canvas file is the gradebook, read back
    grades, _ = _gradebook(course)
    rows = _rows(course / "grades_canvas.csv")
    login = {r[0]: r[1] for r in csv.reader(roster.splitlines()[1:]) for r in [[r[0], r[4]]]}
    for row in rows[2:]:
        sid = next((k for k, v in login.items() if v == row[3]), row[3])
        for a, cell in zip(("A1", "A2"), row[5:]):
            assert (None if cell == "" else float(cell)) == grades.get((sid, a)), (sid, a)
