"""Article 000's EfficientEvaluator against the optimal solver, then the solver on larger boards.

    python benchmarks/optimal.py [--article-cap S] [--cap S] [--boards 4x4/4,4x5/5,...] [--engines ...]
                                 [--ideas-boards 4x5/7,5x5/5 --ideas-rule none]

Part 1 times EfficientEvaluator and the solver (compiled engine, and the
pure-Python one) on the article's boards with 2 mines (first click may hit a
mine) in the same run and prints the ratios. Part 2 solves larger boards with
each engine, each run in a fresh process so that its peak memory is its own,
and prints time, states and peak memory. Part 3 measures the search's ideas one
at a time on the compiled engine, each variant in a fresh process in the same
run: the memo as it was (2M states, room for 32 layouts a key, cleared when
full), the roomy memo, dead cells left out of the states, the bound of the
agreement cliques on states of at most 64 or 256 layouts, each move of a state
of at most 4,096 or 65,536 layouts bounded by the state's cliques, the states of more
than 1,024 layouts taking their parent's cliques instead of a cover of their own, a
move's outcomes each bounded by the cliques they would take as soon as it is split (the
default), and a memo too small for the search (100,000 states) cleared when full or
keeping its largest exact states. The compiled engine is
warmed up (numba's cache loaded) before timing. Runs past a cap are reported as
such. For reading, not asserting.
"""

import argparse
import multiprocessing
import resource
import time

from common import boards as board_list

from minelib.evaluators import EfficientEvaluator
from minelib.optimal import ENGINES, OptimalSolver, solve
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
    print(
        f"{'board':<6} {'probability':>11} {'Efficient s':>12} {'compiled s':>10} {'python s':>10} "
        f"{'Eff/compiled':>13} {'Eff/python':>11}"
    )
    solve("2x2", 1, engine="compiled")  # numba's cache loaded (or the kernel compiled) before timing
    for board in ARTICLE_BOARDS:
        optimal = solve(board, 2)
        compiled_s = best_time(lambda board=board: solve(board, 2, engine="compiled"))
        python_s = best_time(lambda board=board: solve(board, 2, engine="python"))
        try:
            with time_cap(cap), Timer() as timer:
                evaluation = EfficientEvaluator(board, 2).evaluate()
            assert evaluation.probability == optimal.probability, board
            efficient = f"{timer.seconds:.3f}"
            ratios = f"{timer.seconds / compiled_s:>13,.0f} {timer.seconds / python_s:>11,.0f}"
        except TimeCapExceeded:
            efficient = f">{cap:g}"
            ratios = f"{'>' + format(cap / compiled_s, ',.0f'):>13} {'>' + format(cap / python_s, ',.0f'):>11}"
        print(f"{board:<6} {optimal.probability!s:>11} {efficient:>12} {compiled_s:>10.5f} {python_s:>10.5f} {ratios}")


def _solve_in_child(size: str, mines: int, rule: str, engine: str, queue) -> None:
    solve("2x2", 1, engine=engine)  # warm up: load the compiled kernel
    start = time.perf_counter()
    result = OptimalSolver(size, mines, engine).first_move(rule)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    queue.put(
        (
            str(result.probability),
            float(result.probability),
            result.states,
            time.perf_counter() - start,
            peak,
            len(result.best_moves),
        )
    )


def in_child(target, args: tuple, cap: float):
    """Run ``target(*args, queue)`` in a fresh process (its peak memory its own): what it put in the queue,
    or None past ``cap`` seconds."""
    queue = multiprocessing.Queue()
    child = multiprocessing.Process(target=target, args=(*args, queue))
    child.start()
    child.join(cap)
    if child.is_alive():
        child.terminate()
        return None
    return queue.get()


def large_part(boards: list[tuple[str, int]], rule: str, cap: float, engines: list[str]) -> None:
    print(
        f"\n{'board':<8} {'rule':<5} {'engine':<9} {'probability':>22} {'value':>8} {'states':>9} "
        f"{'seconds':>9} {'peak MB':>8}"
    )
    for size, mines in boards:
        entry = f"{size}/{mines}"
        for engine in engines:
            found = in_child(_solve_in_child, (size, mines, rule, engine), cap)
            if found is None:
                print(f"{entry:<8} {rule:<5} {engine:<9} {'over the cap':>22} {'':>8} {'':>9} {f'>{cap:g}':>9}")
                continue
            p, value, states, seconds, peak, _ = found
            print(
                f"{entry:<8} {rule:<5} {engine:<9} {p:>22} {value:>8.4f} {states:>9} {seconds:>9.1f} {peak:>8.0f}",
                flush=True,
            )


