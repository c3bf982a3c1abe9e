"""Lesson 01 (game trees): counting a game's leaves, the effective branching factor, kinds of games.

The checks lesson 01 calls. A check on an unanswered exercise says only that it is
unanswered; a wrong answer is told what is wrong and which rule to re-apply, never the
right count, factor or kind; from the second wrong check on, the same reasoning is worked
through on a twin (another game of the same kind), via
:func:`gametrees.exercises.attempts.escalate`. The worked answers (``solution_nim_leaves``,
``solution_game_kinds``, ``solution_effective_branching``) open only after an attempt
(:func:`gametrees.exercises.attempts.worked_answer`); a check after one says so and does not
count as solved.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ...games import Nim
from ...search import minimax
from ..attempts import escalate, worked_answer
from ..feedback import Report, fmt, malformed
from .reading import number_answer, unanswered

__all__ = ["GAME_KIND_REASONS", "check_effective_branching", "check_game_kinds", "check_nim_leaves",
           "solution_effective_branching", "solution_game_kinds", "solution_nim_leaves"]


_GAME_KINDS = {
    "chess": ("deterministic", "perfect"), "go": ("deterministic", "perfect"),
    "checkers": ("deterministic", "perfect"), "tic-tac-toe": ("deterministic", "perfect"),
    "connect four": ("deterministic", "perfect"), "nim": ("deterministic", "perfect"),
    "backgammon": ("chance", "perfect"), "ludo": ("chance", "perfect"), "pig": ("chance", "perfect"),
    "battleship": ("deterministic", "hidden"), "stratego": ("deterministic", "hidden"),
    "kriegspiel": ("deterministic", "hidden"), "mastermind": ("deterministic", "hidden"),
    "poker": ("chance", "hidden"), "scrabble": ("chance", "hidden"), "bridge": ("chance", "hidden"),
    "dominoes": ("chance", "hidden"),
}


# The facts a learner chooses from for lesson 01's four games (one decides each; the others are distractors).
GAME_KIND_REASONS = {
    1: "You cannot know what your opponent will play next.",
    2: "Nothing is random: one player picks a code, and the other must find it out.",
    3: "Something is unknown to a player, so the game is one of chance.",
    4: "A die is rolled during play, and every piece is in view.",
    5: "Pieces are shuffled face down and drawn during play, and each player's are kept from the others.",
    6: "The outcome is uncertain until the game ends.",
    7: "Nothing is random, but each player sees only their own pieces on the board.",
}
#: game -> the reason that decides its kinds (lesson 01's exercise 2); the lesson asks for all four.
_DECIDING_REASON = {"ludo": 4, "kriegspiel": 7, "mastermind": 2, "dominoes": 5}


_KIND_WORDS = {"deterministic": "deterministic", "chance": "chance", "stochastic": "chance",
               "perfect": "perfect", "hidden": "hidden", "imperfect": "hidden"}


# Why each game is where it is: the worked reasoning a twin shows (never for the game the learner got wrong).
_KIND_WHY = {
    "backgammon": "dice are rolled during the game, so chance; both players see the whole board, so perfect "
                  "information",
    "poker": "the deal is random, so chance; you cannot see the others' cards, so hidden information",
    "battleship": "nothing is random (each player places their ships by choice), so deterministic; you "
                  "cannot see your opponent's ships, so hidden information",
    "chess": "no dice or cards, so deterministic; both players see the whole board, so perfect information",
    "scrabble": "the tiles are drawn at random, so chance; you cannot see your opponent's rack, so hidden "
                "information",
    "pig": "a die is rolled on every turn, so chance; both players see both scores, so perfect information",
}

# Why each of the lesson's four games is where it is: the worked answer, after an attempt.
_LESSON_KIND_WHY = {
    "ludo": "the die is rolled during play, so chance; every piece is on the board for all to see, so "
            "perfect information",
    "kriegspiel": "nothing is random (no dice, no shuffle), so deterministic; you see only your own pieces, "
                  "so hidden information",
    "mastermind": "the code is chosen, not drawn, so deterministic; the code breaker cannot see it, "
                  "so hidden information",
    "dominoes": "the tiles are shuffled face down and drawn, so chance; the other hands are kept from you, "
                "so hidden information",
}

_CHANCE_QUESTION = ("does anything random (a die, a shuffle, a deal, a draw) decide part of what happens, a "
                    "shuffle or deal before the first move included?")
_INFO_QUESTION = "can every player see the whole state?"
_QUESTIONS = f"{_CHANCE_QUESTION} And {_INFO_QUESTION}"


def check_game_kinds(answer):
    """Check a classification of games by chance and hidden information (lesson 01).

    ``answer`` maps a game's name to a pair such as ``("chance", "hidden")``:
    ``"deterministic"`` or ``"chance"``, then ``"perfect"`` or ``"hidden"``
    information. For the lesson's four games (Ludo, Kriegspiel, Mastermind,
    Dominoes) a third item is asked: the number of the reason in
    :data:`GAME_KIND_REASONS` that decides the kinds (a pair alone is not
    enough there, so that trying the four boxes does not pass); once one of
    them is answered, each of the four missing is "not answered yet". A wrong
    pair names the half that is wrong (chance, information or both) with the
    question to ask again there;
    taking a hidden thing for chance, or an unrolled die for hidden
    information, is named as ``chance-vs-hidden``.

    Examples
    --------
    >>> check_game_kinds({"chess": ("deterministic", "perfect"),
    ...                   "battleship": ("chance", "hidden")})   # doctest: +ELLIPSIS
    ✗ Kinds of games: 1 of 2 right.
    ✓ chess: deterministic, perfect information.
    ✗ battleship: the chance half is wrong. ...
    """
    what = "Kinds of games"
    if not isinstance(answer, Mapping) or not answer:
        return malformed(what, "Could not read your answer: give a dict such as {'chess': ('deterministic', "
                               "'perfect')}.")
    if all(kind is None for kind in answer.values()):
        return unanswered(what, "Replace each None with a triple such as ('deterministic', 'perfect', 6): "
                                "the two kinds, then the number of the fact that decides them.")
    rep = Report()
    wrong = []
    for game, kind in answer.items():
        if kind is None:
            rep.bad(f"{game}: not answered yet.")
            continue
        key = _game_name(game)
        if key not in _GAME_KINDS:
            rep.note(f"{game}: not one of the games this check knows ({', '.join(sorted(_GAME_KINDS))}).")
            continue
        reason = None
        if key in _DECIDING_REASON and isinstance(kind, (tuple, list)) and len(kind) == 3:
            *kind, reason = kind
        try:
            a, b = (_KIND_WORDS[str(w).strip().lower()] for w in kind)
        except (KeyError, TypeError, ValueError):
            rep.bad(f"{game}: could not read {kind!r}: give a pair: 'deterministic' or 'chance', then "
                    "'perfect' or 'hidden'.")
            continue
        if a in ("perfect", "hidden") and b in ("deterministic", "chance"):
            a, b = b, a  # accept the pair in either order
        if a not in ("deterministic", "chance") or b not in ("perfect", "hidden"):
            rep.bad(f"{game}: {kind!r} gives two answers to one question: give one of 'deterministic' or "
                    f"'chance', and one of 'perfect' or 'hidden'.")
            continue
        right = _GAME_KINDS[key]
        if (a, b) == right and key in _DECIDING_REASON:
            if reason is None:
                rep.bad(f"{game}: give the number of the reason that decides it too: (kind, information, "
                        "reason).")
            elif reason == _DECIDING_REASON[key]:
                rep.good(f"{game}: {right[0]}, {right[1]} information: {GAME_KIND_REASONS[reason]}")
            else:
                rep.bad(f"{game}: both kinds are right, but not the reason: which fact in its rules decides "
                        "them? Ask of each reason: is it true of this game, and would it hold of chess too?")
            continue
        if (a, b) == right:
            rep.good(f"{game}: {right[0]}, {right[1]} information.")
            continue
        wrong.append(key)
        if (a, b) == ("chance", "hidden") and right in (("deterministic", "hidden"), ("chance", "perfect")):
            half = "chance" if a != right[0] else "information"
            rep.bad(f"{game}: the {half} half is wrong. Chance and hidden information are two different "
                    f"questions: something "
                    "you do not know yet (a die not yet rolled) is not hidden, and something hidden (a card "
                    f"in a hand, a secret choice) is not chance. Ask each apart: {_QUESTIONS}",
                    tag="chance-vs-hidden")
        elif a != right[0] and b != right[1]:
            rep.bad(f"{game}: both halves are wrong. Ask again from the game's rules: {_QUESTIONS}")
        elif a != right[0]:
            rep.bad(f"{game}: the chance half is wrong (the information half is right). Ask again: "
                    f"{_CHANCE_QUESTION}")
        else:
            rep.bad(f"{game}: the information half is wrong (the chance half is right). Ask again: "
                    f"{_INFO_QUESTION}")

    given = {_game_name(g) for g in answer}
    if given & set(_DECIDING_REASON):   # the lesson's exercise: each of its four games is asked for
        for game in _DECIDING_REASON:
            if game not in given:
                rep.bad(f"{game.capitalize()}: not answered yet.")

    def twin(_fb):
        # another game of the same kinds as the first one answered wrong: the same questions, a new case
        # (Mastermind wrong: Battleship, whose secret is chosen, not drawn)
        same = next((g for k in wrong for g in _KIND_WHY
                     if g not in wrong and _GAME_KINDS[g] == _GAME_KINDS[k]), None)
        rights = {_GAME_KINDS[k] for k in wrong}
        other = same or next((g for g in _KIND_WHY if _GAME_KINDS[g] not in rights), None)
        return (f"{other}: {_KIND_WHY[other]}." if other else None)

    # The lesson's exercise is one problem however its games are spelled (its worked answer's key).
    games = sorted(_DECIDING_REASON) if given & set(_DECIDING_REASON) else sorted(given)
    return escalate("lesson01.game_kinds." + ",".join(games), rep.feedback(what), twin=twin,
                    on="another game")


def _game_name(game):
    """A game's name as the checks know it: "Tic Tac Toe" is "tic-tac-toe", "Domino" is "dominoes"."""
    key = str(game).strip().lower().replace("tic tac toe", "tic-tac-toe").replace("connect 4", "connect four")
    return {"domino": "dominoes", "dominos": "dominoes"}.get(key, key)


