"""minelib: exact answers about Minesweeper.

Start with ``Board.from_text`` (the board model) and ``analyze(board, mines)``
(layout count, exact mine probabilities, certain cells); ``to_constraints``
gives the counting problem X v = y for the counters in ``minelib.counters``.
"""
from minelib.analysis import Analysis, ImpossiblePosition, analyze
from minelib.board import MINE, UNOPENED, Board, BoardSize, Cell, to_constraints
from minelib.counters import (
    ALL_COUNTERS,
    ARTICLE_COUNTERS,
    BaselineCounter,
    BruteForceCounter,
    CutCounter,
    FrontierCounter,
    LastSpeedupCounter,
    ShrinkCounter,
    SortCounter,
)

__version__ = "0.1.0"

__all__ = [
    "Analysis", "ImpossiblePosition", "analyze",
    "ALL_COUNTERS", "ARTICLE_COUNTERS", "MINE", "UNOPENED", "BaselineCounter", "Board",
    "BoardSize", "BruteForceCounter", "Cell", "CutCounter", "FrontierCounter",
    "LastSpeedupCounter", "ShrinkCounter", "SortCounter", "to_constraints",
]
