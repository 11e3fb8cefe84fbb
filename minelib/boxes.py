"""Exact analysis by boxes, compiled with numba: the fast path of ``minelib.analyze``.

The idea of D. Hill's JSMinesweeper probability engine, written anew here. Cells
next to exactly the same numbers form a *box*: they are interchangeable, so a
layout only says how many mines each box holds (a box of s cells holds m mines
in comb(s, m) ways). Boxes linked through numbers form independent
*components*. Each component is enumerated box by box, every number's range
pruning the choices, and tallied by the mines it uses: how many layouts (a
polynomial in mines) and, per box, how many mines in all.

The components then meet the cells next to no number through the total. One
compiled call does everything for almost every position (``_fused``):

- a component whose layouts all use the same k mines (most of them) needs no
  combination at all: a box's mine probability is its tally over its cells
  times the component's layouts, machine integers;
- the others (*varying*) are combined with ``comb(free, t)`` for the t mines
  left to the free cells, scaled to small integers ``r[t]`` (the ratio of
  neighbouring binomials is a ratio of small numbers), so every probability is
  a ratio of machine integers; every product is checked against ``COMBINE_LIMIT``.

Python then makes the layout count (one ``comb``, a product, one exact division)
and the Fractions. Where a bound is passed (a component larger than one limb
holds, a product past the limit, an enumeration past ``MAX_LEAVES``), the
components are counted in limbs of ``LIMB_BITS`` bits (exact at any size) or by
the reference DP (``minelib.frontier``), and combined in Python integers. An
impossible position returns None: the reference explains it.
"""

from __future__ import annotations

from math import comb, perm, prod
from operator import mul

import numpy as np
from numba import njit

from minelib import frontier

UNOPENED_CODE, MINE_CODE = -1, -10
LIMB_BITS = 55  # a limb times comb(8, 4) = 70, plus a limb and a carry, stays below 2**63
COMBINE_LIMIT = 2**62  # the fused combination's products and sums stay below this, or Python takes over
MAX_LEAVES = 200_000  # solutions enumerated per component before the reference DP takes over
DONE, IMPOSSIBLE, IN_PYTHON = 0, 1, 2  # what the fused call did
_JIT: dict = dict(cache=True, nogil=True)


@njit(**_JIT)
def _binomials(n):
    table = np.zeros((n + 1, n + 1), np.int64)
    for a in range(n + 1):
        table[a, 0] = 1
        for b in range(1, a + 1):
            table[a, b] = table[a - 1, b - 1] + table[a - 1, b]
    return table


