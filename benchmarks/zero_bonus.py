"""What a bonus for the chance to show a zero is worth, measured game by game against a stored run.

    python benchmarks/zero_bonus.py [--beta 1/100] [--games 20000] [--start 100000] [--level expert]
        [--rule safe] [--first 0,0] [--seed 2026] [--workers 2]
        [--stored results/long/expert_safe_2026-11.sqlite]

The two-step score treats a number that opens a region (a zero) like any number from which a certain
cell follows: both make the next move safe. An opening is worth more (its cascade shows many numbers
at once), so this plays the strongest player (today's defaults) with ``--beta`` times the chance
that a candidate shows a zero added to its score (``ZeroBonusRun``), on games of a record setting
(game i as in the record run with ``--seed 2026``; by default from game 100,000 of the million-game
run with today's defaults), and compares each game with the stored run: the difference of the win
rates with its 95% interval, and the games only one of them won. ``--beta 0`` plays the stored games
again, each as stored. The README's measurements are ``--games 100000``. For reading, not asserting.
"""

import argparse
from fractions import Fraction

from common import add_slice_arguments, map_chunks, slice_setting

from minelib import experiments as ex
from minelib.board import Board, Cell
from minelib.game import Game
from minelib.report import text_table
from minelib.twostep import TwoStepPlayer, TwoStepRun


class ZeroBonusPlayer(TwoStepPlayer):
    """``TwoStepPlayer`` whose score adds ``beta`` times the chance that the candidate shows a zero."""

    def __init__(self, beta: float):
        super().__init__()
        self.beta = beta

    def _run(self, game: Game, log: bool) -> TwoStepRun:
        return ZeroBonusRun(game, log, self)


class ZeroBonusRun(TwoStepRun):
    player: ZeroBonusPlayer

    def score(self, board: Board, result, cell: Cell) -> tuple[bool, float, Fraction]:
        living, score, progress = super().score(board, result, cell)
        zero = self.analyzer.what_if(board, cell).get(0)  # a second what-if: dearer, but the score is the player's own
        if zero is not None:
            score += self.player.beta * (zero.count / result.count)
        return living, score, progress


def play_chunk(setting: ex.Setting, indices: list[int], beta: float) -> list[tuple[int, bool]]:
    """Per game: its index and whether the player with the bonus won it."""
    player = ZeroBonusPlayer(beta)
    return [(index, player.play(*ex.setting_game(setting, index)).won) for index in indices]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_slice_arguments(parser, games=20_000, options=False)
    parser.set_defaults(start=100_000)
    parser.add_argument("--beta", default="1/100")
    parser.add_argument("--stored", default="results/long/expert_safe_2026-11.sqlite")
    args = parser.parse_args()
    try:
        beta = float(Fraction(args.beta))
    except (ValueError, ZeroDivisionError):
        parser.error(f"--beta must be a number such as 1/100 or -0.01, not {args.beta!r}")
    setting = slice_setting(parser, args)
    stored = ex.load(args.stored, setting)
    missing = [i for i in range(args.start, args.start + args.games) if i not in stored]
    if missing:
        parser.error(f"{args.stored} does not hold game {missing[0]} of this setting (nor {len(missing) - 1} others)")
    rows = map_chunks(play_chunk, setting, args, beta)
    won = [w for _, w in rows]
    base = [stored[i]["won"] for i, _ in rows]
    mean, half = ex.paired_difference(won, base)
    diff = [int(a) - int(b) for a, b in zip(won, base)]
    print(f"{args.level}, rule {args.rule}, first click ({args.first}), seed {args.seed}, games {args.start} to "
          f"{args.start + args.games - 1}, against {args.stored}")  # fmt: skip
    print(
        text_table(
            [
                {
                    "beta": args.beta,
                    "games": len(won),
                    "wins": sum(won),
                    "stored wins": sum(base),
                    "difference": f"{mean:+.2%} [{mean - half:+.2%}, {mean + half:+.2%}]",
                    "won only here": diff.count(1),
                    "lost only here": diff.count(-1),
                }
            ]
        )
    )


if __name__ == "__main__":
    main()
