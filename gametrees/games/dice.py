"""A small two-player dice game with chance states, for expectimax.

Imports: :mod:`gametrees.games.protocol` only.
"""

from .protocol import CHANCE, MAX, MIN, Game, as_int, check_tuple_state, int_at_least

__all__ = ["DiceGame"]


class DiceGame(Game):
    """A small two-player dice game with chance states, for expectimax.

    MAX and MIN take turns, ``rounds`` turns each, MAX first.  On a turn the
    player chooses ``"hold"`` (score ``safe`` points for sure) or ``"roll"``: a
    CHANCE state follows, where a die with ``sides`` faces, each with probability
    ``1 / sides``, decides the points: face 1 scores 0, any other face scores its
    number.  After the last turn the utility is MAX's score minus MIN's score.

    A state is the plain tuple ``(turn, max_score, min_score, rolling)``:

    - ``turn``: turns completed so far, ``0 .. 2 * rounds``; MAX plays the even
      turns (0, 2, ...), MIN the odd ones; the game is over at ``2 * rounds``;
    - ``max_score``, ``min_score``: the points so far;
    - ``rolling``: ``True`` for the CHANCE state of a roll (the die of the player
      whose turn it is), ``False`` when that player chooses a move.

    Parameters
    ----------
    rounds : int, default 2
        Turns per player, ``>= 1``.
    safe : int, default 2
        Points for holding, ``>= 0``.
    sides : int, default 6
        Faces of the die, ``>= 2``.

    Examples
    --------
    >>> game = DiceGame()
    >>> game.initial
    (0, 0, 0, False)
    >>> game.actions(game.initial)
    ['hold', 'roll']
    >>> rolling = game.result(game.initial, "roll")
    >>> game.to_move(rolling)
    'chance'
    >>> game.chances(rolling)[:2]
    [(1, 0.16666666666666666), (2, 0.16666666666666666)]
    >>> game.result(rolling, 5)   # MAX rolled a 5; MIN's turn
    (1, 5, 0, False)
    >>> print(game.display((1, 5, 0, False)))
    MAX 5 : MIN 0
    turn 2 of 4: MIN to move (hold for 2 or roll)
    """

    HOLD, ROLL = "hold", "roll"

    def __init__(self, rounds=2, safe=2, sides=6):
        self.rounds = int_at_least(rounds, "rounds", 1)
        self.safe = int_at_least(safe, "safe", 0)
        self.sides = int_at_least(sides, "sides", 2)
        self._turns = 2 * self.rounds
        self._faces = tuple(range(1, self.sides + 1))
        self._points = (None, 0) + tuple(range(2, self.sides + 1))  # by face
        p = 1 / self.sides
        self._chances = [(face, p) for face in self._faces]
        self.initial = (0, 0, 0, False)

    def __repr__(self):
        return f"DiceGame(rounds={self.rounds}, safe={self.safe}, sides={self.sides})"

    def points(self, face):
        """Return the points a rolled ``face`` scores: 0 for a 1, else the face.

        Examples
        --------
        >>> [DiceGame().points(face) for face in range(1, 7)]
        [0, 2, 3, 4, 5, 6]
        """
        face = as_int(face, "a die face")
        if not 1 <= face <= self.sides:
            raise ValueError(f"a die face must be 1..{self.sides}, got {face}")
        return self._points[face]

    def to_move(self, state):
        """Return CHANCE while the die rolls, else MAX on even turns, MIN on odd."""
        turn, _, _, rolling = state
        if rolling:
            return CHANCE
        return MAX if turn % 2 == 0 else MIN

    def actions(self, state):
        """Return ``['hold', 'roll']``, the faces ``1..sides`` for a roll, or ``[]``."""
        turn, _, _, rolling = self.check_state(state)
        if rolling:
            return list(self._faces)
        if turn == self._turns:
            return []
        return [self.HOLD, self.ROLL]

    def result(self, state, move):
        """Return the state after ``move`` (``'hold'``/``'roll'``, or a die face).

        Raises
        ------
        TypeError
            If ``move`` is not a str for a player or not an int for a roll.
        ValueError
            If ``move`` is not one of the legal moves.

        Examples
        --------
        >>> game = DiceGame()
        >>> game.result(game.initial, "hold")
        (1, 2, 0, False)
        >>> game.result(game.initial, 3)  # doctest: +NORMALIZE_WHITESPACE
        Traceback (most recent call last):
        ...
        TypeError: in dice game state (turn 1 of 4, MAX 0 : MIN 0, max to move)
        a move is 'hold' or 'roll', got 3 of type int
        """
        turn, a, b, rolling = self.check_state(state)
        where = f"dice game state ({self._text(state)})"
        legal = self.actions(state)
        if rolling:
            face = as_int(move, f"in {where} the outcome (a die face 1..{self.sides})")
            if face not in legal:
                raise ValueError(
                    f"illegal outcome {move!r} in {where}: a die face is 1..{self.sides}; "
                    f"legal outcomes: {legal}"
                )
            points = self._points[face]
            if turn % 2 == 0:
                return (turn + 1, a + points, b, False)
            return (turn + 1, a, b + points, False)
        if not legal:
            raise ValueError(
                f"illegal move {move!r} in {where}: the game is over, there are no "
                f"legal moves"
            )
        if not isinstance(move, str):
            raise TypeError(
                f"in {where} a move is 'hold' or 'roll', got {move!r} of type "
                f"{type(move).__name__}"
            )
        if move == self.ROLL:
            return (turn, a, b, True)
        if move == self.HOLD:
            if turn % 2 == 0:
                return (turn + 1, a + self.safe, b, False)
            return (turn + 1, a, b + self.safe, False)
        raise ValueError(f"illegal move {move!r} in {where}; legal moves: {legal}")

    def is_terminal(self, state):
        """Return True after the last turn."""
        return state[0] == self._turns

    def utility(self, state):
        """Return MAX's score minus MIN's score at the end of the game.

        Raises
        ------
        ValueError
            If turns are left.
        """
        turn, a, b, _ = state
        if turn != self._turns:
            raise ValueError(
                f"utility() needs a terminal state, but dice game state {state!r} "
                f"is at turn {turn + 1} of {self._turns}"
            )
        return a - b

    def chances(self, state):
        """Return ``[(face, 1 / sides), ...]`` for the faces ``1..sides`` of a roll.

        Raises
        ------
        ValueError
            If ``state`` is not a CHANCE state (nobody is rolling).
        """
        if not state[3]:
            raise ValueError(
                f"chances() needs a CHANCE state (rolling=True), but in dice game "
                f"state {state!r} {self.to_move(state)!r} is to move"
            )
        return list(self._chances)

    def successors(self, state):
        """Return ``[(move, next_state), ...]`` in :meth:`actions` order (fast path)."""
        turn, a, b, rolling = state
        if turn == self._turns:
            return []
        if rolling:
            points = self._points
            if turn % 2 == 0:
                return [(f, (turn + 1, a + points[f], b, False)) for f in self._faces]
            return [(f, (turn + 1, a, b + points[f], False)) for f in self._faces]
        if turn % 2 == 0:
            hold = (turn + 1, a + self.safe, b, False)
        else:
            hold = (turn + 1, a, b + self.safe, False)
        return [(self.HOLD, hold), (self.ROLL, (turn, a, b, True))]

    def display(self, state):
        """Return the scores and whose turn it is, on two lines."""
        turn, a, b, rolling = self.check_state(state)
        scores = f"MAX {a} : MIN {b}"
        if turn == self._turns:
            if a == b:
                return f"{scores}\ngame over: a draw"
            return f"{scores}\ngame over: {'MAX' if a > b else 'MIN'} wins by {abs(a - b)}"
        who = "MAX" if turn % 2 == 0 else "MIN"
        if rolling:
            return f"{scores}\nturn {turn + 1} of {self._turns}: {who} rolls the die"
        return (
            f"{scores}\nturn {turn + 1} of {self._turns}: {who} to move "
            f"(hold for {self.safe} or roll)"
        )

    def _text(self, state):
        turn, a, b, _ = state
        if turn == self._turns:
            return f"game over, MAX {a} : MIN {b}"
        role = self.to_move(state)
        return f"turn {turn + 1} of {self._turns}, MAX {a} : MIN {b}, {role} to move"

    def check_state(self, state):
        """Return ``state`` if it is a valid state of this game, else raise."""
        check_tuple_state(state, 4, "dice game", "(turn, max_score, min_score, rolling)")
        turn, a, b, rolling = state
        for name, value in (("turn", turn), ("max_score", a), ("min_score", b)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(
                    f"a dice game state is (turn, max_score, min_score, rolling) with "
                    f"int {name}, got {state!r}"
                )
        if not isinstance(rolling, bool):
            raise TypeError(
                f"a dice game state is (turn, max_score, min_score, rolling) with bool "
                f"rolling, got {state!r}"
            )
        if not 0 <= turn <= self._turns or (rolling and turn == self._turns):
            raise ValueError(
                f"invalid dice game state {state!r}: turn must be 0..{self._turns} "
                f"(and no roll after the last turn)"
            )
        return state