@njit(**_JIT)
def _structure(values, height, width):
    """Boxes of the unopened cells and the numbers' needs.

    Returns (box of each cell: -1 not unopened, -2 next to no number; box sizes;
    for each number cell: its need and its boxes; ok: False if a number cannot be met).
    """
    n = height * width
    adjacent = np.full((n, 8), -1, np.int64)
    count_adjacent = np.zeros(n, np.int64)
    need = np.zeros(n, np.int64)
    room = np.zeros(n, np.int64)
    ok = True
    for c in range(n):
        y, x = c // width, c % width
        v = values[c]
        flags = 0
        for dy in range(-1, 2):
            for dx in range(-1, 2):
                yy, xx = y + dy, x + dx
                if (dy == 0 and dx == 0) or yy < 0 or yy >= height or xx < 0 or xx >= width:
                    continue
                d = yy * width + xx
                if v == UNOPENED_CODE and values[d] >= 0:
                    adjacent[c, count_adjacent[c]] = d  # in increasing order of d
                    count_adjacent[c] += 1
                if v >= 0:
                    if values[d] == MINE_CODE:
                        flags += 1
                    elif values[d] == UNOPENED_CODE:
                        room[c] += 1
        if v >= 0:
            need[c] = v - flags
            if need[c] < 0 or need[c] > room[c]:
                ok = False
    box_of = np.full(n, -1, np.int64)
    box_size = np.zeros(n, np.int64)
    boxes = 0
    for c in range(n):
        if values[c] != UNOPENED_CODE:
            continue
        if count_adjacent[c] == 0:
            box_of[c] = -2
            continue
        y, x = c // width, c % width
        found = -1
        # a cell of the same box shares a number, so it lies within two rows and columns
        for yy in range(max(0, y - 2), y + 1):
            for xx in range(max(0, x - 2), min(width, x + 3)):
                d = yy * width + xx
                if d >= c:
                    break
                if box_of[d] >= 0 and count_adjacent[d] == count_adjacent[c]:
                    same = True
                    for k in range(count_adjacent[c]):
                        if adjacent[d, k] != adjacent[c, k]:
                            same = False
                            break
                    if same:
                        found = box_of[d]
                        break
            if found >= 0:
                break
        if found < 0:
            found = boxes
            boxes += 1
        box_of[c] = found
        box_size[found] += 1
    # each number's boxes (at most 8)
    number_boxes = np.full((n, 8), -1, np.int64)
    count_boxes = np.zeros(n, np.int64)
    for c in range(n):
        if values[c] < 0:
            continue
        y, x = c // width, c % width
        for dy in range(-1, 2):
            for dx in range(-1, 2):
                yy, xx = y + dy, x + dx
                if yy < 0 or yy >= height or xx < 0 or xx >= width:
                    continue
                b = box_of[yy * width + xx]
                if b >= 0:
                    seen = False
                    for k in range(count_boxes[c]):
                        if number_boxes[c, k] == b:
                            seen = True
                    if not seen:
                        number_boxes[c, count_boxes[c]] = b
                        count_boxes[c] += 1
    # and each box's numbers (at most 8), each number's capacity (the cells of its boxes)
    box_numbers = np.full((boxes, 8), -1, np.int64)
    count_numbers = np.zeros(boxes, np.int64)
    capacity = np.zeros(n, np.int64)
    for c in range(n):
        for k in range(count_boxes[c]):
            b = number_boxes[c, k]
            box_numbers[b, count_numbers[b]] = c
            count_numbers[b] += 1
            capacity[c] += box_size[b]
    return box_of, box_size[:boxes], need, number_boxes, count_boxes, box_numbers, count_numbers, capacity, ok


@njit(**_JIT)
def _components(boxes, number_boxes, count_boxes):
    """The component of every box (boxes linked through a number), numbered from 0."""
    parent = np.arange(boxes)
    for c in range(len(count_boxes)):
        for k in range(1, count_boxes[c]):
            a, b = number_boxes[c, 0], number_boxes[c, k]
            while parent[a] != a:
                a = parent[a]
            while parent[b] != b:
                b = parent[b]
            if a != b:
                parent[max(a, b)] = min(a, b)
    label = np.full(boxes, -1, np.int64)
    components = 0
    for b in range(boxes):
        root = b
        while parent[root] != root:
            root = parent[root]
        if label[root] < 0:
            label[root] = components
            components += 1
        label[b] = label[root]
    return label, components


