"""The trees that seeds make, written down: a course pins a gametrees version, and these must not move.

An instructor pins one gametrees release for a whole course (INSTRUCTORS.md): every
student's assignment trees, practice trees and exam questions are drawn from seeds,
so a release that drew other trees from the same seeds would change a student's
questions mid-course. ``tests/test_seeded_trees.py`` compares what this version
draws with ``tests/data/seeded_trees.json``; a deliberate change to tree generation
rewrites the file (``python tests/seeded_trees.py --write``) in the same commit as a
new version number, so the change is seen in review and named in the release.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import gametrees as gt

DATA = Path(__file__).resolve().parent / "data" / "seeded_trees.json"

# The seeds the assignments use (A1, A2), ids of the forms students have, and plain numbers.
STUDENTS = ("jdoe", "s1", "s2", "student01", "a.lovelace", "42")
KINDS = ("values", "pruning", "order", "window", "expectimax", "best_move")
DIFFICULTIES = ("easy", "medium", "hard")


def tree_text(G):
    """A tree as nested data: ``[label, player, [children...]]`` for inner nodes, ``[label, utility]`` for
    leaves, a chance child as ``[probability, child]``; exact and JSON-able."""

    def walk(n):
        attrs = G.nodes[n]
        label = attrs.get("label", str(n))
        kids = list(G.successors(n))
        if not kids:
            return [label, attrs["utility"]]
        out = []
        for c in kids:
            sub = walk(c)
            prob = G.edges[n, c].get("prob")
            out.append([prob, sub] if prob is not None else sub)
        return [label, attrs.get("player"), out]

    return walk(G.graph["root"])


def seeded_trees():
    """``{name: tree}`` for every seed a course relies on."""
    out = {}
    for sid in STUDENTS:
        out[f"A1/1 {sid}"] = gt.exercises.generate("values", seed=f"{sid}/A1/1", difficulty="medium").tree
        out[f"A1/2 {sid}"] = gt.exercises.generate("best_move", seed=f"{sid}/A1/2", difficulty="medium",
                                                   root_player="min").tree
        out[f"A2 {sid}"] = gt.exercises.generate("pruning", seed=f"{sid}/A2", difficulty="medium").tree
    for kind in KINDS:
        for difficulty in DIFFICULTIES:
            for seed in (0, 7, 2025, "s1234567"):
                out[f"{kind} {difficulty} {seed!r}"] = gt.exercises.generate(kind, seed=seed,
                                                                             difficulty=difficulty).tree
    for seed in (0, 1, 11, 2024):
        out[f"random_tree(3, 3, seed={seed})"] = gt.random_tree(3, 3, seed=seed)
        out[f"random_tree((1, 4), 4, seed={seed})"] = gt.random_tree((1, 4), 4, seed=seed, values=(-9, 9))
    return {name: tree_text(G) for name, G in out.items()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true",
                        help=f"rewrite {DATA.name} from this version "
                             "(a deliberate change to tree generation)")
    args = parser.parse_args(argv)
    trees = seeded_trees()
    if args.write:
        DATA.write_text(json.dumps({"version": gt.__version__, "trees": trees}, ensure_ascii=False, indent=0)
                        + "\n", encoding="utf-8")
        print(f"wrote {len(trees)} trees to {DATA}")
    else:
        print(json.dumps(trees, ensure_ascii=False)[:2000])


if __name__ == "__main__":
    main()
