"""Tests of lessons 03-05's reasoning checks (gametrees.exercises.lessons) and of the
sign diagnoses of check_evaluation: each feedback is checked for being true of the answer it was given
(unanswered, partial, wrong in each named way, right)."""

import math

import pytest
from submissions import careless

import gametrees as gt
from gametrees import exercises as ex
from gametrees.exercises.lessons.l05_search_enhancements import table_answer, table_window

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def text(fb):
    return "\n".join(fb.lines) + "\n" + "\n".join(h for h in fb.hints if h)


def open_lines(state):
    board = gt.TicTacToe.to_string(state).replace("/", "")
    game = gt.TicTacToe()
    if game.is_terminal(state):
        return 100 * game.utility(state)
    x_open = sum(all(board[i] != "O" for i in line) for line in LINES)
    o_open = sum(all(board[i] != "X" for i in line) for line in LINES)
    return x_open - o_open


# ---------------------------------------------------------------- check_evaluation: sign diagnoses

SIGN_WORDS = ("opposite sign", "point of view of the player to move")


def test_check_evaluation_zero_everywhere_gets_no_sign_diagnosis():
    fb = ex.check_evaluation(lambda s: 0)
    assert not fb.ok
    assert not any(w in text(fb) for w in SIGN_WORDS)       # 0 has no sign


def test_check_evaluation_untouched_template_none_or_not_implemented_is_only_unanswered():
    def my_open_lines(state):
        return 0   # your code here

    def nothing(state):
        pass

    def later(state):
        raise NotImplementedError

    for fn in (my_open_lines, nothing, later, lambda game, state: 0):
        fb = ex.check_evaluation(fn)
        assert not fb.ok
        assert fb.title == "check_evaluation: not answered yet."
        assert len(fb.lines) == 1 and "returns 0 (or nothing) on every position" in fb.lines[0]
        assert not any(ch.isdigit() and ch != "0" for ch in text(fb))   # no position's value given away
    # Where 0 is right everywhere (a draw), a 0 is an answer, and a right one.
    assert ex.check_evaluation(lambda s: 0, positions=["XOX/XOO/OXX"]).ok
    # A real bug (an error other than NotImplementedError) is reported as such, without expected values.
    fb = ex.check_evaluation(lambda s: [][1])
    assert "raised IndexError" in text(fb) and "lines are open" not in text(fb)


def test_check_evaluation_constant_gets_no_viewpoint_diagnosis():
    fb = ex.check_evaluation(lambda s: 3)
    assert not fb.ok
    assert not any(w in "\n".join(fb.lines) for w in SIGN_WORDS)
    assert "a full board without a line is a draw, worth 0; you returned 3" in text(fb)


def test_check_evaluation_sign_flipped_and_mover_view_and_right():
    flipped = ex.check_evaluation(lambda s: -open_lines(s))
    assert "Every one of your estimates has the opposite sign" in text(flipped)

    def mover(state):
        x, o = state
        return open_lines(state) if bin(x).count("1") == bin(o).count("1") else -open_lines(state)

    fb = ex.check_evaluation(mover)
    assert "Where O is to move your estimates have the opposite sign" in text(fb)
    assert "Every one of your estimates" not in text(fb)
    assert ex.check_evaluation(open_lines).ok


# ---------------------------------------------------------------- check_table_answers (lesson 05)

ENTRY = {"value": 3, "flag": "lower", "depth": 4, "move": 2}
QUERIES = [(0, 2, 4), (0, 5, 4), (0, 2, 6), (-5, 3, 4)]
RIGHT = [3, "search", "search", 3]


def test_table_answer_rule():
    assert [table_answer(ENTRY, *q) for q in QUERIES] == [3, None, None, 3]
    upper = {"value": -1, "flag": "upper", "depth": 2}
    assert table_answer(upper, -1, 1, 2) == -1 and table_answer(upper, -2, 1, 2) is None
    assert table_answer({"value": 0, "flag": "exact", "depth": 5}, 3, 4, 5) == 0
    with pytest.raises(ValueError, match="flag"):
        table_answer({"value": 0, "flag": "low", "depth": 1}, 0, 1, 1)


def test_table_window_answers_as_table_answer_and_else_narrows_soundly():
    import itertools

    for flag, v, a, b, d in itertools.product(("exact", "lower", "upper"), range(-3, 4), range(-4, 4),
                                              range(-3, 5), (2, 4, 6)):
        if a >= b:
            continue
        entry = {"value": v, "flag": flag, "depth": 4}
        got, (a2, b2) = table_window(entry, a, b, d)
        assert got == table_answer(entry, a, b, d)
        if got is None and d <= 4:   # narrowed: only the side the bound speaks of moves, towards v
            assert (a2, b2) == ((max(a, v), b) if flag == "lower" else (a, min(b, v)))
        if d > 4:
            assert (got, (a2, b2)) == (None, (a, b))


# ---------------------------------------------------------------- check_table_search (lesson 05)

