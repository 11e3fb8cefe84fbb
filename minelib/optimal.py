"""Exact win probability under optimal play, and the moves that achieve it.

Beyond article 000 (whose evaluators are in ``minelib.evaluators``). The state of
a game is the set of mine layouts still possible, each a bitmask over the cells
(row by row). Ideas that keep the search exact and make it fast:

* **Free openings.** A cell safe in every remaining layout is opened at once: it
  costs nothing and can only inform. So a state is *closed* (every such cell
  opened), and a closed state is described by its layout set alone.
* **Integer win counts.** ``wins(S)`` counts the layouts of S that optimal play
  wins; the probability is ``wins(S) / |S|``. A move's value is the sum of
  ``wins`` over the states it can lead to.
* **Branch and bound.** A move wins at most the layouts in which it is safe;
  moves are tried safest first, and a move is dropped as soon as it cannot beat
  the best one found.
* **Symmetry.** States are memoized under a canonical key: the smallest image of
  the layout set under the board's rotations and reflections
  (``minelib.layouts.Geometry.canonical``, the minlex idea of article 004).
"""
from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from math import comb

from minelib.board import Board, BoardSize, Cell, check_mines
from minelib.layouts import Geometry, Layouts, check_layout_count, consistent_layouts

FIRST_CLICK_RULES = ("none", "safe", "zero")


@dataclass
class Result:
    """The exact answer for a board or a position."""

    probability: Fraction
    best_moves: list[Cell]
    move_values: dict[Cell, Fraction]   # every candidate move's win probability
    states: int                         # states solved (searched, not looked up)
    seconds: float
    layouts: int = 0                    # layouts the probability is over (before the first click)
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        """JSON-ready: the probability as "p/q", moves as [y, x] pairs."""
        return {"probability": str(self.probability), "best_moves": [list(c) for c in self.best_moves],
                "states": self.states, "seconds": round(self.seconds, 6)}


