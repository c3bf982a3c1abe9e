"""gt.mcts and MCTSAgent at the edges (issue 32): limits, DAGs, chance games, unusable values, traces.

Each defect the hostile tester found has a test here with its neighbours: the
time limit whatever ``playouts`` is, searches that could not stop, a graph with
shared nodes, chances that are not a probability distribution (in expectimax
too), utilities MCTS cannot average, seeds, and what a search traces by default.
The table of bad arguments is in ``tests/test_bad_inputs_search.py``.
"""

import gc
import math

import networkx as nx
import numpy as np
import pytest
from odd_games import Dice, Endless, Stuck, Worth

import gametrees as gt
from gametrees.games import CHANCE, Pig, TicTacToe
from gametrees.search.montecarlo import TRACED_PLAYOUTS
from gametrees.trees import MAX_PLIES

#: The reproduction tree: MAX should play (1,) (minimax value 0 against -1).
W = [[1, -1], [0, 1]]


def wins():
    return gt.tree_from_nested(W)


# ---------------------------------------------------------------------------
# 1. The time limit, whatever playouts is
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("playouts", [3_000_000, 10**8, 2**63, None])
def test_a_timed_search_stops_on_time_and_finds_the_move_whatever_playouts_is(playouts):
    best = gt.minimax(wins()).move
    r = gt.mcts(wins(), playouts=playouts, seconds=0.3, trace=False, seed=1)
    assert r.move == best
    # Far more than one playout, far fewer than asked: the clock stopped it (a playout
    # takes microseconds; the timing itself is measured by benchmarks/mcts_speed.py).
    assert 100 < r.stats["playouts"] < (playouts or math.inf)
    assert r.seconds < 3      # not minutes (the old 1/sqrt(n) table), not forever


def test_the_agent_honours_its_time_limit_with_huge_playouts_too():
    agent = gt.MCTSAgent(playouts=2**63, seconds=0.2, seed=0)
    game = TicTacToe()
    assert agent(game, TicTacToe.from_string("XX./OO./...")) == 2
    assert agent.last_result.seconds < 3 and agent.last_result.stats["playouts"] > 10


def test_infinite_seconds_is_no_time_limit_so_it_needs_playouts():
    r = gt.mcts(wins(), playouts=50, seconds=math.inf, seed=0)
    assert r.stats["playouts"] == 50
    for seconds in (math.inf, 10**400):
        with pytest.raises(ValueError, match=r"playouts=None would never stop: give playouts"):
            gt.mcts(wins(), playouts=None, seconds=seconds)
    with pytest.raises(ValueError, match=r"would never stop"):
        gt.MCTSAgent(playouts=None, seconds=math.inf)


# ---------------------------------------------------------------------------
# 2. A node with two parents: refused, named
# ---------------------------------------------------------------------------


def diamond():
    """A -> B, A -> C, B -> D, C -> D (D shared), with leaves under all of them."""
    G = nx.DiGraph(root="A")
    G.add_edges_from([("A", "B"), ("A", "C"), ("B", "D"), ("C", "D"), ("B", "E"), ("C", "F"),
                      ("D", "G"), ("D", "H")])
    for n, player in [("A", "max"), ("B", "min"), ("C", "min"), ("D", "max")]:
        G.nodes[n]["player"] = player
    for n, u in [("E", 1), ("F", -1), ("G", 2), ("H", -3)]:
        G.nodes[n]["utility"] = u
    return G


def test_a_graph_with_a_shared_node_is_refused_naming_the_node_and_both_parents():
    with pytest.raises(ValueError, match=r"mcts: node 'D' has two parents, 'B' and 'C': .*searches trees"):
        gt.mcts(diamond(), playouts=200, seed=1, c=3)
    with pytest.raises(ValueError, match=r"node 'D' has two parents"):
        gt.mcts(diamond(), "A", playouts=10, trace=False, graph=False)
    assert gt.minimax(diamond()).move == "B"   # the other searches still search it


