"""Experiments: seeded, resumable, any executor, summaries and the play command."""

import json
import sqlite3
import zlib
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

import minelib.experiments as experiments
import minelib.results as results
from minelib.cli import main
from minelib.experiments import Setting, load, run, summarize, wilson_interval
from minelib.moves import luck
from minelib.players import make_player
from minelib.results import LuckSums


def test_wilson_interval_brackets_the_rate():
    low, high = wilson_interval(41, 100)
    assert 0.31 < low < 0.41 < high < 0.52
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 10)[1] == pytest.approx(0.2775, abs=1e-4)  # the textbook value


def test_results_do_not_depend_on_the_executor(tmp_path):
    setting = Setting("lookahead", "9x9", 10, games=6, seed=3)
    serial = run(setting, tmp_path / "a.jsonl", parallel=False, progress=False)
    threads = run(setting, tmp_path / "b.jsonl", executor=ThreadPoolExecutor(2), progress=False)
    pooled = run(setting, tmp_path / "c.jsonl", progress=False)
    assert serial.wins == threads.wins == pooled.wins
    by_index = [{i: (e["won"], e["guesses"]) for i, e in load(tmp_path / f"{n}.jsonl", setting).items()} for n in "abc"]
    assert by_index[0] == by_index[1] == by_index[2] and len(by_index[0]) == 6


def test_an_interrupted_run_resumes(tmp_path):
    path = tmp_path / "r.jsonl"
    setting = Setting("zdd", "8x8", 10, games=5, seed=1)
    run(Setting("zdd", "8x8", 10, games=2, seed=1), path, parallel=False, progress=False)
    with open(path, "a") as handle:
        handle.write('{"setting": "torn')  # a line cut short by a kill
    played = []
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


def outcomes(path, setting) -> dict:
    return {i: (e["won"], e["guesses"]) for i, e in load(path, setting).items()}


def test_an_sqlite_results_file_keeps_blocks_of_the_same_games(tmp_path, monkeypatch):
    monkeypatch.setattr(results, "BLOCK", 4)
    setting = Setting("lookahead", "9x9", 10, games=10, seed=8)
    lines = run(setting, tmp_path / "games.jsonl", parallel=False, progress=False)
    blocks = run(setting, tmp_path / "games.sqlite", progress=False)
    assert (blocks.wins, blocks.games) == (lines.wins, lines.games)
    assert outcomes(tmp_path / "games.sqlite", setting) == outcomes(tmp_path / "games.jsonl", setting)
    with sqlite3.connect(tmp_path / "games.sqlite") as db:
        rows = db.execute("SELECT block, games, wins FROM blocks ORDER BY block").fetchall()
    assert [(b, n) for b, n, _ in rows] == [(0, 4), (1, 4), (2, 2)]  # the last block holds what is left
    assert sum(w for _, _, w in rows) == lines.wins


def test_block_rows_are_stored_compressed_and_raw_rows_still_read(tmp_path, monkeypatch):
    monkeypatch.setattr(results, "BLOCK", 6)
    setting = Setting("safest", "8x8", 10, games=12, seed=5)
    path = tmp_path / "games.sqlite"
    run(setting, path, parallel=False, progress=False)
    stored = load(path, setting)
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT block, games, outcomes, seconds FROM blocks ORDER BY block").fetchall()
    assert [len(o) < 4 * n for _, n, o, _ in rows] == [True, True]  # outcomes compress: few guesses
    raw = [
        (
            block,
            np.array([stored[block * 6 + i]["guesses"] * 2 + stored[block * 6 + i]["won"] for i in range(n)], "<u4"),
            np.array([stored[block * 6 + i]["seconds"] for i in range(n)], "<f4"),
        )
        for block, n, _, _ in rows
    ]
    for (_, _, outcomes, seconds), (_, codes, times) in zip(rows, raw):
        assert zlib.decompress(outcomes) == codes.tobytes()
        assert results._unpack(seconds, len(times)) == times.tobytes()
    with sqlite3.connect(path) as db:  # rewritten as before compression: 4 bytes a game each
        for block, codes, times in raw:
            db.execute(
                "UPDATE blocks SET outcomes = ?, seconds = ? WHERE block = ?", (codes.tobytes(), times.tobytes(), block)
            )
    assert load(path, setting) == stored
    with sqlite3.connect(path) as db:  # a row cut short is named, not misread
        db.execute("UPDATE blocks SET outcomes = ? WHERE block = 1", (zlib.compress(raw[1][1].tobytes()[:-4]),))
    with pytest.raises(ValueError, match="block row of 6 games holds 20 bytes"):
        load(path, setting)
    noise = np.random.default_rng(0).bytes(4000)  # incompressible: kept raw, never longer
    assert results._pack(noise) == noise and results._unpack(noise, 1000) == noise


