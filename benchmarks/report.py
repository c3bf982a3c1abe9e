"""Timing and table printing shared by the benchmark scripts."""

import time


def best_of(repeat, fn, clock=time.perf_counter):
    """The least wall-clock time (or ``clock``'s: ``time.process_time`` for this process's CPU time)
    of ``repeat`` calls of ``fn()``, and its last result.

    The previous call's result is freed before the clock starts (freeing a big result is not the
    next call's work); a call should return what it made, not drop it on the way out.
    """
    best, out = float("inf"), None
    for _ in range(repeat):
        out = None
        t = clock()
        out = fn()
        best = min(best, clock() - t)
    return best, out


def table(title, header, rows):
    """Print a titled table: the first column left-aligned, the others right-aligned."""
    print(f"\n{title}")
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]

    def line(cells):
        return "  ".join(f"{c:>{w}}" if i else f"{c:<{w}}" for i, (c, w) in enumerate(zip(cells, widths)))

    head = line(header)
    print(head)
    print("-" * len(head))
    for row in rows:
        print(line(row))
