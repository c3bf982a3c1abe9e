"""Tournaments: two agents play a series of games, and the results are counted.

:func:`tournament` plays ``games`` games between two agents, swapping seats
every game (or keeping them), and returns a :class:`TournamentResult`: wins,
draws and losses per agent and per seat, the average positions examined and
seconds per move, and every game's moves.  With a ``seed`` the series is
repeatable: each game re-seeds both agents (and the dice, for games of chance)
with seeds derived from it, so the same seed gives the same games.

Imports: :mod:`gametrees.games` only (agents are any callables); tqdm on request.

Examples
--------
>>> import gametrees as gt
>>> result = gt.tournament(gt.MinimaxAgent(), gt.RandomAgent(), gt.TicTacToe(), games=6, seed=0)
>>> result
TicTacToe(): minimax vs random, 6 games, seats alternate, seed 0
agent    wins  draws  losses  first W-D-L  second W-D-L  nodes/move
minimax     4      2       0        3-0-0         1-2-0       109.5
random      0      2       4        0-2-1         0-0-3         0.0
>>> result.wins["minimax"], result.draws, result.losses["minimax"]
(4, 2, 0)
>>> result.seat_scores["minimax"]["second"]   # (wins, draws, losses) moving second
Score(wins=1, draws=2, losses=0)
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from time import perf_counter
from typing import Any, NamedTuple

from .games import CHANCE, MAX
from .games.protocol import check_chances, number_problem

__all__ = ["GameRecord", "Score", "TournamentResult", "tournament"]

SEATS = ("alternate", "fixed")
#: Without a terminal or a notebook no bar is shown; with one, only after this
#: many seconds (short runs stay quiet).
PROGRESS_DELAY = 2.0


class Score(NamedTuple):
    """Wins, draws and losses."""

    wins: int
    draws: int
    losses: int

    def __str__(self):
        return f"{self.wins}-{self.draws}-{self.losses}"


@dataclass(frozen=True)
class GameRecord:
    """One game of a tournament.

    Attributes
    ----------
    index : int
        0, 1, 2, ... in the order played.
    first, second : str
        The agents (their tournament labels) that moved first (MAX) and second.
    moves : tuple
        The moves played, chance outcomes included.
    utility : number
        The final utility, from MAX's (the first player's) point of view.
    winner : str or None
        The label of the winner, ``None`` for a draw.
    """

    index: int
    first: str
    second: str
    moves: tuple
    utility: Any
    winner: str | None


class TournamentResult:
    """What :func:`tournament` returns.

    Attributes
    ----------
    game : str
        The game's repr.
    agents : tuple of str
        The two labels: the agents' names (suffixed ``-1`` and ``-2`` when the
        names are equal).
    games : int
    seats : str
        ``"alternate"`` or ``"fixed"``.
    seed : int or None
    records : list of GameRecord
    wins, losses : dict
        ``{label: count}``.
    draws : int
    seat_scores : dict
        ``{label: {"first": Score, "second": Score}}``: by the seat played.
    moves : dict
        ``{label: moves played}``.
    nodes_per_move : dict
        ``{label: average positions examined per move}`` (``None`` for an
        agent without a ``last_nodes`` attribute).
    seconds_per_move : dict
        ``{label: average seconds per move}`` (varies from run to run).

    Notes
    -----
    ``repr(result)`` is a table without the timings, so a seeded tournament
    always prints the same; ``str(result)`` (``print(result)``) adds the
    milliseconds per move.
    """

    def __init__(self, game, agents, games, seats, seed, records, nodes, seconds, moves):
        self.game = game
        self.agents = agents
        self.games = games
        self.seats = seats
        self.seed = seed
        self.records = records
        self.moves = moves
        self.wins = {a: sum(r.winner == a for r in records) for a in agents}
        self.draws = sum(r.winner is None for r in records)
        self.losses = {a: sum(r.winner is not None and r.winner != a and a in (r.first, r.second)
                              for r in records) for a in agents}
        self.seat_scores = {a: {seat: self._score(a, seat) for seat in ("first", "second")}
                            for a in agents}
        self.nodes_per_move = {a: (None if nodes[a] is None else nodes[a] / moves[a] if moves[a] else 0.0)
                               for a in agents}
        self.seconds_per_move = {a: seconds[a] / moves[a] if moves[a] else 0.0 for a in agents}

    def _score(self, agent, seat):
        mine = [r for r in self.records if getattr(r, seat) == agent]
        wins = sum(r.winner == agent for r in mine)
        draws = sum(r.winner is None for r in mine)
        return Score(wins, draws, len(mine) - wins - draws)

    def table(self, timings=False):
        """Return the results as a small text table (``timings``: add ms per move)."""
        header = ["agent", "wins", "draws", "losses", "first W-D-L", "second W-D-L", "nodes/move"]
        if timings:
            header.append("ms/move")
        rows = []
        for a in self.agents:
            nodes = self.nodes_per_move[a]
            row = [a, self.wins[a], self.draws, self.losses[a], self.seat_scores[a]["first"],
                   self.seat_scores[a]["second"], "-" if nodes is None else f"{nodes:,.1f}"]
            if timings:
                row.append(f"{1000 * self.seconds_per_move[a]:.3f}")
            rows.append([str(x) for x in row])
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]

        def line(cells):
            return "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                             for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

        seed = "" if self.seed is None else f", seed {self.seed}"
        title = (f"{self.game}: {self.agents[0]} vs {self.agents[1]}, {self.games} game"
                 f"{'s' if self.games != 1 else ''}, seats {self.seats}{seed}")
        return "\n".join([title, line(header), *map(line, rows)])

    def __repr__(self):
        return self.table(timings=False)

    def __str__(self):
        return self.table(timings=True)


def _labels(agent_a, agent_b):
    names = []
    for agent in (agent_a, agent_b):
        if not callable(agent):
            raise TypeError(f"an agent must be a callable agent(game, state) -> move, got {agent!r}")
        name = getattr(agent, "name", None) or getattr(agent, "__name__", None)
        if not isinstance(name, str) or not name:
            raise TypeError(f"an agent needs a name (a non-empty str .name), got {agent!r}")
        names.append(name)
    if names[0] == names[1]:
        names = [f"{names[0]}-1", f"{names[1]}-2"]
    return tuple(names)


#: What a tournament asks of its game.
_GAME_PARTS = ("initial", "is_terminal", "to_move", "result", "utility")


def _check_game(game):
    if isinstance(game, type):  # the class itself, not a game made from it
        raise TypeError(f"game must be a game such as gt.TicTacToe() (made by calling the class), "
                        f"got the class {game.__name__}: write {game.__name__}()")
    missing = [part for part in _GAME_PARTS if not hasattr(game, part)]
    if missing:
        raise TypeError(
            f"game must be a game such as gt.TicTacToe(), gt.ConnectFour() or gt.Nim(), got "
            f"{type(game).__name__}, which has no {', '.join(missing)}")


def _in_notebook():
    """True inside a Jupyter kernel (an IPython shell with a kernel)."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    get_ipython = getattr(ipython, "get_ipython", None)
    shell = get_ipython() if callable(get_ipython) else None
    return shell is not None and hasattr(shell, "kernel")


