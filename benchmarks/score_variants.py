"""Variants of the two-step score, each measured game by game against a stored run.

    python benchmarks/score_variants.py [VARIANT ...] [--games 20000] [--start 100000] [--level expert]
        [--rule safe] [--first 0,0] [--seed 2026] [--workers 2]
        [--stored results/long/expert_safe_deep.sqlite] [--player-options KEY=VALUE,...]

Each VARIANT (by default ``zero:1/100 progress:inf``) is one of these changes to ``TwoStepRun``
(subclasses here, not the library's player):

- ``zero:BETA``: the score plus BETA times the chance that the candidate shows a zero. The score
  counts a zero like any number from which a certain cell follows, though an opening shows many
  numbers at once.
- ``progress:BP``: a number from which a certain cell follows is worth (BP + s2) / (BP + 1), s2 the
  safety of the second safest cell after it (the player: BP = its blend, 4; ``inf``: worth 1, as if
  the next move were the last).
- ``uncertain``: after such a number, the blend of the two safest cells that are not certain, the
  safety of the next real guess (the player counts the certain cell as a safety of 1).
- ``jitter:EPS``: not a new score but the player's own, each number's weight (its layouts over the
  position's) taken as a float ratio and multiplied by 1 + EPS u, u in [-1, 1] fixed by the count
  and the number: what a compiled game loop, which must rank by floats (counts pass 64 bits), could
  change. ``jitter:0`` is the ratio alone, against the player's exact product form.
- ``follow:D``: the deeper look (``_next``) followed through one or two certain cells, D opened cells
  deep: each is opened and its numbers valued so, instead of the certain cell's two-step score.
- ``far:K``: not a score but the candidates: up to K cells two straight from a number (JSMinesweeper's
  offsets), away from the numbers, fewest unopened neighbours first, weighed besides the player's own
  (its 3 away from the numbers are those with the fewest unopened neighbours: after a corner's 1 the
  other corners, not (0, 2), which scores higher).
- ``deep50``: the cell of a forced 50/50 and of the "50/50 or safe" cells chosen by the deeper look's
  value, not the two-step score.
- ``second:EPS``: a second deeper look where the deeper look's two best are within EPS: each valued one
  move further again, by the best deeper-look value after each number it may show.
- ``third:N``: a third look where at most N cells are open (``inf``: everywhere): where the second look
  played, its two each valued one move further again (after each number, the best second-look value there).
- ``weighed:1``: the second look where a latent 50/50 weighs the deeper look's two best too, each second-look
  value times its weight (the player leaves such a guess to the deeper look; ``weighed:0`` plays as the player).
- ``safety:ALPHA``: the score times the candidate's own safety to the power ALPHA (the score holds it
  once already, as the chance to survive this move): ALPHA above 0 weighs the move's own risk more than
  what its numbers tell, below 0 less. At every level the score is asked (the deeper looks too).
- ``nextblend:B``: the deeper look's value after a number (``_next``: the best two-step score there) blended
  with the second best as the score blends the two safest cells, (B * best + second) / (B + 1): a position
  with one good move and no other is worth less than one with two.
- ``small:N``: not a score but the candidates: when fewer than N cells away from the numbers are safe
  enough, every one of them is weighed, not only the player's 3 (JSMinesweeper does so below 30).

The player of the stored run (``--stored-options``, by default ``common.STORED_OPTIONS``: the defaults before the
second look and the endgame from 20,000 layouts; with ``--player-options`` on top) with the change plays games of a
record setting (game i as in the record run with ``--seed 2026``; by default from game 100,000 of that player's
million-game run), and each game is compared with the stored run: the difference of the win rates with its 95%
interval, the games only one of them won, and the games played otherwise (won or guesses not as stored: a replay of
the stored run would fail there). Where the stored run kept each game's luck (runs stored since 2026-11-29: ``--stored
results/long/expert_safe_2026-11-29.sqlite --stored-options endgame_compiled=5000 --start 1000000``), the difference
with the luck taken out too ("luck out", ``strength.luck_difference``: about half as wide). ``zero:0``,
``progress:4``, ``small:0`` and ``third:0`` play the stored games again, each as stored. The measurements in
``benchmarks/README.md`` are ``--games 100000`` (``uncertain``: 10,000). For reading, not asserting.
"""

