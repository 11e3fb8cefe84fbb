"""The players, registered by name: article 003's ZDD player and ours on the exact analysis.

Every player plays a ``minelib.game.Game`` to the end and shares one signature:
``player.play(game, first) -> Record`` and ``player.recommend(board, mines) -> Move``;
``PLAYERS`` registers them by name, and the contract tests loop over it. ``make_player`` builds one
from its name and options as the command line and the experiments write them; ``explain`` says
why a player makes its move, where the player can.

- ``ZDDPlayer`` (``minelib.zdd_player``) is the article's player: a ZDD of the frontier layouts.
- ``LookaheadPlayer`` and ``SafestPlayer`` (``minelib.lookahead``) play on the exact analysis, the
  first with a one-step look-ahead among the near-safest cells.
- ``TwoStepPlayer`` (``minelib.twostep``), the strongest: the chance to survive two moves.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from minelib.board import Board
from minelib.lookahead import Explanation, LookaheadPlayer, SafestPlayer
from minelib.moves import Move, Record
from minelib.twostep import TwoStepPlayer
from minelib.zdd_player import ZDDPlayer

PLAYERS = {player.name: player for player in (ZDDPlayer, LookaheadPlayer, SafestPlayer, TwoStepPlayer)}
STRONGEST = TwoStepPlayer.name  # the player the command line and the record runs use unless told
OLD_NAMES = {"best": "lookahead"}


def explain(player, board: Board, mines: int) -> Explanation:
    """``player.explain(board, mines)`` (our players: the move, what decided it, the guesses ranked);
    for a player without it (the ZDD player), its ``recommend`` with no reason ("")."""
    if hasattr(player, "explain"):
        return player.explain(board, mines)
    return Explanation(player.recommend(board, mines), "", [])


def make_player(name: str, options: str = ""):
    """The registered player ``name`` with ``options`` written ``key=value,...`` (values are integers,
    or fractions such as ``9/10``); raise ValueError naming an unknown player, option or value."""
    check_player(name)
    kwargs = parse_options(options)
    try:
        return PLAYERS[name](**kwargs)
    except TypeError as error:
        raise ValueError(f"player {name!r} does not take these options: {options!r} ({error})") from None


def parse_options(options: str) -> dict[str, Any]:
    """Player options written ``key=value,...`` as keyword arguments (integers, or fractions such as
    ``9/10``); raise ValueError naming an item not so written. Each player checks its own options."""
    kwargs: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in options.split(","))):
        key, equals, value = item.partition("=")
        try:
            if not equals:
                raise ValueError
            kwargs[key.strip()] = Fraction(value) if "/" in value else int(value)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"player option {item!r} is not written key=value with a number") from None
    return kwargs


def check_player(name: str) -> None:
    """Raise ValueError unless ``name`` is a registered player."""
    if name not in PLAYERS:
        raise ValueError(
            f"unknown player {name!r} (expected one of {', '.join(PLAYERS)})"
        )  # the registry's names before 0.2, as found in old results files


__all__ = [
    "OLD_NAMES",
    "PLAYERS",
    "STRONGEST",
    "LookaheadPlayer",
    "Move",
    "Record",
    "SafestPlayer",
    "TwoStepPlayer",
    "ZDDPlayer",
    "check_player",
    "make_player",
    "parse_options",
]
