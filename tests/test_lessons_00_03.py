"""The checks of lessons 00-03 follow the feedback rules (issue 19).

For each check: a blank answer is only "not answered yet"; junk is "could not read"
(never a misconception); an all-wrong and a partly right answer name each wrong part
and contain none of the right values, counts, orders or kinds the learner did not type;
a second wrong check of the same exercise adds a worked twin (not this exercise's
answer); a right answer passes; every tag emitted is in the catalogue. The notebooks'
folded solutions pass their checks.
"""

import re

import pytest
from hypothesis import given, settings, strategies as st
from reference import reference_alphabeta, reference_fail_hard

import gametrees as gt
from gametrees import exercises as ex
from gametrees.exercises import attempts
from gametrees.exercises.attempts import TWIN_PREFIX
from gametrees.exercises.lessons import l03_alpha_beta
from gametrees.exercises.misconceptions import CATALOGUE
from gametrees.games import TicTacToe


@pytest.fixture(autouse=True)
def fresh_counts():
    attempts.reset()
    yield
    attempts.reset()


def text(fb):
    return repr(fb)


def has_number(fb, x):
    """Whether the number ``x`` appears in the feedback's lines and hints as a whole number (not inside 16 or 2.5).

    The title is left out: it counts the parts ("0 of 3 right").
    """
    body = "\n".join(f"{t} {h or ''}" for _, t, h in fb.items)
    return re.search(rf"(?<![\d.]){re.escape(str(x))}(?![\d]|\.\d)", body) is not None


def twins(fb):
    return [t for _, t, _ in fb.items if t.startswith(TWIN_PREFIX)]


def assert_rules(first, second):
    """The first wrong check has no twin; the second has one; both are 'wrong' with tags from the catalogue."""
    assert first.status == second.status == "wrong" and not first.ok
    assert first.attempt == 1 and second.attempt == 2
    assert not twins(first) and len(twins(second)) == 1
    for fb in (first, second):
        assert set(fb.tags) <= set(CATALOGUE), fb.tags


# --------------------------------------------------------------------------------- lesson 00: check_value

MIN_ROOT = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]   # lesson 00's exercise: MIN at the root, worth 6


def min_tree():
    return gt.tree_from_nested(MIN_ROOT, root_player="min")


def test_value_blank_junk_right():
    assert gt.minimax(min_tree()).value == 6
    for blank in (None, "", "  "):
        fb = ex.check_value(min_tree(), blank)
        assert fb.status == "unanswered" and "not answered yet" in fb.title and not has_number(fb, 6)
    for junk in ("Z", [1], True, float("nan")):
        fb = ex.check_value(min_tree(), junk)
        assert fb.status == "unreadable" and fb.tags == () and not has_number(fb, 6)
    assert ex.check_value(min_tree(), 6).ok


def test_value_wrong_names_the_rule_not_the_value_then_a_twin():
    first = ex.check_value(min_tree(), 5)
    assert "You wrote 5 for the root A, a MIN node" in text(first) and "which of its children's values" in text(first)
    for right in (6, 12, 14):   # the root's value and the MAX nodes' values: none given
        assert not has_number(first, right)
    second = ex.check_value(min_tree(), 5)      # rebuilt: the same exercise, counted together
    assert_rules(first, second)
    twin = twins(second)[0]
    assert "with MIN at the root" in twin and "A = min(" in twin
    assert "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]" not in twin and not twin.rstrip(".").endswith("= 6")


def test_value_roles_inverted_is_named_only_for_the_swapped_value():
    fb = ex.check_value(min_tree(), 3)          # the value with MAX at the root (lesson 00's tour)
    assert fb.tags == ("roles-inverted",) and "MAX and MIN swapped" in text(fb) and not has_number(fb, 6)
    assert ex.check_value(min_tree(), 0).tags == ()   # an all-zero slip is no misconception


# --------------------------------------------------------------------------------- lesson 01

