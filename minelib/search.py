"""The exact search of ``minelib.optimal`` in pure Python: the reference engine.

The state of a game is the set of mine layouts still possible, each a bitmask
over the cells (row by row). Ideas that keep the search exact and make it fast:

* **Free openings.** A cell safe in every remaining layout is opened at once: it
  costs nothing and can only inform. So a state is *closed* (every such cell
  opened), and a closed state is described by its layout set alone.
* **Integer win counts.** ``wins(S)`` counts the layouts of S that optimal play
  wins; the probability is ``wins(S) / |S|``. A move's value is the sum of
  ``wins`` over the states it can lead to.
* **Branch and bound.** A move wins at most the layouts in which it is safe;
  moves are tried safest first, and a move is dropped as soon as it cannot beat
  the best one found.
* **Only what can still be learned** (``dead=True``). A cell is *dead* when it
  shows the same number in every layout where it is safe: opening it can only
  lose, never inform, so a best strategy opens it last (after any strategy that
  opens it now, play the same moves and open it at the end: every layout won
  before is won still). A state is then the set of cells still *living* (at
  least two numbers possible) with the layouts cut down to those cells and their
  neighbours, the only bits their numbers read; layouts equal there are one
  (they can never be told apart, and at most one of them can be won, so the win
  count is the same). States that differ only in dead cells become one, and a
  state with no living cell wins exactly one layout. With ``dead=False`` the
  living cells are every uncertain cell and nothing is cut: the search as before.
* **Symmetry.** States are memoized under a canonical key: the smallest image of
  (living cells, layouts) under the board's rotations and reflections
  (``minelib.layouts.Geometry.canonical_state``, the minlex idea of article 004).

A state is the pair ``(living, layouts)``. ``minelib.kernel.CompiledEngine`` is
the same search compiled with numba; its docstring maps each function here to its
twin there.
"""

from __future__ import annotations

from collections import defaultdict

from minelib.layouts import Geometry, Layouts

State = tuple[int, Layouts]  # (living cells, the layouts cut down to them and their neighbours)


