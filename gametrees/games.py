"""Games that the search algorithms of :mod:`gametrees` can play.

A *game* here is a small protocol (the class :class:`Game` documents it): a start
state, whose turn it is, the legal moves, the state a move leads to, whether a state
is terminal and what it is worth to MAX, and, for games of chance, the outcome
probabilities of a chance state.  The search engine is written once against this
protocol and only ever calls :meth:`Game.to_move`, :meth:`Game.is_terminal`,
:meth:`Game.utility`, :meth:`Game.successors`, :meth:`Game.chances` (and
:meth:`Game.canonical` when it folds symmetric positions together).

Four games implement it:

:class:`TicTacToe`
    Noughts and crosses on bitboards, fast enough to search the full game tree
    through the generic engine in well under a second.
:class:`Nim`
    Take 1, 2 or 3 coins; normal play (taking the last coin wins) or misere
    (taking the last coin loses).
:class:`ConnectFour`
    Gravity four-in-a-row on any board size and any ``k`` in a row, on bitboards.
:class:`DiceGame`
    A small game with chance states (a die roll), for expectimax.

Values are always from MAX's point of view: +1 when MAX wins, 0 for a draw, -1 when
MAX loses (the dice game's utility is a score difference instead).  States are plain,
hashable, immutable tuples, so they can be graph node ids and dictionary keys.

Examples
--------
>>> from gametrees.games import TicTacToe, MAX
>>> game = TicTacToe()
>>> game.to_move(game.initial) == MAX
True
>>> state = game.result(game.result(game.initial, 0), 4)
>>> print(game.display(state))
X..
.O.
...
>>> game.to_move(state)
'max'
"""

import operator
import re

__all__ = [
    "CHANCE",
    "MAX",
    "MIN",
    "ConnectFour",
    "DiceGame",
    "Game",
    "Nim",
    "TicTacToe",
]

#: The role of the first player (X in tic-tac-toe and Connect Four).
MAX = "max"
#: The role of the second player.
MIN = "min"
#: The role of a chance state (the "player" who rolls the die).
CHANCE = "chance"

_OTHER = {MAX: MIN, MIN: MAX}


# ---------------------------------------------------------------------------
# Argument checking shared by the games
# ---------------------------------------------------------------------------


def _as_int(value, what):
    """Return ``value`` as an ``int`` or raise ``TypeError`` naming ``what``.

    Accepts Python ints and integer-like objects (e.g. numpy integers); rejects
    ``bool`` (``True`` is not a sensible column or coin count) and floats.
    """
    if isinstance(value, bool):
        raise TypeError(f"{what} must be an int, got the bool {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(
            f"{what} must be an int, got {value!r} of type {type(value).__name__}"
        ) from None


def _int_arg(value, name, minimum):
    """Validate a constructor argument: an int that is at least ``minimum``."""
    value = _as_int(value, name)
    if value < minimum:
        raise ValueError(f"{name} must be an int >= {minimum}, got {value}")
    return value


def _tuple_state(state, size, what):
    """Check that ``state`` is a tuple of ``size`` items (TypeError/ValueError)."""
    if not isinstance(state, tuple):
        raise TypeError(
            f"a {what} state must be a tuple, got {state!r} of type "
            f"{type(state).__name__}"
        )
    if len(state) != size:
        raise ValueError(
            f"a {what} state must be a tuple of {size} items, got {state!r}"
        )


# ---------------------------------------------------------------------------
# The protocol
# ---------------------------------------------------------------------------


