"""The reference count of a position: article 003's danger count on the component DP, no compiled code.

It is the computation of ``minelib.frontier`` carried one step further. The unopened cells next
to numbers split into independent components of grouped cells; a forward DP counts each
component by mines used, and a backward pass weighted by what the rest of the board allows for
that many mines (the other components and ``comb(free, mines left)`` for cells next to no
number) gives, for every group, the number of layouts with a mine on each of its cells: a
two-way DP weighted by binomials, as article 003's on a ZDD. ``minelib.analysis.reference_analyze``
answers with it; where no layout fits, it says why (``ImpossiblePosition``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from minelib import frontier
from minelib.board import Board, Cell, check_mines, incidence, neighbour_sums
from minelib.frontier import choose


class ImpossiblePosition(ValueError):
    """No mine layout is consistent with the position and the total mine count."""


def cells_text(cells: list[Cell]) -> str:
    """Cells as ``(y,x) (y,x) ...``, or ``none``."""
    return " ".join(f"({y},{x})" for y, x in cells) or "none"


def _mines(n: int) -> str:
    return f"{n} mine" if n == 1 else f"{n} mines"


@dataclass(frozen=True)
class Structure:
    """A position's layouts as the reference counts them: independent components of grouped frontier cells,
    and the free cells (next to no number, or constrained by no number in effect) that share the mines left."""

    cells: list[Cell]  # the component DPs' columns: frontier cells, then the interior
    components: tuple[frontier.Component, ...]
    dps: list[frontier.ComponentDP]
    polys: list[frontier.Polynomial]  # per component: ways by mines used
    free: list[Cell]
    left: int  # mines left to place (flags are mines already placed)
    everything: frontier.Polynomial  # the components together: ways by mines used
    count: int  # the layouts: sum over k of everything[k] * C(len(free), left - k)


def structure(board: Board, mines: int) -> Structure:
    """The components and free cells of ``board`` with ``mines`` mines in all; raise ImpossiblePosition,
    saying why, if no layout fits."""
    check_mines(board, mines)
    _check_numbers(board)
    system = _frontier_system(board)
    left = mines - len(board.mine_cells())
    if left > len(system.cells) + len(system.interior):
        raise ImpossiblePosition(
            f"{_mines(left)} left to place but only {len(system.cells) + len(system.interior)} unopened cells"
        )
    parts = frontier.decompose(system.X, system.y, set_aside_full_rows=False)
    if not parts.feasible:
        raise ImpossiblePosition("the numbers contradict each other")
    dps = [frontier.ComponentDP(c.sizes, c.rows, c.targets) for c in parts.components]
    polys = [dp.polynomial() for dp in dps]
    for component, poly in zip(parts.components, polys):
        if not poly:
            raise ImpossiblePosition(
                f"no mine layout fits the numbers at {cells_text([system.numbers[r] for r in component.row_ids])}"
            )
    cells = system.cells + system.interior
    free = [cells[j] for j in parts.free] + system.interior
    everything = frontier.multiply(polys)
    count = sum(ways * choose(len(free), left - k) for k, ways in everything.items())
    if count == 0:
        raise ImpossiblePosition(_total_mismatch(board, system, everything, len(free), left))
    return Structure(cells, parts.components, dps, polys, free, left, everything, count)


def reference_counts(board: Board, mines: int) -> tuple[int, dict[Cell, int]]:
    """The layouts of ``board`` with ``mines`` mines in all, and per unopened cell the layouts with a mine
    there; raise ImpossiblePosition, saying why, if none fit."""
    found = structure(board, mines)
    cells, free, left, count = found.cells, found.free, found.left, found.count
    mine_weight = np.zeros(board.values.shape, dtype=object)
    for component, dp, outside in zip(found.components, found.dps, _outside_weights(found.polys, len(free), left)):
        total, per_group = dp.group_weights(outside)
        assert total == count, "the backward pass must count every layout once"
        for columns, size, in_group in zip(component.columns, component.sizes, per_group):
            for j in columns:
                mine_weight[cells[j]] = in_group // size  # each cell of a group is a mine equally often
    free_weight = sum(ways * choose(len(free) - 1, left - k - 1) for k, ways in found.everything.items())
    for cell in free:
        mine_weight[cell] = free_weight
    return count, {cell: int(mine_weight[cell]) for cell in sorted(cells)}


@dataclass(frozen=True)
class _System:
    """X v = y over the cells next to a number, one row per number with unopened neighbours."""

    X: np.ndarray
    y: np.ndarray
    cells: list[Cell]  # the columns: unopened cells next to a number
    numbers: list[Cell]  # the rows
    interior: list[Cell]  # unopened cells next to no number


def _frontier_system(board: Board) -> _System:
    """The numbers' constraints on the frontier only: small even on large boards."""
    unopened, numbers = board.unopened_mask(), board.numbers_mask()
    frontier_mask = unopened & (neighbour_sums(numbers) > 0)
    rows_mask = numbers & (neighbour_sums(unopened) > 0)
    X = incidence(rows_mask, frontier_mask)
    y = (board.values[rows_mask] - neighbour_sums(board.mines_mask())[rows_mask]).astype(np.int64)
    return _System(
        X,
        y,
        board.cells_where(frontier_mask),
        board.cells_where(rows_mask),
        board.cells_where(unopened & ~frontier_mask),
    )


