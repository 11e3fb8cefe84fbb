"""Results files: where the experiments keep their games, so that a run can stop and resume.

Two formats, chosen by the file's name: JSON lines (one game a line, appended the moment it is
back: small runs, readable) and SQLite blocks (``*.sqlite`` or ``*.db``: long runs, ``BLOCK`` games
a row, compressed, about 8.5 bytes a game in the file, 11.4 with each game's luck).
``open_results(path)`` gives the file's ``Store``: its ``load`` gives a setting's stored games by
index (``games``: the same as arrays, ``Games``, fast on a million), ``tasks`` splits the missing
ones into the pieces a worker plays, ``save`` writes a finished piece. A setting is told apart by its
key (``experiments.Setting.key``): one file holds many settings. When a player's defaults change, ``rename``
names the stored games of the defaults before by the options that replay them, and ``Blocks.move_to`` carries
a run to a file of its own (each committed file stays under 10 MB).
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
import zlib
from collections.abc import Iterable
from contextlib import closing
from dataclasses import astuple, dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from minelib.players import OLD_NAMES

if TYPE_CHECKING:
    from minelib.experiments import Setting


@dataclass(frozen=True, eq=False)  # (arrays: no == of whole runs)
class Games:
    """Stored games as arrays, in ascending order of index: what ``summarize`` and the paired
    comparisons read, without a dict for each of a million games. Each game's luck (``moves.Luck``'s
    value and control) where it kept it, NaN where not (a game stored before games kept their luck, or
    in a block row that kept their sums only)."""

    index: np.ndarray  # int64
    won: np.ndarray  # bool
    guesses: np.ndarray  # int64
    seconds: np.ndarray  # float64
    value: np.ndarray  # float64, NaN where not kept
    control: np.ndarray  # float64, NaN where not kept

    @classmethod
    def of(cls, entries) -> Games:
        """The arrays of game records (dicts with index, won, guesses, seconds, and value and control where
        kept), sorted by index."""
        entries = sorted(entries, key=lambda e: e["index"])
        return cls(
            np.array([e["index"] for e in entries], np.int64),
            np.array([e["won"] for e in entries], np.bool_),
            np.array([e["guesses"] for e in entries], np.int64),
            np.array([e["seconds"] for e in entries], np.float64),
            np.array([e.get("value", math.nan) for e in entries], np.float64),
            np.array([e.get("control", math.nan) for e in entries], np.float64),
        )

    def __len__(self) -> int:
        return len(self.index)

    def entries(self) -> dict[int, dict]:
        """The games as records by index, as ``Store.load`` gives them (value and control where kept)."""
        rows = zip(*(a.tolist() for a in (self.index, self.won, self.guesses, self.seconds, self.value, self.control)))
        return {
            i: {"index": i, "won": w, "guesses": g, "seconds": t}
            | ({} if math.isnan(v) else {"value": v, "control": c})
            for i, w, g, t, v, c in rows
        }

    def where(self, keep: np.ndarray) -> Games:
        """The games where the boolean array ``keep`` is True."""
        return Games(*(getattr(self, f.name)[keep] for f in fields(self)))

    @property
    def lucky(self) -> np.ndarray:
        """Whether each game kept its luck."""
        return ~np.isnan(self.value)


@dataclass(frozen=True)
class LuckSums:
    """What a run's games say of their luck (``moves.Luck``, the value and control as ``float``), in sums:
    enough for the win rate with the luck taken out (``rate``) however many games, in
    40 bytes a block row of an SQLite file. The means of the values and controls, and their centred sums
    of squares and of products (merged as Chan, Golub and LeVeque do: no sum of squares less a square,
    which loses every digit where the controls hardly move)."""

    games: int
    value_mean: float
    control_mean: float
    value_squares: float  # sum of (value - its mean)**2
    control_squares: float
    products: float  # sum of (value - its mean) * (control - its mean)

    @classmethod
    def of(cls, entries) -> LuckSums | None:
        """The sums of game records (dicts with ``value`` and ``control``); None if there are none, or one
        has none (a game stored before games kept their luck)."""
        entries = list(entries)
        if not entries or any("value" not in e or "control" not in e for e in entries):
            return None
        values = np.array([e["value"] for e in entries], np.float64)
        controls = np.array([e["control"] for e in entries], np.float64)
        dv, dc = values - values.mean(), controls - controls.mean()
        moments = (values.mean(), controls.mean(), dv @ dv, dc @ dc, dv @ dc)
        return cls(len(entries), *(float(m) for m in moments))

    def __add__(self, other: LuckSums) -> LuckSums:
        n, m = self.games, other.games
        total = n + m
        dv, dc = other.value_mean - self.value_mean, other.control_mean - self.control_mean
        return LuckSums(
            total,
            self.value_mean + dv * m / total,
            self.control_mean + dc * m / total,
            self.value_squares + other.value_squares + dv * dv * n * m / total,
            self.control_squares + other.control_squares + dc * dc * n * m / total,
            self.products + other.products + dv * dc * n * m / total,
        )

    def rate(self) -> tuple[float, float, float]:
        """The win rate of these games with their luck taken out: ``strength.controlled_difference`` of the
        values with the controls, from the sums (the same mean, half width of the 95% interval and slope;
        controls that move by less than a billionth of their size do not move, as it counts them)."""
        n = self.games
        still = self.control_squares <= n * (1e-9 * max(1.0, abs(self.control_mean))) ** 2  # rounding's, not the games'
        slope = 0.0 if still else self.products / self.control_squares
        mean = self.value_mean - slope * self.control_mean
        squares = self.value_squares - 2 * slope * self.products + slope**2 * self.control_squares
        return mean, 1.959964 * math.sqrt(max(squares, 0.0) / n) / math.sqrt(n), slope

    def interval(self) -> tuple[float, float]:
        """``rate``'s 95% interval, within 0 and 1."""
        mean, half, _ = self.rate()
        return max(0.0, mean - half), min(1.0, mean + half)

    def __str__(self) -> str:
        low, high = self.interval()
        return f"{self.rate()[0]:.2%} [{low:.2%}-{high:.2%}] of {self.games:,}"

    def packed(self) -> bytes:
        return np.array(astuple(self)[1:], "<f8").tobytes()

    @classmethod
    def unpacked(cls, games: int, blob: bytes) -> LuckSums:
        return cls(games, *np.frombuffer(blob, "<f8").tolist())