def solution_game_kinds():
    """The worked answer of :func:`check_game_kinds` on the lesson's four games (Ludo, Kriegspiel,
    Mastermind, Dominoes), only after an attempt: each game's kinds and the fact that decides them."""
    def make():
        rows = [f"{game.capitalize()}: {(*_GAME_KINDS[game], _DECIDING_REASON[game])!r}: "
                f"{_LESSON_KIND_WHY[game]}. Fact {_DECIDING_REASON[game]}: "
                f"{GAME_KIND_REASONS[_DECIDING_REASON[game]]}" for game in _DECIDING_REASON]
        idle = sorted(set(GAME_KIND_REASONS) - set(_DECIDING_REASON.values()))
        rows.append(f"Facts {', '.join(map(str, idle[:-1]))} and {idle[-1]} decide none: each is true of "
                    "chess too, or takes not knowing for chance. Not knowing something (the opponent's next "
                    "move, how the game ends) is not chance: chance is something random in the game.")
        return "\n".join(rows)
    return worked_answer("lesson01.game_kinds." + ",".join(sorted(_DECIDING_REASON)), "solution_game_kinds()",
                         make)


def _nim_counts(coins):
    stats = minimax(Nim(coins), trace=False).stats
    return stats["leaves_evaluated"], stats["nodes_visited"]