def test_nim_leaves_each_way():
    assert [ex.check_nim_leaves(n, leaves).ok for n, leaves in [(1, 1), (2, 2), (3, 4), (4, 7), (5, 13)]] == [True] * 5
    assert gt.minimax(gt.Nim(5)).stats["leaves_evaluated"] == 13
    assert "L(5) = L(4) + L(3) + L(2) = 7 + 4 + 2 = 13" in text(ex.check_nim_leaves(5, 13))
    for blank in (None, "", " "):
        fb = ex.check_nim_leaves(5, blank)
        assert fb.status == "unanswered" and not has_number(fb, 13)
    for junk in ("thirteen", True, [13]):
        fb = ex.check_nim_leaves(5, junk)
        assert fb.status == "unreadable" and fb.tags == ()
    named = {28: "nodes-for-leaves", 243: "uniform-branching", 16: None, 12: None}   # 28 nodes, 3^5, 2^4
    for wrong, tag in named.items():
        attempts.reset()
        first, second = ex.check_nim_leaves(5, wrong), ex.check_nim_leaves(5, wrong)
        assert_rules(first, second)
        assert first.tags == ((tag,) if tag else ())
        assert not has_number(first, 13) and not has_number(second, 13)   # the twin counts another game
        assert "takes 1 or 2 coins" in twins(second)[0]


def test_effective_branching_each_way():
    stats = gt.minimax(gt.Nim(7)).stats
    N, L = stats["nodes_visited"], stats["leaves_evaluated"]
    assert (N, L) == (96, 44)
    assert ex.check_effective_branching(7, L ** (1 / 7)).ok and ex.check_effective_branching(7, 1.717).ok
    for blank in (None, ""):
        assert ex.check_effective_branching(7, blank).status == "unanswered"
    assert ex.check_effective_branching(7, "1.7").status == "unreadable"
    cases = {(N - 1) / (N - L): "average-as-branching", N ** (1 / 7): "nodes-for-leaves", 3: "uniform-branching",
             L / 7: None, 2: None, 0: None, -2: None, 1e50: None}
    for wrong, tag in cases.items():
        attempts.reset()
        first, second = ex.check_effective_branching(7, wrong), ex.check_effective_branching(7, wrong)
        assert_rules(first, second)
        assert first.tags == ((tag,) if tag else ()), wrong
        for fb in (first, second):     # neither the factor nor the game's count of leaves
            assert "1.717" not in text(fb) and not has_number(fb, 44), (wrong, text(fb))
        assert "solve b*^7 = L" in text(first)
    assert "2^7 ≈ 128 leaves, more than the game has" in text(ex.check_effective_branching(7, 2))
    assert "more than 10^300" in text(ex.check_effective_branching(7, 1e50))     # no OverflowError
    assert "it is positive" in text(ex.check_effective_branching(7, -2))


KINDS = {"Ludo": ("chance", "perfect"), "Kriegspiel": ("deterministic", "hidden"),
         "Mastermind": ("deterministic", "hidden"), "Dominoes": ("chance", "hidden")}


def kind_lines(fb, game):
    return [line for line in fb.lines if line.startswith(f"✗ {game}:")]


def test_game_kinds_blank_junk_right():
    fb = ex.check_game_kinds(dict.fromkeys(KINDS))
    assert fb.status == "unanswered" and len(fb.lines) == 1 and "chance" not in fb.lines[0]
    for junk in ("chess", [], {}, None):
        assert ex.check_game_kinds(junk).status == "unreadable"
    assert ex.check_game_kinds(KINDS).ok
    assert ex.check_game_kinds({"ludo": ("perfect", "chance")}).ok          # either order, any case
    fb = ex.check_game_kinds({"Ludo": "chance"})
    assert not fb.ok and "could not read" in text(fb) and fb.tags == ()


def test_game_kinds_wrong_names_each_game_not_its_kind():
    all_wrong = {"Ludo": ("deterministic", "hidden"), "Kriegspiel": ("chance", "perfect"),
                 "Mastermind": ("chance", "hidden"), "Dominoes": ("deterministic", "perfect")}
    first = ex.check_game_kinds(all_wrong)
    assert first.score == (0, 4)
    for game, (a, b) in KINDS.items():
        lines = kind_lines(first, game)
        assert len(lines) == 1 and "not right" in lines[0]
        assert f"{a}, {b}" not in lines[0] and f"{a} and {b}" not in lines[0]
    assert first.tags == ("chance-vs-hidden",)            # only Mastermind's answer is that confusion
    assert "chance and hidden information are two different questions" in kind_lines(first, "Mastermind")[0].lower()
    second = ex.check_game_kinds(all_wrong)
    assert_rules(first, second)
    twin = twins(second)[0]
    assert not any(game.lower() in twin.lower() for game in KINDS)   # worked on another game