def test_a_merged_expansion_of_a_game_is_refused_and_the_game_itself_is_searched():
    game = gt.Nim(coins=5)
    merged = gt.expand(game, merge=True)
    with pytest.raises(ValueError, match=r"has two parents.*gt\.expand\(game, merge=False\)"):
        gt.mcts(merged, playouts=50, seed=0)
    plain = gt.expand(game, merge=False)
    assert gt.mcts(plain, playouts=300, seed=0).move == gt.mcts(game, playouts=300, seed=0).move == 1


def test_a_shared_node_outside_the_searched_subtree_does_not_matter():
    G = diamond()
    G.add_edge("E", "X")       # E becomes an inner node with a leaf of its own
    G.nodes["E"]["player"] = "max"
    G.nodes["X"]["utility"] = 5
    # From E nothing below has two parents; from B, D still has only one parent (B) in B's subtree.
    assert gt.mcts(G, "E", playouts=5, seed=0).move == "X"
    r = gt.mcts(G, "B", playouts=100, seed=0)
    assert set(r.graph) <= {"B", "D", "E", "G", "H", "X"}
    visits = r.graph.nodes
    assert visits["B"]["visits"] == 100 == sum(visits[k]["visits"] for k in r.graph.successors("B"))


# ---------------------------------------------------------------------------
# 3. Searches that could not stop, and errors that named nothing
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("limits", [{"playouts": 10}, {"playouts": None, "seconds": 1}])
def test_a_game_that_never_ends_is_stopped_at_the_ply_limit(limits):
    with pytest.raises(ValueError, match=rf"mcts: a playout went {MAX_PLIES:,} plies below the start "
                                         r"without the game ending \(is_terminal never returned True"):
        gt.mcts(Endless(), **limits)


def test_a_game_just_under_the_ply_limit_is_searched():
    class Long(Endless):
        def is_terminal(self, state):
            return state >= MAX_PLIES

    r = gt.mcts(Long(), playouts=3, seed=0)
    assert r.stats["depth_reached"] >= 1 and r.stats["positions"] == 3 * (MAX_PLIES + 1)


@pytest.mark.parametrize("stuck_at, where", [(0, "the start"), (1, "below the start")])
def test_a_state_that_goes_on_without_moves_is_named(stuck_at, where):
    with pytest.raises(ValueError, match=rf"mcts: state {stuck_at} is not terminal .* but has no moves"):
        gt.mcts(Stuck(stuck_at), playouts=10)
    # the same wording as minimax's
    with pytest.raises(ValueError, match=rf"minimax: state {stuck_at} is not terminal .* but has no moves"):
        gt.minimax(Stuck(stuck_at))


def test_a_chance_state_without_outcomes_is_named():
    with pytest.raises(ValueError, match=r"mcts: chance state 1 is not terminal .* but has no moves"):
        gt.mcts(Stuck(1, player=CHANCE), playouts=10)


@pytest.mark.parametrize("value, error, words", [
    (True, TypeError, "it returned True (bool) for state 'left'"),
    (10**400, ValueError, "a number too large for a float (an integer of about 401 digits)"),
    (math.inf, ValueError, "it returned inf for state 'left'"),
    (math.nan, ValueError, "it returned NaN for state 'left'"),
    ("1", TypeError, "it returned '1' (str)"),
    (None, TypeError, "it returned None (NoneType)"),
])
def test_a_utility_mcts_cannot_average_is_named(value, error, words):
    with pytest.raises(error) as caught:
        gt.mcts(Worth(value), playouts=20, seed=0)
    assert "utility must return a finite number" in str(caught.value) and words in str(caught.value)
    # the backed-up searches refuse the same values (inf aside: a win is fine to them)
    if value is not math.inf:
        with pytest.raises(error):
            gt.minimax(Worth(value))


