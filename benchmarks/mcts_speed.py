"""Monte Carlo tree search: gt.mcts against the uct_search it replaced, and the cost of tracing.

Prints one table: playouts per second from the empty board of tic-tac-toe
and of Connect Four 7x6 for

* ``uct_search``: the package's MCTS before ``gt.mcts`` (gametrees 0.1.0's
  ``gametrees/mcts.py``, kept verbatim below as the baseline: it built a bare
  node tree, no trace, no graph);
* ``gt.mcts(..., trace=False, graph=False)``: the search every agent runs;
* ``gt.mcts(..., trace=True)``: every step recorded for the replay (the
  graph is built lazily, only when ``result.graph`` is read, so it is not
  timed here; it is timed in the last column, once).

Targets: untraced ``gt.mcts`` no slower than ``uct_search`` (issue 21);
tracing at most 2.5x the untraced time on tic-tac-toe (issue 29; it was 3x).

A second table times searches with a time limit (``seconds``) and ``playouts``
from none to 2**63 (wall-clock time): issue 32's target is the time limit
honoured within 10% whatever ``playouts`` is.

Run: python benchmarks/mcts_speed.py [--repeat N]
Timings are the least CPU time of N runs (default 5), the three searches
taking turns, so that a busy machine slows all of them alike.
"""

import argparse
import gc
import math
import random as random_module
import reprlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from report import table  # noqa: E402  (benchmarks/report.py)

import gametrees as gt  # noqa: E402
from gametrees.games import CHANCE, MAX, MIN, ConnectFour, TicTacToe  # noqa: E402

perf_counter = time.perf_counter
SQRT2 = math.sqrt(2)


# --- the baseline: gametrees 0.1.0's uct_search, verbatim --------------------------

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



# --- the table ---


def best_of(repeat, fn):
    """The least CPU time of ``repeat`` calls of ``fn()`` (each after a full garbage collection), and its
    result.

    CPU time (``time.process_time``), not wall-clock time: on a machine shared with other
    work the wall clock counts the others' time too.
    """
    best, out = float("inf"), None
    for _ in range(repeat):
        out = None
        gc.collect()
        t = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t)
    return best, out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rows = []
    games = [("tic-tac-toe", TicTacToe(), 5000), ("Connect Four 7x6", ConnectFour(), 1000)]
    for label, game, playouts in games:
        old = plain = traced = float("inf")

        def uct(g=game, n=playouts):
            return uct_search(g, g.initial, playouts=n, rng=random_module.Random(0))

        def untraced(g=game, n=playouts):
            return gt.mcts(g, playouts=n, seed=0, trace=False, graph=False)

        def traced_search(g=game, n=playouts):
            return gt.mcts(g, playouts=n, seed=0, trace=True)

        for _ in range(args.repeat):  # taking turns
            old = min(old, best_of(1, uct)[0])
            plain = min(plain, best_of(1, untraced)[0])
            seconds, result = best_of(1, traced_search)
            traced = min(traced, seconds)
        t = time.process_time()
        G = result.graph
        graph_s = time.process_time() - t
        rows.append([label, f"{playouts:,}", f"{playouts / old:,.0f}", f"{playouts / plain:,.0f}",
                     f"{old / plain:.2f}x", f"{playouts / traced:,.0f}", f"{traced / plain:.2f}x",
                     f"{len(result.trace):,}", f"{graph_s:.3f} ({G.number_of_nodes():,} nodes)"])
    table("MCTS from the empty board: playouts per CPU second (best of %d)" % args.repeat,
          ["game", "playouts", "uct_search", "gt.mcts untraced", "speed-up", "gt.mcts traced",
           "tracing costs", "events", "graph s"], rows)
    timed_rows = []
    for label, game in [("tree [[1, -1], [0, 1]]", gt.tree_from_nested([[1, -1], [0, 1]])),
                        ("tic-tac-toe", TicTacToe())]:
        for playouts in (None, 3_000_000, 10**8, 2**63):
            for trace in (False, None):
                gc.collect()
                t = time.perf_counter()
                r = gt.mcts(game, playouts=playouts, seconds=0.5, seed=1, trace=trace)
                took = time.perf_counter() - t
                timed_rows.append([label, "none" if playouts is None else f"{playouts:,}", str(trace), "0.5",
                                   f"{took:.3f}", f"{took / 0.5 - 1:+.1%}", f"{r.stats['playouts']:,}",
                                   repr(r.move)])
                del r  # (freed here, not in the next search's time)
    table("MCTS with a time limit: seconds asked and taken (wall clock), whatever playouts is",
          ["subject", "playouts", "trace", "seconds", "taken", "over", "playouts done", "move"], timed_rows)


if __name__ == "__main__":
    main()
