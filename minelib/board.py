"""The board model of article 000 (first half): size, cells, value codes, masks,
a plain text format, and the board-to-constraint-system conversion (X, y).

Cells are ``(y, x)`` tuples, ``(0, 0)`` top left, as in the article. A board's
values are a small integer array: ``UNOPENED`` (-1), ``MINE`` (-10, a known mine
or flag; the article's TARGET) or an opened number 0-8.

The text format has one line per row: ``.`` unopened, ``0``-``8`` an opened
number, ``F`` a known mine (flag)::

    ..1F
    ..11
    ..00
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np

Cell = tuple[int, int]

UNOPENED = -1
MINE = -10

_CHAR_TO_VALUE = {".": UNOPENED, "F": MINE, **{str(n): n for n in range(9)}}
_VALUE_TO_CHAR = {value: char for char, value in _CHAR_TO_VALUE.items()}
_OFFSETS = [(dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0)]
_NOT_A_VALUE = 127
_CODE_OF_BYTE = np.full(256, _NOT_A_VALUE, np.int8)  # parses a whole board at once
for _char, _value in _CHAR_TO_VALUE.items():
    _CODE_OF_BYTE[ord(_char)] = _value
_IS_VALUE = np.zeros(256, bool)  # indexed by value + 128
_IS_VALUE[[value + 128 for value in _VALUE_TO_CHAR]] = True


@dataclass(frozen=True)
class BoardSize:
    """The height and width of a rectangular board."""

    height: int
    width: int

    def __post_init__(self):
        for name in ("height", "width"):
            value = getattr(self, name)
            if not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"board {name} must be a positive integer, got {value!r}")

    @classmethod
    def of(cls, size: BoardSize | str) -> BoardSize:
        """A size given as a BoardSize or as ``HxW`` text: what every function taking a board size accepts."""
        return size if isinstance(size, BoardSize) else cls.parse(size)

    @classmethod
    def parse(cls, text: str) -> BoardSize:
        """The size written as ``HxW`` (e.g. ``16x30``)."""
        parts = text.lower().split("x")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise ValueError(f"board size must look like HxW (e.g. 16x30), got {text!r}")
        return cls(int(parts[0]), int(parts[1]))

    def __str__(self) -> str:
        return f"{self.height}x{self.width}"

    @property
    def n_cells(self) -> int:
        """The number of cells."""
        return self.height * self.width

    def cells(self) -> list[Cell]:
        """Every cell, row by row."""
        return [(y, x) for y in range(self.height) for x in range(self.width)]

    def __contains__(self, cell: Cell) -> bool:
        y, x = cell
        return 0 <= y < self.height and 0 <= x < self.width

    def check(self, cell: Cell, what: str = "cell") -> None:
        """Raise ValueError unless ``cell`` lies on the board (indexing would take a negative row or
        column for a cell from the other side)."""
        if (cell[0], cell[1]) not in self:
            raise ValueError(f"{what} {tuple(cell)} is outside the {self} board")

    def neighbours(self, cell: Cell) -> list[Cell]:
        """The up to eight cells around ``cell`` that lie on the board."""
        y, x = cell
        return [(y + dy, x + dx) for dy, dx in _OFFSETS if (y + dy, x + dx) in self]

    def cell_id(self, cell: Cell) -> int:
        """The cell's index in row-by-row order."""
        return cell[0] * self.width + cell[1]

    def cell_at(self, cell_id: int) -> Cell:
        """The cell with index ``cell_id`` in row-by-row order."""
        return divmod(cell_id, self.width)


@lru_cache(maxsize=64)
def _neighbour_counts(shape: tuple[int, int]) -> np.ndarray:
    """How many neighbours every cell of a board of this shape has."""
    return neighbour_sums(np.ones(shape, dtype=bool))


def neighbour_sums(mask: np.ndarray) -> np.ndarray:
    """For every cell, how many of its (up to 8) neighbours are set in ``mask`` (int32).

    The 3x3 box sums in two passes, three columns then three rows, less the cell itself: the
    players call this at every guess, and this form takes a quarter of the time of eight shifted
    sums of a padded copy."""
    height, width = mask.shape
    padded = np.zeros((height + 2, width + 2), dtype=np.int32)
    padded[1:-1, 1:-1] = mask
    rows = padded[:, :-2] + padded[:, 1:-1] + padded[:, 2:]
    return rows[:-2] + rows[1:-1] + rows[2:] - padded[1:-1, 1:-1]


@lru_cache(maxsize=64)
def _size_of(shape: tuple[int, ...]) -> BoardSize:
    return BoardSize(*shape)


def _is_int8(values) -> bool:
    return isinstance(values, np.ndarray) and values.dtype == np.int8  # (the game's own views: no check to pay)


