"""The command line: ``python -m minelib count|analyze|advise|optimal|tables|play|explore ...`` (see ``--help``).

Bad input prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import contextmanager

from minelib.analysis import analyze
from minelib.board import Board, BoardSize, to_constraints
from minelib.counters import FrontierCounter
from minelib.game import FIRST_CELLS, FIRST_CLICK_RULES
from minelib.optimal import AUTO_LAYOUTS, DEFAULT_MAX_STATES, ENGINES, OptimalSolver
from minelib.players import PLAYERS, STRONGEST, explain, make_player
from minelib.report import text_table


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


_CERTAIN_REASONS = {  # LookaheadPlayer.explain's reasons for a certain move, as the text output says them
    "one number": "one number and its unopened neighbours settle it",
    "exact analysis": "every layout that fits the position agrees",
}
_GUESS_REASONS = {  # and for a guess
    "safest": "the safest cell",
    "only candidate": "the only cell near the safest",
    "most progress": "of the cells near the safest, the likeliest to be safe and make progress",
    "forced 50/50": "a 50/50 that no future move can resolve: guessed at once",
    "50/50 or safe": "a cell of a latent 50/50",
    "best score": "the best two-step score",
    "exact endgame": "the optimal move",
}


def _advise(args) -> None:
    board = _read_board(args.file)
    if not board.unopened_cells():
        raise ValueError("the position has no unopened cell: nothing to advise")
    player = make_player(args.player, args.options)
    if args.candidates and not hasattr(player, "explain"):
        raise ValueError(f"--candidates: the {args.player} player ranks no guesses (the others do)")
    move, reason, ranked = explain(player, board, args.mines)
    if args.json:
        answer = _move_json(move, args.player)
        answer["reason"] = reason or None
        if args.candidates:
            answer["candidates"] = [
                {"cell": list(c), "mine_probability": str(p), "score": score, "living": living}
                for c, p, score, living in ranked
            ]
        print(json.dumps(answer))
        return
    y, x = move.cell
    if move.certain:
        why = f" ({_CERTAIN_REASONS[reason]})" if reason in _CERTAIN_REASONS else ""
        print(f"{move.kind} ({y},{x}): certainly {'a mine' if move.kind == 'flag' else 'safe'}{why}")
    elif move.mine_probability is not None:
        p = move.mine_probability
        why = _GUESS_REASONS.get(reason, "the safest cell or near it")
        print(f"open ({y},{x}): a guess, mine probability {p} = {float(p):.1%} ({why})")
    if move.win_probability is not None:
        w = move.win_probability
        print(f"win probability with optimal play from here: {w} = {float(w):.6f} (exact endgame search)")
    if ranked and args.candidates:
        score = "to survive the guess and the next" if reason == "best score" else "to be safe and make progress"
        print(f"the guesses ranked, the move first (score: the chance {score}):")
        rows = [
            {
                "cell": f"({r.cell[0]},{r.cell[1]})",
                "mine probability": f"{r.mine_probability} = {float(r.mine_probability):.1%}",
                "score": r.score,
                "living": "yes" if r.living else "no",
            }
            for r in ranked
        ]
        print(text_table(rows, ".4f"))
    elif args.candidates:
        print("no guesses ranked: the move was decided otherwise")


def _move_json(move, player: str) -> dict:
    def text(p):
        return None if p is None else str(p)

    return {
        "player": player,
        "move": move.kind,
        "cell": list(move.cell),
        "certain": move.certain,
        "mine_probability": text(move.mine_probability),
        "win_probability": text(move.win_probability),
    }


def _optimal(args) -> None:
    if (args.size is None) == (args.position is None):
        raise ValueError("give a board size HxW or --position FILE (one of them)")
    options = {"max_states": args.max_states}
    if args.position is not None:
        board = _read_board(args.position)
        result = OptimalSolver(board.size, args.mines, args.engine, **options).position(board)
        heading = f"position {board.size} with {args.mines} mines"
    else:
        result = OptimalSolver(args.size, args.mines, args.engine, **options).first_move(args.first_click)
        heading = f"{args.size} with {args.mines} mines, first click rule '{args.first_click}'"
    if args.json:
        print(json.dumps(result.to_json()))
        return
    moves = " ".join(f"({y},{x})" for y, x in result.best_moves)
    print(f"{heading}: win probability {result.probability} = {float(result.probability):.6f}")
    print(f"best moves (row by row): {moves}")
    print(f"states solved: {result.states}, seconds: {result.seconds:.3f}")


def _tables(args) -> None:
    from minelib import filling, tables

    if args.max_layouts is not None and args.max_layouts < 1:
        raise ValueError(f"--max-layouts must be positive, not {args.max_layouts}")
    if args.cap is not None and not args.cap > 0:
        raise ValueError(f"--cap must be a positive number of seconds, not {args.cap}")
    strips = [BoardSize.parse(text) for text in args.strips.split(",") if text]
    sizes = tables.boards_up_to(args.side, [(s.height, s.width) for s in strips])
    if not sizes:  # (--side 1 with --strips fills the strips alone)
        raise ValueError(
            f"--side must be at least 2 (the boards up to side x side), not {args.side}, or --strips given"
        )
    todo = tables.tasks(sizes, args.rules.split(","), args.max_layouts)
    with _cluster(args.scheduler) as client:
        counts = filling.fill_table(
            args.db,
            todo,
            cap=args.cap,
            progress=not args.quiet,
            engine=args.engine,
            max_states=args.max_states,
            client=client,
            workers=args.workers,
        )
    print(
        f"{len(todo)} entries in {args.db}: {counts['solved']} solved now, "
        f"{counts['already']} already there, "
        + (f"{counts['capped']} stopped by the {args.cap} s cap" if args.cap else "no time cap")
    )


def _play(args) -> None:
    from minelib import experiments
    from minelib.game import mines_for_density

    size = BoardSize.parse(args.size)
    if (args.mines is None) == (args.density is None):
        raise ValueError("give --mines K or --density D (one of them)")
    mines = args.mines if args.mines is not None else mines_for_density(size, args.density)
    boards = _read_layouts(args.boards) if args.boards else ()
    games = args.games if args.games is not None else (len(boards) or 10)
    setting = experiments.Setting(
        args.player, str(size), mines, games, args.seed, args.first_click, args.first, boards, args.options
    )
    with _cluster(args.scheduler) as client:
        summary = experiments.run(
            setting, args.results, parallel=not args.serial, progress=not args.quiet and not args.json, client=client
        )
    if args.json:
        print(
            json.dumps(
                {
                    "games": summary.games,
                    "wins": summary.wins,
                    "interval": [summary.low, summary.high],
                    "seconds": dict(zip(("min", "median", "max"), summary.seconds)),
                }
            )
        )
    else:
        print(f"{args.player} on {size} with {mines} mines, first click {args.first} ({args.first_click}): {summary}")


@contextmanager
def _cluster(scheduler: str | None):
    """A Dask client of the cluster at ``scheduler`` (closed after), or None to work on this machine."""
    if scheduler is None:
        yield None
        return
    from minelib.cluster import connect

    client = connect(scheduler)
    try:
        yield client
    finally:
        client.close()


def _read_layouts(path: str) -> tuple[str, ...]:
    """Layout pictures separated by blank lines."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror}") from None
    pictures = tuple(block.strip() for block in text.split("\n\n") if block.strip())
    if not pictures:
        raise ValueError(f"{path} holds no layout pictures")
    return pictures


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


def _explore(args) -> None:
    from minelib import explore

    if args.file is not None and args.size is not None:
        raise ValueError("give a board size (--size HxW --mines K) or a position FILE, not both")
    if (args.file is not None or args.size is not None) and args.mines is None:
        raise ValueError("give --mines K with --size or a position FILE")
    if args.port is not None and not 1 <= args.port <= 65535:
        raise ValueError(f"--port must be a port number from 1 to 65535, not {args.port}")
    position = _read_board(args.file) if args.file is not None else None
    overlays = tuple(name for name in args.overlays.split(",") if name)
    source = explore.explorer_source(
        args.size or "9x9",
        10 if args.mines is None else args.mines,
        args.first_click,
        args.seed,
        args.player,
        overlays,
        position,
    )
    if args.print_source:
        print(source)
        return
    status = explore.serve(source, args.port, quiet=args.quiet)
    if status:
        raise ValueError(f"the page server (voila) stopped with status {status}")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``python -m minelib``."""
    parser = _Parser(prog="python -m minelib", description="Exact answers about Minesweeper.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    count = commands.add_parser(
        "count",
        help="count the mine layouts consistent with a position",
        description="Read a board ('.' unopened, 0-8 numbers, 'F' flags; one line per row) "
        "and print the exact number of mine layouts consistent with it.",
    )
    _add_position_arguments(count, 'print {"count": N}')
    count.set_defaults(run=_count)
    analysis = commands.add_parser(
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
    analysis.set_defaults(run=_analyze)
    advise = commands.add_parser(
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
        'and score (JSON: "candidates": [{"cell", "mine_probability", "score", "living"}, ...]; not zdd)',
    )
    advise.set_defaults(run=_advise)
    optimal = commands.add_parser(
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
    optimal.set_defaults(run=_optimal)
    table = commands.add_parser(
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
    table.set_defaults(run=_tables)
    play = commands.add_parser(
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
    play.add_argument("--games", type=int, help="number of games (default 10, or every layout of --boards)")
    play.add_argument("--seed", type=int, default=0, help="seed (default 0)")
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
        help='print {"games": n, "wins": w, "interval": [lo, hi], "seconds": {"min", "median", "max"}}',
    )
    play.add_argument("--quiet", action="store_true", help="no progress bar")
    play.set_defaults(run=_play)
    page = commands.add_parser(
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
    page.set_defaults(run=_explore)
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


__all__ = [
    "build_parser",
    "main",
]
