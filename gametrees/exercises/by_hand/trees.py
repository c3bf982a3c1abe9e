"""The trees of the exercises by hand: presets, seeded random trees and their twins, given trees, the tree as
text.

The difficulty :data:`PRESETS` and :func:`settings_for` (a preset with a
learner's overrides, checked), :func:`check_seed`, the seeded random trees
(:func:`random_spec`) and :func:`twin_trees` (the same shape with other leaf
values, for worked examples that are not the exercise's answer),
:func:`as_tree` (a given tree, checked and labelled), :func:`child_probs`, and
the tree as text (:func:`outline`, :func:`inline`, :func:`leaves_under`).

May import: the standard library, networkx, :mod:`gametrees.games`,
:mod:`gametrees.trees` and :mod:`gametrees.exercises.feedback`.

Examples
--------
>>> import random
>>> from gametrees.exercises.answers import NodeNames
>>> G = as_tree([[3, 12], [2, 4]], None)
>>> inline(G, NodeNames(G))
'A:max(B:min(D=3, E=12), C:min(F=2, G=4))'
>>> H = next(twin_trees(G, random.Random(1)))      # the same shape, other leaf values
>>> leaves = lambda T: [T.nodes[n]["utility"] for n in T if not T.out_degree(n)]
>>> sorted(H.edges) == sorted(G.edges), leaves(H) != leaves(G)
(True, True)
"""

from __future__ import annotations

import math
import numbers
import random

import networkx as nx

from ...games import CHANCE, MAX, MIN
from ...trees import textbook_labels, tree_from_nested, validate_tree
from ..feedback import ROLE_NAMES, fmt, fmt_prob

__all__ = ["PRESETS", "as_tree", "check_seed", "child_probs", "inline", "leaves_under", "outline",
           "random_spec", "settings_for", "twin_trees"]

PRESETS = {
    "easy": {"depth": 2, "branching": (3, 3), "values": (0, 20), "ragged": False,
             "players": (MAX, CHANCE), "probabilities": "equal"},
    "medium": {"depth": 3, "branching": (2, 3), "values": (0, 20), "ragged": False,
               "players": (MAX, CHANCE, MIN), "probabilities": "varied"},
    "hard": {"depth": 4, "branching": (2, 3), "values": (-20, 20), "ragged": True,
             "players": (MAX, CHANCE, MIN, CHANCE), "probabilities": "varied"},
}

# Outcome probabilities with short decimals, so expected values stay readable.
_PROBS = {
    2: ((0.5, 0.5), (0.25, 0.75), (0.75, 0.25), (0.2, 0.8), (0.8, 0.2), (0.4, 0.6), (0.6, 0.4),
        (0.1, 0.9), (0.9, 0.1), (0.3, 0.7), (0.7, 0.3)),
    3: ((0.2, 0.3, 0.5), (0.5, 0.3, 0.2), (0.25, 0.25, 0.5), (0.5, 0.25, 0.25), (0.25, 0.5, 0.25),
        (0.1, 0.3, 0.6), (0.6, 0.3, 0.1), (0.4, 0.4, 0.2), (0.2, 0.2, 0.6)),
    4: ((0.1, 0.2, 0.3, 0.4), (0.4, 0.3, 0.2, 0.1), (0.25, 0.25, 0.25, 0.25), (0.1, 0.4, 0.4, 0.1),
        (0.2, 0.2, 0.3, 0.3)),
}
_MAX_LEAVES = 1000


def check_seed(seed):
    """The seed as given (an int or a str), or a fresh random one for ``None``; a TypeError for anything
    else."""
    if seed is None:
        return random.SystemRandom().randrange(1_000_000)
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise TypeError(f"seed must be an int or a str (e.g. a student number), got {seed!r}")
    return seed


