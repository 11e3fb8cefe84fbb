"""Exhaustive tables of optimal play, kept in SQLite (the storage idea of article 002).

``fill_table`` solves every (board, mines, first-click rule) in a list, easiest
first, and commits each result the moment it is known: interrupt it and run it
again, and it resumes where it stopped. A board that passes the time cap is
recorded as such (and retried when asked with a larger cap). ``load_table``
reads the results back for the notebooks.

An entry too long for one sitting is solved in *pieces* (``workers=N``): one per
first click (a cell of each symmetry orbit) and number it shows. A piece's win
count is independent of the others' (the click's value is their sum over its
layouts), so the pieces run on N processes and each is committed to the
``pieces`` table as it finishes; an interrupted or capped entry resumes from the
pieces it has.
"""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import as_completed
from contextlib import closing
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from pathlib import Path

from minelib.board import BoardSize, Cell
from minelib.cluster import DaskExecutor
from minelib.game import FIRST_CLICK_RULES, check_first_click
from minelib.layouts import SOLVER_LAYOUTS, Geometry
from minelib.optimal import OptimalSolver
from minelib.timing import TimeCapExceeded, time_cap

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


def fill_table(
    path: Path | str,
    todo: list[Task],
    cap: float | None = None,
    progress: bool = True,
    engine: str = "auto",
    max_states: int | None = None,
    client=None,
    workers: int | None = None,
) -> dict:
    """Solve every task not yet in the table (or capped below ``cap``); commit each at once.

    ``engine`` and ``max_states`` (the memo's bound; the engine's default when None)
    are passed to ``OptimalSolver``. With a Dask ``client`` the searches run on the
    cluster, in parallel, each committed here as it comes back. With ``workers``,
    each entry is solved in pieces on that many processes (``solve_in_pieces``).

    A ``none`` entry whose ``safe`` entry is solved is derived from it (``derive_none``)
    instead of searched. Returns how many were solved now (derived ones included),
    already there, and stopped by the cap.
    """
    from tqdm.auto import tqdm

    if workers is not None and (workers < 1 or client is not None):
        raise ValueError(f"workers must be a positive number of local processes (not {workers} with a cluster)")
    counts = {"solved": 0, "already": 0, "capped": 0}
    with connect(path) as connection:
        done = {
            row[:4]: row[4] for row in connection.execute("SELECT height, width, mines, rule, capped_at FROM optimal")
        }
        pending = [t for t in todo if not _settled(done, (t.height, t.width, t.mines, t.rule), cap)]
        counts["already"] = len(todo) - len(pending)
        bar = tqdm(total=len(todo), initial=counts["already"], desc="optimal play", unit="board", disable=not progress)

        def keep(row: dict) -> None:
            counts["capped" if row.get("capped_at") is not None else "solved"] += 1
            connection.execute(
                f"INSERT OR REPLACE INTO optimal ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                tuple(row.values()),
            )
            connection.commit()  # a result is kept the moment it is known
            bar.set_postfix_str(f"{row['height']}x{row['width']}/{row['mines']} {row['rule']}")
            bar.update()

        try:
            if client is None and workers is not None:
                for task in pending:
                    keep(
                        _derived_row(connection, task)
                        or solve_in_pieces(connection, task, workers, cap, engine, max_states, progress)
                    )
            elif client is None:
                for task in pending:
                    keep(_derived_row(connection, task) or _solved_row(task, cap, engine, max_states))
            else:
                _fill_on_cluster(connection, pending, keep, client, cap, engine, max_states)
        finally:
            bar.close()
    return counts


def _settled(done: dict, key: tuple, cap: float | None) -> bool:
    """Whether a stored entry needs no new search: solved, or capped at least at ``cap``."""
    if key not in done:
        return False
    capped_at = done[key]
    return capped_at is None or cap is None or capped_at >= cap


def _fill_on_cluster(connection, pending: list[Task], keep, client, cap, engine, max_states) -> None:
    """Search the pending tasks on the cluster; ``none`` entries whose ``safe`` twin is among them wait for
    it, so that they can be derived instead of searched."""
    twins = {(t.height, t.width, t.mines) for t in pending if t.rule == "safe"}
    later = [t for t in pending if t.rule == "none" and (t.height, t.width, t.mines) in twins]
    executor = DaskExecutor(client)
    for batch in ([t for t in pending if t not in later], later):
        remote = []
        for task in batch:
            row = _derived_row(connection, task)
            if row:
                keep(row)
            else:
                remote.append(task)
        futures = [executor.submit(_solved_row_apart, task, cap, engine, max_states) for task in remote]
        try:
            for future in as_completed(futures):
                keep(future.result())
        finally:
            for future in futures:
                future.cancel()


