"""The article's benchmark generators and the seeded mid-game positions."""

import numpy as np
import pytest

from minelib.board import BoardSize, to_constraints
from minelib.counters import FrontierCounter, LastSpeedupCounter
from minelib.problems import (
    midgame_positions,
    minesweeper_like_problems,
    problem_label,
    random_layout,
    uniform_problems,
)

# Article 001's tables: (label, number of solutions) for default_rng(42).
SMALL_TABLE = [
    ("1x17", 10560),
    ("3x10", 0),
    ("3x19", 9009),
    ("1x20", 0),
    ("2x6", 0),
    ("5x15", 18),
    ("4x12", 0),
    ("3x13", 0),
    ("2x9", 1),
    ("5x9", 0),
]
LARGE_TABLE = [
    ("2x43", 15471286560),
    ("10x42", 0),
    ("5x30", 0),
    ("5x47", 1113024),
    ("7x34", 0),
    ("8x34", 0),
    ("6x46", 0),
    ("3x29", 74256),
    ("5x49", 630591),
    ("4x37", 65780),
]


@pytest.mark.parametrize("ranges, table", [(((1, 6), (5, 21)), SMALL_TABLE), (((2, 11), (20, 51)), LARGE_TABLE)])
def test_minesweeper_like_generator_reproduces_the_article(ranges, table):
    problems = list(minesweeper_like_problems(10, *ranges, np.random.default_rng(42)))
    got = [(problem_label(X), LastSpeedupCounter().count(X, y)) for X, y in problems]
    assert got == table


def test_the_article_2x43_problem_is_the_first_generated():
    X, y = next(minesweeper_like_problems(10, (2, 11), (20, 51), np.random.default_rng(42)))
    assert np.flatnonzero(X[0]).tolist() == [3, 8, 18, 29, 36]
    assert X[1].all() and y.tolist() == [0, 23]


def test_uniform_generator_shapes_and_ranges():
    for X, y in uniform_problems(20, (1, 6), (5, 21), np.random.default_rng(0)):
        assert 1 <= X.shape[0] < 6 and 5 <= X.shape[1] < 21
        assert set(np.unique(X)) <= {0, 1} and ((y >= 0) & (y <= X.shape[1])).all()


@pytest.mark.parametrize(
    "args, message",
    [((0, (1, 2), (1, 2)), "n_problems"), ((1, (2, 2), (1, 2)), "M_range"), ((1, (1, 2), (0, 2)), "N_range")],
)
def test_generators_reject_bad_ranges(args, message):
    for generator in (uniform_problems, minesweeper_like_problems):
        with pytest.raises(ValueError, match=message):
            next(generator(*args, np.random.default_rng(0)))


def test_random_layout_keeps_the_opening_clear():
    size = BoardSize(9, 9)
    layout = random_layout(size, 10, (4, 4), np.random.default_rng(3))
    assert layout.sum() == 10
    assert not any(layout[c] for c in [(4, 4), *size.neighbours((4, 4))])
    with pytest.raises(ValueError, match="do not fit"):
        random_layout(BoardSize(3, 3), 1, (1, 1), np.random.default_rng(0))


def test_midgame_positions_are_seeded_and_consistent():
    size = BoardSize(16, 30)
    first = midgame_positions(size, 99, np.random.default_rng(5))
    again = midgame_positions(size, 99, np.random.default_rng(5))
    assert first == again and len(first) >= 1
    for board in first:
        assert board.size == size and board.frontier_mask().any()
        assert FrontierCounter().count(*to_constraints(board, 99)[:2]) > 0
