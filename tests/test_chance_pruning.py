"""Pruning below chance nodes (``gt.expectimax(bounds=(low, high))``, Ballard's Star1) against plain
expectimax and an independent Star1 on nested lists (tests/reference.py), on thousands of trees."""

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import brute_value, players_of, reference_star1

import gametrees as gt
from gametrees.games import DiceGame
from gametrees.trace import frame

MANY = settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Leaves: small ints (many ties), negatives, floats (some with long fractions). Inner nodes: 1-3 children
# (single-child nodes included), chance nodes at any depth with weights 0-4 (an impossible outcome too).
# A bare number is a depth-0 tree.
leaf_values = st.one_of(st.integers(-5, 5), st.floats(-20, 20, allow_nan=False, allow_infinity=False))


def _chance(pairs):
    weights = [w for _, w in pairs] if any(w for _, w in pairs) else [1] * len(pairs)
    total = sum(weights)
    return {"chance": [k for k, _ in pairs], "p": [w / total for w in weights]}


star_trees = st.recursive(
    leaf_values,
    lambda kids: st.one_of(
        st.lists(kids, min_size=1, max_size=3),
        st.lists(st.tuples(kids, st.integers(0, 4)), min_size=1, max_size=3).map(_chance),
    ),
    max_leaves=25,
)
# Bushier trees, every leaf 0-6 and the bounds tight: many more cuts below chance nodes, deep ones too.
bushy_trees = st.recursive(
    st.integers(0, 6),
    lambda kids: st.one_of(
        st.lists(kids, min_size=2, max_size=3),
        st.lists(st.tuples(kids, st.integers(1, 3)), min_size=2, max_size=4).map(_chance),
    ),
    max_leaves=40,
)
trees = st.one_of(star_trees, bushy_trees)
roots = st.sampled_from(["max", "min", "chance"])
slack = st.sampled_from([0, 0, 0, 1, 2.5])


def leaves_of(spec, path=()):
    """{path: value} of every leaf of a nested spec."""
    if isinstance(spec, dict):
        (kids,) = [v for k, v in spec.items() if k in ("max", "min", "chance")]
    elif isinstance(spec, list):
        kids = spec
    else:
        return {path: spec}
    return {p: v for i, k in enumerate(kids) for p, v in leaves_of(k, path + (i,)).items()}


def with_leaves(spec, values, path=()):
    """``spec`` with the leaf at each path of ``values`` replaced by its value there."""
    if isinstance(spec, dict):
        (player,) = [k for k in spec if k in ("max", "min", "chance")]
        return {**spec, player: [with_leaves(k, values, path + (i,)) for i, k in enumerate(spec[player])]}
    if isinstance(spec, list):
        return [with_leaves(k, values, path + (i,)) for i, k in enumerate(spec)]
    return values.get(path, spec)


def bounds_for(spec, below, above):
    values = leaves_of(spec).values()
    return min(values) - below, max(values) + above


def pruned_by_trace(r):
    return [c for e in r.trace if e.kind == "prune" for c in e.children]


@pytest.mark.slow
@MANY
@given(trees, roots, slack, slack)
def test_star1_is_expectimax_and_skips_what_a_plain_star1_skips(spec, root, below, above):
    T = gt.tree_from_nested(spec, root_player=root)
    low, high = bounds_for(spec, below, above)
    plain, r = gt.expectimax(T), gt.expectimax(T, bounds=(low, high))
    assert r.value == plain.value and r.move == plain.move          # to the bit
    assert math.isclose(r.value, brute_value(spec, root), rel_tol=1e-9, abs_tol=1e-9)
    value, skipped, visited = reference_star1(spec, low, high, root)
    assert r.value == value
    assert pruned_by_trace(r) == skipped
    assert [e.node for e in r.trace if e.kind == "leaf"] == visited
    assert r.stats["leaves_evaluated"] == len(visited)
    assert r.stats["cutoffs"] == sum(e.kind == "prune" for e in r.trace)
    G = r.graph
    assert {n for n, s in G.nodes(data="status") if s == "pruned"} == {
        n for n in G if any(n[:len(c)] == c for c in skipped) and n not in set(visited)}
    untraced = gt.expectimax(T, bounds=(low, high), trace=False)
    assert untraced.value == r.value and untraced.stats == r.stats


