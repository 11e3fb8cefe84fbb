"""minelib.analyze on mid-game positions of seeded 16x30/99 games.

    python benchmarks/analyze.py [--games N] [--seed S]

For each kind of game (lucky guesses anywhere, or next to the opened region),
prints the median and worst time per position (exact fractions included), and
how the time grows with the size of the largest component (in cells). Each
position's time is the best of ``--repeat`` cold runs (memo cleared), so that a
pause of the shared machine does not pass for the cost of a position.
Timings are for reading, never for asserting.
"""

import argparse
import statistics
from collections import defaultdict

import numpy as np

from minelib import frontier
from minelib.analysis import analyze
from minelib.board import BoardSize, to_constraints
from minelib.problems import midgame_positions
from minelib.timing import Timer

BINS = [(0, 10), (10, 20), (20, 40), (40, 80), (80, 1000)]


def largest_component(board, mines) -> int:
    """Cells in the largest component of the position (after subset reduction)."""
    X, y, _ = to_constraints(board, mines)
    parts = frontier.decompose(X.astype(np.int64), y.astype(np.int64))
    return max((sum(c.sizes) for c in parts.components), default=0)


def cold_time(board, mines) -> float:
    """Seconds for one analysis with the component memo cleared."""
    frontier.component_polynomial.cache_clear()
    with Timer() as timer:
        analyze(board, mines)
    return timer.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeat", type=int, default=3, help="runs per position; the best counts")
    args = parser.parse_args()
    size, mines = BoardSize(16, 30), 99
    print(f"{'guesses':<10} {'positions':>9} {'median ms':>10} {'worst ms':>9}")
    growth = defaultdict(list)
    for guesses in ("frontier", "anywhere"):
        rng = np.random.default_rng(args.seed)
        times = []
        for _ in range(args.games):
            for board in midgame_positions(size, mines, rng, guesses=guesses):
                seconds = min(cold_time(board, mines) for _ in range(args.repeat))
                times.append(seconds)
                growth[largest_component(board, mines)].append(seconds)
        print(f"{guesses:<10} {len(times):>9} {statistics.median(times) * 1e3:>10.2f} {max(times) * 1e3:>9.2f}")
    print(f"\n{'largest component (cells)':<26} {'positions':>9} {'median ms':>10} {'worst ms':>9}")
    for low, high in BINS:
        times = [t for cells, ts in growth.items() if low <= cells < high for t in ts]
        if times:
            print(
                f"{f'{low}-{high - 1}':<26} {len(times):>9} {statistics.median(times) * 1e3:>10.2f} "
                f"{max(times) * 1e3:>9.2f}"
            )


if __name__ == "__main__":
    main()
