"""Agents and evaluation functions: against independent references, and in play."""

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gametrees as gt
from gametrees.agents import QuitGame, ending_moves, root_values
from gametrees.evaluation import DEFAULT_WEIGHTS
from gametrees.games import MAX, MIN, ConnectFour, Nim, TicTacToe

SOME = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TTT = TicTacToe()


# ----------------------------------------------------------------------------
# Positions
# ----------------------------------------------------------------------------


def reachable(game, state=None, seen=None):
    """Every position reachable from ``state`` (default: the start)."""
    state = game.initial if state is None else state
    seen = set() if seen is None else seen
    if state not in seen:
        seen.add(state)
        for _, child in game.successors(state):
            reachable(game, child, seen)
    return seen


TTT_POSITIONS = sorted(reachable(TTT))


def play_random(game, rng, plies):
    """The position after up to ``plies`` random moves (stops at the end of the game)."""
    state = game.initial
    for _ in range(plies):
        kids = game.successors(state)
        if not kids:
            break
        state = rng.choice(kids)[1]
    return state


@st.composite
def connect4_positions(draw, max_rows=7, max_cols=8):
    rows = draw(st.integers(1, max_rows))
    cols = draw(st.integers(1, max_cols))
    k = draw(st.integers(1, max(rows, cols)))
    game = ConnectFour(rows, cols, k)
    rng = random.Random(draw(st.integers(0, 2**32)))
    return game, play_random(game, rng, draw(st.integers(0, rows * cols)))


# ----------------------------------------------------------------------------
# Tic-tac-toe: open lines, against a count on the text of the board
# ----------------------------------------------------------------------------

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def open_lines_reference(state):
    """(lines open for X, lines open for O), counted on the board's text."""
    cells = TicTacToe.to_string(state).replace("/", "")
    return (sum("O" not in (cells[a], cells[b], cells[c]) for a, b, c in LINES),
            sum("X" not in (cells[a], cells[b], cells[c]) for a, b, c in LINES))


def test_open_lines_on_every_reachable_position():
    largest = 0
    for state in TTT_POSITIONS:
        estimate = gt.tictactoe_open_lines(state)
        if TTT.is_terminal(state):
            assert estimate == TTT.utility(state)
            continue
        open_x, open_o = open_lines_reference(state)
        assert estimate == (open_x - open_o) / 10
        assert -1 < estimate < 1
        largest = max(largest, abs(open_x - open_o))
    assert 0 < largest <= len(LINES) < 10  # the default scale is beyond every difference


@pytest.mark.parametrize("state", [s for s in TTT_POSITIONS if not TTT.is_terminal(s)][::7])
def test_open_lines_symmetric_and_antisymmetric_under_colour_swap(state):
    value = gt.tictactoe_open_lines(state)
    assert {gt.tictactoe_open_lines(s) for s in TicTacToe.symmetries(state)} == {value}
    x, o = state
    assert gt.tictactoe_open_lines((o, x)) == -value


def test_open_lines_scale():
    state = TicTacToe.from_string("X../.../...")
    open_x, open_o = open_lines_reference(state)
    assert gt.tictactoe_open_lines(state, scale=20) == (open_x - open_o) / 20
    with pytest.raises(ValueError, match="scale must be a number greater than 8"):
        gt.tictactoe_open_lines(state, scale=8)
    with pytest.raises(TypeError, match="scale must be a number"):
        gt.tictactoe_open_lines(state, scale="10")


def test_depth_limited_search_prefers_a_win_to_any_estimate():
    # X can win at once (2) or build; with depth 2 every non-winning line is an estimate.
    state = TicTacToe.from_string("XX./OO./...")
    r = gt.alphabeta(TTT, state, depth=2, evaluate=gt.tictactoe_open_lines)
    assert (r.value, r.move) == (1, 2)


# ----------------------------------------------------------------------------
# Connect Four: the weighted features, against a cell-by-cell count
# ----------------------------------------------------------------------------