def test_stored_games_keep_their_luck_and_files_from_before_gain_the_columns(tmp_path, monkeypatch):
    """Each game's luck (moves.Luck) is saved with it: a line each in JSON lines; in each block row of an SQLite
    file summed, and game by game as float32. Both files give the same sums, over whole blocks within the
    setting's games only. A file whose table has no luck columns gains them with the next row written, its older
    rows none."""
    monkeypatch.setattr(results, "BLOCK", 4)
    setting = Setting("twostep", "9x9", 10, games=10, seed=8, first_click="safe", first="0,0")
    in_lines = run(setting, tmp_path / "games.jsonl", parallel=False, progress=False)
    in_blocks = run(setting, tmp_path / "games.sqlite", parallel=False, progress=False)
    entries = [load(tmp_path / "games.jsonl", setting)[i] for i in range(10)]
    for entry in entries:  # the line's luck is the game's, played again
        record = make_player("twostep").play(*experiments.setting_game(setting, entry["index"]), log=True)
        found = luck(record.moves, record.won)
        assert (entry["value"], entry["control"]) == (float(found.value), float(found.control))
    assert any(e["control"] for e in entries)  # (not all nothing)
    lines = results.open_results(tmp_path / "games.jsonl").luck(setting)
    blocks = results.open_results(tmp_path / "games.sqlite").luck(setting)
    assert lines == results.LuckSums.of(entries) and lines is not None and lines.games == 10
    assert blocks is not None and blocks.games == 10
    assert blocks.value_mean == pytest.approx(lines.value_mean) and blocks.products == pytest.approx(lines.products)
    assert blocks.control_mean * 10 == pytest.approx(sum(e["control"] for e in entries))
    assert (in_lines.luck, in_blocks.luck) == (lines, blocks)  # what run's summaries carry
    kept = experiments.load_games(tmp_path / "games.sqlite", setting)  # and game by game, as float32
    assert kept.lucky.all() and kept.index.tolist() == list(range(10))
    assert kept.value.tolist() == [float(np.float32(e["value"])) for e in entries]
    assert kept.control.tolist() == [float(np.float32(e["control"])) for e in entries]
    assert load(tmp_path / "games.sqlite", setting)[3]["control"] == kept.control[3]
    first_eight = results.open_results(tmp_path / "games.sqlite").luck(replace(setting, games=9))
    assert first_eight is not None and first_eight.games == 8  # block 2 (games 8, 9) reaches past game 8
    # a file from before: its rows without luck
    old = tmp_path / "old.sqlite"
    with closing(sqlite3.connect(old)) as db, db:
        db.execute(
            "CREATE TABLE blocks (setting TEXT NOT NULL, block INTEGER NOT NULL, games INTEGER NOT NULL, wins INTEGER "
            "NOT NULL, outcomes BLOB NOT NULL, seconds BLOB NOT NULL, PRIMARY KEY (setting, block))"
        )
        db.execute(
            "INSERT INTO blocks VALUES (?, 0, 4, ?, ?, ?)",
            (
                setting.key(),
                sum(e["won"] for e in entries[:4]),
                np.array([e["guesses"] * 2 + e["won"] for e in entries[:4]], "<u4").tobytes(),
                np.zeros(4, "<f4").tobytes(),
            ),
        )
    assert results.open_results(old).luck(setting) is None
    run(setting, old, parallel=False, progress=False)  # plays games 4 to 9: two rows with luck
    later = results.open_results(old).luck(setting)
    assert later is not None and later.games == 6
    assert later.control_mean * 6 == pytest.approx(sum(e["control"] for e in entries[4:]))
    assert outcomes(old, setting) == outcomes(tmp_path / "games.jsonl", setting)
    assert experiments.load_games(old, setting).lucky.tolist() == [False] * 4 + [True] * 6
    assert "value" not in load(old, setting)[3] and load(old, setting)[4]["value"] == kept.value[4]


