"""Widgets for notebooks: replay a search, play against an agent, practise by hand.

=====================  ======================================================
``replay_widget``      :func:`replay` / :class:`Replay`: a search step by step
``board_widget``       :func:`play` / :class:`Board`: tic-tac-toe or Connect
                       Four against an agent, and why it played its move
``practice_widget``    :func:`practice` / :class:`Practice`: a generated tree
                       to work out by hand, with the answer boxes on the figure
``explore_widget``     :func:`explore` / :class:`Explore`: type a tree, choose
                       the search, root and order, and replay it at once
``output``             what they share: a figure as PNG, and a static output
                       where widgets do not run
=====================  ======================================================

Widgets only wire frames to a figure and to controls: they draw through
:class:`gametrees.drawing.Drawing` and check through :mod:`gametrees.exercises`.
This package may import ipywidgets, matplotlib and every layer below it
(games, trees, search, trace, agents, drawing, exercises); importing it loads
ipywidgets, which is why ``import gametrees`` loads it only on first use.
"""

from .board_widget import Board, play
from .explore_widget import Explore, explore
from .practice_widget import MODES, Practice, practice
from .replay_widget import Replay, replay

__all__ = ["MODES", "Board", "Explore", "Practice", "Replay", "explore", "play", "practice", "replay"]
