"""Tests of the game rules in gametrees.games.

Every number checked here is computed in the test by an independent recursion or a
reference implementation (a plain grid for Connect Four, closed forms for Nim and the
dice game); the games module never contains these answers.
"""

import math
import sys
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametrees.games import (
    CHANCE,
    MAX,
    MIN,
    ConnectFour,
    DiceGame,
    Game,
    Nim,
    TicTacToe,
)

# ---------------------------------------------------------------------------
# Helpers shared by the tests
# ---------------------------------------------------------------------------


def minimax(game, state):
    """A test-local minimax over the protocol (independent of gametrees.search)."""
    if game.is_terminal(state):
        return game.utility(state)
    values = [minimax(game, child) for _, child in game.successors(state)]
    return max(values) if game.to_move(state) == MAX else min(values)


def random_playout(game, choices):
    """Play from the start, picking move ``c % len(moves)`` for each ``c``.

    Returns the list of states visited (the start state first).
    """
    state = game.initial
    states = [state]
    for c in choices:
        moves = game.actions(state)
        if not moves:
            break
        state = game.result(state, moves[c % len(moves)])
        states.append(state)
    return states


def check_protocol_consistency(game, state):
    """actions/result/successors/is_terminal/to_move agree with each other."""
    moves = game.actions(state)
    pairs = game.successors(state)
    assert [m for m, _ in pairs] == moves
    for move, child in pairs:
        assert game.result(state, move) == child
        hash(child)
    assert game.is_terminal(state) == (moves == [])
    assert game.to_move(state) in (MAX, MIN, CHANCE)
    if game.is_terminal(state):
        game.utility(state)  # defined
    else:
        with pytest.raises(ValueError, match="terminal"):
            game.utility(state)


# ---------------------------------------------------------------------------
# The protocol base class
# ---------------------------------------------------------------------------


class Countdown(Game):
    """A two-move toy game written against the base class only."""

    initial = 2

    def to_move(self, state):
        return MAX if state % 2 == 0 else MIN

    def actions(self, state):
        return [1] if state > 0 else []

    def result(self, state, move):
        return state - move

    def is_terminal(self, state):
        return state == 0

    def utility(self, state):
        return 0


def test_constants():
    assert (MAX, MIN, CHANCE) == ("max", "min", "chance")


def test_base_class_defaults():
    game = Countdown()
    assert game.successors(2) == [(1, 1)]
    assert game.successors(0) == []
    assert game.canonical(2) == 2
    assert game.display(2) == "2"
    with pytest.raises(ValueError, match="CHANCE"):
        game.chances(2)
    assert repr(game) == "Countdown()"


def test_base_class_methods_must_be_defined():
    game = Game()
    for call in (
        lambda: game.to_move(0),
        lambda: game.actions(0),
        lambda: game.result(0, 1),
        lambda: game.is_terminal(0),
        lambda: game.utility(0),
    ):
        with pytest.raises(NotImplementedError, match="Game must define"):
            call()


# ---------------------------------------------------------------------------
# Tic-tac-toe
# ---------------------------------------------------------------------------

TTT = TicTacToe()
S = TicTacToe.from_string


def count_tree(game, state):
    """(nodes, terminal nodes) of the full game tree below ``state``."""
    if game.is_terminal(state):
        return 1, 1
    nodes, leaves = 1, 0
    for _, child in game.successors(state):
        n, below = count_tree(game, child)
        nodes += n
        leaves += below
    return nodes, leaves


def reachable(game):
    """All states reachable from the start (depth-first, iterative)."""
    seen = {game.initial}
    stack = [game.initial]
    while stack:
        for _, child in game.successors(stack.pop()):
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return seen


@pytest.fixture(scope="module")
def ttt_reachable():
    return reachable(TTT)


def test_tictactoe_full_tree_counts():
    assert count_tree(TTT, TTT.initial) == (549_946, 255_168)


def test_tictactoe_value_is_a_draw():
    assert minimax(TTT, TTT.initial) == 0


def test_tictactoe_reachable_and_canonical_counts(ttt_reachable):
    assert TTT.initial in ttt_reachable
    assert len(ttt_reachable) == 5_478
    assert len({TTT.canonical(s) for s in ttt_reachable}) == 765


def test_from_string_accepts_exactly_the_reachable_positions(ttt_reachable):
    accepted = set()
    for cells in product("XO.", repeat=9):
        text = "/".join("".join(cells[r * 3:r * 3 + 3]) for r in range(3))
        try:
            accepted.add(S(text))
        except ValueError:
            pass
    assert accepted == ttt_reachable


