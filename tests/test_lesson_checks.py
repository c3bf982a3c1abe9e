"""The checks the lessons' exercises call: right answers pass, typical mistakes are named."""

import math

import pytest

import gametrees as gt
from gametrees import exercises as ex
from gametrees.games import MAX, ConnectFour, TicTacToe

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


def test_check_value():
    T = gt.tree_from_nested(TEXTBOOK, root_player="min")
    assert ex.check_value(T, 6).ok
    fb = ex.check_value(T, 3)
    assert not fb.ok and "MIN node whose children are worth B = 12, C = 6, D = 14" in fb.lines[0]
    assert "not answered" in repr(ex.check_value(T, None))


def test_check_game_kinds():
    right = {"chess": ("deterministic", "perfect"), "backgammon": ("chance", "perfect"),
             "poker": ("chance", "hidden"), "Battleship": ("deterministic", "hidden")}
    assert ex.check_game_kinds(right).ok
    fb = ex.check_game_kinds({**right, "backgammon": ("deterministic", "perfect"), "Battleship": ("chance", "hidden")})
    assert fb.score == (2, 4)
    assert any("backgammon: chance, not deterministic" in line for line in fb.lines)
    assert any("nothing random happens after the ships are placed" in line for line in fb.lines)
    assert ex.check_game_kinds({"poker": ("hidden", "chance")}).ok  # either order
    assert not ex.check_game_kinds({"chess": "deterministic"}).ok


class FastTicTacToe(TicTacToe):
    def utility(self, state):
        return super().utility(state) * (1 + 9 - (state[0] | state[1]).bit_count())


class PlainTicTacToe(TicTacToe):
    pass


class DrawsOnlyTicTacToe(TicTacToe):
    """Changed, but wrongly: every win and loss worth 2 and -2, whenever it happens."""

    def utility(self, state):
        return 2 * super().utility(state)


class SlowLossTicTacToe(TicTacToe):
    def utility(self, state):
        base = super().utility(state)
        return base * (1 + 9 - (state[0] | state[1]).bit_count()) if base > 0 else base


def test_check_fast_wins():
    assert ex.check_fast_wins(FastTicTacToe()).ok
    fb = ex.check_fast_wins(PlainTicTacToe())  # the lesson's starter: the plain utility, unchanged
    assert not fb.ok and fb.title == "check_fast_wins: not answered yet."
    assert "1 + " not in repr(fb) and "empty cells" not in repr(fb)  # nothing of the answer given away
    fb = ex.check_fast_wins(DrawsOnlyTicTacToe())
    assert not fb.ok and "quicker wins should score more" in repr(fb)
    assert "minimax with your utility plays" in repr(fb)
    assert "Multiply" not in repr(fb)  # a nudge, not the solution
    fb = ex.check_fast_wins(SlowLossTicTacToe())
    assert not fb.ok and "quicker loss should score lower" in repr(fb)
    with pytest.raises(TypeError, match="TicTacToe"):
        ex.check_fast_wins(ConnectFour())


def test_check_win_depth():
    c4 = ConnectFour(4, 5, 3)
    state = c4.from_moves([2, 2, 1])
    depth = next(d for d in range(1, 10)
                 if gt.alphabeta(c4, state, depth=d, evaluate=lambda s: 0).value in (1, -1))
    assert ex.check_win_depth(c4, state, depth).ok
    assert "cannot prove it yet" in repr(ex.check_win_depth(c4, state, depth - 1))
    assert not ex.check_win_depth(c4, state, depth + 2).ok


def test_check_after_two_moves():
    game = TicTacToe()
    after = {s2 for _, s1 in game.successors(game.initial) for _, s2 in game.successors(s1)}
    classes = {game.canonical(s) for s in after}
    assert ex.check_after_two_moves(after, classes).ok
    fb = ex.check_after_two_moves(after, after)
    assert "map each through game.canonical" in repr(fb)
    assert not ex.check_after_two_moves(None, None).ok


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
# Lesson 06: the reasoning exercises (gametrees/exercises/lessons/l06_expectimax.py; lesson 07's: test_mcts_exercise.py)
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
        assert len(fb.lines) == 1 and "average" not in repr(fb) and "'B'" not in repr(fb)   # no answer given away