@njit(**_JIT)
def _order(label, components, box_numbers, count_numbers, count_boxes):
    """The boxes by component, each component in an order its enumeration prunes well; where each
    component starts.

    Greedy: next comes the box of the number with the fewest boxes still to place (it closes
    soonest, and a closed number's range cuts the search), then the box touching the most numbers
    already open, then the lowest box. On the benchmark's expert positions this visits less than
    half the nodes of plain board order, and a sixth on the worst.
    """
    boxes = len(label)
    starts = np.zeros(components + 1, np.int64)
    for c in label:
        starts[c + 1] += 1
    for c in range(components):
        starts[c + 1] += starts[c]
    by_component = np.empty(boxes, np.int64)
    filled = starts[:-1].copy()
    for b in range(boxes):
        by_component[filled[label[b]]] = b
        filled[label[b]] += 1
    unplaced = count_boxes.copy()  # per number: its boxes not yet placed
    for c in range(components):
        for at in range(starts[c], starts[c + 1]):
            best, best_closing, best_open = -1, 1 << 30, -1
            for q in range(at, starts[c + 1]):
                b = by_component[q]
                closing, opened = 1 << 30, 0
                for t in range(count_numbers[b]):
                    r = box_numbers[b, t]
                    closing = min(closing, unplaced[r])
                    if unplaced[r] < count_boxes[r]:
                        opened += 1
                if (closing, -opened, b) < (best_closing, -best_open, by_component[best] if best >= 0 else boxes):
                    best, best_closing, best_open = q, closing, opened
            b = by_component[best]
            by_component[best], by_component[at] = by_component[at], b
            for t in range(count_numbers[b]):
                unplaced[box_numbers[b, t]] -= 1
    return by_component, starts


@njit(**_JIT)
def _prepare(values, height, width):
    """Boxes, numbers and components of a position (see ``_structure``), the boxes ordered by component."""
    box_of, box_size, need, number_boxes, count_boxes, box_numbers, count_numbers, capacity, ok = _structure(
        values, height, width
    )
    label, components = _components(len(box_size), number_boxes, count_boxes)
    by_component, starts = _order(label, components, box_numbers, count_numbers, count_boxes)
    return (
        box_of,
        box_size,
        need,
        number_boxes,
        count_boxes,
        box_numbers,
        count_numbers,
        capacity,
        ok,
        label,
        by_component,
        starts,
    )


@njit(**_JIT)
def _enumerate(order, box_size, box_numbers, count_numbers, need, capacity, binomial, max_leaves, limbs, bits):
    """Every assignment of mines to the boxes ``order`` of one component that meets its numbers.

    Returns (layouts by mines used; each box's mines by mines used, weighted; leaves, or -1 if the
    budget ran out). Numbers are little-endian limbs of ``bits`` bits: the last axis, ``limbs`` long.
    ``capacity[r]``: cells of number r's boxes not yet assigned (restored when it returns a count).
    """
    m = len(order)
    cells = 0
    for b in order:
        cells += box_size[b]
    mask = (1 << bits) - 1
    poly = np.zeros((cells + 1, limbs), np.int64)
    tally = np.zeros((m, cells + 1, limbs), np.int64)
    taken = np.zeros(len(need), np.int64)
    cur = np.zeros(m, np.int64)
    top = np.zeros(m, np.int64)
    weight = np.zeros((m + 1, limbs), np.int64)
    weight[0, 0] = 1
    used = np.zeros(m + 1, np.int64)
    leaves = 0
    p = 0
    entering = True
    while True:
        if entering:
            if p == m:
                leaves += 1
                if leaves > max_leaves:  # (this component's capacities are left as they stand)
                    return poly, tally, -1
                k = used[m]
                carry = 0
                for i in range(limbs):
                    x = poly[k, i] + weight[m, i] + carry
                    poly[k, i], carry = x & mask, x >> bits
                for q in range(m):
                    if cur[q]:
                        carry = 0
                        for i in range(limbs):
                            x = tally[q, k, i] + weight[m, i] * cur[q] + carry
                            tally[q, k, i], carry = x & mask, x >> bits
                p -= 1
                entering = False
                if p < 0:
                    break
                continue
            b = order[p]
            s = box_size[b]
            lo, hi = 0, s
            for t in range(count_numbers[b]):
                r = box_numbers[b, t]
                hi = min(hi, need[r] - taken[r])
                lo = max(lo, need[r] - taken[r] - (capacity[r] - s))
            if lo > hi:
                p -= 1
                entering = False
                if p < 0:
                    break
                continue
            cur[p], top[p] = lo, hi
        else:  # take back this box's choice, then try its next one
            b = order[p]
            s = box_size[b]
            for t in range(count_numbers[b]):
                r = box_numbers[b, t]
                taken[r] -= cur[p]
                capacity[r] += s
            if cur[p] == top[p]:
                p -= 1
                if p < 0:
                    break
                continue
            cur[p] += 1
        for t in range(count_numbers[b]):
            r = box_numbers[b, t]
            taken[r] += cur[p]
            capacity[r] -= s
        ways = binomial[s, cur[p]]
        carry = 0
        for i in range(limbs):
            x = weight[p, i] * ways + carry
            weight[p + 1, i], carry = x & mask, x >> bits
        used[p + 1] = used[p] + cur[p]
        p += 1
        entering = True
    return poly, tally, leaves


