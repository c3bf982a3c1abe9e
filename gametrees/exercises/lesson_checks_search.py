"""The checks of lessons 03-05's reasoning exercises: move ordering, scales and quiet positions, transposition tables.

:func:`check_pruning_order` (lesson 03: arrange a tree's children so that
alpha-beta prunes the most), :func:`check_table_answers` (lesson 05: which
searches a stored table entry may answer, and with what value) and
:func:`check_table_search` (lesson 05: a learner's negamax alpha-beta with a
transposition table that stores bounds), :func:`check_scale_choices` (lesson
04: which move a depth-1 and a depth-2 search play when a win is scored 1 or
on the estimates' scale) and :func:`check_quiet_positions` (lesson 04: which
positions quiescence evaluates). Every expected answer comes from the
engine (:func:`~gametrees.alphabeta`, :func:`~gametrees.negamax`) or from the
rule the lesson states; a check on an unanswered exercise says only that it is
unanswered.

May import: :mod:`gametrees.games`, :mod:`gametrees.search`,
:mod:`gametrees.trees`, and the ``feedback``, ``answers`` and ``code_checks``
modules of :mod:`gametrees.exercises`.
"""

from __future__ import annotations

import math
import numbers

from ..games import MAX, MIN, ConnectFour, TicTacToe
from ..search import alphabeta, negamax
from ..trees import expand, tree_from_nested
from .answers import BadAnswer, parse_value
from .code_checks.diagnosis import checker_feedback, printed_note
from .code_checks.harness import Printed, check_callable, error_hint, run_learner
from .code_checks.values import ttt_text
from .feedback import Feedback, Report, fmt

__all__ = ["check_pruning_order", "check_quiet_positions", "check_scale_choices", "check_table_answers",
           "check_table_search"]

_ORDINAL = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def _unanswered(what, how):
    return Feedback(f"{what}: not answered yet.", [("bad", how, None)])


# ============================================================================
# check_pruning_order (lesson 03)
# ============================================================================

def _two_level(tree, what, fewest=2):
    """``tree`` as a list of lists of numbers (a MAX root over MIN nodes over leaves), or a ValueError."""
    ok = (isinstance(tree, (list, tuple)) and len(tree) >= fewest
          and all(isinstance(c, (list, tuple)) and len(c) >= 1 for c in tree)
          and all(isinstance(x, numbers.Real) and not isinstance(x, bool) for c in tree for x in c))
    if not ok:
        raise ValueError(f"{what} must be a list of at least {fewest} lists of numbers (a MAX root over MIN nodes "
                         f"over leaves), such as [[3, 12, 8], [2, 4, 6]]; got {tree!r}")
    return [list(c) for c in tree]


def _leaves_evaluated(nested):
    return alphabeta(tree_from_nested(nested), trace=False).stats["leaves_evaluated"]


def _fewest(nested):
    """The arrangement that prunes the most: the best MIN node first, and the smallest leaf first under each."""
    return [sorted(c) for c in sorted(nested, key=lambda c: (-min(c), len(c)))]


