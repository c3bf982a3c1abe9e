"""Classroom assignments: per-student variants, the assignments' checks, student versions, grading.

The assignments in ``notebooks/assignments/`` (A1 minimax, A2 alpha-beta, A3 a
Connect Four evaluation function) are written in nbgrader's format: solution
regions between ``### BEGIN SOLUTION`` and ``### END SOLUTION``, autograded test
cells with points. This module holds what they share:

:func:`student_id`
    The id that seeds a student's trees: the environment variable
    ``GAMETREES_STUDENT_ID`` if set, else (while nbgrader autogrades) the
    student folder nbgrader files the submission under, else the id the
    student typed in the notebook, else ``"practice"``.
:func:`check_answer`
    Calls a student's answer function (``def my_values(): return {...}``) and
    checks what it returns against an exercise of :mod:`gametrees.exercises`;
    an unanswered question (``raise NotImplementedError()``) is a clear
    message, not a traceback.
:func:`check_code`
    Runs a checker of a student's function (``check_minimax``,
    ``check_alphabeta``, :func:`check_best_move`, ...), or says "not written
    yet" while the function still raises ``NotImplementedError``.
:func:`check_best_move`
    Checks ``best_move(game, state) -> move`` (minimax, or alpha-beta with
    the window carried from one root child to the next).
:func:`check_connect4_evaluation`, :func:`check_tournament`
    Check a Connect Four evaluation function on telling positions (the
    viewpoint, the scale against a win's utility of 1) and in a seeded
    tournament against reference agents (:func:`reference_agent`).
:func:`release`
    The student version of an assignment: solutions replaced by
    ``raise NotImplementedError()``, outputs cleared, with nbgrader's own
    preprocessors (as ``nbgrader generate_assignment`` does, without its
    database).
:func:`grade`
    Runs a notebook and scores its test cells (a small stand-in for
    ``nbgrader autograde`` when no gradebook is set up).

From the command line::

    python -m gametrees.assignments release notebooks/assignments /tmp/student
    python -m gametrees.assignments grade /tmp/student/A1_minimax.ipynb --student jdoe

Examples
--------
>>> import gametrees as gt
>>> from gametrees import assignments as ga
>>> ex = gt.exercises.ValuesExercise([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
>>> def my_values():
...     raise NotImplementedError()
>>> print(ga.check_answer(ex, my_values))
✗ Minimax values: not answered yet.
✗ my_values() still raises NotImplementedError: replace the two lines `# YOUR CODE HERE` and `raise NotImplementedError()` with your answer, e.g. `return {'A': 3, 'B': 5}`.
>>> def my_values():
...     return {"A": 3, "B": 3, "C": 2, "D": 2}
>>> ga.check_answer(ex, my_values).ok
True
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import math
import numbers
import os
import sys
import time
from pathlib import Path

from . import exercises as _ex
from .agents import AlphaBetaAgent, MinimaxAgent, RandomAgent
from .exercises import Feedback
from .games import MAX, MIN, ConnectFour, TicTacToe
from .search import alphabeta, minimax
from .tournament import tournament
from .trees import TreeGame, tree_from_nested

__all__ = [
    "DEFAULT_ID",
    "ENV_VAR",
    "GradeReport",
    "centre_column_evaluation",
    "check_answer",
    "check_best_move",
    "check_code",
    "check_connect4_evaluation",
    "check_tournament",
    "grade",
    "reference_agent",
    "release",
    "student_id",
]

#: The environment variable that overrides every other source of the student id.
ENV_VAR = "GAMETREES_STUDENT_ID"
#: The id used when none is given (the instructor's version, a learner practising).
DEFAULT_ID = "practice"


# ============================================================================
# The student's id: the seed of their variant
# ============================================================================


def _nbgrader_student(cwd):
    """The student folder of nbgrader's ``autograded/<student>/<assignment>`` layout, or None."""
    parts = Path(cwd).resolve().parts
    if len(parts) >= 3 and parts[-3] == "autograded":
        return parts[-2]
    return None


