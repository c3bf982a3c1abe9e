"""The replay widget: a search step by step.

:func:`replay` returns a :class:`Replay` widget: Play/Pause with a speed
control, step back and forward, a slider over the events, "next cutoff" ("next
playout" for Monte Carlo tree search),
reset, the current event's sentence, the current node's alpha-beta window in
words, and the figure of the current frame.

The widget only wires frames to a figure and to controls: it never searches
and never draws a tree itself (that is :mod:`gametrees.drawing`, through its
:class:`~gametrees.drawing.Drawing`). Figures are drawn on their own
matplotlib Figure (never pyplot), rendered to PNG and shown in an
``ipywidgets.Image``: nothing leaks into the notebook as an extra output, and
a frame of a 100-node tree takes well under 100 ms (see
``benchmarks/draw_speed.py``). Where no widget front end runs (GitHub,
nbviewer, a static HTML export), its output still carries an ``image/png`` of
the finished search and a plain-text summary.

This module may import ipywidgets, :mod:`gametrees.search`,
:mod:`gametrees.trace`, :mod:`gametrees.games`, :mod:`gametrees.drawing` and
:mod:`gametrees.widgets.output`.
"""

from __future__ import annotations

import html
import math
import numbers

import ipywidgets as widgets

from ..drawing import Drawing, format_number, summary
from ..games import MAX, MIN
from ..search import SearchResult
from ..trace import frame as _frame
from .output import bundle_with_png, new_figure, page_note, render_png
from .player import MAX_PLAYER_STEPS, player_html

__all__ = ["Replay", "replay"]


# ----------------------------------------------------------------------------
# Replay
# ----------------------------------------------------------------------------

_SPEEDS = [("¼×", 2400), ("½×", 1200), ("1×", 600), ("2×", 300), ("4×", 150), ("8×", 75)]


def _window_words(fr, names):
    """The current node's alpha-beta window, in words (HTML)."""
    if not fr.alpha:
        return "No window: this search does not prune, so it looks at every child."
    if not fr.path:  # the root is done: no window is open, nothing is still to be pruned
        return "The search is over: no node is open any more."
    node = fr.current if fr.current in fr.alpha else fr.path[-1]
    if node not in fr.alpha:
        node = fr.path[-1]
    a, b = fr.alpha[node], fr.beta[node]
    label = str(names(node))
    # A game position reads "the position after X c2" (gametrees.search.PositionNames).
    name = html.escape(f"the position {label}" if label.startswith("after ") else label)
    role = fr.players.get(node)
    lines = [f"<b>Window at {name}</b>: α = {format_number(a)}, β = {format_number(b)}."]
    if len(label) > 12:  # a long position name is said once: the lines below fit one line each
        name = "this position" if label.startswith("after ") or "position" in label else "this node"
    if a == -math.inf:
        lines.append(f"α = {format_number(a)}: MAX is not yet sure of anything on the way down to {name}.")
    else:
        lines.append(f"α = {format_number(a)}: MAX can already get {format_number(a)} by another choice on "
                     f"the way to {name}.")
    if b == math.inf:
        lines.append(f"β = {format_number(b)}: MIN has not yet capped MAX on the way down to {name}.")
    else:
        lines.append(f"β = {format_number(b)}: MIN can already hold MAX to {format_number(b)} by another "
                     f"choice on the way to {name}.")
    if role == MAX:
        if b == math.inf:
            lines.append(f"{name[:1].upper() + name[1:]} is a MAX node; with β = +∞ nothing can be pruned at "
                         f"{name} yet.")
        else:
            lines.append(f"{name[:1].upper() + name[1:]} is a MAX node: once a child gives it "
                         f"{format_number(b)} or more, MIN will avoid {name}, and {name}'s other children "
                         "are pruned.")
    elif role == MIN:
        if a == -math.inf:
            lines.append(f"{name[:1].upper() + name[1:]} is a MIN node; with α = −∞ nothing can be pruned at "
                         f"{name} yet.")
        else:
            lines.append(f"{name[:1].upper() + name[1:]} is a MIN node: once a child gives it "
                         f"{format_number(a)} or less, MAX will avoid {name}, and {name}'s other children "
                         "are pruned.")
    return "<br>".join(lines)


