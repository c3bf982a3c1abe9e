"""Independent reference implementations the tests compare gametrees against.

They work on nested-list specs directly (never on gametrees' graphs or game
protocol), written the plainest way, so a bug in the engine cannot hide in a
shared helper.
"""

import math


def other(player):
    return "min" if player == "max" else "max"


def players_of(spec, player="max", decider=None, path=()):
    """{path: player} for inner nodes, following tree_from_nested's rules."""
    out = {}
    if isinstance(spec, dict):
        (player,) = [k for k in spec if k in ("max", "min", "chance")]
        kids = spec[player]
    elif isinstance(spec, list):
        kids = spec
    else:
        return out
    out[path] = player
    now = decider if player == "chance" else player
    nxt = "max" if now is None else other(now)
    for i, kid in enumerate(kids):
        out.update(players_of(kid, nxt, now, path + (i,)))
    return out


def children(spec):
    if isinstance(spec, dict):
        (player,) = [k for k in spec if k in ("max", "min", "chance")]
        return spec[player], spec.get("p")
    return spec, None


def brute_value(spec, root_player="max"):
    """Expectiminimax value by plain recursion over every node."""
    players = players_of(spec, root_player)

    def value(sub, path):
        if not isinstance(sub, (list, dict)):
            return sub
        kids, probs = children(sub)
        vals = [value(k, path + (i,)) for i, k in enumerate(kids)]
        p = players[path]
        if p == "max":
            return max(vals)
        if p == "min":
            return min(vals)
        probs = probs or [1 / len(kids)] * len(kids)
        return sum(pr * v for pr, v in zip(probs, vals))

    return value(spec, ())


def all_values(spec, root_player="max"):
    """{path: exact minimax value} for every node."""
    players = players_of(spec, root_player)
    out = {}

    def value(sub, path):
        if not isinstance(sub, (list, dict)):
            out[path] = sub
            return sub
        kids, _ = children(sub)
        vals = [value(k, path + (i,)) for i, k in enumerate(kids)]
        out[path] = max(vals) if players[path] == "max" else min(vals)
        return out[path]

    value(spec, ())
    return out


def reference_alphabeta(spec, root_player="max", strict=False, alpha=-math.inf, beta=math.inf):
    """AIMA's alpha-beta (fail-soft) on nested lists, from the window (alpha, beta) at the root.

    Returns (value, best root child index, visited leaf paths in order,
    {path: returned value} for every visited node).
    """
    players = players_of(spec, root_player)
    visited = []
    returned = {}

    def cut_high(v, beta):
        return v > beta if strict else v >= beta

    def cut_low(v, alpha):
        return v < alpha if strict else v <= alpha

    def search(sub, path, alpha, beta):
        if not isinstance(sub, list):
            visited.append(path)
            returned[path] = sub
            return sub
        if players[path] == "max":
            v = -math.inf
            for i, kid in enumerate(sub):
                v = max(v, search(kid, path + (i,), alpha, beta))
                if cut_high(v, beta):
                    break
                alpha = max(alpha, v)
        else:
            v = math.inf
            for i, kid in enumerate(sub):
                v = min(v, search(kid, path + (i,), alpha, beta))
                if cut_low(v, alpha):
                    break
                beta = min(beta, v)
        returned[path] = v
        return v

    value = search(spec, (), alpha, beta)
    return value, visited, returned


def best_root_child(spec, root_player="max"):
    """Index of the first root child with the best value (None for a leaf)."""
    if not isinstance(spec, list):
        return None
    players = players_of(spec, root_player)
    vals = [brute_value(k, other(players[()])) for k in spec]
    target = max(vals) if players[()] == "max" else min(vals)
    return vals.index(target)


def reference_fail_hard(spec, root_player="max", alpha=-math.inf, beta=math.inf):
    """Standard fail-hard alpha-beta (textbook rule) on nested lists, searched from the root with the window
    (alpha, beta): a MAX node returns β as soon as a child returns at least β, else its α (at least the α it
    was given); a MIN node returns α as soon as a child returns at most α, else its β.

    Returns ``{path: returned value}`` for every visited inner node.
    """
    players = players_of(spec, root_player)
    returned = {}

    def search(sub, path, alpha, beta):
        if not isinstance(sub, list):
            return sub
        result = None
        for i, kid in enumerate(sub):
            v = search(kid, path + (i,), alpha, beta)
            if players[path] == "max":
                if v >= beta:
                    result = beta
                    break
                alpha = max(alpha, v)
            else:
                if v <= alpha:
                    result = alpha
                    break
                beta = min(beta, v)
        if result is None:
            result = alpha if players[path] == "max" else beta
        returned[path] = result
        return result

    search(spec, (), alpha, beta)
    return returned


