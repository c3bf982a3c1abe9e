"""Connect Four: checking an evaluation function and playing it against reference agents.

:func:`check_connect4_evaluation`, :func:`centre_column_evaluation`,
:func:`reference_agent`, :func:`check_tournament`.

May import: :mod:`gametrees.classroom.checks`, :mod:`gametrees.classroom.hidden`,
:mod:`gametrees.classroom.limits`, :mod:`gametrees.games`, :mod:`gametrees.agents`,
:mod:`gametrees.tournaments` and the public names of the modules of
:mod:`gametrees.exercises`.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import time

from ..agents import AlphaBetaAgent, MinimaxAgent, RandomAgent
from ..exercises.code_checks.diagnosis import checker_feedback, library_feedback, printed_note
from ..exercises.code_checks.guard import LibraryGuard, UsedLibrary
from ..exercises.code_checks.harness import Printed, check_callable, describe_error, error_hint, run_learner
from ..exercises.feedback import Feedback, Report, fmt
from ..games import MAX, MIN, ConnectFour
from ..tournaments import tournament
from .checks import deferred_feedback, out_of_time
from .hidden import here
from .limits import OutOfTime, check_limit, deferred, time_limit

# ============================================================================
# Connect Four: checking an evaluation function
# ============================================================================

_C4 = ConnectFour()

# (moves from the empty board, who is better: +1 X, -1 O, 0 nobody, description)
_C4_POSITIONS = (
    ((), 0, "the empty board"),
    ((3,), 0, "X has played the centre"),
    ((3, 0, 2, 6, 4), +1, "X has three in a row on the bottom, open at both ends (O to move cannot stop "
                          "both)"),
    ((3, 0, 2, 6, 4, 0), +1, "X has three in a row on the bottom, open at both ends, and X is to move"),
    ((0, 3, 6, 2, 0, 4), -1, "O has three in a row on the bottom, open at both ends (X to move cannot stop "
                             "both)"),
    ((0, 3, 6, 2, 0, 4, 6), -1, "O has three in a row on the bottom, open at both ends, and O is to move"),
    ((3, 3, 2, 4, 2), 0, "a position of the opening"),
)


def _board_text(state):
    return _C4.display(state)


def _probe(fn, state, printed):
    """``(value, problem)`` of ``fn(state)``."""
    out = run_learner(fn, (state,), printed)
    problem = out.problem()
    return (None if problem else float(out.value)), problem


def check_connect4_evaluation(fn, game=None):
    """Check a Connect Four evaluation on telling positions (see :func:`_check_connect4_evaluation`), within
    the check's time limit (:func:`gametrees.classroom.limits.check_limit`)."""
    if deferred():
        return deferred_feedback("check_connect4_evaluation")
    limit = check_limit()
    try:
        with time_limit(limit):
            return here(_check_connect4_evaluation(fn, game), "check_connect4_evaluation")
    except OutOfTime:
        return out_of_time("check_connect4_evaluation", limit)


