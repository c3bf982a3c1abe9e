"""Explaining a learner's wrong value: the deepest wrong node, its context, one line per test group.

:func:`explain_node` words why a node's value is wrong given its children's,
:func:`diagnose_tree` finds the deepest wrong node whose children are right,
and :func:`group_line`, :func:`printed_note` and :func:`checker_feedback`
word a check's lines and verdict.

May import: :mod:`gametrees.games`, :mod:`gametrees.exercises.feedback`,
:mod:`gametrees.exercises.answers`, :mod:`gametrees.exercises.by_hand` (its public names) and
:mod:`gametrees.exercises.code_checks.harness`.
"""

from __future__ import annotations

import math

from ...games import CHANCE, MAX, MIN
from ..answers import NodeNames
from ..attempts import escalate
from ..by_hand import chance_hint, child_probs, inline, roles_hint, value_slip
from ..feedback import ROLE_NAMES, Feedback, and_list, close, fmt, fmt_prob, tagged
from .harness import WRITE_IT_YOURSELF, CountingTree, Outcome, error_hint, exact_values, run_learner

__all__ = ["checker_feedback", "deepest_wrong", "diagnose_tree", "explain_node", "group_line", "inline_tree",
           "library_feedback", "printed_note", "probe_values", "smallest_failure"]

# ============================================================================
# Explaining a wrong value at one node
# ============================================================================


def explain_node(G, nodes, truth, n, got, state_text=None, roles=(MAX, MIN), context=True):
    """``(text, hint)`` for a node whose value is wrong while its children's are right.

    ``roles``: the players for which "you took the other player's choice" is a
    plausible reading (alpha-beta code can return such a value for other reasons);
    ``context``: hint that the children are scored differently inside the search
    (for alpha-beta that is expected: the caller probes windows instead).
    """
    name = nodes.name(n)
    where = f"At {name} (state {state_text if state_text is not None else repr(n)})"
    if isinstance(got, Outcome):
        problem = got.problem()
        return f"{where}, your function {problem}.", error_hint(problem)
    v = truth.nodes[n]["value"]
    if not G.out_degree(n):
        u = G.nodes[n]["utility"]
        hint = "Return game.utility(state) unchanged at a terminal state."
        if close(got, -u) and u != 0:
            hint = tagged("You negated the utility: utilities are from MAX's point of view, whoever is to "
                          "move (negate only in negamax, and then consistently).", "wrong-viewpoint")
        return (f"{where}, a terminal node, your function returned {fmt(got)}, but a terminal state is "
                f"worth game.utility(state) = {fmt(u)}."), hint
    player = G.nodes[n]["player"]
    kids = list(G.successors(n))
    kid_values = [truth.nodes[c]["value"] for c in kids]
    listing = ", ".join(f"{nodes.name(c)} = {fmt(truth.nodes[c]['value'])}" for c in kids)
    if player == CHANCE:
        probs = child_probs(G, n)
        weighted = " + ".join(f"{fmt_prob(probs[c])} × {fmt(truth.nodes[c]['value'])}" for c in kids)
        text = (f"{where}, your function returned {fmt(got)}, but {name} is a chance node whose outcomes "
                f"are worth {listing} (your function gets those right), so {name} is worth "
                f"{weighted} = {fmt(v)}.")
        slip = value_slip(G, nodes, n, got, kid_values, [probs[c] for c in kids])
        return text, tagged(chance_hint(name, got, kid_values, [probs[c] for c in kids]), slip and slip[1])
    which = "largest" if player == MAX else "smallest"
    text = (f"{where}, your function returned {fmt(got)}, but {name} is a {ROLE_NAMES[player]} node "
            f"(game.to_move gives {player!r}) whose children are worth {listing} (your function gets those "
            f"right), so {name} is worth {fmt(v)}, the {which}.")
    hint = tagged(roles_hint(G, nodes, n, got, kid_values), "roles-inverted") if player in roles else None
    if hint is None:
        if got == 0 and all((k < 0) if player == MAX else (k > 0) for k in kid_values):
            hint = tagged("0 is not the value of any child: does the best value so far (or α/β) start at 0 "
                          f"instead of {'-math.inf' if player == MAX else 'math.inf'}? With children all "
                          f"{'below' if player == MAX else 'above'} 0, a start of 0 is never replaced.",
                          "zero-as-infinity")
        elif math.isinf(got):
            hint = ("That is a starting value that no child's value replaced: does the loop over the "
                    "children run, and is the comparison the right way round?")
        elif len(kids) > 1 and player in roles and close(got, kid_values[0]):
            hint = "That is the first child's value: compare every child, keeping the best so far."
        elif len(kids) > 1 and player in roles and close(got, kid_values[-1]):
            hint = "That is the last child's value: keep the best so far instead of overwriting it."
        elif close(got, -v):
            hint = tagged("That is the right value with the wrong sign: values are from MAX's point of view "
                          "at every node.", "wrong-viewpoint")
    if hint is None and context:
        same = [c for c in kids if G.nodes[c].get("player") == player]
        if same:
            hint = (f"Turns need not alternate: {nodes.name(same[0])} is {ROLE_NAMES[player]} like its "
                    f"parent {name}. Ask game.to_move(state) at every node instead of alternating MAX and "
                    "MIN by depth.")
        else:
            hint = (f"Called on their own, your function gets {name}'s children right, but not inside "
                    f"{name}'s search: does it pass something down (a flag, a depth) or keep something "
                    "between calls that changes how they are scored? Ask game.to_move(state) at every node.")
    return text, hint


