"""Bad inputs, table-driven: each row a call that must fail with a clear error naming what is wrong.

The hostile tester's harness kept as a test: for every public function of drawing, exporting,
building trees and tournaments that issue 32 touched, a table of (call, exception, words the
message contains); for the command line, rows of argv -> exit status 2 and the one line on stderr.
A row never hangs, never writes a file, and never shows a traceback from inside a library.
"""

import io

import matplotlib.pyplot as plt
import networkx as nx
import pytest

import gametrees as gt
from gametrees.cli import main
from gametrees.drawing import MAX_DRAWN_NODES, TreeTooWide, check_size
from gametrees.widgets.explore_widget import parse_tree

T = gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
R = gt.alphabeta(T)
WIDE = gt.tree_from_nested(list(range(1_000)))
NO_TRACE = gt.alphabeta(T, trace=False, graph=False)
DUPLICATE_MOVES = gt.tree_from_nested([1, 2])
DUPLICATE_MOVES.add_edges_from([((), (0,), {"move": "m"}), ((), (1,), {"move": "m"})])


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# (id, call taking the temporary folder, exception, words in the message)
ROWS = [
    # gt.draw
    ("draw-not-a-tree", lambda d: gt.draw([1, 2]), TypeError, "draw expects a game tree"),
    ("draw-none", lambda d: gt.draw(None), TypeError, "got NoneType"),
    ("draw-too-wide", lambda d: gt.draw(WIDE), TreeTooWide, "node A (()) has 1,000 children"),
    ("draw-too-wide-max-children", lambda d: gt.draw(WIDE, max_children=400), TreeTooWide, "400 children"),
    ("draw-max-nodes-ceiling", lambda d: gt.draw(T, max_nodes=MAX_DRAWN_NODES + 1), ValueError,
     f"max_nodes must be in 1..{MAX_DRAWN_NODES:,}"),
    ("draw-max-nodes-float", lambda d: gt.draw(T, max_nodes=1e9), TypeError, "max_nodes must be an int"),
    ("draw-max-children-zero", lambda d: gt.draw(T, max_children=0), ValueError, "max_children must be >= 1"),
    ("draw-max-depth-str", lambda d: gt.draw(T, max_depth="2"), TypeError,
     "max_depth must be None or an int"),
    ("draw-legend-str", lambda d: gt.draw(T, legend="no"), TypeError, "legend must be True or False"),
    ("draw-labels-str", lambda d: gt.draw(T, labels="yes"), TypeError, "labels must be True, False or None"),
    ("draw-no-graph", lambda d: gt.draw(NO_TRACE), ValueError, "search with trace=True"),
    ("draw-nodes-without-root", lambda d: gt.draw(T, nodes=[(0,)]), ValueError,
     "nodes must include the root"),
    # gt.export
    ("export-too-wide", lambda d: gt.export(WIDE, d / "w.svg"), TreeTooWide, "1,000 children"),
    ("export-too-wide-png", lambda d: gt.export(WIDE, d / "w.png"), TreeTooWide, "max_nodes=500"),
    ("export-too-wide-question", lambda d: gt.export(WIDE, d / "w.pdf", flavour="question"), TreeTooWide,
     "raise max_nodes"),
    ("export-max-nodes", lambda d: gt.export(T, d / "t.svg", max_nodes=10**6), ValueError,
     "max_nodes must be in 1..5,000"),
    ("export-legend-no", lambda d: gt.export(T, d / "t.svg", legend="no"), TypeError,
     "legend must be True or False, got 'no'"),
    ("export-legend-no-tex", lambda d: gt.export(T, d / "t.tex", legend="no"), TypeError,
     "legend must be True or False"),
    ("export-standalone-yes", lambda d: gt.export(T, d / "t.tex", standalone="yes"), TypeError,
     "standalone must be True, False or None"),
    ("export-standalone-svg", lambda d: gt.export(T, d / "t.svg", standalone=True), TypeError,
     "standalone= is for TikZ"),
    ("export-png-too-big", lambda d: gt.export(gt.tree_from_nested(list(range(2_000))), d / "t.png",
                                               max_nodes=4_000, dpi=1_200), ValueError,
     "more than the 65,535 pixels a side"),
    ("export-dpi", lambda d: gt.export(T, d / "t.png", dpi=10**6), ValueError, "dpi must be a number"),
    ("export-flavour", lambda d: gt.export(T, d / "t.svg", flavour="exam"), ValueError,
     "flavour must be 'question' or 'answer'"),
    ("export-suffix", lambda d: gt.export(T, d / "t.docx"), ValueError, "unknown format '.docx'"),
    ("export-not-a-tree", lambda d: gt.export("[[1,2]]", d / "t.svg"), TypeError,
     "export expects a game tree"),
    # gt.to_tikz
    ("tikz-too-wide", lambda d: gt.to_tikz(WIDE), TreeTooWide, "1,000 children"),
    ("tikz-standalone-yes", lambda d: gt.to_tikz(T, standalone="yes"), TypeError,
     "standalone must be True or False"),
    ("tikz-max-nodes", lambda d: gt.to_tikz(T, max_nodes=0), ValueError, "max_nodes must be in 1..5,000"),
    ("tikz-width", lambda d: gt.to_tikz(T, max_width_cm=1), ValueError, "max_width_cm must be a width"),
    # gt.animate
    ("animate-fps-tiny", lambda d: gt.animate(R, d / "a.gif", fps=0.001), ValueError,
     "fps must be a number of frames per second in 0.01..50"),
    ("animate-fps-huge", lambda d: gt.animate(R, d / "a.gif", fps=1e308), ValueError, "0.01..50"),
    ("animate-fps-nan", lambda d: gt.animate(R, d / "a.gif", fps=float("nan")), ValueError, "got nan"),
    ("animate-fps-str", lambda d: gt.animate(R, d / "a.gif", fps="2"), TypeError, "fps must be a number"),
    ("animate-hold", lambda d: gt.animate(R, d / "a.gif", hold=10**6), ValueError,
     "hold must be a number of seconds in 0..600"),
    ("animate-too-wide", lambda d: gt.animate(gt.minimax(WIDE), d / "a.gif", max_frames=10**4), TreeTooWide,
     "1,000 children"),
    ("animate-no-trace", lambda d: gt.animate(NO_TRACE, d / "a.gif"), ValueError, "has no trace to animate"),
    # check_size
    ("check-size-too-wide", lambda d: check_size(WIDE, max_nodes=100), TreeTooWide, "max_nodes=100"),
    ("check-size-max-children", lambda d: check_size(WIDE, max_children=-1), ValueError,
     "max_children must be >= 1"),
    ("check-size-max-nodes", lambda d: check_size(WIDE, max_nodes="500"), TypeError,
     "max_nodes must be an int"),
    # gt.tree_from_dict and gt.validate_tree
    ("dict-tuple-keys",
     lambda d: gt.tree_from_dict({(0,): {"player": "max", "children": [(0, 0)]}, (0, 0): 1}),
     TypeError, "node (0,): a node's name (tuple) is shown as its label"),
    ("dict-bool-key", lambda d: gt.tree_from_dict({False: 1}), TypeError, "must be a str or an int"),
    ("dict-moves-twice", lambda d: gt.tree_from_dict(
        {"A": {"player": "min", "children": ["B", "C"], "moves": ["go", "go"]}, "B": 1, "C": 2}), ValueError,
     "node 'A': the move 'go' is given to two children"),
    ("dict-moves-count", lambda d: gt.tree_from_dict(
        {"A": {"player": "min", "children": ["B", "C"], "moves": ["go"]}, "B": 1, "C": 2}), ValueError,
     "'moves' must list one entry per child (2)"),
    ("validate-moves-twice", lambda d: gt.validate_tree(DUPLICATE_MOVES), ValueError,
     "node (): the move 'm' is given to two children"),
    ("search-moves-twice", lambda d: gt.alphabeta(DUPLICATE_MOVES), ValueError, "each child of a node needs"),
    # gt.tournament
    ("tournament-game-none", lambda d: gt.tournament(gt.RandomAgent(), gt.RandomAgent(), None), TypeError,
     "game must be a game such as gt.TicTacToe()"),
    ("tournament-game-class", lambda d: gt.tournament(gt.RandomAgent(), gt.RandomAgent(), gt.TicTacToe),
     TypeError, "got the class TicTacToe: write TicTacToe()"),
    ("tournament-game-tree", lambda d: gt.tournament(gt.RandomAgent(), gt.RandomAgent(), T), TypeError,
     "got DiGraph, which has no initial"),
    ("tournament-games", lambda d: gt.tournament(gt.RandomAgent(), gt.RandomAgent(), gt.Nim(3), games=-1),
     ValueError, "games must be an int >= 0"),
    # parse_tree (the explore widget's reader)
    ("parse-wide", lambda d: parse_tree(str(list(range(300_000)))), ValueError, "300001 nodes"),
    ("parse-dict-wide", lambda d: parse_tree(str({f"n{i}": i for i in range(500)}).replace("'", '"')),
     ValueError, "500 nodes"),
    ("parse-not-text", lambda d: parse_tree([1, 2]), TypeError, "the tree must be text"),
    ("parse-open", lambda d: parse_tree("[[1, 2]"), ValueError, "is never closed"),
]


