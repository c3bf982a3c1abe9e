"""Traces of a search, and frames: the state of the search after event k.

A search run with ``trace=True`` records a list of small immutable
:class:`Event` records, one record type per kind, their fields named: it
enters a node (:class:`Enter`), evaluates a leaf (:class:`Leaf`), a child's
value comes back and updates the parent's value and window (:class:`Update`),
a cutoff prunes the remaining children (:class:`Prune`), it leaves a node
(:class:`Exit`). The searches make them through a :class:`Recorder`. Each
event reads as one plain sentence (:attr:`Event.text`).

:func:`frame` folds the first k+1 events into a :class:`Frame`: which nodes
are done with which values, the current path, the alpha/beta window of each
node, what is pruned so far. Monte Carlo tree search (:func:`gametrees.mcts`)
records the four steps of each playout instead (selection, expansion,
playout, backup; :func:`selection_rows` and :func:`playout_nodes` read them),
and its frames carry every grown node's visits and mean. It is a pure function of (trace, k); drawing and
widgets only ever read frames. :func:`annotate` writes the last frame onto a
graph as the schema's node and edge attributes (that is ``result.graph``).
Values are written by :func:`gametrees.wording.fmt`, as everywhere else.

Imports: networkx, the standard library, :mod:`gametrees.rules` (the cutoff test and its sign) and
:mod:`gametrees.wording` (the search modules import this one to record events).
"""

from __future__ import annotations

import reprlib
from collections import namedtuple
from dataclasses import dataclass, field
from itertools import repeat
from typing import Hashable

import networkx as nx

from .rules import cutoff, cutoff_sign, fails_low
from .wording import fmt

__all__ = [
    "Event", "Enter", "Leaf", "Estimate", "Hit", "Update", "Prune", "Exit", "Select", "Expand", "Playout",
    "Backup", "Recorder", "GraphRecorder", "replay", "Frame", "frame", "frames", "annotate", "playout_nodes",
    "selection_rows",
]

_ROLE = {"max": "MAX", "min": "MIN", "chance": "chance"}


def _num(x) -> str:
    """A value in a sentence: :func:`gametrees.wording.fmt` with the true minus sign (−2, −∞), as the figure
    beside the sentence writes it."""
    return fmt(x, true_minus=True)


def _names(labels) -> str:
    labels = [str(x) for x in labels]
    if len(labels) <= 1:
        return "".join(labels)
    return ", ".join(labels[:-1]) + " and " + labels[-1]


# Names of game positions (gametrees.search.engine.PositionNames): "the start position",
# "after X c2, O a1". Sentences say "the position after X c2" and name pruned moves by the move.
_START = "the start position"
_AFTER = "after "


def _is_position(label) -> bool:
    return label == _START or label.startswith(_AFTER)


def _the(label) -> str:
    """A node's name inside a sentence: "A", "the position after X c2", "the start position"."""
    label = str(label)
    return f"the position {label}" if label.startswith(_AFTER) else label


def _move_of(child, parent) -> str:
    """The last move of a position's name, relative to its parent: "O a1"."""
    child, parent = str(child), str(parent)
    if parent == _START and child.startswith(_AFTER):
        return child[len(_AFTER):]
    if child.startswith(parent + ", "):
        return child[len(parent) + 2:]
    return child


#: The fields every event has, in this order (each kind adds its own after them).
_COMMON = ("kind", "node", "parent", "ply", "player", "value", "alpha", "beta", "state", "names")


class Event(tuple):
    """One step of a search: the base of the trace's records, one record type per kind.

    A search records its steps with a :class:`Recorder`; each step is a small immutable record
    (a tuple with named fields, like a named tuple) of one of the types below. Every record has
    the fields ``kind, node, parent, ply, player, value, alpha, beta, state, names``; each kind
    adds its own after them.

    ====================  ===========  =====================================================
    record                ``kind``     its own fields
    ====================  ===========  =====================================================
    :class:`Enter`        ``"enter"``  (none): a node is entered
    :class:`Leaf`         ``"leaf"``   (none): a terminal node's utility
    :class:`Estimate`     ``"estimate"``  (none): the evaluation at the depth limit
    :class:`Hit`          ``"hit"``    ``flag``: a transposition-table entry answers
    :class:`Update`       ``"update"`` ``child, child_value, improved, cut``
    :class:`Prune`        ``"prune"``  ``children, moves, states, strict``
    :class:`Exit`         ``"exit"``   ``bound, best``: the node is done
    :class:`Select`       ``"select"`` ``playout, chosen, children, visits, totals, c, scores``
    :class:`Expand`       ``"expand"`` ``playout, added, parent_player``
    :class:`Playout`      ``"playout"``  ``playout, walk, moves``
    :class:`Backup`       ``"backup"`` ``playout, rows``
    ====================  ===========  =====================================================

    Leaf, estimate and hit events enter and leave their node in one step. The last four are
    Monte Carlo tree search's (:func:`gametrees.mcts`), the four steps of each playout.

    Attributes
    ----------
    kind : str
        The kind, as in the table.
    node : hashable
        The node the event happens at.
    parent : hashable or None
        Its parent (``None`` at the root).
    ply : int
        Depth of ``node`` below the root.
    player : str or None
        ``"max"``, ``"min"`` or ``"chance"`` at inner nodes; ``None`` at leaves.
    value : number or None
        Leaf/estimate/hit: its value. Update/prune/exit: the node's value so far. Select: the
        node's visits. Playout and backup: the playout's result.
    alpha, beta : number or None
        The node's window after the event (alpha-beta and negamax only).
    state
        The game state at ``node`` (the node id itself on a tree).
    names : callable
        node -> display label (shared by all events of a trace).
    """

    __slots__ = ()
    _fields = _COMMON
    # What every event answers, whatever its kind (the kinds that have them override these).
    child = None
    bound = None
    best = None
    pruned = ()

    def __init_subclass__(cls, **kwargs):
        # Every field read by name at C speed (the getters of a namedtuple of the same fields).
        super().__init_subclass__(**kwargs)
        shape = namedtuple(cls.__name__, cls._fields)
        for name in cls._fields:
            if name not in cls.__dict__:
                setattr(cls, name, shape.__dict__[name])
        cls.__match_args__ = cls._fields

    def _asdict(self) -> dict:
        """The record as a dict ``{field: value}`` (as a named tuple's ``_asdict``)."""
        return dict(zip(self._fields, self))

    @property
    def label(self) -> str:
        """The node's display name (A, B, ... on textbook trees)."""
        return str(self.names(self.node))

    @property
    def text(self) -> str:
        """The event as one sentence a learner can read."""
        return _TEXT[self.kind](self)

    def __repr__(self):
        return f"Event({self.kind!r}, {self.node!r}: {self.text})"


