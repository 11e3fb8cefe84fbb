"""The moves one number decides, played in compiled code.

A number settles its unopened neighbours when its flags already make it (they are all safe) or
when it needs as many mines as it has unopened neighbours (they are all mines). Most moves of a
game are such moves, a few microseconds each in Python; here a work queue of numbers is run to
its end in compiled code, opening cells (a zero opens its region, as the game engine does) and
flagging them, and only the cells that changed go back to the game.

``Sweep`` keeps a game's view as arrays beside the game: the player pushes the numbers around
cells that changed, ``run`` plays every move the numbers decide (``Game.take_swept`` takes the
cells over), ``first`` finds one settling number without playing (for advice on a position).
The game's numbers are read only where a cell is opened: what the game would show there.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numba import njit

from minelib.board import MINE, UNOPENED, Board
from minelib.game import Game, neighbour_table, reveal

DONE, FOUND, MINE_OPENED = 0, 1, 2  # how a compiled sweep ended
_JIT: dict = dict(cache=True, nogil=True)


@njit(**_JIT)
def _push_around(values, table, count, cell, queue, queued, top):
    """Queue ``cell`` if it is a number, and every number around it."""
    if values[cell] > 0 and not queued[cell]:
        queued[cell] = True
        queue[top] = cell
        top += 1
    for k in range(count[cell]):
        n = table[cell, k]
        if values[n] > 0 and not queued[n]:
            queued[n] = True
            queue[top] = n
            top += 1
    return top


@njit(**_JIT)
def _push_all(values, table, count, cells, queue, queued, top):
    for i in range(cells.size):
        top = _push_around(values, table, count, cells[i], queue, queued, top)
    return top


@njit(**_JIT)
def _sweep(values, numbers, mine, table, count, queue, queued, top, changed, moves, stack, play, safe_left):
    """Take numbers off the queue until it is empty, or no safe cell is left unopened (``safe_left``:
    how many are now; the game is won); a number that settles its unopened neighbours
    has them opened or flagged (``play``) and the numbers around them queued, or (not ``play``) is
    reported alone: its cells in ``moves`` (a flag written ``~cell``) and FOUND.

    Returns (status, queue top, cells changed, moves): a move is a cell opened or flagged by the
    player, in order, each number's cells in row order; the changed cells include whole regions."""
    n_changed = 0
    n_moves = 0
    hidden = np.empty(8, np.int32)
    while top > 0:
        top -= 1
        c = queue[top]
        queued[c] = False
        n_hidden = 0
        flags = 0
        for k in range(count[c]):
            n = table[c, k]
            if values[n] == UNOPENED:
                hidden[n_hidden] = n
                n_hidden += 1
            elif values[n] == MINE:
                flags += 1
        need = values[c] - flags
        if n_hidden == 0 or (need != 0 and need != n_hidden):
            continue
        if not play:
            for k in range(n_hidden):
                moves[k] = hidden[k] if need == 0 else ~hidden[k]
            return FOUND, top, 0, n_hidden
        for k in range(n_hidden):
            n = hidden[k]
            if values[n] != UNOPENED:  # opened by a region before its turn
                continue
            if need == 0:
                if mine[n]:
                    moves[n_moves] = n
                    return MINE_OPENED, top, n_changed, n_moves + 1
                first = n_changed
                n_changed = reveal(values, numbers, table, count, n, changed, n_changed, stack)
                moves[n_moves] = n
                safe_left -= n_changed - first
                if safe_left == 0:
                    return DONE, top, n_changed, n_moves + 1
                for i in range(first, n_changed):
                    top = _push_around(values, table, count, changed[i], queue, queued, top)
            else:
                values[n] = MINE
                changed[n_changed] = n
                n_changed += 1
                moves[n_moves] = ~n
                top = _push_around(values, table, count, n, queue, queued, top)
            n_moves += 1
    return DONE, top, n_changed, n_moves


class Sweep:
    """A game's view as arrays, and its queue of numbers to look at (see the module's docstring)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.table, self.count = neighbour_table(game.size)
        n = game.size.n_cells
        self.values = np.array(game._values, np.int8)
        self.queue, self.queued, self.top = np.empty(n, np.int32), np.zeros(n, np.bool_), 0
        self.changed, self.moves = np.empty(n, np.int32), np.empty(n, np.int32)
        self.stack = np.empty(8 * n + 1, np.int32)  # room for a region's cells (``game.reveal``)
        self._layout()

    def _layout(self) -> None:
        numbers, mine = self.game._numbers_array, self.game._mine
        if numbers is None or mine is None:  # no layout yet (or none behind a shown position): nothing to open
            self.numbers, self.mine = np.zeros(self.game.size.n_cells, np.int8), None
        else:
            self.numbers, self.mine = numbers, np.array(mine, np.bool_)

    def took(self, cells: Iterable[int]) -> None:
        """The game opened or flagged ``cells`` (outside a sweep): copy them, queue the numbers around."""
        if self.mine is None and self.game._mine is not None:
            self._layout()  # the first click placed the mines
        ids, source = list(cells), self.game._values
        index = np.array(ids, np.int64)
        self.values[index] = [source[c] for c in ids]
        self.top = _push_all(self.values, self.table, self.count, index, self.queue, self.queued, self.top)

    def board(self) -> Board:
        """The game's view now, as a ``Board`` (the arrays follow every move)."""
        return Board._valid(self.values.reshape(self.game.size.height, self.game.size.width).copy())

    def queue_all(self) -> None:
        """Queue every number of the view, so that ``first`` looks at them row by row."""
        numbers = np.flatnonzero((self.values > 0) & ~self.queued)[::-1]  # the stack pops the last first
        self.queue[self.top : self.top + numbers.size] = numbers
        self.queued[numbers] = True
        self.top += numbers.size

    def run(self) -> list[int]:
        """Play every move the queued numbers decide, to the end; the moves (a flag as ``~cell``)."""
        if self.mine is None:
            raise ValueError("this game has no layout to open cells of")
        status, self.top, changed, moves = _sweep(
            self.values, self.numbers, self.mine, self.table, self.count,
            self.queue, self.queued, self.top, self.changed, self.moves, self.stack, True,
            self.game.size.n_cells - self.game.mines - self.game.opened,
        )  # fmt: skip
        if status == MINE_OPENED:
            cell = self.game.size.cell_at(int(self.moves[moves - 1]))
            raise RuntimeError(f"a number declared cell {cell} safe, and it holds a mine")
        self.game.take_swept(self.values, self.changed[:changed].tolist())
        return self.moves[:moves].tolist()

    def first(self) -> list[int]:
        """The cells of the first queued number that settles its unopened neighbours (a flag as
        ``~cell``), or none; nothing is played (the numbers looked at leave the queue)."""
        status, self.top, _, moves = _sweep(
            self.values, self.numbers, np.zeros(0, np.bool_), self.table, self.count,
            self.queue, self.queued, self.top, self.changed, self.moves, self.stack, False, 1,
        )  # fmt: skip
        return self.moves[:moves].tolist() if status == FOUND else []


_warm = False


def warm_up() -> None:
    """Load the compiled sweep now (numba loads it from its cache, or compiles it, on its first call);
    once per process."""
    global _warm
    if _warm:
        return
    _warm = True
    game = Game("1x4", 1, "none", layout=np.array([[False, False, True, False]]))
    sweep = Sweep(game)
    sweep.took(game.open_id(0))  # shows 0 1 . .: the 1 flags the third cell
    sweep.first()
    sweep.took([1])
    sweep.run()


__all__ = ["Sweep", "warm_up"]
