"""A small nbgrader course for the tests of the classroom commands, and what a test compares around them.

:func:`template` builds, once per session, a course folder with A1 generated into its gradebook by
nbgrader (``generate_assignment``) and jdoe's submission (the student version as released); :func:`course`
copies it for one test. :func:`snapshot` is every path and file's bytes under a folder ("nothing touched").
:func:`read_only` runs a command with a folder or file mounted read-only (bubblewrap), which even root
cannot write.
"""

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import prebuilt
import pytest

ROOT = Path(__file__).resolve().parents[1]
A1 = ROOT / "instructor" / "assignments" / "A1_minimax.ipynb"
#: The processes the tests start: this worktree's package, nbgrader's alembic on the PATH.
ENV = {**{k: v for k, v in os.environ.items() if k not in ("GAMETREES_STUDENT_ID", "NBGRADER_EXECUTION")},
       "PYTHONPATH": str(ROOT),
       "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}

_GENERATE = """
import sys
from traitlets.config import Config
from nbgrader.apps import NbGraderAPI

config = Config()
config.CourseDirectory.root = sys.argv[1]
config.CourseDirectory.course_id = "gametrees"
result = NbGraderAPI(config=config).generate_assignment("A1")
if not result["success"]:
    sys.exit(result["error"] + result["log"])
"""


def template(tmp_path_factory):
    """A course folder: ``source/A1``, A1 in ``gradebook.db`` (nbgrader's own), ``submitted/jdoe/A1``.

    One for the session (test files copy it, never change it), built in the background from the session's
    start (tests/prebuilt.py) when a test of test_classroom_commands or test_bad_inputs_cli needs it.
    """
    return prebuilt.result("a1_course_template", tmp_path_factory.mktemp)


@prebuilt.prebuild("a1_course_template", needed_by="template_course",
                   modules=("test_classroom_commands", "test_bad_inputs_cli"))
def _build_template(folder):
    pytest.importorskip("nbgrader")
    root = folder / "course"
    (root / "source" / "A1").mkdir(parents=True)
    shutil.copy(A1, root / "source" / "A1")
    done = subprocess.run([sys.executable, "-c", _GENERATE, str(root)], capture_output=True, text=True,
                          timeout=300, env=ENV, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    (root / "submitted" / "jdoe" / "A1").mkdir(parents=True)
    shutil.copy(root / "release" / "A1" / A1.name, root / "submitted" / "jdoe" / "A1")
    return root


def course(template_root, tmp_path):
    """A copy of the template course for one test."""
    return Path(shutil.copytree(template_root, tmp_path / "course"))


def snapshot(folder):
    """Every path under ``folder`` with the SHA-256 of each file's bytes (None for a folder)."""
    folder = Path(folder)
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else None
            for p in sorted(folder.rglob("*"))}


def assignments_cli(*args, cwd=None, binds=()):
    """``python -m gametrees.assignments ARGS`` as a process; ``binds``: paths mounted read-only."""
    command = [sys.executable, "-m", "gametrees.assignments", *map(str, args)]
    if binds:
        mounts = [a for p in binds for a in ("--ro-bind", str(p), str(p))]
        command = ["bwrap", "--dev-bind", "/", "/", *mounts, *command]
    return subprocess.run(command, capture_output=True, text=True, timeout=600, env=ENV, cwd=cwd, check=False)


def read_only_works(tmp_path):
    """Whether bubblewrap can mount a folder read-only here (else the tests that need it skip)."""
    if shutil.which("bwrap") is None:
        return False
    probe = tmp_path / "probe"
    probe.mkdir()
    done = subprocess.run(["bwrap", "--dev-bind", "/", "/", "--ro-bind", str(probe), str(probe),
                           "touch", str(probe / "x")], capture_output=True, timeout=60, check=False)
    return done.returncode != 0 and not (probe / "x").exists()
