"""Automatic players: article 003's ZDD player, and our look-ahead player on the exact analysis.

Both play a ``minelib.game.Game`` to the end and share one signature:
``player.play(game, first) -> Record`` and ``player.recommend(board, mines) -> Move``;
``PLAYERS`` registers them by name, and the contract tests loop over it.

- ``ZDDPlayer`` is the article's player. It keeps a ZDD of the consistent
  layouts of the frontier cells, updated as cells open: new frontier cells are
  added at the top, each new number applied by ``hint``, the total by ``limit``.
  Certain safe cells are opened, certain mines flagged (``onset``), and
  otherwise the cell of least danger (layouts with a mine there, weighted by
  binomials for the cells next to no number; exact big integers) is opened.
- ``LookaheadPlayer`` plays on the exact analysis. Certainties come first, from the
  cheap to the exact: the one-number rules on a work queue (compiled, ``minelib.sweep``), then the exact analysis
  with the total (``minelib.Analyzer``, which follows the game and recounts only what changed).
  When a guess is needed it opens the safest cell, and among the cells
  within ``tolerance`` of the safest (at most ``lookahead`` of them, those with
  fewest unopened neighbours first) prefers the
  one most likely to be safe *and* to make progress (show a number from which a
  certain cell follows): a one-step look-ahead with exact counts. When at most
  ``endgame_layouts`` layouts remain (on boards of at most ``endgame_cells`` cells) it plays
  the exact optimal move (``minelib.optimal.EndgameSearch``, on the undecided cells alone: the
  compiled engine when they are at most 63, so ``endgame_compiled`` lets it search thousands of
  layouts on expert). ``SafestPlayer`` is the same player without the
  look-ahead (ties broken by fewest unopened neighbours), to measure what the
  look-ahead buys.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from minelib import sweep
from minelib.analysis import Analysis, Analyzer, ImpossiblePosition, choose
from minelib.board import MINE, UNOPENED, Board, Cell, neighbour_sums
from minelib.game import PLAYING, Game, neighbour_ids
from minelib.latent import LatentFiftyFifties, mine_layouts
from minelib.optimal import COMPILED_CELLS, POSITION_CELLS, EndgameSearch
from minelib.sweep import Sweep
from minelib.zdd import BASE, ZDD


@dataclass(frozen=True)
class Move:
    """A move: open or flag ``cell``; ``certain`` if no consistent layout makes it wrong.

    ``win_probability``: when the exact endgame search chose the move, the probability of winning
    from the position by making it and playing optimally after (else None).
    """

    kind: str
    cell: Cell
    certain: bool
    mine_probability: Fraction | None = None
    win_probability: Fraction | None = None


@dataclass
class Record:
    """How a game went: won or not, guesses made, seconds spent, and (if asked) every move."""

    won: bool
    guesses: int
    seconds: float
    moves: list[Move] = field(default_factory=list)


def _at_least(low: int, **values) -> None:
    """Raise ValueError naming the first of ``values`` (a player's options) below ``low``."""
    for name, value in values.items():
        if value < low:
            raise ValueError(f"{name} must be at least {low}, got {value}")


class _Player:
    """What both players share: the game, a move log, and opening / flagging by cell id."""

    def __init__(self, game: Game, log: bool):
        self.log: list[Move] | None = [] if log else None
        self.game, self.size = game, game.size
        self.neighbours = neighbour_ids(game.size)
        self.values = game._values  # the live view: read only here
        self.guesses = 0

    def open(self, c: int, certain: bool, p: Fraction | None = None) -> list[int]:
        if self.log is not None:
            self.log.append(Move("open", self.size.cell_at(c), certain, p))
        if not certain:
            self.guesses += 1
        return self.game.open_id(c)

    def flag(self, c: int) -> None:
        if self.log is not None:
            self.log.append(Move("flag", self.size.cell_at(c), True, Fraction(1)))
        self.game.flag_id(c)

    def hidden(self, c: int) -> list[int]:
        return [n for n in self.neighbours[c] if self.values[n] == UNOPENED]

    def need(self, c: int) -> int:
        """Mines still to find around number c."""
        return self.values[c] - sum(self.values[n] == MINE for n in self.neighbours[c])

    def record(self, start: float) -> Record:
        return Record(self.game.status == "won", self.guesses, time.perf_counter() - start, self.log or [])


# --- article 003: the ZDD player ----------------------------------------------------


class ZDDPlayer:
    """Article 003's player: a ZDD of the frontier layouts; certain cells, else least danger.

    With ``cross_check``, every decision also checks the ZDD's layout count and every cell's
    danger against an ``Analyzer`` following the same game, and raises ``RuntimeError`` at the
    first disagreement: two independent exact methods, move by move.
    """

    name = "zdd"

    def __init__(self, cross_check: bool = False):
        self.cross_check = cross_check

    def play(self, game: Game, first: Cell, log: bool = False) -> Record:
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


class _ZDDRun(_Player):
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
        moves = [Move("flag", self.size.cell_at(self.cell_of[v]), True, Fraction(1)) for v in sorted(flags)]
        moves += [
            Move("open", self.size.cell_at(c), True, Fraction(0))
            for c, v in sorted(self.var_of.items())
            if v not in items
        ]
        if m and set(self.zdd.sizes(self.family)) == {b}:  # all mines left are on the frontier
            moves += [Move("open", self.size.cell_at(c), True, Fraction(0)) for c in self.interior()]
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


# --- the look-ahead player ------------------------------------------------------------------


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
    ):
        _at_least(0, tolerance=tolerance, lookahead=lookahead, endgame_layouts=endgame_layouts)
        _at_least(0, endgame_compiled=endgame_compiled, endgame_cells=0 if endgame_cells is None else endgame_cells)
        sweep.warm_up()  # its first call in a process loads it: not inside a timed game
        self.tolerance, self.lookahead, self.endgame_layouts = Fraction(tolerance), lookahead, endgame_layouts
        self.endgame_cells = endgame_cells  # None: any board
        self.endgame_compiled = endgame_compiled

    def play(self, game: Game, first: Cell, log: bool = False, then: tuple[Cell, ...] = ()) -> Record:
        """Play a game from the first click; ``then``: cells opened next, before the player decides
        (forced guesses, to measure what a choice of the player's is worth)."""
        for cell in then:
            if (cell[0], cell[1]) not in game.size:
                raise ValueError(f"cell {tuple(cell)} to open after the first click is outside the {game.size} board")
        start = time.perf_counter()
        run = self._run(game, log)
        run.play(first, then)
        return run.record(start)

    def _run(self, game: Game, log: bool) -> _LookaheadRun:
        return _LookaheadRun(game, log, self)

    def recommend(self, board: Board, mines: int) -> Move:
        """The move this player makes in a position."""
        game = Game.showing(board, mines)
        run = self._run(game, True)
        run.sweep.queue_all()  # the first number that settles its cells, row by row
        return run.decide()[0]


