"""The checks only one lesson uses (``check_value``, ``check_count_leaves``, ``check_game_kinds``, ...).

Small, specific checks that the lesson notebooks call at the end of each
lesson; like the rest of :mod:`gametrees.exercises`, they compare with what the
engine computes.

May import: :mod:`gametrees.games`, :mod:`gametrees.search`,
:mod:`gametrees.trees`, and every other module of :mod:`gametrees.exercises`
(it is the top layer).
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Mapping

from ..games import MAX, MIN, TicTacToe
from ..search import alphabeta, expectimax, minimax
from ..trees import TreeGame, expand, tree_from_nested
from .answers import NodeNames
from .by_hand.base import as_tree
from .code_checks.diagnosis import checker_feedback, inline_tree, printed_note
from .code_checks.harness import Printed, TEXTBOOK, check_callable, error_hint, run_learner
from .code_checks.values import ttt_text
from .feedback import Feedback, ROLE_NAMES, Report, close, fmt, malformed, or_list

# ============================================================================
# Checks for the lessons' own exercises
# ============================================================================
#
# Small, specific checks that the lesson notebooks call at the end of each
# lesson. Like everything above, they compare with what the engine computes.


def _number_or_none(x, what):
    """A learner's number, or a Feedback saying why it is not one."""
    if x is None:
        return None, Feedback(f"{what}: not answered yet.", [("bad", "Replace None with your answer and run the cell again.", None)])
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        return None, Feedback(f"{what}: the answer could not be read.",
                              [("bad", f"Expected a number, got {x!r} ({type(x).__name__}).", None)])
    return float(x), None


def check_value(tree, guess):
    """Check a guess of a tree's minimax value (lesson 00).

    Examples
    --------
    >>> import gametrees as gt
    >>> check_value(gt.tree_from_nested([[3, 12], [2, 4]]), 3)
    ✓ The root's value: right.
    ✓ The root A is worth 3.
    """
    G = as_tree(tree, None)
    value, fb = _number_or_none(guess, "The root's value")
    if fb is not None:
        return fb
    r = minimax(G, trace=False, graph=True)
    root = G.graph["root"]
    nodes = NodeNames(G)
    rep = Report()
    if close(value, r.value):
        rep.good(f"The root {nodes.name(root)} is worth {fmt(r.value)}.")
        return rep.feedback("The root's value")
    kids = list(G.successors(root))
    player = ROLE_NAMES[G.nodes[root]["player"]]
    listing = ", ".join(f"{nodes.name(k)} = {fmt(r.graph.nodes[k]['value'])}" for k in kids)
    picks = "largest" if G.nodes[root]["player"] == MAX else "smallest"
    rep.bad(f"You wrote {fmt(value)}, but the root {nodes.name(root)} is a {player} node whose children are "
            f"worth {listing}, so it is worth {fmt(r.value)}, the {picks}.",
            "Work from the bottom up: each node takes the largest (MAX) or smallest (MIN) of its children's values.")
    return rep.feedback("The root's value")


