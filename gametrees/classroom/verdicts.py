"""Each graded question's points, decided outside the student's kernel: :func:`decide`, :class:`Verdict`.

:func:`decide` reads a submitted notebook as data and never runs its code in
this process:

* the student's id is the one it is given (nbgrader's submission folder),
  never one computed in the notebook; the trees are built from it here;
* an answer by hand written as a literal (``return {"A": 3, ...}``,
  ``math.inf`` allowed) is read with :mod:`ast` and checked here;
* every other answer, and every code question, runs in a child interpreter
  (:class:`~gametrees.classroom.sandbox.Sandbox`) that cannot reach gametrees,
  the course's files, subprocesses, ctypes, threads or tracing; the checks run
  here, on what the learner's functions return and on the game calls they make;
* what the notebook's own check cell printed (its record) is compared with the
  verdict: a missing record, a disagreement, a typed id or a kernel id that is
  not the submission's are flagged, and so are calls in the student's cells to a
  graded exercise's own check or answer, tracing, threads, subprocesses,
  ``os.environ``, ``os.chdir`` and the classroom's helpers.

May import: the standard library, :mod:`gametrees.classroom.questions`,
:mod:`gametrees.classroom.sandbox`, :mod:`gametrees.classroom.checks`,
:mod:`gametrees.classroom.connect_four`, :mod:`gametrees.classroom.ids`,
:mod:`gametrees.classroom.declarations` (its :func:`dotted`), :mod:`gametrees.classroom.hidden`,
:mod:`gametrees.classroom.scoring` (its MIME type) and the public names of
:mod:`gametrees.exercises` and its modules; :mod:`gametrees.games`.
"""

from __future__ import annotations

import ast
import html
import json
import math
import re
import time

from ..exercises import attempts as _attempts
from ..exercises.feedback import Feedback, fmt
from ..games import ConnectFour
from .checks import check_answer, check_best_move, check_code, engine_alphabeta_value, engine_value, swapped
from .connect_four import check_connect4_evaluation, check_tournament
from .declarations import checker as check_function
from .declarations import dotted
from .hidden import run_hidden, with_hidden
from .ids import normal
from .limits import outside_kernel
from .questions import assignment_in
from .sandbox import CallTimedOut, ChannelForged, ChildBroken, QuestionTimedOut, Sandbox
from .scoring import MIME

#: The MIME type of the grader's verdict in an autograded notebook's grade cell.
VERDICT_MIME = "application/vnd.gametrees.verdict+json"
#: Seconds a call of a learner's function may take, and a question's code in all.
CALL_LIMIT = 5.0
QUESTION_LIMIT = 60.0

# Refused events that are an attempt on the grading itself (0 points and a flag), by what they do.
_INTEGRITY = (
    ("import", r"gametrees|nbgrader|_?ctypes|subprocess|_posixsubprocess|threading|_thread|\bgc\b|importlib|"
               r"inspect|shutil|tempfile|multiprocessing|concurrent|socket|pathlib|glob|io\b",
     "imported {detail}"),
    ("open", "", "opened a file ({detail})"),
    ("os.", "", "called {event} ({detail})"),
    ("subprocess.", "", "started a process"),
    ("sys.settrace", "", "changed tracing (sys.settrace)"),
    ("sys.setprofile", "", "changed profiling (sys.setprofile)"),
    ("sys.addaudithook", "", "added an audit hook"),
    ("_thread.start_new_thread", "", "started a thread"),
)

