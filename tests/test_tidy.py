"""notebooks/tidy.py, which `make reproduce` runs on every notebook it executes: a rerun must change
only what the computation changed."""

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("tidy", ROOT / "notebooks" / "tidy.py")
tidy = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tidy)


def _stream(name: str, text) -> dict:
    return {"output_type": "stream", "name": name, "text": text}


def test_pieces_of_one_stream_are_joined_and_widget_views_and_execution_times_dropped(tmp_path):
    view = {"application/vnd.jupyter.widget-view+json": {"model_id": "x"}, "text/plain": ["board"]}
    outputs = [
        _stream("stdout", ["a\n", "b"]),  # a line cut between two pieces
        _stream("stdout", "c\n"),
        {"output_type": "display_data", "data": view, "metadata": {}},
        _stream("stdout", ["d\n"]),
        _stream("stderr", ["e\n"]),
        _stream("stderr", ["f\n"]),
    ]
    path = tmp_path / "n.ipynb"
    times = {"execution": {"iopub.status.busy": "2026-11-26T08:40:11.298094Z"}, "tags": ["kept"]}
    path.write_text(json.dumps({"cells": [{"cell_type": "code", "metadata": times, "outputs": outputs}]}))
    tidy.tidy(str(path))
    cell = json.loads(path.read_text())["cells"][0]
    assert cell["metadata"] == {"tags": ["kept"]}  # the execution times dropped, the rest kept
    found = cell["outputs"]
    assert found == [
        _stream("stdout", ["a\n", "bc\n"]),
        {"output_type": "display_data", "data": {"text/plain": ["board"]}, "metadata": {}},
        _stream("stdout", ["d\n"]),  # a display between: not joined across it
        _stream("stderr", ["e\n", "f\n"]),
    ]
    before = path.read_text()
    tidy.tidy(str(path))  # nothing more to change: the file stays as it is
    assert path.read_text() == before


def test_every_committed_notebook_is_already_tidy():
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        for cell in notebook["cells"]:
            outputs = cell.get("outputs", [])
            assert tidy._join_streams([dict(o) for o in outputs]) == outputs, path.name
            assert "execution" not in cell.get("metadata", {}), path.name
