"""Each rule of the field is written once, in gametrees/rules.py, and the engine, Monte Carlo tree search, the
trace and the checks call it there.

The tests read the package's source with ``ast``: a rule written again somewhere else (the UCB1 formula, a
cutoff test comparing a value with α or β, a table probe reading a bound against the window, the bound that
prunes below a chance node, the tie rule read from its name) is found by its shape, wherever it is. Each
shape is shown to be found on a planted copy, so none of these tests passes by finding nothing.

Parts that only pass once another branch of issue 29 is merged (the engine and the trace calling the rules,
MCTS recording its scores) are strict expected failures: the lead removes the mark after the merge.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "gametrees"
RULES = PACKAGE / "rules.py"

WINDOW = {"alpha", "beta", "α", "β"}
BOUND_KINDS = {"lower", "upper", "LOWER", "UPPER"}
# Strings that are shown to people (a solution's code, a misconception's wording) are not code: the shapes
# below look only at expressions, never inside string constants.


def _sources():
    for path in sorted(PACKAGE.rglob("*.py")):
        if path != RULES:
            yield path.relative_to(PACKAGE.parent).as_posix(), path.read_text(encoding="utf-8")


def _name(node):
    """The name an expression stands for: ``x`` for ``x`` and ``m.x``, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _calls(node, names):
    return any(isinstance(n, ast.Call) and _name(n.func) in names for n in ast.walk(node))


def _ucb1_formulas(tree):
    """``sqrt(log(N) / n)``, ``sqrt(log(N))`` or ``sqrt(log_n / n)``: the exploration term of UCB1 (the
    natural logarithm: a slip's log10 or log2 is not the rule)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node.func) == "sqrt" and node.args:
            arg = node.args[0]
            if _calls(arg, {"log"}) or any(isinstance(n, ast.Name) and n.id.lower().startswith("log")
                                           for n in ast.walk(arg)):
                yield node.lineno


def _window_compare(node):
    """A comparison of something with α or β by <, <=, >, >=."""
    return (isinstance(node, ast.Compare)
            and any(isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) for op in node.ops)
            and any(_name(x) in WINDOW for x in [node.left, *node.comparators]))


def _stops(body):
    return any(isinstance(n, (ast.Break, ast.Return)) for stmt in body for n in ast.walk(stmt))


def _compares_window(node):
    return any(_window_compare(n) for n in ast.walk(node))


def _cutoff_tests(tree):
    """A search deciding its own cutoff: ``if v >= beta: break`` (or return), ``cut = v >= beta``, or the
    tie rule applied by hand, ``(v > beta) if strict else (v >= beta)``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _stops(node.body) and _compares_window(node.test):
            yield node.lineno
        elif (isinstance(node, ast.Assign) and any("cut" in (_name(t) or "") for t in node.targets)
              and _compares_window(node.value)):
            yield node.lineno
        elif (isinstance(node, ast.IfExp) and any(_name(n) == "strict" for n in ast.walk(node.test))
              and (_compares_window(node.body) or _compares_window(node.orelse))):
            yield node.lineno


def _bound_kind(node):
    """A comparison of a flag with ``"lower"``/``"upper"`` (or LOWER/UPPER)."""
    return isinstance(node, ast.Compare) and any(
        (isinstance(x, ast.Constant) and x.value in BOUND_KINDS) or _name(x) in BOUND_KINDS
        for x in [node.left, *node.comparators])


def _table_probes(tree):
    """``if flag == "lower"`` and, in that test or the ``if`` right under it, the value against α or β: a
    stored bound read against the window (a table probe)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and any(_bound_kind(n) for n in ast.walk(node.test)):
            scope = [node.test] + [s.test for s in node.body if isinstance(s, ast.If)]
            if any(_window_compare(n) for part in scope for n in ast.walk(part)):
                yield node.lineno


def _chance_bounds(tree):
    """``seen + left * high``: the most (or least) a chance node can still be worth."""
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            for side in (node.left, node.right):
                if (isinstance(side, ast.BinOp) and isinstance(side.op, ast.Mult)
                        and {_name(side.left), _name(side.right)} & {"high", "low"}):
                    yield node.lineno


def _tie_rule_names(tree):
    """``rule == "strict"``: the tie rule read back from its name (rules.strict_rule does it once)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(
                isinstance(x, ast.Constant) and x.value == "strict" for x in [node.left, *node.comparators]):
            yield node.lineno


SHAPES = {
    "the UCB1 score": _ucb1_formulas,
    "the cutoff test": _cutoff_tests,
    "the table probe": _table_probes,
    "the bound below a chance node": _chance_bounds,
    "the tie rule read from its name": _tie_rule_names,
}

# A planted copy of each rule: the shape must find it (so a test below cannot pass by finding nothing).
PLANTED = {
    "the UCB1 score": "def score(w, n, N, c):\n    return w / n + c * math.sqrt(math.log(N) / n)\n",
    "the cutoff test": ("def ab(kids, alpha, beta):\n    v = -1\n    for k in kids:\n        v = max(v, k)\n"
                        "        if v >= beta:\n            break\n    return v\n"),
    "the table probe": ("def probe(flag, value, alpha, beta):\n"
                        "    if flag == 'lower' and value >= beta:\n        return value\n"),
    "the bound below a chance node": "def most(seen, left, high):\n    return seen + left * high\n",
    "the tie rule read from its name": "def strict(rule):\n    return rule == 'strict'\n",
}

