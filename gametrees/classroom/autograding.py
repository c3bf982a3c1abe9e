"""nbgrader's autograde with every grade decided outside the student's kernel: :class:`CleanGrades`,
:func:`autograde`.

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
:mod:`gametrees.classroom.course`, :mod:`gametrees.classroom.isolation`, :mod:`gametrees.classroom.execution`,
:mod:`gametrees.search` and the public names of :mod:`gametrees.exercises` (to warm the workers up),
:mod:`gametrees.classroom.questions`; nbgrader, nbformat and traitlets.
"""

from __future__ import annotations

import html
import json
import multiprocessing
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.preprocessors import NbGraderPreprocessor, SaveAutoGrades
from traitlets import Float

from . import isolation
from .execution import SUBMISSION_LIMIT, SandboxedExecute
from .limits import DEFER_VAR as CLEAN_ENV
from .verdicts import CALL_LIMIT, QUESTION_LIMIT, decide, finish, inputs, kernel_counts, prepare


def preprocessors():
    """nbgrader's autograde preprocessors with :class:`CleanGrades` after ``SaveAutoGrades`` (and
    :class:`StartVerdicts` first, so that the verdicts are worked out while the kernel runs)."""
    from nbgrader.converters import Autograde
    from nbgrader.preprocessors import Execute

    steps = list(Autograde.class_traits()["autograde_preprocessors"].default())
    steps = [SandboxedExecute if s is Execute else s for s in steps]
    at = next(i for i, s in enumerate(steps)
              if s is SaveAutoGrades or getattr(s, "__name__", "") == "SaveAutoGrades")
    steps.insert(at + 1, CleanGrades)
    return [StartVerdicts] + steps


# Verdicts being prepared while nbgrader's kernel runs the same notebook: key -> (thread, outcome list).
_PENDING = {}
_PENDING_LOCK = threading.Lock()


def _key(resources):
    info = resources.get("nbgrader", {})
    return (str(info.get("db_url")), str(info.get("student")), str(info.get("assignment")),
            str(info.get("notebook")))


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
        limits = _limits(self.config)
        deadline = time.monotonic() + limits["submission_limit"]
        resources.setdefault("gametrees", {})["deadline"] = deadline

        def work():
            try:
                outcome.append(("ok", prepare(copy, student, call_limit=limits["call_limit"],
                                              question_limit=limits["question_limit"], deadline=deadline)))
            except BaseException as exc:  # noqa: BLE001 -- CleanGrades decides again
                outcome.append(("error", exc))

        thread = threading.Thread(target=work, name=f"gametrees-verdicts-{student}", daemon=True)
        with _PENDING_LOCK:
            _PENDING[_key(resources)] = (thread, outcome)
        thread.start()
        return nb, resources


def _limits(config):
    """CleanGrades' limits as configured (``c.CleanGrades.call_limit``, ``question_limit``,
    ``submission_limit``)."""
    out = {"call_limit": CALL_LIMIT, "question_limit": QUESTION_LIMIT, "submission_limit": SUBMISSION_LIMIT}
    section = config.get("CleanGrades", {})
    for key in out:
        try:
            out[key] = float(section.get(key, out[key]))
        except (TypeError, ValueError):
            pass
    return out


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
    """The grade id of the solution cell that answers grade cell ``grade_id`` (the last solution cell above
    it)."""
    last = None
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("solution") and meta.get("grade_id"):
            last = meta["grade_id"]
        if meta.get("grade_id") == grade_id:
            return last
    return None


#: What every verdict and the class report say when grading ran without walls.
UNSAFE = ("graded WITHOUT isolation (--unsafe-no-isolation): the student's code ran with the grading user's "
          "rights, so these points are not protected")