class PythonEngine:
    """The search over layout sets, memoized; ``click`` is all ``OptimalSolver`` asks of it.

    The memo keeps at most ``max_states`` states, each under its canonical key with
    one alias (the form it was met in) on average: at most ``2 * max_states`` keys
    in all. Past that it starts afresh, which costs work, never exactness.
    """

    name = "python"

    def __init__(self, geometry: Geometry, symmetry: bool, max_states: int, dead: bool = False):
        self.geometry = geometry
        self.symmetry = symmetry and len(geometry.symmetries) > 1
        self.max_states = max_states
        self.dead = dead
        self.solved = 0  # states solved, over all calls
        self.work = 0  # layouts split by the moves tried, over all calls: what a search's time follows
        self._limit = 0  # stop when ``work`` reaches it (``best``'s budget; 0: never)
        self.clears = 0  # times the memo was full and started afresh
        self.memo: dict[State, tuple[int, bool]] = {}  # canonical state -> (wins or upper bound, exact?)
        self.aliases: dict[State, State] = {}  # state as met -> canonical state

    def wins(self, state: State, cap: int = -1) -> int:
        """How many layouts of a closed state optimal play wins.

        Bounded: if that number is at most ``cap``, the answer may be any upper
        bound of it that is itself at most ``cap`` (the caller only needs to know
        the state cannot beat ``cap``). Above ``cap`` the answer is exact.
        """
        living, layouts = state
        if len(layouts) <= 2 or not living:  # one layout is known; of two, a cell that differs decides
            return 1
        key = self._key(state)
        value, exact = self.memo.get(key, (len(layouts) - 1, False))
        if exact or value <= cap:
            return value
        value, exact = self._best(state, cap)
        self._make_room()
        self.memo[key] = (value, exact)
        self.solved += 1
        return value

    def _key(self, state: State) -> State:
        """The memo key of a state: its canonical form, looked up by the raw form first."""
        if not self.symmetry:
            return state
        key = self.aliases.get(state)
        if key is None:  # a state is met again and again; canonicalize it once
            key = self.geometry.canonical_state(*state)
            self._make_room()
            self.aliases[state] = key
        return key

    def _make_room(self) -> None:
        """Start the memo afresh when it holds ``2 * max_states`` keys (values and aliases together)."""
        if len(self.memo) + len(self.aliases) >= 2 * self.max_states:
            self.memo.clear()
            self.aliases.clear()
            self.clears += 1

    def _bound(self, state: State) -> int:
        """An upper bound of ``wins`` for a closed state, without searching it.

        Every move is a living cell, a mine in at least the fewest layouts any of
        them is: at most n minus that; a state met before has its stored value or bound.
        """
        living, layouts = state
        if len(layouts) <= 2 or not living:
            return 1
        key = self.aliases.get(state, state) if self.symmetry else state
        known = self.memo.get(key)
        if known:
            return known[0]
        fewest = len(layouts)
        while living:
            bit = living & -living
            living ^= bit
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

    def _best(self, state: State, cap: int) -> tuple[int, bool]:
        """(win count, exact?) of the best move: exact if above ``cap``, else an upper bound <= cap."""
        living, layouts = state
        moves = []
        for i in range(living.bit_length()):
            bit = 1 << i
            if living & bit:
                moves.append((sum(1 for mask in layouts if not mask & bit), i))
        moves.sort(reverse=True)
        best = skipped = 0  # skipped: the largest bound of a move passed over without search
        for safe, i in moves:
            if safe <= max(best, cap):  # neither this move nor any later one can do better
                return max(best, safe, skipped), best > cap
            states = self.outcomes(layouts, i, living)
            bound = sum(map(self._bound, states))
            if bound <= max(best, cap):
                skipped = max(skipped, bound)
            else:
                best = max(best, self._sum(states, floor=max(best, cap)))
        return max(best, skipped), best > cap

    def outcomes(self, layouts: Layouts, i: int, candidates: int) -> list[State]:
        """The closed states that opening cell i can lead to (free openings included).

        ``candidates``: the cells that may still inform (the living cells, or every
        unopened cell at the first move); only they are opened for free or stay living.
        """
        self.work += len(layouts)
        if self.work > self._limit > 0:
            raise _Spent
        bit, around = 1 << i, self.geometry.neighbours[i]
        candidates &= ~bit
        groups: dict[int, list[int]] = defaultdict(list)
        for mask in layouts:
            if not mask & bit:
                groups[(mask & around).bit_count()].append(mask)
        states: list[State] = []
        for group in groups.values():
            self._close(group, candidates, candidates, states)
        return states

    def _close(self, layouts: list[int], candidates: int, unseen: int, states: list[State]) -> None:
        """Open every candidate cell safe in all ``layouts``, splitting them by what those cells show."""
        union = 0
        for mask in layouts:
            union |= mask
        new = unseen & ~union
        if not new or len(layouts) == 1:
            states.append(self._reduce(layouts, candidates))
            return
        classes: dict[int, list[int]] = defaultdict(list)
        arounds = [self.geometry.neighbours[i] for i in range(new.bit_length()) if new >> i & 1]
        for mask in layouts:
            key = 0
            for around in arounds:
                key = key << 4 | (mask & around).bit_count()
            classes[key].append(mask)
        for group in classes.values():
            self._close(group, candidates, unseen & ~new, states)

    def _reduce(self, layouts: list[int], candidates: int) -> State:
        """A closed group of layouts as a state: its living cells among ``candidates``, and (with ``dead``)
        the layouts cut down to those cells and their neighbours, each distinct cut once."""
        union = inter = layouts[0]
        for mask in layouts:
            union |= mask
            inter &= mask
        candidates &= union & ~inter  # a cell safe in every layout, or in none, shows nothing new
        if not self.dead:
            return candidates, tuple(sorted(layouts))
        living = keep = 0
        neighbours = self.geometry.neighbours
        while candidates:
            bit = candidates & -candidates
            candidates ^= bit
            around, seen = neighbours[bit.bit_length() - 1], -1
            for mask in layouts:
                if not mask & bit:
                    number = (mask & around).bit_count()
                    if seen < 0:
                        seen = number
                    elif number != seen:
                        living |= bit
                        keep |= bit | around
                        break
        return living, tuple(sorted({mask & keep for mask in layouts}))

    def _sum(self, states: list[State], floor: int = -1) -> int:
        """Sum of ``wins`` over states reached by chance: exact if above ``floor``, else a bound <= floor."""
        bounded = sorted(((self._bound(state), state) for state in states), key=lambda b: (-b[0], b[1][1][0]))
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
        return self._sum(self.outcomes(layouts, i, self.geometry.full & ~opened))

    def clicks(self, layouts: Layouts, cells: list[int], opened: int) -> list[int]:
        """``click`` for each of ``cells``."""
        return [self.click(layouts, i, opened) for i in cells]

    def best(self, layouts: Layouts, cells: list[int], opened: int, budget: int = 0) -> dict[int, int] | None:
        """The cells of ``cells`` whose ``click`` is the best of them, with that win count; with ``budget``,
        None if that takes more ``work`` (the memo keeps what was solved)."""
        if budget < 0:
            raise ValueError(f"budget must be at least 0 (0: none), got {budget}")
        self._limit = self.work + budget if budget else 0
        try:
            wins = dict(zip(cells, self.clicks(layouts, cells, opened)))
        except _Spent:
            return None
        finally:
            self._limit = 0
        top = max(wins.values(), default=0)
        return {i: w for i, w in wins.items() if w == top}


class _Spent(Exception):
    """A search's budget of work is spent (``PythonEngine.best``)."""


__all__ = ["PythonEngine", "State"]