def _int_pair(value, name, low):
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an int or a (lo, hi) pair of ints, got {value!r}")
    if isinstance(value, int):
        value = (value, value)
    try:
        lo, hi = value
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an int or a (lo, hi) pair of ints, got {value!r}") from None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (lo, hi)):
        raise TypeError(f"{name} must be an int or a (lo, hi) pair of ints, got {value!r}")
    if lo > hi or (low is not None and lo < low):
        need = f"{low} <= lo <= hi" if low is not None else "lo <= hi"
        raise ValueError(f"{name} must satisfy {need}, got {value!r}")
    return lo, hi


def settings_for(difficulty, chance, overrides):
    """The preset for ``difficulty`` with ``overrides`` applied and checked."""
    if difficulty not in PRESETS:
        raise ValueError(f"difficulty must be one of {sorted(PRESETS)}, got {difficulty!r}")
    p = dict(PRESETS[difficulty])
    for key, value in overrides.items():
        if value is not None:
            p[key] = value
    depth = p["depth"]
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise TypeError(f"depth must be an int, got {depth!r}")
    if not 1 <= depth <= 8:
        raise ValueError(f"depth must be between 1 and 8 for an exercise, got {depth}")
    p["branching"] = _int_pair(p["branching"], "branching", 1)
    p["values"] = _int_pair(p["values"], "values", None)
    if not isinstance(p["ragged"], bool):
        raise TypeError(f"ragged must be True or False, got {p['ragged']!r}")
    if p["branching"][1] ** depth > _MAX_LEAVES:
        raise ValueError(
            f"branching {p['branching']} and depth {depth} allow up to {p['branching'][1] ** depth:,} "
            f"leaves; an exercise is kept under {_MAX_LEAVES}"
        )
    if p["probabilities"] not in ("equal", "varied"):
        raise ValueError(f"probabilities must be 'equal' or 'varied', got {p['probabilities']!r}")
    players = tuple(p["players"])
    if not players or any(x not in (MAX, MIN, CHANCE) for x in players):
        raise ValueError(f"players must be a sequence of 'max', 'min', 'chance', got {p['players']!r}")
    root = p.get("root_player") or MAX
    if root not in (MAX, MIN):
        raise ValueError(f"root_player must be 'max' or 'min', got {root!r}")
    if root == MIN:
        players = tuple({MAX: MIN, MIN: MAX}.get(x, x) for x in players)
    p["root_player"] = root
    p["players"] = players if chance else None
    return p


def random_spec(rng, p):
    """A nested-list spec (dict nodes for chance trees) drawn from ``rng``."""
    depth, (lo_b, hi_b), (lo_v, hi_v) = p["depth"], p["branching"], p["values"]
    ragged, players, varied = p["ragged"], p["players"], p["probabilities"] == "varied"

    def build(level):
        if level == depth or (ragged and depth >= 3 and level >= 2 and rng.random() < 0.3):
            return rng.randint(lo_v, hi_v)
        k = rng.randint(lo_b, hi_b)
        player = players[level % len(players)] if players else None
        if player == CHANCE and k < 2 <= hi_b:
            k = 2
        kids = [build(level + 1) for _ in range(k)]
        if player is None:
            return kids
        node = {player: kids}
        if player == CHANCE and varied and k in _PROBS:
            node["p"] = list(rng.choice(_PROBS[k]))
        return node

    return build(0)


def as_tree(tree, root_player):
    """A checked copy of the learner's or instructor's tree, with labels."""
    if root_player is not None and root_player not in (MAX, MIN, CHANCE):
        raise ValueError(f"root_player must be 'max' or 'min', got {root_player!r}")
    if isinstance(tree, nx.Graph):
        validate_tree(tree)
        G = tree.copy()
        if root_player is not None and G.nodes[G.graph["root"]].get("player") != root_player:
            raise ValueError(
                f"root_player={root_player!r}, but the tree's root is a "
                f"{G.nodes[G.graph['root']].get('player')!r} node: leave root_player out for a given graph"
            )
    elif isinstance(tree, (list, tuple, dict, numbers.Real)):
        G = tree_from_nested(tree, root_player=root_player or MAX)
    else:
        raise TypeError(
            f"tree must be a game tree (networkx.DiGraph) or nested lists such as [[3, 12], [2, 4]], "
            f"got {type(tree).__name__}"
        )
    labels = textbook_labels(G)
    for n in G:
        G.nodes[n].setdefault("label", labels[n])
    if not G.out_degree(G.graph["root"]):
        raise ValueError("the tree is a single leaf: an exercise needs at least one move")
    return G


