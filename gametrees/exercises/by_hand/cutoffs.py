"""Exercises by hand on alpha-beta's cutoffs: :class:`PruningExercise`, :class:`OrderExercise`,
:class:`WindowExercise`.

Which leaves are pruned (and why, :func:`visited_reason`), the order nodes are
visited in, and the (α, β) window at a node.

May import: :mod:`gametrees.rules`, :mod:`gametrees.search`, :mod:`gametrees.games`,
:mod:`gametrees.exercises.feedback`, :mod:`gametrees.exercises.answers` and
and the modules ``trees``, ``search_info``, ``diagnoses`` and ``exercise`` of
:mod:`gametrees.exercises.by_hand`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

import networkx as nx

from ...games import MAX, MIN
from ...rules import cutoff, cutoff_clause, prune_when, stops_only_when, tie_rule
from ...search import alphabeta, minimax
from ..answers import OP_TEXT, BadAnswer, parse_value
from ..feedback import ROLE_NAMES, Feedback, Report, and_list, close, fmt, is_are, malformed, plain
from .diagnoses import constant_answer
from .exercise import Exercise, strict_option
from .search_info import SearchInfo
from .trees import inline, leaves_under


def _rule_text(strict):
    return f"the {tie_rule(strict)} rule: {prune_when(strict, at_nodes=True)}"


def _unreadable_text(answer):
    """Text with no label in it that is not a way of writing "none" ('[[[', '???')."""
    if not isinstance(answer, str):
        return False
    t = answer.strip()
    return bool(t) and not re.search(r"\w", t) and t not in ("[]", "{}", "()", "∅", "ø", "-", "—")


def _no_stop_text(strict):
    """No node meets the cutoff test with a child left, per side: MAX on β only, MIN on α only."""
    return (f"no MAX node's value {cutoff_clause(MAX, strict)}, and no MIN node's value "
            f"{cutoff_clause(MIN, strict)}, while it has a child left to skip")


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
                "Pruning needs evidence: a node can only stop after at least one child has returned, when "
                f"its value {cutoff_clause(MAX, strict)} at a MAX node or {cutoff_clause(MIN, strict)} at a "
                "MIN node.")
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
    if player == MIN and before >= b:
        cmp += f"; {fmt(before)} {'>' if before > b else '='} β does not stop a MIN node"
    elif player == MAX and before <= a:
        cmp += f"; {fmt(before)} {'<' if before < a else '='} α does not stop a MAX node"
    if tie and strict:
        hint = ("A tie: the textbook rule (AIMA) would prune here; the strict rule (as in CS188) does not. "
                "Both rules give the same root value.")
    text = (f"{name} is evaluated: when {pname} reaches it, {pname} ({ROLE_NAMES[player]}) has {fmt(before)} "
            f"so far and its window is α = {fmt(a)}, β = {fmt(b)}; {cmp}, so {pname} must look on "
            f"(no window has closed).")
    return text, hint


class _AlphaBetaExercise(Exercise):
    """Shared by the exercises about one alpha-beta search."""

    def __init__(self, tree=None, *, strict=None, rule=None, **kwargs):
        self.strict = strict_option(strict, rule)
        super().__init__(tree, **kwargs)

    @property
    def rule(self):
        """The tie rule's name, ``"textbook"`` or ``"strict"`` (``strict`` as a word)."""
        return tie_rule(self.strict)

    def _interesting(self, G):
        return alphabeta(G, strict=self.strict, trace=False, graph=False).stats["cutoffs"] > 0

    def _read_labels(self, answer, about):
        """The nodes an answer names: ``(named, unknown labels, a Report)`` (the unknown ones already a ✗
        line in it), or ``(None, None, feedback)`` when the answer cannot be read at all."""
        what = self._what
        try:
            named, unknown = self.nodes.many(answer, about)
        except BadAnswer as exc:
            return None, None, malformed(what, f"Could not read your answer: {exc}.")
        if (unknown and not named) or _unreadable_text(answer):
            return None, None, malformed(
                what,
                f"Could not read your answer: "
                f"{self.nodes.unknown_text(unknown).rstrip('.') if unknown else self.answer_form}.",
            )
        rep = Report()
        self._last_wrong = []
        if unknown:
            rep.bad(self.nodes.unknown_text(unknown))
        return named, unknown, rep

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
        counter = (
            self._counterexample(n) if not self.tree.out_degree(n) and self._parent(n) is not None else None
        )
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
        return (f"Run alpha-beta from {self.nodes.name(self.nodes.root)} with {_rule_text(self.strict)}; "
                f"children are searched left to right.")


def _relabelled(G, taken):
    """``G`` with its nodes relabelled in breadth-first order by the first labels not in ``taken`` (A to
    Z, then AA, AB, ...), so that a twin's worked text names none of the exercise's nodes.

    >>> from gametrees.trees import tree_from_nested
    >>> G = tree_from_nested([[1, 2], 3])
    >>> H = _relabelled(G, {"A", "B", "C", "D", "E"})
    >>> [H.nodes[n]["label"] for n in [H.graph["root"]] + [v for _, v in nx.bfs_edges(H, H.graph["root"])]]
    ['F', 'G', 'H', 'I', 'J']
    """
    letters = [chr(c) for c in range(ord("A"), ord("Z") + 1)]
    fresh = (lab for lab in letters + [a + b for a in letters for b in letters] if lab not in taken)
    H = G.copy()
    for n in [G.graph["root"]] + [v for _, v in nx.bfs_edges(G, G.graph["root"])]:
        H.nodes[n]["label"] = next(fresh)
    return H


