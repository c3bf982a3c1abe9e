"""One check, one attempt record: every check of a learner's function that words its feedback with
``checker_feedback`` leaves exactly one record in :func:`gametrees.exercises.attempts.counts` after one wrong
check (a second record, under another key, would count the check twice and lose what the first knows:
that the solution was shown).

The checks are found in the package's source, so a new caller of ``checker_feedback`` without a case here
fails the first test.
"""

import ast
from pathlib import Path

import pytest
from submissions import careless, negated_leaves

import gametrees as gt
from gametrees.classroom import checks as classroom
from gametrees.classroom.connect_four import check_connect4_evaluation
from gametrees.exercises import attempts
from gametrees.exercises.lessons.l02_minimax import check_fast_wins
from gametrees.exercises.lessons.l05_search_enhancements import check_negamax, check_table_search
from gametrees.games import TicTacToe

PACKAGE = Path(gt.__file__).resolve().parent


def _callers(called):
    """The names of the top-level functions of the package that call ``called``."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            calls = isinstance(node, ast.FunctionDef) and any(
                isinstance(n, ast.Call) and getattr(n.func, "id", None) == called for n in ast.walk(node))
            if calls and node.name != called:
                found.add(node.name)
    return found


def _alphabeta_wrong(game, state, alpha, beta):
    return negated_leaves(game, state)


def _negamax_wrong(game, state):      # MAX's value where the player to move's is asked
    return negated_leaves(game, state) * -1


def _one(state):
    return 1


def _last_move(game, state, *rest):
    return game.actions(state)[-1]


def _three(*args, **kwargs):
    return 3


def _half(*args):
    return 0.5


def _with_library(game, state):
    return gt.minimax(game, state).value


class _SignsFlipped(TicTacToe):
    def utility(self, state):
        return -2 * super().utility(state)


# Each caller of checker_feedback, checked once with a wrong function.
WRONG = {
    "check_minimax": lambda: gt.exercises.check_minimax(negated_leaves),
    "check_expectimax": lambda: gt.exercises.check_expectimax(negated_leaves),
    "check_alphabeta": lambda: gt.exercises.check_alphabeta(_alphabeta_wrong),
    "check_evaluation": lambda: gt.exercises.check_evaluation(_one),
    "check_ucb": lambda: gt.exercises.check_ucb(_half),
    "check_negamax": lambda: check_negamax(_negamax_wrong),
    "check_table_search": lambda: check_table_search(careless),
    "check_fast_wins": lambda: check_fast_wins(_SignsFlipped()),
    "check_connect4_evaluation": lambda: check_connect4_evaluation(_one),
    "check_best_move": lambda: classroom.check_best_move(_last_move),
    "check_leaf_count": lambda: classroom.check_leaf_count(_three),
}
# The same checks reached another way: the classroom's wrapper, a function that hands the work to the library.
ALSO = {
    "check_code(check_minimax)": lambda: classroom.check_code(gt.exercises.check_minimax, negated_leaves),
    "check_minimax, the library's search": lambda: gt.exercises.check_minimax(_with_library),
}


@pytest.fixture(autouse=True)
def _fresh_attempts():
    attempts.reset()
    yield
    attempts.reset()


# Helpers that call checker_feedback for a public check.
CHECKED_FOR = {"_check_connect4_evaluation": "check_connect4_evaluation",
               "_check_decisions": "check_best_move"}


def test_every_caller_of_checker_feedback_has_a_case():
    assert {CHECKED_FOR.get(name, name) for name in _callers("checker_feedback")} == set(WRONG)


@pytest.mark.parametrize("name", sorted(WRONG) + sorted(ALSO))
def test_one_wrong_check_leaves_one_attempt_record(name):
    fb = {**WRONG, **ALSO}[name]()
    assert fb.status == "wrong", fb.lines
    records = attempts.counts()
    assert sum(entry["checks"] for entry in records.values()) == 1, records
    assert [entry["wrong"] for entry in records.values()] == [1]
