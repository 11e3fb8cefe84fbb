"""Benchmark problems: article 001's two generators and positions from real games.

The generators draw from a numpy ``Generator`` in the same order as the
article, so ``default_rng(42)`` gives the article's problem lists exactly.
``midgame_positions`` plays seeded random games with simple logic to get the
positions counters really meet (16x30 with 99 mines, hundreds of unknowns).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from minelib.board import MINE, UNOPENED, Board, BoardSize, neighbour_sums

Problem = tuple[np.ndarray, np.ndarray]


def _check_ranges(n_problems: int, M_range: tuple[int, int], N_range: tuple[int, int]) -> None:
    if n_problems < 1:
        raise ValueError(f"n_problems must be at least 1, got {n_problems}")
    for name, (low, high) in (("M_range", M_range), ("N_range", N_range)):
        if not 0 < low < high:
            raise ValueError(f"{name} must be (low, high) with 0 < low < high, got {(low, high)}")


def _uniform_problem(M: int, N: int, rng: np.random.Generator) -> Problem:
    X = rng.integers(0, 2, (M, N), dtype=np.int32)
    y = rng.integers(0, N + 1, M, dtype=np.int32)
    return X, y


def uniform_problems(
    n_problems: int, M_range: tuple[int, int], N_range: tuple[int, int], rng: np.random.Generator
) -> Iterator[Problem]:
    """Problems with every entry of X a fair coin and y uniform in 0..N."""
    _check_ranges(n_problems, M_range, N_range)
    for _ in range(n_problems):
        M, N = int(rng.integers(*M_range)), int(rng.integers(*N_range))
        yield _uniform_problem(M, N, rng)


def minesweeper_like_problems(
    n_problems: int, M_range: tuple[int, int], N_range: tuple[int, int], rng: np.random.Generator
) -> Iterator[Problem]:
    """Problems shaped like boards: rows see 1-8 variables, the last row sees all.

    Small problems (N <= 8 or M == 1) fall back to the uniform generator, as in
    the article.
    """
    _check_ranges(n_problems, M_range, N_range)
    for _ in range(n_problems):
        M, N = int(rng.integers(*M_range)), int(rng.integers(*N_range))
        if N <= 8 or M <= 1:
            yield _uniform_problem(M, N, rng)
            continue
        X = np.zeros((M, N), dtype=np.int32)
        y = np.zeros(M, dtype=np.int32)
        for m in range(M - 1):
            seen = rng.integers(1, 9)
            X[m, rng.choice(np.arange(N), seen)] = 1  # drawn with replacement, as the article does
            y[m] = rng.integers(0, seen + 1)
        X[M - 1, :] = 1
        y[M - 1] = rng.integers(np.max(y), N + 1)
        yield X, y


def problem_label(X: np.ndarray) -> str:
    """The article's name for a problem: ``MxN``."""
    return f"{X.shape[0]}x{X.shape[1]}"


# --- Positions from seeded random games --------------------------------------


def random_layout(size: BoardSize | str, mines: int, first: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A boolean mine layout with the first click and its neighbours mine-free."""
    size = BoardSize.of(size)
    banned = {first, *size.neighbours(first)}
    allowed = [c for c in size.cells() if c not in banned]
    if mines > len(allowed):
        raise ValueError(f"{mines} mines do not fit on {size} with a mine-free opening")
    layout = np.zeros((size.height, size.width), dtype=bool)
    for k in rng.choice(len(allowed), mines, replace=False):
        layout[allowed[k]] = True
    return layout


def reveal(values: np.ndarray, layout: np.ndarray, cell: tuple[int, int]) -> None:
    """Open a safe cell in place; a zero opens its whole region."""
    size = BoardSize(*values.shape)
    numbers = neighbour_sums(layout)
    stack = [cell]
    while stack:
        c = stack.pop()
        if values[c] != UNOPENED:
            continue
        values[c] = numbers[c]
        if numbers[c] == 0:
            stack.extend(n for n in size.neighbours(c) if values[n] == UNOPENED)


def _simple_logic_step(values: np.ndarray, layout: np.ndarray) -> bool:
    """Apply the one-number rules once everywhere; True if anything changed."""
    size = BoardSize(*values.shape)
    changed = False
    for c in zip(*np.nonzero(values > 0)):
        around = size.neighbours(c)
        hidden = [n for n in around if values[n] == UNOPENED]
        flags = sum(values[n] == MINE for n in around)
        if not hidden:
            continue
        if flags == values[c]:
            for n in hidden:
                reveal(values, layout, n)
            changed = True
        elif flags + len(hidden) == values[c]:
            for n in hidden:
                values[n] = MINE
            changed = True
    return changed


def midgame_positions(
    size: BoardSize | str,
    mines: int,
    rng: np.random.Generator,
    stages: tuple[float, ...] = (0.3, 0.5, 0.7),
    guesses: str = "anywhere",
) -> list[Board]:
    """Positions of one seeded game, taken when the given fractions of safe cells are open.

    The game opens a random first cell (mine-free with its neighbours), applies
    the one-number rules until stuck, then opens a random safe cell as a lucky
    guess (``guesses="anywhere"``) or a random safe cell next to a number
    (``"frontier"``, closer to how people play), and so on. A snapshot is taken
    each time the player is stuck past a stage, so in every position the
    one-number rules make no progress.
    """
    size = BoardSize.of(size)
    if guesses not in ("anywhere", "frontier"):
        raise ValueError(f"guesses must be 'anywhere' or 'frontier', got {guesses!r}")
    first = (int(rng.integers(size.height)), int(rng.integers(size.width)))
    layout = random_layout(size, mines, first, rng)
    values = np.full(layout.shape, UNOPENED, dtype=np.int8)
    reveal(values, layout, first)
    safe_total = size.n_cells - mines
    positions, pending = [], sorted(stages)
    while pending:
        while _simple_logic_step(values, layout):
            pass
        opened = int((values >= 0).sum())
        if opened >= safe_total:
            break
        if opened >= pending[0] * safe_total:
            positions.append(Board(values.copy()))
            pending = [s for s in pending if opened < s * safe_total]
            if not pending:
                break
        hidden_safe = (values == UNOPENED) & ~layout
        if guesses == "frontier" and (near := hidden_safe & (neighbour_sums(values >= 0) > 0)).any():
            hidden_safe = near
        choices = np.argwhere(hidden_safe)
        reveal(values, layout, tuple(choices[rng.integers(len(choices))]))
    return positions


__all__ = [
    "Problem",
    "midgame_positions",
    "minesweeper_like_problems",
    "problem_label",
    "random_layout",
    "reveal",
    "uniform_problems",
]
