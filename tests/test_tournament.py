"""Tournaments: seats, counts, determinism, records that replay, errors."""

import random

import pytest

import gametrees as gt
from gametrees.games import ConnectFour, DiceGame, Nim, TicTacToe
from gametrees.tournaments import GameRecord, Score

TTT = TicTacToe()


def replay(game, moves):
    state = game.initial
    for move in moves:
        state = game.result(state, move)
    return state


def check_counts(result):
    """Every count of the result, recomputed from its game records."""
    a, b = result.agents
    records = result.records
    assert len(records) == result.games
    assert [r.index for r in records] == list(range(result.games))
    for me in (a, b):
        wins = sum(r.winner == me for r in records)
        draws = sum(r.winner is None for r in records)
        assert result.wins[me] == wins and result.draws == draws
        assert result.wins[me] + result.draws + result.losses[me] == result.games
        for seat in ("first", "second"):
            mine = [r for r in records if getattr(r, seat) == me]
            score = result.seat_scores[me][seat]
            assert score == Score(sum(r.winner == me for r in mine), sum(r.winner is None for r in mine),
                                  sum(r.winner not in (me, None) for r in mine))
    assert result.wins[a] == result.losses[b] and result.wins[b] == result.losses[a]


def test_records_replay_and_counts_add_up():
    game = ConnectFour(5, 5, 4)
    result = gt.tournament(gt.AlphaBetaAgent(depth=2), gt.RandomAgent(), game, games=9, seed=2)
    check_counts(result)
    for record in result.records:
        final = replay(game, record.moves)
        assert game.is_terminal(final) and game.utility(final) == record.utility
        expected = record.first if record.utility > 0 else record.second if record.utility < 0 else None
        assert record.winner == expected


def test_seats_alternate_or_stay_fixed():
    a, b = gt.RandomAgent(name="ann"), gt.RandomAgent(name="bob")
    alternate = gt.tournament(a, b, TTT, games=6, seed=1)
    assert [r.first for r in alternate.records] == ["ann", "bob"] * 3
    assert [r.second for r in alternate.records] == ["bob", "ann"] * 3
    fixed = gt.tournament(a, b, TTT, games=5, seed=1, seats="fixed")
    assert {r.first for r in fixed.records} == {"ann"} and {r.second for r in fixed.records} == {"bob"}
    assert sum(fixed.seat_scores["bob"]["first"]) == 0 and sum(fixed.seat_scores["ann"]["first"]) == 5
    check_counts(alternate)
    check_counts(fixed)


def test_same_seed_same_games_other_seed_other_games():
    def run(seed):
        agents = (gt.MCTSAgent(playouts=40), gt.RandomAgent())
        return [r.moves for r in gt.tournament(*agents, ConnectFour(), games=6, seed=seed).records]

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_seeded_results_do_not_depend_on_what_the_agents_did_before():
    agents = (gt.MinimaxAgent(), gt.RandomAgent(seed=123))
    first = gt.tournament(*agents, TTT, games=8, seed=9)
    gt.tournament(*agents, TTT, games=3, seed=1)  # moves the agents' generators on
    again = gt.tournament(*agents, TTT, games=8, seed=9)
    assert [r.moves for r in first.records] == [r.moves for r in again.records]


def test_per_move_averages():
    result = gt.tournament(gt.AlphaBetaAgent(depth=2), gt.RandomAgent(), TTT, games=4, seed=0)
    plies = sum(len(r.moves) for r in result.records)
    assert result.moves["alphabeta"] + result.moves["random"] == plies
    assert result.nodes_per_move["random"] == 0
    assert result.nodes_per_move["alphabeta"] > 1
    assert all(s > 0 for s in result.seconds_per_move.values())


def test_plain_function_agents():
    def first_move(game, state):
        return game.actions(state)[0]

    result = gt.tournament(first_move, gt.RandomAgent(), Nim(coins=7), games=4, seed=3)
    assert result.agents == ("first_move", "random")
    assert result.nodes_per_move["first_move"] is None
    assert "first_move" in repr(result) and " -" in repr(result)
    check_counts(result)


def test_equal_names_get_numbered():
    agent = gt.RandomAgent()
    result = gt.tournament(agent, agent, TTT, games=4, seed=0)
    assert result.agents == ("random-1", "random-2")
    check_counts(result)


def test_games_of_chance_roll_seeded_dice():
    game = DiceGame()
    runs = [gt.tournament(gt.RandomAgent(), gt.RandomAgent(name="other"), game, games=10, seed=4)
            for _ in range(2)]
    assert [r.moves for r in runs[0].records] == [r.moves for r in runs[1].records]
    for record in runs[0].records:
        final = replay(game, record.moves)
        assert game.utility(final) == record.utility
    # some die rolls were recorded among the moves
    assert any(isinstance(m, int) for r in runs[0].records for m in r.moves)
    check_counts(runs[0])


