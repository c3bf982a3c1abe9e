"""The table probe: what a stored entry does for a search with the window (α, β).

One home for the rule, used by the engine (:mod:`gametrees.search.pruning`) and by lesson 05's checks.
A deep enough entry either **answers** (an exact value; a lower bound at or above β; an upper bound at
or below α) or **narrows** the window: a lower bound v raises α to max(α, v), an upper bound v lowers β
to min(β, v). A bound on the far side of the window says nothing new ("no news": the window stays).

Imports: :mod:`gametrees.search.engine` (the flags ``EXACT``, ``LOWER``, ``UPPER``: the strings
``"exact"``, ``"lower"``, ``"upper"``).
"""

from __future__ import annotations

from .engine import EXACT, LOWER, UPPER

__all__ = ["table_probe"]


def table_probe(flag, value, alpha, beta, strict=False):
    """Answer from a stored entry, or narrow the window with it.

    Parameters
    ----------
    flag : {"exact", "lower", "upper"}
        What the stored ``value`` is: the exact value, a lower bound ("at least"), an upper bound ("at most").
    value : number
        The stored value, seen from the same side as ``alpha`` and ``beta``.
    alpha, beta : number
        The window of the search that reads the entry (an entry too shallow for it must not be probed).
    strict : bool
        The strict tie rule: a bound answers only when it lies strictly outside the window.

    Returns
    -------
    (answer, alpha, beta)
        ``answer`` is the stored value when the entry settles the window, else ``None``; ``alpha`` and
        ``beta`` are the window the search goes on with (narrowed by a bound, unchanged otherwise).

    Examples
    --------
    >>> table_probe("lower", 3, 0, 2)        # at least 3 >= beta: fails high anyway
    (3, 0, 2)
    >>> table_probe("lower", 3, 0, 5)        # at least 3: alpha rises to 3
    (None, 3, 5)
    >>> table_probe("upper", 3, -5, 5)       # at most 3: beta falls to 3
    (None, -5, 3)
    >>> table_probe("upper", 9, -5, 5)       # at most 9 with beta = 5: no news
    (None, -5, 5)
    >>> table_probe("lower", 5, 0, 5, strict=True)   # strict: 5 is not above beta; the window closes on 5
    (None, 5, 5)
    """
    if flag == EXACT:
        return value, alpha, beta
    if flag == LOWER:
        if (value > beta) if strict else (value >= beta):
            return value, alpha, beta
        if value > alpha:
            alpha = value
    elif flag == UPPER:
        if (value < alpha) if strict else (value <= alpha):
            return value, alpha, beta
        if value < beta:
            beta = value
    else:
        raise ValueError(f"a table entry's flag must be 'exact', 'lower' or 'upper', got {flag!r}")
    return None, alpha, beta
