"""Exercises and checkers: answers, feedback, seeds, and deliberately wrong learner code.

Every checker is tested with a correct learner function and with one wrong
function per misconception (the catalogue: ``gametrees/exercises/misconceptions.py``); the feedback
must name the mistake. Generated exercises are compared with the independent
references in ``reference.py``.
"""

import math
import random
import re

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import all_values, reference_alphabeta
from submissions import draw_is_loss, leaky, negated_leaves

import gametrees as gt
from gametrees import exercises as ex
from gametrees.exercises import attempts
from gametrees.exercises.answers import BadAnswer, parse_value
from gametrees.exercises.code_checks import formulas

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
INF = math.inf
SOME = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

KINDS = sorted(ex.KINDS)
seeds = st.one_of(st.integers(0, 10 ** 6), st.text("s0123456789", min_size=1, max_size=8))
difficulties = st.sampled_from(["easy", "medium", "hard"])
roots = st.sampled_from(["max", "min"])


@pytest.fixture(autouse=True)
def _fresh_attempts():
    """Each test starts with no checks counted (a second wrong check adds a worked twin)."""
    attempts.reset()
    yield
    attempts.reset()


def bad_lines(fb):
    return [line for line in fb.lines if line.startswith("✗")]


def text(fb):
    return repr(fb)


def spec_of(G, n=None):
    """The nested-list spec of a tree built by tree_from_nested (no chance nodes)."""
    n = G.graph["root"] if n is None else n
    kids = list(G.successors(n))
    return [spec_of(G, c) for c in kids] if kids else G.nodes[n]["utility"]


# ----------------------------------------------------------------------------
# Feedback
# ----------------------------------------------------------------------------


def test_feedback_repr_html_and_attributes():
    fb = ex.Feedback("Check: 1 of 2 right.",
                     [("good", "A = 3", None), ("bad", "B <is> wrong", "a hint & more")])
    assert not fb.ok and not bool(fb)
    assert fb.lines == ["✓ A = 3", "✗ B <is> wrong"]
    assert fb.hints == ["a hint & more"]
    assert fb.score == (1, 2)
    assert repr(fb) == "✗ Check: 1 of 2 right.\n✓ A = 3\n✗ B <is> wrong\n    Hint: a hint & more"
    html = fb._repr_html_()
    assert "B &lt;is&gt; wrong" in html and "a hint &amp; more" in html
    assert "<details" in html and "<summary>Hint</summary>" in html
    assert "#0072B2" in html and "#D55E00" in html  # Okabe-Ito blue and vermillion
    assert "✓" in html and "✗" in html  # the marks, not colour alone
    assert "0x" not in repr(fb)


def test_feedback_rejects_unknown_item_kinds():
    with pytest.raises(ValueError, match="'good', 'bad' or 'note'"):
        ex.Feedback("x", [("fine", "text", None)])


def test_notes_do_not_fail_feedback():
    fb = ex.Feedback("t", [("good", "a", None), ("note", "n", None)])
    assert fb.ok and fb.lines[1] == "• n"


# ----------------------------------------------------------------------------
# Reading answers
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("raw,expected", [
    (3, ("eq", 3)), (2.5, ("eq", 2.5)), ("3", ("eq", 3)), ("-2.5", ("eq", -2.5)), ("−3", ("eq", -3)),
    ("3/4", ("eq", 0.75)), ("<=2", ("le", 2)), ("≤ 2", ("le", 2)), (">= 5", ("ge", 5)), ("≥5", ("ge", 5)),
    ("C ≤ 2", ("le", 2)), ("v >= 5", ("ge", 5)), ("< 2", ("lt", 2)), ("inf", ("eq", INF)),
    ("+∞", ("eq", INF)), ("-∞", ("eq", -INF)), ("-inf", ("eq", -INF)), (" = 4 ", ("eq", 4)),
])
def test_values_are_read_in_many_forms(raw, expected):
    assert parse_value(raw) == expected


@pytest.mark.parametrize("raw", [None, True, "three", "2x", "", [3], float("nan")])
def test_unreadable_values_are_reported(raw):
    with pytest.raises(BadAnswer):
        parse_value(raw)


@pytest.mark.parametrize("answer", [
    ["I", "J"], ("J", "I"), {"I", "J"}, "I, J", "J I", "{I, J}", "i; j", [(1, 1), (1, 2)],
    "(1, 1), (1, 2)", ["I", (1, 2)], {(1, 2), (1, 1)},
])
def test_node_sets_in_any_form_and_order(answer):
    fb = ex.PruningExercise(TEXTBOOK).check(answer)
    assert fb.ok, fb


@pytest.mark.parametrize("answer", [[], "none", set(), "[]"])
def test_empty_answers_mean_nothing_pruned(answer):
    fb = ex.PruningExercise([[5, 6], [7, 8]]).check(answer)
    assert fb.ok and "Nothing is pruned" in fb.lines[0]


@pytest.mark.parametrize("kind", ["values", "pruning", "order", "window", "expectimax", "best_move"])
@pytest.mark.parametrize("answer", ["", "   ", None])
def test_a_blank_answer_is_only_unanswered(kind, answer):
    e = ex.generate(kind, seed=3)
    fb = e.check(answer)
    assert not fb.ok and fb.title.endswith("not answered yet.")
    assert len(fb.items) == 1 and fb.lines[0].startswith("✗ Nothing answered yet: give ")


def test_glued_labels_and_inner_nodes_are_named_as_mistakes():
    e = ex.PruningExercise(TEXTBOOK)
    fb = e.check("IJ")
    assert not fb.ok and "There is no node 'IJ'" in text(fb) and "separate them: 'I, J'" in text(fb)
    fb = ex.PruningExercise([[3, 4], [[1, 2], [8, 9]]]).check("G")
    assert not fb.ok and "G is not a leaf" in text(fb) and "name the leaves below G" in text(fb)
    assert "J" not in text(fb) and "K" not in text(fb)  # the leaves are the answer: not named


def test_labels_and_ids_give_the_same_feedback():
    e = ex.ValuesExercise(TEXTBOOK)
    by_label = e.check({"A": 3, "B": 3, "C": 14, "D": 2})
    attempts.reset()
    by_id = e.check({(): 3, (0,): 3, (1,): 14, (2,): 2})
    attempts.reset()
    lower = e.check({"a": "3", "b": 3, "c": 14, "d": "2"})
    assert repr(by_label) == repr(by_id) == repr(lower)


def test_unknown_nodes_are_named():
    fb = ex.ValuesExercise(TEXTBOOK).check({"A": 3, "B": 3, "C": 2, "D": 2, "Z": 1})
    assert not fb.ok and "There is no node 'Z'" in text(fb) and "(A to M)" in text(fb)


# ----------------------------------------------------------------------------
# Generation: seeds, presets, overrides, errors
# ----------------------------------------------------------------------------


def tree_key(G):
    return sorted((n, tuple(sorted((k, v) for k, v in d.items()))) for n, d in G.nodes(data=True)), sorted(
        (u, v, tuple(sorted(d.items()))) for u, v, d in G.edges(data=True))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_the_same_seed_gives_the_same_exercise(kind, difficulty):
    a = ex.generate(kind, seed=1234, difficulty=difficulty)
    b = ex.generate(kind, seed=1234, difficulty=difficulty)
    assert tree_key(a.tree) == tree_key(b.tree)
    assert a.question == b.question and a.solution() == b.solution()
    assert repr(a.check(a.solution())) == repr(b.check(b.solution()))