def student_id(given=None):
    """The id that seeds this student's exercises.

    In order:

    1. the environment variable ``GAMETREES_STUDENT_ID``, if set (an
       instructor previews a student's variant with it);
    2. while ``nbgrader autograde`` runs the notebook (it sets
       ``NBGRADER_EXECUTION=autograde`` and runs in
       ``autograded/<student>/<assignment>/``), the student's folder name:
       answers are always checked against the tree of the student who
       handed them in, whatever id was typed in the notebook;
    3. ``given``, the id the student typed in the notebook;
    4. ``"practice"``.

    Parameters
    ----------
    given : str or int, optional
        The id from the notebook (``STUDENT_ID = "jdoe"``); empty means none.

    Returns
    -------
    str

    Raises
    ------
    TypeError
        If ``given`` is neither a str, an int nor None.

    Examples
    --------
    >>> import os
    >>> os.environ.pop("GAMETREES_STUDENT_ID", None) and None
    >>> student_id("jdoe"), student_id(""), student_id(None), student_id(1234567)
    ('jdoe', 'practice', 'practice', '1234567')
    """
    if given is not None and (isinstance(given, bool) or not isinstance(given, (str, int))):
        raise TypeError(f"given must be a student id (a str such as 'jdoe', or an int), got {given!r}")
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        return env
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":
        folder = _nbgrader_student(os.getcwd())
        if folder:
            return folder
    text = "" if given is None else str(given).strip()
    return text or DEFAULT_ID


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
    ✓ I and J are pruned: after H returns 2 to C, 2 ≤ α = 3 (MAX can already get 3 at A), so C stops.
    """
    if not isinstance(exercise, _ex.Exercise):
        raise TypeError(f"exercise must be a gametrees.exercises exercise, got {type(exercise).__name__}")
    what = exercise._what if exercise.kind == "values" else {
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
            return Feedback(f"{what}: not answered yet.", [("bad", text, None)])
        except Exception as exc:  # noqa: BLE001 -- the student's slip becomes feedback
            text = (f"{name} raised {_ex._describe_error(exc)}; it should simply "
                    f"`{_example(exercise)}` (with your answer).")
            return Feedback(f"{what}: your answer could not be read.", [("bad", text, None)])
    else:
        value = answer
    return exercise.check(value)


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
    ✗ minimax_value still raises NotImplementedError: replace `# YOUR CODE HERE` and `raise NotImplementedError()` with your code.
    """
    if not callable(checker):
        raise TypeError(f"checker must be a checker such as gt.exercises.check_minimax, got {checker!r}")
    name = getattr(checker, "__name__", "check")
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
                with contextlib.redirect_stdout(_Sink()):
                    fn(*args)
            except NotImplementedError:
                what = getattr(fn, "__name__", "your function")
                return Feedback(f"{name}: not written yet.", [(
                    "bad", f"{what} still raises NotImplementedError: replace `# YOUR CODE HERE` and "
                           "`raise NotImplementedError()` with your code.", None)])
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


def _decision_trees():
    if "decision" not in _ex._CACHE:
        t = _ex._tree
        _ex._CACHE["decision"] = [
            ("the textbook tree", [t(_ex._TEXTBOOK)]),
            ("MIN at the root", [t(_ex._TEXTBOOK, MIN), t([[2, 9], [7, 1, 8], [4]], MIN)]),
            ("a leaf among the root's children", [t([[1, 5], 6]), t([7, [3, 9]], MIN)]),
            ("turns that do not alternate", [t(_NONALTERNATING)]),
            ("ragged trees", [t(_ex._drawn(11, depth=4)), t(_ex._drawn(13, depth=4), MIN)]),
            ("negative values", [t([[-3, -12, -8], [-2, -4, -6], [-14, -5, -2]]),
                                 t([[-7, -1], [-2, -9], [-5, -6]], MIN)]),
            ("deeper trees with cutoffs", [t([[[3, 5], [6, 9]], [[1, 2], [0, 8]]]),
                                           t(_ex._drawn(21, depth=4, branching=(2, 3), ragged=False))]),
        ]
    return _ex._CACHE["decision"]


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
        return (f"returned {_ex._fmt(v)}, which is not one of the moves {legal!r}: return the move "
                f"(one of game.actions(state)), not its value")
    return f"returned {v!r}, which is not one of the moves {legal!r} (game.actions(state))"