def test_tictactoe_state_layout_and_turns():
    assert TTT.initial == (0, 0)
    state = S("X.O/.X./...")
    assert state == (1 << 0 | 1 << 4, 1 << 2)
    assert TTT.to_move(TTT.initial) == MAX
    assert TTT.to_move(S("X../.../...")) == MIN
    assert TTT.to_move(state) == MIN
    assert TTT.actions(state) == [1, 3, 5, 6, 7, 8]


def test_tictactoe_string_round_trip_and_display():
    text = "XOX/.O./X.."
    state = S(text)
    assert TicTacToe.to_string(state) == text
    assert TTT.display(state) == "XOX\n.O.\nX.."
    assert S(TTT.display(state)) == state  # display output reads back
    assert S(" x.o / .x. / ... ") == S("X.O/.X./...")
    assert TTT.display(TTT.initial).splitlines() == ["..."] * 3


@pytest.mark.parametrize(
    "text, message",
    [
        ("X.O/.X.", "3 rows of 3 cells"),
        ("X.O/.X./..../", "3 rows of 3 cells"),
        ("X.O/.X/...", "3 rows of 3 cells"),
        ("X.O.X....", "3 rows of 3 cells"),
        ("X.O/.Z./...", "bad character 'Z' at row 1, column 1"),
        ("X.0/.../...", "bad character '0'"),
        ("XX./.../...", "X has 2 marks and O has 0"),
        ("O../.../...", "X has 0 marks and O has 1"),
        ("XXX/OOO/X..", "both X and O have three in a row"),
        ("XXX/OO./O..", "X has three in a row but O moved afterwards"),
        ("OOO/XX./X.X", "O has three in a row but X moved afterwards"),
    ],
)
def test_from_string_rejects_bad_text(text, message):
    with pytest.raises(ValueError, match=message):
        S(text)


def test_from_string_needs_a_string():
    with pytest.raises(TypeError, match="needs a str"):
        S(["X", ".", "."])


def test_tictactoe_wins_and_draws():
    assert TTT.utility(S("XXX/OO./...")) == 1
    assert TTT.utility(S("X.X/OOO/X..")) == -1
    assert TTT.utility(S("X.O/.XO/..X")) == 1  # diagonal
    assert TTT.utility(S("X.O/XO./O.X")) == -1  # anti-diagonal
    assert TTT.utility(S("XOX/XOO/OXX")) == 0
    assert TTT.is_terminal(S("XOX/XOO/OXX"))
    assert TTT.actions(S("XXX/OO./...")) == []
    assert TTT.successors(S("XXX/OO./...")) == []
    with pytest.raises(ValueError, match="not over"):
        TTT.utility(S("X../.../..."))


def test_tictactoe_illegal_moves():
    state = S("X../.O./...")
    with pytest.raises(ValueError) as info:
        TTT.result(state, 4)
    message = str(info.value)
    assert "illegal move 4" in message
    assert "'X../.O./...'" in message
    assert "cell 4 is already taken" in message
    assert "legal moves: [1, 2, 3, 5, 6, 7, 8]" in message
    with pytest.raises(ValueError, match=r"illegal move 9 .*cell index 0..8"):
        TTT.result(state, 9)
    with pytest.raises(ValueError, match=r"illegal move -1 "):
        TTT.result(state, -1)
    with pytest.raises(ValueError, match="game is over"):
        TTT.result(S("XXX/OO./..."), 8)


@pytest.mark.parametrize("move", ["4", 4.0, None, True, (1, 1)])
def test_tictactoe_wrongly_typed_moves(move):
    with pytest.raises(TypeError, match="tic-tac-toe move .* must be an int"):
        TTT.result(TTT.initial, move)


@pytest.mark.parametrize(
    "state, error",
    [
        ("X........", TypeError),
        ((1, 2, 3), ValueError),
        ((1.0, 0), TypeError),
        ((512, 0), ValueError),
        ((3, 1), ValueError),  # overlapping bits
        ((0, 1), ValueError),  # O moved first
    ],
)
def test_tictactoe_rejects_malformed_states(state, error):
    with pytest.raises(error):
        TTT.result(state, 4)


