"""Real-browser checks of the explorer (part of ``make test``; alone: ``make test-browser``).

``python -m minelib explore`` serves the explorer page on localhost, and headless
Chromium (Debian's ``chromium`` package, driven by Playwright) uses it as a
person would: it clicks the centre cell and every cell must show what the
library says; it plays a whole seeded game by clicking the cells the page marks
safe (else the one it recommends), step by step against the same game played
by the library; it enters a position in edit mode and compares every percent
shown with ``analyze``; it checks the classic colours of the numbers. Then it
opens notebook 07 in JupyterLab, runs it and checks that its explorers render.
The screenshot of the page is ``figures/explorer.png``.
"""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from minelib import analyze
from minelib.board import UNOPENED
from minelib.plotting import figures_dir
from minelib.widgets import BoardExplorer

pytestmark = pytest.mark.browser
CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).parents[2]
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SIZE, MINES, SEED = "9x9", 10, 2028
OVERLAYS = ("probabilities", "certain", "recommended")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, seconds: float = 90) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        assert process.poll() is None, "the server stopped"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"nothing listens on port {port} after {seconds} s")


def serving(command: list[str], port: int, **kwargs):
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs)
    try:
        wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}/"
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (make test-browser installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def explore_page():
    """The page of `python -m minelib explore` on a free port of 127.0.0.1."""
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "minelib",
        "explore",
        "--size",
        SIZE,
        "--mines",
        str(MINES),
        "--seed",
        str(SEED),
        "--port",
        str(port),
        "--quiet",
    ]
    yield from serving(command, port, env={**os.environ, "MINELIB_FIGURES": tempfile.gettempdir()})


@pytest.fixture
def page(browser, explore_page):
    tab = browser.new_page(viewport={"width": 1100, "height": 1000})
    tab.goto(explore_page, timeout=120_000)
    tab.locator("button.minelib-cell").first.wait_for(timeout=120_000)
    yield tab
    tab.close()


def shown(page) -> list[str]:
    return [text.strip() for text in page.locator("button.minelib-cell").all_text_contents()]


def expected(explorer: BoardExplorer) -> list[str]:
    return [explorer.cell_look(cell).text.strip() for cell in explorer.size.cells()]


def wait_until_shown(page, texts: list[str], seconds: float = 30) -> None:
    """Wait until the page's cells read ``texts`` (row by row); fail with both grids if they never do."""
    deadline = time.time() + seconds
    while True:
        now = shown(page)
        if now == texts or time.time() > deadline:
            break
        time.sleep(0.1)
    grids = (" ".join(f"{t:>4}" for t in rows[i : i + 9]) for rows in (now, texts) for i in range(0, 81, 9))
    assert now == texts, "page, then library:\n" + "\n".join(grids)


def status(page) -> str:
    return page.locator(".minelib-status").first.text_content()


def library_explorer() -> BoardExplorer:
    return BoardExplorer(SIZE, MINES, first_click="zero", seed=SEED, overlays=OVERLAYS)


def next_move(texts: list[str]) -> tuple[str, int] | None:
    """What a person following the page does: open a cell marked safe, else the recommended one."""
    for kind, mark in (("open", "safe"), ("open", "→"), ("flag", "⚑")):
        for i, text in enumerate(texts):
            if text.startswith(mark):
                return kind, i
    return None


def test_clicking_a_cell_shows_numbers_and_probabilities(page):
    explorer = library_explorer()
    wait_until_shown(page, expected(explorer))
    page.locator("button.minelib-cell").nth(4 * 9 + 4).click()
    explorer.click((4, 4))
    wait_until_shown(page, expected(explorer))
    assert any(t.isdigit() and int(t) > 0 and t != "100" for t in shown(page)), "some opened numbers are shown"
    assert "1,188 consistent layouts" in status(page)
    page.screenshot(path=str(figures_dir(ROOT) / "explorer.png"), full_page=True)


def test_numbers_have_their_classic_colours(page):
    explorer = library_explorer()
    page.locator("button.minelib-cell").nth(4 * 9 + 4).click()
    explorer.click((4, 4))
    wait_until_shown(page, expected(explorer))
    colours = {"1": "rgb(0, 0, 255)", "2": "rgb(0, 128, 0)", "3": "rgb(255, 0, 0)"}
    seen = set()
    for cell, text in zip(explorer.size.cells(), expected(explorer)):
        if text in colours and explorer.position.values[cell] >= 0:
            button = page.locator("button.minelib-cell").nth(cell[0] * 9 + cell[1])
            assert button.evaluate("b => getComputedStyle(b).color") == colours[text], (cell, text)
            seen.add(text)
    assert seen, "an opened 1, 2 or 3 is on the board"
    assert "mine probability" in page.locator("text=100% mine").first.text_content()


