"""The gradebook's backup and restore, as INSTRUCTORS.md section 8 ("Backups") writes them.

The guide's two commands run as written, with a temporary folder for the instructor's course and the
backups, and this Python for the instructor environment's: a gradebook with a student and an
assignment in it is backed up, then broken (the file overwritten, as a bad ``cp`` or a full disk
leaves it), restored, and nbgrader finds the student and the assignment again.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hub_server import guide_block

pytest.importorskip("nbgrader")


def as_here(block: str, course, backups) -> str:
    """The guide's block with this test's folders (and no change of owner when not root)."""
    block = (block.replace("/home/instructor/course", str(course))
             .replace("/var/backups/gametrees", str(backups))
             .replace("/opt/gametrees/instructor/bin/python", sys.executable))
    if os.geteuid() != 0:
        block = block.replace("-o instructor -g instructor ", "")
    else:
        block = block.replace("-o instructor -g instructor ", "-o root -g root ")
    return block


def test_the_gradebook_is_restored_from_the_guides_backup(tmp_path, monkeypatch):
    from nbgrader.api import Gradebook

    # nbgrader runs alembic from the environment's bin (on PATH in a hub server's terminal)
    monkeypatch.setenv("PATH", os.pathsep.join([os.path.dirname(sys.executable), os.environ["PATH"]]))

    course, backups = tmp_path / "course", tmp_path / "backups"
    course.mkdir()
    db = course / "gradebook.db"
    with Gradebook(f"sqlite:///{db}") as gb:
        gb.add_assignment("A2")
        gb.add_student("jdoe", first_name="Jo", last_name="Doe")
    backup = as_here(guide_block("Backups", 0), course, backups)
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", backup], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    (day,) = backups.iterdir()

    db.write_bytes(b"not a database any more")
    with pytest.raises(Exception, match="not a database|file is encrypted"):
        with Gradebook(f"sqlite:///{db}") as gb:
            gb.find_student("jdoe")

    restore = as_here(guide_block("Backups", 1), course, backups).replace("2026-11-27", day.name)
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", restore], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert oct(db.stat().st_mode & 0o777) == "0o600"
    with Gradebook(f"sqlite:///{db}") as gb:
        assert gb.find_student("jdoe").first_name == "Jo"
        assert [a.name for a in gb.assignments] == ["A2"]