def windows_reference(game):
    """Every window of k cells as a list of (row, col)."""
    out = []
    for dr, dc in [(1, 0), (0, 1), (1, 1), (-1, 1)]:
        for r in range(game.rows):
            for c in range(game.cols):
                cells = [(r + i * dr, c + i * dc) for i in range(game.k)]
                if all(0 <= rr < game.rows and 0 <= cc < game.cols for rr, cc in cells):
                    out.append(cells)
    return out


def features_reference(game, state):
    """{'X': {...}, 'O': {...}} counted cell by cell with game.cell."""
    grid = {(r, c): game.cell(state, r, c) for r in range(game.rows) for c in range(game.cols)}
    distance = [abs(2 * c - (game.cols - 1)) for c in range(game.cols)]
    centre = [c for c in range(game.cols) if distance[c] == min(distance)]
    out = {}
    for me, them in (("X", "O"), ("O", "X")):
        three = two = 0
        for cells in windows_reference(game):
            marks = [grid[cell] for cell in cells]
            if them in marks:
                continue
            n = marks.count(me)
            three += game.k >= 2 and n == game.k - 1
            two += game.k >= 3 and n == game.k - 2
        out[me] = {"three": three, "two": two,
                   "centre": sum(grid[r, c] == me for r in range(game.rows) for c in centre)}
    return out


def estimate_reference(game, state, weights, scale):
    f = features_reference(game, state)
    return sum(weights[name] * (f["X"][name] - f["O"][name]) for name in weights) / scale


@SOME
@given(connect4_positions())
def test_connect4_features_match_the_cell_by_cell_count(case):
    game, state = case
    evaluate = gt.connect4_evaluation(game)
    assert evaluate.windows == len(windows_reference(game))
    if game.is_terminal(state):
        assert evaluate(state) == game.utility(state)
        with pytest.raises(ValueError, match="finished position"):
            evaluate.features(state)
        return
    assert evaluate.features(state) == features_reference(game, state)
    value = evaluate(state)
    assert value == estimate_reference(game, state, DEFAULT_WEIGHTS, evaluate.scale)
    assert -1 < value < 1


@SOME
@given(connect4_positions(), st.dictionaries(st.sampled_from(sorted(DEFAULT_WEIGHTS)),
                                             st.integers(-9, 9)))
def test_connect4_weights_are_parameters(case, weights):
    game, state = case
    if game.is_terminal(state):
        return
    evaluate = gt.connect4_evaluation(game, weights=weights)
    merged = {**DEFAULT_WEIGHTS, **weights}
    assert evaluate.weights == merged
    assert evaluate(state) == estimate_reference(game, state, merged, evaluate.scale)
    assert abs(evaluate(state)) * evaluate.scale <= evaluate.bound < evaluate.scale


@SOME
@given(connect4_positions())
def test_connect4_evaluation_symmetric_under_mirror_and_colour_swap(case):
    game, state = case
    evaluate = gt.connect4_evaluation(game)
    value = evaluate(state)
    assert evaluate(game.mirror(state)) == value
    x, o = state
    assert evaluate((o, x)) == -value


def test_connect4_evaluation_on_the_standard_board():
    game = ConnectFour()
    evaluate = gt.connect4_evaluation(game)
    rng = random.Random(7)
    for _ in range(60):
        state = play_random(game, rng, rng.randrange(42))
        if game.is_terminal(state):
            assert evaluate(state) == game.utility(state)
        else:
            assert evaluate(state) == estimate_reference(game, state, DEFAULT_WEIGHTS, 1000)


