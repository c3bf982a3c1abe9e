"""Lesson 04 (depth and evaluation): the ply that sees a forced result, which move each depth plays on which
scale, quiet positions.

The checks lesson 04 calls; each compares the learner's answer with what the engine or
the lesson's rule computes, and a check on an unanswered exercise says only that it is unanswered.
"""

from __future__ import annotations

import functools
import itertools
import numbers

from ...evaluation import tictactoe_open_lines
from ...games import MAX, ConnectFour, TicTacToe
from ...search import alphabeta
from ..answers import BadAnswer
from ..attempts import counts, escalate, worked_answer
from ..feedback import Feedback, Report, fmt, malformed, unanswered
from .reading import is_blank, number_answer

__all__ = ["SCALE_QUESTIONS", "check_quiet_positions", "check_scale_choices", "check_win_depth",
           "scale_moves", "solution_quiet_positions", "solution_scale_choices", "solution_win_depth"]


def _proof_depth(game, state, limit=14):
    """``(depth, value)``: the smallest depth whose search, every horizon scored 0, returns a win or loss."""
    for depth in range(1, limit + 1):
        v = alphabeta(game, state, depth=depth, evaluate=lambda s: 0, trace=False).value
        if v in (1, -1):
            return depth, v
    raise ValueError(f"no forced win or loss within {limit} moves in this position")


#: Twin positions for check_win_depth: (moves, how the forced line goes).
_DEPTH_TWINS = (
    ([2, 4, 2, 3, 3, 1, 1, 4, 4, 3], "X, to move, plays 0: playing column 0 again would now complete the "
                                     "second row (columns 0 to 3), so O's reply there is forced; X's next "
                                     "move, 2, makes two threats at once, a four by playing column 2 and "
                                     "one by playing column 3; O blocks one, and X completes four at the "
                                     "other: X, O, X, O, X"),
    ([0, 6, 1, 6, 2, 5], "X, to move, has three in the bottom row with column 3 open: X's winning move is "
                         "the first ply of the line"),
    ([3, 0, 3, 0, 3, 1], "X, to move, has three in column 3: X's winning move on top of them is the first "
                         "ply"),
)


def _count_plies_twin(game, depth):
    """A twin worked through: a position whose forced result needs another number of plies than ``depth``."""
    if not isinstance(game, ConnectFour) or (game.rows, game.cols, game.k) != (6, 7, 4):
        return None
    for moves, story in _DEPTH_TWINS:
        twin = game.from_moves(moves)
        d, v = _proof_depth(game, twin)
        if d != depth:
            rows = [f"depth {k}: "
                    f"{fmt(alphabeta(game, twin, depth=k, evaluate=lambda s: 0, trace=False).value)}"
                    for k in range(1, d + 1)]
            return (f"after the moves {moves}, {story}. Counting every ply of both sides up to the move that "
                    f"completes four gives {d}, and the searches agree: {'; '.join(rows)}.")
    return None




def _forced_first_moves(game, state, depth, value):
    """The mover's moves after which the forced result ``value`` is proved ``depth - 1`` plies later."""
    out = []
    for move, child in game.successors(state):
        if game.is_terminal(child):
            if depth == 1 and game.utility(child) == value:
                out.append(move)
        elif depth > 1 and alphabeta(game, child, depth=depth - 1, evaluate=lambda s: 0,
                                     trace=False).value == value:
            out.append(move)
    return out