class _LookaheadRun(_Player):
    def __init__(self, game: Game, log: bool, player: LookaheadPlayer):
        super().__init__(game, log)
        self.player = player
        self.sweep = Sweep(game)  # the one-number rules, compiled: their work queue of numbers
        self.analyzer = Analyzer(game.mines)  # follows the game: each analysis recounts what changed
        self.search = EndgameSearch(game.mines)  # follows the game too: its memo is kept

    def play(self, first: Cell, then: tuple[Cell, ...] = ()) -> None:
        for cell in (first, *then):
            c = self.size.cell_id(cell)
            if self.game.status == PLAYING and self.values[c] == UNOPENED:
                self.sweep.took(self.open(c, certain=False))
        while self.game.status == PLAYING:
            self.swept(self.sweep.run())
            if self.game.status != PLAYING:
                return
            for move in self.exact():
                c = self.size.cell_id(move.cell)
                if move.kind == "flag" and self.values[c] == UNOPENED:
                    self.flag(c)
                    self.sweep.took([c])
                elif move.kind == "open" and self.values[c] == UNOPENED:
                    self.sweep.took(self.open(c, move.certain, move.mine_probability))
                if self.game.status != PLAYING:
                    return

    def swept(self, moves: list[int]) -> None:
        """Log the moves a sweep played (a flag written ``~cell``)."""
        if self.log is not None:
            self.log.extend(self._move(c) for c in moves)

    def decide(self) -> list[Move]:
        """Certain moves (one-number rules, then the exact analysis), else one guess.

        Every certain cell is found before a guess, whatever finds it, so the position at each
        guess is the same with or without cheap rules in front: they only save time, and the order
        of certain moves changes no guess. (A rule for two numbers whose unopened cells nest used to
        stand between the two; scanning every number for it cost more than the incremental exact
        analysis, 3.6x on 40x40 games.) ``play`` runs the one-number rules compiled, to the end."""
        return self.single() or self.exact()

    def single(self) -> list[Move]:
        """The moves of the first queued number that settles its unopened neighbours, or none."""
        return [self._move(c) for c in self.sweep.first()]

    def _move(self, c: int) -> Move:
        if c < 0:
            return Move("flag", self.size.cell_at(~c), True, Fraction(1))
        return Move("open", self.size.cell_at(c), True, Fraction(0))

    def exact(self) -> list[Move]:
        board, mines = self.sweep.board(), self.game.mines
        result = self.analyzer.analyze(board)
        if result.certain_safe or result.certain_mines:
            return [Move("flag", c, True, Fraction(1)) for c in result.certain_mines] + [
                Move("open", c, True, Fraction(0)) for c in result.certain_safe
            ]
        cells = self.player.endgame_cells
        if cells is None or board.size.n_cells <= cells:
            if result.count <= self.player.endgame_layouts:
                move = self.endgame(board, result)
            elif result.count <= self.player.endgame_compiled:  # only if the compiled engine can search it
                move = self.endgame(board, result, COMPILED_CELLS)
            else:
                move = None
            if move:
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
            return Move("open", cell, False, best)
        rank = self._ranks(risk.values(), best + self.player.tolerance)
        near = [c for c in risk if id(risk[c]) in rank]
        candidates = sorted(near, key=lambda c: (rank[id(risk[c])], self._unopened_around(c), c))[
            : self.player.lookahead
        ]
        if len(candidates) == 1:
            return Move("open", candidates[0], False, best)
        score = {c: self.progress(board, mines, c, result.count) for c in candidates}
        cell = max(candidates, key=lambda c: (score[c], -risk[c], -candidates.index(c)))
        return Move("open", cell, False, risk[cell])

    def progress(self, board: Board, mines: int, cell: Cell, total: int) -> Fraction:
        """The chance that ``cell`` is safe and the number it shows makes a certain cell appear."""
        good = sum(after.count for after in self.analyzer.what_if(board, cell).values() if after.decides)
        return Fraction(good, total)

    def endgame(self, board: Board, result, cells: int | None = None) -> Move | None:
        """The exact optimal move when few layouts remain (ties: the safest, then row order); None
        when more than ``cells`` cells are undecided."""
        values = self.search.values(board, cells=cells, best=True)  # the best cells alone: all the move needs
        if values is None:
            return None
        cell = max(values, key=lambda c: (values[c], -result.probability(c), -c[0], -c[1]))
        return Move("open", cell, False, result.probability(cell), values[cell])

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


