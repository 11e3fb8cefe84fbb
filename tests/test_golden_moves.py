"""The strongest player's moves, game by game, against those stored in ``golden_moves.json``.

Notebook 06's replays compare each stored game's result and its number of guesses; this compares
every move (open or flag, cell, certain or not), so a refactor of the player that changes its play
anywhere fails here, whatever the result. A change meant to alter the play rewrites the file
(``python -m tests.test_golden_moves``) and says so in its commit, with the stored runs it changes.
"""

import hashlib
import json
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


def fingerprint(setting: ex.Setting, index: int) -> str:
    """Game ``index`` of ``setting`` played: won or lost, and a hash of its moves in order."""
    game, first = ex.setting_game(setting, index)
    record = make_player(setting.player, setting.options).play(game, first, log=True)
    moves = ";".join(f"{m.kind} {m.cell[0]},{m.cell[1]}{' certain' if m.certain else ''}" for m in record.moves)
    return f"{'won' if record.won else 'lost'} {hashlib.sha256(moves.encode()).hexdigest()[:16]}"


def fingerprints() -> dict[str, list[str]]:
    return {name: [fingerprint(setting, i) for i in range(GAMES)] for name, setting in SETTINGS.items()}


@pytest.mark.parametrize("name", list(SETTINGS))
def test_the_player_makes_the_stored_moves(name):
    stored = json.loads(GOLDEN.read_text())[name]
    played = [fingerprint(SETTINGS[name], i) for i in range(GAMES)]
    assert len(set(played)) > GAMES // 2  # the hashes tell the games apart
    differ = [i for i, (a, b) in enumerate(zip(stored, played)) if a != b]
    assert not differ, f"{name}: games {differ} are played otherwise than stored"


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(fingerprints(), indent=1) + "\n")
    print(f"wrote {GOLDEN}")
