"""Lessons 04-06: every check's feedback follows the feedback rules.

For each lesson check: an unanswered answer says only that; junk is "could not read"
(status unreadable, no misconception); an all-wrong and a partly right answer get a
first check that names every wrong part and none of the right values, labels or choices
the learner did not give; a second wrong check adds a worked twin ("Worked on a twin tree:
..."); a misconception tag is given only where the answer is what it produces, and every
tag is in the catalogue.
"""

import math
import re

import pytest
from submissions import careless

import gametrees as gt
from gametrees import exercises as ex
from gametrees.exercises import attempts
from gametrees.exercises.misconceptions import CATALOGUE
from gametrees.games import ConnectFour

TWIN = attempts.TWIN_PREFIX


@pytest.fixture(autouse=True)
def _fresh_counts():
    attempts.reset()
    yield
    attempts.reset()


def bad_text(fb):
    """The ✗ lines and their hints (what the learner reads about the wrong parts)."""
    return "\n".join(f"{text} {hint or ''}" for kind, text, hint in fb.items if kind == "bad")


def numbers_in(text):
    return set(re.findall(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])", text))


def assert_tags_catalogued(fb):
    for tag in fb.tags:
        assert tag in CATALOGUE, tag


def twice(check):
    """The first and the second check of the same wrong answer."""
    first = check()
    second = check()
    assert first.status == "wrong" and second.status == "wrong"
    assert not any(text.startswith(TWIN) for kind, text, _ in first.items if kind == "note")
    assert any(kind == "note" and text.startswith(TWIN) for kind, text, _ in second.items), second.lines
    assert second.attempt == first.attempt + 1
    return first, second


# ================================================================ lesson 04

C4 = ConnectFour()
THREAT = C4.from_moves([3, 3, 4, 4])


def test_win_depth_unanswered_junk_wrong_and_twin():
    assert ex.check_win_depth(C4, THREAT, None).status == "unanswered"
    junk = ex.check_win_depth(C4, THREAT, "x")
    assert junk.status == "unreadable" and not junk.tags
    assert ex.check_win_depth(C4, THREAT, 3).ok
    for wrong in (1, 2, 5, 9):
        attempts.reset()
        first, second = twice(lambda: ex.check_win_depth(C4, THREAT, wrong))
        text = bad_text(first)
        assert "3" not in numbers_in(text), text          # the right depth is never given
        assert str(wrong) in text                          # the wrong part is named
        assert ("shallower" in text) == (wrong > 3)
        twin = second.lines[-1]
        assert "[3, 3, 4, 4]" not in twin and "gives 3" not in twin   # the twin is another position


def test_scale_choices_all_wrong_partly_right_and_twin():
    moves = {"a": "win", "b": (6, [7, -2]), "c": (3, [4, 2])}
    keys = ex.lessons.l04_depth_and_evaluation.SCALE_QUESTIONS
    right = {"depth 1, utility ±1": "b", "depth 2, utility ±1": "c", "depth 1, one scale": "a",
             "depth 2, one scale": "a"}
    assert ex.check_scale_choices(moves, right).ok
    assert ex.check_scale_choices(moves, {k: None for k in keys}).status == "unanswered"
    assert ex.check_scale_choices(moves, 17).status == "unreadable"
    all_wrong = {"depth 1, utility ±1": "a", "depth 2, utility ±1": "b", "depth 1, one scale": "c",
                 "depth 2, one scale": "b"}
    first, _ = twice(lambda: ex.check_scale_choices(moves, all_wrong))
    bad = [text for kind, text, _ in first.items if kind == "bad"]
    assert len(bad) == 4 and all(any(t.startswith(k) for t in bad) for k in keys)
    text = bad_text(first)
    for k in keys:   # no move is named in a wrong line ("a" only as the article)
        line = next(t for t in bad if t.startswith(k))
        assert set(re.findall(r"\b[abc]\b", line)) <= {"a"}, line
    assert "-2" not in text and "min(" not in text   # no worked values
    assert first.tags == ("scale-mismatch",)           # the win chosen with ±1 utilities
    assert_tags_catalogued(first)
    attempts.reset()
    partly = dict(right, **{"depth 2, utility ±1": "b"})
    fb = ex.check_scale_choices(moves, partly)
    assert fb.title.endswith("3 of 4 right.") and len([1 for k, _, _ in fb.items if k == "bad"]) == 1
    assert fb.tags == () and not re.findall(r"\b[bc]\b", bad_text(fb))   # b is also the depth-1 choice: no tag


