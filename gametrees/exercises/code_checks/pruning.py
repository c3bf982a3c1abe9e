"""The check of a learner's alpha-beta: :func:`check_alphabeta`.

Values, the leaves visited (:func:`visited_leaves`, against the textbook and the
strict rule, :func:`restart_leaves`), and the windows passed down, each wrong
one explained.

May import: :mod:`gametrees.rules`, :mod:`gametrees.games`, :mod:`gametrees.search`,
:mod:`gametrees.exercises.feedback`, :mod:`gametrees.exercises.answers`,
:mod:`gametrees.exercises.by_hand` (its public names), and the harness,
diagnosis and values modules of :mod:`gametrees.exercises.code_checks`.
"""

from __future__ import annotations

import math
import numbers
from math import inf as INF

import networkx as nx

from ...games import MAX, MIN
from ...rules import (
    EXACT,
    LOWER,
    TIE_RULES,
    cutoff,
    cutoff_text,
    prune_when,
    strict_rule,
    tie_rule,
    window_bound,
)
from ...search import alphabeta, minimax
from ..answers import NodeNames
from ..by_hand import SearchInfo, inline, visited_reason
from ..feedback import ROLE_NAMES, Feedback, Report, and_list, close, fmt, tagged
from .diagnosis import checker_feedback, deepest_wrong, group_line, inline_tree, printed_note
from .harness import (
    CallLog,
    CountingTree,
    Printed,
    alphabeta_groups,
    check_callable,
    error_hint,
    exact_values,
    nested_tree,
    run_learner,
)
from .values import checked_variant, report_smallest, ttt_group

__all__ = ["alphabeta_task", "check_alphabeta", "restart_leaves", "visited_leaves"]

# ============================================================================
# check_alphabeta
# ============================================================================


def visited_leaves(result, G):
    """The leaves the engine's ``result`` visited, in visiting order."""
    R = result.graph
    leaves = [n for n in R if R.nodes[n].get("status") == "visited" and not G.out_degree(n)]
    return sorted(leaves, key=lambda n: R.nodes[n]["order"])


def _same(x, y):
    if x is None or y is None or isinstance(x, bool) or not isinstance(x, numbers.Real):
        return False
    return close(float(x), float(y))


def _window_text(a, b):
    return (f"α = {fmt(a) if isinstance(a, numbers.Real) else repr(a)}, β = "
            f"{fmt(b) if isinstance(b, numbers.Real) else repr(b)}")


def restart_leaves(G, strict):
    """The leaves a search evaluates if the root restarts the window for every child (engine runs)."""
    out = []
    for c in G.successors(G.graph["root"]):
        out += [c] if not G.out_degree(c) else visited_leaves(alphabeta(G, c, strict=strict, trace=True), G)
    return out


def _all_leaves(G):
    return [n for n in nx.dfs_preorder_nodes(G, G.graph["root"]) if not G.out_degree(n)]


def _leaf_diagnosis(G, L, strict, zero_hint=True):
    """``(text, hint, zero)``: where the learner's evaluated leaves first part from alpha-beta's with the
    tie rule ``strict``.

    ``zero``: the first extra leaf is one a bound of 0 should have cut off.
    """
    nodes = NodeNames(G)
    ref = alphabeta(G, strict=strict, trace=True)
    info = SearchInfo(ref, nodes)
    R = visited_leaves(ref, G)
    head = (f"On {inline(G, nodes)}, your function evaluates {len(L)} leaves "
            f"({and_list(nodes.name(x) for x in L)}); alpha-beta with the {tie_rule(strict)} rule evaluates "
            f"{len(R)} "
            f"({and_list(nodes.name(x) for x in R)}).")
    i = 0
    while i < min(len(L), len(R)) and L[i] == R[i]:
        i += 1
    if i < len(L) and L[i] not in R:
        x = L[i]
        cut = info.cut_for(x)
        text = head + (f" The first extra one is {nodes.name(x)}: alpha-beta never evaluates it, because "
                       f"{cut.text(nodes)}.")
        bound = cut.alpha if cut.player == MIN else cut.beta
        if bound == 0 and zero_hint:
            hint = tagged("The bound here is 0. A test like `if alpha and v <= alpha`, or None/0 standing "
                          "for 'no bound yet', skips the cut when the bound is 0: use real infinities "
                          "(-math.inf, math.inf) and compare numbers.", "zero-as-infinity")
        else:
            hint = tagged(f"Check the cutoff test at {nodes.name(cut.node)} ({ROLE_NAMES[cut.player]}): it "
                          f"stops as soon as {cutoff_text(cut.player, strict)}, with the α and β it "
                          "inherited; and check that every node passes its updated window on to its next "
                          "child.", "expansions-off")
        return text, hint, bound == 0
    if i < len(L):
        return (head + f" You evaluate {nodes.name(L[i])} before {nodes.name(R[i])}: alpha-beta takes the "
                       "children in the order game.actions(state) gives them.",
                tagged("Sorting or reordering the children changes which leaves are pruned: search them in "
                       "the given order here (and do not call game.utility on a child before its turn).",
                       "expansions-off"),
                False)
    y = R[i]
    why, hint = visited_reason(G, nodes, info, y, strict)
    return (head + f" You never evaluate {nodes.name(y)}, but alpha-beta must: {why}",
            tagged(hint or "Pruning needs evidence: a node stops only after a finished child's value falls "
                           "outside the window it inherited; it cannot rule out a child by a 'maximum "
                           "possible score'.",
                   "prune-without-evidence"), False)


