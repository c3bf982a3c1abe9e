"""The checks the lessons' exercises call: right answers pass, typical mistakes are named."""

import math

import gametrees as gt
from gametrees import exercises as ex
from gametrees.games import MAX

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


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


def test_check_mcts_catches_the_fixed_viewpoint(monkeypatch):
    from gametrees.exercises.code_checks import guard
    from gametrees.mcts import uct_search  # noqa: F401  (the package's MCTS exists)

    def by_engine(game, state, iterations, seed):
        agent = gt.MCTSAgent(playouts=iterations, seed=seed)
        return agent(game, state), agent.last_visits

    # a learner's function that hands the work to gametrees' MCTS is refused ...
    assert ex.check_mcts(by_engine).title == "check_mcts: this question asks you to write the search yourself."
    # ... and the engine's MCTS, let through, is what a right answer looks like
    monkeypatch.setattr(guard, "FORBIDDEN", ())
    monkeypatch.setattr(guard, "_SEEN", {})
    assert ex.check_mcts(by_engine).ok

    def always_first(game, state, iterations, seed):
        return game.actions(state)[0], {}

    fb = ex.check_mcts(always_first)
    assert not fb.ok and "can win at once" in repr(fb)


# ---------------------------------------------------------------------------
# Lessons 06-07: the reasoning exercises (gametrees/exercises/lessons/l06_expectimax.py, l07_monte_carlo.py)
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


def test_check_rescaled_choices_cannot_be_read():
    fb = ex.check_rescaled_choices(gt.tree_from_nested(QUIZ), RESCALINGS, "B")
    assert not fb.ok and "could not be read" in fb.title


KIDS = {"a": (5, 8), "b": (0, 4), "c": (24, 36), "d": (10, 14)}


def test_check_ucb_choice_each_way():
    scores = {m: w / n + math.sqrt(2) * math.sqrt(math.log(62) / n) for m, (w, n) in KIDS.items()}
    assert max(scores, key=scores.get) == "a"
    assert [m for m in KIDS if m != "a" and scores[m] >= scores["a"]] == []
    fb = ex.check_ucb_choice(KIDS, 62, "a")
    assert fb.ok and "a: 5/8 + 1.414·√(ln 62/8) = 1.641" in repr(fb)
    for empty in (None, "", "  "):
        fb = ex.check_ucb_choice(KIDS, 62, empty)
        assert not fb.ok and fb.title == "UCB1 selection: not answered yet." and "1.641" not in repr(fb)
    fb = ex.check_ucb_choice(KIDS, 62, "c")                     # the most visited child
    assert "the most visited child" in fb.lines[0] and "to *play*" in fb.lines[0]
    fb = ex.check_ucb_choice(KIDS, 62, "d")                     # the best mean
    assert "the best mean (10/14)" in fb.lines[0] and "exploitation only" in fb.lines[0]
    fb = ex.check_ucb_choice(KIDS, 62, "b")                     # neither: just a lower score
    assert fb.lines[0].startswith("✗ You chose b, but a scores higher")
    assert "'z' is not one of the children" in repr(ex.check_ucb_choice(KIDS, 62, "z"))
    # an unvisited child is always selected first
    fb = ex.check_ucb_choice({"a": (9, 10), "b": (0, 0)}, 10, "b")
    assert fb.ok and "b: never visited, +∞" in repr(fb)


PATH = [("root", None, 0, 10), ("B", "max", 6, 7), ("E", "min", 1, 3), ("K", "max", 0, 0)]


def test_check_backup_each_way():
    right = {"root": (0, 11), "B": (6, 8), "E": (2, 4), "K": (0, 1)}
    fb = ex.check_backup(PATH, 0, right)
    assert fb.ok and fb.score == (4, 4)
    assert "E: (2, 4): MIN moved into E and scores 1 for this playout." in repr(fb)
    for empty in (None, {}, dict.fromkeys(right)):
        fb = ex.check_backup(PATH, 0, empty)
        assert not fb.ok and fb.title == "MCTS back-up: not answered yet." and "(2, 4)" not in repr(fb)
    # partial
    fb = ex.check_backup(PATH, 0, {"root": (0, 11), "B": (6, 8)})
    assert fb.score == (2, 4) and "✗ E: not answered yet." in fb.lines
    # everything from MAX's point of view: E is credited nothing although MIN won
    fb = ex.check_backup(PATH, 0, dict(right, E=(1, 4)))
    assert ("E: you wrote (1, 4), but MIN moved into E and MIN won this playout: you credited the result "
            "from MAX's point of view; its wins become 1 + 1 = 2.") in repr(fb)
    # forgot the visit
    fb = ex.check_backup(PATH, 0, dict(right, B=(6, 7)))
    assert "every node on the path gets one more visit: 7 + 1 = 8" in repr(fb)
    # credited the root
    fb = ex.check_backup(PATH, 0, dict(right, root=(1, 11)))
    assert "nobody moved into the root" in repr(fb)
    # a draw: half a point each, whoever moved
    fb = ex.check_backup(PATH, 0.5, {"root": (0, 11), "B": (6.5, 8), "E": (1.5, 4), "K": (0.5, 1)})
    assert fb.ok
    fb = ex.check_backup(PATH, 0.5, dict(right, B=(7, 8)))
    assert "it was a draw this playout, so its wins become 6 + 0.5 = 6.5" in repr(fb)
    fb = ex.check_backup(PATH, 0, dict(right, X=(1, 1)))
    assert fb.ok and "Not on the path (ignored): X" in repr(fb)
    assert "could not be read" in ex.check_backup(PATH, 0, [(0, 11)]).title
    assert "expected a pair (wins, visits)" in repr(ex.check_backup(PATH, 0, dict(right, K=5)))


