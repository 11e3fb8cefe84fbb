"""Exact analysis by boxes, compiled with numba: the fast path of ``minelib.analyze``.

The idea of D. Hill's JSMinesweeper probability engine, written anew here. Cells
next to exactly the same numbers form a *box*: they are interchangeable, so a
layout only says how many mines each box holds (a box of s cells holds m mines
in comb(s, m) ways). Boxes linked through numbers form independent
*components*. Each component is enumerated box by box, every number's range
pruning the choices, and tallied by the mines it uses: how many layouts (a
polynomial in mines) and, per box, how many mines in all.

The components then meet the cells next to no number through the total. One
compiled call does everything for almost every position (``_full``):

- a component whose layouts all use the same k mines (most of them) needs no
  combination at all: a box's mine probability is its tally over its cells
  times the component's layouts, machine integers;
- the others (*varying*) are combined with ``comb(free, t)`` for the t mines
  left to the free cells, scaled to small integers ``r[t]`` (the ratio of
  neighbouring binomials is a ratio of small numbers), so every probability is
  a ratio of machine integers; every product is checked against ``COMBINE_LIMIT``.

Python then makes the layout count (one ``comb``, a product, one exact division)
and the Fractions. Where a product passes the limit, the varying components as
counted are combined with the free cells in Python integers (the parts are kept:
a later count starts from them as from any other). Where a count's bound is passed (a component whose counts
pass one limb, an enumeration past ``MAX_LEAVES``), the components are counted
again in limbs of ``LIMB_BITS`` bits (exact at any size) or by the reference DP
(``minelib.frontier``), and combined in Python integers. An impossible position
returns None: the reference explains it.

The compiled code stays in this one module, longer than our others, as in ``minelib.kernel``: its
functions call each other and share the layout of their arrays, and numba's cache checks only
the file of the function it caches (``minelib.compiled`` makes up for that across modules).
"""

from __future__ import annotations

from functools import lru_cache
from math import comb, perm, prod
from operator import mul
from typing import NamedTuple

import numpy as np
from numba import njit

from minelib import frontier
from minelib.board import BoardSize

UNOPENED_CODE, MINE_CODE = -1, -10
LIMB_BITS = 55  # a limb times comb(8, 4) = 70, plus a limb and a carry, stays below 2**63
COMBINE_LIMIT = 2**62  # the fused combination's products and sums stay below this, or Python takes over
MAX_LEAVES = 200_000  # solutions enumerated per component before the reference DP takes over
EXACT_BELOW = 2**53  # an outlook's ratios are ranked in the compiled call when their integers are below this
DONE, IMPOSSIBLE, IN_PYTHON = 0, 1, 2  # what the fused call did (IN_PYTHON: a count's bound passed)
COMBINE_IN_PYTHON = 3  # every component counted, the combination past COMBINE_LIMIT: Python combines the parts
_NONE, _ONE = np.int64(-1), np.int64(1)  # -1 and 1 as typed arguments: a literal has numba compile a callee again
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
def _box_key(c, local, height, width):
    """Which of the numbers in ``local`` cell c touches, as one integer: the first of them, and where
    the others lie relative to it (a 3 x 5 window, 15 bits). Cells of one box share a key."""
    y, x = c // width, c % width
    first, first_y, first_x, mask = -1, 0, 0, 0
    for yy in range(max(0, y - 1), min(height, y + 2)):
        for xx in range(max(0, x - 1), min(width, x + 2)):
            d = yy * width + xx
            if not local[d]:
                continue
            if first < 0:
                first, first_y, first_x = d, yy, xx
            mask |= 1 << ((yy - first_y) * 5 + (xx - first_x + 2))
    return first * 32768 + mask


@njit(**_JIT)
def _structure(values, height, width, numbers):
    """Boxes of the unopened cells next to ``numbers`` (opened cells' ids, ascending), and the numbers' needs.

    Returns (box of each cell, -1 if none; the frontier cells, ascending; box sizes; for each number
    cell: its need and its boxes; each box's numbers; each number's capacity (the cells of its boxes);
    ok: False if a number cannot be met). Arrays indexed by number are indexed by cell id.
    """
    n = height * width
    local = np.zeros(n, np.bool_)
    for r in numbers:
        local[r] = True
    need = np.zeros(n, np.int64)
    key = np.full(n, -1, np.int64)
    edge = np.empty(n, np.int64)  # the unopened cells next to a number
    found = 0
    ok = True
    live = np.empty(len(numbers), np.int64)  # the numbers with an unopened neighbour: the only ones with boxes
    n_live = 0
    for r in numbers:
        y, x = r // width, r % width
        flags, room = 0, 0
        for yy in range(max(0, y - 1), min(height, y + 2)):
            for xx in range(max(0, x - 1), min(width, x + 2)):
                d = yy * width + xx
                if values[d] == MINE_CODE:
                    flags += 1
                elif values[d] == UNOPENED_CODE:
                    room += 1
                    if key[d] < 0:
                        key[d] = _box_key(d, local, height, width)
                        edge[found] = d
                        found += 1
        need[r] = values[r] - flags
        if need[r] < 0 or need[r] > room:
            ok = False
        if room:
            live[n_live] = r
            n_live += 1
    edge = np.sort(edge[:found])
    box_of = np.full(n, -1, np.int64)
    box_size = np.zeros(found, np.int64)
    boxes = 0
    for c in edge:
        y, x = c // width, c % width
        b = -1
        # a cell of the same box shares a number, so it lies within two rows and columns
        for yy in range(max(0, y - 2), y + 1):
            for xx in range(max(0, x - 2), min(width, x + 3)):
                d = yy * width + xx
                if d >= c:
                    break
                if key[d] == key[c] and box_of[d] >= 0:
                    b = box_of[d]
                    break
            if b >= 0:
                break
        if b < 0:
            b = boxes
            boxes += 1
        box_of[c] = b
        box_size[b] += 1
    # each number's boxes (at most 8): read only below count_boxes, so not filled (a fill of 8 a cell is a tenth here)
    number_boxes = np.empty((n, 8), np.int64)
    count_boxes = np.zeros(n, np.int64)
    box_numbers = np.full((boxes, 8), -1, np.int64)  # each box's numbers (at most 8)
    count_numbers = np.zeros(boxes, np.int64)
    capacity = np.zeros(n, np.int64)
    for r in live[:n_live]:  # (most of a big board's numbers have none: a fifth of the time here)
        y, x = r // width, r % width
        for yy in range(max(0, y - 1), min(height, y + 2)):
            for xx in range(max(0, x - 1), min(width, x + 2)):
                b = box_of[yy * width + xx]
                if b < 0:
                    continue
                seen = False
                for k in range(count_boxes[r]):
                    if number_boxes[r, k] == b:
                        seen = True
                if not seen:
                    number_boxes[r, count_boxes[r]] = b
                    count_boxes[r] += 1
                    box_numbers[b, count_numbers[b]] = r
                    count_numbers[b] += 1
                    capacity[r] += box_size[b]
    return box_of, edge, box_size[:boxes], need, number_boxes, count_boxes, box_numbers, count_numbers, capacity, ok


