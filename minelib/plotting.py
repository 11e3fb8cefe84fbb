"""Figure style in one place, and ``save_figure`` writing byte-stable files to figures/.

The same figure saved twice gives the same bytes: fixed rcParams, a fixed
``svg.hashsalt``, and no dates or version strings in the metadata.
"""

from __future__ import annotations

import os
from pathlib import Path

import matplotlib as mpl
import matplotlib.pyplot as plt

STYLE: dict = {
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
    marks = {
        **dict.fromkeys(analysis.certain_safe, "S"),
        **dict.fromkeys(analysis.certain_mines, "M"),
        **dict.fromkeys(board.mine_cells(), "F"),
        **{c: str(board.values[c]) for c in board.number_cells() if board.values[c] > 0},
    }
    for (y, x), text in marks.items():
        light = text in "SMF" and not flags[y, x] and grid[y, x] > 0.5
        ax.text(
            x,
            y,
            text,
            ha="center",
            va="center",
            fontsize=size,
            color="white" if light else ("#c00000" if text == "F" else "black"),
        )
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
        ax.text(
            x,
            y,
            f"{float(value) * 100:.1f}",
            ha="center",
            va="center",
            fontsize=8,
            color="black" if float(value) > 0.6 else "white",
        )
    for y, x in best or []:
        ax.add_patch(mpl.patches.Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, edgecolor="red", linewidth=2))
    ax.set_xticks([])
    ax.set_yticks([])
    ax.grid(False)
    if title:
        ax.set_title(title, fontsize=10)
    return image


def draw_counter_times(ax, rows, cap: float | None, title: str) -> None:
    """Seconds per problem for each counter (benchmark rows); a cross at ``cap`` where a counter was stopped."""
    names = list(dict.fromkeys(r.counter for r in rows))
    for k, name in enumerate(names):
        shift = 0.06 * (k - (len(names) - 1) / 2)
        done = [r for r in rows if r.counter == name and r.seconds is not None]
        stopped = [r for r in rows if r.counter == name and r.seconds is None]
        (line,) = ax.plot([r.problem + shift for r in done], [r.seconds for r in done], "o", label=name, alpha=0.8)
        ax.plot([r.problem + shift for r in stopped], [cap] * len(stopped), "x", color=line.get_color())
    labels = [r.label for r in rows if r.counter == names[0]]
    ax.set(yscale="log", title=title, xticks=range(len(labels)), xlabel="problem")
    ax.set_xticklabels(labels, rotation=45)


def draw_win_probability_vs_density(ax, entries, rule: str, sizes) -> None:
    """Exact win probability against mine density, one line per board size (table entries of one rule).

    A mine count not in the table is a gap, not a straight line across it.
    """
    for size in sizes:
        found = {
            e.task.mines: e.probability
            for e in entries
            if e.task.rule == rule and f"{e.task.height}x{e.task.width}" == size
        }
        cells = int(size.split("x")[0]) * int(size.split("x")[1])
        ks = range(1, cells)
        ax.plot([k / cells for k in ks], [float(found.get(k, "nan")) for k in ks], marker="o", markersize=3, label=size)
    ax.set(title=f"first click: {rule}", xlabel="mine density (mines / cells)", xlim=(0, 1), ylim=(0, 1.02))


def draw_win_rates(ax, curves: dict, densities) -> None:
    """Win rate against mine density with 95% intervals, one line per player (``density_curves``)."""
    for name, curve in curves.items():
        rates = [s.rate for s in curve]
        errors = [[s.rate - s.low for s in curve], [s.high - s.rate for s in curve]]
        ax.errorbar(densities, rates, yerr=errors, marker="o", capsize=3, label=name)
    ax.set_xlabel("mine density")
    ax.set_ylabel("win rate (95% interval)")


__all__ = [
    "STYLE",
    "SavedFiles",
    "draw_counter_times",
    "draw_move_values",
    "draw_probabilities",
    "draw_win_probability_vs_density",
    "draw_win_rates",
    "figures_dir",
    "new_figure",
    "save_figure",
    "use_style",
]
