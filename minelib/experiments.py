"""Auto-play experiments (article 003): N seeded games per setting, wins and times.

Game ``i`` of a setting is seeded by ``(seed, i)`` alone, so results do not
depend on which worker plays it or in which order games finish. Games run in
parallel through any ``concurrent.futures`` executor (by default a process pool
over all cores; a Dask cluster works the same way through
``distributed.Client(...).get_executor()``). Each finished game (or block of
games) is written at once to the results file (``minelib.results``: JSON lines, or
SQLite blocks for long runs), so an interrupted run loses nothing and resumes where
it stopped. The second half holds what the notebooks show: tables of stored runs
beside the published records, paired comparisons, where games are lost.
"""

from __future__ import annotations

import json
import math
import os
import statistics
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from minelib.board import BoardSize, Cell
from minelib.cluster import DaskExecutor
from minelib.game import Game, check_first_cell, check_rule, first_cell, mines_for_density, parse_layout
from minelib.guesses import Guess, guess_positions
from minelib.optimal import COMPILED_CELLS
from minelib.players import STRONGEST, check_player, make_player
from minelib.results import Store, open_results

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
    options: str = ""  # the player's options, "key=value,..." (e.g. "dead=0"): a variant of it

    def __post_init__(self):
        object.__setattr__(self, "size", str(BoardSize.of(self.size)))  # a BoardSize or "HxW"; kept as "HxW"
        check_player(self.player)
        make_player(self.player, self.options)  # unknown options fail here, before any game
        check_first_cell(self.size, self.first)
        if not isinstance(self.games, int) or self.games < 1:
            raise ValueError(f"the number of games must be a positive integer, got {self.games!r}")
        if not isinstance(self.seed, (int, np.integer)) or self.seed < 0:  # (numpy would say only "non-negative")
            raise ValueError(f"the seed must be a non-negative integer, got {self.seed!r}")
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


def play_one(setting: Setting, index: int) -> dict:
    """Play game ``index`` of a setting; a JSON-ready record."""
    game, first = setting_game(setting, index)
    record = make_player(setting.player, setting.options).play(game, first)
    return {"index": index, "won": record.won, "guesses": record.guesses, "seconds": record.seconds}


def play_many(setting: Setting, indices: list[int]) -> list[dict]:
    """Play the games ``indices`` of a setting one after another (one task for a worker)."""
    return [play_one(setting, i) for i in indices]


def load(path: Path | str, setting: Setting) -> dict[int, dict]:
    """The games of ``setting`` already in the results file, by index (torn last lines skipped)."""
    return open_results(path).load(setting)


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
    blocks of games (long runs: compact, see ``minelib.results``). Games go to a Dask ``client``
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
    return summarize(list(_play(setting, store, executor, parallel, progress).values()))


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
    todo = [i for i in (range(setting.games) if indices is None else indices) if i not in done]
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


def replays_agree(setting: Setting, stored: Path | str, games: int, start: int = 0) -> bool:
    """Whether ``games`` games of ``setting`` from game ``start`` on (the first ones by default), played
    again now, equal the stored ones game by game (won or lost, and the number of guesses)."""
    if not 0 <= start < setting.games:
        raise ValueError(f"game {start} to replay from is not among the setting's {setting.games:,} games")
    indices = range(start, min(start + games, setting.games))
    replayed = {i: (g["won"], g["guesses"]) for i, g in _play(setting, None, None, True, False, indices).items()}
    kept = {i: (g["won"], g["guesses"]) for i, g in load(stored, setting).items()}
    return len(replayed) == len(indices) and all(kept.get(i) == outcome for i, outcome in replayed.items())


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
        for level, rule, first in LEVEL_SETTINGS
        for name in players
    }


def level_rows(summaries: dict[tuple[str, str, str, str], Summary]) -> list[dict]:
    """One row per level setting: each player's win rate with its 95% interval."""
    rows: dict[tuple[str, str, str], dict] = {}
    for (level, rule, first, name), s in summaries.items():
        row = rows.setdefault((level, rule, first), {"level": level, "first click": f"{rule} ({first})"})
        row[name] = f"{s.rate:.1%} [{s.low:.1%}-{s.high:.1%}]"
    return list(rows.values())


