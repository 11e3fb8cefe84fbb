"""Exact win probability under optimal play, and the moves that achieve it.

Beyond article 000 (whose evaluators are in ``minelib.evaluators``, answering
with the same ``Result``). ``OptimalSolver`` asks the questions users ask (the
first click, a position, one move at a time) and holds an *engine* that does the
search over sets of mine layouts:

=============  =====================================  ==========================
engine         where                                  boards
=============  =====================================  ==========================
``python``     ``minelib.search.PythonEngine``        any (the reference)
``compiled``   ``minelib.kernel.CompiledEngine``      at most 63 cells (numba)
``auto``       compiled above ``AUTO_LAYOUTS``        starting layouts, if it fits
=============  =====================================  ==========================

Both engines have one method, ``click(layouts, i, opened) -> wins``, and the
counters ``solved`` and ``clears``; ``max_states`` bounds both memos alike.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Protocol

from minelib.board import Board, BoardSize, Cell, check_mines
from minelib.game import check_first_click
from minelib.layouts import (
    BITMASK_CELLS,
    Geometry,
    Layouts,
    check_layout_count,
    consistent_layouts,
)
from minelib.moves import at_least
from minelib.search import PythonEngine

# Players and the explorer ask position questions (symmetry off) only on boards this small:
# the geometry's tables grow with the board.
POSITION_CELLS = 100


@dataclass
class Result:
    """The exact answer for a board or a position (the optimal solver's, and the article's evaluators')."""

    probability: Fraction
    best_moves: list[Cell]  # every move of the highest value, row by row
    move_values: dict[Cell, Fraction]  # every candidate move's win probability
    states: int  # states solved (searched, not looked up)
    seconds: float
    layouts: int  # the layouts the probability is over: those of the position, or
    # those the first-click rule allows for the first best move

    def to_json(self) -> dict:
        """Every field, JSON-ready: probabilities as "p/q", moves as [y, x] pairs, move values by "y,x"."""
        return {
            "probability": str(self.probability),
            "best_moves": [list(c) for c in self.best_moves],
            "move_values": {f"{y},{x}": str(v) for (y, x), v in self.move_values.items()},
            "states": self.states,
            "seconds": round(self.seconds, 6),
            "layouts": self.layouts,
        }


class Engine(Protocol):
    """What ``OptimalSolver`` asks of an engine."""

    name: str

    @property
    def solved(self) -> int:
        """States solved, over all calls."""
        ...

    @property
    def clears(self) -> int:
        """Times the memo was full and started afresh."""
        ...

    @property
    def work(self) -> int:
        """Layouts split by the moves tried, over all calls: what a search's time follows (the compiled engine
        counts every split of a cascade, its looks for dead cells, its segments and its cliques' cover too:
        ``CompiledEngine.work``)."""
        ...

    def click(self, layouts: Layouts, i: int, opened: int) -> int:
        """How many of ``layouts`` optimal play wins after opening cell i (``opened``: cells already open)."""
        ...

    def clicks(self, layouts: Layouts, cells: list[int], opened: int) -> list[int]:
        """``click`` for each of ``cells``, in order."""
        ...

    def best(self, layouts: Layouts, cells: list[int], opened: int, budget: int = 0) -> dict[int, int] | None:
        """The cells of ``cells`` whose ``click`` is the best of them, with that win count; with ``budget``
        (``work``; 0: none), None if the search needs more (deterministic, unlike a time cap)."""
        ...


ENGINES = ("auto", "compiled", "python")
AUTO_LAYOUTS = 5_000  # below this many starting layouts the Python search is done before the compiled one starts
COMPILED_CELLS = BITMASK_CELLS  # the compiled engine's layouts are int64 bitmasks
# States a memo keeps before it starts afresh (still exact), by engine: a Python state costs far more memory.
DEFAULT_MAX_STATES = {"python": 500_000, "compiled": 4_000_000}


def make_engine(
    geometry: Geometry,
    mines: int,
    engine: str = "auto",
    symmetry: bool = True,
    max_states: int | None = None,
    dead: bool = False,
) -> Engine:
    """The engine for a board: ``python``, ``compiled``, or ``auto``: compiled when the board has at most
    ``COMPILED_CELLS`` cells and more than ``AUTO_LAYOUTS`` starting layouts, else python.

    ``symmetry`` and ``dead`` switch two of the search's ideas (``minelib.search``): states keyed up to
    the board's symmetries, and dead cells left out of the state. Off, they change the work, never a value."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r} (expected one of {', '.join(ENGINES)})")
    if max_states is not None and max_states < 1:
        raise ValueError(f"max_states must be at least 1, not {max_states}")
    if engine == "compiled" and geometry.n > COMPILED_CELLS:
        raise ValueError(f"the compiled engine takes boards of at most {COMPILED_CELLS} cells, not {geometry.n}")
    fits = geometry.n <= COMPILED_CELLS and comb(geometry.n, max(mines, 0)) > AUTO_LAYOUTS
    if engine == "python" or (engine == "auto" and not fits):
        return PythonEngine(geometry, symmetry, max_states or DEFAULT_MAX_STATES["python"], dead)
    from minelib.kernel import CompiledEngine  # numba compiles (or loads) the search on first use

    return CompiledEngine(geometry, symmetry, max_states or DEFAULT_MAX_STATES["compiled"], dead)


class OptimalSolver:
    """Optimal play on one board size and mine count; the engine's memo is kept between calls."""

    def __init__(
        self,
        size: BoardSize | str,
        mines: int,
        engine: str = "auto",
        symmetry: bool = True,
        max_states: int | None = None,
        dead: bool = False,
    ):
        self.size = BoardSize.of(size)
        check_mines(Board.unopened(self.size), mines)
        if mines == self.size.n_cells:
            raise ValueError(f"{mines} mines leave no safe cell on a {self.size} board")
        self.mines = mines
        self.geometry = Geometry.of(self.size)
        self.engine = make_engine(self.geometry, mines, engine, symmetry, max_states, dead)

    @property
    def solved(self) -> int:
        """States solved by the engine, over all calls."""
        return self.engine.solved

    # --- questions users ask -------------------------------------------------

    def all_layouts(self, forbidden: int = 0) -> Layouts:
        """Every layout of ``mines`` mines avoiding the cells in ``forbidden``, sorted."""
        free = [i for i in range(self.geometry.n) if not forbidden >> i & 1]
        check_layout_count(comb(len(free), self.mines), f"{self.size} with {self.mines} mines")
        return tuple(sorted(sum(1 << i for i in combo) for combo in combinations(free, self.mines)))

    def first_move(self, first_click: str = "none") -> Result:
        """The exact win probability from an unopened board, and every best first click."""
        check_first_click(first_click)
        start, before = time.perf_counter(), self.solved
        everything = self.all_layouts() if first_click == "none" else ()
        values: dict[Cell, Fraction] = {}
        counts: dict[Cell, int] = {}
        for orbit in self.geometry.orbits():
            cell = orbit[0]
            i = self.size.cell_id(cell)
            layouts = everything or self.first_click_layouts(cell, first_click)
            value = Fraction(self.engine.click(layouts, i, 0), len(layouts)) if layouts else Fraction(0)
            values.update(dict.fromkeys(orbit, value))
            counts.update(dict.fromkeys(orbit, len(layouts)))
        return self._result(values, start, before, counts)

    def first_click_layouts(self, cell: Cell, first_click: str = "none") -> Layouts:
        """The layouts a first click on ``cell`` is played over under a first-click rule, sorted."""
        check_first_click(first_click)
        i = self.size.cell_id(cell)
        if first_click == "none":
            return self.all_layouts()
        if first_click == "safe":
            return self.all_layouts(forbidden=1 << i)
        return self.all_layouts(forbidden=(1 << i) | self.geometry.neighbours[i])

    def position(self, board: Board | str) -> Result:
        """Every candidate move's exact win probability in a position of this size and mine count."""
        board = self._check(board)
        start, before = time.perf_counter(), self.solved
        layouts = consistent_layouts(board, self.mines, self.geometry)
        values = dict(self._values(board, layouts))
        return self._result(values, start, before, len(layouts))

    def move_values(self, board: Board | str) -> Iterator[tuple[Cell, Fraction]]:
        """Yield (cell, exact win probability of opening it) for each unopened cell, one at a time."""
        board = self._check(board)
        yield from self._values(board, consistent_layouts(board, self.mines, self.geometry))

    def _check(self, board: Board | str) -> Board:
        board = Board.from_text(board) if isinstance(board, str) else board
        if board.size != self.size:
            raise ValueError(f"the position is {board.size} but the solver is for {self.size}")
        return board

    def _values(self, board: Board, layouts: Layouts) -> Iterator[tuple[Cell, Fraction]]:
        """Every unopened cell's value; none in a won position (every cell left is a mine)."""
        if len(board.unopened_cells()) + len(board.mine_cells()) == self.mines:
            return
        opened = sum(self.geometry.bit(c) for c in board.number_cells())
        for cell in board.unopened_cells():
            yield cell, Fraction(self.engine.click(layouts, self.size.cell_id(cell), opened), len(layouts))

    def _result(
        self, values: dict[Cell, Fraction], start: float, before: int, layouts: int | dict[Cell, int]
    ) -> Result:
        """The result of move values; ``layouts``: the layouts behind every value, or behind each move's."""
        values = dict(sorted(values.items()))
        best = max(values.values(), default=Fraction(1))
        best_moves = [c for c, v in values.items() if v == best]
        if isinstance(layouts, dict):
            layouts = layouts[best_moves[0]]
        return Result(best, best_moves, values, self.solved - before, time.perf_counter() - start, layouts)


def strategy_tree(solver: OptimalSolver, board: Board | None = None, depth: int = 3) -> list[str]:
    """The optimal strategy from a position as indented lines, ``depth`` moves deep.

    At each position the first best move (row by row) is played; every number it
    can show is a branch, with its probability and the win probability after it.
    """
    at_least(1, depth=depth)
    board = board or Board.unopened(solver.size)
    lines: list[str] = []
    _grow(solver, board, depth, "", lines)
    return lines


def _grow(solver: OptimalSolver, board: Board, depth: int, indent: str, lines: list[str]) -> None:
    result = solver.position(board)
    if result.layouts == 1:
        lines.append(f"{indent}won: one layout is left")
        return
    cell = result.best_moves[0]
    lines.append(f"{indent}open {cell}  (wins {result.probability})")
    if depth <= 1:
        return
    layouts = consistent_layouts(board, solver.mines, solver.geometry)
    bit, around = solver.geometry.bit(cell), solver.geometry.neighbours[solver.size.cell_id(cell)]
    shows: dict[int, int] = defaultdict(int)
    for mask in layouts:
        if not mask & bit:
            shows[(mask & around).bit_count()] += 1
    lost = len(layouts) - sum(shows.values())
    if lost:
        lines.append(f"{indent}  mine (p = {Fraction(lost, len(layouts))}): lost")
    for number, count in sorted(shows.items()):
        lines.append(f"{indent}  shows {number} (p = {Fraction(count, len(layouts))}):")
        _grow(solver, board.with_value(cell, number), depth - 1, indent + "    ", lines)


def solve(size: BoardSize | str, mines: int, first_click: str = "none", engine: str = "auto") -> Result:
    """The exact win probability of ``size`` with ``mines`` under optimal play, and every best first click."""
    return OptimalSolver(size, mines, engine).first_move(first_click)


__all__ = [
    "AUTO_LAYOUTS",
    "COMPILED_CELLS",
    "DEFAULT_MAX_STATES",
    "ENGINES",
    "POSITION_CELLS",
    "Engine",
    "OptimalSolver",
    "Result",
    "make_engine",
    "solve",
    "strategy_tree",
]
