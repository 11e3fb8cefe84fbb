"""The command line: ``python -m minelib count|analyze --mines K [FILE] [--json]``.

Bad input prints one line on stderr and exits with status 2.
"""
from __future__ import annotations

import argparse
import json
import sys

from minelib.analysis import analyze
from minelib.board import Board, to_constraints
from minelib.counters import FrontierCounter


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
