"""The strongest player's moves, game by game, against those stored in ``golden_moves.json``.

Notebook 06's replays compare each stored game's result and its number of guesses; this compares
every move (open or flag, cell, certain or not), so a refactor of the player that changes its play
anywhere fails here, whatever the result. A change meant to alter the play rewrites the file
(``python -m tests.test_golden_moves``) and says so in its commit, with the stored runs it changes.
"""

import hashlib
import json
from dataclasses import replace
from pathlib import Path

import pytest

from minelib import experiments as ex
from minelib.players import make_player

GOLDEN = Path(__file__).with_name("golden_moves.json")
GAMES = 50
SETTINGS = {
    "expert, safe first click at (0, 0)": ex.record_setting("expert", "safe", "0,0", GAMES),
    "expert, opening at (3, 3)": ex.record_setting("expert", "zero", "3,3", GAMES),
    "20x20 with 20% mines (article 003)": ex.article_setting(ex.RECORD_PLAYER, 20, 0.2, GAMES),
}
# Games that the first games above never show: the first ten expert games of each record setting whose
# moves change with chains=0 (a chained 50/50 guessed first; 1% of expert games, none of the 50 above). Game 675
# of the first left them with the endgame from 20,000 layouts (2026-11-29), games 342 and 472 of the second with
# the endgame from 50,000 layouts (2026-12-01), and game 604 of the first and 289 and 581 of the second with the
# endgame from 200,000 layouts within a budget (2026-12-03), which play them alike without chains.
CHAINS = {
    "expert, safe first click at (0, 0), games with a chained 50/50": (
        ex.record_setting("expert", "safe", "0,0", 3000),
        [55, 147, 187, 190, 233, 486, 566, 674, 696, 708],
    ),
    "expert, opening at (3, 3), games with a chained 50/50": (
        ex.record_setting("expert", "zero", "3,3", 3000),
        [109, 127, 170, 431, 471, 505, 632, 759, 778, 1020],
    ),
}


def endgame_games(layouts: str, safe: list[int], zero: list[int]) -> dict[str, tuple[ex.Setting, list[int]]]:
    """The games chosen for an endgame of the defaults, by expert record setting (a safe first click, an opening)."""
    return {
        f"expert, safe first click at (0, 0), games the endgame from {layouts} layouts changes": (
            ex.record_setting("expert", "safe", "0,0", 3000),
            safe,
        ),
        f"expert, opening at (3, 3), games the endgame from {layouts} layouts changes": (
            ex.record_setting("expert", "zero", "3,3", 3000),
            zero,
        ),
    }


# And the first five expert games of each record setting that the endgame from 50,000 layouts (2026-12-01) plays to
# another result or number of guesses than from 20,000 (their record runs say which): none of the games above.
LARGER_ENDGAME = endgame_games("50,000", [277, 311, 630, 782, 850], [140, 269, 532, 676, 800])
# And the first five expert games of each record setting, among none of the games above, that the endgame from 200,000
# layouts within a budget (2026-12-03) plays to another result or number of guesses than from 50,000 (their record
# runs say which).
BUDGET_ENDGAME = endgame_games("200,000", [269, 300, 342, 926, 960], [120, 567, 730, 949, 1412])
GAME_LISTS = (
    {name: (setting, list(range(GAMES))) for name, setting in SETTINGS.items()}
    | CHAINS
    | LARGER_ENDGAME
    | BUDGET_ENDGAME
)


def fingerprint(setting: ex.Setting, index: int) -> str:
    """Game ``index`` of ``setting`` played: won or lost, and a hash of its moves in order."""
    game, first = ex.setting_game(setting, index)
    record = make_player(setting.player, setting.options).play(game, first, log=True)
    moves = ";".join(f"{m.kind} {m.cell[0]},{m.cell[1]}{' certain' if m.certain else ''}" for m in record.moves)
    return f"{'won' if record.won else 'lost'} {hashlib.sha256(moves.encode()).hexdigest()[:16]}"


