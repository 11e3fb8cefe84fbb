"""The public API: one import gives what a user needs, every public module says what it exports,
and the version lives in one place."""

import importlib
import pkgutil
from importlib.metadata import version

import minelib

MODULES = sorted(m.name for m in pkgutil.iter_modules(minelib.__path__) if not m.name.startswith("_"))


def test_one_import_gives_what_a_user_needs():
    for name in [
        "Board",
        "BoardSize",
        "analyze",
        "Analysis",
        "FrontierCounter",
        "solve",
        "OptimalSolver",
        "EndgameSearch",
        "Result",
        "Game",
        "first_cell",
        "PLAYERS",
        "ZDDPlayer",
        "LookaheadPlayer",
        "TwoStepPlayer",
        "make_player",
        "EVALUATORS",
    ]:
        assert name in minelib.__all__ and hasattr(minelib, name), name


def test_every_public_module_says_what_it_exports():
    for name in MODULES:
        module = importlib.import_module(f"minelib.{name}")
        assert hasattr(module, "__all__"), name
        assert all(hasattr(module, export) for export in module.__all__), name


def test_the_version_lives_in_one_place():
    assert version("minelib") == minelib.__version__
