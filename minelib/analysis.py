"""Exact analysis of a position: layout count, every cell's mine probability, certain cells.

``analyze`` answers with the compiled box engine of ``minelib.boxes``;
``reference_analyze`` counts the same with the component DP of ``minelib.reference``:
the reference the engine is checked against, and the path that explains an
impossible position. Everything is an exact int; probabilities are Fractions.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from minelib.board import MINE, UNOPENED, Board, Cell, check_mines
from minelib.reference import ImpossiblePosition, cells_text, reference_counts


class Analysis:
    """What a position tells exactly, given the total number of mines.

    Cells that play the same part (a box: next to the same numbers; or next to no
    number) share one mine probability, so the analysis keeps one ratio of ints
    per *group* and makes each group's ``Fraction`` once, when it is first asked for.
    """

    __slots__ = (
        "_certain",
        "_grid",
        "_groups",
        "_ratios",
        "_shared",
        "board",
        "count",
        "total_mines",
    )

    def __init__(
        self,
        board: Board,
        total_mines: int,
        count: int,
        groups: np.ndarray,
        numerators: list[int],
        denominators: list[int],
    ):
        self.board, self.total_mines, self.count = board, total_mines, count  # count: consistent mine layouts
        self._groups = groups  # per cell, row by row: its group, -1 opened, -2 a flag
        self._ratios = list(zip(numerators, denominators))  # per group: its mine probability as a ratio
        self._grid: list[list[Fraction | None]] | None = None
        self._shared: dict[tuple[int, int], Fraction] = {}  # groups of equal ratio share one Fraction
        self._certain: tuple[list[Cell], list[Cell]] | None = None

    @property
    def certain_safe(self) -> list[Cell]:
        """The unopened cells that hold no mine in any layout, row by row."""
        return self._certain_cells()[0]

    @property
    def certain_mines(self) -> list[Cell]:
        """The unopened cells that hold a mine in every layout, row by row (flags not included)."""
        return self._certain_cells()[1]

    @property
    def decides(self) -> bool:
        """Whether some unopened cell is certain, safe or a mine: ``certain_safe or certain_mines``,
        without listing them."""
        if self._certain is not None:
            return bool(self._certain[0] or self._certain[1])
        sure = [a == 0 or a == b for a, b in self._ratios]
        if not any(sure):
            return False
        return bool(np.array(sure + [False, False])[self._groups].any())  # -1, -2: the two False at the end

    def _certain_cells(self) -> tuple[list[Cell], list[Cell]]:
        if self._certain is None:
            width = self.board.size.width
            # index -1 (opened) and -2 (a flag) land on the two False entries at the end
            safe = np.array([a == 0 for a, _ in self._ratios] + [False, False])[self._groups]
            sure = np.array([a == b for a, b in self._ratios] + [False, False])[self._groups]
            self._certain = (
                [divmod(c, width) for c in np.flatnonzero(safe).tolist()],
                [divmod(c, width) for c in np.flatnonzero(sure).tolist()],
            )
        return self._certain

    @classmethod
    def from_counts(cls, board: Board, total_mines: int, count: int, mines_at: dict[Cell, int]) -> Analysis:
        """The analysis from the layout count and, for every unopened cell, the layouts with a mine there."""
        width = board.size.width
        groups = np.full(board.size.n_cells, -1, np.int64)
        groups[(board.values == MINE).ravel()] = -2
        index: dict[int, int] = {}
        for (y, x), weight in mines_at.items():
            groups[y * width + x] = index.setdefault(weight, len(index))
        return cls(board, total_mines, count, groups, list(index), [count] * len(index))

    def lowest_risks(self, k: int = 2) -> list[float]:
        """The ``k`` smallest mine probabilities among the unopened cells that may be safe, one per
        cell (two cells of one group give two equal entries), as floats; fewer if fewer cells remain.

        For ranking guesses by a score that blends probabilities, where exactness is not the point;
        certainty is read from the exact ``certain_safe`` / ``certain_mines``."""
        sizes = np.bincount(self._groups[self._groups >= 0], minlength=len(self._ratios)).tolist()
        risky = [(ratio, size) for ratio, size in zip(self._ratios, sizes) if size and ratio[0] != ratio[1]]
        return lowest_of(risky, k)

    def _fraction(self, group: int) -> Fraction | None:
        if group == -1:
            return None
        if group == -2:
            return Fraction(1)
        ratio = self._ratios[group]
        found = self._shared.get(ratio)
        if found is None:
            found = self._shared[ratio] = Fraction(*ratio)
        return found

    def probability(self, cell: Cell) -> Fraction | None:
        """The mine probability of ``cell`` (None if it is opened; 1 for a flag)."""
        self.board.size.check(cell)
        return self._fraction(int(self._groups[cell[0] * self.board.values.shape[1] + cell[1]]))

    def groups(self) -> tuple[np.ndarray, list[Fraction]]:
        """Per cell, row by row, its group (-1 opened, -2 a flag), and per group the mine probability
        its cells share (one ``Fraction`` object; a group may hold no cell): for work done a group
        at a time, where a position has hundreds of unopened cells in a few dozen groups."""
        return self._groups, [self._group_fraction(g) for g in range(len(self._ratios))]

    def ratios(self) -> tuple[np.ndarray, list[tuple[int, int]]]:
        """``groups`` with each group's mine probability as a ratio of two ints (numerator,
        denominator; not always in lowest terms), without making a ``Fraction``: for exact work on
        many groups at once (compare by cross-multiplying)."""
        return self._groups, self._ratios

    def _group_fraction(self, group: int) -> Fraction:
        found = self._fraction(group)
        assert found is not None  # a group, not an opened cell
        return found

    def risks(self) -> dict[Cell, Fraction]:
        """Every unopened cell's mine probability (flags left out), row by row; the cells of a group
        share one ``Fraction`` object."""
        table = [self._fraction(g) for g in range(len(self._ratios))]
        cells = np.flatnonzero(self._groups >= 0)
        width = self.board.values.shape[1]
        return {divmod(c, width): table[g] for c, g in zip(cells.tolist(), self._groups[cells].tolist())}

    @property
    def probabilities(self) -> list[list[Fraction | None]]:
        """Every cell's mine probability, row by row (None for opened cells; flags are 1)."""
        if self._grid is None:
            table = [self._fraction(g) for g in range(len(self._ratios))] + [Fraction(1), None]  # [-2], [-1]
            self._grid = np.array(table, dtype=object)[self._groups].reshape(self.board.values.shape).tolist()
        return self._grid

    def __eq__(self, other) -> bool:
        if not isinstance(other, Analysis):
            return NotImplemented
        return (self.board, self.total_mines, self.count) == (other.board, other.total_mines, other.count) and (
            self.probabilities == other.probabilities
        )

    def __hash__(self) -> int:
        return hash((self.count, self.total_mines))

    def __repr__(self) -> str:
        return f"Analysis({self.board.size} position, {self.total_mines} mines: {self.count} layouts)"

    def to_json(self) -> dict:
        """The analysis as JSON-ready data: counts as ints, probabilities as "p/q" strings.

        The keys "safe" and "mines" (the certain cells) are the command line's contract and stay.
        """
        return {
            "count": self.count,
            "probabilities": [[None if p is None else str(p) for p in row] for row in self.probabilities],
            "safe": [list(c) for c in self.certain_safe],
            "mines": [list(c) for c in self.certain_mines],
        }

    def to_text(self) -> str:
        """A grid of mine probabilities in percent, then the certain cells."""
        width = 6
        lines = [
            f"{self.count} mine {'layout fits' if self.count == 1 else 'layouts fit'} this {self.board.size} position "
            f"with {self.total_mines} {'mine' if self.total_mines == 1 else 'mines'}.",
            "Mine probability in %; (n) an opened number, F a flag, safe / MINE certain cells:",
        ]
        for y, row in enumerate(self.probabilities):
            lines.append("".join(_cell_text(self.board.values[y, x], p).rjust(width) for x, p in enumerate(row)))
        lines.append(f"certainly safe: {cells_text(self.certain_safe)}")
        lines.append(f"certainly mines: {cells_text(self.certain_mines)}")
        return "\n".join(lines)


