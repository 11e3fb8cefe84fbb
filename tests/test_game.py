"""The game engine: rules, seeded layouts, opening regions, flags, fixed layouts."""

import numpy as np
import pytest

from minelib.board import MINE, UNOPENED, BoardSize, neighbour_sums
from minelib.game import Game, layout_picture, mines_for_density, neighbour_ids, parse_layout


@pytest.mark.parametrize("rule", ["zero", "safe", "none"])
def test_seeded_games_repeat_and_respect_the_rule(rule):
    size = BoardSize(9, 9)
    games = [Game(size, 30, rule, seed=3) for _ in range(2)]
    for game in games:
        game.open((4, 4))
    layout = games[0].layout()
    assert (layout == games[1].layout()).all() and layout.sum() == 30
    if rule == "zero":
        assert not layout[3:6, 3:6].any()
    if rule == "safe":
        assert not layout[4, 4]


def test_first_click_rules_hold_over_many_seeds():
    size = BoardSize(4, 4)
    for seed in range(200):
        game = Game(size, 7, "zero", seed=seed)
        opened = game.open((0, 0))
        assert opened and game.value((0, 0)) == 0
        game = Game(size, 15, "safe", seed=seed)
        game.open((2, 1))
        assert game.status == "won"


def test_opening_a_zero_opens_its_region_and_numbers_are_true():
    game = Game.from_picture("*...\n....\n....\n...*")
    opened = game.open((0, 3))
    numbers = neighbour_sums(game.layout())
    assert set(opened) == {c for c in game.size.cells() if c not in {(0, 0), (3, 3)}}
    assert all(game.value(c) == numbers[c] for c in opened)
    assert game.status == "won"


def test_a_region_opens_in_the_order_of_a_plain_stack():
    # the compiled region keeps the order of the stack it replaced (the ZDD player numbers its
    # variables in that order), and the numbers, flags and status of the plain engine
    rng = np.random.default_rng(5)
    for _ in range(200):
        size = BoardSize(int(rng.integers(1, 9)), int(rng.integers(2, 12)))
        layout = rng.random((size.height, size.width)) < rng.uniform(0, 0.3)
        start = int(rng.integers(size.n_cells))
        layout.ravel()[start] = False
        game = Game(size, int(layout.sum()), "none", layout=layout)
        numbers, ids = neighbour_sums(layout).ravel().tolist(), neighbour_ids(size)
        assert game._shown.tolist() == [MINE if m else k for m, k in zip(layout.ravel().tolist(), numbers)]
        values, expected, stack = [UNOPENED] * size.n_cells, [], [start]
        while stack:
            c = stack.pop()
            if values[c] == UNOPENED:
                values[c] = numbers[c]
                expected.append(c)
                if numbers[c] == 0:
                    stack.extend(n for n in ids[c] if values[n] == UNOPENED)
        assert game.open_id(start) == expected
        assert game._values == values and game.opened == len(expected)
        assert game.status == ("won" if len(expected) == size.n_cells - layout.sum() else "playing")


def test_losing_and_moves_after_the_end():
    game = Game.from_picture("*.\n..")
    game.open((0, 0))
    assert game.status == "lost"
    with pytest.raises(ValueError, match="game is over"):
        game.open((1, 1))


def test_flags_toggle_and_block_opening():
    game = Game.from_picture("*..\n...\n..*")
    assert game.flag((0, 0)) is True and game.value((0, 0)) == MINE and game.mines_left == 1
    with pytest.raises(ValueError, match="flagged"):
        game.open((0, 0))
    assert game.flag((0, 0)) is False and game.value((0, 0)) == UNOPENED
    game.open((1, 1))
    with pytest.raises(ValueError, match="open and cannot be flagged"):
        game.flag((1, 1))


def test_fixed_layout_checks_the_first_click_rule():
    game = Game.from_picture("*...\n....\n....", first_click="zero")
    assert (0, 1) not in game.first_click_cells() and (2, 3) in game.first_click_cells()
    with pytest.raises(ValueError, match="breaks the 'zero' rule"):
        game.open((0, 1))


@pytest.mark.parametrize(
    "args, message",
    [
        ((BoardSize(3, 3), 9, "zero"), "do not fit"),
        ((BoardSize(3, 3), 9, "safe"), "do not fit"),
        ((BoardSize(3, 3), 10, "none"), "do not fit"),
        ((BoardSize(3, 3), -1, "none"), "non-negative"),
        ((BoardSize(3, 3), 1, "lucky"), "unknown first-click rule"),
    ],
)
def test_bad_games_are_refused(args, message):
    with pytest.raises(ValueError, match=message):
        Game(*args)


@pytest.mark.parametrize("text, message", [("*.\n.", "row 1 has 1 cells"), ("*x", "unexpected 'x'"), ("", "empty")])
def test_bad_pictures_are_refused(text, message):
    with pytest.raises(ValueError, match=message):
        parse_layout(text)


def test_picture_round_trip_and_density():
    picture = "*..\n.*.\n..."
    assert layout_picture(parse_layout(picture)) == picture
    assert mines_for_density(BoardSize(16, 30), 0.2) == 96
    with pytest.raises(ValueError, match="density"):
        mines_for_density(BoardSize(3, 3), 1.5)


def test_a_shown_position_cannot_be_opened():
    from minelib.board import Board

    game = Game.showing(Board.from_text("1.\n.."), 1)
    with pytest.raises(ValueError, match="only shows a position"):
        game.open((1, 1))
    assert (game.values == Board.from_text("1.\n..").values).all()
