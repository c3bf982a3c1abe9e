"""The lessons' folded solutions, read as the tests check them: their text, which never ends in a pasteable
answer (the worked answer of an exercise object opens only after an attempt, through its ``explain()``)."""

import ast
import json
import re
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def fold_text(notebook, cell_id):
    """The text of the Solution fold in a lesson's markdown cell ``cell_id``."""
    nb = json.loads((NOTEBOOKS / notebook).read_text())
    text = next("".join(c["source"]) for c in nb["cells"] if c.get("id") == cell_id)
    return re.search(r"<summary>Solution[^<]*</summary>(.*?)</details>", text, re.DOTALL).group(1)


def pasteable(text):
    """The Python literals (a list, tuple, dict, number or string) written in backticks in ``text``."""
    out = []
    for code in re.findall(r"`([^`]+)`", text):
        try:
            out.append(ast.literal_eval(code))
        except (ValueError, SyntaxError):
            continue
    return out


def bold(text):
    """The bold parts of ``text`` (``**...**``), in order."""
    return re.findall(r"\*\*(.+?)\*\*", text)