def lowest_of(groups, k: int) -> list[float]:
    """The ``k`` smallest mine probabilities, one per cell, of ``groups``: ((numerator, denominator),
    cells) of groups whose cells may be safe; as floats, each the ratio of the two ints rounded once."""
    found: list[float] = []
    for risk, size in sorted((a / b, size) for (a, b), size in groups):
        found += [risk] * min(size, k - len(found))
        if len(found) == k:
            break
    return found


class Outlook:
    """What a position holds after a cell shows a number, in brief (``Analyzer.outlook``): its layout
    count, whether some unopened cell is certain (``Analysis.decides``), and ``lowest_risks`` up to
    the ``k`` it was made for. What a guess's score needs, without a whole ``Analysis``."""

    __slots__ = ("_lowest", "count", "decides", "k")

    def __init__(self, count: int, decides: bool, lowest: list[float], k: int):
        self.count, self.decides, self._lowest, self.k = count, decides, lowest, k

    def lowest_risks(self, k: int = 2) -> list[float]:
        """``Analysis.lowest_risks(k)``, for k up to the outlook's own."""
        if k > self.k:
            raise ValueError(f"this outlook holds the {self.k} lowest risks, not {k}: ask Analyzer.outlook for more")
        return self._lowest[:k]

    def __repr__(self) -> str:
        return f"Outlook(count={self.count}, decides={self.decides}, lowest={self._lowest})"


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


