"""The strongest player's time with one of its shortcuts against without, on the same games.

    python benchmarks/shortcuts.py [recall|floats|book|memo|cliques|siblings] [--options second=0] [--games 300]
        [--start 0] [--level expert] [--rule safe] [--first 0,0] [--seed 2026] [--article SIDE/DENSITY]

The shortcuts (each a module's setting, the answers exact either way):

- ``recall``: the tracker recalls the components of its last positions, those ``what_if`` found
  among them (``Tracker.RECENT``; without: 0, every switch counts the position again);
- ``floats``: an outlook's lowest risks ranked in the compiled call where a float holds each ratio's
  integers exactly (``EXACT_BELOW``; without: 0, Python ranks them all);
- ``book``: the two-step player's guesses where few cells are open, worked out once per process and
  looked up after (``minelib.twostep.BOOK_OPENED``; without: 0, each worked out in every game);
- ``memo``: the exact endgame's memo grown with the layouts past 4,000 (``minelib.endgame.STATES_PER_LAYOUT``;
  without: 0, 20,000 states whatever the layouts, as before 2026-11-29);
- ``cliques``: the exact search's states of more than 1,024 layouts take their parent's cliques
  (``minelib.kernel.INHERIT_ABOVE_DEFAULT``; without: -1, each state covers itself, as before 2026-11-29);
- ``siblings``: a move's outcomes in the exact search each bounded by the cliques they would take as soon as the
  move is split (``minelib.kernel.SIBLINGS_DEFAULT``; without: 0, only once each is searched, as before 2026-12-02).

One process, one core: each game is played with the shortcut and without, in alternating order, and
both must play the same moves (with ``--article``, on article 003's games, e.g. ``20/0.2``). Prints mean
and median milliseconds a game and the ratios, in all and in medians. For reading, not asserting: a busy
machine moves both times alike, not always their ratio.
"""

import argparse
import statistics
import time

from common import add_article_argument, add_slice_arguments, slice_title, time_ratios, timed_setting

from minelib import boxes, endgame, kernel, twostep
from minelib import experiments as ex
from minelib.players import make_player
from minelib.report import text_table

# name -> (the module or class holding the setting, its name, its value without the shortcut)
SHORTCUTS = {
    "recall": (boxes.Tracker, "RECENT", 0),
    "floats": (boxes, "EXACT_BELOW", 0),
    "book": (twostep, "BOOK_OPENED", 0),
    "memo": (endgame, "STATES_PER_LAYOUT", 0),
    "cliques": (kernel, "INHERIT_ABOVE_DEFAULT", -1),
    "siblings": (kernel, "SIBLINGS_DEFAULT", 0),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shortcut", nargs="?", default="recall", choices=sorted(SHORTCUTS))
    add_slice_arguments(parser, games=300)
    add_article_argument(parser)
    args = parser.parse_args()
    setting = timed_setting(parser, args)
    try:
        player = make_player(ex.RECORD_PLAYER, args.options)
    except (ValueError, TypeError) as error:
        parser.error(f"options {args.options!r}: {error}")
    owner, name, without = SHORTCUTS[args.shortcut]
    values = {"with": getattr(owner, name), "without": without}
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
    games = f"games {args.start}-{args.start + args.games - 1}, twostep {args.options or '(defaults)'}"
    print(f"article 003's {args.article}, {games}" if args.article else slice_title(args), end=": ")
    print("one process, alternating order, the same moves")
    print(text_table(rows, ".2f"))
    print(f"with {args.shortcut} faster by {time_ratios(a, b)}")


if __name__ == "__main__":
    main()
