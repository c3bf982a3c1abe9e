"""Checks of a learner's scoring formulas: :func:`check_evaluation` (tic-tac-toe open lines) and
:func:`check_ucb`.

May import: :mod:`gametrees.rules`, :mod:`gametrees.games`, :mod:`gametrees.exercises.feedback`, and
the harness, diagnosis and values modules of
:mod:`gametrees.exercises.code_checks`.
"""

from __future__ import annotations

import inspect
import math

from ...games import MAX, MIN, TicTacToe
from ...games.tictactoe import LINE_MASKS
from ...rules import ucb1
from ..feedback import Feedback, Report, close, fmt, tagged
from .diagnosis import checker_feedback, printed_note
from .harness import Printed, check_callable, error_hint, run_learner
from .values import ttt_text

__all__ = ["check_evaluation", "check_ucb", "open_lines"]

# ============================================================================
# check_evaluation: the tic-tac-toe open-lines evaluation
# ============================================================================

_EVAL_POSITIONS = (
    ".../.../...", ".../.X./...", "X../.../...", ".X./.../...", "X../.O./...", "XO./.../...",
    ".../.X./..O", "XX./O../...", "XO./.X./...", "XXX/OO./...", "OOO/XX./X..", "XOX/XOO/OXX",
)


def open_lines(state):
    """``(lines open for X, lines open for O)``: lines the other side has no mark in."""
    x, o = state
    return (sum(1 for m in LINE_MASKS if not o & m), sum(1 for m in LINE_MASKS if not x & m))


def _positions(positions):
    if positions is None:
        positions = _EVAL_POSITIONS
    if isinstance(positions, (str, bytes)) or not hasattr(positions, "__iter__"):
        raise TypeError("positions must be a list of tic-tac-toe positions such as 'X../.O./...', got "
                        f"{positions!r}")
    out = []
    for p in positions:
        if isinstance(p, str):
            out.append(TicTacToe.from_string(p))
        elif isinstance(p, tuple):
            out.append(TicTacToe.check_state(p))
        else:
            raise TypeError("a position must be a str such as 'X../.O./...' or a state (x_bits, o_bits), "
                            f"got {p!r}")
    if not out:
        raise ValueError("positions is empty: give at least one position")
    return out


def check_evaluation(fn, positions=None):
    """Check a learner's tic-tac-toe evaluation: lines open for X minus lines open for O.

    A line (row, column, diagonal) is open for X when O has no mark in it.
    ``fn(state)`` (or ``fn(game, state)``) returns the estimate from X's
    (MAX's) point of view, e.g. 8 - 8 = 0 on the empty board. Any positive
    scale is accepted (``gt.tictactoe_open_lines`` divides by 10), as long
    as it is the same everywhere and won positions score beyond every
    estimate (more than 8 open lines' worth: e.g. ``math.inf``, 100, or 1
    with the scale 1/10). A full board without a line scores 0.

    A function that returns 0 (the template), None or raises NotImplementedError
    on every position is not answered yet, and the feedback says only that.
    The feedback flags the evaluation from the wrong viewpoint: signs flipped
    everywhere, or flipped when O is to move (the player-to-move view), and
    counting only lines a side has already started.

    No lesson or assignment calls it today; it is kept as a public checker (``gt.exercises``, the checkers row
    of INSTRUCTORS.md, "check_minimax, check_alphabeta, check_expectimax, ...") for an instructor's own
    notebooks, and the misconception catalogue names it as where ``wrong-viewpoint`` (and ``scale-mismatch``)
    is found.

    Parameters
    ----------
    fn : callable
        ``fn(state) -> number`` with ``state`` a :class:`~gametrees.TicTacToe`
        state.
    positions : list of str or states, optional
        Positions to check (default: a dozen, from the empty board to wins
        and a draw), e.g. ``["X../.O./...", "XX./O../..."]``.

    Returns
    -------
    Feedback

    Examples
    --------
    >>> import math
    >>> def open_lines(state):
    ...     board = gt.TicTacToe.to_string(state).replace("/", "")
    ...     lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
    ...     if any(all(board[i] == "X" for i in line) for line in lines):
    ...         return math.inf
    ...     if any(all(board[i] == "O" for i in line) for line in lines):
    ...         return -math.inf
    ...     x_open = sum(all(board[i] != "O" for i in line) for line in lines)
    ...     o_open = sum(all(board[i] != "X" for i in line) for line in lines)
    ...     return x_open - o_open
    >>> import gametrees as gt
    >>> fb = check_evaluation(open_lines, positions=[".../.../...", "X../.O./...", "XXX/OO./..."])
    >>> fb
    ✓ check_evaluation: all 3 positions right.
    ✓ '.../.../...' (X to move): 8 - 8 = 0.
    ✓ 'X../.O./...' (X to move): 4 - 5 = -1.
    ✓ 'XXX/OO./...': X has won, and you score it +∞, beyond every estimate.
    """
    two = _arity(fn)
    if isinstance(two, Feedback):
        return two
    printed = Printed()
    game = TicTacToe()
    rows = _evaluate(fn, two, _positions(positions), printed)
    # The untouched template (return 0), or a function that returns None or raises NotImplementedError
    # everywhere, is not an answer yet: say so, and give away no position's value.
    if all(isinstance(o.exc, NotImplementedError) or (not o.error and o.value is None)
           or (not o.problem() and float(o.value) == 0) for _, o, _, _, _ in rows) \
            and any((xo != oo) if w is None else w != 0 for _, _, xo, oo, w in rows):
        return Feedback("check_evaluation: not answered yet.", [(
            "bad", "Your function returns 0 (or nothing) on every position, like the template: replace the "
                   "template's line with your evaluation.", None)], status="unanswered")
    k = _scale(rows)
    rep = Report()
    if k != 1:
        rep.note(f"Your estimates are the open-line difference times {fmt(k)}: any positive scale works, as "
                 "long as wins score beyond every estimate.")
    for row in rows:
        _judge_position(rep, game, row, k)
    right = sum(kind == "good" for kind, _, _ in rep.items)
    _viewpoint_slips(rep, game, rows, k)
    printed_note(rep, printed)
    returned = [float(o.value) for _, o, _, _, _ in rows if not o.problem()]
    if len(returned) == len(rows) and len(set(returned)) == 1:
        rep.tags = []  # one number everywhere shows no viewpoint and no scale: only that the work is not done
    return checker_feedback("check_evaluation", rep, right, len(rows), "positions right")