# Calls in the student's own cells worth showing the instructor: (pattern on the call's dotted name,
# sentence).
_SUSPICIOUS = (
    (r"(^|\.)sys\.settrace$|(^|\.)settrace$|(^|\.)setprofile$", "changes tracing (sys.settrace / "
                                                                "setprofile)"),
    (r"(^|\.)Thread$|start_new_thread$|(^|\.)ThreadPoolExecutor$", "starts a thread"),
    (r"(^|\.)(subprocess\.\w+|system|popen|Popen|run|spawn\w*|fork|exec\w+)$", "starts a process"),
    (r"(^|\.)chdir$", "changes the working folder (os.chdir)"),
    (r"(^|\.)(putenv|unsetenv)$|environ\.(pop|update|setdefault|clear|__setitem__|__delitem__)$|^os\.environ",
     "changes the environment (os.environ)"),
    (r"(^|\.)paused$|LibraryGuard|engine_(alphabeta_)?value|(^|\.)swapped$",
     "uses the grading machinery (the library guard or the graders' stand-ins)"),
    ((r"(^|\.)(check_answer|check_code|check_best_move|check_leaf_count|check_connect4_evaluation|"
      r"check_tournament|score|protect)$"),
     "calls the assignment's grading functions itself"),
    (r"(^|\.)(CDLL|cdll|PyDLL|pythonapi|dlopen)$", "loads native code (ctypes)"),
    (r"(^|\.)(import_module|__import__|reload|spec_from_file_location|exec_module)$",
     "imports modules by name (importlib)"),
    (r"(^|\.)(copytree|copyfile|copy2|symlink|link)$", "copies or links files (shutil / os)"),
    (r"(^|\.)path\.(insert|append|extend)$", "changes the module search path (sys.path)"),
)
_EXERCISE_CALLS = {"check": "calls {name}.check(...) (the graded exercise's own check)",
                   "solution": "asks {name}.solution()", "explain": "asks {name}.explain()",
                   "show_solution": "asks {name}.show_solution()", "result": "reads {name}.result"}


class Verdict:
    """One grade cell's verdict.

    Attributes
    ----------
    grade_id : str
    points, earned : float
    decided : bool
        False when the grader does not know the question (nbgrader's own score stands).
    feedback : Feedback or None
    flags : list of str
        For the instructor: integrity (refused, flagged calls), disagreements, missing records, ids.
    errors : list of str
        Timeouts, a child that ended, cells that did not load.
    kernel : dict or None
        The record the notebook's own check cell left (None when it left none).
    """

    def __init__(self, grade_id, points, *, decided=True, feedback=None, flags=(), errors=(), kernel=None,
                 question=None):
        self.grade_id, self.points, self.decided = grade_id, float(points), decided
        self.feedback, self.flags, self.errors, self.kernel = feedback, list(flags), list(errors), kernel
        self.question = question
        self.counted = None  # what the kernel's counts name the question by (its exercise's key or check)
        self.earned = self.points if (feedback is not None and feedback.ok and decided) else 0.0
        self.integrity = False

    @property
    def status(self):
        if not self.decided or self.feedback is None:
            return "undecided"
        if self.errors and not self.feedback.ok:
            return "error"
        return getattr(self.feedback, "status", "right" if self.feedback.ok else "wrong")

    @property
    def tags(self):
        """Misconception tags named by the verdict (none when the answer was refused, timed out or
        unreadable)."""
        if self.feedback is None or self.integrity or self.status in ("error", "unreadable", "unanswered"):
            return ()
        return tuple(getattr(self.feedback, "tags", ()))

    def record(self):
        """Plain JSON-able dict (what the gradebook comment, the notebook and the class report carry)."""
        return {"grade_id": self.grade_id, "points": self.points, "earned": self.earned,
                "decided": self.decided, "status": self.status,
                "ok": bool(self.feedback and self.feedback.ok), "tags": list(self.tags),
                "flags": self.flags, "errors": self.errors, "integrity": self.integrity,
                "title": self.feedback.title if self.feedback is not None else "",
                "lines": self.feedback.lines if self.feedback is not None else [],
                "kernel_ok": None if self.kernel is None else self.kernel.get("ok"),
                "variant": getattr(self.question, "variant", None), "counted": self.counted,
                "added_failed": [name for name, ok in getattr(self.feedback, "hidden", ()) if not ok]}

    def text(self):
        """What the student and the instructor read under the grade cell."""
        if not self.decided:
            return ("• Not decided outside your notebook: this grade cell is not one of the assignment's "
                    "known checks, so nbgrader's own score stands.")
        mark = "✓" if self.earned == self.points else "✗"
        lines = [f"{mark} Graded outside your notebook: {fmt(self.earned)} of {fmt(self.points)} points."]
        if self.feedback is not None and (self.kernel is None
                                          or bool(self.kernel.get("ok")) != self.feedback.ok
                                          or self.kernel.get("deferred") or self.errors or self.integrity):
            lines.append(repr(self.feedback))
        lines += [f"⚠ {e}" for e in self.errors]
        lines += [f"⚑ Flagged for your instructor: {f}" for f in self.flags]
        return "\n".join(lines)

    def output(self):
        """The verdict as a notebook output (plain text, HTML and the record)."""
        text = self.text()
        body = "".join(f"<div>{html.escape(line)}</div>" for line in text.splitlines())
        colour = "#0072B2" if self.earned == self.points else "#D55E00"
        return {"output_type": "display_data", "metadata": {},
                "data": {"text/plain": text, VERDICT_MIME: self.record(),
                         "text/html": '<div class="gametrees-verdict" style="border-left: 3px solid '
                                      f'{colour}; padding-left: 0.5em; white-space: pre-wrap">{body}</div>'}}