def child_probs(G, n):
    """``{child: probability}`` of a chance node (uniform when not given)."""
    kids = list(G.successors(n))
    if kids and "prob" in G.edges[n, kids[0]]:
        return {c: G.edges[n, c]["prob"] for c in kids}
    return {c: 1 / len(kids) for c in kids}


def _node_text(G, n, label):
    attrs = G.nodes[n]
    if G.out_degree(n):
        return f"{label}  {ROLE_NAMES.get(attrs.get('player'), '?')}"
    return f"{label} = {fmt(attrs['utility'])}"


def outline(G, nodes):
    """The tree as indented text, one node a line."""
    lines = []

    def walk(n, prefix, last, top):
        text = _node_text(G, n, nodes.name(n))
        parents = list(G.predecessors(n))
        if parents:
            p = parents[0]
            edge = G.edges[p, n]
            if G.nodes[p].get("player") == CHANCE:
                text = f"p = {fmt_prob(child_probs(G, p)[n])}: {text}"
            if "move" in edge:
                text = f"[{edge['move']}] {text}"
        if top:
            lines.append(text)
            child_prefix = ""
        else:
            lines.append(prefix + ("└─ " if last else "├─ ") + text)
            child_prefix = prefix + ("   " if last else "│  ")
        kids = list(G.successors(n))
        for i, c in enumerate(kids):
            walk(c, child_prefix, i == len(kids) - 1, False)

    walk(G.graph["root"], "", True, True)
    return "\n".join(lines)


def inline(G, nodes, n=None):
    """The tree on one line: ``A:max(B:min(E=3, F=12), C=4)``."""
    n = G.graph["root"] if n is None else n
    attrs = G.nodes[n]
    name = nodes.name(n)
    kids = list(G.successors(n))
    if not kids:
        return f"{name}={fmt(attrs['utility'])}"
    parts = []
    probs = child_probs(G, n) if attrs.get("player") == CHANCE else None
    for c in kids:
        s = inline(G, nodes, c)
        parts.append(f"{fmt_prob(probs[c])}×{s}" if probs is not None else s)
    return f"{name}:{attrs.get('player')}({', '.join(parts)})"


def leaves_under(G, n):
    """The leaves below ``n`` (``n`` itself if it is a leaf), in depth-first order."""
    if not G.out_degree(n):
        return [n]
    return [m for m in nx.dfs_preorder_nodes(G, n) if not G.out_degree(m)]


def twin_trees(G, rng, tries=60):
    """Trees of ``G``'s shape (same nodes, players, probabilities, labels) with other leaf values.

    The new values are drawn from the range of ``G``'s leaf values (widened to at least 10 wide), and
    every leaf gets a value, so no twin repeats ``G``. Yields up to ``tries`` twins.
    """
    leaves = [n for n in G if not G.out_degree(n)]
    utils = [G.nodes[n]["utility"] for n in leaves]
    finite = [u for u in utils if isinstance(u, numbers.Real) and math.isfinite(u)] or [0]
    lo, hi = int(math.floor(min(finite))), int(math.ceil(max(finite)))
    if hi - lo < 10:
        hi = lo + 10
    for _ in range(tries):
        H = G.copy()
        for n in leaves:
            H.nodes[n]["utility"] = rng.randint(lo, hi)
        if [H.nodes[n]["utility"] for n in leaves] != utils:
            yield H
