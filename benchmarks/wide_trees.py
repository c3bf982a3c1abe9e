"""How fast is a tree too wide to draw refused? Prints one table: seconds until the error, per output.

A figure draws at most ``max_nodes // 2`` nodes side by side (250 by default); a tree wider than that
even one level under its root is refused before any search, layout or drawing (issue 32: a 20,000-child
export took 236 s and 2 GB; 200,000 children through the command line were still drawing after 15
minutes; parse_tree refused 300,000 items only after 18 s).

Columns:

case        What was asked.
children    Children of the root.
build s     Building the tree (tree_from_nested), not part of the refusal.
refuse s    Seconds from the call to the error (best of N; matplotlib already loaded).
error       The start of the message.

The command line rows run ``main([...])`` in this process on a JSON file (reading and building the
tree included, matplotlib loaded). Run: python benchmarks/wide_trees.py [--repeat N]
"""

import argparse
import contextlib
import io
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import matplotlib

matplotlib.use("Agg")

from report import best_of, table

import gametrees as gt
from gametrees.cli import main
from gametrees.widgets.explore_widget import parse_tree


def refusal(fn):
    """Call ``fn``; return the first words of the ValueError it raises (or 'no error')."""
    try:
        fn()
    except ValueError as error:
        return str(error)[:60]
    return "no error"


def main_():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    gt.export(gt.tree_from_nested([[1, 2], [3, 4]]), folder / "warm.png")  # load matplotlib once
    rows = []
    for n in (20_000, 200_000):
        t = time.perf_counter()
        tree = gt.tree_from_nested(list(range(n)))
        build = time.perf_counter() - t
        cases = [
            ("gt.export(tree, 'w.png')", lambda tree=tree: gt.export(tree, folder / "w.png")),
            ("gt.export(tree, 'w.tex')", lambda tree=tree: gt.export(tree, folder / "w.tex")),
            ("gt.draw(tree)", lambda tree=tree: gt.draw(tree)),
        ]
        for name, fn in cases:
            seconds, message = best_of(args.repeat, lambda fn=fn: refusal(fn))
            rows.append([name, f"{n:,}", f"{build:.2f}", f"{seconds:.4f}", message])
        spec = folder / f"wide{n}.json"
        spec.write_text(json.dumps(list(range(n))))
        argv = ["export", "--json", str(spec), "--answer", str(folder / "w.svg")]

        def cli(argv=argv):
            with contextlib.redirect_stderr(io.StringIO()) as err:
                code = main(argv, out=io.StringIO())
            return f"exit {code}: {err.getvalue()[len('python -m gametrees export: error: '):][:48]}"

        seconds, message = best_of(args.repeat, cli)
        rows.append(["export --json FILE --answer w.svg", f"{n:,}", "(inside)", f"{seconds:.4f}", message])
    text = json.dumps(list(range(300_000)))
    seconds, message = best_of(args.repeat, lambda: refusal(lambda: parse_tree(text)))
    rows.append(["parse_tree (the explore widget)", "300,000", "-", f"{seconds:.4f}", message])
    table("A tree too wide to draw: seconds until the error",
          ["case", "children", "build s", "refuse s", "error"], rows)


if __name__ == "__main__":
    main_()
