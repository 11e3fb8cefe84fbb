"""Slow, obviously correct references that the fast methods are checked against.

They share no code with what they check: ``layouts`` reads the numbers straight
off the board instead of going through ``to_constraints``.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np

from minelib.board import Board, Cell, check_mines, neighbour_sums

BRUTE_FORCE_PLACEMENTS = 2_000_000  # the most mine placements an oracle enumerates (time)


def layouts(board: Board, mines: int) -> Iterator[frozenset[Cell]]:
    """Every set of mine cells (flags included) consistent with the board and total."""
    check_mines(board, mines)
    hidden = board.unopened_cells()
    flags = board.mine_cells()
    to_place = mines - len(flags)
    if not 0 <= to_place <= len(hidden):
        return
    if comb(len(hidden), to_place) > BRUTE_FORCE_PLACEMENTS:
        raise ValueError(f"brute force over {comb(len(hidden), to_place)} layouts would take too long")
    numbers = board.numbers_mask()
    for placed in combinations(hidden, to_place):
        layout = np.zeros(board.values.shape, dtype=bool)
        for cell in (*flags, *placed):
            layout[cell] = True
        if np.array_equal(neighbour_sums(layout)[numbers], board.values[numbers]):
            yield frozenset((*flags, *placed))


def count_layouts(board: Board, mines: int) -> int:
    """The number of consistent mine layouts, by enumeration."""
    return sum(1 for _ in layouts(board, mines))


def mine_counts(board: Board, mines: int) -> tuple[int, dict[Cell, int]]:
    """The number of consistent layouts, and for every cell how many of them put a mine there."""
    total, per_cell = 0, dict.fromkeys(board.size.cells(), 0)
    for layout in layouts(board, mines):
        total += 1
        for cell in layout:
            per_cell[cell] += 1
    return total, per_cell


# --- optimal play by plain minimax ---------------------------------------------
# A state is (possible layouts, opened cells); a move opens any unopened cell that
# is not a mine in every layout. No free openings, bounds, symmetry or win counts.


def _outcomes(size, state, cell):
    layouts, opened = state
    by_number: dict[int, set] = {}
    for layout in layouts:
        if cell not in layout:
            number = sum(n in layout for n in size.neighbours(cell))
            by_number.setdefault(number, set()).add(layout)
    return [(Fraction(len(group), len(layouts)), (frozenset(group), opened | {cell})) for group in by_number.values()]


def _minimax(size, state, cache):
    if state not in cache:
        layouts, opened = state
        moves = [c for c in size.cells() if c not in opened and not all(c in L for L in layouts)]
        if len(layouts) == 1 or not moves:
            cache[state] = Fraction(1)
        else:
            cache[state] = max(_move_value(size, state, c, cache) for c in moves)
    return cache[state]


def _move_value(size, state, cell, cache):
    return sum(p * _minimax(size, child, cache) for p, child in _outcomes(size, state, cell))


def minimax_first_moves(size, mines: int, first_click: str = "none") -> dict[Cell, Fraction]:
    """Every first click's exact win probability under optimal play, by plain minimax."""
    cache: dict = {}
    everything = [frozenset(c) for c in combinations(size.cells(), mines)]
    values = {}
    for cell in size.cells():
        banned = {cell} if first_click == "safe" else {cell, *size.neighbours(cell)} if first_click == "zero" else set()
        layouts = frozenset(L for L in everything if not L & banned)
        values[cell] = _move_value(size, (layouts, frozenset()), cell, cache) if layouts else Fraction(0)
    return values


def minimax_position(board: Board, mines: int) -> dict[Cell, Fraction]:
    """Every unopened cell's exact win probability if opened now, by plain minimax."""
    state = (frozenset(layouts(board, mines)), frozenset(board.number_cells()))
    cache: dict = {}
    return {cell: _move_value(board.size, state, cell, cache) for cell in board.unopened_cells()}


__all__ = [
    "BRUTE_FORCE_PLACEMENTS",
    "count_layouts",
    "layouts",
    "mine_counts",
    "minimax_first_moves",
    "minimax_position",
]
