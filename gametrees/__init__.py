"""gametrees: game-tree search you can watch.

Build game trees as networkx graphs (or play real games), search them with
minimax, alpha-beta, expectimax and negamax, and replay every step.

>>> import gametrees as gt
>>> T = gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
>>> r = gt.alphabeta(T)
>>> r.value, r.move
(3, (0,))
>>> gt.frame(r.trace, 0).text
'Start at the root A, a MAX node with window α = −∞, β = +∞.'

The package, layer by layer: each layer imports only the layers above it in
this table, never a ``_private`` name of another module.

=================================  ==============================================
``games``                          the game protocol, tic-tac-toe, Nim, Connect Four, dice
``trees``                          trees as networkx graphs: the schema, the builders, a tree as a game
``trace``                          the events a search records; frames (the search after step k)
``search``                         minimax, expectimax (``backed_up``), alpha-beta and negamax
                                   (``pruning``), Monte Carlo tree search (``montecarlo``: ``gt.mcts``)
``evaluation``, ``agents``,        evaluation functions, players built on search (``MCTSAgent`` too),
``tournaments``                    matches between agents
``drawing``                        tidy layout, scene (what to draw), painter (matplotlib)
``widgets``                        replay, game boards, practice (ipywidgets)
``exports``                        animations for slides, figures and TikZ for exams
``exercises``                      feedback, reading answers, by-hand exercises, checks of code
``classroom``                      graded assignments (``from gametrees import assignments``)
``cli``                            ``python -m gametrees``
=================================  ==============================================

``import gametrees`` loads neither matplotlib nor ipywidgets: ``gt.draw``,
``gt.replay``, ``gt.play``, ``gt.practice``, ``gt.export`` ... import them the
first time they are used.
"""

import sys
from importlib import import_module

from .games import CHANCE, MAX, MIN, ConnectFour, DiceGame, Game, Nim, TicTacToe
from .search import SearchResult, alphabeta, expectimax, mcts, minimax, negamax
from .trace import Event, Frame, frame, frames
from .trees import (
    TreeGame,
    expand,
    random_tree,
    tree_from_dict,
    tree_from_nested,
    validate_tree,
)

__version__ = "0.3.0"

from . import exercises  # noqa: E402
from .agents import (  # noqa: E402
    Agent,
    AlphaBetaAgent,
    HumanAgent,
    IterativeDeepeningAgent,
    MCTSAgent,
    MinimaxAgent,
    RandomAgent,
)
from .evaluation import connect4_evaluation, default_evaluation, tictactoe_open_lines  # noqa: E402
from .tournaments import TournamentResult, tournament  # noqa: E402

# Names whose modules import matplotlib or ipywidgets: loaded on first use.
_LAZY = {
    "draw": "gametrees.drawing",
    "side_by_side": "gametrees.drawing",
    "tidy_layout": "gametrees.drawing",
    "replay": "gametrees.widgets",
    "play": "gametrees.widgets",
    "practice": "gametrees.widgets",
    "Practice": "gametrees.widgets",
    "explore": "gametrees.widgets",
    "animate": "gametrees.exports",
    "export": "gametrees.exports",
    "to_tikz": "gametrees.exports",
}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'gametrees' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


# An exercise shows its worked solution with gt.draw / gt.replay (loaded on first use): the package hands
# the exercises the way to them, so the exercises layer never imports drawing or widgets.
exercises.by_hand.set_viewers(lambda name: getattr(sys.modules[__name__], name, None))


__all__ = [
    "CHANCE", "MAX", "MIN",
    "ConnectFour", "DiceGame", "Game", "Nim", "TicTacToe", "TreeGame",
    "Event", "Frame", "SearchResult",
    "alphabeta", "expand", "expectimax", "frame", "frames", "minimax", "negamax",
    "random_tree", "tree_from_dict", "tree_from_nested", "validate_tree",
    "exercises",
    "Agent", "AlphaBetaAgent", "HumanAgent", "IterativeDeepeningAgent", "MCTSAgent", "MinimaxAgent", "mcts",
    "RandomAgent", "TournamentResult", "connect4_evaluation", "default_evaluation",
    "tictactoe_open_lines", "tournament",
    *sorted(_LAZY),
]
