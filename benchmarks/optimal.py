"""Article 000's EfficientEvaluator against OptimalSolver, then OptimalSolver on larger boards.

    python benchmarks/optimal.py [--article-cap S] [--cap S] [--boards 4x4/4,4x5/5,...]

Part 1 times both on the article's boards with 2 mines (first click may hit a
mine) in the same run and prints the ratio. Part 2 solves larger boards, each
in a fresh process so that its peak memory is its own, and prints time, states
and peak memory. Runs past a cap are reported as such. For reading, not asserting.
"""
import argparse
import multiprocessing
import resource
import time

from minelib.evaluators import EfficientEvaluator
from minelib.optimal import solve
from minelib.timing import TimeCapExceeded, Timer, time_cap

ARTICLE_BOARDS = ["1x3", "1x4", "1x5", "1x6", "1x7", "1x8", "1x9", "2x2", "2x3", "2x4", "3x3", "2x5"]
LARGE_BOARDS = "4x4/4,4x5/5,5x5/5,5x6/5,6x6/4"


def best_time(function, repeat: int = 3) -> float:
    """The best of ``repeat`` timings of a call (for fast calls)."""
    times = []
    for _ in range(repeat):
        with Timer() as timer:
            function()
        times.append(timer.seconds)
    return min(times)


def article_part(cap: float) -> None:
    print(f"{'board':<6} {'probability':>11} {'Efficient s':>12} {'Optimal s':>10} {'ratio':>10}")
    for board in ARTICLE_BOARDS:
        optimal = solve(board, 2)
        optimal_s = best_time(lambda: solve(board, 2))
        try:
            with time_cap(cap), Timer() as timer:
                evaluation = EfficientEvaluator(board, 2).evaluate()
            assert evaluation.probability == optimal.probability, board
            efficient, ratio = f"{timer.seconds:.3f}", f"{timer.seconds / optimal_s:,.0f}"
        except TimeCapExceeded:
            efficient, ratio = f">{cap:g}", f">{cap / optimal_s:,.0f}"
        print(f"{board:<6} {str(optimal.probability):>11} {efficient:>12} {optimal_s:>10.5f} {ratio:>10}")


def _solve_in_child(size: str, mines: int, rule: str, queue) -> None:
    start = time.perf_counter()
    result = solve(size, mines, rule)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    queue.put((str(result.probability), float(result.probability), result.states,
               time.perf_counter() - start, peak, len(result.best_moves)))


def large_part(boards: str, rule: str, cap: float) -> None:
    print(f"\n{'board':<8} {'rule':<5} {'probability':>22} {'value':>8} {'states':>9} {'seconds':>9} {'peak MB':>8}")
    for entry in boards.split(","):
        size, mines = entry.split("/")
        queue = multiprocessing.Queue()
        child = multiprocessing.Process(target=_solve_in_child, args=(size, int(mines), rule, queue))
        child.start()
        child.join(cap)
        if child.is_alive():
            child.terminate()
            print(f"{entry:<8} {rule:<5} {'over the cap':>22} {'':>8} {'':>9} {f'>{cap:g}':>9}")
            continue
        p, value, states, seconds, peak, ties = queue.get()
        print(f"{entry:<8} {rule:<5} {p:>22} {value:>8.4f} {states:>9} {seconds:>9.1f} {peak:>8.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--article-cap", type=float, default=1200, help="seconds for EfficientEvaluator per board")
    parser.add_argument("--cap", type=float, default=600, help="seconds for OptimalSolver per large board")
    parser.add_argument("--boards", default=LARGE_BOARDS, help="large boards as HxW/mines, comma separated")
    parser.add_argument("--rule", default="none", choices=["none", "safe", "zero"])
    parser.add_argument("--skip-article", action="store_true")
    args = parser.parse_args()
    if not args.skip_article:
        article_part(args.article_cap)
    large_part(args.boards, args.rule, args.cap)


if __name__ == "__main__":
    main()