class CleanGrades(NbGraderPreprocessor):
    """Decide the grade cells' points outside the kernel and write them into the gradebook."""

    call_limit = Float(CALL_LIMIT, help="Seconds one call of a student's function may take.").tag(config=True)
    question_limit = Float(QUESTION_LIMIT, help="Seconds one question's check may take in all (a "
                                                "tournament's games included).").tag(config=True)
    submission_limit = Float(SUBMISSION_LIMIT, help="Seconds the grading of one submission may take, its "
                                                    "questions together.").tag(config=True)

    def preprocess(self, nb, resources):
        info = resources["nbgrader"]
        student, assignment, notebook = info["student"], info["assignment"], info["notebook"]
        verdict = self._verdict(nb, resources, student)
        walls = isolation.current()
        if walls.unsafe:
            verdict.flags.insert(0, UNSAFE)
        execution = resources.get("gametrees", {}).get("execution") or {}
        if execution.get("stopped"):
            verdict.flags.append(f"nbgrader's run of the notebook: {execution['stopped']}")
        record = verdict.record()
        record["isolation"] = walls.kind
        folder = self.config.get("CourseDirectory", {}).get("submitted_directory", "submitted")
        submitted = self._submitted(resources, student, assignment, notebook, folder)
        record["counts_submitted"] = kernel_counts(submitted) if submitted is not None else {}
        with Gradebook(info["db_url"]) as gb:
            _write_gradebook(gb, nb, verdict, notebook, assignment, student)
            gb.db.commit()
        _write_outputs(nb, verdict)
        nb.metadata["gametrees"] = record
        return nb, resources

    def _verdict(self, nb, resources, student):
        """The verdict on the notebook: finished from the run prepared alongside nbgrader's execution, or
        decided now (within the submission's deadline)."""
        prepared = _prepared(resources, nb, self.call_limit)
        if prepared is not None:
            return finish(prepared, nb)
        deadline = (resources.get("gametrees", {}).get("deadline")
                    or time.monotonic() + self.submission_limit)
        return decide(nb, student, call_limit=self.call_limit, question_limit=self.question_limit,
                      deadline=deadline)

    @staticmethod
    def _submitted(resources, student, assignment, notebook, folder="submitted"):
        """The submitted notebook (as the student's kernel last saved it; from the grading's copy), or
        None."""
        import nbformat

        path = Path(resources.get("metadata", {}).get("path", ""))
        try:
            root = path.resolve().parents[2]
        except IndexError:
            return None
        sub = root / str(folder) / student / assignment / f"{notebook}.ipynb"
        try:
            return nbformat.read(sub, as_version=4)
        except (OSError, ValueError):
            return None


def _write_gradebook(gb, nb, verdict, notebook, assignment, student):
    """The verdict into nbgrader's gradebook: each decided grade cell's points, the comments on the answer
    cells (a question's flags and errors, the notebook's flags on the first), the submission flagged."""
    comments = {}
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


def _write_outputs(nb, verdict):
    """The verdict into the graded notebook: each grade cell's output, the flags above the first."""
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


def _node(output):
    import nbformat

    return nbformat.from_dict(output)


# ============================================================================
# The command: every submission of an assignment, N at a time
# ============================================================================


def _config(course, limits, snapshot):
    from traitlets.config import Config
    from traitlets.config.loader import PyFileConfigLoader

    config = Config()
    cfg = Path(course) / "nbgrader_config.py"
    if cfg.is_file():
        config.merge(PyFileConfigLoader(cfg.name, path=str(cfg.parent)).load_config())
    config.CourseDirectory.root = str(course)
    config.CourseDirectory.submitted_directory = str(snapshot)
    config.Autograde.autograde_preprocessors = preprocessors()
    for key, value in limits.items():
        setattr(config.CleanGrades, key, float(value))
    config.SandboxedExecute.submission_limit = float(limits["submission_limit"])
    return config


#: A passing clash between two workers, tried again: the gradebook is one SQLite file, and a write may meet
#: another worker's lock. (Kernels no longer clash on ports: each runs on its own sandbox's network.)
_CLASHES = ("database is locked",)


