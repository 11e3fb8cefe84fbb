"""Latent 50/50s: the guesses a position will force on the player in some of its layouts.

Two side-by-side cells whose *wall* (the cells next to one of them but not the other) is all
mines, one of the two a mine: every number that sees one of them sees both, so no move can ever
tell the layout from its *twin* with the mine moved to the other cell, and the pair is guessed
at 1/2 some day. The same holds for a 2x2 box whose four diagonal corners are mines, with two
mines on one of its diagonals. In a position, such a pattern is *latent* in the layouts where its
wall is all mines: counting those layouts tells how much of a cell's risk is a risk it would
have to take anyway (JSMinesweeper's "50/50 influence"; the counts here are exact).

``LatentFiftyFifties(analyzer, board, analysis)`` looks at the patterns whose wall shows no
number and holds at most one cell (pairs) or none (boxes) not yet a flag, as JSMinesweeper does;
``tally`` counts a pattern's layouts with its wall all mines and one orientation (the first cell
a mine, or the box's main diagonal), which by the twin argument is also the count of the other
orientation. ``influence(cell)``: the layouts in which ``cell`` is a mine of a latent 50/50 or
one of its missing wall mines (a sum over patterns, capped at the cell's own mine and safe
layouts); ``pseudo()``: the cells that are "a 50/50 or safe" (every layout with a mine there has
a twin without it), guessed first since the risk cannot be avoided.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from minelib.analysis import Analysis, Analyzer, ImpossiblePosition
from minelib.board import MINE, UNOPENED, Board, BoardSize, Cell

PAIR, BOX = 0, 1


@lru_cache(maxsize=16)
def patterns(size: BoardSize) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair and box of ``size``: kinds, member cell ids (-1 padded to 4) and wall cell ids
    (off-board wall cells left out; padded with n_cells, a sentinel that reads as a flag)."""
    h, w, n = size.height, size.width, size.n_cells
    kinds, members, walls = [], [], []

    def add(kind: int, cells: list[tuple[int, int]], wall: list[tuple[int, int]]) -> None:
        kinds.append(kind)
        members.append([y * w + x for y, x in cells] + [-1] * (4 - len(cells)))
        inside = [y * w + x for y, x in wall if 0 <= y < h and 0 <= x < w]
        walls.append(inside + [n] * (6 - len(inside)))

    side = (-1, 0, 1)
    for y in range(h):
        for x in range(w):
            if x + 1 < w:  # side by side: the wall is the columns left and right of the pair
                add(PAIR, [(y, x), (y, x + 1)], [(y + d, x - 1) for d in side] + [(y + d, x + 2) for d in side])
            if y + 1 < h:  # one above the other: the rows above and below
                add(PAIR, [(y, x), (y + 1, x)], [(y - 1, x + d) for d in side] + [(y + 2, x + d) for d in side])
            if x + 1 < w and y + 1 < h:  # a box: main diagonal first, then the other
                corners = [(y - 1, x - 1), (y - 1, x + 2), (y + 2, x - 1), (y + 2, x + 2)]
                add(BOX, [(y, x), (y + 1, x + 1), (y, x + 1), (y + 1, x)], corners)
    return np.array(kinds, np.int8), np.array(members, np.int64), np.array(walls, np.int64)


@njit(cache=True, nogil=True)
def _candidates(kinds, members, walls, values):
    """The patterns (of ``patterns``) whose cells are all unopened and whose wall shows no number and
    holds at most one unopened cell for a pair, none for a box (``values``: the view row by row, a
    flag appended for the padding of the walls)."""
    found = np.empty(len(kinds), np.int64)
    k = 0
    for i in range(len(kinds)):
        hidden = True
        for j in range(members.shape[1]):
            if members[i, j] >= 0 and values[members[i, j]] != UNOPENED:
                hidden = False
                break
        if not hidden:
            continue
        missing, numbered = 0, False
        for j in range(walls.shape[1]):
            v = values[walls[i, j]]
            if v >= 0:
                numbered = True
                break
            if v == UNOPENED:
                missing += 1
        if not numbered and missing <= (1 if kinds[i] == PAIR else 0):
            found[k] = i
            k += 1
    return found[:k]


