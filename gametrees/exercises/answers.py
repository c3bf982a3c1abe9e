"""Reading a learner's typed answers: numbers, bounds, "pruned", node names.

:func:`parse_value` reads ``3``, ``"-∞"``, ``"≤ 2"``, ``">= 5"`` or ``"pruned"``
into ``(op, value)``; :class:`NodeNames` names the nodes of a tree and reads node
names, ids and sets of them back. A malformed answer raises :class:`BadAnswer`,
whose message the exercise turns into feedback.

May import: the standard library, networkx and
:mod:`gametrees.exercises.feedback`.
"""

from __future__ import annotations

import ast
import math
import numbers
import re
from collections.abc import Mapping
from math import inf as INF

import networkx as nx

from .feedback import and_list

__all__ = ["BadAnswer", "NodeNames", "OP_TEXT", "literal", "parse_value"]

# ============================================================================
# Reading answers
# ============================================================================


class BadAnswer(Exception):
    """An answer that cannot be read; the message says what was expected."""


_LITERAL_LIMIT = 2000  # characters of an answer read as a Python literal
_NESTING_LIMIT = 20    # brackets open at once in it


def literal(text):
    """``text`` read as a Python literal (a tuple, list, ...), or None when it is not one or is too long or
    deep.

    Never raises: ``ast.literal_eval`` on ``"(1," * 300`` runs out of memory, so long or deeply
    nested text is not read at all.
    """
    if len(text) > _LITERAL_LIMIT:
        return None
    depth = deepest = 0
    for ch in text:
        if ch in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in ")]}":
            depth -= 1
    if deepest > _NESTING_LIMIT:
        return None
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


_PRUNED_WORDS = {"pruned", "prune", "x", "-", "—", "none", "skipped", "not visited", "unvisited"}
_INF_WORDS = {"inf", "+inf", "infinity", "+infinity", "∞", "+∞", "math.inf", "+math.inf", "float('inf')"}
_NEG_INF_WORDS = {"-inf", "-infinity", "-∞", "-math.inf", "float('-inf')", "-float('inf')"}
_OPS = (("<=", "le"), (">=", "ge"), ("=<", "le"), ("=>", "ge"), ("==", "eq"), ("≤", "le"), ("≥", "ge"),
        ("<", "lt"), (">", "gt"), ("=", "eq"))
OP_TEXT = {"eq": "", "le": "≤ ", "ge": "≥ ", "lt": "< ", "gt": "> "}


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
            raise BadAnswer(f"{original!r} is not a number") from None
        return int(m.group(1)) / int(m.group(2))
    if math.isnan(v):
        raise BadAnswer(f"{original!r} is not a number")
    return v


def parse_value(x, allow_pruned=False):
    """An answer value as ``(op, number)``; op is eq, le, ge, lt or gt.

    ``("pruned", None)`` when ``allow_pruned`` and the learner wrote e.g. "pruned".
    """
    if x is None and allow_pruned:
        return "pruned", None
    if isinstance(x, bool) or x is None:
        raise BadAnswer(f"{x!r} is not a number")
    if isinstance(x, numbers.Real):
        v = float(x) if not isinstance(x, numbers.Integral) else int(x)
        if isinstance(v, float) and math.isnan(v):
            raise BadAnswer("NaN is not a value")
        return "eq", v
    if not isinstance(x, str):
        raise BadAnswer(f"{x!r} ({type(x).__name__}) is not a number")
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


class NodeNames:
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
        return and_list(self.name(n) for n in self.sorted(ns))

    def sorted(self, ns):
        return sorted(ns, key=self.index.__getitem__)

    def span(self):
        first, last = self.name(self.order[0]), self.name(self.order[-1])
        return f"{first} to {last}" if len(self.order) > 2 else and_list([first, last])

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
                value = literal(s)
                if value is None or isinstance(value, str):
                    return None
                return self.resolve(value)
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
            raise BadAnswer(f"give {what} as a list of labels or a string of labels separated by commas, not "
                            "a dict")
        elif answer is None:
            refs = []
        else:
            n = self.resolve(answer)
            if n is None:
                raise BadAnswer(f"give {what} as a list of node labels or a string of labels separated by "
                           f"commas; got {answer!r}")
            refs = [answer]
        nodes, unknown = [], []
        for ref in refs:
            n = self.resolve(ref)
            if n is not None:
                nodes.append(n)
            else:
                unknown.append(ref)
        return nodes, unknown

    def _tokens(self, text):
        s = text.strip()
        if s.lower() in ("", "none", "nothing", "-", "{}", "[]", "()", "∅", "ø", "set()"):
            return []
        if "(" in s:
            value = literal(s)
            if isinstance(value, tuple) and value in self.G:
                return [value]
            if isinstance(value, (list, tuple, set)):
                return list(value)
        s = s.strip("{}[]")
        return [t.strip("'\"") for t in re.split(r"[\s,;]+", s) if t.strip("'\"")]

    def unknown_text(self, refs):
        def short(r):
            r = repr(r)
            return r if len(r) <= 24 else r[:20] + "…" + r[-2:]

        shown = ", ".join(short(r) for r in refs[:5]) + (
            f" (and {len(refs) - 5} more)" if len(refs) > 5 else ""
        )
        text = (f"There is no node {shown} in this tree: name nodes by their labels "
                f"({self.span()}) or their ids, such as {self.root!r}.")
        glued = next((r for r in refs if isinstance(r, str) and len(r.strip()) > 1
                      and all(ch in self.by_label for ch in r.strip())), None)
        if glued is not None:
            text += f" For several nodes, separate them: {', '.join(glued.strip())!r}."
        return text
