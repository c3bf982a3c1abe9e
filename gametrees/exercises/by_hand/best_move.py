"""The exercise by hand on the decision at the root: :class:`BestMoveExercise`.

May import: :mod:`gametrees.search`, :mod:`gametrees.games`,
:mod:`gametrees.exercises.feedback` and :mod:`gametrees.exercises.by_hand.base`.
"""

from __future__ import annotations

import networkx as nx

from ...games import CHANCE, MAX, MIN
from ...search import expectimax, minimax
from ..feedback import Feedback, ROLE_NAMES, Report, close, fmt, fmt_prob, is_are, malformed, or_list
from .base import Exercise, child_probs

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

    _what = "Best move"
    answer_form = "give the label of one of the root's children, such as 'B'"
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
            raise ValueError(f"the root of a best-move exercise must be a MAX or MIN node, not {self.root_player!r}")
        self.result = self._search(self.tree)
        R = self.result.graph
        root = self.nodes.root
        self.children = list(self.tree.successors(root))
        self.best = [c for c in self.children if close(R.nodes[c]["value"], self.result.value)]
        self.best_child = next((c for c in self.children if R.edges[root, c].get("best")), self.best[0])

    def _question(self):
        role = ROLE_NAMES[self.root_player]
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
                if "move" in self.tree.edges[root, c] and str(self.tree.edges[root, c]["move"]) == answer.strip():
                    n = c
        if n is None:
            n = self.nodes.resolve(answer) if not isinstance(answer, (list, set)) else None
        if n is None:
            return malformed(what, f"Name one child of {self.nodes.name(root)}: "
                                    f"{or_list(self.nodes.name(c) for c in self.children)}; got {answer!r}.")
        rep = Report()
        R = self.result.graph
        role = ROLE_NAMES[self.root_player]
        if n == root:
            rep.bad(f"{self.nodes.name(root)} is where {role} moves from: name the child it moves to, "
                    f"{or_list(self.nodes.name(c) for c in self.children)}.")
            return Feedback(f"{what}: wrong.", rep.items)
        if n not in self.children:
            path = nx.shortest_path(self.tree, root, n)
            rep.bad(f"{self.nodes.name(n)} is not one move from {self.nodes.name(root)}: a move goes to a child, "
                    f"here {self.nodes.name(path[1])} on the way to {self.nodes.name(n)}.")
            return Feedback(f"{what}: wrong.", rep.items)
        best = self.nodes.name(self.best_child)
        v = fmt(R.nodes[n]["value"])
        others = [c for c in self.children if c != n]
        if n in self.best:
            most = "the most MAX" if self.root_player == MAX else "the least MIN"
            rest = ", ".join(f"{self.nodes.name(c)}: {fmt(R.nodes[c]['value'])}" for c in others)
            rep.good(f"{self.nodes.name(n)} is a best move: it is worth {v}, {most} can get at "
                     f"{self.nodes.name(root)} ({rest}).")
            ties = [c for c in self.best if c != n]
            if ties:
                rep.note(f"{self.nodes.names(ties)} {is_are(ties)} just as good.")
            return Feedback(f"{what}: right.", rep.items)
        rep.bad(f"{self.nodes.name(n)} is worth {v} ({self._worth(n)}), but {best} is worth "
                f"{fmt(R.nodes[self.best_child]['value'])}: {role} moves to {best}.")
        return Feedback(f"{what}: wrong.", rep.items)
