"""Agents: players that choose a move, from random to searching.

An *agent* is any callable ``agent(game, state) -> move`` with a ``name``.
The agents here share a small base class, :class:`Agent`, which adds a seeded
random generator (``reset(seed)`` re-seeds it, as :func:`gametrees.tournament`
does before every game) and a record of the last move:

``last_move``
    The move it chose last.
``last_nodes``
    How many positions it examined for that move (0 for agents that do not
    search).
``last_result``
    For the searching agents, the :class:`~gametrees.search.SearchResult` of
    their last move, searched with ``trace=True, trace_depth=2``: its
    ``graph`` shows the top two plies with their values, which explains the
    choice.  ``None`` for the others.

The agents:

:class:`RandomAgent`
    A uniformly random legal move (seeded).
:class:`MinimaxAgent`
    Minimax values of every move, then a random choice among the best ones,
    as the textbook agent does.
:class:`AlphaBetaAgent`
    Depth-limited alpha-beta with an evaluation function and move ordering.
:class:`IterativeDeepeningAgent`
    Alpha-beta to depth 1, 2, 3, ... until its time is up.
:class:`MCTSAgent`
    The move Monte Carlo tree search visits most (:func:`gametrees.mcts`).
:class:`HumanAgent`
    Asks a person for the move (at the terminal, or any ``read`` function).

Imports: :mod:`gametrees.search` (Monte Carlo tree search included), :mod:`gametrees.evaluation` and
:mod:`gametrees.games`.

Examples
--------
>>> import gametrees as gt
>>> game = gt.TicTacToe()
>>> state = gt.TicTacToe.from_string("XX./OO./...")
>>> gt.MinimaxAgent(seed=0)(game, state)     # X completes the top row
2
>>> agent = gt.AlphaBetaAgent(depth=2)
>>> agent(game, state), agent.last_result.value
(2, 1)
"""

from __future__ import annotations

import numbers
import random

from .evaluation import default_evaluation
from .games import CHANCE
from .search import alphabeta, mcts, minimax
from .search.montecarlo import SQRT2, check_mcts_options

__all__ = [
    "Agent",
    "AlphaBetaAgent",
    "HumanAgent",
    "IterativeDeepeningAgent",
    "MCTSAgent",
    "MinimaxAgent",
    "QuitGame",
    "RandomAgent",
    "ending_moves",
    "root_values",
]

#: How many plies of a searching agent's move are recorded in ``last_result``.
TRACE_DEPTH = 2


def _check_name(name):
    if not isinstance(name, str) or not name.strip():
        raise TypeError(f"name must be a non-empty str, got {name!r}")
    return name