class NotebookVerdict:
    """:func:`decide`'s result: ``student``, ``assignment`` (key or None), ``verdicts``, ``flags``
    (notebook-wide)."""

    def __init__(self, student, assignment, verdicts, flags, counts):
        self.student, self.assignment, self.verdicts, self.flags, self.counts = (
            student, assignment, verdicts, flags, counts)

    @property
    def earned(self):
        return sum(v.earned for v in self.verdicts)

    @property
    def points(self):
        return sum(v.points for v in self.verdicts)

    def record(self):
        return {"student": self.student, "assignment": self.assignment, "flags": self.flags,
                "counts": self.counts, "verdicts": [v.record() for v in self.verdicts]}

    def __repr__(self):
        lines = [f"{self.student}: {fmt(self.earned)} of {fmt(self.points)} points (decided outside the "
                 "notebook)"]
        for v in self.verdicts:
            lines.append(f"  {v.grade_id}: {fmt(v.earned)} of {fmt(v.points)} [{v.status}]"
                         + "".join(f"\n    ⚑ {f}" for f in v.flags)
                         + "".join(f"\n    ⚠ {e}" for e in v.errors))
        lines += [f"  ⚑ {f}" for f in self.flags]
        return "\n".join(lines)


# ============================================================================
# Reading the notebook as data
# ============================================================================


def _meta(cell):
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def _source(cell):
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def _python(source):
    """A cell's source with IPython's ``%magic`` and ``!shell`` lines blanked (line numbers kept)."""
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())


def student_cells(nb):
    """``[(label, source)]``: the code cells the student may write (answers, the id, cells they added)."""
    out = []
    for i, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        meta = _meta(cell)
        if meta.get("locked") or meta.get("grade"):
            continue
        out.append((meta.get("grade_id") or str(i + 1), _python(_source(cell))))
    return out


def locked_cell(nb, grade_id):
    for cell in nb.get("cells", []):
        if _meta(cell).get("grade_id") == grade_id:
            return _python(_source(cell))
    return None


_NAMES = {"inf": math.inf}


def literal(node):
    """The value of an answer written as a literal (``math.inf``, ``float("inf")``, ``-x`` allowed), else
    raise ValueError.

    Examples
    --------
    >>> literal(ast.parse('{"A": 3, "B": (-math.inf, 2.5)}', mode="eval").body)
    {'A': 3, 'B': (-inf, 2.5)}
    """
    if isinstance(node, ast.Constant) and (node.value is None or type(node.value) in (int, float, str, bool)):
        return node.value
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        items = [literal(e) for e in node.elts]
        return {ast.List: list, ast.Tuple: tuple, ast.Set: set}[type(node)](items)
    if isinstance(node, ast.Dict) and None not in node.keys:
        return {literal(k): literal(v) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = literal(node.operand)
        if type(v) in (int, float):
            return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.Attribute) and node.attr == "inf" and isinstance(node.value, ast.Name) \
            and node.value.id in ("math", "np", "numpy"):
        return math.inf
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "float" \
            and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Constant) \
            and str(node.args[0].value).strip().lower() in ("inf", "+inf", "-inf", "infinity", "-infinity"):
        return float(str(node.args[0].value))
    raise ValueError("not a literal")


