"""The class report: what a class got right and wrong in an assignment (:func:`class_report`,
:class:`ClassReport`).

Reads nbgrader's autograded submissions (``COURSE/autograded/<student>/<assignment>/*.ipynb``)
and, in each, the verdicts the grader wrote (``metadata.gametrees``: see
:mod:`gametrees.classroom.autograding`): points decided outside the student's
kernel, the misconception tags of each answer (structured tags from the
catalogue, :data:`gametrees.exercises.CATALOGUE`), and apart from them the
integrity flags, the errors and timeouts, id mismatches and how many times
each question was checked while the student worked. Per question: how many
students got it right, the mean points, the misconceptions with their counts
(most common first), who was flagged, who timed out. Writes a CSV (one row per
student and question) and a bar chart (PNG), each whole or not at all, and
replaces an existing file only if an earlier report wrote it and it is unchanged
since (the hidden :data:`WRITTEN` list in the folder says what report wrote) or
with ``force=True`` (``--force``). A notebook autograded without the grader is
listed as such, its points read from nbgrader's outputs. Submissions nbgrader's guarded collect
set aside (filed under a student's id by another account: :mod:`gametrees.classroom.exchange`) are
named, from ``COURSE/quarantined/`` (:func:`set_aside`).

May import: the standard library, :mod:`gametrees.classroom.grading` and the
public names of :mod:`gametrees.exercises` and :mod:`gametrees.exercises.feedback`;
nbformat and matplotlib inside functions only.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import tempfile
import textwrap
from collections import Counter
from pathlib import Path

from ..exercises import CATALOGUE
from ..exercises.feedback import fmt
from .grading import earned

#: The folder, in the course folder, where ``collect`` copies the submissions it sets aside
#: (:mod:`gametrees.classroom.exchange`).
QUARANTINE = "quarantined"


def set_aside_path(course, assignment, student, owner, timestamp):
    """Where ``collect`` copies a submission it sets aside: ``COURSE/quarantined/ASSIGNMENT/ID/OWNER+TIME``.

    Examples
    --------
    >>> set_aside_path("/c", "A2", "v01", "asmith", "2026-11-27 13:00:00.000000 UTC").as_posix()
    '/c/quarantined/A2/v01/asmith+2026-11-27 13:00:00.000000 UTC'
    """
    return Path(course) / QUARANTINE / assignment / student / f"{owner}+{timestamp}"


def set_aside(course, assignment):
    """The submissions of ``assignment`` set aside in ``course``: ``[(student id, owner, folder)]``, sorted.

    Examples
    --------
    >>> set_aside("/nonexistent", "A2")
    []
    """
    base = Path(course) / QUARANTINE / assignment
    if not base.is_dir():
        return []
    return sorted((student.name, copy.name.split("+", 1)[0], copy)
                  for student in base.iterdir() if student.is_dir()
                  for copy in student.iterdir() if copy.is_dir())


class ClassReport:
    """What :func:`class_report` found.

    Attributes
    ----------
    assignment : str
    students : list of str
        The student folders read.
    questions : list of dict
        One per grade cell, in notebook order: ``grade_id``, ``points``, ``students``, ``right``,
        ``mean`` (points), ``misconceptions`` (``[(tag, count), ...]``, most common first),
        ``flagged`` and ``errors`` (students), ``unanswered`` (count), ``checks`` (checks while working,
        summed over the class), ``variants`` (how many different per-student variants it had),
        ``added_failed`` (``[(name, count)]``: the checks the grader adds that students failed,
        :mod:`gametrees.classroom.hidden`).
    rows : list of dict
        One per student and question (what the CSV holds).
    flagged : dict
        ``{student: [flags]}``: every flag of a submission (its questions' and the notebook's).
    undecided : list of str
        Students whose notebook was autograded without the grader (nbgrader's score from the kernel).
    set_aside : list of tuple
        Submissions ``collect`` set aside, filed under a student's id by another account:
        ``(student id, account, folder)`` (:func:`set_aside`).
    csv, chart : pathlib.Path or None
        The files written.
    """

    def __init__(self, assignment, students, questions, rows, flagged, undecided=()):
        self.assignment, self.students, self.questions, self.rows = assignment, students, questions, rows
        self.flagged, self.undecided = flagged, list(undecided)
        self.csv = self.chart = None
        self.unsafe = []  # students graded with --unsafe-no-isolation
        self.set_aside = []

    def __repr__(self):
        n = len(self.students)
        lines = [f"{self.assignment}: {n} submission{'s' if n != 1 else ''} (points decided outside the "
                 "students' kernels)"]
        if self.unsafe:
            lines.append(f"WARNING: graded WITHOUT isolation (--unsafe-no-isolation), so not protected: "
                         f"{len(self.unsafe)} of {n}: {', '.join(self.unsafe)}")
        for q in self.questions:
            lines.append(f"{q['grade_id']}: right {q['right']} of {q['students']}, mean {q['mean']:.2f} of "
                         f"{fmt(q['points'])} points; checked {q['checks']} times while working")
            for tag, count in q["misconceptions"]:
                title = getattr(CATALOGUE.get(tag), "title", "")
                lines.append(f"    {tag}{f' ({title})' if title else ''}: {count} of {q['students']}")
            if q.get("variants"):
                shown = [f"{r['student']}: {r['variant']}" for r in self.rows
                         if r["question"] == q["grade_id"] and r["variant"]]
                lines.append(f"    a variant per student ({q['variants']} different; each student's in the "
                             "CSV): " + "; ".join(shown[:4]) + ("; ..." if len(shown) > 4 else ""))
            for name, count in q.get("added_failed", ()):
                lines.append(f"    failed a check the grader adds, {name}: {count} of {q['students']}")
            if q["unanswered"]:
                lines.append(f"    not answered: {q['unanswered']}")
            if q["errors"]:
                lines.append(f"    errors and timeouts (not misconceptions): {', '.join(q['errors'])}")
            if q["flagged"]:
                lines.append(f"    flagged: {', '.join(q['flagged'])}")
        lines.append(f"flagged for integrity or ids: {len(self.flagged)} of {n}"
                     + (": " + ", ".join(sorted(self.flagged)) if self.flagged else ""))
        for student, owner, folder in self.set_aside:
            lines.append(f"SET ASIDE, not collected: a submission filed under {student} by the account "
                         f"{owner} (a copy in {folder})")
        timeouts = sorted({r["student"] for r in self.rows
                           if any("did not return" in e for e in r["errors"])})
        lines.append(f"timeouts: {len(timeouts)}" + (": " + ", ".join(timeouts) if timeouts else ""))
        if self.undecided:
            lines.append("autograded without the grader (nbgrader's kernel score only): "
                         + ", ".join(self.undecided))
        if self.csv:
            lines.append(f"wrote {self.csv}")
        if self.chart:
            lines.append(f"wrote {self.chart}")
        return "\n".join(lines)


def _submissions(course, assignment):
    if not isinstance(assignment, str) or not assignment.strip() or Path(assignment).name != assignment \
            or assignment in (".", ".."):
        raise ValueError("assignment must be an assignment's name such as 'A2' (not a path), got "
                         f"{assignment!r}")
    base = Path(course) / "autograded"
    if not base.is_dir():
        raise ValueError(f"no autograded submissions: {str(base)!r} is not a folder (run autograde first)")
    found = []
    for student in sorted(p for p in base.iterdir() if p.is_dir()):
        folder = student / assignment
        if folder.is_dir():
            found.extend((student.name, nb) for nb in sorted(folder.glob("*.ipynb")))
    if not found:
        raise ValueError(f"no autograded notebooks of {assignment!r} under {str(base)!r}")
    return found


def _checks_while_working(meta, grade_id, counted=None):
    """How many times the question was checked in the student's kernel before submitting (0 if unknown);
    ``counted``: what the verdict says the kernel counted it under (a declared question's exercise or check).

    Examples
    --------
    >>> meta = {"counts_submitted": {"order:seed='jdoe/A2/q6':medium#1": {"checks": 3},
    ...                              "pruning:seed='jdoe/A2':medium#2": {"checks": 2}}}
    >>> _checks_while_working(meta, "a2-q6-check", "order:seed='jdoe/A2/q6':medium")
    3
    >>> _checks_while_working(meta, "a2-q1-check"), _checks_while_working(meta, "mine")
    (2, 0)
    """
    counts = meta.get("counts_submitted") or {}
    q = grade_id.split("-")
    want = {"a1-q1": "values", "a1-q2": "best_move", "a2-q1": "pruning", "a2-q2": "values", "a2-q3": "window",
            "a1-q3": "check_minimax", "a1-q4": "check_best_move", "a2-q4": "check_alphabeta",
            "a2-q5": "check_best_move", "a3-check": "check_connect4_evaluation"}.get("-".join(q[:2]))
    want = want or counted
    if want is None:
        return 0
    return sum(v.get("checks", 0) for k, v in counts.items()
               if isinstance(v, dict) and (k == want or k.startswith(want + ":") or k.split("#")[0] == want))


def _target(out, course):
    folder = Path(out) if out is not None else Path(course) / "reports"
    for parent in [folder, *folder.parents]:
        if parent.exists():
            if not parent.is_dir():
                raise ValueError(f"--out {str(folder)!r}: {str(parent)!r} is a file, not a folder")
            break
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"cannot write the report to {str(folder)!r}: {exc.strerror or exc}") from None
    return folder


#: The hidden file in a report's folder listing the files report wrote there (name: SHA-256 of the bytes).
WRITTEN = ".gametrees-report.json"


def _sha256(data):
    return hashlib.sha256(data).hexdigest()


def _written(folder):
    """``{name: sha256}`` of the files earlier reports wrote into ``folder`` (empty if none or unreadable)."""
    try:
        data = json.loads((folder / WRITTEN).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, str)} if isinstance(data, dict) else {}


def _check_replace(paths, force):
    """A ValueError, before any work, if a file of ``paths`` exists and report may not replace it: a folder
    (never), or a file no earlier report wrote or changed since (unless ``force``)."""
    for path in paths:
        if not path.exists() and not path.is_symlink():
            continue
        if path.is_dir() or not path.is_file():
            raise ValueError(f"cannot write {str(path)!r}: it exists and is not a file")
        if force:
            continue
        try:
            same = _written(path.parent).get(path.name) == _sha256(path.read_bytes())
        except OSError:
            same = False
        if not same:
            raise ValueError(f"{str(path)!r} exists and was not written by report (or was changed since): "
                             "report does not replace it without force=True (--force); or give another --out")


def _write(path, data):
    """Write ``data`` (bytes) to ``path`` whole or not at all, and list it in the folder's :data:`WRITTEN`."""
    folder = path.parent
    for target, content in ((path, data), (folder / WRITTEN, None)):
        if content is None:
            content = json.dumps({**_written(folder), path.name: _sha256(data)}, indent=1).encode()
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=folder)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(content)
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o666 & ~mask)  # as open() would have made it
            os.replace(tmp, target)
        except OSError as exc:
            Path(tmp).unlink(missing_ok=True)
            raise ValueError(f"cannot write {str(target)!r}: {exc.strerror or exc}") from None


