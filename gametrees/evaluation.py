"""Evaluation functions: estimates of a position's value for depth-limited search.

A search that stops ``depth`` plies below the start scores the positions where
it stops with an *evaluation function* ``evaluate(state) -> number``, from
MAX's point of view (positive: good for X).  Finished games are scored by the
game's utility instead: +1 when X has won, -1 when O has, 0 for a draw.

One rule ties the two together: **a win must be worth more than any merely
promising position**.  So every estimate here lies strictly between -1 and +1:
the evaluation counts features in whole points and divides by a ``scale``
larger than any total the features can reach.  (An estimate of 3 "open lines"
next to a utility of 1 for a real win would make the search prefer the
promising position to the win: misconception 2 of the lesson notes.)

:func:`tictactoe_open_lines`
    Tic-tac-toe: lines still open for X minus lines still open for O.
:func:`connect4_evaluation`
    Connect Four: weighted counts of windows of ``k`` cells held by one colour
    only (``k - 1`` or ``k - 2`` pieces, the rest empty), and of pieces in the
    centre column.  Weights are parameters.  Returns the evaluation function.
:func:`default_evaluation`
    The evaluation the agents use for a game when none is given.

Every function here also accepts finished positions and returns their utility
(+1, -1 or 0), so a win is always scored beyond any heuristic value.

Imports: :mod:`gametrees.games` only (the games and the tic-tac-toe bit tables).

Examples
--------
>>> import gametrees as gt
>>> gt.tictactoe_open_lines(gt.TicTacToe.from_string(".../.X./..."))  # 8 open for X, 4 for O
0.4
>>> game = gt.ConnectFour()
>>> evaluate = gt.connect4_evaluation(game)
>>> evaluate(game.from_moves([3]))   # X in the centre column: 3 points of 1000
0.003
"""

from __future__ import annotations

import numbers

from .games import ConnectFour, TicTacToe
from .games.tictactoe import FULL_BOARD, LINE_MASKS, WINNING_BOARDS

__all__ = [
    "Connect4Evaluation",
    "connect4_evaluation",
    "default_evaluation",
    "tictactoe_open_lines",
]


# ---------------------------------------------------------------------------
# Tic-tac-toe: open lines
# ---------------------------------------------------------------------------

#: ``_OPEN[bits]``: how many of the 8 lines hold none of the cells in ``bits``.
_OPEN = tuple(sum(1 for mask in LINE_MASKS if not bits & mask) for bits in range(512))
_TTT_LINES = len(LINE_MASKS)


def tictactoe_open_lines(state, scale=10):
    """Estimate a tic-tac-toe position: open lines for X minus open lines for O.

    A line (row, column or diagonal) is *open* for X when O has no mark in it,
    so X could still complete it; likewise for O.  The estimate is::

        (lines open for X - lines open for O) / scale

    The difference is at most 8 (there are 8 lines), and ``scale`` must be
    larger, so every estimate lies strictly between -1 and +1 and a win
    (utility +1) or a loss (-1) is worth more than any estimate.  A finished
    position gets its utility: +1 if X has three in a row, -1 if O has, 0 for
    a full board.

    Parameters
    ----------
    state : tuple of int
        A tic-tac-toe state ``(x_bits, o_bits)`` (see :class:`TicTacToe`).
    scale : int or float, default 10
        The divisor; must be greater than 8.  With the default 10 the estimate
        reads as "open-line advantage in tenths of a win".

    Returns
    -------
    float or int
        The estimate from X's (MAX's) point of view.

    Raises
    ------
    ValueError
        If ``scale`` is not greater than 8.
    TypeError
        If ``scale`` is not a number.

    Examples
    --------
    >>> from gametrees import TicTacToe, tictactoe_open_lines
    >>> tictactoe_open_lines(TicTacToe().initial)         # 8 open lines each
    0.0
    >>> tictactoe_open_lines(TicTacToe.from_string("X../.../..."))  # 8 for X, 5 for O
    0.3
    >>> tictactoe_open_lines(TicTacToe.from_string("XXX/OO./..."))  # X has won
    1
    >>> tictactoe_open_lines(TicTacToe().initial, scale=8)
    Traceback (most recent call last):
    ...
    ValueError: scale must be a number greater than 8 (the number of lines), so that no estimate reaches
    a win's 1; got 8
    """
    if scale != 10:
        _check_scale(scale, _TTT_LINES, "the number of lines")
    x, o = state
    if WINNING_BOARDS[x]:
        return 1
    if WINNING_BOARDS[o]:
        return -1
    if x | o == FULL_BOARD:
        return 0
    return (_OPEN[o] - _OPEN[x]) / scale