def _parse(source):
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def literal_answer(cells, name):
    """How ``name()`` answers, read from the cells: ``("literal", value)``, ``("unanswered", None)`` or
    ``("code", None)`` (anything else: it must run, in the child)."""
    defs, others = [], 0
    for _, source in cells:
        tree = _parse(source)
        if tree is None:
            continue
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                defs.append(node)
            elif any(isinstance(t, ast.Name) and t.id == name for t in ast.walk(node)
                     if isinstance(t, ast.Name) and isinstance(t.ctx, ast.Store)):
                others += 1
    if not defs or others or defs[-1].decorator_list or isinstance(defs[-1], ast.AsyncFunctionDef):
        return ("code", None)
    body = list(defs[-1].body)
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    if len(body) == 1 and isinstance(body[0], ast.Raise) and isinstance(body[0].exc, (ast.Call, ast.Name)):
        exc = body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc
        if isinstance(exc, ast.Name) and exc.id == "NotImplementedError":
            return ("unanswered", None)
    if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
        try:
            return ("literal", literal(body[0].value))
        except (ValueError, TypeError, RecursionError):
            return ("code", None)
    return ("code", None)


def scan(cells, exercise_names):
    """Flags from the student's cells, read as data: ``(notebook_flags, {exercise name: [flags]})``."""
    notebook, per_exercise = [], {}
    for label, source in cells:
        tree = _parse(source)
        if tree is None:
            continue
        for node in ast.walk(tree):
            name = ""
            if isinstance(node, ast.Call):
                name = dotted(node.func)
            elif isinstance(node, ast.Subscript):
                base = dotted(node.value)
                if base.endswith("environ") and isinstance(node.ctx, (ast.Store, ast.Del)):
                    name = "os.environ"
            elif isinstance(node, ast.Attribute) and node.attr == "result" \
                    and isinstance(node.value, ast.Name) and node.value.id in exercise_names:
                per_exercise.setdefault(node.value.id, []).append(
                    f"your cell {label} {_EXERCISE_CALLS['result'].format(name=node.value.id)}")
                continue
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                for m in mods:
                    if re.match(r"(gametrees\.(classroom|exercises\.code_checks)|ctypes|subprocess|threading|"
                                r"_thread|multiprocessing|concurrent)", m):
                        notebook.append(f"your cell {label} imports {m}")
                continue
            if not name:
                continue
            head, _, attr = name.rpartition(".")
            if head in exercise_names and attr in _EXERCISE_CALLS and attr != "result":
                per_exercise.setdefault(head, []).append(
                    f"your cell {label} {_EXERCISE_CALLS[attr].format(name=head)}")
                continue
            for pattern, sentence in _SUSPICIOUS:
                if re.search(pattern, name):
                    notebook.append(f"your cell {label} {sentence} ({name})")
                    break
    return list(dict.fromkeys(notebook)), {k: list(dict.fromkeys(v)) for k, v in per_exercise.items()}


def typed_id(cells):
    """The id typed in ``STUDENT_ID = "..."`` (normalised), or None."""
    found = None
    for _, source in cells:
        tree = _parse(source)
        if tree is None:
            continue
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "STUDENT_ID"
                                                    for t in node.targets):
                try:
                    value = literal(node.value)
                except (ValueError, TypeError):
                    found = "(computed)"
                    continue
                found = (normal(value) if isinstance(value, (str, int)) and not isinstance(value, bool)
                         else None)
    return found or None


def kernel_record(cell):
    """The record the notebook's own check left in a grade cell's outputs, or None."""
    for out in cell.get("outputs", []) or []:
        data = out.get("data", {}) if isinstance(out, dict) else {}
        if MIME in data and isinstance(data[MIME], dict):
            return data[MIME]
    return None


def kernel_counts(nb):
    """``{exercise key: {"checks": n, "wrong": m}}`` as the notebook's last cell recorded them (may be
    empty)."""
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []) or []:
            data = out.get("data", {}) if isinstance(out, dict) else {}
            rec = data.get("application/vnd.gametrees.integrity+json")
            if isinstance(rec, dict) and isinstance(rec.get("checks"), dict):
                return {str(k): dict(v) for k, v in rec["checks"].items() if isinstance(v, dict)}
    return {}


# ============================================================================
# Deciding
# ============================================================================


def _fail(title, text, status="wrong"):
    return Feedback(title, [("bad", text, None)], status=status)


