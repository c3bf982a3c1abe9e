"""The command line: ``python -m gametrees tournament``, ``play``, ``export`` and ``site``.

``tournament``
    Two agents play a series of games; one line per game, then a summary::

        $ python -m gametrees tournament -g 10 minimax random
        game 0: winner = minimax
        ...
        minimax won 10, random won 0, 0 draws

``play``
    A person plays against an agent in the terminal::

        $ python -m gametrees play connect4 --agent alphabeta --depth 5

``export``
    An instructor's tree as a question or an answer for an exam or a slide
    (SVG, PDF, PNG, TikZ; an answer also as a GIF of the search), from a
    nested list, JSON, or a seed of the exercise generator::

        $ python -m gametrees export --tree "[[3,12,8],[2,4,6],[14,5,2]]" --answer alphabeta.svg
        wrote alphabeta.svg: the answer (alphabeta) as SVG, 68.8 kB

``site``
    The course as a static website that works offline: every lesson as a page, the lesson
    map as the index, the assignments' student versions as downloads, a page on how to run
    the lessons, maths by a MathJax copied into the site (:mod:`gametrees.site`)::

        $ python -m gametrees site site/
        wrote site/index.html: the lesson map, 4.3 kB
        ...
        site: 8 lessons, 3 downloads, 6.0 MB in 3.7 s; open site/index.html

    It writes only into a new or empty folder or one it built before (``--force`` for
    another), and never among the notebooks.

Every command has ``--help``.  A bad argument gets one line on standard error
and exit code 2; an illegal move typed in a game gets one line and the
question again; there is never a traceback.

This module may import every layer of the package; the exports (and with
them matplotlib) only inside the ``export`` command, and the site (with
nbconvert) only inside the ``site`` command, so that ``python -m gametrees
--help`` starts quickly.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import stat
import sys
from pathlib import Path

from . import exercises
from .agents import (
    AlphaBetaAgent,
    HumanAgent,
    IterativeDeepeningAgent,
    MCTSAgent,
    MinimaxAgent,
    QuitGame,
    RandomAgent,
)
from .evaluation import default_evaluation
from .exports import ALGORITHMS, FPS_RANGE  # (not matplotlib: the exports load it on first use)
from .games import MAX, ConnectFour, Nim, TicTacToe
from .tournaments import tournament
from .trees import MAX_PLIES, read_json, tree_from_dict, tree_from_nested

__all__ = ["main"]

PROG = "python -m gametrees"
AGENTS = ("random", "minimax", "alphabeta", "iterative", "mcts")
GAMES = ("tictactoe", "connect4", "nim")
EXERCISE_KINDS = tuple(sorted(exercises.KINDS))
DIFFICULTIES = ("easy", "medium", "hard")
#: Search depth when --depth is not given: whole game where that is quick.
DEFAULT_DEPTH = {"tictactoe": None, "connect4": 4, "nim": None}


class UsageError(Exception):
    """A bad combination of arguments (reported like argparse's errors)."""


class _Once(argparse.Action):
    """Store an option's value, refusing the option given twice (the last would silently win)."""

    def __call__(self, parser, namespace, values, option_string=None):
        if getattr(namespace, self.dest, None) is not None:
            parser.error(f"argument {option_string}: given twice; give it once")
        setattr(namespace, self.dest, values)


def _seed_text(text):
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a number or a word such as a student number, "
                                         "got an empty seed")
    return text


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line on stderr, exit code 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def _coins(text):
    value = _positive_int(text)
    if value > MAX_PLIES:
        raise argparse.ArgumentTypeError(
            f"at most {MAX_PLIES} coins, got {value}: a game of nim lasts up to one move per coin, "
            f"and the searching agents go at most {MAX_PLIES:,} plies deep")
    return value


#: The most nodes --max-nodes may ask a figure to draw (gametrees.drawing.MAX_DRAWN_NODES, written
#: here too so that --help does not load matplotlib).
MAX_FIGURE_NODES = 5000