def _one_or_two(coins):
    """The twin: a Nim where a move takes 1 or 2 coins, its leaf counts L(0) .. L(coins) worked out."""
    counts = [1, 1]
    while len(counts) <= coins:
        counts.append(counts[-1] + counts[-2])
    steps = ", ".join(f"L({n}) = {counts[n]}" for n in range(coins + 1))
    return counts[coins], (f"a Nim where a move takes 1 or 2 coins (not 1, 2 or 3), with {coins} coins. The "
                           "first move leaves a game with 1 or 2 coins fewer, so L(n) = L(n - 1) + L(n - 2), "
                           f"with L(0) = 1 (the game is over) and L(1) = 1: {steps}")


def _worked_b_star(coins):
    """The effective branching factor reasoned out on a new case: a Nim where a move takes 1 or 2 coins."""
    count, text = _one_or_two(coins)
    d = coins
    low = next(x / 10 for x in range(10, 31) if ((x + 1) / 10) ** d > count)   # b^d just below and above L
    high = round(low + 0.1, 1)
    b = count ** (1 / d)
    return (f"{text}. Its depth d is its longest game, one coin at a time: {d} plies. b* is the branching of "
            f"a uniform tree of depth {d} with as many leaves, {count}: try a branching, count that tree's "
            f"leaves, and adjust. {fmt(low)}^{d} ≈ {low ** d:.1f} is too few and {fmt(high)}^{d} ≈ "
            f"{high ** d:.1f} too many, so b* lies between {fmt(low)} and {fmt(high)}; the {d}th root of "
            f"{count} gives {b:.3f}. It is below 2, the most moves a position has here: with 1 coin left "
            f"there is 1 move, and most games are shorter than {d} plies")


