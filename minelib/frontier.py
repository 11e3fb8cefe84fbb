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


@lru_cache(maxsize=65536)
def choose(n: int, k: int) -> int:
    """The binomial coefficient, 0 when k is outside 0..n."""
    return comb(n, k) if 0 <= k <= n else 0


@dataclass(frozen=True)
class Component:
    """Groups of columns linked by rows; ``rows[r]`` lists the groups row r sees."""

    sizes: tuple[int, ...]
    rows: tuple[tuple[int, ...], ...]
    targets: tuple[int, ...]
    columns: tuple[tuple[int, ...], ...]  # the original columns of each group
    row_ids: tuple[int, ...] = ()  # the original rows its rows were made from


@dataclass(frozen=True)
class Decomposition:
    """A system split into components, the all-ones rows' target and the free columns."""

    components: tuple[Component, ...]
    total: int | None  # what the all-ones rows ask for; None if there are none
    free: tuple[int, ...]
    feasible: bool


def decompose(X: np.ndarray, y: np.ndarray, set_aside_full_rows: bool = True) -> Decomposition:
    """Split (X, y) into independent components of grouped columns.

    Rows that see every column are taken as the total-mine row and set aside,
    unless ``set_aside_full_rows`` is False (a system without a total row).
    """
    n = X.shape[1]
    seen = X.sum(axis=1)
    empty_rows, full_rows = seen == 0, (seen == n) & (n > 0) & set_aside_full_rows
    totals = set(y[full_rows].tolist())
    feasible = not (y[empty_rows] != 0).any() and len(totals) <= 1
    local = ~(empty_rows | full_rows)
    X_local, y_local, sources = reduce_subsets(X[local], y[local])
    groups: dict[bytes, list[int]] = defaultdict(list)
    for j, column in enumerate(X_local.T.astype(np.uint8)):
        groups[column.tobytes()].append(j)
    free = tuple(groups.pop(bytes(len(X_local)), ()))
    group_columns = list(groups.values())
    rows_of_group = [np.flatnonzero(X_local[:, cols[0]]).tolist() for cols in group_columns]
    original_rows = np.flatnonzero(local)
    components = [
        _component(members, group_columns, rows_of_group, y_local, original_rows, sources)
        for members in _connected(rows_of_group, len(X_local))
    ]
    return Decomposition(tuple(components), totals.pop() if totals else None, free, feasible)


def reduce_subsets(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[set[int]]]:
    """An equivalent system in which row b becomes b - a whenever row a's columns lie inside b's.

    "These 2 cells hold 1 mine" inside "these 5 cells hold 2" leaves "the other 3
    hold 1": smaller rows link fewer cells, which splits components and narrows
    the DP. Every subtraction removes ones, so the loop ends. Also returns, for
    each row, the original rows it was made from.
    """
    X, y = X.copy(), y.copy()
    sources = [{r} for r in range(len(X))]
    while len(X):
        size = X.sum(axis=1)
        overlap = X.astype(np.float64) @ X.T.astype(np.float64)  # exact for 0/1 rows of this size
        inside = (overlap == size[:, None]) & (size[:, None] < size[None, :])  # inside[a, b]: a in b
        changed = False
        for b in np.flatnonzero(inside.any(axis=0)):
            for a in sorted(np.flatnonzero(inside[:, b]), key=lambda a: -size[a]):
                if (X[a] <= X[b]).all() and X[a].any():  # rows changed earlier in this round
                    X[b] -= X[a]
                    y[b] -= y[a]
                    sources[b] |= sources[a]
                    changed = True
                    break
        if not changed:
            break
    return X, y, sources


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


def _component(members, group_columns, rows_of_group, y_local, original_rows, sources) -> Component:
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
        row_ids=tuple(sorted({int(original_rows[k]) for r in row_ids for k in sources[r]})),
    )


def narrow_order(sizes: tuple[int, ...], rows: tuple[tuple[int, ...], ...]) -> list[int]:
    """An order of the groups that keeps few rows open at once (greedy)."""
    rows_of: list[list[int]] = [[] for _ in sizes]
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
        g = min(
            candidates,
            key=lambda g: (sum(not opened[r] for r in rows_of[g]) - sum(left[r] == 1 for r in rows_of[g]), g),
        )
        candidates.discard(g)
        todo.discard(g)
        order.append(g)
        for r in rows_of[g]:
            left[r] -= 1
            if not opened[r]:
                opened[r] = True
                candidates.update(h for h in rows[r] if h in todo)
    return order


