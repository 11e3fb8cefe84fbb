"""How far the strongest player's guesses fall from optimal play, exactly, where the exact search reaches.

    python benchmarks/regret.py [--games 2000] [--start 0] [--level expert] [--rule safe] [--first 0,0]
        [--seed 2026] [--options ""] [--bands 2000,5000,10000,20000] [--budgets 100_000_000,...] [--within W]
        [--workers 2]

Plays games of a record setting (game i as in the record run with ``--seed 2026``) with the two-step
player (``--options``: its options, written as for ``benchmarks/guessing.py``). At every guess of
its heuristic (not the exact endgame's moves) in a position of at most 63 unopened cells whose
layouts number between the first and the last of ``--bands``, it asks ``EndgameSearch`` for every
cell's exact win probability under optimal play and records the *regret*: the best cell's value
less the value of the cell the player opened. The layouts left never grow as a game goes on, so
once a game is in reach it stays there, and the regrets summed along the games estimate without
bias what playing the exact move in those positions would add to the win rate (the value lost by a
policy is the expected sum of the regrets of its moves along its games), measured without the
noise of a won or lost game: no paired runs needed. Printed per band of layout counts.
Where the two-step score ranked the guess, the same search values each cell it ranked, so the last
columns say what the exact choice among its first 2, its first 3 or all the cells it ranked would
save, in points a game: a first-order estimate of a cheaper endgame that searches only those (the
games are those of the player as it is; it would play on from other positions afterwards).
With ``--budgets``, a second table: per band and budget of work (``endgame_budget``: the search for the
best cells alone, as the player asks it, stops past that much work), the guesses whose search fits,
the regret they hold (what the exact endgame with that budget would save, to first order) and that
search's seconds a game (a search stopped counted at its budget's share of its time: the time a player
spends before it falls back to its guess). Work is counted by a second, fresh search a guess; a player's
search, which keeps its memo through a game, may need less.
With ``--within W`` (every budget at most W), the search of the best cells comes first, given up past W, and
every cell is searched only where it ends and the cell opened is not among the best: the regret a budget of W
or less holds, past the layouts where a search of every cell takes minutes (a guess given up counts in
"guesses", not in "searched" nor in the regret; the ranked cells are not searched, so those columns go).
For reading, not asserting; the exact searches take seconds on the largest bands.
"""

import argparse
import itertools
from fractions import Fraction

from common import add_slice_arguments, map_chunks, slice_setting, slice_title

from minelib import experiments as ex
from minelib import guesses, players
from minelib.report import text_table


def play_chunk(
    setting: ex.Setting, indices: list[int], low: int, high: int, work: bool, within: int
) -> list[guesses.Regret]:
    """The regrets of the guesses of games ``indices`` in positions the exact search reaches."""
    found: list[guesses.Regret] = []
    player = players.make_player(setting.player, setting.options)
    for index in indices:
        game, first = ex.setting_game(setting, index)
        found += guesses.guess_regrets(player, game, first, (low, high), work, within)[1]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_slice_arguments(parser, games=2000)
    parser.add_argument("--bands", default="2000,5000,10000,20000")
    parser.add_argument("--budgets", default="", help="budgets of work, comma separated (e.g. 100_000_000)")
    parser.add_argument(
        "--within", type=int, default=0, help="search every cell only where the best cells' search fits this budget"
    )
    args = parser.parse_args()
    bands = [int(b) for b in args.bands.split(",")]
    if len(bands) < 2 or bands != sorted(set(bands)) or bands[0] < 0:
        parser.error(f"--bands must be two or more increasing layout counts, not {args.bands!r}")
    try:
        budgets = [int(b) for b in args.budgets.split(",")] if args.budgets else []
        if any(b < 1 for b in budgets):
            raise ValueError
    except ValueError:
        parser.error(f"--budgets must be positive amounts of work, comma separated, not {args.budgets!r}")
    if args.within < 0 or (args.within and any(b > args.within for b in budgets)):
        parser.error(f"--within must be a positive amount of work, at least every budget, not {args.within}")
    setting = slice_setting(parser, args)
    found: list[guesses.Regret] = map_chunks(play_chunk, setting, args, bands[0], bands[-1], bool(budgets), args.within)
    reach = "where the exact search reaches"
    if args.within:
        reach = f"where its search of the best cells fits {args.within:,}"
    print(f"{slice_title(args)}: the regret of its guesses {reach} (at most 63 unopened cells)")
    rows = []
    whole = [(bands[0], bands[-1])] if len(bands) > 2 else []  # (two bounds: one band, the whole already)
    limits = [*itertools.pairwise(bands), *whole]
    for low, high in limits:
        part = [r for r in found if low < r.layouts <= high]
        known = [r.regret for r in part if r.regret is not None]
        regret = sum(known, Fraction(0))
        row = {
            "layouts": f"{low:,} < n <= {high:,}",
            "guesses": len(part),
            **({"searched": len(known)} if args.within else {}),
            "not optimal": sum(r > 0 for r in known),
            "regret (games)": f"{float(regret):.4f}",
            "points per game": f"{100 * float(regret) / args.games:+.4f}",
            "search s (mean)": f"{sum(r.seconds for r in part) / len(part):.2f}" if part else "-",
        }
        if not args.within:  # (with it, the cells ranked are not searched)
            row["ranked"] = sum(len(r.ranked) > 1 for r in part)
        for among in (2, 3, None) if not args.within else ():
            held = [(r.regret, r.ranked) for r in part if r.ranked and r.regret is not None]
            saved = sum((regret - min(ranked[:among]) for regret, ranked in held), Fraction(0))
            row[f"saved among {among or 'all'}"] = f"{100 * float(saved) / args.games:+.4f}"
        rows.append(row)
    print(text_table(rows))
    if budgets:
        print("\nthe search for the best cells within a budget of work (endgame_budget)")
        print(text_table(budget_rows(found, limits, budgets, args.games)))


def budget_rows(found: list[guesses.Regret], limits: list, budgets: list[int], games: int) -> list[dict]:
    """Per band (``limits``: low, high) and budget: the guesses whose search fits it, the regret they hold and the
    seconds a game."""
    rows = []
    for low, high in limits:
        part = [r for r in found if low < r.layouts <= high]
        for budget in budgets:
            fits = [r for r in part if r.work <= budget and r.regret is not None]
            saved = sum((r.regret for r in fits if r.regret is not None), Fraction(0))
            seconds = sum(r.best_seconds * min(1.0, budget / r.work) if r.work else r.best_seconds for r in part)
            rows.append(
                {
                    "layouts": f"{low:,} < n <= {high:,}",
                    "budget": f"{budget:,}",
                    "searches fit": f"{len(fits)} of {len(part)}",
                    "regret held, points per game": f"{100 * float(saved) / games:+.4f}",
                    "of the band's": f"{float(saved / total):.0%}"
                    if (total := sum(r.regret for r in part if r.regret is not None))
                    else "-",
                    "search ms per game": f"{1000 * seconds / games:.1f}",
                }
            )
    return rows


if __name__ == "__main__":
    main()
