"""Pig: the rules, the state checks, and expectimax on it against two independent solutions.

The solutions here do not use the engine or ``Pig.successors``: a backward
induction over the turns written from the rules, and value iteration on the
game without a turn limit (the way Pig to 100 was solved by Neller and Presser).
"""

import math
import random

import pytest

import gametrees as gt
from gametrees.games import CHANCE, MAX, MIN, Pig

# ---------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------


def test_a_turn_of_pig():
    game = Pig(target=10, sides=6, turns=30)
    assert repr(game) == "Pig(target=10, sides=6, turns=30)"
    s = game.initial
    assert s == (0, 0, 0, 0, False) and game.to_move(s) == MAX
    assert game.actions(s) == ["roll"]                      # a turn starts with a roll
    rolling = game.result(s, "roll")
    assert game.to_move(rolling) == CHANCE
    assert game.chances(rolling) == [(f, 1 / 6) for f in range(1, 7)]
    assert math.isclose(sum(p for _, p in game.chances(rolling)), 1)
    s = game.result(rolling, 4)
    assert s == (0, 0, 0, 4, False) and game.actions(s) == ["hold", "roll"]
    assert game.result(game.result(s, "roll"), 1) == (1, 0, 0, 0, False)     # a 1 loses the turn total
    assert game.result(game.result(s, "roll"), 3) == (0, 0, 0, 7, False)
    held = game.result(s, "hold")
    assert held == (1, 4, 0, 0, False) and game.to_move(held) == MIN
    # MIN rolls 6, then 5: 11 reaches the target at once, MIN wins
    s = game.result(game.result(held, "roll"), 6)
    end = game.result(game.result(s, "roll"), 5)
    assert end == (2, 4, 11, 0, False)
    assert game.is_terminal(end) and game.utility(end) == -1 and game.actions(end) == []
    assert "MIN wins" in game.display(end)


def test_turn_limit_ends_the_game_by_score():
    game = Pig(target=10, turns=2)
    s = game.result(game.result(game.result(game.initial, "roll"), 5), "hold")   # MAX 5
    s = game.result(game.result(s, "roll"), 1)                                     # MIN busts
    assert s == (2, 5, 0, 0, False) and game.is_terminal(s) and game.utility(s) == 1
    assert game.utility((2, 3, 3, 0, False)) == 0
    assert "a draw" in game.display((2, 3, 3, 0, False))


def test_successors_agree_with_result_on_random_games():
    rng = random.Random(0)
    for target, sides, turns in [(10, 6, 30), (5, 3, 8), (20, 4, 12)]:
        game = Pig(target=target, sides=sides, turns=turns)
        for _ in range(200):
            s = game.initial
            while not game.is_terminal(s):
                assert game.check_state(s) == s
                succ = game.successors(s)
                assert succ == [(m, game.result(s, m)) for m in game.actions(s)]
                if game.to_move(s) == CHANCE:
                    outcomes, weights = zip(*game.chances(s))
                    assert list(outcomes) == game.actions(s)
                    s = game.result(s, rng.choices(outcomes, weights)[0])
                else:
                    s = game.result(s, rng.choice(game.actions(s)))
            assert game.check_state(s) == s and game.successors(s) == []
            assert game.utility(s) in (-1, 0, 1)


@pytest.mark.parametrize("state, error, words", [
    ([0, 0, 0, 0, False], TypeError, "must be a tuple"),
    ((0, 0, 0, 0), ValueError, "tuple of 5 items"),
    ((0, 0, 0, 0, 0), TypeError, "bool rolling"),
    ((0, 1.5, 0, 0, False), TypeError, "int max_score"),
    ((True, 0, 0, 0, False), TypeError, "int turn"),
    ((0, -1, 0, 0, False), ValueError, "max_score must be >= 0"),
    ((31, 0, 0, 0, False), ValueError, "turn must be 0..30"),
    ((0, 4, 2, 6, False), ValueError, "reaches the target 10"),
    ((1, 4, 8, 2, False), ValueError, "MIN's score 8 plus the turn total 2"),
    ((0, 0, 0, 1, False), ValueError, "turn total of 1 is impossible"),
    ((1, 10, 12, 0, False), ValueError, "both players cannot reach the target"),
    ((1, 10, 0, 3, False), ValueError, "the game is over"),
    ((2, 10, 0, 0, False), ValueError, "turn must be odd"),
    ((1, 0, 10, 0, False), ValueError, "turn must be even"),
])
def test_check_state_names_what_is_wrong(state, error, words):
    with pytest.raises(error, match=words):
        Pig(target=10).check_state(state)


