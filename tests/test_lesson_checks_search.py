"""Tests of lessons 03-05's reasoning checks (gametrees.exercises.lessons) and of the
sign diagnoses of check_evaluation: each feedback is checked for being true of the answer it was given
(unanswered, partial, wrong in each named way, right)."""

import math

import pytest

import gametrees as gt
from gametrees import exercises as ex
from gametrees.exercises.lessons.l05_search_enhancements import table_answer

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


# ---------------------------------------------------------------- check_pruning_order (lesson 03)

TREE = [[5, 9, 7], [4, 8, 2], [6, 10, 11]]


def leaves(nested):
    return gt.alphabeta(gt.tree_from_nested(nested)).stats["leaves_evaluated"]


def test_pruning_order_unanswered_says_only_that():
    for blank in (None, []):
        fb = ex.check_pruning_order(TREE, blank)
        assert not fb.ok and "not answered yet" in fb.title
        assert not any(str(v) in text(fb) for v in (6, 10, 11, 9))   # no values, no order given away


def test_pruning_order_right_answers():
    for answer in ([[6, 10, 11], [2, 4, 8], [5, 7, 9]], [[6, 11, 10], [4, 2, 8], [5, 9, 7]],
                   ([6, 10, 11], [5, 9, 7], [2, 8, 4])):
        fb = ex.check_pruning_order(TREE, answer)
        assert fb.ok, text(fb)
        assert "evaluates 5 of the 9 leaves" in text(fb) and leaves(answer) == 5


def test_pruning_order_wrong_first_node():
    fb = ex.check_pruning_order(TREE, TREE)
    assert not fb.ok and fb.title.endswith(f"{leaves(TREE)} leaves evaluated, 5 is possible.")
    assert "Your first MIN node is worth 5, but your third is worth 6" in text(fb)
    assert "starts with" not in text(fb)   # every later node does start with a leaf ≤ α here
    assert [min(c) for c in TREE] == [5, 2, 6] and TREE[1][0] <= 5


def test_pruning_order_wrong_first_leaf():
    answer = [[6, 10, 11], [2, 4, 8], [7, 5, 9]]
    fb = ex.check_pruning_order(TREE, answer)
    assert not fb.ok and leaves(answer) == 6
    assert "Your third MIN node (leaves [7, 5, 9]) starts with 7 > α = 6" in text(fb)
    assert "with 5 first it would stop after one leaf" in text(fb)
    assert "Your first MIN node" not in text(fb)


def test_pruning_order_not_a_rearrangement():
    partial = ex.check_pruning_order(TREE, [[6, 10, 11]])
    assert not partial.ok and "not a rearrangement" in partial.title
    assert "The tree has 3 MIN nodes under the root; your answer has 1." in text(partial)
    moved = ex.check_pruning_order(TREE, [[6, 10, 2], [11, 4, 8], [5, 7, 9]])
    assert "Your MIN node with leaves [6, 10, 2] is not in the tree" in text(moved)
    assert not ex.check_pruning_order(TREE, "6, 10, 11").ok
    with pytest.raises(ValueError, match="tree must be a list of at least 2"):
        ex.check_pruning_order([1, 2], [[1], [2]])


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


def test_table_answers_unanswered_and_partial():
    for blank in (None, [None] * 4):
        fb = ex.check_table_answers(ENTRY, QUERIES, blank)
        assert "not answered yet" in fb.title and "3" not in text(fb)
    fb = ex.check_table_answers(ENTRY, QUERIES, [3, None, None, None])
    assert fb.lines[0].startswith("✓ Search 1") and sum("not answered yet" in l for l in fb.lines) == 3
    assert "expected a list of 4 answers" in ex.check_table_answers(ENTRY, QUERIES, [3]).title


