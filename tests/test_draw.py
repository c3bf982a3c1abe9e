"""Drawings, checked through their artists (not pictures); PNGs saved for a look.

Set GAMETREES_FIGURES=/some/folder to keep the PNGs this module saves
(default: pytest's temporary folder).
"""

import itertools
import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import networkx as nx
import numpy as np
import pytest
from matplotlib.colors import to_rgb
from matplotlib.markers import MarkerStyle

import gametrees as gt
from gametrees.drawing import TextCollection
from gametrees.games import ConnectFour, TicTacToe

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
THIN = "\u200a"  # a hair space: "≤ 2" that fits in a triangle


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture
def figdir(tmp_path):
    path = Path(os.environ.get("GAMETREES_FIGURES", tmp_path))
    path.mkdir(parents=True, exist_ok=True)
    return path


def layer(ax, gid):
    found = [a for a in ax.collections if a.get_gid() == gid]
    assert len(found) <= 1, gid
    return found[0] if found else None


def texts(ax, gid):
    """node -> string for one text layer (it may hold several strings per node)."""
    coll = layer(ax, gid)
    out = {}
    if coll is not None:
        assert isinstance(coll, TextCollection)
        for node, s in zip(coll.nodes, coll.texts):
            out.setdefault(node, []).append(s)
    return out


def node_status(ax):
    """node -> status, from the marker collections."""
    out = {}
    for c in ax.collections:
        gid = c.get_gid() or ""
        if gid.startswith("nodes:"):
            for n in c.nodes:
                assert n not in out, f"{n} drawn twice"
                out[n] = gid.split(":")[1]
    return out


def edge_style(ax):
    out = {}
    for c in ax.collections:
        gid = c.get_gid() or ""
        if gid.startswith("edges:"):
            for e in c.edges:
                out[e] = gid.split(":")[1]
    return out


# ----------------------------------------------------------------------------
# The textbook tree
# ----------------------------------------------------------------------------


def test_textbook_alphabeta_values_and_pruned_leaves(figdir):
    T = gt.tree_from_nested(TEXTBOOK)
    r = gt.alphabeta(T)
    ax = gt.draw(r)
    ax.figure.savefig(figdir / "textbook.png")
    values = texts(ax, "values")
    inner = [(), (0,), (1,), (2,)]
    assert [values[n][0] for n in inner] == ["3", "3", f"≤{THIN}2", "2"]
    # The numbers without the bound sign: 3, 3, 2, 2; C's is only an upper bound.
    assert [values[n][0].replace(f"≤{THIN}", "") for n in inner] == ["3", "3", "2", "2"]
    # Each value is drawn at its node's position.
    coll = layer(ax, "values")
    pos = gt.tidy_layout(T)
    for node, xy in zip(coll.nodes, coll.get_offsets()):
        assert tuple(xy) == pytest.approx(pos[node])
    # Exactly the two pruned leaves are drawn as pruned: grey, dashed, cut.
    status = node_status(ax)
    assert set(status) == set(T)
    assert {n for n, s in status.items() if s == "pruned"} == {(1, 1), (1, 2)}
    assert {s for n, s in status.items() if n not in {(1, 1), (1, 2)}} == {"done"}
    pruned = layer(ax, "nodes:pruned")
    assert all(ls[1] is not None for ls in pruned.get_linestyle())  # dashed outline
    edges = edge_style(ax)
    assert {e for e, s in edges.items() if s == "pruned"} == {((1,), (1, 1)), ((1,), (1, 2))}
    assert layer(ax, "edges:pruned").get_linestyle()[0][1] is not None
    assert set(layer(ax, "cut-marks").edges) == {((1,), (1, 1)), ((1,), (1, 2))}
    # The principal variation A-B-E is bold.
    assert {e for e, s in edges.items() if s == "best"} == {((), (0,)), ((0,), (0, 0))}
    assert layer(ax, "edges:best").get_linewidth()[0] > 2 * layer(ax, "edges:plain").get_linewidth()[0]
    # Labels A..M beside the nodes, a legend, a summary title.
    assert texts(ax, "labels")[(1,)] == ["C"]
    assert ax.get_legend() is not None
    assert ax.get_title(loc="left") == "alphabeta: value 3, 11 nodes visited, 7 leaves evaluated"