def test_game_kinds_partly_right():
    partly = {**KINDS, "Ludo": ("chance", "hidden"), "Dominoes": None}
    fb = ex.check_game_kinds(partly)
    assert fb.score == (2, 4) and "✗ Dominoes: not answered yet." in fb.lines
    assert fb.tags == ("chance-vs-hidden",) and "a die not yet rolled" in text(fb)
    assert "✓ Kriegspiel: deterministic, hidden information." in fb.lines


# --------------------------------------------------------------------------------- lesson 02

POSITION = "X.O/.X./..O"   # lesson 02's exercise: value 0, the only best move c2 (cell 5)


def test_position_answer_is_what_the_lesson_says():
    game = TicTacToe()
    s = game.from_string(POSITION)
    values = {m: gt.minimax(game, c).value for m, c in game.successors(s)}
    assert max(values.values()) == 0 and [m for m, v in values.items() if v == 0] == [5]
    assert gt.minimax(game, game.result(s, 3)).value == -1     # a2 makes two threats but loses at once
    for move in (5, "c2", "5", " C2 "):
        assert ex.check_position(POSITION, {"value": 0, "move": move}).ok


def test_position_blank_and_junk():
    for blank in (None, {"value": None, "move": None}, {}):
        fb = ex.check_position(POSITION, blank)
        assert fb.status == "unanswered" and "c2" not in text(fb)
    for junk in ("c2", 5, [0, 5]):
        fb = ex.check_position(POSITION, junk)
        assert fb.status == "unreadable" and fb.tags == ()
    fb = ex.check_position(POSITION, {"value": "zero", "move": "z9"})
    assert not fb.ok and "could not read 'zero'" in text(fb) and "could not read 'z9'" in text(fb)
    assert "taken" in text(ex.check_position(POSITION, {"value": 0, "move": 0}))
    with pytest.raises(ValueError, match="X to move"):
        ex.check_position("XX./O../...", {"value": 0, "move": 1})


def test_position_all_wrong_then_twin():
    answer = {"value": 1, "move": "a2"}
    first = ex.check_position(POSITION, answer)
    assert first.score == (0, 2)
    assert "The value: you wrote +1" in text(first) and "O wins at once" in text(first)
    assert first.tags == ("opponent-reply-ignored",)
    assert "c2" not in text(first) and "cell 5" not in text(first) and not has_number(first, 0)
    second = ex.check_position(POSITION, answer)
    assert_rules(first, second)
    twin = twins(second)[0]
    assert "c2" not in twin and "value 0" not in twin and "value +1" in twin   # another position, another value


def test_position_partly_right():
    fb = ex.check_position(POSITION, {"value": 0, "move": 8})
    assert fb.score == (1, 2) and "The value: 0" in text(fb)
    assert "taken" in text(fb)
    fb = ex.check_position(POSITION, {"value": -1, "move": "c2"})
    assert fb.score == (1, 2) and "X c2 (cell 5) is a best move." in fb.lines[1]
    assert "a draw" not in text(fb) and fb.tags == ()
    fb = ex.check_position(POSITION, {"value": 0, "move": None})
    assert fb.score == (1, 2) and "The move: not answered yet." in text(fb)


class FastTicTacToe(TicTacToe):
    def utility(self, state):
        return super().utility(state) * (1 + 9 - (state[0] | state[1]).bit_count())


class PlainTicTacToe(TicTacToe):
    pass


class SignsFlipped(TicTacToe):
    """All wrong: wins negative, losses positive, and no sooner is better."""

    def utility(self, state):
        return -2 * super().utility(state)