#: The most bytes --json reads (a tree file is a few kB; this is generous).
JSON_LIMIT = 10 * 1024 * 1024


def _read_json_file(name):
    """The text of the file ``name``, read up to :data:`JSON_LIMIT` bytes (never forever).

    Only a regular file is read: a named pipe or a device could block forever.
    """
    try:
        if not stat.S_ISREG(os.stat(name).st_mode):
            raise UsageError(f"--json: {name!r} is not a regular file (a pipe, a device, a folder or "
                             "a socket): give a tree file, or the JSON text itself")
        with open(name, "rb") as file:
            data = file.read(JSON_LIMIT + 1)
    except OSError as error:
        reason = error.strerror or error
        raise UsageError(f"--json: cannot read the file {name!r}: {reason}") from None
    if len(data) > JSON_LIMIT:
        raise UsageError(f"--json: the file {name!r} is too large: a tree file may be at most "
                         f"{JSON_LIMIT // (1024 * 1024)} MB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UsageError(f"--json: cannot read the file {name!r}: it is not UTF-8 text "
                         f"(byte {error.object[error.start]:#04x} at position {error.start})") from None


_TOO_DEEP = ("is nested too deep for Python's JSON reader (about 1,000 levels at most; "
             f"a tree may be at most {MAX_PLIES:,} levels deep)")


def _count(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {value}")
    return value


def _int(text):
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def _seconds(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text}")
    return value


def _fps(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of frames per second, got {text!r}") from None
    low, high = FPS_RANGE
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"expected frames per second in {low:g}..{high:g} "
                                         f"(a step at most every {1 / low:g} s), got {text}")
    return value


#: The most playouts a move --playouts asks of mcts: about 6 s a move in Connect Four on a laptop
#: (17,000 playouts a second), so a tournament of 10 games ends within the hour.
MAX_PLAYOUTS = 100_000
#: The most seconds a move --seconds gives the iterative agent.
MAX_SECONDS = 600.0


def _playouts(text):
    value = _positive_int(text)
    if value > MAX_PLAYOUTS:
        raise argparse.ArgumentTypeError(
            f"at most {MAX_PLAYOUTS:,} playouts a move (about 6 s a move in connect4; a tournament of "
            f"10 games would take hours), got {value:,}; gt.MCTSAgent(playouts=...) in Python takes more")
    return value


def _move_seconds(text):
    value = _seconds(text)
    if value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"at most {MAX_SECONDS:g} seconds a move, got {text}")
    return value


def _depth(text):
    value = _positive_int(text)
    if value > MAX_PLIES:
        raise argparse.ArgumentTypeError(f"at most {MAX_PLIES:,} plies (the deepest a search goes), "
                                         f"got {value:,}")
    return value


def _agent_options(parser):
    parser.add_argument("--depth", type=_depth, default=None,
                        help="search depth of minimax and alphabeta (default: the whole game "
                             "for tictactoe and nim, 4 for connect4)")
    parser.add_argument("--playouts", type=_playouts, default=1000,
                        help=f"playouts per move for mcts (default 1000, at most {MAX_PLAYOUTS:,})")
    parser.add_argument("--seconds", type=_move_seconds, default=1.0,
                        help=f"seconds per move for iterative (default 1, at most {MAX_SECONDS:g})")
    parser.add_argument("--coins", type=_coins, default=15,
                        help=f"coins on the table at the start, for nim (default 15, at most {MAX_PLIES})")


