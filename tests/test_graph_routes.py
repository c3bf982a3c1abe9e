"""The annotated graph is the same whichever way it was made: written by the search as it goes
(``graph=True, trace=False``: :class:`gametrees.trace.GraphRecorder`) or from its trace afterwards
(``trace=True``: :func:`gametrees.trace.annotate`), for every search, rule and option.

Same means the same nodes, edges and graph attributes, every attribute dict with the same keys in
the same order, the same successors and predecessors in the same order.
"""

import copy
import math
import pickle

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gametrees as gt
from gametrees.trace import GraphRecorder, Recorder, annotate, replay


def evaluation(node):
    """A depth limit's estimate for any node (a tree's inner nodes have none)."""
    return hash(node) % 9 - 4


def reverse(state, moves):
    return moves[::-1]


#: Every search, with the options that change what its graph shows (rule, cutoffs below chance
#: nodes, table hits, estimates, order, a window, the plies traced).
SEARCHES = {
    "minimax": lambda G, **kw: gt.minimax(G, **kw),
    "minimax, depth 2": lambda G, **kw: gt.minimax(G, depth=2, evaluate=evaluation, **kw),
    "minimax, table": lambda G, **kw: gt.minimax(G, table=True, **kw),
    "minimax, reversed, 1 ply traced": lambda G, **kw: gt.minimax(G, order=reverse, trace_depth=1, **kw),
    "alphabeta": lambda G, **kw: gt.alphabeta(G, **kw),
    "alphabeta, strict": lambda G, **kw: gt.alphabeta(G, strict=True, **kw),
    "alphabeta, table": lambda G, **kw: gt.alphabeta(G, table=True, **kw),
    "alphabeta, strict, table, reversed": lambda G, **kw: gt.alphabeta(G, strict=True, table=True,
                                                                       order=reverse, **kw),
    "alphabeta, depth 2, table": lambda G, **kw: gt.alphabeta(G, depth=2, evaluate=evaluation, table=True,
                                                              **kw),
    "alphabeta, window (-1, 1)": lambda G, **kw: gt.alphabeta(G, window=(-1, 1), **kw),
    "alphabeta, 2 plies traced": lambda G, **kw: gt.alphabeta(G, trace_depth=2, **kw),
    "negamax": lambda G, **kw: gt.negamax(G, **kw),
    "negamax, strict, table": lambda G, **kw: gt.negamax(G, strict=True, table=True, **kw),
    "negamax, no pruning, depth 2": lambda G, **kw: gt.negamax(G, prune=False, depth=2, evaluate=evaluation,
                                                               **kw),
    "expectimax": lambda G, **kw: gt.expectimax(G, **kw),
    "expectimax, table": lambda G, **kw: gt.expectimax(G, table=True, **kw),
    "expectimax, bounds (Star1)": lambda G, **kw: gt.expectimax(G, bounds=(-4, 4), **kw),
    "expectimax, bounds, depth 2": lambda G, **kw: gt.expectimax(G, bounds=(-4, 4), depth=2,
                                                                 evaluate=evaluation, **kw),
}
WITH_CHANCE = {name for name in SEARCHES if name.startswith("expectimax")}


@st.composite
def trees(draw, chance=False, shared=True):
    """Random trees: ragged, with ties, some (``shared``) with a node of two parents (table hits), some
    with attributes of their own (a snapshot copies them)."""
    players = (("max", "chance", "min", "chance") if chance and draw(st.booleans())
               else (draw(st.sampled_from(["max", "min"])),))
    if len(players) == 1:
        players = ("max", "min") if players[0] == "max" else ("min", "max")
    G = gt.random_tree(draw(st.sampled_from([(1, 3), (2, 3), (1, 4)])), draw(st.integers(1, 4)),
                       seed=draw(st.integers(0, 2**32 - 1)), values=(-4, 4), players=players)
    inner = [n for n in G if G.out_degree(n) and G.nodes[n]["player"] != "chance"]
    for _ in range(draw(st.integers(0, 2 if shared else 0))):  # a second parent for a node further down
        u = draw(st.sampled_from(inner))
        below = [v for v in G if len(v) > len(u) + 1 and v[: len(u)] != u and not G.has_edge(u, v)]
        if below:
            G.add_edge(u, draw(st.sampled_from(sorted(below))))
    if draw(st.booleans()):
        for n in G:
            G.nodes[n]["note"] = len(n)
        for u, v in G.edges:
            G.edges[u, v]["move"] = f"to {G.nodes[v]['label']}"
    return G


