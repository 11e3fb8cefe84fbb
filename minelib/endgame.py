"""The exact endgame of a position on any board: the optimal solver's search on the cells that still matter.

A move's value depends only on the layouts seen on a position's *undecided* cells (unopened, and not a
mine in every layout) and on which of those touch which, so ``EndgameSearch`` searches a graph of those
cells alone (``layouts.CellGraph``) with the optimal solver's engines (``minelib.optimal``): the same
values as ``OptimalSolver.position``, on boards far too big for it. The players call it when few
layouts are left (``minelib.lookahead``), and ``guesses.guess_regrets`` measures their guesses with it.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import numpy as np

from minelib.analysis import analyze
from minelib.board import MINE, UNOPENED, Board, Cell
from minelib.game import neighbour_ids
from minelib.layouts import (
    CellGraph,
    Geometry,
    Layouts,
    check_layout_count,
    consistent_layouts,
    endgame_start,
    moved_bits,
)
from minelib.moves import at_least
from minelib.optimal import COMPILED_CELLS, Engine, make_engine

# An endgame search's memo: small, since a game's search is made afresh for every game. The searches of
# 1,000 games solve at most 5,108 states (20x20 with 20% mines) and 1,662 (expert), and none fills a memo
# of 20,000; one of 100,000 took 3% more of a 20x20 game's time, to make and to touch.
ENDGAME_STATES = 20_000
# But a search from tens of thousands of layouts fills it again and again (an expert position of 116,831
# layouts: 592,809 states solved and the memo cleared 44 times in 42 s; 148,144 states in 17 s with room for
# 400,000), so past ENDGAME_STATES / STATES_PER_LAYOUT layouts the memo grows with them, up to
# ENDGAME_STATES_MAX. Its pages cost memory only once used. The guesses of 20,000 to 150,000 layouts of 1,000
# expert games are searched 1.6 to 1.7 times faster so, with no memo cleared (benchmarks/endgame_memo.py), and games
# with the exact endgame from 100,000 layouts take half the time (benchmarks/shortcuts.py memo: without it, 20,000
# states); a few hundred MB more at the peak.
STATES_PER_LAYOUT = 5
ENDGAME_STATES_MAX = 500_000


class EndgameSearch:
    """Exact move values in a position on any board, searched on its *undecided* cells alone.

    A move's value depends only on the layouts seen on the undecided cells (unopened and not a
    mine in every layout) and on which of those touch which: a number counts the mines around
    it, and its other neighbours are open or mines in every layout, the same for all. So the
    search runs on a ``CellGraph`` of the undecided cells, whatever the board: with the
    compiled engine when they are at most ``COMPILED_CELLS`` (an expert endgame usually is),
    else with the Python engine. The values equal ``OptimalSolver.position``'s.

    One search follows one game: while a position's undecided cells lie within those of the
    graph it holds, the graph, its engine and the memo are kept (the cells opened since are
    passed as opened), so the states of the next positions, met in the search of the first,
    are looked up, not searched again.

    Dead cells are left out of the states (``dead``, as in ``OptimalSolver``; the same values):
    cut from a big board, a graph has many cells whose number nothing can change, and a game's
    next positions meet its states more often without them (on 1,000 expert games the player's
    endgame searches take 0.72 of the time they take with dead cells kept, and play the same moves).
    """

    def __init__(self, mines: int, max_states: int = ENDGAME_STATES_MAX, dead: bool = True):
        self.mines, self.max_states, self.dead = mines, max_states, dead
        self.solved = 0  # states solved, over all calls and engines
        self.work = 0  # and the work of their searches (``Engine.work``), what a budget counts
        self._index: dict[int, int] = {}  # board cell id -> graph cell
        self._cells: list[int] = []  # graph cell -> board cell id
        self._engine: Engine | None = None
        self._bytes: list[tuple[int, list[int]]] = []  # (byte of a board mask, its image in the graph)

    def values(
        self,
        board: Board,
        layouts: Layouts | None = None,
        cells: int | None = None,
        best: bool = False,
        count: int | None = None,
        budget: int = 0,
    ) -> dict[Cell, Fraction] | None:
        """Every unopened cell's exact win probability, as ``OptimalSolver.position(board).move_values``
        (``layouts``: the position's, if known; ``count``: how many, if known: a player's analysis
        has counted them). None when more than ``cells`` cells are undecided.
        With ``best``, only the best cells and their (exact) value: the others are searched only as
        far as needed to tell that they fall short (``Engine.best``); with ``budget`` too, None when
        that search would need more ``work`` than the budget (what it solved stays in the memo)."""
        if cells is not None:
            at_least(0, cells=cells)
        at_least(0, budget=budget)
        if budget and not best:
            raise ValueError("a budget is for the search of the best cells alone (best=True)")
        size = board.size
        geometry = Geometry.of(size)
        flat, width = board.values.ravel(), size.width
        ids = np.flatnonzero(flat == UNOPENED)  # the unopened cells but flags, row by row
        if ids.size + int(np.count_nonzero(flat == MINE)) == self.mines:  # won: every cell left is a mine
            if count is None and not layouts:
                analyze(board, self.mines)  # unless no layout fits: ImpossiblePosition
            return {}
        local = None  # the layouts on the unopened cells (bit k: ids[k]), found in compiled code
        known: Layouts = ()  # or the layouts as board masks
        if layouts is None and ids.size <= COMPILED_CELLS:
            if count is None:
                count = analyze(board, self.mines).count  # raises ImpossiblePosition if nothing fits
            check_layout_count(count, "the position")
            # the layouts, the undecided cells, the layouts on them and their graph, in one compiled call
            local, found_cells, fresh_cut, masks = endgame_start(board, self.mines, ids, count)
            undecided = found_cells.tolist()
        else:
            known = layouts or consistent_layouts(board, self.mines, geometry)
            count = len(known)
            always = known[0]
            for mask in known:
                always &= mask
            undecided = [i for i in ids.tolist() if not always >> i & 1]
        if cells is not None and len(undecided) > cells:
            return None
        compiled = len(undecided) <= COMPILED_CELLS
        kept = self._engine and compiled == (self._engine.name == "compiled") and set(undecided) <= self._index.keys()
        if kept:
            index = self._index
            cut = self._cut(known) if local is None else self._cut_local(local, ids)
            moves = [index[i] for i in undecided]
            opened = ((1 << len(index)) - 1) & ~sum(1 << g for g in moves)  # the graph's cells opened since
        else:
            self._start(undecided, geometry, compiled, count, None if local is None else masks.tolist())
            cut = self._cut(known) if local is None else tuple(fresh_cut.tolist())
            moves, opened = list(range(len(undecided))), 0  # the graph is the undecided cells, in their order
        engine = self._engine
        assert engine is not None
        before, worked = engine.solved, engine.work
        if best:
            found = engine.best(cut, moves, opened, budget)
            self.solved += engine.solved - before
            self.work += engine.work - worked
            if found is None:
                return None
            cell_of, shared = self._cells, {w: Fraction(w, count) for w in set(found.values())}  # (one value: the best)
            return {divmod(cell_of[g], width): shared[wins] for g, wins in found.items()}
        wins = dict(zip(undecided, engine.clicks(cut, moves, opened)))
        self.solved += engine.solved - before
        self.work += engine.work - worked
        return {divmod(i, width): Fraction(wins.get(i, 0), count) for i in ids.tolist()}

    def _start(
        self, undecided: list[int], geometry: Geometry, compiled: bool, layouts: int, masks: list[int] | None = None
    ) -> None:
        """A graph of these cells (``masks``: each one's neighbours among them, if known), and a fresh engine
        for it, its memo sized to the layouts: 100 states a layout up to ``ENDGAME_STATES`` (a search of a few
        layouts makes a small memo), then with the compiled engine ``STATES_PER_LAYOUT`` a layout (a Python state
        costs far more memory), at most ``max_states``."""
        index = self._index = {i: g for g, i in enumerate(undecided)}
        self._cells = undecided
        if masks is None:
            around = neighbour_ids(geometry.size)
            masks = [sum(1 << index[j] for j in around[i] if j in index) for i in undecided]
        graph = CellGraph(masks)
        kind = "compiled" if compiled else "python"
        grown = max(ENDGAME_STATES, STATES_PER_LAYOUT * layouts) if compiled else ENDGAME_STATES
        states = min(self.max_states, 100 * layouts, grown)
        self._engine = make_engine(graph, 1, kind, symmetry=False, max_states=states, dead=self.dead)
        self._bytes = []  # made by the first _cut on this graph

    def _cut_local(self, local: np.ndarray, ids: np.ndarray) -> Layouts:
        """``_cut`` for layouts on the unopened cells ``ids`` (bit k: ids[k]; ``local_layouts``)."""
        index = self._index
        return tuple(moved_bits(local, np.array([index.get(i, -1) for i in ids.tolist()], np.int64)).tolist())

    def _cut(self, layouts: Layouts) -> Layouts:
        """The layouts seen on the graph's cells, as masks of graph cells (distinct layouts stay distinct:
        they differ only on undecided cells)."""
        if not self._bytes:
            by_byte: dict[int, list[int]] = defaultdict(lambda: [0] * 256)
            for i, g in self._index.items():
                table = by_byte[i >> 3]
                for value in range(256):
                    if value >> (i & 7) & 1:
                        table[value] |= 1 << g
            self._bytes = sorted(by_byte.items())
        width = max(i for i, _ in self._bytes) + 1
        cut = []
        for mask in layouts:
            raw = (mask & ((1 << (8 * width)) - 1)).to_bytes(width, "little")
            image = 0
            for b, table in self._bytes:
                image |= table[raw[b]]
            cut.append(image)
        return tuple(sorted(cut))


_warm = False


def warm_up() -> None:
    """Load the endgame search's compiled kernels now (numba loads each on its first call in a process),
    for the types a player's search gives them (a board's read-only values); once per process."""
    global _warm
    if not _warm:
        _warm = True
        EndgameSearch(1).values(Board.from_text("1.."), best=True)


__all__ = ["ENDGAME_STATES", "ENDGAME_STATES_MAX", "STATES_PER_LAYOUT", "EndgameSearch", "warm_up"]
