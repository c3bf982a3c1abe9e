"""Running a notebook and scoring its test cells: :func:`grade`, :class:`GradeReport`.

A small stand-in for ``nbgrader autograde`` when no gradebook is set up;
:func:`environment` and :func:`execute` are the steps it shares with the tests.

May import: the standard library, :mod:`gametrees.classroom.ids`,
:mod:`gametrees.classroom.scoring` (the record a check leaves) and the public
names of the modules of :mod:`gametrees.exercises`; nbclient and nbformat
inside functions only.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from pathlib import Path

from ..exercises.feedback import fmt
from .ids import ENV_VAR, student_id
from .scoring import MIME, named_in

_INTEGRITY = "application/vnd.gametrees.integrity+json"
_ID_LINE = re.compile(r"made from the id '([^']*)'")


def record(outputs):
    """The check's record (see :class:`~gametrees.classroom.scoring.Score`) among a cell's outputs, or None."""
    for o in outputs:
        data = o.get("data", {}) if isinstance(o, dict) else {}
        if MIME in data:
            return data[MIME]
    return None


def notebook_facts(nb):
    """``(student id the notebook ran with or None, flags)`` read from an executed notebook's outputs."""
    student, flags = None, []
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            data = o.get("data", {})
            if MIME in data and data[MIME].get("student"):
                student = student or data[MIME]["student"]
            if _INTEGRITY in data:
                flags = [f"{f['question']}: {f['use']}" for f in data[_INTEGRITY].get("flags", [])]
            text = o.get("text", "") or data.get("text/plain", "")
            m = _ID_LINE.search(text if isinstance(text, str) else "".join(text))
            if m and student is None:
                student = m.group(1)
    return student, flags

class GradeReport:
    """The score of one run of a notebook (see :func:`grade`).

    Attributes
    ----------
    path : pathlib.Path
    student : str
        The id the notebook ran with (read from its outputs).
    flags : list of str
        The graded answers the notebook asked the library for (see
        :func:`gametrees.classroom.integrity.library_use`).
    cells : list of dict
        One per test cell: ``grade_id``, ``points``, ``earned``, ``error``
        (the exception's name, or None) and ``message`` (its text).
    errors : list of dict
        Errors in cells that are not test cells (``index``, ``error``,
        ``message``): a notebook that breaks before its tests.
    seconds : float
    """

    def __init__(self, path, student, cells, errors, seconds):
        self.path, self.student, self.cells, self.errors, self.seconds = path, student, cells, errors, seconds
        self.flags = []

    @property
    def score(self):
        return sum(c["earned"] for c in self.cells)

    @property
    def total(self):
        return sum(c["points"] for c in self.cells)

    def __repr__(self):
        lines = [f"{self.path.name} (student {self.student!r}): {fmt(self.score)} of {fmt(self.total)} points"]
        for c in self.cells:
            mark = "✓" if c["earned"] == c["points"] else "✗"
            lines.append(f"{mark} {c['grade_id']}: {fmt(c['earned'])}/{fmt(c['points'])}")
            rec = c.get("record")
            if rec and not rec["ok"]:
                found = named_in(rec["text"]) if "text" in rec else rec.get("misconceptions", [])
                named = f" ({'; '.join(found)})" if found else ""
                lines.append(f"    {rec['title']}{named}")
            elif c["error"]:
                first = (c["message"] or "").strip().splitlines()
                lines.append(f"    {c['error']}: {first[0] if first else ''}")
            for w in (rec or {}).get("warnings", []) if c is self.cells[0] else ():
                lines.append(f"    ⚠ {w}")
        for f in self.flags:
            lines.append(f"⚑ answer asked of the library: {f}")
        for e in self.errors:
            lines.append(f"! cell {e['index']} (not a test cell) raised {e['error']}: {e['message']}")
        return "\n".join(lines)


def earned(outputs, points):
    """``(points earned, error name, message)`` of a test cell, scored as ``nbgrader autograde`` does:
    an error or anything written to standard error earns nothing; a result that reads as a number is
    partial credit; anything else earns every point."""
    for o in outputs:
        if o.get("output_type") == "error":
            return 0.0, o["ename"], o["evalue"]
        if o.get("output_type") == "stream" and o.get("name") == "stderr":
            return 0.0, "stderr", "the cell wrote to standard error, which nbgrader counts as a failure: " + o["text"]
        if o.get("output_type") == "execute_result":
            try:
                value = float(o.get("data", {}).get("text/plain", ""))
            except ValueError:
                return points, None, None
            return max(0.0, min(points, value)), None, None
    return points, None, None


@contextlib.contextmanager
def environment(**values):
    """Sets environment variables (``None`` removes one) for the ``with`` block, then restores them."""
    old = {k: os.environ.get(k) for k in values}
    try:
        for k, v in values.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def execute(nb, cwd, timeout):
    """Runs notebook ``nb`` in place (in folder ``cwd``, errors kept in the outputs), as grading does."""
    from nbclient import NotebookClient

    client = NotebookClient(nb, timeout=timeout, allow_errors=True, kernel_name="python3",
                            resources={"metadata": {"path": str(cwd)}})
    client.execute()
    return nb


def grade(path, *, student=None, timeout=300, save=None):
    """Run a notebook top to bottom and score its test cells.

    A test cell (nbgrader metadata ``"grade": true`` with ``points``) is
    scored as ``nbgrader autograde`` scores it: no points if it raises or
    writes to standard error, partial credit if its result is a number,
    else every point. The error message of a failed check (its feedback)
    is kept. Errors in other cells are listed apart.

    Parameters
    ----------
    path : path
        The notebook.
    student : str, optional
        Run as this student (sets ``GAMETREES_STUDENT_ID`` for the kernel).
    timeout : int
        Seconds per cell.
    save : path, optional
        Write the executed notebook there.

    Returns
    -------
    GradeReport
    """
    import nbformat

    path = Path(path)
    if path.suffix != ".ipynb" or not path.exists():
        raise ValueError(f"path must be an existing notebook (.ipynb), got {str(path)!r}")
    if student is not None and not isinstance(student, str):
        raise TypeError(f"student must be a str, got {student!r}")
    nb = nbformat.read(path, as_version=4)
    t0 = time.perf_counter()
    with environment(**{ENV_VAR: student, "NBGRADER_EXECUTION": None}):
        execute(nb, path.parent, timeout)
    seconds = time.perf_counter() - t0
    if save is not None:
        nbformat.write(nb, save)
    cells, errors = [], []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        meta = cell.metadata.get("nbgrader", {})
        outputs = cell.get("outputs", [])
        err = next((o for o in outputs if o.get("output_type") == "error"), None)
        if meta.get("grade"):
            points = float(meta.get("points", 0))
            got, error, message = earned(outputs, points)
            cells.append({"grade_id": meta.get("grade_id", f"cell-{i}"), "points": points, "earned": got,
                          "error": error, "message": message, "record": record(outputs)})
        elif err:
            errors.append({"index": i, "error": err["ename"], "message": err["evalue"]})
    used, flags = notebook_facts(nb)
    report = GradeReport(path, used or student_id(student), cells, errors, seconds)
    report.flags = flags
    return report
