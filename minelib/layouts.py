"""Mine layouts as bitmasks over a board's cells (row by row): the board's geometry
and symmetries, and every layout consistent with a position.

The state of the optimal solver's engines (``minelib.search``, ``minelib.kernel``)
is a set of such layouts; ``Geometry.canonical`` gives each set one key under the
board's rotations and reflections (the minlex idea of article 004, pruned: only
symmetries that reach the smallest first element are compared in full).
"""

from __future__ import annotations

from collections import defaultdict
from functools import cached_property, lru_cache
from itertools import combinations

import numpy as np
from numba import njit

from minelib.analysis import analyze
from minelib.board import MINE, Board, BoardSize, Cell
from minelib.game import neighbour_table

Layouts = tuple[int, ...]  # sorted bitmasks of mine cells


class Geometry:
    """Cell bits, neighbour masks and symmetries of a board."""

    def __init__(self, size: BoardSize | str):
        size = BoardSize.of(size)
        self.size = size
        self.n = size.n_cells
        self.full = (1 << self.n) - 1
        self.neighbours = [sum(1 << size.cell_id(c) for c in size.neighbours(cell)) for cell in size.cells()]
        self.symmetries = _symmetries(size)

    @cached_property
    def chunk_tables(self) -> list[list[list[int]]]:
        """For every symmetry but the identity, the image of each 8-bit chunk value (both engines use
        these; made on first use: ~0.2 s on expert, and a search without symmetry never needs them)."""
        return [_chunk_tables(perm) for perm in self.symmetries[1:]]

    @staticmethod
    @lru_cache(maxsize=16)
    def of(size: BoardSize) -> Geometry:
        """The geometry of a board size, made once per process (its tables take ~0.2 s on expert)."""
        return Geometry(size)

    def bit(self, cell: Cell) -> int:
        """The bit of ``cell``."""
        return 1 << self.size.cell_id(cell)

    def cells(self, mask: int) -> list[Cell]:
        """The cells of a mask, row by row."""
        return [self.size.cell_at(i) for i in range(self.n) if mask >> i & 1]

    def images(self, layouts: Layouts) -> list[Layouts]:
        """The layout set under every symmetry but the identity (unsorted)."""
        result = []
        for tables in self.chunk_tables:
            result.append(tuple(_apply(tables, mask) for mask in layouts))
        return result

    def canonical(self, layouts: Layouts) -> Layouts:
        """The smallest image of a sorted layout set under the board's symmetries."""
        best = layouts
        candidates = [image for image in self.images(layouts) if min(image) <= best[0]]
        for image in candidates:  # pruned: most images lose on their smallest element
            image = tuple(sorted(image))
            if image < best:
                best = image
        return best

    def canonical_state(self, living: int, layouts: Layouts) -> tuple[int, Layouts]:
        """The smallest image of a search state (living cells, sorted layouts) under the board's symmetries:
        the smallest image of the living cells first, then of the layouts."""
        best = (living, layouts)
        for tables in self.chunk_tables:
            image = _apply(tables, living)
            if image > best[0]:  # most symmetries lose on the living cells alone
                continue
            candidate = (image, tuple(sorted(_apply(tables, mask) for mask in layouts)))
            if candidate < best:
                best = candidate
        return best

    def orbits(self) -> list[list[Cell]]:
        """The cells grouped by symmetry, each orbit sorted row by row, orbits by first cell."""
        seen, orbits = set(), []
        for i in range(self.n):
            if i not in seen:
                orbit = sorted({perm[i] for perm in self.symmetries})
                seen.update(orbit)
                orbits.append([self.size.cell_at(j) for j in orbit])
        return orbits


class CellGraph(Geometry):
    """The geometry of any cells joined by any neighbour relation, without symmetries: what the engines
    search when a position is cut down to the cells that still matter (``minelib.endgame.EndgameSearch``).
    Cell i of the graph is cell i of a one-row board, for the methods that name cells."""

    def __init__(self, neighbours: list[int]):
        self.n = len(neighbours)
        self.size = BoardSize(1, max(self.n, 1))
        self.full = (1 << self.n) - 1
        self.neighbours = list(neighbours)
        self.symmetries = [tuple(range(self.n))]
        self.chunk_tables = []


