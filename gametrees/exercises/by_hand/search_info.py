"""Reading an alpha-beta search from the engine's trace: windows, cutoffs and why they happen
(:class:`SearchInfo`).

The exercises and the checks never search a tree themselves: what alpha-beta
did at each node (the window it was searched with, the value its parent had so
far, which ancestors set α and β, each update and each cutoff) is read from the
events the engine recorded.

May import: :mod:`gametrees.rules`, the standard library, :mod:`gametrees.games` and
:mod:`gametrees.exercises.feedback`.

Examples
--------
>>> from gametrees import alphabeta, tree_from_nested
>>> from gametrees.exercises.answers import NodeNames
>>> G = tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]); nodes = NodeNames(G)
>>> info = SearchInfo(alphabeta(G, trace=True), nodes)
>>> [cut.text(nodes) for cut in info.cuts]
['after H returns 2 to C, 2 ≤ α = 3 (MAX can already get 3 at A), so C stops: I and J are never looked at']
>>> info.call_window[nodes.by_label["D"]]
(3, inf)
"""

from __future__ import annotations

import math

from ...games import MAX, MIN
from ..feedback import fmt, is_are

__all__ = ["Cut", "SearchInfo"]

class Cut:
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
            why = (f" (MAX can already get {fmt(self.alpha)} at {nodes.name(self.source)})"
                   if self.source is not None else "")
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

        for _k, e in enumerate(trace):
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
                cut = Cut(node=n, player=e.player, child=last.child, value=e.value, alpha=e.alpha,
                           beta=e.beta, strict=e.strict, pruned=tuple(e.children),
                           source=source(n, MAX if e.player == MIN else MIN,
                                         e.alpha if e.player == MIN else e.beta))
                self.cut_at[n] = cut
                self.cuts.append(cut)
                for c in e.children:
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
