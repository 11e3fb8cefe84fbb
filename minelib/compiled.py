"""Numba's on-disk cache kept in step with the sources it was compiled from.

numba checks a cached function (``njit(cache=True)``) against its own file only. A compiled
function that calls one from another module (``sweep._sweep`` calls ``game.reveal``) or reads
another module's constant (``board.UNOPENED``) keeps the old code when only that other module
changed: numba's documented limitation (numba#1833). After an edit or a ``git pull`` the cache
would then run code that is no longer in the sources, silently.

So each module with compiled code gets a stamp in ``__pycache__``: a digest of its source and of
the sources of the minelib modules it imports. On import of minelib, a module whose stamp differs
(or is missing) loses its cached code, which numba then compiles again from today's sources. Only
numba's in-tree cache (``__pycache__`` beside the sources, the default for a checkout) is kept so;
with ``NUMBA_CACHE_DIR`` set, or a read-only install, numba's own rule alone applies. A process
started before the change still runs the old code, and may still write it into the cache: stop
long runs before changing compiled code (or remove ``__pycache__`` after).
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

COMPILED = re.compile(r"^(@njit\(|_JIT\b).*cache=True", re.MULTILINE)  # a module with cached code
IMPORTS = re.compile(r"^from minelib(?:\.(\w+))? import ([^\n(]+|\([^)]*\))", re.MULTILINE)


def imported_modules(source: str) -> set[str]:
    """The minelib modules that ``source`` imports (``from minelib.x import ...``, ``from minelib import x``)."""
    found = set()
    for module, names in IMPORTS.findall(source):
        if module:
            found.add(module)
        else:
            found.update(n.split(" as ")[0].strip() for n in names.strip("()").replace("\n", " ").split(","))
    found.discard("")
    return found


def stamps(package: Path) -> dict[str, str]:
    """Per module of ``package`` with compiled code: the digest of its source and of the sources of the
    package's modules it imports."""
    sources = {p.stem: p.read_bytes() for p in sorted(package.glob("*.py"))}
    result = {}
    for name, source in sources.items():
        text = source.decode()
        if not COMPILED.search(text):
            continue
        digest = hashlib.sha256()
        for dependency in [name] + sorted(imported_modules(text) & sources.keys() - {name}):
            digest.update(dependency.encode() + b"\0" + sources[dependency] + b"\0")
        result[name] = digest.hexdigest()
    return result


def drop_stale(package: Path) -> list[str]:
    """Remove the cached code (``__pycache__/MODULE.*.nbi`` and ``.nbc``) of every module of
    ``package`` whose stamp changed, and write its new stamp; returns those modules. Does nothing
    where ``__pycache__`` cannot be written."""
    cache = package / "__pycache__"
    dropped = []
    try:
        cache.mkdir(exist_ok=True)
        for name, digest in stamps(package).items():
            stamp = cache / f"{name}.sources"
            if stamp.exists() and stamp.read_text() == digest:
                continue
            for old in list(cache.glob(f"{name}.*.nbi")) + list(cache.glob(f"{name}.*.nbc")):
                old.unlink(missing_ok=True)
            partial = cache / f"{name}.sources.{os.getpid()}"
            partial.write_text(digest)
            os.replace(partial, stamp)  # whole or not at all, whatever other process reads it
            dropped.append(name)
    except OSError:  # a read-only install: numba caches elsewhere, by its own rule
        pass
    return dropped


drop_stale(Path(__file__).parent)

__all__ = ["drop_stale", "imported_modules", "stamps"]
