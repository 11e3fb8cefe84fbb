"""The board model: vocabulary, text format, masks, and board to (X, y)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from minelib.board import MINE, UNOPENED, Board, BoardSize, check_mines, neighbour_sums, to_constraints
from tests.conftest import positions

EXAMPLE = """
..1F
..11
..00
"""


def test_neighbours_stay_on_the_board():
    size = BoardSize(3, 4)
    assert sorted(size.neighbours((0, 0))) == [(0, 1), (1, 0), (1, 1)]
    assert len(size.neighbours((0, 1))) == 5
    assert len(size.neighbours((1, 1))) == 8
    assert size.neighbours((0, 0)) == [c for c in size.neighbours((0, 0)) if c in size]


@given(st.integers(1, 7), st.integers(1, 7), st.data())
def test_neighbour_sums_count_each_cells_neighbours(height, width, data):
    size = BoardSize(height, width)
    mask = np.array(data.draw(st.lists(st.booleans(), min_size=size.n_cells, max_size=size.n_cells))).reshape(
        height, width
    )
    expected = [[sum(bool(mask[n]) for n in size.neighbours((y, x))) for x in range(width)] for y in range(height)]
    found = neighbour_sums(mask)
    assert found.dtype == np.int32 and found.tolist() == expected


def test_cell_ids_round_trip_row_by_row():
    size = BoardSize(3, 4)
    assert [size.cell_id(c) for c in size.cells()] == list(range(12))
    assert [size.cell_at(i) for i in range(12)] == size.cells()


@pytest.mark.parametrize(
    "text, message", [("16x", "HxW"), ("ax3", "HxW"), ("0x3", "height"), ("3x0", "width"), ("3x3x3", "HxW")]
)
def test_board_size_parse_rejects_malformed_sizes(text, message):
    with pytest.raises(ValueError, match=message):
        BoardSize.parse(text)


def test_board_size_parse_and_print():
    assert BoardSize.parse("16x30") == BoardSize(16, 30)
    assert str(BoardSize(16, 30)) == "16x30"


def test_text_format_round_trips():
    board = Board.from_text(EXAMPLE)
    assert board.to_text() == EXAMPLE.strip()
    assert Board.from_text(board.to_text()) == board
    assert board.values[0, 3] == MINE and board.values[0, 0] == UNOPENED and board.values[1, 2] == 1


@given(positions(max_height=5, max_width=6))
def test_any_board_round_trips_through_text(position):
    board, _ = position
    assert Board.from_text(board.to_text()) == board


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty"),
        ("\n\n", "empty"),
        ("...\n..", "line 2 has 2 cells, expected 3"),
        ("..x", "line 1, column 3: unknown character 'x'"),
        ("...\n.9.", "unknown character '9'"),
        ("4.\n..", r"cell \(0, 0\) shows 4 but has only 3 neighbours"),
        ("...\n.\n...", "line 2 has 1 cells"),
        (".. ..\n.. ..", "line 1, column 3: unknown character ' '"),  # not four rows of two
        ("..\n\n..", "line 2 has 0 cells"),
        ("..\n.\u00e9", "line 2, column 2: unknown character"),
    ],
)
def test_malformed_text_is_rejected_with_its_place(text, message):
    with pytest.raises(ValueError, match=message):
        Board.from_text(text)


def test_line_endings_and_spaces_around_lines_are_ignored():
    expected = Board([[UNOPENED, 1], [MINE, 1]])
    for text in (".1\nF1", ".1\r\nF1\r\n", "  .1  \n\tF1\n\n", ".1\rF1"):
        assert Board.from_text(text) == expected, repr(text)


def test_bad_value_codes_are_rejected():
    with pytest.raises(ValueError, match=r"cell \(0, 1\) has value 9"):
        Board([[0, 9]])
    with pytest.raises(ValueError, match="at least one row"):
        Board(np.zeros((0, 3)))
    with pytest.raises(ValueError, match="rows must all have the same length"):
        Board([[1, UNOPENED], [UNOPENED]])
    for value in (300, -129):  # past int8: a cast would wrap them round to legal codes (300 to 44, -129 to 127)
        with pytest.raises(ValueError, match=rf"cell \(0, 1\) has value {value}"):
            Board([[0, value]])
    for values in ([[1.5, UNOPENED]], [["1", "."]], [[True]]):  # 1.5 would have passed for a 1
        with pytest.raises(ValueError, match="values must be integers"):
            Board(values)


def test_masks_follow_the_article_vocabulary():
    board = Board.from_text(EXAMPLE)
    assert board.number_cells() == [(0, 2), (1, 2), (1, 3), (2, 2), (2, 3)]
    assert board.mine_cells() == [(0, 3)]
    assert board.unopened_cells() == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]
    assert board.cells_where(board.frontier_mask()) == [(0, 1), (1, 1), (2, 1)]
    assert board.cells_where(board.interior_mask()) == [(0, 0), (1, 0), (2, 0)]


def test_board_is_immutable_and_with_value_copies():
    board = Board.from_text("..")
    with pytest.raises(ValueError):
        board.values[0, 0] = 1
    changed = board.with_value((0, 1), 1)
    assert changed.to_text() == ".1" and board.to_text() == ".."
    for cell in ((0, 2), (0, -1)):  # (0, -1) would change (0, 1)
        with pytest.raises(ValueError, match="is outside the 1x2 board"):
            board.with_value(cell, 1)
    with pytest.raises(TypeError, match="a board's text must be a str, got NoneType"):
        Board.from_text(None)
    with pytest.raises(TypeError, match="a position must be a Board"):
        check_mines([[UNOPENED]], 1)


def test_board_values_cannot_be_made_writable_again():
    # the analyzer knows a board it has checked by its values array: they must never change
    source = np.full((2, 3), UNOPENED, np.int8)
    made = Board(source)
    boards = [made, Board.from_text("..1\n..1"), Board.unopened(BoardSize(2, 3)), made.with_value((0, 0), 1)]
    for board in boards:
        with pytest.raises(ValueError, match="WRITEABLE"):
            board.values.setflags(write=True)
    source[0, 0] = 1  # the array a board was made from stays the caller's
    assert boards[0].to_text() == "...\n..."


def test_to_constraints_subtracts_flags_and_adds_the_total_row():
    X, y, cells = to_constraints(Board.from_text(EXAMPLE), mines=3)
    assert cells == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]
    # rows: numbers at (0,2) (1,2) (1,3) (2,2) (2,3), then the total row
    assert X.tolist() == [
        [0, 1, 0, 1, 0, 0],
        [0, 1, 0, 1, 0, 1],
        [0, 0, 0, 0, 0, 0],
        [0, 0, 0, 1, 0, 1],
        [0, 0, 0, 0, 0, 0],
        [1, 1, 1, 1, 1, 1],
    ]
    assert y.tolist() == [0, 0, 0, 0, 0, 2]


def test_to_constraints_without_total_has_only_number_rows():
    X, y, _ = to_constraints(Board.from_text(EXAMPLE))
    assert X.shape == (5, 6) and y.tolist() == [0, 0, 0, 0, 0]


@pytest.mark.parametrize(
    "mines, message",
    [
        (-1, "do not fit"),
        (13, "13 mines do not fit on a 3x4 board"),
        (0, "1 flag but only 0 mines"),
        (1.5, "must be an integer"),
        (True, "must be an integer"),
    ],
)
def test_impossible_mine_totals_are_rejected(mines, message):
    with pytest.raises(ValueError, match=message):
        check_mines(Board.from_text(EXAMPLE), mines)


def test_equations_and_mask_pictures_read_like_the_board():
    from minelib.board import mask_picture

    constraints = to_constraints(Board.from_text("1.\n.."), mines=1)
    assert constraints.equations() == ["(0,1) + (1,0) + (1,1) = 1", "(0,1) + (1,0) + (1,1) = 1"]
    assert mask_picture(Board.from_text(EXAMPLE).frontier_mask()) == ".#..\n.#..\n.#.."


def test_everything_that_takes_a_board_size_takes_hxw_text_too():
    from minelib import EfficientEvaluator, Game, OptimalSolver, first_cell
    from minelib.experiments import Setting
    from minelib.game import check_rule, mines_for_density
    from minelib.layouts import Geometry
    from minelib.problems import midgame_positions, random_layout
    from minelib.widgets import BoardExplorer

    size = BoardSize(4, 5)
    assert Board.unopened("4x5") == Board.unopened(size)
    assert Game("4x5", 3).size == size and first_cell("4x5", "center") == first_cell(size, "center") == (2, 2)
    assert mines_for_density("4x5", 0.2) == 4 and check_rule("4x5", 19, "safe") is None
    assert Geometry("4x5").n == 20 and OptimalSolver("4x5", 2).size == EfficientEvaluator("4x5", 2).size == size
    assert BoardExplorer("4x5", 3).size == size and Setting("zdd", size, 3, games=1).size == "4x5"
    rng = np.random.default_rng(1)
    assert random_layout("4x5", 3, (0, 0), rng).shape == (4, 5)
    assert midgame_positions("16x30", 99, np.random.default_rng(2))[0].size == BoardSize(16, 30)