def _grade_one(api, course, assignment, student):
    """nbgrader's autograde of one submission (in a worker process); the verdicts it left, as a dict."""
    t0 = time.perf_counter()
    result = {}
    for attempt in range(3):
        result = api.autograde(assignment, student)
        said = (result.get("error") or "") + (result.get("log") or "")
        if result["success"] or not any(clash in said for clash in _CLASHES):
            break
        time.sleep(0.5 + attempt)
    summary = None
    if result["success"]:
        summary = []
        for nb_path in sorted((Path(course) / "autograded" / student / assignment).glob("*.ipynb")):
            meta = json.loads(nb_path.read_text(encoding="utf-8")).get("metadata", {}).get("gametrees")
            if meta:
                summary.append(meta)
    return {"student": student, "success": bool(result["success"]), "seconds": time.perf_counter() - t0,
            "summary": summary, "error": (result.get("error") or "")[-2000:]}


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


def _snapshot(course, assignment, students):
    """A private copy of each submission, taken before any student code runs: what grading reads.

    Symbolic links in a submission are left out (they could point at another student's files).
    """
    folder = Path(tempfile.mkdtemp(prefix="gametrees-submitted-"))
    for student in students:
        source = Path(course) / "submitted" / student / assignment
        shutil.copytree(source, folder / student / assignment, symlinks=True,
                        ignore=lambda d, names: [n for n in names if (Path(d) / n).is_symlink()])
    return folder


def _worker(conn, api, course, assignment, student):  # pragma: no cover -- runs in a forked worker
    try:
        conn.send(_grade_one(api, course, assignment, student))
    except BaseException as exc:  # noqa: BLE001 -- reported by the parent as this submission's failure
        try:
            conn.send({"student": student, "success": False, "seconds": 0.0, "summary": None,
                       "error": f"{type(exc).__name__}: {exc}"})
        except Exception:  # noqa: BLE001
            pass
    finally:
        conn.close()
        os._exit(0)


def _schedule(api, course, assignment, students, jobs, hard_limit):
    """Grade ``students``, ``jobs`` at a time, each in a worker process of its own; yield each result dict.

    A worker that dies without a result is started once more for its submission, then reported; one
    that runs past ``hard_limit`` seconds is stopped and reported. This always ends.
    """
    from multiprocessing.connection import wait

    context = multiprocessing.get_context("fork")
    queue = [(s, 1) for s in students]
    running = {}  # connection -> (process, student, started, attempt)
    try:
        while queue or running:
            while queue and len(running) < jobs:
                student, attempt = queue.pop(0)
                receive, send = context.Pipe(duplex=False)
                proc = context.Process(target=_worker, args=(send, api, course, assignment, student),
                                       daemon=True)
                proc.start()
                send.close()
                running[receive] = (proc, student, time.monotonic(), attempt)
            ready = wait(list(running), timeout=0.5)
            for conn in list(running):
                proc, student, started, attempt = running[conn]
                result = None
                if conn in ready:
                    try:
                        result = conn.recv()
                    except (EOFError, OSError):
                        result = None
                elif proc.is_alive() and time.monotonic() - started <= hard_limit:
                    continue
                elif proc.is_alive():
                    proc.kill()
                    result = {"student": student, "success": False, "seconds": time.monotonic() - started,
                              "summary": None, "error": f"grading took more than {hard_limit:g} s: stopped"}
                del running[conn]
                conn.close()
                proc.join(10)
                if result is None:
                    if attempt < 2:
                        queue.insert(0, (student, attempt + 1))
                        continue
                    code = proc.exitcode
                    result = {"student": student, "success": False, "seconds": time.monotonic() - started,
                              "summary": None, "error": f"the grading worker died twice (exit status {code})"}
                yield result
    finally:
        for proc, *_ in running.values():
            if proc.is_alive():
                proc.kill()
            proc.join(10)