def _refusals(sandbox):
    """``(integrity, notebook, errors)``: sentences for what the child's hook refused.

    A refusal while a graded function ran is an attempt on the grading (the question earns nothing);
    one while the student's cells were loaded is flagged for the notebook; an import of a module the
    child does not offer (numpy, ...) is only an error.
    """
    integrity, notebook, errors = [], [], []
    for event, detail, phase in sandbox.refused:
        for prefix, pattern, sentence in _INTEGRITY:
            if event == prefix or (prefix.endswith(".") and event.startswith(prefix)):
                if pattern and not re.search(pattern, detail):
                    errors.append(f"your code imported {detail}, which is not available while grading (the "
                                  "standard library's math, itertools, functools, collections, heapq, random "
                                  "are)")
                    break
                s = sentence.format(detail=detail, event=event)
                if phase == "call":
                    integrity.append(f"your code {s} while graded: refused")
                else:
                    notebook.append(f"your cells {s} when loaded for grading: refused")
                break
        else:
            if event == "import":
                errors.append(f"your code imported {detail}, which is not available while grading (the "
                              "standard library's math, itertools, functools, collections, heapq, random "
                              "are)")
    return [list(dict.fromkeys(x)) for x in (integrity, notebook, errors)]


def _run_answer(question, exercise, cells, limits):
    """An answer by hand: its feedback, flags and errors."""
    how, value = literal_answer(cells, question.function)
    if how == "literal":
        return check_answer(exercise, value), [], [], []
    if how == "unanswered":
        def unanswered():
            raise NotImplementedError()
        unanswered.__name__ = question.function
        return check_answer(exercise, unanswered), [], [], []
    with Sandbox(cells, [question.function], call_limit=limits[0], deadline=limits[1],
                 question_limit=limits[2]) as box:
        fn = box.functions.get(question.function)
        errors = []
        if fn is None:
            fb = _fail(f"{getattr(exercise, 'what', 'Answer')}: not answered.",
                       f"There is no function {question.function}() in your notebook.", "unanswered")
            return fb, [], _load_errors(box), _forged(box.broken, "when loaded for grading")
        try:
            try:
                value = fn()
            finally:
                box.sync()  # nothing may have come after its reply (a forged reply's real one)
            fb = check_answer(exercise, value)
        except ChannelForged as exc:
            fb = _fail(f"{getattr(exercise, 'what', 'Answer')}: {exc.what} the grader's channel.",
                       f"Your code {exc.what} the grader's channel ({exc.why}). It was stopped there: "
                       "this answer earns nothing.")
        except (CallTimedOut, ChildBroken) as exc:
            fb, errors = _fail(f"{getattr(exercise, 'what', 'Answer')}: no answer.", str(exc)), [str(exc)]
        # BLE001: the learner's error, worded as the notebook's check words it
        except Exception as exc:  # noqa: BLE001
            error = exc

            def raising():
                raise error
            raising.__name__ = question.function
            fb = check_answer(exercise, raising)
        integrity, notebook, other = _refusals(box)
        flags = [f"{question.function}() computes its answer with code instead of writing it out "
                 "(run in a sandbox: it could not reach the library)"] + integrity + _forged(box.broken)
        return fb, flags, errors + other, notebook


def _forged(broken, when="while graded"):
    """The flag for a child whose channel the learner's code wrote to (or read): ``[]`` for any other end.

    Written like a refusal of the child's hook while graded, so the question earns nothing.
    """
    if not isinstance(broken, ChannelForged):
        return []
    return [f"your code {broken.what} the grader's channel ({broken.why}) {when}: refused"]


def _load_errors(box):
    out = []
    if box.timed_out:
        out.append(f"your cells did not finish running within {box.load_limit:g} s when loaded for grading")
    if box.broken:
        out.append(f"grading stopped: {box.broken}")
    return out


def once_per_position(evaluate):
    """``evaluate`` (a learner's function run in the child) asked once per position: a repeat gets the number
    it returned the first time.

    A tournament's searches meet the same Connect Four position again and again (about half of the
    calls in A3's two tournaments of 20 games are repeats), and each call is a round trip to the
    child. The evaluation is graded as what it is asked to be, a number for each position; only a
    plain number (int or float) is remembered, so an error, a timeout or a returned object is met
    again on every call, as before. Every position the search evaluates is still evaluated by the
    learner's own code in the child, under the child's refusals. (An evaluation that returns
    different numbers for the same position, e.g. a random one, plays other games here than in the
    kernel; it did already, since the child's random numbers are not the kernel's.)

    Examples
    --------
    >>> calls = []
    >>> def evaluate(state):
    ...     calls.append(state)
    ...     return 0.5
    >>> once = once_per_position(evaluate)
    >>> once((1, 2)), once((1, 2)), once((3, 4)), len(calls)
    (0.5, 0.5, 0.5, 2)
    """
    values = {}

    def evaluation(state):
        try:
            return values[state]
        except (KeyError, TypeError):
            pass
        value = evaluate(state)
        if type(value) in (int, float):
            try:
                values[state] = value
            except TypeError:  # an unhashable state is asked every time
                pass
        return value

    evaluation.__name__ = getattr(evaluate, "__name__", "evaluate")
    evaluation.__wrapped__ = evaluate  # its signature is the learner's
    return evaluation


