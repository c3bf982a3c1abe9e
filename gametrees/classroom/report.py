"""The class report: what a class got right and wrong in an assignment (:func:`class_report`, :class:`ClassReport`).

Reads nbgrader's autograded submissions (``COURSE/autograded/<student>/<assignment>/*.ipynb``),
scores each test cell as nbgrader does, and reads the record every graded check
leaves in its output (the misconceptions it named, the library uses it flagged).
Per question: how many students got it right, the mean points, and the named
misconceptions with their counts, most common first. Writes a CSV (one row per
student and question) and a bar chart (PNG).

May import: the standard library, :mod:`gametrees.classroom.grading`,
:mod:`gametrees.classroom.scoring` and the public names of
:mod:`gametrees.exercises.feedback`; nbformat and matplotlib
inside functions only.
"""

from __future__ import annotations

import csv
import textwrap
from collections import Counter
from pathlib import Path

from ..exercises.feedback import fmt
from .grading import earned, notebook_facts, record
from .scoring import named_in


class ClassReport:
    """What :func:`class_report` found.

    Attributes
    ----------
    assignment : str
    students : list of str
        The student folders read.
    questions : list of dict
        One per test cell, in notebook order: ``grade_id``, ``points``,
        ``students``, ``right``, ``mean`` (points), ``misconceptions``
        (``[(name, count), ...]``, most common first) and ``flagged``
        (students whose answer was asked of the library).
    rows : list of dict
        One per student and question (what the CSV holds).
    flagged : dict
        ``{student: [library uses]}`` for the notebooks that asked the
        library for a graded answer.
    csv, chart : pathlib.Path or None
        The files written.
    """

    def __init__(self, assignment, students, questions, rows, flagged):
        self.assignment, self.students, self.questions, self.rows = assignment, students, questions, rows
        self.flagged = flagged
        self.csv = self.chart = None

    def __repr__(self):
        n = len(self.students)
        lines = [f"{self.assignment}: {n} submission{'s' if n != 1 else ''}"]
        for q in self.questions:
            lines.append(f"{q['grade_id']}: right {q['right']} of {q['students']}, mean {q['mean']:.2f} of "
                         f"{fmt(q['points'])} points")
            for name, count in q["misconceptions"]:
                lines.append(f"    {name}: {count} of {q['students']}")
        if self.flagged:
            lines.append(f"answers asked of the library (flagged): {len(self.flagged)} of {n}: "
                         + ", ".join(sorted(self.flagged)))
        if self.csv:
            lines.append(f"wrote {self.csv}")
        if self.chart:
            lines.append(f"wrote {self.chart}")
        return "\n".join(lines)


def _submissions(course, assignment):
    base = Path(course) / "autograded"
    if not base.is_dir():
        raise ValueError(f"no autograded submissions: {str(base)!r} is not a folder (run nbgrader autograde first)")
    found = []
    for student in sorted(p for p in base.iterdir() if p.is_dir()):
        folder = student / assignment
        if folder.is_dir():
            found.extend((student.name, nb) for nb in sorted(folder.glob("*.ipynb")))
    if not found:
        raise ValueError(f"no autograded notebooks of {assignment!r} under {str(base)!r}")
    return found


def class_report(course, assignment, out=None, chart=True):
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

    Returns
    -------
    ClassReport

    Raises
    ------
    ValueError
        If there is no autograded submission of ``assignment``.
    """
    import nbformat

    if not isinstance(assignment, str) or not assignment.strip():
        raise ValueError(f"assignment must be an assignment's name such as 'A2', got {assignment!r}")
    subs = _submissions(course, assignment)
    rows, order, flagged = [], [], {}
    for student, path in subs:
        nb = nbformat.read(path, as_version=4)
        _, flags = notebook_facts(nb)
        if flags:
            flagged[student] = flags
        for cell in nb.cells:
            meta = cell.metadata.get("nbgrader", {})
            if cell.cell_type != "code" or not meta.get("grade"):
                continue
            gid, points = meta.get("grade_id", "?"), float(meta.get("points", 0))
            if gid not in order:
                order.append(gid)
            outputs = cell.get("outputs", [])
            got, error, _ = earned(outputs, points)
            rec = record(outputs) or {}
            # named again from the check's text, so that every submission is read the same way
            named = named_in(rec["text"]) if "text" in rec else list(rec.get("misconceptions", []))
            if error and not named:
                named = [f"the check raised {error}"]
            rows.append({"student": student, "notebook": path.name, "question": gid, "points": points,
                         "earned": got, "right": got == points, "misconceptions": named,
                         "flags": flags})
    questions = []
    for gid in order:
        mine = [r for r in rows if r["question"] == gid]
        counts = Counter(name for r in mine for name in dict.fromkeys(r["misconceptions"]))
        questions.append({
            "grade_id": gid, "points": mine[0]["points"], "students": len(mine),
            "right": sum(r["right"] for r in mine), "mean": sum(r["earned"] for r in mine) / len(mine),
            "misconceptions": sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])),
        })
    report = ClassReport(assignment, sorted({s for s, _ in subs}), questions, rows, flagged)
    if out is False:
        return report
    folder = Path(out) if out is not None else Path(course) / "reports"
    folder.mkdir(parents=True, exist_ok=True)
    report.csv = folder / f"{assignment}_report.csv"
    with open(report.csv, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["student", "question", "earned", "points", "right", "misconceptions", "library flags"])
        for r in rows:
            w.writerow([r["student"], r["question"], fmt(r["earned"]), fmt(r["points"]), "yes" if r["right"] else "no",
                        "; ".join(r["misconceptions"]), "; ".join(r["flags"])])
    if chart:
        report.chart = _chart(report, folder / f"{assignment}_report.png")
    return report


def _chart(report, path):
    """Two panels: the share of students right per question; the misconceptions named most often."""
    from matplotlib.figure import Figure  # no pyplot: no backend or window needed

    qs = report.questions
    named = Counter()
    for q in qs:
        for name, count in q["misconceptions"]:
            if name != "not answered":
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
    fig.savefig(path)
    return Path(path)
