"""python -m minelib explore: the page's code, its errors, and the page served on localhost."""

import os
import subprocess
import sys
import tempfile
import time
import urllib.request

import pytest

from minelib.board import Board, BoardSize
from minelib.cli import main
from minelib.explore import explorer_notebook, explorer_source, free_port


def run_source(source: str):
    scope: dict = {}
    exec(compile(source, "<page>", "exec"), scope)  # the cell's last line makes the explorer
    return eval(source.splitlines()[-1], scope)


def test_the_page_holds_an_explorer_with_the_settings_asked_for():
    explorer = run_source(explorer_source("16x30", 99, "safe", 7, "zdd"))
    assert explorer.size == BoardSize(16, 30) and explorer.mines == 99 and explorer.game.first_click == "safe"
    assert explorer.player_name == "zdd" and explorer.overlays == {"probabilities", "certain", "recommended"}
    position = Board.from_text("1..\n...")
    explorer = run_source(explorer_source(position=position, mines=2))
    assert explorer.position == position and explorer.mode_control.value == "edit"
    cells = explorer_notebook("x = 1")["cells"]
    assert [c["cell_type"] for c in cells] == ["markdown", "code"] and cells[1]["source"] == "x = 1"


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(mines=81), "do not fit"),
        (dict(first_click="edge"), "unknown first-click rule 'edge'"),
        (dict(player="best"), "unknown player 'best'"),
        (dict(overlays=("heat",)), "unknown overlay 'heat'"),
        (dict(position=Board.from_text("F.\n.."), mines=0), "flag"),
    ],
)
def test_bad_settings_are_refused_before_a_server_starts(kwargs, message):
    with pytest.raises(ValueError, match=message):
        explorer_source(**kwargs)


def test_the_command_prints_the_page_code_and_refuses_bad_input(tmp_path, capsys):
    assert main(["explore", "--size", "4x4", "--mines", "3", "--seed", "5", "--print-source"]) == 0
    assert "BoardExplorer(size='4x4', mines=3, first_click='zero', seed=5" in capsys.readouterr().out
    path = tmp_path / "position.txt"
    path.write_text("1..\n...\n")
    assert main(["explore", str(path), "--mines", "1", "--print-source"]) == 0
    assert "position='1..\\n...'" in capsys.readouterr().out
    for argv, message in [
        (["--size", "4x4"], "give --mines K"),
        ([str(path), "--size", "4x4", "--mines", "1"], "not both"),
        (["--port", "99999"], "--port must be a port number from 1 to 65535, not 99999"),
    ]:
        assert main(["explore", *argv]) == 2
        assert message in capsys.readouterr().err


def test_the_page_is_served_on_localhost():
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "minelib", "explore", "--port", str(port), "--quiet"],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "MINELIB_FIGURES": tempfile.gettempdir()},
    )
    try:
        assert server.stdout.readline().strip() == f"minelib explorer at http://127.0.0.1:{port}/ (Ctrl-C to stop)"
        deadline, page = time.time() + 90, ""
        while time.time() < deadline and not page:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60) as response:
                    page = response.read().decode()
            except OSError:
                time.sleep(0.5)
        assert "minelib explorer" in page
    finally:
        server.terminate()
        server.wait(timeout=30)