def _arity(fn):
    """Whether ``fn`` takes ``(game, state)`` (True) or ``(state)`` (False); the feedback when it takes
    neither; a TypeError when it is not a function."""
    try:
        sig = inspect.signature(fn) if callable(fn) else None
    except (TypeError, ValueError):
        sig = None
    if not callable(fn):
        raise TypeError(f"check_evaluation expects your function fn(state) -> number, got {fn!r}")
    if sig is None:
        return False
    try:
        sig.bind(0)
        return False
    except TypeError:
        pass
    try:
        sig.bind(0, 0)
        return True
    except TypeError:
        return Feedback("check_evaluation: your function could not be called.", [(
            "bad", f"check_evaluation calls your function as fn(state) (or fn(game, state)), but "
                   f"{getattr(fn, '__name__', 'it')}{sig} cannot take that.", None)])


def _evaluate(fn, two, states, printed):
    """The learner's estimate of each state, with the truth: rows ``(state, outcome, lines open for X, for
    O, the winner's utility or None)``."""
    game = TicTacToe()
    rows = []
    for s in states:
        args = (TicTacToe(), s) if two else (s,)
        out = run_learner(fn, args, printed)
        x_open, o_open = open_lines(s)
        winner = game.utility(s) if game.is_terminal(s) else None
        rows.append((s, out, x_open, o_open, winner))
    return rows


def _scale(rows):
    """The learner's scale: value / (x_open - o_open), the same on every open position (else 1)."""
    ratios = [float(o.value) / (xo - oo) for s, o, xo, oo, w in rows
              if w is None and xo != oo and not o.problem() and not math.isinf(float(o.value))]
    return ratios[0] if ratios and ratios[0] > 0 and all(close(r, ratios[0], 1e-9) for r in ratios) else 1.0


def _judge_position(rep, game, row, k):
    """One position: the estimate (times the scale ``k``), a draw's 0, or a win beyond every estimate."""
    s, out, xo, oo, w = row
    pos = ttt_text(s)
    mover = "X" if game.to_move(s) == MAX else "O"
    problem = out.problem()
    if problem:
        rep.bad(f"{pos}: your function {problem}.", error_hint(problem))
        return
    v = float(out.value)
    if w is None:
        want = k * (xo - oo)
        scaled = f" (you return {fmt(v)})" if k != 1 else ""
        if close(v, want, 1e-9):
            rep.good(f"{pos} ({mover} to move): {xo} - {oo} = {xo - oo}{scaled}.")
        else:
            rep.bad(f"{pos} ({mover} to move): you returned {fmt(v)}, but {xo} lines are open for X and "
                    f"{oo} for O, so the estimate is {xo} - {oo} = {xo - oo}"
                    + (f" (times your scale {fmt(k)}: {fmt(want)})." if k != 1 else "."))
    elif w == 0:
        if close(v, 0, 1e-9):
            rep.good(f"{pos}: a full board without a line is a draw, and you score it 0.")
        else:
            rep.bad(f"{pos}: a full board without a line is a draw, worth 0; you returned {fmt(v)}.")
    else:
        side, sign = ("X", 1) if w > 0 else ("O", -1)
        if sign * v > 8 * k:
            rep.good(f"{pos}: {side} has won, and you score it {fmt(v)}, beyond every estimate.")
            return
        hint = ("From X's point of view a win for O is the worst outcome: it must score below "
                "every estimate."
                if sign < 0 else
                "A win is the best outcome of all: it must score above every estimate.")
        hint = tagged(hint, "scale-mismatch")
        if sign * v < 0:
            hint = tagged(
                "The sign is wrong: the evaluation is from X's (MAX's) point of view. " + hint,
                "wrong-viewpoint",
            )
        rep.bad(f"{pos}: {side} has three in a row, so it must score "
                f"{'above' if sign > 0 else 'below'} every estimate "
                f"({'more' if sign > 0 else 'less'} than {fmt(sign * 8 * k)}, e.g. "
                f"{'math.inf' if sign > 0 else '-math.inf'}); you returned {fmt(v)}.", hint)


