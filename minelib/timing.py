"""Timing and benchmarks in the style of article 001.

``Timer`` measures a block; ``run_benchmark`` times several counters on the same
problems (skipping a counter on a problem once it passes a time cap) and
``format_article_table`` / ``summary_table`` print what it measured. Timings are
for reading, never for asserting: machines here are shared and noisy.
"""

from __future__ import annotations

import signal
import statistics
import threading
import time
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from minelib.problems import problem_label


class Timer:
    """Context manager measuring wall-clock seconds; ``reporter`` (if given) receives them."""

    __slots__ = ("reporter", "seconds", "start")

    def __init__(self, reporter: Callable[[float], object] | None = None):
        self.reporter = reporter
        self.seconds: float | None = None

    def __enter__(self) -> Timer:
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        self.seconds = time.perf_counter() - self.start
        if self.reporter is not None:
            self.reporter(self.seconds)


class TimeCapExceeded(Exception):
    """Raised inside a block that ran longer than its ``time_cap``."""


@contextmanager
def time_cap(seconds: float | None):
    """Interrupt the block with TimeCapExceeded after ``seconds`` (main thread, POSIX)."""
    if seconds is not None and not seconds > 0:  # (the timer would refuse it with an itimer_error)
        raise ValueError(f"a time cap must be a positive number of seconds, got {seconds}")
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if seconds is None or not usable:
        yield
        return

    def interrupt(signum, frame):
        raise TimeCapExceeded(f"over the time cap of {seconds} s")

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class Measurement:
    """One counter on one problem: the count and seconds, or None for both if skipped."""

    problem: int
    label: str
    counter: str
    count: int | None
    seconds: float | None


def run_benchmark(
    counters: Iterable,
    problems: Iterable[tuple[np.ndarray, np.ndarray]],
    cap: float | None = None,
    labels: Iterable[str] | None = None,
) -> list[Measurement]:
    """Time every counter on every problem; a run past ``cap`` seconds is recorded as skipped."""
    counters = list(counters)
    problems = list(problems)
    labels = list(labels) if labels is not None else [problem_label(X) for X, _ in problems]
    rows = []
    for i, ((X, y), label) in enumerate(zip(problems, labels)):
        for counter in counters:
            name = type(counter).__name__
            if hasattr(counter, "clear_cache"):  # time cold runs, not memo hits
                counter.clear_cache()
            try:
                with time_cap(cap), Timer() as timer:
                    n = counter.count(X, y)
            except TimeCapExceeded:
                rows.append(Measurement(i, label, name, None, None))
                continue
            rows.append(Measurement(i, label, name, n, timer.seconds))
    return rows


def check_agreement(rows: list[Measurement]) -> None:
    """Raise AssertionError if two counters gave different counts for one problem."""
    for problem in sorted({r.problem for r in rows}):
        counts = {r.counter: r.count for r in rows if r.problem == problem and r.count is not None}
        if len(set(counts.values())) > 1:
            raise AssertionError(f"problem {problem}: counters disagree: {counts}")


def counts_by_problem(rows: list[Measurement]) -> dict[str, int | None]:
    """The agreed count of every problem (labels made unique), checking agreement first."""
    check_agreement(rows)
    counts: dict[str, int | None] = {}
    for problem in sorted({r.problem for r in rows}):
        done = [r for r in rows if r.problem == problem and r.count is not None]
        label = next(r.label for r in rows if r.problem == problem)
        key = label if label not in counts else f"{label} #{problem}"
        counts[key] = done[0].count if done else None
    return counts


def format_article_table(rows: list[Measurement], cap: float | None = None) -> str:
    """Lines in the article's format: ``2x43 (#=15471286560) LastSpeedupCounter: 0.00042 [sec]``."""
    lines = []
    for r in rows:
        if r.seconds is None:
            lines.append(f"{r.label} {r.counter}: skipped (over the {cap} s cap)")
        else:
            lines.append(f"{r.label} (#={r.count}) {r.counter}: {r.seconds:.8f} [sec]")
    return "\n".join(lines)


def summary(rows: list[Measurement], reference: str) -> list[dict]:
    """Per counter: problems finished and skipped, median seconds, median ratio to ``reference``."""
    reference_time = {r.problem: r.seconds for r in rows if r.counter == reference}
    table = []
    for name in dict.fromkeys(r.counter for r in rows):
        mine = [r for r in rows if r.counter == name]
        seconds = {r.problem: r.seconds for r in mine if r.seconds is not None}
        ratios = [s / base for problem, s in seconds.items() if (base := reference_time.get(problem))]
        table.append(
            {
                "counter": name,
                "finished": len(seconds),
                "skipped": len(mine) - len(seconds),
                "median_s": statistics.median(seconds.values()) if seconds else None,
                "median_ratio": statistics.median(ratios) if ratios else None,
            }
        )
    return table


def format_summary(rows: list[Measurement], reference: str) -> str:
    """``summary`` as an aligned text table."""
    lines = [f"{'counter':<20} {'finished':>8} {'skipped':>7} {'median s':>12} {'ratio to ' + reference:>30}"]
    for entry in summary(rows, reference):
        median = "-" if entry["median_s"] is None else f"{entry['median_s']:.6f}"
        ratio = "-" if entry["median_ratio"] is None else f"{entry['median_ratio']:.3g}"
        lines.append(f"{entry['counter']:<20} {entry['finished']:>8} {entry['skipped']:>7} {median:>12} {ratio:>30}")
    return "\n".join(lines)


@dataclass(frozen=True)
class SpeedRatio:
    """How many times faster one player is than a reference on the same games: the ratio of total seconds,
    of median seconds, and a 95% interval of the medians' ratio (``speed_ratio``)."""

    totals: float
    medians: float
    low: float
    high: float


def speed_ratio(reference: list[float], ours: list[float], resamples: int = 2000, seed: int = 0) -> SpeedRatio:
    """The reference's seconds over ours, game i of each list the same game: totals, medians, and the
    medians' ratio's 95% interval by the paired percentile bootstrap (games drawn with replacement,
    the same draws for both; ``seed`` fixes them). For reading: timings on a shared machine."""
    if len(reference) != len(ours) or not ours:
        raise ValueError(f"the two players' games must be the same, and some: {len(reference)} and {len(ours)} times")
    a, b = np.asarray(reference, float), np.asarray(ours, float)
    if (a <= 0).any() or (b <= 0).any():
        raise ValueError("every game's seconds must be positive")
    draws = np.random.default_rng(seed).integers(0, len(a), (resamples, len(a)))
    ratios = np.median(a[draws], axis=1) / np.median(b[draws], axis=1)
    low, high = np.percentile(ratios, [2.5, 97.5])
    return SpeedRatio(a.sum() / b.sum(), float(np.median(a) / np.median(b)), float(low), float(high))


__all__ = [
    "Measurement",
    "SpeedRatio",
    "TimeCapExceeded",
    "Timer",
    "check_agreement",
    "counts_by_problem",
    "format_article_table",
    "format_summary",
    "run_benchmark",
    "speed_ratio",
    "summary",
    "time_cap",
]
