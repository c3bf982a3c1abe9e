"""The wire between the grader and the child that runs a learner's code: values, numbered messages, limits.

Both ends speak it. The grader imports this module
(:mod:`gametrees.classroom.sandbox`); the child, which runs with ``python -I -S``
and cannot import gametrees, runs this file's text ahead of its own
(:data:`gametrees.classroom.sandbox.CHILD_SOURCE`). So this module imports only
``json`` (which the child loads before its audit hook anyway).

Values (:class:`Codec`) cross as JSON: ``None``, bools, ints, strings and finite
floats as themselves; a list as a list; a tuple, dict, set or non-finite float as
a one-key object, ``{"t": [...]}``, ``{"d": [[key, value], ...]}``,
``{"s": [...]}``, ``{"f": "inf"}``. A game (``{"g": ...}``) or a function of the
grader (``{"cb": ...}``) crosses as a handle that each end turns into its own
object through the hooks it gives its :class:`Codec`. Nothing else crosses: an
object with a rigged ``__eq__`` cannot even be sent.

Messages (:class:`Channel`) are one JSON object a line, in ASCII, each with an
``op`` and a ``seq``: 0, 1, 2, ... in each direction, which the receiver checks.
A line that is not JSON, not a message, longer than :data:`MAX_LINE` or out of
sequence raises :class:`WireError`: something other than the two ends wrote to
the channel.

Examples
--------
>>> codec = Codec()
>>> codec.encode({"A": (1, float("-inf")), "B": {None}})
{'d': [['A', {'t': [1, {'f': '-inf'}]}], ['B', {'s': [None]}]]}
>>> codec.decode(codec.encode([(1, 2), {"x": 3.5}]))
[(1, 2), {'x': 3.5}]
>>> ours, theirs = Channel(), Channel()
>>> line = ours.frame({"op": "ret", "v": 3})
>>> line
b'{"op":"ret","v":3,"seq":0}\\n'
>>> theirs.parse(line)["v"]
3
>>> theirs.parse(line)
Traceback (most recent call last):
...
gametrees.classroom.wire.WireError: message 0 where 1 was due
"""

import json

#: The deepest nesting of containers a value may have (a value nested deeper is refused, not sent).
MAX_DEPTH = 60
#: The longest line a message may take (bytes, its newline excluded).
MAX_LINE = 16 * 2**20
#: The largest int that crosses, in bits (Python refuses to print an int of more than 4300 digits).
MAX_INT_BITS = 14_000


class WireError(ValueError):
    """What is not the wire's: a malformed or out-of-sequence line, or a value that cannot cross it."""


def text(data):
    """The one-line ASCII JSON of wire data (also the child's key for a remembered call).

    Examples
    --------
    >>> text({"op": "call", "args": [1, "é"]})
    '{"op":"call","args":[1,"\\\\u00e9"]}'
    """
    return _ENCODER.encode(data)


def cannot_send(value):
    """The default for what is not plain data: a ``TypeError`` naming its type."""
    raise TypeError(f"a {type(value).__name__} object, not a number, string, bool, None or a "
                    "list/tuple/dict/set of them")


def no_handles(tag, data):
    """The default for a handle (``g``, ``cb``): not the protocol."""
    raise WireError(f"a handle ({tag}) where none was given")


