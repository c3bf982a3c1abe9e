"""How values and texts are written for people: :func:`fmt`, :func:`fmt_prob`, :func:`visible`.

:func:`fmt` writes a value (3, 2.5, 10.125, −2, +∞), :func:`fmt_prob` a probability (0.25, 1/3).

One formatter for every sentence, figure, replay, feedback line and exported
label, so a value reads the same everywhere: integral values without a decimal
point, others with at most 4 decimals (trailing zeros dropped), infinities as
±∞. ``true_minus=True`` writes negative numbers with the true minus sign (−2),
as the figures and the search's sentences do; feedback keeps the ASCII hyphen
that a learner types.

May import: the standard library only (it is the lowest layer of the package).

Examples
--------
>>> fmt(3.0), fmt(10.125), fmt(2 / 3), fmt(-2.5), fmt(float("inf")), fmt(-float("inf"))
('3', '10.125', '0.6667', '-2.5', '+∞', '-∞')
>>> fmt(-2, true_minus=True), fmt(float("-inf"), true_minus=True)
('−2', '−∞')
>>> fmt_prob(1 / 3), fmt_prob(0.25)
('1/3', '0.25')

:func:`visible` writes control characters as their escapes, so that a label
typed with one shows what it holds and every file a figure is written to
stays valid (XML has no place for a NUL).
"""

from __future__ import annotations

import math
import numbers
import re

__all__ = ["fmt", "fmt_prob", "visible"]

_MINUS = "\u2212"


def fmt(x, *, true_minus=False) -> str:
    """A value as a learner would write it: 3, 2.5, 10.125, 0.6667, +∞, -∞ (``None``: ``"?"``).

    Integral values have no decimal point; others are rounded to 4 decimals,
    trailing zeros dropped. Anything that is not a real number is ``str(x)``.
    """
    if x is None:
        s = "?"
    elif isinstance(x, bool) or not isinstance(x, numbers.Real):
        s = str(x)
    elif isinstance(x, numbers.Integral):
        s = str(int(x))
    else:
        x = float(x)
        if math.isnan(x):
            s = "nan"
        elif math.isinf(x):
            s = "+∞" if x > 0 else "-∞"
        else:
            r = round(x, 4)
            if r == int(r) and abs(r) < 1e15:
                s = str(int(r))
            elif abs(r) >= 1e15:
                s = f"{r:.4g}"
            else:
                s = f"{r:.4f}".rstrip("0").rstrip(".")
            if s == "-0":
                s = "0"
    if true_minus and s.startswith("-"):
        s = _MINUS + s[1:]
    return s


def fmt_prob(p) -> str:
    """A probability as shown: 0.25, or 1/3 for thirds, sixths, sevenths, ... that no short decimal writes."""
    for k in (3, 6, 7, 9, 11, 12):
        for j in range(1, k):
            if abs(p - j / k) < 1e-9 and round(p, 4) != p:
                return f"{j}/{k}"
    return fmt(p)


# Control characters (C0 but the newline, DEL, C1), lone surrogates (no UTF-8 writes them) and the two
# non-characters XML refuses.
_INVISIBLE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def _escape(match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text) -> str:
    r"""``str(text)`` with every control character written as its escape (``\x00``, ``\x7f``).

    Newlines stay (a figure's text may have several lines); tabs, form feeds,
    NUL, DEL, C1 controls, lone surrogates and U+FFFE/U+FFFF become the
    escape Python's ``repr`` writes, so they are seen (not silently dropped)
    and no SVG, TeX or PNG text carries them.

    >>> visible("B\x00b"), visible("two\nlines"), visible("\x7f")
    ('B\\x00b', 'two\nlines', '\\x7f')
    >>> print(visible("B\x00b"))
    B\x00b
    """
    text = str(text)
    return _INVISIBLE.sub(_escape, text) if _INVISIBLE.search(text) else text