@njit(**_JIT)
def _mul(a, b, limit):
    """a * b for a, b >= 0, or -1 past ``limit`` (judged in floating point, far from the edge)."""
    if a < 0 or b < 0 or float(a) * float(b) > limit:
        return -1
    return a * b


@njit(**_JIT)
def _add(a, b, limit):
    """a + b for 0 <= a, b <= limit (no wrap below 2**63), or -1 past ``limit``."""
    if a < 0 or b < 0 or a + b > limit:
        return -1
    return a + b


@njit(**_JIT)
def _reduced(numerator, denominator):
    """The fraction in lowest terms (both >= 0, the denominator > 0)."""
    a, b = numerator, denominator
    while b:
        a, b = b, a % b
    return numerator // a, denominator // a


@njit(**_JIT)
def _convolve(left, right, limit):
    """The product of two polynomials (coefficient arrays), or an empty array past ``limit``."""
    out = np.zeros(len(left) + len(right) - 1, np.int64)
    for i in range(len(left)):
        if left[i] == 0:
            continue
        for j in range(len(right)):
            if right[j] == 0:
                continue
            out[i + j] = _add(out[i + j], _mul(left[i], right[j], limit), limit)
            if out[i + j] < 0:
                return out[:0]
    return out


@njit(**_JIT)
def _fused(values, height, width, left, max_leaves, bits, limit):
    """The whole analysis in machine integers, when every bound holds.

    Returns (status, groups, numerators, denominators, ways, s, ta, tb, free). ``groups``: each
    cell's group (its box; ``boxes`` for the cells next to no number; -1 opened, -2 a flag); a
    group's mine probability is ``numerators[g] / denominators[g]`` in lowest terms. The layout
    count is ``prod(ways) * s * comb(free, ta) // perm(tb, tb - ta)``: ``ways`` are the layouts
    of each component of fixed mine count, ``s`` the varying components with the free cells
    through ``r[t] = comb(free, t) * (free - ta)! * tb! / free!``, small integers for t in ta..tb.
    ``status``: DONE, IMPOSSIBLE (no layout), or IN_PYTHON (a bound passed: nothing else is valid).
    """
    (box_of, box_size, need, _, _, box_numbers, count_numbers, capacity, ok, _, by_component, starts) = _prepare(
        values, height, width
    )
    n = height * width
    boxes = len(box_size)
    components = len(starts) - 1
    groups = np.empty(n, np.int64)
    numerators = np.zeros(boxes + 1, np.int64)
    denominators = np.ones(boxes + 1, np.int64)
    ways = np.ones(components, np.int64)
    nothing = (groups, numerators, denominators, ways, 0, 0, 0, 0)
    if not ok:
        return (IMPOSSIBLE,) + nothing
    free = 0
    for c in range(n):
        b = box_of[c]
        if b >= 0:
            groups[c] = b
        elif b == -2:
            groups[c] = boxes
            free += 1
        else:
            groups[c] = -2 if values[c] == MINE_CODE else -1
    binomial = _binomials(8)
    widest = 1
    for c in range(components):
        cells = 0
        for b in by_component[starts[c] : starts[c + 1]]:
            cells += box_size[b]
        if cells + 3 > bits:  # its tallies (at most 8 * 2**cells) need more than one limb
            return (IN_PYTHON,) + nothing
        widest = max(widest, cells + 1)
    polys = np.zeros((components, widest), np.int64)  # the varying components' polynomials
    tallies = np.zeros((boxes, widest), np.int64)  # their boxes' tallies by mines used
    varying = np.zeros(components, np.bool_)
    fixed_mines = 0
    for c in range(components):
        order = by_component[starts[c] : starts[c + 1]]
        poly, tally, leaves = _enumerate(
            order, box_size, box_numbers, count_numbers, need, capacity, binomial, max_leaves, 1, bits
        )
        if leaves < 0:
            return (IN_PYTHON,) + nothing
        terms, k = 0, -1
        for j in range(len(poly)):
            if poly[j, 0]:
                terms += 1
                k = j
        if terms == 0:
            return (IMPOSSIBLE,) + nothing
        if terms == 1:  # one mine count: the probabilities need nothing outside the component
            ways[c] = poly[k, 0]
            fixed_mines += k
            for q in range(len(order)):
                b = order[q]
                numerators[b], denominators[b] = _reduced(tally[q, k, 0], box_size[b] * poly[k, 0])
        else:
            varying[c] = True
            polys[c, : len(poly)] = poly[:, 0]
            for q in range(len(order)):
                tallies[order[q], : len(poly)] = tally[q, :, 0]
    rest = left - fixed_mines  # mines for the varying components and the free cells
    product = np.ones(1, np.int64)
    for c in range(components):
        if varying[c]:
            product = _convolve(product, polys[c], limit)
            if len(product) == 0:
                return (IN_PYTHON,) + nothing
    low, high = len(product), -1
    for k in range(len(product)):
        if product[k]:
            low, high = min(low, k), k
    ta, tb = max(0, rest - high), min(free, rest - low)
    if ta > tb:
        return (IMPOSSIBLE,) + nothing
    r = np.ones(tb - ta + 1, np.int64)  # r[t - ta] = (free - ta)! / (free - t)! * tb! / t!
    for t in range(ta, tb + 1):
        for f in range(free - t + 1, free - ta + 1):
            r[t - ta] = _mul(r[t - ta], f, limit)
        for f in range(t + 1, tb + 1):
            r[t - ta] = _mul(r[t - ta], f, limit)
        if r[t - ta] < 0:
            return (IN_PYTHON,) + nothing
    s, spread = 0, 0  # spread: the mines the free cells hold, summed over layouts (scaled)
    for t in range(ta, tb + 1):
        term = _mul(product[rest - t], r[t - ta], limit)
        s = _add(s, term, limit)
        spread = _add(spread, _mul(term, t, limit), limit)
    if s < 0 or spread < 0:
        return (IN_PYTHON,) + nothing
    if s == 0:
        return (IMPOSSIBLE,) + nothing
    if free:
        scale = _mul(free, s, limit)
        if scale < 0:
            return (IN_PYTHON,) + nothing
        numerators[boxes], denominators[boxes] = _reduced(spread, scale)
    for c in range(components):
        if not varying[c]:
            continue
        others = np.ones(1, np.int64)
        for d in range(components):
            if varying[d] and d != c:
                others = _convolve(others, polys[d], limit)
                if len(others) == 0:
                    return (IN_PYTHON,) + nothing
        outside = np.zeros(widest, np.int64)  # by the component's mines k: the ways of the rest
        for k in range(widest):
            if polys[c, k] == 0:
                continue
            for t in range(ta, tb + 1):
                j = rest - k - t
                if 0 <= j < len(others):
                    outside[k] = _add(outside[k], _mul(others[j], r[t - ta], limit), limit)
            if outside[k] < 0:
                return (IN_PYTHON,) + nothing
        for b in by_component[starts[c] : starts[c + 1]]:
            mines = 0
            for k in range(widest):
                mines = _add(mines, _mul(tallies[b, k], outside[k], limit), limit)
            scale = _mul(box_size[b], s, limit)
            if mines < 0 or scale < 0:
                return (IN_PYTHON,) + nothing
            numerators[b], denominators[b] = _reduced(mines, scale)
    return DONE, groups, numerators, denominators, ways, s, ta, tb, free