class Enter(Event):
    """``"enter"``: the search enters ``node`` (its window in ``alpha``, ``beta``)."""

    __slots__ = ()


class Leaf(Event):
    """``"leaf"``: a terminal node; ``value`` is its utility."""

    __slots__ = ()


class Estimate(Event):
    """``"estimate"``: the depth limit; ``value`` is the evaluation function's estimate."""

    __slots__ = ()


class Hit(Event):
    """``"hit"``: a transposition-table entry answers for ``node``; ``flag`` says what its ``value`` is
    (``"exact"``, ``"lower"`` or ``"upper"``, from MAX's point of view)."""

    __slots__ = ()
    _fields = _COMMON + ("flag",)


class Update(Event):
    """``"update"``: ``child``'s value ``child_value`` came back to ``node``; ``value`` is the node's value
    so far, ``improved`` whether the child gave it (its best child so far), ``cut`` whether the
    cutoff test now prunes the node's remaining children."""

    __slots__ = ()
    _fields = _COMMON + ("child", "child_value", "improved", "cut")


class Prune(Event):
    """``"prune"``: a cutoff at ``node`` skips ``children`` (reached by ``moves``, their ``states``);
    ``strict`` is the tie rule that decided it (:mod:`gametrees.rules`)."""

    __slots__ = ()
    _fields = _COMMON + ("children", "moves", "states", "strict")

    @property
    def pruned(self) -> tuple:
        """The children the cutoff skips (``children``)."""
        return self.children


class Exit(Event):
    """``"exit"``: ``node`` is done with ``value``; ``bound`` says whether that is its exact value
    (``"exact"``) or only an upper (``"upper"``: true value <= value) or lower bound (``"lower"``);
    ``best`` is the child that gave the value, its best child (the last update that ``improved`` it;
    ``None`` at a chance node)."""

    __slots__ = ()
    _fields = _COMMON + ("bound", "best")


class Select(Event):
    """``"select"`` (MCTS): in playout ``playout``, UCB1 picks ``chosen`` among ``children`` of ``node``
    (``value``: the node's visits); ``visits`` and ``totals`` are the children's visits and their
    results' sum for MAX, ``c`` the exploration constant and ``scores`` the children's UCB1 scores as
    the search computed them (:func:`gametrees.rules.ucb1_select`); at a chance node ``c`` is None
    and ``scores`` the children's probabilities, by which the outcome is drawn. :func:`selection_rows`
    gives each child's visits, mean and score."""

    __slots__ = ()
    _fields = _COMMON + ("playout", "chosen", "children", "visits", "totals", "c", "scores")


class Expand(Event):
    """``"expand"`` (MCTS): in playout ``playout``, ``node`` joins the tree (``added``; False when a
    finished game already in the tree is reached); ``parent_player`` is the player at its parent."""

    __slots__ = ()
    _fields = _COMMON + ("playout", "added", "parent_player")


class Playout(Event):
    """``"playout"`` (MCTS): random ``moves`` from ``node`` to the end; ``value`` is the result;
    ``walk`` the nodes passed on a tree (``None`` in a game: :func:`playout_nodes` gives them)."""

    __slots__ = ()
    _fields = _COMMON + ("playout", "walk", "moves")


class Backup(Event):
    """``"backup"`` (MCTS): playout ``playout``'s result counted on the path, from the bottom up;
    ``rows`` holds ``(node, visits, mean for MAX)`` for each node updated."""

    __slots__ = ()
    _fields = _COMMON + ("playout", "rows")