def check_win_depth(game, state, answer, first_move=None):
    """Check the smallest depth that proves a forced win or loss (lesson 04), and the line's first move.

    A depth-limited search *proves* the result when its value is a win
    (+1) or loss (-1) even with every position at the horizon scored 0: then
    the result is forced within that many moves, whatever an evaluation
    function says. A wrong depth is told whether it is too shallow or too
    deep and how to count, never the depth, on the first wrong check and
    whenever ``first_move`` is right; after that, without the line's first
    move, only that it is not the smallest depth (no direction to search
    by). A second wrong check works another position through. ``first_move``
    (``None``, or left out, for not answered yet) is the mover's first move
    of the forced line: right when the result is still forced, and proved,
    one ply sooner after it. Both parts are asked: the answer is right only
    when both are.

    Examples
    --------
    >>> from gametrees.games import ConnectFour
    >>> c4 = ConnectFour()
    >>> threat = c4.from_moves([3, 3, 4, 4])
    >>> check_win_depth(c4, threat, 3, first_move=5).ok
    True
    >>> check_win_depth(c4, threat, 3, first_move=6).title
    'Forced line: 1 of 2 right.'
    >>> check_win_depth(c4, threat, 3)   # the first move is asked too
    ✗ Forced line: 1 of 2 right.
    ✓ Depth 3: MAX's forced win is proved; every shallower search still returns 0.
    ✗ The first move: not answered yet.
    """
    what = "Forced line"
    if is_blank(answer) and is_blank(first_move):
        return unanswered(what, "Replace each None with your answer: the depth (a number of plies) and the "
                                "first move (a column).")
    depth, v = _proof_depth(game, state)
    who = "MAX" if v > 0 else "MIN"
    rep = Report()
    readable, depth_right = 0, False
    line_found = (not is_blank(first_move) and first_move in list(game.actions(state))
                  and first_move in _forced_first_moves(game, state, depth, v))
    # Too shallow or too deep is said on the first wrong check, and whenever the line's first move is right;
    # after that a guessed depth gets no direction (it would make the depth a binary search).
    direction = line_found or counts().get("l04.win_depth", {}).get("wrong", 0) == 0
    if is_blank(answer):
        rep.bad("The depth: not answered yet.")
    else:
        x, fb = number_answer(answer, what)
        if fb is not None:
            rep.bad(f"Could not read the depth {answer!r}: give a whole number of plies, such as 5.")
        else:
            readable += 1
            depth_right = x == depth
            if x == depth:
                rep.good(f"Depth {depth}: {who}'s forced win is proved; every shallower search still returns "
                         "0.")
            elif x != int(x) or x < 1:
                rep.bad(f"{fmt(x)} is not a search depth: a depth is a whole number of plies, 1 or more.")
            elif not direction:
                rep.bad(f"Depth {fmt(x)} is not the depth asked for, the smallest that proves the win. Find "
                        "the forced line on the board first (which move starts it?), then count its plies, "
                        "both sides' moves, up to the move that completes four.")
            elif x < depth:
                rep.bad(f"At depth {fmt(x)} the search still ends before the forced line is over: it returns "
                        "0, not a win. Play the line out on the board: the winner's moves and every forced "
                        "reply, one ply each, up to the move that completes four.")
            else:
                rep.bad(f"Depth {fmt(x)} proves it, but so does a shallower search: which is the last move "
                        "of the forced line, and how many plies (both sides' moves) does it take to get "
                        "there?")
    moves = list(game.actions(state))
    if is_blank(first_move):
        rep.bad("The first move: not answered yet.")
    elif first_move not in moves:
        rep.bad(f"Could not read the first move {first_move!r}: give one of the moves "
                f"{', '.join(map(str, moves))}.")
    else:
        readable += 1
        mover = "X" if game.to_move(state) == MAX else "O"
        if line_found:
            rep.good(f"First move {first_move}: after it the win is still forced, one ply sooner.")
        else:
            rep.bad(f"After {mover} plays {first_move}, the win is no longer forced within the plies "
                    "that are left: which reply of the opponent stops it? Look for a first move that "
                    f"makes two threats at once, two places where {mover} would complete four with the "
                    "next move: the opponent's one reply can block only one of them.")
    if not readable:
        return malformed(what, "Could not read your answer: give the depth (a whole number of plies) "
                               "and the first move (a column).")
    return escalate("l04.win_depth", rep.feedback(what),
                    twin=lambda _: None if depth_right else _count_plies_twin(game, depth),
                    on="another position")


