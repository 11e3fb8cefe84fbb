"""A change to the player measured by its advantage where it parts from today's player, not by won games.

    python benchmarks/advantage.py [VARIANT] [--player-options KEY=VALUE,...] [--baseline-options ...]
        [--games 1000] [--start 100000] [--samples 20] [--level expert] [--rule safe] [--first 0,0]
        [--seed 2026] [--workers 2] [--stored results/long/expert_safe_deep.sqlite] [--open-bands 10,100,300]
        [--region-bands 1,2,4] [--away-bands 0.19,0.2,0.21]

The player with the change (a VARIANT of ``score_variants.py``, by default ``small:0``, the player
itself, and ``--player-options``) plays games of a record setting; at each of its guesses where the
baseline (with ``--baseline-options``) would open another cell, ``--samples`` layouts
are drawn from the position and both cells opened on each, the baseline playing on
(``guesses.guess_advantages``): the change's advantage there. Summed along a game it is an unbiased
estimate of what the change wins more than the baseline on that game, without the luck of the later
guesses that makes two players' won games differ: on the same expert games its interval was a third as
wide as the won games' (both are printed, the won games' against the stored run, when it holds the games
and the baseline is its player; a line says when it does not hold them), for
the CPU of the rollouts (per CPU second about even with won games for a change as dear as the player,
better for a dearer one: ``benchmarks/README.md``). The interval is over games, so it holds the noise of
the drawn layouts too. Beside it, the same with a control variate (``strength.controlled_difference``):
per game, how much more often the changed player's cells were safe on the drawn layouts than the
position's exact probabilities say (``Advantage.control``), which moves with the advantage and whose
mean is known to be zero. With ``--open-bands``, the guesses are split too by how many cells were open
(the game's phase) at the bounds given; with ``--region-bands``, by how many independent parts the
frontier had; with ``--away-bands``, by the mine density away from the numbers (``guesses.Advantage``).
Both players are the stored run's player (``--stored-options``, by default ``common.STORED_OPTIONS``:
the defaults before the second look and the endgame from 20,000 layouts) with their options on top:
``--player-options second=1`` is the second look against it; ``--stored results/long/expert_safe_2026-11-28.sqlite
--stored-options endgame_compiled=5000`` measures against the defaults of 2026-11-28 and their run.
For reading, not asserting.
"""

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from common import add_slice_arguments, add_stored_arguments, map_chunks, numbers, slice_title, stored_slice
from score_variants import VariantPlayer, parse_variant

from minelib import experiments as ex
from minelib import strength
from minelib.guesses import guess_advantages
from minelib.players import parse_options
from minelib.report import text_table
from minelib.twostep import BOOK_OPENED, TwoStepPlayer, TwoStepRun

MILLION = 1_000_000
FEW_OPEN = BOOK_OPENED  # the first guesses: positions that come back game after game, kept in the book


class Parting(NamedTuple):
    """A guess where the changed player parts from the baseline (``guesses.Advantage``, as floats)."""

    layouts: int
    advantage: float
    control: float
    opened: int
    regions: int
    away: float | None


# The features a parting guess can be split by: option, field of Parting, kind of bound, what a band counts,
# and what the feature's absence (None) reads as, if it may be absent.
BANDS = (
    ("--open-bands", "opened", int, "cells open", ""),
    ("--region-bands", "regions", int, "frontier parts", ""),
    ("--away-bands", "away", float, "mine density away from the numbers", "no cell away from the numbers"),
)
Where = tuple[str, Callable[[Parting], bool]]


def bands(field: str, bounds: list, noun: str, absent: str) -> list[Where]:
    """One row per band of ``field``: at most the first bound, then each (bound, next bound], then more than
    the last; and with ``absent``, a row of that name for the guesses without the feature (None)."""
    found: list[Where] = []
    for low, high in zip([None, *bounds], [*bounds, None]):
        if low is None:
            label = f"at most {high} {noun}"
        elif high is None:
            label = f"more than {low} {noun}"
        elif isinstance(high, int):
            label = f"{low + 1} to {high} {noun}" if low + 1 < high else f"{high} {noun}"
        else:  # a band of floats holds its upper bound, not its lower
            label = f"{low} to {high} {noun}"

        def keep(p: Parting, low=low, high=high) -> bool:
            value = getattr(p, field)
            return value is not None and (low is None or value > low) and (high is None or value <= high)

        found.append((label, keep))
    if absent:
        found.append((absent, lambda p: getattr(p, field) is None))
    return found


