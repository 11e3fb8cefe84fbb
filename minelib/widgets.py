"""An interactive board explorer for notebooks (ipywidgets).

``BoardExplorer()`` shows a board of buttons with controls. It holds no game
logic: the game is a ``minelib.game.Game``, the overlays come from
``minelib.analyze`` (exact mine probabilities, certain cells, layout count), the
chosen player's ``recommend`` and, on small boards, ``minelib.optimal`` (the
exact win probability of every move). Every action is a method
(``click``, ``open``, ``flag``, ``set_cell``, ``undo``, ``new_game``,
``set_mode``, ``show``) so tests drive it without a browser.

Two modes: *play* (a seeded game; click opens, or flags with the flag tool) and
*edit* (click sets the cell to the chosen value: unopened, a number 0-8 or a
flag, to enter a position from a real game).

Every widget is a comm channel, and every change of one is a message on the
kernel's IOPub socket, which drops messages past 1,000 queued (ZeroMQ's
high-water mark) when the front end falls behind, as it does on a busy machine:
a dropped "idle" status leaves the front end (or nbval) waiting. So the board
costs one message per button when it is built (each button is created with its
look; all share one Layout, and buttons of one colour one ButtonStyle), and a
redraw one message per button whose look changed (``hold_sync``).
"""

from __future__ import annotations

import copy
import threading
from fractions import Fraction

import ipywidgets as w

from minelib.analysis import Analysis, Analyzer, ImpossiblePosition
from minelib.board import MINE, UNOPENED, Board, BoardSize, Cell
from minelib.game import FIRST_CLICK_RULES, LOST, WON, Game, check_first_click
from minelib.looks import LEGEND, NUMBER_COLOURS, CellLook, ExplorerLooks
from minelib.optimal import POSITION_CELLS, OptimalSolver
from minelib.players import PLAYERS, STRONGEST, Move, check_player, explain

EDIT_VALUES = {"unopened": UNOPENED, "flag": MINE, **{str(n): n for n in range(9)}}
OVERLAYS = ("probabilities", "certain", "recommended", "win probabilities")
WIN_OVERLAY_LAYOUTS = 2_000  # the win-probability overlay runs on positions with at most this many layouts
CELL_SIZE = "30px"


