"""Catching a learner's function that hands the work to gametrees' own search: :class:`LibraryGuard`.

A code question asks the learner to write a search (or an evaluation) themselves,
so a function that calls :func:`gametrees.alphabeta`, an agent, MCTS, a
tournament or one of :mod:`gametrees.evaluation`'s functions must not pass. The
guard is checked while the learner's function runs, not by reading its source:
a trace function (``sys.settrace``) sees every Python call made inside it, so
an alias (``from gametrees.search import alphabeta as ab``), ``gt.alphabeta``,
a helper that calls it, ``getattr(gt, "mini" + "max")`` or an evaluation
object made beforehand are all caught the moment their code starts. The
learner's own helpers and the game protocol (the games in
:mod:`gametrees.games`, :class:`~gametrees.TreeGame`) stay allowed.

What it cannot see: code that does not run as Python inside the call (a value
computed before the check and stored, e.g. a table of answers typed in).

May import: the standard library only.
"""

from __future__ import annotations

import contextlib
import os
import sys

__all__ = ["FORBIDDEN", "LibraryGuard", "UsedLibrary", "forbidden", "paused", "public_name"]

_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
#: Folders and files of gametrees whose code a learner's function may not run.
FORBIDDEN = (
    os.path.join(_PACKAGE, "search") + os.sep,
    os.path.join(_PACKAGE, "evaluation.py"),
    os.path.join(_PACKAGE, "agents.py"),
    os.path.join(_PACKAGE, "tournaments.py"),
)
_SEEN = {}


def forbidden(filename):
    """Whether code in ``filename`` is gametrees' search or evaluation (cached)."""
    hit = _SEEN.get(filename)
    if hit is None:
        path = os.path.abspath(filename) if filename and not filename.startswith("<") else ""
        hit = _SEEN[filename] = bool(path) and any(
            path.startswith(f) if f.endswith(os.sep) else path == f for f in FORBIDDEN)
    return hit


class UsedLibrary(BaseException):
    """Raised inside a learner's function the moment it calls gametrees' search or evaluation.

    A BaseException, so that the learner's own ``except Exception`` does not swallow it.
    """

    def __init__(self, name):
        super().__init__(name)
        self.name = name


def public_name(frame):
    """``"gametrees.search.pruning.alphabeta"``: the module and function a frame runs."""
    code = frame.f_code
    module = frame.f_globals.get("__name__", "gametrees")
    return f"{module}.{getattr(code, 'co_qualname', code.co_name)}"


class LibraryGuard:
    """``with LibraryGuard() as guard: fn(...)``: any call into gametrees' search or evaluation inside
    the block raises :class:`UsedLibrary` there, and is listed in ``guard.used``.

    The previous trace function (a debugger, coverage) is restored on leaving the block.

    Examples
    --------
    >>> import gametrees as gt
    >>> tree = gt.tree_from_nested([[3, 12], [2, 4]])
    >>> guard = LibraryGuard()
    >>> try:
    ...     with guard:
    ...         (lambda t: gt.minimax(t).value)(tree)
    ... except UsedLibrary as exc:
    ...     print(exc.name)
    gametrees.search.backed_up.minimax
    >>> guard.used
    ['gametrees.search.backed_up.minimax']
    """

    def __init__(self):
        self.used = []
        self._old = None

    def _trace(self, frame, event, arg):
        # A global trace function is called on "call" events only; this runs on every call the
        # learner's function makes, so it stays short.
        filename = frame.f_code.co_filename
        hit = _SEEN.get(filename)
        if hit is None:
            hit = forbidden(filename)
        if hit:
            name = public_name(frame)
            if name not in self.used:
                self.used.append(name)
            raise UsedLibrary(name)
        return None

    def __enter__(self):
        self._old = sys.gettrace()
        sys.settrace(self._trace)
        return self

    def __exit__(self, *exc):
        sys.settrace(self._old)
        return False


@contextlib.contextmanager
def paused():
    """Within the block no guard is watching: for the checker's own calls into the engine
    (a correct stand-in it lends the learner's function), never for the learner's code.

    >>> import gametrees as gt
    >>> tree = gt.tree_from_nested([[3, 12], [2, 4]])
    >>> def lends_the_engine(t):
    ...     with paused():
    ...         return gt.minimax(t).value
    >>> with LibraryGuard() as guard:
    ...     lends_the_engine(tree)
    3
    >>> guard.used
    []
    """
    old = sys.gettrace()
    sys.settrace(None)
    try:
        yield
    finally:
        sys.settrace(old)
