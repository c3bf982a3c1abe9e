"""gt.mcts: Monte Carlo tree search as a search you can replay (issue 21).

The selection's UCB1 scores are recomputed here from the frame before each
selection (never from the search's own numbers); visit counts and means are
checked against the playouts the trace records; the same seed gives the same
search traced or not.
"""

import math
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gametrees as gt
from gametrees.games import MAX, ConnectFour, DiceGame, Nim, Pig, TicTacToe

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
SOME = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def textbook():
    return gt.tree_from_nested(TEXTBOOK)


def chance_tree():
    T = gt.tree_from_nested([{"chance": [[4, 1], [-2, 6]], "p": [0.8, 0.2]}, [3, 0.5]])
    return T


def check_selections(result):
    """Every selection's UCB1 scores, recomputed from the frame just before it."""
    trace = result.trace
    c = result.c
    checked = 0
    every = gt.frames(trace)  # one pass; every[k] == gt.frame(trace, k)
    for k, e in enumerate(trace):
        if e.kind != "select":
            continue
        before, after = every[k - 1], every[k]
        kids = e.children
        node = e.node
        if e.player == "chance":
            assert e.chosen in kids
            continue
        # selection happens only where every child is already in the tree
        assert all(kid in before.visits and before.visits[kid] >= 1 for kid in kids)
        parent_visits = before.visits[node]
        assert e.value == parent_visits
        scores = {}
        for kid in kids:
            mean = before.means[kid]
            own = mean if e.player == MAX else -mean
            scores[kid] = own + c * math.sqrt(math.log(parent_visits) / before.visits[kid])
        top = max(scores.values())
        chosen = e.chosen
        assert math.isclose(scores[chosen], top, rel_tol=1e-12, abs_tol=1e-12)
        assert chosen == next(kid for kid in kids if math.isclose(scores[kid], top, rel_tol=1e-12,
                                                                  abs_tol=1e-12))
        for kid in kids:
            assert math.isclose(after.scores[kid], scores[kid], rel_tol=1e-9, abs_tol=1e-9)
        # the sentence shows the numbers in the formula and names the chosen child as the highest
        text = e.text
        def name(n, e=e):
            return str(e.names(n))

        chosen_part = next(p for p in text.split("; ") if "the highest" in p)
        assert f"√(ln {parent_visits} / {before.visits[chosen]}) = {scores[chosen]:.2f}".replace("-",
                                                                                                 "\u2212") \
            in chosen_part
        if not name(chosen).startswith("after "):
            assert f"{name(chosen)} scores" in chosen_part
        checked += 1
    return checked


def playouts_through(result):
    """node -> (playouts that went through it, sum of their results) from the trace alone."""
    through = {}
    start = {}
    for e in result.trace:
        if e.kind == "backup":
            for node, _, _ in e.rows:
                n, total = through.get(node, (0, 0.0))
                through[node] = (n + 1, total + e.value)
        elif e.kind == "playout":
            start[e.node] = start.get(e.node, 0) + 1
    return through, start


def check_visits_add_up(result):
    G = result.graph
    through, start = playouts_through(result)
    root = G.graph["root"]
    assert G.nodes[root]["visits"] == result.stats["playouts"]
    assert result.stats["tree_nodes"] == G.number_of_nodes()
    for n in G:
        kids = list(G.successors(n))
        visits = G.nodes[n]["visits"]
        # every playout through a node went on to a child or started (and for a leaf, ended) there
        assert visits == sum(G.nodes[k]["visits"] for k in kids) + start.get(n, 0), n
        count, total = through[n]
        assert visits == count
        assert math.isclose(G.nodes[n]["value"], total / count, rel_tol=1e-9, abs_tol=1e-9)
    final = gt.frame(result.trace, -1)
    assert final.visits == {n: G.nodes[n]["visits"] for n in G}


# ---------------------------------------------------------------------------
# Selection, backup, frames
# ---------------------------------------------------------------------------


def test_selection_scores_recomputed_from_the_frame_before_on_the_textbook_tree():
    r = gt.mcts(textbook(), playouts=200, seed=3)
    assert check_selections(r) > 150