def build_parser():
    """Return the argument parser of ``python -m gametrees``."""
    parser = _Parser(prog=PROG, description="Game-tree search agents: tournaments and play; "
                                            "exports of trees for exams and slides; the course as a website.")
    commands = parser.add_subparsers(dest="command", metavar="{tournament,play,export,site}",
                                     parser_class=_Parser)

    t = commands.add_parser(
        "tournament", help="two agents play a series of games",
        description="Two agents play a series of games; the first-named agent moves first in "
                    "every game unless --first says otherwise. Prints one line per game "
                    "(game 5: winner = draw) and a summary.")
    t.add_argument("agents", nargs=2, metavar="AGENT", choices=AGENTS,
                   help=f"the two agents, each one of: {', '.join(AGENTS)}")
    t.add_argument("-g", "--games", type=_count, default=10, help="number of games (default 10)")
    t.add_argument("--game", choices=GAMES, default="tictactoe", help="the game (default tictactoe)")
    t.add_argument("--seed", type=_int, default=0,
                   help="random seed: the same seed plays the same games (default 0)")
    t.add_argument("--first", default=None, metavar="AGENT",
                   help="the agent that moves first in every game (default: the first-named "
                        "one), or 'alternate': they take turns, the first-named agent first "
                        "in game 0")
    _agent_options(t)

    p = commands.add_parser(
        "play", help="play against an agent in the terminal",
        description="Play a game against an agent. Type the number of your move; q quits.")
    p.add_argument("game", choices=GAMES, help="the game")
    p.add_argument("--agent", choices=AGENTS, default=None,
                   help="your opponent (default: minimax for tictactoe and nim, alphabeta for "
                        "connect4)")
    p.add_argument("--first", choices=("you", "agent"), default="you",
                   help="who moves first (default: you)")
    p.add_argument("--seed", type=_int, default=None, help="random seed of the agent")
    _agent_options(p)

    x = commands.add_parser(
        "export", help="write a tree for an exam or a slide: SVG, PDF, PNG, TikZ, or a GIF of its search",
        description="Write a game tree as the question (the leaves' values, inner nodes blank) and/or "
                    "the answer (the search's values, alpha and beta, pruned branches cut). The suffix "
                    "of each path picks the format: .svg, .pdf, .png, .tex (a standalone LaTeX "
                    "document), .tikz (a bare tikzpicture to paste into an exam); an answer can also "
                    "be .gif or .mp4 (needs ffmpeg): the search step by step, one frame per step. "
                    "Folders are not created.",
        epilog=f'example: {PROG} export --tree "[[3,12,8],[2,4,6],[14,5,2]]" --answer alphabeta.svg')
    source = x.add_mutually_exclusive_group(required=True)
    source.add_argument("--tree", metavar="NESTED", action=_Once,
                        help='the tree as nested lists: numbers are leaves, e.g. "[[3,12,8],[2,4,6]]"; '
                             'a dict such as {"chance": [...], "p": [...]} makes a chance node')
    source.add_argument("--json", metavar="FILE_OR_TEXT", action=_Once,
                        help="the tree as JSON, in a file or as the text itself: a dict of nodes "
                             "(as gt.tree_from_dict takes) or nested lists")
    source.add_argument("--seed", metavar="N", action=_Once, type=_seed_text,
                        help="the tree of a generated exercise with this seed (a number, or a word "
                             "such as a student number)")
    x.add_argument("--kind", choices=EXERCISE_KINDS, default=None,
                   help="with --seed: the kind of exercise (default pruning; expectimax with "
                        "--algorithm expectimax)")
    x.add_argument("--difficulty", choices=DIFFICULTIES, default=None,
                   help="with --seed: the exercise's difficulty (default easy)")
    x.add_argument("--algorithm", choices=ALGORITHMS, default=None,
                   help="the search that answers (default: an exercise's own; else alphabeta, or "
                        "expectimax for a tree with chance nodes)")
    x.add_argument("--question", action="append", default=[], metavar="PATH",
                   help="write the question here (repeat for several files)")
    x.add_argument("--answer", action="append", default=[], metavar="PATH",
                   help="write the answer here (repeat for several files)")
    x.add_argument("--instructions", action="store_true",
                   help="say above the question what to do (for alpha-beta: ... and mark the "
                        "pruned branches)")
    x.add_argument("--fps", type=_fps, default=None,
                   help=f"steps per second of a .gif or .mp4 answer (default 1, {FPS_RANGE[0]:g} to "
                        f"{FPS_RANGE[1]:g})")
    x.add_argument("--max-nodes", type=_positive_int, default=500, metavar="N",
                   help="draw at most N nodes, at most N/2 side by side (default 500): a bigger tree is cut "
                        "to its top levels, one too wide even at the level under its root is refused; "
                        f"at most {MAX_FIGURE_NODES}")
    x.add_argument("--force", action="store_true",
                   help="overwrite an existing file that an earlier export did not write (without "
                        "it, only the command's own earlier output is replaced); the --json input "
                        "file is never overwritten")

    w = commands.add_parser(
        "site", help="build the course as a static website that works offline",
        description="Build the course as a static website in OUT_DIR: every lesson as a page in order "
                    "(replays step in the page), the lesson map as the index, the assignments' student "
                    "versions as downloads, a page on how to run the lessons, maths typeset by a MathJax "
                    "copied into the site. No page requests anything from another host. The notebooks "
                    "are read, never written.",
        epilog=f"example: {PROG} site site/   (then open site/index.html)")
    w.add_argument("out_dir", metavar="OUT_DIR",
                   help="the site's folder: new, empty, or a site this command built before (its files "
                        "are replaced); never inside notebooks/")
    w.add_argument("--force", action="store_true",
                   help="write into a folder that is not empty and was not built by this command "
                        "(files of the same name are replaced; nothing else is removed)")
    return parser


