"""Execute a chapter with nbclient, errors kept in its outputs, and write it out; print how
long it took and which cells raised. (For a GPU machine: ``scripts/gpu_check.sh``.)

Usage: python3 scripts/gpu_exec_notebook.py notebooks/11_gpu.ipynb out.ipynb
"""

import sys
import time

import nbformat
from nbclient import NotebookClient


def main(src: str, dst: str) -> None:
    nb = nbformat.read(src, as_version=4)
    start = time.time()
    NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": "notebooks"}}).execute()
    nbformat.write(nb, dst)
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    print(f"{src}: {time.time() - start:.1f} s, {len(errors)} cells raised")
    for e in errors:
        print("  ", e["ename"], e["evalue"][:300])


if __name__ == "__main__":
    main(*sys.argv[1:3])