def test_connect4_scale_and_cache():
    game = ConnectFour()
    evaluate = gt.connect4_evaluation(game, cache_size=3)
    assert evaluate.bound == evaluate.windows * 5 + game.rows * 3
    assert evaluate.scale == 10 ** math.ceil(math.log10(evaluate.bound + 1))
    states = [game.from_moves(moves) for moves in ([3], [3, 3], [2], [2, 4], [0, 1, 2])]
    values = [evaluate(s) for s in states]
    assert len(evaluate._cache) <= 3
    assert values == [evaluate(s) for s in states]
    uncached = gt.connect4_evaluation(game, cache_size=0)
    assert [uncached(s) for s in states] == values and not uncached._cache
    explicit = gt.connect4_evaluation(game, scale=evaluate.bound + 1)
    assert explicit(states[-1]) * explicit.scale == pytest.approx(values[-1] * evaluate.scale)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"weights": {"four": 1}}, ValueError, "unknown weight 'four'"),
    ({"weights": {"two": "2"}}, TypeError, "weight 'two' must be a number"),
    ({"weights": [5, 2, 3]}, TypeError, "weights must be a dict"),
    ({"scale": 100}, ValueError, "scale must be a number greater than 363"),
    ({"scale": "big"}, TypeError, "scale must be a number"),
    ({"cache_size": -1}, ValueError, "cache_size must be an int >= 0"),
])
def test_connect4_evaluation_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        gt.connect4_evaluation(ConnectFour(), **kwargs)


def test_connect4_evaluation_needs_a_connect_four_game():
    with pytest.raises(TypeError, match="needs a ConnectFour game"):
        gt.connect4_evaluation(TTT)


def test_default_evaluation():
    assert gt.default_evaluation(TTT) is gt.tictactoe_open_lines
    game = ConnectFour(5, 6, 4)
    assert gt.default_evaluation(game).game is game
    assert gt.default_evaluation(Nim()) is None


# ----------------------------------------------------------------------------
# Every agent plays a legal move
# ----------------------------------------------------------------------------


def agents_for_property_tests():
    return [
        gt.RandomAgent(seed=1),
        gt.MinimaxAgent(depth=2, seed=1),
        gt.AlphaBetaAgent(depth=2),
        gt.IterativeDeepeningAgent(seconds=0.01, max_depth=3),
        gt.MCTSAgent(playouts=30, seed=1),
    ]


@SOME
@given(st.sampled_from(["ttt", "c4", "nim"]), st.integers(0, 2**32), st.integers(0, 40))
def test_agents_always_return_legal_moves(which, seed, plies):
    rng = random.Random(seed)
    if which == "ttt":
        game = TTT
    elif which == "c4":
        game = ConnectFour(rng.randint(4, 6), rng.randint(4, 7), 4)
    else:
        game = Nim(coins=rng.randint(1, 12), misere=rng.random() < 0.5)
    state = play_random(game, rng, plies)
    if game.is_terminal(state):
        for agent in agents_for_property_tests():
            with pytest.raises(ValueError, match="the game is over"):
                agent(game, state)
        return
    legal = game.actions(state)
    for agent in agents_for_property_tests():
        if isinstance(game, Nim) and isinstance(agent, (gt.MinimaxAgent, gt.AlphaBetaAgent,
                                                        gt.IterativeDeepeningAgent)):
            agent = type(agent)(**({"seconds": 0.01} if isinstance(agent, gt.IterativeDeepeningAgent)
                                   else {"depth": None}), evaluate=lambda s: 0)
        move = agent(game, state)
        assert move in legal and agent.last_move == move


# ----------------------------------------------------------------------------
# Minimax agent: a random choice among exactly the best moves
# ----------------------------------------------------------------------------


def child_values(game, state, **kwargs):
    return {m: gt.minimax(game, child, **kwargs).value for m, child in game.successors(state)}


def test_minimax_agent_plays_every_best_move_and_only_those():
    rng = random.Random(3)
    checked = 0
    for state in rng.sample([s for s in TTT_POSITIONS if not TTT.is_terminal(s)], 40):
        values = child_values(TTT, state)
        best = (max if TTT.to_move(state) == MAX else min)(values.values())
        optimal = {m for m, v in values.items() if v == best}
        enders = set(ending_moves(TTT, state, optimal, best))
        expected = enders or optimal
        chosen = {gt.MinimaxAgent(seed=seed)(TTT, state) for seed in range(12 * len(expected))}
        assert chosen == expected
        checked += len(expected) > 1
    assert checked >= 5  # positions with real ties were among them


