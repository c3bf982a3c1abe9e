"""Lesson 01 (game trees): counting a game's leaves, the effective branching factor, kinds of games.

The checks lesson 01 calls; each compares the learner's answer with what the engine or
the lesson's rule computes, and a check on an unanswered exercise says only that it is unanswered.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ...games import Nim
from ...search import minimax
from ..feedback import Feedback, Report, fmt, malformed
from .reading import number_answer

__all__ = ["check_effective_branching", "check_game_kinds", "check_nim_leaves"]


_GAME_KINDS = {
    "chess": ("deterministic", "perfect"), "go": ("deterministic", "perfect"),
    "checkers": ("deterministic", "perfect"), "tic-tac-toe": ("deterministic", "perfect"),
    "connect four": ("deterministic", "perfect"), "backgammon": ("chance", "perfect"),
    "battleship": ("deterministic", "hidden"), "stratego": ("deterministic", "hidden"),
    "poker": ("chance", "hidden"), "scrabble": ("chance", "hidden"), "bridge": ("chance", "hidden"),
}


_KIND_WORDS = {"deterministic": "deterministic", "chance": "chance", "stochastic": "chance",
               "perfect": "perfect", "hidden": "hidden", "imperfect": "hidden"}


_KIND_WHY = {
    "backgammon": "the dice are random, but both players see the whole board",
    "poker": "the deal is random and you cannot see the others' cards",
    "scrabble": "the tiles are drawn at random and you cannot see your opponent's rack",
    "bridge": "the deal is random and most cards are hidden",
    "battleship": "nothing random happens after the ships are placed, but you cannot see them",
    "stratego": "no dice, but the ranks of the opponent's pieces are hidden",
}


def check_game_kinds(answer):
    """Check a classification of games by chance and hidden information (lesson 01).

    ``answer`` maps a game's name to a pair such as ``("chance", "hidden")``:
    ``"deterministic"`` or ``"chance"``, then ``"perfect"`` or ``"hidden"``
    information.

    Examples
    --------
    >>> check_game_kinds({"chess": ("deterministic", "perfect"), "poker": ("chance", "perfect")})
    ✗ Kinds of games: 1 of 2 right.
    ✓ chess: deterministic, perfect information.
    ✗ poker: chance, but hidden information: the deal is random and you cannot see the others' cards.
    """
    if not isinstance(answer, Mapping) or not answer:
        return malformed("Kinds of games", "Expected a dict such as {'chess': ('deterministic', 'perfect')}.")
    if all(kind is None for kind in answer.values()):
        return Feedback("Kinds of games: not answered yet.",
                        [("bad", "Replace each None with a pair such as ('deterministic', 'perfect').", None)])
    rep = Report()
    for game, kind in answer.items():
        if kind is None:
            rep.bad(f"{game}: not answered yet.")
            continue
        key = str(game).strip().lower().replace("tic tac toe", "tic-tac-toe").replace("connect 4", "connect four")
        if key not in _GAME_KINDS:
            rep.note(f"{game}: not one of the games this check knows ({', '.join(sorted(_GAME_KINDS))}).")
            continue
        try:
            a, b = (_KIND_WORDS[str(w).strip().lower()] for w in kind)
        except (KeyError, TypeError, ValueError):
            rep.bad(f"{game}: expected a pair like ('chance', 'hidden'), got {kind!r}.")
            continue
        if {a, b} & {"perfect", "hidden"} and a in ("perfect", "hidden"):
            a, b = b, a  # accept the pair in either order
        right = _GAME_KINDS[key]
        why = _KIND_WHY.get(key, "no dice or cards, and both players see everything")
        if (a, b) == right:
            rep.good(f"{game}: {right[0]}, {right[1]} information.")
        elif a != right[0] and b != right[1]:
            rep.bad(f"{game}: {right[0]} and {right[1]} information: {why}.")
        elif a != right[0]:
            rep.bad(f"{game}: {right[0]}, not {a} ({why}); {right[1]} information is right.")
        else:
            rep.bad(f"{game}: {right[0]}, but {right[1]} information: {why}.")
    return rep.feedback("Kinds of games")


def _nim_counts(coins):
    stats = minimax(Nim(coins), trace=False).stats
    return stats["leaves_evaluated"], stats["nodes_visited"]


def check_nim_leaves(coins, answer):
    """Check a count, by reasoning, of the complete games (leaves) of Nim with ``coins`` coins (lesson 01).

    Examples
    --------
    >>> check_nim_leaves(4, 7).ok
    True
    >>> print(check_nim_leaves(4, 81).lines[0])   # doctest: +ELLIPSIS
    ✗ You wrote 81 = 3^4: ...
    """
    x, fb = number_answer(answer, f"Complete games of Nim with {coins} coins")
    if fb is not None:
        return fb
    leaves, nodes = _nim_counts(coins)
    small = [_nim_counts(n)[0] if n else 1 for n in range(coins + 1)]
    recursion = (f"L({coins}) = L({coins - 1}) + L({coins - 2}) + L({coins - 3}) = "
                 f"{' + '.join(str(small[coins - k]) for k in (1, 2, 3) if coins - k >= 0)} = {leaves}"
                 if coins >= 3 else f"L({coins}) = {leaves}")
    rep = Report()
    if x == leaves:
        rep.good(f"{leaves} complete games: the first move takes 1, 2 or 3 coins, and then the rest is a smaller "
                 f"game, so {recursion} (with L(0) = 1: the game is over).")
    elif x == nodes:
        rep.bad(f"You wrote {nodes}, the number of all nodes of the tree, positions in the middle of a game "
                f"included; count only the finished games (the leaves).")
    elif x == 3 ** coins:
        rep.bad(f"You wrote {fmt(x)} = 3^{coins}: that counts 3 moves at every ply for {coins} plies, but a game "
                f"ends as soon as the coins run out, and with 1 or 2 coins left there are fewer than 3 moves.")
    elif x == 2 ** (coins - 1):
        rep.bad(f"You wrote {fmt(x)} = 2^{coins - 1}, the ways to take {coins} coins in pieces of any size; here "
                f"a move takes at most 3.")
    else:
        rep.bad(f"You wrote {fmt(x)}. Count by the first move: after taking 1, 2 or 3 coins the rest is a "
                f"smaller game, so L(n) = L(n - 1) + L(n - 2) + L(n - 3), with L(0) = 1 and L(n) = 0 for n < 0. "
                f"Start from L(1) = 1 and L(2) = 2.")
    return rep.feedback(f"Complete games of Nim with {coins} coins")


def check_effective_branching(coins, answer):
    """Check the effective branching factor b* of Nim with ``coins`` coins: b*^d = leaves, d = ``coins`` (lesson 01).

    Examples
    --------
    >>> check_effective_branching(7, 44 ** (1 / 7)).ok
    True
    >>> print(check_effective_branching(7, 95 / 52).lines[0])   # doctest: +ELLIPSIS
    ✗ You wrote 1.827, the average number of moves of an inner node, (N - 1) / (N - L) ...
    """
    x, fb = number_answer(answer, f"Effective branching factor of Nim with {coins} coins")
    if fb is not None:
        return fb
    leaves, nodes = _nim_counts(coins)
    d = coins
    right = leaves ** (1 / d)
    average = (nodes - 1) / (nodes - leaves)
    rep = Report()

    def near(y):
        return abs(x - y) < 5e-3

    check = f"{fmt(round(right, 3))}^{d} = {fmt(round(right ** d, 2))}"
    if near(right):
        rep.good(f"b* = {leaves}^(1/{d}) = {right:.3f}: a uniform tree of depth {d} with {right:.3f} moves per "
                 f"node has {check} leaves, as many as the game.")
    elif near(average):
        rep.bad(f"You wrote {x:.3f}, the average number of moves of an inner node, (N - 1) / (N - L) = "
                f"{nodes - 1} / {nodes - leaves}. A uniform tree of depth {d} with that branching has "
                f"{x:.3f}^{d} ≈ {x ** d:.0f} leaves, not {leaves}: b* is the branching that gives the real count, "
                f"b*^d = {leaves}.")
    elif near(nodes ** (1 / d)):
        rep.bad(f"You wrote {x:.3f} = {nodes}^(1/{d}), from the number of nodes; the question uses the leaves: "
                f"b*^{d} = {leaves}.")
    elif near(3):
        rep.bad(f"3 is the most moves a state has; 3^{d} = {3 ** d} leaves, far more than the game's {leaves}, "
                f"because with 1 or 2 coins left there are fewer moves and games end at different depths.")
    elif near(leaves / d):
        rep.bad(f"You wrote {x:.3f} = {leaves} / {d}: b* is the d-th root of the leaves, not a quotient: "
                f"b*^{d} = {leaves}.")
    elif x <= 0:
        rep.bad(f"You wrote {fmt(round(x, 4))}, but a branching factor counts moves: it is positive. "
                f"Solve b*^{d} = {leaves}: b* = {leaves} ** (1 / {d}).")
    else:
        power = math.inf if math.log10(x) * d > 300 else x ** d
        shown = ("more than 10^300" if power == math.inf else f"{power:.3g}" if power >= 1e15
                 else f"{power:,.0f}" if power >= 100 else f"{power:.1f}")
        wrote = (fmt(round(x, 4)), fmt(round(x, 3))) if x < 1e6 else (f"{x:.3g}",) * 2
        rep.bad(f"You wrote {wrote[0]}; then {wrote[1]}^{d} ≈ {shown} leaves, but the game "
                f"has {leaves}. Solve b*^{d} = {leaves}: b* = {leaves} ** (1 / {d}).")
    return rep.feedback(f"Effective branching factor of Nim with {coins} coins")