class Codec:
    """Values to wire data and back, the same at both ends; games and functions through hooks.

    Parameters
    ----------
    encode_other : callable, optional
        ``encode_other(value)``: the wire data for a value that is not plain data (a game, a
        function), or a ``TypeError``. By default every such value is refused (:func:`cannot_send`).
    decode_handle : callable, optional
        ``decode_handle(tag, data)``: the object a handle (tag ``"g"`` or ``"cb"``) stands for, or a
        :class:`WireError`. By default a handle is not the protocol (:func:`no_handles`).
    max_depth : int
        The deepest nesting of containers that crosses.

    Examples
    --------
    >>> Codec().encode([[[1]]]), Codec(max_depth=1).decode([[1]])
    ([[[1]]], [[1]])
    >>> Codec(max_depth=1).encode([[[1]]])
    Traceback (most recent call last):
    ...
    gametrees.classroom.wire.WireError: a value nested more than 1 levels deep
    >>> Codec().decode({"d": [[[1], 2]]})
    Traceback (most recent call last):
    ...
    gametrees.classroom.wire.WireError: a dict or set member that cannot be hashed
    """

    def __init__(self, encode_other=None, decode_handle=None, max_depth=MAX_DEPTH):
        self.encode_other = encode_other or cannot_send
        self.decode_handle = decode_handle or no_handles
        self.max_depth = max_depth

    def encode(self, value, depth=0):
        """The wire data of ``value`` (``TypeError``: it cannot cross; :class:`WireError`: too much)."""
        t = type(value)
        if value is None or t is bool or t is str:
            return value
        if t is int:
            if value.bit_length() > MAX_INT_BITS:
                raise WireError(f"an int of more than {MAX_INT_BITS} bits")
            return value
        if t is float:
            return value if value - value == 0 else {"f": repr(value)}  # inf - inf and nan - nan are nan
        if depth > self.max_depth:
            raise WireError(f"a value nested more than {self.max_depth} levels deep")
        depth += 1
        if t is list:
            return [self.encode(x, depth) for x in value]
        if t is tuple:
            return {"t": [self.encode(x, depth) for x in value]}
        if t is dict:
            return {"d": [[self.encode(k, depth), self.encode(x, depth)] for k, x in value.items()]}
        if t is set or t is frozenset:
            return {"s": [self.encode(x, depth) for x in value]}
        return self.encode_other(value)

    def decode(self, data, depth=0):
        """The value wire data stands for (:class:`WireError` for what is not the wire's)."""
        t = type(data)
        if data is None or t is bool or t is int or t is float or t is str:
            return data
        if depth > self.max_depth:
            raise WireError(f"a value nested more than {self.max_depth} levels deep")
        depth += 1
        if t is list:
            return [self.decode(x, depth) for x in data]
        if t is not dict or len(data) != 1:
            raise WireError("not a value of the wire")
        (tag, x), = data.items()
        if tag == "g" or tag == "cb":
            return self.decode_handle(tag, x)
        if tag == "f" and (x == "inf" or x == "-inf" or x == "nan"):
            return float(x)
        if type(x) is not list:
            raise WireError("not a value of the wire")
        try:
            if tag == "t":
                return tuple([self.decode(y, depth) for y in x])
            if tag == "s":
                return {self.decode(y, depth) for y in x}
            if tag == "d":
                out = {}
                for pair in x:
                    if type(pair) is not list or len(pair) != 2:
                        raise WireError("a dict entry that is not a [key, value] pair")
                    out[self.decode(pair[0], depth)] = self.decode(pair[1], depth)
                return out
        except TypeError:
            raise WireError("a dict or set member that cannot be hashed") from None
        raise WireError("not a value of the wire")


def _constant(name):
    raise WireError(f"{name} in a line (a non-finite float crosses as {{'f': ...}})")


_ENCODER = json.JSONEncoder(ensure_ascii=True, allow_nan=False, separators=(",", ":"))
_DECODER = json.JSONDecoder(parse_constant=_constant)


class Channel:
    """Numbered messages as lines: the number of the next message this end sends and of the one it expects.

    :meth:`frame` adds ``seq`` to a message and makes its line; :meth:`parse` reads a line and checks it
    is the message due. After a :class:`WireError` the channel is out of step for good: end it.
    """

    def __init__(self):
        self.sent = 0
        self.received = 0

    def frame(self, msg):
        """The line (bytes, with its newline) that sends ``msg`` (a dict with ``op``) as the next message.

        A message longer than :data:`MAX_LINE` is a :class:`WireError` and uses no number.
        """
        line = text(dict(msg, seq=self.sent)).encode("ascii") + b"\n"
        if len(line) > MAX_LINE:
            raise WireError(f"more than {MAX_LINE >> 20} MB of data")
        self.sent += 1
        return line

    def parse(self, line):
        """The message a line holds, if it is the one due (:class:`WireError` otherwise)."""
        if len(line) > MAX_LINE:
            raise WireError(f"a line of more than {MAX_LINE >> 20} MB")
        try:
            msg = _DECODER.decode(line.decode("ascii"))
        except WireError:
            raise
        except (ValueError, RecursionError):
            raise WireError("a line that is not JSON") from None
        if type(msg) is not dict or type(msg.get("op")) is not str or type(msg.get("seq")) is not int:
            raise WireError("a line that is not a message")
        if msg["seq"] != self.received:
            raise WireError(f"message {msg['seq']} where {self.received} was due")
        self.received += 1
        return msg