@pytest.mark.slow
@MANY
@given(trees, roots, slack, slack)
def test_every_skipped_leaf_at_low_or_high_leaves_the_value(spec, root, below, above):
    """Never skips what could matter: the skipped leaves at either extreme give expectimax the same value."""
    low, high = bounds_for(spec, below, above)
    r = gt.expectimax(gt.tree_from_nested(spec, root_player=root), bounds=(low, high), trace=True)
    skipped = pruned_by_trace(r)
    under = [p for p in leaves_of(spec) if any(p[:len(c)] == c for c in skipped)]
    for extreme in (low, high):
        changed = with_leaves(spec, dict.fromkeys(under, extreme))
        assert gt.expectimax(gt.tree_from_nested(changed, root_player=root), trace=False).value == r.value


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bushy_trees, roots)
def test_an_outcome_known_only_as_a_bound_is_searched_again_when_its_chance_node_goes_on(spec, root):
    """The safety net for rounding (a child's value only a bound while its chance node does not stop):
    with windows made too narrow on purpose, children fail where they should not, and the value is still
    expectimax's, by searching them again."""
    import gametrees.search.chance_pruning as star

    window = star._outcome_window

    def too_narrow(*args):
        lo, hi = window(*args)
        return (lo + 1 if lo > -math.inf else 0.5), (hi - 1 if hi < math.inf else 5.5)

    T = gt.tree_from_nested(spec, root_player=root)
    star._outcome_window = too_narrow
    try:
        r = gt.expectimax(T, bounds=(0, 6))
    finally:
        star._outcome_window = window
    assert r.value == gt.expectimax(T).value and r.move == gt.expectimax(T).move


def test_the_lesson_tree_cuts_after_each_outcome_as_the_lesson_works_it():
    T = gt.tree_from_nested([{"chance": [6, 8], "p": [0.5, 0.5]},
                             {"chance": [2, 9, 5], "p": [0.5, 0.25, 0.25]},
                             {"chance": [4, 2, 9], "p": [0.25, 0.25, 0.5]}])
    r = gt.expectimax(T, bounds=(0, 10))
    assert r.value == gt.expectimax(T).value == 7 and r.move == (0,)
    assert [T.nodes[n]["label"] for n in pruned_by_trace(r)] == ["H", "I", "L"]
    assert r.stats["cutoffs"] == 2 and r.stats["leaves_evaluated"] == 5
    assert sorted(T.nodes[n]["label"] for n, s in r.graph.nodes(data="status") if s == "pruned") == \
        ["H", "I", "L"]
    assert r.graph.nodes[(2,)]["bound"] == "upper" and r.graph.nodes[(2,)]["value"] == 6.5
    # the window C is entered with is MAX's: α = B's 7
    enter = next(e for e in r.trace if e.kind == "enter" and e.node == (1,))
    assert (enter.alpha, enter.beta) == (7, math.inf)
    prune = next(e for e in r.trace if e.kind == "prune" and e.node == (2,))
    assert prune.text.startswith("D can be worth at most 6.5") and "≤ α = 7" in prune.text
    assert prune.text.endswith("prune L.")
    done = frame(r.trace, -1)
    assert {T.nodes[n]["label"] for n in done.pruned} == {"H", "I", "L"}
    assert gt.expectimax(T, bounds=(0, 100)).stats["cutoffs"] == 0      # a looser bound prunes less


def test_a_min_root_cuts_on_the_lower_bound():
    T = gt.tree_from_nested([{"chance": [2, 4]}, {"chance": [8, 0, 1], "p": [0.5, 0.25, 0.25]}],
                            root_player="min")
    r = gt.expectimax(T, bounds=(0, 10))
    assert r.value == gt.expectimax(T).value == 3
    prune = next(e for e in r.trace if e.kind == "prune")
    assert prune.value == 4 and prune.beta == 3 and "at least 4" in prune.text
    assert [T.nodes[n]["label"] for n in prune.children] == ["G", "H"]