def test_table_answers_right_and_each_mistake():
    assert ex.check_table_answers(ENTRY, QUERIES, RIGHT).ok
    trusting = ex.check_table_answers(ENTRY, QUERIES, [3, 3, 3, 3])   # every bound used as exact
    assert "Search 2" in text(trusting) and "3 < β = 5: it may lie inside the window" in text(trusting)
    assert "comes from a search 4 plies deep, and this one needs 6" in text(trusting)
    assert trusting.lines[0].startswith("✓") and trusting.lines[3].startswith("✓")
    timid = ex.check_table_answers(ENTRY, QUERIES, ["search"] * 4)
    assert "the table can answer 3 without a search" in text(timid) and timid.score == (2, 4)
    wrong_value = ex.check_table_answers(ENTRY, QUERIES, [2, "search", "search", 3])
    assert "answers with the stored value 3, not 2" in text(wrong_value)
    assert 'give a number or "search"' in text(ex.check_table_answers(ENTRY, QUERIES, [3, "search", "search", "x"]))


# ---------------------------------------------------------------- check_table_search (lesson 05)

def _sign(game, state):
    return 1 if game.to_move(state) == "max" else -1


def careless(game, state, alpha, beta, table):
    if state in table:
        return table[state]
    if game.is_terminal(state):
        return _sign(game, state) * game.utility(state)
    value = -math.inf
    for _, child in game.successors(state):
        value = max(value, -careless(game, child, -beta, -alpha, table))
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    table[state] = value
    return value


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

SCALE_MOVES = {"a": "win", "b": (6, [7, -2]), "c": (3, [4, 2])}
SCALE_RIGHT = {"depth 1, utility ±1": "b", "depth 2, utility ±1": "c",
               "depth 1, one scale": "a", "depth 2, one scale": "a"}


def test_scale_choices_unanswered_says_only_that():
    for answer in (None, dict.fromkeys(ex.lessons.l04_depth_and_evaluation.SCALE_QUESTIONS)):
        fb = ex.check_scale_choices(SCALE_MOVES, answer)
        assert not fb.ok and fb.title == "Which move each search plays: not answered yet."
        assert fb.lines == ["✗ Give a move ('a', 'b', 'c') for each of the four questions, in place of None."]


def test_scale_choices_right_and_partial():
    fb = ex.check_scale_choices(SCALE_MOVES, SCALE_RIGHT)
    assert fb.ok and fb.title == "Which move each search plays: right."
    assert "b = min(7, -2) = -2, c = min(4, 2) = 2" in text(fb)
    partial = dict(SCALE_RIGHT, **{"depth 2, one scale": None})
    fb = ex.check_scale_choices(SCALE_MOVES, partial)
    assert not fb.ok and fb.title == "Which move each search plays: 3 of 4 right (1 not answered yet)."
    assert "✗ depth 2, one scale: not answered yet." in fb.lines


def test_scale_choices_each_named_mistake():
    # the win taken although it is scored 1, below the estimate 6
    fb = ex.check_scale_choices(SCALE_MOVES, dict(SCALE_RIGHT, **{"depth 1, utility ±1": "a"}))
    assert "✗ depth 1, utility ±1: you chose a, but a wins (worth 1), b = 6, c = 3, so the search plays b." in fb.lines
    assert "scores it with the game's utility, 1, and the estimate 6 of b is larger" in text(fb)
    # depth 2 answered with the depth-1 choice
    fb = ex.check_scale_choices(SCALE_MOVES, dict(SCALE_RIGHT, **{"depth 2, utility ±1": "b"}))
    assert "so the search plays c" in text(fb) and "not its own estimate" in text(fb)
    # depth 2 with O taking the largest reply (a tree where that differs from the depth-1 choice)
    moves = {"a": "win", "b": (6, [3, 1]), "c": (2, [9, 0]), "d": (4, [5, 4])}
    fb = ex.check_scale_choices(moves, {"depth 1, utility ±1": "b", "depth 2, utility ±1": "c",
                                        "depth 1, one scale": "a", "depth 2, one scale": "a"})
    assert "you chose c, but" in text(fb) and "so the search plays d" in text(fb)
    assert "O chooses the reply that is worst for X" in text(fb)
    # one scale, the win skipped
    fb = ex.check_scale_choices(SCALE_MOVES, dict(SCALE_RIGHT, **{"depth 1, one scale": "b"}))
    assert "a wins (worth 100)" in text(fb) and "more than any estimate (at most 8)" in text(fb)
    # not a move, not a question, not a dict
    fb = ex.check_scale_choices(SCALE_MOVES, dict(SCALE_RIGHT, **{"depth 1, one scale": "z", "depth 3": "a"}))
    assert "'z' is not one of the moves a, b, c" in text(fb) and "'depth 3' is not one of the questions" in text(fb)
    assert not ex.check_scale_choices(SCALE_MOVES, "b").ok


