"""Solution counters of article 001: how many 0/1 vectors v satisfy X v = y.

X is an M x N 0/1 matrix ("which variables each constraint sees"), y a length-M
vector ("how many of them are true"). Every counter has ``count(X, y) -> int``
and returns an exact Python int.

The article's five steps, each class adding one idea to the one before it:

=====================  ================================================
``BaselineCounter``    branch on the first variable, recurse
``CutCounter``         stop when a row asks for more than it can hold
``SortCounter``        sort columns so rows finish early in the tree
``ShrinkCounter``      drop rows with no variables left
``LastSpeedupCounter`` one row left: a binomial times a power of two
=====================  ================================================

Beyond the article, ``FrontierCounter`` (see ``minelib.frontier``) splits the
system into independent components and counts real 16x30 positions exactly.
"""

from __future__ import annotations

from math import comb

import numpy as np

from minelib import frontier


def check_problem(X, y) -> tuple[np.ndarray, np.ndarray]:
    """X and y as int64 arrays, or ValueError naming what is wrong with them."""
    X = np.asarray(X)
    y = np.asarray(y)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D matrix, got {X.ndim} dimension(s)")
    if y.ndim != 1 or len(y) != len(X):
        raise ValueError(f"y must be a vector of length {len(X)} (one value per row of X), got shape {y.shape}")
    if X.size and not np.isin(X, (0, 1)).all():
        raise ValueError("X must contain only 0 and 1")
    if y.size and not np.issubdtype(y.dtype, np.integer) and not np.array_equal(y, np.round(y)):
        raise ValueError("y must contain integers")
    return X.astype(np.int64), y.astype(np.int64)


class BruteForceCounter:
    """The oracle: try all 2**N vectors. Only for N up to about 20."""

    def count(self, X, y) -> int:
        """The number of 0/1 vectors v with X v = y, by enumeration."""
        X, y = check_problem(X, y)
        n = X.shape[1]
        if n > 24:
            raise ValueError(f"brute force over {n} variables would take too long (at most 24)")
        vectors = (np.arange(2**n)[:, None] >> np.arange(n)) & 1
        return int(np.all(vectors @ X.T == y, axis=1).sum())


class BaselineCounter:
    """Step 1: branch on the first variable (false, then true) and recurse."""

    __slots__ = ()

    def count(self, X, y) -> int:
        """The number of 0/1 vectors v with X v = y."""
        X, y = check_problem(X, y)
        return int(self._count(self._prepare(X), y))

    def _prepare(self, X: np.ndarray) -> np.ndarray:
        return X

    def _count(self, X: np.ndarray, y: np.ndarray) -> int:
        settled = self._settle(X, y)
        if isinstance(settled, int):
            return settled
        X, y = settled
        rest = X[:, 1:]
        return self._count(rest, y) + self._count(rest, y - X[:, 0])

    def _settle(self, X: np.ndarray, y: np.ndarray):
        """The count if it is already decided, else the (X, y) to branch on."""
        if X.shape[1] == 0:
            return int(not y.any())
        if (y < 0).any():
            return 0
        if (y[~X.any(axis=1)] != 0).any():
            return 0
        return X, y


class CutCounter(BaselineCounter):
    """Step 2: no solution when a row asks for more ones than it has variables."""

    __slots__ = ()

    def _settle(self, X, y):
        settled = super()._settle(X, y)
        if not isinstance(settled, int) and (X.sum(axis=1) < y).any():
            return 0
        return settled


class SortCounter(CutCounter):
    """Step 3: sort the columns (by row 0, then row 1, ...) so rows close early."""

    __slots__ = ()

    def _prepare(self, X):
        if len(X) < 2:
            return X
        # The last row is the total-mine row in board problems: it does not help order.
        keys = -X[:-1][::-1]
        return X[:, np.lexsort(keys)]


class ShrinkCounter(SortCounter):
    """Step 4: drop rows whose variables are all gone; no rows left means 2**N."""

    __slots__ = ()

    def _settle(self, X, y):
        settled = super()._settle(X, y)
        if isinstance(settled, int):
            return settled
        X, y = settled
        alive = X.any(axis=1)
        if not alive.any():
            return 2 ** X.shape[1]
        return X[alive], y[alive]


class LastSpeedupCounter(ShrinkCounter):
    """Step 5: with one row left, choose its ones and leave the rest free."""

    __slots__ = ()

    def _settle(self, X, y):
        settled = super()._settle(X, y)
        if isinstance(settled, int) or len(settled[0]) != 1:
            return settled
        X, y = settled
        ones = int(X.sum())
        return comb(ones, int(y[0])) * 2 ** (X.shape[1] - ones)


class FrontierCounter:
    """Beyond the article: count each independent component by mines used, then combine.

    Columns with identical rows are grouped (weighted by binomials), the groups
    are split into components connected through rows, each component is counted
    by a dynamic programme tallied by the number of ones it uses, and the
    components meet in the all-ones rows (a board's total-mine row) with binomial
    weights for the unconstrained columns. Components are memoized.
    """

    __slots__ = ()

    def count(self, X, y) -> int:
        """The number of 0/1 vectors v with X v = y."""
        X, y = check_problem(X, y)
        return frontier.count(X, y)

    @staticmethod
    def clear_cache() -> None:
        """Forget the memoized components (for timing cold runs)."""
        frontier.component_polynomial.cache_clear()


ARTICLE_COUNTERS = (BaselineCounter, CutCounter, SortCounter, ShrinkCounter, LastSpeedupCounter)
ALL_COUNTERS = ARTICLE_COUNTERS + (FrontierCounter,)


__all__ = [
    "ALL_COUNTERS",
    "ARTICLE_COUNTERS",
    "BaselineCounter",
    "BruteForceCounter",
    "CutCounter",
    "FrontierCounter",
    "LastSpeedupCounter",
    "ShrinkCounter",
    "SortCounter",
    "check_problem",
]
