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
``pruning``     :class:`PruningExercise`      the leaves alpha-beta prunes (``rule=
                                              "textbook"`` or ``"strict"``)
``order``       :class:`OrderExercise`        the nodes in the order they are visited
``window``      :class:`WindowExercise`       (α, β) at a named node when it returns
``expectimax``  :class:`ExpectimaxExercise`   the expectimax value of every inner node
``best_move``   :class:`BestMoveExercise`     the best move at the root
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

Every check returns a :class:`Feedback`: ``.ok``, ``.lines`` (one ✓/✗ line
per point), a plain-text ``repr`` and a coloured ``_repr_html_``.

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
✗ D: you wrote 14, but D is a MIN node over K = 14, L = 5, M = 2, so its value is 2.
    Hint: You took the largest value, but MIN picks the smallest. Ask whose turn it is at D.
>>> ex = gt.exercises.generate("pruning", seed=7, difficulty="easy")
>>> ex.check(ex.solution()).ok
True
"""

from __future__ import annotations

import ast
import contextlib
import html
import inspect
import io
import math
import numbers
import os
import random
import re
import traceback
from collections.abc import Mapping

import networkx as nx

from .games import CHANCE, MAX, MIN, Game, TicTacToe
from .search import alphabeta, expectimax, minimax
from .trace import fmt as _engine_fmt
from .trees import TreeGame, expand, textbook_labels, tree_from_nested, validate_tree

__all__ = [
    "BestMoveExercise",
    "Exercise",
    "ExpectimaxExercise",
    "Feedback",
    "KINDS",
    "OrderExercise",
    "PRESETS",
    "PruningExercise",
    "ValuesExercise",
    "WindowExercise",
    "check_after_two_moves",
    "check_alphabeta",
    "check_average_branching",
    "check_careless_table",
    "check_count_leaves",
    "check_depth_limited",
    "check_evaluation",
    "check_expectimax",
    "check_fast_wins",
    "check_final_move",
    "check_game_kinds",
    "check_mcts",
    "check_minimax",
    "check_negamax",
    "check_order_preserving_flip",
    "check_ordering_counts",
    "check_ucb",
    "check_value",
    "check_win_depth",
    "generate",
]

INF = math.inf
_ROLE = {MAX: "MAX", MIN: "MIN", CHANCE: "chance"}
_RULES = ("textbook", "strict")


# ============================================================================
# Feedback
# ============================================================================

_MARK = {"good": "✓", "bad": "✗", "note": "•"}
# Okabe-Ito colours (distinguishable with colour-blindness); the marks carry
# the meaning too, so colour is never the only signal.
_COLOUR = {"good": "#0072B2", "bad": "#D55E00", "note": "#555555"}


class Feedback:
    """The verdict on an answer or on a learner's function.

    Attributes
    ----------
    ok : bool
        True when nothing is wrong (notes do not count against it).
    title : str
        One-line summary.
    items : list of (kind, text, hint)
        ``kind`` is ``"good"`` (✓), ``"bad"`` (✗) or ``"note"`` (•);
        ``hint`` is an optional longer explanation (or ``None``).
    tree : networkx.DiGraph or None
        For function checkers: the smallest tree on which the function
        failed, ready to draw.

    Examples
    --------
    >>> fb = Feedback("Best move: right.", [("good", "B is a best move.", None)])
    >>> fb.ok, fb.lines
    (True, ['✓ B is a best move.'])
    >>> fb
    ✓ Best move: right.
    ✓ B is a best move.
    """

    def __init__(self, title, items=()):
        self.title = str(title)
        self.items = [(kind, str(text), None if hint is None else str(hint)) for kind, text, hint in items]
        for kind, _, _ in self.items:
            if kind not in _MARK:
                raise ValueError(f"feedback item kind must be 'good', 'bad' or 'note', got {kind!r}")
        self.ok = not any(kind == "bad" for kind, _, _ in self.items)
        self.tree = None

    @property
    def lines(self):
        """The messages, one per point, each starting with ✓, ✗ or •."""
        return [f"{_MARK[kind]} {text}" for kind, text, _ in self.items]

    @property
    def hints(self):
        """The hints, in order (only items that have one)."""
        return [hint for _, _, hint in self.items if hint]

    @property
    def score(self):
        """``(right, checked)``: the number of ✓ points and of ✓ + ✗ points."""
        good = sum(kind == "good" for kind, _, _ in self.items)
        bad = sum(kind == "bad" for kind, _, _ in self.items)
        return good, good + bad

    def __bool__(self):
        return self.ok

    def __repr__(self):
        out = [f"{_MARK['good' if self.ok else 'bad']} {self.title}"]
        for kind, text, hint in self.items:
            out.append(f"{_MARK[kind]} {text}")
            if hint:
                out.append(f"    Hint: {hint}")
        return "\n".join(out)

    __str__ = __repr__

    def _repr_html_(self):
        esc = html.escape
        head = "good" if self.ok else "bad"
        parts = [
            '<div class="gametrees-feedback" style="font-family: sans-serif; line-height: 1.45">',
            f'<div style="font-weight: bold; color: {_COLOUR[head]}">{_MARK[head]} {esc(self.title)}</div>',
            '<ul style="list-style: none; margin: 0.25em 0; padding-left: 0.4em">',
        ]
        for kind, text, hint in self.items:
            li = f'<li style="color: {_COLOUR[kind]}; margin: 0.15em 0">{_MARK[kind]} {esc(text)}'
            if hint:
                li += (
                    '<details style="margin-left: 1.4em; color: #222222">'
                    f"<summary>Hint</summary>{esc(hint)}</details>"
                )
            parts.append(li + "</li>")
        parts.append("</ul></div>")
        return "\n".join(parts)


class _Report:
    """Collects feedback items, then makes a :class:`Feedback`."""

    def __init__(self):
        self.items = []
        self._hints = set()

    def _add(self, kind, text, hint):
        if hint in self._hints:
            hint = None  # a hint is given once
        elif hint:
            self._hints.add(hint)
        self.items.append((kind, text, hint))

    def good(self, text, hint=None):
        self._add("good", text, hint)

    def bad(self, text, hint=None):
        self._add("bad", text, hint)

    def note(self, text, hint=None):
        self._add("note", text, hint)

    def feedback(self, what, unit="right", count_ok=True):
        good = sum(k == "good" for k, _, _ in self.items)
        bad = sum(k == "bad" for k, _, _ in self.items)
        if not bad:
            title = f"{what}: all {good} {unit}." if good > 1 and count_ok else f"{what}: {unit}."
        else:
            title = f"{what}: {good} of {good + bad} {unit}."
        return Feedback(title, self.items)


def _malformed(what, message):
    return Feedback(f"{what}: the answer could not be read.", [("bad", message, None)])


# ============================================================================
# Formatting
# ============================================================================


def _fmt(x):
    """A value as a learner would write it: 3, 2.5, 9.75, +∞, -∞."""
    if isinstance(x, numbers.Real) and not isinstance(x, (bool, numbers.Integral)):
        x = float(x)
        if math.isinf(x) or math.isnan(x):
            return _engine_fmt(x)
        r = round(x, 4)
        if r == int(r) and abs(r) < 1e15:
            return str(int(r))
        return f"{r:.4f}".rstrip("0").rstrip(".")
    return _engine_fmt(x)


def _and(names):
    names = [str(n) for n in names]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _or(names):
    names = [str(n) for n in names]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


def _prob(p):
    """A probability as shown: 0.25, or 1/3 for thirds, sixths, ..."""
    for k in (3, 6, 7, 9, 11, 12):
        for j in range(1, k):
            if abs(p - j / k) < 1e-9 and round(p, 4) != p:
                return f"{j}/{k}"
    return _fmt(p)


def _plain(x):
    """A number for a solution: an int when it is integral, else a float."""
    if isinstance(x, float) and math.isfinite(x) and x.is_integer():
        return int(x)
    if isinstance(x, float) and math.isfinite(x):
        return round(x, 10)
    return x


def _close(a, b, tol=1e-9):
    if math.isinf(a) or math.isinf(b):
        return a == b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=tol)


def _pair(n):
    """'is'/'are' for a list."""
    return "is" if len(n) == 1 else "are"


# ============================================================================
# Reading answers
# ============================================================================


class _Bad(Exception):
    """An answer that cannot be read; the message says what was expected."""


_PRUNED_WORDS = {"pruned", "prune", "x", "-", "—", "none", "skipped", "not visited", "unvisited"}
_INF_WORDS = {"inf", "+inf", "infinity", "+infinity", "∞", "+∞", "math.inf", "+math.inf", "float('inf')"}
_NEG_INF_WORDS = {"-inf", "-infinity", "-∞", "-math.inf", "float('-inf')", "-float('inf')"}
_OPS = (("<=", "le"), (">=", "ge"), ("=<", "le"), ("=>", "ge"), ("==", "eq"), ("≤", "le"), ("≥", "ge"),
        ("<", "lt"), (">", "gt"), ("=", "eq"))
_OP_TEXT = {"eq": "", "le": "≤ ", "ge": "≥ ", "lt": "< ", "gt": "> "}


def _number_text(s, original):
    t = s.strip().lower().replace(" ", "")
    if t in _INF_WORDS:
        return INF
    if t in _NEG_INF_WORDS:
        return -INF
    try:
        return int(t)
    except ValueError:
        pass
    try:
        v = float(t)
    except ValueError:
        m = re.fullmatch(r"([+-]?\d+)/(\d+)", t)
        if not m or int(m.group(2)) == 0:
            raise _Bad(f"{original!r} is not a number") from None
        return int(m.group(1)) / int(m.group(2))
    if math.isnan(v):
        raise _Bad(f"{original!r} is not a number")
    return v


def _parse_value(x, allow_pruned=False):
    """An answer value as ``(op, number)``; op is eq, le, ge, lt or gt.

    ``("pruned", None)`` when ``allow_pruned`` and the learner wrote e.g. "pruned".
    """
    if x is None and allow_pruned:
        return "pruned", None
    if isinstance(x, bool) or x is None:
        raise _Bad(f"{x!r} is not a number")
    if isinstance(x, numbers.Real):
        v = float(x) if not isinstance(x, numbers.Integral) else int(x)
        if isinstance(v, float) and math.isnan(v):
            raise _Bad("NaN is not a value")
        return "eq", v
    if not isinstance(x, str):
        raise _Bad(f"{x!r} ({type(x).__name__}) is not a number")
    s = x.strip().replace("−", "-").replace("–", "-")
    if allow_pruned and s.lower() in _PRUNED_WORDS:
        return "pruned", None
    # "C ≤ 2", "v >= 5": drop a leading name before an operator.
    m = re.match(r"^[^\W\d]\w*\s*(?=(<=|>=|=<|=>|==|≤|≥|<|>|=))", s)
    if m:
        s = s[m.end():]
    op = "eq"
    for token, name in _OPS:
        if s.startswith(token):
            op, s = name, s[len(token):]
            break
    return op, _number_text(s, x)


class _Nodes:
    """Labels and ids of a tree's nodes, and answers that name them."""

    def __init__(self, G):
        self.G = G
        self.root = G.graph["root"]
        self.order = [self.root] + [v for _, v in nx.bfs_edges(G, self.root)]
        self.index = {n: i for i, n in enumerate(self.order)}
        self.depth = nx.single_source_shortest_path_length(G, self.root)
        self.label = {n: str(G.nodes[n].get("label", n)) for n in G}
        self.by_label = {}
        for n in self.order:
            self.by_label.setdefault(self.label[n], n)
        self.by_folded = {}
        for lab, n in self.by_label.items():
            self.by_folded.setdefault(lab.casefold(), []).append(n)
        self.single_letters = all(len(lab) == 1 for lab in self.by_label)

    def name(self, n):
        return self.label[n]

    def names(self, ns):
        return _and(self.name(n) for n in self.sorted(ns))

    def sorted(self, ns):
        return sorted(ns, key=self.index.__getitem__)

    def span(self):
        first, last = self.name(self.order[0]), self.name(self.order[-1])
        return f"{first} to {last}" if len(self.order) > 2 else _and([first, last])

    def resolve(self, ref):
        """The node ``ref`` names (a label, an id, or an id written as text), else None."""
        if isinstance(ref, str):
            s = ref.strip().strip("'\"")
            if s in self.by_label:
                return self.by_label[s]
            folded = self.by_folded.get(s.casefold(), [])
            if len(folded) == 1:
                return folded[0]
            if s.startswith("("):
                try:
                    value = ast.literal_eval(s)
                except (ValueError, SyntaxError):
                    return None
                return self.resolve(value) if not isinstance(value, str) else None
            if ref in self.G:
                return ref
            return None
        try:
            if ref in self.G:
                return ref
        except TypeError:
            return None
        if isinstance(ref, list):
            return self.resolve(tuple(ref))
        return None

    def many(self, answer, what):
        """Read a set or sequence of nodes: ``(nodes in the given order, unknown refs)``."""
        if isinstance(answer, str):
            refs = self._tokens(answer)
        elif isinstance(answer, (set, frozenset)):
            refs = sorted(answer, key=lambda r: (self.index.get(self.resolve(r), len(self.index)), repr(r)))
        elif isinstance(answer, (list, tuple)):
            if isinstance(answer, tuple) and self.resolve(answer) is not None and answer in self.G:
                refs = [answer]
            else:
                refs = list(answer)
        elif isinstance(answer, Mapping):
            raise _Bad(f"give {what} as a list or a string such as \"I, J\", not a dict")
        elif answer is None:
            refs = []
        else:
            n = self.resolve(answer)
            if n is None:
                raise _Bad(f"give {what} as a list of node labels, such as ['I', 'J'] or \"I, J\"; "
                           f"got {answer!r}")
            refs = [answer]
        nodes, unknown = [], []
        for ref in refs:
            n = self.resolve(ref)
            if n is not None:
                nodes.append(n)
            elif (isinstance(ref, str) and self.single_letters and len(ref.strip()) > 1
                  and ref.strip().isalpha() and sum(self.resolve(ch) is not None for ch in ref.strip()) > 1):
                for ch in ref.strip():  # "IJ" for I, J
                    if self.resolve(ch) is not None:
                        nodes.append(self.resolve(ch))
                    else:
                        unknown.append(ch)
            else:
                unknown.append(ref)
        return nodes, unknown

    def _tokens(self, text):
        s = text.strip()
        if s.lower() in ("", "none", "nothing", "-", "{}", "[]", "()", "∅", "ø", "set()"):
            return []
        if "(" in s:
            try:
                value = ast.literal_eval(s)
            except (ValueError, SyntaxError):
                value = None
            if isinstance(value, tuple) and value in self.G:
                return [value]
            if isinstance(value, (list, tuple, set)):
                return list(value)
        s = s.strip("{}[]")
        return [t.strip("'\"") for t in re.split(r"[\s,;]+", s) if t.strip("'\"")]

    def unknown_text(self, refs):
        shown = ", ".join(repr(r) for r in refs)
        return (f"There is no node {shown} in this tree: name nodes by their labels "
                f"({self.span()}) or their ids, such as {self.root!r}.")


# ============================================================================
# Trees: generation, outlines
# ============================================================================

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


def _check_seed(seed):
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


def _settings(difficulty, chance, overrides):
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


def _random_spec(rng, p):
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


def _as_tree(tree, root_player):
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


def _probs(G, n):
    """``{child: probability}`` of a chance node (uniform when not given)."""
    kids = list(G.successors(n))
    if kids and "prob" in G.edges[n, kids[0]]:
        return {c: G.edges[n, c]["prob"] for c in kids}
    return {c: 1 / len(kids) for c in kids}


def _node_text(G, n, label):
    attrs = G.nodes[n]
    if G.out_degree(n):
        return f"{label}  {_ROLE.get(attrs.get('player'), '?')}"
    return f"{label} = {_fmt(attrs['utility'])}"


def _outline(G, nodes):
    """The tree as indented text, one node a line."""
    lines = []

    def walk(n, prefix, last, top):
        text = _node_text(G, n, nodes.name(n))
        parents = list(G.predecessors(n))
        if parents:
            p = parents[0]
            edge = G.edges[p, n]
            if G.nodes[p].get("player") == CHANCE:
                text = f"p = {_prob(_probs(G, p)[n])}: {text}"
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


def _inline(G, nodes, n=None):
    """The tree on one line: ``A:max(B:min(E=3, F=12), C=4)``."""
    n = G.graph["root"] if n is None else n
    attrs = G.nodes[n]
    name = nodes.name(n)
    kids = list(G.successors(n))
    if not kids:
        return f"{name}={_fmt(attrs['utility'])}"
    parts = []
    probs = _probs(G, n) if attrs.get("player") == CHANCE else None
    for c in kids:
        s = _inline(G, nodes, c)
        parts.append(f"{_prob(probs[c])}×{s}" if probs is not None else s)
    return f"{name}:{attrs.get('player')}({', '.join(parts)})"


# ============================================================================
# Reading a search: windows, cutoffs and their reasons (from the engine's trace)
# ============================================================================


class _Cut:
    """One cutoff of an alpha-beta search, as the trace recorded it."""

    __slots__ = ("node", "player", "child", "value", "alpha", "beta", "strict", "pruned", "source")

    def __init__(self, **kw):
        for k, v in kw.items():
            setattr(self, k, v)

    @property
    def tie(self):
        return self.value == (self.alpha if self.player == MIN else self.beta)

    def text(self, nodes, pruned=True):
        """'after H returns 2 to C, 2 ≤ α = 3 (MAX can already get 3 at A), so C stops: ...'"""
        v = _fmt(self.value)
        if self.player == MIN:
            op = "<" if self.strict else "≤"
            bound = f"α = {_fmt(self.alpha)}"
            why = f" (MAX can already get {_fmt(self.alpha)} at {nodes.name(self.source)})" if self.source is not None else ""
        else:
            op = ">" if self.strict else "≥"
            bound = f"β = {_fmt(self.beta)}"
            why = (f" (MIN can already hold MAX to {_fmt(self.beta)} at {nodes.name(self.source)})"
                   if self.source is not None else "")
        s = (f"after {nodes.name(self.child)} returns {v} to {nodes.name(self.node)}, "
             f"{v} {op} {bound}{why}, so {nodes.name(self.node)} stops")
        if pruned and self.pruned:
            s += f": {nodes.names(self.pruned)} {_pair(self.pruned)} never looked at"
        return s


class _SearchInfo:
    """What a traced search did at each node, read from its trace.

    ``call_window[n]``: the window n was searched with (a leaf: its parent's
    window at that moment); ``before[n]``: the parent's value so far when n was
    reached (None for a first child); ``enter_source[n]``: the ancestors that
    set n's alpha and beta; ``updates[n]``: the update events at n; ``cut_at[n]``
    and ``cut_of[c]`` (c a pruned child): the cutoff at n / that pruned c.
    """

    def __init__(self, result, nodes):
        G = nodes.G
        self.call_window, self.before, self.enter_source = {}, {}, {}
        self.updates, self.cut_at, self.cut_of = {}, {}, {}
        self.cuts = []
        trace = result.trace or []
        cur_win, cur_val = {}, {}

        def ancestors(n):
            out = []
            while True:
                ps = list(G.predecessors(n))
                if not ps:
                    return out[::-1]  # root first
                n = ps[0]
                out.append(n)

        def source(n, player, value):
            if value is None or math.isinf(value):
                return None
            for a in ancestors(n):
                if G.nodes[a].get("player") == player and cur_val.get(a) == value:
                    return a
            return None

        for k, e in enumerate(trace):
            n = e.node
            if e.kind == "enter":
                self.call_window[n] = (e.alpha, e.beta)
                self.before[n] = cur_val.get(e.parent)
                cur_win[n] = (e.alpha, e.beta)
                self.enter_source[n] = (source(n, MAX, e.alpha), source(n, MIN, e.beta))
            elif e.kind in ("leaf", "estimate", "hit"):
                self.call_window[n] = cur_win.get(e.parent, (None, None))
                self.before[n] = cur_val.get(e.parent)
            elif e.kind == "update":
                cur_val[n] = e.value
                if e.alpha is not None:
                    cur_win[n] = (e.alpha, e.beta)
                self.updates.setdefault(n, []).append(e)
            elif e.kind == "prune":
                last = self.updates[n][-1]
                cut = _Cut(node=n, player=e.player, child=last.info[0], value=e.value, alpha=e.alpha,
                           beta=e.beta, strict=e.info[3] == "strict", pruned=tuple(e.info[0]),
                           source=source(n, MAX if e.player == MIN else MIN,
                                         e.alpha if e.player == MIN else e.beta))
                self.cut_at[n] = cut
                self.cuts.append(cut)
                for c in e.info[0]:
                    self.cut_of[c] = cut
        self._G = G

    def cut_for(self, n):
        """The cutoff that pruned ``n`` (or the pruned ancestor it lies under)."""
        G = self._G
        while n not in self.cut_of:
            ps = list(G.predecessors(n))
            if not ps:
                return None
            n = ps[0]
        return self.cut_of[n]


def _leaves_under(G, n):
    if not G.out_degree(n):
        return [n]
    return [m for m in nx.dfs_preorder_nodes(G, n) if not G.out_degree(m)]


# ============================================================================
# Exercises
# ============================================================================


