"""The record runs: our strongest player at every published record's setting, beside the record.

    python benchmarks/records.py [--expert 100000] [--others 50000] [--results results/records.sqlite]
        [--levels expert,intermediate,beginner]

Plays ``experiments.RECORD_PLAYER`` at each setting of ``experiments.PUBLISHED`` (rule and first
click as the records were measured), ``RECORD_SEED``, into an SQLite file of blocks of games:
stop it at any moment (Ctrl-C) and run it again to go on; finished blocks are never played
twice. Prints, per setting, the games stored, wins, our rate with its 95% interval and the
published records. Runs on all cores; 100,000 expert games take about an hour on two.
"""

import argparse

from minelib import experiments as ex
from minelib.report import text_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--expert", type=int, default=ex.RECORD_GAMES["expert"], help="games per expert setting")
    parser.add_argument("--others", type=int, default=ex.RECORD_GAMES["beginner"], help="games per other setting")
    parser.add_argument("--results", default="results/records.sqlite")
    parser.add_argument("--levels", default=",".join(ex.LEVELS))
    args = parser.parse_args()
    games = {level: args.expert if level == "expert" else args.others for level in ex.LEVELS}
    levels = args.levels.split(",")
    for level, rule, first in ex.LEVEL_SETTINGS:
        if level in levels:
            ex.run(ex.record_setting(level, rule, first, games[level]), args.results)
    print(f"player {ex.RECORD_PLAYER}, seed {ex.RECORD_SEED}, results in {args.results}")
    print(text_table(ex.record_rows(args.results, games)))


if __name__ == "__main__":
    main()
