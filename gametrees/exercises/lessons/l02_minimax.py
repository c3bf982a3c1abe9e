"""Lesson 02 (minimax): a position's value and best move by the rules, and preferring a fast win.

The checks lesson 02 calls. A check on an unanswered exercise says only that it is
unanswered; a wrong answer is told what is wrong and which rule to re-apply, never the
right value or move; from the second wrong check on, the same reasoning is worked through
on another position (:func:`gametrees.exercises.attempts.escalate`). The worked answer is
printed by ``solution_position``, ``solution_fast_wins`` and ``solution_minimax_claims``, only after an
attempt (:func:`gametrees.exercises.attempts.worked_answer`); a check after it says so and does not count as
solved.
"""

from __future__ import annotations

import numbers

from ...games import MAX, TicTacToe
from ...search import minimax
from ...trees import expand
from ..attempts import escalate, worked_answer
from ..code_checks.diagnosis import checker_feedback, printed_note
from ..code_checks.harness import Printed, error_hint, run_learner
from ..code_checks.values import ttt_text
from ..feedback import Report, fmt, or_list
from .reading import dict_answer, is_blank, unanswered

__all__ = ["MINIMAX_CLAIMS", "MINIMAX_REASONS", "check_fast_wins", "check_minimax_claims", "check_position",
           "solution_fast_wins", "solution_minimax_claims", "solution_position"]

_FILES = "abc"


def _cell_name(cell):
    return f"{_FILES[cell % 3]}{cell // 3 + 1}"


def _read_cell(x):
    """A cell 0-8 from 5, "5" or "c2"; None if it cannot be read."""
    if isinstance(x, numbers.Integral) and not isinstance(x, bool) and 0 <= x < 9:
        return int(x)
    if isinstance(x, str):
        t = x.strip().lower()
        if t.isdigit() and 0 <= int(t) < 9:
            return int(t)
        if len(t) == 2 and t[0] in _FILES and t[1] in "123":
            return _FILES.index(t[0]) + 3 * (int(t[1]) - 1)
    return None


def _wins_now(game, state):
    me = game.to_move(state)
    target = 1 if me == MAX else -1
    return [m for m, c in game.successors(state) if game.is_terminal(c) and game.utility(c) == target]


# Positions for the twin: X to move, O threatens one line, X has a tempting move elsewhere.
_TWINS = ("X../.XO/..O", "XO./.O./..X", ".X./O.X/O..", ".X./.X./OO.", "X.O/..O/.X.", "X../.OX/.O.")


def _worked_position(game, text):
    """The rules worked through on the position ``text`` (X to move), in words."""
    s = game.from_string(text)
    values = {m: minimax(game, c, trace=False).value for m, c in game.successors(s)}
    best = max(values.values())
    move = next(m for m in values if values[m] == best)
    safe = [m for m in game.actions(s) if not _wins_now(game, game.result(s, m))]
    parts = [f"'{text}', X to move: X has no win now"]
    if len(safe) == 1:
        parts.append(f"O threatens to win at {_cell_name(safe[0])}, so after any other move O wins at once: "
                     f"X must play {_cell_name(safe[0])}, even where another move would make two threats")
    elif list(values.values()).count(best) == 1:
        parts.append(f"X's best move is {_cell_name(move)}")
    else:
        parts.append(f"a best move of X's is {_cell_name(move)}")
    child = game.result(s, move)
    reply = minimax(game, child, trace=False).move
    replies = {m: minimax(game, c, trace=False).value for m, c in game.successors(child)}
    word = {1: "won by X", 0: "a draw", -1: "won by O"}[best]
    if len(set(replies.values())) == 1:   # every reply is worth the same: none is better than another
        said = (f"after X {_cell_name(move)}, a best reply of O's is {_cell_name(reply)} "
                f"({_every_reply(best)})")
    elif list(replies.values()).count(min(replies.values())) == 1:
        said = f"O's best reply is {_cell_name(reply)}"
    else:
        said = f"a best reply of O's is {_cell_name(reply)}"
    parts.append(f"{said}, and with best play on both sides the game is {word}: value "
                 f"{'+1' if best == 1 else best}")
    return "; ".join(parts) + "."