def _check_seed(seed):
    """``seed`` as an int (a numpy integer too) or None; anything else is a TypeError."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, numbers.Integral)):
        raise TypeError(f"seed must be None or an int, got {seed!r}")
    return None if seed is None else int(seed)


def _check_depth(depth, allow_none=True):
    if depth is None and allow_none:
        return None
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        what = "None or an int >= 1" if allow_none else "an int >= 1"
        raise ValueError(f"depth must be {what}, got {depth!r}")
    return depth


def _check_callable(value, name, signature):
    if value is not None and not callable(value):
        raise TypeError(f"{name} must be a function {signature}, got {value!r}")
    return value


def legal_moves(game, state):
    """Return ``game.actions(state)``, or raise ``ValueError`` if there is none.

    The game checks the state first (``check_state``, when the game has one:
    a malformed or impossible state raises its ``TypeError`` or
    ``ValueError``).
    """
    check = getattr(game, "check_state", None)
    if callable(check):
        check(state)
    moves = game.actions(state)
    if not moves:
        raise ValueError(
            f"the game is over in state {state!r}: there is no move to choose"
        )
    return moves


class Agent:
    """The base of the agents: a name, a seeded random generator, the last move.

    Subclasses define :meth:`choose`; calling the agent calls it and records
    ``last_move``.

    Parameters
    ----------
    name : str
        How tournaments and the command line call the agent.
    seed : int, optional
        Seed of the agent's random generator (``self.rng``); ``None``: fresh
        entropy.

    Examples
    --------
    >>> import gametrees as gt
    >>> class FirstMove(gt.Agent):
    ...     def choose(self, game, state):
    ...         return game.actions(state)[0]
    >>> agent = FirstMove("first")
    >>> agent(gt.Nim(coins=3), (3, "max")), agent.last_move, agent.name
    (1, 1, 'first')
    """

    def __init__(self, name, seed=None):
        self.name = _check_name(name)
        self.seed = _check_seed(seed)
        self.rng = random.Random(self.seed)
        self.last_move = None
        self.last_nodes = 0
        self.last_result = None

    def __call__(self, game, state):
        """Return the move this agent plays in ``state`` of ``game``."""
        move = self.choose(game, state)
        self.last_move = move
        return move

    def choose(self, game, state):
        """Return the move to play (subclasses define it)."""
        raise NotImplementedError(f"{type(self).__name__} must define choose(game, state)")

    def reset(self, seed=None):
        """Re-seed the random generator (``None``: the seed given at creation).

        Tournaments call this before every game with a seed derived from
        theirs, so the same tournament seed replays the same games.
        """
        self.rng.seed(self.seed if seed is None else _check_seed(seed))

    def __repr__(self):
        return f"{type(self).__name__}(name={self.name!r})"


class RandomAgent(Agent):
    """Plays a uniformly random legal move.

    Examples
    --------
    >>> import gametrees as gt
    >>> game = gt.TicTacToe()
    >>> agent = gt.RandomAgent(seed=1)
    >>> moves = [agent(game, game.initial) for _ in range(5)]
    >>> agent.reset()
    >>> moves == [agent(game, game.initial) for _ in range(5)]   # same seed, same moves
    True
    """

    def __init__(self, seed=None, name="random"):
        super().__init__(name, seed)

    def choose(self, game, state):
        moves = legal_moves(game, state)
        self.last_nodes = 0
        return self.rng.choice(moves)

    def __repr__(self):
        return f"RandomAgent(seed={self.seed!r}, name={self.name!r})"


class MinimaxAgent(Agent):
    """Plays a minimax-optimal move, chosen at random among equally good ones.

    One :func:`~gametrees.search.minimax` search from the position, traced two
    plies deep, gives the value of every move (minimax visits every child of
    the root, so these values are exact); the agent then picks at random among
    the moves whose value equals the best (as the textbook agent does), so two
    equally good moves are both played.  If some of them end the game at once,
    it picks among those (a win now, not a win later: :func:`ending_moves`).

    Without ``depth`` the search goes to the end of the game, so use it on
    games small enough to solve (tic-tac-toe, Nim, Connect Four on small
    boards).  It keeps a transposition table for each game it plays
    (positions and their values do not change from move to move, so the
    second and later moves cost little).  With ``depth`` it scores the
    positions where it stops with ``evaluate`` and uses no table, so the
    values are those of plain depth-limited minimax.

    Parameters
    ----------
    depth : int, optional
        Plies to search; ``None`` (default): to the end of the game.
    evaluate : callable, optional
        ``evaluate(state) -> number`` for a depth-limited search; default
        :func:`~gametrees.evaluation.default_evaluation` of the game.
    seed : int, optional
        Seed for the choice among equally good moves.
    name : str, default "minimax"

    Attributes
    ----------
    last_result : SearchResult
        The search of the last move.
    last_values : dict
        ``{move: minimax value}`` for the last position.

    Examples
    --------
    >>> import gametrees as gt
    >>> game = gt.TicTacToe()
    >>> agent = gt.MinimaxAgent(seed=3)
    >>> move = agent(game, game.initial)
    >>> agent.last_values == dict.fromkeys(range(9), 0)   # every first move draws
    True
    >>> G = agent.last_result.graph        # the top two plies, with their values
    >>> G.nodes[()]["value"], [G.nodes[n]["value"] for n in G.successors(())][:3]
    (0, [0, 0, 0])
    """

    def __init__(self, depth=None, evaluate=None, seed=None, name="minimax"):
        super().__init__(name, seed)
        self.depth = _check_depth(depth)
        self.evaluate = _check_callable(evaluate, "evaluate", "state -> number")
        self.last_values = None
        self._tables = {}  # game -> transposition table (exact values only)

    def choose(self, game, state):
        moves = legal_moves(game, state)
        evaluate = self.evaluate
        if self.depth is None:
            table = self._tables.setdefault(game, {})
        else:
            table = None
            if evaluate is None:
                evaluate = default_evaluation(game)
        result = minimax(game, state, depth=self.depth, evaluate=evaluate, table=table,
                         symmetry=table is not None, trace=True, trace_depth=TRACE_DEPTH)
        values = root_values(result)
        ties = [m for m in moves if values[m] == result.value]
        ties = ending_moves(game, state, ties, result.value) or ties
        self.last_result = result
        self.last_values = values
        self.last_nodes = result.stats["nodes_visited"]
        return ties[0] if len(ties) == 1 else self.rng.choice(ties)

    def __repr__(self):
        return f"MinimaxAgent(depth={self.depth!r}, seed={self.seed!r}, name={self.name!r})"


def ending_moves(game, state, moves, value):
    """Return those of ``moves`` that end the game at once with utility ``value``.

    The agents' tie-break: minimax values do not tell a win now from a win in
    five moves, so among equally good moves the agents prefer one that ends
    the game with that value (take the win; see misconception 2).

    Examples
    --------
    >>> import gametrees as gt
    >>> game = gt.TicTacToe()
    >>> ending_moves(game, gt.TicTacToe.from_string("XX./OO./..."), [2, 5, 6], 1)
    [2]
    """
    wanted = set(moves)
    return [m for m, child in game.successors(state)
            if m in wanted and game.is_terminal(child) and game.utility(child) == value]


def root_values(result):
    """Return ``{move: value}`` for the root's children in a traced search result.

    The values are those the search backed up: exact for minimax; for
    alpha-beta a child searched with a narrowed window may only have a bound
    (see the ``bound`` node attribute of ``result.graph``).

    Examples
    --------
    >>> import gametrees as gt
    >>> r = gt.minimax(gt.Nim(coins=3), trace=True, trace_depth=1)
    >>> root_values(r)      # taking all 3 coins wins
    {1: -1, 2: -1, 3: 1}
    """
    G = result.graph
    if G is None:
        raise ValueError("root_values needs a result searched with trace=True (or graph=True)")
    root = G.graph["root"]
    nodes, edges = G.nodes, G.edges
    return {edges[root, child]["move"]: nodes[child]["value"]
            for child in G.successors(root) if "value" in nodes[child]}


class AlphaBetaAgent(Agent):
    """Plays the move that depth-limited alpha-beta finds best.

    Searches ``depth`` plies with :func:`~gametrees.search.alphabeta`, scores
    the positions where it stops with ``evaluate``, tries moves in the order
    given by ``order``, and uses a fresh transposition table for each move.
    Deterministic: on ties it plays the first best move in search order, but
    a move that ends the game at once with the best value comes first (it
    takes a win now rather than a win later: see :func:`ending_moves`).

    Parameters
    ----------
    depth : int or None, default 4
        Plies to search; ``None``: to the end of the game.
    evaluate : callable, optional
        ``evaluate(state) -> number``, from MAX's point of view; default
        :func:`~gametrees.evaluation.default_evaluation` of the game
        (open lines for tic-tac-toe, the weighted features for Connect Four).
    order : callable, optional
        Move ordering ``order(state, moves) -> moves``; default the game's
        ``centre_first`` when it has one (tic-tac-toe, Connect Four).
    table : bool, default True
        Use a transposition table (fresh for every move).
    name : str, default "alphabeta"

    Examples
    --------
    >>> import gametrees as gt
    >>> game = gt.ConnectFour()
    >>> state = game.from_moves([3, 3, 2, 2, 4, 4])   # X threatens both ends of a row
    >>> agent = gt.AlphaBetaAgent(depth=3)
    >>> agent(game, state), agent.last_result.value   # and wins at once
    (1, 1)
    >>> agent.last_result.move      # column 3 wins too, two moves later: the search's first pick
    3
    """

    def __init__(self, depth=4, evaluate=None, order=None, table=True, name="alphabeta"):
        super().__init__(name)
        self.depth = _check_depth(depth)
        self.evaluate = _check_callable(evaluate, "evaluate", "state -> number")
        self.order = _check_callable(order, "order", "(state, moves) -> moves")
        if not isinstance(table, bool):
            raise TypeError(f"table must be True or False, got {table!r}")
        self.table = table
        self._evaluations = {}  # game -> its default evaluation (keeps its cache)

    def _evaluation(self, game):
        """``evaluate``, or the game's default evaluation (made once per game)."""
        if self.evaluate is not None:
            return self.evaluate
        if game not in self._evaluations:
            self._evaluations[game] = default_evaluation(game)
        return self._evaluations[game]

    def choose(self, game, state):
        legal_moves(game, state)
        order = self.order if self.order is not None else getattr(game, "centre_first", None)
        result = alphabeta(game, state, depth=self.depth, evaluate=self._evaluation(game),
                           order=order, table=self.table, trace=True, trace_depth=TRACE_DEPTH)
        return self._played(game, state, result)

    def _played(self, game, state, result):
        """Record ``result`` and return its move, or a move ending the game as well."""
        self.last_result = result
        self.last_nodes = result.stats["nodes_visited"]
        moves = [m for m, _ in game.successors(state)]
        enders = ending_moves(game, state, moves, result.value)
        return enders[0] if enders else result.move

    def __repr__(self):
        return f"AlphaBetaAgent(depth={self.depth!r}, name={self.name!r})"