def _decision_tree_case(fn, G, printed, alphabeta_mode):
    """``(ok, text, hint)`` for one tree."""
    game = _ex._TestTree(G)
    nodes = _ex._Nodes(G)
    root = G.graph["root"]
    role = G.nodes[root]["player"]
    values, best_value = _root_values(G)
    best = [c for c, v in values.items() if v == best_value]
    out = _ex._run(fn, (game, game.initial), printed, game)
    legal = list(G.successors(root))
    problem = _move_problem(out, legal)
    where = f"On {_ex._inline(G, nodes)}"
    if problem:
        return False, f"{where}, your function {problem}.", _ex._error_hint(problem)
    chosen = out.value
    worth = ", ".join(f"{nodes.name(c)} is worth {_ex._fmt(values[c])}" for c in legal)
    if chosen not in best:
        picks = "largest" if role == MAX else "smallest"
        text = (f"{where}, your function chose {nodes.name(chosen)} (worth {_ex._fmt(values[chosen])}), but "
                f"{nodes.name(root)} is a {_ex._ROLE[role]} node: {worth}, so {_ex._ROLE[role]} moves to "
                f"{nodes.names(best)}, the {picks}.")
        other = max(values.values()) if role == MIN else min(values.values())
        hint = None
        if values[chosen] == other and other != best_value:
            hint = (f"You chose what {'MAX' if role == MIN else 'MIN'} would: at the root, ask "
                    f"game.to_move(state) who chooses; {_ex._ROLE[role]} wants the {picks} value.")
        if alphabeta_mode and hint is None:
            R = alphabeta(G, trace=True).graph
            if R.nodes[chosen].get("bound", "exact") != "exact" and R.nodes[chosen]["value"] == best_value:
                hint = ("That move only ties the best value under a narrowed window: its value is a bound "
                        "(the search of it was cut short), not exact. Change the best move only when a child's "
                        "value is strictly better than the best so far.")
        if hint is None and legal and chosen == legal[0]:
            hint = "That is the first move: compare the value of every move and keep the best so far."
        elif hint is None and legal and chosen == legal[-1]:
            hint = "That is the last move: keep the best move so far instead of overwriting it."
        return False, text, hint
    if alphabeta_mode:
        seqs = {rule: _ex._visited_leaves(alphabeta(G, strict=rule == "strict", trace=True), G)
                for rule in ("textbook", "strict")}
        seen = list(dict.fromkeys(game.evaluated))
        if seen not in seqs.values():
            restart = [_ex._restart_leaves(G, strict) for strict in (False, True)]
            if seen in restart and seqs["textbook"] not in restart:
                return False, (
                    f"{where}, your function chose {nodes.name(chosen)}, a best move, but evaluated "
                    f"{len(seen)} leaves where alpha-beta needs {len(seqs['textbook'])}: it searched each of the "
                    f"root's children with a fresh window (α = -∞, β = +∞)."), (
                    "Carry the window from one root child to the next: after each child, raise α (at a MAX root) "
                    "or lower β (at a MIN root) to the best value so far, and pass it to the next child's search.")
            return False, (
                f"{where}, your function chose {nodes.name(chosen)}, a best move, but evaluated {len(seen)} "
                f"leaves ({nodes.names(seen) if seen else 'none'}) where alpha-beta evaluates "
                f"{len(seqs['textbook'])} ({nodes.names(seqs['textbook'])})."), (
                "Search the root's children in order with your alpha-beta, passing (α, β) and updating α at a MAX "
                "root (β at a MIN root) after each child.")
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
    out = _ex._run(fn, (game, state), printed)
    problem = _move_problem(out, game.actions(state))
    where = f"On '{text}' ({mover} to move)"
    if problem:
        return False, f"{where}, your function {problem}.", _ex._error_hint(problem)
    if out.value in best:
        return True, f"{where}: cell {out.value}, right.", None
    words = {1: "X wins", 0: "a draw", -1: "O wins"}
    return False, (f"{where}, your function chose cell {out.value}, after which {words[values[out.value]]} with best "
                   f"play, but cell {best[0]} gives {words[r.value]}."), None


def check_best_move(fn, *, alphabeta=False, tictactoe=True):
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
    problem = _ex._check_fn(fn, "check_best_move", "fn(game, state)", 2)
    if problem:
        return Feedback("check_best_move: your function could not be called.", [("bad", problem, None)])
    rep, printed = _ex._Report(), _ex._Printed()
    passed = total = 0
    first_bad = None
    for name, trees in _decision_trees():
        total += 1
        cases = [(_decision_tree_case(fn, G, printed, alphabeta), G) for G in trees]
        bad = [(c, G) for c, G in cases if not c[0]]
        if not bad:
            passed += 1
            rep.good(f"{name}: right on all {len(cases)}." if len(cases) > 1 else f"{name}: right.")
            continue
        (_, text, hint), G = min(bad, key=lambda b: b[1].number_of_nodes())
        rep.bad(f"{name}: {len(cases) - len(bad)} of {len(cases)} right. {text}", hint)
        first_bad = first_bad or G
    if tictactoe:
        total += 1
        cases = [_ttt_case(fn, text, printed) for text in _TTT_DECISIONS]
        bad = [c for c in cases if not c[0]]
        if not bad:
            passed += 1
            rep.good(f"tic-tac-toe positions (take a win, fork, block): right on all {len(cases)}.")
        else:
            rep.bad(f"tic-tac-toe positions: {len(cases) - len(bad)} of {len(cases)} right. {bad[0][1]}", bad[0][2])
    _ex._printed_note(rep, printed)
    fb = _ex._checker_feedback("check_best_move", rep, passed, total)
    fb.tree = first_bad
    return fb


