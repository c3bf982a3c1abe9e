"""What each graded cell asks: :data:`ASSIGNMENTS`, :func:`assignment_in`, :func:`exercises_for`.

The grader decides a grade cell's points from this table, never from what the
cell printed in the student's kernel. Each :class:`Question` names the answer
function the student writes and how it is checked: ``"answer"`` (an answer by
hand, checked by an exercise built from the student's id), ``"code"`` (a
function run in the child interpreter and checked by a checker) or
``"evaluation"`` / ``"tournament"`` (A3). ``check`` is the source of the grade
cell as released.

The code questions of A1 and A2 (each checked on the student's own trees), and an
instructor's own questions, are declared in the notebook
(:mod:`gametrees.classroom.declarations`): :func:`assignment_in` reads the
notebook's read-only cells and grade cells as data and adds a :class:`Question`
for every grade cell of the declared form (``ga.score(ga.check_answer(mine,
fn), 2)``, ``ga.score(ga.check_code(leaves, fn), 3)``, or
``ga.check_code(gt.exercises.check_minimax, fn, tictactoe=False)`` with literal
options). A grade cell of neither form is not decided here, and the grader says
so.

The exercises are the ones the notebooks' locked "trees" cells build (a test
keeps the two the same): the id is the one nbgrader files the submission under.

May import: the public names of :mod:`gametrees.exercises`, :mod:`gametrees.classroom.declarations`,
:func:`gametrees.classroom.connect_four.tournament_seed`.
"""

from __future__ import annotations

import ast
import re

from .. import exercises as _exercises
from . import declarations as _declarations
from .connect_four import tournament_seed


class Question:
    """One graded cell: ``grade_id``, ``kind``, ``function``, ``exercise`` (name), ``options``, ``check``.

    ``declaration`` is the :class:`~gametrees.classroom.declarations.Declaration` of a declared code
    question (its options depend on the student: :meth:`for_student`); ``variant`` says which variant a
    student's question is (None for the same for everyone).
    """

    def __init__(self, grade_id, kind, function, check, exercise=None, declaration=None, described=None,
                 pattern=None, **options):
        self.grade_id, self.kind, self.function, self.check = grade_id, kind, function, check
        self.exercise, self.options = exercise, options
        self.declaration, self.variant, self.pattern = declaration, described, pattern

    def for_student(self, student):
        """This question as ``student`` is asked it: a declared code check's options from their variant, a
        shipped tournament's ``variant`` from its ``pattern`` (``"{student}/A3"``)."""
        if self.pattern is not None:
            variant = self.pattern.replace("{student}", student)
            seed = tournament_seed(variant, self.options["opponent"])
            return Question(self.grade_id, self.kind, self.function, self.check,
                            described=f"tournament seed {seed}, from {variant!r}",
                            **{**self.options, "variant": variant})
        if self.declaration is None:
            return self
        options = dict(self.options)
        if self.declaration.kind == "code":
            options.update(self.declaration.options(student))
        return Question(self.grade_id, self.kind, self.function, self.check, self.exercise,
                        described=self.declaration.describe(student), **options)

    def matches(self, source):
        """Whether a grade cell's source is this question's check (spacing aside)."""
        return _squash(source) == _squash(self.check)


def _squash(text):
    return re.sub(r"\s+", "", str(text))


def _a1(student):
    gen = _exercises.generate
    return {"tree1": gen("values", seed=f"{student}/A1/1", difficulty="medium"),
            "tree2": gen("best_move", seed=f"{student}/A1/2", difficulty="medium", root_player="min")}


def _a2(student):
    pruning = _exercises.generate("pruning", seed=f"{student}/A2", difficulty="medium")
    return {"pruning": pruning,
            "returned": _exercises.ValuesExercise(pruning.tree, algorithm="alphabeta"),
            "window": _exercises.WindowExercise(pruning.tree)}


def _a3(student):
    return {}


class Assignment:
    """An assignment: its key, notebook name, exercises (a function of the id), questions and child set-up.

    ``declared`` holds the questions an instructor declared in the notebook (name -> declaration).
    """

    def __init__(self, key, notebook, exercises, questions, prelude="", locked_cells=(), games=()):
        self.key, self.notebook, self.make_exercises = key, notebook, exercises
        self.questions = {q.grade_id: q for q in questions}
        self.prelude, self.locked_cells, self.games = prelude, tuple(locked_cells), tuple(games)
        self.declared = {}


