"""Lesson 05 (search enhancements): positions after two moves, negamax, what a table entry answers, a table
search.

The checks lesson 05 calls; each compares the learner's answer with what the engine or
the lesson's rule computes, and a check on an unanswered exercise says only that it is unanswered.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ...games import MAX, MIN, TicTacToe
from ...rules import EXACT, LOWER, UPPER, deep_enough, table_probe, window_bound
from ...search import alphabeta, minimax, negamax
from ...trees import expand
from ..answers import BadAnswer, NodeNames, parse_value
from ..attempts import attempted, escalate, open_solution, worked_answer
from ..by_hand import as_tree
from ..code_checks.diagnosis import checker_feedback, printed_note
from ..code_checks.harness import Printed, check_callable, error_hint, run_learner
from ..code_checks.values import ttt_text
from ..feedback import Feedback, Report, and_list, close, fmt, malformed, unanswered

__all__ = ["SYMMETRY_NAMES", "check_after_two_moves", "check_negamax", "check_same_up_to_symmetry",
           "check_table_answers", "check_table_search",
           "check_window_entries", "solution_same_up_to_symmetry", "solution_table_answers",
           "solution_window_entries", "table_answer"]


def check_after_two_moves(after_two, classes):
    """Check the positions after two moves of tic-tac-toe, and their symmetry classes (lesson 05).

    A wrong set is named with what to re-check, never with the right count.

    Examples
    --------
    >>> check_after_two_moves(None, None)
    ✗ After two moves: not answered yet.
    ✗ Give after_two (a set of states) and classes (a set of canonical states), in place of None.
    """
    what = "After two moves"
    if after_two is None and classes is None:
        return unanswered(what, "Give after_two (a set of states) and classes (a set of canonical states), "
                                "in place of None.")
    game = TicTacToe()
    truth = {s2 for _, s1 in game.successors(game.initial) for _, s2 in game.successors(s1)}
    canon = {game.canonical(s) for s in truth}
    rep = Report()
    readable = 0
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
        readable += 1
        if got == right:
            rep.good(f"{name}: right ({len(got)}).")
            continue
        strangers = [s for s in got if s not in truth and s not in canon]
        if strangers:
            rep.bad(f"{name}: {len(strangers)} of your {len(got)} elements are not tic-tac-toe states after "
                    "two moves.", "A state is what game.result or game.successors gives: apply two moves, "
                               "one of X and one of O, to game.initial.")
        elif name.startswith("classes") and got == truth:
            rep.bad(f"{name}: these are the positions themselves, not their classes.",
                    "Symmetric positions form one class: map each position through game.canonical and keep "
                    "the distinct results.")
        elif name.startswith("classes"):
            rep.bad(f"{name}: not the set of canonical forms of the positions after two moves.",
                    "Take every position after two moves and map it through game.canonical; keep each result "
                    "once.")
        else:
            missing = len(truth - got) > 0
            rep.bad(f"{name}: " + ("some positions are missing" if missing
                                   else "some of these are not after two moves") + ".",
                    "Every first move of X, then every reply of O: game.successors twice from game.initial.")
    fb = rep.feedback(what)
    if readable == 0 and fb.status == "wrong":
        fb.status = "unreadable"
    return escalate("l05.after_two_moves", fb, twin=_after_one_twin)


def _after_one_twin(_):
    """The same counting one move earlier: the positions after X's first move, and their classes."""
    game = TicTacToe()
    after_one = {s for _, s in game.successors(game.initial)}
    classes = {}
    for s in after_one:
        classes.setdefault(game.canonical(s), []).append(ttt_text(s))
    listing = "; ".join(f"{ttt_text(c)} stands for {len(v)} position{'s' if len(v) > 1 else ''}"
                        for c, v in sorted(classes.items(), key=lambda kv: -len(kv[1])))
    return (f"after one move: game.successors(game.initial) gives {len(after_one)} positions, one per cell; "
            f"mapped through game.canonical they fall into {len(classes)} classes: {listing}.")


#: The symmetries of the square, in the order of :meth:`TicTacToe.symmetries` (rotations clockwise).
SYMMETRY_NAMES = ("identity", "rotate 90", "rotate 180", "rotate 270", "mirror left-right",
                  "mirror top-bottom", "mirror main diagonal", "mirror anti-diagonal")


def check_same_up_to_symmetry(reference, positions, answer):
    """Check which of ``positions`` are ``reference`` up to symmetry, and by which symmetry (lesson 05).

    ``reference`` and each of ``positions`` (``{name: board}``) are tic-tac-toe
    boards as ``TicTacToe.from_string`` reads them. ``answer`` maps each name
    to one of :data:`SYMMETRY_NAMES` (the symmetry that turns ``reference``
    into that position; any such symmetry is right when several do) or
    ``"not"`` (not in the class). The feedback counts the right answers and
    names the kind of each slip with how many answers show it, never which
    positions: naming them would let a learner try the eight symmetries one
    at a time.

    Examples
    --------
    >>> ref, boards = "XO./.../...", {"A": "..X/..O/...", "B": "X../.../.O."}
    >>> check_same_up_to_symmetry(ref, boards, {"A": "rotate 90", "B": "not"}).ok
    True
    >>> print(check_same_up_to_symmetry(ref, boards, {"A": "rotate 270", "B": "not"}))
    ✗ Same up to symmetry: 1 of 2 right.
    ✗ 1 of your answers names a symmetry that does not turn the reference into that position: apply it \
cell by cell (where do the X and the O go?) and compare.
    """
    what = "Same up to symmetry"
    game = TicTacToe()
    ref = game.from_string(reference)
    boards = {str(k): game.from_string(v) for k, v in positions.items()}
    how = (f"Give, for each of {', '.join(boards)}, one of {', '.join(map(repr, SYMMETRY_NAMES))} or 'not', "
           "in place of None.")
    if answer is None or (isinstance(answer, Mapping) and all(v is None for v in answer.values())):
        return unanswered(what, how)
    if not isinstance(answer, Mapping):
        return malformed(what, f"Could not read your answer: give a dict from position name to a symmetry or "
                               f"'not'. You gave {answer!r}.")
    images = game.symmetries(ref)
    maps = {name: {SYMMETRY_NAMES[i] for i, img in enumerate(images) if img == b}
            for name, b in boards.items()}
    rep = Report()
    right = 0
    slips = {"said-not": 0, "said-in": 0, "wrong-map": 0}
    for key in answer:
        if str(key) not in boards:
            rep.bad(f"{key!r} is not one of the positions {', '.join(boards)}.")
    for name in boards:
        mine = answer.get(name)
        if mine is None:
            rep.bad(f"{name}: not answered yet.")
            continue
        mine = str(mine).strip().casefold()
        if mine != "not" and mine not in SYMMETRY_NAMES:
            rep.bad(f"{name}: could not read {answer[name]!r}: write one of "
                    f"{', '.join(map(repr, SYMMETRY_NAMES))} or 'not'.")
            continue
        if (mine == "not" and not maps[name]) or mine in maps[name]:
            right += 1
        elif mine == "not":
            slips["said-not"] += 1
        elif not maps[name]:
            slips["said-in"] += 1
        else:
            slips["wrong-map"] += 1
    words = {
        "said-not": "calls a position not in the class although one of the eight symmetries turns the "
                    "reference into it: try the rotations and the mirrors, each cell by cell.",
        "said-in": "names a symmetry for a position no symmetry reaches: a symmetry moves the whole board, "
                   "so it keeps which cells are corners, edges or the centre, which marks are next to "
                   "each other, and which mark is X and which O.",
        "wrong-map": "names a symmetry that does not turn the reference into that position: apply it cell by "
                     "cell (where do the X and the O go?) and compare.",
    }
    for kind, n in slips.items():
        if n:
            rep.bad(f"{n} of your answers {words[kind]}")
    if right == len(boards) and not any(k == "bad" for k, _, _ in rep.items):
        fb = Feedback(f"{what}: right.", [("good", "Each position placed, with a symmetry that reaches it.",
                                           None)])
    else:
        fb = Feedback(f"{what}: {right} of {len(boards)} right.", rep.items)
    return escalate("l05.same_up_to_symmetry", fb)


