"""The strongest player's time with some options against without (or against other options), on the same games.

    python benchmarks/option_time.py --options deep=4 --against deep=0 [--games 300] [--start 0]
        [--level expert] [--rule safe] [--first 0,0] [--seed 2026] [--article SIDE/DENSITY]

One process, one core: each game is played by both players in alternating order (the player that plays
a game first pays more, so a fixed order would mislead), on a record setting's games or, with
``--article``, on article 003's (e.g. ``20/0.2``). Prints wins, mean and median milliseconds a game, and
the ratios with the options over against them, in all and in medians. For reading, not asserting: a
busy machine moves both players' times alike, not always their ratio.
"""

import argparse
import statistics
import time

from common import add_article_argument, add_slice_arguments, time_ratios, timed_setting

from minelib import experiments as ex
from minelib.players import make_player
from minelib.report import text_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_slice_arguments(parser, games=300)
    parser.add_argument("--against", default="", help="the other player's options (default: the defaults)")
    add_article_argument(parser)
    args = parser.parse_args()
    setting = timed_setting(parser, args)
    if args.options == args.against:
        parser.error("--options and --against are the same: nothing to compare")
    players = {}
    for options in (args.options, args.against):
        try:
            players[options] = make_player(ex.RECORD_PLAYER, options)
        except (ValueError, TypeError) as error:
            parser.error(f"options {options!r}: {error}")
    order = list(players.items())
    seconds: dict[str, list[float]] = {o: [] for o in players}
    wins = dict.fromkeys(players, 0)
    for i in range(args.start, args.start + args.games):
        for options, player in order if i % 2 == 0 else order[::-1]:
            game, first = ex.setting_game(setting, i)
            start = time.perf_counter()
            wins[options] += player.play(game, first).won
            seconds[options].append(time.perf_counter() - start)
    rows = [
        {
            "options": o or "(defaults)",
            "wins": wins[o],
            "mean ms": 1000 * statistics.fmean(seconds[o]),
            "median ms": 1000 * statistics.median(seconds[o]),
        }
        for o in players
    ]
    a, b = seconds[args.options], seconds[args.against]
    where = f"article 003's {args.article}" if args.article else f"{args.level}, rule {args.rule}, first ({args.first})"
    print(f"{where}, games {args.start} to {args.start + args.games - 1}, one process, alternating order")
    print(text_table(rows, ".2f"))
    print(f"with {args.options or '(defaults)'} over {args.against or '(defaults)'}: {time_ratios(a, b)}")


if __name__ == "__main__":
    main()