SCALE_QUESTIONS = ("depth 1, utility ±1", "depth 2, utility ±1", "depth 1, one scale", "depth 2, one scale")


def _scale_tree(moves):
    """``moves`` checked: ``{name: "win"}`` or ``{name: (estimate, [estimates after each reply])}``."""
    if not isinstance(moves, dict) or len(moves) < 2:
        raise ValueError("moves must be a dict of at least two moves, each 'win' or (estimate, [estimates "
                         f"after each reply]), such as {{'a': 'win', 'b': (2, [0, 1])}}; got {moves!r}")
    for name, spec in moves.items():
        ok = spec == "win" or (
            isinstance(spec, (tuple, list)) and len(spec) == 2 and isinstance(spec[0], numbers.Real)
            and isinstance(spec[1], (tuple, list)) and len(spec[1]) >= 1
            and all(isinstance(x, numbers.Real) for x in spec[1]))
        if not ok:
            raise ValueError(f"move {name!r}: expected 'win' or (estimate, [estimates after each reply]), "
                             f"got {spec!r}")
    if sum(spec == "win" for spec in moves.values()) != 1:
        raise ValueError("moves must hold exactly one move that wins at once ('win')")
    return moves


def _scale_values(moves, depth, win):
    """Each move's value at ``depth`` (1 or 2) with a win worth ``win``, and its worked formula."""
    values, shown = {}, {}
    for name, spec in moves.items():
        if spec == "win":
            values[name], shown[name] = win, f"{name} wins (worth {fmt(win)})"
        elif depth == 1:
            values[name], shown[name] = spec[0], f"{name} = {fmt(spec[0])}"
        else:
            values[name] = min(spec[1])
            shown[name] = f"{name} = min({', '.join(fmt(x) for x in spec[1])}) = {fmt(values[name])}"
    return values, shown


def _inverted_choice(moves, win):
    """The depth-2 choice if O picked the reply best for X (roles inverted), or None when that is not one
    move."""
    values = {m: win if spec == "win" else max(spec[1]) for m, spec in moves.items()}
    top = max(values.values())
    best = [m for m, v in values.items() if v == top]
    return best[0] if len(best) == 1 else None


def _scale_choice(moves, depth, win):
    values, _ = _scale_values(moves, depth, win)
    top = max(values.values())
    best = [m for m, v in values.items() if v == top]
    if len(best) != 1:
        raise ValueError(f"moves {best} tie at depth {depth} with a win worth {fmt(win)}: the question needs "
                         "one best move")
    return best[0]