def test_minimax_agent_values_and_two_ply_trace():
    state = TicTacToe.from_string("X../.O./...")
    agent = gt.MinimaxAgent(seed=0)
    agent(TTT, state)
    assert agent.last_values == child_values(TTT, state)
    G = agent.last_result.graph
    root = G.graph["root"]
    depths = {n: len(n) - len(root) for n in G}
    assert max(depths.values()) == 2
    assert root_values(agent.last_result) == agent.last_values
    assert agent.last_nodes == agent.last_result.stats["nodes_visited"]


def test_minimax_agent_with_a_depth_uses_plain_depth_limited_minimax():
    game = ConnectFour(5, 5, 4)
    state = game.from_moves([2, 2, 1])
    evaluate = gt.connect4_evaluation(game)
    agent = gt.MinimaxAgent(depth=3, evaluate=evaluate, seed=0)
    move = agent(game, state)
    assert agent.last_values == child_values(game, state, depth=2, evaluate=evaluate)
    assert agent.last_values[move] == min(agent.last_values.values())  # O (MIN) to move


def test_minimax_never_loses_to_random_in_100_games_in_each_seat():
    result = gt.tournament(gt.MinimaxAgent(seed=0), gt.RandomAgent(), TTT, games=200, seed=11)
    assert result.losses["minimax"] == 0
    assert [sum(result.seat_scores["minimax"][seat]) for seat in ("first", "second")] == [100, 100]


# ----------------------------------------------------------------------------
# Alpha-beta and iterative deepening
# ----------------------------------------------------------------------------


def test_alphabeta_agent_is_the_engine_plus_the_ending_tie_break():
    game = ConnectFour()
    evaluate = gt.connect4_evaluation(game)
    rng = random.Random(5)
    for _ in range(8):
        state = play_random(game, rng, rng.randrange(4, 14))
        if game.is_terminal(state):
            continue
        agent = gt.AlphaBetaAgent(depth=3, evaluate=evaluate)
        move = agent(game, state)
        r = gt.alphabeta(game, state, depth=3, evaluate=evaluate, order=game.centre_first, table=True)
        assert agent.last_result.value == r.value
        enders = ending_moves(game, state, game.actions(state), r.value)
        assert move == (enders[0] if enders else r.move)
        G = agent.last_result.graph
        assert max(len(n) for n, status in G.nodes(data="status") if status == "visited") == 2


def test_alphabeta_agent_takes_an_immediate_win():
    game = ConnectFour()
    state = game.from_moves([3, 3, 2, 2, 4, 4])
    for depth in (1, 2, 3, 4, 5):
        assert gt.AlphaBetaAgent(depth=depth)(game, state) in (1, 5)


def test_alphabeta_depth_4_beats_random_at_connect_four_in_95_percent_of_40_games():
    games = 40
    result = gt.tournament(gt.AlphaBetaAgent(depth=4), gt.RandomAgent(), ConnectFour(),
                           games=games, seed=4)
    assert result.wins["alphabeta"] >= math.ceil(0.95 * games)


def test_iterative_deepening_solves_tictactoe_given_time():
    state = TicTacToe.from_string("X../.O./...")
    agent = gt.IterativeDeepeningAgent(seconds=30)
    move = agent(TTT, state)
    assert agent.last_result.value == gt.minimax(TTT, state).value
    assert child_values(TTT, state)[move] == agent.last_result.value


def test_iterative_deepening_moves_even_without_time():
    game = ConnectFour()
    agent = gt.IterativeDeepeningAgent(seconds=1e-9)
    assert agent(game, game.initial) in game.actions(game.initial)
    assert agent.last_result.stats["depth_reached"] == 1


# ----------------------------------------------------------------------------
# MCTS
# ----------------------------------------------------------------------------


def immediate_wins(game, positions):
    """Positions where the player to move wins at once (and by which moves)."""
    out = []
    for state in positions:
        if game.is_terminal(state):
            continue
        target = 1 if game.to_move(state) == MAX else -1
        winning = ending_moves(game, state, game.actions(state), target)
        if winning and len(winning) < len(game.actions(state)):
            out.append((state, set(winning)))
    return out


