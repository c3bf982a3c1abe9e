"""How long does each lesson take to run top to bottom? Prints a table.

How it measures: each notebook is executed the way ``jupyter nbconvert --execute``
does it (``nbclient.NotebookClient``, the library behind nbconvert's execution, on a
fresh ``python3`` kernel whose ``PYTHONPATH`` is this checkout, so the kernel imports
this ``gametrees``). The notebook is read and never written. For
each lesson the table gives

* ``run all``: wall-clock seconds from sending the first cell to the last cell's
  reply, kernel already started: what a learner waits after Run All in JupyterLab
  (the browser's own drawing of widgets is not included);
* ``kernel``: seconds to start the kernel and connect (once per notebook; JupyterLab
  pays it when the notebook opens, not on Run All);
* ``slowest cell``: the code cell (counting code cells from 1) that took longest, and
  its seconds;
* ``< 10 s``: whether ``run all`` meets the course's target (issue 20).

Each figure is the best of ``--repeat`` runs (default 1: a lesson is run once, as a
learner runs it; the machine is shared, so repeat to smooth out other load). The
kernel draws inline figures as in JupyterLab (``MPLBACKEND`` is unset for it).

Run: python benchmarks/lessons.py [--repeat N] [NOTEBOOK ...]
(default: every lesson in notebooks/, then the assignments' instructor versions in
instructor/assignments/, which hold answers: the blank student versions stop at their checks).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from report import table  # (benchmarks/report.py)

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
ASSIGNMENTS = ROOT / "instructor" / "assignments"
TARGET = 10.0  # seconds (issue 20: every lesson runs top to bottom in under 10 s)


def lessons():
    """The lessons (notebooks/*.ipynb), then the instructor versions of the assignments."""
    return sorted(NOTEBOOKS.glob("*.ipynb")) + sorted(ASSIGNMENTS.glob("*.ipynb"))


def run_once(path: Path):
    """(run-all seconds, kernel-start seconds, [(code cell number, seconds)]) of one execution."""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    cells = []
    path_entries = filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path_entries)}
    env.pop("MPLBACKEND", None)
    t0 = time.perf_counter()
    with client.setup_kernel(env=env):
        t1 = time.perf_counter()
        n = 0
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            n += 1
            start = time.perf_counter()
            client.execute_cell(cell, index)
            cells.append((n, time.perf_counter() - start))
        t2 = time.perf_counter()
    return t2 - t1, t1 - t0, cells


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*",
                        help="notebooks to time (default: the lessons and the assignments' instructor "
                             "versions)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs per notebook; the best is shown (default 1)")
    args = parser.parse_args(argv)
    paths = [Path(p).resolve() for p in args.notebooks] or lessons()
    rows = []
    print(f"Run All of each lesson, executed as nbconvert does (nbclient), best of {args.repeat}; "
          f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}", flush=True)
    for path in paths:
        best = None
        for _ in range(args.repeat):
            got = run_once(path)
            if best is None or got[0] < best[0]:
                best = got
        run_all, kernel, cells = best
        slow_n, slow_s = max(cells, key=lambda c: c[1]) if cells else (0, 0.0)
        name = (path.relative_to(NOTEBOOKS).as_posix() if path.is_relative_to(NOTEBOOKS)
                else path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path))
        rows.append([name, len(cells), f"{run_all:.1f}", f"{kernel:.1f}", f"cell {slow_n}: {slow_s:.1f}",
                     "yes" if run_all < TARGET else "NO"])
        print(f"  {name}: {run_all:.1f} s", file=sys.stderr, flush=True)
    table("Each notebook, run top to bottom in a fresh kernel",
          ["notebook", "code cells", "run all (s)", "kernel (s)", "slowest cell (s)",
           f"< {TARGET:.0f} s"], rows)


if __name__ == "__main__":
    main()
