"""The tidy tree layout: no overlaps, parents centred, order kept, deterministic."""

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gametrees as gt
from gametrees.drawing import layout
from gametrees.drawing.layout import tidy_layout, tree_children
from gametrees.games import Nim, TicTacToe

# Leaves at any depth, 1-5 children per inner node (chains of single children too).
nested_trees = st.recursive(st.integers(0, 9), lambda kids: st.lists(kids, min_size=1, max_size=5),
                            max_leaves=60)
MANY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_tidy(G, pos, sep=1.0, level=1.0):
    """The layout properties, asserted for every node of G."""
    kids = tree_children(G)
    root = G.graph["root"]
    assert set(pos) == set(kids)
    depth = {root: 0}
    for u in layout._postorder(kids, root)[::-1]:
        for v in kids[u]:
            depth[v] = depth[u] + 1
    rows = {}
    for n, (x, y) in pos.items():
        assert y == pytest.approx(-depth[n] * level)
        rows.setdefault(depth[n], []).append(x)
    # No two nodes on a level closer than sep: no overlaps.
    for xs in rows.values():
        xs.sort()
        for a, b in itertools.pairwise(xs):
            assert b - a >= sep - 1e-9
    for u, vs in kids.items():
        if vs:
            # Every parent centred over its children, children in order.
            assert pos[u][0] == pytest.approx((pos[vs[0]][0] + pos[vs[-1]][0]) / 2, abs=1e-9)
            xs = [pos[v][0] for v in vs]
            assert all(a < b for a, b in itertools.pairwise(xs))
    assert min(x for x, _ in pos.values()) == pytest.approx(0.0, abs=1e-12)


def mirror(spec):
    return [mirror(s) for s in reversed(spec)] if isinstance(spec, list) else spec


@MANY
@given(nested_trees)
def test_random_nested_trees_are_tidy(spec):
    G = gt.tree_from_nested(spec)
    pos = tidy_layout(G)
    check_tidy(G, pos)
    # Deterministic: the same tree (even rebuilt) always gets the same layout.
    assert tidy_layout(G) == pos
    assert tidy_layout(gt.tree_from_nested(spec)) == pos


@pytest.mark.slow
@MANY
@given(nested_trees)
def test_a_mirrored_tree_gets_the_mirrored_layout(spec):
    pos = tidy_layout(gt.tree_from_nested(spec))
    mpos = tidy_layout(gt.tree_from_nested(mirror(spec)))
    width = max(x for x, _ in pos.values())

    def mirrored(node):  # child i of k in the mirror is child k-1-i
        path, sub, out = node, spec, []
        for i in path:
            out.append(len(sub) - 1 - i)
            sub = sub[i]
        return tuple(out)

    for n, (x, y) in pos.items():
        mx, my = mpos[mirrored(n)]
        assert mx == pytest.approx(width - x, abs=1e-9) and my == y


@pytest.mark.parametrize("seed", range(40))
def test_ragged_random_trees_are_tidy(seed):
    G = gt.random_tree((1, 4), 5, seed=seed)
    check_tidy(G, tidy_layout(G))


@pytest.mark.parametrize("sep, level", [(2.0, 1.0), (0.5, 3.0)])
def test_spacing_scales_the_layout(sep, level):
    G = gt.random_tree((1, 3), 4, seed=3)
    unit = tidy_layout(G)
    scaled = tidy_layout(G, sep=sep, level=level)
    check_tidy(G, scaled, sep=sep, level=level)
    for n, (x, y) in unit.items():
        assert scaled[n] == pytest.approx((x * sep, y * level))


def test_textbook_tree_positions():
    pos = tidy_layout(gt.tree_from_nested([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))
    assert [pos[(i, j)][0] for i in range(3) for j in range(3)] == list(range(9))
    assert [pos[(i,)] for i in range(3)] == [(1.0, -1.0), (4.0, -1.0), (7.0, -1.0)]
    assert pos[()] == (4.0, 0.0)


def test_a_small_subtree_tucks_in_beside_a_deep_one():
    # The lone leaf needs only to clear its sibling at level 1, not the whole subtree.
    pos = tidy_layout(gt.tree_from_nested([7, [[1, 2], [3, 4]]]))
    assert pos[(1,)][0] - pos[(0,)][0] == pytest.approx(1.0)


def test_game_trees_and_transposition_dags():
    G = gt.expand(Nim(7))
    check_tidy(G, tidy_layout(G))
    D = gt.expand(TicTacToe(), depth=3, merge=True)  # a DAG: each state once
    pos = tidy_layout(D)
    assert set(pos) == set(D)  # laid out by its breadth-first spanning tree
    check_tidy(D, pos)


def test_a_dict_of_children():
    pos = tidy_layout({"r": ["a", "b"], "a": [], "b": ["c"], "c": []}, root="r")
    assert pos == {"r": (0.5, 0.0), "a": (0.0, -1.0), "b": (1.0, -1.0), "c": (1.0, -2.0)}


def test_bad_input_is_named():
    G = gt.tree_from_nested([1, 2])
    with pytest.raises(ValueError, match="sep must be a positive number"):
        tidy_layout(G, sep=0)
    with pytest.raises(ValueError, match="level must be a positive number"):
        tidy_layout(G, level=-1)
    with pytest.raises(TypeError, match="networkx.DiGraph"):
        tidy_layout([1, 2])
    H = G.copy()
    del H.graph["root"]
    with pytest.raises(ValueError, match="no 'root'"):
        tidy_layout(H)
    with pytest.raises(ValueError, match="pass root"):
        tidy_layout({"a": []})
    with pytest.raises(ValueError, match="reached twice"):
        tidy_layout({"a": ["b"], "b": ["a"]}, root="a")


def test_speed_is_not_an_issue():
    # A thousand nodes lay out in milliseconds (measured in benchmarks/); here only sanity.
    G = gt.random_tree(4, 5, seed=0)
    assert len(tidy_layout(G)) == G.number_of_nodes() == 1365
