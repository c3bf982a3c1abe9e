"""The search algorithms against independent references, on thousands of trees."""

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import (
    all_values,
    best_root_child,
    brute_value,
    players_of,
    reference_alphabeta,
)

import gametrees as gt
from gametrees.games import ConnectFour, DiceGame, Nim, TicTacToe

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]

# Leaves: small ints (many ties), negatives, floats. Inner nodes: 1-4 children
# (single-child nodes included). A bare number is a depth-0 tree.
leaf_values = st.one_of(
    st.integers(-5, 5),
    st.floats(-100, 100, allow_nan=False, allow_infinity=False),
)
nested_trees = st.recursive(leaf_values, lambda kids: st.lists(kids, min_size=1, max_size=4),
                            max_leaves=30)
root_players = st.sampled_from(["max", "min"])
MANY = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def leaf_paths(spec, path=()):
    if not isinstance(spec, list):
        return [path]
    return [p for i, k in enumerate(spec) for p in leaf_paths(k, path + (i,))]


# ----------------------------------------------------------------------------
# The textbook tree
# ----------------------------------------------------------------------------


def test_textbook_minimax():
    r = gt.minimax(gt.tree_from_nested(TEXTBOOK))
    assert r.value == brute_value(TEXTBOOK) == 3
    assert r.move == (0,)
    assert r.stats["nodes_visited"] == 13 and r.stats["leaves_evaluated"] == 9


@pytest.mark.parametrize("strict", [False, True])
def test_textbook_alphabeta_prunes_exactly_two_leaves(strict):
    T = gt.tree_from_nested(TEXTBOOK)
    r = gt.alphabeta(T, strict=strict)
    assert (r.value, r.move) == (3, (0,))
    pruned = {n for n, s in r.graph.nodes(data="status") if s == "pruned"}
    assert pruned == {(1, 1), (1, 2)}
    values = {n: r.graph.nodes[n]["value"] for n in [(), (0,), (1,), (2,)]}
    assert values == {(): 3, (0,): 3, (1,): 2, (2,): 2}
    assert r.graph.nodes[(1,)]["bound"] == "upper"  # C is only "<= 2"
    assert r.graph.nodes[(2,)]["bound"] == "exact"
    best = [e for e, b in r.graph.edges.items() if b["best"]]
    assert best == [((), (0,)), ((0,), (0, 0))]


def test_the_two_rules_differ_on_ties():
    # B = min(3, 5) = 3 gives alpha = 3; C's first leaf is also 3.
    spec = [[3, 5], [3, 1]]
    T = gt.tree_from_nested(spec)
    textbook, strict = gt.alphabeta(T), gt.alphabeta(T, strict=True)
    assert textbook.value == strict.value == brute_value(spec) == 3

    def leaves(r):
        return {n for n, s in r.graph.nodes(data="status") if s == "visited" and T.out_degree(n) == 0}

    # 3 <= alpha = 3 prunes C's second leaf; 3 < 3 does not.
    assert leaves(strict) - leaves(textbook) == {(1, 1)}
    assert strict.stats["nodes_visited"] - textbook.stats["nodes_visited"] == 1
    assert [e.kind for e in textbook.trace].count("prune") == 1
    assert [e.kind for e in strict.trace].count("prune") == 0


# ----------------------------------------------------------------------------
# Thousands of random trees against the references
# ----------------------------------------------------------------------------


@pytest.mark.slow
@MANY
@given(nested_trees, root_players)
def test_all_algorithms_agree_with_brute_force(spec, root):
    T = gt.tree_from_nested(spec, root_player=root)
    expected = brute_value(spec, root)
    move = best_root_child(spec, root)
    expected_move = None if move is None else (move,)
    for result in [
        gt.minimax(T),
        gt.expectimax(T),
        gt.alphabeta(T),
        gt.alphabeta(T, strict=True),
        gt.negamax(T),
        gt.negamax(T, strict=True),
        gt.negamax(T, prune=False),
        gt.minimax(T, table=True),
        gt.alphabeta(T, table=True),
    ]:
        assert result.value == expected, result
        assert result.move == expected_move, result