def _check_scale(scale, bound, what):
    if isinstance(scale, bool) or not isinstance(scale, numbers.Real):
        raise TypeError(f"scale must be a number, got {scale!r} of type {type(scale).__name__}")
    if not scale > bound:
        raise ValueError(
            f"scale must be a number greater than {bound} ({what}), so that no estimate "
            f"reaches a win's 1; got {scale!r}"
        )


# ---------------------------------------------------------------------------
# Connect Four: weighted features on bitboards
# ---------------------------------------------------------------------------

#: Default weights, in points: a window with k-1 pieces of one colour (and the
#: rest empty) is worth 5, one with k-2 pieces 2, a piece in the centre 3.
DEFAULT_WEIGHTS = {"three": 5, "two": 2, "centre": 3}


class Connect4Evaluation:
    """A Connect Four evaluation function: weighted features, X's minus O's.

    Create one with :func:`connect4_evaluation`; call it on a state.

    The features of a colour, counted over every *window* (``k`` cells in a
    row: vertical, horizontal or diagonal, as for a win):

    ``three``
        windows holding ``k - 1`` pieces of that colour and none of the
        other (the last cell empty): one move from a win;
    ``two``
        windows holding ``k - 2`` pieces of that colour and none of the
        other (for ``k >= 3``);
    ``centre``
        pieces of that colour in the centre column (the two middle columns
        on a board with an even number of columns).

    The estimate is ``sum(weights[f] * (X's f - O's f)) / scale``.  With the
    default ``scale`` (the smallest power of ten above :attr:`bound`, the
    largest total the weights can reach on this board) it lies strictly
    between -1 and +1, below a win's utility.  Finished positions score their
    utility: +1 if X has ``k`` in a row, -1 if O has, 0 for a full board.

    Attributes
    ----------
    game : ConnectFour
    weights : dict
        ``{"three": ..., "two": ..., "centre": ...}`` in points.
    scale : number
    bound : number
        An upper bound on ``|X's points - O's points|`` on this board:
        ``windows * max(|three|, |two|) + centre cells * |centre|``.
    windows : int
        The number of windows of ``k`` cells on the board.

    Notes
    -----
    The counts are computed on the bitboards ``(x_bits, o_bits)`` all at once
    ("bit-parallel"): for a direction with bit step ``d``, bit ``s`` of
    ``bits >> (i * d)`` is the cell ``i`` steps from cell ``s``, so a few
    shifts, ANDs and ORs compute, for every window start ``s`` at once, how
    many of the window's cells hold a piece, and ``int.bit_count`` counts the
    windows.  X and O are packed side by side into one integer so that both
    colours are counted by the same operations.  Evaluations are cached by
    position (``cache_size`` entries at most; the cache empties when full).

    Examples
    --------
    >>> import gametrees as gt
    >>> game = gt.ConnectFour()
    >>> evaluate = gt.connect4_evaluation(game)
    >>> evaluate
    Connect4Evaluation(ConnectFour(rows=6, cols=7, k=4), weights={'three': 5, 'two': 2, 'centre': 3},
                       scale=1000)
    >>> state = game.from_moves([3, 0, 3, 0, 2])
    >>> print(game.display(state))
    |.......|
    |.......|
    |.......|
    |.......|
    |O..X...|
    |O.XX...|
    +-------+
     0123456
    >>> evaluate.features(state)
    {'X': {'three': 0, 'two': 4, 'centre': 2}, 'O': {'three': 0, 'two': 1, 'centre': 0}}
    >>> evaluate(state)                            # (2 * (4 - 1) + 3 * (2 - 0)) / 1000
    0.012
    """

    def __init__(self, game, weights=None, scale=None, cache_size=1 << 17):
        if not isinstance(game, ConnectFour):
            raise TypeError(
                f"connect4_evaluation needs a ConnectFour game, got {game!r} of type "
                f"{type(game).__name__}"
            )
        self.game = game
        merged = dict(DEFAULT_WEIGHTS)
        if weights is not None:
            if not isinstance(weights, dict):
                raise TypeError(
                    f"weights must be a dict like {DEFAULT_WEIGHTS}, got {weights!r}"
                )
            for key, value in weights.items():
                if key not in DEFAULT_WEIGHTS:
                    raise ValueError(
                        f"unknown weight {key!r}: the features are {list(DEFAULT_WEIGHTS)}"
                    )
                if isinstance(value, bool) or not isinstance(value, numbers.Real):
                    raise TypeError(f"weight {key!r} must be a number, got {value!r}")
                merged[key] = value
        self._weights = merged
        if isinstance(cache_size, bool) or not isinstance(cache_size, int) or cache_size < 0:
            raise ValueError(f"cache_size must be an int >= 0, got {cache_size!r}")
        self.cache_size = cache_size
        self._build()
        self.bound = (self.windows * max(abs(merged["three"]), abs(merged["two"]))
                      + self._centre_cells * abs(merged["centre"]))
        if scale is None:
            scale = 1
            while scale <= self.bound:
                scale *= 10
        else:
            _check_scale(scale, self.bound, "the largest total these weights reach on this board")
        self.scale = scale
        self._three, self._two, self._centre_weight = (
            merged["three"], merged["two"], merged["centre"])
        self._cache = {}

    @property
    def weights(self):
        """The points per feature (a copy: make a new evaluation to change them)."""
        return dict(self._weights)

    def __repr__(self):
        return f"Connect4Evaluation({self.game!r}, weights={self.weights!r}, scale={self.scale!r})"

    # -- set-up ----------------------------------------------------------------

    def _build(self):
        """Precompute the masks and shift plans, and the counting function."""
        game = self.game
        rows, cols, k = game.rows, game.cols, game.k
        height = rows + 1
        board = game.board_mask
        directions = list(game.line_directions)  # the board's line directions (bit steps)
        self.windows = (
            (rows - k + 1) * cols * (rows >= k)
            + rows * (cols - k + 1) * (cols >= k)
            + 2 * (rows - k + 1) * (cols - k + 1) * (rows >= k and cols >= k)
        )
        distance = [abs(2 * c - (cols - 1)) for c in range(cols)]
        centre = 0
        for c in range(cols):
            if distance[c] == min(distance):
                centre |= game.column_mask << (c * height)
        self._centre = centre
        self._centre_cells = centre.bit_count()
        # X's bits low, O's bits high, with a gap of zeros wide enough that no
        # window starting in X's half reaches into O's half.
        shift = cols * height + (k - 1) * max(directions, default=1)
        low = (1 << shift) - 1
        both = board | (board << shift)
        region = 2 * shift  # one region per direction in the accumulators
        lows = sum(low << (i * region) for i in range(len(directions)))
        # "No piece of the other colour in the window": AND of k shifted copies,
        # by doubling (runs of 1, 2, 4, ... cells) as in the game's win test.
        # The game's own doubling plan per direction (runs of 1, 2, 4, ... cells, as in its win test).
        plans = [(d, steps, tuple(i * d for i in range(1, k)))
                 for d, steps in zip(directions, game.line_plans)]
        self._counts = (_counts_k4 if k == 4 else _counts_any_k)(
            tuple(plans), shift, both, board, low, lows, region, centre, k
        )

    # -- the evaluation ----------------------------------------------------------

    def __call__(self, state):
        """Return the estimate of ``state`` (a number from X's point of view)."""
        cache = self._cache
        value = cache.get(state)
        if value is None:
            counts = self._counts(state)
            if counts.__class__ is int:  # a finished game: its utility
                value = counts
            else:
                t3x, t3o, t2x, t2o, cx, co = counts
                value = (self._three * (t3x - t3o) + self._two * (t2x - t2o)
                         + self._centre_weight * (cx - co)) / self.scale
            if len(cache) >= self.cache_size:
                cache.clear()
                if not self.cache_size:
                    return value
            cache[state] = value
        return value

    def features(self, state):
        """Return the feature counts of both colours: ``{'X': {...}, 'O': {...}}``.

        Raises
        ------
        ValueError
            If the game is over in ``state`` (a finished position is scored by
            its utility, not by features), or the state is not a position of
            this board.

        Examples
        --------
        >>> import gametrees as gt
        >>> game = gt.ConnectFour(rows=4, cols=4, k=3)
        >>> state = game.from_moves([1, 0, 1])   # k = 3: "three" is 2 pieces, "two" 1
        >>> print(game.display(state))
        |....|
        |....|
        |.X..|
        |OX..|
        +----+
         0123
        >>> gt.connect4_evaluation(game).features(state)
        {'X': {'three': 1, 'two': 7, 'centre': 2}, 'O': {'three': 0, 'two': 1, 'centre': 0}}
        """
        self.game.check_state(state)
        counts = self._counts(state)
        if counts.__class__ is int:
            raise ValueError(
                f"the game is over in {self.game.to_string(state)!r}: a finished position is "
                "scored by its utility, not by features"
            )
        t3x, t3o, t2x, t2o, cx, co = counts
        return {"X": {"three": t3x, "two": t2x, "centre": cx},
                "O": {"three": t3o, "two": t2o, "centre": co}}


