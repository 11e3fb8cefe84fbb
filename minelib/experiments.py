"""Auto-play experiments (article 003): N seeded games per setting, wins and times.

Game ``i`` of a setting is seeded by ``(seed, i)`` alone, so results do not
depend on which worker plays it or in which order games finish. Games run in
parallel through any ``concurrent.futures`` executor (by default a process pool
over all cores; a Dask cluster works the same way through
``distributed.Client(...).get_executor()``). Each finished game is appended at
once as one JSON line to the results file, so an interrupted run loses nothing
and resumes where it stopped.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import tempfile
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from minelib.board import BoardSize
from minelib.cluster import DaskExecutor
from minelib.game import Game, check_first_cell, check_rule, first_cell, mines_for_density, parse_layout
from minelib.players import OLD_NAMES, PLAYERS, check_player

# Article 003's experiment: boards, densities, and its results (50 games each, zero rule,
# first click at a random cell): wins, and min / median / max seconds over all games.
ARTICLE_SIZES = (20, 40, 60, 80)
ARTICLE_DENSITIES = (0.1, 0.2)
ARTICLE_GAMES = 50
ARTICLE_RESULTS = {
    (20, 0.1): (47, (0.012, 0.016, 0.042)),
    (40, 0.1): (47, (0.064, 0.076, 0.110)),
    (60, 0.1): (49, (0.156, 0.191, 0.290)),
    (80, 0.1): (46, (0.351, 0.424, 0.757)),
    (20, 0.2): (36, (0.002, 0.035, 0.128)),
    (40, 0.2): (17, (0.004, 0.243, 1.121)),
    (60, 0.2): (13, (0.005, 1.400, 23.505)),
    (80, 0.2): (8, (0.006, 5.275, 74.303)),
}
# The standard levels, and the first-click settings they are played with.
LEVELS = {"beginner": ("9x9", 10), "intermediate": ("16x16", 40), "expert": ("16x30", 99)}
LEVEL_FIRST_CLICKS = (("safe", "corner"), ("zero", "corner"), ("zero", "center"))
ARTICLE_PLAYERS = ("zdd", "lookahead")


def article_setting(player: str, side: int, density: float, games: int = ARTICLE_GAMES, seed: int = 2023) -> Setting:
    """One setting of article 003's experiment."""
    size = BoardSize(side, side)
    return Setting(player, str(size), mines_for_density(size, density), games, seed, "zero", "random")


def level_setting(player: str, level: str, first_click: str, first: str, games: int, seed: int = 2024) -> Setting:
    """A standard level (beginner, intermediate, expert) with a first-click rule and cell."""
    size, mines = LEVELS[level]
    return Setting(player, size, mines, games, seed, first_click, first)


@dataclass(frozen=True)
class Setting:
    """What to play: player, board, mines, first-click rule and cell, games and seed.

    With ``boards`` (layout pictures) the games replay those layouts instead of
    random ones; the first click is then a seeded random cell the rule allows.
    """

    player: str
    size: str  # a BoardSize is accepted too, and kept as "HxW"
    mines: int
    games: int
    seed: int = 0
    first_click: str = "zero"
    first: str = "random"
    boards: tuple[str, ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "size", str(BoardSize.of(self.size)))  # a BoardSize or "HxW"; kept as "HxW"
        check_player(self.player)
        check_first_cell(self.size, self.first)
        if not isinstance(self.games, int) or self.games < 1:
            raise ValueError(f"the number of games must be a positive integer, got {self.games!r}")
        check_rule(BoardSize.parse(self.size), self.mines, self.first_click)
        for picture in self.boards:
            layout = parse_layout(picture)
            if f"{layout.shape[0]}x{layout.shape[1]}" != self.size or int(layout.sum()) != self.mines:
                raise ValueError(f"a layout in the boards file is not {self.size} with {self.mines} mines")
        if self.boards and self.games > len(self.boards):
            raise ValueError(f"{self.games} games asked for but only {len(self.boards)} layouts given")

    def key(self) -> str:
        """The setting's identity in the results file (the number of games excluded)."""
        fields = asdict(self)
        del fields["games"]
        return json.dumps(fields, sort_keys=True)