def _run_code(question, assignment, cells, nb, limits):
    """A code question (or A3's evaluation): its feedback, flags and errors."""
    names = [question.function] + ([question.options["uses"]] if "uses" in question.options else [])
    run_cells = [(f"{assignment.key} set-up", assignment.prelude)]
    run_cells += [(g, locked_cell(nb, g) or "") for g in assignment.locked_cells]
    run_cells += cells
    games = {"connect_four": ConnectFour()} if "connect_four" in assignment.games else None
    with Sandbox(run_cells, names, games=games, call_limit=limits[0], load_limit=limits[0] * 2,
                 deadline=limits[1], question_limit=limits[2]) as box:
        fn = box.functions.get(question.function)
        errors = _load_errors(box)
        if fn is None:
            fb = _fail(f"{question.function}: not written.",
                       f"There is no function {question.function} in your notebook (or its cell did not run: "
                       + (", ".join(f"{lab}: {kind} {msg}" for lab, kind, msg in box.load_errors[:2])
                          or "no error")
                       + ").", "unanswered")
            integrity, notebook, other = _refusals(box)
            return fb, integrity, errors + other, notebook + _forged(box.broken, "when loaded for grading")
        try:
            if question.kind == "code":
                checker = check_function(question.options["checker"])
                options = {k: v for k, v in question.options.items() if k not in ("checker", "uses")}
                if "uses" in question.options:
                    options["uses"] = box.functions.get(question.options["uses"])
                own = True
                try:
                    fb = check_code(checker, fn, **options)
                except CallTimedOut as exc:
                    if "uses" not in question.options or checker is not check_best_move or \
                            isinstance(exc, QuestionTimedOut):
                        raise
                    # The learner's own value function (the other question) may be what never returned: check
                    # the move again in a fresh child with a correct one only, so that it cannot cost
                    # this one.
                    box.timed_out = None
                    box.restart()
                    fn = box.functions.get(question.function)
                    options["uses"] = box.functions.get(question.options["uses"])
                    fb = check_code(checker, fn, own=False, **options)
                    own = False
                fb = _hidden(question.options["checker"], fb, fn, options, own)
                # an added check that ran past a limit: a timeout, not a slip
                errors += [name.split(_UNFINISHED, 1)[1].removesuffix(")")
                           for name, ok in getattr(fb, "hidden", ()) if _UNFINISHED in name]
            elif question.kind == "evaluation":
                fb = check_connect4_evaluation(fn)
            else:
                fb = check_tournament(once_per_position(fn), question.options["opponent"],
                                      games=question.options["games"],
                                      seed=question.options.get("seed", 2024),
                                      variant=question.options.get("variant"))
            box.sync()  # nothing may have come after the last reply (a forged reply's real one)
        except CallTimedOut as exc:
            fb = _fail(f"{question.function}: did not finish.",
                       f"{exc} (it was stopped there; a search that never reaches a terminal state, or a "
                       "loop that never ends, does this).")
            errors.append(str(exc))
        except ChannelForged as exc:
            fb = _fail(f"{question.function}: {exc.what} the grader's channel.",
                       f"Your code {exc.what} the grader's channel ({exc.why}). It was stopped there: this "
                       "question earns nothing.")
        except ChildBroken as exc:
            fb = _fail(f"{question.function}: grading stopped.",
                       f"The process running your code stopped: {exc}.")
            errors.append(f"grading stopped: {exc}")
        integrity, notebook, other = _refusals(box)
        return fb, integrity + _forged(box.broken), errors + other, notebook


_UNFINISHED = " (it did not finish: "


