"""How fast are the agents? Prints four tables.

1. Connect Four 7x6, alpha-beta to depth 6 with the evaluation function, from
   the empty board: nodes, seconds and nodes per second, against easyAI's
   Negamax(6) on its own Connect Four (if easyAI is installed:
   ``pip install easyAI``; it is not a dependency of gametrees).
2. The evaluation functions, microseconds per call (no cache).
3. MCTS playouts per second on tic-tac-toe and Connect Four (``gt.mcts`` untraced;
   ``benchmarks/mcts_speed.py`` compares it with the old ``uct_search`` and times tracing).
4. Time per move of the searching agents, which trace the top two plies of
   every search (``trace_depth=2``) for ``agent.last_result``: the same
   searches untraced for comparison.

How easyAI's nodes are counted: its negamax creates every child position by
``make_move`` on a copy of the game, so the benchmark subclasses easyAI's
ConnectFour and counts ``make_move`` calls; nodes = calls + 1 (the root).
That is the same count as gametrees' ``nodes_visited`` (every position
entered, root included).  easyAI searches the columns left to right with
alpha-beta and no transposition table, scoring positions with its game's
``scoring`` (-100 for a lost position, else 0); gametrees is timed both in
the same left-to-right order and with centre-first ordering.

Run: python benchmarks/agents.py [--repeat N]
Timings are the best of N runs (default 3).
"""

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from report import best_of, table  # noqa: E402  (benchmarks/report.py)

import gametrees as gt  # noqa: E402
from gametrees.games import ConnectFour, TicTacToe  # noqa: E402

# --- easyAI -----------------------------------------------------------------------


def easyai_negamax(depth):
    """(nodes, move) of easyAI's Negamax(depth) from the empty 7x6 board, or None."""
    try:
        from easyAI import AI_Player, Negamax
        from easyAI.games import ConnectFour as EasyConnectFour
    except ImportError:
        return None

    class Counted(EasyConnectFour):
        made = 0

        def make_move(self, column):
            Counted.made += 1
            super().make_move(column)

    ai = Negamax(depth)
    game = Counted([AI_Player(ai), AI_Player(ai)])
    Counted.made = 0
    move = ai(game)
    return Counted.made + 1, move


# --- the tables ---------------------------------------------------------------------


def search_speed(repeat):
    game = ConnectFour()
    rows = []

    def ours(order, cache):
        def run():
            evaluate = gt.connect4_evaluation(game, cache_size=cache)  # a cold cache every run
            return gt.alphabeta(game, depth=6, evaluate=evaluate, order=order)
        return run

    results = []
    for label, order, cache in [
        ("gametrees alphabeta, columns left to right, no cache", None, 0),
        ("gametrees alphabeta, columns left to right", None, 1 << 17),
        ("gametrees alphabeta, centre-first ordering", game.centre_first, 1 << 17),
    ]:
        seconds, r = best_of(repeat, ours(order, cache))
        results.append((label, r.stats["nodes_visited"], seconds, r.move))

    def agent_move():
        agent = gt.AlphaBetaAgent(depth=6)  # + transposition table, traced 2 plies
        agent(game, game.initial)
        return agent.last_result

    seconds, r = best_of(repeat, agent_move)
    results.append(("gt.AlphaBetaAgent(depth=6) (table, trace_depth=2)", r.stats["nodes_visited"],
                    seconds, r.move))

    easy = None
    if easyai_negamax(1) is not None:
        seconds, (nodes, move) = best_of(repeat, lambda: easyai_negamax(6))
        easy = nodes / seconds
        results.append(("easyAI Negamax(6), left to right", nodes, seconds, move))
    for label, nodes, seconds, move in results:
        rate = nodes / seconds
        ratio = f"{rate / easy:.1f}x" if easy else "-"
        rows.append([label, f"{nodes:,}", f"{seconds:.3f}", f"{rate:,.0f}", ratio, move])
    table("Connect Four 7x6, depth 6 with an evaluation function, from the empty board",
          ["search", "nodes", "seconds", "nodes/s", "vs easyAI", "move"], rows)
    if easy is None:
        print("easyAI is not installed: its row is skipped (pip install easyAI to compare).")


