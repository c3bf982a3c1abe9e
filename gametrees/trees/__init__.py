"""Game trees as networkx graphs: the schema, the builders, and the tree as a game.

* :mod:`~gametrees.trees.schema`: what a game tree is (a
  :class:`networkx.DiGraph` with a ``root``, players on inner nodes,
  utilities on leaves, probabilities on chance edges), :func:`validate_tree`
  that checks it, and the depth limit :data:`MAX_PLIES` with
  :func:`deep_recursion`;
* :mod:`~gametrees.trees.builders`: trees from nested lists
  (:func:`tree_from_nested`), from a dict or JSON text (:func:`tree_from_dict`,
  :func:`read_json`), at random (:func:`random_tree`), or by expanding a game
  (:func:`expand`); :func:`textbook_labels`;
* :mod:`~gametrees.trees.game`: :class:`TreeGame`, a tree seen as a game whose
  states are node ids, so that every search algorithm exists once, and
  :func:`as_game`.

Imports: :mod:`gametrees.games` and networkx (never :mod:`gametrees.search`,
which is built on trees).
"""

from .builders import MAX_RANDOM_LEAVES as MAX_RANDOM_LEAVES
from .builders import expand, random_tree, read_json, textbook_labels, tree_from_dict, tree_from_nested
from .game import TreeGame, as_game
from .schema import MAX_PLIES, deep_recursion, validate_tree
from .schema import PLAYERS as PLAYERS

__all__ = [
    "MAX_PLIES",
    "TreeGame",
    "as_game",
    "deep_recursion",
    "expand",
    "random_tree",
    "read_json",
    "textbook_labels",
    "tree_from_dict",
    "tree_from_nested",
    "validate_tree",
]
