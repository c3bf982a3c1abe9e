"""The project's catalogue of misconceptions: what a learner did, what the feedback says, who detects it.

Every check that *names* a misconception (rather than only saying which part
is wrong) tags its ✗ line with an entry of :data:`CATALOGUE`, and the
:class:`~gametrees.exercises.feedback.Feedback` it returns lists the tags in
``.tags``; the class report of a graded assignment counts them. A tag is given
only when the answer is what that misconception produces and not what a plainer
slip produces (an all-zero answer is not "you took the smallest value"; an
answer that cannot be read names no misconception at all).

Each entry (a :class:`Misconception`) has

- ``tag``: short kebab-case name, e.g. ``"roles-inverted"``;
- ``title``: the misconception in a few words;
- ``learner_did``: what the answer shows;
- ``feedback_says``: what the feedback asks the learner to re-apply (it never
  gives this exercise's right value);
- ``detected_by``: the exercise kinds (``"values"``, ``"pruning"``, ...; see
  :data:`gametrees.exercises.KINDS`) and check names (``"check_minimax"``, ...)
  that name it.

The first 24 entries follow the misconceptions the project set out to target
(minimax, alpha-beta by hand and in code, depth limits and evaluation,
expectimax, MCTS); entries after them are finer readings that single checks
make. Engineers adding a tag append an entry in their own marked section at
the end of :data:`CATALOGUE`.

May import: the standard library only.

Examples
--------
>>> m = misconception("roles-inverted")
>>> m.title
'Roles inverted or turn order wrong'
>>> "values" in m.detected_by
True
>>> misconception("no-such-tag")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
KeyError: "no misconception tagged 'no-such-tag' in the catalogue (known: ...)"
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["CATALOGUE", "Misconception", "misconception"]


class Misconception(NamedTuple):
    """One entry of the catalogue (see the module docstring for the fields)."""

    tag: str
    title: str
    learner_did: str
    feedback_says: str
    detected_by: tuple


_ENTRIES = [
    # -- minimax ----------------------------------------------------------------
    Misconception(
        "roles-inverted", "Roles inverted or turn order wrong",
        "Gave a MIN node the largest of its children's values (or a MAX node the smallest), or alternated "
        "MAX and MIN by depth where turns do not alternate.",
        "Names the node and asks whose turn it is there and which child's value that player takes.",
        ("values", "best_move", "check_minimax", "check_alphabeta")),
    Misconception(
        "terminal-misscored", "Terminal utilities mis-scored",
        "Returned something other than the game's utility at a terminal state (a draw scored as a loss, "
        "every win worth the same).",
        "Asks for game.utility(state) at terminal states, wins above draws above losses from MAX's side.",
        ("check_minimax", "check_fast_wins")),
    Misconception(
        "state-not-restored", "Shared state not restored",
        "The function changes the state it was given (no undo, or a 'copy' that is an alias), so a "
        "sibling's value depends on the order of the calls.",
        "Names the first call that leaves the state changed; asks for make/unmake or a real copy.",
        ("check_minimax",)),
    Misconception(
        "correct-read-as-bug", "Correct behaviour read as a bug",
        "Calls a correct minimax agent wrong because it loses, or ends a lost game fast.",
        "Minimax is a worst-case guarantee: a weaker MIN can only help MAX; when every line loses, any move "
        "scores the same.",
        ("check_minimax_claims",)),
    # -- alpha-beta by hand -------------------------------------------------------
    Misconception(
        "wrong-bound-updated", "Wrong bound updated",
        "Changed α at a MIN node or β at a MAX node.",
        "MAX raises its floor α; MIN lowers its ceiling β: which one does this node's player move?",
        ("window", "check_alphabeta")),
    Misconception(
        "bounds-global", "Bounds treated as global",
        "Gave a node a window taken from a sibling's or cousin's search instead of its parent's, as if "
        "α and β were shared by the whole tree.",
        "Windows pass down only, as copies; values pass up: where did this node's window come from?",
        ("window", "check_alphabeta")),
    Misconception(
        "tie-rule", "Tie convention wrong",
        "Pruned (or kept) exactly the nodes that hang on a tie (v = α or v = β) against the rule the "
        "exercise states.",
        "States the rule (textbook: prune on v ≥ β or v ≤ α; strict: only on v > β or v < α) and asks "
        "which comparison was a tie.",
        ("pruning", "order", "check_alphabeta")),
    Misconception(
        "prune-without-evidence", "Pruning without evidence, or too much",
        "Marked a node pruned though no finished sibling's value lies outside the window inherited there "
        "(e.g. a node's first child).",
        "A cut needs a finished child whose value falls outside the node's window: which one would that be?",
        ("pruning", "order", "check_alphabeta")),
    Misconception(
        "bound-as-value", "Cut nodes' values treated as exact",
        "Wrote an exact number for a node whose search was cut short (it is only ≤ or ≥ that number).",
        "Asks whether the node's search ran to the end; a cut-short node returns only a bound, written "
        "'≤ v' or '≥ v'.",
        ("values", "check_window_entries", "check_table_answers")),
    Misconception(
        "pruning-changes-value", "Pruning or move order can change the root value",
        "Expects alpha-beta (or another order of the children) to give the root a different value than "
        "minimax.",
        "Alpha-beta returns the minimax value at the root; only which leaves are visited changes.",
        ("check_fail_soft_hard",)),
    Misconception(
        "ordering-halves-work", "Ordering ignored; 'halves the work'",
        "Predicted the same number of leaves for best-first and worst-first orders, or b^d / 2.",
        "Perfect ordering examines about b^(d/2) leaves; the worst order saves nothing.",
        ("check_pruning_order",)),
    # -- alpha-beta in code -------------------------------------------------------
    Misconception(
        "root-window-restart", "Root restarts the window per child",
        "The root searches every child with the full window (-∞, +∞): values right, far too many leaves.",
        "α should rise at the root after its first child returns: print each root child's window.",
        ("check_alphabeta",)),
    Misconception(
        "value-right-move-wrong", "Value right, move wrong",
        "Gave the best value with a move that does not reach it (a stale first move, or a move whose value "
        "is only a bound that 'ties').",
        "Test value and move separately; a cut-short child's value is a bound, not a tie.",
        ("best_move",)),
    Misconception(
        "expansions-off", "Expansion count off, values right",
        "Right values, but the leaves looked at differ from alpha-beta's (children generated or re-sorted "
        "first, a cut one child late).",
        "Shows the first node where the leaves looked at differ; asks when the node may stop.",
        ("check_alphabeta",)),
    # -- depth limits and evaluation ----------------------------------------------
    Misconception(
        "wrong-viewpoint", "Evaluation from the wrong viewpoint",
        "Scores from the player to move (signs flip at alternate depths), or negates MAX's utility.",
        "Values are from MAX's point of view at every node; test on an obvious win.",
        ("check_minimax", "check_evaluation", "check_negamax", "check_table_search")),
    Misconception(
        "scale-mismatch", "Estimates and utilities on different scales",
        "Estimates range beyond the utility of a win, so a quiet position outranks a win.",
        "One scale for both: every win above every estimate, every loss below.",
        ("check_evaluation", "check_scale_choices")),
    Misconception(
        "horizon-effect", "Horizon effect not recognised",
        "Calls a position quiet (safe to evaluate) though a capture or threat is pending past the cutoff.",
        "Values that flip with the depth mean the position is not quiet: search on until it is.",
        ("check_quiet_positions",)),
    # -- expectimax -----------------------------------------------------------------
    Misconception(
        "chance-unweighted", "Chance nodes averaged without their probabilities",
        "Gave a chance node the plain mean of its outcomes though they are not equally likely (or bounded it "
        "that way when deciding what a search below it may skip).",
        "A chance node is worth Σ probability × value: weight each outcome.",
        ("expectimax", "check_expectimax", "check_chance_pruning")),
    Misconception(
        "scale-sensitivity", "Scale sensitivity missed",
        "Expects an order-preserving change of the leaf values (squaring) to keep expectimax's choice.",
        "Minimax keeps its choice under any order-preserving change; expectimax only under positive "
        "affine ones.",
        ("check_rescaled_choices", "check_order_preserving_flip")),
    Misconception(
        "chance-pruned", "Pruning below chance nodes like alpha-beta",
        "Pruned a chance node's outcomes with unbounded leaf values.",
        "Any unseen outcome can move the average: pruning there needs known bounds on the leaves.",
        ("check_chance_pruning",)),
    # -- MCTS -------------------------------------------------------------------------
    Misconception(
        "reward-viewpoint", "Reward from a fixed or wrong viewpoint",
        "Backs up a win for the same player at every level, so selection favours the opponent's good moves.",
        "Value each node for the player who moved into it (means kept for MAX: minus the mean at MIN's "
        "choice).",
        ("mcts",)),
    Misconception(
        "ucb-child-log", "UCB formula slips",
        "Took the log of the child's visits instead of the parent's, or scored an unvisited child 0 or 0/0.",
        "Check term by term: exploitation w/n, exploration c·sqrt(ln N / n); an unvisited child scores +∞.",
        ("check_ucb", "mcts")),
    Misconception(
        "backprop-incomplete", "Incomplete back-propagation",
        "Updated only the leaf (or only part of the path) after a playout.",
        "Every node on the path from the root gets the visit and the result.",
        ("mcts",)),
    Misconception(
        "final-move-by-mean", "Final move by highest mean on few visits",
        "Picked the child with the best win rate over a handful of visits over a well-tried one.",
        "Prefer the most-visited child: its estimate is the one to trust.",
        ("check_final_move",)),
    # -- finer readings made by single checks (issue 19 core) -------------------------------
    Misconception(
        "chance-as-choice", "Someone chooses at a chance node",
        "Gave a chance node its smallest or largest outcome, as if MIN or MAX chose there.",
        "Nobody chooses at a chance node: its value is the expected value of its outcomes.",
        ("expectimax", "check_expectimax")),
    Misconception(
        "chance-summed", "Chance outcomes added, not weighted",
        "Gave a chance node the sum of its outcomes.",
        "Multiply each outcome by its probability before adding.",
        ("expectimax", "check_expectimax")),
    Misconception(
        "cut-value-as-minimax", "A cut-short node given its minimax value",
        "Gave a node alpha-beta leaves early the value it would have after looking at every child.",
        "Alpha-beta stops at that node before seeing every child: what has it seen when it returns?",
        ("values", "check_fail_soft_hard", "check_window_entries")),
    Misconception(
        "fail-hard-bound", "Window bound returned for a cut node (fail-hard)",
        "Gave a cut-short node the bound of its window (α or β) instead of the value it reached.",
        "The exercise follows fail-soft alpha-beta: a node returns the best value it found.",
        ("values", "check_fail_soft_hard", "check_window_entries")),
    Misconception(
        "zero-as-infinity", "0 standing for ±∞",
        "The best value so far (or α/β) starts at 0, so children all below (or above) 0 never replace it.",
        "Start MAX's best at -∞ and MIN's at +∞; test trees whose values are all negative.",
        ("check_minimax", "check_alphabeta")),
    Misconception(
        "breadth-first-order", "Alpha-beta visits in breadth-first order",
        "Listed the nodes level by level, though the search goes depth first, left to right.",
        "The search finishes a child's whole subtree before its next sibling.",
        ("order",)),
    Misconception(
        "pruned-subtree-partial", "A cut's subtree only partly pruned",
        "Named some of the nodes under a cut as pruned and others as looked at.",
        "A cut skips every node below the pruned child: nothing there is looked at.",
        ("pruning",)),
    # -- lessons 00-03 (their checks in exercises/lessons/l00 .. l03) ---------------------
    Misconception(
        "nodes-for-leaves", "All nodes counted where the leaves are asked",
        "Gave the number of every position of a game tree (or a root of it) where the number of complete "
        "games, the leaves, was asked.",
        "Asks whether the count includes positions in the middle of a game; only finished games are leaves.",
        ("check_nim_leaves", "check_effective_branching")),
    Misconception(
        "uniform-branching", "Every position given the most moves",
        "Counted a game's tree as if every position had the largest number of moves (3^d for Nim), though "
        "moves run out and games end at different depths.",
        "Asks how many moves a position with 1 or 2 coins has, and when a game ends.",
        ("check_nim_leaves", "check_effective_branching")),
    Misconception(
        "average-as-branching", "Average moves per node taken for b*",
        "Gave the average number of moves of an inner node as the effective branching factor.",
        "Shows how many leaves a uniform tree with that branching has: b* must give the game's leaves, "
        "b*^d = L.",
        ("check_effective_branching",)),
    Misconception(
        "chance-vs-hidden", "Chance and hidden information confused",
        "Called a game with hidden but unrandom information a game of chance, or a die not yet rolled "
        "hidden information.",
        "Asks the two questions apart: does anything random happen after the start? Can every player see "
        "the whole state?",
        ("check_game_kinds",)),
    Misconception(
        "opponent-reply-ignored", "A move judged without the opponent's best reply",
        "Chose a move for the threats it makes, although the opponent then wins at once.",
        "Asks which of the opponent's lines needs only one more mark: the value of a move is what is left "
        "after the opponent's best reply.",
        ("check_position",)),
    # -- MCTS by hand: the "mcts" exercise kind (issue 21) ------------------------------
    Misconception(
        "selection-most-visited", "Selection by visit count",
        "Chose the most visited child as the one selection explores next.",
        "The most visited child is the move to play after the search; selection takes the highest UCB1 "
        "score.",
        ("mcts",)),
    Misconception(
        "selection-exploit-only", "Selection by the best mean alone",
        "Chose the child with the best mean, leaving out UCB1's exploration term.",
        "UCB1 adds c·sqrt(ln N / n), larger for children tried less often: add it for every child.",
        ("mcts",)),
    Misconception(
        "backup-mean-averaged", "New mean as the average of the old mean and the result",
        "Averaged the old mean with the playout's result, giving one playout the weight of all the earlier "
        "ones.",
        "The new mean is (total + result) / (visits + 1).",
        ("mcts",)),
    # -- fail-hard, and a table's bounds under another window (issue 28) -------------------------
    Misconception(
        "fail-hard-unclamped", "A fail-hard value outside the window",
        "Gave a node under fail-hard alpha-beta a value outside the window (α, β) it was given, such as its "
        "best child's value after every child failed low, or the value of the child that cut it off, or its "
        "value clamped into the window the search started with instead of the narrower one it was given.",
        "Fail-hard returns a value clamped into [α, β]: never below the α a node was given, never above its "
        "β.",
        ("check_fail_soft_hard",)),
    Misconception(
        "table-bound-unused", "A stored bound that cannot answer, thrown away",
        "Searched with the full window again although the table's bound, unable to answer, narrows it.",
        "A lower bound that cannot answer still raises α to it, an upper bound lowers β to it.",
        ("check_table_answers",)),
    Misconception(
        "table-bound-wrong-side", "A stored bound narrowing the wrong end of the window",
        "Lowered β to a stored lower bound, or raised α to a stored upper bound.",
        "\"At least v\" says nothing about how high the value may be: it can only raise α; \"at most v\" can "
        "only lower β.",
        ("check_table_answers",)),
    Misconception(
        "table-flag-reversed", "A table entry's flag the wrong way round",
        "Stored a value that failed high as an upper bound (or one that failed low as a lower bound), e.g. "
        "by comparing it with the α the loop raised instead of the window the search was given.",
        "A value at or above the β the search was given is a lower bound (at least it), one at or below the "
        "α it was given an upper bound: which α and β decide the flag?",
        ("check_table_search",)),
]

#: tag -> :class:`Misconception`, in catalogue order.
CATALOGUE = {m.tag: m for m in _ENTRIES}
assert len(CATALOGUE) == len(_ENTRIES), "duplicate tag in the misconception catalogue"


def misconception(tag):
    """The catalogue entry of ``tag``; a KeyError naming the tag if it is not catalogued."""
    try:
        return CATALOGUE[tag]
    except (KeyError, TypeError):
        raise KeyError(
            f"no misconception tagged {tag!r} in the catalogue (known: {', '.join(CATALOGUE)})"
        ) from None
