"""Traces and frames: every frame is consistent, the last one is the annotated graph."""

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import reference_alphabeta

import gametrees as gt
from gametrees.games import ConnectFour, Nim, TicTacToe

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
nested = st.recursive(st.integers(-4, 4), lambda kids: st.lists(kids, min_size=1, max_size=3),
                      max_leaves=20)
SEARCHES = {
    "minimax": gt.minimax,
    "alphabeta": gt.alphabeta,
    "alphabeta-strict": lambda T: gt.alphabeta(T, strict=True),
    "negamax": gt.negamax,
    "expectimax": gt.expectimax,
}


def check_frames(trace, G):
    """Replay the trace frame by frame against the tree and the final graph."""
    root = G.graph["root"]
    all_frames = gt.frames(trace)
    previous = None
    for k, f in enumerate(all_frames):
        assert f.k == k and f.event is trace[k] and f.text == trace[k].text
        assert isinstance(f.text, str) and f.text.endswith(".")
        # The path runs from the root down parent-to-child edges.
        if f.path:
            assert f.path[0] == root
            assert all(G.has_edge(a, b) for a, b in zip(f.path, f.path[1:]))
        # Visit order counts up by one, and nothing is forgotten.
        assert sorted(f.order.values()) == list(range(1, len(f.order) + 1))
        if previous is not None:
            assert previous.order.items() <= f.order.items()
            assert previous.done <= f.done and previous.pruned <= f.pruned
            # A finished node's value never changes afterwards.
            assert all(f.values[n] == previous.values[n] for n in previous.done)
        # Done nodes keep the value the final graph shows.
        for n in f.done:
            assert f.values[n] == G.nodes[n]["value"]
        # A pruned child was never entered, and its parent is done or on the path.
        for n in f.pruned:
            assert n not in f.order
        previous = f
    last = all_frames[-1]
    assert last.path == () and last.done == set(last.order)
    # Each exit names the child its last improving update named (the replay's best so far).
    for k, e in enumerate(trace):
        if e.kind == "exit":
            assert e.best == all_frames[k].best.get(e.node)
    # The graph's best edges run from the root along those children.
    n, path = root, []
    while n in last.best:
        path.append((n, last.best[n]))
        n = last.best[n]
    assert {(u, v) for u, v, b in G.edges(data="best") if b} == set(path)
    for n, attrs in G.nodes(data=True):
        if n in last.order:
            assert attrs["status"] == "visited" and attrs["order"] == last.order[n]
            assert attrs["value"] == last.values[n] and attrs["bound"] == last.bounds[n]
            if n in last.alpha:
                assert (attrs["alpha"], attrs["beta"]) == (last.alpha[n], last.beta[n])
        elif attrs["status"] == "pruned":
            parent = next(iter(G.predecessors(n)))
            assert n in last.pruned or G.nodes[parent]["status"] == "pruned"
        else:
            assert attrs["status"] == "unvisited"
    # The frame function agrees with the one-pass list (spot checks).
    for k in {0, len(trace) // 2, len(trace) - 1}:
        assert gt.frame(trace, k) == all_frames[k]
    assert gt.frame(trace, -1) == last


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nested, st.sampled_from(sorted(SEARCHES)))
def test_every_frame_is_consistent(spec, name):
    T = gt.tree_from_nested(spec)
    r = SEARCHES[name](T)
    check_frames(r.trace, r.graph)
    assert r.graph.graph["nodes_visited"] == r.stats["nodes_visited"]
    assert sum(1 for e in r.trace if e.kind in ("enter", "leaf", "estimate",
                                                "hit")) == r.stats["nodes_visited"]


@settings(max_examples=300, deadline=None)
@given(nested, st.booleans())
def test_alpha_and_beta_match_the_textbook_algorithm(spec, strict):
    """Windows in the trace follow the AIMA pseudocode exactly."""
    T = gt.tree_from_nested(spec)
    r = gt.alphabeta(T, strict=strict)
    for e in r.trace:
        if e.kind == "enter":
            assert e.alpha < e.beta or (strict and e.alpha == e.beta)
        if e.kind == "update" and e.player == "max":
            assert e.alpha >= e.child_value or e.cut  # alpha rose to the child's value unless cut
        if e.kind == "update" and e.player == "min":
            assert e.beta <= e.child_value or e.cut
    pruned_leaves = {n for n, s in r.graph.nodes(data="status") if s == "pruned" and T.out_degree(n) == 0}
    _, visited, _ = reference_alphabeta(spec, strict=strict)
    assert pruned_leaves == {n for n in T if T.out_degree(n) == 0} - set(visited)


