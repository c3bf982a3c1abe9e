"""The checks the grader adds after a student submits: :data:`HIDDEN`, :func:`run_hidden`, :func:`here`.

A code question's check in the student's notebook runs the checks the student
can run there; the grader runs the same checks, then a few more that the
notebook does not show (:data:`HIDDEN`, on trees drawn from the student's own
variant). Each has a name that says what it checks, e.g. "ties: a later equal
child must not replace the best move"; the feedback after grading names those
that failed, by name only: never the hidden tree, its leaves or the value
expected (:func:`with_hidden`).

:func:`here` words a check's feedback in the notebook as what it is: the checks
the student can run there ("the checks you can run here passed (11 of 11: the
textbook tree, small trees, ...); the grader checks more after you submit"),
never "all checks passed" as if that were the grade.

May import: :mod:`gametrees.rules`, :mod:`gametrees.games`,
:mod:`gametrees.search`, :mod:`gametrees.trees` and the public names of the modules of
:mod:`gametrees.exercises`.
"""

from __future__ import annotations

import math
import re

from ..exercises.code_checks.harness import CountingTree, Printed, drawn_seed, drawn_tree, run_learner
from ..exercises.code_checks.pruning import visited_leaves
from ..exercises.feedback import Feedback, close
from ..games import CHANCE, MAX, MIN
from ..rules import EXACT, LOWER, TIE_RULES, UPPER, strict_rule, window_bound
from ..search import alphabeta, expectimax, minimax
from ..trees import tree_from_nested

INF = math.inf


def _tree(spec, root=MAX):
    return tree_from_nested(spec, root_player=root)


def _drawn(variant, key, root=MAX, **settings):
    return _tree(drawn_tree(drawn_seed(f"hidden/{key}", variant), **settings), root)


# ============================================================================
# The hidden test trees (drawn from the variant)
# ============================================================================


def _wide(variant):
    return [_drawn(variant, "wide1", depth=2, branching=(6, 8), ragged=False),
            _drawn(variant, "wide2", MIN, depth=2, branching=(6, 7), ragged=False)]


def _deep(variant):
    return [_drawn(variant, "deep1", depth=7, branching=(1, 2), ragged=True),
            _drawn(variant, "deep2", MIN, depth=6, branching=(1, 3), ragged=True)]


def _value(engine):
    def value(G):
        return engine(G, trace=False, graph=False).value
    return value


def _values_right(fn, trees, engine, window=False):
    """Whether ``fn`` returns the engine's value at every tree's root."""
    printed = Printed()
    for G in trees:
        game = CountingTree(G)
        args = (game, game.initial, -INF, INF) if window else (game, game.initial)
        out = run_learner(fn, args, printed, game)
        if out.problem() is not None or not close(float(out.value), _value(engine)(G)):
            return False
    return True


def _below_root(fn, variant, window=False):
    """``fn`` started at every inner node below the root of a drawn tree returns that node's value."""
    G = _drawn(variant, "below", depth=4, branching=(2, 3), ragged=True)
    printed = Printed()
    for n in G:
        if n == G.graph["root"] or not G.out_degree(n):
            continue
        game = CountingTree(G)
        out = run_learner(fn, (game, n, -INF, INF) if window else (game, n), printed, game)
        expected = minimax(G, n, trace=False, graph=False).value
        if out.problem() is not None or not close(float(out.value), expected):
            return False
    return True


def _leaves_as_rule(fn, trees, rule):
    """``fn``'s evaluated leaves are alpha-beta's with ``rule`` (either rule when None) on every tree."""
    printed = Printed()
    for G in trees:
        game = CountingTree(G)
        out = run_learner(fn, (game, game.initial, -INF, INF), printed, game)
        if out.problem() is not None:
            return False
        seen = list(dict.fromkeys(game.evaluated))
        rules = [rule] if rule else TIE_RULES
        if not any(seen == visited_leaves(alphabeta(G, strict=strict_rule(r), trace=True), G) for r in rules):
            return False
    return True


def _windows(fn, variant):
    """Called with a window (α, β) other than (-∞, +∞), ``fn`` returns the value when it lies inside,
    a value ≤ α when the value is ≤ α and ≥ β when it is ≥ β (fail-hard and fail-soft both pass)."""
    printed = Printed()
    for key in ("window1", "window2"):
        G = _drawn(variant, key, depth=3, branching=(2, 3), ragged=False)
        v = minimax(G, trace=False, graph=False).value
        for alpha, beta in ((v - 1, v + 1), (v + 1, v + 3), (v - 3, v - 1), (v, v + 2), (v - 2, v)):
            game = CountingTree(G)
            out = run_learner(fn, (game, game.initial, alpha, beta), printed, game)
            if out.problem() is not None:
                return False
            got = float(out.value)
            side = window_bound(v, alpha, beta)   # what the value is for this window (gametrees.rules)
            if side == EXACT and not close(got, v):
                return False
            if side == UPPER and got > alpha + 1e-9:
                return False
            if side == LOWER and got < beta - 1e-9:
                return False
    return True


