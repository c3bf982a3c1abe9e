"""What the exercises by hand share: drawing trees, outlines, reading a search, :class:`Exercise`.

The difficulty :data:`PRESETS`, :func:`check_seed` and the seeded random trees
(:func:`random_spec`), the tree as text (:func:`inline`, outlines),
:class:`SearchInfo` (windows, cutoffs and their reasons, read from the engine's
trace), and the base class :class:`Exercise` with the hints the value exercises
share (:func:`roles_hint`, :func:`chance_hint`).

May import: the standard library, networkx, :mod:`gametrees.games`,
:mod:`gametrees.search`, :mod:`gametrees.trees`,
:mod:`gametrees.exercises.feedback` and :mod:`gametrees.exercises.answers`.
"""

from __future__ import annotations

import functools
import html
import itertools
import math
import numbers
import random
import sys

import networkx as nx

from ...games import CHANCE, MAX, MIN
from ...trees import textbook_labels, tree_from_nested, validate_tree
from ..answers import NodeNames
from ..attempts import escalate
from ..feedback import ROLE_NAMES, Feedback, close, fmt, fmt_prob, is_are, malformed

# ============================================================================
# Trees: generation, outlines
# ============================================================================

RULES = ("textbook", "strict")  # the pruning rules an alpha-beta exercise or check accepts

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
    """The seed as given (an int or a str), or a fresh random one for ``None``; a TypeError for anything else."""
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
        v = fmt(self.value)
        if self.player == MIN:
            op = "<" if self.strict else "≤"
            bound = f"α = {fmt(self.alpha)}"
            why = f" (MAX can already get {fmt(self.alpha)} at {nodes.name(self.source)})" if self.source is not None else ""
        else:
            op = ">" if self.strict else "≥"
            bound = f"β = {fmt(self.beta)}"
            why = (f" (MIN can already hold MAX to {fmt(self.beta)} at {nodes.name(self.source)})"
                   if self.source is not None else "")
        s = (f"after {nodes.name(self.child)} returns {v} to {nodes.name(self.node)}, "
             f"{v} {op} {bound}{why}, so {nodes.name(self.node)} stops")
        if pruned and self.pruned:
            s += f": {nodes.names(self.pruned)} {is_are(self.pruned)} never looked at"
        return s


class SearchInfo:
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


def leaves_under(G, n):
    """The leaves below ``n`` (``n`` itself if it is a leaf), in depth-first order."""
    if not G.out_degree(n):
        return [n]
    return [m for m in nx.dfs_preorder_nodes(G, n) if not G.out_degree(m)]


# ============================================================================
# Exercises: answers that cannot crash a check; uses of the worked answer
# ============================================================================

_SERIALS = itertools.count(1)  # numbers exercise objects, for their attempt keys
_PACKAGE = __name__.split(".")[0]  # "gametrees": frames whose module starts with it are the library's


def from_learner(depth=2):
    """Whether the code ``depth`` frames up (the caller of the caller) is outside the gametrees package."""
    try:
        name = sys._getframe(depth).f_globals.get("__name__", "")
    except ValueError:
        return True
    return not (name == _PACKAGE or name.startswith(_PACKAGE + "."))


def _unanswered(answer):
    return answer is None or (isinstance(answer, str) and not answer.strip())


def _safe_check(check):
    """``check`` that never raises on an answer: blank is "not answered yet", anything unreadable is
    "could not read your answer" with the form expected."""

    @functools.wraps(check)
    def safe_check(self, answer, **options):
        if _unanswered(answer):
            fb = Feedback(f"{self.what}: not answered yet.",
                          [("bad", f"Nothing answered yet: {self.answer_form}.", None)], status="unanswered")
        else:
            try:
                fb = check(self, answer, **options)
            except (Exception, MemoryError, RecursionError) as exc:  # noqa: BLE001 -- never out of a check
                fb = malformed(self.what, f"Could not read your answer ({type(exc).__name__}): "
                                          f"{self.answer_form}.")
        return escalate(self.key, fb, twin=self._twin)

    return safe_check