class DrawsOnlyTicTacToe(TicTacToe):
    """Partly right: signs kept, but every win and loss worth the same whenever it happens."""

    def utility(self, state):
        return 2 * super().utility(state)


class SlowLossTicTacToe(TicTacToe):
    def utility(self, state):
        base = super().utility(state)
        return base * (1 + 9 - (state[0] | state[1]).bit_count()) if base > 0 else base


class Junk(TicTacToe):
    def utility(self, state):
        return "fast"


def test_fast_wins_each_way():
    assert ex.check_fast_wins(FastTicTacToe()).ok
    fb = ex.check_fast_wins(PlainTicTacToe())
    assert fb.status == "unanswered" and "1 + " not in text(fb) and "empty" not in text(fb)
    fb = ex.check_fast_wins(Junk())
    assert not fb.ok and fb.tags == ()
    attempts.reset()
    first = ex.check_fast_wins(SignsFlipped())
    assert "terminal-misscored" in first.tags and "quicker wins should score more" in text(first)
    second = ex.check_fast_wins(SignsFlipped())
    assert_rules(first, second)
    assert "empty" not in twins(second)[0] and "1 +" not in twins(second)[0]   # a tree, not the formula
    attempts.reset()
    fb = ex.check_fast_wins(DrawsOnlyTicTacToe())
    assert fb.score == (1, 4) and fb.tags == () and "minimax with your utility plays" in text(fb)
    assert "Multiply" not in text(fb) and "1 + " not in text(fb)
    assert "quicker loss should score lower" in text(ex.check_fast_wins(SlowLossTicTacToe()))
    with pytest.raises(TypeError, match="TicTacToe"):
        ex.check_fast_wins(gt.ConnectFour())


# --------------------------------------------------------------------------------- lesson 03

CUTOFF = [[4, 9, 6], [7, 3, 1], [2, 8]]   # lesson 03's exercise: C returns 3 (soft) or 4 (hard); A = 4


def test_fail_soft_hard_agrees_with_the_lesson_and_the_engine():
    T = gt.tree_from_nested(CUTOFF)
    r = gt.alphabeta(T)
    c = next(n for n in T if T.nodes[n]["label"] == "C")
    assert r.value == 4 and r.graph.nodes[c]["value"] == 3        # the engine is fail-soft
    assert ex.check_fail_soft_hard(CUTOFF, "C", {"soft": 3, "hard": 4, "root_soft": 4, "root_hard": 4}).ok
    assert ex.check_fail_soft_hard(CUTOFF, "C", {"soft": "3", "hard": "4", "root_soft": 4.0, "root_hard": "4"}).ok
    with pytest.raises(ValueError, match="not cut off"):
        ex.check_fail_soft_hard(CUTOFF, "B", {"soft": 4, "hard": 4})
    with pytest.raises(ValueError, match="inner node"):
        ex.check_fail_soft_hard(CUTOFF, "Z", {})


def test_fail_soft_hard_blank_junk():
    for blank in (None, {"soft": None, "hard": None, "root_soft": None, "root_hard": None}, {}):
        assert ex.check_fail_soft_hard(CUTOFF, "C", blank).status == "unanswered"
    for junk in ("3, 4, 4", [3, 4, 4]):
        fb = ex.check_fail_soft_hard(CUTOFF, "C", junk)
        assert fb.status == "unreadable" and fb.tags == ()
    fb = ex.check_fail_soft_hard(CUTOFF, "C", {"soft": "three", "hard": 4, "root_soft": None, "root_hard": 4})
    assert fb.score == (2, 4) and "could not read 'three'" in text(fb)
    assert "The root under fail-soft: not answered yet." in text(fb)


def test_fail_soft_hard_all_wrong_then_twin():
    answer = {"soft": 1, "hard": 7, "root_soft": 9, "root_hard": 9}
    first = ex.check_fail_soft_hard(CUTOFF, "C", answer)
    assert first.score == (0, 4) and first.tags == ("cut-value-as-minimax",)
    assert all(f"{part}: you wrote" in text(first)
               for part in ("Fail-soft", "Fail-hard", "The root under fail-soft", "The root under fail-hard"))
    assert not has_number(first, 3) and not has_number(first, 4)
    second = ex.check_fail_soft_hard(CUTOFF, "C", answer)
    assert_rules(first, second)
    twin = twins(second)[0]
    assert "[[4, 9, 6], [7, 3, 1], [2, 8]]" not in twin
    assert "fail-soft returns that 3" not in twin and "α = 4" not in twin and "value is 4" not in twin