class Recorder:
    """Where a search's events are made: one function per kind, each appending one record to ``log``.

    The searches (:mod:`gametrees.search`, :func:`gametrees.mcts`) call it; ``names`` (node ->
    label) goes into every record. Windows are MAX's (negamax converts its own before recording).
    Each function takes its record's fields by position, named and ordered as the record has them
    (:class:`Event`'s table), leaving out ``kind``, ``names`` and the fields its kind never has
    (``Enter`` has no value; a leaf no player and no window; MCTS's records no window): a call
    ``rec.update(node, parent, ply, player, value, alpha, beta, state, child, child_value, improved,
    cut)`` reads as the record it makes (keywords would be clearer still, but cost about 40 ns a call,
    a tenth of a traced search). The functions are closures over ``log`` and ``names`` rather than
    methods: a search calls one per event, and a closure's call costs about 20 ns less (a
    micro-benchmark, Python 3.11).

    Examples
    --------
    >>> import math
    >>> rec = Recorder(str)
    >>> rec.enter("A", None, 0, "max", -math.inf, math.inf, "A")
    >>> rec.leaf("B", "A", 1, 3, "B")
    >>> [e.kind for e in rec.log], rec.log[1].value, rec.log[1].text
    (['enter', 'leaf'], 3, 'Go down from A to B: a terminal node with utility 3.')
    """

    __slots__ = ("log", "enter", "leaf", "estimate", "hit", "update", "prune", "exit", "select", "expand",
                 "playout", "backup")

    def __init__(self, names):
        self.log = log = []
        add = log.append

        def enter(node, parent, ply, player, alpha, beta, state):
            add(Enter(("enter", node, parent, ply, player, None, alpha, beta, state, names)))

        def leaf(node, parent, ply, value, state):
            add(Leaf(("leaf", node, parent, ply, None, value, None, None, state, names)))

        def estimate(node, parent, ply, player, value, state):
            add(Estimate(("estimate", node, parent, ply, player, value, None, None, state, names)))

        def hit(node, parent, ply, player, value, alpha, beta, state, flag):
            add(Hit(("hit", node, parent, ply, player, value, alpha, beta, state, names, flag)))

        def update(node, parent, ply, player, value, alpha, beta, state, child, child_value, improved, cut):
            add(Update(("update", node, parent, ply, player, value, alpha, beta, state, names,
                        child, child_value, improved, cut)))

        def prune(node, parent, ply, player, value, alpha, beta, state, children, moves, states, strict):
            add(Prune(("prune", node, parent, ply, player, value, alpha, beta, state, names,
                       children, moves, states, strict)))

        def exit(node, parent, ply, player, value, alpha, beta, state, bound, best):
            add(Exit(("exit", node, parent, ply, player, value, alpha, beta, state, names, bound, best)))

        def select(node, parent, ply, player, value, state, playout, chosen, children, visits, totals, c,
                   scores):
            add(Select(("select", node, parent, ply, player, value, None, None, state, names,
                        playout, chosen, children, visits, totals, c, scores)))

        def expand(node, parent, ply, player, state, playout, added, parent_player):
            add(Expand(("expand", node, parent, ply, player, None, None, None, state, names,
                        playout, added, parent_player)))

        def playout(node, parent, ply, player, value, state, playout, walk, moves):
            add(Playout(("playout", node, parent, ply, player, value, None, None, state, names,
                         playout, walk, moves)))

        def backup(node, parent, ply, player, value, state, playout, rows):
            add(Backup(("backup", node, parent, ply, player, value, None, None, state, names,
                        playout, rows)))

        self.enter, self.leaf, self.estimate, self.hit, self.update = enter, leaf, estimate, hit, update
        self.prune, self.exit = prune, exit
        self.select, self.expand, self.playout, self.backup = select, expand, playout, backup


class GraphRecorder:
    """Where a tree search asked only for its annotated graph writes it: the :class:`Recorder`'s
    functions, each writing what its event means onto the searched tree's nodes as the search goes.

    No event is made and nothing is read twice: ``gt.minimax(T, trace=False, graph=True).graph`` is
    this recorder's graph. It is also the one place where the annotation's meaning is written:
    :func:`annotate` replays a trace into one (:func:`replay`), so a graph is the same whichever
    way it was made.

    What each kind writes on its node: an entered node gets ``status="visited"``, its ``order``
    (the count of nodes reached: entered, or a leaf, an estimate or a table hit) and its window
    ``alpha``, ``beta`` when it has one; its exit writes its ``value``, its window at the
    end and its ``bound``, and keeps its ``best`` child. A leaf, an estimate and a table hit are
    all of it in one step (a leaf's and an estimate's bound ``"exact"``, a hit's the entry's
    ``flag``). A prune keeps the children it skips. An update writes nothing: the exit carries the
    node's last value. A node entered again (it has two parents) is written again, its value after
    its new window. :meth:`finish` marks the skipped children not reached (on a tree, the nodes
    below them too) ``status="pruned"`` and the best line's edges ``best=True``.

    ``G`` is the tree searched, ``status="unvisited"`` on every node and (for :meth:`finish`)
    ``best=False`` on every edge, as a snapshot's ``graph(unvisited=True)`` has them; it is written in
    place (``graph``). ``best`` holds each exited node's best child, ``pruned`` the skipped children.

    Examples
    --------
    >>> import math
    >>> G = nx.DiGraph(root="A"); G.add_edge("A", "B", best=False)
    >>> G.nodes["A"]["status"] = G.nodes["B"]["status"] = "unvisited"
    >>> rec = GraphRecorder(G)
    >>> rec.enter("A", None, 0, "max", -math.inf, math.inf, "A")
    >>> rec.leaf("B", "A", 1, 3, "B")
    >>> rec.exit("A", None, 0, "max", 3, 3, math.inf, "A", "exact", "B")
    >>> H = rec.finish("alphabeta")
    >>> H.nodes["A"], H.edges["A", "B"]["best"]
    ({'status': 'visited', 'order': 1, 'alpha': 3, 'beta': inf, 'value': 3, 'bound': 'exact'}, True)
    """

    __slots__ = ("graph", "best", "pruned", "unfinished", "enter", "leaf", "estimate", "hit", "update",
                 "prune", "exit")

    def __init__(self, G):
        self.graph = G
        nodes = G._node
        self.best = best = {}
        self.pruned = pruned = set()
        stack = []  # the nodes above the one being searched, with their attributes
        push, pop = stack.append, stack.pop
        here = here_attrs = None  # the node being searched (a search works below it until it exits)
        reached = 0

        def enter(node, parent, ply, player, alpha, beta, state):
            nonlocal here, here_attrs, reached
            push((here, here_attrs))
            here = node
            here_attrs = attrs = nodes[node]
            reached += 1
            attrs["status"] = "visited"
            attrs["order"] = reached
            if "value" in attrs:  # entered again (a node with two parents): its value comes after its window
                del attrs["value"]
            if alpha is not None:
                attrs["alpha"] = alpha
                attrs["beta"] = beta

        def leaf(node, parent, ply, value, state):
            nonlocal reached
            attrs = nodes[node]
            reached += 1
            attrs["status"] = "visited"
            attrs["order"] = reached
            attrs["value"] = value
            attrs["bound"] = "exact"

        def estimate(node, parent, ply, player, value, state):
            leaf(node, parent, ply, value, state)

        def hit(node, parent, ply, player, value, alpha, beta, state, flag):
            nonlocal reached
            attrs = nodes[node]
            reached += 1
            attrs["status"] = "visited"
            attrs["order"] = reached
            attrs["value"] = value
            if alpha is not None:
                attrs["alpha"] = alpha
                attrs["beta"] = beta
            attrs["bound"] = flag

        def update(node, parent, ply, player, value, alpha, beta, state, child, child_value, improved, cut):
            pass  # the exit carries the node's last value

        def prune(node, parent, ply, player, value, alpha, beta, state, children, moves, states, strict):
            pruned.update(children)

        def exit(node, parent, ply, player, value, alpha, beta, state, bound, best_child):
            nonlocal here, here_attrs
            attrs = here_attrs if node is here else nodes[node]
            attrs["value"] = value
            if alpha is not None:
                attrs["alpha"] = alpha
                attrs["beta"] = beta
            attrs["bound"] = bound
            if best_child is not None:
                best[node] = best_child
            if node is here:
                here, here_attrs = pop()

        def unfinished():
            """The nodes entered and not exited (a trace that stops inside a search), from the one
            being searched up to the root: ``(node, its attributes)`` each."""
            out, n, attrs, i = [], here, here_attrs, len(stack)
            while n is not None:
                out.append((n, attrs))
                i -= 1
                n, attrs = stack[i]
            return out

        self.enter, self.leaf, self.estimate, self.hit, self.update = enter, leaf, estimate, hit, update
        self.prune, self.exit, self.unfinished = prune, exit, unfinished

    def finish(self, algorithm: str = "", stats=None) -> nx.DiGraph:
        """The annotated graph: the skipped children ``status="pruned"`` (and the nodes below them),
        the best line's edges ``best=True``, ``algorithm`` and ``stats``' counts on the graph."""
        _finish_marks(self.graph, self.best, self.pruned, True, algorithm, stats)
        return self.graph


