"""The assignments' checks of answers and code: :func:`check_answer`, :func:`check_code`,
:func:`check_best_move`, :func:`check_leaf_count`.

May import: :mod:`gametrees.rules`, :mod:`gametrees.classroom.limits`, :mod:`gametrees.classroom.hidden`,
:mod:`gametrees.games`, :mod:`gametrees.search`,
:mod:`gametrees.trees` and the public names of :mod:`gametrees.exercises` and
its modules (``feedback``, ``answers``, ``by_hand``, ``code_checks``).
"""

from __future__ import annotations

import contextlib
import inspect
import math
import numbers

from ..exercises.answers import NodeNames
from ..exercises.by_hand import Exercise, inline
from ..exercises.code_checks.diagnosis import checker_feedback, inline_tree, printed_note
from ..exercises.code_checks.guard import paused
from ..exercises.code_checks.harness import (
    CACHE,
    TEXTBOOK,
    CountingTree,
    Printed,
    alphabeta_groups,
    check_callable,
    describe_error,
    drawn_seed,
    drawn_tree,
    error_hint,
    nested_tree,
    run_learner,
)
from ..exercises.code_checks.pruning import alphabeta_task, restart_leaves, visited_leaves
from ..exercises.code_checks.values import checked_variant
from ..exercises.feedback import ROLE_NAMES, Feedback, Report, and_list, fmt, unanswered
from ..games import MAX, MIN, TicTacToe
from ..rules import EXACT, prune_when, tie_rule
from ..search import alphabeta, minimax
from ..trees import TreeGame, tree_from_nested
from .hidden import here
from .limits import OutOfTime, check_limit, deferred, time_limit

# ============================================================================
# Answers by hand: a function that returns the answer
# ============================================================================


def _example(exercise):
    """A short example of the answer's form (not the answer)."""
    sol = exercise.solution()
    if isinstance(sol, dict):
        return "return {'A': 3, 'B': 5}"
    if isinstance(sol, (list, set)):
        return "return ['I', 'J']"
    if isinstance(sol, tuple):
        return "return (3, math.inf)"
    return "return 'B'"


def check_answer(exercise, answer):
    """Check a student's answer to an exercise; never raises for a wrong or missing answer.

    Parameters
    ----------
    exercise : gametrees.exercises.Exercise
        The exercise (usually generated from the student's id).
    answer : callable or object
        A function without arguments that returns the answer (the form used
        in the assignments, so that a student version whose solution was
        cleared still runs top to bottom), or the answer itself.

    Returns
    -------
    Feedback
        The exercise's feedback; "not answered yet" while the function still
        raises ``NotImplementedError``; what it raised otherwise.

    Raises
    ------
    TypeError
        If ``exercise`` is not an exercise.

    Examples
    --------
    >>> import gametrees as gt
    >>> ex = gt.exercises.PruningExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    >>> print(check_answer(ex, lambda: ["I", "J"]))
    ✓ Pruned leaves: right.
    ✓ I and J are pruned: C stops early.
    """
    if not isinstance(exercise, Exercise):
        raise TypeError(f"exercise must be a gametrees.exercises exercise, got {type(exercise).__name__}")
    what = exercise.what if exercise.kind == "values" else {
        "pruning": "Pruned leaves", "order": "Visiting order", "window": "Window",
        "expectimax": "Expectimax values", "best_move": "Best move"}.get(exercise.kind, "Answer")
    if callable(answer):
        name = getattr(answer, "__name__", "your function")
        name = "your function" if name == "<lambda>" else f"{name}()"
        try:
            with contextlib.redirect_stdout(_Sink()):
                value = answer()
        except NotImplementedError:
            text = (f"{name} still raises NotImplementedError: replace the two lines `# YOUR CODE HERE` and "
                    f"`raise NotImplementedError()` with your answer, e.g. `{_example(exercise)}`.")
            fb = unanswered(what, text)
            fb.exercise = exercise
            return fb
        except Exception as exc:  # noqa: BLE001 -- the student's slip becomes feedback
            text = (f"{name} raised {describe_error(exc)}; it should simply "
                    f"`{_example(exercise)}` (with your answer).")
            return Feedback(f"{what}: your answer could not be read.",
                            [("bad", text, None)], status="unreadable")
    else:
        value = answer
    fb = exercise.check(value)
    fb.exercise = exercise  # ga.score flags the library's answers asked for it
    return fb


