"""The compiled one-number rules (minelib.sweep) against a slow reference on the game engine."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minelib.board import MINE, UNOPENED, BoardSize
from minelib.game import Game, neighbour_ids
from minelib.sweep import Sweep


def _settles(values: list[int], around: tuple[int, ...], c: int) -> tuple[str, list[int]] | None:
    hidden = [n for n in around if values[n] == UNOPENED]
    need = values[c] - sum(values[n] == MINE for n in around)
    if hidden and need == 0:
        return "open", hidden
    if hidden and need == len(hidden):
        return "flag", hidden
    return None


def _reference(game: Game) -> None:
    """Every number scanned again and again, its settled cells played through ``Game``, to a fixed point."""
    ids = neighbour_ids(game.size)
    changed = True
    while changed and not game.over:
        changed = False
        for c in range(game.size.n_cells):
            found = _settles(game._values, ids[c], c) if game._values[c] > 0 else None
            if found:
                kind, cells = found
                for n in cells:
                    if game._values[n] == UNOPENED and not game.over:
                        game.open_id(n) if kind == "open" else game.flag_id(n)
                changed = True


@st.composite
def games(draw):
    height, width = draw(st.integers(1, 7)), draw(st.integers(2, 7))
    n = height * width
    mines = draw(st.integers(0, n - 1))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    layout = np.zeros(n, bool)
    layout[rng.choice(n, mines, replace=False)] = True
    first = int(rng.choice(np.flatnonzero(~layout)))
    return layout.reshape(height, width), first


@settings(max_examples=300, deadline=None)
@given(games())
def test_a_sweep_reaches_the_reference_fixed_point_and_its_moves_replay(case):
    layout, first = case
    fast, slow, replay = (Game(BoardSize(*layout.shape), int(layout.sum()), "none", layout=layout) for _ in range(3))
    sweep = Sweep(fast)
    sweep.took(fast.open_id(first))
    moves = sweep.run() if fast.status == "playing" else []
    slow.open_id(first)
    _reference(slow)
    assert (fast.status, fast.opened) == (slow.status, slow.opened)
    if fast.status == "won":  # the last cell may open before or after a flag: flags may differ
        assert [max(v, UNOPENED) for v in fast._values] == [max(v, UNOPENED) for v in slow._values]
    else:
        assert fast._values == slow._values and fast.flags == slow.flags
    assert sweep.values.tolist() == fast._values  # the arrays the next sweep starts from
    assert sweep.board() == fast.board
    replay.open_id(first)
    for move in moves:  # each move is a cell still unopened: opened safe, or flagged a mine
        cell = move if move >= 0 else ~move
        assert replay._values[cell] == UNOPENED
        assert bool(layout.ravel()[cell]) == (move < 0)
        replay.open_id(cell) if move >= 0 else replay.flag_id(cell)
    assert replay._values == fast._values
    if fast.status == "playing":  # nothing is left that one number settles
        sweep.took(range(fast.size.n_cells))
        assert sweep.first() == []


def test_first_reports_one_settled_number_without_playing():
    game = Game.from_picture("..*.")  # opened: 0 1 . .  the 1 has one unopened neighbour, a mine
    sweep = Sweep(game)
    sweep.took(game.open_id(0))
    before = list(game._values)
    assert sweep.first() == [~2]
    assert game._values == before and sweep.first() == []  # nothing played; the number left the queue
    sweep.took([1])
    assert sweep.run() == [~2]
    assert game._values[2] == MINE and game.flags == 1 and game.status == "playing"


def test_a_flag_in_the_wrong_place_is_caught_not_played_on():
    # the player flags a safe cell: the 1 beside it then "settles" a mine as safe
    game = Game.from_picture("...\n.*.\n...")
    game.open_id(0)  # a 1
    game.flag_id(1)  # wrong: (0, 1) is safe
    sweep = Sweep(game)
    sweep.took([0, 1])
    with pytest.raises(RuntimeError, match=r"declared cell \(1, 1\) safe"):
        sweep.run()


def test_the_game_refuses_a_change_no_move_can_make():
    game = Game.from_picture("...\n.*.\n...")
    game.open_id(0)
    values = np.array(game._values, np.int8)
    values[4] = 1  # the mine shown as a number
    with pytest.raises(ValueError, match=r"may not change cell \(1, 1\) to 1"):
        game.take_swept(values, [4])
    values[4], values[8] = UNOPENED, 2  # a wrong number
    with pytest.raises(ValueError, match=r"may not change cell \(2, 2\) to 2"):
        game.take_swept(values, [8])