def _hidden(check, fb, fn, options, own=True):
    """``fb`` with the checks the grader adds (:mod:`gametrees.classroom.hidden`), when every check the
    student could run passed (a failing answer is told what failed there; the added checks would only
    take time)."""
    if not fb.ok or getattr(fb, "library", None):
        return fb
    uses = options.get("uses")
    stand_in = None
    if uses is not None:
        reference = engine_alphabeta_value if options.get("alphabeta") else engine_value

        def stand_in():
            return swapped(fn, uses, reference)
    results = run_hidden(check, fn, options, stand_in=stand_in, own=own, stop=CallTimedOut)
    return with_hidden(fb, check, results)


def decide(nb, student, *, call_limit=CALL_LIMIT, kernel=True, question_limit=QUESTION_LIMIT, deadline=None):
    """The points of every grade cell of a submitted notebook, decided outside its kernel.

    :func:`prepare` (run and check every known question), then :func:`finish` (compare with the
    kernel's records). The grader's own checks never defer to themselves (see
    :func:`gametrees.classroom.limits.outside_kernel`).

    Parameters
    ----------
    nb : dict or nbformat.NotebookNode
        The notebook (its answer cells as the student wrote them; outputs are read only to compare).
    student : str
        The id nbgrader files the submission under (it seeds the trees).
    call_limit : float
        Seconds one call of a learner's function may take.
    kernel : bool
        Compare with the records the notebook's own checks left (False for a notebook not run).

    Returns
    -------
    NotebookVerdict
    """
    return finish(prepare(nb, student, call_limit=call_limit, question_limit=question_limit,
                          deadline=deadline), nb, kernel=kernel)


def inputs(nb):
    """Everything of a notebook that :func:`prepare` reads: each code cell's nbgrader metadata and source.

    Two notebooks with the same inputs get the same prepared verdicts; the outputs (the kernel's records,
    read by :func:`finish`) are not among them.
    """
    return [(json.dumps(_meta(c), sort_keys=True, default=str), _source(c)) for c in nb.get("cells", [])
            if c.get("cell_type") == "code"]


class Prepared:
    """:func:`prepare`'s result: every known question run and checked, before any kernel record is read.

    Attributes: ``student``, ``call_limit``, ``inputs`` (see :func:`inputs`), ``assignment``,
    ``nb_flags``, ``results`` (per grade cell: ``(grade_id, points, question, fb, flags, errors)``,
    ``question`` None when not decided here), ``exercise_keys`` (exercise name -> key, as the kernel's
    counts name them).
    """

    def __init__(self, student, call_limit, nb_inputs, assignment, nb_flags, results):
        self.student, self.call_limit, self.inputs = student, call_limit, nb_inputs
        self.assignment, self.nb_flags, self.results = assignment, nb_flags, results


def prepare(nb, student, *, call_limit=CALL_LIMIT, question_limit=QUESTION_LIMIT, deadline=None):
    """Run and check every known question of ``nb`` (its code in child interpreters); no output is read.

    It reads only :func:`inputs` (sources and nbgrader metadata), so it may run while nbgrader's kernel
    executes the same notebook (see :mod:`gametrees.classroom.autograding`); :func:`finish` then compares
    with what the kernel recorded. Safe to call in a thread: the checks it runs never defer to the grader
    (:func:`gametrees.classroom.limits.outside_kernel`), whatever the process's environment says.
    """
    with outside_kernel():
        return _prepare(nb, student, call_limit, question_limit, deadline)


def _limits(call_limit, question_limit, deadline):
    """``(call limit, the question's deadline, its limit)``: a question ends at its own limit or at the
    submission's ``deadline`` (a ``time.monotonic()`` value), whichever comes first."""
    until = time.monotonic() + question_limit
    if deadline is not None and deadline < until:
        return call_limit, deadline, max(0.0, deadline - time.monotonic())
    return call_limit, until, question_limit