def _every_reply(value):
    """What every reply of O's does when all are worth ``value`` (X's point of view): "every reply loses"."""
    return "every reply " + {1: "loses", 0: "draws", -1: "wins"}[value]


def check_position(position, answer):
    """Check the minimax value and a best move of a tic-tac-toe position, worked out by the rules (lesson 02).

    ``position`` is the board as rows, e.g. ``"X.O/.X./..O"`` (X to move);
    ``answer`` is ``{"value": v, "move": m}`` with ``v`` in -1, 0, +1 and
    ``m`` a cell 0-8 or its name a1-c3 (column a-c, row 1-3 from the top).
    ``"reply"`` is O's best reply to X's move (a cell), judged after the
    learner's own move: the part minimax's printed value and move do not show.
    It is asked whenever X's move leaves the game going on (a missing reply is
    "not answered yet", so two parts are not the exercise solved). A wrong part is told
    which rule to re-apply; a move after which O wins at once, or a reply after
    which X wins at once, is named ``opponent-reply-ignored``.

    Examples
    --------
    >>> check_position("XX./OO./...", {"value": 1, "move": "c1"})
    ✓ Value and best move of 'XX./OO./...': all 2 right.
    ✓ The value: +1, X wins with best play.
    ✓ X c1 (cell 2) is a best move.
    >>> check_position("XX./OO./...", {"value": None, "move": None}).status
    'unanswered'
    >>> check_position("X.O/.X./..O", {"value": 0, "move": "c2", "reply": "a2"}).title
    "Value and best move of 'X.O/.X./..O': all 3 right."
    """
    game = TicTacToe()
    state = game.from_string(position)
    if game.is_terminal(state) or game.to_move(state) != MAX:
        raise ValueError("check_position needs a position with X to move and the game not over, got "
                         f"{position!r}")
    what = f"Value and best move of '{position}'"
    form = ("give a dict {'value': ..., 'move': ..., 'reply': ...}: the value -1, 0 or +1, X's move and O's "
            "reply each a cell 0-8 or its name a1-c3")
    answer, unread = dict_answer(answer, what, form)
    if unread is not None:
        return unread
    value, move = answer.get("value"), answer.get("move")
    if is_blank(value) and is_blank(move) and is_blank(answer.get("reply")):
        return unanswered(what, f"Replace each None: {form}.")
    values = {m: minimax(game, c, trace=False).value for m, c in game.successors(state)}
    right = max(values.values())
    rep = Report()
    if is_blank(value):
        rep.bad("The value: not answered yet.")
    elif isinstance(value, bool) or not isinstance(value, numbers.Real) or value not in (-1, 0, 1):
        rep.bad(f"The value: could not read {value!r}: give -1 (O wins), 0 (a draw) or +1 (X wins).")
    elif value == right:
        rep.good(f"The value: {fmt(right) if right <= 0 else '+1'}, "
                 f"{ {1: 'X wins', 0: 'a draw', -1: 'O wins'}[right]} with best play.")
    else:
        rep.bad(f"The value: you wrote {'+1' if value == 1 else fmt(value)}. Apply the rules in order, for "
                "both sides: can X win now? If not, can O win at once after X's move, so that X must block? "
                "Then, after X's best move, does O have a reply to every threat X makes, or can O even win? "
                "The value is what X gets when O always gives its best reply.")
    cell = _judge_cell(game, state, move, values, right, rep, {
        "label": "The move",
        "taken": "The move: {at} is taken; X can play only on an empty cell.",
        "best": "X {at} is a best move.",
        "loses": "The move: after X {at}, O wins at once. Before X makes its own threats, look at O's: which "
                 "of O's lines needs only one more O?",
        "other": "The move: after X {at}, what is O's best reply, and what does X get after it? Compare that "
                 "with what X's other moves get against O's best replies."})
    _check_reply(game, state, values, right, cell, answer.get("reply"), rep)

    def twin(_fb):
        mine = game.canonical(state)
        text = next((t for t in _TWINS if game.canonical(game.from_string(t)) != mine
                     and minimax(game, game.from_string(t), trace=False).value != right), None)
        if text is None:
            return None
        return _worked_position(game, text)

    return escalate(f"lesson02.position.{position}", rep.feedback(what), twin=twin, on="another position")


