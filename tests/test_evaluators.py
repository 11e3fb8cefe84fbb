"""Article 000's evaluators: its table, its best cells, and agreement with the optimal solver."""

from fractions import Fraction

import pytest

from minelib.board import Board
from minelib.evaluators import EVALUATORS, BaselineEvaluator, EfficientEvaluator, SolvableCellsEvaluator
from minelib.optimal import OptimalSolver, solve

# The article's table (2 mines) with the cell its evaluator reported, for the boards fast enough here.
ARTICLE = {
    "1x3": ("1/3", (0, 0)),
    "1x4": ("1/3", (0, 0)),
    "1x5": ("2/5", (0, 0)),
    "1x6": ("8/15", (0, 2)),
    "2x2": ("1/6", (0, 0)),
    "2x3": ("1/3", (0, 0)),
}


@pytest.mark.parametrize("evaluator", EVALUATORS, ids=lambda e: e.__name__)
@pytest.mark.parametrize("size", ARTICLE)
def test_article_table_and_cells(evaluator, size):
    probability, cell = ARTICLE[size]
    result = evaluator(size, 2).evaluate()
    assert str(result.probability) == probability and result.best_moves[0] == cell
    assert type(result.probability) is Fraction


@pytest.mark.parametrize("evaluator", [EfficientEvaluator, SolvableCellsEvaluator], ids=lambda e: e.__name__)
@pytest.mark.parametrize("size, mines", [("1x7", 2), ("2x3", 1), ("2x3", 3), ("1x6", 3)])
def test_faster_evaluators_agree_with_the_optimal_solver(evaluator, size, mines):
    assert evaluator(size, mines).evaluate().probability == solve(size, mines).probability


@pytest.mark.parametrize("text, mines", [("1..\n...", 1), ("..1\n...", 2), ("1.\n..\n..", 2)])
def test_positions_agree_with_the_optimal_solver(text, mines):
    board = Board.from_text(text)
    expected = OptimalSolver(board.size, mines).position(board).probability
    for evaluator in EVALUATORS:
        assert evaluator(board.size, mines).evaluate(board).probability == expected


def test_counts_come_with_the_efficient_evaluation():
    evaluator = EfficientEvaluator("2x3", 2)
    assert evaluator.evaluate().layouts == 15 == evaluator.count(Board.unopened(evaluator.size))


def test_the_baseline_counts_each_child_before_evaluating_it():
    # the article's saving "count and probability in one pass" is what the efficient one adds
    baseline, efficient = BaselineEvaluator("2x3", 2), EfficientEvaluator("2x3", 2)
    counted = {}
    for evaluator in (baseline, efficient):
        calls = []
        count = evaluator.count
        evaluator.count = lambda board, count=count, calls=calls: calls.append(1) or count(board)
        evaluator.evaluate()
        counted[evaluator] = len(calls)
    assert counted[baseline] > 2 * baseline.states and counted[efficient] == efficient.states + 1


@pytest.mark.parametrize("evaluator", EVALUATORS, ids=lambda e: e.__name__)
@pytest.mark.parametrize("mines, message", [(9, "9 mines do not fit on a 2x2 board"), (-1, "-1 mines do not fit"),
                                            (1.5, "the mine count must be an integer")])  # fmt: skip
def test_a_bad_mine_count_is_refused_when_the_evaluator_is_made(evaluator, mines, message):
    with pytest.raises(ValueError, match=message):
        evaluator("2x2", mines)