def _watched(method, name):
    """``method``, recording in ``.library_uses`` each call made from outside the package."""

    @functools.wraps(method)
    def watched(self, *args, **kwargs):
        if from_learner():
            self.note_use(f".{name}()")
        return method(self, *args, **kwargs)

    return watched


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
    #: The form of the answer, for "could not read your answer" (each kind says its own).
    answer_form = "see the question for the form of the answer"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "check" in cls.__dict__:
            cls.check = _safe_check(cls.__dict__["check"])
        for name in ("solution", "explain", "show_solution"):
            if name in cls.__dict__:
                setattr(cls, name, _watched(cls.__dict__[name], name))

    def __init__(self, tree=None, *, seed=None, difficulty="easy", root_player=None, depth=None,
                 branching=None, values=None, ragged=None, players=None, probabilities=None):
        self.library_uses = []
        self._serial = next(_SERIALS)
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
            self.tree = as_tree(tree, root_player)
            self._rng = random.Random(0)
        else:
            self.settings = _settings(difficulty, self._chance, overrides)
            self.difficulty = difficulty
            self.seed = check_seed(seed)
            self._rng = random.Random(self.seed)
            self.tree = self._draw_tree()
        self.nodes = NodeNames(self.tree)
        self.root_player = self.tree.nodes[self.nodes.root].get("player")
        self._setup()
        self.question = self._question()

    # -- making the tree ------------------------------------------------------

    def _draw_tree(self):
        G = None
        for _ in range(40):
            spec = random_spec(self._rng, self.settings)
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

    @property
    def key(self):
        """The key this exercise object's checks are counted under (:func:`gametrees.exercises.attempts.counts`):
        ``"values:seed=3:easy#1"`` for a generated exercise, ``"values:A:max(...)#2"`` (the tree) for a given
        one; the number after ``#`` tells apart objects made in the same kernel (a cell run again)."""
        if self.seed is not None:
            return f"{self.kind}:seed={self.seed!r}:{self.difficulty}#{self._serial}"
        return f"{self.kind}:{inline(self.tree, self.nodes)}#{self._serial}"

    def _twin(self, feedback):
        """The same kind of mistake worked through on a twin tree (text), or None.

        Twins have this tree's shape with other leaf values (:func:`twin_trees`); the first one on
        which the kind's :meth:`_twin_text` can work the learner's mistake through is used.
        """
        wrong = getattr(self, "_last_wrong", None)
        if not wrong:
            return None
        rng = random.Random(f"{self.key}:{feedback.attempt}")
        for H in twin_trees(self.tree, rng):
            try:
                twin = self._make_twin(H)
            except (ValueError, TypeError):
                continue
            text = self._twin_text(twin, wrong)
            if text:
                return text
        return None

    def _twin_options(self):
        """The keyword arguments that make an exercise of the same kind and settings on another tree."""
        return {}

    def _make_twin(self, H):
        return type(self)(H, **self._twin_options())

    def _twin_text(self, twin, wrong):
        """The learner's mistake (``wrong``: what the last check found) worked through on ``twin``; kinds override it."""
        return None

    def outline(self):
        """The tree as indented text (labels, players, leaf values, probabilities)."""
        return _outline(self.tree, self.nodes)

    def explain(self):
        """The worked solution as text: the engine's search, one sentence a step, then the answer."""
        steps = [f"{i:>3}. {e.text}" for i, e in enumerate(self._result.trace or [], 1)]
        return "\n".join(steps + [f"Answer: {self._answer_text()}"])

    def _answer_text(self):
        return repr(self.solution())

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

    @property
    def result(self):
        """The engine's search of the tree (reading it from a notebook is recorded in ``.library_uses``)."""
        if from_learner():
            self.note_use(".result")
        return self._result

    @result.setter
    def result(self, value):
        self._result = value

    def note_use(self, what):
        """Record that the learner's code asked the library for the worked answer (``what``, e.g. ``".solution()"``)."""
        if what not in self.library_uses:
            self.library_uses.append(what)

    def _root_text(self):
        r = self.nodes.root
        return f"{self.nodes.name(r)} is a {ROLE_NAMES.get(self.root_player, '?')} node at the root"

    def _origin(self):
        if self.seed is None:
            return ""
        return f" (seed {self.seed!r}, {self.difficulty})"

    @property
    def what(self):
        """What the answer gives, as feedback titles name it: ``"Minimax values"``, ``"Expectimax values"``, else ``"Answer"``."""
        return self._what

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
            parts.append(f"{self.nodes.name(c)} = {fmt(v)}")
        return ", ".join(parts)

    def _weighted_text(self, n):
        probs = child_probs(self.tree, n)
        terms = " + ".join(f"{fmt_prob(p)} × {fmt(self._value_of(c))}" for c, p in probs.items())
        return f"{terms} = {fmt(self._value_of(n))}"


Exercise.explain = _watched(Exercise.explain, "explain")
Exercise.show_solution = _watched(Exercise.show_solution, "show_solution")


def roles_hint(G, nodes, n, learner, kid_values):
    """A hint when ``learner`` is what the other player would choose at ``n``."""
    player = G.nodes[n].get("player")
    if player not in (MAX, MIN) or not kid_values:
        return None
    other = max(kid_values) if player == MIN else min(kid_values)
    right = min(kid_values) if player == MIN else max(kid_values)
    if close(learner, other) and not close(learner, right):
        took, picks = ("largest", "smallest") if player == MIN else ("smallest", "largest")
        parents = list(G.predecessors(n))
        same = parents and G.nodes[parents[0]].get("player") == player
        extra = (f" Turns need not alternate: {nodes.name(n)} is {ROLE_NAMES[player]} like its parent "
                 f"{nodes.name(parents[0])}.") if same else ""
        return (f"You took the {took} value, but {ROLE_NAMES[player]} picks the {picks}. "
                f"Ask whose turn it is at {nodes.name(n)}.{extra}")
    return None