class TwoStepPlayer(LookaheadPlayer):
    """``LookaheadPlayer`` whose guess looks one move further: the chance to survive two moves.

    Candidates: the cells whose safety is at least ``cut`` (4/5) times the best safety (the frontier's,
    those with fewest unopened neighbours first, and up to ``off_frontier`` cells next to no
    number when those are safe enough: fewest unopened neighbours, then two cells straight from
    a number), at most ``candidates`` in all. For each, every number it may show is analysed
    (``Analyzer.what_if``) and scored by the blended safety of the best next guess,
    ``(blend * s1 + s2) / (blend + 1)`` with s1, s2 the two safest cells' safeties (1 when a
    certain cell appears); the candidate's score is that blend averaged over its numbers,
    weighted by their layouts, so it includes its own safety. A *dead* candidate (it shows the
    same number in every layout where it is safe: opening it teaches nothing) is played only if
    every candidate is dead. Ties: the likelier to make progress, the safer, then the order above.
    When at most ``endgame_layouts`` layouts remain it plays the exact optimal move on any board
    (``endgame_cells``: only on boards of at most that many cells), and when at most
    ``endgame_compiled`` (5,000) remain on at most 63 undecided cells (the compiled engine's reach).
    With ``forced``, a 50/50 that no other move can ever resolve is guessed first (``forced_pair``).
    With ``influence`` (JSMinesweeper's 50/50 influence; 9/10 as there, 0 turns it off), the latent 50/50s count
    (``minelib.latent``): a cell that is "a 50/50 or safe" is guessed first, the cells of latent
    50/50s join the candidates, and a candidate's score is multiplied by
    ``1 + influence * L / S`` (L its layouts as a mine of a latent 50/50, S its safe layouts): the
    risk it would have to take anyway weighs less.
    The blend is ranked in floating point (certainty never is), rounded to 1e-9 so that play is
    deterministic.
    """

    name = "twostep"

    def __init__(
        self,
        cut: Fraction = Fraction(4, 5),
        candidates: int = 16,
        off_frontier: int = 3,
        blend: int = 4,
        dead: bool = True,
        endgame_layouts: int = 100,
        endgame_cells: int | None = None,
        endgame_compiled: int = 5000,
        forced: bool = True,
        influence: Fraction = Fraction(9, 10),
    ):
        super().__init__(
            lookahead=candidates,
            endgame_layouts=endgame_layouts,
            endgame_cells=endgame_cells,
            endgame_compiled=endgame_compiled,
        )
        if not 0 < cut <= 1:
            raise ValueError(f"cut must be above 0 and at most 1 (a fraction of the best safety), got {cut}")
        _at_least(1, candidates=candidates)
        _at_least(0, off_frontier=off_frontier, blend=blend, influence=influence)
        for name, flag in (("dead", dead), ("forced", forced)):
            if flag not in (0, 1):
                raise ValueError(f"{name} must be 0 or 1 (off or on), got {flag}")
        self.cut, self.off_frontier, self.blend, self.dead = Fraction(cut), off_frontier, blend, dead
        self.forced, self.influence = forced, Fraction(influence)

    def _run(self, game: Game, log: bool) -> _LookaheadRun:
        return _TwoStepRun(game, log, self)

    def scores(self, board: Board, mines: int) -> dict[Cell, float]:
        """The two-step score of every candidate the player weighs in this position (none when a
        certain move exists): the chance to survive it and the blended next guess."""
        run = _TwoStepRun(Game.showing(board, mines), False, self)
        result = run.analyzer.analyze(board)
        if result.certain_safe or result.certain_mines:
            return {}
        return {c: run.score(board, result, c)[1] for c in run.candidates(board, result)[1]}