def deepest_wrong(G, nodes, bad):
    """The deepest node in ``bad`` whose children are all fine (first in BFS order on ties)."""
    candidates = [n for n in bad if not any(c in bad for c in G.successors(n))]
    if not candidates:
        return None
    return min(candidates, key=lambda n: (-nodes.depth[n], nodes.index[n]))


def probe_values(fn_call, G, truth, printed, tol):
    """Call the learner on every node (as a start state); ``{node: Outcome}`` and the wrong ones."""
    outcomes, bad = {}, set()
    for n in G:
        game = CountingTree(G)
        out = run_learner(fn_call, (game, n), printed, game)
        outcomes[n] = out
        if out.problem() or not close(float(out.value), truth.nodes[n]["value"], tol):
            bad.add(n)
    return outcomes, bad


def diagnose_tree(fn_call, G, printed, tol, roles=(MAX, MIN), context=True):
    """``(text, hint)``: the deepest node whose value is wrong while its children's are right."""
    nodes = NodeNames(G)
    truth = exact_values(G)
    outcomes, bad = probe_values(fn_call, G, truth, printed, tol)
    n = deepest_wrong(G, nodes, bad)
    if n is None:
        return ("Called on each node of this tree separately, your function gets every value right, yet not "
                "when called at the root: does it keep state between calls (a global variable, a default "
                "argument)?", None), None
    out = outcomes[n]
    got = out if out.problem() else float(out.value) if not isinstance(out.value, int) else out.value
    return explain_node(G, nodes, truth, n, got, roles=roles, context=context), n


def inline_tree(G, limit=None):
    """The tree on one line, or ``'a tree of N nodes'`` when longer than ``limit`` characters."""
    text = inline(G, NodeNames(G))
    if limit is not None and len(text) > limit:
        return f"a tree of {G.number_of_nodes()} nodes"
    return text


def group_line(rep, name, results):
    """One ✓/✗ line for a group of test trees; ``results`` holds (ok, G, expected, outcome)."""
    wrong = [r for r in results if not r[0]]
    if not wrong:
        if len(results) == 1:
            rep.good(f"{name}: right ({fmt(results[0][2])}).")
        else:
            rep.good(f"{name}: right on all {len(results)}.")
        return True
    _, G, expected, out = min(wrong, key=lambda r: r[1].number_of_nodes())
    problem = out.problem()
    got = problem if problem else f"returned {fmt(out.value)}"
    rep.bad(f"{name}: {len(results) - len(wrong)} of {len(results)} right; e.g. {inline_tree(G, 100)} is "
            f"worth {fmt(expected)}, your function {got}.", error_hint(problem))
    return False


def smallest_failure(failures):
    """The smallest tree among ``failures`` (``(G, index, ...)`` tuples), or None."""
    return min(failures, key=lambda f: (f[0].number_of_nodes(), f[1]))[0] if failures else None


def printed_note(rep, printed):
    """Adds a note to ``rep`` when the learner's function printed something while checked.

    When it called gametrees' own search or evaluation (``printed.library``), every other line is
    dropped for one plain ✗: the check fails, whatever the values were.
    """
    if printed.library:
        rep.library = list(printed.library)
        return
    k = printed.lines()
    if k:
        rep.note(f"Your function printed {k} line{'s' if k > 1 else ''} while being checked (not shown).")


def library_feedback(name, used, what=None, *, key=None, lacks=None):
    """The feedback of a check whose learner function called gametrees' own search or evaluation
    (``used``: what it called): one plain ✗, whatever the values were; ``.library`` lists ``used``.
    Counted under ``key`` (default ``name``), with ``lacks`` as :func:`~gametrees.exercises.attempts.escalate`
    takes it."""
    what = what or ("evaluation" if "evaluation" in name else "search")
    plainly = WRITE_IT_YOURSELF.replace("search", what)
    fb = Feedback(f"{name}: {plainly}.", [(
        "bad", f"Your function hands the work to gametrees' own {and_list(used)}: {plainly}. Your own helper "
               "functions and the game's methods (game.actions, game.result, game.utility, ...) are fine; "
               "gametrees' searches, agents and evaluation functions are not.", None)])
    fb.library = list(used)
    return escalate(key or name, fb, lacks=lacks)


def checker_feedback(name, rep, passed, total, unit="checks passed", *, key=None, twin=None,
                     on="a twin tree", lacks=None):
    """The :class:`Feedback` of a check: ``'name: all N checks passed.'`` or ``'name: k of N checks
    passed.'``; ``.checks`` is ``(k, N)``.

    Counted once, under ``key`` (default ``name``), with ``twin``, ``on`` and ``lacks`` as
    :func:`gametrees.exercises.attempts.escalate` takes them: a check whose worked answer opens under a
    key of its own passes that key, so the record that knows the answer was shown is the only one."""
    key = key or name
    if getattr(rep, "library", None):
        return library_feedback(name, rep.library, key=key, lacks=lacks)
    bad = [text for kind, text, _ in rep.items if kind == "bad"]
    told = [text for text in bad if not text.startswith("Leaves evaluated: checked once")]
    if not passed and told and all("raised NotImplementedError" in text for text in told):
        return escalate(key, Feedback(f"{name}: not answered yet.", [(
            "bad", "Your function still raises NotImplementedError: write it, then check again.", None)],
            status="unanswered"))
    title = (f"{name}: all {total} {unit}." if passed == total
             else f"{name}: {passed} of {total} {unit}.")
    # Counted per check (a graded notebook's record keeps the count). A twin only when the caller gives one:
    # the feedback already works the mistake through on the small test tree where the function fails.
    fb = Feedback(title, rep.items, tags=getattr(rep, "tags", ()))
    fb.checks = (passed, total)  # the assignments word the title as the checks run in the notebook
    return escalate(key, fb, twin=twin, on=on, lacks=lacks)
