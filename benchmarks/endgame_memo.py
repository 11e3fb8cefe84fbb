"""The exact endgame's memo on expert's big positions: grown with the layouts (the default) against 20,000 states.

    python benchmarks/endgame_memo.py [--games 200] [--seed 9] [--bands 20001-50000,50001-150000]
        [--play 0] [--play-start 0] [--options endgame_compiled=50000] [--article SIDE/DENSITY]

Positions as in ``benchmarks/endgame.py``: the guesses of seeded expert games played by the two-step player
without its endgame, kept by band of layout counts. On each, the search for the best cells alone (the player's
question, ``best=True``) by a fresh ``EndgameSearch`` with the memo of today (``STATES_PER_LAYOUT`` states a
layout past ``ENDGAME_STATES``, at most ``ENDGAME_STATES_MAX``) and with one of ``ENDGAME_STATES`` (before
2026-11-29), the two in turn and checked equal: seconds (total and largest), states solved and the times the
memo was full and started afresh, and the ratio of total times. The searches take seconds each on the biggest
positions. With ``--play N``, whole games too: the strongest player (``--options``) on N games of the record
setting of expert with a safe first click (0, 0) from game ``--play-start`` (or, with ``--article``, article
003's games, e.g. ``20/0.2``), each played with both memos (in alternating order, one process) and checked to go
the same way; mean and median milliseconds a game and their ratios. Timings are for reading: the machine is shared.
"""

import argparse
import statistics
import time
from unittest import mock

from endgame import parse_bands, positions

from minelib import experiments as ex
from minelib import lookahead
from minelib.endgame import ENDGAME_STATES, EndgameSearch
from minelib.players import make_player
from minelib.report import text_table


def fixed_memo(mines: int) -> EndgameSearch:
    """An endgame search with the memo of before 2026-11-29: ``ENDGAME_STATES`` states, whatever the layouts."""
    return EndgameSearch(mines, max_states=ENDGAME_STATES)


def play(games: int, start: int, options: str, article: tuple[int, float] | None = None) -> None:
    """The player's time a game with each memo, on the same games, and that they go the same way."""
    if article:
        setting = ex.article_setting(ex.RECORD_PLAYER, *article, start + games)
        where = f"article 003's {article[0]}x{article[0]} at {article[1]:.0%}"
    else:
        setting = ex.record_setting("expert", "safe", "0,0", start + games, options=options)
        where = "expert, safe, (0, 0)"
    player = make_player(ex.RECORD_PLAYER, options)
    seconds: dict[str, list[float]] = {"grown": [], "fixed": []}
    for i in range(start, start + games):
        results = {}
        for memo in ("grown", "fixed") if i % 2 else ("fixed", "grown"):
            game, first = ex.setting_game(setting, i)
            with mock.patch.object(lookahead, "EndgameSearch", EndgameSearch if memo == "grown" else fixed_memo):
                begin = time.perf_counter()
                result = player.play(game, first)
                seconds[memo].append(time.perf_counter() - begin)
            results[memo] = (result.won, game.board.values.tobytes())
        assert results["grown"] == results["fixed"], f"game {i} went otherwise with the other memo"
    rows = [
        {
            "memo": name,
            "mean ms": 1000 * statistics.fmean(seconds[m]),
            "median ms": 1000 * statistics.median(seconds[m]),
        }
        for m, name in (("fixed", f"{ENDGAME_STATES:,} states"), ("grown", "grown (today)"))
    ]
    print(f"{where}, games {start} to {start + games - 1}, options {options or '(defaults)'}: each game")
    print(text_table(rows, ".2f"))
    a, b = seconds["fixed"], seconds["grown"]
    ratios = f"{sum(a) / sum(b):.2f} times in all, {statistics.median(a) / statistics.median(b):.2f} in medians"
    print(f"fixed over grown: {ratios}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--bands", default="20001-50000,50001-150000")
    parser.add_argument("--play", type=int, default=0, help="whole games to time with each memo (default none)")
    parser.add_argument("--play-start", type=int, default=0)
    parser.add_argument("--options", default="endgame_compiled=50000", help="the player's options in those games")
    parser.add_argument("--article", default="", help="article 003's games instead, as SIDE/DENSITY (e.g. 20/0.2)")
    args = parser.parse_args()
    bands = parse_bands(parser, args.bands)
    if args.games < 1 or args.play < 0 or args.play_start < 0:
        parser.error("--games must be positive, --play and --play-start not negative")
    try:
        make_player(ex.RECORD_PLAYER, args.options)
    except (ValueError, TypeError) as error:
        parser.error(f"--options {args.options!r}: {error}")
    article = None
    if args.article:
        try:
            side, density = args.article.split("/")
            article = (int(side), float(density))
            ex.article_setting(ex.RECORD_PLAYER, *article)
        except ValueError as error:
            parser.error(f"--article {args.article!r}: {error} (expected SIDE/DENSITY, e.g. 20/0.2)")
    everything = positions(args.games, args.seed, min(b[0] for b in bands), max(b[1] for b in bands))
    EndgameSearch(99).values(*everything[0], best=True) if everything else None  # load the compiled engine
    rows = []
    for low, high in bands:
        band = [(board, layouts) for board, layouts in everything if low <= len(layouts) <= high]
        if not band:
            continue
        seconds = {"grown": [], "fixed": []}
        solved = {"grown": 0, "fixed": 0}
        clears = {"grown": 0, "fixed": 0}
        for k, (board, layouts) in enumerate(band):
            answers = {}
            for memo in ("grown", "fixed") if k % 2 else ("fixed", "grown"):
                search = EndgameSearch(99) if memo == "grown" else EndgameSearch(99, max_states=ENDGAME_STATES)
                start = time.perf_counter()
                answers[memo] = search.values(board, layouts, best=True)
                seconds[memo].append(time.perf_counter() - start)
                solved[memo] += search.solved
                clears[memo] += search._engine.clears if search._engine else 0
            assert answers["grown"] == answers["fixed"], "the memo's size must change no answer"
        row = {"layouts": f"{low}-{high}", "positions": len(band)}
        for memo, name in (("fixed", f"{ENDGAME_STATES:,} states"), ("grown", "grown")):
            row[f"{name}: s (max)"] = f"{sum(seconds[memo]):.2f} ({max(seconds[memo]):.2f})"
            row[f"{name}: solved, cleared"] = f"{solved[memo]:,}, {clears[memo]}"
        row["fixed / grown (total)"] = f"{sum(seconds['fixed']) / sum(seconds['grown']):.2f}x"
        rows.append(row)
    print(
        f"the exact endgame's memo on expert 16x30/99 (safe, (0, 0)): guesses of {args.games} games, seed {args.seed}"
    )
    print(text_table(rows) if rows else "no position in these bands")
    if args.play:
        play(args.play, args.play_start, args.options, article)


if __name__ == "__main__":
    main()
