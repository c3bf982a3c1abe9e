"""The grader's side of a learner's code run in a child interpreter: :class:`Sandbox`,
:class:`LearnerFunction`.

A :class:`Sandbox` starts the child of :mod:`gametrees.classroom.child`
(``python -I -S``) inside the operating system's walls of
:mod:`gametrees.classroom.isolation` (its own namespaces, the standard library
the only Python it can see, no network, an empty scratch folder the only place
it may write, limits on memory, processes and file size), an audit hook as a
second layer only; sends it the learner's cells, and hands the grader one
:class:`LearnerFunction` per graded function. Calling one runs the learner's
function in the child; every game method it calls comes back over the pipe and
runs here, on the grader's own game object, so the checks see exactly which
leaves it evaluated and which children it generated. The one exception: a
repeated call of a method the game's class declares pure and unrecorded
(:func:`pure_methods`, e.g. ``to_move`` of a test tree) is answered by the child
from a copy of the grader's first answer (its count still reaches the grader's
budget of calls); ``utility`` of a game that logs the leaves, and ``result`` of
one that logs the children, always come here. The grader's process never
runs learner code and never unpickles anything from the child: replies are
JSON, decoded into plain numbers, strings and containers, by the codec the child
shares (:mod:`gametrees.classroom.wire`).

A call that does not return within ``call_limit`` seconds raises
:class:`CallTimedOut` (the child is stopped), and one past the question's own
``deadline`` :class:`QuestionTimedOut`; a child that dies raises
:class:`ChildBroken`, and a line on the pipe that is not the child's next
message (not JSON, not a message, out of sequence, too long, or any line left
after its reply: the learner's code wrote to the pipe) raises its subclass
:class:`ChannelForged`. All are BaseExceptions, so they stop a checker at once
instead of being reported as the learner's own error.
Everything the hook refused is in :attr:`Sandbox.refused`.

May import: the standard library, :mod:`gametrees.classroom.isolation` and :mod:`gametrees.classroom.wire`.
"""

from __future__ import annotations

import builtins
import collections
import inspect
import keyword
import os
import select
import subprocess
import tempfile
import time
from pathlib import Path

from . import isolation, wire
from .wire import MAX_LINE, Channel, Codec, WireError

#: The child's source, run with ``python -I -S -c``: the wire's text, then the child's (no gametrees import).
CHILD_SOURCE = "\n\n".join(Path(wire.__file__).with_name(name).read_text(encoding="utf-8")
                           for name in ("wire.py", "child.py"))
#: Game methods a learner's code may call through the proxy.
GAME_METHODS = frozenset({"is_terminal", "utility", "to_move", "actions", "result", "successors", "chances",
                          "make", "unmake", "from_moves", "display", "check_state"})


class CallTimedOut(BaseException):
    """The learner's function did not return within the limit (the child was stopped)."""

    def __init__(self, seconds, name):
        super().__init__(f"your function {name} did not return within {seconds:g} s")
        self.seconds, self.name = seconds, name


class QuestionTimedOut(CallTimedOut):
    """The whole question (every call of its check, a tournament's included) ran past its own limit."""

    def __init__(self, seconds, name=""):
        BaseException.__init__(self, f"grading this question took more than {seconds:g} s (its limit) and "
                                     "was stopped there")
        self.seconds, self.name = seconds, name


class ChildBroken(BaseException):
    """The child ended, or sent what is not the protocol (:class:`ChannelForged`)."""


class ChannelForged(ChildBroken):
    """A line on the pipe that is not the child's next message: the learner's code wrote to (or read) it."""

    def __init__(self, why, what="wrote to"):
        super().__init__(f"your code {what} the grader's channel ({why})")
        self.what, self.why = what, why


def _safe_name(text, default):
    return text if isinstance(text, str) and text.isidentifier() and not keyword.iskeyword(text) else default


def _raise_in(exc, fname, line):
    """Raise ``exc`` from a frame named like the learner's function, so messages read "(in f, line 7)"."""
    fname = _safe_name(fname, "your_function")
    line = line if isinstance(line, int) and 1 < line < 100_000 else 2
    namespace = {}
    exec(compile("\n" * (line - 2) + f"def {fname}(e):\n    raise e\n", "<learner code>", "exec"), namespace)
    namespace[fname](exc)