def replay(trace, rec, updates=True):
    """Make again on ``rec`` the calls that recorded ``trace``, in order: ``replay(trace, r)`` leaves
    on ``r`` what the search left on the recorder it called.

    ``rec`` has the :class:`Recorder`'s functions: a new :class:`Recorder` makes the same events
    again; a :class:`GraphRecorder` writes the annotated graph (:func:`annotate`, which leaves out
    the updates, ``updates=False``: they write nothing on a graph).

    >>> import gametrees as gt
    >>> r = gt.alphabeta(gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    >>> again = Recorder(r.trace[0].names)
    >>> replay(r.trace, again)
    >>> again.log == r.trace
    True
    """
    enter, leaf, update, prune, exit = rec.enter, rec.leaf, rec.update, rec.prune, rec.exit
    # Each event holds its call's arguments in order, after its kind, around the names; an enter has no
    # value, a leaf no player and no window, MCTS's events no window (Recorder).
    for e in trace:
        kind = e[0]
        if kind == "update":
            if updates:
                update(*e[1:9], *e[10:])
        elif kind == "leaf":
            leaf(e[1], e[2], e[3], e[5], e[8])
        elif kind == "exit":
            exit(*e[1:9], *e[10:])
        elif kind == "enter":
            enter(*e[1:5], *e[6:9])
        elif kind == "prune":
            prune(*e[1:9], *e[10:])
        elif kind == "estimate":
            rec.estimate(*e[1:6], e[8])
        elif kind == "hit":
            rec.hit(*e[1:9], *e[10:])
        else:  # MCTS's: an expand has no value
            getattr(rec, kind)(*e[1:5 if kind == "expand" else 6], e[8], *e[10:])


def _window(e: Event) -> str:
    if e.alpha is None:
        return ""
    return f" with window α = {_num(e.alpha)}, β = {_num(e.beta)}"


def _root(e: Event) -> str:
    """"the root A" on a textbook tree, "the root" (the start position) in a game, never "the root root"."""
    label = e.label
    return "the root" if label in ("root", "") or _is_position(label) else f"the root {label}"


def _enter_text(e: Event) -> str:
    role = _ROLE.get(e.player, "")
    if e.parent is None:
        return f"Start at {_root(e)}, a {role} node{_window(e)}."
    if _is_position(e.label):
        return f"Go down to {_the(e.label)}, a {role} node{_window(e)}."
    return f"Go down from {e.names(e.parent)} to {e.label}, a {role} node{_window(e)}."


def _arrive(e: Event) -> str:
    if e.parent is None:
        return f"At {_root(e)}"
    if _is_position(e.label):
        return f"Go down to {_the(e.label)}"
    return f"Go down from {e.names(e.parent)} to {e.label}"


def _leaf_text(e: Event) -> str:
    return f"{_arrive(e)}: a terminal node with utility {_num(e.value)}."


def _estimate_text(e: Event) -> str:
    return f"{_arrive(e)}: the depth limit, so the evaluation function estimates {_num(e.value)}."


def _hit_text(e: Event) -> str:
    flag = e.flag
    what = {"exact": "the exact value", "lower": "a lower bound", "upper": "an upper bound"}[flag]
    return (
        f"{_arrive(e)}: this position was searched before: the transposition table gives "
        f"{what} {_num(e.value)}, so it is not searched again."
    )


def _update_text(e: Event) -> str:
    child, child_value, improved, cut = e.child, e.child_value, e.improved, e.cut
    child_name = e.names(child)
    if _is_position(e.label):
        back = f"The move {_move_of(child_name, e.label)} is worth {_num(child_value)} at {_the(e.label)}"
    else:
        back = f"{child_name} returns {_num(child_value)} to {e.label}"
    if e.player == "chance":
        return f"{back}: the expected value so far is {_num(e.value)}."
    role = _ROLE[e.player]
    if not improved:
        return f"{back}: no better for {role} than {_num(e.value)}, so nothing changes."
    if e.alpha is None or cut:
        return f"{back}: {role}'s best so far is now {_num(e.value)}."
    if e.player == "max":
        if e.alpha != e.value:   # the value stays inside an α set higher up: α is not this value
            return (f"{back}: MAX's best so far is {_num(e.value)}; α stays {_num(e.alpha)}: MAX can already "
                    f"get {_num(e.alpha)} higher up.")
        return f"{back}: MAX's best so far is {_num(e.value)}, α = {_num(e.alpha)}."
    if e.beta != e.value:
        return (f"{back}: MIN's best so far is {_num(e.value)}; β stays {_num(e.beta)}: MIN can already hold "
                f"MAX to {_num(e.beta)} higher up.")
    return f"{back}: MIN's best so far is {_num(e.value)}, β = {_num(e.beta)}."


