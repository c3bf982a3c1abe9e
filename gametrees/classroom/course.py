"""Checks that a course folder and its gradebook are usable before nbgrader grades, and earlier results kept.

``autograde`` hands a course to nbgrader, which reports a missing gradebook, a
garbage file, a read-only folder or a bad name only as "Please see the above
traceback" (with no traceback), and which deletes a student's earlier
``autograded/<student>/<assignment>`` when a new run fails. This module checks
first, each problem one sentence naming the file, folder or argument:

:func:`autograde_arguments`
    ``jobs``, ``students``, ``call_limit`` and the assignment's name: their
    types and ranges (:data:`JOBS`, :data:`CALL_LIMITS`).
:func:`check_course`
    The course folder exists and can be written; its ``nbgrader_config.py``
    loads; the gradebook is an nbgrader database that knows the assignment and
    its notebooks.
:class:`EarlierResults`
    A copy of each student's earlier autograded result, put back when the new
    run does not replace it.

May import: the standard library; traitlets inside :func:`check_course` only.
"""

from __future__ import annotations

import hashlib
import math
import numbers
import os
import shutil
import sqlite3
import tempfile
from pathlib import Path

#: The range of ``jobs`` (``--jobs``): submissions graded at the same time, each a process with a kernel.
JOBS = (1, 64)
#: The range of ``call_limit`` (``--call-limit``) in seconds: below 1 s a correct function is stopped on a
#: busy machine (a wrong grade); above 600 s one looping submission holds a worker for hours.
CALL_LIMITS = (1.0, 600.0)
#: Seconds a whole question may take (a tournament's games included), and a whole submission.
QUESTION_LIMITS = (1.0, 3600.0)
SUBMISSION_LIMITS = (10.0, 7200.0)
#: What a name may not hold: nbgrader reads names into paths and glob patterns.
_NOT_IN_NAMES = set("/\\*?[]") | {chr(i) for i in range(32)} | {"\x7f"}


def folder_name(value, what, example="A2"):
    """``value`` if it can name an assignment or a student: one folder name, not a path or a pattern.

    Parameters
    ----------
    value : str
    what : str
        How the message names the argument (``"assignment"``, ``"--student"``).
    example : str
        A good name, for the message.

    Raises
    ------
    TypeError
        ``value`` is not a str.
    ValueError
        Empty, surrounded by spaces, ``.``/``..`` or hidden (``.x``), a path, or a glob pattern.

    Examples
    --------
    >>> folder_name("A2", "assignment")
    'A2'
    >>> folder_name("", "assignment")
    Traceback (most recent call last):
    ...
    ValueError: assignment must be a folder name such as 'A2', got '' (empty)
    >>> folder_name("../jdoe", "--student", "jdoe")
    Traceback (most recent call last):
    ...
    ValueError: --student must be a folder name such as 'jdoe', got '../jdoe' (not a path or a pattern)
    """
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str (a folder name such as {example!r}), "
                        f"got {type(value).__name__}")
    why = None
    if not value.strip():
        why = "empty"
    elif value != value.strip():
        why = "spaces around it"
    elif _NOT_IN_NAMES & set(value):
        why = "not a path or a pattern"
    elif value.startswith("."):
        why = "a hidden or relative folder"
    if why:
        raise ValueError(f"{what} must be a folder name such as {example!r}, got {value!r} ({why})")
    return value


def _in_range(value, bounds, what, unit, whole):
    kind = numbers.Integral if whole else numbers.Real
    low, high = bounds
    expected = f"{'a whole number' if whole else 'a number of ' + unit} from {low:g} to {high:g}"
    if isinstance(value, bool) or not isinstance(value, kind):
        raise TypeError(f"{what} must be {expected}, got {value!r}")
    if not (math.isfinite(value) and low <= value <= high):
        raise ValueError(f"{what} must be {expected}, got {value!r}")
    return int(value) if whole else float(value)


def jobs_in_range(value, what="jobs"):
    """``value`` as an int if it is a number of jobs in :data:`JOBS`; else a ValueError naming ``what``.

    >>> jobs_in_range(0, "--jobs")
    Traceback (most recent call last):
    ...
    ValueError: --jobs must be a whole number from 1 to 64, got 0
    """
    return _in_range(value, JOBS, what, "", whole=True)