ASSIGNMENTS = {
    "A1": Assignment("A1", "A1_minimax", _a1, [
        Question("a1-q1-check", "answer", "minimax_values",
                 "ga.score(ga.check_answer(tree1, minimax_values), 2)",
                 exercise="tree1"),
        Question("a1-q2-check", "answer", "best_move_at_root",
                 "ga.score(ga.check_answer(tree2, best_move_at_root), 1)", exercise="tree2"),
    ], prelude="import math\n"),  # q3, q4: declared in the notebook (each student's own trees)
    "A2": Assignment("A2", "A2_alpha_beta", _a2, [
        Question("a2-q1-check", "answer", "pruned_leaves",
                 "ga.score(ga.check_answer(pruning, pruned_leaves), 2)",
                 exercise="pruning"),
        Question("a2-q2-check", "answer", "returned_values",
                 "ga.score(ga.check_answer(returned, returned_values), 2)", exercise="returned"),
        Question("a2-q3-check", "answer", "window_when_it_returns",
                 "ga.score(ga.check_answer(window, window_when_it_returns), 1)", exercise="window"),
    ], prelude="import math\n"),  # q4, q5: declared in the notebook (each student's own trees)
    "A3": Assignment("A3", "A3_connect_four_evaluation", _a3, [
        Question("a3-check-positions", "evaluation", "evaluate",
                 "ga.score(ga.check_connect4_evaluation(evaluate), 2)"),
        Question("a3-check-random", "tournament", "evaluate",
                 'fb = ga.check_tournament(evaluate, "random", games=20, variant=f"{ME}/A3")\n'
                 'if fb.result is not None:\n    print(fb.result.table())\nga.score(fb, 3)',
                 pattern="{student}/A3", opponent="random", games=20),
        Question("a3-check-weak", "tournament", "evaluate",
                 'fb = ga.check_tournament(evaluate, "weak", games=20, variant=f"{ME}/A3")\n'
                 'if fb.result is not None:\n    print(fb.result.table())\nga.score(fb, 3)',
                 pattern="{student}/A3", opponent="weak", games=20),
    ], prelude="import math\n\nclass _NoLibrary:\n    def ConnectFour(self, *args, **kwargs):\n"
               "        return connect_four\n\ngt = _NoLibrary()\n",
        locked_cells=("a3-helpers",), games=("connect_four",)),
}


def assignment_of(grade_ids):
    """The :class:`Assignment` whose questions include one of ``grade_ids``, or None.

    Examples
    --------
    >>> assignment_of(["a2-q1-check", "x"]).key
    'A2'
    >>> assignment_of(["mine"]) is None
    True
    """
    for a in ASSIGNMENTS.values():
        if any(g in a.questions for g in grade_ids):
            return a
    return None


def exercises_for(key, student):
    """The graded exercises of assignment ``key`` for ``student`` (a dict name -> exercise).

    The grader reaches them through :data:`ASSIGNMENTS`; this is the short way to see one student's
    exercises (their trees and solutions) from Python, and the tests' way to build a student's answers.

    Examples
    --------
    >>> sorted(exercises_for("A2", "jdoe"))
    ['pruning', 'returned', 'window']
    """
    if key not in ASSIGNMENTS:
        raise ValueError(f"no assignment {key!r}: expected one of {', '.join(ASSIGNMENTS)}")
    return ASSIGNMENTS[key].make_exercises(student)


# ============================================================================
# Questions declared in the notebook
# ============================================================================


def _call(node, name):
    return isinstance(node, ast.Call) and _declarations.dotted(node.func) == name


def declarations_in(cells):
    """The questions declared in the read-only cells: ``({name: Declaration}, [problem])``.

    ``cells`` are the notebook's code cells as ``(nbgrader metadata, source)``. A declaration outside a
    read-only cell, or one that cannot be built, is a problem (one line naming it), not a declaration.
    """
    found, problems = {}, []
    for meta, source in cells:
        where = meta.get("grade_id") or "a cell"
        for node, name in _declarations.calls(source):
            if not (meta.get("locked") and not meta.get("grade") and not meta.get("solution")):
                problems.append(f"cell {where!r}: {_declarations.CALL}(...) must be in a read-only cell "
                                "(nbgrader's 'Read-only'), so that students cannot change it")
                continue
            try:
                declaration = _declarations.read(node, name)
            except ValueError as exc:
                problems.append(f"cell {where!r}: {exc}")
                continue
            if name in found:
                problems.append(f"cell {where!r}: {name} is declared twice")
            found[name] = declaration
    return found, problems