def random_positions(game, count, seed, max_plies):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.initial
        for _ in range(rng.randrange(max_plies)):
            kids = game.successors(state)
            if not kids:
                break
            state = rng.choice(kids)[1]
        if not game.is_terminal(state):
            out.append(state)
    return out


def evaluation_speed(repeat):
    rows = []
    c4 = ConnectFour()
    for label, game, evaluate in [
        ("connect4_evaluation, 7x6, k=4 (bit-parallel, k=4 path)", c4,
         gt.connect4_evaluation(c4, cache_size=0)),
        ("connect4_evaluation, 7x6, k=5 (general path)", ConnectFour(6, 7, 5),
         gt.connect4_evaluation(ConnectFour(6, 7, 5), cache_size=0)),
        ("tictactoe_open_lines", TicTacToe(), gt.tictactoe_open_lines),
    ]:
        states = random_positions(game, 2000, 1, 30)
        seconds, _ = best_of(repeat, lambda e=evaluate, s=states: [e(x) for x in s])
        rows.append([label, f"{len(states):,}", f"{1e6 * seconds / len(states):.2f}"])
    table("Evaluation functions", ["function", "positions", "us/call"], rows)


def mcts_speed(repeat):
    rows = []
    games = [("tic-tac-toe", TicTacToe(), 5000), ("Connect Four 7x6", ConnectFour(), 2000)]
    for label, game, playouts in games:
        seconds, result = best_of(
            repeat, lambda g=game, p=playouts: gt.mcts(g, playouts=p, seed=0, trace=False, graph=False))
        positions = result.stats["positions"]
        rows.append([label, f"{playouts:,}", f"{seconds:.3f}", f"{playouts / seconds:,.0f}",
                     f"{positions / seconds:,.0f}"])
    table("MCTS (UCT) from the empty board", ["game", "playouts", "seconds", "playouts/s", "positions/s"],
          rows)


def agent_speed(repeat):
    ttt, c4 = TicTacToe(), ConnectFour()
    rows = []
    cases = [
        ("MinimaxAgent, tic-tac-toe, empty board, cold table", ttt, ttt.initial,
         lambda: gt.MinimaxAgent(seed=0),
         lambda s: gt.minimax(ttt, s, table=True, symmetry=True)),
        ("MinimaxAgent, tic-tac-toe, after 1 move, cold table", ttt, TicTacToe.from_string(".../.X./..."),
         lambda: gt.MinimaxAgent(seed=0),
         lambda s: gt.minimax(ttt, s, table=True, symmetry=True)),
        ("MinimaxAgent, tic-tac-toe, empty board, no table", ttt, ttt.initial,
         None, lambda s: gt.minimax(ttt, s)),
        ("AlphaBetaAgent(depth=4), Connect Four, empty board", c4, c4.initial,
         lambda: gt.AlphaBetaAgent(depth=4),
         lambda s: gt.alphabeta(c4, s, depth=4, evaluate=gt.connect4_evaluation(c4), order=c4.centre_first,
                                table=True)),
        ("AlphaBetaAgent(depth=6), Connect Four, after 3 moves", c4, c4.from_moves([3, 3, 2]),
         lambda: gt.AlphaBetaAgent(depth=6),
         lambda s: gt.alphabeta(c4, s, depth=6, evaluate=gt.connect4_evaluation(c4), order=c4.centre_first,
                                table=True)),
    ]
    for label, game, state, make, untraced in cases:
        t_plain, r = best_of(repeat, lambda u=untraced, s=state: u(s))
        if make is None:
            rows.append([label.replace("MinimaxAgent", "gt.minimax"), f"{r.stats['nodes_visited']:,}",
                         "-", f"{1000 * t_plain:.1f}"])
            continue

        def move(m=make, g=game, s=state):
            agent = m()
            agent(g, s)
            return agent

        t_agent, agent = best_of(repeat, move)
        rows.append([label, f"{agent.last_nodes:,}", f"{1000 * t_agent:.1f}", f"{1000 * t_plain:.1f}"])
    table("Searching agents: one move, traced two plies deep (agent) and untraced (search alone)",
          ["agent", "nodes", "agent ms", "untraced ms"], rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    search_speed(args.repeat)
    evaluation_speed(args.repeat)
    mcts_speed(args.repeat)
    agent_speed(args.repeat)


if __name__ == "__main__":
    main()