def record_setting(level: str, rule: str, first: str, games: int | None = None, options: str = "") -> Setting:
    """A record run's setting: the strongest player (with ``options``: a run of defaults replaced since) at a
    level setting (``RECORD_GAMES`` games by default)."""
    setting = level_setting(RECORD_PLAYER, level, rule, first, games or RECORD_GAMES[level], RECORD_SEED)
    return replace(setting, options=options) if options else setting


def record_rows(
    results: Path | str,
    games: dict[str, int] | None = None,
    settings: Sequence[tuple[str, str, str]] = LEVEL_SETTINGS,
    options: str = "",
) -> list[dict]:
    """One row per record setting (of ``settings``: level, rule, first cell): the games stored so far (of
    ``games`` per level; the player with ``options``), our rate with its 95% interval, and the published
    records beside it."""
    rows = []
    for level, rule, first in settings:
        target = (games or RECORD_GAMES)[level]
        stored = list(load(results, record_setting(level, rule, first, target, options)).values())
        s = summarize(stored) if stored else None
        published = [p for p in PUBLISHED if (p.level, p.rule, p.first) == (level, rule, first)]
        rows.append(
            {
                "level": level,
                "first click": f"{rule} ({first})",
                "games": f"{len(stored):,}" + ("" if len(stored) == target else f" of {target:,}"),
                "wins": f"{s.wins:,}" if s else "",
                "ours": f"{s.rate:.2%} [{s.low:.2%}-{s.high:.2%}]" if s else "",
                "published": ", ".join(f"{p.rate:.2%} {p.by}" for p in published),
            }
        )
    return rows


PHASE_BANDS = (100, 2_000, 20_000, 10**6)  # layouts left; the first is the exact endgame on any board
PHASE_ORDERS = 6  # guesses after the first click counted one by one; the later ones together


def play_guesses(setting: Setting, indices: list[int]) -> list[tuple[bool, list[Guess]]]:
    """Whether each game ``indices`` of a setting was won, and its guesses after the first click
    (``guesses.guess_positions``: the same games as the setting's run)."""
    player = make_player(setting.player, setting.options)
    games = []
    for index in indices:
        game, first = setting_game(setting, index)
        record, guesses = guess_positions(player, game, first)
        games.append((record.won, guesses))
    return games


def layout_band(guess: Guess) -> str:
    """A guess's band of layouts left (``PHASE_BANDS``) and whether the compiled exact search reaches
    its position (at most ``COMPILED_CELLS`` unopened cells, 63)."""
    low = 0
    for high in PHASE_BANDS:
        if guess.layouts <= high:
            reach = "<=" if guess.unopened <= COMPILED_CELLS else ">"
            return f"{low:,} < n <= {high:,}, {reach} {COMPILED_CELLS} cells"
        low = high
    return f"more than {PHASE_BANDS[-1]:,}"


def guess_order(index: int) -> str:
    """The row of the ``index``-th guess after the first click (from 0): one each, then the rest."""
    return f"guess {index + 1:2d}" if index < PHASE_ORDERS else f"guess {PHASE_ORDERS + 1}+"


def phase_rows(games: list[tuple[bool, list[Guess]]], by: str = "layouts") -> list[dict]:
    """Where games are lost: per band of layouts left (``by="layouts"``, most guesses first) or per
    guess in order (``by="order"``), the guesses a game, the share the exact search chose, the deaths
    a game the mine probabilities predict (their sum) and those found (a lost game died on its last
    guess), and the share of all losses."""
    if by not in ("layouts", "order"):
        raise ValueError(f"phases are counted by 'layouts' or 'order', not {by!r}")
    if not games:
        raise ValueError("no games to count")
    table: dict[str, list] = {}
    for won, guesses in games:
        for i, guess in enumerate(guesses):
            row = table.setdefault(layout_band(guess) if by == "layouts" else guess_order(i), [0, 0, 0.0, 0])
            row[0] += 1
            row[1] += guess.exact
            row[2] += float(guess.mine_probability)
            row[3] += not won and i == len(guesses) - 1
    count, lost = len(games), sum(not won for won, _ in games)
    order = sorted(table, key=lambda name: -table[name][0]) if by == "layouts" else sorted(table)
    return [
        {
            "": name,
            "guesses a game": f"{n / count:.3f}",
            "by the exact search": f"{exact / n:.0%}",
            "deaths a game, predicted": f"{predicted / count:.4f}",
            "found": f"{deaths / count:.4f}",
            "share of losses": f"{deaths / lost:.1%}" if lost else "-",
        }
        for name in order
        for n, exact, predicted, deaths in [table[name]]
    ]


