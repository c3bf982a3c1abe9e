"""Small games that break the game protocol on purpose, for the tests of the searches' edges.

Each is a few lines following :class:`gametrees.games.Game`, with one thing wrong
(or odd) that a learner's own game could have: it never ends, a position goes on
without moves, a utility that is not a usable number, chances that are not a
probability distribution. ``tests/test_mcts_edges.py`` and
``tests/test_bad_inputs_search.py`` search them.
"""

from __future__ import annotations

from gametrees.games import CHANCE, MAX, MIN, Game


class Endless(Game):
    """A count that goes up forever: no state is terminal."""

    initial = 0

    def actions(self, state):
        return [0, 1]

    def result(self, state, move):
        return state + 1

    def is_terminal(self, state):
        return False

    def utility(self, state):
        return 0

    def to_move(self, state):
        return MAX if state % 2 == 0 else MIN


class Stuck(Game):
    """MAX has one move, to 1; ``stuck_at`` is not terminal but has no moves (1 by default)."""

    initial = 0

    def __init__(self, stuck_at=1, player=MIN):
        self.stuck_at = stuck_at
        self.player = player

    def actions(self, state):
        return [] if state == self.stuck_at else [state + 1]

    def result(self, state, move):
        return move

    def is_terminal(self, state):
        return state > self.stuck_at

    def utility(self, state):
        return 1

    def to_move(self, state):
        return MAX if state == 0 else self.player

    def chances(self, state):
        return []


class Worth(Game):
    """MAX picks "left" (worth ``value``) or "right" (worth 0)."""

    initial = "start"

    def __init__(self, value):
        self.value = value

    def actions(self, state):
        return ["left", "right"] if state == "start" else []

    def result(self, state, move):
        return move

    def is_terminal(self, state):
        return state != "start"

    def utility(self, state):
        return self.value if state == "left" else 0

    def to_move(self, state):
        return MAX


class Dice(Game):
    """A chance root with the outcomes "a" (worth 1) and "b" (worth -1), their chances as given.

    With ``decide=True`` MAX first chooses between the roll and a sure 0, so the
    chance state is below the root.
    """

    def __init__(self, chances, decide=False):
        self.given = chances
        self.initial = "choose" if decide else "roll"

    def actions(self, state):
        return {"choose": ["roll", "stay"], "roll": ["a", "b"]}.get(state, [])

    def result(self, state, move):
        return move

    def is_terminal(self, state):
        return state not in ("choose", "roll")

    def utility(self, state):
        return {"a": 1, "b": -1, "stay": 0}[state]

    def to_move(self, state):
        return MAX if state == "choose" else CHANCE

    def chances(self, state):
        return self.given
