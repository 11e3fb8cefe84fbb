"""The strongest player's time with one of its shortcuts against without, on the same games.

    python benchmarks/shortcuts.py [recall|floats|book] [--options second=0] [--games 300] [--start 0]
        [--level expert] [--rule safe] [--first 0,0] [--seed 2026]

The shortcuts (each a module's setting, the answers exact either way):

- ``recall``: the tracker recalls the components of its last positions, those ``what_if`` found
  among them (``Tracker.RECENT``; without: 0, every switch counts the position again);
- ``floats``: an outlook's lowest risks ranked in the compiled call where a float holds each ratio's
  integers exactly (``EXACT_BELOW``; without: 0, Python ranks them all);
- ``book``: the two-step player's guesses where few cells are open, worked out once per process and
  looked up after (``minelib.twostep.BOOK_OPENED``; without: 0, each worked out in every game).

One process, one core: each game is played with the shortcut and without, in alternating order, and
both must play the same moves. Prints mean and median milliseconds a game and the ratios, in all and
in medians. For reading, not asserting: a busy machine moves both times alike, not always their ratio.
"""

import argparse
import statistics
import time

from common import add_slice_arguments, check_slice, slice_setting, slice_title

from minelib import boxes, twostep
from minelib import experiments as ex
from minelib.players import make_player
from minelib.report import text_table

SHORTCUTS = {
    "recall": (boxes.Tracker, "RECENT"),
    "floats": (boxes, "EXACT_BELOW"),
    "book": (twostep, "BOOK_OPENED"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shortcut", nargs="?", default="recall", choices=sorted(SHORTCUTS))
    add_slice_arguments(parser, games=300)
    args = parser.parse_args()
    check_slice(parser, args)
    setting = slice_setting(parser, args)
    try:
        player = make_player(ex.RECORD_PLAYER, args.options)
    except (ValueError, TypeError) as error:
        parser.error(f"options {args.options!r}: {error}")
    owner, name = SHORTCUTS[args.shortcut]
    values = {"with": getattr(owner, name), "without": 0}
    seconds: dict[str, list[float]] = {side: [] for side in values}
    order = list(values.items())
    try:
        for i in range(args.start, args.start + args.games):
            moves = {}
            for side, value in order if i % 2 == 0 else order[::-1]:
                game, first = ex.setting_game(setting, i)
                setattr(owner, name, value)
                start = time.perf_counter()
                moves[side] = player.play(game, first, log=True).moves
                seconds[side].append(time.perf_counter() - start)
            if moves["with"] != moves["without"]:
                raise SystemExit(f"game {i}: the moves differ with {args.shortcut} and without")
    finally:
        setattr(owner, name, values["with"])
    rows = [
        {args.shortcut: side, "mean ms": 1000 * statistics.fmean(s), "median ms": 1000 * statistics.median(s)}
        for side, s in seconds.items()
    ]
    a, b = seconds["without"], seconds["with"]
    print(slice_title(args), "one process, alternating order, the same moves")
    print(text_table(rows, ".2f"))
    ratios = f"{sum(a) / sum(b):.2f} times in all, {statistics.median(a) / statistics.median(b):.2f} in medians"
    print(f"with {args.shortcut} faster by {ratios}")


if __name__ == "__main__":
    main()