def test_stored_games_as_arrays_are_the_stored_games_from_any_game_to_any_other(tmp_path, monkeypatch):
    """``load_games`` (arrays; an SQLite file reads only the blocks that hold the games asked for) gives
    the games ``load`` gives, in the order of their index, and summarizes to the same summary."""
    monkeypatch.setattr(results, "BLOCK", 4)
    setting = Setting("safest", "8x8", 12, games=11, seed=3)
    for name in ("games.sqlite", "games.jsonl"):
        path = tmp_path / name
        run(setting, path, parallel=False, progress=False)
        fields = ("index", "won", "guesses", "seconds", "value", "control")  # (a line keeps its setting too)
        stored = {i: {k: e[k] for k in fields} for i, e in load(path, setting).items()}
        assert experiments.load_games(path, setting).entries() == stored
        assert experiments.summarize(experiments.load_games(path, setting)) == experiments.summarize(
            list(stored.values())
        )
        for start, stop in ((0, 11), (1, 3), (3, 9), (4, 8), (10, 20), (7, 7)):
            games = experiments.load_games(path, setting, start, stop)
            assert games.index.tolist() == list(range(start, min(stop, 11)))
            assert games.entries() == {i: stored[i] for i in range(start, min(stop, 11))}
    read = []
    connect = sqlite3.connect

    class Spy:  # the block rows an SQLite file hands over
        def __init__(self, db):
            self.db = db

        def execute(self, sql, parameters=()):
            if "FROM blocks" in sql:
                read.extend(row[0] for row in self.db.execute(sql, parameters))
            return self.db.execute(sql, parameters)

        def close(self):
            self.db.close()

    monkeypatch.setattr(results.sqlite3, "connect", lambda path: Spy(connect(path)))
    assert experiments.load_games(tmp_path / "games.sqlite", setting, 5, 7).index.tolist() == [5, 6]
    assert read == [1]


def test_an_interrupted_sqlite_run_keeps_finished_blocks_and_resumes(tmp_path, monkeypatch):
    monkeypatch.setattr(results, "BLOCK", 3)
    path, setting = tmp_path / "runs.sqlite", Setting("safest", "8x8", 10, games=8, seed=2)
    save, saved = results.Blocks.save, []

    def save_then_stop(store, s, entries):
        save(store, s, entries)
        saved.append(entries[0]["index"])
        if len(saved) == 2:
            raise KeyboardInterrupt  # Ctrl-C after two blocks were written

    monkeypatch.setattr(results.Blocks, "save", save_then_stop)
    with pytest.raises(KeyboardInterrupt):
        run(setting, path, parallel=False, progress=False)
    monkeypatch.setattr(results.Blocks, "save", save)
    assert sorted(load(path, setting)) == [0, 1, 2, 3, 4, 5]
    played = []
    original = experiments.play_one
    monkeypatch.setattr(experiments, "play_one", lambda s, i: played.append(i) or original(s, i))
    summary = run(setting, path, parallel=False, progress=False)
    assert played == [6, 7] and summary.games == 8
    more = Setting("safest", "8x8", 10, games=11, seed=2)  # a longer run: the short last block is played whole
    played.clear()
    run(more, path, parallel=False, progress=False)
    assert played == [6, 7, 8, 9, 10]
    assert outcomes(path, more) == outcomes(path, more) | outcomes(path, setting)
    run(more, tmp_path / "serial.jsonl", parallel=False, progress=False)
    assert outcomes(path, more) == outcomes(tmp_path / "serial.jsonl", more)