_STEP_WORDS = {
    "select": "selection (UCB1 picks a child; the scores are under the children)",
    "expand": "expansion (a node joins the tree)",
    "playout": "playout (random moves to the end; dotted)",
    "backup": "backup (each node on the path counts the result)",
}


def _mcts_words(fr, names):
    """Monte Carlo tree search: which of the four steps this is, and the current node's counts (HTML)."""
    e = fr.event
    label = str(names(fr.current))
    name = html.escape(f"the position {label}" if label.startswith("after ") else label)
    name = name[:1].upper() + name[1:]
    words = [f"<b>Playout {e.playout}, {_STEP_WORDS[e.kind]}</b>."]
    if fr.current in fr.visits:
        visits = fr.visits[fr.current]
        mean = fr.means.get(fr.current)
        if not visits:
            counts = f"{name} has no visits yet: the backup of this playout will count it."
        else:
            counts = (f"{name} has {visits} visit{'s' if visits != 1 else ''}"
                      + (f", mean {format_number(round(mean, 3))} for MAX." if mean is not None else "."))
        words.append(counts)
    return " ".join(words)


#: The drawing options replay passes on to the figure (gametrees.draw's options).
_DRAWING_OPTIONS = ("boards", "labels", "moves", "windows", "legend", "values", "max_depth", "max_children",
                    "nodes", "max_nodes")


