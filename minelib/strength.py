"""What the stored runs say (notebooks 05 and 06): each setting's wins beside the published records
and article 003's results, two runs compared game by game, where in a game the losses come, and the
win rate against mine density.

The runs themselves are played and stored by ``minelib.experiments``; everything here reads them
(``experiments.load``, or ``load_games``: arrays, for runs of a million) and turns them into rows for
``report.text_table``, except ``play_guesses``, which plays stored games again to see each guess, and
``density_curves``, which plays the points it does not find.
"""

from __future__ import annotations

import functools
import math
import statistics
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import numpy as np

from minelib.board import BoardSize
from minelib.experiments import (
    ARTICLE_DENSITIES,
    ARTICLE_GAMES,
    ARTICLE_PLAYERS,
    ARTICLE_RESULTS,
    ARTICLE_SIZES,
    LEVEL_SETTINGS,
    PUBLISHED,
    RECORD_GAMES,
    Setting,
    Summary,
    article_setting,
    first_number,
    level_setting,
    load_games,
    record_setting,
    run,
    setting_game,
    summarize,
)
from minelib.guesses import Guess, guess_positions
from minelib.optimal import COMPILED_CELLS
from minelib.players import make_player
from minelib.results import Games, open_results


def stored_summary(results: Path | str, setting: Setting) -> Summary:
    """The summary of a setting's games in the results file."""
    return summarize(load_games(results, setting))


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