def check_scale_choices(moves, answer, win=100):
    """Check which move a depth-1 and a depth-2 search choose, with a win scored 1 or on the estimates' scale.

    ``moves`` describes X's moves in a position, X to move: ``"win"`` for
    the move that wins at once, else ``(estimate, [estimates after each of
    O's replies])``, estimates on the open-lines scale (-8..8). ``answer``
    maps each of :data:`SCALE_QUESTIONS` to a move: with ``utility ±1`` a
    finished game is scored by the game's utility, 1, while estimates reach
    8; with ``one scale`` a win is worth ``win``. At depth 1 a move is worth
    its estimate, at depth 2 the smallest estimate after O's replies; a
    winning move is worth the win at every depth. Moves are read ignoring
    case. The feedback counts the right answers and explains each slip it
    recognises (how many answers show it), without saying which answers are
    right or wrong.

    Examples
    --------
    >>> moves = {"a": "win", "b": (2, [0, 1]), "c": (1, [-1, 1])}   # X to move in ..O/.XO/XOX
    >>> check_scale_choices(moves, None)
    ✗ Which move each search plays: not answered yet.
    ✗ Give a move ('a', 'b', 'c') for each of the four questions, in place of None.
    >>> right = {"depth 1, utility ±1": "b", "depth 2, utility ±1": "a",
    ...          "depth 1, one scale": "a", "depth 2, one scale": "a"}
    >>> check_scale_choices(moves, right).ok
    True
    >>> check_scale_choices(moves, dict(right, **{"depth 2, utility ±1": "B"})).title
    'Which move each search plays: 3 of 4 right.'
    """
    what = "Which move each search plays"
    moves = _scale_tree(moves)
    how = (f"Give a move ({', '.join(map(repr, moves))}) for each of the four questions, in place of None.")
    if answer is None or (isinstance(answer, dict) and all(v is None for v in answer.values())):
        return unanswered(what, how)
    if not isinstance(answer, dict):
        return malformed(what, f"Could not read your answer: give a dict, one move per question, such as "
                               f"{{{SCALE_QUESTIONS[0]!r}: 'a', ...}}. You gave {answer!r}.")
    win_move = next(m for m, spec in moves.items() if spec == "win")
    rep = Report()
    for key in answer:
        if key not in SCALE_QUESTIONS:
            rep.bad(f"{key!r} is not one of the questions: they are {', '.join(map(repr, SCALE_QUESTIONS))}.")
    right = answered = 0
    wrong_keys, plain_wrong, slips = [], [], {}
    by_name = {str(m).strip().casefold(): m for m in moves}
    for key in SCALE_QUESTIONS:
        depth = 1 if key.startswith("depth 1") else 2
        w = 1 if key.endswith("±1") else win
        mine = answer.get(key)
        if mine is None:
            rep.bad(f"{key}: not answered yet.")
            continue
        answered += 1
        best = _scale_choice(moves, depth, w)
        if str(mine).strip().casefold() not in by_name:
            rep.bad(f"{key}: {mine!r} is not one of the moves {', '.join(moves)}.")
            continue
        mine = by_name[str(mine).strip().casefold()]
        if mine == best:   # counted in the title, not marked one by one (no per-question oracle)
            right += 1
            continue
        tag = None
        if mine == win_move and w == 1:
            text = ("the search does not play the win there. A finished game never reaches the "
                    "evaluation: what is the win worth to this search, and how does that compare with the "
                    "estimates?")
            tag = "scale-mismatch"
        elif depth == 2 and mine == _scale_choice(moves, 1, w):
            text = ("at depth 2 O replies before any estimate is taken: did you score each move by "
                    "the estimates after O's replies, or by its own estimate?")
        elif depth == 2 and mine == _inverted_choice(moves, w):
            text = "which of its replies does O choose: the best one for X, or the worst?"
            tag = "roles-inverted"
        elif w != 1:
            text = "on one scale, what is a win worth next to the largest estimate?"
        else:   # no slip this answer shows: not marked on its own, counted below
            text = None
        wrong_keys.append(key)
        if text is None:
            plain_wrong.append(key)
        else:
            slips.setdefault(text, [0, tag])[0] += 1
    # Each slip is explained, counted, and not tied to its question: naming the question would make the
    # check an oracle to try the three moves against, one question at a time.
    for text, (n, tag) in slips.items():
        rep.bad(f"{n} of your answers: {text}", tag=tag)
    if plain_wrong:   # counted, not named: no oracle to eliminate answers one question at a time
        n = len(plain_wrong)
        more = "Besides those above, " if len(wrong_keys) > n else ""
        rep.bad(f"{more}{n} answer{'s are' if n > 1 else ' is'} wrong: for each question, score every move "
                "as that search does (its depth, its worth of a win), then take the largest.")
    title = (f"{what}: right." if right == len(SCALE_QUESTIONS)
             else f"{what}: {right} of {len(SCALE_QUESTIONS)} right"
                  + (f" ({len(SCALE_QUESTIONS) - answered} not answered yet)."
                     if answered < len(SCALE_QUESTIONS) else "."))
    if right == len(SCALE_QUESTIONS) and any(kind == "bad" for kind, _, _ in rep.items):
        title = f"{what}: all four right, but see below."
    if right == len(SCALE_QUESTIONS) and not any(kind == "bad" for kind, _, _ in rep.items):
        rep.good("Every search plays the move its depth and its worth of a win choose.")
    fb = Feedback(title, rep.items, tags=rep.tags,
                  status="unreadable" if answered and not right and not wrong_keys
                  and any(kind == "bad" for kind, _, _ in rep.items) else None)
    return escalate("l04.scale_choices", fb, twin=lambda _: _scale_twin(moves, wrong_keys, win),
                    on="another position")