def _as_int8(values) -> np.ndarray:
    """Any other values as int8, refusing what a cast would turn into another value: rows of different
    lengths, values that are not integers (1.5 would pass for 1), integers past int8 (300 for 44)."""
    try:
        raw = np.asarray(values)
    except ValueError:  # rows of different lengths
        raise ValueError("a board's rows must all have the same length") from None
    if raw.size and raw.dtype.kind not in "iu":
        raise ValueError(f"a board's values must be integers (-1, -10 or 0-8), got {raw.dtype} values")
    out = (raw < -128) | (raw > 127)
    if out.any():
        where = tuple(map(int, np.argwhere(out)[0]))
        raise ValueError(f"cell {where} has value {raw[where]}, expected -1, -10 or 0-8")
    return raw.astype(np.int8)


def _frozen(values: np.ndarray) -> np.ndarray:
    """``values`` read-only for good: a view of a read-only array of their own, which numpy refuses to
    make writable again. A board's values never change, and ``Analyzer`` recognises a board it has
    already checked by its values array alone."""
    if values.base is not None:  # a view: its owner could still be written through
        values = values.copy()
    values.setflags(write=False)
    return values.view()


class Board:
    """A position: what the player sees (unopened cells, numbers, known mines)."""

    __slots__ = ("values",)

    def __init__(self, values):
        values = np.array(values, dtype=np.int8) if _is_int8(values) else _as_int8(values)
        if values.ndim != 2 or values.size == 0:
            raise ValueError(f"a board needs at least one row and one column, got shape {values.shape}")
        bad = ~_IS_VALUE[values.astype(np.int16) + 128]
        if bad.any():
            y, x = map(int, np.argwhere(bad)[0])
            raise ValueError(f"cell ({y}, {x}) has value {values[y, x]}, expected -1, -10 or 0-8")
        too_big = values > _neighbour_counts(values.shape)
        if too_big.any():
            y, x = map(int, np.argwhere(too_big)[0])
            n = len(BoardSize(*values.shape).neighbours((y, x)))
            raise ValueError(f"cell ({y}, {x}) shows {values[y, x]} but has only {n} neighbours")
        self.values = _frozen(values)

    @classmethod
    def _valid(cls, values: np.ndarray) -> Board:
        """A board of values already checked (int8, two-dimensional, every value legal there)."""
        board = object.__new__(cls)
        board.values = _frozen(values)
        return board

    @classmethod
    def from_text(cls, text: str) -> Board:
        """Parse the text format (blank lines around the board are ignored)."""
        if not isinstance(text, str):
            raise TypeError(f"a board's text must be a str, got {type(text).__name__}")
        words = text.split()
        if words and all(len(word) == len(words[0]) for word in words) and text.isascii():  # parsed at once
            values = _CODE_OF_BYTE.take(np.frombuffer("".join(words).encode("ascii"), np.uint8))
            values = values.reshape(len(words), len(words[0]))
            # an unknown character (127) and a number above its neighbour count fail the same test
            if not (values > _neighbour_counts(values.shape)).any() and text.strip().count("\n") == len(words) - 1:
                return cls._valid(values)
        lines = [line.strip() for line in text.strip().splitlines()]
        if not lines or not lines[0]:
            raise ValueError("the board is empty")
        rows = []
        for number, line in enumerate(lines, start=1):
            if len(line) != len(lines[0]):
                raise ValueError(f"line {number} has {len(line)} cells, expected {len(lines[0])}")
            for column, char in enumerate(line, start=1):
                if char not in _CHAR_TO_VALUE:
                    raise ValueError(
                        f"line {number}, column {column}: unknown character {char!r} (expected '.', 'F' or a digit 0-8)"
                    )
            rows.append([_CHAR_TO_VALUE[char] for char in line])
        return cls(rows)

    @classmethod
    def unopened(cls, size: BoardSize | str) -> Board:
        """A board with every cell unopened."""
        size = BoardSize.of(size)
        return cls(np.full((size.height, size.width), UNOPENED))

    def to_text(self) -> str:
        """The board in the text format, one line per row."""
        return "\n".join("".join(_VALUE_TO_CHAR[v] for v in row) for row in self.values.tolist())

    __str__ = to_text

    def __repr__(self) -> str:
        return f"Board.from_text({self.to_text()!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Board) and np.array_equal(self.values, other.values)

    def __hash__(self) -> int:
        return hash((self.values.shape, self.values.tobytes()))

    @property
    def size(self) -> BoardSize:
        """The board's size."""
        return _size_of(self.values.shape)

    def with_value(self, cell: Cell, value: int) -> Board:
        """A copy of this board with one cell changed."""
        self.size.check(cell)
        values = self.values.copy()
        values[cell] = value
        return Board(values)

    # Masks (boolean arrays of the board's shape), in the article's vocabulary.
    def numbers_mask(self) -> np.ndarray:
        """Opened cells showing a number (the article's "info" cells)."""
        return self.values >= 0

    def mines_mask(self) -> np.ndarray:
        """Known mines (flags; the article's "target" cells)."""
        return self.values == MINE

    def unopened_mask(self) -> np.ndarray:
        """Unopened cells that are not known mines (the article's "unknown" cells)."""
        return self.values == UNOPENED

    def frontier_mask(self) -> np.ndarray:
        """Unopened cells with at least one number next to them."""
        return self.unopened_mask() & (neighbour_sums(self.numbers_mask()) > 0)

    def interior_mask(self) -> np.ndarray:
        """Unopened cells with no number next to them."""
        return self.unopened_mask() & (neighbour_sums(self.numbers_mask()) == 0)

    def cells_where(self, mask: np.ndarray) -> list[Cell]:
        """The cells set in ``mask``, row by row."""
        return [(y, x) for y, x in np.argwhere(mask).tolist()]

    def number_cells(self) -> list[Cell]:
        """Opened cells showing a number, row by row."""
        return self.cells_where(self.numbers_mask())

    def mine_cells(self) -> list[Cell]:
        """Known mines, row by row."""
        return self.cells_where(self.mines_mask())

    def unopened_cells(self) -> list[Cell]:
        """Unopened cells that are not known mines, row by row."""
        return self.cells_where(self.unopened_mask())