def shape(G):
    """Everything a reader of ``G`` can see, in order: graph, nodes, edges, predecessors (keys in order)."""
    return (type(G), list(G.graph.items()),
            [(n, list(attrs.items())) for n, attrs in G.nodes(data=True)],
            [(u, v, list(attrs.items())) for u, v, attrs in G.edges(data=True)],
            [(v, list(G.pred[v].items())) for v in G])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_graph_a_search_writes_is_the_graph_of_its_trace(data):
    G = data.draw(trees(chance=True))
    has_chance = any(p == "chance" for _, p in G.nodes(data="player"))
    for name, search in SEARCHES.items():
        if has_chance and name not in WITH_CHANCE:
            continue
        traced = search(G, trace=True)
        written = search(G, trace=False, graph=True)
        assert written.trace is None and traced.trace is not None
        assert (written.value, written.move, written.stats) == (traced.value, traced.move, traced.stats)
        assert shape(written.graph) == shape(traced.graph), name
        H = written.graph  # an edge's dict is the same object seen from both ends, as networkx has it
        assert all(H.pred[v][u] is H.succ[u][v] for u, v in H.edges)


def test_a_graph_written_by_the_search_shows_the_tree_as_it_was_searched():
    G = gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    r = gt.alphabeta(G, trace=False, graph=True)
    G.nodes[(0, 0)]["utility"] = 100
    G.remove_node((1, 2))
    H = r.graph
    assert H.nodes[(0, 0)]["utility"] == 3 and (1, 2) in H and H.nodes[(1, 2)]["status"] == "pruned"
    assert r.graph is H and H.graph["algorithm"] == "alphabeta"
    assert H.graph["nodes_visited"] == r.stats["nodes_visited"]
    assert [n for n, s in H.nodes(data="status") if s == "pruned"] == [(1, 1), (1, 2)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees(shared=False), st.sampled_from(["alphabeta", "alphabeta, strict", "minimax, table", "negamax"]),
       st.data())
def test_a_trace_that_stops_inside_a_search_shows_its_last_frame(G, name, data):
    """A partial trace's graph: each node reached as the replay's frame has it at that step.

    (On a tree: a node entered again through its second parent is numbered anew in the graph's
    ``order``, by the count of nodes reached, where a frame keeps the count of distinct nodes.)"""
    trace = SEARCHES[name](G, trace=True).trace
    k = data.draw(st.integers(0, len(trace) - 1))
    H = annotate(trace[: k + 1], G)
    f = gt.frame(trace, k)
    for n, attrs in H.nodes(data=True):
        if n in f.order:
            assert attrs["status"] == "visited" and attrs["order"] == f.order[n]
            assert attrs.get("value") == f.values.get(n)
            assert (attrs.get("alpha"), attrs.get("beta")) == (f.alpha.get(n), f.beta.get(n))
        else:
            assert attrs["status"] in ("unvisited", "pruned")
    n, line = G.graph["root"], []
    while n in f.best:
        line.append((n, f.best[n]))
        n = f.best[n]
    assert [(u, v) for u, v, best in H.edges(data="best") if best] == line


def test_replaying_a_trace_makes_the_same_calls():
    G = gt.random_tree((1, 3), 4, seed=5, values=(-3, 3), players=("max", "chance", "min", "chance"))
    for r in [gt.alphabeta(gt.random_tree(3, 3, seed=2), table=True, strict=True),
              gt.expectimax(G, bounds=(-3, 3)), gt.minimax(gt.Nim(5), trace=True, table=True),
              gt.mcts(gt.TicTacToe(), playouts=30, seed=1, trace=True)]:
        again = Recorder(r.trace[0].names)
        replay(r.trace, again)
        assert again.log == r.trace and [type(e) for e in again.log] == [type(e) for e in r.trace]


def test_a_graph_recorder_writes_only_on_the_nodes_reached():
    G = nx.DiGraph(root="A")
    G.add_edges_from([("A", "B", {"best": False}), ("A", "C", {"best": False})])
    nx.set_node_attributes(G, "unvisited", "status")
    rec = GraphRecorder(G)
    rec.enter("A", None, 0, "max", -math.inf, math.inf, "A")
    rec.leaf("B", "A", 1, 5, "B")
    rec.update("A", None, 0, "max", 5, 5, math.inf, "A", "B", 5, True, True)
    rec.prune("A", None, 0, "max", 5, 5, math.inf, "A", ("C",), ("C",), ("C",), False)
    rec.exit("A", None, 0, "max", 5, 5, math.inf, "A", "lower", "B")
    assert rec.unfinished() == []
    H = rec.finish("alphabeta", {"nodes_visited": 2, "leaves_evaluated": 1, "cutoffs": 1})
    assert dict(H.nodes(data="status")) == {"A": "visited", "B": "visited", "C": "pruned"}
    assert H.nodes["A"] == {"status": "visited", "order": 1, "alpha": 5, "beta": math.inf, "value": 5,
                            "bound": "lower"}
    assert H.graph == {"root": "A", "algorithm": "alphabeta", "nodes_visited": 2, "leaves_evaluated": 1}
    assert [e for e in H.edges(data="best")] == [("A", "B", True), ("A", "C", False)]


