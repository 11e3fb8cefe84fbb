"""The SQLite tables: filled incrementally, resumable, capped entries retried, read back exactly."""

import multiprocessing
import sqlite3
import time
from contextlib import closing
from fractions import Fraction
from math import comb

import pytest

from minelib import filling
from minelib.filling import fill_table, pieces
from minelib.layouts import Geometry
from minelib.optimal import solve
from minelib.tables import SCHEMA, Task, boards_up_to, capped, derive_none, in_progress, load_table, tasks


def test_tasks_cover_every_mine_count_and_rule_easiest_first():
    todo = tasks([(2, 3)])
    assert len(todo) == 5 * 3
    assert [t.layouts for t in todo] == sorted(t.layouts for t in todo)
    assert {t.mines for t in todo} == {1, 2, 3, 4, 5}
    assert boards_up_to(2) == [(1, 2), (2, 2)]


def test_fill_then_resume_loses_nothing_and_redoes_nothing(tmp_path):
    path = tmp_path / "t.sqlite"
    todo = tasks([(2, 3), (1, 5)], rules=["none", "safe"])
    first = fill_table(path, todo[:7], progress=False)
    assert first == {"solved": 7, "already": 0, "capped": 0}
    second = fill_table(path, todo, progress=False)  # as after an interruption
    assert second == {"solved": len(todo) - 7, "already": 7, "capped": 0}
    entries = {e.task: e for e in load_table(path)}
    assert len(entries) == len(todo)
    for task in todo:
        expected = solve(task.size, task.mines, task.rule)
        assert entries[task].probability == expected.probability
        assert entries[task].best_moves == expected.best_moves
        assert entries[task].move_values == expected.move_values


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_the_memo_bound_reaches_the_solver_and_changes_no_value(tmp_path, engine):
    todo = [Task(3, 4, 4, "safe"), Task(3, 3, 3, "zero")]
    found = {}
    for max_states in (None, 3):
        path = tmp_path / f"{max_states}.sqlite"
        fill_table(path, todo, progress=False, engine=engine, max_states=max_states)
        found[max_states] = {e.task: e for e in load_table(path)}
    for task in todo:
        default, small = found[None][task], found[3][task]
        assert (small.probability, small.move_values) == (default.probability, default.move_values)
    assert sum(found[3][t].states for t in todo) > sum(found[None][t].states for t in todo)


@pytest.mark.parametrize("size, mines", [("2x3", 2), ("3x3", 3), ("1x6", 2), ("3x4", 5)])
def test_the_none_rule_is_the_safe_rule_times_the_first_click_being_safe(size, mines):
    task = Task(*map(int, size.split("x")), mines, "none")
    safe = solve(size, mines, "safe").move_values
    assert derive_none(task, safe) == solve(size, mines, "none", engine="python").move_values


def test_none_entries_are_derived_from_solved_safe_entries(tmp_path):
    path = tmp_path / "t.sqlite"
    todo = tasks([(3, 3)], rules=["none", "safe"])  # safe first: fewer starting layouts
    assert fill_table(path, todo, progress=False)["solved"] == len(todo)
    for entry in load_table(path):
        expected = solve(entry.task.size, entry.task.mines, entry.task.rule, engine="python")
        assert entry.move_values == expected.move_values and entry.best_moves == expected.best_moves
        assert entry.derived_from == ("safe" if entry.task.rule == "none" else None)
        assert entry.derived_from is None or entry.states == 0  # nothing searched


def test_a_table_from_before_the_derived_column_still_loads_and_fills(tmp_path):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as connection:
        connection.execute(SCHEMA.replace("derived_from TEXT,", ""))
        connection.execute(
            "INSERT INTO optimal (height, width, mines, rule, probability, best_moves, move_values, "
            "states, seconds) VALUES (1, 2, 1, 'safe', '1', '[[0, 0], [0, 1]]', "
            '\'{"0,0": "1", "0,1": "1"}\', 1, 0.0)'
        )
    assert [e.derived_from for e in load_table(path)] == [None]
    fill_table(path, [Task(1, 2, 1, "none")], progress=False)
    assert {e.task.rule: e.derived_from for e in load_table(path)} == {"safe": None, "none": "safe"}


