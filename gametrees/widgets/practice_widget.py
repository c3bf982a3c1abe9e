"""The practice widget: work a search out by hand on a generated tree, and get feedback.

:func:`practice` draws a tree of :mod:`gametrees.exercises` and puts the
controls *on* the figure: a small text box beside every inner node for its
value, and a ✂ toggle on every edge to mark the subtree below it as pruned.
Under the figure: Check (the exercise's node-by-node feedback), Show solution
(the replay of the engine's search, :func:`gametrees.replay`), Clear; above
it: what to practise, the difficulty, the pruning rule (textbook or strict),
MAX or MIN at the root, and New tree.

What to practise (``mode``):

==============  ====================================================================
``minimax``     the minimax value of every inner node
``alphabeta``   the value each visited inner node returns (a bound written ``≤ 2`` /
                ``≥ 5``), and the edges alpha-beta never follows (✂)
``pruning``     only the edges alpha-beta never follows (✂)
``expectimax``  the value of every inner node of a tree with chance nodes
==============  ====================================================================

Everything is also reachable from Python (``w.boxes["B"].value = "3"``,
``w.cuts["I"].value = True``, ``w.check()``, ``w.new_tree()``), which is how
the tests drive it. Like the other widgets it draws on its own matplotlib
Figure (never pyplot) and shows it as a PNG; where widgets do not run, its
output carries a PNG of the tree and the question as text.

This module may import ipywidgets, networkx, :mod:`gametrees.games`, the
exercises it checks against (:mod:`gametrees.exercises`), the drawing
interface (:class:`gametrees.drawing.Drawing`) and the other widgets
(:mod:`gametrees.widgets.output`, :mod:`gametrees.widgets.replay_widget`).
"""

from __future__ import annotations

import html
import numbers

import ipywidgets as widgets
import networkx as nx
import numpy as np

from ..drawing import Drawing, marks, segment_meets_box
from ..exercises.answers import BadAnswer, NodeNames, parse_value
from ..exercises.attempts import open_solution
from ..exercises.by_hand import ExpectimaxExercise, PruningExercise, ValuesExercise, check_seed
from ..exercises.feedback import ROLE_NAMES, Feedback, and_list, close
from ..games import CHANCE, MAX, MIN
from ..rules import TIE_RULES, prune_when, strict_rule, tie_rule
from .output import bundle_with_png, new_figure, page_note, render_png
from .replay_widget import Replay

__all__ = ["MODES", "Practice", "practice"]

#: What can be practised: mode -> the label of the choice.
MODES = {
    "minimax": "Minimax values",
    "alphabeta": "Alpha-beta: values and pruning",
    "pruning": "Alpha-beta: pruning only",
    "expectimax": "Expectimax (chance nodes)",
}
_DIFFICULTIES = ("easy", "medium", "hard")
_GOOD, _BAD = "#D6EAF8", "#FADBD8"  # light Okabe-Ito blue and vermilion
_BOX_W, _BOX_H = 46, 22  # px
_CUT_W, _CUT_H = 22, 18  # px, shrunk when edges are close


def _check_choice(value, name, options):
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{name} must be one of {list(options)}, got {value!r}")
    return value