def check_negamax(fn):
    """Check a learner's negamax ``fn(game, state)``: the value for the player to move (lesson 05).

    No lesson or assignment calls it today; it is kept as a public checker (``gt.exercises``, the checkers row
    of INSTRUCTORS.md, "check_minimax, check_alphabeta, check_expectimax, ...") for an instructor's own
    notebooks, and the misconception catalogue names it as where ``wrong-viewpoint`` is found.
    """
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
                    f"{fmt(out.value)}, the utility from MAX's point of view; negamax needs it from the "
                    f"point of view of the player to move: {-game.utility(s):+d}.",
                    "Multiply game.utility(state) by +1 when MAX is to move and -1 when MIN is.")
    printed_note(rep, printed)
    return checker_feedback("check_negamax", rep, passed, len(positions), unit="positions right")


_FLAGS = (EXACT, LOWER, UPPER)


def _entry(entry):
    if not isinstance(entry, dict) or not {"value", "flag", "depth"} <= set(entry):
        raise ValueError(f"entry must be a dict with 'value', 'flag' and 'depth' (and 'move'), got {entry!r}")
    if entry["flag"] not in _FLAGS:
        raise ValueError(f"entry['flag'] must be one of {_FLAGS}, got {entry['flag']!r}")
    return entry


def table_answer(entry, alpha, beta, depth):
    """What a table entry answers for a search of ``state`` with window (alpha, beta) and ``depth`` plies
    left.

    The stored value if the entry settles the search (an exact value, a lower
    bound at or above beta, or an upper bound at or below alpha, from a
    search at least as deep), else ``None`` (search; the stored best move is
    still tried first). The rule is the engine's
    (:func:`gametrees.rules.table_probe`).

    Examples
    --------
    >>> table_answer({"value": 3, "flag": "lower", "depth": 4}, 0, 2, 4)
    3
    >>> table_answer({"value": 3, "flag": "lower", "depth": 4}, 0, 5, 4) is None
    True
    """
    return table_window(entry, alpha, beta, depth)[0]


def table_window(entry, alpha, beta, depth):
    """What a table entry does for a search with the window (alpha, beta) and ``depth`` plies left.

    Returns ``(value, window)``: the stored value and the window as it was if the entry answers
    (as :func:`table_answer`), else ``(None, window)`` with the window the search goes on with. An entry
    that is deep enough but cannot answer may still narrow it: a lower bound v gives (max(α, v), β), an
    upper bound v gives (α, min(β, v)). A shallower entry leaves the window as it is. The rule is the
    engine's (:func:`gametrees.rules.table_probe`).

    Examples
    --------
    >>> table_window({"value": 3, "flag": "lower", "depth": 4}, 0, 5, 4)
    (None, (3, 5))
    >>> table_window({"value": 3, "flag": "upper", "depth": 4}, -5, 5, 2)
    (None, (-5, 3))
    >>> table_window({"value": 3, "flag": "lower", "depth": 4}, 0, 2, 4)
    (3, (0, 2))
    >>> table_window({"value": 3, "flag": "lower", "depth": 4}, 0, 5, 6)
    (None, (0, 5))
    """
    e = _entry(entry)
    if not deep_enough(e["depth"], depth):
        return None, (alpha, beta)
    answer, alpha, beta = table_probe(e["flag"], e["value"], alpha, beta)
    return answer, (alpha, beta)


def _window_words(w):
    return f"({fmt(w[0])}, {fmt(w[1])})"


def _settles(flag):
    """The question to re-apply for an entry with ``flag``."""
    return {EXACT: "an exact value answers every window, if it was searched deep enough",
            LOWER: "a lower bound (the value is at least v) settles a search only if v ≥ β",
            UPPER: "an upper bound (the value is at most v) settles a search only if v ≤ α"}[flag]


def _read(a):
    """A learner's reading of one entry: ``("search", None)``, ``("value", v)``, ``("window", (α, β))``, or
    None when unreadable."""
    if isinstance(a, str) and a.strip().lower() in ("search", "none", "no", "-"):
        return "search", None
    if isinstance(a, (tuple, list)):
        if len(a) != 2:
            return None
        try:
            ops = [parse_value(x) for x in a]
        except (BadAnswer, TypeError, ValueError):
            return None
        if any(op != "eq" for op, _ in ops) or not ops[0][1] < ops[1][1]:
            return None
        return "window", (ops[0][1], ops[1][1])
    try:
        op, value = parse_value(a)
    except (BadAnswer, TypeError, ValueError):
        return None
    return ("value", value) if op == "eq" else None


def _unread_why(a):
    """Why ``_read`` could not read ``a``, when it is a pair of numbers in the wrong order (else "")."""
    if isinstance(a, (tuple, list)) and len(a) == 2:
        try:
            ops = [parse_value(x) for x in a]
        except (BadAnswer, TypeError, ValueError):
            return ""
        if all(op == "eq" for op, _ in ops) and not ops[0][1] < ops[1][1]:
            return f" (a window (alpha, beta) needs alpha below beta: {fmt(ops[0][1])} is not below " \
                   f"{fmt(ops[1][1])})"
    return ""