def check_code(checker, fn, **options):
    """Check a student's function with ``checker``, unless it is not written yet.

    A student version's functions raise ``NotImplementedError`` until the
    student writes them; a checker would then report every one of its test
    cases as failing. This calls ``fn`` once on a two-leaf tree (with
    ``alpha = -∞, beta = +∞`` if it takes four arguments) and, if it raises
    ``NotImplementedError``, returns a single "not written yet" line;
    otherwise it returns ``checker(fn, **options)``.

    Parameters
    ----------
    checker : callable
        ``checker(fn, **options) -> Feedback``, e.g.
        :func:`gametrees.exercises.check_minimax`, :func:`check_best_move`.
    fn : callable
        The student's function, ``fn(game, state)`` or
        ``fn(game, state, alpha, beta)``.
    **options
        Passed to ``checker``.

    Returns
    -------
    Feedback

    Raises
    ------
    TypeError
        If ``checker`` is not callable.

    Examples
    --------
    >>> import gametrees as gt
    >>> def minimax_value(game, state):
    ...     # YOUR CODE HERE
    ...     raise NotImplementedError()
    >>> print(check_code(gt.exercises.check_minimax, minimax_value))
    ✗ check_minimax: not written yet.
    ✗ minimax_value still raises NotImplementedError: replace `# YOUR CODE HERE` and `raise
    NotImplementedError()` with your code.
    """
    if not callable(checker):
        raise TypeError(f"checker must be a checker such as gt.exercises.check_minimax, got {checker!r}")
    name = getattr(checker, "__name__", "check")
    if deferred():
        return deferred_feedback(name)
    limit = check_limit()
    try:
        with time_limit(limit):
            return here(_check_code(checker, name, fn, options), name)
    except OutOfTime:
        return out_of_time(name, limit)


def deferred_feedback(name):
    """The feedback of a costly check left to the grader outside the kernel (0 points here)."""
    fb = Feedback(f"{name}: decided by the grader outside this notebook (see its verdict below).", [(
        "note", "This check runs where your code cannot change it; its feedback is the grader's, "
                "below.", None)])
    fb.ok = False
    fb.deferred = True
    return fb


def out_of_time(name, limit):
    """The feedback of a check stopped after ``limit`` seconds."""
    return Feedback(f"{name}: did not finish.", [(
        "bad", f"your function did not return within {limit:g} s, so the check stopped it: a search that "
               "never reaches a terminal state, or a loop that never ends, does this.", None)])


def _check_code(checker, name, fn, options):
    if callable(fn):
        game = TreeGame(tree_from_nested([4, 9]))
        args = None
        try:
            sig = inspect.signature(fn)
            for candidate in ((game, game.initial, -math.inf, math.inf), (game, game.initial)):
                try:
                    sig.bind(*candidate)
                except TypeError:
                    continue
                args = candidate
                break
        except (TypeError, ValueError):
            args = None
        if args is not None:
            try:
                stand_in = engine_alphabeta_value if options.get("alphabeta") else engine_value
                with contextlib.redirect_stdout(_Sink()), swapped(fn, options.get("uses"), stand_in):
                    fn(*args)
            except NotImplementedError:
                what = getattr(fn, "__name__", "your function")
                return Feedback(f"{name}: not written yet.", [(
                    "bad", f"{what} still raises NotImplementedError: replace `# YOUR CODE HERE` and "
                           "`raise NotImplementedError()` with your code.", None)], status="unanswered")
            except Exception:  # noqa: BLE001 -- the checker reports it, with context
                pass
    return checker(fn, **options)


class _Sink:
    def write(self, s):
        return len(s)

    def flush(self):
        pass


# ============================================================================
# best_move(game, state): the decision at the root
# ============================================================================

_NONALTERNATING = {"max": [{"min": [{"min": [3, 8]}, {"min": [5, 1]}]}, {"min": [{"min": [4, 6]}, 2]}]}
_TTT_DECISIONS = (
    "XX./OO./...",   # X wins at once (cell 2); cell 5 would only block
    "XO./.X./..O",   # X to move: the fork at 6 wins
    "X.O/.X./...",   # O to move: must block at 8
    "XOX/.O./...",   # X to move: must block at 7
)


