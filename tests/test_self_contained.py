"""The project stands on its own: no test, doc or lesson names a file that is not in it.

The notes the course was planned with (a toolchain, a design, a syllabus and a catalogue of
misconceptions) were never part of the project; a reader of a clone cannot follow a pointer to them.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Where a reader follows pointers: the tests, the docs, the package's docstrings, the lessons, the rest.
SCANNED = ["tests", "gametrees", "notebooks", "instructor", "benchmarks", "deploy", ".ci",
           "jupyterlab-settings"]
TEXT = {".py", ".md", ".ipynb", ".txt", ".cfg", ".sh", ".j2", ".json", ".css", ""}
OUTSIDE = re.compile(r"\.\./shared\b|\b(?:TOOLCHAIN|DESIGN|SYLLABUS|MISCONCEPTIONS)\.md\b")


def scanned_files():
    yield from ROOT.glob("*.md")
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT)
            if relative.parts[:2] == (".ci", "node") or "__pycache__" in relative.parts:
                continue  # the hub's proxy, installed by npm; compiled files
            if path.is_file() and path.suffix in TEXT and path != Path(__file__).resolve():
                yield path


def test_the_scan_reads_the_docs_and_the_tests():
    names = {p.relative_to(ROOT).as_posix() for p in scanned_files()}
    assert {"README.md", "INSTRUCTORS.md", "tests/test_exercises.py", ".ci/run"} <= names


def test_no_file_names_a_file_outside_the_project():
    found = []
    for path in scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not found, "files outside the project named:\n" + "\n".join(found)
