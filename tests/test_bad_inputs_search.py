"""Bad input to the searches, as a hostile tester types it: one table, every row a clear error.

Each row is (function, keyword arguments, the exception expected, words its
message must contain): the words name the argument, node, state or outcome
and what was expected. A row that hangs, answers, or raises anything else
(a bare KeyError, OverflowError, "math domain error", random.py's own message)
fails. The functions: ``gt.mcts``, ``gt.MCTSAgent`` (made, and asked for a
move), ``gt.expectimax`` (and ``gt.minimax`` where it shares a check).
"""

import math

import networkx as nx
import numpy as np
import pytest
from odd_games import Dice, Endless, Stuck, Worth

import gametrees as gt
from gametrees.games import TicTacToe

TEXTBOOK = gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
NAN, INF = math.nan, math.inf


def diamond():
    """A -> B, A -> C, B -> D, C -> D: D has two parents."""
    G = nx.DiGraph(root="A")
    G.add_edges_from([("A", "B"), ("A", "C"), ("B", "D"), ("C", "D"), ("D", "E"), ("D", "F")])
    for n, player in [("A", "max"), ("B", "min"), ("C", "min"), ("D", "max")]:
        G.nodes[n]["player"] = player
    G.nodes["E"]["utility"], G.nodes["F"]["utility"] = 1, -1
    return G


def agent_move(game, state, **options):
    """An MCTSAgent made with ``options`` asked for its move."""
    return gt.MCTSAgent(**options)(game, state)


HALF = [("a", 0.5), ("b", 0.5)]