@njit(**_JIT)
def _numbers(values):
    """The opened cells with a number (all of them: one without unopened neighbours is simply met)."""
    return np.flatnonzero(values >= 0)


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

    Greedy: next comes the box touching the most numbers already open (some of their boxes placed),
    then the box of the number with the fewest boxes still to place (it closes soonest, and a
    closed number's range cuts the search), then the lowest box. On the benchmark's expert
    positions this visits 41% of the nodes of plain board order (20,610 against 50,431); the
    most any one position needs: 4,798 against 23,220.
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
                if (-opened, closing, b) < (-best_open, best_closing, by_component[best] if best >= 0 else boxes):
                    best, best_closing, best_open = q, closing, opened
            b = by_component[best]
            by_component[best], by_component[at] = by_component[at], b
            for t in range(count_numbers[b]):
                unplaced[box_numbers[b, t]] -= 1
    return by_component, starts


@njit(**_JIT)
def _prepare(values, height, width):
    """The structure of a whole position (see ``_structure``), its boxes ordered by component."""
    box_of, _, box_size, need, number_boxes, count_boxes, box_numbers, count_numbers, capacity, ok = _structure(
        values, height, width, _numbers(values)
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
def _enumerate(
    order, box_size, box_numbers, count_numbers, need, capacity, binomial, max_leaves, limbs, bits, wild, kinds
):
    """Every assignment of mines to the boxes ``order`` of one component that meets its numbers.

    Returns (layouts by mines used; each box's mines by mines used, weighted; leaves, or -1 if the
    budget ran out). Numbers are little-endian limbs of ``bits`` bits: the last axis, ``limbs`` long.
    ``capacity[r]``: cells of number r's boxes not yet assigned (restored when it returns a count).
    With ``wild`` a number cell (else -1), that number's need is not enforced: every assignment of
    the others is counted, by the mines it puts in the wild number's boxes (the first axis of both
    answers, ``kinds`` long; it is 1 long without a wild number), so one enumeration answers every
    number the wild cell may show.
    """
    m = len(order)
    cells = 0
    for b in order:
        cells += box_size[b]
    mask = (1 << bits) - 1
    all_poly = np.zeros((kinds, cells + 1, limbs), np.int64)
    all_tally = np.zeros((kinds, m, cells + 1, limbs), np.int64)
    poly, tally = all_poly[0], all_tally[0]  # (without a wild number, the only ones)
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
                    return all_poly, all_tally, -1
                if wild >= 0:  # the answers of the count of mines this leaf puts around the wild number
                    poly, tally = all_poly[taken[wild]], all_tally[taken[wild]]
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
                if r == wild:
                    continue
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
    return all_poly, all_tally, leaves


@njit(**_JIT)
def _enumerate_every(box_size, need, box_numbers, count_numbers, capacity, by_component, starts, max_leaves, bits):
    """``_enumerate`` for every component, each in as many limbs as it needs, keeping only the mine
    counts a component can use (its *support*): for the Python path, in one call.

    Returns (leaves per component, -1 past the budget; support starts (CSR) and mine counts; the
    layouts at each; each box's tallies at each, box by box in component order, starting at
    ``tally_start[c]``). Values are rows of little-endian limbs, as many as the widest needs.
    """
    components = len(starts) - 1
    binomial = _binomials(8)
    widest, support_rows, tally_rows = 1, 0, 0
    for c in range(components):
        cells = 0
        for b in by_component[starts[c] : starts[c + 1]]:
            cells += box_size[b]
        widest = max(widest, (cells + 3 + bits - 1) // bits)
        support_rows += cells + 1
        tally_rows += (starts[c + 1] - starts[c]) * (cells + 1)
    leaves = np.full(components, -1, np.int64)
    support_start = np.zeros(components + 1, np.int64)
    support = np.empty(support_rows, np.int64)
    poly_values = np.zeros((support_rows, widest), np.int64)
    tally_start = np.zeros(components + 1, np.int64)
    tally_values = np.zeros((tally_rows, widest), np.int64)
    at, row = 0, 0
    for c in range(components):
        order = by_component[starts[c] : starts[c + 1]]
        cells = 0
        for b in order:
            cells += box_size[b]
        limbs = (cells + 3 + bits - 1) // bits
        polys, tallies, found = _enumerate(
            order, box_size, box_numbers, count_numbers, need, capacity, binomial, max_leaves, limbs, bits, _NONE, _ONE
        )
        poly, tally = polys[0], tallies[0]
        leaves[c] = found
        first = at
        if found >= 0:
            for k in range(cells + 1):
                if poly[k].any():
                    support[at] = k
                    poly_values[at, :limbs] = poly[k]
                    at += 1
            for q in range(len(order)):
                for j in range(first, at):
                    tally_values[row, :limbs] = tally[q, support[j]]
                    row += 1
        support_start[c + 1] = at
        tally_start[c + 1] = row
    return leaves, support_start, support[:at], poly_values[:at], tally_start, tally_values[:row]


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
def _count(values, height, width, numbers, max_leaves, bits):
    """Structure and enumeration of the components next to ``numbers``.

    Returns (status, parts): ``parts`` = (polynomial of each component, component of
    each box, box sizes, each box's tallies by the component's mines, box cells (CSR: starts, cells),
    component of each number cell or -1). Status IN_PYTHON when a component's counts need more than
    one limb (a component of over ``bits - 3`` cells is counted in as many as it may need, and most
    still fit in one) or pass the leaf budget; IMPOSSIBLE when a number cannot be met.
    """
    status, parts, _, _, _ = _count_kinds(values, height, width, numbers, max_leaves, bits, _NONE, _ONE)
    return status, parts


@njit(**_JIT)
def _count_kinds(values, height, width, numbers, max_leaves, bits, wild, kinds):
    """``_count``, and with ``wild`` one of ``numbers`` (else -1) whose need is left free: its
    component is enumerated once for every count of mines in its boxes (``kinds`` of them: 0, 1, ...),
    the others once for all. Returns (status, parts, polynomials and tallies by kind (first axis),
    the wild number's component or -1); ``parts`` holds the first kind's."""
    box_of, edge, box_size, need, number_boxes, count_boxes, box_numbers, count_numbers, capacity, ok = _structure(
        values, height, width, numbers
    )
    boxes = len(box_size)
    label, components = _components(boxes, number_boxes, count_boxes)
    cells = np.zeros(components, np.int64)
    for b in range(boxes):
        cells[label[b]] += box_size[b]
    widest = cells.max() + 1 if components else 1
    by_component, starts = _order(label, components, box_numbers, count_numbers, count_boxes)
    polys = np.zeros((kinds, components, widest), np.int64)
    tallies = np.zeros((kinds, boxes, widest), np.int64)
    box_start = np.zeros(boxes + 1, np.int64)
    for c in edge:
        box_start[box_of[c] + 1] += 1
    for b in range(boxes):
        box_start[b + 1] += box_start[b]
    box_cells = edge.copy()  # ascending within each box
    filled = box_start[:-1].copy()
    for c in edge:
        box_cells[filled[box_of[c]]] = c
        filled[box_of[c]] += 1
    number_component = np.full(len(values), -1, np.int64)
    for r in numbers:
        if count_boxes[r]:
            number_component[r] = label[number_boxes[r, 0]]
    parts = (polys[0], label, box_size, tallies[0], box_start, box_cells, number_component)
    wild_component = number_component[wild] if wild >= 0 else -1
    if not ok:
        return IMPOSSIBLE, parts, polys, tallies, wild_component
    binomial = _binomials(8)
    for c in range(components):
        order = by_component[starts[c] : starts[c + 1]]
        free_need = c == wild_component
        limbs = (cells[c] + 3 + bits - 1) // bits  # enough for any count: tallies are at most 8 * 2**cells
        poly, tally, leaves = _enumerate(
            order, box_size, box_numbers, count_numbers, need, capacity, binomial, max_leaves, limbs, bits,
            wild if free_need else -1, kinds if free_need else 1,
        )  # fmt: skip
        if leaves < 0 or (limbs > 1 and (poly[:, :, 1:].any() or tally[:, :, :, 1:].any())):
            return IN_PYTHON, parts, polys, tallies, wild_component  # past the budget, or past one limb
        if not poly.any():
            return IMPOSSIBLE, parts, polys, tallies, wild_component
        width_used = poly.shape[1]
        for kind in range(kinds):
            source = kind if free_need else 0
            polys[kind, c, :width_used] = poly[source, :, 0]
            for q in range(len(order)):
                tallies[kind, order[q], :width_used] = tally[source, q, :, 0]
    return DONE, parts, polys, tallies, wild_component


@njit(**_JIT)
def _combine_parts(polys, label, box_size, tallies, free, left, limit):
    """Every box's mine probability (and the free cells', last) as reduced ratios, and the layout count's
    pieces: (status, numerators, denominators, ways, s, ta, tb); see ``_full``."""
    components, widest = polys.shape
    boxes = len(box_size)
    numerators = np.zeros(boxes + 1, np.int64)
    denominators = np.ones(boxes + 1, np.int64)
    ways = np.ones(components, np.int64)
    varying = np.zeros(components, np.bool_)
    fixed_mines = 0
    for c in range(components):
        terms, k = 0, -1
        for j in range(widest):
            if polys[c, j]:
                terms += 1
                k = j
        if terms == 1:  # one mine count: its boxes need nothing outside the component
            ways[c] = polys[c, k]
            fixed_mines += k
        else:
            varying[c] = True
    for b in range(boxes):
        c = label[b]
        if not varying[c]:
            k = 0
            while polys[c, k] == 0:
                k += 1
            numerators[b], denominators[b] = _reduced(tallies[b, k], box_size[b] * polys[c, k])
    failed = (COMBINE_IN_PYTHON, numerators, denominators, ways, 0, 0, 0)
    rest = left - fixed_mines  # mines for the varying components and the free cells
    product = np.ones(1, np.int64)
    for c in range(components):
        if varying[c]:
            product = _convolve(product, polys[c], limit)
            if len(product) == 0:
                return failed
    low, high = len(product), -1
    for k in range(len(product)):
        if product[k]:
            low, high = min(low, k), k
    ta, tb = max(0, rest - high), min(free, rest - low)
    if ta > tb:
        return (IMPOSSIBLE,) + failed[1:]
    r = np.ones(tb - ta + 1, np.int64)  # r[t - ta] = (free - ta)! / (free - t)! * tb! / t!
    for t in range(ta, tb + 1):
        for f in range(free - t + 1, free - ta + 1):
            r[t - ta] = _mul(r[t - ta], f, limit)
        for f in range(t + 1, tb + 1):
            r[t - ta] = _mul(r[t - ta], f, limit)
        if r[t - ta] < 0:
            return failed
    s, spread = 0, 0  # spread: the mines the free cells hold, summed over layouts (scaled)
    for t in range(ta, tb + 1):
        term = _mul(product[rest - t], r[t - ta], limit)
        s = _add(s, term, limit)
        spread = _add(spread, _mul(term, t, limit), limit)
    if s < 0 or spread < 0:
        return failed
    if s == 0:
        return (IMPOSSIBLE,) + failed[1:]
    if free:
        scale = _mul(free, s, limit)
        if scale < 0:
            return failed
        numerators[boxes], denominators[boxes] = _reduced(spread, scale)
    outside = np.zeros((components, widest), np.int64)  # by a component's mines k: the ways of the rest
    for c in range(components):
        if not varying[c]:
            continue
        others = np.ones(1, np.int64)
        for d in range(components):
            if varying[d] and d != c:
                others = _convolve(others, polys[d], limit)
                if len(others) == 0:
                    return failed
        for k in range(widest):
            if polys[c, k] == 0:
                continue
            for t in range(ta, tb + 1):
                j = rest - k - t
                if 0 <= j < len(others):
                    outside[c, k] = _add(outside[c, k], _mul(others[j], r[t - ta], limit), limit)
            if outside[c, k] < 0:
                return failed
    for b in range(boxes):
        c = label[b]
        if not varying[c]:
            continue
        mines = 0
        for k in range(widest):
            mines = _add(mines, _mul(tallies[b, k], outside[c, k], limit), limit)
        scale = _mul(box_size[b], s, limit)
        if mines < 0 or scale < 0:
            return failed
        numerators[b], denominators[b] = _reduced(mines, scale)
    return DONE, numerators, denominators, ways, s, ta, tb


@njit(**_JIT)
def _finish(values, left, status, parts, limit):
    """The combination and every cell's group, for the parts of a whole position: the answer of
    ``_full`` and ``_update``."""
    polys, label, box_size, tallies, box_start, box_cells, _ = parts
    boxes = len(box_size)
    groups = np.full(len(values), -1, np.int64)  # opened
    unopened = 0
    for c in range(len(values)):
        if values[c] == MINE_CODE:
            groups[c] = -2
        elif values[c] == UNOPENED_CODE:
            groups[c] = boxes  # next to no number, unless a box claims it below
            unopened += 1
    for b in range(boxes):
        for c in box_cells[box_start[b] : box_start[b + 1]]:
            groups[c] = b
    free = unopened - len(box_cells)
    if status != DONE:
        return status, groups, np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), 0, 0, 0, free
    status, numerators, denominators, ways, s, ta, tb = _combine_parts(
        polys, label, box_size, tallies, free, left, limit
    )
    return status, groups, numerators, denominators, ways, s, ta, tb, free


@njit(**_JIT)
def _full(values, height, width, left, max_leaves, bits, limit):
    """The whole analysis in machine integers, when every bound holds.

    Returns (answer, parts): ``answer`` = (status, groups, numerators, denominators, ways, s, ta, tb,
    free). ``groups``: each cell's group (its box; ``boxes`` for the cells next to no number; -1
    opened, -2 a flag); a group's mine probability is ``numerators[g] / denominators[g]`` in lowest
    terms. The layout count is ``prod(ways) * s * comb(free, ta) // perm(tb, tb - ta)``: ``ways``
    are the layouts of each component of fixed mine count (1 for the others), ``s`` the varying
    components with the free cells through ``r[t] = comb(free, t) * (free - ta)! * tb! / free!``,
    small integers for t in ta..tb. ``status``: DONE, IMPOSSIBLE (no layout), IN_PYTHON (a count's
    bound passed: nothing else is valid), or COMBINE_IN_PYTHON (a product past ``limit``: only the
    groups, ``free`` and the parts are valid). ``parts``: see ``_count``; what ``_update`` starts from.
    """
    status, parts = _count(values, height, width, _numbers(values), max_leaves, bits)
    return _finish(values, left, status, parts, limit), parts


@njit(**_JIT)
def _update(values, height, width, left, changed, base, max_leaves, bits, limit):
    """``_full`` for ``values``, knowing the parts of a position that differs from it at ``changed``
    cells: the components within reach of a changed cell are counted again, the others kept."""
    touched, local = _reach(values, height, width, changed, base)
    status, fresh = _count(values, height, width, local, max_leaves, bits)
    if status != DONE:
        return _finish(values, left, status, fresh, limit), fresh
    parts = _merge(base, touched, fresh)
    return _finish(values, left, status, parts, limit), parts


@njit(**_JIT)
def _reach(values, height, width, changed, base):
    """What ``_update`` counts again: the base's components within reach of a changed cell (a box
    or number cell next to one), and the numbers of ``values`` to count (ascending): those next to
    a changed cell or in a touched component."""
    polys, label, box_size, _, box_start, box_cells, number_component = base
    n = len(values)
    cell_box = np.full(n, -1, np.int64)
    for b in range(len(box_size)):
        for c in box_cells[box_start[b] : box_start[b + 1]]:
            cell_box[c] = b
    touched = np.zeros(len(polys), np.bool_)
    near = np.zeros(n, np.bool_)  # numbers next to (or at) a changed cell
    for x in changed:
        y0, x0 = x // width, x % width
        for yy in range(max(0, y0 - 1), min(height, y0 + 2)):
            for xx in range(max(0, x0 - 1), min(width, x0 + 2)):
                z = yy * width + xx
                if cell_box[z] >= 0:
                    touched[label[cell_box[z]]] = True
                if number_component[z] >= 0:
                    touched[number_component[z]] = True
                near[z] = True
    local = np.empty(n, np.int64)
    found = 0
    for z in range(n):
        if values[z] >= 0 and (near[z] or (number_component[z] >= 0 and touched[number_component[z]])):
            local[found] = z
            found += 1
    return touched, local[:found]


@njit(**_JIT)
def _what_if(values, height, width, left, cell, base, max_leaves, bits, limit):
    """``_update`` for ``values`` with ``cell`` opened on each number it may show (the base: ``values``'
    parts). Returns, per number: statuses, groups (rows), how many groups, numerators and
    denominators (rows, padded with 0 / 1), ways (rows, padded with 1), s, ta, tb, free, and the
    parts (a list: what a later count of that position starts from, valid where the status is DONE)."""
    y, x = cell // width, cell % width
    numbers = (min(height, y + 2) - max(0, y - 1)) * (min(width, x + 2) - max(0, x - 1))  # neighbours + 1
    changed = np.array([cell])
    answers = []
    parts_by = []
    widest_groups, widest_ways = 1, 1
    for number in range(numbers):
        trial = values.copy()
        trial[cell] = number
        answer, parts = _update(trial, height, width, left, changed, base, max_leaves, bits, limit)
        answers.append(answer)
        parts_by.append(parts)
        widest_groups = max(widest_groups, len(answer[2]))
        widest_ways = max(widest_ways, len(answer[4]))
    statuses = np.zeros(numbers, np.int64)
    groups = np.zeros((numbers, len(values)), np.int64)
    numerators = np.zeros((numbers, widest_groups), np.int64)
    denominators = np.ones((numbers, widest_groups), np.int64)
    ways = np.ones((numbers, widest_ways), np.int64)
    sizes = np.zeros(numbers, np.int64)
    s = np.zeros(numbers, np.int64)
    ta = np.zeros(numbers, np.int64)
    tb = np.zeros(numbers, np.int64)
    free = np.zeros(numbers, np.int64)
    for number in range(numbers):
        answer = answers[number]
        statuses[number] = answer[0]
        sizes[number] = len(answer[2])
        groups[number] = answer[1]
        numerators[number, : len(answer[2])] = answer[2]
        denominators[number, : len(answer[3])] = answer[3]
        ways[number, : len(answer[4])] = answer[4]
        s[number], ta[number], tb[number], free[number] = answer[5], answer[6], answer[7], answer[8]
    return statuses, groups, sizes, numerators, denominators, ways, s, ta, tb, free, parts_by


@njit(**_JIT)
def _outlook(values, height, width, left, cell, base, max_leaves, bits, limit, k, exact_below):
    """``_what_if`` in brief, for ranking guesses: per number, what the layout count needs, whether
    some unopened cell is certain, and the groups that may hold the ``k`` lowest mine probabilities
    of cells that may be safe. Returns statuses, ways (rows, padded with 1), s, ta, tb, free,
    decides, the picked groups: how many per number, then their numerators, denominators and
    cells (rows); and the ``k`` lowest risks themselves: rows of floats, how many per number, and
    whether they were ranked here.

    The groups are picked in floating point with room to spare (a ratio within 1e-9 of the k-th
    lowest is kept), so the exact k lowest are among them whatever the rounding. Where every picked
    numerator and denominator is below ``exact_below`` (2**53: a float holds them exactly, so the
    quotient is the correctly rounded one Python's ``a / b`` gives), the picks are ranked here,
    exactly as ``lowest_of`` ranks them; elsewhere Python ranks them."""
    y, x = cell // width, cell % width
    numbers = (min(height, y + 2) - max(0, y - 1)) * (min(width, x + 2) - max(0, x - 1))  # neighbours + 1
    flags, room = 0, 0  # around the cell: flags, and unopened cells (the mines its number may count)
    for yy in range(max(0, y - 1), min(height, y + 2)):
        for xx in range(max(0, x - 1), min(width, x + 2)):
            if values[yy * width + xx] == MINE_CODE:
                flags += 1
            elif values[yy * width + xx] == UNOPENED_CODE and yy * width + xx != cell:
                room += 1
    trial = values.copy()
    trial[cell] = flags  # a number (one that needs no mine: its need is left free below)
    touched, local = _reach(trial, height, width, np.array([cell]), base)  # the same whatever the number
    unopened = 0
    for c in range(len(trial)):
        if trial[c] == UNOPENED_CODE:
            unopened += 1
    # one enumeration for every number: the cell's need left free, its component counted by the
    # mines its boxes hold (the number less the flags); past the leaf budget, one number at a time
    every, shared, polys_by, tallies_by, wild = _count_kinds(
        trial, height, width, local, max_leaves, bits, cell, room + 1
    )
    _, fresh_label, fresh_size, _, fresh_start, fresh_cells, fresh_numbers = shared
    statuses = np.zeros(numbers, np.int64)
    s = np.zeros(numbers, np.int64)
    ta = np.zeros(numbers, np.int64)
    tb = np.zeros(numbers, np.int64)
    free = np.zeros(numbers, np.int64)
    decides = np.zeros(numbers, np.bool_)
    picked = np.zeros(numbers, np.int64)
    # rows as wide as any number's answer can be: the base's components and boxes kept, and the fresh
    # ones (the boxes are the same whatever the number), padded with 1 / 0 (a declined number: none)
    most = len(base[2]) + len(fresh_size) + 1
    ways = np.ones((numbers, most), np.int64)
    pick_numerators = np.zeros((numbers, most), np.int64)
    pick_denominators = np.ones((numbers, most), np.int64)
    pick_cells = np.zeros((numbers, most), np.int64)
    widest_ways, widest_picks = 1, 1
    lowest = np.zeros((numbers, max(k, 1)))
    filled = np.zeros(numbers, np.int64)
    ranked = np.zeros(numbers, np.bool_)
    # the base's untouched parts and the fresh ones, merged once: the numbers differ only in the fresh
    # components' polynomials and tallies, the last rows, written in for each number
    fresh = (polys_by[0], fresh_label, fresh_size, tallies_by[0], fresh_start, fresh_cells, fresh_numbers)
    merged = _merge(base, touched, fresh)
    kept_components = len(merged[0]) - polys_by.shape[1]
    kept_boxes = len(merged[2]) - len(fresh_size)
    used = polys_by.shape[2]
    for number in range(numbers):
        mines = number - flags
        if every == DONE:
            if mines < 0 or mines > room or (wild >= 0 and not polys_by[mines, wild].any()) or (wild < 0 and mines):
                status = IMPOSSIBLE
            else:
                status = DONE
                merged[0][kept_components:, :used] = polys_by[mines]
                merged[3][kept_boxes:, :used] = tallies_by[mines]
        elif every == IMPOSSIBLE:
            status = IMPOSSIBLE
        else:
            trial[cell] = number
            status, fresh = _count(trial, height, width, local, max_leaves, bits)
            if status == DONE:
                merged = _merge(base, touched, fresh)
        if status == DONE:
            polys, label, box_size, tallies, _, box_cells, _ = merged
            free[number] = unopened - len(box_cells)
            status, numerators, denominators, number_ways, s[number], ta[number], tb[number] = _combine_parts(
                polys, label, box_size, tallies, free[number], left, limit
            )
        statuses[number] = status
        if status != DONE:
            continue
        ways[number, : len(number_ways)] = number_ways
        widest_ways = max(widest_ways, len(number_ways))
        cells = np.empty(len(box_size) + 1, np.int64)  # each group's cells: the boxes, then the free cells
        cells[:-1] = box_size
        cells[-1] = free[number]
        decides[number], chosen = _pick(numerators, denominators, cells, k)
        picked[number] = len(chosen)
        widest_picks = max(widest_picks, len(chosen))
        for j in range(len(chosen)):
            pick_numerators[number, j] = numerators[chosen[j]]
            pick_denominators[number, j] = denominators[chosen[j]]
            pick_cells[number, j] = cells[chosen[j]]
        ranked[number], filled[number] = _lowest(
            numerators, denominators, cells, chosen, k, exact_below, lowest[number]
        )
    return (
        statuses, ways[:, :widest_ways], s, ta, tb, free, decides, picked,
        pick_numerators[:, :widest_picks], pick_denominators[:, :widest_picks], pick_cells[:, :widest_picks],
        lowest[:, :k], filled, ranked,
    )  # fmt: skip


@njit(**_JIT)
def _lowest(numerators, denominators, cells, chosen, k, exact_below, out):
    """``lowest_of`` of the ``chosen`` groups, into ``out``, when every ratio among them is exact in
    floating point (numerator and denominator below ``exact_below``): (True, how many), else (False, 0)."""
    for g in chosen:
        if numerators[g] >= exact_below or denominators[g] >= exact_below:
            return False, 0
    ratio = np.empty(len(chosen))
    for j in range(len(chosen)):
        ratio[j] = numerators[chosen[j]] / denominators[chosen[j]]
    found = 0
    for j in np.argsort(ratio):
        for _ in range(min(cells[chosen[j]], k - found)):
            out[found] = ratio[j]
            found += 1
        if found == k:
            break
    return True, found


@njit(**_JIT)
def _pick(numerators, denominators, cells, k):
    """Whether some group with cells is certain (safe or a mine), and the groups with cells that may
    be safe whose ratio is at most the ``k``-th lowest cell's (counted cell by cell) plus 1e-9 of it:
    all of them when they hold fewer than ``k`` cells."""
    decides = False
    risky = np.empty(len(cells), np.int64)
    found = 0
    for g in range(len(cells)):
        if cells[g]:
            if numerators[g] == 0 or numerators[g] == denominators[g]:
                decides = True
            if numerators[g] != denominators[g]:
                risky[found] = g
                found += 1
    risky = risky[:found]
    ratio = np.empty(found)
    for i in range(found):
        ratio[i] = numerators[risky[i]] / denominators[risky[i]]
    threshold, seen = np.inf, 0
    for i in np.argsort(ratio):
        seen += cells[risky[i]]
        if seen >= k:
            threshold = ratio[i] * (1 + 1e-9)  # room for rounding: the exact k lowest are kept
            break
    return decides, risky[ratio <= threshold]


@njit(**_JIT)
def _merge(base, touched, fresh):
    """The parts of the base's untouched components followed by the fresh ones, renumbered."""
    polys, label, box_size, tallies, box_start, box_cells, number_component = base
    new_polys, new_label, new_size, new_tallies, new_start, new_cells, new_number_component = fresh
    kept = np.full(len(polys), -1, np.int64)  # the new number of each untouched component
    components = 0
    for c in range(len(polys)):
        if not touched[c]:
            kept[c] = components
            components += 1
    widest = max(polys.shape[1], new_polys.shape[1])
    boxes, cells = 0, 0
    for b in range(len(box_size)):
        if kept[label[b]] >= 0:
            boxes += 1
            cells += box_size[b]
    total_components = components + len(new_polys)
    total_boxes = boxes + len(new_size)
    out_polys = np.zeros((total_components, widest), np.int64)
    out_label = np.empty(total_boxes, np.int64)
    out_size = np.empty(total_boxes, np.int64)
    out_tallies = np.zeros((total_boxes, widest), np.int64)
    out_start = np.zeros(total_boxes + 1, np.int64)
    out_cells = np.empty(cells + len(new_cells), np.int64)
    out_number_component = np.full(len(number_component), -1, np.int64)
    for c in range(len(polys)):
        if kept[c] >= 0:
            out_polys[kept[c], : polys.shape[1]] = polys[c]
    out_polys[components:, : new_polys.shape[1]] = new_polys
    at, filled = 0, 0
    for b in range(len(box_size)):
        if kept[label[b]] < 0:
            continue
        out_label[at] = kept[label[b]]
        out_size[at] = box_size[b]
        out_tallies[at, : tallies.shape[1]] = tallies[b]
        size = box_start[b + 1] - box_start[b]
        out_cells[filled : filled + size] = box_cells[box_start[b] : box_start[b + 1]]
        filled += size
        at += 1
        out_start[at] = filled
    for b in range(len(new_size)):
        out_label[at] = components + new_label[b]
        out_size[at] = new_size[b]
        out_tallies[at, : new_tallies.shape[1]] = new_tallies[b]
        size = new_start[b + 1] - new_start[b]
        out_cells[filled : filled + size] = new_cells[new_start[b] : new_start[b + 1]]
        filled += size
        at += 1
        out_start[at] = filled
    for z in range(len(number_component)):
        if number_component[z] >= 0 and kept[number_component[z]] >= 0:
            out_number_component[z] = kept[number_component[z]]
        elif new_number_component[z] >= 0:
            out_number_component[z] = components + new_number_component[z]
    return out_polys, out_label, out_size, out_tallies, out_start, out_cells, out_number_component


def _flat(values: np.ndarray) -> np.ndarray:
    """The values row by row, in a writable array: a board's read-only values are copied (a microsecond),
    so that numba compiles each entry point for one type of array, not for two (a cold start compiles
    the engine in about two thirds of the time)."""
    flat = np.ascontiguousarray(values).ravel()
    return flat if flat.flags.writeable else flat.copy()


def analyze_boxes(values: np.ndarray, mines: int):
    """The exact layout count and every group's mine probability, or None.

    ``values``: the board's values. Returns (count, groups, numerators, denominators): ``groups``
    gives each cell (row by row) its group, -1 if opened and -2 if flagged; the groups are the
    boxes, then the cells next to no number; group g's mine probability is
    ``numerators[g] / denominators[g]`` (Python ints). None when no layout fits: the reference
    then says why.
    """
    height, width = values.shape
    flat = _flat(values)
    left = mines - int(np.count_nonzero(flat == MINE_CODE))
    answer, parts = _full(flat, height, width, left, MAX_LEAVES, LIMB_BITS, COMBINE_LIMIT)
    return _result(answer, parts, flat, height, width, left)


def _layouts(ways: list[int], s: int, ta: int, tb: int, free: int) -> int:
    """The layout count of a compiled answer's pieces (see ``_full``)."""
    spread, order = _free_part(free, ta, tb)
    return prod(ways) * s * spread // order


@lru_cache(maxsize=1 << 16)
def _free_part(free: int, ta: int, tb: int) -> tuple[int, int]:
    """``comb(free, ta)`` and ``perm(tb, tb - ta)``: big integers that the outlooks of a game ask for again
    and again (on expert games 7 calls in 10 find them here)."""
    return comb(free, ta), perm(tb, tb - ta)


def counted(answer) -> tuple[int, np.ndarray, list[int], list[int]]:
    """``analyze_boxes``'s answer from a compiled answer that finished (DONE)."""
    status, groups, numerators, denominators, ways, s, ta, tb, free = answer
    assert status == DONE, "an answer past the compiled bounds has nothing to read"
    return _layouts(ways.tolist(), s, ta, tb, free), groups, numerators.tolist(), denominators.tolist()


def _result(answer, parts, flat: np.ndarray, height: int, width: int, left: int):
    """``analyze_boxes``'s answer from a compiled answer and its parts (Python combines them when a
    product passed the limit, and counts the position again when a count's bound was passed)."""
    status = answer[0]
    if status == DONE:
        return counted(answer)
    if status == IMPOSSIBLE:
        return None
    if status == COMBINE_IN_PYTHON:
        return _combined_in_python(answer, parts, left)
    return _in_python(flat, height, width, left)


class Brief(NamedTuple):
    """``Tracker.outlook``'s answer for one number the compiled call finished."""

    layouts: int  # the layout count
    decides: bool  # some unopened cell is certain, safe or a mine
    picks: list | None  # ((numerator, denominator), cells) of groups that may hold the k lowest risks
    lowest: list[float] | None  # or those risks, ranked in the compiled call as ``analysis.lowest_of`` ranks them


_nothing = None


def nothing():
    """``_full``'s (answer, parts) for a board of one unopened cell: stand-ins of the right types for a
    compiled caller that has no answer or parts yet."""
    global _nothing
    if _nothing is None:
        _nothing = _full(np.full(1, UNOPENED_CODE, np.int8), 1, 1, 0, MAX_LEAVES, LIMB_BITS, COMBINE_LIMIT)
    return _nothing


_warm = False


def warm_up() -> None:
    """Load every compiled function of the engine now (numba loads each from its cache, or compiles
    it, on its first call: a second or more). An explorer does this before anyone clicks: a kernel
    busy loading code lets a browser send a click before the choice made just before it."""
    global _warm
    if not _warm:
        values, update = np.array([[1, UNOPENED_CODE]], np.int8), np.array([[1, 1]], np.int8)
        tracker = Tracker()
        tracker.analyze(values, 1)
        tracker.what_if(values, 1, 1)
        tracker.outlook(values, 1, 1)
        tracker.analyze(update, 1)  # an update
        _in_python(values.ravel(), 1, 2, 1)  # the path past the fused call's bounds
        _warm = True


class Tracker:
    """``analyze_boxes`` for positions met one after another, each a few cells away from the last.

    It keeps the components of the last position it analysed; for the next, the components within
    reach of a changed cell (a changed cell, or a number or box cell next to one) are counted again
    and the others kept, so an opened cell costs its own region, not the board. Past ``MAX_CHANGED``
    changed cells, or with nothing kept, the whole position is counted.

    It also recalls the parts of the last ``RECENT`` positions it kept or found by ``what_if`` (each
    number's position): a player that weighs the positions a guess may leave, and comes back, switches
    to them without counting them again.
    """

    MAX_CHANGED = 64
    RECENT = 64

    def __init__(self) -> None:
        self._values: np.ndarray | None = None  # the last position counted whole or updated, flat
        self._shape: tuple[int, int] | None = None
        self._parts = None
        self._same: tuple | None = None  # (read-only values, mines, flat, left) last found to be the kept position
        self._recent: dict[tuple, tuple] = {}  # (shape, flat values' bytes) -> (flat values, parts), oldest first

    def keep(self, values: np.ndarray | None, parts, shape: tuple[int, int] | None) -> None:
        """Make ``values`` (flat, counted) and their ``parts`` the position kept (None: none)."""
        self._values, self._parts, self._shape = values, parts, shape
        self._same = None
        if values is not None and parts is not None:
            self._remember(values, parts, shape)

    def _remember(self, values: np.ndarray, parts, shape) -> None:
        """Keep ``parts`` of the flat ``values`` (not to be changed) for ``_recall``, the oldest out past ``RECENT``."""
        key = (shape, values.tobytes())
        self._recent.pop(key, None)
        self._recent[key] = (values, parts)
        if len(self._recent) > self.RECENT:
            del self._recent[next(iter(self._recent))]

    def _recall(self, flat: np.ndarray, shape: tuple[int, int]) -> bool:
        """Make the position ``flat`` the one kept if its parts are recalled; whether they were."""
        found = self._recent.get((shape, flat.tobytes()))
        if found is None:
            return False
        self.keep(found[0], found[1], shape)
        return True

    def analyze(self, values: np.ndarray, mines: int, keep: bool = True):
        """``analyze_boxes(values, mines)``; with ``keep``, ``values`` becomes the position kept."""
        height, width = values.shape
        flat = _flat(values)
        left = mines - int(np.count_nonzero(flat == MINE_CODE))
        changed = self._changed(flat, (height, width))
        if changed is None:
            answer, parts = _full(flat, height, width, left, MAX_LEAVES, LIMB_BITS, COMBINE_LIMIT)
        else:
            answer, parts = _update(
                flat, height, width, left, changed, self._parts, MAX_LEAVES, LIMB_BITS, COMBINE_LIMIT
            )
        if keep and answer[0] != IMPOSSIBLE:  # (past a count's bound the parts are incomplete: none kept)
            whole = answer[0] != IN_PYTHON
            self.keep(flat.copy() if whole else None, parts if whole else None, (height, width))
        return _result(answer, parts, flat, height, width, left)

    def what_if(self, values: np.ndarray, mines: int, cell: int) -> list:
        """For every number the unopened cell ``cell`` (row-by-row id) may show: ``analyze_boxes`` of
        ``values`` with it there (None where no layout fits), in one compiled call from the parts of
        ``values``, which becomes the position kept."""
        flat, left, whole = self._what_if_base(values, mines, cell)
        if whole is not None:
            return whole
        height, width = values.shape
        statuses, groups, sizes, numerators, denominators, ways, s, ta, tb, free, parts_by = _what_if(
            flat, height, width, left, cell, self._parts, MAX_LEAVES, LIMB_BITS, COMBINE_LIMIT
        )
        found = []
        s, ta, tb, free = s.tolist(), ta.tolist(), tb.tolist(), free.tolist()
        for number, status in enumerate(statuses.tolist()):
            if status not in (DONE, COMBINE_IN_PYTHON):
                found.append(self._declined(status, flat, values.shape, cell, number, left))
                continue
            trial = flat.copy()
            trial[cell] = number
            self._remember(trial, parts_by[number], (height, width))
            size = int(sizes[number])
            answer = (
                status, groups[number], numerators[number, :size], denominators[number, :size], ways[number],
                s[number], ta[number], tb[number], free[number],
            )  # fmt: skip
            found.append(_result(answer, parts_by[number], trial, height, width, left))
        return found

    def outlook(self, values: np.ndarray, mines: int, cell: int, k: int = 2) -> list:
        """``what_if`` in brief, for ranking guesses: per number, None where no layout fits, a ``Brief``
        (the layout count, whether some unopened cell is certain, and the ``k`` lowest mine
        probabilities of cells that may be safe, or, where a float would not hold their ratios exactly,
        ((numerator, denominator), cells) of the groups that may hold them), or, for a number counted
        past the compiled call's bounds, ``what_if``'s answer."""
        flat, left, whole = self._what_if_base(values, mines, cell)
        if whole is not None:
            return whole
        height, width = values.shape
        statuses, ways, s, ta, tb, free, decides, picked, numerators, denominators, cells, lowest, filled, ranked = (
            _outlook(flat, height, width, left, cell, self._parts, MAX_LEAVES, LIMB_BITS, COMBINE_LIMIT, k, EXACT_BELOW)
        )
        found = []
        s, ta, tb, free, decides = s.tolist(), ta.tolist(), tb.tolist(), free.tolist(), decides.tolist()
        # whole arrays to lists once (a small array's slice costs as much to make as the list)
        ways, lowest, filled, ranked = ways.tolist(), lowest.tolist(), filled.tolist(), ranked.tolist()
        statuses = statuses.tolist()
        if not all(r for r, status in zip(ranked, statuses) if status == DONE):  # (rare) Python ranks some
            picked, cells = picked.tolist(), cells.tolist()
            numerators, denominators = numerators.tolist(), denominators.tolist()
        for number, status in enumerate(statuses):
            if status != DONE:
                found.append(self._declined(status, flat, values.shape, cell, number, left))
                continue
            count = _layouts(ways[number], s[number], ta[number], tb[number], free[number])
            if ranked[number]:
                found.append(Brief(count, decides[number], None, lowest[number][: filled[number]]))
                continue
            size = picked[number]
            ratios = zip(numerators[number][:size], denominators[number][:size])
            found.append(Brief(count, decides[number], list(zip(ratios, cells[number][:size])), None))
        return found

    def _what_if_base(self, values: np.ndarray, mines: int, cell: int):
        """(the flat values, the mines left, None) when the compiled what-if can start from the parts
        of ``values`` (recalled, or counted now, if they are not those kept); else the answer of every number, as
        ``what_if`` gives them, in the third place."""
        same = self._same
        if same is not None and same[0] is values and same[1] == mines:  # a player's candidates, one board
            return same[2], same[3], None
        height, width = values.shape
        flat = _flat(values)
        left = mines - int(np.count_nonzero(flat == MINE_CODE))
        kept = self._values is not None and self._shape == (height, width) and np.array_equal(self._values, flat)
        kept = kept or self._recall(flat, (height, width))
        if kept and self._parts is not None:
            if not values.flags.writeable:  # (a board's values: they cannot change while kept here)
                self._same = (values, mines, flat, left)
            return flat, left, None
        numbers = len(BoardSize(height, width).neighbours(divmod(cell, width))) + 1
        if not kept and self.analyze(values, mines) is None:  # no layout fits: none with the cell opened either
            return flat, left, [None] * numbers
        if self._parts is None:  # past a count's bound: one whole count a number
            found = []
            for number in range(numbers):
                trial = flat.copy()
                trial[cell] = number
                found.append(self.analyze(trial.reshape(height, width), mines, keep=False))
            return flat, left, found
        return flat, left, None

    def _declined(self, status: int, flat: np.ndarray, shape: tuple[int, int], cell: int, number: int, left: int):
        """The answer for a number the compiled what-if or outlook did not finish: None if no layout
        fits; past the combination's limit, its parts (counted again from those kept: the outlook
        does not return them) combined in Python; else counted past its bounds."""
        if status == IMPOSSIBLE:
            return None
        trial = flat.copy()
        trial[cell] = number
        if status == COMBINE_IN_PYTHON:
            changed = np.array([cell], np.int64)
            answer, parts = _update(trial, *shape, left, changed, self._parts, MAX_LEAVES, LIMB_BITS, COMBINE_LIMIT)
            return _result(answer, parts, trial, *shape, left)
        return _in_python(trial, *shape, left)

    def _changed(self, flat: np.ndarray, shape: tuple[int, int]) -> np.ndarray | None:
        if self._values is None or self._shape != shape:
            return None
        changed = np.flatnonzero(self._values != flat)
        return changed if len(changed) <= self.MAX_CHANGED else None


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
    numbers = np.flatnonzero(count_boxes)
    members = [by_component[starts[c] : starts[c + 1]] for c in range(len(starts) - 1)]
    leaves, support_start, support, poly_values, tally_start, tally_values = _enumerate_every(
        box_size, need, box_numbers, count_numbers, capacity, by_component, starts, MAX_LEAVES, LIMB_BITS
    )
    ks, layouts, tallies = support.tolist(), _from_limbs(poly_values), _from_limbs(tally_values)
    leaves, support_start, tally_start = leaves.tolist(), support_start.tolist(), tally_start.tolist()
    polys: list[dict[int, int]] = []
    weights: list = []  # per component: (its mine counts, its boxes' tallies by them), or its ComponentDP
    for c, order in enumerate(members):
        low, high = support_start[c], support_start[c + 1]
        if leaves[c] >= 0:  # the mine counts the component can use, and only those, as Python ints
            if low == high:
                return None
            polys.append(dict(zip(ks[low:high], layouts[low:high])))
            width, row = high - low, tally_start[c]
            weights.append(
                (ks[low:high], [tallies[row + q * width : row + (q + 1) * width] for q in range(len(order))])
            )
        else:  # too many solutions to list: the DP of minelib.frontier
            dp = _component_dp(order, box_size, need, number_boxes, count_boxes, numbers, label)
            polys.append(dp.polynomial())
            weights.append(dp)
            if not polys[-1]:
                return None
    free = np.flatnonzero((box_of == -1) & (flat == UNOPENED_CODE))
    combined = _combine(polys, len(free), left)
    if combined is None:
        return None
    count, total, spread, outsides = combined
    numerators, denominators = [0] * len(box_size), [1] * len(box_size)
    _box_ratios(members, weights, outsides, polys, total, box_size.tolist(), numerators, denominators)
    groups = box_of.copy()
    groups[flat == MINE_CODE] = -2
    if len(free):
        groups[free] = len(box_size)
        numerators.append(spread)
        denominators.append(len(free) * total)
    return count, groups, numerators, denominators


def _combined_in_python(answer, parts, left: int):
    """``analyze_boxes`` from a compiled answer whose combination passed ``COMBINE_LIMIT``, and its parts.

    The compiled call had every component counted, the layouts of those of one mine count (``ways``)
    and their boxes' ratios; the others (varying) are combined here with the free cells, in Python
    integers, as ``_combine`` and ``_box_ratios`` do past the count's bounds."""
    _, groups, numerators, denominators, ways, _, _, _, free = answer
    polys, label, box_size, tallies = parts[:4]
    fixed = np.count_nonzero(polys, axis=1) == 1
    fixed_mines = int((polys[fixed] != 0).argmax(axis=1).sum())
    by_component = [{fixed_mines: prod(ways.tolist())}]  # the fixed ones as one, on their own
    members, weights = [], []
    for c in np.flatnonzero(~fixed).tolist():
        ks = np.flatnonzero(polys[c])
        boxes = np.flatnonzero(label == c)
        by_component.append(dict(zip(ks.tolist(), polys[c, ks].tolist())))
        members.append(boxes)
        weights.append((ks.tolist(), tallies[np.ix_(boxes, ks)].tolist()))
    combined = _combine(by_component, int(free), left)
    if combined is None:
        return None
    count, total, spread, outsides = combined
    numerators, denominators = numerators.tolist(), denominators.tolist()
    _box_ratios(members, weights, outsides[1:], by_component[1:], total, box_size.tolist(), numerators, denominators)
    if free:
        numerators[len(box_size)], denominators[len(box_size)] = spread, free * total
    return count, groups, numerators, denominators


def _from_limbs(limbs: np.ndarray) -> list[int]:
    """The Python ints of a 2-d array whose rows hold little-endian limbs of ``LIMB_BITS`` bits."""
    columns = limbs.T.tolist()
    values = columns[-1]
    for column in reversed(columns[:-1]):
        values = [(value << LIMB_BITS) | limb for value, limb in zip(values, column)]
    return values


def _box_ratios(
    members, weights, outsides, polys, total: int, sizes: list[int], numerators: list[int], denominators: list[int]
) -> None:
    """The mine probability of every box of the components ``members`` as a ratio, into ``numerators``
    and ``denominators``: its weighted mines over its cells times the layouts.

    ``weights``: per component, its ComponentDP, or (the mine counts it can use, each box's tallies
    by them). A component of one mine count k is on its own: its boxes' ratios are tally / (size *
    its layouts). The others are weighted by ``outsides`` (see ``_combine``), over ``total``.
    """
    for order, component_weights, outside, poly in zip(members, weights, outsides, polys):
        scale = total if outside is not None else next(iter(poly.values()))
        outside = outside or dict.fromkeys(poly, 1)
        if isinstance(component_weights, frontier.ComponentDP):
            rows = component_weights.group_weights(outside)[1]
        else:
            support, tallies = component_weights
            factors = [outside[k] for k in support]
            rows = [sum(map(mul, row, factors)) for row in tallies]
        for b, in_box in zip(order.tolist(), rows):
            numerators[b], denominators[b] = in_box, sizes[b] * scale


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
    """The components with the ``free`` cells next to no number and the ``left`` mines, in Python ints.

    Returns (count, total, spread, outsides), or None if no layout fits. A component whose layouts
    all use the same mines (most of them) is on its own: its outside is None, and its layouts only
    multiply the count. For the others (``varying``), with ``total = count / (the fixed ones'
    layouts)``: ``outsides[c][k]`` is the ways for the rest when c uses k mines, and ``spread`` the
    mines on the free cells summed over layouts, both on the scale of ``total``. Reverse mode: the
    products of the varying polynomials forward, then the binomials carried back through them.
    """
    fixed_ways, fixed_mines, varying = 1, 0, []
    for c, terms in enumerate(polys):
        if len(terms) == 1:
            ((k, ways),) = terms.items()
            fixed_ways, fixed_mines = fixed_ways * ways, fixed_mines + k
        else:
            varying.append(c)
    varying.sort(key=lambda c: max(polys[c]) - min(polys[c]))  # the widest last: its product is never formed
    lowest = [min(polys[c]) for c in varying]
    dense = [[polys[c].get(k, 0) for k in range(low, max(polys[c]) + 1)] for c, low in zip(varying, lowest)]
    forward = [[1]]
    for poly in dense[:-1]:
        forward.append(_convolve_lists(forward[-1], poly))
    first = left - fixed_mines - sum(lowest)  # mines left to the free cells by the product's first term
    top = sum(len(poly) - 1 for poly in dense)
    column = _binomial_column(free, first - top, first)
    adjoint = [column.get(first - k, 0) for k in range(top + 1)]
    spread_adjoint = [weight * (first - k) for k, weight in enumerate(adjoint)]  # mines on the free cells
    outsides: list[dict[int, int] | None] = [None] * len(polys)
    total, spread = 1, 0
    for i in reversed(range(len(varying))):
        before, poly = forward[i], dense[i]
        outside = [sum(map(mul, before, adjoint[k : k + len(before)])) for k in range(len(poly))]
        if i == len(varying) - 1:  # the whole sum, through the last component
            total = sum(map(mul, poly, outside))
            if total == 0:
                return None
            spread = sum(
                map(mul, poly, (sum(map(mul, before, spread_adjoint[k : k + len(before)])) for k in range(len(poly))))
            )
        outsides[varying[i]] = dict(zip(range(lowest[i], lowest[i] + len(poly)), outside))
        adjoint = [sum(map(mul, poly, adjoint[j : j + len(poly)])) for j in range(len(before))]
    if not varying:  # the fixed components and the free cells alone
        total, spread = adjoint[0], spread_adjoint[0]
        if total == 0:
            return None
    return fixed_ways * total, total, spread, outsides


def _convolve_lists(left: list[int], right: list[int]) -> list[int]:
    """The product of two polynomials given as coefficient lists."""
    backwards = right[::-1]
    out = []
    for k in range(len(left) + len(right) - 1):
        low, high = max(0, k - len(right) + 1), min(k, len(left) - 1)
        out.append(sum(map(mul, left[low : high + 1], backwards[len(right) - 1 - k + low : len(right) - k + high])))
    return out


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


__all__ = ["COMBINE_LIMIT", "EXACT_BELOW", "LIMB_BITS", "MAX_LEAVES", "Brief", "Tracker", "analyze_boxes", "warm_up"]
