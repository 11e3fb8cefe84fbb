"""The success-probability evaluators of article 000, step by step.

    s(B) = max_c  sum_n  p(n | B, c) * s(B_{c,n}),   p(n | B, c) = #(B_{c,n}) / #(B)

where #(B) counts the mine layouts consistent with board B (a counter of article
001) and B_{c,n} is B with cell c opened showing n. A board with a single
consistent layout is won. The first click may hit a mine (the article's rule).

``BaselineEvaluator`` is the formula as written. ``EfficientEvaluator`` adds the
article's three savings: first clicks up to the board's symmetry, only the
numbers a cell can show, and the count and probability of a child in one call.
``SolvableCellsEvaluator`` adds the article's "solvable cells" idea: known mines
are flagged and, when a cell is known to be safe, only it is opened.
``minelib.optimal`` goes far beyond these.

Each answers ``evaluate(board) -> minelib.optimal.Result``, the optimal solver's
result type: the probability, every best move (the article's cell is the first,
row by row), every candidate move's value, boards evaluated, seconds, layouts.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import NamedTuple

from minelib.analysis import ImpossiblePosition, analyze
from minelib.board import MINE, Board, BoardSize, Cell, check_mines, to_constraints
from minelib.counters import LastSpeedupCounter
from minelib.layouts import Geometry
from minelib.optimal import Result


class _Value(NamedTuple):
    """A board's success probability under optimal play, and its layout count."""

    probability: Fraction
    layouts: int


class BaselineEvaluator:
    """The recursion of article 000 as written: every unopened cell, every number 0-8."""

    def __init__(self, size: BoardSize | str, mines: int, counter=None):
        self.size = BoardSize.of(size)
        check_mines(Board.unopened(self.size), mines)  # when made, as OptimalSolver, not at the first evaluate
        self.mines = mines
        self.counter = counter or LastSpeedupCounter()
        self.states = 0  # boards evaluated, over all calls

    def count(self, board: Board) -> int:
        """The number of mine layouts consistent with ``board``."""
        X, y, _ = to_constraints(board, self.mines)
        return self.counter.count(X, y)

    def evaluate(self, board: Board | None = None) -> Result:
        """The success probability of ``board`` (default: all unopened), every best cell and every cell's value."""
        start, before = time.perf_counter(), self.states
        board = board or Board.unopened(self.size)
        won = len(board.unopened_cells()) + len(board.mine_cells()) == self.mines  # every cell left is a mine
        total, board, cells = self._choices(board)
        values = self._values(board, cells, total) if total and not won else {}
        probability = max(values.values(), default=Fraction(min(total, 1)))
        return Result(
            probability,
            [c for c, v in values.items() if v == probability],
            values,
            self.states - before,
            time.perf_counter() - start,
            total,
        )

    def _choices(self, board: Board) -> tuple[int, Board, list[Cell]]:
        """The layout count, the board to click on, and the cells worth clicking."""
        return self.count(board), board, board.unopened_cells()

    def _values(self, board: Board, cells: list[Cell], total: int) -> dict[Cell, Fraction]:
        """Every cell's value, row by row."""
        return {cell: self._cell_value(board, cell, total) for cell in sorted(cells)}

    def _evaluate(self, board: Board) -> _Value:
        """s(B) and #(B), the recursion."""
        self.states += 1
        total, board, cells = self._choices(board)
        if total <= 1 or not cells:
            return _Value(Fraction(min(total, 1)), total)
        return _Value(max(self._cell_value(board, cell, total) for cell in cells), total)

    def _cell_value(self, board: Board, cell: Cell, total: int) -> Fraction:
        """sum_n p(n | B, c) s(B_c,n): as written, each child counted, then evaluated."""
        value = Fraction(0)
        for n in self._numbers(board, cell):
            child = board.with_value(cell, n)
            alive = self.count(child)
            if alive:
                value += self._evaluate(child).probability * Fraction(alive, total)
        return value

    def _numbers(self, board: Board, cell: Cell) -> range:
        # The article tries 0-8; numbers above the neighbour count have no layout and
        # are not valid boards, so they are left out (they would add nothing).
        return range(len(board.size.neighbours(cell)) + 1)


class EfficientEvaluator(BaselineEvaluator):
    """Article 000's faster evaluator: symmetric first clicks, feasible numbers, one pass."""

    def _values(self, board: Board, cells: list[Cell], total: int) -> dict[Cell, Fraction]:
        """On an unopened board, the first clicks up to symmetry, each value given to its whole orbit."""
        if cells != board.size.cells():
            return super()._values(board, cells, total)
        values: dict[Cell, Fraction] = {}
        first = set(self._first_clicks())
        for orbit in Geometry(board.size).orbits():
            cell = next(c for c in orbit if c in first)
            values.update(dict.fromkeys(orbit, self._cell_value(board, cell, total)))
        return dict(sorted(values.items()))

    def _first_clicks(self) -> list[Cell]:
        """The top-left quarter (and x >= y on a square): every first click up to symmetry."""
        h, w = self.size.height, self.size.width
        return [(y, x) for y in range((h + 1) // 2) for x in range((w + 1) // 2) if h != w or x >= y]

    def _cell_value(self, board: Board, cell: Cell, total: int) -> Fraction:
        """The same sum, each child's count coming with its evaluation (one pass)."""
        value = Fraction(0)
        for n in self._numbers(board, cell):
            child = self._evaluate(board.with_value(cell, n))
            if child.layouts:
                value += child.probability * Fraction(child.layouts, total)
        return value

    def _numbers(self, board: Board, cell: Cell) -> range:
        around = [board.values[c] for c in board.size.neighbours(cell)]
        flags = sum(v == MINE for v in around)
        return range(flags, flags + sum(v < 0 and v != MINE for v in around) + 1)


class SolvableCellsEvaluator(EfficientEvaluator):
    """Adds the "solvable cells" idea: flag known mines; open only a known-safe cell if there is one."""

    def _choices(self, board: Board) -> tuple[int, Board, list[Cell]]:
        try:
            analysis = analyze(board, self.mines)
        except ImpossiblePosition:
            return 0, board, []
        for cell in analysis.certain_mines:
            board = board.with_value(cell, MINE)
        return analysis.count, board, analysis.certain_safe[:1] or board.unopened_cells()


EVALUATORS = (BaselineEvaluator, EfficientEvaluator, SolvableCellsEvaluator)

__all__ = ["EVALUATORS", "BaselineEvaluator", "EfficientEvaluator", "SolvableCellsEvaluator"]