def test_a_long_run_goes_on_in_a_file_of_its_own_from_any_game(tmp_path, monkeypatch):
    """A setting from game ``start`` plays games start to stop - 1, the very games of the whole run (same
    identity in the file: the first game's number is not part of it, as the number of games is not), and
    reads, sums the luck of and replays only those; in blocks it must start where a block does."""
    monkeypatch.setattr(results, "BLOCK", 4)
    whole = Setting("twostep", "8x8", 10, games=10, seed=2, first_click="safe", first="0,0")
    run(whole, tmp_path / "whole.sqlite", parallel=False, progress=False)
    run(whole, tmp_path / "whole.jsonl", parallel=False, progress=False)
    reference = outcomes(tmp_path / "whole.jsonl", whole)
    later = replace(whole, games=6, start=4)
    assert later.key() == whole.key() and (later.stop, later.indices()) == (10, range(4, 10))
    played = []
    original = experiments.play_one
    monkeypatch.setattr(experiments, "play_one", lambda s, i: played.append(i) or original(s, i))
    summary = run(later, tmp_path / "later.sqlite", parallel=False, progress=False)
    assert played == [4, 5, 6, 7, 8, 9] and summary.games == 6
    with sqlite3.connect(tmp_path / "later.sqlite") as db:
        assert db.execute("SELECT block, games FROM blocks ORDER BY block").fetchall() == [(1, 4), (2, 2)]
    assert outcomes(tmp_path / "later.sqlite", later) == {i: reference[i] for i in range(4, 10)}
    assert outcomes(tmp_path / "whole.sqlite", later) == {i: reference[i] for i in range(4, 10)}  # read from 4 on
    assert outcomes(tmp_path / "whole.jsonl", replace(whole, games=3, start=2)) == {i: reference[i] for i in (2, 3, 4)}
    entries = load(tmp_path / "whole.jsonl", whole)
    luck_later = results.open_results(tmp_path / "later.sqlite").luck(later)
    assert summary.luck == luck_later and luck_later is not None and luck_later.games == 6
    assert luck_later.control_mean * 6 == pytest.approx(sum(entries[i]["control"] for i in range(4, 10)))
    in_whole = results.open_results(tmp_path / "whole.sqlite")
    assert in_whole.luck(replace(whole, games=6, start=2)).games == 4  # blocks 0 and 2 reach out of games 2-7
    assert in_whole.luck(later).value_mean == pytest.approx(luck_later.value_mean)
    played.clear()
    assert run(later, tmp_path / "later.sqlite", parallel=False, progress=False).games == 6 and not played
    assert experiments.replays_agree(later, tmp_path / "later.sqlite", 3, start=7)
    with pytest.raises(ValueError, match="game 3 to replay from is not among the setting's 6 games from game 4"):
        experiments.replays_agree(later, tmp_path / "later.sqlite", 1, start=3)
    with pytest.raises(ValueError, match="blocks of 4 must start at a multiple of 4, not at game 2"):
        run(replace(whole, games=3, start=2), tmp_path / "odd.sqlite", parallel=False, progress=False)
    assert not (tmp_path / "odd.sqlite").exists()  # refused before any game
    with pytest.raises(ValueError, match="the first game's number must be a non-negative integer, got -4"):
        replace(whole, start=-4)


def test_runs_of_old_defaults_are_named_by_the_options_that_replay_them():
    """Each change of the defaults adds the old values of the options a run did not set, oldest first."""
    assert experiments.as_played("") == ""
    assert experiments.as_played("", "influence=0") == "influence=0"
    assert experiments.as_played("blend=2", "influence=0", "cut=9/10,endgame_compiled=2000") == (
        "blend=2,influence=0,cut=9/10,endgame_compiled=2000"
    )
    # an option the run set keeps its value; one set by an earlier change is not added again
    assert experiments.as_played(
        "endgame_compiled=5000,influence=0", "influence=9/10", "cut=9/10,endgame_compiled=2000"
    ) == ("endgame_compiled=5000,influence=0,cut=9/10")
    player = make_player("twostep", experiments.as_played("dead=0", "cut=9/10,endgame_compiled=2000"))
    assert (player.cut, player.endgame_compiled, player.dead) == (Fraction(9, 10), 2000, False)


def test_a_settings_game_is_the_game_it_plays(tmp_path):
    setting = Setting("twostep", "9x9", 10, games=6, seed=3, first_click="safe", first="random")
    path = tmp_path / "games.jsonl"
    run(setting, path, parallel=False, progress=False)
    for index, stored in load(path, setting).items():
        game, first = experiments.setting_game(setting, index)
        record = experiments.make_player("twostep").play(game, first)
        assert (record.won, record.guesses) == (stored["won"], stored["guesses"])
        again, first_again = experiments.setting_game(setting, index)
        again.open(first_again)  # the mines are placed at the first click
        assert first == first_again and (game.layout() == again.layout()).all() and game.layout()[first] == 0


