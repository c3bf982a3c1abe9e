"""The explore widget: type a tree, choose a search, and watch it at once.

:func:`explore` returns an :class:`Explore` widget for a lecture. The
instructor types or pastes a tree: a nested list such as
``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]`` (with ``{"chance": [...], "p": [...]}``
for chance nodes, as :func:`gametrees.tree_from_nested` reads it), or a JSON
object of named nodes as :func:`gametrees.tree_from_dict` reads it. Then they
choose

* the search: minimax, alpha-beta (textbook rule ≤/≥ or strict rule </>) or
  expectimax;
* who moves at the root: MAX or MIN (MIN swaps every MAX and MIN node);
* the order of the children: natural (as typed), best first or worst first
  for the player to move (by each child's backed-up value).

Every change shows the :class:`~gametrees.widgets.Replay` of that search at
once. A mistake in the typed tree is shown as one line (the replay of the
last tree that worked stays); a "copy tree" field gives the tree as drawn
back as text, to paste into a notebook or a slide.

This module may import ipywidgets, networkx, :mod:`gametrees.games`,
:mod:`gametrees.trees`, :mod:`gametrees.search` and
:mod:`gametrees.widgets.replay_widget` and :mod:`gametrees.widgets.output`.
"""

from __future__ import annotations

import ast
import html
import json
import numbers
import re

import ipywidgets as widgets
import networkx as nx

from ..games import CHANCE, MAX, MIN
from ..rules import strict_rule
from ..search import alphabeta, expectimax, minimax
from ..trees import read_json, tree_from_dict, tree_from_nested, validate_tree
from .output import bundle_with_png, page_note
from .replay_widget import Replay

__all__ = ["Explore", "explore"]

#: The tree shown first: the textbook's (Russell and Norvig's) three MIN nodes.
EXAMPLE = "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]"
#: Trees bigger than this are refused: a lecture figure of more nodes is unreadable.
MAX_NODES = 200

_ALGORITHMS = (("minimax", "minimax"), ("alpha-beta", "alphabeta"), ("expectimax", "expectimax"))
_ALGORITHM_NAMES = {value: label for label, value in _ALGORITHMS}
_RULES = (("textbook ≤ / ≥", "textbook"), ("strict < / >", "strict"))
_ROOTS = (("MAX at the root", MAX), ("MIN at the root", MIN))
_ORDERS = (("natural", "natural"), ("best first", "best"), ("worst first", "worst"))


def _choice(value, name, options):
    allowed = [v for _, v in options]
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
    return value


# ----------------------------------------------------------------------------
# Text <-> tree
# ----------------------------------------------------------------------------


def parse_tree(text: str) -> nx.DiGraph:
    """The tree written in ``text`` (a nested list, or JSON); ValueError/TypeError saying what is wrong.

    >>> G = parse_tree("[[3, 12, 8], [2, 4, 6]]")
    >>> G.number_of_nodes(), G.nodes[(1, 2)]["utility"]
    (9, 6)
    >>> parse_tree("[[3, 12, 8], [2, 4, 6]")
    Traceback (most recent call last):
    ...
    ValueError: this is not a tree yet: "[" at column 1 is never closed
    """
    if not isinstance(text, str):
        raise TypeError(f"the tree must be text (a nested list or JSON), got {type(text).__name__}")
    text = text.strip()
    if not text:
        raise ValueError(f"type a tree, e.g. {EXAMPLE}")
    try:
        spec = read_json(text)
    except RecursionError:
        raise ValueError("the tree is nested too deeply to read") from None
    except json.JSONDecodeError as json_error:
        try:  # Python's own spelling: 'single quotes', trailing commas, comments are not JSON
            spec = ast.literal_eval(text)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            raise ValueError(f"this is not a tree yet: {_where(text, json_error)}") from None
    named = isinstance(spec, dict) and not set(spec) & {"chance", "max", "min"}
    # Counted before the tree is built: a pasted list of 300,000 numbers is refused at once.
    size = len(spec) if named else _nested_size(spec)
    if size > MAX_NODES:
        raise ValueError(f"the tree has {size} nodes; explore() shows trees of up to "
                         f"{MAX_NODES} (use gt.replay(gt.alphabeta(tree)) for bigger ones)")
    try:
        G = tree_from_dict(spec) if named else tree_from_nested(spec)
    except RecursionError:
        raise ValueError("the tree is nested too deeply to read") from None
    return G