def fingerprints() -> dict[str, list[str]]:
    return {name: [fingerprint(setting, i) for i in games] for name, (setting, games) in GAME_LISTS.items()}


@pytest.mark.parametrize("name", list(GAME_LISTS))
def test_the_player_makes_the_stored_moves(name):
    setting, games = GAME_LISTS[name]
    stored = json.loads(GOLDEN.read_text())[name]
    played = [fingerprint(setting, i) for i in games]
    assert len(stored) == len(games) and len(set(played)) > len(games) // 2  # the hashes tell the games apart
    differ = [i for i, a, b in zip(games, stored, played) if a != b]
    assert not differ, f"{name}: games {differ} are played otherwise than stored"


@pytest.mark.parametrize("name", list(CHAINS))
def test_the_chain_games_are_played_otherwise_without_chains(name):
    """The chain games pin what chains change: without them every one is played otherwise."""
    setting, games = CHAINS[name]
    stored = json.loads(GOLDEN.read_text())[name]
    off = replace(setting, options="chains=0")
    assert all(fingerprint(off, i) != moves for i, moves in zip(games, stored))


@pytest.mark.parametrize("before", ["deep=0", "second=0"])
@pytest.mark.parametrize("name", list(SETTINGS)[:2])
def test_the_expert_games_exercise_the_deeper_and_the_second_look(name, before):
    """The deeper look (deep=4) and the second look (second=1), both defaults, each play some of the first 20
    expert games otherwise than the defaults before them (deep=0: 7 and 8; second=0: 5 and 5), so the golden
    moves pin them."""
    setting = SETTINGS[name]
    stored = json.loads(GOLDEN.read_text())[name][:20]
    assert sum(fingerprint(replace(setting, options=before), i) != moves for i, moves in enumerate(stored)) >= 5


# The golden games that each endgame of the defaults since plays otherwise than the defaults before it: the endgame
# from 20,000 layouts (2026-11-29) than from 5,000, from 50,000 layouts (2026-12-01) than from 20,000, and from 200,000
# layouts within a budget (2026-12-03) than from 50,000. Each list is of the games the defaults today play otherwise
# than those options: the games chosen for each endgame since, and a few others.
LARGER = [(name, i) for name, (_, games) in LARGER_ENDGAME.items() for i in games]
BUDGET = [(name, i) for name, (_, games) in BUDGET_ENDGAME.items() for i in games]
SAFE, ZERO, ARTICLE = SETTINGS
SAFE_CHAINS, _ = CHAINS
LARGER_SAFE, LARGER_ZERO = LARGER_ENDGAME
ENDGAME_GAMES = {
    "endgame_compiled=5000": [(SAFE, 45), (ZERO, 10), (ARTICLE, 10), (SAFE_CHAINS, 708), *LARGER, *BUDGET],
    "endgame_compiled=20000": [(SAFE, 45), *LARGER, *BUDGET],
    "endgame_compiled=50000": [
        (SAFE, 45),
        *[(LARGER_SAFE, i) for i in (277, 850)],
        *[(LARGER_ZERO, i) for i in (140, 800)],
        *BUDGET,
    ],
}


@pytest.mark.parametrize("before", list(ENDGAME_GAMES))
def test_the_golden_games_exercise_the_larger_endgames(before):
    """The exact endgame from 200,000 layouts within a budget (the default since 2026-12-03) plays the games chosen for
    it otherwise than the defaults before it (``endgame_compiled=50000``), four of those chosen for the endgame from
    50,000 layouts and one more; the endgames before it did the same against theirs, so the golden moves pin each."""
    golden = json.loads(GOLDEN.read_text())
    differ = [
        (name, i)
        for name, (setting, games) in GAME_LISTS.items()
        for i, moves in zip(games, golden[name])
        if fingerprint(replace(setting, options=before), i) != moves
    ]
    assert differ == ENDGAME_GAMES[before]


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(fingerprints(), indent=1) + "\n")
    print(f"wrote {GOLDEN}")