def reference_exits(spec, prune=True, strict=False):
    """What a replay must show as each node of an alpha-beta (``prune=False``: minimax) search on nested
    lists is done, from a plain recursion that logs as it goes.

    Returns ``[(path, state), ...]`` in the order the nodes are done (a leaf as soon as it is reached),
    ``state`` a dict: ``value`` (the node's value), ``window`` (its (alpha, beta) when it is done, or None
    for a leaf or without pruning), ``order`` (every node entered so far, in order), ``pruned`` (the
    children cut off so far) and ``path`` (the nodes still being searched, from the root down).
    """
    players = players_of(spec)
    entered, pruned, stack, log = [], set(), [], []

    def done(path, value, window):
        log.append((path, {"value": value, "window": window, "order": list(entered), "pruned": set(pruned),
                           "path": list(stack)}))

    def search(sub, path, alpha, beta):
        entered.append(path)
        if not isinstance(sub, list):
            done(path, sub, None)
            return sub
        stack.append(path)
        is_max = players[path] == "max"
        v = -math.inf if is_max else math.inf
        for i, kid in enumerate(sub):
            v = (max if is_max else min)(v, search(kid, path + (i,), alpha, beta))
            if prune and is_max and (v > beta if strict else v >= beta):
                pruned.update(path + (j,) for j in range(i + 1, len(sub)))
                break
            if prune and not is_max and (v < alpha if strict else v <= alpha):
                pruned.update(path + (j,) for j in range(i + 1, len(sub)))
                break
            if is_max:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
        stack.pop()
        done(path, v, (alpha, beta) if prune else None)
        return v

    search(spec, (), -math.inf, math.inf)
    return log


def reference_star1(spec, low, high, root_player="max"):
    """Ballard's Star1 (expectimax pruning below chance nodes, every leaf in [low, high]) on nested lists,
    fail-soft, textbook tie rule, by plain recursion.

    At a chance node with window (alpha, beta), outcome i (probability p) is searched with the window
    where its value still matters, ((alpha - most without it) / p, (beta - least without it) / p) (an end
    beyond [low, high] open); after it, the node is worth at most the outcomes seen plus each unseen one
    at ``high`` (added one by one) and at least the same at ``low``: at most alpha or at least beta skips
    the remaining outcomes. An outcome whose value is only a bound when the node goes on is searched
    again with an open window. Returns (value, skipped child paths in order, visited leaf paths in order).
    """
    players = players_of(spec, root_player)
    skipped, visited = [], []

    def rest_at(total, rest, extreme):
        for q in rest:
            if q:
                total += q * extreme
        return total

    def search(sub, path, alpha, beta):
        """(value, 'exact' | 'upper' | 'lower')."""
        if not isinstance(sub, (list, dict)):
            visited.append(path)
            assert low <= sub <= high
            return sub, "exact"
        kids, probs = children(sub)
        player = players[path]
        if player == "chance":
            probs = probs or [1 / len(kids)] * len(kids)
            seen, exact = 0.0, True
            for i, kid in enumerate(kids):
                p, rest = probs[i], probs[i + 1:]
                lo, hi = -math.inf, math.inf
                if p:
                    lo = (alpha - rest_at(seen, rest, high)) / p
                    hi = (beta - rest_at(seen, rest, low)) / p
                    lo, hi = (lo if lo > low else -math.inf), (hi if hi < high else math.inf)
                v, kind = search(kid, path + (i,), lo, hi)
                most = rest_at(seen + p * v if p else seen, rest, high)
                least = rest_at(seen + p * v if p else seen, rest, low)
                if (kind == "upper" and not most <= alpha) or (kind == "lower" and not least >= beta):
                    v, _ = search(kid, path + (i,), -math.inf, math.inf)
                    most = rest_at(seen + p * v if p else seen, rest, high)
                    least = rest_at(seen + p * v if p else seen, rest, low)
                    kind = "exact"
                seen = seen + p * v if p else seen
                exact = exact and kind == "exact"
                if rest and (most <= alpha or least >= beta):
                    skipped.extend(path + (j,) for j in range(i + 1, len(kids)))
                    return (most, "upper") if most <= alpha else (least, "lower")
            if exact:
                return seen, "exact"
            return seen, "upper" if seen <= alpha else "lower" if seen >= beta else "exact"
        a0, b0 = alpha, beta
        v = -math.inf if player == "max" else math.inf
        for i, kid in enumerate(kids):
            cv, _ = search(kid, path + (i,), alpha, beta)
            if player == "max":
                v = max(v, cv)
                cut = v >= beta
                alpha = alpha if cut else max(alpha, v)
            else:
                v = min(v, cv)
                cut = v <= alpha
                beta = beta if cut else min(beta, v)
            if cut:
                skipped.extend(path + (j,) for j in range(i + 1, len(kids)))
                break
        return v, "upper" if v <= a0 else "lower" if v >= b0 else "exact"

    value, _ = search(spec, (), -math.inf, math.inf)
    return value, skipped, visited


def reference_child_steps(spec, root_player="max", alpha=-math.inf, beta=math.inf):
    """Alpha-beta (textbook rule) on nested lists, logged child by child: ``{child path: (the parent's value
    so far when it reaches the child, or None for a first child, the parent's (alpha, beta) then)}`` for
    every child the search reaches."""
    players = players_of(spec, root_player)
    steps = {}

    def search(sub, path, alpha, beta):
        if not isinstance(sub, list):
            return sub
        is_max = players[path] == "max"
        v = None
        for i, kid in enumerate(sub):
            steps[path + (i,)] = (v, (alpha, beta))
            got = search(kid, path + (i,), alpha, beta)
            v = got if v is None else (max if is_max else min)(v, got)
            if (is_max and v >= beta) or (not is_max and v <= alpha):
                break
            if is_max:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
        return v

    search(spec, (), alpha, beta)
    return steps