def _decision_trees(variant=None):
    key = "decision" if variant is None else ("decision", variant)
    if key not in CACHE:
        t = nested_tree

        def d(seed, **settings):
            return drawn_tree(drawn_seed(seed, variant), **settings)

        CACHE[key] = [
            ("the textbook tree", [t(TEXTBOOK)]),
            ("MIN at the root", [t(TEXTBOOK, MIN), t([[2, 9], [7, 1, 8], [4]], MIN)]),
            ("a leaf among the root's children", [t([[1, 5], 6]), t([7, [3, 9]], MIN)]),
            ("turns that do not alternate", [t(_NONALTERNATING)]),
            ("ragged trees", [t(d(11, depth=4)), t(d(13, depth=4), MIN)]),
            ("negative values", [t([[-3, -12, -8], [-2, -4, -6], [-14, -5, -2]]),
                                 t([[-7, -1], [-2, -9], [-5, -6]], MIN)]),
            ("deeper trees with cutoffs", [t([[[3, 5], [6, 9]], [[1, 2], [0, 8]]]),
                                           t(d(21, depth=4, branching=(2, 3), ragged=False))]),
        ]
    return CACHE[key]


def _root_values(G):
    R = minimax(G, trace=True).graph
    root = G.graph["root"]
    return {c: R.nodes[c]["value"] for c in G.successors(root)}, R.nodes[root]["value"]


def _move_problem(out, legal):
    """None if ``out`` is a legal move, else what is wrong with it (a phrase)."""
    if out.error:
        return out.error
    v = out.value
    if v is None:
        return "returned None (is a return statement missing?)"
    try:
        ok = v in legal
    except TypeError:
        ok = False
    if ok:
        return None
    if isinstance(v, numbers.Real) and not isinstance(v, bool):
        return (f"returned {fmt(v)}, which is not one of the moves {legal!r}: return the move "
                f"(one of game.actions(state)), not its value")
    return f"returned {v!r}, which is not one of the moves {legal!r} (game.actions(state))"


def _decision_tree_case(fn, G, printed, alphabeta_mode):
    """``(ok, text, hint)`` for one tree."""
    game = CountingTree(G)
    nodes = NodeNames(G)
    root = G.graph["root"]
    role = G.nodes[root]["player"]
    values, best_value = _root_values(G)
    best = [c for c, v in values.items() if v == best_value]
    out = run_learner(fn, (game, game.initial), printed, game)
    legal = list(G.successors(root))
    problem = _move_problem(out, legal)
    where = f"On {inline(G, nodes)}"
    if problem:
        return False, f"{where}, your function {problem}.", error_hint(problem)
    chosen = out.value
    worth = ", ".join(f"{nodes.name(c)} is worth {fmt(values[c])}" for c in legal)
    if chosen not in best:
        picks = "largest" if role == MAX else "smallest"
        text = (f"{where}, your function chose {nodes.name(chosen)} (worth {fmt(values[chosen])}), but "
                f"{nodes.name(root)} is a {ROLE_NAMES[role]} node: {worth}, so {ROLE_NAMES[role]} moves to "
                f"{nodes.names(best)}, the {picks}.")
        other = max(values.values()) if role == MIN else min(values.values())
        hint = None
        tag = None
        if values[chosen] == other and other != best_value:
            hint = (f"You chose what {'MAX' if role == MIN else 'MIN'} would: at the root, ask "
                    f"game.to_move(state) who chooses; {ROLE_NAMES[role]} wants the {picks} value.")
            tag = "roles-inverted"
        if alphabeta_mode and hint is None:
            R = alphabeta(G, trace=True).graph
            if R.nodes[chosen].get("bound", EXACT) != EXACT and R.nodes[chosen]["value"] == best_value:
                hint = ("That move only ties the best value under a narrowed window: its value is a bound "
                        "(the search of it was cut short), not exact. Change the best move only when a "
                        "child's value is strictly better than the best so far.")
                tag = "bound-as-value"
        if hint is None and legal and chosen == legal[0]:
            hint = "That is the first move: compare the value of every move and keep the best so far."
        elif hint is None and legal and chosen == legal[-1]:
            hint = "That is the last move: keep the best move so far instead of overwriting it."
        return False, text, hint, tag
    if alphabeta_mode:
        seqs = {s: visited_leaves(alphabeta(G, strict=s, trace=True), G) for s in (False, True)}
        seen = list(dict.fromkeys(game.evaluated))
        if seen not in seqs.values():
            restart = [restart_leaves(G, strict) for strict in (False, True)]
            if seen in restart and seqs[False] not in restart:
                return False, (
                    f"{where}, your function chose {nodes.name(chosen)}, a best move, but evaluated "
                    f"{len(seen)} leaves where alpha-beta needs {len(seqs[False])}: it searched each of "
                    f"the root's children with a fresh window (α = {fmt(-math.inf)}, β = "
                    f"{fmt(math.inf)})."), (
                    "Carry the window from one root child to the next: after each child, raise α (at a MAX "
                    "root) or lower β (at a MIN root) to the best value so far, and pass it to the next "
                    "child's search."), \
                    "root-window-restart"
            return False, (
                f"{where}, your function chose {nodes.name(chosen)}, a best move, but evaluated {len(seen)} "
                f"leaves ({nodes.names(seen) if seen else 'none'}) where alpha-beta evaluates "
                f"{len(seqs[False])} ({nodes.names(seqs[False])})."), (
                "Search the root's children in order with your alpha-beta, passing (α, β) and updating α at "
                "a MAX root (β at a MIN root) after each child.")
    return True, f"{where}: {nodes.name(chosen)}, right.", None


