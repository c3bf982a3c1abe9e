"""Lesson 04 (depth and evaluation): the ply that sees a forced result, which move each depth plays on which scale, quiet positions.

The checks lesson 04 calls; each compares the learner's answer with what the engine or
the lesson's rule computes, and a check on an unanswered exercise says only that it is unanswered.
"""

from __future__ import annotations

import numbers

from ...games import MAX, MIN, ConnectFour
from ...search import alphabeta
from ..answers import BadAnswer
from ..feedback import Feedback, Report, fmt
from .reading import number_answer, unanswered

__all__ = ["SCALE_QUESTIONS", "check_quiet_positions", "check_scale_choices", "check_win_depth"]


def check_win_depth(game, state, answer):
    """Check the smallest search depth that proves a forced win or loss (lesson 04).

    A depth-limited search *proves* the result when its value is a win
    (+1) or loss (-1) even with every position at the horizon scored 0: then
    the result is forced within that many moves, whatever an evaluation
    function says.
    """
    x, fb = number_answer(answer, "Depth that sees the forced result")
    if fb is not None:
        return fb
    rows, found = [], None
    for depth in range(1, 15):
        v = alphabeta(game, state, depth=depth, evaluate=lambda s: 0, trace=False).value
        rows.append(f"depth {depth}: {fmt(v)}")
        if v in (1, -1):
            found = (depth, v)
            break
    if found is None:
        raise ValueError("no forced win or loss within 14 moves in this position")
    depth, v = found
    who = "MAX" if v > 0 else "MIN"
    rep = Report()
    if x == depth:
        rep.good(f"Depth {depth}: {who} forces a win; shallower searches cannot prove it ({'; '.join(rows)}).")
    elif x < depth:
        rep.bad(f"At depth {fmt(x)} the search cannot prove it yet ({'; '.join(rows[:max(1, int(x))])}); "
                f"the forced win for {who} appears at depth {depth}.")
    else:
        rep.bad(f"Depth {depth} already proves the win for {who} ({'; '.join(rows)}).")
    return rep.feedback("Depth that sees the forced result")


SCALE_QUESTIONS = ("depth 1, utility ±1", "depth 2, utility ±1", "depth 1, one scale", "depth 2, one scale")


def _scale_tree(moves):
    """``moves`` checked: ``{name: "win"}`` or ``{name: (estimate, [estimates after each reply])}``."""
    if not isinstance(moves, dict) or len(moves) < 2:
        raise ValueError(f"moves must be a dict of at least two moves, each 'win' or (estimate, [estimates after "
                         f"each reply]), such as {{'a': 'win', 'b': (6, [7, -2])}}; got {moves!r}")
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


