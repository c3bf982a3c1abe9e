"""The checks of the lessons' exercises: one module per lesson.

=============================  ==========================================================
module                         checks
=============================  ==========================================================
``l00_start_here``             :func:`check_value` (worked answer after an attempt:
                               ``solution_value``)
``l01_game_trees``             :func:`check_nim_leaves`, :func:`check_effective_branching`,
                               :func:`check_game_kinds` (worked answers after an attempt:
                               ``solution_nim_leaves``, ``solution_effective_branching``,
                               ``solution_game_kinds``)
``l02_minimax``                :func:`check_position`, :func:`check_minimax_claims`,
                               :func:`check_fast_wins` (worked answers after an attempt:
                               ``solution_position``, ``solution_minimax_claims``,
                               ``solution_fast_wins``)
``l03_alpha_beta``             :func:`check_fail_soft_hard`, :func:`check_pruning_order` (worked
                               answers after an attempt: ``solution_fail_soft_hard``,
                               ``solution_pruning_order``)
``l04_depth_and_evaluation``   :func:`check_win_depth`, :func:`check_scale_choices`,
                               :func:`check_quiet_positions` (worked answers after an attempt:
                               ``solution_scale_choices``, ``solution_quiet_positions``,
                               ``solution_win_depth``)
``l05_search_enhancements``    :func:`check_after_two_moves`, :func:`check_negamax`,
                               :func:`check_table_answers`, :func:`check_table_search`,
                               :func:`check_window_entries` (worked answers after an attempt:
                               ``solution_same_up_to_symmetry``, ``solution_window_entries``,
                               ``solution_table_answers``)
``l06_expectimax``             :func:`check_rescaled_choices`, :func:`check_order_preserving_flip`,
                               :func:`check_chance_pruning` (worked answer after an attempt:
                               ``solution_chance_pruning``)
``l07_monte_carlo``            :func:`check_exploration_c`, :func:`check_final_move` (and the
                               generated ``"mcts"`` exercises of :mod:`~gametrees.exercises.by_hand`)
``reading``                    what they share: a blank answer, a number answer
=============================  ==========================================================

The lessons call them as ``gt.exercises.check_...``. The checks of a learner's
own search functions (``check_minimax``, ``check_alphabeta``, ...) are in
:mod:`gametrees.exercises.code_checks`; the generated exercises in
:mod:`gametrees.exercises.by_hand`.

May import: :mod:`gametrees.games`, :mod:`gametrees.search`, :mod:`gametrees.trees`
and the other modules of :mod:`gametrees.exercises` (this is its top layer).
"""

from __future__ import annotations

from .l00_start_here import check_value, solution_value
from .l01_game_trees import (
    check_effective_branching,
    check_game_kinds,
    check_nim_leaves,
    solution_effective_branching,
    solution_game_kinds,
    solution_nim_leaves,
)
from .l02_minimax import (
    check_fast_wins,
    check_minimax_claims,
    check_position,
    solution_fast_wins,
    solution_minimax_claims,
    solution_position,
)
from .l03_alpha_beta import (
    check_fail_soft_hard,
    check_pruning_order,
    solution_fail_soft_hard,
    solution_pruning_order,
)
from .l04_depth_and_evaluation import (
    check_quiet_positions,
    check_scale_choices,
    check_win_depth,
    solution_quiet_positions,
    solution_scale_choices,
    solution_win_depth,
)
from .l05_search_enhancements import (
    check_after_two_moves,
    check_negamax,
    check_table_answers,
    check_table_search,
    check_window_entries,
    solution_same_up_to_symmetry,
    solution_table_answers,
    solution_window_entries,
)
from .l06_expectimax import (
    check_chance_pruning,
    check_order_preserving_flip,
    check_rescaled_choices,
    solution_chance_pruning,
)
from .l07_monte_carlo import check_exploration_c, check_final_move

__all__ = [
    "check_after_two_moves",
    "check_chance_pruning",
    "check_effective_branching",
    "check_exploration_c",
    "check_fail_soft_hard",
    "check_fast_wins",
    "check_final_move",
    "check_game_kinds",
    "check_minimax_claims",
    "check_negamax",
    "check_nim_leaves",
    "check_order_preserving_flip",
    "check_position",
    "check_pruning_order",
    "check_quiet_positions",
    "check_rescaled_choices",
    "check_scale_choices",
    "check_table_answers",
    "check_table_search",
    "check_value",
    "check_win_depth",
    "check_window_entries",
    "solution_effective_branching",
    "solution_chance_pruning",
    "solution_fail_soft_hard",
    "solution_fast_wins",
    "solution_game_kinds",
    "solution_minimax_claims",
    "solution_nim_leaves",
    "solution_position",
    "solution_pruning_order",
    "solution_value",
    "solution_quiet_positions",
    "solution_same_up_to_symmetry",
    "solution_scale_choices",
    "solution_table_answers",
    "solution_win_depth",
    "solution_window_entries",
]
