"""The players on article 003's experiment and on the standard levels.

    python benchmarks/players.py [--games 50] [--level-games 1000] [--results results/games.jsonl]

Part 1 plays article 003's settings (20x20 ... 80x80, 10% and 20% mines, zero
rule, first click at a random cell) with both players and prints wins and the
median seconds per game next to the article's, and the ZDD player's median time
over the look-ahead player's (a ratio measured in the same run). Part 2 plays the
standard levels with each first-click setting, also with the look-ahead player
without its look-ahead ("safest"), to measure what the look-ahead buys. Every game is appended to the
results file as it finishes (the notebooks read it); rerun to resume.
Games run on all cores; timings are for reading, never for asserting.
"""

import argparse

from minelib import experiments as ex


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=ex.ARTICLE_GAMES)
    parser.add_argument("--level-games", type=int, default=1000)
    parser.add_argument("--sizes", default=",".join(map(str, ex.ARTICLE_SIZES)))
    parser.add_argument("--results", default="results/games.jsonl")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print("article 003's experiment: wins of", args.games, "games; median seconds per game (all games)")
    print(
        f"{'board':>8} {'mines':>6} | {'article':>7} {'zdd':>4} {'look':>4} | {'article s':>9} {'zdd s':>7} "
        f"{'look s':>7} {'zdd/look':>8} {'article/look':>12}"
    )
    for density in ex.ARTICLE_DENSITIES:
        for side in sizes:
            zdd, best = (
                ex.run(ex.article_setting(name, side, density, args.games), args.results, progress=False)
                for name in ("zdd", "lookahead")
            )
            wins, (_, article_median, _) = ex.ARTICLE_RESULTS[side, density]
            print(
                f"{side}x{side:<4} {round(side * side * density):>6} | {wins:>7} {zdd.wins:>4} {best.wins:>4} | "
                f"{article_median:>9.3f} {zdd.seconds[1]:>7.3f} {best.seconds[1]:>7.3f} "
                f"{zdd.seconds[1] / best.seconds[1]:>8.1f} {article_median / best.seconds[1]:>12.1f}",
                flush=True,
            )
    print()
    print("standard levels:", args.level_games, "games each; win rate with 95% interval, median seconds")
    for level in ex.LEVELS:
        for rule, first in ex.LEVEL_FIRST_CLICKS:
            for name in ("zdd", "safest", "lookahead"):
                s = ex.run(ex.level_setting(name, level, rule, first, args.level_games), args.results, progress=False)
                print(
                    f"{level:>12} {rule:>4} {first:>6} {name:>9}: {s.wins:>5}/{s.games} = {s.rate:6.1%} "
                    f"[{s.low:.1%}, {s.high:.1%}]  median {s.seconds[1]:.3f} s",
                    flush=True,
                )


if __name__ == "__main__":
    main()