class Practice(widgets.VBox):
    """A generated tree to work out by hand, with controls on the figure (see :func:`practice`).

    Attributes
    ----------
    exercise : gametrees.exercises.Exercise
        The exercise being practised (for ``"alphabeta"``: the pruning
        exercise; :attr:`values_exercise` holds the values part).
    values_exercise : gametrees.exercises.Exercise or None
        The exercise the value boxes are checked against.
    seed : int or str
        The seed of the current tree (None for a tree that was given).
    boxes : dict
        ``{label: ipywidgets.Text}``: one box per inner node (value modes).
    cuts : dict
        ``{label: ipywidgets.ToggleButton}``: one ✂ per edge, keyed by the
        node below it (pruning modes).
    mode, difficulty, rule, root : ipywidgets.Dropdown / ToggleButtons
        The settings; changing one makes a new exercise from the same seed.
    new, check_button, solution_button, clear_button : ipywidgets.Button
    question, feedback : ipywidgets.HTML
    image : ipywidgets.Image
        The figure (PNG); :attr:`figure` is the matplotlib Figure behind it.
    solution_box : ipywidgets.VBox
        Holds the replay after Show solution.
    last_feedback : Feedback or None
        What the last Check said.
    """

    def __init__(self, mode="alphabeta", *, seed=None, difficulty="easy", rule="textbook", root_player="max",
                 tree=None, solutions=True, dpi=100):
        _check_choice(mode, "mode", MODES)
        _check_choice(difficulty, "difficulty", _DIFFICULTIES)
        _check_choice(rule, "rule", TIE_RULES)
        _check_choice(root_player, "root_player", (MAX, MIN))
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
            raise TypeError(f"seed must be an int or a str (e.g. a student number), got {seed!r}")
        if not isinstance(solutions, bool):
            raise TypeError(f"solutions must be True or False, got {solutions!r}")
        if isinstance(dpi, bool) or not isinstance(dpi, numbers.Real) or not 40 <= dpi <= 300:
            raise ValueError(f"dpi must be a number of dots per inch in 40..300, got {dpi!r}")
        if tree is not None and not isinstance(tree, (nx.DiGraph, list, tuple, dict)):
            raise TypeError("tree must be a game tree (networkx.DiGraph) or nested lists, "
                            f"got {type(tree).__name__}")
        self._tree_arg = tree
        self._dpi = dpi
        self._solutions = solutions
        if seed is None:
            seed = check_seed(None)
        self._base, self._step = seed, 0
        self._busy = False
        self.last_feedback = None
        self.boxes, self.cuts = {}, {}

        self.mode = widgets.Dropdown(options=[(v, k) for k, v in MODES.items()], value=mode,
                                     description="practise", layout=widgets.Layout(width="330px"))
        self.difficulty = widgets.Dropdown(options=list(_DIFFICULTIES), value=difficulty,
                                           description="difficulty", layout=widgets.Layout(width="190px"))
        self.rule = widgets.ToggleButtons(options=list(TIE_RULES),
                                          value=rule, description="rule", style={"button_width": "80px"},
                                          tooltips=["prune when v ≥ β or v ≤ α (AIMA): ties prune too",
                                                    "prune only when v > β or v < α (CS188)"])
        self.root = widgets.ToggleButtons(options=[("MAX", MAX), ("MIN", MIN)], value=root_player,
                                          description="root", style={"button_width": "56px"})
        self.new = widgets.Button(description="New tree", button_style="primary",
                                  tooltip="a new tree (next seed)")
        self.question = widgets.HTML()
        self.image = widgets.Image(format="png",
                                   layout=widgets.Layout(max_width="none", grid_area="1 / 1 / 2 / 2"))
        self._canvas = widgets.GridBox(layout=widgets.Layout(justify_items="flex-start",
                                                             align_items="flex-start",
                                                             grid_template_columns="auto",
                                                             grid_template_rows="auto"))
        scroller = widgets.Box([self._canvas], layout=widgets.Layout(overflow="auto", width="100%"))
        self.check_button = widgets.Button(description="Check", button_style="success", icon="check")
        self.solution_button = widgets.Button(description="Show solution",
                                              tooltip="replay the search step by step")
        self.clear_button = widgets.Button(description="Clear", tooltip="empty the boxes and the cuts")
        self.feedback = widgets.HTML()
        self.solution_box = widgets.VBox()
        if not solutions:
            self.solution_button.layout.display = "none"

        self.new.on_click(lambda _: self.new_tree())
        self.check_button.on_click(lambda _: self.check())
        self.solution_button.on_click(lambda _: self.toggle_solution())
        self.clear_button.on_click(lambda _: self.clear())
        for control in (self.mode, self.difficulty, self.rule, self.root):
            control.observe(self._on_setting, names="value")

        settings = widgets.HBox([self.mode, self.difficulty, self.new],
                                layout=widgets.Layout(flex_flow="row wrap"))
        roles = widgets.HBox([self.root, self.rule], layout=widgets.Layout(flex_flow="row wrap"))
        buttons = widgets.HBox([self.check_button, self.solution_button, self.clear_button])
        super().__init__([settings, roles, self.question, scroller, buttons, self.feedback, self.solution_box,
                          page_note()])
        self.add_class("gt-widget")
        self._build()

    # -- the seed --------------------------------------------------------------------

    @property
    def seed(self):
        """The seed of the current tree (``None`` while showing a tree that was given)."""
        if self._tree_arg is not None:
            return None
        if self._step == 0:
            return self._base
        if isinstance(self._base, int):
            return self._base + self._step
        return f"{self._base}/{self._step}"

    # -- making the exercise ------------------------------------------------------------

    def _make(self):
        mode, strict = self.mode.value, strict_rule(self.rule.value)
        root = self.root.value
        tree = self._tree_arg
        if tree is not None:
            base = {"tree": tree}
            if not isinstance(tree, nx.DiGraph):
                base["root_player"] = root
        else:
            base = {"seed": self.seed, "difficulty": self.difficulty.value, "root_player": root}
        if tree is not None and mode != "expectimax":
            G = tree if isinstance(tree, nx.DiGraph) else None
            chance = (any(p == CHANCE for _, p in G.nodes(data="player")) if G is not None
                      else _has_chance(tree))
            if chance:
                raise ValueError("the tree has chance nodes: practise it with mode='expectimax', "
                                 f"not {mode!r}")
        if mode == "minimax":
            return ValuesExercise(**base), None
        if mode == "expectimax":
            return ExpectimaxExercise(**base), None
        pruning = PruningExercise(strict=strict, **base)
        if mode == "pruning":
            return pruning, None
        return pruning, ValuesExercise(pruning.tree, algorithm="alphabeta", strict=strict)

    def _build(self):
        """A new exercise from the settings and the seed; new controls; a fresh figure."""
        self.exercise, values = self._make()
        if self.mode.value in ("minimax", "expectimax"):
            values = self.exercise
        self.values_exercise = values
        G = self.exercise.tree
        self._G = G
        self._nodes = NodeNames(G)
        self._parent = {v: u for u, v in G.edges}
        self.rule.disabled = self.mode.value not in ("alphabeta", "pruning")
        self.root.disabled = isinstance(self._tree_arg, nx.DiGraph)
        self.difficulty.disabled = self._tree_arg is not None
        self._drawing = Drawing(G, labels=True, windows=False, legend=True, values=False)
        self._geom, _ = self._drawing.geometry(None, dpi=self._dpi)  # fits the page: drawing.MAX_FIGURE_PX
        self.figure = new_figure(self._dpi)
        self._ax = self._drawing.new_axes(self._geom, self.figure)
        self.boxes, self.cuts = {}, {}
        self.last_feedback = None
        self.feedback.value = ""
        self.solution_box.children = ()
        self.solution_button.description = "Show solution"
        self.question.value = f"<p style='margin: 0.3em 0'>{html.escape(self._question_text())}</p>"
        self._render()
        self._place_controls()

    def _question_text(self):
        ex = self.exercise
        role = ROLE_NAMES[ex.root_player]
        origin = f" Tree seed {self.seed!r} ({self.difficulty.value})." if self.seed is not None else ""
        mode = self.mode.value
        strict = strict_rule(self.rule.value)
        rule = f"{tie_rule(strict)} rule: {prune_when(strict)}"
        if mode == "minimax":
            text = ("Type the minimax value of every inner node in the box beside it; whose turn it is "
                    "shows in the shape (▲ MAX, ▼ MIN).")
        elif mode == "expectimax":
            text = ("Type the value of every inner node in the box beside it: MAX takes the largest, MIN the "
                    "smallest, a chance node (●) the average of its outcomes weighted by the probabilities "
                    "on its edges (round to 2 decimals).")
        elif mode == "pruning":
            text = (f"Run alpha-beta, children left to right ({rule}), and cut (✂) every edge it never "
                    "follows: the subtree below is pruned.")
        else:
            text = (f"Run alpha-beta, children left to right ({rule}). Type the value each visited inner "
                    "node returns (only a bound? write ≤ 2 or ≥ 5) and cut (✂) every edge it never follows.")
        return (f"{ex.nodes.name(ex.nodes.root)} is a {role} node at the root.{origin} {text} "
                "Then press Check.")

    # -- the figure -------------------------------------------------------------------------

    def _cut_nodes(self):
        """The nodes whose ✂ is on (topmost first in breadth-first order)."""
        return [self._nodes.by_label[label] for label, b in self.cuts.items() if b.value]

    def _pruned_set(self):
        """Every node under a cut edge (the cut node included)."""
        out = set()
        for n in self._cut_nodes():
            out.update(nx.descendants(self._G, n))
            out.add(n)
        return out

    def _scene(self):
        sc = self._drawing.scene()  # the tree without inner values (values=False)
        pruned = self._pruned_set()
        for n in pruned:
            sc.style[n] = "pruned"
        for (u, v) in list(sc.edge):
            if v in pruned:
                sc.edge[u, v] = "pruned"
                if u not in pruned:
                    sc.cut.append((u, v))
        return sc

    def _render(self):
        ax = self._ax
        ax.clear()
        self._drawing.paint(ax, self._geom, self._scene(), None)
        self.image.value = render_png(self.figure)

    def _pixels(self, xy):
        """Data coordinates -> (left, top) pixels in the PNG."""
        x, y = self._ax.transData.transform(xy)
        height = self.figure.canvas.get_width_height(physical=True)[1]
        return float(x), float(height - y)

    def _place_controls(self):
        G, nodes = self._G, self._nodes
        mode = self.mode.value
        ppt = self._dpi / 72  # pixels per point
        painter = self._drawing.painter(self._geom)
        half = {n: painter.half_height(n) * ppt for n in nodes.order}
        centre = {n: self._pixels(self._drawing.prep.pos[n]) for n in nodes.order}
        # What a control must not cover, as painted (pixels from the top left): every node's mark, every
        # text (values, labels, probabilities), the legend, the controls placed before; and no box on an edge.
        drawn = marks(self._ax)
        height = self.figure.canvas.get_width_height(physical=True)[1]

        def rect(box, pad=1.0):
            return (box.x0 - pad, height - box.y1 - pad, box.x1 + pad, height - box.y0 + pad)

        taken = [rect(box) for box in drawn.node_boxes.values()]
        taken += [rect(box) for *_, box in drawn.texts] + [rect(box) for _, box in drawn.boxes]
        lines = [((p0[0], height - p0[1]), (p1[0], height - p1[1]), width)
                 for _, (p0, p1), width in drawn.edges]
        children = [self.image]
        if mode in ("alphabeta", "pruning"):
            edges = [(u, v) for u in nodes.order for v in G.successors(u)]
            mids = {(u, v): self._edge_point(u, v) for u, v in edges}
            gap = min((abs(mids[a][0] - mids[b][0]) for a in edges for b in edges
                       if a != b and abs(mids[a][1] - mids[b][1]) < _CUT_H), default=_CUT_W + 4)
            w = int(max(14, min(_CUT_W, gap - 3)))
            for u, v in edges:
                x, y = mids[u, v]
                label = nodes.name(v)
                left, top = x - w / 2, y - _CUT_H / 2
                taken.append((left, top, left + w, top + _CUT_H))
                tooltip = f"prune the edge {nodes.name(u)}–{label}: {label} is never visited"
                cut = widgets.ToggleButton(value=False, description="✂", tooltip=tooltip,
                                           layout=widgets.Layout(width=f"{w}px", height=f"{_CUT_H}px",
                                                                 padding="0",
                                                                 margin=f"{round(top)}px 0 0 {round(left)}px",
                                                                 grid_area="1 / 1 / 2 / 2"))
                cut.style.font_size = "11px"
                cut.observe(self._on_cut, names="value")
                self.cuts[label] = cut
                children.append(cut)
        if mode != "pruning":
            for n in nodes.order:
                if not G.out_degree(n):
                    continue
                others = [c for m, c in centre.items() if m != n]
                left, top = self._box_slot(centre[n], half[n], taken, lines, others)
                taken.append((left, top, left + _BOX_W, top + _BOX_H))
                label = nodes.name(n)
                box = widgets.Text(value="", placeholder=label, continuous_update=True,
                                   tooltip=f"the value of {label}",
                                   layout=widgets.Layout(width=f"{_BOX_W}px", height=f"{_BOX_H}px",
                                                         margin=f"{round(top)}px 0 0 {round(left)}px",
                                                         padding="0", grid_area="1 / 1 / 2 / 2"))
                box.style.font_size = "12px"
                box.observe(self._on_edit, names="value")
                self.boxes[label] = box
                children.append(box)
        self._canvas.children = children
        self._sync_controls()

    def _box_slot(self, centre, half, taken, lines=(), others=()):
        """``(left, top)`` of a node's value box: the free place nearest to the node, beside it on the right
        where that is free; free means covering no mark, text, legend or control (``taken``) and, where
        any such place exists, no edge (``lines``: segments with their widths) either. A place nearer
        to another node (``others``: their centres) than to its own is taken only if nothing else is free."""
        x, y = centre
        width, height = self.figure.canvas.get_width_height(physical=True)
        # The usual places first (level with the node, above it, ...), then a grid further out.
        rows = np.concatenate([[y - _BOX_H + 4, y - half - _BOX_H - 1, y - _BOX_H / 2, y + 2],
                               y - _BOX_H / 2 + 6 * np.arange(-12, 13)])
        lefts = np.concatenate([x + half + 2 + 4 * np.arange(16), x - half - 18 - _BOX_W - 4 * np.arange(12),
                                x - _BOX_W / 2 + 4 * np.arange(-40, 41)])
        row = np.repeat(np.arange(len(rows)), len(lefts))
        top, left = rows[row], np.tile(lefts, len(rows))
        cost = (np.hypot(left + _BOX_W / 2 - x, top + _BOX_H / 2 - y) + 30 * np.minimum(row, 3)
                + 20 * (left + _BOX_W / 2 < x))
        if len(others):
            o = np.asarray(others, dtype=float)
            mine = np.hypot(left + _BOX_W / 2 - x, top + _BOX_H / 2 - y)
            theirs = np.hypot(left[:, None] + _BOX_W / 2 - o[None, :, 0],
                              top[:, None] + _BOX_H / 2 - o[None, :, 1])
            cost += 200 * (theirs.min(axis=1) < mine)
        ok = (left >= 0) & (top >= 0) & (left + _BOX_W <= width) & (top + _BOX_H <= height)
        if taken:
            r = np.asarray(taken, dtype=float)
            x0, y0, x1, y1 = left, top, left + _BOX_W, top + _BOX_H
            covers = ((x0[:, None] < r[None, :, 2]) & (r[None, :, 0] < x1[:, None])
                      & (y0[:, None] < r[None, :, 3]) & (r[None, :, 1] < y1[:, None]))
            ok &= ~covers.any(axis=1)
        free = np.flatnonzero(ok)
        if not len(free):
            return max(0.0, x + half + 2), max(0.0, y - _BOX_H + 4)
        free = free[np.argsort(cost[free], kind="stable")]
        for i in free:  # the nearest that crosses no edge, else the nearest
            box = (left[i] + 1, top[i] + 1, left[i] + _BOX_W - 1, top[i] + _BOX_H - 1)
            if not any(segment_meets_box(p0, p1, (box[0] - w / 2, box[1] - w / 2,
                                                  box[2] + w / 2, box[3] + w / 2))
                       for p0, p1, w in lines):
                return float(left[i]), float(top[i])
        return float(left[free[0]]), float(top[free[0]])

    def _edge_point(self, u, v):
        """Where an edge's ✂ sits: 45% of the way down (above the cut marks at 60%), in pixels."""
        (x0, y0), (x1, y1) = self._pixels(self._drawing.prep.pos[u]), self._pixels(self._drawing.prep.pos[v])
        t = 0.45
        return x0 + t * (x1 - x0), y0 + t * (y1 - y0)

    def _sync_controls(self):
        """Hide the boxes and ✂ of nodes inside a pruned subtree; colour the cuts that are on."""
        pruned = self._pruned_set()
        cut_nodes = set(self._cut_nodes())
        for label, box in self.boxes.items():
            n = self._nodes.by_label[label]
            box.layout.visibility = "hidden" if n in pruned else "visible"
        for label, b in self.cuts.items():
            n = self._nodes.by_label[label]
            hidden = n in pruned and n not in cut_nodes
            b.layout.visibility = "hidden" if hidden else "visible"
            b.button_style = "warning" if b.value else ""

    # -- events -----------------------------------------------------------------------------

    def _on_setting(self, change):
        if self._busy:
            return
        self._busy = True
        try:
            self._build()
        except ValueError as error:  # e.g. a given tree with chance nodes, switched to minimax
            change["owner"].value = change["old"]
            self._build()
            self.feedback.value = f"<b>{html.escape(str(error))}</b>"
        finally:
            self._busy = False

    def _on_edit(self, change):
        change["owner"].style.background = None
        self.last_feedback = None

    def _on_cut(self, change):
        if self._busy:
            return
        for box in self.boxes.values():
            box.style.background = None
        self._sync_controls()
        self._render()

    # -- what the learner gave ----------------------------------------------------------------

    def answer(self):
        """The answer as the boxes and cuts hold it, in the exercises' own form.

        Returns
        -------
        dict
            ``{"values": {label: text}, "pruned": [labels]}``: the non-empty
            boxes outside pruned subtrees, and the topmost cut nodes
            (``"values"`` or ``"pruned"`` only where the mode asks for it).
        """
        out = {}
        if self.boxes:
            pruned = self._pruned_set()
            out["values"] = {label: box.value.strip() for label, box in self.boxes.items()
                             if box.value.strip() and self._nodes.by_label[label] not in pruned}
        if self.cuts:
            cut = set(self._cut_nodes())
            top = [n for n in cut if not any(a in cut for a in nx.ancestors(self._G, n))]
            out["pruned"] = [self._nodes.name(n) for n in self._nodes.sorted(top)]
        return out

    # -- actions ------------------------------------------------------------------------------

    def check(self):
        """Check the answer: show the feedback, mark each box right or wrong, and return the Feedback."""
        answer = self.answer()
        parts = []
        if "values" in answer:
            parts.append(self._check_values(answer["values"]))
        if "pruned" in answer:  # no cut where something is pruned: not answered yet (no rule guessed)
            marks = answer["pruned"] or (None if self.exercise.solution() else [])
            self.exercise.answer_form = "cut (✂) each edge alpha-beta never follows"
            parts.append(self.exercise.check(marks, subtrees=True))
        fb = parts[0] if len(parts) == 1 else self._joined(parts)
        self.last_feedback = fb
        self.feedback.value = fb._repr_html_()
        self._mark(answer)
        return fb

    @staticmethod
    def _joined(parts):
        """The values' and the cuts' feedback as one: a note both give (the solution was shown) once;
        solved only if both are."""
        items = list(dict.fromkeys(item for p in parts for item in p.items))
        fb = Feedback(" ".join(p.title for p in parts), items, tags=[t for p in parts for t in p.tags])
        if all(p.solved is not None for p in parts):
            fb.solved = all(p.solved for p in parts)
        return fb

    def _check_values(self, values):
        """The values exercise's feedback on the boxes the page shows: an empty box is one note, not a
        ✗ line each (whose hint would give its value away), and keeps the answer from being right.

        A box under a ✂ is hidden (its subtree is marked pruned), so the check neither reads it nor
        calls it empty: the nodes it would ask about there are named in one note saying that their
        boxes are hidden under the cut (what the page shows), and the answer is not right yet.
        """
        ex = self.values_exercise
        fb = ex.check(values)
        pruned = self._pruned_set()
        # The exercise names the nodes left empty, and the lines saying so: the page shows them its way.
        missing = list(ex.empty)
        items = [item for item in fb.items if not (item[0] == "bad" and item[1] in ex.empty_lines)]
        hidden = [label for label in missing
                  if label in self._nodes.by_label and self._nodes.by_label[label] in pruned]
        empty = [label for label in missing if label not in hidden]
        if not missing:
            return fb
        good = sum(kind == "good" for kind, _, _ in items)
        bad = sum(kind == "bad" for kind, _, _ in items)
        left = ([f"{len(empty)} still empty"] * bool(empty)
                + [f"{len(hidden)} hidden under a ✂"] * bool(hidden))
        if good + bad:
            title = f"{ex.what}: {good} of {good + bad} right so far; {' and '.join(left)}."
        elif empty and not hidden:
            title = f"{ex.what}: nothing typed yet."
        else:
            title = f"{ex.what}: {' and '.join(left)}; nothing else to check."
        if empty:
            items.append(("note", f"Still empty: {and_list(empty)}. Type a value in the box beside "
                                  f"{'it' if len(empty) == 1 else 'each'}.", None))
        if hidden:
            cuts = self._nodes.sorted({self._cut_above(self._nodes.by_label[label]) for label in hidden})
            edges = and_list([f"{self._nodes.name(self._parent[n])}–{self._nodes.name(n)}" for n in cuts])
            items.append(("note", f"{and_list(hidden)} {'is' if len(hidden) == 1 else 'are'} under your ✂ on "
                                  f"{edges}, so {'its box is' if len(hidden) == 1 else 'their boxes are'} "
                                  "hidden and not checked (take the ✂ off to type "
                                  f"{'it' if len(hidden) == 1 else 'them'}).", None))
        out = Feedback(title, items, tags=fb.tags)
        out.ok, out.status, out.attempt = False, "wrong" if good + bad else "unanswered", fb.attempt
        return out

    def _cut_above(self, n):
        """The topmost node on the path to ``n`` whose ✂ is on (``n`` itself if its own edge is cut)."""
        cut = set(self._cut_nodes())
        top = n
        while n in self._parent:
            if n in cut:
                top = n
            n = self._parent[n]
        return top

    def _mark(self, answer):
        """Colour the filled boxes (right / wrong) and the cuts that are on."""
        values_ex = self.values_exercise
        if values_ex is not None:
            solution = values_ex.solution()
            tol = values_ex.tolerance
            allow = values_ex.algorithm == "alphabeta"
            for label, box in self.boxes.items():
                text = answer.get("values", {}).get(label)
                if text is None:
                    box.style.background = None
                    continue
                right = False
                if label in solution:
                    try:
                        op, x = parse_value(text, allow_pruned=allow)
                        want_op, want = parse_value(solution[label])
                        # a bound is not a value
                        right = op == want_op and x is not None and close(x, want, tol)
                    except BadAnswer:
                        right = False
                box.style.background = _GOOD if right else _BAD
        if self.cuts:
            status = self.exercise.result.graph.nodes
            for n in self._cut_nodes():
                b = self.cuts[self._nodes.name(n)]
                b.button_style = "success" if status[n].get("status") == "pruned" else "danger"

    def clear(self):
        """Empty every box, undo every cut, remove the feedback."""
        self._busy = True
        try:
            for box in self.boxes.values():
                box.value = ""
                box.style.background = None
            for b in self.cuts.values():
                b.value = False
        finally:
            self._busy = False
        self.last_feedback = None
        self.feedback.value = ""
        self._sync_controls()
        self._render()

    def new_tree(self, seed=None):
        """Show a new tree: the next seed (or ``seed``), with the same settings.

        A widget made with a given ``tree`` moves on to generated trees.
        """
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, str)):
                raise TypeError(f"seed must be an int or a str, got {seed!r}")
            self._base, self._step = seed, 0
        elif self._tree_arg is not None:
            self._step = 0
        else:
            self._step += 1
        self._tree_arg = None
        self._build()

    def show_solution(self):
        """Show the replay of the engine's search (and the answer in words) under the figure, after an
        attempt.

        Before any Check of an answer (an empty Check is none), it shows a note to try first instead, and
        no values (:func:`gametrees.exercises.attempts.open_solution`). Once shown, every later Check of
        the same tree says so, and a right answer then is not solved (``last_feedback.solved`` False).

        Returns
        -------
        Replay or NotYet
            The replay; or the note, before an attempt.
        """
        if not self._solutions:
            raise ValueError("this practice widget was made with solutions=False")
        keys = [ex.key for ex in (self.exercise, self.values_exercise) if ex is not None]
        held = open_solution(keys[0], "Show solution", also=keys[1:])
        if held is not None:   # no attempt yet: the note on the page, no values
            self.solution_box.children = (widgets.HTML(held._repr_html_()),)
            return held
        result = (self.values_exercise.result if self.mode.value in ("minimax", "expectimax")
                  else self.exercise.result)
        replay = Replay(result, dpi=self._dpi)
        words = html.escape(self._solution_words())
        caption = widgets.HTML(f"<p style='margin: 0.3em 0'><b>Solution:</b> {words}</p>")
        self.solution_box.children = (caption, replay)
        self.solution_button.description = "Hide solution"
        return replay

    def hide_solution(self):
        """Remove the replay."""
        self.solution_box.children = ()
        self.solution_button.description = "Show solution"

    def toggle_solution(self):
        """Show the solution, or hide it if it is shown."""
        if self.solution_button.description == "Hide solution":
            self.hide_solution()
        else:
            self.show_solution()

    def _solution_words(self):
        parts = []
        if self.values_exercise is not None:
            values = self.values_exercise.solution()
            parts.append(", ".join(f"{k} = {v}" if not isinstance(v, str) else f"{k} {v}"
                                   for k, v in values.items()))
        if self.mode.value in ("alphabeta", "pruning"):
            pruned = [self._nodes.name(n) for n in self._nodes.order
                      if self.exercise.result.graph.nodes[n].get("status") == "pruned"
                      and self._parent.get(n) is not None
                      and self.exercise.result.graph.nodes[self._parent[n]].get("status") != "pruned"]
            parts.append(f"pruned: {', '.join(pruned) if pruned else 'nothing'}")
        return "; ".join(parts) + ". Step through the search below."

    # -- where widgets do not run -------------------------------------------------------------

    def __repr__(self):
        return f"Practice({self.mode.value}: {self._question_text()})"

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        text = repr(self) + "\n(run the notebook to type your answers on the figure)"
        return bundle_with_png(self, data, self.image.value, text, alt="a practice tree",
                               note="The practice tree as saved: run the cell to type your answers on the "
                                    "figure and check them.")


