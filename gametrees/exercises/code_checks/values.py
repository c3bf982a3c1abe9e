"""Checks of a learner's value functions: :func:`check_minimax` and :func:`check_expectimax`.

Also the parts :func:`~gametrees.exercises.check_alphabeta` and the lesson
checks reuse: :func:`report_smallest`, :func:`ttt_group`, :func:`ttt_text`.

May import: :mod:`gametrees.rules`, :mod:`gametrees.games`, :mod:`gametrees.search`,
:mod:`gametrees.exercises.feedback`, :mod:`gametrees.exercises.answers`,
:mod:`gametrees.exercises.by_hand` (its public names), and the harness and diagnosis of
:mod:`gametrees.exercises.code_checks`.
"""

from __future__ import annotations

from ...games import MAX, MIN, TicTacToe
from ...rules import tie_rule
from ...search import alphabeta, expectimax, minimax
from ..answers import NodeNames
from ..feedback import ROLE_NAMES, Feedback, Report, close, fmt, tagged
from .diagnosis import (
    checker_feedback,
    deepest_wrong,
    diagnose_tree,
    explain_node,
    group_line,
    inline_tree,
    printed_note,
    smallest_failure,
)
from .harness import (
    TEXTBOOK,
    TTT_POSITIONS,
    CountingTicTacToe,
    CountingTree,
    ListStateGame,
    Printed,
    StateError,
    check_callable,
    drawn_tree,
    error_hint,
    exact_values,
    expectimax_groups,
    minimax_groups,
    nested_tree,
    run_learner,
)

__all__ = ["check_expectimax", "check_minimax", "checked_variant", "report_smallest", "ttt_group", "ttt_text"]

# ============================================================================
# check_minimax
# ============================================================================


def checked_variant(variant):
    """A checker's ``variant`` argument: None or a non-empty string (else a TypeError or ValueError)."""
    if variant is None:
        return None
    if not isinstance(variant, str):
        raise TypeError(f"variant must be a str such as 'jdoe/A2/q4' (a student's seed), got {variant!r}")
    if not variant.strip():
        raise ValueError("variant must not be empty: give a student's seed such as 'jdoe/A2/q4'")
    return variant

_RESTORE_HINT = tagged((
    "Work on copies (game.result(state, move) returns a new state) or undo every move after its "
    "recursive call (game.unmake(state, move)). Beware: `child = state` does not copy a list, it gives "
    "the same list a second name."
), "state-not-restored")


def _run_suite(fn_call, groups, rep, printed, tol, engine):
    """Run ``fn_call(game, root)`` on every tree; one line per group. ``(passed, total, failures)``."""
    passed = total = 0
    failures = []
    for name, trees in groups:
        results = []
        for G in trees:
            game = CountingTree(G)
            out = run_learner(fn_call, (game, game.initial), printed, game)
            expected = engine(G, trace=False, graph=False).value
            ok = out.problem() is None and close(float(out.value), expected, tol)
            results.append((ok, G, expected, out))
            if not ok:
                failures.append((G, len(failures)))
        total += 1
        passed += group_line(rep, name, results)
    return passed, total, failures


def report_smallest(rep, fn_call, failures, printed, tol, roles=(MAX, MIN), context=True):
    """Reports the smallest failing tree and its deepest wrong node on ``rep``; ``(G, node)`` or ``(None,
    None)``."""
    G = smallest_failure(failures)
    if G is None:
        return None, None
    (text, hint), n = diagnose_tree(fn_call, G, printed, tol, roles, context)
    rep.bad(f"Smallest failing tree: {inline_tree(G)}. {text}", hint)
    return G, n


def ttt_text(s):
    """A tic-tac-toe state as quoted text, e.g. ``'XX./OO./...'`` in quotes."""
    return f"'{TicTacToe.to_string(s)}'"


