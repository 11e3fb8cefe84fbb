"""Auto-play experiments (article 003): N seeded games per setting, wins and times.

Game ``i`` of a setting is seeded by ``(seed, i)`` alone, so results do not
depend on which worker plays it or in which order games finish. Games run in
parallel through any ``concurrent.futures`` executor (by default a process pool
over all cores; a Dask cluster works the same way through
``distributed.Client(...).get_executor()``). Each finished game (or block of
games) is written at once to the results file (``minelib.results``: JSON lines, or
SQLite blocks for long runs), so an interrupted run loses nothing and resumes where
it stopped. What the stored runs say (tables beside the published records, paired
comparisons, where games are lost) is ``minelib.strength``.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from minelib.board import UNOPENED, BoardSize, Cell
from minelib.cluster import DaskExecutor
from minelib.game import (
    Game,
    check_first_cell,
    check_rule,
    deal,
    first_cell,
    mines_for_density,
    neighbour_ids,
    parse_layout,
)
from minelib.moves import luck
from minelib.players import STRONGEST, check_player, make_player
from minelib.results import Games, LuckSums, Store, open_results

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
# The standard levels.
LEVELS = {"beginner": ("9x9", 10), "intermediate": ("16x16", 40), "expert": ("16x30", 99)}
ARTICLE_PLAYERS = ("zdd", "lookahead")


@dataclass(frozen=True)
class Published:
    """A published win rate of one of the strongest players, and the setting it was measured on."""

    level: str
    rule: str  # safe: the first cell is mine-free; zero: its 3x3 neighbourhood is
    first: str  # the first click, "ROW,COL"
    rate: float
    by: str
    games: str


# JSMinesweeper: D. Hill's solver (its Java version for the safe start); PSEQ-D256: Tu et al.
PUBLISHED = (
    Published("expert", "safe", "0,0", 0.4113, "JSMinesweeper", "10M"),
    Published("expert", "safe", "0,0", 0.4005, "PSEQ-D256", "100M"),
    Published("expert", "zero", "3,3", 0.543, "JSMinesweeper", "not stated"),
    Published("expert", "zero", "3,3", 0.5345, "PSEQ-D256", "100M"),
    Published("intermediate", "safe", "0,0", 0.7823, "PSEQ-D256", "100M"),
    Published("intermediate", "zero", "2,2", 0.8908, "PSEQ-D256", "100M"),
    Published("beginner", "safe", "0,0", 0.9169, "PSEQ-D256", "100M"),
    Published("beginner", "zero", "2,2", 0.9717, "PSEQ-D256", "100M"),
)
# The levels are played at the records' settings: (level, rule, first click), in this order.
LEVEL_SETTINGS = tuple(dict.fromkeys((p.level, p.rule, p.first) for p in PUBLISHED))
# The record runs: our strongest player, this many games per setting, into an SQLite file.
RECORD_PLAYER, RECORD_SEED = STRONGEST, 2026
RECORD_GAMES = {"expert": 100_000, "intermediate": 50_000, "beginner": 50_000}


def article_setting(player: str, side: int, density: float, games: int = ARTICLE_GAMES, seed: int = 2023) -> Setting:
    """One setting of article 003's experiment."""
    size = BoardSize(side, side)
    return Setting(player, str(size), mines_for_density(size, density), games, seed, "zero", "random")