def _open_lines_count(game, state):
    """Lines open for X minus lines open for O, as a whole number (the lesson's open-lines estimate)."""
    return round(tictactoe_open_lines(state, scale=10) * 10)


def scale_moves(game, state):
    """X's moves in a tic-tac-toe position as :func:`check_scale_choices` reads them, or None if unfit.

    Fit means X to move, exactly one move that wins at once, and every other
    move leaves a game that O's replies do not end. The moves are named
    ``a``, ``b``, ... in the game's move order, the win first.

    Examples
    --------
    >>> from gametrees.games import TicTacToe
    >>> ttt = TicTacToe()
    >>> scale_moves(ttt, ttt.from_string("..O/.XO/XOX"))
    {'a': 'win', 'b': (2, [0, 1]), 'c': (1, [-1, 1])}
    """
    if game.is_terminal(state) or game.to_move(state) != MAX:
        return None
    wins, others = [], []
    for move, child in game.successors(state):
        if game.is_terminal(child):
            if game.utility(child) <= 0:
                return None
            wins.append(move)
            continue
        replies = [r for _, r in game.successors(child)]
        if any(game.is_terminal(r) for r in replies):
            return None
        others.append((_open_lines_count(game, child), [_open_lines_count(game, r) for r in replies]))
    if len(wins) != 1:
        return None
    return dict(zip("abcdefghi", ["win"] + others))


@functools.lru_cache(maxsize=1)
def _real_scale_specs():
    """Every tic-tac-toe position fit for the question with three or more moves: ``(its scale_moves, the
    board as text)``, the first board of each spec, those with fewer moves first."""
    game = TicTacToe()
    specs, boards, seen, stack = [], [], set(), [game.initial]
    while stack:
        state = stack.pop()
        if state in seen or game.is_terminal(state):
            continue
        seen.add(state)
        stack.extend(child for _, child in game.successors(state))
        spec = scale_moves(game, state)
        if spec is not None and len(spec) >= 3 and spec not in specs:
            specs.append(spec)
            boards.append(TicTacToe.to_string(state))
    return sorted(zip(specs, boards), key=lambda sb: len(sb[0]))


def _key_search(key, win):
    """``(depth, worth of a win)`` of one of :data:`SCALE_QUESTIONS`."""
    return (1 if key.startswith("depth 1") else 2), (1 if key.endswith("±1") else win)


def _renamed(moves, names):
    """``moves`` with the move named ``m`` renamed ``names[m]``, listed in the new names' order."""
    return {names[m]: moves[m] for m in sorted(moves, key=lambda m: names[m])}


def _scale_twin_gives_away(moves, twin, keys, win):
    """True if the twin's worked example hands over part of this exercise's answer: on a question it works,
    the twin's search plays the move (by name) this exercise's search plays there, or its moves are worth
    the numbers this exercise's are (in any order); or the twin's winning move has this exercise's win's
    name (a learner would learn "the win is a")."""
    if next(m for m, v in twin.items() if v == "win") == next(m for m, v in moves.items() if v == "win"):
        return True
    for key in keys:
        depth, w = _key_search(key, win)
        if _scale_choice(twin, depth, w) == _scale_choice(moves, depth, w):
            return True
        worth = sorted(_scale_values(twin, depth, w)[0].values())
        if worth == sorted(_scale_values(moves, depth, w)[0].values()):
            return True
    return False


