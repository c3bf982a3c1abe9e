"""The exercises by hand: a tree, a question, and feedback on the learner's answer.

:func:`generate` makes a seeded exercise of one of the :data:`KINDS`;
:class:`ValuesExercise`, :class:`ExpectimaxExercise`, :class:`PruningExercise`,
:class:`OrderExercise`, :class:`WindowExercise`, :class:`BestMoveExercise` and
:class:`MCTSExercise` can also be called with a tree. See :mod:`gametrees.exercises` for the answers
each kind expects.

Modules, lowest first (each imports only from those before it, and from
:mod:`gametrees.exercises.feedback`, :mod:`~gametrees.exercises.answers` and
:mod:`~gametrees.exercises.attempts`): ``trees`` (presets, seeded random trees
and their twins, given trees, outlines), ``search_info`` (what alpha-beta did
at each node, read from the trace), ``diagnoses`` (the rule to re-apply at a
node, and the misconception a wrong value shows), ``exercise`` (the base class
:class:`Exercise`: safe, counted and escalated checks), ``values``,
``cutoffs`` (pruning, order, window), ``best_move``, ``mcts_steps`` (one MCTS
playout: UCB1 selection and backup), ``kinds``
(:data:`KINDS`, :func:`generate`). ``base`` only re-exports three names for
modules not yet moved to this package's public names.

The names in ``__all__`` beyond the exercises are the shared machinery the
checks of a learner's code and the lessons' checks use.
"""

from __future__ import annotations

from .best_move import BestMoveExercise
from .cutoffs import OrderExercise, PruningExercise, WindowExercise, visited_reason
from .diagnoses import chance_hint, constant_answer, roles_hint, rule_question, value_slip
from .exercise import RULES, Exercise, from_learner, set_viewers, strict_option, viewer
from .kinds import KINDS, generate
from .mcts_steps import MCTSExercise
from .search_info import SearchInfo
from .trees import (
    PRESETS,
    as_tree,
    check_seed,
    child_probs,
    inline,
    leaves_under,
    outline,
    random_spec,
    twin_trees,
)
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
    "RULES",
    "SearchInfo",
    "ValuesExercise",
    "WindowExercise",
    "as_tree",
    "chance_hint",
    "check_seed",
    "child_probs",
    "constant_answer",
    "from_learner",
    "generate",
    "inline",
    "leaves_under",
    "outline",
    "random_spec",
    "roles_hint",
    "rule_question",
    "set_viewers",
    "strict_option",
    "twin_trees",
    "value_slip",
    "viewer",
    "visited_reason",
]