def check_nim_leaves(coins, answer):
    """Check a count, by reasoning, of the complete games (leaves) of Nim with ``coins`` coins (lesson 01).

    Examples
    --------
    >>> check_nim_leaves(4, 7).ok
    True
    >>> print(check_nim_leaves(4, 81).lines[0])   # doctest: +ELLIPSIS
    ✗ You wrote 81 = 3^4: ...
    """
    what = f"Complete games of Nim with {coins} coins"
    x, fb = number_answer(answer, what)
    if fb is not None:
        return fb
    leaves, nodes = _nim_counts(coins)
    small = [_nim_counts(n)[0] if n else 1 for n in range(coins + 1)]
    recursion = (f"L({coins}) = L({coins - 1}) + L({coins - 2}) + L({coins - 3}) = "
                 f"{' + '.join(str(small[coins - k]) for k in (1, 2, 3) if coins - k >= 0)} = {leaves}"
                 if coins >= 3 else f"L({coins}) = {leaves}")
    rule = ("Count by the first move: after taking 1, 2 or 3 coins the rest is a smaller game, so "
            "L(n) = L(n - 1) + L(n - 2) + L(n - 3), with L(0) = 1 (the game is over) and L(n) = 0 for n < 0.")
    rep = Report()
    if x == leaves:
        rep.good(f"{leaves} complete games: the first move takes 1, 2 or 3 coins, and then the rest is a "
                 f"smaller game, so {recursion} (with L(0) = 1: the game is over).")
        return escalate(f"lesson01.nim_leaves.{coins}", rep.feedback(what))
    if x == nodes:
        rep.bad(f"You wrote {fmt(x)}: is that the number of finished games, or of every position, the middle "
                "of a game included? Count only the leaves, the positions where the game is over.", rule,
                tag="nodes-for-leaves")
    elif x == 3 ** coins:
        rep.bad(f"You wrote {fmt(x)} = 3^{coins}: that counts 3 moves at every ply for {coins} plies, but a "
                "game ends as soon as the coins run out, and with 1 or 2 coins left there are fewer than 3 "
                "moves.",
                rule, tag="uniform-branching")
    elif x == 2 ** (coins - 1):
        rep.bad(f"You wrote {fmt(x)} = 2^{coins - 1}, the ways to take {coins} coins in pieces of any size; "
                "here a move takes at most 3.", rule)
    else:
        rep.bad(f"You wrote {fmt(x)}. {rule} Work up from L(1) and L(2), then check your method on Nim with "
                f"4 coins, whose tree above has 7 leaves.")

    def twin(_fb):
        return _one_or_two(coins)[1] + "."

    return escalate(f"lesson01.nim_leaves.{coins}", rep.feedback(what), twin=twin, on="another game")


def _leaf_recursion(coins):
    """The leaves of Nim with 0 .. ``coins`` coins (counted by the engine) and the recursion that gives them,
    worked up from L(1): "L(1) = 1, L(2) = 2, L(3) = 4, L(4) = 1 + 2 + 4 = 7"."""
    small = [_nim_counts(n)[0] if n else 1 for n in range(coins + 1)]
    steps = [f"L({n}) = {' + '.join(str(small[n - k]) for k in (1, 2, 3) if n - k >= 0)}"
             + (f" = {small[n]}" if n > 1 else "") for n in range(1, coins + 1)]
    return small, "; ".join(steps)