_NOT_ASKED = object()   # PruningExercise.check's second part, the cutoff test, when it is not asked


class PruningExercise(_AlphaBetaExercise):
    """Which leaves does alpha-beta prune (never evaluate)?

    Parameters
    ----------
    strict : bool
        The tie rule (:mod:`gametrees.rules`): False (default, the textbook rule, AIMA) prunes when
        v ≥ β / v ≤ α; True (the strict rule, CS188) only when v > β / v < α. Answering with the other
        rule's set is recognised and named. ``rule="textbook"`` or ``"strict"`` is accepted too.
    tree, seed, difficulty, root_player, depth, branching, values, ragged
        See :class:`Exercise`.

    Examples
    --------
    >>> ex = PruningExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    >>> ex.solution()
    ['I', 'J']
    >>> ex.check("I, J, L")
    ✗ Pruned leaves: 8 of 9 leaves right.
    ✓ I and J are pruned: C stops early.
    ✗ L is marked pruned, but alpha-beta evaluates it: D is a MIN node, and a MIN node stops only when its
    value falls to α (v ≤ α); a value at or above β does not stop it. Has D's value met that test before L
    comes up? A cut needs it.
    >>> ex.check(["I"]).lines[1]
    "✗ C's cut skips more than you marked: which of C's children does it never look at, and which leaves lie
    below them?"
    """

    kind = "pruning"
    _what = "Pruned leaves"
    answer_form = ("give the pruned leaves as a list of labels or a string of labels separated by commas ([] "
                   "if none)")

    def _setup(self):
        super()._setup()
        G = self.result.graph
        self.leaves = [n for n in self.nodes.order if not self.tree.out_degree(n)]
        self.pruned = [n for n in self.leaves if G.nodes[n]["status"] == "pruned"]
        other = alphabeta(self.tree, strict=not self.strict, trace=True).graph
        self.other_pruned = [n for n in self.leaves if other.nodes[n]["status"] == "pruned"]

    def _question(self):
        return (f"Pruning{self._origin()}: {self._root_text()}. {self._rule_question()} Which leaves are "
                "never evaluated (pruned)? Answer with a list of labels or a string of labels separated by "
                "commas ([] if none).")

    def solution(self):
        return [self.nodes.name(n) for n in self.pruned]

    def check(self, answer, *, subtrees=False, cut_test=_NOT_ASKED):
        """Check the pruned leaves in ``answer``.

        With ``subtrees=True`` (the practice widget's cuts) a pruned inner node
        stands for the leaves below it and the feedback speaks of the edges cut
        (✂) into nodes; otherwise naming an inner node is a mistake (the question
        asks for leaves).

        ``cut_test`` (when given; ``None`` is "not answered yet") is a second part:
        the inner nodes whose value meets the cutoff test (a MAX node's value
        reaching the β it was entered with, a MIN node's falling to its α), as a
        list of labels (``[]`` if none). It says *why* leaves are pruned or not: a
        node that meets the test with a child left prunes it; one that meets it
        only at its last child prunes nothing. The title then counts the two
        parts.

        >>> ex = PruningExercise([[5, 8], [[9, 3], 6], [[4, 12], 11]], root_player="min")
        >>> ex.check([], cut_test=["D"])
        ✓ Pruned leaves and the cutoff test: both parts right.
        ✓ Nothing is pruned: no MAX node's value reaches β (v ≥ β), and no MIN node's value falls to α
        (v ≤ α), while it has a child left to skip.
        ✓ D meets the cutoff test, 11 ≥ β = 6, at its last child: no child is left to skip.
        >>> ex.check([], cut_test=[]).title
        'Pruned leaves and the cutoff test: 1 of 2 parts right.'
        """
        what = self._what
        named, unknown, rep = self._read_labels(answer, "the pruned leaves")
        if isinstance(rep, Feedback):
            return rep
        edge = self._edge if subtrees else self.nodes.name
        claimed = self._claimed(rep, named, subtrees)
        truth = set(self.pruned)
        by_other_rule = self._judge_tie_rule(rep, claimed, truth)
        for cut in self.info.cuts:
            self._judge_cut(rep, cut, named, claimed, edge, subtrees, by_other_rule)
        if not by_other_rule:
            self._judge_over(rep, claimed, truth, edge, subtrees)
        if not truth and not claimed and not unknown:
            rep.good(f"Nothing is pruned: {_no_stop_text(self.strict)}.")
        rep.items = [item for item in rep.items if item[1]]
        fb = rep.feedback(what, count_ok=False)
        if not fb.ok and not claimed and not unknown and truth:
            # an empty list earns nothing for the leaves it leaves alone: it has not named one pruned leaf
            fb.title = f"{what}: your list is empty, but this search prunes leaves."
        elif not fb.ok:   # the title counts leaves, whatever the lines group: right = marked as they are
            right = sum((n in claimed) == (n in truth) for n in self.leaves)
            fb.title = (
                f"{what}: {right} of {len(self.leaves)} leaves right."
                if right < len(self.leaves)
                else f"{what}: all {right} leaves right, and a mark that is not a leaf of the tree."
            )
        if cut_test is not _NOT_ASKED:
            fb = self._with_cut_test(fb, cut_test)
        return fb

    def _meeting_cut_test(self):
        """``{node: children left to skip}`` for every inner node alpha-beta searches whose value meets the
        cutoff test against the window it was entered with, in search order."""
        G = self.result.graph
        out = {}
        for n in self.nodes.order:
            if not self.tree.out_degree(n) or self._status(n) != "visited":
                continue
            a, b = self.info.call_window[n]
            if cutoff(self.tree.nodes[n]["player"], G.nodes[n]["value"], a, b, self.strict):
                out[n] = sum(self._status(c) != "visited" for c in self.tree.successors(n))
        return out

    def _with_cut_test(self, fb, answer):
        """``fb`` (the pruned leaves) with the second part judged: the nodes that meet the cutoff test."""
        if fb.status not in ("right", "wrong"):
            return fb
        what, about = f"{self._what} and the cutoff test", "The nodes that meet the cutoff test"
        rep = Report()
        truth = self._meeting_cut_test()
        name = self.nodes.name
        try:
            named, unknown = (None, None) if answer is None else self.nodes.many(answer, "the nodes")
        except BadAnswer as exc:
            named, unknown = None, None
            rep.bad(f"{about}: could not read {answer!r}: {exc}.")
        if answer is None:
            rep.bad(f"{about}: not answered yet: give their labels as a list ([] if none).")
        elif named is not None:
            for ref in unknown:
                rep.bad(f"{about}: {ref!r} is not a node of this tree.")
            for n in dict.fromkeys(named):
                player = self.tree.nodes[n].get("player")
                if not self.tree.out_degree(n):
                    rep.bad(f"{about}: {name(n)} is a leaf; the cutoff test is made at an inner node, after "
                            "each of its children.")
                elif self._status(n) != "visited":
                    rep.bad(f"{about}: {name(n)} is never searched: it is pruned.")
                elif n not in truth:
                    bound, verb = ("β", "reach") if player == MAX else ("α", "fall to")
                    rep.bad(f"{about}: does {name(n)}'s value {verb} the {bound} of the window {name(n)} was "
                            f"entered with? {name(n)} is a {ROLE_NAMES[player]} node: compare its value so "
                            f"far with that {bound} after each child.")
            missing = [n for n in truth if n not in named]
            if missing:
                rep.bad(f"{about}: your list leaves out at least one node that meets it: after each "
                        "child, compare a MAX node's value so far with the β it was entered with, a MIN "
                        "node's with its α.")
            if not rep.items:
                G = self.result.graph
                for n, left in truth.items():
                    a, b = self.info.call_window[n]
                    v = G.nodes[n]["value"]
                    test = (f"{fmt(v)} {'>' if self.strict else '≥'} β = {fmt(b)}"
                            if self.tree.nodes[n]["player"] == MAX
                            else f"{fmt(v)} {'<' if self.strict else '≤'} α = {fmt(a)}")
                    rep.good(f"{name(n)} meets the cutoff test, {test}, "
                             + (f"with {left} child{'ren' if left > 1 else ''} left: "
                                f"{'they are' if left > 1 else 'it is'} pruned." if left else
                                "at its last child: no child is left to skip."))
                if not truth:
                    rep.good("No node meets the cutoff test: alpha-beta never stops a node early.")
        items = list(fb.items) + rep.items
        parts = fb.ok + (not any(k == "bad" for k, _, _ in rep.items))
        title = f"{what}: both parts right." if parts == 2 else f"{what}: {parts} of 2 parts right."
        return Feedback(title, items, tags=fb.tags)

    def _claimed(self, rep, named, subtrees):
        """The leaves the learner's marks claim pruned (a pruned inner node stands for its leaves; without
        ``subtrees`` naming it is said to be no leaf)."""
        claimed = set()
        for n in dict.fromkeys(named):
            if not self.tree.out_degree(n):
                claimed.add(n)
            elif self._status(n) == "pruned":
                below = leaves_under(self.tree, n)
                claimed.update(below)  # the leaves are meant, but the question asks for leaves
                if not subtrees:
                    rep.bad(
                        f"{self.nodes.name(n)} is not a leaf: the question asks for the leaves "
                        f"alpha-beta never evaluates: name the leaves below {self.nodes.name(n)} instead."
                    )
            else:
                claimed.add(n)
        return claimed

    def _judge_tie_rule(self, rep, claimed, truth):
        """Whether the marks are the other tie rule's pruned set (said once, ``tie-rule``), not this one's."""
        other_rule = tie_rule(not self.strict)
        # A rule is named only when the marks are that rule's pruned set and not this one's; an empty
        # answer tells nothing about ties.
        by_other_rule = bool(claimed) and claimed != truth and claimed == set(self.other_pruned)
        if by_other_rule:
            rep.bad(
                f"You pruned with the {other_rule} rule; this exercise uses {_rule_text(self.strict)}.",
                "The two conventions differ only on ties (a value equal to α or β). CS188 prunes only on "
                "strict inequality, AIMA on ≤ / ≥; both give the same root value.", tag="tie-rule")
            self._last_wrong.append((None, "tie", "tie-rule"))
        return by_other_rule

    def _judge_cut(self, rep, cut, named, claimed, edge, subtrees, by_other_rule):
        """One cut of the search: the leaves it skips that are marked (✓), and those missed (✗)."""
        leaves = [x for p in cut.pruned for x in leaves_under(self.tree, p)]
        right = [x for x in leaves if x in claimed]
        missed = [x for x in leaves if x not in claimed]
        c = self.nodes.name(cut.node)
        if right:
            marks = [m for m in dict.fromkeys(named) if leaves_under(self.tree, m)
                     and all(x in right for x in leaves_under(self.tree, m))]
            marks = [m for m in marks if not any(a in marks for a in self._ancestors(m))] or right
            rep.good(f"{self._names(marks, edge)} {is_are(marks)} {'cut' if subtrees else 'pruned'}: "
                     f"{c} stops early.")
        if not missed:
            return
        partial = [p for p in cut.pruned if self.tree.out_degree(p)
                   and any(x in claimed for x in leaves_under(self.tree, p))
                   and any(x not in claimed for x in leaves_under(self.tree, p))]
        if partial and not subtrees:
            rep.bad(
                f"You marked some of the leaves below {self.nodes.names(partial)} as pruned, but not "
                "all: a cut skips every leaf below the child it prunes.",
                tag="pruned-subtree-partial",
            )
            self._last_wrong.append((cut.node, "missed", "pruned-subtree-partial"))
            return
        if by_other_rule and cut.tie:
            return  # said above: the other rule
        player = self.tree.nodes[cut.node]["player"]
        test = (f"{c} is a {ROLE_NAMES[player]} node and stops once its value "
                f"{cutoff_clause(player, self.strict)}")
        if subtrees:
            text = (f"{c}'s search has a cut you have not made: {test}. After which of its children does "
                    f"that happen? Then {c} never follows its remaining edges: cut (✂) them.")
        elif right:
            text = (f"{c}'s cut skips more than you marked: which of {c}'s children does it never look "
                    f"at, and which leaves lie below them?")
        else:
            text = (f"{c}'s search has a cut you did not mark: {test}. After which child does that happen, "
                    f"and which leaves does {c} then never look at?")
        hint = None
        if cut.tie and not cut.strict:
            hint = ("A tie counts under the textbook rule: it prunes when v ≤ α (or v ≥ β), not only "
                    "when v < α (or v > β).")
        rep.bad(text, hint)
        self._last_wrong.append((cut.node, "missed", None))

    def _judge_over(self, rep, claimed, truth, edge, subtrees):
        """Each leaf marked pruned that alpha-beta evaluates (``prune-without-evidence``)."""
        over = self.nodes.sorted(claimed - truth)
        for x in over:
            p = self._parent(x)
            pname = self.nodes.name(p)
            first = self.info.before.get(x) is None
            what_x = f"The {edge(x)[4:]} is cut" if subtrees else f"{self.nodes.name(x)} is marked pruned"
            if first:
                text = (f"{what_x}, but {self.nodes.name(x)} is {pname}'s first child: when the search "
                        f"reaches it, {pname} has no finished child yet, so nothing can be cut there. A cut "
                        "needs evidence.")
            else:
                player = self.tree.nodes[p]["player"]
                text = (f"{what_x}, but alpha-beta {'follows that edge' if subtrees else 'evaluates it'}: "
                        f"{pname} is a {ROLE_NAMES[player]} node, and "
                        f"{stops_only_when(player, self.strict)}. Has {pname}'s value met that test "
                        f"before {self.nodes.name(x)} comes up? A cut needs it.")
            rep.bad(text, tag="prune-without-evidence")
            self._last_wrong.append((x, "over", "prune-without-evidence"))

    def _ancestors(self, n):
        out = []
        while (p := self._parent(n)) is not None:
            out.append(p)
            n = p
        return out

    def _edge(self, n):
        """The edge into ``n``, as the practice widget names it: 'the edge C–I'."""
        p = self._parent(n)
        return f"the edge {self.nodes.name(p)}–{self.nodes.name(n)}" if p is not None else self.nodes.name(n)

    def _names(self, ns, edge):
        if edge == self.nodes.name:
            return self.nodes.names(ns)
        return and_list(edge(n) for n in self.nodes.sorted(ns))

    def _twin_options(self):
        return {"strict": self.strict}

    def _twin(self, feedback):
        """A twin whose cut is a tie where the learner missed a tie cut; any twin if no such twin exists."""
        self._tie_twins_only = True
        try:
            text = super()._twin(feedback)
        finally:
            self._tie_twins_only = False
        return text if text is not None else super()._twin(feedback)

    def _past_other_side(self, n, strictly=False):
        """Whether ``n``'s parent, when it reaches ``n``, has a value past the bound it does not cut on (a MIN
        node at or above its β, a MAX node at or below its α; ``strictly`` above or below): the trap of
        pruning there."""
        before, p = self.info.before.get(n), self._parent(n)
        if before is None or p is None:
            return False
        a, b = self.info.call_window[n]
        if strictly:
            return before > b if self.tree.nodes[p]["player"] == MIN else before < a
        return before >= b if self.tree.nodes[p]["player"] == MIN else before <= a

    def _state_at(self, n):
        """The numbers a worked text states for ``n``'s parent when it reaches ``n``: its value so far and
        its window (α, β); None for a number not known there."""
        a, b = self.info.call_window.get(n, (None, None))
        return self.info.before.get(n), a, b

    def _repeats_state(self, twin, n):
        """Whether ``twin``'s worked text at ``n`` would state this exercise's own value so far, α or β there
        (an open bound, ±∞, is no number of this exercise's)."""
        return any(mine is not None and theirs is not None and math.isfinite(mine) and close(mine, theirs)
                   for mine, theirs in zip(self._state_at(n), twin._state_at(n)))

    def _twin_text(self, twin, wrong):
        n, kind, _ = next(((n, k, t) for n, k, t in wrong if t), wrong[0])
        if kind == "over" and self._repeats_state(twin, n):
            return None   # the twin would show this exercise's own numbers at the node the learner got wrong
        where = f"the same tree with other leaf values, {inline(twin.tree, twin.nodes)}: "
        if kind in ("tie", "missed"):
            # a cut on the same shape prunes leaves in the same places: under this tree's labels it would
            # name the very leaves the learner has still to find, so the twin gets labels of its own
            twin = self._make_twin(_relabelled(twin.tree, set(self.nodes.label.values())))
            where = (f"a tree of the same shape with other leaf values and other labels, "
                     f"{inline(twin.tree, twin.nodes)}: ")
        if kind == "tie":
            tie = next((c for c in twin.info.cuts if c.tie), None)
            return where + tie.text(twin.nodes) + f" ({_rule_text(self.strict)})." if tie else None
        if kind == "missed":
            cut = twin.info.cut_at.get(n)
            mine = self.info.cut_at.get(n)
            if cut is None or (getattr(self, "_tie_twins_only", False) and mine is not None and mine.tie
                               and not cut.tie):
                return None   # a missed tie cut is worked on a twin whose cut there is a tie too, if any
            numbers = [(x, getattr(cut, k)) for k in ("value", "alpha", "beta")
                       for x in ([getattr(mine, k)] if mine is not None else [])]
            if any(math.isfinite(x) and close(x, y) for x, y in numbers):
                return None   # the twin's cut would show this exercise's own numbers at that node
            return where + cut.text(twin.nodes) + "."
        if (kind == "over" and getattr(self, "_tie_twins_only", False) and self._past_other_side(n)
                and not twin._past_other_side(n, strictly=True)):
            return None   # the learner pruned past the bound a node does not cut on: so does the twin's node
        if kind == "over" and twin._status(n) == "visited" and twin.info.before.get(n) is not None:
            return where + visited_reason(twin.tree, twin.nodes, twin.info, n, twin.strict)[0]
        if kind == "over" and twin._status(n) == "visited":
            return where + visited_reason(twin.tree, twin.nodes, twin.info, n, twin.strict)[0]
        return None