@dataclass(frozen=True)
class Summary:
    """Wins with a 95% interval, and seconds per game (all games and won games only)."""

    games: int
    wins: int
    low: float
    high: float
    seconds: tuple[float, float, float]  # min, median, max over all games
    won_seconds: tuple[float, float, float] | None  # the same over won games

    @property
    def rate(self) -> float:
        return self.wins / self.games

    def __str__(self) -> str:
        low, mid, high = self.seconds
        return (
            f"{self.wins}/{self.games} won ({self.rate:.1%}, 95% interval {self.low:.1%}-{self.high:.1%}); "
            f"seconds per game min {low:.3f} median {mid:.3f} max {high:.3f}"
        )


def wilson_interval(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a win rate (95% by default)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_one(setting: Setting, index: int) -> dict:
    """Play game ``index`` of a setting; a JSON-ready record."""
    size = BoardSize.parse(setting.size)
    rng = np.random.default_rng([setting.seed, index])
    if setting.boards:
        game = Game.from_picture(setting.boards[index], setting.first_click)
        allowed = game.first_click_cells()
        if not allowed:
            raise ValueError(f"layout {index} has no cell the {setting.first_click!r} rule allows to click first")
        first = allowed[int(rng.integers(len(allowed)))]
    else:
        first = first_cell(size, setting.first, rng)
        game = Game(size, setting.mines, setting.first_click, seed=rng)
    record = PLAYERS[setting.player]().play(game, first)
    return {"index": index, "won": record.won, "guesses": record.guesses, "seconds": record.seconds}


def load(path: Path | str, setting: Setting) -> dict[int, dict]:
    """The games of ``setting`` already in the results file, by index (torn last lines skipped)."""
    path, key = Path(path), setting.key()
    games: dict[int, dict] = {}
    if not path.exists():
        return games
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by an interruption
        if _current_key(entry.get("setting")) == key and entry["index"] < setting.games:
            games[entry["index"]] = entry
    return games


def _current_key(key: str | None) -> str | None:
    """A setting key as written today; files from before 0.2 say "solver" (and "best" for "lookahead")."""
    if key is None or '"solver"' not in key:
        return key
    fields = json.loads(key)
    name = fields.pop("solver")
    fields["player"] = OLD_NAMES.get(name, name)
    return json.dumps(fields, sort_keys=True)


def run(
    setting: Setting,
    results: Path | str | None = None,
    executor: Executor | None = None,
    parallel: bool = True,
    progress: bool = True,
    client=None,
) -> Summary:
    """Play the setting's games not yet in ``results`` and summarize all of them.

    Games go to a Dask ``client`` (``distributed.Client``: a cluster), or to
    ``executor``; without either, to a process pool over all cores, or
    (``parallel=False``) are played in this process one after another. Each game is
    written to ``results`` the moment it is back, so an interrupted run, or a
    worker lost mid-run, loses no finished game.
    """
    if client is not None:
        executor = DaskExecutor(client)
    done = load(results, setting) if results else {}
    todo = [i for i in range(setting.games) if i not in done]
    own = executor is None and parallel and len(todo) > 1
    if own:
        executor = ProcessPoolExecutor(max_workers=os.cpu_count() or 1)
    bar = tqdm(
        total=setting.games,
        initial=len(done),
        disable=not progress,
        desc=f"{setting.player} {setting.size}/{setting.mines}",
    )
    try:
        for entry in _finished(setting, todo, executor):
            done[entry["index"]] = entry
            if results:
                _append(results, {"setting": setting.key(), **entry})
            bar.update()
    finally:
        bar.close()
        if own and executor is not None:
            executor.shutdown(cancel_futures=True)
    return summarize(list(done.values()))


def _finished(setting: Setting, todo: list[int], executor: Executor | None):
    if executor is None:
        yield from (play_one(setting, i) for i in todo)
        return
    futures = [executor.submit(play_one, setting, i) for i in todo]
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        for future in futures:
            future.cancel()


def _append(path: Path | str, entry: dict) -> None:
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(entry) + "\n")
        handle.flush()