import argparse
import math
from fractions import Fraction

import numpy as np
from common import add_slice_arguments, add_stored_arguments, map_chunks, stored_slice

from minelib import experiments as ex
from minelib import strength
from minelib.analysis import Analysis
from minelib.board import UNOPENED, Board, Cell
from minelib.game import Game
from minelib.moves import Move, luck
from minelib.players import parse_options
from minelib.report import text_table
from minelib.results import Games
from minelib.twostep import TwoStepPlayer, TwoStepRun, _open_cells, _settled, blended_safety


class VariantPlayer(TwoStepPlayer):
    """``TwoStepPlayer`` (its defaults, or ``options``) whose games are played by ``run``, a subclass of
    ``TwoStepRun`` with ``value`` (the variant's number, if it has one)."""

    def __init__(self, run: type[TwoStepRun], value: float = 0.0, options: str = ""):
        super().__init__(**parse_options(options))
        self.run, self.value = run, value

    def _run(self, game: Game, log: bool) -> TwoStepRun:
        return self.run(game, log, self)


class ZeroBonusRun(TwoStepRun):
    player: VariantPlayer

    def score(self, board: Board, result, cell: Cell) -> tuple[bool, float, Fraction]:
        living, score, progress = super().score(board, result, cell)
        zero = self.analyzer.what_if(board, cell).get(0)  # a second what-if: dearer, but the score is the player's own
        if zero is not None:
            score += self.player.value * (zero.count / result.count)
        return living, score, progress


class SafetyPowerRun(TwoStepRun):
    player: VariantPlayer

    def score(self, board: Board, result, cell: Cell) -> tuple[bool, float, Fraction]:
        living, score, progress = super().score(board, result, cell)
        risk = result.probability(cell)
        return living, score * (1 - float(risk)) ** self.player.value, progress


class NextBlendRun(TwoStepRun):
    player: VariantPlayer

    def _best_next(self, after: Analysis) -> float:
        if _settled(after) or after.certain_safe:
            return super()._best_next(after)
        there, top = after.board, []  # the two best (living, score) so far, living ones first
        for d in self.candidates(there, after)[1]:
            p = after.probability(d)
            assert p is not None  # a candidate is unopened
            if len(top) == 2 and 1 - float(p) < top[1][1] - 1e-9:
                break  # (safest first) a score is at most its safety; the second best, dead or living, bounds it
            top = sorted(top + [self.score(there, after, d)[:2]], reverse=True)[:2]
        if len(top) < 2:
            return top[0][1]
        b = self.player.value
        return (b * top[0][1] + top[1][1]) / (b + 1)


class ProgressBlendRun(TwoStepRun):
    player: VariantPlayer

    def _blended(self, after: Analysis) -> float:
        low = after.lowest_risks(2)
        if not low or low[0] != 0:
            return super()._blended(after)
        s2 = 1 - low[1] if len(low) > 1 else 1.0
        bp = self.player.value
        return 1.0 if math.isinf(bp) else (bp * 1.0 + s2) / (bp + 1)


class UncertainRun(TwoStepRun):
    def _afters(self, board: Board, cell: Cell) -> dict[int, Analysis]:
        return self.analyzer.what_if(board, cell)  # the whole analyses: the certain cells are counted

    def _blended(self, after: Analysis) -> float:
        low = after.lowest_risks(2)
        if not low or low[0] != 0:
            return super()._blended(after)
        certain = len(after.certain_safe)  # their risks, 0, come first: the two after them
        return blended_safety(after.lowest_risks(certain + 2)[certain:], self.player.blend)


class JitterRun(TwoStepRun):
    player: VariantPlayer

    def _weighted(self, afters: dict, total: int) -> float:
        eps = self.player.value
        return sum(
            after.count / total * (1 + eps * _spread(after.count, number)) * self._blended(after)
            for number, after in afters.items()
        )


