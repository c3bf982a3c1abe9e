"""One-pile Nim: take 1, 2 or 3 coins; normal or misere play.

Imports: :mod:`gametrees.games.protocol` only.
"""

from .protocol import MAX, MIN, Game, as_int, check_tuple_state, int_at_least

__all__ = ["Nim"]

_OTHER = {MAX: MIN, MIN: MAX}

_NIM_TAKES = (1, 2, 3)  # the numbers of coins a move may take


class Nim(Game):
    """One-pile Nim: take 1, 2 or 3 coins per move.

    A state is the plain tuple ``(coins, player)``: the coins left and the role
    (:data:`MAX` or :data:`MIN`) of the player to move.  A move is the number of
    coins taken, 1, 2 or 3, never more than are left.  The game ends when no coins
    are left.  In normal play whoever takes the last coin wins; in misere play
    whoever takes the last coin loses.

    Parameters
    ----------
    coins : int, default 5
        Coins on the table at the start (``>= 0``); MAX moves first.
    misere : bool, default False
        Play the misere variant (taking the last coin loses).

    Examples
    --------
    >>> game = Nim(coins=5)
    >>> game.initial
    (5, 'max')
    >>> game.actions(game.initial)
    [1, 2, 3]
    >>> game.successors((2, 'min'))
    [(1, (1, 'max')), (2, (0, 'max'))]
    >>> game.utility((0, 'max'))   # MIN took the last coin: MIN wins
    -1
    >>> Nim(coins=5, misere=True).utility((0, 'max'))
    1
    """

    def __init__(self, coins=5, misere=False):
        self.coins = int_at_least(coins, "coins", 0)
        if not isinstance(misere, bool):
            raise TypeError(f"misere must be True or False, got {misere!r}")
        self.misere = misere
        self.initial = (self.coins, MAX)

    def __repr__(self):
        return f"Nim(coins={self.coins}, misere={self.misere})"

    def to_move(self, state):
        """Return the role of the player to move (the second item of the state)."""
        return state[1]

    def actions(self, state):
        """Return the numbers of coins that may be taken, ``[1, 2, 3]`` or fewer.

        Examples
        --------
        >>> Nim().actions((2, 'max'))
        [1, 2]
        """
        coins, _ = self.check_state(state)
        return [take for take in _NIM_TAKES if take <= coins]

    def result(self, state, move):
        """Return the state after the player to move takes ``move`` coins.

        Raises
        ------
        TypeError
            If ``move`` is not an int.
        ValueError
            If ``move`` is not 1, 2 or 3, or more than the coins left.

        Examples
        --------
        >>> Nim().result((5, 'max'), 3)
        (2, 'min')
        >>> Nim().result((2, 'max'), 3)  # doctest: +NORMALIZE_WHITESPACE
        Traceback (most recent call last):
        ...
        ValueError: illegal move 3 in Nim state (2 coins, max to move):
        only 2 coins are left; legal moves: [1, 2]
        """
        coins, player = self.check_state(state)
        take = as_int(move, "a Nim move (the number of coins to take, 1..3)")
        legal = self.actions(state)
        if take not in legal:
            where = f"illegal move {move!r} in Nim state ({coins} coins, {player} to move)"
            if not legal:
                raise ValueError(f"{where}: the game is over, there are no legal moves")
            if take not in _NIM_TAKES:
                reason = "a move takes 1 to 3 coins"
            else:
                reason = "only 1 coin is left" if coins == 1 else f"only {coins} coins are left"
            raise ValueError(f"{where}: {reason}; legal moves: {legal}")
        return (coins - take, _OTHER[player])

    def is_terminal(self, state):
        """Return True when no coins are left."""
        return state[0] == 0

    def utility(self, state):
        """Return +1 if MAX has won, -1 if MIN has won (there are no draws).

        In normal play the player to move at the end has lost (the opponent took
        the last coin); in misere play that player has won.

        Raises
        ------
        ValueError
            If coins are left.
        """
        coins, player = state
        if coins != 0:
            raise ValueError(
                f"utility() needs a terminal state, but Nim state {state!r} still "
                f"has {coins} coins"
            )
        mover_wins = self.misere
        return 1 if (player == MAX) == mover_wins else -1

    def successors(self, state):
        """Return ``[(take, next_state), ...]`` for take = 1, 2, 3 (fast path)."""
        coins, player = state
        nxt = _OTHER[player]
        return [(take, (coins - take, nxt)) for take in _NIM_TAKES if take <= coins]

    def display(self, state):
        """Return the pile as a row of ``o`` characters and whose turn it is.

        Examples
        --------
        >>> print(Nim().display((3, 'min')))
        ooo  (3 coins)
        min to move
        """
        coins, player = self.check_state(state)
        pile = "o" * coins if coins else "(empty)"
        count = f"  ({coins} coin{'s' if coins != 1 else ''})" if coins else ""
        if coins:
            return f"{pile}{count}\n{player} to move"
        winner = player if self.misere else _OTHER[player]
        return f"{pile}\ngame over: {winner} wins"

    @staticmethod
    def check_state(state):
        """Return ``state`` if it is a valid Nim state, else raise (TypeError/ValueError)."""
        check_tuple_state(state, 2, "Nim", "(coins, player)")
        coins, player = state
        if isinstance(coins, bool) or not isinstance(coins, int):
            raise TypeError(f"a Nim state is (coins, player) with int coins, got {state!r}")
        if coins < 0:
            raise ValueError(
                f"a Nim state's coins must be 0 or more (never negative), got {state!r}"
            )
        if player not in _OTHER:
            raise ValueError(
                f"a Nim state is (coins, player) with player {MAX!r} or {MIN!r}, "
                f"got {state!r}"
            )
        return state
