"""Moved: :mod:`gametrees.exercises.by_hand` is now ``exercise`` (the :class:`Exercise` base), ``trees``,
``search_info`` and ``diagnoses``.

This module only re-exports the three names that modules outside this package
still import from here (:func:`as_tree`, :func:`inline`, :func:`from_learner`);
import them from :mod:`gametrees.exercises.by_hand` instead, then delete it.
"""

from __future__ import annotations

from .exercise import from_learner
from .trees import as_tree, inline

__all__ = ["as_tree", "from_learner", "inline"]
