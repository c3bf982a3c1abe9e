"""Lessons 04-06: every check's feedback follows the feedback rules.

For each lesson check: an unanswered answer says only that; junk is "could not read"
(status unreadable, no misconception); an all-wrong and a partly right answer get a
first check that names every wrong part and none of the right values, labels or choices
the learner did not give; a second wrong check adds a worked twin ("Worked on a twin tree:
...", or "Worked on another position: ..." for a Connect Four position); a misconception
tag is given only where the answer is what it produces, and every tag is in the catalogue.
"""

import math
import re

import pytest
from submissions import careless, flag_from_raised_alpha

import gametrees as gt
from gametrees import exercises as ex
from gametrees import rules
from gametrees.exercises import attempts
from gametrees.exercises.misconceptions import CATALOGUE
from gametrees.games import ConnectFour

TWIN = attempts.TWIN_PREFIX
POSITION = attempts.twin_prefix("another position")
TABLE_ENTRY = attempts.twin_prefix("another entry")


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


def twice(check, prefix=TWIN):
    """The first and the second check of the same wrong answer (the twin's note starts with ``prefix``)."""
    first = check()
    second = check()
    assert first.status == "wrong" and second.status == "wrong"
    assert not any(text.startswith("Worked on") for kind, text, _ in first.items if kind == "note")
    assert any(kind == "note" and text.startswith(prefix) for kind, text, _ in second.items), second.lines
    assert second.attempt == first.attempt + 1
    return first, second


# ================================================================ lesson 04

C4 = ConnectFour()
THREAT = C4.from_moves([3, 3, 4, 4])


def test_win_depth_unanswered_junk_wrong_and_twin():
    assert ex.check_win_depth(C4, THREAT, None).status == "unanswered"
    junk = ex.check_win_depth(C4, THREAT, "x", first_move="y")
    assert junk.status == "unreadable" and not junk.tags
    assert ex.check_win_depth(C4, THREAT, 3, first_move=5).ok
    for wrong in (1, 2, 5, 9):
        attempts.reset()
        first, second = twice(lambda wrong=wrong: ex.check_win_depth(C4, THREAT, wrong, first_move=5),
                              POSITION)
        text = bad_text(first)
        assert "3" not in numbers_in(text), text          # the right depth is never given
        assert str(wrong) in text                          # the wrong part is named
        assert ("shallower" in text) == (wrong > 3)
        twin = second.lines[-1]
        assert "[3, 3, 4, 4]" not in twin and "gives 3" not in twin   # the twin is another position
        # with O's replies in its line, so that counting only X's moves (2 here) goes wrong there too
        assert "gives 5" in twin and "X, O, X, O, X" in twin, twin


def test_win_depth_with_the_first_move_of_the_forced_line():
    """Lesson 04's Exercise 3 asks for the depth and X's first move: an open three (2 or 5), not a search."""
    assert (ex.check_win_depth(C4, THREAT, 3, first_move=2).ok
            and ex.check_win_depth(C4, THREAT, 3, first_move=5).ok)
    assert ex.check_win_depth(C4, THREAT, None, first_move=None).status == "unanswered"
    assert ex.check_win_depth(C4, THREAT, "x", first_move="y").status == "unreadable"
    for move in (0, 1, 3, 4, 6):   # none of these leaves O two threats to block
        attempts.reset()
        fb = ex.check_win_depth(C4, THREAT, 3, first_move=move)
        assert fb.status == "wrong" and fb.title == "Forced line: 1 of 2 right."
        text = bad_text(fb)
        assert f"plays {move}" in text and not {"2", "5"} & numbers_in(text)
        again = ex.check_win_depth(C4, THREAT, 3, first_move=move)
        # the depth was right: no ply twin
        assert not any(t.startswith("Worked on") for _, t, _ in again.items)
    attempts.reset()
    fb = ex.check_win_depth(C4, THREAT, None, first_move=5)
    assert fb.title == "Forced line: 1 of 2 right." and "✗ The depth: not answered yet." in fb.lines


def test_win_depth_without_the_first_move_is_not_solved():
    """Both parts are asked: a right depth with the first move left out is 1 of 2, not solved."""
    attempts.reset()
    fb = ex.check_win_depth(C4, THREAT, 3)
    assert fb.status == "wrong" and not fb.solved and fb.title == "Forced line: 1 of 2 right."
    assert "✗ The first move: not answered yet." in fb.lines
    assert not attempts.counts()["l04.win_depth"]["solved"]


def test_win_depth_wrong_first_move_says_what_to_look_for():
    attempts.reset()
    text = bad_text(ex.check_win_depth(C4, THREAT, 3, first_move=0))
    assert "makes two threats at once" in text and "can block only one of them" in text
    assert "more threats than one move can block" not in text


def test_win_depth_gives_no_direction_to_repeated_guesses_without_the_line():
    """Too shallow / too deep is said on the first wrong depth, and whenever the line's first move is right;
    repeated guessed depths without the first move get no direction (no binary search on the hints)."""
    first = ex.check_win_depth(C4, THREAT, 5, first_move=None)
    assert "shallower" in bad_text(first)                              # the first wrong check: the direction
    for guess, move in [(2, None), (9, 0), (1, 6)]:
        text = bad_text(ex.check_win_depth(C4, THREAT, guess, first_move=move))
        assert "shallower" not in text and "still ends before" not in text, text
        assert f"Depth {guess} is not the depth asked for" in text and "3" not in numbers_in(text)
    for guess, words in [(2, "still ends before"), (7, "shallower")]:   # the line found: the direction again
        assert words in bad_text(ex.check_win_depth(C4, THREAT, guess, first_move=5))


