"""Tree builders, the schema's validation, and games expanded into trees."""

import json
import math

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import brute_value, players_of

import gametrees as gt
from gametrees.games import DiceGame, Nim, TicTacToe

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


# ----------------------------------------------------------------------------
# tree_from_nested
# ----------------------------------------------------------------------------


def test_nested_ids_players_and_textbook_labels():
    T = gt.tree_from_nested(TEXTBOOK)
    assert T.graph["root"] == ()
    assert list(T.successors(())) == [(0,), (1,), (2,)]
    assert [T.nodes[n]["player"] for n in [(), (0,), (1,), (2,)]] == ["max", "min", "min", "min"]
    assert [T.nodes[(2, i)]["utility"] for i in range(3)] == [14, 5, 2]
    labels = [T.nodes[n]["label"] for n in nx.bfs_tree(T, ())]
    assert labels == [chr(ord("A") + i) for i in range(13)]


def test_nested_min_root_and_depth_zero():
    T = gt.tree_from_nested([[1, 2], [3]], root_player="min")
    assert T.nodes[()]["player"] == "min" and T.nodes[(1,)]["player"] == "max"
    leaf = gt.tree_from_nested(7)
    assert list(leaf) == [()] and leaf.nodes[()]["utility"] == 7
    assert gt.minimax(leaf).value == 7 and gt.alphabeta(leaf).move is None


def test_nested_chance_and_explicit_players():
    spec = [{"chance": [3, [1, 5]], "p": [0.25, 0.75], "label": "dice"}, {"min": [4, {"max": [0, 9]}]}]
    T = gt.tree_from_nested(spec)
    assert T.nodes[(0,)]["player"] == "chance" and T.nodes[(0,)]["label"] == "dice"
    assert T.nodes[(0, 1)]["player"] == "min"  # the turn passes through the chance node
    assert T.edges[(0,), (0, 1)]["prob"] == 0.75
    assert T.nodes[(1, 1)]["player"] == "max"
    assert players_of(spec) == {n: p for n, p in T.nodes(data="player") if p}
    assert gt.expectimax(T).value == brute_value(spec)


def test_labels_go_past_z():
    T = gt.tree_from_nested([list(range(30))])
    labels = [T.nodes[n]["label"] for n in nx.bfs_tree(T, ())]
    assert labels[25:28] == ["Z", "AA", "AB"]


@pytest.mark.parametrize(
    "spec, error, message",
    [
        ([], ValueError, r"node \(\) is an empty list"),
        ([[1, 2], []], ValueError, r"node \(1,\) is an empty list"),
        ([[1, "x"]], TypeError, r"leaf \(0, 1\) must be a number, got 'x'"),
        ([[1, True]], TypeError, r"leaf \(0, 1\) must be a number"),
        ([[1, float("nan")]], ValueError, r"leaf \(0, 1\) must be a number, got NaN"),
        ([{"chance": [1, 2], "p": [0.5, 0.6]}], ValueError, r"\(0,\).*sum to 1.1, expected 1"),
        ([{"chance": [1, 2], "p": [0.5]}], ValueError, r"one probability per child \(2\)"),
        ([{"chance": [1, 2], "p": [1.5, -0.5]}], ValueError, r"-0.5: expected 0 <= p <= 1"),
        ([{"max": [1], "min": [2]}], ValueError, r"exactly one of 'max', 'min', 'chance'"),
        ([{"max": [1], "p": [1]}], ValueError, r"'p' \(probabilities\) is only for chance nodes"),
        ([{"maxx": [1]}], ValueError, r"exactly one of"),
    ],
)
def test_nested_errors_name_the_node(spec, error, message):
    with pytest.raises(error, match=message):
        gt.tree_from_nested(spec)


def test_nested_bad_root_player():
    with pytest.raises(ValueError, match="root_player must be 'max', 'min' or 'chance', got 'MAX'"):
        gt.tree_from_nested(TEXTBOOK, root_player="MAX")


# ----------------------------------------------------------------------------
# tree_from_dict
# ----------------------------------------------------------------------------

SLIDE = {
    "A": {"player": "max", "children": ["B", "C"], "moves": ["left", "right"]},
    "B": {"player": "chance", "children": ["D", "E"], "probs": [0.9, 0.1]},
    "C": {"player": "min", "children": ["F", "G"]},
    "D": 5, "E": -20, "F": {"utility": 4}, "G": 6,
}


def test_dict_builder_and_json():
    T = gt.tree_from_dict(SLIDE)
    assert T.graph["root"] == "A"
    assert T.nodes["B"]["label"] == "B" and T.nodes["F"]["utility"] == 4
    r = gt.expectimax(T)
    assert r.value == pytest.approx(4.0) and r.move == "right"  # 0.9*5 - 0.1*20 = 2.5 < 4
    assert gt.expectimax(gt.tree_from_dict(json.dumps(SLIDE))).value == r.value


