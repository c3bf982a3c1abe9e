"""nbgrader's autograde with every grade decided outside the student's kernel: :class:`CleanGrades`, :func:`autograde`.

:class:`CleanGrades` is an nbgrader preprocessor. Placed after nbgrader's
``SaveAutoGrades`` (see :func:`preprocessors`), it reads the executed
notebook as data, decides each known grade cell's points with
:func:`gametrees.classroom.verdicts.decide` for the student nbgrader files the
submission under, and writes them into nbgrader's gradebook as the cell's
``auto_score``, so ``nbgrader export``, the Formgrader and ``generate_feedback``
show them. Under each grade cell it adds the verdict (the points, the feedback
when the notebook's own check said otherwise, the flags); the answer cell's
gradebook comment carries the flags, and the notebook is flagged in the
Formgrader when there are any. The whole verdict is kept in the notebook's
metadata (``metadata.gametrees``) for the class report.

:class:`StartVerdicts`, first among the preprocessors, starts the verdicts'
work (:func:`~gametrees.classroom.verdicts.prepare`: the student's code run and
checked in child interpreters) in a thread while nbgrader's kernel executes the
notebook, so the two overlap; :class:`CleanGrades` then waits for it and
compares it with the kernel's records
(:func:`~gametrees.classroom.verdicts.finish`), or decides again when the
executed notebook's sources or nbgrader metadata are not the ones prepared.

:func:`autograde` runs nbgrader's autograde with it for every submission of
an assignment, ``jobs`` submissions at a time; it is
``python -m gametrees.assignments autograde COURSE_DIR ASSIGNMENT [--jobs N]``.
The same through plain ``nbgrader autograde``: ``nbgrader_config.py`` gets::

    from gametrees.classroom.autograding import preprocessors
    c.Autograde.autograde_preprocessors = preprocessors()

May import: the standard library, :mod:`gametrees.classroom.verdicts`, :mod:`gametrees.classroom.limits`,
:mod:`gametrees.search` and the public names of :mod:`gametrees.exercises` (to warm the workers up),
:mod:`gametrees.classroom.questions`; nbgrader, nbformat and traitlets.
"""

from __future__ import annotations

import html
import json
import multiprocessing
import os
import threading
import time
from pathlib import Path

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.preprocessors import NbGraderPreprocessor, SaveAutoGrades
from traitlets import Float

from .limits import DEFER_VAR as CLEAN_ENV
from .verdicts import CALL_LIMIT, decide, finish, inputs, kernel_counts, prepare


def preprocessors():
    """nbgrader's autograde preprocessors with :class:`CleanGrades` after ``SaveAutoGrades`` (and
    :class:`StartVerdicts` first, so that the verdicts are worked out while the kernel runs)."""
    from nbgrader.converters import Autograde

    steps = list(Autograde.class_traits()["autograde_preprocessors"].default())
    at = next(i for i, s in enumerate(steps) if s is SaveAutoGrades or getattr(s, "__name__", "") == "SaveAutoGrades")
    steps.insert(at + 1, CleanGrades)
    return [StartVerdicts] + steps


# Verdicts being prepared while nbgrader's kernel runs the same notebook: key -> (thread, outcome list).
_PENDING = {}
_PENDING_LOCK = threading.Lock()


def _key(resources):
    info = resources.get("nbgrader", {})
    return (str(info.get("db_url")), str(info.get("student")), str(info.get("assignment")), str(info.get("notebook")))


class StartVerdicts(NbGraderPreprocessor):
    """Start working out the verdicts (:func:`~gametrees.classroom.verdicts.prepare`) in a thread, before
    nbgrader's kernel executes the notebook: the two overlap, and :class:`CleanGrades` picks the result up.

    What is prepared is the notebook as nbgrader is about to execute it (its locked and grade cells already
    put back from the source version); it reads no output. :class:`CleanGrades` uses it only if the executed
    notebook's sources and nbgrader metadata are still exactly those (else it decides again), and compares
    it with the kernel's records there, as :func:`~gametrees.classroom.verdicts.decide` does. The thread runs
    no student code: that runs in the child interpreters, as always; the thread's checks never defer
    (:func:`gametrees.classroom.limits.outside_kernel`).
    """

    def preprocess(self, nb, resources):
        info = resources.get("nbgrader", {})
        student = info.get("student")
        if not student:
            return nb, resources
        copy = json.loads(json.dumps(nb))
        outcome = []
        try:  # CleanGrades' limit (c.CleanGrades.call_limit); CleanGrades decides again if it differs
            call_limit = float(self.config.get("CleanGrades", {}).get("call_limit", CALL_LIMIT))
        except (TypeError, ValueError):
            call_limit = CALL_LIMIT

        def work():
            try:
                outcome.append(("ok", prepare(copy, student, call_limit=call_limit)))
            except BaseException as exc:  # noqa: BLE001 -- CleanGrades decides again
                outcome.append(("error", exc))

        thread = threading.Thread(target=work, name=f"gametrees-verdicts-{student}", daemon=True)
        with _PENDING_LOCK:
            _PENDING[_key(resources)] = (thread, outcome)
        thread.start()
        return nb, resources


