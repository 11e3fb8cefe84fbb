"""Whether what is known of a guess tells where the two-step player's runner-up would win more: a score
learned from rollouts, cross-fitted.

    python benchmarks/rollout_features.py [--games 50] [--start 0] [--level expert] [--rule safe]
        [--first 0,0] [--seed 2026] [--options ""] [--samples 20] [--workers 2] [--save FILE.npz]

At each guess where the two-step score (or its deeper or second look) chose among two candidates or more
(``guesses.ranked_decisions``), ``--samples`` layouts are drawn from the position and the player's choice
and its runner-up are each opened on every one, the player playing on (``guesses.rollout_wins``, common
layouts): the runner-up's win rate less the choice's, a noisy measure of that one decision. Beside it, the
features of both cells: mine probability, two-step score, chance to show a zero, unopened neighbours, and
whether the cell is next to a number. A few layouts tell little of one decision; a linear fit over
thousands of decisions can tell whether some feature is weighed wrong, which no single candidate's
rollouts could afford (``benchmarks/README.md``: tens of thousands of layouts each).

The fit (the win-rate difference against the features' differences) is made on the decisions of the even
games and judged on the odd ones, and the other way round: opening the runner-up wherever the fit
predicts it wins more, what that gains a game, in points, with a 95% interval over games. Without the
cross-fitting the noise the fit learns would be counted as gain. For reading, not asserting; ``--save``
keeps every decision's row for another look.
"""

import argparse

import numpy as np
from common import add_slice_arguments, map_chunks, numbers, slice_setting, slice_title

from minelib import experiments as ex
from minelib import players
from minelib.analysis import Analyzer
from minelib.board import UNOPENED
from minelib.guesses import ranked_decisions, rollout_wins
from minelib.report import text_table
from minelib.sampling import RankedLayouts
from minelib.twostep import TwoStepPlayer

MILLION = 1_000_000
FEATURES = ("mine probability", "two-step score", "chance of a zero", "unopened neighbours", "next to a number")


def features(player: TwoStepPlayer, board, mines: int, cells) -> list[list[float]]:
    """Per cell, the values of ``FEATURES`` in the position ``board``."""
    analyzer = Analyzer(mines)
    result = analyzer.analyze(board)
    scores = player.scores(board, mines)
    rows = []
    for cell in cells:
        afters = analyzer.what_if(board, cell)
        zero = afters[0].count / result.count if 0 in afters else 0.0
        around = [board.values[n] for n in board.size.neighbours(cell)]
        rows.append(
            [
                float(result.probability(cell)),
                scores.get(cell, float("nan")),
                zero,
                float(sum(v == UNOPENED for v in around)),
                float(any(v >= 0 for v in around)),
            ]
        )
    return rows


def play_chunk(setting: ex.Setting, indices: list[int], samples: int) -> list[tuple]:
    """Per decision: (game, layouts left, the runner-up's wins less the choice's over the layouts, the
    choice's features, the runner-up's)."""
    player = players.make_player(setting.player, setting.options)
    rows = []
    for index in indices:
        game, first = ex.setting_game(setting, index)
        _, decisions = ranked_decisions(player, game, first)
        for number, decision in enumerate(decisions):
            cells = list(decision.ranked[:2])
            masks = RankedLayouts(decision.board, setting.mines).sample(samples, seed=index * 1000 + number)
            wins = rollout_wins(player, setting.first_click, first, decision.board, setting.mines, cells, masks)
            choice, runner_up = features(player, decision.board, setting.mines, cells)
            difference = float(wins[:, 1].mean() - wins[:, 0].mean())
            rows.append((index, decision.layouts, difference, choice, runner_up))
    return rows


def cross_fitted(
    game: np.ndarray, difference: np.ndarray, x: np.ndarray, games: list[int]
) -> tuple[float, float, float]:
    """Fit on the decisions of the even games, switch to the runner-up on the odd ones where the fit
    predicts a gain, and the other way round: the mean over games of the switched differences, its 95%
    half width (points), and the share of decisions switched."""
    design = np.column_stack([np.ones(len(x)), x])
    per_game = dict.fromkeys(games, 0.0)
    switched = 0
    for half in (0, 1):
        fit = game % 2 == half
        if fit.sum() <= design.shape[1] or (~fit).sum() == 0:
            continue
        weights, *_ = np.linalg.lstsq(design[fit], difference[fit], rcond=None)
        switch = ~fit & (design @ weights > 0)
        switched += int(switch.sum())
        for g, d in zip(game[switch].tolist(), difference[switch].tolist()):
            per_game[g] += d
    values = np.array(list(per_game.values())) * 100
    half_width = 1.96 * values.std(ddof=1) / np.sqrt(len(values)) if len(values) > 1 else float("nan")
    return float(values.mean()), float(half_width), switched / max(len(x), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_slice_arguments(parser, games=50)
    parser.add_argument("--samples", default="20", help="layouts drawn per decision")
    parser.add_argument("--save", help="write every decision's row to this .npz file")
    args = parser.parse_args()
    (samples,) = numbers(parser, "--samples", args.samples)
    setting = slice_setting(parser, args)
    if setting.player != "twostep":
        parser.error("the decisions are the two-step player's")
    rows = map_chunks(play_chunk, setting, args, samples)
    game = np.array([r[0] for r in rows], np.int64)
    layouts = np.array([float(r[1]) for r in rows])
    difference = np.array([r[2] for r in rows])
    choice = np.array([r[3] for r in rows]).reshape(-1, len(FEATURES))
    runner_up = np.array([r[4] for r in rows]).reshape(-1, len(FEATURES))
    if args.save:
        np.savez(args.save, game=game, layouts=layouts, difference=difference, choice=choice, runner_up=runner_up)
    games = list(range(args.start, args.start + args.games))
    print(f"{slice_title(args)}: {len(rows)} decisions, {samples} layouts each")
    delta = np.nan_to_num(runner_up - choice)
    table = []
    for label, keep in (
        ("every decision", np.ones(len(rows), bool)),
        ("more than a million layouts", layouts > MILLION),
        ("a million layouts or fewer", layouts <= MILLION),
    ):
        if not keep.any():
            continue
        d = difference[keep] * 100
        half = 1.96 * d.std(ddof=1) / np.sqrt(len(d)) if len(d) > 1 else float("nan")
        low, high = d.mean() - half, d.mean() + half
        mean, width, share = cross_fitted(game[keep], difference[keep], delta[keep], games)
        table.append(
            {
                "decisions": label,
                "number": int(keep.sum()),
                "runner-up less choice, a decision": f"{d.mean():+.2f} [{low:+.2f}, {high:+.2f}]",
                "switched by the fit": f"{share:.0%}",
                "gain a game, cross-fitted": f"{mean:+.3f} [{mean - width:+.3f}, {mean + width:+.3f}]",
            }
        )
    print(text_table(table))
    design = np.column_stack([np.ones(len(rows)), delta])
    weights, *_ = np.linalg.lstsq(design, difference, rcond=None)
    print("\nthe fit on every decision (points of win rate per unit of the runner-up's feature less the choice's)")
    print(text_table([{"term": t, "weight": f"{100 * w:+.2f}"} for t, w in zip(("constant", *FEATURES), weights)]))


if __name__ == "__main__":
    main()
