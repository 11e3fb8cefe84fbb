"""Figure style in one place, and ``save_figure`` writing byte-stable files to figures/.

The same figure saved twice gives the same bytes: fixed rcParams, a fixed
``svg.hashsalt``, and no dates or version strings in the metadata.
"""
from __future__ import annotations

import os
from pathlib import Path

import matplotlib as mpl
import matplotlib.pyplot as plt

STYLE = {
    "figure.figsize": (7.0, 4.0),
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "font.family": "DejaVu Sans",
    "font.size": 10,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "image.cmap": "viridis",
    "svg.hashsalt": "minelib",
    "svg.fonttype": "path",
    "path.simplify": True,
}

_METADATA = {
    "png": {"Software": None},
    "svg": {"Date": None, "Creator": None},
}


def use_style() -> None:
    """Apply minelib's figure style to matplotlib."""
    mpl.rcParams.update(STYLE)


def figures_dir(start: Path | None = None) -> Path:
    """The project's figures/ folder: $MINELIB_FIGURES, else the nearest figures/ above ``start``."""
    if os.environ.get("MINELIB_FIGURES"):
        return Path(os.environ["MINELIB_FIGURES"])
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "figures").is_dir():
            return folder / "figures"
    return here / "figures"


class SavedFiles(list):
    """The paths ``save_figure`` wrote; shown by their file names only (no machine paths)."""

    def __repr__(self) -> str:
        return "saved " + ", ".join(path.name for path in self)


def save_figure(fig, name: str, directory: Path | str | None = None) -> SavedFiles:
    """Write ``fig`` as ``name.png`` and ``name.svg``; return the paths written.

    Each file is written to a temporary name first and then renamed, so an
    interrupted run never leaves half a figure behind.
    """
    if not name or any(sep in name for sep in "/\\") or name.startswith("."):
        raise ValueError(f"figure name must be a plain file stem like 'counter_times', got {name!r}")
    folder = Path(directory) if directory is not None else figures_dir()
    folder.mkdir(parents=True, exist_ok=True)
    written = SavedFiles()
    with mpl.rc_context(STYLE):
        for fmt, metadata in _METADATA.items():
            path = folder / f"{name}.{fmt}"
            tmp = path.with_suffix(f".{fmt}.tmp")
            fig.savefig(tmp, format=fmt, metadata=metadata)
            os.replace(tmp, path)
            written.append(path)
    return written


def new_figure(**kwargs):
    """A figure and axes in minelib's style (``plt.subplots`` arguments)."""
    use_style()
    return plt.subplots(**kwargs)


def draw_probabilities(ax, analysis, title: str | None = None):
    """A heat map of an analysis: colour = mine probability; numbers, flags and certain cells marked.

    Opened cells are grey with their number; ``F`` is a flag, ``S`` a certainly
    safe cell, ``M`` a certain mine. Returns the image (for a colour bar).
    """
    import numpy as np

    board = analysis.board
    grid = np.array([[np.nan if p is None else float(p) for p in row] for row in analysis.probabilities])
    flags = board.mines_mask()
    grid[flags] = np.nan
    cmap = mpl.colormaps["magma_r"].copy()
    cmap.set_bad("#d9d9d9")
    image = ax.imshow(grid, cmap=cmap, vmin=0, vmax=1)
    size = 9 if board.size.width <= 12 else 6
    marks = {**{c: "S" for c in analysis.safe}, **{c: "M" for c in analysis.mines},
             **{c: "F" for c in board.mine_cells()},
             **{c: str(board.values[c]) for c in board.number_cells() if board.values[c] > 0}}
    for (y, x), text in marks.items():
        light = text in "SMF" and not flags[y, x] and grid[y, x] > 0.5
        ax.text(x, y, text, ha="center", va="center", fontsize=size,
                color="white" if light else ("#c00000" if text == "F" else "black"))
    ax.set_xticks([])
    ax.set_yticks([])
    ax.grid(False)
    if title:
        ax.set_title(title)
    return image


def draw_move_values(ax, size, values: dict, title: str | None = None, best: list | None = None):
    """A heat map of each cell's win probability if clicked (values: cell -> Fraction), in percent.

    The best cells are outlined. Returns the image (for a colour bar).
    """
    import numpy as np

    grid = np.full((size.height, size.width), np.nan)
    for (y, x), value in values.items():
        grid[y, x] = float(value)
    image = ax.imshow(grid, cmap="viridis", vmin=0, vmax=1)
    for (y, x), value in values.items():
        ax.text(x, y, f"{float(value) * 100:.1f}", ha="center", va="center", fontsize=8,
                color="black" if float(value) > 0.6 else "white")
    for y, x in best or []:
        ax.add_patch(mpl.patches.Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, edgecolor="red", linewidth=2))
    ax.set_xticks([])
    ax.set_yticks([])
    ax.grid(False)
    if title:
        ax.set_title(title, fontsize=10)
    return image
