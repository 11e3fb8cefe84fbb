"""What weighing a guess's numbers by floats would change in the two-step player's play, with and
without ``ties``.

    python benchmarks/float_ties.py [--side 20] [--density 0.2] [--games 4000] [--eps 1e-12] [--workers 2]

A compiled game loop could not sum the player's exact layout counts (they pass 64 bits): it would
weigh each number a candidate may show by a float ratio, off in its last bits. This plays games of
article 003's experiment (game i seeded by (2023, i), as ``benchmarks/players.py``) four times: the
player's score with the weights as float ratios (``score_variants.JitterRun`` with EPS = 0), and
with each weight off by up to ``--eps`` (relative, fixed by the count), each with ``ties=0`` (the
default) and ``ties=1`` (the 50/50s' cells ranked by the rounded score, as every other guess).
Printed: the games played otherwise (won, or guesses, not the same) between ``--eps`` and 0 for
each, and between the two tie rules. ``score_variants.py jitter:EPS`` measures the same on the
standard levels against their stored runs. For reading, not asserting.
"""

import argparse

from common import map_chunks
from score_variants import JitterRun, VariantPlayer

from minelib import experiments as ex
from minelib import latent
from minelib.board import BoardSize
from minelib.report import text_table


def play_chunk(setting: ex.Setting, indices: list[int], eps: float, ties: int) -> list[tuple[int, bool, int]]:
    """Per game: its index, whether the player won it, and its guesses."""
    size = BoardSize.parse(setting.size)
    latent.patterns(size)  # made once per board size, not in a game
    player = VariantPlayer(JitterRun, eps, f"ties={ties}")
    return [(i, record.won, record.guesses) for i in indices for record in [player.play(*ex.setting_game(setting, i))]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", type=int, default=20)
    parser.add_argument("--density", type=float, default=0.2)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--eps", type=float, default=1e-12)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.games < 1 or args.side < 2 or not 0 < args.density < 1 or args.eps < 0:
        parser.error("--games must be positive, --side at least 2, --density between 0 and 1, --eps not negative")
    args.start = 0
    setting = ex.article_setting(ex.RECORD_PLAYER, args.side, args.density, args.games)
    played = {}
    for ties in (0, 1):
        for eps in (0.0, args.eps):
            rows = map_chunks(play_chunk, setting, args, eps, ties)
            played[ties, eps] = {i: (won, guesses) for i, won, guesses in rows}

    def row(compared: str, a: dict, b: dict) -> dict:
        wins = [sum(won for won, _ in runs.values()) for runs in (a, b)]
        return {
            "compared": compared,
            "games": args.games,
            "wins": f"{wins[0]} / {wins[1]}",
            "played otherwise": sum(a[i] != b[i] for i in a),
        }

    table = [row(f"eps {args.eps:g} against 0, ties={t}", played[t, args.eps], played[t, 0.0]) for t in (0, 1)]
    table.append(row("ties=1 against ties=0, eps 0", played[1, 0.0], played[0, 0.0]))
    print(f"article 003's experiment, {setting.size} with {setting.mines} mines, games 0 to {args.games - 1}")
    print(text_table(table))


if __name__ == "__main__":
    main()
