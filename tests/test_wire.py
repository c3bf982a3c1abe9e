"""The wire between the grader and the child that runs a learner's code (gametrees.classroom.wire).

Values cross it unchanged, what cannot cross is refused on the child's side,
and a line the learner's code writes to the grader's channel (not JSON, not a
message, out of sequence, too long, or a reply before the real one) is
reported as "your code wrote to the grader's channel": the question earns
nothing and the instructor is told. The attacks are the learner's own cells,
run in the real child (tests/test_grader.py has the other ways around it).
"""

import math
from pathlib import Path

import nbformat
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametrees.classroom.questions import ASSIGNMENTS, exercises_for
from gametrees.classroom.sandbox import CHILD_SOURCE, ChannelForged, ReturnedObjectError, Sandbox
from gametrees.classroom.verdicts import decide
from gametrees.classroom.wire import MAX_DEPTH, MAX_LINE, Channel, Codec, WireError

pytestmark = pytest.mark.sandbox   # the wire to the grader's child process, most tests through a real one

STUDENT = Path(__file__).resolve().parents[1] / "notebooks" / "assignments"

# Hashable values (a dict's keys, a set's members); NaN is left out only because it is not equal to itself.
HASHABLE = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                        lambda inner: st.lists(inner, max_size=4).map(tuple), max_leaves=8)
VALUES = st.recursive(
    HASHABLE | st.floats(),
    lambda inner: (st.lists(inner, max_size=4) | st.lists(inner, max_size=4).map(tuple)
                   | st.dictionaries(HASHABLE, inner, max_size=4) | st.sets(HASHABLE, max_size=4)
                   | st.frozensets(HASHABLE, max_size=4)),
    max_leaves=25)


def same(a, b):
    """``a == b`` down to the types, the sign of a zero and NaN (a frozenset arrives as a set)."""
    if type(a) is float:
        return type(b) is float and (math.isnan(a) and math.isnan(b) or repr(a) == repr(b))
    if type(a) in (set, frozenset):
        return type(b) is set and sorted(map(repr, a)) == sorted(map(repr, b))
    if type(a) is dict:
        return (type(b) is dict and list(map(repr, a)) == list(map(repr, b))
                and all(same(x, y) for x, y in zip(a.values(), b.values())))
    if type(a) in (list, tuple):
        return type(b) is type(a) and len(a) == len(b) and all(map(same, a, b))
    return type(a) is type(b) and a == b


@given(VALUES)
def test_values_cross_the_wire_unchanged(value):
    ours, theirs = Channel(), Channel()
    msg = theirs.parse(ours.frame({"op": "ret", "v": Codec().encode(value)}))
    assert same(value, Codec().decode(msg["v"]))


def test_values_a_learners_function_is_given_and_returns_arrive_unchanged():
    with Sandbox([("echo", "def echo(x):\n    return x\n")], ["echo"], call_limit=10) as box:
        @settings(max_examples=40, deadline=None)
        @given(VALUES)
        def round_trip(value):
            assert same(value, box.functions["echo"](value))

        round_trip()
        assert not box.refused and not box.broken


def test_the_child_runs_the_wires_own_text_and_imports_nothing_of_gametrees():
    assert "class Codec" in CHILD_SOURCE and "class GameProxy" in CHILD_SOURCE
    assert not any(line.lstrip().startswith(("import gametrees", "from gametrees", "from ."))
                   for line in CHILD_SOURCE.splitlines())