def test_a_bool_utility_on_a_tree_is_refused_as_by_the_other_searches():
    for search in (gt.mcts, gt.minimax, gt.alphabeta, gt.expectimax):
        with pytest.raises(TypeError, match=r"must be a number, got True \(bool\)"):
            search(gt.tree_from_nested([[True, False], [False, True]]))


@pytest.mark.parametrize("value", [np.float64(0.5), np.int64(1), np.float32(0.25), 7])
def test_numpy_and_int_utilities_are_averaged_as_floats(value):
    r = gt.mcts(Worth(value), playouts=200, seed=0)
    assert r.move == ("left" if value > 0 else "right")
    assert type(r.graph.nodes[("left",)]["value"]) is float
    assert r.graph.nodes[("left",)]["value"] == float(value)


def test_utilities_whose_sum_overflows_are_refused_not_averaged_to_inf():
    with pytest.raises(ValueError, match=r"their sum is too large for a float: scale the utilities down"):
        gt.mcts(Worth(1e308), playouts=20, seed=0)
    assert gt.mcts(Worth(1e300), playouts=20, seed=0).move == "left"


def test_c_too_large_for_a_float_is_named_and_a_large_float_c_still_searches():
    with pytest.raises(ValueError, match=r"c must be a number >= 0 and finite"):
        gt.mcts(wins(), c=10**400)
    r = gt.mcts(wins(), c=1e300, playouts=200, seed=0)
    assert r.stats["playouts"] == 200 and r.move in {(0,), (1,)}


def test_a_numpy_seed_gives_the_same_search_as_the_int():
    a = gt.mcts(wins(), playouts=100, seed=np.int64(5), trace=False)
    b = gt.mcts(wins(), playouts=100, seed=5, trace=False)
    assert (a.move, a.value, a.stats) == (b.move, b.value, b.stats)
    game = TicTacToe()
    moves = [gt.MCTSAgent(playouts=60, seed=s)(game, game.initial) for s in (np.int32(3), 3)]
    assert moves[0] == moves[1]
    assert gt.MCTSAgent(seed=np.int64(3)).seed == 3 and type(gt.MCTSAgent(seed=np.int64(3)).seed) is int
    assert gt.RandomAgent(seed=np.uint8(2)).seed == 2


# ---------------------------------------------------------------------------
# 4. A custom chance game's chances, in expectimax and MCTS
# ---------------------------------------------------------------------------

SEARCHES = [pytest.param(lambda g: gt.expectimax(g), "expectimax", id="expectimax"),
            pytest.param(lambda g: gt.mcts(g, playouts=50, seed=0), "mcts", id="mcts")]


@pytest.mark.parametrize("decide", [False, True], ids=["chance root", "chance below"])
@pytest.mark.parametrize("search, name", SEARCHES)
@pytest.mark.parametrize("chances, error, words", [
    ([("a", 0.2), ("b", 0.2)], ValueError, "the probabilities of its outcomes sum to 0.4, expected 1"),
    ([("a", 0.6), ("b", 0.5)], ValueError, "sum to 1.1, expected 1"),
    ([("a", -0.5), ("b", 1.5)], ValueError, "the probability of outcome 'a' is -0.5: expected 0 <= p <= 1"),
    ([("a", math.nan), ("b", 1.0)], ValueError, "the probability of outcome 'a' is NaN: expected a number"),
    ([("a", math.inf), ("b", 0)], ValueError, "the probability of outcome 'a' is inf"),
    ([("a", "0.5"), ("b", 0.5)], TypeError, "outcome 'a' is '0.5' (str): expected a number between 0 and 1"),
    ([("a", True), ("b", False)], TypeError, "is True (bool)"),
    ([("a", 1.0)], ValueError,
     "chances() gives no probability for the outcome 'b' (its outcomes: ['a', 'b'])"),
    ([("a", 0.5), ("b", 0.25), ("c", 0.25)], ValueError, "the outcome 'c', which is not one of its outcomes"),
    ([("a", 0.5), ("a", 0.5)], ValueError, "gives the outcome 'a' twice"),
    ([(["a"], 0.5), ("b", 0.5)], ValueError, "the outcome ['a'], which is not one of its outcomes"),
    ([("a", 0.5, 1), ("b", 0.5)], TypeError, "must return (outcome, probability) pairs, got the item"),
    (None, TypeError, "chances() must return a list of (outcome, probability) pairs, got None"),
])
def test_chances_that_are_not_a_distribution_are_named(search, name, chances, error, words, decide):
    with pytest.raises(error) as caught:
        search(Dice(chances, decide=decide))
    state = "'roll'"
    assert str(caught.value).startswith(f"{name}: chance state {state}: ") and words in str(caught.value)


