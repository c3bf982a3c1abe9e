"""The board widget: tic-tac-toe or Connect Four against an agent.

:func:`play` returns a :class:`Board`: tic-tac-toe or Connect Four against an
agent, with "who starts", "New game", a status line, and after each agent
move that came from a search a "Why did it play that?" button that draws the
tree the agent searched (its top two plies with their values) or, for Monte
Carlo tree search, its visit counts. Against an agent that searches nothing
(the random agent) there is no such button.

The board never searches itself (the agent searches when it is its turn) and
draws trees through :mod:`gametrees.drawing`. Where no widget front end runs
(GitHub, nbviewer, a static HTML export), its output still carries an
``image/png`` of the board and a plain-text summary.

This module may import ipywidgets, :mod:`gametrees.games`,
:mod:`gametrees.search` and :mod:`gametrees.agents`
(on first use: an agent to play against), :mod:`gametrees.drawing` and
:mod:`gametrees.widgets.output`.
"""

from __future__ import annotations

import html
import numbers

import ipywidgets as widgets
import networkx as nx

from ..drawing import Drawing, draw, format_number
from ..games import MAX, MIN, ConnectFour, TicTacToe
from ..search import SearchResult
from ..search.engine import move_name
from .output import bundle_with_png, new_figure, page_note, render_png

__all__ = ["Board", "play"]


# ----------------------------------------------------------------------------
# Boards
# ----------------------------------------------------------------------------

_MARK = {MAX: "X", MIN: "O"}
# An empty cell's label. Not "": ipywidgets' button view rewrites its text only when the
# label is non-empty, so a cell set back to "" would keep showing the last game's X or O.
_EMPTY = "\u00a0"  # no-break space


