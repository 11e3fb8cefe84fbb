"""minelib: exact answers about Minesweeper.

One import gives what a user needs:

- the board model: ``Board.from_text``, ``BoardSize``, ``to_constraints`` (the
  counting problem X v = y) and the counters that solve it;
- the analysis: ``analyze(board, mines)``, the layout count, every cell's exact
  mine probability and the certain cells; ``Analyzer(mines)`` for positions met
  one after another (a game), each recounting only what changed;
- optimal play: ``solve(size, mines, first_click)``, ``OptimalSolver`` (whose
  engine is Python or numba) and its ``Result``; ``EndgameSearch(mines)`` for a
  position on any board, searched on its undecided cells alone; the article's
  evaluators answer with the same ``Result``;
- games and players: ``Game``, ``first_cell``, ``PLAYERS`` (``ZDDPlayer``,
  ``LookaheadPlayer``, ``SafestPlayer``, ``TwoStepPlayer``, the strongest) and
  ``make_player(name, "key=value,...")`` for a player with options.

The widgets (``minelib.widgets``), plots (``minelib.plotting``), experiments, what
their runs say (``minelib.strength``) and tables live in their modules, so that
importing minelib needs neither ipywidgets nor matplotlib.
"""

__version__ = "0.2.0"

import minelib.compiled  # noqa: F401  (first: numba's cache made current before any compiled module loads)
from minelib.analysis import Analysis, Analyzer, ImpossiblePosition, analyze
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
from minelib.endgame import EndgameSearch
from minelib.evaluators import EVALUATORS, BaselineEvaluator, EfficientEvaluator, SolvableCellsEvaluator
from minelib.game import FIRST_CLICK_RULES, Game, first_cell
from minelib.optimal import ENGINES, OptimalSolver, Result, solve, strategy_tree
from minelib.players import PLAYERS, LookaheadPlayer, Move, Record, SafestPlayer, TwoStepPlayer, ZDDPlayer, make_player

__all__ = [
    "ALL_COUNTERS",
    "ARTICLE_COUNTERS",
    "ENGINES",
    "EVALUATORS",
    "FIRST_CLICK_RULES",
    "MINE",
    "PLAYERS",
    "UNOPENED",
    "Analysis",
    "Analyzer",
    "BaselineCounter",
    "BaselineEvaluator",
    "Board",
    "BoardSize",
    "BruteForceCounter",
    "Cell",
    "CutCounter",
    "EfficientEvaluator",
    "EndgameSearch",
    "FrontierCounter",
    "Game",
    "ImpossiblePosition",
    "LastSpeedupCounter",
    "LookaheadPlayer",
    "Move",
    "OptimalSolver",
    "Record",
    "Result",
    "SafestPlayer",
    "ShrinkCounter",
    "SolvableCellsEvaluator",
    "SortCounter",
    "TwoStepPlayer",
    "ZDDPlayer",
    "__version__",
    "analyze",
    "first_cell",
    "make_player",
    "solve",
    "strategy_tree",
    "to_constraints",
]
