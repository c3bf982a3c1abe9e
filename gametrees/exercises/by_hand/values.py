"""Exercises by hand on values: :class:`ValuesExercise` (minimax or alpha-beta values) and
:class:`ExpectimaxExercise`.

May import: :mod:`gametrees.rules`, :mod:`gametrees.search`, :mod:`gametrees.games`,
:mod:`gametrees.exercises.feedback`, :mod:`gametrees.exercises.answers` and
and the modules ``trees``, ``search_info``, ``diagnoses`` and ``exercise`` of
:mod:`gametrees.exercises.by_hand`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ...games import CHANCE, MAX, MIN
from ...rules import EXACT, LOWER, UPPER, cutoff_clause, prune_when, tie_rule
from ...search import alphabeta, expectimax, minimax
from ..answers import OP_TEXT, BadAnswer, parse_value
from ..feedback import ROLE_NAMES, Report, and_list, close, fmt, malformed, plain, unanswered
from .diagnoses import constant_answer, rule_question, value_slip
from .exercise import Exercise, strict_option
from .search_info import SearchInfo
from .trees import child_probs, inline


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
    strict : bool
        The alpha-beta tie rule (:mod:`gametrees.rules`): False (default, the textbook rule) prunes on
        ties, True (the strict rule) does not. ``rule="textbook"`` or ``"strict"`` is accepted too.

    Attributes
    ----------
    empty : list of str
        The inner nodes the last checked answer gives no value for (every inner node when nothing was
        answered; else the nodes alpha-beta visits that were left out), in the tree's order.
    empty_lines : list of str
        The ✗ lines of that check that say so (one per empty node, or the one "nothing answered yet"
        line): a page that shows the empty boxes itself (the practice widget) leaves them out.

    Examples
    --------
    >>> ex = ValuesExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]], algorithm="alphabeta")
    >>> ex.solution()
    {'A': 3, 'B': 3, 'C': '≤ 2', 'D': 2}
    >>> fb = ex.check({"A": 3, "B": 3, "C": 2, "D": 2})
    >>> fb.status, fb.tags, fb.attempt
    ('wrong', ('bound-as-value',), 1)
    >>> print(fb.lines[2])
    ✗ C: you wrote 2 as an exact value, but C's search is cut short, so alpha-beta knows only a bound there,
    not C's exact value. Write it as a bound: which side is still open, could C's true value be higher or
    lower than your number?
    >>> print(ex.check({"A": 3, "B": 3, "C": 2, "D": 2}).lines[-1])  # doctest: +ELLIPSIS
    • Worked on a twin tree: the same tree with other leaf values, A:max(...): C is a MIN node; ... only an
    upper bound: C ≤ ...
    """

    kind = "values"

    def __init__(self, tree=None, *, algorithm="minimax", strict=None, rule=None, **kwargs):
        if algorithm not in ("minimax", "alphabeta"):
            raise ValueError(f"algorithm must be 'minimax' or 'alphabeta', got {algorithm!r}")
        self.strict = strict_option(strict, rule)
        self.algorithm = "expectimax" if self._chance else algorithm
        self.empty, self.empty_lines = [], []
        super().__init__(tree, **kwargs)

    @property
    def rule(self):
        """The tie rule's name, ``"textbook"`` or ``"strict"`` (``strict`` as a word)."""
        return tie_rule(self.strict)

    answer_form = "give the values as a dict from node label to number, such as {'A': ..., 'B': ...}"

    @property
    def _what(self):
        return {"minimax": "Minimax values", "alphabeta": "Alpha-beta values",
                "expectimax": "Expectimax values"}[self.algorithm]

    def _search(self, G, graph=True):
        if self.algorithm == "minimax":
            return minimax(G, trace=graph, graph=graph)
        if self.algorithm == "expectimax":
            return expectimax(G, trace=graph, graph=graph)
        return alphabeta(G, strict=self.strict, trace=graph, graph=graph)

    def _interesting(self, G):
        if self.algorithm == "alphabeta":
            return self._search(G, graph=False).stats["cutoffs"] > 0
        return True

    def _setup(self):
        self.result = self._search(self.tree)
        G = self.result.graph
        self.inner = [n for n in self.nodes.order if self.tree.out_degree(n)]
        self.asked = [n for n in self.inner if G.nodes[n]["status"] == "visited"]
        self.info = SearchInfo(self.result, self.nodes) if self.algorithm == "alphabeta" else None
        self._exact = minimax(self.tree, trace=True).graph if self.algorithm == "alphabeta" else G

    def _question(self):
        names = and_list(self.nodes.name(n) for n in self.inner)
        if self.algorithm == "minimax":
            return (f"Minimax{self._origin()}: {self._root_text()}. Give the minimax value of every "
                    f"inner node ({names}) as a dict from label to number, {{'A': ..., 'B': ...}}.")
        if self.algorithm == "expectimax":
            return (f"Expectimax{self._origin()}: {self._root_text()}; chance nodes average their "
                    f"outcomes, weighted by the probabilities shown. Give the value of every inner node "
                    f"({names}) as a dict from label to number, {{'A': ..., 'B': ...}}; round to 2 decimals "
                    "if needed.")
        rule = f"{tie_rule(self.strict)} rule: {prune_when(self.strict)}"
        return (f"Alpha-beta{self._origin()}: {self._root_text()}. Run alpha-beta ({rule}), children "
                f"left to right, and give the value each inner node it visits returns, as a dict. Where "
                f"pruning leaves only a bound, write it as '≤ 2' or '≥ 5'. Leave out the nodes it never "
                f"visits (or write 'pruned').")

    def solution(self):
        G = self.result.graph
        out = {}
        for n in self.asked:
            v = plain(G.nodes[n]["value"])
            bound = G.nodes[n].get("bound", EXACT) if self.algorithm == "alphabeta" else EXACT
            out[self.nodes.name(n)] = v if bound == EXACT else (f"{'≤' if bound == UPPER else '≥'} "
                                                                  f"{fmt(v)}")
        return out

    # -- checking -------------------------------------------------------------

    @property
    def tolerance(self):
        """How far a value may be from the engine's and still count as right (0.005 for expectimax)."""
        return 0.005 + 1e-9 if self.algorithm == "expectimax" else 1e-9

    def check(self, answer):
        what = self._what
        if not isinstance(answer, Mapping):
            return malformed(what, f"Could not read your answer: {self.answer_form}; got "
                                   f"{type(answer).__name__} {_short(answer)}.")
        rep = Report()
        self._last_wrong = []
        self.empty, self.empty_lines = [], []
        given, unknown = {}, []
        for key, val in answer.items():
            n = self.nodes.resolve(key)
            if n is None:
                unknown.append(key)
                continue
            if val is None:  # a starter's placeholder: not answered, like a missing key
                continue
            if n in given and given[n] != val:
                rep.bad(f"{self.nodes.name(n)}: you gave two different values, {given[n]!r} and {val!r}.")
                continue
            given[n] = val
        if not given and not unknown:   # {} or only the starter's None: no attempt, nothing opened
            fb = unanswered(what, f"Nothing answered yet: {self.answer_form}.")
            self.empty = [self.nodes.name(n) for n in self.inner]
            self.empty_lines = [text for _, text, _ in fb.items]
            return fb
        parsed = {}
        for n, val in given.items():
            try:
                parsed[n] = parse_value(val, allow_pruned=self.algorithm == "alphabeta")
            except BadAnswer as exc:
                parsed[n] = exc
        if unknown and not given:
            return malformed(what, f"Could not read your answer: {self.nodes.unknown_text(unknown)} "
                                   f"({self.answer_form}).")
        if parsed and all(isinstance(p, BadAnswer) for p in parsed.values()):
            return malformed(what, "Could not read any of your values: write plain numbers (digits, a "
                                   "decimal point if needed, a minus sign for negatives)"
                                   + (", or bounds: ≤ or ≥ before the number"
                                      if self.algorithm == "alphabeta" else "")
                                   + f" ({self.answer_form}).")
        if unknown:
            rep.bad(self.nodes.unknown_text(unknown))
        numbers_given = [p[1] for p in parsed.values() if isinstance(p, tuple) and p[0] != "pruned"]
        self._constant = constant_answer(numbers_given)
        for n in self.inner:
            name = self.nodes.name(n)
            if n not in self.asked:
                if n in parsed and not (isinstance(parsed[n], tuple) and parsed[n][0] == "pruned"):
                    rep.bad(f"{name}: you gave a value, but alpha-beta never visits {name}, so it returns no "
                            f"value there. Which cut above {name} stops the search before it?")
                    self._last_wrong.append((n, "unvisited", None))
                continue
            if n not in parsed:
                # No hint: it would hand over the value the learner has not worked out yet.
                rep.bad(f"{name}: no value given.")
                self.empty.append(name)
                self.empty_lines.append(f"{name}: no value given.")
            elif isinstance(parsed[n], BadAnswer):
                rep.bad(f"{name}: {parsed[n]}; write a plain number (digits, a decimal point if needed, a "
                        "minus sign for negatives)"
                        + (", or a bound: ≤ or ≥ before the number." if self.algorithm == "alphabeta"
                           else "."))
            else:
                self._judge(rep, n, parsed[n], parsed)
        for n in self.nodes.sorted(n for n in parsed if not self.tree.out_degree(n)):
            p = parsed[n]
            u = self.tree.nodes[n]["utility"]
            if isinstance(p, BadAnswer) or p[0] != "eq" or not close(p[1], u, self.tolerance):
                rep.bad(f"{self.nodes.name(n)} is a leaf: its value is the utility written on the tree "
                        f"(you wrote {given[n]!r}); leaves need no answer.")
        return rep.feedback(what)

    def _learner_kids(self, n, parsed):
        """The children's values as the learner has them (their numbers where given)."""
        out = {}
        for c in self.tree.successors(n):
            p = parsed.get(c)
            if isinstance(p, tuple) and p[0] == "eq":
                out[c] = p[1]
        return out

    # -- the worked answer (explain(), twins) ------------------------------------

    def _why(self, n):
        G = self.tree
        name = self.nodes.name(n)
        player = G.nodes[n]["player"]
        v = fmt(self._value_of(n))
        if self.algorithm == "alphabeta":
            return self._ab_why(n)
        if player == CHANCE:
            return f"{name} is a chance node: {self._weighted_text(n)}."
        return f"{name} is a {ROLE_NAMES[player]} node over {self._kids_text(n)}, so its value is {v}."

    def _ab_why(self, n):
        G, R = self.tree, self.result.graph
        name = self.nodes.name(n)
        player = G.nodes[n]["player"]
        seen = [c for c in G.successors(n) if R.nodes[c]["status"] == "visited"]
        kids = ", ".join(f"{self.nodes.name(c)} {'' if self._shown(c)[0] in '≤≥' else '= '}{self._shown(c)}"
                         for c in seen)
        cut = self.info.cut_at.get(n)
        v = fmt(R.nodes[n]["value"])
        if cut is not None:
            s = (f"{name} is a {ROLE_NAMES[player]} node; it sees {kids}, then {cut.text(self.nodes)}. "
                 f"So {name} returns {v}")
        else:
            s = f"{name} is a {ROLE_NAMES[player]} node over {kids}, so it returns {v}"
        bound = R.nodes[n].get("bound")
        if bound == UPPER:
            s += f", only an upper bound: {name} ≤ {v}"
        elif bound == LOWER:
            s += f", only a lower bound: {name} ≥ {v}"
        return s + "."

    def _shown(self, n):
        R = self.result.graph
        if not self.tree.out_degree(n):
            return fmt(self.tree.nodes[n]["utility"])
        bound = R.nodes[n].get("bound")
        prefix = {UPPER: "≤ ", LOWER: "≥ "}.get(bound, "")
        return prefix + fmt(R.nodes[n]["value"])

    def explain(self):
        """The worked solution: every inner node's value and why, bottom-up, then the answer."""
        G = self.tree
        order = sorted(self.asked, key=lambda n: (-self.nodes.depth[n], self.nodes.index[n]))
        lines = [f"{i:>3}. {self._why(n)}" for i, n in enumerate(order, 1)]
        if self.algorithm == "alphabeta":
            lines = [f"{i:>3}. {e.text}" for i, e in enumerate(self.result.trace or [], 1)] + \
                    [f"  - {self._why(n)}" for n in order]
        skipped = [n for n in self.inner if n not in self.asked]
        if skipped:
            lines.append(f"Never visited (no value): {self.nodes.names(skipped)}.")
        del G
        return "\n".join(lines + [f"Answer: {self.solution()!r}"])

    def _twin_options(self):
        return {} if self._chance else {"algorithm": self.algorithm, "strict": self.strict}

    def _twin_text(self, twin, wrong):
        n, kind, tag = next(((n, k, t) for n, k, t in wrong if t), wrong[0])
        R, T = self.result.graph, twin.result.graph
        if T.nodes[n].get("status") != R.nodes[n].get("status"):
            return None
        if kind == "unvisited":
            cut = twin.info.cut_for(n)
            if cut is None:
                return None
            return (f"the same tree with other leaf values, {inline(twin.tree, twin.nodes)}: "
                    f"{cut.text(twin.nodes)}, so {twin.nodes.name(n)} gets no value.")
        if R.nodes[n].get("bound", EXACT) != T.nodes[n].get("bound", EXACT):
            return None
        if self.algorithm == "alphabeta" and (n in self.info.cut_at) != (n in twin.info.cut_at):
            return None
        if close(T.nodes[n]["value"], R.nodes[n]["value"], self.tolerance):
            return None
        return f"the same tree with other leaf values, {inline(twin.tree, twin.nodes)}: {twin._why(n)}"

    # -- judging one node -------------------------------------------------------

    def _judge(self, rep, n, answer, parsed):
        op, x = answer
        name = self.nodes.name(n)
        G = self.result.graph
        v = G.nodes[n]["value"]
        tol = self.tolerance
        bound = G.nodes[n].get("bound", EXACT) if self.algorithm == "alphabeta" else EXACT
        wrong = self._last_wrong
        if op == "pruned":
            rep.bad(f"{name}: you marked it pruned, but alpha-beta does visit {name}, so it returns a value. "
                    f"Does any cut above {name} happen before the search reaches it?")
            wrong.append((n, "pruned", None))
            return
        if self.algorithm != "alphabeta":
            if op != "eq":
                rep.bad(f"{name}: you wrote {OP_TEXT[op]}{fmt(x)}, but {self.algorithm} gives every node an "
                        f"exact value: write a plain number. {rule_question(self.tree, self.nodes, n)}")
                wrong.append((n, "op", None))
                return
            if close(x, v, tol):
                rep.good(f"{name} = {fmt(x)}")
                return
            self._wrong_value(rep, n, x, parsed, f"{name}: you wrote {fmt(x)}. "
                                                 f"{rule_question(self.tree, self.nodes, n)}")
            return
        # alpha-beta: values may be bounds
        want = {EXACT: "eq", UPPER: "le", LOWER: "ge"}[bound]
        player = self.tree.nodes[n]["player"]
        cut_here = n in self.info.cut_at
        if close(x, v, tol) and op == want:
            rep.good(f"{name} = {fmt(x)}" if bound == EXACT else f"{name} {OP_TEXT[op]}{fmt(x)}")
        elif close(x, v, tol) and op == "eq":
            where = (f"{name}'s search is cut short" if cut_here else
                     f"the search below {name} is cut short")
            rep.bad(f"{name}: you wrote {fmt(x)} as an exact value, but {where}, so alpha-beta knows only a "
                    f"bound there, not {name}'s exact value. Write it as a bound: which side is still open, "
                    f"could {name}'s true value be higher or lower than your number?", tag="bound-as-value")
            wrong.append((n, "bound-as-value", "bound-as-value"))
        elif close(x, v, tol) and op in ("le", "ge") and bound == EXACT:
            rep.bad(f"{name}: you wrote {OP_TEXT[op]}{fmt(x)}, but {name}'s search runs to the end (no cut "
                    "at or below it leaves it open), so its value is exact: write a plain number.")
            wrong.append((n, "exact-as-bound", None))
        elif close(x, v, tol) and op in ("lt", "gt"):
            rep.bad(f"{name}: you wrote {OP_TEXT[op]}{fmt(x)}; the true value could equal your number: write "
                    f"≤ or ≥ instead.")
            wrong.append((n, "strict-op", None))
        elif close(x, v, tol):
            rep.bad(f"{name}: you wrote {OP_TEXT[op]}{fmt(x)}: which side is open? A cut at a MAX node means "
                    f"its value is at least what it found; at a MIN node, at most.")
            wrong.append((n, "bound-side", None))
        else:
            exact = self._exact.nodes[n]["value"]
            a0, b0 = self.info.call_window.get(n, (None, None))
            stop = (cutoff_clause(player, self.strict, formula=False) if player in (MAX, MIN)
                    else "leaves its window")
            base = (f"{name}: you wrote {OP_TEXT[op]}{fmt(x)}. {name} is a {ROLE_NAMES[player]} node: it "
                    f"returns the {'largest' if player == MAX else 'smallest'} value among the children it "
                    "looks at, and stops as soon as its value "
                    f"{stop} (then that value is only a bound).")
            if bound != EXACT and close(x, exact) and not self._constant:
                rep.bad(f"{name}: you wrote {OP_TEXT[op]}{fmt(x)}, the value {name} would have if every leaf "
                        f"below it were looked at; but alpha-beta stops {'at' if cut_here else 'below'} "
                        f"{name} early. What has it seen when {name} returns?", tag="cut-value-as-minimax")
                wrong.append((n, "value", "cut-value-as-minimax"))
            elif bound != EXACT and x in (a0, b0) and not self._constant and math.isfinite(x):
                rep.bad(f"{name}: you wrote {OP_TEXT[op]}{fmt(x)}, a bound of the window {name} was searched "
                        f"with (fail-hard); this exercise follows AIMA's fail-soft alpha-beta: {name} "
                        "returns the best value it has seen.", tag="fail-hard-bound")
                wrong.append((n, "value", "fail-hard-bound"))
            else:
                self._wrong_value(rep, n, x, parsed, base)

    def _wrong_value(self, rep, n, x, parsed, text):
        """A wrong number at ``n``: the rule to re-apply, and a misconception only when the answer shows
        one."""
        G = self.tree
        player = G.nodes[n]["player"]
        carried = self._carried(n, x, parsed)
        if carried:
            rep.bad(carried)
            self._last_wrong.append((n, "value", None))
            return
        visited = [c for c in G.successors(n) if self.result.graph.nodes[c]["status"] == "visited"]
        true_kids = [self._value_of(c) for c in visited]
        slip = None
        if not self._constant:
            probs = [child_probs(G, n)[c] for c in visited] if player == CHANCE else None
            slip = value_slip(G, self.nodes, n, x, true_kids, probs)
        if slip:
            rep.bad(text, slip[0], tag=slip[1])
            self._last_wrong.append((n, "value", slip[1]))
            return
        rep.bad(text)
        self._last_wrong.append((n, "value", None))

    def _carried(self, n, x, parsed):
        """The line for a carried error: ``x`` at ``n`` is right given the learner's own values of its
        children (leaves as written on the tree), and some of those are wrong. None otherwise, and for
        alpha-beta (whose bounds make "right given the children" a window question).

        The line names the learner's children to fix and never the right value at ``n``.
        """
        G = self.tree
        if self.algorithm == "alphabeta":
            return None
        kids = list(G.successors(n))
        mine = self._learner_kids(n, parsed)
        values = {}
        for c in kids:
            if not G.out_degree(c):
                values[c] = G.nodes[c]["utility"]
            elif c in mine:
                values[c] = mine[c]
            else:
                return None   # an inner child not (readably) answered: its true value would be given away
        wrong = [c for c in kids
                 if G.out_degree(c) and not close(values[c], self._value_of(c), self.tolerance)]
        if not wrong:
            return None
        player = G.nodes[n]["player"]
        if player == CHANCE:
            probs = child_probs(G, n)
            own = sum(probs[c] * values[c] for c in kids)
            how = "the probability-weighted sum over"
        else:
            own = max(values.values()) if player == MAX else min(values.values())
            how = f"the {'largest' if player == MAX else 'smallest'} of"
        if not close(x, own, self.tolerance):
            return None
        name, bad = self.nodes.name(n), self.nodes.names(wrong)
        # Names only, no numbers: a leaf's utility next to the learner's values could give the right one away.
        inner = [c for c in kids if G.out_degree(c)]
        yours = "your " + and_list(self.nodes.name(c) for c in inner)
        if len(inner) < len(kids):
            yours += " and the leaves below " + name
        return (f"{name}: your {fmt(x)} follows from your {bad} ({how} {yours}), so {name} is right given "
                f"your values below it; the error is carried up from {bad}: fix {bad} first.")


def _short(answer):
    r = repr(answer)
    return r if len(r) <= 40 else r[:36] + "…" + r[-2:]


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
    ✗ B: you wrote 7.5. B is a chance node: nobody chooses there; its value is the sum, over its outcomes, of
    probability × the outcome's value. Recompute it from its children's values.
        Hint: Your 7.5 is the plain average of B's outcomes, but they are not equally likely: weight each by
        its probability.
    ✓ C = 3
    """

    kind = "expectimax"
    _chance = True

    def __init__(self, tree=None, **kwargs):
        if "algorithm" in kwargs:
            raise TypeError("ExpectimaxExercise has no 'algorithm' argument: it is always expectimax")
        super().__init__(tree, **kwargs)