@pytest.mark.parametrize("kind", KINDS)
def test_different_seeds_give_different_exercises(kind):
    trees = {repr(tree_key(ex.generate(kind, seed=s).tree)) for s in range(20)}
    assert len(trees) >= 15


def test_a_student_number_seeds_a_personal_variant():
    a = ex.generate("pruning", seed="s1234567", difficulty="medium")
    b = ex.generate("pruning", seed="s1234567", difficulty="medium")
    c = ex.generate("pruning", seed="s1234568", difficulty="medium")
    assert tree_key(a.tree) == tree_key(b.tree) != tree_key(c.tree)
    assert a.seed == "s1234567" and "seed 's1234567', medium" in a.question


def test_without_a_seed_the_drawn_seed_is_kept():
    a = ex.generate("values")
    assert a.seed is not None
    assert ex.generate("values", seed=a.seed).solution() == a.solution()


def test_the_root_player_changes_roles_not_shape():
    a = ex.generate("values", seed=9, difficulty="medium", root_player="max")
    b = ex.generate("values", seed=9, difficulty="medium", root_player="min")
    assert a.tree.nodes[()]["player"] == "max" and b.tree.nodes[()]["player"] == "min"
    assert list(a.tree.nodes(data="utility")) == list(b.tree.nodes(data="utility"))
    assert "A is a MIN node" in b.question


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_presets_set_depth_branching_values_and_raggedness(difficulty):
    p = ex.PRESETS[difficulty]
    depths = set()
    for seed in range(12):
        G = ex.generate("values", seed=seed, difficulty=difficulty).tree
        d = nx.single_source_shortest_path_length(G, ())
        leaves = [n for n in G if not G.out_degree(n)]
        assert max(d[n] for n in leaves) == p["depth"]
        assert all(p["values"][0] <= G.nodes[n]["utility"] <= p["values"][1] for n in leaves)
        assert all(p["branching"][0] <= G.out_degree(n) <= p["branching"][1] for n in G if G.out_degree(n))
        depths.add(len({d[n] for n in leaves}))
    assert (max(depths) > 1) == p["ragged"]


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_chance_presets(difficulty):
    p = ex.PRESETS[difficulty]
    G = ex.generate("expectimax", seed=3, difficulty=difficulty).tree
    d = nx.single_source_shortest_path_length(G, ())
    for n in G:
        if G.out_degree(n):
            assert G.nodes[n]["player"] == p["players"][d[n] % len(p["players"])]
    probs = {round(G.edges[u, v].get("prob", 1 / G.out_degree(u)), 6)
             for u, v in G.edges if G.nodes[u]["player"] == "chance"}
    assert (probs <= {0.5, 0.333333}) == (p["probabilities"] == "equal")


def test_overrides():
    e = ex.generate("values", seed=5, depth=3, branching=2, values=(-5, 5))
    assert e.tree.number_of_nodes() == 15
    assert all(-5 <= u <= 5 for _, u in e.tree.nodes(data="utility") if u is not None)
    e = ex.generate("expectimax", seed=5, players=("max", "chance", "min"), probabilities="equal", depth=3)
    assert e.tree.nodes[(0,)]["player"] == "chance" and e.tree.nodes[(0, 0)]["player"] == "min"


@pytest.mark.parametrize("call,error,match", [
    (lambda: ex.generate("prunning"), ValueError, "kind must be one of"),
    (lambda: ex.generate(3), TypeError, "kind must be a str"),
    (lambda: ex.generate("values", difficulty="expert"), ValueError, "difficulty must be one of"),
    (lambda: ex.generate("values", seed=2.5), TypeError, "seed must be an int or a str"),
    (lambda: ex.generate("values", seed=True), TypeError, "seed must be an int or a str"),
    (lambda: ex.generate("values", depth=0), ValueError, "depth must be between 1 and 8"),
    (lambda: ex.generate("values", depth="3"), TypeError, "depth must be an int"),
    (lambda: ex.generate("values", branching=(3, 2)), ValueError, "branching must satisfy"),
    (lambda: ex.generate("values", branching=0), ValueError, "branching must satisfy"),
    (lambda: ex.generate("values", values=(1,)), TypeError, "values must be"),
    (lambda: ex.generate("values", depth=8, branching=3), ValueError, "kept under 1000"),
    (lambda: ex.generate("values", ragged="yes"), TypeError, "ragged must be True or False"),
    (lambda: ex.generate("values", root_player="chance"), ValueError, "root_player must be 'max' or 'min'"),
    (lambda: ex.generate("expectimax", probabilities="random"), ValueError, "probabilities must be"),
    (lambda: ex.generate("pruning", rule="loose"), ValueError, "rule must be 'textbook' or 'strict'"),
    (lambda: ex.generate("values", algorithm="negamax"), ValueError, "algorithm must be"),
    (lambda: ex.ValuesExercise(TEXTBOOK, seed=3), ValueError, "either a tree or settings"),
    (lambda: ex.ValuesExercise("tree"), TypeError, "tree must be a game tree"),
    (lambda: ex.ValuesExercise(5), ValueError, "single leaf"),
    (lambda: ex.WindowExercise(TEXTBOOK, node="Z"), ValueError, "node 'Z' is not a node"),
    (lambda: ex.WindowExercise(TEXTBOOK, node="I"), ValueError, "is a leaf or is never visited"),
    (lambda: ex.ValuesExercise([{"chance": [1, 2]}, 3]), ValueError, "use gt.expectimax"),
    (lambda: ex.BestMoveExercise(TEXTBOOK, chance="yes"), TypeError, "chance must be True or False"),
    (lambda: ex.ValuesExercise(gt.tree_from_nested(TEXTBOOK), root_player="min"), ValueError,
     "root_player='min'"),
])
def test_bad_arguments_raise_clear_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


# ----------------------------------------------------------------------------
# Properties over random seeds
# ----------------------------------------------------------------------------


@SOME
@given(st.sampled_from(KINDS), seeds, difficulties, roots)
def test_the_solution_passes_its_own_check(kind, seed, difficulty, root):
    e = ex.generate(kind, seed=seed, difficulty=difficulty, root_player=root)
    fb = e.check(e.solution())
    assert fb.ok and not bad_lines(fb), fb


@SOME
@given(seeds, difficulties, roots, st.integers(0, 100))
def test_a_perturbed_value_fails_and_names_the_node(seed, difficulty, root, pick):
    for kind in ("values", "expectimax"):
        e = ex.generate(kind, seed=seed, difficulty=difficulty, root_player=root)
        answer = e.solution()
        label = sorted(answer)[pick % len(answer)]
        answer[label] = answer[label] + 1
        fb = e.check(answer)
        assert not fb.ok
        assert [line for line in bad_lines(fb)] == [f"✗ {label}: " + line.split(": ", 1)[1]
                                                    for line in bad_lines(fb)]