def check_pruning_order(tree, answer):
    """Check a rearrangement of a two-level tree that should make alpha-beta prune the most (lesson 03).

    ``tree`` is a MAX root over MIN nodes over leaves, as nested lists, e.g.
    ``[[5, 9, 7], [4, 8, 2], [6, 10, 11]]``. The learner may reorder the MIN
    nodes and, under each, its leaves (nothing else), so that alpha-beta
    (textbook rule, children left to right) evaluates as few leaves as
    possible. The fewest is measured with the engine on the arrangement
    "best MIN node first, smallest leaf first" (the Knuth-Moore count
    ``2b - 1`` on a uniform tree).

    The feedback names what the learner's order costs and why: a first MIN
    node that is not the best (so α starts too low, and the best node must
    be searched to its end), or a later MIN node whose first leaf is above α
    although a leaf at most α exists (so it cannot stop after one leaf).

    Examples
    --------
    >>> tree = [[5, 9, 7], [4, 8, 2], [6, 10, 11]]
    >>> check_pruning_order(tree, [[6, 10, 11], [2, 4, 8], [5, 7, 9]]).ok
    True
    >>> check_pruning_order(tree, None)
    ✗ Order for the most pruning: not answered yet.
    ✗ Give the tree with its children rearranged: nested lists, one list of leaves per MIN node, in the order alpha-beta should search them.
    """
    what = "Order for the most pruning"
    tree = _two_level(tree, "tree")
    if answer is None or (isinstance(answer, (list, tuple)) and len(answer) == 0):
        return _unanswered(what, "Give the tree with its children rearranged: nested lists, one list of leaves per "
                                 "MIN node, in the order alpha-beta should search them.")
    try:
        mine = _two_level(answer, "your answer", fewest=1)
    except ValueError:
        return Feedback(f"{what}: not a tree.", [("bad", f"Give nested lists of numbers with the same shape as "
                                                         f"the tree, one list per MIN node; you gave {answer!r}.",
                                                  None)])
    rep = Report()
    # The same tree: the same MIN nodes (as multisets of leaves), in any order.
    want = sorted(sorted(c) for c in tree)
    got = sorted(sorted(c) for c in mine)
    if got != want:
        extra = [c for c in mine if sorted(c) not in want]
        missing = [c for c in tree if sorted(c) not in got]
        if len(mine) != len(tree):
            rep.bad(f"The tree has {len(tree)} MIN nodes under the root; your answer has {len(mine)}.")
        if extra:
            rep.bad(f"Your MIN node with leaves {extra[0]} is not in the tree: you may only reorder a node's "
                    f"leaves and the nodes themselves, never move a leaf to another node or change it.")
        if missing:
            rep.bad(f"The tree's MIN node with leaves {missing[0]} is missing from your answer.")
        if not rep.items:
            rep.bad("Your answer repeats one MIN node and leaves out another: each must appear once.")
        return Feedback(f"{what}: not a rearrangement of the tree.", rep.items)
    best = _fewest(tree)
    fewest, used = _leaves_evaluated(best), _leaves_evaluated(mine)
    total = sum(len(c) for c in tree)
    if used == fewest:
        rep.good(f"Alpha-beta evaluates {used} of the {total} leaves, the fewest any order allows: the best MIN "
                 f"node (worth {min(mine[0])}) comes first, so α = {min(mine[0])} is known early, and every later "
                 f"MIN node stops at its first leaf, which is at most α.")
        return Feedback(f"{what}: right.", rep.items)
    rep.bad(f"Alpha-beta evaluates {used} of the {total} leaves in your order; another order needs only {fewest}.")
    top = max(min(c) for c in tree)
    if min(mine[0]) < top:
        later = next(i for i, c in enumerate(mine) if min(c) == top)
        rep.bad(f"Your first MIN node is worth {min(mine[0])}, but your {_ORDINAL[later]} is worth {top}: when it "
                f"comes, α is below {top}, so none of its leaves is at most α and it is searched to its end as "
                f"well. With the best node first, α = {top} from the start.",
                "MAX's best child should be searched first: the higher α is early, the sooner later MIN nodes stop.")
    alpha = -math.inf
    for i, c in enumerate(mine):
        if i and c[0] > alpha and min(c) <= alpha:
            small = [x for x in c if x <= alpha]
            rep.bad(f"Your {_ORDINAL[i]} MIN node (leaves {c}) starts with {fmt(c[0])} > α = "
                    f"{fmt(alpha)}, so it cannot stop there; with {fmt(small[0])} first it would stop after one "
                    f"leaf.", "Under a MIN node searched later, put a leaf at most α first: MIN can then already "
                              "hold MAX to α or less, and the other leaves cannot matter.")
        alpha = max(alpha, min(c))
    return Feedback(f"{what}: {used} leaves evaluated, {fewest} is possible.", rep.items)


# ============================================================================
# check_table_answers (lesson 05)
# ============================================================================

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
        return _unanswered(what, 'Give one answer per search: the value the table answers with, or "search".')
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


# ============================================================================
# check_table_search (lesson 05)
# ============================================================================

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


# ============================================================================
# check_scale_choices (lesson 04): which move each depth plays, with utilities on the wrong or the right scale
# ============================================================================

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
        return _unanswered(what, how)
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


# ============================================================================
# check_quiet_positions (lesson 04): which positions quiescence evaluates
# ============================================================================

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
        return _unanswered(what, f"Give the set of the names of the quiet positions (of {', '.join(status)}), "
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