@pytest.mark.parametrize(
    "change, message",
    [
        ({"C": {"player": "min", "children": ["F", "Z"]}}, "node 'C' has child 'Z', which is not defined"),
        ({"C": {"player": "mini", "children": ["F", "G"]}}, "inner node 'C' has player 'mini'"),
        ({"C": {"children": ["F", "G"]}}, "inner node 'C' has player None"),
        ({"F": {"label": "f"}}, "leaf 'F' \\(label 'f'\\) has no 'utility'"),
        ({"B": {"player": "chance", "children": ["D", "E"], "probs": [0.9, 0.2]}}, "sum to 1.1"),
        ({"B": {"player": "chance", "children": ["D", "E"], "probs": [1]}},
         "'probs' must list one entry per child"),
        ({"G": {"player": "max", "children": ["A"]}}, "cannot tell the root"),
        ({"G": {"utility": "six"}}, "utility of leaf 'G' must be a number"),
        ({"C": {"player": "min", "children": ["F", "F"]}}, "lists child 'F' twice"),
        ({"C": {"player": "min", "children": ["F", "G"], "colour": 1}}, "unknown keys \\['colour'\\]"),
    ],
)
def test_dict_errors_name_the_node(change, message):
    with pytest.raises((ValueError, TypeError), match=message):
        gt.tree_from_dict({**SLIDE, **change})


def test_dict_cycle_is_reported():
    cyclic = {**SLIDE, "G": {"player": "max", "children": ["C"]}}
    with pytest.raises(ValueError, match="cycle: 'C' -> 'G' -> 'C'|cycle: 'G' -> 'C' -> 'G'"):
        gt.tree_from_dict(cyclic, root="A")


def test_dict_bad_json_and_types():
    with pytest.raises(ValueError, match="not valid JSON"):
        gt.tree_from_dict("{'A': 1")
    with pytest.raises(TypeError, match="expects a non-empty dict"):
        gt.tree_from_dict([1, 2])


# ----------------------------------------------------------------------------
# validate_tree on hand-made graphs
# ----------------------------------------------------------------------------


def test_validation_of_hand_made_graphs():
    G = nx.DiGraph()
    G.add_edge("r", "a")
    G.nodes["r"]["player"] = "max"
    G.nodes["a"]["utility"] = 1
    with pytest.raises(ValueError, match="no 'root' graph attribute"):
        gt.validate_tree(G)
    G.graph["root"] = "x"
    with pytest.raises(ValueError, match="the root 'x' .* is not a node"):
        gt.validate_tree(G)
    G.graph["root"] = "a"
    with pytest.raises(ValueError, match="the root 'a' has a parent 'r'"):
        gt.validate_tree(G)
    G.graph["root"] = "r"
    gt.validate_tree(G)
    G.add_node("stray", utility=0)
    with pytest.raises(ValueError, match="node 'stray' cannot be reached from the root 'r'"):
        gt.validate_tree(G)
    G.remove_node("stray")
    G.add_edge("a", "b")
    G.add_edge("b", "a")
    with pytest.raises(ValueError, match="cycle"):
        gt.validate_tree(G)
    with pytest.raises(TypeError, match="must be a networkx.DiGraph, got Graph"):
        gt.validate_tree(nx.Graph(root=0))
    with pytest.raises(TypeError, match="must be a networkx.DiGraph, got MultiDiGraph"):
        gt.minimax(nx.MultiDiGraph(root=0))


def test_every_search_validates_its_tree():
    T = gt.tree_from_nested(TEXTBOOK)
    del T.nodes[(1, 2)]["utility"]
    for search in (gt.minimax, gt.alphabeta, gt.expectimax, gt.negamax):
        with pytest.raises(ValueError, match=r"leaf \(1, 2\) \(label 'J'\) has no 'utility'"):
            search(T)


# ----------------------------------------------------------------------------
# random_tree
# ----------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 4), st.integers(0, 5), st.integers(0, 10**6))
def test_random_uniform_trees(b, d, seed):
    T = gt.random_tree(b, d, seed=seed, values=(-3, 3))
    leaves = [n for n in T if T.out_degree(n) == 0]
    assert len(leaves) == b ** d
    assert all(len(n) == d and -3 <= T.nodes[n]["utility"] <= 3 for n in leaves)
    assert all(T.out_degree(n) == b for n in T if n not in leaves)
    again = gt.random_tree(b, d, seed=seed, values=(-3, 3))
    assert nx.utils.graphs_equal(T, again)