def play_chunk(
    setting: ex.Setting,
    indices: list[int],
    run: type[TwoStepRun],
    value: float,
    options: str,
    baseline_options: str,
    samples: int,
) -> list[tuple[int, bool, list[Parting]]]:
    """Per game: its index, whether the changed player won it, and its guesses where it parts from the
    baseline."""
    player = VariantPlayer(run, value, options)
    baseline = TwoStepPlayer(**parse_options(baseline_options))
    rows = []
    for index in indices:
        game, first = ex.setting_game(setting, index)
        record, found = guess_advantages(player, baseline, game, first, samples, seed=index * 1000)
        partings = [
            Parting(
                a.layouts,
                float(a.advantage),
                float(a.control),
                a.opened,
                a.regions,
                None if a.away is None else float(a.away),
            )
            for a in found
        ]
        rows.append((index, record.won, partings))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", nargs="?", default="small:0", help="a variant of score_variants.py")
    add_slice_arguments(parser, games=1000, options=False)
    parser.set_defaults(start=100_000)
    parser.add_argument("--player-options", default="", help="the changed player's options (key=value,...)")
    parser.add_argument("--baseline-options", default="", help="the baseline's options (none: the stored run's)")
    parser.add_argument("--samples", default="20", help="layouts drawn at each guess where the two part")
    add_stored_arguments(parser)
    for option, _, _, noun, _ in BANDS:
        parser.add_argument(option, default="", help=f"also split by the {noun} at the guess, at these bounds")
    args = parser.parse_args()
    (samples,) = numbers(parser, "--samples", args.samples)
    split: list[Where] = []
    for option, field, kind, noun, absent in BANDS:
        text = getattr(args, option[2:].replace("-", "_"))
        if text:
            bounds = numbers(parser, option, text, kind, low=0)
            if bounds != sorted(set(bounds)):
                parser.error(f"{option} takes increasing bounds, not {text!r}")
            split += bands(field, bounds, noun, absent)
    for option, text in (("--player-options", args.player_options), ("--baseline-options", args.baseline_options)):
        try:
            TwoStepPlayer(**parse_options(text))
        except (ValueError, TypeError) as error:
            parser.error(f"{option} {text!r}: {error}")
    try:
        run, value = parse_variant(args.variant)
    except ValueError as error:
        parser.error(str(error))
    setting = stored_slice(parser, args)
    options, baseline = (ex.as_played(text, setting.options) for text in (args.player_options, args.baseline_options))
    rows = map_chunks(play_chunk, setting, args, run, value, options, baseline, samples)
    print(
        f"{slice_title(args, options=False)}: {args.variant}"
        + (f" with {args.player_options}" if args.player_options else "")
        + f" against the player with {setting.options or '(defaults)'}"
        + (f" with {args.baseline_options}" if args.baseline_options else "")
        + f", {samples} layouts at each guess where they part"
    )
    table = []
    wheres: list[Where] = [
        ("every guess", lambda p: True),
        ("more than a million layouts", lambda p: p.layouts > MILLION),
        ("a million layouts or fewer", lambda p: p.layouts <= MILLION),
        *bands("opened", [FEW_OPEN], "cells open", ""),
    ]
    for label, keep in wheres + [(label, keep) for label, keep in split if label not in dict(wheres)]:
        per_game = [sum(p.advantage for p in found if keep(p)) for _, _, found in rows]
        controls = [sum(p.control for p in found if keep(p)) for _, _, found in rows]
        parted = sum(keep(p) for _, _, found in rows for p in found)
        table.append(
            {
                "where": label,
                "games": len(rows),
                "guesses parting": parted,
                "advantage": strength.difference_text(per_game),
                "with its control": strength.controlled_text(per_game, controls),
            }
        )
    print(text_table(table))
    if baseline != setting.options:
        return  # the stored run is its player's: no won games to compare with another baseline
    stored = ex.load(args.stored, setting) if Path(args.stored).exists() else {}
    if all(index in stored for index, _, _ in rows):
        won = [w for _, w, _ in rows]
        base = [stored[index]["won"] for index, _, _ in rows]
        print(f"won games against {args.stored}: {sum(won)} against {sum(base)}, {strength.paired_text(won, base)}")
    else:
        print(f"no won games compared: {Path(args.stored).resolve()} does not hold these games of this setting")


if __name__ == "__main__":
    main()
