"""Learners' mistaken functions, each showing one misconception, that the tests give to the checks.

Written once here and shared by the test files that check how the feedback reads them
(tests/test_exercises.py, test_feedback_rules.py, test_lesson_checks_search.py, test_lessons_04_06.py).
Each is the plain, wrong program a learner writes; none is a reference.
"""

import math


def draw_is_loss(game, state):  # misconception 2
    if game.is_terminal(state):
        u = game.utility(state)
        return -1 if u == 0 else u
    values = [draw_is_loss(game, game.result(state, m)) for m in game.actions(state)]
    return max(values) if game.to_move(state) == "max" else min(values)


def negated_leaves(game, state):  # misconception 2 / 16
    if game.is_terminal(state):
        return -game.utility(state)
    values = [negated_leaves(game, game.result(state, m)) for m in game.actions(state)]
    return max(values) if game.to_move(state) == "max" else min(values)


def leaky(game, state):  # misconception 3: make without unmake on mutable states
    if game.is_terminal(state):
        return game.utility(state)
    values = []
    for m in game.actions(state):
        if isinstance(state, list):
            game.make(state, m)
            values.append(leaky(game, state))
        else:
            values.append(leaky(game, game.result(state, m)))
    return max(values) if game.to_move(state) == "max" else min(values)


def careless(game, state, alpha, beta, table):  # lesson 05: a table entry used as exact though it is a bound
    if state in table:
        return table[state]
    if game.is_terminal(state):
        return (1 if game.to_move(state) == "max" else -1) * game.utility(state)
    value = -math.inf
    for _, child in game.successors(state):
        value = max(value, -careless(game, child, -beta, -alpha, table))
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    table[state] = value
    return value



def _solution_with(old, new):
    """Lesson 05's solution of exercise 4 with one slip: ``old`` replaced by ``new`` in its code."""
    from gametrees.exercises.lessons.l05_search_enhancements import TABLE_SEARCH_CODE

    assert TABLE_SEARCH_CODE.count(old) == 1, old
    space = {"math": math, "MAX": "max"}
    exec(TABLE_SEARCH_CODE.replace(old, new), space)  # noqa: S102 -- the lesson's code with a learner's slip
    return space["negamax_with_table"]


# lesson 05: the flag compared with the α the loop raised (a fail-high stored as "upper")
flag_from_raised_alpha = _solution_with(
    '"lower" if value >= beta0 else "upper" if value <= alpha0 else "exact"',
    '"upper" if value <= alpha else "lower" if value >= beta0 else "exact"')
