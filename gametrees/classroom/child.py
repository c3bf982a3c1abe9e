"""The child interpreter that runs a learner's code for the grader (:func:`main`); its source is run, never
imported.

The grader (:mod:`gametrees.classroom.sandbox`) starts ``python -I -S -c
<wire.py's text + this file's text>``: no site-packages, no ``PYTHONPATH``, no
current folder on the path, so gametrees is not even on ``sys.path``. The names
this file uses without defining them (:class:`Codec`, :class:`Channel`,
:class:`WireError`, :func:`text`, :func:`cannot_send`) are
:mod:`gametrees.classroom.wire`'s, whose text runs first: the two ends speak one
wire.

The program, in order (:func:`main`):

1. load the standard modules a learner may use (:data:`PRELOADED`);
2. :func:`install_hook`: an audit hook, which Python code cannot remove,
   refuses and reports to the grader every import of a module not loaded yet
   (so neither gametrees nor ``subprocess``, ``ctypes``, ``threading``,
   ``socket``, ``gc``), every ``open``, every ``os.*`` event (``system``,
   ``fork``, ``listdir``, ``kill``, ``putenv``, ...), ``sys.settrace``,
   ``sys.setprofile``, ``sys.addaudithook``; threads are refused too. It is a
   second layer only: the operating system's sandbox around this process is
   the wall;
3. :meth:`Child.serve`: answer the grader's messages until it closes the pipe.

The child knows nothing of the grading: it runs the learner's cells
(:meth:`Child.load`) and calls their functions when the grader asks
(:meth:`Child.call`), and reaches a game only through :class:`GameProxy` and a
grader's function only through :class:`Remote`, both of which ask the grader
(:meth:`Child.request`).

The messages (numbered per direction, see :class:`Channel`). Grader to child:
``load`` (the cells), ``call`` (a function by name, with arguments), and
replies. Child to grader: ``game`` (a method of a game; ``n``: repeats of its
pure methods answered in the child since the last one, see :class:`GameProxy`),
``cb`` (a function of the grader handed to the learner's code), ``refused``
(what the hook refused), ``loaded``, ``desync`` (a grader's message out of
sequence: something read the pipe) and replies. Replies are
``{"op": "ret", "v": value}`` or ``{"op": "err", ...}``, each with ``re``: the
number of the message it answers. ``sync`` (answered by ``synced``) lets the
grader check that nothing came after the last reply.

May import: the standard library only, and only inside functions.
"""
# ruff: noqa: F821 -- Codec, Channel, WireError, text, cannot_send: wire.py's, whose text runs first


#: The standard modules the child loads before its hook (a learner's ``import math`` then just works).
PRELOADED = ("math", "cmath", "itertools", "functools", "collections", "heapq", "bisect", "operator",
             "random", "copy", "fractions", "decimal", "statistics", "string", "re", "numbers", "time",
             "enum", "typing", "dataclasses")
#: Audit events the hook refuses: these, and every event whose name starts with one of ``REFUSED_PREFIXES``.
REFUSED = ("open", "import", "sys.settrace", "sys.setprofile", "sys.addaudithook", "_thread.start_new_thread",
           "marshal.load", "sys._current_frames")
REFUSED_PREFIXES = (
    "os.", "subprocess.", "ctypes.", "socket.", "shutil.", "_posixsubprocess", "pty.", "fcntl.", "mmap.",
    "resource.", "signal.", "sqlite3.", "urllib.", "http.", "webbrowser.", "glob.", "tempfile.", "syslog.",
    "ftplib.", "smtplib.", "telnetlib.", "imaplib.", "poplib.", "msvcrt.", "_winapi.", "winreg.",
    "cpython.run_", "sys.remote_exec")
#: How many answers of pure game methods the child remembers, and how many it may give before one call
#: goes to the grader anyway (the grader's ``MEMO_SYNC``).
MEMO_SIZE, SYNC = 200_000, 500


def install_hook(report):
    """Refuse (raise ``PermissionError``) and ``report(event, detail)`` every refused event from now on."""
    import _thread
    import sys

    refused, prefixes = set(REFUSED), REFUSED_PREFIXES

    def hook(event, args):
        if event in refused or event.startswith(prefixes):
            try:
                detail = repr(args[0])[:160] if args else ""
            except Exception:  # noqa: BLE001
                detail = ""
            report(event, detail)
            raise PermissionError(f"refused while grading: {event} {detail}".strip())

    def no_thread(*args, **kwargs):
        hook("_thread.start_new_thread", ("a thread",))

    sys.addaudithook(hook)
    _thread.start_new_thread = no_thread
    if hasattr(_thread, "start_joinable_thread"):
        _thread.start_joinable_thread = no_thread
    return hook


class Sink:
    """Where the learner's prints go (not the pipe)."""

    def write(self, s):
        return len(s)

    def flush(self):
        pass