class Game:
    """The game protocol that every search algorithm in :mod:`gametrees` uses.

    Subclasses describe the rules of one game; they never search.  A state is any
    hashable, immutable value (the games in this module use plain tuples).

    Attributes
    ----------
    initial : hashable
        The start state.

    Notes
    -----
    The search engine calls only :meth:`to_move`, :meth:`is_terminal`,
    :meth:`utility`, :meth:`successors`, :meth:`chances` and :meth:`canonical`.
    :meth:`actions` and :meth:`result` are for people: they check their arguments
    and explain what is wrong.  :meth:`successors` is the fast path: its default
    implementation combines :meth:`actions` and :meth:`result`, and the games
    override it to skip the legality checks (the moves come from the rules, so they
    are legal).

    Values are from MAX's point of view: +1 when MAX wins, 0 for a draw, -1 when
    MAX loses, for win/loss games.

    Examples
    --------
    A complete game needs only a handful of methods.  Here is "take the last
    stick", with one or two sticks per move, written from scratch:

    >>> class Sticks(Game):
    ...     initial = (3, MAX)
    ...     def to_move(self, state):
    ...         return state[1]
    ...     def actions(self, state):
    ...         return [n for n in (1, 2) if n <= state[0]]
    ...     def result(self, state, move):
    ...         return (state[0] - move, MIN if state[1] == MAX else MAX)
    ...     def is_terminal(self, state):
    ...         return state[0] == 0
    ...     def utility(self, state):
    ...         return -1 if state[1] == MAX else 1   # the player to move has lost
    >>> game = Sticks()
    >>> game.successors(game.initial)
    [(1, (2, 'min')), (2, (1, 'min'))]
    >>> game.canonical((2, MIN))
    (2, 'min')
    """

    initial = None

    def __repr__(self):
        return f"{type(self).__name__}()"

    def to_move(self, state):
        """Return the role of the player to move in ``state``.

        Parameters
        ----------
        state : hashable
            A state of this game.

        Returns
        -------
        str
            :data:`MAX`, :data:`MIN` or :data:`CHANCE`.
        """
        raise NotImplementedError(f"{type(self).__name__} must define to_move()")

    def actions(self, state):
        """Return the legal moves in ``state``, in a sensible default order.

        For a CHANCE state these are its outcomes; for a terminal state, ``[]``.
        """
        raise NotImplementedError(f"{type(self).__name__} must define actions()")

    def result(self, state, move):
        """Return the state that ``move`` leads to.

        Raises
        ------
        ValueError
            If ``move`` is not legal in ``state`` (the message names the move, the
            state and the legal moves).
        TypeError
            If ``move`` has the wrong type.
        """
        raise NotImplementedError(f"{type(self).__name__} must define result()")

    def is_terminal(self, state):
        """Return True when the game is over in ``state``."""
        raise NotImplementedError(f"{type(self).__name__} must define is_terminal()")

    def utility(self, state):
        """Return the value of the terminal ``state`` for MAX.

        Raises
        ------
        ValueError
            If ``state`` is not terminal.
        """
        raise NotImplementedError(f"{type(self).__name__} must define utility()")

    def chances(self, state):
        """Return ``[(outcome, probability), ...]`` for a CHANCE state.

        The probabilities sum to 1 and the outcomes come in :meth:`actions` order.
        This default serves games without chance: it raises ``ValueError`` for
        every state that is not a CHANCE state.

        Raises
        ------
        ValueError
            If ``state`` is not a CHANCE state.
        """
        role = self.to_move(state)
        if role != CHANCE:
            raise ValueError(
                f"chances() needs a CHANCE state, but in {state!r} it is "
                f"{role!r}'s turn"
            )
        raise NotImplementedError(f"{type(self).__name__} must define chances()")

    def successors(self, state):
        """Return ``[(move, next_state), ...]`` in :meth:`actions` order.

        The default is ``[(m, self.result(state, m)) for m in self.actions(state)]``;
        games override it with a faster version that skips the legality checks.
        """
        return [(move, self.result(state, move)) for move in self.actions(state)]

    def canonical(self, state):
        """Return a representative of ``state``'s symmetry class.

        Two states with the same canonical form have the same value.  The default
        (no symmetry) returns ``state`` itself.
        """
        return state

    def display(self, state):
        """Return a small text picture of ``state`` (default: ``repr(state)``)."""
        return repr(state)


# ---------------------------------------------------------------------------
# Tic-tac-toe
# ---------------------------------------------------------------------------

_TTT_LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),             # diagonals
)
_TTT_LINE_MASKS = tuple(sum(1 << i for i in line) for line in _TTT_LINES)
_TTT_FULL = 0b111111111

#: ``_WINS[bits]`` is True when the 9-bit set ``bits`` contains a whole line.
_WINS = tuple(
    any(bits & mask == mask for mask in _TTT_LINE_MASKS) for bits in range(512)
)

#: ``_EMPTY[occupied]``: the ``(cell, bit)`` pairs of the empty cells, cell order.
_EMPTY = tuple(
    tuple((cell, 1 << cell) for cell in range(9) if not occupied >> cell & 1)
    for occupied in range(512)
)

#: ``_TURN[occupied]``: who moves when these cells are taken (X = MAX moves first).
_TURN = tuple(MAX if occupied.bit_count() % 2 == 0 else MIN for occupied in range(512))

# The 8 symmetries of the square as maps (row, col) -> (row', col').
_TTT_SYMMETRY_MAPS = (
    lambda r, c: (r, c),          # identity
    lambda r, c: (c, 2 - r),      # rotate 90 degrees clockwise
    lambda r, c: (2 - r, 2 - c),  # rotate 180 degrees
    lambda r, c: (2 - c, r),      # rotate 270 degrees clockwise
    lambda r, c: (r, 2 - c),      # mirror left-right
    lambda r, c: (2 - r, c),      # mirror top-bottom
    lambda r, c: (c, r),          # mirror in the main diagonal
    lambda r, c: (2 - c, 2 - r),  # mirror in the anti-diagonal
)


