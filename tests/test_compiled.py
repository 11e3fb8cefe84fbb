"""numba's cache kept in step with the sources: a module's cached code goes when it or a module it imports changes."""

import shutil
from pathlib import Path

import minelib
from minelib.compiled import drop_stale, imported_modules, stamps

PACKAGE = Path(minelib.__file__).parent


def _package(tmp_path: Path) -> Path:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text("from minelib.b import X\n\n\n@njit(cache=True)\ndef f():\n    return X\n")
    (package / "b.py").write_text("X = 1\n")
    (package / "c.py").write_text("Y = 2\n")
    return package


def _cache_files(package: Path) -> list[Path]:
    cache = package / "__pycache__"
    cache.mkdir(exist_ok=True)
    files = [cache / "a.f-4.py311.nbi", cache / "a.f-4.py311.1.nbc", cache / "b.cpython-311.pyc"]
    for f in files:
        f.write_bytes(b"cached")
    return files


def test_a_module_s_cached_code_goes_when_it_or_a_module_it_imports_changes_and_stays_otherwise(tmp_path):
    package = _package(tmp_path)
    nbi, nbc, pyc = _cache_files(package)
    assert drop_stale(package) == ["a"]  # no stamp yet: nothing says the cache is current
    assert not nbi.exists() and not nbc.exists() and pyc.exists()
    _cache_files(package)
    assert drop_stale(package) == [] and nbi.exists() and nbc.exists()
    (package / "c.py").write_text("Y = 3\n")  # a does not import c
    assert drop_stale(package) == [] and nbi.exists()
    (package / "b.py").write_text("X = 2\n")  # a's compiled f read the old X
    assert drop_stale(package) == ["a"]
    assert not nbi.exists() and not nbc.exists() and pyc.exists()
    _cache_files(package)
    (package / "a.py").write_text((package / "a.py").read_text() + "\n")
    assert drop_stale(package) == ["a"] and not nbi.exists()


def test_the_sweep_s_cache_goes_when_game_reveal_changes(tmp_path):
    """The case numba misses: ``sweep._sweep`` calls ``game.reveal``, compiled from another file."""
    copy = tmp_path / "minelib"
    copy.mkdir()
    for name in ("sweep", "game", "board", "boxes", "frontier"):
        shutil.copy(PACKAGE / f"{name}.py", copy)
    before = stamps(copy)
    assert {"sweep", "game", "boxes"} <= before.keys() and "board" not in before
    game = copy / "game.py"
    game.write_text(game.read_text().replace("if numbers[c] == 0:", "if numbers[c] == 0 and c >= 0:"))
    after = stamps(copy)
    assert after["sweep"] != before["sweep"] and after["game"] != before["game"]
    assert after["boxes"] == before["boxes"]  # boxes does not import game


def test_the_package_s_compiled_modules_are_stamped():
    found = stamps(PACKAGE)
    assert {"boxes", "game", "kernel", "latent", "layouts", "sweep", "twostep"} <= found.keys()
    for name, digest in found.items():  # written on import of minelib, where __pycache__ can be written
        stamp = PACKAGE / "__pycache__" / f"{name}.sources"
        assert not stamp.exists() or stamp.read_text() == digest


def test_imported_modules_reads_every_form_of_import():
    source = (
        "from minelib import frontier\nfrom minelib.board import MINE, UNOPENED\n"
        "from minelib.latent import warm_up as warm_up_latent\nfrom minelib import (\n    game,\n    moves as m,\n)\n"
        "import numpy as np\nfrom numba import njit\n"
    )
    assert imported_modules(source) == {"frontier", "board", "latent", "game", "moves"}
