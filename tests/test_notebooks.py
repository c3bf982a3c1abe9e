"""The notebooks as stored: every one is run by nbval, saved cleanly, and listed.

nbval itself (``--nbval`` in pyproject.toml) re-runs every notebook and
compares its outputs; these tests check what nbval cannot see: that no
notebook escapes its run, and that each was saved after a clean
"restart and run all" (no error outputs, cells executed in order).
"""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The notebooks nbval runs: the lessons and the instructor versions of the assignments. The blank
# student versions in notebooks/assignments/ are not (their checks are meant to fail until answered;
# tests/test_grader.py keeps them equal to what `release` makes, tests/test_assignments.py runs them).
BLANK = ROOT / "notebooks" / "assignments"
NOTEBOOKS = sorted(p for folder in ("notebooks", "instructor") for p in (ROOT / folder).rglob("*.ipynb")
                   if ".ipynb_checkpoints" not in p.parts and BLANK not in p.parents)


@pytest.mark.slow
def test_nbval_collects_every_notebook(request):
    """pytest's collection exactly as the README's test command does it: this run's own when it is that
    command (``python -m pytest`` with no arguments, as in CI), else a fresh ``--collect-only``."""
    if request.config.invocation_params.args == () and request.config.rootpath == ROOT:
        ids = [item.nodeid for item in request.session.items]
    else:
        out = subprocess.run(
            [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:randomly"],
            cwd=ROOT, capture_output=True, text=True, timeout=300,
        )
        assert out.returncode in (0, 5), out.stdout + out.stderr
        ids = out.stdout.splitlines()
    collected = {line.split("::")[0] for line in ids if ".ipynb::" in line}
    expected = {str(p.relative_to(ROOT)) for p in NOTEBOOKS}
    assert collected == expected
    assert len([p for p in NOTEBOOKS if p.parent.name == "assignments"]) == 3
    assert not any(p.startswith("notebooks/assignments/") for p in collected)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_notebook_saved_after_a_clean_run(path):
    nb = json.loads(path.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    errors = [c for c in code for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors, f"{path.name}: a cell was saved with an error output"
    counts = [c.get("execution_count") for c in code if "".join(c["source"]).strip()]
    assert all(counts), f"{path.name}: some code cells were never run; restart and run all, then save"
    assert counts == list(range(1, len(counts) + 1)), (
        f"{path.name}: cells were executed out of order ({counts[:10]}...); restart and run all, then save"
    )
    first = next((c for c in code if "".join(c["source"]).strip()), None)
    assert first is None or "%matplotlib inline" in "".join(first["source"]), (
        f"{path.name}: the first code cell should say %matplotlib inline (figures stored as images)"
    )


def test_readme_lists_every_lesson():
    readme = (ROOT / "README.md").read_text()
    for path in NOTEBOOKS:
        if re.match(r"\d\d_", path.name):
            assert path.name in readme, f"README.md does not list {path.name}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_notebook_stored_for_readers(path):
    """No widget state and no widget view (gametrees.site.readers): every exporter and a JupyterLab
    that has not run the cell show the replay's player or the widget's picture, never an empty
    space or "model not found"; every replay's output holds its player."""
    nb = json.loads(path.read_text())
    assert "widgets" not in nb["metadata"], (
        f"{path.name} holds widget state: re-run it with "
        "--Exporter.preprocessors=gametrees.site.readers.ForReaders")
    outputs = [o for c in nb["cells"] for o in c.get("outputs", []) if "data" in o]
    assert not any("application/vnd.jupyter.widget-view+json" in o["data"] for o in outputs), path.name
    for o in outputs:
        text = "".join(o["data"].get("text/plain", ""))
        if text.startswith("Replay("):
            assert "".join(o["data"].get("text/html", "")).startswith('<div class="gt-player"'), (
                (path.name, text)
            )
        if text.startswith(("Replay(", "Board(", "Explore(", "Practice(")):
            assert o["data"].get("image/png"), (path.name, text)