class Exercise:
    """Common ground of the exercises (use a subclass, or :func:`generate`).

    Parameters
    ----------
    tree : networkx.DiGraph or nested lists, optional
        A given tree (nested lists are built with :func:`~gametrees.tree_from_nested`).
        Without it, a tree is drawn from ``seed`` and ``difficulty``.
    seed : int or str, optional
        The same seed always gives the same exercise (default: a random seed,
        kept in ``.seed`` so the exercise can be made again).
    difficulty : {"easy", "medium", "hard"}
        A preset (see the table in :mod:`gametrees.exercises`).
    root_player : {"max", "min"}, optional
        Who moves at the root (default MAX).
    depth, branching, values, ragged, players, probabilities : optional
        Override one entry of the preset.

    Attributes
    ----------
    tree : networkx.DiGraph
    question : str
    result : SearchResult
        The engine's search, for ``gt.draw(ex.result)`` / ``gt.replay(ex.result)``.
    seed, difficulty, kind
    """

    kind = "exercise"
    _chance = False
    _what = "Answer"

    def __init__(self, tree=None, *, seed=None, difficulty="easy", root_player=None, depth=None,
                 branching=None, values=None, ragged=None, players=None, probabilities=None):
        overrides = {"depth": depth, "branching": branching, "values": values, "ragged": ragged,
                     "players": players, "probabilities": probabilities, "root_player": root_player}
        if tree is not None:
            given = [k for k, v in overrides.items() if v is not None and k != "root_player"]
            if seed is not None or given:
                raise ValueError(
                    f"give either a tree or settings to draw one (seed, {', '.join(given) or 'depth, ...'}), not both"
                )
            self.seed = None
            self.difficulty = None
            self.settings = None
            self.tree = _as_tree(tree, root_player)
            self._rng = random.Random(0)
        else:
            self.settings = _settings(difficulty, self._chance, overrides)
            self.difficulty = difficulty
            self.seed = _check_seed(seed)
            self._rng = random.Random(self.seed)
            self.tree = self._draw_tree()
        self.nodes = _Nodes(self.tree)
        self.root_player = self.tree.nodes[self.nodes.root].get("player")
        self._setup()
        self.question = self._question()

    # -- making the tree ------------------------------------------------------

    def _draw_tree(self):
        G = None
        for _ in range(40):
            spec = _random_spec(self._rng, self.settings)
            G = tree_from_nested(spec, root_player=self.settings["root_player"])
            if self._interesting(G):
                break
        return G

    def _interesting(self, G):
        return True

    # -- to override ----------------------------------------------------------

    def _setup(self):
        raise NotImplementedError

    def _question(self):
        raise NotImplementedError

    def check(self, answer):
        """Check ``answer``; return a :class:`Feedback` (never raises on a malformed answer)."""
        raise NotImplementedError

    def solution(self):
        """The answer, in the form a learner gives it."""
        raise NotImplementedError

    # -- shared ---------------------------------------------------------------

    def outline(self):
        """The tree as indented text (labels, players, leaf values, probabilities)."""
        return _outline(self.tree, self.nodes)

    def explain(self):
        """The worked solution as text: the engine's search, one sentence a step."""
        return "\n".join(f"{i:>3}. {e.text}" for i, e in enumerate(self.result.trace, 1))

    def show_solution(self, replay=False, **kwargs):
        """Show the worked solution: ``gt.draw(ex.result)``, or ``gt.replay`` with ``replay=True``.

        Extra keyword arguments go to the drawing or replay function.
        """
        import gametrees

        name = "replay" if replay else "draw"
        show = getattr(gametrees, name, None)
        if show is None:
            raise ImportError(
                f"gametrees.{name} is not available in this installation; "
                "print(ex.explain()) shows the worked solution as text"
            )
        return show(self.result, **kwargs)

    def _root_text(self):
        r = self.nodes.root
        return f"{self.nodes.name(r)} is a {_ROLE.get(self.root_player, '?')} node at the root"

    def _origin(self):
        if self.seed is None:
            return ""
        return f" (seed {self.seed!r}, {self.difficulty})"

    def __repr__(self):
        return f"{self.question}\n\n{self.outline()}"

    def _repr_html_(self):
        return (f'<div class="gametrees-exercise"><p>{html.escape(self.question)}</p>'
                f"<pre>{html.escape(self.outline())}</pre></div>")

    # -- shared explanations ---------------------------------------------------

    def _value_of(self, n):
        return self.result.graph.nodes[n].get("value")

    def _kids_text(self, n, values=None):
        """'H = 2, I = 4, J = 6' with the engine's values."""
        G = self.tree
        values = values or {}
        parts = []
        for c in G.successors(n):
            v = values.get(c, self._value_of(c))
            parts.append(f"{self.nodes.name(c)} = {_fmt(v)}")
        return ", ".join(parts)

    def _weighted_text(self, n):
        probs = _probs(self.tree, n)
        terms = " + ".join(f"{_prob(p)} × {_fmt(self._value_of(c))}" for c, p in probs.items())
        return f"{terms} = {_fmt(self._value_of(n))}"


def _roles_hint(G, nodes, n, learner, kid_values):
    """A hint when ``learner`` is what the other player would choose at ``n``."""
    player = G.nodes[n].get("player")
    if player not in (MAX, MIN) or not kid_values:
        return None
    other = max(kid_values) if player == MIN else min(kid_values)
    right = min(kid_values) if player == MIN else max(kid_values)
    if _close(learner, other) and not _close(learner, right):
        took, picks = ("largest", "smallest") if player == MIN else ("smallest", "largest")
        parents = list(G.predecessors(n))
        same = parents and G.nodes[parents[0]].get("player") == player
        extra = (f" Turns need not alternate: {nodes.name(n)} is {_ROLE[player]} like its parent "
                 f"{nodes.name(parents[0])}.") if same else ""
        return (f"You took the {took} value, but {_ROLE[player]} picks the {picks}. "
                f"Ask whose turn it is at {nodes.name(n)}.{extra}")
    return None


def _chance_hint(n_name, learner, kid_values, probs):
    """Hints for the usual chance-node slips (misconception 18)."""
    if not kid_values:
        return None
    weights = list(probs)
    mean = sum(kid_values) / len(kid_values)
    equal = all(_close(w, weights[0]) for w in weights)
    weighted = " + ".join(f"{_prob(p)} × {_fmt(v)}" for p, v in zip(weights, kid_values))
    if _close(learner, min(kid_values)) or _close(learner, max(kid_values)):
        which = "smallest" if _close(learner, min(kid_values)) else "largest"
        return (f"You took the {which} outcome, but nobody chooses at a chance node {n_name}: "
                f"its value is the expected value, {weighted}.")
    if not equal and _close(learner, mean):
        return (f"You took the plain average, but {n_name}'s outcomes are not equally likely: "
                f"weight each by its probability, {weighted}.")
    if _close(learner, sum(kid_values)) and len(kid_values) > 1:
        return f"You added the outcomes: multiply each by its probability first, {weighted}."
    return None


class ValuesExercise(Exercise):
    """The value of every inner node: minimax by default, or what alpha-beta returns.

    Parameters
    ----------
    tree, seed, difficulty, root_player, depth, branching, values, ragged
        See :class:`Exercise`.
    algorithm : {"minimax", "alphabeta"}
        ``"alphabeta"`` asks for the value each visited inner node returns
        (fail-soft, as in AIMA); values that are only bounds are written
        ``"≤ 2"`` or ``"≥ 5"`` (a bare number is accepted with a note).
        Nodes alpha-beta never visits get no value (leave them out, or write
        ``"pruned"``).
    rule : {"textbook", "strict"}
        The alpha-beta pruning rule (ties prune under "textbook").

    Examples
    --------
    >>> ex = ValuesExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]], algorithm="alphabeta")
    >>> ex.solution()
    {'A': 3, 'B': 3, 'C': '≤ 2', 'D': 2}
    >>> ex.check({"A": 3, "B": 3, "C": 2, "D": 2})
    ✓ Alpha-beta values: all 4 right.
    ✓ A = 3
    ✓ B = 3
    ✓ C = 2, but only as a bound: C ≤ 2.
        Hint: After H returns 2 to C, 2 ≤ α = 3 (MAX can already get 3 at A), so C stops: I and J are never looked at. C's true value could be lower than 2: write "≤ 2".
    ✓ D = 2
    """

    kind = "values"

    def __init__(self, tree=None, *, algorithm="minimax", rule="textbook", **kwargs):
        if algorithm not in ("minimax", "alphabeta"):
            raise ValueError(f"algorithm must be 'minimax' or 'alphabeta', got {algorithm!r}")
        if rule not in _RULES:
            raise ValueError(f"rule must be 'textbook' or 'strict', got {rule!r}")
        self.algorithm = "expectimax" if self._chance else algorithm
        self.rule = rule
        super().__init__(tree, **kwargs)

    @property
    def _what(self):
        return {"minimax": "Minimax values", "alphabeta": "Alpha-beta values",
                "expectimax": "Expectimax values"}[self.algorithm]

    def _search(self, G, graph=True):
        if self.algorithm == "minimax":
            return minimax(G, trace=graph, graph=graph)
        if self.algorithm == "expectimax":
            return expectimax(G, trace=graph, graph=graph)
        return alphabeta(G, strict=self.rule == "strict", trace=graph, graph=graph)

    def _interesting(self, G):
        if self.algorithm == "alphabeta":
            return self._search(G, graph=False).stats["cutoffs"] > 0
        return True

    def _setup(self):
        self.result = self._search(self.tree)
        G = self.result.graph
        self.inner = [n for n in self.nodes.order if self.tree.out_degree(n)]
        self.asked = [n for n in self.inner if G.nodes[n]["status"] == "visited"]
        self.info = _SearchInfo(self.result, self.nodes) if self.algorithm == "alphabeta" else None
        self._exact = minimax(self.tree, trace=True).graph if self.algorithm == "alphabeta" else G

    def _question(self):
        names = _and(self.nodes.name(n) for n in self.inner)
        if self.algorithm == "minimax":
            return (f"Minimax{self._origin()}: {self._root_text()}. Give the minimax value of every "
                    f"inner node ({names}) as a dict, e.g. {{'A': 3, 'B': 5}}.")
        if self.algorithm == "expectimax":
            return (f"Expectimax{self._origin()}: {self._root_text()}; chance nodes average their "
                    f"outcomes, weighted by the probabilities shown. Give the value of every inner node "
                    f"({names}) as a dict, e.g. {{'A': 4.5}}; round to 2 decimals if needed.")
        rule = ("textbook rule: prune when v ≥ β or v ≤ α" if self.rule == "textbook"
                else "strict rule: prune only when v > β or v < α")
        return (f"Alpha-beta{self._origin()}: {self._root_text()}. Run alpha-beta ({rule}), children "
                f"left to right, and give the value each inner node it visits returns, as a dict. Where "
                f"pruning leaves only a bound, write it as '≤ 2' or '≥ 5'. Leave out the nodes it never "
                f"visits (or write 'pruned').")

    def solution(self):
        G = self.result.graph
        out = {}
        for n in self.asked:
            v = _plain(G.nodes[n]["value"])
            bound = G.nodes[n].get("bound", "exact") if self.algorithm == "alphabeta" else "exact"
            out[self.nodes.name(n)] = v if bound == "exact" else f"{'≤' if bound == 'upper' else '≥'} {_fmt(v)}"
        return out

    # -- checking -------------------------------------------------------------

    def _tol(self):
        return 0.005 + 1e-9 if self.algorithm == "expectimax" else 1e-9

    def check(self, answer):
        if not isinstance(answer, Mapping):
            example = ", ".join(f"{k!r}: {v!r}" for k, v in list(self.solution().items())[:2])
            return _malformed(self._what, f"Give the values as a dict from node to value, e.g. "
                                          f"{{{example}, ...}}; got {type(answer).__name__} {answer!r}.")
        rep = _Report()
        given, unknown = {}, []
        for key, val in answer.items():
            n = self.nodes.resolve(key)
            if n is None:
                unknown.append(key)
                continue
            if n in given and given[n] != val:
                rep.bad(f"{self.nodes.name(n)}: you gave two different values, {given[n]!r} and {val!r}.")
                continue
            given[n] = val
        if unknown:
            rep.bad(self.nodes.unknown_text(unknown))
        parsed = {}
        for n, val in given.items():
            try:
                parsed[n] = _parse_value(val, allow_pruned=self.algorithm == "alphabeta")
            except _Bad as exc:
                parsed[n] = exc
        for n in self.inner:
            name = self.nodes.name(n)
            if n not in self.asked:
                if n in parsed and not (isinstance(parsed[n], tuple) and parsed[n][0] == "pruned"):
                    cut = self.info.cut_for(n)
                    why = f": {cut.text(self.nodes)}" if cut else ""
                    rep.bad(f"{name} is never visited, so alpha-beta gives it no value{why}.")
                continue
            if n not in parsed:
                rep.bad(f"{name}: no value given.", self._why(n))
            elif isinstance(parsed[n], _Bad):
                rep.bad(f"{name}: {parsed[n]}; write a number such as 3 or -2.5"
                        + (", or a bound such as '≤ 2'." if self.algorithm == "alphabeta" else "."))
            else:
                self._judge(rep, n, parsed[n], parsed)
        for n in self.nodes.sorted(n for n in parsed if not self.tree.out_degree(n)):
            p = parsed[n]
            u = self.tree.nodes[n]["utility"]
            if isinstance(p, _Bad) or p[0] != "eq" or not _close(p[1], u, self._tol()):
                rep.bad(f"{self.nodes.name(n)} is a leaf: its value is its utility, {_fmt(u)}, as given "
                        f"(you wrote {given[n]!r}).")
        return rep.feedback(self._what)

    def _learner_kids(self, n, parsed):
        """The children's values as the learner has them (their numbers where given)."""
        out = {}
        for c in self.tree.successors(n):
            p = parsed.get(c)
            if isinstance(p, tuple) and p[0] == "eq":
                out[c] = p[1]
        return out

    def _why(self, n):
        G = self.tree
        name = self.nodes.name(n)
        player = G.nodes[n]["player"]
        v = _fmt(self._value_of(n))
        if self.algorithm == "alphabeta":
            return self._ab_why(n)
        if player == CHANCE:
            return f"{name} is a chance node: {self._weighted_text(n)}."
        return f"{name} is a {_ROLE[player]} node over {self._kids_text(n)}, so its value is {v}."

    def _ab_why(self, n):
        G, R = self.tree, self.result.graph
        name = self.nodes.name(n)
        player = G.nodes[n]["player"]
        seen = [c for c in G.successors(n) if R.nodes[c]["status"] == "visited"]
        kids = ", ".join(f"{self.nodes.name(c)} = {self._shown(c)}" for c in seen)
        cut = self.info.cut_at.get(n)
        v = _fmt(R.nodes[n]["value"])
        if cut is not None:
            s = (f"{name} is a {_ROLE[player]} node; it sees {kids}, then {cut.text(self.nodes)}. "
                 f"So {name} returns {v}")
        else:
            s = f"{name} is a {_ROLE[player]} node over {kids}, so it returns {v}"
        bound = R.nodes[n].get("bound")
        if bound == "upper":
            s += f", only an upper bound: {name} ≤ {v}"
        elif bound == "lower":
            s += f", only a lower bound: {name} ≥ {v}"
        return s + "."

    def _shown(self, n):
        R = self.result.graph
        if not self.tree.out_degree(n):
            return _fmt(self.tree.nodes[n]["utility"])
        bound = R.nodes[n].get("bound")
        prefix = {"upper": "≤ ", "lower": "≥ "}.get(bound, "")
        return prefix + _fmt(R.nodes[n]["value"])

    def _judge(self, rep, n, answer, parsed):
        op, x = answer
        name = self.nodes.name(n)
        G = self.result.graph
        v = G.nodes[n]["value"]
        tol = self._tol()
        bound = G.nodes[n].get("bound", "exact") if self.algorithm == "alphabeta" else "exact"
        if op == "pruned":
            rep.bad(f"{name} is visited, so it does return a value: {self._why(n)}")
            return
        if self.algorithm != "alphabeta":
            if op != "eq":
                rep.bad(f"{name}: you wrote {_OP_TEXT[op]}{_fmt(x)}, but {self.algorithm} gives every node "
                        f"an exact value: {self._why(n)}")
                return
            if _close(x, v, tol):
                rep.good(f"{name} = {_fmt(v)}")
                return
            rep.bad(f"{name}: you wrote {_fmt(x)}, but {self._why(n)}",
                    self._value_hint(n, x, parsed))
            return
        # alpha-beta: values may be bounds
        want = {"exact": "eq", "upper": "le", "lower": "ge"}[bound]
        if _close(x, v, tol) and op == want:
            rep.good(f"{name} = {_fmt(v)}" if bound == "exact" else f"{name} {_OP_TEXT[op]}{_fmt(v)}")
        elif _close(x, v, tol) and op == "eq":
            sign = "≤" if bound == "upper" else "≥"
            side = "lower" if bound == "upper" else "higher"
            cut = self.info.cut_at.get(n)
            why = (cut.text(self.nodes) + ". " if cut else
                   "Its best child's value is itself only a bound. ")
            rep.good(f"{name} = {_fmt(v)}, but only as a bound: {name} {sign} {_fmt(v)}.",
                     f"{why[0].upper()}{why[1:]}{name}'s true value could be {side} than {_fmt(v)}: "
                     f"write \"{sign} {_fmt(v)}\".")
        elif _close(x, v, tol) and op in ("le", "ge") and bound == "exact":
            rep.bad(f"{name}: you wrote {_OP_TEXT[op]}{_fmt(x)}, but {name}'s value is exact, {_fmt(v)}: "
                    f"{self._ab_why(n)}",
                    "Only nodes whose search was cut short (or whose best child is a bound) return bounds; "
                    "which of the root's children are exact?")
        elif _close(x, v, tol) and op in ("lt", "gt"):
            sign = "≤" if bound == "upper" else "≥"
            rep.bad(f"{name}: you wrote {_OP_TEXT[op]}{_fmt(x)}; write {sign} {_fmt(v)}: the true value "
                    f"could equal {_fmt(v)}.")
        elif _close(x, v, tol):
            rep.bad(f"{name}: you wrote {_OP_TEXT[op]}{_fmt(x)}, but {self._ab_why(n)}")
        else:
            hint = None
            exact = self._exact.nodes[n]["value"]
            a0, b0 = self.info.call_window.get(n, (None, None))
            if bound != "exact" and _close(x, exact):
                hint = (f"{_fmt(x)} is {name}'s minimax value, but alpha-beta never finds it: the search at "
                        f"{name} stops early and returns {_fmt(v)}.")
            elif bound != "exact" and x in (a0, b0):
                hint = (f"{_fmt(x)} is the bound of {name}'s window (fail-hard); this exercise follows AIMA's "
                        f"fail-soft alpha-beta, which returns the value reached, {_fmt(v)}.")
            else:
                hint = self._value_hint(n, x, parsed)
            rep.bad(f"{name}: you wrote {_OP_TEXT[op]}{_fmt(x)}, but {self._ab_why(n)}", hint)

    def _value_hint(self, n, x, parsed):
        G = self.tree
        name = self.nodes.name(n)
        player = G.nodes[n]["player"]
        visited = [c for c in G.successors(n) if self.result.graph.nodes[c]["status"] == "visited"]
        true_kids = [self._value_of(c) for c in visited]
        if player == CHANCE:
            hint = _chance_hint(name, x, true_kids, [_probs(G, n)[c] for c in visited])
        else:
            hint = _roles_hint(G, self.nodes, n, x, true_kids)
        if hint:
            return hint
        mine = self._learner_kids(n, parsed)
        wrong = [c for c, lv in mine.items() if not _close(lv, self._value_of(c), self._tol())]
        if wrong and player in (MAX, MIN) and self.algorithm != "alphabeta":
            values = [mine.get(c, self._value_of(c)) for c in G.successors(n)]
            own = max(values) if player == MAX else min(values)
            if _close(x, own, self._tol()):
                return (f"Your {_fmt(x)} follows from your value for {self.nodes.names(wrong)}, which "
                        f"{_pair(wrong)} wrong: fix {'it' if len(wrong) == 1 else 'them'} first.")
        if player == CHANCE and wrong:
            probs = _probs(G, n)
            own = sum(probs[c] * mine.get(c, self._value_of(c)) for c in G.successors(n))
            if _close(x, own, self._tol()):
                return (f"Your {_fmt(x)} follows from your value for {self.nodes.names(wrong)}, which "
                        f"{_pair(wrong)} wrong: fix {'it' if len(wrong) == 1 else 'them'} first.")
        return None


class ExpectimaxExercise(ValuesExercise):
    """The expectimax value of every inner node of a tree with chance nodes.

    Values may be rounded to 2 decimals. Feedback names the usual slips: the
    minimum (or maximum) taken at a chance node, or a plain, unweighted mean.

    Examples
    --------
    >>> ex = ExpectimaxExercise([{"chance": [3, 12], "p": [0.25, 0.75]}, {"chance": [2, 4]}])
    >>> ex.solution()
    {'A': 9.75, 'B': 9.75, 'C': 3}
    >>> ex.check({"A": 9.75, "B": 7.5, "C": 3})
    ✗ Expectimax values: 2 of 3 right.
    ✓ A = 9.75
    ✗ B: you wrote 7.5, but B is a chance node: 0.25 × 3 + 0.75 × 12 = 9.75.
        Hint: You took the plain average, but B's outcomes are not equally likely: weight each by its probability, 0.25 × 3 + 0.75 × 12.
    ✓ C = 3
    """

    kind = "expectimax"
    _chance = True

    def __init__(self, tree=None, **kwargs):
        if "algorithm" in kwargs:
            raise TypeError("ExpectimaxExercise has no 'algorithm' argument: it is always expectimax")
        super().__init__(tree, **kwargs)


def _rule_text(rule):
    if rule == "textbook":
        return "the textbook rule: prune when v ≥ β at a MAX node or v ≤ α at a MIN node"
    return "the strict rule: prune only when v > β at a MAX node or v < α at a MIN node"


