"""gametrees: game-tree search you can watch.

Build game trees as networkx graphs (or play real games), search them with
minimax, alpha-beta, expectimax and negamax, and replay every step.

>>> import gametrees as gt
>>> T = gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
>>> r = gt.alphabeta(T)
>>> r.value, r.move
(3, (0,))
>>> gt.frame(r.trace, 0).text
'Start at the root A, a MAX node with window α = -∞, β = +∞.'
"""

from .games import CHANCE, MAX, MIN, ConnectFour, DiceGame, Game, Nim, TicTacToe
from .search import SearchResult, alphabeta, expectimax, minimax, negamax
from .trace import Event, Frame, frame, frames
from .trees import (
    TreeGame,
    expand,
    random_tree,
    tree_from_dict,
    tree_from_nested,
    validate_tree,
)

__all__ = [
    "CHANCE", "MAX", "MIN",
    "ConnectFour", "DiceGame", "Game", "Nim", "TicTacToe", "TreeGame",
    "Event", "Frame", "SearchResult",
    "alphabeta", "expand", "expectimax", "frame", "frames", "minimax", "negamax",
    "random_tree", "tree_from_dict", "tree_from_nested", "validate_tree",
]

__version__ = "0.1.0"

from . import exercises  # noqa: E402

__all__ += ["exercises"]

# --- drawing and widgets (gametrees.draw, gametrees.widgets) ---
from .draw import draw, side_by_side  # noqa: E402
from .layout import tidy_layout  # noqa: E402
from .widgets import play, replay  # noqa: E402

__all__ += ["draw", "play", "replay", "side_by_side", "tidy_layout"]

# --- agents, tournaments, evaluation functions (gametrees.agents, ...) ---
from .agents import (  # noqa: E402
    Agent,
    AlphaBetaAgent,
    HumanAgent,
    IterativeDeepeningAgent,
    MinimaxAgent,
    RandomAgent,
)
from .evaluation import connect4_evaluation, default_evaluation, tictactoe_open_lines  # noqa: E402
from .mcts import MCTSAgent  # noqa: E402
from .tournament import TournamentResult, tournament  # noqa: E402

__all__ += [
    "Agent", "AlphaBetaAgent", "HumanAgent", "IterativeDeepeningAgent", "MCTSAgent", "MinimaxAgent",
    "RandomAgent", "TournamentResult", "connect4_evaluation", "default_evaluation",
    "tictactoe_open_lines", "tournament",
]

# --- instructor exports: animations for slides, figures and TikZ for exams (gametrees.export) ---
from .export import animate, export, to_tikz  # noqa: E402

__all__ += ["animate", "export", "to_tikz"]

# --- practice widget (gametrees.practice); classroom assignments: ``from gametrees import assignments`` ---
from .practice import Practice, practice  # noqa: E402

__all__ += ["Practice", "practice"]
