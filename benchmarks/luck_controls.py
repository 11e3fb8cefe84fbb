"""Controls for a game's luck beyond the one kept: would more of them narrow a win rate's interval further?

    python benchmarks/luck_controls.py [--games 2000] [--start 0] [--level expert] [--rule safe] [--first 0,0]
        [--seed 2026] [--options ""] [--workers 2]

A game's control (``moves.Luck``) sums, over its guesses before the exact endgame's, one term a guess: its mine
probability less 1 if it was a mine. Each term has mean zero over the layouts the guess's position allows, and
so has any term of the same kind. This script plays a slice with the strongest player (``--options``), replays
each game's moves on the same layout, and at each such guess takes, besides that term (``mine``):

- ``mine * open``: the same term times the share of the safe cells open at the guess (a survived guess early
  in a game is worth less of a win than one late: weighed by the phase);
- the luck of the number a survived guess showed, each of the kind "what it showed less what it shows on
  average, over the numbers its layouts allow" (``Analyzer.outlook``, the numbers weighted by their layouts):
  ``blend``, the blended safety of the best next guess (the player's own two-step score is that average);
  ``certain``, whether a certain cell follows; ``safest``, the safety of the safest next cell.

Each set of controls is fitted to the games' values by least squares (the fit made on the even games is used on
the odd ones and back, so that it cannot count the noise it learned), and the interval's width is printed against
the won games' and the one control kept today. For reading, not asserting; the measurement is in
``benchmarks/README.md`` ("Luck taken out").
"""

import argparse

import numpy as np
from common import add_slice_arguments, map_chunks, slice_setting, slice_title

from minelib import experiments as ex
from minelib import strength
from minelib.analysis import Analyzer
from minelib.moves import luck
from minelib.players import make_player
from minelib.report import text_table
from minelib.twostep import blended_safety

TERMS = ("mine", "mine * open", "blend", "certain", "safest")
SETS = {
    "the control kept (today)": ("mine",),
    "weighed by the phase": ("mine", "mine * open"),
    "and the number's luck, blended safety": ("mine", "blend"),
    "and the number's luck, three ways": ("mine", "blend", "certain", "safest"),
    "all": TERMS,
}


def game_terms(setting: ex.Setting, index: int) -> tuple[float, float, np.ndarray]:
    """Game ``index`` played with its moves logged: won or not, its value, and its sums of each of ``TERMS``
    over its guesses before the endgame's (the first equal to ``moves.luck``'s control, checked)."""
    game, first = ex.setting_game(setting, index)
    player = make_player(setting.player, setting.options)
    record = player.play(game, first, log=True)
    mines = game.layout()
    replay, _ = ex.setting_game(setting, index)
    analyzer, safe_cells = Analyzer(setting.mines), replay.size.n_cells - setting.mines

    def blended(outlook) -> float:  # the player's own blend
        return blended_safety(outlook.lowest_risks(2), player.blend)

    sums = np.zeros(len(TERMS))
    for move in record.moves:
        if move.kind == "flag":
            replay.flag(move.cell)
            continue
        if move.certain:
            replay.open(move.cell)
            continue
        if move.win_probability is not None:
            break  # the endgame's value takes the rest in (``moves.Luck``)
        if move.mine_probability is None:  # (a guess whose probability the player did not give: no term, as there)
            replay.open(move.cell)
            continue
        p, share = float(move.mine_probability), np.count_nonzero(replay.values >= 0) / safe_cells
        outlooks = analyzer.outlook(replay.board, move.cell)
        total = sum(o.count for o in outlooks.values())
        mine = bool(mines[move.cell])
        sums[0] += p - mine
        sums[1] += (p - mine) * share
        if not mine:
            replay.open(move.cell)
            shown = replay.value(move.cell)
            for k, read in enumerate((blended, _certain, _safest), start=2):
                average = sum(o.count / total * read(o) for o in outlooks.values())
                sums[k] += read(outlooks[shown]) - average
    kept = luck(record.moves, record.won)
    if abs(float(kept.control) - sums[0]) > 1e-9:
        raise AssertionError(f"game {index}: the control summed here, {sums[0]}, is not moves.luck's, {kept.control}")
    return float(record.won), float(kept.value), sums


def _certain(outlook) -> float:
    return float(outlook.decides)


def _safest(outlook) -> float:
    low = outlook.lowest_risks(1)
    return 1 - low[0] if low else 1.0


def play_terms(setting: ex.Setting, indices: list[int]) -> list[tuple[float, float, np.ndarray]]:
    return [game_terms(setting, i) for i in indices]


def cross_fitted(values: np.ndarray, controls: np.ndarray) -> tuple[float, float, np.ndarray]:
    """The values less the least-squares combination of the controls, each half of the games fitted on the
    other: the mean, the half width of its 95% interval, and the slopes fitted on all games."""
    n = len(values)
    odd = np.arange(n) % 2 == 1
    left = np.empty(n)
    for fit, use in ((~odd, odd), (odd, ~odd)):
        slopes = _slopes(values[fit], controls[fit])
        left[use] = values[use] - controls[use] @ slopes
    mean, half = strength.mean_difference(left.tolist())
    return mean, half, _slopes(values, controls)


def _slopes(values: np.ndarray, controls: np.ndarray) -> np.ndarray:
    design = np.column_stack([np.ones(len(values)), controls])
    return np.linalg.lstsq(design, values, rcond=None)[0][1:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_slice_arguments(parser, games=2000)
    args = parser.parse_args()
    setting = slice_setting(parser, args)
    rows = map_chunks(play_terms, setting, args)
    won = np.array([r[0] for r in rows])
    values = np.array([r[1] for r in rows])
    terms = np.array([r[2] for r in rows])
    plain = strength.mean_difference(won.tolist())[1]
    table = [{"controls": "none (won games)", "rate": f"{won.mean():.3%}", "95% interval": f"±{plain:.3%}",
              "width": "1.000", "against today's": "", "slopes": ""}]  # fmt: skip
    kept = cross_fitted(values, terms[:, :1])[1]  # the control kept today: the first of TERMS alone
    for name, chosen in SETS.items():
        columns = [TERMS.index(t) for t in chosen]
        mean, half, slopes = cross_fitted(values, terms[:, columns])
        table.append({
            "controls": f"{name}: {', '.join(chosen)}",
            "rate": f"{mean:.3%}",
            "95% interval": f"±{half:.3%}",
            "width": f"{half / plain:.3f}",
            "against today's": f"{half / kept:.3f}",
            "slopes": " ".join(f"{s:+.3f}" for s in slopes),
        })  # fmt: skip
    print(slice_title(args))
    print(text_table(table))
    print("(width: the interval's against the won games'; cross-fitted: each half of the games fitted on the other)")


if __name__ == "__main__":
    main()