def test_check_rescaled_choices_right_partial_and_each_wrong_way():
    T = gt.tree_from_nested(QUIZ)
    fb = ex.check_rescaled_choices(T, RESCALINGS, dict(RIGHT))
    assert fb.ok and fb.score == (4, 4)
    assert "square root: C (B averages 2, C averages 2.118)" in repr(fb)
    # partial: two answered (right), two blank
    fb = ex.check_rescaled_choices(T, RESCALINGS, {"2v + 7": "b", "v squared": "B"})
    assert not fb.ok and fb.score == (2, 4)
    assert fb.lines[2] == "✗ square root: not answered yet." and "averages" not in fb.lines[2]
    # wrong on the affine change: the hint says an affine change never moves the choice
    fb = ex.check_rescaled_choices(T, RESCALINGS, dict(RIGHT, **{"2v + 7": "C"}))
    assert "2v + 7: you wrote C, but after the change B averages 17, C averages 16, so expectimax picks B." \
        in repr(fb)
    assert "positive affine change" in fb.hints[0] and "stays B" in fb.hints[0]
    # wrong on the order-keeping, non-affine change
    fb = ex.check_rescaled_choices(T, RESCALINGS, dict(RIGHT, **{"square root": "B"}))
    assert "B averages 2, C averages 2.118, so expectimax picks C" in repr(fb)
    assert "keeps the order of the leaves but is not affine" in fb.hints[0]
    # wrong on the order-reversing affine change
    fb = ex.check_rescaled_choices(T, RESCALINGS, dict(RIGHT, **{"10 - v": "B"}))
    assert "negative number" in fb.hints[0]
    # not a child
    fb = ex.check_rescaled_choices(T, RESCALINGS, dict(RIGHT, **{"v squared": "D"}))
    assert "'D' is not a child of the root; the choices are B, C." in repr(fb)
    # the feedback's averages are the engine's
    for name, f in RESCALINGS.items():
        H = T.copy()
        for n in H:
            if not H.out_degree(n):
                H.nodes[n]["utility"] = f(H.nodes[n]["utility"])
        assert T.nodes[gt.expectimax(H).move]["label"] == RIGHT[name]


def test_check_rescaled_choices_cannot_be_read():
    fb = ex.check_rescaled_choices(gt.tree_from_nested(QUIZ), RESCALINGS, "B")
    assert not fb.ok and "could not be read" in fb.title


def test_check_order_preserving_flip_hint_points_the_right_way():
    gamble = gt.tree_from_nested([{"chance": [5, 5]}, {"chance": [12, 0]}])   # the gamble C wins
    fb = ex.check_order_preserving_flip(gamble, lambda v: v)
    assert fb.title == "Order-preserving flip: not answered yet." and len(fb.lines) == 1   # the starter f
    assert ex.check_order_preserving_flip(gamble, None).title == fb.title
    fb = ex.check_order_preserving_flip(gamble, lambda v: v + 1)
    assert "The largest leaf, 12, is under C" in repr(fb) and "closer together" in repr(fb)
    assert ex.check_order_preserving_flip(gamble, math.sqrt).ok
    safe = gt.tree_from_nested([{"chance": [4, 4]}, {"chance": [7, 0]}])      # the safe B wins
    assert "further apart" in repr(ex.check_order_preserving_flip(safe, lambda v: 2 * v))
    deep = gt.tree_from_nested([{"chance": [5, [5, 6]]}, {"chance": [[12, 1], 0]}])
    fb = ex.check_order_preserving_flip(deep, lambda v: v - 1)
    assert "change how far apart the values are" in repr(fb) and "closer" not in repr(fb)