def _prune_text(e: Event) -> str:
    labels, strict = [e.names(c) for c in e.children], e.strict
    here = e.label
    if _is_position(here):
        moves = [_move_of(c, here) for c in labels]
        what = f"prune the move{'s' if len(moves) > 1 else ''} {_names(moves)}"
        at, it = _the(here), "it"
    else:
        what, at, it = f"prune {_names(labels)}", here, here
    v = _num(e.value)
    its = "its" if it == "it" else f"{it}'s"
    if e.player == "chance":
        return _chance_prune_text(e, at, it, what)
    if e.player == "min":
        op = cutoff_sign("min", strict)
        if e.value == e.alpha:   # a tie (the textbook rule): as good as MAX's other choice, never better
            return (f"{v} {op} α = {_num(e.alpha)} at {at}: MIN can hold MAX to {v} here, so {it} cannot "
                    f"be better for MAX than the {_num(e.alpha)} MAX already has elsewhere, and "
                    f"{its} other children cannot matter; {what}.")
        return (
            f"{v} {op} α = {_num(e.alpha)} at {at}: MIN can hold MAX to {v} here, but MAX already "
            f"has {_num(e.alpha)} elsewhere, so play never reaches {it}; {what}."
        )
    op = cutoff_sign("max", strict)
    if e.value == e.beta:   # a tie: as good for MIN as its other choice, never better
        return (f"{v} {op} β = {_num(e.beta)} at {at}: MAX can get {v} here, so {it} cannot be better "
                f"for MIN than the {_num(e.beta)} MIN already holds MAX to elsewhere, and {its} other "
                f"children cannot matter; {what}.")
    return (
        f"{v} {op} β = {_num(e.beta)} at {at}: MAX can get {v} here, but MIN already "
        f"holds MAX to {_num(e.beta)} elsewhere, so play never reaches {it}; {what}."
    )


def _chance_prune_text(e: Event, at, it, what) -> str:
    """A cutoff below a chance node (``expectimax(bounds=...)``): the node's bound has crossed its window."""
    v = _num(e.value)
    if fails_low(e.value, e.alpha):   # the search's test first, as it took it (the textbook tie rule)
        return (f"{it} can be worth at most {v} (every outcome not yet seen at the largest value a leaf can "
                f"have), and {v} ≤ α = {_num(e.alpha)} at {at}: MAX already has {_num(e.alpha)} elsewhere, "
                f"so {it} cannot matter; {what}.")
    return (f"{it} is worth at least {v} (every outcome not yet seen at the smallest value a leaf can have), "
            f"and {v} ≥ β = {_num(e.beta)} at {at}: MIN already holds MAX to {_num(e.beta)} elsewhere, so "
            f"{it} cannot matter; {what}.")


def _last_child_cut(e: Event) -> str:
    """The clause for a node whose last child crossed its bound: the cutoff test holds, but no child is
    left to skip, so nothing is pruned (a prune step says what a cutoff skips when children are left).

    Read at the node's exit, the only step after its last update: the value is exact (nothing was pruned
    here) and the cutoff test (:func:`gametrees.rules.cutoff`) holds on the window it leaves with. The tie
    rule is not in the record: a strict search that meets its bound without crossing it moves the window's
    other end onto it (α = β), so α = β says the rule is strict; the textbook rule never closes the window.
    """
    if e.bound != "exact" or e.alpha is None or e.player not in ("max", "min"):
        return ""
    strict = e.alpha == e.beta
    if not cutoff(e.player, e.value, e.alpha, e.beta, strict):
        return ""
    here = e.label
    # A position's name is long, and the next sentence says it: "here" rather than saying it twice.
    at, it, child = ("here", "it", "move") if _is_position(here) else (f"at {here}", here, "child")
    bound = f"β = {_num(e.beta)}" if e.player == "max" else f"α = {_num(e.alpha)}"
    return (f"{_num(e.value)} {cutoff_sign(e.player, strict)} {bound} {at}, but {it} has no {child} "
            f"left to skip: nothing is pruned. ")


def _exit_text(e: Event) -> str:
    bound = e.bound
    name = _root(e) if e.parent is None else _the(e.label)
    name = name[0].upper() + name[1:]
    if bound == "exact" and e.parent is not None:
        return f"{_last_child_cut(e)}{name} is done with value {_num(e.value)}."
    if bound == "upper":
        return f"{name} is done with value ≤ {_num(e.value)}: only an upper bound, because of pruning."
    if bound == "lower":
        return f"{name} is done with value ≥ {_num(e.value)}: only a lower bound, because of pruning."
    if e.parent is None:
        return f"The search is over: {_root(e)} has value {_num(e.value)}."
    return f"{name} is done with value {_num(e.value)}."


# ----------------------------------------------------------------------------
# Monte Carlo tree search: the four steps of a playout (gametrees.search.montecarlo)
# ----------------------------------------------------------------------------


def _f2(x) -> str:
    """A mean or a UCB1 score in a sentence: two decimals, the true minus sign."""
    return f"{x:.2f}".replace("-", "\u2212")


def _playout_no(e: Event) -> str:
    return f"Playout {e.playout} · "


def _name_in(e: Event, node) -> str:
    """A node's name in a sentence: "B", "the position after X c2"."""
    return _the(e.names(node))


def _child_name(e: Event, child) -> str:
    """A child as a choice at ``e.node``: "B" on a tree, the move "X c2" in a game."""
    name = str(e.names(child))
    if _is_position(name):
        return _move_of(name, e.label)
    return name


def playout_nodes(e: Event) -> tuple:
    """The nodes a ``"playout"`` event passes through below its node (in a game: move paths)."""
    if e.walk is not None:
        return e.walk
    out, n = [], e.node
    for m in e.moves:
        n = n + (m,)
        out.append(n)
    return tuple(out)


