"""The exercises by hand: a tree, a question, and feedback on the learner's answer.

:func:`generate` makes a seeded exercise of one of the :data:`KINDS`;
:class:`ValuesExercise`, :class:`ExpectimaxExercise`, :class:`PruningExercise`,
:class:`OrderExercise`, :class:`WindowExercise`, :class:`BestMoveExercise` and
:class:`MCTSExercise` can also be called with a tree. See :mod:`gametrees.exercises` for the answers
each kind expects.

Modules, lowest first (each imports only from those before it, and from
:mod:`gametrees.exercises.feedback` and :mod:`gametrees.exercises.answers`):
``base`` (presets, random trees, outlines, :class:`Exercise`), ``values``,
``cutoffs`` (pruning, order, window), ``best_move``, ``mcts_steps`` (one MCTS
playout: UCB1 selection and backup), ``kinds``
(:data:`KINDS`, :func:`generate`).
"""

from __future__ import annotations

from .base import PRESETS, Exercise, check_seed
from .best_move import BestMoveExercise
from .cutoffs import OrderExercise, PruningExercise, WindowExercise
from .kinds import KINDS, generate
from .mcts_steps import MCTSExercise
from .values import ExpectimaxExercise, ValuesExercise

__all__ = [
    "BestMoveExercise",
    "Exercise",
    "ExpectimaxExercise",
    "KINDS",
    "MCTSExercise",
    "OrderExercise",
    "PRESETS",
    "PruningExercise",
    "ValuesExercise",
    "WindowExercise",
    "check_seed",
    "generate",
]