def make_game(name, coins=15):
    """The game called ``name`` on the command line."""
    if name == "tictactoe":
        return TicTacToe()
    if name == "connect4":
        return ConnectFour()
    return Nim(coins=coins)


def make_agent(kind, game_name, game, depth=None, playouts=1000, seconds=1.0, seed=None):
    """The agent called ``kind`` on the command line, set up for ``game``."""
    if default_evaluation(game) is None:
        if kind == "iterative":
            raise UsageError(f"iterative deepening needs an evaluation function, and there is none "
                             f"for {game_name}: use minimax or alphabeta, which search the whole game")
        if depth is not None and kind in ("minimax", "alphabeta"):
            raise UsageError(f"--depth needs an evaluation function, and there is none for "
                             f"{game_name}: leave --depth out to search the whole game")
    if depth is None:
        depth = DEFAULT_DEPTH[game_name]
    if kind == "random":
        return RandomAgent(seed=seed)
    if kind == "minimax":
        return MinimaxAgent(depth=depth, seed=seed)
    if kind == "alphabeta":
        return AlphaBetaAgent(depth=depth)
    if kind == "iterative":
        return IterativeDeepeningAgent(seconds=seconds)
    return MCTSAgent(playouts=playouts, seed=seed)


def _plural(n, word):
    return f"{n} {word}{'' if n == 1 else 's'}"


def run_tournament(args, out):
    game = make_game(args.game, args.coins)
    a, b = (make_agent(kind, args.game, game, args.depth, args.playouts, args.seconds)
            for kind in args.agents)
    labels = [a.name, b.name] if a.name != b.name else [f"{a.name}-1", f"{b.name}-2"]
    a.name, b.name = labels
    if args.first is None:  # the course notes' runs: the first-named agent moves first
        first, second, seats = a, b, "fixed"
    elif args.first == "alternate":
        first, second, seats = a, b, "alternate"
    elif args.first == labels[0]:
        first, second, seats = a, b, "fixed"
    elif args.first == labels[1]:
        first, second, seats = b, a, "fixed"
    else:
        raise UsageError(f"--first must be 'alternate' or one of the agents "
                         f"{labels[0]!r}, {labels[1]!r}; got {args.first!r}")

    def report(record):
        winner = "draw" if record.winner is None else record.winner
        print(f"game {record.index}: winner = {winner}", file=out, flush=True)

    result = tournament(first, second, game, games=args.games, seed=args.seed, seats=seats,
                        on_game=report)
    wins = ", ".join(f"{label} won {result.wins[label]}" for label in labels)
    print(f"{wins}, {_plural(result.draws, 'draw')}", file=out)
    return 0


