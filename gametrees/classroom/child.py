"""The child interpreter that runs a learner's code for the grader (:func:`main`); its source is run, never imported.

The grader (:mod:`gametrees.classroom.sandbox`) starts ``python -I -S -c
<this file's text>``: no site-packages, no ``PYTHONPATH``, no current folder on
the path, so gametrees is not even on ``sys.path``. :func:`main` imports a few
standard modules a learner may use (``math``, ``itertools``, ``collections``,
``functools``, ``heapq``, ``random``, ...), then installs an audit hook, which
Python code cannot remove, *before* any learner code runs. From then on the
hook refuses, and reports to the grader:

* every import of a module not loaded yet (so neither gametrees nor
  ``subprocess``, ``ctypes``, ``threading``, ``socket``, ``gc``);
* every ``open`` (files, folders, the package's source, the course);
* every ``os.*`` event (``system``, ``fork``, ``exec``, ``posix_spawn``,
  ``listdir``, ``chdir``, ``remove``, ``kill``, ``putenv``, ...);
* ``sys.settrace``, ``sys.setprofile``, ``sys.addaudithook``;

and ``_thread.start_new_thread`` is replaced by a refusal. The child knows
nothing of the grading: it reads the learner's cells and calls their
functions when the grader asks, and reaches a game only through
:class:`GameProxy`, which forwards each method call to the grader over the
pipe. Values cross the pipe as JSON (numbers, strings, lists, tuples, dicts,
sets, None, bools; a game or a grader's function by handle), so an object
with a rigged ``__eq__`` cannot even be sent.

The protocol is one JSON object a line. Grader to child: ``load`` (the cells),
``call`` (a function by name, with arguments), and replies. Child to grader:
``game`` (a method of a game; ``n``: repeats of its pure methods answered in the
child since the last one, see ``GameProxy``), ``cb`` (a function of the grader handed to the
learner's code), ``refused`` (what the hook refused), ``loaded`` and replies.
Replies are ``{"op": "ret", "v": value}`` or ``{"op": "err", ...}``.

May import: the standard library only (and only inside :func:`main`).
"""


#: The standard modules the child loads before its hook (a learner's ``import math`` then just works).
PRELOADED = ("math", "cmath", "itertools", "functools", "collections", "heapq", "bisect", "operator", "random",
             "copy", "fractions", "decimal", "statistics", "string", "re", "numbers", "time", "enum", "typing",
             "dataclasses")