def test_fail_soft_hard_partly_right_and_the_bound_mistake():
    fb = ex.check_fail_soft_hard(CUTOFF, "C", {"soft": 4, "hard": 3, "root_soft": 4, "root_hard": 4})
    assert fb.score == (2, 4) and fb.tags == ("fail-hard-bound",)
    assert "Fail-soft: you wrote 4, the bound of C's window" in text(fb)
    assert "returns 3" not in text(fb)


TREE = [[5, 9, 7], [4, 8, 2], [6, 10, 11]]   # lesson 03's ordering exercise: 5 leaves at best


def leaves(nested):
    return gt.alphabeta(gt.tree_from_nested(nested)).stats["leaves_evaluated"]


def test_pruning_order_blank_junk_right():
    for blank in (None, []):
        fb = ex.check_pruning_order(TREE, blank)
        assert fb.status == "unanswered" and not any(has_number(fb, v) for v in (6, 10, 11, 9))
    for junk in ("6, 10, 11", [["a"]], [1, 2]):
        fb = ex.check_pruning_order(TREE, junk)
        assert fb.status == "unreadable" and fb.tags == ()
    for answer in ([[6, 10, 11], [2, 4, 8], [5, 7, 9]], [[6, 11, 10], [4, 2, 8], [5, 9, 7]],
                   ([6, 10, 11], [5, 9, 7], [2, 8, 4])):
        fb = ex.check_pruning_order(TREE, answer)
        assert fb.ok and "evaluates 5 leaves, the fewest" in text(fb) and leaves(answer) == 5
    with pytest.raises(ValueError, match="tree must be a list of at least 2"):
        ex.check_pruning_order([1, 2], [[1], [2]])


def test_pruning_order_all_wrong_names_the_first_node_without_the_best():
    first = ex.check_pruning_order(TREE, TREE)
    assert first.title.endswith(f"{leaves(TREE)} leaves evaluated; fewer is possible.")
    assert "Your first MIN node is worth 5 to MAX" in text(first) and "is it the MIN node worth the most" in text(first)
    assert "worth 6" not in text(first) and "third" not in text(first) and "needs only" not in text(first)
    second = ex.check_pruning_order(TREE, TREE)
    assert_rules(first, second)
    twin = twins(second)[0]
    assert "[6, 10, 11]" not in twin and "[[6, 10, 11]" not in twin


def test_pruning_order_partly_right_names_the_node_not_the_leaf():
    answer = [[6, 10, 11], [2, 4, 8], [7, 5, 9]]
    fb = ex.check_pruning_order(TREE, answer)
    assert not fb.ok and leaves(answer) == 6
    assert "Your third MIN node (leaves [7, 5, 9]) starts with 7 > α = 6" in text(fb)
    assert "Which of its leaves would let it stop at once?" in text(fb)
    assert "5 first" not in text(fb) and "Your first MIN node" not in text(fb)


def test_pruning_order_not_a_rearrangement():
    partial = ex.check_pruning_order(TREE, [[6, 10, 11]])
    assert not partial.ok and "not a rearrangement" in partial.title
    assert "The tree has 3 MIN nodes under the root; your answer has 1." in text(partial)
    moved = ex.check_pruning_order(TREE, [[6, 10, 2], [11, 4, 8], [5, 7, 9]])
    assert "Your MIN node with leaves [6, 10, 2] is not in the tree" in text(moved)


# --------------------------------------------------------------------------------- the catalogue

