"""The compiled one-number rules (minelib.sweep) against a slow reference on the game engine."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minelib import boxes, sweep
from minelib.analysis import Analyzer, analyze
from minelib.board import MINE, UNOPENED, BoardSize
from minelib.game import Game, neighbour_ids
from minelib.players import make_player
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


def python_settle(self: Sweep, tracker: boxes.Tracker) -> tuple[int, list[int], None]:
    """``Sweep.settle`` the slow way, as the player played before it: the sweep, then each certain
    move of the exact analysis (counted in Python past the compiled bounds) through the game; no
    compiled answer (the player counts the position again)."""
    game, analyzer = self.game, Analyzer(self.game.mines)
    analyzer._tracker = tracker
    moves: list[int] = []
    while True:
        moves += self.run()
        if game.status != "playing":
            return sweep.DONE, moves, None
        result = analyzer.analyze(self.board())
        certain = [~game.size.cell_id(c) for c in result.certain_mines]
        certain += [game.size.cell_id(c) for c in result.certain_safe]
        if not certain:
            return sweep.GUESS, moves, None
        for move in certain:
            c = move if move >= 0 else ~move
            if game._values[c] != UNOPENED:  # opened by a region before its turn
                continue
            moves.append(move)
            if move < 0:
                game.flag_id(c)
                self.took([c])
            else:
                self.took(game.open_id(c))
            if game.status != "playing":
                return sweep.DONE, moves, None


@settings(max_examples=300, deadline=None)
@given(games())
def test_settle_plays_the_moves_of_the_sweep_and_the_exact_analysis_in_turn(case):
    layout, first = case
    fast, slow = (Game(BoardSize(*layout.shape), int(layout.sum()), "none", layout=layout) for _ in range(2))
    found = []
    for game, settle in ((fast, Sweep.settle), (slow, python_settle)):
        swept = Sweep(game)
        swept.took(game.open_id(first))
        found.append(settle(swept, boxes.Tracker()) if game.status == "playing" else (sweep.DONE, [], None))
    assert found[0][:2] == found[1][:2]
    assert (fast.status, fast.opened, fast.flags, fast._values) == (slow.status, slow.opened, slow.flags, slow._values)
    answer = found[0][2]
    assert (answer is not None) == (found[0][0] == sweep.GUESS)
    if answer is not None:  # the count of the position where a guess is due, as analysed afresh
        board, mines = fast.board, fast.mines
        assert Analyzer(mines).counted(board, answer) == analyze(board, mines)


@pytest.mark.parametrize("limits", [{}, {"COMBINE_LIMIT": 64}, {"MAX_LEAVES": 1}], ids=["fused", "combination", "dp"])
def test_a_player_on_settle_plays_every_move_as_on_the_slow_way(limits, monkeypatch):
    """Whole expert games: the same moves with ``settle`` as with ``python_settle``, also where the
    compiled analysis passes a bound (a product past the limit, an enumeration past its budget) and
    leaves the position to the player's analysis in Python."""
    for name, value in limits.items():
        monkeypatch.setattr(boxes, name, value)
    statuses = []

    def spy(*args):
        answer = settle(*args)
        statuses.append(answer[0])
        return answer

    settle = sweep._settle
    monkeypatch.setattr(sweep, "_settle", spy)
    logs = []
    for way in (Sweep.settle, python_settle):
        monkeypatch.setattr(Sweep, "settle", way)
        player = make_player("safest")
        games = [Game("16x30", 99, "safe", seed=seed) for seed in range(6)]
        logs.append([player.play(game, (0, 0), log=True).moves for game in games])
    assert logs[0] == logs[1]
    assert sweep.GUESS in statuses and (sweep.IN_PYTHON in statuses) == bool(limits)