@SOME
@given(seeds, difficulties, roots, st.integers(0, 100), st.sampled_from(["textbook", "strict"]))
def test_a_perturbed_pruned_set_fails_and_names_the_leaf(seed, difficulty, root, pick, rule):
    e = ex.generate("pruning", seed=seed, difficulty=difficulty, root_player=root, rule=rule)
    pruned = e.solution()
    visited = [e.nodes.name(n) for n in e.leaves if e.nodes.name(n) not in pruned]
    added = visited[pick % len(visited)]
    fb = e.check(pruned + [added])
    assert not fb.ok and (any(line.startswith(f"✗ {added} is marked pruned") for line in fb.lines)
                          or fb.tags == ("tie-rule",)), fb  # a tie leaf added: the other rule's set
    if pruned:
        removed = pruned[pick % len(pruned)]
        fb = e.check([x for x in pruned if x != removed])
        cut = e.info.cut_for(e.nodes.by_label[removed])
        assert not fb.ok and (any(line.startswith(f"✗ {e.nodes.name(cut.node)}'s ") or "below" in line
                                  for line in bad_lines(fb)) or fb.tags == ("tie-rule",)), fb
        # the missed leaf is the answer: not named
        assert not re.search(rf"\b{removed}\b", "\n".join(bad_lines(fb)).split("Hint")[0])


@SOME
@given(seeds, difficulties, roots, st.integers(0, 100))
def test_a_perturbed_order_fails_and_names_a_node(seed, difficulty, root, pick):
    e = ex.generate("order", seed=seed, difficulty=difficulty, root_player=root)
    order = e.solution()
    i = 1 + pick % (len(order) - 2)
    order[i], order[i + 1] = order[i + 1], order[i]
    fb = e.check(order)
    assert not fb.ok
    assert f"Step {i + 1}: you wrote {order[i]}" in text(fb)


@SOME
@given(seeds, difficulties, roots, st.booleans())
def test_a_perturbed_window_fails_and_names_the_bound(seed, difficulty, root, which):
    e = ex.generate("window", seed=seed, difficulty=difficulty, root_player=root)
    a, b = e.solution()
    answer = (a + 1 if math.isfinite(a) else 0, b) if which else (a, b - 1 if math.isfinite(b) else 0)
    fb = e.check(answer)
    name = e.nodes.name(e.node)
    assert not fb.ok and bad_lines(fb)[0].startswith(f"✗ {'α' if which else 'β'} at {name}: you wrote")


@SOME
@given(seeds, difficulties, roots, st.booleans())
def test_a_wrong_best_move_fails_and_names_it(seed, difficulty, root, chance):
    e = ex.generate("best_move", seed=seed, difficulty=difficulty, root_player=root, chance=chance)
    attempts.reset()
    wrong = [c for c in e.children if c not in e.best]
    assert wrong  # generation avoids trees where every move is best
    name = e.nodes.name(wrong[0])
    fb = e.check(name)
    assert not fb.ok and bad_lines(fb)[0].startswith(f"✗ {name} is not ")
    attempts.reset()
    assert e.check(wrong[0]).lines == fb.lines  # an id works as well as a label


@SOME
@given(st.sampled_from(["values", "pruning", "order"]), seeds, difficulties, roots)
def test_answers_by_id_are_accepted(kind, seed, difficulty, root):
    e = ex.generate(kind, seed=seed, difficulty=difficulty, root_player=root)
    sol = e.solution()
    by_id = ({e.nodes.by_label[k]: v for k, v in sol.items()} if isinstance(sol, dict)
             else [e.nodes.by_label[k] for k in sol])
    assert e.check(by_id).ok


@SOME
@given(seeds, st.sampled_from(["easy", "medium", "hard"]), roots, st.sampled_from(["textbook", "strict"]))
def test_generated_exercises_agree_with_the_independent_reference(seed, difficulty, root, rule):
    e = ex.generate("pruning", seed=seed, difficulty=difficulty, root_player=root, rule=rule)
    spec = spec_of(e.tree)
    _, visited, returned = reference_alphabeta(spec, root, strict=rule == "strict")
    leaves = [n for n in e.tree if not e.tree.out_degree(n)]
    assert sorted(e.solution()) == sorted(e.nodes.name(n) for n in leaves if n not in visited)
    order = ex.OrderExercise(e.tree, rule=rule, leaves_only=True).solution()
    assert order == [e.nodes.name(n) for n in visited]
    values = ex.ValuesExercise(e.tree).solution()
    truth = all_values(spec, root)
    assert values == {e.nodes.name(n): v for n, v in truth.items() if e.tree.out_degree(n)}
    ab = ex.ValuesExercise(e.tree, algorithm="alphabeta", rule=rule).solution()
    for label, v in ab.items():
        got = v if not isinstance(v, str) else int(v.split()[-1])
        assert got == returned[e.nodes.by_label[label]]


# ----------------------------------------------------------------------------
# Values exercises
# ----------------------------------------------------------------------------


def test_the_issue_example():
    fb = ex.ValuesExercise(TEXTBOOK).check({"A": 3, "B": 3, "C": 2, "D": 14})
    assert fb.lines[-1] == ("✗ D: you wrote 14. D is a MIN node: which of its children's values does MIN "
                            "take? (the smallest)")
    assert fb.hints == ["Your 14 is the largest of D's children's values, as if the other player chose at D; "
                        "but D is a MIN node, and MIN takes the smallest. Ask whose turn it is at D."]
    assert fb.tags == ("roles-inverted",) and fb.status == "wrong" and fb.attempt == 1


def test_an_error_carried_up_from_a_child_is_named():
    # D = max(1, 9) = 9 and E = max(4, 6) = 6, so B = min(9, 6) = 6. The learner has D = 1, hence B = 1:
    # B is right given the learner's D and E, so B's line names the carried error and no rule, and never 6.
    fb = ex.ValuesExercise([[[1, 9], [4, 6]], [[2, 3], [5, 7]]]).check(
        {"A": 6, "B": 1, "C": 3, "D": 1, "E": 6, "F": 3, "G": 7})
    assert ("✗ B: your 1 follows from your D (the smallest of your D and E), so B is right given your "
            "values below it; the error is carried up from D: fix D first.") in fb.lines
    assert any(h.startswith("Your 1 is the smallest of D's children's values") for h in fb.hints)
    assert fb.tags == ("roles-inverted",) and fb.title.endswith("5 of 7 right.")


def test_a_carried_error_at_the_root_gets_no_rule_lecture():
    # The reader's case: B's MAX slip carried to A = max(your B, C, D), which is right given them.
    e = ex.ValuesExercise(seed=2)
    sol = e.solution()
    kids = e.tree.successors(e.nodes.by_label["B"])
    wrong_b = max(e.tree.nodes[c]["utility"] for c in kids)
    assert wrong_b > max(sol["A"], sol["C"], sol["D"])
    fb = e.check({"B": wrong_b, "C": sol["C"], "D": sol["D"], "A": wrong_b})
    a_line = next(line for line in fb.lines if line.startswith("✗ A"))
    assert a_line == (f"✗ A: your {wrong_b} follows from your B (the largest of your B, C and D), so A is "
                      "right given your values below it; the error is carried up from B: fix B first.")
    assert "roles-inverted" in fb.tags


def test_a_wrong_value_not_following_from_the_childrens_keeps_the_rule_question():
    e = ex.ValuesExercise(seed=2)
    sol = e.solution()
    fb = e.check({**sol, "A": sol["A"] + 1})
    assert ("✗ A: you wrote " + str(sol["A"] + 1) + ". A is a MAX node: which of its children's values "
            "does MAX take? (the largest)") in fb.lines


