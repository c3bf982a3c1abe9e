"""Exercises by hand on alpha-beta's cutoffs: :class:`PruningExercise`, :class:`OrderExercise`, :class:`WindowExercise`.

Which leaves are pruned (and why, :func:`visited_reason`), the order nodes are
visited in, and the (α, β) window at a node.

May import: :mod:`gametrees.search`, :mod:`gametrees.games`,
:mod:`gametrees.exercises.feedback`, :mod:`gametrees.exercises.answers` and
:mod:`gametrees.exercises.by_hand.base`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

from ...games import MAX, MIN
from ...search import alphabeta, minimax
from ..answers import BadAnswer, OP_TEXT, parse_value
from ..feedback import ROLE_NAMES, Report, and_list, close, fmt, is_are, malformed, plain
from .base import Exercise, RULES, SearchInfo, leaves_under

def _rule_text(rule):
    if rule == "textbook":
        return "the textbook rule: prune when v ≥ β at a MAX node or v ≤ α at a MIN node"
    return "the strict rule: prune only when v > β at a MAX node or v < α at a MIN node"


def _check_rule(rule):
    if rule not in RULES:
        raise ValueError(f"rule must be 'textbook' or 'strict', got {rule!r}")
    return rule


def visited_reason(G, nodes, info, n, strict):
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
        cmp = (f"{fmt(before)} = α, and the strict rule prunes only when v < α" if tie and strict
               else f"{fmt(before)} > α")
    else:
        tie = before == b
        cmp = (f"{fmt(before)} = β, and the strict rule prunes only when v > β" if tie and strict
               else f"{fmt(before)} < β")
    if tie and strict:
        hint = ("A tie: the textbook rule (AIMA) would prune here; the strict rule (as in CS188) does not. "
                "Both rules give the same root value.")
    text = (f"{name} is evaluated: when {pname} reaches it, {pname} ({ROLE_NAMES[player]}) has {fmt(before)} "
            f"so far and its window is α = {fmt(a)}, β = {fmt(b)}; {cmp}, so {pname} must look on "
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
        self.info = SearchInfo(self.result, self.nodes)

    def _status(self, n):
        return self.result.graph.nodes[n]["status"]

    def _parent(self, n):
        ps = list(self.tree.predecessors(n))
        return ps[0] if ps else None

    def _not_pruned(self, n):
        """Why the visited node ``n`` is not pruned: ``(text, hint)``."""
        text, hint = visited_reason(self.tree, self.nodes, self.info, n, self.strict)
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
                return (f"If {name} were {fmt(u)} instead of {fmt(old)}, the root's value would be "
                        f"{fmt(value)}, not {fmt(self.result.value)}: alpha-beta cannot skip {name}.")
        for u in order:
            H = G.copy()
            H.nodes[leaf]["utility"] = u
            back = alphabeta(H, strict=self.strict, trace=True).graph.nodes[p]["value"]
            if back != self.result.graph.nodes[p]["value"]:
                return (f"If {name} were {fmt(u)} instead of {fmt(old)}, {self.nodes.name(p)} would return "
                        f"{fmt(back)} instead of {fmt(self.result.graph.nodes[p]['value'])}.")
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
    ✗ Pruned leaves: 1 of 2 right.
    ✓ I and J are pruned: after H returns 2 to C, 2 ≤ α = 3 (MAX can already get 3 at A), so C stops.
    ✗ L is evaluated: when D reaches it, D (MIN) has 14 so far and its window is α = 3, β = 14; 14 > α, so D must look on (no window has closed).
        Hint: If L were 1 instead of 5, D would return 1 instead of 2.
    """

    kind = "pruning"
    _what = "Pruned leaves"
    answer_form = "give the pruned leaves as a list such as ['I', 'J'] or a string \"I, J\" ([] if none)"

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

    def check(self, answer, *, subtrees=False):
        """Check the pruned leaves in ``answer``.

        With ``subtrees=True`` (the practice widget's cuts) a pruned inner node
        stands for the leaves below it; otherwise naming an inner node is a
        mistake (the question asks for leaves).
        """
        what = self._what
        try:
            named, unknown = self.nodes.many(answer, "the pruned leaves")
        except BadAnswer as exc:
            return malformed(what, f"Could not read your answer: {exc}.")
        rep = Report()
        if unknown:
            rep.bad(self.nodes.unknown_text(unknown))
        claimed = set()
        for n in dict.fromkeys(named):
            if not self.tree.out_degree(n):
                claimed.add(n)
            elif self._status(n) == "pruned":
                below = leaves_under(self.tree, n)
                claimed.update(below)  # the leaves are meant, but the question asks for leaves
                if not subtrees:
                    rep.bad(f"{self.nodes.name(n)} is not a leaf: the question asks for the leaves alpha-beta never "
                            f"evaluates, so name {self.nodes.names(below)} (the leaves below "
                            f"{self.nodes.name(n)}) instead.")
            else:
                text, hint = self._not_pruned(n)
                rep.bad(text.replace(" is evaluated:", " is visited, not pruned:", 1), hint)
        truth = set(self.pruned)
        other_rule = "strict" if self.rule == "textbook" else "textbook"
        # A rule is named only when the marks are that rule's pruned set and not this one's; an empty
        # answer tells nothing about ties.
        if claimed and claimed != truth and claimed == set(self.other_pruned):
            rep.bad(
                f"You pruned with the {other_rule} rule; this exercise uses {_rule_text(self.rule)}.",
                "The two conventions differ only on ties (a value equal to α or β). CS188 prunes only on "
                "strict inequality, AIMA on ≤ / ≥; both give the same root value.",
            )
        for cut in self.info.cuts:
            leaves = [x for p in cut.pruned for x in leaves_under(self.tree, p)]
            right = [x for x in leaves if x in claimed]
            missed = [x for x in leaves if x not in claimed]
            if right:
                rep.good(f"{self.nodes.names(right)} {is_are(right)} pruned: {cut.text(self.nodes, pruned=False)}.")
            if missed:
                hint = None
                if cut.tie and not cut.strict:
                    hint = ("A tie counts under the textbook rule: it prunes when v ≤ α (or v ≥ β). The strict "
                            "rule (CS188) would not prune here; both give the same root value.")
                rep.bad(f"{self.nodes.names(missed)} {is_are(missed)} pruned too: {cut.text(self.nodes)}.", hint)
        for x in self.nodes.sorted(claimed - truth):
            rep.bad(*self._not_pruned(x))
        if not truth and not claimed and not unknown:
            rep.good("Nothing is pruned: no node's value ever falls outside its window.")
        return rep.feedback(what, count_ok=False)


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
    ✗ Visiting order: 1 of 2 right.
    ✓ The first 7 are right: A, B, E, F, G, C and H.
    ✗ Step 8: you wrote I, but I is never visited: after H returns 2 to C, 2 ≤ α = 3 (MAX can already get 3 at A), so C stops: I and J are never looked at. The search goes on to D.
    """

    kind = "order"
    _what = "Visiting order"
    answer_form = "give the nodes in the order they are visited, as a list such as ['A', 'B', 'E'] or a string \"A, B, E\""

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
        self.info = SearchInfo(self.result, self.nodes)
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
        except BadAnswer as exc:
            return malformed(what, f"Could not read your answer: {exc}.")
        rep = Report()
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
            rep.good(f"The first {i} are right: {and_list(self.nodes.name(n) for n in expected[:i])}.")
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
            rep.bad(f"You left out {and_list(self.nodes.name(n) for n in missing)}: "
                    f"{'it is' if len(missing) == 1 else 'they are'} visited too.")
        extra = [n for n in nodes if n not in expected and n not in explained]
        by_cut = {}
        for n in extra:
            by_cut.setdefault(self.info.cut_for(n), []).append(n)
        for cut, ns in by_cut.items():
            why = f": {cut.text(self.nodes, pruned=False)}" if cut else ""
            rep.bad(f"{self.nodes.names(ns)} {is_are(ns)} never visited{why}.")
        return rep.feedback(what)


def _parse_window(answer):
    """``(alpha, beta)`` from a pair, a dict or text; raw values (not yet numbers)."""
    if isinstance(answer, Mapping):
        keys = {str(k).strip().casefold(): v for k, v in answer.items()}
        a = next((keys[k] for k in ("alpha", "α", "a") if k in keys), BadAnswer)
        b = next((keys[k] for k in ("beta", "β", "b") if k in keys), BadAnswer)
        if a is BadAnswer or b is BadAnswer:
            raise BadAnswer(f"a dict answer needs the keys 'alpha' and 'beta', got {sorted(map(str, answer))}")
        return a, b
    if isinstance(answer, str):
        s = answer.replace("−", "-")
        s = re.sub(r"(?i)\b(alpha|beta)\b|[αβ]", " ", s)
        s = s.replace("=", " ").replace(":", " ").strip().strip("()[]{}")
        parts = [t for t in re.split(r"[,;]\s*|\s+", s) if t]
        parts = [t for t in parts if t]
        if len(parts) != 2:
            raise BadAnswer(f"write two values, alpha then beta, e.g. \"3, +inf\"; could not read {answer!r}")
        return parts[0], parts[1]
    if isinstance(answer, (list, tuple)) and len(answer) == 2:
        return answer[0], answer[1]
    raise BadAnswer(f"give the window as a pair (alpha, beta), e.g. (3, math.inf); got {answer!r}")


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
                    f"ask about one of {and_list(self.nodes.name(m) for m in visited)}"
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

    @property
    def _what(self):
        return f"Window at {self.nodes.name(self.node)}"

    answer_form = "give (α, β) as a pair of numbers, such as (3, math.inf) or \"3, +inf\""

    def solution(self):
        return tuple(plain(x) for x in self.window)

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
            from_where = f" (no {ROLE_NAMES[owner]} node above it has a value yet)"
        if player != owner:
            verb = "lowers β and never changes α" if player == MIN else "raises α and never changes β"
            return (f"{name} is a {ROLE_NAMES[player]} node: {ROLE_NAMES[player]} {verb}, so {sym} stays {fmt(start)}, "
                    f"the value {name} was entered with{from_where}."), None
        steps, prev, cut_update = [], start, None
        for u in self.info.updates.get(n, []):
            now = u.alpha if which == "alpha" else u.beta
            if u.info[3]:
                cut_update = u
            elif now != prev:
                steps.append(f"after {self.nodes.name(u.info[0])} = {fmt(u.info[1])}, {sym} = {fmt(now)}")
                prev = now
        verb, verbing = ("raises", "raising") if owner == MAX else ("lowers", "lowering")
        s = f"{name} ({ROLE_NAMES[player]}) is entered with {sym} = {fmt(start)}{from_where}"
        if steps:
            s += f" and {verb} it with each better child value: {'; '.join(steps)}"
        elif cut_update is None:
            s += f"; no child value {verb} it"
        if cut_update is not None:
            c, cv = self.nodes.name(cut_update.info[0]), fmt(cut_update.info[1])
            if player == MIN:
                op, bound = ("<" if self.strict else "≤"), f"α = {fmt(cut_update.alpha)}"
            else:
                op, bound = (">" if self.strict else "≥"), f"β = {fmt(cut_update.beta)}"
            s += (f"; then {c} = {cv} {op} {bound}" if steps else f"; its child {c} = {cv} {op} {bound}")
            s += f" is a cutoff, so {name} returns at once, without {verbing} {sym}"
        return s + f". So {sym} = {fmt(final)} when {name} returns.", cut_update

    def check(self, answer):
        name = self.nodes.name(self.node)
        what = f"Window at {name}"
        try:
            raw = _parse_window(answer)
        except BadAnswer as exc:
            return malformed(what, f"Could not read your answer: {exc}.")
        rep = Report()
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
                op, v = parse_value(x)
            except BadAnswer as exc:
                rep.bad(f"{sym} at {name}: {exc}; write a number such as 3, -inf or +inf.")
                values.append(None)
                continue
            if op != "eq":
                rep.bad(f"{sym} at {name}: write a plain number, not {OP_TEXT[op]}{fmt(v)}.")
                values.append(None)
                continue
            values.append(v)
        for i, (which, sym) in enumerate((("alpha", "α"), ("beta", "β"))):
            x = values[i]
            if x is None:
                continue
            want = self.window[i]
            if close(x, want):
                rep.good(f"{sym} = {fmt(want)} at {name}.")
                continue
            story, cut_update = self._story(which)
            rep.bad(f"{sym} at {name}: you wrote {fmt(x)}, but {story}", self._window_hint(which, x, cut_update))
        return rep.feedback(what)

    def _window_hint(self, which, x, cut_update):
        n = self.node
        name = self.nodes.name(n)
        player = self.tree.nodes[n]["player"]
        sym = "α" if which == "alpha" else "β"
        want = self.window[0] if which == "alpha" else self.window[1]
        other = self.window[1] if which == "alpha" else self.window[0]
        if math.isinf(want) and x == 0:
            return (f"0 is a real score, not 'no bound yet': {sym} is {fmt(want)} here. Use math.inf, and test "
                    "your code on trees whose values are 0 or all negative.")
        if close(x, other) and not close(x, want):
            return "You may have swapped α and β: α is MAX's floor (the lower end), β is MIN's ceiling."
        if cut_update is not None and close(x, cut_update.info[1]):
            return (f"{self.nodes.name(cut_update.info[0])} = {fmt(cut_update.info[1])} ends {name}'s search with "
                    f"a cutoff: the search returns before it updates {sym}, so {sym} stays {fmt(want)}.")
        owner = MAX if which == "alpha" else MIN
        kid_values = [u.info[1] for u in self.info.updates.get(n, [])]
        if player != owner:
            if any(close(x, v) for v in kid_values):
                return (f"A child's value changes {name}'s {'β' if which == 'alpha' else 'α'}, not its {sym}: "
                        f"MAX raises its floor α, MIN lowers its ceiling β. Windows pass down, as copies; "
                        f"only values pass up.")
            return (f"MAX raises its floor α; MIN lowers its ceiling β. At {name} ({ROLE_NAMES[player]}) {sym} is "
                    f"only inherited from above.")
        return None
