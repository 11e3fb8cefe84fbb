"""The game engine: seeded random games, first-click rules, opening and flagging.

Article 003's experiments play seeded games with the ``zero`` rule (the first
click and its neighbours are mine-free, the first click at a random cell). Three
rules are offered (``FIRST_CLICK_RULES``, the one list the optimal solver, the
tables, the command line and the explorer use too):

- ``zero``: the first click and its neighbours are mine-free;
- ``safe``: the first click is mine-free, mines uniform over the other cells;
- ``none``: mines uniform over the board; the first click may lose.

A seeded game places its mines at the first click (the rule depends on where it
is). A fixed layout can be loaded from a picture (``*`` mine, ``.`` safe) to
replay datasets. Cells are ``(y, x)``; inside, the engine uses flat cell ids and
plain lists, and opens a zero's region in compiled code (``reveal``, which the
players' compiled one-number rules use too: ``minelib.sweep``).
"""

from __future__ import annotations

from functools import lru_cache
from operator import countOf

import numpy as np
from numba import njit

from minelib.board import MINE, UNOPENED, Board, BoardSize, Cell

FIRST_CLICK_RULES = ("none", "safe", "zero")  # the one list: game, optimal solver, tables, CLI, explorer
FIRST_CELLS = ("random", "corner", "center")  # where a player's first click goes
PLAYING, WON, LOST = "playing", "won", "lost"


@lru_cache(maxsize=64)
def neighbour_ids(size: BoardSize) -> tuple[tuple[int, ...], ...]:
    """For every cell id, the ids of its neighbours."""
    return tuple(tuple(size.cell_id(n) for n in size.neighbours(c)) for c in size.cells())


@lru_cache(maxsize=64)
def neighbour_table(size: BoardSize) -> tuple[np.ndarray, np.ndarray]:
    """``neighbour_ids`` as arrays for compiled code: a row of 8 ids per cell (padded with -1), and
    how many each cell has."""
    ids = neighbour_ids(size)
    table = np.full((size.n_cells, 8), -1, np.int32)
    for c, around in enumerate(ids):
        table[c, : len(around)] = around
    count = np.array([len(around) for around in ids], np.int32)
    table.setflags(write=False)
    count.setflags(write=False)
    return table, count


@njit(cache=True, nogil=True)
def reveal(values, numbers, table, count, start, opened, n_opened, stack):
    """Open ``start`` (unopened and safe) and, through zeros, its region: each cell is set to its
    number in ``values`` and appended to ``opened`` after its ``n_opened`` cells; returns the new
    length. The cells come in the order of ``Game.open_id``'s stack (``stack``: room for 8 per cell)."""
    stack[0] = start
    top = 1
    while top > 0:
        top -= 1
        c = stack[top]
        if values[c] != UNOPENED:
            continue
        values[c] = numbers[c]
        opened[n_opened] = c
        n_opened += 1
        if numbers[c] == 0:
            for k in range(count[c]):
                n = table[c, k]
                if values[n] == UNOPENED:
                    stack[top] = n
                    top += 1
    return n_opened


@njit(cache=True, nogil=True)
def _numbers_shown(mine, table, count):
    """For a layout (``mine``, row by row): every cell's number, and what it shows settled (its number,
    MINE for a mine), as int8: what ``neighbour_sums`` and a ``where`` gave in five numpy calls."""
    n = len(mine)
    numbers = np.zeros(n, np.int8)
    shown = np.empty(n, np.int8)
    for c in range(n):
        around = 0
        for k in range(count[c]):
            around += mine[table[c, k]]
        numbers[c] = around
        shown[c] = MINE if mine[c] else around
    return numbers, shown


_warm = False


def warm_up() -> None:
    """Load the compiled ``reveal`` now (numba loads it on its first call in a process): a player that
    calls no other compiled code (the ZDD player) would pay for it inside its first timed game."""
    global _warm
    if not _warm:
        _warm = True
        Game("1x3", 1, "none", layout=np.array([[False, False, True]])).open((0, 0))  # a zero: reveal runs


@lru_cache(maxsize=64)
def _most_neighbours(size: BoardSize) -> int:
    return max(len(n) for n in neighbour_ids(size))


ALLOWED_CACHED = 1024  # boards of at most this many cells keep their allowed cells (at most 1024 arrays of them: 8 MB)


