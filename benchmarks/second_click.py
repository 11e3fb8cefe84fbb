"""The second click after a numbered first click: the player's own choice against given cells.

    python benchmarks/second_click.py [--games 6000] [--start 0] [--level expert] [--rule safe]
        [--first 0,0] [--seed 2026] [--numbers 1,2,3] [--cells "0,29;0,2;2,2;1,2;15,29"] [--workers 2]

Game i of the setting (the games of the record run with ``--seed 2026``: the same layouts and
first click) is played only when the first click shows one of ``--numbers``: once by the
strongest player as it is, and once for each given cell, opened second as a forced guess
(``play(..., then=(cell,))``) before the player takes over. Each cell's win rate is compared with
the player's own choice game by game (the difference of the two, with a 95% interval); the
player's own second move is counted too. A third of the losses of the expert record run come
on the first guess after the first click, which is why this is worth asking. For reading, not
asserting; it plays len(cells) + 1 games per numbered first click on ``--workers`` processes.

With ``--after ROW,COL`` the question is the third click: only games where that cell, opened second,
shows one of ``--numbers`` too are played, the player's own game with it opened second
(``then=(after,)``) against each given cell opened third (``then=(after, cell)``).

Beside each cell's difference, the same with a control variate (``strength.controlled_difference``):
per game, how much more often the cell is safe than the player's own move in the position where the
cell is opened (``guesses.safety_control`` on the game's layout), zero on average; a cell that is a
mine loses at once, so taking out a multiple of it leaves the mean and narrows the interval.
"""

import argparse
from collections import Counter

from common import add_slice_arguments, map_chunks, slice_setting, slice_title

from minelib import experiments as ex
from minelib import strength
from minelib.analysis import analyze
from minelib.board import BoardSize
from minelib.game import PLAYING
from minelib.guesses import safety_control
from minelib.players import make_player
from minelib.report import text_table


def parse_cells(text: str) -> list[tuple[int, int]]:
    cells = []
    for part in text.split(";"):
        y, x = part.split(",")
        cells.append((int(y), int(x)))
    return cells


def play_chunk(
    setting: ex.Setting,
    indices: list[int],
    cells: list[tuple[int, int]],
    numbers: set[int],
    after: tuple[int, int] | None = None,
) -> list[dict]:
    """For each game whose first click (and ``after``, opened next, if given) shows one of ``numbers``:
    that number, the player's own next guess and result, and the result with each given cell opened next."""
    rows = []
    forced = (after,) if after else ()
    for index in indices:
        game, first = ex.setting_game(setting, index)
        game.open(first)
        shown = game.value(first)
        if game.status != PLAYING or shown not in numbers:
            continue
        if after:
            game.open(after)
            if game.status != PLAYING or game.value(after) not in numbers:
                continue
        player = make_player(setting.player, setting.options)
        position, layout = game.board, [game.layout()]  # where the cells are opened, and what lies under it
        result, ref = analyze(position, setting.mines), player.recommend(position, setting.mines).cell
        game, first = ex.setting_game(setting, index)
        own = player.play(game, first, log=True, then=forced)
        row = {"index": index, "number": shown, "own": own.won}
        guesses = [m.cell for m in own.moves[1:] if not m.certain and m.cell not in forced]
        row["second"] = guesses[0] if guesses else None  # its first guess of its own
        for cell in cells:
            game, first = ex.setting_game(setting, index)
            row[cell] = player.play(game, first, then=(*forced, cell)).won
            row[cell, "control"] = float(safety_control(result, cell, ref, layout))
        rows.append(row)
    return rows


def summary(rows: list[dict], cells: list[tuple[int, int]], label: str) -> dict:
    own = [r["own"] for r in rows]
    line = {"first click shows": label, "games": len(rows), "own": f"{sum(own) / len(own):.2%}"}
    seconds = Counter(r["second"] for r in rows).most_common(1)
    line["own second"] = f"{seconds[0][0]} {seconds[0][1] / len(rows):.0%}" if seconds else "-"
    for cell in cells:
        diff = [int(r[cell]) - int(r["own"]) for r in rows]
        line[f"{cell[0]},{cell[1]}"] = strength.difference_text(diff)
        line[f"{cell[0]},{cell[1]} controlled"] = strength.controlled_text(diff, [r[cell, "control"] for r in rows])
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_slice_arguments(parser, games=6000, options=False)
    parser.add_argument("--numbers", default="1,2,3")
    parser.add_argument("--cells", default="0,29;0,2;2,2;1,2;15,29")
    parser.add_argument("--after", default="", help="ROW,COL: a cell opened second; the cells are opened third")
    args = parser.parse_args()
    setting = slice_setting(parser, args)
    size = ex.LEVELS[args.level][0]
    cells = parse_cells(args.cells)
    after = None
    if args.after:
        given = parse_cells(args.after)
        if len(given) != 1:
            parser.error(f"--after takes one cell (ROW,COL), not {args.after!r}")
        after = given[0]
    outside = [cell for cell in cells + ([after] if after else []) if cell not in BoardSize.parse(size)]
    if outside:  # before any game (the player would refuse them in every worker)
        parser.error(f"cells outside the {size} board: {outside}")
    numbers = {int(n) for n in args.numbers.split(",")}
    rows: list[dict] = map_chunks(play_chunk, setting, args, cells, numbers, after)
    print(
        f"{slice_title(args, options=False)}: each cell opened "
        + (f"third, after {after} second," if after else "second")
        + " against the player's own choice"
    )
    groups = [("any of " + args.numbers, rows)]
    groups += [(str(n), [r for r in rows if r["number"] == n]) for n in sorted(numbers)]
    print(text_table([summary(group, cells, label) for label, group in groups if group]))


if __name__ == "__main__":
    main()