def _check_reply(game, state, values, right, cell, reply, rep):
    """O's best reply, judged after the learner's own move (a legal one; without one it cannot be judged)."""
    if cell is None or cell not in values:
        if not is_blank(reply):
            rep.bad("O's reply: it is judged as the reply to your move; give a legal move for X first.")
        else:
            rep.bad("O's reply: not answered yet.")
        return
    x_move = cell
    after = game.result(state, x_move)
    if game.is_terminal(after):
        if not is_blank(reply):
            rep.bad(f"O's reply: after X {_cell_name(x_move)} the game is over; O has no reply to give.")
        return
    replies = {m: minimax(game, c, trace=False).value for m, c in game.successors(after)}
    x = _cell_name(x_move)
    alike = f" ({_every_reply(min(replies.values()))})" if len(set(replies.values())) == 1 else ""
    _judge_cell(game, after, reply, replies, min(replies.values()), rep, {
        "label": "O's reply",
        "taken": "O's reply: {at} is taken after X " + x + "; O can play only on an empty cell.",
        "best": "O's reply {at} is a best reply to X " + x + alike + ".",
        "loses": "O's reply: after O {at}, X wins at once. What does X's move threaten? Which of X's lines "
                 "needs only one more X?",
        "other": "O's reply: after O {at}, what is X's best answer, and what does O get then? Compare O's "
                 "other replies the same way."})


def _judge_cell(game, state, given, values, best, rep, words):
    """One cell a learner gives at ``state`` (X's move, or O's reply), judged against ``values`` ({cell:
    minimax value}) and the ``best`` of them: a line in ``rep`` in this part's ``words`` (``label``, and
    the sentences ``taken``, ``best``, ``loses`` and ``other``, ``{at}`` standing for the cell). A move
    after which the other side wins at once is ``opponent-reply-ignored``. Returns the cell read, or None.
    """
    cell = None if is_blank(given) else _read_cell(given)
    at = None if cell is None else f"{_cell_name(cell)} (cell {cell})"
    if is_blank(given):
        rep.bad(f"{words['label']}: not answered yet.")
    elif cell is None:
        rep.bad(f"{words['label']}: could not read {given!r}: give a cell 0-8 or its name a1-c3.")
    elif cell not in values:
        rep.bad(words["taken"].format(at=at))
    elif values[cell] == best:
        rep.good(words["best"].format(at=at))
    elif _wins_now(game, game.result(state, cell)):
        rep.bad(words["loses"].format(at=at), tag="opponent-reply-ignored")
    else:
        rep.bad(words["other"].format(at=at))
    return cell


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