def _ttt_walk(fn_call, state, printed, roles=(MAX, MIN)):
    """``(text, hint)`` at the deepest wrong position below ``state`` whose successors are right."""
    game = TicTacToe()

    def truth(s):
        return minimax(game, s, trace=False, graph=False).value

    def learner(s):
        g = CountingTicTacToe()
        return run_learner(fn_call, (g, s), printed, g)

    def wrong(out, t):
        return out.problem() is not None or not close(float(out.value), t)

    s, out = state, learner(state)
    for _ in range(10):
        pos = ttt_text(s)
        got = out.problem() or f"returned {fmt(out.value)}"
        if game.is_terminal(s):
            u = game.utility(s)
            what = {1: "X has three in a row", -1: "O has three in a row", 0: "a draw: the board is full"}[u]
            hint = error_hint(out.problem())
            if not out.problem() and u == 0 and out.value == -1:
                hint = tagged("A draw is worth 0, between a win (+1) and a loss (-1): scoring it as a loss "
                              "makes your player avoid safe draws.", "terminal-misscored")
            elif not out.problem() and close(float(out.value), -u) and u != 0:
                hint = tagged(
                    "Utilities are from MAX's (X's) point of view, whoever is to move.", "wrong-viewpoint"
                )
            return (f"At {pos} the game is over ({what}), so it is worth game.utility(state) = {fmt(u)}; "
                    f"your function {got}."), hint
        kids = game.successors(s)
        below = None
        listing = []
        for m, c in kids:
            c_out, t = learner(c), truth(c)
            if wrong(c_out, t):
                below = (c, c_out)
                break
            listing.append((m, t))
        if below is not None:
            s, out = below
            continue
        player = game.to_move(s)
        v = truth(s)
        values = [t for _, t in listing]
        text = (f"At {pos} ({'X' if player == MAX else 'O'} = {ROLE_NAMES[player]} to move), your function "
                f"{got}, but its moves lead to positions worth "
                f"{', '.join(f'cell {m}: {fmt(t)}' for m, t in listing)} (your function gets those right), "
                f"so it is worth {fmt(v)}, the {'largest' if player == MAX else 'smallest'}.")
        hint = error_hint(out.problem())
        if hint is None and not out.problem() and player in roles:
            other = min(values) if player == MAX else max(values)
            if close(float(out.value), other) and not close(other, v):
                hint = tagged(f"You took the {'smallest' if player == MAX else 'largest'} value: ask whose "
                              "turn it is with game.to_move(state).", "roles-inverted")
        return text, hint
    return f"Your function gets {ttt_text(state)} wrong.", None


def ttt_group(fn_call, rep, printed, counts=None, roles=(MAX, MIN), strict=None):
    """Values on tic-tac-toe positions (and, with ``counts``, leaves evaluated vs the engine: either tie
    rule's, or only the tie rule ``strict``'s when given)."""
    game = TicTacToe()
    rows = []
    for text in TTT_POSITIONS:
        s = TicTacToe.from_string(text)
        g = CountingTicTacToe()
        out = run_learner(fn_call, (g, s), printed, g)
        expected = minimax(game, s, trace=False, graph=False).value
        ok = out.problem() is None and close(float(out.value), expected)
        rows.append((ok, s, expected, out, len(g.evaluated)))
    wrong = [r for r in rows if not r[0]]
    if not wrong:
        rep.good(f"tic-tac-toe positions: right on all {len(rows)}.")
        ok = True
    else:
        _, s, expected, out, _ = min(wrong, key=lambda r: (9 - bin(r[1][0] | r[1][1]).count("1")))
        mover = "X" if game.to_move(s) == MAX else "O"
        got = out.problem() or f"returned {fmt(out.value)}"
        rep.bad(f"tic-tac-toe positions: {len(rows) - len(wrong)} of {len(rows)} right; e.g. {ttt_text(s)} "
                f"({mover} to move) is worth {fmt(expected)}, your function {got}.")
        rep.bad(*_ttt_walk(fn_call, s, printed, roles))
        ok = False
    if counts is not None and not wrong:
        learner = [r[4] for r in rows]
        counted = {s: [alphabeta(game, r[1], strict=s, trace=False).stats["leaves_evaluated"] for r in rows]
                   for s in (False, True)}
        matches = [s for s in ((strict,) if strict is not None else (False, True)) if learner == counted[s]]
        if matches:
            rep.good(f"tic-tac-toe positions: the same number of leaves as alpha-beta with the "
                     f"{tie_rule(matches[0])} rule ({sum(learner)} in all).")
        else:
            rep.bad(f"tic-tac-toe positions: your function evaluates {sum(learner)} terminal positions "
                    "in all; "
                    + (f"alpha-beta with the {tie_rule(strict)} rule evaluates {sum(counted[strict])}."
                       if strict is not None else
                       f"alpha-beta evaluates {sum(counted[False])} (textbook rule) or "
                       f"{sum(counted[True])} (strict rule)."))
            ok = False
    return ok


