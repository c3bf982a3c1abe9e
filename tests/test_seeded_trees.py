"""A seed draws the same tree in every release a course may pin (see tests/seeded_trees.py)."""

import json

import pytest
from seeded_trees import DATA, seeded_trees

import gametrees as gt

STORED = json.loads(DATA.read_text(encoding="utf-8"))
NOW = seeded_trees()


def test_the_same_seeds_are_written_down():
    assert sorted(NOW) == sorted(STORED["trees"])
    assert len(NOW) >= 90


@pytest.mark.parametrize("name", sorted(STORED["trees"]))
def test_a_seed_draws_the_tree_written_down(name):
    assert NOW[name] == STORED["trees"][name], (
        f"{name}: this version draws another tree than {STORED['version']} did. A course that pinned a "
        f"release would see its students' trees change. If the change is deliberate, bump the version in "
        f"gametrees/__init__.py and run `python tests/seeded_trees.py --write` in the same commit."
    )


def test_the_file_names_a_release():
    parts = STORED["version"].split(".")
    assert len(parts) == 3 and all(p.isdigit() for p in parts)
    assert tuple(map(int, gt.__version__.split("."))) >= tuple(map(int, parts))