def _prepared(resources, nb, call_limit):
    """The verdicts :class:`StartVerdicts` prepared for this notebook (waiting for them), or None."""
    with _PENDING_LOCK:
        pending = _PENDING.pop(_key(resources), None)
    if pending is None:
        return None
    thread, outcome = pending
    thread.join()
    if not outcome or outcome[0][0] != "ok":
        return None
    prepared = outcome[0][1]
    if prepared.call_limit != call_limit or prepared.inputs != inputs(nb):
        return None
    return prepared


def _answer_cell(nb, grade_id):
    """The grade id of the solution cell that answers grade cell ``grade_id`` (the last solution cell above it)."""
    last = None
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("solution") and meta.get("grade_id"):
            last = meta["grade_id"]
        if meta.get("grade_id") == grade_id:
            return last
    return None


class CleanGrades(NbGraderPreprocessor):
    """Decide the grade cells' points outside the kernel and write them into the gradebook."""

    call_limit = Float(CALL_LIMIT, help="Seconds one call of a student's function may take.").tag(config=True)

    def preprocess(self, nb, resources):
        info = resources["nbgrader"]
        student, assignment, notebook = info["student"], info["assignment"], info["notebook"]
        prepared = _prepared(resources, nb, self.call_limit)
        verdict = decide(nb, student, call_limit=self.call_limit) if prepared is None else finish(prepared, nb)
        record = verdict.record()
        submitted = self._submitted(resources, student, assignment, notebook)
        record["counts_submitted"] = kernel_counts(submitted) if submitted is not None else {}
        comments = {}
        with Gradebook(info["db_url"]) as gb:
            for v in verdict.verdicts:
                if not v.decided:
                    continue
                try:
                    grade = gb.find_grade(v.grade_id, notebook, assignment, student)
                except MissingEntry:
                    v.flags.append("this grade cell is not in nbgrader's gradebook")
                    continue
                grade.auto_score = v.earned
                grade.needs_manual_grade = grade.manual_score is not None
                answer = _answer_cell(nb, v.grade_id)
                if answer and (v.flags or v.errors):
                    comments.setdefault(answer, []).append(f"{v.grade_id}: " + v.text())
            for answer, texts in comments.items():
                try:
                    comment = gb.find_comment(answer, notebook, assignment, student)
                except MissingEntry:
                    continue
                comment.auto_comment = "\n\n".join(texts)
            if verdict.flags:
                text = "\n".join(f"⚑ {f}" for f in verdict.flags)
                first = next((_answer_cell(nb, v.grade_id) for v in verdict.verdicts), None)
                if first:
                    try:
                        comment = gb.find_comment(first, notebook, assignment, student)
                        comment.auto_comment = "\n\n".join(filter(None, [text, comment.auto_comment]))
                    except MissingEntry:
                        pass
            try:
                sub = gb.find_submission_notebook(notebook, assignment, student)
                sub.flagged = bool(verdict.flags or any(v.flags for v in verdict.verdicts))
            except MissingEntry:
                pass
            gb.db.commit()
        by_id = {v.grade_id: v for v in verdict.verdicts}
        for cell in nb.cells:
            gid = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
            if gid in by_id:
                cell.outputs.append(_node(by_id[gid].output()))
        if verdict.flags and nb.cells:
            first = next((c for c in nb.cells if c.cell_type == "code"
                          and c.get("metadata", {}).get("nbgrader", {}).get("grade")), None)
            if first is not None:
                lines = [f"⚑ Flagged for your instructor: {f}" for f in verdict.flags]
                body = "".join(f"<div>{html.escape(line)}</div>" for line in lines)
                first.outputs.append(_node({"output_type": "display_data", "metadata": {}, "data": {
                    "text/plain": "\n".join(lines),
                    "text/html": f'<div class="gametrees-verdict-notebook" style="color: #D55E00; '
                                 f'white-space: normal; overflow-wrap: anywhere">{body}</div>'}}))
        nb.metadata["gametrees"] = record
        return nb, resources

    @staticmethod
    def _submitted(resources, student, assignment, notebook):
        """The submitted notebook (as the student's kernel last saved it), or None."""
        import nbformat

        path = Path(resources.get("metadata", {}).get("path", ""))
        try:
            root = path.resolve().parents[2]
        except IndexError:
            return None
        sub = root / "submitted" / student / assignment / f"{notebook}.ipynb"
        try:
            return nbformat.read(sub, as_version=4)
        except (OSError, ValueError):
            return None


def _node(output):
    import nbformat

    return nbformat.from_dict(output)


# ============================================================================
# The command: every submission of an assignment, N at a time
# ============================================================================


def _config(course, call_limit):
    from traitlets.config import Config
    from traitlets.config.loader import PyFileConfigLoader

    config = Config()
    cfg = Path(course) / "nbgrader_config.py"
    if cfg.is_file():
        config.merge(PyFileConfigLoader(cfg.name, path=str(cfg.parent)).load_config())
    config.CourseDirectory.root = str(course)
    config.Autograde.autograde_preprocessors = preprocessors()
    config.CleanGrades.call_limit = float(call_limit)
    return config