def test_textbook_trace_tells_the_story():
    r = gt.alphabeta(gt.tree_from_nested(TEXTBOOK))
    kinds = [e.kind for e in r.trace]
    assert kinds.count("prune") == 1
    prune = r.trace[kinds.index("prune")]
    assert prune.node == (1,) and prune.pruned == ((1, 1), (1, 2))
    assert prune.text == (
        "2 ≤ α = 3 at C: MIN can hold MAX to 2 here, but MAX already has 3 elsewhere, "
        "so play never reaches C; prune I and J."
    )
    assert r.trace[0].text == "Start at the root A, a MAX node with window α = −∞, β = +∞."
    assert r.trace[-1].text == "The search is over: the root A has value 3."
    f = gt.frame(r.trace, kinds.index("prune"))
    assert f.current == (1,) and f.path == ((), (1,)) and f.window == (3, math.inf)
    assert f.values[(1,)] == 2 and f.pruned == {(1, 1), (1, 2)}
    exit_c = next(e for e in r.trace if e.kind == "exit" and e.node == (1,))
    assert exit_c.bound == "upper" and "≤ 2" in exit_c.text


def test_sentences_use_the_true_minus_sign_like_the_figures():
    r = gt.alphabeta(gt.tree_from_nested([[-3, 5], [-7, 9]]))
    texts = [e.text for e in r.trace]
    assert texts[0] == "Start at the root A, a MAX node with window α = −∞, β = +∞."
    assert "Go down from B to D: a terminal node with utility −3." in texts
    assert texts[-1] == "The search is over: the root A has value −3."
    assert not any("-" in t for t in texts)  # no hyphen-minus: −3 and −∞ as the figure writes them
    from gametrees.drawing import format_number
    assert format_number(-math.inf) in texts[0]


