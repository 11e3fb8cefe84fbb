"""Every counter on article 001's two benchmark ranges and on real 16x30/99 positions.

    python benchmarks/counters.py [--cap SECONDS] [--games N] [--seed S]

Prints, per setting, the article's per-problem lines and a summary table:
median seconds per counter and the median ratio to LastSpeedupCounter,
both measured in this same run. A counter past the cap on a problem is
skipped there (and said so). Timings are for reading, never for asserting.
"""

import argparse
import statistics

import numpy as np

from minelib.board import BoardSize, to_constraints
from minelib.counters import ALL_COUNTERS
from minelib.problems import midgame_positions, minesweeper_like_problems
from minelib.timing import check_agreement, format_article_table, format_summary, run_benchmark


def real_positions(games: int, seed: int):
    """(X, y) and a label for mid-game positions of seeded 16x30/99 games."""
    rng = np.random.default_rng(seed)
    problems, labels = [], []
    for _ in range(games):
        for board in midgame_positions(BoardSize(16, 30), 99, rng):
            X, y, _ = to_constraints(board, 99)
            problems.append((X, y))
            labels.append(f"16x30 ({int(board.frontier_mask().sum())} frontier/{X.shape[1]} unknown)")
    return problems, labels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=2.0, help="seconds per counter per problem")
    parser.add_argument("--games", type=int, default=10, help="16x30 games to take positions from")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--quiet", action="store_true", help="summary tables only")
    args = parser.parse_args()
    if args.games < 1 or not args.cap > 0:
        parser.error("--games and --cap must be positive")

    settings = [
        (
            "article range M in [1, 6), N in [5, 21)",
            list(minesweeper_like_problems(10, (1, 6), (5, 21), np.random.default_rng(42))),
            None,
        ),
        (
            "article range M in [2, 11), N in [20, 51)",
            list(minesweeper_like_problems(10, (2, 11), (20, 51), np.random.default_rng(42))),
            None,
        ),
        (
            f"real 16x30/99 mid-game positions ({args.games} games, seed {args.seed})",
            *real_positions(args.games, args.seed),
        ),
    ]
    counters = [counter() for counter in ALL_COUNTERS]
    for title, problems, labels in settings:
        rows = run_benchmark(counters, problems, cap=args.cap, labels=labels)
        check_agreement(rows)
        print(f"\n## {title}: {len(problems)} problems, cap {args.cap} s")
        if not args.quiet:
            print(format_article_table(rows, args.cap))
        print(format_summary(rows, "LastSpeedupCounter"))
        frontier = [r.seconds for r in rows if r.counter == "FrontierCounter"]
        print(f"FrontierCounter: median {statistics.median(frontier) * 1e3:.3f} ms, worst {max(frontier) * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