def _counts_k4(plans, shift, both, board, low, lows, region, centre, k):
    """The counting function for k = 4, with the four cells added pairwise.

    Returns ``count(state)``: +1 / -1 / 0 for a finished game, else the tuple
    ``(three_x, three_o, two_x, two_o, centre_x, centre_o)``.
    """
    plans = tuple((d, 2 * d) for d, _, _ in plans)

    def count(state):
        x, o = state
        z = x | (o << shift)            # each colour's pieces, X low, O high
        a = both ^ (o | (x << shift))   # cells that are the colour's or empty
        acc3 = acc2 = 0
        for d, d2 in plans:
            p = a & (a >> d)
            p &= p >> d2                # windows with none of the other colour
            zd = z >> d
            t1 = z & zd                 # cells 0 and 1 both the colour's
            o1 = z | zd                 # cell 0 or cell 1
            t2 = t1 >> d2               # cells 2 and 3 both
            four = t1 & t2
            if four:
                return 1 if four & low else -1
            o2 = o1 >> d2               # cell 2 or cell 3
            # At least 3 of the 4 cells: both of one pair, one of the other.
            acc3 = (acc3 << region) | (p & ((t1 & o2) | (t2 & o1)))
            # At least 2 of the 4: a whole pair, or one of each.
            acc2 = (acc2 << region) | (p & (t1 | t2 | (o1 & o2)))
        if x | o == board:
            return 0
        t3x = (acc3 & lows).bit_count()
        t3o = acc3.bit_count() - t3x
        g2x = (acc2 & lows).bit_count()
        return (t3x, t3o, g2x - t3x, acc2.bit_count() - g2x - t3o,
                (x & centre).bit_count(), (o & centre).bit_count())

    return count