def _has_chance(spec):
    if isinstance(spec, dict):
        return CHANCE in spec or any(_has_chance(v) for v in spec.values() if isinstance(v, (list, dict)))
    if isinstance(spec, (list, tuple)):
        return any(_has_chance(s) for s in spec)
    return False


def practice(mode="alphabeta", *, seed=None, difficulty="easy", rule="textbook", root_player="max", tree=None,
             solutions=True, dpi=100):
    """A tree to work out by hand, with the answer boxes on the figure, Check and Show solution.

    Parameters
    ----------
    mode : {"alphabeta", "minimax", "pruning", "expectimax"}
        What to practise: see :mod:`gametrees.widgets.practice_widget`. Chance nodes appear
        in ``"expectimax"`` (a value mode).
    seed : int or str, optional
        The same seed gives the same tree (a student number gives a personal
        one); New tree moves to the next seed. Default: a random seed.
    difficulty : {"easy", "medium", "hard"}
        The presets of :mod:`gametrees.exercises` (depth 2, 3, 4).
    rule : {"textbook", "strict"}
        Alpha-beta's pruning rule: prune on v ≥ β / v ≤ α (AIMA), or only on
        v > β / v < α (CS188).
    root_player : {"max", "min"}
        Who moves at the root.
    tree : networkx.DiGraph or nested lists, optional
        Practise on this tree instead (e.g. the textbook's); New tree then
        moves on to generated ones.
    solutions : bool
        Offer Show solution (set False in a graded assignment).
    dpi : number
        Resolution of the figure.

    Returns
    -------
    Practice
        An ``ipywidgets.VBox``; where widgets do not render, a static
        figure of the tree and the question.

    Raises
    ------
    ValueError
        An unknown mode, difficulty, rule or root player; a tree with
        chance nodes outside ``"expectimax"``.
    TypeError
        A seed, tree or flag of the wrong type.

    Examples
    --------
    >>> import gametrees as gt
    >>> w = gt.practice("alphabeta", tree=[[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    >>> sorted(w.boxes), sorted(w.cuts)[:4]
    (['A', 'B', 'C', 'D'], ['B', 'C', 'D', 'E'])
    >>> for label, value in {"A": "3", "B": "3", "C": "<= 2", "D": "2"}.items():
    ...     w.boxes[label].value = value
    >>> w.cuts["I"].value = w.cuts["J"].value = True
    >>> w.check().ok
    True
    >>> w.cuts["L"].value = True        # L is evaluated: D must look on
    >>> print(w.check().lines[-1])  # doctest: +NORMALIZE_WHITESPACE
    ✗ The edge D–L is cut, but alpha-beta follows that edge: D is a MIN node, and a MIN node stops only when
    its value falls to α (v ≤ α); a value at or above β does not stop it. Has D's value met that test before L
    comes up? A cut needs it.
    >>> w.new_tree(seed=7); w.seed
    7
    """
    return Practice(mode, seed=seed, difficulty=difficulty, rule=rule, root_player=root_player, tree=tree,
                    solutions=solutions, dpi=dpi)