def _sign(game, state):
    return 1 if game.to_move(state) == "max" else -1


def with_bounds(game, state, alpha, beta, table, probe_lower_wrong=False):
    alpha0 = alpha
    if state in table:
        value, flag = table[state]
        lower_ok = value >= (alpha if probe_lower_wrong else beta)
        if flag == "exact" or (flag == "lower" and lower_ok) or (flag == "upper" and value <= alpha):
            return value
    if game.is_terminal(state):
        return _sign(game, state) * game.utility(state)
    value = -math.inf
    for _, child in game.successors(state):
        value = max(value, -with_bounds(game, child, -beta, -alpha, table, probe_lower_wrong))
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    table[state] = (value, "lower" if value >= beta else "upper" if value <= alpha0 else "exact")
    return value


def test_table_search_right():
    fb = ex.check_table_search(with_bounds)
    assert fb.ok and "all 720 searches right" in fb.title


def test_table_search_catches_the_careless_table():
    fb = ex.check_table_search(careless)
    assert not fb.ok
    assert "With a table that keeps nothing the same search is right" in text(fb)
    assert "a bound used as if it were exact" in text(fb)
    assert "opposite sign" not in text(fb)


def test_table_search_catches_a_wrong_probe():
    fb = ex.check_table_search(lambda g, s, a, b, t: with_bounds(g, s, a, b, t, probe_lower_wrong=True))
    assert not fb.ok and "a bound used as if it were exact" in text(fb)


def test_table_search_blames_the_recursion_not_the_table():
    def max_view(game, state, alpha, beta, table):   # utility not turned to the mover's view
        if game.is_terminal(state):
            return game.utility(state)
        value = -math.inf
        for _, child in game.successors(state):
            value = max(value, -max_view(game, child, -beta, -alpha, table))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return value

    fb = ex.check_table_search(max_view)
    assert not fb.ok and "keeps nothing the same search is right" not in text(fb)
    assert "it is wrong even when the table keeps nothing" in text(fb)
    assert "With one table shared" not in text(fb)   # the second part waits for the first


def test_table_search_unanswered_library_and_bad_signature():
    stub = ex.check_table_search(lambda g, s, a, b, t: None)
    assert not stub.ok and "returned None" in text(stub)
    lib = ex.check_table_search(lambda g, s, a, b, t: gt.negamax(g, s).value)
    assert not lib.ok and "write the search yourself" in text(lib)
    assert "could not be called" in ex.check_table_search(lambda g, s: 0).title


# ---------------------------------------------------------------- check_scale_choices (lesson 04)

SCALE_MOVES = {"a": "win", "b": (2, [0, 1]), "c": (1, [-1, 1])}   # lesson 04's: X to move in ..O/.XO/XOX
SCALE_RIGHT = {"depth 1, utility ±1": "b", "depth 2, utility ±1": "a",
               "depth 1, one scale": "a", "depth 2, one scale": "a"}


def test_scale_choices_unanswered_says_only_that():
    for answer in (None, dict.fromkeys(ex.lessons.l04_depth_and_evaluation.SCALE_QUESTIONS)):
        fb = ex.check_scale_choices(SCALE_MOVES, answer)
        assert not fb.ok and fb.title == "Which move each search plays: not answered yet."
        assert fb.lines == ["✗ Give a move ('a', 'b', 'c') for each of the four questions, in place of None."]


def test_scale_choices_bad_tree():
    with pytest.raises(ValueError, match="exactly one move that wins"):
        ex.check_scale_choices({"a": (1, [1]), "b": (2, [2])}, SCALE_RIGHT)
    with pytest.raises(ValueError, match="tie"):
        ex.check_scale_choices({"a": "win", "b": (6, [1]), "c": (6, [0])}, SCALE_RIGHT)
    with pytest.raises(ValueError, match="move 'b'"):
        ex.check_scale_choices({"a": "win", "b": 6}, SCALE_RIGHT)


def test_scale_moves_are_lesson_04s_real_position():
    from gametrees.exercises.lessons.l04_depth_and_evaluation import scale_moves
    ttt = gt.TicTacToe()
    assert scale_moves(ttt, ttt.from_string("..O/.XO/XOX")) == SCALE_MOVES


# ---------------------------------------------------------------- check_quiet_positions (lesson 04)

def quiet_positions():
    c4 = gt.ConnectFour()
    # A is quiet: X's diagonal three has nothing under its end
    return c4, {"A": c4.from_moves([0, 1, 1, 2, 5, 2, 2]),
                "B": c4.from_moves([3, 3, 4, 4, 2, 5]),      # X to move wins at once in column 1
                "C": c4.from_moves([3, 2, 3, 2, 3]),         # O must block column 3
                "D": c4.from_moves([3, 3, 4, 4, 5]),         # O cannot stop both ends: lost
                "E": c4.from_moves([3, 3, 4, 4])}            # quiet (although X forces a win in 3 plies)