def mask_picture(mask: np.ndarray) -> str:
    """A boolean mask as text: ``#`` where set, ``.`` elsewhere."""
    return "\n".join("".join("#" if v else "." for v in row) for row in np.asarray(mask).tolist())


class Constraints(NamedTuple):
    """A counting problem built from a board: 0/1 matrix X, targets y, and the cell of each column."""

    X: np.ndarray
    y: np.ndarray
    cells: list[Cell]

    def equations(self) -> list[str]:
        """Each row as an equation over its cells, e.g. ``(0,1) + (1,1) = 0``."""
        lines = []
        for row, target in zip(self.X, self.y):
            seen = [f"({y},{x})" for (y, x), bit in zip(self.cells, row) if bit]
            lines.append(f"{' + '.join(seen) or '0'} = {target}")
        return lines


def check_mines(board: Board, mines: int) -> None:
    """Raise ValueError if ``mines`` cannot be the total mine count of ``board`` (TypeError if it is no
    board: every function that takes a position and a mine count checks them here)."""
    if not isinstance(board, Board):
        raise TypeError(f"a position must be a Board (or its text, where text is taken), got {type(board).__name__}")
    if isinstance(mines, bool) or not isinstance(mines, (int, np.integer)):
        raise ValueError(f"the mine count must be an integer, got {mines!r}")
    if not 0 <= mines <= board.values.size:
        raise ValueError(f"{mines} mines do not fit on a {board.size} board of {board.size.n_cells} cells")
    flags = int(np.count_nonzero(board.values == MINE))
    if flags > mines:
        raise ValueError(
            f"the board has {flags} flag{'s' * (flags != 1)} but only {mines} mine{'s' * (mines != 1)} in total"
        )


def to_constraints(board: Board, mines: int | None = None) -> Constraints:
    """Board to (X, y) as in article 000: one row per number, then the total-mine row.

    Columns are the unopened cells in row-by-row order. A number's target is its
    value less the known mines around it; the total row (present when ``mines`` is
    given) asks for the mines not yet flagged.
    """
    if mines is not None:
        check_mines(board, mines)
    unopened, numbers = board.unopened_mask(), board.numbers_mask()
    X = np.zeros((int(numbers.sum()) + (mines is not None), int(unopened.sum())), dtype=np.int32)
    X[: int(numbers.sum())] = incidence(numbers, unopened)
    y = np.zeros(len(X), dtype=np.int32)
    y[: int(numbers.sum())] = board.values[numbers] - neighbour_sums(board.mines_mask())[numbers]
    if mines is not None:
        X[-1, :] = 1
        y[-1] = mines - int(board.mines_mask().sum())
    return Constraints(X, y, board.cells_where(unopened))


def incidence(rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """The 0/1 matrix with a row per cell of mask ``rows`` and a column per cell of mask
    ``columns`` (both row by row), 1 where the two cells are neighbours."""
    column = np.full(columns.shape, -1)
    column[columns] = np.arange(int(columns.sum()))
    number_y, number_x = np.nonzero(rows)
    X = np.zeros((len(number_y), int(columns.sum())), dtype=np.int64)
    height, width = columns.shape
    for dy, dx in _OFFSETS:  # one pass per direction instead of one per row
        ny, nx = number_y + dy, number_x + dx
        inside = (ny >= 0) & (ny < height) & (nx >= 0) & (nx < width)
        seen = np.full(len(ny), -1)
        seen[inside] = column[ny[inside], nx[inside]]
        hit = np.flatnonzero(seen >= 0)
        X[hit, seen[hit]] = 1
    return X


__all__ = [
    "MINE",
    "UNOPENED",
    "Board",
    "BoardSize",
    "Cell",
    "Constraints",
    "check_mines",
    "incidence",
    "mask_picture",
    "neighbour_sums",
    "to_constraints",
]
