"""A change to the player measured by its advantage where it parts from today's player, not by won games.

    python benchmarks/advantage.py [VARIANT] [--player-options KEY=VALUE,...] [--baseline-options ...]
        [--games 1000] [--start 100000] [--samples 20] [--level expert] [--rule safe] [--first 0,0]
        [--seed 2026] [--workers 2] [--stored results/long/expert_safe_deep.sqlite] [--open-bands 10,100,300]

The player with the change (a VARIANT of ``score_variants.py``, by default ``small:0``, the player
itself, and ``--player-options``) plays games of a record setting; at each of its guesses where the
baseline (today's player, with ``--baseline-options``) would open another cell, ``--samples`` layouts
are drawn from the position and both cells opened on each, the baseline playing on
(``guesses.guess_advantages``): the change's advantage there. Summed along a game it is an unbiased
estimate of what the change wins more than the baseline on that game, without the luck of the later
guesses that makes two players' won games differ: on the same expert games its interval was a third as
wide as the won games' (both are printed, the won games' against the stored run of today's defaults,
when it holds the games and the baseline is today's player; a line says when it does not hold them), for
the CPU of the rollouts (per CPU second about even with won games for a change as dear as the player,
better for a dearer one: ``benchmarks/README.md``). The interval is over games, so it holds the noise of
the drawn layouts too. Beside it, the same with a control variate (``strength.controlled_difference``):
per game, how much more often the changed player's cells were safe on the drawn layouts than the
position's exact probabilities say (``Advantage.control``), which moves with the advantage and whose
mean is known to be zero. With ``--open-bands``, the guesses are split too by how many cells were open
(the game's phase) at the bounds given. For reading, not asserting.
"""

import argparse
from pathlib import Path

from common import add_slice_arguments, map_chunks, numbers, slice_setting, slice_title
from score_variants import VariantPlayer, parse_variant

from minelib import experiments as ex
from minelib import strength
from minelib.guesses import guess_advantages
from minelib.players import parse_options
from minelib.report import text_table
from minelib.twostep import BOOK_OPENED, TwoStepPlayer, TwoStepRun

MILLION = 1_000_000
FEW_OPEN = BOOK_OPENED  # the first guesses: positions that come back game after game, kept in the book


def play_chunk(
    setting: ex.Setting,
    indices: list[int],
    run: type[TwoStepRun],
    value: float,
    options: str,
    baseline_options: str,
    samples: int,
) -> list[tuple[int, bool, list[tuple[int, float, float, int]]]]:
    """Per game: its index, whether the changed player won it, and per guess where it parts from the
    baseline (layouts left, advantage, its control, cells open)."""
    player = VariantPlayer(run, value, options)
    baseline = TwoStepPlayer(**parse_options(baseline_options))
    rows = []
    for index in indices:
        game, first = ex.setting_game(setting, index)
        record, found = guess_advantages(player, baseline, game, first, samples, seed=index * 1000)
        rows.append((index, record.won, [(a.layouts, float(a.advantage), float(a.control), a.opened) for a in found]))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", nargs="?", default="small:0", help="a variant of score_variants.py")
    add_slice_arguments(parser, games=1000, options=False)
    parser.set_defaults(start=100_000)
    parser.add_argument("--player-options", default="", help="the changed player's options (key=value,...)")
    parser.add_argument("--baseline-options", default="", help="the baseline's options (today's player's if none)")
    parser.add_argument("--samples", default="20", help="layouts drawn at each guess where the two part")
    parser.add_argument("--stored", default="results/long/expert_safe_deep.sqlite")
    parser.add_argument(
        "--open-bands", default="", help="also split by the cells open at the guess, at these bounds (e.g. 10,100,300)"
    )
    args = parser.parse_args()
    (samples,) = numbers(parser, "--samples", args.samples)
    bounds = numbers(parser, "--open-bands", args.open_bands) if args.open_bands else []
    if bounds != sorted(set(bounds)):
        parser.error(f"--open-bands takes increasing bounds, not {args.open_bands!r}")
    for option, text in (("--player-options", args.player_options), ("--baseline-options", args.baseline_options)):
        try:
            TwoStepPlayer(**parse_options(text))
        except (ValueError, TypeError) as error:
            parser.error(f"{option} {text!r}: {error}")
    try:
        run, value = parse_variant(args.variant)
    except ValueError as error:
        parser.error(str(error))
    setting = slice_setting(parser, args)
    rows = map_chunks(play_chunk, setting, args, run, value, args.player_options, args.baseline_options, samples)
    print(
        f"{slice_title(args, options=False)}: {args.variant}"
        + (f" with {args.player_options}" if args.player_options else "")
        + " against today's player"
        + (f" with {args.baseline_options}" if args.baseline_options else "")
        + f", {samples} layouts at each guess where they part"
    )
    table = []
    wheres = [
        ("every guess", lambda layouts, opened: True),
        ("more than a million layouts", lambda layouts, opened: layouts > MILLION),
        ("a million layouts or fewer", lambda layouts, opened: layouts <= MILLION),
        (f"at most {FEW_OPEN} cells open", lambda layouts, opened: opened <= FEW_OPEN),
        (f"more than {FEW_OPEN} cells open", lambda layouts, opened: opened > FEW_OPEN),
    ]
    if bounds:
        for low, high in zip([0, *bounds], [*bounds, None]):  # the bands: cells open in (low, high]
            label = f"{low + 1} to {high} cells open" if high else f"more than {low} cells open"
            wheres.append((label, lambda _, opened, low=low, high=high: low < opened and (not high or opened <= high)))
    for label, keep in wheres:
        per_game = [sum(a for layouts, a, _, opened in found if keep(layouts, opened)) for _, _, found in rows]
        controls = [sum(c for layouts, _, c, opened in found if keep(layouts, opened)) for _, _, found in rows]
        parted = sum(keep(layouts, opened) for _, _, found in rows for layouts, _, _, opened in found)
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
    if args.baseline_options:
        return  # the stored run is today's player's: no won games to compare with another baseline
    stored = ex.load(args.stored, setting) if Path(args.stored).exists() else {}
    if all(index in stored for index, _, _ in rows):
        won = [w for _, w, _ in rows]
        base = [stored[index]["won"] for index, _, _ in rows]
        print(f"won games against {args.stored}: {sum(won)} against {sum(base)}, {strength.paired_text(won, base)}")
    else:
        print(f"no won games compared: {Path(args.stored).resolve()} does not hold these games of this setting")


if __name__ == "__main__":
    main()