def _permutation_table(sym):
    """The 512-entry table mapping a 9-bit set to its image under ``sym``."""
    image = [3 * r + c for r, c in (sym(cell // 3, cell % 3) for cell in range(9))]
    return tuple(
        sum(1 << image[cell] for cell in range(9) if bits >> cell & 1)
        for bits in range(512)
    )


def _ttt_text(x, o):
    """The one-line notation of the board ``(x, o)``, e.g. ``'X.O/.X./...'``."""
    return "/".join(
        "".join(
            "X" if x >> (3 * r + c) & 1 else "O" if o >> (3 * r + c) & 1 else "."
            for c in range(3)
        )
        for r in range(3)
    )


#: Eight 512-entry tables, one per board symmetry (identity first).
_SYMMETRY_TABLES = tuple(_permutation_table(sym) for sym in _TTT_SYMMETRY_MAPS)

# Move-ordering rank: centre first, then corners, then edges.
_CENTRE_FIRST_RANK = (1, 2, 1, 2, 0, 2, 1, 2, 1)


class TicTacToe(Game):
    """Tic-tac-toe (noughts and crosses) on bitboards.

    X is MAX and moves first; O is MIN.  A move is a cell index 0..8, read row by
    row from the top left::

        0 1 2
        3 4 5
        6 7 8

    A state is the plain tuple ``(x_bits, o_bits)``: two 9-bit ints where bit
    ``1 << cell`` is set when X (resp. O) has a mark in ``cell``.  The empty board
    is ``(0, 0)``.  Whose turn it is follows from the number of marks.  The
    utility is +1 when X has three in a row, -1 when O has, 0 for a full board
    without a line.

    Positions can be written in a compact text notation (see :meth:`from_string`):
    three rows, top to bottom, separated by ``/``, with ``X``, ``O`` and ``.``.

    Examples
    --------
    >>> game = TicTacToe()
    >>> game.actions(game.initial)
    [0, 1, 2, 3, 4, 5, 6, 7, 8]
    >>> state = TicTacToe.from_string("XX./OO./...")
    >>> game.to_move(state)
    'max'
    >>> won = game.result(state, 2)
    >>> game.is_terminal(won), game.utility(won)
    (True, 1)
    >>> print(game.display(won))
    XXX
    OO.
    ...
    >>> TicTacToe.centre_first(game.initial, game.actions(game.initial))
    [4, 0, 2, 6, 8, 1, 3, 5, 7]
    >>> game.canonical(TicTacToe.from_string("..X/.../...")) == game.canonical(
    ...     TicTacToe.from_string("X../.../..."))
    True
    """

    initial = (0, 0)

    # -- the protocol --------------------------------------------------------

    def to_move(self, state):
        """Return MAX (X) when X is to move, else MIN (O).

        Examples
        --------
        >>> TicTacToe().to_move(TicTacToe.from_string("X../.../..."))
        'min'
        """
        x, o = state
        return _TURN[x | o]

    def actions(self, state):
        """Return the empty cells in increasing order, or ``[]`` if the game is over.

        Examples
        --------
        >>> TicTacToe().actions(TicTacToe.from_string("XOX/OXO/.X."))
        [6, 8]
        """
        x, o = self._check(state)
        if _WINS[x] or _WINS[o]:
            return []
        return [cell for cell, _ in _EMPTY[x | o]]

    def result(self, state, move):
        """Return the state after the player to move marks cell ``move``.

        Raises
        ------
        TypeError
            If ``move`` is not an int.
        ValueError
            If ``move`` is not a cell 0..8, the cell is taken or the game is over.

        Examples
        --------
        >>> game = TicTacToe()
        >>> game.result(game.initial, 4)
        (16, 0)
        >>> game.result((16, 0), 4)  # doctest: +NORMALIZE_WHITESPACE
        Traceback (most recent call last):
        ...
        ValueError: illegal move 4 in tic-tac-toe position '.../.X./...':
        cell 4 is already taken; legal moves: [0, 1, 2, 3, 5, 6, 7, 8]
        """
        x, o = self._check(state)
        cell = _as_int(move, "a tic-tac-toe move (a cell index 0..8)")
        legal = self.actions(state)
        if cell not in legal:
            where = f"illegal move {move!r} in tic-tac-toe position {self.to_string(state)!r}"
            if not legal:
                raise ValueError(f"{where}: the game is over, there are no legal moves")
            if not 0 <= cell <= 8:
                reason = "a move must be a cell index 0..8"
            else:
                reason = f"cell {cell} is already taken"
            raise ValueError(f"{where}: {reason}; legal moves: {legal}")
        bit = 1 << cell
        if _TURN[x | o] == MAX:
            return (x | bit, o)
        return (x, o | bit)

    def is_terminal(self, state):
        """Return True when X or O has three in a row or the board is full."""
        x, o = state
        return _WINS[x] or _WINS[o] or x | o == _TTT_FULL

    def utility(self, state):
        """Return +1 if X has won, -1 if O has won, 0 for a draw.

        Raises
        ------
        ValueError
            If the game is not over in ``state``.
        """
        x, o = state
        if _WINS[x]:
            return 1
        if _WINS[o]:
            return -1
        if x | o == _TTT_FULL:
            return 0
        raise ValueError(
            f"utility() needs a terminal state, but tic-tac-toe position "
            f"{self.to_string(state)!r} is not over"
        )

    def successors(self, state):
        """Return ``[(cell, next_state), ...]`` for the empty cells, in cell order.

        The fast path for search: ``state`` is assumed to be a valid position.
        Returns ``[]`` when the game is over.
        """
        x, o = state
        if _WINS[x] or _WINS[o]:
            return []
        empty = _EMPTY[x | o]
        if len(empty) & 1:  # an odd number of empty cells: X to move
            return [(cell, (x | bit, o)) for cell, bit in empty]
        return [(cell, (x, o | bit)) for cell, bit in empty]

    def canonical(self, state):
        """Return the smallest of the 8 symmetric images of ``state``.

        Examples
        --------
        >>> game = TicTacToe()
        >>> corners = [TicTacToe.from_string(s) for s in
        ...            ("X../.../...", "..X/.../...", ".../.../X..", ".../.../..X")]
        >>> len({game.canonical(s) for s in corners})
        1
        """
        x, o = state
        return min([(table[x], table[o]) for table in _SYMMETRY_TABLES])

    def display(self, state):
        """Return the board as 3 lines of ``X``, ``O`` and ``.`` (empty).

        Examples
        --------
        >>> print(TicTacToe().display((0b000010001, 0b000000100)))
        X.O
        .X.
        ...
        """
        return self.to_string(state).replace("/", "\n")

    # -- helpers -------------------------------------------------------------

    @staticmethod
    def symmetries(state):
        """Return the 8 images of ``state`` under the symmetries of the square.

        The order is: identity, rotations by 90, 180 and 270 degrees clockwise,
        mirror left-right, mirror top-bottom, mirror in the main diagonal, mirror in
        the anti-diagonal.  Images may repeat when ``state`` is itself symmetric.

        Examples
        --------
        >>> images = TicTacToe.symmetries(TicTacToe.from_string("X../.../..."))
        >>> [TicTacToe.to_string(s) for s in images[:4]]
        ['X../.../...', '..X/.../...', '.../.../..X', '.../.../X..']
        """
        x, o = state
        return [(table[x], table[o]) for table in _SYMMETRY_TABLES]

    @staticmethod
    def centre_first(state, moves):
        """Order ``moves`` centre first, then corners, then edges (stable).

        A move-ordering helper for alpha-beta: ``state`` is not needed for
        tic-tac-toe but is part of the ordering-function signature
        ``order(state, moves)``.  ``moves`` may also be ``(move, next_state)`` pairs
        as returned by :meth:`successors`; they are ordered by their move.

        Examples
        --------
        >>> TicTacToe.centre_first((0, 0), [1, 2, 3, 4])
        [4, 2, 1, 3]
        """
        return sorted(
            moves,
            key=lambda m: _CENTRE_FIRST_RANK[m[0] if isinstance(m, tuple) else m],
        )

    @staticmethod
    def to_string(state):
        """Return the one-line notation of ``state``, e.g. ``'X.O/.X./...'``.

        The inverse of :meth:`from_string`.
        """
        return _ttt_text(*TicTacToe._check(state))

    @classmethod
    def from_string(cls, text):
        """Return the state written in the tic-tac-toe notation ``text``.

        The notation has three rows, top to bottom, separated by ``/`` or by line
        breaks (so :meth:`display` output reads back), each of three characters:
        ``X`` (or ``x``), ``O`` (or ``o``) or ``.`` for an empty cell.  Spaces
        around rows are ignored.

        Parameters
        ----------
        text : str
            For example ``"X.O/.X./..."``.

        Returns
        -------
        tuple of int
            The state ``(x_bits, o_bits)``.

        Raises
        ------
        TypeError
            If ``text`` is not a string.
        ValueError
            If the text is not three rows of three cells, uses another character,
            or describes a position that cannot arise in a game (X moves first, so X
            has as many marks as O or one more; play stops at the first line).

        Examples
        --------
        >>> TicTacToe.from_string("X.O/.X./...")
        (17, 4)
        >>> TicTacToe.from_string("XX./.../...")  # doctest: +NORMALIZE_WHITESPACE
        Traceback (most recent call last):
        ...
        ValueError: impossible tic-tac-toe position 'XX./.../...': X has 2 marks and
        O has 0, but X moves first, so X must have as many marks as O or one more
        """
        if not isinstance(text, str):
            raise TypeError(
                f"from_string() needs a str like 'X.O/.X./...', got {text!r} of type "
                f"{type(text).__name__}"
            )
        rows = [row.strip() for row in re.split(r"/|\r?\n", text.strip())]
        if len(rows) != 3 or any(len(row) != 3 for row in rows):
            raise ValueError(
                f"a tic-tac-toe position must be 3 rows of 3 cells separated by '/' "
                f"(e.g. 'X.O/.X./...'), got {text!r}"
            )
        x = o = 0
        for r, row in enumerate(rows):
            for c, char in enumerate(row):
                bit = 1 << (3 * r + c)
                if char in "Xx":
                    x |= bit
                elif char in "Oo":
                    o |= bit
                elif char != ".":
                    raise ValueError(
                        f"bad character {char!r} at row {r}, column {c} of {text!r}: "
                        f"use 'X', 'O' or '.' (empty)"
                    )
        return cls._check((x, o))

    @staticmethod
    def _check(state):
        """Return ``state`` if it is a reachable position, else raise."""
        _tuple_state(state, 2, "tic-tac-toe")
        x, o = state
        for name, bits in (("x_bits", x), ("o_bits", o)):
            if isinstance(bits, bool) or not isinstance(bits, int):
                raise TypeError(
                    f"a tic-tac-toe state is (x_bits, o_bits) with two ints 0..511, "
                    f"got {name}={bits!r}"
                )
            if not 0 <= bits <= _TTT_FULL:
                raise ValueError(
                    f"a tic-tac-toe state is (x_bits, o_bits) with two ints 0..511, "
                    f"got {name}={bits!r}"
                )
        if x & o:
            raise ValueError(
                f"invalid tic-tac-toe state {state!r}: X and O share cells "
                f"(bits {x & o:#b})"
            )
        nx, no = x.bit_count(), o.bit_count()
        problem = None
        if nx - no not in (0, 1):
            problem = (
                f"X has {nx} marks and O has {no}, but X moves first, so X must have "
                f"as many marks as O or one more"
            )
        elif _WINS[x] and _WINS[o]:
            problem = "both X and O have three in a row, but play stops at the first line"
        elif _WINS[x] and nx == no:
            problem = "X has three in a row but O moved afterwards"
        elif _WINS[o] and nx != no:
            problem = "O has three in a row but X moved afterwards"
        if problem:
            raise ValueError(f"impossible tic-tac-toe position {_ttt_text(x, o)!r}: {problem}")
        return state


# ---------------------------------------------------------------------------
# Nim
# ---------------------------------------------------------------------------


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
        self.coins = _int_arg(coins, "coins", 0)
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
        coins, _ = self._check(state)
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
        coins, player = self._check(state)
        take = _as_int(move, "a Nim move (the number of coins to take, 1..3)")
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
        coins, player = self._check(state)
        pile = "o" * coins if coins else "(empty)"
        count = f"  ({coins} coin{'s' if coins != 1 else ''})" if coins else ""
        if coins:
            return f"{pile}{count}\n{player} to move"
        winner = player if self.misere else _OTHER[player]
        return f"{pile}\ngame over: {winner} wins"

    @staticmethod
    def _check(state):
        _tuple_state(state, 2, "Nim")
        coins, player = state
        if isinstance(coins, bool) or not isinstance(coins, int):
            raise TypeError(f"a Nim state is (coins, player) with int coins, got {state!r}")
        if coins < 0:
            raise ValueError(f"a Nim state cannot have negative coins, got {state!r}")
        if player not in _OTHER:
            raise ValueError(
                f"a Nim state is (coins, player) with player {MAX!r} or {MIN!r}, "
                f"got {state!r}"
            )
        return state


# ---------------------------------------------------------------------------
# Connect Four
# ---------------------------------------------------------------------------


class ConnectFour(Game):
    """Connect Four (gravity k-in-a-row) on bitboards, for any board size.

    X is MAX and moves first; O is MIN.  A move is a column index ``0..cols-1``;
    the piece drops to the lowest empty cell of that column.  A player who gets
    ``k`` pieces in a row (vertically, horizontally or diagonally) wins; a full
    board without such a row is a draw.

    A state is the plain tuple ``(x_bits, o_bits)`` of two ints (bitboards in the
    style of John Tromp and Pascal Pons): column ``c`` uses bits
    ``c * (rows + 1)`` to ``c * (rows + 1) + rows - 1``, bottom to top, so the cell
    at ``row`` (0 = bottom) and ``col`` is bit ``1 << (col * (rows + 1) + row)``.
    The extra, always-empty bit on top of every column stops lines from wrapping
    around from one column into the next.  The empty board is ``(0, 0)``.

    Parameters
    ----------
    rows : int, default 6
        Board height, ``>= 1``.
    cols : int, default 7
        Board width, ``>= 1``.
    k : int, default 4
        Pieces in a row needed to win, ``1 <= k <= max(rows, cols)``.

    Examples
    --------
    >>> game = ConnectFour()
    >>> state = game.from_moves([3, 3, 4, 4, 5, 5])
    >>> print(game.display(state))
    |.......|
    |.......|
    |.......|
    |.......|
    |...OOO.|
    |...XXX.|
    +-------+
     0123456
    >>> game.centre_first(state, game.actions(state))
    [3, 2, 4, 1, 5, 0, 6]
    >>> won = game.result(state, 6)
    >>> game.is_terminal(won), game.utility(won)
    (True, 1)
    >>> game.cell(won, 0, 6), game.cell(won, 1, 6)
    ('X', None)
    """

    def __init__(self, rows=6, cols=7, k=4):
        self.rows = _int_arg(rows, "rows", 1)
        self.cols = _int_arg(cols, "cols", 1)
        self.k = _int_arg(k, "k", 1)
        if self.k > max(self.rows, self.cols):
            raise ValueError(
                f"k must be <= max(rows, cols) = {max(self.rows, self.cols)} so that a "
                f"row of k fits on the {self.rows}x{self.cols} board, got k={self.k}"
            )
        rows, cols, k = self.rows, self.cols, self.k
        height = rows + 1  # bits per column, one sentinel bit on top
        self._height = height
        column = (1 << rows) - 1  # the playable bits of column 0
        self._column = column
        self._bottom = tuple(1 << (c * height) for c in range(cols))
        self._top = tuple(1 << (c * height + rows - 1) for c in range(cols))
        self._full = sum(column << (c * height) for c in range(cols))
        # (column, bottom bit, top bit) in move order, for successors().
        self._columns = tuple(zip(range(cols), self._bottom, self._top))
        # Win test: for each direction (shift d) in which k fits, a plan of shifts;
        # m &= m >> s for each s turns "bits" into "first cells of k in a row".
        # Run lengths double (1, 2, 4, ...) and a last overlapping step reaches k.
        directions = []
        if rows >= k:
            directions.append(1)  # vertical
        if cols >= k:
            directions.append(height)  # horizontal
        if rows >= k and cols >= k:
            directions.append(height + 1)  # diagonal /
            directions.append(height - 1)  # diagonal \
        self._directions = tuple(directions)  # bit steps of the directions a line fits in
        plans = []
        for d in directions:
            steps, length = [], 1
            while 2 * length <= k:
                steps.append(length * d)
                length *= 2
            if length < k:
                steps.append((k - length) * d)
            plans.append(tuple(steps))
        self._plans = tuple(plans)
        self._mirror_shifts = tuple(
            (c * height, (cols - 1 - c) * height) for c in range(cols)
        )
        self._order = tuple(sorted(range(cols), key=lambda c: (abs(2 * c - (cols - 1)), c)))
        self._rank = tuple(self._order.index(c) for c in range(cols))
        self.initial = (0, 0)

    def __repr__(self):
        return f"ConnectFour(rows={self.rows}, cols={self.cols}, k={self.k})"

    # -- the protocol --------------------------------------------------------

    def _has_line(self, bits):
        """Return True when ``bits`` contain k in a row in some direction."""
        for steps in self._plans:
            m = bits
            for s in steps:
                m &= m >> s
            if m:
                return True
        return False

    def to_move(self, state):
        """Return MAX (X) when both have as many pieces, else MIN (O)."""
        x, o = state
        return MAX if x.bit_count() == o.bit_count() else MIN

    def actions(self, state):
        """Return the columns that are not full, left to right (``[]`` if over).

        Examples
        --------
        >>> game = ConnectFour(rows=2, cols=3, k=2)
        >>> game.actions(game.from_moves([0, 0]))
        [1, 2]
        """
        self._check(state)
        if self.is_terminal(state):
            return []
        occupied = state[0] | state[1]
        return [c for c, _, top in self._columns if not occupied & top]

    def result(self, state, move):
        """Return the state after the player to move drops a piece in column ``move``.

        Raises
        ------
        TypeError
            If ``move`` is not an int.
        ValueError
            If ``move`` is not a column ``0..cols-1``, the column is full, or the
            game is over.

        Examples
        --------
        >>> game = ConnectFour(rows=2, cols=3, k=2)
        >>> game.result(game.from_moves([0, 0]), 0)  # doctest: +NORMALIZE_WHITESPACE
        Traceback (most recent call last):
        ...
        ValueError: illegal move 0 in Connect Four position 'O../X..':
        column 0 is full; legal moves: [1, 2]
        """
        x, o = self._check(state)
        col = _as_int(move, f"a Connect Four move (a column index 0..{self.cols - 1})")
        legal = self.actions(state)
        if col not in legal:
            where = f"illegal move {move!r} in Connect Four position {self._text(state)!r}"
            if not legal:
                raise ValueError(f"{where}: the game is over, there are no legal moves")
            if not 0 <= col < self.cols:
                reason = f"a move must be a column 0..{self.cols - 1}"
            else:
                reason = f"column {col} is full"
            raise ValueError(f"{where}: {reason}; legal moves: {legal}")
        occupied = x | o
        bit = (occupied + self._bottom[col]) & ~occupied  # lowest empty cell
        if x.bit_count() == o.bit_count():
            return (x | bit, o)
        return (x, o | bit)

    def is_terminal(self, state):
        """Return True when someone has k in a row or the board is full.

        Only the player who moved last can have a line in a valid position (play
        stops at the first line), so only that player's pieces are tested.
        """
        x, o = state
        if (x | o) == self._full:
            return True
        return self._has_line(x if x.bit_count() != o.bit_count() else o)

    def utility(self, state):
        """Return +1 if X has k in a row, -1 if O has, 0 for a full board.

        Raises
        ------
        ValueError
            If the game is not over in ``state``.
        """
        x, o = state
        if self._has_line(x):
            return 1
        if self._has_line(o):
            return -1
        if (x | o) == self._full:
            return 0
        raise ValueError(
            f"utility() needs a terminal state, but Connect Four position "
            f"{self._text(state)!r} is not over"
        )

    def successors(self, state):
        """Return ``[(col, next_state), ...]`` for the open columns, left to right.

        The fast path for search: ``state`` is assumed to be a valid position.
        Returns ``[]`` when the game is over.
        """
        x, o = state
        occupied = x | o
        x_to_move = x.bit_count() == o.bit_count()
        # Only the player who moved last can have a line (see is_terminal).
        if occupied == self._full or self._has_line(o if x_to_move else x):
            return []
        free = ~occupied
        if x_to_move:
            return [
                (c, (x | ((occupied + bottom) & free), o))
                for c, bottom, top in self._columns
                if not occupied & top
            ]
        return [
            (c, (x, o | ((occupied + bottom) & free)))
            for c, bottom, top in self._columns
            if not occupied & top
        ]

    def canonical(self, state):
        """Return the smaller of ``state`` and its left-right mirror image."""
        mirrored = self.mirror(state)
        return min(state, mirrored)

    def display(self, state):
        """Return the board in a frame, top row first, over the column numbers.

        Empty cells are ``.``; the column numbers are written modulo 10.

        Examples
        --------
        >>> game = ConnectFour(rows=3, cols=4, k=3)
        >>> print(game.display(game.from_moves([1, 2, 1])))
        |....|
        |.X..|
        |.XO.|
        +----+
         0123
        """
        self._check(state)
        lines = [f"|{row}|" for row in self._text(state).split("/")]
        lines.append("+" + "-" * self.cols + "+")
        lines.append(" " + "".join(str(c % 10) for c in range(self.cols)))
        return "\n".join(lines)

    # -- helpers -------------------------------------------------------------

    def _text(self, state):
        """The rows of the board, top first, joined by ``/`` (for messages)."""
        x, o = state
        h = self._height
        rows = []
        for r in reversed(range(self.rows)):
            row = ""
            for c in range(self.cols):
                bit = 1 << (c * h + r)
                row += "X" if x & bit else "O" if o & bit else "."
            rows.append(row)
        return "/".join(rows)

    def cell(self, state, row, col):
        """Return ``'X'``, ``'O'`` or ``None`` (empty) for a cell; row 0 is the bottom.

        Raises
        ------
        TypeError
            If ``row`` or ``col`` is not an int.
        ValueError
            If ``row`` or ``col`` is off the board.

        Examples
        --------
        >>> game = ConnectFour()
        >>> state = game.from_moves([3, 3])
        >>> game.cell(state, 0, 3), game.cell(state, 1, 3), game.cell(state, 2, 3)
        ('X', 'O', None)
        """
        x, o = self._check(state)
        row = _as_int(row, "row")
        col = _as_int(col, "col")
        if not 0 <= row < self.rows:
            raise ValueError(f"row must be 0..{self.rows - 1} (0 = bottom), got {row}")
        if not 0 <= col < self.cols:
            raise ValueError(f"col must be 0..{self.cols - 1}, got {col}")
        bit = 1 << (col * self._height + row)
        if x & bit:
            return "X"
        if o & bit:
            return "O"
        return None

    def from_moves(self, moves):
        """Return the state reached by playing the columns ``moves`` from the start.

        Each move is checked as by :meth:`result`; the error says which move of
        the list (counting from 0) was illegal.

        Examples
        --------
        >>> game = ConnectFour(rows=4, cols=4, k=3)
        >>> game.from_moves([0, 1, 0])
        (3, 32)
        >>> game.from_moves([0, 0, 0, 0, 0])  # doctest: +NORMALIZE_WHITESPACE
        Traceback (most recent call last):
        ...
        ValueError: move #4 of [0, 0, 0, 0, 0]: illegal move 0 in Connect Four position
        'O.../X.../O.../X...': column 0 is full; legal moves: [1, 2, 3]
        """
        moves = list(moves)
        state = self.initial
        for i, move in enumerate(moves):
            try:
                state = self.result(state, move)
            except (TypeError, ValueError) as error:
                raise type(error)(f"move #{i} of {moves!r}: {error}") from None
        return state

    def mirror(self, state):
        """Return the left-right mirror image of ``state``.

        Examples
        --------
        >>> game = ConnectFour(rows=2, cols=3, k=2)
        >>> game.mirror(game.from_moves([0])) == game.from_moves([2])
        True
        """
        x, o = state
        column = self._column
        mx = mo = 0
        for shift, target in self._mirror_shifts:
            mx |= ((x >> shift) & column) << target
            mo |= ((o >> shift) & column) << target
        return (mx, mo)

    def centre_first(self, state, moves):
        """Order ``moves`` (columns) from the centre outwards, left before right.

        On 7 columns: 3, 2, 4, 1, 5, 0, 6.  ``moves`` may also be
        ``(move, next_state)`` pairs as returned by :meth:`successors`.

        Examples
        --------
        >>> game = ConnectFour(rows=4, cols=4, k=3)
        >>> game.centre_first(game.initial, [0, 1, 2, 3])
        [1, 2, 0, 3]
        """
        rank = self._rank
        return sorted(moves, key=lambda m: rank[m[0] if isinstance(m, tuple) else m])

    def _check(self, state):
        """Return ``state`` if it is a consistent position, else raise."""
        _tuple_state(state, 2, "Connect Four")
        x, o = state
        for name, bits in (("x_bits", x), ("o_bits", o)):
            if isinstance(bits, bool) or not isinstance(bits, int):
                raise TypeError(
                    f"a Connect Four state is (x_bits, o_bits) with two int bitboards, "
                    f"got {name}={bits!r}"
                )
            if bits < 0 or bits & ~self._full:
                raise ValueError(
                    f"{name}={bits!r} has bits outside the {self.rows}x{self.cols} board"
                )
        if x & o:
            raise ValueError(
                f"invalid Connect Four state {state!r}: X and O share cells"
            )
        occupied = x | o
        for c in range(self.cols):
            stack = (occupied >> (c * self._height)) & self._column
            if stack & (stack + 1):
                raise ValueError(
                    f"invalid Connect Four state {state!r}: column {c} has a piece "
                    f"floating above an empty cell"
                )
        nx, no = x.bit_count(), o.bit_count()
        if nx - no not in (0, 1):
            raise ValueError(
                f"invalid Connect Four state {state!r}: X has {nx} pieces and O has "
                f"{no}, but X moves first, so X must have as many as O or one more"
            )
        # Play stops at the first line, so only the last mover may have one.
        if nx == no and self._has_line(x):
            raise ValueError(
                f"invalid Connect Four position {self._text(state)!r}: X has "
                f"{self.k} in a row but O moved afterwards"
            )
        if nx != no and self._has_line(o):
            raise ValueError(
                f"invalid Connect Four position {self._text(state)!r}: O has "
                f"{self.k} in a row but X moved afterwards"
            )
        return state


# ---------------------------------------------------------------------------
# A dice game for expectimax
# ---------------------------------------------------------------------------


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
        self.rounds = _int_arg(rounds, "rounds", 1)
        self.safe = _int_arg(safe, "safe", 0)
        self.sides = _int_arg(sides, "sides", 2)
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
        face = _as_int(face, "a die face")
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
        turn, _, _, rolling = self._check(state)
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
        turn, a, b, rolling = self._check(state)
        where = f"dice game state ({self._text(state)})"
        legal = self.actions(state)
        if rolling:
            face = _as_int(move, f"in {where} the outcome (a die face 1..{self.sides})")
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
        turn, a, b, rolling = self._check(state)
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

    def _check(self, state):
        _tuple_state(state, 4, "dice game")
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
