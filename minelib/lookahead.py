"""Our look-ahead player on the exact analysis, and the same player without the look-ahead.

Certainties come first, from the cheap to the exact: the one-number rules on a work queue (compiled,
``minelib.sweep``), then the exact analysis with the total (``minelib.Analyzer``, which follows the
game and recounts only what changed), both in one compiled call between two guesses
(``Sweep.settle``; the analysis goes to Python only where a count passes the compiled bounds). When
a guess is needed it opens the safest cell, and among the cells within ``tolerance`` of the safest
(at most ``lookahead`` of them, those with fewest unopened neighbours first) prefers the one most
likely to be safe *and* to make progress (show a number from which a certain cell follows): a
one-step look-ahead with exact counts. When at most ``endgame_layouts`` layouts remain (on boards of
at most ``endgame_cells`` cells) it plays the exact optimal move (``minelib.endgame.EndgameSearch``,
on the undecided cells alone: the compiled engine when they are at most 63, so ``endgame_compiled``
lets it search thousands of layouts on expert; with ``endgame_budget``, each of those searches of more than
``endgame_budget_above`` layouts stops past that much work, ``Engine.work``, and the player guesses as if it had
not searched; the smaller ones are always searched to the end; two layouts need no search: every move wins
with one half). ``SafestPlayer`` is the
same player without the look-ahead (ties broken by fewest unopened neighbours), to measure what the look-ahead buys.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import NamedTuple

from minelib import boxes, sweep
from minelib.analysis import Analyzer
from minelib.board import UNOPENED, Board, Cell
from minelib.endgame import EndgameSearch
from minelib.endgame import warm_up as warm_up_endgame
from minelib.game import PLAYING, Game
from minelib.moves import GameRun, Move, Record, at_least, check_clicks
from minelib.optimal import COMPILED_CELLS, POSITION_CELLS
from minelib.sweep import Sweep

HALF = Fraction(1, 2)  # the value of every move of a two-layout endgame (``LookaheadRun.endgame``)


class Ranked(NamedTuple):
    """A guess a player weighed (``Explanation.ranked``), with what it ranked it by."""

    cell: Cell
    mine_probability: Fraction
    score: float  # the look-ahead's chance of progress, or the two-step score (with a latent 50/50's weight)
    living: bool  # it may show two numbers or more (the two-step player ranks the others last)
    deeper: float | None = None  # its score one move further, when the two-step player's deeper look ranked it
    further: float | None = None  # and one move further again, when its second look ranked it (``second``)


class Explanation(NamedTuple):
    """A player's move in a position and why (``LookaheadPlayer.explain``).

    ``reason``: "one number" (a number settles its unopened neighbours), "exact analysis" (a certain
    cell), "exact endgame" (the optimal move, ``move.win_probability`` its value), "safest",
    "only candidate", "most progress" (the look-ahead), "forced 50/50", "50/50 or safe" (a latent
    50/50's cell), "best score" (the two-step score), "deeper look" (its near-best candidates looked
    at one move further) or "second look" (the deeper look's two best one move further again).
    ``ranked``: the guesses weighed, the move's first, when a ranking decided (else empty)."""

    move: Move
    reason: str
    ranked: list[Ranked]


class LookaheadPlayer:
    """Certainties from cheap to exact, then a safest guess with a one-step progress look-ahead."""

    name = "lookahead"

    def __init__(
        self,
        tolerance: Fraction = Fraction(1, 50),
        lookahead: int = 6,
        endgame_layouts: int = 24,
        endgame_cells: int | None = POSITION_CELLS,
        endgame_compiled: int = 0,
        endgame_budget: int = 0,
        endgame_budget_above: int = 0,
    ):
        at_least(0, tolerance=tolerance, lookahead=lookahead, endgame_layouts=endgame_layouts)
        at_least(0, endgame_compiled=endgame_compiled, endgame_cells=0 if endgame_cells is None else endgame_cells)
        at_least(0, endgame_budget=endgame_budget, endgame_budget_above=endgame_budget_above)
        # the compiled code a game calls, loaded once per process (~0.3 s in all): not inside a timed game
        sweep.warm_up()
        boxes.warm_up()
        warm_up_endgame()
        self.tolerance, self.lookahead, self.endgame_layouts = Fraction(tolerance), lookahead, endgame_layouts
        self.endgame_cells = endgame_cells  # None: any board
        self.endgame_compiled, self.endgame_budget = endgame_compiled, endgame_budget
        self.endgame_budget_above = endgame_budget_above

    def play(self, game: Game, first: Cell, log: bool = False, then: tuple[Cell, ...] = ()) -> Record:
        """Play a game from the first click; ``then``: cells opened next, before the player decides
        (forced guesses, to measure what a choice of the player's is worth)."""
        check_clicks(game, first, then)
        start = time.perf_counter()
        run = self._run(game, log)
        run.play(first, then)
        return run.record(start)

    def _run(self, game: Game, log: bool) -> LookaheadRun:
        return LookaheadRun(game, log, self)

    def recommend(self, board: Board, mines: int) -> Move:
        """The move this player makes in a position."""
        return self.explain(board, mines).move

    def explain(self, board: Board, mines: int) -> Explanation:
        """The move this player makes in a position, what decided it, and the guesses it ranked."""
        game = Game.showing(board, mines)
        if not (board.values == UNOPENED).any():
            raise ValueError("there is no move to make: every cell is open or flagged")
        run = self._run(game, True)
        run.sweep.queue_all()  # the first number that settles its cells, row by row
        move = run.decide()[0]
        return Explanation(move, run.reason, run.ranked)


class LookaheadRun(GameRun):
    def __init__(self, game: Game, log: bool, player: LookaheadPlayer):
        super().__init__(game, log)
        self.player = player
        self.sweep = Sweep(game)  # the one-number rules, compiled: their work queue of numbers
        self.analyzer = Analyzer(game.mines)  # follows the game: each analysis recounts what changed
        self.search = EndgameSearch(game.mines)  # follows the game too: its memo is kept
        self.reason = ""  # what decided the last move decided (``Explanation``)
        self.ranked: list[Ranked] = []  # and the guesses ranked for it, if a ranking decided

    def play(self, first: Cell, then: tuple[Cell, ...] = ()) -> None:
        for cell in (first, *then):
            c = self.size.cell_id(cell)
            if self.game.status == PLAYING and self.values[c] == UNOPENED:
                self.sweep.took(self.open(c, certain=False))
        while self.game.status == PLAYING:
            # the one-number rules and the exact analysis's certain moves, compiled, to the next guess
            # (or to a position the compiled analysis cannot count: ``exact`` then counts it in Python)
            _, moves, answer = self.sweep.settle(self.analyzer._tracker)
            self.swept(moves)
            if self.game.status != PLAYING:
                return
            for move in self.exact(answer):
                c = self.size.cell_id(move.cell)
                if move.kind == "flag" and self.values[c] == UNOPENED:
                    self.flag(c)
                    self.sweep.took([c])
                elif move.kind == "open" and self.values[c] == UNOPENED:
                    self.sweep.took(self.open(c, move.certain, move.mine_probability, move.win_probability))
                if self.game.status != PLAYING:
                    return

    def swept(self, moves: list[int]) -> None:
        """Log the moves a sweep played (a flag written ``~cell``)."""
        if self.log is not None:
            opens, flags = self.certain_opens, self.certain_flags
            self.log.extend(flags[~c] if c < 0 else opens[c] for c in moves)

    def decide(self) -> list[Move]:
        """Certain moves (one-number rules, then the exact analysis), else one guess.

        Every certain cell is found before a guess, whatever finds it, so the position at each
        guess is the same with or without cheap rules in front: they only save time, and the order
        of certain moves changes no guess. (A rule for two numbers whose unopened cells nest used to
        stand between the two; scanning every number for it cost more than the incremental exact
        analysis, 3.6x on 40x40 games.) ``play`` runs both compiled, to the next guess (``Sweep.settle``)."""
        return self.single() or self.exact()

    def single(self) -> list[Move]:
        """The moves of the first queued number that settles its unopened neighbours, or none."""
        self.reason, self.ranked = "one number", []
        return [self._move(c) for c in self.sweep.first()]

    def _move(self, c: int) -> Move:
        return self.certain_flags[~c] if c < 0 else self.certain_opens[c]

    def exact(self, answer=None) -> list[Move]:
        """The exact analysis's certain moves, or a guess (``answer``: the compiled count of the
        position, if ``Sweep.settle`` made it)."""
        board, mines = self.sweep.board(), self.game.mines
        result = self.analyzer.analyze(board) if answer is None else self.analyzer.counted(board, answer)
        self.reason, self.ranked = "exact analysis", []
        if result.decides:  # (without listing the cells: after a compiled settle there are none)
            cell_id = self.size.cell_id
            return [self.certain_flags[cell_id(c)] for c in result.certain_mines] + [
                self.certain_opens[cell_id(c)] for c in result.certain_safe
            ]
        cells = self.player.endgame_cells
        if cells is None or board.size.n_cells <= cells:
            if result.count <= self.player.endgame_layouts:
                move = self.endgame(board, result)
            elif result.count <= self.player.endgame_compiled:  # only if the compiled engine can search it
                budget = self.player.endgame_budget if result.count > self.player.endgame_budget_above else 0
                move = self.endgame(board, result, COMPILED_CELLS, budget)
            else:
                move = None
            if move:
                self.reason = "exact endgame"
                return [move]
        return [self.guess(board, mines, result)]

    def guess(self, board: Board, mines: int, result) -> Move:
        """The safest cell; among near-safest ones, the likeliest to be safe and make progress.

        Without look-ahead: the safest cell, ties broken by fewest unopened
        neighbours (likelier to show a zero or a telling number), then row order.
        """
        risk = {c: result.probability(c) for c in board.unopened_cells()}
        best = min(risk.values())
        if not self.player.lookahead:
            cell = min((c for c in risk if risk[c] == best), key=lambda c: (self._unopened_around(c), c))
            self.reason = "safest"
            return Move("open", cell, False, best)
        rank = self._ranks(risk.values(), best + self.player.tolerance)
        near = [c for c in risk if id(risk[c]) in rank]
        candidates = sorted(near, key=lambda c: (rank[id(risk[c])], self._unopened_around(c), c))[
            : self.player.lookahead
        ]
        if len(candidates) == 1:
            self.reason = "only candidate"
            return Move("open", candidates[0], False, best)
        score = {c: self.progress(board, mines, c, result.count) for c in candidates}
        order = sorted(candidates, key=lambda c: (score[c], -risk[c], -candidates.index(c)), reverse=True)
        self.reason, self.ranked = "most progress", [Ranked(c, risk[c], float(score[c]), True) for c in order]
        return Move("open", order[0], False, risk[order[0]])

    def progress(self, board: Board, mines: int, cell: Cell, total: int) -> Fraction:
        """The chance that ``cell`` is safe and the number it shows makes a certain cell appear."""
        good = sum(after.count for after in self.analyzer.outlook(board, cell, 0).values() if after.decides)
        return Fraction(good, total)

    def endgame(self, board: Board, result, cells: int | None = None, budget: int = 0) -> Move | None:
        """The exact optimal move when few layouts remain and no cell is certain (ties: the safest, then row
        order); None when more than ``cells`` cells are undecided, or the search needs more work than ``budget``."""
        if result.count == 2:  # and no cell certain (``exact``): each unopened cell is a mine in one layout alone,
            # so opening it wins with 1/2, and then tells the layout: all tie, and the first in row order is played
            unopened = board.unopened_cells()
            if cells is not None and len(unopened) > cells:
                return None
            return Move("open", unopened[0], False, result.probability(unopened[0]), HALF)
        # the best cells alone: all the move needs
        values = self.search.values(board, cells=cells, best=True, count=result.count, budget=budget)
        if values is None:
            return None
        top = max(values.values())
        risk = {c: result.probability(c) for c in values if values[c] == top}
        cell = min(risk, key=lambda c: (risk[c], c))
        return Move("open", cell, False, risk[cell], top)

    @staticmethod
    def _ranks(probabilities, limit: Fraction) -> dict[int, int]:
        """By ``id``: the rank of each probability up to ``limit`` (equal values, equal ranks).

        The cells of a group share one Fraction object, so a position has a few dozen distinct
        objects for hundreds of cells: they are sorted once, and no Fraction is hashed."""
        distinct = sorted({id(p): p for p in probabilities}.values())
        ranks: dict[int, int] = {}
        rank, previous = -1, None
        for p in distinct:
            if p > limit:
                break
            if p != previous:
                rank, previous = rank + 1, p
            ranks[id(p)] = rank
        return ranks

    def _unopened_around(self, cell: Cell) -> int:
        return len(self.hidden(self.size.cell_id(cell)))


class SafestPlayer(LookaheadPlayer):
    """``LookaheadPlayer`` without the look-ahead: always the safest cell (ties: fewest unopened neighbours)."""

    name = "safest"

    def __init__(self, endgame_layouts: int = 24):
        super().__init__(lookahead=0, endgame_layouts=endgame_layouts)


__all__ = ["LookaheadPlayer", "LookaheadRun", "SafestPlayer"]