_KIND_RANK = {"global": 0, "premature": 1, "bound": 2, "none": 3, "other": 4, "restart": 5}
_HINT_GLOBAL = tagged("Windows pass down only, as copies (function arguments); only values pass up. A global "
                      "or shared α/β lets one subtree's bounds leak into another.", "bounds-global")
_HINT_NONE = tagged("Use real infinities (-math.inf, math.inf) for 'no bound yet', not None or 0: 0 is a "
                    "real score, and None cannot be compared.", "zero-as-infinity")


def _window_diagnosis(G, calls, strict):
    """``(text, hint, kind)`` at the first call whose window differs from alpha-beta's (with the tie rule
    ``strict``), or None.

    ``calls`` are the learner's own recursive calls, in order: ``[state, alpha, beta, returned]``.
    """
    nodes = NodeNames(G)
    info = SearchInfo(alphabeta(G, strict=strict, trace=True), nodes)
    return _premature_cut(G, nodes, calls) or _first_wrong_window(G, nodes, info, calls)


def _premature_cut(G, nodes, calls):
    """``(text, hint, "premature")`` for the first node that stopped without its own window allowing a
    cut (compared with some other bound), or None."""
    for idx, (p, a, b, r) in enumerate(calls):
        if p not in G or not G.out_degree(p):
            continue
        if not all(isinstance(x, numbers.Real) and not isinstance(x, bool) for x in (a, b, r)):
            continue
        below = nx.descendants(G, p)
        kids = list(G.successors(p))
        called, got = [], []
        for t, _, _, rt in calls[idx + 1:]:
            if t not in below:
                break
            if t in G.succ[p]:
                called.append(t)
                got.append(rt)
        if not called or called[-1] == kids[-1] or len(set(called)) == len(kids):
            continue
        if not all(isinstance(x, numbers.Real) and not isinstance(x, bool) for x in got):
            continue
        pl = G.nodes[p]["player"]
        r = max(got) if pl == MAX else min(got)  # the node's value when it stopped
        if cutoff(pl, r, a, b):
            continue
        rest = kids[kids.index(called[-1]) + 1:]
        P = nodes.name(p)
        cmp = f"{fmt(r)} < β = {fmt(b)}" if pl == MAX else f"{fmt(r)} > α = {fmt(a)}"
        return (f"{P} ({ROLE_NAMES[pl]}) was searched with {_window_text(a, b)} and stopped after "
                f"{nodes.name(called[-1])} with value {fmt(r)}, leaving "
                f"{and_list(nodes.name(c) for c in rest)} unsearched; but {cmp}, so the window it was given "
                "does not allow a cut.",
                tagged("A cut compares the node's value with its own β (at MAX) or α (at MIN): the copies "
                       "passed to it. Comparing with another variable, or with a global or shared bound, "
                       "cuts without evidence and lets one subtree's bounds leak into another.",
                       "prune-without-evidence"),
                "premature")
    return None


