"""The exact endgame's cliques on expert's big positions: taken from the parent's cover (the default) against a
cover of each state's own.

    python benchmarks/endgame_cliques.py [--games 400] [--seed 9] [--bands 20001-50000,50001-200000]

Positions as in ``benchmarks/endgame.py``: the guesses of seeded expert games played by the two-step player
without its endgame, kept by band of layout counts. On each, the search for the best cells alone (the player's
question, ``best=True``) by a fresh ``EndgameSearch`` whose states of more than ``INHERIT_ABOVE_DEFAULT`` layouts
take their parent's cliques (the default since 2026-11-29), and by one whose states each make their own cover
(``INHERIT_ABOVE_DEFAULT`` -1, as before), the two in turn and checked equal: seconds (total and largest), states
solved, the search's work (``Engine.work``), and the ratio of total times. The searches take seconds each on the
biggest positions. Timings are for reading: the machine is shared.
"""

import time

from endgame import positions_by_band

from minelib import kernel
from minelib.endgame import EndgameSearch
from minelib.report import text_table


def main() -> None:
    args, bands = positions_by_band(__doc__.splitlines()[0], 9, "20001-50000,50001-200000", games=400)
    default = kernel.INHERIT_ABOVE_DEFAULT
    rows = []
    for (low, high), band in bands:
        seconds: dict[str, list[float]] = {"taken": [], "own": []}
        solved, work = {"taken": 0, "own": 0}, {"taken": 0, "own": 0}
        for k, (board, layouts) in enumerate(band):
            answers = {}
            for cliques in ("own", "taken") if k % 2 else ("taken", "own"):
                kernel.INHERIT_ABOVE_DEFAULT = default if cliques == "taken" else -1
                search = EndgameSearch(99)
                start = time.perf_counter()
                answers[cliques] = search.values(board, layouts, best=True)
                seconds[cliques].append(time.perf_counter() - start)
                solved[cliques] += search.solved
                work[cliques] += search.work
            kernel.INHERIT_ABOVE_DEFAULT = default
            assert answers["taken"] == answers["own"], "the parent's cliques must change no answer"
        row = {"layouts": f"{low}-{high}", "positions": len(band)}
        for cliques, name in (("own", "own cover"), ("taken", "parent's cliques")):
            row[f"{name}: s (max)"] = f"{sum(seconds[cliques]):.2f} ({max(seconds[cliques]):.2f})"
            row[f"{name}: solved, work"] = f"{solved[cliques]:,}, {work[cliques] / 1e6:,.0f}M"
        row["own / parent's (total)"] = f"{sum(seconds['own']) / sum(seconds['taken']):.2f}x"
        rows.append(row)
    setting = "expert 16x30/99 (safe, (0, 0))"
    print(f"the exact endgame's cliques on {setting}: guesses of {args.games} games, seed {args.seed}")
    print(text_table(rows) if rows else "no position in these bands")


if __name__ == "__main__":
    main()