def call_limit_in_range(value, what="call_limit"):
    """``value`` as a float if it is a number of seconds in :data:`CALL_LIMITS`; else a ValueError.

    >>> call_limit_in_range(float("nan"), "--call-limit")
    Traceback (most recent call last):
    ...
    ValueError: --call-limit must be a number of seconds from 1 to 600, got nan
    """
    return _in_range(value, CALL_LIMITS, what, "seconds", whole=False)


def seconds_in_range(value, bounds, what):
    """``value`` as a float if it is a number of seconds within ``bounds``; else a ValueError naming ``what``.

    >>> seconds_in_range(0, QUESTION_LIMITS, "--question-limit")
    Traceback (most recent call last):
    ...
    ValueError: --question-limit must be a number of seconds from 1 to 3600, got 0
    """
    return _in_range(value, bounds, what, "seconds", whole=False)


def autograde_arguments(course, assignment, *, jobs, students, call_limit, cli=False):
    """``(jobs, students, call_limit)`` checked (``students`` a list or None); a ValueError/TypeError naming
    the first bad one. ``cli=True`` names them as the command line does (``--jobs``, ...).

    Examples
    --------
    >>> autograde_arguments("course", "A2", jobs=2, students=("jdoe",), call_limit=5)
    (2, ['jdoe'], 5.0)
    >>> autograde_arguments("course", "A2", jobs=1, students=None, call_limit=0)
    Traceback (most recent call last):
    ...
    ValueError: call_limit must be a number of seconds from 1 to 600, got 0
    """
    names = ("--jobs", "--student", "--call-limit") if cli else ("jobs", "students", "call_limit")
    if isinstance(course, bytes) or not isinstance(course, (str, os.PathLike)):
        raise TypeError(f"course must be a folder (str or pathlib.Path), got {type(course).__name__}")
    folder_name(assignment, "assignment")
    jobs = jobs_in_range(jobs, names[0])
    call_limit = call_limit_in_range(call_limit, names[2])
    if students is not None:
        if isinstance(students, (str, bytes)) or not isinstance(students, (list, tuple)):
            raise TypeError(f"{names[1]} must be a list of student ids (or None for every submission), "
                            f"got {students!r}")
        if not students:
            raise ValueError(f"{names[1]} is an empty list: give None to grade every submission")
        seen = set()
        for student in students:
            folder_name(student, names[1], "jdoe")
            if student in seen:
                raise ValueError(f"{names[1]} {student!r} is given twice: give each student once")
            seen.add(student)
        students = list(students)
    return jobs, students, call_limit


# ============================================================================
# The course folder and its gradebook
# ============================================================================


def _config_db_url(course):
    """``CourseDirectory.db_url`` from the course's ``nbgrader_config.py`` (None if it sets none)."""
    cfg = course / "nbgrader_config.py"
    if not cfg.is_file():
        return None
    try:
        from traitlets.config.loader import PyFileConfigLoader

        config = PyFileConfigLoader(cfg.name, path=str(cfg.parent)).load_config()
    except ImportError:
        return None
    except Exception as exc:  # noqa: BLE001 -- the instructor's file: any error is "cannot load it"
        raise ValueError(f"cannot load {str(cfg)!r}: {type(exc).__name__}: {exc}".splitlines()[0]) from None
    url = config.get("CourseDirectory", {}).get("db_url")
    return str(url) if url else None


def _writable(folder, why):
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"cannot write in {str(folder)!r} ({why}): the folder is read-only for this user")


def gradebook_path(course):
    """The SQLite file of the course's gradebook: ``COURSE/gradebook.db`` unless ``nbgrader_config.py`` sets
    another ``sqlite:///`` ``db_url``; None for a database that is not a file (checked by nbgrader)."""
    course = Path(course)
    url = _config_db_url(course)
    if url is None:
        return course / "gradebook.db"
    if url.startswith("sqlite:///"):
        return Path(url[len("sqlite:///"):])
    return None