class IterativeDeepeningAgent(AlphaBetaAgent):
    """Alpha-beta to depth 1, 2, 3, ... until ``seconds`` run out.

    Plays the best move of the deepest search that finished (each search
    tries the previous one's best move first, and they share a transposition
    table).  It stops early once a search needed no evaluation: the game was
    searched to its end.  If not even depth 1 fits in the time, it searches
    depth 1 anyway: an agent always moves.  How deep it gets depends on the
    machine, so its games are not exactly repeatable.

    Parameters
    ----------
    seconds : float, default 1.0
        Time per move.
    max_depth : int, optional
        Never search deeper than this.
    evaluate, order
        As for :class:`AlphaBetaAgent`.
    name : str, default "iterative"

    Examples
    --------
    >>> import gametrees as gt
    >>> game = gt.TicTacToe()
    >>> agent = gt.IterativeDeepeningAgent(seconds=5)
    >>> agent(game, gt.TicTacToe.from_string("XO./.X./..O"))   # X wins with a fork
    6
    >>> agent.last_result.value
    1
    """

    def __init__(self, seconds=1.0, max_depth=None, evaluate=None, order=None, name="iterative"):
        super().__init__(depth=max_depth, evaluate=evaluate, order=order, table=True, name=name)
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds > 0:
            raise ValueError(f"seconds must be a positive number, got {seconds!r}")
        self.seconds = seconds

    def choose(self, game, state):
        legal_moves(game, state)
        order = self.order if self.order is not None else getattr(game, "centre_first", None)
        evaluate = self._evaluation(game)
        options = {"evaluate": evaluate, "order": order, "table": True, "trace": True,
                   "trace_depth": TRACE_DEPTH}
        try:
            result = alphabeta(game, state, depth=self.depth, time_limit=self.seconds, **options)
        except ValueError:
            # Too little time for even depth 1 (any other problem raises again here).
            result = alphabeta(game, state, depth=1, **options)
        return self._played(game, state, result)

    def __repr__(self):
        return f"IterativeDeepeningAgent(seconds={self.seconds!r}, name={self.name!r})"