class Remote:
    """A function of the grader, handed to the learner's code (a stand-in, or a logging wrapper)."""

    def __init__(self, child, ident, name):
        self._child, self._id, self.__name__ = child, ident, name

    def __call__(self, *args):
        return self._child.request({"op": "cb", "cb": self._id, "args": self._child.codec.encode(list(args))})


class GameProxy:
    """A game the grader holds: every method call goes over the pipe, except a repeated pure one.

    The grader names, per game, the methods whose answer depends only on their arguments and
    whose calls it does not record (``*pure``, from the game class's ``PURE_METHODS``: for the
    checks' tree games ``is_terminal``, ``to_move``, ``actions``, never ``utility``). The first call
    of one with given arguments goes to the grader; a repeat is answered here from the child's memo
    (a fresh copy of the grader's reply, so a learner who changes a returned list changes only
    that copy). Every other call, every ``utility`` above all, still goes to the grader, which
    keeps the record of the leaves evaluated on its own side: a learner who patches this class
    or fills the memo changes only what their own code is told, never that record. How many
    calls the memo answered is sent with the next call (``n``), and at least every ``SYNC``
    answers one call goes to the grader anyway, so the grader's budget of calls still stops a
    function that loops on them (one that lies about ``n`` is still stopped by the time limit).
    """

    def __init__(self, child, handle, attrs):
        attrs = dict(attrs)
        pure = attrs.pop("*pure", None)
        object.__setattr__(self, "_child", child)
        object.__setattr__(self, "_h", handle)
        object.__setattr__(self, "_pure", frozenset(pure) if type(pure) is list else frozenset())
        object.__setattr__(self, "_hits", 0)
        for k, v in attrs.items():
            object.__setattr__(self, k, child.codec.decode(v))

    def _call(self, method, args):
        child = self._child
        args = child.codec.encode(list(args))
        key = None
        if method in self._pure:
            key = text([self._h, method, args])
            if key in child.memo and self._hits < SYNC:
                object.__setattr__(self, "_hits", self._hits + 1)
                return child.codec.decode(child.memo[key])
        msg = {"op": "game", "g": self._h, "m": method, "args": args}
        if self._hits:
            msg["n"] = self._hits
            object.__setattr__(self, "_hits", 0)
        value = child.request(msg, raw=True)
        if key is not None and len(child.memo) < MEMO_SIZE:
            child.memo[key] = value
        return child.codec.decode(value)

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


def failure(exc):
    """The ``err`` reply for an exception of the learner's code (the innermost cell frame names where)."""
    fname, line = None, None
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename.startswith("<cell"):
            fname, line = code.co_name, tb.tb_lineno
        tb = tb.tb_next
    try:
        message = str(exc)[:400]
    except BaseException:  # noqa: BLE001
        message = ""
    name = type(exc).__name__ if isinstance(type(exc).__name__, str) else "Exception"
    return {"op": "err", "type": name[:60], "msg": message, "fname": fname, "line": line}


def returned_object(exc):
    """The ``err`` reply for a value that cannot cross the wire."""
    return {"op": "err", "type": "ReturnedObject", "msg": f"returned {exc}", "fname": None, "line": None}


def describe(fn):
    """What the grader needs to know of a name the cells defined: its signature, if it is a function."""
    code = getattr(fn, "__code__", None)
    if code is None or type(code).__name__ != "code":
        return None if fn is None else ["callable" if callable(fn) else "value"]
    n = code.co_argcount
    defaults = len(getattr(fn, "__defaults__", None) or ())
    return ["function", list(code.co_varnames[:n]), defaults, bool(code.co_flags & 0x04)]


