"""A player's exact win probability on a whole small board: every layout at once, one decision a position.

The players are measured on seeded games elsewhere, to a few tenths of a point. On a board small enough to
list its layouts, what a player wins is exact: the layouts that the first click allows are equally
likely, and the player is a function of the position it sees. ``player_value`` follows all of them down
the player's tree of play together: at each guess the layouts still possible are split by what the
opened cell shows (a mine loses them), and each part is carried to the next guess by the certain moves,
which every player here makes before it guesses (``LookaheadRun.decide``): every cell safe in all the
part's layouts opened, every cell a mine in all of them flagged. A part of one layout is won. The player
is asked once per position (``recommend``), however many layouts reach it.

The answer is a count of won layouts, so the win probability is a Fraction, to be set beside the table of
optimal play (``minelib.tables``): how far the player's heuristic is from the best play, exactly, and
what a change to it is worth there, without the noise of games. With ``regrets``, each guess's position
is also searched exactly (``EndgameSearch``): the best cell's win probability less that of the cell the
player opened, weighted by the share of layouts that reach the position, sums to optimal play's value
less the player's, exactly (the performance difference lemma), so the distance is told position by
position.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np

from minelib.board import MINE, UNOPENED, Board, BoardSize, Cell
from minelib.endgame import EndgameSearch
from minelib.game import allowed_cells, check_first_click, check_rule, neighbour_ids

MAX_LAYOUTS = 2_000_000  # the most layouts listed at once (memory: one byte a cell of each)


@dataclass(frozen=True)
class GuessRegret:
    """A position where the player guessed: how many layouts reach it, the cell opened and a best cell,
    and the win probability under optimal play from each (``EndgameSearch``)."""

    board: Board
    layouts: int
    cell: Cell
    best: Cell
    value: Fraction  # of the cell opened, then optimal play
    best_value: Fraction

    @property
    def regret(self) -> Fraction:
        return self.best_value - self.value


@dataclass(frozen=True)
class PlayerValue:
    """What a player wins from one first click over every layout its rule allows."""

    wins: int  # layouts won
    layouts: int  # layouts the rule allows
    guesses: int  # positions where the player guessed (each asked once)
    seconds: float
    regrets: tuple[GuessRegret, ...] = ()  # with ``regrets``: every guess's, where it lost something

    @property
    def probability(self) -> Fraction:
        return Fraction(self.wins, self.layouts)

    def lost(self) -> Fraction:
        """What the guesses ``regrets`` holds lose against optimal play, over all layouts: with every guess
        searched, optimal play's win probability from the first click less the player's."""
        return sum((Fraction(r.layouts, self.layouts) * r.regret for r in self.regrets), Fraction(0))


def allowed_layouts(size: BoardSize, mines: int, rule: str, first: int) -> np.ndarray:
    """Every layout (rows of booleans, a mine True) the first-click ``rule`` allows with the first click on
    cell id ``first``, those ``game.deal`` draws from (``game.allowed_cells``), each layout once."""
    check_rule(size, mines, rule)
    free = allowed_cells(size, rule, first).tolist()
    count = comb(len(free), mines)
    if count > MAX_LAYOUTS:
        raise ValueError(
            f"{count:,} layouts of {mines} mines on {size} are more than the {MAX_LAYOUTS:,} listed at once"
        )
    ids = np.array(list(combinations(free, mines)), dtype=np.int64).reshape(count, mines)
    layouts = np.zeros((count, size.n_cells), dtype=bool)
    np.put_along_axis(layouts, ids, True, axis=1)
    return layouts


class _Tree:
    """The layouts of one board and the numbers each shows, and the player's tree of play over them."""

    def __init__(self, player, size: BoardSize, mines: int, layouts: np.ndarray, regrets: bool):
        self.player, self.size, self.mines = player, size, mines
        self.regrets: list[GuessRegret] | None = [] if regrets else None
        adjacency = np.zeros((size.n_cells, size.n_cells), dtype=np.uint8)
        for c, around in enumerate(neighbour_ids(size)):
            adjacency[c, list(around)] = 1
        self.mine = layouts
        self.number = (layouts.astype(np.uint8) @ adjacency).astype(np.int8)  # each cell's number, each layout
        self.guesses = 0

    def split(self, view: np.ndarray, rows: np.ndarray, start: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        """Open the cells ``start`` (safe in every layout of ``rows``) on ``view``: the views it can leave,
        each with its layouts. A zero's neighbours are not opened here: they are certain, and ``wins``
        opens every certain cell before a guess."""
        shown = np.where(start, self.number[rows], np.int8(UNOPENED))
        keys, inverse = np.unique(shown, axis=0, return_inverse=True)
        inverse = inverse.ravel()
        parts = []
        for k, key in enumerate(keys):
            there = view.copy()
            seen = key != UNOPENED
            there[seen] = key[seen]
            parts.append((there, rows[inverse == k]))
        return parts

    def wins(self, view: np.ndarray, rows: np.ndarray) -> int:
        """How many layouts of ``rows`` the player wins from ``view``: the certain moves first, then a guess."""
        unopened = view == UNOPENED
        mines = self.mine[rows]
        safe = unopened & ~mines.any(axis=0)
        if safe.any():  # certain cells opened together: the position at the guess is the same in any order
            return sum(self.wins(there, part) for there, part in self.split(view, rows, safe))
        if len(rows) == 1:
            return 1  # one layout left: every unopened cell is a mine
        view = view.copy()
        view[unopened & mines.all(axis=0)] = MINE  # certain mines flagged
        board = Board(view.reshape(self.size.height, self.size.width))
        move = self.player.recommend(board, self.mines)
        if move.kind != "open" or move.certain:
            raise AssertionError(f"the player made a certain move {move} where every certain cell was taken")
        self.guesses += 1
        if self.regrets is not None:
            self.regret(board, len(rows), move.cell)
        return self.opened(view, rows, self.size.cell_id(move.cell))

    def opened(self, view: np.ndarray, rows: np.ndarray, cell: int) -> int:
        """How many layouts of ``rows`` the player wins by opening cell id ``cell`` in ``view`` (those with a
        mine there are lost), then playing on."""
        alive = rows[~self.mine[rows, cell]]
        start = np.zeros(self.size.n_cells, dtype=bool)
        start[cell] = True
        return sum(self.wins(there, part) for there, part in self.split(view, alive, start)) if len(alive) else 0

    def regret(self, board: Board, layouts: int, cell: Cell) -> None:
        """Keep the guess of ``cell`` in ``board`` if a cell is better under optimal play."""
        assert self.regrets is not None
        values = EndgameSearch(self.mines).values(board)
        assert values is not None  # no bound on the undecided cells was asked
        best = max(sorted(values), key=values.__getitem__)  # the first best, row by row
        if values[best] > values[cell]:
            self.regrets.append(GuessRegret(board, layouts, cell, best, values[cell], values[best]))


def player_value(
    player, size: BoardSize | str, mines: int, rule: str = "safe", first: Cell = (0, 0), regrets: bool = False
) -> PlayerValue:
    """The layouts ``player`` wins with its first click on ``first`` under the first-click ``rule``
    ("safe", "zero" or "none"), out of every layout the rule allows, all equally likely; with
    ``regrets``, every guess that loses something against optimal play (``GuessRegret``), heaviest first."""
    size = BoardSize.of(size)
    check_first_click(rule)
    size.check(first)
    began = time.perf_counter()
    c = size.cell_id(first)
    layouts = allowed_layouts(size, mines, rule, c)
    tree = _Tree(player, size, mines, layouts, regrets)
    view = np.full(size.n_cells, UNOPENED, dtype=np.int8)
    wins = tree.opened(view, np.arange(len(layouts)), c)  # a mine at the first click (rule "none") loses
    found = sorted(tree.regrets or (), key=lambda r: -r.layouts * r.regret)
    return PlayerValue(wins, len(layouts), tree.guesses, time.perf_counter() - began, tuple(found))


__all__ = ["MAX_LAYOUTS", "GuessRegret", "PlayerValue", "allowed_layouts", "player_value"]