def test_an_expectimax_error_carried_up_from_a_chance_node():
    e = ex.ExpectimaxExercise(seed=3, difficulty="medium")
    sol = e.solution()
    G, B = e.tree, e.nodes.by_label["B"]
    plain_mean = sum(e.solution()[e.nodes.name(c)] for c in G.successors(B)) / G.out_degree(B)
    assert plain_mean > sol["C"]
    fb = e.check({**sol, "B": plain_mean, "A": plain_mean})
    a_line = next(line for line in fb.lines if line.startswith("✗ A"))
    assert a_line.startswith(f"✗ A: your {plain_mean:g} follows from your B (the largest of your B and C)")
    assert a_line.endswith("fix B first.") and "MAX take" not in a_line
    assert fb.title.endswith(f"{len(sol) - 2} of {len(sol)} right.")
    assert "plain average" in " ".join(fb.hints)


def test_minimax_values_are_exact_not_bounds():
    fb = ex.ValuesExercise(TEXTBOOK).check({"A": 3, "B": 3, "C": "<= 2", "D": 2})
    assert not fb.ok and "minimax gives every node an exact value" in text(fb)


def test_missing_and_leaf_values():
    fb = ex.ValuesExercise(TEXTBOOK).check({"A": 3, "B": 3, "C": 2, "E": 4})
    assert "✗ D: no value given." in fb.lines
    assert ("✗ E is a leaf: its value is the utility written on the tree (you wrote 4); "
            "leaves need no answer.") in fb.lines


def test_malformed_values_answers_are_feedback_not_errors():
    for answer in ([3, 3, 2, 2], 3, "A=3"):
        fb = ex.ValuesExercise(TEXTBOOK).check(answer)
        assert not fb.ok and fb.status == "unreadable" and "give the values as a dict" in text(fb)
    fb = ex.ValuesExercise(TEXTBOOK).check({"A": "three", "B": 3, "C": 2, "D": 2})
    assert ("✗ A: 'three' is not a number; write a plain number (digits, a decimal point if needed, "
            "a minus sign for negatives).") in fb.lines


def test_alphabeta_values_and_bounds():
    e = ex.ValuesExercise(TEXTBOOK, algorithm="alphabeta")
    assert e.solution() == {"A": 3, "B": 3, "C": "≤ 2", "D": 2}
    bare = e.check({"A": 3, "B": 3, "C": 2, "D": 2})
    # misconception 9 (issue 20): a bound written as an exact value is wrong, with the reason, and no side
    # given
    assert not bare.ok and bare.tags == ("bound-as-value",)
    assert bare.lines[2].startswith("✗ C: you wrote 2 as an exact value, but C's search is cut short")
    assert "≤" not in text(bare) and "≥" not in text(bare)
    wrong_side = e.check({"A": 3, "B": 3, "C": "≥ 2", "D": 2})
    assert not wrong_side.ok and "which side is open" in text(wrong_side)
    exact_as_bound = e.check({"A": 3, "B": "≤ 3", "C": "≤ 2", "D": 2})
    assert "B's search runs to the end" in text(exact_as_bound)
    assert "its value is exact" in text(exact_as_bound)
    fail_hard = e.check({"A": 3, "B": 3, "C": "≤ 3", "D": 2})
    assert "fail-hard" in text(fail_hard) and "fail-soft" in text(fail_hard)
    assert fail_hard.tags == ("fail-hard-bound",)
    true_value = ex.ValuesExercise([[3, 12], [2, 1]], algorithm="alphabeta").check({"A": 3, "B": 3, "C": 1})
    assert "the value C would have if every leaf below it were looked at" in text(true_value)
    assert true_value.tags == ("cut-value-as-minimax",)
    strict = e.check({"A": 3, "B": 3, "C": "< 2", "D": 2})
    assert "the true value could equal your number: write ≤ or ≥ instead" in text(strict)


def test_alphabeta_values_for_pruned_inner_nodes():
    e = ex.ValuesExercise([[3, 4], [[1, 2], [8, 9]]], root_player="max", algorithm="alphabeta")
    # C = min(F, G): F = max(1, 2) = 2 <= alpha = 3 cuts G.
    assert "G" not in e.solution()
    assert e.check({**e.solution(), "G": "pruned"}).ok
    fb = e.check({**e.solution(), "G": 9})
    assert not fb.ok and "alpha-beta never visits G, so it returns no value there" in text(fb)
    fb = e.check({**e.solution(), "C": "pruned"})
    assert "alpha-beta does visit C, so it returns a value" in text(fb)


def test_expectimax_exercise_names_chance_slips():
    e = ex.ExpectimaxExercise([{"chance": [3, 12], "p": [0.25, 0.75]}, {"chance": [2, 4]}])
    assert e.solution() == {"A": 9.75, "B": 9.75, "C": 3}
    assert e.check({"A": 9.75, "B": 9.7549, "C": 3}).ok  # rounding is fine
    mean = e.check({"A": 9.75, "B": 7.5, "C": 3})
    assert "plain average" in mean.hints[0] and mean.tags == ("chance-unweighted",)  # misconception 18
    mini = e.check({"A": 9.75, "B": 3, "C": 3})
    assert "nobody chooses at a chance node" in mini.hints[0] and mini.tags == ("chance-as-choice",)
    thirds = ex.ExpectimaxExercise([{"chance": [1, 2, 6]}, 2])
    assert "p = 1/3: D = 1" in thirds.outline() and thirds.check({"A": 3, "B": 3.0, "C": 2}).ok
    with pytest.raises(TypeError, match="always expectimax"):
        ex.ExpectimaxExercise(TEXTBOOK, algorithm="minimax")


# ----------------------------------------------------------------------------
# Pruning, order, window, best move
# ----------------------------------------------------------------------------


def test_pruning_names_the_cutoff_of_a_missed_leaf():
    fb = ex.PruningExercise(TEXTBOOK).check(["I"])
    assert ("✗ C's cut skips more than you marked: which of C's children does it never look at, and which "
            "leaves lie below them?") in fb.lines
    fb = ex.PruningExercise(TEXTBOOK).check([])
    assert ("✗ C's search has a cut you did not mark: C is a MIN node and stops once its value falls to α "
            "(v ≤ α). After which child does that happen, and which leaves does C then never look "
            "at?") in fb.lines


def test_pruning_a_first_child_needs_evidence():
    fb = ex.PruningExercise(TEXTBOOK).check(["H", "I", "J"])
    assert ("✗ H is marked pruned, but H is C's first child: when the search reaches it, C has no finished "
            "child yet, so nothing can be cut there. A cut needs evidence.") in fb.lines
    assert fb.tags == ("prune-without-evidence",)


def test_over_pruning_shows_the_window_and_a_counterexample():
    e = ex.PruningExercise(TEXTBOOK)
    fb = e.check(["I", "J", "L"])
    assert ("✗ L is marked pruned, but alpha-beta evaluates it: D is a MIN node, and a MIN node stops only "
            "when its value falls to α (v ≤ α); a value at or above β does not stop it. Has D's value met "
            "that test before L comes up? A cut needs it.") in fb.lines
    again = e.check(["I", "J", "L"])  # the second wrong check works the mistake through on a twin tree
    assert again.lines[-1].startswith("• Worked on a twin tree: the same tree with other leaf values, A:max(")
    assert "L is evaluated: when D reaches it" in again.lines[-1] and again.attempt == 2
    assert "If L were 1 instead of 5" in e.explain() or "Answer: ['I', 'J']" in e.explain()