def _progress_bar(total, progress):
    """A tqdm bar, or None: see :func:`tournament` for when one is shown."""
    if progress is False:
        return None
    in_notebook = _in_notebook()
    if progress is None and not in_notebook and not sys.stderr.isatty():
        return None
    if in_notebook:
        from tqdm.auto import tqdm
    else:
        from tqdm import tqdm
    delay = 0 if progress is True else PROGRESS_DELAY
    return tqdm(total=total, desc="games", unit="game", delay=delay, leave=False, file=sys.stderr)


def tournament(agent_a, agent_b, game, games=10, *, seed=None, seats="alternate",
               openings=0, progress=None, on_game=None):
    """Play ``games`` games between two agents and count the results.

    Parameters
    ----------
    agent_a, agent_b : callable
        Agents: ``agent(game, state) -> move`` with a ``name``.  Agents with a
        ``reset(seed)`` method (all of :mod:`gametrees.agents`) are re-seeded
        before every game.  The same agent object may play both seats.
    game : Game
    games : int, default 10
    seed : int, optional
        Makes the series repeatable: the same seed plays the same games
        (agents that stop on a clock, like the iterative-deepening agent,
        excepted).  ``None``: fresh randomness.
    seats : {"alternate", "fixed"}
        ``"alternate"`` (default): ``agent_a`` moves first in games 0, 2, 4,
        ... and ``agent_b`` in games 1, 3, ...; ``"fixed"``: ``agent_a``
        always moves first.
    openings : int, default 0
        Start every game with this many random moves (drawn from ``seed``)
        before the agents take over, so that deterministic agents (such as
        alpha-beta at a fixed depth) play different games. With seats
        alternating, each opening is played twice, once with each agent
        moving first.
    progress : bool, optional
        ``True``: show a progress bar (tqdm, on standard error);
        ``False``: never; ``None`` (default): in a notebook, or on a terminal,
        once the run has taken more than 2 seconds.
    on_game : callable, optional
        ``on_game(record)`` after each game, with its :class:`GameRecord`.

    Returns
    -------
    TournamentResult

    Raises
    ------
    ValueError
        If an agent plays an illegal move (the message names the agent, the
        game and the move), or for bad arguments.
    TypeError
        ``game`` is not a game (``None``, a tree), an agent is not
        callable or has no name.

    Examples
    --------
    >>> import gametrees as gt
    >>> r = gt.tournament(gt.AlphaBetaAgent(depth=2), gt.RandomAgent(), gt.ConnectFour(),
    ...                   games=4, seed=1)
    >>> r
    ConnectFour(rows=6, cols=7, k=4): alphabeta vs random, 4 games, seats alternate, seed 1
    agent      wins  draws  losses  first W-D-L  second W-D-L  nodes/move
    alphabeta     4      0       0        2-0-0         2-0-0        ...
    random        0      0       4        0-0-2         0-0-2         0.0
    >>> r.records[0].first, r.records[0].winner, len(r.records[0].moves) > 6
    ('alphabeta', 'alphabeta', True)
    """
    labels = _labels(agent_a, agent_b)
    _check_game(game)
    _check_options(games, seed, seats, progress, openings, on_game)
    agents = dict(zip(labels, (agent_a, agent_b)))
    master = random.Random(seed)
    opening_rng = random.Random(None if seed is None else f"{seed}/openings")
    opening = ()
    records = []
    nodes = dict.fromkeys(labels, 0)
    seconds = dict.fromkeys(labels, 0.0)
    moves = dict.fromkeys(labels, 0)
    bar = _progress_bar(games, progress)
    started = perf_counter()
    try:
        for index in range(games):
            first, second = labels if seats == "fixed" or index % 2 == 0 else labels[::-1]
            dice = _seed_game(agents, first, second, master)
            if openings and (seats == "fixed" or index % 2 == 0):
                opening = _random_opening(game, openings, opening_rng)
            record = _play(game, index, agents, first, second, dice, nodes, seconds, moves, opening)
            records.append(record)
            if on_game is not None:
                _tell(on_game, record, bar, started)
            if bar is not None:
                bar.update()
    finally:
        if bar is not None:
            bar.close()
    return TournamentResult(repr(game), labels, games, seats, seed, records, nodes, seconds, moves)


