"""Grades to a learning management system: a file its gradebook imports (:func:`export_grades`).

``python -m gametrees.assignments export-grades COURSE_DIR --format canvas|moodle|csv [--roster FILE]
[--out FILE] [--force]`` reads nbgrader's gradebook (``COURSE_DIR/gradebook.db``, through nbgrader's
public :class:`nbgrader.api.Gradebook`, opened read-only) and writes one row per student and one column
per assignment. A student's grade for an assignment is nbgrader's score of their submission less its late
penalty (as ``nbgrader export`` computes it), written with at most 4 decimals. **A student who has no
submission of an assignment in the gradebook gets an empty cell, never 0**; a submission that scored 0
gets ``0``. (``nbgrader export`` writes 0 for both.) A submission that still needs manual grading is
written with the score it has so far, and said so.

The formats, each UTF-8 without a byte-order mark (neither LMS's documentation asks for one: Canvas's
CSV documentation asks for UTF-8 text and RFC 4180 quoting; Moodle's CSV import asks which encoding the
file has, UTF-8 by default), quoted as RFC 4180 says, so names with commas, quotes or any script come
back as written:

``canvas``
    Canvas's gradebook import CSV, laid out as Canvas's own gradebook export, which is the format its
    grade import reads (Canvas guides, "How do I import grades in the Gradebook?"): the columns
    ``Student``, ``ID``, ``SIS User ID``, ``SIS Login ID``, ``Section``, then one column per
    assignment, titled with the nbgrader assignment's name (a column that matches no Canvas assignment
    becomes a new assignment on import), and under the header the optional ``Points Possible`` row
    with each assignment's maximum score. Canvas finds the student from these columns (the name,
    ``ID`` or ``SIS User ID`` is enough).
``moodle``
    Moodle's grade import CSV (MoodleDocs "Grade import", CSV import): a header row, then one row per
    student. The identifier columns ``Username``, ``ID number`` and ``Email address`` are what Moodle's
    *Identify user by* maps (*Map from* one of them, *Map to* ``username``, ``useridnumber`` or
    ``useremail``); ``Full name`` is for the reader (map it to nothing); then one column per assignment,
    each mapped on import to a grade item or to a *new grade item*. No points row: Moodle would read it
    as a student. Moodle reads an empty cell as "no grade" and stops the whole import at a row whose
    user it cannot find, so give every student a roster row with the identifier you map from.
``csv``
    A plain table: ``student_id`` (the nbgrader id), then one column per assignment.

**The roster** (``--roster FILE``) maps nbgrader's student ids to the LMS's: a CSV file, UTF-8 (a
byte-order mark, as Excel writes it, is accepted), whose first row names its columns:

================  ==============================  ==================================
roster column     Canvas column                   Moodle column
================  ==============================  ==================================
``nbgrader_id``   (required: the gradebook's id)
``name``          ``Student``                     ``Full name``
``lms_id``        ``ID`` (Canvas's user id)
``sis_user_id``   ``SIS User ID``                 ``ID number``
``login_id``      ``SIS Login ID``                ``Username``
``section``       ``Section``
``email``                                         ``Email address``
================  ==============================  ==================================

Only ``nbgrader_id`` is required; a column not in this table is refused (a misspelt column would
otherwise be dropped unseen), and so is a row without its ``nbgrader_id``, an id on two rows, a row
with more or fewer fields than the header, and a file that is not UTF-8, each naming the row (the
header is row 1, as a spreadsheet counts) and the column. Where the roster has no value, what nbgrader
knows fills in: ``name`` from nbgrader's last and first names ("Doe, Jane"; else the id), ``lms_id``
from nbgrader's ``lms_user_id``, ``email`` from nbgrader's email, ``login_id`` is the nbgrader id
(the hub login nbgrader files submissions under); ``sis_user_id`` and ``section`` only from the roster.

Rows: the roster's students in the roster's order (one in the roster but not in the gradebook has an
empty cell for every assignment, and is listed in :attr:`GradeExport.notes`), then every gradebook
student the roster does not name, written with what nbgrader knows (their nbgrader id as login) and
listed in the notes too, never dropped; without a roster, every gradebook student, by id.

Nothing is lost: the file is written whole or not at all, never over an existing file unless
``force``, and never (not even with ``force``) over the gradebook or the roster. Bad input raises
:class:`ValueError` with one line naming it (the command line prints it and exits with status 2).

May import: the standard library; nbgrader (its public ``nbgrader.api``) and SQLAlchemy's exceptions
inside functions only.

Examples
--------
>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "roster.csv").write_text("nbgrader_id,name,login_id\\njdoe,\\"Doe, Jane\\",jane.doe\\n")
>>> [row["login_id"] for row in read_roster(folder / "roster.csv")]
['jane.doe']
>>> export_grades(folder, "canvas")
Traceback (most recent call last):
...
ValueError: ... has no gradebook.db: nbgrader writes it when it generates or autogrades an assignment
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

__all__ = ["FORMATS", "ROSTER_COLUMNS", "GradeExport", "export_grades", "read_roster"]

#: The formats :func:`export_grades` writes.
FORMATS = ("canvas", "moodle", "csv")

#: The columns a roster may have (``nbgrader_id`` required).
ROSTER_COLUMNS = ("nbgrader_id", "name", "lms_id", "sis_user_id", "login_id", "section", "email")

# Each format's identity columns: (title, the roster field written there).
_IDENTITY = {
    "canvas": (("Student", "name"), ("ID", "lms_id"), ("SIS User ID", "sis_user_id"),
               ("SIS Login ID", "login_id"), ("Section", "section")),
    "moodle": (("Username", "login_id"), ("ID number", "sis_user_id"), ("Email address", "email"),
               ("Full name", "name")),
    "csv": (("student_id", "nbgrader_id"),),
}
_MOODLE_IDENTIFIERS = ("Username", "ID number", "Email address")
_DEFAULT_NAME = {"canvas": "grades_canvas.csv", "moodle": "grades_moodle.csv", "csv": "grades.csv"}


@dataclass
class GradeExport:
    """What :func:`export_grades` wrote.

    Attributes
    ----------
    path : pathlib.Path
        The file written.
    format : str
        ``"canvas"``, ``"moodle"`` or ``"csv"``.
    students : list of str
        The nbgrader ids of the rows, in the file's order.
    assignments : list of str
        The assignment columns, in the gradebook's order (due date, then name).
    notes : list of str
        One line each: students the roster does not name, roster students the gradebook does not
        have, submissions still needing manual grading, Moodle identifier columns with empty cells.
    """

    path: Path
    format: str
    students: list = field(default_factory=list)
    assignments: list = field(default_factory=list)
    notes: list = field(default_factory=list)

    def __str__(self):
        return (f"wrote {self.path} ({self.format}): {len(self.students)} students, "
                f"{len(self.assignments)} assignments")


# ============================================================================
# The roster
# ============================================================================


def read_roster(path):
    """The rows of a roster CSV, as dicts over :data:`ROSTER_COLUMNS` (absent columns: ``""``).

    Raises
    ------
    ValueError
        For a missing or unreadable file, a file that is not UTF-8, an unknown or missing column, a row
        whose field count differs from the header's, or whose ``nbgrader_id`` is empty or repeated;
        the message names the file, the row (the header is row 1) and the column.
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"roster {path}: no such file")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"roster {path}: cannot be read ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"roster {path}: {_undecodable(raw, exc)} is not UTF-8 (save the roster as "
                         "CSV UTF-8)") from None
    rows = []
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        records = [(n, record) for n, record in enumerate(reader, start=1)]
    except csv.Error as exc:
        raise ValueError(f"roster {path}: row {reader.line_num}: {exc}") from None
    records = [(n, [v.strip() for v in record]) for n, record in records if any(v.strip() for v in record)]
    if not records:
        raise ValueError(f"roster {path} is empty: its first row names the columns "
                         f"({', '.join(ROSTER_COLUMNS)})")
    header_row, header = records[0]
    seen = set()
    for title in header:
        if title not in ROSTER_COLUMNS:
            raise ValueError(f"roster {path}: row {header_row}, column {title!r}: not a roster column "
                             f"(known: {', '.join(ROSTER_COLUMNS)})")
        if title in seen:
            raise ValueError(f"roster {path}: row {header_row}, column {title!r}: named twice")
        seen.add(title)
    if "nbgrader_id" not in seen:
        raise ValueError(f"roster {path}: row {header_row} has no column 'nbgrader_id' (the gradebook's "
                         "student id, required)")
    where = {}
    for n, record in records[1:]:
        if len(record) != len(header):
            raise ValueError(f"roster {path}: row {n} has {len(record)} fields, the header {len(header)}")
        row = dict.fromkeys(ROSTER_COLUMNS, "")
        row.update(zip(header, record))
        sid = row["nbgrader_id"]
        if not sid:
            raise ValueError(f"roster {path}: row {n}, column 'nbgrader_id': empty (every row names its "
                             "student's nbgrader id)")
        if sid in where:
            raise ValueError(f"roster {path}: row {n}, column 'nbgrader_id': {sid!r} is already on row "
                             f"{where[sid]}")
        where[sid] = n
        rows.append(row)
    return rows


