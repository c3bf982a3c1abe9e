"""Monte Carlo tree search (UCT) and the agent that plays with it.

Instead of searching every move to a fixed depth, MCTS plays many quick
random games (*playouts*) and grows a tree where they look promising.  Each
playout has four steps:

1. **Selection**: from the root, go down the tree, at each node taking the
   child with the highest UCB1 score::

       mean reward of the child + c * sqrt(ln(visits of the parent) / visits of the child)

   A child never visited scores +infinity, so every child is tried once
   before any is tried twice.  The mean reward is that of the player who
   *moved into* the child, the one choosing at the parent.
2. **Expansion**: a node reached for the first time gets its children (all
   unvisited); a finished game is never expanded.
3. **Simulation**: from the new node, play random moves to the end of the
   game (from a finished position there is nothing to play).
4. **Backpropagation**: every node on the path counts the visit and adds the
   result, +1 / 0 / -1, seen from the player who moved into it.

After the playouts the move played is the root's *most visited* child: a
child with one lucky win out of one visit has a high mean but proves nothing.

Imports: :mod:`gametrees.games` and :mod:`gametrees.agents` (the Agent base class).

Examples
--------
>>> import gametrees as gt
>>> game = gt.TicTacToe()
>>> agent = gt.MCTSAgent(playouts=500, seed=1)
>>> agent(game, gt.TicTacToe.from_string("XX./OO./..."))    # X wins at once
2
>>> visits, value = agent.last_visits[2]
>>> value                   # mean result of playing 2, from MAX's (X's) point of view
1.0
"""

from __future__ import annotations

import math
import random as random_module
import reprlib
from time import perf_counter

from .agents import Agent, legal_moves
from .games import CHANCE, MAX, MIN

__all__ = ["MCTSAgent", "MCTSNode", "uct_search"]

#: UCB1's exploration constant, sqrt(2).
SQRT2 = math.sqrt(2)


class MCTSNode:
    """A node of the search tree.

    Attributes
    ----------
    state
        The game state.
    move
        The move that led here from the parent (``None`` at the root).
    parent : MCTSNode or None
    mover : str or None
        ``"max"`` or ``"min"``: the player who made ``move`` (who chose this
        node at the parent); ``None`` at the root.
    terminal : bool
        The game is over here.
    children : list of MCTSNode or None
        ``None`` until the node is expanded; then one child per legal move.
    visits : int
        Playouts that went through this node.
    total : float
        The sum of their results from ``mover``'s point of view (+1 win,
        0 draw, -1 loss, or the utility for other games).
    """

    __slots__ = ("state", "move", "parent", "mover", "terminal", "children", "tried",
                 "visits", "total")

    def __init__(self, state, move, parent, mover, terminal):
        self.state = state
        self.move = move
        self.parent = parent
        self.mover = mover
        self.terminal = terminal
        self.children = None
        self.tried = 0  # children[:tried] have been visited (they come in random order)
        self.visits = 0
        self.total = 0.0

    def mean(self):
        """The mean result of the playouts through this node, for ``mover``."""
        return self.total / self.visits if self.visits else None

    def max_value(self):
        """The mean result from MAX's point of view (``None`` if never visited)."""
        if not self.visits:
            return None
        return self.total / self.visits if self.mover == MAX else -self.total / self.visits

    def __repr__(self):
        return (f"MCTSNode(move={self.move!r}, mover={self.mover!r}, visits={self.visits}, "
                f"total={self.total!r})")