def test_capped_entries_are_recorded_and_retried_with_more_time(tmp_path):
    path = tmp_path / "t.sqlite"
    task = Task(5, 5, 6, "none")  # about a minute: a thousand times the cap
    assert fill_table(path, [task], cap=0.05, progress=False)["capped"] == 1
    assert capped(path) == [(task, 0.05)] and load_table(path) == []
    small = Task(2, 2, 1, "none")
    with sqlite3.connect(path) as connection:  # pretend the small one was capped too
        connection.execute("INSERT INTO optimal (height, width, mines, rule, capped_at) VALUES (2, 2, 1, 'none', 0.01)")
    assert fill_table(path, [small], cap=0.02, progress=False)["solved"] == 1
    assert [e.task for e in load_table(path)] == [small]


def test_bad_rules_and_missing_tables_are_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="unknown first-click rule 'corner'"):
        tasks([(2, 2)], rules=["corner"])
    with pytest.raises(ValueError, match="no table at"):
        load_table(tmp_path / "missing.sqlite")
    with pytest.raises(ValueError, match="no table at"):
        capped(tmp_path / "missing.sqlite")
    assert not (tmp_path / "missing.sqlite").exists()  # asking made no empty file
    games, text = tmp_path / "games.sqlite", tmp_path / "notes.sqlite"
    with closing(sqlite3.connect(games)) as db, db:
        db.execute("CREATE TABLE blocks (setting TEXT)")  # a results file of games
    text.write_text("not a database")
    for read in (load_table, capped):
        with pytest.raises(ValueError, match=r"games.sqlite holds other tables \(blocks\), not the table"):
            read(games)
        with pytest.raises(ValueError, match=r"notes\.sqlite is not an SQLite file of optimal play"):
            read(text)


def test_entries_the_solver_refuses_are_left_out():
    from minelib.layouts import SOLVER_LAYOUTS

    todo = tasks([(5, 5)])
    assert todo and all(t.layouts <= SOLVER_LAYOUTS for t in todo)
    assert Task(5, 5, 10, "none") not in todo  # 3.3 million starting layouts
    assert Task(5, 5, 10, "zero") in todo  # a corner's first click leaves 21 cells: 352,716 layouts


def test_starting_layouts_follow_the_rule():
    assert Task(5, 5, 10, "none").layouts == comb(25, 10)
    assert Task(5, 5, 10, "safe").layouts == comb(24, 10)
    assert Task(5, 5, 10, "zero").layouts == comb(21, 10)
    assert Task(1, 6, 2, "zero").layouts == comb(4, 2)  # the end of a strip has one neighbour


def test_pieces_cover_every_first_click_and_number():
    found, totals = pieces(Task(3, 3, 2, "none"))
    assert totals == {(0, 0): comb(9, 2), (0, 1): comb(9, 2), (1, 1): comb(9, 2)}  # one cell per orbit
    for cell in totals:  # every layout where the click is safe lies in exactly one piece of that click
        assert sum(p.layouts for p in found if p.cell == cell) == comb(8, 2)
    assert [p.layouts for p in found] == sorted((p.layouts for p in found), reverse=True)
    assert {p.number for p in found if p.cell == (1, 1)} == {2}  # the centre sees both mines


@pytest.mark.parametrize("task", [Task(3, 4, 3, "none"), Task(4, 4, 4, "safe"), Task(3, 4, 3, "zero")])
def test_an_entry_solved_in_pieces_equals_the_whole_search(tmp_path, task):
    path = tmp_path / "t.sqlite"
    assert fill_table(path, [task], progress=False, workers=2) == {"solved": 1, "already": 0, "capped": 0}
    (entry,) = load_table(path)
    expected = solve(task.size, task.mines, task.rule)
    assert (entry.probability, entry.best_moves, entry.move_values) == (
        expected.probability,
        expected.best_moves,
        expected.move_values,
    )
    with sqlite3.connect(path) as connection:
        stored = connection.execute("SELECT COUNT(*), SUM(layouts) FROM pieces").fetchone()
    found, _ = pieces(task)
    assert stored == (len(found), sum(p.layouts for p in found))