def _undecodable(raw, exc):
    """``"row R, column C"`` of the byte a UTF-8 decoder stopped at (rows and columns as csv counts)."""
    start = raw.rfind(b"\n", 0, exc.start) + 1
    row = raw.count(b"\n", 0, exc.start) + 1
    before = raw[start:exc.start].decode("utf-8", "replace")
    column = len(next(csv.reader([before]), [""])) if before else 1
    header = next(csv.reader([raw.split(b"\n", 1)[0].decode("utf-8", "replace").lstrip("\ufeff")]), [])
    name = f" ({header[column - 1].strip()!r})" if row > 1 and column <= len(header) else ""
    return f"row {row}, column {column}{name}"


# ============================================================================
# The gradebook
# ============================================================================


def _read_gradebook(gradebook):
    """``(assignments, students, scores, manual)`` from nbgrader's gradebook, opened read-only.

    ``assignments``: ``[(name, max_score)]``; ``students``: ``{id: {"name", "lms_id", "email"}}``;
    ``scores``: ``{(student, assignment): score less the late penalty}`` (submissions only);
    ``manual``: ``{assignment: [students whose submission needs manual grading]}``.
    """
    try:
        from nbgrader.api import Gradebook
        from sqlalchemy.exc import SQLAlchemyError
    except ImportError:
        raise ValueError("export-grades needs nbgrader: pip install -r requirements-instructor.txt") from None
    # Read-only: nothing of the gradebook changes (course_id "" keeps nbgrader from adding a course).
    url = f"sqlite:///file:{quote(str(gradebook.resolve()))}?mode=ro&uri=true"
    try:
        with Gradebook(url, course_id="") as gb:
            assignments = [(a.name, float(a.max_score or 0.0)) for a in gb.assignments]
            students = {}
            for s in gb.students:
                names = ", ".join(n for n in (s.last_name, s.first_name) if n)
                students[s.id] = {"name": names or s.id, "lms_id": s.lms_user_id or "",
                                  "email": s.email or ""}
            scores, manual = {}, {}
            for a in gb.assignments:
                for sub in a.submissions:
                    scores[sub.student_id, a.name] = max(0.0, float(sub.score or 0.0)
                                                         - float(sub.late_submission_penalty or 0.0))
                    if sub.needs_manual_grade:
                        manual.setdefault(a.name, []).append(sub.student_id)
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        raise ValueError(f"{gradebook} could not be read as nbgrader's gradebook ({reason})") from None
    return assignments, students, scores, manual