def allowed_cells(size: BoardSize, rule: str, first: int) -> np.ndarray:
    """The cell ids the first-click ``rule`` lets hold a mine, the first click on cell id ``first``, in order
    (read-only). On boards of at most ``ALLOWED_CACHED`` cells each is made once per process, since every game
    deals from them (a few microseconds a game); a random first click on a bigger board rarely comes again."""
    if size.n_cells <= ALLOWED_CACHED:
        return _allowed_cells(size, rule, first)
    return _allowed_cells.__wrapped__(size, rule, first)


@lru_cache(maxsize=1024)
def _allowed_cells(size: BoardSize, rule: str, first: int) -> np.ndarray:
    banned = {first, *neighbour_ids(size)[first]} if rule == "zero" else {first} if rule == "safe" else set()
    allowed = np.delete(np.arange(size.n_cells), sorted(banned))
    allowed.setflags(write=False)
    return allowed


def deal(size: BoardSize, mines: int, rule: str, first: int, rng: np.random.Generator) -> np.ndarray:
    """The layout a game places at its first click on cell id ``first`` (True: a mine), drawn with ``rng``
    uniformly among those the first-click ``rule`` allows: what the first click shows can be read from
    it without playing the game."""
    allowed = allowed_cells(size, rule, first)
    layout = np.zeros(size.n_cells, dtype=bool)
    layout[allowed[rng.choice(allowed.size, mines, replace=False)]] = True
    return layout.reshape(size.height, size.width)