def nested(depth):
    value = 0
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("data, why", [
    ({"x": 1}, "not a value of the wire"),
    ({"t": [1], "s": [1]}, "not a value of the wire"),
    ({"t": 1}, "not a value of the wire"),
    ({"d": [[1]]}, "not a [key, value] pair"),
    ({"d": ["ab"]}, "not a [key, value] pair"),
    ({"s": [[1]]}, "cannot be hashed"),
    ({"f": "1.5"}, "not a value of the wire"),
    ({"g": "0"}, "a handle (g) where none was given"),
    (nested(MAX_DEPTH + 2), f"nested more than {MAX_DEPTH} levels deep"),
])
def test_wire_data_that_is_not_the_wires_is_refused(data, why):
    with pytest.raises(WireError, match=why.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        Codec().decode(data)


@pytest.mark.parametrize("line, why", [
    (b"not the protocol", "a line that is not JSON"),
    (b"\xff\xfe", "a line that is not JSON"),
    (b'{"op": "ret", "v": NaN, "seq": 0}', "NaN in a line"),
    (b"[1, 2]", "a line that is not a message"),
    (b'{"op": "ret", "v": 3}', "a line that is not a message"),
    (b'{"op": "ret", "v": 3, "seq": 1}', "message 1 where 0 was due"),
    (b'{"op": "ret", "v": "' + b"7" * MAX_LINE + b'", "seq": 0}', "a line of more than 16 MB"),
])
def test_a_line_that_is_not_the_next_message_is_refused(line, why):
    with pytest.raises(WireError, match=why):
        Channel().parse(line)


RETURNS = f'''
def deep():
    value = 0
    for _ in range({MAX_DEPTH + 2}):
        value = [value]
    return value

def big_int():
    return 7 ** 6000

def too_much():
    return "7" * {MAX_LINE}
'''


@pytest.mark.parametrize("name, message", [
    ("deep", f"returned a value nested more than {MAX_DEPTH} levels deep"),
    ("big_int", "returned an int of more than"),
    ("too_much", "returned more than 16 MB of data"),
])
def test_a_value_that_cannot_cross_is_refused_in_the_child_and_the_child_goes_on(name, message):
    cells = [("returns", RETURNS + "def fine():\n    return 3\n")]
    with Sandbox(cells, [name, "fine"], call_limit=10) as box:
        with pytest.raises(ReturnedObjectError, match=message):
            box.functions[name]()
        assert box.functions["fine"]() == 3 and not box.broken


# Each writes to the grader's channel during the first call of a fresh child, then returns 3. That call's
# reply is the child's message 1 (its message 0 said the cells loaded) and answers the grader's message 1.
FORGERIES = '''
import sys

def write(text):
    sys.__stdout__.write(text)
    sys.__stdout__.flush()

def forge(kind):
    if kind == "not_json":
        write("not the protocol\\n")
    elif kind == "unnumbered":
        write('{"op": "ret", "v": 99}\\n')
    elif kind == "out_of_sequence":
        write('{"op": "ret", "v": 99, "seq": 7, "re": 1}\\n')
    elif kind == "unexpected":
        write('{"op": "loaded", "seq": 1, "re": 1, "functions": {}, "errors": []}\\n')
    elif kind == "wrong_reply":
        write('{"op": "ret", "v": 99, "seq": 1, "re": 0}\\n')
    elif kind == "partial":
        write('{"op": "ret", ')
    elif kind == "huge":
        sys.__stdout__.buffer.write(b"7" * (17 * 2**20))
        sys.__stdout__.buffer.flush()
    elif kind == "reply_first":
        write('{"op": "ret", "v": 99, "seq": 1, "re": 1}\\n')
    elif kind == "after_reply":  # the child itself made to write a line after each of its messages
        child = sys._getframe(2).f_locals["self"]
        send = child.send

        def send_and_more(msg):
            send(msg)
            write('{"op": "ret", "v": 99}\\n')
        child.send = send_and_more
'''
KINDS = {
    "not_json": "a line that is not JSON",
    "unnumbered": "a line that is not a message",
    "out_of_sequence": "message 7 where 1 was due",
    "unexpected": "a loaded message where ret or err was due",
    "wrong_reply": "a reply to message 0 where one to 1 was due",
    "partial": "a line that is not JSON",
    "huge": "a line of more than 16 MB",
    # A perfect forgery is accepted as what the function returned (it equals returning 99), but the real
    # reply after it is found when the call ends, or by the check of the channel after the last call.
    "reply_first": "message 1 where 2 was due",
    # A line after each of the child's own messages (the learner's code patched the child's send).
    "after_reply": "a line that is not a message",
}


@pytest.mark.parametrize("kind", KINDS)
def test_a_line_written_to_the_graders_channel_is_reported_as_such(kind):
    cells = [("forger", FORGERIES + f"def f():\n    forge({kind!r})\n    return 3\n")]
    with Sandbox(cells, ["f"], call_limit=10) as box:
        with pytest.raises(ChannelForged, match=f"your code wrote to the grader's channel \\({KINDS[kind]}"):
            box.functions["f"]()
            box.sync()
        with pytest.raises(ChannelForged, match="wrote to the grader's channel"):
            box.functions["f"]()  # the child was stopped: it stays so


def test_an_honest_child_is_in_step_after_its_calls():
    cells = [("honest", "def f(x):\n    print('to the notebook, not the pipe')\n    return x\n")]
    with Sandbox(cells, ["f"]) as box:
        assert [box.functions["f"](i) for i in range(3)] == [0, 1, 2]
        box.sync()
        assert box.functions["f"]((1, 2)) == (1, 2)
        box.sync()


def _a1(student, answers):
    nb = nbformat.read(STUDENT / f"{ASSIGNMENTS['A1'].notebook}.ipynb", as_version=4)
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in answers:
            cell.source = answers[grade_id]
        elif cell.source.startswith("STUDENT_ID"):
            cell.source = f"STUDENT_ID = {student!r}"
    return nb


MINIMAX = '''
FORGED = []

def minimax_value(game, state):
    if not FORGED:
        FORGED.append(forge({kind!r}))
    if game.is_terminal(state):
        return game.utility(state)
    values = [minimax_value(game, game.result(state, m)) for m in game.actions(state)]
    return max(values) if game.to_move(state) == "max" else min(values)
'''


@pytest.mark.parametrize("kind", KINDS)
def test_a_question_whose_code_wrote_to_the_graders_channel_earns_nothing_and_is_flagged(kind):
    right = exercises_for("A1", "jdoe")
    nb = _a1("jdoe", {
        "a1-q1-answer": FORGERIES + f"\ndef minimax_values():\n    forge({kind!r})\n    return "
                                    f"{right['tree1'].solution()!r}\n",
        "a1-q2-answer": f"def best_move_at_root():\n    return {right['tree2'].solution()!r}\n",
        "a1-q3-answer": FORGERIES + MINIMAX.format(kind=kind),
    })
    verdicts = {v.grade_id: v for v in decide(nb, "jdoe", kernel=False).verdicts}
    assert verdicts["a1-q2-check"].earned == verdicts["a1-q2-check"].points  # the honest answer by hand
    for gid in ("a1-q1-check", "a1-q3-check"):
        v = verdicts[gid]
        assert v.earned == 0 and v.integrity, (gid, v.text())
        assert any("wrote to the grader's channel" in f for f in v.flags), v.flags
        assert f"wrote to the grader's channel ({KINDS[kind]}" in v.text()
        assert "grading stopped" not in v.text()
    honest = _a1("jdoe", {"a1-q3-answer": MINIMAX.replace("forge({kind!r})", "1")})
    assert {v.grade_id: v.earned for v in decide(honest, "jdoe", kernel=False).verdicts}["a1-q3-check"] == 4


def test_a_line_written_while_the_cells_load_is_reported_and_no_function_is_graded():
    source = ("import sys\nsys.__stdout__.write('not the protocol\\n')\nsys.__stdout__.flush()\n"
              "def f():\n    return 3\n")
    cells = [("forger", source)]
    with Sandbox(cells, ["f"]) as box:
        assert box.functions["f"] is None
        assert isinstance(box.broken, ChannelForged) and "wrote to the grader's channel" in str(box.broken)