def test_an_illegal_move_names_the_agent():
    def cheat(game, state):
        return 4

    cheat.name = "cheat"
    with pytest.raises(ValueError, match=r"agent 'cheat' played an illegal move in game \d: "
                                         r"illegal move 4 in tic-tac-toe"):
        gt.tournament(cheat, gt.RandomAgent(), TTT, games=4, seed=0)


def test_on_game_sees_every_record_in_order():
    seen = []
    result = gt.tournament(gt.RandomAgent(), gt.MinimaxAgent(), TTT, games=5, seed=2, on_game=seen.append)
    assert seen == result.records and all(isinstance(r, GameRecord) for r in seen)


def test_repr_is_repeatable_and_str_adds_timings():
    def run():
        return gt.tournament(gt.AlphaBetaAgent(depth=3), gt.RandomAgent(), ConnectFour(), games=3, seed=8)

    first, second = run(), run()
    assert repr(first) == repr(second)
    assert "0x" not in repr(first) and "ms/move" not in repr(first)
    assert "ms/move" in str(first)
    lines = repr(first).splitlines()
    assert lines[0] == ("ConnectFour(rows=6, cols=7, k=4): alphabeta vs random, 3 games, seats alternate, "
                        "seed 8")
    assert lines[2].split()[:4] == ["alphabeta", str(first.wins["alphabeta"]), str(first.draws),
                                    str(first.losses["alphabeta"])]


def test_progress_bar_only_when_asked_or_on_a_terminal(capsys):
    gt.tournament(gt.RandomAgent(), gt.RandomAgent(name="b"), TTT, games=3, seed=0)
    assert capsys.readouterr() == ("", "")  # not a terminal: quiet
    gt.tournament(gt.RandomAgent(), gt.RandomAgent(name="b"), TTT, games=3, seed=0, progress=True)
    out, err = capsys.readouterr()
    assert out == "" and "games:" in err and "/3 " in err


def test_zero_games():
    result = gt.tournament(gt.RandomAgent(), gt.MinimaxAgent(), TTT, games=0)
    assert result.records == [] and result.wins == {"random": 0, "minimax": 0}
    assert result.nodes_per_move == {"random": 0.0, "minimax": 0.0}


@pytest.mark.parametrize("kwargs, error, message", [
    ({"games": -1}, ValueError, "games must be an int >= 0"),
    ({"games": 2.5}, ValueError, "games must be an int >= 0"),
    ({"seed": "x"}, TypeError, "seed must be None or an int"),
    ({"seats": "random"}, ValueError, "seats must be one of"),
    ({"progress": "yes"}, TypeError, "progress must be None, True or False"),
    ({"on_game": 3}, TypeError, "on_game must be a function"),
])
def test_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        gt.tournament(gt.RandomAgent(), gt.RandomAgent(name="b"), TTT, **kwargs)


def test_bad_agents():
    with pytest.raises(TypeError, match="an agent must be a callable"):
        gt.tournament("random", gt.RandomAgent(), TTT)
    nameless = type("Nameless", (), {"__call__": lambda self, game, state: 0})()
    with pytest.raises(TypeError, match="an agent needs a name"):
        gt.tournament(nameless, gt.RandomAgent(), TTT)


def test_every_game_ends_with_a_legal_final_position():
    rng = random.Random(0)
    for game in (TTT, ConnectFour(4, 5, 3), Nim(coins=11, misere=True)):
        result = gt.tournament(gt.MCTSAgent(playouts=30), gt.RandomAgent(), game, games=4,
                               seed=rng.randrange(100))
        for record in result.records:
            final = replay(game, record.moves)
            assert game.is_terminal(final)
            assert all(not game.is_terminal(replay(game, record.moves[:i]))
                       for i in range(len(record.moves)))


def test_openings_make_deterministic_agents_play_different_games():
    game = gt.ConnectFour()
    a = gt.AlphaBetaAgent(depth=2, name="a")
    b = gt.AlphaBetaAgent(depth=1, name="b")
    plain = gt.tournament(a, b, game, games=6, seed=3, progress=False)
    assert len({tuple(r.moves) for r in plain.records}) == 2  # two seatings, same two games
    varied = gt.tournament(a, b, game, games=6, seed=3, openings=2, progress=False)
    games = [tuple(r.moves) for r in varied.records]
    assert len(set(games)) == 6
    # each opening is played once from each seat
    assert [g[:2] for g in games[0::2]] == [g[:2] for g in games[1::2]]
    again = gt.tournament(a, b, game, games=6, seed=3, openings=2, progress=False)
    assert [tuple(r.moves) for r in again.records] == games
    with pytest.raises(ValueError, match="openings must be an int >= 0"):
        gt.tournament(a, b, game, games=2, openings=-1)