def _visits(n) -> str:
    return f"{n} visit{'s' if n != 1 else ''}"


def selection_rows(e: Event) -> tuple:
    """The children a ``"select"`` event chose among: ``(child, visits, mean for MAX, score)`` each.

    The score is the one the search recorded: UCB1 as it computed it
    (:func:`gametrees.rules.ucb1_select`: the mean for the player choosing, minus
    the mean at a MIN node, plus ``c * sqrt(ln N / n)``, N the node's visits, n
    the child's); at a chance node the outcome's probability, by which it drew.
    """
    return tuple((k, n, t / n if n else None, score)
                 for k, n, t, score in zip(e.children, e.visits, e.totals, e.scores))


def _select_text(e: Event) -> str:
    chosen, c = e.chosen, e.c
    rows = selection_rows(e)
    here = _name_in(e, e.node)
    if e.player == "chance":
        prob = next(p for child, _, _, p in rows if child == chosen)
        return (f"{_playout_no(e)}selection at {here}, a chance node: the outcome "
                f"{_child_name(e, chosen)} is drawn (probability {fmt(prob)}); it is already in the tree, "
                "so go down to it.")
    n_parent = e.value
    sign = "" if e.player == "max" else "; MIN's mean is minus the mean for MAX"
    parts = []
    for child, n, mean, score in sorted(rows, key=lambda r: r[0] != chosen):
        own = mean if e.player == "max" else -mean
        part = (f"{_child_name(e, child)} scores {_f2(own)} + {c:.2f}·√(ln {n_parent} / {n}) = {_f2(score)}")
        if child == chosen:
            part += ", the highest"
        parts.append(part)
    return (f"{_playout_no(e)}selection at {here} ({_ROLE[e.player]}, {_visits(n_parent)}{sign}): "
            + "; ".join(parts) + f". Go down to {_child_name(e, chosen)}.")


def _expand_text(e: Event) -> str:
    added = e.added
    here = _name_in(e, e.node)
    if not added:
        return (f"{_playout_no(e)}expansion: {here} is a finished game, already in the tree, "
                "so nothing is added; the playout starts and ends there.")
    parent = _name_in(e, e.parent)
    if e.parent_player == "chance":
        how = f"drawn at the chance node {parent}"
    else:
        how = f"the first child of {parent} not yet in the tree"
    return f"{_playout_no(e)}expansion: {here} joins the tree ({how})."


def _playout_text(e: Event) -> str:
    walk = playout_nodes(e)
    start = _name_in(e, e.node)
    result = _num(e.value)
    if not walk:
        return (f"{_playout_no(e)}playout: {start} is the end of the game, so the result is its utility "
                f"{result} (for MAX).")
    last = str(e.names(walk[-1]))
    if _is_position(last):
        said = [_move_of(str(e.names(w)), str(e.names(p))) for p, w in zip((e.node,) + walk, walk)]
        shown = ", ".join(said[:8]) + (f", … ({len(said)} moves)" if len(said) > 8 else "")
        return (f"{_playout_no(e)}playout from {start}: random moves {shown} to the end of the game; "
                f"the result is {result} for MAX.")
    steps = " → ".join([str(e.label)] + [str(e.names(w)) for w in walk])
    return (f"{_playout_no(e)}playout from {start}: random moves down to the leaf {last} ({steps}); "
            f"the result is its utility {result}.")


def _backup_text(e: Event) -> str:
    rows = e.rows
    parts = [f"{_name_in(e, n)} now has {_visits(v)}, mean {_num(round(m, 4) if isinstance(m, float) else m)}"
             for n, v, m in rows]
    return f"{_playout_no(e)}backup: " + "; ".join(parts) + "."


_TEXT = {
    "enter": _enter_text,
    "leaf": _leaf_text,
    "estimate": _estimate_text,
    "hit": _hit_text,
    "update": _update_text,
    "prune": _prune_text,
    "exit": _exit_text,
    "select": _select_text,
    "expand": _expand_text,
    "playout": _playout_text,
    "backup": _backup_text,
}


@dataclass(frozen=True)
class Frame:
    """The state of a search after event ``k`` (see :func:`frame`).

    Attributes
    ----------
    k : int
        Index of the last event applied.
    event : Event
        That event; ``text`` is its sentence.
    current : hashable
        The node the event happened at.
    path : tuple
        Nodes from the root down to the node being searched (empty at the end).
    order : dict
        node -> 1-based visit order, for every node entered so far.
    values : dict
        node -> value: final for done nodes, the running value for nodes on
        the path that have one.
    done : frozenset
        Nodes whose search is finished.
    alpha, beta : dict
        node -> the node's window (alpha-beta only; empty otherwise).
    bounds : dict
        done node -> ``"exact"``, ``"upper"`` or ``"lower"``.
    best : dict
        node -> the child that gave it its value so far.
    pruned : frozenset
        Children cut off so far (the roots of pruned subtrees).
    players : dict
        node -> player, for inner nodes entered so far.
    visits, means : dict
        Monte Carlo tree search only: node -> visits and mean result (for
        MAX) of every node in the grown tree after the step (``order``
        holds when each joined the tree, ``values`` the means too).
    scores : dict
        At a selection step: child -> UCB1 score (at a chance node, the
        probability) of each child of the current node.
    playout : tuple
        At a playout step: the nodes from the new node down to the end.
    updated : tuple
        At a backup step: the nodes whose visits and mean it changed (from
        the bottom up).
    playouts : int
        Playouts whose backup is done.
    """

    k: int
    event: Event
    current: Hashable
    path: tuple
    order: dict
    values: dict
    done: frozenset
    alpha: dict
    beta: dict
    bounds: dict
    best: dict
    pruned: frozenset
    players: dict
    visits: dict = field(default_factory=dict)
    means: dict = field(default_factory=dict)
    scores: dict = field(default_factory=dict)
    playout: tuple = ()
    updated: tuple = ()
    playouts: int = 0

    @property
    def text(self) -> str:
        """The sentence of the event that led to this frame."""
        return self.event.text

    @property
    def window(self):
        """``(alpha, beta)`` of the current node, or ``None`` without alpha-beta."""
        if self.current in self.alpha:
            return self.alpha[self.current], self.beta[self.current]
        return None