def test_shapes_max_min_chance_leaf(figdir):
    E = gt.tree_from_nested([{"chance": [3, [1, 5], 9], "p": [0.5, 0.3, 0.2]}, {"chance": [2, 4]},
                             [8, {"chance": [10, 0]}]])
    r = gt.expectimax(E)
    ax = gt.draw(r)
    ax.figure.savefig(figdir / "expectimax.png")
    marker = {}
    for c in ax.collections:
        if (c.get_gid() or "").startswith("nodes:"):
            marker[c.kind] = c.get_paths()[0].vertices
    for kind, m in [("max", "^"), ("min", "v"), ("chance", "o"), ("leaf", "s")]:
        style = MarkerStyle(m)
        expected = style.get_path().transformed(style.get_transform()).vertices
        assert np.allclose(marker[kind], expected), kind
    values = texts(ax, "values")
    assert values[(0,)] == ["3.6"]  # 0.5 * 3 + 0.3 * min(1, 5) + 0.2 * 9
    assert values[()] == ["5"]
    assert "0.3" in [s for ss in texts(ax, "moves").values() for s in ss]  # probabilities on chance edges


def test_random_four_ply_alphabeta(figdir):
    R = gt.random_tree(3, 4, seed=4)
    r = gt.alphabeta(R)
    ax = gt.draw(r)
    ax.figure.savefig(figdir / "random_4ply.png")
    status = node_status(ax)
    for n, s in status.items():
        assert s == {"visited": "done", "pruned": "pruned"}[r.graph.nodes[n]["status"]]
    values = texts(ax, "values")
    bound = {"upper": "≤" + THIN, "lower": "≥" + THIN, "exact": ""}
    for n, attrs in r.graph.nodes(data=True):
        if attrs["status"] == "visited":
            assert values[n] == [bound[attrs["bound"]] + str(attrs["value"])]
    nodes = r.graph.nodes
    assert set(layer(ax, "cut-marks").edges) == {
        (u,
         v) for u, v in r.graph.edges if nodes[v]["status"] == "pruned" and nodes[u]["status"] == "visited"}


def test_ragged_tree_is_drawn_without_overlap(figdir):
    G = gt.tree_from_nested([7, [[1, 2], [3, [4, 9, 1]]], [5], [[6, 2], 8]])
    ax = gt.draw(gt.alphabeta(G))
    ax.figure.savefig(figdir / "ragged.png")
    R = gt.random_tree((1, 4), 4, seed=11)
    ax = gt.draw(gt.alphabeta(R))
    ax.figure.savefig(figdir / "ragged_random.png")
    # Markers of one level never overlap: centres at least one marker apart in points.
    fig = ax.figure
    fig.canvas.draw()
    to_pt = ax.transData.transform
    rows = {}
    for c in ax.collections:
        if (c.get_gid() or "").startswith("nodes:"):
            size = np.sqrt(c.get_sizes()[0])
            for xy in c.get_offsets():
                x = to_pt(xy)[0] * 72 / fig.dpi
                rows.setdefault(round(xy[1], 6), []).append((x, size))
    for row in rows.values():
        row.sort()
        for (x0, s0), (x1, s1) in itertools.pairwise(row):
            assert x1 - x0 >= (s0 + s1) / 2


def test_a_plain_tree_shows_leaf_utilities_only():
    ax = gt.draw(gt.tree_from_nested(TEXTBOOK))
    values = texts(ax, "values")
    assert set(values) == {(i, j) for i in range(3) for j in range(3)}
    assert set(node_status(ax).values()) == {"plain"}
    assert ax.get_title(loc="left") == ""


def test_values_false_is_an_exercise_sheet():
    ax = gt.draw(gt.minimax(gt.tree_from_nested(TEXTBOOK)), values=False)
    assert set(texts(ax, "values")) == {(i, j) for i in range(3) for j in range(3)}


def test_windows_beside_nodes():
    r = gt.alphabeta(gt.tree_from_nested(TEXTBOOK))
    ax = gt.draw(r, windows=True)
    w = texts(ax, "windows")
    assert w[()] == ["α=3", "β=+∞"] and w[(1,)] == ["α=3", "β=+∞"]
    assert w[(0,)] == ["α=\u2212∞", "β=3"]
    assert set(w) == {(), (0,), (1,), (2,)}