def test_an_entry_in_pieces_resumes_from_the_pieces_it_has(tmp_path):
    path = tmp_path / "t.sqlite"
    task = Task(4, 4, 5, "safe")
    fill_table(path, [task], progress=False, workers=2)
    (whole,) = load_table(path)
    with sqlite3.connect(path) as connection:  # as if stopped: the entry and half of its pieces gone,
        connection.execute("DELETE FROM optimal")  # and a kept piece's count changed to see it reused
        connection.execute("DELETE FROM pieces WHERE rowid % 2 = 0")
        kept = connection.execute("SELECT y, x, number, wins FROM pieces ORDER BY layouts DESC LIMIT 1").fetchone()
        connection.execute("UPDATE pieces SET wins = wins - 1 WHERE y = ? AND x = ? AND number = ?", kept[:3])
    fill_table(path, [task], progress=False, workers=2)
    (again,) = load_table(path)
    cell = tuple(kept[:2])
    assert again.move_values[cell] == whole.move_values[cell] - Fraction(1, comb(15, 5))
    orbit = next(o for o in Geometry(task.size).orbits() if cell in o)  # the click's value is shared by its orbit
    assert {c for c, v in again.move_values.items() if v != whole.move_values[c]} == set(orbit)


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork", reason="the workers must inherit the slow piece")
def test_an_entry_in_pieces_past_the_cap_is_recorded_and_keeps_its_pieces(tmp_path, monkeypatch):
    path = tmp_path / "t.sqlite"
    task = Task(4, 4, 5, "safe")
    found, _ = pieces(task)
    solve_piece = filling._solve_piece

    def slow(piece, engine, max_states):  # the largest piece outlasts the cap however fast the search is
        if piece == found[0]:
            time.sleep(60)
        return solve_piece(piece, engine, max_states)

    monkeypatch.setattr(filling, "_solve_piece", slow)  # (the pool's workers are forked: they call it)
    assert fill_table(path, [task], cap=3, progress=False, workers=2)["capped"] == 1
    assert capped(path) == [(task, 3)] and load_table(path) == []
    with sqlite3.connect(path) as connection:
        kept = {row[0] for row in connection.execute("SELECT layouts FROM pieces")}
        finished = connection.execute("SELECT COUNT(*) FROM pieces").fetchone()[0]
    assert finished < len(found) and kept <= {p.layouts for p in found[1:]}  # the largest never finished


def test_pieces_need_local_workers(tmp_path):
    with pytest.raises(ValueError, match="workers must be a positive number"):
        fill_table(tmp_path / "t.sqlite", [Task(2, 2, 1, "none")], progress=False, workers=0)


@pytest.mark.parametrize("rule", ["none", "zero"])
def test_an_unfinished_entry_is_bounded_by_its_pieces(tmp_path, rule):
    path = tmp_path / "t.sqlite"
    task = Task(3, 4, 3, rule)
    fill_table(path, [task], progress=False, workers=2)
    (entry,) = load_table(path)
    assert in_progress(path) == []  # solved entries are not in progress
    with sqlite3.connect(path) as connection:
        connection.execute("DELETE FROM optimal")
    (every,) = in_progress(path)  # every piece there: the bounds meet at the values
    assert every.layouts == every.total and every.best == (entry.probability, entry.probability)
    assert {c: low for c, (low, high) in every.bounds.items()} == entry.move_values
    with sqlite3.connect(path) as connection:
        connection.execute("DELETE FROM pieces WHERE rowid % 2 = 0")
    (partial,) = in_progress(path)
    assert partial.layouts < partial.total and partial.pieces < every.pieces
    assert all(low <= entry.move_values[c] <= high for c, (low, high) in partial.bounds.items())
    assert any(low < high for low, high in partial.bounds.values())