def _scale_twin(moves, keys, win):
    """The questions the learner got wrong, worked through on a twin: another real tic-tac-toe position,
    its moves renamed so that the worked example gives away none of this exercise's answers."""
    if not keys:
        return None
    best = None
    for spec, board in _real_scale_specs():
        for order in itertools.permutations(spec):   # which move gets which name: the win is not always a
            names = dict(zip(order, spec))
            twin = _renamed(spec, names)
            try:
                if _scale_twin_gives_away(moves, twin, keys, win):
                    continue
            except ValueError:   # a tie: some question has no one best move there
                break
            # prefer a twin that works the slips through: depth 1 with utility ±1 skips the win, and depth 2
            # with utility ±1 plays another move than depth 1 (O's replies matter); then fewer moves
            values = _scale_values(twin, 1, 1)[0]
            shallow = [m for m, v in values.items() if v == max(values.values())]   # depth 1, utility ±1
            win_move = next(m for m, v in twin.items() if v == "win")
            score = (("depth 1, utility ±1" in keys and win_move not in shallow)
                     + ("depth 2, utility ±1" in keys and shallow != [_scale_choice(twin, 2, 1)]))
            if best is None or score > best[0]:
                best = (score, twin, board, names)
            break
    if best is None:
        return None
    _, twin, board, names = best

    def said(v):
        if v == "win":
            return "wins at once"
        return f"estimate {fmt(v[0])}, replies [{', '.join(map(fmt, v[1]))}]"

    game = TicTacToe()
    state = game.from_string(board)
    kids = list(game.successors(state))
    squares = ([m for m, c in kids if game.is_terminal(c)]
               + [m for m, c in kids if not game.is_terminal(c)])   # as scale_moves names them: the win first
    square = {names[m]: sq for m, sq in zip("abcdefghi", squares)}
    spec = ", ".join(f"{m} = square {square[m]}: {said(v)}" for m, v in twin.items())
    parts = []
    for key in keys:
        depth, w = _key_search(key, win)
        _, shown = _scale_values(twin, depth, w)
        parts.append(f"{key}: {', '.join(shown[m] for m in twin)}: the search plays "
                     f"{_scale_choice(twin, depth, w)}")
    return f"the board {board}, X to move: {spec}. " + "; ".join(parts) + "."


def _quiet_status(game, state):
    """``(kind, moves)``: "over", "wins" (the mover's winning moves), "lost", "forced" (the one safe move),
    "quiet"."""
    def wins_now(s):
        target = 1 if game.to_move(s) == MAX else -1
        return [m for m, child in game.successors(s)
                if game.is_terminal(child) and game.utility(child) * target > 0]

    if game.is_terminal(state):
        return "over", []
    now = wins_now(state)
    if now:
        return "wins", now
    safe = [m for m, child in game.successors(state) if game.is_terminal(child) or not wins_now(child)]
    if not safe:
        return "lost", []
    return ("forced" if len(safe) == 1 else "quiet"), safe


def _labels(answer):
    if isinstance(answer, str):
        return [p for p in answer.replace(",", " ").split() if p]
    if isinstance(answer, (set, frozenset, list, tuple)):
        return [str(p) for p in answer]
    raise BadAnswer(f"give the names of the quiet positions as a set, such as {{'A', 'C'}}; you gave "
                    f"{answer!r}")