def level_setting(player: str, level: str, first_click: str, first: str, games: int, seed: int = 2024) -> Setting:
    """A standard level (beginner, intermediate, expert) with a first-click rule and cell."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (expected one of {', '.join(LEVELS)})")
    size, mines = LEVELS[level]
    return Setting(player, size, mines, games, seed, first_click, first)


def record_setting(
    level: str, rule: str, first: str, games: int | None = None, options: str = "", start: int = 0
) -> Setting:
    """A record run's setting: the strongest player (with ``options``: a run of defaults replaced since) at a
    level setting (``RECORD_GAMES`` games by default, from game ``start``: a long run's next part)."""
    setting = level_setting(RECORD_PLAYER, level, rule, first, games or RECORD_GAMES[level], RECORD_SEED)
    return replace(setting, options=options, start=start)


@dataclass(frozen=True)
class Setting:
    """What to play: player, board, mines, first-click rule and cell, games and seed.

    With ``boards`` (layout pictures) the games replay those layouts instead of
    random ones; the first click is then a seeded random cell the rule allows.
    The games are those numbered ``start`` to ``stop - 1`` (game i is dealt from the seed and i alone);
    ``start`` (0 unless told) lets a long run go on in a file of its own, its games counted on from the
    first file's: like ``games``, it is not part of the setting's identity in a results file (``key``).
    """

    player: str
    size: str  # a BoardSize is accepted too, and kept as "HxW"
    mines: int
    games: int
    seed: int = 0
    first_click: str = "zero"
    first: str = "random"
    boards: tuple[str, ...] = ()
    options: str = ""  # the player's options, "key=value,..." (e.g. "dead=0"): a variant of it
    start: int = 0  # the first game's number

    def __post_init__(self):
        object.__setattr__(self, "size", str(BoardSize.of(self.size)))  # a BoardSize or "HxW"; kept as "HxW"
        check_player(self.player)
        make_player(self.player, self.options)  # unknown options fail here, before any game
        check_first_cell(self.size, self.first)
        if not isinstance(self.games, int) or self.games < 1:
            raise ValueError(f"the number of games must be a positive integer, got {self.games!r}")
        if not isinstance(self.start, (int, np.integer)) or self.start < 0:
            raise ValueError(f"the first game's number must be a non-negative integer, got {self.start!r}")
        if not isinstance(self.seed, (int, np.integer)) or self.seed < 0:  # (numpy would say only "non-negative")
            raise ValueError(f"the seed must be a non-negative integer, got {self.seed!r}")
        check_rule(BoardSize.parse(self.size), self.mines, self.first_click)
        for picture in self.boards:
            layout = parse_layout(picture)
            if f"{layout.shape[0]}x{layout.shape[1]}" != self.size or int(layout.sum()) != self.mines:
                raise ValueError(f"a layout in the boards file is not {self.size} with {self.mines} mines")
        if self.boards and self.stop > len(self.boards):
            after = f" from game {self.start}" if self.start else ""
            raise ValueError(f"{self.games} games{after} asked for but only {len(self.boards)} layouts given")

    @property
    def stop(self) -> int:
        """One past the last game's number."""
        return self.start + self.games

    def indices(self) -> range:
        """The games' numbers."""
        return range(self.start, self.stop)

    def key(self) -> str:
        """The setting's identity in the results file (the number of games and the first game's excluded)."""
        fields = asdict(self)
        del fields["games"], fields["start"]
        if not self.options:
            del fields["options"]  # the keys written before players had options
        return json.dumps(fields, sort_keys=True)


def as_played(options: str, *changes: str) -> str:
    """The options that replay a run played before some changes of a player's defaults: each change
    (the defaults it replaced, ``key=value,...``, oldest first) adds those of its options that the run
    did not set, at the end. Stored runs of old defaults are named so, and keep their games."""
    for change in changes:
        have = {item.partition("=")[0] for item in options.split(",") if item}
        added = [item for item in change.split(",") if item and item.partition("=")[0] not in have]
        options = ",".join(filter(None, [options, *added]))
    return options


@dataclass(frozen=True)
class Summary:
    """Wins with a 95% interval, and seconds per game (all games and won games only); from ``run``, the
    luck of the games that kept theirs too (``LuckSums``: the win rate with it taken out)."""

    games: int
    wins: int
    low: float
    high: float
    seconds: tuple[float, float, float]  # min, median, max over all games
    won_seconds: tuple[float, float, float] | None  # the same over won games
    luck: LuckSums | None = None

    @property
    def rate(self) -> float:
        return self.wins / self.games

    def __str__(self) -> str:
        low, mid, high = self.seconds
        return (
            f"{self.wins}/{self.games} won ({self.rate:.1%}, 95% interval {self.low:.1%}-{self.high:.1%}); "
            f"seconds per game min {low:.3f} median {mid:.3f} max {high:.3f}"
            + (f"; luck taken out {self.luck} games" if self.luck else "")
        )


def wilson_interval(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a win rate (95% by default)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def setting_game(setting: Setting, index: int) -> tuple[Game, Cell]:
    """Game ``index`` of a setting, not yet played, and its first click (seeded by (seed, index) alone)."""
    size = BoardSize.parse(setting.size)
    rng = np.random.default_rng([setting.seed, index])
    if setting.boards:
        game = Game.from_picture(setting.boards[index], setting.first_click)
        allowed = game.first_click_cells()
        if not allowed:
            raise ValueError(f"layout {index} has no cell the {setting.first_click!r} rule allows to click first")
        return game, allowed[int(rng.integers(len(allowed)))]
    first = first_cell(size, setting.first, rng)
    return Game(size, setting.mines, setting.first_click, seed=rng), first


def first_number(setting: Setting, index: int) -> int:
    """What the first click of game ``index`` of a setting shows (``UNOPENED`` where it is a mine, as
    ``Game.value`` after the game is lost), read from the layout the game would place, as ``setting_game``
    deals it, without playing: a few times faster than opening the cell."""
    if setting.boards:
        game, first = setting_game(setting, index)
        game.open(first)
        return game.value(first)
    size = BoardSize.parse(setting.size)
    rng = np.random.default_rng([setting.seed, index])
    first = first_cell(size, setting.first, rng)  # (the same draws, in the same order, as setting_game)
    start = size.cell_id(first)
    layout = deal(size, setting.mines, setting.first_click, start, rng).ravel()
    if layout[start]:
        return UNOPENED
    return int(layout[list(neighbour_ids(size)[start])].sum())


def play_one(setting: Setting, index: int) -> dict:
    """Play game ``index`` of a setting; a JSON-ready record, with the game's luck (``moves.Luck``, its value
    and control as floats)."""
    game, first = setting_game(setting, index)
    record = make_player(setting.player, setting.options).play(game, first, log=True)
    found = luck(record.moves, record.won)
    return {
        "index": index,
        "won": record.won,
        "guesses": record.guesses,
        "seconds": record.seconds,
        "value": float(found.value),
        "control": float(found.control),
    }


def play_many(setting: Setting, indices: list[int]) -> list[dict]:
    """Play the games ``indices`` of a setting one after another (one task for a worker)."""
    return [play_one(setting, i) for i in indices]


def load(path: Path | str, setting: Setting) -> dict[int, dict]:
    """The games of ``setting`` already in the results file, by index (torn last lines skipped)."""
    return open_results(path).load(setting)


def load_games(path: Path | str, setting: Setting, start: int = 0, stop: int | None = None) -> Games:
    """``load`` as arrays (``results.Games``), games ``start`` to before ``stop`` only: what a summary or
    a paired comparison of a million stored games reads (an SQLite file reads only the blocks asked for)."""
    return open_results(path).games(setting, start, stop)


def run(
    setting: Setting,
    results: Path | str | None = None,
    executor: Executor | None = None,
    parallel: bool = True,
    progress: bool = True,
    client=None,
) -> Summary:
    """Play the setting's games not yet in ``results`` and summarize all of them.

    ``results`` is a JSON-lines file (one game a line) or, named ``*.sqlite``, an SQLite file of
    blocks of games (long runs: compact, see ``minelib.results``); the summary holds the luck of the games
    that kept theirs (all played now, and those stored since 2026-11-29). Games go to a Dask ``client``
    (``distributed.Client``: a cluster), or to ``executor``; without either, to a process pool over
    all cores, or (``parallel=False``) are played in this process one after another. Finished
    games are written the moment they are back (a game a line, or a block a row), so an
    interrupted run, or a worker lost mid-run, loses no finished line or block.
    """
    if client is not None:
        executor = DaskExecutor(client)
    store = open_results(results) if results else None
    if store is not None:
        store.check_writable()
    entries = list(_play(setting, store, executor, parallel, progress).values())
    luck = store.luck(setting, entries) if store is not None else LuckSums.of(entries)  # (a file's: what it kept)
    return replace(summarize(entries), luck=luck)


def play_all(setting: Setting, executor: Executor | None = None, parallel: bool = True) -> list[dict]:
    """Every game of ``setting`` played now (no results file read or written), in index order."""
    return sorted(_play(setting, None, executor, parallel, False).values(), key=lambda e: e["index"])


def _play(
    setting: Setting,
    store: Store | None,
    executor: Executor | None,
    parallel: bool,
    progress: bool,
    indices: Sequence[int] | None = None,
) -> dict[int, dict]:
    """The games of ``setting`` (or those of ``indices`` only): those in ``store`` and the rest, played
    and saved as they come back."""
    done = store.load(setting) if store else {}
    todo = [i for i in (setting.indices() if indices is None else indices) if i not in done]
    tasks = store.tasks(setting, todo) if store else [[i] for i in todo]
    own = executor is None and parallel and len(tasks) > 1
    if own:
        executor = ProcessPoolExecutor(max_workers=os.cpu_count() or 1)
    bar = tqdm(
        total=setting.games,
        initial=setting.games - sum(map(len, tasks)),
        disable=not progress,
        desc=f"{setting.player} {setting.size}/{setting.mines}",
    )
    try:
        for entries in _finished(setting, tasks, executor):
            done.update((e["index"], e) for e in entries)
            if store:
                store.save(setting, entries)
            bar.update(len(entries))
    finally:
        bar.close()
        if own and executor is not None:
            executor.shutdown(cancel_futures=True)
    return done


def _finished(setting: Setting, tasks: list[list[int]], executor: Executor | None):
    if executor is None:
        yield from (play_many(setting, task) for task in tasks)
        return
    futures = [executor.submit(play_many, setting, task) for task in tasks]
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        for future in futures:
            future.cancel()


def summarize(entries: list[dict] | Games) -> Summary:
    """Wins, the Wilson interval and min / median / max seconds of game records (or of ``Games``)."""
    games = entries if isinstance(entries, Games) else Games.of(entries)
    if not len(games):
        raise ValueError("no games to summarize")
    wins = int(np.count_nonzero(games.won))
    won = games.seconds[games.won]
    return Summary(
        len(games),
        wins,
        *wilson_interval(wins, len(games)),
        _spread(games.seconds),
        _spread(won) if len(won) else None,
    )


def _spread(values: np.ndarray) -> tuple[float, float, float]:
    """min, median and max (the median of an even count: the mean of the middle two, as ``statistics.median``)."""
    return (float(values.min()), float(np.median(values)), float(values.max()))


def replays_agree(setting: Setting, stored: Path | str, games: int, start: int = 0) -> bool:
    """Whether ``games`` games of ``setting`` from game ``start`` on (the first ones by default), played
    again now, equal the stored ones game by game (won or lost, and the number of guesses)."""
    if start not in setting.indices():
        after = f" from game {setting.start:,}" if setting.start else ""
        raise ValueError(f"game {start} to replay from is not among the setting's {setting.games:,} games{after}")
    indices = range(start, min(start + games, setting.stop))
    replayed = {i: (g["won"], g["guesses"]) for i, g in _play(setting, None, None, True, False, indices).items()}
    found = load_games(stored, setting, indices.start, indices.stop)  # only the blocks that hold them
    kept = dict(zip(found.index.tolist(), zip(found.won.tolist(), found.guesses.tolist())))
    return len(replayed) == len(indices) and all(kept.get(i) == outcome for i, outcome in replayed.items())


__all__ = [
    "ARTICLE_DENSITIES",
    "ARTICLE_GAMES",
    "ARTICLE_PLAYERS",
    "ARTICLE_RESULTS",
    "ARTICLE_SIZES",
    "LEVELS",
    "LEVEL_SETTINGS",
    "PUBLISHED",
    "RECORD_GAMES",
    "RECORD_PLAYER",
    "RECORD_SEED",
    "Published",
    "Setting",
    "Summary",
    "article_setting",
    "as_played",
    "first_number",
    "level_setting",
    "load",
    "load_games",
    "play_all",
    "play_many",
    "play_one",
    "record_setting",
    "replays_agree",
    "run",
    "summarize",
    "wilson_interval",
]
