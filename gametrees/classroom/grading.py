"""Running a notebook and scoring its test cells: :func:`grade`, :class:`GradeReport`.

A small stand-in for ``nbgrader autograde`` when no gradebook is set up;
:func:`environment` and :func:`execute` are the steps it shares with the tests.

May import: the standard library, :mod:`gametrees.classroom.ids`,
:mod:`gametrees.classroom.scoring` (the record a check leaves), :mod:`gametrees.classroom.verdicts` (inside
:func:`grade`) and the public
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
from .scoring import MIME

_INTEGRITY = "application/vnd.gametrees.integrity+json"
_ID_LINE = re.compile(r"made from the id '([^']*)'")


def record(outputs):
    """The check's record (see :class:`~gametrees.classroom.scoring.Score`) among a cell's outputs, or
    None."""
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
    """The score of one notebook, decided outside its kernel (see :func:`grade`).

    Attributes
    ----------
    path : pathlib.Path
    student : str
        The id whose trees graded it.
    flags : list of str
        Flags for the instructor: answers asked of the library (in the kernel), and the grader's
        (integrity, disagreements, ids).
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
        lines = [f"{self.path.name} (student {self.student!r}): {fmt(self.score)} of {fmt(self.total)} "
                 "points"]
        for c in self.cells:
            mark = "✓" if c["earned"] == c["points"] else "✗"
            lines.append(f"{mark} {c['grade_id']}: {fmt(c['earned'])}/{fmt(c['points'])}")
            rec, v = c.get("record"), c.get("verdict")
            if v and v["decided"] and not v["ok"]:
                named = f" ({'; '.join(v['tags'])})" if v["tags"] else ""
                lines.append(f"    {v['title']}{named}")
                lines += [f"    ⚠ {e}" for e in v["errors"]]
            elif c["error"]:
                first = (c["message"] or "").strip().splitlines()
                lines.append(f"    {c['error']}: {first[0] if first else ''}")
            for w in (rec or {}).get("warnings", []) if c is self.cells[0] else ():
                lines.append(f"    ⚠ {w}")
        for f in self.flags:
            lines.append(f"⚑ {f}")
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
            return 0.0, "stderr", ("the cell wrote to standard error, which nbgrader counts as a failure: "
                                   + o["text"])
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


def _save_target(save, path, force):
    """Checks where ``grade`` may write the executed notebook, before anything runs (a ValueError if not)."""
    save = Path(save)
    if save.suffix != ".ipynb":
        raise ValueError(f"--save {str(save)!r}: give a notebook file name ending in .ipynb")
    if save.exists() and save.resolve() == path.resolve():
        raise ValueError(f"--save {str(save)!r} is the notebook being graded: grade never writes over its "
                         "input")
    if not save.parent.is_dir():
        raise ValueError(f"--save {str(save)!r}: the folder {str(save.parent)!r} does not exist")
    if save.exists():
        if not save.is_file():
            raise ValueError(f"--save {str(save)!r} exists and is not a file")
        try:
            import json

            own = bool(json.loads(save.read_text(encoding="utf-8")).get("metadata", {}).get(_OWN))
        except (OSError, ValueError, AttributeError):
            own = False
        if not own and not force:
            raise ValueError(f"--save {str(save)!r} exists and is not an earlier output of grade: give "
                             "--force to replace it")
    if not os.access(save.parent, os.W_OK):
        raise ValueError(f"--save {str(save)!r}: the folder is not writable")
    return save


_OWN = "gametrees_graded_copy"


def grade(path, *, student=None, timeout=300, save=None, force=False):
    """Run a notebook top to bottom for its feedback, and decide its points outside the kernel.

    The notebook runs in a kernel (so that its checks print their feedback), then
    :func:`gametrees.classroom.verdicts.decide` decides each grade cell's points
    from the notebook's answers, as ``autograde`` does, for ``student``'s trees:
    ``grade --student ID`` and ``autograde`` give the same points for the same
    notebook. Without ``student`` the id typed in the notebook is used (and said).
    Errors in cells that are not grade cells are listed apart.

    Parameters
    ----------
    path : path
        The notebook.
    student : str, optional
        The student whose trees grade it (sets ``GAMETREES_STUDENT_ID`` for the kernel too).
    timeout : int
        Seconds per cell.
    save : path, optional
        Write the executed notebook there: never the notebook itself, and an existing file only
        when it is an earlier output of ``grade`` or ``force`` is given.
    force : bool
        Replace an existing ``save`` file that ``grade`` did not write.

    Returns
    -------
    GradeReport
    """
    import nbformat

    from .verdicts import decide, student_cells, typed_id

    path = Path(path)
    if path.is_dir() or path.suffix != ".ipynb" or not path.is_file():
        raise ValueError(f"path must be an existing notebook (.ipynb), got {str(path)!r}")
    if student is not None and not isinstance(student, str):
        raise TypeError(f"student must be a str, got {student!r}")
    if save is not None:
        save = _save_target(save, path, force)
    try:
        nb = nbformat.read(path, as_version=4)
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read {str(path)!r} as a notebook: {exc}") from None
    t0 = time.perf_counter()
    with environment(**{ENV_VAR: student, "NBGRADER_EXECUTION": None}):
        execute(nb, path.parent, timeout)
    seconds = time.perf_counter() - t0
    who = student_id(student) if student else (typed_id(student_cells(nb)) or student_id(None))
    verdict = decide(nb, who)
    by_id = {v.grade_id: v for v in verdict.verdicts}
    if save is not None:
        nb.metadata[_OWN] = {"source": str(path.resolve())}
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
            gid = meta.get("grade_id", f"cell-{i}")
            got, error, message = earned(outputs, points)
            v = by_id.get(gid)
            if v is not None and v.decided:
                got = v.earned
            cells.append({"grade_id": gid, "points": points, "earned": got, "error": error,
                          "message": message, "record": record(outputs),
                          "verdict": v.record() if v is not None else None})
        elif err:
            errors.append({"index": i, "error": err["ename"], "message": err["evalue"]})
    used, flags = notebook_facts(nb)
    report = GradeReport(path, who, cells, errors, seconds)
    report.flags = flags + verdict.flags + [f"{v.grade_id}: {f}" for v in verdict.verdicts for f in v.flags]
    return report
