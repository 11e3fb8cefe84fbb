"""The record runs: our strongest player at every published record's setting, beside the record.

    python benchmarks/records.py [--expert 100000] [--others 50000] [--results results/records.sqlite]
        [--levels expert,intermediate,beginner] [--rules safe,zero] [--options KEY=VALUE,...] [--start 0]

Plays ``experiments.RECORD_PLAYER`` at each setting of ``experiments.PUBLISHED`` (rule and first click as the records
were measured), ``RECORD_SEED``, into an SQLite file of blocks of games: stop it at any moment (Ctrl-C) and run it
again to go on; finished blocks are never played twice. Prints, per setting, the games stored, wins, our rate with its
95% interval and the published records. Runs on all cores; 100,000 expert games take about 35 minutes on two
(2026-11-28). A longer run of one setting goes to a file of its own (each under 10 MB), e.g. the million expert games
of notebook 06 (``make long-runs``): ``--expert 1000000 --levels expert --rules safe --results
results/long/expert_safe.sqlite`` (about 80 minutes on two cores). ``--options`` plays the player with options, e.g.
the defaults before a change (the first long runs were played with those before cut=4/5 and the endgame from 5,000
layouts: ``--options cut=9/10,endgame_compiled=2000,chains=0,deep=0,second=0``; the record runs before the endgame
from 200,000 layouts within a budget: ``--options endgame_compiled=50000``, before the endgame from 50,000:
``--options endgame_compiled=20000``, before the endgame from 20,000 layouts: ``--options endgame_compiled=5000``,
before the second look: ``--options
second=0,endgame_compiled=5000``, and before the deeper look: ``--options deep=0,second=0,endgame_compiled=5000``).
``--start`` numbers the games from there (a multiple of 500, the blocks' size): a long run that would pass 10 MB goes
on in a file of its own, e.g. the next 750,000 games of the defaults of 2026-11-28, ``--expert 750000 --start 1000000
--levels expert --rules safe --options endgame_compiled=5000 --results results/long/expert_safe_2026-11-29.sqlite``
(each game's luck kept, about 11.4 bytes a game).
"""

import argparse

from minelib import experiments as ex
from minelib import strength
from minelib.report import text_table
from minelib.results import open_results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--expert", type=int, default=ex.RECORD_GAMES["expert"], help="games per expert setting")
    parser.add_argument("--others", type=int, default=ex.RECORD_GAMES["beginner"], help="games per other setting")
    parser.add_argument("--results", default="results/records.sqlite")
    parser.add_argument("--levels", default=",".join(ex.LEVELS))
    parser.add_argument("--rules", default="safe,zero", help="first-click rules to play")
    parser.add_argument("--options", default="", help="the player's options (default: its defaults)")
    parser.add_argument("--start", type=int, default=0, help="the first game's number (a multiple of 500)")
    args = parser.parse_args()
    games = {level: args.expert if level == "expert" else args.others for level in ex.LEVELS}
    levels, rules = args.levels.split(","), args.rules.split(",")
    record_rules = tuple(dict.fromkeys(rule for _, rule, _ in ex.LEVEL_SETTINGS))  # those the records use
    for name, asked, known in (("level", levels, tuple(ex.LEVELS)), ("rule", rules, record_rules)):
        unknown = set(asked) - set(known)
        if unknown:
            parser.error(f"unknown {name} {', '.join(sorted(unknown))} (known: {', '.join(known)})")
    settings = [s for s in ex.LEVEL_SETTINGS if s[0] in levels and s[1] in rules]
    for level, rule, first in settings:
        try:
            setting = ex.record_setting(level, rule, first, games[level], args.options, args.start)
            open_results(args.results).tasks(setting, [])  # (a first game where no block starts fails here)
        except ValueError as error:
            parser.error(str(error))
        ex.run(setting, args.results)
    options = f" ({args.options})" if args.options else ""
    print(f"player {ex.RECORD_PLAYER}{options}, seed {ex.RECORD_SEED}, results in {args.results}")
    print(text_table(strength.record_rows(args.results, games, settings, args.options, args.start)))


if __name__ == "__main__":
    main()