def check_count_leaves(fn):
    """Check a learner's ``count_leaves(game, state)`` (lesson 01).

    The function should count the terminal states (complete games) below
    ``state``. It is run on Nim, on small trees and on tic-tac-toe positions,
    and compared with the leaves the engine's minimax evaluates.

    Examples
    --------
    >>> def count_leaves(game, state):
    ...     if game.is_terminal(state):
    ...         return 1
    ...     return sum(count_leaves(game, game.result(state, m)) for m in game.actions(state))
    >>> check_count_leaves(count_leaves).ok
    True
    """
    problem = check_callable(fn, "check_count_leaves", "fn(game, state)", 2)
    if problem:
        return Feedback("check_count_leaves: your function could not be called.", [("bad", problem, None)])
    from ..games import Nim

    ttt = TicTacToe()
    cases = [("Nim with 4 coins", Nim(4), Nim(4).initial),
             ("Nim with 7 coins", Nim(7), Nim(7).initial),
             ("the textbook tree", TreeGame(tree_from_nested(TEXTBOOK)), ()),
             ("a ragged tree", TreeGame(tree_from_nested([[1, [2, 3]], 4, [[5], 6, 7]])), ())]
    for text in ("XOX/OXO/...", "XO./.X./..O", "X../.O./..."):
        cases.append((f"tic-tac-toe {text}", ttt, ttt.from_string(text)))
    rep, printed, passed = Report(), Printed(), 0
    for name, game, state in cases:
        r = minimax(game, state, trace=False)
        leaves, nodes_ = r.stats["leaves_evaluated"], r.stats["nodes_visited"]
        out = run_learner(fn, (game, state), printed)
        if out.problem():
            rep.bad(f"{name}: your function {out.problem()}.", error_hint(out.error))
        elif out.value == leaves:
            passed += 1
            rep.good(f"{name}: {leaves:,} leaves.")
        elif out.value == nodes_:
            rep.bad(f"{name}: you counted {out.value:,}, which is every node of the tree; only the "
                    f"{leaves:,} terminal ones are complete games.",
                    "An inner node adds nothing of its own: return the sum over its moves, without the + 1.")
        elif out.value == nodes_ - leaves:
            rep.bad(f"{name}: you counted {out.value:,}, the inner nodes; the leaves are the other {leaves:,}.")
        else:
            rep.bad(f"{name}: you counted {fmt(out.value)}, but there are {leaves:,} leaves.",
                    "A terminal state counts 1; any other state counts the sum over its moves.")
    printed_note(rep, printed)
    return checker_feedback("check_count_leaves", rep, passed, len(cases))


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


def check_average_branching(value):
    """Check tic-tac-toe's average branching factor, (N - 1) / (N - L) (lesson 01).

    Examples
    --------
    >>> check_average_branching(9).ok
    False
    """
    x, fb = _number_or_none(value, "Average branching factor")
    if fb is not None:
        return fb
    stats = minimax(TicTacToe(), trace=False).stats
    N, L = stats["nodes_visited"], stats["leaves_evaluated"]
    right = (N - 1) / (N - L)
    rep = Report()
    if abs(x - right) < 5e-3:
        rep.good(f"{right:.3f}: {N - 1:,} edges shared by {N - L:,} inner nodes.")
    elif abs(x - (N - 1) / N) < 5e-3 or abs(x - N / L) < 5e-3:
        rep.bad(f"You wrote {x:.3f}; divide the edges (N - 1 = {N - 1:,}) by the inner nodes only "
                f"(N - L = {N - L:,}): leaves have no children.")
    elif x in (9, 4.5, 5):
        rep.bad(f"You wrote {fmt(x)}: that is a branching factor near the start of the game; on average over "
                f"the whole tree it is {right:.3f}, because late positions have few free cells and many games end early.")
    else:
        rep.bad(f"You wrote {fmt(x)}, but (N - 1) / (N - L) = {N - 1:,} / {N - L:,} = {right:.3f}.")
    return rep.feedback("Average branching factor")


def _first_fast_win():
    """A position where X wins at once, but minimax with +1 for every win plays a slower win."""
    game = TicTacToe()
    for s in sorted(expand(game, merge=True), key=lambda s: (bin(s[0] | s[1]).count("1"), s)):
        if game.is_terminal(s) or game.to_move(s) != MAX:
            continue
        now = [m for m, c in game.successors(s) if game.is_terminal(c) and game.utility(c) == 1]
        if now and minimax(game, s, trace=False).move not in now:
            return s, now
    raise AssertionError("tic-tac-toe has a slow-win position")  # pragma: no cover


