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

from minelib.analysis import analyze
from minelib.board import Board, BoardSize, Cell

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
    search when a position is cut down to the cells that still matter (``minelib.optimal.EndgameSearch``).
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


__all__ = [
    "BITMASK_CELLS",
    "SOLVER_LAYOUTS",
    "CellGraph",
    "Geometry",
    "Layouts",
    "check_layout_count",
    "consistent_layouts",
]