def _check_rule(rule):
    if rule not in _RULES:
        raise ValueError(f"rule must be 'textbook' or 'strict', got {rule!r}")
    return rule


def _visited_reason(G, nodes, info, n, strict):
    """Why alpha-beta visits ``n``: ``(text, hint)``, read from the search's trace."""
    name = nodes.name(n)
    ps = list(G.predecessors(n))
    if not ps:
        return f"{name} is the root: the search starts there, so it is never pruned.", None
    p = ps[0]
    pname = nodes.name(p)
    before = info.before.get(n)
    if before is None:
        return (f"{name} is evaluated: it is {pname}'s first child, and a cut needs a finished child's "
                f"value to compare with α or β.",
                "Pruning needs evidence: a node can only stop after at least one child has returned a "
                "value that falls outside the window it inherited.")
    a, b = info.call_window[n]
    player = G.nodes[p]["player"]
    hint = None
    if player == MIN:
        tie = before == a
        cmp = (f"{_fmt(before)} = α, and the strict rule prunes only when v < α" if tie and strict
               else f"{_fmt(before)} > α")
    else:
        tie = before == b
        cmp = (f"{_fmt(before)} = β, and the strict rule prunes only when v > β" if tie and strict
               else f"{_fmt(before)} < β")
    if tie and strict:
        hint = ("A tie: the textbook rule (AIMA) would prune here; the strict rule (as in CS188) does not. "
                "Both rules give the same root value.")
    text = (f"{name} is evaluated: when {pname} reaches it, {pname} ({_ROLE[player]}) has {_fmt(before)} "
            f"so far and its window is α = {_fmt(a)}, β = {_fmt(b)}; {cmp}, so {pname} must look on "
            f"(no window has closed).")
    return text, hint


class _AlphaBetaExercise(Exercise):
    """Shared by the exercises about one alpha-beta search."""

    def __init__(self, tree=None, *, rule="textbook", **kwargs):
        self.rule = _check_rule(rule)
        super().__init__(tree, **kwargs)

    @property
    def strict(self):
        return self.rule == "strict"

    def _interesting(self, G):
        return alphabeta(G, strict=self.strict, trace=False, graph=False).stats["cutoffs"] > 0

    def _setup(self):
        self.result = alphabeta(self.tree, strict=self.strict, trace=True)
        self.info = _SearchInfo(self.result, self.nodes)

    def _status(self, n):
        return self.result.graph.nodes[n]["status"]

    def _parent(self, n):
        ps = list(self.tree.predecessors(n))
        return ps[0] if ps else None

    def _not_pruned(self, n):
        """Why the visited node ``n`` is not pruned: ``(text, hint)``."""
        text, hint = _visited_reason(self.tree, self.nodes, self.info, n, self.strict)
        counter = self._counterexample(n) if not self.tree.out_degree(n) and self._parent(n) is not None else None
        if counter and self.info.before.get(n) is not None:
            hint = f"{hint} {counter}" if hint else counter
        return text, hint

    def _counterexample(self, leaf):
        """A value for ``leaf`` that would change a returned value (computed by the engine)."""
        G = self.tree
        p = self._parent(leaf)
        utils = [G.nodes[x]["utility"] for x in G if not G.out_degree(x)]
        low, high = min(utils) - 1, max(utils) + 1
        order = (low, high) if G.nodes[p]["player"] == MIN else (high, low)
        old = G.nodes[leaf]["utility"]
        name = self.nodes.name(leaf)
        for u in order:
            H = G.copy()
            H.nodes[leaf]["utility"] = u
            value = minimax(H, trace=False, graph=False).value
            if value != self.result.value:
                return (f"If {name} were {_fmt(u)} instead of {_fmt(old)}, the root's value would be "
                        f"{_fmt(value)}, not {_fmt(self.result.value)}: alpha-beta cannot skip {name}.")
        for u in order:
            H = G.copy()
            H.nodes[leaf]["utility"] = u
            back = alphabeta(H, strict=self.strict, trace=True).graph.nodes[p]["value"]
            if back != self.result.graph.nodes[p]["value"]:
                return (f"If {name} were {_fmt(u)} instead of {_fmt(old)}, {self.nodes.name(p)} would return "
                        f"{_fmt(back)} instead of {_fmt(self.result.graph.nodes[p]['value'])}.")
        return None

    def _rule_question(self):
        return (f"Run alpha-beta from {self.nodes.name(self.nodes.root)} with {_rule_text(self.rule)}; "
                f"children are searched left to right.")


class PruningExercise(_AlphaBetaExercise):
    """Which leaves does alpha-beta prune (never evaluate)?

    Parameters
    ----------
    rule : {"textbook", "strict"}
        ``"textbook"`` prunes when v ≥ β / v ≤ α (AIMA); ``"strict"`` only
        when v > β / v < α (CS188). Answering with the other rule's set is
        recognised and named.
    tree, seed, difficulty, root_player, depth, branching, values, ragged
        See :class:`Exercise`.

    Examples
    --------
    >>> ex = PruningExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    >>> ex.solution()
    ['I', 'J']
    >>> ex.check("I, J, L")
    ✗ Pruned leaves: 1 of 2 points right.
    ✓ I and J are pruned: after H returns 2 to C, 2 ≤ α = 3 (MAX can already get 3 at A), so C stops.
    ✗ L is evaluated: when D reaches it, D (MIN) has 14 so far and its window is α = 3, β = 14; 14 > α, so D must look on (no window has closed).
        Hint: If L were 1 instead of 5, D would return 1 instead of 2.
    """

    kind = "pruning"

    def _setup(self):
        super()._setup()
        G = self.result.graph
        self.leaves = [n for n in self.nodes.order if not self.tree.out_degree(n)]
        self.pruned = [n for n in self.leaves if G.nodes[n]["status"] == "pruned"]
        other = alphabeta(self.tree, strict=not self.strict, trace=True).graph
        self.other_pruned = [n for n in self.leaves if other.nodes[n]["status"] == "pruned"]

    def _question(self):
        return (f"Pruning{self._origin()}: {self._root_text()}. {self._rule_question()} Which leaves are "
                f"never evaluated (pruned)? Answer with a list such as ['I', 'J'] or a string \"I, J\" "
                f"([] if none).")

    def solution(self):
        return [self.nodes.name(n) for n in self.pruned]

    def check(self, answer):
        what = "Pruned leaves"
        try:
            named, unknown = self.nodes.many(answer, "the pruned leaves")
        except _Bad as exc:
            return _malformed(what, f"Could not read your answer: {exc}.")
        rep = _Report()
        if unknown:
            rep.bad(self.nodes.unknown_text(unknown))
        claimed = set()
        for n in dict.fromkeys(named):
            if not self.tree.out_degree(n):
                claimed.add(n)
            elif self._status(n) == "pruned":
                claimed.update(_leaves_under(self.tree, n))  # a pruned subtree stands for its leaves
            else:
                text, hint = self._not_pruned(n)
                rep.bad(text.replace(" is evaluated:", " is visited, not pruned:", 1), hint)
        truth = set(self.pruned)
        other_rule = "strict" if self.rule == "textbook" else "textbook"
        if claimed != truth and claimed == set(self.other_pruned):
            rep.bad(
                f"You pruned with the {other_rule} rule; this exercise uses {_rule_text(self.rule)}.",
                "The two conventions differ only on ties (a value equal to α or β). CS188 prunes only on "
                "strict inequality, AIMA on ≤ / ≥; both give the same root value.",
            )
        for cut in self.info.cuts:
            leaves = [x for p in cut.pruned for x in _leaves_under(self.tree, p)]
            right = [x for x in leaves if x in claimed]
            missed = [x for x in leaves if x not in claimed]
            if right:
                rep.good(f"{self.nodes.names(right)} {_pair(right)} pruned: {cut.text(self.nodes, pruned=False)}.")
            if missed:
                hint = None
                if cut.tie and not cut.strict:
                    hint = ("A tie counts under the textbook rule: it prunes when v ≤ α (or v ≥ β). The strict "
                            "rule (CS188) would not prune here; both give the same root value.")
                rep.bad(f"{self.nodes.names(missed)} {_pair(missed)} pruned too: {cut.text(self.nodes)}.", hint)
        for x in self.nodes.sorted(claimed - truth):
            rep.bad(*self._not_pruned(x))
        if not truth and not claimed and not unknown:
            rep.good("Nothing is pruned: no node's value ever falls outside its window.")
        return rep.feedback(what, "points right" if not rep.items or any(k == "bad" for k, _, _ in rep.items)
                            else "right", count_ok=False)


class OrderExercise(_AlphaBetaExercise):
    """In which order does the search visit the nodes?

    Parameters
    ----------
    algorithm : {"alphabeta", "minimax"}
        Alpha-beta (default) skips pruned nodes; minimax visits every node.
    rule : {"textbook", "strict"}
        The alpha-beta rule.
    leaves_only : bool
        Ask only for the order in which leaves are evaluated.
    tree, seed, difficulty, root_player, depth, branching, values, ragged
        See :class:`Exercise`.

    Examples
    --------
    >>> ex = OrderExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    >>> " ".join(ex.solution())
    'A B E F G C H D K L M'
    >>> ex.check("A B E F G C H I D K L M")
    ✗ Visiting order: 1 of 2 points right.
    ✓ The first 7 are right: A, B, E, F, G, C and H.
    ✗ Step 8: you wrote I, but I is never visited: after H returns 2 to C, 2 ≤ α = 3 (MAX can already get 3 at A), so C stops: I and J are never looked at. The search goes on to D.
    """

    kind = "order"

    def __init__(self, tree=None, *, algorithm="alphabeta", rule="textbook", leaves_only=False, **kwargs):
        if algorithm not in ("alphabeta", "minimax"):
            raise ValueError(f"algorithm must be 'alphabeta' or 'minimax', got {algorithm!r}")
        if not isinstance(leaves_only, bool):
            raise TypeError(f"leaves_only must be True or False, got {leaves_only!r}")
        self.algorithm = algorithm
        self.leaves_only = leaves_only
        super().__init__(tree, rule=rule, **kwargs)

    def _interesting(self, G):
        return self.algorithm == "minimax" or super()._interesting(G)

    def _setup(self):
        if self.algorithm == "minimax":
            self.result = minimax(self.tree, trace=True)
        else:
            self.result = alphabeta(self.tree, strict=self.strict, trace=True)
        self.info = _SearchInfo(self.result, self.nodes)
        G = self.result.graph
        seq = sorted((n for n in G if G.nodes[n].get("status") == "visited"), key=lambda n: G.nodes[n]["order"])
        self.sequence = [n for n in seq if not self.leaves_only or not self.tree.out_degree(n)]

    def _question(self):
        alg = "minimax" if self.algorithm == "minimax" else "alpha-beta"
        how = (f"Run minimax from {self.nodes.name(self.nodes.root)}; children are searched left to right."
               if self.algorithm == "minimax" else self._rule_question())
        what = ("In which order are the leaves evaluated? List them in order"
                if self.leaves_only else
                f"In which order does {alg} visit the nodes? List every node it visits, in order, starting "
                f"with the root {self.nodes.name(self.nodes.root)}")
        return (f"Visiting order{self._origin()}: {self._root_text()}. {how} {what} "
                f"(e.g. \"A, B, E\" or ['A', 'B', 'E']).")

    def solution(self):
        return [self.nodes.name(n) for n in self.sequence]

    def _next_why(self, prev, e):
        name = self.nodes.name(e)
        p = self._parent(e)
        if p is None:
            return f"the search starts at the root, {name}"
        if prev == p:
            return f"{name} is {self.nodes.name(p)}'s first child (depth first: down before across)"
        return f"after {self.nodes.name(prev)}, the search goes on to {name} (depth first, left to right)"

    def check(self, answer):
        what = "Visiting order"
        try:
            named, unknown = self.nodes.many(answer, "the visiting order")
        except _Bad as exc:
            return _malformed(what, f"Could not read your answer: {exc}.")
        rep = _Report()
        if unknown:
            rep.bad(self.nodes.unknown_text(unknown))
        seen, nodes = set(), []
        for n in named:
            if n in seen:
                rep.bad(f"You listed {self.nodes.name(n)} more than once: the search visits each node once.")
                continue
            seen.add(n)
            nodes.append(n)
        root = self.nodes.root
        if not self.leaves_only and nodes and root not in seen:
            nodes.insert(0, root)  # the root is trivially first
        expected = self.sequence
        if nodes == expected:
            rep.good(f"{', '.join(self.nodes.name(n) for n in expected)}: the right order.")
            return rep.feedback(what)
        i = 0
        while i < min(len(nodes), len(expected)) and nodes[i] == expected[i]:
            i += 1
        if i:
            rep.good(f"The first {i} are right: {_and(self.nodes.name(n) for n in expected[:i])}.")
        prev = expected[i - 1] if i else None
        e = expected[i] if i < len(expected) else None
        g = nodes[i] if i < len(nodes) else None
        explained = set()
        if g is None and prev is None:
            rep.bad(f"Your list is empty, but {self._next_why(prev, e)}.")
        elif g is None:
            rep.bad(f"Your list stops after {self.nodes.name(prev)}, but {self._next_why(prev, e)}.")
        elif e is None:
            cut = self.info.cut_for(g)
            why = f": {cut.text(self.nodes)}" if cut else ""
            rep.bad(f"After {self.nodes.name(prev)} the search is over, but you went on with "
                    f"{self.nodes.name(g)}{why}.")
            explained.add(g)
        elif g not in expected:
            cut = self.info.cut_for(g)
            why = f": {cut.text(self.nodes)}" if cut else ""
            rep.bad(f"Step {i + 1}: you wrote {self.nodes.name(g)}, but {self.nodes.name(g)} is never "
                    f"visited{why}. The search goes on to {self.nodes.name(e)}.")
            explained.add(g)
        else:
            rep.bad(f"Step {i + 1}: you wrote {self.nodes.name(g)}, but the search visits "
                    f"{self.nodes.name(e)} first: {self._next_why(prev, e)}.")
        missing = [n for n in expected if n not in seen and n != e]
        if missing:
            rep.bad(f"You left out {_and(self.nodes.name(n) for n in missing)}: "
                    f"{'it is' if len(missing) == 1 else 'they are'} visited too.")
        extra = [n for n in nodes if n not in expected and n not in explained]
        by_cut = {}
        for n in extra:
            by_cut.setdefault(self.info.cut_for(n), []).append(n)
        for cut, ns in by_cut.items():
            why = f": {cut.text(self.nodes, pruned=False)}" if cut else ""
            rep.bad(f"{self.nodes.names(ns)} {_pair(ns)} never visited{why}.")
        return rep.feedback(what, "points right")


def _parse_window(answer):
    """``(alpha, beta)`` from a pair, a dict or text; raw values (not yet numbers)."""
    if isinstance(answer, Mapping):
        keys = {str(k).strip().casefold(): v for k, v in answer.items()}
        a = next((keys[k] for k in ("alpha", "α", "a") if k in keys), _Bad)
        b = next((keys[k] for k in ("beta", "β", "b") if k in keys), _Bad)
        if a is _Bad or b is _Bad:
            raise _Bad(f"a dict answer needs the keys 'alpha' and 'beta', got {sorted(map(str, answer))}")
        return a, b
    if isinstance(answer, str):
        s = answer.replace("−", "-")
        s = re.sub(r"(?i)\b(alpha|beta)\b|[αβ]", " ", s)
        s = s.replace("=", " ").replace(":", " ").strip().strip("()[]{}")
        parts = [t for t in re.split(r"[,;]\s*|\s+", s) if t]
        parts = [t for t in parts if t]
        if len(parts) != 2:
            raise _Bad(f"write two values, alpha then beta, e.g. \"3, +inf\"; could not read {answer!r}")
        return parts[0], parts[1]
    if isinstance(answer, (list, tuple)) and len(answer) == 2:
        return answer[0], answer[1]
    raise _Bad(f"give the window as a pair (alpha, beta), e.g. (3, math.inf); got {answer!r}")


class WindowExercise(_AlphaBetaExercise):
    """α and β at a named node when it returns its value.

    The window is the node's own (α, β) after its last child has come back:
    a MAX node raises α with each better child value, a MIN node lowers β,
    and a cutoff returns at once, before the bound is updated (as in AIMA's
    pseudocode).

    Parameters
    ----------
    node : label or node id, optional
        The node to ask about (default: chosen from the seed among the inner
        nodes alpha-beta visits, below the root).
    rule : {"textbook", "strict"}
    tree, seed, difficulty, root_player, depth, branching, values, ragged
        See :class:`Exercise`.

    Examples
    --------
    >>> ex = WindowExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]], node="D")
    >>> ex.solution()
    (3, 5)
    >>> ex.check("alpha = 3, beta = 2")
    ✗ Window at D: 1 of 2 right.
    ✓ α = 3 at D.
    ✗ β at D: you wrote 2, but D (MIN) is entered with β = +∞ (no MIN node above it has a value yet) and lowers it with each better child value: after K = 14, β = 14; after L = 5, β = 5; then M = 2 ≤ α = 3 is a cutoff, so D returns at once, without lowering β. So β = 5 when D returns.
        Hint: M = 2 ends D's search with a cutoff: the search returns before it updates β, so β stays 5.
    """

    kind = "window"

    def __init__(self, tree=None, *, node=None, rule="textbook", **kwargs):
        self._node_arg = node
        super().__init__(tree, rule=rule, **kwargs)

    def _setup(self):
        super()._setup()
        G = self.result.graph
        visited = sorted((n for n in G if G.nodes[n].get("status") == "visited" and self.tree.out_degree(n)),
                         key=lambda n: G.nodes[n]["order"])
        if self._node_arg is not None:
            n = self.nodes.resolve(self._node_arg)
            if n is None:
                raise ValueError(f"node {self._node_arg!r} is not a node of the tree (nodes: {self.nodes.span()})")
            if n not in visited:
                raise ValueError(
                    f"node {self._node_arg!r} is a leaf or is never visited by alpha-beta: "
                    f"ask about one of {_and(self.nodes.name(m) for m in visited)}"
                )
            self.node = n
        else:
            below = [n for n in visited if n != self.nodes.root]
            finite = [n for n in below if any(math.isfinite(x) for x in (G.nodes[n]["alpha"], G.nodes[n]["beta"]))]
            self.node = self._rng.choice(finite or below or visited)
        self.window = (G.nodes[self.node]["alpha"], G.nodes[self.node]["beta"])

    def _question(self):
        name = self.nodes.name(self.node)
        return (f"Window{self._origin()}: {self._root_text()}. {self._rule_question()} What are α and β at "
                f"{name} when {name} returns its value (after its last child; a cutoff returns at once, "
                f"before α or β changes)? Answer as a pair (alpha, beta), e.g. (3, math.inf) or \"3, +inf\".")

    def solution(self):
        return tuple(_plain(x) for x in self.window)

    def _story(self, which):
        """How the node's α (``which == 'alpha'``) or β came to be: ``(text, cut update or None)``."""
        n = self.node
        name = self.nodes.name(n)
        player = self.tree.nodes[n]["player"]
        a0, b0 = self.info.call_window[n]
        src_a, src_b = self.info.enter_source[n]
        sym = "α" if which == "alpha" else "β"
        start, src = (a0, src_a) if which == "alpha" else (b0, src_b)
        final = self.window[0] if which == "alpha" else self.window[1]
        owner = MAX if which == "alpha" else MIN
        from_where = ""
        if src is not None:
            from_where = (f" (MAX's best so far at {self.nodes.name(src)})" if owner == MAX
                          else f" (MIN's best so far at {self.nodes.name(src)})")
        elif math.isinf(start):
            from_where = f" (no {_ROLE[owner]} node above it has a value yet)"
        if player != owner:
            verb = "lowers β and never changes α" if player == MIN else "raises α and never changes β"
            return (f"{name} is a {_ROLE[player]} node: {_ROLE[player]} {verb}, so {sym} stays {_fmt(start)}, "
                    f"the value {name} was entered with{from_where}."), None
        steps, prev, cut_update = [], start, None
        for u in self.info.updates.get(n, []):
            now = u.alpha if which == "alpha" else u.beta
            if u.info[3]:
                cut_update = u
            elif now != prev:
                steps.append(f"after {self.nodes.name(u.info[0])} = {_fmt(u.info[1])}, {sym} = {_fmt(now)}")
                prev = now
        verb = "raises" if owner == MAX else "lowers"
        s = f"{name} ({_ROLE[player]}) is entered with {sym} = {_fmt(start)}{from_where}"
        if steps:
            s += f" and {verb} it with each better child value: {'; '.join(steps)}"
        elif cut_update is None:
            s += f"; no child value {verb} it"
        if cut_update is not None:
            c, cv = self.nodes.name(cut_update.info[0]), _fmt(cut_update.info[1])
            if player == MIN:
                op, bound = ("<" if self.strict else "≤"), f"α = {_fmt(cut_update.alpha)}"
            else:
                op, bound = (">" if self.strict else "≥"), f"β = {_fmt(cut_update.beta)}"
            s += (f"; then {c} = {cv} {op} {bound}" if steps else f"; its child {c} = {cv} {op} {bound}")
            s += f" is a cutoff, so {name} returns at once, without {verb[:-1]}ing {sym}"
        return s + f". So {sym} = {_fmt(final)} when {name} returns.", cut_update

    def check(self, answer):
        name = self.nodes.name(self.node)
        what = f"Window at {name}"
        try:
            raw = _parse_window(answer)
        except _Bad as exc:
            return _malformed(what, f"Could not read your answer: {exc}.")
        rep = _Report()
        values = []
        for which, sym, x in (("alpha", "α", raw[0]), ("beta", "β", raw[1])):
            if x is None:
                inf = "-math.inf" if which == "alpha" else "math.inf"
                rep.bad(f"{sym} at {name}: None is not a number.",
                        f"Write 'no bound yet' as a real infinity ({inf}, or float('{inf[0] if inf[0] == '-' else ''}inf')), "
                        "not None or 0: comparisons and min/max then just work.")
                values.append(None)
                continue
            try:
                op, v = _parse_value(x)
            except _Bad as exc:
                rep.bad(f"{sym} at {name}: {exc}; write a number such as 3, -inf or +inf.")
                values.append(None)
                continue
            if op != "eq":
                rep.bad(f"{sym} at {name}: write a plain number, not {_OP_TEXT[op]}{_fmt(v)}.")
                values.append(None)
                continue
            values.append(v)
        for i, (which, sym) in enumerate((("alpha", "α"), ("beta", "β"))):
            x = values[i]
            if x is None:
                continue
            want = self.window[i]
            if _close(x, want):
                rep.good(f"{sym} = {_fmt(want)} at {name}.")
                continue
            story, cut_update = self._story(which)
            rep.bad(f"{sym} at {name}: you wrote {_fmt(x)}, but {story}", self._window_hint(which, x, cut_update))
        return rep.feedback(what)

    def _window_hint(self, which, x, cut_update):
        n = self.node
        name = self.nodes.name(n)
        player = self.tree.nodes[n]["player"]
        sym = "α" if which == "alpha" else "β"
        want = self.window[0] if which == "alpha" else self.window[1]
        other = self.window[1] if which == "alpha" else self.window[0]
        if math.isinf(want) and x == 0:
            return (f"0 is a real score, not 'no bound yet': {sym} is {_fmt(want)} here. Use math.inf, and test "
                    "your code on trees whose values are 0 or all negative.")
        if _close(x, other) and not _close(x, want):
            return "You may have swapped α and β: α is MAX's floor (the lower end), β is MIN's ceiling."
        if cut_update is not None and _close(x, cut_update.info[1]):
            return (f"{self.nodes.name(cut_update.info[0])} = {_fmt(cut_update.info[1])} ends {name}'s search with "
                    f"a cutoff: the search returns before it updates {sym}, so {sym} stays {_fmt(want)}.")
        owner = MAX if which == "alpha" else MIN
        kid_values = [u.info[1] for u in self.info.updates.get(n, [])]
        if player != owner:
            if any(_close(x, v) for v in kid_values):
                return (f"A child's value changes {name}'s {'β' if which == 'alpha' else 'α'}, not its {sym}: "
                        f"MAX raises its floor α, MIN lowers its ceiling β. Windows pass down, as copies; "
                        f"only values pass up.")
            return (f"MAX raises its floor α; MIN lowers its ceiling β. At {name} ({_ROLE[player]}) {sym} is "
                    f"only inherited from above.")
        return None


