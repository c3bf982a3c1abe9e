"""Search algorithms, each written once against the game protocol.

The package re-exports the public names of its modules:

=====================  ====================================================
``engine``             :class:`SearchResult`, the argument checks and the run
                       (iterative deepening) that all algorithms share
``backed_up``          :func:`minimax` and :func:`expectimax` (no cutoffs;
                       ``bounds=`` hands expectimax to ``chance_pruning``)
``pruning``            :func:`alphabeta` and :func:`negamax`: their cutoffs
                       are decided here
``chance_pruning``     pruning below chance nodes when the leaves are
                       bounded (``expectimax(bounds=(low, high))``, Star1)
``montecarlo``         :func:`mcts` (Monte Carlo tree search, UCT): playouts
                       instead of a full search, its four steps traced
=====================  ====================================================

:func:`minimax`, :func:`alphabeta`, :func:`expectimax` and :func:`negamax`
accept a game tree (a networkx graph, see :mod:`gametrees.trees`) or a game
(see :mod:`gametrees.games`) with an optional start state, and return one
:class:`SearchResult`: ``value``, ``move``, ``stats``, ``trace``, ``graph``.
:func:`mcts` does too (``algorithm == "mcts"``), with its own options
(``playouts``, ``seconds``, ``c``, ``seed``, ``trace``, ``graph``): the
options below are those of the other four.

Options shared by all of them:

``depth`` and ``evaluate``
    Stop ``depth`` plies below the start and score the position with
    ``evaluate(state)`` (a number from MAX's point of view). On a tree the
    default estimate is the node's ``utility`` attribute.
``order``
    ``order(state, moves) -> moves``: the order in which to search the moves.
``table``
    A transposition table: ``True`` for a fresh one, or a dict to reuse
    across calls. ``symmetry=True`` stores positions under
    ``game.canonical(state)`` so symmetric positions share an entry. A
    reused dict keeps its entries in sections, one per algorithm and rule
    (``"alphabeta"``, ``"alphabeta-strict"``, ``"negamax-noprune"`` ...),
    game (the game object itself; a tree by its content, so equal trees
    share and different trees never do), evaluation function and symmetry
    folding: an entry made under one never answers for another. Every node
    but the start is looked up (:func:`~gametrees.rules.table_probe`):
    an entry answers when it settles the window, else a stored bound narrows
    it (a lower bound raises α, an upper bound lowers β), and the flag stored
    after the search compares the value with the window the node searched
    with. Within a
    section an entry remembers how deep it was searched and answers any
    search that wants that depth or less: a depth-limited search after a
    deeper one filled the table can return a different value (and move)
    from the same search with a fresh table, because deeper entries stand
    in for shallower ones (better informed, as lesson 05 shows). Reuse pays
    off for the same search of the same game; for a depth-limited search
    that must match a fresh one, give it a fresh table.
Deep searches
    A search goes at most :data:`~gametrees.trees.MAX_PLIES` (2,000) plies
    deep; a deeper one stops with a ValueError naming the limit.
``time_limit``
    Iterative deepening: search depth 1, 2, 3, ... (up to ``depth``) until
    the time in seconds runs out, trying the best move so far first at the
    root (the start); the result is that of the deepest finished iteration.
    Its value is that of a fixed-depth search to that depth; its move is a
    best move at that depth, but on ties the move the earlier iterations
    found is kept, where the fixed-depth search returns the first best in
    child order.
``trace`` and ``graph``
    Record the search as events (``result.trace``) and build the annotated
    tree (``result.graph``). Default: on for trees, off for games, so that
    solving a game stays fast.
``trace_depth``
    Record only the nodes at most this many plies below the start (e.g. 2
    to show why an agent chose its move without recording a whole game
    tree).

Imports: :mod:`gametrees.rules`, :mod:`gametrees.games`, :mod:`gametrees.trees` and
:mod:`gametrees.trace` (events and the annotated graph); never the layers
built on search (agents, drawing, widgets ...).
"""

from .backed_up import expectimax, minimax
from .engine import SearchResult
from .montecarlo import MCTSResult, mcts
from .pruning import alphabeta, negamax

__all__ = ["MCTSResult", "SearchResult", "alphabeta", "expectimax", "mcts", "minimax", "negamax"]