def _ttt_case(fn, text, printed):
    game = TicTacToe()
    state = TicTacToe.from_string(text)
    r = minimax(game, state, trace=True, trace_depth=1)
    G = r.graph
    root = G.graph["root"]
    values = {G.edges[root, c]["move"]: G.nodes[c]["value"] for c in G.successors(root)}
    best = [m for m, v in values.items() if v == r.value]
    mover = "X" if game.to_move(state) == MAX else "O"
    out = run_learner(fn, (game, state), printed)
    problem = _move_problem(out, game.actions(state))
    where = f"On '{text}' ({mover} to move)"
    if problem:
        return False, f"{where}, your function {problem}.", error_hint(problem)
    if out.value in best:
        return True, f"{where}: cell {out.value}, right.", None
    words = {1: "X wins", 0: "a draw", -1: "O wins"}
    return False, (f"{where}, your function chose cell {out.value}, after which {words[values[out.value]]} "
                   f"with best play, but cell {best[0]} gives {words[r.value]}."), None


def engine_value(game, state, *rest, **options):
    """The exact minimax value of ``state``, from the engine, with the library guard paused.

    It stands in for the learner's ``minimax_value`` while their best-move function is graded.
    """
    with paused():
        return minimax(game, state, table=True).value


def engine_alphabeta_value(game, state, alpha=-math.inf, beta=math.inf, *rest, **options):
    """The engine's alpha-beta from the window (alpha, beta), with the library guard paused.

    It stands in for the learner's ``alphabeta_value`` while their best-move function is graded:
    it returns what a correct ``alphabeta_value(game, state, alpha, beta)`` returns and makes the
    game evaluate the same leaves, which the check counts.
    """
    with paused():
        return alphabeta(game, state, window=(alpha, beta)).value


@contextlib.contextmanager
def swapped(fn, uses, reference):
    """Within the block, the names in ``fn``'s module that hold ``uses`` hold ``reference`` instead.

    Yields the names swapped (empty when ``fn`` does not reach ``uses`` through a global name).
    """
    space = getattr(fn, "__globals__", None)
    names = [k for k, v in (space or {}).items() if v is uses] if uses is not None else []
    for k in names:
        space[k] = reference
    try:
        yield names
    finally:
        for k in names:
            space[k] = uses