def _mutable_group(fn_call, rep, printed, tol, diagnose=True):
    """The function on a game with mutable list states: values right and states left as they were."""
    name = "a game whose states are mutable lists (with make/unmake)"
    trees = [nested_tree(TEXTBOOK), nested_tree(drawn_tree(11, depth=4)), minimax_groups()[3][1][0]]
    results = []
    for G in trees:
        game = ListStateGame(G)
        s = []
        out = run_learner(fn_call, (game, s), printed, game)
        expected = minimax(G, trace=False, graph=False).value
        ok = out.problem() is None and close(float(out.value), expected, tol) and s == []
        results.append((ok, G, expected, out, list(s)))
    errors = [r[3].error or "" for r in results if not r[0]]
    if errors and all("unhashable" in e for e in errors):
        rep.note(f"Skipped {name}: your function needs hashable states ({errors[0]}).")
        return None
    fails = [r for r in results if not r[0]]
    if not fails:
        rep.good(f"{name}: right, and every state is left as it was.")
        return True
    _, G, expected, out, after = min(fails, key=lambda r: r[1].number_of_nodes())
    got = out.problem() or f"returned {fmt(out.value)}"
    changed = f", leaving the state as {after} instead of []" if after else ""
    rep.bad(f"{name}: {len(results) - len(fails)} of {len(results)} right; e.g. {inline_tree(G, 100)} "
            f"is worth {fmt(expected)}, your function {got}{changed}.")
    state_trouble = any(r[4] or isinstance(r[3].exc, StateError) for r in fails)
    if not state_trouble and not diagnose:
        return False  # the same mistake as on the trees above
    nodes, truth = NodeNames(G), exact_values(G)
    bad, seen = set(), {}
    for n in G:
        game = ListStateGame(G)
        s = list(n)
        o = run_learner(fn_call, (game, s), printed, game)
        seen[n] = (o, list(s))
        if o.problem() or not close(float(o.value), truth.nodes[n]["value"], tol) or s != list(n):
            bad.add(n)
    n = deepest_wrong(G, nodes, bad)
    if n is None:
        rep.bad("Called at each node separately your function is right; only the whole search goes wrong: "
                "a state is changed and not restored between sibling calls.", _RESTORE_HINT)
        return False
    o, after = seen[n]
    where = f"At {nodes.name(n)} (state {list(n)})"
    if after != list(n):
        did = f"{o.problem()}, leaving" if o.problem() else "returned with"
        rep.bad(f"{where}, your function {did} the state changed to {after}: a move made in "
                f"{nodes.name(n)}'s loop was never undone, so the next child is searched from the wrong "
                "position.",
                _RESTORE_HINT)
    elif o.problem() and isinstance(o.exc, StateError):
        rep.bad(f"{where}, your function {o.problem()}.", _RESTORE_HINT)
    else:
        got = o if o.problem() else o.value
        text, hint = explain_node(G, nodes, truth, n, got, state_text=repr(list(n)))
        rep.bad(text, hint or (_RESTORE_HINT if state_trouble else None))
    return False