class _TwoStepRun(_LookaheadRun):
    player: TwoStepPlayer
    _latent: Analyzer | None = None

    def guess(self, board: Board, mines: int, result) -> Move:
        """The candidate with the best chance to survive this guess and the next (see TwoStepPlayer);
        with ``forced``, a 50/50 no future move can resolve first."""
        risk, candidates = self.candidates(board, result)
        if self.player.forced:
            pair = self.forced_pair(board, risk)
            if pair:
                a, b = pair
                cell = a if self.score(board, result, a)[1] >= self.score(board, result, b)[1] else b
                return Move("open", cell, False, Fraction(1, 2))
        weight = dict.fromkeys(candidates, 1.0)  # the score's factor: 1 + influence * L / S
        if self.player.influence:
            latent = LatentFiftyFifties(self.latent_analyzer, board, result)
            pseudo = latent.pseudo()
            if pseudo:  # a 50/50 or safe: the living one with the best score, then row by row
                cell = max(pseudo, key=lambda c: self.score(board, result, c)[:2] + (-pseudo.index(c),))
                return Move("open", cell, False, risk[cell])
            weight = self._influenced(latent, risk, candidates)
            candidates = list(weight)
        if len(candidates) == 1:
            return Move("open", candidates[0], False, risk[candidates[0]])
        scores: dict[Cell, tuple] = {}
        floor = -1.0  # the best score of a living candidate so far
        for c in candidates:
            if (1 - float(risk[c])) * weight[c] < floor - 1e-9:  # even a certain next move cannot reach the best
                continue
            living, score, progress = self.score(board, result, c)
            score *= weight[c]
            scores[c] = (living or not self.player.dead, round(score, 9), progress, -risk[c])
            if scores[c][0]:
                floor = max(floor, score)
        cell = max(scores, key=lambda c: scores[c] + (-candidates.index(c),))
        return Move("open", cell, False, risk[cell])

    def _influenced(self, latent: LatentFiftyFifties, risk: dict[Cell, Fraction], candidates: list[Cell]):
        """Each candidate's factor, the cells of latent 50/50s safe enough with their influence added."""
        count, best = latent.analysis.count, 1 - min({id(p): p for p in risk.values()}.values())  # groups share one
        weight = {}
        cells = {self.size.cell_at(c) for _, members, gaps, _ in latent.found for c in members + gaps}
        for c in candidates + sorted(cells - set(candidates)):
            safe = count - mine_layouts(latent.analysis, c)
            if not safe:  # a certain mine: never a candidate
                continue
            influence = latent.influence(c)
            if c in candidates or Fraction(safe + influence, count) >= self.player.cut * best:
                try:
                    weight[c] = 1 + float(self.player.influence) * influence / safe
                except OverflowError:  # counts past the range of a float (40x40 with 320 mines): the ratio first
                    weight[c] = 1 + float(self.player.influence) * (influence / safe)
        return weight

    @property
    def latent_analyzer(self) -> Analyzer:
        """The analyzer that counts the latent 50/50s' layouts (made on first use: it follows its own boards)."""
        if self._latent is None:
            self._latent = Analyzer(self.game.mines)
        return self._latent

    def forced_pair(self, board: Board, risk: dict[Cell, Fraction]) -> tuple[Cell, Cell] | None:
        """Two cells, one of them a mine in every layout, that nothing but opening one can tell apart:
        every other cell next to just one of them is a known mine, so every layout has a twin with
        the mine moved to the other one, showing the same numbers everywhere else. It must be
        guessed some day at 1/2 whatever comes first; guessed now, its number informs the guesses
        after it (a pair as far apart as two cells, the first one row by row). ``risk``: every unopened
        cell's mine probability (``candidates``)."""
        halves = {self.size.cell_id(c) for c, p in risk.items() if p.denominator == 2}  # 1/2, in lowest terms
        for a in sorted(halves):
            for b in self._near(a):
                if b in halves and b > a and self._twins(a, b):
                    first, second = self.size.cell_at(a), self.size.cell_at(b)
                    if all(after.probability(second) == 1 for after in self.analyzer.what_if(board, first).values()):
                        return first, second
        return None

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

    def candidates(self, board: Board, result) -> tuple[dict[Cell, Fraction], list[Cell]]:
        """Every unopened cell's mine probability, and the cells worth a look, safest first."""
        player = self.player
        risk = result.risks()
        distinct = {id(p): p for p in risk.values()}.values()
        limit = 1 - player.cut * (1 - min(distinct))
        rank = self._ranks(distinct, limit)
        near = [c for c, p in risk.items() if id(p) in rank]
        values, width = board.values, board.size.width
        numbers = values >= 0
        around = neighbour_sums(values == UNOPENED).ravel().tolist()  # unopened neighbours
        numbered = neighbour_sums(numbers).ravel().tolist()  # numbers next to the cell
        two = np.zeros_like(numbers)  # a number two cells straight up, down, left or right
        two[2:] |= numbers[:-2]
        two[:-2] |= numbers[2:]
        two[:, 2:] |= numbers[:, :-2]
        two[:, :-2] |= numbers[:, 2:]
        far = two.ravel().tolist()
        frontier = [c for c in near if numbered[c[0] * width + c[1]]]
        interior = [c for c in near if not numbered[c[0] * width + c[1]]]
        frontier.sort(key=lambda c: (rank[id(risk[c])], around[c[0] * width + c[1]], c))
        interior.sort(key=lambda c: (around[c[0] * width + c[1]], not far[c[0] * width + c[1]], c))
        candidates = (interior[: player.off_frontier] + frontier)[: player.lookahead] or interior[:1]
        candidates.sort(key=lambda c: (risk[c], c))  # safest first: the bound in guess prunes more
        return risk, candidates

    def score(self, board: Board, result, cell: Cell) -> tuple[bool, float, Fraction]:
        """Whether ``cell`` is living (may show two numbers or more), its two-step score, and the
        chance that it is safe and shows a number from which a certain cell follows."""
        afters = self.analyzer.what_if(board, cell)
        blended = [(after.count, self._blended(after)) for after in afters.values()]
        try:
            score = sum(count * b for count, b in blended) / result.count
        except OverflowError:  # counts past the range of a float (40x40 with 320 mines): ratios first
            # (not always: the product form is what the stored runs played, to the last bit)
            score = sum(count / result.count * b for count, b in blended)
        progress = Fraction(sum(a.count for a in afters.values() if a.decides), result.count)
        return len(afters) > 1, score, progress

    def _blended(self, after: Analysis) -> float:
        """The blended safety of the best next guess after a candidate showed a number."""
        low = after.lowest_risks(2)
        if not low:
            return 1.0  # nothing left that may be safe: the game is won
        s1 = 1 - low[0]
        s2 = 1 - low[1] if len(low) > 1 else s1
        return (self.player.blend * s1 + s2) / (self.player.blend + 1)


