"""Exact analysis of a position: layout count, every cell's mine probability, certain cells.

The computation of ``minelib.frontier`` carried one step further. The unopened
cells next to numbers split into independent components of grouped cells; a
forward DP counts each component by mines used, and a backward pass weighted by
what the rest of the board allows for that many mines (the other components and
``comb(free, mines left)`` for cells next to no number) gives, for every group,
the number of layouts with a mine on each of its cells. This is article 003's
danger count (a two-way DP weighted by binomials), done on the component DP
instead of a ZDD. Everything is an exact int; probabilities are Fractions.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np

from minelib import frontier
from minelib.board import MINE, Board, Cell, check_mines, to_constraints


class ImpossiblePosition(ValueError):
    """No mine layout is consistent with the position and the total mine count."""


@dataclass(frozen=True)
class Analysis:
    """What a position tells exactly, given the total number of mines."""

    board: Board
    total_mines: int
    count: int                                   # consistent mine layouts
    probabilities: list[list[Fraction | None]]   # None for opened cells; flags are 1
    safe: list[Cell]                             # unopened cells that are certainly safe
    mines: list[Cell]                            # unopened cells that are certainly mines (flags not listed)

    def probability(self, cell: Cell) -> Fraction | None:
        """The mine probability of ``cell`` (None if it is opened)."""
        return self.probabilities[cell[0]][cell[1]]

    def to_json(self) -> dict:
        """The analysis as JSON-ready data: counts as ints, probabilities as "p/q" strings."""
        return {
            "count": self.count,
            "probabilities": [[None if p is None else str(p) for p in row] for row in self.probabilities],
            "safe": [list(c) for c in self.safe],
            "mines": [list(c) for c in self.mines],
        }

    def to_text(self) -> str:
        """A grid of mine probabilities in percent, then the certain cells."""
        width = 6
        lines = [f"{self.count} mine layouts fit this {self.board.size} position with {self.total_mines} mines.",
                 "Mine probability in %; (n) an opened number, F a flag, safe / MINE certain cells:"]
        for y, row in enumerate(self.probabilities):
            lines.append("".join(_cell_text(self.board.values[y, x], p).rjust(width) for x, p in enumerate(row)))
        lines.append(f"certainly safe: {_cells_text(self.safe)}")
        lines.append(f"certainly mines: {_cells_text(self.mines)}")
        return "\n".join(lines)


def _mines(n: int) -> str:
    return f"{n} mine" if n == 1 else f"{n} mines"


def choose(n: int, k: int) -> int:
    """The binomial coefficient, 0 when k is outside 0..n."""
    return comb(n, k) if 0 <= k <= n else 0


def _cell_text(value: int, p: Fraction | None) -> str:
    if p is None:
        return f"({value})"
    if value == MINE:
        return "F"
    if p == 0:
        return "safe"
    if p == 1:
        return "MINE"
    return f"{float(p) * 100:.1f}"


def _cells_text(cells: list[Cell]) -> str:
    return " ".join(f"({y},{x})" for y, x in cells) or "none"


def analyze(board: Board | str, mines: int) -> Analysis:
    """Count the layouts of ``board`` with ``mines`` mines in all (flags included) and
    give every cell's exact mine probability; raise ImpossiblePosition if none fit."""
    if isinstance(board, str):
        board = Board.from_text(board)
    check_mines(board, mines)
    X, y, cells = to_constraints(board, mines)
    _check_numbers(board, X, y)
    left = int(y[-1])
    if left > len(cells):
        raise ImpossiblePosition(f"{_mines(left)} left to place but only {len(cells)} unopened cells")
    parts = frontier.decompose(X.astype(np.int64), y.astype(np.int64))
    if not parts.feasible:
        raise ImpossiblePosition(_full_row_mismatch(board, X, y))
    dps = [frontier.ComponentDP(c.sizes, c.rows, c.targets) for c in parts.components]
    polys = [dp.polynomial() for dp in dps]
    for component, poly in zip(parts.components, polys):
        if not poly:
            raise ImpossiblePosition(f"no mine layout fits the numbers at {_cells_text(_number_cells(board, component))}")
    free = len(parts.free)
    everything = frontier.multiply(polys)
    count = sum(ways * choose(free, left - k) for k, ways in everything.items())
    if count == 0:
        raise ImpossiblePosition(_total_mismatch(everything, free, left))
    mine_weight = np.zeros(board.values.shape, dtype=object)
    for c, (component, dp) in enumerate(zip(parts.components, dps)):
        total, per_group = dp.group_weights(_outside_weights(polys, c, free, left))
        assert total == count, "the backward pass must count every layout once"
        for columns, size, in_group in zip(component.columns, component.sizes, per_group):
            for j in columns:
                mine_weight[cells[j]] = in_group // size  # each cell of a group is a mine equally often
    free_weight = sum(ways * choose(free - 1, left - k - 1) for k, ways in everything.items())
    for j in parts.free:
        mine_weight[cells[j]] = free_weight
    return _result(board, mines, count, mine_weight, cells)