class MCTSAgent(Agent):
    """Plays the move Monte Carlo tree search (UCT) visits most (with :func:`gametrees.mcts`).

    Parameters
    ----------
    playouts : int, default 1000
        Playouts per move.
    seconds : float, optional
        Time per move instead (with ``playouts=None``), or as a second limit.
        Timed play depends on the machine, so it is not exactly repeatable.
    c : float, default sqrt(2)
        UCB1's exploration constant. The results here are +1 / 0 / -1, and
        √2 is UCB1's constant for results from 0 to 1: on a range twice as
        wide it gives exploration half UCB1's weight (2√2 would give UCB1's
        balance), so the default explores less than UCB1 would.
    seed : int, optional
        Seed of the random playouts (each move's search draws its seed from
        the agent's seeded generator); a numpy integer too.
    name : str, default "mcts"

    Attributes
    ----------
    last_result : MCTSResult
        The last move's search: its ``graph`` is the tree it grew (what
        "Why did it play that?" draws); untraced, so play stays fast.
    last_visits : dict
        ``{move: (visits, mean value from MAX's point of view)}`` for the
        root's children after the last move's search (value ``None`` if never
        visited).
    last_nodes : int
        Positions visited in the last search (tree paths and playouts).

    Raises
    ------
    ValueError
        Made with ``playouts``, ``seconds`` or ``c`` that :func:`mcts`
        refuses (of the wrong type too); asked for a move at a finished or a
        chance state (chance draws, it does not choose), or in a game
        :func:`mcts` refuses.
    TypeError
        A ``seed`` that is not an int (numpy integers are ints).

    Examples
    --------
    >>> import gametrees as gt
    >>> game = gt.Nim(coins=7)
    >>> agent = gt.MCTSAgent(playouts=2000, seed=0)
    >>> agent(game, game.initial)                 # leave a multiple of 4
    3
    >>> {m: v for m, (v, _) in agent.last_visits.items()}[3] > 1000
    True
    """

    def __init__(self, playouts=1000, seconds=None, c=SQRT2, seed=None, name="mcts"):
        super().__init__(name, seed)
        try:
            check_mcts_options(playouts, seconds, c, None)
        except TypeError as error:
            raise ValueError(str(error)) from None
        self.playouts = playouts
        self.seconds = seconds
        self.c = c
        self.last_visits = None

    def choose(self, game, state):
        moves = legal_moves(game, state)
        if game.to_move(state) == CHANCE:
            raise ValueError(f"{self.name}: state {state!r} is a chance state: its outcome is drawn by "
                             "its probability, not chosen by a player")
        result = mcts(game, state, playouts=self.playouts, seconds=self.seconds, c=self.c,
                      seed=self.rng.randrange(2**32), trace=False, graph=True)
        by_move = result.root_children
        self.last_result = result
        self.last_nodes = result.stats["positions"]
        self.last_visits = {m: by_move.get(m, (0, None)) for m in moves}
        # The most visited child; on a tie the first in the game's move order.
        return max(moves, key=lambda m: self.last_visits[m][0])

    def __repr__(self):
        return (f"MCTSAgent(playouts={self.playouts!r}, seconds={self.seconds!r}, "
                f"seed={self.seed!r}, name={self.name!r})")