def _viewpoint_slips(rep, game, rows, k):
    """Patterns across positions (misconception 16: the wrong viewpoint): every sign flipped, signs flipped
    where O is to move, or only X's open lines counted."""
    open_rows = [(s, float(o.value), xo - oo) for s, o, xo, oo, w in rows
                 if w is None and xo != oo and not o.problem() and math.isfinite(float(o.value))]
    if not open_rows or all(close(v, k * e, 1e-9) for _, v, e in open_rows):
        return
    r = [v / e for _, v, e in open_rows]
    movers = [game.to_move(s) for s, _, _ in open_rows]
    # A sign diagnosis needs estimates that have a sign: an evaluation returning 0 gets neither.
    if all(close(x, r[0], 1e-9) for x in r) and r[0] < 0:
        rep.bad("Every one of your estimates has the opposite sign.",
                tagged("The evaluation is from X's (MAX's) point of view, like the utility: positive is "
                       "good for X, whoever moves next.", "wrong-viewpoint"))
    elif (any(m == MIN for m in movers) and any(m == MAX for m in movers) and not close(r[0], 0, 1e-9)
          and all(close(x * (1 if m == MAX else -1), abs(r[0]), 1e-9) for x, m in zip(r, movers))):
        rep.bad("Where O is to move your estimates have the opposite sign: you score from the point of "
                "view of the player to move.",
                tagged("The evaluation is always from X's (MAX's) point of view, whoever moves next; the "
                       "search decides who maximises. (Negamax flips signs itself: do not flip them in "
                       "the evaluation too.)", "wrong-viewpoint"))
    elif all(close(v, k * open_lines(s)[0], 1e-9) for s, v, _ in open_rows):
        rep.bad("Your estimates are the lines open for X only.", "Subtract the lines open for O.")


# ============================================================================
# check_ucb: the UCB1 formula of Monte Carlo tree search
# ============================================================================

_UCB_POINTS = ((3, 5, 20, 1.4), (7, 10, 100, math.sqrt(2)), (-2, 4, 9, 2.0), (10, 10, 10, 0.0),
               (2.5, 3, 50, 0.5), (0, 1, 1, 1.0), (6, 8, 30, 1.0), (0, 0, 10, 1.4), (4, 0, 7, math.sqrt(2)))


def _ucb_reference(w, n, N, c):
    """UCB1 (:func:`gametrees.rules.ucb1`) of a child with reward sum ``w`` over ``n`` visits: the mean
    reward plus c·√(ln N / n); +∞ for an unvisited child."""
    return ucb1(w / n if n else 0.0, n, N, c)


# The usual slips, each UCB1 (the rule) given a wrong input where it can be: the formula is written once.
_UCB_SLIPS = (
    ("the log of the child's visits n instead of the parent's N",
     lambda w, n, N, c: ucb1(w / n, n, n, c),
     "The exploration term is c·√(ln N / n): N, the parent's visits, inside the log; n, the child's, below."),
    ("no square root", lambda w, n, N, c: w / n + c * math.log(N) / n,
     "The exploration term is c·√(ln N / n): take the square root."),
    ("the total reward instead of the mean", lambda w, n, N, c: ucb1(w, n, N, c),
     "Exploitation is the mean reward, w / n, not the total w."),
    ("log base 10", lambda w, n, N, c: w / n + c * math.sqrt(math.log10(N) / n),
     "Use the natural logarithm, math.log(N)."),
    ("log base 2", lambda w, n, N, c: w / n + c * math.sqrt(math.log2(N) / n),
     "Use the natural logarithm, math.log(N)."),
    ("an extra factor √2 (c·√(2 ln N / n))", lambda w, n, N, c: ucb1(w / n, n, N, c * math.sqrt(2)),
     "With c given, the term is c·√(ln N / n); c = √2 already stands for the 2 of √(2 ln N / n)."),
    ("c inside the square root", lambda w, n, N, c: ucb1(w / n, n, N, math.sqrt(c)),
     "c multiplies the square root: c·√(ln N / n)."),
    ("N below the root instead of n", lambda w, n, N, c: ucb1(w / n, N, N, c),
     "Divide by the child's visits n inside the root: c·√(ln N / n)."),
    ("no exploration term", lambda w, n, N, c: w / n,
     "Add the exploration bonus c·√(ln N / n): without it a move that was unlucky once is never tried "
     "again."),
)


