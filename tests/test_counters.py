"""Every counter against the brute-force oracle, the article's numbers, and real positions."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from minelib import frontier
from minelib.board import BoardSize, to_constraints
from minelib.counters import ALL_COUNTERS, BruteForceCounter, FrontierCounter, LastSpeedupCounter
from minelib.oracles import count_layouts
from minelib.problems import midgame_positions
from tests.conftest import positions, problems

ARTICLE_X = np.array(
    [
        [1, 1, 1, 1, 0, 0, 0, 0],
        [0, 0, 0, 1, 1, 1, 1, 0],
        [1, 1, 1, 1, 1, 1, 1, 1],
    ]
)
ARTICLE_Y = np.array([2, 2, 5])
PROBLEM_2x43 = (
    np.vstack([np.isin(np.arange(43), [3, 8, 18, 29, 36]).astype(int), np.ones(43, dtype=int)]),
    np.array([0, 23]),
)


@pytest.mark.parametrize("counter", ALL_COUNTERS + (BruteForceCounter,), ids=lambda c: c.__name__)
def test_article_example_has_nine_solutions(counter):
    assert counter().count(ARTICLE_X, ARTICLE_Y) == 9


@pytest.mark.parametrize("counter", [LastSpeedupCounter, FrontierCounter], ids=lambda c: c.__name__)
def test_article_2x43_problem(counter):
    n = counter().count(*PROBLEM_2x43)
    assert n == 15_471_286_560 and type(n) is int


@pytest.mark.parametrize("counter", ALL_COUNTERS, ids=lambda c: c.__name__)
@given(problem=problems())
def test_counter_agrees_with_brute_force(counter, problem):
    X, y = problem
    n = counter().count(X, y)
    assert type(n) is int
    assert n == BruteForceCounter().count(X, y)


@given(problem=problems(max_rows=8, max_columns=14))
def test_frontier_agrees_with_last_speedup_on_larger_problems(problem):
    assert FrontierCounter().count(*problem) == LastSpeedupCounter().count(*problem)


@given(positions())
def test_board_counts_agree_with_layout_enumeration(position):
    board, mines = position
    X, y, _ = to_constraints(board, mines)
    expected = count_layouts(board, mines)
    assert expected >= 1  # the position came from a real layout
    assert FrontierCounter().count(X, y) == expected
    assert LastSpeedupCounter().count(X, y) == expected


def test_counts_without_total_row_multiply_by_free_cells():
    X = np.array([[1, 1, 0, 0, 0]])
    assert FrontierCounter().count(X, [1]) == 2 * 2**3


@pytest.mark.parametrize("seed", range(4))
def test_expert_positions_split_consistently_on_every_frontier_cell(seed):
    """count = count(cell safe) + count(cell mine), on real 16x30/99 positions."""
    counter = FrontierCounter()
    for board in midgame_positions(BoardSize(16, 30), 99, np.random.default_rng(seed)):
        X, y, cells = to_constraints(board, 99)
        total = counter.count(X, y)
        assert total > 0
        frontier_columns = [j for j, c in enumerate(cells) if board.frontier_mask()[c]]
        for j in frontier_columns[::7] + [cells.index(c) for c in cells if board.interior_mask()[c]][:2]:
            unit = np.zeros((1, X.shape[1]), dtype=int)
            unit[0, j] = 1
            split = [counter.count(np.vstack([X, unit]), np.append(y, v)) for v in (0, 1)]
            assert sum(split) == total


def test_components_are_independent_and_grouped():
    # two separate pairs of rows, a free column, and the total row
    X = np.array(
        [
            [1, 1, 0, 0, 0, 0],
            [0, 0, 1, 1, 1, 0],
            [0, 0, 0, 1, 1, 0],
            [1, 1, 1, 1, 1, 1],
        ]
    )
    parts = frontier.decompose(X, np.array([1, 2, 1, 3]))
    assert parts.free == (5,) and parts.total == 3 and parts.feasible
    # "2,3,4 hold 2" less "3,4 hold 1" leaves "2 holds 1": the second pair splits in two
    assert sorted(c.columns for c in parts.components) == [((0, 1),), ((2,),), ((3, 4),)]
    assert sorted(c.row_ids for c in parts.components) == [(0,), (1, 2), (2,)]


def test_subset_reduction_keeps_the_solutions():
    X = np.array([[1, 1, 1, 1, 0], [0, 1, 1, 0, 0], [0, 0, 1, 1, 1]])
    y = np.array([2, 1, 1])
    X2, y2, sources = frontier.reduce_subsets(X, y)
    assert X2.tolist() == [[1, 0, 0, 1, 0], [0, 1, 1, 0, 0], [0, 0, 1, 1, 1]] and y2.tolist() == [1, 1, 1]
    assert sources == [{0, 1}, {1}, {2}]
    assert BruteForceCounter().count(X2, y2) == BruteForceCounter().count(X, y)


def test_narrow_order_is_a_permutation():
    rows = ((0, 1), (1, 2), (2, 3), (3, 0))
    assert sorted(frontier.narrow_order((1, 2, 1, 3), rows)) == [0, 1, 2, 3]


@given(st.lists(st.integers(1, 4), min_size=1, max_size=6))
def test_component_polynomial_of_one_row_is_a_binomial(sizes):
    from math import comb

    rows = (tuple(range(len(sizes))),)
    total = sum(sizes)
    for target in range(total + 1):
        assert frontier.component_polynomial(tuple(sizes), rows, (target,)) == ((target, comb(total, target)),)


@pytest.mark.parametrize(
    "X, y, message",
    [
        (np.zeros(3), np.zeros(3), "2-D"),
        (np.zeros((2, 3)), np.zeros(3), "length 2"),
        (np.full((1, 2), 2), np.zeros(1), "only 0 and 1"),
        (np.zeros((1, 2)), np.array([0.5]), "integers"),
    ],
)
def test_malformed_problems_are_rejected(X, y, message):
    for counter in ALL_COUNTERS:
        with pytest.raises(ValueError, match=message):
            counter().count(X, y)


def test_brute_force_refuses_huge_problems():
    with pytest.raises(ValueError, match="too long"):
        BruteForceCounter().count(np.ones((1, 30), dtype=int), [3])
