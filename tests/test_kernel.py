"""The compiled search (minelib.kernel) against the pure-Python one, and how it stops."""
import pytest
from hypothesis import given, settings

from minelib.board import Board, BoardSize
from minelib.kernel import CompiledSolver
from minelib.optimal import OptimalSolver, optimal_solver, solve
from minelib.timing import TimeCapExceeded, time_cap
from tests.conftest import positions


@pytest.mark.parametrize("rule", ["none", "safe", "zero"])
@pytest.mark.parametrize("size, mines", [("3x5", 4), ("4x4", 3), ("2x7", 5), ("3x4", 6)])
def test_the_same_values_as_the_python_search(size, mines, rule):
    compiled = solve(size, mines, rule, engine="compiled")
    python = solve(size, mines, rule, engine="python")
    assert compiled.move_values == python.move_values
    assert compiled.best_moves == python.best_moves


@settings(max_examples=40, deadline=None)
@given(positions(max_height=4, max_width=5))
def test_positions_as_the_python_search(position):
    board, mines = position
    if not 0 < mines < board.size.n_cells:
        return
    expected = OptimalSolver(board.size, mines).position(board)
    assert CompiledSolver(board.size, mines).position(board).move_values == expected.move_values


def test_a_full_memo_starts_afresh_and_changes_nothing_but_the_work():
    roomy = CompiledSolver("3x5", 4)
    tight = CompiledSolver("3x5", 4, max_states=3)
    assert tight.first_move("safe").move_values == roomy.first_move("safe").move_values
    assert tight.clears > 0 and roomy.clears == 0


def test_a_time_cap_stops_the_search_and_the_solver_stays_exact():
    solver = CompiledSolver("4x5", 5)
    with pytest.raises(TimeCapExceeded), time_cap(0.05):
        solver.first_move("none")
    assert solver.first_move("safe").move_values == solve("4x5", 5, "safe", engine="python").move_values


def test_engines_are_chosen_by_name_and_board_size():
    assert type(optimal_solver("4x5", 5)) is CompiledSolver
    assert type(optimal_solver("3x3", 2)) is OptimalSolver  # 36 layouts: Python is done first
    assert type(optimal_solver("3x3", 2, "compiled")) is CompiledSolver
    assert type(optimal_solver("4x5", 5, "python")) is OptimalSolver
    assert type(optimal_solver("8x8", 3)) is OptimalSolver  # 64 cells: past the compiled search's bitmasks
    with pytest.raises(ValueError, match="at most 63 cells, not 64"):
        optimal_solver("8x8", 2, "compiled")
    with pytest.raises(ValueError, match="unknown engine 'fast'"):
        optimal_solver("3x3", 2, "fast")


def test_a_position_on_the_largest_compiled_board():
    board = Board.from_text("\n".join(["1" + "." * 8] + ["." * 9] * 6))  # 7x9 = 63 cells
    result = CompiledSolver(BoardSize(7, 9), 1).position(board)
    assert result.probability == 1 and result.layouts == 3