class Sandbox:
    """One child interpreter holding one learner's cells.

    Parameters
    ----------
    cells : list of (str, str)
        ``(label, source)`` of the cells to run in the child, in order.
    functions : list of str
        The names of the functions to grade (each gets a :class:`LearnerFunction`).
    games : dict, optional
        ``{name: game}``: games bound to a name in the child before the cells run.
    call_limit : float
        Seconds a call of a learner's function may take.
    load_limit : float
        Seconds the cells may take to run.

    Attributes: ``functions`` (name -> :class:`LearnerFunction`, or None when the cells do not define
    it), ``refused`` (what the child's hook refused: ``(event, detail, phase)``), ``load_errors``,
    ``timed_out`` (``(what, seconds)`` once a call or the cells ran out of time), ``broken`` (the
    :class:`ChildBroken` that ended the child, or None), ``calls``.
    """

    def __init__(self, cells, functions, *, games=None, call_limit=5.0, load_limit=10.0, deadline=None,
                 question_limit=None):
        self.cells, self.names = list(cells), list(functions)
        self.deadline, self.question_limit = deadline, question_limit
        self.bound_games = dict(games or {})
        self.call_limit, self.load_limit = float(call_limit), float(load_limit)
        self.refused = []          # [(event, detail, phase)]
        self.load_errors = []
        self.functions = {}        # name -> LearnerFunction (or None when the cells do not define it)
        self.namespace = {}        # the shared __globals__ of the LearnerFunctions
        self.timed_out = None
        self.broken = None
        self.calls = 0
        self._proc = self._tmp = self._box = None
        self._buf, self._lines, self._channel = bytearray(), collections.deque(), Channel()
        self._codec = Codec(self._encode_other, self._decode_handle)
        self._games, self._game_ids = {}, {}
        self._callbacks, self._callback_ids = {}, {}
        self._depth = 0
        self._deadline = None
        self._last = None
        self._start()

    # -- the child process -------------------------------------------------------------------------

    def _start(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="gametrees-child-")
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONHASHSEED": "0"}
        self.isolation = isolation.current()
        work = os.path.join(self._tmp.name, "work")  # inside: an empty tmpfs of bounded size, the cwd
        self._box = self.isolation.start(
            [isolation.interpreter(False), "-I", "-S", "-c", CHILD_SOURCE], scratch=self._tmp.name, env=env,
            writable=[work], cwd=work, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL)
        self._proc = self._box.proc
        self._buf, self._lines, self._channel = bytearray(), collections.deque(), Channel()
        self._games, self._game_ids, self._sent = {}, {}, set()
        games = {}
        names = {}
        for name, game in self.bound_games.items():
            handle = self._handle(game)
            games[handle] = self._game_attrs(game)
            self._sent.add(handle)
            names[name] = {"g": handle}
        self._deadline = self._until(self.load_limit)
        try:
            seq = self._send({"op": "load", "cells": self.cells, "functions": self.names, "games": games,
                              "names": names})
            functions, errors = _loaded(self._wait("loaded", re=seq))
            self._quiet()
        except CallTimedOut:
            self.timed_out = ("loading your cells", self.load_limit)
            why = f"your cells did not finish running within {self.load_limit:g} s"
            functions, errors = {}, [["*", "Timeout", why]]
        except ChildBroken as exc:
            self.broken = exc
            functions, errors = {}, []
        finally:
            self._deadline = None
        self.load_errors = [tuple(e) for e in errors]
        self.namespace.clear()
        for name in self.names:
            info = functions.get(name)
            self.functions[name] = (None if info is None or info[0] == "value"
                                    else LearnerFunction(self, name, info))
            if self.functions[name] is not None:
                self.namespace[name] = self.functions[name]

    def restart(self):
        """A fresh child with the same cells (after a call that left the child mid-way)."""
        self.close()
        self._start()

    def close(self):
        """Stop the child (its whole sandbox) and remove its folder."""
        proc = self._proc
        if self._box is not None:
            self._box.kill()
            self._box = None
        if proc is not None:
            for stream in (proc.stdin, proc.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
        self._proc = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    # -- encoding ------------------------------------------------------------------------------------

    def _handle(self, game):
        key = id(game)
        if key not in self._game_ids:
            handle = str(len(self._games))
            self._games[handle] = game
            self._game_ids[key] = handle
        return self._game_ids[key]

    def _game_attrs(self, game):
        attrs = {"*pure": pure_methods(game)}
        for name in ("initial", "rows", "cols", "k"):
            if hasattr(game, name):
                try:
                    attrs[name] = self._codec.encode(getattr(game, name))
                except (TypeError, ValueError):
                    pass
        return attrs

    def _callback(self, fn):
        key = id(fn)
        if key not in self._callback_ids:
            ident = len(self._callbacks)
            self._callbacks[ident] = fn
            self._callback_ids[key] = ident
        return [self._callback_ids[key], _safe_name(getattr(fn, "__name__", None), "stand_in")]

    def _encode_other(self, v):
        """The wire's hook for what is not plain data: a game or a grader's function by handle."""
        if isinstance(v, LearnerFunction):
            raise TypeError("a learner's function cannot be passed back to the child")
        if hasattr(v, "is_terminal"):
            handle = self._handle(v)
            if handle in self._sent:
                return {"g": handle}
            self._sent.add(handle)
            return {"g": [handle, self._game_attrs(v)]}
        if callable(v):
            return {"cb": self._callback(v)}
        t = type(v)
        if isinstance(v, (int, float, str)):  # e.g. numpy scalars, str subclasses from the library
            return self._codec.encode(t.__mro__[1](v) if t.__mro__[1] in (int, float, str) else float(v))
        raise TypeError(f"cannot send a {t.__name__} to the learner's code")

    def _decode_handle(self, tag, x):
        """The wire's hook for a handle from the child: only a game or a function the grader sent it."""
        if tag == "g" and type(x) is str and x in self._games:
            return self._games[x]
        if tag == "cb" and type(x) is int and x in self._callbacks:
            return self._callbacks[x]
        raise WireError(f"an unknown handle {tag}")

    # -- the pipe --------------------------------------------------------------------------------------

    def _send(self, msg):
        """Send ``msg`` as the grader's next message; returns its number (a reply echoes it as ``re``)."""
        seq = self._channel.sent
        data = self._channel.frame(msg)
        try:
            self._proc.stdin.write(data)
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError) as exc:
            raise ChildBroken("the process running your code ended") from exc
        return seq

    def _read(self, wait):
        """Read what the child wrote, waiting at most ``wait`` s (None: until it writes); False: nothing."""
        fd = self._proc.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], wait)
        if not ready:
            return False
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            code = self._proc.poll()
            why = "" if code is None or code >= 0 else f" (stopped by signal {-code}: too much memory?)"
            raise ChildBroken(f"the process running your code ended{why}")
        if b"\n" in chunk:
            *lines, rest = (bytes(self._buf) + chunk).split(b"\n")
            self._lines.extend(lines)
            self._buf = bytearray(rest)
        else:
            self._buf += chunk
        if len(self._buf) > MAX_LINE:
            raise ChannelForged(f"a line of more than {MAX_LINE >> 20} MB")
        return True

    def _message(self):
        """The next complete line as the child's next message, or None (a refusal is recorded and skipped)."""
        while self._lines:
            try:
                msg = self._channel.parse(self._lines.popleft())
            except WireError as exc:
                raise ChannelForged(str(exc)) from None
            if msg["op"] == "refused":
                self.refused.append((str(msg.get("event"))[:60], str(msg.get("detail"))[:160],
                                     str(msg.get("phase"))[:10]))
                continue
            if msg["op"] == "desync":
                raise ChannelForged(str(msg.get("why"))[:100], what="read from")
            return msg
        return None

    def _receive(self):
        """The child's next message, waiting until the deadline (:meth:`_out_of_time` after it)."""
        while True:
            msg = self._message()
            if msg is not None:
                return msg
            wait = None if self._deadline is None else self._deadline - time.monotonic()
            if (wait is not None and wait <= 0) or not self._read(wait):
                self._out_of_time()

    def _until(self, seconds):
        """The deadline of a step that may take ``seconds``, never past the question's own."""
        until = time.monotonic() + seconds
        return until if self.deadline is None else min(until, self.deadline)

    def _out_of_time(self):
        if self.deadline is not None and time.monotonic() >= self.deadline - 1e-3:
            raise QuestionTimedOut(self.question_limit or 0)
        raise CallTimedOut(self.call_limit, "")

    def _quiet(self):
        """After the child's reply nothing may wait on the pipe but refusals: a line there is forged."""
        for _ in range(MAX_LINE >> 16):  # what one line may hold, at most
            msg = self._message()
            if msg is not None:
                raise ChannelForged(f"a {msg['op'][:20]} message after the reply")
            if not self._read(0):
                break
        else:
            raise ChannelForged("lines without end after the reply")
        if self._buf:
            raise ChannelForged("bytes after the reply")

    def sync(self):
        """Check that the channel is in step after the last call: a round trip that nothing may precede.

        Whatever the child wrote after its last reply (a forged reply's real one, above all) comes
        before the child's answer here and raises :class:`ChannelForged`. Nothing to check (returns at
        once) when the child already ended, timed out or broke.
        """
        if self._proc is None or self.timed_out or self.broken:
            return
        self._deadline = self._until(self.call_limit)
        try:
            seq = self._send({"op": "sync"})
            self._wait("synced", re=seq)
            self._quiet()
        except QuestionTimedOut:
            self.timed_out = (f"{self._last}()" if self._last else "your cells", self.call_limit)
            self.close()
            raise
        except CallTimedOut:
            what = f"{self._last}()" if self._last else "your cells"
            self.timed_out = (what, self.call_limit)
            self.close()
            raise CallTimedOut(self.call_limit, what) from None
        except ChildBroken as exc:
            self.broken = exc
            self.close()
            raise
        finally:
            self._deadline = None

    def _wait(self, *replies, re):
        """Serve the child's requests until it sends one of ``replies`` (ops) to message ``re``; return it."""
        while True:
            msg = self._receive()
            op = msg["op"]
            if op in replies:
                if msg.get("re") != re:
                    got = str(msg.get("re"))[:20]
                    raise ChannelForged(f"a reply to message {got} where one to {re} was due")
                return msg
            if op == "game":
                target = self._games.get(msg.get("g")) if type(msg.get("g")) is str else None
                method = msg.get("m")
                if target is None or type(method) is not str or method not in GAME_METHODS or not hasattr(
                        target, method):
                    self._send({"op": "err", "re": msg["seq"], "type": "AttributeError",
                                "msg": f"the game has no method {str(method)[:40]!r} here"})
                    continue
                repeats = msg.get("n")
                if type(repeats) is int and 0 < repeats <= MEMO_SYNC \
                        and type(getattr(target, "calls", None)) is int:
                    target.calls += repeats  # calls the child answered from its memo count towards the budget
                fn = getattr(target, method)
            elif op == "cb" and type(msg.get("cb")) is int and msg["cb"] in self._callbacks:
                fn = self._callbacks[msg["cb"]]
            else:
                raise ChannelForged(f"a {op[:20]} message where {' or '.join(replies)} was due")
            try:
                args = self._codec.decode(msg.get("args"))
                if not isinstance(args, list):
                    raise WireError("arguments that are not a list")
            except (WireError, RecursionError) as exc:
                raise ChannelForged(str(exc)[:100]) from None
            try:
                value = fn(*args)
                if method_returns_state(op, msg.get("m")):
                    value = args[0]  # make/unmake change the state in place: send it back
                reply = {"op": "ret", "re": msg["seq"], "v": self._codec.encode(value)}
            except Exception as exc:  # noqa: BLE001 -- the game's error goes back to the learner's code
                kind = type(exc).__name__ if type(exc).__module__ == "builtins" else next(
                    (k.__name__ for k in type(exc).__mro__ if k.__module__ == "builtins"), "RuntimeError")
                reply = {"op": "err", "re": msg["seq"], "type": kind, "msg": str(exc)[:500]}
            self._send(reply)

    def call(self, name, args, swap=None):
        """Run the learner's function ``name`` on ``args`` in the child; its value (plain data) or its
        exception."""
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise QuestionTimedOut(self.question_limit or 0)
        if self.timed_out:
            raise CallTimedOut(self.timed_out[1], self.timed_out[0])
        if self.broken:
            raise self.broken.with_traceback(None)
        self.calls += 1
        self._last = name
        data = self._codec.encode(list(args))
        top = self._depth == 0
        if top:
            self._deadline = self._until(self.call_limit)
        self._depth += 1
        ok = False
        try:
            seq = self._send({"op": "call", "fn": name, "args": data, "swap": swap or {}})
            reply = self._wait("ret", "err", re=seq)
            try:
                value = self._codec.decode(reply.get("v")) if reply["op"] == "ret" else None
            except WireError as exc:
                raise ChannelForged(str(exc)[:100]) from None
            if top:
                self._quiet()
            ok = True
        except QuestionTimedOut:
            self.timed_out = (f"{name}()", self.call_limit)
            self.close()
            raise
        except CallTimedOut:
            self.timed_out = (f"{name}()", self.call_limit)
            self.close()
            raise CallTimedOut(self.call_limit, f"{name}()") from None
        except ChildBroken as exc:
            self.broken = exc
            self.close()
            raise
        finally:
            self._depth -= 1
            if top:
                self._deadline = None
            if not ok and self._proc is not None and not self.timed_out and not self.broken:
                self.restart()  # a grader-side stop (a budget, a guard) left the child mid-call
        if reply["op"] == "ret":
            return value
        kind = reply.get("type")
        msg = str(reply.get("msg", ""))[:500]
        if kind == "ReturnedObject":
            raise _returned_object_error(msg)
        exc_type = getattr(builtins, kind, None) if isinstance(kind, str) else None
        if not (isinstance(exc_type, type) and issubclass(exc_type, Exception)):
            if kind in ("KeyboardInterrupt", "SystemExit"):
                exc_type = RuntimeError
                msg = f"{kind} {msg}".strip()
            else:
                exc_type = type(_safe_name(kind, "LearnerError"), (Exception,), {})
        exc = exc_type(msg)
        _raise_in(exc, reply.get("fname"), reply.get("line"))


