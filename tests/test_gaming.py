"""Trying to game what is graded: code that hands the work to gametrees, answers asked of the library.

Code checks fail a function that calls gametrees' own search or evaluation, by any path (watched at run
time); the learner's own helpers and the game protocol stay allowed. Answers by hand asked of the
library on a protected (graded) exercise are flagged. The practice widget's check (issue 13) names a
tie rule only for that rule's marks, and says "not answered yet" for what is empty.
"""

import math

import pytest

import gametrees as gt
from gametrees import assignments as ga
from gametrees.classroom import integrity
from gametrees.search import alphabeta as ab_alias

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
SEARCH = "this question asks you to write the search yourself"


def own_alphabeta(game, state, alpha, beta):
    if game.is_terminal(state):
        return game.utility(state)
    maximizing = game.to_move(state) == "max"
    value = -math.inf if maximizing else math.inf
    for move in game.actions(state):
        child = own_alphabeta(game, game.result(state, move), alpha, beta)
        if maximizing:
            value = max(value, child)
            if value >= beta:
                return value
            alpha = max(alpha, value)
        else:
            value = min(value, child)
            if value <= alpha:
                return value
            beta = min(beta, value)
    return value


def _helper(game, state):
    return gt.minimax(game, state).value


GAMING_MINIMAX = {
    "gt.minimax": lambda game, state: gt.minimax(game, state).value,
    "gt.alphabeta": lambda game, state: gt.alphabeta(game, state).value,
    "an alias from gametrees.search": lambda game, state: ab_alias(game, state).value,
    "a helper of theirs": lambda game, state: _helper(game, state),
    "getattr": lambda game, state: getattr(gt, "mini" + "max")(game, state).value,
    "an agent": lambda game, state: gt.MinimaxAgent()(game, state) and gt.minimax(game, state).value,
    "negamax": lambda game, state: gt.negamax(game, state).value,
}


@pytest.mark.parametrize("how", GAMING_MINIMAX)
def test_a_minimax_that_hands_the_work_to_the_library_fails_plainly(how):
    fb = gt.exercises.check_minimax(GAMING_MINIMAX[how])
    assert not fb.ok and fb.title == f"check_minimax: {SEARCH}."
    assert len(fb.lines) == 1 and "gametrees' own gametrees." in fb.lines[0]
    assert ga.score(fb, 4).earned == 0


def test_a_swallowed_library_call_is_still_caught():
    def sneaky(game, state):
        try:
            return gt.minimax(game, state).value
        except BaseException:  # noqa: BLE001 -- the learner's attempt to hide it
            return 0

    assert gt.exercises.check_minimax(sneaky).title == f"check_minimax: {SEARCH}."


def test_own_helpers_and_the_game_protocol_are_allowed():
    assert gt.exercises.check_alphabeta(own_alphabeta).ok
    assert ga.check_code(ga.check_best_move, lambda g, s: max(
        g.actions(s), key=lambda m: own_alphabeta(g, g.result(s, m), -math.inf, math.inf))
        if g.to_move(s) == "max" else min(g.actions(s), key=lambda m: own_alphabeta(
            g, g.result(s, m), -math.inf, math.inf))).ok


def test_the_guard_leaves_no_trace_function_behind():
    import sys

    before = sys.gettrace()
    gt.exercises.check_minimax(GAMING_MINIMAX["gt.minimax"])
    assert sys.gettrace() is before


NOTEBOOK_Q4_Q5 = """
def alphabeta_value(game, state, alpha, beta):   # wrong: adds 1 at MIN nodes
    return own_alphabeta(game, state, alpha, beta) + (1 if game.to_move(state) == "min" else 0)


def alphabeta_best_move(game, state):
    alpha, beta = -math.inf, math.inf
    maximizing = game.to_move(state) == "max"
    best, best_value = None, None
    for move in game.actions(state):
        value = alphabeta_value(game, game.result(state, move), alpha, beta)
        if best_value is None or (value > best_value if maximizing else value < best_value):
            best, best_value = move, value
        if maximizing:
            alpha = max(alpha, value)
        else:
            beta = min(beta, value)
    return best
"""


def test_best_move_through_the_library_fails_and_q5_is_graded_with_a_right_value_function():
    space = {"math": math, "own_alphabeta": own_alphabeta}  # a notebook's globals
    exec(NOTEBOOK_Q4_Q5, space)
    fb = ga.check_code(ga.check_best_move, space["alphabeta_best_move"], alphabeta=True,
                       uses=space["alphabeta_value"])
    assert fb.ok, fb
    assert "Graded with a correct alphabeta_value in place of yours" in fb.lines[-1]
    assert space["alphabeta_value"].__name__ == "alphabeta_value"  # the learner's own is back
    assert not ga.check_code(ga.check_best_move, space["alphabeta_best_move"], alphabeta=True).ok
    gaming = ga.check_code(ga.check_best_move, lambda g, s: ab_alias(g, s).move, alphabeta=True)
    assert gaming.title == f"check_best_move: {SEARCH}."