def check_fast_wins(game):
    """Check a tic-tac-toe whose utility rewards quick wins (lesson 02).

    A draw must stay 0, a win for X must be positive and a loss negative,
    a quicker win (more empty cells left) must score more, and minimax must
    then take a win at once where it can.
    """
    if not isinstance(game, TicTacToe):
        raise TypeError(f"check_fast_wins expects a TicTacToe (subclass) instance, got {type(game).__name__}")
    base = TicTacToe()
    rep, printed = Report(), Printed()
    finals = [s for s in expand(base, merge=True) if base.is_terminal(s)]
    got = {}
    for s in finals:
        out = run_learner(game.utility, (s,), printed)
        if out.problem():
            rep.bad(f"utility of {ttt_text(s)}: {out.problem()}.", error_hint(out.error))
            return checker_feedback("check_fast_wins", rep, 0, 4)
        got[s] = float(out.value)
    if all(got[s] == base.utility(s) for s in finals):
        return Feedback("check_fast_wins: not answered yet.", [(
            "bad", "Your utility still scores every finished game as the plain one does (+1, 0, -1): change "
                   "it, then run the check again.", None)])
    passed = 0
    signs = [s for s in finals if (got[s] > 0) - (got[s] < 0) != base.utility(s)]
    if signs:
        s = signs[0]
        rep.bad(f"{ttt_text(s)} scores {fmt(got[s])}, but its plain utility is {base.utility(s)}: keep a draw at 0, "
                "a win for X positive and a win for O negative.")
    else:
        passed += 1
        rep.good("Draws score 0, X's wins are positive and O's wins negative.")

    def empty(s):
        return 9 - bin(s[0] | s[1]).count("1")

    wins = sorted((s for s in finals if base.utility(s) == 1), key=empty)
    slow = [(a, b) for a, b in zip(wins, wins[1:]) if empty(b) > empty(a) and not got[b] > got[a]]
    if slow:
        a, b = slow[0]
        rep.bad(f"A win with {empty(b)} empty cells ({ttt_text(b)}) scores {fmt(got[b])}, no more than one with "
                f"{empty(a)} ({ttt_text(a)}, {fmt(got[a])}): quicker wins should score more.",
                "Let the score of a win grow with the number of cells still empty when it ends.")
    else:
        passed += 1
        rep.good("Quicker wins score more.")
    losses = sorted((s for s in finals if base.utility(s) == -1), key=empty)
    if any(empty(b) > empty(a) and not got[b] < got[a] for a, b in zip(losses, losses[1:])):
        rep.bad("A quicker loss should score lower (more negative) than a slow one, so that MAX delays losing.")
    else:
        passed += 1
        rep.good("Quicker losses score lower.")
    s, now = _first_fast_win()
    out = run_learner(lambda: minimax(game, s, trace=False).move, (), printed, guard=False)
    if out.error:
        rep.bad(f"Searching {ttt_text(s)} with your game: {out.error}.")
    elif out.value in now:
        passed += 1
        rep.good(f"In {ttt_text(s)} minimax now wins at once (cell {out.value}).")
    else:
        rep.bad(f"In {ttt_text(s)}, X can win at once at {or_list(now)}, but minimax with your utility plays {out.value}.")
    printed_note(rep, printed)
    return checker_feedback("check_fast_wins", rep, passed, 4)