def analyze_boxes(values: np.ndarray, mines: int):
    """The exact layout count and every group's mine probability, or None.

    ``values``: the board's values. Returns (count, groups, numerators, denominators): ``groups``
    gives each cell (row by row) its group, -1 if opened and -2 if flagged; the groups are the
    boxes, then the cells next to no number; group g's mine probability is
    ``numerators[g] / denominators[g]`` (Python ints). None when no layout fits: the reference
    then says why.
    """
    height, width = values.shape
    flat = np.ascontiguousarray(values).ravel()
    left = mines - int(np.count_nonzero(flat == MINE_CODE))
    status, groups, numerators, denominators, ways, s, ta, tb, free = _fused(
        flat, height, width, left, MAX_LEAVES, LIMB_BITS, COMBINE_LIMIT
    )
    if status == DONE:
        count = prod(ways.tolist()) * s * comb(free, ta) // perm(tb, tb - ta)
        return count, groups, numerators.tolist(), denominators.tolist()
    if status == IMPOSSIBLE:
        return None
    return _in_python(flat, height, width, left)


def _in_python(flat: np.ndarray, height: int, width: int, left: int):
    """``analyze_boxes`` past the fused call's bounds: components in limbs (or by the reference DP),
    combined in Python integers."""
    (
        box_of,
        box_size,
        need,
        number_boxes,
        count_boxes,
        box_numbers,
        count_numbers,
        capacity,
        ok,
        label,
        by_component,
        starts,
    ) = _prepare(flat, height, width)
    if not ok:
        return None
    binomial = _binomials(8)
    numbers = np.flatnonzero(count_boxes)
    members = [by_component[starts[c] : starts[c + 1]] for c in range(len(starts) - 1)]
    polys: list[dict[int, int]] = []
    weights: list = []  # per component: (its mine counts, its boxes' tallies by them), or its ComponentDP
    for order in members:
        cells = int(box_size[order].sum())
        limbs = -(-(cells + 3) // LIMB_BITS)
        poly, tally, leaves = _enumerate(
            order, box_size, box_numbers, count_numbers, need, capacity, binomial, MAX_LEAVES, limbs, LIMB_BITS
        )
        if leaves >= 0:  # the mine counts the component can use, and only those, as Python ints
            support = np.flatnonzero(poly.any(axis=1))
            polys.append(dict(zip(support.tolist(), _from_limbs(poly[support]))))
            flat_tally = _from_limbs(tally[:, support].reshape(-1, limbs))
            width = len(support)
            weights.append((support.tolist(), [flat_tally[i : i + width] for i in range(0, len(flat_tally), width)]))
        else:  # too many solutions to list: the DP of minelib.frontier
            dp = _component_dp(order, box_size, need, number_boxes, count_boxes, numbers, label)
            polys.append(dp.polynomial())
            weights.append(dp)
        if not polys[-1]:
            return None
    free = np.flatnonzero(box_of == -2)
    count, everything, outsides = _combine(polys, len(free), left)
    if count == 0:
        return None
    per_box = _box_weights(members, weights, outsides, box_size.tolist())
    groups = box_of.copy()
    groups[flat == MINE_CODE] = -2
    if len(free):
        groups[free] = len(box_size)
        # a free cell holds a mine in t / free of the layouts putting t mines on the free cells
        spread = sum(ways * (left - k) * frontier.choose(len(free), left - k) for k, ways in everything.items())
        per_box.append(spread // len(free))
    return count, groups, per_box, [count] * len(per_box)


def _from_limbs(limbs: np.ndarray) -> list[int]:
    """The Python ints of a 2-d array whose rows hold little-endian limbs of ``LIMB_BITS`` bits."""
    columns = limbs.T.tolist()
    values = columns[-1]
    for column in reversed(columns[:-1]):
        values = [(value << LIMB_BITS) | limb for value, limb in zip(values, column)]
    return values


def _box_weights(members, weights, outsides, sizes: list[int]) -> list[int]:
    """For every box: the layouts with a mine on one of its cells (its weighted mines, shared by its cells).

    ``weights``: per component, its ComponentDP, or (the mine counts it can use, each box's tallies by them).
    """
    per_box = [0] * len(sizes)
    for order, component_weights, outside in zip(members, weights, outsides):
        if isinstance(component_weights, frontier.ComponentDP):
            rows = component_weights.group_weights(outside)[1]
        else:
            support, tallies = component_weights
            factors = [outside[k] for k in support]
            rows = [sum(map(mul, row, factors)) for row in tallies]
        for b, in_box in zip(order.tolist(), rows):
            per_box[b] = in_box // sizes[b]
    return per_box


def _component_dp(order, box_size, need, number_boxes, count_boxes, numbers, label) -> frontier.ComponentDP:
    """The component of the boxes ``order`` as groups for ``frontier.ComponentDP``: box sizes, and each
    number's boxes (by position in ``order``) and need."""
    position = {int(b): q for q, b in enumerate(order)}
    component = label[order[0]]
    rows, targets = [], []
    for r in numbers:
        if label[number_boxes[r, 0]] == component:
            rows.append(tuple(position[int(b)] for b in number_boxes[r, : count_boxes[r]]))
            targets.append(int(need[r]))
    return frontier.ComponentDP(tuple(int(box_size[b]) for b in order), tuple(rows), tuple(targets))


def _combine(polys: list[dict[int, int]], free: int, left: int):
    """The layout count, the polynomial of all components, and for each component using k mines the
    ways to place the others and the ``left - k`` mines elsewhere (``free`` cells next to no number).

    A component whose layouts all use the same k mines (most of them) needs no product: its outside
    weight is the count divided by its own. The others go through prefix and suffix products.
    """
    fixed_ways, fixed_mines = 1, 0
    varying = []
    for c, poly in enumerate(polys):
        if len(poly) == 1:
            ((k, ways),) = poly.items()
            fixed_ways, fixed_mines = fixed_ways * ways, fixed_mines + k
        else:
            varying.append(c)
    base = {fixed_mines: fixed_ways}
    prefix, suffix = [base], [{0: 1}]
    for c in varying[:-1]:
        prefix.append(frontier.multiply([prefix[-1], polys[c]]))
    for c in reversed(varying[1:]):
        suffix.append(frontier.multiply([suffix[-1], polys[c]]))
    everything = frontier.multiply([prefix[-1], polys[varying[-1]]]) if varying else base
    choose_free = _binomial_column(free, left - max(everything), left - min(everything))
    count = sum(ways * choose_free.get(left - k, 0) for k, ways in everything.items())
    outsides: list[dict[int, int]] = []
    for c, poly in enumerate(polys):
        if len(poly) == 1:
            ((k, ways),) = poly.items()
            outsides.append({k: count // ways})
            continue
        at = varying.index(c)
        others = frontier.multiply([prefix[at], suffix[len(varying) - 1 - at]])
        outsides.append({k: sum(ways * choose_free.get(left - k - j, 0) for j, ways in others.items()) for k in poly})
    return count, everything, outsides


def _binomial_column(n: int, low: int, high: int) -> dict[int, int]:
    """comb(n, t) for t from low to high (clipped to 0..n): one ``comb``, then a product and an exact
    division a step."""
    low, high = max(low, 0), min(high, n)
    if low > high:
        return {}
    column = {low: comb(n, low)}
    for t in range(low, high):
        column[t + 1] = column[t] * (n - t) // (t + 1)
    return column


__all__ = ["COMBINE_LIMIT", "LIMB_BITS", "MAX_LEAVES", "analyze_boxes"]