def _nested_size(spec):
    """The nodes of a nested-list tree (as :func:`~gametrees.trees.tree_from_nested` reads it), unbuilt.

    >>> _nested_size([[3, 12, 8], {"chance": [1, 2], "p": [0.5, 0.5]}])
    8
    """
    count, todo = 0, [spec]
    while todo:
        sub = todo.pop()
        count += 1
        if isinstance(sub, dict):
            sub = next((sub[k] for k in (CHANCE, MAX, MIN) if k in sub), None)
        if isinstance(sub, (list, tuple)):
            todo.extend(sub)
    return count


def _where(text, error):
    """Where the typed text stops being a nested list, in words."""
    opened = []
    for i, ch in enumerate(text):
        if ch in "[{":
            opened.append((ch, i))
        elif ch in "]}" and opened:
            opened.pop()
    if opened and error.msg.startswith(("Expecting ',' delimiter", "Expecting value")) and \
            error.pos >= len(text):
        ch, i = opened[-1]
        return f'"{ch}" at column {i + 1} is never closed'
    return (f"{error.msg.lower()} at column {error.colno}"
            + (f" of line {error.lineno}" if "\n" in text else ""))


def _backed_up(G):
    """``{node: value}``: minimax values, with chance nodes averaged (expectimax)."""
    return dict(expectimax(G, trace=False, graph=True).graph.nodes(data="value"))


def _with_root(G, root_player):
    """``G``, or a copy with MAX and MIN swapped so that ``root_player`` moves at the root."""
    if G.nodes[G.graph["root"]].get("player") in (MAX, MIN) \
            and G.nodes[G.graph["root"]]["player"] != root_player:
        H = G.copy()
        for _, data in H.nodes(data=True):
            if data.get("player") in (MAX, MIN):
                data["player"] = MIN if data["player"] == MAX else MAX
        return H
    return G


def _ordered(G, order):
    """``G`` with every node's children best first (or worst first) for the player to move."""
    if order == "natural":
        return G
    values = _backed_up(G)
    H = nx.DiGraph(**G.graph)
    H.add_nodes_from(G.nodes(data=True))
    for node in G.nodes:
        kids = list(G.successors(node))
        role = G.nodes[node].get("player")
        if role in (MAX, MIN):
            best_first = sorted(kids, key=lambda c: values[c], reverse=role == MAX)
            kids = best_first if order == "best" else best_first[::-1]
        H.add_edges_from((node, c, G.edges[node, c]) for c in kids)
    return H


def tree_text(G) -> str:
    """The tree as the nested-list text :func:`parse_tree` reads back (players alternate from the root).

    >>> tree_text(tree_from_nested([[3, {"chance": [1, 2], "p": [0.25, 0.75]}], 5]))
    '[[3, {"chance": [1, 2], "p": [0.25, 0.75]}], 5]'
    """
    def node(n, implied, above):
        data = G.nodes[n]
        kids = list(G.successors(n))
        if not kids:
            u = data["utility"]
            return int(u) if isinstance(u, numbers.Integral) else u
        role = data["player"]
        side = above if role == CHANCE else role
        nxt = MIN if side == MAX else MAX
        sub = [node(c, nxt, side) for c in kids]
        if role == CHANCE:
            spec = {"chance": sub}
            probs = [G.edges[n, c].get("prob") for c in kids]
            if any(p is not None and p != 1 / len(kids) for p in probs):
                spec["p"] = [p if p is not None else 1 / len(kids) for p in probs]
            return spec
        return sub if role == implied else {role: sub}

    root = G.graph["root"]
    first = G.nodes[root].get("player", MAX)
    return json.dumps(node(root, first, MIN if first == MAX else MAX), ensure_ascii=False)


def _no_chance(G, name):
    """The explorer's ValueError for a tree with chance under minimax or alpha-beta: press expectimax."""
    for v in nx.dfs_preorder_nodes(G, G.graph["root"]):  # the first chance node the search would meet
        if G.nodes[v].get("player") == CHANCE:
            raise ValueError(f"{name}: node {v!r} ({G.nodes[v]['label']}) is a chance node; {name} handles "
                             "MAX and MIN only: press the search button “expectimax” above to average over "
                             "chance")