_MCTS_KINDS = frozenset(("select", "expand", "playout", "backup"))


class _Fold:
    """Applies events one by one; snapshots are Frames."""

    def __init__(self):
        self.k = -1
        self.event = None
        self.path = []
        self.order = {}
        self.values = {}
        self.done = set()
        self.alpha = {}
        self.beta = {}
        self.bounds = {}
        self.best = {}
        self.pruned = set()
        self.players = {}
        self.visits = {}
        self.scores = {}
        self.playout = ()
        self.updated = ()
        self.playouts = 0

    def _grow(self, n, player):
        if n not in self.order:
            self.order[n] = len(self.order) + 1
            self.visits[n] = 0
            if player is not None:
                self.players[n] = player

    def _apply_mcts(self, e: Event) -> None:
        kind, n = e.kind, e.node
        if not self.order:  # the root joins the tree before the first playout
            if e.ply == 0:
                self._grow(n, e.player)
            else:
                self._grow(e.parent, e.parent_player if kind == "expand" else None)
        self.scores = {}
        self.playout = ()
        self.updated = ()
        if kind == "select":
            self.path = self.path[: e.ply] + [n, e.chosen]
            self.scores = e  # the scores of the last selection only, computed by snapshot()
        elif kind == "expand":
            if e.ply == 1:
                self.path = [e.parent]
            self.path = self.path[: e.ply] + [n]
            if e.added:
                self._grow(n, e.player)
        elif kind == "playout":
            self.playout = (n,) + playout_nodes(e)
        else:  # backup
            for node, visits, mean in e.rows:
                self.visits[node] = visits
                self.values[node] = mean
            self.updated = tuple(row[0] for row in e.rows)
            self.playouts = e.playout
        self.done = set(self.order)

    def apply(self, e: Event) -> None:
        self.k += 1
        self.event = e
        kind, n = e.kind, e.node
        if kind in _MCTS_KINDS:
            self._apply_mcts(e)
            return
        if kind == "enter":
            self.path.append(n)
            self.order[n] = len(self.order) + 1
            if e.player is not None:
                self.players[n] = e.player
            self.values.pop(n, None)
            self.done.discard(n)
        elif kind in ("leaf", "estimate", "hit"):
            self.order[n] = len(self.order) + 1
            if e.player is not None:
                self.players[n] = e.player
            self.values[n] = e.value
            self.bounds[n] = e.flag if kind == "hit" else "exact"
            self.done.add(n)
        elif kind == "update":
            self.values[n] = e.value
            if e.improved:
                self.best[n] = e.child
        elif kind == "prune":
            self.pruned.update(e.children)
        elif kind == "exit":
            self.values[n] = e.value
            self.bounds[n] = e.bound
            self.done.add(n)
            if self.path and self.path[-1] == n:
                self.path.pop()
        if e.alpha is not None:
            self.alpha[n] = e.alpha
            self.beta[n] = e.beta

    def snapshot(self) -> Frame:
        return Frame(
            k=self.k,
            event=self.event,
            current=self.event.node,
            path=tuple(self.path),
            order=dict(self.order),
            values=dict(self.values),
            done=frozenset(self.done),
            alpha=dict(self.alpha),
            beta=dict(self.beta),
            bounds=dict(self.bounds),
            best=dict(self.best),
            pruned=frozenset(self.pruned),
            players=dict(self.players),
            visits=dict(self.visits),
            means=dict(self.values) if self.visits else {},
            scores=({row[0]: row[3] for row in selection_rows(self.scores)} if isinstance(self.scores, Event)
                    else dict(self.scores)),
            playout=self.playout,
            updated=self.updated,
            playouts=self.playouts,
        )


def _check_trace(trace, upto=None) -> None:
    """Check that ``trace`` is a non-empty list of Events (its first ``upto + 1`` events)."""
    if trace is None:
        raise ValueError("this result has no trace: search again with trace=True")
    if isinstance(trace, Event) or not isinstance(trace, (list, tuple)):
        raise TypeError(f"expected a trace (a list of Events, result.trace), got {type(trace).__name__}")
    if not trace:
        raise ValueError("the trace is empty")
    events = trace if upto is None else trace[: upto + 1]
    if all(map(isinstance, events, repeat(Event))):  # the usual case, checked at C speed
        return
    for i, e in enumerate(events):
        if not isinstance(e, Event):
            raise TypeError(
                f"expected a trace (a list of Events, result.trace; slices of it are fine), but "
                f"event {i} is {reprlib.repr(e)} ({type(e).__name__}), not an Event"
            )


def frame(trace, k: int) -> Frame:
    """The state of the search after event ``k`` of ``trace``.

    ``k`` counts from 0 (after the first event); negative ``k`` counts from
    the end, so ``frame(trace, -1)`` is the finished search.

    Examples
    --------
    >>> import gametrees as gt
    >>> r = gt.alphabeta(gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    >>> f = frame(r.trace, -1)
    >>> f.values[()], sorted(f.pruned)
    (3, [(1, 1), (1, 2)])
    """
    _check_trace(trace, upto=0)
    if isinstance(k, bool) or not isinstance(k, int):
        raise TypeError(f"k must be an int event index, got {k!r}")
    n = len(trace)
    if not -n <= k < n:
        raise ValueError(f"k = {k} is out of range: the trace has {n} events (0..{n - 1})")
    k %= n
    _check_trace(trace, upto=k)
    fold = _Fold()
    for e in trace[: k + 1]:
        fold.apply(e)
    return fold.snapshot()