def _spread(count: int, number: int) -> float:
    """A number in [-1, 1] fixed by a layout count and a number (a float's error, reproducibly)."""
    return (count * 2_654_435_761 + number * 40_503) % 2_000_003 / 1_000_001.5 - 1


class NeighboursRun(TwoStepRun):
    """A variant that reads each cell's neighbours (``_neighbours``)."""

    def _neighbours(self, board: Board) -> tuple[np.ndarray, np.ndarray]:
        """Per cell, whether it is next to a number, and how many of its neighbours are unopened."""
        values, table, count = board.values.ravel(), self.sweep.table, self.sweep.count
        near = np.arange(table.shape[1]) < count[:, None]
        return (near & (values[table] >= 0)).any(axis=1), (near & (values[table] == UNOPENED)).sum(axis=1)


class SmallInteriorRun(NeighboursRun):
    """Every cell away from the numbers weighed (safe enough, as always) when fewer than the variant's
    number are left, and the candidates' limit raised by as many: JSMinesweeper's 30."""

    player: VariantPlayer

    def _limits(self, board: Board, ranks: np.ndarray) -> tuple[int, int]:
        off_frontier, lookahead = super()._limits(board, ranks)
        numbered, _ = self._neighbours(board)
        interior = int(np.count_nonzero((ranks >= 0) & ~numbered))
        if off_frontier < interior < self.player.value:
            return interior, lookahead + interior - off_frontier
        return off_frontier, lookahead


class FarRun(NeighboursRun):
    """Up to the variant's number of cells two straight from a number (away from the numbers, safe enough,
    fewest unopened neighbours first, then row by row) weighed besides the player's candidates: the player's
    3 cells away from the numbers are those with the fewest unopened neighbours, so that after a corner's 1
    the other corners are weighed and (0, 2), which scores higher, is not."""

    player: VariantPlayer
    _ranks: np.ndarray

    def _limits(self, board: Board, ranks: np.ndarray) -> tuple[int, int]:
        self._ranks = ranks
        return super()._limits(board, ranks)

    def candidates(self, board: Board, result: Analysis) -> tuple[Fraction, list[Cell]]:
        lowest, chosen = super().candidates(board, result)
        ranks, values, width = self._ranks, board.values.ravel(), board.size.width
        numbered, around = self._neighbours(board)
        grid = values.reshape(-1, width) >= 0
        far = np.zeros_like(grid)
        far[2:] |= grid[:-2]
        far[:-2] |= grid[2:]
        far[:, 2:] |= grid[:, :-2]
        far[:, :-2] |= grid[:, 2:]
        taken = {y * width + x for y, x in chosen}
        cells = np.flatnonzero((ranks >= 0) & ~numbered & far.ravel())
        extra = sorted((c for c in cells.tolist() if c not in taken), key=lambda c: (around[c], c))
        extra = extra[: int(self.player.value)]
        if not extra:
            return lowest, chosen
        ids = sorted(list(taken) + extra, key=lambda c: (ranks[c], c))
        return lowest, [divmod(c, width) for c in ids]


class DeepFiftyRun(TwoStepRun):
    """The cell of a forced 50/50 (a pair or a chain) and of the "50/50 or safe" cells chosen by the deeper
    look's value (``_deeper``), living ones first, instead of the two-step score."""

    player: VariantPlayer

    def _ranked(self, board: Board, result: Analysis, cell: Cell) -> tuple[bool, float]:
        living, _ = super()._ranked(board, result, cell)
        return living, round(self._deeper(board, result, cell), 9)


class SecondLookRun(TwoStepRun):
    """A second deeper look where the first leaves a near tie: when the two best of the deeper look are
    within the variant's number of each other (and no latent 50/50 weighs them), each is valued one move
    further again (the player's ``second`` look, ``_second``), and the better is played (the first on a
    tie). ``second:inf`` plays as ``--player-options second=1``."""

    player: VariantPlayer

    def guess(self, board: Board, mines: int, result: Analysis) -> Move:
        move = super().guess(board, mines, result)
        if self.reason != "deeper look":
            return move
        first, second = self.ranked[:2]
        assert first.deeper is not None and second.deeper is not None
        if first.deeper - second.deeper > self.player.value:
            return move
        if any(abs(r.deeper - round(self._deeper(board, result, r.cell), 9)) > 1e-9 for r in (first, second)):
            return move  # weighed by a latent 50/50: left as it is
        return _better_of_two(self, board, result, move, self._second, "second deeper look")