def test_scale_choices_all_wrong_partly_right_and_twin():
    from gametrees.exercises.lessons.l04_depth_and_evaluation import _scale_twin, scale_moves
    ttt = gt.TicTacToe()
    moves = scale_moves(ttt, ttt.from_string("..O/.XO/XOX"))   # lesson 04's real position
    assert moves == {"a": "win", "b": (2, [0, 1]), "c": (1, [-1, 1])}
    keys = ex.lessons.l04_depth_and_evaluation.SCALE_QUESTIONS
    right = {"depth 1, utility ±1": "b", "depth 2, utility ±1": "a", "depth 1, one scale": "a",
             "depth 2, one scale": "a"}
    assert ex.check_scale_choices(moves, right).ok
    assert ex.check_scale_choices(moves, {k: None for k in keys}).status == "unanswered"
    assert ex.check_scale_choices(moves, 17).status == "unreadable"
    all_wrong = {"depth 1, utility ±1": "a", "depth 2, utility ±1": "b", "depth 1, one scale": "c",
                 "depth 2, one scale": "b"}
    first, _ = twice(lambda: ex.check_scale_choices(moves, all_wrong), POSITION)
    bad = [text for kind, text, _ in first.items if kind == "bad"]
    text = bad_text(first)
    # Lesson 04 says the check counts: each slip is explained and counted, no question is named.
    assert not any(k in text for k in keys), text
    assert "1 of your answers: the search does not play the win there" in text
    assert "2 of your answers: on one scale, what is a win worth" in text   # counted, not named
    for line in bad:   # no move is named in a wrong line ("a" only as the article)
        assert set(re.findall(r"\b[abc]\b", line)) <= {"a"}, line
    assert "min(" not in text   # no worked values
    assert "scale-mismatch" in first.tags           # the win chosen with ±1 utilities
    assert_tags_catalogued(first)
    attempts.reset()
    partly = dict(right, **{"depth 2, utility ±1": "b"})
    fb = ex.check_scale_choices(moves, partly)
    assert fb.title.endswith("3 of 4 right.") and len([1 for k, _, _ in fb.items if k == "bad"]) == 1
    # b is also the depth-1 choice: no tag
    assert fb.tags == () and not re.findall(r"\b[bc]\b", bad_text(fb))
    # right answers are not marked one by one
    assert not [text for kind, text, _ in fb.items if kind == "good"]
    upper = {k: v.upper() for k, v in right.items()}
    assert ex.check_scale_choices(moves, upper).ok                          # "B" is b
    attempts.reset()
    plain = ex.check_scale_choices(moves, dict(right, **{"depth 1, utility ±1": "c"}))   # no slip to name
    assert plain.title.endswith("3 of 4 right.") and "1 answer is wrong" in bad_text(plain)
    assert "other" not in bad_text(plain)
    assert not any(k in bad_text(plain) for k in keys)                      # the question is not marked
    # The twin is another real position: its numbers are open-lines numbers of a real game.
    twin = _scale_twin(moves, list(keys), 100)
    found = re.findall(r"estimate (-?\d+), replies \[([^\]]*)\]", twin)
    assert len(found) >= 2 and [int(e) for e, _ in found] != [2, 1]   # not the lesson's own numbers
    assert "'" not in "".join(replies for _, replies in found)         # numbers, not quoted strings
    for estimate, replies in found:
        drops = [int(estimate) - int(r.strip("' ")) for r in replies.split(",")]
        assert int(estimate) <= 4 and all(0 <= d <= 4 for d in drops), twin
    # ... and it shows the position: a board, X to move, whose moves are the numbers said, square by square
    board = re.search(r"the board (\S+), X to move: ", twin).group(1)
    state = ttt.from_string(board)
    spec = scale_moves(ttt, state)
    said = re.findall(r"\b\w = square \d: (?:wins at once|estimate -?\d+, replies \[[^\]]*\])", twin)
    assert spec != moves and len(said) == len(spec), twin
    win_square = next(m for m, c in ttt.successors(state) if ttt.is_terminal(c))
    assert f"square {win_square}: wins at once" in twin and "a = square" in twin
    for square, child in ttt.successors(state):
        if not ttt.is_terminal(child):
            replies = ", ".join(str(open_lines(r)) for _, r in ttt.successors(child))
            assert f"square {square}: estimate {open_lines(child)}, replies [{replies}]" in twin, twin


def open_lines(state):
    """Lesson 04's open-lines estimate of a tic-tac-toe position, as a whole number."""
    return round(gt.evaluation.tictactoe_open_lines(state, scale=10) * 10)


@pytest.mark.parametrize("wrong", [w for w in __import__("itertools").product("abc", repeat=4)
                                   if w != ("b", "a", "a", "a")])
def test_scale_twin_gives_away_no_answer_of_the_exercise(wrong):
    """Whatever the slips, the worked twin of lesson 04's exercise 1 states none of its answers: on every
    question it works, its search plays another move (by name) and its moves are worth other numbers; its
    win is not named a, the exercise's win; a twin with a search that skips the win is preferred."""
    ttt = gt.TicTacToe()
    moves = ex.lessons.l04_depth_and_evaluation.scale_moves(ttt, ttt.from_string("..O/.XO/XOX"))
    keys = ex.lessons.l04_depth_and_evaluation.SCALE_QUESTIONS
    right = dict(zip(keys, "baaa"))
    own = {"depth 1, utility ±1": ("b", [1, 1, 2]), "depth 2, utility ±1": ("a", [-1, 0, 1]),
           "depth 1, one scale": ("a", [1, 2, 100]), "depth 2, one scale": ("a", [-1, 0, 100])}
    answer = dict(zip(keys, wrong))
    _, second = twice(lambda: ex.check_scale_choices(moves, answer, win=100), POSITION)
    twin = second.lines[-1]
    assert re.search(r"\b(\w) = square \d: wins at once", twin).group(1) != "a", twin
    worked = re.findall(r"(depth \d, (?:utility ±1|one scale)): ([^:]*): the search plays (\w)", twin)
    assert {k for k, _, _ in worked} == {k for k in keys if answer[k] != right[k]}, twin
    for key, line, plays in worked:
        assert plays != own[key][0], (key, twin)
        values = sorted(int(v) for v in re.findall(r"(?:= |worth )(-?\d+)\)?(?:,|$)", line))
        assert len(values) == len(re.findall(r"\b\w (?:=|wins)", line)) >= 3 and values != own[key][1], twin
    if answer["depth 1, utility ±1"] == "a":   # the win taken with utility ±1: the twin's search skips it
        assert re.search(r"depth 1, utility ±1: [^:]*: the search plays (\w)", twin).group(1) != \
            re.search(r"\b(\w) = square \d: wins at once", twin).group(1), twin


QUIET = {name: C4.from_moves(moves) for name, moves in {
    "A": [0, 1, 1, 2, 5, 2, 2], "B": [3, 3, 4, 4, 2, 5], "C": [3, 2, 3, 2, 3],
    "D": [3, 3, 4, 4, 5], "E": [3, 3, 4, 4]}.items()}


def test_quiet_positions_all_wrong_partly_right_and_twin():
    assert ex.check_quiet_positions(C4, QUIET, {"A", "E"}).ok
    assert ex.check_quiet_positions(C4, QUIET, None).status == "unanswered"
    junk = ex.check_quiet_positions(C4, QUIET, 17)
    assert junk.status == "unreadable" and not junk.tags
    first, second = twice(lambda: ex.check_quiet_positions(C4, QUIET, {"B", "C", "D"}), POSITION)
    bad = [text for kind, text, _ in first.items if kind == "bad"]
    text = bad_text(first)
    assert len(bad) == 2 and "3 of the positions you called quiet are not" in text and "left out 2" in text
    assert not any(re.search(rf"\b{n}\b", text.replace("A cell", "")) for n in "ABCDE")   # never the names
    assert "column" not in text.replace("the column below", "")   # no winning or forced column given away
    assert first.tags == ("horizon-effect",)
    assert_tags_catalogued(first)
    assert "quiet" in second.lines[-1] and "[3, 3, 4, 4]" not in second.lines[-1]
    attempts.reset()
    partly = ex.check_quiet_positions(C4, QUIET, {"A"})
    assert (partly.title == "Quiet positions: 4 of 5 right."
            and "left out 1 quiet position" in bad_text(partly))
    assert not partly.tags     # leaving a quiet one out is not the horizon misconception
    attempts.reset()
    empty = ex.check_quiet_positions(C4, QUIET, set())                     # the reader's probe: nothing named
    assert empty.title == "Quiet positions: 3 of 5 right."
    assert not re.search(r"\b[AE]\b", bad_text(empty).replace("A cell", ""))
    assert ex.check_quiet_positions(C4, QUIET, {"a", "e"}).ok                # names read ignoring case


