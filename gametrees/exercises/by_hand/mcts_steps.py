"""The exercise by hand on one playout of Monte Carlo tree search: :class:`MCTSExercise` (kind ``"mcts"``).

MCTS has been growing a tree for a few playouts (run by :func:`gametrees.mcts`
on a generated game tree); the learner is given the visits and the total
result (for MAX) of the root and of each of its children, the constant ``c``
and the result of the next playout, and answers

1. which child of the root the next playout's **selection** takes (UCB1), and
2. the **visits and mean** of the root and of that child after the playout's
   **backup**;

and, with ``full=True`` (a whole cycle), also

3. which node the playout's **expansion** adds to the tree (the first child,
   left to right, of the selected child not yet in the tree), and
4. every child of the root's UCB1 score after the backup, whose highest
   the **next selection** takes (every score: the runner-up of the first
   selection is usually next, but not by rule, and only the scores tell).

The numbers are the engine's: the next playout is the one :func:`gametrees.mcts`
makes (``ex.result`` replays them all). The check follows the feedback rules:
each wrong part is named with the rule to re-apply there and no value the
learner did not give; a second wrong check works the same mistake through on a
twin (a tree of the same shape with other leaves, so other counts);
``ex.explain()`` gives the worked answer.

May import: :mod:`gametrees.search`, :mod:`gametrees.trace`, :mod:`gametrees.rules`, :mod:`gametrees.games`,
:mod:`gametrees.exercises.feedback` and :mod:`gametrees.exercises.by_hand.exercise`.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import numbers
import random
from collections.abc import Mapping

from ...games import MAX, MIN
from ...rules import ucb1
from ...search import mcts
from ...trace import frame
from ..feedback import Report, and_list, malformed, or_list, unanswered
from .exercise import Exercise, viewer
from .trees import twin_trees

__all__ = ["MCTSExercise"]

#: The exploration constants the exercises use (a larger one for larger leaf values).
_CS = (1.0, 2.0, 3.0, 5.0)
#: A selection is asked only when the best UCB1 score leads the next by this much.
_MARGIN = 0.05
#: How close a mean must be (learners round to two decimals).
_MEAN_TOL = 0.006
#: How close the next selection's UCB1 score must be (two decimals, from means that may be rounded).
_SCORE_TOL = 0.011


def _f2(x):
    """A number as the exercise writes it: at most two decimals, the true minus sign."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return s.replace("-", "\u2212") if s not in ("-0",) else "0"


def _cut_short(got, right):
    """True if ``got`` is ``right`` truncated to 2 or 1 decimals, or rounded to 1 (rounded to 2 is right)."""
    forms = (math.trunc(right * 100) / 100, math.trunc(right * 10) / 10, round(right, 1),
             math.floor(right * 10 + 0.5) / 10)   # half up, as on paper
    return any(math.isclose(got, f, abs_tol=1e-9) for f in forms) and not math.isclose(got, right,
                                                                                        abs_tol=_MEAN_TOL)


def _rounds_up(mean):
    """True if rounding ``mean`` to 2 decimals raises its second decimal (the third decimal is 5 or more).

    >>> _rounds_up(118 / 13), _rounds_up(117 / 13)
    (True, False)
    """
    return abs(round(mean, 2)) > abs(math.trunc(mean * 100) / 100) + 1e-9


def _argmax_unique(scores):
    """The key with the highest score, or None when two share it."""
    top = max(scores.values())
    best = [k for k, v in scores.items() if math.isclose(v, top, rel_tol=1e-12, abs_tol=1e-12)]
    return best[0] if len(best) == 1 else None


def _number(x):
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise TypeError
    x = float(x)
    if not math.isfinite(x):
        raise ValueError
    return x