def _check_options(games, seed, seats, progress, openings, on_game):
    """Refuse a tournament's option of the wrong type or out of range."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ValueError(f"games must be an int >= 0, got {games!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(f"seed must be None or an int, got {seed!r}")
    if seats not in SEATS:
        raise ValueError(f"seats must be one of {SEATS}, got {seats!r}")
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"progress must be None, True or False, got {progress!r}")
    if isinstance(openings, bool) or not isinstance(openings, int) or openings < 0:
        raise ValueError(f"openings must be an int >= 0, got {openings!r}")
    if on_game is not None and not callable(on_game):
        raise TypeError(f"on_game must be a function record -> None, got {on_game!r}")


def _seed_game(agents, first, second, master):
    """Re-seed both agents for one game from the tournament's ``master`` generator; the game's dice."""
    game_seeds = [master.getrandbits(64) for _ in range(3)]
    for label, game_seed in zip((first, second), game_seeds):
        reset = getattr(agents[label], "reset", None)
        if callable(reset):
            reset(game_seed)
    return random.Random(game_seeds[2])


def _tell(on_game, record, bar, started):
    """``on_game(record)``, clear of the progress bar once it shows."""
    if bar is not None and perf_counter() - started >= bar.delay:
        with bar.external_write_mode():  # clear the bar, write, redraw it
            on_game(record)
    else:
        on_game(record)


def _random_opening(game, length, rng):
    """Up to ``length`` random moves from the start that do not end the game."""
    state, moves = game.initial, []
    for _ in range(length):
        options = [m for m, child in game.successors(state) if not game.is_terminal(child)]
        if not options:
            break
        move = rng.choice(options)
        state = game.result(state, move)
        moves.append(move)
    return tuple(moves)


def _play(game, index, agents, first, second, dice, nodes, seconds, moves, opening=()):
    """Play one game (after the opening moves); add up the agents' nodes, seconds and moves."""
    state = game.initial
    played = []
    for move in opening:
        state = game.result(state, move)
        played.append(move)
    while not game.is_terminal(state):
        role = game.to_move(state)
        if role == CHANCE:
            probs = check_chances(game.chances(state), list(game.actions(state)),
                                  f"tournament: chance state {state!r}")
            move = dice.choices(list(probs), list(probs.values()))[0]
            state = game.result(state, move)
            played.append(move)
            continue
        label = first if role == MAX else second
        agent = agents[label]
        t0 = perf_counter()
        move = agent(game, state)
        seconds[label] += perf_counter() - t0
        moves[label] += 1
        if nodes[label] is not None:
            count = getattr(agent, "last_nodes", None)
            nodes[label] = None if count is None else nodes[label] + count
        try:
            state = game.result(state, move)
        except (TypeError, ValueError) as error:
            raise ValueError(f"agent {label!r} played an illegal move in game {index}: {error}") from None
        played.append(move)
    utility = game.utility(state)
    problem = number_problem(utility)
    if problem is not None:  # NaN would count as a draw, silently
        error, text = problem
        raise error(f"game {index} ended in state {state!r} with utility {text}: expected a number "
                    "from MAX's point of view (above 0: MAX won, below 0: MIN won, 0: a draw)")
    winner = first if utility > 0 else second if utility < 0 else None
    return GameRecord(index, first, second, tuple(played), utility, winner)