def test_tictactoe_accepts_integer_like_moves():
    class Cell:
        def __index__(self):
            return 4

    assert TTT.result(TTT.initial, Cell()) == S(".../.X./...")


def test_centre_first():
    moves = list(range(9))
    assert TicTacToe.centre_first(TTT.initial, moves) == [4, 0, 2, 6, 8, 1, 3, 5, 7]
    # stable within a class: corners and edges keep the order they were given in
    assert TicTacToe.centre_first(TTT.initial, [7, 8, 1, 4, 0]) == [4, 8, 0, 7, 1]
    pairs = TTT.successors(S("X../.../..."))
    ordered = TTT.centre_first(S("X../.../..."), pairs)
    assert [m for m, _ in ordered] == [4, 2, 6, 8, 1, 3, 5, 7]
    assert sorted(ordered) == sorted(pairs)


def test_symmetries():
    state = S("XO./..X/...")  # no symmetry: 8 different images
    images = TicTacToe.symmetries(state)
    assert len(images) == 8 and len(set(images)) == 8
    assert images[0] == state
    assert TicTacToe.to_string(images[1]) == "..X/..O/.X."  # 90 degrees clockwise
    assert TicTacToe.to_string(images[4]) == ".OX/X../..."  # mirror left-right
    # The 8 images are closed under the symmetries: they form one orbit.
    for image in images:
        assert set(TicTacToe.symmetries(image)) == set(images)
    assert TTT.canonical(state) == min(images)
    centre = S(".../.X./...")
    assert set(TicTacToe.symmetries(centre)) == {centre}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 8), max_size=9))
def test_tictactoe_random_playouts(choices):
    for state in random_playout(TTT, choices):
        assert S(TicTacToe.to_string(state)) == state  # a legal position
        check_protocol_consistency(TTT, state)
        canon = TTT.canonical(state)
        assert canon in TicTacToe.symmetries(state)
        for image in TicTacToe.symmetries(state):
            assert TTT.canonical(image) == canon
            assert TTT.is_terminal(image) == TTT.is_terminal(state)
            assert TTT.to_move(image) == TTT.to_move(state)
            if TTT.is_terminal(state):
                assert TTT.utility(image) == TTT.utility(state)


# ---------------------------------------------------------------------------
# Nim
# ---------------------------------------------------------------------------


def mover_wins_nim(coins, misere):
    """Independent of the game class: does the player to move win?"""
    if coins == 0:
        return misere  # the opponent took the last coin
    return any(not mover_wins_nim(coins - t, misere) for t in (1, 2, 3) if t <= coins)


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("coins", range(15))
def test_nim_values(coins, misere):
    game = Nim(coins=coins, misere=misere)
    value = minimax(game, game.initial)  # MAX moves first
    mover_loses = value == -1
    assert value in (-1, 1)
    assert mover_loses == (not mover_wins_nim(coins, misere))
    if misere:
        assert mover_loses == (coins % 4 == 1)
    else:
        assert mover_loses == (coins % 4 == 0)


def test_nim_rules():
    game = Nim(coins=5)
    assert repr(game) == "Nim(coins=5, misere=False)"
    assert game.initial == (5, MAX)
    assert game.to_move((5, MIN)) == MIN
    assert game.actions((5, MAX)) == [1, 2, 3]
    assert game.actions((2, MIN)) == [1, 2]
    assert game.actions((0, MIN)) == []
    assert game.result((5, MAX), 2) == (3, MIN)
    assert game.successors((1, MIN)) == [(1, (0, MAX))]
    # normal play: the player to move at the end lost; misere: won
    assert game.utility((0, MAX)) == -1
    assert game.utility((0, MIN)) == 1
    misere = Nim(coins=5, misere=True)
    assert misere.utility((0, MAX)) == 1
    assert misere.utility((0, MIN)) == -1
    assert "ooo" in game.display((3, MIN)) and "min to move" in game.display((3, MIN))
    assert "game over: min wins" in game.display((0, MAX))
    assert "game over: max wins" in misere.display((0, MAX))


