"""A player's exact win probability over every layout (``player_value``) against two slow references:
every layout played as a game, and plain minimax standing in as the player."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from minelib import player_value as pv
from minelib.board import BoardSize
from minelib.game import Game, check_rule
from minelib.moves import Move
from minelib.optimal import solve
from minelib.oracles import minimax_first_moves, minimax_position
from minelib.player_value import allowed_layouts, player_value
from minelib.players import make_player


def played(player, size: str, mines: int, rule: str, first) -> tuple[int, int]:
    """Every layout the rule allows played as a game: (won, layouts)."""
    size = BoardSize.of(size)
    layouts = allowed_layouts(size, mines, rule, size.cell_id(first))
    won = 0
    for layout in layouts:
        game = Game(size, mines, "none", layout=layout.reshape(size.height, size.width))._with_rule(rule)
        won += player.play(game, first).won
    return won, len(layouts)


@pytest.mark.parametrize(
    "name, options, size, mines, rule, first",
    [
        ("twostep", "", "4x5", 5, "zero", (1, 1)),
        ("twostep", "endgame_compiled=0,endgame_layouts=0", "4x4", 5, "safe", (0, 0)),
        ("twostep", "endgame_compiled=0,endgame_layouts=0,deep=0", "3x5", 5, "none", (0, 0)),
        ("safest", "", "3x4", 5, "safe", (1, 2)),
        ("lookahead", "", "3x4", 4, "none", (2, 3)),
    ],
)
def test_the_value_is_what_every_layout_played_as_a_game_wins(name, options, size, mines, rule, first):
    player = make_player(name, options)
    value = player_value(player, size, mines, rule, first)
    assert (value.wins, value.layouts) == played(player, size, mines, rule, first)
    assert value.probability == Fraction(value.wins, value.layouts)
    assert value.guesses > 0


@settings(max_examples=12, deadline=None)
@given(
    height=st.integers(2, 4),
    width=st.integers(3, 4),
    data=st.data(),
)
def test_random_boards_agree_with_the_games(height, width, data):
    cells = height * width
    rule = data.draw(st.sampled_from(["none", "safe", "zero"]))
    first = (data.draw(st.integers(0, height - 1)), data.draw(st.integers(0, width - 1)))
    mines = data.draw(st.integers(1, cells - 1))
    try:
        check_rule(BoardSize(height, width), mines, rule)
    except ValueError:  # more mines than the rule leaves room for (a zero's 3x3 may take the whole board)
        assume(False)
    player = make_player("safest")
    value = player_value(player, f"{height}x{width}", mines, rule, first)
    assert (value.wins, value.layouts) == played(player, f"{height}x{width}", mines, rule, first)


class Minimax:
    """Plain minimax as a player: in each position, a cell of the best exact value (``oracles``)."""

    def recommend(self, board, mines):
        values = minimax_position(board, mines)
        cell = max(sorted(values), key=values.__getitem__)
        return Move("open", cell, False, None)


@pytest.mark.parametrize(
    "size, mines, rule, first",
    [("3x3", 2, "safe", (0, 0)), ("3x3", 3, "none", (1, 1)), ("3x4", 3, "safe", (0, 1)), ("3x4", 2, "zero", (1, 1))],
)
def test_with_minimax_as_the_player_the_value_is_optimal_play(size, mines, rule, first):
    """The tree's own mechanics (the rule's layouts, a zero's neighbours and every certain cell taken before a guess)
    against minimax, which has none of them: optimal play loses nothing by opening safe cells first."""
    value = player_value(Minimax(), size, mines, rule, first)
    assert value.probability == minimax_first_moves(BoardSize.of(size), mines, rule)[first]


@pytest.mark.parametrize(
    "name, options, size, mines, rule, first",
    [
        ("safest", "", "3x4", 4, "safe", (0, 0)),
        ("lookahead", "", "3x4", 3, "none", (1, 1)),
        ("twostep", "endgame_compiled=0,endgame_layouts=0", "3x5", 4, "safe", (0, 0)),
    ],
)
def test_the_regrets_sum_to_the_distance_from_optimal_play(name, options, size, mines, rule, first):
    value = player_value(make_player(name, options), size, mines, rule, first, regrets=True)
    optimal = solve(size, mines, rule).move_values[first]  # (checked against minimax in test_optimal.py)
    assert value.regrets and value.lost() > 0  # the heuristic loses something here
    assert value.probability + value.lost() == optimal
    weights = [r.layouts * r.regret for r in value.regrets]
    assert weights == sorted(weights, reverse=True) and all(r.regret > 0 for r in value.regrets)


def test_the_layouts_are_those_the_rule_allows_each_once():
    size = BoardSize(3, 4)
    for rule, banned in (("none", set()), ("safe", {5}), ("zero", {0, 1, 2, 4, 5, 6, 8, 9, 10})):
        layouts = allowed_layouts(size, 2, rule, 5)
        assert len({row.tobytes() for row in layouts}) == len(layouts)
        assert (layouts.sum(axis=1) == 2).all()
        assert not layouts[:, sorted(banned)].any() if banned else len(layouts) == 66
    assert len(allowed_layouts(size, 2, "zero", 5)) == 3  # 3 cells left outside the 3x3 around (1, 1)


def test_bad_input_is_named(monkeypatch):
    player = make_player("safest")
    with pytest.raises(ValueError, match="do not fit"):
        player_value(player, "3x3", 9, "safe")
    with pytest.raises(ValueError, match="rule"):
        player_value(player, "3x3", 2, "sure")
    with pytest.raises(ValueError, match="outside the 3x3 board"):
        player_value(player, "3x3", 2, "safe", (3, 0))
    monkeypatch.setattr(pv, "MAX_LAYOUTS", 100)
    with pytest.raises(ValueError, match="more than the 100 listed"):
        player_value(player, "4x4", 3, "safe")


def test_a_player_that_makes_a_certain_move_at_a_guess_is_refused():
    class Certain:
        def recommend(self, board, mines):
            return Move("open", tuple(np.argwhere(board.values == -1)[0]), True, Fraction(0))

    with pytest.raises(AssertionError, match="certain move"):
        player_value(Certain(), "3x3", 2, "safe")
