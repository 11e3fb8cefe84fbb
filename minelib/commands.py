"""What each command of ``python -m minelib`` does, once ``minelib.cli`` has read its arguments.

Each takes the parsed arguments, prints its answer (text, or JSON with ``--json``) and raises
ValueError, whose message the command line prints, for bad input.
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager

from minelib.analysis import analyze
from minelib.board import Board, BoardSize, to_constraints
from minelib.counters import FrontierCounter
from minelib.game import layout_picture
from minelib.optimal import OptimalSolver
from minelib.players import explain, make_player
from minelib.report import text_table
from minelib.sampling import RankedLayouts
from minelib.twostep import SCORED_REASONS


def read_board(path: str | None) -> Board:
    """The board in the file at ``path`` (standard input for None or ``-``); ValueError if unreadable."""
    if path is None or path == "-":
        text = sys.stdin.read()
    else:
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as error:
            raise ValueError(f"cannot read {path}: {error.strerror}") from None
    return Board.from_text(text)


def count_command(args) -> None:
    board = read_board(args.file)
    X, y, _ = to_constraints(board, args.mines)
    n = FrontierCounter().count(X, y)
    print(json.dumps({"count": n}) if args.json else n)


def analyze_command(args) -> None:
    result = analyze(read_board(args.file), args.mines)
    print(json.dumps(result.to_json()) if args.json else result.to_text())


def sample_command(args) -> None:
    if args.count < 1:
        raise ValueError(f"--count must be a positive number of layouts, not {args.count}")
    if args.seed < 0:
        raise ValueError(f"--seed must be a non-negative integer, not {args.seed}")
    board = read_board(args.file)
    drawn = RankedLayouts(board, args.mines).sample(args.count, args.seed)
    if args.json:
        print(json.dumps({"layouts": [board.cells_where(mask) for mask in drawn]}))
    else:
        print("\n\n".join(layout_picture(mask) for mask in drawn))


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
    "deeper look": "of the near-best two-step scores, the best one move further",
    "second look": "of the best one move further (two, or second_width), the best one move further again",
    "exact endgame": "the optimal move",
}


def advise_command(args) -> None:
    board = read_board(args.file)
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
                {
                    "cell": list(r.cell),
                    "mine_probability": str(r.mine_probability),
                    "score": r.score,
                    "living": r.living,
                }
                | ({"deeper": r.deeper} if r.deeper is not None else {})
                | ({"further": r.further} if r.further is not None else {})
                for r in ranked
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
        score = "to survive the guess and the next" if reason in SCORED_REASONS else "to be safe and make progress"
        deeper = "; deeper: the same one move further" if reason in ("deeper look", "second look") else ""
        further = "; further: one move further again" if reason == "second look" else ""
        print(f"the guesses ranked, the move first (score: the chance {score}{deeper}{further}):")
        rows = [
            {
                "cell": f"({r.cell[0]},{r.cell[1]})",
                "mine probability": f"{r.mine_probability} = {float(r.mine_probability):.1%}",
                "score": r.score,
            }
            | ({"deeper": "" if r.deeper is None else f"{r.deeper:.4f}"} if deeper else {})
            | ({"further": "" if r.further is None else f"{r.further:.4f}"} if further else {})
            | {"living": "yes" if r.living else "no"}
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


def optimal_command(args) -> None:
    if (args.size is None) == (args.position is None):
        raise ValueError("give a board size HxW or --position FILE (one of them)")
    options = {"max_states": args.max_states}
    if args.position is not None:
        board = read_board(args.position)
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


def tables_command(args) -> None:
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


def play_command(args) -> None:
    from minelib import experiments
    from minelib.game import mines_for_density

    size = BoardSize.parse(args.size)
    if (args.mines is None) == (args.density is None):
        raise ValueError("give --mines K or --density D (one of them)")
    mines = args.mines if args.mines is not None else mines_for_density(size, args.density)
    boards = _read_layouts(args.boards) if args.boards else ()
    if boards and args.start >= len(boards):
        raise ValueError(
            f"--start {args.start}: the boards file holds only {len(boards)} layouts (games 0 to {len(boards) - 1})"
        )
    games = args.games if args.games is not None else ((len(boards) - args.start) if boards else 10)
    setting = experiments.Setting(
        args.player, str(size), mines, games, args.seed, args.first_click, args.first, boards, args.options, args.start
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
                    "luck_out": _luck_out(summary.luck),
                }
            )
        )
    else:
        print(f"{args.player} on {size} with {mines} mines, first click {args.first} ({args.first_click}): {summary}")


def _luck_out(luck) -> dict | None:
    """The rate with the games' luck taken out, its 95% interval and of how many games (None: none kept it)."""
    if luck is None:
        return None
    return {"rate": luck.rate()[0], "interval": list(luck.interval()), "games": luck.games}


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


def explore_command(args) -> None:
    from minelib import explore

    if args.file is not None and args.size is not None:
        raise ValueError("give a board size (--size HxW --mines K) or a position FILE, not both")
    if (args.file is not None or args.size is not None) and args.mines is None:
        raise ValueError("give --mines K with --size or a position FILE")
    if args.port is not None and not 1 <= args.port <= 65535:
        raise ValueError(f"--port must be a port number from 1 to 65535, not {args.port}")
    position = read_board(args.file) if args.file is not None else None
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


__all__ = [
    "advise_command",
    "analyze_command",
    "count_command",
    "explore_command",
    "optimal_command",
    "play_command",
    "read_board",
    "sample_command",
    "tables_command",
]