def check_minimax(fn, *, tictactoe=True, mutable=True, variant=None):
    """Check a learner's minimax ``fn(game, state) -> value``.

    ``fn`` is written against the game protocol (``game.is_terminal``,
    ``game.utility``, ``game.to_move``, ``game.actions``, ``game.result``)
    and returns the state's minimax value from MAX's point of view. It is run
    on the textbook tree ``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]``, small trees,
    MIN-rooted trees, trees where turns do not alternate, ragged trees,
    negative and fractional values, a game whose states are mutable lists
    (``mutable``) and tic-tac-toe positions (``tictactoe``). Values are
    compared with :func:`gametrees.minimax`.

    On a failure the feedback names the smallest failing tree and the deepest
    node whose value is wrong while its children's are right (found by
    calling ``fn`` at every node), says what the value should be and why, and
    points to the likely slip: roles inverted (MAX and MIN, or turns assumed
    to alternate), utilities mis-scored, or a state not restored after a
    child's search. Exceptions in ``fn`` are reported, never raised.

    Parameters
    ----------
    fn : callable
        ``fn(game, state) -> number``.
    tictactoe : bool
        Also check tic-tac-toe positions (a few empty cells each).
    mutable : bool
        Also check a game whose states are lists, with ``game.result``
        (a copy) and ``game.make`` / ``game.unmake`` (in place).
    variant : str, optional
        A student's variant (e.g. ``"jdoe/A1/q3"``): the drawn trees (ragged,
        fractional) are made from it, so every variant is checked on its own
        trees (see :func:`~gametrees.exercises.code_checks.harness.drawn_seed`).

    Returns
    -------
    Feedback
        ``.tree`` is the smallest failing tree (or None).

    Examples
    --------
    >>> def minimax_value(game, state):
    ...     if game.is_terminal(state):
    ...         return game.utility(state)
    ...     values = [minimax_value(game, game.result(state, m)) for m in game.actions(state)]
    ...     return max(values)   # forgets that MIN picks the smallest
    >>> fb = check_minimax(minimax_value, tictactoe=False, mutable=False)
    >>> fb.ok
    False
    >>> print(fb.lines[-1])
    ✗ Smallest failing tree: A:min(B=4, C=9). At A (state ()), your function returned 9, but A is a MIN node
    (game.to_move gives 'min') whose children are worth B = 4, C = 9 (your function gets those right), so A is
    worth 4, the smallest.
    >>> print(fb.hints[-1])
    You took the largest value, but MIN picks the smallest. Ask whose turn it is at A.
    """
    problem = check_callable(fn, "check_minimax", "fn(game, state)", 2)
    if problem:
        return Feedback("check_minimax: your function could not be called.", [("bad", problem, None)])
    rep, printed = Report(), Printed()
    groups = minimax_groups(checked_variant(variant))
    passed, total, failures = _run_suite(fn, groups, rep, printed, 1e-9, minimax)
    G, _ = report_smallest(rep, fn, failures, printed, 1e-9)
    if mutable:
        r = _mutable_group(fn, rep, printed, 1e-9, diagnose=not failures)
        if r is not None:
            total += 1
            passed += r
    if tictactoe:
        total += 1
        passed += ttt_group(fn, rep, printed)
    printed_note(rep, printed)
    fb = checker_feedback("check_minimax", rep, passed, total)
    fb.tree = G
    return fb


# ============================================================================
# check_expectimax
# ============================================================================


def check_expectimax(fn, *, variant=None):
    """Check a learner's expectimax ``fn(game, state) -> value``.

    Chance nodes are those where ``game.to_move(state) == "chance"``;
    ``game.chances(state)`` lists ``(move, probability)`` pairs. ``fn`` is run
    on trees with equal and unequal probabilities, a chance root, a MIN root,
    chance under chance, MAX/chance/MIN trees and fractional values, and
    compared with :func:`gametrees.expectimax`. Feedback names the deepest
    wrong node and the usual slips at chance nodes: taking the minimum (or
    maximum), or a plain, unweighted mean. A ``variant`` (a student's seed,
    as in :func:`check_minimax`) draws that student's own mixed trees.

    Examples
    --------
    >>> def plain_mean(game, state):
    ...     if game.is_terminal(state):
    ...         return game.utility(state)
    ...     values = [plain_mean(game, game.result(state, m)) for m in game.actions(state)]
    ...     player = game.to_move(state)
    ...     if player == "chance":
    ...         return sum(values) / len(values)    # ignores the probabilities
    ...     return max(values) if player == "max" else min(values)
    >>> fb = check_expectimax(plain_mean)
    >>> print(fb.hints[-1])
    You took the plain average, but B's outcomes are not equally likely: weight each by its probability, 0.25
    × 3 + 0.75 × 12.
    """
    problem = check_callable(fn, "check_expectimax", "fn(game, state)", 2)
    if problem:
        return Feedback("check_expectimax: your function could not be called.", [("bad", problem, None)])
    rep, printed = Report(), Printed()
    groups = expectimax_groups(checked_variant(variant))
    passed, total, failures = _run_suite(fn, groups, rep, printed, 1e-6, expectimax)
    G, _ = report_smallest(rep, fn, failures, printed, 1e-6)
    printed_note(rep, printed)
    fb = checker_feedback("check_expectimax", rep, passed, total)
    fb.tree = G
    return fb
