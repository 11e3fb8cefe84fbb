"""Shared hypothesis settings and strategies, and an empty book for each test."""

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from minelib.board import MINE, UNOPENED, Board, neighbour_sums

settings.register_profile("default", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def _an_empty_book():
    """Each test starts with the two-step player's book empty (``minelib.twostep.BOOK``): a guess kept in one
    test never answers for another test's monkeypatched code."""
    from minelib.twostep import BOOK

    BOOK.clear()


@st.composite
def problems(draw, max_rows=5, max_columns=10):
    """A small (X, y), sometimes with an all-ones (total) row, y mostly reachable."""
    n = draw(st.integers(0, max_columns))
    m = draw(st.integers(0, max_rows))
    X = np.array(
        draw(st.lists(st.lists(st.integers(0, 1), min_size=n, max_size=n), min_size=m, max_size=m)), dtype=np.int64
    ).reshape(m, n)
    if draw(st.booleans()):
        X = np.vstack([X, np.ones((1, n), dtype=np.int64)])
    y = np.array([draw(st.integers(-1, int(row.sum()) + 1)) for row in X], dtype=np.int64)
    return X, y


@st.composite
def positions(draw, max_height=4, max_width=5):
    """A small position from a real layout: (board, total mines).

    Some safe cells are opened (showing their true numbers), some mines flagged.
    """
    return draw(position_pairs(max_height, max_width, count=1))[0]


@st.composite
def position_pairs(draw, max_height=4, max_width=5, count=2):
    """``count`` small positions of one real layout, each with its own opened and flagged cells:
    [(board, total mines), ...]."""
    height = draw(st.integers(1, max_height))
    width = draw(st.integers(1, max_width))
    cells = height * width
    layout = np.array(draw(st.lists(st.booleans(), min_size=cells, max_size=cells))).reshape(height, width)
    numbers = neighbour_sums(layout)
    found = []
    for _ in range(count):
        opened = np.array(draw(st.lists(st.booleans(), min_size=cells, max_size=cells))).reshape(height, width)
        flagged = np.array(draw(st.lists(st.booleans(), min_size=cells, max_size=cells))).reshape(height, width)
        values = np.full((height, width), UNOPENED)
        values[opened & ~layout] = numbers[opened & ~layout]
        values[flagged & layout] = MINE
        found.append((Board(values), int(layout.sum())))
    return found