class OptimalSolver:
    """Optimal play on one board size and mine count; the memo is kept between calls."""

    def __init__(self, size: BoardSize | str, mines: int, symmetry: bool = True, max_states: int = 500_000):
        self.size = BoardSize.parse(size) if isinstance(size, str) else size
        check_mines(Board.unopened(self.size), mines)
        if mines == self.size.n_cells:
            raise ValueError(f"{mines} mines leave no safe cell on a {self.size} board")
        if max_states < 1:
            raise ValueError(f"max_states must be at least 1, not {max_states}")
        self.mines = mines
        self.geometry = Geometry(self.size)
        self.symmetry = symmetry and len(self.geometry.symmetries) > 1
        self.max_states = max_states  # memory bound: past it the memo starts afresh (still exact)
        self.solved = 0               # states solved, over all calls
        self.memo: dict[Layouts, tuple[int, bool]] = {}  # canonical state -> (wins or upper bound, exact?)
        self.aliases: dict[Layouts, Layouts] = {}        # state as met -> canonical state

    # --- the search ----------------------------------------------------------

    def wins(self, layouts: Layouts, cap: int = -1) -> int:
        """How many layouts of a closed state optimal play wins.

        Bounded: if that number is at most ``cap``, the answer may be any upper
        bound of it that is itself at most ``cap`` (the caller only needs to know
        the state cannot beat ``cap``). Above ``cap`` the answer is exact.
        """
        if len(layouts) <= 2:  # one layout is known; of two, a cell that differs decides (safe half the time)
            return 1
        key = self._key(layouts)
        value, exact = self.memo.get(key, (len(layouts) - 1, False))
        if exact or value <= cap:
            return value
        value, exact = self._best(layouts, cap)
        if len(self.memo) >= self.max_states:
            self.memo.clear()
            self.aliases.clear()
        self.memo[key] = (value, exact)
        self.solved += 1
        return value

    def _key(self, layouts: Layouts) -> Layouts:
        """The memo key of a state: its canonical form, looked up by the raw form first."""
        if not self.symmetry:
            return layouts
        key = self.aliases.get(layouts)
        if key is None:  # a state is met again and again; canonicalize it once
            key = self.aliases[layouts] = self.geometry.canonical(layouts)
        return key

    def _bound(self, layouts: Layouts) -> int:
        """An upper bound of ``wins`` for a closed state, without searching it.

        With n >= 3 layouts every move is a mine in at least one, so n - 1; a
        state met before has its stored value or bound.
        """
        if len(layouts) <= 2:
            return 1
        key = self.aliases.get(layouts, layouts) if self.symmetry else layouts
        known = self.memo.get(key)
        if known:
            return known[0]
        union = inter = layouts[0]
        for mask in layouts:
            union |= mask
            inter &= mask
        uncertain = union & ~inter
        fewest = len(layouts)
        while uncertain:
            bit = uncertain & -uncertain
            uncertain ^= bit
            mines = 0
            for mask in layouts:
                if mask & bit:
                    mines += 1
                    if mines >= fewest:
                        break
            else:
                fewest = mines
                if fewest == 1:
                    break
        return len(layouts) - fewest

    def _best(self, layouts: Layouts, cap: int) -> tuple[int, bool]:
        """(win count, exact?) of the best move: exact if above ``cap``, else an upper bound <= cap."""
        union = inter = layouts[0]
        for mask in layouts:
            union |= mask
            inter &= mask
        opened = self.geometry.full & ~union
        moves = []
        for i in range(self.geometry.n):
            bit = 1 << i
            if union & bit and not inter & bit:
                moves.append((sum(1 for mask in layouts if not mask & bit), i))
        moves.sort(reverse=True)
        best = skipped = 0  # skipped: the largest bound of a move passed over without search
        for safe, i in moves:
            if safe <= max(best, cap):  # neither this move nor any later one can do better
                return max(best, safe, skipped), best > cap
            states = self.outcomes(layouts, i, opened)
            bound = sum(map(self._bound, states))
            if bound <= max(best, cap):
                skipped = max(skipped, bound)
            else:
                best = max(best, self._sum(states, floor=max(best, cap)))
        return max(best, skipped), best > cap

    def outcomes(self, layouts: Layouts, i: int, opened: int) -> list[Layouts]:
        """The closed states that opening cell i can lead to (free openings included)."""
        bit, around = 1 << i, self.geometry.neighbours[i]
        groups: dict[int, list[int]] = defaultdict(list)
        for mask in layouts:
            if not mask & bit:
                groups[(mask & around).bit_count()].append(mask)
        states: list[Layouts] = []
        for group in groups.values():
            if len(group) == 1:  # one layout: nothing left to find
                states.append(tuple(group))
            else:
                self._close(tuple(group), opened | bit, states)
        return states

    def _close(self, layouts: Layouts, opened: int, states: list[Layouts]) -> None:
        """Open every cell safe in all ``layouts``, splitting them by what those cells show."""
        union = 0
        for mask in layouts:
            union |= mask
        new = self.geometry.full & ~union & ~opened
        if not new:
            states.append(layouts)
            return
        classes: dict[int, list[int]] = defaultdict(list)
        if new & (new - 1) == 0:  # one cell opens: split by its number
            around = self.geometry.neighbours[new.bit_length() - 1]
            for mask in layouts:
                classes[(mask & around).bit_count()].append(mask)
        else:
            arounds = [self.geometry.neighbours[i] for i in range(new.bit_length()) if new >> i & 1]
            for mask in layouts:
                key = 0
                for around in arounds:
                    key = key << 4 | (mask & around).bit_count()
                classes[key].append(mask)
        for group in classes.values():
            if len(group) == 1:
                states.append(tuple(group))
            else:
                self._close(tuple(group), opened | new, states)

    def _sum(self, states: list[Layouts], floor: int = -1) -> int:
        """Sum of ``wins`` over states reached by chance: exact if above ``floor``, else a bound <= floor."""
        bounded = sorted(((self._bound(state), state) for state in states), key=lambda b: (-b[0], b[1][0]))
        left = sum(bound for bound, _ in bounded)
        total = 0
        for bound, state in bounded:
            left -= bound
            cap = floor - total - left  # this state must beat cap for the sum to beat floor
            value = self.wins(state, cap)
            total += value
            if value <= cap:
                return total + left
        return total

    def click(self, layouts: Layouts, i: int, opened: int) -> int:
        """The exact win count of opening cell i (``opened``: cells already open)."""
        return self._sum(self.outcomes(layouts, i, opened))

    # --- questions users ask -------------------------------------------------

    def all_layouts(self, forbidden: int = 0) -> Layouts:
        """Every layout of ``mines`` mines avoiding the cells in ``forbidden``, sorted."""
        free = [i for i in range(self.geometry.n) if not forbidden >> i & 1]
        check_layout_count(comb(len(free), self.mines), f"{self.size} with {self.mines} mines")
        return tuple(sorted(sum(1 << i for i in combo) for combo in combinations(free, self.mines)))

    def first_move(self, first_click: str = "none") -> Result:
        """The exact win probability from an unopened board, and every best first click."""
        if first_click not in FIRST_CLICK_RULES:
            raise ValueError(f"unknown first-click rule {first_click!r} (expected one of {', '.join(FIRST_CLICK_RULES)})")
        start, before = time.perf_counter(), self.solved
        everything = self.all_layouts() if first_click == "none" else None
        values: dict[Cell, Fraction] = {}
        for orbit in self.geometry.orbits():
            cell = orbit[0]
            i = self.size.cell_id(cell)
            if first_click == "none":
                layouts = everything
            elif first_click == "safe":
                layouts = self.all_layouts(forbidden=1 << i)
            else:
                layouts = self.all_layouts(forbidden=(1 << i) | self.geometry.neighbours[i])
            value = Fraction(self.click(layouts, i, 0), len(layouts)) if layouts else Fraction(0)
            values.update(dict.fromkeys(orbit, value))
        return self._result(values, start, before, layouts=len(everything) if everything else 0)

    def position(self, board: Board | str) -> Result:
        """Every candidate move's exact win probability in a position of this size and mine count."""
        if isinstance(board, str):
            board = Board.from_text(board)
        if board.size != self.size:
            raise ValueError(f"the position is {board.size} but the solver is for {self.size}")
        start, before = time.perf_counter(), self.solved
        values = dict(self.move_values(board))
        return self._result(values, start, before, layouts=self._last_layouts)

    def move_values(self, board: Board):
        """Yield (cell, exact win probability of opening it) for each unopened cell, one at a time."""
        if board.size != self.size:
            raise ValueError(f"the position is {board.size} but the solver is for {self.size}")
        layouts = consistent_layouts(board, self.mines, self.geometry)
        self._last_layouts = len(layouts)
        opened = sum(self.geometry.bit(c) for c in board.number_cells())
        for cell in board.unopened_cells():
            yield cell, Fraction(self.click(layouts, self.size.cell_id(cell), opened), len(layouts))

    def _result(self, values: dict[Cell, Fraction], start: float, before: int, layouts: int) -> Result:
        values = dict(sorted(values.items()))
        best = max(values.values(), default=Fraction(1))
        return Result(best, [c for c, v in values.items() if v == best], values,
                      self.solved - before, time.perf_counter() - start, layouts)