class SafestPlayer(LookaheadPlayer):
    """``LookaheadPlayer`` without the look-ahead: always the safest cell (ties: fewest unopened neighbours)."""

    name = "safest"

    def __init__(self, endgame_layouts: int = 24):
        super().__init__(lookahead=0, endgame_layouts=endgame_layouts)


PLAYERS = {player.name: player for player in (ZDDPlayer, LookaheadPlayer, SafestPlayer, TwoStepPlayer)}
STRONGEST = TwoStepPlayer.name  # the player the command line and the record runs use unless told
OLD_NAMES = {"best": "lookahead"}


@dataclass(frozen=True)
class Regret:
    """A heuristic guess in a position the exact search reaches: the layouts left, the best cell's
    win probability under optimal play less that of the cell opened, and the search's seconds."""

    layouts: int
    regret: Fraction
    seconds: float


def guess_regrets(
    player: LookaheadPlayer, game: Game, first: Cell, layouts: tuple[int, int] = (0, 20_000)
) -> tuple[Record, list[Regret]]:
    """Play ``game`` from ``first`` and, at each guess of the player's heuristic (not its exact endgame
    moves) in a position of at most 63 unopened cells with ``low < layouts <= high``, the exact regret
    of the cell it opened (``EndgameSearch``). Layouts never grow as a game goes on, so a game once in
    reach stays there, and the value a player loses against optimal play from there is the expected
    sum of its regrets along its games: summed over games, an unbiased estimate of what the exact
    move would add to its win rate, without the noise of won and lost games."""
    low, high = layouts
    found: list[Regret] = []
    start = time.perf_counter()
    run = player._run(game, False)
    plain = run.guess

    def guess(board: Board, mines: int, result) -> Move:
        move = plain(board, mines, result)
        if low < result.count <= high and len(board.unopened_cells()) <= COMPILED_CELLS:
            began = time.perf_counter()
            values = EndgameSearch(mines).values(board)
            assert values is not None  # at most 63 unopened cells: the compiled search always answers
            found.append(Regret(result.count, max(values.values()) - values[move.cell], time.perf_counter() - began))
        return move

    run.guess = guess  # type: ignore[method-assign]  # this run only
    run.play(first)
    return run.record(start), found


