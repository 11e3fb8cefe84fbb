"""A page that opens on the explorer: ``python -m minelib explore`` (``make explore``).

Voila serves a one-cell notebook holding a ``BoardExplorer`` as a plain page on
127.0.0.1 (never on another interface), on a free port, and prints the address:
a user plays, edits and analyses without knowing Jupyter. The notebook is
written to a temporary folder, removed when the server stops (Ctrl-C).
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from minelib.board import Board, BoardSize, check_mines
from minelib.game import check_first_click, check_rule
from minelib.players import STRONGEST, check_player
from minelib.widgets import OVERLAYS

PAGE_OVERLAYS = ("probabilities", "certain", "recommended")
INTRO = """# minelib explorer

**play**: click a cell to open it (choose *flag* to flag). **edit**: click a cell to set it to the value
chosen, to enter a position from a real game. Every colour and number is exact: the percent on a cell is
its mine probability given what the board shows and the total mine count; *safe* and *M* are certain.
"""


def explorer_source(
    size: BoardSize | str = "9x9",
    mines: int = 10,
    first_click: str = "zero",
    seed: int = 0,
    player: str = STRONGEST,
    overlays=PAGE_OVERLAYS,
    position: Board | None = None,
) -> str:
    """The code of the page's one cell: a BoardExplorer with these settings (checked here, not in the page)."""
    size = BoardSize.of(size)
    check_first_click(first_click)
    if position is None:
        check_rule(size, mines, first_click)
    else:
        check_mines(position, mines)
    check_player(player)
    for name in overlays:
        if name not in OVERLAYS:
            raise ValueError(f"unknown overlay {name!r} (expected one of {', '.join(OVERLAYS)})")
    where = f"position={position.to_text()!r}" if position is not None else f"size={str(size)!r}"
    return (
        "from minelib.widgets import BoardExplorer\n\n"
        f"BoardExplorer({where}, mines={mines}, first_click={first_click!r}, seed={seed}, "
        f"player={player!r}, overlays={tuple(overlays)!r})"
    )


def explorer_notebook(source: str) -> dict:
    """A notebook (nbformat 4) with the introduction and the explorer's cell."""
    cells = [
        {"cell_type": "markdown", "id": "intro", "metadata": {}, "source": INTRO},
        {
            "cell_type": "code",
            "id": "explorer",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": source,
        },
    ]
    kernel = {"display_name": "Python 3", "language": "python", "name": "python3"}
    return {"cells": cells, "metadata": {"kernelspec": kernel}, "nbformat": 4, "nbformat_minor": 5}


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve(source: str, port: int | None = None, quiet: bool = False) -> int:
    """Serve the explorer page until interrupted; the server's exit status."""
    port = port or free_port()
    with tempfile.TemporaryDirectory(prefix="minelib-explore-") as folder:
        path = Path(folder) / "minelib-explorer.ipynb"
        path.write_text(json.dumps(explorer_notebook(source)), encoding="utf-8")
        command = [
            sys.executable,
            "-m",
            "voila",
            str(path),
            "--no-browser",
            f"--port={port}",
            "--Voila.ip=127.0.0.1",
            "--Voila.port_retries=0",
        ]
        print(f"minelib explorer at http://127.0.0.1:{port}/ (Ctrl-C to stop)", flush=True)
        server = subprocess.Popen(
            command, stdout=subprocess.DEVNULL if quiet else None, stderr=subprocess.DEVNULL if quiet else None
        )
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGTERM, _interrupted) if main else None
        try:  # stopped by Ctrl-C or by kill (SIGTERM), the server is stopped too, never left behind
            return server.wait()
        except KeyboardInterrupt:
            return 0
        finally:
            if server.poll() is None:
                server.terminate()
                server.wait(timeout=20)
            if main:
                signal.signal(signal.SIGTERM, previous)


def _interrupted(signum, frame) -> None:
    raise KeyboardInterrupt


__all__ = ["PAGE_OVERLAYS", "explorer_notebook", "explorer_source", "free_port", "serve"]