# ============================================================================
# Connect Four: checking an evaluation function
# ============================================================================

_C4 = ConnectFour()

# (moves from the empty board, who is better: +1 X, -1 O, 0 nobody, description)
_C4_POSITIONS = (
    ((), 0, "the empty board"),
    ((3,), 0, "X has played the centre"),
    ((3, 0, 2, 6, 4), +1, "X has three in a row on the bottom, open at both ends (O to move cannot stop both)"),
    ((3, 0, 2, 6, 4, 0), +1, "X has three in a row on the bottom, open at both ends, and X is to move"),
    ((0, 3, 6, 2, 0, 4), -1, "O has three in a row on the bottom, open at both ends (X to move cannot stop both)"),
    ((0, 3, 6, 2, 0, 4, 6), -1, "O has three in a row on the bottom, open at both ends, and O is to move"),
    ((3, 3, 2, 4, 2), 0, "a position of the opening"),
)


def _board_text(state):
    return _C4.display(state)


def _probe(fn, state, printed):
    """``(value, problem)`` of ``fn(state)``."""
    out = _ex._run(fn, (state,), printed)
    problem = out.problem()
    return (None if problem else float(out.value)), problem


def check_connect4_evaluation(fn, game=None):
    """Check a Connect Four evaluation ``fn(state) -> number`` on telling positions.

    The evaluation scores a position that is not over from X's (MAX's)
    point of view, like the utility: positive when X is better, negative
    when O is, whoever is to move. Checked:

    * it returns a finite number on every position (and no exception);
    * every estimate lies strictly between -1 and +1, the utilities of a
      loss and a win, so that the search never prefers a promising position
      to a real win (or a real loss to a bad-looking position);
    * positions where X is clearly better score above 0, where O is clearly
      better below 0, with X to move and with O to move;
    * it tells positions apart (not the same value everywhere).

    The feedback names the wrong viewpoint: every sign flipped (scoring from
    O's side), or flipped only where O is to move (scoring for the player to
    move).

    Parameters
    ----------
    fn : callable
        ``fn(state) -> number``; ``state`` is a :class:`~gametrees.ConnectFour`
        state ``(x_bits, o_bits)`` of the 6x7 board.
    game : ConnectFour, optional
        Must be the standard 6x7 board with k = 4 (the positions are for it).

    Returns
    -------
    Feedback

    Examples
    --------
    >>> import gametrees as gt
    >>> ours = gt.connect4_evaluation(gt.ConnectFour())
    >>> check_connect4_evaluation(ours).ok
    True
    >>> fb = check_connect4_evaluation(lambda state: -ours(state))   # scores from O's side
    >>> print(fb.lines[1])
    ✗ Every clear advantage has the wrong sign: your evaluation scores positions from O's point of view.
    """
    if not callable(fn):
        raise TypeError(f"check_connect4_evaluation expects your function evaluate(state) -> number, got {fn!r}")
    if game is not None and (not isinstance(game, ConnectFour) or (game.rows, game.cols, game.k) != (6, 7, 4)):
        raise ValueError(f"game must be the standard ConnectFour(rows=6, cols=7, k=4), got {game!r}")
    problem = _ex._check_fn(fn, "check_connect4_evaluation", "evaluate(state)", 1)
    if problem:
        return Feedback("check_connect4_evaluation: your function could not be called.", [("bad", problem, None)])
    rep, printed = _ex._Report(), _ex._Printed()
    rows = []
    for moves, better, words in _C4_POSITIONS:
        state = _C4.from_moves(moves)
        value, problem = _probe(fn, state, printed)
        rows.append((moves, state, better, words, value, problem))
    broken = [r for r in rows if r[5]]
    if broken:
        moves, state, _, words, _, problem = broken[0]
        if "NotImplementedError" in problem:
            rep.bad("evaluate still raises NotImplementedError: replace `# YOUR CODE HERE` and "
                    "`raise NotImplementedError()` with your evaluation.")
        else:
            rep.bad(f"On {len(broken)} of {len(rows)} positions your function {problem}; e.g. on the position after "
                    f"moves {list(moves)} ({words}).", _ex._error_hint(problem))
        _ex._printed_note(rep, printed)
        return _ex._checker_feedback("check_connect4_evaluation", rep, 0, 4)
    passed = 0
    # 1. finite numbers strictly between -1 and +1
    big = [r for r in rows if not math.isfinite(r[4]) or abs(r[4]) >= 1]
    if big:
        moves, state, _, words, value, _ = max(big, key=lambda r: abs(r[4]))
        rep.bad(f"Estimates must lie strictly between -1 and +1, but after moves {list(moves)} ({words}) you return "
                f"{_ex._fmt(value)}.",
                "A win is worth +1 and a loss -1 (game.utility): an estimate beyond them makes the search prefer a "
                "promising position to a real win. Divide your points by a number larger than any total they can "
                "reach (e.g. 1000).")
    else:
        passed += 1
        rep.good(f"Every estimate lies strictly between -1 and +1 (a loss and a win) on all {len(rows)} positions.")
    # 2. the viewpoint
    telling = [r for r in rows if r[2] != 0]
    wrong = [r for r in telling if not (r[4] * r[2] > 0)]
    if not wrong:
        passed += 1
        rep.good(f"Clear advantages have the right sign on all {len(telling)} positions "
                 "(X better: above 0, O better: below 0, whoever is to move).")
    else:
        flipped = [r for r in telling if r[4] * r[2] < 0]
        o_moves = [r for r in telling if _C4.to_move(r[1]) == MIN]
        x_moves = [r for r in telling if _C4.to_move(r[1]) == MAX]
        if len(flipped) == len(telling):
            rep.bad("Every clear advantage has the wrong sign: your evaluation scores positions from O's point of "
                    "view.",
                    "evaluate(state) scores from X's (MAX's) point of view, like game.utility: positive when X is "
                    "better, whoever is to move; the search decides who maximises. Swap your X and O counts (or "
                    "the sign).")
        elif (all(r in flipped for r in o_moves) and not any(r in flipped for r in x_moves)) and o_moves:
            rep.bad("Where O is to move your advantages have the opposite sign: your evaluation scores for the "
                    "player to move.",
                    "evaluate(state) scores from X's (MAX's) point of view whoever is to move: do not flip the sign "
                    "when O moves (negamax flips signs itself; AlphaBetaAgent does not need it).")
        else:
            moves, state, better, words, value, _ = wrong[0]
            side = "X" if better > 0 else "O"
            rep.bad(f"After moves {list(moves)} ({words}) {side} is clearly better, but you return "
                    f"{_ex._fmt(value)}{' (no advantage)' if value == 0 else ''}:\n{_board_text(state)}",
                    "Count what makes a position good for X (e.g. windows of four cells holding X's pieces and no "
                    "O's) minus the same for O.")
    # 3. it tells positions apart
    values = [r[4] for r in rows]
    if all(v == values[0] for v in values):
        rep.bad(f"Your evaluation returns {_ex._fmt(values[0])} on every position: it cannot tell good positions "
                "from bad ones, so the search plays at random until it sees a win.",
                "Count features: windows of four cells with three or two of one colour and none of the other, "
                "pieces in the centre column.")
    else:
        passed += 1
        rep.good("It tells positions apart.")
    # 4. speed (the tournament calls it thousands of times)
    state = rows[-1][1]
    calls, t0 = 0, time.perf_counter()
    with contextlib.redirect_stdout(printed.buffer):
        while calls < 200 and time.perf_counter() - t0 < 1.0:
            try:
                fn(state)
            except Exception:  # noqa: BLE001 -- reported above if it matters
                break
            calls += 1
    ms = 1000 * (time.perf_counter() - t0) / max(calls, 1)
    if ms > 5:
        rep.bad(f"One evaluation takes {ms:.1f} ms: a depth-3 search calls it a few hundred times per move, so "
                "a tournament would take many minutes. Aim for well under 1 ms.",
                "Read the board once per call (e.g. with board(state)), not cell by cell through game methods, "
                "and avoid copying it per window.")
    else:
        passed += 1
        rep.good("It is fast enough for a tournament.")
    _ex._printed_note(rep, printed)
    return _ex._checker_feedback("check_connect4_evaluation", rep, passed, 4)


