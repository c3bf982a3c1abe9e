"""Lesson 07 (Monte Carlo tree search): the exploration constant's scale, and the move to play.

The lesson's other exercises are generated ones of the ``"mcts"`` kind
(:class:`~gametrees.exercises.by_hand.MCTSExercise`: one playout by hand). The
checks here follow the feedback rules: an unanswered exercise is said to be
unanswered and nothing more, an unreadable answer "could not be read", a wrong
one names what is wrong and the rule to re-apply without the right answer, and
a second wrong check works the same mistake through on a twin (other numbers).

Examples
--------
>>> check_exploration_c(None, (2, 14)).status
'unanswered'
>>> print(check_exploration_c(17, (2, 14)).lines[0])  # doctest: +ELLIPSIS
✓ c = 17: the results spread over 12 instead of 1, ... 12√2 ≈ 16.97.
>>> check_exploration_c(12 * 1.4, (2, 14)).ok    # 1.005 % below 12√2
False
>>> print(check_exploration_c(1.41, (2, 14)).lines[0])  # doctest: +ELLIPSIS
✗ c = 1.41 is UCB1's constant for results from 0 to 1...
>>> after = {0: (82, 0.17), 1: (54, 0.07), 2: (116, 0.24), 3: (165, 0.3), 4: (53, 0.32),
...          5: (15, -0.33), 6: (15, -0.33)}    # gt.mcts(ConnectFour(), playouts=500, seed=8)'s root
>>> check_final_move(after, 3).ok
True
>>> check_final_move(after, 4).tags
('final-move-by-mean',)
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Mapping

from ...games import MAX, ConnectFour, TicTacToe
from ...rules import ucb1
from ...search import mcts
from ..attempts import escalate
from ..feedback import Report, fmt, malformed, or_list, unanswered
from .reading import is_blank

__all__ = ["check_exploration_c", "check_final_move", "final_move_counts", "scaled_c"]

#: UCB1's constant (Auer, Cesa-Bianchi and Fischer, 2002), for results (rewards) between 0 and 1.
_SQRT2 = math.sqrt(2)
#: How close a right answer must be to the scaled constant: within 1 % of it, as the exercise says (it asks
#: for 2 decimals; √2 taken as 1.4 is 1.005 % below, outside).
_REL_RIGHT = 0.01
#: How close an answer must be to what a named slip gives for the feedback to name that slip.
_REL_SLIP = 0.005
#: The coarsest √2 a learner is taken to use: each value is compared with the range it takes from √2 ≈ 1.4
#: up to √2 itself.
_SQRT2_ROUGH = 1.4
#: Relative distance within which an answer is near the right constant but not within _REL_RIGHT (feedback
#: on the precision, not on the rule).
_REL_CLOSE = 0.05


def _near(c, of_root2, rel):
    """Whether ``c`` is within ``rel`` of ``of_root2(r)`` for some r from √2 ≈ 1.4 up to √2.

    Every value the check compares with is ``k · √2 + d`` for some k > 0: the
    learner's √2 can be rounded to 1.4, 1.41 or 1.414, so the answer is
    compared with the interval those give, widened by ``rel`` on both sides.

    >>> [_near(c, lambda r: 12 * r, rel) for c, rel in [(16.8, 0), (16.75, 0.005), (16.2, 0.01)]]
    [True, True, False]
    """
    low, high = sorted((of_root2(_SQRT2_ROUGH), of_root2(_SQRT2)))
    return low - rel * abs(low) <= c <= high + rel * abs(high)


def scaled_c(results):
    """The exploration constant that weighs as UCB1's √2 does for results from 0 to 1: √2 · (high − low).

    Mapping results from [low, high] onto [0, 1] divides every difference of
    means by (high − low); UCB1 with c = √2 there selects exactly as UCB1 with
    c = √2 · (high − low) on the results themselves (every score is the same
    affine function of the other).

    >>> round(scaled_c((0, 1)), 4), round(scaled_c((-1, 1)), 4), round(scaled_c((2, 14)), 2)
    (1.4142, 2.8284, 16.97)
    """
    lo, hi = results
    if not hi > lo:
        raise ValueError(f"results must be (low, high) with low < high, got {results!r}")
    return _SQRT2 * (hi - lo)


def _scale_twin(results, slip=None):
    """The reasoning worked through on another range of results: one selection, at two scales; it ends on
    the learner's slip (``"largest"``: scaled by the largest result; ``"half"``, ``"two"``: by half the
    spread, by 2; ``"factor"``: the spread's factor taken as c; ``"imprecise"``: √2 rounded too soon; else
    the shift, which leaves c alone)."""
    # a range that does not start at 0, so that its spread is not its largest result
    t_lo, t_hi = (10, 30) if tuple(results) != (10, 30) else (-3, 5)
    spread = t_hi - t_lo
    big_n, kids = 10, {"x": (2, 0.5), "y": (8, 0.7)}   # child: (visits, mean for results in [0, 1])

    def pick(low, scale, c):
        """The child selection takes with the results mapped from [0, 1] to low + scale · result."""
        scores = {k: ucb1(low + scale * m, n, big_n, c) for k, (n, m) in kids.items()}
        best = max(scores, key=scores.get)
        return best, ", ".join(f"{k} {fmt(round(v, 2))}" for k, v in scores.items())

    unit, unit_scores = pick(0, 1, _SQRT2)
    plain, plain_scores = pick(t_lo, spread, _SQRT2)
    means = ", ".join(f"{k} {fmt(round(t_lo + spread * m, 2))}" for k, (_, m) in kids.items())
    gap = kids["y"][1] - kids["x"][1]
    # the twin works which part of the map widens the gaps; it does not state the rule for c, nor its c
    return (f"with results from 0 to 1, N = {big_n}, child x ({kids['x'][0]} visits, mean "
            f"{fmt(kids['x'][1])}) and child y ({kids['y'][0]} visits, mean {fmt(kids['y'][1])}), UCB1 with "
            f"c = √2 scores {unit_scores}: {unit}. The same playouts with results from {t_lo} to {t_hi} have "
            f"means {means} (each result r becomes {fmt(t_lo)} + {spread}·r): adding {fmt(t_lo)} moves both "
            f"means by {fmt(t_lo)} and leaves their gap alone; multiplying by {spread} widens it from "
            f"{fmt(round(gap, 2))} to {fmt(round(spread * gap, 2))}. With c = √2 the scores are "
            f"{plain_scores}, so selection takes {plain}: the exploration term, the same as on 0 to 1, is "
            "drowned by the wider gap. " + _twin_close(slip, t_lo, t_hi))


def _twin_close(slip, t_lo, t_hi):
    """The twin's closing sentence, on the learner's slip; it leaves the factor to the learner."""
    if slip == "largest":
        return (f"So c follows what widens the gaps, not the largest result, {t_hi}, which counts the shift "
                f"of {fmt(t_lo)} too.")
    if slip in ("half", "two"):
        other = "half of it" if slip == "half" else "2, the spread of −1 to +1"
        return (f"So measure that widening against 0 to 1, not {other}: √2 is UCB1's constant for results "
                "from 0 to 1, a spread of 1 (for −1 to +1, a spread of 2, it is 2√2).")
    if slip == "factor":
        return ("So the factor measures how much the gaps widened: it multiplies the constant that gave "
                "exploration its weight on 0 to 1, it does not replace it.")
    if slip == "imprecise":
        return ("Whatever factor the exploration term needs, compute it with √2 ≈ 1.4142 and round only at "
                "the end.")
    return ("So the shift does not enter c: which factor gives the exploration term back its weight against "
            "the gaps?")


def check_exploration_c(answer, results):
    """Check the exploration constant that gives UCB1 the weight √2 has for results from 0 to 1.

    Parameters
    ----------
    answer : number
        The learner's c.
    results : (low, high)
        The range of the results (leaf utilities) of the tree MCTS searches.

    The rule: UCB1's √2 (Auer et al., 2002) assumes results between 0 and 1.
    Its exploration term is compared with differences of means, which grow
    with the spread of the results; c must grow in proportion:
    c = √2 · (high − low) (:func:`scaled_c`), 2√2 for results from −1 to +1.
    """
    what = "Exploration constant"
    lo, hi = results
    key = f"l07:exploration_c:{results}"
    if is_blank(answer):
        fb = unanswered(what, "Replace None with your c (a number) and run the cell again.")
        return escalate(key, fb)
    if isinstance(answer, bool) or not isinstance(answer, numbers.Real) or not math.isfinite(answer):
        fb = malformed(what, f"Could not read {answer!r}: give c as a number, such as 2.5.")
        return escalate(key, fb)
    c = float(answer)
    right = scaled_c(results)
    spread = hi - lo
    rep = Report()

    def made(of_root2):
        """Whether c is what ``of_root2(√2)`` gives, within the slip tolerance (√2 possibly rounded)."""
        return _near(c, of_root2, _REL_SLIP)

    shown = fmt(round(c, 2))
    slip = None
    if abs(c - right) <= _REL_RIGHT * right:
        rep.good(f"c = {shown}: the results spread over {fmt(spread)} instead of 1, so the "
                 "exploration term grows by the same factor and keeps its weight against the means: "
                 f"{fmt(spread)}√2 ≈ {right:.2f}.")
    elif c <= 0:
        rep.bad(f"c = {shown}: c must be positive: the exploration term c·√(ln N / n) adds a bonus to the "
                "children tried less often, and a zero or negative c removes or reverses it. Compare the "
                f"spread of the results here ({fmt(lo)} to {fmt(hi)}) with the spread of 0 to 1, for which "
                "UCB1's √2 is chosen.")
    elif made(lambda r: r):
        rep.bad(f"c = {shown} is UCB1's constant for results from 0 to 1. Here the results run "
                f"from {fmt(lo)} to {fmt(hi)}: how many times wider is that range, and what does that do to "
                "the gaps between the children's means that the exploration term competes with?")
    elif lo != 0 and made(lambda r: lo + r * spread):
        rep.bad(f"c = {shown} is √2 mapped the way a result is mapped from 0..1 onto {fmt(lo)}..{fmt(hi)}: "
                f"multiplied by the spread, then {fmt(lo)} added. But c is not a result. Adding the same "
                "number to every result moves every mean by it, so the addition cancels when two children's "
                "scores are compared; only what changes the gaps between the means should change c.")
    elif spread != 2 and made(lambda r: r * spread / 2):
        slip = "half"
        rep.bad(f"c = {shown} is √2 scaled by half the spread, as if √2 were the constant for results "
                "from −1 to +1 (a spread of 2); UCB1's √2 comes with results from 0 to 1. Compare the spread "
                "here with that one.")
    elif spread != 2 and made(lambda r: 2 * r):
        slip = "two"
        rep.bad(f"c = {shown} is 2√2, the constant for results from −1 to +1 (a spread of 2). Here the "
                f"results run from {fmt(lo)} to {fmt(hi)}: scale √2 by their spread instead.")
    elif made(lambda r: r / spread) or made(lambda r: 2 * r / spread):
        rep.bad(f"c = {shown} is smaller than √2: it shrinks the exploration term while the means spread "
                "further apart. The term must grow with the results' spread, not shrink.")
    elif hi != spread and made(lambda r: r * hi):
        slip = "largest"
        rep.bad(f"c = {shown} is √2 × {fmt(hi)}: it scales √2 by the largest result. What matters is the "
                "spread of the results, from the lowest to the highest, compared with the spread of 0 to 1.")
    elif hi != spread and made(lambda r: r * hi / 2):
        slip = "largest"
        rep.bad(f"c = {shown} is √2 × {fmt(hi)} / 2: it scales √2 by the largest result, halved as if √2 "
                "were the constant for results from −1 to +1. What matters is the spread of the results, "
                "from the lowest to the highest, compared with the spread of 0 to 1.")
    elif _near(c, lambda r: r * spread, _REL_CLOSE):
        slip = "imprecise"
        rep.bad(f"c = {shown} is not within 1 % of the constant the rule gives (give c to 2 decimals). If "
                "you scaled √2 by a factor, check the factor and compute with √2 ≈ 1.4142, rounding only at "
                f"the end; if not, compare the spread of the results ({fmt(lo)} to {fmt(hi)}) with the "
                "spread of 0 to 1.")
    elif spread != 1 and _near(c, lambda _: spread, _REL_SLIP):
        slip = "factor"
        rep.bad(f"c = {shown} is the factor by which the results' spread grew (from 0..1 to "
                f"{fmt(lo)}..{fmt(hi)}), taken as c itself: the factor says how much the gaps between the "
                "means grew, and so how much the exploration term must grow; from which constant, on 0 to 1?")
    else:
        rep.bad(f"c = {shown}: not the c that gives exploration the weight √2 has for results from 0 to 1. "
                f"Two questions: if 10 were added to every result, would any gap between two means change? "
                f"If every result were multiplied by 3, how would the gaps change, and c with them? Then "
                f"compare {fmt(lo)}..{fmt(hi)} with 0..1.")
    return escalate(key, rep.feedback(what), twin=lambda _: _scale_twin(results, slip),
                    on="another range of results")


#: The twin search: tic-tac-toe from ``X../.O./..X`` (O to move), 500 playouts, seed 2, where the most
#: visited move and the move with the best mean for O differ, and neither is the lesson's answer (column 3
#: of Connect Four: a twin on that board, with that move, would hand it over). Found by running it;
#: :func:`_final_move_twin` runs it again.
_TWIN_SEARCH = {"board": "X../.O./..X", "playouts": 500, "seed": 2}


def _final_move_twin():
    """A real search whose most visited root child is not the one with the best mean, worked through."""
    game = TicTacToe()
    start = TicTacToe.from_string(_TWIN_SEARCH["board"])
    r = mcts(game, start, playouts=_TWIN_SEARCH["playouts"], seed=_TWIN_SEARCH["seed"], trace=False)
    G = r.graph
    sign = 1 if game.to_move(start) == MAX else -1   # the means are MAX's (X's); O's are their negatives
    kids = {c[-1]: (G.nodes[c]["visits"], sign * G.nodes[c]["value"])
            for c in G.successors(G.graph["root"])}
    most = max(kids, key=lambda m: kids[m][0])
    best = max(kids, key=lambda m: kids[m][1])
    (vm, mm), (vb, mb) = kids[most], kids[best]
    who = "X" if sign == 1 else "O"
    return (f"tic-tac-toe from {_TWIN_SEARCH['board']}, {who} to move (squares 0 to 8, row by row), "
            f"{_TWIN_SEARCH['playouts']} playouts (gt.mcts, seed {_TWIN_SEARCH['seed']}): square {most} has "
            f"{vm} visits and mean {fmt(round(mm, 2))} for {who}, square {best} has {vb} visits and the best "
            f"mean, {fmt(round(mb, 2))}. MCTS plays {most}, the most visited: its mean rests on {vm} "
            f"results, square {best}'s on {vb}.")


#: Lesson 07's Exercise 5: the search whose root the learner reads (Connect Four, the empty board).
_LESSON_SEARCH = {"playouts": 500, "seed": 8}


def final_move_counts():
    """The root's children after lesson 07's search, ``{column: (visits, mean for X rounded to 2 decimals)}``.

    The search is :func:`gametrees.mcts` from the empty Connect Four board, 500
    playouts, seed 8; only the counts are given, so that the move is the
    learner's to name (the search's ``.move`` would give it).

    Examples
    --------
    >>> final_move_counts()[3]
    (165, 0.3)
    """
    r = mcts(ConnectFour(), playouts=_LESSON_SEARCH["playouts"], seed=_LESSON_SEARCH["seed"], trace=False)
    G = r.graph
    return {c[-1]: (G.nodes[c]["visits"], round(G.nodes[c]["value"], 2))
            for c in G.successors(G.graph["root"])}


def check_final_move(children, answer):
    """Check the move MCTS plays after its search: the most visited child of the root.

    Parameters
    ----------
    children : dict
        ``{move: (visits, mean)}`` of the root's children after the search
        (means for the player who moves at the root).
    answer
        The move the learner says MCTS plays.
    """
    what = "The move to play"
    if not isinstance(children, Mapping) or not children:
        raise TypeError("children must be a non-empty dict {move: (visits, mean)}")
    key = f"l07:final_move:{sorted(children.items())}"
    if is_blank(answer):
        return escalate(key, unanswered(what, f"Replace None with one move, {or_list(map(repr, children))}."))
    if isinstance(answer, bool) or not isinstance(answer, Hashable) or answer not in children:
        return escalate(key, malformed(what, f"Could not read {answer!r}: name one move, "
                                             f"{or_list(map(repr, children))}."))
    visits = {m: v for m, (v, _) in children.items()}
    means = {m: mean for m, (_, mean) in children.items()}
    most = max(visits.values())
    rep = Report()
    if visits[answer] == most:
        rep.good(f"{answer!r}: the most visited move; its mean rests on {visits[answer]} playouts, the most "
                 "MCTS gave any move, because selection kept coming back to it.")
        return escalate(key, rep.feedback(what))
    best_mean = max(means.values())
    if means[answer] == best_mean and visits[answer] < most:
        rep.bad(f"{answer!r} has the best mean, but over {visits[answer]} playout"
                f"{'s' if visits[answer] != 1 else ''}, fewer than the most visited move's: the fewer the "
                "playouts, the more luck in a mean, and the budget can end before selection has tested a "
                "mean that rose late. Which count tells how far MCTS trusts a move?",
                tag="final-move-by-mean")
    else:
        more = sum(v > visits[answer] for v in visits.values())
        rep.bad(f"{answer!r} has {visits[answer]} visits, fewer than {more} other move"
                f"{'s' if more != 1 else ''}, and not the best mean: after the search MCTS plays the move "
                "whose estimate it trusts most. Which of the two numbers measures that trust?")
    fb = rep.feedback(what)

    def twin(_):
        return _final_move_twin()

    return escalate(key, fb, twin=twin, on="another search")