def test_mcts_finds_an_immediate_win():
    rng = random.Random(2)
    wins = immediate_wins(TTT, TTT_POSITIONS)
    cases = [case for role in (MAX, MIN)
             for case in rng.sample([c for c in wins if TTT.to_move(c[0]) == role], 6)]
    for state, winning in cases:
        agent = gt.MCTSAgent(playouts=1000, seed=rng.randrange(1000))
        assert agent(TTT, state) in winning
    game = ConnectFour()
    c4 = [play_random(game, rng, rng.randrange(6, 20)) for _ in range(200)]
    c4_cases = immediate_wins(game, c4)[:4]
    assert len(c4_cases) == 4
    for state, winning in c4_cases:
        assert gt.MCTSAgent(playouts=1000, seed=1)(game, state) in winning


@pytest.mark.slow
def test_mcts_never_loses_to_random_in_40_games():
    result = gt.tournament(gt.MCTSAgent(playouts=1000), gt.RandomAgent(), TTT, games=40, seed=3)
    assert result.losses["mcts"] == 0


@pytest.mark.parametrize("game, state", [
    (TTT, TTT.initial),
    (TTT, TicTacToe.from_string("X../.O./..X")),
    (Nim(coins=9), (9, MIN)),
    (ConnectFour(4, 5, 3), (0, 0)),
])
def test_mcts_tree_bookkeeping(game, state):
    G = gt.mcts(game, state, playouts=700, seed=0, trace=False).graph
    root = G.graph["root"]
    assert G.nodes[root]["visits"] == 700 == sum(G.nodes[c]["visits"] for c in G.successors(root))
    for node in G:
        kids = list(G.successors(node))
        if game.is_terminal(G.nodes[node]["state"]):
            assert not kids  # never expanded past the end of the game
        elif kids:
            # one playout started here; every later one went on to a child
            assert G.nodes[node]["visits"] == 1 + sum(G.nodes[c]["visits"] for c in kids) or node == root
        else:
            assert G.nodes[node]["visits"] == 1
        if node != root:
            parent = next(G.predecessors(node))
            assert game.result(G.nodes[parent]["state"], node[-1]) == G.nodes[node]["state"]


def test_mcts_values_belong_to_the_player_who_moved():
    # Nim, 5 coins: taking 1 leaves 4, a lost pile for the opponent.
    for player, sign in ((MAX, 1), (MIN, -1)):
        agent = gt.MCTSAgent(playouts=2000, seed=4)
        assert agent(Nim(coins=5), (5, player)) == 1
        visits, value = agent.last_visits[1]
        assert visits == max(v for v, _ in agent.last_visits.values())
        assert sign * value > 0.9   # good for the mover, in MAX's terms
        G = agent.last_result.graph
        child = next(c for c in G.successors(()) if G.edges[(), c]["move"] == 1)
        assert G.nodes[()]["player"] == player and sign * G.nodes[child]["value"] > 0.9


def test_mcts_plays_the_most_visited_move_not_the_best_mean():
    # Few playouts on an open board: means are noisy, so the two rules disagree somewhere.
    disagreements = 0
    for seed in range(20):
        agent = gt.MCTSAgent(playouts=30, seed=seed)
        move = agent(TTT, TTT.initial)
        visits = {m: v for m, (v, _) in agent.last_visits.items()}
        assert visits[move] == max(visits.values())
        best_mean = max(agent.last_visits, key=lambda m: agent.last_visits[m][1])
        disagreements += visits[best_mean] < visits[move]
        assert agent.last_result.algorithm == "mcts" and agent.last_nodes > 30
    assert disagreements > 0


def test_mcts_same_seed_same_search():
    game = ConnectFour()
    a, b = gt.MCTSAgent(playouts=200, seed=5), gt.MCTSAgent(playouts=200, seed=5)
    assert a(game, game.initial) == b(game, game.initial)
    assert a.last_visits == b.last_visits
    a.reset()
    a(game, game.initial)
    assert a.last_visits == b.last_visits