def _first_wrong_window(G, nodes, info, calls):
    """``(text, hint, kind)`` at the first call whose window differs from the engine's (``info``), or
    None."""
    for idx, (s, a, b, _) in enumerate(calls):
        if s == nodes.root:
            continue
        if s not in info.call_window:
            return None
        ra, rb = info.call_window[s]
        if _same(a, ra) and _same(b, rb):
            continue
        return _why_window_differs(G, nodes, info, calls, idx)
    return None


def _why_window_differs(G, nodes, info, calls, idx):
    """``(text, hint, kind)``: why the learner's call ``calls[idx]`` has another window than alpha-beta's."""
    s, a, b, _ = calls[idx]
    ra, rb = info.call_window[s]
    root = nodes.root
    p = next(iter(G.predecessors(s)))
    P, S = nodes.name(p), nodes.name(s)
    pl = G.nodes[p]["player"]
    told = (f"{P} searches {S} with {_window_text(a, b)}, but alpha-beta searches it with "
            f"{_window_text(ra, rb)}")
    if a is None or b is None or (math.isinf(ra) and a == 0) or (math.isinf(rb) and b == 0):
        return told + ".", _HINT_NONE, "none"
    kids = list(G.successors(p))
    earlier = kids[:kids.index(s)]
    inside = set()
    for c in earlier:
        sub = {c} | nx.descendants(G, c)
        inside |= {x for t, x1, x2, _ in calls[:idx] if t in sub for x in (x1, x2)
                   if isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isfinite(x)}
    owner = MAX if pl == MAX else MIN
    kept, kept_ref, kept_sym = (b, rb, "β") if pl == MAX else (a, ra, "α")
    moved, moved_ref, moved_sym = (a, ra, "α") if pl == MAX else (b, rb, "β")
    if not _same(kept, kept_ref):
        if any(_same(kept, y) for y in inside):
            return (f"{told}. {P} passes on {kept_sym} = {fmt(kept)}, a bound from inside the search of "
                    f"{and_list(nodes.name(c) for c in earlier)}.", _HINT_GLOBAL, "global")
        return (f"{told}. {P} is a {ROLE_NAMES[pl]} node, but it changed {kept_sym}.",
                tagged(f"MAX raises its floor α; MIN lowers its ceiling β. A {ROLE_NAMES[pl]} node "
                       f"passes on the {kept_sym} it inherited.", "wrong-bound-updated"), "bound")
    best = info.before.get(s)
    # What the learner's own update rule gives from the values its earlier children returned.
    mine = [r for t, _, _, r in calls[:idx] if t in earlier and isinstance(r, numbers.Real)]
    p_entry = next(((x1, x2) for t, x1, x2, _ in calls[:idx] if t == p), (-INF, INF))
    start = p_entry[0] if pl == MAX else p_entry[1]
    if mine and isinstance(start, numbers.Real):
        own = max([start] + mine) if pl == MAX else min([start] + mine)
        if _same(moved, own) and not _same(own, moved_ref):
            wrong = [c for c in earlier if c in info.call_window]
            returned = {t: r for t, _, _, r in calls[:idx] if t in earlier}
            shown = ", ".join(f"{nodes.name(c)} = "
                              f"{fmt(returned[c]) if isinstance(returned.get(c), numbers.Real) else '?'}"
                              for c in wrong if c in returned)
            return (f"{told}: {P} updates {moved_sym} correctly from the values your function returned "
                    f"for its earlier children ({shown}), but one of them is not what alpha-beta returns "
                    "there.",
                    "Look at what your function returns after a cutoff: the value reached (fail-soft) or "
                    "the bound it crossed (fail-hard), never the other bound.", "other")
    if any(_same(moved, y) for y in inside) and not _same(moved, best):
        return (f"{told}. {P} passes on {moved_sym} = {fmt(moved)}, a bound from inside the search of "
                f"{and_list(nodes.name(c) for c in earlier)}.", _HINT_GLOBAL, "global")
    if moved == 0 and not _same(moved_ref, 0):
        return (f"{told}: where does {moved_sym} = 0 come from?",
                tagged(f"Start the best value so far at {'-math.inf' if pl == MAX else 'math.inf'}, not "
                       "0.",
                       "zero-as-infinity"), "none")
    if p == root and _same(a, -INF) and _same(b, INF):
        return (f"The root {P} searches {S} with α = -∞, β = +∞, the window it started with, but after "
                f"its earlier children alpha-beta searches {S} with {_window_text(ra, rb)}.",
                tagged("After each child, the root must pass its raised α (MAX) or lowered β (MIN) on to "
                       "the next child; restarting the window for every root child searches far more "
                       "leaves.",
                       "root-window-restart"), "restart")
    verb = "raises" if owner == MAX else "lowers"
    return (f"{told}: {P} ({ROLE_NAMES[pl]}) has {fmt(best)} so far, so it {verb} {moved_sym} to "
            f"{fmt(moved_ref)} before searching {S}.",
            "MAX raises its floor α (α = max(α, v)); MIN lowers its ceiling β (β = min(β, v)); the other "
            "bound passes down unchanged.", "other")