@dataclass(frozen=True)
class Step:
    """Placing ones in one group: the rows it opens and touches, and what stays open after."""

    group: int
    size: int
    new_targets: tuple[int, ...]  # targets of the rows this group opens
    touched: tuple[int, ...]  # positions, in the state, of the rows that see the group
    room: tuple[int, ...]  # cells those rows still have after this group
    keep: tuple[int, ...]  # positions of the rows still open after this group

    def moves(self, state: tuple[int, ...]):
        """(ones placed, ways, next state) for each way to fill the group from ``state``."""
        need = state + self.new_targets
        for j in range(self.size + 1):
            after = list(need)
            for i, space in zip(self.touched, self.room):
                after[i] -= j
                if not 0 <= after[i] <= space:
                    break
            else:
                yield j, comb(self.size, j), tuple(after[i] for i in self.keep)


def plan(sizes: tuple[int, ...], rows: tuple[tuple[int, ...], ...], targets: tuple[int, ...]) -> list[Step]:
    """The DP steps of a component, one per group in ``narrow_order``.

    The state is what each open row still needs; a row opens with its first
    group and closes (must need 0) with its last.
    """
    order = narrow_order(sizes, rows)
    position = {g: i for i, g in enumerate(order)}
    last = [max(position[g] for g in groups) for groups in rows]
    capacity = [sum(sizes[g] for g in groups) for groups in rows]
    rows_of = defaultdict(list)
    for r, groups in enumerate(rows):
        for g in groups:
            rows_of[g].append(r)
    active: list[int] = []
    steps = []
    for i, g in enumerate(order):
        new_rows = [r for r in rows_of[g] if r not in active]
        active_after = active + new_rows
        for r in rows_of[g]:
            capacity[r] -= sizes[g]
        keep = tuple(k for k, r in enumerate(active_after) if last[r] != i)
        steps.append(
            Step(
                g,
                sizes[g],
                tuple(targets[r] for r in new_rows),
                tuple(active_after.index(r) for r in rows_of[g]),
                tuple(capacity[r] for r in rows_of[g]),
                keep,
            )
        )
        active = [active_after[k] for k in keep]
    return steps


class ComponentDP:
    """The forward DP of one component, keeping every layer and transition for a backward pass.

    ``layers[i]`` maps each state before step i to its polynomial (ones used so
    far -> ways); ``edges[i]`` lists the transitions (state, ones, ways, next state).
    """

    def __init__(self, sizes, rows, targets):
        self.steps = plan(sizes, rows, targets)
        self.layers: list[dict[tuple[int, ...], Polynomial]] = [{(): {0: 1}}]
        self.edges: list[list[tuple]] = []
        for step in self.steps:
            following: dict[tuple[int, ...], Polynomial] = defaultdict(lambda: defaultdict(int))
            edges = []
            for state, poly in self.layers[-1].items():
                for j, ways, nxt in step.moves(state):
                    edges.append((state, j, ways, nxt))
                    target = following[nxt]
                    for ones, count in poly.items():
                        target[ones + j] += count * ways
            self.layers.append(following)
            self.edges.append(edges)

    def polynomial(self) -> Polynomial:
        """Ways to satisfy the component, by ones used (empty if it cannot be satisfied)."""
        return dict(self.layers[-1].get((), {}))

    def group_weights(self, weight: dict[int, int]) -> tuple[int, list[int]]:
        """Sum over solutions of weight[ones used], and per group, of (ones in group) * weight.

        A backward pass: ``value[state][a]`` is the weighted number of ways to
        finish from ``state`` when ``a`` ones are already used.
        """
        value: dict[tuple[int, ...], defaultdict[int, int]] = {
            (): defaultdict(int, {k: weight.get(k, 0) for k in self.polynomial()})
        }
        per_group = [0] * len(self.steps)
        for step, layer, edges in zip(reversed(self.steps), reversed(self.layers[:-1]), reversed(self.edges)):
            current: dict[tuple[int, ...], defaultdict[int, int]] = {state: defaultdict(int) for state in layer}
            in_group = 0
            for state, j, ways, nxt in edges:
                after, before, here = value.get(nxt), layer[state], current[state]
                if after is None:
                    continue
                for a, count in before.items():
                    share = ways * after[a + j]
                    here[a] += share
                    if j:
                        in_group += j * count * share
            per_group[step.group] = in_group
            value = current
        return value[()][0], per_group


@lru_cache(maxsize=200_000)
def component_polynomial(
    sizes: tuple[int, ...], rows: tuple[tuple[int, ...], ...], targets: tuple[int, ...]
) -> tuple[tuple[int, int], ...]:
    """The ways to satisfy a component, by ones used, as sorted (ones, ways) pairs."""
    return tuple(sorted(ComponentDP(sizes, rows, targets).polynomial().items()))


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
        return sum(product.values()) * 2**free
    return sum(
        ways * comb(free, parts.total - ones) for ones, ways in product.items() if 0 <= parts.total - ones <= free
    )


__all__ = [
    "Component",
    "ComponentDP",
    "Decomposition",
    "Polynomial",
    "Step",
    "choose",
    "component_polynomial",
    "count",
    "decompose",
    "multiply",
    "narrow_order",
    "plan",
    "reduce_subsets",
]