def declared_question(grade_id, source, declared):
    """The :class:`Question` a grade cell of the declared form asks, else None (then nbgrader's score stands).

    Raises ValueError for a grade cell of that form that names an unknown declaration, check or option.

    Examples
    --------
    >>> from gametrees.classroom.declarations import Declaration
    >>> mine = Declaration("mine", "order", seed="{student}/A2/order")
    >>> q = declared_question("q6", "ga.score(ga.check_answer(mine, visiting_order), 2)", {"mine": mine})
    >>> q.kind, q.exercise, q.function
    ('answer', 'mine', 'visiting_order')
    >>> source = "ga.score(ga.check_code(gt.exercises.check_minimax, value, tictactoe=False), 3)"
    >>> q = declared_question("q7", source, {})
    >>> q.kind, q.options
    ('code', {'checker': 'check_minimax', 'tictactoe': False})
    >>> declared_question("q8", "print('mine')", {}) is None
    True
    """
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        return None
    if not _call(tree.body[0].value, "ga.score"):
        return None
    score = tree.body[0].value
    if len(score.args) != 2 or score.keywords:
        return None
    inner = score.args[0]
    if _call(inner, "ga.check_answer"):
        if len(inner.args) != 2 or inner.keywords or not all(isinstance(a, ast.Name) for a in inner.args):
            return None
        name, function = inner.args[0].id, inner.args[1].id
        if name not in declared:
            return None
        if declared[name].kind == "code":
            raise ValueError(f"grade cell {grade_id!r}: {name} is a code question: check it with "
                             f"ga.check_code({name}, your_function)")
        return Question(grade_id, "answer", function, source, exercise=name, declaration=declared[name])
    if not _call(inner, "ga.check_code") or len(inner.args) != 2 or not isinstance(inner.args[1], ast.Name):
        return None
    function, check = inner.args[1].id, inner.args[0]
    options, uses = {}, None
    for k in inner.keywords:
        if k.arg == "uses" and isinstance(k.value, ast.Name):
            uses = k.value.id
            continue
        try:
            options[k.arg] = ast.literal_eval(k.value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            raise ValueError(f"grade cell {grade_id!r}: the option {k.arg}= must be written out as a "
                             "literal") from None
    extra = {"uses": uses} if uses else {}
    if isinstance(check, ast.Name) and check.id in declared:
        declaration = declared[check.id]
        if declaration.kind != "code":
            raise ValueError(f"grade cell {grade_id!r}: {check.id} is a question by hand: check it with "
                             f"ga.check_answer({check.id}, your_function)")
        if options:
            raise ValueError(f"grade cell {grade_id!r}: give {check.id}'s options in its declaration "
                             f"({check.id} = {_declarations.CALL}(\"code\", ...)), not in ga.check_code")
        return Question(grade_id, "code", function, source, declaration=declaration,
                        checker=declaration.check, **extra)
    dotted = _declarations.dotted(check)
    name = dotted.rpartition(".")[2]
    if dotted not in (f"gt.exercises.{name}", "ga.check_best_move"):
        return None
    if name not in _declarations.CHECKS:
        raise ValueError(f"grade cell {grade_id!r}: unknown check {dotted} (the grader decides "
                         f"{', '.join(sorted(_declarations.CHECKS))})")
    try:
        _declarations.Declaration(None, "code", check=name, **options)
    except ValueError as exc:
        raise ValueError(f"grade cell {grade_id!r}: {exc}") from None
    return Question(grade_id, "code", function, source, checker=name, **options, **extra)


def assignment_in(cells):
    """The :class:`Assignment` a notebook is, its declared questions included (None when it has none).

    ``cells`` are its code cells as ``(nbgrader metadata, source)``. A shipped assignment (found by its grade
    ids) keeps its questions whose grade cells are as released; every other grade cell of the declared
    form becomes a question (see :func:`declared_question`). Problems (a declaration refused) are
    ignored here: ``release`` refuses them (:func:`problems`).
    """
    grade_cells = [(m["grade_id"], src) for m, src in cells if m.get("grade") and m.get("grade_id")]
    shipped = assignment_of([g for g, _ in grade_cells])
    declared, _ = declarations_in(cells)
    own = {}
    for gid, src in grade_cells:
        known = shipped.questions.get(gid) if shipped else None
        if known is not None and known.matches(src):
            continue
        try:
            q = declared_question(gid, src, declared)
        except ValueError:
            q = None
        if q is not None:
            own[gid] = q
    if not own:
        return shipped
    base = shipped or Assignment("own", "", lambda student: {}, [], prelude="import math\n")
    by_hand = {n: d for n, d in declared.items() if d.kind != "code"}

    def exercises(student):
        return {**base.make_exercises(student), **{n: d.exercise(student) for n, d in by_hand.items()}}

    out = Assignment(base.key, base.notebook, exercises, [*base.questions.values(), *own.values()],
                     prelude=base.prelude, locked_cells=base.locked_cells, games=base.games)
    out.declared = declared
    return out


def problems(cells):
    """What ``release`` refuses in a notebook's declared questions: one line each (empty when none).

    Examples
    --------
    >>> cells = [({"locked": True, "grade_id": "decl"}, 'mine = ga.question("prunning", seed="{student}/x")'),
    ...          ({"grade": True, "grade_id": "q6", "points": 2}, "ga.score(ga.check_answer(mine, f), 2)")]
    >>> print(problems(cells)[0])  # doctest: +ELLIPSIS
    cell 'decl': mine = ga.question: unknown kind 'prunning' (expected 'code' or an exercise kind: ...)
    """
    declared, out = declarations_in(cells)
    for meta, source in cells:
        if not (meta.get("grade") and meta.get("grade_id")):
            continue
        try:
            q = declared_question(meta["grade_id"], source, declared)
        except ValueError as exc:
            out.append(str(exc))
            continue
        if q is None:
            continue
        written = ast.parse(source).body[0].value.args[1]
        if isinstance(written, ast.Constant) and written.value != meta.get("points"):
            out.append(f"grade cell {meta['grade_id']!r}: ga.score gives {written.value!r} points, "
                       f"nbgrader's metadata {meta.get('points')!r}: make them the same")
    return out
