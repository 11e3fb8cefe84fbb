"""The board explorer driven headless: buttons clicked, traits changed, overlays checked."""

from fractions import Fraction

import numpy as np
import pytest

from minelib.analysis import analyze
from minelib.board import Board, BoardSize
from minelib.optimal import OptimalSolver
from minelib.problems import midgame_positions
from minelib.widgets import BoardExplorer


def test_clicking_a_button_opens_the_cell_and_shows_probabilities():
    explorer = BoardExplorer("9x9", 10, seed=1)
    assert len(explorer.buttons) == 81
    explorer.buttons[4, 4].click()
    assert explorer.game.first == (4, 4) and explorer.position.values[4, 4] == 0
    analysis = analyze(explorer.position, 10)
    assert f"{analysis.count:,} consistent layouts" in explorer.status.value
    for cell in explorer.position.unopened_cells():
        p = analysis.probability(cell)
        button = explorer.buttons[cell]
        assert f"mine probability {p} " in button.tooltip
        if p not in (0, 1):
            assert button.description == f"{round(100 * float(p))}"
        else:
            assert button.description == ("safe" if p == 0 else "M")


def test_flag_tool_undo_and_new_game():
    explorer = BoardExplorer("9x9", 10, seed=1)
    explorer.click((4, 4))
    cell = explorer.position.unopened_cells()[0]
    explorer.tool_control.value = "flag"
    explorer.buttons[cell].click()
    assert explorer.position.values[cell] == -10 and explorer.buttons[cell].description.startswith("F")
    explorer.undo_button.click()
    assert explorer.position.values[cell] == -1
    explorer.undo()
    assert explorer.game.first is None and "undone" in explorer.status.value
    explorer.undo()
    assert "nothing to undo" in explorer.status.value
    explorer.size_control.value, explorer.mines_control.value = "4x5", 3
    explorer.new_button.click()
    assert len(explorer.buttons) == 20 and explorer.game.mines == 3


def test_losing_and_winning_are_announced():
    explorer = BoardExplorer("5x5", 3, seed=2)
    explorer.click((2, 2))
    mine = next(c for c in explorer.position.unopened_cells() if explorer.game.layout()[c])
    explorer.click(mine)
    assert "lost" in explorer.status.value and explorer.buttons[mine].description == "*"
    explorer.undo()
    for cell in explorer.position.unopened_cells():
        if not explorer.game.layout()[cell] and not explorer.game.over:
            explorer.click(cell)
    assert "won" in explorer.status.value


def test_bad_input_shows_a_message_not_a_traceback():
    explorer = BoardExplorer("9x9", 10)
    explorer.size_control.value = "9 by 9"
    explorer.new_game()
    assert "cannot start" in explorer.status.value
    explorer.set_position("1..\n...", 1)
    explorer.value_control.value = "3"
    explorer.buttons[1, 0].click()  # a 3 next to a 1 with one mine in all
    assert "impossible position" in explorer.status.value
    explorer.set_cell((1, 2), 5)  # more than its neighbours
    assert "cannot set (1, 2)" in explorer.status.value
    with pytest.raises(ValueError, match="unknown overlay"):
        explorer.show("x-ray")
    explorer.set_cell((-1, 0), 1)  # not (1, 0), the last row's
    assert "cannot set (-1, 0): cell (-1, 0) is outside the 2x3 board" in explorer.status.value
    with pytest.raises(ValueError, match="unknown first-click rule 'corner'"):
        BoardExplorer("9x9", 10, first_click="corner")


def test_edit_mode_overlays_recommendation_and_win_probabilities():
    explorer = BoardExplorer("9x9", 10)
    position = Board.from_text("1..\n...\n...")
    explorer.set_position(position, 2)
    explorer.overlay_controls["recommended"].value = True
    explorer.overlay_controls["win probabilities"].value = True
    expected = OptimalSolver(position.size, 2).position(position)
    assert explorer.win_values == expected.move_values
    assert f"best win probability {expected.probability}" in explorer.status.value
    move = explorer.recommended
    assert move is not None and explorer.buttons[move.cell].description.startswith("→")
    explorer.overlay_controls["probabilities"].value = False
    cell = (2, 2)
    assert (
        explorer.buttons[cell].description in ("\u00a0", "→")
        and f"mine probability {analyze(position, 2).probability(cell)}" in explorer.buttons[cell].tooltip
    )