def check_course(course, assignment, students=None):
    """Raise a ValueError (one sentence naming the file or folder) if nbgrader could not grade ``assignment``
    in ``course``; return the course folder, resolved.

    Checked, in order: the course folder exists; its ``nbgrader_config.py`` loads; ``source/<assignment>``
    exists; the gradebook (``gradebook.db``) exists, is an SQLite database with nbgrader's tables (not empty,
    not garbage, not damaged) and holds the assignment and its notebooks (``nbgrader generate_assignment``
    puts them there); the course folder, ``autograded/`` and the students' folders in it, and the gradebook
    can be written.

    Parameters
    ----------
    course : path
    assignment : str
    students : list of str, optional
        The students to grade (default: every folder ``submitted/<student>/<assignment>``).
    """
    folder_name(assignment, "assignment")
    root = Path(course).expanduser().resolve()
    if not root.is_dir():
        raise ValueError(f"course folder {str(root)!r} not found" if not root.exists()
                         else f"course {str(root)!r} is not a folder")
    db = gradebook_path(root)
    if not (root / "source" / assignment).is_dir():
        raise ValueError(f"no assignment {assignment!r} in {str(root / 'source')!r}")
    if db is not None:
        _check_gradebook(db, assignment)
    _writable(root, "the course folder: nbgrader writes autograded/ and the gradebook's journal there")
    graded = root / "autograded"
    if students is None:
        students = [p.parent.name for p in (root / "submitted").glob(f"*/{assignment}") if p.is_dir()]
    if graded.is_dir():
        _writable(graded, "nbgrader writes each student's results there")
        for student in students:
            for mine in (graded / student, graded / student / assignment):
                if mine.is_dir():
                    _writable(mine, f"{student}'s earlier results, which nbgrader replaces")
    elif graded.exists():
        raise ValueError(f"{str(graded)!r} is not a folder: nbgrader writes the students' results there")
    if db is not None:
        _writable(db.parent, "the gradebook's folder: SQLite writes its journal there")
        if not os.access(db, os.R_OK | os.W_OK):
            raise ValueError(f"cannot write the gradebook {str(db)!r}: the file is read-only for this user")
    return root


_TABLES = {"assignment", "notebook", "student", "submitted_assignment", "submitted_notebook", "grade"}


def _check_gradebook(db, assignment):
    setup = f"(nbgrader generate_assignment {assignment} writes it)"
    if not db.exists():
        raise ValueError(f"no gradebook: {str(db)!r} not found {setup}")
    if not db.is_file():
        raise ValueError(f"the gradebook {str(db)!r} is not a file")
    if db.stat().st_size == 0:
        raise ValueError(f"the gradebook {str(db)!r} is empty, not an nbgrader database {setup}")
    try:
        with sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True) as con:
            if con.execute("PRAGMA quick_check(1)").fetchone()[0] != "ok":
                raise ValueError(f"the gradebook {str(db)!r} is damaged (SQLite's quick_check failed): "
                                 "restore it from a copy")
            tables = {row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            missing = sorted(_TABLES - tables)
            if missing:
                raise ValueError(f"{str(db)!r} is not an nbgrader gradebook (no table {missing[0]!r})")
            row = con.execute("SELECT id FROM assignment WHERE name = ?", (assignment,)).fetchone()
            if row is None:
                raise ValueError(f"no assignment {assignment!r} in the gradebook {str(db)!r} {setup}")
            if not con.execute("SELECT count(*) FROM notebook WHERE assignment_id = ?", row).fetchone()[0]:
                raise ValueError(f"the gradebook {str(db)!r} has no notebooks of {assignment!r} {setup}")
    except sqlite3.Error as exc:
        raise ValueError(f"cannot read the gradebook {str(db)!r}: {exc} (not an nbgrader database?)") \
            from None


# ============================================================================
# Earlier results kept when a run fails
# ============================================================================


def _digests(folder):
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(Path(folder).rglob("*")) if p.is_file()}


def _notebooks(folder):
    return {p.name for p in Path(folder).glob("*.ipynb")}