def _check_numbers(board: Board, X: np.ndarray, y: np.ndarray) -> None:
    """Raise ImpossiblePosition for a number with too many flags or too few cells around it."""
    numbers, need, room = board.number_cells(), y[:-1], X[:-1].sum(axis=1)
    for i in np.flatnonzero((need < 0) | (need > room))[:1]:
        (cy, cx), value = numbers[i], board.values[numbers[i]]
        if need[i] < 0:
            raise ImpossiblePosition(f"cell ({cy}, {cx}) shows {value} but has {value - need[i]} flags around it")
        raise ImpossiblePosition(
            f"cell ({cy}, {cx}) shows {value} but has only {value - need[i]} flags "
            f"and {room[i]} unopened cells around it")


def _full_row_mismatch(board: Board, X: np.ndarray, y: np.ndarray) -> str:
    """The message for a number that sees every unopened cell but asks for another total."""
    for (cy, cx), row, need in zip(board.number_cells(), X, y):
        if row.all() and need != y[-1]:
            return (f"cell ({cy}, {cx}) sees every unopened cell and needs {_mines(need)} there, "
                    f"but {_mines(y[-1])} left in all")
    return "the numbers contradict each other"


def _number_cells(board: Board, component: frontier.Component) -> list[Cell]:
    """The number cells whose rows belong to ``component`` (rows of X are numbers in order)."""
    numbers = board.number_cells()
    return [numbers[r] for r in component.row_ids]


def _outside_weights(polys, c: int, free: int, left: int) -> dict[int, int]:
    """For component c using k mines: the ways to place the other ``left - k`` mines elsewhere."""
    others = frontier.multiply(polys[:c] + polys[c + 1:])
    return {k: sum(ways * choose(free, left - k - m) for m, ways in others.items()) for k in polys[c]}


def _total_mismatch(everything: frontier.Polynomial, free: int, left: int) -> str:
    low, high = min(everything), max(everything)
    need = _mines(low) if low == high else f"between {low} and {high} mines"
    return (f"the numbers need {need}, but {_mines(left)} left in all "
            f"and {free} cells next to no number cannot make up the difference")


def _result(board: Board, mines: int, count: int, mine_weight: np.ndarray, cells: list[Cell]) -> Analysis:
    probabilities: list[list[Fraction | None]] = [[None] * board.size.width for _ in range(board.size.height)]
    for cell in board.mine_cells():
        probabilities[cell[0]][cell[1]] = Fraction(1)
    for cell in cells:
        probabilities[cell[0]][cell[1]] = Fraction(int(mine_weight[cell]), count)
    safe = [c for c in cells if mine_weight[c] == 0]
    certain = [c for c in cells if mine_weight[c] == count]
    return Analysis(board, mines, count, probabilities, safe, certain)