def test_win_probabilities_are_refused_on_big_positions():
    explorer = BoardExplorer("16x30", 99, seed=3)
    explorer.click((8, 15))
    explorer.show("win probabilities")
    assert "win probabilities need at most" in explorer.status.value and not explorer.win_values


def test_only_changed_buttons_are_updated():
    explorer = BoardExplorer("16x30", 99, seed=3)
    explorer.click((8, 15))
    changes = []
    for button in explorer.buttons.values():
        button.observe(lambda change: changes.append(change), names="description")
    explorer._redraw()
    assert changes == []
    explorer.tool_control.value = "flag"
    explorer.click(explorer.position.unopened_cells()[0])
    assert 0 < len(changes) < 480


def test_switching_player_changes_the_advice_source():
    explorer = BoardExplorer("9x9", 10, seed=5, overlays=("recommended",))
    explorer.click((4, 4))
    explorer.player_control.value = "zdd"
    assert explorer.player_name == "zdd" and "zdd recommends" in explorer.status.value
    assert isinstance(explorer.recommended.mine_probability, Fraction)
    assert explorer.reason == ""  # the ZDD player gives no reason


def test_the_advice_says_what_decided_it():
    from minelib.players import TwoStepPlayer

    position = "......\n......\n..1...\n......\n......\n......"  # 645,840 layouts: no exact endgame
    explorer = BoardExplorer(position=position, mines=6, overlays=("recommended",))
    explained = TwoStepPlayer().explain(Board.from_text(position), 6)
    assert explained.reason == "second look" and explorer.recommended == explained.move
    assert f"twostep recommends open {explained.move.cell} (mine probability 1/8: second look)" in explorer.status.value
    assert "twostep recommends: open (second look)" in explorer.cell_look(explained.move.cell).tooltip


@pytest.fixture
def messages(monkeypatch):
    """Count the comm messages widgets send: opens (one per widget made) and state updates."""
    import comm
    import ipywidgets.widgets.widget as widget

    counts = {"open": 0, "update": 0}
    create, send = comm.create_comm, widget.Widget._send

    def counting_create(*args, **kwargs):
        counts["open"] += 1
        return create(*args, **kwargs)

    def counting_send(self, msg, buffers=None):
        counts["update"] += 1
        return send(self, msg, buffers)

    monkeypatch.setattr(comm, "create_comm", counting_create)
    monkeypatch.setattr(widget.Widget, "_send", counting_send)
    return counts


def test_an_expert_explorer_stays_far_below_the_iopub_high_water_mark(messages):
    # ZeroMQ drops IOPub messages past 1,000 queued when the front end lags (a busy machine),
    # the kernel's "idle" among them: one button per cell, built once, must be all it costs.
    board = midgame_positions(BoardSize(16, 30), 99, np.random.default_rng(3), guesses="frontier")[1]
    explorer = BoardExplorer(position=board, mines=99, overlays=("probabilities", "certain", "recommended"))
    assert explorer.size == BoardSize(16, 30) and len(explorer.buttons) == 480
    assert explorer.buttons[0, 0].layout is explorer.buttons[15, 29].layout
    assert sum(messages.values()) < 480 + 120
    messages.update(open=0, update=0)
    explorer.set_cell(board.number_cells()[0], 0)  # impossible: every probability goes
    explorer.undo()
    assert messages["open"] == 0 and messages["update"] < 2 * 480


def test_a_position_of_another_size_rebuilds_the_grid_and_undo_restores_it():
    explorer = BoardExplorer("9x9", 10, seed=1)
    explorer.set_position("1..\n...", 2)
    assert len(explorer.buttons) == 6 and explorer.buttons[0, 0].description == "1"
    explorer.undo()
    assert explorer.size == BoardSize(9, 9) and len(explorer.buttons) == 81
