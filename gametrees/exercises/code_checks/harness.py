"""Running a learner's function safely, and the test games and trees the checks use.

:func:`run_learner` calls a learner's function with a budget of calls to the
game, catching whatever it raises and collecting what it prints
(:class:`Printed`) into an outcome; :func:`describe_error` and
:func:`error_hint` word what went wrong; :func:`check_callable` checks the
function can take the arguments. The test games count and log calls
(:class:`CountingTree`, :class:`CountingTicTacToe`, :class:`ListStateGame`,
:class:`CallLog`); the test material (:data:`TEXTBOOK`, :func:`nested_tree`,
:func:`drawn_tree`, :func:`minimax_groups`, ..., :data:`TTT_POSITIONS`) is
built once, on first use, into :data:`CACHE`.

May import: the standard library, :mod:`gametrees.games`,
:mod:`gametrees.search`, :mod:`gametrees.trees`,
:mod:`gametrees.exercises.feedback`, :mod:`gametrees.exercises.answers`,
:mod:`gametrees.exercises.by_hand` (its public names) and
:mod:`gametrees.exercises.code_checks.guard`.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import math
import numbers
import os
import random
import re
import traceback

from ...games import CHANCE, MAX, MIN, Game, TicTacToe
from ...search import expectimax
from ...trees import TreeGame, tree_from_nested
from ..by_hand import random_spec
from .guard import LibraryGuard, UsedLibrary

__all__ = ["CACHE", "CallLog", "CountingTicTacToe", "CountingTree", "ListStateGame", "Outcome", "Printed",
           "StateError", "TEXTBOOK", "TTT_POSITIONS", "WRITE_IT_YOURSELF", "alphabeta_groups",
           "check_callable", "describe_error", "drawn_seed", "drawn_tree", "error_hint", "exact_values",
           "expectimax_groups", "minimax_groups", "nested_tree", "run_learner"]

# ============================================================================
# Checkers for a learner's functions: running learner code safely
# ============================================================================

_BUDGET = 50_000  # calls to the game per run of the learner's function
# The gametrees package: frames in its files are not the learner's.
_HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


#: What a learner is told whose function hands the work to gametrees' own search or evaluation.
WRITE_IT_YOURSELF = "this question asks you to write the search yourself"


class _TooManyCalls(BaseException):
    """Stops a runaway learner function (BaseException: a bare ``except Exception`` cannot swallow it)."""


class _TookTooLong(BaseException):
    """Stops a learner function that runs past :data:`TIME_LIMIT` (see :func:`time_limit`)."""


#: Seconds one call of a learner's function may run before the check stops it (a right answer
#: takes well under a second: the test trees are small and the calls to the game are budgeted).
TIME_LIMIT = 10.0


@contextlib.contextmanager
def time_limit(seconds):
    """Raise ``_TookTooLong`` in the code inside the ``with`` once it has run ``seconds``.

    In the main thread (a notebook's cells run there) a timer signal interrupts
    even a loop that calls nothing (``while True: pass``) or a long
    ``time.sleep``; the previous handler and timer are restored afterwards. In
    another thread, where signals cannot go, a trace function checks the clock
    on every line of Python (a single long ``time.sleep`` there ends before the
    check can stop it). A BaseException: a learner's ``except Exception``
    cannot swallow it.
    """
    import signal
    import sys
    import threading
    import time

    deadline = time.monotonic() + seconds
    if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
        def stop(signum, frame):
            raise _TookTooLong

        old_handler = signal.signal(signal.SIGALRM, stop)
        old_delay, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old_handler)
            if old_delay:  # an outer timer keeps the time it had left
                signal.setitimer(
                    signal.ITIMER_REAL, max(1e-3, old_delay - (time.monotonic() - deadline + seconds))
                )
        return

    def tick(frame, event, arg):
        if time.monotonic() > deadline:
            raise _TookTooLong
        return tick

    old_trace = sys.gettrace()
    sys.settrace(tick)
    try:
        yield
    finally:
        sys.settrace(old_trace)


class StateError(ValueError):
    """A mutable test game was handed a state that cannot arise: a move was not undone."""


def describe_error(exc):
    """``"KeyError: (0, 1) (in max_value, line 7)"``: deterministic, no addresses or file names."""
    msg = re.sub(r" at 0x[0-9a-fA-F]+", "", str(exc))
    where = ""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not f.filename.startswith(_HERE)]
    if frames:
        f = frames[-1]
        where = f" (in {f.name}, line {f.lineno})"
    name = type(exc).__name__
    return f"{name}: {msg}{where}" if msg else f"{name}{where}"


class Outcome:
    """What a run of learner code gave: ``value``, or ``error`` (a phrase) and the exception ``exc``."""

    __slots__ = ("value", "error", "exc")

    def __init__(self, value=None, error=None, exc=None):
        self.value, self.error, self.exc = value, error, exc

    def problem(self):
        """None when the function returned a number, else what went wrong (a phrase)."""
        if self.error:
            return self.error
        v = self.value
        if v is None:
            return "returned None (is a return statement missing?)"
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            return f"returned {v!r} ({type(v).__name__}), not a number"
        if math.isnan(float(v)):
            return "returned NaN"
        return None


class Printed:
    """Collects what learner code prints while it is checked (so outputs stay short and stable), and
    the gametrees search or evaluation functions it called (``library``: their names)."""

    def __init__(self):
        self.buffer = io.StringIO()
        self.library = []

    def lines(self):
        return len(self.buffer.getvalue().splitlines())


def run_learner(fn, args, printed, game=None, guard=True):
    """Calls ``fn(*args)`` with its prints going to ``printed`` (and ``game``'s call count reset); an
    :class:`Outcome`.

    With ``guard`` (the default), a call into gametrees' own search or evaluation inside ``fn`` stops it
    (see :class:`~gametrees.exercises.code_checks.guard.LibraryGuard`) and is listed in ``printed.library``.
    """
    if game is not None:
        game.calls = 0
    watch = LibraryGuard() if guard else None
    outcome = _call(fn, args, printed, watch)
    for name in getattr(watch, "used", ()):  # seen, even where the learner's code swallowed it
        if name not in printed.library:
            printed.library.append(name)
    if watch is not None and watch.used and not outcome.error:
        return Outcome(error=f"called {watch.used[0]}: {WRITE_IT_YOURSELF}")
    return outcome


# Functions that ran past TIME_LIMIT, with when: a check that calls the same function on many
# positions waits TIME_LIMIT once, not once per position (see _call).
_HUNG = {}


def _call(fn, args, printed, watch):
    import time

    key = getattr(fn, "__func__", fn)
    try:
        hung = _HUNG.get(key)
    except TypeError:  # unhashable callable
        key = hung = None
    if hung is not None and time.monotonic() - hung < 30 * TIME_LIMIT:
        return Outcome(error=f"was not run again: it did not return within {TIME_LIMIT:g} s on an earlier "
                             "call")
    try:
        with (
            contextlib.redirect_stdout(printed.buffer),
            watch or contextlib.nullcontext(),
            time_limit(TIME_LIMIT),
        ):
            value = fn(*args)
    except _TookTooLong:
        if key is not None:
            now = time.monotonic()
            for old in [k for k, t in _HUNG.items() if now - t >= 30 * TIME_LIMIT]:
                del _HUNG[old]  # (keeps no function longer than it is needed)
            _HUNG[key] = now
        return Outcome(error=f"did not return within {TIME_LIMIT:g} s (does it loop forever, or wait?)")
    except UsedLibrary as exc:
        return Outcome(error=f"called {exc.name}: {WRITE_IT_YOURSELF}")
    except _TooManyCalls:
        return Outcome(error=f"made more than {_BUDGET:,} calls to the game without finishing "
                              "(does it loop, or search the same positions over and over?)")
    except RecursionError as exc:
        return Outcome(error="raised RecursionError: maximum recursion depth exceeded "
                              "(does it stop at terminal states?)", exc=exc)
    except Exception as exc:  # noqa: BLE001 -- the learner's bug becomes feedback
        return Outcome(error=f"raised {describe_error(exc)}", exc=exc)
    return Outcome(value)


def error_hint(error):
    """A hint for a common exception in learner code."""
    if not error:
        return None
    if "no one moves there" in error or "arg is an empty sequence" in error or "is not a leaf" in error:
        return ("Test game.is_terminal(state) first, and return game.utility(state) there: a terminal state "
                "has no player to move and no moves.")
    if "make/unmake" in error:
        return "Use game.result(state, move): it returns the child's state and leaves state as it was."
    if "RecursionError" in error:
        return "The recursion must stop: return game.utility(state) when game.is_terminal(state) is true."
    if "unhashable" in error:
        return ("This test game's states are lists (mutable, unhashable): do not use them as dict keys or in "
                "sets.")
    if "is not a chance node" in error:
        return "Call game.chances(state) only where game.to_move(state) == 'chance'."
    if "not a state of this game" in error or "not a position" in error:
        return ("Pass states your function got from the game (game.initial, game.result(state, move)); "
                "a move that is made must also be undone.")
    return None


def check_callable(fn, where, signature, nargs):
    """A TypeError if ``fn`` is not callable; a message (str) if it cannot take ``nargs`` arguments, else
    None."""
    if not callable(fn):
        raise TypeError(f"{where} expects your function {signature}, got {fn!r} ({type(fn).__name__})")
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    try:
        sig.bind(*range(nargs))
    except TypeError:
        return (f"{where} calls your function as {signature}, with {nargs} "
                f"argument{'s' if nargs > 1 else ''}, but {getattr(fn, '__name__', 'it')}{sig} cannot take "
                "that.")
    return None


class CountingTree(TreeGame):
    """A tree as a game for learner code: counts calls, logs evaluations and generated children."""

    #: Methods whose answer depends only on the state and whose calls are not logged (only counted):
    #: the grader's child interpreter may answer a repeat itself (``utility`` and ``result`` are logged).
    PURE_METHODS = ("is_terminal", "to_move", "actions")

    def __init__(self, G):
        super().__init__(G)
        self.calls = 0
        self.evaluated = []
        self.generated = []

    def _tick(self, state):
        self.calls += 1
        if self.calls > _BUDGET:
            raise _TooManyCalls
        try:
            known = state in self._succ
        except TypeError:
            known = False
        if not known:
            raise ValueError(
                f"{state!r} is not a state of this game: its states are the tree's node ids, such as "
                f"{self.initial!r}"
            )

    def is_terminal(self, state):
        self._tick(state)
        return super().is_terminal(state)

    def utility(self, state):
        self._tick(state)
        self.evaluated.append(state)
        return super().utility(state)

    def to_move(self, state):
        self._tick(state)
        return super().to_move(state)

    def actions(self, state):
        self._tick(state)
        return super().actions(state)

    def result(self, state, move):
        self._tick(state)
        child = super().result(state, move)
        self.generated.append(child)
        return child

    def successors(self, state):
        self._tick(state)
        return list(super().successors(state))

    def chances(self, state):
        self._tick(state)
        return super().chances(state)

    def make(self, state, move):
        raise ValueError("this game's states are node ids, which never change: there is no make/unmake here")

    unmake = make


class ListStateGame(Game):
    """A tree as a game whose states are *mutable* lists of moves (child indices).

    ``result(state, move)`` returns a new list; ``make(state, move)`` and
    ``unmake(state, move)`` change the list in place. Any list that is not a
    path of the tree is refused, so a move that was never undone shows up.
    """

    def __init__(self, G):
        self._tree = TreeGame(G)
        self.initial = []
        self.calls = 0

    def __repr__(self):
        return "ListStateGame()"

    def _node(self, state):
        self.calls += 1
        if self.calls > _BUDGET:
            raise _TooManyCalls
        if not isinstance(state, list):
            raise TypeError(f"a state of this game is a list of moves, got {state!r}")
        n = tuple(state)
        if n not in self._tree.graph:
            raise StateError(
                f"{state!r} is not a position of this game: a move was made and never undone"
            )
        return n

    def to_move(self, state):
        return self._tree.to_move(self._node(state))

    def is_terminal(self, state):
        return self._tree.is_terminal(self._node(state))

    def utility(self, state):
        return self._tree.utility(self._node(state))

    def actions(self, state):
        return list(range(self._tree.graph.out_degree(self._node(state))))

    def chances(self, state):
        n = self._node(state)
        return [(c[-1], p) for c, p in self._tree.chances(n)]

    def _legal(self, state, move):
        if move not in self.actions(state):
            raise ValueError(f"move {move!r} is not legal in {state!r}; moves: {self.actions(state)}")

    def result(self, state, move):
        self._legal(state, move)
        return list(state) + [move]

    def successors(self, state):
        return [(m, list(state) + [m]) for m in self.actions(state)]

    def make(self, state, move):
        self._legal(state, move)
        state.append(move)

    def unmake(self, state, move):
        if not state or state[-1] != move:
            raise StateError(f"unmake({state!r}, {move!r}): the last move made was not {move!r}")
        state.pop()


class CountingTicTacToe(TicTacToe):
    """Tic-tac-toe for learner code: counts calls and logs evaluations."""

    #: As :attr:`CountingTree.PURE_METHODS` (``utility`` is logged).
    PURE_METHODS = ("is_terminal", "to_move", "actions", "result")

    def __init__(self):
        self.calls = 0
        self.evaluated = []

    def _tick(self):
        self.calls += 1
        if self.calls > _BUDGET:
            raise _TooManyCalls

    def is_terminal(self, state):
        self._tick()
        return super().is_terminal(state)

    def utility(self, state):
        self._tick()
        self.evaluated.append(state)
        return super().utility(state)

    def to_move(self, state):
        self._tick()
        return super().to_move(state)

    def actions(self, state):
        self._tick()
        return super().actions(state)

    def result(self, state, move):
        self._tick()
        return super().result(state, move)

    def successors(self, state):
        self._tick()
        return super().successors(state)


class CallLog:
    """While active, logs the calls a learner's function makes to itself by name.

    A function that recurses through its own global name (``def ab(...): ...
    ab(game, child, alpha, beta)``) is wrapped for the duration of the check
    (the name is restored afterwards), so the windows it passes down can be
    compared with alpha-beta's. Helpers called under other names are not seen.
    """

    def __init__(self, fn, positions):
        self.fn = fn
        self.calls = None
        self.installed = False
        self._globals = getattr(fn, "__globals__", None)
        self._name = getattr(fn, "__name__", None)
        try:
            self._sig = inspect.signature(fn)
            self._params = list(self._sig.parameters)
        except (TypeError, ValueError):
            self._sig = None
        self._positions = positions

        def wrapper(*args, **kwargs):
            entry = None
            if self.calls is not None and self._sig is not None:
                try:
                    bound = self._sig.bind(*args, **kwargs).arguments
                    entry = [bound[self._params[i]] for i in self._positions] + [None]
                except (TypeError, IndexError, KeyError):
                    entry = None
                if entry is not None:
                    entry[0] = tuple(entry[0]) if isinstance(entry[0], list) else entry[0]
                    self.calls.append(entry)
            r = fn(*args, **kwargs)
            if entry is not None:
                entry[-1] = r
            return r

        self.wrapper = wrapper

    def __enter__(self):
        g = self._globals
        if isinstance(g, dict) and self._name and g.get(self._name) is self.fn:
            g[self._name] = self.wrapper
            self.installed = True
        return self

    def __exit__(self, *exc):
        if self.installed and self._globals.get(self._name) is self.wrapper:
            self._globals[self._name] = self.fn
        self.installed = False
        return False


# ============================================================================
# Test material (built once, on first use)
# ============================================================================

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
CACHE = {}


def _map_leaves(spec, f):
    if isinstance(spec, list):
        return [_map_leaves(s, f) for s in spec]
    if isinstance(spec, dict):
        out = dict(spec)
        key = next(k for k in spec if k in (MAX, MIN, CHANCE))
        out[key] = [_map_leaves(s, f) for s in spec[key]]
        return out
    return f(spec)


def drawn_tree(seed, **settings):
    """A seeded random nested spec (ragged, depth 3 unless ``settings`` say otherwise) for test trees."""
    base = {"depth": 3, "branching": (1, 3), "values": (0, 20), "ragged": True, "players": None,
            "probabilities": "equal", "root_player": MAX}
    base.update(settings)
    return random_spec(random.Random(seed), base)


def nested_tree(spec, root=MAX):
    """The game tree of a nested-list spec, ``root`` to move first."""
    return tree_from_nested(spec, root_player=root)


def drawn_seed(seed, variant=None):
    """The seed of a drawn test tree: ``seed`` itself, or, for a student's ``variant`` (a string such as
    ``"jdoe/A2/q4"``), a seed made from both, so that every variant draws its own trees.

    Examples
    --------
    >>> drawn_seed(11), drawn_seed(11, "jdoe/A2/q4")
    (11, 'jdoe/A2/q4/11')
    """
    return seed if variant is None else f"{variant}/{seed}"


def _cached(key, variant, build):
    """``build()`` kept in :data:`CACHE` under ``(key, variant)`` (a few variants at a time)."""
    name = key if variant is None else (key, variant)
    if name not in CACHE:
        variants = [k for k in CACHE if isinstance(k, tuple)]
        for old in variants[:max(0, len(variants) - 16)]:
            del CACHE[old]
        CACHE[name] = build()
    return CACHE[name]


def minimax_groups(variant=None):
    """``[(description, [trees])]``: the test trees of :func:`~gametrees.exercises.check_minimax` (cached).

    With a ``variant`` (a student's seed, see :func:`drawn_seed`) the drawn trees (ragged, negative and
    fractional) are that variant's own; the fixed ones (the textbook tree, the small trees, ...) stay.
    """
    def build():
        d = lambda seed, **kw: drawn_tree(drawn_seed(seed, variant), **kw)  # noqa: E731
        ragged = [nested_tree(d(s, depth=4)) for s in (11, 12)]
        ragged += [nested_tree(d(13, depth=4), MIN)]
        return [
            ("the textbook tree [[3, 12, 8], [2, 4, 6], [14, 5, 2]]", [nested_tree(TEXTBOOK)]),
            ("small trees (a lone leaf, one MAX node, one MIN node)",
             [nested_tree(7), nested_tree([4, 9]), nested_tree([4, 9], MIN), nested_tree([[1, 5], 6])]),
            ("MIN at the root", [nested_tree(TEXTBOOK, MIN), nested_tree([[2, 9], [7, 1, 8], [4]], MIN)]),
            ("turns that do not alternate (MIN moves twice in a row)",
             [nested_tree({"max": [{"min": [{"min": [3, 8]}, {"min": [5, 1]}]},
                                   {"min": [{"min": [4, 6]}, 2]}]})]),
            ("ragged trees (leaves at different depths)", ragged),
            ("negative and fractional values",
             [nested_tree([[-1.5, 2.25], [0.5, -3.75, 1]]),
              nested_tree([[-3, -12, -8], [-2, -4, -6], [-14, -5, -2]]),
              nested_tree(_map_leaves(d(14, depth=3, values=(-12, 12)), lambda v: v / 4))]),
        ]
    return _cached("minimax", variant, build)


def alphabeta_groups(variant=None):
    """The test trees of :func:`~gametrees.exercises.check_alphabeta`: minimax's and ties, zeros, ... (cached;
    a ``variant`` draws its own, as in :func:`minimax_groups`)."""
    def build():
        return minimax_groups(variant) + [
            ("ties (a value equal to α or β)",
             [nested_tree([[3, 5], [3, 9]]), nested_tree([[3, 1], [3, 0]], MIN),
              nested_tree([[5, 5], [5, 5, 5], [5]])]),
            ("values of 0 (a bound of 0 must still cut)",
             [nested_tree([[0, 1], [-1, 5]]), nested_tree([[0, -1], [1, -5]], MIN),
              nested_tree([[0, 0], [0, 0, 0]])]),
            ("deeper trees (cutoffs far below the bound's owner)",
             [nested_tree([[[3, 5], [6, 9]], [[1, 2], [0, 8]]])]
             + [nested_tree(drawn_tree(drawn_seed(s, variant), depth=4, branching=(2, 3), ragged=False))
                for s in (21, 22)]),
        ]
    return _cached("alphabeta", variant, build)


def expectimax_groups(variant=None):
    """The test trees of :func:`~gametrees.exercises.check_expectimax` (cached; a ``variant`` draws its own,
    as in :func:`minimax_groups`)."""
    def build():
        d = lambda seed, **kw: drawn_tree(drawn_seed(seed, variant), **kw)  # noqa: E731
        mixed = {
            "players": (MAX, CHANCE, MIN),
            "probabilities": "varied",
            "branching": (2, 3),
            "ragged": False,
        }
        return [
            ("a MAX node over two chance nodes",
             [nested_tree([{"chance": [3, 12], "p": [0.25, 0.75]}, {"chance": [2, 4]}])]),
            ("equal probabilities", [nested_tree([{"chance": [4, 8]}, {"chance": [3, 5, 10]}])]),
            ("a chance node at the root", [nested_tree({"chance": [[1, 9], [4, 6]], "p": [0.3, 0.7]})]),
            ("MIN at the root",
             [nested_tree([{"chance": [3, 12], "p": [0.25, 0.75]}, {"chance": [2, 4]}], MIN)]),
            ("chance under chance", [nested_tree([{"chance": [{"chance": [2, 6], "p": [0.5, 0.5]}, 10],
                                             "p": [0.4, 0.6]}, 5])]),
            ("MAX, chance and MIN nodes", [nested_tree(d(s, depth=3, **mixed)) for s in (31, 32)]),
            ("negative and fractional values",
             [nested_tree(_map_leaves(d(33, depth=3, values=(-12, 12), **mixed), lambda v: v / 4))]),
        ]
    return _cached("expectimax", variant, build)


# Tic-tac-toe positions with few empty cells (values computed by the engine).
TTT_POSITIONS = ("XX./OO./...", "X.O/.O./X..", "XO./.X./..O", "XX./.O./...", "XOX/OO./X.X",
                  "XOX/.O./...", "XXX/OO./...", "OOO/XX./X..", "XOX/XOO/OXX")


def exact_values(G):
    """The engine's exact value of every node (expectimax equals minimax without chance)."""
    return expectimax(G, trace=True).graph