# Where the package still writes a rule outside rules.py, each with the reason it may: none.
ELSEWHERE = {}


def _found():
    """``{(file, rule): [line, ...]}`` for every rule written outside rules.py."""
    out = {}
    for rel, text in _sources():
        tree = ast.parse(text)
        for rule, shape in SHAPES.items():
            lines = sorted(set(shape(tree)))
            if lines:
                out[(rel, rule)] = lines
    return out


@pytest.mark.parametrize("rule", sorted(SHAPES))
def test_each_shape_finds_a_planted_copy(rule):
    planted = ast.parse(PLANTED[rule])
    assert list(SHAPES[rule](planted)), f"the scan for {rule} does not find {PLANTED[rule]!r}"
    others = [r for r, shape in SHAPES.items() if r != rule and list(shape(ast.parse(PLANTED[r])))]
    assert rule not in others


@pytest.mark.parametrize("rule", sorted(SHAPES))
def test_each_rule_is_written_in_rules_py(rule):
    tree = ast.parse(RULES.read_text(encoding="utf-8"))
    home = {"the tie rule read from its name": "strict_rule", "the UCB1 score": "ucb1",
            "the cutoff test": "cutoff", "the table probe": "table_probe",
            "the bound below a chance node": "chance_upper_bound"}[rule]
    assert home in {f.name for f in tree.body if isinstance(f, ast.FunctionDef)}


def _outside(prefixes):
    found = _found()
    return {f"{rel}:{lines} writes {rule} again" for (rel, rule), lines in found.items()
            if rel.startswith(prefixes) and (rel, rule) not in ELSEWHERE}


# The layers each branch of issue 29 owns, scanned apart so that each part can be marked on its own.
CHECKS = ("gametrees/exercises/", "gametrees/classroom/", "gametrees/widgets/", "gametrees/exports/",
          "gametrees/drawing/", "gametrees/site/", "gametrees/games/", "gametrees/trees/",
          "gametrees/wording.py", "gametrees/agents.py", "gametrees/evaluation.py",
          "gametrees/tournaments.py", "gametrees/cli.py", "gametrees/assignments.py", "gametrees/__init__.py",
          "gametrees/__main__.py")


def test_no_exercise_check_widget_or_export_writes_a_rule_again():
    assert _outside(CHECKS) == set()


def test_the_engine_the_trace_and_mcts_write_no_rule_again_but_the_known_ones():
    assert _outside(("gametrees/search/", "gametrees/trace.py", "gametrees/montecarlo.py")) == set()


def test_the_known_copies_elsewhere_are_still_there():
    """An entry of ELSEWHERE that is no longer true must go (the lead empties it after the merges)."""
    found = _found()
    assert sorted(k for k in ELSEWHERE if k not in found) == []


def test_no_rule_is_written_twice_anywhere():
    assert {f"{rel}: {rule}" for rel, rule in _found()} == set()


# ----------------------------------------------------------------------------
# Used: the engine, MCTS, the trace and the checks import the rules from rules.py
# ----------------------------------------------------------------------------


def _rules_used(prefix):
    """The names of gametrees.rules the modules under ``prefix`` import (``from ..rules import x``)."""
    names = set()
    for rel, text in _sources():
        if not rel.startswith(prefix):
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "rules":
                names |= {a.name for a in node.names}
    return names


def test_the_checks_call_the_rules():
    used = _rules_used("gametrees/exercises/") | _rules_used("gametrees/classroom/")
    assert {"cutoff", "fails_low", "window_bound", "table_probe", "ucb1", "strict_rule", "tie_rule"} <= used


def test_pruning_below_chance_nodes_is_the_engines_and_the_checks_call_it():
    """The bound below a chance node is called by the engine's Star1 (``expectimax(bounds=...)``), and lesson
    06's check finds the skipped leaves with that search, not one of its own."""
    assert {"chance_upper_bound", "chance_lower_bound"} <= _rules_used("gametrees/search/chance_pruning.py")
    l06 = (PACKAGE / "exercises/lessons/l06_expectimax.py").read_text(encoding="utf-8")
    assert "expectimax(G, bounds=(low, high)" in l06 and "chance_upper_bound(" not in l06


def test_the_engine_calls_the_table_probe_and_the_bounds():
    assert {"table_probe", "window_bound"} <= _rules_used("gametrees/search/")


def test_the_engine_calls_the_cutoff_test():
    assert _rules_used("gametrees/search/") & {"cutoff", "fails_high", "fails_low", "cutoff_tests"}


def test_mcts_calls_ucb1():
    assert _rules_used("gametrees/search/montecarlo.py") & {"ucb1", "ucb1_select"}


def test_the_trace_calls_the_rules():
    assert _rules_used("gametrees/trace") & {"tie_rule", "window_bound", "cutoff_sign", "cutoff_text",
                                             "EXACT"}