def check_ucb(fn):
    """Check a learner's UCB1 ``fn(child_value_sum, child_visits, parent_visits, c) -> score``.

    The score is the child's mean reward plus ``c * sqrt(ln(parent_visits) /
    child_visits)``, and ``+inf`` for a child never visited (so every child
    is tried once before any is tried twice). The feedback checks each point
    and names the usual slips: the log of the child's count instead of the
    parent's, a missing square root, the total instead of the mean, the
    wrong logarithm, and unvisited children not scoring +∞. The reference is
    :func:`gametrees.rules.ucb1`.

    No lesson or assignment calls it today; it is kept as a public checker (``gt.exercises``, the checkers row
    of INSTRUCTORS.md, "check_minimax, check_alphabeta, check_expectimax, ...") for an instructor's own
    notebooks, and the misconception catalogue names it as where ``ucb-child-log`` is found.

    Examples
    --------
    >>> import math
    >>> def ucb(w, n, N, c):
    ...     return w / n + c * math.sqrt(math.log(n) / n)   # two slips
    >>> fb = check_ucb(ucb)
    >>> print("\\n".join(fb.lines[-3:]))
    ✗ An unvisited child (n = 0): your function raised ZeroDivisionError: division by zero (in ucb, line 2).
    ✗ An unvisited child (n = 0): your function raised ZeroDivisionError: division by zero (in ucb, line 2).
    ✗ Your scores match UCB1 with the log of the child's visits n instead of the parent's N.
    """
    problem = check_callable(fn, "check_ucb", "fn(child_value_sum, child_visits, parent_visits, c)", 4)
    if problem:
        return Feedback("check_ucb: your function could not be called.", [("bad", problem, None)])
    rep, printed = Report(), Printed()
    got = {}
    for w, n, N, c in _UCB_POINTS:
        out = run_learner(fn, (w, n, N, c), printed)
        want = _ucb_reference(w, n, N, c)
        problem = out.problem()
        got[(w, n, N, c)] = None if problem else float(out.value)
        if n == 0:
            if problem:
                rep.bad(f"An unvisited child (n = 0): your function {problem}.",
                        "An unvisited child must score +∞ (math.inf), so that every child is tried once "
                        "first; test n == 0 before dividing.")
            elif math.isinf(float(out.value)) and out.value > 0:
                rep.good(f"An unvisited child (w = {fmt(w)}, n = 0, N = {N}): +∞.")
            else:
                rep.bad(f"An unvisited child (n = 0): you returned {fmt(float(out.value))}, but it must "
                        "score +∞.",
                        tagged("Giving unvisited children a finite score (or a phantom visit) lets a lucky "
                               "sibling be repeated before every child has been tried once.",
                               "ucb-child-log"))
            continue
        formula = f"{fmt(w)}/{n} + {fmt(c)}·√(ln {N} / {n}) = {fmt(want)}"
        if problem:
            rep.bad(f"ucb(w={fmt(w)}, n={n}, N={N}, c={fmt(c)}): your function {problem}; it should be "
                    f"{formula}.")
        elif close(float(out.value), want, 1e-9):
            rep.good(f"ucb(w={fmt(w)}, n={n}, N={N}, c={fmt(c)}) = {formula}.")
        else:
            rep.bad(f"ucb(w={fmt(w)}, n={n}, N={N}, c={fmt(c)}): you returned {fmt(float(out.value))}, but "
                    f"{formula}.")
    right = sum(kind == "good" for kind, _, _ in rep.items)
    visited = [(p, v) for p, v in got.items() if p[1] > 0]
    wrong = [(p, v) for p, v in visited if v is None or not close(v, _ucb_reference(*p), 1e-9)]
    if wrong and all(v is not None for _, v in visited):
        for what, slip, hint in _UCB_SLIPS:
            try:
                if all(close(v, slip(*p), 1e-9) for p, v in visited):
                    rep.bad(f"Your scores match UCB1 with {what}.", tagged(hint, "ucb-child-log"))
                    break
            except (ValueError, ZeroDivisionError):
                continue
    printed_note(rep, printed)
    if all(v is not None for v in got.values()) and len(set(got.values())) == 1:
        rep.tags = []  # one number everywhere names no formula slip
    return checker_feedback("check_ucb", rep, right, len(_UCB_POINTS), "points right")