def test_the_lessons_00_03_tags_are_catalogued_and_each_is_detected():
    ours = {"nodes-for-leaves", "uniform-branching", "average-as-branching", "chance-vs-hidden",
            "opponent-reply-ignored", "ordering-halves-work", "pruning-changes-value"}
    assert ours <= set(CATALOGUE)
    seen = set()
    seen |= set(ex.check_nim_leaves(5, 28).tags) | set(ex.check_nim_leaves(5, 243).tags)
    seen |= set(ex.check_effective_branching(7, 95 / 52).tags)
    seen |= set(ex.check_game_kinds({"Mastermind": ("chance", "hidden")}).tags)
    seen |= set(ex.check_position(POSITION, {"value": 0, "move": 3}).tags)
    seen |= set(ex.check_pruning_order(TREE, TREE, worst=5).tags)
    seen |= set(ex.check_fail_soft_hard(CUTOFF, "C", {"soft": 3, "hard": 4, "root_soft": 4, "root_hard": 3}).tags)
    assert ours <= seen
    for tag in ours:
        assert any(name.startswith("check_") for name in CATALOGUE[tag].detected_by)


# --------------------------------------------------------------------------------- lesson 03's figures

def test_inner_labels_sit_away_from_the_incoming_edge_and_keep_their_bars():
    """03's tie figure: a right child's label goes right of it, clear of the edge from its parent above left."""
    import matplotlib

    matplotlib.use("Agg")
    from gametrees.drawing.painter import TextCollection

    tie = gt.tree_from_nested([[[3, 4], [5, 6]], [[4, 2], [7, 8], [9, 1]]])
    fig = gt.side_by_side(gt.alphabeta(tie), gt.alphabeta(tie, strict=True))
    fig.canvas.draw()
    parent = {tie.nodes[v]["label"]: tie.nodes[u]["label"] for u, v in tie.edges}
    x = {}
    for ax in fig.axes:
        for coll in ax.collections:
            if isinstance(coll, TextCollection) and coll.get_gid() == "labels":
                assert coll.get_snap() is False      # E, F, H, T keep their thin bars at 100 dpi
                for path, label, offset in zip(coll.get_paths(), coll.texts, coll.get_offsets()):
                    x.setdefault(label, (path.vertices[:, 0].min(), path.vertices[:, 0].max(), offset[0]))
    pos = {label: x[label][2] for label in x}
    for label in ("E", "H"):       # right children of B and C: to the right
        assert pos[parent[label]] < pos[label] and x[label][0] > 0, label
    for label in ("B", "D", "F", "G"):   # left children or straight below: to the left
        assert pos[parent[label]] >= pos[label] - 1e-9 and x[label][1] < 0, label
    import matplotlib.pyplot as plt

    plt.close(fig)


def test_pruning_order_worst_count_and_the_halving_misconception():
    assert max(leaves(t) for t in ([[4, 8, 2], [5, 9, 7], [6, 10, 11]], TREE)) == 9
    from gametrees.exercises.lessons.l03_alpha_beta import _count_two_level, _most
    assert _most(TREE) == 9
    import random
    rng = random.Random(3)
    for _ in range(200):   # the check's own count is alpha-beta's
        t = [[rng.randint(-4, 4) for _ in range(rng.randint(1, 4))] for _ in range(rng.randint(2, 4))]
        assert _count_two_level(t) == leaves(t), t
    right = [[6, 10, 11], [2, 4, 8], [5, 7, 9]]
    assert ex.check_pruning_order(TREE, right, worst=9).ok
    for halving in (5, 4.5):
        attempts.reset()
        first = ex.check_pruning_order(TREE, right, worst=halving)
        assert first.score == (1, 2) and first.tags == ("ordering-halves-work",)
        assert not has_number(first, 9) and "The worst order: you wrote" in text(first)
        second = ex.check_pruning_order(TREE, right, worst=halving)
        assert_rules(first, second)
        assert not has_number(second, 9)
    attempts.reset()
    fb = ex.check_pruning_order(TREE, None, worst=7)        # partly answered: the order is still to come
    assert fb.score == (0, 2) and "The order: not answered yet." in text(fb) and fb.tags == ()
    assert not has_number(fb, 9) and not has_number(fb, 5)
    assert "could not read 'nine'" in text(ex.check_pruning_order(TREE, right, worst="nine"))