def check_best_move(fn, *, alphabeta=False, tictactoe=True, uses=None, variant=None, own=True):
    """Check a student's ``best_move(game, state) -> move``.

    The move must be a best move for the player to move at ``state`` (any of
    equally good moves is accepted): the largest minimax value at a MAX node,
    the smallest at a MIN node. Checked on the textbook tree, MIN roots, a
    leaf among the root's children, turns that do not alternate, ragged
    trees, negative values and (``tictactoe``) a few tic-tac-toe positions
    (take a win, make a fork, block).

    With ``alphabeta=True`` the function is expected to search the root's
    children with alpha-beta, carrying the window from one child to the
    next; the leaves it evaluates (its ``game.utility`` calls) must be
    alpha-beta's (textbook or strict rule). A root that restarts the window
    for every child is named, and so is a move that only ties the best value
    because its value is a bound.

    Parameters
    ----------
    fn : callable
        ``fn(game, state) -> move``.
    alphabeta : bool
        Also check the leaves evaluated (trees only).
    tictactoe : bool
        Also check tic-tac-toe positions.
    uses : callable, optional
        The learner's own value function that ``fn`` calls (``minimax_value``,
        ``alphabeta_value``). The move is then graded with a correct value
        function in its place, so that a mistake in that other question does
        not cost this one; when the learner's own value function is what
        makes the moves wrong, a note says so.
    variant : str, optional
        A student's variant (e.g. ``"jdoe/A2/q5"``): the drawn trees are made
        from it (see :func:`gametrees.exercises.check_minimax`).
    own : bool
        With ``uses``: first check ``fn`` with the learner's own value function
        (if that passes, it is the verdict; if not, its failures go into the
        note). False skips that pass: the grader asks for it when the learner's
        own value function did not finish, so that it cannot cost this question.

    Returns
    -------
    Feedback

    Examples
    --------
    >>> import gametrees as gt
    >>> def value(game, state):
    ...     if game.is_terminal(state):
    ...         return game.utility(state)
    ...     vals = [value(game, game.result(state, m)) for m in game.actions(state)]
    ...     return max(vals) if game.to_move(state) == "max" else min(vals)
    >>> def best_move(game, state):   # forgets that MIN wants the smallest value
    ...     return max(game.actions(state), key=lambda m: value(game, game.result(state, m)))
    >>> fb = check_best_move(best_move, tictactoe=False)
    >>> fb.ok
    False
    >>> print(fb.hints[0])
    You chose what MAX would: at the root, ask game.to_move(state) who chooses; MIN wants the smallest value.
    """
    variant = checked_variant(variant)
    problem = check_callable(fn, "check_best_move", "fn(game, state)", 2)
    if problem:
        return Feedback("check_best_move: your function could not be called.", [("bad", problem, None)])
    if uses is None:
        return _check_decisions(fn, alphabeta, tictactoe, variant)
    first = _check_decisions(fn, alphabeta, tictactoe, variant) if own else None
    # right with their own; or refused
    if first is not None and (first.ok or getattr(first, "library", None)):
        return first
    with swapped(fn, uses, engine_alphabeta_value if alphabeta else engine_value) as names:
        graded = _check_decisions(fn, alphabeta, tictactoe, variant) if names else first
    if not names:
        return first if first is not None else _check_decisions(fn, alphabeta, tictactoe, variant)
    if graded.ok:
        if first is None:
            fails = "it did not finish (the time limit stopped it)"
        else:
            fails = "this check fails on " + and_list(text.split(":")[0] for kind, text, _ in first.items
                                                      if kind == "bad")
        graded.items.append(("note", f"Graded with a correct {names[0]} in place of yours, so that the "
                                     "mistakes of that question do not cost this one: with your own "
                                     f"{names[0]}, {fails}.", None))
    elif not graded.ok:
        graded.items.append(("note", f"This was checked with a correct {names[0]} in place of yours, so the "
                                     "mistake is in how your function chooses the move.", None))
    return graded


def _check_decisions(fn, alphabeta, tictactoe, variant=None):
    """check_best_move's trees and positions, on ``fn`` as it is."""
    rep, printed = Report(), Printed()
    passed = total = 0
    first_bad = None
    for name, trees in _decision_trees(variant):
        total += 1
        cases = [(_decision_tree_case(fn, G, printed, alphabeta), G) for G in trees]
        bad = [(c, G) for c, G in cases if not c[0]]
        if not bad:
            passed += 1
            rep.good(f"{name}: right on all {len(cases)}." if len(cases) > 1 else f"{name}: right.")
            continue
        case, G = min(bad, key=lambda b: b[1].number_of_nodes())
        text, hint, tag = case[1], case[2], (case[3] if len(case) > 3 else None)
        rep.bad(f"{name}: {len(cases) - len(bad)} of {len(cases)} right. {text}", hint, tag=tag)
        first_bad = first_bad or G
    if tictactoe:
        total += 1
        cases = [_ttt_case(fn, text, printed) for text in _TTT_DECISIONS]
        bad = [c for c in cases if not c[0]]
        if not bad:
            passed += 1
            rep.good(f"tic-tac-toe positions (take a win, fork, block): right on all {len(cases)}.")
        else:
            rep.bad(f"tic-tac-toe positions: {len(cases) - len(bad)} of {len(cases)} right. {bad[0][1]}",
                    bad[0][2])
    printed_note(rep, printed)
    fb = checker_feedback("check_best_move", rep, passed, total)
    fb.tree = first_bad
    return fb