class MCTSExercise(Exercise):
    """One playout of MCTS by hand: the child UCB1 selects, then the counts after the backup.

    Parameters
    ----------
    tree, seed, difficulty, root_player, depth, branching, values, ragged
        See :class:`~gametrees.exercises.by_hand.Exercise` (the depth is
        at most 3: a few playouts grow a small tree).
    full : bool, default False
        Also ask which node the playout's expansion adds, and every child of
        the root's UCB1 score after the backup, whose highest the next
        selection takes (keys ``"expand"`` and ``"next"`` of the answer:
        ``{child: score}``).

    Attributes
    ----------
    c : float
        UCB1's exploration constant.
    visits, totals : dict
        Label -> visits and total result for MAX, for the root and its children
        (before the next playout).
    playout_result : number
        The result (for MAX) of the next playout.
    result : MCTSResult
        The engine's search, the next playout included (``gt.replay(ex.result)``).
    in_tree : dict
        Label of each child of the root -> the labels of its children already
        in MCTS's tree (before the next playout).

    Examples
    --------
    >>> ex = MCTSExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    >>> ex.visits, ex.totals, ex.c, ex.playout_result
    ({'A': 8, 'B': 1, 'C': 1, 'D': 6}, {'A': 37.0, 'B': 3.0, 'C': 4.0, 'D': 30.0}, 2.0, 2)
    >>> ex.solution()
    {'select': 'C', 'A': (9, 4.33), 'C': (2, 3)}
    >>> print(ex.check({"select": "B", "A": (9, 4.33), "B": (2, 2.5)}).lines[0])  # doctest: +ELLIPSIS
    ✗ Selection at A: B is not the child with the highest UCB1 score...
    >>> full = MCTSExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]], full=True)
    >>> full.solution()
    {'select': 'C', 'expand': 'H', 'A': (9, 4.33), 'C': (2, 3), 'next': {'B': 5.96, 'C': 5.1, 'D': 6.21}}
    """

    _what = "MCTS playout"
    @property
    def answer_form(self):
        root = self.nodes.name(self.nodes.root)
        if self.full:
            return (f"give a dict {{'select': child, 'expand': node, '{root}': (visits, mean), child: "
                    f"(visits, mean), 'next': {{child: score, ...}}}}: the child selection takes at {root}, "
                    f"the node expansion adds, {root} and that child after the backup, and every child's "
                    "UCB1 score after the backup (the next selection takes the highest)")
        return (f"give a dict {{'select': child, '{root}': (visits, mean), child: (visits, mean)}}: the "
                f"child selection takes at {root}, then {root} and that child after the backup")
    kind = "mcts"

    def __init__(self, tree=None, *, full=False, **kwargs):
        if not isinstance(full, bool):
            raise TypeError(f"full must be True or False, got {full!r}")
        self.full = full
        if kwargs.get("depth") is None and tree is None:
            kwargs["depth"] = 2
        if kwargs.get("depth") is not None and kwargs["depth"] > 3:
            raise ValueError(f"depth must be between 1 and 3 for an MCTS exercise, got {kwargs['depth']}")
        super().__init__(tree, **kwargs)

    def _interesting(self, G):
        kids = list(G.successors(G.graph["root"]))
        if self.full:  # the selected child must have children for the expansion to add one
            return len(kids) >= 2 and all(G.out_degree(k) >= 2 for k in kids)
        return len(kids) >= 2

    # -- making the exercise ----------------------------------------------------------

    def _setup(self):
        G = self.tree
        root = self.nodes.root
        if self.root_player not in (MAX, MIN):
            raise ValueError("the root of an MCTS exercise must be a MAX or MIN node, not "
                             f"{self.root_player!r}")
        kids = list(G.successors(root))
        if len(kids) < 2:
            raise ValueError("an MCTS exercise needs a root with at least two children")
        leaves = [u for _, u in G.nodes(data="utility") if u is not None]
        spread = max(leaves) - min(leaves) or 1
        cs = sorted(_CS, key=lambda c: abs(c - spread / 6))  # exploration that matters at this scale
        seed = self._rng.randrange(2**31)
        best = None
        for playouts in range(len(kids) + 1, 4 * len(kids) + 3):
            for c in cs[:2]:
                found = self._try(G, playouts, c, seed)
                if found is None:
                    continue
                score = found["interest"]
                if best is None or score > best["interest"]:
                    best = found
                if score >= 3:
                    break
            if best is not None and best["interest"] >= 3:
                break
        if best is None:
            raise ValueError("no playout of this tree asks for a UCB1 choice at the root"
                             + (" followed by an expansion below it and a second clear choice"
                                if self.full else "")
                             + ": give a bigger tree")
        self.__dict__.update({k: v for k, v in best.items() if k not in ("interest", "result")})
        self.result = best["result"]

    def _try(self, G, playouts, c, seed):
        """The exercise after ``playouts`` playouts (None if the next one does not select at the root)."""
        r = mcts(G, playouts=playouts + 1 + self.full, c=c, seed=seed)
        trace = r.trace
        starts = [i for i, e in enumerate(trace) if e.playout == playouts + 1]
        first = trace[starts[0]]
        if first.kind != "select" or first.parent is not None:
            return None
        chosen = first.chosen
        added = trace[starts[0] + 1]
        if self.full and not (added.kind == "expand" and added.added and added.parent == chosen):
            return None
        root = self.nodes.root
        kids = list(G.successors(root))
        before = {}
        for e in trace[: starts[0]]:
            if e.kind == "backup":
                for node, visits, mean in e.rows:
                    before[node] = (visits, mean * visits)
        if any(k not in before for k in kids):
            return None
        name = self.nodes.name
        sign = 1.0 if self.root_player == MAX else -1.0
        scores = dict(zip(first.children, first.scores))   # UCB1 as the search computed and recorded it
        ranked = sorted(scores.values(), reverse=True)
        if ranked[0] - ranked[1] < _MARGIN:
            return None
        result = next(e.value for e in trace[starts[0]:] if e.kind == "backup")
        extra = {"_expanded": None, "_next": None, "_next_scores": None}
        if self.full:
            second = trace[next(i for i, e in enumerate(trace) if e.playout == playouts + 2)]
            if second.kind != "select" or second.parent is not None:
                return None
            next_scores = dict(zip(second.children, second.scores))   # as recorded after the backup
            ranked = sorted(next_scores.values(), reverse=True)
            if ranked[0] - ranked[1] < _MARGIN:
                return None
            if _argmax_unique(next_scores) != second.chosen:
                return None
            extra = {"_expanded": name(added.node), "_next": name(second.chosen),
                     "_next_scores": {name(k): s for k, s in next_scores.items()}}
        most = max(kids, key=lambda k: before[k][0])
        greedy = max(kids, key=lambda k: sign * before[k][1] / before[k][0])
        interest = (chosen != most) + (chosen != greedy) + (self.root_player == MIN)
        in_tree = {name(k): [name(e.node) for e in trace[: starts[0]] if e.kind == "expand" and e.added
                             and e.parent == k] for k in kids}
        if self.full:  # the next selection moves on, and the expansion is not of the first child
            interest += (extra["_next"] != name(chosen)) + bool(in_tree[name(chosen)])
        return {**extra, "in_tree": in_tree,
            "interest": interest, "result": r, "c": c,
            "visits": {name(n): before[n][0] for n in [root, *kids]},
            "totals": {name(n): float(before[n][1]) for n in [root, *kids]},
            "playout_result": result, "_chosen": name(chosen),
            "_scores": {name(k): s for k, s in scores.items()},
            "_children": [name(k) for k in kids],
        }

    def _question(self):
        root = self.nodes.name(self.nodes.root)
        role = "MAX" if self.root_player == MAX else "MIN"
        view = ("" if self.root_player == MAX else
                f" {root} is a MIN node: MIN wants the mean for MAX low, so its UCB1 uses minus the mean.")
        kids = "; ".join(f"{k}: {self.visits[k]} visit{'s' if self.visits[k] != 1 else ''}, total "
                         f"{_f2(self.totals[k])}" for k in self._children)
        head = (f"MCTS playout{self._origin()}: a few playouts have grown a tree. {root}, a {role} node at "
                f"the root, has {self.visits[root]} visits and total {_f2(self.totals[root])} (results "
                f"summed for MAX; mean = total / visits). Its children: {kids}. UCB1 uses c = "
                f"{_f2(self.c)}.{view} Give each mean rounded to 2 decimals. ")
        if self.full:
            below = "; ".join(f"{k}: {', '.join(v) if v else 'none'}" for k, v in self.in_tree.items())
            return (head + f"Below them, the nodes already in MCTS's tree: {below} (the figure shows the "
                    f"game tree; its children are in order left to right). (1) Which child of {root} does "
                    "the next playout's selection take? (2) Which node does its expansion add to the tree? "
                    f"(3) The playout ends with the result {_f2(self.playout_result)} for MAX. After its "
                    f"backup, what are the visits and the mean of {root} and of the child selected? (4) "
                    f"The selection of the playout after that takes the child of {root} with the highest "
                    "UCB1 score after the backup: what is each child's score then (2 decimals; within "
                    f"0.01)? Answer as {{'select': child, 'expand': node, '{root}': (visits, mean), child: "
                    f"(visits, mean), 'next': {{child: score, ...}}}}, a score for every child of {root}.")
        return (head + f"(1) Which child of {root} does the next playout's selection take? (2) That "
                f"playout ends with the result {_f2(self.playout_result)} for MAX. After its backup, what "
                f"are the visits and the mean of {root} and of that child? Answer as {{'select': child, "
                f"'{root}': (visits, mean), child: (visits, mean)}}.")

    def _after(self, label):
        v, t = self.visits[label], self.totals[label]
        return v + 1, (t + self.playout_result) / (v + 1)

    def solution(self):
        root = self.nodes.name(self.nodes.root)
        out = {"select": self._chosen}
        if self.full:
            out["expand"] = self._expanded
        for label in (root, self._chosen):
            v, m = self._after(label)
            out[label] = (v, round(m, 2) if not float(m).is_integer() else int(m))
        if self.full:
            out["next"] = {k: round(self._next_scores[k], 2) for k in self._children}
        return out

    def _answer_text(self):
        return repr(self.solution())

    def explain(self):
        """The worked answer: every child's UCB1 score, the selection, the backup's arithmetic."""
        root = self.nodes.name(self.nodes.root)
        N = self.visits[root]
        sign = "" if self.root_player == MAX else "−"
        lines = [f"Selection at {root} ({'MAX' if self.root_player == MAX else 'MIN'}, N = {N}): "
                 f"UCB1 = {sign}mean + {_f2(self.c)}·√(ln {N} / n)."]
        for k in self._children:
            n, t = self.visits[k], self.totals[k]
            lines.append(f"  {k}: {sign}{_f2(t / n)} + {_f2(self.c)}·√(ln {N} / {n}) = {_f2(self._scores[k])}"
                         + ("  ← the highest" if k == self._chosen else ""))
        lines.append(f"Selection takes {self._chosen}.")
        if self.full:
            had = self.in_tree[self._chosen]
            lines.append(f"Expansion: of {self._chosen}'s children, {and_list(had) or 'none'} "
                         f"{'is' if len(had) == 1 else 'are'} already in the tree; the first one not yet in "
                         f"it, {self._expanded}, joins the tree. The playout runs from {self._expanded}, so "
                         "the backup counts it too (its first visit).")
        path = (f"{self._expanded}, {self._chosen} and {root} (the question asks {root} and {self._chosen})"
                if self.full else f"{self._chosen} and {root}")
        lines.append(f"The playout's result {_f2(self.playout_result)} is backed up to {path}:")
        for label in (self._chosen, root):
            v, t = self.visits[label], self.totals[label]
            lines.append(f"  {label}: visits {v} + 1 = {v + 1}; mean ({_f2(t)} + {_f2(self.playout_result)}) "
                         f"/ {v + 1} = {_f2((t + self.playout_result) / (v + 1))}")
        if self.full:
            n_after = N + 1
            lines.append(f"Next selection at {root} (N = {n_after} now): UCB1 = {sign}mean + "
                         f"{_f2(self.c)}·√(ln {n_after} / n), with the counts after the backup.")
            for k in self._children:
                n, m = (self._after(k) if k == self._chosen
                        else (self.visits[k], self.totals[k] / self.visits[k]))
                lines.append(f"  {k}: {sign}{_f2(m)} + {_f2(self.c)}·√(ln {n_after} / {n}) = "
                             f"{_f2(self._next_scores[k])}" + ("  ← the highest" if k == self._next else ""))
            lines.append(f"The next selection takes {self._next}, {self._turning_sentence()}.")
        return "\n".join(lines + [f"Answer: {self._answer_text()}"])

    # -- checking -------------------------------------------------------------------

    def check(self, answer):
        what = self._what
        root = self.nodes.name(self.nodes.root)
        if not isinstance(answer, Mapping):
            return malformed(what, f"Could not read your answer: {self.answer_form}.")
        blank = [k for k, v in answer.items()
                 if v is None or v is Ellipsis or (isinstance(v, str) and not v.strip())]
        if not answer or len(blank) == len(answer):
            return unanswered(what, f"Nothing answered yet: {self.answer_form}.")
        rep = Report()
        self._last_wrong = []
        labels = {k.lower(): k for k in (root, *self._children)}   # a node named in lower case is read
        answer = {labels.get(k.lower(), k) if isinstance(k, str) and k not in ("select", "expand", "next")
                  else k: (labels.get(v.strip().lower(), v) if k in ("select", "next") and isinstance(v, str)
                           else v) for k, v in answer.items()}
        known = {"select", root, *self._children} | ({"expand", "next"} if self.full else set())
        strange = [k for k in answer if k not in known]
        if strange and not [k for k in answer if k in known and k not in blank]:
            steps = "'select', 'expand', 'next'" if self.full else "'select'"
            return malformed(what, f"Could not read the keys {or_list(map(repr, strange))}: use {steps}, "
                                   f"{root!r} and the child's label ({or_list(self._children)}).")
        if strange:   # an extra key (say, the expanded node's counts) does not spoil the rest of the answer
            rep.note(f"Not asked, so not checked: {and_list(map(repr, strange))}. The question asks only "
                     f"{root} and the child of {root} selection takes.")
        answer = {k: v for k, v in answer.items() if k in known}
        # (1) selection
        chosen = answer.get("select")
        right_choice = False
        if chosen is None or chosen in blank:
            rep.bad(f"Selection at {root}: not answered yet.")
        elif not isinstance(chosen, str) or chosen.strip() not in self._children:
            return malformed(what, f"Could not read the selection {chosen!r}: name one child of {root}, "
                                   f"{or_list(self._children)}.")
        else:
            chosen = chosen.strip()
            if chosen == self._chosen:
                right_choice = True
                rep.good(f"Selection at {root}: {chosen} has the highest UCB1 score.")
            else:
                self._selection_wrong(rep, chosen, root)
        if self.full:
            problem = self._expansion_part(rep, answer.get("expand"), chosen if right_choice else None)
            if problem:
                return malformed(what, problem)
        # (2) backup of the root and of the child
        for label in (root, chosen if isinstance(chosen, str) and chosen in self._children else None):
            if label is None:
                continue
            got = answer.get(label)
            if got is None or label in blank:
                rep.bad(f"{label} after the backup: not answered yet.")
                continue
            try:
                gv, gm = got
                gv, gm = _number(gv), _number(gm)
            except (TypeError, ValueError):
                return malformed(what, f"Could not read {label}'s {got!r}: give a pair (visits, mean) such "
                                       "as (5, 2.4).")
            if label != root and not right_choice:
                rep.note(f"{label}: the backup updates the child selection takes; check {label}'s counts "
                         "again once the selection is right.")
                continue
            self._backup_part(rep, label, gv, gm)
        others = [k for k in self._children if k in answer and k != chosen]
        if others and right_choice:
            rep.note(f"{or_list(others)}: not on this playout's path, so the backup leaves it unchanged.")
        if self.full:
            problem = self._next_part(rep, answer.get("next"), chosen if isinstance(chosen, str) else None,
                                      right_choice, root)
            if problem:
                return malformed(what, problem)
        fb = rep.feedback(what)
        if fb.status == "wrong":   # one count per part asked, judged or not yet
            parts = 5 if self.full else 3
            fb.title = f"{what}: {sum(kind == 'good' for kind, _, _ in rep.items)} of {parts} right."
        return fb

    def _next_part(self, rep, got, chosen, right_choice, root):
        """Judge the next selection, ``{child: score}`` for every child of the root; a "could not read"
        message, or None. Every score is asked: the runner-up of the first selection is usually next, and
        only every score after the backup tells whether it is."""
        form = "{" + ", ".join(f"{k!r}: score" for k in self._children) + "}"
        empty = isinstance(got, Mapping) and not got or isinstance(got, str) and not got.strip()
        if got is None or empty:
            rep.bad(f"Next selection at {root}: not answered yet.")
            return None
        if chosen not in self._children:   # judged against no selection, it would tell the selection
            rep.bad(f"Next selection at {root}: answer the selection first: the next selection is worked out "
                    "from the counts after the backup through the child selection takes.")
            return None
        if not isinstance(got, Mapping):   # a child alone, or a pair: every score is asked, no child judged
            rep.bad(f"Next selection at {root}: give every child's UCB1 score after the backup, as {form}: "
                    "the next selection takes the highest, and only the scores tell which that is.")
            self._last_wrong.append(("next", "no-score"))
            return None
        labels = {k.lower(): k for k in self._children}
        scores = {}
        for key, value in got.items():
            if not isinstance(key, str) or key.strip().lower() not in labels:
                return (f"Could not read the next selection's child {key!r}: give {form}, every child of "
                        f"{root}.")
            try:
                scores[labels[key.strip().lower()]] = _number(value)
            except (TypeError, ValueError):
                return f"Could not read {key}'s score {value!r}: give a number, such as 4.25."
        if not right_choice:   # not judged: the counts after the backup are those of another selection
            rep.note(f"Next selection at {root}: the scores after the backup follow from the selection; once "
                     "it is right, compute them again from the new counts.")
            return None
        right = self._next_scores
        wrong = [k for k in self._children if k in scores and not math.isclose(scores[k], right[k],
                                                                                 abs_tol=_SCORE_TOL)]
        missing = [k for k in self._children if k not in scores]
        if not wrong and not missing:
            shown = ", ".join(f"{k} {right[k]:.2f}".replace("-", "\u2212") for k in self._children)
            rep.good(f"Next selection at {root}: every score right ({shown}); the highest is {self._next}'s, "
                     f"so the next selection takes {self._next}, {self._turning_sentence()}.")
            return None
        sign = "" if self.root_player == MAX else "−"
        problems = []
        stale = [k for k in wrong if math.isclose(scores[k], self._scores[k], abs_tol=_SCORE_TOL)]
        if stale:
            problems.append(f"{and_list(stale)}: {'that is' if len(stale) == 1 else 'those are'} the "
                            f"score{'s' if len(stale) > 1 else ''} before the backup: the backup made "
                            f"{root}'s N one larger" + (f", and {self._chosen}'s visits and mean changed too"
                                            if self._chosen in stale else ""))
        near = [k for k in wrong if k not in stale and abs(scores[k] - right[k]) <= 0.05]
        if near:
            problems.append(f"{and_list(near)}: close, but off in the second decimal: compute with the "
                            "unrounded mean and square root, and round only at the end")
        other = [k for k in wrong if k not in stale and k not in near]
        if other:
            problems.append(f"{and_list(other)}: recompute {sign}mean + {_f2(self.c)}·√(ln N / n) with the "
                            f"counts after the backup (N: {root}'s visits now; n and the mean: each child's "
                            "own, now)")
        if missing:
            problems.append(f"{and_list(missing)}: missing; every child's score is needed to know which is "
                            "highest")
        rep.bad(f"Next selection at {root}: " + "; ".join(problems) + ".")
        implied = _argmax_unique(scores) if not missing else None
        slip = "score"
        if implied is not None and implied != self._next:
            least, best = self._shortcuts(self._chosen)
            slip = ("just-selected" if implied == self._chosen else "least-visited" if implied in least
                    else "best-mean" if implied in best else "score")
        self._last_wrong.append(("next", slip))
        return None

    def _turning_result(self):
        """(result, rival): the playout result at which the selected child's score after the backup equals
        the best other child's, and that other child (the next selection above or below that result).
        The other children's scores after the backup are the ones the search recorded."""
        root = self.nodes.name(self.nodes.root)
        sign = 1.0 if self.root_player == MAX else -1.0
        picked = self._chosen
        others = {k: s for k, s in self._next_scores.items() if k != picked}
        rival = max(others, key=others.get)
        v = self.visits[picked]
        explore = ucb1(0.0, v + 1, self.visits[root] + 1, self.c)
        # sign * (total + r) / (v + 1) + explore == others[rival], solved for r
        return sign * (others[rival] - explore) * (v + 1) - self.totals[picked], rival

    def _leaf_range(self):
        """The lowest and the highest leaf of the tree: the results a playout can end with."""
        leaves = [u for _, u in self.tree.nodes(data="utility") if u is not None]
        return min(leaves), max(leaves)

    def _turn_matters(self):
        """True if some result between the tree's lowest and highest leaf would change the next selection."""
        low, high = self._leaf_range()
        return low < self._turning_result()[0] < high

    def _turn_clause(self):
        """Which playout result would have changed the next selection, in words."""
        if not self._turn_matters():
            low, high = self._leaf_range()
            return f"no result from {_f2(low)} to {_f2(high)}, this tree's leaves, would have changed it"
        turn, rival = self._turning_result()
        picked = self._chosen
        side = ("above", "below") if self.root_player == MAX else ("below", "above")
        if self._next == picked:
            return f"with a result {side[1]} {_f2(turn)}, {rival} would have taken the next selection"
        return f"with a result {side[0]} {_f2(turn)}, {picked} would have stayed on top"

    def _turning_sentence(self):
        """The next selection as the rule decided it: the playout's result, not the runner-up's place."""
        picked = self._chosen
        if self._next == picked:
            return f"{picked} again: {self._turn_clause()}"
        return (f"not {picked} again: {self._turn_clause()}"
                + (f" (the result decides, not {self._next}'s place as the runner-up before the backup)"
                   if self._next == self._runner_up() else ""))

    def _runner_up(self):
        """The child with the second highest UCB1 score at the first selection."""
        return sorted(self._scores, key=self._scores.get, reverse=True)[1]

    def _expansion_part(self, rep, got, chosen):
        """Judge the node the learner says expansion adds; a "could not read" message, or None."""
        if got is None or (isinstance(got, str) and not got.strip()):
            rep.bad("Expansion: not answered yet.")
            return None
        node = None
        if isinstance(got, str):   # a node named in lower case is read
            node = self.nodes.resolve(got.strip())
            node = self.nodes.resolve(got.strip().upper()) if node is None else node
        if node is None:
            return f"Could not read the expanded node {got!r}: name one node of the tree, such as 'E'."
        label = self.nodes.name(node)
        if chosen is None:
            rep.note(f"Expansion: {label}: expansion adds a child of the node selection stopped at; check it "
                     "again once the selection is right.")
            return None
        if label == self._expanded:
            rep.good(f"Expansion: {label}, the first child of {chosen} not yet in the tree.")
            return None
        parent = next(iter(self.tree.predecessors(node)), None)
        if parent is None or self.nodes.name(parent) != chosen:
            rep.bad(f"Expansion: {label} is not a child of {chosen}: selection stopped at {chosen}, because "
                    f"{chosen} still has children outside the tree, and expansion adds one of those.")
        elif label in self.in_tree[chosen]:
            rep.bad(f"Expansion: {label} is already in the tree (an earlier playout added it); expansion "
                    f"adds a child of {chosen} that is not in it yet: the first, left to right.")
        else:
            rep.bad(f"Expansion: {label} is not in the tree yet, but it is not the first such child of "
                    f"{chosen}: expansion takes the children left to right.")
        self._last_wrong.append(("expand", None))
        return None

    def _selection_wrong(self, rep, chosen, root):
        N = self.visits[root]
        sign = 1.0 if self.root_player == MAX else -1.0
        kids = self._children
        means = {k: self.totals[k] / self.visits[k] for k in kids}
        most = [k for k in kids if self.visits[k] == max(self.visits[j] for j in kids)]
        greedy = [k for k in kids if sign * means[k] == max(sign * means[j] for j in kids)]
        least = [k for k in kids if self.visits[k] == min(self.visits[j] for j in kids)]
        as_max = _argmax_unique({k: ucb1(means[k], self.visits[k], N, self.c) for k in kids})  # MIN as MAX
        # the slip: the log of the child's own visits n in place of the parent's N
        n = self.visits
        child_log = _argmax_unique({k: ucb1(sign * means[k], n[k], n[k], self.c) for k in kids})
        tag = None
        if self.root_player == MIN and chosen == as_max and chosen not in greedy and chosen not in most:
            tag = "reward-viewpoint"
            why = (f"{root} is a MIN node: its UCB1 uses minus the mean for MAX (MIN wants it low); "
                   "recompute each child's score with −mean + c·√(ln N / n)")
        elif chosen == child_log and chosen not in greedy and chosen not in most and chosen != as_max:
            tag = "ucb-child-log"
            why = (f"the exploration term takes the log of the parent's visits, N = {N}, over the child's n: "
                   "c·√(ln N / n); recompute it for every child")
        elif len(most) == 1 and chosen == most[0] and chosen not in greedy:
            tag = "selection-most-visited"
            why = ("the most visited child is the move to play after the search, not the one selection "
                   "explores next: compute every child's UCB1 score and take the highest")
        elif chosen in least and len(least) == 1 and chosen not in greedy:
            why = (f"{chosen} is the least visited child: its exploration term is the largest, but that term "
                   f"alone is exploration only; the mean counts too: add the two for every child of {root} "
                   "and take the highest")
        elif len(greedy) == 1 and chosen == greedy[0]:
            tag = "selection-exploit-only"
            best = "highest" if self.root_player == MAX else "lowest (MIN's best)"
            also = " and the most visits" if chosen in most else ""
            why = (f"{chosen} has the {best} mean ({_f2(means[chosen])}){also}, but the best mean alone is "
                   "exploitation only: UCB1 adds c·√(ln N / n), larger for children tried less often; add it "
                   f"for every child of {root} and take the highest")
        else:
            mean = "−mean" if self.root_player == MIN else "mean"
            why = (f"compute {mean} + {_f2(self.c)}·√(ln {N} / n) for every child of {root} (N = {N}, the "
                   f"visits of {root}; n each child's visits) and take the highest")
        rep.bad(
            f"Selection at {root}: {chosen} is not the child with the highest UCB1 score: {why}.", tag=tag
        )
        self._last_wrong.append(("select", tag))

    def _backup_part(self, rep, label, gv, gm):
        v, t = self.visits[label], self.totals[label]
        right_v, right_m = self._after(label)
        problems = []
        if (
            gv == v
            and math.isclose(gm, t / v, abs_tol=_MEAN_TOL)
            and label == self.nodes.name(self.nodes.root)
        ):
            rep.bad(
                f"{label} after the backup: unchanged, but the playout went through {label} too: every "
                "node on the path from the root counts it (visits and result).",
                tag="backprop-incomplete",
            )
            self._last_wrong.append(("visits", "backprop-incomplete"))
            return
        if gv != right_v:
            problems.append(f"the visits: every node on the playout's path counts the playout once, so "
                            f"{label}'s {v} visits go up by how many?")
            self._last_wrong.append(("visits", None))
        tag = None
        if not math.isclose(gm, right_m, abs_tol=_MEAN_TOL):
            averaged = (t / v + self.playout_result) / 2
            negated = (t - self.playout_result) / (v + 1)
            telling = gm != 0  # a zero is a plainer slip (a blank), never a misconception
            if (
                telling
                and math.isclose(gm, averaged, abs_tol=_MEAN_TOL)
                and not math.isclose(averaged, right_m, abs_tol=_MEAN_TOL)
            ):
                tag = "backup-mean-averaged"
                problems.append("the mean: you averaged the old mean with the result, as if each had the "
                                "same weight; the new mean is (total + result) / (visits + 1): the old total "
                                f"counts {v} playouts")
            elif (
                telling
                and math.isclose(gm, negated, abs_tol=_MEAN_TOL)
                and not math.isclose(negated, right_m, abs_tol=_MEAN_TOL)
            ):
                tag = "reward-viewpoint"
                problems.append("the mean: the means here are kept for MAX at every node, so the result is "
                                "added as it is, whoever moves; recompute (total + result) / (visits + 1)")
            elif (
                telling
                and self.root_player == MIN
                and math.isclose(gm, -right_m, abs_tol=_MEAN_TOL)
                and not math.isclose(right_m, 0, abs_tol=_MEAN_TOL)
            ):
                problems.append(f"the mean: {_f2(gm)} is {label}'s mean as MIN sees it; the means here "
                                "stay for MAX at every node, MIN's too (MIN's view enters only in the "
                                "selection's −mean): recompute (total + result) / (visits + 1) as it is")
            elif _cut_short(gm, right_m):
                tag = "cut-short"     # not a catalogue tag: the twin is picked to show a rounding
                problems.append(f"the mean: {_f2(gm)} is the right mean cut short (truncated, or rounded "
                                "to fewer decimals); round it to 2 decimals: the third decimal decides the "
                                "second")
            else:
                problems.append(f"the mean: recompute (total + result) / (visits + 1) for {label}, with "
                                f"{label}'s total and the playout's result for MAX")
            self._last_wrong.append(("mean", tag))
        if problems:
            text = f"{label} after the backup: " + "; ".join(problems)
            rep.bad(text if text.endswith("?") else text + ".", tag=tag if tag != "cut-short" else None)
        else:
            rep.good(f"{label} after the backup: ({int(gv)}, {_f2(gm)}).")

    # -- twins ------------------------------------------------------------------------

    def _twin_options(self):
        return {"root_player": self.root_player, "full": self.full}

    def _shortcuts(self, after=None):
        """(least visited children, children with the best mean for the root's player), before the
        playout, or after a backup through the child ``after``."""
        sign = 1.0 if self.root_player == MAX else -1.0
        counts = {k: (self._after(k) if k == after else (self.visits[k], self.totals[k] / self.visits[k]))
                  for k in self._children}
        fewest = min(n for n, _ in counts.values())
        best = max(sign * m for _, m in counts.values())
        return ([k for k, (n, _) in counts.items() if n == fewest],
                [k for k, (_, m) in counts.items() if math.isclose(sign * m, best, abs_tol=1e-9)])

    def no_shortcut(self, parts=("select", "next")):
        """True if no shortcut answers the ``parts`` asked: at the selection, one least visited child, one
        with the best mean and UCB1's choice, three different children; at the next selection (``full``),
        UCB1's choice is neither the child just selected, nor a least visited child, nor one with the best
        mean after the backup.

        >>> MCTSExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]]).no_shortcut()   # B: both fewest visits
        False
        """
        ok = True
        if "select" in parts:
            least, best = self._shortcuts()
            ok = len(least) == len(best) == 1 and len({least[0], best[0], self._chosen}) == 3
        if "next" in parts and self.full:
            least, best = self._shortcuts(self._chosen)
            ok = ok and self._next not in (self._chosen, *least, *best)
        return ok

    def _twin(self, feedback):
        """The mistake worked through on a twin that no shortcut answers, wherever this exercise has none.

        The twins are this tree's shape with other leaves first, then trees drawn with this exercise's
        settings (a shortcut-free playout is rare: a few in a hundred).
        """
        wrong = getattr(self, "_last_wrong", None)
        if not wrong:
            return None
        need = tuple(p for p in ("select", "next") if p in {k for k, _ in wrong} and self.no_shortcut((p,)))
        rng = random.Random(f"{self.key}:{feedback.attempt}")
        depth, level = 0, [self.nodes.root]
        while level := [k for n in level for k in self.tree.successors(n)]:
            depth += 1
        drawn = ({"seed": rng.randrange(2**31), "depth": depth, "branching": len(self._children),
                  "difficulty": self.difficulty or "easy"} for _ in range(400))
        # a next selection without its score, or with a wrong one, is worked where the selected child stays
        # on top (the runner-up before the backup is not next by rule); the first other twin if none does
        again = bool({("next", "no-score"), ("next", "score")} & set(wrong))
        fallback = None
        for made in itertools.chain(({"tree": H} for H in twin_trees(self.tree, rng)), drawn):
            try:
                twin = (self._make_twin(made["tree"]) if "tree" in made
                        else type(self)(**made, **self._twin_options()))
            except (ValueError, TypeError):
                continue
            # a wrong expansion is practised where some of the selected node's children (one or two) are in
            # the tree already, so the learner skips them to the first one not in it
            skips = "expand" not in {k for k, _ in wrong} or (twin.full and twin.in_tree[twin._chosen])
            # the child just selected, named as the next one, is shown not to be the next one on the twin
            moves_on = ("next", "just-selected") not in wrong or (twin.full and twin._next != twin._chosen)
            # a mean cut short is practised where rounding to 2 decimals changes the second decimal
            rounds = ("mean", "cut-short") not in wrong or _rounds_up(twin._after(twin.nodes.name(
                twin.nodes.root))[1])
            if not (skips and moves_on and rounds) or self._gives_away(twin, wrong):
                continue
            if (again and twin._next == twin._chosen and twin._turn_matters()
                    and twin.no_shortcut(tuple(p for p in need if p != "next"))):
                text = self._twin_text(twin, wrong)
                if text:
                    return text
            elif twin.no_shortcut(need):
                text = self._twin_text(twin, wrong)
                if text and not again:
                    return text
                fallback = fallback or text
        return fallback

    def _gives_away(self, twin, wrong):
        """True if the twin's worked answer to a part it works equals this exercise's own answer there:
        the child selection takes (named by the selection, expansion and next-selection parts), the node
        expansion adds, the next selection, or the root's (visits, mean) after the backup."""
        kinds = {k for k, _ in wrong}
        root = self.nodes.name(self.nodes.root)
        if kinds & {"select", "expand", "next"} and twin._chosen == self._chosen:
            return True
        if "expand" in kinds and self.full and twin.full and twin._expanded == self._expanded:
            return True
        if "next" in kinds and self.full and twin.full and twin._next == self._next:
            return True
        if kinds & {"visits", "mean"}:
            (tv, tm), (v, m) = twin._after(twin.nodes.name(twin.nodes.root)), self._after(root)
            return tv == v and _f2(tm) == _f2(m)
        return False

    def _twin_text(self, twin, wrong):
        kinds = {k for k, _ in wrong}
        root = twin.nodes.name(twin.nodes.root)
        parts = []
        if "select" in kinds:
            N = twin.visits[root]
            sign = "" if twin.root_player == MAX else "−"
            scores = "; ".join(
                f"{k}: {sign}{_f2(twin.totals[k] / twin.visits[k])} + {_f2(twin.c)}·√(ln {N} / "
                f"{twin.visits[k]}) = {_f2(twin._scores[k])}" for k in twin._children)
            parts.append(f"at {root} ({'MAX' if twin.root_player == MAX else 'MIN'}, N = {N}, c = "
                         f"{_f2(twin.c)}) {scores}; the highest is {twin._chosen}, so selection takes "
                         f"{twin._chosen}")
        if kinds & {"visits", "mean"}:
            v, t = twin.visits[root], twin.totals[root]
            m = (t + twin.playout_result) / (v + 1)
            rounding = (f" ({m:.4f}…, rounded to 2 decimals: the third decimal raises the second)"
                        if ("mean", "cut-short") in wrong and _rounds_up(m) else "")
            parts.append(f"{root} had {v} visits and total {_f2(t)}; after a playout with result "
                         f"{_f2(twin.playout_result)} it has {v + 1} visits and mean ({_f2(t)} + "
                         f"{_f2(twin.playout_result)}) / {v + 1} = {_f2(m)}{rounding}")
        if "expand" in kinds and twin.full:
            had = twin.in_tree[twin._chosen]
            already = (f"of {twin._chosen}'s children, {and_list(had)} {'is' if len(had) == 1 else 'are'} in "
                       "the tree already" if had else f"none of {twin._chosen}'s children is in the tree yet")
            parts.append(f"selection stops at {twin._chosen}; {already}: expansion adds the first one not "
                         f"yet in it, {twin._expanded}")
        if "next" in kinds and twin.full:
            n_after = twin.visits[root] + 1
            sign = "" if twin.root_player == MAX else "−"
            counts = {k: (twin._after(k) if k == twin._chosen
                          else (twin.visits[k], twin.totals[k] / twin.visits[k])) for k in twin._children}
            scores = "; ".join(
                f"{k}: {sign}{_f2(m)} + {_f2(twin.c)}·√(ln {n_after} / {n}) = {_f2(twin._next_scores[k])}"
                for k, (n, m) in counts.items())
            before = ", ".join(f"{k} {_f2(twin._scores[k])}" for k in twin._children)
            picked, nxt = twin._chosen, twin._next
            slips = {slip for kind, slip in wrong if kind == "next"}
            least, best = twin._shortcuts(picked)
            if "least-visited" in slips and nxt not in least:
                few = counts[least[0]][0]
                takes = (f"{nxt}, not {or_list(least)}, the least visited ({few} "
                         f"visit{'s' if few != 1 else ''})")
            elif "best-mean" in slips and nxt not in best:
                role = "MAX" if twin.root_player == MAX else "MIN"
                takes = (f"{nxt}, not {or_list(best)}, the best mean for {role} "
                         f"({_f2(counts[best[0]][1])})")
            elif nxt == picked:
                takes = f"{picked} again: here the selected child still has the highest score"
            elif "just-selected" in slips:
                takes = f"{nxt}, not {picked}, the child the playout selected"
            else:
                takes = f"{nxt}, the child with the highest score"
            takes += f"; {twin._turn_clause()}"
            parts.append(f"before the backup (N = {n_after - 1}) the scores were {before}: the playout "
                         f"selected {picked}; after the backup (N = {n_after}) the scores are {scores}; the "
                         f"next selection takes {takes}")
        return "; ".join(parts) + "." if parts else None

    def draw(self, ax=None, **options):
        """The tree MCTS has grown so far (visits and means), as the exercise gives it.

        Drawn between two playouts: no node of the replay marked current, no path, no score, and a
        caption that says what the figure shows (``title=`` replaces it), never the next step. The
        nodes not yet in MCTS's tree are drawn faint and empty: MCTS knows no value there (a leaf's
        value would give the playout's result away, and with it the child selection takes).
        """
        show = viewer("draw")
        if show is None:
            raise ImportError("gametrees.draw is not available in this installation; print(ex.explain()) "
                              "shows the worked step as text")
        done = self.visits[self.nodes.name(self.nodes.root)]
        k = max(i for i, e in enumerate(self._result.trace) if e.kind == "backup" and e.playout == done)
        between = dataclasses.replace(frame(self._result.trace, k), path=(), updated=(), playout=(),
                                      scores={}, current=None)
        options.setdefault("title", self.caption())
        known = self.tree.copy()   # the whole game tree, as the question says, with only what MCTS knows
        for node, utility in self.tree.nodes(data="utility"):
            if utility is not None and node not in between.order:
                known.nodes[node]["utility"] = None   # still a leaf, drawn with no value
        return show(between, ax, tree=known, **options)

    def caption(self):
        """What the figure of :meth:`draw` shows, in words that give no step of the answer away."""
        done = self.visits[self.nodes.name(self.nodes.root)]
        ahead = "the playout you work out, and the one after it" if self.full else "the playout you work out"
        return (f"MCTS's tree after {done} playouts, before {ahead}: n = visits, inside a node its mean "
                "for MAX; faint, no value: not in MCTS's tree yet.")
