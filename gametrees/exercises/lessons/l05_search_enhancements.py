"""Lesson 05 (search enhancements): positions after two moves, negamax, what a table entry answers, a table search.

The checks lesson 05 calls; each compares the learner's answer with what the engine or
the lesson's rule computes, and a check on an unanswered exercise says only that it is unanswered.
"""

from __future__ import annotations

import math

from ...games import MAX, MIN, TicTacToe
from ...search import minimax, negamax
from ...trees import expand
from ..answers import BadAnswer, parse_value
from ..code_checks.diagnosis import checker_feedback, printed_note
from ..code_checks.harness import Printed, check_callable, error_hint, run_learner
from ..code_checks.values import ttt_text
from ..feedback import Feedback, Report, fmt
from .reading import unanswered

__all__ = ["check_after_two_moves", "check_negamax", "check_table_answers", "check_table_search", "table_answer"]


def check_after_two_moves(after_two, classes):
    """Check the positions after two moves of tic-tac-toe, and their symmetry classes (lesson 05)."""
    game = TicTacToe()
    truth = {s2 for _, s1 in game.successors(game.initial) for _, s2 in game.successors(s1)}
    canon = {game.canonical(s) for s in truth}
    rep = Report()
    for name, got, right in (("positions after two moves", after_two, truth),
                             ("classes up to symmetry", classes, canon)):
        if got is None:
            rep.bad(f"{name}: not answered yet.")
            continue
        try:
            got = set(got)
        except TypeError:
            rep.bad(f"{name}: expected a set of states, got {type(got).__name__}.")
            continue
        if got == right:
            rep.good(f"{name}: {len(right)}.")
        elif name.startswith("classes") and got == truth:
            rep.bad(f"{name}: these are all {len(truth)} positions; map each through game.canonical and keep "
                    f"the distinct results ({len(right)}).")
        elif name.startswith("positions") and len(got) == 9 * 8 and got != right:
            rep.bad(f"{name}: 72 states, but not the right ones: use game.successors twice from game.initial.")
        else:
            rep.bad(f"{name}: you have {len(got)}, there are {len(right)}.")
    return rep.feedback("After two moves")


def check_negamax(fn):
    """Check a learner's negamax ``fn(game, state)``: the value for the player to move (lesson 05)."""
    problem = check_callable(fn, "check_negamax", "fn(game, state)", 2)
    if problem:
        return Feedback("check_negamax: your function could not be called.", [("bad", problem, None)])
    game = TicTacToe()
    rep, printed = Report(), Printed()
    positions = ["XOX/OXO/...", "XO./.X./..O", "XX./OO./...", "XX./OO./X..", "X.O/.O./X.X", "XOX/OOX/X.."]
    passed, wrong = 0, []
    for text in positions:
        s = game.from_string(text)
        sign = 1 if game.to_move(s) == MAX else -1
        right = sign * minimax(game, s, trace=False).value
        out = run_learner(fn, (game, s), printed)
        if not out.problem() and out.value == right:
            passed += 1
        else:
            wrong.append((text, s, right, out))
    if not wrong:
        rep.good(f"All {len(positions)} positions right, from the point of view of the player to move.")
    else:
        text, s, right, out = wrong[0]
        mover = "X" if game.to_move(s) == MAX else "O"
        got = out.problem() or f"returns {fmt(out.value)}"
        rep.bad(f"{text} ({mover} to move) is worth {right:+d} to {mover}; your function {got}.",
                error_hint(out.error))
        finals = [s for s in expand(game, merge=True) if game.is_terminal(s) and game.utility(s) != 0]
        s = next(s for s in finals if game.to_move(s) == MIN)
        out = run_learner(fn, (game, s), printed)
        if not out.problem() and out.value == game.utility(s):
            rep.bad(f"At a finished game where O is to move ({ttt_text(s)}), your function returns "
                    f"{fmt(out.value)}, the utility from MAX's point of view; negamax needs it from the point of "
                    f"view of the player to move: {-game.utility(s):+d}.",
                    "Multiply game.utility(state) by +1 when MAX is to move and -1 when MIN is.")
    printed_note(rep, printed)
    return checker_feedback("check_negamax", rep, passed, len(positions), unit="positions right")