def test_check_nim_leaves_each_way():
    assert [ex.check_nim_leaves(n, leaves).ok for n, leaves in [(1, 1), (2, 2), (3, 4), (4, 7), (5, 13)]] == [True] * 5
    assert gt.minimax(gt.Nim(5)).stats["leaves_evaluated"] == 13
    fb = ex.check_nim_leaves(5, 13)
    assert "L(5) = L(4) + L(3) + L(2) = 7 + 4 + 2 = 13" in repr(fb)
    for empty in (None, "", " "):
        fb = ex.check_nim_leaves(5, empty)
        assert not fb.ok and fb.title.endswith("not answered yet.") and "13" not in repr(fb)
    assert "could not be read" in ex.check_nim_leaves(5, "thirteen").title
    assert "could not be read" in ex.check_nim_leaves(5, True).title
    assert "the number of all nodes of the tree" in repr(ex.check_nim_leaves(5, 28))      # 28 nodes
    assert "13" not in repr(ex.check_nim_leaves(5, 28))
    assert "3^5" in repr(ex.check_nim_leaves(5, 243)) and "fewer than 3 moves" in repr(ex.check_nim_leaves(5, 243))
    assert "2^4" in repr(ex.check_nim_leaves(5, 16)) and "at most 3" in repr(ex.check_nim_leaves(5, 16))
    fb = ex.check_nim_leaves(5, 12)
    assert not fb.ok and "L(n) = L(n - 1) + L(n - 2) + L(n - 3)" in repr(fb) and "13" not in repr(fb)


def test_check_effective_branching_each_way():
    stats = gt.minimax(gt.Nim(7)).stats
    N, L = stats["nodes_visited"], stats["leaves_evaluated"]
    assert (N, L) == (96, 44)
    b = L ** (1 / 7)
    fb = ex.check_effective_branching(7, b)
    assert fb.ok and "b* = 44^(1/7) = 1.717" in repr(fb) and math.isclose(b ** 7, 44)
    assert ex.check_effective_branching(7, 1.717).ok                     # rounded is fine
    for empty in (None, ""):
        fb = ex.check_effective_branching(7, empty)
        assert not fb.ok and fb.title.endswith("not answered yet.") and "1.717" not in repr(fb)
    fb = ex.check_effective_branching(7, (N - 1) / (N - L))
    assert "the average number of moves of an inner node" in repr(fb)
    assert f"{(N - 1) / (N - L):.3f}^7 ≈ {((N - 1) / (N - L)) ** 7:.0f} leaves, not 44" in repr(fb)
    assert "from the number of nodes" in repr(ex.check_effective_branching(7, N ** (1 / 7)))
    assert "3^7 = 2187" in repr(ex.check_effective_branching(7, 3))
    assert "not a quotient" in repr(ex.check_effective_branching(7, 44 / 7))
    fb = ex.check_effective_branching(7, 2)
    assert not fb.ok and "2^7 ≈ 128 leaves, but the game has 44" in repr(fb)
    assert "44^7 ≈ 319,277,809,664 leaves" in repr(ex.check_effective_branching(7, 44))
    assert "1e+50^7 ≈ more than 10^300 leaves" in repr(ex.check_effective_branching(7, 1e50))   # no OverflowError
    for wrong in (0, -2):
        fb = ex.check_effective_branching(7, wrong)
        assert not fb.ok and "it is positive" in repr(fb) and "leaves, but" not in repr(fb)


def test_check_game_kinds_unanswered_and_partial():
    fb = ex.check_game_kinds({"backgammon": None, "poker": None})
    assert fb.title == "Kinds of games: not answered yet." and len(fb.lines) == 1 and "chance" not in fb.lines[0]
    fb = ex.check_game_kinds({"backgammon": ("chance", "perfect"), "poker": None})
    assert fb.score == (1, 2) and fb.lines[1] == "✗ poker: not answered yet."