QUIET = {name: C4.from_moves(moves) for name, moves in {
    "A": [0, 1, 1, 2, 5, 2, 2], "B": [3, 3, 4, 4, 2, 5], "C": [3, 2, 3, 2, 3],
    "D": [3, 3, 4, 4, 5], "E": [3, 3, 4, 4]}.items()}


def test_quiet_positions_all_wrong_partly_right_and_twin():
    assert ex.check_quiet_positions(C4, QUIET, {"A", "E"}).ok
    assert ex.check_quiet_positions(C4, QUIET, None).status == "unanswered"
    junk = ex.check_quiet_positions(C4, QUIET, 17)
    assert junk.status == "unreadable" and not junk.tags
    first, second = twice(lambda: ex.check_quiet_positions(C4, QUIET, {"B", "C", "D"}))
    bad = [text for kind, text, _ in first.items if kind == "bad"]
    assert len(bad) == 5 and all(any(re.search(rf"\b{n}\b", t) for t in bad) for n in "ABCDE")
    text = bad_text(first)
    assert "column" not in text.replace("the column below", "")   # no winning or forced column given away
    assert first.tags == ("horizon-effect",)
    assert_tags_catalogued(first)
    assert "quiet" in second.lines[-1] and "[3, 3, 4, 4]" not in second.lines[-1]
    attempts.reset()
    partly = ex.check_quiet_positions(C4, QUIET, {"A"})
    assert partly.title == "Quiet positions: 4 of 5 positions right." and "E" in bad_text(partly)
    assert not partly.tags     # leaving a quiet one out is not the horizon misconception


# ================================================================ lesson 05

def test_after_two_moves_gives_no_counts():
    game = gt.TicTacToe()
    after = {s2 for _, s1 in game.successors(game.initial) for _, s2 in game.successors(s1)}
    classes = {game.canonical(s) for s in after}
    assert ex.check_after_two_moves(after, classes).ok
    assert ex.check_after_two_moves(None, None).status == "unanswered"
    assert ex.check_after_two_moves(3, 4).status == "unreadable"
    one_move = {s for _, s in game.successors(game.initial)}
    for fb in (ex.check_after_two_moves(one_move, one_move), ex.check_after_two_moves(after, after),
               ex.check_after_two_moves(set(list(after)[:40]), None)):
        text = bad_text(fb)
        assert not {"72", "12"} & numbers_in(text), text
        assert fb.status == "wrong"
    attempts.reset()
    first, second = twice(lambda: ex.check_after_two_moves(one_move, one_move))
    assert "after one move" in second.lines[-1] and not {"72", "12"} & numbers_in(second.lines[-1])


WINDOW_TREE = [[6, 5], [3, 1], [9, 8], [10, 12]]
FULL = (-math.inf, math.inf)
RIGHT_STORED = {"A": (8, "lower"), "B": (5, "exact"), "C": (3, "upper")}
RIGHT_REREAD = {"A": "search", "B": 5, "C": "search"}


def test_window_entries_right_unanswered_junk():
    T = gt.tree_from_nested(WINDOW_TREE)
    assert ex.check_window_entries(T, (4, 7), FULL, RIGHT_STORED, RIGHT_REREAD).ok
    blank = ex.check_window_entries(T, (4, 7), FULL, {k: (None, None) for k in "ABC"}, {k: None for k in "ABC"})
    assert blank.status == "unanswered" and len(blank.items) == 1
    junk = ex.check_window_entries(T, (4, 7), FULL, {k: "zz" for k in "ABC"}, {k: "?" for k in "ABC"})
    assert junk.status == "unreadable" and not junk.tags