def _valid_return(r, v, a, b):
    """Is ``r`` a correct alpha-beta return for true value ``v`` in window (a, b)? (fail-soft or fail-hard)"""
    bound = window_bound(r, a, b)
    if bound == EXACT:
        return close(r, v)
    if bound == LOWER:
        return v >= r - 1e-9
    return v <= r + 1e-9


def _window_probe(fn, G, printed):
    """``(text, hint)``: the deepest node whose return breaks the alpha-beta contract for its window."""
    nodes = NodeNames(G)
    ref = alphabeta(G, trace=True)
    info = SearchInfo(ref, nodes)
    truth = exact_values(G)
    bad, outs = set(), {}
    for n, (a, b) in info.call_window.items():
        if a is None or not G.out_degree(n):
            continue
        game = CountingTree(G)
        out = run_learner(fn, (game, n, a, b), printed, game)
        outs[n] = out
        if out.problem() or not _valid_return(float(out.value), truth.nodes[n]["value"], a, b):
            bad.add(n)
    n = deepest_wrong(G, nodes, bad)
    if n is None:
        return None
    a, b = info.call_window[n]
    v = truth.nodes[n]["value"]
    bound = window_bound(v, a, b)
    if bound == EXACT:
        want = f"exactly {fmt(v)}"
    elif bound != LOWER:
        want = fmt(v) if v == a else (f"a value from {fmt(v)} to {fmt(a)} ({fmt(v)} fail-soft, {fmt(a)} "
                                      "fail-hard)")
    else:
        want = fmt(v) if v == b else (f"a value from {fmt(b)} to {fmt(v)} ({fmt(v)} fail-soft, {fmt(b)} "
                                      "fail-hard)")
    out = outs[n]
    got = out.problem() or f"returned {fmt(out.value)}"
    name = nodes.name(n)
    return (f"Called at {name} with {_window_text(a, b)} (the window alpha-beta searches {name} with), your "
            f"function {got}; {name}'s value is {fmt(v)}, so a correct alpha-beta returns {want}.",
            error_hint(out.problem()) or
            "A value outside the window is only a bound: below α it means 'at most this', above β 'at least "
            "this'. Check the cutoff tests and what is returned after a cut.", (n, (a, b)))


def _rule_text(strict):
    return f"{prune_when(strict)}, as in {'CS188' if strict else 'AIMA'}"


def alphabeta_task(name, fn, variant, rule):
    """The opening every check of a learner's alpha-beta shares: ``(variant, strict, unusable)``.

    ``variant`` is checked (:func:`~gametrees.exercises.code_checks.values.checked_variant`); ``rule``,
    the task's tie rule (``None``: either, ``"textbook"`` or ``"strict"``), is read into ``strict``
    (``None``, False or True); ``unusable`` is the feedback when ``fn`` cannot be called as
    ``fn(game, state, alpha, beta)``, else None. Used by :func:`check_alphabeta` and
    :func:`gametrees.classroom.checks.check_leaf_count`.
    """
    variant = checked_variant(variant)
    if rule is not None and rule not in TIE_RULES:
        raise ValueError(f"rule must be None, 'textbook' or 'strict', got {rule!r}")
    strict = None if rule is None else strict_rule(rule)
    problem = check_callable(fn, name, "fn(game, state, alpha, beta)", 4)
    if problem:
        return variant, strict, Feedback(f"{name}: your function could not be called.",
                                         [("bad", problem, None)])
    return variant, strict, None