# ----------------------------------------------------------------------------
# Frames
# ----------------------------------------------------------------------------


def test_frames_show_values_as_they_are_computed(figdir):
    r = gt.alphabeta(gt.tree_from_nested(TEXTBOOK))
    ax = gt.draw(r, k=3)  # E returns 3 to B
    values, status = texts(ax, "values"), node_status(ax)
    assert values[(0,)] == [f"≤{THIN}3"]  # MIN's value so far: it can only go down
    assert values[(0, 0)] == ["3"] and status[(0, 0)] == "done"
    assert status[()] == status[(0,)] == "active"
    assert status[(1,)] == status[(2, 2)] == "todo"
    assert layer(ax, "current").nodes == ((0,),)
    assert texts(ax, "windows")[(0,)] == ["α=\u2212∞", "β=3"]  # the window on the current path
    assert "Step 4 of 26" in ax.get_title(loc="left")
    ax = gt.draw(r, k=13)  # the cutoff at C
    ax.figure.savefig(figdir / "textbook_cutoff_frame.png")
    status = node_status(ax)
    assert status[(1, 1)] == status[(1, 2)] == "pruned"
    assert status[(2,)] == "todo"
    assert set(layer(ax, "cut-marks").edges) == {((1,), (1, 1)), ((1,), (1, 2))}
    # The last frame looks like the finished search.
    last = gt.draw(r, k=-1)
    done = gt.draw(r)
    assert texts(last, "values") == texts(done, "values")
    assert node_status(last) == node_status(done)
    assert {e for e, s in edge_style(last).items() if s == "best"} == {
        e for e, s in edge_style(done).items() if s == "best"}


def test_a_frame_drawn_on_its_tree_equals_the_result_step():
    r = gt.alphabeta(gt.tree_from_nested(TEXTBOOK))
    for k in (0, 9, 17):
        a = gt.draw(r, k=k)
        b = gt.draw(gt.frame(r.trace, k), tree=r.graph)
        c = gt.draw(gt.frame(r.trace, k), tree=r)
        for gid in ("values", "windows", "labels"):
            assert texts(a, gid) == texts(b, gid) == texts(c, gid)
        assert node_status(a) == node_status(b) == node_status(c)


def test_a_frame_of_a_game_search_with_boards(figdir):
    game = TicTacToe()
    r = gt.alphabeta(game, TicTacToe.from_string("XO./.X./O.."), trace=True, trace_depth=2)
    ax = gt.draw(r, boards=game, k=20)
    ax.figure.savefig(figdir / "ttt_frame.png")
    assert layer(ax, "current").nodes == (r.trace[20].node,)
    assert layer(ax, "board-x") is not None


# ----------------------------------------------------------------------------
# Boards
# ----------------------------------------------------------------------------


def test_tictactoe_tree_with_boards(figdir):
    game = TicTacToe()
    r = gt.alphabeta(game, TicTacToe.from_string("XO./.X./O.."), trace=True, trace_depth=2)
    ax = gt.draw(r, boards=game)
    ax.figure.savefig(figdir / "ttt_boards.png")
    assert set(node_status(ax)) == set(r.graph)
    values = texts(ax, "values")
    assert values[()] == ["▲ 1"]  # X (MAX) to move, and X wins
    assert values[(8,)] == ["■ 1"]  # X completes the diagonal: a terminal position
    # X marks: two strokes per X on every board; O rings.
    xs = sum(TicTacToe.to_string(r.graph.nodes[n]["state"]).count("X") for n in r.graph)
    assert len(layer(ax, "board-x").get_segments()) == 2 * xs
    os_ = sum(TicTacToe.to_string(r.graph.nodes[n]["state"]).count("O") for n in r.graph)
    assert sum(len(c.get_offsets()) for c in ax.collections if c.get_gid() == "board-o") == os_
    # With boards, no shapes and no A, B, C labels.
    assert layer(ax, "labels") is None


def test_connect_four_tree_with_boards(figdir):
    game = ConnectFour(4, 5, 3)
    r = gt.alphabeta(game, game.from_moves([2, 2, 1]), depth=3, evaluate=lambda s: 0, trace=True,
                     trace_depth=2)
    ax = gt.draw(r, boards=game, max_children=3)
    ax.figure.savefig(figdir / "c4_boards.png")
    assert len(node_status(ax)) < r.graph.number_of_nodes()
    assert any(t.startswith("+") for ts in texts(ax, "ellipsis").values() for t in ts)


def test_an_expanded_game_tree_with_boards():
    G = gt.expand(TicTacToe(), TicTacToe.from_string("XOX/OX./..."), depth=2)
    ax = gt.draw(G, boards=TicTacToe())
    assert set(node_status(ax)) == set(G)


# ----------------------------------------------------------------------------
# Limits, options, side by side
# ----------------------------------------------------------------------------


def test_large_trees_are_cut_with_an_ellipsis():
    r = gt.alphabeta(gt.random_tree(3, 6, seed=1))
    ax = gt.draw(r)
    drawn = node_status(ax)
    assert 40 < len(drawn) <= 500 < r.graph.number_of_nodes()
    hidden = texts(ax, "ellipsis")
    assert hidden and all(s[0].startswith("…") for s in hidden.values())
    assert any(t.get_gid() == "note" for t in ax.texts)
    # A few hundred nodes are drawn in full (and wide: 208 leaves side by side).
    r = gt.alphabeta(gt.random_tree((2, 4), 5, seed=0))
    assert r.graph.number_of_nodes() == 309
    ax = gt.draw(r)
    assert len(node_status(ax)) == 309
    assert ax.figure.get_figwidth() <= 100


def test_max_depth_max_children_and_nodes():
    r = gt.alphabeta(gt.tree_from_nested(TEXTBOOK))
    ax = gt.draw(r, max_depth=1)
    assert set(node_status(ax)) == {(), (0,), (1,), (2,)}
    assert texts(ax, "ellipsis") == {(0,): ["… 3"], (1,): ["… 3"], (2,): ["… 3"]}
    ax = gt.draw(r, max_children=1)
    assert set(node_status(ax)) == {(), (0,), (0, 0)}
    ax = gt.draw(r, nodes=[(), (2,), (2, 1)])
    assert set(node_status(ax)) == {(), (2,), (2, 1)}
    with pytest.raises(ValueError, match=r"not its parent \(1,\)"):
        gt.draw(r, nodes=[(), (1, 1)])
    with pytest.raises(ValueError, match="must include the root"):
        gt.draw(r, nodes=[(1,)])


def test_drawing_onto_a_given_axes_makes_no_new_figure():
    _, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    before = plt.get_fignums()
    r = gt.alphabeta(gt.tree_from_nested(TEXTBOOK))
    assert gt.draw(r, right) is right
    assert plt.get_fignums() == before
    assert layer(right, "values") is not None and layer(left, "values") is None


def test_side_by_side_shows_both_counts(figdir):
    T = gt.tree_from_nested(TEXTBOOK)
    fig = gt.side_by_side(gt.minimax(T), gt.alphabeta(T))
    fig.savefig(figdir / "side_by_side.png")
    titles = [ax.get_title(loc="left").replace("\n", " ") for ax in fig.axes]  # wrapped to half the column
    assert fig.get_figwidth() * fig.dpi <= gt.drawing.MAX_FIGURE_PX[0] + 0.5
    assert titles == ["minimax: value 3, 13 nodes visited, 9 leaves evaluated",
                      "alphabeta: value 3, 11 nodes visited, 7 leaves evaluated"]
    left, right = fig.axes
    assert "pruned" not in node_status(left).values()
    assert list(node_status(right).values()).count("pruned") == 2
    B, W = gt.random_tree(3, 3, seed=2, ordering="best"), gt.random_tree(3, 3, seed=2, ordering="worst")
    fig = gt.side_by_side(gt.alphabeta(B), gt.alphabeta(W), titles=("best first", "worst first"))
    fig.savefig(figdir / "best_vs_worst.png")
    best, worst = (ax.get_title(loc="left") for ax in fig.axes)
    assert best.startswith("best first: value") and worst.startswith("worst first: value")
    counts = [gt.alphabeta(T).stats["nodes_visited"] for T in (B, W)]
    assert f"{counts[0]} nodes visited" in best and f"{counts[1]} nodes visited" in worst
    assert counts[0] < counts[1]


