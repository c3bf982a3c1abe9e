"""Tic-tac-toe on bitboards, and the bit tables that make it fast.

:class:`TicTacToe` is the game.  The board tables are public for the evaluation
functions that read the same bitboards: :data:`LINE_MASKS` (the 8 winning lines
as 9-bit masks), :data:`FULL_BOARD` (every cell taken) and
:data:`WINNING_BOARDS` (``WINNING_BOARDS[bits]``: does this set of cells hold a
whole line?).

Imports: :mod:`gametrees.games.protocol` only (and the standard library).
"""

import re

from .protocol import MAX, MIN, Game, as_int, check_tuple_state

__all__ = ["FULL_BOARD", "LINE_MASKS", "WINNING_BOARDS", "TicTacToe"]

_TTT_LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),             # diagonals
)
#: The 8 winning lines as 9-bit masks (rows, columns, diagonals): cell ``i`` is
#: bit ``1 << i``.
LINE_MASKS = tuple(sum(1 << i for i in line) for line in _TTT_LINES)
#: The 9-bit mask of the whole board (every cell taken).
FULL_BOARD = 0b111111111

#: ``WINNING_BOARDS[bits]`` is True when the 9-bit set ``bits`` contains a whole
#: line (512 entries, one per set of cells).
WINNING_BOARDS = tuple(
    any(bits & mask == mask for mask in LINE_MASKS) for bits in range(512)
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
    #: Methods whose answer depends only on their arguments (nothing is recorded): a proxy of this game in
    #: another process may answer a repeated call itself (see gametrees.classroom.sandbox.pure_methods).
    PURE_METHODS = ("is_terminal", "to_move", "actions", "result", "utility")

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
        x, o = self.check_state(state)
        if WINNING_BOARDS[x] or WINNING_BOARDS[o]:
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
        x, o = self.check_state(state)
        cell = as_int(move, "a tic-tac-toe move (a cell index 0..8)")
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
        return WINNING_BOARDS[x] or WINNING_BOARDS[o] or x | o == FULL_BOARD

    def utility(self, state):
        """Return +1 if X has won, -1 if O has won, 0 for a draw.

        Raises
        ------
        ValueError
            If the game is not over in ``state``.
        """
        x, o = state
        if WINNING_BOARDS[x]:
            return 1
        if WINNING_BOARDS[o]:
            return -1
        if x | o == FULL_BOARD:
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
        if WINNING_BOARDS[x] or WINNING_BOARDS[o]:
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
        return _ttt_text(*TicTacToe.check_state(state))

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
        return cls.check_state((x, o))

    @staticmethod
    def check_state(state):
        """Return ``state`` if it is a reachable position, else raise."""
        if isinstance(state, str):
            raise TypeError(
                f"a tic-tac-toe state must be a tuple (x_bits, o_bits), got the str {state!r}: "
                f"TicTacToe.from_string('X.O/.X./...') reads a board written as text"
            )
        check_tuple_state(state, 2, "tic-tac-toe", "(x_bits, o_bits)")
        x, o = state
        for name, bits in (("x_bits", x), ("o_bits", o)):
            if isinstance(bits, bool) or not isinstance(bits, int):
                raise TypeError(
                    f"a tic-tac-toe state is (x_bits, o_bits) with two ints 0..511 "
                    f"(one bit per cell of the 3x3 board), got {name}={bits!r}"
                )
            if not 0 <= bits <= FULL_BOARD:
                raise ValueError(
                    f"a tic-tac-toe state is (x_bits, o_bits) with two ints 0..511 "
                    f"(one bit per cell of the 3x3 board), got {name}={bits!r}"
                )
        if x & o:
            cells = [cell for cell in range(9) if (x & o) >> cell & 1]
            which = f"cell {cells[0]}" if len(cells) == 1 else f"cells {cells}"
            raise ValueError(
                f"invalid tic-tac-toe state {state!r}: X and O share {which} (both "
                f"have a mark on the same cell)"
            )
        nx, no = x.bit_count(), o.bit_count()
        problem = None
        if nx - no not in (0, 1):
            problem = (
                f"X has {nx} marks and O has {no}, but X moves first, so X must have "
                f"as many marks as O or one more"
            )
        elif WINNING_BOARDS[x] and WINNING_BOARDS[o]:
            problem = "both X and O have three in a row, but play stops at the first line"
        elif WINNING_BOARDS[x] and nx == no:
            problem = "X has three in a row but O moved afterwards"
        elif WINNING_BOARDS[o] and nx != no:
            problem = "O has three in a row but X moved afterwards"
        if problem:
            raise ValueError(f"impossible tic-tac-toe position {_ttt_text(x, o)!r}: {problem}")
        return state
