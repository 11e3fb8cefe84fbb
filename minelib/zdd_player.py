"""Article 003's player: a ZDD of the layouts of the frontier cells, updated as cells open.

New frontier cells are added at the top, each new number applied by ``hint``, the total by
``limit``. Certain safe cells are opened, certain mines flagged (``onset``), and otherwise the cell
of least danger (layouts with a mine there, weighted by binomials for the cells next to no number;
exact big integers) is opened.
"""

from __future__ import annotations

import time
from fractions import Fraction

from minelib.analysis import Analysis, Analyzer, ImpossiblePosition
from minelib.board import UNOPENED, Board, Cell
from minelib.frontier import choose
from minelib.game import PLAYING, Game
from minelib.game import warm_up as warm_up_game
from minelib.moves import GameRun, Move, Record, check_clicks
from minelib.zdd import BASE, ZDD


class ZDDPlayer:
    """Article 003's player: a ZDD of the frontier layouts; certain cells, else least danger.

    With ``cross_check``, every decision also checks the ZDD's layout count and every cell's
    danger against an ``Analyzer`` following the same game, and raises ``RuntimeError`` at the
    first disagreement: two independent exact methods, move by move.
    """

    name = "zdd"

    def __init__(self, cross_check: bool = False):
        self.cross_check = cross_check
        warm_up_game()  # the game's compiled reveal, loaded once per process: not inside a timed game

    def play(self, game: Game, first: Cell, log: bool = False) -> Record:
        check_clicks(game, first)
        start = time.perf_counter()
        run = _ZDDRun(game, log, Analyzer(game.mines) if self.cross_check else None)
        run.play(first)
        return run.record(start)

    def recommend(self, board: Board, mines: int) -> Move:
        """The move this player makes in a position (the ZDD built from scratch)."""
        game = Game.showing(board, mines)
        run = _ZDDRun(game, log=True)
        run.absorb([c for c in range(board.size.n_cells) if run.values[c] >= 0])
        return run.decide()[0]

    def probabilities(self, board: Board, mines: int) -> Analysis:
        """The analysis of a position (layout count, mine probabilities, certain cells), from the ZDD."""
        run = _ZDDRun(Game.showing(board, mines), log=False)
        run.absorb([c for c in range(board.size.n_cells) if run.values[c] >= 0])
        b, m = run.game.mines_left, run.interior_count()
        run.family = run.zdd.limit(run.family, b, m)
        total, danger = run.danger(b, m)
        return Analysis.from_counts(board, mines, total, {board.size.cell_at(c): d for c, d in danger.items()})


class _ZDDRun(GameRun):
    def __init__(self, game: Game, log: bool, checker: Analyzer | None = None):
        super().__init__(game, log)
        self.checker = checker
        self.zdd, self.family = ZDD(), BASE
        self.var_of: dict[int, int] = {}
        self.cell_of: dict[int, int] = {}
        self.next_var, self.collected_at = 0, 64

    def play(self, first: Cell) -> None:
        self.absorb(self.open(self.size.cell_id(first), certain=False))
        while self.game.status == PLAYING:
            moves = self.decide()
            for move in moves:
                c = self.size.cell_id(move.cell)
                if move.kind == "flag":
                    self.flag(c)
                    self.family = self.zdd.onset(self.family, self.var_of.pop(c))
                elif self.values[c] == UNOPENED:
                    self.absorb(self.open(c, move.certain, move.mine_probability))
                if self.game.status != PLAYING:
                    return
            if len(self.zdd) > 2 * self.collected_at:  # delete the nodes no longer reachable
                self.zdd.collect([self.family])
                self.collected_at = max(len(self.zdd), 64)

    def absorb(self, opened: list[int]) -> None:
        """Update the ZDD for cells just opened: drop them, add new frontier cells, apply the numbers."""
        for c in opened:
            if c in self.var_of:
                self.family = self.zdd.offset(self.family, self.var_of.pop(c))
        for c in opened:
            for n in self.hidden(c):
                if n not in self.var_of:
                    self.next_var -= 1
                    self.var_of[n] = self.next_var
                    self.family = self.zdd.add_variable(self.family, self.next_var)
        for c in opened:
            hidden = self.hidden(c)
            if hidden:
                self.family = self.zdd.hint(self.family, [self.var_of[n] for n in hidden], self.need(c))
        self.cell_of = {v: c for c, v in self.var_of.items()}

    def decide(self) -> list[Move]:
        """The certain moves, or else one guess: the cell of least danger."""
        b, m = self.game.mines_left, self.interior_count()
        self.family = self.zdd.limit(self.family, b, m)
        if self.family == 0:
            raise ImpossiblePosition("no mine layout fits the position")
        if self.checker is not None:
            self.check(self.checker, b, m)
        items, flags = self.zdd.items(self.family), self.zdd.flags(self.family)
        opens, flagged = self.certain_opens, self.certain_flags
        moves = [flagged[self.cell_of[v]] for v in sorted(flags)]
        moves += [opens[c] for c, v in sorted(self.var_of.items()) if v not in items]
        if m and set(self.zdd.sizes(self.family)) == {b}:  # all mines left are on the frontier
            moves += [opens[c] for c in self.interior()]
        return moves or [self.guess(b, m)]

    def check(self, checker: Analyzer, b: int, m: int) -> None:
        """Raise RuntimeError unless the ZDD's count and dangers equal the checker's analysis."""
        board = Board(self.game.values)
        analysis = checker.analyze(board)
        total, danger = self.danger(b, m)
        wrong = [c for c, d in danger.items() if Fraction(d, total) != analysis.probability(self.size.cell_at(c))]
        if total != analysis.count or wrong:
            raise RuntimeError(
                f"the ZDD and the analysis disagree ({total} and {analysis.count} layouts"
                f"{', at cell ' + str(self.size.cell_at(wrong[0])) if wrong else ''}) on\n{board}"
            )

    def guess(self, b: int, m: int) -> Move:
        total, danger = self.danger(b, m)
        cell = min(danger, key=lambda c: (danger[c], c))
        return Move("open", self.size.cell_at(cell), False, Fraction(danger[cell], total))

    def danger(self, b: int, m: int) -> tuple[int, dict[int, int]]:
        """The number of layouts, and for every unopened cell the layouts with a mine there.

        A frontier layout of k mines leaves comb(m, b - k) ways for the m cells next
        to no number; one of those cells is a mine in comb(m - 1, b - k - 1) of them.
        """
        by_size = self.zdd.sizes(self.family)
        total = sum(n * choose(m, b - k) for k, n in by_size.items())
        danger = {
            self.cell_of[v]: sum(n * choose(m, b - k) for k, n in per.items())
            for v, per in self.zdd.danger(self.family).items()
        }
        for c in self.var_of:
            danger.setdefault(c, 0)
        if m:
            outside = sum(n * choose(m - 1, b - k - 1) for k, n in by_size.items())
            danger.update((c, outside) for c in self.interior())
        return total, danger

    def interior(self) -> list[int]:
        return [c for c in range(self.size.n_cells) if self.values[c] == UNOPENED and c not in self.var_of]

    def interior_count(self) -> int:
        hidden = self.size.n_cells - self.game.opened - self.game.flags
        return hidden - len(self.var_of)


__all__ = ["ZDDPlayer"]