@pytest.mark.slow
@MANY
@given(nested_trees, root_players, st.booleans())
def test_alphabeta_visits_exactly_what_the_textbook_algorithm_visits(spec, root, strict):
    value, visited, returned = reference_alphabeta(spec, root, strict)
    T = gt.tree_from_nested(spec, root_player=root)
    r = gt.alphabeta(T, strict=strict)
    assert r.value == value
    order = [e.node for e in r.trace if e.kind == "leaf"]
    assert order == visited
    assert r.stats["leaves_evaluated"] == len(visited)
    G = r.graph
    for n, v in returned.items():
        assert G.nodes[n]["value"] == v
    # A node is pruned exactly when an ancestor's cutoff skipped it.
    for n in G:
        if n not in returned:
            assert G.nodes[n]["status"] == "pruned"
    # Negamax is the same search written for both players at once.
    n = gt.negamax(T, strict=strict)
    assert [e.node for e in n.trace if e.kind == "leaf"] == visited
    assert n.stats == r.stats


@pytest.mark.slow
@MANY
@given(nested_trees, root_players)
def test_exact_bounds_are_exact(spec, root):
    """Nodes marked exact have their true minimax value; bounds are on the right side."""
    truth = all_values(spec, root)
    G = gt.alphabeta(gt.tree_from_nested(spec, root_player=root)).graph
    for n, attrs in G.nodes(data=True):
        if attrs["status"] != "visited":
            continue
        v, bound = attrs["value"], attrs["bound"]
        if bound == "exact":
            assert v == truth[n]
        elif bound == "upper":
            assert truth[n] <= v
        else:
            assert truth[n] >= v
    assert G.nodes[()]["bound"] == "exact"


chance_trees = st.recursive(
    st.integers(-9, 9),
    lambda kids: st.one_of(
        st.lists(kids, min_size=1, max_size=3),
        st.lists(st.tuples(kids, st.integers(1, 4)), min_size=1, max_size=3).map(
            lambda pairs: {"chance": [k for k, _ in pairs],
                           "p": [w / sum(w for _, w in pairs) for _, w in pairs]}
        ),
    ),
    max_leaves=25,
)


@pytest.mark.slow
@MANY
@given(chance_trees, st.sampled_from(["max", "min", "chance"]))
def test_expectimax_agrees_with_brute_force(spec, root):
    T = gt.tree_from_nested(spec, root_player=root)
    r = gt.expectimax(T)
    assert math.isclose(r.value, brute_value(spec, root), abs_tol=1e-9)
    assert gt.expectimax(T, table=True).value == r.value
    if "chance" in players_of(spec, root).values():
        with pytest.raises(ValueError, match="chance node.*expectimax"):
            gt.minimax(T)
        with pytest.raises(ValueError, match="chance node"):
            gt.alphabeta(T)


# ----------------------------------------------------------------------------
# Move ordering: Knuth and Moore
# ----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("b,d", [(b, d) for b in (2, 3, 4) for d in range(1, 7) if b ** d <= 4096])
def test_knuth_moore_best_and_worst_ordering(b, d):
    for seed in range(3):
        best = gt.random_tree(b, d, seed=seed, values=(-10_000, 10_000), ordering="best")
        worst = gt.random_tree(b, d, seed=seed, values=(-10_000, 10_000), ordering="worst")
        minimal = b ** math.ceil(d / 2) + b ** math.floor(d / 2) - 1
        for strict in (False, True):
            assert gt.alphabeta(best, strict=strict).stats["leaves_evaluated"] == minimal
            assert gt.alphabeta(worst, strict=strict).stats["leaves_evaluated"] == b ** d


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.integers(2, 4), st.integers(1, 5), st.integers(0, 10 ** 6))
def test_best_ordering_is_minimal_even_with_ties(b, d, seed):
    T = gt.random_tree(b, d, seed=seed, values=(0, 3), ordering="best")
    minimal = b ** math.ceil(d / 2) + b ** math.floor(d / 2) - 1
    assert gt.alphabeta(T).stats["leaves_evaluated"] == minimal


def test_best_ordering_only_reorders_the_same_leaves():
    def leaves(G):
        return sorted(u for n, u in G.nodes(data="utility") if G.out_degree(n) == 0)

    for ordering in ("best", "worst"):
        T = gt.random_tree(3, 4, seed=5, values=(-50, 50), ordering=ordering)
        assert T.number_of_nodes() == 121
        assert len(set(leaves(T))) == 81  # 101 values for 81 leaves: no repeats
    best = gt.random_tree((1, 4), 4, seed=9, values=(-5, 5), ordering="best")
    plain = gt.random_tree((1, 4), 4, seed=9, values=(-5, 5))
    assert leaves(best) != [] and gt.minimax(best).value in leaves(best)
    assert sorted(best.out_degree(n) for n in best) == sorted(plain.out_degree(n) for n in plain)