class WeighedSecondRun(TwoStepRun):
    """The second look where a latent 50/50 weighs the deeper look's two best too (the player leaves such a guess
    to the deeper look): each valued one move further again (``_second``) times its weight (``1 + influence * L /
    S``, read back as its deeper-look value over its unweighed one), and the better played (the first on a tie).
    ``weighed:0`` plays as the player."""

    player: VariantPlayer

    def guess(self, board: Board, mines: int, result: Analysis) -> Move:
        move = super().guess(board, mines, result)
        if self.reason != "deeper look" or not self.player.value or not self.player.second or len(self.ranked) < 2:
            return move  # (with second=0 every deeper look ends so: not this variant's to make a second look)
        first, second = self.ranked[:2]
        if first.deeper is None or second.deeper is None:
            return move

        def weighed(board: Board, result: Analysis, cell: Cell) -> float:
            plain = self._deeper(board, result, cell)
            r = first if cell == first.cell else second
            weight = r.deeper / plain if plain else 1.0
            return self._second(board, result, cell) * weight

        return _better_of_two(self, board, result, move, weighed, "weighed second look")


class ThirdLookRun(TwoStepRun):
    """A third look where at most the variant's number of cells are open (``third:inf``: everywhere): where the
    second look played, its two are each valued one move further again (after each number, the best second-look
    value there: ``_further`` asking for ``_second``), and the better is played (the second look's first on a
    tie). ``third:0`` plays as the player (a cell is always open)."""

    player: VariantPlayer

    def guess(self, board: Board, mines: int, result: Analysis) -> Move:
        move = super().guess(board, mines, result)
        if self.reason != "second look" or _open_cells(board) > self.player.value:
            return move
        return _better_of_two(self, board, result, move, self._third, "third look")

    def _third(self, board: Board, result: Analysis, cell: Cell) -> float:
        """Over the numbers ``cell`` may show, the best second-look value in the position each leaves."""
        return self._deeper(board, result, cell, lambda after: self._further(after, self._second))


def _better_of_two(run: TwoStepRun, board: Board, result: Analysis, move: Move, look, reason: str) -> Move:
    """``move`` (the first of ``run.ranked``), or the second ranked where ``look`` values it higher (rounded to
    1e-9; the first on a tie), with ``reason``."""
    first, second = run.ranked[:2]
    values = [round(look(board, result, r.cell), 9) for r in (first, second)]
    if values[1] > values[0]:
        run.reason = reason
        return Move("open", second.cell, False, result.probability(second.cell))
    return move


class FollowRun(TwoStepRun):
    """The deeper look followed through certain cells: after a number that leaves one or two certain cells,
    each is opened in turn and what its numbers leave is valued the same way, the variant's number of
    times deep, instead of taking the certain cell's two-step score (one guess less deep than the value
    after a number that leaves none)."""

    player: VariantPlayer

    def _next(self, after: Analysis, depth: int = 0) -> float:
        safe = after.certain_safe
        if _settled(after) or not safe or depth >= self.player.value:
            return super()._next(after)
        there = after.board
        return max(
            sum(a.count / after.count * self._next(a, depth + 1) for a in self.analyzer.what_if(there, d).values())
            for d in safe
        )


VARIANTS = {
    "second": SecondLookRun,
    "third": ThirdLookRun,
    "weighed": WeighedSecondRun,
    "deep50": DeepFiftyRun,
    "far": FarRun,
    "follow": FollowRun,
    "small": SmallInteriorRun,
    "zero": ZeroBonusRun,
    "progress": ProgressBlendRun,
    "nextblend": NextBlendRun,
    "safety": SafetyPowerRun,
    "uncertain": UncertainRun,
    "jitter": JitterRun,
}
DEFAULT_VARIANTS = ["zero:1/100", "progress:inf"]  # without arguments (make benchmarks): two of benchmarks/README.md's