@pytest.mark.parametrize("call, error, words", [row[1:] for row in ROWS], ids=[row[0] for row in ROWS])
def test_bad_input_is_a_clear_error(call, error, words, tmp_path):
    with pytest.raises(error) as caught:
        call(tmp_path)
    assert words in str(caught.value)
    assert caught.type is error or issubclass(caught.type, error)
    assert list(tmp_path.iterdir()) == []  # nothing written, not even half a file


def test_the_table_covers_every_function_touched():
    covered = {row[0].split("-")[0] for row in ROWS}
    assert covered >= {"draw", "export", "tikz", "animate", "check", "dict", "validate", "search",
                       "tournament", "parse"}


@pytest.mark.slow
def test_a_too_wide_tree_is_a_value_error_with_its_numbers():
    with pytest.raises(ValueError) as caught:
        check_size(WIDE, max_nodes=1_000)
    wide = caught.value
    assert (wide.node, wide.children, wide.side_by_side, wide.max_nodes) == ((), 1_000, 1_000, 1_000)
    assert isinstance(WIDE, nx.DiGraph) and gt.draw(WIDE, max_nodes=2_000) is not None


# -- the command line: argv -> exit 2 and one line on stderr -----------------------

TREE = "[[3,12,8],[2,4,6],[14,5,2]]"
WIDE_TREE = str(list(range(600)))