class Replay(widgets.VBox):
    """A player for the trace of a search (see :func:`replay`).

    Attributes
    ----------
    slider : ipywidgets.IntSlider
        The step shown, 1..number of events (step ``s`` is event ``s - 1``).
        It takes the keyboard when its handle has the focus: ←/→ one step,
        Home/End the first/last step (tested in ``tests/test_browser.py``).
    play : ipywidgets.Play
        Play/Pause in the browser, linked to the slider; the button says
        "play" or "pause" in words (for a screen reader too). Pause stops
        where the replay is; the Play widget's own stop button, which jumps
        back to step 1, is not shown (``reset`` does that, and says so).
    speed : ipywidgets.SelectionSlider
        Milliseconds per step.
    back, forward, next_cut, restart : ipywidgets.Button
        Step back, step forward, jump to the next cutoff, reset (stop and
        go back to the first step).
    sentence, window, info : ipywidgets.HTML
        The event's sentence, the current node's window in words, counts.
    image : ipywidgets.Image
        The figure of the current frame (PNG).
    figure : matplotlib.figure.Figure
        The figure behind ``image`` (not a pyplot figure).
    """

    def __init__(self, result, *, start=0, interval=600, dpi=100, **options):
        if not isinstance(result, SearchResult):
            raise TypeError("replay expects a SearchResult (e.g. gt.alphabeta(tree)), got "
                            f"{type(result).__name__}")
        if result.trace is None or result.graph is None:
            raise ValueError(
                f"this {result.algorithm} result has no trace to replay: search with trace=True"
            )
        for bad in ("ax", "k", "tree", "title"):
            if bad in options:
                raise TypeError(f"replay draws its own figure: {bad}= is not an option here")
        unknown = sorted(set(options) - set(_DRAWING_OPTIONS))
        if unknown:
            raise TypeError(f"gt.replay() got an unexpected option {unknown[0]}=: its options are result, "
                            "start (the first step shown), interval, dpi, and the drawing options "
                            f"{', '.join(_DRAWING_OPTIONS)}")
        if isinstance(interval, bool) or not isinstance(interval, numbers.Real) or interval <= 0:
            raise ValueError(f"interval must be a positive number of milliseconds, got {interval!r}")
        if isinstance(dpi, bool) or not isinstance(dpi, numbers.Real) or not 20 <= dpi <= 400:
            raise ValueError(f"dpi must be a number of dots per inch in 20..400, got {dpi!r}")
        self.result = result
        self.trace = result.trace
        n = len(self.trace)
        if isinstance(start, bool) or not isinstance(start, numbers.Integral) or not 0 <= start < n:
            raise ValueError(f"start must be an event index in 0..{n - 1}, got {start!r}")
        self._mcts = result.algorithm == "mcts"
        # MCTS on a tree: the whole tree, so that playouts can run below the grown part.
        self._drawing = Drawing(getattr(result, "replay_tree", None) or result.graph, framed=True, **options)
        # fits the page: gametrees.drawing.MAX_FIGURE_PX
        self._geom, _ = self._drawing.geometry(None, dpi=dpi)
        self.figure = new_figure(dpi)
        self._ax = self._drawing.new_axes(self._geom, self.figure)
        self._artists = []
        self._background = None
        self._legend()
        self._static_png = None
        self._player = None
        self._names = self.trace[0].names
        if self._mcts:  # "next playout": the first step of each playout after the first
            self._cuts = [i + 1 for i, e in enumerate(self.trace[:-1]) if e.kind == "backup"]
        else:
            self._cuts = [i for i, e in enumerate(self.trace) if e.kind == "prune"]

        # The slider's handle takes the keyboard (click or Tab to it): ←/→ one step, Home/End first/last.
        self.slider = widgets.IntSlider(value=start % n + 1, min=1, max=n, description="step",
                                        continuous_update=True, layout=widgets.Layout(width="420px"),
                                        tooltip="drag, or focus the handle and press ← → (one step), "
                                                "Home (first step), End (last step)")
        self.play = widgets.Play(value=start % n + 1, min=1, max=n, interval=int(interval),
                                 description="Play", show_repeat=False)
        widgets.jslink((self.play, "value"), (self.slider, "value"))
        speed = min(_SPEEDS, key=lambda s: abs(s[1] - interval))[1]
        self.speed = widgets.SelectionSlider(options=_SPEEDS, value=speed, description="speed",
                                             layout=widgets.Layout(width="230px"))
        if speed != interval:
            self.play.interval = int(interval)
        small = widgets.Layout(width="auto")
        self.restart = widgets.Button(description="↺ reset", tooltip="stop, back to the first step",
                                      layout=small)
        self.back = widgets.Button(description="◀ back", tooltip="one step back", layout=small)
        self.forward = widgets.Button(description="step ▶", tooltip="one step forward", layout=small)
        self.next_cut = widgets.Button(description="next playout ▶▶" if self._mcts else "next cutoff ✂",
                                       tooltip="jump to the next playout's first step" if self._mcts
                                       else "jump to the next pruning", layout=small, disabled=not self._cuts)
        self.sentence = widgets.HTML(layout=widgets.Layout(min_height="2.6em"))
        self.window = widgets.HTML()
        self.info = widgets.HTML()
        # Figures fit the notebook column (gametrees.drawing.MAX_FIGURE_PX); a tree too big even for
        # that is scaled down to the column's width rather than scrolled sideways.
        self.image = widgets.Image(format="png", layout=widgets.Layout(max_width="100%", height="auto"))
        scroller = widgets.Box([self.image], layout=widgets.Layout(overflow="auto", width="100%"))

        self.restart.on_click(lambda _: self.reset())
        self.back.on_click(lambda _: self.step(-1))
        self.forward.on_click(lambda _: self.step(+1))
        self.next_cut.on_click(lambda _: self.next_cutoff())
        self.slider.observe(self._on_slider, names="value")
        self.speed.observe(self._on_speed, names="value")

        controls = widgets.HBox([self.play, self.restart, self.back, self.forward, self.next_cut])
        sliders = widgets.HBox([self.slider, self.speed])
        super().__init__([controls, sliders, self.sentence, self.window, self.info, scroller, page_note()])
        self.add_class("gt-widget")
        self._render()

    # -- the state ---------------------------------------------------------------

    @property
    def k(self) -> int:
        """The index of the current event (0-based)."""
        return self.slider.value - 1

    @property
    def frame(self):
        """The current :class:`~gametrees.trace.Frame`."""
        return self._frame

    # -- actions -----------------------------------------------------------------

    def show(self, k):
        """Show the search after event ``k`` (negative counts from the end)."""
        n = len(self.trace)
        if isinstance(k, bool) or not isinstance(k, numbers.Integral) or not -n <= k < n:
            raise ValueError(f"k must be an event index in 0..{n - 1} (or negative from the end), got {k!r}")
        self.slider.value = int(k) % n + 1

    def step(self, delta=1):
        """Move ``delta`` events forward (negative: back), staying inside the trace."""
        self.slider.value = min(self.slider.max, max(self.slider.min, self.slider.value + int(delta)))

    def next_cutoff(self):
        """Jump to the next event that prunes (MCTS: the next playout's first step); say so when there is
        none."""
        later = [i for i in self._cuts if i > self.k]
        if later:
            self.show(later[0])
        else:
            self.info.value = self._info_html(
                extra="This is the last playout." if self._mcts else "No cutoff after this step.")

    next_playout = next_cutoff

    def reset(self):
        """Stop playing and go back to the first event."""
        self.play.playing = False
        self.slider.value = self.slider.min

    # -- drawing -----------------------------------------------------------------

    def _legend(self):
        """One legend for every frame (drawn once: it is the same all along)."""
        extra = {"current", "todo"} | ({"window"} if any(e.alpha is not None for e in self.trace) else set())
        if self._mcts:
            extra |= {"playout", "visits", "ucb"}
        self._drawing.paint_legend(self._ax, self._geom, extra=extra)

    def _on_slider(self, change):
        self._render()

    def _on_speed(self, change):
        self.play.interval = int(change["new"])

    def _info_html(self, extra="", fr=None):
        fr = self._frame if fr is None else fr
        n = len(self.trace)
        if self._mcts:
            done, grown = fr.playouts, len(fr.order)
            text = (f"step {fr.k + 1} of {n} · {done} of {self.result.stats['playouts']} playouts done · "
                    f"{grown} node{'s' if grown != 1 else ''} in the tree")
            if extra:
                text += f" · <i>{html.escape(extra)}</i>"
            return f"<span style='color:#555'>{text}</span>"
        cuts = sum(1 for i in self._cuts if i <= fr.k)
        seen = len(fr.order)
        text = (f"step {fr.k + 1} of {n} · {seen} node{'s' if seen != 1 else ''} visited so far · "
                f"{cuts} cutoff{'s' if cuts != 1 else ''} so far")
        if extra:
            text += f" · <i>{html.escape(extra)}</i>"
        return f"<span style='color:#555'>{text}</span>"

    def _words(self, fr):
        """The step's sentence, its window (MCTS: counts) in words, and its counter line (HTML)."""
        sentence = f"<b>{fr.k + 1}.</b> {html.escape(fr.text)}"
        window = _mcts_words(fr, self._names) if self._mcts else _window_words(fr, self._names)
        return sentence, window, self._info_html(fr=fr)

    def _paint(self, k):
        """Draw the frame after event ``k`` on the figure; return it and its PNG."""
        fr = _frame(self.trace, k)
        for artist in self._artists:
            artist.remove()
        self._artists = self._drawing.paint(self._ax, self._geom, self._drawing.scene(fr), None, legend=False)
        # Blitting: the legend never changes, so its pixels are drawn once and kept;
        # each frame restores them and draws only the tree's artists on top.
        canvas = self.figure.canvas
        if self._background is None:
            for artist in self._artists:
                artist.set_visible(False)
            canvas.draw()
            self._background = canvas.copy_from_bbox(self.figure.bbox)
            for artist in self._artists:
                artist.set_visible(True)
        canvas.restore_region(self._background)
        for artist in sorted(self._artists, key=lambda a: a.get_zorder()):
            self._ax.draw_artist(artist)
        return fr, render_png(self.figure, draw=False)

    def _render(self):
        fr, png = self._paint(self.k)
        self._frame = fr
        self.image.value = png
        self.sentence.value, self.window.value, self.info.value = self._words(fr)

    # -- where widgets do not run ----------------------------------------------------

    def static_png(self) -> bytes:
        """PNG of the finished search (what GitHub, nbviewer and HTML exports show)."""
        if self._static_png is None:
            fig = new_figure(self.figure.dpi)
            title = summary(self.result)
            geom, title = self._drawing.geometry(title, dpi=self.figure.dpi)
            ax = self._drawing.new_axes(geom, fig)
            self._drawing.paint(ax, geom, self._drawing.scene(), title)
            self._static_png = render_png(fig)
        return self._static_png

    def player_html(self):
        """The replay as HTML that steps without a kernel (:func:`gametrees.widgets.player.player_html`).

        Every frame is drawn as the widget draws it, with its sentence, window
        and counter; the player starts on the finished search. ``None`` for a
        search of more than :data:`~gametrees.widgets.player.MAX_PLAYER_STEPS`
        steps (the page would be too heavy: the output then shows the finished
        picture only).
        """
        if self._player is None:
            n = len(self.trace)
            if n > MAX_PLAYER_STEPS:
                return None
            pngs, words = [], []
            try:
                for k in range(n):
                    fr, png = self._paint(k)
                    pngs.append(png)
                    words.append(self._words(fr))
            finally:
                self._paint(self.k)  # the figure shows the widget's step again
            sentences, windows, infos = zip(*words)
            alt = f"{self.result.algorithm} search tree, step by step"
            if self._mcts:
                kw = {"next_label": "next playout ▶▶", "next_title": "jump to the next playout's first step",
                      "none_left": "This is the last playout."}
            else:
                kw = {"next_label": "next cutoff ✂", "next_title": "jump to the next pruning",
                      "none_left": "No cutoff after this step."}
            self._player = player_html(pngs, sentences, windows, infos, cuts=self._cuts, alt=alt,
                                       interval=self.play.interval, **kw)
        return self._player

    def __repr__(self):
        if self._mcts:
            return (f"Replay(mcts: {len(self.trace)} steps, {self.result.stats['playouts']} playouts, "
                    f"{self.result.stats['tree_nodes']} nodes in the tree; value "
                    f"{format_number(self.result.value)})")
        return (f"Replay({self.result.algorithm}: {len(self.trace)} steps over "
                f"{self.result.graph.number_of_nodes()} nodes; value {format_number(self.result.value)})")

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        text = (repr(self)
                + "\n(run the notebook to replay it step by step; the image shows the finished search)")
        data = bundle_with_png(self, data, self.static_png(), text)
        player = self.player_html()
        if player is not None:  # where no kernel runs: a player that steps without one
            data["text/html"] = player
        return data