_FLAGS = ("exact", "lower", "upper")


def _entry(entry):
    if not isinstance(entry, dict) or not {"value", "flag", "depth"} <= set(entry):
        raise ValueError(f"entry must be a dict with 'value', 'flag' and 'depth' (and 'move'), got {entry!r}")
    if entry["flag"] not in _FLAGS:
        raise ValueError(f"entry['flag'] must be one of {_FLAGS}, got {entry['flag']!r}")
    return entry


def table_answer(entry, alpha, beta, depth):
    """What a table entry answers for a search of ``state`` with window (alpha, beta) and ``depth`` plies left.

    The stored value if the entry settles the search (an exact value, a lower
    bound at or above beta, or an upper bound at or below alpha, from a
    search at least as deep), else ``None`` (search; the stored best move is
    still tried first).

    Examples
    --------
    >>> table_answer({"value": 3, "flag": "lower", "depth": 4}, 0, 2, 4)
    3
    >>> table_answer({"value": 3, "flag": "lower", "depth": 4}, 0, 5, 4) is None
    True
    """
    e = _entry(entry)
    if e["depth"] < depth:
        return None
    if e["flag"] == "exact" or (e["flag"] == "lower" and e["value"] >= beta) or (
            e["flag"] == "upper" and e["value"] <= alpha):
        return e["value"]
    return None


def _reason(e, alpha, beta, depth):
    v, flag = fmt(e["value"]), e["flag"]
    if e["depth"] < depth:
        return (f"the entry comes from a search {e['depth']} plies deep, and this one needs {depth}: a shallower "
                f"result cannot stand in for a deeper one")
    if flag == "exact":
        return f"the stored value {v} is exact, and {e['depth']} ≥ {depth} plies"
    if flag == "lower":
        if e["value"] >= beta:
            return (f"the value is at least {v} ≥ β = {fmt(beta)}: the search would fail high anyway, so {v} "
                    f"answers it (a cutoff)")
        return f"the value is only known to be at least {v}, and {v} < β = {fmt(beta)}: it may lie inside the window"
    if e["value"] <= alpha:
        return (f"the value is at most {v} ≤ α = {fmt(alpha)}: the search would fail low anyway, so {v} answers "
                f"it")
    return f"the value is only known to be at most {v}, and {v} > α = {fmt(alpha)}: it may lie inside the window"


def check_table_answers(entry, queries, answer):
    """Check which searches a transposition-table entry may answer (lesson 05).

    ``entry`` is ``{"value": v, "flag": "exact" | "lower" | "upper",
    "depth": d, "move": m}``; ``queries`` a list of ``(alpha, beta, depth)``:
    later searches of the same position. For each, the learner gives the
    value the table answers with, or ``"search"`` when the entry does not
    settle it (see :func:`table_answer`). A blank answer (``None``) is
    "not answered yet".

    Examples
    --------
    >>> entry = {"value": 3, "flag": "lower", "depth": 4, "move": 2}
    >>> check_table_answers(entry, [(0, 2, 4), (0, 5, 4)], [3, "search"]).ok
    True
    >>> check_table_answers(entry, [(0, 2, 4)], None)
    ✗ Table answers: not answered yet.
    ✗ Give one answer per search: the value the table answers with, or "search".
    """
    e = _entry(entry)
    what = "Table answers"
    if answer is None or (isinstance(answer, (list, tuple)) and all(a is None for a in answer)):
        return unanswered(what, 'Give one answer per search: the value the table answers with, or "search".')
    if isinstance(answer, (str, bytes)) or not isinstance(answer, (list, tuple)) or len(answer) != len(queries):
        return Feedback(f"{what}: expected a list of {len(queries)} answers.", [(
            "bad", f'Give a list with one answer per search, in order: a number or "search"; you gave {answer!r}.',
            None)])
    rep = Report()
    for i, ((alpha, beta, depth), a) in enumerate(zip(queries, answer), 1):
        right = table_answer(e, alpha, beta, depth)
        name = f"Search {i} (window ({fmt(alpha)}, {fmt(beta)}), {depth} plies)"
        if a is None:
            rep.bad(f"{name}: not answered yet.")
            continue
        says_search = isinstance(a, str) and a.strip().lower() in ("search", "none", "no", "-")
        value = None
        if not says_search:
            try:
                op, value = parse_value(a)
                if op != "eq":
                    raise ValueError(op)
            except (BadAnswer, TypeError, ValueError):
                rep.bad(f'{name}: give a number or "search"; you wrote {a!r}.')
                continue
        why = _reason(e, alpha, beta, depth)
        if right is None and says_search:
            rep.good(f"{name}: search, because {why}.")
        elif right is None:
            rep.bad(f"{name}: you let the table answer {fmt(value)}, but {why}: search (trying the stored move "
                    f"first).", "An entry answers only what it has settled; a bound settles a search only when it "
                                "is already outside the window on its own side.")
        elif says_search:
            rep.bad(f"{name}: the table can answer {fmt(right)} without a search: {why}.")
        elif value == right:
            rep.good(f"{name}: {fmt(right)}, because {why}.")
        else:
            rep.bad(f"{name}: the table answers with the stored value {fmt(right)}, not {fmt(value)}: {why}.")
    return rep.feedback(what)