def test_a_graph_written_by_the_search_pickles_and_copies_like_any_graph():
    H = gt.alphabeta(gt.random_tree(3, 3, seed=4), trace=False, graph=True).graph
    for K in (pickle.loads(pickle.dumps(H)), H.copy()):
        assert shape(K) == shape(H)


def _fresh_pair():
    """A search's graph, its index of predecessors not built yet, and a plain DiGraph made alike."""
    G = gt.tree_from_nested([[3, 12, 8], [2, [4, 1], 6], [14, 5, 2]])
    G.add_edge((0,), (1, 1))  # a node with two parents
    H = gt.alphabeta(G, trace=False, graph=True).graph
    assert "_pred" not in vars(H) or vars(H)["_pred"] is None  # (not built: what these tests are about)
    plain = nx.DiGraph()
    plain.graph.update(H.graph)
    plain.add_nodes_from(H.nodes(data=True))
    plain.add_edges_from((u, v, dict(d)) for u, v, d in H.edges(data=True))
    return H, plain


def _seen(G):
    """What a reader sees of ``G``, the predecessors first (from the index when first used)."""
    return ([(v, list(G.predecessors(v))) for v in G], [dict(G.pred[v]) for v in G], list(G.in_degree),
            list(G.in_edges(data=True)), shape(G)[1:])


#: What a reader or networkx may do first with a search's graph.
FIRST_USES = {
    "read": lambda G: None,
    "ancestors": lambda G: sorted(nx.ancestors(G, (1, 1, 0))),
    "remove an edge": lambda G: G.remove_edge((1,), (1, 1)),
    "remove edges": lambda G: G.remove_edges_from([((1,), (1, 1)), ((), (2,))]),
    "remove a node": lambda G: G.remove_node((1, 1)),
    "remove nodes": lambda G: G.remove_nodes_from([(1, 1), (2,)]),
    "add an edge": lambda G: G.add_edge((2, 0), "new", move="x"),
    "add edges between nodes": lambda G: G.add_edges_from([((2,), (1, 1)), ((1, 1, 0), "z")]),
    "add a node": lambda G: G.add_node("alone", label="Z"),
    "clear the edges": lambda G: G.clear_edges(),
    "update": lambda G: G.update(edges=[((0,), "w")], nodes=["v"]),
    "subgraph": lambda G: _seen(G.subgraph([(), (1,), (1, 1), (0,), (1, 1, 0)])),
    "reverse view": lambda G: _seen(nx.reverse_view(G)),
    "reverse": lambda G: _seen(G.reverse()),
    "copy": lambda G: _seen(G.copy()),
    "pickle": lambda G: _seen(pickle.loads(pickle.dumps(G))),
    "deepcopy": lambda G: _seen(copy.deepcopy(G)),
    "dag functions": lambda G: (list(nx.topological_sort(G)), nx.is_directed_acyclic_graph(G)),
}


@pytest.mark.parametrize("use", FIRST_USES)
def test_a_search_graph_answers_as_a_plain_digraph_whatever_is_done_with_it_first(use):
    H, plain = _fresh_pair()
    assert FIRST_USES[use](H) == FIRST_USES[use](plain)
    assert _seen(H) == _seen(plain)
    for G in (H, plain):  # and stays one after
        G.remove_nodes_from([(0,)])
        G.add_edge((2,), "last")
    assert _seen(H) == _seen(plain)


def test_a_shallow_copy_shares_the_index_as_a_plain_digraph_does():
    H, _ = _fresh_pair()
    twin = copy.copy(H)
    twin.remove_edge((1,), (1, 1))
    assert list(H.predecessors((1, 1))) == [(0,)] and H.pred is not None
    assert isinstance(H, nx.DiGraph) and str(H).endswith(f"with {len(H)} nodes and {H.size()} edges")


def test_iterative_deepening_asked_for_its_graph_shows_its_deepest_finished_iteration():
    G = gt.random_tree((1, 3), 4, seed=8, values=(-4, 4))
    written = gt.alphabeta(G, time_limit=30, evaluate=evaluation, trace=False, graph=True)
    traced = gt.alphabeta(G, time_limit=30, evaluate=evaluation, trace=True)
    assert written.trace is None and written.stats == traced.stats
    assert shape(written.graph) == shape(traced.graph)
    assert written.graph.nodes[G.graph["root"]]["value"] == gt.alphabeta(G).value
