"""minelib.analyze on mid-game positions of seeded 16x30/99 games, against the reference, in one run.

    python benchmarks/analyze.py [--positions 120] [--seed S] [--repeat 3]

Positions come from seeded expert games (lucky guesses next to the opened
region and anywhere, alternately), flags taken as known mines. For every
position, each way of analysing it is timed ``--repeat`` times after a warm-up
pass and the best run counts (a pause of the shared machine is not the cost of
a position). Printed per way: median, 90th percentile and worst milliseconds,
and the ratio of the reference's median to each (measured in the same run):

- ``analyze, text in``: board text in, every probability out (the Fraction grid);
- ``analyze, parsed board``: a parsed Board in, every probability out;
- ``reference, text in``: ``reference_analyze`` (the component DP of minelib.frontier).

Then the incremental form, on three unopened cells of every position: every number the
cell may show, analysed whole (``analyze`` of each changed board) and by an ``Analyzer``
keeping the position (``what_if``: only the region around the cell is counted again); and
what a guess's score reads of them (layout count, a certain cell or not, the two lowest risks):
from ``what_if``'s analyses, and from ``outlook``, which answers just that.

Every answer is checked equal to the reference's before anything is timed.
Timings are for reading, never for asserting.
"""

import argparse
import contextlib
import statistics
import time

import numpy as np

from minelib import BoardSize
from minelib.analysis import Analyzer, ImpossiblePosition, analyze, reference_analyze
from minelib.problems import midgame_positions
from minelib.report import text_table


def positions(count: int, seed: int) -> list:
    """``count`` positions of seeded expert games, guesses next to the region and anywhere in turn."""
    rng, found = np.random.default_rng(seed), []
    while len(found) < count:
        for guesses in ("frontier", "anywhere"):
            found += midgame_positions(BoardSize(16, 30), 99, rng, guesses=guesses)
    return found[:count]


def best_time(function, argument, repeat: int) -> float:
    return best_of(lambda: function(argument, 99).probabilities, repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeat", type=int, default=3, help="runs per position; the best counts")
    args = parser.parse_args()
    if args.positions < 1 or args.repeat < 1:
        parser.error("--positions and --repeat must be positive")
    boards = positions(args.positions, args.seed)
    texts = [board.to_text() for board in boards]
    for board in boards:  # warm-up (numba loads the compiled engine), and every answer checked
        assert analyze(board, 99) == reference_analyze(board, 99)
    ways = {
        "analyze, text in": (analyze, texts),
        "analyze, parsed board": (analyze, boards),
        "reference, text in": (reference_analyze, texts),
    }
    times = {name: sorted(best_time(f, x, args.repeat) for x in inputs) for name, (f, inputs) in ways.items()}
    reference = statistics.median(times["reference, text in"])
    rows = []
    for name, found in times.items():
        median = statistics.median(found)
        rows.append(
            {
                "way": name,
                "median ms": median * 1e3,
                "p90 ms": found[int(0.9 * (len(found) - 1))] * 1e3,
                "worst ms": found[-1] * 1e3,
                "reference / this (medians)": round(reference / median, 1),
            }
        )
    print(f"{len(boards)} positions of seeded 16x30/99 games, best of {args.repeat} runs each")
    print(text_table(rows))
    print()
    print(what_if_table(boards, args.repeat))


def every_number(board, cell) -> dict:
    """``analyze`` of the board with ``cell`` showing each number it may show."""
    found = {}
    for number in range(len(board.size.neighbours(cell)) + 1):
        with contextlib.suppress(ImpossiblePosition):
            found[number] = analyze(board.with_value(cell, number), 99)
    return found


def what_if_table(boards, repeat: int) -> str:
    """Every number of three unopened cells per position: whole analyses against the Analyzer's what-if."""
    rng, whole, kept, read, brief = np.random.default_rng(0), [], [], [], []
    for board in boards:
        analyzer = Analyzer(99)
        unopened = board.unopened_cells()
        for i in rng.choice(len(unopened), min(3, len(unopened)), replace=False):
            cell = unopened[i]
            assert analyzer.what_if(board, cell) == every_number(board, cell)
            assert scored(analyzer.outlook(board, cell)) == scored(analyzer.what_if(board, cell))
            whole.append(best_of(lambda: every_number(board, cell), repeat))  # noqa: B023 (called at once)
            kept.append(best_of(lambda: analyzer.what_if(board, cell), repeat))  # noqa: B023
            read.append(best_of(lambda: scored(analyzer.what_if(board, cell)), repeat))  # noqa: B023
            brief.append(best_of(lambda: scored(analyzer.outlook(board, cell)), repeat))  # noqa: B023
    ratio = statistics.median(whole) / statistics.median(kept)
    rows = [
        {"way": name, "median ms": statistics.median(found) * 1e3, "worst ms": max(found) * 1e3}
        for name, found in (
            ("analyze each number", whole),
            ("Analyzer.what_if", kept),
            ("what_if, as a score reads it", read),
            ("Analyzer.outlook, as a score reads it", brief),
        )
    ]
    return (
        f"what if an unopened cell opens: every number it may show, {len(whole)} cells "
        f"(whole / what_if, medians: {ratio:.1f}; what_if / outlook as a score reads them: "
        f"{statistics.median(read) / statistics.median(brief):.1f})\n" + text_table(rows)
    )


def scored(afters: dict) -> list:
    """What a guess's two-step score reads of every number's analysis or outlook."""
    return [(n, after.count, after.decides, after.lowest_risks(2)) for n, after in sorted(afters.items())]


def best_of(function, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


if __name__ == "__main__":
    main()
