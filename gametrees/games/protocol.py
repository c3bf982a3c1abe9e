"""The game protocol: the roles MAX, MIN and CHANCE, the class :class:`Game`, and
the argument checks every game shares.

:class:`Game` documents what a game must provide; the search engine is written
once against it.  The helpers :func:`as_int`, :func:`int_at_least` and
:func:`check_tuple_state` are the checks the games in :mod:`gametrees.games` use
for their arguments and states, so that all games word their errors alike.

Imports: the standard library only (this is the lowest layer of the package).
"""

import math
import numbers
import operator
import reprlib
import sys

__all__ = [
    "CHANCE",
    "MAX",
    "MIN",
    "Game",
    "as_int",
    "check_chances",
    "check_tuple_state",
    "int_at_least",
    "number_problem",
]

#: The role of the first player (X in tic-tac-toe and Connect Four).
MAX = "max"
#: The role of the second player.
MIN = "min"
#: The role of a chance state (the "player" who rolls the die).
CHANCE = "chance"


# ---------------------------------------------------------------------------
# Argument checking shared by the games
# ---------------------------------------------------------------------------


def as_int(value, what):
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


def int_at_least(value, name, minimum):
    """Validate a constructor argument: an int that is at least ``minimum``.

    Returns ``value`` as an ``int``; raises ``TypeError`` (via :func:`as_int`) or
    ``ValueError`` naming ``name`` and ``minimum``.
    """
    value = as_int(value, name)
    if value < minimum:
        raise ValueError(f"{name} must be an int >= {minimum}, got {value}")
    return value


def check_tuple_state(state, size, what, form=None):
    """Check that ``state`` is a tuple of ``size`` items (TypeError/ValueError).

    ``form`` (e.g. ``"(x_bits, o_bits)"``) spells the expected tuple in the
    message.

    >>> check_tuple_state([0, 0], 2, "tic-tac-toe", "(x_bits, o_bits)")
    Traceback (most recent call last):
    ...
    TypeError: a tic-tac-toe state must be a tuple (x_bits, o_bits), got [0, 0] of type list
    """
    shape = f" {form}" if form else ""
    if not isinstance(state, tuple):
        raise TypeError(
            f"a {what} state must be a tuple{shape}, got {state!r} of type "
            f"{type(state).__name__}"
        )
    if len(state) != size:
        raise ValueError(
            f"a {what} state must be a tuple of {size} items{shape}, got {state!r}"
        )


#: The largest finite float: a value must fit in a float (math.inf is allowed).
_FLOAT_MAX = sys.float_info.max


def number_problem(value):
    """What is wrong with ``value`` as a game value, or ``None`` if it is usable.

    A usable value is a real number (int, float, numpy number ...; not a bool)
    that is not NaN and fits in a float: ``math.inf`` and ``-math.inf`` are
    fine (a win or a loss), ``10**400`` is not (it cannot be averaged or
    compared with floats reliably). Returns ``(error class, description)``:
    ``TypeError`` for what is not a number, ``ValueError`` for NaN and for a
    number too large.

    >>> number_problem(3), number_problem(math.inf)
    (None, None)
    >>> number_problem(float("nan"))
    (<class 'ValueError'>, 'NaN')
    >>> number_problem("3")
    (<class 'TypeError'>, "'3' (str)")
    >>> number_problem(10**400)
    (<class 'ValueError'>, 'a number too large for a float (an integer of about 401 digits)')
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return TypeError, f"{reprlib.repr(value)} ({type(value).__name__})"
    if value != value:
        return ValueError, "NaN"
    if isinstance(value, numbers.Integral):
        if -_FLOAT_MAX <= value <= _FLOAT_MAX:
            return None
        digits = int(abs(int(value)).bit_length() * math.log10(2)) + 1
        return ValueError, f"a number too large for a float (an integer of about {digits} digits)"
    try:
        float(value)
    except OverflowError:
        return ValueError, "a number too large for a float"
    return None


#: How far from 1 the probabilities of a chance state may sum (float rounding, float32 numbers).
PROBABILITY_TOLERANCE = 1e-6


def check_chances(outcomes, moves, where):
    """The probabilities a chance state's :meth:`Game.chances` gave, checked: ``{move: float}``.

    ``outcomes`` is what ``chances`` returned, ``(outcome, probability)``
    pairs; ``moves`` the state's moves (its outcomes). Every move needs one
    probability: a real number (numpy numbers too, not a bool) between 0 and
    1, not NaN; no outcome that is not a move, none twice; together they sum
    to 1 (within :data:`PROBABILITY_TOLERANCE`). The answer lists the
    probabilities in ``moves`` order. ``where`` names the state in the
    messages ("chance state 'r'").

    >>> check_chances([("a", 0.25), ("b", 0.75)], ["a", "b"], "chance state 0")
    {'a': 0.25, 'b': 0.75}
    >>> check_chances([("a", 0.6), ("b", 0.5)], ["a", "b"], "chance state 0")
    Traceback (most recent call last):
    ...
    ValueError: chance state 0: the probabilities of its outcomes sum to 1.1, expected 1
    """
    try:
        pairs = list(outcomes)
    except TypeError:
        raise TypeError(f"{where}: chances() must return a list of (outcome, probability) pairs, "
                        f"got {reprlib.repr(outcomes)}") from None
    index = {m: i for i, m in enumerate(moves)}
    probs = [None] * len(moves)
    for pair in pairs:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise TypeError(f"{where}: chances() must return (outcome, probability) pairs, "
                            f"got the item {reprlib.repr(pair)}")
        move, p = pair
        try:
            i = index.get(move)
        except TypeError:  # an unhashable outcome is not one of the moves
            i = None
        if i is None:
            raise ValueError(f"{where}: chances() gives the outcome {move!r}, which is not one of its "
                             f"outcomes (its moves: {reprlib.repr(list(moves))})")
        if probs[i] is not None:
            raise ValueError(f"{where}: chances() gives the outcome {move!r} twice")
        problem = number_problem(p)
        if problem is not None:
            error, text = problem
            raise error(f"{where}: the probability of outcome {move!r} is {text}: expected a number "
                        "between 0 and 1")
        p = float(p)
        if not 0 <= p <= 1:
            raise ValueError(f"{where}: the probability of outcome {move!r} is {p:g}: expected 0 <= p <= 1")
        probs[i] = p
    if None in probs:
        missing = next(m for m, p in zip(moves, probs) if p is None)
        raise ValueError(f"{where}: chances() gives no probability for the outcome {missing!r} (its "
                         f"outcomes: {reprlib.repr(list(moves))}); list every outcome, with probability "
                         "0 if it cannot happen")
    total = math.fsum(probs)
    if not abs(total - 1) <= PROBABILITY_TOLERANCE:
        raise ValueError(f"{where}: the probabilities of its outcomes sum to {total:g}, expected 1")
    return dict(zip(moves, probs))


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