def _check_connect4_evaluation(fn, game=None):
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
    >>> check_connect4_evaluation(centre_column_evaluation).ok
    True
    >>> fb = check_connect4_evaluation(lambda state: -centre_column_evaluation(state))   # O's side
    >>> print(fb.lines[1])
    ✗ Every clear advantage has the wrong sign: your evaluation scores positions from O's point of view.
    >>> print(check_connect4_evaluation(gt.connect4_evaluation(gt.ConnectFour())).title)   # ours: refused
    check_connect4_evaluation: this question asks you to write the evaluation yourself.
    """
    if not callable(fn):
        raise TypeError("check_connect4_evaluation expects your function evaluate(state) -> number, got "
                        f"{fn!r}")
    if game is not None and (not isinstance(game, ConnectFour)
                             or (game.rows, game.cols, game.k) != (6, 7, 4)):
        raise ValueError(f"game must be the standard ConnectFour(rows=6, cols=7, k=4), got {game!r}")
    problem = check_callable(fn, "check_connect4_evaluation", "evaluate(state)", 1)
    if problem:
        return Feedback("check_connect4_evaluation: your function could not be called.",
                        [("bad", problem, None)])
    rep, printed = Report(), Printed()
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
            rep.bad(f"On {len(broken)} of {len(rows)} positions your function {problem}; e.g. on the "
                    f"position after moves {list(moves)} ({words}).", error_hint(problem))
        printed_note(rep, printed)
        return checker_feedback("check_connect4_evaluation", rep, 0, 4)
    passed = _estimates_in_range(rep, rows)
    passed += _right_viewpoint(rep, rows)
    passed += _tells_positions_apart(rep, rows)
    passed += _fast_enough(rep, fn, rows[-1][1], printed)
    printed_note(rep, printed)
    return checker_feedback("check_connect4_evaluation", rep, passed, 4)


# The parts of check_connect4_evaluation: each reports on the rows
# (moves, state, better, words, value, problem) of the positions, and says whether it passed.


def _estimates_in_range(rep, rows):
    """1. finite numbers strictly between -1 and +1."""
    big = [r for r in rows if not math.isfinite(r[4]) or abs(r[4]) >= 1]
    if big:
        moves, state, _, words, value, _ = max(big, key=lambda r: abs(r[4]))
        rep.bad(f"Estimates must lie strictly between -1 and +1, but after moves {list(moves)} ({words}) you "
                f"return {fmt(value)}.",
                "A win is worth +1 and a loss -1 (game.utility): an estimate beyond them makes the search "
                "prefer a promising position to a real win. Divide your points by a number larger than any "
                "total they can reach (e.g. 1000).")
        return False
    rep.good(f"Every estimate lies strictly between -1 and +1 (a loss and a win) on all {len(rows)} "
             "positions.")
    return True


def _right_viewpoint(rep, rows):
    """2. the viewpoint: X better above 0, O better below 0, whoever is to move (else which mistake)."""
    telling = [r for r in rows if r[2] != 0]
    wrong = [r for r in telling if not (r[4] * r[2] > 0)]
    if not wrong:
        rep.good(f"Clear advantages have the right sign on all {len(telling)} positions "
                 "(X better: above 0, O better: below 0, whoever is to move).")
        return True
    flipped = [r for r in telling if r[4] * r[2] < 0]
    o_moves = [r for r in telling if _C4.to_move(r[1]) == MIN]
    x_moves = [r for r in telling if _C4.to_move(r[1]) == MAX]
    if len(flipped) == len(telling):
        rep.bad("Every clear advantage has the wrong sign: your evaluation scores positions from O's "
                "point of view.",
                "evaluate(state) scores from X's (MAX's) point of view, like game.utility: positive when "
                "X is better, whoever is to move; the search decides who maximises. Swap your X and O "
                "counts (or the sign).")
    elif (all(r in flipped for r in o_moves) and not any(r in flipped for r in x_moves)) and o_moves:
        rep.bad("Where O is to move your advantages have the opposite sign: your evaluation scores for "
                "the player to move.",
                "evaluate(state) scores from X's (MAX's) point of view whoever is to move: do not flip "
                "the sign when O moves (negamax flips signs itself; AlphaBetaAgent does not need it).")
    else:
        moves, state, better, words, value, _ = wrong[0]
        side = "X" if better > 0 else "O"
        rep.bad(f"After moves {list(moves)} ({words}) {side} is clearly better, but you return "
                f"{fmt(value)}{' (no advantage)' if value == 0 else ''}:\n{_board_text(state)}",
                "Count what makes a position good for X (e.g. windows of four cells holding X's pieces "
                "and no O's) minus the same for O.")
    return False


def _tells_positions_apart(rep, rows):
    """3. not the same value everywhere."""
    values = [r[4] for r in rows]
    if all(v == values[0] for v in values):
        rep.bad(f"Your evaluation returns {fmt(values[0])} on every position: it cannot tell good positions "
                "from bad ones, so the search plays at random until it sees a win.",
                "Count features: windows of four cells with three or two of one colour and none of the "
                "other, pieces in the centre column.")
        return False
    rep.good("It tells positions apart.")
    return True


def _fast_enough(rep, fn, state, printed):
    """4. speed (the tournament calls it thousands of times)."""
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
        rep.bad(f"One evaluation takes {ms:.1f} ms: a depth-3 search calls it a few hundred times per move, "
                "so a tournament would take many minutes. Aim for well under 1 ms.",
                "Read the board once per call (e.g. with board(state)), not cell by cell through game "
                "methods, and avoid copying it per window.")
        return False
    rep.good("It is fast enough for a tournament.")
    return True


# ============================================================================
# Connect Four: tournaments against reference agents
# ============================================================================

_CENTRE = _C4.column_mask << (3 * _C4.bits_per_column)


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


#: The share of the games a student's agent must win against each reference.
_PASS = {"random": 0.9, "weak": 0.65}

#: The seeds a student's tournament against the weak reference is drawn from (:func:`tournament_seed`):
#: each measured (``python benchmarks/a3_variants.py --pool``; 20 games, depth 3) to be one on which
#: A3's reference evaluation wins at least 14 games and the weak reference's own evaluation (the centre
#: column) at most 11, so that the bar of 13 wins separates them on every variant.
WEAK_SEEDS = (0, 3, 4, 7, 8, 9, 10, 11, 12, 13, 16, 17, 20, 21, 30, 31, 33, 35, 36, 38, 43, 45, 48, 50,
              51, 52, 54, 55, 57, 58, 59, 62)


def tournament_seed(variant, opponent):
    """The seed of a student's tournament against ``opponent``, drawn from their ``variant`` (``"jdoe/A3"``).

    Against ``"random"`` any seed is fair (a sound evaluation wins every game); against ``"weak"`` the seed
    is one of :data:`WEAK_SEEDS`, the seeds measured to separate a sound evaluation from a weak one.

    Examples
    --------
    >>> seed = tournament_seed("jdoe/A3", "weak")
    >>> seed in WEAK_SEEDS, seed == tournament_seed("jdoe/A3", "weak")
    (True, True)
    >>> tournament_seed("jdoe/A3", "random") != tournament_seed("zoe/A3", "random")
    True
    """
    if not isinstance(variant, str) or not variant.strip():
        raise ValueError(f"variant must be a student's seed such as 'jdoe/A3', got {variant!r}")
    if opponent not in _PASS:
        raise ValueError(f"opponent must be 'random' or 'weak', got {opponent!r}")
    digest = int.from_bytes(hashlib.sha256(f"{variant}/{opponent}".encode()).digest()[:8], "big")
    return WEAK_SEEDS[digest % len(WEAK_SEEDS)] if opponent == "weak" else digest
_WATCHED, _SAMPLE = 200, 64  # calls of the evaluation watched in a tournament: the first ones, then 1 in 64


def check_tournament(evaluate, opponent, *, games=20, seed=2024, depth=3, variant=None):
    """Play ``evaluate`` in a seeded tournament (see :func:`_check_tournament`), within the check's time
    limit.

    ``variant`` (a student's seed, e.g. ``"jdoe/A3"``): the tournament is that student's own, its seed
    drawn from the variant (:func:`tournament_seed`) in place of ``seed``.
    """
    if variant is not None:
        seed = tournament_seed(variant, opponent)
    if deferred():
        fb = deferred_feedback("check_tournament")
        fb.result = None
        return fb
    limit = check_limit()
    try:
        with time_limit(limit):
            return _check_tournament(evaluate, opponent, games=games, seed=seed, depth=depth)
    except OutOfTime:
        fb = out_of_time("check_tournament", limit)
        fb.result = None
        return fb


def _check_tournament(evaluate, opponent, *, games=20, seed=2024, depth=3):
    """Enter ``evaluate`` in a seeded Connect Four tournament against a reference agent.

    Your agent is ``AlphaBetaAgent(depth=depth, evaluate=evaluate)`` on the
    6x7 board; seats alternate. To pass: against ``"random"`` win at least
    90% of the games; against ``"weak"`` at least 65% (13 of 20), clearly
    more than the weak reference's own evaluation wins against it (about
    half).

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
    >>> fb = check_tournament(centre_column_evaluation, "random", games=4, seed=1)
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
    printed = Printed()
    not_played = _not_playable(evaluate, title, printed)
    if not_played is not None:
        return not_played
    you = AlphaBetaAgent(depth=depth, evaluate=_sometimes_watched(evaluate), name="you")
    try:
        with contextlib.redirect_stdout(printed.buffer):
            result = tournament(you, ref, _C4, games=games, seed=seed, progress=False)
    except UsedLibrary as exc:
        fb = library_feedback(f"{title} (stopped during a game)", [exc.name], "evaluation")
        fb.result = None
        return fb
    except Exception as exc:  # noqa: BLE001 -- the evaluation failed inside a search
        text = f"The tournament stopped: your evaluation raised {describe_error(exc)} during a search."
        fb = Feedback(f"{title}: stopped.", [("bad", text, None)])
        fb.result = None
        return fb
    return _tournament_feedback(result, ref.name, opponent, games, title, printed)