def check_alphabeta(fn, *, tictactoe=True, variant=None, rule=None):
    """Check a learner's alpha-beta ``fn(game, state, alpha, beta) -> value``.

    ``fn`` is called at the root with ``alpha=-math.inf, beta=math.inf`` on
    the trees of :func:`check_minimax` plus trees with ties, zeros and deeper
    cutoffs. Checked against :func:`gametrees.alphabeta`:

    * the root value (fail-soft and fail-hard both give it);
    * the leaves evaluated (every ``game.utility`` call), in order, against
      the textbook rule (prune on v ≥ β / v ≤ α) *and* the strict rule;
      either is accepted, and the feedback says which one the function uses;
    * on a mismatch: a root that restarts the window for every child, a
      missed cut when a bound is 0 (None or 0 standing for ±∞), a reordered
      child, a leaf pruned without evidence.

    If ``fn`` calls itself by its own name, its recursive calls are watched
    too (the name is rebound during the check and restored afterwards), and
    the first window that differs from alpha-beta's is explained: a MIN node
    changing α (or MAX changing β), bounds shared between subtrees, a root
    restarting the window. Exceptions in ``fn`` are reported, never raised.

    Parameters
    ----------
    fn : callable
        ``fn(game, state, alpha, beta) -> number``.
    tictactoe : bool
        Also check values and leaf counts on tic-tac-toe positions.
    variant : str, optional
        A student's variant (e.g. ``"jdoe/A2/q4"``): the drawn trees are made
        from it (see :func:`~gametrees.exercises.check_minimax`).
    rule : {None, "textbook", "strict"}
        The tie rule the task asks for; None accepts either.

    Returns
    -------
    Feedback

    Examples
    --------
    >>> import math
    >>> def ab(game, state, alpha, beta):
    ...     if game.is_terminal(state):
    ...         return game.utility(state)
    ...     if game.to_move(state) == "max":
    ...         v = -math.inf
    ...         for m in game.actions(state):
    ...             v = max(v, ab(game, game.result(state, m), alpha, beta))
    ...             if v > beta:           # strict: no cut on a tie
    ...                 return v
    ...             alpha = max(alpha, v)
    ...         return v
    ...     v = math.inf
    ...     for m in game.actions(state):
    ...         v = min(v, ab(game, game.result(state, m), alpha, beta))
    ...         if v < alpha:
    ...             return v
    ...         beta = min(beta, v)
    ...     return v
    >>> fb = check_alphabeta(ab, tictactoe=False)
    >>> fb.ok
    True
    >>> print(fb.lines[-1])
    ✓ Leaves evaluated: exactly alpha-beta's with the strict rule (prune only when v > β or v < α, as in
    CS188), on all 23 trees.
    """
    variant, strict, unusable = alphabeta_task("check_alphabeta", fn, variant, rule)
    if unusable is not None:
        return unusable
    rep, printed = Report(), Printed()

    def full(game, state):
        return fn(game, state, -INF, INF)

    log = CallLog(fn, (1, 2, 3))
    with log:
        passed, total, failures, records = _root_values(log, fn, variant, rep, printed)
        roles = _role_slips(fn, printed)
        smallest, n = report_smallest(rep, full, failures, printed, 1e-9, roles=roles, context=False)
        if smallest is not None and n is not None and smallest.out_degree(n) and not rep.items[-1][2]:
            probe = _window_probe(fn, smallest, printed)
            if probe and probe[2] != (n, (-INF, INF)):
                rep.bad(*probe[:2])
        total += 1
        if failures:
            rep.bad("Leaves evaluated: checked once every root value is right.")
            leaves_ok, strict_used, generic_leaves = False, False, False
        else:
            leaves_ok, strict_used, generic_leaves = _judge_leaves(rep, records, strict)
        passed += leaves_ok
        if (failures or generic_leaves) and log.installed:
            _report_windows(rep, records, strict_used)
    if tictactoe:
        total += 1
        passed += ttt_group(full, rep, printed, counts=not failures, roles=roles, strict=strict)
    printed_note(rep, printed)
    fb = checker_feedback("check_alphabeta", rep, passed, total)
    fb.tree = smallest
    return fb