# ============================================================================
# The export
# ============================================================================


def _number(value):
    """A score as the LMS reads it: at most 4 decimals, no trailing zeros (``7``, ``7.5``)."""
    return f"{value:.4f}".rstrip("0").rstrip(".")


def _target(course, fmt, out, force, protected):
    """The file to write, checked before anything is read or written."""
    path = Path(out) if out is not None else course / "reports" / _DEFAULT_NAME[fmt]
    if path.is_dir():
        raise ValueError(f"--out {path} is a folder: name the file to write")
    for what, other in protected:
        if other is not None and path.resolve() == Path(other).resolve():
            raise ValueError(f"--out {path} is the {what} itself: choose another file (never written over, "
                             "not even with --force)")
    if path.exists() and not force:
        raise ValueError(f"{path} exists: pass --force to replace it")
    return path


def export_grades(course, fmt, *, roster=None, out=None, force=False):
    """Write nbgrader's grades as a file the LMS gradebook imports (see the module's text for each format).

    Parameters
    ----------
    course : str or path-like
        The nbgrader course folder, holding ``gradebook.db``.
    fmt : str
        ``"canvas"``, ``"moodle"`` or ``"csv"``.
    roster : str or path-like, optional
        A roster CSV (columns: :data:`ROSTER_COLUMNS`), mapping nbgrader ids to the LMS's.
    out : str or path-like, optional
        The file to write; default ``COURSE/reports/grades_canvas.csv`` (``grades_moodle.csv``,
        ``grades.csv``), its folder created if needed.
    force : bool
        Replace ``out`` if it exists (never the gradebook or the roster).

    Returns
    -------
    GradeExport

    Raises
    ------
    ValueError
        An unknown format, a missing course folder or gradebook, an unreadable roster (naming the row and
        column), ``out`` existing without ``force``, or ``out`` being the gradebook or the roster.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: choose {', '.join(FORMATS[:-1])} or {FORMATS[-1]}")
    course = Path(course)
    if not course.is_dir():
        raise ValueError(f"no course folder {course}")
    gradebook = course / "gradebook.db"
    if not gradebook.is_file():
        raise ValueError(f"{course} has no gradebook.db: nbgrader writes it when it generates or autogrades "
                         "an assignment")
    roster_rows = read_roster(roster) if roster is not None else None
    path = _target(course, fmt, out, force, (("gradebook", gradebook), ("roster", roster)))
    assignments, students, scores, manual = _read_gradebook(gradebook)
    if not assignments:
        raise ValueError(f"{gradebook} has no assignments: nothing to export")
    identity = _IDENTITY[fmt]
    clash = [name for name, _ in assignments if name in {title for title, _ in identity}]
    if clash:
        raise ValueError(f"assignment {clash[0]!r} has the name of a {fmt} column: rename it in nbgrader")

    notes = []
    records = []  # (nbgrader id, {field: value})
    named = set()
    for row in roster_rows or ():
        sid = row["nbgrader_id"]
        named.add(sid)
        known = students.get(sid, {})
        fields = {"nbgrader_id": sid, "login_id": sid, "name": known.get("name") or sid,
                  "lms_id": known.get("lms_id", ""), "email": known.get("email", "")}
        fields.update({k: v for k, v in row.items() if v})
        records.append((sid, fields))
    unnamed = sorted(sid for sid in students if sid not in named)
    for sid in unnamed:
        records.append((sid, {"nbgrader_id": sid, "login_id": sid, **students[sid]}))
    if not records:
        raise ValueError(f"{gradebook} has no students and no roster was given: nothing to export")
    if roster_rows is not None:
        if unnamed:
            notes.append(f"not in the roster, written with their nbgrader id: {', '.join(unnamed)}")
        absent = [sid for sid, _ in records if sid in named and sid not in students]
        if absent:
            notes.append("in the roster, not in the gradebook, written with empty grades: "
                         f"{', '.join(absent)}")
    for name, _ in assignments:
        if manual.get(name):
            notes.append(f"{name}: still needs manual grading, written with its score so far: "
                         f"{', '.join(sorted(manual[name]))}")
    if fmt == "moodle":
        for title, key in identity:
            empty = [sid for sid, fields in records if not fields.get(key)]
            if title in _MOODLE_IDENTIFIERS and empty:
                notes.append(f"moodle: {title!r} is empty for {', '.join(empty)}: map users from another "
                             "column, or fill the roster (Moodle cannot identify a row by an empty value)")

    header = [title for title, _ in identity] + [name for name, _ in assignments]
    lines = [header]
    if fmt == "canvas":
        lines.append(["Points Possible"] + [""] * (len(identity) - 1) + [_number(m) for _, m in assignments])
    for sid, fields in records:
        cells = [fields.get(key, "") for _, key in identity]
        cells += [_number(scores[sid, name]) if (sid, name) in scores else "" for name, _ in assignments]
        lines.append(cells)
    _write(path, lines)
    return GradeExport(path, fmt, [sid for sid, _ in records], [name for name, _ in assignments], notes)


def _write(path, lines):
    """Write the rows as RFC 4180 CSV in UTF-8, whole or not at all (a temporary file, then renamed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with open(handle, "w", encoding="utf-8", newline="") as f:
            csv.writer(f).writerows(lines)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
