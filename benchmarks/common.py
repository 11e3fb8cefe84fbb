"""What the benchmarks share: the arguments and workers of those that replay a slice of a record run,
and the warm-up of the players' compiled engines.

Not a benchmark: ``make benchmarks`` leaves it out; the others import it from their own folder.
"""

import argparse
import math
import statistics
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

from tqdm.auto import tqdm

from minelib import experiments as ex
from minelib.board import Board, BoardSize, check_mines
from minelib.optimal import solve
from minelib.players import make_player

CHUNK = 50  # games per task
# The stored run that advantage.py and score_variants.py measure a change against unless told (--stored), and its
# player's options (--stored-options), under every other option they are given: the million-game run of expert with a
# safe first click of the defaults before the second look became one (2026-11-28; and before the endgame from 20,000
# layouts, 2026-11-29). The run of the same setting of the defaults between the two: --stored
# results/long/expert_safe_2026-11-28.sqlite --stored-options endgame_compiled=5000.
STORED_RUN, STORED_OPTIONS = "results/long/expert_safe_deep.sqlite", "second=0,endgame_compiled=5000"


def add_slice_arguments(parser: argparse.ArgumentParser, games: int, options: bool = True) -> None:
    """The games to play: ``--games`` from ``--start`` of a record setting (``--level``, ``--rule``,
    ``--first``, ``--seed``: game i as in the record run with seed 2026), with the strongest
    player's ``--options`` if asked for, on ``--workers`` processes."""
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--level", choices=list(ex.LEVELS), default="expert")
    parser.add_argument("--rule", default="safe")
    parser.add_argument("--first", default="0,0")
    parser.add_argument("--seed", type=int, default=ex.RECORD_SEED)
    if options:
        parser.add_argument("--options", default="")
    parser.add_argument("--workers", type=int, default=2)