def _symmetries(size: BoardSize) -> list[tuple[int, ...]]:
    """Cell permutations of the rectangle (4) or the square (8); the identity first."""
    h, w = size.height, size.width
    maps = [
        lambda y, x: (y, x),
        lambda y, x: (h - 1 - y, x),
        lambda y, x: (y, w - 1 - x),
        lambda y, x: (h - 1 - y, w - 1 - x),
    ]
    if h == w:
        maps += [
            lambda y, x: (x, y),
            lambda y, x: (w - 1 - x, y),
            lambda y, x: (x, h - 1 - y),
            lambda y, x: (w - 1 - x, h - 1 - y),
        ]
    perms = {tuple(size.cell_id(f(*size.cell_at(i))) for i in range(size.n_cells)) for f in maps}
    identity = tuple(range(size.n_cells))
    return [identity] + sorted(perms - {identity})


def _chunk_tables(perm: tuple[int, ...]) -> list[list[int]]:
    """For each 8-bit chunk of a mask, the image of every chunk value under ``perm``."""
    tables = []
    for start in range(0, len(perm), 8):
        bits = perm[start : start + 8]
        tables.append([sum(1 << bits[k] for k in range(len(bits)) if v >> k & 1) for v in range(1 << len(bits))])
    return tables


def _apply(tables: list[list[int]], mask: int) -> int:
    image = 0
    for table in tables:
        image |= table[mask & 0xFF]
        mask >>= 8
    return image


BITMASK_CELLS = 63  # the compiled engine keeps layouts in int64: boards of at most this many cells
SOLVER_LAYOUTS = 3_000_000  # the most layouts an exact search may start from (memory)


def check_layout_count(count: int, what: str) -> None:
    """Raise ValueError when a search would start from more layouts than the solver can hold."""
    if count > SOLVER_LAYOUTS:
        raise ValueError(
            f"{what} has {count:.3g} possible layouts; the exact solver starts from at most "
            f"{SOLVER_LAYOUTS:,} (try a smaller board or fewer mines)"
        )


def consistent_layouts(board: Board, mines: int, geometry: Geometry) -> Layouts:
    """Every layout (flags included) consistent with a position, as sorted bitmasks.

    The cells next to numbers are assigned one by one, a branch dropped as soon as
    a number can no longer be met; the cells next to no number then take the
    mines left in every way. The work follows the layouts that exist, not every
    placement of the mines.
    """
    count = analyze(board, mines).count  # raises a clear ImpossiblePosition if nothing fits
    check_layout_count(count, "the position")
    size, around = geometry.size, geometry.neighbours
    unopened = [size.cell_id(c) for c in board.unopened_cells()]
    hidden = sum(1 << i for i in unopened)
    flags = sum(geometry.bit(c) for c in board.mine_cells())
    # only the numbers next to an unopened cell constrain the layouts (analyze checked the others)
    numbers = [(c, around[c]) for c in map(size.cell_id, board.number_cells()) if around[c] & hidden]
    need = [int(board.values.flat[c]) - (mask & flags).bit_count() for c, mask in numbers]
    room = [(mask & hidden).bit_count() for _, mask in numbers]
    touching: dict[int, list[int]] = defaultdict(list)
    for r, (_, mask) in enumerate(numbers):
        cells = mask & hidden
        while cells:
            low = cells & -cells
            touching[low.bit_length() - 1].append(r)
            cells ^= low
    frontier = sorted(touching)
    interior = [i for i in unopened if i not in touching]
    left = mines - flags.bit_count()
    layouts: list[int] = []

    def assign(j: int, mask: int, left: int) -> None:
        if j == len(frontier):
            if left <= len(interior):
                layouts.extend(mask | sum(1 << i for i in combo) for combo in combinations(interior, left))
            return
        rows = touching[frontier[j]]
        for r in rows:
            room[r] -= 1
        if left and all(need[r] > 0 for r in rows):
            for r in rows:
                need[r] -= 1
            assign(j + 1, mask | 1 << frontier[j], left - 1)
            for r in rows:
                need[r] += 1
        if all(room[r] >= need[r] for r in rows):
            assign(j + 1, mask, left)
        for r in rows:
            room[r] += 1

    assign(0, flags, left)
    assert len(layouts) == count, "the enumeration must find every layout analyze counts"
    return tuple(sorted(layouts))


