"""Widgets: replay a search step by step, and play against an agent.

:func:`replay` returns a :class:`Replay` widget: Play/Pause with a speed
control, step back and forward, a slider over the events, "next cutoff",
reset, the current event's sentence, the current node's alpha-beta window in
words, and the figure of the current frame.

:func:`play` returns a :class:`Board`: tic-tac-toe or Connect Four against an
agent, with "who starts", "New game", a status line, and after each agent
move a "Why did it play that?" button that draws the tree the agent searched
(its top two plies with their values) or, for Monte Carlo tree search, its
visit counts.

Widgets only wire frames to a figure and to controls: they never search (the
agent searches when it is its turn) and never draw a tree themselves (that is
:mod:`gametrees.draw`). Figures are drawn on their own matplotlib Figure
(never pyplot), rendered to PNG and shown in an ``ipywidgets.Image``: nothing
leaks into the notebook as an extra output, and a frame of a 100-node tree
takes well under 100 ms (see ``benchmarks/draw_speed.py``).

Where no widget front end runs (GitHub, nbviewer, a static HTML export), a
widget's output still carries an ``image/png`` of the finished search (the
board, for :class:`Board`) and a plain-text summary.
"""

from __future__ import annotations

import base64
import html
import io
import math
import numbers

import ipywidgets as widgets
import networkx as nx
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .draw import _Drawing, _num, _summary
from .games import MAX, MIN, ConnectFour, TicTacToe
from .search import SearchResult
from .trace import frame as _frame

__all__ = ["Board", "Replay", "play", "replay"]


# ----------------------------------------------------------------------------
# Rendering a matplotlib Figure to PNG bytes (fast, no pyplot)
# ----------------------------------------------------------------------------