class Child:
    """The child's end of the pipe: the learner's namespace, the games, and the numbered messages.

    Parameters
    ----------
    stdin, stdout : binary streams
        The pipe from and to the grader.
    builtins : module
        The learner's builtins (and the exceptions a grader's error is raised as).
    """

    def __init__(self, stdin, stdout, builtins):
        self._readline, self._write, self._flush = stdin.readline, stdout.write, stdout.flush
        self.builtins = builtins
        self.channel = Channel()
        self.codec = Codec(self.encode_other, self.decode_handle)
        self.games, self.originals = {}, {}
        # The grader's answers to the pure methods of a game (see GameProxy), by the encoded call.
        self.memo = {}
        self.namespace = {"__name__": "__main__", "__builtins__": builtins}
        self.phase = "start"

    # -- the wire -------------------------------------------------------------------------------------

    def encode_other(self, value):
        """The wire's hook for what is not plain data: a game or a grader's function, by its handle."""
        if type(value) is GameProxy:
            return {"g": object.__getattribute__(value, "_h")}
        if type(value) is Remote:
            return {"cb": value._id}
        return cannot_send(value)

    def decode_handle(self, tag, data):
        """The wire's hook for a handle from the grader: a new or known game, a grader's function."""
        if tag == "cb" and type(data) is list and len(data) == 2:
            return Remote(self, data[0], data[1])
        if tag == "g" and type(data) is list and len(data) == 2:
            self.games[data[0]] = GameProxy(self, data[0], data[1])
            return self.games[data[0]]
        if tag == "g" and type(data) is str and data in self.games:
            return self.games[data]
        raise WireError(f"an unknown handle {tag}")

    def send(self, msg):
        """Send ``msg`` as the child's next message."""
        self._write(self.channel.frame(msg))
        self._flush()

    def receive(self):
        """The grader's next message; the end of the child when the pipe closes or is out of step."""
        line = self._readline()
        if not line:
            raise SystemExit(0)
        try:
            return self.channel.parse(line)
        except WireError as exc:
            self.send({"op": "desync", "why": str(exc)})
            raise SystemExit(3) from None

    def report(self, event, detail):
        """Tell the grader what the hook refused (and in which phase: loading the cells or a call)."""
        self.send({"op": "refused", "event": event, "detail": detail, "phase": self.phase})

    # -- the grader's requests ------------------------------------------------------------------------

    def request(self, msg, raw=False):
        """Ask the grader (a game's method, a grader's function) and serve it until it replies."""
        seq = self.channel.sent
        self.send(msg)
        while True:
            reply = self.receive()
            op = reply["op"]
            if (op == "ret" or op == "err") and reply.get("re") != seq:
                why = f"a reply to message {str(reply.get('re'))[:20]} where one to {seq} was due"
                self.send({"op": "desync", "why": why})
                raise SystemExit(3)
            if op == "ret":
                return reply["v"] if raw else self.codec.decode(reply["v"])
            if op == "err":
                kind = getattr(self.builtins, reply["type"], None)
                if not (isinstance(kind, type) and issubclass(kind, Exception)):
                    kind = RuntimeError
                raise kind(reply["msg"])
            if op == "call":  # the grader's function calls a learner's function in turn
                self.call(reply)
                continue
            self.send({"op": "desync", "why": f"a {op[:20]} message during a request"})
            raise SystemExit(3)

    def load(self, msg):
        """Run the learner's cells; reply with the functions they define and the errors they raised."""
        self.phase = "load"
        for handle, attrs in msg.get("games", {}).items():
            self.games[handle] = GameProxy(self, handle, attrs)
        self.namespace.update({k: self.codec.decode(v) for k, v in msg.get("names", {}).items()})
        errors = []
        for label, source in msg["cells"]:
            try:
                exec(compile(source, f"<cell {label}>", "exec"), self.namespace)
            except BaseException as exc:  # noqa: BLE001 -- a cell that fails is reported, the rest still load
                reply = failure(exc)
                errors.append([label, reply["type"], reply["msg"][:200]])
        functions = {}
        for name in msg["functions"]:
            self.originals[name] = self.namespace.get(name)
            functions[name] = describe(self.originals[name])
        self.phase = "idle"
        self.send({"op": "loaded", "re": msg["seq"], "functions": functions, "errors": errors})

    def call(self, msg):
        """Call a learner's function (the grader's stand-ins in place of the names ``swap`` gives); reply."""
        for name, cb in msg.get("swap", {}).items():
            self.namespace[name] = self.originals.get(name) if cb is None else Remote(self, cb[0], cb[1])
        fn = self.originals.get(msg["fn"])
        self.phase = "call"
        try:
            value = fn(*self.codec.decode(msg["args"]))
        except BaseException as exc:  # noqa: BLE001 -- everything is the learner's outcome
            self.send(dict(failure(exc), re=msg["seq"]))
            return
        try:
            self.send({"op": "ret", "re": msg["seq"], "v": self.codec.encode(value)})
        except (TypeError, ValueError, RecursionError) as exc:  # WireError, too much to send, included
            self.send(dict(returned_object(exc), re=msg["seq"]))

    def serve(self):
        """Answer the grader's ``load`` and ``call`` until it closes the pipe."""
        while True:
            msg = self.receive()
            if msg["op"] == "load":
                self.load(msg)
            elif msg["op"] == "call":
                self.call(msg)
            elif msg["op"] == "sync":  # the grader checks that nothing came after the last reply
                self.send({"op": "synced", "re": msg["seq"]})
            else:
                self.send({"op": "desync", "why": f"a {msg['op'][:20]} message while idle"})
                raise SystemExit(3)
            self.phase = "idle"


def main():  # pragma: no cover -- runs in the child interpreter (tests/test_grader.py drives it)
    """Run the child: preload the standard modules, install the hook, serve the grader until EOF."""
    import builtins
    import sys

    # What a learner may use: loaded now, before the hook, so that importing them later fires no event.
    for name in PRELOADED:
        __import__(name)
    child = Child(sys.stdin.buffer, sys.stdout.buffer, builtins)
    install_hook(child.report)
    sys.stdout = sys.stderr = Sink()
    try:
        child.serve()
    except SystemExit:
        pass


if __name__ == "__main__":  # pragma: no cover
    main()
