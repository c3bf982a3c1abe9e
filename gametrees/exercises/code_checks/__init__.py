"""Checks of a learner's own functions: :func:`check_minimax`, :func:`check_alphabeta`, ...

Each runs the learner's function on small trees and positions (with a budget of
calls, catching whatever it raises, and failing it plainly if it calls
gametrees' own search or evaluation), and reports the smallest failing case and
the deepest node whose value is wrong while its children's are right.

Modules, lowest first (each imports only from those before it, and from
:mod:`gametrees.exercises.feedback`, :mod:`~gametrees.exercises.answers` and
:mod:`~gametrees.exercises.by_hand`): ``guard`` (a learner's function that
hands the work to gametrees' own search or evaluation is stopped and named),
``harness`` (running learner code, test games and trees), ``diagnosis`` (explaining a wrong value), ``values``
(:func:`check_minimax`, :func:`check_expectimax`), ``pruning``
(:func:`check_alphabeta`), ``formulas`` (:func:`check_evaluation`,
:func:`check_ucb`).
"""

from __future__ import annotations

from .formulas import check_evaluation, check_ucb
from .pruning import check_alphabeta
from .values import check_expectimax, check_minimax

__all__ = ["check_alphabeta", "check_evaluation", "check_expectimax", "check_minimax", "check_ucb"]
