"""The two-step player's exact win probability on small whole boards, beside optimal play's.

    python benchmarks/against_optimal.py [--boards 4x5/4,4x5/5,4x6/5,5x5/5] [--rule safe] [--first 0,0]
        [--options ""] [--variant VARIANT] [--against OPTIONS] [--against-variant VARIANT] [--regrets 2]
        [--table results/optimal.sqlite] [--workers 2]

Every layout the first-click rule allows is followed down the player's tree of play at once
(``minelib.player_value``): what the player wins from ``--first`` is a count of layouts, exact, with no
games drawn. Beside it, optimal play's win probability from the same first click, from the table of
optimal play (``make tables``), and the distance in points. With ``--against``, the same player with
other options on the same boards, and the exact difference: what an option is worth there without the
noise of games. ``--variant`` and ``--against-variant`` play a variant of the score of
``score_variants.py`` (``progress:inf``, ``far:2``, ...) instead of the player's own. With
``endgame_compiled=0,endgame_layouts=0`` in both players' options the exact endgame is off, and every
guess is the heuristic's: a noise-free screen of a change to the score over thousands of positions
(``benchmarks/README.md`` sets it beside what the same changes were worth on expert games: a check, not
a filter). With ``--regrets N``, the N guesses of the first player that lose most against optimal play,
each searched exactly: the position, the share of layouts that reach it, the cell opened and a best one
(their sum over every guess is the whole distance). The layouts of a board are listed at once: up to
``player_value.MAX_LAYOUTS``; 5x5 with 6 mines (134,596) takes about a minute a player.
For reading, not asserting.
"""

import argparse
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from pathlib import Path

from common import boards
from score_variants import VariantPlayer, parse_variant

from minelib.board import BoardSize
from minelib.game import check_first_click
from minelib.player_value import player_value
from minelib.players import make_player
from minelib.report import text_table
from minelib.tables import load_table

TABLE = Path(__file__).resolve().parent.parent / "results" / "optimal.sqlite"


def player(variant: str, options: str):
    """The two-step player with ``options``, its score the ``variant`` of ``score_variants.py`` if one is named."""
    if not variant:
        return make_player("twostep", options)
    run, number = parse_variant(variant)
    return VariantPlayer(run, number, options)


def value(size: str, mines: int, rule: str, first: tuple[int, int], spec: tuple[str, str], regrets: bool):
    """The ``PlayerValue`` on one board of the player ``spec`` (variant, options), in a worker process."""
    return player_value(player(*spec), size, mines, rule, first, regrets=regrets)


def label(spec: tuple[str, str]) -> str:
    variant, options = spec
    return ", ".join(filter(None, (variant, options))) or "defaults"


def points(p) -> str:
    return f"{100 * float(p):+.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default="4x5/4,4x5/5,4x6/5,5x5/5", help="HxW/mines,...")
    parser.add_argument("--rule", default="safe", help="the first-click rule: safe, zero or none")
    parser.add_argument("--first", default="0,0", help="the first click, ROW,COL")
    parser.add_argument("--options", default="", help="the two-step player's options (default: its defaults)")
    parser.add_argument("--variant", default="", help="a variant of score_variants.py's score (default: none)")
    parser.add_argument("--against", default=None, help="a second set of options, compared on the same boards")
    parser.add_argument("--against-variant", default=None, help="the second player's variant (with --against)")
    parser.add_argument("--regrets", type=int, default=0, help="show the N guesses that lose most")
    parser.add_argument("--table", default=str(TABLE), help="the table of optimal play")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    found = boards(parser, "--boards", args.boards)
    if not found:
        parser.error("--boards: no board given")
    try:
        check_first_click(args.rule)
        first = tuple(int(part) for part in args.first.split(","))
        if len(first) != 2:
            raise ValueError(f"--first is ROW,COL, not {args.first!r}")
        for size, _ in found:
            BoardSize.parse(size).check(first, "--first")
        mine = (args.variant, args.options)
        against = None
        if args.against is not None or args.against_variant is not None:
            against = (args.against_variant or "", args.against or "")
        for spec in filter(None, (mine, against)):
            player(*spec)
    except ValueError as error:
        parser.error(str(error))
    if args.regrets < 0 or args.workers < 1:
        parser.error("--regrets must be at least 0 and --workers at least 1")
    table = {}
    if Path(args.table).exists():
        table = {(e.task.height, e.task.width, e.task.mines, e.task.rule): e for e in load_table(args.table)}
    players = [mine] + ([against] if against is not None else [])
    jobs = [(size, mines, spec) for size, mines in found for spec in players]
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [pool.submit(value, s, m, args.rule, first, p, args.regrets > 0 and p == mine) for s, m, p in jobs]
        values = {job: future.result() for job, future in zip(jobs, futures)}
    rows, sums = [], {"player less optimal": Fraction(0), "less against": Fraction(0)}
    for size, mines in found:
        ours = values[size, mines, mine]
        b = BoardSize.parse(size)
        entry = table.get((b.height, b.width, mines, args.rule))
        optimal = entry.move_values.get(first) if entry else None
        row = {
            "board": f"{size}/{mines}",
            "layouts": ours.layouts,
            "player %": f"{100 * float(ours.probability):.3f}",
            "optimal %": f"{100 * float(optimal):.3f}" if optimal is not None else "-",
            "player less optimal": points(ours.probability - optimal) if optimal is not None else "-",
            "guesses": ours.guesses,
            "s": f"{ours.seconds:.1f}",
        }
        if optimal is None:  # a board not in the table: no sum of the distances to optimal play
            sums.pop("player less optimal", None)
        elif "player less optimal" in sums:
            sums["player less optimal"] += ours.probability - optimal
        if against is not None:
            other = values[size, mines, against]
            row["against %"] = f"{100 * float(other.probability):.3f}"
            row["less against"] = points(ours.probability - other.probability)
            sums["less against"] += ours.probability - other.probability
        rows.append(row)
    if len(found) > 1:  # the screen's one number: the distances summed over the boards
        rows.append({key: points(sums[key]) if key in sums else "" for key in rows[0]} | {"board": "sum"})
    print(f"the two-step player ({label(mine)}), rule {args.rule}, first click {first}, every layout")
    if against is not None:
        print(f"against: {label(against)}")
    print(text_table(rows))
    if not table:
        print(f"(no table of optimal play at {args.table}: `make tables` fills it)")
    for size, mines in found if args.regrets else ():
        ours = values[size, mines, mine]
        print(f"\n{size}/{mines}: the guesses that lose most (all together {100 * float(ours.lost()):.3f} points)")
        for r in ours.regrets[: args.regrets]:
            share = r.layouts / ours.layouts
            lost = f"{100 * share * float(r.regret):.3f}"
            print(f"reached by {share:.2%} of layouts: opens {r.cell}, best {r.best} ({lost} points in all)")
            print(r.board)


if __name__ == "__main__":
    main()
