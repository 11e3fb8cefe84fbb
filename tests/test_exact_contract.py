"""One contract for everything that answers exactly with a ``Result``: the optimal solver's
engines and article 000's evaluators, against plain minimax (``minelib.oracles``)."""

from math import comb

import pytest
from hypothesis import assume, given, settings

from minelib import EVALUATORS, OptimalSolver, Result
from minelib.board import BoardSize
from minelib.oracles import count_layouts, minimax_first_moves, minimax_position
from tests.test_optimal import small_positions


def _engine(name):
    def answer(size, mines, board=None) -> Result:
        solver = OptimalSolver(size, mines, engine=name)
        return solver.first_move("none") if board is None else solver.position(board)

    return answer


def _evaluator(cls):
    def answer(size, mines, board=None) -> Result:
        return cls(size, mines).evaluate(board)

    return answer


EXACT = {
    "python engine": _engine("python"),
    "compiled engine": _engine("compiled"),
    **{cls.__name__: _evaluator(cls) for cls in EVALUATORS},
}
TINY = [(1, 4, 1), (1, 5, 2), (2, 2, 1), (2, 3, 2), (2, 3, 3), (1, 6, 2)]


def _agrees(result: Result, expected: dict, layouts: int) -> None:
    assert isinstance(result, Result) and result.layouts == layouts
    assert result.probability == max(expected.values())
    assert result.move_values and all(expected[c] == v for c, v in result.move_values.items())
    assert result.best_moves == sorted(result.best_moves)
    assert all(expected[c] == result.probability for c in result.best_moves) and result.best_moves


@pytest.mark.parametrize("name", EXACT)
@pytest.mark.parametrize("height, width, mines", TINY, ids=str)
def test_first_clicks_agree_with_minimax(name, height, width, mines):
    size = BoardSize(height, width)
    expected = minimax_first_moves(size, mines, "none")
    result = EXACT[name](size, mines)
    _agrees(result, expected, comb(size.n_cells, mines))
    assert result.move_values == expected  # from the empty board every cell is a candidate


@pytest.mark.parametrize("name", EXACT)
@settings(max_examples=25, deadline=None)
@given(position=small_positions())
def test_positions_agree_with_minimax(name, position):
    board, mines = position
    # the article's first evaluator is the brute force of its first step: an empty 2x4 board with one
    # mine takes it some 70 s, a position of 7 unopened cells 3 to 5 s, of 6 under 1 s
    assume(name != "BaselineEvaluator" or len(board.unopened_cells()) <= 6)
    result = EXACT[name](board.size, mines, board)
    if len(board.unopened_cells()) == mines:  # won already: every cell left is a mine
        assert (result.probability, result.best_moves, result.move_values, result.layouts) == (1, [], {}, 1)
        return
    _agrees(result, minimax_position(board, mines), count_layouts(board, mines))


@pytest.mark.parametrize("engine", ["python", "compiled"])
@pytest.mark.parametrize("height, width, mines", TINY, ids=str)
def test_an_engines_best_cells_are_those_minimax_finds_best(engine, height, width, mines):
    """``Engine.best``: the cells whose win count is the best, with that count, none other."""
    size = BoardSize(height, width)
    expected = minimax_first_moves(size, mines, "none")
    solver = OptimalSolver(size, mines, engine=engine, symmetry=False)
    layouts = solver.all_layouts()
    top = max(expected.values())
    best = {size.cell_id(c): int(v * len(layouts)) for c, v in expected.items() if v == top}
    assert solver.engine.best(layouts, list(range(size.n_cells)), 0) == best