@pytest.mark.parametrize("chances", [
    [("a", np.float64(0.25)), ("b", np.float32(0.75))],
    list(zip("ab", np.array([0.25, 0.75]))),
    [("b", 0.75), ("a", 0.25)],                     # any order
    [("a", 0.25), ("b", 0.75 - 1e-9)],              # rounding
])
def test_usable_chances_are_accepted_numpy_numbers_too(chances):
    assert gt.expectimax(Dice(chances)).value == pytest.approx(0.25 - 0.75)
    r = gt.mcts(Dice(chances), playouts=400, seed=0)
    G = r.graph
    a, b = G.nodes[("a",)]["visits"], G.nodes[("b",)]["visits"]
    assert a + b == 400 and 0.15 < a / 400 < 0.35


def test_an_impossible_outcome_is_never_drawn():
    r = gt.mcts(Dice([("a", 0.0), ("b", 1.0)]), playouts=300, seed=0)
    assert r.graph.nodes[()]["visits"] == 300 and ("a",) not in r.graph
    assert gt.expectimax(Dice([("a", 0.0), ("b", 1.0)])).value == -1


def test_at_a_chance_root_there_is_no_move_in_mcts_as_in_expectimax():
    for game, state in [(Dice([("a", 0.5), ("b", 0.5)]), "roll"),
                        (Pig(target=4, turns=6), (0, 0, 0, 0, True))]:
        assert game.to_move(state) == CHANCE
        assert gt.mcts(game, state, playouts=100, seed=0).move is None
        assert gt.expectimax(game, state, table=True, trace=False).move is None
    T = gt.tree_from_nested({"chance": [[1, 2], [3, 4]], "p": [0.5, 0.5]})
    assert gt.mcts(T, playouts=50, seed=0).move is None and gt.expectimax(T).move is None
    # below a chance root MAX still chooses: the move is MAX's at a decision root
    assert gt.mcts(Dice([("a", 0.9), ("b", 0.1)], decide=True), playouts=300, seed=0).move == "roll"


def test_the_agent_refuses_to_choose_a_chance_outcome():
    with pytest.raises(ValueError, match=r"mcts: state 'roll' is a chance state: its outcome is drawn"):
        gt.MCTSAgent(playouts=10, seed=0)(Dice([("a", 0.5), ("b", 0.5)]), "roll")


def test_a_numpy_array_of_probabilities_builds_a_chance_node():
    T = gt.tree_from_nested([{"chance": [1, 2], "p": np.array([0.25, 0.75])}, 3])
    assert [T.edges[(0,), k]["prob"] for k in T.successors((0,))] == [0.25, 0.75]
    assert gt.expectimax(T).value == 3
    with pytest.raises(ValueError, match=r"'p' must list one probability per child \(2\)"):
        gt.tree_from_nested([{"chance": [1, 2], "p": np.array([0.25, 0.25, 0.5])}, 3])
    with pytest.raises(ValueError, match=r"sum to 0.5, expected 1"):
        gt.tree_from_nested([{"chance": [1, 2], "p": np.array([0.25, 0.25])}, 3])


# ---------------------------------------------------------------------------
# 5. What a search traces by default
# ---------------------------------------------------------------------------