def test_quiet_positions_right_is_recorded_solved_or_after_the_solution_shown():
    attempts.reset()
    fb = ex.check_quiet_positions(C4, QUIET, {"A", "E"})
    assert fb.ok and fb.solved is True and attempts.counts()["l04.quiet_positions"]["solved"]
    attempts.reset()
    ex.check_quiet_positions(C4, QUIET, {"A"})
    assert attempts.open_solution("l04.quiet_positions", ".solution()") is None
    late = ex.check_quiet_positions(C4, QUIET, {"A", "E"})
    assert late.ok and late.solved is False and not attempts.counts()["l04.quiet_positions"]["solved"]


def test_quiet_twin_is_quiet_for_the_reason_a_is():
    """The quiet twin, like A, has a three of the other side whose fourth cell cannot be played yet: one move
    (the one below that cell) loses at once, and the others are safe."""
    from gametrees.exercises.lessons.l04_depth_and_evaluation import _QUIET_TWINS, _quiet_status
    # the first is used
    quiet = [m for m in _QUIET_TWINS if _quiet_status(C4, C4.from_moves(m))[0] == "quiet"]
    state = C4.from_moves(quiet[0])
    _, safe = _quiet_status(C4, state)
    unsafe = [m for m in C4.actions(state) if m not in safe]
    assert len(unsafe) == 1 and len(safe) >= 2
    attempts.reset()
    _, second = twice(lambda: ex.check_quiet_positions(C4, QUIET, {"A"}), POSITION)   # E, quiet, left out
    twin = second.lines[-1]
    assert f"after the moves {quiet[0]}" in twin and f"must not play {unsafe[0]}" in twin and "quiet" in twin


# ================================================================ lesson 05

def test_same_up_to_symmetry_right_counts_and_names_no_position():
    """Lesson 05's Exercise 1: each answer judged against the board's eight symmetries (computed), the
    feedback a count with the kind of each slip, no position named and no symmetry given."""
    from gametrees.exercises.lessons.l05_search_enhancements import SYMMETRY_NAMES, check_same_up_to_symmetry
    ttt = gt.TicTacToe()
    ref = "XO./.../..."
    boards = {"A": "..X/..O/...", "B": ".OX/.../...", "C": "X../O../...", "D": "X../.../.O.",
              "E": ".../.../.OX", "F": "O../X../..."}
    images = ttt.symmetries(ttt.from_string(ref))
    right = {k: next((SYMMETRY_NAMES[i] for i, img in enumerate(images) if img == ttt.from_string(b)), "not")
             for k, b in boards.items()}
    assert sorted(v for v in right.values() if v == "not") == ["not", "not"]   # D and F are not in the class
    attempts.reset()
    assert check_same_up_to_symmetry(ref, boards, dict.fromkeys(boards)).status == "unanswered"
    fb = check_same_up_to_symmetry(ref, boards, right)
    assert fb.ok and fb.solved
    attempts.reset()
    in_class = [k for k, v in right.items() if v != "not"]
    other = next(n for n in SYMMETRY_NAMES if n != right[in_class[1]])
    wrong = dict(right, **{in_class[0]: "not", in_class[1]: other, "F": "rotate 90"})
    fb = check_same_up_to_symmetry(ref, boards, wrong)
    assert fb.title == f"Same up to symmetry: {len(boards) - 3} of {len(boards)} right."
    text = bad_text(fb)
    assert "1 of your answers calls a position not in the class" in text
    assert "1 of your answers names a symmetry for a position no symmetry reaches" in text
    assert "1 of your answers names a symmetry that does not turn" in text
    assert not re.search(r"\b[A-F]\b", text)                          # no position named
    assert not any(n in text for n in SYMMETRY_NAMES)                   # no symmetry given
    assert check_same_up_to_symmetry(ref, boards, dict(right, A="turn")).status == "wrong"


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
RIGHT_REREAD = {"A": (8, math.inf), "B": 5, "C": (-math.inf, 3)}   # the bounds narrow the full window


def test_window_entries_right_unanswered_junk():
    T = gt.tree_from_nested(WINDOW_TREE)
    assert ex.check_window_entries(T, (4, 7), FULL, RIGHT_STORED, RIGHT_REREAD).ok
    blank = ex.check_window_entries(T, (4, 7), FULL, {k: (None, None) for k in "ABC"},
                                    {k: None for k in "ABC"})
    assert blank.status == "unanswered" and len(blank.items) == 1
    junk = ex.check_window_entries(T, (4, 7), FULL, {k: "zz" for k in "ABC"}, {k: "?" for k in "ABC"})
    assert junk.status == "unreadable" and not junk.tags
    # a window with its ends the wrong way round: said so, not only "could not read"
    upside = ex.check_window_entries(T, (4, 7), FULL, RIGHT_STORED, dict(RIGHT_REREAD, C=(2, 1)))
    assert "a window (alpha, beta) needs alpha below beta: 2 is not below 1" in repr(upside)


def test_window_entries_all_wrong_names_every_part_and_no_right_value():
    T = gt.tree_from_nested(WINDOW_TREE)
    minimax_view = {"A": (10, "exact"), "B": (5, "upper"), "C": (1, "exact")}
    first, second = twice(lambda: ex.check_window_entries(T, (4, 7), FULL, minimax_view,
                                                          {"A": 10, "B": (5, 9), "C": 1}))
    text = bad_text(first)
    bad = [t for k, t, _ in first.items if k == "bad"]
    # the later reads are judged from the learner's own entries: A's 10 and C's 1 follow from their exact
    # entries, so only their value and flag are wrong; B's (5, 'upper') does not narrow to (5, 9)
    assert sum(t.startswith("A") for t in bad) == 2 and sum(t.startswith("C") for t in bad) == 2
    assert sum(t.startswith("B") for t in bad) == 2          # B's value 5 is right
    good = [t for k, t, _ in first.items if k == "good"]
    assert "A, read later from your entry (10, 'exact'): the table answers 10, right." in good
    assert any(t.startswith("B, read later from your entry (5, 'upper')") for t in bad)
    assert not {"8", "3"} & numbers_in(text), text           # A's and C's stored values never given
    # no right flag given (the learner's own is echoed)
    for flag in ("'lower'", "'upper'", '"lower"', '"upper"'):
        assert flag not in text.replace("from your entry (5, 'upper')", ""), flag
    assert set(first.tags) == {"cut-value-as-minimax", "bound-as-value"}
    assert_tags_catalogued(first)
    twin = second.lines[-1]
    assert "window (4, 7)" not in twin and "F = 6, G = 5" not in twin


