"""Counting by independent components: the step beyond article 001.

A board's constraint system is sparse: each number sees at most eight cells, and
only the total-mine row sees them all. So:

1. rows that see every column (the total row) are set aside;
2. columns seen by exactly the same rows form a *group*: a group of s cells
   holding j mines does so in comb(s, j) ways;
3. groups linked through rows form independent *components*;
4. each component is counted by a dynamic programme over its groups in a
   narrow order, tallied by how many ones it uses (a polynomial in mines);
5. the component polynomials are multiplied and meet the total row, the
   unconstrained columns weighted by comb(free, mines left).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np

Polynomial = dict[int, int]  # ones used -> number of ways


@dataclass(frozen=True)
class Component:
    """Groups of columns linked by rows; ``rows[r]`` lists the groups row r sees."""

    sizes: tuple[int, ...]
    rows: tuple[tuple[int, ...], ...]
    targets: tuple[int, ...]
    columns: tuple[tuple[int, ...], ...]  # the original columns of each group


@dataclass(frozen=True)
class Decomposition:
    """A system split into components, the all-ones rows' target and the free columns."""

    components: tuple[Component, ...]
    total: int | None  # what the all-ones rows ask for; None if there are none
    free: tuple[int, ...]
    feasible: bool


def decompose(X: np.ndarray, y: np.ndarray) -> Decomposition:
    """Split (X, y) into independent components of grouped columns."""
    n = X.shape[1]
    seen = X.sum(axis=1)
    empty_rows, full_rows = seen == 0, (seen == n) & (n > 0)
    totals = set(y[full_rows].tolist())
    feasible = not (y[empty_rows] != 0).any() and len(totals) <= 1
    local = ~(empty_rows | full_rows)
    X_local, y_local = X[local], y[local]
    groups: dict[bytes, list[int]] = defaultdict(list)
    for j, column in enumerate(X_local.T.astype(np.uint8)):
        groups[column.tobytes()].append(j)
    free = tuple(groups.pop(bytes(len(X_local)), ()))
    group_columns = list(groups.values())
    rows_of_group = [np.flatnonzero(X_local[:, cols[0]]).tolist() for cols in group_columns]
    components = [
        _component(members, group_columns, rows_of_group, y_local)
        for members in _connected(rows_of_group, len(X_local))
    ]
    return Decomposition(tuple(components), totals.pop() if totals else None, free, feasible)


def _connected(rows_of_group: list[list[int]], n_rows: int) -> list[list[int]]:
    """Groups linked through shared rows, as lists of group indices (union-find)."""
    parent = list(range(len(rows_of_group)))

    def find(g: int) -> int:
        while parent[g] != g:
            parent[g] = parent[parent[g]]
            g = parent[g]
        return g

    first_group_of_row: dict[int, int] = {}
    for g, rows in enumerate(rows_of_group):
        for r in rows:
            if r in first_group_of_row:
                parent[find(g)] = find(first_group_of_row[r])
            else:
                first_group_of_row[r] = g
    members: dict[int, list[int]] = defaultdict(list)
    for g in range(len(rows_of_group)):
        members[find(g)].append(g)
    return list(members.values())


def _component(members, group_columns, rows_of_group, y_local) -> Component:
    """The component made of groups ``members``, with rows renumbered from 0."""
    row_ids = sorted({r for g in members for r in rows_of_group[g]})
    index = {r: i for i, r in enumerate(row_ids)}
    rows: list[list[int]] = [[] for _ in row_ids]
    for k, g in enumerate(members):
        for r in rows_of_group[g]:
            rows[index[r]].append(k)
    return Component(
        sizes=tuple(len(group_columns[g]) for g in members),
        rows=tuple(map(tuple, rows)),
        targets=tuple(int(y_local[r]) for r in row_ids),
        columns=tuple(tuple(group_columns[g]) for g in members),
    )