class BestMoveExercise(Exercise):
    """The best move at the root.

    Parameters
    ----------
    chance : bool
        Use a tree with chance nodes (values by expectimax).
    tree, seed, difficulty, root_player, depth, branching, values, ragged
        See :class:`Exercise`.

    Examples
    --------
    >>> ex = BestMoveExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    >>> ex.solution()
    'B'
    >>> ex.check("D")
    ✗ Best move: wrong.
    ✗ D is worth 2 (D is a MIN node over K = 14, L = 5, M = 2), but B is worth 3: MAX moves to B.
    """

    kind = "best_move"

    def __init__(self, tree=None, *, chance=False, **kwargs):
        if not isinstance(chance, bool):
            raise TypeError(f"chance must be True or False, got {chance!r}")
        self._chance = chance
        super().__init__(tree, **kwargs)

    def _search(self, G):
        has_chance = any(p == CHANCE for _, p in G.nodes(data="player"))
        return expectimax(G, trace=True) if has_chance else minimax(G, trace=True)

    def _interesting(self, G):
        if self.root_player_of(G) == CHANCE:
            return False
        R = self._search(G).graph
        kids = [R.nodes[c]["value"] for c in G.successors(G.graph["root"])]
        return len(kids) > 1 and not all(_close(k, kids[0]) for k in kids)

    @staticmethod
    def root_player_of(G):
        return G.nodes[G.graph["root"]].get("player")

    def _setup(self):
        if self.root_player not in (MAX, MIN):
            raise ValueError(f"the root of a best-move exercise must be a MAX or MIN node, not {self.root_player!r}")
        self.result = self._search(self.tree)
        R = self.result.graph
        root = self.nodes.root
        self.children = list(self.tree.successors(root))
        self.best = [c for c in self.children if _close(R.nodes[c]["value"], self.result.value)]
        self.best_child = next((c for c in self.children if R.edges[root, c].get("best")), self.best[0])

    def _question(self):
        role = _ROLE[self.root_player]
        return (f"Best move{self._origin()}: {self._root_text()}. Which move should {role} make? Name the "
                f"child of {self.nodes.name(self.nodes.root)} it should move to (e.g. "
                f"'{self.nodes.name(self.children[0])}').")

    def solution(self):
        return self.nodes.name(self.best_child)

    def _worth(self, c):
        G, R = self.tree, self.result.graph
        name = self.nodes.name(c)
        if not G.out_degree(c):
            return f"{name} is a leaf"
        player = G.nodes[c]["player"]
        if player == CHANCE:
            probs = _probs(G, c)
            terms = " + ".join(f"{_prob(p)} × {_fmt(R.nodes[k]['value'])}" for k, p in probs.items())
            return f"{name} is a chance node: {terms}"
        kids = ", ".join(f"{self.nodes.name(k)} = {_fmt(R.nodes[k]['value'])}" for k in G.successors(c))
        return f"{name} is a {_ROLE[player]} node over {kids}"

    def check(self, answer):
        what = "Best move"
        root = self.nodes.root
        n = None
        if isinstance(answer, str):
            for c in self.children:
                if "move" in self.tree.edges[root, c] and str(self.tree.edges[root, c]["move"]) == answer.strip():
                    n = c
        if n is None:
            n = self.nodes.resolve(answer) if not isinstance(answer, (list, set)) else None
        if n is None:
            return _malformed(what, f"Name one child of {self.nodes.name(root)}: "
                                    f"{_or(self.nodes.name(c) for c in self.children)}; got {answer!r}.")
        rep = _Report()
        R = self.result.graph
        role = _ROLE[self.root_player]
        if n == root:
            rep.bad(f"{self.nodes.name(root)} is where {role} moves from: name the child it moves to, "
                    f"{_or(self.nodes.name(c) for c in self.children)}.")
            return Feedback(f"{what}: wrong.", rep.items)
        if n not in self.children:
            path = nx.shortest_path(self.tree, root, n)
            rep.bad(f"{self.nodes.name(n)} is not one move from {self.nodes.name(root)}: a move goes to a child, "
                    f"here {self.nodes.name(path[1])} on the way to {self.nodes.name(n)}.")
            return Feedback(f"{what}: wrong.", rep.items)
        best = self.nodes.name(self.best_child)
        v = _fmt(R.nodes[n]["value"])
        others = [c for c in self.children if c != n]
        if n in self.best:
            most = "the most MAX" if self.root_player == MAX else "the least MIN"
            rest = ", ".join(f"{self.nodes.name(c)}: {_fmt(R.nodes[c]['value'])}" for c in others)
            rep.good(f"{self.nodes.name(n)} is a best move: it is worth {v}, {most} can get at "
                     f"{self.nodes.name(root)} ({rest}).")
            ties = [c for c in self.best if c != n]
            if ties:
                rep.note(f"{self.nodes.names(ties)} {_pair(ties)} just as good.")
            return Feedback(f"{what}: right.", rep.items)
        rep.bad(f"{self.nodes.name(n)} is worth {v} ({self._worth(n)}), but {best} is worth "
                f"{_fmt(R.nodes[self.best_child]['value'])}: {role} moves to {best}.")
        return Feedback(f"{what}: wrong.", rep.items)


KINDS = {
    "values": ValuesExercise,
    "pruning": PruningExercise,
    "order": OrderExercise,
    "window": WindowExercise,
    "expectimax": ExpectimaxExercise,
    "best_move": BestMoveExercise,
}
_ALIASES = {"best-move": "best_move", "bestmove": "best_move", "best move": "best_move", "move": "best_move",
            "minimax": "values", "value": "values", "prune": "pruning", "visit_order": "order"}


def generate(kind, seed=None, difficulty="easy", **overrides):
    """A seeded exercise of one kind.

    Parameters
    ----------
    kind : {"values", "pruning", "order", "window", "expectimax", "best_move"}
    seed : int or str, optional
        The same seed always gives the same exercise (a student number makes
        a personal variant). Default: a random seed, kept in ``.seed``.
    difficulty : {"easy", "medium", "hard"}
        See the presets table in :mod:`gametrees.exercises`.
    **overrides
        Passed to the exercise's class: preset entries (``depth``,
        ``branching``, ``values``, ``ragged``, ``players``, ``probabilities``),
        ``root_player``, and the kind's own options (``rule``, ``algorithm``,
        ``node``, ``chance``, ``leaves_only``).

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


# ============================================================================
# Checkers for a learner's functions: running learner code safely
# ============================================================================

_BUDGET = 50_000  # calls to the game per run of the learner's function
_HERE = os.path.dirname(os.path.abspath(__file__))


class _TooManyCalls(BaseException):
    """Stops a runaway learner function (BaseException: a bare ``except Exception`` cannot swallow it)."""


class _StateError(ValueError):
    """A mutable test game was handed a state that cannot arise: a move was not undone."""


def _describe_error(exc):
    """``"KeyError: (0, 1) (in max_value, line 7)"``: deterministic, no addresses or file names."""
    msg = re.sub(r" at 0x[0-9a-fA-F]+", "", str(exc))
    where = ""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not f.filename.startswith(_HERE)]
    if frames:
        f = frames[-1]
        where = f" (in {f.name}, line {f.lineno})"
    name = type(exc).__name__
    return f"{name}: {msg}{where}" if msg else f"{name}{where}"


class _Outcome:
    __slots__ = ("value", "error", "exc")

    def __init__(self, value=None, error=None, exc=None):
        self.value, self.error, self.exc = value, error, exc

    def problem(self):
        """None when the function returned a number, else what went wrong (a phrase)."""
        if self.error:
            return self.error
        v = self.value
        if v is None:
            return "returned None (is a return statement missing?)"
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            return f"returned {v!r} ({type(v).__name__}), not a number"
        if math.isnan(float(v)):
            return "returned NaN"
        return None


class _Printed:
    """Collects what learner code prints while it is checked (so outputs stay short and stable)."""

    def __init__(self):
        self.buffer = io.StringIO()

    def lines(self):
        return len(self.buffer.getvalue().splitlines())


def _run(fn, args, printed, game=None):
    if game is not None:
        game.calls = 0
    try:
        with contextlib.redirect_stdout(printed.buffer):
            value = fn(*args)
    except _TooManyCalls:
        return _Outcome(error=f"made more than {_BUDGET:,} calls to the game without finishing "
                              "(does it loop, or search the same positions over and over?)")
    except RecursionError as exc:
        return _Outcome(error="raised RecursionError: maximum recursion depth exceeded "
                              "(does it stop at terminal states?)", exc=exc)
    except Exception as exc:  # noqa: BLE001 -- the learner's bug becomes feedback
        return _Outcome(error=f"raised {_describe_error(exc)}", exc=exc)
    return _Outcome(value)


def _error_hint(error):
    """A hint for a common exception in learner code."""
    if not error:
        return None
    if "no one moves there" in error or "arg is an empty sequence" in error or "is not a leaf" in error:
        return ("Test game.is_terminal(state) first, and return game.utility(state) there: a terminal state "
                "has no player to move and no moves.")
    if "make/unmake" in error:
        return "Use game.result(state, move): it returns the child's state and leaves state as it was."
    if "RecursionError" in error:
        return "The recursion must stop: return game.utility(state) when game.is_terminal(state) is true."
    if "unhashable" in error:
        return "This test game's states are lists (mutable, unhashable): do not use them as dict keys or in sets."
    if "is not a chance node" in error:
        return "Call game.chances(state) only where game.to_move(state) == 'chance'."
    if "not a state of this game" in error or "not a position" in error:
        return ("Pass states your function got from the game (game.initial, game.result(state, move)); "
                "a move that is made must also be undone.")
    return None


def _check_fn(fn, where, signature, nargs):
    if not callable(fn):
        raise TypeError(f"{where} expects your function {signature}, got {fn!r} ({type(fn).__name__})")
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    try:
        sig.bind(*range(nargs))
    except TypeError:
        return (f"{where} calls your function as {signature}, with {nargs} argument{'s' if nargs > 1 else ''}, "
                f"but {getattr(fn, '__name__', 'it')}{sig} cannot take that.")
    return None


class _TestTree(TreeGame):
    """A tree as a game for learner code: counts calls, logs evaluations and generated children."""

    def __init__(self, G):
        super().__init__(G)
        self.calls = 0
        self.evaluated = []
        self.generated = []

    def _tick(self, state):
        self.calls += 1
        if self.calls > _BUDGET:
            raise _TooManyCalls
        try:
            known = state in self._succ
        except TypeError:
            known = False
        if not known:
            raise ValueError(
                f"{state!r} is not a state of this game: its states are the tree's node ids, such as "
                f"{self.initial!r}"
            )

    def is_terminal(self, state):
        self._tick(state)
        return super().is_terminal(state)

    def utility(self, state):
        self._tick(state)
        self.evaluated.append(state)
        return super().utility(state)

    def to_move(self, state):
        self._tick(state)
        return super().to_move(state)

    def actions(self, state):
        self._tick(state)
        return super().actions(state)

    def result(self, state, move):
        self._tick(state)
        child = super().result(state, move)
        self.generated.append(child)
        return child

    def successors(self, state):
        self._tick(state)
        return list(super().successors(state))

    def chances(self, state):
        self._tick(state)
        return super().chances(state)

    def make(self, state, move):
        raise ValueError("this game's states are node ids, which never change: there is no make/unmake here")

    unmake = make


class _ListStateGame(Game):
    """A tree as a game whose states are *mutable* lists of moves (child indices).

    ``result(state, move)`` returns a new list; ``make(state, move)`` and
    ``unmake(state, move)`` change the list in place. Any list that is not a
    path of the tree is refused, so a move that was never undone shows up.
    """

    def __init__(self, G):
        self._tree = TreeGame(G)
        self.initial = []
        self.calls = 0

    def __repr__(self):
        return "ListStateGame()"

    def _node(self, state):
        self.calls += 1
        if self.calls > _BUDGET:
            raise _TooManyCalls
        if not isinstance(state, list):
            raise TypeError(f"a state of this game is a list of moves, got {state!r}")
        n = tuple(state)
        if n not in self._tree._succ:
            raise _StateError(
                f"{state!r} is not a position of this game: a move was made and never undone"
            )
        return n

    def to_move(self, state):
        return self._tree.to_move(self._node(state))

    def is_terminal(self, state):
        return self._tree.is_terminal(self._node(state))

    def utility(self, state):
        return self._tree.utility(self._node(state))

    def actions(self, state):
        return list(range(len(self._tree._succ[self._node(state)])))

    def chances(self, state):
        n = self._node(state)
        return [(c[-1], p) for c, p in self._tree.chances(n)]

    def _legal(self, state, move):
        if move not in self.actions(state):
            raise ValueError(f"move {move!r} is not legal in {state!r}; moves: {self.actions(state)}")

    def result(self, state, move):
        self._legal(state, move)
        return list(state) + [move]

    def successors(self, state):
        return [(m, list(state) + [m]) for m in self.actions(state)]

    def make(self, state, move):
        self._legal(state, move)
        state.append(move)

    def unmake(self, state, move):
        if not state or state[-1] != move:
            raise _StateError(f"unmake({state!r}, {move!r}): the last move made was not {move!r}")
        state.pop()


class _TestTicTacToe(TicTacToe):
    """Tic-tac-toe for learner code: counts calls and logs evaluations."""

    def __init__(self):
        self.calls = 0
        self.evaluated = []

    def _tick(self):
        self.calls += 1
        if self.calls > _BUDGET:
            raise _TooManyCalls

    def is_terminal(self, state):
        self._tick()
        return super().is_terminal(state)

    def utility(self, state):
        self._tick()
        self.evaluated.append(state)
        return super().utility(state)

    def to_move(self, state):
        self._tick()
        return super().to_move(state)

    def actions(self, state):
        self._tick()
        return super().actions(state)

    def result(self, state, move):
        self._tick()
        return super().result(state, move)

    def successors(self, state):
        self._tick()
        return super().successors(state)


class _CallLog:
    """While active, logs the calls a learner's function makes to itself by name.

    A function that recurses through its own global name (``def ab(...): ...
    ab(game, child, alpha, beta)``) is wrapped for the duration of the check
    (the name is restored afterwards), so the windows it passes down can be
    compared with alpha-beta's. Helpers called under other names are not seen.
    """

    def __init__(self, fn, positions):
        self.fn = fn
        self.calls = None
        self.installed = False
        self._globals = getattr(fn, "__globals__", None)
        self._name = getattr(fn, "__name__", None)
        try:
            self._sig = inspect.signature(fn)
            self._params = list(self._sig.parameters)
        except (TypeError, ValueError):
            self._sig = None
        self._positions = positions

        def wrapper(*args, **kwargs):
            entry = None
            if self.calls is not None and self._sig is not None:
                try:
                    bound = self._sig.bind(*args, **kwargs).arguments
                    entry = [bound[self._params[i]] for i in self._positions] + [None]
                except (TypeError, IndexError, KeyError):
                    entry = None
                if entry is not None:
                    entry[0] = tuple(entry[0]) if isinstance(entry[0], list) else entry[0]
                    self.calls.append(entry)
            r = fn(*args, **kwargs)
            if entry is not None:
                entry[-1] = r
            return r

        self.wrapper = wrapper

    def __enter__(self):
        g = self._globals
        if isinstance(g, dict) and self._name and g.get(self._name) is self.fn:
            g[self._name] = self.wrapper
            self.installed = True
        return self

    def __exit__(self, *exc):
        if self.installed and self._globals.get(self._name) is self.wrapper:
            self._globals[self._name] = self.fn
        self.installed = False
        return False


# ============================================================================
# Test material (built once, on first use)
# ============================================================================

_TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
_CACHE = {}


def _map_leaves(spec, f):
    if isinstance(spec, list):
        return [_map_leaves(s, f) for s in spec]
    if isinstance(spec, dict):
        out = dict(spec)
        key = next(k for k in spec if k in (MAX, MIN, CHANCE))
        out[key] = [_map_leaves(s, f) for s in spec[key]]
        return out
    return f(spec)


def _drawn(seed, **settings):
    base = {"depth": 3, "branching": (1, 3), "values": (0, 20), "ragged": True, "players": None,
            "probabilities": "equal", "root_player": MAX}
    base.update(settings)
    return _random_spec(random.Random(seed), base)


def _tree(spec, root=MAX):
    return tree_from_nested(spec, root_player=root)


def _minimax_groups():
    if "minimax" not in _CACHE:
        ragged = [_tree(_drawn(s, depth=4)) for s in (11, 12)]
        ragged += [_tree(_drawn(13, depth=4), MIN)]
        _CACHE["minimax"] = [
            ("the textbook tree [[3, 12, 8], [2, 4, 6], [14, 5, 2]]", [_tree(_TEXTBOOK)]),
            ("small trees (a lone leaf, one MAX node, one MIN node)",
             [_tree(7), _tree([4, 9]), _tree([4, 9], MIN), _tree([[1, 5], 6])]),
            ("MIN at the root", [_tree(_TEXTBOOK, MIN), _tree([[2, 9], [7, 1, 8], [4]], MIN)]),
            ("turns that do not alternate (MIN moves twice in a row)",
             [_tree({"max": [{"min": [{"min": [3, 8]}, {"min": [5, 1]}]}, {"min": [{"min": [4, 6]}, 2]}]})]),
            ("ragged trees (leaves at different depths)", ragged),
            ("negative and fractional values",
             [_tree([[-1.5, 2.25], [0.5, -3.75, 1]]),
              _tree([[-3, -12, -8], [-2, -4, -6], [-14, -5, -2]]),
              _tree(_map_leaves(_drawn(14, depth=3, values=(-12, 12)), lambda v: v / 4))]),
        ]
    return _CACHE["minimax"]


def _alphabeta_groups():
    if "alphabeta" not in _CACHE:
        _CACHE["alphabeta"] = _minimax_groups() + [
            ("ties (a value equal to α or β)",
             [_tree([[3, 5], [3, 9]]), _tree([[3, 1], [3, 0]], MIN), _tree([[5, 5], [5, 5, 5], [5]])]),
            ("values of 0 (a bound of 0 must still cut)",
             [_tree([[0, 1], [-1, 5]]), _tree([[0, -1], [1, -5]], MIN), _tree([[0, 0], [0, 0, 0]])]),
            ("deeper trees (cutoffs far below the bound's owner)",
             [_tree([[[3, 5], [6, 9]], [[1, 2], [0, 8]]])]
             + [_tree(_drawn(s, depth=4, branching=(2, 3), ragged=False)) for s in (21, 22)]),
        ]
    return _CACHE["alphabeta"]


def _expectimax_groups():
    if "expectimax" not in _CACHE:
        mixed = {"players": (MAX, CHANCE, MIN), "probabilities": "varied", "branching": (2, 3), "ragged": False}
        _CACHE["expectimax"] = [
            ("a MAX node over two chance nodes",
             [_tree([{"chance": [3, 12], "p": [0.25, 0.75]}, {"chance": [2, 4]}])]),
            ("equal probabilities", [_tree([{"chance": [4, 8]}, {"chance": [3, 5, 10]}])]),
            ("a chance node at the root", [_tree({"chance": [[1, 9], [4, 6]], "p": [0.3, 0.7]})]),
            ("MIN at the root", [_tree([{"chance": [3, 12], "p": [0.25, 0.75]}, {"chance": [2, 4]}], MIN)]),
            ("chance under chance", [_tree([{"chance": [{"chance": [2, 6], "p": [0.5, 0.5]}, 10],
                                             "p": [0.4, 0.6]}, 5])]),
            ("MAX, chance and MIN nodes", [_tree(_drawn(s, depth=3, **mixed)) for s in (31, 32)]),
            ("negative and fractional values",
             [_tree(_map_leaves(_drawn(33, depth=3, values=(-12, 12), **mixed), lambda v: v / 4))]),
        ]
    return _CACHE["expectimax"]


# Tic-tac-toe positions with few empty cells (values computed by the engine).
_TTT_POSITIONS = ("XX./OO./...", "X.O/.O./X..", "XO./.X./..O", "XX./.O./...", "XOX/OO./X.X",
                  "XOX/.O./...", "XXX/OO./...", "OOO/XX./X..", "XOX/XOO/OXX")


def _exact(G):
    """The engine's exact value of every node (expectimax equals minimax without chance)."""
    return expectimax(G, trace=True).graph


