"""Exact values of small Connect Four boards, three independent ways.

The engine's alpha-beta with a transposition table, centre-first ordering and
mirror symmetry (the solver of benchmarks/solve_connect4.py) is checked
against the engine's plain minimax and against a separate solver written here
on column strings, which shares no code with gametrees.  Larger boards are
solved by the benchmark script, not here.
"""

import pytest

import gametrees as gt
from gametrees.games import ConnectFour


def reference_value(rows, cols, k):
    """X's value of the empty board: memoized minimax on a tuple of column strings."""

    def line_through(columns, col, row, mark):
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                c, r = col + sign * dc, row + sign * dr
                while 0 <= c < cols and 0 <= r < len(columns[c]) and columns[c][r] == mark:
                    run += 1
                    c, r = c + sign * dc, r + sign * dr
            if run >= k:
                return True
        return False

    memo = {}

    def value(columns, x_to_move):
        if columns in memo:
            return memo[columns]
        mark = "X" if x_to_move else "O"
        best = None
        for c in range(cols):
            if len(columns[c]) < rows:
                new = columns[:c] + (columns[c] + mark,) + columns[c + 1:]
                if line_through(new, c, len(columns[c]), mark):
                    v = 1 if x_to_move else -1
                elif all(len(column) == rows for column in new):
                    v = 0
                else:
                    v = value(new, not x_to_move)
                if best is None or (v > best if x_to_move else v < best):
                    best = v
        memo[columns] = best
        return best

    return value(("",) * cols, True)


def solve(game):
    return gt.alphabeta(game, table=True, order=game.centre_first, symmetry=True)


BOARDS = [(2, 2, 2), (3, 3, 3), (3, 4, 3), (4, 3, 3), (4, 4, 3), (3, 5, 3), (5, 3, 3), (4, 4, 4)]


@pytest.mark.slow
@pytest.mark.parametrize("rows, cols, k", BOARDS)
def test_solver_matches_minimax_and_the_reference(rows, cols, k):
    game = ConnectFour(rows, cols, k)
    solved = solve(game)
    assert solved.value == gt.minimax(game, table=True).value == reference_value(rows, cols, k)
    # the solver's move keeps the value
    child = game.result(game.initial, solved.move)
    assert gt.minimax(game, child, table=True, symmetry=True).value == solved.value


@pytest.mark.parametrize("rows, cols, k", [(3, 3, 3), (2, 4, 2), (3, 3, 2)])
def test_solver_matches_minimax_without_a_table(rows, cols, k):
    game = ConnectFour(rows, cols, k)
    plain = gt.minimax(game)
    assert solve(game).value == plain.value == reference_value(rows, cols, k)
    assert plain.stats["tt_hits"] == 0


def test_the_enhancements_change_the_work_not_the_value():
    game = ConnectFour(4, 4, 4)
    runs = [solve(game),
            gt.alphabeta(game, table=True, order=game.centre_first),
            gt.alphabeta(game, table=True),
            gt.negamax(game, table=True, order=game.centre_first, symmetry=True)]
    assert len({r.value for r in runs}) == 1
    with_mirror, without = (r.stats["nodes_visited"] for r in runs[:2])
    assert with_mirror < without  # folding mirror images together saves work


def test_values_of_positions_along_a_game():
    game = ConnectFour(4, 4, 4)
    for moves in ([1, 2], [0, 0, 3], [1, 2, 1, 2, 0]):
        state = game.from_moves(moves)
        assert solve_from(game, state) == gt.minimax(game, state, table=True).value


def solve_from(game, state):
    return gt.alphabeta(game, state, table=True, order=game.centre_first, symmetry=True).value