def test_random_ragged_trees_and_levels():
    T = gt.random_tree((1, 4), 4, seed=3)
    degrees = {T.out_degree(n) for n in T if T.out_degree(n)}
    assert degrees <= {1, 2, 3, 4} and len(degrees) > 1
    E = gt.random_tree(2, 4, seed=3, players=("max", "chance", "min", "chance"))
    assert [E.nodes[(0,) * k]["player"] for k in range(4)] == ["max", "chance", "min", "chance"]
    assert math.isclose(sum(E.edges[(0,), c].get("prob", 0.5) for c in E.successors((0,))), 1)
    C = gt.random_tree(2, 2, seed=1, root_player="chance")
    assert C.nodes[()]["player"] == "chance" and C.nodes[(0,)]["player"] == "max"


def test_random_tree_differs_by_seed():
    a = [u for _, u in gt.random_tree(3, 3, seed=1).nodes(data="utility")]
    b = [u for _, u in gt.random_tree(3, 3, seed=2).nodes(data="utility")]
    assert a != b


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (dict(branching=0, depth=2), ValueError, "branching must be >= 1"),
        (dict(branching=(3, 2), depth=2), ValueError, "lo <= hi"),
        (dict(branching="3", depth=2), TypeError, "branching must be an int or a \\(lo, hi\\) pair"),
        (dict(branching=2, depth=-1), ValueError, "depth must be >= 0"),
        (dict(branching=2, depth=2.0), TypeError, "depth must be an int"),
        (dict(branching=2, depth=2, values=(5, 1)), ValueError, "lo <= hi"),
        (dict(branching=2, depth=2, values=5), TypeError, "values must be a \\(lo, hi\\) pair"),
        (dict(branching=2, depth=2, ordering="random"), ValueError,
         "ordering must be None, 'best' or 'worst'"),
        (dict(branching=10, depth=9), ValueError, "1,000,000,000 leaves; at most 2,000,000 leaves"),
        (dict(branching=2, depth=2, players=("max", "mni")), ValueError, "players must be"),
    ],
)
def test_random_tree_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        gt.random_tree(**kwargs)


# ----------------------------------------------------------------------------
# TreeGame and expand
# ----------------------------------------------------------------------------


def test_tree_game_protocol():
    T = gt.TreeGame(gt.tree_from_dict(SLIDE))
    assert T.initial == "A" and T.actions("A") == ["B", "C"]
    assert T.result("A", "C") == "C" and T.to_move("C") == "min"
    assert T.chances("B") == [("D", 0.9), ("E", 0.1)]
    assert T.move_label("A", "B") == "left"
    assert T.is_terminal("D") and T.utility("D") == 5
    with pytest.raises(ValueError, match="move 'D' is not a child of node 'A'"):
        T.result("A", "D")
    with pytest.raises(ValueError, match="'Q' is not a node of the tree"):
        T.actions("Q")
    with pytest.raises(ValueError, match="node 'D' is a leaf"):
        T.to_move("D")


def test_expand_tictactoe_counts():
    game = TicTacToe()
    full = gt.expand(game, depth=2)
    assert full.number_of_nodes() == 1 + 9 + 72
    assert full.nodes[(4,)]["state"] == game.result(game.initial, 4)
    assert full.edges[(), (4,)]["move"] == 4
    with pytest.raises(ValueError, match="max_nodes=1,000"):
        gt.expand(game, max_nodes=1_000)


def test_expand_a_game_gives_a_searchable_tree():
    game = Nim(6)
    G = gt.expand(game)
    gt.validate_tree(G)
    assert gt.minimax(G).value == gt.minimax(game).value
    D = gt.expand(game, merge=True)
    seen, todo = {game.initial}, [game.initial]
    while todo:
        for _, child in game.successors(todo.pop()):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    assert set(D) == seen and D.number_of_nodes() < G.number_of_nodes()
    assert gt.minimax(D).value == gt.minimax(game).value


def test_expand_chance_game_and_depth_with_evaluation():
    game = DiceGame(rounds=1)
    G = gt.expand(game)
    chance = [n for n, p in G.nodes(data="player") if p == "chance"]
    assert chance and all(math.isclose(sum(G.edges[n, c]["prob"] for c in G.successors(n)),
                                       1) for n in chance)
    assert gt.expectimax(G).value == pytest.approx(gt.expectimax(game).value)
    cut = gt.expand(TicTacToe(), depth=1, evaluate=lambda s: 0.5)
    assert {cut.nodes[n]["utility"] for n in cut if n} == {0.5}
    assert gt.minimax(cut).value == 0.5


def test_tree_game_names_unknown_states():
    T = gt.TreeGame(gt.tree_from_nested([[1, 2]]))
    for method in (T.is_terminal, T.utility, T.successors, T.actions):
        with pytest.raises(ValueError, match=r"\(5,\) is not a node of the tree"):
            method((5,))