def test_window_entries_all_wrong_names_every_part_and_no_right_value():
    T = gt.tree_from_nested(WINDOW_TREE)
    minimax_view = {"A": (10, "exact"), "B": (5, "upper"), "C": (1, "exact")}
    first, second = twice(lambda: ex.check_window_entries(T, (4, 7), FULL, minimax_view,
                                                          {"A": 10, "B": "search", "C": 1}))
    text = bad_text(first)
    bad = [t for k, t, _ in first.items if k == "bad"]
    assert sum(t.startswith("A") for t in bad) == 3 and sum(t.startswith("C") for t in bad) == 3
    assert sum(t.startswith("B") for t in bad) == 2          # B's value 5 is right
    assert not {"8", "3"} & numbers_in(text), text           # A's and C's stored values never given
    for flag in ("'lower'", "'upper'", '"lower"', '"upper"'):
        assert flag not in text
    assert set(first.tags) == {"cut-value-as-minimax", "bound-as-value"}
    assert_tags_catalogued(first)
    twin = second.lines[-1]
    assert "window (4, 7)" not in twin and "F = 6, G = 5" not in twin


def test_window_entries_fail_hard_and_partly_right():
    T = gt.tree_from_nested(WINDOW_TREE)
    fb = ex.check_window_entries(T, (4, 7), FULL, {"A": (7, "lower"), "B": (5, "exact"), "C": (5, "upper")},
                                 RIGHT_REREAD)
    assert fb.tags == ("fail-hard-bound",) and fb.title.endswith("7 of 9 right.")
    assert not {"8", "3"} & numbers_in(bad_text(fb))
    attempts.reset()
    fb = ex.check_window_entries(T, (4, 7), FULL, RIGHT_STORED, {"A": 8, "B": 5, "C": "search"})
    assert fb.title.endswith("8 of 9 right.") and fb.tags == ("bound-as-value",)


ENTRY = {"value": 3, "flag": "lower", "depth": 4, "move": 2}
LATER = [(0, 2, 4), (0, 5, 4), (0, 2, 6), (-5, 3, 3)]


def test_table_answers_each_way():
    assert ex.check_table_answers(ENTRY, LATER, [3, "search", "search", 3]).ok
    assert ex.check_table_answers(ENTRY, LATER, None).status == "unanswered"
    assert ex.check_table_answers(ENTRY, LATER, "3").status == "unreadable"
    assert ex.check_table_answers(ENTRY, LATER, ["?", "x", "y", "z"]).status == "unreadable"
    first, second = twice(lambda: ex.check_table_answers(ENTRY, LATER, ["search", 3, 3, 5]))
    bad = [t for k, t, _ in first.items if k == "bad"]
    assert [t.split(":")[0][:8] for t in bad] == ["Search 1", "Search 2", "Search 3", "Search 4"]
    assert "answers with the stored" not in bad_text(first)
    assert first.tags == ("bound-as-value",)          # a lower bound inside the window taken as the value
    assert "'lower'" in second.lines[-1] and "window (0, 5)" not in second.lines[-1]
    attempts.reset()
    partly = ex.check_table_answers(ENTRY, LATER, [3, "search", None, "search"])
    assert partly.title == "Table answers: 2 of 4 right." and "not answered yet" in bad_text(partly)


def test_table_search_starter_is_only_unanswered_and_hint_does_not_spell_out_the_rule():
    def starter(game, state, alpha, beta, table):
        raise NotImplementedError

    fb = ex.check_table_search(starter)
    assert fb.status == "unanswered" and len(fb.items) == 1
    assert ex.check_table_search(lambda game, state: 0).status == "unreadable"

    first, second = twice(lambda: ex.check_table_search(careless))
    text = bad_text(first)
    assert "a bound used as if it were exact" in text
    assert "'lower' if" not in text and "≥ β (a cutoff" not in text      # the rule is asked, not given
    assert "(-1, 0)" in second.lines[-1]


# ================================================================ lesson 06

def bounded_tree():
    return gt.tree_from_nested([{"chance": [6, 8], "p": [0.5, 0.5]},
                                {"chance": [2, 9, 5], "p": [0.5, 0.25, 0.25]},
                                {"chance": [4, 2, 9], "p": [0.25, 0.25, 0.5]}])


def test_chance_pruned_rule_by_hand():
    T = bounded_tree()
    pruned, info = ex.lessons.l06_expectimax.chance_pruned(T, 0, 10)
    assert sorted(T.nodes[n]["label"] for n in pruned) == ["H", "I", "L"]
    assert info[(1,)] == (6.0, True) and info[(2,)] == (6.5, True) and info[(0,)] == (7.0, False)
    wide, _ = ex.lessons.l06_expectimax.chance_pruned(T, 0, 100)     # a looser bound prunes less
    assert sorted(T.nodes[n]["label"] for n in wide) == []
    with pytest.raises(ValueError, match="outside"):
        ex.lessons.l06_expectimax.chance_pruned(T, 0, 5)