def main():  # pragma: no cover -- runs in the child interpreter (tests/test_grader.py drives it)
    """Run the child: preload the standard modules, install the hook, serve the grader until EOF."""
    import _thread
    import builtins
    import json
    import sys

    # What a learner may use: loaded now, before the hook, so that importing them later fires no event.
    for name in PRELOADED:
        __import__(name)

    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    write, flush, readline = stdout.write, stdout.flush, stdin.readline
    dumps, loads = json.dumps, json.loads
    phase = ["start"]

    def send(msg):
        write(dumps(msg, ensure_ascii=True, allow_nan=False).encode("ascii") + b"\n")
        flush()

    deny_prefix = ("os.", "subprocess.", "ctypes.", "socket.", "shutil.", "_posixsubprocess", "pty.", "fcntl.",
                   "mmap.", "resource.", "signal.", "sqlite3.", "urllib.", "http.", "webbrowser.", "glob.",
                   "tempfile.", "syslog.", "ftplib.", "smtplib.", "telnetlib.", "imaplib.", "poplib.", "msvcrt.",
                   "_winapi.", "winreg.", "cpython.run_", "sys.remote_exec")
    deny = {"open", "import", "sys.settrace", "sys.setprofile", "sys.addaudithook", "_thread.start_new_thread",
            "marshal.load", "sys._current_frames"}

    def hook(event, args):
        if event in deny or event.startswith(deny_prefix):
            try:
                detail = repr(args[0])[:160] if args else ""
            except Exception:  # noqa: BLE001
                detail = ""
            send({"op": "refused", "event": event, "detail": detail, "phase": phase[0]})
            raise PermissionError(f"refused while grading: {event} {detail}".strip())

    def no_thread(*args, **kwargs):
        hook("_thread.start_new_thread", ("a thread",))

    sys.addaudithook(hook)
    _thread.start_new_thread = no_thread
    if hasattr(_thread, "start_joinable_thread"):
        _thread.start_joinable_thread = no_thread

    class Sink:
        """Where the learner's prints go (not the pipe)."""

        def write(self, s):
            return len(s)

        def flush(self):
            pass

    sys.stdout = sys.stderr = Sink()
    inf = float("inf")

    class Remote:
        """A function of the grader, handed to the learner's code (a stand-in, or a logging wrapper)."""

        def __init__(self, ident, name):
            self._id, self.__name__ = ident, name

        def __call__(self, *args):
            return request({"op": "cb", "cb": self._id, "args": enc(list(args))})

    class GameProxy:
        """A game the grader holds: every method call goes over the pipe, except a repeated pure one.

        The grader names, per game, the methods whose answer depends only on their arguments and
        whose calls it does not record (``*pure``, from the game class's ``PURE_METHODS``: for the
        checks' tree games ``is_terminal``, ``to_move``, ``actions``, never ``utility``). The first call
        of one with given arguments goes to the grader; a repeat is answered here from :data:`MEMO`
        (a fresh copy of the grader's reply, so a learner who changes a returned list changes only
        that copy). Every other call, every ``utility`` above all, still goes to the grader, which
        keeps the record of the leaves evaluated on its own side: a learner who patches this class
        or fills the memo changes only what their own code is told, never that record. How many
        calls the memo answered is sent with the next call (``n``), and at least every ``SYNC``
        answers one call goes to the grader anyway, so the grader's budget of calls still stops a
        function that loops on them (one that lies about ``n`` is still stopped by the time limit).
        """

        def __init__(self, handle, attrs):
            attrs = dict(attrs)
            pure = attrs.pop("*pure", None)
            object.__setattr__(self, "_h", handle)
            object.__setattr__(self, "_pure", frozenset(pure) if type(pure) is list else frozenset())
            object.__setattr__(self, "_hits", 0)
            for k, v in attrs.items():
                object.__setattr__(self, k, dec(v))

        def _call(self, method, args):
            args = enc(list(args))
            key = None
            if method in self._pure:
                key = dumps([self._h, method, args], ensure_ascii=True, allow_nan=False)
                if key in MEMO and self._hits < SYNC:
                    object.__setattr__(self, "_hits", self._hits + 1)
                    return dec(MEMO[key])
            msg = {"op": "game", "g": self._h, "m": method, "args": args}
            if self._hits:
                msg["n"] = self._hits
                object.__setattr__(self, "_hits", 0)
            value = request(msg, raw=True)
            if key is not None and len(MEMO) < MEMO_SIZE:
                MEMO[key] = value
            return dec(value)

        def is_terminal(self, state):
            return self._call("is_terminal", (state,))

        def utility(self, state):
            return self._call("utility", (state,))

        def to_move(self, state):
            return self._call("to_move", (state,))

        def actions(self, state):
            return self._call("actions", (state,))

        def result(self, state, move):
            return self._call("result", (state, move))

        def successors(self, state):
            return self._call("successors", (state,))

        def chances(self, state):
            return self._call("chances", (state,))

        def make(self, state, move):
            new = self._call("make", (state, move))
            if type(state) is list and type(new) is list:
                state[:] = new

        def unmake(self, state, move):
            new = self._call("unmake", (state, move))
            if type(state) is list and type(new) is list:
                state[:] = new

        def __getattr__(self, name):
            if name.startswith("_"):
                raise AttributeError(name)
            return lambda *args: self._call(name, args)

        def __repr__(self):
            return "<game>"

    def enc(v, depth=0):
        t = type(v)
        if v is None or t is bool or t is int or t is str:
            return v
        if depth > 60:
            raise ValueError("a value nested more than 60 levels deep")
        if t is float:
            return v if v - v == 0 else {"f": repr(v)}  # finite (inf - inf and nan - nan are nan)
        if t is list:
            return [enc(x, depth + 1) for x in v]
        if t is tuple:
            return {"t": [enc(x, depth + 1) for x in v]}
        if t is dict:
            return {"d": [[enc(k, depth + 1), enc(x, depth + 1)] for k, x in v.items()]}
        if t is set or t is frozenset:
            return {"s": [enc(x, depth + 1) for x in v]}
        if t is GameProxy:
            return {"g": object.__getattribute__(v, "_h")}
        if t is Remote:
            return {"cb": v._id}
        raise TypeError(f"a {t.__name__} object, not a number, string, bool, None or a list/tuple/dict/set of them")

    def dec(v):
        if type(v) is list:
            return [dec(x) for x in v]
        if type(v) is dict:
            (k, x), = v.items()
            if k == "t":
                return tuple(dec(y) for y in x)
            if k == "d":
                return {dec(a): dec(b) for a, b in x}
            if k == "s":
                return {dec(y) for y in x}
            if k == "f":
                return float(x)
            if k == "g":
                if type(x) is list:
                    GAMES[x[0]] = GameProxy(x[0], x[1])
                    return GAMES[x[0]]
                return GAMES[x]
            if k == "cb":
                return Remote(x[0], x[1])
        return v

    GAMES, ORIG = {}, {}
    # The grader's answers to the pure methods of a game (see GameProxy), by the encoded call.
    MEMO, MEMO_SIZE, SYNC = {}, 200_000, 500
    NS = {"__name__": "__main__", "__builtins__": builtins}

    def failure(exc, what=None):
        fname, line = None, None
        tb = exc.__traceback__
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename.startswith("<cell"):
                fname, line = code.co_name, tb.tb_lineno
            tb = tb.tb_next
        try:
            text = str(exc)[:400]
        except BaseException:  # noqa: BLE001
            text = ""
        name = type(exc).__name__ if isinstance(type(exc).__name__, str) else "Exception"
        return {"op": "err", "type": name[:60], "msg": what or text, "fname": fname, "line": line}

    def do_call(msg):
        for name, cb in msg.get("swap", {}).items():
            NS[name] = ORIG.get(name) if cb is None else Remote(cb[0], cb[1])
        fn = ORIG.get(msg["fn"])
        phase[0] = "call"
        try:
            value = fn(*dec(msg["args"]))
        except BaseException as exc:  # noqa: BLE001 -- everything is the learner's outcome
            return failure(exc)
        try:
            return {"op": "ret", "v": enc(value)}
        except (TypeError, ValueError, RecursionError) as exc:
            return {"op": "err", "type": "ReturnedObject", "msg": f"returned {exc}", "fname": None, "line": None}

    def request(msg, raw=False):
        send(msg)
        while True:
            line = readline()
            if not line:
                raise SystemExit(0)
            reply = loads(line)
            op = reply["op"]
            if op == "ret":
                return reply["v"] if raw else dec(reply["v"])
            if op == "err":
                kind = getattr(builtins, reply["type"], None)
                if not (isinstance(kind, type) and issubclass(kind, Exception)):
                    kind = RuntimeError
                raise kind(reply["msg"])
            if op == "call":
                send(do_call(reply))

    def load(msg):
        phase[0] = "load"
        for handle, attrs in msg.get("games", {}).items():
            GAMES[handle] = GameProxy(handle, attrs)
        NS.update({k: dec(v) for k, v in msg.get("names", {}).items()})
        errors = []
        for label, source in msg["cells"]:
            try:
                exec(compile(source, f"<cell {label}>", "exec"), NS)
            except BaseException as exc:  # noqa: BLE001 -- a cell that fails is reported, the rest still load
                errors.append([label, failure(exc)["type"], failure(exc)["msg"][:200]])
        functions = {}
        for name in msg["functions"]:
            fn = NS.get(name)
            ORIG[name] = fn
            code = getattr(fn, "__code__", None)
            if code is None or type(code).__name__ != "code":
                functions[name] = None if fn is None else ["callable" if callable(fn) else "value"]
                continue
            n = code.co_argcount
            defaults = len(getattr(fn, "__defaults__", None) or ())
            functions[name] = ["function", list(code.co_varnames[:n]), defaults, bool(code.co_flags & 0x04)]
        phase[0] = "idle"
        return {"op": "loaded", "functions": functions, "errors": errors}

    while True:
        line = readline()
        if not line:
            return
        msg = loads(line)
        if msg["op"] == "load":
            send(load(msg))
        elif msg["op"] == "call":
            send(do_call(msg))
        phase[0] = "idle"


if __name__ == "__main__":  # pragma: no cover
    main()