def uct_search(game, state, playouts=1000, seconds=None, c=SQRT2, rng=None):
    """Run UCT from ``state`` and return the root :class:`MCTSNode` and the positions seen.

    Parameters
    ----------
    game : Game
        A two-player game without chance states.
    state
        The position to search from (not finished).
    playouts : int or None, default 1000
        Stop after this many playouts (``None``: no limit, give ``seconds``).
    seconds : float, optional
        Stop when this much time has passed.
    c : float, default sqrt(2)
        The exploration constant of UCB1.
    rng : random.Random, optional
        The source of randomness (:class:`MCTSAgent` passes its seeded one);
        default a fresh, unseeded one.

    Returns
    -------
    root : MCTSNode
    positions : int
        States visited: on the tree paths and in the random playouts.

    Examples
    --------
    >>> import random
    >>> import gametrees as gt
    >>> root, _ = uct_search(gt.Nim(coins=5), (5, "max"), playouts=300, rng=random.Random(0))
    >>> root.visits, sum(child.visits for child in root.children)
    (300, 300)
    >>> max(root.children, key=lambda child: child.visits).move   # leave 4: a lost pile
    1
    """
    check = getattr(game, "check_state", None)
    if callable(check):
        check(state)
    if rng is None:
        rng = random_module.Random()
    successors, is_terminal, utility, to_move = (
        game.successors, game.is_terminal, game.utility, game.to_move)
    random = rng.random
    log, sqrt, inf = math.log, math.sqrt, math.inf
    root = MCTSNode(state, None, None, None, is_terminal(state))
    deadline = None if seconds is None else perf_counter() + seconds
    limit = playouts if playouts is not None else math.inf
    positions = 0
    done = 0
    while done < limit and (deadline is None or not done or perf_counter() < deadline):
        done += 1
        node = root
        path = [root]
        # 1-2. Selection and expansion: down the tree until a node is visited
        # for the first time or the game is over there.
        while not node.terminal:
            children = node.children
            if children is None:
                children = node.children = _expand(node, successors, is_terminal, to_move, rng)
            tried = node.tried
            if tried < len(children):        # an unvisited child: UCB1 = +infinity
                node.tried = tried + 1
                node = children[tried]
                path.append(node)
                break
            log_n = log(node.visits)
            best, best_score = None, -math.inf
            for child in children:
                n = child.visits
                score = child.total / n + c * sqrt(log_n / n)
                if score > best_score:
                    best, best_score = child, score
            node = best
            path.append(node)
        positions += len(path)
        # 3. Simulation: random moves to the end of the game.
        s = node.state
        while not is_terminal(s):
            kids = successors(s)
            s = kids[int(random() * len(kids))][1]
            positions += 1
        result = utility(s)
        try:  # NaN, +-inf or no number at all would poison every average above
            if not -inf < result < inf:
                _bad_result(result, s)
        except TypeError:
            _bad_result(result, s)
        # 4. Backpropagation: each node scores the result for its mover.
        for n in path:
            n.visits += 1
            if n.mover == MAX:
                n.total += result
            elif n.mover == MIN:
                n.total -= result
    return root, positions


def _bad_result(result, state):
    """Raise the ValueError of a playout whose result MCTS cannot average."""
    error = ValueError if isinstance(result, (int, float)) and not isinstance(result, bool) else TypeError
    raise error(
        f"MCTS averages the results of its playouts, so utility must return a finite number; "
        f"it returned {reprlib.repr(result)} for state {state!r}"
    )


def _expand(node, successors, is_terminal, to_move, rng):
    """The children of ``node`` (all unvisited), in random order."""
    mover = to_move(node.state)
    if mover != MAX and mover != MIN:
        if mover == CHANCE:
            raise ValueError(
                f"MCTS here handles two-player games without chance: state {node.state!r} is a "
                "chance state (use gt.expectimax for games with chance)"
            )
        raise ValueError(f"to_move({node.state!r}) returned {mover!r}: expected 'max' or 'min'")
    children = [MCTSNode(child, move, node, mover, is_terminal(child))
                for move, child in successors(node.state)]
    rng.shuffle(children)
    return children


class MCTSAgent(Agent):
    """Plays the move Monte Carlo tree search (UCT) visits most.

    Parameters
    ----------
    playouts : int, default 1000
        Playouts per move.
    seconds : float, optional
        Time per move instead (with ``playouts=None``), or as a second limit.
        Timed play depends on the machine, so it is not exactly repeatable.
    c : float, default sqrt(2)
        UCB1's exploration constant (results are +1 / 0 / -1).
    seed : int, optional
        Seed of the random playouts and of the order unvisited children are
        tried in.
    name : str, default "mcts"

    Attributes
    ----------
    last_result : None
        MCTS has no search result in the minimax sense.
    last_visits : dict
        ``{move: (visits, mean value from MAX's point of view)}`` for the
        root's children after the last move's search (value ``None`` if never
        visited).
    last_root : MCTSNode
        The root of the last search tree.
    last_nodes : int
        Positions visited in the last search (tree paths and playouts).

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
        if playouts is not None and (isinstance(playouts, bool) or not isinstance(playouts, int)
                                     or playouts < 1):
            raise ValueError(f"playouts must be None or an int >= 1, got {playouts!r}")
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                    or not seconds > 0):
            raise ValueError(f"seconds must be None or a positive number, got {seconds!r}")
        if playouts is None and seconds is None:
            raise ValueError("give playouts, seconds or both: MCTS needs a limit")
        if isinstance(c, bool) or not isinstance(c, (int, float)) or c < 0:
            raise ValueError(f"c must be a number >= 0, got {c!r}")
        self.playouts = playouts
        self.seconds = seconds
        self.c = c
        self.last_visits = None
        self.last_root = None

    def choose(self, game, state):
        moves = legal_moves(game, state)
        root, positions = uct_search(game, state, self.playouts, self.seconds, self.c, self.rng)
        by_move = {child.move: child for child in root.children or ()}
        self.last_root = root
        self.last_result = None
        self.last_nodes = positions
        self.last_visits = {m: (by_move[m].visits, by_move[m].max_value()) for m in moves}
        # The most visited child; on a tie the first in the game's move order.
        return max(moves, key=lambda m: by_move[m].visits)

    def __repr__(self):
        return (f"MCTSAgent(playouts={self.playouts!r}, seconds={self.seconds!r}, "
                f"seed={self.seed!r}, name={self.name!r})")
