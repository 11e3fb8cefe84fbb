"""Drop what a rerun changes without the computation changing it: widget views, where printed
text happened to be cut into pieces, and the times a cell was executed.

``make reproduce`` executes the notebooks without storing widget state, so a saved
widget view (a random model id) can never be shown again; its plain-text form stays
(the explorer's is the position and its status line). A cell's printed text arrives in as many
stream outputs as the kernel happened to flush, which differs from run to run: adjacent pieces of
one stream are joined into one output (nbval compares them joined too). A cell's execution times
(``metadata.execution``, written by nbconvert without ``record_timing=False``, and kept by it after) are
dropped.
Usage: python notebooks/tidy.py NB...
"""

import json
import sys

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def tidy(path: str) -> None:
    """Rewrite the notebook at ``path`` without widget views or execution times and with each run of one
    stream joined, if it has anything to change."""
    with open(path, encoding="utf-8") as handle:
        notebook = json.load(handle)
    changed = False
    for cell in notebook["cells"]:
        if cell.get("metadata", {}).pop("execution", None) is not None:
            changed = True
        outputs = cell.get("outputs", [])
        for output in outputs:
            if WIDGET_VIEW in output.get("data", {}):
                del output["data"][WIDGET_VIEW]
                changed = True
        joined = _join_streams(outputs)
        if len(joined) != len(outputs):
            cell["outputs"] = joined
            changed = True
    if changed:
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(notebook, handle, indent=1, ensure_ascii=False)
            handle.write("\n")


def _join_streams(outputs: list[dict]) -> list[dict]:
    """The outputs with each run of adjacent outputs of one stream (stdout, stderr) made one."""
    joined: list[dict] = []
    for output in outputs:
        last = joined[-1] if joined else None
        if (
            last is not None
            and output.get("output_type") == last.get("output_type") == "stream"
            and output.get("name") == last.get("name")
        ):
            last["text"] = (_text(last) + _text(output)).splitlines(keepends=True)  # stored as lines
        else:
            joined.append(output)
    return joined


def _text(output: dict) -> str:
    text = output["text"]
    return "".join(text) if isinstance(text, list) else text


if __name__ == "__main__":
    for name in sys.argv[1:]:
        tidy(name)