class QuitGame(Exception):
    """Raised by :class:`HumanAgent` when the person types ``q`` or input ends."""


class HumanAgent(Agent):
    """Asks a person for each move.

    Shows the legal moves, reads a line, and accepts it when it spells one of
    them (``str(move)``, case and surrounding spaces ignored).  Anything else
    gets a one-line explanation and the question again.  ``q`` or ``quit``
    (or the end of the input) raises :class:`QuitGame`.

    Parameters
    ----------
    name : str, default "you"
    read : callable, default :func:`input`
        ``read(prompt) -> str``.
    write : callable, default :func:`print`
        ``write(message)`` for the explanations.

    Examples
    --------
    >>> import gametrees as gt
    >>> answers = iter(["4", "nine", "2"])
    >>> agent = gt.HumanAgent(read=lambda prompt: next(answers))
    >>> agent(gt.TicTacToe(), gt.TicTacToe.from_string("XX./.OO/..."))
    illegal move 4 in tic-tac-toe position 'XX./.OO/...': cell 4 is already taken;
    legal moves: [2, 3, 6, 7, 8]
    'nine' is not a move; type one of 2, 3, 6, 7, 8 (or q to quit)
    2
    """

    QUIT = ("q", "quit", "exit")

    def __init__(self, name="you", read=input, write=print):
        super().__init__(name)
        self.read = _check_callable(read, "read", "prompt -> str")
        self.write = _check_callable(write, "write", "message -> None")

    def choose(self, game, state):
        moves = legal_moves(game, state)
        by_text = {str(m).lower(): m for m in moves}
        listed = ", ".join(map(str, moves))
        while True:
            try:
                who = "your" if self.name == "you" else f"{self.name}, your"
                text = self.read(f"{who} move ({listed}): ")
            except EOFError:
                raise QuitGame("the input ended") from None
            text = text.strip().lower()
            if text in self.QUIT:
                raise QuitGame(f"{self.name} quit")
            if text in by_text:
                self.last_nodes = 0
                return by_text[text]
            self.write(self._explain(game, state, text, listed))

    @staticmethod
    def _explain(game, state, text, listed):
        """One line on why ``text`` is not a legal move."""
        try:
            number = int(text)
        except ValueError:
            number = None
        if number is not None:
            try:
                game.result(state, number)
            except (TypeError, ValueError) as error:
                return str(error).splitlines()[0]
        shown = repr(text) if text else "an empty line"
        return f"{shown} is not a move; type one of {listed} (or q to quit)"