#: The title of :func:`check_fast_wins`'s feedback, as the other checks name their exercise.
_FAST_WINS = "Win faster"


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
            return checker_feedback(_FAST_WINS, rep, 0, 4, key="lesson02.fast_wins")
        got[s] = float(out.value)
    if all(got[s] == base.utility(s) for s in finals):
        return unanswered(_FAST_WINS, "Your utility still scores every finished game as the plain one does "
                                      "(+1, 0, -1): change it, then run the check again.")
    passed = 0
    signs = [s for s in finals if (got[s] > 0) - (got[s] < 0) != base.utility(s)]
    if signs:
        s = signs[0]
        rep.bad(f"{ttt_text(s)} scores {fmt(got[s])}, but its plain utility is {base.utility(s)}: keep a "
                "draw at 0, a win for X positive and a win for O negative.", tag="terminal-misscored")
    else:
        passed += 1
        rep.good("Draws score 0, X's wins are positive and O's wins negative.")

    def empty(s):
        return 9 - bin(s[0] | s[1]).count("1")

    wins = sorted((s for s in finals if base.utility(s) == 1), key=empty)
    slow = [(a, b) for a, b in zip(wins, wins[1:]) if empty(b) > empty(a) and not got[b] > got[a]]
    if slow:
        a, b = slow[0]
        rep.bad(f"A win with {empty(b)} empty cells ({ttt_text(b)}) scores {fmt(got[b])}, no more than one "
                f"with {empty(a)} ({ttt_text(a)}, {fmt(got[a])}): quicker wins should score more.",
                "Let the score of a win grow with the number of cells still empty when it ends.")
    else:
        passed += 1
        rep.good("Quicker wins score more.")
    losses = sorted((s for s in finals if base.utility(s) == -1), key=empty)
    if any(empty(b) > empty(a) and not got[b] < got[a] for a, b in zip(losses, losses[1:])):
        rep.bad("A quicker loss should score lower (more negative) than a slow one, so that MAX delays "
                "losing.")
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
        rep.bad(f"In {ttt_text(s)}, X can win at once at {or_list(now)}, but minimax with your utility plays "
                f"{out.value}.")
    printed_note(rep, printed)

    def twin(_fb):
        return ("the tree [1, [[1, 0], [1, -1]]] read as a game: MAX can win at once (B, a leaf after 1 ply) "
                "or later (under C, after 3 plies). With every win worth +1, B and C are both worth +1 and "
                "minimax keeps the first it finds; put C first and it plays the slow win. Score a win by how "
                "early it ends, e.g. +3 after 1 ply and +1 after 3 plies, and B (+3) beats C (+1) in any "
                "order; score a loss the other way round (an early loss lowest), so that a losing MAX still "
                "plays on.")

    # one attempt record, the one the worked answer opens under (solution_fast_wins)
    return checker_feedback(_FAST_WINS, rep, passed, 4, key="lesson02.fast_wins", twin=twin)


# Claims about what minimax promises (lesson 02, exercise 4): key -> (claim, true?, question to re-apply).
MINIMAX_CLAIMS = {
    "a": ("MinimaxAgent drew some of its games against the random player above, so it has a bug.", False,
          "What does the value of the empty board promise the minimax player: a win, or at least a draw?"),
    "b": ("Against an opponent who plays badly, the minimax player can only end at the minimax value or "
          "better.",
          True,
          "The minimax value assumes the opponent's best reply everywhere: what can a worse reply do to it?"),
    "c": (("In a position where every move loses against best play, bare minimax (gt.minimax) may choose a "
           "move that lets the opponent win at once, though another move would lose only later."), True,
          ("If every move is worth -1, which one does minimax choose, and does the value tell fast losses "
           "from slow ones?")),
    "d": ("The minimax player wins only the games in which its opponent plays its best.", False,
          "Against best play on both sides, how does tic-tac-toe end, and what is then left to win?"),
}

# The reasons a learner chooses from (one decides each claim; the others are what a wrong verdict leans on).
MINIMAX_REASONS = {
    1: "Minimax assumes the opponent plays its best, so against a bad player its promise no longer holds.",
    2: "A value is what a player can force whatever the other side replies.",
    3: "Tic-tac-toe is a draw when both sides play their best.",
    4: "Minimax always prefers the move that delays a loss the longest.",
    5: "A value says who wins with best play, not how soon: moves that all lose are worth the same.",
    6: "The value of the empty board is +1: the player who moves first can force a win.",
    7: "A random opponent cannot reach a draw against a correct player.",
    8: "A correct player wins every game it can win, so it must beat a random opponent.",
}
#: claim -> the reason that decides it (one reason may decide two claims; reason 6 is a false premise).
CLAIM_REASON = {"a": 3, "b": 2, "c": 5, "d": 3}