def record_rows(
    results: Path | str,
    games: dict[str, int] | None = None,
    settings: Sequence[tuple[str, str, str]] = LEVEL_SETTINGS,
    options: str = "",
    start: int = 0,
) -> list[dict]:
    """One row per record setting (of ``settings``: level, rule, first cell): the games stored so far (of
    ``games`` per level from game ``start``; the player with ``options``), our rate with its 95% interval,
    and the published records beside it; where the stored games kept their luck, a column "luck out": the
    rate with it taken out (``LuckSums.rate``), its 95% interval, and of how many games."""
    rows = []
    for level, rule, first in settings:
        target = (games or RECORD_GAMES)[level]
        setting = record_setting(level, rule, first, target, options, start)
        stored = load_games(results, setting)
        s = summarize(stored) if len(stored) else None
        published = [p for p in PUBLISHED if (p.level, p.rule, p.first) == (level, rule, first)]
        luck = open_results(results).luck(setting)
        rows.append(
            {
                "level": level,
                "first click": f"{rule} ({first})",
                "games": f"{len(stored):,}"
                + ("" if len(stored) == target else f" of {target:,}")
                + (f" from game {start:,}" if start else ""),
                "wins": f"{s.wins:,}" if s else "",
                "ours": f"{s.rate:.2%} [{s.low:.2%}-{s.high:.2%}]" if s else "",
                "luck out": str(luck) if luck else "",
                "published": ", ".join(f"{p.rate:.2%} {p.by}" for p in published),
            }
        )
    if not any(row["luck out"] for row in rows):  # runs from before games kept their luck
        for row in rows:
            del row["luck out"]
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
    A game's first number is read from the layout it deals (``experiments.first_number``: game i
    depends on (seed, i) alone)."""
    stored = load_games(results, setting, 0, games)
    if len(stored) < games:
        missing = np.setdiff1d(np.arange(games), stored.index)
        raise ValueError(f"{len(missing):,} of the first {games:,} games are not stored (game {missing[0]} first)")
    numbers = np.array([first_number(setting, index) for index in range(games)])
    rows = []
    for number in np.unique(numbers).tolist():
        s = summarize(stored.where(numbers == number))
        rows.append(
            {
                "first click shows": number,
                "games": s.games,
                "share": f"{s.games / games:.1%}",
                "wins": s.wins,
                "rate": f"{s.rate:.2%} [{s.low:.2%}-{s.high:.2%}]",
            }
        )
    return rows


def mean_difference(diff: Sequence[float]) -> tuple[float, float]:
    """The mean of per-game differences of win rate (a paired game's ``won - base``, or a game's summed
    advantages, ``guesses.guess_advantages``), and the half width of its 95% interval."""
    if not diff:
        raise ValueError("no paired games to compare")
    return sum(diff) / len(diff), 1.959964 * statistics.pstdev(diff) / math.sqrt(len(diff))


def counted_difference(plus: int, minus: int, games: int) -> tuple[float, float]:
    """``mean_difference`` of ``games`` paired differences of which ``plus`` are +1, ``minus`` -1 and the rest
    0 (won only here, lost only here), from the counts alone: the variance is exact, as ``statistics``
    takes it, and only its root is rounded once more (a last bit at most)."""
    if games <= 0:
        raise ValueError("no paired games to compare")
    variance = Fraction(plus + minus, games) - Fraction(plus - minus, games) ** 2
    return (plus - minus) / games, 1.959964 * math.sqrt(variance) / math.sqrt(games)


def controlled_difference(diff: Sequence[float], control: Sequence[float]) -> tuple[float, float, float]:
    """``mean_difference`` with a control variate: per game, a ``control`` whose mean is known to be zero
    (a game's summed ``Advantage.control``). Each difference less ``slope`` times its control has the same
    mean and, when the two move together, less spread; ``slope`` is the least-squares one over the games
    (0 when the controls do not vary), which costs a bias of the order of one over the games. The mean,
    the half width of its 95% interval, and the slope."""
    if len(diff) != len(control):
        raise ValueError(f"{len(diff)} differences but {len(control)} controls: one of each per game")
    if not diff:
        raise ValueError("no paired games to compare")
    spread = statistics.variance(control) if len(control) > 1 else 0.0
    slope = statistics.covariance(control, diff) / spread if spread else 0.0
    mean, half = mean_difference([d - slope * c for d, c in zip(diff, control)])
    return mean, half, slope


def difference_text(diff: Sequence[float]) -> str:
    """``mean_difference`` as text, in points to a thousandth: a million paired games resolve a few
    thousandths, which two decimals would round away."""
    return interval_text(*mean_difference(diff))


def counted_text(plus: int, minus: int, games: int) -> str:
    """``counted_difference`` as text (``difference_text``)."""
    return interval_text(*counted_difference(plus, minus, games))


def controlled_text(diff: Sequence[float], control: Sequence[float]) -> str:
    """``controlled_difference`` as text (``difference_text``)."""
    return interval_text(*controlled_difference(diff, control)[:2])


def interval_text(mean: float, half: float) -> str:
    """A difference of win rates and the half width of its interval, as text (``difference_text``)."""
    return f"{mean:+.3%} [{mean - half:+.3%}, {mean + half:+.3%}]"


def luck_difference(games: Games, base: Games) -> tuple[float, float, float] | None:
    """Over paired games (the same games, in the same order), the difference of the win rates with each
    game's luck taken out (``moves.Luck``): ``controlled_difference`` of the values' differences with the
    controls' differences, whose mean is zero as each control's is. Up to where two players part they
    guess alike, so their controls' terms there cancel, and what is left is the luck of the guesses after:
    on 750,000 expert games (today's defaults against ``second=0``) the interval was 0.51 times as wide as the
    won games'. Both are compared as a block row keeps them, in float32, so that a game played now and the
    same game stored differ by nothing. None unless every game of both kept its luck."""
    if not len(games) or not (games.lucky.all() and base.lucky.all()):
        return None
    if not np.array_equal(games.index, base.index):
        raise ValueError("the games to compare with their luck out are not the same games")

    def kept(values: np.ndarray) -> np.ndarray:  # as a block row keeps them
        return values.astype(np.float32).astype(np.float64)

    diff = (kept(games.value) - kept(base.value)).tolist()
    control = (kept(games.control) - kept(base.control)).tolist()
    return controlled_difference(diff, control)


def in_common(stored: Sequence[Games]) -> list[Games]:
    """Each run's games restricted to those every run holds, in the same order (by index)."""
    common = functools.reduce(lambda a, b: np.intersect1d(a, b, assume_unique=True), (g.index for g in stored))
    if not len(common):
        raise ValueError("the runs hold no game in common")
    return [games.where(np.isin(games.index, common)) for games in stored]


def paired_worth(base: Games, games: Games) -> tuple[str, tuple[float, float]]:
    """What the player of ``games`` wins over that of ``base`` on the games both hold: how it was measured, and the
    difference of the rates with the half width of its 95% interval. "luck out" (``luck_difference``) where every
    game of both kept its luck, else "won games" (``paired_difference``)."""
    base, games = in_common([base, games])
    luck = luck_difference(games, base)
    if luck is not None:
        return "luck out", luck[:2]
    return "won games", paired_difference(games.won.tolist(), base.won.tolist())


def pooled(estimates: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """One estimate of a rate from independent ones (different games of the same player), each a mean and the
    half width of its 95% interval (``LuckSums.rate``, a won games' rate): their means weighted by one over
    their variances, and the half width of the pooled interval."""
    if not estimates or any(half <= 0 for _, half in estimates):
        raise ValueError("pooling needs one estimate or more, each with an interval of some width")
    weights = [1 / half**2 for _, half in estimates]
    total = sum(weights)
    return sum(w * mean for w, (mean, _) in zip(weights, estimates)) / total, 1 / math.sqrt(total)


def paired_difference(won: Sequence[bool], base: Sequence[bool]) -> tuple[float, float]:
    """The mean of ``won - base`` over paired games (the same game played two ways), and the half
    width of its 95% interval."""
    return mean_difference([int(a) - int(b) for a, b in zip(won, base, strict=True)])


def paired_text(won: Sequence[bool], base: Sequence[bool]) -> str:
    """``paired_difference`` as text (``difference_text``)."""
    return difference_text([int(a) - int(b) for a, b in zip(won, base, strict=True)])


def paired_rows(results: Path | str | Sequence[Path | str], settings: list[Setting]) -> list[dict]:
    """What each variant is worth: settings that differ only in player or options, compared game by
    game on the games all of them have stored (the same seeds: the same layouts and first click).
    The first setting is the base; each row gives a variant's wins, its win rate's difference
    from the base with a 95% interval from the paired differences, and the games only one won; where every
    game kept its luck, the difference with it taken out too (``luck_difference``, "luck out")
    ``results``: the results file, or one file per setting (long runs each keep a file of their own)."""
    paths = [results] * len(settings) if isinstance(results, (str, Path)) else list(results)
    if len(paths) != len(settings):
        raise ValueError(f"{len(paths)} results files for {len(settings)} settings: give one, or one per setting")
    return stored_paired_rows([load_games(path, s) for path, s in zip(paths, settings)], settings)


def stored_paired_rows(stored: list[Games], settings: list[Setting]) -> list[dict]:
    """``paired_rows`` of the games already loaded: per setting, its stored games (``load_games``)."""
    paired = in_common(stored)
    base = paired[0].won
    rows = []
    for setting, games in zip(settings, paired):
        won, n = games.won, len(base)
        only, lost = int(np.count_nonzero(won & ~base)), int(np.count_nonzero(base & ~won))
        luck = luck_difference(games, paired[0])
        rows.append(
            {
                "player": setting.player + (f" ({setting.options})" if setting.options else ""),
                "games": n,
                "wins": int(np.count_nonzero(won)),
                "rate": f"{np.count_nonzero(won) / n:.2%}",
                "vs base": counted_text(only, lost, n),
                "luck out": "" if luck is None else interval_text(*luck[:2]),
                "won only here": only,
                "lost only here": lost,
                "guesses": int(games.guesses.sum()),
                "median ms": round(1000 * float(np.median(games.seconds)), 1),
            }
        )
    if not any(row["luck out"] for row in rows):  # games stored before they kept their luck
        for row in rows:
            del row["luck out"]
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
    "PHASE_BANDS",
    "PHASE_ORDERS",
    "article_rows",
    "counted_difference",
    "counted_text",
    "density_curves",
    "first_number_rows",
    "guess_order",
    "in_common",
    "interval_text",
    "layout_band",
    "level_rows",
    "level_summaries",
    "luck_difference",
    "paired_difference",
    "paired_rows",
    "paired_text",
    "paired_worth",
    "phase_rows",
    "play_guesses",
    "pooled",
    "record_rows",
    "stored_paired_rows",
    "stored_summary",
]