def test_replaying_layouts(tmp_path):
    boards = ("*....\n.....\n.....\n.....\n....*", ".....\n..*..\n.....\n.....\n*....")
    summary = run(Setting("lookahead", "5x5", 2, games=2, boards=boards), parallel=False, progress=False)
    assert summary.games == 2
    with pytest.raises(ValueError, match="not 5x5 with 3 mines"):
        Setting("lookahead", "5x5", 3, games=2, boards=boards)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(player="smart"), "unknown player"),
        (dict(first="edge"), "unknown first click"),
        (dict(games=0), "positive integer"),
        (dict(mines=81), "do not fit"),
        (dict(player="twostep", options="blend"), "player option 'blend' is not written key=value"),
        (dict(player="twostep", options="depth=2"), "does not take these options: 'depth=2'"),
        (dict(player="twostep", options="cut=1/0"), "player option 'cut=1/0'"),
        (dict(player="twostep", options="cut=2"), "cut must be above 0 and at most 1"),
        (dict(player="twostep", options="candidates=0"), "candidates must be at least 1, got 0"),
        (dict(player="twostep", options="blend=-1"), "blend must be at least 0, got -1"),
        (dict(player="twostep", options="off_frontier=-1"), "off_frontier must be at least 0"),
        (dict(player="twostep", options="influence=-1/2"), "influence must be at least 0"),
        (dict(player="twostep", options="dead=2"), "dead must be 0 or 1"),
        (dict(player="twostep", options="endgame_compiled=-5"), "endgame_compiled must be at least 0"),
        (dict(player="twostep", options="second=1,second_width=1"), "second_width must be at least 2, got 1"),
        (dict(player="twostep", options="second_open=-1"), "second_open must be at least 0, got -1"),
        (dict(player="lookahead", options="tolerance=-1"), "tolerance must be at least 0"),
        (dict(player="safest", options="endgame_layouts=-1"), "endgame_layouts must be at least 0"),
        (dict(seed=-1), "the seed must be a non-negative integer, got -1"),
    ],
)
def test_bad_settings_are_refused(kwargs, message):
    fields = dict(player="lookahead", size="9x9", mines=10, games=3) | kwargs
    with pytest.raises(ValueError, match=message):
        Setting(**fields)


def test_an_unknown_level_is_named():
    with pytest.raises(ValueError, match="unknown level 'huge' \\(expected one of beginner, intermediate, expert\\)"):
        experiments.level_setting("twostep", "huge", "safe", "0,0", 10)


def test_summary_of_nothing_is_an_error():
    with pytest.raises(ValueError, match="no games"):
        summarize([])


