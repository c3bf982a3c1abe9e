"""The command line: output format, agreement with the API, errors without tracebacks."""

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import gametrees as gt
from gametrees.cli import main

ROOT = Path(__file__).resolve().parents[1]
GAME_LINE = re.compile(r"game (\d+): winner = (\S+)")
CLOSING = re.compile(r"(\S+) won (\d+), (\S+) won (\d+), (\d+) draws?")


def run(*args, stdin=""):
    """``python -m gametrees ARGS`` in a subprocess: (exit code, stdout, stderr)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "gametrees", *args], input=stdin, text=True,
                          capture_output=True, cwd=ROOT, env=env, timeout=120, check=False)
    return done.returncode, done.stdout, done.stderr


def call(*args, stdin_lines=()):
    """``main(ARGS)`` in this process: (exit code, stdout)."""
    out = io.StringIO()
    answers = iter(stdin_lines)

    def read(prompt):
        out.write(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    return main(list(args), out=out, read=read), out.getvalue()


def parse_tournament(stdout):
    *games, closing = stdout.splitlines()
    winners = []
    for i, line in enumerate(games):
        match = GAME_LINE.fullmatch(line)
        assert match, line
        assert int(match[1]) == i
        winners.append(None if match[2] == "draw" else match[2])
    match = CLOSING.fullmatch(closing)
    assert match, closing
    return winners, match


def test_tournament_output_format():
    code, out, err = run("tournament", "-g", "10", "minimax", "random")
    assert (code, err) == (0, "")
    winners, closing = parse_tournament(out)
    assert len(winners) == 10 and set(winners) <= {"minimax", None}
    assert closing[1] == "minimax" and int(closing[2]) == winners.count("minimax")
    assert closing[3] == "random" and int(closing[4]) == winners.count("random") == 0
    draws = winners.count(None)
    assert int(closing[5]) == draws
    assert closing[0].endswith(f"{draws} draw" if draws == 1 else f"{draws} draws")


@pytest.mark.slow
def test_tournament_agrees_with_the_api_and_repeats():
    args = ("tournament", "-g", "6", "--seed", "7", "--game", "connect4", "--depth", "2",
            "alphabeta", "mcts", "--playouts", "50")
    code, out, err = run(*args)
    assert (code, err) == (0, "")
    assert call(*args) == (0, out)  # same seed, same games
    api = gt.tournament(gt.AlphaBetaAgent(depth=2), gt.MCTSAgent(playouts=50), gt.ConnectFour(),
                        games=6, seed=7, seats="fixed")  # the first-named agent moves first
    winners, closing = parse_tournament(out)
    assert winners == [r.winner for r in api.records]
    assert closing[0] == (f"alphabeta won {api.wins['alphabeta']}, mcts won {api.wins['mcts']}, "
                          f"{api.draws} draw{'' if api.draws == 1 else 's'}")


def test_the_course_notes_run_first_named_agent_first_and_winner_equals_draw():
    code, out, err = run("tournament", "-g", "10", "random", "minimax")
    assert (code, err) == (0, "")
    api = gt.tournament(gt.RandomAgent(), gt.MinimaxAgent(), gt.TicTacToe(), games=10, seed=0,
                        seats="fixed")
    assert all(r.first == "random" for r in api.records)  # the first-named agent moves first
    lines = out.splitlines()
    assert lines[:-1] == [f"game {r.index}: winner = {r.winner or 'draw'}" for r in api.records]
    assert "game 5: winner = draw" in lines  # the line the course notes print
    assert not any(line.endswith(": draw") for line in lines)
    assert lines[-1] == (f"random won {api.wins['random']}, minimax won {api.wins['minimax']}, "
                         f"{api.draws} draws")


def test_first_alternate_takes_turns():
    code, out = call("tournament", "-g", "4", "--seed", "3", "--first", "alternate", "random", "minimax")
    api = gt.tournament(gt.RandomAgent(), gt.MinimaxAgent(), gt.TicTacToe(), games=4, seed=3,
                        seats="alternate")
    assert [r.first for r in api.records] == ["random", "minimax", "random", "minimax"]
    assert code == 0 and parse_tournament(out)[0] == [r.winner for r in api.records]


def test_first_keeps_one_agent_first():
    code, out = call("tournament", "-g", "4", "--seed", "3", "--first", "random", "minimax", "random")
    assert code == 0
    api = gt.tournament(gt.RandomAgent(), gt.MinimaxAgent(), gt.TicTacToe(), games=4, seed=3,
                        seats="fixed")
    winners, closing = parse_tournament(out)
    assert winners == [r.winner for r in api.records]
    assert closing[1] == "minimax"  # the closing line keeps the order typed


def test_same_agent_twice_and_nim():
    code, out = call("tournament", "-g", "3", "--game", "nim", "--coins", "9", "minimax", "minimax")
    winners, closing = parse_tournament(out)
    assert code == 0 and set(winners) <= {"minimax-1", "minimax-2"}
    # 9 coins: the first player leaves a multiple of 4 and wins every game; minimax-1 moves first
    assert winners == ["minimax-1", "minimax-1", "minimax-1"]
    assert closing[0] == "minimax-1 won 3, minimax-2 won 0, 0 draws"
    code, out = call("tournament", "-g", "3", "--game", "nim", "--coins", "9", "--first", "alternate",
                     "minimax", "minimax")
    winners, closing = parse_tournament(out)
    assert winners == ["minimax-1", "minimax-2", "minimax-1"]
    assert closing[0] == "minimax-1 won 2, minimax-2 won 1, 0 draws"


BAD_ARGUMENTS = [
    (("tournament", "minimax", "chess-engine"), "argument AGENT: invalid choice: 'chess-engine'"),
    (("tournament", "-g", "ten", "minimax", "random"), "expected a whole number, got 'ten'"),
    (("tournament", "-g", "-1", "minimax", "random"), "expected a number >= 0, got -1"),
    (("tournament", "--game", "chess", "minimax", "random"), "invalid choice: 'chess'"),
    (("tournament", "--depth", "0", "minimax", "random"), "expected a number >= 1, got 0"),
    (("tournament", "--first", "bob", "minimax", "random"), "--first must be 'alternate' or one of"),
    (("tournament", "minimax"), "the following arguments are required: AGENT"),
    (("tournament", "--game", "nim", "--depth", "3", "alphabeta", "random"), "--depth needs an evaluation"),
    (("tournament", "--game", "nim", "iterative", "random"), "iterative deepening needs an evaluation"),
    (("play", "chess"), "invalid choice: 'chess'"),
    (("play", "connect4", "--seconds", "-2"), "expected a positive number of seconds"),
    (("play", "nim", "--bogus"), "unrecognized arguments: --bogus"),
    (("fight",), "invalid choice: 'fight'"),
    ((), "choose a command: tournament, play, export or site"),
]


@pytest.mark.parametrize("args, message", BAD_ARGUMENTS)
def test_bad_arguments_get_one_line_and_exit_code_2(args, message, capsys):
    code, out = call(*args)
    captured = capsys.readouterr()
    assert code == 2 and out == "" and captured.out == ""
    err = captured.err
    assert err.count("\n") == 1 and message in err and err.startswith("python -m gametrees")


@pytest.mark.slow
@pytest.mark.parametrize("args, message", [BAD_ARGUMENTS[0], BAD_ARGUMENTS[5], BAD_ARGUMENTS[-1]])
def test_bad_arguments_in_a_real_process(args, message):
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


@pytest.mark.parametrize("args", [(), ("tournament",), ("play",)])
def test_help_everywhere(args, capsys):
    code, _ = call(*args, "--help")
    assert code == 0
    assert capsys.readouterr().out.startswith("usage: python -m gametrees")


def test_help_in_a_real_process():
    code, out, err = run("tournament", "--help")
    assert code == 0 and err == "" and out.startswith("usage: python -m gametrees tournament")
    assert "--first" in out and "--seed" in out and "--depth" in out
    help_text = " ".join(out.split())
    assert "first-named agent moves first" in help_text and "winner = draw" in help_text
    assert "(default: the first-named one), or 'alternate'" in help_text


def test_play_asks_again_after_an_illegal_move_and_quits():
    code, out, err = run("play", "tictactoe", "--seed", "1", stdin="4\n4\nfour\nq\n")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    illegal = [line for line in lines if "cell 4 is already taken" in line]
    assert len(illegal) == 1
    assert any("'four' is not a move" in line for line in lines)
    assert "minimax plays" in out and lines[-1].endswith("Game abandoned.")


def test_play_a_whole_game_by_typing_every_cell():
    # Typing 0..8 over and over: taken cells are refused, the others played.
    answers = [str(cell) for _ in range(9) for cell in range(9)]
    code, out = call("play", "tictactoe", "--agent", "random", "--seed", "4", stdin_lines=answers)
    assert code == 0
    assert out.splitlines()[-1] in ("You win!", "Draw.", "random wins.")


def test_play_connect4_agent_first_until_the_input_ends():
    code, out = call("play", "connect4", "--first", "agent", "--depth", "2", stdin_lines=["3", "9"])
    assert code == 0
    assert out.count("alphabeta plays") == 2
    assert "a move must be a column 0..6" in out
    assert out.rstrip().endswith("Game abandoned.")


def test_play_minimax_wins_or_draws_against_a_person_who_plays_badly():
    answers = [str(cell) for cell in range(8, -1, -1)] * 2
    code, out = call("play", "tictactoe", "--first", "agent", stdin_lines=answers)
    assert code == 0 and out.splitlines()[-1] in ("minimax wins.", "Draw.")


def test_a_drawn_game_ends_with_draw_capitalised_like_the_other_endings():
    # The person plays perfectly too (minimax's own move, read off the game so far): a draw.
    import re

    import gametrees as gt

    game = gt.TicTacToe()
    out = io.StringIO()
    played = []

    def read(prompt):
        state = game.initial
        replies = [int(m) for m in re.findall(r"minimax plays (\d+)", out.getvalue())]
        moves = [m for pair in zip(played, replies) for m in pair] + played[len(replies):]
        for move in moves:
            state = game.result(state, move)
        move = gt.minimax(game, state).move
        played.append(move)
        return str(move)

    assert main(["play", "tictactoe"], out=out, read=read) == 0
    assert out.getvalue().splitlines()[-1] == "Draw."
