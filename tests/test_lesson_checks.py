"""The checks the lessons' exercises call: right answers pass, typical mistakes are named."""

import math

import gametrees as gt
from gametrees import exercises as ex
from gametrees.games import MAX

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


def negamax_value(game, state):
    if game.is_terminal(state):
        return (1 if game.to_move(state) == MAX else -1) * game.utility(state)
    return max(-negamax_value(game, c) for _, c in game.successors(state))


def forgetful_negamax(game, state):
    if game.is_terminal(state):
        return game.utility(state)
    return max(-forgetful_negamax(game, c) for _, c in game.successors(state))


def test_check_negamax():
    assert ex.check_negamax(negamax_value).ok
    fb = ex.check_negamax(forgetful_negamax)
    assert not fb.ok and "the utility from MAX's point of view" in repr(fb)


def test_check_order_preserving_flip():
    T = gt.tree_from_nested([{"chance": [4, 4]}, {"chance": [7, 0]}])
    assert ex.check_order_preserving_flip(T, lambda v: v * v).ok
    assert "still chooses" in repr(ex.check_order_preserving_flip(T, lambda v: v + 1))
    assert "does not keep the order" in repr(ex.check_order_preserving_flip(T, lambda v: -v))


# ---------------------------------------------------------------------------
# Lesson 06: the reasoning exercises (gametrees/exercises/lessons/l06_expectimax.py; lesson 07's:
# test_mcts_exercise.py)
# ---------------------------------------------------------------------------

QUIZ = [{"chance": [1, 9]}, {"chance": [4, 5]}]
RESCALINGS = {
    "2v + 7": lambda v: 2 * v + 7,
    "v squared": lambda v: v ** 2,
    "square root": math.sqrt,
    "10 - v": lambda v: 10 - v,
}
RIGHT = {"2v + 7": "B", "v squared": "B", "square root": "C", "10 - v": "C"}


def test_check_rescaled_choices_unanswered_says_only_that():
    T = gt.tree_from_nested(QUIZ)
    for empty in (None, {}, dict.fromkeys(RESCALINGS), {"2v + 7": " "}):
        fb = ex.check_rescaled_choices(T, RESCALINGS, empty)
        assert not fb.ok and fb.title == "Expectimax after rescaling: not answered yet."
        # no answer given away
        assert len(fb.lines) == 1 and "average" not in repr(fb) and "'B'" not in repr(fb)


def test_check_rescaled_choices_cannot_be_read():
    fb = ex.check_rescaled_choices(gt.tree_from_nested(QUIZ), RESCALINGS, "B")
    assert not fb.ok and "could not be read" in fb.title