def _count(n, one, many=None):
    return f"{n} {one if n == 1 else many or one + 's'}"


# ----------------------------------------------------------------------------
# The widget
# ----------------------------------------------------------------------------


class Explore(widgets.VBox):
    """A tree typed by hand, searched and replayed at once (see :func:`explore`).

    Attributes
    ----------
    text : ipywidgets.Textarea
        The tree as typed (every change replays at once).
    algorithm, rule, root, order : ipywidgets.ToggleButtons
        ``"minimax"``/``"alphabeta"``/``"expectimax"``; ``"textbook"``/``"strict"``
        (alpha-beta only); ``"max"``/``"min"``; ``"natural"``/``"best"``/``"worst"``.
    message : ipywidgets.HTML
        One line: what was searched, or what is wrong with the typed tree.
    error : str
        That mistake as plain text (``""`` when the tree is fine).
    tree : networkx.DiGraph
        The tree replayed (after the root and order options).
    result : SearchResult
        Its search.
    replay : Replay
        The replay widget shown.
    copy_field : ipywidgets.Textarea
        The tree as drawn, as text.
    """

    def __init__(self, tree=EXAMPLE, *, algorithm="alphabeta", rule="textbook", root=MAX, order="natural"):
        if isinstance(tree, nx.DiGraph):
            validate_tree(tree)
            tree = tree_text(tree)
        elif isinstance(tree, (list, dict)):
            tree = json.dumps(tree, ensure_ascii=False)
        elif not isinstance(tree, str):
            raise TypeError(f"tree must be text, a nested list or a networkx tree, got {type(tree).__name__}")
        parse_tree(tree)  # a bad first tree is the caller's mistake: say so at once
        self.error = ""
        self.tree = self.result = self.replay = None
        wide = widgets.Layout(width="calc(100% - 4px)")  # 100% less the widget's 2 px margins
        self.text = widgets.Textarea(value=tree, description="tree", continuous_update=True,
                                     placeholder=f"a nested list, e.g. {EXAMPLE}",
                                     layout=widgets.Layout(width="calc(100% - 4px)", height="4.2em"))
        self.algorithm = widgets.ToggleButtons(options=_ALGORITHMS,
                                               value=_choice(algorithm, "algorithm", _ALGORITHMS),
                                               description="search", style={"button_width": "auto"})
        self.rule = widgets.ToggleButtons(options=_RULES, value=_choice(rule, "rule", _RULES),
                                          description="prune", style={"button_width": "auto"},
                                          tooltips=["prune when a value ties the window (≤ α, ≥ β)",
                                                    "prune only on a strict inequality (< α, > β)"])
        self.root = widgets.ToggleButtons(options=_ROOTS, value=_choice(root, "root", _ROOTS),
                                          description="root", style={"button_width": "auto"})
        self.order = widgets.ToggleButtons(options=_ORDERS, value=_choice(order, "order", _ORDERS),
                                           description="children", style={"button_width": "auto"},
                                           tooltips=["as typed", "best child first for the player to move",
                                                     "worst child first for the player to move"])
        self.message = widgets.HTML(layout=widgets.Layout(min_height="1.6em"))
        self.copy_field = widgets.Textarea(description="copy tree", layout=wide,
                                           tooltip="the tree as drawn: select it and copy")
        self._shown = widgets.Box(layout=widgets.Layout(width="100%"))
        for control in (self.text, self.algorithm, self.rule, self.root, self.order):
            control.observe(lambda change: self.update(), names="value")
        # The copy field only gives the tree back: an edit there is undone.
        self.copy_field.observe(self._keep_copy, names="value")
        options = widgets.VBox([widgets.HBox([self.algorithm, self.rule]),
                                widgets.HBox([self.root, self.order])])
        super().__init__([self.text, options, self.message, self._shown, self.copy_field, page_note()])
        self.add_class("gt-widget")
        self.update()

    def set_tree(self, text):
        """Type ``text`` into the tree box (as the instructor would); returns the message line."""
        self.text.value = text
        return self.error or html.unescape(re.sub(r"<[^>]+>", "", self.message.value))

    def update(self):
        """Parse the typed tree, search it with the chosen options and show the replay."""
        self.rule.disabled = self.algorithm.value != "alphabeta"
        try:
            G = _ordered(_with_root(parse_tree(self.text.value), self.root.value), self.order.value)
            if self.algorithm.value != "expectimax":
                _no_chance(G, _ALGORITHM_NAMES[self.algorithm.value])
            if self.algorithm.value == "alphabeta":
                result = alphabeta(G, strict=strict_rule(self.rule.value))
            elif self.algorithm.value == "minimax":
                result = minimax(G)
            else:
                result = expectimax(G)
        except (ValueError, TypeError) as error:
            self.error = " ".join(str(error).split())
            kept = " The replay below is still the last tree that worked." if self.replay is not None else ""
            self.message.value = (f"<span style='color:#B03A2E'>✗ {html.escape(self.error)}</span>"
                                  f"<span style='color:#555'>{html.escape(kept)}</span>")
            return
        self.error = ""
        self.tree, self.result = G, result
        self.replay = Replay(result)
        self._shown.children = (self.replay,)
        self.copy_field.value = tree_text(G)
        self.message.value = f"<span style='color:#555'>{html.escape(self._what())}</span>"

    def _what(self):
        G, r = self.tree, self.result
        name = _ALGORITHM_NAMES[self.algorithm.value]
        if self.algorithm.value == "alphabeta":
            name += f" ({self.rule.value} rule)"
        n = G.number_of_nodes()
        if n == 1:
            return f"{name} on a tree that is a single leaf: {_count(len(r.trace), 'step')}."
        leaves = sum(1 for v in G if G.out_degree(v) == 0)
        order = {"natural": "children as typed", "best": "best child first", "worst": "worst child first"}
        return (f"{name} on a tree of {n} nodes ({_count(leaves, 'leaf', 'leaves')}), "
                f"{G.nodes[G.graph['root']]['player'].upper()} at the root, {order[self.order.value]}: "
                f"{_count(len(r.trace), 'step')}, {_count(r.stats['leaves_evaluated'], 'leaf', 'leaves')} "
                "evaluated.")

    def _keep_copy(self, change):
        if self.tree is not None and change["new"] != tree_text(self.tree):
            self.copy_field.value = tree_text(self.tree)

    def __repr__(self):
        return f"Explore({self.error or self._what()})"

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        text = repr(self) + "\n(run the notebook to type a tree; the image shows its finished search)"
        player = self.replay.player_html() if self.replay else None
        return bundle_with_png(self, data, self.replay.static_png() if self.replay else None, text,
                               alt="the explored tree's finished search", content=player,
                               note="The explorer as saved, with its tree's search: run the cell to type a "
                                    "tree and choose the search.")