# ============================================================================
# Connect Four: tournaments against reference agents
# ============================================================================

_CENTRE = _C4._column << (3 * _C4._height)


def centre_column_evaluation(state):
    """The weak reference evaluation: X's pieces in the centre column minus O's, over 100.

    Examples
    --------
    >>> import gametrees as gt
    >>> centre_column_evaluation(gt.ConnectFour().from_moves([3, 2, 3]))
    0.02
    """
    x, o = state
    return ((x & _CENTRE).bit_count() - (o & _CENTRE).bit_count()) / 100


def reference_agent(name, seed=None):
    """A reference opponent for the Connect Four tournament.

    Parameters
    ----------
    name : {"random", "weak"}
        ``"random"``: a uniformly random legal move. ``"weak"``: a 3-ply
        search scored by :func:`centre_column_evaluation` (minimax, so that it
        picks at random among equally good moves and the games vary; its
        values equal alpha-beta's at the same depth). It takes a win it can
        see and blocks an immediate threat, but knows nothing of open rows.
    seed : int, optional
        Seed of its random choices (a tournament re-seeds it every game).

    Returns
    -------
    Agent

    Examples
    --------
    >>> reference_agent("weak").name
    'weak reference'
    """
    if name == "random":
        return RandomAgent(seed=seed, name="random")
    if name == "weak":
        return MinimaxAgent(depth=3, evaluate=centre_column_evaluation, seed=seed, name="weak reference")
    raise ValueError(f"name must be 'random' or 'weak', got {name!r}")