def _guide(game_name, game):
    if game_name == "tictactoe":
        return ("Cells are numbered 0-8, row by row from the top left:\n"
                "012\n345\n678")
    if game_name == "connect4":
        return f"Type the column to drop your piece in, 0-{game.cols - 1} (numbered under the board)."
    return "Take 1, 2 or 3 coins; whoever takes the last coin wins."


def run_play(args, out, read=input):
    game = make_game(args.game, args.coins)
    kind = args.agent or ("alphabeta" if args.game == "connect4" else "minimax")
    agent = make_agent(kind, args.game, game, args.depth, args.playouts, args.seconds, args.seed)
    human = HumanAgent(name="you", read=read, write=lambda line: print(line, file=out))
    you_first = args.first == "you"
    marks = {"tictactoe": ("X", "O"), "connect4": ("X", "O")}.get(args.game)
    you = f"you are {marks[0] if you_first else marks[1]}, " if marks else ""
    print(f"{args.game} against {agent.name}: {you}{'you' if you_first else agent.name} "
          f"move{'' if you_first else 's'} first. Type q to quit.", file=out)
    print(_guide(args.game, game), file=out)
    state = game.initial
    while not game.is_terminal(state):
        print(file=out)
        print(game.display(state), file=out)
        mover_is_you = (game.to_move(state) == MAX) == you_first
        if mover_is_you:
            try:
                move = human(game, state)
            except QuitGame:
                print("Game abandoned.", file=out)
                return 0
        else:
            move = agent(game, state)
            print(f"{agent.name} plays {move}", file=out)
        state = game.result(state, move)
    print(file=out)
    print(game.display(state), file=out)
    utility = game.utility(state)
    if utility == 0:
        print("Draw.", file=out)
    elif (utility > 0) == you_first:
        print("You win!", file=out)
    else:
        print(f"{agent.name} wins.", file=out)
    return 0


def _too_wide(label, children, max_nodes):
    return UsageError(
        f"the tree is too wide to draw: node {label} has {children:,} children side by side, more than the "
        f"{max_nodes // 2:,} that --max-nodes {max_nodes} allows (half of it); raise --max-nodes "
        f"(at most {MAX_FIGURE_NODES}), or export a tree with fewer children")


def _refuse_a_wide_root(data, nested, max_nodes):
    """Refuse, before building the tree, a root with more children than a figure shows side by side.

    Every child of the root is drawn (the command has no option to hide some), so a root with more
    than ``max_nodes // 2`` children is refused at once: building a tree of 200,000 nodes alone takes
    seconds. (A wide level further down is cut from the figure, not refused.)
    """
    if nested:
        kids = data
        if isinstance(data, dict):
            kids = next((data[k] for k in ("max", "min", "chance") if k in data), None)
        label = f"{data['label']} (())" if isinstance(data, dict) and "label" in data else "A (())"
        if isinstance(kids, (list, tuple)) and len(kids) > max_nodes // 2:
            raise _too_wide(label, len(kids), max_nodes)
        return
    children = set()
    for node in data.values():
        kids = node.get("children") if isinstance(node, dict) else None
        if isinstance(kids, list):
            children.update(k for k in kids if isinstance(k, (str, int)))
    roots = [name for name in data if name not in children]
    if len(roots) == 1 and isinstance(data[roots[0]], dict):
        kids = data[roots[0]].get("children")
        if isinstance(kids, list) and len(kids) > max_nodes // 2:
            label = data[roots[0]].get("label", roots[0])
            raise _too_wide(repr(label) if label == roots[0] else f"{label} ({roots[0]!r})", len(kids),
                            max_nodes)


