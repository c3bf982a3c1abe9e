"""How big and how slow are the pictures a reader gets of a search? Prints one table.

For the 54-step tree of lesson 03 (``gt.random_tree(3, 3, seed=11, values=(0, 20))``,
alpha-beta) and a 26-step textbook tree, each row is one export:

* ``gt.animate`` GIFs at 150 dpi (the default, and ``export --answer x.gif``), 100 and
  72 dpi: the file's size and the seconds to write it;
* ``gt.replay`` at 100 dpi: the bytes of all its frames (96-colour PNGs, what the
  widget sends and the kernel-free player embeds), milliseconds per step, and the
  size of its saved picture (the finished search).

Times are the best of ``--repeat`` runs (default 3; the machine is shared). Written
to a temporary folder, deleted after.

Run: python benchmarks/export_sizes.py [--repeat N]
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import matplotlib

matplotlib.use("Agg")

import gametrees as gt

TREES = [("textbook, 26 steps", gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]])),
         ("lesson 03, 54 steps", gt.random_tree(3, 3, seed=11, values=(0, 20)))]


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'tree':<20} {'export':<16} {'size (KiB)':>10} {'time':>12}")
    with tempfile.TemporaryDirectory() as folder:
        for name, tree in TREES:
            result = gt.alphabeta(tree)
            for dpi in (150, 100, 72):
                path = Path(folder) / f"search{dpi}.gif"
                seconds, _ = best(lambda r=result, dpi=dpi, path=path: gt.animate(r, path, dpi=dpi),
                                  args.repeat)
                size = path.stat().st_size / 1024
                print(f"{name:<20} {f'GIF {dpi} dpi':<16} {size:>10.1f} {seconds:>10.2f} s")

            def steps(result=result):
                widget = gt.replay(result)
                total = len(widget.image.value)
                for k in range(1, len(result.trace)):
                    widget.show(k)
                    total += len(widget.image.value)
                return widget, total

            seconds, (widget, total) = best(steps, args.repeat)
            ms = 1000 * seconds / len(result.trace)
            print(f"{name:<20} {'replay frames':<16} {total / 1024:>10.1f} {ms:>7.1f} ms/step")
            print(f"{name:<20} {'replay picture':<16} {len(widget.static_png()) / 1024:>10.1f} {'':>12}")


if __name__ == "__main__":
    main()