_PASS = {"random": ("wins", 0.9), "weak": ("losses", 0.5)}


def check_tournament(evaluate, opponent, *, games=20, seed=2024, depth=3):
    """Enter ``evaluate`` in a seeded Connect Four tournament against a reference agent.

    Your agent is ``AlphaBetaAgent(depth=depth, evaluate=evaluate)`` on the
    6x7 board; seats alternate. To pass: against ``"random"`` win at least
    90% of the games; against ``"weak"`` lose at most half of them.

    Parameters
    ----------
    evaluate : callable
        ``evaluate(state) -> number`` from X's point of view.
    opponent : {"random", "weak"}
        See :func:`reference_agent`.
    games : int
        Games to play (default 20).
    seed : int
        The tournament's seed: the same seed replays the same games.
    depth : int
        Plies your agent searches.

    Returns
    -------
    Feedback
        With ``.result``, the :class:`~gametrees.tournament.TournamentResult`
        (``print(fb.result)`` for the table), or ``None`` when the evaluation
        failed before any game.

    Examples
    --------
    >>> import gametrees as gt
    >>> fb = check_tournament(gt.connect4_evaluation(gt.ConnectFour()), "random", games=4, seed=1)
    >>> print(fb)
    ✓ Against random: passed.
    ✓ You won 4 of 4 games (at least 4 needed): 2-0-0 moving first, 2-0-0 moving second.
    """
    if opponent not in _PASS:
        raise ValueError(f"opponent must be 'random' or 'weak', got {opponent!r}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be an int >= 1, got {games!r}")
    if not callable(evaluate):
        raise TypeError(f"evaluate must be your function evaluate(state) -> number, got {evaluate!r}")
    ref = reference_agent(opponent)
    title = f"Against {ref.name}"
    printed = _ex._Printed()
    for moves in ((), (3, 3, 2)):
        _, problem = _probe(evaluate, _C4.from_moves(moves), printed)
        if problem:
            text = ("evaluate still raises NotImplementedError: write it first (no game was played)."
                    if "NotImplementedError" in problem else
                    f"evaluate {problem} on the position after moves {list(moves)}: fix it first (no game was "
                    "played); check_connect4_evaluation shows more.")
            fb = Feedback(f"{title}: not played.", [("bad", text, _ex._error_hint(problem))])
            fb.result = None
            return fb
    you = AlphaBetaAgent(depth=depth, evaluate=evaluate, name="you")
    try:
        with contextlib.redirect_stdout(printed.buffer):
            result = tournament(you, ref, _C4, games=games, seed=seed, progress=False)
    except Exception as exc:  # noqa: BLE001 -- the evaluation failed inside a search
        text = f"The tournament stopped: your evaluation raised {_ex._describe_error(exc)} during a search."
        fb = Feedback(f"{title}: stopped.", [("bad", text, None)])
        fb.result = None
        return fb
    wins, losses = result.wins["you"], result.losses["you"]
    seats = result.seat_scores["you"]
    detail = f"{seats['first']} moving first, {seats['second']} moving second"
    measure, share = _PASS[opponent]
    rep = _ex._Report()
    if measure == "wins":
        need = math.ceil(share * games)
        line = f"You won {wins} of {games} games (at least {need} needed): {detail}."
        ok = wins >= need
    else:
        most = math.floor(share * games)
        line = f"You lost {losses} of {games} games (at most {most} allowed), won {wins}: {detail}."
        ok = losses <= most
    if ok:
        rep.good(line)
    else:
        lost = next((r for r in result.records if r.winner == ref.name), None)
        hint = ("Run check_connect4_evaluation(evaluate) first: an evaluation from the wrong viewpoint makes the "
                "search steer towards O's good positions.")
        if lost is not None:
            seat = "first (X)" if lost.first == "you" else "second (O)"
            hint += (f" A game you lost (game {lost.index}, you moved {seat}): moves "
                     f"{' '.join(str(m) for m in lost.moves)}; replay it with gt.ConnectFour().from_moves([...]).")
        rep.bad(line, hint)
    _ex._printed_note(rep, printed)
    fb = Feedback(f"{title}: {'passed' if ok else 'not passed'}.", rep.items)
    fb.result = result
    return fb