def _loaded(reply):
    """``(functions, errors)`` of the child's ``loaded`` reply (:class:`ChannelForged` if it is not one)."""
    functions, errors = reply.get("functions"), reply.get("errors")
    if type(functions) is not dict or type(errors) is not list:
        raise ChannelForged("a reply to the cells that is not the child's")
    infos = [info for info in functions.values() if info is not None]
    well_formed = (
        all(type(e) is list and len(e) == 3 and all(type(x) is str for x in e) for e in errors)
        and all(type(info) is list and info and type(info[0]) is str for info in infos)
        and all(info[0] != "function" or (len(info) == 4 and type(info[1]) is list and type(info[2]) is int
                                          and 0 <= info[2] <= len(info[1])) for info in infos))
    if not well_formed:
        raise ChannelForged("a reply to the cells that is not the child's")
    return functions, errors


#: Game methods the child may answer itself when repeated (see :func:`pure_methods`), and how many such
#: answers it may give before one call goes to the grader again (child.py's ``SYNC``).
MEMO_METHODS = frozenset({"is_terminal", "to_move", "actions", "result", "utility"})
MEMO_SYNC = 500


def pure_methods(game):
    """The methods of ``game`` the child may answer from its memo when called again with the same arguments.

    Those the game's own class (not a base class: a subclass that records calls must say so itself)
    lists in ``PURE_METHODS``: their answer depends only on their arguments and nobody records their
    calls. A call the grader must see (``utility`` of a game that logs the leaves evaluated, ``result``
    of one that logs the children generated) is never among them, so it always comes to the grader.

    Examples
    --------
    >>> class Logged:
    ...     PURE_METHODS = ("to_move", "actions", "make")
    >>> class Sub(Logged):
    ...     pass
    >>> pure_methods(Logged()), pure_methods(Sub())
    (['actions', 'to_move'], [])
    """
    declared = type(game).__dict__.get("PURE_METHODS", ())
    if not isinstance(declared, (tuple, frozenset, set, list)):
        return []
    return sorted(m for m in declared if m in MEMO_METHODS)