def _solved_row(task: Task, cap: float | None, engine: str, max_states: int | None) -> dict:
    row = {"height": task.height, "width": task.width, "mines": task.mines, "rule": task.rule}
    try:
        with time_cap(cap):
            result = OptimalSolver(task.size, task.mines, engine, max_states=max_states).first_move(task.rule)
    except TimeCapExceeded:
        return row | {"capped_at": cap}
    return row | _result_columns(result.move_values, result.states, result.seconds)


def _solved_row_apart(task: Task, cap: float | None, engine: str, max_states: int | None) -> dict:
    """``_solved_row`` where no signal can stop a search (a cluster worker's thread): with a cap, the search
    runs in a child process (``python -m minelib optimal``), stopped at the cap."""
    if cap is None:
        return _solved_row(task, None, engine, max_states)
    row = {"height": task.height, "width": task.width, "mines": task.mines, "rule": task.rule}
    command = [
        sys.executable,
        "-m",
        "minelib",
        "optimal",
        str(task.size),
        "--mines",
        str(task.mines),
        "--first-click",
        task.rule,
        "--engine",
        engine,
        "--json",
    ]
    if max_states is not None:
        command += ["--max-states", str(max_states)]
    try:
        answer = subprocess.run(command, capture_output=True, text=True, timeout=cap, check=True)
    except subprocess.TimeoutExpired:
        return row | {"capped_at": cap}
    found = json.loads(answer.stdout)
    values = {_cell(c): Fraction(v) for c, v in found["move_values"].items()}
    return row | _result_columns(values, found["states"], found["seconds"])


@dataclass(frozen=True)
class Piece:
    """A first click on ``cell`` showing ``number``: the layouts where it does, searched on their own."""

    task: Task
    cell: Cell
    number: int
    layouts: int


def pieces(task: Task) -> tuple[list[Piece], dict[Cell, int]]:
    """The pieces of an entry (largest first), and every first click's layouts (the denominators;
    under ``none`` they include the layouts lost on the first click)."""
    solver = OptimalSolver(task.size, task.mines, engine="python")
    found, totals = [], {}
    for orbit in solver.geometry.orbits():
        layouts = solver.first_click_layouts(orbit[0], task.rule)
        totals[orbit[0]] = len(layouts)
        for number, part in _by_number(solver, orbit[0], layouts).items():
            found.append(Piece(task, orbit[0], number, len(part)))
    return sorted(found, key=lambda p: (-p.layouts, p.cell, p.number)), totals