def strategy_tree(solver: OptimalSolver, board: Board | None = None, depth: int = 3) -> list[str]:
    """The optimal strategy from a position as indented lines, ``depth`` moves deep.

    At each position the first best move (row by row) is played; every number it
    can show is a branch, with its probability and the win probability after it.
    """
    board = board or Board.unopened(solver.size)
    lines: list[str] = []
    _grow(solver, board, depth, "", lines)
    return lines


def _grow(solver: OptimalSolver, board: Board, depth: int, indent: str, lines: list[str]) -> None:
    result = solver.position(board)
    if result.layouts == 1:
        lines.append(f"{indent}won: one layout is left")
        return
    cell = result.best_moves[0]
    lines.append(f"{indent}open {cell}  (wins {result.probability})")
    if depth <= 1:
        return
    layouts = consistent_layouts(board, solver.mines, solver.geometry)
    bit, around = solver.geometry.bit(cell), solver.geometry.neighbours[solver.size.cell_id(cell)]
    shows: dict[int, int] = defaultdict(int)
    for mask in layouts:
        if not mask & bit:
            shows[(mask & around).bit_count()] += 1
    lost = len(layouts) - sum(shows.values())
    if lost:
        lines.append(f"{indent}  mine (p = {Fraction(lost, len(layouts))}): lost")
    for number, count in sorted(shows.items()):
        lines.append(f"{indent}  shows {number} (p = {Fraction(count, len(layouts))}):")
        _grow(solver, board.with_value(cell, number), depth - 1, indent + "    ", lines)


ENGINES = ("auto", "compiled", "python")
AUTO_LAYOUTS = 5_000  # below this many starting layouts the Python search is done before the compiled one starts


def optimal_solver(size: BoardSize | str, mines: int, engine: str = "auto", **options) -> OptimalSolver:
    """A solver for ``size`` and ``mines``: ``compiled`` (numba, boards of at most 63 cells),
    ``python`` (the reference), or ``auto``: compiled when the board fits and has more
    than ``AUTO_LAYOUTS`` layouts, else python."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r} (expected one of {', '.join(ENGINES)})")
    size = BoardSize.parse(size) if isinstance(size, str) else size
    small = size.n_cells > 63 or comb(size.n_cells, max(mines, 0)) <= AUTO_LAYOUTS
    if engine == "python" or (engine == "auto" and small):
        return OptimalSolver(size, mines, **options)
    from minelib.kernel import CompiledSolver  # numba compiles (or loads) the search on first use

    return CompiledSolver(size, mines, **options)


def solve(size: BoardSize | str, mines: int, first_click: str = "none", engine: str = "auto") -> Result:
    """The exact win probability of ``size`` with ``mines`` under optimal play, and every best first click."""
    return optimal_solver(size, mines, engine).first_move(first_click)


__all__ = ["ENGINES", "FIRST_CLICK_RULES", "OptimalSolver", "Result",
           "optimal_solver", "solve", "strategy_tree"]