# ============================================================================
# Student versions (nbgrader's preprocessors) and grading
# ============================================================================


def _notebooks(src):
    src = Path(src)
    if src.is_dir():
        found = sorted(p for p in src.glob("*.ipynb"))
        if not found:
            raise ValueError(f"no notebooks (*.ipynb) in {str(src)!r}")
        return found
    if src.suffix != ".ipynb" or not src.exists():
        raise ValueError(f"src must be a notebook (.ipynb) or a folder of notebooks, got {str(src)!r}")
    return [src]


def release(src, dst):
    """Write the student version of assignment notebooks.

    Runs nbgrader's own preprocessors, in the order ``nbgrader
    generate_assignment`` runs them, without its gradebook: lock the
    read-only cells, replace every solution region by ``# YOUR CODE HERE``
    and ``raise NotImplementedError()`` (nbgrader's ``ClearSolutions``),
    clear outputs, remove hidden tests and mark schemes, and record the
    checksums of the locked and test cells (so that ``nbgrader autograde``
    notices a changed test).

    Use ``nbgrader generate_assignment`` in a course set up with nbgrader;
    this function serves courses that hand out notebooks another way, and
    the tests.

    Parameters
    ----------
    src : path
        A notebook, or a folder of notebooks (all ``*.ipynb`` in it).
    dst : path
        A folder (created if needed); each notebook is written there under
        its own name. With a single notebook, ``dst`` may also be a file
        name ending in ``.ipynb``.

    Returns
    -------
    list of pathlib.Path
        The notebooks written.

    Raises
    ------
    ValueError
        If ``src`` is neither a notebook nor a folder with notebooks, or a
        notebook has a solution region outside a solution cell.
    """
    import nbformat

    try:
        import nbgrader  # noqa: F401
    except ImportError:
        raise ImportError("release() uses nbgrader's preprocessors: pip install nbgrader "
                          "(it is in requirements.txt)") from None
    from nbgrader.preprocessors import (
        CheckCellMetadata,
        ClearHiddenTests,
        ClearMarkScheme,
        ClearOutput,
        ClearSolutions,
        ComputeChecksums,
        LockCells,
    )

    notebooks = _notebooks(src)
    dst = Path(dst)
    single_file = dst.suffix == ".ipynb"
    if single_file and len(notebooks) > 1:
        raise ValueError(f"dst {str(dst)!r} is a notebook name, but src holds {len(notebooks)} notebooks")
    written = []
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        resources = {}
        steps = (CheckCellMetadata(), LockCells(), ClearSolutions(), ClearOutput(), ClearHiddenTests(),
                 ClearMarkScheme(), ComputeChecksums(), CheckCellMetadata())
        for step in steps:
            try:
                nb, resources = step.preprocess(nb, resources)
            except RuntimeError as exc:
                raise ValueError(f"{path.name}: {exc}") from None
        out = dst if single_file else dst / path.name
        out.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, out)
        written.append(out)
    return written


class GradeReport:
    """The score of one run of a notebook (see :func:`grade`).

    Attributes
    ----------
    path : pathlib.Path
    student : str
        The id the notebook ran with.
    cells : list of dict
        One per test cell: ``grade_id``, ``points``, ``earned``, ``error``
        (the exception's name, or None) and ``message`` (its text).
    errors : list of dict
        Errors in cells that are not test cells (``index``, ``error``,
        ``message``): a notebook that breaks before its tests.
    seconds : float
    """

    def __init__(self, path, student, cells, errors, seconds):
        self.path, self.student, self.cells, self.errors, self.seconds = path, student, cells, errors, seconds

    @property
    def score(self):
        return sum(c["earned"] for c in self.cells)

    @property
    def total(self):
        return sum(c["points"] for c in self.cells)

    def __repr__(self):
        lines = [f"{self.path.name} (student {self.student!r}): {_ex._fmt(self.score)} of {_ex._fmt(self.total)} points"]
        for c in self.cells:
            mark = "✓" if c["earned"] == c["points"] else "✗"
            lines.append(f"{mark} {c['grade_id']}: {_ex._fmt(c['earned'])}/{_ex._fmt(c['points'])}")
            if c["error"]:
                first = (c["message"] or "").strip().splitlines()
                lines.append(f"    {c['error']}: {first[0] if first else ''}")
        for e in self.errors:
            lines.append(f"! cell {e['index']} (not a test cell) raised {e['error']}: {e['message']}")
        return "\n".join(lines)


