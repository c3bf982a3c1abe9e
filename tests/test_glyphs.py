"""Every character the widgets and the course website show has a glyph in an installed font.

A character no installed font has draws as an empty box (⏸ and ⏭ did, with Debian's fonts).
The characters are the non-ASCII ones in the widgets' and the site's strings (docstrings
left out; ``\\uXXXX`` escapes in their JavaScript decoded) and in the site's templates; the
fonts are those fontconfig lists (what Chromium draws with), read with fontTools.
"""

from __future__ import annotations

import ast
import re
import unicodedata
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted([*(ROOT / "gametrees" / "widgets").rglob("*.py"),
                  *(ROOT / "gametrees" / "site").rglob("*.py")])
TEMPLATES = sorted(p for p in (ROOT / "gametrees" / "site" / "templates").rglob("*") if p.is_file())
_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _shown(text: str) -> set[str]:
    """The characters ``text`` shows that need more than ASCII (its \\uXXXX escapes decoded)."""
    text += "".join(chr(int(h, 16)) for h in _ESCAPE.findall(text))
    return {ch for ch in text if ord(ch) > 127 and unicodedata.category(ch) not in ("Cc", "Cf", "Zs", "Mn")}


def glyphs_used() -> dict[str, set[str]]:
    """Each character the widgets and the site show -> the files that show it."""
    used: dict[str, set[str]] = {}
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                for ch in _shown(node.value):
                    used.setdefault(ch, set()).add(path.relative_to(ROOT).as_posix())
    for path in TEMPLATES:
        for ch in _shown(path.read_text(encoding="utf-8")):
            used.setdefault(ch, set()).add(path.relative_to(ROOT).as_posix())
    return used


def _fonts(path: str) -> list:
    from fontTools.ttLib import TTCollection, TTFont, TTLibError

    try:
        return TTCollection(path).fonts if path.lower().endswith(".ttc") else [TTFont(path, lazy=True)]
    except (TTLibError, OSError):  # a font file fontTools cannot read: it covers nothing
        return []


@cache
def installed_coverage() -> frozenset[int]:
    """Every code point some installed font (as fontconfig lists them) has a glyph for."""
    from matplotlib import font_manager

    covered: set[int] = set()
    for path in font_manager.findSystemFonts(fontext="ttf"):
        for font in _fonts(path):
            cmap = font.getBestCmap() or {}
            covered.update(cmap)
    return frozenset(covered)


def test_the_widgets_and_the_site_use_only_glyphs_an_installed_font_has():
    covered = installed_coverage()
    if not covered:
        pytest.fail("no installed font found (apt-get install -y fonts-dejavu-core fonts-liberation)")
    used = glyphs_used()
    assert "▶" in used and "✂" in used  # the scan finds the controls' glyphs
    missing = {f"{ch} U+{ord(ch):04X} {unicodedata.name(ch, '?')}": sorted(files)
               for ch, files in sorted(used.items()) if ord(ch) not in covered}
    assert not missing, f"drawn as empty boxes (no installed font has them): {missing}"


def test_the_scan_finds_a_glyph_no_font_has():
    """The check itself: ⏸ (the old pause button), written as a JavaScript escape, is found and not
    covered."""
    assert _shown("play.textContent = '\\\\u23f8 pause';") == {"⏸"}
    if ord("⏸") in installed_coverage():
        pytest.skip("a font installed here has ⏸")
    assert ord("▶") in installed_coverage()
