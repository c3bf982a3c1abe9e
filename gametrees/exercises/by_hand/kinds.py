"""The kinds of exercise by hand (:data:`KINDS`) and :func:`generate`, which makes one from a seed.

May import: the other modules of :mod:`gametrees.exercises.by_hand`.
"""

from __future__ import annotations

from .best_move import BestMoveExercise
from .cutoffs import OrderExercise, PruningExercise, WindowExercise
from .mcts_steps import MCTSExercise
from .values import ExpectimaxExercise, ValuesExercise

KINDS = {
    "values": ValuesExercise,
    "pruning": PruningExercise,
    "order": OrderExercise,
    "window": WindowExercise,
    "expectimax": ExpectimaxExercise,
    "best_move": BestMoveExercise,
    "mcts": MCTSExercise,
}
_ALIASES = {"best-move": "best_move", "bestmove": "best_move", "best move": "best_move", "move": "best_move",
            "minimax": "values", "value": "values", "prune": "pruning", "visit_order": "order"}


def generate(kind, seed=None, difficulty="easy", **overrides):
    """A seeded exercise of one kind.

    Parameters
    ----------
    kind : {"values", "pruning", "order", "window", "expectimax", "best_move", "mcts"}
    seed : int or str, optional
        The same seed always gives the same exercise (a student number makes
        a personal variant). Default: a random seed, kept in ``.seed``.
    difficulty : {"easy", "medium", "hard"}
        See the presets table in :mod:`gametrees.exercises`.
    **overrides
        Passed to the exercise's class: preset entries (``depth``,
        ``branching``, ``values``, ``ragged``, ``players``, ``probabilities``),
        ``root_player``, ``try_first`` (the solution only after an attempt: see
        :class:`~gametrees.exercises.by_hand.Exercise`), and the kind's own options
        (``strict``, or ``rule="textbook"``/``"strict"``; ``algorithm``, ``node``, ``chance``,
        ``leaves_only``, ``full``).

    Returns
    -------
    Exercise

    Examples
    --------
    >>> ex = generate("values", seed="s1234567", difficulty="medium", root_player="min")
    >>> ex.tree.nodes[ex.tree.graph["root"]]["player"]
    'min'
    >>> ex.check(ex.solution()).ok
    True
    >>> generate("values", seed=3).solution() == generate("values", seed=3).solution()
    True
    """
    if not isinstance(kind, str):
        raise TypeError(f"kind must be a str, one of {sorted(KINDS)}, got {kind!r}")
    key = kind.strip().lower()
    key = _ALIASES.get(key, key.replace("-", "_"))
    if key not in KINDS:
        raise ValueError(f"kind must be one of {sorted(KINDS)}, got {kind!r}")
    return KINDS[key](seed=seed, difficulty=difficulty, **overrides)
