"""Plain-text tables: what the notebooks and benchmarks print (small, exact, aligned)."""

from __future__ import annotations

from collections.abc import Sequence


def text_table(rows: Sequence[dict], floats: str = ".3f") -> str:
    """Rows of equal keys as an aligned table: a header of the keys, text left, numbers right."""
    if not rows:
        return "(no rows)"
    keys = list(rows[0])
    for i, row in enumerate(rows):
        if row.keys() != set(keys):
            raise ValueError(f"row {i} has the keys {list(row)}, not those of the first row, {keys}")
    cells = [[_text(row[key], floats) for key in keys] for row in rows]
    widths = [max(len(key), *(len(line[k]) for line in cells)) for k, key in enumerate(keys)]
    numeric = [all(isinstance(row[key], (int, float)) or row[key] is None for row in rows) for key in keys]

    def line(values: list[str]) -> str:
        return "  ".join(v.rjust(w) if right else v.ljust(w) for v, w, right in zip(values, widths, numeric)).rstrip()

    return "\n".join([line(keys), *map(line, cells)])


def _text(value, floats: str) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return format(value, floats)
    return str(value)


__all__ = ["text_table"]