def test_scale_choices_bad_tree():
    with pytest.raises(ValueError, match="exactly one move that wins"):
        ex.check_scale_choices({"a": (1, [1]), "b": (2, [2])}, SCALE_RIGHT)
    with pytest.raises(ValueError, match="tie"):
        ex.check_scale_choices({"a": "win", "b": (6, [1]), "c": (6, [0])}, SCALE_RIGHT)
    with pytest.raises(ValueError, match="move 'b'"):
        ex.check_scale_choices({"a": "win", "b": 6}, SCALE_RIGHT)


# ---------------------------------------------------------------- check_quiet_positions (lesson 04)

def quiet_positions():
    c4 = gt.ConnectFour()
    return c4, {"A": c4.from_moves([0, 1, 1, 2, 5, 2, 2]),   # quiet: X's diagonal three has nothing under its end
                "B": c4.from_moves([3, 3, 4, 4, 2, 5]),      # X to move wins at once in column 1
                "C": c4.from_moves([3, 2, 3, 2, 3]),         # O must block column 3
                "D": c4.from_moves([3, 3, 4, 4, 5]),         # O cannot stop both ends: lost
                "E": c4.from_moves([3, 3, 4, 4])}            # quiet (although X forces a win in 3 plies)


def test_quiet_positions_unanswered_right_and_forms():
    c4, positions = quiet_positions()
    fb = ex.check_quiet_positions(c4, positions, None)
    assert not fb.ok and fb.title == "Quiet positions: not answered yet."
    assert fb.lines == ["✗ Give the set of the names of the quiet positions (of A, B, C, D, E), in place of None."]
    for answer in ({"A", "E"}, ["E", "A"], "A, E"):
        fb = ex.check_quiet_positions(c4, positions, answer)
        assert fb.ok and fb.title == "Quiet positions: right, A, E."
    assert not ex.check_quiet_positions(c4, positions, 5).ok


def test_quiet_positions_each_named_mistake_and_partial():
    c4, positions = quiet_positions()
    fb = ex.check_quiet_positions(c4, positions, {"E"})     # partial: A left out
    assert fb.title == "Quiet positions: 4 of 5 positions right; you named 1 of the 2 quiet ones."
    assert ("✗ You left out A, but it is quiet: O cannot win at once, and 7 moves (columns 0, 1, 2, 3, 4, 5, 6) "
            "leave X no win at once.") in fb.lines
    fb = ex.check_quiet_positions(c4, positions, {"A", "B", "C", "D", "E", "Z"})
    lines = "\n".join(fb.lines)
    assert "You called B quiet, but it is not: X, to move, wins at once (column 1)" in lines
    assert "You called C quiet, but it is not: only column 3 leaves X no win at once: O's move is forced" in lines
    assert "You called D quiet, but it is not: after every move of O, X wins at once: the position is lost" in lines
    assert "'Z' is not one of the positions A, B, C, D, E." in lines
    over = c4.from_moves([3, 3, 4, 4, 5, 5, 6])
    fb = ex.check_quiet_positions(c4, {"F": over}, {"F"})
    assert "the game is over" in text(fb) and not fb.ok
    with pytest.raises(ValueError, match="positions must be a non-empty dict"):
        ex.check_quiet_positions(c4, [], {"A"})