# name -> (OptimalSolver options, the memo's layouts a key, keep the largest states when full, the largest
# states bounded by agreement cliques, the largest states whose moves are bounded by their cliques, the fewest
# layouts of a state that takes its parent's cliques less one, -1: none; whether a move's outcomes are bounded by
# the cliques they would take as soon as it is split): one idea at a time
IDEAS = {
    "memo as before": ({"max_states": 2_000_000}, 32, False, 0, 0, -1, 0),
    "roomy memo": ({}, None, True, 0, 0, -1, 0),
    "+ dead cells out": ({"dead": True}, None, True, 0, 0, -1, 0),
    "+ cliques <= 64": ({}, None, True, 64, 0, -1, 0),
    "+ cliques <= 256": ({}, None, True, 256, 0, -1, 0),
    "+ moves by cliques": ({}, None, True, 256, 4096, -1, 0),
    "+ moves <= 65,536": ({}, None, True, 256, 65536, -1, 0),
    "+ parents' cliques": ({}, None, True, 256, 65536, 1024, 0),
    "+ siblings bounded": ({}, None, True, 256, 65536, 1024, 1),
    "small memo cleared": ({"max_states": 100_000}, None, False, 256, 65536, 1024, 1),
    "small memo, kept": ({"max_states": 100_000}, None, True, 256, 65536, 1024, 1),
}


def _idea_in_child(size: str, mines: int, rule: str, idea: str, queue) -> None:
    import minelib.kernel

    options, pool_layouts, keep, clique_rows, move_rows, inherit_above, siblings = IDEAS[idea]
    if pool_layouts is not None:
        minelib.kernel.POOL_LAYOUTS = pool_layouts
    solve("2x2", 1, engine="compiled")  # warm up: load the compiled kernel
    start = time.perf_counter()
    solver = OptimalSolver(size, mines, "compiled", **options)
    solver.engine._meta[minelib.kernel.KEEP] = keep
    solver.engine._meta[minelib.kernel.CLIQUE_ROWS] = clique_rows
    solver.engine._meta[minelib.kernel.MOVE_ROWS] = move_rows
    solver.engine._meta[minelib.kernel.INHERIT_ABOVE] = inherit_above
    solver.engine._meta[minelib.kernel.SIBLINGS] = siblings
    result = solver.first_move(rule)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    queue.put((str(result.probability), result.states, solver.engine.clears, time.perf_counter() - start, peak))


def ideas_part(boards: list[tuple[str, int]], rule: str, cap: float) -> None:
    print(
        f"\n{'board':<8} {'rule':<5} {'idea':<18} {'probability':>14} {'states':>10} {'clears':>6} {'seconds':>8} "
        f"{'x fewer':>7} {'x faster':>8} {'peak MB':>8}"
    )
    for size, mines in boards:
        entry = f"{size}/{mines}"
        base = None
        for idea in IDEAS:
            found = in_child(_idea_in_child, (size, mines, rule, idea), cap)
            if found is None:
                print(f"{entry:<8} {rule:<5} {idea:<18} {'over the cap':>14} {'':>10} {'':>6} {f'>{cap:g}':>8}")
                continue
            p, states, clears, seconds, peak = found
            base = base or (states, seconds)
            print(
                f"{entry:<8} {rule:<5} {idea:<18} {p:>14} {states:>10} {clears:>6} {seconds:>8.1f} "
                f"{base[0] / states:>7.2f} {base[1] / seconds:>8.2f} {peak:>8.0f}",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--article-cap", type=float, default=1200, help="seconds for EfficientEvaluator per board")
    parser.add_argument("--cap", type=float, default=600, help="seconds for OptimalSolver per large board")
    parser.add_argument("--boards", default=LARGE_BOARDS, help="large boards as HxW/mines, comma separated")
    parser.add_argument("--rule", default="none", choices=["none", "safe", "zero"])
    parser.add_argument("--engines", default="compiled,python", help="engines for part 2, comma separated")
    parser.add_argument("--skip-article", action="store_true")
    parser.add_argument("--skip-large", action="store_true")
    parser.add_argument("--ideas-boards", default="4x5/7,5x5/5", help="boards for part 3 ('' to skip it)")
    parser.add_argument("--ideas-rule", default="none", choices=["none", "safe", "zero"])
    args = parser.parse_args()
    large, ideas = board_list(parser, "--boards", args.boards), board_list(parser, "--ideas-boards", args.ideas_boards)
    engines = args.engines.split(",")
    if not set(engines) <= set(ENGINES):
        parser.error(f"--engines: each of {', '.join(ENGINES)}, not {args.engines!r}")
    if not (args.cap > 0 and args.article_cap > 0):
        parser.error("--cap and --article-cap must be positive")
    if not args.skip_article:
        article_part(args.article_cap)
    if not args.skip_large:
        large_part(large, args.rule, args.cap, engines)
    if ideas:
        ideas_part(ideas, args.ideas_rule, args.cap)


if __name__ == "__main__":
    main()