def test_fail_soft_hard_two_root_values_is_the_changed_value_misconception():
    fb = ex.check_fail_soft_hard(CUTOFF, "C", {"soft": 3, "hard": 4, "root_soft": 4, "root_hard": 3})
    assert fb.score == (3, 4) and fb.tags == ("pruning-changes-value",)
    assert "The root under fail-hard: you wrote 3, and another value" in text(fb)
    attempts.reset()
    fb = ex.check_fail_soft_hard(CUTOFF, "C", {"soft": 3, "hard": 7, "root_soft": 6, "root_hard": 6})
    assert fb.tags == () and not has_number(fb, 4)    # the same wrong value twice: a slip, not that belief


# --------------------------------------------------------------------------------- lesson 02: claims

def _o_wins_now(game, state):
    return any(game.is_terminal(c) and game.utility(c) == -1 for _, c in game.successors(state))


def test_minimax_claims_are_true_as_stated():
    from gametrees.exercises.lessons.l02_minimax import MINIMAX_CLAIMS
    assert {k: v[1] for k, v in MINIMAX_CLAIMS.items()} == {"a": False, "b": True, "c": True, "d": False}
    game = TicTacToe()
    assert gt.minimax(game).value == 0        # a and d: the promise is a draw or better
    # c: a lost position where bare minimax plays a move after which O wins at once, though another move does not
    found = None
    for s in gt.expand(game, merge=True):
        if game.is_terminal(s) or game.to_move(s) != "max" or len(game.actions(s)) not in (3, 5):
            continue
        kids = dict(game.successors(s))
        if all(gt.minimax(game, c).value == -1 for c in kids.values()):
            move = gt.minimax(game, s).move
            if _o_wins_now(game, kids[move]) and not all(_o_wins_now(game, c) for c in kids.values()):
                found = s
                break
    assert found is not None


def test_minimax_claims_each_way():
    right = {"a": False, "b": True, "c": True, "d": False}
    assert ex.check_minimax_claims(right).ok
    assert ex.check_minimax_claims(dict.fromkeys(right)).status == "unanswered"
    for junk in ("a", [True] * 4):
        assert ex.check_minimax_claims(junk).status == "unreadable"
    all_wrong = {k: not v for k, v in right.items()}
    attempts.reset()
    first = ex.check_minimax_claims(all_wrong)
    assert first.score == (0, 4) and first.tags == ("correct-read-as-bug",)
    for key in right:
        line = next(line for line in first.lines if line.startswith(f"✗ {key}:"))
        assert "not right" in line and "true" not in line.lower().split("not right")[1][:8]
    assert "false" not in text(first).lower() and " true" not in text(first).lower()
    second = ex.check_minimax_claims(all_wrong)
    assert_rules(first, second)
    assert "tic-tac-toe" not in twins(second)[0]
    attempts.reset()
    fb = ex.check_minimax_claims({"a": False, "b": True, "c": "yes", "d": None})
    assert fb.score == (2, 4) and "could not read 'yes'" in text(fb) and "d: not answered yet." in text(fb)
    assert fb.tags == ()


# Lesson 03's fail-hard values are read from the engine's traced fail-soft search; checked here
# against an independent fail-hard alpha-beta (tests/reference.py) on random trees.
_SPECS = st.recursive(st.integers(-9, 9), lambda kids: st.lists(kids, min_size=1, max_size=3), max_leaves=18)


@settings(max_examples=400, deadline=None)
@given(spec=st.lists(_SPECS, min_size=1, max_size=3), root=st.sampled_from(["max", "min"]))
def test_fail_soft_and_fail_hard_returns_match_independent_searches(spec, root):
    G = gt.tree_from_nested(spec, root_player=root)
    label = {n: G.nodes[n]["label"] for n in G}
    _, _, soft = reference_alphabeta(spec, root_player=root)
    hard = reference_fail_hard(spec, root_player=root)
    inner = {p for p in soft if G.out_degree(p)}
    assert l03_alpha_beta._returns(G, hard=False) == {label[p]: soft[p] for p in inner}
    assert l03_alpha_beta._returns(G, hard=True) == {label[p]: hard[p] for p in inner}
