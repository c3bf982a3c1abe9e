"""Games that the search algorithms of :mod:`gametrees` can play.

The package re-exports the public names of its modules:

=====================  ====================================================
``protocol``           ``MAX``, ``MIN``, ``CHANCE``, :class:`Game` and the
                       argument checks the games share
``tictactoe``          :class:`TicTacToe` and its bit tables (``LINE_MASKS`` ...)
``nim``                :class:`Nim`
``connect_four``       :class:`ConnectFour`
``dice``               :class:`DiceGame`
=====================  ====================================================

Imports: nothing outside :mod:`gametrees.games` (it is the lowest layer).

A *game* here is a small protocol (the class :class:`Game` documents it): a start
state, whose turn it is, the legal moves, the state a move leads to, whether a state
is terminal and what it is worth to MAX, and, for games of chance, the outcome
probabilities of a chance state.  The search engine is written once against this
protocol and only ever calls :meth:`Game.to_move`, :meth:`Game.is_terminal`,
:meth:`Game.utility`, :meth:`Game.successors`, :meth:`Game.chances` (and
:meth:`Game.canonical` when it folds symmetric positions together).

Five games implement it:

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
:class:`Pig`
    Roll or hold, to a small target: a chance game where the decision matters.

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

from .connect_four import ConnectFour
from .dice import DiceGame
from .nim import Nim
from .pig import Pig
from .protocol import CHANCE, MAX, MIN, Game
from .tictactoe import TicTacToe

__all__ = [
    "CHANCE",
    "MAX",
    "MIN",
    "ConnectFour",
    "DiceGame",
    "Game",
    "Nim",
    "Pig",
    "TicTacToe",
]