# ----------------------------------------------------------------------------
# Games
# ----------------------------------------------------------------------------


def test_tictactoe_full_minimax():
    r = gt.minimax(TicTacToe())
    assert r.value == 0
    assert r.stats["nodes_visited"] == 549_946
    assert r.stats["leaves_evaluated"] == 255_168
    assert r.trace is None and r.graph is None  # solving stays fast: nothing recorded


def test_tictactoe_positions_and_symmetry():
    game = TicTacToe()
    D = gt.expand(game, merge=True)
    assert D.number_of_nodes() == 5_478
    assert len({game.canonical(s) for s in D}) == 765


def test_tictactoe_alphabeta_with_table_and_symmetry():
    game = TicTacToe()
    plain = gt.alphabeta(game)
    ordered = gt.alphabeta(game, order=TicTacToe.centre_first, table=True)
    folded = gt.alphabeta(game, order=TicTacToe.centre_first, table=True, symmetry=True)
    assert plain.value == ordered.value == folded.value == 0
    assert ordered.stats["nodes_visited"] < 2_000 < plain.stats["nodes_visited"]
    assert folded.stats["nodes_visited"] < 500
    assert folded.move == ordered.move == 4  # the centre comes first and draws


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 8), min_size=1, max_size=6), st.booleans(), st.booleans())
def test_transposition_table_never_changes_the_value(moves, strict, symmetry):
    game = TicTacToe()
    state = game.initial
    for m in moves:
        if game.is_terminal(state):
            break
        legal = game.actions(state)
        state = game.result(state, legal[m % len(legal)])
    exact = gt.minimax(game, state).value
    for depth in (None, 2):
        kw = dict(depth=depth, evaluate=lambda s: 0) if depth else {}
        reference = gt.alphabeta(game, state, strict=strict, **kw).value
        assert gt.alphabeta(game, state, strict=strict, table=True, symmetry=symmetry,
                            order=TicTacToe.centre_first, **kw).value == reference
        assert gt.negamax(game, state, strict=strict, table=True, **kw).value == reference
        assert gt.minimax(game, state, table=True, **kw).value == gt.minimax(game, state, **kw).value
    assert gt.alphabeta(game, state, table=True).value == exact


@pytest.mark.parametrize("misere", [False, True])
def test_nim_losing_positions(misere):
    losing = 1 if misere else 0
    for coins in range(0, 14):
        r = gt.alphabeta(Nim(coins, misere=misere), table=True)
        assert (r.value == -1) == (coins % 4 == losing), coins


def test_connect_four_small_board_solved_three_ways():
    game = ConnectFour(3, 4, 3)
    exact = gt.minimax(game, table=True).value
    assert gt.alphabeta(game, table=True, order=game.centre_first).value == exact
    assert gt.negamax(game, table=True, symmetry=True).value == exact


def test_dice_game_expectimax_prefers_rolling():
    game = DiceGame(rounds=1)
    r = gt.expectimax(game)
    assert r.move == "roll"
    assert r.value == pytest.approx(sum(f for f in range(2, 7)) / 6 - sum(f for f in range(2, 7)) / 6)
    with pytest.raises(ValueError, match="chance"):
        gt.alphabeta(game)


# ----------------------------------------------------------------------------
# Depth limits, evaluation, iterative deepening
# ----------------------------------------------------------------------------


def test_depth_limit_uses_the_estimates_on_a_tree():
    T = gt.tree_from_dict({
        "A": {"player": "max", "children": ["B", "C"]},
        "B": {"player": "min", "children": ["D", "E"], "utility": 7},
        "C": {"player": "min", "children": ["F", "G"], "utility": 1},
        "D": 3, "E": 12, "F": 8, "G": 9,
    })
    assert gt.minimax(T).value == 8
    shallow = gt.minimax(T, depth=1)
    assert (shallow.value, shallow.move) == (7, "B")
    assert shallow.stats["leaves_evaluated"] == 2
    assert [e.kind for e in shallow.trace].count("estimate") == 2
    assert gt.alphabeta(T, depth=1, evaluate=lambda n: {"B": 0, "C": 5}[n]).move == "C"
    with pytest.raises(ValueError, match="node 'A' .* no 'utility' estimate"):
        gt.alphabeta(T, depth=0)


