"""A real-browser check of the explorer (``make test-browser``).

Voila serves ``explorer_page.ipynb`` on localhost; headless Chromium (Debian's
``chromium`` package, driven by Playwright) clicks the centre cell of the board;
every cell on the page must then show what the library says: the opened numbers
and the exact mine probabilities (in percent) of the unopened cells. A
screenshot is saved as ``figures/explorer.png``.
"""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from minelib.plotting import figures_dir
from minelib.widgets import BoardExplorer

pytestmark = pytest.mark.browser
CHROMIUM = "/usr/bin/chromium"
HERE = Path(__file__).parent
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "voila",
            str(HERE / "explorer_page.ipynb"),
            "--no-browser",
            f"--port={port}",
            "--Voila.ip=127.0.0.1",
            "--show_tracebacks=True",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "MINELIB_FIGURES": "/tmp"},
    )
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.5)
    yield f"http://127.0.0.1:{port}/"
    process.terminate()
    process.wait(timeout=20)


def expected_texts(cell) -> list[str]:
    """What each button should show after clicking ``cell``, from the library, row by row."""
    explorer = BoardExplorer("9x9", 10, first_click="zero", seed=2028)
    explorer.click(cell)
    return [explorer.cell_look(c)[0] for c in explorer.size.cells()]


def test_clicking_a_cell_shows_numbers_and_probabilities(server):
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (make test-browser installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.goto(server, timeout=120_000)
        cells = page.locator("button.minelib-cell")
        cells.first.wait_for(timeout=120_000)
        assert cells.count() == 81
        cells.nth(4 * 9 + 4).click()
        expected = expected_texts((4, 4))
        page.wait_for_function(
            "n => document.querySelectorAll('button.minelib-cell')[n].textContent.trim() !== ''", arg=0, timeout=30_000
        ) if expected[0] else None
        deadline = time.time() + 30
        while time.time() < deadline:
            shown = [text.strip() for text in cells.all_text_contents()]
            if shown == expected:
                break
            time.sleep(0.25)
        grids = (" ".join(f"{t:>4}" for t in rows[i : i + 9]) for rows in (shown, expected) for i in range(0, 81, 9))
        assert shown == expected, "\n".join(grids)
        assert any(t.isdigit() and int(t) > 0 for t in shown), "some opened numbers are shown"
        status = page.locator("text=consistent layouts").first.text_content()
        assert "1,188 consistent layouts" in status
        page.screenshot(path=str(figures_dir() / "explorer.png"), full_page=True)
        browser.close()
