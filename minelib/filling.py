"""Filling the table of optimal play: every entry solved and committed the moment it is known.

``fill_table`` solves every (board, mines, first-click rule) in a list, easiest
first, and commits each result the moment it is known: interrupt it and run it
again, and it resumes where it stopped. A board that passes the time cap is
recorded as such (and retried when asked with a larger cap). With a Dask client
the searches run on the cluster.

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
from collections.abc import Iterator
from concurrent.futures import as_completed
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from minelib.board import Cell
from minelib.cluster import DaskExecutor
from minelib.layouts import Geometry
from minelib.optimal import OptimalSolver
from minelib.tables import Entry, Task, cell_at, connect, derive_none, load_table, result_columns
from minelib.timing import TimeCapExceeded, time_cap


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
    return row | result_columns(result.move_values, result.states, result.seconds)


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
    values = {cell_at(c): Fraction(v) for c, v in found["move_values"].items()}
    return row | result_columns(values, found["states"], found["seconds"])


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
    return row | result_columns(values, states, seconds)


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
    safe = {cell_at(c): Fraction(v) for c, v in json.loads(found[0]).items()}
    row = {"height": task.height, "width": task.width, "mines": task.mines, "rule": task.rule}
    return row | result_columns(derive_none(task, safe), 0, 0.0) | {"derived_from": "safe"}


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


__all__ = ["Piece", "fill_table", "pieces", "resolve_agrees", "solve_in_pieces"]