def test_depth_zero_is_the_evaluation_of_the_root():
    r = gt.alphabeta(TicTacToe(), depth=0, evaluate=lambda s: 42)
    assert (r.value, r.move, r.stats["nodes_visited"]) == (42, None, 1)


def test_missing_estimate_is_named():
    T = gt.tree_from_nested(TEXTBOOK)
    with pytest.raises(ValueError, match="B.*no 'utility' estimate"):
        gt.minimax(T, depth=1)
    with pytest.raises(ValueError, match="evaluation function"):
        gt.alphabeta(Nim(5), depth=2)


def test_iterative_deepening_solves_tictactoe_within_a_time_budget():
    r = gt.alphabeta(TicTacToe(), time_limit=5, evaluate=lambda s: 0, table=True,
                     order=TicTacToe.centre_first)
    assert r.value == 0
    assert r.stats["depth_reached"] == 9
    assert r.move == 4


def test_iterative_deepening_returns_the_deepest_finished_iteration():
    game = ConnectFour()
    r = gt.alphabeta(game, time_limit=0.3, evaluate=lambda s: 0, depth=40)
    assert 1 <= r.stats["depth_reached"] < 40
    fixed = gt.alphabeta(game, depth=r.stats["depth_reached"], evaluate=lambda s: 0)
    assert r.value == fixed.value


# ----------------------------------------------------------------------------
# Bad input
# ----------------------------------------------------------------------------


def test_bad_arguments_are_named():
    T = gt.tree_from_nested(TEXTBOOK)
    with pytest.raises(ValueError, match="depth must be >= 0"):
        gt.minimax(T, depth=-1)
    with pytest.raises(TypeError, match="depth must be None or an int"):
        gt.minimax(T, depth=1.5)
    with pytest.raises(TypeError, match="strict must be True or False"):
        gt.alphabeta(T, strict="yes")
    with pytest.raises(TypeError, match="evaluate must be a function"):
        gt.alphabeta(T, depth=1, evaluate=3)
    with pytest.raises(TypeError, match="order must be a function"):
        gt.alphabeta(T, order="best")
    with pytest.raises(ValueError, match="order\\(state, moves\\) must return the same moves"):
        gt.alphabeta(T, order=lambda s, ms: ms[:1])
    with pytest.raises(TypeError, match="table must be"):
        gt.alphabeta(T, table=[])
    with pytest.raises(ValueError, match="symmetry=True .* table=True"):
        gt.alphabeta(TicTacToe(), symmetry=True)
    with pytest.raises(ValueError, match="time_limit must be a positive"):
        gt.alphabeta(T, time_limit=-1)
    with pytest.raises(ValueError, match="start node .* is not a node"):
        gt.minimax(T, (7, 7))
    with pytest.raises(TypeError, match="expected a game tree .* or a game"):
        gt.minimax([[3, 12]])


def test_repr_has_no_memory_address():
    r = gt.alphabeta(gt.tree_from_nested(TEXTBOOK))
    assert repr(r) == ("SearchResult(algorithm='alphabeta', value=3, move=(0,), "
                       "nodes_visited=11, leaves_evaluated=7)")
    assert "0x" not in repr(r.trace[0])


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nested_trees, root_players, st.booleans(), st.integers(-6, 6), st.integers(1, 8))
def test_alphabeta_from_a_window_matches_the_reference(spec, root, strict, alpha, width):
    """alphabeta(window=(a, b)) returns what the textbook's alphabeta(root, a, b) returns, leaf for leaf."""
    value, visited, _ = reference_alphabeta(spec, root, strict, alpha, alpha + width)
    r = gt.alphabeta(gt.tree_from_nested(spec, root_player=root), strict=strict,
                     window=(alpha, alpha + width))
    assert r.value == value
    assert [n for n, _ in sorted(r.graph.nodes(data="order"), key=lambda x: x[1] or 0)
            if r.graph.out_degree(n) == 0 and r.graph.nodes[n]["status"] == "visited"] == visited


@pytest.mark.parametrize("window", [(1, 1), (2, 1), (float("nan"), 1), (0,), "ab", None])
def test_a_bad_window_is_named(window):
    with pytest.raises(ValueError, match="window"):
        gt.alphabeta(gt.tree_from_nested([1, 2]), window=window)