def _png(fig, draw=True) -> bytes:
    """The figure as PNG bytes, fast and small.

    Agg renders (unless ``draw=False``: the canvas holds the picture already);
    the image is reduced to a palette of 96 colours (line art with
    antialiasing needs no more; it halves the encoding time and makes the PNG
    3x smaller to send to the browser) and lightly compressed.
    """
    from PIL import Image

    canvas = fig.canvas
    if draw:
        canvas.draw()
    w, h = canvas.get_width_height(physical=True)
    image = Image.frombuffer("RGBA", (w, h), canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    image = image.convert("RGB").quantize(colors=96, method=Image.Quantize.FASTOCTREE)
    out = io.BytesIO()
    image.save(out, format="png", compress_level=1)
    return out.getvalue()


def _new_figure(dpi=100):
    fig = Figure(dpi=dpi)
    FigureCanvasAgg(fig)
    return fig


def _bundle_with_png(widget, data, png, text):
    """Add a static PNG and a plain-text summary to a widget's mime bundle."""
    if data is None:
        data = {}
    data = dict(data)
    data["text/plain"] = text
    if png:
        data["image/png"] = base64.b64encode(png).decode("ascii")
    return data


# ----------------------------------------------------------------------------
# Replay
# ----------------------------------------------------------------------------

_SPEEDS = [("¼×", 2400), ("½×", 1200), ("1×", 600), ("2×", 300), ("4×", 150), ("8×", 75)]


def _window_words(fr, names):
    """The current node's alpha-beta window, in words (HTML)."""
    node = fr.current if fr.current in fr.alpha else (fr.path[-1] if fr.path else None)
    if node is None or node not in fr.alpha:
        if not fr.alpha:
            return "No window: this search does not prune, so it looks at every child."
        return "The search is over: no node is open any more."
    a, b = fr.alpha[node], fr.beta[node]
    name = html.escape(str(names(node)))
    role = fr.players.get(node)
    lines = [f"<b>Window at {name}</b>: α = {_num(a)}, β = {_num(b)}."]
    if a == -math.inf:
        lines.append(f"α = {_num(a)}: MAX is not yet sure of anything on the way down to {name}.")
    else:
        lines.append(f"α = {_num(a)}: MAX can already get {_num(a)} by another choice on the way to {name}.")
    if b == math.inf:
        lines.append(f"β = {_num(b)}: MIN has not yet capped MAX on the way down to {name}.")
    else:
        lines.append(f"β = {_num(b)}: MIN can already hold MAX to {_num(b)} by another choice on the way "
                     f"to {name}.")
    if role == MAX:
        if b == math.inf:
            lines.append(f"{name} is a MAX node; with β = +∞ nothing can be pruned at {name} yet.")
        else:
            lines.append(f"{name} is a MAX node: once a child gives it {_num(b)} or more, MIN will avoid "
                         f"{name}, and {name}'s other children are pruned.")
    elif role == MIN:
        if a == -math.inf:
            lines.append(f"{name} is a MIN node; with α = −∞ nothing can be pruned at {name} yet.")
        else:
            lines.append(f"{name} is a MIN node: once a child gives it {_num(a)} or less, MAX will avoid "
                         f"{name}, and {name}'s other children are pruned.")
    return "<br>".join(lines)


class Replay(widgets.VBox):
    """A player for the trace of a search (see :func:`replay`).

    Attributes
    ----------
    slider : ipywidgets.IntSlider
        The step shown, 1..number of events (step ``s`` is event ``s - 1``).
    play : ipywidgets.Play
        Play/Pause (and stop) in the browser, linked to the slider.
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
            raise TypeError(f"replay expects a SearchResult (e.g. gt.alphabeta(tree)), got {type(result).__name__}")
        if result.trace is None or result.graph is None:
            raise ValueError(
                f"this {result.algorithm} result has no trace to replay: search with trace=True"
            )
        for bad in ("ax", "k", "tree", "title"):
            if bad in options:
                raise TypeError(f"replay draws its own figure: {bad}= is not an option here")
        if isinstance(interval, bool) or not isinstance(interval, numbers.Real) or interval <= 0:
            raise ValueError(f"interval must be a positive number of milliseconds, got {interval!r}")
        if isinstance(dpi, bool) or not isinstance(dpi, numbers.Real) or not 20 <= dpi <= 400:
            raise ValueError(f"dpi must be a number of dots per inch in 20..400, got {dpi!r}")
        self.result = result
        self.trace = result.trace
        n = len(self.trace)
        if isinstance(start, bool) or not isinstance(start, numbers.Integral) or not -n <= start < n:
            raise ValueError(f"start must be an event index in 0..{n - 1}, got {start!r}")
        self._drawing = _Drawing(result.graph, framed=True, **options)
        self._geom, _ = self._drawing.geometry(None)
        self.figure = _new_figure(dpi)
        self._ax = self._drawing.new_axes(self._geom, self.figure)
        self._artists = []
        self._background = None
        self._legend()
        self._static_png = None
        self._names = self.trace[0].names
        self._cuts = [i for i, e in enumerate(self.trace) if e.kind == "prune"]

        self.slider = widgets.IntSlider(value=start % n + 1, min=1, max=n, description="step",
                                        continuous_update=True, layout=widgets.Layout(width="420px"))
        self.play = widgets.Play(value=start % n + 1, min=1, max=n, interval=int(interval),
                                 description="Play", show_repeat=False)
        widgets.jslink((self.play, "value"), (self.slider, "value"))
        speed = min(_SPEEDS, key=lambda s: abs(s[1] - interval))[1]
        self.speed = widgets.SelectionSlider(options=_SPEEDS, value=speed, description="speed",
                                             layout=widgets.Layout(width="230px"))
        if speed != interval:
            self.play.interval = int(interval)
        small = widgets.Layout(width="auto")
        self.restart = widgets.Button(description="↺ reset", tooltip="stop, back to the first step", layout=small)
        self.back = widgets.Button(description="◀ back", tooltip="one step back", layout=small)
        self.forward = widgets.Button(description="step ▶", tooltip="one step forward", layout=small)
        self.next_cut = widgets.Button(description="next cutoff ✂", tooltip="jump to the next pruning",
                                       layout=small, disabled=not self._cuts)
        self.sentence = widgets.HTML(layout=widgets.Layout(min_height="2.6em"))
        self.window = widgets.HTML()
        self.info = widgets.HTML()
        self.image = widgets.Image(format="png", layout=widgets.Layout(max_width="none"))
        scroller = widgets.Box([self.image], layout=widgets.Layout(overflow="auto", width="100%"))

        self.restart.on_click(lambda _: self.reset())
        self.back.on_click(lambda _: self.step(-1))
        self.forward.on_click(lambda _: self.step(+1))
        self.next_cut.on_click(lambda _: self.next_cutoff())
        self.slider.observe(self._on_slider, names="value")
        self.speed.observe(self._on_speed, names="value")

        controls = widgets.HBox([self.play, self.restart, self.back, self.forward, self.next_cut])
        sliders = widgets.HBox([self.slider, self.speed])
        super().__init__([controls, sliders, self.sentence, self.window, self.info, scroller])
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
        """Jump to the next event that prunes; say so when there is none."""
        later = [i for i in self._cuts if i > self.k]
        if later:
            self.show(later[0])
        else:
            self.info.value = self._info_html(extra="No cutoff after this step.")

    def reset(self):
        """Stop playing and go back to the first event."""
        self.play.playing = False
        self.slider.value = self.slider.min

    # -- drawing -----------------------------------------------------------------

    def _legend(self):
        """One legend for every frame (drawn once: it is the same all along)."""
        drawing = self._drawing
        if not drawing.options["legend"]:
            return
        extra = {"current", "todo"} | ({"window"} if any(e.alpha is not None for e in self.trace) else set())
        painter = drawing.painter(self._geom)
        painter._legend(self._ax, drawing.scene(), extra=extra)
        if drawing.prep.note:
            self._ax.text(0.01, 0.01, drawing.prep.note, transform=self._ax.transAxes, fontsize=7.5,
                          color="#505050", ha="left", va="bottom", gid="note")

    def _on_slider(self, change):
        self._render()

    def _on_speed(self, change):
        self.play.interval = int(change["new"])

    def _info_html(self, extra=""):
        fr = self._frame
        n = len(self.trace)
        cuts = sum(1 for i in self._cuts if i <= fr.k)
        seen = len(fr.order)
        text = (f"step {fr.k + 1} of {n} · {seen} node{'s' if seen != 1 else ''} visited so far · "
                f"{cuts} cutoff{'s' if cuts != 1 else ''} so far")
        if extra:
            text += f" · <i>{html.escape(extra)}</i>"
        return f"<span style='color:#555'>{text}</span>"

    def _render(self):
        fr = _frame(self.trace, self.k)
        self._frame = fr
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
        self.image.value = _png(self.figure, draw=False)
        self.sentence.value = f"<b>{fr.k + 1}.</b> {html.escape(fr.text)}"
        self.window.value = _window_words(fr, self._names)
        self.info.value = self._info_html()

    # -- where widgets do not run ----------------------------------------------------

    def static_png(self) -> bytes:
        """PNG of the finished search (what GitHub, nbviewer and HTML exports show)."""
        if self._static_png is None:
            fig = _new_figure(self.figure.dpi)
            title = _summary(self.result)
            geom, title = self._drawing.geometry(title)
            ax = self._drawing.new_axes(geom, fig)
            self._drawing.paint(ax, geom, self._drawing.scene(), title)
            self._static_png = _png(fig)
        return self._static_png

    def __repr__(self):
        return (f"Replay({self.result.algorithm}: {len(self.trace)} steps over "
                f"{self.result.graph.number_of_nodes()} nodes; value {_num(self.result.value)})")

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        text = repr(self) + "\n(run the notebook to replay it step by step; the image shows the finished search)"
        return _bundle_with_png(self, data, self.static_png(), text)


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
        Drawing options passed to :func:`gametrees.draw.draw` (``boards``,
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
    (0, 'Start at the root A, a MAX node with window α = -∞, β = +∞.')
    >>> w.next_cut.click()            # jump to the first cutoff
    >>> w.k, w.frame.event.kind
    (13, 'prune')
    >>> w.back.click(); w.k
    12
    """
    return Replay(result, start=start, interval=interval, dpi=dpi, **options)


# ----------------------------------------------------------------------------
# Boards
# ----------------------------------------------------------------------------

_MARK = {MAX: "X", MIN: "O"}


def _resolve_agent(game, agent, seed):
    """The agent to play against: a callable, a name, or the game's default."""
    if agent is not None and not isinstance(agent, str):
        if not callable(agent):
            raise TypeError(f"agent must be a callable agent(game, state) -> move or a name, got {agent!r}")
        return agent
    from . import agents, mcts  # imported here: agents search, boards only call them

    if agent is None:
        agent = "minimax" if isinstance(game, TicTacToe) else "alphabeta"
    c4 = isinstance(game, ConnectFour)  # too big to search to the end: limit the depth
    makers = {
        "random": lambda: agents.RandomAgent(seed=seed),
        "minimax": lambda: agents.MinimaxAgent(depth=4 if c4 else None, seed=seed),
        "alphabeta": lambda: agents.AlphaBetaAgent(depth=5 if c4 else None),
        "mcts": lambda: mcts.MCTSAgent(playouts=2000, seed=seed),
    }
    if agent not in makers:
        raise ValueError(f"agent must be a callable or one of {sorted(makers)}, got {agent!r}")
    return makers[agent]()


def _agent_name(agent):
    return str(getattr(agent, "name", None) or getattr(agent, "__name__", None) or type(agent).__name__)


class Board(widgets.VBox):
    """Tic-tac-toe or Connect Four against an agent (see :func:`play`).

    Attributes
    ----------
    game : TicTacToe or ConnectFour
    agent : callable
        ``agent(game, state) -> move``.
    state
        The current position.
    history : list of (str, move)
        ``("you", move)`` and ``("agent", move)`` in order of play.
    message : str
        The status line as plain text.
    cells : list of ipywidgets.Button
        Tic-tac-toe: the 9 cells (index = move); Connect Four: one drop
        button per column.
    starts : ipywidgets.ToggleButtons
        Who starts (``"you"`` or ``"agent"``); changing it starts a new game.
    new : ipywidgets.Button
        New game.
    why_button : ipywidgets.Button
        "Why did it play that?": draws what the agent's last search saw.
    why_image : ipywidgets.Image
        Where that figure appears.
    """

    def __init__(self, game, agent=None, *, agent_first=False, seed=None):
        if not isinstance(game, (TicTacToe, ConnectFour)):
            raise TypeError(f"play() has boards for TicTacToe() and ConnectFour(...), got {game!r}")
        if not isinstance(agent_first, bool):
            raise TypeError(f"agent_first must be True or False, got {agent_first!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise TypeError(f"seed must be None or an int, got {seed!r}")
        self.game = game
        self.seed = seed
        self.agent = _resolve_agent(game, agent, seed)
        self.state = game.initial
        self.history = []
        self.message = ""
        self._why_png = None
        self._searched = None  # (state, move) of the agent's last move

        if isinstance(game, TicTacToe):
            self.cells = [widgets.Button(description="", layout=widgets.Layout(width="64px", height="64px"))
                          for _ in range(9)]
            for i, b in enumerate(self.cells):
                b.style.font_size = "28px"
                b.style.font_weight = "bold"
                b.on_click(lambda _, i=i: self.click(i))
            grid = widgets.GridBox(self.cells, layout=widgets.Layout(
                grid_template_columns="repeat(3, 66px)", grid_gap="2px"))
            self._picture = None
            board_box = grid
        else:
            # 40 px wide + 2 px margins on each side: one button over each 44 px column of the picture
            self.cells = [widgets.Button(description="▼", tooltip=f"drop a piece in column {c}",
                                         layout=widgets.Layout(width="40px", height="30px", padding="0",
                                                               margin="2px"))
                          for c in range(game.cols)]
            for c, b in enumerate(self.cells):
                b.on_click(lambda _, c=c: self.click(c))
            self._picture = widgets.HTML()
            board_box = widgets.VBox([
                widgets.HBox(self.cells, layout=widgets.Layout(padding="0 0 0 6px", grid_gap="0")),
                self._picture])
        self.status = widgets.HTML()
        self.starts = widgets.ToggleButtons(options=[("You start", "you"), ("Agent starts", "agent")],
                                            value="agent" if agent_first else "you",
                                            description="", style={"button_width": "110px"})
        self.new = widgets.Button(description="New game", button_style="primary")
        self.why_button = widgets.Button(description="Why did it play that?", disabled=True,
                                         layout=widgets.Layout(width="auto"))
        self.why_text = widgets.HTML()
        self.why_image = widgets.Image(format="png", layout=widgets.Layout(max_width="none",
                                                                         display="none"))
        why_box = widgets.Box([self.why_image], layout=widgets.Layout(overflow="auto", width="100%"))
        self.new.on_click(lambda _: self.new_game())
        self.starts.observe(lambda change: self.new_game(), names="value")
        self.why_button.on_click(lambda _: self.why())
        top = widgets.HBox([self.starts, self.new])
        super().__init__([top, self.status, board_box, widgets.HBox([self.why_button]), self.why_text, why_box])
        self.new_game()

    # -- who is who ----------------------------------------------------------------

    @property
    def agent_first(self) -> bool:
        return self.starts.value == "agent"

    @property
    def human_player(self):
        """``"max"`` (X) when you start, ``"min"`` (O) when the agent does."""
        return MIN if self.agent_first else MAX

    @property
    def over(self) -> bool:
        return self.game.is_terminal(self.state)

    @property
    def winner(self):
        """``"X"``, ``"O"``, ``"draw"``, or ``None`` while the game goes on."""
        if not self.over:
            return None
        u = self.game.utility(self.state)
        return "X" if u > 0 else "O" if u < 0 else "draw"

    # -- actions -------------------------------------------------------------------

    def new_game(self, agent_first=None):
        """Start again; the agent moves first if ``agent_first`` (default: the toggle)."""
        if agent_first is not None:
            if not isinstance(agent_first, bool):
                raise TypeError(f"agent_first must be True or False, got {agent_first!r}")
            if agent_first != self.agent_first:
                self.starts.value = "agent" if agent_first else "you"  # calls new_game again
                return
        self.state = self.game.initial
        self.history = []
        self._searched = None
        self._why_png = None
        self.why_text.value = ""
        self.why_image.layout.display = "none"
        if hasattr(self.agent, "reset"):
            self.agent.reset()
        if self.agent_first:
            self._agent_move()
        else:
            self._say(f"You are X and move first: {self._prompt()}.")
        self._refresh()

    def click(self, move):
        """Play ``move`` for you (a cell 0..8, or a Connect Four column); returns the status text.

        Illegal clicks (a taken cell, a full column, after the game is over)
        change nothing and say why in the status line.
        """
        game = self.game
        if self.over:
            self._say(f"The game is over ({self._result_words()}): press New game to play again.")
            return self.message
        if game.to_move(self.state) != self.human_player:
            self._say("Wait: it is the agent's turn.")
            return self.message
        legal = game.actions(self.state)
        if isinstance(move, bool) or not isinstance(move, numbers.Integral) or move not in legal:
            self._say(self._illegal_words(move, legal))
            return self.message
        self.state = game.result(self.state, int(move))
        self.history.append(("you", int(move)))
        if self.over:
            self._say(self._end_words())
        else:
            self._agent_move()
        self._refresh()
        return self.message

    def why(self):
        """Show (and return) the figure of the agent's last search, or ``None``.

        The tree the agent searched for its last move, trimmed to a readable
        size: every move it considered with its value, and under each the
        opponent's best reply. For Monte Carlo tree search: visits and mean
        value of every move.
        """
        if self._searched is None:
            self.why_text.value = "The agent has not moved yet."
            return None
        fig = _why_figure(self.game, self.agent, *self._searched)
        if fig is None:
            self.why_text.value = (f"{html.escape(_agent_name(self.agent))} does not record its search "
                                   "(no last_result or last_visits), so there is nothing to show.")
            return None
        self._why_png = _png(fig)
        self.why_image.value = self._why_png
        self.why_image.layout.display = ""
        self.why_text.value = html.escape(getattr(fig, "_gametrees_caption", ""))
        return fig

    # -- internals -----------------------------------------------------------------

    def _agent_move(self):
        game, state = self.game, self.state
        try:
            move = self.agent(game, state)
        except Exception as error:  # noqa: BLE001 -- an agent's bug must not break the board
            self._say(f"The agent {_agent_name(self.agent)} failed: {type(error).__name__}: {error}")
            return
        if move not in game.actions(state):
            self._say(f"The agent {_agent_name(self.agent)} chose {move!r}, which is not a legal move here; "
                      "press New game.")
            return
        self.state = game.result(state, move)
        self.history.append(("agent", move))
        self._searched = (state, move)
        if self.over:
            self._say(f"The agent played {self._move_words(move)}. {self._end_words()}")
        else:
            self._say(f"The agent played {self._move_words(move)}. Your move: {self._prompt()}.")

    def _prompt(self):
        return "click an empty cell" if isinstance(self.game, TicTacToe) else "click ▼ above a column"

    def _move_words(self, move):
        if isinstance(self.game, TicTacToe):
            r, c = divmod(move, 3)
            return f"cell {move} (row {r + 1}, column {c + 1})"
        return f"column {move}"

    def _illegal_words(self, move, legal):
        if isinstance(self.game, TicTacToe):
            if isinstance(move, numbers.Integral) and not isinstance(move, bool) and 0 <= move < 9:
                return f"Cell {move} is taken: choose an empty cell."
            return f"There is no cell {move!r}: cells are numbered 0..8."
        cols = self.game.cols
        if isinstance(move, numbers.Integral) and not isinstance(move, bool) and 0 <= move < cols:
            return f"Column {move} is full: choose another column."
        return f"There is no column {move!r}: columns are numbered 0..{cols - 1}."

    def _result_words(self):
        w = self.winner
        return "a draw" if w == "draw" else f"{w} won"

    def _end_words(self):
        w = self.winner
        if w == "draw":
            return "It is a draw."
        you = _MARK[self.human_player]
        return "You win!" if w == you else "The agent wins."

    def _say(self, text):
        self.message = text
        self.status.value = f"<b>{html.escape(text)}</b>"

    def _refresh(self):
        game, state = self.game, self.state
        last = self.history[-1][1] if self.history else None
        legal = set(game.actions(state))
        if isinstance(game, TicTacToe):
            text = TicTacToe.to_string(state).replace("/", "")
            for i, b in enumerate(self.cells):
                mark = text[i]
                b.description = "" if mark == "." else mark
                b.style.text_color = {"X": "#0072B2", "O": "#D55E00"}.get(mark, "black")
                b.style.button_color = "#FFF3A8" if i == last else None
                b.tooltip = f"cell {i}"
        else:
            for c, b in enumerate(self.cells):
                b.disabled = c not in legal and not self.over
            self._picture.value = _connect4_svg(game, state, last)
        self.why_button.disabled = self._searched is None

    def __repr__(self):
        name = type(self.game).__name__
        return f"Board({name} against {_agent_name(self.agent)}: {self.message})"

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        text = repr(self) + "\n(run the notebook to play)"
        return _bundle_with_png(self, data, self._board_png(), text)

    def _board_png(self):
        from .draw import draw  # a one-node tree: the board itself

        G = nx.DiGraph(root=())
        G.add_node((), state=self.state, **({"player": self.game.to_move(self.state)} if not self.over
                                            else {"utility": self.game.utility(self.state)}))
        fig = _new_figure(100)
        fig.set_size_inches(2.2, 2.2)
        ax = fig.add_axes((0, 0, 1, 1))
        draw(G, ax, boards=self.game, legend=False, title=False)
        return _png(fig)


def _connect4_svg(game, state, last):
    """The Connect Four board as an SVG picture (blue X, yellow O, last move ringed)."""
    cell = 44
    w, h = game.cols * cell + 12, game.rows * cell + 12
    rows = game.display(state).splitlines()[: game.rows]
    parts = [f"<svg width='{w}' height='{h}' xmlns='http://www.w3.org/2000/svg'>",
             f"<rect x='0' y='0' width='{w}' height='{h}' rx='8' fill='#9DA8B5'/>"]
    ring = None
    if last is not None:
        for r, line in enumerate(rows):
            if line[1 + last] != ".":
                ring = (r, last)
                break
    for r, line in enumerate(rows):
        for c, mark in enumerate(line[1:-1]):
            cx, cy = 6 + c * cell + cell // 2, 6 + r * cell + cell // 2
            fill = {"X": "#0072B2", "O": "#F0E442"}.get(mark, "#FFFFFF")
            stroke = "#000000" if ring == (r, c) else "#555555"
            width = 3 if ring == (r, c) else 1
            parts.append(f"<circle cx='{cx}' cy='{cy}' r='{cell // 2 - 4}' fill='{fill}' "
                         f"stroke='{stroke}' stroke-width='{width}'/>")
    parts.append("</svg>")
    return "".join(parts)


def _best_reply(G, node):
    """The child that gave ``node`` its value (the opponent's best reply), or None."""
    value = G.nodes[node].get("value")
    kids = [c for c in G.successors(node) if G.nodes[c].get("status") == "visited"
            and "value" in G.nodes[c]]
    if value is None or not kids:
        return None
    same = [c for c in kids if G.nodes[c]["value"] == value]
    exact = [c for c in same if G.nodes[c].get("bound", "exact") == "exact"]
    return (exact or same or [None])[0]


def _why_figure(game, agent, state, move):
    """The figure that explains the agent's move, or None if it recorded nothing."""
    from .draw import _Drawing

    mover = _MARK[game.to_move(state)]
    result = getattr(agent, "last_result", None)
    name = _agent_name(agent)
    if isinstance(result, SearchResult) and result.graph is not None:
        G = result.graph
        root = G.graph["root"]
        keep = {root}
        for child in G.successors(root):
            keep.add(child)
            reply = _best_reply(G, child)
            if reply is not None:
                keep.add(reply)
        wants = "highest" if game.to_move(state) == MAX else "lowest"
        title = (f"Why {name} ({mover}) played {move}: the value of each move for X (MAX), "
                 f"with {'O' if mover == 'X' else 'X'}'s best reply below it; {mover} takes the {wants}")
        drawing = _Drawing(G, boards=game, nodes=keep)
        geom, title = drawing.geometry(title)
        fig = _new_figure(100)
        ax = drawing.new_axes(geom, fig)
        scene = drawing.scene()
        # The bold line is the move the agent played (it may pick any of equally good
        # moves, not only the search's first) and the reply below it.
        played = next((c for c in G.successors(root) if G.edges[root, c].get("move") == move), None)
        for edge, style in scene.edge.items():
            if style == "best":
                scene.edge[edge] = "plain"
        if played is not None:
            scene.edge[root, played] = "best"
            reply = _best_reply(G, played)
            if reply is not None:
                scene.edge[played, reply] = "best"
        drawing.paint(ax, geom, scene, title)
        caption = (f"{result.algorithm} searched {result.stats['nodes_visited']} positions; the figure shows "
                   f"the first two plies of its tree ({G.number_of_nodes()} nodes recorded).")
        if any(s == "best" for s in scene.edge.values()) and scene.bounds:
            caption += " “≤ v” / “≥ v”: only a bound (pruning left that value partly unknown)."
        best = [c for c in G.successors(root) if G.nodes[c].get("value") == result.value
                and G.nodes[c].get("bound", "exact") == "exact"]
        if len(best) > 1:
            caption += (f" {len(best)} moves share the best value {_num(result.value)}: any of them is a best "
                        "move, and the agent played one of them.")
        hits = sum(1 for e in (result.trace or ()) if e.kind == "hit" and e.ply == 1)
        if hits:
            caption += (f" {hits} of the moves were answered from the transposition table (the position, "
                        "or a mirror image of it, was searched before), so no reply is recorded under them.")
        fig._gametrees_caption = caption
        return fig
    visits = getattr(agent, "last_visits", None)
    if isinstance(visits, dict) and visits:
        moves = list(visits)
        counts = [visits[m][0] for m in moves]
        means = [visits[m][1] for m in moves]
        fig = _new_figure(100)
        fig.set_size_inches(max(4.0, 0.6 * len(moves) + 1.5), 3.2)
        ax = fig.add_axes((0.12, 0.18, 0.84, 0.66))
        colors = ["#0072B2" if m == move else "#A6A6A6" for m in moves]
        bars = ax.bar([str(m) for m in moves], counts, color=colors, edgecolor="#333333")
        for bar, mean in zip(bars, means):
            label = "–" if mean is None else f"{mean:+.2f}"
            ax.annotate(label, (bar.get_x() + bar.get_width() / 2, bar.get_height()), xytext=(0, 2),
                        textcoords="offset points", ha="center", va="bottom", fontsize=8)
        ax.set_xlabel("move")
        ax.set_ylabel("visits")
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
        ax.set_title(f"Why {name} ({mover}) played {move}: it is the most visited move", fontsize=10, loc="left")
        fig._gametrees_caption = ("Monte Carlo tree search: bars are visits per move (the agent plays the most "
                                  "visited); numbers are the mean playout value for X (MAX).")
        return fig
    return None


def play(game, agent=None, *, agent_first=False, seed=None):
    """A board to play tic-tac-toe or Connect Four against an agent.

    Parameters
    ----------
    game : TicTacToe or ConnectFour
    agent : callable or str, optional
        ``agent(game, state) -> move`` (see :mod:`gametrees.agents`), or one
        of ``"random"``, ``"minimax"``, ``"alphabeta"``, ``"mcts"`` (on
        Connect Four minimax searches 4 plies and alpha-beta 5; on
        tic-tac-toe both search to the end). Default: minimax for
        tic-tac-toe (it never loses), alpha-beta for Connect Four.
    agent_first : bool
        The agent starts (as X). The "who starts" toggle changes it later.
    seed : int, optional
        Seed of the default agent's choice among equally good moves.

    Returns
    -------
    Board
        Click a cell (or call ``board.click(move)``), ``board.new_game()``,
        ``board.why()``.

    Examples
    --------
    >>> import gametrees as gt
    >>> board = gt.play(gt.TicTacToe(), seed=0)
    >>> board.click(4)
    'The agent played cell 8 (row 3, column 3). Your move: click an empty cell.'
    >>> board.click(8)
    'Cell 8 is taken: choose an empty cell.'
    >>> fig = board.why()             # what the agent's search saw
    >>> print(fig.axes[0].get_title(loc="left"))  # doctest: +NORMALIZE_WHITESPACE
    Why minimax (O) played 8: the value of each move for X (MAX), with X's best reply below it; O takes
    the lowest
    """
    return Board(game, agent, agent_first=agent_first, seed=seed)
