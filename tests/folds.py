"""The lessons' folded solutions, read as the tests check them: the literal after "Answer: `"."""

import ast
import json
import re
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def fold_answer(notebook, cell_id):
    """The Python literal written after "Answer: `" in a lesson's markdown cell ``cell_id`` (its folded solution)."""
    nb = json.loads((NOTEBOOKS / notebook).read_text())
    text = next("".join(c["source"]) for c in nb["cells"] if c.get("id") == cell_id)
    return ast.literal_eval(re.search(r"Answer:\s+`([^`]+)`", text).group(1))
