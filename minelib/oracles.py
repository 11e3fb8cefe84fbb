"""Slow, obviously correct references that the fast methods are checked against.

They share no code with what they check: ``layouts`` reads the numbers straight
off the board instead of going through ``to_constraints``.
"""
from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from math import comb

import numpy as np

from minelib.board import Board, Cell, check_mines, neighbour_sums

MAX_LAYOUTS = 2_000_000


def layouts(board: Board, mines: int) -> Iterator[frozenset[Cell]]:
    """Every set of mine cells (flags included) consistent with the board and total."""
    check_mines(board, mines)
    hidden = board.unopened_cells()
    flags = board.mine_cells()
    to_place = mines - len(flags)
    if not 0 <= to_place <= len(hidden):
        return
    if comb(len(hidden), to_place) > MAX_LAYOUTS:
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