# ============================================================================
# count_leaves(game, state, alpha, beta): alpha-beta that counts the leaves it evaluates
# ============================================================================

def check_leaf_count(fn, *, rule=None, variant=None):
    """Check a learner's ``fn(game, state, alpha, beta) -> int``: alpha-beta that returns how many leaves it
    evaluated.

    A task variant of alpha-beta: the function searches as alpha-beta does and returns, instead of the
    value, the number of leaves it evaluated (its calls of ``game.utility``). On every tree of
    :func:`~gametrees.exercises.check_alphabeta` (the drawn ones the ``variant``'s own) the number must be
    the one it really evaluated and alpha-beta's with ``rule`` (``"textbook"``, ``"strict"``, or either
    when None).

    Parameters
    ----------
    fn : callable
        ``fn(game, state, alpha, beta) -> int``.
    rule : {"textbook", "strict"}, optional
    variant : str, optional
        A student's variant (e.g. ``"jdoe/A2/q8"``): the drawn trees are made from it.

    Returns
    -------
    Feedback

    Examples
    --------
    >>> import math
    >>> def count_leaves(game, state, alpha, beta):   # every leaf: nothing pruned
    ...     if game.is_terminal(state):
    ...         game.utility(state)
    ...         return 1
    ...     return sum(count_leaves(game, game.result(state, m), alpha, beta) for m in game.actions(state))
    >>> fb = check_leaf_count(count_leaves, rule="textbook")
    >>> fb.ok, fb.lines[0]
    (False, '✗ the textbook tree [[3, 12, 8], [2, 4, 6], [14, 5, 2]]: 0 of 1 right; ...')
    >>> print(fb.lines[0].split(") your ", 1)[1].replace(", but ", ",\\nbut "))
    function evaluated 9 leaves and returned 9,
    but alpha-beta evaluates 7 with the textbook rule (prune when v ≥ β or v ≤ α).
    """
    variant, strict, unusable = alphabeta_task("check_leaf_count", fn, variant, rule)
    if unusable is not None:
        return unusable
    rep, printed = Report(), Printed()
    passed = total = 0
    rules = [strict] if strict is not None else [False, True]
    for name, trees in alphabeta_groups(variant):
        wrong = []
        for G in trees:
            game = CountingTree(G)
            out = run_learner(fn, (game, game.initial, -math.inf, math.inf), printed, game)
            expected = {s: len(visited_leaves(alphabeta(G, strict=s, trace=True), G)) for s in rules}
            evaluated = len(game.evaluated)
            if out.error:
                wrong.append((G, f"your function {out.error}"))
            elif isinstance(out.value, bool) or not isinstance(out.value, numbers.Integral):
                wrong.append((G, f"your function returned {out.value!r}, not a number of leaves"))
            elif out.value != evaluated:
                wrong.append((G, f"your function evaluated {evaluated} leaves but returned {out.value}"))
            elif evaluated not in expected.values():
                said = " or ".join(f"{expected[s]} with the {tie_rule(s)} rule ({prune_when(s)})"
                                   for s in rules)
                wrong.append((G, (f"your function evaluated {evaluated} leaves and returned {out.value}, but "
                                  f"alpha-beta evaluates {said}")))
        total += 1
        if not wrong:
            passed += 1
            rep.good(f"{name}: right on all {len(trees)}." if len(trees) > 1 else f"{name}: right.")
            continue
        G, why = min(wrong, key=lambda w: w[0].number_of_nodes())
        rep.bad(f"{name}: {len(trees) - len(wrong)} of {len(trees)} right; on {inline_tree(G, 100)} {why}.",
                error_hint(why) if "raised" in why else None)
    printed_note(rep, printed)
    return checker_feedback("check_leaf_count", rep, passed, total)
