"""What the board explorer shows: each cell's look and the line under the board.

Plain text and colours from the position, its exact analysis and the player's advice, with no
widget: ``minelib.widgets.BoardExplorer`` draws them on its buttons, and tests read them
without a browser.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from minelib.analysis import Analysis
from minelib.board import MINE, UNOPENED, Board, Cell
from minelib.game import LOST, Game
from minelib.moves import Move

# The classic colours of the numbers, so that a board reads at a glance.
NUMBER_COLOURS = {
    1: "#0000ff",
    2: "#008000",
    3: "#ff0000",
    4: "#000080",
    5: "#800000",
    6: "#008080",
    7: "#000000",
    8: "#808080",
}
LEGEND = (
    '<div style="display:flex;align-items:center;gap:6px;font-size:12px">mine probability (percent on each cell):'
    " 0% safe"
    '<span style="display:inline-block;width:160px;height:12px;'
    'background:linear-gradient(to right,#00ff60,#ffff60,#ff0060)"></span>'
    " 100% mine · <b>safe</b> / <b>M</b>: certain · → the player's advice · numbers "
    + " ".join(f'<b style="color:{colour}">{n}</b>' for n, colour in NUMBER_COLOURS.items())
    + "</div>"
)


class CellLook(NamedTuple):
    """How a cell's button looks: its text, background colour, tooltip and text colour."""

    text: str
    background: str
    tooltip: str
    ink: str = "#000000"


def _heat(p: Fraction) -> str:
    """A colour from green (safe) through yellow to red (mine) for a probability, in whole percents."""
    x = round(100 * float(p)) / 100  # a bounded palette: at most 101 shared styles
    red, green = (int(255 * min(1, 2 * x)), int(255 * min(1, 2 * (1 - x))))
    return f"#{red:02x}{green:02x}60"


class ExplorerLooks:
    """``BoardExplorer``'s looks, from the state it keeps (a mixin: these attributes are the explorer's)."""

    position: Board
    game: Game | None
    analysis: Analysis | None
    overlays: set[str]
    win_values: dict[Cell, Fraction]
    recommended: Move | None
    reason: str
    player_name: str
    message: str
    win_note: str

    def cell_look(self, cell: Cell) -> CellLook:
        """How the button of ``cell`` looks: text, background, tooltip, text colour."""
        value = int(self.position.values[cell])
        game = self.game
        if game is not None and game.over and value == UNOPENED and game.layout()[cell]:
            return CellLook("*", "#e04040" if game.status == LOST else "#a0a0a0", "mine")
        if value >= 0:
            return CellLook(
                str(value) if value else "", "#eeeeee", f"{cell}: opened, {value}", NUMBER_COLOURS.get(value, "#000000")
            )
        text = "F" if value == MINE else ""
        colour, tips = "#c8c8c8", [f"{cell}"]
        p = self.analysis.probability(cell) if self.analysis is not None else None
        if p is not None and value == UNOPENED:
            tips.append(f"mine probability {p} = {float(p):.1%}")
            if "probabilities" in self.overlays:
                colour = _heat(p)
                text = f"{round(100 * float(p))}"
            if "certain" in self.overlays and p in (0, 1):
                text = "safe" if p == 0 else "M"
        if cell in self.win_values:
            tips.append(f"win probability {self.win_values[cell]} = {float(self.win_values[cell]):.1%}")
        if self.recommended is not None and self.recommended.cell == cell:
            text = "→" + text if self.recommended.kind == "open" else "⚑"
            why = f" ({self.reason})" if self.reason else ""
            tips.append(f"{self.player_name} recommends: {self.recommended.kind}{why}")
        return CellLook(text, colour, "; ".join(tips))

    def status_text(self) -> str:
        """The line under the board: the message, the layout count, the certain cells, the advice."""
        parts = [self.message] if self.message else []
        if self.analysis is not None:
            parts.append(f"{self.analysis.count:,} consistent layouts")
            if "certain" in self.overlays:
                safe, mines = len(self.analysis.certain_safe), len(self.analysis.certain_mines)
                parts.append(f"{safe} certainly safe, {mines} certainly mines")
        if self.recommended is not None:
            r = self.recommended
            how = "certain" if r.certain else f"mine probability {r.mine_probability}"
            how += f": {self.reason}" if self.reason else ""
            parts.append(f"{self.player_name} recommends {r.kind} {r.cell} ({how})")
        if self.win_note:
            parts.append(self.win_note)
        if self.win_values:
            best = max(self.win_values.values())
            cells = [c for c, v in self.win_values.items() if v == best]
            parts.append(f"best win probability {best} = {float(best):.2%} at {' '.join(map(str, cells))}")
        return " · ".join(parts)


__all__ = ["LEGEND", "NUMBER_COLOURS", "CellLook", "ExplorerLooks"]