def _counts_right(fn, trees, rule):
    """``fn`` (alpha-beta returning the number of leaves it evaluated) returns the number it evaluated,
    alpha-beta's with ``rule`` (either rule when None), on every tree."""
    printed = Printed()
    for G in trees:
        game = CountingTree(G)
        out = run_learner(fn, (game, game.initial, -INF, INF), printed, game)
        rules = [rule] if rule else TIE_RULES
        expected = [len(visited_leaves(alphabeta(G, strict=strict_rule(r), trace=True), G)) for r in rules]
        if out.error or out.value != len(game.evaluated) or len(game.evaluated) not in expected:
            return False
    return True


def _chance_trees(variant):
    mixed = {"players": (MAX, CHANCE, MIN), "probabilities": "varied", "ragged": False}
    return [_drawn(variant, "chance-wide", depth=3, branching=(3, 4), **mixed),
            _drawn(variant, "chance-deep", depth=5, branching=(2, 2), **mixed)]


def _best_moves_right(fn, trees):
    """``fn`` returns a best move at every tree's root."""
    printed = Printed()
    for G in trees:
        game = CountingTree(G)
        root = G.graph["root"]
        values = {c: minimax(G, c, trace=False, graph=False).value for c in G.successors(root)}
        best = (max if G.nodes[root]["player"] == MAX else min)(values.values())
        out = run_learner(fn, (game, game.initial), printed, game)
        try:
            ok = out.error is None and out.value in values and values[out.value] == best
        except TypeError:
            ok = False
        if not ok:
            return False
    return True


def _tie_trees(variant):
    """Trees where the textbook rule cuts a later child short at a value equal to the best so far: that
    child's search returns a bound equal to the best value, not its (worse) value."""
    import random

    rng = random.Random(drawn_seed("hidden/ties", variant))
    out = []
    for root in (MAX, MIN):
        x = rng.randint(3, 15)
        worse = x - rng.randint(1, 3) if root == MAX else x + rng.randint(1, 3)
        other = x + rng.randint(1, 4) if root == MAX else x - rng.randint(1, 4)
        first = [x, other] if rng.random() < 0.5 else [other, x]
        out.append(_tree([first, [x, worse]], root))
    return out


def _best_move_ties(fn, variant):
    return _best_moves_right(fn, _tie_trees(variant))


def large_value_trees(variant, chance=False):
    """The trees of the check "large values": every leaf beyond ±1000, so that a best value started at
    -999 (not -∞) stays there. ``variant``: the student's (None: everyone's)."""
    mixed = {"players": (MAX, CHANCE, MIN), "probabilities": "varied"} if chance else {}
    return [_drawn(variant, "large1", depth=3, branching=(2, 3), values=(-10**6, -10**4), **mixed),
            _drawn(variant, "large2", MIN, depth=3, branching=(2, 3), values=(10**4, 10**6), **mixed)]


def _always(options):
    return True


#: The checks the grader adds, per check: ``[(name, run(fn, options) -> passed, applies(options))]``.
#: ``options`` are the question's (``variant``, ``rule``, ``alphabeta``, ...); a check applies to a
#: question only when ``applies(options)`` is true.
HIDDEN = {
    "check_minimax": [
        ("large values (every leaf beyond ±1000)",
         lambda fn, o: _values_right(fn, large_value_trees(o.get("variant")), minimax), _always),
        ("wide trees (6 or more moves at a node)",
         lambda fn, o: _values_right(fn, _wide(o.get("variant")), minimax), _always),
        ("deep trees (up to 7 moves from the root to a leaf)",
         lambda fn, o: _values_right(fn, _deep(o.get("variant")), minimax), _always),
        ("a search started below the root (each inner node as the state)",
         lambda fn, o: _below_root(fn, o.get("variant")), _always),
    ],
    "check_alphabeta": [
        ("large values (every leaf beyond ±1000)",
         lambda fn, o: _values_right(fn, large_value_trees(o.get("variant")), minimax, True), _always),
        ("wide and deep trees: the value",
         lambda fn, o: _values_right(fn, _wide(o.get("variant")) + _deep(o.get("variant")), minimax, True),
         _always),
        ("wide and deep trees: the leaves evaluated",
         lambda fn, o: _leaves_as_rule(fn, _wide(o.get("variant")) + _deep(o.get("variant")), o.get("rule")),
         _always),
        ("a window given by the caller (not (-∞, +∞)): the value inside it, a bound outside it",
         lambda fn, o: _windows(fn, o.get("variant")), _always),
    ],
    "check_expectimax": [
        ("large values (every leaf beyond ±1000)",
         lambda fn, o: _values_right(fn, large_value_trees(o.get("variant"), chance=True), expectimax),
         _always),
        ("wide chance nodes and varied probabilities",
         lambda fn, o: _values_right(fn, _chance_trees(o.get("variant"))[:1], expectimax), _always),
        ("deep trees (chance at every third level, 5 levels)",
         lambda fn, o: _values_right(fn, _chance_trees(o.get("variant"))[1:], expectimax), _always),
    ],
    "check_leaf_count": [
        ("wide and deep trees: the number of leaves",
         lambda fn, o: _counts_right(fn, _wide(o.get("variant")) + _deep(o.get("variant")), o.get("rule")),
         _always),
    ],
    "check_best_move": [
        ("large values (every leaf beyond ±1000)",
         lambda fn, o: _best_moves_right(fn, large_value_trees(o.get("variant"))), _always),
        ("wide trees (6 or more moves at the root)",
         lambda fn, o: _best_moves_right(fn, _wide(o.get("variant"))), _always),
        ("ties: a later equal child must not replace the best move",
         lambda fn, o: _best_move_ties(fn, o.get("variant")), lambda o: bool(o.get("alphabeta"))),
    ],
}