def method_returns_state(op, method):
    """Whether a game call changes its state argument in place (its new value goes back to the child)."""
    return op == "game" and method in ("make", "unmake")


class ReturnedObjectError(TypeError):
    """The learner's function returned something other than plain data."""


def _returned_object_error(msg):
    return ReturnedObjectError(msg)


class LearnerFunction:
    """A learner's function as the grader's checks see it: calling it runs it in the :class:`Sandbox`.

    It has a ``__name__``, a ``__signature__`` (from the child's code object) and a
    ``__globals__`` shared by the functions of one sandbox: a check that puts
    something else under a function's name there (a logging wrapper, a correct
    stand-in) is followed by the learner's code in the child, which then calls
    the grader's object instead.
    """

    def __init__(self, sandbox, name, info):
        self.sandbox = sandbox
        self.__name__ = self.__qualname__ = name
        self.__globals__ = sandbox.namespace
        self.__signature__ = None
        if info[0] == "function":
            _, params, defaults, varargs = info
            params = [_safe_name(p, f"arg{i}") for i, p in enumerate(params)]
            first_default = len(params) - defaults
            plist = [inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                       default=None if i >= first_default else inspect.Parameter.empty)
                     for i, p in enumerate(params)]
            if varargs:
                plist.append(inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL))
            try:
                self.__signature__ = inspect.Signature(plist)
            except ValueError:
                self.__signature__ = None

    def __call__(self, *args, **kwargs):
        if kwargs:
            if self.__signature__ is None:
                raise TypeError(f"{self.__name__}() got keyword arguments")
            bound = self.__signature__.bind(*args, **kwargs)
            args = tuple(bound.args)
        swap = {}
        for name, fn in self.sandbox.functions.items():
            if fn is None:
                continue
            current = self.__globals__.get(name)
            swap[name] = None if current is fn else self.sandbox._callback(current)
        return self.sandbox.call(self.__name__, args, swap)

    def __repr__(self):
        return f"<your function {self.__name__}>"
