"""The strongest player's time with the tracker recalling the positions it met (``boxes.Tracker.RECENT``)
against counting them again, on the same games.

    python benchmarks/recall.py [--options second=1] [--games 300] [--start 0]
        [--level expert] [--rule safe] [--first 0,0] [--seed 2026]

One process, one core: each game is played twice, with recall and without (``RECENT`` 0), in
alternating order, and both must play the same moves (the tracker's answers are exact either way).
Prints mean and median milliseconds a game and the ratios, in all and in medians. For reading, not
asserting: a busy machine moves both times alike, not always their ratio.
"""

import argparse
import statistics
import time

from common import add_slice_arguments, check_slice, slice_setting, slice_title

from minelib import boxes
from minelib import experiments as ex
from minelib.players import make_player
from minelib.report import text_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_slice_arguments(parser, games=300)
    args = parser.parse_args()
    check_slice(parser, args)
    setting = slice_setting(parser, args)
    try:
        player = make_player(ex.RECORD_PLAYER, args.options)
    except (ValueError, TypeError) as error:
        parser.error(f"options {args.options!r}: {error}")
    recent = {"recall": boxes.Tracker.RECENT, "count again": 0}
    seconds: dict[str, list[float]] = {name: [] for name in recent}
    order = list(recent.items())
    for i in range(args.start, args.start + args.games):
        moves = {}
        for name, size in order if i % 2 == 0 else order[::-1]:
            game, first = ex.setting_game(setting, i)
            boxes.Tracker.RECENT = size
            start = time.perf_counter()
            moves[name] = player.play(game, first, log=True).moves
            seconds[name].append(time.perf_counter() - start)
        boxes.Tracker.RECENT = recent["recall"]
        if moves["recall"] != moves["count again"]:
            raise SystemExit(f"game {i}: the moves differ with recall and without")
    rows = [
        {"tracker": name, "mean ms": 1000 * statistics.fmean(s), "median ms": 1000 * statistics.median(s)}
        for name, s in seconds.items()
    ]
    a, b = seconds["count again"], seconds["recall"]
    print(slice_title(args), "one process, alternating order, the same moves")
    print(text_table(rows, ".2f"))
    ratios = f"{sum(a) / sum(b):.2f} times in all, {statistics.median(a) / statistics.median(b):.2f} in medians"
    print(f"recall faster by {ratios}")


if __name__ == "__main__":
    main()