def _check_numbers(board: Board) -> None:
    """Raise ImpossiblePosition for a number with too many flags or too few cells around it."""
    numbers = board.numbers_mask()
    flags, room = neighbour_sums(board.mines_mask()), neighbour_sums(board.unopened_mask())
    need = board.values.astype(np.int64) - flags
    for cy, cx in np.argwhere(numbers & ((need < 0) | (need > room)))[:1]:
        value = board.values[cy, cx]
        if need[cy, cx] < 0:
            raise ImpossiblePosition(f"cell ({cy}, {cx}) shows {value} but has {flags[cy, cx]} flags around it")
        raise ImpossiblePosition(
            f"cell ({cy}, {cx}) shows {value} but has only {flags[cy, cx]} flags "
            f"and {room[cy, cx]} unopened cells around it"
        )


def _outside_weights(polys, free: int, left: int) -> list[dict[int, int]]:
    """For each component using k mines: the ways to place the other ``left - k`` mines elsewhere.

    The product of the other components comes from prefix and suffix products, so
    the work grows linearly with the number of components.
    """
    prefix, suffix = [{0: 1}], [{0: 1}]
    for poly in polys[:-1]:
        prefix.append(frontier.multiply([prefix[-1], poly]))
    for poly in reversed(polys[1:]):
        suffix.append(frontier.multiply([suffix[-1], poly]))
    weights = []
    for c, poly in enumerate(polys):
        others = frontier.multiply([prefix[c], suffix[len(polys) - 1 - c]])
        weights.append({k: sum(ways * choose(free, left - k - m) for m, ways in others.items()) for k in poly})
    return weights


def _total_mismatch(board: Board, system: _System, everything: frontier.Polynomial, free: int, left: int) -> str:
    """Why the numbers cannot meet the total: a number seeing every unopened cell, or the range."""
    if not system.interior:
        for (cy, cx), row, need in zip(system.numbers, system.X, system.y):
            if row.all() and need != left:
                return (
                    f"cell ({cy}, {cx}) sees every unopened cell and needs {_mines(int(need))} there, "
                    f"but {_mines(left)} left in all"
                )
    low, high = min(everything), max(everything)
    need = _mines(low) if low == high else f"between {low} and {high} mines"
    return (
        f"the numbers need {need}, but {_mines(left)} left in all "
        f"and {free} cells next to no number cannot make up the difference"
    )


__all__ = ["ImpossiblePosition", "Structure", "cells_text", "reference_counts", "structure"]