def test_chance_pruning_each_way():
    T = bounded_tree()
    assert ex.check_chance_pruning(T, (0, 10), {"H", "I", "L"}, set()).ok
    assert ex.check_chance_pruning(T, (0, 10), None, None).status == "unanswered"
    junk = ex.check_chance_pruning(T, (0, 10), 5, 7)
    assert junk.status == "unreadable" and not junk.tags
    first, second = twice(lambda: ex.check_chance_pruning(T, (0, 10), {"H", "I", "K", "L"}, {"H", "I", "K", "L"}))
    text = bad_text(first)
    assert "under D" in text and "without bounds" in text and "under C" not in text
    assert "chance-pruned" in first.tags
    assert_tags_catalogued(first)
    assert "6.5" not in text and "7" not in numbers_in(text)          # no bound or value worked out
    assert "every leaf in [0, 10]" in second.lines[-1] and "G = 2," not in second.lines[-1]
    attempts.reset()
    partly = ex.check_chance_pruning(T, (0, 10), {"H", "I"}, set())
    bad = [t for k, t, _ in partly.items if k == "bad"]
    assert len(bad) == 1 and "under D" in bad[0] and "L" not in re.findall(r"\b[A-Z]\b", bad[0].replace("D", ""))


def test_rescaled_choices_no_averages_in_wrong_lines_and_twin():
    quiz = gt.tree_from_nested([{"chance": [1, 9]}, {"chance": [4, 5]}])
    resc = {"2v + 7": lambda v: 2 * v + 7, "v squared": lambda v: v ** 2, "square root": math.sqrt,
            "10 - v": lambda v: 10 - v}
    assert ex.check_rescaled_choices(quiz, resc, {"2v + 7": "B", "v squared": "B", "square root": "C",
                                                  "10 - v": "C"}).ok
    assert ex.check_rescaled_choices(quiz, resc, 17).status == "unreadable"
    first, second = twice(lambda: ex.check_rescaled_choices(
        quiz, resc, {"2v + 7": "C", "v squared": "C", "square root": "B", "10 - v": "B"}))
    text = bad_text(first)
    assert len([1 for k, _, _ in first.items if k == "bad"]) == 4
    assert not re.search(r"averages? \d", text) and "picks B" not in text and "picks C" not in text
    assert first.tags == ("scale-sensitivity",)      # √ expected to keep the choice
    assert "1, 9" not in second.lines[-1]
    attempts.reset()
    partly = ex.check_rescaled_choices(quiz, resc, {"2v + 7": "B", "v squared": "B", "square root": "B",
                                                    "10 - v": None})
    assert partly.title == "Expectimax after rescaling: 2 of 4 right."
    assert "square root: not the child" in bad_text(partly) and "10 - v: not answered yet" in bad_text(partly)


def test_order_preserving_flip_wrong_then_twin():
    gamble = gt.tree_from_nested([{"chance": [5, 5]}, {"chance": [12, 0]}])
    assert ex.check_order_preserving_flip(gamble, lambda v: v).status == "unanswered"
    assert ex.check_order_preserving_flip(gamble, math.sqrt).ok
    assert ex.check_order_preserving_flip(gamble, lambda v: "x" + v).status == "unreadable"
    first, second = twice(lambda: ex.check_order_preserving_flip(gamble, lambda v: 2 * v + 1))
    assert "sqrt" not in bad_text(first) and "√" not in bad_text(first)
    assert "√" not in second.lines[-1] and "v³" in second.lines[-1]


def test_chance_edges_without_prob_are_drawn_with_their_equal_probability():
    import matplotlib

    matplotlib.use("Agg")
    T = gt.tree_from_nested([{"chance": [1, 9, 4]}, {"chance": [4, 5]}])
    ax = gt.draw(T, values=False)
    moves = next(c for c in ax.get_children() if c.get_gid() == "moves")
    labels = list(moves.texts)
    assert labels.count("0.5") == 2 and labels.count("1/3") == 3   # as the feedback writes it