def test_by_default_a_search_of_at_most_traced_playouts_is_traced_and_no_other():
    assert TRACED_PLAYOUTS == 10_000
    small = gt.mcts(wins(), playouts=TRACED_PLAYOUTS, seed=0)
    assert small.trace is not None and small.trace[-1].playout == TRACED_PLAYOUTS
    big = gt.mcts(wins(), playouts=TRACED_PLAYOUTS + 1, seed=0)
    assert big.trace is None and big.graph.nodes[()]["visits"] == TRACED_PLAYOUTS + 1
    timed = gt.mcts(wins(), playouts=None, seconds=0.05, seed=0)
    assert timed.trace is None and timed.graph is not None
    assert gt.mcts(wins(), playouts=20, seconds=5, seed=0).trace is not None   # bounded by the playouts
    # the same search, traced or not
    traced = gt.mcts(wins(), playouts=TRACED_PLAYOUTS + 1, seed=0, trace=True)
    assert (big.move, big.value, big.stats) == (traced.move, traced.value, traced.stats)


def test_asking_for_the_trace_traces_any_search_and_a_replay_says_what_to_ask():
    r = gt.mcts(wins(), playouts=None, seconds=0.05, seed=0, trace=True)
    assert r.trace[-1].kind == "backup" and r.trace[-1].playout == r.stats["playouts"]
    untraced = gt.mcts(wins(), playouts=TRACED_PLAYOUTS + 1, seed=0)
    with pytest.raises(ValueError, match=r"this mcts result has no trace to replay: search with trace=True"):
        gt.replay(untraced)


def test_a_tournament_draws_only_from_checked_chances():
    """A custom chance game whose probabilities do not sum to 1 is refused by the tournament too (it drew
    from them unchecked), naming the state."""
    with pytest.raises(ValueError, match=r"tournament: chance state 'roll'.*sum to 1.1, expected 1"):
        gt.tournament(gt.RandomAgent(seed=1), gt.RandomAgent(seed=2), game=Dice([("a", 0.6), ("b", 0.5)]),
                      games=1)
    fair = gt.tournament(gt.RandomAgent(seed=1), gt.RandomAgent(seed=2), game=Dice([("a", 0.5), ("b", 0.5)]),
                         games=4)
    assert fair is not None


def test_tree_from_dict_takes_a_numpy_array_of_probabilities_as_tree_from_nested_does():
    spec = {"A": {"children": ["B", "C"], "player": "chance", "probs": np.array([0.25, 0.75])},
            "B": {"utility": 4}, "C": {"utility": 8}}
    assert gt.expectimax(gt.tree_from_dict(spec)).value == 7
    spec["A"]["probs"] = np.array([0.25, 0.25, 0.5])
    with pytest.raises(ValueError, match=r"node 'A': 'probs' must list one entry per child \(2\)"):
        gt.tree_from_dict(spec)


# ---------------------------------------------------------------------------
# The garbage collector: paused during a search, left as the program had it


@pytest.mark.parametrize("trace", [False, True])
def test_a_search_no_longer_used_leaves_no_garbage_cycle(trace):
    """The grown tree has no reference cycle: a result dropped is freed at once, nothing is left for the
    cyclic collector to find."""
    gc.collect()
    result = gt.mcts(TicTacToe(), playouts=500, seed=0, trace=trace)
    assert result.stats["tree_nodes"] > 100
    del result
    assert gc.collect() == 0


def test_a_search_leaves_the_collector_on_or_off_and_the_programs_frozen_objects_frozen():
    assert gc.isenabled()
    gt.mcts(TicTacToe(), playouts=50, seed=0)
    assert gc.isenabled()
    gc.disable()
    try:
        gt.mcts(TicTacToe(), playouts=50, seed=0)
        assert not gc.isenabled()
    finally:
        gc.enable()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen > 0
        gt.mcts(TicTacToe(), playouts=50, seed=0)
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