def check_minimax_claims(answer):
    """Check verdicts on claims about what minimax promises, each with the reason that decides it (lesson 02).

    ``answer`` maps a claim's key (see :data:`MINIMAX_CLAIMS`) to a pair
    ``(verdict, reason)``: ``True`` or ``False``, and the number of the reason
    in :data:`MINIMAX_REASONS` that decides the claim. A claim is right when
    both are; a wrong one says which part is wrong (the verdict, the reason
    or both), never the right one, with the question to ask again;
    calling a correct agent's draw a bug is ``correct-read-as-bug``.

    Examples
    --------
    >>> check_minimax_claims({"a": (False, 3), "b": (True, 2), "c": (True, 5), "d": (False, 3)}).ok
    True
    >>> check_minimax_claims({"a": None, "b": None, "c": None, "d": None}).status
    'unanswered'
    """
    what = "Claims about minimax"
    form = ("give a dict {'a': (verdict, reason), ...}: True or False for each claim, with the number of the "
            "reason that decides it")
    answer, unread = dict_answer(answer, what, form)
    if unread is not None:
        return unread
    if all(
        v is None or (isinstance(v, (tuple, list)) and all(x is None for x in v)) for v in answer.values()
    ):
        return unanswered(what, f"Replace each None: {form}.")
    rep = Report()
    wrong = []   # the claims answered wrong, for the twin
    for key, given in answer.items():
        claim = MINIMAX_CLAIMS.get(str(key).strip().lower())
        if claim is None:
            rep.note(f"{key!r}: no such claim (the claims are {', '.join(MINIMAX_CLAIMS)}).")
            continue
        _, truth, question = claim
        if given is None or (isinstance(given, (tuple, list)) and all(x is None for x in given)):
            rep.bad(f"{key}: not answered yet.")
            continue
        if isinstance(given, bool):
            rep.bad(
                f"{key}: a verdict alone: give (True or False, the number of the reason that decides it)."
            )
            continue
        pair = tuple(given) if isinstance(given, (tuple, list)) else None
        if (pair is None or len(pair) != 2 or not isinstance(pair[0], bool) or isinstance(pair[1], bool)
                or pair[1] not in MINIMAX_REASONS):
            rep.bad(f"{key}: could not read {given!r}: give (True or False, a reason number "
                    f"{min(MINIMAX_REASONS)}-{max(MINIMAX_REASONS)}).")
            continue
        verdict, reason = pair
        if not (verdict == truth and reason == CLAIM_REASON[key]):
            wrong.append(key)
        if verdict == truth and reason == CLAIM_REASON[key]:
            rep.good(f"{key}: {'true' if truth else 'false'}, because: {MINIMAX_REASONS[reason]}")
        else:
            part = ("the verdict is right, the reason is not" if verdict == truth
                    else "the verdict is not right, the reason is" if reason == CLAIM_REASON[key]
                    else "neither the verdict nor the reason is right")
            if key == "a" and verdict != truth:
                rep.bad(f"{key}: {part}. {question} Compare what happened in those games with that promise.",
                        tag="correct-read-as-bug")
            else:
                rep.bad(f"{key}: {part}. {question} Which reason decides it?")

    def twin(_fb):
        return _CLAIM_TWINS[wrong[0]] if wrong else None

    return escalate("lesson02.minimax_claims", rep.feedback(what), twin=twin, on="another claim")