def replay(result, *, start=0, interval=600, dpi=100, **options):
    """A widget that replays a search step by step.

    Parameters
    ----------
    result : SearchResult
        A search made with ``trace=True`` (the default on trees).
    start : int
        The event shown first (0: the start of the search).
    interval : number
        Milliseconds per step when playing (the speed control changes it).
    dpi : number
        Resolution of the figure (100: fonts of 7 to 10 points stay sharp).
    **options
        Drawing options passed to :func:`gametrees.draw` (``boards``,
        ``labels``, ``moves``, ``windows``, ``max_depth``, ...).

    Returns
    -------
    Replay
        An ``ipywidgets.VBox``. In JupyterLab, VS Code or Colab it is live;
        where widgets do not render it shows a static figure of the finished
        search.

    Examples
    --------
    >>> import gametrees as gt
    >>> r = gt.alphabeta(gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    >>> w = gt.replay(r)
    >>> w.k, w.frame.text
    (0, 'Start at the root A, a MAX node with window α = −∞, β = +∞.')
    >>> w.next_cut.click()            # jump to the first cutoff
    >>> w.k, w.frame.event.kind
    (13, 'prune')
    >>> w.back.click(); w.k
    12
    """
    return Replay(result, start=start, interval=interval, dpi=dpi, **options)