class Store:
    """A results file: ``load`` a setting's stored games by index, split the missing ones into
    ``tasks`` (lists of game indices, one per worker call), and ``save`` a finished task's games."""

    def __init__(self, path: Path):
        self.path = path

    def check_writable(self) -> None:
        """Raise ValueError naming the problem if games cannot be written here: asked before any game
        is played, not when the first one is back."""
        folder = self.path.parent
        if self.path.is_dir():
            raise ValueError(f"cannot write results to {self.path}: it is a folder")
        if not folder.is_dir():
            raise ValueError(f"cannot write results to {self.path}: there is no folder {folder}")
        if not os.access(self.path if self.path.exists() else folder, os.W_OK):
            raise ValueError(f"cannot write results to {self.path}: permission denied")

    def load(self, setting: Setting) -> dict[int, dict]:
        raise NotImplementedError

    def games(self, setting: Setting, start: int = 0, stop: int | None = None) -> Games:
        """The setting's stored games from index ``start`` to before ``stop`` (the end), as arrays."""
        end = setting.stop if stop is None else stop
        return Games.of(e for i, e in self.load(setting).items() if start <= i < end)

    def luck(self, setting: Setting, entries: Iterable[dict] | None = None) -> LuckSums | None:
        """The luck of the setting's stored games that kept theirs, summed (None if none did); ``entries``:
        those games as ``load`` gave them, if at hand (a file of lines need not be read again)."""
        games = self.load(setting).values() if entries is None else entries
        kept = [e for e in games if "value" in e and "control" in e]
        return LuckSums.of(sorted(kept, key=lambda e: e["index"])) if kept else None

    def tasks(self, setting: Setting, todo: list[int]) -> list[list[int]]:
        raise NotImplementedError

    def save(self, setting: Setting, entries: list[dict]) -> None:
        raise NotImplementedError

    def rename(self, setting: Setting, options: str) -> int:
        """Store every game of ``setting`` (all its games, whatever its ``games`` and ``start``) under the same
        setting with the player's ``options``: a run of the defaults before a change named by the options that
        replay it. Returns how many games moved; ValueError if the new name already holds games (nothing is
        changed then) or names the same setting. Not while a run writes to the file."""
        target = replace(setting, options=options)  # (an unknown option fails here)
        if target.key() == setting.key():
            raise ValueError(f"renaming {setting.key()} to itself")
        if self._count(target.key()):
            raise ValueError(f"{self.path} already holds games of {target.key()}: not renamed")
        return self._rename(setting.key(), target.key())

    def _count(self, key: str) -> int:
        """How many games the file holds under ``key``, whatever their indices."""
        raise NotImplementedError

    def _rename(self, key: str, new_key: str) -> int:
        raise NotImplementedError