# Nim here: take 1, 2 or 3 coins, whoever takes the last coin wins; a multiple of 4 left to the mover loses.
#: claim -> another claim decided by the same reasoning (the twin of a wrong answer on that claim).
_CLAIM_TWINS = {
    "a": ("'MAX playing minimax lost a game of Nim with 5 coins against a random player, so it has a bug'. "
          "Nim(5) is worth +1 to MAX (take 1 coin and leave 4, a multiple of 4: every reply leaves MAX a "
          "move back to a multiple of 4), so minimax promises MAX a win from the start whatever MIN does: a "
          "loss would be a bug, and that claim is true. Where the value promises only a draw, a draw is no "
          "bug."),
    "b": ("'In Nim with 4 coins (worth -1 to MAX, MAX to move) MAX can never win'. The -1 is what MIN can "
          "force with its best replies; after MAX takes 1 and leaves 3, MIN's best is to take all 3, but if "
          "MIN takes 1 instead, MAX takes the last 2 and wins. A worse reply can only leave MAX as much or "
          "more: that claim is false."),
    "c": ("'MAX has two moves, B, after which MIN wins at once, and C, after which MIN wins two moves later; "
          "minimax with +1/-1 utilities plays C'. Both are worth -1: the value says who wins with best play, "
          "not how soon, so they tie, and minimax keeps the first it finds, B when B comes first. That claim "
          "is false; only a utility that counts moves (exercise 3) tells them apart."),
    "d": ("'In Nim with 4 coins, MAX playing minimax loses exactly the games in which MIN plays its best'. "
          "With best play on both sides Nim(4) ends in MIN's win (value -1 for MAX), and one worse reply by "
          "MIN leaves MAX a position worth +1, which minimax then wins: that claim is true. Ask first how "
          "the game ends when both sides play their best."),
}


def solution_position(position):
    """The worked answer of :func:`check_position` on ``position``, only after an attempt.

    Before a check of ``position`` with an answer it gives the note that it opens after an attempt; after
    one it is the rules worked through on the position, and later checks of it do not count as solved.
    """
    game = TicTacToe()
    state = game.from_string(position)
    if game.is_terminal(state) or game.to_move(state) != MAX:
        raise ValueError("solution_position needs a position with X to move and the game not over, got "
                         f"{position!r}")
    return worked_answer(f"lesson02.position.{position}", f"solution_position({position!r})",
                         lambda: _worked_position(game, position))


#: A utility that rewards quick wins: what :func:`solution_fast_wins` shows (the tests check it passes).
FAST_WINS_ANSWER = "base * (1 + empty)"


def solution_fast_wins():
    """The worked answer of :func:`check_fast_wins`, only after an attempt (a check of a changed utility)."""
    return worked_answer("lesson02.fast_wins", "solution_fast_wins()", lambda: (
        f"One answer: `return {FAST_WINS_ANSWER}`. A draw stays 0, a win with more empty cells left (a "
        "quicker win) scores higher, and a quicker loss lower, so MAX also delays a loss it cannot avoid. "
        "Any factor that grows with `empty` and stays positive works, e.g. `base * 2 ** empty`; `base * "
        "empty` does not (a win on a full board would score 0, like a draw)."))


# Why each claim's verdict holds, in the worked answer.
_CLAIM_WHY = {
    "a": ("the empty board is worth 0, so minimax promises a draw or better, not a win; a correct agent may "
          "draw against any opponent. A loss would be a bug."),
    "b": ("the value assumes the opponent's best reply everywhere; a worse reply can only leave MAX as much "
          "or more."),
    "c": ("when every move is worth -1 they all tie, and bare minimax takes the first, however soon it loses "
          "(exercise 3's utility fixes that)."),
    "d": ("against best play tic-tac-toe is a draw, so every game the minimax player wins is one where its "
          "opponent did *not* play its best."),
}


def solution_minimax_claims():
    """The worked answer of :func:`check_minimax_claims`, only after an attempt."""
    def make():
        return "\n".join(
            f"{key}: {'True' if truth else 'False'}, reason {CLAIM_REASON[key]} "
            f"({MINIMAX_REASONS[CLAIM_REASON[key]]}): {_CLAIM_WHY[key]}"
            for key, (_, truth, _) in MINIMAX_CLAIMS.items())
    return worked_answer("lesson02.minimax_claims", "solution_minimax_claims()", make)
