"""Executes a notebook headless and checks what it shows: python/build_and_test.sh runs the tour
(examples/tour.ipynb) so, as CI does.

    python examples/run_notebook.py examples/tour.ipynb dist/tour.ipynb

The notebook is run by nbclient in a kernel of this Python (ipykernel), from its own folder, and
written executed to the second path (the source is left as it is). Then its outputs must hold a
board (`image/svg+xml`, a Position's `_repr_svg_`), a replay page (`text/html`, a Record's
`_repr_html_`: an iframe holding the page, with its boards and its verdict) and a picture
(`image/png`, the histogram); a cell that raised fails the run.
"""

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient


def outputs(notebook, mime):
    """The data of every output of `mime` type, in order."""
    return [
        o["data"][mime]
        for cell in notebook.cells
        if cell.cell_type == "code"
        for o in cell.get("outputs", [])
        if mime in o.get("data", {})
    ]


def check(notebook):
    """What the executed notebook must show; the problems, in words."""
    problems = []
    boards = [svg for svg in outputs(notebook, "image/svg+xml") if "<svg" in svg]
    if not boards:
        problems.append("no board: no image/svg+xml output holds an <svg>")
    replays = [
        page
        for page in outputs(notebook, "text/html")
        if page.startswith("<iframe srcdoc=") and "&lt;svg" in page and "illegal: Quarod" in page
    ]
    if not replays:
        problems.append("no replay: no text/html output is an iframe holding boards and the verdict")
    if not outputs(notebook, "image/png"):
        problems.append("no histogram: no image/png output")
    return problems


def main(source, executed):
    started = time.monotonic()
    notebook = nbformat.read(source, as_version=4)
    # The kernel is this Python's (ipykernel), run from the notebook's folder.
    resources = {"metadata": {"path": str(Path(source).parent)}}
    client = NotebookClient(notebook, timeout=600, kernel_name="python3", resources=resources)
    client.execute()
    Path(executed).parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, executed)
    problems = check(notebook)
    for p in problems:
        print(f"{source}: {p}", file=sys.stderr)
    print(f"{source}: executed in {time.monotonic() - started:.1f} s, written to {executed}")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