def _by_number(solver: OptimalSolver, cell: Cell, layouts: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    """The layouts where ``cell`` is safe, by the number it shows."""
    bit, around = solver.geometry.bit(cell), solver.geometry.neighbours[solver.size.cell_id(cell)]
    parts: dict[int, list[int]] = {}
    for mask in layouts:
        if not mask & bit:
            parts.setdefault((mask & around).bit_count(), []).append(mask)
    return {number: tuple(part) for number, part in sorted(parts.items())}


_SOLVERS: dict[tuple, OptimalSolver] = {}  # a worker keeps one solver (and its memo) across the pieces of an entry


def _solve_piece(piece: Piece, engine: str, max_states: int | None) -> tuple[Piece, int, int, float]:
    """(piece, wins, states, seconds): the exact win count of a piece, in a worker process."""
    task = piece.task
    key = (task.height, task.width, task.mines, engine, max_states)
    if key not in _SOLVERS:
        _SOLVERS.clear()  # one entry at a time: the memo of the last one is no use
        _SOLVERS[key] = OptimalSolver(task.size, task.mines, engine, max_states=max_states)
    solver = _SOLVERS[key]
    layouts = _by_number(solver, piece.cell, solver.first_click_layouts(piece.cell, task.rule))[piece.number]
    before, start = solver.solved, time.perf_counter()
    wins = solver.engine.click(layouts, solver.size.cell_id(piece.cell), 0)
    return piece, wins, solver.solved - before, time.perf_counter() - start


def _solve_piece_star(args: tuple) -> tuple[Piece, int, int, float]:
    return _solve_piece(*args)


def _finished_pieces(
    left: list[Piece], workers: int, engine: str, max_states: int | None, deadline: float | None
) -> Iterator[tuple[Piece, int, int, float]]:
    """Yield each piece of ``left`` as a worker finishes it; TimeoutError past ``deadline``. The workers are
    stopped however the caller leaves (done, capped, Ctrl-C)."""
    if not left:
        return
    pool = multiprocessing.Pool(min(workers, len(left)))
    try:
        results = pool.imap_unordered(_solve_piece_star, [(p, engine, max_states) for p in left])
        for _ in left:
            yield results.next(timeout=None if deadline is None else max(deadline - time.monotonic(), 0.001))
    finally:
        pool.terminate()
        pool.join()


def solve_in_pieces(
    connection: sqlite3.Connection,
    task: Task,
    workers: int,
    cap: float | None = None,
    engine: str = "auto",
    max_states: int | None = None,
    progress: bool = True,
) -> dict:
    """An entry's row, from its pieces: those in the ``pieces`` table are reused, the others solved on
    ``workers`` processes and committed one by one. Past ``cap`` seconds (wall clock, this call) the
    workers are stopped and the row says so; the finished pieces stay for the next run."""
    from tqdm.auto import tqdm

    todo, totals = pieces(task)
    key = (task.height, task.width, task.mines, task.rule)
    done = {
        (y, x, number): (wins, states, seconds)
        for y, x, number, wins, states, seconds in connection.execute(
            "SELECT y, x, number, wins, states, seconds FROM pieces "
            "WHERE height = ? AND width = ? AND mines = ? AND rule = ?",
            key,
        )
    }
    left = [p for p in todo if p.cell + (p.number,) not in done]
    deadline = None if cap is None else time.monotonic() + cap
    row = {"height": task.height, "width": task.width, "mines": task.mines, "rule": task.rule}
    bar = tqdm(
        total=len(todo),
        initial=len(todo) - len(left),
        desc=f"{task.size}/{task.mines} {task.rule} pieces",
        unit="piece",
        leave=False,
        disable=not progress,
    )
    try:
        for piece, wins, states, seconds in _finished_pieces(left, workers, engine, max_states, deadline):
            connection.execute(
                "INSERT OR REPLACE INTO pieces VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*key, *piece.cell, piece.number, piece.layouts, wins, states, seconds),
            )
            connection.commit()
            done[piece.cell + (piece.number,)] = (wins, states, seconds)
            bar.update()
    except multiprocessing.TimeoutError:
        return row | {"capped_at": cap}
    finally:
        bar.close()
    values: dict[Cell, Fraction] = {}
    for orbit in Geometry.of(task.size).orbits():
        won = sum(wins for (y, x, _), (wins, _, _) in done.items() if (y, x) == orbit[0])
        total = totals[orbit[0]]
        values.update(dict.fromkeys(orbit, Fraction(won, total) if total else Fraction(0)))
    states = sum(s for _, s, _ in done.values())
    seconds = sum(t for _, _, t in done.values())
    return row | _result_columns(values, states, seconds)


def _result_columns(values: dict[tuple[int, int], Fraction], states: int, seconds: float) -> dict:
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


def _derived_row(connection: sqlite3.Connection, task: Task) -> dict | None:
    if task.rule != "none":
        return None
    found = connection.execute(
        "SELECT move_values FROM optimal WHERE height = ? AND width = ? AND mines = ? AND rule = 'safe' "
        "AND probability IS NOT NULL",
        (task.height, task.width, task.mines),
    ).fetchone()
    if found is None:
        return None
    safe = {_cell(c): Fraction(v) for c, v in json.loads(found[0]).items()}
    row = {"height": task.height, "width": task.width, "mines": task.mines, "rule": task.rule}
    return row | _result_columns(derive_none(task, safe), 0, 0.0) | {"derived_from": "safe"}


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
            {_cell(c): Fraction(v) for c, v in json.loads(values).items()},
            states,
            seconds,
            source,
        )
        for h, w, k, rule, p, best, values, states, seconds, source in rows
    ]


def _cell(text: str) -> tuple[int, int]:
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


def resolve_agrees(entries: list[Entry], todo: list[Task], engine: str = "python") -> tuple[int, bool]:
    """Solve ``todo`` again from scratch (into a temporary table) with ``engine``: how many entries, and
    whether each has the stored probability, best moves and every move's value."""
    stored = {e.task: (e.probability, e.best_moves, e.move_values) for e in entries}
    with tempfile.TemporaryDirectory() as folder:
        fill_table(Path(folder) / "check.sqlite", todo, progress=False, engine=engine)
        fresh = {
            e.task: (e.probability, e.best_moves, e.move_values) for e in load_table(Path(folder) / "check.sqlite")
        }
    return len(fresh), all(stored.get(task) == value for task, value in fresh.items())


def by_size(entries: list[Entry]) -> dict[str, list[Entry]]:
    """The entries grouped by board size ("HxW"), smaller boards first."""
    groups: dict[str, list[Entry]] = {}
    for e in sorted(entries, key=lambda e: (e.task.height * e.task.width, e.task.height, e.task.mines)):
        groups.setdefault(str(e.task.size), []).append(e)
    return groups


__all__ = [
    "COLUMNS",
    "SCHEMA",
    "Entry",
    "Partial",
    "Piece",
    "Task",
    "boards_up_to",
    "by_size",
    "capped",
    "connect",
    "derive_none",
    "fill_table",
    "in_progress",
    "load_table",
    "pieces",
    "resolve_agrees",
    "solve_in_pieces",
    "tasks",
]