def summarize(entries: list[dict]) -> Summary:
    """Wins, the Wilson interval and min / median / max seconds of game records."""
    if not entries:
        raise ValueError("no games to summarize")
    wins = sum(e["won"] for e in entries)
    won = [e["seconds"] for e in entries if e["won"]]
    return Summary(
        len(entries),
        wins,
        *wilson_interval(wins, len(entries)),
        _spread([e["seconds"] for e in entries]),
        _spread(won) if won else None,
    )


def _spread(values: list[float]) -> tuple[float, float, float]:
    return (min(values), statistics.median(values), max(values))


# --- what the notebooks show ------------------------------------------------------------


def replays_agree(setting: Setting, stored: Path | str, games: int) -> bool:
    """Whether the first ``games`` games of ``setting``, played again now, equal the stored ones game by game
    (won or lost, and the number of guesses)."""
    fresh = replace(setting, games=min(games, setting.games))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.jsonl"
        run(fresh, path, progress=False)
        replayed = {i: (g["won"], g["guesses"]) for i, g in load(path, fresh).items()}
    kept = {i: (g["won"], g["guesses"]) for i, g in load(stored, setting).items()}
    return len(replayed) == fresh.games and all(kept.get(i) == outcome for i, outcome in replayed.items())


def stored_summary(results: Path | str, setting: Setting) -> Summary:
    """The summary of a setting's games in the results file."""
    return summarize(list(load(results, setting).values()))


def article_rows(results: Path | str, players=ARTICLE_PLAYERS, games: int = ARTICLE_GAMES) -> list[dict]:
    """Article 003's experiment, one row per board and density: the article's wins and medians beside ours.

    Medians are seconds per game over all games (the article's on its laptop, ours from the stored run).
    """
    rows = []
    for density in ARTICLE_DENSITIES:
        for side in ARTICLE_SIZES:
            ours = {name: stored_summary(results, article_setting(name, side, density, games)) for name in players}
            wins, (_, median, _) = ARTICLE_RESULTS[side, density]
            rows.append(
                {
                    "board": f"{side}x{side}",
                    "mines": f"{density:.0%}",
                    "article wins": wins,
                    **{f"{name} wins": s.wins for name, s in ours.items()},
                    "article s": median,
                    **{f"{name} s": s.seconds[1] for name, s in ours.items()},
                }
            )
    return rows


def level_summaries(results: Path | str, players, games: int) -> dict[tuple[str, str, str, str], Summary]:
    """(level, rule, first cell, player) -> the summary of that setting's stored games."""
    return {
        (level, rule, first, name): stored_summary(results, level_setting(name, level, rule, first, games))
        for level in LEVELS
        for rule, first in LEVEL_FIRST_CLICKS
        for name in players
    }


def level_rows(summaries: dict[tuple[str, str, str, str], Summary]) -> list[dict]:
    """One row per level and first click: each player's win rate with its 95% interval."""
    rows: dict[tuple[str, str, str], dict] = {}
    for (level, rule, first, name), s in summaries.items():
        row = rows.setdefault((level, rule, first), {"level": level, "first click": f"{rule} {first}"})
        row[name] = f"{s.rate:.1%} [{s.low:.1%}-{s.high:.1%}]"
    return list(rows.values())


def density_curves(
    results: Path | str,
    players,
    size: str,
    densities,
    games: int,
    seed: int = 2025,
    first_click: str = "zero",
    first: str = "center",
) -> dict[str, list[Summary]]:
    """Player -> one summary per mine density (games not yet in ``results`` are played and added)."""
    cells = BoardSize.parse(size).n_cells
    return {
        name: [
            run(Setting(name, size, round(cells * d), games, seed, first_click, first), results, progress=False)
            for d in densities
        ]
        for name in players
    }


__all__ = [
    "ARTICLE_DENSITIES",
    "ARTICLE_GAMES",
    "ARTICLE_PLAYERS",
    "ARTICLE_RESULTS",
    "ARTICLE_SIZES",
    "LEVELS",
    "LEVEL_FIRST_CLICKS",
    "Setting",
    "Summary",
    "article_rows",
    "article_setting",
    "density_curves",
    "level_rows",
    "level_setting",
    "level_summaries",
    "load",
    "play_one",
    "replays_agree",
    "run",
    "stored_summary",
    "summarize",
    "wilson_interval",
]