def _counts_any_k(plans, shift, both, board, low, lows, region, centre, k):
    """The counting function for any k: count the empty cells of each window.

    In a window with none of the other colour every cell is the colour's or
    empty, so "k - 1 pieces" means "exactly 1 empty cell".  Three running
    flags per window (at least 1, 2, 3 empty cells) are updated cell by cell.
    """
    want_three = k >= 2
    want_two = k >= 3

    def count(state):
        x, o = state
        z = x | (o << shift)
        a = both ^ (o | (x << shift))
        e = a ^ z                       # the empty cells, in both halves
        acc3 = acc2 = 0
        for _, steps, shifts in plans:
            p = a
            for s in steps:
                p &= p >> s
            g1, g2, g3 = e, 0, 0
            for s in shifts:
                q = e >> s
                g3 |= g2 & q
                g2 |= g1 & q
                g1 |= q
            four = p & ~g1              # no empty cell: k of the colour's
            if four:
                return 1 if four & low else -1
            acc3 = (acc3 << region) | (p & ~g2)   # at most 1 empty: k - 1 pieces
            acc2 = (acc2 << region) | (p & ~g3)   # at most 2 empty: k - 2 or more
        if x | o == board:
            return 0
        t3x = (acc3 & lows).bit_count() if want_three else 0
        t3o = acc3.bit_count() - t3x if want_three else 0
        g2x = (acc2 & lows).bit_count() if want_two else 0
        g2o = acc2.bit_count() - g2x if want_two else 0
        return (t3x, t3o, g2x - t3x if want_two else 0, g2o - t3o if want_two else 0,
                (x & centre).bit_count(), (o & centre).bit_count())

    return count