CLI_ROWS = [
    (("export", "--tree", WIDE_TREE, "--answer", "{d}/w.svg"),
     ("the tree is too wide to draw: node A (()) has 600 children side by side, more than the 250 that "
      "--max-nodes 500 allows")),
    (("export", "--tree", WIDE_TREE, "--question", "{d}/w.tex"), "raise --max-nodes (at most 5000)"),
    (("export", "--tree", WIDE_TREE, "--answer", "{d}/w.gif"), "600 children"),
    (("export", "--tree", WIDE_TREE, "--answer", "{d}/w.svg", "--max-nodes", "1200"), None),  # raised: drawn
    (("export", "--tree", TREE, "--answer", "{d}/t.svg", "--max-nodes", "5001"),
     "--max-nodes must be in 1..5,000"),
    (("export", "--tree", TREE, "--answer", "{d}/t.svg", "--max-nodes", "0"), "argument --max-nodes"),
    (("export", "--tree", TREE, "--answer", "{d}/t.svg", "--max-nodes", "x"), "argument --max-nodes"),
    (("export", "--tree", TREE, "--answer", "{d}/t.gif", "--fps", "1e-9"), "argument --fps"),
    (("export", "--tree", TREE, "--answer", "{d}/t.gif", "--fps", "0.001"), "0.01..50"),
    (("export", "--tree", TREE, "--answer", "{d}/t.gif", "--fps", "nan"), "argument --fps"),
    (("export", "--tree", TREE, "--answer", "{d}/t.gif", "--fps", "1e308"), "argument --fps"),
    (("export", "--json", ('{"A": {"player": "max", "children": ["B", "C"], "moves": ["x", "x"]}, "B": 1, '
                           '"C": 2}'), "--answer", "{d}/t.svg"),
     "--json: node 'A': the move 'x' is given to two children"),
    (("tournament", "--playouts", "100000000", "mcts", "random"), "argument --playouts: at most 100,000"),
    (("tournament", "--playouts", "0", "mcts", "random"), "argument --playouts"),
    (("tournament", "--seconds", "inf", "iterative", "random"), "argument --seconds: at most 600"),
    (("tournament", "--seconds", "1e308", "iterative", "random"), "argument --seconds"),
    (("tournament", "--depth", "100000", "alphabeta", "random"), "argument --depth: at most 2,000 plies"),
    (("play", "connect4", "--depth", "99999"), "argument --depth"),
    (("play", "nim", "--seconds", "nan"), "argument --seconds"),
]


@pytest.mark.slow
@pytest.mark.parametrize("argv, words", CLI_ROWS, ids=[f"{i}-{a[0]}" for i, (a, _) in enumerate(CLI_ROWS)])
def test_cli_bad_arguments_exit_2_with_one_line(argv, words, tmp_path, capsys):
    out = io.StringIO()
    code = main([a.replace("{d}", str(tmp_path)) for a in argv], out=out, read=lambda prompt: "q")
    err = capsys.readouterr().err
    if words is None:
        assert code == 0 and err == "" and out.getvalue().startswith("wrote")
        return
    assert code == 2, err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []
