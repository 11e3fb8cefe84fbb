"""The command line: ``python -m minelib count|analyze|optimal ...`` (see ``--help``).

Bad input prints one line on stderr and exits with status 2.
"""
from __future__ import annotations

import argparse
import json
import sys

from minelib.analysis import analyze
from minelib.board import Board, BoardSize, to_constraints
from minelib.counters import FrontierCounter
from minelib.optimal import FIRST_CLICK_RULES, OptimalSolver


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, status 2, like every other bad input
        self.exit(2, f"{self.prog}: error: {message}\n")


def _read_board(path: str | None) -> Board:
    if path is None or path == "-":
        text = sys.stdin.read()
    else:
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as error:
            raise ValueError(f"cannot read {path}: {error.strerror}") from None
    return Board.from_text(text)


def _count(args) -> None:
    board = _read_board(args.file)
    X, y, _ = to_constraints(board, args.mines)
    n = FrontierCounter().count(X, y)
    print(json.dumps({"count": n}) if args.json else n)


def _analyze(args) -> None:
    result = analyze(_read_board(args.file), args.mines)
    print(json.dumps(result.to_json()) if args.json else result.to_text())


def _optimal(args) -> None:
    if (args.size is None) == (args.position is None):
        raise ValueError("give a board size HxW or --position FILE (one of them)")
    if args.position is not None:
        board = _read_board(args.position)
        result = OptimalSolver(board.size, args.mines).position(board)
        heading = f"position {board.size} with {args.mines} mines"
    else:
        result = OptimalSolver(args.size, args.mines).first_move(args.first_click)
        heading = f"{args.size} with {args.mines} mines, first click rule '{args.first_click}'"
    if args.json:
        print(json.dumps(result.to_json()))
        return
    moves = " ".join(f"({y},{x})" for y, x in result.best_moves)
    print(f"{heading}: win probability {result.probability} = {float(result.probability):.6f}")
    print(f"best moves (row by row): {moves}")
    print(f"states solved: {result.states}, seconds: {result.seconds:.3f}")


def _tables(args) -> None:
    from minelib import tables

    strips = [BoardSize.parse(text) for text in args.strips.split(",") if text]
    sizes = tables.boards_up_to(args.side, [(s.height, s.width) for s in strips])
    todo = tables.tasks(sizes, args.rules.split(","), args.max_layouts)
    counts = tables.fill_table(args.db, todo, cap=args.cap, progress=not args.quiet)
    print(f"{len(todo)} entries in {args.db}: {counts['solved']} solved now, "
          f"{counts['already']} already there, {counts['capped']} stopped by the {args.cap} s cap")


def _add_position_arguments(command: argparse.ArgumentParser, json_help: str) -> None:
    command.add_argument("file", nargs="?", help="board file (default: standard input)")
    command.add_argument("--mines", type=int, required=True, help="total number of mines, flags included")
    command.add_argument("--json", action="store_true", help=json_help)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``python -m minelib``."""
    parser = _Parser(prog="python -m minelib", description="Exact answers about Minesweeper.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    count = commands.add_parser(
        "count", help="count the mine layouts consistent with a position",
        description="Read a board ('.' unopened, 0-8 numbers, 'F' flags; one line per row) "
                    "and print the exact number of mine layouts consistent with it.")
    _add_position_arguments(count, 'print {"count": N}')
    count.set_defaults(run=_count)
    analysis = commands.add_parser(
        "analyze", help="exact mine probability of every cell, and the certain cells",
        description="Read a board and print the number of consistent mine layouts, every unopened "
                    "cell's exact mine probability (a grid in percent) and the cells that are "
                    "certainly safe or certainly mines.")
    _add_position_arguments(analysis, 'print {"count": N, "probabilities": [["p/q" or null, ...], ...], '
                                      '"safe": [[y, x], ...], "mines": [[y, x], ...]}')
    analysis.set_defaults(run=_analyze)
    optimal = commands.add_parser(
        "optimal", help="exact win probability under optimal play, and every best move",
        description="Solve a board from its first click (HxW) or a position (--position FILE) "
                    "exactly: the win probability under optimal play and every move that achieves it.")
    optimal.add_argument("size", nargs="?", help="board size HxW, e.g. 4x4")
    optimal.add_argument("--mines", type=int, required=True, help="total number of mines")
    optimal.add_argument("--first-click", choices=FIRST_CLICK_RULES, default="none",
                         help="none: the first click may hit a mine (the article's rule); safe: it never "
                              "does; zero: it and its neighbours are mine-free (default: none)")
    optimal.add_argument("--position", metavar="FILE", help="solve this position instead ('-' for stdin)")
    optimal.add_argument("--json", action="store_true",
                         help='print {"probability": "p/q", "best_moves": [[y, x], ...], "states": n, "seconds": t}')
    optimal.set_defaults(run=_optimal)
    table = commands.add_parser(
        "tables", help="fill the SQLite table of optimal play for many boards (resumable)",
        description="Solve every board h x w (h <= w <= SIDE, plus STRIPS) for every mine count and rule, "
                    "easiest first, committing each result as soon as it is known: interrupt and rerun "
                    "to resume. Entries over the time cap are recorded and retried with a larger cap.")
    table.add_argument("--side", type=int, default=4, help="largest side of the square range (default 4)")
    table.add_argument("--strips", default="", help="extra sizes, e.g. 2x6,2x7,3x6")
    table.add_argument("--rules", default=",".join(FIRST_CLICK_RULES), help="first-click rules (default: all)")
    table.add_argument("--max-layouts", type=int, default=None,
                       help="skip entries whose starting layout count is larger")
    table.add_argument("--cap", type=float, default=None, help="seconds per entry before giving up")
    table.add_argument("--db", default="results/optimal.sqlite", help="the SQLite file (default %(default)s)")
    table.add_argument("--quiet", action="store_true", help="no progress bar")
    table.set_defaults(run=_tables)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.run(args)
    except ValueError as error:
        print(f"{parser.prog} {args.command}: error: {error}", file=sys.stderr)
        return 2
    return 0