def explore(tree=EXAMPLE, *, algorithm="alphabeta", rule="textbook", root=MAX, order="natural"):
    """A widget to type a tree, choose a search and replay it at once (for lectures).

    Parameters
    ----------
    tree : str, list, dict or networkx.DiGraph
        The tree shown first: text as typed in the box (a nested list or
        JSON), or the nested list / dict itself, or a game tree graph.
    algorithm : {"alphabeta", "minimax", "expectimax"}
    rule : {"textbook", "strict"}
        Alpha-beta's pruning rule: prune on ties (≤ α / ≥ β) or only on
        strict inequalities.
    root : {"max", "min"}
        Who moves at the root (``"min"`` swaps every MAX and MIN node).
    order : {"natural", "best", "worst"}
        Children as typed, or best first / worst first for the player to
        move (by each child's minimax value; chance nodes keep their order).

    Returns
    -------
    Explore
        ``w.set_tree(text)`` types a tree; ``w.algorithm.value = "minimax"``
        and the other toggles change the search; ``w.replay`` is the replay
        shown and ``w.copy_field.value`` the tree as text.

    Examples
    --------
    >>> import gametrees as gt
    >>> w = gt.explore()
    >>> w.result.value, w.result.stats["leaves_evaluated"]
    (3, 7)
    >>> w.order.value = "best"                # best child first everywhere
    >>> w.result.stats["leaves_evaluated"], w.copy_field.value
    (5, '[[3, 8, 12], [2, 4, 6], [2, 5, 14]]')
    >>> w.set_tree("[[3, 12], [2, 4")
    'this is not a tree yet: "[" at column 11 is never closed'
    """
    return Explore(tree, algorithm=algorithm, rule=rule, root=root, order=order)
