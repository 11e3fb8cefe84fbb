"""Big runs on Dask, for real: a LocalCluster on 127.0.0.1 plays and solves what this machine would,
game for game and entry for entry, resumes after an interruption and loses nothing to a dead worker."""

import json
import os
import signal
import threading
import time

import pytest

distributed = pytest.importorskip("distributed")

from minelib import results  # noqa: E402
from minelib.cli import main  # noqa: E402
from minelib.experiments import Setting, load, run  # noqa: E402
from minelib.filling import fill_table  # noqa: E402
from minelib.tables import load_table, tasks  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        ) as local,
        distributed.Client(local) as client,
    ):
        yield local, client


def outcomes(path, setting) -> dict:
    return {i: (g["won"], g["guesses"]) for i, g in load(path, setting).items()}


def test_games_played_through_dask_are_the_serial_games(tmp_path, cluster):
    _, client = cluster
    setting = Setting("lookahead", "9x9", 10, games=8, seed=5)
    run(setting, tmp_path / "serial.jsonl", parallel=False, progress=False)
    summary = run(setting, tmp_path / "dask.jsonl", client=client, progress=False)
    assert summary.games == 8
    assert outcomes(tmp_path / "dask.jsonl", setting) == outcomes(tmp_path / "serial.jsonl", setting)


def test_an_interrupted_dask_run_resumes(tmp_path, cluster, monkeypatch):
    _, client = cluster
    setting = Setting("safest", "8x8", 10, games=10, seed=6)
    path = tmp_path / "games.jsonl"
    append, written = results._append, []

    def append_then_stop(target, entry):
        append(target, entry)
        written.append(entry["index"])
        if len(written) == 3:
            raise KeyboardInterrupt  # as if the user pressed Ctrl-C

    monkeypatch.setattr(results, "_append", append_then_stop)
    with pytest.raises(KeyboardInterrupt):
        run(setting, path, client=client, progress=False)
    monkeypatch.setattr(results, "_append", append)
    assert len(load(path, setting)) == 3
    run(setting, path, client=client, progress=False)
    run(setting, tmp_path / "serial.jsonl", parallel=False, progress=False)
    assert outcomes(path, setting) == outcomes(tmp_path / "serial.jsonl", setting)
    assert len(path.read_text().splitlines()) == 10  # the three kept games were not played again


def test_a_worker_dying_mid_run_loses_no_finished_game(tmp_path, cluster):
    _, client = cluster
    setting = Setting("lookahead", "16x30", 99, games=16, seed=7, first_click="safe", first="corner")
    path = tmp_path / "games.jsonl"
    finished = threading.Thread(target=run, args=(setting, path), kwargs=dict(client=client, progress=False))
    finished.start()
    deadline = time.time() + 120
    while time.time() < deadline and (not path.exists() or len(path.read_text().splitlines()) < 3):
        time.sleep(0.05)
    kept = path.read_text().splitlines()
    victim = next(iter(client.run(os.getpid).values()))
    os.kill(victim, signal.SIGKILL)  # a worker process dies at once, in the middle of its game
    finished.join(timeout=300)
    assert not finished.is_alive()
    client.wait_for_workers(2, timeout=120)  # its nanny started another
    # it did die; the scheduler may still list it a moment after the run ends: a busy machine lets the
    # run finish before the scheduler hears of the death, so the dead worker's answer is left out
    assert victim not in client.run(os.getpid, on_error="ignore").values()
    lines = path.read_text().splitlines()
    assert lines[: len(kept)] == kept  # nothing finished was lost or rewritten
    assert sorted(json.loads(line)["index"] for line in lines) == list(range(16))  # each game exactly once
    run(setting, tmp_path / "serial.jsonl", parallel=False, progress=False)
    assert outcomes(path, setting) == outcomes(tmp_path / "serial.jsonl", setting)


def test_tables_filled_on_dask_are_the_tables_filled_here(tmp_path, cluster):
    _, client = cluster
    todo = tasks([(2, 3), (3, 3)], max_layouts=300)
    fill_table(tmp_path / "here.sqlite", todo, progress=False)
    counts = fill_table(tmp_path / "dask.sqlite", todo, progress=False, client=client, cap=120)
    assert counts["solved"] == len(todo) and counts["capped"] == 0
    here, there = load_table(tmp_path / "here.sqlite"), load_table(tmp_path / "dask.sqlite")
    assert [(e.task, e.probability, e.move_values, e.derived_from) for e in there] == [
        (e.task, e.probability, e.move_values, e.derived_from) for e in here
    ]
    assert fill_table(tmp_path / "dask.sqlite", todo, progress=False, client=client)["already"] == len(todo)


def test_the_command_line_runs_on_a_cluster(tmp_path, cluster, capsys):
    local, _ = cluster
    argv = ["play", "--size", "9x9", "--mines", "10", "--games", "4", "--seed", "3", "--json"]
    assert main([*argv, "--scheduler", local.scheduler_address]) == 0
    on_cluster = json.loads(capsys.readouterr().out)
    assert main([*argv, "--serial"]) == 0
    here = json.loads(capsys.readouterr().out)
    assert on_cluster["wins"] == here["wins"] and on_cluster["games"] == 4
    db = tmp_path / "t.sqlite"
    assert main(["tables", "--side", "2", "--db", str(db), "--quiet", "--scheduler", local.scheduler_address]) == 0
    assert "solved now" in capsys.readouterr().out and load_table(db)


def test_a_scheduler_that_does_not_answer_is_one_clear_line(capsys, monkeypatch):
    from minelib import cluster

    monkeypatch.setattr(cluster.connect, "__defaults__", (2,))
    assert main(["play", "--size", "9x9", "--mines", "10", "--scheduler", "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert "no Dask scheduler answers at tcp://127.0.0.1:9" in err and len(err.strip().splitlines()) == 1