def _positions(limit=60):
    game = TicTacToe()
    states = [s for s in expand(game, merge=True, depth=4) if not game.is_terminal(s)]
    states.sort(key=lambda s: (bin(s[0] | s[1]).count("1"), s))
    return states[:: max(1, len(states) // limit)][:limit]


def _truth(game, state):
    """The negamax value (for the player to move) of a tic-tac-toe position (the engine reports MAX's view)."""
    return (1 if game.to_move(state) == MAX else -1) * negamax(game, state, trace=False).value


def _in_window(v, true, alpha, beta):
    """Is ``v`` what alpha-beta may return for a position worth ``true`` with window (alpha, beta)?"""
    if true <= alpha:
        return v <= alpha
    if true >= beta:
        return v >= beta
    return v == true


def _expect(true, alpha, beta):
    if true <= alpha:
        return f"at most α = {fmt(alpha)} (the true value {fmt(true)} is at or below the window)"
    if true >= beta:
        return f"at least β = {fmt(beta)} (the true value {fmt(true)} is at or above the window)"
    return f"exactly {fmt(true)} (inside the window)"


class _ForgetfulTable(dict):
    """A dict that never keeps anything: a search given it runs as if it had no table."""

    def __setitem__(self, key, value):
        pass

    def setdefault(self, key, default=None):
        return default

    def update(self, *args, **kwargs):
        pass


def check_table_search(fn):
    """Check a learner's negamax alpha-beta with a transposition table that stores bounds (lesson 05).

    ``fn(game, state, alpha, beta, table)`` returns the value of ``state`` for
    the player to move (negamax), searching tic-tac-toe with the window
    (alpha, beta) and reading and writing ``table``, a dict the check passes
    in. A right answer is the true value when it lies inside the window, at
    most alpha when the true value is at or below alpha, at least beta when
    it is at or above beta.

    The check first calls it with a fresh table per call, then with **one
    table shared** by a run of calls with different windows, as a real
    program reuses its table: the careless table (every value stored as
    exact) passes the first part and fails the second, and the feedback says
    so.

    Examples
    --------
    >>> import math
    >>> def careless(game, state, alpha, beta, table):
    ...     if state in table:
    ...         return table[state]
    ...     if game.is_terminal(state):
    ...         return (1 if game.to_move(state) == "max" else -1) * game.utility(state)
    ...     value = -math.inf
    ...     for _, child in game.successors(state):
    ...         value = max(value, -careless(game, child, -beta, -alpha, table))
    ...         alpha = max(alpha, value)
    ...         if alpha >= beta:
    ...             break
    ...     table[state] = value
    ...     return value
    >>> fb = check_table_search(careless)
    >>> fb.ok
    False
    >>> any("a bound used as if it were exact" in line for line in fb.lines)
    True
    """
    name = "check_table_search"
    problem = check_callable(fn, name, "fn(game, state, alpha, beta, table)", 5)
    if problem:
        return Feedback(f"{name}: your function could not be called.", [("bad", problem, None)])
    game = TicTacToe()
    printed = Printed()
    rep = Report()
    states = _positions()
    truth = {s: _truth(game, s) for s in states}
    windows = [(-math.inf, math.inf), (-1, 1), (0, 1), (-1, 0), (0.5, 1), (-1, -0.5)]

    def run(state, alpha, beta, table):
        out = run_learner(fn, (game, state, alpha, beta, table), printed)
        if out.problem():
            return out.problem(), None
        try:
            return None, float(out.value)
        except (TypeError, ValueError):
            return f"returned {out.value!r}, not a number", None

    def table_to_blame(s, alpha, beta):
        """Is the same search right when the table keeps nothing? Then the table answered wrongly."""
        err, v = run(s, alpha, beta, _ForgetfulTable())
        return err is None and _in_window(v, truth[s], alpha, beta)

    blame_hint = ("Store a flag with each value: 'lower' if the value is ≥ β (a cutoff: the true value may be "
                  "higher), 'upper' if it is ≤ the α the node started with (nothing reached the window), 'exact' "
                  "otherwise; and answer from the table only with an exact value, a lower bound ≥ β or an upper "
                  "bound ≤ α.")
    # Part 1: a fresh table for every call (transpositions inside one search still meet the table).
    # Part 2: one table shared by all calls, narrow windows first, as a program reuses its table.
    parts = (("With a fresh table for every search", [(s, a, b) for s in states for a, b in windows], False),
             ("With one table shared by all searches (as a program reuses it)",
              [(s, a, b) for s in states for a, b in windows[1:] + windows[:1]], True))
    passed_all = total_all = 0
    for label, calls, shared in parts:
        table, passed, bad = {}, 0, None
        for s, alpha, beta in calls:
            err, v = run(s, alpha, beta, table if shared else {})
            if err is None and _in_window(v, truth[s], alpha, beta):
                passed += 1
            elif bad is None:
                bad = (s, alpha, beta, err, v)
        passed_all, total_all = passed_all + passed, total_all + len(calls)
        if bad is None:
            rep.good(f"{label}: all {len(calls)} searches right ({len(states)} positions, {len(windows)} windows "
                     f"each).")
            continue
        s, alpha, beta, err, v = bad
        got = err or f"returned {fmt(v)}"
        mover = "X" if game.to_move(s) == MAX else "O"
        line = (f"{label}: {passed} of {len(calls)} right; e.g. {ttt_text(s)} ({mover} to move) with window "
                f"({fmt(alpha)}, {fmt(beta)}): your function {got}, but it should return "
                f"{_expect(truth[s], alpha, beta)}.")
        if err is None and table_to_blame(s, alpha, beta):
            source = ("an entry stored under another window (by an earlier search, or earlier in this one)"
                      if shared else
                      "an entry stored earlier in this same search, when a position was reached by another move "
                      "order with another window,")
            rep.bad(line + f" With a table that keeps nothing the same search is right: {source} answered "
                           "although it did not settle the window it was asked for: a bound used as if it were "
                           "exact.",
                    blame_hint)
        else:
            rep.bad(line, error_hint(err) if err else
                    "Check the recursion first (it is wrong even when the table keeps nothing): negamax values "
                    "are for the player to move, utility × (+1 if MAX is to move, else -1); a child's value is "
                    "negated, and its window is (-β, -α).")
            if err is None and v == -truth[s] and truth[s] != 0:
                rep.bad("That value has the opposite sign: it is from the other player's point of view.",
                        "In negamax every value is for the player to move at that position.")
        break   # the second part only makes sense once the first passes
    printed_note(rep, printed)
    return checker_feedback(name, rep, passed_all, total_all, unit="searches right")