def _judge_read(e, alpha, beta, depth, mine, name, rep):
    """One reading of the entry ``e`` by a search with (alpha, beta) and ``depth`` plies: a ✓ or a ✗ in
    ``rep``."""
    kind, value = mine
    right, narrowed = table_window(e, alpha, beta, depth)
    deep = deep_enough(e["depth"], depth)
    w = (alpha, beta)
    if right is not None:
        if kind == "value" and close(value, right):
            deeper = (f" The {e['depth']}-ply entry stands in for a {depth}-ply search with its "
                      f"{e['depth']}-ply value: accepted practice (it is better informed), though it can "
                      f"differ from what the {depth}-ply search itself would find (search instability)."
                      if e["depth"] > depth else "")
            return rep.good(f"{name}: the table answers {fmt(right)}, right.{deeper}")
        if kind == "value":
            return rep.bad(f"{name}: the table may answer here, but not with {fmt(value)}: what does an "
                           "entry answer with?")
        return rep.bad(f"{name}: you search on, but the entry already settles this search. Ask both "
                       "questions again: is it deep enough, and does it settle the window "
                       f"{_window_words(w)}? {_settles(e['flag'])[0].upper() + _settles(e['flag'])[1:]}.")
    if kind == "value":
        return rep.bad(f"{name}: you let the table answer, but it cannot answer this search. "
                       + (f"Is a {e['depth']}-ply result enough for a {depth}-ply search?"
                          if not deep else
                          f"Does the entry settle the window {_window_words(w)}? "
                          f"{_settles(e['flag'])[0].upper() + _settles(e['flag'])[1:]}."),
                       tag="bound-as-value" if deep and e["flag"] != EXACT else None)
    if not deep:
        if kind == "search" or (kind == "window" and all(close(x, y) for x, y in zip(value, w))):
            return rep.good(f"{name}: search, with the window as it is (the entry is too shallow to say "
                            "anything about this search), right.")
        return rep.bad(f"{name}: you change the window, but can a {e['depth']}-ply result tell anything "
                       f"about a {depth}-ply search?")
    same = kind == "search" or (kind == "window" and all(close(x, y) for x, y in zip(value, w)))
    if narrowed == w:   # a deep enough bound on the far side of the window: no news
        if same:
            return rep.good(f"{name}: search on, right: "
                            f"{'at least' if e['flag'] == 'lower' else 'at most'} {fmt(e['value'])} is no "
                            f"news with {'α' if e['flag'] == 'lower' else 'β'} = "
                            f"{fmt(alpha if e['flag'] == 'lower' else beta)}: the window stays "
                            f"{_window_words(w)}.")
        return rep.bad(f"{name}: you change the window, but does "
                       f"{'at least' if e['flag'] == 'lower' else 'at most'} {fmt(e['value'])} tell a search "
                       f"with the window {_window_words(w)} anything it does not know?")
    if kind == "window" and all(close(x, y) for x, y in zip(value, narrowed)):
        return rep.good(f"{name}: search with the window {_window_words(narrowed)}, right: the "
                        f"{'lower' if e['flag'] == 'lower' else 'upper'} bound cannot answer, but it narrows "
                        "the window.")
    if same:
        return rep.bad(f"{name}: the entry cannot answer, right; but does it tell the search nothing? A "
                       "bound that cannot answer here still narrows the window: which end does "
                       f"{'at least' if e['flag'] == 'lower' else 'at most'} {fmt(e['value'])} move?",
                       tag="table-bound-unused")
    wrong_side = (
        e["flag"] == LOWER and close(value[0], alpha) and close(value[1], min(beta, e["value"]))
    ) or (e["flag"] == UPPER and close(value[1], beta) and close(value[0], max(alpha, e["value"])))
    if wrong_side:
        return rep.bad(f"{name}: you moved the wrong end of the window. "
                       f"{'At least' if e['flag'] == 'lower' else 'At most'} {fmt(e['value'])} says nothing "
                       f"about how {'high' if e['flag'] == 'lower' else 'low'} the value may be: which bound "
                       "can it move?",
                       tag="table-bound-wrong-side")
    return rep.bad(f"{name}: not the window the search goes on with. A lower bound v raises α to v (if v is "
                   f"above α), an upper bound v lowers β to v (if v is below β); the other end stays.")


def _table_twin(entry, queries):
    """A worked reading of a twin entry (other numbers, the same flag) against a few windows."""
    flag, v = entry["flag"], entry["value"] + 4
    d = entry["depth"] + 1
    twin = {"value": v, "flag": flag, "depth": d}
    windows = [(v - 3, v - 1, d), (v - 1, v + 3, d), (v + 1, v + 3, d), (v - 3, v - 1, d + 2)]
    lines = []
    for alpha, beta, depth in windows:
        got, narrowed = table_window(twin, alpha, beta, depth)
        if d < depth:
            why, does = f"{d} plies cannot stand in for {depth}", "search with the window as it is"
        elif flag == EXACT:
            why, does = "an exact value answers any window", f"answers {fmt(got)}"
        elif got is not None:
            why = (f"at least {fmt(v)} ≥ β = {fmt(beta)}" if flag == LOWER
                   else f"at most {fmt(v)} ≤ α = {fmt(alpha)}")
            does = f"answers {fmt(got)}"
        elif narrowed == (alpha, beta):
            why = (f"at least {fmt(v)} is no news with α = {fmt(alpha)}" if flag == LOWER
                   else f"at most {fmt(v)} is no news with β = {fmt(beta)}")
            does = "search with the window as it is"
        else:
            why = (f"at least {fmt(v)} < β = {fmt(beta)} cannot answer, but raises α to {fmt(v)}"
                   if flag == LOWER
                   else f"at most {fmt(v)} > α = {fmt(alpha)} cannot answer, but lowers β to {fmt(v)}")
            does = f"search with {_window_words(narrowed)}"
        lines.append(f"window ({fmt(alpha)}, {fmt(beta)}), {depth} plies: {does} ({why})")
    return (f"an entry {{value {fmt(v)}, flag {flag!r}, depth {d}}} read by four searches: "
            + "; ".join(lines) + ".")