def test_bad_moves_are_named():
    game = Pig(target=10)
    with pytest.raises(ValueError, match=r"illegal move 'hold' .* legal moves: \['roll'\]"):
        game.result(game.initial, "hold")
    with pytest.raises(TypeError, match="a move is 'hold' or 'roll', got 3 of type int"):
        game.result((0, 0, 0, 4, False), 3)
    with pytest.raises(ValueError, match="illegal outcome 7"):
        game.result((0, 0, 0, 4, True), 7)
    with pytest.raises(TypeError, match="die face"):
        game.result((0, 0, 0, 4, True), "roll")
    with pytest.raises(ValueError, match="the game is over"):
        game.result((1, 12, 0, 0, False), "roll")
    with pytest.raises(ValueError, match="needs a CHANCE state"):
        game.chances(game.initial)
    with pytest.raises(ValueError, match="needs a terminal state"):
        game.utility(game.initial)


@pytest.mark.parametrize("kwargs, error, words", [
    ({"target": 0}, ValueError, "target must be an int >= 1"),
    ({"sides": 1}, ValueError, "sides must be an int >= 2"),
    ({"turns": 0}, ValueError, "turns must be an int >= 1"),
    ({"target": 2.5}, TypeError, "target must be an int"),
    ({"sides": True}, TypeError, "sides must be an int"),
])
def test_constructor_checks(kwargs, error, words):
    with pytest.raises(error, match=words):
        Pig(**kwargs)


# ---------------------------------------------------------------------------
# Expectimax against independent solutions
# ---------------------------------------------------------------------------


def backward_induction(target, sides, turns):
    """{(turn, a, b, total): value for MAX} for the decision states, from the rules, last turn first."""
    value = {}

    def end(turn, a, b):
        if a >= target or b >= target or turn >= turns:
            return (a > b) - (a < b)
        return value[(turn, a, b, 0)]

    for turn in range(turns - 1, -1, -1):
        maxs = turn % 2 == 0
        for a in range(target):
            for b in range(target):
                mine = a if maxs else b
                # turn totals from high to low: rolling from t only reaches larger totals
                for total in range(target - 1 - mine, -1, -1):
                    if total == 1:
                        continue
                    roll = end(turn + 1, a, b) / sides        # a 1: the turn passes, nothing banked
                    for face in range(2, sides + 1):
                        t = total + face
                        if mine + t >= target:
                            roll += (1 if maxs else -1) / sides
                        else:
                            roll += value[(turn, a, b, t)] / sides
                    if total == 0:
                        v = roll
                    else:
                        hold = end(turn + 1, a + total, b) if maxs else end(turn + 1, a, b + total)
                        v = max(roll, hold) if maxs else min(roll, hold)
                    value[(turn, a, b, total)] = v
    return value


@pytest.mark.parametrize("target, sides, turns", [(5, 3, 8), (6, 4, 7), (8, 2, 9)])
def test_expectimax_equals_backward_induction(target, sides, turns):
    game = Pig(target=target, sides=sides, turns=turns)
    truth = backward_induction(target, sides, turns)
    table = {}
    r = gt.expectimax(game, table=table, trace=False)
    assert math.isclose(r.value, truth[(0, 0, 0, 0)], abs_tol=1e-12)
    rng = random.Random(1)
    for (turn, a, b, total), v in rng.sample(sorted(truth.items()), 60):
        got = gt.expectimax(game, (turn, a, b, total, False), table=table, trace=False)
        assert math.isclose(got.value, v, abs_tol=1e-12)
        if total:   # the move played is one that reaches the value
            after = game.result((turn, a, b, total, False), got.move)
            assert math.isclose(gt.expectimax(game, after, table=table, trace=False).value, v, abs_tol=1e-12)


def value_iteration(target, sides, sweeps=2000, tol=1e-13):
    """P(the player to move wins) in Pig without a turn limit: p[(mine, theirs, total)]."""
    states = [(i, j, k) for i in range(target) for j in range(target) for k in range(target - i) if k != 1]
    p = dict.fromkeys(states, 0.5)
    for _ in range(sweeps):
        change = 0.0
        for i, j, k in states:
            roll = (1 - p[(j, i, 0)]) / sides
            for face in range(2, sides + 1):
                roll += (1 if i + k + face >= target else p[(i, j, k + face)]) / sides
            new = roll if k == 0 else max(roll, 1 - p[(j, i + k, 0)])
            change = max(change, abs(new - p[(i, j, k)]))
            p[(i, j, k)] = new
        if change < tol:
            return p
    raise AssertionError("value iteration did not converge")


@pytest.mark.parametrize("target, sides", [(6, 3), (8, 4)])
def test_expectimax_with_a_far_turn_limit_approaches_value_iteration(target, sides):
    p = value_iteration(target, sides)
    previous = None
    for turns in (20, 40, 80):
        v = gt.expectimax(Pig(target=target, sides=sides, turns=turns), table=True, trace=False).value
        gap = abs(v - (2 * p[(0, 0, 0)] - 1))     # P(win) - P(lose), draws vanish as the limit grows
        if previous is not None:
            assert gap <= previous
        previous = gap
    assert previous < 1e-6