def test_window_entries_fail_hard_and_partly_right():
    T = gt.tree_from_nested(WINDOW_TREE)
    fb = ex.check_window_entries(T, (4, 7), FULL, {"A": (7, "lower"), "B": (5, "exact"), "C": (5, "upper")},
                                 RIGHT_REREAD)
    # the later reads are judged from the learner's entries: (8, +inf) does not follow
    # from their (7, 'lower'), nor (-inf, 3) from their (5, 'upper')
    assert fb.tags == ("fail-hard-bound",) and fb.title.endswith("5 of 9 right.")
    assert not {"8", "3"} & numbers_in(bad_text(fb))
    # C's 5 is the alpha C was given (B's 5 raised A's alpha), not the root's: the same slip, named for both
    fail_soft = [t for k, t, _ in fb.items if k == "bad" and "this search is fail-soft" in t]
    assert [t[0] for t in fail_soft] == ["A", "C"], fail_soft
    attempts.reset()
    fb = ex.check_window_entries(T, (4, 7), FULL, RIGHT_STORED, {"A": 8, "B": 5, "C": (-math.inf, 3)})
    assert fb.title.endswith("8 of 9 right.") and fb.tags == ("bound-as-value",)


def test_window_entries_read_under_another_window_narrow_it():
    T = gt.tree_from_nested(WINDOW_TREE)
    fb = ex.check_window_entries(T, (4, 7), FULL, RIGHT_STORED, {"A": "search", "B": 5, "C": FULL})
    assert fb.title.endswith("7 of 9 right.") and fb.tags == ("table-bound-unused",)
    assert "A bound that cannot answer here still narrows the window" in bad_text(fb)
    attempts.reset()
    fb = ex.check_window_entries(T, (4, 7), FULL, RIGHT_STORED,
                                 {"A": (-math.inf, 8), "B": 5, "C": (3, math.inf)})
    assert fb.tags == ("table-bound-wrong-side",) and fb.title.endswith("7 of 9 right.")
    assert not {"8", "3"} & numbers_in(bad_text(fb).replace("At least 8", "").replace("At most 3", ""))
    attempts.reset()
    later = (2, 9)   # another window: A's lower bound 8 raises α to 8; C's upper bound 3 lowers β to 3
    fb = ex.check_window_entries(T, (4, 7), later, RIGHT_STORED, {"A": (8, 9), "B": 5, "C": (2, 3)})
    assert fb.ok
    _, second = twice(lambda: ex.check_window_entries(T, (4, 7), later, RIGHT_STORED,
                                                      {"A": (2, 8), "B": 5, "C": (2, 3)}))
    assert "goes on with" in second.lines[-1] and second.lines[-1].startswith("• Worked on a twin tree: ")


def test_window_entries_a_twin_for_every_set_of_wrong_nodes():
    # the lesson's reading window (2, 9): A's "at least 8" and C's "at most 3" both sit just inside it, so
    # a twin read under (2, 9) rarely has both; the twin is then read under a window of its own
    T = gt.tree_from_nested(WINDOW_TREE)
    wrong = {"A": ((10, "exact"), 10), "B": ((6, "upper"), (2, 6)), "C": ((1, "exact"), 1)}
    for nodes in ("A", "C", "AC", "ABC"):
        attempts.reset()
        stored = {k: wrong[k][0] if k in nodes else RIGHT_STORED[k] for k in "ABC"}
        reread = {k: wrong[k][1] if k in nodes else {"A": (8, 9), "B": 5, "C": (2, 3)}[k] for k in "ABC"}
        _, second = twice(lambda s=stored, r=reread: ex.check_window_entries(T, (4, 7), (2, 9), s, r))
        twin = second.lines[-1]
        assert twin.startswith("• Worked on a twin tree: "), (nodes, second)
        assert all(f"{k} (M" in twin for k in nodes), (nodes, twin)


def test_window_twin_says_why_a_value_outside_its_window_is_exact():
    # B (MIN) sees 15 then 2 <= alpha = 9 at its last child: nothing skipped, so the engine stores it exact;
    # the twin's sentence must not read "2 <= alpha, so the entry is 'exact'" without saying why
    from gametrees.exercises.answers import NodeNames
    from gametrees.exercises.lessons.l05_search_enhancements import _stored, _worked

    H = gt.tree_from_nested([[15, 2], [5, 15], [13, 15], [7, 2]])
    assert _stored(H, (9, 11))[0][(0,)] == (2, "exact") and rules.window_bound(2, 9, 11) == "upper"
    line = _worked(H, gt.alphabeta(H, window=(9, 11), trace=True), (0,), NodeNames(H))
    assert "2 ≤ α = 9, but B looked at every child (none was skipped), so its value is exact" in line


ENTRY = {"value": 3, "flag": "lower", "depth": 4, "move": 2}
LATER = [(0, 2, 4), (0, 5, 4), (0, 2, 6), (-5, 3, 3)]


def test_table_answers_each_way():
    fb = ex.check_table_answers(ENTRY, LATER, [3, (3, 5), "search", 3])
    assert fb.ok
    # the 4-ply entry, 3 plies
    deeper = [t for k, t, _ in fb.items if k == "good" and "search instability" in t]
    assert len(deeper) == 1 and "The 4-ply entry stands in for a 3-ply search" in deeper[0]
    assert [d for _, _, d in LATER].count(3) == 1 and ENTRY["depth"] == 4
    # too shallow: the window as it is
    assert ex.check_table_answers(ENTRY, LATER, [3, (3, 5), (0, 2), 3]).ok
    assert ex.check_table_answers(ENTRY, LATER, None).status == "unanswered"
    assert ex.check_table_answers(ENTRY, LATER, "3").status == "unreadable"
    assert ex.check_table_answers(ENTRY, LATER, ["?", "x", "y", "z"]).status == "unreadable"
    first, second = twice(lambda: ex.check_table_answers(ENTRY, LATER, ["search", 3, 3, 5]), TABLE_ENTRY)
    bad = [t for k, t, _ in first.items if k == "bad"]
    assert [t.split(":")[0][:8] for t in bad] == ["Search 1", "Search 2", "Search 3", "Search 4"]
    assert "answers with the stored" not in bad_text(first)
    assert first.tags == ("bound-as-value",)          # a lower bound inside the window taken as the value
    assert "'lower'" in second.lines[-1] and "window (0, 5)" not in second.lines[-1]
    attempts.reset()
    partly = ex.check_table_answers(ENTRY, LATER, [3, (3, 5), None, "search"])
    assert partly.title == "Table answers: 2 of 4 right." and "not answered yet" in bad_text(partly)
    attempts.reset()
    short = ex.check_table_answers(ENTRY, LATER, [3, (3, 5)])      # the first two: graded, the rest not yet
    assert short.title == "Table answers: 2 of 4 right." and short.status == "wrong"
    assert [t.split(": ", 1)[1] for k, t, _ in short.items if k == "bad"] == ["not answered yet."] * 2
    assert ex.check_table_answers(ENTRY, LATER, [3, (3, 5), "search", 3, 3]).status == "unreadable"


