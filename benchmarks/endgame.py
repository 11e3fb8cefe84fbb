"""The exact endgame on expert: the search on a position's undecided cells against the search of the
whole board, on the same positions, in the same run.

    python benchmarks/endgame.py [--games 200] [--seed 8] [--bands 2-24,25-100,101-400,401-2000,2001-5000]

Positions are the guesses of seeded expert games (16x30/99, safe, first click (0, 0), game i seeded
by (seed, i)) played by the two-step player without its endgame; each band of layout counts keeps
the positions whose count falls in it. For each position: the undecided cells, and the seconds of
``EndgameSearch`` (a fresh one: no memo carried from the game) and of ``OptimalSolver.position``
with the Python engine on the whole board (the players' endgame before; only up to 400 layouts,
past that it takes too long), every answer checked equal. Medians, and the ratio of total times.
The last column is the search for the best cells alone (``best=True``, the player's question) with the
dead cells kept in the states over the default that leaves them out (``EndgameSearch(dead=False)``),
the two run in turn on each position and checked equal.
Timings are for reading: the machine is shared.
"""

import argparse
import statistics
import time

import numpy as np

from minelib.board import Board, BoardSize
from minelib.endgame import EndgameSearch
from minelib.game import Game
from minelib.layouts import Geometry, consistent_layouts
from minelib.optimal import OptimalSolver
from minelib.report import text_table
from minelib.twostep import TwoStepPlayer, TwoStepRun

PYTHON_LAYOUTS = 400  # the whole-board Python search is timed up to here


def positions(games: int, seed: int, low: int, high: int) -> list:
    """(board, layouts) at every guess of the games with low..high layouts."""
    found = []
    for i in range(games):
        game = Game(BoardSize(16, 30), 99, "safe", seed=np.random.default_rng([seed, i]))
        run = TwoStepRun(game, False, TwoStepPlayer(endgame_layouts=0, endgame_compiled=0))
        guess = run.guess

        def watched(board, mines, result, guess=guess):
            if low <= result.count <= high:
                found.append(board)
            return guess(board, mines, result)

        run.guess = watched
        run.play((0, 0))
    return [(board, consistent_layouts(board, 99, Geometry.of(board.size))) for board in found]


def positions_by_band(
    description: str, seed: int, bands: str, games: int = 200, more=None
) -> tuple[argparse.Namespace, list]:
    """The arguments of a script that times searches on positions (``--games``, ``--seed``, ``--bands``: layout
    counts as LOW-HIGH, comma separated; a bad one is the parser's error; ``more``: a function that adds the
    script's own arguments to the parser), and per band that holds any, its
    ``((low, high), [(board, layouts), ...])``. The compiled engine is loaded before any search is timed."""
    parser = argparse.ArgumentParser(description=description)
    if more is not None:
        more(parser)
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--bands", default=bands)
    args = parser.parse_args()
    words = [band.partition("-") for band in args.bands.split(",")]
    if not all(a.isdigit() and dash and b.isdigit() and 0 < int(a) <= int(b) for a, dash, b in words):
        parser.error(f"--bands takes layout counts as LOW-HIGH, comma separated (2-24,25-100), not {args.bands!r}")
    if args.games < 1:
        parser.error(f"--games must be positive, not {args.games}")
    limits = [(int(a), int(b)) for a, _, b in words]
    everything = positions(args.games, args.seed, min(b[0] for b in limits), max(b[1] for b in limits))
    for best in (False, True):  # load the compiled kernels of both questions on a tiny position
        EndgameSearch(1).values(Board.from_text("1.."), best=best)
    found = [((low, high), [(b, la) for b, la in everything if low <= len(la) <= high]) for low, high in limits]
    return args, [(band, held) for band, held in found if held]


def main() -> None:
    args, bands = positions_by_band(__doc__.splitlines()[0], 8, "2-24,25-100,101-400,401-2000,2001-5000")
    rows = []
    for (low, high), band in bands:
        ours, theirs, cells = [], [], []
        kept = {False: 0.0, True: 0.0}  # best=True, by whether dead cells stay in the states
        for k, (board, layouts) in enumerate(band):
            start = time.perf_counter()
            values = EndgameSearch(99).values(board, layouts)
            ours.append(time.perf_counter() - start)
            always = layouts[0]
            for mask in layouts:
                always &= mask
            cells.append(sum(1 for c in board.unopened_cells() if not always >> board.size.cell_id(c) & 1))
            if high <= PYTHON_LAYOUTS:
                start = time.perf_counter()
                whole = OptimalSolver(board.size, 99, engine="python", symmetry=False).position(board).move_values
                theirs.append(time.perf_counter() - start)
                assert whole == values, "the two searches must agree"
            answers = {}
            for dead in (True, False) if k % 2 else (False, True):
                start = time.perf_counter()
                answers[dead] = EndgameSearch(99, dead=dead).values(board, layouts, best=True)
                kept[dead] += time.perf_counter() - start
            assert answers[True] == answers[False], "dead cells left out must change no answer"
        rows.append(
            {
                "layouts": f"{low}-{high}",
                "positions": len(band),
                "undecided cells (median, max)": f"{statistics.median(cells):.0f}, {max(cells)}",
                "undecided search median ms": f"{1000 * statistics.median(ours):.2f}",
                "max ms": f"{1000 * max(ours):.1f}",
                "whole-board median ms": f"{1000 * statistics.median(theirs):.2f}" if theirs else "-",
                "whole / undecided (total)": f"{sum(theirs) / sum(ours):.1f}x" if theirs else "-",
                "best: dead kept / left out (total)": f"{kept[False] / kept[True]:.2f}x",
            }
        )
    print(f"exact endgame on expert 16x30/99 (safe, (0, 0)): guesses of {args.games} games, seed {args.seed}")
    print(text_table(rows))


if __name__ == "__main__":
    main()