@pytest.mark.parametrize("rule,other", [("textbook", "strict"), ("strict", "textbook")])
def test_the_other_tie_convention_is_named(rule, other):
    e = ex.PruningExercise([[3, 5], [3, 9]], rule=rule)
    other_answer = ex.PruningExercise([[3, 5], [3, 9]], rule=other).solution()
    fb = e.check(other_answer)
    if other_answer:  # the marks are the other rule's set, and not this rule's
        assert not fb.ok and f"You pruned with the {other} rule" in fb.lines[0]  # misconception 7
        assert "same root value" in fb.hints[0]
    else:  # an empty answer says nothing about ties: no rule is named
        assert not fb.ok and "rule;" not in text(fb) and "a cut you did not mark" in text(fb)


@pytest.mark.parametrize("seed", [989067, 5, 11])
def test_a_rule_is_named_only_for_that_rules_marks(seed):
    """Issue 13: practice(seed=989067) with nothing marked named the strict rule."""
    for rule, other in (("textbook", "strict"), ("strict", "textbook")):
        e = ex.PruningExercise(seed=seed, rule=rule)
        mine, theirs = set(e.solution()), set(e.other_pruned and [e.nodes.name(n) for n in e.other_pruned])
        answers = {"empty": [], "own": sorted(mine), "other": sorted(theirs)}
        if mine:
            answers["partial"] = sorted(mine)[:1]
        for name, answer in answers.items():
            fb = e.check(answer)
            named = f"You pruned with the {other} rule" in text(fb)
            assert named == (name == "other" and bool(theirs) and theirs != mine), (rule, name, fb)


def test_pruned_inner_nodes_stand_for_their_leaves():
    e = ex.PruningExercise([[3, 4], [[1, 2], [8, 9]]])
    assert e.solution() == ["J", "K"]
    assert e.check("G", subtrees=True).ok and e.check(["J", "K"]).ok
    assert not e.check("G").ok  # the question asks for leaves
    fb = e.check("C")
    assert "C is marked pruned, but alpha-beta evaluates it" in text(fb)


def test_malformed_pruning_answer_is_feedback():
    fb = ex.PruningExercise(TEXTBOOK).check({"I": True})
    assert not fb.ok and "not a dict" in text(fb)
    fb = ex.PruningExercise(TEXTBOOK).check(3.5)
    assert not fb.ok and "Could not read your answer" in text(fb)


def test_order_feedback():
    e = ex.OrderExercise(TEXTBOOK)
    assert e.check("B E F G C H D K L M").ok  # the root may be left out
    skip = e.check("A B E F G C D K L M")
    assert ("✗ Step 7: you wrote D, skipping nodes the search does visit after C: a cut needs a MAX node "
            "whose value reaches β (v ≥ β), or a MIN node whose value falls to α (v ≤ α), with a child left; "
            "is there one there?") in skip.lines
    assert skip.tags == ("prune-without-evidence",)
    extra = e.check("A B E F G C H I J D K L M")
    assert ("Step 8: you wrote I, but the search never reaches I: a cut above it stops the search first"
            in text(extra))
    twice = e.check("A B E F G C H D K L M M")
    assert "You listed M more than once" in text(twice)
    short = e.check("A B E")
    assert "Your list stops after E, but the search goes on" in text(short)
    assert "F" not in "".join(bad_lines(short))
    assert "Your list is empty" in text(e.check([]))
    bfs = e.check("A B C D E F G H K L M")
    assert bfs.tags == ("breadth-first-order",)
    leaves = ex.OrderExercise(TEXTBOOK, leaves_only=True)
    assert leaves.solution() == ["E", "F", "G", "H", "K", "L", "M"]
    assert ex.OrderExercise(TEXTBOOK, algorithm="minimax").solution() == list("ABEFGCHIJDKLM")


def test_window_feedback_names_misconceptions_5_6_and_14():
    c = ex.WindowExercise(TEXTBOOK, node="C")
    assert c.solution() == (3, INF)
    fb = c.check((2, INF))  # 2 is C's child H: MIN moved α (misconception 5)
    assert "MAX raises its floor α and MIN lowers its ceiling β, so at C α is only inherited" in text(fb)
    assert fb.tags == ("wrong-bound-updated",) and "3" not in text(fb)
    none = c.check({"alpha": None, "beta": "inf"})
    assert "None is not a number: give a number for each bound" in text(none) and not none.hints  # 14
    assert "inf" not in text(none)                              # no steer towards an infinity
    cut = c.check("α = 3, β = 2")
    assert "the value of the child that ends C's search with a cutoff" in text(cut)
    assert "∞" not in cut.lines[1]
    d = ex.WindowExercise(TEXTBOOK, node="D")
    cousin = d.check((3, 8))  # 8 is B's β after G... no: B's window is its own; 8 is nobody's bound
    assert not cousin.ok
    b = ex.WindowExercise(TEXTBOOK, node="B")
    swapped = b.check((3, -INF))
    assert "which of your two numbers is which" in text(swapped)
    a = ex.WindowExercise(TEXTBOOK, node="A")
    fb = a.check((3, 7))
    assert "a MAX node never changes β: it only inherits it" in text(fb) and not fb.tags
    fb = a.check((3, 5))  # 5 is D's β, a window from beside A's path (misconception 6)
    assert fb.tags == ("bounds-global",) and "windows pass down only" in text(fb)
    fb = a.check((3, 2))  # 2 is a child's value: MAX moved β
    assert fb.tags == ("wrong-bound-updated",)
    assert "Answer: (3, inf)" in c.explain() and "so α stays 3" in c.explain()
    for answer in ("3", (1, 2, 3), object(), {"alpha": 3}):
        assert not c.check(answer).ok
    assert c.check("3, +inf").ok and c.check({"α": 3, "β": "∞"}).ok and c.check([3, math.inf]).ok


def test_window_node_choice_is_seeded():
    names = {ex.generate("window", seed=s, difficulty="medium").node for s in range(15)}
    assert len(names) > 2
    e = ex.generate("window", seed=11, difficulty="medium")
    assert e.node != () and e.node == ex.generate("window", seed=11, difficulty="medium").node


def test_best_move_feedback():
    e = ex.BestMoveExercise(TEXTBOOK)
    assert e.solution() == "B"
    assert e.check("B").ok and e.check((0,)).ok
    assert e.check("D").lines == ["✗ D is not MAX's best move. Work out what each of B, C or D is worth to "
                                  "MAX (a child's value is its subtree's minimax value), then ask which one "
                                  "MAX prefers."]
    assert "Answer: 'B'" in e.explain() and "D = 2" in e.explain()
    assert "A is where MAX moves from" in text(e.check("A"))
    assert "here C on the way to H" in text(e.check("H"))
    assert "Name one child of A: B, C or D" in text(e.check("Z")) and e.check("Z").status == "unreadable"
    tie = ex.BestMoveExercise([[3, 4], [5, 3], [1, 9]])
    assert tie.check("B").ok and "C is just as good" in text(tie.check("B"))
    moves = gt.tree_from_dict({"R": {"player": "max", "children": ["x", "y"], "moves": ["left", "right"]},
                               "x": 1, "y": 2})
    e = ex.BestMoveExercise(moves)
    assert e.solution() == "y" and e.check("right").ok and not e.check("left").ok


def test_a_given_graph_with_named_nodes():
    G = gt.tree_from_dict({"root": {"player": "min", "children": ["p", "q"]},
                           "p": {"player": "max", "children": ["p1", "p2"]}, "q": 1, "p1": 4, "p2": 7})
    e = ex.ValuesExercise(G)
    assert e.solution() == {"root": 1, "p": 7}
    assert e.check({"root": 1, "p": 7}).ok
    assert "root is a MIN node" in text(e.check({"root": 7, "p": 7}))