def _resolve_agent(game, agent, seed):
    """The agent to play against: a callable, a name, or the game's default."""
    if agent is not None and not isinstance(agent, str):
        if not callable(agent):
            raise TypeError(f"agent must be a callable agent(game, state) -> move or a name, got {agent!r}")
        return agent
    from .. import agents  # imported here: agents search, boards only call them

    if agent is None:
        agent = "minimax" if isinstance(game, TicTacToe) else "alphabeta"
    c4 = isinstance(game, ConnectFour)  # too big to search to the end: limit the depth
    makers = {
        "random": lambda: agents.RandomAgent(seed=seed),
        "minimax": lambda: agents.MinimaxAgent(depth=4 if c4 else None, seed=seed),
        "alphabeta": lambda: agents.AlphaBetaAgent(depth=5 if c4 else None),
        "mcts": lambda: agents.MCTSAgent(playouts=2000, seed=seed),
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
        "Why did it play that?": draws what the agent's last search saw;
        shown only after a move for which the agent recorded a search.
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
            self.cells = [widgets.Button(description=_EMPTY,
                                         layout=widgets.Layout(width="64px", height="64px"))
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
            self.cells = [widgets.Button(description="▼",
                                         tooltip=f"drop a piece in column {c} ({self._square(c)})",
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
        # Shown only while there is a search to explain (never for an agent that records none).
        self.why_button = widgets.Button(description="Why did it play that?", disabled=True,
                                         layout=widgets.Layout(width="auto", display="none"))
        self.why_text = widgets.HTML()
        self.why_image = widgets.Image(format="png", layout=widgets.Layout(max_width="none",
                                                                         display="none"))
        why_box = widgets.Box([self.why_image], layout=widgets.Layout(overflow="auto", width="100%"))
        self.new.on_click(lambda _: self.new_game())
        self.starts.observe(lambda change: self.new_game(), names="value")
        self.why_button.on_click(lambda _: self.why())
        top = widgets.HBox([self.starts, self.new])
        super().__init__([top, self.status, board_box, widgets.HBox([self.why_button]), self.why_text,
                          why_box, page_note()])
        self.add_class("gt-widget")
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
        self._close_why()
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
        self._why_png = render_png(fig)
        self.why_image.value = self._why_png
        self.why_image.layout.display = ""
        # The figure's title in words too (which move this explains), then its caption.
        title = fig.axes[0].get_title("left") if fig.axes else ""
        caption = getattr(fig, "_gametrees_caption", "")
        self.why_text.value = ((f"<b>{html.escape(title.split(':')[0])}.</b> " if title else "")
                               + html.escape(caption))
        return fig

    @property
    def why_open(self) -> bool:
        """Is the "Why did it play that?" panel showing a search?"""
        return self.why_image.layout.display != "none"

    # -- internals -----------------------------------------------------------------

    def _close_why(self):
        self._why_png = None
        self.why_text.value = ""
        self.why_image.layout.display = "none"

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
        if self.why_open:  # the open panel follows the agent's latest move (never a stale search)
            self.why()
        if self.over:
            self._say(f"The agent played {self._move_words(move)}. {self._end_words()}")
        else:
            self._say(f"The agent played {self._move_words(move)}. Your move: {self._prompt()}.")

    def _prompt(self):
        return "click an empty cell" if isinstance(self.game, TicTacToe) else "click ▼ above a column"

    def _square(self, move):
        """The square as the replays and the why-figure name it: "c3", "d"."""
        return move_name(self.game, self.game.initial, move).split(" ", 1)[1]

    def _move_words(self, move):
        return _move_words(self.game, move)

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
                b.description = _EMPTY if mark == "." else mark
                b.style.text_color = {"X": "#0072B2", "O": "#D55E00"}.get(mark, "black")
                b.style.button_color = "#FFF3A8" if i == last else None
                b.tooltip = f"cell {i} ({self._square(i)}): " + ({"X": "X", "O": "O"}.get(mark) or "empty")
        else:
            for c, b in enumerate(self.cells):
                b.disabled = c not in legal and not self.over
            self._picture.value = _connect4_svg(game, state, last)
        explainable = self._searched is not None and _recorded_search(self.agent)
        self.why_button.disabled = not explainable
        self.why_button.layout.display = "" if explainable else "none"

    def __repr__(self):
        name = type(self.game).__name__
        return f"Board({name} against {_agent_name(self.agent)}: {self.message})"

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        text = repr(self) + "\n(run the notebook to play)"
        return bundle_with_png(self, data, self._board_png(), text, alt=f"a {type(self.game).__name__} board",
                               note="The board as saved: run the cell to play against the agent.")

    def _board_png(self):
        """The board alone, as a PNG (a one-node tree: the board itself)."""
        G = nx.DiGraph(root=())
        G.add_node((), state=self.state, **({"player": self.game.to_move(self.state)} if not self.over
                                            else {"utility": self.game.utility(self.state)}))
        fig = new_figure(100)
        fig.set_size_inches(2.2, 2.2)
        ax = fig.add_axes((0, 0, 1, 1))
        draw(G, ax, boards=self.game, legend=False, title=False)
        if not self.over:   # no lone ▲ / ▼ (the mover's shape, with no value) under the board
            for artist in [a for a in ax.get_children() if a.get_gid() == "values"]:
                artist.remove()
        return render_png(fig)


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


def _recorded_search(agent):
    """Did the agent record a search for its last move (a tree or Monte Carlo visit counts)?"""
    result = getattr(agent, "last_result", None)
    if isinstance(result, SearchResult) and result.graph is not None:
        return True
    visits = getattr(agent, "last_visits", None)
    return isinstance(visits, dict) and bool(visits)


def _move_words(game, move):
    """A move as the status line and the why-figure say it: the number clicked and the square the boards
    name ("cell 4 (b2)", "column 3 (d)")."""
    square = move_name(game, game.initial, move).split(" ", 1)[1]
    return f"cell {move} ({square})" if isinstance(game, TicTacToe) else f"column {move} ({square})"


def _why_figure(game, agent, state, move):
    """The figure that explains the agent's move, or None if it recorded nothing."""
    mover = _MARK[game.to_move(state)]
    result = getattr(agent, "last_result", None)
    name = _agent_name(agent)
    if isinstance(result, SearchResult) and result.algorithm == "mcts" and result.graph is not None:
        return _why_mcts(game, result, name, mover, move)
    said = _move_words(game, move)
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
        title = (f"Why {name} ({mover}) played {said}: the value of each move for X (MAX), "
                 f"with {'O' if mover == 'X' else 'X'}'s best reply below it; {mover} takes the {wants}")
        drawing = Drawing(G, boards=game, nodes=keep)
        geom, title = drawing.geometry(title)
        fig = new_figure(100)
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
            caption += (f" {len(best)} moves share the best value {format_number(result.value)}: any of them "
                        "is a best move, and the agent played one of them.")
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
        fig = new_figure(100)
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
        ax.set_title(f"Why {name} ({mover}) played {said}: it is the most visited move",
                     fontsize=10, loc="left")
        fig._gametrees_caption = ("Monte Carlo tree search: bars are visits per move (the agent plays the "
                                  "most visited); numbers are the mean playout value for X (MAX).")
        return fig
    return None


def _why_mcts(game, result, name, mover, move):
    """MCTS: the first two plies of the tree it grew, visits and means on every board."""
    G = result.graph
    root = G.graph["root"]
    keep = {root}
    played = None
    for child in G.successors(root):
        keep.add(child)
        if G.edges[root, child].get("move") == move:
            played = child
        replies = list(G.successors(child))
        if replies:
            keep.add(max(replies, key=lambda r: G.nodes[r]["visits"]))
    title = (f"Why {name} ({mover}) played {_move_words(game, move)}: it is the most visited move of the "
             f"tree Monte Carlo tree search grew ({result.stats['playouts']} playouts)")
    drawing = Drawing(G, boards=game, nodes=keep)
    geom, title = drawing.geometry(title)
    fig = new_figure(100)
    ax = drawing.new_axes(geom, fig)
    scene = drawing.scene()
    for edge, style in scene.edge.items():
        if style == "best":
            scene.edge[edge] = "plain"
    if played is not None:
        scene.edge[root, played] = "best"
    drawing.paint(ax, geom, scene, title)
    fig._gametrees_caption = (
        f"Monte Carlo tree search grew a tree of {result.stats['tree_nodes']} positions; the figure shows "
        "every move and the most visited reply to each: n is how many playouts went through a position, the "
        "number beside ▲ / ▼ the mean playout result for X (MAX); heavier lines carry more playouts. The "
        "agent plays the most visited move, not the one with the best mean: a move tried once may have a "
        "lucky mean.")
    return fig


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
    'The agent played cell 8 (c3). Your move: click an empty cell.'
    >>> board.click(8)
    'Cell 8 is taken: choose an empty cell.'
    >>> fig = board.why()             # what the agent's search saw
    >>> print(fig.axes[0].get_title(loc="left"))  # doctest: +NORMALIZE_WHITESPACE
    Why minimax (O) played cell 8 (c3): the value of each move for X (MAX), with X's best reply below it;
    O takes the lowest
    """
    return Board(game, agent, agent_first=agent_first, seed=seed)