def narrow_order(sizes: tuple[int, ...], rows: tuple[tuple[int, ...], ...]) -> list[int]:
    """An order of the groups that keeps few rows open at once (greedy)."""
    rows_of = [[] for _ in sizes]
    for r, groups in enumerate(rows):
        for g in groups:
            rows_of[g].append(r)
    left = [len(groups) for groups in rows]  # unprocessed groups per row
    opened = [False] * len(rows)
    todo = set(range(len(sizes)))
    candidates = {min(todo, key=lambda g: (len(rows_of[g]), g))} if todo else set()
    order = []
    while todo:
        if not candidates:  # only when the rows do not link every group
            candidates = {min(todo)}
        # Prefer the group that opens the fewest new rows and closes the most.
        g = min(candidates, key=lambda g: (
            sum(not opened[r] for r in rows_of[g]) - sum(left[r] == 1 for r in rows_of[g]), g))
        candidates.discard(g)
        todo.discard(g)
        order.append(g)
        for r in rows_of[g]:
            left[r] -= 1
            if not opened[r]:
                opened[r] = True
                candidates.update(h for h in rows[r] if h in todo)
    return order


@lru_cache(maxsize=200_000)
def component_polynomial(sizes: tuple[int, ...], rows: tuple[tuple[int, ...], ...],
                         targets: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The ways to satisfy a component, by ones used, as sorted (ones, ways) pairs.

    A forward dynamic programme over the groups in ``narrow_order``: the state is
    what each open row still needs; a row closes when its last group is placed.
    """
    order = narrow_order(sizes, rows)
    position = {g: i for i, g in enumerate(order)}
    last = [max(position[g] for g in groups) for groups in rows]
    capacity = list(_row_sizes(sizes, rows))  # cells a row still has to place
    active: list[int] = []  # open rows, in the order of the state tuple
    states: dict[tuple[int, ...], Polynomial] = {(): {0: 1}}
    rows_of = defaultdict(list)
    for r, groups in enumerate(rows):
        for g in groups:
            rows_of[g].append(r)
    for step, g in enumerate(order):
        new_rows = [r for r in rows_of[g] if r not in active]
        active_after = active + new_rows
        touched = [active_after.index(r) for r in rows_of[g]]
        for r in rows_of[g]:
            capacity[r] -= sizes[g]
        keep = [i for i, r in enumerate(active_after) if last[r] != step]
        states = _advance(states, [targets[r] for r in new_rows], touched,
                          [capacity[r] for r in rows_of[g]], keep, sizes[g])
        active = [active_after[i] for i in keep]
        if not states:
            return ()
    return tuple(sorted(states.get((), {}).items()))


def _row_sizes(sizes, rows):
    return (sum(sizes[g] for g in groups) for groups in rows)


def _advance(states, new_targets, touched, room, keep, size):
    """One DP step: place 0..size ones in a group seen by rows at ``touched``."""
    result: dict[tuple[int, ...], Polynomial] = defaultdict(lambda: defaultdict(int))
    weights = [comb(size, j) for j in range(size + 1)]
    for state, poly in states.items():
        need = list(state) + new_targets
        for j, weight in enumerate(weights):
            after = need.copy()
            ok = True
            for i, space in zip(touched, room):
                after[i] -= j
                if not 0 <= after[i] <= space:
                    ok = False
                    break
            if not ok:
                continue
            target = result[tuple(after[i] for i in keep)]
            for ones, ways in poly.items():
                target[ones + j] += ways * weight
    return result


def multiply(polys) -> Polynomial:
    """The product of polynomials given as {ones: ways} or (ones, ways) pairs."""
    product: Polynomial = {0: 1}
    for poly in polys:
        pairs = poly.items() if isinstance(poly, dict) else poly
        nxt: Polynomial = defaultdict(int)
        for a, u in product.items():
            for b, v in pairs:
                nxt[a + b] += u * v
        product = dict(nxt)
    return product


def count(X: np.ndarray, y: np.ndarray) -> int:
    """The number of 0/1 vectors v with X v = y (X, y already checked)."""
    parts = decompose(X, y)
    if not parts.feasible:
        return 0
    product = multiply(component_polynomial(c.sizes, c.rows, c.targets) for c in parts.components)
    free = len(parts.free)
    if parts.total is None:
        return sum(product.values()) * 2 ** free
    return sum(ways * comb(free, parts.total - ones)
               for ones, ways in product.items() if 0 <= parts.total - ones <= free)
