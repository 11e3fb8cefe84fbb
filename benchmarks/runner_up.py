"""What the strongest player's choice over its runner-up is worth, guess by guess.

    python benchmarks/runner_up.py [--games 4000] [--start 0] [--level expert] [--rule safe]
        [--first 0,0] [--seed 2026] [--options ""] [--guesses 1,2,3,4] [--workers 2]

Each game of a record setting (game i as in the record run with ``--seed 2026``) is played by the
two-step player as it is, and once more for each of ``--guesses``: the same game, but at that
heuristic guess (the first after the first click is 1; the exact endgame's moves are not counted)
the best other candidate by two-step score is opened instead (``guesses.play_runner_up``), then the
player plays on. Per guess: the games that came to it with two candidates or more, both win rates
on those games, their difference game by game (95% interval), and what it comes to per game
played. A large difference says the ranking matters there; a small one, that the candidates it
weighs are close and the distance to a stronger player is not in choosing among them. For reading,
not asserting.
"""

import argparse

from common import add_slice_arguments, map_chunks, slice_setting, slice_title

from minelib import experiments as ex
from minelib import players, strength
from minelib.guesses import play_runner_up
from minelib.report import text_table


def play_chunk(setting: ex.Setting, indices: list[int], guesses: list[int]) -> list[tuple]:
    """Per game: whether the player won, and per guess in ``guesses`` the runner-up's game (won, and
    the player's cell with the one opened instead, or None when not changed)."""
    player = players.make_player(setting.player, setting.options)
    rows = []
    for index in indices:
        own = player.play(*ex.setting_game(setting, index)).won
        forks = []
        for guess in guesses:
            game, first = ex.setting_game(setting, index)
            record, forked = play_runner_up(player, game, first, guess)
            forks.append((record.won, forked))
        rows.append((own, forks))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_slice_arguments(parser, games=4000)
    parser.add_argument("--guesses", default="1,2,3,4")
    args = parser.parse_args()
    try:
        guesses = [int(g) for g in args.guesses.split(",")]
    except ValueError:
        guesses = []
    if not guesses or min(guesses) < 1:
        parser.error(f"--guesses must be guess numbers from 1, written 1,2,3, not {args.guesses!r}")
    setting = slice_setting(parser, args)
    if setting.player != "twostep":
        parser.error("the runner-up is the two-step player's")
    rows = map_chunks(play_chunk, setting, args, guesses)
    print(f"{slice_title(args)}: its choice against its runner-up")
    table = []
    for j, guess in enumerate(guesses):
        forked = [(own, forks[j][0]) for own, forks in rows if forks[j][1] is not None]
        if not forked:
            table.append(
                {"guess": guess, "games": 0} | dict.fromkeys(["own", "runner-up", "difference", "per game played"], "-")
            )
            continue
        own, other = [o for o, _ in forked], [r for _, r in forked]
        mean, _ = strength.paired_difference(other, own)
        table.append(
            {
                "guess": guess,
                "games": len(forked),
                "own": f"{sum(own) / len(own):.2%}",
                "runner-up": f"{sum(other) / len(other):.2%}",
                "difference": strength.paired_text(other, own),
                "per game played": f"{mean * len(forked) / len(rows):+.3%}",
            }
        )
    print(text_table(table))


if __name__ == "__main__":
    main()