def test_nim_errors():
    game = Nim(coins=5)
    with pytest.raises(ValueError, match=r"illegal move 3 .*only 2 coins are left; legal moves: \[1, 2\]"):
        game.result((2, MAX), 3)
    with pytest.raises(ValueError, match=r"illegal move 4 .*1 to 3 coins"):
        game.result((5, MAX), 4)
    with pytest.raises(ValueError, match=r"illegal move 0 "):
        game.result((5, MAX), 0)
    with pytest.raises(ValueError, match="game is over"):
        game.result((0, MAX), 1)
    with pytest.raises(TypeError, match="Nim move .* must be an int"):
        game.result((5, MAX), "1")
    with pytest.raises(ValueError, match="still has 3 coins"):
        game.utility((3, MAX))
    with pytest.raises(ValueError, match="player 'max' or 'min'"):
        game.actions((3, "x"))
    with pytest.raises(ValueError, match="negative"):
        game.actions((-1, MAX))
    with pytest.raises(ValueError, match="CHANCE"):
        game.chances((3, MAX))


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"coins": -1}, ValueError, "coins must be an int >= 0, got -1"),
        ({"coins": 2.5}, TypeError, "coins must be an int"),
        ({"coins": "5"}, TypeError, "coins must be an int"),
        ({"misere": 1}, TypeError, "misere must be True or False"),
    ],
)
def test_nim_constructor_validation(kwargs, error, message):
    with pytest.raises(error, match=message):
        Nim(**kwargs)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 12), st.booleans(), st.lists(st.integers(0, 2), max_size=12))
def test_nim_random_playouts(coins, misere, choices):
    game = Nim(coins=coins, misere=misere)
    for state in random_playout(game, choices):
        assert state[0] >= 0
        check_protocol_consistency(game, state)


# ---------------------------------------------------------------------------
# Connect Four
# ---------------------------------------------------------------------------


class GridConnect:
    """A plain reference implementation of gravity k-in-a-row.

    A state is a tuple of columns, each a tuple of 'X'/'O' from the bottom up.
    """

    def __init__(self, rows, cols, k):
        self.rows, self.cols, self.k = rows, cols, k
        self.initial = ((),) * cols

    def winner(self, columns):
        def at(r, c):
            if 0 <= c < self.cols and 0 <= r < len(columns[c]):
                return columns[c][r]
            return None

        for c in range(self.cols):
            for r in range(len(columns[c])):
                who = columns[c][r]
                for dr, dc in ((1, 0), (0, 1), (1, 1), (-1, 1)):
                    if all(at(r + i * dr, c + i * dc) == who for i in range(self.k)):
                        return who
        return None

    def play(self, columns, col):
        who = "X" if sum(map(len, columns)) % 2 == 0 else "O"
        return columns[:col] + (columns[col] + (who,),) + columns[col + 1:]

    def moves(self, columns):
        if self.winner(columns):
            return []
        return [c for c in range(self.cols) if len(columns[c]) < self.rows]

    def utility(self, columns):
        return {"X": 1, "O": -1, None: 0}[self.winner(columns)]


def assert_matches_reference(game, ref, state, columns):
    assert game.actions(state) == ref.moves(columns)
    assert game.is_terminal(state) == (ref.moves(columns) == [])
    for r in range(game.rows):
        for c in range(game.cols):
            expected = columns[c][r] if r < len(columns[c]) else None
            assert game.cell(state, r, c) == expected
    if game.is_terminal(state):
        assert game.utility(state) == ref.utility(columns)


@pytest.mark.slow
@pytest.mark.parametrize(
    "dims",
    [(1, 1, 1), (2, 2, 2), (3, 3, 3), (3, 4, 3), (4, 3, 3), (2, 5, 3), (5, 2, 3),
     (1, 4, 4), (4, 1, 4), (2, 3, 3)],
)
def test_connect_four_agrees_with_reference_on_every_position(dims):
    """Walk every reachable position of a small board in step with the grid."""
    game, ref = ConnectFour(*dims), GridConnect(*dims)
    seen = {game.initial}
    stack = [(game.initial, ref.initial)]
    while stack:
        state, columns = stack.pop()
        assert_matches_reference(game, ref, state, columns)
        for col, child in game.successors(state):
            assert game.result(state, col) == child
            if child not in seen:
                seen.add(child)
                stack.append((child, ref.play(columns, col)))
    assert len(seen) > 1


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 7),
    st.integers(1, 8),
    st.data(),
)
def test_connect_four_random_playouts_match_reference(rows, cols, data):
    k = data.draw(st.integers(1, max(rows, cols)))
    game, ref = ConnectFour(rows, cols, k), GridConnect(rows, cols, k)
    choices = data.draw(st.lists(st.integers(0, cols - 1), max_size=rows * cols))
    state, columns = game.initial, ref.initial
    for c in choices:
        assert_matches_reference(game, ref, state, columns)
        check_protocol_consistency(game, state)
        moves = game.actions(state)
        if not moves:
            break
        col = moves[c % len(moves)]
        state, columns = game.result(state, col), ref.play(columns, col)
        canon = game.canonical(state)
        assert canon in (state, game.mirror(state))
        assert game.canonical(game.mirror(state)) == canon
        assert game.is_terminal(game.mirror(state)) == game.is_terminal(state)


