"""What each graded cell of the three assignments asks: :data:`ASSIGNMENTS`, :func:`assignment_of`, :func:`exercises_for`.

The grader decides a grade cell's points from this table, never from what the
cell printed in the student's kernel. Each :class:`Question` names the answer
function the student writes and how it is checked: ``"answer"`` (an answer by
hand, checked by an exercise built from the student's id), ``"code"`` (a
function run in the child interpreter and checked by a checker) or
``"evaluation"`` / ``"tournament"`` (A3). ``check`` is the source of the grade
cell as released: a grade cell whose source differs (an instructor's own
question) is not decided here, and the grader says so.

The exercises are the ones the notebooks' locked "trees" cells build (a test
keeps the two the same): the id is the one nbgrader files the submission under.

May import: the public names of :mod:`gametrees.exercises`.
"""

from __future__ import annotations

import re

from .. import exercises as _exercises


class Question:
    """One graded cell: ``grade_id``, ``kind``, ``function``, ``exercise`` (name), ``options``, ``check`` (source)."""

    def __init__(self, grade_id, kind, function, check, exercise=None, **options):
        self.grade_id, self.kind, self.function, self.check = grade_id, kind, function, check
        self.exercise, self.options = exercise, options

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
    """An assignment: its key, notebook name, exercises (a function of the id), questions and child set-up."""

    def __init__(self, key, notebook, exercises, questions, prelude="", locked_cells=(), games=()):
        self.key, self.notebook, self.make_exercises = key, notebook, exercises
        self.questions = {q.grade_id: q for q in questions}
        self.prelude, self.locked_cells, self.games = prelude, tuple(locked_cells), tuple(games)


ASSIGNMENTS = {
    "A1": Assignment("A1", "A1_minimax", _a1, [
        Question("a1-q1-check", "answer", "minimax_values", "ga.score(ga.check_answer(tree1, minimax_values), 2)",
                 exercise="tree1"),
        Question("a1-q2-check", "answer", "best_move_at_root",
                 "ga.score(ga.check_answer(tree2, best_move_at_root), 1)", exercise="tree2"),
        Question("a1-q3-check", "code", "minimax_value",
                 "ga.score(ga.check_code(gt.exercises.check_minimax, minimax_value), 4)", checker="check_minimax"),
        Question("a1-q4-check", "code", "best_move",
                 "ga.score(ga.check_code(ga.check_best_move, best_move, uses=minimax_value), 2)",
                 checker="check_best_move", uses="minimax_value"),
    ], prelude="import math\n"),
    "A2": Assignment("A2", "A2_alpha_beta", _a2, [
        Question("a2-q1-check", "answer", "pruned_leaves", "ga.score(ga.check_answer(pruning, pruned_leaves), 2)",
                 exercise="pruning"),
        Question("a2-q2-check", "answer", "returned_values",
                 "ga.score(ga.check_answer(returned, returned_values), 2)", exercise="returned"),
        Question("a2-q3-check", "answer", "window_when_it_returns",
                 "ga.score(ga.check_answer(window, window_when_it_returns), 1)", exercise="window"),
        Question("a2-q4-check", "code", "alphabeta_value",
                 "ga.score(ga.check_code(gt.exercises.check_alphabeta, alphabeta_value), 4)",
                 checker="check_alphabeta"),
        Question("a2-q5-check", "code", "alphabeta_best_move",
                 "ga.score(ga.check_code(ga.check_best_move, alphabeta_best_move, alphabeta=True, "
                 "uses=alphabeta_value), 2)", checker="check_best_move", alphabeta=True, uses="alphabeta_value"),
    ], prelude="import math\n"),
    "A3": Assignment("A3", "A3_connect_four_evaluation", _a3, [
        Question("a3-check-positions", "evaluation", "evaluate",
                 "ga.score(ga.check_connect4_evaluation(evaluate), 2)"),
        Question("a3-check-random", "tournament", "evaluate",
                 'fb = ga.check_tournament(evaluate, "random", games=20, seed=2024)\nif fb.result is not None:\n'
                 '    print(fb.result.table())\nga.score(fb, 3)', opponent="random", games=20, seed=2024),
        Question("a3-check-weak", "tournament", "evaluate",
                 'fb = ga.check_tournament(evaluate, "weak", games=20, seed=2024)\nif fb.result is not None:\n'
                 '    print(fb.result.table())\nga.score(fb, 3)', opponent="weak", games=20, seed=2024),
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

    Examples
    --------
    >>> sorted(exercises_for("A2", "jdoe"))
    ['pruning', 'returned', 'window']
    """
    if key not in ASSIGNMENTS:
        raise ValueError(f"no assignment {key!r}: expected one of {', '.join(ASSIGNMENTS)}")
    return ASSIGNMENTS[key].make_exercises(student)
