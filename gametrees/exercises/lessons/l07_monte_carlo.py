"""Lesson 07 (Monte Carlo tree search): a UCB1 selection, a back-up, a learner's MCTS.

The checks lesson 07 calls; each compares the learner's answer with what the engine or
the lesson's rule computes, and a check on an unanswered exercise says only that it is unanswered.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ...games import MAX, TicTacToe
from ..code_checks.diagnosis import checker_feedback, printed_note
from ..code_checks.harness import Printed, check_callable, error_hint, run_learner
from ..feedback import Feedback, Report, fmt, or_list
from .reading import is_blank, unanswered

__all__ = ["check_backup", "check_mcts", "check_ucb_choice"]


def check_mcts(fn):
    """Check a learner's MCTS ``fn(game, state, iterations, seed) -> (move, visits)`` (lesson 07).

    It must find an immediate win for either player; backing up rewards from
    one fixed point of view (misconception 22) fails where O is to move.
    """
    problem = check_callable(fn, "check_mcts", "fn(game, state, iterations, seed)", 4)
    if problem:
        return Feedback("check_mcts: your function could not be called.", [("bad", problem, None)])
    game = TicTacToe()
    rep, printed, passed = Report(), Printed(), 0
    cases = ["XX./OO./...", "XX./OO./X..", "O.O/XX./X..", "OX./XO./X.."]
    for text in cases:
        s = game.from_string(text)
        mover = "X" if game.to_move(s) == MAX else "O"
        target = 1 if mover == "X" else -1
        now = [m for m, c in game.successors(s) if game.is_terminal(c) and game.utility(c) == target]
        out = run_learner(fn, (game, s, 600, 0), printed)
        move = out.value[0] if not out.error and isinstance(out.value, tuple) else out.value
        if out.error:
            rep.bad(f"{text} ({mover} to move): your function {out.error}.", error_hint(out.error))
        elif move in now:
            passed += 1
            rep.good(f"{text} ({mover} to move): wins at once with {move}.")
        else:
            rep.bad(f"{text} ({mover} to move): {mover} can win at once at {or_list(now)}, your function plays {move!r}.",
                    "Back up each playout's result from the point of view of the player who moved into the node "
                    "(a win for MAX is a loss for MIN)." if mover == "O" else None)
    printed_note(rep, printed)
    return checker_feedback("check_mcts", rep, passed, len(cases), unit="positions right")


def _ucb(w, n, N, c):
    return math.inf if n == 0 else w / n + c * math.sqrt(math.log(N) / n)


def check_ucb_choice(children, parent_visits, answer, c=math.sqrt(2)):
    """Check which child MCTS's selection step takes by UCB1 (lesson 07).

    Parameters
    ----------
    children : dict
        ``{name: (wins, visits)}``, wins from the point of view of the player
        choosing at the parent.
    parent_visits : int
        The parent's visits N.
    answer : str
        The child the learner says selection takes.
    c : float, default sqrt(2)

    Examples
    --------
    >>> kids = {"a": (7, 10), "b": (1, 2), "c": (20, 38)}
    >>> check_ucb_choice(kids, 50, "b").ok
    True
    >>> check_ucb_choice(kids, 50, "c").lines[0]   # doctest: +ELLIPSIS
    '✗ You chose c, the most visited child: ...'
    """
    if not isinstance(children, Mapping) or not children:
        raise TypeError("children must be a non-empty dict {name: (wins, visits)}")
    if is_blank(answer):
        return unanswered("UCB1 selection", f"Write the name of the child selection takes, one of "
                                             f"{', '.join(map(repr, children))}.")
    scores = {m: _ucb(w, n, parent_visits, c) for m, (w, n) in children.items()}
    best = max(scores.values())
    right = [m for m in children if scores[m] == best or math.isclose(scores[m], best, rel_tol=1e-12)]
    listing = "; ".join(
        f"{m}: {fmt(w)}/{n} + {fmt(round(c, 3))}·√(ln {parent_visits}/{n}) = {fmt(round(scores[m], 3))}"
        if n else f"{m}: never visited, +∞" for m, (w, n) in children.items())
    key = answer.strip() if isinstance(answer, str) else answer
    rep = Report()
    if key not in children:
        rep.bad(f"{answer!r} is not one of the children {', '.join(map(repr, children))}.")
        return rep.feedback("UCB1 selection")
    if key in right:
        rep.good(f"{key}: it has the highest UCB1 score ({listing}).")
        return rep.feedback("UCB1 selection")
    w, n = children[key]
    most_visited = max(children.values(), key=lambda wn: wn[1])[1]
    best_mean = max(w2 / n2 for w2, n2 in children.values() if n2)
    if n == most_visited:
        rep.bad(f"You chose {key}, the most visited child: that is how the move to *play* is chosen after the "
                f"search, not how selection chooses. Selection takes the highest UCB1 score: {listing}.")
    elif n and w / n == best_mean:
        rep.bad(f"You chose {key}, the best mean ({fmt(w)}/{n}), which is exploitation only. UCB1 adds the "
                f"exploration term, which is larger for rarely tried children: {listing}.")
    else:
        rep.bad(f"You chose {key}, but {' or '.join(right)} scores higher: {listing}.")
    return rep.feedback("UCB1 selection")


def check_backup(path, max_won, answer):
    """Check the (wins, visits) of each node on an MCTS path after one back-up (lesson 07).

    Parameters
    ----------
    path : list of (name, mover, wins, visits)
        From the root down to the new node; ``mover`` is ``"max"``, ``"min"``
        or ``None`` (the root: nobody moved into it), ``wins`` from the mover's
        point of view (1 a win, 0.5 a draw).
    max_won : float
        The playout's result for MAX: 1 (MAX won), 0.5 (a draw) or 0 (MAX lost).
    answer : dict
        ``{name: (wins, visits)}`` after the back-up.

    Examples
    --------
    >>> path = [("root", None, 0, 10), ("B", "max", 6, 7), ("E", "min", 1, 3)]
    >>> check_backup(path, 1, {"root": (0, 11), "B": (7, 8), "E": (1, 4)}).ok
    True
    >>> print(check_backup(path, 1, {"root": (0, 11), "B": (7, 8), "E": (2, 4)}).lines[-1])
    ✗ E: you wrote (2, 4), but MIN moved into E and MIN lost this playout: you credited the result from MAX's point of view; its wins become 1 + 0 = 1.
    """
    if is_blank(answer) or (isinstance(answer, Mapping) and all(is_blank(v) for v in answer.values())):
        return unanswered("MCTS back-up", "Write the new (wins, visits) of every node on the path, e.g. "
                                           f"{{{path[0][0]!r}: (wins, visits), ...}}.")
    if not isinstance(answer, Mapping):
        return Feedback("MCTS back-up: the answer could not be read.",
                        [("bad", f"Expected a dict name -> (wins, visits), got {type(answer).__name__}.", None)])
    rep = Report()
    for name, mover, wins, visits in path:
        got = answer.get(name)
        reward = max_won if mover == "max" else 1 - max_won if mover == "min" else 0
        right = (wins + reward, visits + 1)
        if is_blank(got):
            rep.bad(f"{name}: not answered yet.")
            continue
        try:
            gw, gn = got
            gw, gn = float(gw), float(gn)
        except (TypeError, ValueError):
            rep.bad(f"{name}: expected a pair (wins, visits), got {got!r}.")
            continue
        if math.isclose(gw, right[0]) and gn == right[1]:
            who = {"max": "MAX", "min": "MIN"}.get(mover)
            why = ("the root counts visits only" if who is None else
                   f"{who} moved into {name} and scores {fmt(reward)} for this playout")
            rep.good(f"{name}: ({fmt(right[0])}, {right[1]}): {why}.")
            continue
        problems = []
        if gn != right[1]:
            problems.append(f"every node on the path gets one more visit: {visits} + 1 = {right[1]}"
                            if gn == visits else f"the visits become {visits} + 1 = {right[1]}")
        if not math.isclose(gw, right[0]):
            if mover is None:
                problems.append(f"nobody moved into the root, so its wins are not used and stay {fmt(wins)}")
            else:
                who, other = ("MAX", "MIN") if mover == "max" else ("MIN", "MAX")
                outcome = {1: f"{who} won", 0: f"{who} lost", 0.5: "it was a draw"}.get(
                    max_won if mover == "max" else 1 - max_won, "")
                wrong_view = wins + (1 - reward)
                if math.isclose(gw, wrong_view) and not math.isclose(reward, 0.5):
                    problems.append(f"{who} moved into {name} and {outcome} this playout: you credited the "
                                    f"result from {other}'s point of view; its wins become "
                                    f"{fmt(wins)} + {fmt(reward)} = {fmt(right[0])}")
                else:
                    problems.append(f"{who} moved into {name} and {outcome} this playout, so its wins become "
                                    f"{fmt(wins)} + {fmt(reward)} = {fmt(right[0])}")
        rep.bad(f"{name}: you wrote ({fmt(gw)}, {fmt(gn)}), but " + "; ".join(problems) + ".")
    extra = [k for k in answer if k not in {p[0] for p in path}]
    if extra:
        rep.note(f"Not on the path (ignored): {', '.join(map(str, extra))}; nodes off the path do not change.")
    return rep.feedback("MCTS back-up")
