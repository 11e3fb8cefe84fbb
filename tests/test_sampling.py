"""RankedLayouts: the ranks 0 .. count - 1 give every consistent layout exactly once, so a uniform rank is a
uniform layout; checked against brute-force enumeration."""

from collections import Counter

import numpy as np
import pytest
from hypothesis import given

from minelib.analysis import ImpossiblePosition, analyze
from minelib.board import Board, BoardSize, neighbour_sums
from minelib.oracles import layouts
from minelib.problems import midgame_positions
from minelib.sampling import RankedLayouts, sample_layouts
from tests.conftest import positions


def mine_cells(board, mask) -> frozenset:
    return frozenset(board.cells_where(mask))


def every_rank(board, mines) -> list[frozenset]:
    ranked = RankedLayouts(board, mines)
    return [mine_cells(board, ranked.layout(r)) for r in range(ranked.count)]


@pytest.mark.parametrize(
    "text, mines",
    [
        ("1..\n...\n...", 3),  # a component and the free cells
        (".1.\n...\n..F", 3),  # a flag
        ("1.1\n...\n...", 2),
        ("...\n.2.\n...", 2),  # one number sees every unopened cell
        ("01.\n12.\n...", 2),
        (".1.1.\n.....", 2),  # two numbers sharing cells
        ("1...1\n.....\n.....", 3),  # two components
        ("1.2.1\n.....\n.....", 4),  # one component of several groups, cells next to no number
        ("F1..\n12..\n....", 3),
        ("....\n....", 0),  # no mine: one layout
    ],
)
def test_the_ranks_give_every_consistent_layout_once(text, mines):
    board = Board.from_text(text)
    found = every_rank(board, mines)
    assert len(found) == len(set(found)) == analyze(board, mines).count
    assert set(found) == set(layouts(board, mines))


@given(positions(max_height=4, max_width=5))
def test_the_ranks_give_every_consistent_layout_once_on_random_positions(position):
    board, mines = position
    found = every_rank(board, mines)
    assert len(found) == len(set(found))
    assert set(found) == set(layouts(board, mines))


def test_samples_are_consistent_with_an_expert_position_and_repeat_with_their_seed():
    for board in midgame_positions(BoardSize(16, 30), 99, np.random.default_rng(1))[:3]:
        drawn = sample_layouts(board, 99, 20, seed=7)
        numbers = board.numbers_mask()
        for mask in drawn:
            assert mask.sum() == 99 and mask[board.mines_mask()].all() and not mask[board.values >= 0].any()
            assert (neighbour_sums(mask)[numbers] == board.values[numbers]).all()
        again = sample_layouts(board, 99, 20, seed=7)
        assert all((a == b).all() for a, b in zip(drawn, again))
        assert len({mine_cells(board, m) for m in drawn}) > 1


def test_the_samples_frequencies_follow_the_mine_probabilities():
    """A loose check of the draw itself (the ranks are exact): each cell's share of mines in 4,000 samples
    within 0.05 of its exact probability on a small position."""
    board = Board.from_text("1..1\n....\n..2.")
    result = analyze(board, 4)
    drawn = sample_layouts(board, 4, 4000, seed=3)
    seen = Counter(cell for mask in drawn for cell in mine_cells(board, mask))
    for cell in board.unopened_cells():
        assert abs(seen[cell] / 4000 - float(result.probability(cell))) < 0.05, cell


def test_a_rank_out_of_range_or_an_impossible_position_is_refused():
    ranked = RankedLayouts("1..\n...", 1)
    with pytest.raises(ValueError, match="rank must be from 0 to"):
        ranked.layout(ranked.count)
    with pytest.raises(ValueError, match="rank must be from 0 to"):
        ranked.layout(-1)
    with pytest.raises(ImpossiblePosition):
        RankedLayouts("...\n.2.\n...", 4)