def connect4_evaluation(game, weights=None, scale=None, cache_size=1 << 17):
    """Return an evaluation function ``evaluate(state)`` for Connect Four.

    Weighted features, X's minus O's, divided by ``scale``: windows of ``k``
    cells with ``k - 1`` ("three") or ``k - 2`` ("two") pieces of one colour
    and none of the other, and pieces in the centre column ("centre").  See
    :class:`Connect4Evaluation` for the details.

    Parameters
    ----------
    game : ConnectFour
        The board (rows, columns, k) the function will evaluate.
    weights : dict, optional
        Points per feature, any of ``"three"``, ``"two"``, ``"centre"``;
        missing ones keep their defaults ``{"three": 5, "two": 2, "centre": 3}``.
    scale : number, optional
        The divisor.  Default: the smallest power of ten larger than the
        largest total the weights can reach on this board, so that every
        estimate lies strictly between -1 and +1 (below a win's utility).  A
        given scale must also be larger than that total.
    cache_size : int, default 131072
        At most this many evaluations are cached (0: no cache).

    Returns
    -------
    Connect4Evaluation
        A callable ``evaluate(state) -> float`` (also ``evaluate.features``).

    Raises
    ------
    TypeError
        If ``game`` is not a :class:`ConnectFour`, or a weight is not a number.
    ValueError
        For an unknown weight name, or a ``scale`` too small for the weights.

    Examples
    --------
    >>> import gametrees as gt
    >>> game = gt.ConnectFour()
    >>> evaluate = gt.connect4_evaluation(game, weights={"centre": 0})
    >>> evaluate(game.from_moves([3]))               # no window has 2 pieces yet
    0.0
    >>> evaluate(game.from_moves([3, 0, 3, 0, 3]))   # X: 3 + 1 empty in column 3; O: 2 + 2
    0.005
    >>> gt.connect4_evaluation(game, weights={"four": 100})
    Traceback (most recent call last):
    ...
    ValueError: unknown weight 'four': the features are ['three', 'two', 'centre']
    """
    return Connect4Evaluation(game, weights=weights, scale=scale, cache_size=cache_size)


def default_evaluation(game):
    """Return the evaluation function the agents use for ``game``, or ``None``.

    :func:`tictactoe_open_lines` for :class:`TicTacToe`, a fresh
    :func:`connect4_evaluation` for :class:`ConnectFour`, else the game's own
    ``evaluate`` method if it has one, else ``None``.

    Examples
    --------
    >>> import gametrees as gt
    >>> gt.default_evaluation(gt.TicTacToe()) is gt.tictactoe_open_lines
    True
    >>> gt.default_evaluation(gt.Nim()) is None
    True
    """
    if isinstance(game, TicTacToe):
        return tictactoe_open_lines
    if isinstance(game, ConnectFour):
        return connect4_evaluation(game)
    return getattr(game, "evaluate", None)