def play_chunk(
    setting: ex.Setting, indices: list[int], run: type[TwoStepRun], value: float, options: str
) -> list[tuple[int, bool, int, float, float]]:
    """Per game: its index, whether the player with the variant won it, its guesses, and its luck's value
    and control (``moves.luck``)."""
    player = VariantPlayer(run, value, options)
    rows = []
    for index in indices:
        record = player.play(*ex.setting_game(setting, index), log=True)
        found = luck(record.moves, record.won)
        rows.append((index, record.won, record.guesses, float(found.value), float(found.control)))
    return rows


def parse_variant(text: str) -> tuple[type[TwoStepRun], float]:
    """The run class and number a VARIANT names; ValueError naming what is wrong."""
    name, _, value = text.partition(":")
    if name not in VARIANTS:
        raise ValueError(f"unknown variant {name!r} (expected one of {', '.join(VARIANTS)})")
    if name in ("uncertain", "deep50"):
        if value:
            raise ValueError(f"the variant {name} takes no number")
        return VARIANTS[name], 0.0
    try:
        number = math.inf if value == "inf" else float(Fraction(value))
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"the variant {name} needs a number, written {name}:1/100 or {name}:4, not {text!r}") from None
    return VARIANTS[name], number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "variants",
        nargs="*",
        default=DEFAULT_VARIANTS,
        help="zero:BETA, progress:BP, safety:ALPHA, nextblend:B, uncertain, jitter:EPS, follow:D, far:K, deep50,"
        " second:EPS, third:N, weighed:1 or small:N",
    )
    add_slice_arguments(parser, games=20_000, options=False)
    parser.set_defaults(start=100_000)
    add_stored_arguments(parser)
    parser.add_argument("--player-options", default="", help="the player's options under every variant (key=value,...)")
    args = parser.parse_args()
    setting = stored_slice(parser, args)
    options = ex.as_played(args.player_options, setting.options)
    try:
        VariantPlayer(TwoStepRun, 0.0, options)
    except (ValueError, TypeError) as error:
        parser.error(f"--player-options {args.player_options!r}: {error}")
    try:
        variants = [(text, *parse_variant(text)) for text in args.variants]
    except ValueError as error:
        parser.error(str(error))
    stored = ex.load(args.stored, setting)
    missing = [i for i in range(args.start, args.start + args.games) if i not in stored]
    if missing:
        parser.error(f"{args.stored} does not hold game {missing[0]} of this setting (nor {len(missing) - 1} others)")
    base_games = Games.of(stored[i] for i in range(args.start, args.start + args.games))
    table = []
    for text, run, value in variants:
        rows = map_chunks(play_chunk, setting, args, run, value, options)
        won = [w for _, w, _, _, _ in rows]
        base = [stored[i]["won"] for i, _, _, _, _ in rows]
        otherwise = sum((w, g) != (stored[i]["won"], stored[i]["guesses"]) for i, w, g, _, _ in rows)
        diff = [int(a) - int(b) for a, b in zip(won, base)]
        played = Games.of({"index": i, "won": w, "guesses": g, "seconds": 0.0, "value": v, "control": c}
                          for i, w, g, v, c in rows)  # fmt: skip
        luck_out = strength.luck_difference(played, base_games)
        table.append(
            {
                "variant": text,
                "games": len(won),
                "wins": sum(won),
                "stored wins": sum(base),
                "difference": strength.paired_text(won, base),
                **({} if luck_out is None else {"luck out": strength.interval_text(*luck_out[:2])}),
                "won only here": diff.count(1),
                "lost only here": diff.count(-1),
                "played otherwise": otherwise,
            }
        )
    print(f"{args.level}, rule {args.rule}, first click ({args.first}), seed {args.seed}, games {args.start} to "
          f"{args.start + args.games - 1}, against {args.stored}"
          + f"; the player's options {options or '(defaults)'}")  # fmt: skip
    print(text_table(table))


if __name__ == "__main__":
    main()