def _export_source(args, max_nodes):
    """The tree named by --tree or --json, or the exercise named by --seed."""
    if args.tree is not None:
        try:
            spec = read_json(args.tree)
        except RecursionError:
            raise UsageError(f"--tree: the list {_TOO_DEEP}") from None
        except json.JSONDecodeError:
            try:  # Python's spelling too: single quotes, a trailing comma
                spec = ast.literal_eval(args.tree)
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                raise UsageError(f"--tree: {args.tree!r} is not a nested list such as "
                                 '"[[3,12,8],[2,4,6],[14,5,2]]"') from None
        except ValueError as error:  # a number too long to read, a key given twice
            raise UsageError(f"--tree: {error}") from None
        _refuse_a_wide_root(spec, True, max_nodes)
        try:
            return tree_from_nested(spec)
        except (ValueError, TypeError) as error:
            raise UsageError(f"--tree: {error}") from None
    if args.json is not None:
        text = args.json
        if not text.lstrip().startswith(("{", "[")):
            text = _read_json_file(text)
        try:
            data = read_json(text)
        except json.JSONDecodeError as error:
            raise UsageError(f"--json: not valid JSON: {error}") from None
        except ValueError as error:
            raise UsageError(f"--json: {error}") from None
        except RecursionError:
            raise UsageError(f"--json: the JSON {_TOO_DEEP}") from None
        nested = not isinstance(data, dict) or (
            set(data) <= {"max", "min", "chance", "p", "label"} and set(data) & {"max", "min", "chance"})
        _refuse_a_wide_root(data, nested, max_nodes)
        try:
            return tree_from_nested(data) if nested else tree_from_dict(data)
        except (ValueError, TypeError) as error:
            raise UsageError(f"--json: {error}") from None
    seed = args.seed.strip()
    seed = int(seed) if re.fullmatch(r"[+-]?\d+", seed) else seed
    kind = args.kind or ("expectimax" if args.algorithm == "expectimax" else "pruning")
    return exercises.generate(kind, seed=seed, difficulty=args.difficulty or "easy")


def _size(path):
    n = Path(path).stat().st_size
    return f"{n / 1024:.1f} kB" if n < 1024 * 1024 else f"{n / 1024 / 1024:.1f} MB"


def _suffix(path):
    return Path(path).suffix.lower()


_FORMAT_NAMES = {".svg": "SVG", ".pdf": "PDF", ".png": "PNG", ".tex": "a LaTeX document",
                 ".tikz": "a TikZ picture"}


def run_export(args, out):
    # Only this command draws: matplotlib is loaded here, never for --help or the other commands.
    from .drawing import TreeTooWide, check_max_nodes
    from .exports import ANIMATION_FORMATS, FIGURE_FORMATS, animate, export
    from .exports.files import check_target
    from .exports.flavours import check_width, resolve

    if not args.question and not args.answer:
        raise UsageError("nothing to write: give --question PATH and/or --answer PATH")
    try:
        max_nodes = check_max_nodes(args.max_nodes, "--max-nodes")
    except ValueError as error:
        raise UsageError(str(error)) from None
    if args.seed is None and (args.kind or args.difficulty):
        raise UsageError("--kind and --difficulty choose a generated exercise: use them with --seed")
    if args.instructions and not args.question:
        raise UsageError("--instructions go above the question: give --question PATH")
    targets = [Path(p).expanduser().resolve() for p in [*args.question, *args.answer]]
    twice = next((p for p, t in zip([*args.question, *args.answer], targets) if targets.count(t) > 1), None)
    if twice is not None:  # the answer would overwrite the question (or a file itself)
        raise UsageError(f"{twice!r} is given twice: the question and the answer need different paths")
    # Every path is checked before anything is written.
    try:
        for path in args.question:
            if _suffix(path) in ANIMATION_FORMATS:
                raise UsageError(f"{path!r}: a question is a figure ({', '.join(FIGURE_FORMATS)}); "
                                 "an animation shows the search: use --answer")
            check_target(path, FIGURE_FORMATS, "--question")
        for path in args.answer:
            check_target(path, {**FIGURE_FORMATS, **ANIMATION_FORMATS}, "--answer")
    except (ValueError, OSError) as error:
        raise UsageError(str(error)) from None
    _check_overwrites(args, targets)
    animated = [p for p in args.answer if _suffix(p) in ANIMATION_FORMATS]
    if args.fps is not None and not animated:
        raise UsageError("--fps is for an animated answer: give --answer PATH.gif (or .mp4)")
    if any(_suffix(p) == ".mp4" for p in animated) and not _ffmpeg():
        raise UsageError("an .mp4 needs ffmpeg, which is not installed (not on the PATH): "
                         "write a .gif instead")
    source = _export_source(args, max_nodes)
    try:  # before the search: a tree too wide to draw is refused at once
        check_width(source, max_nodes=max_nodes)
    except TreeTooWide as wide:
        raise _too_wide(wide.label, wide.children, wide.max_nodes) from None
    try:
        result = None
        if args.answer:  # one search answers every file (and tells a bad --algorithm early)
            _, result, algorithm, _ = resolve(source, "answer", args.algorithm)
        for path in args.question:
            written = export(source, path, flavour="question", algorithm=args.algorithm,
                             instructions=args.instructions, max_nodes=max_nodes, force=args.force)
            print(f"wrote {path}: the question as {_FORMAT_NAMES[_suffix(path)]}, {_size(written)}", file=out)
        for path in args.answer:
            if path in animated:
                written = animate(result, path, fps=args.fps or 1.0, max_nodes=max_nodes, force=args.force)
                print(f"wrote {path}: the {algorithm} search, {len(result.trace)} frames (one per step), "
                      f"{_size(written)}", file=out)
            else:
                written = export(result, path, max_nodes=max_nodes, force=args.force)
                print(f"wrote {path}: the answer ({algorithm}) as {_FORMAT_NAMES[_suffix(path)]}, "
                      f"{_size(written)}", file=out)
    except (ValueError, TypeError, OSError, RuntimeError) as error:
        raise UsageError(str(error)) from None
    return 0