def check_table_answers(entry, queries, answer):
    """Check which searches a transposition-table entry may answer (lesson 05).

    ``entry`` is ``{"value": v, "flag": "exact" | "lower" | "upper",
    "depth": d, "move": m}``; ``queries`` a list of ``(alpha, beta, depth)``:
    later searches of the same position. For each, the learner gives the
    value the table answers with; or, when the entry does not settle the
    search, the window ``(alpha, beta)`` the search goes on with: narrowed by a
    deep enough bound (a lower bound raises α, an upper bound lowers β), as it
    is (or ``"search"``) when the entry is too shallow (see :func:`table_window`).
    A blank answer (``None``) is "not answered yet", and so is every search
    after the end of a shorter list. A wrong answer is named
    with the questions to ask of the entry (deep enough? settles this window?
    which end does it move?), never with the right answer; keeping the window
    where a bound narrows it is ``table-bound-unused``, moving the wrong end
    ``table-bound-wrong-side``; a second wrong check works a twin entry through.

    Examples
    --------
    >>> entry = {"value": 3, "flag": "lower", "depth": 4, "move": 2}
    >>> check_table_answers(entry, [(0, 2, 4), (0, 5, 4)], [3, (3, 5)]).ok
    True
    >>> check_table_answers(entry, [(0, 2, 4)], None)
    ✗ Table answers: not answered yet.
    ✗ Give one answer per search: the value the table answers with, or the window (alpha, beta) the search
    goes on with.
    """
    e = _entry(entry)
    what = "Table answers"
    if answer is None or (isinstance(answer, (list, tuple)) and all(a is None for a in answer)):
        return unanswered(what, "Give one answer per search: the value the table answers with, or the window "
                                "(alpha, beta) the search goes on with.")
    if isinstance(answer, list) and len(answer) < len(queries):   # the first answers: the rest not yet
        answer = answer + [None] * (len(queries) - len(answer))
    if (isinstance(answer, (str, bytes)) or not isinstance(answer, (list, tuple))
            or len(answer) != len(queries)):
        return malformed(what, f"Could not read your answer: give a list of {len(queries)} answers, one per "
                               "search in order, each a number or a window (alpha, beta), such as "
                               "[3, (0, 4), ...].")
    rep = Report()
    readable = 0
    for i, ((alpha, beta, depth), a) in enumerate(zip(queries, answer), 1):
        name = f"Search {i} (window ({fmt(alpha)}, {fmt(beta)}), {depth} plies)"
        if a is None:
            rep.bad(f"{name}: not answered yet.")
            continue
        mine = _read(a)
        if mine is None:
            rep.bad(f'{name}: could not read {a!r}{_unread_why(a)}: give a number, a window (alpha, beta) '
                    'or "search".')
            continue
        readable += 1
        _judge_read(e, alpha, beta, depth, mine, name, rep)
    fb = rep.feedback(what)
    if readable == 0 and fb.status == "wrong" and any(a is not None for a in answer):
        fb.status = "unreadable"
    return escalate("l05.table_answers", fb, twin=lambda _: _table_twin(e, queries), on="another entry")


# ============================================================================
# check_window_entries: a table entry stored under one window, read under another
# ============================================================================

_FLAG_WORDS = {"exact": "exact", "lower": "lower", "upper": "upper", "=": "exact", "≥": "lower",
               ">=": "lower", "≤": "upper", "<=": "upper"}


def _stored(G, window):
    """``{node: (value, flag)}`` of every node the engine's fail-soft alpha-beta stores, searched with
    ``window``."""
    r = alphabeta(G, window=window, trace=False, graph=True)
    out = {}
    for n, d in r.graph.nodes(data=True):
        if d.get("status") == "visited" and G.out_degree(n):
            out[n] = (d["value"], d["bound"])
    return out, r


def _given_window(G, window, n):
    """The window (alpha, beta) the engine's search with ``window`` gives node ``n`` when it enters it."""
    r = alphabeta(G, window=window, trace=True)
    enter = next(ev for ev in r.trace if ev.node == n and ev.kind == "enter")
    return enter.alpha, enter.beta


def _worked(G, r, n, names):
    """How the search with trace ``r`` treats inner node ``n``, in one sentence (the twin's working)."""
    evs = [ev for ev in r.trace if ev.node == n]
    enter = next(ev for ev in evs if ev.kind == "enter")
    seen = [f"{names.name(ev.child)} = {fmt(ev.child_value)}" for ev in evs if ev.kind == "update"]
    cut = any(ev.kind == "prune" for ev in evs)
    exit_ = next(ev for ev in evs if ev.kind == "exit")
    v, flag = exit_.value, exit_.bound
    a, b = enter.alpha, enter.beta
    side = {UPPER: f"{fmt(v)} ≤ α = {fmt(a)}", LOWER: f"{fmt(v)} ≥ β = {fmt(b)}",
            EXACT: f"{fmt(a)} < {fmt(v)} < {fmt(b)}"}[window_bound(v, a, b)]
    if flag == EXACT and window_bound(v, a, b) != EXACT:   # outside the window, but nothing was cut below it
        side += f", but {names.name(n)} looked at every child (none was skipped), so its value is exact"
    return (f"{names.name(n)} ({enter.player.upper()}) is given the window ({fmt(a)}, {fmt(b)}); it sees "
            f"{', '.join(seen)}{' and stops there (a cut)' if cut else ''}; it returns {fmt(v)}, and {side}, "
            f"so the entry is {flag!r}")


