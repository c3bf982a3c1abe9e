"""The exercise by hand on the decision at the root: :class:`BestMoveExercise`.

May import: :mod:`gametrees.search`, :mod:`gametrees.games`,
:mod:`gametrees.exercises.feedback` and the modules ``trees`` and ``exercise`` of
:mod:`gametrees.exercises.by_hand`.
"""

from __future__ import annotations

import networkx as nx

from ...games import CHANCE, MAX, MIN
from ...rules import EXACT
from ...search import alphabeta, expectimax, minimax
from ..feedback import ROLE_NAMES, Feedback, Report, close, fmt, fmt_prob, is_are, malformed, or_list
from .exercise import Exercise
from .trees import child_probs, inline


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
    ✗ D is not MAX's best move. Work out what each of B, C or D is worth to MAX (a child's value is its
    subtree's minimax value), then ask which one MAX prefers.
    """

    _what = "Best move"
    answer_form = "give the label of one of the root's children"
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
        return len(kids) > 1 and not all(close(k, kids[0]) for k in kids)

    @staticmethod
    def root_player_of(G):
        return G.nodes[G.graph["root"]].get("player")

    def _setup(self):
        if self.root_player not in (MAX, MIN):
            raise ValueError("the root of a best-move exercise must be a MAX or MIN node, not "
                             f"{self.root_player!r}")
        self.result = self._search(self.tree)
        R = self.result.graph
        root = self.nodes.root
        self.children = list(self.tree.successors(root))
        self.best = [c for c in self.children if close(R.nodes[c]["value"], self.result.value)]
        self.best_child = next((c for c in self.children if R.edges[root, c].get("best")), self.best[0])

    def _question(self):
        role = ROLE_NAMES[self.root_player]
        return (f"Best move{self._origin()}: {self._root_text()}. Which move should {role} make? Name the "
                f"child of {self.nodes.name(self.nodes.root)} it should move to: "
                f"{or_list(self.nodes.name(c) for c in self.children)}.")

    def solution(self):
        return self.nodes.name(self.best_child)

    def _worth(self, c):
        G, R = self.tree, self.result.graph
        name = self.nodes.name(c)
        if not G.out_degree(c):
            return f"{name} is a leaf"
        player = G.nodes[c]["player"]
        if player == CHANCE:
            probs = child_probs(G, c)
            terms = " + ".join(f"{fmt_prob(p)} × {fmt(R.nodes[k]['value'])}" for k, p in probs.items())
            return f"{name} is a chance node: {terms}"
        kids = ", ".join(f"{self.nodes.name(k)} = {fmt(R.nodes[k]['value'])}" for k in G.successors(c))
        return f"{name} is a {ROLE_NAMES[player]} node over {kids}"

    def check(self, answer):
        what = "Best move"
        root = self.nodes.root
        n = None
        if isinstance(answer, str):
            for c in self.children:
                if (
                    "move" in self.tree.edges[root, c]
                    and str(self.tree.edges[root, c]["move"]) == answer.strip()
                ):
                    n = c
        if n is None:
            n = self.nodes.resolve(answer) if not isinstance(answer, (list, set)) else None
        if n is None:
            return malformed(what, f"Name one child of {self.nodes.name(root)}: "
                                    f"{or_list(self.nodes.name(c) for c in self.children)}; got {answer!r}.")
        rep = Report()
        self._last_wrong = []
        R = self.result.graph
        role = ROLE_NAMES[self.root_player]
        kids = or_list(self.nodes.name(c) for c in self.children)
        if n == root:
            rep.bad(
                f"{self.nodes.name(root)} is where {role} moves from: name the child it moves to, {kids}."
            )
            return Feedback(f"{what}: wrong.", rep.items)
        if n not in self.children:
            path = nx.shortest_path(self.tree, root, n)
            rep.bad(f"{self.nodes.name(n)} is not one move from {self.nodes.name(root)}: a move goes to a "
                    f"child, here {self.nodes.name(path[1])} on the way to {self.nodes.name(n)}.")
            return Feedback(f"{what}: wrong.", rep.items)
        if n in self.best:
            rep.good(f"{self.nodes.name(n)} is a best move for {role}.")
            ties = [c for c in self.best if c != n]
            if ties:
                rep.note(f"{self.nodes.names(ties)} {is_are(ties)} just as good.")
            return Feedback(f"{what}: right.", rep.items)
        name = self.nodes.name(n)
        values = [R.nodes[c]["value"] for c in self.children]
        worst = min(values) if self.root_player == MAX else max(values)
        text = (f"{name} is not {role}'s best move. Work out what each of {kids} is worth to {role} (a "
                f"child's value is its subtree's {'expectimax' if self._has_chance() else 'minimax'} value), "
                f"then ask which one {role} prefers.")
        ab = alphabeta(self.tree, trace=False, graph=True).graph if not self._has_chance() else None
        if (ab is not None and ab.nodes[n].get("bound", EXACT) != EXACT
                and close(ab.nodes[n]["value"], self.result.value)):
            rep.bad(text, f"Alpha-beta leaves {name} with only a bound equal to the best value: that is not "
                          "a tie. A cut-short child's value is a bound; move only to a child whose value is "
                          "exact and best.", tag="value-right-move-wrong")
            self._last_wrong.append((n, "bound-tie", "value-right-move-wrong"))
        elif close(R.nodes[n]["value"], worst) and len({round(v, 9) for v in values}) > 2:
            other = "MIN" if self.root_player == MAX else "MAX"
            rep.bad(text, f"{name} is the move {other} would like {role} to make: at {self.nodes.name(root)} "
                          f"it is {role}'s turn. Which child does {role} prefer?", tag="roles-inverted")
            self._last_wrong.append((n, "roles", "roles-inverted"))
        else:
            rep.bad(text)
            self._last_wrong.append((n, "value", None))
        return Feedback(f"{what}: wrong.", rep.items, tags=[t for _, _, t in self._last_wrong if t])

    def _has_chance(self):
        return any(p == CHANCE for _, p in self.tree.nodes(data="player"))

    def explain(self):
        """The worked solution: what each child of the root is worth, then the answer."""
        R = self.result.graph
        lines = [
            f"{self._worth(c)}: {self.nodes.name(c)} = {fmt(R.nodes[c]['value'])}." for c in self.children
        ]
        role = ROLE_NAMES[self.root_player]
        lines.append(f"{role} moves to the child worth the {'most' if self.root_player == MAX else 'least'}: "
                     f"Answer: {self.solution()!r}")
        return "\n".join(lines)

    def _twin_text(self, twin, wrong):
        if twin.best_child == self.best_child or len(twin.best) > 1:
            return None
        R = twin.result.graph
        parts = "; ".join(f"{twin._worth(c)}, so {twin.nodes.name(c)} = {fmt(R.nodes[c]['value'])}"
                          for c in twin.children)
        role = ROLE_NAMES[twin.root_player]
        return (f"the same tree with other leaf values, {inline(twin.tree, twin.nodes)}: {parts}. {role} "
                f"moves to {twin.nodes.name(twin.best_child)}.")
