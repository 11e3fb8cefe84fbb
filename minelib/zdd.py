"""A small zero-suppressed decision diagram (ZDD) package, with article 003's operations.

A ZDD stores a family of sets of variables (here: the consistent mine layouts
on the frontier cells, each layout the set of cells holding a mine). A node is
``(var, lo, hi)``: the sets without ``var`` (``lo``) and those with it (``hi``,
``var`` removed). Variables grow from the root down. Two terminals: ``EMPTY``
(no set) and ``BASE`` (the family holding only the empty set).

As in ``tulip-control/dd``: nodes are made in one place (``node``), which applies
the zero-suppression rule (a node whose ``hi`` is EMPTY is its ``lo``) and looks
the triple up in the unique table; every recursive operation has the same shape
(terminal case, memo lookup, recurse, build, memo store) with a named memo table;
``assert_consistent`` checks the invariants.

Article 003's operations: ``add_variable`` (a new frontier cell that may or may
not hold a mine: a node whose both branches are the old root; new cells take a
variable smaller than all before, so they sit at the top), ``hint(E, h)`` (sets
with exactly h elements in E), ``limit(b, m)`` (sets P with 0 <= b - |P| <= m),
``items``/``flags`` (union and intersection of all sets), ``sizes`` (count by set
size), ``danger`` (for each variable, the sets containing it, by size: the
two-way DP), ``onset``/``offset`` (restrict a variable to 1 / 0, removing it), and
``collect`` (delete the nodes no root reaches).
"""

from __future__ import annotations

import functools
import sys
from collections import defaultdict
from collections.abc import Iterable

EMPTY, BASE = 0, 1
Family = int  # a node id: the family of sets it stands for


def _deep(operation):
    """Give a recursive operation room to recurse as deep as the diagram, and restore the limit after.

    A recursion goes one frame per variable (a few hundred on a big frontier); the
    interpreter's limit is raised only while the operation runs, never for the process.
    """

    @functools.wraps(operation)
    def with_room(self, *args, **kwargs):
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(old + 2 * len(self._nodes) + 100)
        try:
            return operation(self, *args, **kwargs)
        finally:
            sys.setrecursionlimit(old)

    return with_room


