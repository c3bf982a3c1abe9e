"""How fast is drawing? Prints one table: times per frame for trees of about 15, 100 and 500 nodes.

Columns (times in milliseconds, median of N runs):

nodes/drawn Nodes in the searched tree / nodes drawn (gt.draw cuts levels beyond
            500 nodes or 250 leaves side by side, marking them with an ellipsis).

layout      tidy_layout of the tree.
draw        gt.draw(result, k=...) of a frame in the middle of the search onto a new
            figure, rendered with Agg (what a static figure in a notebook costs).
replay      One step of the replay widget: fold the trace to the frame, repaint the
            figure, render it and encode the PNG the widget sends to the browser.
            The target is 100 ms for a 100-node tree.
nx.draw     networkx's own nx.draw of the same graph (with the same positions and
            node labels) onto a figure of the same size, rendered with Agg: for scale.

Run: python benchmarks/draw_speed.py [--repeat N]
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import matplotlib

matplotlib.use("Agg")

import networkx as nx
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import gametrees as gt
from gametrees.widgets import Replay

# (label, branching, depth, seed): random trees of about 15, 100 and 500 nodes.
# The 500-node tree is drawn twice: by default (gt.draw cuts it to the levels that fit,
# with ellipses) and in full (max_nodes=1000).
TREES = [("15 nodes", 2, 3, 0, {}), ("100 nodes", (2, 4), 4, 7, {}), ("500 nodes", (2, 4), 5, 20, {}),
         ("500, full", (2, 4), 5, 20, {"max_nodes": 1000})]


def median_ms(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1000 * statistics.median(times)


def bench(label, branching, depth, seed, options, repeat):
    """One row of the table."""
    tree = gt.random_tree(branching, depth, seed=seed)
    result = gt.alphabeta(tree)
    graph = result.graph
    n = len(result.trace)
    k = n // 2
    layout = median_ms(lambda: gt.tidy_layout(graph), repeat)

    widget = Replay(result, **options)
    size = tuple(widget.figure.get_size_inches())

    def draw_frame():
        fig = Figure(figsize=size)
        FigureCanvasAgg(fig)
        ax = fig.add_axes((0, 0, 1, 1))
        gt.draw(result, ax, k=k, **options)
        fig.canvas.draw()

    draw = median_ms(draw_frame, repeat)
    steps = iter(range(10**9))
    replay = median_ms(lambda: widget.show((k + next(steps)) % n), repeat)

    pos = gt.tidy_layout(graph)
    labels = {node: graph.nodes[node].get("value", "") for node in graph}

    def nx_draw():
        fig = Figure(figsize=size)
        FigureCanvasAgg(fig)
        ax = fig.add_axes((0, 0, 1, 1))
        nx.draw(graph, pos, ax=ax, with_labels=True, node_size=300, font_size=8, labels=labels)
        fig.canvas.draw()

    nxd = median_ms(nx_draw, repeat)
    drawn = len(widget._drawing.prep.keep)
    print(f"{label:<10} {graph.number_of_nodes():>5} {drawn:>5} {n:>6} "
          f"{size[0]:>5.1f} x {size[1]:<4.1f} {layout:>8.2f} {draw:>8.1f} {replay:>8.1f} {nxd:>8.1f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    print(f"{'tree':<10} {'nodes':>5} {'drawn':>5} {'events':>6} {'figure (in)':>12} {'layout':>8} "
          f"{'draw':>8} {'replay':>8} {'nx.draw':>8}")
    for label, branching, depth, seed, options in TREES:
        bench(label, branching, depth, seed, options, args.repeat)


if __name__ == "__main__":
    main()
