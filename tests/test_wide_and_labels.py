"""Issue 32, items 8-10: very wide trees, control characters in labels, and the smaller edges.

* Wide trees: a figure draws at most ``max_nodes // 2`` nodes side by side; levels are cut from the
  bottom, and a tree too wide even one level under its root is refused (``TreeTooWide``, naming the
  node) before any search, layout or drawing, so it fails at once.
* Control characters in labels, moves and titles reach no file raw: SVG stays XML, a .tex has none.
* animate's fps and hold, tree_from_dict's node names and move labels, tournament's game, export's
  legend and standalone, and what ``SearchResult.move`` promises under ``time_limit``.
"""

import io
import json
import random
import re
import xml.etree.ElementTree as ET

import matplotlib.pyplot as plt
import pytest

import gametrees as gt
from gametrees.cli import MAX_PLAYOUTS, MAX_SECONDS, main
from gametrees.drawing import MAX_DRAWN_NODES, TreeTooWide, check_size
from gametrees.exports import FPS_RANGE
from gametrees.trees import MAX_PLIES
from gametrees.widgets.explore_widget import MAX_NODES, parse_tree

CONTROL = "".join(chr(c) for c in (*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F, 0x85, 0x9F))
# What XML 1.0 refuses, and what a .tex must not carry raw.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
RAW_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def wide(n):
    return gt.tree_from_nested(list(range(n)))


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# ----------------------------------------------------------------------------
# 8. Very wide trees
# ----------------------------------------------------------------------------


def no_work(what):
    def refuse(*args, **kwargs):
        raise AssertionError(f"{what} ran before the tree was refused")
    return refuse


def forbid_work(monkeypatch):
    """Searching, walking or laying out the tree fails the test: a refusal must come first.

    (How fast that is, is measured by benchmarks/wide_trees.py: 0.1 ms for 20,000 children.)
    """
    import gametrees.cli
    import gametrees.drawing.scene
    import gametrees.exports.flavours
    import gametrees.widgets.explore_widget

    for name in ("alphabeta", "minimax", "expectimax"):
        monkeypatch.setattr(gametrees.exports.flavours, name, no_work(name))
    for name in ("tidy_layout", "tree_children"):
        monkeypatch.setattr(gametrees.drawing.scene, name, no_work(name))
    monkeypatch.setattr(gametrees.widgets.explore_widget, "tree_from_nested", no_work("building the tree"))
    monkeypatch.setattr(gametrees.cli, "tree_from_nested", no_work("building the tree"))
    monkeypatch.setattr(gametrees.cli, "tree_from_dict", no_work("building the tree"))


@pytest.fixture
def refused_before_work(monkeypatch):
    forbid_work(monkeypatch)


def test_the_20000_child_export_is_refused_before_any_search_or_layout(tmp_path, refused_before_work):
    tree = wide(20_000)
    with pytest.raises(TreeTooWide) as caught:
        gt.export(tree, tmp_path / "w.png")
    message = str(caught.value)
    assert "node A (())" in message and "20,000 children" in message
    assert "max_nodes=500" in message and "max_children" in message
    assert isinstance(caught.value, ValueError) and caught.value.node == ()
    assert not (tmp_path / "w.png").exists()
    for call in (lambda: gt.draw(tree), lambda: gt.to_tikz(tree), lambda: check_size(tree),
                 lambda: gt.export(tree, tmp_path / "w.svg", flavour="question", max_children=300)):
        with pytest.raises(TreeTooWide):
            call()