def chance_hint(n_name, learner, kid_values, probs):
    """Hints for the usual chance-node slips (misconception 18)."""
    if not kid_values:
        return None
    weights = list(probs)
    mean = sum(kid_values) / len(kid_values)
    equal = all(close(w, weights[0]) for w in weights)
    weighted = " + ".join(f"{fmt_prob(p)} × {fmt(v)}" for p, v in zip(weights, kid_values))
    if close(learner, min(kid_values)) or close(learner, max(kid_values)):
        which = "smallest" if close(learner, min(kid_values)) else "largest"
        return (f"You took the {which} outcome, but nobody chooses at a chance node {n_name}: "
                f"its value is the expected value, {weighted}.")
    if not equal and close(learner, mean):
        return (f"You took the plain average, but {n_name}'s outcomes are not equally likely: "
                f"weight each by its probability, {weighted}.")
    if close(learner, sum(kid_values)) and len(kid_values) > 1:
        return f"You added the outcomes: multiply each by its probability first, {weighted}."
    return None


# ============================================================================
# Diagnoses that give nothing away, and twin trees
# ============================================================================


def constant_answer(values):
    """Whether the learner's numbers are all the same (two or more of them): such an answer shows no
    misconception, only that the work is not done (an all-zero answer is not "you took the smallest")."""
    values = [v for v in values if isinstance(v, numbers.Real)]
    return len(values) >= 2 and all(close(v, values[0]) for v in values)


def rule_question(G, nodes, n):
    """The rule to re-apply at inner node ``n``, as a question, with no value of the exercise in it."""
    name = nodes.name(n)
    player = G.nodes[n].get("player")
    if player == CHANCE:
        return (f"{name} is a chance node: nobody chooses there; its value is the sum, over its outcomes, of "
                f"probability × the outcome's value. Recompute it from its children's values.")
    takes = "largest" if player == MAX else "smallest"
    return (f"{name} is a {ROLE_NAMES.get(player, '?')} node: which of its children's values does "
            f"{ROLE_NAMES.get(player, '?')} take? (the {takes})")


def value_slip(G, nodes, n, learner, kid_values, probs=None):
    """``(text, tag)`` naming the misconception that gives ``learner`` at ``n`` from its children's true
    values, or None; the text gives no value the learner did not write."""
    if not kid_values:
        return None
    name = nodes.name(n)
    player = G.nodes[n].get("player")
    x = fmt(learner)
    if player in (MAX, MIN):
        other = max(kid_values) if player == MIN else min(kid_values)
        right = min(kid_values) if player == MIN else max(kid_values)
        if close(learner, other) and not close(learner, right):
            took, picks = ("largest", "smallest") if player == MIN else ("smallest", "largest")
            parents = list(G.predecessors(n))
            same = parents and G.nodes[parents[0]].get("player") == player
            extra = (f" Turns need not alternate: {name} is {ROLE_NAMES[player]} like its parent "
                     f"{nodes.name(parents[0])}.") if same else ""
            return (f"Your {x} is the {took} of {name}'s children's values, as if the other player chose at "
                    f"{name}; but {name} is a {ROLE_NAMES[player]} node, and {ROLE_NAMES[player]} takes the "
                    f"{picks}. Ask whose turn it is at {name}.{extra}", "roles-inverted")
        return None
    if player != CHANCE:
        return None
    weights = list(probs) if probs is not None else [1 / len(kid_values)] * len(kid_values)
    right = sum(p * v for p, v in zip(weights, kid_values))
    if close(learner, right, 0.005):
        return None
    mean = sum(kid_values) / len(kid_values)
    equal = all(close(w, weights[0]) for w in weights)
    if len(set(kid_values)) > 1 and (close(learner, min(kid_values)) or close(learner, max(kid_values))):
        which = "smallest" if close(learner, min(kid_values)) else "largest"
        return (f"Your {x} is the {which} of {name}'s outcomes, as if someone chose at {name}; but nobody "
                f"chooses at a chance node: weight each outcome by its probability and add.", "chance-as-choice")
    if not equal and close(learner, mean, 0.005):
        return (f"Your {x} is the plain average of {name}'s outcomes, but they are not equally likely: "
                f"weight each by its probability.", "chance-unweighted")
    if len(kid_values) > 1 and close(learner, sum(kid_values), 0.005):
        return (f"Your {x} is the sum of {name}'s outcomes: multiply each by its probability before adding.",
                "chance-summed")
    return None


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