def _root_values(log, fn, variant, rep, printed):
    """The learner's root values on every group of trees (a line per group in ``rep``), the learner's own
    recursive calls recorded by ``log``: ``(passed, total, failures, records)``, a record
    ``(tree, ok, leaves evaluated, states generated, calls)`` per tree."""
    call = log.wrapper if log.installed else fn
    passed = total = 0
    failures, records = [], []
    for name, trees in alphabeta_groups(variant):
        results = []
        for G in trees:
            game = CountingTree(G)
            log.calls = []
            out = run_learner(call, (game, game.initial, -INF, INF), printed, game)
            calls, log.calls = log.calls, None
            expected = minimax(G, trace=False, graph=False).value
            ok = out.problem() is None and close(float(out.value), expected)
            results.append((ok, G, expected, out))
            if not ok:
                failures.append((G, len(failures)))
            records.append((G, ok, list(dict.fromkeys(game.evaluated)), game.generated, calls))
        total += 1
        passed += group_line(rep, name, results)
    return passed, total, failures, records


def _role_slips(fn, printed):
    """The players whose one-level tree the learner gets wrong: "you took the other player's choice" is
    said only if these show it."""
    roles = []
    for player in (MAX, MIN):
        G1 = nested_tree([4, 9], player)
        game = CountingTree(G1)
        out = run_learner(fn, (game, game.initial, -INF, INF), printed, game)
        if out.problem() or not close(float(out.value), 9 if player == MAX else 4):
            roles.append(player)
    return tuple(roles)


def _judge_leaves(rep, records, strict):
    """The leaves evaluated against alpha-beta's with either tie rule (or only ``strict``'s, when not
    None): a line in ``rep``; returns ``(leaves_ok, the tie rule used, a generic diagnosis was given)``."""
    rows = [(G, L, {s: visited_leaves(alphabeta(G, strict=s, trace=True), G) for s in (False, True)},
             calls, generated) for G, _ok, L, generated, calls in records]
    unmatched = [r for r in rows if r[1] not in r[2].values()]
    if unmatched:
        rep.bad(f"Leaves evaluated: {len(rows) - len(unmatched)} of {len(rows)} trees match alpha-beta.")
        return False, False, _explain_unmatched(rep, unmatched)
    leaves_ok, strict_used = _judge_tie_rule(rep, rows, strict)
    if leaves_ok:
        _note_wasted_states(rep, rows, strict_used)
    return leaves_ok, strict_used, False


def _explain_unmatched(rep, unmatched):
    """Why the leaves differ from alpha-beta's: nothing pruned, a root restarting the window, or the first
    leaf where they part. Returns True for the last (a generic diagnosis the windows may explain)."""
    restart = {id(r[0]): [restart_leaves(r[0], strict) for strict in (False, True)] for r in unmatched}
    every = [r for r in unmatched if r[1] == _all_leaves(r[0])]
    again = [r for r in unmatched if r[1] in restart[id(r[0])]]
    telling_every = [r for r in every if _all_leaves(r[0]) not in restart[id(r[0])]]
    telling_again = [r for r in again if _all_leaves(r[0]) not in restart[id(r[0])]]
    if len(every) == len(unmatched) and telling_every:
        G, L, seqs = min(telling_every, key=lambda r: r[0].number_of_nodes())[:3]
        rep.bad(f"Your function evaluates every leaf: on {inline_tree(G)} all {len(L)}, where "
                f"alpha-beta evaluates {len(seqs[False])}. Nothing is pruned.",
                "A MAX node stops as soon as its value v ≥ β, a MIN node as soon as v ≤ α; and "
                "each node must pass its updated window (α raised at MAX, β lowered at MIN) to "
                "its next child.")
        return False
    if len(again) == len(unmatched) and telling_again:
        G, L, seqs = min(telling_again, key=lambda r: r[0].number_of_nodes())[:3]
        rep.bad(f"On {inline_tree(G)} your function evaluates {len(L)} leaves, alpha-beta "
                f"{len(seqs[False])}: exactly the leaves of searching each of the root's "
                "children with a fresh window (α = -∞, β = +∞). Your root restarts the window "
                "for every child.",
                tagged("Print the window each root child is searched with: after the first "
                       "child, α (at a MAX root) or β (at a MIN root) must carry the best value "
                       "so far into the next child's search.", "root-window-restart"))
        return False
    diagnoses = []
    for G, L, seqs, _, _ in sorted(unmatched, key=lambda r: r[0].number_of_nodes()):
        agree = {s: next((i for i, (x, y) in enumerate(zip(L, seqs[s])) if x != y), min(len(L), len(seqs[s])))
                 for s in (False, True)}
        closer = agree[True] > agree[False]  # the tie rule the leaves follow longer
        diagnoses.append((G, L, closer, _leaf_diagnosis(G, L, closer)))
    if all(d[3][2] for d in diagnoses):
        text, hint, _ = diagnoses[0][3]  # only a bound of 0 fails to cut: the 0/None slip
    else:
        G, L, closer, _ = next(d for d in diagnoses if not d[3][2])
        text, hint, _ = _leaf_diagnosis(G, L, closer, zero_hint=False)
    rep.bad(text, hint)
    return True