def test_table_answers_a_bound_that_cannot_answer_narrows_the_window():
    unused = ex.check_table_answers(ENTRY, LATER, [3, "search", "search", 3])
    assert unused.title == "Table answers: 3 of 4 right." and unused.tags == ("table-bound-unused",)
    assert "(3, 5)" not in bad_text(unused)
    attempts.reset()
    wrong_side = ex.check_table_answers(ENTRY, LATER, [3, (0, 3), "search", 3])
    assert wrong_side.tags == ("table-bound-wrong-side",) and "wrong end" in bad_text(wrong_side)
    attempts.reset()
    fb = ex.check_table_answers(ENTRY, LATER, [3, (3, 5), (3, 6), 3])
    assert fb.title == "Table answers: 3 of 4 right." and "too shallow" not in bad_text(fb)
    upper = {"value": 3, "flag": "upper", "depth": 4, "move": None}
    assert ex.check_table_answers(upper, [(-5, 5, 4), (4, 9, 2)], [(-5, 3), 3]).ok
    attempts.reset()
    first, second = twice(lambda: ex.check_table_answers(upper, [(-5, 5, 4)], [(3, 5)]), TABLE_ENTRY)
    assert first.tags == ("table-bound-wrong-side",)
    assert second.lines[-1].startswith("• Worked on another entry: ") and "lowers β" in second.lines[-1]


def test_table_answers_a_bound_on_the_far_side_is_no_news():
    # at least 3 with alpha = 4 (at most 3 with beta = 2): the window stays; "search" or the window as it
    # is is right, and the line says no news, never "narrows"
    for entry, query, window in (({"value": 3, "flag": "lower", "depth": 4}, (4, 9, 4), (4, 9)),
                                 ({"value": 3, "flag": "upper", "depth": 4}, (0, 2, 4), (0, 2))):
        assert rules.table_probe(entry["flag"], 3, *query[:2]) == (None, *window)
        for answer in ("search", window):
            attempts.reset()
            fb = ex.check_table_answers(entry, [query], [answer])
            assert fb.ok, fb
            assert "no news" in fb.items[0][1] and f"the window stays {window}".replace(" ", "") in \
                fb.items[0][1].replace(" ", "") and "narrows" not in fb.items[0][1]
        attempts.reset()
        moved = ex.check_table_answers(entry, [query], [(3, 9) if entry["flag"] == "lower" else (0, 3)])
        assert not moved.ok and "narrows" not in bad_text(moved)


def test_window_entries_a_bound_read_under_a_window_it_cannot_narrow():
    T = gt.tree_from_nested(WINDOW_TREE)
    later = (9, 12)   # A's "at least 8" is no news with alpha = 9; C's "at most 3" answers (3 <= 9)
    assert rules.table_probe("lower", 8, *later) == (None, *later)
    fb = ex.check_window_entries(T, (4, 7), later, RIGHT_STORED, {"A": "search", "B": 5, "C": 3})
    assert fb.ok, fb
    line = next(t for k, t, _ in fb.items if t.startswith("A, read later"))
    assert "no news" in line and "stays (9, 12)" in line and "narrows" not in line


def test_table_search_names_a_flag_the_wrong_way_round():
    # a fail-high stored as "upper": the α the loop raised
    fb = ex.check_table_search(flag_from_raised_alpha)
    assert not fb.ok and fb.tags == ("table-flag-reversed",)
    line = next(t for k, t, _ in fb.items if k == "bad")
    assert "a flag the wrong way round" in line and "'upper'" in line and "failed high" in line
    assert "a bound used as if it were exact" not in line
    assert_tags_catalogued(fb)
    # a second wrong check works that mistake through on another position, not the negamax-sign one
    twin = ex.check_table_search(flag_from_raised_alpha).lines[-1]
    assert twin.startswith("• Worked on another position: ") and "the α the loop raised" in twin, twin
    assert "'upper'" in twin and "window the search was given" in twin and "MIN is to move" not in twin
    attempts.reset()
    # the careless table is another bug
    assert "table-flag-reversed" not in ex.check_table_search(careless).tags


def test_table_search_starter_is_only_unanswered_and_hint_does_not_spell_out_the_rule():
    def starter(game, state, alpha, beta, table):
        raise NotImplementedError

    fb = ex.check_table_search(starter)
    assert fb.status == "unanswered" and len(fb.items) == 1
    assert ex.check_table_search(lambda game, state: 0).status == "unreadable"

    first, second = twice(lambda: ex.check_table_search(careless), POSITION)
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
    first, second = twice(lambda: ex.check_chance_pruning(T, (0, 10), {"H", "I", "K", "L"},
                                                          {"H", "I", "K", "L"}))
    text = bad_text(first)
    assert "under D" in text and "without bounds" in text and "under C" not in text
    assert "chance-pruned" in first.tags
    assert_tags_catalogued(first)
    assert "6.5" not in text and "7" not in numbers_in(text)          # no bound or value worked out
    assert "every leaf in [0, 10]" in second.lines[-1] and "G = 2," not in second.lines[-1]
    # the exercise cuts D after two outcomes (J and K): the twin has a cut after two as well, said so
    assert re.search(r"after [A-Z] and [A-Z] it can be worth at most", second.lines[-1]), second.lines[-1]
    assert "first outcomes" not in second.lines[-1]
    attempts.reset()
    assert first.title == "Pruning below chance nodes: 0 of 2 right."   # one count per part, not per line
    partly = ex.check_chance_pruning(T, (0, 10), {"H", "I"}, set())
    bad = [t for k, t, _ in partly.items if k == "bad"]
    assert (len(bad) == 1 and "under D" in bad[0]
            and "L" not in re.findall(r"\b[A-Z]\b", bad[0].replace("D", "")))


