"""Two long runs of one record setting, game by game: each one's wins on the games both hold, and the
paired difference, in all and by blocks of games.

    python benchmarks/long_pair.py [--level expert] [--rule safe] [--first 0,0] [--games 1750000]
        [--base results/long/expert_safe_endgame_50000.sqlite] [--base-options endgame_compiled=50000]
        [--other results/long/expert_safe_endgame_200000.sqlite]
        [--options endgame_compiled=200000,endgame_budget=400000000,endgame_budget_above=0]
        [--block 100000]

For reading a long run while it grows (``make long-runs``; it can be read while it writes): on the games both files
hold, each run's wins and rate with its 95% interval, and the other's rate minus the base's with a 95% interval from the
paired differences (``strength.stored_paired_rows``); then that difference block by block, the last block as long as the
games go; where every game of both kept its luck, the difference with it taken out too ("luck out",
``strength.luck_difference``). The defaults are the two long runs of expert with a safe first click, games 1,000,000 on,
that measure the endgame from 200,000 layouts within a budget: the defaults of 2026-12-01 (``endgame_compiled=50000``),
and the candidate that led to today's defaults, the budget on every search of more than 50,000 layouts where today's
spare the searches of at most 50,000 (played before, with its options). The endgame from 50,000 layouts against the
defaults of 2026-11-29 on the same games: ``--base results/long/expert_safe_endgame.sqlite --base-options
endgame_compiled=20000 --other results/long/expert_safe_endgame_50000.sqlite --options endgame_compiled=50000``. The
endgame from 20,000 layouts against the defaults of 2026-11-28 on the same games: ``--base
results/long/expert_safe_2026-11-29.sqlite --base-options endgame_compiled=5000 --other
results/long/expert_safe_endgame.sqlite --options endgame_compiled=20000``; on the first 600,000 games: ``--games
1000000 --base results/long/expert_safe_2026-11-28.sqlite --base-options endgame_compiled=5000 --other
results/long/expert_safe_second.sqlite --options second=1,endgame_compiled=20000``; the second look's next games against
the defaults before it, each game's luck kept: ``--base results/long/expert_safe_deep_2026-11-29.sqlite --base-options
second=0,endgame_compiled=5000 --other results/long/expert_safe_2026-11-29.sqlite --options endgame_compiled=5000``.
"""

import argparse
from pathlib import Path

from minelib import experiments as ex
from minelib import strength
from minelib.report import text_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", choices=list(ex.LEVELS), default="expert")
    parser.add_argument("--rule", default="safe")
    parser.add_argument("--first", default="0,0")
    parser.add_argument("--games", type=int, default=1_750_000, help="the runs' games (as each was started)")
    parser.add_argument("--base", default="results/long/expert_safe_endgame_50000.sqlite")
    parser.add_argument(
        "--base-options", default="endgame_compiled=50000", help="the base run's player options (its defaults then)"
    )
    parser.add_argument("--other", default="results/long/expert_safe_endgame_200000.sqlite")
    parser.add_argument(
        "--options",
        default="endgame_compiled=200000,endgame_budget=400000000,endgame_budget_above=0",
        help="the other run's options",
    )
    parser.add_argument("--block", type=int, default=100_000, help="games a block")
    args = parser.parse_args()
    if args.block < 1:
        parser.error("--block must be positive")
    for path in (args.base, args.other):
        if not Path(path).is_file():
            parser.error(f"{path}: no such results file")
    try:
        settings = [
            ex.record_setting(args.level, args.rule, args.first, args.games, options=options)
            for options in (args.base_options, args.options)
        ]
        base, other = strength.in_common([ex.load_games(path, s) for path, s in zip((args.base, args.other), settings)])
        rows = strength.stored_paired_rows([base, other], settings)
    except (ValueError, OSError) as error:
        parser.error(str(error))
    common = base.index
    for row in rows:
        low, high = ex.wilson_interval(row["wins"], row["games"])
        row["rate"] += f" [{low:.2%}-{high:.2%}]"
    print(f"{args.level}, rule {args.rule}, first click ({args.first}): games {common[0]:,} to {common[-1]:,}")
    print(text_table(rows))
    blocks = []
    for start in range(0, len(common), args.block):
        first, last = common[start], common[min(start + args.block, len(common)) - 1]
        block = [games.where((first <= games.index) & (games.index <= last)) for games in (base, other)]
        base_row, other_row = strength.stored_paired_rows(block, settings)
        blocks.append(
            {
                "games": f"{first:,}-{last:,}",
                "other wins": other_row["wins"],
                "base wins": base_row["wins"],
                "other - base": other_row["vs base"],
                **({"luck out": other_row["luck out"]} if "luck out" in other_row else {}),
            }
        )
    print(text_table(blocks))


if __name__ == "__main__":
    main()