def _judge_tie_rule(rep, rows, strict):
    """Leaves that match alpha-beta's on every tree: which tie rule, and is it the task's (``strict``, or
    either when None)? A line in ``rep``; returns ``(leaves_ok, the tie rule used)``."""
    deciding = [r for r in rows if r[2][False] != r[2][True]]
    if deciding and strict is not None and not all(r[1] == r[2][strict] for r in deciding):
        other = not strict
        rep.bad(f"Leaves evaluated: alpha-beta's with the {tie_rule(other)} rule ({_rule_text(other)}), but "
                f"your task asks for the {tie_rule(strict)} rule ({_rule_text(strict)}).",
                tagged(f"Change the comparisons that stop a node: the {tie_rule(strict)} rule prunes "
                       f"{'only on a strict inequality' if strict else 'on a tie too'}.",
                       "tie-rule"))
        return False, other
    for used in (False, True):
        if deciding and all(r[1] == r[2][used] for r in deciding):
            rep.good(f"Leaves evaluated: exactly alpha-beta's with the {tie_rule(used)} rule "
                     f"({_rule_text(used)}), on all {len(rows)} trees.")
            return True, used
    if deciding:
        t = min((r for r in deciding if r[1] == r[2][False]), key=lambda r: r[0].number_of_nodes())
        u = min((r for r in deciding if r[1] == r[2][True]), key=lambda r: r[0].number_of_nodes())
        rep.bad("Leaves evaluated: you mix the two tie conventions: on "
                f"{inline_tree(t[0])} you prune on a tie (textbook rule), on {inline_tree(u[0])} you "
                "do not (strict rule).",
                tagged("Use the same comparison at MAX and MIN nodes: either v ≥ β / v ≤ α (AIMA) or "
                       "v > β / v < α (CS188). Both give the same root value.", "tie-rule"))
        return False, False
    rep.good(f"Leaves evaluated: exactly alpha-beta's on all {len(rows)} trees.")
    return True, False


def _note_wasted_states(rep, rows, strict):
    """A note when the learner generates children it then prunes (right leaves, wasted work)."""
    for G, _L, _seqs, _calls, generated in rows:
        statuses = alphabeta(G, strict=strict, trace=True).graph.nodes
        wasted = [c for c in dict.fromkeys(generated) if statuses[c]["status"] == "pruned"]
        if wasted:
            nodes = NodeNames(G)
            rep.note("Your function creates states it never searches (game.result for pruned "
                     f"children, e.g. {nodes.name(wasted[0])} on {inline(G, nodes)}): the value "
                     "is right, but generate each child only when you come to it.")
            return


def _report_windows(rep, records, strict_used):
    """The windows the function passes to itself (when it recurses by its own name): the first that differs
    from alpha-beta's, the most telling kind first, on the smallest tree, the rule it follows first."""
    found = []
    for G, _ok, _L, _generated, calls in records:
        for s in (False, True):
            d = _window_diagnosis(G, calls, s) if calls else None
            if d:
                found.append((_KIND_RANK[d[2]], G.number_of_nodes(), s != strict_used, d))
    if found:
        text, hint, _ = min(found, key=lambda f: f[:3])[3]
        rep.bad(text, hint)