def warm_up() -> None:
    """Load ``_candidates`` now, for the types a game gives it (numba loads it on its first call)."""
    size = BoardSize(1, 2)
    _candidates(*patterns(size), np.append(Board.from_text("1.").values.ravel(), MINE))


def mine_layouts(analysis: Analysis, cell: Cell) -> int:
    """The layouts of ``analysis`` with a mine on the unopened ``cell``."""
    p = analysis.probability(cell)
    if p is None:
        raise ValueError(f"cell {cell} is opened")
    return analysis.count * p.numerator // p.denominator


class LatentFiftyFifties:
    """The latent 50/50s of one position (see the module's docstring). ``analyzer`` counts the
    layouts with some cells made flags; give it an ``Analyzer`` of its own (it follows the boards
    it is shown)."""

    def __init__(self, analyzer: Analyzer, board: Board, analysis: Analysis):
        self.analyzer, self.board, self.analysis = analyzer, board, analysis
        size = board.size
        kinds, members, walls = patterns(size)
        values = np.append(board.values.ravel(), MINE)  # the sentinel reads as a flag
        self.found: list[tuple[int, tuple[int, ...], tuple[int, ...], int]] = []  # kind, members, missing, tally
        for i in _candidates(kinds, members, walls, values).tolist():
            cells = tuple(c for c in members[i].tolist() if c >= 0)
            gaps = tuple(c for c in walls[i].tolist() if c < size.n_cells and values[c] == UNOPENED)
            tally = self.tally(int(kinds[i]), cells, gaps)
            if tally:
                self.found.append((int(kinds[i]), cells, gaps, tally))

    def tally(self, kind: int, cells: tuple[int, ...], gaps: tuple[int, ...]) -> int:
        """The layouts with every gap of the wall a mine and the pattern in its first orientation:
        the pair's first cell a mine and its second safe; the box's main diagonal mines, the other
        diagonal safe (by inclusion and exclusion over the two safe cells)."""
        at = self.board.size.cell_at
        if kind == PAIR:
            after = self._flagged(gaps + cells[:1])
            return 0 if after is None else after.count - mine_layouts(after, at(cells[1]))
        both = self._flagged(gaps + cells[:2])
        if both is None:
            return 0
        b, c = at(cells[2]), at(cells[3])
        three = self._flagged(gaps + cells[:3])
        all_four = 0 if three is None else mine_layouts(three, c)
        return both.count - mine_layouts(both, b) - mine_layouts(both, c) + all_four

    def _flagged(self, cells: tuple[int, ...]) -> Analysis | None:
        """The analysis of the position with ``cells`` made flags (None when no layout fits)."""
        values = self.board.values.copy()
        values.ravel()[list(cells)] = MINE
        if (values == MINE).sum() > self.analysis.total_mines:
            return None
        try:
            return self.analyzer.analyze(Board(values))
        except ImpossiblePosition:
            return None

    def influence(self, cell: Cell) -> int:
        """The layouts in which ``cell`` is a mine of a latent 50/50 (pairs summed, the best box) or
        a missing mine of one's wall, capped at its mine layouts and at its safe layouts."""
        c = self.board.size.cell_id(cell)
        pairs = sum(tally for kind, cells, gaps, tally in self.found if kind == PAIR and (c in cells or c in gaps))
        boxes = max((tally for kind, cells, _, tally in self.found if kind == BOX and c in cells), default=0)
        mines = mine_layouts(self.analysis, cell)
        return min(pairs + boxes, mines, self.analysis.count - mines)

    def pseudo(self) -> list[Cell]:
        """The cells of a latent 50/50 whose every mine layout is a latent 50/50 of one pattern: a
        50/50 or safe, row by row."""
        found = set()
        for _, cells, _, tally in self.found:
            for c in cells:
                cell = self.board.size.cell_at(c)
                if tally == mine_layouts(self.analysis, cell):
                    found.add(cell)
        return sorted(found)


__all__ = ["LatentFiftyFifties", "mine_layouts", "patterns", "warm_up"]