def class_report(course, assignment, out=None, chart=True, force=False):
    """Read an assignment's autograded submissions and summarise them per question.

    Parameters
    ----------
    course : path
        The nbgrader course folder (holding ``autograded/``).
    assignment : str
        The assignment's name, e.g. ``"A2"``.
    out : path, optional
        Folder for ``<assignment>_report.csv`` and ``<assignment>_report.png``
        (default ``<course>/reports``); ``False`` writes nothing.
    chart : bool
        Draw the bar chart (needs matplotlib).
    force : bool
        Replace an existing CSV or PNG of that name that no earlier report wrote, or that was changed
        since (without it, only report's own unchanged files are replaced).

    Returns
    -------
    ClassReport

    Raises
    ------
    ValueError
        If there is no autograded submission of ``assignment``, ``assignment`` is a path, ``out``
        cannot be written, or a file there exists that an earlier report did not write and ``force`` is
        False (checked before anything is read or written).
    """
    if not isinstance(force, bool):
        raise TypeError(f"force must be True or False, got {force!r}")
    subs = _submissions(course, assignment)
    folder = _target(out, course) if out is not False else None
    if folder is not None:
        _check_replace([folder / f"{assignment}_report.csv"] + ([folder / f"{assignment}_report.png"] if chart
                                                                else []), force)
    rows, order, flagged, undecided, unsafe = _read_submissions(subs)
    report = ClassReport(assignment, sorted({s for s, _ in subs}), _per_question(rows, order), rows, flagged,
                         undecided)
    report.unsafe = sorted(set(unsafe))
    report.set_aside = set_aside(course, assignment)
    if folder is None:
        return report
    report.csv = folder / f"{assignment}_report.csv"
    _write_csv(report.csv, rows)
    if chart:
        report.chart = _chart(report, folder / f"{assignment}_report.png")
    return report