def test_a_game_search_names_positions_by_their_moves():
    game = TicTacToe()
    start = game.from_string("X.O/.X./O..")
    r = gt.alphabeta(game, start, depth=2, evaluate=lambda s: 0, trace=True)
    texts = [e.text for e in r.trace]
    assert texts[0] == "Start at the root, a MAX node with window α = −∞, β = +∞."
    # the first empty cell is b1 (column b, top row): X plays there, then O answers in a2
    assert texts[1] == "Go down to the position after X b1, a MIN node with window α = −∞, β = +∞."
    assert texts[2] == ("Go down to the position after X b1, O a2: the depth limit, so the evaluation "
                        "function estimates 0.")
    assert texts[3] == "The move O a2 is worth 0 at the position after X b1: MIN's best so far is 0, β = 0."
    prune = next(e for e in r.trace if e.kind == "prune")
    # a tie (0 = α): the position cannot be better for MAX than what MAX has, not "never reached"
    assert prune.text == ("0 ≤ α = 0 at the position after X a2: MIN can hold MAX to 0 here, so it cannot be "
                          "better for MAX than the 0 MAX already has elsewhere, and its other children "
                          "cannot matter; prune the moves O c2, O b3 and O c3.")
    assert r.value == 1 and texts[-1] == "The search is over: the root has value 1."  # X wins in c3
    assert not any("root root" in t or "-" in t for t in texts)
    # the names are the moves played: replaying them gives the node's position
    G = r.graph
    for n in G:
        label = G.nodes[n]["label"]
        if n == ():
            assert label == "the start position"
            continue
        moves = label.removeprefix("after ").split(", ")
        assert len(moves) == len(n)
        state = start
        for said, move in zip(moves, n):
            mark, cell = said.split()
            assert mark == ("X" if game.to_move(state) == "max" else "O")
            assert cell == "abc"[move % 3] + str(move // 3 + 1)
            state = game.result(state, move)
        assert G.nodes[n]["state"] == state


def test_nim_and_connect_four_positions_are_named_as_players_say_them():
    r = gt.alphabeta(Nim(4), trace=True)
    assert r.graph.nodes[(2, 1)]["label"] == "after MAX takes 2, MIN takes 1"
    c4 = ConnectFour(rows=4, cols=4, k=3)
    r = gt.alphabeta(c4, depth=2, evaluate=lambda s: 0, trace=True)
    assert r.graph.nodes[(3, 2)]["label"] == "after X d, O c"


def test_a_cut_at_the_last_child_says_nothing_is_pruned():
    # Textbook tree: M, D's last child, gives 2 <= α = 3: the test holds, but there is nothing to skip.
    r = gt.alphabeta(gt.tree_from_nested(TEXTBOOK))
    exit_d = next(e for e in r.trace if e.kind == "exit" and e.node == (2,))
    assert exit_d.text == ("2 ≤ α = 3 at D, but D has no child left to skip: nothing is pruned. "
                           "D is done with value 2.")
    # MIN at the root: J, D's last child, gives 11 >= β = 6 at the MAX node D.
    ex5 = gt.alphabeta(gt.tree_from_nested([[5, 8], [[9, 3], 6], [[4, 12], 11]], root_player="min"))
    exit_d = next(e for e in ex5.trace if e.kind == "exit" and e.label == "D")
    assert exit_d.text.startswith("11 ≥ β = 6 at D, but D has no child left to skip: nothing is pruned.")
    # K's 9 does not move β = 8, set at A: the sentence says β stays, not "β = 8" as if 9 had set it
    update_k = next(e for e in ex5.trace if e.kind == "update" and ex5.graph.nodes[e.child]["label"] == "K")
    assert update_k.text == ("K returns 9 to G: MIN's best so far is 9; β stays 8: MIN can already hold "
                             "MAX to 8 higher up.")
    # A tie under the strict rule is no cutoff: D's 3 = α = 3 is not < α, and the sentence says nothing.
    strict = gt.alphabeta(gt.tree_from_nested([[3, 12, 8], [2, 4, 3], [14, 5, 3]]), strict=True)
    exit_d = next(e for e in strict.trace if e.kind == "exit" and e.node == (2,))
    assert exit_d.text == "D is done with value 3."


@pytest.mark.parametrize("name", ["alphabeta", "alphabeta-strict", "negamax"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spec=nested)
def test_nothing_is_pruned_exactly_where_the_last_child_cut(spec, name):
    """A node says "nothing is pruned" exactly when its last update met the cutoff test and no prune
    step followed (the engine's own decision, ``cut``, recorded per update)."""
    trace = SEARCHES[name](gt.tree_from_nested(spec)).trace
    last_cut, pruned = {}, set()
    for e in trace:
        if e.kind == "update":
            last_cut[e.node] = e.cut
        elif e.kind == "prune":
            pruned.add(e.node)
        elif e.kind == "exit" and e.parent is not None:
            said = "nothing is pruned" in e.text
            expected = last_cut.get(e.node, False) and e.node not in pruned and e.bound == "exact"
            assert said == expected, (e.label, e.text)


def test_strict_trace_text_uses_strict_inequality():
    r = gt.alphabeta(gt.tree_from_nested([[3, 5], [1, 9]]), strict=True)
    prune = next(e for e in r.trace if e.kind == "prune")
    assert prune.text.startswith("1 < α = 3 at C")


def test_game_search_graph_has_states_and_pruned_stubs():
    game = Nim(5)
    r = gt.alphabeta(game, trace=True)
    G = r.graph
    assert G.graph["root"] == () and G.nodes[()]["state"] == game.initial
    stubs = [n for n, s in G.nodes(data="status") if s == "pruned"]
    assert stubs and all(G.out_degree(n) == 0 for n in stubs)
    for n in stubs:
        parent = n[:-1]
        assert G.nodes[n]["state"] == game.result(G.nodes[parent]["state"], n[-1])
        assert G.edges[parent, n]["move"] == n[-1]
    check_frames(r.trace, G)
    leaves = [n for n in G if G.out_degree(n) == 0 and G.nodes[n]["status"] == "visited"]
    assert all(G.nodes[n]["utility"] == game.utility(G.nodes[n]["state"]) for n in leaves)


def test_trace_depth_keeps_only_the_top_plies():
    game = TicTacToe()
    state = game.result(game.initial, 0)
    full = gt.minimax(game, state)
    top = gt.minimax(game, state, trace=True, trace_depth=2)
    assert top.value == full.value and top.stats == full.stats
    G = top.graph
    assert max(len(n) for n in G) == 2
    for n in G:
        if len(n) == 1:
            assert G.nodes[n]["value"] == gt.minimax(game, G.nodes[n]["state"]).value
    c4 = gt.alphabeta(ConnectFour(4, 4, 3), trace=True, trace_depth=1, table=True)
    visited = [n for n, s in c4.graph.nodes(data="status") if s == "visited"]
    assert max(map(len, visited)) == 1  # (ply-2 stubs show what ply-1 cutoffs skipped)


def test_traces_are_off_for_games_and_on_for_trees_by_default():
    assert gt.minimax(Nim(4)).trace is None and gt.minimax(Nim(4)).graph is None
    r = gt.minimax(gt.tree_from_nested(TEXTBOOK))
    assert r.trace and r.graph is not None
    graph_only = gt.alphabeta(Nim(4), graph=True)
    assert graph_only.trace is None and graph_only.graph.number_of_nodes() > 1
    no_trace = gt.alphabeta(gt.tree_from_nested(TEXTBOOK), trace=False)
    assert no_trace.trace is None and no_trace.graph is None


def test_frame_errors():
    r = gt.alphabeta(gt.tree_from_nested(TEXTBOOK))
    n = len(r.trace)
    with pytest.raises(ValueError, match=f"k = {n} is out of range: the trace has {n} events"):
        gt.frame(r.trace, n)
    with pytest.raises(TypeError, match="k must be an int"):
        gt.frame(r.trace, "3")
    with pytest.raises(ValueError, match="search again with trace=True"):
        gt.frame(gt.minimax(Nim(3)).trace, 0)
    with pytest.raises(TypeError, match="expected a trace"):
        gt.frame([1, 2, 3], 0)


def test_every_event_kind_is_a_record_with_named_fields():
    """Each kind of event is its own record type, its fields read by name; no positional ``info``."""
    T = gt.tree_from_nested(TEXTBOOK)
    events = [*gt.alphabeta(T, table=True).trace, *gt.alphabeta(T, depth=1, evaluate=len).trace,
              *gt.mcts(T, playouts=12, seed=0).trace]
    table = {}
    gt.alphabeta(T, table=table)
    events += gt.alphabeta(T, table=table).trace  # the second search is answered by the table: a hit
    by_kind = {}
    for e in events:
        by_kind.setdefault(e.kind, e)
    assert set(by_kind) == {"enter", "leaf", "estimate", "hit", "update", "prune", "exit",
                            "select", "expand", "playout", "backup"}
    common = ("kind", "node", "parent", "ply", "player", "value", "alpha", "beta", "state", "names")
    for kind, e in by_kind.items():
        assert isinstance(e, gt.Event) and type(e).__name__.lower() == kind
        assert e._fields[:len(common)] == common and len(e._fields) == len(e)
        assert e._asdict() == {f: getattr(e, f) for f in e._fields}
        assert tuple(getattr(e, f) for f in e._fields) == tuple(e)
        assert not hasattr(e, "info")
        assert e.label == str(e.names(e.node)) and e.text.endswith(".")
    update, prune, exit_ = by_kind["update"], by_kind["prune"], by_kind["exit"]
    assert update.child is update._asdict()["child"] and update.pruned == () and update.bound is None
    assert prune.pruned == prune.children and prune.strict is False and prune.child is None
    assert exit_.bound in ("exact", "upper", "lower")


@pytest.mark.parametrize("prune", [False, True])
@pytest.mark.parametrize("spec", [TEXTBOOK, [[[5, 1], [2, 8]], [[7, 3], [6, 4]]], [[1, 1], [1, [1, 2]], 0]])
def test_frames_agree_with_a_plain_recursion(spec, prune):
    """At every node's last event the frame shows what a plain recursion (tests/reference.py) logs as
    that node is done: its value and window, the nodes entered so far, what is pruned, the path."""
    from reference import reference_exits

    T = gt.tree_from_nested(spec)
    trace = (gt.alphabeta if prune else gt.minimax)(T).trace
    expected = reference_exits(spec, prune=prune)
    last = [k for k, e in enumerate(trace) if e.kind in ("leaf", "exit")]
    assert [trace[k].node for k in last] == [path for path, _ in expected]
    for k, (path, want) in zip(last, expected):
        f = gt.frame(trace, k)
        assert f.current == path and f.values[path] == want["value"] and path in f.done
        assert (f.alpha.get(path), f.beta.get(path)) == (want["window"] or (None, None))
        assert list(f.order) == want["order"] and f.pruned == want["pruned"]
        assert list(f.path) == want["path"]
        assert f == gt.frames(trace)[k]


def test_each_recorder_function_takes_its_records_fields_by_name_and_in_order():
    """A call such as ``rec.update(node, parent, ply, ...)`` reads as the record it makes: each function's
    parameters are its record's fields, in the record's order, and each lands in the field of its name."""
    import inspect

    from gametrees.trace import Recorder

    rec = Recorder(str)
    kinds = ["enter", "leaf", "estimate", "hit", "update", "prune", "exit", "select", "expand", "playout",
             "backup"]
    for kind in kinds:
        params = list(inspect.signature(getattr(rec, kind)).parameters)
        getattr(rec, kind)(*(f"<{p}>" for p in params))
        record = rec.log[-1]
        assert record.kind == kind and record.names is str
        assert params == [f for f in record._fields if f in params]
        assert all(getattr(record, p) == f"<{p}>" for p in params)
        assert all(getattr(record, f) is None for f in record._fields if f not in params + ["kind", "names"])