def test_exercise_display_explain_and_show_solution(monkeypatch):
    e = ex.generate("pruning", seed=2)
    assert e.question in repr(e) and "<pre>" in e._repr_html_()
    assert e.explain().splitlines()[0] == "  1. Start at the root A, a MAX node with window α = −∞, β = +∞."
    assert e.explain().splitlines()[-1] == f"Answer: {e.solution()!r}"
    shown = []
    monkeypatch.setattr(gt, "draw", lambda result, **kw: shown.append(("draw", result, kw)), raising=False)
    monkeypatch.setattr(gt, "replay", lambda result, **kw: shown.append(("replay", result, kw)),
                        raising=False)
    e.show_solution(figsize=(4, 3))
    e.show_solution(replay=True)
    assert shown == [("draw", e.result, {"figsize": (4, 3)}), ("replay", e.result, {})]
    monkeypatch.delattr(gt, "draw", raising=False)

    def missing(name):  # gametrees loads gt.draw on first use: make that fail too
        raise AttributeError(name)

    monkeypatch.setattr(gt, "__getattr__", missing, raising=False)
    with pytest.raises(ImportError, match="explain"):
        e.show_solution()


def test_result_is_the_engines_search():
    e = ex.PruningExercise(TEXTBOOK, rule="strict")
    assert isinstance(e.result, gt.SearchResult) and e.result.algorithm == "alphabeta-strict"
    assert ex.ValuesExercise(TEXTBOOK).result.algorithm == "minimax"
    assert ex.ExpectimaxExercise([{"chance": [1, 2]}, 3]).result.algorithm == "expectimax"


# ----------------------------------------------------------------------------
# Learner functions: minimax
# ----------------------------------------------------------------------------


def good_minimax(game, state):
    if game.is_terminal(state):
        return game.utility(state)
    values = [good_minimax(game, game.result(state, m)) for m in game.actions(state)]
    return max(values) if game.to_move(state) == "max" else min(values)


def alternating(game, state, maximize=True):  # misconception 1: assumes MAX at the root, alternation
    if game.is_terminal(state):
        return game.utility(state)
    values = [alternating(game, game.result(state, m), not maximize) for m in game.actions(state)]
    return max(values) if maximize else min(values)


def aliased(game, state):  # misconception 3: `child = state` is no copy
    if game.is_terminal(state):
        return game.utility(state)
    player = game.to_move(state)
    values = []
    for m in game.actions(state):
        if isinstance(state, list):
            child = state
            child.append(m)
            values.append(aliased(game, child))
        else:
            values.append(aliased(game, game.result(state, m)))
    return max(values) if player == "max" else min(values)


def make_unmake(game, state):  # correct with mutable states
    if game.is_terminal(state):
        return game.utility(state)
    player = game.to_move(state)
    values = []
    for m in game.actions(state):
        if isinstance(state, list):
            game.make(state, m)
            values.append(make_unmake(game, state))
            game.unmake(state, m)
        else:
            values.append(make_unmake(game, game.result(state, m)))
    return max(values) if player == "max" else min(values)


def to_move_first(game, state):  # misconception 15: terminal test after to_move
    player = game.to_move(state)
    if game.is_terminal(state):
        return game.utility(state)
    values = [to_move_first(game, game.result(state, m)) for m in game.actions(state)]
    return max(values) if player == "max" else min(values)


def forgot_return(game, state):
    if game.is_terminal(state):
        return game.utility(state)
    values = [forgot_return(game, game.result(state, m)) for m in game.actions(state)]
    if game.to_move(state) == "max":
        return max(values)
    min(values)


def runaway(game, state):
    while True:
        game.is_terminal(state)


def chatty(game, state):
    print("at", state)
    return good_minimax(game, state)


def memo_minimax(game, state):  # hashable states only
    memo = {}

    def value(s):
        if s not in memo:
            memo[s] = good_minimax(game, s)
        return memo[s]

    return value(state)


def test_check_minimax_accepts_a_correct_function():
    for fn in (good_minimax, make_unmake):
        fb = ex.check_minimax(fn)
        assert fb.ok and fb.tree is None and not bad_lines(fb), fb
        assert fb.lines[0] == "✓ the textbook tree [[3, 12, 8], [2, 4, 6], [14, 5, 2]]: right (3)."


def test_check_minimax_roles_inverted():
    fb = ex.check_minimax(alternating)
    assert not fb.ok
    assert ("✗ Smallest failing tree: A:min(B=4, C=9). At A (state ()), your function returned 9, but A "
            "is a MIN node (game.to_move gives 'min') whose children are worth B = 4, C = 9 (your function "
            "gets those right), so A is worth 4, the smallest.") in fb.lines
    assert "MIN picks the smallest" in text(fb)
    assert fb.tree is not None and fb.tree.number_of_nodes() == 3


def test_check_minimax_turns_that_do_not_alternate():
    def by_depth(game, state):
        def value(s, maximize):
            if game.is_terminal(s):
                return game.utility(s)
            values = [value(game.result(s, m), not maximize) for m in game.actions(s)]
            return max(values) if maximize else min(values)
        return value(state, game.is_terminal(state) or game.to_move(state) == "max")

    fb = ex.check_minimax(by_depth)
    assert [line[:40] for line in bad_lines(fb)][0] == "✗ turns that do not alternate (MIN moves"
    assert "At B (state (0,)), your function returned 5" in text(fb)
    assert "Turns need not alternate: D is MIN like its parent B" in text(fb)


def test_check_minimax_draw_scored_as_loss():
    fb = ex.check_minimax(draw_is_loss)
    assert "At 'XOX/XOO/OXX' the game is over (a draw: the board is full)" in text(fb)
    assert "A draw is worth 0" in text(fb)
    assert ex.check_minimax(draw_is_loss, tictactoe=False).ok  # only the game has draws


def test_check_minimax_negated_utilities():
    fb = ex.check_minimax(negated_leaves, tictactoe=False)
    assert ("✗ Smallest failing tree: A=7. At A (state ()), a terminal node, your function returned -7"
            in text(fb))
    assert "You negated the utility" in text(fb)


@pytest.mark.parametrize("fn", [leaky, aliased])
def test_check_minimax_state_not_restored(fn):
    fb = ex.check_minimax(fn)
    lines = bad_lines(fb)
    assert len(lines) == 2, fb  # only the mutable-state game fails
    assert "was never undone" in lines[1] and "At B (state [0])" in lines[1]
    assert "`child = state` does not copy a list" in text(fb)


def test_check_minimax_terminal_test_first():
    fb = ex.check_minimax(to_move_first, mutable=False)
    assert "✗ Smallest failing tree: A=7. At A (state ()), your function raised ValueError" in text(fb)
    assert "Test game.is_terminal(state) first" in text(fb)
    assert "Traceback" not in text(fb) and "line" in text(fb)


def test_check_minimax_reports_a_missing_return_and_exceptions():
    fb = ex.check_minimax(forgot_return, tictactoe=False, mutable=False)
    assert "returned None (is a return statement missing?)" in text(fb)

    def crash(game, state):
        return {}[state]

    fb = ex.check_minimax(crash, tictactoe=False, mutable=False)
    assert "raised KeyError: () (in crash, line" in text(fb)


