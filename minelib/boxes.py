"""Exact analysis by boxes, compiled with numba: the fast path of ``minelib.analyze``.

The idea of D. Hill's JSMinesweeper probability engine, written anew here. Cells
next to exactly the same numbers form a *box*: they are interchangeable, so a
layout only says how many mines each box holds (a box of s cells holds m mines
in comb(s, m) ways). Boxes linked through numbers form independent
*components*. Each component is enumerated box by box, every number's range
pruning the choices, and tallied by the mines it uses: how many layouts (a
polynomial in mines) and, per box, how many mines in all. In Python big
integers the components then meet the cells next to no number through the
total: comb(free, mines left).

Machine integers are safe where a bound proves it: a component of c cells has at
most 2**c weighted layouts, so components of at most ``MAX_CELLS`` cells are
counted in int64. A larger component, one whose enumeration passes
``MAX_LEAVES`` solutions, or a position with no layout returns None: the caller
then takes the reference path (``minelib.analysis``), which also names the
numbers that fail.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from minelib import frontier

UNOPENED_CODE, MINE_CODE = -1, -10
MAX_CELLS = 56  # 2**(cells + 6) < 2**63: every tally of a component fits in int64
MAX_LEAVES = 200_000  # solutions enumerated per component before the reference DP takes over
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
def _enumerate(order, box_size, box_numbers, count_numbers, need, capacity, binomial, max_leaves):
    """Every assignment of mines to the boxes of one component (in ``order``) that meets its numbers.

    Returns (layouts by mines used; mines in each box by mines used, weighted; leaves, or -1 if
    the budget ran out). ``capacity[r]``: cells of number r's boxes not yet assigned.
    """
    m = len(order)
    cells = 0
    for b in order:
        cells += box_size[b]
    poly = np.zeros(cells + 1, np.int64)
    box_mines = np.zeros((m, cells + 1), np.int64)
    taken = np.zeros(len(need), np.int64)
    cur = np.zeros(m, np.int64)
    top = np.zeros(m, np.int64)
    weight = np.ones(m + 1, np.int64)
    used = np.zeros(m + 1, np.int64)
    leaves = 0
    p = 0
    entering = True
    while True:
        if entering:
            if p == m:
                leaves += 1
                if leaves > max_leaves:
                    return poly, box_mines, -1
                k = used[m]
                poly[k] += weight[m]
                for q in range(m):
                    box_mines[q, k] += weight[m] * cur[q]
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
        weight[p + 1] = weight[p] * binomial[s, cur[p]]
        used[p + 1] = used[p] + cur[p]
        p += 1
        entering = True
    return poly, box_mines, leaves


@njit(**_JIT)
def _enumerate_all(by_component, starts, box_size, box_numbers, count_numbers, need, capacity, max_cells, max_leaves):
    """``_enumerate`` for every component at once (one call from Python): polys[c], box_mines[box], and
    per component its leaves, or -1 where the reference DP must count it (too large, or past the budget)."""
    components = len(starts) - 1
    binomial = _binomials(8)
    polys = np.zeros((components, max_cells + 1), np.int64)
    box_mines = np.zeros((len(box_size), max_cells + 1), np.int64)
    leaves = np.full(components, -1, np.int64)
    for c in range(components):
        order = by_component[starts[c] : starts[c + 1]]
        cells = 0
        for b in order:
            cells += box_size[b]
        if cells > max_cells:
            continue
        poly, mines, found = _enumerate(
            order, box_size, box_numbers, count_numbers, need, capacity, binomial, max_leaves
        )
        leaves[c] = found
        if found >= 0:
            polys[c, : len(poly)] = poly
            for q in range(len(order)):
                box_mines[order[q], : len(poly)] = mines[q]
    return polys, box_mines, leaves


def analyze_boxes(values: np.ndarray, mines: int):
    """The exact layout count and the mine count of each group of cells (Python ints), or None.

    ``values``: the board's values. Returns (count, groups, weights): ``groups`` gives each cell
    (row by row) its group, -1 if opened and -2 if flagged; the groups are the boxes, then the
    cells next to no number; ``weights[g]``: the layouts with a mine on one cell of group g.
    None when the reference must answer (an impossible position, or a component past the int64
    bound or the leaf budget).
    """
    height, width = values.shape
    flat = np.ascontiguousarray(values, dtype=np.int64).ravel()
    box_of, box_size, need, number_boxes, count_boxes, box_numbers, count_numbers, capacity, ok = _structure(
        flat, height, width
    )
    if not ok:
        return None
    boxes = len(box_size)
    label, components = _components(boxes, number_boxes, count_boxes)
    numbers = np.flatnonzero(count_boxes)
    by_component = np.argsort(label, kind="stable")
    starts = np.zeros(components + 1, np.int64)
    np.cumsum(np.bincount(label, minlength=components), out=starts[1:])
    largest = int(np.bincount(label, weights=box_size, minlength=1).max()) if boxes else 0
    all_polys, all_mines, leaves = _enumerate_all(
        by_component,
        starts,
        box_size,
        box_numbers,
        count_numbers,
        need,
        capacity,
        min(largest, MAX_CELLS),
        MAX_LEAVES,
    )
    members = [by_component[starts[c] : starts[c + 1]] for c in range(components)]
    mines_rows = all_mines.tolist()
    polys: list[dict[int, int]] = []
    weights: list = []  # per component: its rows of box mines by k, or its ComponentDP
    for order, row, found in zip(members, all_polys.tolist(), leaves.tolist()):
        if found >= 0:
            polys.append({k: v for k, v in enumerate(row) if v})
            weights.append([mines_rows[b] for b in order.tolist()])
        else:  # too large for int64, or too many solutions to list: the DP of minelib.frontier, in Python ints
            dp = _component_dp(order, box_size, need, number_boxes, count_boxes, numbers, label)
            polys.append(dp.polynomial())
            weights.append(dp)
        if not polys[-1]:
            return None
    free = np.flatnonzero(box_of == -2)
    left = mines - int((flat == MINE_CODE).sum())
    count, everything, outsides = _combine(polys, len(free), left)
    if count == 0:
        return None
    per_box = _box_weights(members, weights, outsides, box_size.tolist())
    groups = box_of.copy()
    groups[flat == MINE_CODE] = -2
    if len(free):
        groups[free] = boxes
        per_box.append(sum(ways * frontier.choose(len(free) - 1, left - k - 1) for k, ways in everything.items()))
    return count, groups, per_box


def _box_weights(members, weights, outsides, sizes: list[int]) -> list[int]:
    """For every box: the layouts with a mine on one of its cells (its weighted mines, shared by its cells)."""
    per_box = [0] * len(sizes)
    for order, poly_weights, outside in zip(members, weights, outsides):
        if isinstance(poly_weights, frontier.ComponentDP):
            rows = poly_weights.group_weights(outside)[1]
            for b, in_box in zip(order.tolist(), rows):
                per_box[b] = in_box // sizes[b]
            continue
        terms = list(outside.items())
        if len(terms) == 1:  # a component of fixed mine count: one product a box
            ((k, w),) = terms
            for b, row in zip(order.tolist(), poly_weights):
                per_box[b] = row[k] * w // sizes[b]
        else:
            for b, row in zip(order.tolist(), poly_weights):
                per_box[b] = sum(row[k] * w for k, w in terms) // sizes[b]
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
    count = sum(ways * frontier.choose(free, left - k) for k, ways in everything.items())
    outsides: list[dict[int, int]] = []
    for c, poly in enumerate(polys):
        if len(poly) == 1:
            ((k, ways),) = poly.items()
            outsides.append({k: count // ways})
            continue
        at = varying.index(c)
        others = frontier.multiply([prefix[at], suffix[len(varying) - 1 - at]])
        outsides.append(
            {k: sum(ways * frontier.choose(free, left - k - j) for j, ways in others.items()) for k in poly}
        )
    return count, everything, outsides


__all__ = ["MAX_CELLS", "MAX_LEAVES", "analyze_boxes"]
