"""The moves one number decides, played in compiled code.

A number settles its unopened neighbours when its flags already make it (they are all safe) or
when it needs as many mines as it has unopened neighbours (they are all mines). Most moves of a
game are such moves, a few microseconds each in Python; here a work queue of numbers is run to
its end in compiled code, opening cells (a zero opens its region, as the game engine does) and
flagging them, and only the cells that changed go back to the game.

``Sweep`` keeps a game's view as arrays beside the game: the player pushes the numbers around
cells that changed, ``run`` plays every move the numbers decide (``Game.take_swept`` takes the
cells over), ``first`` finds one settling number without playing (for advice on a position).
``settle`` goes on where the numbers stop: the exact analysis of the position (the box engine's
compiled count, ``minelib.boxes``) and its certain moves, then the numbers again, in one compiled
call to the next position with no certain move, where the player must guess. Between two
guesses the player's Python does nothing but take the cells over.
The game's numbers are read only where a cell is opened: what the game would show there.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numba import njit

from minelib import boxes
from minelib.board import MINE, UNOPENED, Board
from minelib.game import Game, neighbour_table, reveal

_PLAY = np.bool_(True)  # True as an argument, not a literal: one compiled _sweep, not two

DONE, FOUND, MINE_OPENED = 0, 1, 2  # how a compiled sweep ended
GUESS, IN_PYTHON, IMPOSSIBLE = 3, 4, 5  # and how ``_settle`` ended otherwise (DONE: the game is won)
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


@njit(**_JIT)
def _settle(
    values, numbers, mine, table, count, queue, queued, top, changed, moves, stack, safe_left,
    height, width, mines, kept, has_parts, parts, answer, max_changed, max_leaves, bits, limit,
):  # fmt: skip
    """``_sweep`` and the exact analysis in turn, until the analysis finds no certain cell: what
    ``LookaheadRun.play`` does between two guesses, in one call.

    After each sweep the position is analysed as ``boxes.Tracker.analyze`` would (from ``parts``,
    the components of the position ``kept``, when ``has_parts`` and at most ``max_changed`` cells
    differ; else whole), and its certain mines are flagged, then its certain safe cells opened, row
    by row, each move queueing the numbers around it, as the player plays them one by one.

    Returns (status, queue top, cells changed, moves, whether parts are kept, the parts, the last
    answer): DONE (no safe cell is left: won), GUESS (the last analysis, of the position as it
    stands, found no certain cell), IN_PYTHON or IMPOSSIBLE (the last analysis did not finish:
    Python takes over there, from its parts, kept, if only the combination passed its limit),
    MINE_OPENED (a certain cell held a mine: the last move). ``kept`` ends as the position the
    parts are of; ``answer`` (the stand-in given, until one is counted) is that
    of the last finished analysis."""
    n = len(values)
    n_changed, n_moves = 0, 0
    while True:
        status, top, k_changed, k_moves = _sweep(
            values, numbers, mine, table, count, queue, queued, top,
            changed[n_changed:], moves[n_moves:], stack, _PLAY, safe_left,
        )  # fmt: skip
        for i in range(n_changed, n_changed + k_changed):
            if values[changed[i]] != MINE:
                safe_left -= 1
        n_changed += k_changed
        n_moves += k_moves
        if status == MINE_OPENED or safe_left == 0:
            return status, top, n_changed, n_moves, has_parts, parts, answer
        left = mines
        for c in range(n):
            if values[c] == MINE:
                left -= 1
        differ = np.flatnonzero(kept != values) if has_parts else np.zeros(0, np.int64)
        if has_parts and len(differ) <= max_changed:
            counted, fresh = boxes._update(values, height, width, left, differ, parts, max_leaves, bits, limit)
        else:
            counted, fresh = boxes._full(values, height, width, left, max_leaves, bits, limit)
        if counted[0] == boxes.IMPOSSIBLE:  # (the tracker keeps what it had)
            return IMPOSSIBLE, top, n_changed, n_moves, has_parts, parts, answer
        if counted[0] == boxes.COMBINE_IN_PYTHON:  # counted: Python combines the parts, kept
            kept[:] = values
            return IN_PYTHON, top, n_changed, n_moves, True, fresh, answer
        if counted[0] != boxes.DONE:
            return IN_PYTHON, top, n_changed, n_moves, False, parts, answer
        kept[:] = values
        has_parts, parts, answer = True, fresh, counted
        groups, numerators, denominators = answer[1], answer[2], answer[3]
        found = False
        for c in range(n):  # certain mines first, then certain safe cells, as the player plays them
            g = groups[c]
            if g >= 0 and numerators[g] == denominators[g] and values[c] == UNOPENED:
                values[c] = MINE
                changed[n_changed] = c
                n_changed += 1
                moves[n_moves] = ~c
                n_moves += 1
                top = _push_around(values, table, count, c, queue, queued, top)
                found = True
        for c in range(n):
            g = groups[c]
            if g >= 0 and numerators[g] == 0 and values[c] == UNOPENED:
                moves[n_moves] = c
                n_moves += 1
                if mine[c]:
                    return MINE_OPENED, top, n_changed, n_moves, has_parts, parts, answer
                first = n_changed
                n_changed = reveal(values, numbers, table, count, c, changed, n_changed, stack)
                safe_left -= n_changed - first
                if safe_left == 0:
                    return DONE, top, n_changed, n_moves, has_parts, parts, answer
                for i in range(first, n_changed):
                    top = _push_around(values, table, count, changed[i], queue, queued, top)
                found = True
        if not found:
            return GUESS, top, n_changed, n_moves, has_parts, parts, answer


class Sweep:
    """A game's view as arrays, and its queue of numbers to look at (see the module's docstring)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.table, self.count = neighbour_table(game.size)
        n = game.size.n_cells
        self.values = game._view_array()
        self.queue, self.queued, self.top = np.empty(n, np.int32), np.zeros(n, np.bool_), 0
        self.changed, self.moves = np.empty(n, np.int32), np.empty(n, np.int32)
        self.stack = np.empty(8 * n + 1, np.int32)  # room for a region's cells (``game.reveal``)
        self._layout()

    def _layout(self) -> None:
        numbers, mine = self.game._numbers_array, self.game._mine_array
        if numbers is None or mine is None:  # no layout yet (or none behind a shown position): nothing to open
            self.numbers, self.mine = np.zeros(self.game.size.n_cells, np.int8), None
        else:
            self.numbers, self.mine = numbers, mine

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
        self.game.take_swept(self.values, self.changed[:changed])
        return self.moves[:moves].tolist()

    def settle(self, tracker: boxes.Tracker) -> tuple[int, list[int], tuple | None]:
        """Play every move the numbers decide and every certain move of the exact analysis, in turn,
        to the first position with none (``_settle``); the status, the moves (a flag as ``~cell``) and,
        when a guess is due (GUESS), the compiled answer that counted the position as it stands.
        ``tracker``: the analyzer's, which follows the positions analysed here as if it had analysed them."""
        if self.mine is None:
            raise ValueError("this game has no layout to open cells of")
        game = self.game
        height, width = game.size.height, game.size.width
        has_parts = tracker._parts is not None and tracker._shape == (height, width)  # (with the values counted)
        kept = tracker._values.copy() if has_parts and tracker._values is not None else np.empty_like(self.values)
        no_answer, no_parts = boxes.nothing()
        status, self.top, changed, moves, has_parts, parts, answer = _settle(
            self.values, self.numbers, self.mine, self.table, self.count,
            self.queue, self.queued, self.top, self.changed, self.moves, self.stack,
            game.size.n_cells - game.mines - game.opened, height, width, game.mines,
            kept, has_parts, tracker._parts if tracker._parts is not None else no_parts, no_answer,
            tracker.MAX_CHANGED, boxes.MAX_LEAVES, boxes.LIMB_BITS, boxes.COMBINE_LIMIT,
        )  # fmt: skip
        if status == MINE_OPENED:
            cell = game.size.cell_at(int(self.moves[moves - 1]))
            raise RuntimeError(f"cell {cell} was certain to be safe, and it holds a mine")
        if changed:
            game.take_swept(self.values, self.changed[:changed])
        # the last position counted and its parts, as the tracker keeps them (none past a bound)
        tracker.keep(kept if has_parts else None, parts if has_parts else None, (height, width))
        return status, self.moves[:moves].tolist(), answer if status == GUESS else None

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
    game = Game("1x4", 1, "none", layout=np.array([[False, False, True, False]]))
    sweep = Sweep(game)
    sweep.took(game.open_id(0))
    sweep.settle(boxes.Tracker())  # the 1 flags the third cell, the analysis opens the fourth


__all__ = ["Sweep", "warm_up"]
