"""Bad inputs to the commands that write files, as a hostile tester types them: one table row each.

Every row is ``argv -> exit status 2``, one line on stderr holding the words the row names (the option
or file at fault, what is expected), no traceback, no nbgrader "Please see the above traceback", and
nothing in the workspace changed (every file's bytes and every path compared before and after). The
rows run ``python -m gametrees.assignments`` (release, grade, autograde, report) and ``python -m
gametrees`` (export, site) in-process; :func:`test_the_rows_hold_as_processes_too` runs some as real
processes.
"""

import json
import shutil
import sqlite3
import subprocess
import sys

import pytest
from courses import A1, ENV, ROOT, assignments_cli, snapshot, template

from gametrees import assignments as ga
from gametrees import cli as gametrees_cli

LESSON = ROOT / "notebooks" / "01_game_trees.ipynb"


@pytest.fixture(scope="module")
def template_course(tmp_path_factory):
    return template(tmp_path_factory)


@pytest.fixture(scope="module")
def workspace(template_course, tmp_path_factory):
    """A folder with a usable nbgrader course, broken copies of it, a lesson, and a user's own files."""
    pytest.importorskip("nbgrader")
    base = template_course
    ws = tmp_path_factory.mktemp("ws")
    shutil.copytree(base, ws / "course")
    for name, damage in (("nogradebook", None), ("empty", b""), ("garbage", b"\x13\x37 not SQLite" * 64)):
        shutil.copytree(base, ws / name)
        (ws / name / "gradebook.db").unlink()
        if damage is not None:
            (ws / name / "gradebook.db").write_bytes(damage)
    shutil.copytree(base, ws / "truncated")  # an SQLite file cut short: a damaged copy
    data = (base / "gradebook.db").read_bytes()
    (ws / "truncated" / "gradebook.db").write_bytes(data[: len(data) // 2])
    shutil.copytree(base, ws / "foreign")  # an SQLite file, but not nbgrader's
    (ws / "foreign" / "gradebook.db").unlink()
    with sqlite3.connect(ws / "foreign" / "gradebook.db") as con:
        con.execute("CREATE TABLE notes (text)")
    shutil.copytree(base, ws / "unknown")  # source/A2 exists, the gradebook knows only A1
    shutil.copytree(base / "source" / "A1", ws / "unknown" / "source" / "A2")
    shutil.copytree(base, ws / "config")
    (ws / "config" / "nbgrader_config.py").write_text("c = get_config(\n")
    (ws / "reports").mkdir()
    (ws / "reports" / "A1_report.csv").write_text("my own notes\n")
    (ws / "course" / "autograded" / "jdoe" / "A1").mkdir(parents=True)
    shutil.copy(ROOT / "notebooks" / "assignments" / A1.name, ws / "course" / "autograded" / "jdoe" / "A1")
    (ws / "lessons").mkdir()
    shutil.copy(LESSON, ws / "lessons" / "01_game_trees.ipynb")
    (ws / "figures").mkdir()
    (ws / "figures" / "exam.svg").write_text("<svg>my exam</svg>")
    (ws / "figures" / "tree.tex").write_text(json.dumps([[3, 12], [2, 4]]))
    (ws / "site").mkdir()
    (ws / "site" / "index.html").write_text("my own page")
    (ws / "afile").write_text("x")
    return ws


# (argv, words stderr must hold). {ws} is the workspace; argv[0] names the program: "assignments" for
# python -m gametrees.assignments, "gametrees" for python -m gametrees.
ROWS = [
    # release: only over its own student versions, never into its source, never a lesson or answers
    (["assignments", "release", str(A1), "{ws}/lessons/01_game_trees.ipynb", "--force"],
     ["01_game_trees.ipynb", "not a student version release made", "not even with --force"]),
    (["assignments", "release", str(A1), "{ws}/lessons/01_game_trees.ipynb"],
     ["01_game_trees.ipynb", "not a student version release made"]),
    (["assignments", "release", str(A1), "{ws}/course/source/A1", "--force"], ["holds solutions"]),
    (["assignments", "release", str(A1), "{ws}/course/release/A1", "--force"],
     ["A1_minimax.ipynb", "not a student version release made"]),  # nbgrader's own release: not ours
    (["assignments", "release", str(A1), "{ws}/afile/x"], ["is a file, not a folder"]),
    (["assignments", "release", "{ws}/nothing.ipynb", "{ws}/out"], ["not found"]),
    (["assignments", "release", "{ws}/afile", "{ws}/out"], ["must be a notebook"]),
    (["assignments", "release"], ["the following arguments are required: src, dst"]),
    # grade: never over its input, checked before running
    (["assignments", "grade", "{ws}/course/submitted/jdoe/A1/A1_minimax.ipynb", "--save",
      "{ws}/course/submitted/jdoe/A1/A1_minimax.ipynb"], ["--save"]),
    (["assignments", "grade", "{ws}/nothing.ipynb"], ["nothing.ipynb", "must be an existing notebook"]),
    (["assignments", "grade", "{ws}/course/submitted/jdoe/A1/A1_minimax.ipynb", "--save",
      "{ws}/lessons/01_game_trees.ipynb"], ["--force"]),
    # autograde: every argument before the course, the course and its gradebook before nbgrader
    (["assignments", "autograde", "{ws}/course", "A1", "--call-limit", "nan"], ["--call-limit", "1 to 600"]),
    (["assignments", "autograde", "{ws}/course", "A1", "--call-limit", "inf"], ["--call-limit", "1 to 600"]),
    (["assignments", "autograde", "{ws}/course", "A1", "--call-limit", "0"], ["--call-limit", "got 0"]),
    (["assignments", "autograde", "{ws}/course", "A1", "--call-limit", "-1"], ["--call-limit", "got -1"]),
    (["assignments", "autograde", "{ws}/course", "A1", "--call-limit", "1e400"], ["--call-limit", "got inf"]),
    (["assignments", "autograde", "{ws}/course", "A1", "--call-limit", "five"], ["--call-limit", "'five'"]),
    (["assignments", "autograde", "{ws}/course", "A1", "--jobs", "0"], ["--jobs", "1 to 64", "got 0"]),
    (["assignments", "autograde", "{ws}/course", "A1", "--jobs", "-3"], ["--jobs", "1 to 64"]),
    (["assignments", "autograde", "{ws}/course", "A1", "--jobs", "2.5"], ["--jobs", "whole number"]),
    (["assignments", "autograde", "{ws}/course", "A1", "--jobs", "100000"], ["--jobs", "got 100000"]),
    (["assignments", "autograde", "{ws}/course", ""], ["assignment", "got ''"]),
    (["assignments", "autograde", "{ws}/course", " A1"], ["assignment", "spaces"]),
    (["assignments", "autograde", "{ws}/course", "../course/source/A1"], ["assignment", "not a path"]),
    (["assignments", "autograde", "{ws}/course", "A*"], ["assignment", "pattern"]),
    (["assignments", "autograde", "{ws}/course", ".."], ["assignment", "'..'"]),
    (["assignments", "autograde", "{ws}/course", "A1", "--student", ""], ["--student", "got ''"]),
    (["assignments", "autograde", "{ws}/course", "A1", "--student", "../jdoe"], ["--student", "not a path"]),
    (["assignments", "autograde", "{ws}/course", "A1", "--student", "jdoe", "--student", "jdoe"],
     ["--student", "twice"]),
    (["assignments", "autograde", "{ws}/course", "A1", "--student", "nobody"], ["no submission", "nobody"]),
    (["assignments", "autograde", "{ws}/course", "A9"], ["no assignment 'A9'"]),
    (["assignments", "autograde", "{ws}/nowhere", "A1"], ["course folder", "nowhere", "not found"]),
    (["assignments", "autograde", "{ws}/afile", "A1"], ["afile", "not a folder"]),
    (["assignments", "autograde", "{ws}/nogradebook", "A1"], ["no gradebook", "gradebook.db", "not found"]),
    (["assignments", "autograde", "{ws}/empty", "A1"], ["gradebook.db", "is empty"]),
    (["assignments", "autograde", "{ws}/garbage", "A1"], ["gradebook.db", "not a database"]),
    (["assignments", "autograde", "{ws}/truncated", "A1"], ["gradebook.db"]),
    (["assignments", "autograde", "{ws}/foreign", "A1"], ["gradebook.db", "not an nbgrader gradebook"]),
    (["assignments", "autograde", "{ws}/unknown", "A2"], ["no assignment 'A2' in the gradebook"]),
    (["assignments", "autograde", "{ws}/config", "A1"], ["nbgrader_config.py", "cannot load"]),
    (["assignments", "autograde", "{ws}/course"], ["required: assignment"]),
    # report: never over a file it did not write
    (["assignments", "report", "{ws}/course", "A1", "--out", "{ws}/reports"],
     ["A1_report.csv", "not written by report", "--force"]),
    (["assignments", "report", "{ws}/course", "A1", "--out", "{ws}/afile"], ["is a file, not a folder"]),
    (["assignments", "report", "{ws}/course", ""], ["assignment", "got ''"]),
    (["assignments", "report", "{ws}/course", "A2"], ["no autograded notebooks of 'A2'"]),
    (["assignments", "report", "{ws}/nowhere", "A1"], ["no autograded submissions"]),
    # python -m gametrees export / site: the --force rules
    (["gametrees", "export", "--tree", "[[1,2],[3,4]]", "--answer", "{ws}/figures/exam.svg"],
     ["exam.svg", "not written by an export", "--force"]),
    (["gametrees", "export", "--tree", "[[1,2],[3,4]]", "--question", "{ws}/figures/exam.svg", "--answer",
      "{ws}/figures/new.svg"], ["exam.svg", "--force"]),  # nothing written: not even new.svg
    (["gametrees", "export", "--json", "{ws}/figures/tree.tex", "--answer", "{ws}/figures/tree.tex",
      "--force"],
     ["--json input file"]),
    (["gametrees", "export", "--tree", "[[1,2],[3,4]]", "--answer", "{ws}/missing/a.svg"],
     ["does not exist"]),
    (["gametrees", "site", "{ws}/site"], ["not empty", "--force"]),
    (["gametrees", "site", "{ws}/afile"], ["afile"]),
]


def _argv(argv, ws):
    return [a.replace("{ws}", str(ws)) for a in argv]


def _run(argv, ws):
    argv = _argv(argv, ws)
    return (ga.main if argv[0] == "assignments" else gametrees_cli.main)(argv[1:])


def _id(argv):
    return " ".join(a.rsplit("/", 1)[-1] if "/" in a else a or "''" for a in argv)


@pytest.mark.nbgrader
@pytest.mark.parametrize(("argv", "words"), ROWS, ids=[_id(r[0]) for r in ROWS])
def test_a_bad_input_is_one_line_exit_2_and_touches_nothing(workspace, argv, words, capsys):
    before = snapshot(workspace)
    code = _run(argv, workspace)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err and "Please see" not in err
    for word in words:
        assert word in err, (word, err)
    assert snapshot(workspace) == before


@pytest.mark.nbgrader
def test_the_rows_hold_as_processes_too(workspace):
    """A few rows as real processes: the same line on stderr, exit 2 (no traceback from the interpreter)."""
    picked = [next(r for r in ROWS if all(w in " ".join(r[0]) for w in want))
              for want in (["release", "01_game_trees", "--force"], ["--call-limit", "nan"], ["{ws}/garbage"],
                           ["gametrees", "exam.svg"])]
    for argv, words in picked:
        argv = _argv(argv, workspace)
        if argv[0] == "assignments":
            done = assignments_cli(*argv[1:])
        else:
            done = subprocess.run([sys.executable, "-m", "gametrees", *argv[1:]], capture_output=True,
                                  text=True, timeout=300, env=ENV, check=False)
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, (argv, done.stderr)
        assert all(word in done.stderr for word in words), (argv, done.stderr)


def test_help_names_the_ranges_and_the_force_rules(capsys):
    assert ga.main(["autograde", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "1 to 64" in text and "1 to 600" in text
    assert ga.main(["report", "--help"]) == 0
    assert "--force replace an existing CSV or PNG that no earlier report wrote" in " ".join(
        capsys.readouterr().out.split())
    assert ga.main(["release", "--help"]) == 0
    assert "never any other notebook: a lesson" in " ".join(capsys.readouterr().out.split())