def _window_twin(G, window, later, asked, wrong_nodes, seed=0):
    """A twin: the tree's shape with other leaf values and window, the same flag at every asked node.

    The nodes the learner got wrong are worked through on it (by position in the tree), and each
    entry read under the later window, where it answers there as the exercise's entry does (an answer
    where they answer, else a window). When no twin read under the exercise's later window does that
    (as with several wrong nodes whose bounds sit close to that window's ends), the twin is read under
    a later window of its own; ``None`` if no twin is found either way.
    """
    import random as _random

    stored, _ = _stored(G, window)
    leaves = [n for n in G if not G.out_degree(n)]
    values = [G.nodes[n]["utility"] for n in leaves]
    lo, hi = min(values), max(values)
    rng = _random.Random(seed)
    names = NodeNames(G)

    def own_later():
        ends = sorted(rng.sample(range(lo - 2, hi + 5), 2))
        return tuple(e if math.isfinite(x) else x for e, x in zip(ends, later))

    for attempt in range(6000):
        H = G.copy()
        for n in leaves:
            H.nodes[n]["utility"] = rng.randint(lo, hi + 4)
        a = rng.randint(lo, hi)
        w = (a, a + rng.randint(2, 4))
        reading = later if attempt < 2000 else own_later()
        if not reading[0] < reading[1]:
            continue
        twin, _ = _stored(H, w)
        if any(n not in twin or twin[n][1] != stored[n][1] or twin[n][0] == stored[n][0] for n in asked):
            continue
        if any(_answers_later(twin[n], reading) != _answers_later(stored[n], later) for n in wrong_nodes):
            continue  # the same reading as the exercise's entries: an answer where they answer, else a window
        r = alphabeta(H, window=w, trace=True)
        leaves_text = ", ".join(f"{names.name(n)} = {fmt(H.nodes[n]['utility'])}" for n in leaves)
        parts = []
        for n in wrong_nodes:
            v, flag = twin[n]
            reread, narrowed = table_window({"value": v, "flag": flag, "depth": 0}, reading[0], reading[1], 0)
            does = (f"answers {fmt(reread)}" if reread is not None else
                    f"cannot answer, and the search goes on with {_window_words(narrowed)}")
            parts.append(_worked(H, r, n, names) + f"; read by a search with the window ({fmt(reading[0])}, "
                         f"{fmt(reading[1])}) it {does}.")
        return (f"the same tree with the leaves {leaves_text}, searched with the window ({fmt(w[0])}, "
                f"{fmt(w[1])}). "
                + " ".join(parts))
    return None


def _answers_later(value_flag, later):
    return (
        table_window({"value": value_flag[0], "flag": value_flag[1], "depth": 0}, later[0], later[1], 0)[0]
        is not None
    )


def _entry_answer(x):
    """A learner's ``(value, flag)``: ``(number, flag)``; raises BadAnswer."""
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise BadAnswer(f"{x!r} is not a pair (value, flag)")
    v, f = x
    op, value = parse_value(v)
    if op != "eq":
        raise BadAnswer(f"{v!r}: give the value the search returns, a number")
    flag = _FLAG_WORDS.get(str(f).strip().lower()) if f is not None else None
    if flag is None:
        raise BadAnswer(f"{f!r} is not a flag: give 'exact', 'lower' or 'upper'")
    return value, flag


def check_window_entries(tree, window, later, stored, reread):
    """Check what fail-soft alpha-beta stores at each node, and what those entries answer later (lesson 05).

    The root of ``tree`` is searched with ``window`` = (alpha, beta). ``stored``
    maps node labels to ``(value, flag)``: the value the search returns at that
    node and the flag a table stores with it (``"exact"``, ``"lower"``: the
    true value is at least it, ``"upper"``: at most it). ``reread`` maps the
    same labels to what each entry does when a later search, with the
    window ``later``, reaches the node: the value it answers with, or the
    window ``(alpha, beta)`` the search goes on with (a lower bound raises α,
    an upper bound lowers β; :func:`table_window`). The later part is judged
    from the learner's own stored entry when it is readable (a wrong entry
    read consistently is not marked wrong twice), and the line says so.

    Wrong parts are named with the rule to re-apply there (which window the
    node inherits, when it stops, which side of its window the value lies on,
    what a bound settles), never with the right value or flag; from the second
    wrong check on, a twin tree (same shape, other numbers) is worked through.

    Examples
    --------
    >>> import gametrees as gt
    >>> T = gt.tree_from_nested([[6, 5], [3, 1], [9, 8], [10, 12]])
    >>> blank = {"A": (None, None), "B": (None, None), "C": (None, None)}
    >>> check_window_entries(T, (4, 7), (-math.inf, math.inf), blank, {"A": None, "B": None, "C": None})
    ✗ Entries stored under one window: not answered yet.
    ✗ For each of A, B and C give (value returned, flag) in stored, and the later answer (a value, or the
    window (alpha, beta) the search goes on with) in reread.
    >>> right = {"A": (8, "lower"), "B": (5, "exact"), "C": (3, "upper")}
    >>> later = {"A": (8, math.inf), "B": 5, "C": (-math.inf, 3)}
    >>> check_window_entries(T, (4, 7), (-math.inf, math.inf), right, later).ok
    True
    """
    what = "Entries stored under one window"
    G = as_tree(tree, None)
    names = NodeNames(G)
    if not isinstance(stored, Mapping) or not stored:
        raise TypeError("stored must be a dict {label: (value, flag)} naming the nodes asked about")
    asked = [names.resolve(label) for label in stored]
    if None in asked:
        raise ValueError(f"stored names a node the tree does not have: {list(stored)}")
    labels = [names.name(n) for n in asked]
    truth, _ = _stored(G, window)
    how = (f"For each of {and_list(labels)} give (value returned, flag) in stored, and the later answer (a "
           "value, or the window (alpha, beta) the search goes on with) in reread.")
    reread = reread if isinstance(reread, Mapping) else {}
    if all(_blank(stored.get(lab)) for lab in stored) and all(_blank(reread.get(lab)) for lab in stored):
        return unanswered(what, how)
    rep = Report()
    wrong_nodes, readable = [], 0
    for n, lab in zip(asked, labels):
        if n not in truth:
            raise ValueError(f"{lab} is never searched with the window {window}: ask only about searched "
                             "inner nodes")
        v, flag, read, wrong = _judge_stored(rep, G, names, n, lab, stored.get(lab), truth[n], window)
        readable += read
        if wrong:
            wrong_nodes.append(n)
        read, wrong = _judge_reread(rep, lab, reread.get(lab), (v, flag), truth[n], later)
        readable += read
        if wrong and n not in wrong_nodes:
            wrong_nodes.append(n)
    fb = rep.feedback(what)
    if not fb.ok:   # the title counts parts, 3 per node (value, flag, later), whatever the lines group
        right = sum(k == "good" for k, _, _ in rep.items)
        fb.title = f"{what}: {right} of {3 * len(asked)} right."
    if readable == 0 and fb.status == "wrong":
        fb.status = "unreadable"
    return escalate("l05.window_entries", fb,
                    twin=lambda _: _window_twin(G, window, later, asked, wrong_nodes or asked))


def _blank(x):
    """An entry not answered: None, or a pair of Nones."""
    return x is None or (isinstance(x, (tuple, list)) and all(y is None for y in x))