def autograde(course, assignment, *, jobs=1, students=None, call_limit=CALL_LIMIT,
              question_limit=QUESTION_LIMIT, submission_limit=SUBMISSION_LIMIT, isolation_kind="bwrap",
              echo=print):
    """Autograde every submission of ``assignment`` with nbgrader, the grades decided outside the kernel.

    Every execution of student code, nbgrader's kernel and the child that runs the graded functions,
    runs in a sandbox (:mod:`gametrees.classroom.isolation`); each submission is graded from a private
    copy taken before any student code runs, in a worker process of its own.

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
    question_limit : float
        Seconds one question's check may take in all (a tournament's games included).
    submission_limit : float
        Seconds the notebook's run may take, and the questions of one submission together.
    isolation_kind : {"bwrap", "docker", "none"}
        The walls ("none" is ``--unsafe-no-isolation``: every verdict says so).
    echo : callable
        Called with one line per submission.

    Returns
    -------
    list of dict
        Per submission: ``student``, ``success``, ``seconds``, ``earned``, ``points``, ``flags``, ``error``.

    Raises
    ------
    gametrees.classroom.isolation.IsolationUnavailable
        Before anything is graded, when the sandbox cannot be made here.
    """
    # every argument, the folder, the gradebook: first
    course, jobs, todo, limits = _checked(course, assignment, jobs, students, call_limit, question_limit,
                                          submission_limit)
    walls = isolation.Isolation(isolation_kind)
    walls.check()
    isolation.use(walls)
    if walls.unsafe:
        echo("WARNING: " + UNSAFE)
    os.environ[CLEAN_ENV] = "1"
    _warm()
    snapshot = _snapshot(course, assignment, todo)
    rows = []
    try:
        from nbgrader.apps import NbGraderAPI

        api = NbGraderAPI(config=_config(course, limits, snapshot))
        hard_limit = 2 * submission_limit + 120
        for result in _schedule(api, str(course), assignment, todo, jobs, hard_limit):
            row = _row(result)
            rows.append(row)
            _echo_row(echo, row)
    finally:
        shutil.rmtree(snapshot, ignore_errors=True)
    order = {s: i for i, s in enumerate(todo)}
    return sorted(rows, key=lambda r: order[r["student"]])


def _checked(course, assignment, jobs, students, call_limit, question_limit, submission_limit):
    """The course folder (resolved), the jobs, the students to grade and the limits, every one checked."""
    from .course import (
        QUESTION_LIMITS,
        SUBMISSION_LIMITS,
        autograde_arguments,
        check_course,
        seconds_in_range,
    )

    jobs, students, call_limit = autograde_arguments(course, assignment, jobs=jobs, students=students,
                                                     call_limit=call_limit)
    limits = {"call_limit": call_limit,
              "question_limit": seconds_in_range(question_limit, QUESTION_LIMITS, "question_limit"),
              "submission_limit": seconds_in_range(submission_limit, SUBMISSION_LIMITS, "submission_limit")}
    check_course(course, assignment, students)
    course = Path(course).resolve()
    if not (course / "source" / assignment).is_dir():
        raise ValueError(f"no assignment {assignment!r} in {str(course / 'source')!r}")
    found = submissions(course, assignment)
    todo = found if students is None else [s for s in students if s in found]
    if students is not None and len(todo) != len(students):
        missing = sorted(set(students) - set(found))
        raise ValueError(f"no submission of {assignment!r} from {', '.join(missing)}")
    if not todo:
        raise ValueError(f"no submissions of {assignment!r} in {str(course / 'submitted')!r}")
    return course, jobs, todo, limits


def _row(result):
    """A worker's result as a row: points earned of points, the flags (the verdicts' and the notebook's)."""
    row = {"student": result["student"], "success": result["success"], "seconds": result["seconds"],
           "earned": 0.0, "points": 0.0, "flags": [], "error": result["error"]}
    for meta in result["summary"] or []:
        for v in meta.get("verdicts", []):
            row["earned"] += v["earned"]
            row["points"] += v["points"]
            row["flags"] += [f"{v['grade_id']}: {f}" for f in v["flags"]]
        row["flags"] += meta.get("flags", [])
    return row


def _echo_row(echo, row):
    """One line for a submission: its points, flags and time, or why it was not graded."""
    student, seconds, error = row["student"], row["seconds"], row["error"]
    if row["success"]:
        echo(f"{student}: {row['earned']:g} of {row['points']:g} points"
             + (f", {len(row['flags'])} flag{'s' if len(row['flags']) != 1 else ''}"
                if row["flags"] else "")
             + f" ({seconds:.1f} s)")
    else:
        echo(f"{student}: not graded: {error.strip().splitlines()[-1] if error.strip() else '?'}")