@dataclass(frozen=True)
class Guess:
    """A guess a player made: the cell, the layouts left and the unopened cells in its position, the
    cell's mine probability, and whether the exact endgame search chose it (else the heuristic)."""

    cell: Cell
    layouts: int
    unopened: int
    mine_probability: Fraction
    exact: bool


def guess_positions(player: LookaheadPlayer, game: Game, first: Cell) -> tuple[Record, list[Guess]]:
    """Play ``game`` from ``first`` and describe the position of each of the player's guesses, in
    order: where in a game the guesses are made and the games lost (the last guess of a lost game
    found the mine). The same moves as ``player.play``."""
    found: list[Guess] = []
    start = time.perf_counter()
    run = player._run(game, False)
    plain_guess, plain_endgame = run.guess, run.endgame

    def note(board: Board, result, move: Move) -> None:
        assert move.mine_probability is not None  # a guess always carries its mine probability
        exact = move.win_probability is not None
        found.append(Guess(move.cell, result.count, len(board.unopened_cells()), move.mine_probability, exact))

    def guess(board: Board, mines: int, result) -> Move:
        move = plain_guess(board, mines, result)
        note(board, result, move)
        return move

    def endgame(board: Board, result, cells: int | None = None) -> Move | None:
        move = plain_endgame(board, result, cells)
        if move is not None:
            note(board, result, move)
        return move

    run.guess, run.endgame = guess, endgame  # type: ignore[method-assign]  # this run only
    run.play(first)
    return run.record(start), found