def test_connect_four_state_layout():
    game = ConnectFour()
    assert game.initial == (0, 0)
    # column c uses bits c*(rows+1) .. c*(rows+1)+rows-1, bottom up
    assert game.result(game.initial, 2) == (1 << 14, 0)
    assert game.from_moves([2, 2]) == (1 << 14, 1 << 15)
    assert game.to_move(game.initial) == MAX
    assert game.to_move(game.from_moves([2])) == MIN
    assert repr(game) == "ConnectFour(rows=6, cols=7, k=4)"


def win_sequences(rows, cols, k):
    """Move lists that end with X's k-th piece in a row (vertical, horizontal)."""
    sequences = {}
    if rows >= k and cols >= 2:
        # X stacks column 0, O stacks column 1
        sequences["vertical"] = [0, 1] * (k - 1) + [0]
    if cols >= k and rows >= 2:
        # X along the bottom row, O on top of each X piece
        moves = []
        for c in range(k - 1):
            moves += [c, c]
        sequences["horizontal"] = moves + [k - 1]
    return sequences


@pytest.mark.parametrize(
    "dims", [(6, 7, 4), (4, 4, 4), (5, 4, 5), (4, 6, 6), (3, 3, 3), (7, 9, 5), (2, 2, 2)]
)
def test_connect_four_straight_wins(dims):
    game = ConnectFour(*dims)
    sequences = win_sequences(*dims)
    assert sequences
    for name, moves in sequences.items():
        before = game.from_moves(moves[:-1])
        assert not game.is_terminal(before), name
        after = game.result(before, moves[-1])
        assert game.is_terminal(after), name
        assert game.utility(after) == 1, name
        assert game.actions(after) == [] and game.successors(after) == []


def test_connect_four_o_wins():
    game = ConnectFour()
    vertical = game.from_moves([6, 0, 1, 0, 1, 0, 1, 0])
    horizontal = game.from_moves([0, 1, 0, 2, 0, 3, 6, 4])
    for state in (vertical, horizontal):
        assert game.is_terminal(state) and game.utility(state) == -1


def test_connect_four_diagonal_wins():
    game = ConnectFour()
    # X ends with (0,0) (1,1) (2,2) (3,3) as (row, col)
    moves = [0, 1, 1, 2, 3, 2, 2, 3, 3, 6, 3]
    before = game.from_moves(moves[:-1])
    assert not game.is_terminal(before)
    won = game.result(before, 3)
    assert [game.cell(won, i, i) for i in range(4)] == ["X"] * 4
    assert game.is_terminal(won) and game.utility(won) == 1
    # its mirror image is a win along the other diagonal
    mirrored = game.mirror(won)
    assert [game.cell(mirrored, i, 6 - i) for i in range(4)] == ["X"] * 4
    assert game.is_terminal(mirrored) and game.utility(mirrored) == 1
    assert game.canonical(won) == game.canonical(mirrored) == min(won, mirrored)
    # k equal to the board size: the long diagonal of a 3x3 board
    small = ConnectFour(rows=3, cols=3, k=3)
    state = small.from_moves([0, 1, 1, 2, 2, 0, 2])
    assert [small.cell(state, i, i) for i in range(3)] == ["X"] * 3
    assert small.utility(state) == 1
    # and the anti-diagonal, won by O
    state = small.from_moves([0, 2, 1, 1, 0, 0])
    assert [small.cell(state, i, 2 - i) for i in range(3)] == ["O"] * 3
    assert small.utility(state) == -1


def test_connect_four_full_board_draw():
    game = ConnectFour(rows=3, cols=3, k=3)
    state = game.from_moves([2, 2, 0, 1, 0, 1, 1, 0, 2])
    assert game.display(state).splitlines()[:3] == ["|OXX|", "|XOO|", "|XOX|"]
    assert game.is_terminal(state)
    assert game.utility(state) == 0
    assert game.actions(state) == [] and game.successors(state) == []
    game = ConnectFour(rows=4, cols=4, k=4)
    moves = [3, 2, 1, 0, 2, 0, 0, 0, 3, 3, 1, 2, 3, 1, 2, 1]
    for n in range(len(moves)):
        assert not game.is_terminal(game.from_moves(moves[:n]))
    state = game.from_moves(moves)
    assert game.is_terminal(state) and game.utility(state) == 0