def _check_overwrites(args, targets):
    """Refuse to write over the command's input, or over a file an export did not write without --force."""
    from .exports.files import check_overwrite

    given = [*args.question, *args.answer]
    if args.json is not None and not args.json.lstrip().startswith(("{", "[")):
        source = Path(args.json).expanduser().resolve()
        for path, target in zip(given, targets):
            if target == source or (target.exists() and source.exists() and os.path.samefile(target, source)):
                raise UsageError(f"{path!r} is the --json input file: the export would write over "
                                 "the tree it reads; write to another path")
    for path in given:
        try:
            check_overwrite(path, args.force, "--force")
        except FileExistsError as error:
            raise UsageError(str(error)) from None


def run_site(args, out):
    # Only this command converts notebooks: nbconvert is loaded here, never for --help or the others.
    from .site import build_site

    try:
        report = build_site(args.out_dir, force=args.force)
    except (ValueError, OSError) as error:
        raise UsageError(str(error)) from None
    for line in report.lines():
        print(line, file=out)
    return 0


def _ffmpeg():
    from matplotlib import animation

    return animation.writers.is_available("ffmpeg")


def main(argv=None, out=None, read=input):
    """Run the command line; return the exit code.

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default ``sys.argv[1:]``).
    out : file, optional
        Where the output goes (default ``sys.stdout``).
    read : callable, default :func:`input`
        How ``play`` reads the person's moves.

    Examples
    --------
    The first-named agent moves first in every game (``--first alternate``
    makes the agents take turns):

    >>> main(["tournament", "-g", "3", "--seed", "0", "random", "minimax"])
    game 0: winner = draw
    game 1: winner = draw
    game 2: winner = minimax
    random won 0, minimax won 1, 2 draws
    0
    """
    out = sys.stdout if out is None else out
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return stop.code
    if args.command is None:
        print(f"{PROG}: error: choose a command: tournament, play, export or site (see {PROG} --help)",
              file=sys.stderr)
        return 2
    try:
        if args.command == "tournament":
            return run_tournament(args, out)
        if args.command == "export":
            return run_export(args, out)
        if args.command == "site":
            return run_site(args, out)
        return run_play(args, out, read)
    except UsageError as error:
        print(f"{PROG} {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    except Exception as error:  # noqa: BLE001 - one line, never a traceback
        print(f"{PROG}: error: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