def check_quiet_positions(game, positions, answer):
    """Check which of ``positions`` (``{name: state}``) are quiet by lesson 04's rule.

    A position is **quiet** when the game is not over, the side to move cannot
    win at once, and at least two of its moves leave the opponent no win at
    once; quiescence evaluates only quiet positions, and searches on along
    the single safe move of a forced one. ``answer`` is the set of names of
    the quiet positions (a set, list or a string ``"A, C"``). A wrong answer
    is told how many positions it calls quiet wrongly and how many quiet
    ones it leaves out, with the rule to apply again, never which ones.

    Examples
    --------
    >>> from gametrees.games import ConnectFour
    >>> c4 = ConnectFour()
    >>> positions = {"A": c4.from_moves([3, 3, 4, 4]), "B": c4.from_moves([3, 2, 3, 2, 3])}
    >>> check_quiet_positions(c4, positions, {"A"}).ok
    True
    >>> check_quiet_positions(c4, positions, None)
    ✗ Quiet positions: not answered yet.
    ✗ Give the set of the names of the quiet positions (of A, B), in place of None.
    """
    what = "Quiet positions"
    if not isinstance(positions, dict) or not positions:
        raise ValueError(f"positions must be a non-empty dict {{name: state}}; got {positions!r}")
    status = {str(k): _quiet_status(game, s) for k, s in positions.items()}
    if answer is None:
        return unanswered(what, f"Give the set of the names of the quiet positions (of {', '.join(status)}), "
                                 f"in place of None.")
    try:
        mine = _labels(answer)
    except BadAnswer as exc:
        return malformed(what, "Could not read your answer: " + str(exc) + ".")
    by_name = {name.casefold(): name for name in status}
    mine = [by_name.get(name.strip().casefold(), name) for name in mine]   # "a" is A
    rep = Report()
    for name in mine:
        if name not in status:
            rep.bad(f"{name!r} is not one of the positions {', '.join(status)}.")
    # Counts, not names: naming each misclassified position would hand over the answer (and let a learner
    # find it by elimination); the rule to apply again comes with each count.
    called_not = [kind for name, (kind, _) in status.items() if name in mine and kind != "quiet"]
    left_out = [kind for name, (kind, _) in status.items() if name not in mine and kind == "quiet"]
    wrong_kinds = called_not + left_out
    right = len(status) - len(wrong_kinds)
    if called_not:
        n = len(called_not)
        rep.bad(f"{n} of the positions you called quiet {'are' if n > 1 else 'is'} not. Look at each again: "
                "whose move is it, can that side win at once, and how many of its moves leave the opponent "
                "no win at once?",
                tag="horizon-effect" if set(called_not) & {"wins", "forced", "lost"} else None)
    if left_out:
        n = len(left_out)
        rep.bad(f"You left out {n} quiet position{'s' if n > 1 else ''}. Quiet is about the next move only: "
                "can the side to move win at once, and does it have more than one move that leaves the "
                "opponent no win at once? (A cell can be played only when the column below it is full.)")
    if not any(kind == "bad" for kind, _, _ in rep.items):   # recorded as solved (or shown) like the rest
        fb = Feedback(f"{what}: right.", [("good", "Each quiet position found, and no other.", None)])
    else:
        fb = Feedback(f"{what}: {right} of {len(status)} right.", rep.items, tags=rep.tags)
    return escalate("l04.quiet_positions", fb, twin=lambda _: _quiet_twin(game, positions, wrong_kinds),
                    on="another position")


#: Twin positions for check_quiet_positions (Connect Four 6x7): moves, one of each kind. The quiet one is
#: quiet for the reason the lesson's A is: the other side's three needs a cell that cannot be played yet, and
#: only the move below that cell lets it win. The forced one has a split three (X X . X), not a plain row to
#: block at its end; the lost one (the lesson's D) has a three open at both ends: two wins, one block.
_QUIET_TWINS = ([0, 0, 1, 1, 3], [0, 6, 0, 6, 0, 6], [1, 3, 1, 0, 0, 6, 3], [6, 6, 5, 5, 4, 4], [2, 2, 3, 3],
                [1, 1, 2, 2, 3])