def test_a_chance_node_deep_in_the_tree_gets_a_window_from_above_and_prunes():
    # MAX over MIN over chance: the chance node under the second MIN node is entered with β from its MIN
    # parent and α from the root, narrowed by the bounds for each outcome
    spec = [[{"chance": [5, 7]}, 9], [{"chance": [0, 2, 9]}, 8]]
    T = gt.tree_from_nested(spec)
    r = gt.expectimax(T, bounds=(0, 10))
    assert r.value == gt.expectimax(T).value == 6
    enter = next(e for e in r.trace if e.kind == "enter" and e.node == (1, 0))
    assert (enter.alpha, enter.beta) == (6, math.inf)
    assert pruned_by_trace(r) == reference_star1(spec, 0, 10)[1] == [(1, 0, 2), (1, 1)]
    cut = next(e for e in r.trace if e.kind == "prune" and e.node == (1, 0))
    assert math.isclose(cut.value, 2 / 3 + 10 / 3) and cut.alpha == 6


def test_a_game_with_chance_searches_fewer_nodes_for_the_same_value():
    game = DiceGame(rounds=2, safe=5)    # (with safe=2 holding is never better than a roll: no cut)
    plain, r = gt.expectimax(game), gt.expectimax(game, bounds=(-12, 12))
    assert r.value == plain.value and r.move == plain.move
    assert r.stats["cutoffs"] > 0 and r.stats["nodes_visited"] < plain.stats["nodes_visited"]
    def lead(s):
        return s[1] - s[2]

    for d in range(5):
        assert gt.expectimax(game, depth=d, evaluate=lead, bounds=(-12, 12)).value == \
            gt.expectimax(game, depth=d, evaluate=lead).value
    timed = gt.expectimax(game, time_limit=5, evaluate=lead, bounds=(-12, 12))
    assert timed.value == plain.value and timed.stats["depth_reached"] == 8


def test_without_bounds_nothing_changes():
    T = gt.tree_from_nested([{"chance": [6, 8]}, {"chance": [2, 9]}])
    r = gt.expectimax(T, bounds=None)
    assert r.stats["cutoffs"] == 0 and "prune" not in {e.kind for e in r.trace}
    assert all(e.alpha is None for e in r.trace)


@pytest.mark.parametrize("bounds", [(5, 1), ("0", 10), (math.nan, 1), (0, math.nan), 3, (1, 2, 3),
                                    (True, 5), "ab"])
def test_bad_bounds_are_refused(bounds):
    T = gt.tree_from_nested([{"chance": [6, 8]}])
    with pytest.raises(ValueError, match=r"bounds must be two numbers \(low, high\) with low <= high"):
        gt.expectimax(T, bounds=bounds)


def test_a_leaf_outside_the_bounds_is_named_with_them():
    assert gt.expectimax(gt.tree_from_nested([{"chance": [6, 8]}, {"chance": [2, 19]}]),
                         bounds=(0, 10)).value == 7                    # 19 is skipped: never met
    T = gt.tree_from_nested([{"chance": [6, 8]}, {"chance": [19, 2]}])
    with pytest.raises(ValueError, match=r"19 at node F .* outside the bounds \[0, 10\]"):
        gt.expectimax(T, bounds=(0, 10))
    with pytest.raises(ValueError, match=r"-1 at node C .* outside the bounds \[0, 10\]"):
        gt.expectimax(gt.tree_from_nested([{"chance": [-1, 8]}]), bounds=(0, 10))
    game = DiceGame(rounds=2)
    with pytest.raises(ValueError, match=r"estimate 50 at state .* outside the bounds \[-12, 12\]"):
        gt.expectimax(game, depth=2, evaluate=lambda s: 50, bounds=(-12, 12))
    with pytest.raises(ValueError, match="transposition table"):
        gt.expectimax(T, bounds=(0, 20), table=True)


def test_bounds_of_numpy_numbers_are_numbers():
    np = pytest.importorskip("numpy")
    T = gt.tree_from_nested([{"chance": [6, 8]}, {"chance": [2, 9]}])
    assert gt.expectimax(T, bounds=(np.int64(0), np.float64(10))).stats["cutoffs"] == 1


def test_equal_bounds_and_infinite_bounds():
    T = gt.tree_from_nested([[{"chance": [4, 4]}, 4], [{"chance": [4, 4, 4]}, 4]])
    r = gt.expectimax(T, bounds=(4, 4))
    assert r.value == 4 and r.stats["cutoffs"] > 0
    spec = [{"chance": [1, [2, 9]]}, {"chance": [-3, 5]}]
    wide = gt.expectimax(gt.tree_from_nested(spec), bounds=(-math.inf, math.inf))
    assert wide.value == brute_value(spec) and "chance" in players_of(spec).values()