@pytest.mark.parametrize("with_bounds", [{"H", "I", "L"}, {"H", "I", "K", "L"}], ids=["right", "wrong"])
def test_chance_pruning_without_bounds_twin_works_that_mistake(with_bounds):
    """A wrong without-bounds answer is worked on the twin as that mistake: a skipped leaf could be huge and
    lift its chance node above what MAX has, so it must be looked at; each number recomputed from the twin's
    leaves. The bounded cuts are worked only when the with-bounds part was wrong too."""
    T = bounded_tree()
    attempts.reset()
    first, second = twice(lambda: ex.check_chance_pruning(T, (0, 10), with_bounds, {"H", "I", "L"}))
    twin = second.lines[-1]
    assert ("every leaf in [0, 10]:" in twin) == (with_bounds != {"H", "I", "L"}), twin
    leaves = {k: float(v) for k, v in re.findall(r"\b([E-L]) = (\d+)", twin.split(". Without")[0])}
    assert sorted(leaves) == list("EFGHIJKL")
    H = gt.tree_from_nested([{"chance": [leaves[k] for k in "EF"], "p": [0.5, 0.5]},
                             {"chance": [leaves[k] for k in "GHI"], "p": [0.5, 0.25, 0.25]},
                             {"chance": [leaves[k] for k in "JKL"], "p": [0.25, 0.25, 0.5]}])
    pruned, info = ex.lessons.l06_expectimax.chance_pruned(H, 0, 10)
    m = re.search(r"Without bounds: under ([B-D]), after (.*?), (?:each of )?(.*?) could be (\d+) "
                  r"\(nothing says otherwise\), and then \1 = (.*?) = ([\d.]+), more than the ([\d.]+) MAX "
                  r"already has: \1 could be MAX's choice, so \3 must be looked at \(with every leaf at most "
                  r"10, \1 is at most ([\d.]+) and the skip is safe\)", twin)
    assert m, twin
    node, seen, skipped, big, terms, lifted, best, most = m.groups()
    k = {"B": (0,), "C": (1,), "D": (2,)}[node]
    outs = list(H.successors(k))
    # the skipped leaves are the ones the bounds let the search skip under that node, and only those
    assert {H.nodes[n]["label"] for n in outs if n in pruned} == set(re.findall(r"[A-Z]", skipped))
    assert info[k] == (float(most), True)
    # the sum: seen outcomes at their values, the skipped at the big value, weighted by their probabilities
    probs = [H.edges[k, n]["prob"] for n in outs]
    want = [(p, H.nodes[n]["utility"] if n not in pruned else float(big)) for p, n in zip(probs, outs)]
    assert [(float(a), float(b)) for a, b in re.findall(r"([\d.]+) × ([\d.]+)", terms)] == want
    assert math.isclose(float(lifted), sum(p * v for p, v in want))
    # what MAX already has: the best chance node before this one (none of those was cut)
    before = [c for c in H.successors(()) if c < k]
    assert all(not info[c][1] for c in before)
    assert float(best) == max(info[c][0] for c in before) < float(lifted)
    assert twin.endswith("without bounds nothing can be skipped.")


def test_chance_pruning_with_plain_means_is_named():
    """Bounding each chance node with a plain mean (outcomes as if equally likely) skips I and L here: the
    feedback names that misconception, and only for that answer."""
    T = bounded_tree()
    plain = ex.lessons.l06_expectimax.chance_pruned(ex.lessons.l06_expectimax._unweighted(T), 0, 10)[0]
    assert sorted(T.nodes[n]["label"] for n in plain) == ["I", "L"]
    fb = ex.check_chance_pruning(T, (0, 10), {"I", "L"}, set())
    assert fb.status == "wrong" and fb.tags == ("chance-unweighted",) and fb.title.endswith("1 of 2 right.")
    assert "equally likely" in bad_text(fb) and not {"H", "6", "7"} & set(re.findall(r"\w+", bad_text(fb)))
    assert "check_chance_pruning" in CATALOGUE["chance-unweighted"].detected_by
    attempts.reset()
    assert "chance-unweighted" not in ex.check_chance_pruning(T, (0, 10), {"I"}, set()).tags


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


def test_rescaled_choices_with_averages_as_lesson_06_asks():
    """Lesson 06's Ex 3 asks each change's child and both averages: flipping the two-way choices is no way
    through, and a right child with wrong averages is not right."""
    quiz = gt.tree_from_nested([{"chance": [1, 9]}, {"chance": [4, 5]}])
    resc = {"2v + 7": lambda v: 2 * v + 7, "v squared": lambda v: v ** 2, "square root": math.sqrt,
            "10 - v": lambda v: 10 - v}

    def check(answer):
        return ex.check_rescaled_choices(quiz, resc, answer, with_averages=True)

    right = {"2v + 7": ("B", 17, 16), "v squared": ("B", 41, 20.5), "square root": ("C", 2, 2.12),
             "10 - v": ("C", 5, 5.5)}
    assert check(right).ok
    assert check(dict.fromkeys(resc)).status == "unanswered"
    # the right children, no averages
    labels_only = check({name: pick for name, (pick, *_) in right.items()})
    assert not labels_only.ok and labels_only.title.endswith("0 of 4 right.")
    guessed = check({name: (pick, 0, 0) for name, (pick, *_) in right.items()})
    assert not guessed.ok and guessed.title.endswith("0 of 4 right.")
    assert "the child is right, but not every average" in bad_text(guessed)
    assert not re.search(r"\d", bad_text(guessed).replace("2v + 7", "").replace("10 - v", ""))   # no averages


def test_order_preserving_flip_wrong_then_twin():
    gamble = gt.tree_from_nested([{"chance": [5, 5]}, {"chance": [12, 0]}])
    assert ex.check_order_preserving_flip(gamble, lambda v: v).status == "unanswered"
    assert ex.check_order_preserving_flip(gamble, math.sqrt).ok
    assert ex.check_order_preserving_flip(gamble, lambda v: "x" + v).status == "unreadable"
    first, second = twice(lambda: ex.check_order_preserving_flip(gamble, lambda v: 2 * v + 1))
    assert "sqrt" not in bad_text(first) and "√" not in bad_text(first)
    assert "f is a·v + b (a = 2, b = 1)" in bad_text(first)
    assert "never moves expectimax's choice" in bad_text(first)
    twin = second.lines[-1]     # the order kept, the choice not flipped: how stretching the gaps flips it
    assert "√" not in twin and "v² keeps the order" in twin and "turns the order around" not in twin
    assert "5, 5" not in twin and "12" not in numbers_in(twin)            # another tree, the other direction
    attempts.reset()
    first, second = twice(lambda: ex.check_order_preserving_flip(gamble, lambda v: -v))
    assert "does not keep the order" in bad_text(first) and "a·v + b" not in bad_text(first)
    attempts.reset()
    cubed = ex.check_order_preserving_flip(gamble, lambda v: v ** 3)      # not affine: the general question
    assert "a·v + b" not in bad_text(cubed) and "have not changed places" in bad_text(cubed)
    twin = second.lines[-1]     # the order broken: why that does not count, then an order-keeping change
    assert "turns the order around" in twin and "minimax would change its choice too" in twin
    assert twin.index("turns the order around") < twin.index("v² keeps the order")