def _read_submissions(subs):
    """A row per student and graded question, the questions in order, the flags, and who was not decided
    outside the kernel or was graded without a sandbox."""
    import nbformat

    rows, order, flagged, undecided, unsafe = [], [], {}, [], []
    for student, path in subs:
        nb = nbformat.read(path, as_version=4)
        meta = nb.metadata.get("gametrees") or {}
        verdicts = {v["grade_id"]: v for v in meta.get("verdicts", [])}
        if not meta:
            undecided.append(student)
        elif meta.get("isolation") == "none":
            unsafe.append(student)
        notebook_flags = list(meta.get("flags", []))
        for cell in nb.cells:
            m = cell.metadata.get("nbgrader", {})
            if cell.cell_type != "code" or not m.get("grade"):
                continue
            gid, points = m.get("grade_id", "?"), float(m.get("points", 0))
            if gid not in order:
                order.append(gid)
            row = _question_row(student, path.name, notebook_flags, cell, verdicts.get(gid), meta, gid,
                                points)
            rows.append(row)
            if row["flags"] or notebook_flags:
                flagged.setdefault(student, list(notebook_flags))
                flagged[student] += [f"{gid}: {f}" for f in row["flags"]]
    return rows, order, flagged, undecided, unsafe


def _question_row(student, notebook, notebook_flags, cell, v, meta, gid, points):
    """What a student got on a question: the verdict decided outside the kernel, else the cell's output."""
    if v is not None and v.get("decided"):
        got, status, tags = float(v["earned"]), v["status"], list(v["tags"])
        flags, errors, variant = list(v["flags"]), list(v["errors"]), v.get("variant") or ""
        counted, added = v.get("counted"), list(v.get("added_failed") or ())
    else:
        got, error, _ = earned(cell.get("outputs", []), points)
        status, tags, flags = "undecided", [], ["not decided outside the kernel"]
        errors = [f"the check raised {error}"] if error else []
        variant, counted, added = "", None, []
    return {"student": student, "notebook": notebook, "question": gid, "points": points,
            "earned": got, "right": got == points, "status": status, "misconceptions": tags,
            "flags": flags, "errors": errors, "notebook_flags": notebook_flags,
            "checks": _checks_while_working(meta, gid, counted), "added_failed": added,
            "variant": variant}