def hidden_names(check, options=None):
    """The names of the checks the grader adds to ``check`` for a question with ``options`` (empty for a
    check it adds none to).

    Examples
    --------
    >>> hidden_names("check_best_move")
    ['large values (every leaf beyond ±1000)', 'wide trees (6 or more moves at the root)']
    >>> hidden_names("check_best_move", {"alphabeta": True})[-1]
    'ties: a later equal child must not replace the best move'
    >>> hidden_names("check_connect4_evaluation")
    []
    """
    return [name for name, _, applies in HIDDEN.get(check, ()) if applies(options or {})]


def run_hidden(check, fn, options, *, stand_in=None, own=True, stop=()):
    """``[(name, passed)]``: the grader's added checks of ``check`` on ``fn`` (run for the grader only).

    ``stand_in``, for a best move that calls the learner's own value function (``uses``): a function
    giving a context in which a correct value function stands in for the learner's (see
    :func:`gametrees.classroom.checks.swapped`). A check that fails with the learner's own is run
    again there, as :func:`~gametrees.classroom.checks.check_best_move` grades the move; it passes
    if it passes either way. ``own=False`` runs it there only (the learner's own value function did
    not finish). ``stop``: the exceptions that say a call ran past its limit (the grader's); the check
    running then fails, named "(it did not finish: ...)", and the rest are not run.

    Examples
    --------
    >>> def value(game, state):
    ...     if game.is_terminal(state):
    ...         return game.utility(state)
    ...     values = [value(game, game.result(state, m)) for m in game.actions(state)]
    ...     return max(values) if game.to_move(state) == "max" else min(values)
    >>> def best(game, state):   # the best value so far starts at -999 (or 999), not -∞ (or +∞)
    ...     maximizing = game.to_move(state) == "max"
    ...     best_move, best_value = None, -999 if maximizing else 999
    ...     for move in game.actions(state):
    ...         v = value(game, game.result(state, move))
    ...         if (v > best_value) if maximizing else (v < best_value):
    ...             best_move, best_value = move, v
    ...     return best_move
    >>> for name, ok in run_hidden("check_best_move", best, {}):
    ...     print("✓" if ok else "✗", name)
    ✗ large values (every leaf beyond ±1000)
    ✓ wide trees (6 or more moves at the root)
    """
    out = []
    for name, run, applies in HIDDEN.get(check, ()):
        if not applies(options):
            continue
        try:
            ok = bool(run(fn, options)) if own or stand_in is None else False
            if not ok and stand_in is not None:
                with stand_in() as swapped_names:
                    ok = bool(swapped_names) and bool(run(fn, options))
        except stop as exc:
            out.append((f"{name} (it did not finish: {exc})", False))
            break
        out.append((name, ok))
    return out


# ============================================================================
# Wording: the checks run here, and the grader's added ones
# ============================================================================


def _names(fb):
    """The names of the checks a feedback's ✓ and ✗ lines report (each once, the words before ':' or '(')."""
    names = []
    for kind, text, _ in fb.items:
        if kind == "note":
            continue
        name = re.split(r"\s[(\[]|:", text, maxsplit=1)[0].strip()
        detail = name.startswith(("Smallest failing tree", "On ", "At ", "Your "))  # not a check's name
        if name and name not in names and not detail:
            names.append(name)
    return names


_COUNTED = re.compile(r"^(?P<check>[\w ]+): (?:all (?P<all>\d+)|(?P<k>\d+) of (?P<n>\d+)) checks passed\.$")