# ============================================================================
# Explaining a wrong value at one node
# ============================================================================


def _explain_node(G, nodes, truth, n, got, state_text=None, roles=(MAX, MIN), context=True):
    """``(text, hint)`` for a node whose value is wrong while its children's are right.

    ``roles``: the players for which "you took the other player's choice" is a
    plausible reading (alpha-beta code can return such a value for other reasons);
    ``context``: hint that the children are scored differently inside the search
    (for alpha-beta that is expected: the caller probes windows instead).
    """
    name = nodes.name(n)
    where = f"At {name} (state {state_text if state_text is not None else repr(n)})"
    if isinstance(got, _Outcome):
        problem = got.problem()
        return f"{where}, your function {problem}.", _error_hint(problem)
    v = truth.nodes[n]["value"]
    if not G.out_degree(n):
        u = G.nodes[n]["utility"]
        hint = "Return game.utility(state) unchanged at a terminal state."
        if _close(got, -u):
            hint = ("You negated the utility: utilities are from MAX's point of view, whoever is to move "
                    "(negate only in negamax, and then consistently).")
        return (f"{where}, a terminal node, your function returned {_fmt(got)}, but a terminal state is "
                f"worth game.utility(state) = {_fmt(u)}."), hint
    player = G.nodes[n]["player"]
    kids = list(G.successors(n))
    kid_values = [truth.nodes[c]["value"] for c in kids]
    listing = ", ".join(f"{nodes.name(c)} = {_fmt(truth.nodes[c]['value'])}" for c in kids)
    if player == CHANCE:
        probs = _probs(G, n)
        weighted = " + ".join(f"{_prob(probs[c])} × {_fmt(truth.nodes[c]['value'])}" for c in kids)
        text = (f"{where}, your function returned {_fmt(got)}, but {name} is a chance node whose outcomes "
                f"are worth {listing} (your function gets those right), so {name} is worth "
                f"{weighted} = {_fmt(v)}.")
        return text, _chance_hint(name, got, kid_values, [probs[c] for c in kids])
    which = "largest" if player == MAX else "smallest"
    text = (f"{where}, your function returned {_fmt(got)}, but {name} is a {_ROLE[player]} node "
            f"(game.to_move gives {player!r}) whose children are worth {listing} (your function gets those "
            f"right), so {name} is worth {_fmt(v)}, the {which}.")
    hint = _roles_hint(G, nodes, n, got, kid_values) if player in roles else None
    if hint is None:
        if got == 0 and all((k < 0) if player == MAX else (k > 0) for k in kid_values):
            hint = (f"0 is not the value of any child: does the best value so far (or α/β) start at 0 instead of "
                    f"{'-math.inf' if player == MAX else 'math.inf'}? With children all "
                    f"{'below' if player == MAX else 'above'} 0, a start of 0 is never replaced.")
        elif math.isinf(got):
            hint = ("That is a starting value that no child's value replaced: does the loop over the children "
                    "run, and is the comparison the right way round?")
        elif len(kids) > 1 and player in roles and _close(got, kid_values[0]):
            hint = "That is the first child's value: compare every child, keeping the best so far."
        elif len(kids) > 1 and player in roles and _close(got, kid_values[-1]):
            hint = "That is the last child's value: keep the best so far instead of overwriting it."
        elif _close(got, -v):
            hint = "That is the right value with the wrong sign: values are from MAX's point of view at every node."
    if hint is None and context:
        same = [c for c in kids if G.nodes[c].get("player") == player]
        if same:
            hint = (f"Turns need not alternate: {nodes.name(same[0])} is {_ROLE[player]} like its parent {name}. "
                    f"Ask game.to_move(state) at every node instead of alternating MAX and MIN by depth.")
        else:
            hint = (f"Called on their own, your function gets {name}'s children right, but not inside {name}'s "
                    f"search: does it pass something down (a flag, a depth) or keep something between calls that "
                    f"changes how they are scored? Ask game.to_move(state) at every node.")
    return text, hint


def _deepest(G, nodes, bad):
    """The deepest node in ``bad`` whose children are all fine (first in BFS order on ties)."""
    candidates = [n for n in bad if not any(c in bad for c in G.successors(n))]
    if not candidates:
        return None
    return min(candidates, key=lambda n: (-nodes.depth[n], nodes.index[n]))


def _probe_values(fn_call, G, truth, printed, tol):
    """Call the learner on every node (as a start state); ``{node: _Outcome}`` and the wrong ones."""
    outcomes, bad = {}, set()
    for n in G:
        game = _TestTree(G)
        out = _run(fn_call, (game, n), printed, game)
        outcomes[n] = out
        if out.problem() or not _close(float(out.value), truth.nodes[n]["value"], tol):
            bad.add(n)
    return outcomes, bad


def _diagnose_tree(fn_call, G, printed, tol, roles=(MAX, MIN), context=True):
    """``(text, hint)``: the deepest node whose value is wrong while its children's are right."""
    nodes = _Nodes(G)
    truth = _exact(G)
    outcomes, bad = _probe_values(fn_call, G, truth, printed, tol)
    n = _deepest(G, nodes, bad)
    if n is None:
        return ("Called on each node of this tree separately, your function gets every value right, yet not "
                "when called at the root: does it keep state between calls (a global variable, a default "
                "argument)?", None), None
    out = outcomes[n]
    got = out if out.problem() else float(out.value) if not isinstance(out.value, int) else out.value
    return _explain_node(G, nodes, truth, n, got, roles=roles, context=context), n


def _inline_tree(G, limit=None):
    text = _inline(G, _Nodes(G))
    if limit is not None and len(text) > limit:
        return f"a tree of {G.number_of_nodes()} nodes"
    return text


def _group_line(rep, name, results):
    """One ✓/✗ line for a group of test trees; ``results`` holds (ok, G, expected, outcome)."""
    wrong = [r for r in results if not r[0]]
    if not wrong:
        if len(results) == 1:
            rep.good(f"{name}: right ({_fmt(results[0][2])}).")
        else:
            rep.good(f"{name}: right on all {len(results)}.")
        return True
    _, G, expected, out = min(wrong, key=lambda r: r[1].number_of_nodes())
    problem = out.problem()
    got = problem if problem else f"returned {_fmt(out.value)}"
    rep.bad(f"{name}: {len(results) - len(wrong)} of {len(results)} right; e.g. {_inline_tree(G, 100)} is worth "
            f"{_fmt(expected)}, your function {got}.", _error_hint(problem))
    return False


def _smallest(failures):
    return min(failures, key=lambda f: (f[0].number_of_nodes(), f[1]))[0] if failures else None


def _printed_note(rep, printed):
    k = printed.lines()
    if k:
        rep.note(f"Your function printed {k} line{'s' if k > 1 else ''} while being checked (not shown).")


def _checker_feedback(name, rep, passed, total, unit="checks passed"):
    title = (f"{name}: all {total} {unit}." if passed == total
             else f"{name}: {passed} of {total} {unit}.")
    return Feedback(title, rep.items)


# ============================================================================
# check_minimax
# ============================================================================

_RESTORE_HINT = (
    "Work on copies (game.result(state, move) returns a new state) or undo every move after its "
    "recursive call (game.unmake(state, move)). Beware: `child = state` does not copy a list, it gives "
    "the same list a second name."
)


def _run_suite(fn_call, groups, rep, printed, tol, engine):
    """Run ``fn_call(game, root)`` on every tree; one line per group. ``(passed, total, failures)``."""
    passed = total = 0
    failures = []
    for name, trees in groups:
        results = []
        for G in trees:
            game = _TestTree(G)
            out = _run(fn_call, (game, game.initial), printed, game)
            expected = engine(G, trace=False, graph=False).value
            ok = out.problem() is None and _close(float(out.value), expected, tol)
            results.append((ok, G, expected, out))
            if not ok:
                failures.append((G, len(failures)))
        total += 1
        passed += _group_line(rep, name, results)
    return passed, total, failures


def _report_smallest(rep, fn_call, failures, printed, tol, roles=(MAX, MIN), context=True):
    G = _smallest(failures)
    if G is None:
        return None, None
    (text, hint), n = _diagnose_tree(fn_call, G, printed, tol, roles, context)
    rep.bad(f"Smallest failing tree: {_inline_tree(G)}. {text}", hint)
    return G, n


def _ttt_text(s):
    return f"'{TicTacToe.to_string(s)}'"


def _ttt_walk(fn_call, state, printed, roles=(MAX, MIN)):
    """``(text, hint)`` at the deepest wrong position below ``state`` whose successors are right."""
    game = TicTacToe()

    def truth(s):
        return minimax(game, s, trace=False, graph=False).value

    def learner(s):
        g = _TestTicTacToe()
        return _run(fn_call, (g, s), printed, g)

    def wrong(out, t):
        return out.problem() is not None or not _close(float(out.value), t)

    s, out = state, learner(state)
    for _ in range(10):
        pos = _ttt_text(s)
        got = out.problem() or f"returned {_fmt(out.value)}"
        if game.is_terminal(s):
            u = game.utility(s)
            what = {1: "X has three in a row", -1: "O has three in a row", 0: "a draw: the board is full"}[u]
            hint = _error_hint(out.problem())
            if not out.problem() and u == 0 and out.value == -1:
                hint = "A draw is worth 0, between a win (+1) and a loss (-1): scoring it as a loss makes your player avoid safe draws."
            elif not out.problem() and _close(float(out.value), -u):
                hint = "Utilities are from MAX's (X's) point of view, whoever is to move."
            return f"At {pos} the game is over ({what}), so it is worth game.utility(state) = {_fmt(u)}; your function {got}.", hint
        kids = game.successors(s)
        below = None
        listing = []
        for m, c in kids:
            c_out, t = learner(c), truth(c)
            if wrong(c_out, t):
                below = (c, c_out)
                break
            listing.append((m, t))
        if below is not None:
            s, out = below
            continue
        player = game.to_move(s)
        v = truth(s)
        values = [t for _, t in listing]
        text = (f"At {pos} ({'X' if player == MAX else 'O'} = {_ROLE[player]} to move), your function {got}, but "
                f"its moves lead to positions worth {', '.join(f'cell {m}: {_fmt(t)}' for m, t in listing)} (your "
                f"function gets those right), so it is worth {_fmt(v)}, the {'largest' if player == MAX else 'smallest'}.")
        hint = _error_hint(out.problem())
        if hint is None and not out.problem() and player in roles:
            other = min(values) if player == MAX else max(values)
            if _close(float(out.value), other) and not _close(other, v):
                hint = f"You took the {'smallest' if player == MAX else 'largest'} value: ask whose turn it is with game.to_move(state)."
        return text, hint
    return f"Your function gets {_ttt_text(state)} wrong.", None


def _ttt_group(fn_call, rep, printed, counts=None, roles=(MAX, MIN)):
    """Values on tic-tac-toe positions (and, with ``counts``, leaves evaluated vs the engine)."""
    game = TicTacToe()
    rows = []
    for text in _TTT_POSITIONS:
        s = TicTacToe.from_string(text)
        g = _TestTicTacToe()
        out = _run(fn_call, (g, s), printed, g)
        expected = minimax(game, s, trace=False, graph=False).value
        ok = out.problem() is None and _close(float(out.value), expected)
        rows.append((ok, s, expected, out, len(g.evaluated)))
    wrong = [r for r in rows if not r[0]]
    if not wrong:
        rep.good(f"tic-tac-toe positions: right on all {len(rows)}.")
        ok = True
    else:
        _, s, expected, out, _ = min(wrong, key=lambda r: (9 - bin(r[1][0] | r[1][1]).count("1")))
        mover = "X" if game.to_move(s) == MAX else "O"
        got = out.problem() or f"returned {_fmt(out.value)}"
        rep.bad(f"tic-tac-toe positions: {len(rows) - len(wrong)} of {len(rows)} right; e.g. {_ttt_text(s)} "
                f"({mover} to move) is worth {_fmt(expected)}, your function {got}.")
        rep.bad(*_ttt_walk(fn_call, s, printed, roles))
        ok = False
    if counts is not None and not wrong:
        learner = [r[4] for r in rows]
        rules = {rule: [alphabeta(game, r[1], strict=rule == "strict", trace=False).stats["leaves_evaluated"]
                        for r in rows] for rule in _RULES}
        if learner == rules["textbook"] or learner == rules["strict"]:
            rule = "textbook" if learner == rules["textbook"] else "strict"
            rep.good(f"tic-tac-toe positions: the same number of leaves as alpha-beta with the {rule} rule "
                     f"({sum(learner)} in all).")
        else:
            rep.bad(f"tic-tac-toe positions: your function evaluates {sum(learner)} terminal positions in all; "
                    f"alpha-beta evaluates {sum(rules['textbook'])} (textbook rule) or {sum(rules['strict'])} "
                    f"(strict rule).")
            ok = False
    return ok


def _mutable_group(fn_call, rep, printed, tol, diagnose=True):
    """The function on a game with mutable list states: values right and states left as they were."""
    name = "a game whose states are mutable lists (with make/unmake)"
    trees = [_tree(_TEXTBOOK), _tree(_drawn(11, depth=4)), _minimax_groups()[3][1][0]]
    results = []
    for G in trees:
        game = _ListStateGame(G)
        s = []
        out = _run(fn_call, (game, s), printed, game)
        expected = minimax(G, trace=False, graph=False).value
        ok = out.problem() is None and _close(float(out.value), expected, tol) and s == []
        results.append((ok, G, expected, out, list(s)))
    errors = [r[3].error or "" for r in results if not r[0]]
    if errors and all("unhashable" in e for e in errors):
        rep.note(f"Skipped {name}: your function needs hashable states ({errors[0]}).")
        return None
    fails = [r for r in results if not r[0]]
    if not fails:
        rep.good(f"{name}: right, and every state is left as it was.")
        return True
    _, G, expected, out, after = min(fails, key=lambda r: r[1].number_of_nodes())
    got = out.problem() or f"returned {_fmt(out.value)}"
    changed = f", leaving the state as {after} instead of []" if after else ""
    rep.bad(f"{name}: {len(results) - len(fails)} of {len(results)} right; e.g. {_inline_tree(G, 100)} "
            f"is worth {_fmt(expected)}, your function {got}{changed}.")
    state_trouble = any(r[4] or isinstance(r[3].exc, _StateError) for r in fails)
    if not state_trouble and not diagnose:
        return False  # the same mistake as on the trees above
    nodes, truth = _Nodes(G), _exact(G)
    bad, seen = set(), {}
    for n in G:
        game = _ListStateGame(G)
        s = list(n)
        o = _run(fn_call, (game, s), printed, game)
        seen[n] = (o, list(s))
        if o.problem() or not _close(float(o.value), truth.nodes[n]["value"], tol) or s != list(n):
            bad.add(n)
    n = _deepest(G, nodes, bad)
    if n is None:
        rep.bad("Called at each node separately your function is right; only the whole search goes wrong: "
                "a state is changed and not restored between sibling calls.", _RESTORE_HINT)
        return False
    o, after = seen[n]
    where = f"At {nodes.name(n)} (state {list(n)})"
    if after != list(n):
        did = f"{o.problem()}, leaving" if o.problem() else "returned with"
        rep.bad(f"{where}, your function {did} the state changed to {after}: a move made in "
                f"{nodes.name(n)}'s loop was never undone, so the next child is searched from the wrong position.",
                _RESTORE_HINT)
    elif o.problem() and isinstance(o.exc, _StateError):
        rep.bad(f"{where}, your function {o.problem()}.", _RESTORE_HINT)
    else:
        got = o if o.problem() else o.value
        text, hint = _explain_node(G, nodes, truth, n, got, state_text=repr(list(n)))
        rep.bad(text, hint or (_RESTORE_HINT if state_trouble else None))
    return False


def check_minimax(fn, *, tictactoe=True, mutable=True):
    """Check a learner's minimax ``fn(game, state) -> value``.

    ``fn`` is written against the game protocol (``game.is_terminal``,
    ``game.utility``, ``game.to_move``, ``game.actions``, ``game.result``)
    and returns the state's minimax value from MAX's point of view. It is run
    on the textbook tree ``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]``, small trees,
    MIN-rooted trees, trees where turns do not alternate, ragged trees,
    negative and fractional values, a game whose states are mutable lists
    (``mutable``) and tic-tac-toe positions (``tictactoe``). Values are
    compared with :func:`gametrees.minimax`.

    On a failure the feedback names the smallest failing tree and the deepest
    node whose value is wrong while its children's are right (found by
    calling ``fn`` at every node), says what the value should be and why, and
    points to the likely slip: roles inverted (MAX and MIN, or turns assumed
    to alternate), utilities mis-scored, or a state not restored after a
    child's search. Exceptions in ``fn`` are reported, never raised.

    Parameters
    ----------
    fn : callable
        ``fn(game, state) -> number``.
    tictactoe : bool
        Also check tic-tac-toe positions (a few empty cells each).
    mutable : bool
        Also check a game whose states are lists, with ``game.result``
        (a copy) and ``game.make`` / ``game.unmake`` (in place).

    Returns
    -------
    Feedback
        ``.tree`` is the smallest failing tree (or None).

    Examples
    --------
    >>> def minimax_value(game, state):
    ...     if game.is_terminal(state):
    ...         return game.utility(state)
    ...     values = [minimax_value(game, game.result(state, m)) for m in game.actions(state)]
    ...     return max(values)   # forgets that MIN picks the smallest
    >>> fb = check_minimax(minimax_value, tictactoe=False, mutable=False)
    >>> fb.ok
    False
    >>> print(fb.lines[-1])
    ✗ Smallest failing tree: A:min(B=4, C=9). At A (state ()), your function returned 9, but A is a MIN node (game.to_move gives 'min') whose children are worth B = 4, C = 9 (your function gets those right), so A is worth 4, the smallest.
    >>> print(fb.hints[-1])
    You took the largest value, but MIN picks the smallest. Ask whose turn it is at A.
    """
    problem = _check_fn(fn, "check_minimax", "fn(game, state)", 2)
    if problem:
        return Feedback("check_minimax: your function could not be called.", [("bad", problem, None)])
    rep, printed = _Report(), _Printed()
    passed, total, failures = _run_suite(fn, _minimax_groups(), rep, printed, 1e-9, minimax)
    G, _ = _report_smallest(rep, fn, failures, printed, 1e-9)
    if mutable:
        r = _mutable_group(fn, rep, printed, 1e-9, diagnose=not failures)
        if r is not None:
            total += 1
            passed += r
    if tictactoe:
        total += 1
        passed += _ttt_group(fn, rep, printed)
    _printed_note(rep, printed)
    fb = _checker_feedback("check_minimax", rep, passed, total)
    fb.tree = G
    return fb


# ============================================================================
# check_expectimax
# ============================================================================


def check_expectimax(fn):
    """Check a learner's expectimax ``fn(game, state) -> value``.

    Chance nodes are those where ``game.to_move(state) == "chance"``;
    ``game.chances(state)`` lists ``(move, probability)`` pairs. ``fn`` is run
    on trees with equal and unequal probabilities, a chance root, a MIN root,
    chance under chance, MAX/chance/MIN trees and fractional values, and
    compared with :func:`gametrees.expectimax`. Feedback names the deepest
    wrong node and the usual slips at chance nodes: taking the minimum (or
    maximum), or a plain, unweighted mean.

    Examples
    --------
    >>> def plain_mean(game, state):
    ...     if game.is_terminal(state):
    ...         return game.utility(state)
    ...     values = [plain_mean(game, game.result(state, m)) for m in game.actions(state)]
    ...     player = game.to_move(state)
    ...     if player == "chance":
    ...         return sum(values) / len(values)    # ignores the probabilities
    ...     return max(values) if player == "max" else min(values)
    >>> fb = check_expectimax(plain_mean)
    >>> print(fb.hints[-1])
    You took the plain average, but B's outcomes are not equally likely: weight each by its probability, 0.25 × 3 + 0.75 × 12.
    """
    problem = _check_fn(fn, "check_expectimax", "fn(game, state)", 2)
    if problem:
        return Feedback("check_expectimax: your function could not be called.", [("bad", problem, None)])
    rep, printed = _Report(), _Printed()
    passed, total, failures = _run_suite(fn, _expectimax_groups(), rep, printed, 1e-6, expectimax)
    G, _ = _report_smallest(rep, fn, failures, printed, 1e-6)
    _printed_note(rep, printed)
    fb = _checker_feedback("check_expectimax", rep, passed, total)
    fb.tree = G
    return fb