def test_a_whole_game_played_by_the_pages_own_marks(page):
    explorer = library_explorer()
    cells = page.locator("button.minelib-cell")
    cells.nth(4 * 9 + 4).click()
    explorer.click((4, 4))
    moves = 0
    while not explorer.game.over:
        texts = expected(explorer)
        wait_until_shown(page, texts)
        move = next_move(texts)
        assert move is not None, "the page shows a safe cell or advice until the game ends"
        kind, i = move
        cell = divmod(i, 9)
        if kind == "flag":
            page.get_by_role("button", name="flag", exact=True).click()
            explorer.tool_control.value = "flag"
        cells.nth(i).click()
        explorer.click(cell)
        if kind == "flag":
            page.get_by_role("button", name="open", exact=True).click()
            explorer.tool_control.value = "open"
        moves += 1
    wait_until_shown(page, expected(explorer))
    message = "won!" if explorer.game.status == "won" else "lost: that was a mine"
    assert message in status(page) and moves > 10


def test_a_position_entered_in_edit_mode_shows_the_exact_probabilities(page):
    page.get_by_role("button", name="edit", exact=True).click()
    value = page.locator(".widget-dropdown", has_text="set to").locator("select")
    edits = [((0, 0), "0"), ((0, 1), "1"), ((1, 0), "1"), ((1, 1), "2"), ((4, 4), "3")]
    explorer = library_explorer()
    explorer.set_mode("edit")
    for (y, x), number in edits:
        value.select_option(number)
        page.locator("button.minelib-cell").nth(y * 9 + x).click()
        explorer.set_cell((y, x), int(number))
        # each edit shown before the next choice: a choice made while the kernel still answers the
        # last one is held back by the browser's widget manager, and a click sent ahead of it
        wait_until_shown(page, expected(explorer))
    analysis = analyze(explorer.position, MINES)
    texts = shown(page)
    for cell in explorer.size.cells():
        p = analysis.probability(cell)
        if explorer.position.values[cell] == UNOPENED:
            want = "safe" if p == 0 else "M" if p == 1 else str(round(100 * float(p)))
            assert texts[cell[0] * 9 + cell[1]].lstrip("→") == want, (cell, p)
    assert f"{analysis.count:,} consistent layouts" in status(page)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on 127.0.0.1, serving a copy of notebook 07 (so nothing in the tree is saved over)."""
    folder = tmp_path_factory.mktemp("lab")
    shutil.copy(ROOT / "notebooks" / "07_explore.ipynb", folder)
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "jupyter",
        "lab",
        "--no-browser",
        f"--port={port}",
        "--ServerApp.ip=127.0.0.1",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        f"--ServerApp.root_dir={folder}",
        "--ServerApp.port_retries=0",
        "--LabApp.news_url=None",
        *(["--allow-root"] if os.geteuid() == 0 else []),  # CI runs as root
    ]
    yield from serving(command, port, env={**os.environ, "MINELIB_FIGURES": str(folder)})


def test_notebook_07_renders_its_explorers_in_jupyterlab(browser, lab):
    tab = browser.new_page(viewport={"width": 1400, "height": 1000})
    tab.goto(lab + "lab/tree/07_explore.ipynb", timeout=120_000)
    tab.locator(".jp-Notebook").first.wait_for(timeout=120_000)
    # "Run All" sent before the kernel's session is connected runs nothing: wait for the idle kernel
    tab.get_by_text("Python 3 (ipykernel) | Idle").first.wait_for(timeout=120_000)
    for _ in range(3):  # and should a run still get lost, ask again
        tab.get_by_role("menuitem", name="Run", exact=True).click()
        tab.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        try:  # 9x9, 16x30 and 4x4 explorers: every button rendered
            tab.wait_for_function(
                "() => document.querySelectorAll('button.minelib-cell').length >= 577", timeout=60_000
            )
            break
        except Exception:
            tab.screenshot(path=str(Path(tempfile.gettempdir()) / "minelib-lab-failure.png"), full_page=True)
    assert tab.locator("button.minelib-cell").count() == 81 + 480 + 16
    tab.close()
