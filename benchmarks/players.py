"""The players' speed on article 003's experiment, and their strength on the standard levels.

    python benchmarks/players.py [--games 50] [--level-games 1000] [--sizes 20,40,60,80]
        [--results results/levels.sqlite] [--skip-speed] [--skip-levels]

Part 1 (speed) plays article 003's settings (20x20 ... 80x80, 10% and 20% mines, zero rule,
first click at a random cell) afresh with the article's ZDD player and ours, the same games
for all (game i seeded by (2023, i)), and prints per player the wins, games per second on one
core and the median seconds per game, then the ZDD player's time over each of ours on the same
games (total seconds, and medians, with the medians' ratio's 95% interval by a paired bootstrap over
the games: ``timing.speed_ratio``): ratios measured in the same run. ``--sizes`` may name other
boards too (the article's columns are then '-'). Part 2 (strength) plays
the standard levels at the records' settings (``experiments.LEVEL_SETTINGS``) with every player,
appending each game to the results file as it finishes (notebook 06 reads it; rerun to resume).
Games run on all cores; timings are for reading, never for asserting.
"""

import argparse
import os
import statistics
from concurrent.futures import ProcessPoolExecutor

from common import warm_up

from minelib import experiments as ex
from minelib.timing import SpeedRatio, speed_ratio

SPEED_PLAYERS = ("zdd", "lookahead", "twostep")
LEVEL_PLAYERS = ("zdd", "safest", "lookahead", "twostep")


def speed(games: int, sizes: list[int]) -> None:
    """Games timed in workers that loaded the compiled engines first (a process's first analysis and
    first endgame search load them: ~0.1-0.3 s each, once per process, not once per game)."""
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1, initializer=warm_up) as pool:
        _speed(games, sizes, pool)


def _speed(games: int, sizes: list[int], pool: ProcessPoolExecutor) -> None:
    print(f"article 003's experiment: {games} games per setting, played now; s = seconds per game on one core")
    head = " ".join(f"{name:>9} {'games/s':>8} {'median s':>8}" for name in SPEED_PLAYERS)
    ratios = " ".join(f"{'zdd/' + name[:4]:>26}" for name in SPEED_PLAYERS[1:])
    print(f"{'board':>7} {'mines':>5} | {'article':>7} {'median s':>8} | {head} | {ratios} (totals; medians [95%])")
    for density in ex.ARTICLE_DENSITIES:
        for side in sizes:
            found = {}
            for name in SPEED_PLAYERS:
                setting = ex.article_setting(name, side, density, games)
                entries = ex.play_all(setting, executor=pool)
                found[name] = [e["seconds"] for e in entries], sum(e["won"] for e in entries)
            published = ex.ARTICLE_RESULTS.get((side, density))  # the article's boards only
            wins, article_median = (published[0], f"{published[1][1]:>8.3f}") if published else ("-", f"{'-':>8}")
            cells = " ".join(f"{w:>9} {len(s) / sum(s):>8.1f} {statistics.median(s):>8.4f}" for s, w in found.values())
            zdd = found["zdd"][0]
            ratio = " ".join(_ratio(speed_ratio(zdd, s)) for s, _ in list(found.values())[1:])
            print(
                f"{side:>3}x{side:<3} {round(side * side * density):>5} | {wins:>7} {article_median} | "
                f"{cells} | {ratio}",
                flush=True,
            )


def _ratio(ratio: SpeedRatio) -> str:
    return f"{ratio.totals:>6.1f};{ratio.medians:>6.1f} [{ratio.low:.1f}-{ratio.high:.1f}]".rjust(26)


def levels(games: int, results: str) -> None:
    print(f"standard levels at the records' settings: {games} games each; win rate with 95% interval")
    for level, rule, first in ex.LEVEL_SETTINGS:
        for name in LEVEL_PLAYERS:
            s = ex.run(ex.level_setting(name, level, rule, first, games), results, progress=False)
            print(
                f"{level:>12} {rule:>4} ({first}) {name:>9}: {s.wins:>5}/{s.games} = {s.rate:6.1%} "
                f"[{s.low:.1%}, {s.high:.1%}]  median {s.seconds[1]:.4f} s",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=ex.ARTICLE_GAMES)
    parser.add_argument("--level-games", type=int, default=1000)
    parser.add_argument("--sizes", default=",".join(map(str, ex.ARTICLE_SIZES)))
    parser.add_argument("--results", default="results/levels.sqlite")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-levels", action="store_true")
    args = parser.parse_args()
    try:
        sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        parser.error(f"--sizes must be board sides separated by commas, such as 20,40: not {args.sizes!r}")
    if args.games < 1 or args.level_games < 1 or min(sizes) < 4:
        parser.error("--games and --level-games must be positive, and every side of --sizes at least 4")
    if not args.skip_speed:
        speed(args.games, sizes)
        print()
    if not args.skip_levels:
        levels(args.level_games, args.results)


if __name__ == "__main__":
    main()