def analyze(board: Board | str, mines: int) -> Analysis:
    """Count the layouts of ``board`` with ``mines`` mines in all (flags included) and
    give every cell's exact mine probability; raise ImpossiblePosition if none fit.

    The compiled box engine (``minelib.boxes``) answers; where it declines (an
    impossible position, a component past its bounds) ``reference_analyze`` does.
    """
    if isinstance(board, str):
        board = Board.from_text(board)
    check_mines(board, mines)
    from minelib import boxes  # numba loads the compiled engine on first use

    fast = boxes.analyze_boxes(board.values, mines)
    if fast is None:
        return reference_analyze(board, mines)
    return Analysis(board, mines, *fast)


class Analyzer:
    """``analyze`` for a game: positions met one after another, each a few cells from the last.

    It keeps the components of the last position; the next one counts again only the regions
    within reach of the cells that changed (``minelib.boxes.Tracker``), and ``what_if`` answers
    "what if this cell opens" for every number it may show, each from the position kept. The
    components of recent positions, those ``what_if`` found among them, are recalled, not counted
    again, when a what-if or outlook is asked there.
    The answers are those of ``analyze``, exactly.
    """

    def __init__(self, mines: int):
        self.mines = mines
        from minelib import boxes  # numba loads the compiled engine on first use

        boxes.warm_up()  # the first in a process loads the compiled engine
        self._tracker = boxes.Tracker()
        self._brief = boxes.Brief
        self._checked: np.ndarray | None = None  # the (read-only) values of the last board whose mines were checked

    def analyze(self, board: Board | str) -> Analysis:
        """``analyze(board, mines)``; ``board`` becomes the position kept."""
        if isinstance(board, str):
            board = Board.from_text(board)
        check_mines(board, self.mines)
        fast = self._tracker.analyze(board.values, self.mines)
        if fast is None:
            return reference_analyze(board, self.mines)  # says why no layout fits
        return Analysis(board, self.mines, *fast)

    def counted(self, board: Board, answer) -> Analysis:
        """The analysis of ``board`` from the compiled answer that counted it as the position kept
        (``Sweep.settle``'s, which follows this analyzer's positions): ``analyze(board)`` without
        counting it again."""
        from minelib import boxes

        return Analysis(board, self.mines, *boxes.counted(answer))

    def what_if(self, board: Board, cell: Cell) -> dict[int, Analysis]:
        """For every number the unopened ``cell`` may show (those no layout allows left out): the
        analysis of ``board`` with ``cell`` opened on it. ``board`` becomes the position kept."""
        self._check_cell(board, cell)
        found = {}
        for number, fast in enumerate(self._tracker.what_if(board.values, self.mines, board.size.cell_id(cell))):
            if fast is not None:
                found[number] = self._after(board, cell, number, fast)
        return found

    def outlook(self, board: Board, cell: Cell, k: int = 2) -> dict[int, Outlook]:
        """``what_if`` in brief: for every number the unopened ``cell`` may show, the layout count,
        whether a certain cell follows, and the ``k`` lowest risks, exactly as the analyses of
        ``what_if`` give them (``Outlook``), without making them. ``board`` becomes the position kept."""
        self._check_cell(board, cell)
        found = {}
        for number, fast in enumerate(self._tracker.outlook(board.values, self.mines, board.size.cell_id(cell), k)):
            if isinstance(fast, self._brief):
                lowest = fast.lowest if fast.lowest is not None else lowest_of(fast.picks, k)
                found[number] = Outlook(fast.layouts, fast.decides, lowest, k)
            elif fast is not None:  # counted whole, past the compiled call's bounds: read from its analysis
                after = self._after(board, cell, number, fast)
                found[number] = Outlook(after.count, after.decides, after.lowest_risks(k), k)
        return found

    def _after(self, board: Board, cell: Cell, number: int, fast) -> Analysis:
        """The analysis of ``board`` with ``cell`` showing ``number``, from the engine's answer."""
        values = board.values.copy()
        values[cell] = number
        return Analysis(Board._valid(values), self.mines, *fast)

    def _check_cell(self, board: Board, cell: Cell) -> None:
        board.size.check(cell)
        if board.values[cell] != UNOPENED:
            raise ValueError(f"cell {cell} is not an unopened cell of the board")
        if board.values is not self._checked:  # a player asks of one board for every candidate: checked once
            check_mines(board, self.mines)
            self._checked = board.values


def reference_analyze(board: Board | str, mines: int) -> Analysis:
    """``analyze`` by grouped columns and a component DP (``minelib.reference``): the reference the fast
    engine is checked against, and the path that explains an impossible position."""
    if isinstance(board, str):
        board = Board.from_text(board)
    return Analysis.from_counts(board, mines, *reference_counts(board, mines))


__all__ = [
    "Analysis",
    "Analyzer",
    "ImpossiblePosition",
    "Outlook",
    "analyze",
    "reference_analyze",
]
