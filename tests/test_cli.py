"""python -m minelib: files, stdin, JSON, help, and one-line errors with status 2.

The commands run in this process (``cli.main``, its streams swapped), where they find the compiled engines
loaded: a fresh ``python -m minelib`` loads them from numba's cache, about 2 s a command. The module itself,
as a shell runs it, is tested on its own (``test_python_dash_m_minelib_...``)."""

import io
import json
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from unittest import mock

import numpy as np
import pytest

from minelib.cli import main
from minelib.tables import load_table

BOARD = "..1F\n..11\n..00\n"


@dataclass
class Ran:
    """A command's exit status and what it wrote, as ``subprocess.run`` gives them."""

    returncode: int
    stdout: str
    stderr: str


def run(*args, stdin=""):
    """``python -m minelib ARGS`` with ``stdin``, run here: what ``__main__`` does, ``sys.exit(main())``."""
    out, err = io.StringIO(), io.StringIO()
    with mock.patch("sys.stdin", io.StringIO(stdin)), redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exit:  # argparse: --help (0) and usage errors (2)
            code = exit.code if isinstance(exit.code, int) else 0 if exit.code is None else 1
    return Ran(code, out.getvalue(), err.getvalue())


def run_module(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "minelib", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_python_dash_m_minelib_reads_stdin_answers_on_stdout_and_fails_with_status_2():
    """The module as a shell runs it: an answer on stdout and status 0; a bad board, a usage error and an
    error of the command itself each one line on stderr and status 2; --help on stdout with status 0. The
    other tests run the same ``main`` in this process."""
    counted = run_module("count", "--mines", "3", stdin=BOARD)
    assert (counted.returncode, counted.stdout, counted.stderr) == (0, "3\n", "")
    for args, stdin, message in (
        (["count", "--mines", "3"], "..1F\n..1\n", "line 2 has 3 cells, expected 4"),
        (["count"], "..\n", "required: --mines"),
        (["advise", "--mines", "3"], "12\n..\n", "3 mines left to place but only 2 unopened cells"),
    ):
        result = run_module(*args, stdin=stdin)
        assert result.returncode == 2 and result.stdout == "" and message in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
        here = run(*args, stdin=stdin)  # the same, run in this process as the other tests are
        assert (here.returncode, here.stdout, here.stderr) == (2, "", result.stderr)
    shown = run_module("--help")
    assert shown.returncode == 0 and "Exact answers about Minesweeper" in shown.stdout


def test_count_reads_stdin_and_prints_the_count():
    result = run("count", "--mines", "3", stdin=BOARD)
    assert result.returncode == 0 and result.stdout == "3\n" and result.stderr == ""


def test_count_reads_a_file_and_prints_json(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(BOARD)
    result = run("count", "--mines", "3", "--json", str(path))
    assert result.returncode == 0 and json.loads(result.stdout) == {"count": 3}


@pytest.mark.parametrize(
    "args, stdin, message",
    [
        (["count", "--mines", "3"], "..1F\n..1\n", "line 2 has 3 cells, expected 4"),
        (["count", "--mines", "9"], "..\n..\n", "9 mines do not fit on a 2x2 board"),
        (["count", "--mines", "0"], ".F\n", "1 flag but only 0 mines"),
        (["count", "--mines", "1", "missing.txt"], "", "cannot read missing.txt"),
        (["count"], "..\n", "required: --mines"),
        (["count", "--mines", "x"], "..\n", "invalid int value"),
        (["count", "--mines", "1", "--fast"], "..\n", "unrecognized arguments: --fast"),
        (["frobnicate"], "", "invalid choice"),
        (["play", "--size", "9x9", "--mines", "10", "--first", "9,9"], "", "first click (9, 9) is outside"),
        (["advise", "--mines", "0"], "00\n00\n", "no unopened cell: nothing to advise"),
        (["advise", "--mines", "3"], "12\n..\n", "3 mines left to place but only 2 unopened cells"),
        (["advise", "--mines", "1", "--player", "best"], "1.\n..\n", "invalid choice: 'best'"),
        (["advise", "--mines", "1", "--options", "frob=1"], "1.\n..\n", "does not take these options: 'frob=1'"),
        (["advise", "--mines", "1", "--options", "cut"], "1.\n..\n", "option 'cut' is not written key=value"),
        (["advise", "--mines", "1", "--player", "zdd", "--candidates"], "1.\n..\n", "the zdd player ranks no guesses"),
        (["play", "--size", "9x9", "--mines", "10", "--first", "edge"], "", "unknown first click 'edge'"),
    ],
)
def test_bad_input_prints_one_line_and_exits_2(args, stdin, message):
    result = run(*args, stdin=stdin)
    assert result.returncode == 2 and result.stdout == ""
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_count_of_an_impossible_position_is_zero():
    result = run("count", "--mines", "1", stdin="2.\n..\n")  # the 2 needs two mines, one allowed
    assert result.returncode == 0 and result.stdout == "0\n"


def test_analyze_prints_a_grid_and_the_certain_cells():
    result = run("analyze", "--mines", "3", stdin=BOARD)
    assert result.returncode == 0
    assert "3 mine layouts" in result.stdout and "66.7" in result.stdout
    assert "certainly safe: (0,1) (1,1) (2,1)" in result.stdout


def test_analyze_json_from_a_file_gives_exact_fractions(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(BOARD)
    result = run("analyze", "--mines", "3", "--json", str(path))
    data = json.loads(result.stdout)
    assert data["count"] == 3 and data["probabilities"][0] == ["2/3", "0", None, "1"]
    assert data["safe"] == [[0, 1], [1, 1], [2, 1]] and data["mines"] == []


def test_analyze_handles_an_expert_position(tmp_path):
    import numpy as np

    from minelib.board import BoardSize
    from minelib.problems import midgame_positions

    board = midgame_positions(BoardSize(16, 30), 99, np.random.default_rng(1))[0]
    result = run("analyze", "--mines", "99", "--json", stdin=board.to_text())
    data = json.loads(result.stdout)
    assert result.returncode == 0 and len(data["probabilities"]) == 16 and len(data["probabilities"][0]) == 30


@pytest.mark.parametrize(
    "args, stdin, message",
    [
        (["analyze", "--mines", "1"], "2.\n..\n", "sees every unopened cell and needs 2 mines there"),
        (["analyze", "--mines", "1"], "10...\n.....\n", "no mine layout fits the numbers at (0,0) (0,1)"),
        (["analyze", "--mines", "2"], "1F\nF.\n", "shows 1 but has 2 flags around it"),
        (["analyze", "--mines", "2"], "", "the board is empty"),
    ],
)
def test_analyze_rejects_impossible_positions_with_status_2(args, stdin, message):
    result = run(*args, stdin=stdin)
    assert result.returncode == 2 and result.stdout == ""
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_optimal_prints_probability_moves_and_work():
    result = run("optimal", "2x5", "--mines", "2")
    assert result.returncode == 0
    assert "win probability 13/45 = 0.288889" in result.stdout
    assert "(0,0) (0,1) (0,2) (0,3) (0,4) (1,0) (1,1) (1,2) (1,3) (1,4)" in result.stdout


def test_optimal_json_for_a_board_and_a_position(tmp_path):
    from dataclasses import fields

    from minelib.optimal import Result, solve

    data = json.loads(run("optimal", "3x3", "--mines", "2", "--first-click", "safe", "--json").stdout)
    assert set(data) == {field.name for field in fields(Result)}  # every field of the result, nothing unused
    expected = solve("3x3", 2, "safe")
    assert data["probability"] == str(expected.probability) and data["layouts"] == 28
    assert data["move_values"] == {f"{y},{x}": str(v) for (y, x), v in expected.move_values.items()}
    path = tmp_path / "position.txt"
    path.write_text("1..\n...\n...\n")
    data = json.loads(run("optimal", "--mines", "1", "--position", str(path), "--json").stdout)
    assert data["probability"] == "1" and [0, 2] in data["best_moves"] and [1, 1] not in data["best_moves"]


def test_optimal_help_names_the_auto_threshold():
    text = run("optimal", "--help").stdout
    assert "5,000" in text.replace("\n", " ") and "auto" in text


def test_optimal_engines_agree_on_the_command_line():
    answers = [
        json.loads(run("optimal", "3x4", "--mines", "4", "--first-click", "safe", "--engine", engine, "--json").stdout)
        for engine in ("compiled", "python")
    ]
    assert answers[0]["probability"] == answers[1]["probability"] == "173/330"
    assert answers[0]["best_moves"] == answers[1]["best_moves"]


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_a_small_memo_gives_the_same_answer_with_more_work(engine):
    def answer(*extra):
        return json.loads(run("optimal", "3x4", "--mines", "4", "--engine", engine, "--json", *extra).stdout)

    default, small = answer(), answer("--max-states", "3")
    assert small["probability"] == default["probability"] == "173/495"
    assert small["best_moves"] == default["best_moves"]
    assert small["states"] > default["states"]  # the memo started afresh: states were solved again


@pytest.mark.parametrize(
    "args, message",
    [
        (["optimal", "8x8", "--mines", "2", "--engine", "compiled"], "at most 63 cells, not 64"),
        (["optimal", "3x3", "--mines", "2", "--engine", "fast"], "invalid choice: 'fast'"),
        (["optimal", "3x3", "--mines", "2", "--max-states", "0"], "max_states must be at least 1, not 0"),
        (["optimal", "3x3", "--mines", "9"], "9 mines leave no safe cell on a 3x3 board"),
        (["optimal", "3x3", "--mines", "12"], "12 mines do not fit"),
        (["optimal", "3x3", "--mines", "2", "--first-click", "corner"], "invalid choice: 'corner'"),
        (["optimal", "3x", "--mines", "2"], "board size must look like HxW"),
        (["optimal", "--mines", "2"], "give a board size HxW or --position FILE"),
        (["optimal", "--mines", "1", "--position", "-"], "the board is empty"),
    ],
)
def test_optimal_rejects_bad_input_with_status_2(args, message):
    result = run(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_tables_fills_then_resumes(tmp_path):
    db = tmp_path / "t.sqlite"
    first = run("tables", "--side", "2", "--strips", "1x4", "--db", str(db), "--quiet")
    assert first.returncode == 0 and "solved now" in first.stdout
    again = run("tables", "--side", "2", "--strips", "1x4", "--db", str(db), "--quiet")
    assert again.returncode == 0 and " 0 solved now" in again.stdout and "already there" in again.stdout


def test_tables_fills_strips_alone(tmp_path):
    result = run("tables", "--side", "1", "--strips", "1x4", "--db", str(tmp_path / "t.sqlite"), "--quiet")
    assert result.returncode == 0 and "9 entries" in result.stdout and " 9 solved now" in result.stdout


def test_tables_in_pieces_fill_the_same_table(tmp_path):
    whole, in_pieces = tmp_path / "whole.sqlite", tmp_path / "pieces.sqlite"
    assert run("tables", "--side", "3", "--rules", "safe", "--db", str(whole), "--quiet").returncode == 0
    result = run("tables", "--side", "3", "--rules", "safe", "--workers", "2", "--db", str(in_pieces), "--quiet")
    assert result.returncode == 0 and "already there" in result.stdout
    assert [(e.task, e.move_values) for e in load_table(in_pieces)] == [
        (e.task, e.move_values) for e in load_table(whole)
    ]


@pytest.mark.parametrize(
    "args, message",
    [
        (["tables", "--rules", "corner"], "unknown first-click rule 'corner'"),
        (["tables", "--strips", "2y3"], "board size must look like HxW"),
        (["tables", "--workers", "0"], "workers must be a positive number"),
        (["tables", "--cap", "-1"], "--cap must be a positive number of seconds, not -1.0"),
        (["tables", "--side", "1"], "--side must be at least 2"),
        (["tables", "--max-layouts", "0"], "--max-layouts must be positive, not 0"),
    ],
)
def test_tables_rejects_bad_options(args, message, tmp_path):
    result = run(*args, "--db", str(tmp_path / "t.sqlite"), "--quiet")
    assert result.returncode == 2 and message in result.stderr


def test_tables_refuses_a_file_that_is_not_a_table_of_optimal_play(tmp_path):
    games = tmp_path / "games.sqlite"
    assert (
        run(
            "play", "--size", "4x4", "--mines", "2", "--games", "2", "--serial", "--quiet", "--results", str(games)
        ).returncode
        == 0
    )
    before = games.read_bytes()
    (tmp_path / "notes.sqlite").write_text("not a database")
    for path, message in ((games, "holds other tables (blocks)"), (tmp_path / "notes.sqlite", "not an SQLite file")):
        result = run("tables", "--side", "2", "--db", str(path), "--quiet")
        assert result.returncode == 2 and message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert games.read_bytes() == before


def test_advise_gives_the_certain_move_or_the_guess_with_its_exact_numbers():
    result = run("advise", "--mines", "3", stdin=BOARD)
    assert result.returncode == 0
    assert result.stdout == "open (0,1): certainly safe (one number and its unopened neighbours settle it)\n"
    # no number alone settles a cell; the two layouts (mines at (0,0), (2,2) or at (0,2), (2,0)) leave (2,1) safe
    result = run("advise", "--mines", "2", stdin=".1.\n121\n...\n")
    assert result.returncode == 0
    assert result.stdout == "open (2,1): certainly safe (every layout that fits the position agrees)\n"
    result = run("advise", "--mines", "1", "--json", stdin="1.\n..\n")
    assert result.returncode == 0
    # the 1 has one mine in three cells; whatever opens, the rest is a 50/50: 2/3 * 1/2
    assert json.loads(result.stdout) == {
        "player": "twostep",
        "move": "open",
        "cell": [0, 1],
        "certain": False,
        "mine_probability": "1/3",
        "win_probability": "1/3",
        "reason": "exact endgame",
    }
    result = run("advise", "--mines", "6", stdin=CENTRE_ONE)
    assert result.returncode == 0 and "a guess, mine probability 1/8" in result.stdout
    assert "win probability" not in result.stdout  # too many layouts for the endgame search


# with 6 mines, 645,840 layouts: beyond the exact endgame's 200,000 (a 5x5 board with one number never is)
CENTRE_ONE = "......\n......\n..1...\n......\n......\n......\n"


def test_advise_lists_the_guesses_ranked_with_exact_probabilities_the_move_first():
    from minelib import Board, TwoStepPlayer, analyze

    plain = ["--options", "deep=0"]  # the two-step scores alone decide (the deeper look: the test below)
    result = run("advise", "--mines", "6", "--candidates", "--json", *plain, stdin=CENTRE_ONE)
    assert result.returncode == 0
    answer = json.loads(result.stdout)
    assert answer["reason"] == "best score"
    board = Board.from_text(CENTRE_ONE)
    scores = TwoStepPlayer(deep=0).scores(board, 6)  # every candidate's; the ranking skips those that cannot win
    listed = [tuple(c["cell"]) for c in answer["candidates"]]
    assert len(listed) > 1 and set(listed) <= set(scores) and listed[0] == tuple(answer["cell"])
    assert all(abs(c["score"] - scores[tuple(c["cell"])]) < 1e-9 and c["living"] for c in answer["candidates"])
    analysis = analyze(board, 6)
    assert all(c["mine_probability"] == str(analysis.probability(tuple(c["cell"]))) for c in answer["candidates"])
    listed_scores = [c["score"] for c in answer["candidates"]]
    assert listed_scores == sorted(listed_scores, reverse=True)
    text = run("advise", "--mines", "6", "--candidates", *plain, stdin=CENTRE_ONE).stdout
    assert "(the best two-step score)" in text and "(1,2)  1/8 = 12.5%" in text and "the guesses ranked" in text
    certain = run("advise", "--mines", "3", "--candidates", "--json", stdin=BOARD)
    assert json.loads(certain.stdout)["candidates"] == [] and json.loads(certain.stdout)["reason"] == "one number"
    text = run("advise", "--mines", "3", "--candidates", stdin=BOARD).stdout
    assert "no guesses ranked: the move was decided otherwise" in text
    zdd = json.loads(run("advise", "--mines", "3", "--json", "--player", "zdd", stdin=BOARD).stdout)
    assert zdd["reason"] is None and zdd["certain"]


def test_advise_shows_the_deeper_look_that_decided():
    """With deep=4 (and second=0) the near-best candidates carry their score one move further, the move's the best
    of them (though its two-step score is not the best); the others carry none."""
    from minelib import Board, TwoStepPlayer
    from minelib.game import Game
    from minelib.twostep import TwoStepRun

    board_text, options = "...\n...\n...\n1..\n", "deep=4,second=0,endgame_layouts=0,endgame_compiled=0,influence=0"
    answer = json.loads(
        run("advise", "--mines", "4", "--json", "--candidates", "--options", options, stdin=board_text).stdout
    )
    assert answer["reason"] == "deeper look"
    looked = [c for c in answer["candidates"] if "deeper" in c]
    assert 1 < len(looked) <= 4 and looked[0]["cell"] == answer["cell"]
    assert looked[0]["deeper"] == max(c["deeper"] for c in looked)
    assert looked[0]["score"] < max(c["score"] for c in answer["candidates"])  # the look changed the move
    board = Board.from_text(board_text)
    player = TwoStepPlayer(deep=4, second=False, endgame_layouts=0, endgame_compiled=0, influence=0)
    look = TwoStepRun(Game.showing(board, 4), False, player)
    result = look.analyzer.analyze(board)
    assert all(abs(c["deeper"] - look._deeper(board, result, tuple(c["cell"]))) < 1e-9 for c in looked)
    text = run("advise", "--mines", "4", "--candidates", "--options", options, stdin=board_text).stdout
    assert "the best one move further" in text and "deeper: the same one move further" in text


def test_advise_shows_the_second_look_that_decided():
    """With second=1 the deeper look's two best carry their value one move further again (JSON "further"),
    the move's the better, though the deeper look ranked it second; the text names the look and the column."""
    board_text, options = "....\n....\n2...\n", "endgame_layouts=0,endgame_compiled=0,influence=0"
    deep = json.loads(
        run(
            "advise", "--mines", "5", "--json", "--candidates", "--options", options + ",second=0", stdin=board_text
        ).stdout
    )
    options += ",second=1"  # the defaults
    answer = json.loads(
        run("advise", "--mines", "5", "--json", "--candidates", "--options", options, stdin=board_text).stdout
    )
    assert deep["reason"] == "deeper look" and answer["reason"] == "second look"
    assert answer["cell"] == deep["candidates"][1]["cell"] != deep["cell"]
    further = [c for c in answer["candidates"] if "further" in c]
    assert [c["cell"] for c in further] == [answer["cell"], deep["cell"]]
    assert further[0]["further"] > further[1]["further"]
    assert all("further" not in c for c in deep["candidates"])
    text = run("advise", "--mines", "5", "--candidates", "--options", options, stdin=board_text).stdout
    assert "the best one move further again" in text and "further: one move further again" in text


def test_advise_passes_the_players_options():
    board = "1...\n....\n....\n"
    searched = json.loads(run("advise", "--mines", "3", "--json", stdin=board).stdout)
    assert searched["win_probability"] == "53/84"  # the exact endgame chose the move
    plain = run("advise", "--mines", "3", "--json", "--options", "endgame_layouts=0,endgame_compiled=0", stdin=board)
    assert json.loads(plain.stdout)["win_probability"] is None


def test_sample_prints_consistent_layouts_again_with_the_same_seed():
    from minelib.board import Board, neighbour_sums
    from minelib.game import parse_layout

    board = Board.from_text("1...\n....\n..2F\n")
    first = run("sample", "--mines", "4", "--count", "5", "--seed", "3", stdin="1...\n....\n..2F\n")
    assert first.returncode == 0 and first.stderr == ""
    pictures = first.stdout.strip().split("\n\n")
    assert len(pictures) == 5
    numbers = board.numbers_mask()
    for picture in pictures:
        layout = parse_layout(picture)
        assert layout.sum() == 4 and layout[2, 3] and not layout[numbers].any()
        assert (neighbour_sums(layout)[numbers] == board.values[numbers]).all()
    assert (
        run("sample", "--mines", "4", "--count", "5", "--seed", "3", stdin="1...\n....\n..2F\n").stdout == first.stdout
    )
    found = json.loads(
        run("sample", "--mines", "4", "--count", "5", "--seed", "3", "--json", stdin="1...\n....\n..2F\n").stdout
    )
    assert [sorted(map(tuple, mines)) for mines in found["layouts"]] == [
        sorted(map(tuple, np.argwhere(parse_layout(p)).tolist())) for p in pictures
    ]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--count", "0"], "--count must be a positive number of layouts, not 0"),
        (["--seed", "-1"], "--seed must be a non-negative integer, not -1"),
        (["--mines", "9"], "9 mines do not fit on a 2x3 board"),
        (["--mines", "4"], "the numbers need"),
    ],
)
def test_sample_refuses_bad_input_in_one_line(args, message):
    result = run("sample", "--mines", "1", *args, stdin="1..\n...\n")
    assert result.returncode == 2 and message in result.stderr and result.stdout == ""


def test_a_compile_is_announced_once_and_only_on_a_terminal(monkeypatch):
    """A fresh checkout's first command waits for numba (up to a minute or two): on a
    terminal it says so, once, when numba compiles; to a pipe, or with the code loaded, nothing."""
    import io

    from numba import njit

    from minelib import cli, commands

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    def compiling(_args):  # two functions numba has never seen: two compiles
        njit(lambda x: x + 1)(1)
        njit(lambda x: x * 2)(2)

    for stream, run, said in ((Terminal(), compiling, 1), (io.StringIO(), compiling, 0), (Terminal(), print, 0)):
        monkeypatch.setattr(sys, "stderr", stream)
        monkeypatch.setattr(commands, "count_command", run)
        assert cli.main(["count", "--mines", "1"]) == 0
        assert stream.getvalue().count("numba compiles the code this command needs") == said, stream.getvalue()
    njit(lambda x: x - 1)(3)  # after the command: nobody is told any more
    assert stream.getvalue() == ""
