"""What a player that played its candidates out on drawn layouts would gain over the two-step score.

    python benchmarks/rollouts.py [--games 50] [--start 0] [--level expert] [--rule safe]
        [--first 0,0] [--seed 2026] [--options ""] [--candidates 3] [--samples 100] [--workers 2]

Each game of a record setting is played by the two-step player; at each guess its two-step score
chose among two candidates or more (``guesses.ranked_decisions``), ``--samples`` layouts are drawn
uniformly from the position (``sampling.RankedLayouts``) and the first ``--candidates`` of its ranking
are each opened on every one of them, the player playing on (``guesses.rollout_wins``): each
candidate's win rate under the player's own play, on common layouts. A *rollout* player would open
the candidate with the most wins. Its gain over the two-step choice is estimated without the
winner's curse: the candidate is chosen on one half of the layouts and both are scored on the other
half, and the other way round (the mean of the two). Summed over a game's decisions, that is what
one such step at every decision (then the two-step player again) would add to the game's chance to
win; the mean over games, with a 95% interval, in points. And a bound on what the best of the
candidates at every decision would add, however many layouts told it: at a decision it gains at
most the root of the sum of the squared differences of win rate to the two-step choice, estimated
without bias from the layouts' differences; over decisions, the root of the upper end of a 95%
interval of their mean, times the decisions a game. For reading, not asserting: the
intervals say how far this many games can see.
"""

import argparse

import numpy as np
from common import add_slice_arguments, map_chunks, numbers, slice_setting, slice_title

from minelib import experiments as ex
from minelib import players
from minelib.guesses import ranked_decisions, rollout_wins
from minelib.report import text_table
from minelib.sampling import RankedLayouts

MILLION = 1_000_000


def _gain(wins: np.ndarray) -> float:
    """The rollout choice's gain over column 0 (the two-step choice), chosen on one half of the rows and
    scored on the other, both ways (ties go to the earlier column)."""
    half = len(wins) // 2
    a, b = wins[:half].sum(axis=0), wins[half : 2 * half].sum(axis=0)
    return ((b[int(np.argmax(a))] - b[0]) + (a[int(np.argmax(b))] - a[0])) / (2 * half)


def _squares(wins: np.ndarray) -> float:
    """An unbiased estimate of the sum over the other columns of (their win rate - column 0's) squared: the
    squared mean of the differences row by row, less its variance."""
    differences = wins[:, 1:].astype(float) - wins[:, :1]
    if differences.size == 0:
        return 0.0
    means = differences.mean(axis=0)
    return float((means**2 - differences.var(axis=0, ddof=1) / len(wins)).sum())


def play_chunk(setting: ex.Setting, indices: list[int], candidates: int, samples: int) -> list[list[tuple]]:
    """Per game: per decision, (layouts left, its gain, whether the most wins on every layout are not
    the two-step choice's, ``_squares``)."""
    player = players.make_player(setting.player, setting.options)
    rows = []
    for index in indices:
        game, first = ex.setting_game(setting, index)
        _, decisions = ranked_decisions(player, game, first)
        found = []
        for number, decision in enumerate(decisions):
            masks = RankedLayouts(decision.board, setting.mines).sample(samples, seed=index * 1000 + number)
            cells = list(decision.ranked[:candidates])
            wins = rollout_wins(player, setting.first_click, first, decision.board, setting.mines, cells, masks)
            total = wins.sum(axis=0)
            found.append((decision.layouts, _gain(wins), bool(total.max() > total[0]), _squares(wins)))
        rows.append(found)
    return rows


def _mean(values: list[float]) -> str:
    """Mean and 95% interval, in points."""
    if len(values) < 2:
        return "-"
    v = np.array(values) * 100
    half = 1.96 * v.std(ddof=1) / np.sqrt(len(v))
    return f"{v.mean():+.2f} [{v.mean() - half:+.2f}, {v.mean() + half:+.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_slice_arguments(parser, games=50)
    parser.add_argument("--candidates", default="3", help="candidates played out per decision (at least 2)")
    parser.add_argument("--samples", default="100", help="layouts drawn per decision (even, at least 2)")
    args = parser.parse_args()
    (candidates,) = numbers(parser, "--candidates", args.candidates, low=2)
    (samples,) = numbers(parser, "--samples", args.samples, low=2)
    if samples % 2:
        parser.error(f"--samples must be even (two halves), not {samples}")
    setting = slice_setting(parser, args)
    if setting.player != "twostep":
        parser.error("the decisions are the two-step player's")
    games = map_chunks(play_chunk, setting, args, candidates, samples)
    decisions = [d for game in games for d in game]
    print(f"{slice_title(args)}: {len(decisions)} decisions, {candidates} candidates, {samples} layouts each")
    rows = []
    for label, keep in (
        ("every decision", lambda d: True),
        ("more than a million layouts", lambda d: d[0] > MILLION),
        ("a million layouts or fewer", lambda d: d[0] <= MILLION),
    ):
        chosen = [d for d in decisions if keep(d)]
        per_game = [sum(d[1] for d in game if keep(d)) for game in games]
        squares = [d[3] for d in chosen]  # the upper end of a 95% interval of their mean:
        top = (
            float(np.mean(squares) + 1.96 * np.std(squares, ddof=1) / np.sqrt(len(squares))) if len(chosen) > 1 else 0.0
        )
        rows.append(
            {
                "decisions": label,
                "number": len(chosen),
                "gain a decision": _mean([d[1] for d in chosen]),
                "most wins elsewhere": f"{np.mean([d[2] for d in chosen]):.0%}" if chosen else "-",
                "gain a game": _mean(per_game),
                "best choice at most, a game": f"{100 * np.sqrt(max(top, 0.0)) * len(chosen) / len(games):.2f}",
            }
        )
    print(text_table(rows))


if __name__ == "__main__":
    main()