@pytest.mark.slow
def test_check_minimax_stops_a_runaway_function():
    fb = ex.check_minimax(runaway, tictactoe=False, mutable=False)
    assert "made more than 50,000 calls to the game without finishing" in text(fb)


def test_check_minimax_hides_printing_and_skips_unhashable():
    fb = ex.check_minimax(chatty)
    assert fb.ok and fb.lines[-1].startswith("• Your function printed")
    memo = ex.check_minimax(memo_minimax)
    assert memo.ok
    assert any(line.startswith("• Skipped a game whose states are mutable lists") for line in memo.lines)


def test_check_minimax_bad_function_arguments():
    with pytest.raises(TypeError, match="expects your function"):
        ex.check_minimax(42)
    fb = ex.check_minimax(lambda state: 0)
    assert not fb.ok and "calls your function as fn(game, state)" in text(fb)


def test_checker_output_is_deterministic():
    assert repr(ex.check_minimax(alternating)) == repr(ex.check_minimax(alternating))
    assert "0x" not in repr(ex.check_minimax(alternating))


# ----------------------------------------------------------------------------
# Learner functions: alpha-beta
# ----------------------------------------------------------------------------


def make_ab(max_cut=lambda v, a, b: v >= b, min_cut=lambda v, a, b: v <= a, start=-INF, on_cut=None,
            update_min=None, name="ab"):
    """An AIMA-style alpha-beta with pluggable slips; recurses through its own global name."""

    def ab(game, state, alpha, beta):
        if game.is_terminal(state):
            return game.utility(state)
        if game.to_move(state) == "max":
            v = start
            for m in game.actions(state):
                v = max(v, globals()[name](game, game.result(state, m), alpha, beta))
                if max_cut(v, alpha, beta):
                    return on_cut(v, alpha, beta, "max") if on_cut else v
                alpha = max(alpha, v)
            return v
        v = INF
        for m in game.actions(state):
            v = min(v, globals()[name](game, game.result(state, m), alpha, beta))
            if min_cut(v, alpha, beta):
                return on_cut(v, alpha, beta, "min") if on_cut else v
            if update_min:
                alpha, beta = update_min(v, alpha, beta)
            else:
                beta = min(beta, v)
        return v

    ab.__name__ = name
    globals()[name] = ab
    return ab


def fail_hard(game, state, alpha, beta):
    if game.is_terminal(state):
        return game.utility(state)
    for m in game.actions(state):
        v = fail_hard(game, game.result(state, m), alpha, beta)
        if game.to_move(state) == "max":
            alpha = max(alpha, v)
        else:
            beta = min(beta, v)
        if alpha >= beta:
            return beta if game.to_move(state) == "max" else alpha
    return alpha if game.to_move(state) == "max" else beta


def restart_root(game, state, alpha, beta):  # misconception 12: a helper searches each root child afresh
    if game.is_terminal(state):
        return game.utility(state)
    values = [ab_helper(game, game.result(state, m), -INF, INF) for m in game.actions(state)]
    return max(values) if game.to_move(state) == "max" else min(values)


ab_helper = make_ab(name="ab_helper")
SHARED = {}


def shared_bounds(game, state, alpha, beta):  # misconception 6
    if state == game.initial:
        SHARED.update(alpha=alpha, beta=beta)
    if game.is_terminal(state):
        return game.utility(state)
    if game.to_move(state) == "max":
        v = -INF
        for m in game.actions(state):
            v = max(v, shared_bounds(game, game.result(state, m), SHARED["alpha"], SHARED["beta"]))
            if v >= SHARED["beta"]:
                return v
            SHARED["alpha"] = max(SHARED["alpha"], v)
        return v
    v = INF
    for m in game.actions(state):
        v = min(v, shared_bounds(game, game.result(state, m), SHARED["alpha"], SHARED["beta"]))
        if v <= SHARED["alpha"]:
            return v
        SHARED["beta"] = min(SHARED["beta"], v)
    return v


def test_check_alphabeta_accepts_either_tie_rule_and_says_which():
    textbook = ex.check_alphabeta(make_ab(name="ab_textbook"))
    assert textbook.ok and "exactly alpha-beta's with the textbook rule" in text(textbook)
    strict = ex.check_alphabeta(make_ab(lambda v, a, b: v > b, lambda v, a, b: v < a, name="ab_strict"))
    assert strict.ok and "exactly alpha-beta's with the strict rule" in text(strict)
    hard = ex.check_alphabeta(fail_hard)
    assert hard.ok and "textbook rule" in text(hard)


def test_check_alphabeta_mixed_tie_conventions():
    fb = ex.check_alphabeta(make_ab(min_cut=lambda v, a, b: v < a, name="ab_mixed"))  # misconception 7
    assert "you mix the two tie conventions" in text(fb)


def test_check_alphabeta_no_pruning():
    fb = ex.check_alphabeta(make_ab(lambda v, a, b: False, lambda v, a, b: False, name="ab_none"))
    assert "Your function evaluates every leaf" in text(fb) and "Nothing is pruned" in text(fb)


def test_check_alphabeta_root_restarts_the_window():
    fb = ex.check_alphabeta(restart_root)
    assert "Your root restarts the window for every child" in text(fb)  # misconception 12
    assert ("A:max(B:min(D:max(H=3, I=5), E:max(J=6, K=9)), C:min(F:max(L=1, M=2), G:max(N=0, O=8)))"
            in text(fb))


def test_check_alphabeta_zero_as_no_bound():
    truthy = make_ab(lambda v, a, b: bool(b) and v >= b, lambda v, a, b: bool(a) and v <= a, name="ab_truthy")
    fb = ex.check_alphabeta(truthy)  # misconception 14
    assert "The first extra one is G" in text(fb) and "The bound here is 0" in text(fb)
    zero_start = ex.check_alphabeta(make_ab(start=0, name="ab_zero"))
    assert "does the best value so far (or α/β) start at 0" in text(zero_start)


def test_check_alphabeta_wrong_bound_updated():
    fb = ex.check_alphabeta(make_ab(update_min=lambda v, a, b: (min(a, v), b), name="ab_wrong_bound"))
    assert "B (MIN) has 1 so far, so it lowers β to 1 before searching E" in text(fb)  # misconception 5
    assert "MIN lowers its ceiling β (β = min(β, v))" in text(fb)


def test_check_alphabeta_shared_bounds():
    fb = ex.check_alphabeta(shared_bounds)  # misconception 6
    assert ("✗ A (MAX) was searched with α = -∞, β = +∞ and stopped after B with value 1, leaving C "
            "unsearched; but 1 < β = +∞, so the window it was given does not allow a cut.") in fb.lines
    assert "global or shared bound" in text(fb)
    assert globals()["shared_bounds"] is shared_bounds  # the watched name is restored


def test_check_alphabeta_wrong_return_after_a_cut():
    fb = ex.check_alphabeta(make_ab(on_cut=lambda v, a, b, p: a if p == "max" else b, name="ab_other_bound"))
    assert ("a correct alpha-beta returns a value from -3.75 to -1.5 (-3.75 fail-soft, -1.5 fail-hard)"
            in text(fb))


def test_check_alphabeta_roles_inverted():
    fb = ex.check_alphabeta(lambda game, state, alpha, beta: alternating(game, state))
    assert "✗ small trees (a lone leaf, one MAX node, one MIN node): 3 of 4 right" in text(fb)
    assert "MIN picks the smallest" in text(fb)  # the one-level MIN tree fails, so the hint is given