_API = {}
_CLASHES = ("database is locked", "Address already in use")


def _grade_one(args):
    course, assignment, student, call_limit = args
    from nbgrader.apps import NbGraderAPI

    if "api" not in _API:
        os.environ[CLEAN_ENV] = "1"
        _API["api"] = NbGraderAPI(config=_config(course, call_limit))
    t0 = time.perf_counter()
    result = {}
    for attempt in range(3):
        result = _API["api"].autograde(assignment, student)
        said = (result.get("error") or "") + (result.get("log") or "")
        # Two passing clashes between workers, tried again: the gradebook is one SQLite file (a write may
        # meet another worker's lock), and two kernels starting at once may pick the same free TCP port
        # (jupyter_client's "ZMQError: Address already in use"), which ends that kernel at start-up.
        if result["success"] or not any(clash in said for clash in _CLASHES):
            break
        time.sleep(0.5 + attempt)
    seconds = time.perf_counter() - t0
    summary = None
    if result["success"]:
        summary = []
        for nb_path in sorted((Path(course) / "autograded" / student / assignment).glob("*.ipynb")):
            meta = json.loads(nb_path.read_text(encoding="utf-8")).get("metadata", {}).get("gametrees")
            if meta:
                summary.append(meta)
    return student, bool(result["success"]), seconds, summary, (result.get("error") or "")[-2000:]


def _warm():
    """Load once, before the workers fork, what every worker needs (nbgrader's apps, nbformat's schemas, the
    checks' test trees): a few seconds each worker would otherwise spend on its own."""
    import nbformat
    import nbgrader.apps  # noqa: F401

    from .. import exercises
    from ..search import minimax

    nbformat.validator.get_validator(version=4, version_minor=5)
    for check in (exercises.check_minimax, exercises.check_alphabeta):
        check(lambda game, state, *window: minimax(game, state).value)


def submissions(course, assignment):
    """The students who handed in ``assignment`` (folders ``COURSE/submitted/<student>/<assignment>``)."""
    root = Path(course) / "submitted"
    return sorted(p.parent.name for p in root.glob(f"*/{assignment}") if p.is_dir())


def autograde(course, assignment, *, jobs=1, students=None, call_limit=CALL_LIMIT, echo=print):
    """Autograde every submission of ``assignment`` with nbgrader, the grades decided outside the kernel.

    Parameters
    ----------
    course : path
        The nbgrader course folder (``source/``, ``submitted/``, ``gradebook.db``; its
        ``nbgrader_config.py`` is read).
    assignment : str
    jobs : int
        Submissions graded at the same time (processes).
    students : list of str, optional
        Only these (default: every folder in ``submitted/`` with the assignment).
    call_limit : float
        Seconds one call of a student's function may take.
    echo : callable
        Called with one line per submission.

    Returns
    -------
    list of dict
        Per submission: ``student``, ``success``, ``seconds``, ``earned``, ``points``, ``flags``.
    """
    from .course import autograde_arguments, check_course  # every argument, the folder, the gradebook: first

    jobs, students, call_limit = autograde_arguments(course, assignment, jobs=jobs, students=students,
                                                     call_limit=call_limit)
    check_course(course, assignment, students)
    course = Path(course).resolve()
    if not course.is_dir():
        raise ValueError(f"course folder {str(course)!r} not found")
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise ValueError(f"jobs must be a whole number >= 1, got {jobs!r}")
    if not (course / "source" / assignment).is_dir():
        raise ValueError(f"no assignment {assignment!r} in {str(course / 'source')!r}")
    found = submissions(course, assignment)
    todo = found if students is None else [s for s in students if s in found]
    if students is not None and len(todo) != len(students):
        missing = sorted(set(students) - set(found))
        raise ValueError(f"no submission of {assignment!r} from {', '.join(missing)}")
    if not todo:
        raise ValueError(f"no submissions of {assignment!r} in {str(course / 'submitted')!r}")
    work = [(str(course), assignment, s, call_limit) for s in todo]
    _warm()
    rows = []
    if jobs == 1:
        results = map(_grade_one, work)
        pool = None
    else:
        pool = multiprocessing.get_context("fork").Pool(min(jobs, len(work)))
        results = pool.imap(_grade_one, work)
    try:
        for student, ok, seconds, summary, error in results:
            row = {"student": student, "success": ok, "seconds": seconds, "earned": 0.0, "points": 0.0, "flags": []}
            for meta in summary or []:
                for v in meta.get("verdicts", []):
                    row["earned"] += v["earned"]
                    row["points"] += v["points"]
                    row["flags"] += [f"{v['grade_id']}: {f}" for f in v["flags"]]
                row["flags"] += meta.get("flags", [])
            rows.append(row)
            if ok:
                echo(f"{student}: {row['earned']:g} of {row['points']:g} points"
                     + (f", {len(row['flags'])} flag{'s' if len(row['flags']) != 1 else ''}" if row["flags"] else "")
                     + f" ({seconds:.1f} s)")
            else:
                echo(f"{student}: nbgrader autograde failed: {error.strip().splitlines()[-1] if error else '?'}")
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return rows