def first_number_rows(results: Path | str, setting: Setting, games: int) -> list[dict]:
    """The first ``games`` stored games of a setting by the number its first click showed (0: an
    opening), each group's share of the games and its win rate with a 95% interval: with a safe
    first click, how the games that must guess blind at once fare against those that open a region.
    A game's first number is found by opening its first cell again (game i depends on (seed, i) alone)."""
    stored = load(results, setting)
    missing = [i for i in range(games) if i not in stored]
    if missing:
        raise ValueError(f"{len(missing):,} of the first {games:,} games are not stored (game {missing[0]} first)")
    by_number: dict[int, list[dict]] = {}
    for index in range(games):
        game, first = setting_game(setting, index)
        game.open(first)
        by_number.setdefault(game.value(first), []).append(stored[index])
    rows = []
    for number, entries in sorted(by_number.items()):
        s = summarize(entries)
        rows.append(
            {
                "first click shows": number,
                "games": len(entries),
                "share": f"{len(entries) / games:.1%}",
                "wins": s.wins,
                "rate": f"{s.rate:.2%} [{s.low:.2%}-{s.high:.2%}]",
            }
        )
    return rows


def paired_difference(won: Sequence[bool], base: Sequence[bool]) -> tuple[float, float]:
    """The mean of ``won - base`` over paired games (the same game played two ways), and the half
    width of its 95% interval."""
    diff = [int(a) - int(b) for a, b in zip(won, base, strict=True)]
    if not diff:
        raise ValueError("no paired games to compare")
    return sum(diff) / len(diff), 1.959964 * statistics.pstdev(diff) / math.sqrt(len(diff))


def paired_text(won: Sequence[bool], base: Sequence[bool]) -> str:
    """``paired_difference`` as text, in points to a thousandth: a million paired games resolve a few
    thousandths, which two decimals would round away."""
    mean, half = paired_difference(won, base)
    return f"{mean:+.3%} [{mean - half:+.3%}, {mean + half:+.3%}]"


def paired_rows(results: Path | str | Sequence[Path | str], settings: list[Setting]) -> list[dict]:
    """What each variant is worth: settings that differ only in player or options, compared game by
    game on the games all of them have stored (the same seeds: the same layouts and first click).
    The first setting is the base; each row gives a variant's wins, its win rate's difference
    from the base with a 95% interval from the paired differences, and the games only one won.
    ``results``: the results file, or one file per setting (long runs each keep a file of their own)."""
    paths = [results] * len(settings) if isinstance(results, (str, Path)) else list(results)
    if len(paths) != len(settings):
        raise ValueError(f"{len(paths)} results files for {len(settings)} settings: give one, or one per setting")
    stored = [load(path, s) for path, s in zip(paths, settings)]
    common = sorted(set.intersection(*(set(games) for games in stored)))
    if not common:
        raise ValueError("the settings have no stored game in common")
    base = [stored[0][i]["won"] for i in common]
    rows = []
    for setting, games in zip(settings, stored):
        won = [games[i]["won"] for i in common]
        diff = [int(a) - int(b) for a, b in zip(won, base)]
        rows.append(
            {
                "player": setting.player + (f" ({setting.options})" if setting.options else ""),
                "games": len(common),
                "wins": sum(won),
                "rate": f"{sum(won) / len(won):.2%}",
                "vs base": paired_text(won, base),
                "won only here": diff.count(1),
                "lost only here": diff.count(-1),
                "guesses": sum(games[i]["guesses"] for i in common),
                "median ms": round(1000 * statistics.median(games[i]["seconds"] for i in common), 1),
            }
        )
    return rows


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
    "LEVEL_SETTINGS",
    "PUBLISHED",
    "RECORD_GAMES",
    "RECORD_PLAYER",
    "RECORD_SEED",
    "Published",
    "Setting",
    "Summary",
    "article_rows",
    "article_setting",
    "as_played",
    "density_curves",
    "first_number_rows",
    "level_rows",
    "level_setting",
    "level_summaries",
    "load",
    "paired_rows",
    "play_all",
    "play_many",
    "play_one",
    "record_rows",
    "record_setting",
    "replays_agree",
    "run",
    "stored_summary",
    "summarize",
    "wilson_interval",
]
