"""Forced 50/50s: guesses at 1/2 that no other move can ever resolve, so a player makes them at once.

A pair of cells, one of them a mine in every layout, whose every other neighbour of just one of
them is a known mine; and its long form, JSMinesweeper's chained 50/50: two halves of as many cells,
all of one half mines wherever the other is safe, every other cell next to them next to as many
cells of each half. Every layout then has a twin, the mines moved to the other cells, showing the
same numbers everywhere else: whatever comes first, the 50/50 must be guessed some day, and guessed
now its number informs the guesses after it. ``ForcedFiftyFifties`` finds them for a player's run
(``TwoStepRun``: ``forced``, ``chains``); ``minelib.latent`` counts the 50/50s latent in a position.
"""

from __future__ import annotations

import numpy as np

from minelib.analysis import Analysis, Analyzer, analyze
from minelib.board import MINE, Board, BoardSize, Cell


class ForcedFiftyFifties:
    """The forced 50/50s of a run's positions (a mixin of ``LookaheadRun``: its board size, analyzer,
    neighbour ids and live view)."""

    size: BoardSize
    analyzer: Analyzer
    neighbours: tuple[tuple[int, ...], ...]
    values: list[int]
    _half: tuple[Analysis, list[int]] | None = None  # an analysis and its cells at 1/2 (``_halves``)

    def forced_pair(self, board: Board, result: Analysis) -> tuple[Cell, Cell] | None:
        """Two cells, one of them a mine in every layout, that nothing but opening one can tell apart:
        every other cell next to just one of them is a known mine, so every layout has a twin with
        the mine moved to the other one, showing the same numbers everywhere else. It must be
        guessed some day at 1/2 whatever comes first; guessed now, its number informs the guesses
        after it (a pair as far apart as two cells, the first one row by row). ``result``: the
        position's analysis."""
        halves = set(self._halves(result))
        for a in sorted(halves):
            for b in self._near(a):
                if b in halves and b > a and self._twins(a, b):
                    first, second = self.size.cell_at(a), self.size.cell_at(b)
                    if all(after.probability(second) == 1 for after in self.analyzer.what_if(board, first).values()):
                        return first, second
        return None

    def forced_chain(self, board: Board, mines: int, result: Analysis) -> list[Cell] | None:
        """A 50/50 of four cells or more that nothing but opening one of them can resolve (JSMinesweeper's
        chained 50/50s, a pair's long form; None if there is none): two halves A and B of as many cells,
        all of A mines in every layout where all of B is safe and the other way round, and every other
        cell next to them (but a known mine) next to as many cells of A as of B. Then every layout has a
        twin with A and B swapped, with as many mines and the same numbers everywhere else, so it must be
        guessed some day at 1/2 whatever comes first. Its cells, row by row (the first such chain).
        ``result``: the position's analysis.

        For each cell of probability 1/2, the position with that cell a mine gives its halves: the cells
        of probability 1/2 that become certain (mines: A, safe: B). Exact counts then make B all mines
        where the cell is safe: each is a mine in half the layouts, and in none of those where it is one."""
        halves = self._halves(result)
        if len(halves) < 4:
            return None
        cells = [self.size.cell_at(c) for c in halves]
        seen: set[int] = set()
        for i, first in zip(halves, cells):
            if i in seen:
                continue
            mined = analyze(board.with_value(first, MINE), mines)
            a = {i} | {c for c, cell in zip(halves, cells) if c != i and mined.probability(cell) == 1}
            b = {c for c, cell in zip(halves, cells) if mined.probability(cell) == 0}
            seen |= a | b  # each of them meets these same halves
            if len(a) != len(b) or len(a) < 2:
                continue
            around = {n for c in a | b for n in self.neighbours[c]} - a - b
            known = {n for n in around if result.probability(self.size.cell_at(n)) == 1}  # a flag, or certain
            if all(len(a & set(self.neighbours[n])) == len(b & set(self.neighbours[n])) for n in around - known):
                return [self.size.cell_at(c) for c in sorted(a | b)]
        return None

    def _halves(self, result: Analysis) -> list[int]:
        """``_half_cells`` of ``result``, found once for the pair and the chain of one guess."""
        if self._half is None or self._half[0] is not result:
            self._half = (result, _half_cells(result))
        return self._half[1]

    def _near(self, c: int) -> list[int]:
        """The cells at most two rows and two columns from cell c."""
        y, x = self.size.cell_at(c)
        return [
            self.size.cell_id((y + dy, x + dx))
            for dy in range(-2, 3)
            for dx in range(-2, 3)
            if (y + dy, x + dx) in self.size and (dy or dx)
        ]

    def _twins(self, a: int, b: int) -> bool:
        """Whether every cell next to just one of cells a and b (but them) is a known mine."""
        around = set(self.neighbours[a]) ^ set(self.neighbours[b])
        return all(self.values[c] == MINE for c in around - {a, b})


def _half_cells(result: Analysis) -> list[int]:
    """The ids of the cells whose mine probability is 1/2 exactly, in order (a forced 50/50's cells are among them)."""
    groups, ratios = result.ratios()
    half = np.zeros(len(ratios) + 2, np.bool_)  # (False at the two places that groups -2 and -1 index)
    half[[g for g, (a, b) in enumerate(ratios) if 2 * a == b]] = True
    return np.flatnonzero(half[groups]).tolist()


__all__ = ["ForcedFiftyFifties"]
