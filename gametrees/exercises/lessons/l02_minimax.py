"""Lesson 02 (minimax): preferring a fast win.

The checks lesson 02 calls; each compares the learner's answer with what the engine or
the lesson's rule computes, and a check on an unanswered exercise says only that it is unanswered.
"""

from __future__ import annotations

from ...games import MAX, TicTacToe
from ...search import minimax
from ...trees import expand
from ..code_checks.diagnosis import checker_feedback, printed_note
from ..code_checks.harness import Printed, error_hint, run_learner
from ..code_checks.values import ttt_text
from ..feedback import Feedback, Report, fmt, or_list

__all__ = ["check_fast_wins"]


def _first_fast_win():
    """A position where X wins at once, but minimax with +1 for every win plays a slower win."""
    game = TicTacToe()
    for s in sorted(expand(game, merge=True), key=lambda s: (bin(s[0] | s[1]).count("1"), s)):
        if game.is_terminal(s) or game.to_move(s) != MAX:
            continue
        now = [m for m, c in game.successors(s) if game.is_terminal(c) and game.utility(c) == 1]
        if now and minimax(game, s, trace=False).move not in now:
            return s, now
    raise AssertionError("tic-tac-toe has a slow-win position")  # pragma: no cover


def check_fast_wins(game):
    """Check a tic-tac-toe whose utility rewards quick wins (lesson 02).

    A draw must stay 0, a win for X must be positive and a loss negative,
    a quicker win (more empty cells left) must score more, and minimax must
    then take a win at once where it can.
    """
    if not isinstance(game, TicTacToe):
        raise TypeError(f"check_fast_wins expects a TicTacToe (subclass) instance, got {type(game).__name__}")
    base = TicTacToe()
    rep, printed = Report(), Printed()
    finals = [s for s in expand(base, merge=True) if base.is_terminal(s)]
    got = {}
    for s in finals:
        out = run_learner(game.utility, (s,), printed)
        if out.problem():
            rep.bad(f"utility of {ttt_text(s)}: {out.problem()}.", error_hint(out.error))
            return checker_feedback("check_fast_wins", rep, 0, 4)
        got[s] = float(out.value)
    if all(got[s] == base.utility(s) for s in finals):
        return Feedback("check_fast_wins: not answered yet.", [(
            "bad", "Your utility still scores every finished game as the plain one does (+1, 0, -1): change "
                   "it, then run the check again.", None)])
    passed = 0
    signs = [s for s in finals if (got[s] > 0) - (got[s] < 0) != base.utility(s)]
    if signs:
        s = signs[0]
        rep.bad(f"{ttt_text(s)} scores {fmt(got[s])}, but its plain utility is {base.utility(s)}: keep a draw at 0, "
                "a win for X positive and a win for O negative.")
    else:
        passed += 1
        rep.good("Draws score 0, X's wins are positive and O's wins negative.")

    def empty(s):
        return 9 - bin(s[0] | s[1]).count("1")

    wins = sorted((s for s in finals if base.utility(s) == 1), key=empty)
    slow = [(a, b) for a, b in zip(wins, wins[1:]) if empty(b) > empty(a) and not got[b] > got[a]]
    if slow:
        a, b = slow[0]
        rep.bad(f"A win with {empty(b)} empty cells ({ttt_text(b)}) scores {fmt(got[b])}, no more than one with "
                f"{empty(a)} ({ttt_text(a)}, {fmt(got[a])}): quicker wins should score more.",
                "Let the score of a win grow with the number of cells still empty when it ends.")
    else:
        passed += 1
        rep.good("Quicker wins score more.")
    losses = sorted((s for s in finals if base.utility(s) == -1), key=empty)
    if any(empty(b) > empty(a) and not got[b] < got[a] for a, b in zip(losses, losses[1:])):
        rep.bad("A quicker loss should score lower (more negative) than a slow one, so that MAX delays losing.")
    else:
        passed += 1
        rep.good("Quicker losses score lower.")
    s, now = _first_fast_win()
    out = run_learner(lambda: minimax(game, s, trace=False).move, (), printed, guard=False)
    if out.error:
        rep.bad(f"Searching {ttt_text(s)} with your game: {out.error}.")
    elif out.value in now:
        passed += 1
        rep.good(f"In {ttt_text(s)} minimax now wins at once (cell {out.value}).")
    else:
        rep.bad(f"In {ttt_text(s)}, X can win at once at {or_list(now)}, but minimax with your utility plays {out.value}.")
    printed_note(rep, printed)
    return checker_feedback("check_fast_wins", rep, passed, 4)
