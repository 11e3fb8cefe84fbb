"""The command line: ``python -m minelib count|analyze|sample|advise|optimal|tables|play|explore ...`` (see ``--help``).

The arguments of each command are read here; ``minelib.commands`` does what it asks. Bad input
prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import sys

from numba.core import event

from minelib import commands
from minelib.game import FIRST_CELLS, FIRST_CLICK_RULES
from minelib.optimal import AUTO_LAYOUTS, DEFAULT_MAX_STATES, ENGINES
from minelib.players import PLAYERS, STRONGEST


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, status 2, like every other bad input
        self.exit(2, f"{self.prog}: error: {message}\n")


def _add_options_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--options",
        default="",
        metavar="KEY=VALUE,...",
        help="the player's options, e.g. dead=0 or cut=4/5 (see its class in minelib.players)",
    )


def _add_position_arguments(command: argparse.ArgumentParser, json_help: str) -> None:
    command.add_argument("file", nargs="?", help="board file (default: standard input)")
    command.add_argument("--mines", type=int, required=True, help="total number of mines, flags included")
    command.add_argument("--json", action="store_true", help=json_help)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``python -m minelib``."""
    parser = _Parser(prog="python -m minelib", description="Exact answers about Minesweeper.")
    subcommands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    count = subcommands.add_parser(
        "count",
        help="count the mine layouts consistent with a position",
        description="Read a board ('.' unopened, 0-8 numbers, 'F' flags; one line per row) "
        "and print the exact number of mine layouts consistent with it.",
    )
    _add_position_arguments(count, 'print {"count": N}')
    count.set_defaults(run=commands.count_command)
    analysis = subcommands.add_parser(
        "analyze",
        help="exact mine probability of every cell, and the certain cells",
        description="Read a board and print the number of consistent mine layouts, every unopened "
        "cell's exact mine probability (a grid in percent) and the cells that are "
        "certainly safe or certainly mines.",
    )
    _add_position_arguments(
        analysis,
        'print {"count": N, "probabilities": [["p/q" or null, ...], ...], '
        '"safe": [[y, x], ...], "mines": [[y, x], ...]}',
    )
    analysis.set_defaults(run=commands.analyze_command)
    sample = subcommands.add_parser(
        "sample",
        help="mine layouts drawn uniformly from those consistent with a position",
        description="Read a board and print --count mine layouts drawn uniformly and independently from those "
        "consistent with it (exact at any size: a uniform rank among them all), as pictures ('*' a mine, "
        "'.' safe) separated by blank lines: a boards file for `play --boards`.",
    )
    _add_position_arguments(sample, 'print {"layouts": [[[y, x], ...], ...]}, the mines of each (flags included)')
    sample.add_argument("--count", type=int, default=1, help="how many layouts (default 1)")
    sample.add_argument(
        "--seed", type=int, default=0, help="seed of the draw (default 0): the same seed, the same layouts"
    )
    sample.set_defaults(run=commands.sample_command)
    advise = subcommands.add_parser(
        "advise",
        help="the move the strongest player makes in a position",
        description="Read a board and print the move the player makes there: a certain move if "
        "there is one, else its guess with its exact mine probability, and, when the exact "
        "endgame search chose it, the exact win probability under optimal play.",
    )
    _add_position_arguments(
        advise,
        'print {"player", "move": "open"|"flag", "cell": [y, x], "certain", '
        '"mine_probability": "p/q", "win_probability": "p/q" or null, "reason": what decided the move}',
    )
    advise.add_argument(
        "--player", choices=list(PLAYERS), default=STRONGEST, help=f"the player asked (default {STRONGEST})"
    )
    _add_options_argument(advise)
    advise.add_argument(
        "--candidates",
        action="store_true",
        help="also print the guesses the player ranked, the move first, with their exact mine probability "
        'and score (JSON: "candidates": [{"cell", "mine_probability", "score", "living"}, ...], with "deeper", '
        'the score one move further, where the deeper look ranked them, and "further", one move further '
        "again, where the second look did (the defaults; --options second=0 turns it off); not zdd)",
    )
    advise.set_defaults(run=commands.advise_command)
    optimal = subcommands.add_parser(
        "optimal",
        help="exact win probability under optimal play, and every best move",
        description="Solve a board from its first click (HxW) or a position (--position FILE) "
        "exactly: the win probability under optimal play and every move that achieves it.",
    )
    optimal.add_argument("size", nargs="?", help="board size HxW, e.g. 4x4")
    optimal.add_argument("--mines", type=int, required=True, help="total number of mines")
    optimal.add_argument(
        "--first-click",
        choices=FIRST_CLICK_RULES,
        default="none",
        help="none: the first click may hit a mine (the article's rule); safe: it never "
        "does; zero: it and its neighbours are mine-free (default: none)",
    )
    optimal.add_argument("--position", metavar="FILE", help="solve this position instead ('-' for stdin)")
    optimal.add_argument(
        "--engine",
        choices=ENGINES,
        default="auto",
        help="compiled: the search compiled by numba (boards of at most 63 cells); python: "
        "the pure-Python reference; auto (default): compiled when the board fits and "
        f"starts from more than {AUTO_LAYOUTS:,} layouts, else python",
    )
    optimal.add_argument(
        "--max-states",
        type=int,
        default=None,
        help="states the memo keeps before it starts afresh (still exact): more is faster on "
        "large boards and takes more memory (default "
        f"{DEFAULT_MAX_STATES['compiled']:,} compiled, {DEFAULT_MAX_STATES['python']:,} python)",
    )
    optimal.add_argument(
        "--json",
        action="store_true",
        help='print {"probability": "p/q", "best_moves": [[y, x], ...], "states": n, "seconds": t}',
    )
    optimal.set_defaults(run=commands.optimal_command)
    table = subcommands.add_parser(
        "tables",
        help="fill the SQLite table of optimal play for many boards (resumable)",
        description="Solve every board h x w (h <= w <= SIDE, plus STRIPS) for every mine count and rule, "
        "easiest first, committing each result as soon as it is known: interrupt and rerun "
        "to resume. Entries over the time cap are recorded and retried with a larger cap.",
    )
    table.add_argument("--side", type=int, default=4, help="largest side of the square range (default 4)")
    table.add_argument("--strips", default="", help="extra sizes, e.g. 2x6,2x7,3x6")
    table.add_argument("--rules", default=",".join(FIRST_CLICK_RULES), help="first-click rules (default: all)")
    table.add_argument(
        "--max-layouts", type=int, default=None, help="skip entries whose starting layout count is larger"
    )
    table.add_argument("--cap", type=float, default=None, help="seconds per entry before giving up")
    table.add_argument("--db", default="results/optimal.sqlite", help="the SQLite file (default %(default)s)")
    table.add_argument("--engine", choices=ENGINES, default="auto", help="as for optimal (default auto)")
    table.add_argument("--max-states", type=int, default=None, help="as for optimal")
    table.add_argument(
        "--workers",
        type=int,
        default=None,
        help="solve each entry in pieces (first click and number) on N processes, each piece kept as it "
        "finishes: for entries longer than a sitting",
    )
    table.add_argument("--quiet", action="store_true", help="no progress bar")
    table.add_argument("--scheduler", metavar="ADDRESS", help="search on this Dask cluster (e.g. tcp://host:8786)")
    table.set_defaults(run=commands.tables_command)
    play = subcommands.add_parser(
        "play",
        help="play seeded games with an automatic player; wins and times",
        description="Play N seeded games (game i seeded by (SEED, i)) in parallel over all cores and "
        "print the wins with a 95% interval and the min / median / max seconds per game. "
        "With --results, each finished game is appended to that file: rerun to resume.",
    )
    play.add_argument(
        "--player",
        "--solver",
        dest="player",
        choices=PLAYERS,
        default=STRONGEST,
        help="zdd: article 003's player; lookahead: exact analysis with a one-step look-ahead; "
        "safest: lookahead without its look-ahead; twostep: guesses that look two moves ahead "
        f"(default {STRONGEST}; --solver is an old alias)",
    )
    _add_options_argument(play)
    play.add_argument("--size", required=True, help="board size HxW")
    play.add_argument("--mines", type=int, help="number of mines")
    play.add_argument("--density", type=float, help="mine density in (0, 1) instead of --mines")
    play.add_argument(
        "--games", type=int, help="number of games (default 10, or every layout of --boards from --start)"
    )
    play.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    play.add_argument(
        "--start",
        type=int,
        default=0,
        help="the first game's number (default 0): games START to START+N-1, e.g. a long run's next part in a "
        "results file of its own (an .sqlite file's blocks of 500 games: a multiple of 500)",
    )
    play.add_argument(
        "--first-click",
        choices=FIRST_CLICK_RULES,
        default="zero",
        help="zero: the first click opens a region (default); safe: it is mine-free; none",
    )
    play.add_argument(
        "--first",
        default="random",
        help=f"where the first click goes: {', '.join(FIRST_CELLS)} or ROW,COL (default: a seeded random cell)",
    )
    play.add_argument("--boards", metavar="FILE", help="replay these layouts ('*' mine, '.' safe; blank lines between)")
    play.add_argument("--results", metavar="FILE", help="append each game here and resume from it")
    play.add_argument("--serial", action="store_true", help="play in this process instead of a process per core")
    play.add_argument("--scheduler", metavar="ADDRESS", help="play on this Dask cluster (e.g. tcp://host:8786)")
    play.add_argument(
        "--json",
        action="store_true",
        help='print {"games": n, "wins": w, "interval": [lo, hi], "seconds": {"min", "median", "max"}, '
        '"luck_out": {"rate", "interval", "games"} or null (the rate with the games\' luck taken out)}',
    )
    play.add_argument("--quiet", action="store_true", help="no progress bar")
    play.set_defaults(run=commands.play_command)
    page = subcommands.add_parser(
        "explore",
        help="serve the explorer as a page on localhost, for any browser",
        description="Serve a page with the board explorer on 127.0.0.1 (a free port unless --port) and print its "
        "address: play a seeded game, or open on a position FILE, with exact overlays. Default: beginner, "
        "9x9 with 10 mines. Ctrl-C stops the server.",
    )
    page.add_argument("file", nargs="?", help="a position to open on (board text; '-' for standard input)")
    page.add_argument("--size", help="board size HxW (with --mines)")
    page.add_argument("--mines", type=int, help="number of mines (with --size or FILE)")
    page.add_argument(
        "--first-click", choices=FIRST_CLICK_RULES, default="zero", help="first-click rule (default zero)"
    )
    page.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    page.add_argument(
        "--player", choices=PLAYERS, default=STRONGEST, help=f"whose advice is shown (default {STRONGEST})"
    )
    page.add_argument(
        "--overlays",
        default="probabilities,certain,recommended",
        help="overlays shown at first, comma separated (default %(default)s)",
    )
    page.add_argument("--port", type=int, help="port on 127.0.0.1 (default: a free one)")
    page.add_argument("--print-source", action="store_true", help="print the page's code instead of serving it")
    page.add_argument("--quiet", action="store_true", help="no server log")
    page.set_defaults(run=commands.explore_command)
    return parser


class _CompileNotice(event.Listener):
    """Says once, on a terminal, that numba is compiling: a fresh checkout's first run of a command waits
    up to a minute or two (``analyze``: 37 s), which would otherwise look like a hang. Nothing is said
    when the code comes from numba's cache, nor to a pipe or a file."""

    def __init__(self, prog: str) -> None:
        self.prog, self.said = prog, False

    def on_start(self, started) -> None:
        if not self.said:
            self.said = True
            print(
                f"{self.prog}: numba compiles the code this command needs, once for this checkout "
                "(up to a minute or two; later runs load it from the cache)",
                file=sys.stderr,
                flush=True,
            )

    def on_end(self, ended) -> None:
        pass


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    notice, at_terminal = _CompileNotice(parser.prog), sys.stderr.isatty()
    if at_terminal:
        event.register("numba:compile", notice)
    try:
        args.run(args)
    except ValueError as error:
        print(f"{parser.prog} {args.command}: error: {error}", file=sys.stderr)
        return 2
    finally:
        if at_terminal:
            event.unregister("numba:compile", notice)
    return 0


__all__ = [
    "build_parser",
    "main",
]