@pytest.mark.parametrize("c", [0.0, 0.5, math.sqrt(2), 7.0])
def test_selection_scores_in_tic_tac_toe(c):
    r = gt.mcts(TicTacToe(), TicTacToe.from_string("X../.O./..."), playouts=150, c=c, seed=1)
    assert check_selections(r) > 50
    check_visits_add_up(r)


@SOME
@given(seed=st.integers(0, 10**6), depth=st.integers(1, 4), playouts=st.integers(1, 80))
def test_random_trees_selection_and_visits(seed, depth, playouts):
    T = gt.random_tree(branching=(1, 3), depth=depth, seed=seed, values=(-5, 5))
    if T.out_degree(T.graph["root"]) == 0:
        return
    r = gt.mcts(T, playouts=playouts, seed=seed)
    check_selections(r)
    check_visits_add_up(r)
    assert set(r.graph) <= set(T)
    for n in r.graph:  # the input tree's ids and labels
        assert r.graph.nodes[n]["label"] == T.nodes[n].get("label", n)


def test_visits_add_up_in_games_with_and_without_chance():
    for game, playouts in [(Nim(coins=7), 150), (ConnectFour(4, 5, 3), 80), (DiceGame(), 150),
                           (Pig(target=6), 80)]:
        r = gt.mcts(game, playouts=playouts, seed=2)
        check_visits_add_up(r)
        check_selections(r)
        assert r.move in game.actions(game.initial)


def test_frames_follow_the_four_steps():
    r = gt.mcts(textbook(), playouts=12, seed=0)
    kinds = [e.kind for e in r.trace]
    assert kinds[:3] == ["expand", "playout", "backup"]
    # every playout: selections, one expansion, one playout, one backup
    for i in range(1, 13):
        steps = [e.kind for e in r.trace if e.playout == i]
        assert steps[-3:] == ["expand", "playout", "backup"] and set(steps[:-3]) <= {"select"}
    for k, e in enumerate(r.trace):
        f = gt.frame(r.trace, k)
        if e.kind == "playout":
            assert f.playout[0] == e.node and r.graph.has_node(e.node)
            leaf = f.playout[-1]
            assert textbook().nodes[leaf]["utility"] == e.value
        if e.kind == "backup":
            assert f.updated[-1] == () and f.updated[0] == e.node
            assert f.playouts == e.playout
    assert gt.frame(r.trace, 2).visits == {(): 1, (0,): 1}
    assert gt.frames(r.trace)[20] == gt.frame(r.trace, 20)


def test_the_sentence_for_each_step():
    r = gt.mcts(textbook(), playouts=9, seed=0)
    texts = [e.text for e in r.trace]
    assert texts[0] == "Playout 1 · expansion: B joins the tree (the first child of A not yet in the tree)."
    assert texts[1].startswith("Playout 1 · playout from B: random moves down to the leaf ")
    assert texts[2].startswith("Playout 1 · backup: B now has 1 visit, mean ")
    first_select = next(t for t in texts if "selection" in t)
    assert first_select.startswith("Playout 4 · selection at A (MAX, 3 visits): ")
    assert "1.41·√(ln 3 / 1)" in first_select and first_select.endswith(".")


# ---------------------------------------------------------------------------
# Same seed, traced or not; results
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("make", [textbook, chance_tree, TicTacToe, lambda: ConnectFour(5, 6, 4), DiceGame])
def test_same_seed_same_search_traced_or_not(make):
    game = make()
    traced = gt.mcts(game, playouts=400, seed=11)
    plain = gt.mcts(game, playouts=400, seed=11, trace=False)
    bare = gt.mcts(game, playouts=400, seed=11, trace=False, graph=False)
    assert traced.trace is not None and plain.trace is None and bare.graph is None
    for r in (plain, bare):
        assert (r.move, r.value, r.stats) == (traced.move, traced.value, traced.stats)
    assert {n: d["visits"] for n, d in plain.graph.nodes(data=True)} == \
        {n: d["visits"] for n, d in traced.graph.nodes(data=True)}
    other = gt.mcts(game, playouts=400, seed=12, trace=False)
    assert other.stats["playouts"] == 400


