"""Experiments: seeded, resumable, any executor, summaries and the play command."""
import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from minelib.cli import main
from minelib.experiments import Setting, load, run, summarize, wilson_interval


def test_wilson_interval_brackets_the_rate():
    low, high = wilson_interval(41, 100)
    assert 0.31 < low < 0.41 < high < 0.52
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 10)[1] == pytest.approx(0.2775, abs=1e-4)  # the textbook value


def test_results_do_not_depend_on_the_executor(tmp_path):
    setting = Setting("best", "9x9", 10, games=6, seed=3)
    serial = run(setting, tmp_path / "a.jsonl", parallel=False, progress=False)
    threads = run(setting, tmp_path / "b.jsonl", executor=ThreadPoolExecutor(2), progress=False)
    pooled = run(setting, tmp_path / "c.jsonl", progress=False)
    assert serial.wins == threads.wins == pooled.wins
    by_index = [{i: (e["won"], e["guesses"]) for i, e in load(tmp_path / f"{n}.jsonl", setting).items()}
                for n in "abc"]
    assert by_index[0] == by_index[1] == by_index[2] and len(by_index[0]) == 6


def test_an_interrupted_run_resumes(tmp_path):
    path = tmp_path / "r.jsonl"
    setting = Setting("zdd", "8x8", 10, games=5, seed=1)
    run(Setting("zdd", "8x8", 10, games=2, seed=1), path, parallel=False, progress=False)
    with open(path, "a") as handle:
        handle.write('{"setting": "torn')  # a line cut short by a kill
    played = []
    import minelib.experiments as experiments
    original = experiments.play_one

    def spy(s, i):
        played.append(i)
        return original(s, i)
    experiments.play_one = spy
    try:
        summary = run(setting, path, parallel=False, progress=False)
    finally:
        experiments.play_one = original
    assert played == [2, 3, 4] and summary.games == 5


def test_replaying_layouts(tmp_path):
    boards = ("*....\n.....\n.....\n.....\n....*", ".....\n..*..\n.....\n.....\n*....")
    summary = run(Setting("best", "5x5", 2, games=2, boards=boards), parallel=False, progress=False)
    assert summary.games == 2
    with pytest.raises(ValueError, match="not 5x5 with 3 mines"):
        Setting("best", "5x5", 3, games=2, boards=boards)


@pytest.mark.parametrize("kwargs, message", [
    (dict(solver="smart"), "unknown solver"), (dict(first="edge"), "unknown first click"),
    (dict(games=0), "positive integer"), (dict(mines=81), "do not fit")])
def test_bad_settings_are_refused(kwargs, message):
    fields = dict(solver="best", size="9x9", mines=10, games=3) | kwargs
    with pytest.raises(ValueError, match=message):
        Setting(**fields)


def test_summary_of_nothing_is_an_error():
    with pytest.raises(ValueError, match="no games"):
        summarize([])


def test_play_command(tmp_path, capsys):
    assert main(["play", "--size", "9x9", "--mines", "10", "--games", "4", "--serial", "--json",
                 "--results", str(tmp_path / "r.jsonl")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 4 and 0 <= out["wins"] <= 4 and len(out["interval"]) == 2
    boards = tmp_path / "boards.txt"
    boards.write_text("*...\n....\n....\n...*\n\n....\n.*..\n....\n..*.\n")
    assert main(["play", "--size", "4x4", "--mines", "2", "--boards", str(boards), "--serial",
                 "--first-click", "safe", "--quiet"]) == 0
    assert "/2 won" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["--size", "9x9", "--games", "2"], "--mines K or --density D"),
    (["--size", "9x9", "--mines", "90", "--games", "2"], "do not fit"),
    (["--size", "9by9", "--mines", "9"], "HxW"),
    (["--size", "9x9", "--density", "2"], "density"),
    (["--size", "4x4", "--mines", "2", "--boards", "/nonexistent"], "cannot read")])
def test_play_command_errors(argv, message, capsys):
    assert main(["play", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