@pytest.mark.parametrize("f", [lambda v: min(v, 5), lambda v: max(v, 5)], ids=["min(v, 5)", "max(v, 5)"])
def test_order_preserving_flip_flat_f_gets_a_flat_twin(f):
    """An f that only makes leaves equal (the reader's min(v, 5)) is worked on a twin with a flat f, not a
    reversal; the twin's claims are recomputed from its tree."""
    gamble = gt.tree_from_nested([{"chance": [5, 5]}, {"chance": [12, 0]}])
    attempts.reset()
    first, second = twice(lambda: ex.check_order_preserving_flip(gamble, f))
    assert "does not keep the order" in bad_text(first)
    twin = second.lines[-1]
    assert "turns the order around" not in twin and "10 − v" not in twin
    m = re.search(r"B is a coin between (\d+) and (\d+), C a sure (\d+): .*; f\(v\) = max\(v, (\d+)\) "
                  r"gives B averages ([\d.]+), C averages ([\d.]+), so expectimax picks ([BC]); f turns no "
                  r"two leaves around, but it makes (\d+) and (\d+) equal \(f gives (\d+) and (\d+)\)", twin)
    assert m, twin
    low, high, mid, cap, b, c, pick, x, y, fx, fy = m.groups()
    low, high, mid, cap, x, y = map(int, (low, high, mid, cap, x, y))
    flat = lambda v: max(v, cap)                                          # noqa: E731
    T = gt.tree_from_nested([{"chance": [low, high]}, {"chance": [mid, mid]}])
    r = gt.expectimax(ex.lessons.l06_expectimax._mapped(T, flat), trace=False, graph=True)
    assert (float(b), float(c)) == tuple(r.graph.nodes[k]["value"] for k in T.successors(()))
    assert pick == "B" == "BC"[r.move[0]] != "BC"[gt.expectimax(T, trace=False).move[0]]   # a flip
    assert x < y and flat(x) == flat(y) == int(fx) == int(fy)                  # flat, not reversed
    assert all(flat(u) <= flat(v) for u, v in [(low, mid), (mid, high)])
    assert "strictly" in twin and twin.index("max(v,") < twin.index("v² keeps the order")


def test_order_preserving_flip_rejects_a_tie():
    """f = {0: 0, 5: 5, 12: 10} makes B and C both average 5: a tie, not a flip (the reader's probe)."""
    gamble = gt.tree_from_nested([{"chance": [5, 5]}, {"chance": [12, 0]}])
    tie = ex.check_order_preserving_flip(gamble, {0: 0, 5: 5, 12: 10}.get)
    assert tie.status == "wrong" and "B and C tie at 5" in bad_text(tie)
    assert not any("now chooses" in text for _, text, _ in tie.items)
    assert ex.check_order_preserving_flip(gamble, {0: 0, 5: 5, 12: 9}.get).ok      # 5 against 4.5: a flip


def test_chance_edges_without_prob_are_drawn_with_their_equal_probability():
    import matplotlib

    matplotlib.use("Agg")
    T = gt.tree_from_nested([{"chance": [1, 9, 4]}, {"chance": [4, 5]}])
    ax = gt.draw(T, values=False)
    moves = next(c for c in ax.get_children() if c.get_gid() == "moves")
    labels = list(moves.texts)
    assert labels.count("0.5") == 2 and labels.count("1/3") == 3   # as the feedback writes it


def test_lesson_04_folded_solutions_say_what_the_positions_hold():
    """Exercise 2's solution: in B, X to move wins at once by column 1, which completes the bottom row;
    Exercise 3's: X starts the forced line with 2 or 5, and depth 3 proves it."""
    from gametrees.exercises.lessons.l04_depth_and_evaluation import _forced_first_moves, _proof_depth
    b = QUIET["B"]
    target = 1 if C4.to_move(b) == "max" else -1
    wins = [m for m, s in C4.successors(b) if C4.is_terminal(s) and C4.utility(s) == target]
    assert target == 1 and wins == [1]
    bottom = C4.display(C4.result(b, 1)).splitlines()[-3]     # above the frame and the column numbers
    assert bottom[2:6] == "XXXX", bottom                          # columns 1 to 4 of the bottom row
    depth, value = _proof_depth(C4, THREAT)
    assert (depth, value) == (3, 1) and sorted(_forced_first_moves(C4, THREAT, depth, value)) == [2, 5]


def test_table_search_code_only_after_a_real_attempt_and_it_passes():
    from gametrees.exercises.lessons.l05_search_enhancements import TABLE_SEARCH_CODE

    def starter(game, state, alpha, beta, table):
        raise NotImplementedError

    assert ex.check_table_search(starter).status == "unanswered"
    held = ex.check_table_search(starter, show_code=True)              # the starter is no attempt
    assert held.status == "unanswered" and "after a real attempt" in held.lines[0]
    assert "def negamax_with_table" not in "\n".join(held.lines)
    assert ex.check_table_search(careless).status == "wrong"            # a real attempt
    shown = ex.check_table_search(careless, show_code=True)
    assert "A solution's code:" in shown.lines[-1] and TABLE_SEARCH_CODE in shown.lines[-1]
    assert shown.lines[0].startswith("• " + attempts.SHOWN_PREFIX)
    space = {"math": math, "MAX": "max"}
    exec(TABLE_SEARCH_CODE, space)   # noqa: S102 -- the lesson's solution code, run as the learner would
    after = ex.check_table_search(space["negamax_with_table"])
    assert after.ok and after.solved is False and after.lines[0].startswith("• " + attempts.SHOWN_PREFIX)
    # one record of the exercise, the one that knows the code was shown: the three checks of a function
    assert attempts.counts() == {"l05.table_search": {"checks": 3, "wrong": 2, "solved": False,
                                                      "shown": "the code of check_table_search(..., "
                                                               "show_code=True)"}}
    attempts.reset()
    assert ex.check_table_search(space["negamax_with_table"]).solved is True


@pytest.mark.slow  # runs a learner's searches on tic-tac-toe
def test_table_search_code_needs_an_attempt_that_searches_and_stores_and_says_what_is_missing():
    """A one-line ``return 0`` is read (a wrong answer), but it searches nothing: the code stays closed and
    the note names what is missing; a search that stores nothing is told that; one that does both opens it."""

    def one_line(game, state, alpha, beta, table):
        return 0

    def no_table(game, state, alpha, beta, table):   # alpha-beta (fail-soft negamax) with no table
        if game.is_terminal(state):
            return (1 if game.to_move(state) == "max" else -1) * game.utility(state)
        best = -2
        for _, child in game.successors(state):
            best = max(best, -no_table(game, child, -beta, -alpha, table))
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        return best

    assert ex.check_table_search(one_line).status == "wrong"
    held = ex.check_table_search(one_line, show_code=True)
    told = "\n".join(held.lines)
    assert held.status == "unanswered" and "def negamax_with_table" not in told
    assert "it searched nothing" in told and "never stored anything in table" in told
    assert ex.check_table_search(no_table).ok                           # right, but without a table
    held = ex.check_table_search(no_table, show_code=True)
    told = "\n".join(held.lines)
    assert "def negamax_with_table" not in told and "never stored anything in table" in told
    assert "searched nothing" not in told
    assert attempts.shown("l05.table_search") is None
    assert ex.check_table_search(careless).status == "wrong"            # searches and stores: a real attempt
    assert "def negamax_with_table" in ex.check_table_search(careless, show_code=True).lines[-1]


def ast_or_word(x):
    import ast

    try:
        return ast.literal_eval(x)
    except (ValueError, SyntaxError):
        return x.strip('"')