def _scale_choice(moves, depth, win):
    values, _ = _scale_values(moves, depth, win)
    top = max(values.values())
    best = [m for m, v in values.items() if v == top]
    if len(best) != 1:
        raise ValueError(f"moves {best} tie at depth {depth} with a win worth {fmt(win)}: the question needs one "
                         f"best move")
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
    winning move is worth the win at every depth.

    Examples
    --------
    >>> moves = {"a": "win", "b": (6, [7, -2]), "c": (3, [4, 2])}
    >>> check_scale_choices(moves, None)
    ✗ Which move each search plays: not answered yet.
    ✗ Give a move ('a', 'b', 'c') for each of the four questions, in place of None.
    >>> right = {"depth 1, utility ±1": "b", "depth 2, utility ±1": "c",
    ...          "depth 1, one scale": "a", "depth 2, one scale": "a"}
    >>> check_scale_choices(moves, right).ok
    True
    """
    what = "Which move each search plays"
    moves = _scale_tree(moves)
    how = (f"Give a move ({', '.join(map(repr, moves))}) for each of the four questions, in place of None.")
    if answer is None or (isinstance(answer, dict) and all(v is None for v in answer.values())):
        return unanswered(what, how)
    if not isinstance(answer, dict):
        return Feedback(f"{what}: not a dict.", [("bad", f"{how} You gave {answer!r}.", None)])
    win_move = next(m for m, spec in moves.items() if spec == "win")
    rep = Report()
    for key in answer:
        if key not in SCALE_QUESTIONS:
            rep.bad(f"{key!r} is not one of the questions: they are {', '.join(map(repr, SCALE_QUESTIONS))}.")
    right = answered = 0
    for key in SCALE_QUESTIONS:
        depth = 1 if key.startswith("depth 1") else 2
        w = 1 if key.endswith("±1") else win
        mine = answer.get(key)
        if mine is None:
            rep.bad(f"{key}: not answered yet.")
            continue
        answered += 1
        values, shown = _scale_values(moves, depth, w)
        best = _scale_choice(moves, depth, w)
        worth = ", ".join(shown[m] for m in moves)
        if str(mine) not in moves:
            rep.bad(f"{key}: {mine!r} is not one of the moves {', '.join(moves)}.")
            continue
        mine = str(mine)
        if mine == best:
            right += 1
            rep.good(f"{key}: {best} ({worth}).")
            continue
        if mine == win_move and w == 1:
            hint = (f"A finished game never reaches the evaluation: the search scores it with the game's utility, "
                    f"1, and the estimate {fmt(values[best])} of {best} is larger. This is the bug of this lesson.")
        elif depth == 2 and mine == _scale_choice(moves, 1, w):
            hint = ("At depth 2 the search looks one reply further: a move is worth the smallest estimate after "
                    "O's replies, not its own estimate.")
        elif depth == 2 and mine == max((m for m in moves if m != win_move), key=lambda m: max(moves[m][1])):
            hint = "O chooses the reply that is worst for X: take the smallest estimate after each move."
        elif w != 1 and mine != win_move:
            hint = (f"On one scale a win is worth {fmt(win)}, more than any estimate (at most 8): the search "
                    f"takes it at every depth.")
        else:
            hint = "Score each move as the search does, then take the largest."
        rep.bad(f"{key}: you chose {mine}, but {worth}, so the search plays {best}.", hint)
    title = (f"{what}: right." if right == len(SCALE_QUESTIONS)
             else f"{what}: {right} of {len(SCALE_QUESTIONS)} right"
                  + (f" ({len(SCALE_QUESTIONS) - answered} not answered yet)." if answered < len(SCALE_QUESTIONS)
                     else "."))
    if right == len(SCALE_QUESTIONS) and any(kind == "bad" for kind, _, _ in rep.items):
        title = f"{what}: all four right, but see below."
    return Feedback(title, rep.items)


def _quiet_status(game, state):
    """``(kind, moves)``: "over", "wins" (the mover's winning moves), "lost", "forced" (the one safe move), "quiet"."""
    def wins_now(s):
        target = 1 if game.to_move(s) == MAX else -1
        return [m for m, child in game.successors(s) if game.is_terminal(child) and game.utility(child) * target > 0]

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
    raise BadAnswer(f"give the names of the quiet positions as a set, such as {{'A', 'C'}}; you gave {answer!r}")


def check_quiet_positions(game, positions, answer):
    """Check which of ``positions`` (``{name: state}``) are quiet by lesson 04's rule.

    A position is **quiet** when the game is not over, the side to move cannot
    win at once, and at least two of its moves leave the opponent no win at
    once; quiescence evaluates only quiet positions, and searches on along
    the single safe move of a forced one. ``answer`` is the set of names of
    the quiet positions (a set, list or a string ``"A, C"``).

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
        return Feedback(f"{what}: not a set of names.", [("bad", str(exc)[0].upper() + str(exc)[1:] + ".", None)])
    unit = "column" if isinstance(game, ConnectFour) else "move"
    who = {MAX: "X", MIN: "O"}
    rep = Report()
    for name in mine:
        if name not in status:
            rep.bad(f"{name!r} is not one of the positions {', '.join(status)}.")
    quiet = [n for n, (kind, _) in status.items() if kind == "quiet"]
    for name, (kind, moves) in status.items():
        state = next(s for k, s in positions.items() if str(k) == name)
        said = name in mine
        if kind == "over":
            reason = "the game is over, so it is scored by its utility"
        else:
            mover = who[game.to_move(state)]
            other = "O" if mover == "X" else "X"
            listed = ", ".join(str(m) for m in moves)
            reason = {
                "wins": f"{mover}, to move, wins at once ({unit} {listed}): the search must see that win, not an "
                        f"estimate",
                "lost": f"after every move of {mover}, {other} wins at once: the position is lost",
                "forced": f"only {unit} {listed} leaves {other} no win at once: {mover}'s move is forced, so "
                          f"quiescence plays it and looks again",
                "quiet": f"{mover} cannot win at once, and {len(moves)} moves ({unit}s {listed}) leave {other} no "
                         f"win at once",
            }[kind]
        if said == (kind == "quiet"):
            rep.good(f"{name} is {'' if kind == 'quiet' else 'not '}quiet: {reason}.")
        elif said:
            rep.bad(f"You called {name} quiet, but it is not: {reason}.",
                    "Quiet means nothing is decided in the next move: no win at once for the side to move, and "
                    "more than one move that does not hand the opponent a win at once.")
        else:
            rep.bad(f"You left out {name}, but it is quiet: {reason}.",
                    "Quiet is about the next move only: a threat whose cell cannot be played yet, or a win that "
                    "takes several moves, does not make a position unquiet.")
    right = sum(kind == "good" for kind, _, _ in rep.items)
    found = len(set(mine) & set(quiet))
    if not any(kind == "bad" for kind, _, _ in rep.items):
        return Feedback(f"{what}: right, {', '.join(quiet) or 'none'}.", rep.items)
    return Feedback(f"{what}: {right} of {len(status)} positions right; you named {found} of the {len(quiet)} "
                    f"quiet ones.", rep.items)