ROWS = [
    # gt.mcts: its options
    (gt.mcts, {"tree_or_game": [[1, 2], [3]]}, TypeError, ["expected a game tree", "list"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "playouts": 0}, ValueError, ["playouts must be None or an int >= 1",
                                                                      "got 0"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "playouts": -1}, ValueError, ["playouts", "got -1"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "playouts": 2.5}, TypeError, ["playouts must be None or an int",
                                                                       "2.5"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "playouts": True}, TypeError, ["playouts", "True"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "playouts": "100"}, TypeError, ["playouts", "'100'"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "playouts": None}, ValueError, ["give playouts, seconds or both"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "playouts": None, "seconds": INF}, ValueError,
     ["seconds=inf", "playouts=None would never stop"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "playouts": None, "seconds": 10**400}, ValueError,
     ["playouts=None would never stop"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "seconds": 0}, ValueError, ["seconds must be None or a positive",
                                                                     "got 0"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "seconds": -1}, ValueError, ["seconds", "got -1"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "seconds": NAN}, ValueError, ["seconds", "got nan"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "seconds": "1"}, TypeError, ["seconds must be None or a positive",
                                                                      "'1'"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "seconds": True}, TypeError, ["seconds", "True"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "c": -1}, ValueError, ["c must be a number >= 0 and finite", "-1"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "c": NAN}, ValueError, ["c must be", "nan"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "c": INF}, ValueError, ["c must be", "finite"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "c": 10**400}, ValueError, ["c must be", "finite", "1000"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "c": "1"}, TypeError, ["c must be a number", "'1'"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "c": True}, TypeError, ["c must be a number", "True"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "seed": 1.5}, TypeError, ["seed must be None, an int or a str",
                                                                   "1.5"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "seed": True}, TypeError, ["seed", "True"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "seed": np.float64(2)}, TypeError, ["seed", "2.0"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "trace": "yes"}, TypeError, ["trace must be True or False"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "graph": 1}, TypeError, ["graph must be True or False"]),
    # gt.mcts: the tree or game
    (gt.mcts, {"tree_or_game": TEXTBOOK, "state": (7,)}, ValueError, ["start node (7,)",
                                                                      "not a node of the tree"]),
    (gt.mcts, {"tree_or_game": TEXTBOOK, "state": (0, 0)}, ValueError, ["(0, 0)", "is finished"]),
    (gt.mcts, {"tree_or_game": diamond()}, ValueError, ["node 'D' has two parents, 'B' and 'C'",
                                                        "searches trees"]),
    (gt.mcts, {"tree_or_game": Endless(), "playouts": None, "seconds": 1}, ValueError,
     ["a playout went 2,000 plies below the start", "without the game ending"]),
    (gt.mcts, {"tree_or_game": Stuck(0)}, ValueError, ["mcts: state 0 is not terminal", "has no moves"]),
    (gt.mcts, {"tree_or_game": Stuck(1)}, ValueError, ["mcts: state 1 is not terminal", "has no moves"]),
    (gt.mcts, {"tree_or_game": Stuck(1, player="chance")}, ValueError, ["chance state 1", "has no moves"]),
    (gt.mcts, {"tree_or_game": Worth(True)}, TypeError, ["utility must return a finite number",
                                                         "True (bool)", "state 'left'"]),
    (gt.mcts, {"tree_or_game": Worth(10**400)}, ValueError, ["utility must return a finite number",
                                                             "too large for a float"]),
    (gt.mcts, {"tree_or_game": Worth(INF)}, ValueError, ["finite number", "returned inf"]),
    (gt.mcts, {"tree_or_game": Worth(NAN)}, ValueError, ["finite number", "returned NaN"]),
    (gt.mcts, {"tree_or_game": Worth(1e308)}, ValueError, ["sum is too large for a float",
                                                           "scale the utilities down"]),
    (gt.mcts, {"tree_or_game": Dice([("a", 0.2), ("b", 0.2)])}, ValueError,
     ["mcts: chance state 'roll'", "sum to 0.4, expected 1"]),
    (gt.mcts, {"tree_or_game": Dice([("a", -0.5), ("b", 1.5)])}, ValueError,
     ["probability of outcome 'a' is -0.5", "expected 0 <= p <= 1"]),
    (gt.mcts, {"tree_or_game": Dice([("a", NAN), ("b", 1.0)])}, ValueError,
     ["probability of outcome 'a' is NaN"]),
    (gt.mcts, {"tree_or_game": Dice([("a", 1.0)])}, ValueError, ["no probability for the outcome 'b'"]),
    (gt.mcts, {"tree_or_game": Dice(HALF + [("c", 0.0)])}, ValueError,
     ["the outcome 'c', which is not one of its outcomes"]),
    (gt.mcts, {"tree_or_game": Dice(HALF, decide=True)}, None, []),       # a good row: it searches
    # gt.MCTSAgent: made
    (gt.MCTSAgent, {"playouts": 0}, ValueError, ["playouts must be None or an int >= 1", "got 0"]),
    (gt.MCTSAgent, {"playouts": 2.5}, ValueError, ["playouts must be None or an int", "2.5"]),
    (gt.MCTSAgent, {"playouts": None}, ValueError, ["give playouts, seconds or both"]),
    (gt.MCTSAgent, {"playouts": None, "seconds": INF}, ValueError, ["would never stop"]),
    (gt.MCTSAgent, {"seconds": -1}, ValueError, ["seconds must be None or a positive", "got -1"]),
    (gt.MCTSAgent, {"c": 10**400}, ValueError, ["c must be a number >= 0 and finite"]),
    (gt.MCTSAgent, {"c": NAN}, ValueError, ["c must be", "nan"]),
    (gt.MCTSAgent, {"seed": 1.5}, TypeError, ["seed must be None or an int", "1.5"]),
    (gt.MCTSAgent, {"seed": "1"}, TypeError, ["seed must be None or an int", "'1'"]),
    (gt.MCTSAgent, {"seed": np.int64(5)}, None, []),                       # accepted, as the int 5
    # gt.MCTSAgent: asked for a move
    (agent_move, {"game": Dice(HALF), "state": "roll", "playouts": 10}, ValueError,
     ["state 'roll' is a chance state", "drawn"]),
    (agent_move, {"game": TicTacToe(), "state": TicTacToe.from_string("XXX/OO./..."), "playouts": 10},
     ValueError, ["the game is over", "no move to choose"]),
    (agent_move, {"game": Endless(), "state": 0, "playouts": 10}, ValueError, ["2,000 plies"]),
    (agent_move, {"game": Worth(True), "state": "start", "playouts": 10}, TypeError, ["True (bool)"]),
    # gt.expectimax: chances, moves, utilities, options
    (gt.expectimax, {"tree_or_game": Dice([("a", 0.2), ("b", 0.2)])}, ValueError,
     ["expectimax: chance state 'roll'", "sum to 0.4, expected 1"]),
    (gt.expectimax, {"tree_or_game": Dice([("a", 0.6), ("b", 0.5)], decide=True)}, ValueError,
     ["expectimax: chance state 'roll'", "sum to 1.1"]),
    (gt.expectimax, {"tree_or_game": Dice([("a", -0.5), ("b", 1.5)])}, ValueError, ["outcome 'a' is -0.5"]),
    (gt.expectimax, {"tree_or_game": Dice([("a", NAN), ("b", 1.0)])}, ValueError, ["outcome 'a'", "NaN"]),
    (gt.expectimax, {"tree_or_game": Dice([("a", 1.0)])}, ValueError,
     ["no probability for the outcome 'b'", "list every outcome"]),
    (gt.expectimax, {"tree_or_game": Dice(HALF + [("c", 0.0)])}, ValueError,
     ["the outcome 'c', which is not one of its outcomes"]),
    (gt.expectimax, {"tree_or_game": Dice([("a", 0.5), ("a", 0.5)])}, ValueError, ["outcome 'a' twice"]),
    (gt.expectimax, {"tree_or_game": Dice([("a", "1"), ("b", 0)])}, TypeError, ["outcome 'a'", "'1' (str)"]),
    (gt.expectimax, {"tree_or_game": Dice(None)}, TypeError, ["(outcome, probability) pairs", "None"]),
    (gt.expectimax, {"tree_or_game": Dice([("a", np.float32(0.25)), ("b", np.float64(0.75))])}, None, []),
    (gt.expectimax, {"tree_or_game": Stuck(1, player="chance")}, ValueError,
     ["expectimax: state 1 is not terminal", "has no moves"]),
    (gt.expectimax, {"tree_or_game": Worth(True)}, TypeError, ["utility returned True (bool)"]),
    (gt.expectimax, {"tree_or_game": Worth(10**400)}, ValueError, ["too large for a float"]),
    (gt.expectimax, {"tree_or_game": Endless()}, ValueError, ["deeper than 2,000 plies"]),
    (gt.expectimax, {"tree_or_game": TEXTBOOK, "depth": -1}, ValueError, ["depth must be >= 0", "-1"]),
    (gt.expectimax, {"tree_or_game": TEXTBOOK, "depth": 1.5}, TypeError, ["depth must be None or an int"]),
    (gt.expectimax, {"tree_or_game": TEXTBOOK, "time_limit": 0}, ValueError,
     ["time_limit must be a positive number"]),
    (gt.minimax, {"tree_or_game": Worth(True)}, TypeError, ["utility returned True (bool)"]),
]


@pytest.mark.parametrize("function, kwargs, error, words", ROWS,
                         ids=[f"{i}-{getattr(f, '__name__', f)}" for i, (f, *_) in enumerate(ROWS)])
def test_bad_input_gets_a_clear_error(function, kwargs, error, words):
    if error is None:
        function(**kwargs)      # a neighbour that is fine
        return
    with pytest.raises(error) as caught:
        function(**kwargs)
    assert type(caught.value) is error       # not a subclass such as a KeyError for a ValueError
    message = str(caught.value)
    for word in words:
        assert word in message, (word, message)