def test_lesson_05_worked_answers_reason_as_the_engine_does_and_folds_paste_nothing():
    import re

    from folds import fold_text, pasteable

    from gametrees.exercises.lessons.l05_search_enhancements import (
        TABLE_ANSWERS_ANSWER,
        WINDOW_ENTRIES_ANSWER,
        _stored,
        table_window,
    )

    T = gt.tree_from_nested(WINDOW_TREE)
    for cell in ("1bb062c7", "abab94ba", "4f677fd3"):      # the folds point to the gated worked answers
        fold = fold_text("05_search_enhancements.ipynb", cell)
        assert pasteable(fold) == [] and "gt.exercises.solution_" in fold and "stored as" not in fold
    text = " ".join(WINDOW_ENTRIES_ANSWER.split())
    stored, _ = _stored(T, (4, 7))
    by_label = {T.nodes[n]["label"]: entry for n, entry in stored.items()}
    for label in "ABC":
        value, flag = by_label[label]          # "stored as 5, exact" ... as the engine stores them
        assert f"stored as {value}, {flag}" in text, label
    said = {lab: (float(a), float(b))
            for lab, a, b in re.findall(r"(\w) is searched with \((\S+), (\S+)\)", text)}
    assert set(said) == {"A", "C"}
    for lab, window in said.items():
        value, flag = by_label[lab]
        assert table_window({"value": value, "flag": flag, "depth": 0}, 2, 9, 0) == (None, window), lab
    assert "only the exact entry answers: B with 5" in text and by_label["B"] == (5, "exact")
    text = " ".join(TABLE_ANSWERS_ANSWER.split())
    want = [table_window(ENTRY, a, b, d) for a, b, d in LATER]
    assert [w[0] for w in want] == [3, None, None, 3] and want[1][1] == (3, 5)
    assert LATER[2][2] > ENTRY["depth"]                                     # too shallow: "search"
    said = [text.index(p) for p in ("the table answers 3", "goes on with (3, 5)",
                                    '"search", with the window as it is', "fails high: 3, the 4-ply bound")]
    assert said == sorted(said)
    assert "search instability" in text and ENTRY["depth"] > LATER[3][2]   # the deeper entry, said as such
    # "A is worth 10", "C is worth 1"
    assert gt.minimax(T).value == 10 and gt.minimax(T, (1,)).value == 1


# ================================================================ worked answers after an attempt (04-06)

SYM_REF = "XO./.../..."
SYM_BOARDS = {"A": "..X/..O/...", "B": ".OX/.../...", "C": "X../O../...", "D": "X../.../.O.",
              "E": ".../.../.OX", "F": "O../X../..."}
# what each worked answer states, as an answer to its check (the test checks the check takes it)
SYM_STATED = {"A": "rotate 90", "B": "mirror left-right", "C": "mirror main diagonal", "D": "not",
              "E": "rotate 180", "F": "not"}
WORKED = {
    "solution_scale_choices": (
        lambda a: ex.check_scale_choices({"a": "win", "b": (2, [0, 1]), "c": (1, [-1, 1])}, a),
        {"depth 1, utility ±1": "a", "depth 2, utility ±1": "a", "depth 1, one scale": "a",
         "depth 2, one scale": "a"},
        {"depth 1, utility ±1": "b", "depth 2, utility ±1": "a", "depth 1, one scale": "a",
         "depth 2, one scale": "a"}),
    "solution_quiet_positions": (lambda a: ex.check_quiet_positions(C4, QUIET, a), {"B"}, {"A", "E"}),
    "solution_win_depth": (lambda a: ex.check_win_depth(C4, THREAT, a[0], first_move=a[1]), (5, 2), (3, 2)),
    "solution_same_up_to_symmetry": (
        lambda a: ex.lessons.l05_search_enhancements.check_same_up_to_symmetry(SYM_REF, SYM_BOARDS, a),
        dict.fromkeys(SYM_BOARDS, "not"), SYM_STATED),
    "solution_window_entries": (
        lambda a: ex.check_window_entries(gt.tree_from_nested(WINDOW_TREE), (4, 7), (2, 9), *a),
        ({"A": (10, "exact"), "B": (5, "exact"), "C": (1, "exact")}, {"A": 10, "B": 5, "C": 1}),
        (RIGHT_STORED, {"A": (8, 9), "B": 5, "C": (2, 3)})),
    "solution_table_answers": (lambda a: ex.check_table_answers(ENTRY, LATER, a), [3, 3, 3, 3],
                               [3, (3, 5), "search", 3]),
    "solution_chance_pruning": (lambda a: ex.check_chance_pruning(bounded_tree(), (0, 10), *a),
                                (set(), set()), ({"H", "I", "L"}, set())),
}


@pytest.mark.parametrize("name", sorted(WORKED))
def test_worked_answer_opens_after_an_attempt_and_a_later_check_is_not_solved(name):
    """R4-8: the lessons' folds give a hint; the worked answer is a gt.exercises.solution_...() that says
    "try first" before a check with an answer, then works the answer through (the answer it states passes
    the check), and a check after it says so and is not solved."""
    solution = getattr(gt.exercises, name)
    check, wrong, stated = WORKED[name]
    before = solution()
    assert isinstance(before, attempts.NotYet) and "opens after your first attempt" in str(before)
    assert check(wrong).status == "wrong"
    text = solution()
    assert isinstance(text, str) and not isinstance(text, attempts.NotYet) and len(text) > 100
    fb = check(stated)
    assert fb.ok and fb.solved is False, fb
    assert fb.lines[0].startswith("• " + attempts.SHOWN_PREFIX) and f"{name}()" in fb.lines[0]
    attempts.reset()
    assert check(stated).solved is True


def test_quiet_twins_for_d_and_c_called_quiet_practise_their_mistake():
    """D called quiet (no safe move) gets a lost twin; C called quiet (one safe move) a forced twin that is no
    plain block at a row's end. Each twin's claim is checked by the engine: alphabeta at depth 1 and 2."""
    def value(state, depth):
        return gt.alphabeta(C4, state, depth=depth, evaluate=lambda s: 0, trace=False).value

    attempts.reset()
    _, second = twice(lambda: ex.check_quiet_positions(C4, QUIET, {"A", "E", "D"}), POSITION)
    twin = second.lines[-1]
    moves = [int(n) for n in re.search(r"after the moves \[([\d, ]+)\]", twin).group(1).split(",")]
    state = C4.from_moves(moves)
    assert "after every move of O, X wins at once: not quiet" in twin
    assert value(state, 1) == 0 and value(state, 2) > 0      # O cannot win now; X wins after any O move
    attempts.reset()
    _, second = twice(lambda: ex.check_quiet_positions(C4, QUIET, {"A", "E", "C"}), POSITION)
    twin = second.lines[-1]
    found = re.search(r"after the moves \[([\d, ]+)\]: only column (\d) leaves X no win", twin)
    moves, safe = [int(n) for n in found.group(1).split(",")], int(found.group(2))
    state = C4.from_moves(moves)
    assert moves != [0, 0, 1, 1, 2]
    for move, child in C4.successors(state):   # only the named column keeps X from winning at once
        assert (value(child, 1) > 0) == (move != safe), move
    assert value(state, 1) == 0                 # and O cannot win at once