def frames(trace) -> list:
    """Every frame of ``trace``, computed in one pass (``frames(t)[k] == frame(t, k)``)."""
    _check_trace(trace)
    fold = _Fold()
    out = []
    for e in trace:
        fold.apply(e)
        out.append(fold.snapshot())
    return out


def _copy_tree(G) -> nx.DiGraph:
    """``G.copy()``, several times faster: graph, node and edge attributes copied one level deep.

    >>> G = nx.DiGraph(root="A"); G.add_edge("A", "B", move="left"); G.nodes["B"]["utility"] = 3
    >>> H = _copy_tree(G); G.nodes["B"]["utility"] = 100; G.remove_node("B")
    >>> H.nodes["B"]["utility"], H.edges["A", "B"]["move"], H.graph["root"]
    (3, 'left', 'A')
    """
    H = G.__class__()
    H.graph.update(G.graph)
    node, succ, pred = H._node, H._succ, H._pred
    for n, attrs in G._node.items():
        node[n] = attrs.copy()
        pred[n] = {}
    for u, nbrs in G._succ.items():
        out = succ[u] = {}
        for v, attrs in nbrs.items():
            out[v] = pred[v][u] = attrs.copy()
    return H


def annotate(trace, base=None, algorithm: str = "", stats=None, in_place=False, started=False) -> nx.DiGraph:
    """The searched tree with the schema's annotations, from a finished trace.

    Parameters
    ----------
    trace : list of Event
    base : networkx.DiGraph, optional
        The tree that was searched (its copy is annotated; nodes never
        reached get ``status="unvisited"``). Without it (a game was searched),
        the explored tree is built from the trace, with ``state`` on every
        node and the moves a cutoff skipped as ``status="pruned"`` stubs.
    in_place : bool
        Annotate ``base`` itself rather than a copy (for a graph the caller
        owns, such as one a search built from its snapshot of the tree).
    started : bool
        ``base`` (annotated in place) has ``status="unvisited"`` on every node and ``best=False``
        on every edge already (a snapshot's ``graph(unvisited=True)``).
    """
    _check_trace(trace)
    if base is not None:
        G = base if in_place else _copy_tree(base)
        if not (started and in_place):
            for attrs in G._node.values():
                attrs["status"] = "unvisited"
    else:
        G = _explored_tree(trace)
    if trace[0].kind in _MCTS_KINDS:  # Monte Carlo tree search: the replay's fold
        fold = _Fold()
        for e in trace:
            fold.apply(e)
        _write_fold(G, fold)
        best, pruned = fold.best, fold.pruned
    else:  # the search's calls made again, on the recorder that writes the graph
        rec = GraphRecorder(G)
        replay(trace, rec, updates=False)
        best, pruned = rec.best, rec.pruned
        unfinished = rec.unfinished()
        if unfinished:  # a trace that stops inside a search: as the replay's last frame has them
            fold = _Fold()
            for e in trace:
                fold.apply(e)
            for n, attrs in unfinished:
                _write_folded_value(attrs, fold, n)
                if n in fold.best:
                    best[n] = fold.best[n]
    if not (started and in_place and base is not None):
        for nbrs in G._succ.values():
            for attrs in nbrs.values():
                attrs["best"] = False
    _finish_marks(G, best, pruned, base is not None, algorithm, stats)
    return G


def _finish_marks(G, best, pruned, below, algorithm, stats):
    """What an annotation writes once the nodes are written: the pruned children not visited
    (``below``: and the nodes under them) ``status="pruned"``, the best line's edges ``best=True``
    (every edge has ``best`` already), ``algorithm`` and ``stats``' counts on the graph."""
    _mark_pruned(G, pruned, below)
    succ = G._succ
    n = G.graph["root"]
    seen = {n}
    while n in best and best[n] in G and best[n] not in seen:
        child = best[n]
        succ[n][child]["best"] = True
        seen.add(child)
        n = child
    if algorithm:
        G.graph["algorithm"] = algorithm
    for key in ("nodes_visited", "leaves_evaluated"):
        if stats and key in stats:
            G.graph[key] = stats[key]


def _write_folded_value(attrs, fold, n):
    """Write node ``n``'s value and window as the replay's last frame (``fold``) has them."""
    if n in fold.values:
        attrs["value"] = fold.values[n]
    if n in fold.alpha:
        attrs["alpha"] = fold.alpha[n]
        attrs["beta"] = fold.beta[n]


def _write_fold(G, fold):
    """Write a replay's last frame (``fold``) onto the nodes of ``G``."""
    nodes = G._node
    for n, order in fold.order.items():
        attrs = nodes[n]
        attrs["status"] = "visited"
        attrs["order"] = order
        _write_folded_value(attrs, fold, n)
        if n in fold.bounds:
            attrs["bound"] = fold.bounds[n]


def _explored_tree(trace) -> nx.DiGraph:
    """The tree a game search explored, built from its trace (the moves a cutoff skipped as stubs)."""
    G = nx.DiGraph()
    for e in trace:
        if e.kind in ("enter", "leaf", "estimate", "hit"):
            G.add_node(e.node, state=e.state, label=e.label)
            if e.player is not None:
                G.nodes[e.node]["player"] = e.player
            if e.parent is not None:
                G.add_edge(e.parent, e.node, move=e.node[-1])
            if e.kind in ("leaf", "estimate"):
                G.nodes[e.node]["utility"] = e.value
        elif e.kind == "prune" and e.node in G:
            for child, move, state in zip(e.children, e.moves, e.states):
                G.add_node(child, state=state, label=e.names(child))
                G.add_edge(e.node, child, move=move)
    G.graph["root"] = trace[0].node
    return G


def _mark_pruned(G, pruned, below):
    """``status="pruned"`` on the pruned children not visited (and, ``below``, on the nodes under them)."""
    nodes, succ = G._node, G._succ
    todo = [n for n in pruned if n in nodes]
    for n in todo:  # (the list grows by the children of each node as it is walked)
        attrs = nodes[n]
        if attrs.get("status") != "visited":
            attrs["status"] = "pruned"
        if below:
            todo.extend(succ[n])