def test_mcts_by_time():
    agent = gt.MCTSAgent(playouts=None, seconds=0.05, seed=1)
    assert agent(TTT, TTT.initial) in range(9)
    assert sum(v for v, _ in agent.last_visits.values()) >= 1


def test_mcts_plays_games_with_chance():
    game = gt.DiceGame()
    agent = gt.MCTSAgent(playouts=200, seed=0)
    assert agent(game, game.initial) in game.actions(game.initial)
    assert agent.last_result.graph.nodes[()]["visits"] == 200


# ----------------------------------------------------------------------------
# Human agent
# ----------------------------------------------------------------------------


def scripted(*answers):
    it = iter(answers)
    prompts = []

    def read(prompt):
        prompts.append(prompt)
        return next(it)
    return read, prompts


def test_human_agent_asks_again_after_an_illegal_move():
    read, prompts = scripted("4", " x ", "", "2")
    lines = []
    agent = gt.HumanAgent(read=read, write=lines.append)
    state = TicTacToe.from_string("XX./.OO/...")
    assert agent(TTT, state) == 2
    assert len(prompts) == 4 and prompts[0] == "your move (2, 3, 6, 7, 8): "
    assert len(lines) == 3 and all("\n" not in line for line in lines)
    assert "cell 4 is already taken" in lines[0]
    assert lines[1].startswith("'x' is not a move") and lines[2].startswith("an empty line")


def test_human_agent_quits():
    for answers in (("q",), ("QUIT",)):
        read, _ = scripted(*answers)
        with pytest.raises(QuitGame):
            gt.HumanAgent(read=read)(TTT, TTT.initial)

    def end(prompt):
        raise EOFError
    with pytest.raises(QuitGame, match="input ended"):
        gt.HumanAgent(read=end)(TTT, TTT.initial)


def test_human_agent_reads_string_moves():
    read, _ = scripted("Roll")
    assert gt.HumanAgent(name="ann", read=read)(gt.DiceGame(), gt.DiceGame().initial) == "roll"


# ----------------------------------------------------------------------------
# Arguments
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("make, error, message", [
    (lambda: gt.MinimaxAgent(depth=0), ValueError, "depth must be None or an int >= 1"),
    (lambda: gt.AlphaBetaAgent(depth="4"), ValueError, "depth must be"),
    (lambda: gt.AlphaBetaAgent(evaluate=3), TypeError, "evaluate must be a function"),
    (lambda: gt.AlphaBetaAgent(order="centre"), TypeError, "order must be a function"),
    (lambda: gt.AlphaBetaAgent(table=None), TypeError, "table must be True or False"),
    (lambda: gt.RandomAgent(seed="one"), TypeError, "seed must be None or an int"),
    (lambda: gt.RandomAgent(name=""), TypeError, "name must be a non-empty str"),
    (lambda: gt.IterativeDeepeningAgent(seconds=0), ValueError, "seconds must be a positive"),
    (lambda: gt.MCTSAgent(playouts=0), ValueError, "playouts must be None or an int >= 1"),
    (lambda: gt.MCTSAgent(playouts=None), ValueError, "give playouts, seconds or both"),
    (lambda: gt.MCTSAgent(seconds=-1), ValueError, "seconds must be None or a positive"),
    (lambda: gt.MCTSAgent(c=-1), ValueError, "c must be a number >= 0"),
    (lambda: gt.HumanAgent(read="stdin"), TypeError, "read must be a function"),
])
def test_bad_agent_arguments(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_agents_check_the_state():
    with pytest.raises(TypeError, match="tic-tac-toe state"):
        gt.RandomAgent()(TTT, "X../.../...")
    with pytest.raises(ValueError, match="no move to choose"):
        gt.MinimaxAgent()(TTT, TicTacToe.from_string("XXX/OO./..."))


def test_reprs_have_no_addresses():
    for agent in agents_for_property_tests() + [gt.HumanAgent()]:
        assert "0x" not in repr(agent) and agent.name in repr(agent)
    assert "0x" not in repr(gt.connect4_evaluation(ConnectFour()))
