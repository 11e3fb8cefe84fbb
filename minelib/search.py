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
* **Symmetry.** States are memoized under a canonical key: the smallest image of
  the layout set under the board's rotations and reflections
  (``minelib.layouts.Geometry.canonical``, the minlex idea of article 004).

``minelib.kernel.CompiledEngine`` is the same search compiled with numba; its
docstring maps each function here to its twin there.
"""

from __future__ import annotations

from collections import defaultdict

from minelib.layouts import Geometry, Layouts


class PythonEngine:
    """The search over layout sets, memoized; ``click`` is all ``OptimalSolver`` asks of it.

    The memo keeps at most ``max_states`` states, each under its canonical key with
    one alias (the form it was met in) on average: at most ``2 * max_states`` keys
    in all. Past that it starts afresh, which costs work, never exactness.
    """

    name = "python"

    def __init__(self, geometry: Geometry, symmetry: bool, max_states: int):
        self.geometry = geometry
        self.symmetry = symmetry and len(geometry.symmetries) > 1
        self.max_states = max_states
        self.solved = 0  # states solved, over all calls
        self.clears = 0  # times the memo was full and started afresh
        self.memo: dict[Layouts, tuple[int, bool]] = {}  # canonical state -> (wins or upper bound, exact?)
        self.aliases: dict[Layouts, Layouts] = {}  # state as met -> canonical state

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
        self._make_room()
        self.memo[key] = (value, exact)
        self.solved += 1
        return value

    def _key(self, layouts: Layouts) -> Layouts:
        """The memo key of a state: its canonical form, looked up by the raw form first."""
        if not self.symmetry:
            return layouts
        key = self.aliases.get(layouts)
        if key is None:  # a state is met again and again; canonicalize it once
            key = self.geometry.canonical(layouts)
            self._make_room()
            self.aliases[layouts] = key
        return key

    def _make_room(self) -> None:
        """Start the memo afresh when it holds ``2 * max_states`` keys (values and aliases together)."""
        if len(self.memo) + len(self.aliases) >= 2 * self.max_states:
            self.memo.clear()
            self.aliases.clear()
            self.clears += 1

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


__all__ = ["PythonEngine"]