def local_layouts(board: Board, mines: int, cells: list[int] | np.ndarray, count: int) -> np.ndarray:
    """``consistent_layouts`` in compiled code, on the board's unopened cells (at most
    ``BITMASK_CELLS``): bit k of a layout is ``cells[k]`` (the unopened cell ids, row by row), flags
    left out (every layout has them). ``count``: the position's layouts (``analyze``'s count); sorted."""
    values, cells, left = _local_arguments(board, mines, cells)
    found, out = _local(values, *neighbour_table(board.size), cells, left, count)
    _check_enumerated(found, count)
    return out


def endgame_start(
    board: Board, mines: int, cells: np.ndarray, count: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``local_layouts`` and ``undecided_graph`` of them in one compiled call, what a fresh endgame search
    starts from: (the layouts on ``cells``, the undecided cells, the layouts on those, their graph)."""
    values, cells, left = _local_arguments(board, mines, cells)
    found, out, undecided, cut, masks = _local_graph(values, *neighbour_table(board.size), cells, left, count)
    _check_enumerated(found, count)
    return out, undecided, cut, masks


def _local_arguments(board: Board, mines: int, cells: list[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """The board's values, the cells as an array and the mines left to place on them (checked to fit)."""
    if len(cells) > BITMASK_CELLS:
        raise ValueError(f"{len(cells)} unopened cells do not fit in a {BITMASK_CELLS}-bit layout")
    values = board.values.ravel()
    return values, np.asarray(cells, np.int64), mines - int(np.count_nonzero(values == MINE))


def _check_enumerated(found: int, count: int) -> None:
    """Raise unless a compiled enumeration found ``count`` layouts (``found``: past it, ``count + 1``)."""
    if found != count:
        raise AssertionError(
            f"the enumeration found {found if found < count else 'more'} layouts where analyze counts {count}"
        )


@njit(cache=True, nogil=True)
def _local(values, table, number_of, cells, left, count):
    rows, need = _rows(values, table, number_of, cells)
    out = np.empty(count, np.int64)
    found = _enumerate(rows, need, len(cells), left, out)
    out.sort()
    return found, out


@njit(cache=True, nogil=True)
def _local_graph(values, table, number_of, cells, left, count):
    found, out = _local(values, table, number_of, cells, left, count)
    if found != count:  # (the caller raises)
        return found, out, cells[:0], out[:0], out[:0]
    undecided, cut, masks = undecided_graph(out, cells, table, number_of, len(values))
    return found, out, undecided, cut, masks


@njit(cache=True, nogil=True)
def moved_bits(masks, targets):
    """Each of ``masks`` with its bit k moved to bit ``targets[k]`` (left out where that is -1), sorted."""
    out = np.zeros(len(masks), np.int64)
    for j in range(len(masks)):
        m = masks[j]
        image = np.int64(0)
        for k in range(len(targets)):
            if targets[k] >= 0 and m >> k & 1:
                image |= np.int64(1) << targets[k]
        out[j] = image
    out.sort()
    return out


@njit(cache=True, nogil=True)
def undecided_graph(local, cells, table, number_of, n_cells):
    """From layouts on ``cells`` (bit k: ``cells[k]``; ``local_layouts``): the undecided cells (a mine in
    not every layout), in the order given; the layouts moved onto them (bit g: the g-th undecided cell),
    sorted; and each undecided cell's neighbours among them, a mask of the same bits. What an endgame
    search of a position's undecided cells starts from (``minelib.endgame``), in one compiled call."""
    always = np.int64(-1)
    for m in local:
        always &= m
    graph = np.full(n_cells, -1, np.int64)
    targets = np.full(len(cells), -1, np.int64)
    undecided = np.empty(len(cells), np.int64)
    u = 0
    for k in range(len(cells)):
        if not always >> k & 1:
            targets[k] = u
            undecided[u] = cells[k]
            graph[cells[k]] = u
            u += 1
    masks = np.zeros(u, np.int64)
    for g in range(u):
        c = undecided[g]
        for j in range(number_of[c]):
            d = graph[table[c, j]]
            if d >= 0:
                masks[g] |= np.int64(1) << d
    return undecided[:u], moved_bits(local, targets), masks


@njit(cache=True, nogil=True)
def _rows(values, table, number_of, cells):
    """For every number next to one of ``cells`` (cell ids; bit k is ``cells[k]``), ascending: the
    mask of its neighbours among them, and the mines it still needs (its value less its flags)."""
    local = np.full(len(values), -1, np.int64)
    for k in range(len(cells)):
        local[cells[k]] = k
    seen = np.zeros(len(values), np.bool_)
    for k in range(len(cells)):
        for j in range(number_of[cells[k]]):
            c = table[cells[k], j]
            if values[c] >= 0:
                seen[c] = True
    numbers = np.flatnonzero(seen)
    rows = np.zeros(len(numbers), np.int64)
    need = np.empty(len(numbers), np.int64)
    for r in range(len(numbers)):
        c = numbers[r]
        need[r] = values[c]
        for j in range(number_of[c]):
            d = table[c, j]
            if local[d] >= 0:
                rows[r] |= np.int64(1) << local[d]
            elif values[d] == MINE:
                need[r] -= 1
    return rows, need


@njit(cache=True, nogil=True)
def _enumerate(rows, need, n, left, out):
    """Every set of cells among n holding ``left`` mines with ``need[r]`` in each ``rows[r]`` (a
    mask), into ``out``; returns how many. The cells in some row are decided one by one (a branch
    dropped as soon as a row can no longer be met), the others take the mines left in every way."""
    m = rows.size
    frontier = np.empty(n, np.int64)
    interior = np.empty(n, np.int64)
    f = i = 0
    for k in range(n):
        touched = False
        for r in range(m):
            if rows[r] >> k & 1:
                touched = True
        if touched:
            frontier[f] = k
            f += 1
        else:
            interior[i] = k
            i += 1
    room = np.zeros(m, np.int64)
    for r in range(m):
        for k in range(n):
            room[r] += rows[r] >> k & 1
    need = need.copy()
    stage = np.zeros(f + 1, np.int64)  # 0: enter the cell, 1: its mine branch done, 2: both done
    mine = np.zeros(f + 1, np.bool_)  # whether the cell took the mine branch
    pick = np.empty(n + 1, np.int64)
    found = 0
    mask = 0
    j = 0
    while j >= 0:
        if j == f:  # every frontier cell decided: the interior takes what is left, in every way
            if 0 <= left <= i:
                for t in range(left):
                    pick[t] = t
                while True:
                    if found == out.size:  # more than the room given: the caller's count is wrong
                        return found + 1
                    layout = mask
                    for t in range(left):
                        layout |= np.int64(1) << interior[pick[t]]
                    out[found] = layout
                    found += 1
                    t = left - 1
                    while t >= 0 and pick[t] == i - left + t:
                        t -= 1
                    if t < 0:
                        break
                    pick[t] += 1
                    for u in range(t + 1, left):
                        pick[u] = pick[u - 1] + 1
            j -= 1
            continue
        bit = np.int64(1) << frontier[j]
        if stage[j] == 0:
            ok = left > 0
            for r in range(m):
                if rows[r] & bit:
                    room[r] -= 1
                    if need[r] <= 0:
                        ok = False
            stage[j], mine[j] = 1, ok
            if ok:
                for r in range(m):
                    if rows[r] & bit:
                        need[r] -= 1
                mask |= bit
                left -= 1
                j += 1
                stage[j] = 0
                continue
        if stage[j] == 1:
            if mine[j]:
                for r in range(m):
                    if rows[r] & bit:
                        need[r] += 1
                mask &= ~bit
                left += 1
            stage[j] = 2
            ok = True
            for r in range(m):
                if rows[r] & bit and room[r] < need[r]:
                    ok = False
            if ok:
                j += 1
                stage[j] = 0
                continue
        for r in range(m):
            if rows[r] & bit:
                room[r] += 1
        j -= 1
    return found


__all__ = [
    "BITMASK_CELLS",
    "SOLVER_LAYOUTS",
    "CellGraph",
    "Geometry",
    "Layouts",
    "check_layout_count",
    "consistent_layouts",
    "endgame_start",
    "local_layouts",
    "moved_bits",
    "undecided_graph",
]