@pytest.mark.slow
def test_connect_four_small_board_values():
    def solve(game):
        memo = {}

        def value(state):
            key = game.canonical(state)
            if key not in memo:
                memo[key] = minimax_step(state)
            return memo[key]

        def minimax_step(state):
            if game.is_terminal(state):
                return game.utility(state)
            values = [value(child) for _, child in game.successors(state)]
            return max(values) if game.to_move(state) == MAX else min(values)

        return value(game.initial)

    assert solve(ConnectFour(rows=4, cols=4, k=4)) == 0  # 4x4 Connect Four: a draw
    assert solve(ConnectFour(rows=3, cols=3, k=3)) == solve_reference(3, 3, 3)
    assert solve(ConnectFour(rows=3, cols=4, k=3)) == solve_reference(3, 4, 3)
    assert solve(ConnectFour(rows=1, cols=1, k=1)) == 1


def solve_reference(rows, cols, k):
    ref = GridConnect(rows, cols, k)
    memo = {}

    def value(columns):
        if columns not in memo:
            moves = ref.moves(columns)
            if not moves:
                memo[columns] = ref.utility(columns)
            else:
                values = [value(ref.play(columns, c)) for c in moves]
                x_to_move = sum(map(len, columns)) % 2 == 0
                memo[columns] = max(values) if x_to_move else min(values)
        return memo[columns]

    return value(ref.initial)


def test_connect_four_illegal_moves():
    game = ConnectFour(rows=2, cols=3, k=2)
    full = game.from_moves([0, 0])
    with pytest.raises(ValueError) as info:
        game.result(full, 0)
    message = str(info.value)
    assert "illegal move 0" in message
    assert "'O../X..'" in message
    assert "column 0 is full" in message
    assert "legal moves: [1, 2]" in message
    with pytest.raises(ValueError, match=r"illegal move 3 .*column 0..2"):
        game.result(full, 3)
    with pytest.raises(ValueError, match=r"illegal move -1 .*column 0..2"):
        game.result(full, -1)
    with pytest.raises(TypeError, match="Connect Four move .* must be an int"):
        game.result(full, "1")
    with pytest.raises(TypeError, match="must be an int"):
        game.result(full, 1.0)
    over = game.from_moves([0, 1, 0])
    with pytest.raises(ValueError, match="game is over"):
        game.result(over, 2)
    with pytest.raises(ValueError, match=r"move #2 of \[0, 0, 0\]: .*column 0 is full"):
        game.from_moves([0, 0, 0])
    with pytest.raises(ValueError, match="not over"):
        game.utility(game.from_moves([0]))


@pytest.mark.parametrize(
    "state, message",
    [
        # On a 3x3 board column c uses bits 4c .. 4c+2; bit 4c+3 is the sentinel.
        ((1 << 1, 0), "floating"),  # a piece in row 1 over an empty row 0
        ((1 << 3, 0), "outside"),  # the sentinel bit of column 0
        ((1 << 12, 0), "outside"),  # beyond the last column
        ((-1, 0), "outside"),
        ((1, 1), "share"),
        ((0, 1), "X moves first"),
        ((0b111, 1 << 4 | 1 << 5 | 1 << 8), "X has 3 in a row but O moved afterwards"),
        ((0b11 | 0b11 << 8, 0b111 << 4), "O has 3 in a row but X moved afterwards"),
    ],
)
def test_connect_four_rejects_invalid_states(state, message):
    game = ConnectFour(rows=3, cols=3, k=3)
    with pytest.raises(ValueError, match=message):
        game.actions(state)


@pytest.mark.parametrize("state", [[0, 0], (0, 0, 0), (0.0, 0), ("", 0)])
def test_connect_four_rejects_malformed_states(state):
    with pytest.raises((TypeError, ValueError), match="Connect Four state"):
        ConnectFour().result(state, 0)