# ============================================================================
# check_alphabeta
# ============================================================================


def _visited_leaves(result, G):
    R = result.graph
    leaves = [n for n in R if R.nodes[n].get("status") == "visited" and not G.out_degree(n)]
    return sorted(leaves, key=lambda n: R.nodes[n]["order"])


def _same(x, y):
    if x is None or y is None or isinstance(x, bool) or not isinstance(x, numbers.Real):
        return False
    return _close(float(x), float(y))


def _window_text(a, b):
    return f"α = {_fmt(a) if isinstance(a, numbers.Real) else repr(a)}, β = {_fmt(b) if isinstance(b, numbers.Real) else repr(b)}"


def _restart_leaves(G, strict):
    """The leaves a search evaluates if the root restarts the window for every child (engine runs)."""
    out = []
    for c in G.successors(G.graph["root"]):
        out += [c] if not G.out_degree(c) else _visited_leaves(alphabeta(G, c, strict=strict, trace=True), G)
    return out


def _all_leaves(G):
    return [n for n in nx.dfs_preorder_nodes(G, G.graph["root"]) if not G.out_degree(n)]


def _leaf_diagnosis(G, L, rule, zero_hint=True):
    """``(text, hint, zero)``: where the learner's evaluated leaves first part from alpha-beta's.

    ``zero``: the first extra leaf is one a bound of 0 should have cut off.
    """
    nodes = _Nodes(G)
    strict = rule == "strict"
    ref = alphabeta(G, strict=strict, trace=True)
    info = _SearchInfo(ref, nodes)
    R = _visited_leaves(ref, G)
    head = (f"On {_inline(G, nodes)}, your function evaluates {len(L)} leaves ({_and(nodes.name(x) for x in L)}); "
            f"alpha-beta with the {rule} rule evaluates {len(R)} ({_and(nodes.name(x) for x in R)}).")
    i = 0
    while i < min(len(L), len(R)) and L[i] == R[i]:
        i += 1
    if i < len(L) and L[i] not in R:
        x = L[i]
        cut = info.cut_for(x)
        text = head + f" The first extra one is {nodes.name(x)}: alpha-beta never evaluates it, because {cut.text(nodes)}."
        bound = cut.alpha if cut.player == MIN else cut.beta
        if bound == 0 and zero_hint:
            hint = ("The bound here is 0. A test like `if alpha and v <= alpha`, or None/0 standing for 'no bound "
                    "yet', skips the cut when the bound is 0: use real infinities (-math.inf, math.inf) and "
                    "compare numbers.")
        else:
            test = ("v ≤ α" if not strict else "v < α") if cut.player == MIN else ("v ≥ β" if not strict else "v > β")
            hint = (f"Check the cutoff test at {nodes.name(cut.node)} ({_ROLE[cut.player]}): it stops as soon as "
                    f"{test}, with the α and β it inherited; and check that every node passes its updated window "
                    f"on to its next child.")
        return text, hint, bound == 0
    if i < len(L):
        return (head + f" You evaluate {nodes.name(L[i])} before {nodes.name(R[i])}: alpha-beta takes the children "
                       f"in the order game.actions(state) gives them.",
                "Sorting or reordering the children changes which leaves are pruned: search them in the given order "
                "here (and do not call game.utility on a child before its turn).", False)
    y = R[i]
    why, hint = _visited_reason(G, nodes, info, y, strict)
    return (head + f" You never evaluate {nodes.name(y)}, but alpha-beta must: {why}",
            hint or "Pruning needs evidence: a node stops only after a finished child's value falls outside the "
                    "window it inherited; it cannot rule out a child by a 'maximum possible score'.", False)


_KIND_RANK = {"global": 0, "premature": 1, "bound": 2, "none": 3, "other": 4, "restart": 5}
_HINT_GLOBAL = ("Windows pass down only, as copies (function arguments); only values pass up. A global or shared "
                "α/β lets one subtree's bounds leak into another.")
_HINT_NONE = ("Use real infinities (-math.inf, math.inf) for 'no bound yet', not None or 0: 0 is a real score, and "
              "None cannot be compared.")


def _window_diagnosis(G, calls, rule):
    """``(text, hint, kind)`` at the first call whose window differs from alpha-beta's, or None.

    ``calls`` are the learner's own recursive calls, in order: ``[state, alpha, beta, returned]``.
    """
    nodes = _Nodes(G)
    info = _SearchInfo(alphabeta(G, strict=rule == "strict", trace=True), nodes)
    root = nodes.root
    # A cut that the node's own window does not justify (compared with some other bound).
    for idx, (p, a, b, r) in enumerate(calls):
        if p not in G or not G.out_degree(p):
            continue
        if not all(isinstance(x, numbers.Real) and not isinstance(x, bool) for x in (a, b, r)):
            continue
        below = nx.descendants(G, p)
        kids = list(G.successors(p))
        called, got = [], []
        for t, _, _, rt in calls[idx + 1:]:
            if t not in below:
                break
            if t in G.succ[p]:
                called.append(t)
                got.append(rt)
        if not called or called[-1] == kids[-1] or len(set(called)) == len(kids):
            continue
        if not all(isinstance(x, numbers.Real) and not isinstance(x, bool) for x in got):
            continue
        pl = G.nodes[p]["player"]
        r = max(got) if pl == MAX else min(got)  # the node's value when it stopped
        if (r >= b) if pl == MAX else (r <= a):
            continue
        rest = kids[kids.index(called[-1]) + 1:]
        P = nodes.name(p)
        cmp = f"{_fmt(r)} < β = {_fmt(b)}" if pl == MAX else f"{_fmt(r)} > α = {_fmt(a)}"
        return (f"{P} ({_ROLE[pl]}) was searched with {_window_text(a, b)} and stopped after "
                f"{nodes.name(called[-1])} with value {_fmt(r)}, leaving {_and(nodes.name(c) for c in rest)} "
                f"unsearched; but {cmp}, so the window it was given does not allow a cut.",
                "A cut compares the node's value with its own β (at MAX) or α (at MIN): the copies passed to it. "
                "Comparing with another variable, or with a global or shared bound, cuts without evidence and "
                "lets one subtree's bounds leak into another.", "premature")
    for idx, (s, a, b, _) in enumerate(calls):
        if s == root:
            continue
        if s not in info.call_window:
            return None
        ra, rb = info.call_window[s]
        if _same(a, ra) and _same(b, rb):
            continue
        p = next(iter(G.predecessors(s)))
        P, S = nodes.name(p), nodes.name(s)
        pl = G.nodes[p]["player"]
        told = f"{P} searches {S} with {_window_text(a, b)}, but alpha-beta searches it with {_window_text(ra, rb)}"
        if a is None or b is None or (math.isinf(ra) and a == 0) or (math.isinf(rb) and b == 0):
            return told + ".", _HINT_NONE, "none"
        kids = list(G.successors(p))
        earlier = kids[:kids.index(s)]
        inside = set()
        for c in earlier:
            sub = {c} | nx.descendants(G, c)
            inside |= {x for t, x1, x2, _ in calls[:idx] if t in sub for x in (x1, x2)
                       if isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isfinite(x)}
        owner = MAX if pl == MAX else MIN
        kept, kept_ref, kept_sym = (b, rb, "β") if pl == MAX else (a, ra, "α")
        moved, moved_ref, moved_sym = (a, ra, "α") if pl == MAX else (b, rb, "β")
        if not _same(kept, kept_ref):
            if any(_same(kept, y) for y in inside):
                return (f"{told}. {P} passes on {kept_sym} = {_fmt(kept)}, a bound from inside the search of "
                        f"{_and(nodes.name(c) for c in earlier)}.", _HINT_GLOBAL, "global")
            return (f"{told}. {P} is a {_ROLE[pl]} node, but it changed {kept_sym}.",
                    f"MAX raises its floor α; MIN lowers its ceiling β. A {_ROLE[pl]} node passes on the "
                    f"{kept_sym} it inherited.", "bound")
        best = info.before.get(s)
        # What the learner's own update rule gives from the values its earlier children returned.
        mine = [r for t, _, _, r in calls[:idx] if t in earlier and isinstance(r, numbers.Real)]
        p_entry = next(((x1, x2) for t, x1, x2, _ in calls[:idx] if t == p), (-INF, INF))
        start = p_entry[0] if pl == MAX else p_entry[1]
        if mine and isinstance(start, numbers.Real):
            own = max([start] + mine) if pl == MAX else min([start] + mine)
            if _same(moved, own) and not _same(own, moved_ref):
                wrong = [c for c in earlier if c in info.call_window]
                returned = {t: r for t, _, _, r in calls[:idx] if t in earlier}
                shown = ", ".join(f"{nodes.name(c)} = {_fmt(returned[c]) if isinstance(returned.get(c), numbers.Real) else '?'}"
                                  for c in wrong if c in returned)
                return (f"{told}: {P} updates {moved_sym} correctly from the values your function returned for its "
                        f"earlier children ({shown}), but one of them is not what alpha-beta returns there.",
                        "Look at what your function returns after a cutoff: the value reached (fail-soft) or the "
                        "bound it crossed (fail-hard), never the other bound.", "other")
        if any(_same(moved, y) for y in inside) and not _same(moved, best):
            return (f"{told}. {P} passes on {moved_sym} = {_fmt(moved)}, a bound from inside the search of "
                    f"{_and(nodes.name(c) for c in earlier)}.", _HINT_GLOBAL, "global")
        if moved == 0 and not _same(moved_ref, 0):
            return (f"{told}: where does {moved_sym} = 0 come from?",
                    f"Start the best value so far at {'-math.inf' if pl == MAX else 'math.inf'}, not 0.", "none")
        if p == root and _same(a, -INF) and _same(b, INF):
            return (f"The root {P} searches {S} with α = -∞, β = +∞, the window it started with, but after its "
                    f"earlier children alpha-beta searches {S} with {_window_text(ra, rb)}.",
                    "After each child, the root must pass its raised α (MAX) or lowered β (MIN) on to the next "
                    "child; restarting the window for every root child searches far more leaves.", "restart")
        verb = "raises" if owner == MAX else "lowers"
        return (f"{told}: {P} ({_ROLE[pl]}) has {_fmt(best)} so far, so it {verb} {moved_sym} to {_fmt(moved_ref)} "
                f"before searching {S}.",
                "MAX raises its floor α (α = max(α, v)); MIN lowers its ceiling β (β = min(β, v)); the other bound "
                "passes down unchanged.", "other")
    return None


def _valid_return(r, v, a, b):
    """Is ``r`` a correct alpha-beta return for true value ``v`` in window (a, b)? (fail-soft or fail-hard)"""
    if a < r < b:
        return _close(r, v)
    if r <= a:
        return v <= r + 1e-9
    return v >= r - 1e-9


def _window_probe(fn, G, printed):
    """``(text, hint)``: the deepest node whose return breaks the alpha-beta contract for its window."""
    nodes = _Nodes(G)
    ref = alphabeta(G, trace=True)
    info = _SearchInfo(ref, nodes)
    truth = _exact(G)
    bad, outs = set(), {}
    for n, (a, b) in info.call_window.items():
        if a is None or not G.out_degree(n):
            continue
        game = _TestTree(G)
        out = _run(fn, (game, n, a, b), printed, game)
        outs[n] = out
        if out.problem() or not _valid_return(float(out.value), truth.nodes[n]["value"], a, b):
            bad.add(n)
    n = _deepest(G, nodes, bad)
    if n is None:
        return None
    a, b = info.call_window[n]
    v = truth.nodes[n]["value"]
    if a < v < b:
        want = f"exactly {_fmt(v)}"
    elif v <= a:
        want = _fmt(v) if v == a else f"a value from {_fmt(v)} to {_fmt(a)} ({_fmt(v)} fail-soft, {_fmt(a)} fail-hard)"
    else:
        want = _fmt(v) if v == b else f"a value from {_fmt(b)} to {_fmt(v)} ({_fmt(v)} fail-soft, {_fmt(b)} fail-hard)"
    out = outs[n]
    got = out.problem() or f"returned {_fmt(out.value)}"
    name = nodes.name(n)
    return (f"Called at {name} with {_window_text(a, b)} (the window alpha-beta searches {name} with), your "
            f"function {got}; {name}'s value is {_fmt(v)}, so a correct alpha-beta returns {want}.",
            _error_hint(out.problem()) or
            "A value outside the window is only a bound: below α it means 'at most this', above β 'at least this'. "
            "Check the cutoff tests and what is returned after a cut.", (n, (a, b)))


def check_alphabeta(fn, *, tictactoe=True):
    """Check a learner's alpha-beta ``fn(game, state, alpha, beta) -> value``.

    ``fn`` is called at the root with ``alpha=-math.inf, beta=math.inf`` on
    the trees of :func:`check_minimax` plus trees with ties, zeros and deeper
    cutoffs. Checked against :func:`gametrees.alphabeta`:

    * the root value (fail-soft and fail-hard both give it);
    * the leaves evaluated (every ``game.utility`` call), in order, against
      the textbook rule (prune on v ≥ β / v ≤ α) *and* the strict rule;
      either is accepted, and the feedback says which one the function uses;
    * on a mismatch: a root that restarts the window for every child, a
      missed cut when a bound is 0 (None or 0 standing for ±∞), a reordered
      child, a leaf pruned without evidence.

    If ``fn`` calls itself by its own name, its recursive calls are watched
    too (the name is rebound during the check and restored afterwards), and
    the first window that differs from alpha-beta's is explained: a MIN node
    changing α (or MAX changing β), bounds shared between subtrees, a root
    restarting the window. Exceptions in ``fn`` are reported, never raised.

    Parameters
    ----------
    fn : callable
        ``fn(game, state, alpha, beta) -> number``.
    tictactoe : bool
        Also check values and leaf counts on tic-tac-toe positions.

    Returns
    -------
    Feedback

    Examples
    --------
    >>> import math
    >>> def ab(game, state, alpha, beta):
    ...     if game.is_terminal(state):
    ...         return game.utility(state)
    ...     if game.to_move(state) == "max":
    ...         v = -math.inf
    ...         for m in game.actions(state):
    ...             v = max(v, ab(game, game.result(state, m), alpha, beta))
    ...             if v > beta:           # strict: no cut on a tie
    ...                 return v
    ...             alpha = max(alpha, v)
    ...         return v
    ...     v = math.inf
    ...     for m in game.actions(state):
    ...         v = min(v, ab(game, game.result(state, m), alpha, beta))
    ...         if v < alpha:
    ...             return v
    ...         beta = min(beta, v)
    ...     return v
    >>> fb = check_alphabeta(ab, tictactoe=False)
    >>> fb.ok
    True
    >>> print(fb.lines[-1])
    ✓ Leaves evaluated: exactly alpha-beta's with the strict rule (prune only when v > β or v < α, as in CS188), on all 23 trees.
    """
    problem = _check_fn(fn, "check_alphabeta", "fn(game, state, alpha, beta)", 4)
    if problem:
        return Feedback("check_alphabeta: your function could not be called.", [("bad", problem, None)])
    rep, printed = _Report(), _Printed()
    passed = total = 0
    failures, records = [], []

    def full(game, state):
        return fn(game, state, -INF, INF)

    log = _CallLog(fn, (1, 2, 3))
    with log:
        call = log.wrapper if log.installed else fn
        for name, trees in _alphabeta_groups():
            results = []
            for G in trees:
                game = _TestTree(G)
                log.calls = []
                out = _run(call, (game, game.initial, -INF, INF), printed, game)
                calls, log.calls = log.calls, None
                expected = minimax(G, trace=False, graph=False).value
                ok = out.problem() is None and _close(float(out.value), expected)
                results.append((ok, G, expected, out))
                if not ok:
                    failures.append((G, len(failures)))
                records.append((G, ok, list(dict.fromkeys(game.evaluated)), game.generated, calls))
            total += 1
            passed += _group_line(rep, name, results)
        # "You took the other player's choice" only if one-level trees show it.
        roles = []
        for player in (MAX, MIN):
            G1 = _tree([4, 9], player)
            game = _TestTree(G1)
            out = _run(fn, (game, game.initial, -INF, INF), printed, game)
            if out.problem() or not _close(float(out.value), 9 if player == MAX else 4):
                roles.append(player)
        smallest, n = _report_smallest(rep, full, failures, printed, 1e-9, roles=tuple(roles), context=False)
        if smallest is not None and n is not None and smallest.out_degree(n) and not rep.items[-1][2]:
            probe = _window_probe(fn, smallest, printed)
            if probe and probe[2] != (n, (-INF, INF)):
                rep.bad(*probe[:2])

        total += 1
        leaves_ok, rule_used, generic_leaves = False, "textbook", False
        if failures:
            rep.bad("Leaves evaluated: checked once every root value is right.")
        else:
            rows = []
            for G, ok, L, generated, calls in records:
                seqs = {rule: _visited_leaves(alphabeta(G, strict=rule == "strict", trace=True), G) for rule in _RULES}
                rows.append((G, L, seqs, calls, generated))
            unmatched = [r for r in rows if r[1] not in r[2].values()]
            deciding = [r for r in rows if r[2]["textbook"] != r[2]["strict"]]
            if unmatched:
                rep.bad(f"Leaves evaluated: {len(rows) - len(unmatched)} of {len(rows)} trees match alpha-beta.")
                restart = {id(r[0]): [_restart_leaves(r[0], strict) for strict in (False, True)] for r in unmatched}
                every = [r for r in unmatched if r[1] == _all_leaves(r[0])]
                again = [r for r in unmatched if r[1] in restart[id(r[0])]]
                telling_every = [r for r in every if _all_leaves(r[0]) not in restart[id(r[0])]]
                telling_again = [r for r in again if _all_leaves(r[0]) not in restart[id(r[0])]]
                if len(every) == len(unmatched) and telling_every:
                    G, L, seqs = min(telling_every, key=lambda r: r[0].number_of_nodes())[:3]
                    rep.bad(f"Your function evaluates every leaf: on {_inline_tree(G)} all {len(L)}, where alpha-beta "
                            f"evaluates {len(seqs['textbook'])}. Nothing is pruned.",
                            "A MAX node stops as soon as its value v ≥ β, a MIN node as soon as v ≤ α; and each node "
                            "must pass its updated window (α raised at MAX, β lowered at MIN) to its next child.")
                elif len(again) == len(unmatched) and telling_again:
                    G, L, seqs = min(telling_again, key=lambda r: r[0].number_of_nodes())[:3]
                    rep.bad(f"On {_inline_tree(G)} your function evaluates {len(L)} leaves, alpha-beta "
                            f"{len(seqs['textbook'])}: exactly the leaves of searching each of the root's children with "
                            f"a fresh window (α = -∞, β = +∞). Your root restarts the window for every child.",
                            "Print the window each root child is searched with: after the first child, α (at a MAX "
                            "root) or β (at a MIN root) must carry the best value so far into the next child's search.")
                else:
                    diagnoses = []
                    for G, L, seqs, _, _ in sorted(unmatched, key=lambda r: r[0].number_of_nodes()):
                        prefix = {rule: next((i for i, (x, y) in enumerate(zip(L, seqs[rule])) if x != y),
                                             min(len(L), len(seqs[rule]))) for rule in _RULES}
                        rule = "strict" if prefix["strict"] > prefix["textbook"] else "textbook"
                        diagnoses.append((G, L, rule, _leaf_diagnosis(G, L, rule)))
                    if all(d[3][2] for d in diagnoses):
                        text, hint, _ = diagnoses[0][3]  # only a bound of 0 fails to cut: the 0/None slip
                    else:
                        G, L, rule, _ = next(d for d in diagnoses if not d[3][2])
                        text, hint, _ = _leaf_diagnosis(G, L, rule, zero_hint=False)
                    rep.bad(text, hint)
                    generic_leaves = True
            elif deciding and all(r[1] == r[2]["textbook"] for r in deciding):
                rep.good(f"Leaves evaluated: exactly alpha-beta's with the textbook rule (prune when v ≥ β or v ≤ α, "
                         f"as in AIMA), on all {len(rows)} trees.")
                leaves_ok = True
            elif deciding and all(r[1] == r[2]["strict"] for r in deciding):
                rep.good(f"Leaves evaluated: exactly alpha-beta's with the strict rule (prune only when v > β or "
                         f"v < α, as in CS188), on all {len(rows)} trees.")
                leaves_ok, rule_used = True, "strict"
            elif deciding:
                t = min((r for r in deciding if r[1] == r[2]["textbook"]), key=lambda r: r[0].number_of_nodes())
                u = min((r for r in deciding if r[1] == r[2]["strict"]), key=lambda r: r[0].number_of_nodes())
                rep.bad("Leaves evaluated: you mix the two tie conventions: on "
                        f"{_inline_tree(t[0])} you prune on a tie (textbook rule), on {_inline_tree(u[0])} you do not "
                        "(strict rule).",
                        "Use the same comparison at MAX and MIN nodes: either v ≥ β / v ≤ α (AIMA) or v > β / v < α "
                        "(CS188). Both give the same root value.")
            else:
                rep.good(f"Leaves evaluated: exactly alpha-beta's on all {len(rows)} trees.")
                leaves_ok = True
            if leaves_ok:
                for G, L, seqs, calls, generated in rows:
                    statuses = alphabeta(G, strict=rule_used == "strict", trace=True).graph.nodes
                    wasted = [c for c in dict.fromkeys(generated) if statuses[c]["status"] == "pruned"]
                    if wasted:
                        nodes = _Nodes(G)
                        rep.note(f"Your function creates states it never searches (game.result for pruned children, "
                                 f"e.g. {nodes.name(wasted[0])} on {_inline(G, nodes)}): the value is right, but "
                                 "generate each child only when you come to it.")
                        break
        passed += leaves_ok

        # The windows the function passes to itself (when it recurses by its own name).
        if (failures or generic_leaves) and log.installed:
            found = []
            for G, ok, L, generated, calls in records:
                for rule in _RULES:
                    d = _window_diagnosis(G, calls, rule) if calls else None
                    if d:
                        found.append((_KIND_RANK[d[2]], G.number_of_nodes(), rule != rule_used, d))
            if found:
                text, hint, _ = min(found, key=lambda f: f[:3])[3]
                rep.bad(text, hint)
    if tictactoe:
        total += 1
        passed += _ttt_group(full, rep, printed, counts=not failures, roles=tuple(roles))
    _printed_note(rep, printed)
    fb = _checker_feedback("check_alphabeta", rep, passed, total)
    fb.tree = smallest
    return fb