class ZDD:
    """A node table, its inverse (the unique table) and named memo tables."""

    def __init__(self):
        self._nodes: dict[int, tuple[int, int, int]] = {}  # id -> (var, lo, hi)
        self._unique: dict[tuple[int, int, int], int] = {}  # (var, lo, hi) -> id
        self._next = 2
        self.memo: dict[str, dict] = defaultdict(dict)

    def __len__(self) -> int:
        """The number of nodes stored (terminals not counted)."""
        return len(self._nodes)

    def node(self, var: int, lo: Family, hi: Family) -> Family:
        """The node (var, lo, hi), reduced and shared."""
        if hi == EMPTY:
            return lo
        key = (var, lo, hi)
        found = self._unique.get(key)
        if found is None:
            found = self._unique[key] = self._next
            self._nodes[found] = key
            self._next += 1
        return found

    def var(self, f: Family) -> int:
        return self._nodes[f][0]

    def branches(self, f: Family) -> tuple[int, Family, Family]:
        """``(var, lo, hi)`` of an inner node."""
        return self._nodes[f]

    # --- building -------------------------------------------------------------

    @_deep
    def from_sets(self, sets: Iterable[Iterable[int]]) -> Family:
        """The family of the given sets (for tests and small examples)."""
        f = EMPTY
        for s in sets:
            g = BASE
            for v in sorted(set(s), reverse=True):
                g = self.node(v, EMPTY, g)
            f = self._union(f, g)
        return f

    @_deep
    def union(self, f: Family, g: Family) -> Family:
        """The sets in f or in g."""
        return self._union(f, g)

    def _union(self, f: Family, g: Family) -> Family:
        if f in (EMPTY, g):
            return g
        if g == EMPTY:
            return f
        if f > g:
            f, g = g, f
        memo = self.memo["union"]
        if (f, g) in memo:
            return memo[f, g]
        vf = self.var(f) if f != BASE else None
        vg = self.var(g) if g != BASE else None
        if vg is None or (vf is not None and vf < vg):
            v, lo, hi = self.branches(f)
            result = self.node(v, self._union(lo, g), hi)
        elif vf is None or vg < vf:
            v, lo, hi = self.branches(g)
            result = self.node(v, self._union(f, lo), hi)
        else:
            v, flo, fhi = self.branches(f)
            _, glo, ghi = self.branches(g)
            result = self.node(v, self._union(flo, glo), self._union(fhi, ghi))
        memo[f, g] = result
        return result

    def add_variable(self, f: Family, var: int) -> Family:
        """Every set of f, with and without the new variable ``var`` (smaller than f's variables)."""
        if f == EMPTY:
            return EMPTY
        if f != BASE and var >= self.var(f):
            raise ValueError(f"a new variable must come before {self.var(f)}, got {var}")
        return self.node(var, f, f)

    @_deep
    def hint(self, f: Family, E: Iterable[int], h: int) -> Family:
        """The sets of f with exactly ``h`` elements in ``E`` (article 003, eq. 3)."""
        E = tuple(sorted(set(E)))
        return self._hint(f, E, 0, h, {})

    def _hint(self, f: Family, E: tuple[int, ...], i: int, h: int, memo: dict) -> Family:
        if h < 0 or h > len(E) - i or f == EMPTY:
            return EMPTY
        if f == BASE:
            return BASE if h == 0 else EMPTY
        v, lo, hi = self.branches(f)
        while i < len(E) and E[i] < v:  # variables f never uses: not in any set
            i += 1
        if h > len(E) - i:
            return EMPTY
        if i == len(E):
            return f  # h == 0 here and no element of E is left
        key = (f, i, h)
        if key in memo:
            return memo[key]
        if E[i] == v:
            result = self.node(v, self._hint(lo, E, i + 1, h, memo), self._hint(hi, E, i + 1, h - 1, memo))
        else:
            result = self.node(v, self._hint(lo, E, i, h, memo), self._hint(hi, E, i, h, memo))
        memo[key] = result
        return result

    @_deep
    def limit(self, f: Family, b: int, m: int) -> Family:
        """The sets P of f with 0 <= b - |P| <= m (article 003, eq. 4)."""
        return self._sized(f, max(b - m, 0), b, {})

    def _sized(self, f: Family, low: int, high: int, memo: dict) -> Family:
        """The sets of f with low <= size <= high."""
        if high < 0 or f == EMPTY:
            return EMPTY
        if f == BASE:
            return BASE if low == 0 else EMPTY
        key = (f, low, high)
        if key in memo:
            return memo[key]
        v, lo, hi = self.branches(f)
        result = self.node(v, self._sized(lo, low, high, memo), self._sized(hi, max(low - 1, 0), high - 1, memo))
        memo[key] = result
        return result

    @_deep
    def onset(self, f: Family, var: int) -> Family:
        """The sets of f containing ``var``, with ``var`` removed (a cell flagged as a mine)."""
        return self._restrict(f, var, True, {})

    @_deep
    def offset(self, f: Family, var: int) -> Family:
        """The sets of f without ``var`` (a cell found safe and opened)."""
        return self._restrict(f, var, False, {})

    def _restrict(self, f: Family, var: int, value: bool, memo: dict) -> Family:
        if f in (EMPTY, BASE):
            return EMPTY if (f == BASE and value) else f
        v, lo, hi = self.branches(f)
        if v > var:
            return EMPTY if value else f
        if v == var:
            return hi if value else lo
        if f in memo:
            return memo[f]
        result = self.node(v, self._restrict(lo, var, value, memo), self._restrict(hi, var, value, memo))
        memo[f] = result
        return result

    # --- questions --------------------------------------------------------------

    @_deep
    def items(self, f: Family) -> frozenset[int]:
        """The union of all sets of f (article 003, eq. 1)."""
        return self._items(f)

    def _items(self, f: Family) -> frozenset[int]:
        memo = self.memo["items"]
        if f in (EMPTY, BASE):
            return frozenset()
        if f not in memo:
            v, lo, hi = self.branches(f)
            memo[f] = self._items(lo) | self._items(hi) | {v}
        return memo[f]

    @_deep
    def flags(self, f: Family) -> frozenset[int]:
        """The intersection of all sets of f (article 003, eq. 2); empty for the empty family."""
        return self._flags(f)

    def _flags(self, f: Family) -> frozenset[int]:
        memo = self.memo["flags"]
        if f in (EMPTY, BASE):
            return frozenset()
        if f not in memo:
            v, lo, hi = self.branches(f)
            with_v = self._flags(hi) | {v}
            memo[f] = with_v if lo == EMPTY else with_v & self._flags(lo)
        return memo[f]

    @_deep
    def sizes(self, f: Family) -> dict[int, int]:
        """The number of sets of f of each size."""
        return self._sizes(f)

    def _sizes(self, f: Family) -> dict[int, int]:
        memo = self.memo["sizes"]
        if f == EMPTY:
            return {}
        if f == BASE:
            return {0: 1}
        if f not in memo:
            _, lo, hi = self.branches(f)
            counts = dict(self._sizes(lo))
            for k, n in self._sizes(hi).items():
                counts[k + 1] = counts.get(k + 1, 0) + n
            memo[f] = counts
        return memo[f]

    def count(self, f: Family) -> int:
        """The number of sets in f."""
        return sum(self.sizes(f).values())

    @_deep
    def danger(self, f: Family) -> dict[int, dict[int, int]]:
        """For each variable v: the number of sets of f containing v, by set size.

        The two-way DP of article 003: ``down[n][k]`` counts the paths from the
        root to node n taking k one-branches, ``sizes(hi)`` the completions below.
        """
        down: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        if f in (EMPTY, BASE):
            return {}
        down[f][0] = 1
        result: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        for n in self._topological(f):
            v, lo, hi = self.branches(n)
            here = down[n]
            below = self._sizes(hi)
            for i, ways in here.items():
                for j, more in below.items():
                    result[v][i + j + 1] += ways * more
                if lo not in (EMPTY, BASE):
                    down[lo][i] += ways
                if hi not in (EMPTY, BASE):
                    down[hi][i + 1] += ways
        return {v: dict(by_size) for v, by_size in result.items()}

    def _topological(self, f: Family) -> list[int]:
        """The inner nodes below f, parents before children (by variable, which grows downwards)."""
        seen, stack = {f}, [f]
        while stack:
            n = stack.pop()
            for child in self.branches(n)[1:]:
                if child not in (EMPTY, BASE) and child not in seen:
                    seen.add(child)
                    stack.append(child)
        return sorted(seen, key=self.var)

    @_deep
    def sets(self, f: Family) -> list[frozenset[int]]:
        """Every set of f (for tests and small examples)."""
        return self._sets(f)

    def _sets(self, f: Family) -> list[frozenset[int]]:
        if f == EMPTY:
            return []
        if f == BASE:
            return [frozenset()]
        v, lo, hi = self.branches(f)
        return self._sets(lo) + [s | {v} for s in self._sets(hi)]

    # --- memory -----------------------------------------------------------------

    def collect(self, roots: Iterable[Family]) -> int:
        """Delete every node no root reaches and clear the memos; the number deleted."""
        keep, stack = set(), [r for r in roots if r not in (EMPTY, BASE)]
        while stack:
            n = stack.pop()
            if n in keep:
                continue
            keep.add(n)
            stack.extend(c for c in self._nodes[n][1:] if c not in (EMPTY, BASE))
        dead = [n for n in self._nodes if n not in keep]
        for n in dead:
            del self._unique[self._nodes.pop(n)]
        self.memo.clear()
        return len(dead)

    def assert_consistent(self) -> None:
        """Check the invariants: reduced, ordered, shared, and the two tables agree."""
        assert len(self._nodes) == len(self._unique), "node table and unique table differ in size"
        for n, (v, lo, hi) in self._nodes.items():
            assert hi != EMPTY, f"node {n} is not zero-suppressed"
            assert self._unique[(v, lo, hi)] == n, f"node {n} is not in the unique table"
            for child in (lo, hi):
                assert child in (EMPTY, BASE) or child in self._nodes, f"node {n} points to a deleted node"
                assert child in (EMPTY, BASE) or self.var(child) > v, f"node {n} breaks the variable order"


__all__ = [
    "BASE",
    "EMPTY",
    "ZDD",
    "Family",
]
