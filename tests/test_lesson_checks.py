"""The checks the lessons' exercises call: right answers pass, typical mistakes are named."""

import math

import pytest

import gametrees as gt
from gametrees import exercises as ex
from gametrees.games import MAX, MIN, ConnectFour, TicTacToe

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


def test_check_value():
    T = gt.tree_from_nested(TEXTBOOK, root_player="min")
    assert ex.check_value(T, 6).ok
    fb = ex.check_value(T, 3)
    assert not fb.ok and "MIN node whose children are worth B = 12, C = 6, D = 14" in fb.lines[0]
    assert "not answered" in repr(ex.check_value(T, None))


def count_leaves(game, state):
    if game.is_terminal(state):
        return 1
    return sum(count_leaves(game, game.result(state, m)) for m in game.actions(state))


def count_nodes(game, state):
    if game.is_terminal(state):
        return 1
    return 1 + sum(count_nodes(game, game.result(state, m)) for m in game.actions(state))


def test_check_count_leaves():
    assert ex.check_count_leaves(count_leaves).ok
    fb = ex.check_count_leaves(count_nodes)
    assert not fb.ok and "which is every node of the tree" in repr(fb)
    fb = ex.check_count_leaves(lambda game, state: 0)
    assert not fb.ok and "but there are" in repr(fb)
    assert "could not be called" in repr(ex.check_count_leaves(lambda game: 0))


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


def test_check_average_branching():
    stats = gt.minimax(TicTacToe()).stats
    n, leaves = stats["nodes_visited"], stats["leaves_evaluated"]
    assert ex.check_average_branching((n - 1) / (n - leaves)).ok
    assert "inner nodes only" in repr(ex.check_average_branching((n - 1) / n))
    assert "near the start of the game" in repr(ex.check_average_branching(9))


class FastTicTacToe(TicTacToe):
    def utility(self, state):
        return super().utility(state) * (1 + 9 - (state[0] | state[1]).bit_count())


class PlainTicTacToe(TicTacToe):
    pass


class SlowLossTicTacToe(TicTacToe):
    def utility(self, state):
        base = super().utility(state)
        return base * (1 + 9 - (state[0] | state[1]).bit_count()) if base > 0 else base


def test_check_fast_wins():
    assert ex.check_fast_wins(FastTicTacToe()).ok
    fb = ex.check_fast_wins(PlainTicTacToe())
    assert not fb.ok and "quicker wins should score more" in repr(fb)
    assert "minimax with your utility plays" in repr(fb)
    fb = ex.check_fast_wins(SlowLossTicTacToe())
    assert not fb.ok and "quicker loss should score lower" in repr(fb)
    with pytest.raises(TypeError, match="TicTacToe"):
        ex.check_fast_wins(ConnectFour())


def test_check_ordering_counts():
    assert ex.check_ordering_counts(4, 6, 127, 4096).ok
    fb = ex.check_ordering_counts(4, 6, 2048, 4096)
    assert not fb.ok and "Pruning does not halve the work" in repr(fb)
    fb = ex.check_ordering_counts(4, 6, 127, 1000)
    assert "no cutoff ever happens" in repr(fb)


def depth_limited(game, state, depth, evaluate):
    if game.is_terminal(state):
        return game.utility(state)
    if depth == 0:
        return evaluate(state)
    values = [depth_limited(game, game.result(state, m), depth - 1, evaluate) for m in game.actions(state)]
    return max(values) if game.to_move(state) == MAX else min(values)


def hasty(game, state, depth, evaluate):
    if depth == 0:
        return evaluate(state)
    if game.is_terminal(state):
        return game.utility(state)
    values = [hasty(game, game.result(state, m), depth - 1, evaluate) for m in game.actions(state)]
    return max(values) if game.to_move(state) == MAX else min(values)


def test_check_depth_limited():
    assert ex.check_depth_limited(depth_limited).ok
    fb = ex.check_depth_limited(hasty)
    assert not fb.ok and "returns the evaluation instead of its utility" in repr(fb)


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


def test_check_careless_table():
    game = TicTacToe()
    state = game.from_string("X../.O./...")
    true = gt.minimax(game, state).value
    assert ex.check_careless_table(state, true + 1 if true < 1 else 0, true).ok
    assert not ex.check_careless_table(state, true, true).ok


def test_check_order_preserving_flip():
    T = gt.tree_from_nested([{"chance": [4, 4]}, {"chance": [7, 0]}])
    assert ex.check_order_preserving_flip(T, lambda v: v * v).ok
    assert "still chooses" in repr(ex.check_order_preserving_flip(T, lambda v: v + 1))
    assert "does not keep the order" in repr(ex.check_order_preserving_flip(T, lambda v: -v))


def test_check_final_move():
    visits = {"a": (1, 1), "b": (990, 700), "c": (9, 3)}
    assert ex.check_final_move(visits, "b").ok
    assert "mostly luck" in repr(ex.check_final_move(visits, "a"))


def test_check_mcts_catches_the_fixed_viewpoint():
    from gametrees.mcts import uct_search  # noqa: F401  (the package's MCTS exists)

    def by_engine(game, state, iterations, seed):
        agent = gt.MCTSAgent(playouts=iterations, seed=seed)
        return agent(game, state), agent.last_visits

    assert ex.check_mcts(by_engine).ok

    def always_first(game, state, iterations, seed):
        return game.actions(state)[0], {}

    fb = ex.check_mcts(always_first)
    assert not fb.ok and "can win at once" in repr(fb)
