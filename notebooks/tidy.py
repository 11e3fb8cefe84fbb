"""Drop what a rerun changes without the computation changing it: widget views.

``make reproduce`` executes the notebooks without storing widget state, so a saved
widget view (a random model id) can never be shown again; its plain-text form stays
(the explorer's is the position and its status line). Usage: python notebooks/tidy.py NB...
"""

import json
import sys

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def tidy(path: str) -> None:
    """Rewrite the notebook at ``path`` without widget views, if it has any."""
    with open(path, encoding="utf-8") as handle:
        notebook = json.load(handle)
    changed = False
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            if WIDGET_VIEW in output.get("data", {}):
                del output["data"][WIDGET_VIEW]
                changed = True
    if changed:
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(notebook, handle, indent=1, ensure_ascii=False)
            handle.write("\n")


if __name__ == "__main__":
    for name in sys.argv[1:]:
        tidy(name)