@pytest.mark.parametrize("seed", range(5))
def test_textbook_tree_plays_b(seed):
    r = gt.mcts(textbook(), playouts=3000, seed=seed)
    assert r.move == (0,) and r.algorithm == "mcts" and isinstance(r, gt.SearchResult)
    assert r.graph.nodes[(0,)]["label"] == "B"
    assert abs(r.value - 3) < 0.5  # the mean drifts to the minimax value 3
    assert r.stats["playouts"] == 3000 == r.graph.nodes[()]["visits"]
    best = [(u, v) for u, v, b in r.graph.edges(data="best") if b]
    assert best[0] == ((), (0,))


def test_textbook_tree_plays_b_unseeded_too():
    for _ in range(3):
        assert gt.mcts(textbook(), playouts=3000, trace=False).move == (0,)


def test_replay_tree_is_the_whole_input_tree_with_the_grown_part_marked():
    T = textbook()
    r = gt.mcts(T, playouts=5, seed=0)
    R = r.replay_tree
    assert set(R) == set(T) and R.graph["algorithm"] == "mcts"
    grown = {n for n, d in R.nodes(data=True) if d["status"] == "visited"}
    assert grown == set(r.graph) and all("visits" in R.nodes[n] for n in grown)
    assert gt.mcts(gt.TicTacToe(), playouts=5, seed=0).replay_tree is not None
    assert gt.mcts(T, playouts=5, seed=0, graph=False).replay_tree is None


def test_takes_the_win():
    game = TicTacToe()
    for seed in range(5):
        r = gt.mcts(game, TicTacToe.from_string("XX./OO./..."), playouts=1000, seed=seed)
        assert r.move == 2
        assert r.graph.nodes[(2,)]["value"] == 1


def test_chance_children_are_sampled_by_their_probability():
    r = gt.mcts(chance_tree(), playouts=3000, seed=5)
    G = r.graph
    chance = (0,)
    a, b = (G.nodes[k]["visits"] for k in G.successors(chance))
    assert 0.75 < a / (a + b) < 0.85


def test_edge_move_label_and_timed_search():
    T = gt.tree_from_nested([1, [5, 6]])
    T.edges[(), (0,)]["move"], T.edges[(), (1,)]["move"] = "left", "right"
    r = gt.mcts(T, playouts=200, seed=0)
    assert r.move == gt.minimax(T).move == "right"
    r = gt.mcts(TicTacToe(), playouts=None, seconds=0.05, seed=0)
    assert r.stats["playouts"] >= 1


def test_the_agent_uses_the_same_search_and_keeps_its_tree():
    agent = gt.MCTSAgent(playouts=300, seed=4)
    game = TicTacToe()
    move = agent(game, game.initial)
    result = agent.last_result
    assert result.algorithm == "mcts" and result.trace is None and result.move == move
    assert result.graph.nodes[()]["visits"] == 300
    assert {m: v for m, (v, _) in agent.last_visits.items()} == \
        {result.graph.edges[(),
                            k]["move"]: result.graph.nodes[k]["visits"] for k in result.graph.successors(())}


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs, error, match", [
    ({"playouts": 0}, ValueError, r"playouts must be None or an int >= 1.*got 0"),
    ({"playouts": -5}, ValueError, r"playouts must be None or an int >= 1.*got -5"),
    ({"playouts": 2.5}, TypeError, r"playouts must be None or an int"),
    ({"playouts": None}, ValueError, r"give playouts, seconds or both"),
    ({"c": -1}, ValueError, r"c must be a number >= 0 and finite.*got -1"),
    ({"c": float("nan")}, ValueError, r"c must be a number >= 0 and finite.*got nan"),
    ({"c": math.inf}, ValueError, r"c must be a number >= 0 and finite"),
    ({"c": "1"}, TypeError, r"c must be a number"),
    ({"seconds": 0}, ValueError, r"seconds must be None or a positive number"),
    ({"seed": 1.5}, TypeError, r"seed must be None, an int or a str"),
    ({"trace": "yes"}, TypeError, r"trace must be True or False"),
])
def test_bad_options_are_named(kwargs, error, match):
    with pytest.raises(error, match=match):
        gt.mcts(textbook(), **kwargs)