# ============================================================================
# check_evaluation: the tic-tac-toe open-lines evaluation
# ============================================================================

_EVAL_POSITIONS = (
    ".../.../...", ".../.X./...", "X../.../...", ".X./.../...", "X../.O./...", "XO./.../...",
    ".../.X./..O", "XX./O../...", "XO./.X./...", "XXX/OO./...", "OOO/XX./X..", "XOX/XOO/OXX",
)


def _open_lines(state):
    """``(lines open for X, lines open for O)``: lines the other side has no mark in."""
    from .games import _TTT_LINE_MASKS

    x, o = state
    return (sum(1 for m in _TTT_LINE_MASKS if not o & m), sum(1 for m in _TTT_LINE_MASKS if not x & m))


def _positions(positions):
    if positions is None:
        positions = _EVAL_POSITIONS
    if isinstance(positions, (str, bytes)) or not hasattr(positions, "__iter__"):
        raise TypeError(f"positions must be a list of tic-tac-toe positions such as 'X../.O./...', got {positions!r}")
    out = []
    for p in positions:
        if isinstance(p, str):
            out.append(TicTacToe.from_string(p))
        elif isinstance(p, tuple):
            out.append(TicTacToe._check(p))
        else:
            raise TypeError(f"a position must be a str such as 'X../.O./...' or a state (x_bits, o_bits), got {p!r}")
    if not out:
        raise ValueError("positions is empty: give at least one position")
    return out


def check_evaluation(fn, positions=None):
    """Check a learner's tic-tac-toe evaluation: lines open for X minus lines open for O.

    A line (row, column, diagonal) is open for X when O has no mark in it.
    ``fn(state)`` (or ``fn(game, state)``) returns the estimate from X's
    (MAX's) point of view, e.g. 8 - 8 = 0 on the empty board. Any positive
    scale is accepted (``gt.tictactoe_open_lines`` divides by 10), as long
    as it is the same everywhere and won positions score beyond every
    estimate (more than 8 open lines' worth: e.g. ``math.inf``, 100, or 1
    with the scale 1/10). A full board without a line scores 0.

    The feedback flags the evaluation from the wrong viewpoint: signs flipped
    everywhere, or flipped when O is to move (the player-to-move view), and
    counting only lines a side has already started.

    Parameters
    ----------
    fn : callable
        ``fn(state) -> number`` with ``state`` a :class:`~gametrees.TicTacToe`
        state.
    positions : list of str or states, optional
        Positions to check (default: a dozen, from the empty board to wins
        and a draw), e.g. ``["X../.O./...", "XX./O../..."]``.

    Returns
    -------
    Feedback

    Examples
    --------
    >>> import math
    >>> def open_lines(state):
    ...     board = gt.TicTacToe.to_string(state).replace("/", "")
    ...     lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
    ...     if any(all(board[i] == "X" for i in line) for line in lines):
    ...         return math.inf
    ...     if any(all(board[i] == "O" for i in line) for line in lines):
    ...         return -math.inf
    ...     x_open = sum(all(board[i] != "O" for i in line) for line in lines)
    ...     o_open = sum(all(board[i] != "X" for i in line) for line in lines)
    ...     return x_open - o_open
    >>> import gametrees as gt
    >>> fb = check_evaluation(open_lines, positions=[".../.../...", "X../.O./...", "XXX/OO./..."])
    >>> fb
    ✓ check_evaluation: all 3 positions right.
    ✓ '.../.../...' (X to move): 8 - 8 = 0.
    ✓ 'X../.O./...' (X to move): 4 - 5 = -1.
    ✓ 'XXX/OO./...': X has won, and you score it +∞, beyond every estimate.
    """
    try:
        sig = inspect.signature(fn) if callable(fn) else None
    except (TypeError, ValueError):
        sig = None
    if not callable(fn):
        raise TypeError(f"check_evaluation expects your function fn(state) -> number, got {fn!r}")
    two = False
    if sig is not None:
        try:
            sig.bind(0)
        except TypeError:
            try:
                sig.bind(0, 0)
                two = True
            except TypeError:
                return Feedback("check_evaluation: your function could not be called.", [(
                    "bad", f"check_evaluation calls your function as fn(state) (or fn(game, state)), but "
                           f"{getattr(fn, '__name__', 'it')}{sig} cannot take that.", None)])
    states = _positions(positions)
    printed = _Printed()
    game = TicTacToe()
    rows = []
    for s in states:
        args = (TicTacToe(), s) if two else (s,)
        out = _run(fn, args, printed)
        x_open, o_open = _open_lines(s)
        winner = game.utility(s) if game.is_terminal(s) else None
        rows.append((s, out, x_open, o_open, winner))
    # The learner's scale: value / (x_open - o_open), the same on every open position.
    ratios = [float(o.value) / (xo - oo) for s, o, xo, oo, w in rows
              if w is None and xo != oo and not o.problem() and not math.isinf(float(o.value))]
    k = ratios[0] if ratios and ratios[0] > 0 and all(_close(r, ratios[0], 1e-9) for r in ratios) else 1.0
    rep = _Report()
    if k != 1:
        rep.note(f"Your estimates are the open-line difference times {_fmt(k)}: any positive scale works, as long "
                 f"as wins score beyond every estimate.")
    for s, out, xo, oo, w in rows:
        pos = _ttt_text(s)
        mover = "X" if game.to_move(s) == MAX else "O"
        problem = out.problem()
        if problem:
            rep.bad(f"{pos}: your function {problem}.", _error_hint(problem))
            continue
        v = float(out.value)
        if w is None:
            want = k * (xo - oo)
            scaled = f" (you return {_fmt(v)})" if k != 1 else ""
            if _close(v, want, 1e-9):
                rep.good(f"{pos} ({mover} to move): {xo} - {oo} = {xo - oo}{scaled}.")
            else:
                rep.bad(f"{pos} ({mover} to move): you returned {_fmt(v)}, but {xo} lines are open for X and {oo} "
                        f"for O, so the estimate is {xo} - {oo} = {xo - oo}"
                        + (f" (times your scale {_fmt(k)}: {_fmt(want)})." if k != 1 else "."))
        elif w == 0:
            if _close(v, 0, 1e-9):
                rep.good(f"{pos}: a full board without a line is a draw, and you score it 0.")
            else:
                rep.bad(f"{pos}: a full board without a line is a draw, worth 0; you returned {_fmt(v)}.")
        else:
            side, sign = ("X", 1) if w > 0 else ("O", -1)
            if sign * v > 8 * k:
                rep.good(f"{pos}: {side} has won, and you score it {_fmt(v)}, beyond every estimate.")
            else:
                hint = ("From X's point of view a win for O is the worst outcome: it must score below every estimate."
                        if sign < 0 else "A win is the best outcome of all: it must score above every estimate.")
                if sign * v < 0:
                    hint = "The sign is wrong: the evaluation is from X's (MAX's) point of view. " + hint
                rep.bad(f"{pos}: {side} has three in a row, so it must score {'above' if sign > 0 else 'below'} "
                        f"every estimate ({'more' if sign > 0 else 'less'} than {_fmt(sign * 8 * k)}, e.g. "
                        f"{'math.inf' if sign > 0 else '-math.inf'}); you returned {_fmt(v)}.", hint)
    right = sum(kind == "good" for kind, _, _ in rep.items)
    # Patterns across positions (misconception 16: the wrong viewpoint).
    open_rows = [(s, float(o.value), xo - oo) for s, o, xo, oo, w in rows
                 if w is None and xo != oo and not o.problem() and math.isfinite(float(o.value))]
    if open_rows and not all(_close(v, k * e, 1e-9) for _, v, e in open_rows):
        r = [v / e for _, v, e in open_rows]
        movers = [game.to_move(s) for s, _, _ in open_rows]
        if all(_close(x, r[0], 1e-9) for x in r) and r[0] < 0:
            rep.bad("Every one of your estimates has the opposite sign.",
                    "The evaluation is from X's (MAX's) point of view, like the utility: positive is good for X, "
                    "whoever moves next.")
        elif (any(m == MIN for m in movers) and any(m == MAX for m in movers)
              and all(_close(x * (1 if m == MAX else -1), abs(r[0]), 1e-9) for x, m in zip(r, movers))):
            rep.bad("Where O is to move your estimates have the opposite sign: you score from the point of view of "
                    "the player to move.",
                    "The evaluation is always from X's (MAX's) point of view, whoever moves next; the search "
                    "decides who maximises. (Negamax flips signs itself: do not flip them in the evaluation too.)")
        elif all(_close(v, k * _open_lines(s)[0], 1e-9) for s, v, _ in open_rows):
                rep.bad("Your estimates are the lines open for X only.", "Subtract the lines open for O.")
    _printed_note(rep, printed)
    return _checker_feedback("check_evaluation", rep, right, len(rows), "positions right")


# ============================================================================
# check_ucb: the UCB1 formula of Monte Carlo tree search
# ============================================================================

_UCB_POINTS = ((3, 5, 20, 1.4), (7, 10, 100, math.sqrt(2)), (-2, 4, 9, 2.0), (10, 10, 10, 0.0),
               (2.5, 3, 50, 0.5), (0, 1, 1, 1.0), (6, 8, 30, 1.0), (0, 0, 10, 1.4), (4, 0, 7, math.sqrt(2)))


def _ucb_reference(w, n, N, c):
    """UCB1: the child's mean reward plus c·√(ln N / n); +∞ for an unvisited child."""
    if n == 0:
        return INF
    return w / n + c * math.sqrt(math.log(N) / n)


_UCB_SLIPS = (
    ("the log of the child's visits n instead of the parent's N",
     lambda w, n, N, c: w / n + c * math.sqrt(math.log(n) / n),
     "The exploration term is c·√(ln N / n): N, the parent's visits, inside the log; n, the child's, below."),
    ("no square root", lambda w, n, N, c: w / n + c * math.log(N) / n,
     "The exploration term is c·√(ln N / n): take the square root."),
    ("the total reward instead of the mean", lambda w, n, N, c: w + c * math.sqrt(math.log(N) / n),
     "Exploitation is the mean reward, w / n, not the total w."),
    ("log base 10", lambda w, n, N, c: w / n + c * math.sqrt(math.log10(N) / n),
     "Use the natural logarithm, math.log(N)."),
    ("log base 2", lambda w, n, N, c: w / n + c * math.sqrt(math.log2(N) / n),
     "Use the natural logarithm, math.log(N)."),
    ("an extra factor √2 (c·√(2 ln N / n))", lambda w, n, N, c: w / n + c * math.sqrt(2 * math.log(N) / n),
     "With c given, the term is c·√(ln N / n); c = √2 already stands for the 2 of √(2 ln N / n)."),
    ("c inside the square root", lambda w, n, N, c: w / n + math.sqrt(c * math.log(N) / n),
     "c multiplies the square root: c·√(ln N / n)."),
    ("N below the root instead of n", lambda w, n, N, c: w / n + c * math.sqrt(math.log(N) / N),
     "Divide by the child's visits n inside the root: c·√(ln N / n)."),
    ("no exploration term", lambda w, n, N, c: w / n,
     "Add the exploration bonus c·√(ln N / n): without it a move that was unlucky once is never tried again."),
)


def check_ucb(fn):
    """Check a learner's UCB1 ``fn(child_value_sum, child_visits, parent_visits, c) -> score``.

    The score is the child's mean reward plus ``c * sqrt(ln(parent_visits) /
    child_visits)``, and ``+inf`` for a child never visited (so every child
    is tried once before any is tried twice). The feedback checks each point
    and names the usual slips: the log of the child's count instead of the
    parent's, a missing square root, the total instead of the mean, the
    wrong logarithm, and unvisited children not scoring +∞.

    Examples
    --------
    >>> import math
    >>> def ucb(w, n, N, c):
    ...     return w / n + c * math.sqrt(math.log(n) / n)   # two slips
    >>> fb = check_ucb(ucb)
    >>> print("\\n".join(fb.lines[-3:]))
    ✗ An unvisited child (n = 0): your function raised ZeroDivisionError: division by zero (in ucb, line 2).
    ✗ An unvisited child (n = 0): your function raised ZeroDivisionError: division by zero (in ucb, line 2).
    ✗ Your scores match UCB1 with the log of the child's visits n instead of the parent's N.
    """
    problem = _check_fn(fn, "check_ucb", "fn(child_value_sum, child_visits, parent_visits, c)", 4)
    if problem:
        return Feedback("check_ucb: your function could not be called.", [("bad", problem, None)])
    rep, printed = _Report(), _Printed()
    got = {}
    for w, n, N, c in _UCB_POINTS:
        out = _run(fn, (w, n, N, c), printed)
        want = _ucb_reference(w, n, N, c)
        problem = out.problem()
        got[(w, n, N, c)] = None if problem else float(out.value)
        if n == 0:
            if problem:
                rep.bad(f"An unvisited child (n = 0): your function {problem}.",
                        "An unvisited child must score +∞ (math.inf), so that every child is tried once first; "
                        "test n == 0 before dividing.")
            elif math.isinf(float(out.value)) and out.value > 0:
                rep.good(f"An unvisited child (w = {_fmt(w)}, n = 0, N = {N}): +∞.")
            else:
                rep.bad(f"An unvisited child (n = 0): you returned {_fmt(float(out.value))}, but it must score +∞.",
                        "Giving unvisited children a finite score (or a phantom visit) lets a lucky sibling be "
                        "repeated before every child has been tried once.")
            continue
        formula = f"{_fmt(w)}/{n} + {_fmt(c)}·√(ln {N} / {n}) = {_fmt(want)}"
        if problem:
            rep.bad(f"ucb(w={_fmt(w)}, n={n}, N={N}, c={_fmt(c)}): your function {problem}; it should be {formula}.")
        elif _close(float(out.value), want, 1e-9):
            rep.good(f"ucb(w={_fmt(w)}, n={n}, N={N}, c={_fmt(c)}) = {formula}.")
        else:
            rep.bad(f"ucb(w={_fmt(w)}, n={n}, N={N}, c={_fmt(c)}): you returned {_fmt(float(out.value))}, but "
                    f"{formula}.")
    right = sum(kind == "good" for kind, _, _ in rep.items)
    visited = [(p, v) for p, v in got.items() if p[1] > 0]
    wrong = [(p, v) for p, v in visited if v is None or not _close(v, _ucb_reference(*p), 1e-9)]
    if wrong and all(v is not None for _, v in visited):
        for what, slip, hint in _UCB_SLIPS:
            try:
                if all(_close(v, slip(*p), 1e-9) for p, v in visited):
                    rep.bad(f"Your scores match UCB1 with {what}.", hint)
                    break
            except (ValueError, ZeroDivisionError):
                continue
    _printed_note(rep, printed)
    return _checker_feedback("check_ucb", rep, right, len(_UCB_POINTS), "points right")


# ============================================================================
# Checks for the lessons' own exercises
# ============================================================================
#
# Small, specific checks that the lesson notebooks call at the end of each
# lesson. Like everything above, they compare with what the engine computes.


def _number_or_none(x, what):
    """A learner's number, or a Feedback saying why it is not one."""
    if x is None:
        return None, Feedback(f"{what}: not answered yet.", [("bad", "Replace None with your answer and run the cell again.", None)])
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        return None, Feedback(f"{what}: the answer could not be read.",
                              [("bad", f"Expected a number, got {x!r} ({type(x).__name__}).", None)])
    return float(x), None


def check_value(tree, guess):
    """Check a guess of a tree's minimax value (lesson 00).

    Examples
    --------
    >>> import gametrees as gt
    >>> check_value(gt.tree_from_nested([[3, 12], [2, 4]]), 3)
    ✓ The root's value: right.
    ✓ The root A is worth 3.
    """
    G = _as_tree(tree, None)
    value, fb = _number_or_none(guess, "The root's value")
    if fb is not None:
        return fb
    r = minimax(G, trace=False, graph=True)
    root = G.graph["root"]
    nodes = _Nodes(G)
    rep = _Report()
    if _close(value, r.value):
        rep.good(f"The root {nodes.name(root)} is worth {_fmt(r.value)}.")
        return rep.feedback("The root's value")
    kids = list(G.successors(root))
    player = _ROLE[G.nodes[root]["player"]]
    listing = ", ".join(f"{nodes.name(k)} = {_fmt(r.graph.nodes[k]['value'])}" for k in kids)
    picks = "largest" if G.nodes[root]["player"] == MAX else "smallest"
    rep.bad(f"You wrote {_fmt(value)}, but the root {nodes.name(root)} is a {player} node whose children are "
            f"worth {listing}, so it is worth {_fmt(r.value)}, the {picks}.",
            "Work from the bottom up: each node takes the largest (MAX) or smallest (MIN) of its children's values.")
    return rep.feedback("The root's value")


def check_count_leaves(fn):
    """Check a learner's ``count_leaves(game, state)`` (lesson 01).

    The function should count the terminal states (complete games) below
    ``state``. It is run on Nim, on small trees and on tic-tac-toe positions,
    and compared with the leaves the engine's minimax evaluates.

    Examples
    --------
    >>> def count_leaves(game, state):
    ...     if game.is_terminal(state):
    ...         return 1
    ...     return sum(count_leaves(game, game.result(state, m)) for m in game.actions(state))
    >>> check_count_leaves(count_leaves).ok
    True
    """
    problem = _check_fn(fn, "check_count_leaves", "fn(game, state)", 2)
    if problem:
        return Feedback("check_count_leaves: your function could not be called.", [("bad", problem, None)])
    from .games import Nim

    ttt = TicTacToe()
    cases = [("Nim with 4 coins", Nim(4), Nim(4).initial),
             ("Nim with 7 coins", Nim(7), Nim(7).initial),
             ("the textbook tree", TreeGame(tree_from_nested(_TEXTBOOK)), ()),
             ("a ragged tree", TreeGame(tree_from_nested([[1, [2, 3]], 4, [[5], 6, 7]])), ())]
    for text in ("XOX/OXO/...", "XO./.X./..O", "X../.O./..."):
        cases.append((f"tic-tac-toe {text}", ttt, ttt.from_string(text)))
    rep, printed, passed = _Report(), _Printed(), 0
    for name, game, state in cases:
        r = minimax(game, state, trace=False)
        leaves, nodes_ = r.stats["leaves_evaluated"], r.stats["nodes_visited"]
        out = _run(fn, (game, state), printed)
        if out.problem():
            rep.bad(f"{name}: your function {out.problem()}.", _error_hint(out.error))
        elif out.value == leaves:
            passed += 1
            rep.good(f"{name}: {leaves:,} leaves.")
        elif out.value == nodes_:
            rep.bad(f"{name}: you counted {out.value:,}, which is every node of the tree; only the "
                    f"{leaves:,} terminal ones are complete games.",
                    "An inner node adds nothing of its own: return the sum over its moves, without the + 1.")
        elif out.value == nodes_ - leaves:
            rep.bad(f"{name}: you counted {out.value:,}, the inner nodes; the leaves are the other {leaves:,}.")
        else:
            rep.bad(f"{name}: you counted {_fmt(out.value)}, but there are {leaves:,} leaves.",
                    "A terminal state counts 1; any other state counts the sum over its moves.")
    _printed_note(rep, printed)
    return _checker_feedback("check_count_leaves", rep, passed, len(cases))


_GAME_KINDS = {
    "chess": ("deterministic", "perfect"), "go": ("deterministic", "perfect"),
    "checkers": ("deterministic", "perfect"), "tic-tac-toe": ("deterministic", "perfect"),
    "connect four": ("deterministic", "perfect"), "backgammon": ("chance", "perfect"),
    "battleship": ("deterministic", "hidden"), "stratego": ("deterministic", "hidden"),
    "poker": ("chance", "hidden"), "scrabble": ("chance", "hidden"), "bridge": ("chance", "hidden"),
}
_KIND_WORDS = {"deterministic": "deterministic", "chance": "chance", "stochastic": "chance",
               "perfect": "perfect", "hidden": "hidden", "imperfect": "hidden"}
_KIND_WHY = {
    "backgammon": "the dice are random, but both players see the whole board",
    "poker": "the deal is random and you cannot see the others' cards",
    "scrabble": "the tiles are drawn at random and you cannot see your opponent's rack",
    "bridge": "the deal is random and most cards are hidden",
    "battleship": "nothing random happens after the ships are placed, but you cannot see them",
    "stratego": "no dice, but the ranks of the opponent's pieces are hidden",
}