class Lines(Store):
    """A JSON-lines results file: one game a line, appended the moment it is back."""

    def load(self, setting: Setting) -> dict[int, dict]:
        key = setting.key()
        return {
            entry["index"]: entry
            for entry in self._entries()
            if _current_key(entry.get("setting")) == key and setting.start <= entry["index"] < setting.stop
        }

    def tasks(self, setting: Setting, todo: list[int]) -> list[list[int]]:
        return [[i] for i in todo]

    def save(self, setting: Setting, entries: list[dict]) -> None:
        for entry in entries:
            _append(self.path, {"setting": setting.key(), **entry})

    def _count(self, key: str) -> int:
        return sum(_current_key(entry.get("setting")) == key for entry in self._entries())

    def _entries(self) -> list[dict]:
        """Every game in the file, whatever its setting (a line cut short by an interruption left out)."""
        if not self.path.exists():
            return []
        entries = []
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                entries.append(json.loads(line))
            except json.JSONDecodeError:
                continue  # a line cut short by an interruption
        return entries

    def _rename(self, key: str, new_key: str) -> int:
        """The file written anew beside itself, then put in its place: never half-renamed."""
        lines, moved = [], 0
        for entry in self._entries():
            if _current_key(entry.get("setting")) == key:
                entry, moved = {**entry, "setting": new_key}, moved + 1
            lines.append(json.dumps(entry) + "\n")
        if moved:
            _replace_file(self.path, "".join(lines))
        return moved