def test_bad_starts_are_named():
    game = TicTacToe()
    with pytest.raises(ValueError, match=r"is finished \(a terminal position\)"):
        gt.mcts(game, TicTacToe.from_string("XXX/OO./..."))
    with pytest.raises(ValueError, match=r"start node \(0, 0\) is finished"):
        gt.mcts(textbook(), (0, 0))
    with pytest.raises(ValueError, match=r"start node \(7,\) is not a node of the tree"):
        gt.mcts(textbook(), (7,))
    single = nx.DiGraph(root="A")
    single.add_node("A", utility=3)
    with pytest.raises(ValueError, match=r"the tree is a single leaf"):
        gt.mcts(single)
    looped = nx.DiGraph(root="A")
    looped.add_edge("A", "B")
    looped.add_edge("B", "A")
    with pytest.raises(ValueError, match=r"root 'A' has a parent|cycle"):
        gt.mcts(looped)  # a "tree" with no leaves
    with pytest.raises(ValueError, match=r"no 'root'"):
        gt.mcts(nx.DiGraph())
    with pytest.raises(TypeError, match=r"expected a game tree"):
        gt.mcts([[1, 2], [3]])


# ---------------------------------------------------------------------------
# Drawing and replay (in the kernel; the browser test is in test_browser.py)
# ---------------------------------------------------------------------------


def _layer(ax, gid):
    return next(c for c in ax.collections if c.get_gid() == gid)


def test_draw_shows_visits_means_and_heavier_edges():
    import matplotlib.pyplot as plt

    r = gt.mcts(textbook(), playouts=300, seed=1)
    ax = gt.draw(r)
    G = r.graph
    notes = dict(zip(_layer(ax, "notes").nodes, _layer(ax, "notes").texts))
    assert notes == {n: f"n={G.nodes[n]['visits']}" for n in G}
    values = dict(zip(_layer(ax, "values").nodes, _layer(ax, "values").texts))
    assert values[(0,)] == gt.drawing.format_number(G.nodes[(0,)]["value"])
    widths = {}
    for c in ax.collections:
        if (c.get_gid() or "").startswith("edges:") and c.get_gid() != "edges:best":
            for e, w in zip(c.edges, c.get_linewidths()):
                widths[e] = w
    by_visits = sorted(widths, key=lambda e: G.nodes[e[1]]["visits"])
    assert widths[by_visits[0]] < widths[by_visits[-1]]
    assert "300 playouts" in ax.get_title(loc="left")
    plt.close("all")


def test_a_selection_frame_shows_the_scores_and_a_playout_its_path():
    import matplotlib.pyplot as plt

    r = gt.mcts(textbook(), playouts=12, seed=0)
    k = next(i for i, e in enumerate(r.trace) if e.kind == "select" and e.node == (2,))
    ax = gt.draw(r, k=k)
    notes = dict(zip(_layer(ax, "notes").nodes, _layer(ax, "notes").texts))
    fr = gt.frame(r.trace, k)
    for kid, score in fr.scores.items():
        assert f"{score:.2f}".replace("-", "\u2212") in [t for n, t in zip(_layer(ax, "notes").nodes,
                                                                       _layer(ax, "notes").texts) if n == kid]
    assert notes[(2,)] == f"n={fr.visits[(2,)]}"
    plt.close("all")
    k = next(i for i, e in enumerate(r.trace) if e.kind == "playout" and e.moves)
    ax = gt.draw(r, k=k)
    walk = _layer(ax, "edges:playout").edges
    assert walk == tuple(zip(gt.frame(r.trace, k).playout, gt.frame(r.trace, k).playout[1:]))
    plt.close("all")


def test_replay_controls_and_next_playout():
    r = gt.mcts(textbook(), playouts=6, seed=0)
    w = gt.replay(r)
    assert w.next_cut.description.startswith("next playout")
    starts = [0] + [i + 1 for i, e in enumerate(r.trace[:-1]) if e.kind == "backup"]
    for start in starts[1:]:
        w.next_cut.click()
        assert w.k == start and w.frame.text.startswith(f"Playout {starts.index(start) + 1} · ")
    w.next_cut.click()
    assert "This is the last playout." in w.info.value
    w.reset()
    assert w.k == 0 and "0 of 6 playouts done" in w.info.value
    w.forward.click()
    w.forward.click()
    assert w.k == 2 and "1 of 6 playouts done" in w.info.value and "backup" in w.window.value
    assert repr(w).startswith("Replay(mcts: ")