def _quiet_reason(game, state, kind, moves):
    unit = "column" if isinstance(game, ConnectFour) else "move"
    if kind == "over":
        return "the game is over, so it is scored by its utility"
    mover = "X" if game.to_move(state) == MAX else "O"
    other = "O" if mover == "X" else "X"
    listed = ", ".join(str(m) for m in moves)
    unsafe = [m for m in game.actions(state) if m not in moves]
    if kind == "quiet" and unsafe:
        lets = ", ".join(str(m) for m in unsafe)
        return (f"{mover} cannot win at once; {other}'s win needs a cell that only {unit} {lets} would make "
                f"playable, so {mover} must not play {lets}, but the other {len(moves)} moves ({unit}s "
                f"{listed}) leave {other} no win at once: quiet")
    return {
        "wins": f"{mover}, to move, wins at once ({unit} {listed}): not quiet",
        "lost": f"after every move of {mover}, {other} wins at once: not quiet",
        "forced": f"only {unit} {listed} leaves {other} no win at once: {mover}'s move is forced, not quiet",
        "quiet": f"{mover} cannot win at once, and {len(moves)} moves ({unit}s {listed}) leave {other} no "
                 "win at once: quiet",
    }[kind]


def _quiet_twin(game, positions, kinds):
    """Twin positions of the kinds the learner got wrong, each classified with its reason."""
    if not isinstance(game, ConnectFour) or (game.rows, game.cols, game.k) != (6, 7, 4):
        return None
    taken = set(positions.values())
    parts = []
    for kind in dict.fromkeys(kinds):
        for moves in _QUIET_TWINS:
            state = game.from_moves(moves)
            k, ms = _quiet_status(game, state)
            if k == kind and state not in taken:
                parts.append(f"after the moves {moves}: {_quiet_reason(game, state, k, ms)}")
                break
    return "; ".join(parts) + "." if parts else None


# ============================================================================
# The worked answers of the lesson's exercises, after an attempt
# ============================================================================

#: Lesson 04's exercise 1 worked through (the tests check its choices pass :func:`check_scale_choices`).
SCALE_CHOICES_ANSWER = (
    "depth 1, utility ±1: b. a = 1, b = 2, c = 1: the estimate 2 beats the win (and c's 1 only ties with "
    "it). Depth 2, utility ±1: a. a = 1, b = min(0, 1) = 0, c = min(-1, 1) = -1: once O's replies are "
    "counted, no estimate reaches the win. Depth 1 and depth 2, one scale: a. The win is worth 100, more "
    "than any estimate (at most 8).")

#: Lesson 04's exercise 2 worked through (the tests check {"A", "E"} passes :func:`check_quiet_positions`).
QUIET_POSITIONS_ANSWER = (
    "A and E. In A, O is to move; X's three on the diagonal from the bottom left need a fourth stone in "
    "the fourth row of column 3, and column 3 is still empty: no threat yet, and every move of O is safe. "
    "In B, X wins at once: playing column 1 completes the bottom row (columns 1 to 4). In C, X has three "
    "in column 3, so O's move there is forced. In D, X's three in the bottom row are open at both ends: O "
    "can block only one, so whatever O plays, X wins on the next move. E is quiet although X can force a "
    "win there (Exercise 3): quiescence looks at what is forced on the next move, not at every plan.")

#: Lesson 04's exercise 3 worked through (the tests check 3 plies and first move 2 pass
#: :func:`check_win_depth`).
WIN_DEPTH_ANSWER = (
    "X plays 2 (or 5): three in the bottom row with both ends open (columns 1 and 5, or 2 and 6), each "
    "playable at once. O can block only one end; X completes four at the other. That is 3 plies, so depth "
    "3: any shallower search ends before X's winning move, and scores the horizon 0.")


def solution_scale_choices():
    """The worked answer of :func:`check_scale_choices` (lesson 04, exercise 1), only after an attempt."""
    return worked_answer("l04.scale_choices", "solution_scale_choices()", lambda: SCALE_CHOICES_ANSWER)


def solution_quiet_positions():
    """The worked answer of :func:`check_quiet_positions` (lesson 04, exercise 2), only after an attempt."""
    return worked_answer("l04.quiet_positions", "solution_quiet_positions()", lambda: QUIET_POSITIONS_ANSWER)


def solution_win_depth():
    """The worked answer of :func:`check_win_depth` (lesson 04, exercise 3), only after an attempt."""
    return worked_answer("l04.win_depth", "solution_win_depth()", lambda: WIN_DEPTH_ANSWER)
