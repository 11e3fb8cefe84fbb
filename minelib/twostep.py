"""Our strongest player: the look-ahead player whose guess looks one move further.

Each candidate guess is scored by the chance to survive it and the next guess (every number it may
show analysed exactly), with JSMinesweeper's refinements measured one by one in notebook 06: dead
cells, forced and latent 50/50s, and the exact endgame from thousands of layouts on any board.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from fractions import Fraction

import numpy as np
from numba import njit

from minelib.analysis import Analysis, Analyzer, Outlook
from minelib.board import UNOPENED, Board, Cell
from minelib.forced import ForcedFiftyFifties
from minelib.game import Game, neighbour_table
from minelib.latent import LatentFiftyFifties, mine_layouts
from minelib.latent import warm_up as warm_up_latent
from minelib.lookahead import LookaheadPlayer, LookaheadRun, Ranked
from minelib.moves import Move, at_least

SCORED_REASONS = ("best score", "deeper look", "second look")  # a guess the two-step score ranked (``reason``)

# The book: the guesses made where few cells are open (a first click's number, a corner's or two: such a position
# comes again in game after game), kept by position, mines and the player's settings, so that each is worked out
# once per process. What the guess sets (its reason, the guesses it ranked) is kept with it: the same moves and
# explanations with the book or without (``tests/test_players.py``); with a safe first click on expert the defaults
# 1.23 times faster in all and 1.72 in medians, the second look 1.45 and 2.70 (``benchmarks/shortcuts.py book``).
# At most BOOK_OPENED cells open (0: no book); at most BOOK_SIZE positions, the least recently used dropped first.
BOOK_OPENED = 8
BOOK_SIZE = 4096
BOOK: OrderedDict[tuple, tuple[Move, str, tuple[Ranked, ...], tuple[Cell, ...] | None]] = OrderedDict()


class TwoStepPlayer(LookaheadPlayer):
    """``LookaheadPlayer`` whose guess looks one move further: the chance to survive two moves.

    Candidates: the cells whose safety is at least ``cut`` (4/5) times the best safety (the frontier's,
    those with fewest unopened neighbours first, and up to ``off_frontier`` cells next to no
    number when those are safe enough: fewest unopened neighbours, then two cells straight from
    a number), at most ``candidates`` in all. For each, every number it may show is analysed
    (``Analyzer.outlook``) and scored by the blended safety of the best next guess,
    ``(blend * s1 + s2) / (blend + 1)`` with s1, s2 the two safest cells' safeties (1 when a
    certain cell appears); the candidate's score is that blend averaged over its numbers,
    weighted by their layouts, so it includes its own safety. A *dead* candidate (it shows the
    same number in every layout where it is safe: opening it teaches nothing) is played only if
    every candidate is dead. Ties: the likelier to make progress, the safer, then the order above.
    When at most ``endgame_layouts`` layouts remain it plays the exact optimal move on any board
    (``endgame_cells``: only on boards of at most that many cells), and when at most
    ``endgame_compiled`` (200,000 since 2026-12-03, 50,000 from 2026-12-01, 20,000 from 2026-11-29;
    ``endgame_compiled=50000``, ``endgame_compiled=20000`` and ``endgame_compiled=5000`` replay the runs before,
    measured in ``benchmarks/README.md``) remain on at most 63 undecided cells (the compiled engine's reach); with
    ``endgame_budget`` (400,000,000 since 2026-12-03; 0: none), a search of more than ``endgame_budget_above``
    (50,000) layouts that needs more work than that (``Engine.work``, about 2 to 7 seconds of search) is given up
    and the guess made as below.
    With ``forced``, a 50/50 that no other move can ever resolve is guessed first (``forced_pair``);
    with ``chains`` too, such a 50/50 of four cells or more (``forced_chain``: JSMinesweeper's chained
    50/50s; on by default since 2026-11-26, ``chains=0`` replays the runs before, measured in
    ``benchmarks/README.md``).
    With ``influence`` (JSMinesweeper's 50/50 influence; 9/10 as there, 0 turns it off), the latent 50/50s count
    (``minelib.latent``): a cell that is "a 50/50 or safe" is guessed first, the cells of latent
    50/50s join the candidates, and a candidate's score is multiplied by
    ``1 + influence * L / S`` (L its layouts as a mine of a latent 50/50, S its safe layouts): the
    risk it would have to take anyway weighs less.
    With ``deep`` (4; 0 turns it off), the best ``deep`` living candidates whose scores are within
    ``deep_margin`` (1/20) of the best, when there are two or more, are looked at one move further
    (on expert 4.5 times the time a game; on by default since 2026-11-26, ``deep=0`` replays the runs
    before, measured in ``benchmarks/README.md``), and the best of that is played
    (reason "deeper look"): after each number a candidate may show, the best two-step score there,
    a certain cell counting as a move (``_deeper``).
    With ``second`` (on by default since 2026-11-28, at 2.8 times the time a game on expert; ``second=0``
    replays the runs before; measured in ``benchmarks/README.md``), the deeper look's ``second_width`` (2)
    best, when no latent 50/50 weighs them, are each looked at one move further again (``_second``: after
    each number, the best deeper-look value there), and the best is played (reason "second look"; ties in
    the deeper look's order). With ``second=0`` and ``second_open`` (0: off), the second look only where at
    most that many cells are open (flags count): a first click's number and a far corner's, positions that
    come back game after game, where the book (``BOOK``) keeps the guess once it is worked out, so that the
    look costs once a process.
    The blend is ranked in floating point (certainty never is), rounded to 1e-9 so that play is
    deterministic. With ``ties`` the two cells of a forced 50/50 and the "50/50 or safe" cells are
    ranked so too (rounded, ties by the order above); without it (the default, the stored runs' play)
    by their unrounded scores, so that two cells of equal score go the way the floating-point sums
    happen to round. The same code plays the same moves either way; but with each score's terms off
    by 1e-12 (a compiled game loop summing floats), 2.2% of expert games are played otherwise
    without ``ties`` and none with it (``benchmarks/score_variants.py jitter:EPS``, ``benchmarks/README.md``).
    A guess where at most ``BOOK_OPENED`` cells are open is worked out once per process and kept in the book
    (``BOOK``): the same move, looked up in the games after.
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
        endgame_compiled: int = 200_000,
        endgame_budget: int = 400_000_000,
        endgame_budget_above: int = 50_000,
        forced: bool = True,
        influence: Fraction = Fraction(9, 10),
        ties: bool = False,
        chains: bool = True,
        deep: int = 4,
        deep_margin: Fraction = Fraction(1, 20),
        second: bool = True,
        second_width: int = 2,
        second_open: int = 0,
    ):
        at_least(1, candidates=candidates)  # (before the look-ahead player's check, which calls it lookahead)
        super().__init__(
            lookahead=candidates,
            endgame_layouts=endgame_layouts,
            endgame_cells=endgame_cells,
            endgame_compiled=endgame_compiled,
            endgame_budget=endgame_budget,
            endgame_budget_above=endgame_budget_above,
        )
        if not 0 < cut <= 1:
            raise ValueError(f"cut must be above 0 and at most 1 (a fraction of the best safety), got {cut}")
        at_least(0, off_frontier=off_frontier, blend=blend, influence=influence, deep=deep, deep_margin=deep_margin)
        at_least(2, second_width=second_width)
        at_least(0, second_open=second_open)
        for name, flag in (("dead", dead), ("forced", forced), ("ties", ties), ("chains", chains), ("second", second)):
            if flag not in (0, 1):
                raise ValueError(f"{name} must be 0 or 1 (off or on), got {flag}")
        self.cut, self.off_frontier, self.blend, self.dead = Fraction(cut), off_frontier, blend, dead
        self.forced, self.influence, self.ties, self.chains = forced, Fraction(influence), ties, chains
        self.deep, self.deep_margin, self.second, self.second_width = deep, Fraction(deep_margin), second, second_width
        self.second_open = second_open
        warm_up()

    def _run(self, game: Game, log: bool) -> LookaheadRun:
        return TwoStepRun(game, log, self)

    def scores(self, board: Board, mines: int) -> dict[Cell, float]:
        """The two-step score of every candidate the player weighs in this position (none when a
        certain move exists): the chance to survive it and the blended next guess."""
        run = TwoStepRun(Game.showing(board, mines), False, self)
        result = run.analyzer.analyze(board)
        if result.certain_safe or result.certain_mines:
            return {}
        return {c: run.score(board, result, c)[1] for c in run.candidates(board, result)[1]}


class TwoStepRun(ForcedFiftyFifties, LookaheadRun):
    player: TwoStepPlayer
    _latent: Analyzer | None = None
    forced_cells: tuple[Cell, ...] = ()  # the pair or chain of the last forced 50/50 guessed (reason "forced 50/50")

    def __init__(self, game: Game, log: bool, player: TwoStepPlayer):
        super().__init__(game, log, player)
        self._seen: dict[tuple, object] = {}  # what this decision worked out, by what and where (``_memo``)
        self._last: dict[tuple, object] = {}  # and what the last one did

    def _memo(self, key: tuple, work: Callable[[], object]):
        """``work()``, done once for each ``key`` (what is worked out, the position's values as bytes, the
        cell) in this decision and the last: the looks further meet a position by several paths (A then B,
        B then A), the second look scores again the positions the deeper look scored, and a guess is at times
        made where the last decision looked. What is kept is a function of the position alone, so play is
        the same with or without it (``tests/test_players.py``); two decisions' worth, not a game's, which
        would pile up on 80x80."""
        found = self._seen.get(key)
        if found is None:
            found = self._last.get(key)
            if found is None:
                found = work()
            self._seen[key] = found
        return found

    def guess(self, board: Board, mines: int, result: Analysis) -> Move:
        """The candidate with the best chance to survive this guess and the next (see TwoStepPlayer);
        with ``forced``, a 50/50 no future move can resolve first. Where at most ``BOOK_OPENED`` cells are
        open, the guess is looked up in the book first (``_book_key``)."""
        self._last, self._seen = self._seen, {}
        key = self._book_key(board, mines)
        if key is None:
            return self._guess(board, mines, result)
        found = BOOK.get(key)
        if found is None:
            move = self._guess(board, mines, result)
            forced = self.forced_cells if self.reason == "forced 50/50" else None  # (set by such a guess alone)
            BOOK[key] = found = (move, self.reason, tuple(self.ranked), forced)
            if len(BOOK) > BOOK_SIZE:
                BOOK.popitem(last=False)  # the least recently used
        BOOK.move_to_end(key)
        move, self.reason, ranked, forced = found
        self.ranked = list(ranked)
        if forced is not None:
            self.forced_cells = forced
        return move

    def _book_key(self, board: Board, mines: int) -> tuple | None:
        """What the guess in this position is a function of, for the book (``BOOK``): the position, the mines
        and the player's settings; None where the book is not used: more than ``BOOK_OPENED`` cells open
        (such positions rarely come twice), or a run or player other than this module's (a variant may
        override any part of the guess, or count what it does)."""
        if type(self) is not TwoStepRun or type(self.player) is not TwoStepPlayer:
            return None
        if not BOOK_OPENED or _open_cells(board) > BOOK_OPENED:
            return None
        values = board.values
        return values.shape, values.tobytes(), mines, tuple(sorted(vars(self.player).items()))

    def _guess(self, board: Board, mines: int, result: Analysis) -> Move:
        """``guess`` worked out."""
        lowest, candidates = self.candidates(board, result)
        risk = result.probability
        if self.player.forced:
            pair = self.forced_pair(board, result)
            if pair:
                a, b = pair
                cell = a if self._ranked(board, result, a)[1] >= self._ranked(board, result, b)[1] else b
                self.reason, self.forced_cells = "forced 50/50", (a, b)
                return Move("open", cell, False, Fraction(1, 2))
            chain = self.forced_chain(board, mines, result) if self.player.chains else None
            if chain:  # the living cell with the best score, then row by row
                cell = max(chain, key=lambda c: self._ranked(board, result, c) + (-chain.index(c),))
                self.reason, self.forced_cells = "forced 50/50", tuple(chain)
                return Move("open", cell, False, Fraction(1, 2))
        weight = dict.fromkeys(candidates, 1.0)  # the score's factor: 1 + influence * L / S
        if self.player.influence:
            latent = LatentFiftyFifties(self.latent_analyzer, board, result)
            pseudo = latent.pseudo()
            if pseudo:  # a 50/50 or safe: the living one with the best score, then row by row
                cell = max(pseudo, key=lambda c: self._ranked(board, result, c) + (-pseudo.index(c),))
                self.reason = "50/50 or safe"
                return Move("open", cell, False, risk(cell))
            weight = self._influenced(latent, lowest, candidates)
            candidates = list(weight)
        if len(candidates) == 1:
            self.reason = "only candidate"
            return Move("open", candidates[0], False, risk(candidates[0]))
        scores: dict[Cell, tuple] = {}
        floor = -1.0  # the best score of a living candidate so far
        for c in candidates:
            p = risk(c)
            assert p is not None  # a candidate is unopened
            if (1 - float(p)) * weight[c] < floor - 1e-9:  # even a certain next move cannot reach the best
                continue
            living, score, progress = self.score(board, result, c)
            score *= weight[c]
            scores[c] = (living or not self.player.dead, round(score, 9), progress, -p)
            if scores[c][0]:
                floor = max(floor, score)
        order = sorted(scores, key=lambda c: scores[c] + (-candidates.index(c),), reverse=True)
        self.reason = "best score"
        deeper: dict[Cell, float] = {}
        further: dict[Cell, float] = {}
        if self.player.deep:
            top, margin = scores[order[0]], float(self.player.deep_margin)
            near = [c for c in order if scores[c][0] == top[0] and scores[c][1] >= top[1] - margin][: self.player.deep]
            if len(near) > 1:
                deeper = {c: round(self._deeper(board, result, c) * weight[c], 9) for c in near}
                near.sort(key=lambda c: (deeper[c],) + scores[c] + (-candidates.index(c),), reverse=True)
                self.reason = "deeper look"
                best = near[: self.player.second_width]
                open_enough = self.player.second_open > 0 and _open_cells(board) <= self.player.second_open
                further_again = self.player.second or open_enough
                if further_again and all(weight[c] == 1 for c in best):  # no latent 50/50 weighs them
                    further = {c: round(self._second(board, result, c), 9) for c in best}
                    near[: len(best)] = sorted(best, key=further.__getitem__, reverse=True)  # stable: ties in order
                    self.reason = "second look"
                order = near + [c for c in order if c not in deeper]
        self.ranked = [
            Ranked(c, -scores[c][3], scores[c][1], scores[c][0], deeper.get(c), further.get(c)) for c in order
        ]
        return Move("open", order[0], False, risk(order[0]))

    def _second(self, board: Board, result: Analysis, cell: Cell) -> float:
        """The deeper look one move further again (``second``): over the numbers ``cell`` may show, the best
        deeper-look value in the position each leaves (``_further``)."""
        return self._deeper(board, result, cell, self._further)

    def _further(self, after: Analysis, look: Callable[[Board, Analysis, Cell], float] | None = None) -> float:
        """The best deeper-look value in the position ``after``: 1 when it is settled (``_settled``), the best
        of the certain cells' when one or two are, else the better of the two best candidates' by two-step
        score (living ones first, ties in the candidates' order). With ``look``, that value instead of the
        deeper look's (``benchmarks/score_variants.py third:N`` asks for the second look's)."""
        look = look or self._deeper
        if _settled(after):
            return 1.0
        there, safe = after.board, after.certain_safe
        if safe:
            return max(look(there, after, d) for d in safe)
        scored: list[tuple[bool, float, Cell]] = []  # the two best so far, living ones first
        for d in self.candidates(there, after)[1]:
            p = after.probability(d)
            assert p is not None  # a candidate is unopened
            if len(scored) == 2 and scored[1][0] and 1 - float(p) < scored[1][1] - 1e-9:
                break  # (safest first) a score is at most its safety: none of the rest is among the two best
            living, score, _ = self.score(there, after, d)
            scored = sorted(scored + [(living, round(score, 9), d)], key=lambda e: e[:2], reverse=True)[:2]
        return max(look(there, after, d) for _, _, d in scored)

    def _deeper(
        self, board: Board, result: Analysis, cell: Cell, value: Callable[[Analysis], float] | None = None
    ) -> float:
        """The two-step score one move further: over the numbers ``cell`` may show (weighted by their
        layouts, so that its safety is in), the best two-step score in the position each leaves
        (``_next``, or ``value``)."""
        value = value or self._next
        afters = self._memo(("what if", board.values.tobytes(), cell), lambda: self.analyzer.what_if(board, cell))
        return sum(after.count / result.count * value(after) for after in afters.values())

    def _next(self, after: Analysis) -> float:
        """The best two-step score in the position ``after``, a certain cell counting as a move: 1 when
        the game is won there or three cells or more are certain (after any of them, two are left:
        a blend of 1), the best of the certain cells' scores when one or two are, else the best of
        the candidates the player would weigh there (living ones first; safest first, stopping at
        the first whose safety is below the best score found: a score is at most its safety)."""
        return self._memo(("next", after.board.values.tobytes()), lambda: self._best_next(after))

    def _best_next(self, after: Analysis) -> float:
        """``_next`` worked out (``_memo`` keeps it)."""
        if _settled(after):
            return 1.0
        there, safe = after.board, after.certain_safe
        if safe:
            return max(self.score(there, after, d)[1] for d in safe)
        found = (False, -1.0)
        for d in self.candidates(there, after)[1]:
            p = after.probability(d)
            assert p is not None  # a candidate is unopened
            if found[0] and 1 - float(p) < found[1] - 1e-9:
                break
            found = max(found, self.score(there, after, d)[:2])
        return found[1]

    def _ranked(self, board: Board, result: Analysis, cell: Cell) -> tuple[bool, float]:
        """Whether ``cell`` is living, and its score as the 50/50s rank it: rounded to 1e-9 with
        ``ties``, else as computed."""
        living, score, _ = self.score(board, result, cell)
        return living, round(score, 9) if self.player.ties else score

    def _influenced(self, latent: LatentFiftyFifties, lowest: Fraction, candidates: list[Cell]):
        """Each candidate's factor, the cells of latent 50/50s safe enough with their influence added
        (``lowest``: the lowest mine probability of an unopened cell)."""
        if not latent.found:  # (most positions) no influence anywhere: every factor 1 + 0 / safe
            return dict.fromkeys(candidates, 1.0)
        count, best = latent.analysis.count, 1 - lowest
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

    def candidates(self, board: Board, result: Analysis) -> tuple[Fraction, list[Cell]]:
        """The lowest mine probability of an unopened cell, and the cells worth a look, safest first.

        Worked on the analysis's groups (cells of a group share one probability) and on whole
        arrays: an expert position has hundreds of unopened cells in a few dozen groups."""
        player = self.player
        groups, ratios = result.ratios()
        present = np.flatnonzero(np.bincount(groups[groups >= 0], minlength=len(ratios))).tolist()
        lowest, rank = _ranks(ratios, present, player.cut)
        ranks = rank[groups]  # per cell; -1: opened, a flag, or less safe than limit
        table, count = self.sweep.table, self.sweep.count
        values, width = board.values.ravel(), board.size.width
        off_frontier, lookahead = self._limits(board, ranks)
        chosen = _choose(ranks, values, width, table, count, off_frontier, lookahead).tolist()
        return lowest, [divmod(c, width) for c in chosen]

    def _limits(self, board: Board, ranks: np.ndarray) -> tuple[int, int]:
        """How many cells away from the numbers, and how many candidates in all, to weigh (``ranks``: per
        cell, its rank among the safe enough, -1 for the others): the player's own, in every position
        (``benchmarks/score_variants.py small:N`` weighs more where few are left)."""
        return self.player.off_frontier, self.player.lookahead

    def score(self, board: Board, result, cell: Cell) -> tuple[bool, float, Fraction]:
        """Whether ``cell`` is living (may show two numbers or more), its two-step score, and the
        chance that it is safe and shows a number from which a certain cell follows."""
        return self._memo(("score", board.values.tobytes(), cell), lambda: self._score(board, result, cell))

    def _score(self, board: Board, result, cell: Cell) -> tuple[bool, float, Fraction]:
        """``score`` worked out (``_memo`` keeps it)."""
        afters = self._afters(board, cell)
        progress = Fraction(sum(a.count for a in afters.values() if a.decides), result.count)
        return len(afters) > 1, self._weighted(afters, result.count), progress

    def _weighted(self, afters: dict, total: int) -> float:
        """The blended safeties after each number, weighted by the number's layouts over ``total``."""
        blended = [(after.count, self._blended(after)) for after in afters.values()]
        try:
            return sum(count * b for count, b in blended) / total
        except OverflowError:  # counts past the range of a float (40x40 with 320 mines): ratios first
            # (not always: the product form is what the stored runs played, to the last bit)
            return sum(count / total * b for count, b in blended)

    def _afters(self, board: Board, cell: Cell) -> dict[int, Outlook] | dict[int, Analysis]:
        """What each number ``cell`` may show leaves, as much as the score reads: count, ``decides``,
        ``lowest_risks(2)``."""
        return self.analyzer.outlook(board, cell)

    def _blended(self, after: Outlook | Analysis) -> float:
        """The blended safety of the best next guess after a candidate showed a number."""
        return blended_safety(after.lowest_risks(2), self.player.blend)


def blended_safety(low: list[float], blend: int) -> float:
    """The blended safety of the best next guess in a position whose lowest mine probabilities are ``low``
    (safest first, at most two read): ``(blend * s1 + s2) / (blend + 1)``, s2 = s1 where one cell is left,
    1 where none is (the game is won)."""
    if not low:
        return 1.0
    s1 = 1 - low[0]
    s2 = 1 - low[1] if len(low) > 1 else s1
    return (blend * s1 + s2) / (blend + 1)


def _open_cells(board: Board) -> int:
    """How many cells of ``board`` are open or flagged."""
    return int(np.count_nonzero(board.values != UNOPENED))


def _settled(after: Analysis) -> bool:
    """Whether the deeper look values the position ``after`` at 1: the game is won there, or three cells
    or more are certain (after any of them, two are left: a blend of 1)."""
    return not after.lowest_risks(1) or len(after.certain_safe) >= 3


def _ranks(ratios: list[tuple[int, int]], present: list[int], cut: Fraction) -> tuple[Fraction, np.ndarray]:
    """The lowest of the ``present`` groups' mine probabilities (``ratios``: (numerator, denominator)
    per group, not always in lowest terms), and per group the rank of its probability among those at
    most 1 - ``cut`` * (1 - lowest) (equal probabilities, equal ranks; -1 for the others, and at the
    two extra places that groups -2 and -1 index). Exact, with no ``Fraction`` per group: the groups
    are sorted by the ratio rounded once to a float (never out of order), ties of floats (distinct
    ratios a float may not tell apart) put in order as Fractions, and compared by cross-multiplying."""
    order = sorted((ratios[g][0] / ratios[g][1], g) for g in present)
    start = 0
    for end in range(1, len(order) + 1):
        if end == len(order) or order[end][0] != order[start][0]:
            if end - start > 1:
                order[start:end] = sorted(order[start:end], key=lambda e: Fraction(*ratios[e[1]]))
            start = end
    la, lb = ratios[order[0][1]]
    # a / b is near enough when a * top_b <= top_a * b: the limit 1 - cut * (1 - la / lb) as a ratio
    top_a, top_b = cut.denominator * lb - cut.numerator * (lb - la), cut.denominator * lb
    rank = np.full(len(ratios) + 2, -1)
    current, (pa, pb) = 0, (la, lb)
    for _, g in order:
        a, b = ratios[g]
        if a * top_b > top_a * b:
            break
        if a * pb != pa * b:  # a higher probability: the next rank
            current, pa, pb = current + 1, a, b
        rank[g] = current
    return Fraction(la, lb), rank


@njit(cache=True, nogil=True)
def _choose(ranks, values, width, table, count, off_frontier, lookahead):
    """``TwoStepRun.candidates``' cells, from each cell's rank (-1: not safe enough, or not unopened)
    and the view (``values``, row by row; ``table``, ``count``: ``game.neighbour_table``).

    On the frontier (next to a number) the cells are ordered by rank, then fewest unopened
    neighbours; off it by fewest unopened neighbours, then those two cells straight from a number
    first; both then row by row. The first ``off_frontier`` cells off the frontier and then the
    frontier's, ``lookahead`` in all (or the first off the frontier if that leaves none), safest
    first (by rank), then row by row."""
    n = len(ranks)
    height = n // width
    frontier = np.empty(n, np.int64)  # as single integer keys, the cell id last: key % n is the cell
    interior = np.empty(n, np.int64)
    on, off = 0, 0
    for c in range(n):
        if ranks[c] < 0:
            continue
        around, numbered = 0, 0
        for k in range(count[c]):
            v = values[table[c, k]]
            if v == UNOPENED:
                around += 1
            elif v >= 0:
                numbered += 1
        if numbered:
            frontier[on] = ranks[c] * (9 * n) + around * n + c
            on += 1
        else:
            y, x = c // width, c % width
            far = (
                (y >= 2 and values[c - 2 * width] >= 0)
                or (y + 2 < height and values[c + 2 * width] >= 0)
                or (x >= 2 and values[c - 2] >= 0)
                or (x + 2 < width and values[c + 2] >= 0)
            )
            interior[off] = around * (2 * n) + (0 if far else n) + c
            off += 1
    frontier = np.sort(frontier[:on]) % n
    interior = np.sort(interior[:off]) % n
    first = min(off_frontier, off)
    chosen = np.concatenate((interior[:first], frontier))[:lookahead]
    if len(chosen) == 0:
        chosen = interior[:1]
    keys = np.empty(len(chosen), np.int64)
    for i in range(len(chosen)):
        keys[i] = ranks[chosen[i]] * n + chosen[i]
    return np.sort(keys) % n


_warm = False


def warm_up() -> None:
    """Load ``_choose`` and the latent 50/50s' scan now (numba loads each from its cache, or compiles
    it, on its first call), for the types a game gives them (a board's values are read-only); once
    per process, not inside a timed game."""
    global _warm
    if not _warm:
        _warm = True
        board = Board.from_text("1.")
        _choose(np.array([-1, 0]), board.values.ravel(), 2, *neighbour_table(board.size), 1, 1)
        warm_up_latent()


__all__ = ["TwoStepPlayer", "TwoStepRun", "blended_safety"]