def test_animate_and_export_take_the_result(tmp_path):
    r = gt.mcts(textbook(), playouts=3, seed=0)
    gif = gt.animate(r, tmp_path / "mcts.gif")
    svg = gt.export(r, tmp_path / "mcts.svg")
    from PIL import Image

    assert Path(svg).stat().st_size > 1000 and "<svg" in Path(svg).read_text(encoding="utf-8")
    with Image.open(gif) as im:
        assert im.n_frames == len(r.trace)   # one frame per step of the three playouts


# ----------------------------------------------------------------------------
# The UCB1 scores a select event carries are the search's own, computed by gametrees.rules
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("subject, options", [
    (gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]), {"playouts": 200, "seed": 0}),
    (TicTacToe(), {"playouts": 300, "seed": 1, "c": 2.0}),
    (DiceGame(), {"playouts": 200, "seed": 2}),
])
def test_a_select_event_records_the_ucb1_score_rules_gives_for_its_counts(subject, options):
    from gametrees.rules import ucb1
    from gametrees.trace import selection_rows

    result = gt.mcts(subject, **options)
    selects = [e for e in result.trace if e.kind == "select"]
    assert selects
    for e in selects:
        chosen, kids, visits, totals, c, scores = e.chosen, e.children, e.visits, e.totals, e.c, e.scores
        assert len(scores) == len(kids)
        if e.player == "chance":  # what it drew by: each outcome's probability, summing to 1
            assert c is None and math.isclose(sum(scores), 1.0)
            continue
        assert c == result.c
        sign = 1.0 if e.player == MAX else -1.0
        want = [ucb1(sign * t / n, n, e.value, c) for n, t in zip(visits, totals)]
        assert scores == pytest.approx(want, rel=1e-12, abs=1e-12)
        assert chosen == kids[scores.index(max(scores))]  # the first of the highest
        # the trace reads what the search recorded (a doctored score shows), never recomputes it
        assert e._fields[-1] == "scores"
        doctored = type(e)(e[:-1] + (tuple(s + 1000.0 for s in scores),))
        assert [row[3] for row in selection_rows(doctored)] == [s + 1000.0 for s in scores]
    assert any(e.player != "chance" for e in selects)


def test_ucb1_is_written_once_in_the_package():
    """The UCB1 exploration term ``sqrt(log(N) / n)`` (or its factored form) is in gametrees/rules.py only
    (the deliberate slips of check_ucb's catalogue aside)."""
    import re

    package = Path(gt.__file__).parent
    pattern = re.compile(r"sqrt\(\s*(math\.)?log\(")
    where = sorted(str(p.relative_to(package)) for p in package.rglob("*.py")
                   if pattern.search(p.read_text(encoding="utf-8")))
    assert "rules.py" in where and set(where) <= {"rules.py", "exercises/code_checks/formulas.py"}, where


@pytest.mark.parametrize("parent_visits", [1, 2, 1023, 1024, 5000, 20_000])
def test_ucb1_select_scores_as_ucb1_does_beyond_its_tables(parent_visits):
    """ucb1_select reads sqrt(ln N) and 1/sqrt(n) from tables it grows as the visits grow: its scores are
    ucb1's however many visits there are."""
    from types import SimpleNamespace as Child

    from gametrees.rules import ucb1, ucb1_select

    kids = [Child(visits=n, total=0.25 * n) for n in sorted({1, max(1, parent_visits // 3), parent_visits})]
    for sign in (1.0, -1.0):
        scores = []
        ucb1_select(kids, parent_visits, 1.5, sign, scores)
        want = [ucb1(sign * k.total / k.visits, k.visits, parent_visits, 1.5) for k in kids]
        assert scores == pytest.approx(want, rel=1e-12, abs=1e-12)


def test_ucb1_select_refuses_a_parent_without_visits():
    from types import SimpleNamespace as Child

    from gametrees.rules import ucb1_select

    with pytest.raises(ValueError, match=r"ucb1_select: parent_visits must be at least 1.*got 0"):
        ucb1_select([Child(visits=1, total=0.0)], 0, 1.4)
