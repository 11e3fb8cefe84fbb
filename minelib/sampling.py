"""Every layout of a position numbered, and layouts drawn uniformly: the reference count made constructive.

``RankedLayouts(board, mines)`` numbers the consistent layouts 0 .. count - 1 in the order the
reference count (``minelib.reference``) adds them up: by the mines of the components together,
then component by component (each through its DP, group by group), then the free cells. Its
``layout(rank)`` is the layout of that rank, so a uniform rank gives a uniform layout:
``sample(n, seed)`` draws ranks with ``random.Random.randrange``, exact at any size (an expert
position early in a game has some 10^100 layouts, far past any float). No layout is listed: a rank costs one pass
over the components.
"""

from __future__ import annotations

import random
from math import comb

import numpy as np

from minelib import frontier
from minelib.board import Board
from minelib.frontier import choose
from minelib.reference import structure


class RankedLayouts:
    """The consistent layouts of ``board`` with ``mines`` mines in all, by rank (ImpossiblePosition if none)."""

    def __init__(self, board: Board | str, mines: int):
        self.board = Board.from_text(board) if isinstance(board, str) else board
        self.mines = mines
        self.structure = structure(self.board, mines)
        self.count = self.structure.count
        self._prefix: list[frontier.Polynomial] = [{0: 1}]  # the components before each: ways by mines
        for poly in self.structure.polys:
            self._prefix.append(frontier.multiply([self._prefix[-1], poly]))

    def layout(self, rank: int) -> np.ndarray:
        """The mines (flags included) of the layout of ``rank``, 0 <= rank < count, as a mask of the board."""
        if not 0 <= rank < self.count:
            raise ValueError(f"rank must be from 0 to {self.count - 1} (the layouts), got {rank}")
        found, free = self.structure, len(self.structure.free)
        for total in sorted(found.everything):  # the components' mines in all, then the free cells' rank
            block = found.everything[total] * choose(free, found.left - total)
            if rank < block:
                break
            rank -= block
        rank, inside = divmod(rank, choose(free, found.left - total))
        mask = self.board.mines_mask().copy()
        for cell in _combination(found.free, found.left - total, inside):
            mask[cell] = True
        for c in reversed(range(len(found.components))):  # the last component's share, then the others'
            poly = found.polys[c]
            for mines in sorted(poly):
                block = poly[mines] * self._prefix[c].get(total - mines, 0)
                if rank < block:
                    break
                rank -= block
            rank, local = divmod(rank, poly[mines])
            self._component(c, mines, local, mask)
            total -= mines
        assert total == 0 and rank == 0
        return mask

    def _component(self, c: int, mines: int, rank: int, mask: np.ndarray) -> None:
        """Mark the layout of ``rank`` among component ``c``'s with ``mines`` mines: its DP's steps walked
        back from the end, each edge's share the ways to reach it times the ways through it."""
        dp, columns = self.structure.dps[c], self.structure.components[c].columns
        state: tuple[int, ...] = ()
        for step, layer, edges in zip(reversed(dp.steps), reversed(dp.layers[:-1]), reversed(dp.edges)):
            for before, ones, ways, after in edges:
                if after != state or ones > mines:
                    continue
                block = layer[before].get(mines - ones, 0) * ways
                if rank < block:
                    break
                rank -= block
            rank, choice = divmod(rank, ways)
            for j in _combination(columns[step.group], ones, choice):
                mask[self.structure.cells[j]] = True
            state, mines = before, mines - ones
        assert state == () and mines == 0 and rank == 0

    def sample(self, n: int, seed: int) -> list[np.ndarray]:
        """``n`` layouts drawn uniformly and independently (the same ``seed``, the same layouts)."""
        rng = random.Random(seed)
        return [self.layout(rng.randrange(self.count)) for _ in range(n)]


def _combination(items, k: int, index: int) -> list:
    """The ``index``-th of the k-subsets of ``items`` in lexicographic order (0 <= index < C(len, k))."""
    chosen, start, n = [], 0, len(items)
    for remaining in range(k, 0, -1):
        for i in range(start, n):
            with_first = comb(n - i - 1, remaining - 1)  # the subsets whose first item left is items[i]
            if index < with_first:
                chosen.append(items[i])
                start = i + 1
                break
            index -= with_first
    return chosen


def sample_layouts(board: Board | str, mines: int, n: int, seed: int = 0) -> list[np.ndarray]:
    """``n`` layouts consistent with ``board`` drawn uniformly: ``RankedLayouts(board, mines).sample(n, seed)``."""
    return RankedLayouts(board, mines).sample(n, seed)


__all__ = ["RankedLayouts", "sample_layouts"]