def check_slice(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``--games`` and ``--start`` name games that exist (a bad one is the parser's error)."""
    if args.games < 1 or args.start < 0:
        parser.error("--games must be positive and --start not negative")


def slice_setting(parser: argparse.ArgumentParser, args: argparse.Namespace) -> ex.Setting:
    """The setting the arguments name, through the games asked for (a bad one is the parser's error)."""
    check_slice(parser, args)
    size, mines = ex.LEVELS[args.level]
    try:
        return ex.Setting(
            ex.RECORD_PLAYER,
            size,
            mines,
            args.start + args.games,
            args.seed,
            args.rule,
            args.first,
            options=getattr(args, "options", ""),
        )
    except ValueError as error:
        parser.error(str(error))


def add_article_argument(parser: argparse.ArgumentParser) -> None:
    """``--article SIDE/DENSITY``: article 003's games instead of a record setting's (``timed_setting``)."""
    parser.add_argument("--article", default="", help="article 003's games instead, as SIDE/DENSITY (e.g. 20/0.2)")


def timed_setting(parser: argparse.ArgumentParser, args: argparse.Namespace) -> ex.Setting:
    """The games a timing plays: article 003's with ``--article`` (e.g. ``20/0.2``), else the slice's of a record
    setting (``slice_setting``); a bad one is the parser's error."""
    if not args.article:
        return slice_setting(parser, args)
    check_slice(parser, args)
    try:
        side, density = args.article.split("/")
        return ex.article_setting(ex.RECORD_PLAYER, int(side), float(density), args.start + args.games)
    except ValueError as error:
        parser.error(f"--article {args.article!r}: {error} (expected SIDE/DENSITY, e.g. 20/0.2)")


def time_ratios(a: list[float], b: list[float]) -> str:
    """Two players' seconds a game on the same games, as a ratio of the first's over the second's."""
    return f"{sum(a) / sum(b):.2f} times in all, {statistics.median(a) / statistics.median(b):.2f} in medians"


def add_stored_arguments(parser: argparse.ArgumentParser) -> None:
    """The stored run a change is measured against: ``--stored`` (its file) and ``--stored-options`` (its
    player's options, under every other option given)."""
    parser.add_argument("--stored", default=STORED_RUN, help="the stored run a change is measured against")
    parser.add_argument(
        "--stored-options",
        default=STORED_OPTIONS,
        help='its player\'s options, under every other option given ("": the defaults)',
    )


def stored_slice(parser: argparse.ArgumentParser, args: argparse.Namespace) -> ex.Setting:
    """The setting the arguments name as the stored run's player plays it (``--stored-options``; a bad option
    is the parser's error)."""
    try:
        make_player(ex.RECORD_PLAYER, args.stored_options)
    except (ValueError, TypeError) as error:
        parser.error(f"--stored-options {args.stored_options!r}: {error}")
    return replace(slice_setting(parser, args), options=args.stored_options)


def slice_title(args: argparse.Namespace, options: bool = True) -> str:
    """The games a slice plays, as its table's title says them: level, board, rule, first click, seed, games
    (and with ``options``, the player's)."""
    size, mines = ex.LEVELS[args.level]
    title = (
        f"{args.level} {size}/{mines}, rule {args.rule}, first click ({args.first}), seed {args.seed}, "
        f"games {args.start}-{args.start + args.games - 1}"
    )
    return title + (f", twostep {args.options or '(defaults)'}" if options else "")


def map_chunks(function: Callable, setting: ex.Setting, args: argparse.Namespace, *extra) -> list:
    """``function(setting, indices, *extra)`` over the games asked for, in chunks of ``CHUNK`` on
    ``--workers`` processes with a progress bar; the lists it returns, joined in game order."""
    indices = list(range(args.start, args.start + args.games))
    chunks = [indices[k : k + CHUNK] for k in range(0, len(indices), CHUNK)]
    found: list = []
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = [pool.submit(function, setting, chunk, *extra) for chunk in chunks]
        for future in tqdm(futures, desc="games", unit="chunk"):
            found.extend(future.result())
    return found


def numbers(parser: argparse.ArgumentParser, option: str, text: str, kind: type = int, low: float = 1) -> list:
    """The comma-separated numbers an option gives (``kind``: int or float), each at least ``low``; anything
    else is the parser's usage error, naming the option."""
    try:
        found = [kind(word) for word in text.split(",")]
    except ValueError:
        parser.error(f"{option} takes numbers separated by commas, not {text!r}")
    if min(found) < low:
        parser.error(f"{option}: every number must be at least {low}, not {text!r}")
    return found


def densities(parser: argparse.ArgumentParser, option: str, text: str) -> list[float]:
    """The comma-separated mine densities an option gives, each in (0, 1) (a usage error otherwise)."""
    found = numbers(parser, option, text, float, low=-math.inf)
    for density in found:
        if not 0 < density < 1:
            parser.error(f"{option}: mine density must lie strictly between 0 and 1, got {density}")
    return found


def boards(parser: argparse.ArgumentParser, option: str, text: str) -> list[tuple[str, int]]:
    """The boards an option gives as ``HxW/mines,...`` (none for ''), each checked: a usage error otherwise."""
    found = []
    for entry in filter(None, text.split(",")):
        size, _, mines = entry.partition("/")
        try:
            if not mines.strip().isdigit():
                raise ValueError(f"a board is written HxW/mines, such as 4x5/7, not {entry!r}")
            check_mines(Board.unopened(BoardSize.parse(size)), int(mines))
        except ValueError as error:
            parser.error(f"{option}: {error}")
        found.append((size, int(mines)))
    return found


def warm_up() -> None:
    """Load the compiled engines a player uses (a process's first analysis and first endgame search load
    them: ~0.1-0.3 s each, once per process), so that no timed game pays for it, and before
    ``kernel_share.py`` wraps them: a kernel compiled after that would see a wrapper where it calls
    another kernel, and fail (as on a fresh clone, with no kernel cached yet)."""
    make_player(ex.RECORD_PLAYER)  # the analysis, the sweep, the endgame search and the player's own kernels
    solve("2x2", 1, engine="compiled")  # the whole optimal search's kernel, for the benchmarks that run it