def check_game_kinds(answer):
    """Check a classification of games by chance and hidden information (lesson 01).

    ``answer`` maps a game's name to a pair such as ``("chance", "hidden")``:
    ``"deterministic"`` or ``"chance"``, then ``"perfect"`` or ``"hidden"``
    information.

    Examples
    --------
    >>> check_game_kinds({"chess": ("deterministic", "perfect"), "poker": ("chance", "perfect")})
    ✗ Kinds of games: 1 of 2 right.
    ✓ chess: deterministic, perfect information.
    ✗ poker: chance, but hidden information: the deal is random and you cannot see the others' cards.
    """
    if not isinstance(answer, Mapping) or not answer:
        return _malformed("Kinds of games", "Expected a dict such as {'chess': ('deterministic', 'perfect')}.")
    rep = _Report()
    for game, kind in answer.items():
        key = str(game).strip().lower().replace("tic tac toe", "tic-tac-toe").replace("connect 4", "connect four")
        if key not in _GAME_KINDS:
            rep.note(f"{game}: not one of the games this check knows ({', '.join(sorted(_GAME_KINDS))}).")
            continue
        try:
            a, b = (_KIND_WORDS[str(w).strip().lower()] for w in kind)
        except (KeyError, TypeError, ValueError):
            rep.bad(f"{game}: expected a pair like ('chance', 'hidden'), got {kind!r}.")
            continue
        if {a, b} & {"perfect", "hidden"} and a in ("perfect", "hidden"):
            a, b = b, a  # accept the pair in either order
        right = _GAME_KINDS[key]
        why = _KIND_WHY.get(key, "no dice or cards, and both players see everything")
        if (a, b) == right:
            rep.good(f"{game}: {right[0]}, {right[1]} information.")
        elif a != right[0] and b != right[1]:
            rep.bad(f"{game}: {right[0]} and {right[1]} information: {why}.")
        elif a != right[0]:
            rep.bad(f"{game}: {right[0]}, not {a} ({why}); {right[1]} information is right.")
        else:
            rep.bad(f"{game}: {right[0]}, but {right[1]} information: {why}.")
    return rep.feedback("Kinds of games")


def check_average_branching(value):
    """Check tic-tac-toe's average branching factor, (N - 1) / (N - L) (lesson 01).

    Examples
    --------
    >>> check_average_branching(9).ok
    False
    """
    x, fb = _number_or_none(value, "Average branching factor")
    if fb is not None:
        return fb
    stats = minimax(TicTacToe(), trace=False).stats
    N, L = stats["nodes_visited"], stats["leaves_evaluated"]
    right = (N - 1) / (N - L)
    rep = _Report()
    if abs(x - right) < 5e-3:
        rep.good(f"{right:.3f}: {N - 1:,} edges shared by {N - L:,} inner nodes.")
    elif abs(x - (N - 1) / N) < 5e-3 or abs(x - N / L) < 5e-3:
        rep.bad(f"You wrote {x:.3f}; divide the edges (N - 1 = {N - 1:,}) by the inner nodes only "
                f"(N - L = {N - L:,}): leaves have no children.")
    elif x in (9, 4.5, 5):
        rep.bad(f"You wrote {_fmt(x)}: that is a branching factor near the start of the game; on average over "
                f"the whole tree it is {right:.3f}, because late positions have few free cells and many games end early.")
    else:
        rep.bad(f"You wrote {_fmt(x)}, but (N - 1) / (N - L) = {N - 1:,} / {N - L:,} = {right:.3f}.")
    return rep.feedback("Average branching factor")


def _first_fast_win():
    """A position where X wins at once, but minimax with +1 for every win plays a slower win."""
    game = TicTacToe()
    for s in sorted(expand(game, merge=True), key=lambda s: (bin(s[0] | s[1]).count("1"), s)):
        if game.is_terminal(s) or game.to_move(s) != MAX:
            continue
        now = [m for m, c in game.successors(s) if game.is_terminal(c) and game.utility(c) == 1]
        if now and minimax(game, s, trace=False).move not in now:
            return s, now
    raise AssertionError("tic-tac-toe has a slow-win position")  # pragma: no cover


def check_fast_wins(game):
    """Check a tic-tac-toe whose utility rewards quick wins (lesson 02).

    A draw must stay 0, a win for X must be positive and a loss negative,
    a quicker win (more empty cells left) must score more, and minimax must
    then take a win at once where it can.
    """
    if not isinstance(game, TicTacToe):
        raise TypeError(f"check_fast_wins expects a TicTacToe (subclass) instance, got {type(game).__name__}")
    base = TicTacToe()
    rep, printed = _Report(), _Printed()
    finals = [s for s in expand(base, merge=True) if base.is_terminal(s)]
    got = {}
    for s in finals:
        out = _run(game.utility, (s,), printed)
        if out.problem():
            rep.bad(f"utility of {_ttt_text(s)}: {out.problem()}.", _error_hint(out.error))
            return _checker_feedback("check_fast_wins", rep, 0, 4)
        got[s] = float(out.value)
    passed = 0
    signs = [s for s in finals if (got[s] > 0) - (got[s] < 0) != base.utility(s)]
    if signs:
        s = signs[0]
        rep.bad(f"{_ttt_text(s)} scores {_fmt(got[s])}, but its plain utility is {base.utility(s)}: keep a draw at 0, "
                "a win for X positive and a win for O negative.")
    else:
        passed += 1
        rep.good("Draws score 0, X's wins are positive and O's wins negative.")

    def empty(s):
        return 9 - bin(s[0] | s[1]).count("1")

    wins = sorted((s for s in finals if base.utility(s) == 1), key=empty)
    slow = [(a, b) for a, b in zip(wins, wins[1:]) if empty(b) > empty(a) and not got[b] > got[a]]
    if slow:
        a, b = slow[0]
        rep.bad(f"A win with {empty(b)} empty cells ({_ttt_text(b)}) scores {_fmt(got[b])}, no more than one with "
                f"{empty(a)} ({_ttt_text(a)}, {_fmt(got[a])}): quicker wins should score more.",
                "Multiply the plain utility by (1 + the number of empty cells).")
    else:
        passed += 1
        rep.good("Quicker wins score more.")
    losses = sorted((s for s in finals if base.utility(s) == -1), key=empty)
    if any(empty(b) > empty(a) and not got[b] < got[a] for a, b in zip(losses, losses[1:])):
        rep.bad("A quicker loss should score lower (more negative) than a slow one, so that MAX delays losing.")
    else:
        passed += 1
        rep.good("Quicker losses score lower.")
    s, now = _first_fast_win()
    out = _run(lambda: minimax(game, s, trace=False).move, (), printed)
    if out.error:
        rep.bad(f"Searching {_ttt_text(s)} with your game: {out.error}.")
    elif out.value in now:
        passed += 1
        rep.good(f"In {_ttt_text(s)} minimax now wins at once (cell {out.value}).")
    else:
        rep.bad(f"In {_ttt_text(s)}, X can win at once at {_or(now)}, but minimax with your utility plays {out.value}.")
    _printed_note(rep, printed)
    return _checker_feedback("check_fast_wins", rep, passed, 4)


def check_ordering_counts(b, d, best, worst):
    """Check predicted leaf counts of alpha-beta on a uniform tree (lesson 03).

    ``best`` for perfect ordering (Knuth and Moore: b^ceil(d/2) + b^floor(d/2) - 1)
    and ``worst`` for the worst ordering (b^d); both are also measured with
    :func:`gametrees.random_tree` and :func:`gametrees.alphabeta`.

    Examples
    --------
    >>> check_ordering_counts(3, 2, 5, 9).ok
    True
    """
    from .trees import random_tree

    rep = _Report()
    km = b ** math.ceil(d / 2) + b ** math.floor(d / 2) - 1
    measured = {o: alphabeta(random_tree(b, d, seed=0, values=(-10**6, 10**6), ordering=o), trace=False)
                .stats["leaves_evaluated"] for o in ("best", "worst")}
    for name, got, right, formula in (("best ordering", best, km, "b^⌈d/2⌉ + b^⌊d/2⌋ - 1"),
                                      ("worst ordering", worst, b ** d, "b^d")):
        x, fb = _number_or_none(got, name)
        if fb is not None:
            rep.bad(f"{name}: not answered yet.")
        elif x == right:
            rep.good(f"{name}: {right:,} = {formula}; measured on a tree with that ordering: "
                     f"{measured[name.split()[0]]:,}.")
        elif name.startswith("best") and x in (b ** d / 2, b ** d // 2):
            rep.bad(f"{name}: you wrote {_fmt(x)}, half of b^d. Pruning does not halve the work: with perfect "
                    f"ordering it needs about b^(d/2) leaves, exactly {formula} = {right:,}.")
        elif name.startswith("best") and x == b ** (d / 2):
            rep.bad(f"{name}: b^(d/2) = {_fmt(x)} is the rough size; the exact count is {formula} = {right:,}.")
        elif name.startswith("worst") and x < right:
            rep.bad(f"{name}: you wrote {_fmt(x)}, but with the worst ordering no cutoff ever happens: all "
                    f"b^d = {right:,} leaves are evaluated.")
        else:
            rep.bad(f"{name}: you wrote {_fmt(x)}, but {formula} = {right:,}.")
    return rep.feedback(f"Leaves for b = {b}, d = {d}")


def _estimate_tree(seed):
    """A random ragged tree (leaves at several depths) with estimates on its inner nodes."""
    rng = random.Random(seed)

    def spec(depth):
        if depth == 4 or (depth and rng.random() < 0.3):
            return rng.randint(-9, 9)
        return [spec(depth + 1) for _ in range(rng.randint(1, 3))]

    G = tree_from_nested([spec(1) for _ in range(rng.randint(2, 3))])
    for n in G:
        if G.out_degree(n):
            G.nodes[n]["utility"] = rng.randint(-9, 9)
    return G


def check_depth_limited(fn):
    """Check a learner's depth-limited minimax ``fn(game, state, depth, evaluate)`` (lesson 04).

    Terminal states must be scored by their utility (even at the depth
    limit), other states at depth 0 by ``evaluate``. Compared with
    :func:`gametrees.minimax` with ``depth=``.
    """
    problem = _check_fn(fn, "check_depth_limited", "fn(game, state, depth, evaluate)", 4)
    if problem:
        return Feedback("check_depth_limited: your function could not be called.", [("bad", problem, None)])
    rep, printed, passed, total = _Report(), _Printed(), 0, 0
    first_wrong = None
    for seed in range(12):
        G = _estimate_tree(seed)
        game = TreeGame(G)
        # The estimate of a finished game is deliberately far off: it must never be used.
        estimate = {n: G.nodes[n]["utility"] if G.out_degree(n) else 50 for n in G}.__getitem__
        for depth in (0, 1, 2, 3):
            total += 1
            right = minimax(G, depth=depth, evaluate=estimate, trace=False).value
            out = _run(fn, (game, G.graph["root"], depth, estimate), printed)
            if not out.problem() and _close(float(out.value), right):
                passed += 1
            elif first_wrong is None or G.number_of_nodes() < first_wrong[0].number_of_nodes():
                first_wrong = (G, depth, right, out)
    if first_wrong is None:
        rep.good(f"{total} depth-limited searches on trees with estimates: all right.")
    else:
        G, depth, right, out = first_wrong
        nodes = _Nodes(G)
        got = out.problem() or f"returned {_fmt(out.value)}"
        rep.bad(f"{passed} of {total} depth-limited searches right; e.g. at depth {depth} on "
                f"{_inline_tree(G, 100)} (estimates on inner nodes), the value is {_fmt(right)}, your function {got}.",
                _error_hint(out.error))
        terminal = [n for n in G if not G.out_degree(n) and len(n) == depth]
        if depth and terminal:
            n = terminal[0]
            out2 = _run(fn, (TreeGame(G), n, 0, lambda s: -1000), printed)
            if not out2.problem() and out2.value == -1000:
                rep.bad(f"At the leaf {nodes.name(n)}, a finished game at the depth limit, your function returns the "
                        f"evaluation instead of its utility {_fmt(G.nodes[n]['utility'])}.",
                        "Test game.is_terminal(state) first, then the depth: a finished game is scored by its "
                        "true utility, never estimated.")
    _printed_note(rep, printed)
    return _checker_feedback("check_depth_limited", rep, passed, total, unit="searches right")


def check_win_depth(game, state, answer):
    """Check the smallest search depth that proves a forced win or loss (lesson 04).

    A depth-limited search *proves* the result when its value is a win
    (+1) or loss (-1) even with every position at the horizon scored 0: then
    the result is forced within that many moves, whatever an evaluation
    function says.
    """
    x, fb = _number_or_none(answer, "Depth that sees the forced result")
    if fb is not None:
        return fb
    rows, found = [], None
    for depth in range(1, 15):
        v = alphabeta(game, state, depth=depth, evaluate=lambda s: 0, trace=False).value
        rows.append(f"depth {depth}: {_fmt(v)}")
        if v in (1, -1):
            found = (depth, v)
            break
    if found is None:
        raise ValueError("no forced win or loss within 14 moves in this position")
    depth, v = found
    who = "MAX" if v > 0 else "MIN"
    rep = _Report()
    if x == depth:
        rep.good(f"Depth {depth}: {who} forces a win; shallower searches cannot prove it ({'; '.join(rows)}).")
    elif x < depth:
        rep.bad(f"At depth {_fmt(x)} the search cannot prove it yet ({'; '.join(rows[:max(1, int(x))])}); "
                f"the forced win for {who} appears at depth {depth}.")
    else:
        rep.bad(f"Depth {depth} already proves the win for {who} ({'; '.join(rows)}).")
    return rep.feedback("Depth that sees the forced result")


def check_after_two_moves(after_two, classes):
    """Check the positions after two moves of tic-tac-toe, and their symmetry classes (lesson 05)."""
    game = TicTacToe()
    truth = {s2 for _, s1 in game.successors(game.initial) for _, s2 in game.successors(s1)}
    canon = {game.canonical(s) for s in truth}
    rep = _Report()
    for name, got, right in (("positions after two moves", after_two, truth),
                             ("classes up to symmetry", classes, canon)):
        if got is None:
            rep.bad(f"{name}: not answered yet.")
            continue
        try:
            got = set(got)
        except TypeError:
            rep.bad(f"{name}: expected a set of states, got {type(got).__name__}.")
            continue
        if got == right:
            rep.good(f"{name}: {len(right)}.")
        elif name.startswith("classes") and got == truth:
            rep.bad(f"{name}: these are all {len(truth)} positions; map each through game.canonical and keep "
                    f"the distinct results ({len(right)}).")
        elif name.startswith("positions") and len(got) == 9 * 8 and got != right:
            rep.bad(f"{name}: 72 states, but not the right ones: use game.successors twice from game.initial.")
        else:
            rep.bad(f"{name}: you have {len(got)}, there are {len(right)}.")
    return rep.feedback("After two moves")


def check_negamax(fn):
    """Check a learner's negamax ``fn(game, state)``: the value for the player to move (lesson 05)."""
    problem = _check_fn(fn, "check_negamax", "fn(game, state)", 2)
    if problem:
        return Feedback("check_negamax: your function could not be called.", [("bad", problem, None)])
    game = TicTacToe()
    rep, printed = _Report(), _Printed()
    positions = ["XOX/OXO/...", "XO./.X./..O", "XX./OO./...", "XX./OO./X..", "X.O/.O./X.X", "XOX/OOX/X.."]
    passed, wrong = 0, []
    for text in positions:
        s = game.from_string(text)
        sign = 1 if game.to_move(s) == MAX else -1
        right = sign * minimax(game, s, trace=False).value
        out = _run(fn, (game, s), printed)
        if not out.problem() and out.value == right:
            passed += 1
        else:
            wrong.append((text, s, right, out))
    if not wrong:
        rep.good(f"All {len(positions)} positions right, from the point of view of the player to move.")
    else:
        text, s, right, out = wrong[0]
        mover = "X" if game.to_move(s) == MAX else "O"
        got = out.problem() or f"returns {_fmt(out.value)}"
        rep.bad(f"{text} ({mover} to move) is worth {right:+d} to {mover}; your function {got}.",
                _error_hint(out.error))
        finals = [s for s in expand(game, merge=True) if game.is_terminal(s) and game.utility(s) != 0]
        s = next(s for s in finals if game.to_move(s) == MIN)
        out = _run(fn, (game, s), printed)
        if not out.problem() and out.value == game.utility(s):
            rep.bad(f"At a finished game where O is to move ({_ttt_text(s)}), your function returns "
                    f"{_fmt(out.value)}, the utility from MAX's point of view; negamax needs it from the point of "
                    f"view of the player to move: {-game.utility(s):+d}.",
                    "Multiply game.utility(state) by +1 when MAX is to move and -1 when MIN is.")
    _printed_note(rep, printed)
    return _checker_feedback("check_negamax", rep, passed, len(positions), unit="positions right")


def check_careless_table(state, careless, true):
    """Check the careless table's value and the true value of ``state`` (lesson 05)."""
    game = TicTacToe()
    right = minimax(game, state, trace=False).value
    rep = _Report()
    if careless is None or true is None:
        return Feedback("The careless table: not answered yet.", [("bad", "Give both numbers.", None)])
    if true == right:
        rep.good(f"The true (minimax) value of this position is {right}.")
    else:
        rep.bad(f"The true value is what gt.minimax gives: {right}, not {_fmt(true)}.")
    if careless == right:
        rep.bad("The careless value should differ from the true one in this position: run careless_alphabeta "
                "on it with a fresh table.")
    elif careless in (-1, 0, 1):
        rep.good(f"The careless table returns {careless}: a bound stored as if it were exact.")
    else:
        rep.bad(f"{_fmt(careless)} is not a tic-tac-toe value (-1, 0 or 1).")
    return rep.feedback("The careless table")


def check_order_preserving_flip(tree, f):
    """Check that ``f`` keeps the order of the leaf values but flips expectimax's decision (lesson 06)."""
    G = _as_tree(tree, None)
    rep, printed = _Report(), _Printed()
    leaves = sorted({G.nodes[n]["utility"] for n in G if not G.out_degree(n)})
    images = []
    for v in leaves:
        out = _run(f, (v,), printed)
        if out.problem():
            return Feedback("Order-preserving flip: f failed.", [("bad", f"f({_fmt(v)}) {out.problem()}.", None)])
        images.append(out.value)
    broken = [(a, b, fa, fb_) for (a, fa), (b, fb_) in zip(zip(leaves, images), zip(leaves[1:], images[1:])) if not fa < fb_]
    if broken:
        a, b, fa, fb_ = broken[0]
        rep.bad(f"f does not keep the order: {_fmt(a)} < {_fmt(b)} but f gives {_fmt(fa)} and {_fmt(fb_)}.")
    else:
        rep.good("f keeps the order of the leaf values.")
    H = G.copy()
    for n in H:
        if "utility" in H.nodes[n] and not H.out_degree(n):
            H.nodes[n]["utility"] = images[leaves.index(H.nodes[n]["utility"])]
    before, after = expectimax(G, trace=False).move, expectimax(H, trace=False).move
    nodes = _Nodes(G)
    if before != after:
        rep.good(f"Expectimax now chooses {nodes.name(after)} instead of {nodes.name(before)}.")
    else:
        rep.bad(f"Expectimax still chooses {nodes.name(before)}: make the big values bigger (or the small ones "
                "smaller) so the averages change places.")
    if not broken and before != after:
        rep.note("Minimax's choice would not change: it only compares values, and f keeps their order.")
    return rep.feedback("Order-preserving flip")


def check_final_move(visits, choice):
    """Check which move MCTS should play: the most visited one (lesson 07)."""
    if not isinstance(visits, Mapping) or not visits:
        raise TypeError("visits must be a dict move -> (visits, wins)")
    best = max(visits, key=lambda m: visits[m][0])
    rep = _Report()
    if choice == best:
        rep.good(f"{best!r}: the most visited move ({visits[best][0]} visits).")
    elif choice in visits:
        n, w = visits[choice]
        rep.bad(f"{choice!r} has the best average ({w}/{n}) but only {n} visit{'s' if n != 1 else ''}: that average "
                f"is mostly luck. Play the most visited move, {best!r} ({visits[best][0]} visits), whose estimate "
                "MCTS has confirmed again and again." if w / n >= visits[best][1] / visits[best][0] else
                f"{choice!r} has fewer visits ({n}) than {best!r} ({visits[best][0]}): play the most visited move.")
    else:
        rep.bad(f"{choice!r} is not one of the moves {sorted(visits)}.")
    return rep.feedback("Final move")


def check_mcts(fn):
    """Check a learner's MCTS ``fn(game, state, iterations, seed) -> (move, visits)`` (lesson 07).

    It must find an immediate win for either player; backing up rewards from
    one fixed point of view (misconception 22) fails where O is to move.
    """
    problem = _check_fn(fn, "check_mcts", "fn(game, state, iterations, seed)", 4)
    if problem:
        return Feedback("check_mcts: your function could not be called.", [("bad", problem, None)])
    game = TicTacToe()
    rep, printed, passed = _Report(), _Printed(), 0
    cases = ["XX./OO./...", "XX./OO./X..", "O.O/XX./X..", "OX./XO./X.."]
    for text in cases:
        s = game.from_string(text)
        mover = "X" if game.to_move(s) == MAX else "O"
        target = 1 if mover == "X" else -1
        now = [m for m, c in game.successors(s) if game.is_terminal(c) and game.utility(c) == target]
        out = _run(fn, (game, s, 600, 0), printed)
        move = out.value[0] if not out.error and isinstance(out.value, tuple) else out.value
        if out.error:
            rep.bad(f"{text} ({mover} to move): your function {out.error}.", _error_hint(out.error))
        elif move in now:
            passed += 1
            rep.good(f"{text} ({mover} to move): wins at once with {move}.")
        else:
            rep.bad(f"{text} ({mover} to move): {mover} can win at once at {_or(now)}, your function plays {move!r}.",
                    "Back up each playout's result from the point of view of the player who moved into the node "
                    "(a win for MAX is a loss for MIN)." if mover == "O" else None)
    _printed_note(rep, printed)
    return _checker_feedback("check_mcts", rep, passed, len(cases), unit="positions right")
