"""The exact endgame's cliques on expert's big positions, with a kernel switch on (today's default) and off.

    python benchmarks/endgame_cliques.py [--switch inherit] [--games 400] [--seed 9] [--bands 20001-50000,50001-200000]

Positions as in ``benchmarks/endgame.py``: the guesses of seeded expert games played by the two-step player
without its endgame, kept by band of layout counts. On each, the search for the best cells alone (the player's
question, ``best=True``) by a fresh ``EndgameSearch`` with the switch on and off, the two in turn and checked equal:
seconds (total and largest), states solved, the search's work (``Engine.work``), and the ratio of total times.
``--switch inherit``: a state of more than ``INHERIT_ABOVE_DEFAULT`` layouts takes its parent's cliques (on, since
2026-11-29), or makes its own cover (off). ``--switch siblings``: a move's outcomes are each bounded by the cliques
they would take from their state as soon as the move is split (on, since 2026-12-02), or only once each is searched
(off). The searches take seconds each on the biggest positions. Timings are for reading: the machine is shared.
"""

import time

from endgame import positions_by_band

from minelib import kernel
from minelib.endgame import EndgameSearch
from minelib.report import text_table

SWITCHES = {  # the kernel's default each switch sets, its value off, and the names of on and off in the table
    "inherit": ("INHERIT_ABOVE_DEFAULT", -1, "parent's cliques", "own cover"),
    "siblings": ("SIBLINGS_DEFAULT", 0, "bounded at the split", "bounded when searched"),
}


def main() -> None:
    args, bands = positions_by_band(
        __doc__.splitlines()[0],
        9,
        "20001-50000,50001-200000",
        games=400,
        more=lambda parser: parser.add_argument("--switch", choices=sorted(SWITCHES), default="inherit"),
    )
    name, off, on_name, off_name = SWITCHES[args.switch]
    default = getattr(kernel, name)
    rows = []
    for (low, high), band in bands:
        seconds: dict[str, list[float]] = {"on": [], "off": []}
        solved, work = {"on": 0, "off": 0}, {"on": 0, "off": 0}
        for k, (board, layouts) in enumerate(band):
            answers = {}
            for way in ("off", "on") if k % 2 else ("on", "off"):
                setattr(kernel, name, default if way == "on" else off)
                search = EndgameSearch(99)
                start = time.perf_counter()
                answers[way] = search.values(board, layouts, best=True)
                seconds[way].append(time.perf_counter() - start)
                solved[way] += search.solved
                work[way] += search.work
            setattr(kernel, name, default)
            assert answers["on"] == answers["off"], f"--switch {args.switch} must change no answer"
        row = {"layouts": f"{low}-{high}", "positions": len(band)}
        for way, label in (("off", off_name), ("on", on_name)):
            row[f"{label}: s (max)"] = f"{sum(seconds[way]):.2f} ({max(seconds[way]):.2f})"
            row[f"{label}: solved, work"] = f"{solved[way]:,}, {work[way] / 1e6:,.0f}M"
        row["off / on (total)"] = f"{sum(seconds['off']) / sum(seconds['on']):.2f}x"
        rows.append(row)
    setting = "expert 16x30/99 (safe, (0, 0))"
    print(f"the exact endgame's cliques ({args.switch}) on {setting}: guesses of {args.games} games, seed {args.seed}")
    print(text_table(rows) if rows else "no position in these bands")


if __name__ == "__main__":
    main()