class OrderExercise(_AlphaBetaExercise):
    """In which order does the search visit the nodes?

    Parameters
    ----------
    algorithm : {"alphabeta", "minimax"}
        Alpha-beta (default) skips pruned nodes; minimax visits every node.
    strict : bool
        The tie rule, as for :class:`PruningExercise` (``rule=`` accepted too).
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
    ✗ Step 8: you wrote I, but the search never reaches I: a cut above it stops the search first. Which MAX
    node's value reaches β (v ≥ β), or which MIN node's falls to α (v ≤ α), before I comes up?
    """

    kind = "order"
    _what = "Visiting order"
    answer_form = ("give the nodes in the order they are visited, as a list of labels or a string of labels "
                   "separated by commas")

    def __init__(self, tree=None, *, algorithm="alphabeta", strict=None, rule=None, leaves_only=False,
                 **kwargs):
        if algorithm not in ("alphabeta", "minimax"):
            raise ValueError(f"algorithm must be 'alphabeta' or 'minimax', got {algorithm!r}")
        if not isinstance(leaves_only, bool):
            raise TypeError(f"leaves_only must be True or False, got {leaves_only!r}")
        self.algorithm = algorithm
        self.leaves_only = leaves_only
        super().__init__(tree, strict=strict, rule=rule, **kwargs)

    def _interesting(self, G):
        return self.algorithm == "minimax" or super()._interesting(G)

    def _setup(self):
        if self.algorithm == "minimax":
            self.result = minimax(self.tree, trace=True)
        else:
            self.result = alphabeta(self.tree, strict=self.strict, trace=True)
        self.info = SearchInfo(self.result, self.nodes)
        G = self.result.graph
        seq = sorted(
            (n for n in G if G.nodes[n].get("status") == "visited"), key=lambda n: G.nodes[n]["order"]
        )
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
                f"(a list of labels, or a string of labels separated by commas).")

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
        named, unknown, rep = self._read_labels(answer, "the visiting order")
        if isinstance(rep, Feedback):
            return rep
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
            rep.good(f"{', '.join(self.nodes.name(n) for n in nodes)}: the right order.")
            return rep.feedback(what)
        i = 0
        while i < min(len(nodes), len(expected)) and nodes[i] == expected[i]:
            i += 1
        if i:
            rep.good(f"The first {i} are right: {and_list(self.nodes.name(n) for n in nodes[:i])}.")
        prev = nodes[i - 1] if i else None
        e = expected[i] if i < len(expected) else None
        g = nodes[i] if i < len(nodes) else None
        after = f"after {self.nodes.name(prev)}" if prev is not None else "at the start"
        if self.algorithm == "alphabeta" and nodes == self._sequence_by(not self.strict):
            other = tie_rule(not self.strict)
            rep.bad(f"You visited as the {other} rule would; this exercise uses {_rule_text(self.strict)}. "
                    "Which comparison in your search was a tie?", tag="tie-rule")
            self._last_wrong.append((None, "tie", "tie-rule"))
        elif len(nodes) > 2 and self._breadth_first(nodes):
            rep.bad(
                "You listed the nodes level by level, but the search goes depth first: it finishes a "
                "child's whole subtree before it moves to the child's next sibling.",
                tag="breadth-first-order",
            )
            self._last_wrong.append((None, "bfs", "breadth-first-order"))
        elif not nodes:
            rep.bad("Your list is empty: list every node the search visits, in order, starting at the root.")
        elif g is None:
            rep.bad(f"Your list stops {after}, but the search goes on: where does it go next (depth first, "
                    "left to right, skipping only what a cut skips)?")
            self._last_wrong.append((prev, "stops", None))
        elif e is None:
            rep.bad(f"Your list goes on with {self.nodes.name(g)} {after}, but the search is over by then: "
                    "which cut ends it?")
            self._last_wrong.append((g, "extra", None))
        elif g not in expected:
            rep.bad(f"Step {i + 1}: you wrote {self.nodes.name(g)}, but the search never reaches "
                    f"{self.nodes.name(g)}: a cut above it stops the search first. Which MAX node's value "
                    f"{cutoff_clause(MAX, self.strict)}, or which MIN node's "
                    f"{cutoff_clause(MIN, self.strict)}, before {self.nodes.name(g)} comes up?")
            self._last_wrong.append((g, "unvisited", None))
        elif expected.index(g) > i and all(x not in seen for x in expected[i:expected.index(g)]):
            rep.bad(f"Step {i + 1}: you wrote {self.nodes.name(g)}, skipping nodes the search does visit "
                    f"{after}: a cut needs a MAX node whose value {cutoff_clause(MAX, self.strict)}, or a "
                    f"MIN node whose value {cutoff_clause(MIN, self.strict)}, with a child left; is there "
                    "one there?",
                    tag="prune-without-evidence")
            self._last_wrong.append((g, "skipped", "prune-without-evidence"))
        else:
            rep.bad(f"Step {i + 1}: you wrote {self.nodes.name(g)}, but that is not where the search goes "
                    f"{after}: depth first means down to the first child before across to a sibling, left to "
                    "right.")
            self._last_wrong.append((g, "order", None))
        return rep.feedback(what)

    def _sequence_by(self, strict):
        R = (minimax(self.tree, trace=True) if self.algorithm == "minimax"
             else alphabeta(self.tree, strict=strict, trace=True)).graph
        seq = sorted(
            (n for n in R if R.nodes[n].get("status") == "visited"), key=lambda n: R.nodes[n]["order"]
        )
        return [n for n in seq if not self.leaves_only or not self.tree.out_degree(n)]

    def _breadth_first(self, nodes):
        """Whether ``nodes`` are in breadth-first order (by depth, then left to right) and the search's are
        not."""
        key = [(self.nodes.depth[n], self.nodes.index[n]) for n in nodes]
        depths = {self.nodes.depth[n] for n in nodes}
        return (key == sorted(key) and len(depths) > 1 and nodes != self.sequence[:len(nodes)]
                and not self.leaves_only)

    def explain(self):
        """The worked solution: each step of the search, then the answer."""
        steps = [f"{i:>3}. {e.text}" for i, e in enumerate(self._result.trace or [], 1)]
        return "\n".join(steps + [f"Answer: {', '.join(self.solution())}"])

    def _twin_options(self):
        return {"algorithm": self.algorithm, "strict": self.strict, "leaves_only": self.leaves_only}

    def _twin_text(self, twin, wrong):
        n, kind, _ = next(((n, k, t) for n, k, t in wrong if t), wrong[0])
        order = ", ".join(twin.solution())
        where = (f"the same tree with other leaf values, {inline(twin.tree, twin.nodes)}, is visited in the "
                 f"order {order}")
        if kind in ("unvisited", "extra", "skipped"):
            cut = twin.info.cut_for(n) if kind != "skipped" else None
            if kind != "skipped" and cut is None:
                return None
            if kind == "skipped" and n not in twin.sequence:
                return None
            return where + (f": {cut.text(twin.nodes)}." if cut else ".")
        if kind == "tie" and not any(c.tie for c in twin.info.cuts):
            return None
        if twin.sequence == self.sequence:
            return None
        return where + "."