def _earned(outputs, points):
    """``(points earned, error name, message)`` of a test cell, scored as ``nbgrader autograde`` does:
    an error or anything written to standard error earns nothing; a result that reads as a number is
    partial credit; anything else earns every point."""
    for o in outputs:
        if o.get("output_type") == "error":
            return 0.0, o["ename"], o["evalue"]
        if o.get("output_type") == "stream" and o.get("name") == "stderr":
            return 0.0, "stderr", "the cell wrote to standard error, which nbgrader counts as a failure: " + o["text"]
        if o.get("output_type") == "execute_result":
            try:
                value = float(o.get("data", {}).get("text/plain", ""))
            except ValueError:
                return points, None, None
            return max(0.0, min(points, value)), None, None
    return points, None, None


@contextlib.contextmanager
def _env(**values):
    old = {k: os.environ.get(k) for k in values}
    try:
        for k, v in values.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _execute(nb, cwd, timeout):
    from nbclient import NotebookClient

    client = NotebookClient(nb, timeout=timeout, allow_errors=True, kernel_name="python3",
                            resources={"metadata": {"path": str(cwd)}})
    client.execute()
    return nb


def grade(path, *, student=None, timeout=300, save=None):
    """Run a notebook top to bottom and score its test cells.

    A test cell (nbgrader metadata ``"grade": true`` with ``points``) is
    scored as ``nbgrader autograde`` scores it: no points if it raises or
    writes to standard error, partial credit if its result is a number,
    else every point. The error message of a failed check (its feedback)
    is kept. Errors in other cells are listed apart.

    Parameters
    ----------
    path : path
        The notebook.
    student : str, optional
        Run as this student (sets ``GAMETREES_STUDENT_ID`` for the kernel).
    timeout : int
        Seconds per cell.
    save : path, optional
        Write the executed notebook there.

    Returns
    -------
    GradeReport
    """
    import nbformat

    path = Path(path)
    if path.suffix != ".ipynb" or not path.exists():
        raise ValueError(f"path must be an existing notebook (.ipynb), got {str(path)!r}")
    if student is not None and not isinstance(student, str):
        raise TypeError(f"student must be a str, got {student!r}")
    nb = nbformat.read(path, as_version=4)
    t0 = time.perf_counter()
    with _env(**{ENV_VAR: student, "NBGRADER_EXECUTION": None}):
        _execute(nb, path.parent, timeout)
    seconds = time.perf_counter() - t0
    if save is not None:
        nbformat.write(nb, save)
    cells, errors = [], []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        meta = cell.metadata.get("nbgrader", {})
        outputs = cell.get("outputs", [])
        err = next((o for o in outputs if o.get("output_type") == "error"), None)
        if meta.get("grade"):
            points = float(meta.get("points", 0))
            earned, error, message = _earned(outputs, points)
            cells.append({"grade_id": meta.get("grade_id", f"cell-{i}"), "points": points, "earned": earned,
                          "error": error, "message": message})
        elif err:
            errors.append({"index": i, "error": err["ename"], "message": err["evalue"]})
    return GradeReport(path, student_id(student), cells, errors, seconds)


# ============================================================================
# Command line
# ============================================================================


def main(argv=None):
    """``python -m gametrees.assignments release SRC DST`` / ``grade NOTEBOOK [--student ID]``."""
    parser = argparse.ArgumentParser(prog="python -m gametrees.assignments",
                                     description="Student versions and grading of the gametrees assignments.")
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("release", help="write student versions (solutions cleared, outputs removed)")
    r.add_argument("src", help="an instructor notebook, or a folder of them")
    r.add_argument("dst", help="the folder to write the student versions to")
    g = sub.add_parser("grade", help="run a notebook and score its test cells")
    g.add_argument("notebook")
    g.add_argument("--student", help="run as this student id (the seed of their trees)")
    g.add_argument("--save", help="write the executed notebook here")
    args = parser.parse_args(argv)
    try:
        if args.command == "release":
            for out in release(args.src, args.dst):
                print(f"wrote {out}")
            return 0
        report = grade(args.notebook, student=args.student, save=args.save)
    except (ValueError, TypeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(report)
    return 0 if report.score == report.total and not report.errors else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