def test_play_command(tmp_path, capsys):
    results = tmp_path / "r.jsonl"
    assert (
        main(
            ["play", "--size", "9x9", "--mines", "10", "--games", "4", "--serial", "--json", "--results", str(results)]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    # the command plays exactly the library's games: the same setting, game for game
    expected = run(Setting("twostep", "9x9", 10, games=4, seed=0), parallel=False, progress=False)  # the default
    stored = [json.loads(line) for line in results.read_text().splitlines()]
    assert all('"player": "twostep"' in line["setting"] for line in stored)
    assert out["games"] == 4 and out["wins"] == expected.wins == sum(g["won"] for g in stored)
    assert out["interval"] == list(wilson_interval(expected.wins, 4))
    luck = LuckSums.of(stored)  # every game played now kept its luck: the same as the library's summary's
    assert expected.luck == luck and out["luck_out"] == {"rate": luck.rate()[0], "interval": list(luck.interval()),
                                                         "games": 4}  # fmt: skip
    boards = tmp_path / "boards.txt"
    boards.write_text("*...\n....\n....\n...*\n\n....\n.*..\n....\n..*.\n")
    assert (
        main(
            [
                "play",
                "--size",
                "4x4",
                "--mines",
                "2",
                "--boards",
                str(boards),
                "--serial",
                "--first-click",
                "safe",
                "--player",
                "zdd",
                "--quiet",
            ]
        )
        == 0
    )
    replayed = run(
        Setting("zdd", "4x4", 2, games=2, first_click="safe", boards=tuple(boards.read_text().split("\n\n"))),
        parallel=False,
        progress=False,
    )
    assert capsys.readouterr().out.startswith(
        f"zdd on 4x4 with 2 mines, first click random (safe): {replayed.wins}/2 won"
    )
    # --start: the games from there, the library's; with --boards, the layouts from there
    argv = ["play", "--size", "9x9", "--mines", "10", "--games", "2", "--start", "3", "--serial", "--json"]
    assert main([*argv, "--results", str(tmp_path / "later.jsonl")]) == 0
    out = json.loads(capsys.readouterr().out)
    later = [json.loads(line) for line in (tmp_path / "later.jsonl").read_text().splitlines()]
    assert [g["index"] for g in later] == [3, 4] and out["wins"] == sum(g["won"] for g in later)
    assert (later[0]["won"], later[0]["guesses"], later[0]["value"]) == (stored[3]["won"], stored[3]["guesses"],
                                                                       stored[3]["value"])  # fmt: skip
    library = run(Setting("twostep", "9x9", 10, games=2, seed=0, start=3), parallel=False, progress=False)
    assert (out["wins"], out["luck_out"]["rate"]) == (library.wins, library.luck.rate()[0])
    argv = ["play", "--size", "4x4", "--mines", "2", "--boards", str(boards), "--first-click", "safe", "--serial"]
    assert main([*argv, "--player", "zdd", "--start", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 1  # the second layout alone
    assert main([*argv, "--start", "2"]) == 2
    assert "--start 2: the boards file holds only 2 layouts (games 0 to 1)" in capsys.readouterr().err


def test_play_with_player_options_into_an_sqlite_file(tmp_path, capsys):
    path = tmp_path / "runs.sqlite"
    argv = ["play", "--size", "9x9", "--mines", "10", "--games", "5", "--serial", "--json", "--results", str(path)]
    assert main([*argv, "--options", "dead=0,endgame_cells=100"]) == 0
    out = json.loads(capsys.readouterr().out)
    setting = Setting("twostep", "9x9", 10, games=5, seed=0, options="dead=0,endgame_cells=100")
    assert sorted(load(path, setting)) == [0, 1, 2, 3, 4] and out["wins"] == sum(
        g["won"] for g in load(path, setting).values()
    )
    assert load(path, Setting("twostep", "9x9", 10, games=5, seed=0)) == {}  # another variant, another key


def test_play_keeps_solver_as_an_alias_of_player(capsys):
    assert (
        main(["play", "--size", "5x5", "--mines", "3", "--games", "2", "--serial", "--json", "--solver", "safest"]) == 0
    )
    by_alias = json.loads(capsys.readouterr().out)
    assert (
        main(["play", "--size", "5x5", "--mines", "3", "--games", "2", "--serial", "--json", "--player", "safest"]) == 0
    )
    by_name = json.loads(capsys.readouterr().out)
    assert by_alias.pop("seconds") and by_name.pop("seconds") and by_alias == by_name
    with pytest.raises(SystemExit) as stop:
        main(["play", "--size", "5x5", "--mines", "3", "--player", "best"])
    assert stop.value.code == 2 and "invalid choice: 'best'" in capsys.readouterr().err


def test_play_help_reads_as_written(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = capsys.readouterr().out
    assert "95% interval" in text and "%%" not in text and "--player" in text


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--size", "9x9", "--games", "2"], "--mines K or --density D"),
        (["--size", "9x9", "--mines", "90", "--games", "2"], "do not fit"),
        (["--size", "9by9", "--mines", "9"], "HxW"),
        (["--size", "9x9", "--density", "2"], "density"),
        (["--size", "4x4", "--mines", "2", "--boards", "/nonexistent"], "cannot read"),
        (["--size", "9x9", "--mines", "9", "--options", "dead"], "player option 'dead'"),
        (["--size", "9x9", "--mines", "9", "--start", "-2"], "the first game's number must be a non-negative integer"),
        (["--size", "9x9", "--mines", "9", "--start", "250", "--results", "{tmp}/r.sqlite"], "not at game 250"),
    ],
)
def test_play_command_errors(argv, message, capsys, tmp_path):
    assert main(["play", *[a.format(tmp=tmp_path) for a in argv]]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "r.sqlite").exists()  # nothing half-written


def test_a_results_file_that_cannot_take_games_is_refused_before_any_is_played(tmp_path, capsys, monkeypatch):
    played = []
    monkeypatch.setattr(experiments, "play_many", lambda *args: played.append(args) or [])
    (tmp_path / "notes.sqlite").write_text("not a database")
    (tmp_path / "folder.jsonl").mkdir()
    other = tmp_path / "other.sqlite"
    with closing(sqlite3.connect(other)) as db, db:
        db.execute("CREATE TABLE optimal (x)")  # the table of optimal play, say
    cases = {
        str(tmp_path / "missing" / "g.sqlite"): "there is no folder",
        str(tmp_path / "folder.jsonl"): "it is a folder",
        str(tmp_path / "notes.sqlite"): "not an SQLite file of games",
        str(other): "holds other tables (optimal), not games",
    }
    for path, message in cases.items():
        assert main(["play", "--size", "9x9", "--mines", "10", "--games", "2", "--serial", "--results", path]) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1
    assert played == [] and not (tmp_path / "missing").exists()
    with closing(sqlite3.connect(other)) as db:  # left as it was
        assert [n for (n,) in db.execute("SELECT name FROM sqlite_master")] == ["optimal"]
    empty = tmp_path / "empty.sqlite"
    empty.touch()  # an empty file is a new results file
    assert load(empty, Setting("twostep", "9x9", 10, 2, 0, "zero", "random")) == {}


def test_results_written_before_the_players_were_renamed_still_load(tmp_path):
    setting = Setting("lookahead", "9x9", 10, games=2, seed=3)
    old_key = json.dumps(
        {
            "boards": [],
            "first": "random",
            "first_click": "zero",
            "mines": 10,
            "seed": 3,
            "size": "9x9",
            "solver": "best",
        },
        sort_keys=True,
    )
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps({"setting": old_key, "index": 0, "won": True, "guesses": 1, "seconds": 0.1}) + "\n")
    assert list(load(path, setting)) == [0]


def test_a_first_click_on_any_cell(monkeypatch):
    """``first="3,3"`` (a record's setting) puts every first click there, under the zero rule a zero."""
    from minelib import experiments

    seen = []
    original = experiments.Game.open_id

    def spy(game, c):
        if game.opened == 0:
            seen.append((game.size.cell_at(c), game))
        return original(game, c)

    monkeypatch.setattr(experiments.Game, "open_id", spy)
    setting = Setting("lookahead", "16x30", 99, games=3, seed=4, first_click="zero", first="3,3")
    assert run(setting, parallel=False, progress=False).games == 3
    assert [cell for cell, _ in seen] == [(3, 3)] * 3
    assert all(game.value((3, 3)) == 0 for _, game in seen)
    with pytest.raises(ValueError, match="outside the 16x30 board"):
        Setting("lookahead", "16x30", 99, games=1, first="16,3")


@pytest.mark.parametrize(
    "setting",
    [
        Setting("safest", "16x30", 99, games=300, seed=2026, first_click="safe", first="0,0"),
        Setting("safest", "16x30", 99, games=300, seed=7, first_click="zero", first="3,3"),
        Setting("safest", "8x8", 30, games=300, seed=3, first_click="none", first="random"),
        Setting("safest", "9x9", 10, games=300, seed=1, first_click="safe", first="center"),
        Setting("safest", "4x4", 3, games=4, seed=2, first_click="safe", boards=("*...\n.*..\n....\n...*",) * 4),
    ],
    ids=["expert-safe", "expert-zero", "none-random", "center", "boards"],
)
def test_first_number_is_what_the_first_click_shows_when_the_game_is_played(setting):
    """``first_number`` reads the layout the game deals without playing it: equal, game by game, to the
    value of the first cell once opened (UNOPENED where the first click of the rule *none* finds a mine)."""
    from minelib import experiments

    shown = []
    for index in range(setting.games):
        game, first = experiments.setting_game(setting, index)
        game.open(first)
        shown.append(game.value(first))
    assert [experiments.first_number(setting, index) for index in range(setting.games)] == shown
    assert len(set(shown)) > 1 or setting.first_click == "zero"  # (the settings show several numbers)


def test_a_stored_run_replays_game_by_game_from_any_game(tmp_path, monkeypatch):
    monkeypatch.setattr(results, "BLOCK", 4)
    setting = Setting("safest", "8x8", 12, games=8, seed=3)
    path = tmp_path / "runs.sqlite"
    run(setting, path, parallel=False, progress=False)
    assert experiments.replays_agree(setting, path, 3) and experiments.replays_agree(setting, path, 3, start=5)
    assert experiments.replays_agree(setting, path, 10, start=6)  # up to the last game
    stored = load(path, setting)
    with sqlite3.connect(path) as db:  # game 6's outcome flipped: a replay from game 5 sees it, one of 0-4 not
        entries = [stored[i] for i in range(4, 8)]
        entries[2] = {**entries[2], "won": not entries[2]["won"]}
        codes = np.array([e["guesses"] * 2 + e["won"] for e in entries], "<u4").tobytes()
        db.execute("UPDATE blocks SET outcomes = ? WHERE block = 1", (codes,))
    assert experiments.replays_agree(setting, path, 5) and not experiments.replays_agree(setting, path, 3, start=5)
    assert not experiments.replays_agree(replace(setting, seed=4), path, 2, start=6)  # games not stored
    with pytest.raises(ValueError, match="game 8 to replay from is not among the setting's 8 games"):
        experiments.replays_agree(setting, path, 1, start=8)


@pytest.mark.parametrize("name", ["games.jsonl", "games.sqlite"])
def test_a_run_renamed_by_its_options_keeps_its_games_and_luck(tmp_path, monkeypatch, name):
    """``Store.rename``: a run of old defaults named by the options that replay them; nothing else moves, and a
    name already taken, the same name or an unknown option leave the file as it was."""
    monkeypatch.setattr(results, "BLOCK", 4)
    path = tmp_path / name
    before = Setting("twostep", "9x9", 10, games=10, seed=8)
    other = replace(before, seed=9, games=4)
    run(before, path, parallel=False, progress=False)
    run(other, path, parallel=False, progress=False)
    stored, store = load(path, before), results.open_results(path)
    luck = store.luck(before)
    renamed = replace(before, options="deep=0")
    assert store.rename(replace(before, games=1, start=3), "deep=0") == 10  # every game, whatever games and start
    assert load(path, before) == {} and store.luck(before) is None
    assert {i: {k: v for k, v in e.items() if k != "setting"} for i, e in load(path, renamed).items()} == {
        i: {k: v for k, v in e.items() if k != "setting"} for i, e in stored.items()
    }
    assert store.luck(renamed) == luck and luck is not None and luck.games == 10
    assert len(load(path, other)) == 4 and store.rename(replace(before, seed=1), "deep=0") == 0  # none: nothing
    bytes_before = path.read_bytes()
    run(before, path, parallel=False, progress=False)  # the defaults' games again, beside the renamed ones
    with pytest.raises(ValueError, match=r"already holds games of .*deep=0.*: not renamed"):
        store.rename(before, "deep=0")
    with pytest.raises(ValueError, match="to itself"):
        store.rename(renamed, "deep=0")
    with pytest.raises(ValueError, match=r"does not take these options: .depth=0."):
        store.rename(before, "depth=0")
    assert path.read_bytes() != bytes_before and len(load(path, before)) == len(load(path, renamed)) == 10


def test_a_run_moved_to_a_file_of_its_own_leaves_the_other_runs_and_a_smaller_file(tmp_path):
    """``Blocks.move_to``: every block of a setting, luck and all, carried to another file and left out of this
    one, which shrinks; a file that already holds the setting's games is refused."""
    path, elsewhere = tmp_path / "games.sqlite", tmp_path / "kept.sqlite"
    moved, stays = Setting("twostep", "9x9", 10, games=20_000, seed=8), Setting("twostep", "9x9", 10, games=500, seed=9)
    rng = np.random.default_rng(1)
    store = results.open_results(path)
    assert isinstance(store, results.Blocks)
    for setting in (moved, stays):  # games as a run writes them, made up (their seconds and luck: noise, as stored)
        for block in range(0, setting.games, results.BLOCK):
            store.save(setting, [
                {"index": i, "won": bool(i % 3), "guesses": i % 5, "seconds": float(rng.random()),
                 "value": float(rng.random()), "control": float(rng.normal())}
                for i in range(block, block + results.BLOCK)
            ])  # fmt: skip
    stored, luck, size = load(path, moved), store.luck(moved), path.stat().st_size
    assert store.move_to(moved, elsewhere) == 20_000
    assert load(path, moved) == {} and load(elsewhere, moved) == stored and len(load(path, stays)) == 500
    assert results.open_results(elsewhere).luck(moved) == luck and luck is not None
    assert path.stat().st_size < size / 4  # compacted: the pages the run filled given back
    assert store.move_to(moved, elsewhere) == 0  # nothing left to move
    store.save(moved, [dict(stored[i]) for i in range(results.BLOCK)])
    with pytest.raises(ValueError, match=r"kept\.sqlite already holds games of .*: not moved"):
        store.move_to(moved, elsewhere)
    with pytest.raises(ValueError, match="to itself"):
        store.move_to(moved, path)
    assert len(load(path, moved)) == results.BLOCK and len(load(elsewhere, moved)) == 20_000