def _counted(fb, check):
    """``(check, passed, total)`` of a check's feedback whose title counts its checks (else None): from the
    check's own count (``fb.checks``), or read from a title ``'name: k of N checks passed.'``."""
    m = _COUNTED.match(fb.title)
    if m is None:
        return None
    if getattr(fb, "checks", None) is not None:
        return (m.group("check"), *fb.checks)
    return m.group("check"), int(m.group("all") or m.group("k")), int(m.group("all") or m.group("n"))


def here(fb, check):
    """``fb`` (a check's feedback in the student's notebook) titled as what ran there.

    Passed: "the checks you can run here passed (N of N: names); the grader checks more after you
    submit" (or "runs them again on what you submit" for a check the grader adds nothing to).
    Partly right: "k of the N checks you can run here passed". A check not written yet, refused or
    stopped keeps its title. Changed in place and returned.

    Examples
    --------
    >>> fb = Feedback("check_minimax: all 2 checks passed.", [
    ...     ("good", "the textbook tree [[3, 12]]: right.", None), ("good", "MIN at the root: right.", None)])
    >>> print(here(fb, "check_minimax").title.replace("; ", ";\\n"))
    check_minimax: the checks you can run here passed (2 of 2: the textbook tree, MIN at the root);
    the grader checks more after you submit.
    >>> fb = Feedback("check_minimax: 1 of 2 checks passed.", [("good", "small trees: right.", None),
    ...                                                     ("bad", "ragged trees: 0 of 2 right.", None)])
    >>> print(here(fb, "check_minimax").title)
    check_minimax: 1 of the 2 checks you can run here passed; the grader checks more after you submit.
    """
    counted = _counted(fb, check)
    if counted is None:
        return fb
    more = ("the grader checks more after you submit" if HIDDEN.get(check)
            else "the grader runs them again on what you submit")
    name, k, n = fb.counted = counted
    if k == n:
        names = _names(fb)
        listed = f": {', '.join(names)}" if len(names) == n else ""
        fb.title = f"{name}: the checks you can run here passed ({n} of {n}{listed}); {more}."
    else:
        fb.title = f"{name}: {k} of the {n} checks you can run here passed; {more}."
    fb.here = True
    return fb


def with_hidden(fb, check, results):
    """The grader's feedback: ``fb`` (the checks the notebook ran) and the ``results`` of :func:`run_hidden`.

    A failed added check is named, and only named: "Failed, a check the grader adds (its tree is not
    shown): ties: ...". The
    feedback fails when one did; ``.hidden`` keeps the results, ``.visible_ok`` whether the notebook's
    checks passed.

    Examples
    --------
    >>> fb = Feedback("check_best_move: all 8 checks passed.", [("good", "the textbook tree: right.", None)])
    >>> out = with_hidden(fb, "check_best_move", [("wide trees", True), ("ties: equal children", False)])
    >>> print(str(out).replace("; ", ";\\n", 1))
    ✗ check_best_move: the 8 checks you could run in your notebook passed;
    1 of the 2 checks the grader adds failed.
    ✓ the textbook tree: right.
    ✓ Passed, a check the grader adds: wide trees.
    ✗ Failed, a check the grader adds (its tree is not shown): ties: equal children.
    """
    if not results:
        return fb
    failed = [name for name, ok in results if not ok]
    items = list(fb.items)
    for name, ok in results:
        if ok:
            items.append(("good", f"Passed, a check the grader adds: {name}.", None))
        else:
            items.append(("bad", f"Failed, a check the grader adds (its tree is not shown): {name}.", None))
    counted = getattr(fb, "counted", None) or _counted(fb, check)
    if counted:
        check_name, k, n = counted
        mine = (f"the {n} checks you could run in your notebook" if k == n
                else f"{k} of the {n} checks you could run in your notebook")
        if k == n and not failed:
            title = f"{check_name}: passed: {mine} and the {len(results)} the grader adds."
        else:
            added = (f"{len(failed)} of the {len(results)} checks the grader adds failed" if failed
                     else f"the {len(results)} checks the grader adds passed")
            title = f"{check_name}: {mine} passed; {added}."
    else:
        title = fb.title if not failed else (f"{fb.title.rstrip('.')}; {len(failed)} of the {len(results)} "
                                             "checks the grader adds failed.")
    status = fb.status if fb.status != "right" or not failed else "wrong"
    out = Feedback(title, items, tags=fb.tags, status=status)
    for attr in ("tree", "attempt", "library", "exercise"):
        if hasattr(fb, attr):
            setattr(out, attr, getattr(fb, attr))
    out.flags = list(fb.flags)
    out.hidden = list(results)
    out.visible_ok = fb.ok
    return out