def _judge_stored(rep, G, names, n, lab, given, right, window):
    """The learner's stored ``(value, flag)`` at node ``n`` against ``right`` (the engine's), each part a
    line in ``rep``; returns ``(value, flag, parts read, a part wrong)`` (value and flag None if unread)."""
    v_true, f_true = right
    if _blank(given):
        rep.bad(f"{lab}: value and flag not answered yet.")
        return None, None, 0, False
    try:
        v, flag = _entry_answer(given)
    except BadAnswer as exc:
        rep.bad(f"{lab}: could not read {given!r} ({exc}); give (value, flag), such as (4, 'exact').")
        return None, None, 0, False
    wrong = False
    parent = next(iter(G.predecessors(n)), None)
    minimax_v = minimax(G, n, trace=False).value
    if close(v, v_true):
        rep.good(f"{lab}: value {fmt(v)}, right.")
    else:
        wrong = True
        inherited = "the window " + ("it inherits from " + names.name(parent) + " at that moment"
                                     if parent is not None else "given at the root")
        if f_true != EXACT and close(v, minimax_v):
            rep.bad(f"{lab}: the value {fmt(v)} is what {lab} is worth, but the search does not "
                    f"find it: follow {lab} with {inherited}: where does it stop, and what has "
                    "it seen by then?",
                    tag="cut-value-as-minimax")
        elif (
            f_true != EXACT
            and any(close(v, w) for w in (*window, *_given_window(G, window, n)))
            and not close(v, v_true)
        ):
            rep.bad(f"{lab}: {fmt(v)} is a bound of the window, but this search is fail-soft: a "
                    "node returns the best value it found itself, even outside its window.",
                    tag="fail-hard-bound")
        else:
            rep.bad(f"{lab}: not the value the search returns there. Follow {lab} with "
                    f"{inherited}: which children does it look at, and when does it stop?")
    if flag == f_true:
        rep.good(f"{lab}: flag {flag!r}, right.")
    else:
        wrong = True
        rep.bad(f"{lab}: not the flag stored there. Compare the value {lab} returns with the "
                f"window {lab} was given (not the one it ends with): at or below α, at or above "
                "β, or inside?",
                tag="bound-as-value" if flag == EXACT else None)
    return v, flag, 1, wrong


def _judge_reread(rep, lab, got, mine, right, later):
    """What the entry at ``lab`` does for a later search with the window ``later``, judged from the
    learner's own stored entry ``mine`` when it is readable and differs from the ``right`` one (a wrong
    entry read consistently is not marked wrong twice); returns ``(parts read, wrong)``."""
    if got is None:
        rep.bad(f"{lab}, read later: not answered yet.")
        return 0, False
    reading = _read(got)
    if reading is None:
        rep.bad(f"{lab}, read later: could not read {got!r}{_unread_why(got)}: give a number or a window "
                "(alpha, beta).")
        return 0, False
    (v, flag), (v_true, f_true) = mine, right
    before = len(rep.items)
    own = v is not None and flag is not None and not (close(v, v_true) and flag == f_true)
    entry = {"value": v, "flag": flag, "depth": 0} if own else {"value": v_true, "flag": f_true, "depth": 0}
    name = f"{lab}, read later from your entry ({fmt(v)}, {flag!r})" if own else f"{lab}, read later"
    _judge_read(entry, later[0], later[1], 0, reading, name, rep)
    return 1, rep.items[before][0] == "bad"


