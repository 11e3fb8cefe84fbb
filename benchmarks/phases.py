"""Where in a game the strongest player guesses and loses: by the layouts left, and by guess order.

    python benchmarks/phases.py [--games 3000] [--start 0] [--level expert] [--rule safe] [--first 0,0]
        [--seed 2026] [--options ""] [--workers 2]

Plays games of a record setting (game i as in the record run with ``--seed 2026``) with the two-step
player (``--options``: its options, written as for ``benchmarks/guessing.py``) and describes each of
its guesses after the first click (``players.guess_positions``): the layouts left and the unopened
cells in its position, its mine probability, and whether the exact endgame search chose it. A lost
game died on its last guess. Printed per band of layouts left, split by whether the position is
within the compiled exact search's reach (at most 63 unopened cells), then per guess in order:
guesses and deaths per game, and the deaths the mine probabilities predict (their sum; the two
agree within chance when the probabilities are right). Where the deaths are is where a better
guess could win games; where the exact search already plays, none can. For reading, not asserting.
"""

import argparse
from concurrent.futures import ProcessPoolExecutor

from tqdm.auto import tqdm

from minelib import experiments as ex
from minelib import players
from minelib.optimal import COMPILED_CELLS
from minelib.report import text_table

CHUNK = 50
BANDS = (100, 2_000, 20_000, 10**6)  # layouts left; the first is the exact endgame on any board
ORDERS = 6  # guesses after the first click counted one by one; the later ones together


def play_chunk(setting: ex.Setting, indices: list[int]) -> list[tuple[bool, list[players.Guess]]]:
    """Whether each game of ``indices`` was won, and its guesses after the first click."""
    player = players.make_player(setting.player, setting.options)
    games = []
    for index in indices:
        game, first = ex.setting_game(setting, index)
        record, guesses = players.guess_positions(player, game, first)
        games.append((record.won, guesses))
    return games


def band(guess: players.Guess) -> str:
    """The row of a guess: its band of layouts left, and whether the compiled search reaches it."""
    low = 0
    for high in BANDS:
        if guess.layouts <= high:
            break
        low = high
    else:
        return f"more than {BANDS[-1]:,}"
    reach = "<= 63 cells" if guess.unopened <= COMPILED_CELLS else "> 63 cells"
    return f"{low:,} < n <= {high:,}, {reach}"


def rows(games: list[tuple[bool, list[players.Guess]]], key) -> list[dict]:
    """Per value of ``key`` (of a guess): guesses, exact ones, and deaths per game, predicted and found."""
    count = len(games)
    table: dict[str, list] = {}
    for won, guesses in games:
        for i, guess in enumerate(guesses):
            row = table.setdefault(key(i, guess), [0, 0, 0.0, 0])
            row[0] += 1
            row[1] += guess.exact
            row[2] += float(guess.mine_probability)
            row[3] += not won and i == len(guesses) - 1
    lost = sum(not won for won, _ in games)
    return [
        {
            "": name,
            "guesses a game": f"{n / count:.3f}",
            "by the exact search": f"{exact / n:.0%}",
            "deaths a game, predicted": f"{predicted / count:.4f}",
            "found": f"{deaths / count:.4f}",
            "share of losses": f"{deaths / lost:.1%}" if lost else "-",
        }
        for name, (n, exact, predicted, deaths) in sorted(table.items(), key=lambda item: -item[1][0])
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--level", choices=list(ex.LEVELS), default="expert")
    parser.add_argument("--rule", default="safe")
    parser.add_argument("--first", default="0,0")
    parser.add_argument("--seed", type=int, default=ex.RECORD_SEED)
    parser.add_argument("--options", default="")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.games < 1 or args.start < 0:
        parser.error("--games must be positive and --start not negative")
    size, mines = ex.LEVELS[args.level]
    try:
        setting = ex.Setting(
            "twostep", size, mines, args.start + args.games, args.seed, args.rule, args.first, options=args.options
        )
    except ValueError as error:
        parser.error(str(error))
    indices = list(range(args.start, args.start + args.games))
    chunks = [indices[k : k + CHUNK] for k in range(0, len(indices), CHUNK)]
    games: list[tuple[bool, list[players.Guess]]] = []
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = [pool.submit(play_chunk, setting, chunk) for chunk in chunks]
        for future in tqdm(futures, desc="games", unit="chunk"):
            games.extend(future.result())
    won = sum(w for w, _ in games)
    died_first = sum(not w and not g for w, g in games)  # lost on the first click itself (no guess after it)
    print(
        f"{args.level} {size}/{mines}, rule {args.rule}, first click ({args.first}), seed {args.seed}, "
        f"games {args.start}-{args.start + args.games - 1}, twostep {args.options or '(defaults)'}: "
        f"{won:,} won ({100 * won / len(games):.2f}%), {died_first} lost on the first click"
    )
    print("\nBy layouts left (most guesses first):")
    print(text_table(rows(games, lambda i, guess: band(guess))))
    print("\nBy guess, after the first click:")
    order = rows(games, lambda i, guess: f"guess {i + 1:2d}" if i < ORDERS else f"guess {ORDERS + 1}+")
    print(text_table(sorted(order, key=lambda row: row[""])))


if __name__ == "__main__":
    main()
