"""Pig, the dice game of "roll or hold", to a small target, for expectimax.

Imports: :mod:`gametrees.games.protocol` only.
"""

from .protocol import CHANCE, MAX, MIN, Game, as_int, check_tuple_state, int_at_least

__all__ = ["Pig"]


class Pig(Game):
    """Two-player Pig to a small target, with a limit on the number of turns.

    MAX and MIN take turns, MAX first.  A turn starts with a roll of a die with
    ``sides`` faces (each with probability ``1 / sides``).  A 1 ends the turn
    and scores nothing; any other face adds its number to the *turn total*, and
    the player chooses: ``"roll"`` again (risking the turn total) or ``"hold"``
    (bank the turn total and pass the die).  A player whose score plus turn
    total reaches ``target`` wins at once.

    So that the game tree is finite (two players rolling 1s could otherwise
    pass the die forever), the game also ends after ``turns`` turns in total:
    then the higher score wins, equal scores draw.  Utility: +1 when MAX wins,
    -1 when MIN wins, 0 for a draw, so the expectimax value of a state is
    P(MAX wins) - P(MIN wins).

    A state is the plain tuple ``(turn, max_score, min_score, turn_total, rolling)``:

    - ``turn``: turns completed so far, ``0 .. turns``; MAX plays the even
      turns (0, 2, ...), MIN the odd ones;
    - ``max_score``, ``min_score``: the banked points (a winner's score is its
      final total, ``>= target``);
    - ``turn_total``: the points rolled this turn, not yet banked;
    - ``rolling``: ``True`` for the CHANCE state of a roll, ``False`` when the
      player to move chooses ``"roll"`` or ``"hold"``.

    At the start of a turn (turn total 0) the only move is ``"roll"``.

    Parameters
    ----------
    target : int, default 10
        Points needed to win, ``>= 1``.
    sides : int, default 6
        Faces of the die, ``>= 2``.
    turns : int, default 30
        Turns in total (both players) before the game is stopped, ``>= 1``.

    Examples
    --------
    >>> game = Pig(target=10)
    >>> game.initial
    (0, 0, 0, 0, False)
    >>> game.actions(game.initial)          # a turn starts with a roll
    ['roll']
    >>> rolling = game.result(game.initial, "roll")
    >>> game.to_move(rolling), game.chances(rolling)[0]
    ('chance', (1, 0.16666666666666666))
    >>> state = game.result(rolling, 5)      # MAX rolled a 5: turn total 5
    >>> state, game.actions(state)
    ((0, 0, 0, 5, False), ['hold', 'roll'])
    >>> game.result(state, "hold")           # banked; MIN's turn
    (1, 5, 0, 0, False)
    >>> game.result(game.result(state, "roll"), 1)   # a 1: the 5 is lost
    (1, 0, 0, 0, False)
    >>> game.result(game.result(state, "roll"), 6)   # 5 + 6 reaches 10: MAX wins
    (1, 11, 0, 0, False)
    >>> print(game.display((1, 5, 0, 0, False)))
    MAX 5 : MIN 0 (target 10)
    turn 2 of 30: MIN to roll
    """

    HOLD, ROLL = "hold", "roll"

    def __init__(self, target=10, sides=6, turns=30):
        self.target = int_at_least(target, "target", 1)
        self.sides = int_at_least(sides, "sides", 2)
        self.turns = int_at_least(turns, "turns", 1)
        p = 1 / self.sides
        self._faces = tuple(range(1, self.sides + 1))
        self._chances = [(face, p) for face in self._faces]
        self.initial = (0, 0, 0, 0, False)

    def __repr__(self):
        return f"Pig(target={self.target}, sides={self.sides}, turns={self.turns})"

    # -- the protocol ---------------------------------------------------------

    def to_move(self, state):
        """Return CHANCE while the die rolls, else MAX on even turns, MIN on odd."""
        turn, _, _, _, rolling = state
        if rolling:
            return CHANCE
        return MAX if turn % 2 == 0 else MIN

    def is_terminal(self, state):
        """Return True when a player has reached the target or the turns are used up."""
        turn, a, b, _, _ = state
        return a >= self.target or b >= self.target or turn >= self.turns

    def utility(self, state):
        """Return +1 if MAX has won, -1 if MIN has, 0 for a draw at the turn limit.

        Raises
        ------
        ValueError
            If the game is not over.
        """
        if not self.is_terminal(state):
            raise ValueError(f"utility() needs a terminal state, but in Pig state {state!r} "
                             f"({self._text(state)}) the game goes on")
        _, a, b, _, _ = state
        return (a > b) - (a < b)

    def actions(self, state):
        """Return ``['hold', 'roll']`` (only ``['roll']`` at turn total 0), the faces, or ``[]``."""
        turn, _, _, total, rolling = self.check_state(state)
        if self.is_terminal(state):
            return []
        if rolling:
            return list(self._faces)
        return [self.ROLL] if total == 0 else [self.HOLD, self.ROLL]

    def chances(self, state):
        """Return ``[(face, 1 / sides), ...]`` for the faces ``1..sides`` of a roll.

        Raises
        ------
        ValueError
            If ``state`` is not a CHANCE state.
        """
        self.check_state(state)
        if not state[4] or self.is_terminal(state):
            raise ValueError(f"chances() needs a CHANCE state (rolling=True), but in Pig state "
                             f"{state!r} {self.to_move(state)!r} is to move")
        return list(self._chances)

    def result(self, state, move):
        """Return the state after ``move`` (``'roll'``/``'hold'``, or a die face).

        Raises
        ------
        TypeError
            If ``move`` is not a str for a player or not an int for a roll.
        ValueError
            If ``move`` is not legal in ``state``.

        Examples
        --------
        >>> Pig().result((0, 0, 0, 0, False), "hold")  # doctest: +NORMALIZE_WHITESPACE
        Traceback (most recent call last):
        ...
        ValueError: illegal move 'hold' in Pig state (0, 0, 0, 0, False) (turn 1 of 30,
        MAX 0 : MIN 0, turn total 0, max to move); legal moves: ['roll']
        """
        self.check_state(state)
        where = f"Pig state {state!r} ({self._text(state)})"
        legal = self.actions(state)
        if not legal:
            raise ValueError(f"illegal move {move!r} in {where}: the game is over, there are no legal moves")
        if state[4]:
            face = as_int(move, f"in {where} the outcome (a die face 1..{self.sides})")
            if face not in legal:
                raise ValueError(f"illegal outcome {move!r} in {where}: a die face is 1..{self.sides}")
            return self._after_roll(state, face)
        if not isinstance(move, str):
            raise TypeError(f"in {where} a move is 'hold' or 'roll', got {move!r} of type "
                            f"{type(move).__name__}")
        if move not in legal:
            raise ValueError(f"illegal move {move!r} in {where}; legal moves: {legal}")
        return self._after_choice(state, move)

    def successors(self, state):
        """Return ``[(move, next_state), ...]`` in :meth:`actions` order (fast path)."""
        turn, a, b, total, rolling = state
        if a >= self.target or b >= self.target or turn >= self.turns:
            return []
        if rolling:
            return [(f, self._after_roll(state, f)) for f in self._faces]
        if total == 0:
            return [(self.ROLL, (turn, a, b, 0, True))]
        return [(self.HOLD, self._after_choice(state, self.HOLD)), (self.ROLL, (turn, a, b, total, True))]

    def _after_roll(self, state, face):
        turn, a, b, total, _ = state
        if face == 1:
            return (turn + 1, a, b, 0, False)
        total += face
        mine = a if turn % 2 == 0 else b
        if mine + total >= self.target:      # reached the target: the turn ends in a win
            return (turn + 1, a + total, b, 0, False) if turn % 2 == 0 else (turn + 1, a, b + total, 0, False)
        return (turn, a, b, total, False)

    def _after_choice(self, state, move):
        turn, a, b, total, _ = state
        if move == self.ROLL:
            return (turn, a, b, total, True)
        if turn % 2 == 0:
            return (turn + 1, a + total, b, 0, False)
        return (turn + 1, a, b + total, 0, False)

    # -- for people -------------------------------------------------------------

    def display(self, state):
        """Return the scores and whose turn it is, on two lines."""
        turn, a, b, total, rolling = self.check_state(state)
        scores = f"MAX {a} : MIN {b} (target {self.target})"
        if self.is_terminal(state):
            if a == b:
                return f"{scores}\ngame over after {turn} turns: a draw"
            return f"{scores}\ngame over: {'MAX' if a > b else 'MIN'} wins"
        who = "MAX" if turn % 2 == 0 else "MIN"
        if rolling:
            doing = f"{who} rolls the die (turn total {total})"
        elif total == 0:
            doing = f"{who} to roll"
        else:
            doing = f"{who} to move, turn total {total} (hold or roll)"
        return f"{scores}\nturn {turn + 1} of {self.turns}: {doing}"

    def _text(self, state):
        turn, a, b, total, _ = state
        if self.is_terminal(state):
            return f"game over, MAX {a} : MIN {b}"
        return (f"turn {turn + 1} of {self.turns}, MAX {a} : MIN {b}, turn total {total}, "
                f"{self.to_move(state)} to move")

    def check_state(self, state):
        """Return ``state`` if it is a valid state of this game, else raise.

        A valid state has int ``turn`` in ``0..turns``, non-negative int scores
        (at most one at or above the target, and only once the game is over),
        an int ``turn_total`` that, added to the mover's score, stays below the
        target (0 once the game is over), and a bool ``rolling``.

        Examples
        --------
        >>> Pig(target=10).check_state((0, 4, 2, 7, False))  # doctest: +NORMALIZE_WHITESPACE
        Traceback (most recent call last):
        ...
        ValueError: invalid Pig state (0, 4, 2, 7, False): MAX's score 4 plus the turn
        total 7 reaches the target 10, so the turn would already have ended in a win
        """
        check_tuple_state(state, 5, "Pig")
        turn, a, b, total, rolling = state
        form = "(turn, max_score, min_score, turn_total, rolling)"
        for name, value in (("turn", turn), ("max_score", a), ("min_score", b), ("turn_total", total)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"a Pig state is {form} with int {name}, got {state!r}")
            if value < 0:
                raise ValueError(f"invalid Pig state {state!r}: {name} must be >= 0, got {value}")
        if not isinstance(rolling, bool):
            raise TypeError(f"a Pig state is {form} with bool rolling, got {state!r}")
        if turn > self.turns:
            raise ValueError(f"invalid Pig state {state!r}: turn must be 0..{self.turns}")
        if a >= self.target and b >= self.target:
            raise ValueError(f"invalid Pig state {state!r}: both players cannot reach the target "
                             f"{self.target}")
        if self.is_terminal(state):
            if total or rolling:
                raise ValueError(f"invalid Pig state {state!r}: the game is over, so the turn total must "
                                 f"be 0 and nobody rolls")
            winner = MAX if a >= self.target else MIN if b >= self.target else None
            if winner is not None and turn % 2 != (1 if winner == MAX else 0):
                raise ValueError(f"invalid Pig state {state!r}: {winner.upper()} reached the target, so "
                                 f"{winner.upper()} played the last turn and turn must be "
                                 f"{'odd' if winner == MAX else 'even'}")
            return state
        mover, mine = ("MAX", a) if turn % 2 == 0 else ("MIN", b)
        if mine + total >= self.target:
            raise ValueError(f"invalid Pig state {state!r}: {mover}'s score {mine} plus the turn total "
                             f"{total} reaches the target {self.target}, so the turn would already have "
                             "ended in a win")
        if total == 1:
            raise ValueError(f"invalid Pig state {state!r}: a turn total of 1 is impossible "
                             "(a 1 scores nothing)")
        return state