def test_connect_four_cell_and_display():
    game = ConnectFour(rows=3, cols=4, k=3)
    state = game.from_moves([1, 2, 1])
    assert game.cell(state, 0, 1) == "X"
    assert game.cell(state, 0, 2) == "O"
    assert game.cell(state, 2, 1) is None
    assert game.display(state) == "|....|\n|.X..|\n|.XO.|\n+----+\n 0123"
    with pytest.raises(ValueError, match=r"row must be 0..2"):
        game.cell(state, 3, 0)
    with pytest.raises(ValueError, match=r"col must be 0..3"):
        game.cell(state, 0, 4)
    with pytest.raises(TypeError, match="row must be an int"):
        game.cell(state, "0", 0)


def test_connect_four_centre_first():
    assert ConnectFour().centre_first((0, 0), list(range(7))) == [3, 2, 4, 1, 5, 0, 6]
    game = ConnectFour(rows=4, cols=6, k=4)
    assert game.centre_first(game.initial, list(range(6))) == [2, 3, 1, 4, 0, 5]
    assert game.centre_first(game.initial, [5, 0, 3]) == [3, 0, 5]
    pairs = game.successors(game.initial)
    assert [m for m, _ in game.centre_first(game.initial, pairs)] == [2, 3, 1, 4, 0, 5]


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"rows": 0}, ValueError, "rows must be an int >= 1, got 0"),
        ({"cols": -2}, ValueError, "cols must be an int >= 1, got -2"),
        ({"k": 0}, ValueError, "k must be an int >= 1, got 0"),
        ({"rows": 4, "cols": 4, "k": 5}, ValueError, r"k must be <= max\(rows, cols\) = 4"),
        ({"rows": 6.0}, TypeError, "rows must be an int"),
        ({"cols": "7"}, TypeError, "cols must be an int"),
        ({"k": True}, TypeError, "k must be an int"),
    ],
)
def test_connect_four_constructor_validation(kwargs, error, message):
    with pytest.raises(error, match=message):
        ConnectFour(**kwargs)


def test_connect_four_k_fits_only_one_way():
    game = ConnectFour(rows=1, cols=5, k=5)  # a single row: only horizontal lines
    state = game.from_moves([0, 1, 2, 3, 4])
    assert game.is_terminal(state) and game.utility(state) == 0
    game = ConnectFour(rows=5, cols=1, k=5)  # a single column: nobody gets 5
    state = game.from_moves([0] * 5)
    assert game.is_terminal(state) and game.utility(state) == 0


# ---------------------------------------------------------------------------
# Dice game
# ---------------------------------------------------------------------------


def expectimax(game, state):
    """A test-local expectimax over the protocol."""
    if game.is_terminal(state):
        return Fraction(game.utility(state))
    role = game.to_move(state)
    children = dict(game.successors(state))
    if role == CHANCE:
        return sum(
            Fraction(p).limit_denominator(1000) * expectimax(game, children[o])
            for o, p in game.chances(state)
        )
    values = [expectimax(game, child) for child in children.values()]
    return max(values) if role == MAX else min(values)


def expected_roll(sides):
    """Independent of the game: expected points of one roll (face 1 scores 0)."""
    return Fraction(sum(face for face in range(2, sides + 1)), sides)


@pytest.mark.parametrize("sides", [2, 4, 6, 10])
def test_dice_chances_sum_to_one(sides):
    game = DiceGame(sides=sides)
    rolling = game.result(game.initial, "roll")
    chances = game.chances(rolling)
    assert [face for face, _ in chances] == list(range(1, sides + 1))
    assert all(p == pytest.approx(1 / sides) for _, p in chances)
    assert math.fsum(p for _, p in chances) == pytest.approx(1.0, abs=1e-12)
    assert [face for face, _ in chances] == game.actions(rolling)


@pytest.mark.parametrize(
    "rounds, safe, sides", [(1, 2, 6), (2, 2, 6), (2, 4, 6), (2, 3, 4), (3, 1, 3)]
)
def test_dice_expectimax_value_and_choice(rounds, safe, sides):
    game = DiceGame(rounds=rounds, safe=safe, sides=sides)
    best = max(Fraction(safe), expected_roll(sides))
    # Each player maximises their own expected points every turn, so from MAX's
    # first turn the value is 0, and after MAX holds it is safe - best.
    assert expectimax(game, game.initial) == 0
    hold = game.result(game.initial, "hold")
    roll = game.result(game.initial, "roll")
    assert game.to_move(roll) == CHANCE
    assert expectimax(game, hold) == safe - best
    assert expectimax(game, roll) == expected_roll(sides) - best
    prefers_roll = expectimax(game, roll) > expectimax(game, hold)
    assert prefers_roll == (expected_roll(sides) > safe)