def test_status_reads_in_greyscale():
    # Each node status differs from every other by line style or by lightness.
    from gametrees.drawing.painter import _NODE_STYLE, _TINT

    def grey(c):
        r, g, b = to_rgb(c)
        return 0.299 * r + 0.587 * g + 0.114 * b

    looks = {}
    for style in ("done", "active", "todo", "pruned"):
        face, edge, lw, ls, _ = _NODE_STYLE[style]
        looks[style] = (ls, round(grey(face or _TINT["max"]), 1), round(grey(edge), 1), lw)
    assert len(set(looks.values())) == len(looks)


# ----------------------------------------------------------------------------
# Bad input
# ----------------------------------------------------------------------------


def test_bad_input_gets_a_clear_error():
    T = gt.tree_from_nested(TEXTBOOK)
    r = gt.alphabeta(T)
    with pytest.raises(TypeError, match="draw expects a game tree .* got int"):
        gt.draw(42)
    with pytest.raises(TypeError, match="got a trace"):
        gt.draw(r.trace)
    no_graph = gt.alphabeta(TicTacToe(), TicTacToe.from_string("XO./.X./O.."))
    with pytest.raises(ValueError, match="search with trace=True"):
        gt.draw(no_graph)
    graph_only = gt.alphabeta(T, trace=False, graph=True)
    with pytest.raises(ValueError, match="no trace: search with trace=True"):
        gt.draw(graph_only, k=2)
    with pytest.raises(ValueError, match="out of range"):
        gt.draw(r, k=100)
    with pytest.raises(ValueError, match="needs the tree"):
        gt.draw(gt.frame(r.trace, 3))
    with pytest.raises(ValueError, match="not in the tree"):
        gt.draw(gt.frame(r.trace, 3), tree=gt.tree_from_dict({"A": {"player": "max", "children": ["B"]},
                                                                "B": 1}))
    with pytest.raises(TypeError, match="k= is for a SearchResult"):
        gt.draw(T, k=1)
    with pytest.raises(TypeError, match="boards must be a TicTacToe"):
        gt.draw(r, boards="tictactoe")
    with pytest.raises(ValueError, match="has none"):
        gt.draw(r, boards=TicTacToe())
    with pytest.raises(TypeError, match="ax must be a matplotlib Axes"):
        gt.draw(r, ax="left")
    with pytest.raises(TypeError, match="labels must be True, False or None"):
        gt.draw(r, labels="yes")
    with pytest.raises(ValueError, match="max_depth must be >= 0"):
        gt.draw(r, max_depth=-1)
    H = nx.DiGraph([(1, 2)])
    with pytest.raises(ValueError, match="no 'root'"):
        gt.draw(H)
    H.graph["root"] = 1
    H.add_edge(2, 1)
    with pytest.raises(ValueError, match="cycle"):
        gt.draw(H)
    K = nx.DiGraph([(1, 2)], root=1)
    with pytest.raises(ValueError, match="inner node 1 has player None"):
        gt.draw(K)
    J = nx.DiGraph([(1, 2), (3, 4)], root=1)
    with pytest.raises(ValueError, match="cannot be reached"):
        gt.draw(J)
    with pytest.raises(TypeError, match="titles must be a pair"):
        gt.side_by_side(r, r, titles="x")
    with pytest.raises(TypeError, match="must be a game tree"):
        gt.side_by_side(r, 3)


def test_empty_labels_draw_as_no_text():
    """A label set to "" (lesson 05 blanks every label but the table's) draws, and leaves no text."""
    T = gt.tree_from_nested([[1, 2], [3]])
    for n in T:
        T.nodes[n]["label"] = "" if n != (1,) else "table"
    ax = gt.draw(T, labels=True, values=False)
    assert texts(ax, "labels") == {(1,): ["table"]}    # the blank labels leave no text at all
    assert gt.drawing.overlaps(ax, T) == []
    plt.close(ax.figure)
