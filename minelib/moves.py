"""What every player shares: a move, the record of a game, and the run that follows one game.

A player (``minelib.players`` registers them) plays a ``minelib.game.Game`` to the end through a
``GameRun``, which opens and flags cells by id, counts its guesses and, if asked, logs every
``Move``; ``play`` returns the game's ``Record``, and ``luck`` reads a logged game's ``Luck``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from minelib.board import MINE, UNOPENED, BoardSize, Cell
from minelib.game import Game, neighbour_ids


@dataclass(frozen=True)
class Move:
    """A move: open or flag ``cell``; ``certain`` if no consistent layout makes it wrong.

    ``win_probability``: when the exact endgame search chose the move, the probability of winning
    from the position by making it and playing optimally after (else None).
    """

    kind: str
    cell: Cell
    certain: bool
    mine_probability: Fraction | None = None
    win_probability: Fraction | None = None


@lru_cache(maxsize=64)
def certain_moves(size: BoardSize) -> tuple[tuple[Move, ...], tuple[Move, ...]]:
    """Every certain move of a board size, by cell id: the openings and the flags (``Move`` is frozen, so
    the log of every game on the board shares them). A logged game writes one for each cell it settles,
    a few hundred a game: built once, not once a move (a new ``Move`` and its ``Fraction`` made a short game on
    article 003's 20x20 boards 1.45 times as long logged as not)."""
    cells = [size.cell_at(c) for c in range(size.n_cells)]
    zero, one = Fraction(0), Fraction(1)
    return tuple(Move("open", c, True, zero) for c in cells), tuple(Move("flag", c, True, one) for c in cells)


@dataclass
class Record:
    """How a game went: won or not, guesses made, seconds spent, and (if asked) every move."""

    won: bool
    guesses: int
    seconds: float
    moves: list[Move] = field(default_factory=list)


@dataclass(frozen=True)
class Luck:
    """What a game's guesses say of its outcome: a win rate's interval narrowed by each game's luck
    (``strength.controlled_difference`` of the values, with the controls: ``benchmarks/luck.py``).

    ``value``: 1 for a won game, 0 for a lost one, or, where the exact endgame search chose a guess, the
    exact win probability it gave the first such guess (the player plays optimally from there on, so the
    game's outcome is a draw of that probability). ``control``: over the guesses before that whose mine
    probability the player gave, each one's mine probability less 1 if it was a mine. Each guess's term
    has mean zero over the layouts its position allows (uniform, as the game deals them, and as the
    probability counts them), so ``control`` has mean zero, and ``value`` the win rate's: each exactly,
    over every layout of a board (``tests/test_strength.py``). A game that guessed much and was lucky
    has a high control; one that died at its first guess a low one."""

    value: Fraction
    control: Fraction


def luck(moves: Sequence[Move], won: bool) -> Luck:
    """A game's ``Luck`` from its logged moves (``play(..., log=True)``) and outcome."""
    opened = [m for m in moves if m.kind == "open"]
    control = Fraction(0)
    for k, move in enumerate(opened):
        if move.certain:
            continue
        if move.win_probability is not None:
            return Luck(move.win_probability, control)
        if move.mine_probability is not None:
            control += move.mine_probability - (not won and k == len(opened) - 1)  # a lost game's last move
    return Luck(Fraction(int(won)), control)


def at_least(low: int, **values) -> None:
    """Raise ValueError naming the first of ``values`` (a player's options) below ``low``."""
    for name, value in values.items():
        if value < low:
            raise ValueError(f"{name} must be at least {low}, got {value}")


def check_clicks(game: Game, first: Cell, then: tuple[Cell, ...] = ()) -> None:
    """Raise ValueError if the first click, or a cell to open after it, is off the board (a negative row
    or column would name a cell from the other side)."""
    game.size.check(first, "first click")
    for cell in then:
        if (cell[0], cell[1]) not in game.size:
            raise ValueError(f"cell {tuple(cell)} to open after the first click is outside the {game.size} board")


class GameRun:
    """One game as a player plays it: the game, a move log, and opening / flagging by cell id."""

    def __init__(self, game: Game, log: bool):
        self.log: list[Move] | None = [] if log else None
        self.game, self.size = game, game.size
        self.neighbours = neighbour_ids(game.size)
        self.values = game._values  # the live view: read only here
        self.guesses = 0
        self.certain_opens, self.certain_flags = certain_moves(game.size)  # by cell id, shared by every game

    def open(self, c: int, certain: bool, p: Fraction | None = None, win: Fraction | None = None) -> list[int]:
        """Open cell id ``c`` (a guess unless ``certain``; ``p`` its mine probability, ``win`` the exact win
        probability the endgame search gave it), logged if asked; the cells it opened."""
        if self.log is not None:
            if certain and p == 0 and win is None:  # a certain opening: the shared move
                self.log.append(self.certain_opens[c])
            else:
                self.log.append(Move("open", self.size.cell_at(c), certain, p, win))
        if not certain:
            self.guesses += 1
        return self.game.open_id(c)

    def flag(self, c: int) -> None:
        if self.log is not None:
            self.log.append(self.certain_flags[c])
        self.game.flag_id(c)

    def hidden(self, c: int) -> list[int]:
        return [n for n in self.neighbours[c] if self.values[n] == UNOPENED]

    def need(self, c: int) -> int:
        """Mines still to find around number c."""
        return self.values[c] - sum(self.values[n] == MINE for n in self.neighbours[c])

    def record(self, start: float) -> Record:
        return Record(self.game.status == "won", self.guesses, time.perf_counter() - start, self.log or [])


__all__ = ["GameRun", "Move", "Record", "at_least", "certain_moves", "check_clicks"]