def _parse_window(answer):
    """``(alpha, beta)`` from a pair, a dict or text; raw values (not yet numbers)."""
    if isinstance(answer, Mapping):
        keys = {str(k).strip().casefold(): v for k, v in answer.items()}
        a = next((keys[k] for k in ("alpha", "α", "a") if k in keys), BadAnswer)
        b = next((keys[k] for k in ("beta", "β", "b") if k in keys), BadAnswer)
        if a is BadAnswer or b is BadAnswer:
            raise BadAnswer(
                f"a dict answer needs the keys 'alpha' and 'beta', got {sorted(map(str, answer))}"
            )
        return a, b
    if isinstance(answer, str):
        s = answer.replace("−", "-")
        s = re.sub(r"(?i)\b(alpha|beta)\b|[αβ]", " ", s)
        s = s.replace("=", " ").replace(":", " ").strip().strip("()[]{}")
        parts = [t for t in re.split(r"[,;]\s*|\s+", s) if t]
        parts = [t for t in parts if t]
        if len(parts) != 2:
            raise BadAnswer("write two values, alpha then beta, separated by a comma; could not read "
                            f"{answer!r}")
        return parts[0], parts[1]
    if isinstance(answer, (list, tuple)) and len(answer) == 2:
        return answer[0], answer[1]
    raise BadAnswer(f"give the window as a pair of numbers (alpha, beta); got {answer!r}")


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
    strict : bool
        The tie rule, as for :class:`PruningExercise` (``rule=`` accepted too).
    tree, seed, difficulty, root_player, depth, branching, values, ragged
        See :class:`Exercise`.

    Examples
    --------
    >>> ex = WindowExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]], node="D")
    >>> ex.solution()
    (3, 5)
    >>> ex.check("alpha = 3, beta = 2")
    ✗ Window at D: 1 of 2 bounds right.
    ✓ α = 3 at D.
    ✗ β at D: you wrote 2. Your number is the value of the child that ends D's search with a cutoff; a cutoff
    returns at once, before β is updated. What was β just before that child?
    """

    kind = "window"

    def __init__(self, tree=None, *, node=None, strict=None, rule=None, **kwargs):
        self._node_arg = node
        super().__init__(tree, strict=strict, rule=rule, **kwargs)

    def _setup(self):
        super()._setup()
        G = self.result.graph
        visited = sorted((n for n in G if G.nodes[n].get("status") == "visited" and self.tree.out_degree(n)),
                         key=lambda n: G.nodes[n]["order"])
        if self._node_arg is not None:
            n = self.nodes.resolve(self._node_arg)
            if n is None:
                raise ValueError(f"node {self._node_arg!r} is not a node of the tree (nodes: "
                                 f"{self.nodes.span()})")
            if n not in visited:
                raise ValueError(
                    f"node {self._node_arg!r} is a leaf or is never visited by alpha-beta: "
                    f"ask about one of {and_list(self.nodes.name(m) for m in visited)}"
                )
            self.node = n
        else:
            below = [n for n in visited if n != self.nodes.root]
            finite = [
                n for n in below if any(math.isfinite(x) for x in (G.nodes[n]["alpha"], G.nodes[n]["beta"]))
            ]
            self.node = self._rng.choice(finite or below or visited)
        self.window = (G.nodes[self.node]["alpha"], G.nodes[self.node]["beta"])

    def _question(self):
        name = self.nodes.name(self.node)
        return (f"Window{self._origin()}: {self._root_text()}. {self._rule_question()} What are α and β at "
                f"{name} when {name} returns its value (after its last child; a cutoff returns at once, "
                "before α or β changes)? Answer as a pair of numbers (alpha, beta); where there is no bound "
                "yet, write -math.inf (or \"-inf\") for α and math.inf (or \"+inf\") for β.")

    @property
    def _what(self):
        return f"Window at {self.nodes.name(self.node)}"

    answer_form = ("give (α, β) as a pair of numbers; where there is no bound yet, write -math.inf (or "
                   "\"-inf\") for α and math.inf (or \"+inf\") for β")

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
            return (f"{name} is a {ROLE_NAMES[player]} node: {ROLE_NAMES[player]} {verb}, so {sym} stays "
                    f"{fmt(start)}, the value {name} was entered with{from_where}."), None
        steps, prev, cut_update = [], start, None
        for u in self.info.updates.get(n, []):
            now = u.alpha if which == "alpha" else u.beta
            if u.cut:
                cut_update = u
            elif now != prev:
                steps.append(f"after {self.nodes.name(u.child)} = {fmt(u.child_value)}, {sym} = {fmt(now)}")
                prev = now
        verb, verbing = ("raises", "raising") if owner == MAX else ("lowers", "lowering")
        s = f"{name} ({ROLE_NAMES[player]}) is entered with {sym} = {fmt(start)}{from_where}"
        if steps:
            s += f" and {verb} it with each better child value: {'; '.join(steps)}"
        elif cut_update is None:
            s += f"; no child value {verb} it"
        if cut_update is not None:
            c, cv = self.nodes.name(cut_update.child), fmt(cut_update.child_value)
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
        for _which, sym, x in (("alpha", "α", raw[0]), ("beta", "β", raw[1])):
            if x is None:
                rep.bad(f"{sym} at {name}: None is not a number: give a number for each bound.")
                values.append(None)
                continue
            try:
                op, v = parse_value(x)
            except BadAnswer as exc:
                rep.bad(f"{sym} at {name}: {exc}; write a plain number, or -inf / +inf.")
                values.append(None)
                continue
            if op != "eq":
                rep.bad(f"{sym} at {name}: write a plain number, not {OP_TEXT[op]}{fmt(v)}.")
                values.append(None)
                continue
            values.append(v)
        if all(v is None for v in values):
            reasons = " ".join(text for _, text, _ in rep.items)
            return malformed(what, f"Could not read your answer: {self.answer_form}. {reasons}".strip())
        self._last_wrong = []
        swapped = (all(v is not None for v in values) and close(values[0], self.window[1])
                   and close(values[1], self.window[0]) and not close(values[0], values[1]))
        constant = constant_answer([v for v in values if v is not None])
        for i, (which, sym) in enumerate((("alpha", "α"), ("beta", "β"))):
            x = values[i]
            if x is None:
                continue
            want = self.window[i]
            if close(x, want):
                rep.good(f"{sym} = {fmt(x)} at {name}.")
                continue
            if swapped:
                rep.bad(f"{sym} at {name}: you wrote {fmt(x)}. α is MAX's floor (the lower end of the "
                        "window), β is MIN's ceiling (the upper end): which of your two numbers is which?")
                self._last_wrong.append((which, "swapped", None))
                continue
            text, tag = self._window_slip(which, x, constant)
            rep.bad(f"{sym} at {name}: you wrote {fmt(x)}. {text}", tag=tag)
            self._last_wrong.append((which, "value", tag))
        return rep.feedback(what, unit="bounds right")

    def _window_slip(self, which, x, constant):
        """``(text, tag)``: the rule to re-apply for a wrong α or β, naming a misconception only when the
        number is what it produces."""
        n = self.node
        name = self.nodes.name(n)
        player = self.tree.nodes[n]["player"]
        sym = "α" if which == "alpha" else "β"
        owner = MAX if which == "alpha" else MIN
        G = self.result.graph
        kid_values = [u.child_value for u in self.info.updates.get(n, [])]
        cut_update = next((u for u in self.info.updates.get(n, []) if u.cut), None)
        rule = (f"{name} is entered with its parent's {sym} at that moment; "
                + (f"as a {ROLE_NAMES[player]} node it {'raises α' if owner == MAX else 'lowers β'} with "
                   f"each better child value, and a cutoff returns at once, before {sym} changes."
                   if player == owner else
                   f"a {ROLE_NAMES[player]} node never changes {sym}: it only inherits it."))
        if not constant and player != owner and any(close(x, v) for v in kid_values):
            return (f"{name} is a {ROLE_NAMES[player]} node, and your number is one of its children's "
                    f"values: but MAX raises its floor α and MIN lowers its ceiling β, so at {name} {sym} is "
                    f"only inherited from above. Which bound does {ROLE_NAMES[player]} move?",
                    "wrong-bound-updated")
        if not constant and cut_update is not None and close(x, cut_update.child_value):
            return (
                f"Your number is the value of the child that ends {name}'s search with a cutoff; a "
                f"cutoff returns at once, before {sym} is updated. What was {sym} just before that child?",
                None,
            )
        i = 0 if which == "alpha" else 1
        parent = next(iter(self.tree.predecessors(n)), None)
        start = self.info.call_window[n][i]
        earlier = {
            self.info.call_window[m][i] for m in nx.ancestors(self.tree, n) if m in self.info.call_window
        }
        if (not constant and parent is not None and not close(x, start)
                and any(close(x, v) for v in earlier)):
            p = self.nodes.name(parent)
            article = "an" if which == "alpha" else "a"
            mover = parent   # the nearest node on the path up that moves this bound (MAX α, MIN β)
            while mover is not None and self.tree.nodes[mover]["player"] != owner:
                mover = next(iter(self.tree.predecessors(mover)), None)
            if mover is None or mover == parent:
                where = f"what had {p}'s earlier children done to {p}'s {sym} by then?"
            else:
                m = self.nodes.name(mover)
                where = (f"{p} is a {ROLE_NAMES[self.tree.nodes[parent]['player']]} node and never moves "
                         f"{sym}: {p} inherited it from {m} when {p} was entered. What had {m}'s earlier "
                         f"children done to {m}'s {sym} by then?")
            return ((f"Your number is {article} {sym} that an ancestor of {name} was entered with, before "
                     f"its children moved it. {name} takes {sym} from its parent {p} at the moment {name} is "
                     f"entered: {where} Then follow {name}'s own children."),
                    None)
        path = set(nx.ancestors(self.tree, n)) | {n}
        others = {m for m in G
                  if m not in path and G.nodes[m].get("status") == "visited" and self.tree.out_degree(m)}
        own = {self.info.call_window[n][0 if which == "alpha" else 1]} | {
            (u.alpha if which == "alpha" else u.beta) for u in self.info.updates.get(n, [])}
        if (not constant and math.isfinite(x) and not any(close(x, v) for v in own if v is not None)
                and any(close(x, G.nodes[m][which]) for m in others)):
            return (f"Your number is the {sym} of a node in another part of the tree, as if α and β were "
                    "shared by the whole search; but windows pass down only, as copies, from parent to "
                    f"child. Where did {name}'s {sym} come from when {name} was entered, and what did "
                    f"{name}'s own children do to it?",
                    "bounds-global")
        return rule + f" Trace {name}'s {sym} from its parent through each of {name}'s children.", None

    def explain(self):
        """The worked solution: how α and β at the node came to be, then the answer."""
        return "\n".join([self._story("alpha")[0], self._story("beta")[0], f"Answer: {self.solution()!r}"])

    def _twin_options(self):
        return {"strict": self.strict, "node": self.nodes.name(self.node)}

    def _story_shape(self, which):
        """How the node's α (or β) came to be, without its numbers: (a cutoff ended the node, the bound moved
        inside the node, the node is of the player who moves it)."""
        i = 0 if which == "alpha" else 1
        start = self.info.call_window[self.node][i]
        owner = MAX if which == "alpha" else MIN
        return (self._story(which)[1] is not None, not close(start, self.window[i]) if math.isfinite(start)
                or math.isfinite(self.window[i]) else False, self.tree.nodes[self.node]["player"] == owner)

    def _twin_text(self, twin, wrong):
        """The story of each bound the learner got wrong (α, β or both), on a twin whose story has the same
        shape (a cutoff where this one has one, a bound that moves where this one moves) and other numbers."""
        whiches = list(dict.fromkeys(which for which, _, _ in wrong))
        stories = []
        for which in whiches:
            i = 0 if which == "alpha" else 1
            if math.isinf(self.window[i]) != math.isinf(twin.window[i]):
                return None  # not the same story: one bound is still open, the other not
            if math.isfinite(self.window[i]) and close(twin.window[i], self.window[i]):
                return None  # the twin would show this exercise's number
            if twin._story_shape(which) != self._story_shape(which):
                return None  # the twin must practise the same reasoning
            stories.append(twin._story(which)[0])
        return f"the same tree with other leaf values, {inline(twin.tree, twin.nodes)}: " + " ".join(stories)