@pytest.mark.parametrize("writer", [
    lambda T, d: gt.draw(T),
    lambda T, d: gt.export(T, d / "t.svg"),
    lambda T, d: gt.export(T, d / "t.tex"),
    lambda T, d: gt.to_tikz(T),
    lambda T, d: gt.export(T, d / "q.pdf", flavour="question"),
    lambda T, d: gt.animate(gt.minimax(T), d / "t.gif"),
])
def test_every_output_refuses_the_root_with_too_many_children(writer, tmp_path):
    with pytest.raises(TreeTooWide, match="251 children"):
        writer(wide(251), tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_the_limit_is_half_of_max_nodes_and_a_tree_at_the_limit_is_drawn():
    ax = gt.draw(wide(250))  # 250 side by side: max_nodes=500 allows it
    drawn = next(c for c in ax.collections if c.get_gid() == "values")
    assert len(drawn.texts) == 250
    with pytest.raises(TreeTooWide, match="max_nodes=100"):
        gt.draw(wide(51), max_nodes=100)
    gt.draw(wide(50), max_nodes=100)


def test_a_wide_level_below_the_root_is_cut_not_refused():
    tree = gt.tree_from_nested([list(range(5_000)), [1, 2]])
    ax = gt.draw(tree)
    note = next(t for t in ax.texts if t.get_gid() == "note")
    assert "top 1 of 2 levels" in note.get_text()
    ellipsis = next(c for c in ax.collections if c.get_gid() == "ellipsis")
    assert "… 5000" in ellipsis.texts


def test_the_refusal_names_a_named_root_and_counts_its_children():
    tree = gt.tree_from_dict({"top": {"player": "chance", "children": [f"c{i}" for i in range(300)]},
                              **{f"c{i}": i for i in range(300)}})
    with pytest.raises(TreeTooWide, match="node 'top' has 300 children"):
        check_size(tree)


@pytest.mark.slow
def test_max_children_and_nodes_make_a_wide_tree_drawable():
    tree = wide(20_000)
    ax = gt.draw(tree, max_children=10)
    ellipsis = next(c for c in ax.collections if c.get_gid() == "ellipsis")
    assert list(ellipsis.texts) == ["+19990 …"]
    ax = gt.draw(tree, nodes=[(), (0,), (1,)])
    assert len(next(c for c in ax.collections if c.get_gid() == "values").texts) == 2
    ax = gt.draw(tree, max_depth=0)
    assert [c.get_gid() for c in ax.collections if c.get_gid() == "nodes:plain"]
    with pytest.raises(TreeTooWide, match="300 children"):
        gt.draw(tree, max_children=300)


@pytest.mark.parametrize("max_nodes, error, words", [
    (MAX_DRAWN_NODES + 1, ValueError, f"1..{MAX_DRAWN_NODES:,}"),
    (10**9, ValueError, "max_nodes must be in"),
    (0, ValueError, "max_nodes must be in"),
    (2.5, TypeError, "max_nodes must be an int"),
    (True, TypeError, "max_nodes must be an int"),
])
def test_max_nodes_has_a_ceiling(max_nodes, error, words, tmp_path):
    for call in (lambda: gt.draw(wide(3), max_nodes=max_nodes),
                 lambda: gt.export(wide(3), tmp_path / "t.svg", max_nodes=max_nodes)):
        with pytest.raises(error, match=re.escape(words)):
            call()


def test_a_png_too_large_for_the_renderer_says_which_dpi_fits(tmp_path):
    tree = wide(2_000)
    with pytest.raises(ValueError, match=r"pixels at dpi=1200.*lower dpi \(at most \d+") as caught:
        gt.export(tree, tmp_path / "big.png", max_nodes=4_000, dpi=1200)
    fits = int(re.search(r"at most (\d+) for this tree", str(caught.value)).group(1))
    assert 20 <= fits < 1200
    assert not (tmp_path / "big.png").exists()


def test_parse_tree_refuses_300000_items_before_building_the_tree(refused_before_work):
    with pytest.raises(ValueError, match=f"300001 nodes; explore\\(\\) shows trees of up to {MAX_NODES}"):
        parse_tree(json.dumps(list(range(300_000))))


def test_parse_tree_counts_what_it_will_build():
    with pytest.raises(ValueError, match="201 nodes"):
        parse_tree(json.dumps([list(range(100)), list(range(98))]))
    assert parse_tree(json.dumps([list(range(100)), list(range(97))])).number_of_nodes() == MAX_NODES
    with pytest.raises(ValueError, match="300 nodes"):
        parse_tree(json.dumps({f"n{i}": i for i in range(300)}))
    with pytest.raises(ValueError, match="203 nodes"):  # dict nodes count too
        parse_tree(json.dumps([{"chance": list(range(200)), "label": "c"}, 1]))


def cli(*argv):
    """``python -m gametrees ARGV`` in this process: (exit code, stdout)."""
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


def test_cli_export_of_a_wide_tree_fails_at_once_naming_max_nodes(tmp_path, capsys, refused_before_work):
    spec = tmp_path / "wide.json"
    spec.write_text(json.dumps(list(range(20_000))))
    code, out = cli("export", "--json", str(spec), "--answer", str(tmp_path / "w.png"))
    err = capsys.readouterr().err
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "20,000 children" in err and "--max-nodes 500" in err and "raise --max-nodes" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wide.json"]
    code, _ = cli("export", "--json", str(spec), "--answer", str(tmp_path / "w.png"), "--max-nodes", "6000")
    assert code == 2 and "--max-nodes must be in 1..5,000" in capsys.readouterr().err


def test_the_command_line_knows_the_drawings_limit_without_loading_it():
    from gametrees.cli import MAX_FIGURE_NODES

    assert MAX_FIGURE_NODES == MAX_DRAWN_NODES


@pytest.mark.parametrize("spec, words", [
    ({"R": {"player": "max", "children": [f"n{i}" for i in range(300)]}, **{f"n{i}": i for i in range(300)}},
     "node 'R' has 300 children"),
    ({"R": {"player": "min", "label": "root", "children": [f"n{i}" for i in range(251)]},
      **{f"n{i}": i for i in range(251)}}, "node root ('R') has 251 children"),
    ({"max": list(range(400)), "label": "top"}, "node top (()) has 400 children"),
    ([list(range(400))], None),  # a wide level below the root: cut, drawn
])
def test_cli_refuses_a_wide_root_before_building_the_tree(spec, words, tmp_path, capsys, monkeypatch):
    if words is not None:
        forbid_work(monkeypatch)
    code, out = cli("export", "--json", json.dumps(spec), "--answer", str(tmp_path / "t.svg"))
    err = capsys.readouterr().err
    if words is None:
        assert code == 0 and out.startswith("wrote")
    else:
        assert code == 2 and words in err and "--max-nodes 500 allows" in err


def test_cli_export_max_nodes_draws_a_tree_the_default_refuses(tmp_path, capsys):
    tree = json.dumps(list(range(300)))
    code, _ = cli("export", "--tree", tree, "--answer", str(tmp_path / "a.svg"))
    assert code == 2 and "300 children" in capsys.readouterr().err
    code, out = cli("export", "--tree", tree, "--answer", str(tmp_path / "a.svg"), "--max-nodes", "700")
    assert code == 0 and out.startswith("wrote")
    ET.parse(tmp_path / "a.svg")


@pytest.mark.parametrize("argv, words", [
    (("tournament", "--playouts", str(10**8), "mcts", "random"), f"at most {MAX_PLAYOUTS:,} playouts"),
    (("tournament", "--playouts", str(MAX_PLAYOUTS + 1), "mcts", "random"), "MCTSAgent(playouts=...)"),
    (("tournament", "--seconds", "inf", "iterative", "random", "--game", "connect4"),
     f"at most {MAX_SECONDS:g} seconds"),
    (("tournament", "--depth", str(MAX_PLIES + 1), "minimax", "random"), f"at most {MAX_PLIES:,} plies"),
    (("play", "nim", "--playouts", str(10**8)), "argument --playouts"),
])
def test_cli_tournament_sizes_are_bounded(argv, words, capsys):
    code, out = cli(*argv)
    err = capsys.readouterr().err
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err


def test_cli_playouts_at_the_limit_is_accepted():
    from gametrees.cli import build_parser

    args = build_parser().parse_args(["tournament", "--playouts", str(MAX_PLAYOUTS), "mcts", "random"])
    assert args.playouts == MAX_PLAYOUTS


# ----------------------------------------------------------------------------
# 9. Control characters in labels
# ----------------------------------------------------------------------------


def hostile_tree():
    tree = gt.tree_from_dict({
        "A": {"player": "max", "children": ["B", "C"], "moves": ["l\x0cx", "r\x7f"]},
        "B": {"player": "min", "children": ["D", "E"]}, "C": 4, "D": 3, "E": 5,
    })
    tree.nodes["B"]["label"] = "B\x00b"
    tree.nodes["C"]["label"] = "C" + CONTROL
    return tree


@pytest.mark.parametrize("flavour", ["question", "answer"])
def test_svg_with_control_characters_is_valid_xml(flavour, tmp_path):
    path = gt.export(hostile_tree(), tmp_path / "t.svg", flavour=flavour, moves=True, labels=True,
                     title="ti\x01tle \x1b[31m", instructions="do \x00 this")
    text = path.read_text(encoding="utf-8")
    assert not NOT_XML.search(text)
    ET.parse(path)  # well-formed
    assert "ti\\x01tle" in text  # the title is kept in the SVG as a comment, escaped


@pytest.mark.parametrize("suffix", [".tex", ".tikz"])
def test_tex_with_control_characters_has_none_raw(suffix, tmp_path):
    path = gt.export(hostile_tree(), tmp_path / f"t{suffix}", moves=True, labels=True, title="ti\x01tle")
    text = path.read_text(encoding="utf-8")
    assert not RAW_CONTROL.search(text)
    assert r"B\textbackslash{}x00b" in text and r"l\textbackslash{}x0cx" in text
    assert r"ti\textbackslash{}x01tle" in text


def test_the_drawing_shows_control_characters_as_escapes():
    ax = gt.draw(hostile_tree(), moves=True, title="a\x00b")
    labels = next(c for c in ax.collections if c.get_gid() == "labels")
    moves = next(c for c in ax.collections if c.get_gid() == "moves")
    assert "B\\x00b" in labels.texts and {"l\\x0cx", "r\\x7f"} <= set(moves.texts)
    assert ax.get_title(loc="left") == "a\\x00b"
    assert not any(RAW_CONTROL.search(t) for c in (labels, moves) for t in c.texts)


@pytest.mark.slow
def test_png_pdf_and_gif_with_control_characters_are_written(tmp_path):
    tree = hostile_tree()
    for name in ("t.png", "t.pdf"):
        assert gt.export(tree, tmp_path / name, moves=True).stat().st_size > 0
    assert gt.animate(gt.minimax(tree), tmp_path / "t.gif").stat().st_size > 0


def test_ordinary_labels_are_unchanged(tmp_path):
    tree = gt.tree_from_nested([[3, 12], [2, 4]])
    tree.nodes[(0,)]["label"] = "x ≤ 3 & {y} é"
    ax = gt.draw(tree)
    labels = next(c for c in ax.collections if c.get_gid() == "labels")
    assert "x ≤ 3 & {y} é" in labels.texts


# ----------------------------------------------------------------------------
# 10. The smaller edges
# ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def result():
    return gt.alphabeta(gt.tree_from_nested([[3, 12], [2, 4]]))


@pytest.mark.parametrize("fps", [0.001, 1e-9, 0.0099, 50.01, 1e308, float("nan"), float("inf"), 0, -1])
def test_animate_refuses_fps_outside_its_range(result, fps, tmp_path):
    with pytest.raises(ValueError, match=r"fps must be a number of frames per second in 0\.01\.\.50"):
        gt.animate(result, tmp_path / "a.gif", fps=fps)
    assert not (tmp_path / "a.gif").exists()


@pytest.mark.slow
@pytest.mark.parametrize("fps", FPS_RANGE)
def test_animate_at_the_ends_of_the_fps_range(result, fps, tmp_path):
    from PIL import Image

    path = gt.animate(result, tmp_path / "a.gif", fps=fps, hold=0)
    with Image.open(path) as im:
        assert im.info["duration"] == round(1000 / fps)


@pytest.mark.parametrize("hold", [601, 1e6, -1, float("nan")])
def test_animate_refuses_a_hold_no_gif_holds(result, hold, tmp_path):
    with pytest.raises(ValueError, match="hold must be a number of seconds in 0..600"):
        gt.animate(result, tmp_path / "a.gif", hold=hold)


@pytest.mark.parametrize("fps", ["0.001", "1e-9", "51", "nan", "inf"])
def test_cli_fps_outside_the_range_exits_2(fps, tmp_path, capsys):
    code, _ = cli("export", "--tree", "[[1,2],[3,4]]", "--answer", str(tmp_path / "a.gif"), "--fps", fps)
    err = capsys.readouterr().err
    assert code == 2 and "argument --fps: expected frames per second in 0.01..50" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("spec, words", [
    ({(0,): {"player": "max", "children": [(0, 1)]}, (0, 1): 3}, "node (0,): a node's name (tuple)"),
    ({"A": {"player": "max", "children": [(0, 1)]}, (0, 1): 3}, "node (0, 1): a node's name (tuple)"),
    ({True: 3}, "node True: a node's name (bool)"),
    ({None: 3}, "node None: a node's name (NoneType)"),
    ({frozenset({1}): 3}, "(frozenset) is shown as its label"),
])
def test_tree_from_dict_names_that_cannot_be_labels(spec, words):
    with pytest.raises(TypeError, match=re.escape(words)) as caught:
        gt.tree_from_dict(spec)
    assert "str or an int" in str(caught.value) and "label" in str(caught.value)


def test_tree_from_dict_a_tuple_name_with_its_own_label_is_fine():
    G = gt.tree_from_dict({(0,): {"player": "max", "children": ["B", 7], "label": "A"}, "B": 3, 7: 1})
    assert G.graph["root"] == (0,) and gt.minimax(G).move == "B"


@pytest.mark.parametrize("moves, words", [
    (["a", "a"], "the move 'a' is given to two children"),
    ([1, 1.0], "the move 1.0 is given to two children"),
    ([[1], [1]], "the move [1] is given to two children"),
])
def test_tree_from_dict_refuses_a_move_label_given_twice(moves, words):
    with pytest.raises(ValueError, match=re.escape(f"node 'A': {words}")):
        gt.tree_from_dict({"A": {"player": "max", "children": ["B", "C"], "moves": moves}, "B": 1, "C": 2})


def test_a_hand_built_graph_with_a_move_label_twice_is_refused_by_every_search():
    G = gt.tree_from_nested([[1, 2], [3, 4]])
    G.edges[(0,), (0, 0)]["move"] = "x"
    G.edges[(0,), (0, 1)]["move"] = "x"
    for search in (gt.minimax, gt.alphabeta, gt.negamax, gt.expectimax):
        with pytest.raises(ValueError, match=r"node \(0,\): the move 'x' is given to two children"):
            search(G)
    G.edges[(0,), (0, 1)]["move"] = "y"  # different labels, and a label on one edge only, are fine
    del G.edges[(0,), (0, 0)]["move"]
    gt.validate_tree(G)
    H = gt.tree_from_nested([[1, 2], [3, 4]])
    H.edges[(), (0,)]["move"] = "x"
    H.edges[(0,), (0, 0)]["move"] = "x"  # the same label under different parents: fine
    assert gt.minimax(H).move == (1,)


@pytest.mark.parametrize("game, words", [
    (None, "got NoneType, which has no initial"),
    ("tictactoe", "got str"),
    (gt.tree_from_nested([1, 2]), "got DiGraph, which has no initial"),
])
def test_tournament_refuses_what_is_not_a_game(game, words):
    with pytest.raises(TypeError, match=re.escape(words)) as caught:
        gt.tournament(gt.RandomAgent(), gt.RandomAgent(), game, games=1)
    assert "game must be a game such as gt.TicTacToe()" in str(caught.value)


@pytest.mark.parametrize("kwargs, error, words", [
    ({"legend": "no"}, TypeError, "legend must be True or False, got 'no'"),
    ({"legend": None}, TypeError, "legend must be True or False"),
    ({"legend": 0}, TypeError, "legend must be True or False"),
    ({"standalone": "yes"}, TypeError, "standalone must be True, False or None"),
    ({"standalone": 1}, TypeError, "standalone must be True, False or None"),
])
@pytest.mark.parametrize("suffix", [".svg", ".tex", ".tikz"])
def test_export_legend_and_standalone_must_be_booleans(kwargs, error, words, suffix, tmp_path):
    with pytest.raises(error, match=re.escape(words)):
        gt.export(gt.tree_from_nested([1, 2]), tmp_path / f"t{suffix}", **kwargs)
    assert not (tmp_path / f"t{suffix}").exists()


def test_export_standalone_false_and_true_still_work(tmp_path):
    tree = gt.tree_from_nested([1, 2])
    bare = gt.export(tree, tmp_path / "a.tex", standalone=False).read_text()
    doc = gt.export(tree, tmp_path / "b.tikz", standalone=True).read_text()
    assert r"\documentclass" not in bare and r"\documentclass" in doc


# -- time_limit and ties: what SearchResult.move promises ---------------------


TIE = {"R": {"player": "max", "children": ["A", "B"]},
       "A": {"player": "min", "children": ["a1", "a2"], "utility": 0},
       "B": {"player": "min", "children": ["b1", "b2"], "utility": 5},
       "a1": 3, "a2": 3, "b1": 3, "b2": 4}


@pytest.mark.parametrize("search", [gt.minimax, gt.alphabeta, gt.negamax])
def test_time_limit_keeps_the_earlier_iterations_move_on_a_tie(search):
    tree = gt.tree_from_dict(TIE)
    fixed = search(tree, depth=2)
    timed = search(tree, depth=2, time_limit=60)
    assert fixed.value == timed.value == 3 and timed.stats["depth_reached"] == 2
    assert fixed.move == "A"  # the first best in child order
    assert timed.move == "B"  # depth 1 liked B (estimate 5); at depth 2 A only ties it, so B stays


def _with_estimates(seed):
    rng = random.Random(seed)
    G = gt.random_tree((2, 3), 4, seed=seed, values=(0, 4))  # few values: many ties
    for n in G:
        if G.out_degree(n):
            G.nodes[n]["utility"] = rng.randint(0, 4)
    return G


@pytest.mark.slow
@pytest.mark.parametrize("search", [gt.minimax, gt.alphabeta, gt.negamax])
def test_time_limit_move_is_a_best_move_of_the_deepest_iteration(search):
    differ = 0
    for seed in range(150):
        G = _with_estimates(seed)
        for depth in (1, 2, 3):
            timed = search(G, depth=depth, time_limit=60, trace=False)
            fixed = search(G, depth=timed.stats["depth_reached"], trace=False)
            assert timed.value == fixed.value, (seed, depth)
            # the move's own value at the remaining depth is the root's value
            child = search(G, state=timed.move, depth=timed.stats["depth_reached"] - 1, trace=False)
            assert child.value == timed.value, (seed, depth)
            differ += timed.move != fixed.move
    assert differ > 0  # the promise is "a best move", not "the first best in child order"