class Blocks(Store):
    """An SQLite results file for long runs: blocks of ``BLOCK`` games, one row each.

    Game i belongs to block i // BLOCK; a worker plays a block whole and its row is written in
    one transaction when it is back, so a stopped run loses at most the blocks in flight. A row
    keeps each game's outcome (``guesses * 2 + won``, uint32) and seconds (float32), each column
    zlib-compressed (``_pack``): about 4.7 bytes a game (the outcomes shrink fourfold, the seconds
    hardly), 8.5 in the file with the pages' slack (the expert long run: a million games in 8.5 MB).
    Rows written raw (8 bytes a game, as before compression) read the same. Since 2026-11-29 a row keeps
    its games' luck too: summed (``luck``, ``LuckSums``, 40 bytes: a run's rate with the luck out, read
    fast) and game by game (``luck_values`` and ``luck_controls``, float32 as the seconds: a paired
    comparison with the luck out needs each game's; on expert 1.2 and 3.0 bytes a game, 11.4 in the file:
    half a million games in 5.7 MB). These columns are NULL in the rows written before, and a file from
    before them gains them when a row is next written."""

    SCHEMA = (
        "CREATE TABLE IF NOT EXISTS blocks (setting TEXT NOT NULL, block INTEGER NOT NULL, "
        "games INTEGER NOT NULL, wins INTEGER NOT NULL, outcomes BLOB NOT NULL, seconds BLOB NOT NULL, "
        "luck BLOB, luck_values BLOB, luck_controls BLOB, PRIMARY KEY (setting, block))"
    )
    LUCK_COLUMNS = ("luck", "luck_values", "luck_controls")  # (added since the first files, in this order)

    def load(self, setting: Setting) -> dict[int, dict]:
        return self.games(setting).entries()

    def games(self, setting: Setting, start: int = 0, stop: int | None = None) -> Games:
        """Only the rows of the blocks that hold games ``start`` to ``stop`` are read."""
        start = max(start, setting.start)
        end = setting.stop if stop is None else min(stop, setting.stop)
        empty = Games.of([])
        if not self.path.exists() or end <= start:
            return empty
        try:
            with closing(sqlite3.connect(self.path)) as db:
                tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                if "blocks" not in tables:
                    if tables:  # another SQLite file (the table of optimal play, say): not to be written into
                        raise ValueError(f"{self.path} holds other tables ({', '.join(sorted(tables))}), not games")
                    return empty  # an empty file: the first block makes the table
                kept = "luck_values, luck_controls" if "luck_values" in _columns(db) else "NULL, NULL"
                rows = db.execute(
                    f"SELECT block, games, outcomes, seconds, {kept} FROM blocks WHERE setting = ? "
                    "AND block BETWEEN ? AND ? ORDER BY block",
                    (setting.key(), start // BLOCK, (end - 1) // BLOCK),
                ).fetchall()
        except sqlite3.DatabaseError as error:  # another kind of file
            raise ValueError(f"{self.path} is not an SQLite file of games ({error})") from None
        if not rows:
            return empty

        def column(at: int, kind: str) -> np.ndarray:  # a column of every row, read as ``kind``; NaN where NULL
            return np.concatenate(
                [
                    np.full(row[1], np.nan) if row[at] is None else np.frombuffer(_unpack(row[at], row[1]), kind)
                    for row in rows
                ]
            )

        index = np.concatenate([np.arange(row[0] * BLOCK, row[0] * BLOCK + row[1], dtype=np.int64) for row in rows])
        codes = column(2, "<u4").astype(np.int64)
        games = Games(
            index,
            (codes & 1).astype(np.bool_),
            codes >> 1,
            column(3, "<f4").astype(np.float64),
            column(4, "<f4").astype(np.float64),
            column(5, "<f4").astype(np.float64),
        )
        return games.where((start <= index) & (index < end))

    def luck(self, setting: Setting, entries: Iterable[dict] | None = None) -> LuckSums | None:
        """The rows that keep their games' luck, summed: those within the setting's games (a row's sums are
        of its games all, so a row that reaches past them, or begins before them, is left out). The rows'
        sums, not ``entries`` nor the games' own luck: they are float64, the games' float32."""
        if not self.path.exists():
            return None
        with closing(sqlite3.connect(self.path)) as db:
            if "luck" not in _columns(db):
                return None
            rows = db.execute(
                "SELECT games, luck FROM blocks WHERE setting = ? AND luck IS NOT NULL AND block * ? >= ? "
                "AND block * ? + games <= ? ORDER BY block",
                (setting.key(), BLOCK, setting.start, BLOCK, setting.stop),
            ).fetchall()
        found = [LuckSums.unpacked(games, blob) for games, blob in rows]
        return sum(found[1:], found[0]) if found else None

    def tasks(self, setting: Setting, todo: list[int]) -> list[list[int]]:
        """Every block with a game missing, whole (a block row is written once, complete); the setting's
        games must begin where a block does."""
        if setting.start % BLOCK:
            raise ValueError(
                f"games stored in blocks of {BLOCK} must start at a multiple of {BLOCK}, not at game {setting.start}"
            )
        blocks = sorted({i // BLOCK for i in todo})
        return [list(range(b * BLOCK, min((b + 1) * BLOCK, setting.stop))) for b in blocks]

    def save(self, setting: Setting, entries: list[dict]) -> None:
        block = entries[0]["index"] // BLOCK
        if [e["index"] for e in entries] != list(range(block * BLOCK, block * BLOCK + len(entries))):
            raise ValueError("a block row must hold consecutive games from the start of its block")
        outcomes = _pack(np.array([e["guesses"] * 2 + e["won"] for e in entries], "<u4").tobytes())
        seconds = _pack(np.array([e["seconds"] for e in entries], "<f4").tobytes())
        luck = LuckSums.of(entries)
        each: list[bytes | None] = [None, None]  # each game's value and control, where every game kept them
        if luck is not None:
            each = [_pack(np.array([e[k] for e in entries], "<f4").tobytes()) for k in ("value", "control")]
        with closing(sqlite3.connect(self.path)) as db, db:
            self._prepare(db)
            db.execute(
                "INSERT OR REPLACE INTO blocks (setting, block, games, wins, outcomes, seconds, luck, luck_values, "
                "luck_controls) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    setting.key(),
                    block,
                    len(entries),
                    sum(e["won"] for e in entries),
                    outcomes,
                    seconds,
                    None if luck is None else luck.packed(),
                    *each,
                ),
            )

    @classmethod
    def _prepare(cls, db: sqlite3.Connection) -> None:
        """The table of blocks made if missing, with the luck columns a file from before them lacks."""
        db.execute("PRAGMA page_size = 16384")  # a new file's: rows of ~2.5 kB waste little of a page
        db.execute(cls.SCHEMA)
        for name in cls.LUCK_COLUMNS:
            if name not in _columns(db):  # a file from before the column
                db.execute(f"ALTER TABLE blocks ADD COLUMN {name} BLOB")

    def _count(self, key: str) -> int:
        if not self.path.exists():
            return 0
        with closing(sqlite3.connect(self.path)) as db:
            return _games_under(db, key)

    def _rename(self, key: str, new_key: str) -> int:
        if not self.path.exists():
            return 0
        with closing(sqlite3.connect(self.path)) as db, db:  # one transaction
            games = _games_under(db, key)
            if games:
                db.execute("UPDATE blocks SET setting = ? WHERE setting = ?", (new_key, key))
            return games

    def move_to(self, setting: Setting, other: Path | str) -> int:
        """Carry every block of ``setting`` to the SQLite file ``other`` (made if missing), then leave it out of
        this one, which is compacted (``VACUUM``): a run kept in a file of its own. Returns how many games moved;
        ValueError if ``other`` already holds games of the setting (nothing is changed then)."""
        target = Blocks(Path(other))
        if target.path.resolve() == self.path.resolve():
            raise ValueError(f"moving {setting.key()} from {self.path} to itself")
        target.check_writable()
        key = setting.key()
        games = self._count(key)
        if not games:
            return 0
        if target._count(key):
            raise ValueError(f"{target.path} already holds games of {key}: not moved")
        with closing(sqlite3.connect(target.path)) as db, db:
            self._prepare(db)
            db.execute("ATTACH DATABASE ? AS source", (str(self.path),))
            kept = ", ".join(self.LUCK_COLUMNS) if "luck_values" in _columns(db, "source") else "NULL, NULL, NULL"
            db.execute(
                "INSERT INTO main.blocks (setting, block, games, wins, outcomes, seconds, luck, luck_values, "
                f"luck_controls) SELECT setting, block, games, wins, outcomes, seconds, {kept} FROM source.blocks "
                "WHERE setting = ?",
                (key,),
            )
        with closing(sqlite3.connect(self.path)) as db:  # written there first: a stop now leaves both copies
            with db:
                db.execute("DELETE FROM blocks WHERE setting = ?", (key,))
            db.execute("VACUUM")
        return games


BLOCK = 500  # games per row of an SQLite results file


def _games_under(db: sqlite3.Connection, key: str) -> int:
    """How many games the file's blocks hold under ``key`` (none in a file without the table)."""
    if not db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'blocks'").fetchone():
        return 0
    (games,) = db.execute("SELECT COALESCE(SUM(games), 0) FROM blocks WHERE setting = ?", (key,)).fetchone()
    return int(games)


def _replace_file(path: Path, text: str) -> None:
    """``path`` holds ``text``: written to a file beside it, then renamed over it (atomic)."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def _columns(db: sqlite3.Connection, schema: str = "main") -> set[str]:
    """The columns of the table of blocks (of an attached file's: ``schema``)."""
    return {row[1] for row in db.execute(f"PRAGMA {schema}.table_info(blocks)")}


def _pack(raw: bytes) -> bytes:
    """A column of a block row, zlib-compressed when that makes it shorter: so a blob of exactly
    4 bytes a game is raw, and a shorter one compressed (``_unpack``)."""
    packed = zlib.compress(raw, 9)
    return packed if len(packed) < len(raw) else raw


def _unpack(blob: bytes, games: int) -> bytes:
    """The raw 4 bytes a game of a column written by ``_pack`` (or raw, as before compression)."""
    raw = blob if len(blob) == 4 * games else zlib.decompress(blob)
    if len(raw) != 4 * games:
        raise ValueError(f"a block row of {games} games holds {len(raw)} bytes, not {4 * games}")
    return raw


def open_results(path: Path | str) -> Store:
    """The results file at ``path``: SQLite blocks for ``.sqlite`` / ``.db``, else JSON lines."""
    path = Path(path)
    return Blocks(path) if path.suffix in (".sqlite", ".db") else Lines(path)


def _current_key(key: str | None) -> str | None:
    """A setting key as written today; files from before 0.2 say "solver" (and "best" for "lookahead")."""
    if key is None or '"solver"' not in key:
        return key
    fields = json.loads(key)
    name = fields.pop("solver")
    fields["player"] = OLD_NAMES.get(name, name)
    return json.dumps(fields, sort_keys=True)


def _append(path: Path | str, entry: dict) -> None:
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(entry) + "\n")
        handle.flush()


__all__ = ["BLOCK", "Blocks", "Games", "Lines", "LuckSums", "Store", "open_results"]