def _per_question(rows, order):
    """The class's results on each question, in the notebook's order."""
    questions = []
    for gid in order:
        mine = [r for r in rows if r["question"] == gid]
        counts = Counter(tag for r in mine for tag in dict.fromkeys(r["misconceptions"]))
        questions.append({
            "grade_id": gid, "points": mine[0]["points"], "students": len(mine),
            "right": sum(r["right"] for r in mine), "mean": sum(r["earned"] for r in mine) / len(mine),
            "misconceptions": sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])),
            "flagged": sorted({r["student"] for r in mine if r["flags"]}),
            "errors": sorted({r["student"] for r in mine if r["errors"]}),
            "unanswered": sum(r["status"] == "unanswered" for r in mine),
            "checks": sum(r["checks"] for r in mine),
            "variants": len({r["variant"] for r in mine if r["variant"]}),
            "added_failed": sorted(Counter(n for r in mine for n in r["added_failed"]).items(),
                                   key=lambda kv: (-kv[1], kv[0])),
        })
    return questions


def _write_csv(path, rows):
    """The rows as ``<assignment>_report.csv``: a line per student and question."""
    text = io.StringIO(newline="")
    w = csv.writer(text)
    w.writerow(["student", "question", "earned", "points", "status", "misconceptions", "flags", "errors",
                "notebook flags", "checks while working", "grader's added checks failed", "variant"])
    for r in rows:
        w.writerow([r["student"], r["question"], fmt(r["earned"]), fmt(r["points"]), r["status"],
                    "; ".join(r["misconceptions"]), "; ".join(r["flags"]), "; ".join(r["errors"]),
                    "; ".join(r["notebook_flags"]), r["checks"], "; ".join(r["added_failed"]), r["variant"]])
    _write(path, text.getvalue().encode("utf-8"))


def _chart(report, path):
    """Two panels: the share of students right per question; the misconceptions named most often."""
    from matplotlib.figure import Figure  # no pyplot: no backend or window needed

    qs = report.questions
    named = Counter()
    for q in qs:
        for name, count in q["misconceptions"]:
            named[f"{q['grade_id']}: {name}"] += count
    top = named.most_common(8)[::-1]
    fig = Figure(figsize=(11, 4.2), dpi=110)
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1]})
    labels = [q["grade_id"] for q in qs]
    share = [100 * q["right"] / q["students"] for q in qs]
    bars = left.barh(labels[::-1], share[::-1], color="#0072B2")
    for bar, q in zip(bars, qs[::-1]):
        inside = bar.get_width() >= 50  # the count inside a long bar (white), beside a short one
        left.text(bar.get_width() - 2 if inside else bar.get_width() + 2, bar.get_y() + bar.get_height() / 2,
                  f"{q['right']} of {q['students']}", va="center", ha="right" if inside else "left",
                  color="white" if inside else "black", fontsize=9)
    left.set_xlim(0, 100)
    left.set_xlabel("students with the question right (%)")
    left.set_title(f"{report.assignment}: right per question", fontsize=11)
    if top:
        right.barh([textwrap.fill(t[0], 34) for t in top], [t[1] for t in top], color="#D55E00")
        for i, (_, count) in enumerate(top):
            right.text(count, i, f" {count}", va="center", fontsize=9)
        right.set_xlabel(f"students (of {len(report.students)})")
        right.xaxis.get_major_locator().set_params(integer=True)
    else:
        right.text(0.5, 0.5, "no misconception named", ha="center", va="center", transform=right.transAxes)
        right.set_xticks([])
        right.set_yticks([])
    right.set_title("misconceptions named most often", fontsize=11)
    right.tick_params(axis="y", labelsize=8.5)
    fig.tight_layout()
    png = io.BytesIO()
    fig.savefig(png, format="png")
    _write(Path(path), png.getvalue())
    return Path(path)