def solution_nim_leaves(coins):
    """The worked answer of :func:`check_nim_leaves` for ``coins``, only after an attempt."""
    def make():
        small, steps = _leaf_recursion(coins)
        return (f"Count by the first move: after taking 1, 2 or 3 coins the rest is a smaller game, so "
                f"L(n) = L(n - 1) + L(n - 2) + L(n - 3), with L(0) = 1 (the game is over: one way to finish) "
                f"and L(n) = 0 for n < 0. Working up: {steps}. Nim with {coins} coins has {small[coins]} "
                f"complete games; not 3^{coins} = {3 ** coins}: a game ends when the coins run out, and "
                "with 1 or 2 coins left there are fewer than 3 moves.")
    return worked_answer(f"lesson01.nim_leaves.{coins}", f"solution_nim_leaves({coins!r})", make)


def solution_effective_branching(coins):
    """The worked answer of :func:`check_effective_branching` for ``coins``, only after an attempt."""
    def make():
        small, steps = _leaf_recursion(coins)
        leaves, nodes = _nim_counts(coins)
        b = leaves ** (1 / coins)
        average = (nodes - 1) / (nodes - leaves)
        return (f"Count the complete games as in exercise 1: {steps}, so L = {leaves}. The longest game "
                f"takes one coin at a time: d = {coins} plies. b* is the branching of the uniform tree of "
                f"depth {coins} with {leaves} leaves: b*^{coins} = {leaves}, "
                f"b* = {leaves}^(1/{coins}) ≈ {b:.3f}, "
                f"{fmt(round(b, 2))} to two decimals. It is far below 3, the most moves a position has: with "
                f"1 or 2 coins left there are fewer moves, and most games are shorter than {coins} plies. "
                f"The average number of moves of an inner node, (N - 1) / (N - L) = {nodes - 1} / "
                f"{nodes - leaves} ≈ {average:.2f}, is a different number: {average:.2f}^{coins} ≈ "
                f"{average ** coins:.0f} leaves, not {leaves}.")
    return worked_answer(f"lesson01.effective_branching.{coins}", f"solution_effective_branching({coins!r})",
                         make)


