"""A win rate with each game's luck taken out: the same games' rate, its interval narrower.

    python benchmarks/luck.py [--games 2000] [--start 0] [--level expert] [--rule safe] [--first 0,0]
        [--seed 2026] [--options ""] [--workers 2] [--stored FILE]

Plays a slice of a record setting with the strongest player (``--options``: its options, today's defaults
unless given), each game with its luck (``experiments.play_one``, ``moves.Luck``): its value (won or lost,
or the exact win probability the endgame search gave its first guess) and its control (the mine
probabilities of the guesses before that, less 1 for the one that was a mine), whose mean is exactly zero.
Prints the win rate with its 95% interval as the games give it, then the controlled rate (each value less
the least-squares slope times its control: ``strength.controlled_difference``) with its interval, the ratio
of the two widths, and how many games the plain rate would need for the controlled width. With ``--stored``,
every game must be won or lost, with as many guesses, as that stored run of the same player holds it (else
exit 1): the controlled rate is then that run's on these games. For reading, not asserting.
"""

import argparse
import sys

from common import add_slice_arguments, map_chunks, slice_setting, slice_title

from minelib import experiments as ex
from minelib import strength
from minelib.report import text_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_slice_arguments(parser, games=2000)
    parser.add_argument("--stored", help="a stored run of the same player whose games these must be")
    args = parser.parse_args()
    setting = slice_setting(parser, args)  # (bad options are the parser's error there)
    stored = None
    if args.stored:
        try:
            stored = ex.load(args.stored, setting)
        except (ValueError, OSError) as error:
            parser.error(str(error))
        missing = [i for i in range(args.start, args.start + args.games) if i not in stored]
        if missing:
            parser.error(
                f"{args.stored} does not hold game {missing[0]} of this setting (nor {len(missing) - 1} others)"
            )
    rows = map_chunks(ex.play_many, setting, args)  # each game with its luck (``experiments.play_one``)
    won = [float(row["won"]) for row in rows]
    values, controls = [row["value"] for row in rows], [row["control"] for row in rows]
    n = len(won)
    plain_half = strength.mean_difference(won)[1]
    mean, half, slope = strength.controlled_difference(values, controls)
    reached = sum(0 < v < 1 for v in values)
    table = [
        {"estimate": "won games", "rate": f"{sum(won) / n:.3%}", "95% interval": f"±{plain_half:.3%}", "slope": ""},
        {"estimate": "values (the endgame's win probabilities)", "rate": f"{sum(values) / n:.3%}",
         "95% interval": f"±{strength.mean_difference(values)[1]:.3%}", "slope": ""},
        {"estimate": "values less the slope times the controls", "rate": f"{mean:.3%}", "95% interval": f"±{half:.3%}",
         "slope": f"{slope:.3f}"},
    ]  # fmt: skip
    print(slice_title(args) + f"; {reached} games reached the endgame search with a win probability between 0 and 1")
    print(text_table(table))
    ratio = half / plain_half if plain_half else float("nan")
    print(f"interval width, controlled over won games: {ratio:.3f}; the won games alone would need {1 / ratio**2:.2f}"
          " times as many games for it")  # fmt: skip
    if stored is not None:
        otherwise = [
            r["index"]
            for r in rows
            if (r["won"], r["guesses"]) != (stored[r["index"]]["won"], stored[r["index"]]["guesses"])
        ]
        if otherwise:
            print(f"{len(otherwise)} games not as {args.stored} holds them, the first {otherwise[0]}")
            sys.exit(1)
        print(f"every game as {args.stored} holds it")


if __name__ == "__main__":
    main()