def play_runner_up(
    player: TwoStepPlayer, game: Game, first: Cell, guess: int, log: bool = False
) -> tuple[Record, tuple[Cell, Cell] | None]:
    """Play ``game`` from ``first`` as ``player`` does, but at its ``guess``-th heuristic guess (from 1;
    not the exact endgame's moves; a forced or latent 50/50 it plays first counts as one) open its best
    other candidate by two-step score, influence not weighed, instead (ties: the candidates' order).
    The record, and the cell the player would have opened with the one opened instead; None when the
    game never came to that guess or it had a single candidate (then the game is the player's own).
    Played on the same game as the player's own run, it measures what the player's choice over its
    runner-up is worth at that point of a game."""
    run = _TwoStepRun(game, log, player)
    plain = run.guess
    made, forked = 0, None

    def fork(board: Board, mines: int, result) -> Move:
        nonlocal made, forked
        move = plain(board, mines, result)
        made += 1
        if made != guess:
            return move
        risk, candidates = run.candidates(board, result)
        others = [c for c in candidates if c != move.cell]
        if not others:
            return move
        cell = max(others, key=lambda c: (run.score(board, result, c)[1], -candidates.index(c)))
        forked = (move.cell, cell)
        return Move("open", cell, False, risk[cell])

    start = time.perf_counter()
    run.guess = fork  # type: ignore[method-assign]  # this run only
    run.play(first)
    return run.record(start), forked


def make_player(name: str, options: str = ""):
    """The registered player ``name`` with ``options`` written ``key=value,...`` (values are integers,
    or fractions such as ``9/10``); raise ValueError naming an unknown player, option or value."""
    check_player(name)
    kwargs: dict[str, Any] = {}  # each player checks its own options
    for item in filter(None, (part.strip() for part in options.split(","))):
        key, equals, value = item.partition("=")
        try:
            if not equals:
                raise ValueError
            kwargs[key.strip()] = Fraction(value) if "/" in value else int(value)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"player option {item!r} is not written key=value with a number") from None
    try:
        return PLAYERS[name](**kwargs)
    except TypeError as error:
        raise ValueError(f"player {name!r} does not take these options: {options!r} ({error})") from None


def check_player(name: str) -> None:
    """Raise ValueError unless ``name`` is a registered player."""
    if name not in PLAYERS:
        raise ValueError(
            f"unknown player {name!r} (expected one of {', '.join(PLAYERS)})"
        )  # the registry's names before 0.2, as found in old results files


__all__ = [
    "PLAYERS",
    "STRONGEST",
    "LookaheadPlayer",
    "Move",
    "Record",
    "Regret",
    "SafestPlayer",
    "TwoStepPlayer",
    "ZDDPlayer",
    "check_player",
    "guess_regrets",
    "make_player",
]
