"""Exhaustive tables of optimal play, kept in SQLite (the storage idea of article 002).

An entry is a board size, a mine count and a first-click rule (``Task``); its row holds the
exact win probability of optimal play, every first click's value and the best ones, or the
time cap that stopped its search. ``minelib.filling`` solves the entries into the table
(resumably, on a cluster or in pieces); ``load_table``, ``capped`` and ``in_progress`` read it
back for the notebooks and the command line.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from contextlib import closing
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from pathlib import Path

from minelib.board import BoardSize, Cell
from minelib.game import FIRST_CLICK_RULES, check_first_click
from minelib.layouts import SOLVER_LAYOUTS, Geometry

SCHEMA = """
CREATE TABLE IF NOT EXISTS optimal (
    height INTEGER NOT NULL, width INTEGER NOT NULL, mines INTEGER NOT NULL, rule TEXT NOT NULL,
    probability TEXT,            -- exact, "p/q"; NULL when the time cap was reached
    value REAL,                  -- the same as a float, for queries and plots
    best_moves TEXT,             -- JSON [[y, x], ...], row by row
    move_values TEXT,            -- JSON {"y,x": "p/q"} for every first click
    states INTEGER, seconds REAL,
    capped_at REAL,              -- the cap (s) that stopped it, or NULL when solved
    derived_from TEXT,           -- 'safe' for a 'none' entry derived from the safe one (see derive_none)
    PRIMARY KEY (height, width, mines, rule)
)
"""
PIECES_SCHEMA = """
CREATE TABLE IF NOT EXISTS pieces (
    height INTEGER NOT NULL, width INTEGER NOT NULL, mines INTEGER NOT NULL, rule TEXT NOT NULL,
    y INTEGER NOT NULL, x INTEGER NOT NULL,  -- the first click: one cell of each symmetry orbit
    number INTEGER NOT NULL,                 -- the number it shows
    layouts INTEGER NOT NULL,                -- the layouts (of the rule's) where it shows that number
    wins INTEGER NOT NULL,                   -- how many of them optimal play wins
    states INTEGER, seconds REAL,
    PRIMARY KEY (height, width, mines, rule, y, x, number)
)
"""
COLUMNS = (
    "height",
    "width",
    "mines",
    "rule",
    "probability",
    "value",
    "best_moves",
    "move_values",
    "states",
    "seconds",
    "capped_at",
    "derived_from",
)


@dataclass(frozen=True)
class Task:
    """One entry of a table: a board size, a mine count and a first-click rule."""

    height: int
    width: int
    mines: int
    rule: str

    @property
    def size(self) -> BoardSize:
        return BoardSize(self.height, self.width)

    @property
    def layouts(self) -> int:
        """The most layouts a search starts from under this rule (over first clicks): a measure of difficulty.

        ``none``: every layout; ``safe``: the clicked cell is mine-free; ``zero``: so are
        its neighbours, and a corner (fewest neighbours) leaves the most.
        """
        n = self.height * self.width
        if self.rule == "none":
            return comb(n, self.mines)
        if self.rule == "safe":
            return comb(n - 1, self.mines)
        size = self.size
        return comb(n - 1 - min(len(size.neighbours(cell)) for cell in size.cells()), self.mines)


def tasks(
    sizes: Iterable[tuple[int, int]], rules: Iterable[str] = FIRST_CLICK_RULES, max_layouts: int | None = None
) -> list[Task]:
    """Every mine count (1 .. cells - 1) of every size (h <= w) and rule, easiest first.

    Entries with more starting layouts than ``max_layouts`` (and than the solver
    accepts at all, ``SOLVER_LAYOUTS``) are left out.
    """
    rules = list(rules)
    for rule in rules:
        check_first_click(rule)
    found = [Task(h, w, k, rule) for h, w in sizes for k in range(1, h * w) for rule in rules]
    limit = SOLVER_LAYOUTS if max_layouts is None else min(max_layouts, SOLVER_LAYOUTS)
    found = [t for t in found if t.layouts <= limit]
    return sorted(found, key=lambda t: (t.layouts, t.height * t.width, t.height, t.mines, rules.index(t.rule)))


def _check_exists(path: Path | str) -> None:
    if not Path(path).exists():  # (connecting would make an empty file there)
        raise ValueError(f"no table at {path}: run `python -m minelib tables` first")


def _check_tables(connection: sqlite3.Connection, path: Path | str, empty: bool) -> None:
    """Raise ValueError unless the file holds the table of optimal play (or nothing yet, if ``empty``
    will do): not another kind of file, nor a results file of games, to be read or written into."""
    try:
        tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as error:  # another kind of file
        raise ValueError(f"{path} is not an SQLite file of optimal play ({error})") from None
    others = sorted(t for t in tables - {"optimal", "pieces"} if not t.startswith("sqlite_"))
    if others or not (empty or "optimal" in tables):
        held = f"other tables ({', '.join(others)})" if others else "no table"
        raise ValueError(f"{path} holds {held}, not the table of optimal play")


def boards_up_to(side: int, strips: Iterable[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """Every size h x w with h <= w <= side, plus the given strips."""
    return sorted({(h, w) for w in range(1, side + 1) for h in range(1, w + 1) if h * w > 1} | set(strips))


def connect(path: Path | str) -> sqlite3.Connection:
    """The table's database, created if missing."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(path)
    try:
        _check_tables(connection, path, empty=True)
    except ValueError:
        connection.close()
        raise
    connection.execute(SCHEMA)
    connection.execute(PIECES_SCHEMA)
    if "derived_from" not in {row[1] for row in connection.execute("PRAGMA table_info(optimal)")}:
        connection.execute("ALTER TABLE optimal ADD COLUMN derived_from TEXT")  # a table from before the column
    return connection


def result_columns(values: dict[tuple[int, int], Fraction], states: int, seconds: float) -> dict:
    values = dict(sorted(values.items()))  # row by row
    best = max(values.values())
    return {
        "probability": str(best),
        "value": float(best),
        "best_moves": json.dumps([list(c) for c, v in values.items() if v == best]),
        "move_values": json.dumps({f"{y},{x}": str(v) for (y, x), v in values.items()}),
        "states": states,
        "seconds": seconds,
        "capped_at": None,
        "derived_from": None,
    }


def derive_none(task: Task, safe_values: dict[tuple[int, int], Fraction]) -> dict[tuple[int, int], Fraction]:
    """Every first click's value under ``none`` from its value under ``safe``: times (n - k) / n.

    Exact: the layouts with a mine under the first click are lost whatever
    follows, and the others are exactly the ``safe`` rule's layouts for that
    click, so both rules win the same layouts, out of C(n, k) and C(n - 1, k).
    """
    n = task.height * task.width
    return {cell: value * Fraction(n - task.mines, n) for cell, value in safe_values.items()}


@dataclass(frozen=True)
class Entry:
    """A solved entry of the table."""

    task: Task
    probability: Fraction
    best_moves: list[tuple[int, int]]
    move_values: dict[tuple[int, int], Fraction]
    states: int
    seconds: float
    derived_from: str | None = None  # 'safe': a 'none' entry derived from the safe one, not searched


def load_table(path: Path | str) -> list[Entry]:
    """Every solved entry, by size, mines and rule."""
    _check_exists(path)
    with closing(sqlite3.connect(path)) as connection:
        _check_tables(connection, path, empty=False)
        columns = {row[1] for row in connection.execute("PRAGMA table_info(optimal)")}
        derived = "derived_from" if "derived_from" in columns else "NULL"  # a table from before the column
        rows = connection.execute(
            f"SELECT height, width, mines, rule, probability, best_moves, move_values, states, seconds, {derived} "
            "FROM optimal WHERE probability IS NOT NULL ORDER BY height, width, mines, rule"
        ).fetchall()
    return [
        Entry(
            Task(h, w, k, rule),
            Fraction(p),
            [(y, x) for y, x in json.loads(best)],
            {cell_at(c): Fraction(v) for c, v in json.loads(values).items()},
            states,
            seconds,
            source,
        )
        for h, w, k, rule, p, best, values, states, seconds, source in rows
    ]


def cell_at(text: str) -> tuple[int, int]:
    """A cell stored as "y,x"."""
    y, x = text.split(",")
    return int(y), int(x)


def capped(path: Path | str) -> list[tuple[Task, float]]:
    """The entries stopped by the time cap, with the cap."""
    _check_exists(path)
    with closing(sqlite3.connect(path)) as connection:
        _check_tables(connection, path, empty=False)
        rows = connection.execute(
            "SELECT height, width, mines, rule, capped_at FROM optimal "
            "WHERE probability IS NULL ORDER BY height, width, mines, rule"
        ).fetchall()
    return [(Task(h, w, k, rule), cap) for h, w, k, rule, cap in rows]


@dataclass(frozen=True)
class Partial:
    """An entry being solved in pieces: what its finished pieces prove so far."""

    task: Task
    pieces: int  # pieces finished
    layouts: int  # the layouts they cover, of ...
    total: int  # ... every piece's layouts (every first click of an orbit, where it is safe)
    bounds: dict[Cell, tuple[Fraction, Fraction]]  # each first click's win probability lies in [low, high]

    @property
    def best(self) -> tuple[Fraction, Fraction]:
        """Bounds of the entry's value (the best first click's)."""
        return max(low for low, _ in self.bounds.values()), max(high for _, high in self.bounds.values())


def in_progress(path: Path | str) -> list[Partial]:
    """Every entry with finished pieces but no result yet, with bounds from its pieces: a click's wins are at
    least those of its finished pieces, and at most those plus every layout of its other pieces."""
    if not Path(path).exists():
        raise ValueError(f"no table at {path}: run `python -m minelib tables` first")
    with connect(path) as connection:
        solved = set(connection.execute("SELECT height, width, mines, rule FROM optimal WHERE probability IS NOT NULL"))
        rows = connection.execute(
            "SELECT height, width, mines, rule, y, x, SUM(layouts), SUM(wins), COUNT(*) FROM pieces "
            "GROUP BY height, width, mines, rule, y, x ORDER BY height, width, mines, rule, y, x"
        ).fetchall()
    found: dict[Task, dict] = {}
    for h, w, k, rule, y, x, layouts, wins, count in rows:
        if (h, w, k, rule) not in solved:
            found.setdefault(Task(h, w, k, rule), {})[(y, x)] = (layouts, wins, count)
    partials = []
    for task, done in found.items():
        geometry = Geometry.of(task.size)
        bounds, covered, total, count = {}, 0, 0, 0
        for orbit in geometry.orbits():
            cell = orbit[0]
            i, n, k = task.size.cell_id(cell), task.height * task.width, task.mines
            banned = 1 if task.rule != "zero" else 1 + geometry.neighbours[i].bit_count()
            safe = comb(n - banned, k)  # the layouts of this click's pieces
            every = comb(n, k) if task.rule == "none" else safe  # the denominator
            layouts, wins, pieces_done = done.get(cell, (0, 0, 0))
            covered, total, count = covered + layouts, total + safe, count + pieces_done
            low, high = Fraction(wins, every or 1), Fraction(wins + safe - layouts, every or 1)
            bounds.update(dict.fromkeys(orbit, (low, high)))
        partials.append(Partial(task, count, covered, total, bounds))
    return partials


def by_size(entries: list[Entry]) -> dict[str, list[Entry]]:
    """The entries grouped by board size ("HxW"), smaller boards first."""
    groups: dict[str, list[Entry]] = {}
    for e in sorted(entries, key=lambda e: (e.task.height * e.task.width, e.task.height, e.task.mines)):
        groups.setdefault(str(e.task.size), []).append(e)
    return groups


__all__ = [
    "COLUMNS",
    "PIECES_SCHEMA",
    "SCHEMA",
    "Entry",
    "Partial",
    "Task",
    "boards_up_to",
    "by_size",
    "capped",
    "cell_at",
    "connect",
    "derive_none",
    "in_progress",
    "load_table",
    "result_columns",
    "tasks",
]