def _b_from_nodes(nodes, d):
    """The b > 0 with 1 + b + ... + b^d = ``nodes`` (b* from the nodes, lesson 01), by halving an interval:
    the sum grows with b, and b = nodes is too large.

    >>> round(_b_from_nodes(1 + 2 + 4 + 8, 3), 9)
    2.0
    """
    low, high = 0.0, float(nodes)
    for _ in range(200):
        mid = (low + high) / 2
        if sum(mid ** k for k in range(d + 1)) < nodes:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def check_effective_branching(coins, answer):
    """Check the effective branching factor b* of Nim with ``coins`` coins: b*^d = leaves, d = ``coins``
    (lesson 01).

    Two decimals are asked: a number that rounds to b*'s two decimals, or lies
    within 0.005 of b*, is right; one rounded too far, cut off instead of
    rounded, or otherwise just off is told so, in one line. A wrong factor is
    told what it stands for (the average branching, the most moves, a root of
    the node count, the leaves themselves) and how many leaves a uniform tree
    with it would have, never the game's own count of leaves (unless the
    learner wrote it). The learner's number is echoed as written (to 4
    decimals).

    Examples
    --------
    >>> check_effective_branching(7, 44 ** (1 / 7)).ok
    True
    >>> print(check_effective_branching(7, 1.83).lines[0])   # doctest: +ELLIPSIS
    ✗ You wrote 1.83, the average number of moves of an inner node, (N - 1) / (N - L)...
    """
    what = f"Effective branching factor of Nim with {coins} coins"
    x, fb = number_answer(answer, what)
    if fb is not None:
        return fb
    leaves, nodes = _nim_counts(coins)
    d = coins
    right = leaves ** (1 / d)
    average = (nodes - 1) / (nodes - leaves)
    solve = (f"b* is the branching of the uniform tree of depth {d} with as many leaves as the game: count "
             f"the complete games L as in exercise 1, then find the b* whose uniform tree of depth {d} has L "
             f"leaves (b*^{d} = L).")
    rep = Report()

    def near(y):
        return abs(x - y) < 5e-3

    def power_text(y):
        power = math.inf if y > 1 and math.log10(y) * d > 300 else y ** d
        return ("more than 10^300" if power == math.inf else f"{power:.3g}" if power >= 1e15
                else f"{power:,.0f}" if power >= 100 else f"{power:.1f}")

    check = f"{fmt(round(right, 3))}^{d} = {fmt(round(right ** d, 2))}"
    wrote = fmt(x) if abs(x) < 1e6 else f"{x:.3g}"     # the learner's number as written (to 4 decimals)
    # Two decimals asked: any number that rounds as b* does, or lies within the half-hundredth that rounding
    # to two decimals allows, is right.
    if round(x, 2) == round(right, 2) or abs(x - right) <= 0.005 + 1e-9:
        rep.good(f"b* = {leaves}^(1/{d}) = {right:.3f}: a uniform tree of depth {d} with {right:.3f} moves "
                 f"per node has {check} leaves, as many as the game.")
        return escalate(f"lesson01.effective_branching.{coins}", rep.feedback(what))
    # One line for the one number: what it is (where it is a known other quantity), else how far off.
    if near(average):
        rep.bad(f"You wrote {wrote}, the average number of moves of an inner node, (N - 1) / (N - L). A "
                f"uniform tree of depth {d} with that branching has {wrote}^{d} ≈ {power_text(x)} leaves: is "
                f"that how many complete games Nim with {coins} coins has? The average counts every inner "
                "node once; b^d multiplies one branching factor per ply.", solve, tag="average-as-branching")
    elif near(nodes ** (1 / d)):
        rep.bad(f"You wrote {wrote}, the {d}th root of the number of nodes (positions in the middle of a "
                "game included); the question uses the leaves, the complete games.", solve,
                tag="nodes-for-leaves")
    elif near(_b_from_nodes(nodes, d)):
        rep.bad(f"You wrote {wrote}: that is b* from the nodes, the b with 1 + b + ... + b^{d} = N, the "
                f"{nodes} nodes of the game (positions in the middle of a game included). The question asks "
                f"for b* from the leaves, the complete games: b*^{d} = L.", solve, tag="nodes-for-leaves")
    elif x == leaves:
        rep.bad(f"You wrote {wrote}: that is L itself, the number of complete games (the leaves), not a "
                f"branching factor. b* is the number of moves per node of a uniform tree of depth {d} with "
                f"that many leaves: the number whose {d}th power is {wrote}.", solve)
    elif near(3):
        rep.bad(f"3 is the most moves a state has; 3^{d} = {3 ** d} leaves: does the game have that many? "
                "With 1 or 2 coins left there are fewer moves, and games end at different depths.", solve,
                tag="uniform-branching")
    elif x <= 0:
        rep.bad(f"You wrote {wrote}, but a branching factor counts moves: it is positive.", solve)
    elif near(leaves / d):
        rep.bad(f"You wrote {wrote}: the leaves divided by the depth? b* is the {d}th root of the leaves, "
                f"not a quotient: a uniform tree with {wrote} moves per node has {wrote}^{d} ≈ "
                f"{power_text(x)} leaves.",
                solve)
    else:
        side = "more" if x > right else "fewer"
        leaves_then = (f"a uniform tree of depth {d} with that branching has {wrote}^{d} ≈ {power_text(x)} "
                       f"leaves, {side} than the game has")
        close = abs(x - right) <= 0.02 * right
        if close and (math.isclose(x, round(right, 1)) or math.isclose(x, round(right))):
            rep.bad(f"You wrote {wrote}: close, but rounded too far: the question asks for two decimals.",
                    solve)
        elif close and (math.isclose(x, math.floor(right * 100) / 100)
                        or math.isclose(x, math.ceil(right * 100) / 100)):
            rep.bad(f"You wrote {wrote}: close, but that is not b* rounded to two decimals: round to the "
                    "nearest (the third decimal decides), do not cut the digits off.", solve)
        elif close:
            rep.bad(f"You wrote {wrote}: close, but not b* to two decimals: {leaves_then}. Check L (the "
                    f"complete games) and d (the depth, {d}) in b*^{d} = L, then take the root and round it "
                    "to two decimals.", solve)
        else:
            rep.bad(f"You wrote {wrote}; {leaves_then}.", solve)

    def twin(_fb):
        return _worked_b_star(coins - 1) + "."

    return escalate(f"lesson01.effective_branching.{coins}", rep.feedback(what), twin=twin, on="another game")