def _positions(limit=60):
    game = TicTacToe()
    states = [s for s in expand(game, merge=True, depth=4) if not game.is_terminal(s)]
    states.sort(key=lambda s: (bin(s[0] | s[1]).count("1"), s))
    return states[:: max(1, len(states) // limit)][:limit]


def _truth(game, state):
    """The negamax value (for the player to move) of a tic-tac-toe position (the engine reports MAX's
    view)."""
    return (1 if game.to_move(state) == MAX else -1) * negamax(game, state, trace=False).value


def _in_window(v, true, alpha, beta):
    """Is ``v`` what alpha-beta may return for a position worth ``true`` with window (alpha, beta)? The
    same side of the window (:func:`gametrees.rules.window_bound`), and the value itself inside it."""
    side = window_bound(true, alpha, beta)
    return window_bound(v, alpha, beta) == side and (side != EXACT or v == true)


def _expect(true, alpha, beta):
    side = window_bound(true, alpha, beta)
    if side == UPPER:
        return f"at most α = {fmt(alpha)} (the true value {fmt(true)} is at or below the window)"
    if side == LOWER:
        return f"at least β = {fmt(beta)} (the true value {fmt(true)} is at or above the window)"
    return f"exactly {fmt(true)} (inside the window)"


def _all_values(game):
    """``{state: negamax value for the player to move}`` of every tic-tac-toe position (one memoised
    solve)."""
    values = {}

    def solve(s):
        if s not in values:
            values[s] = ((1 if game.to_move(s) == MAX else -1) * game.utility(s) if game.is_terminal(s)
                         else max(-solve(c) for _, c in game.successors(s)))
        return values[s]

    solve(game.initial)
    return values


def _reversed_flag(table, values):
    """An entry of a learner's ``table`` whose flag says the wrong side: ``(state, value, flag, true)`` or
    None.

    Read only where the table holds ``state -> (value, flag, ...)`` with a flag 'lower' or 'upper' (the
    lesson's layout); a lower bound above the true value, or an upper bound below it, is reversed.
    """
    for state, entry in list(table.items()):
        if state not in values or not isinstance(entry, (tuple, list)) or len(entry) < 2:
            continue
        value, flag = entry[0], entry[1]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        true = values[state]
        if (flag == UPPER and value < true) or (flag == LOWER and value > true):
            return state, value, flag, true
    return None


class _Watched(TicTacToe):
    """Tic-tac-toe that notes whether a learner's search looked at a position's children (``looked``)."""

    looked = False

    def successors(self, state):
        self.looked = True
        return super().successors(state)

    def actions(self, state):
        self.looked = True
        return super().actions(state)

    def result(self, state, move):
        self.looked = True
        return super().result(state, move)


def _lacks(ran, watched, stored):
    """What a checked negamax_with_table lacks to be a real attempt at the exercise (the code opens after
    one), or None: a search that returned a number, looked at children and stored something."""
    missing = ([] if ran else ["none of its searches returned a number"]) + (
        [] if watched.looked else ["it never looked at a position's children (game.successors, or "
                                   "game.actions and game.result): it searched nothing"]) + (
        [] if stored else ["it never stored anything in table"])
    return "; ".join(missing) or None


class _ForgetfulTable(dict):
    """A dict that never keeps anything: a search given it runs as if it had no table."""

    def __setitem__(self, key, value):
        pass

    def setdefault(self, key, default=None):
        return default

    def update(self, *args, **kwargs):
        pass


# : A solution of lesson 05's exercise 4, shown by ``check_table_search(fn, show_code=True)`` after a real
# attempt.
TABLE_SEARCH_CODE = """\
def negamax_with_table(game, state, alpha, beta, table):
    if state in table:
        value, flag = table[state]
        if flag == "exact":
            return value
        if flag == "lower":
            if value >= beta:
                return value                       # at least value >= beta: the bound settles this window
            alpha = max(alpha, value)              # else it may raise alpha
        else:
            if value <= alpha:
                return value                       # at most value <= alpha: settled
            beta = min(beta, value)                # else it may lower beta
    alpha0, beta0 = alpha, beta                    # the window this search goes on with
    if game.is_terminal(state):
        return (1 if game.to_move(state) == MAX else -1) * game.utility(state)
    value = -math.inf
    for _, child in game.successors(state):
        value = max(value, -negamax_with_table(game, child, -beta, -alpha, table))
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    table[state] = (value, "lower" if value >= beta0 else "upper" if value <= alpha0 else "exact")
    return value
"""


def check_table_search(fn, show_code=False):
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

    With ``show_code=True`` the feedback also shows a solution's code
    (:data:`TABLE_SEARCH_CODE`), but only after a real attempt: a function of
    the learner's own checked before that returned a number, looked at a
    position's children (game.successors, or game.actions and game.result) and
    stored something in the table (the starter that raises
    ``NotImplementedError``, or a one-line ``return 0``, is none); before that it
    says what the last attempt lacked instead. Checks after the code was shown
    say so and do not count as solved
    (:func:`gametrees.exercises.attempts.open_solution`).

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
    early = _table_search_opening(fn, name, show_code)
    if early is not None:
        return early
    game = TicTacToe()
    watched = _Watched()   # the learner's game: did the search look at any children?
    printed = Printed()
    rep = Report()
    states = _positions()
    truth = {s: _truth(game, s) for s in states}
    windows = [(-math.inf, math.inf), (-1, 1), (0, 1), (-1, 0), (0.5, 1), (-1, -0.5)]
    did = {"ran": False, "stored": False}   # for the real attempt the code opens after

    def run(state, alpha, beta, table):
        out = run_learner(fn, (watched, state, alpha, beta, table), printed)
        did["stored"] = did["stored"] or (isinstance(table, dict) and len(table) > 0)
        if out.problem():
            return out.problem(), None
        try:
            value = float(out.value)
        except (TypeError, ValueError):
            return f"returned {out.value!r}, not a number", None
        did["ran"] = True
        return None, value

    # Part 1: a fresh table for every call (transpositions inside one search still meet the table).
    # Part 2: one table shared by all calls, narrow windows first, as a program reuses its table.
    parts = (("With a fresh table for every search", [(s, a, b) for s in states for a, b in windows], False),
             ("With one table shared by all searches (as a program reuses it)",
              [(s, a, b) for s in states for a, b in windows[1:] + windows[:1]], True))
    passed_all = total_all = 0
    reversed_entry = None
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
            rep.good(f"{label}: all {len(calls)} searches right ({len(states)} positions, {len(windows)} "
                     "windows each).")
            continue
        s, alpha, beta, err, v = bad
        if reversed_entry is None and err is None:
            if not shared:
                table = {}
                run(s, alpha, beta, table)
            reversed_entry = _reversed_flag(table, _all_values(game))
        got = err or f"returned {fmt(v)}"
        mover = "X" if game.to_move(s) == MAX else "O"
        line = (f"{label}: {passed} of {len(calls)} right; e.g. {ttt_text(s)} ({mover} to move) with window "
                f"({fmt(alpha)}, {fmt(beta)}): your function {got}, but it should return "
                f"{_expect(truth[s], alpha, beta)}.")
        _explain_wrong_search(rep, game, line, bad, shared, reversed_entry, run, truth)
        break   # the second part only makes sense once the first passes
    printed_note(rep, printed)
    fb = checker_feedback(name, rep, passed_all, total_all, unit="searches right", key="l05.table_search",
                          twin=_table_search_twin, on="another position",
                          lacks=_lacks(did["ran"], watched, did["stored"]))
    fb.add_tags(rep.tags)
    if show_code:
        fb.items.append(("note", "A solution's code:\n" + TABLE_SEARCH_CODE, None))
    return fb


def _table_search_opening(fn, name, show_code):
    """The feedback before any search is checked, or None: the code asked for before a real attempt, a
    function that cannot be called, the starter still unchanged."""
    if show_code:
        held = open_solution("l05.table_search", "the code of check_table_search(..., show_code=True)",
                             real=True)
        if held is not None and not attempted("l05.table_search"):
            return unanswered(name, "The code opens after a real attempt: write negamax_with_table yourself "
                                    "and check it (check_table_search(negamax_with_table)) first.")
        if held is not None:
            told = (f"{held.text} Write negamax_with_table so that it searches the children as "
                    "negamax_alphabeta does and stores each value with its flag in table, check it "
                    "(check_table_search(negamax_with_table)), then ask again; the hints above say how, step "
                    "by step.")
            return Feedback(f"{name}: the code is not shown yet.", [("bad", told, None)], status="unanswered")
    problem = check_callable(fn, name, "fn(game, state, alpha, beta, table)", 5)
    if problem:
        return Feedback(
            f"{name}: your function could not be called.", [("bad", problem, None)], status="unreadable"
        )
    game = TicTacToe()
    probe = run_learner(fn, (game, game.from_string("XO./.X./..O"), -math.inf, math.inf, {}), Printed())
    if isinstance(probe.exc, NotImplementedError) or (not probe.problem() and probe.value is None):
        return unanswered(name, "Write the body of negamax_with_table (it still raises NotImplementedError "
                                "or returns None).")
    return None


def _explain_wrong_search(rep, game, line, bad, shared, reversed_entry, run, truth):
    """The first wrong search (``line`` says it): a flag the wrong way round in the learner's table, a
    bound used as if it were exact (right when the table keeps nothing), or the recursion itself."""
    s, alpha, beta, err, v = bad
    if reversed_entry is not None:
        rs, rv, rflag, rtrue = reversed_entry
        rmover = "X" if game.to_move(rs) == MAX else "O"
        rep.bad(line + f" Your table holds {ttt_text(rs)} ({rmover} to move) as ({fmt(rv)}, {rflag!r}), "
                       f"but that position is worth {fmt(rtrue)} to {rmover}: "
                       + (f"'at most {fmt(rv)}' is false; the search that stored it failed high, so "
                          f"{fmt(rv)} is a lower bound" if rflag == UPPER else
                          f"'at least {fmt(rv)}' is false; the search that stored it failed low, so "
                          f"{fmt(rv)} is an upper bound")
                       + ": a flag the wrong way round.",
                "Which α and β decide the flag: the window the search was given, or the α the loop "
                "raised?",
                tag="table-flag-reversed")
        return
    if err is None:
        # Is the same search right when the table keeps nothing? Then the table answered wrongly.
        err_alone, v_alone = run(s, alpha, beta, _ForgetfulTable())
        if err_alone is None and _in_window(v_alone, truth[s], alpha, beta):
            source = ("an entry stored under another window (by an earlier search, or earlier in this one)"
                      if shared else
                      "an entry stored earlier in this same search, when a position was reached by another "
                      "move order with another window,")
            rep.bad(line + f" With a table that keeps nothing the same search is right: {source} answered "
                           "although it did not settle the window it was asked for: a bound used as if it "
                           "were exact.",
                    "When the search stopped at a cut, or found nothing inside its window, is the value it "
                    "returned the position's value? What must the table remember with it, and which later "
                    "windows may it answer?")
            return
    rep.bad(line, error_hint(err) if err else
            "Check the recursion first (it is wrong even when the table keeps nothing): negamax "
            "values are for the player to move, utility × (+1 if MAX is to move, else -1); a child's "
            "value is negated, and its window is (-β, -α).")
    if err is None and v == -truth[s] and truth[s] != 0:
        rep.bad(
            "That value has the opposite sign: it is from the other player's point of view.",
            "In negamax every value is for the player to move at that position.",
            tag="wrong-viewpoint",
        )


def _table_search_twin(fb):
    """The mistake worked through on another position P (two moves, worth 0 and 1 to its mover)."""
    if "table-flag-reversed" in fb.tags:
        return ("a position P has two moves, worth 0 and then 1 to its mover, so P is worth 1. A search of P "
                "with the window (−1, 0) looks at the first move: 0 raises α to 0, and 0 ≥ β = 0 stops it; "
                "it returns 0. Flagged by the α the loop raised, 0 ≤ α = 0 says 'upper', 'P is worth at most "
                "0': false. Flagged by the window the search was given, saved before the loop, (−1, 0): "
                "0 ≥ β = 0 says 'lower', 'P is worth at least 0': true. A later search of P with the window "
                "(0.5, 2) would take the false 'at most 0 ≤ α' as an answer, 0, where P is worth 1; the "
                "true 'at least 0' settles nothing there (0 < β = 2) and cannot raise α (0 < 0.5): P is "
                "searched again, and found worth 1.")
    careless = "a bound used as if it were exact" in " ".join(fb.lines)
    if careless:
        return ("a position P has two moves, worth 0 and 1 to its mover, so P is worth 1. A search of P with "
                "the window (-1, 0) looks at the first move, 0 ≥ β = 0, and stops: it returns 0, which says "
                "only 'P is worth at least 0'. Stored as (0, 'lower'), it answers a later search only if 0 ≥ "
                "that search's β; a search with the window (−∞, +∞) searches P again and finds 1. Stored as "
                "a bare 0, the table would answer that search with 0: wrong.")
    return ("in negamax every value is for the player to move: a finished position where MIN is to move and "
            "X has won (utility +1) is worth -1 to MIN; the parent, X to move, negates it back to +1, and "
            "passes the child the window (-β, -α).")


# ============================================================================
# The worked answers of the lesson's exercises, after an attempt
# ============================================================================

#: Lesson 05's exercise 1 worked through (the tests check its answer passes
#: :func:`check_same_up_to_symmetry`).
SAME_UP_TO_SYMMETRY_ANSWER = (
    "A symmetry moves the whole board, so it keeps corners, edges and the centre, and which cells are "
    "next to each other. A is P turned a quarter turn clockwise (rotate 90), B its mirror left-right, C "
    "its mirror in the main diagonal, E P turned half a turn (rotate 180). D (O not next to X) and F (the "
    "marks swapped) are not in P's class. ttt.symmetries(ttt.from_string(P)) lists the eight images, in "
    "the order of SYMMETRY_NAMES.")

#: Lesson 05's exercise 2 worked through (the tests check its entries pass :func:`check_window_entries`).
WINDOW_ENTRIES_ANSWER = (
    "B gets (4, 7), sees 6 then 5: returns 5, inside its window: stored as 5, exact. A's α is now 5; C "
    "gets (5, 7), sees 3 ≤ 5 and stops: returns 3, stored as 3, upper (C is worth 1: at most 3 is all the "
    "search learnt). D gets (5, 7) and returns 8; A's value 8 ≥ β = 7: A stops before E and returns 8, "
    "stored as 8, lower (A is worth 10). Under (2, 9) only the exact entry answers: B with 5. A's \"at "
    "least 8\" is below β = 9, so it cannot answer, but it raises α: A is searched with (8, 9). C's \"at "
    "most 3\" is above α = 2: it lowers β, and C is searched with (2, 3).")

#: Lesson 05's exercise 3 worked through (the tests check its answers pass :func:`check_table_answers`).
TABLE_ANSWERS_ANSWER = (
    "At least 3 ≥ β = 2 fails high anyway: the table answers 3. Against β = 5 the value may lie inside "
    "the window: the entry cannot answer, but it raises α, and the search goes on with (3, 5). 4 plies "
    "are not enough for a 6-ply search: \"search\", with the window as it is. A 4-ply entry may stand in "
    "for a 3-ply search, and at least 3 ≥ β = 3 fails high: 3, the 4-ply bound. That is accepted practice "
    "(the deeper result is better informed), though the 3-ply search itself might have found another "
    "value (search instability). Even where the table cannot answer, move 2 is searched first.")


def solution_same_up_to_symmetry():
    """The worked answer of :func:`check_same_up_to_symmetry` (lesson 05, exercise 1), only after an
    attempt."""
    return worked_answer("l05.same_up_to_symmetry", "solution_same_up_to_symmetry()",
                         lambda: SAME_UP_TO_SYMMETRY_ANSWER)


def solution_window_entries():
    """The worked answer of :func:`check_window_entries` (lesson 05, exercise 2), only after an attempt."""
    return worked_answer("l05.window_entries", "solution_window_entries()", lambda: WINDOW_ENTRIES_ANSWER)


def solution_table_answers():
    """The worked answer of :func:`check_table_answers` (lesson 05, exercise 3), only after an attempt."""
    return worked_answer("l05.table_answers", "solution_table_answers()", lambda: TABLE_ANSWERS_ANSWER)
