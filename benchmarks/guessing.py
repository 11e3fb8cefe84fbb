"""What a guessing idea is worth: player variants compared on the same games (paired seeds).

    python benchmarks/guessing.py [--games 20000] [--level expert | --size HxW --density D] [--rule safe]
        [--first 0,0] [--seed 99] [--results results/ideas.sqlite] [VARIANT ...]

Each variant is a registered player with options (``name:key=value,key=value``; values are
integers or fractions such as 9/10). Every variant plays the same games: game i is seeded by
(seed, i) alone, so the layouts and the first click are the same for all, and the difference of
two win rates is measured game by game (``strength.paired_rows``). The first variant is the
base. Games go to an SQLite results file in blocks (stop and rerun to resume; notebook 06 reads
it) and run on all cores; the milliseconds are for reading (the machine is shared). ``--size`` and
``--density`` play another board instead of a level: with ``--rule zero --first random --seed 2023``
the games of article 003's experiment (``benchmarks/players.py``).
"""

import argparse

from minelib import experiments as ex
from minelib import strength
from minelib.board import BoardSize
from minelib.game import mines_for_density
from minelib.report import text_table

# notebook 06's comparisons, each named by the options that reproduce its stored run (``ex.as_played`` adds the
# defaults that each later change replaced). LARGER_ENDGAME: the two-step player's defaults before the endgame from
# 200,000 layouts within a budget (2026-12-03); MID_ENDGAME: before the endgame from 50,000 layouts (2026-12-01);
# SMALL_ENDGAME: before the endgame from 20,000 layouts (2026-11-29); NO_SECOND: before
# the second look too; NO_DEEP: before the deeper look too; NO_CHAINS: before chained 50/50s were guessed first too;
# OLD_CUT: before cut=4/5 and the endgame from 5,000 layouts too; LATENT_OFF: before latent 50/50s were weighed
# (influence=9/10); PREVIOUS: before off_frontier=3; BEFORE: before the endgame on the undecided cells and the forced
# 50/50s; endgame_cells=100 keeps the exact endgame off the expert board
LARGER_ENDGAME = "endgame_compiled=50000"
MID_ENDGAME = "endgame_compiled=20000"
SMALL_ENDGAME = "endgame_compiled=5000"
NO_SECOND = ex.as_played("second=0", SMALL_ENDGAME)
NO_DEEP = ex.as_played("deep=0", NO_SECOND)
NO_CHAINS = ex.as_played("chains=0", NO_DEEP)
OLD_CUT = ex.as_played("cut=9/10,endgame_compiled=2000", NO_CHAINS)
LATENT_OFF = "influence=0"
PREVIOUS = "off_frontier=6"
OLD_ENDGAME = "endgame_compiled=0,forced=0"
BEFORE = f"{OLD_ENDGAME},{PREVIOUS}"


def as_played(variant: str, *changes: str) -> str:
    """A variant as stored: a two-step one with the options of ``changes`` it does not set."""
    name, _, options = variant.partition(":")
    if name != "twostep":
        return variant
    options = ex.as_played(options, *changes)
    return f"{name}:{options}" if options else name


def before_latent(variant: str) -> str:
    """A variant as played before latent 50/50s were weighed by default (and before OLD_CUT)."""
    return as_played(variant, LATENT_OFF, OLD_CUT)


LATER = (OLD_CUT, NO_CHAINS, NO_DEEP, NO_SECOND, SMALL_ENDGAME, MID_ENDGAME, LARGER_ENDGAME)  # the defaults since
VARIANTS = [before_latent(v) for v in [
    "lookahead",
    f"twostep:endgame_cells=100,{BEFORE}",
    f"twostep:dead=0,endgame_cells=100,{BEFORE}",
    f"twostep:off_frontier=0,endgame_cells=100,{OLD_ENDGAME}",
    f"twostep:endgame_layouts=24,{BEFORE}",
    f"twostep:{BEFORE}",
    f"twostep:endgame_layouts=400,{BEFORE}",
    f"twostep:cut=4/5,{BEFORE}",
    f"twostep:forced=0,{PREVIOUS}",
    f"twostep:endgame_compiled=5000,forced=0,{PREVIOUS}",
    f"twostep:{PREVIOUS}",
    f"twostep:influence=9/10,{PREVIOUS}",
    f"twostep:blend=2,{PREVIOUS}",
    f"twostep:blend=10,{PREVIOUS}",
    "twostep",
    "twostep:off_frontier=12",
    "twostep:candidates=24,off_frontier=10",
]] + [as_played("twostep", days) for days in LATER] + ["twostep"]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", default=VARIANTS)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--level", choices=list(ex.LEVELS), default="expert")
    parser.add_argument("--size", help="a board HxW instead of the level (with --density)")
    parser.add_argument("--density", type=float, help="its mine density, in (0, 1)")
    parser.add_argument("--rule", default="safe")
    parser.add_argument("--first", default="0,0")
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--results", default="results/ideas.sqlite")
    args = parser.parse_args()
    if (args.size is None) != (args.density is None):
        parser.error("--size and --density go together")
    if args.size is not None:
        try:
            size = str(BoardSize.parse(args.size))
            mines = mines_for_density(size, args.density)
        except ValueError as error:
            parser.error(str(error))
        label = f"density {args.density:g}:"
    else:
        size, mines = ex.LEVELS[args.level]
        label = args.level
    settings = []
    for variant in args.variants:
        name, _, options = variant.partition(":")
        settings.append(ex.Setting(name, size, mines, args.games, args.seed, args.rule, args.first, options=options))
    for setting in settings:
        ex.run(setting, args.results)
    print(f"{label} {size}/{mines}, rule {args.rule}, first click ({args.first}), seed {args.seed}")
    print(text_table(strength.paired_rows(args.results, settings)))


if __name__ == "__main__":
    main()
