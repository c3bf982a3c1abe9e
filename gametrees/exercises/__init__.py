"""Exercises with specific feedback, and checkers for a learner's own search code.

Two halves, one idea: compare what a learner wrote with what the engine
(:func:`~gametrees.minimax`, :func:`~gametrees.alphabeta`,
:func:`~gametrees.expectimax`) computes, and say *where* and *why* they differ,
node by node. Nothing here searches a tree itself: every expected answer and
every explanation is read from the engine's annotated graph and trace.

Exercises by hand
-----------------
:func:`generate` makes a seeded exercise of one kind (or call the classes):

==============  ============================  ===============================================
kind            class                         the learner gives
==============  ============================  ===============================================
``values``      :class:`ValuesExercise`       the minimax value of every inner node (a dict);
                                              with ``algorithm="alphabeta"`` the values
                                              alpha-beta returns, bounds written ``"≤ 2"``
``pruning``     :class:`PruningExercise`      the leaves alpha-beta prunes (the tie rule
                                              ``strict=False``, the textbook rule, or ``True``)
``order``       :class:`OrderExercise`        the nodes in the order they are visited
``window``      :class:`WindowExercise`       (α, β) at a named node when it returns
``expectimax``  :class:`ExpectimaxExercise`   the expectimax value of every inner node
``best_move``   :class:`BestMoveExercise`     the best move at the root
``mcts``        :class:`MCTSExercise`         one MCTS playout: the child UCB1 selects, then
                                              ``(visits, mean)`` of the root and that child
                                              after the backup; with ``full=True`` also the
                                              node expansion adds and every child's UCB1
                                              score after the backup (the next selection)
==============  ============================  ===============================================

Every exercise has ``.tree`` (a networkx game tree labelled A, B, C, ... in
breadth-first order), ``.question``, ``.check(answer)`` (a :class:`Feedback`),
``.solution()`` (the answer in the form a learner gives it), ``.result`` (the
engine's :class:`~gametrees.SearchResult`, for ``gt.draw`` / ``gt.replay``),
``.explain()`` (the worked solution as text) and ``.show_solution()``.

The same seed (an int or a string such as a student number) always gives the
same exercise; the root player (``root_player="max"`` or ``"min"``) changes the
roles, not the shape. Difficulty presets (any entry can be overridden by a
keyword argument of the same name):

==========  =====  =========  ===========  ======  ================================================
difficulty  depth  branching  leaf values  ragged  chance trees (``players``, ``probabilities``)
==========  =====  =========  ===========  ======  ================================================
easy        2      3          0..20        no      MAX, chance; equal probabilities
medium      3      2-3        0..20        no      MAX, chance, MIN; varied probabilities
hard        4      2-3        -20..20      yes     MAX, chance, MIN, chance; varied probabilities
==========  =====  =========  ===========  ======  ================================================

*Ragged* trees have leaves at different depths (from depth 2 on) as well as
varying branching. Chance trees are used by :class:`ExpectimaxExercise` and by
``BestMoveExercise(chance=True)``.

Answers are forgiving: nodes by label (``"C"``, ``"c"``) or id (``(1,)``);
sets in any order, as a list, tuple, set or a string ``"I, J"``; values as
numbers or strings (``"2"``, ``"-∞"``, ``"≤ 2"``, ``">= 5"``). A malformed
answer is never an exception: the feedback says what form is expected.

Checkers for a learner's code
-----------------------------
:func:`check_minimax`, :func:`check_alphabeta`, :func:`check_expectimax`,
:func:`check_evaluation` and :func:`check_ucb` run the learner's function on
small trees and positions, catch whatever it raises, and report the smallest
failing case and the deepest node whose value is wrong while its children's
are right, naming the likely misconception.

Every check returns a :class:`Feedback`: ``.ok``, ``.status``, ``.tags``,
``.lines`` (one ✓/✗ line per point), a plain-text ``repr`` and a coloured
``_repr_html_``.

Feedback escalates (issue 19): a first wrong check names every wrong part and
the rule to re-apply there, with no right value, label or bound the learner did
not type; from the second wrong check of the same exercise object on, the same
kind of mistake is worked through on a *twin* (the tree's shape with other leaf
values, see :mod:`~gametrees.exercises.attempts`); the full worked answer comes
only from ``ex.explain()`` / ``ex.show_solution()``. An exercise made with
``try_first=True`` (as the lessons make theirs) opens those, ``.solution()`` and
``.result`` only after an attempt, and a check after the solution was shown says
so and does not count as solved (``Feedback.solved``; see
:mod:`~gametrees.exercises.attempts`). The lessons' checks by function keep their
worked answers the same way: ``solution_position``, ``solution_fast_wins``,
``solution_minimax_claims`` (lesson 02), ``solution_fail_soft_hard`` and
``solution_pruning_order`` (lesson 03), ``solution_scale_choices``,
``solution_quiet_positions``, ``solution_win_depth`` (lesson 04),
``solution_same_up_to_symmetry``, ``solution_window_entries``,
``solution_table_answers`` (lesson 05) and ``solution_chance_pruning`` (lesson 06)
give the note that it opens after an attempt until the exercise was checked
with an answer. A misconception is named,
with a tag from :data:`CATALOGUE`, only when the answer is what it produces;
an answer that cannot be read is "could not read" (status ``"unreadable"``).
Checks of a learner's function may name the small tree and node where it fails
(the tree is not a graded answer).

Modules
-------
Lowest layer first; a module imports only from those above it in this list
(and from :mod:`gametrees.games`, :mod:`~gametrees.search`,
:mod:`~gametrees.trees`, :mod:`~gametrees.trace`), never their ``_private``
names. Nothing here imports matplotlib or ipywidgets.

==========================  ================================================================
``feedback``                :class:`Feedback`, the report builder, the wording helpers
``misconceptions``          the catalogue of misconceptions (:data:`CATALOGUE`: tag, what the
                            learner did, what the feedback says, which checks detect it)
``attempts``                counting checks per exercise; a repeated wrong answer escalates to
                            a worked twin (:func:`escalate`, :func:`counts`); the solution
                            after an attempt (:func:`~attempts.open_solution`)
``answers``                 reading typed answers: numbers, bounds, "pruned", node names
``by_hand``                 the exercises by hand and :func:`generate` (a package: ``trees``,
                            ``search_info``, ``diagnoses``, ``exercise``, ``values``,
                            ``cutoffs``, ``best_move``, ``kinds``)
``code_checks``             the checks of a learner's functions (a package: ``harness``,
                            ``diagnosis``, ``values``, ``pruning``, ``formulas``)
``lessons``                 the checks of the lessons' exercises, one module per lesson
                            (``lessons.l03_alpha_beta``, ...; a package)
==========================  ================================================================

Examples
--------
>>> import gametrees as gt
>>> ex = gt.exercises.ValuesExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
>>> ex.solution()
{'A': 3, 'B': 3, 'C': 2, 'D': 2}
>>> ex.check({"A": 3, "B": 3, "C": 2, "D": 14})
✗ Minimax values: 3 of 4 right.
✓ A = 3
✓ B = 3
✓ C = 2
✗ D: you wrote 14. D is a MIN node: which of its children's values does MIN take? (the smallest)
    Hint: Your 14 is the largest of D's children's values, as if the other player chose at D; but D is a MIN
    node, and MIN takes the smallest. Ask whose turn it is at D.
>>> ex.check({"A": 3, "B": 3, "C": 2, "D": 14}).tags
('roles-inverted',)
>>> print(ex.explain())
  1. B is a MIN node over E = 3, F = 12, G = 8, so its value is 3.
  2. C is a MIN node over H = 2, I = 4, J = 6, so its value is 2.
  3. D is a MIN node over K = 14, L = 5, M = 2, so its value is 2.
  4. A is a MAX node over B = 3, C = 2, D = 2, so its value is 3.
Answer: {'A': 3, 'B': 3, 'C': 2, 'D': 2}
>>> ex = gt.exercises.generate("pruning", seed=7, difficulty="easy")
>>> ex.check(ex.solution()).ok
True
"""