def _not_playable(evaluate, title, printed):
    """The feedback of an evaluation that fails (or uses the library) on two positions, before any game."""
    for moves in ((), (3, 3, 2)):
        _, problem = _probe(evaluate, _C4.from_moves(moves), printed)
        if printed.library:
            fb = library_feedback(f"{title} (not played)", printed.library, "evaluation")
            fb.result = None
            return fb
        if problem:
            text = ("evaluate still raises NotImplementedError: write it first (no game was played)."
                    if "NotImplementedError" in problem else
                    f"evaluate {problem} on the position after moves {list(moves)}: fix it first (no game "
                    "was played); check_connect4_evaluation shows more.")
            fb = Feedback(f"{title}: not played.", [("bad", text, error_hint(problem))])
            fb.result = None
            return fb
    return None


def _sometimes_watched(evaluate):
    """``evaluate``, its first calls and then one in _SAMPLE run under a :class:`LibraryGuard`.

    A guard on every call would triple the tournament's time, and an evaluation that hands its work to
    the library does so on most positions.
    """
    guard, calls = LibraryGuard(), [0]

    def guarded(state):
        calls[0] += 1
        if calls[0] <= _WATCHED or calls[0] % _SAMPLE == 0:
            with guard:
                return evaluate(state)
        return evaluate(state)

    return guarded


def _tournament_feedback(result, ref_name, opponent, games, title, printed):
    """Passed or not, with the seats' scores; when not, a game the student lost to replay."""
    wins = result.wins["you"]
    seats = result.seat_scores["you"]
    detail = f"{seats['first']} moving first, {seats['second']} moving second"
    need = math.ceil(_PASS[opponent] * games)
    rep = Report()
    line = f"You won {wins} of {games} games (at least {need} needed): {detail}."
    ok = wins >= need
    if ok:
        rep.good(line)
    else:
        lost = next((r for r in result.records if r.winner == ref_name), None)
        hint = ("Run check_connect4_evaluation(evaluate) first: an evaluation from the wrong viewpoint makes "
                "the search steer towards O's good positions.")
        if lost is not None:
            seat = "first (X)" if lost.first == "you" else "second (O)"
            hint += (f" A game you lost (game {lost.index}, you moved {seat}): moves "
                     f"{' '.join(str(m) for m in lost.moves)}; replay it with "
                     "gt.ConnectFour().from_moves([...]).")
        rep.bad(line, hint)
    printed_note(rep, printed)
    fb = Feedback(f"{title}: {'passed' if ok else 'not passed'}.", rep.items)
    fb.result = result
    return fb