class BoardExplorer(ExplorerLooks):
    """A board to play or edit, with exact overlays; ``BoardExplorer()`` in a notebook cell shows it.

    With ``position`` (a Board or board text) it opens in edit mode on that position
    (its size replaces ``size``); otherwise on a new seeded game.
    """

    def __init__(
        self,
        size: BoardSize | str = "9x9",
        mines: int = 10,
        first_click: str = "zero",
        seed: int = 0,
        player: str = STRONGEST,
        overlays=("probabilities", "certain"),
        position: Board | str | None = None,
    ):
        check_player(player)
        check_first_click(first_click)  # (else the rule's control would refuse it with a TraitError)
        self.size, self.mines = BoardSize.of(size), mines
        self.player_name, self.overlays = player, set(overlays)
        self._analyzer: Analyzer | None = None
        self.buttons: dict[Cell, w.Button] = {}
        self._look: dict[Cell, tuple] = {}
        self._cell_layout = w.Layout(width=CELL_SIZE, height=CELL_SIZE, padding="0")
        self._styles: dict[tuple[str, str], w.ButtonStyle] = {}
        self._grid_size: BoardSize | None = None
        self._silent = False  # set while the mode control is moved from code
        self.game: Game | None = None
        self.position: Board = Board.unopened(self.size)
        self.analysis: Analysis | None = None
        self.recommended: Move | None = None
        self.reason = ""  # what decided the recommended move (``minelib.players.explain``)
        self.win_values: dict[Cell, Fraction] = {}
        self.message = self.win_note = ""
        self.history: list = []
        self._cancel = threading.Event()
        self._build_controls(first_click, seed)
        self.legend = w.HTML(LEGEND)
        self.widget = w.VBox([self.controls, self.grid_box, self.status, self.legend])
        if position is None:
            self.new_game()
        else:
            self.set_position(position, mines)
            self.history = []

    def _repr_mimebundle_(self, **kwargs):
        """The live widget, and as plain text the position and the status line (what a saved notebook shows)."""
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = f"{self.position.to_text()}\n{self.status_text()}"
        return bundle

    # --- layout ----------------------------------------------------------------------

    def _build_controls(self, first_click: str, seed: int) -> None:
        self.mode_control = w.ToggleButtons(options=["play", "edit"], value="play", description="mode")
        self.tool_control = w.ToggleButtons(options=["open", "flag"], value="open", description="click")
        self.value_control = w.Dropdown(options=list(EDIT_VALUES), value="1", description="set to")
        self.size_control = w.Text(value=str(self.size), description="size", layout=w.Layout(width="140px"))
        self.mines_control = w.IntText(value=self.mines, description="mines", layout=w.Layout(width="140px"))
        self.rule_control = w.Dropdown(options=list(FIRST_CLICK_RULES), value=first_click, description="first click")
        self.seed_control = w.IntText(value=seed, description="seed", layout=w.Layout(width="140px"))
        self.new_button = w.Button(description="new game", icon="refresh")
        self.undo_button = w.Button(description="undo", icon="undo")
        self.stop_button = w.Button(description="stop", icon="stop", disabled=True)
        self.progress = w.IntProgress(value=0, min=0, max=1, description="win prob.", layout=w.Layout(width="260px"))
        self.overlay_controls = {
            name: w.Checkbox(value=name in self.overlays, description=name, indent=False) for name in OVERLAYS
        }
        self.player_control = w.Dropdown(options=list(PLAYERS), value=self.player_name, description="player")
        self.mode_control.observe(lambda change: self.set_mode(change["new"]), names="value")
        self.new_button.on_click(lambda _: self.new_game())
        self.undo_button.on_click(lambda _: self.undo())
        self.stop_button.on_click(lambda _: self._cancel.set())
        self.player_control.observe(lambda change: self._set_player(change["new"]), names="value")
        for name, box in self.overlay_controls.items():
            box.observe(lambda change, name=name: self.show(name, change["new"]), names="value")
        self.controls = w.VBox(
            [
                w.HBox([self.mode_control, self.tool_control, self.value_control]),
                w.HBox(
                    [
                        self.size_control,
                        self.mines_control,
                        self.rule_control,
                        self.seed_control,
                        self.new_button,
                        self.undo_button,
                    ]
                ),
                w.HBox([*self.overlay_controls.values(), self.player_control]),
                w.HBox([self.progress, self.stop_button]),
            ]
        )
        self.status = w.HTML()
        self.status.add_class("minelib-status")
        self.grid_box = w.GridBox(layout=w.Layout(grid_gap="1px"))

    def _build_grid(self) -> None:
        """One button per cell, each created with its look (one message apiece); old buttons are closed."""
        for button in self.buttons.values():
            button.close()
        self.buttons, self._look = {}, {}
        for cell in self.size.cells():
            look = self._look[cell] = self.cell_look(cell)
            button = w.Button(
                description=look.text or "\u00a0",
                tooltip=look.tooltip,
                style=self._style(look.background, look.ink),
                layout=self._cell_layout,
                _dom_classes=("minelib-cell",),
            )
            button.on_click(lambda _, cell=cell: self.click(cell))
            self.buttons[cell] = button
        self.grid_box.children = list(self.buttons.values())
        self._grid_size = self.size
        self.grid_box.layout.grid_template_columns = f"repeat({self.size.width}, {CELL_SIZE})"

    def _style(self, background: str, ink: str) -> w.ButtonStyle:
        """The shared style of every button of these colours."""
        style = self._styles.get((background, ink))
        if style is None:
            style = self._styles[background, ink] = w.ButtonStyle(button_color=background, text_color=ink)
        return style

    # --- actions ---------------------------------------------------------------------

    def new_game(self) -> None:
        """A new seeded game with the size, mines, rule and seed in the controls."""
        try:
            size = BoardSize.parse(self.size_control.value)
            game = Game(size, self.mines_control.value, self.rule_control.value, seed=self.seed_control.value)
        except ValueError as error:
            self._say(f"cannot start: {error}")
            return
        self.size, self.mines, self.game, self.history = size, game.mines, game, []
        self.position = game.board
        self.mode_control.value = "play"
        self._update(f"new game: {size} with {game.mines} mines, first click rule '{game.first_click}'")

    def set_mode(self, mode: str) -> None:
        """``play`` (starts a new game) or ``edit`` (edits the position shown)."""
        if mode not in ("play", "edit"):
            raise ValueError(f"unknown mode {mode!r}")
        if self._silent:
            return
        if self.mode_control.value != mode:
            self.mode_control.value = mode  # calls back here
            return
        if mode == "play":
            if self.game is None or self.game.board != self.position:
                self.new_game()
            return
        self.game, self.history = None, []
        self._update("edit mode: click a cell to set it to the value chosen")

    def click(self, cell: Cell) -> None:
        """What a click on ``cell`` does in the current mode and tool."""
        if self.mode_control.value == "edit":
            self.set_cell(cell, EDIT_VALUES[self.value_control.value])
        elif self.tool_control.value == "flag":
            self.flag(cell)
        else:
            self.open(cell)

    def open(self, cell: Cell) -> None:
        """Open ``cell`` in the game."""
        self._play(lambda game: game.open(cell))

    def flag(self, cell: Cell) -> None:
        """Toggle a flag on ``cell`` in the game."""
        self._play(lambda game: game.flag(cell))

    def _play(self, move) -> None:
        if self.game is None:
            self._say("no game: switch to play mode")
            return
        before = copy.deepcopy(self.game)
        try:
            move(self.game)
        except ValueError as error:
            self._say(str(error))
            return
        self.history.append(before)
        self.position = self.game.board
        text = {WON: "won!", LOST: "lost: that was a mine"}.get(self.game.status, "")
        self._update(text)

    def set_cell(self, cell: Cell, value: int) -> None:
        """Edit mode: set ``cell`` to UNOPENED, MINE (a flag) or a number 0-8."""
        if self.mode_control.value != "edit":
            self.set_mode("edit")
        try:
            edited = self.position.with_value(cell, value)
        except ValueError as error:
            self._say(f"cannot set {cell}: {error}")
            return
        self.history.append(self.position)
        self.position = edited
        self._update("")

    def set_position(self, board: Board | str, mines: int) -> None:
        """Edit mode: show a whole position (board text or Board) with ``mines`` mines in all."""
        board = Board.from_text(board) if isinstance(board, str) else board
        if self.mode_control.value != "edit":  # no redraw of the old position on the way
            self._silent = True
            try:
                self.mode_control.value = "edit"
            finally:
                self._silent = False
            self.game, self.history = None, []
        self.history.append(self.position)
        self.size, self.position, self.mines = board.size, board, mines
        self.mines_control.value = mines
        self._update("")

    def undo(self) -> None:
        """Take back the last move or edit."""
        if not self.history:
            self._say("nothing to undo")
            return
        last = self.history.pop()
        if isinstance(last, Game):
            self.game, self.position = last, last.board
        else:
            self.position = last
        self.size = self.position.size
        self._update("undone")

    def show(self, overlay: str, on: bool = True) -> None:
        """Switch an overlay on or off: one of ``OVERLAYS``."""
        if overlay not in OVERLAYS:
            raise ValueError(f"unknown overlay {overlay!r} (expected one of {', '.join(OVERLAYS)})")
        (self.overlays.add if on else self.overlays.discard)(overlay)
        if self.overlay_controls[overlay].value != on:
            self.overlay_controls[overlay].value = on
        self._update(self.message)

    def _set_player(self, name: str) -> None:
        self.player_name = name
        self._update(self.message)

    # --- what is shown ---------------------------------------------------------------

    def _update(self, message: str) -> None:
        """Recompute the overlays for the position and redraw what changed."""
        self.message, self.analysis, self.recommended, self.win_values = message, None, None, {}
        self.reason = ""
        self.win_note = ""
        over = self.game is not None and self.game.over
        if not over and self.position.unopened_cells():
            try:
                if self._analyzer is None or self._analyzer.mines != self.mines:
                    self._analyzer = Analyzer(self.mines)  # follows the position: a click recounts its region
                self.analysis = self._analyzer.analyze(self.position)
            except (ImpossiblePosition, ValueError) as error:
                self.message = f"impossible position: {error}"
        if self.analysis is not None and "recommended" in self.overlays and self._started():
            advice = explain(PLAYERS[self.player_name](), self.position, self.mines)
            self.recommended, self.reason = advice.move, advice.reason
        if self.analysis is not None and "win probabilities" in self.overlays and self._started():
            self.compute_win_probabilities(background=False)
        self._redraw()

    def _started(self) -> bool:
        return self.game is None or self.game.first is not None

    def compute_win_probabilities(self, background: bool = True) -> None:
        """The exact win probability of every move (optimal play after it), if the position is small enough.

        Runs cell by cell with a progress bar; ``stop`` (or ``self._cancel``) ends it early, keeping the
        cells done. In the background, the board is redrawn as values arrive.
        """
        if self.analysis is None:
            return
        if self.analysis.count > WIN_OVERLAY_LAYOUTS or self.size.n_cells > POSITION_CELLS:
            self.win_note = f"win probabilities need at most {WIN_OVERLAY_LAYOUTS:,} layouts and {POSITION_CELLS} cells"
            return
        cells = self.position.unopened_cells()
        self.progress.max, self.progress.value = len(cells), 0
        self._cancel.clear()
        self.stop_button.disabled = False
        position, mines = self.position, self.mines

        def work():
            solver = OptimalSolver(position.size, mines, engine="python", symmetry=False)
            for cell, value in solver.move_values(position):
                if self._cancel.is_set() or position != self.position:
                    break
                self.win_values[cell] = value
                self.progress.value += 1
                if background:
                    self._redraw()
            self.stop_button.disabled = True

        if background:
            threading.Thread(target=work, daemon=True).start()
        else:
            work()

    def _redraw(self) -> None:
        """Update the buttons whose look changed, one message each (the grid is rebuilt on a new size)."""
        if self._grid_size != self.size:
            self._build_grid()
        for cell, button in self.buttons.items():
            look = self.cell_look(cell)
            if self._look.get(cell) != look:
                with button.hold_sync():
                    button.description = look.text or "\u00a0"  # the browser keeps the old text for an empty one
                    button.style, button.tooltip = self._style(look.background, look.ink), look.tooltip
                self._look[cell] = look
        self.status.value = self.status_text()

    def _say(self, message: str) -> None:
        self.message = message
        self.status.value = self.status_text()


__all__ = [
    "CELL_SIZE",
    "EDIT_VALUES",
    "LEGEND",
    "NUMBER_COLOURS",
    "OVERLAYS",
    "WIN_OVERLAY_LAYOUTS",
    "BoardExplorer",
    "CellLook",
]