class EarlierResults:
    """A copy of each student's ``autograded/<student>/<assignment>``, put back unless the run replaces it.

    nbgrader deletes a student's earlier result before grading again, and deletes what it wrote when the
    new run fails: an earlier grade would be lost. Within the ``with`` block the earlier results are copied
    (into a hidden folder ``COURSE/.gametrees-earlier-XXXX``, removed at the end; it stays only if the
    process is killed); :meth:`graded` names the students graded anew. At the end every other student's
    earlier result is put back if it is gone or was changed (the files as they were; nbgrader's gradebook
    keeps whatever the failed run wrote into it); if the block ends with an exception (an interrupted run,
    whose successes are not known), only a result that is gone or lacks a notebook is put back.
    :attr:`restored` lists them.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> course = pathlib.Path(tempfile.mkdtemp())
    >>> earlier = course / "autograded" / "jdoe" / "A2"
    >>> earlier.mkdir(parents=True)
    >>> _ = (earlier / "A2.ipynb").write_text("7 of 11")
    >>> with EarlierResults(course, "A2", ["jdoe"]) as kept:
    ...     shutil.rmtree(earlier)             # a failed run
    >>> (earlier / "A2.ipynb").read_text(), kept.restored
    ('7 of 11', ['jdoe'])
    """

    def __init__(self, course, assignment, students=None):
        self.course, self.assignment = Path(course), assignment
        graded = self.course / "autograded"
        if students is None:
            students = sorted(p.parent.name for p in graded.glob(f"*/{assignment}") if p.is_dir())
        self.students = [s for s in students if (graded / s / assignment).is_dir()]
        self.done, self.restored, self.copy = set(), [], None

    def _result(self, student):
        return self.course / "autograded" / student / self.assignment

    def __enter__(self):
        if self.students:
            self.copy = Path(tempfile.mkdtemp(prefix=".gametrees-earlier-", dir=self.course))
            for student in self.students:
                shutil.copytree(self._result(student), self.copy / student, symlinks=True)
        return self

    def graded(self, rows):
        """Note the students of ``rows`` (autograde's rows) graded successfully: their new results stay."""
        self.done.update(r["student"] for r in rows if r["success"])

    def __exit__(self, exc_type, exc, tb):
        if self.copy is None:
            return False
        try:
            for student in self.students:
                if student in self.done:
                    continue
                result, kept = self._result(student), self.copy / student
                if result.is_dir() and (_digests(result) == _digests(kept) if exc_type is None
                                        else _notebooks(kept) <= _notebooks(result)):
                    continue  # unchanged; or, the run stopped by an error, a whole result that may be new
                if result.exists():
                    shutil.rmtree(result)
                shutil.copytree(kept, result, symlinks=True)
                self.restored.append(student)
        finally:
            shutil.rmtree(self.copy, ignore_errors=True)
        return False


def run_autograde(load, course, assignment, *, jobs, students, call_limit, echo=print, cli=False, **options):
    """Check every argument, the course and its gradebook; then autograde, keeping the earlier results.

    Parameters
    ----------
    load : callable
        Returns the autograde function (:func:`gametrees.classroom.autograding.autograde`, which needs
        nbgrader): called only when every check has passed.
    course, assignment, jobs, students, call_limit, echo
        As for that function.
    cli : bool
        Name the arguments as the command line does (``--jobs``, ``--student``, ``--call-limit``).
    **options
        Passed on to autograde (``question_limit``, ``submission_limit``, ``isolation_kind``).

    Returns
    -------
    rows : list of dict
        Autograde's rows, one per submission.
    restored : list of str
        The students whose earlier result was put back (see :class:`EarlierResults`).
    """
    jobs, students, call_limit = autograde_arguments(course, assignment, jobs=jobs, students=students,
                                                     call_limit=call_limit, cli=cli)
    folder = check_course(course, assignment, students)
    autograde = load()
    with EarlierResults(folder, assignment, students) as kept:
        rows = autograde(folder, assignment, jobs=jobs, students=students, call_limit=call_limit, echo=echo,
                         **options)
        kept.graded(rows)
    return rows, kept.restored