def check_ordering_counts(b, d, best, worst):
    """Check predicted leaf counts of alpha-beta on a uniform tree (lesson 03).

    ``best`` for perfect ordering (Knuth and Moore: b^ceil(d/2) + b^floor(d/2) - 1)
    and ``worst`` for the worst ordering (b^d); both are also measured with
    :func:`gametrees.random_tree` and :func:`gametrees.alphabeta`.

    Examples
    --------
    >>> check_ordering_counts(3, 2, 5, 9).ok
    True
    """
    from ..trees import random_tree

    rep = Report()
    km = b ** math.ceil(d / 2) + b ** math.floor(d / 2) - 1
    measured = {o: alphabeta(random_tree(b, d, seed=0, values=(-10**6, 10**6), ordering=o), trace=False)
                .stats["leaves_evaluated"] for o in ("best", "worst")}
    for name, got, right, formula in (("best ordering", best, km, "b^⌈d/2⌉ + b^⌊d/2⌋ - 1"),
                                      ("worst ordering", worst, b ** d, "b^d")):
        x, fb = _number_or_none(got, name)
        if fb is not None:
            rep.bad(f"{name}: not answered yet.")
        elif x == right:
            rep.good(f"{name}: {right:,} = {formula}; measured on a tree with that ordering: "
                     f"{measured[name.split()[0]]:,}.")
        elif name.startswith("best") and x in (b ** d / 2, b ** d // 2):
            rep.bad(f"{name}: you wrote {fmt(x)}, half of b^d. Pruning does not halve the work: with perfect "
                    f"ordering it needs about b^(d/2) leaves, exactly {formula} = {right:,}.")
        elif name.startswith("best") and x == b ** (d / 2):
            rep.bad(f"{name}: b^(d/2) = {fmt(x)} is the rough size; the exact count is {formula} = {right:,}.")
        elif name.startswith("worst") and x < right:
            rep.bad(f"{name}: you wrote {fmt(x)}, but with the worst ordering no cutoff ever happens: all "
                    f"b^d = {right:,} leaves are evaluated.")
        else:
            rep.bad(f"{name}: you wrote {fmt(x)}, but {formula} = {right:,}.")
    return rep.feedback(f"Leaves for b = {b}, d = {d}")


def _estimate_tree(seed):
    """A random ragged tree (leaves at several depths) with estimates on its inner nodes."""
    rng = random.Random(seed)

    def spec(depth):
        if depth == 4 or (depth and rng.random() < 0.3):
            return rng.randint(-9, 9)
        return [spec(depth + 1) for _ in range(rng.randint(1, 3))]

    G = tree_from_nested([spec(1) for _ in range(rng.randint(2, 3))])
    for n in G:
        if G.out_degree(n):
            G.nodes[n]["utility"] = rng.randint(-9, 9)
    return G


def check_depth_limited(fn):
    """Check a learner's depth-limited minimax ``fn(game, state, depth, evaluate)`` (lesson 04).

    Terminal states must be scored by their utility (even at the depth
    limit), other states at depth 0 by ``evaluate``. Compared with
    :func:`gametrees.minimax` with ``depth=``.
    """
    problem = check_callable(fn, "check_depth_limited", "fn(game, state, depth, evaluate)", 4)
    if problem:
        return Feedback("check_depth_limited: your function could not be called.", [("bad", problem, None)])
    rep, printed, passed, total = Report(), Printed(), 0, 0
    first_wrong = None
    for seed in range(12):
        G = _estimate_tree(seed)
        game = TreeGame(G)
        # The estimate of a finished game is deliberately far off: it must never be used.
        estimate = {n: G.nodes[n]["utility"] if G.out_degree(n) else 50 for n in G}.__getitem__
        for depth in (0, 1, 2, 3):
            total += 1
            right = minimax(G, depth=depth, evaluate=estimate, trace=False).value
            out = run_learner(fn, (game, G.graph["root"], depth, estimate), printed)
            if not out.problem() and close(float(out.value), right):
                passed += 1
            elif first_wrong is None or G.number_of_nodes() < first_wrong[0].number_of_nodes():
                first_wrong = (G, depth, right, out)
    if first_wrong is None:
        rep.good(f"{total} depth-limited searches on trees with estimates: all right.")
    else:
        G, depth, right, out = first_wrong
        nodes = NodeNames(G)
        got = out.problem() or f"returned {fmt(out.value)}"
        rep.bad(f"{passed} of {total} depth-limited searches right; e.g. at depth {depth} on "
                f"{inline_tree(G, 100)} (estimates on inner nodes), the value is {fmt(right)}, your function {got}.",
                error_hint(out.error))
        terminal = [n for n in G if not G.out_degree(n) and len(n) == depth]
        if depth and terminal:
            n = terminal[0]
            out2 = run_learner(fn, (TreeGame(G), n, 0, lambda s: -1000), printed)
            if not out2.problem() and out2.value == -1000:
                rep.bad(f"At the leaf {nodes.name(n)}, a finished game at the depth limit, your function returns the "
                        f"evaluation instead of its utility {fmt(G.nodes[n]['utility'])}.",
                        "Test game.is_terminal(state) first, then the depth: a finished game is scored by its "
                        "true utility, never estimated.")
    printed_note(rep, printed)
    return checker_feedback("check_depth_limited", rep, passed, total, unit="searches right")


def check_win_depth(game, state, answer):
    """Check the smallest search depth that proves a forced win or loss (lesson 04).

    A depth-limited search *proves* the result when its value is a win
    (+1) or loss (-1) even with every position at the horizon scored 0: then
    the result is forced within that many moves, whatever an evaluation
    function says.
    """
    x, fb = _number_or_none(answer, "Depth that sees the forced result")
    if fb is not None:
        return fb
    rows, found = [], None
    for depth in range(1, 15):
        v = alphabeta(game, state, depth=depth, evaluate=lambda s: 0, trace=False).value
        rows.append(f"depth {depth}: {fmt(v)}")
        if v in (1, -1):
            found = (depth, v)
            break
    if found is None:
        raise ValueError("no forced win or loss within 14 moves in this position")
    depth, v = found
    who = "MAX" if v > 0 else "MIN"
    rep = Report()
    if x == depth:
        rep.good(f"Depth {depth}: {who} forces a win; shallower searches cannot prove it ({'; '.join(rows)}).")
    elif x < depth:
        rep.bad(f"At depth {fmt(x)} the search cannot prove it yet ({'; '.join(rows[:max(1, int(x))])}); "
                f"the forced win for {who} appears at depth {depth}.")
    else:
        rep.bad(f"Depth {depth} already proves the win for {who} ({'; '.join(rows)}).")
    return rep.feedback("Depth that sees the forced result")


def check_after_two_moves(after_two, classes):
    """Check the positions after two moves of tic-tac-toe, and their symmetry classes (lesson 05)."""
    game = TicTacToe()
    truth = {s2 for _, s1 in game.successors(game.initial) for _, s2 in game.successors(s1)}
    canon = {game.canonical(s) for s in truth}
    rep = Report()
    for name, got, right in (("positions after two moves", after_two, truth),
                             ("classes up to symmetry", classes, canon)):
        if got is None:
            rep.bad(f"{name}: not answered yet.")
            continue
        try:
            got = set(got)
        except TypeError:
            rep.bad(f"{name}: expected a set of states, got {type(got).__name__}.")
            continue
        if got == right:
            rep.good(f"{name}: {len(right)}.")
        elif name.startswith("classes") and got == truth:
            rep.bad(f"{name}: these are all {len(truth)} positions; map each through game.canonical and keep "
                    f"the distinct results ({len(right)}).")
        elif name.startswith("positions") and len(got) == 9 * 8 and got != right:
            rep.bad(f"{name}: 72 states, but not the right ones: use game.successors twice from game.initial.")
        else:
            rep.bad(f"{name}: you have {len(got)}, there are {len(right)}.")
    return rep.feedback("After two moves")


def check_negamax(fn):
    """Check a learner's negamax ``fn(game, state)``: the value for the player to move (lesson 05)."""
    problem = check_callable(fn, "check_negamax", "fn(game, state)", 2)
    if problem:
        return Feedback("check_negamax: your function could not be called.", [("bad", problem, None)])
    game = TicTacToe()
    rep, printed = Report(), Printed()
    positions = ["XOX/OXO/...", "XO./.X./..O", "XX./OO./...", "XX./OO./X..", "X.O/.O./X.X", "XOX/OOX/X.."]
    passed, wrong = 0, []
    for text in positions:
        s = game.from_string(text)
        sign = 1 if game.to_move(s) == MAX else -1
        right = sign * minimax(game, s, trace=False).value
        out = run_learner(fn, (game, s), printed)
        if not out.problem() and out.value == right:
            passed += 1
        else:
            wrong.append((text, s, right, out))
    if not wrong:
        rep.good(f"All {len(positions)} positions right, from the point of view of the player to move.")
    else:
        text, s, right, out = wrong[0]
        mover = "X" if game.to_move(s) == MAX else "O"
        got = out.problem() or f"returns {fmt(out.value)}"
        rep.bad(f"{text} ({mover} to move) is worth {right:+d} to {mover}; your function {got}.",
                error_hint(out.error))
        finals = [s for s in expand(game, merge=True) if game.is_terminal(s) and game.utility(s) != 0]
        s = next(s for s in finals if game.to_move(s) == MIN)
        out = run_learner(fn, (game, s), printed)
        if not out.problem() and out.value == game.utility(s):
            rep.bad(f"At a finished game where O is to move ({ttt_text(s)}), your function returns "
                    f"{fmt(out.value)}, the utility from MAX's point of view; negamax needs it from the point of "
                    f"view of the player to move: {-game.utility(s):+d}.",
                    "Multiply game.utility(state) by +1 when MAX is to move and -1 when MIN is.")
    printed_note(rep, printed)
    return checker_feedback("check_negamax", rep, passed, len(positions), unit="positions right")


def check_careless_table(state, careless, true):
    """Check the careless table's value and the true value of ``state`` (lesson 05)."""
    game = TicTacToe()
    right = minimax(game, state, trace=False).value
    rep = Report()
    if careless is None or true is None:
        return Feedback("The careless table: not answered yet.", [("bad", "Give both numbers.", None)])
    if true == right:
        rep.good(f"The true (minimax) value of this position is {right}.")
    else:
        rep.bad(f"The true value is what gt.minimax gives: {right}, not {fmt(true)}.")
    if careless == right:
        rep.bad("The careless value should differ from the true one in this position: run careless_alphabeta "
                "on it with a fresh table.")
    elif careless in (-1, 0, 1):
        rep.good(f"The careless table returns {careless}: a bound stored as if it were exact.")
    else:
        rep.bad(f"{fmt(careless)} is not a tic-tac-toe value (-1, 0 or 1).")
    return rep.feedback("The careless table")


def check_order_preserving_flip(tree, f):
    """Check that ``f`` keeps the order of the leaf values but flips expectimax's decision (lesson 06)."""
    G = as_tree(tree, None)
    rep, printed = Report(), Printed()
    leaves = sorted({G.nodes[n]["utility"] for n in G if not G.out_degree(n)})
    unanswered = Feedback("Order-preserving flip: not answered yet.",
                          [("bad", "f leaves every value as it is: change its body to your function.", None)])
    if f is None:
        return unanswered
    images = []
    for v in leaves:
        out = run_learner(f, (v,), printed)
        if out.problem():
            return Feedback("Order-preserving flip: f failed.", [("bad", f"f({fmt(v)}) {out.problem()}.", None)])
        images.append(out.value)
    if images == leaves:
        return unanswered
    broken = [(a, b, fa, fb_) for (a, fa), (b, fb_) in zip(zip(leaves, images), zip(leaves[1:], images[1:])) if not fa < fb_]
    if broken:
        a, b, fa, fb_ = broken[0]
        rep.bad(f"f does not keep the order: {fmt(a)} < {fmt(b)} but f gives {fmt(fa)} and {fmt(fb_)}.")
    else:
        rep.good("f keeps the order of the leaf values.")
    H = G.copy()
    for n in H:
        if "utility" in H.nodes[n] and not H.out_degree(n):
            H.nodes[n]["utility"] = images[leaves.index(H.nodes[n]["utility"])]
    before, after = expectimax(G, trace=False).move, expectimax(H, trace=False).move
    nodes = NodeNames(G)
    if before != after:
        rep.good(f"Expectimax now chooses {nodes.name(after)} instead of {nodes.name(before)}.")
    else:
        top = max(leaves)
        kids = list(G.successors(G.graph["root"]))
        simple = all(G.nodes[k].get("player") == "chance" and
                     all(not G.out_degree(n) for n in G.successors(k)) for k in kids)
        holder = next((k for k in kids if any(G.nodes[n].get("utility") == top for n in G.successors(k))), None)
        if simple and holder is not None:
            way = ("brings the high values closer together" if holder == before else
                   "stretches the high values further apart")
            rep.bad(f"Expectimax still chooses {nodes.name(before)}. The largest leaf, {fmt(top)}, is under "
                    f"{nodes.name(holder)}: try an order-keeping change that {way}, so the averages change places.")
        else:
            rep.bad(f"Expectimax still chooses {nodes.name(before)}: change how far apart the values are, keeping "
                    "their order, until the averages change places.")
    if not broken and before != after:
        rep.note("Minimax's choice would not change: it only compares values, and f keeps their order.")
    return rep.feedback("Order-preserving flip")


def check_final_move(visits, choice):
    """Check which move MCTS should play: the most visited one (lesson 07)."""
    if not isinstance(visits, Mapping) or not visits:
        raise TypeError("visits must be a dict move -> (visits, wins)")
    best = max(visits, key=lambda m: visits[m][0])
    rep = Report()
    if choice == best:
        rep.good(f"{best!r}: the most visited move ({visits[best][0]} visits).")
    elif choice in visits:
        n, w = visits[choice]
        rep.bad(f"{choice!r} has the best average ({w}/{n}) but only {n} visit{'s' if n != 1 else ''}: that average "
                f"is mostly luck. Play the most visited move, {best!r} ({visits[best][0]} visits), whose estimate "
                "MCTS has confirmed again and again." if w / n >= visits[best][1] / visits[best][0] else
                f"{choice!r} has fewer visits ({n}) than {best!r} ({visits[best][0]}): play the most visited move.")
    else:
        rep.bad(f"{choice!r} is not one of the moves {sorted(visits)}.")
    return rep.feedback("Final move")


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
