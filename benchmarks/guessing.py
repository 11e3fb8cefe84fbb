"""What a guessing idea is worth: players compared on the same games (paired seeds).

    python benchmarks/guessing.py [--games 20000] [--level expert] [--rule safe] [--first 0,0]
        [--seed 99] lookahead twostep twostep:dead=0 twostep:blend=0 ...

Each variant is a registered player with keyword options (``name:key=value,key=value``;
values are integers or fractions such as 9/10). Every variant plays the same games: game i
is seeded by (seed, i) alone, so the layouts and the first click are the same for all, and
the difference of two win rates is measured game by game. The first variant is the base:
each other variant's line gives its win rate, its difference from the base with a 95%
interval from the paired differences, the games only one of the two won, and the median
and mean milliseconds per game (timings for reading: the machine is shared). Games run on
all cores in chunks; nothing is stored.
"""

import argparse
import math
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction

import numpy as np

from minelib.board import BoardSize
from minelib.experiments import LEVELS
from minelib.game import Game, check_first_cell, first_cell
from minelib.players import PLAYERS, check_player


def parse_variant(text: str) -> tuple[str, dict]:
    """``name`` or ``name:key=value,...`` -> (player name, options)."""
    name, _, rest = text.partition(":")
    check_player(name)
    options = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        options[key] = Fraction(value) if "/" in value else int(value)
    PLAYERS[name](**options)  # unknown options fail here, before any game
    return name, options


def play_chunk(variant: str, size: str, mines: int, rule: str, first: str, seed: int, start: int, stop: int):
    """Games start..stop-1 with one variant: (won, guesses, seconds) each."""
    name, options = parse_variant(variant)
    player = PLAYERS[name](**options)
    board = BoardSize.parse(size)
    found = []
    for index in range(start, stop):
        rng = np.random.default_rng([seed, index])
        cell = first_cell(board, first, rng)
        record = player.play(Game(board, mines, rule, seed=rng), cell)
        found.append((record.won, record.guesses, record.seconds))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--level", choices=list(LEVELS), default="expert")
    parser.add_argument("--rule", default="safe")
    parser.add_argument("--first", default="0,0")
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--chunk", type=int, default=250)
    args = parser.parse_args()
    size, mines = LEVELS[args.level]
    check_first_cell(size, args.first)
    for variant in args.variants:
        parse_variant(variant)
    results: dict[str, list] = {v: [None] * args.games for v in args.variants}
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        futures = {}
        for start in range(0, args.games, args.chunk):
            stop = min(start + args.chunk, args.games)
            for variant in args.variants:
                key = (variant, start)
                futures[key] = pool.submit(
                    play_chunk, variant, size, mines, args.rule, args.first, args.seed, start, stop
                )
        for (variant, start), future in futures.items():
            results[variant][start : start + args.chunk] = future.result()
    wall = time.perf_counter() - started
    print(
        f"{args.level} {size}/{mines}, rule {args.rule}, first click ({args.first}), "
        f"{args.games} paired games (seed {args.seed}), {wall:.0f} s on {os.cpu_count()} cores"
    )
    base = args.variants[0]
    base_wins = [won for won, _, _ in results[base]]
    print(
        f"{'variant':<36} {'wins':>7} {'rate':>7} {'vs base':>8} {'95% interval':>17} "
        f"{'+only':>6} {'-only':>6} {'guesses':>8} {'ms med':>7} {'ms mean':>8}"
    )
    for variant in args.variants:
        games = results[variant]
        wins = [won for won, _, _ in games]
        differences = [a - b for a, b in zip(wins, base_wins)]
        mean = sum(differences) / len(differences)
        spread = statistics.pstdev(differences) / math.sqrt(len(differences))
        seconds = [s for _, _, s in games]
        print(
            f"{variant:<36} {sum(wins):>7} {sum(wins) / len(wins):>7.2%} {mean:>+8.2%} "
            f"[{mean - 1.96 * spread:+.2%}, {mean + 1.96 * spread:+.2%}] "
            f"{differences.count(1):>6} {differences.count(-1):>6} {sum(g for _, g, _ in games):>8} "
            f"{1000 * statistics.median(seconds):>7.1f} {1000 * statistics.fmean(seconds):>8.1f}"
        )


if __name__ == "__main__":
    main()