def test_by_hand_answers_asked_of_the_library_are_flagged():
    pruning = gt.exercises.generate("pruning", seed="flagged/A2", difficulty="medium")
    values = gt.exercises.ValuesExercise(pruning.tree, algorithm="alphabeta")
    clean = gt.exercises.ValuesExercise(gt.exercises.generate("values", seed="clean").tree)
    ga.protect(pruning, values, clean)
    try:
        # a literal answer is not flagged
        right = ga.score(ga.check_answer(clean, clean.solution.__wrapped__(clean)), 2)
        assert right.earned == 2 and right.flags == []
        # .solution() inside the answer function, from the notebook
        s = ga.score(ga.check_answer(pruning, lambda: pruning.solution()), 2)
        assert s.earned == 2 and s.flags == ["the exercise's .solution()"]
        assert "⚑ Flagged for your instructor: the exercise's .solution()." in repr(s)
        # the library's search on the graded tree, or on a copy of it; .result read
        gt.alphabeta(values.tree.copy())
        _ = values.result
        flags = ga.score(ga.check_answer(values, values.solution.__wrapped__(values)), 2).flags
        assert flags == ["the exercise's .result", "gt.alphabeta(...) on the graded tree"]
        summary = ga.library_use()
        # pruning and values share the tree: the search on it is listed for both
        assert len(summary.records) == 4 and "⚑ Pruned leaves: the exercise's .solution()" in repr(summary)
        assert summary._repr_mimebundle_()["application/vnd.gametrees.integrity+json"]["flags"][0] == {
            "question": "Pruned leaves", "use": "the exercise's .solution()"}
        # gt.practice on the graded tree
        pytest.importorskip("ipywidgets")
        gt.practice("alphabeta", tree=pruning.tree, solutions=False)
        assert "gt.practice(...) on the graded tree" in integrity.uses(pruning)
        # other trees are not flagged
        gt.alphabeta(gt.tree_from_nested(TEXTBOOK))
        assert integrity.uses(clean) == []
    finally:
        integrity.GRADED.clear()
        integrity.SEEN.clear()


@pytest.mark.slow
def test_the_a2_scratch_pad_never_shows_the_graded_tree():
    pytest.importorskip("ipywidgets")
    graded = gt.exercises.generate("pruning", seed="jdoe/A2", difficulty="medium")
    pad = gt.practice("alphabeta", seed="jdoe/A2/practice", difficulty="medium")
    shapes = {integrity._shape(graded.tree)}
    seen = [integrity._shape(pad.exercise.tree)]
    for _ in range(3):
        pad.new_tree()
        seen.append(integrity._shape(pad.exercise.tree))
    assert pad.seed == "jdoe/A2/practice/3"  # New tree goes on with the student's own practice trees
    pad.mode.value = "pruning"
    assert pad.seed == "jdoe/A2/practice/3" and integrity._shape(pad.exercise.tree) == seen[-1]
    assert not shapes & set(seen)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [989067, 7, 42])
def test_the_practice_check_names_a_rule_only_for_that_rules_marks(seed):
    pytest.importorskip("ipywidgets")
    for rule in ("textbook", "strict"):
        w = gt.practice("pruning", seed=seed, rule=rule)
        fb = w.check()  # nothing cut
        assert not fb.ok and fb.title == "Pruned leaves: not answered yet." and "rule" not in str(fb)
        own = w.exercise.solution()
        other = [w.exercise.nodes.name(n) for n in w.exercise.other_pruned]
        for marks, named in ((own, False), (own[:1], False), (other, bool(other) and set(other) != set(own))):
            w.clear()
            for label in marks:
                w.cuts[label].value = True
            text = str(w.check())
            assert ("You pruned with the" in text) == named, (rule, marks, text)
            if marks == own:
                assert w.last_feedback.ok


def test_the_practice_check_with_values_typed_and_nothing_cut():
    pytest.importorskip("ipywidgets")
    w = gt.practice("alphabeta", seed=989067)
    fb = w.check()
    assert fb.title == "Alpha-beta values: nothing typed yet. Pruned leaves: not answered yet."
    assert "strict rule" not in str(fb)
