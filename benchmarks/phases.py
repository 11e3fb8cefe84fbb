"""Where in a game the strongest player guesses and loses: by the layouts left, and by guess order.

    python benchmarks/phases.py [--games 3000] [--start 0] [--level expert] [--rule safe] [--first 0,0]
        [--seed 2026] [--options ""] [--workers 2]

Plays games of a record setting (game i as in the record run with ``--seed 2026``) with the two-step
player (``--options``: its options, written as for ``benchmarks/guessing.py``) and describes each of
its guesses after the first click (``guesses.guess_positions``, tabled by
``strength.phase_rows``): the layouts left and the unopened cells in its position, its mine
probability, and whether the exact endgame search chose it. A lost game died on its last guess.
Printed per band of layouts left, split by whether the position is within the compiled exact
search's reach (at most 63 unopened cells), then per guess in order: guesses and deaths per game,
and the deaths the mine probabilities predict (their sum; the two agree within chance when the
probabilities are right). Where the deaths are is where a better guess could win games; where the
exact search already plays, none can. For reading, not asserting.
"""

import argparse

from common import add_slice_arguments, map_chunks, slice_setting, slice_title

from minelib import strength
from minelib.report import text_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_slice_arguments(parser, games=3000)
    args = parser.parse_args()
    setting = slice_setting(parser, args)
    games = map_chunks(strength.play_guesses, setting, args)
    won = sum(w for w, _ in games)
    died_first = sum(not w and not g for w, g in games)  # lost on the first click itself (no guess after it)
    print(f"{slice_title(args)}: {won:,} won ({100 * won / len(games):.2f}%), {died_first} lost on the first click")
    print("\nBy layouts left (most guesses first):")
    print(text_table(strength.phase_rows(games, "layouts")))
    print("\nBy guess, after the first click:")
    print(text_table(strength.phase_rows(games, "order")))


if __name__ == "__main__":
    main()