def test_dice_default_game_prefers_rolling():
    game = DiceGame()  # safe 2 against an expected (0+2+3+4+5+6)/6 = 10/3
    assert expected_roll(6) == Fraction(20, 6)
    values = {m: expectimax(game, c) for m, c in game.successors(game.initial)}
    assert max(values, key=values.get) == "roll"
    # For MIN, too: MIN rolls because it lowers MAX's expected margin.
    state = (1, 6, 0, False)
    values = {m: expectimax(game, c) for m, c in game.successors(state)}
    assert min(values, key=values.get) == "roll"
    assert expectimax(game, state) == 6 + Fraction(10, 3) - 2 * Fraction(10, 3)


def test_dice_game_rules():
    game = DiceGame(rounds=2, safe=2, sides=6)
    assert repr(game) == "DiceGame(rounds=2, safe=2, sides=6)"
    assert game.initial == (0, 0, 0, False)
    assert game.actions(game.initial) == ["hold", "roll"]
    assert game.result(game.initial, "hold") == (1, 2, 0, False)
    rolling = game.result(game.initial, "roll")
    assert rolling == (0, 0, 0, True)
    assert game.result(rolling, 1) == (1, 0, 0, False)  # a 1 scores nothing
    assert game.result(rolling, 6) == (1, 6, 0, False)
    assert game.to_move((1, 6, 0, False)) == MIN
    assert game.result((1, 6, 0, True), 4) == (2, 6, 4, False)
    assert [game.points(f) for f in range(1, 7)] == [0, 2, 3, 4, 5, 6]
    end = (4, 7, 9, False)
    assert game.is_terminal(end) and game.utility(end) == -2
    assert game.actions(end) == [] and game.successors(end) == []
    assert "MIN wins by 2" in game.display(end)
    assert "MAX rolls the die" in game.display(rolling)
    assert "MIN to move" in game.display((1, 6, 0, False))


def test_dice_game_errors():
    game = DiceGame()
    with pytest.raises(ValueError, match=r"illegal move 'jump' .*legal moves: \['hold', 'roll'\]"):
        game.result(game.initial, "jump")
    with pytest.raises(TypeError, match="a move is 'hold' or 'roll', got 3"):
        game.result(game.initial, 3)
    rolling = game.result(game.initial, "roll")
    with pytest.raises(ValueError, match=r"illegal outcome 7 .*1..6"):
        game.result(rolling, 7)
    with pytest.raises(TypeError, match="must be an int"):
        game.result(rolling, "roll")
    with pytest.raises(ValueError, match="game is over"):
        game.result((4, 0, 0, False), "hold")
    with pytest.raises(ValueError, match="CHANCE"):
        game.chances(game.initial)
    with pytest.raises(ValueError, match="terminal"):
        game.utility(game.initial)
    with pytest.raises(ValueError, match="turn must be 0..4"):
        game.actions((5, 0, 0, False))
    with pytest.raises(TypeError, match="bool rolling"):
        game.actions((0, 0, 0, 1))
    with pytest.raises(ValueError, match="die face must be 1..6"):
        game.points(0)


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"rounds": 0}, ValueError, "rounds must be an int >= 1, got 0"),
        ({"safe": -1}, ValueError, "safe must be an int >= 0, got -1"),
        ({"sides": 1}, ValueError, "sides must be an int >= 2, got 1"),
        ({"sides": 6.0}, TypeError, "sides must be an int"),
    ],
)
def test_dice_constructor_validation(kwargs, error, message):
    with pytest.raises(error, match=message):
        DiceGame(**kwargs)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 3), st.integers(0, 5), st.integers(2, 8), st.lists(st.integers(0, 7), max_size=12))
def test_dice_random_playouts(rounds, safe, sides, choices):
    game = DiceGame(rounds=rounds, safe=safe, sides=sides)
    for state in random_playout(game, choices):
        check_protocol_consistency(game, state)
        if game.to_move(state) == CHANCE:
            assert math.fsum(p for _, p in game.chances(state)) == pytest.approx(1.0)


def test_states_are_plain_hashable_tuples():
    for game in (TTT, Nim(), ConnectFour(), DiceGame()):
        assert type(game.initial) is tuple
        for _, child in game.successors(game.initial):
            assert type(child) is tuple
            hash(child)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