def _prepare(nb, student, call_limit, question_limit, deadline):
    student = normal(student)
    nb_inputs = inputs(nb)
    grade_cells = [c for c in nb.get("cells", []) if _meta(c).get("grade") and _meta(c).get("grade_id")]
    assignment = assignment_in([(_meta(c), _source(c)) for c in nb.get("cells", [])
                                if c.get("cell_type") == "code"])
    cells = student_cells(nb)
    exercises = assignment.make_exercises(student) if assignment else {}
    nb_flags, per_exercise = scan(cells, set(exercises))
    typed = typed_id(cells)
    if typed and typed != student:
        nb_flags.append(f"the id typed in the notebook ({typed!r}) is not the submission's ({student!r}): "
                        f"graded against {student!r}'s trees")
    results = []
    for cell in grade_cells:
        meta = _meta(cell)
        gid, points = meta["grade_id"], meta.get("points", 0) or 0
        question = assignment.questions.get(gid) if assignment else None
        if question is None or not question.matches(_source(cell)):
            results.append((gid, points, None, None, [], []))
            continue
        question = question.for_student(student)
        if question.kind == "answer":
            ex = exercises[question.exercise]
            _attempts.reset(ex.key)
            fb, flags, errors, loaded = _run_answer(question, ex, cells,
                                                    _limits(call_limit, question_limit, deadline))
            _attempts.reset(ex.key)
            flags = per_exercise.get(question.exercise, []) + flags
        else:
            fb, flags, errors, loaded = _run_code(question, assignment, cells, nb,
                                                  _limits(call_limit, question_limit, deadline))
        nb_flags.extend(f for f in loaded if f not in nb_flags)
        results.append((gid, points, question, fb, flags, errors))
    prepared = Prepared(student, call_limit, nb_inputs, assignment, nb_flags, results)
    prepared.exercise_keys = {name: ex.key for name, ex in exercises.items()}
    return prepared


def finish(prepared, nb, *, kernel=True):
    """The :class:`NotebookVerdict` of a :class:`Prepared` notebook, compared with the kernel's records in
    ``nb``.

    Raises
    ------
    ValueError
        If ``nb``'s :func:`inputs` are not the ones ``prepared`` ran (then :func:`decide` it instead).
    """
    if inputs(nb) != prepared.inputs:
        raise ValueError("the notebook is not the one prepared: its cells' sources or nbgrader metadata "
                         "differ")
    student, assignment = prepared.student, prepared.assignment
    counts = kernel_counts(nb)
    records = {}
    for cell in nb.get("cells", []):
        meta = _meta(cell)
        if meta.get("grade") and meta.get("grade_id"):
            records[meta["grade_id"]] = kernel_record(cell) if kernel else None
    verdicts = []
    for gid, points, question, fb, flags, errors in prepared.results:
        record = records.get(gid)
        if question is None:
            verdicts.append(Verdict(gid, points, decided=False, kernel=record))
            continue
        flags = list(flags)
        if question.kind == "answer":
            base = prepared.exercise_keys[question.exercise].split("#")[0]
            seen = sum(v.get("checks", 0) for k, v in counts.items()
                       if k.split("#")[0] == base and isinstance(v.get("checks"), int))
            if seen > 3:
                flags.append(f"the graded exercise was checked {seen} times when the notebook ran for "
                             "grading (its check cell runs once)")
        v = Verdict(gid, points, feedback=fb, flags=flags, errors=list(errors), kernel=record,
                    question=question)
        v.counted = (prepared.exercise_keys[question.exercise].split("#")[0] if question.kind == "answer"
                     else question.options.get("checker"))
        v.integrity = any(f.endswith("while graded: refused") for f in flags)
        if v.integrity:
            v.earned = 0.0
        if kernel:
            if record is None:
                v.flags.append("the notebook's own check of this question left no record (the check cell did "
                               "not run to its end, or its output was replaced)")
            elif not record.get("deferred"):
                # what the notebook could run passed; only a check the grader adds failed
                hidden_only = record.get("ok") and getattr(fb, "visible_ok", False)
                if bool(record.get("ok")) != bool(fb.ok) and not hidden_only:
                    said = "passed" if record.get("ok") else "failed"
                    v.flags.append(f"the notebook's own check {said}; decided outside the notebook it "
                                   f"{'passed' if fb.ok else 'failed'}")
                kid = record.get("student")
                if kid is not None and normal(kid) != student:
                    v.flags.append(f"the notebook's check ran against {normal(kid)!r}'s trees, not the "
                                   f"submission's ({student!r})")
        verdicts.append(v)
    return NotebookVerdict(student, assignment.key if assignment else None, verdicts, list(prepared.nb_flags),
                           counts)
