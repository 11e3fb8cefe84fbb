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
"""
from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from minelib.analysis import ImpossiblePosition, analyze
from minelib.board import MINE, Board, BoardSize, Cell, to_constraints
from minelib.counters import LastSpeedupCounter


class Evaluation(NamedTuple):
    """A board's success probability under optimal play, a best cell, and its layout count."""

    probability: Fraction
    cell: Cell | None
    count: int | None = None


class BaselineEvaluator:
    """The recursion of article 000 as written: every unopened cell, every number 0-8."""

    def __init__(self, size: BoardSize | str, mines: int, counter=None):
        self.size = BoardSize.parse(size) if isinstance(size, str) else size
        self.mines = mines
        self.counter = counter or LastSpeedupCounter()

    def count(self, board: Board) -> int:
        """The number of mine layouts consistent with ``board``."""
        X, y, _ = to_constraints(board, self.mines)
        return self.counter.count(X, y)

    def evaluate(self, board: Board | None = None) -> Evaluation:
        """The success probability of ``board`` (default: all unopened) and a best cell."""
        return self._evaluate(board or Board.unopened(self.size))

    def _evaluate(self, board: Board) -> Evaluation:
        cells = board.unopened_cells()
        if not cells:
            return Evaluation(Fraction(1), None)
        total = self.count(board)
        if total <= 1:
            return Evaluation(Fraction(total), None)
        return self._best_of(board, cells, total)

    def _best_of(self, board: Board, cells: list[Cell], total: int) -> Evaluation:
        """The first cell (in the given order) of highest value, like the article's argmax."""
        values = [self._cell_value(board, cell, total) for cell in cells]
        best = max(range(len(cells)), key=lambda k: (values[k], -k))
        return Evaluation(values[best], cells[best], total)

    def _cell_value(self, board: Board, cell: Cell, total: int) -> Fraction:
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

    def evaluate(self, board: Board | None = None) -> Evaluation:
        board = board or Board.unopened(self.size)
        if board.unopened_cells() != board.size.cells():
            return self._evaluate(board)
        total = self.count(board)
        values = {cell: self._cell_value(board, cell, total) for cell in self._first_clicks()}
        best = max(values, key=lambda c: (values[c], [-v for v in c]))
        return Evaluation(values[best], best, total)

    def _first_clicks(self) -> list[Cell]:
        """The top-left quarter (and x >= y on a square): every first click up to symmetry."""
        h, w = self.size.height, self.size.width
        return [(y, x) for y in range((h + 1) // 2) for x in range((w + 1) // 2) if h != w or x >= y]

    def _evaluate(self, board: Board) -> Evaluation:
        cells = board.unopened_cells()
        total = self.count(board)
        if not cells or total <= 1:
            return Evaluation(Fraction(min(total, 1)), None, total)
        return self._best_of(board, cells, total)

    def _cell_value(self, board: Board, cell: Cell, total: int) -> Fraction:
        value = Fraction(0)
        for n in self._numbers(board, cell):
            child = self._evaluate(board.with_value(cell, n))  # its count comes with it
            if child.count:
                value += child.probability * Fraction(child.count, total)
        return value

    def _numbers(self, board: Board, cell: Cell) -> range:
        around = [board.values[c] for c in board.size.neighbours(cell)]
        flags = sum(v == MINE for v in around)
        return range(flags, flags + sum(v < 0 and v != MINE for v in around) + 1)


class SolvableCellsEvaluator(EfficientEvaluator):
    """Adds the "solvable cells" idea: flag known mines; open only a known-safe cell if there is one."""

    def _evaluate(self, board: Board) -> Evaluation:
        try:
            analysis = analyze(board, self.mines)
        except ImpossiblePosition:
            return Evaluation(Fraction(0), None, 0)
        for cell in analysis.mines:
            board = board.with_value(cell, MINE)
        if analysis.count == 1 or not board.unopened_cells():
            return Evaluation(Fraction(1), None, analysis.count)
        cells = analysis.safe[:1] or board.unopened_cells()
        return self._best_of(board, cells, analysis.count)


EVALUATORS = (BaselineEvaluator, EfficientEvaluator, SolvableCellsEvaluator)