from __future__ import annotations

from .attempts import counts, escalate
from .by_hand import (
    KINDS,
    PRESETS,
    BestMoveExercise,
    Exercise,
    ExpectimaxExercise,
    MCTSExercise,
    OrderExercise,
    PruningExercise,
    ValuesExercise,
    WindowExercise,
    generate,
)
from .code_checks import check_alphabeta, check_evaluation, check_expectimax, check_minimax, check_ucb
from .feedback import Feedback
from .lessons import (
    check_after_two_moves,
    check_chance_pruning,
    check_effective_branching,
    check_exploration_c,
    check_fail_soft_hard,
    check_fast_wins,
    check_final_move,
    check_game_kinds,
    check_minimax_claims,
    check_negamax,
    check_nim_leaves,
    check_order_preserving_flip,
    check_position,
    check_pruning_order,
    check_quiet_positions,
    check_rescaled_choices,
    check_scale_choices,
    check_table_answers,
    check_table_search,
    check_value,
    check_win_depth,
    check_window_entries,
    solution_chance_pruning,
    solution_effective_branching,
    solution_fail_soft_hard,
    solution_fast_wins,
    solution_game_kinds,
    solution_minimax_claims,
    solution_nim_leaves,
    solution_position,
    solution_pruning_order,
    solution_quiet_positions,
    solution_same_up_to_symmetry,
    solution_scale_choices,
    solution_table_answers,
    solution_value,
    solution_win_depth,
    solution_window_entries,
)
from .misconceptions import CATALOGUE, Misconception, misconception

__all__ = [
    "BestMoveExercise",
    "CATALOGUE",
    "Exercise",
    "ExpectimaxExercise",
    "Feedback",
    "KINDS",
    "MCTSExercise",
    "Misconception",
    "OrderExercise",
    "PRESETS",
    "PruningExercise",
    "ValuesExercise",
    "WindowExercise",
    "check_after_two_moves",
    "check_alphabeta",
    "check_chance_pruning",
    "check_effective_branching",
    "check_evaluation",
    "check_expectimax",
    "check_exploration_c",
    "check_fail_soft_hard",
    "check_fast_wins",
    "check_final_move",
    "check_game_kinds",
    "check_minimax",
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
    "check_ucb",
    "check_value",
    "check_win_depth",
    "check_window_entries",
    "counts",
    "escalate",
    "generate",
    "misconception",
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
