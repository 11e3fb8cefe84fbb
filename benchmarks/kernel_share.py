"""How much of the strongest player's time is spent in compiled code: the floor of any Python rewrite.

    python benchmarks/kernel_share.py [--games 200] [--sizes 20,40] [--densities 0.1,0.2]

On article 003's experiment (the games of ``benchmarks/players.py``, game i seeded by (2023, i)),
one process plays each game with the article's ZDD player and with the two-step player, one after
the other, and sums the seconds the two-step player spends inside its compiled kernels (the box
engine's counts and what-ifs, the sweep and the certain moves between two guesses, the endgame
search and its layouts, the choice of candidates and the latent 50/50s' scan), timed at each call.
Printed per setting: the two players' seconds, their ratio, the kernels' seconds, and the ratio the
player would reach if everything outside its kernels took no time. Where that last ratio is under
10, no rewrite of the Python around the kernels reaches 10 times the ZDD player's speed: the kernels
(or the work the player asks of them) must shrink. Timings are for reading, in one process on a
shared machine; the ratios are measured in the same run.
"""

import argparse
import time
from collections.abc import Callable

from common import densities, numbers, warm_up

from minelib import boxes, kernel, latent, layouts, sweep, twostep
from minelib import experiments as ex
from minelib.board import BoardSize
from minelib.players import make_player
from minelib.report import text_table

KERNELS = ((boxes, ("_full", "_update", "_what_if", "_outlook")), (sweep, ("_sweep", "_settle")),
           (kernel, ("best_clicks",)), (layouts, ("_local_graph",)), (twostep, ("_choose",)),
           (latent, ("_candidates",)))  # fmt: skip


def timed(spent: list[float]) -> None:
    """Wrap every kernel of ``KERNELS`` so that its seconds add up in ``spent[0]`` (this process only).
    The callers look them up in their module at each call, so the wrapped ones are those called."""
    for module, names in KERNELS:
        for name in names:
            setattr(module, name, _timing(getattr(module, name), spent))


def _timing(function: Callable, spent: list[float]) -> Callable:
    def call(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - start

    return call


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--sizes", default="20,40")
    parser.add_argument("--densities", default=",".join(map(str, ex.ARTICLE_DENSITIES)))
    args = parser.parse_args()
    if args.games < 1:
        parser.error(f"--games must be positive, not {args.games}")
    sides, fractions = numbers(parser, "--sizes", args.sizes, int, 4), densities(parser, "--densities", args.densities)
    warm_up()  # every compiled function loaded before the first timed game
    spent = [0.0]
    timed(spent)
    rows = []
    for density in fractions:
        for side in sides:
            setting = ex.article_setting(ex.RECORD_PLAYER, side, density, args.games)
            latent.patterns(BoardSize(side, side))  # made once per board size, not in a timed game
            zdd, player = make_player("zdd"), make_player(ex.RECORD_PLAYER)
            seconds = {"zdd": 0.0, "player": 0.0}
            spent[0] = 0.0
            for index in range(args.games):
                for name, who in (("zdd", zdd), ("player", player)):
                    game, first = ex.setting_game(setting, index)
                    start = time.perf_counter()
                    who.play(game, first)
                    seconds[name] += time.perf_counter() - start
            rows.append({
                "board": f"{side}x{side}", "mines": setting.mines, "games": args.games,
                "zdd s": round(seconds["zdd"], 2), f"{ex.RECORD_PLAYER} s": round(seconds["player"], 2),
                "zdd / player": round(seconds["zdd"] / seconds["player"], 1),
                "in kernels s": round(spent[0], 2),
                "zdd / kernels": round(seconds["zdd"] / spent[0], 1) if spent[0] else "-",
            })  # fmt: skip
            print(f"{side}x{side}, {density:.0%} mines: done", flush=True)
    print(text_table(rows))


if __name__ == "__main__":
    main()
