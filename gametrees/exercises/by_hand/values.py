"""Exercises by hand on values: :class:`ValuesExercise` (minimax or alpha-beta values) and :class:`ExpectimaxExercise`.

May import: :mod:`gametrees.search`, :mod:`gametrees.games`,
:mod:`gametrees.exercises.feedback`, :mod:`gametrees.exercises.answers` and
:mod:`gametrees.exercises.by_hand.base`.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...games import CHANCE, MAX, MIN
from ...search import alphabeta, expectimax, minimax
from ..answers import BadAnswer, OP_TEXT, parse_value
from ..feedback import ROLE_NAMES, Report, and_list, close, fmt, is_are, malformed, plain
from .base import Exercise, RULES, SearchInfo, chance_hint, child_probs, roles_hint

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
        if rule not in RULES:
            raise ValueError(f"rule must be 'textbook' or 'strict', got {rule!r}")
        self.algorithm = "expectimax" if self._chance else algorithm
        self.rule = rule
        super().__init__(tree, **kwargs)

    answer_form = "give the values as a dict from node label to value, such as {'A': 3, 'B': 5}"

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
        self.info = SearchInfo(self.result, self.nodes) if self.algorithm == "alphabeta" else None
        self._exact = minimax(self.tree, trace=True).graph if self.algorithm == "alphabeta" else G

    def _question(self):
        names = and_list(self.nodes.name(n) for n in self.inner)
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
            v = plain(G.nodes[n]["value"])
            bound = G.nodes[n].get("bound", "exact") if self.algorithm == "alphabeta" else "exact"
            out[self.nodes.name(n)] = v if bound == "exact" else f"{'≤' if bound == 'upper' else '≥'} {fmt(v)}"
        return out

    # -- checking -------------------------------------------------------------

    @property
    def tolerance(self):
        """How far a value may be from the engine's and still count as right (0.005 for expectimax)."""
        return 0.005 + 1e-9 if self.algorithm == "expectimax" else 1e-9

    def check(self, answer):
        if not isinstance(answer, Mapping):
            example = ", ".join(f"{k!r}: {v!r}" for k, v in list(self.solution().items())[:2])
            return malformed(self._what, f"Give the values as a dict from node to value, e.g. "
                                          f"{{{example}, ...}}; got {type(answer).__name__} {answer!r}.")
        rep = Report()
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
        if unknown:
            rep.bad(self.nodes.unknown_text(unknown))
        parsed = {}
        for n, val in given.items():
            try:
                parsed[n] = parse_value(val, allow_pruned=self.algorithm == "alphabeta")
            except BadAnswer as exc:
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
                # No hint: it would hand over the value the learner has not worked out yet.
                rep.bad(f"{name}: no value given.")
            elif isinstance(parsed[n], BadAnswer):
                rep.bad(f"{name}: {parsed[n]}; write a number such as 3 or -2.5"
                        + (", or a bound such as '≤ 2'." if self.algorithm == "alphabeta" else "."))
            else:
                self._judge(rep, n, parsed[n], parsed)
        for n in self.nodes.sorted(n for n in parsed if not self.tree.out_degree(n)):
            p = parsed[n]
            u = self.tree.nodes[n]["utility"]
            if isinstance(p, BadAnswer) or p[0] != "eq" or not close(p[1], u, self.tolerance):
                rep.bad(f"{self.nodes.name(n)} is a leaf: its value is its utility, {fmt(u)}, as given "
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
        kids = ", ".join(f"{self.nodes.name(c)} = {self._shown(c)}" for c in seen)
        cut = self.info.cut_at.get(n)
        v = fmt(R.nodes[n]["value"])
        if cut is not None:
            s = (f"{name} is a {ROLE_NAMES[player]} node; it sees {kids}, then {cut.text(self.nodes)}. "
                 f"So {name} returns {v}")
        else:
            s = f"{name} is a {ROLE_NAMES[player]} node over {kids}, so it returns {v}"
        bound = R.nodes[n].get("bound")
        if bound == "upper":
            s += f", only an upper bound: {name} ≤ {v}"
        elif bound == "lower":
            s += f", only a lower bound: {name} ≥ {v}"
        return s + "."

    def _shown(self, n):
        R = self.result.graph
        if not self.tree.out_degree(n):
            return fmt(self.tree.nodes[n]["utility"])
        bound = R.nodes[n].get("bound")
        prefix = {"upper": "≤ ", "lower": "≥ "}.get(bound, "")
        return prefix + fmt(R.nodes[n]["value"])

    def _judge(self, rep, n, answer, parsed):
        op, x = answer
        name = self.nodes.name(n)
        G = self.result.graph
        v = G.nodes[n]["value"]
        tol = self.tolerance
        bound = G.nodes[n].get("bound", "exact") if self.algorithm == "alphabeta" else "exact"
        if op == "pruned":
            rep.bad(f"{name} is visited, so it does return a value: {self._why(n)}")
            return
        if self.algorithm != "alphabeta":
            if op != "eq":
                rep.bad(f"{name}: you wrote {OP_TEXT[op]}{fmt(x)}, but {self.algorithm} gives every node "
                        f"an exact value: {self._why(n)}")
                return
            if close(x, v, tol):
                rep.good(f"{name} = {fmt(v)}")
                return
            rep.bad(f"{name}: you wrote {fmt(x)}, but {self._why(n)}",
                    self._value_hint(n, x, parsed))
            return
        # alpha-beta: values may be bounds
        want = {"exact": "eq", "upper": "le", "lower": "ge"}[bound]
        if close(x, v, tol) and op == want:
            rep.good(f"{name} = {fmt(v)}" if bound == "exact" else f"{name} {OP_TEXT[op]}{fmt(v)}")
        elif close(x, v, tol) and op == "eq":
            sign = "≤" if bound == "upper" else "≥"
            side = "lower" if bound == "upper" else "higher"
            cut = self.info.cut_at.get(n)
            why = (cut.text(self.nodes) + ". " if cut else
                   "Its best child's value is itself only a bound. ")
            rep.good(f"{name} = {fmt(v)}, but only as a bound: {name} {sign} {fmt(v)}.",
                     f"{why[0].upper()}{why[1:]}{name}'s true value could be {side} than {fmt(v)}: "
                     f"write \"{sign} {fmt(v)}\".")
        elif close(x, v, tol) and op in ("le", "ge") and bound == "exact":
            rep.bad(f"{name}: you wrote {OP_TEXT[op]}{fmt(x)}, but {name}'s value is exact, {fmt(v)}: "
                    f"{self._ab_why(n)}",
                    "Only nodes whose search was cut short (or whose best child is a bound) return bounds; "
                    "which of the root's children are exact?")
        elif close(x, v, tol) and op in ("lt", "gt"):
            sign = "≤" if bound == "upper" else "≥"
            rep.bad(f"{name}: you wrote {OP_TEXT[op]}{fmt(x)}; write {sign} {fmt(v)}: the true value "
                    f"could equal {fmt(v)}.")
        elif close(x, v, tol):
            rep.bad(f"{name}: you wrote {OP_TEXT[op]}{fmt(x)}, but {self._ab_why(n)}")
        else:
            hint = None
            exact = self._exact.nodes[n]["value"]
            a0, b0 = self.info.call_window.get(n, (None, None))
            if bound != "exact" and close(x, exact):
                hint = (f"{fmt(x)} is {name}'s minimax value, but alpha-beta never finds it: the search at "
                        f"{name} stops early and returns {fmt(v)}.")
            elif bound != "exact" and x in (a0, b0):
                hint = (f"{fmt(x)} is the bound of {name}'s window (fail-hard); this exercise follows AIMA's "
                        f"fail-soft alpha-beta, which returns the value reached, {fmt(v)}.")
            else:
                hint = self._value_hint(n, x, parsed)
            rep.bad(f"{name}: you wrote {OP_TEXT[op]}{fmt(x)}, but {self._ab_why(n)}", hint)

    def _value_hint(self, n, x, parsed):
        G = self.tree
        name = self.nodes.name(n)
        player = G.nodes[n]["player"]
        visited = [c for c in G.successors(n) if self.result.graph.nodes[c]["status"] == "visited"]
        true_kids = [self._value_of(c) for c in visited]
        if player == CHANCE:
            hint = chance_hint(name, x, true_kids, [child_probs(G, n)[c] for c in visited])
        else:
            hint = roles_hint(G, self.nodes, n, x, true_kids)
        if hint:
            return hint
        mine = self._learner_kids(n, parsed)
        wrong = [c for c, lv in mine.items() if not close(lv, self._value_of(c), self.tolerance)]
        if wrong and player in (MAX, MIN) and self.algorithm != "alphabeta":
            values = [mine.get(c, self._value_of(c)) for c in G.successors(n)]
            own = max(values) if player == MAX else min(values)
            if close(x, own, self.tolerance):
                return (f"Your {fmt(x)} follows from your value for {self.nodes.names(wrong)}, which "
                        f"{is_are(wrong)} wrong: fix {'it' if len(wrong) == 1 else 'them'} first.")
        if player == CHANCE and wrong:
            probs = child_probs(G, n)
            own = sum(probs[c] * mine.get(c, self._value_of(c)) for c in G.successors(n))
            if close(x, own, self.tolerance):
                return (f"Your {fmt(x)} follows from your value for {self.nodes.names(wrong)}, which "
                        f"{is_are(wrong)} wrong: fix {'it' if len(wrong) == 1 else 'them'} first.")
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
