"""The exact endgame's memo on expert's big positions: grown with the layouts (the default) against 20,000 states.

    python benchmarks/endgame_memo.py [--games 200] [--seed 9] [--bands 20001-50000,50001-150000]

Positions as in ``benchmarks/endgame.py``: the guesses of seeded expert games played by the two-step player
without its endgame, kept by band of layout counts. On each, the search for the best cells alone (the player's
question, ``best=True``) by a fresh ``EndgameSearch`` with the memo of today (``STATES_PER_LAYOUT`` states a
layout past ``ENDGAME_STATES``, at most ``ENDGAME_STATES_MAX``) and with one of ``ENDGAME_STATES`` (before
2026-11-29), the two in turn and checked equal: seconds (total and largest), states solved and the times the
memo was full and started afresh, and the ratio of total times. The searches take seconds each on the biggest
positions. Timings are for reading: the machine is shared. Whole games with each memo: ``benchmarks/shortcuts.py
memo`` (e.g. ``--options endgame_compiled=100000``).
"""

import time

from endgame import positions_by_band

from minelib.endgame import ENDGAME_STATES, EndgameSearch
from minelib.report import text_table


def main() -> None:
    args, bands = positions_by_band(__doc__.splitlines()[0], 9, "20001-50000,50001-150000")
    rows = []
    for (low, high), band in bands:
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


if __name__ == "__main__":
    main()
