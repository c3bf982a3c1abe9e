"""Connect Four (gravity k-in-a-row) on bitboards, for any board size.

Imports: :mod:`gametrees.games.protocol` only.
"""

from .protocol import MAX, MIN, Game, as_int, check_tuple_state, int_at_least

__all__ = ["ConnectFour"]


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
        Board height, ``1 <= rows <= MAX_SIDE`` (64).
    cols : int, default 7
        Board width, ``1 <= cols <= MAX_SIDE`` (64).
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

    #: The widest and tallest board: a board is a pair of Python ints of
    #: ``cols * (rows + 1)`` bits and its winning lines are built up front, so a
    #: far larger board would take minutes and gigabytes before the first move.
    MAX_SIDE = 64

    def __init__(self, rows=6, cols=7, k=4):
        self.rows = int_at_least(rows, "rows", 1)
        self.cols = int_at_least(cols, "cols", 1)
        for name, side in (("rows", self.rows), ("cols", self.cols)):
            if side > self.MAX_SIDE:
                raise ValueError(f"{name} must be an int <= ConnectFour.MAX_SIDE = {self.MAX_SIDE}, "
                                 f"got {side}")
        self.k = int_at_least(k, "k", 1)
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

    # -- the bit layout, for evaluation functions that read the bitboards -----

    @property
    def bits_per_column(self):
        """Bits per column: ``rows + 1`` (the playable cells and one sentinel bit)."""
        return self._height

    @property
    def column_mask(self):
        """The playable bits of column 0, ``(1 << rows) - 1``; shift by
        ``c * bits_per_column`` for column ``c``."""
        return self._column

    @property
    def board_mask(self):
        """The bits of every playable cell (a full board)."""
        return self._full

    @property
    def line_directions(self):
        """The bit steps of the directions a line of ``k`` fits in (vertical 1,
        horizontal ``rows + 1``, the diagonals ``rows + 2`` and ``rows``)."""
        return self._directions

    @property
    def line_plans(self):
        """Per direction, the shifts of the win test (``m &= m >> s`` for each
        ``s`` leaves the first cells of ``k`` in a row): run lengths double."""
        return self._plans

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
        self.check_state(state)
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
        x, o = self.check_state(state)
        col = as_int(move, f"a Connect Four move (a column index 0..{self.cols - 1})")
        legal = self.actions(state)
        if col not in legal:
            where = f"illegal move {move!r} in Connect Four position {self.to_string(state)!r}"
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
            f"{self.to_string(state)!r} is not over"
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
        self.check_state(state)
        lines = [f"|{row}|" for row in self.to_string(state).split("/")]
        lines.append("+" + "-" * self.cols + "+")
        lines.append(" " + "".join(str(c % 10) for c in range(self.cols)))
        return "\n".join(lines)

    # -- helpers -------------------------------------------------------------

    def to_string(self, state):
        """Return the rows of the board, top first, joined by ``/`` (for messages).

        ``state`` is not checked.
        """
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
        x, o = self.check_state(state)
        row = as_int(row, "row")
        col = as_int(col, "col")
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

    def check_state(self, state):
        """Return ``state`` if it is a consistent position, else raise."""
        check_tuple_state(state, 2, "Connect Four", "(x_bits, o_bits)")
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
                f"invalid Connect Four state {state!r}: X and O share a cell (both "
                f"have a piece in the same cell)"
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
                f"invalid Connect Four position {self.to_string(state)!r}: X has "
                f"{self.k} in a row but O moved afterwards"
            )
        if nx != no and self._has_line(o):
            raise ValueError(
                f"invalid Connect Four position {self.to_string(state)!r}: O has "
                f"{self.k} in a row but X moved afterwards"
            )
        return state