def test_check_alphabeta_restores_the_name_even_when_the_function_raises():
    def boom(game, state, alpha, beta):
        raise RuntimeError("no")

    globals()["boom"] = boom
    fb = ex.check_alphabeta(boom, tictactoe=False)
    assert not fb.ok and "raised RuntimeError: no" in text(fb)
    assert globals()["boom"] is boom


def test_check_alphabeta_bad_arity():
    fb = ex.check_alphabeta(good_minimax)
    assert not fb.ok and "calls your function as fn(game, state, alpha, beta)" in text(fb)


# ----------------------------------------------------------------------------
# Learner functions: expectimax, evaluation, UCB
# ----------------------------------------------------------------------------


def expecti(game, state, chance_rule=None):
    if game.is_terminal(state):
        return game.utility(state)
    player = game.to_move(state)
    if player == "chance":
        pairs = [(p, expecti(game, game.result(state, m), chance_rule)) for m, p in game.chances(state)]
        if chance_rule:
            return chance_rule(pairs)
        return sum(p * v for p, v in pairs)
    values = [expecti(game, game.result(state, m), chance_rule) for m in game.actions(state)]
    return max(values) if player == "max" else min(values)


def test_check_expectimax():
    assert ex.check_expectimax(expecti).ok
    mean = ex.check_expectimax(lambda g, s: expecti(g, s,
                                                    lambda pairs: sum(v for _, v in pairs) / len(pairs)))
    assert "You took the plain average, but B's outcomes are not equally likely" in text(mean)  # 18
    mini = ex.check_expectimax(lambda g, s: expecti(g, s, lambda pairs: min(v for _, v in pairs)))
    assert "You took the smallest outcome, but nobody chooses at a chance node B" in text(mini)
    assert "B is worth 0.25 × 3 + 0.75 × 12 = 9.75" in text(mini)
    assert mini.tree is not None


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def open_lines(state, win=INF, scale=1):
    board = gt.TicTacToe.to_string(state).replace("/", "")
    if any(all(board[i] == "X" for i in line) for line in LINES):
        return win
    if any(all(board[i] == "O" for i in line) for line in LINES):
        return -win
    x_open = sum(all(board[i] != "O" for i in line) for line in LINES)
    o_open = sum(all(board[i] != "X" for i in line) for line in LINES)
    return (x_open - o_open) * scale


def test_check_evaluation_accepts_raw_and_scaled_estimates():
    assert ex.check_evaluation(open_lines).ok
    scaled = ex.check_evaluation(lambda s: open_lines(s, win=1, scale=0.1))
    assert scaled.ok and "times 0.1" in scaled.lines[0]
    assert ex.check_evaluation(lambda game, state: open_lines(state)).ok


def test_check_evaluation_wrong_viewpoint():
    def mover(state):  # misconception 16
        v = open_lines(state)
        x, o = state
        return v if bin(x).count("1") == bin(o).count("1") else -v

    fb = ex.check_evaluation(mover)
    assert "you score from the point of view of the player to move" in text(fb)
    fb = ex.check_evaluation(lambda s: -open_lines(s))
    assert "Every one of your estimates has the opposite sign" in text(fb)
    fb = ex.check_evaluation(lambda s: open_lines(s, win=1))
    assert "X has three in a row, so it must score above every estimate (more than 8" in text(fb)
    assert fb.score == (10, 12)


def test_check_evaluation_names_counts_and_positions():
    fb = ex.check_evaluation(lambda s: 1, positions=["X../.O./..."])
    assert fb.lines[:1] == ["✗ 'X../.O./...' (X to move): you returned 1, but 4 lines are open for X and 5 "
                        "for O, so the estimate is 4 - 5 = -1."]
    with pytest.raises(ValueError, match="impossible tic-tac-toe position"):
        ex.check_evaluation(open_lines, positions=["XX./.../..."])
    with pytest.raises(TypeError, match="positions must be a list"):
        ex.check_evaluation(open_lines, positions="X../.../...")
    fb = ex.check_evaluation(lambda s: open_lines(s[0]), positions=[".../.../..."])
    assert "raised" in text(fb)


def test_open_lines_agree_with_the_engines_evaluation():
    evaluate = getattr(gt, "tictactoe_open_lines", None)
    if evaluate is None:
        pytest.skip("gametrees.tictactoe_open_lines is not available")
    game = gt.TicTacToe()
    states = [game.initial]
    rng = random.Random(0)
    for _ in range(200):
        s = game.initial
        while not game.is_terminal(s):
            states.append(s)
            s = game.result(s, rng.choice(game.actions(s)))
    for s in states:
        x_open, o_open = formulas.open_lines(s)
        assert round(evaluate(s) * 10) == x_open - o_open


def ucb(w, n, N, c):
    if n == 0:
        return INF
    return w / n + c * math.sqrt(math.log(N) / n)


@pytest.mark.parametrize("fn,expected", [
    (lambda w, n, N, c: INF if n == 0 else w / n + c * math.sqrt(math.log(n) / n),
     "the log of the child's visits n instead of the parent's N"),
    (lambda w, n, N, c: INF if n == 0 else w + c * math.sqrt(math.log(N) / n),
     "the total reward instead of the mean"),
    (lambda w, n, N, c: INF if n == 0 else w / n + c * math.log(N) / n, "no square root"),
    (lambda w, n, N, c: INF if n == 0 else w / n + c * math.sqrt(2 * math.log(N) / n),
     "an extra factor √2 (c·√(2 ln N / n))"),
    (lambda w, n, N, c: INF if n == 0 else w / n + c * math.sqrt(math.log10(N) / n), "log base 10"),
])
def test_check_ucb_names_formula_slips(fn, expected):
    fb = ex.check_ucb(fn)
    assert not fb.ok and f"✗ Your scores match UCB1 with {expected}." in fb.lines  # misconception 23


def test_check_ucb_unvisited_children():
    assert ex.check_ucb(ucb).ok
    fb = ex.check_ucb(lambda w, n, N, c: w / n + c * math.sqrt(math.log(N) / n))
    assert "An unvisited child (n = 0): your function raised ZeroDivisionError" in text(fb)
    assert "must score +∞" in text(fb)
    phantom = ex.check_ucb(lambda w, n, N, c: ucb(w, max(n, 1), max(N, 1), c))
    assert "✗ An unvisited child (n = 0): you returned 2.1244, but it must score +∞." in phantom.lines
    assert phantom.score == (7, 9)


def test_pruning_twin_never_names_the_leaves_the_learner_missed():
    import re
    e = ex.generate("pruning", seed=7)                 # lesson 03's exercise 1
    truth = set(e.solution())
    for partial in (["I"], ["I", "J"], ["L"], ["I", "J", "L"]):
        e = ex.generate("pruning", seed=7)
        e.check(partial)
        again = e.check(partial)                       # the second wrong check works it on a twin
        twin = again.lines[-1]
        assert twin.startswith("• Worked on a twin tree: a tree of the same shape with other leaf values and "
                               "other labels"), twin
        missed = truth - set(partial)
        assert not any(re.search(rf"\b{lab}\b", twin) for lab in missed), (partial, twin)


def test_pruning_an_empty_list_earns_no_credit_for_the_leaves_it_leaves_alone():
    e = ex.generate("pruning", seed=7)
    fb = e.check([])
    assert not fb.ok and fb.title == "Pruned leaves: your list is empty, but this search prunes leaves."
    assert "leaves right" not in fb.title