def first_cell(size: BoardSize | str, where: str, rng: np.random.Generator | None = None) -> Cell:
    """The first click: ``corner`` (0, 0), ``center``, ``random`` (seeded by rng), or a cell
    written ``ROW,COL`` (the records' settings: ``0,0``, ``3,3``, ``2,2``)."""
    size = BoardSize.of(size)
    if where == "corner":
        return (0, 0)
    if where == "center":
        return (size.height // 2, size.width // 2)
    if where == "random":
        if rng is None:
            raise ValueError("a random first click needs a random generator")
        return (int(rng.integers(size.height)), int(rng.integers(size.width)))
    parts = where.split(",")
    if len(parts) == 2 and all(part.strip().isdigit() for part in parts):
        cell = (int(parts[0]), int(parts[1]))
        size.check(cell, "first click")
        return cell
    raise ValueError(f"unknown first click {where!r} (expected one of {', '.join(FIRST_CELLS)}, or ROW,COL)")


def check_first_cell(size: BoardSize | str, where: str) -> None:
    """Raise ValueError unless ``where`` names a first click on a board of this size (see ``first_cell``)."""
    first_cell(size, where, np.random.default_rng(0))


def check_first_click(rule: str) -> None:
    """Raise ValueError unless ``rule`` is one of ``FIRST_CLICK_RULES``."""
    if rule not in FIRST_CLICK_RULES:
        raise ValueError(f"unknown first-click rule {rule!r} (expected one of {', '.join(FIRST_CLICK_RULES)})")


def check_rule(size: BoardSize | str, mines: int, rule: str) -> None:
    """Raise ValueError unless ``mines`` mines fit on ``size`` under first-click ``rule``."""
    size = BoardSize.of(size)
    check_first_click(rule)
    if not isinstance(mines, (int, np.integer)) or mines < 0:
        raise ValueError(f"the number of mines must be a non-negative integer, got {mines!r}")
    kept_free = {"none": 0, "safe": 1, "zero": 1 + _most_neighbours(size)}[rule]
    if mines > size.n_cells - kept_free:
        raise ValueError(
            f"{mines} mines do not fit on {size} with the {rule!r} first-click rule "
            f"(at most {max(size.n_cells - kept_free, 0)})"
        )


def mines_for_density(size: BoardSize | str, density: float) -> int:
    """The mine count for a density in (0, 1), rounded to the nearest integer."""
    size = BoardSize.of(size)
    if not 0 < density < 1:
        raise ValueError(f"mine density must lie strictly between 0 and 1, got {density!r}")
    return round(size.n_cells * density)


def parse_layout(text: str) -> np.ndarray:
    """A boolean mine layout from a picture: one line per row, ``*`` a mine, ``.`` safe."""
    rows = [line.strip() for line in text.strip().splitlines()]
    if not rows or not rows[0]:
        raise ValueError("empty layout picture")
    for i, row in enumerate(rows):
        if len(row) != len(rows[0]):
            raise ValueError(f"layout row {i} has {len(row)} cells, expected {len(rows[0])}")
        for j, char in enumerate(row):
            if char not in "*.":
                raise ValueError(f"layout row {i} column {j}: unexpected {char!r} (use '*' or '.')")
    return np.array([[char == "*" for char in row] for row in rows], dtype=bool)


def layout_picture(layout: np.ndarray) -> str:
    """The picture of a layout (``*`` mine, ``.`` safe)."""
    return "\n".join("".join("*" if m else "." for m in row) for row in layout)


class Game:
    """One game of Minesweeper: a hidden layout, the player's view, and the status."""

    def __init__(
        self, size: BoardSize | str, mines: int, first_click: str = "zero", seed=None, layout: np.ndarray | None = None
    ):
        size = BoardSize.of(size)
        check_rule(size, mines, first_click)
        self.size, self.mines, self.first_click = size, int(mines), first_click
        self._rng = np.random.default_rng(seed)
        self._values = [UNOPENED] * size.n_cells
        self._mine: list[bool] | None = None
        self._mine_array: np.ndarray | None = None  # the same, for compiled code
        self._numbers: list[int] | None = None
        self._numbers_array: np.ndarray | None = None  # the same, for compiled code
        self._shown: np.ndarray | None = None
        self.first: Cell | None = None
        self.status, self.opened, self.flags = PLAYING, 0, 0
        if layout is not None:
            self._place(np.asarray(layout, dtype=bool))

    @classmethod
    def from_picture(cls, text: str, first_click: str = "none") -> Game:
        """A game on a fixed layout (``*`` mine, ``.`` safe); the rule is only checked at the first click."""
        layout = parse_layout(text)
        size = BoardSize(*layout.shape)
        return cls(size, int(layout.sum()), "none", layout=layout)._with_rule(first_click)

    @classmethod
    def showing(cls, board: Board, mines: int) -> Game:
        """A game whose view is ``board``, with no layout behind it: for asking a solver
        what it would do in a position (checked by ``analyze``); it cannot be opened."""
        from minelib.analysis import analyze

        analyze(board, mines)
        game = cls(board.size, mines, "none")
        game._values = board.values.ravel().astype(int).tolist()
        game.opened = int((board.values >= 0).sum())
        game.flags = int((board.values == MINE).sum())
        game.first = (0, 0)
        game._mine = game._mine_array = None
        return game

    def _with_rule(self, rule: str) -> Game:
        check_first_click(rule)
        self.first_click = rule
        return self

    def _place(self, layout: np.ndarray) -> None:
        if layout.shape != (self.size.height, self.size.width) or int(layout.sum()) != self.mines:
            raise ValueError(f"the layout must be {self.size} with {self.mines} mines")
        flat = layout.ravel()
        self._mine, self._mine_array = flat.tolist(), flat.copy()
        self._numbers_array, self._shown = _numbers_shown(flat, *neighbour_table(self.size))  # each cell, settled
        self._numbers = self._numbers_array.tolist()

    def _place_at_random(self, first: int) -> None:
        self._place(deal(self.size, self.mines, self.first_click, first, self._rng))

    # --- what the player sees -------------------------------------------------

    @property
    def values(self) -> np.ndarray:
        """The player's view as board values (UNOPENED, MINE for a flag, or a number)."""
        return np.array(self._values, dtype=np.int8).reshape(self.size.height, self.size.width)

    @property
    def board(self) -> Board:
        """The player's view as a Board (flags are taken as known mines)."""
        return Board(self.values)

    @property
    def mines_left(self) -> int:
        """Mines not yet flagged (negative if the player flagged too many)."""
        return self.mines - self.flags

    @property
    def over(self) -> bool:
        return self.status != PLAYING

    def value(self, cell: Cell) -> int:
        """What the player sees at ``cell``."""
        return self._values[self._id(cell)]

    def layout(self) -> np.ndarray:
        """The mine layout (only once the game is over, or for a fixed layout)."""
        if self._mine is None:
            raise ValueError("the mines are placed at the first click")
        return np.array(self._mine, dtype=bool).reshape(self.size.height, self.size.width)

    # --- moves ----------------------------------------------------------------

    def _id(self, cell: Cell) -> int:
        self.size.check(cell)
        return self.size.cell_id(cell)

    def open(self, cell: Cell) -> list[Cell]:
        """Open ``cell`` (a zero opens its region); the cells opened. Opening a mine loses."""
        return [self.size.cell_at(i) for i in self.open_id(self._id(cell))]

    def open_id(self, start: int) -> list[int]:
        """``open`` by cell id, returning ids."""
        if self.over:
            raise ValueError(f"the game is over ({self.status})")
        if self._values[start] == MINE:
            raise ValueError(f"cell {self.size.cell_at(start)} is flagged; unflag it first")
        if self._values[start] != UNOPENED:
            return []
        if self.first is None:
            self.first = self.size.cell_at(start)
            if self._mine is None:
                self._place_at_random(start)
            elif not self._rule_holds(start):
                raise ValueError(f"the first click {self.first} breaks the {self.first_click!r} rule on this layout")
        if self._mine is None or self._numbers is None:
            raise ValueError("this game only shows a position; it has no mines to open")
        if self._mine[start]:
            self.status = LOST
            return []
        values, numbers = self._values, self._numbers
        if numbers[start]:
            values[start] = numbers[start]
            opened = [start]
        else:  # a region: opened in compiled code on arrays of the view
            view, n = self._view_array(), self.size.n_cells
            found, stack = np.empty(n, np.int32), np.empty(8 * n + 1, np.int32)
            k = reveal(view, self._numbers_array, *neighbour_table(self.size), start, found, 0, stack)
            opened = found[:k].tolist()
            for c in opened:
                values[c] = numbers[c]
        self.opened += len(opened)
        if self.opened == self.size.n_cells - self.mines:
            self.status = WON
        return opened

    def _view_array(self) -> np.ndarray:
        """The player's view as a flat int8 array, for compiled code (made, not converted, while nothing
        is open or flagged: at a first click, and when a player starts)."""
        if self.opened == self.flags == 0:
            return np.full(self.size.n_cells, UNOPENED, np.int8)
        return np.array(self._values, np.int8)

    def take_swept(self, values: np.ndarray, changed: np.ndarray | list[int]) -> None:
        """Take over the cells a compiled sweep opened or flagged (``minelib.sweep``): ``values`` is
        the view it played on, ``changed`` the cells it changed (certain moves: never a mine; an array,
        as the sweep keeps them, or a list)."""
        if self.over:
            raise ValueError(f"the game is over ({self.status})")
        shown = self._shown
        assert shown is not None, "a sweep opens only after the first click"
        index = np.asarray(changed, np.int64)
        new, cells = values[index], index.tolist()
        if countOf(map(self._values.__getitem__, cells), UNOPENED) != len(cells) or not np.array_equal(
            new, shown[index]
        ):
            bad = next(i for i, c in enumerate(cells) if self._values[c] != UNOPENED or new[i] != shown[c])
            raise ValueError(f"a sweep may not change cell {self.size.cell_at(cells[bad])} to {new[bad]}")
        for c, v in zip(cells, new.tolist()):
            self._values[c] = v
        flags = int(np.count_nonzero(new == MINE))
        self.flags += flags
        self.opened += len(cells) - flags
        if self.opened == self.size.n_cells - self.mines:
            self.status = WON

    def _rule_holds(self, first: int) -> bool:
        assert self._mine is not None and self._numbers is not None, "the layout is placed"
        if self.first_click == "zero":
            return not self._mine[first] and self._numbers[first] == 0
        return self.first_click == "none" or not self._mine[first]

    def flag(self, cell: Cell) -> bool:
        """Toggle a flag on an unopened cell; whether it is flagged now."""
        return self.flag_id(self._id(cell))

    def flag_id(self, c: int) -> bool:
        """``flag`` by cell id."""
        if self.over:
            raise ValueError(f"the game is over ({self.status})")
        if self._values[c] >= 0:
            raise ValueError(f"cell {self.size.cell_at(c)} is open and cannot be flagged")
        flagged = self._values[c] == UNOPENED
        self._values[c] = MINE if flagged else UNOPENED
        self.flags += 1 if flagged else -1
        return flagged

    def first_click_cells(self) -> list[Cell]:
        """The cells a first click may use on a fixed layout under this game's rule."""
        if self._mine is None:
            return self.size.cells()
        return [self.size.cell_at(c) for c in range(self.size.n_cells) if self._rule_holds(c)]

    def __repr__(self) -> str:
        return (
            f"Game({self.size}, mines={self.mines}, first_click={self.first_click!r}, "
            f"status={self.status!r}, opened={self.opened})"
        )


__all__ = [
    "FIRST_CELLS",
    "FIRST_CLICK_RULES",
    "LOST",
    "PLAYING",
    "WON",
    "Game",
    "allowed_cells",
    "check_first_cell",
    "check_first_click",
    "check_rule",
    "deal",
    "first_cell",
    "layout_picture",
    "mines_for_density",
    "neighbour_ids",
    "parse_layout",
]
