"""pytest configuration for the notebook tests (nbval).

Two adjustments, each so that nbval compares what *we* print and nothing that an unpinned
program renders:

1. nbval sends every cell with ``store_history=False``. IPython decides whether a trailing ``;``
   silences a cell's result by looking at the last cell *stored in its history*, so under nbval
   ``check_something(fn);`` would still print ``True``, while JupyterLab, Colab and
   ``scripts/notebooks.py execute`` (nbclient) print nothing. Run the cells as Jupyter does, with
   ``store_history=True``, so the stored outputs and the tested outputs agree.
2. Every kernel saves check verdicts to a fresh, empty progress file of its own (never the
   home folder's ``~/.minitorch/progress.json``), so chapter 00's progress table shows what
   that notebook's own checks did, whatever ran before.
3. Graph pictures are SVG drawn by Graphviz's ``dot``, an apt package whose output bytes change
   from one version to the next. nbval already skips PNG images; skip SVG the same way. The
   picture's plain-text form (``text/plain``, the graph as an indented tree that minitorch
   writes) is stored next to it and *is* compared, and ``tests/test_viz.py`` checks that the DOT
   text we hand to ``dot`` is deterministic.
"""

from __future__ import annotations

import itertools
import os
import tempfile

SKIP_COMPARE = ("image/svg+xml",)

try:
    from nbval.kernel import RunningKernel
    from nbval.plugin import IPyNbFile
except ImportError:  # nbval is not installed: nothing to configure
    RunningKernel = IPyNbFile = None

if RunningKernel is not None:

    def _execute_cell_input(self, cell_input, allow_stdin=None):
        return self.kc.execute(cell_input, store_history=True, allow_stdin=allow_stdin,
                               stop_on_error=False)

    RunningKernel.execute_cell_input = _execute_cell_input

    _nbval_start_kernel = RunningKernel.__init__
    _progress_folder = tempfile.TemporaryDirectory(prefix="minitorch-nbval-")  # removed at exit
    _kernel_numbers = itertools.count(1)

    def _start_kernel_with_fresh_progress(self, *args, **kwargs):
        saved = os.environ.get("MINITORCH_PROGRESS")
        os.environ["MINITORCH_PROGRESS"] = os.path.join(
            _progress_folder.name, f"progress-{next(_kernel_numbers)}.json")
        try:  # the kernel inherits the environment as it starts
            _nbval_start_kernel(self, *args, **kwargs)
        finally:
            if saved is None:
                del os.environ["MINITORCH_PROGRESS"]
            else:
                os.environ["MINITORCH_PROGRESS"] = saved

    RunningKernel.__init__ = _start_kernel_with_fresh_progress

    _nbval_init = IPyNbFile.__init__

    def _init_skipping_svg(self, *args, **kwargs):
        _nbval_init(self, *args, **kwargs)
        self.skip_compare = tuple(self.skip_compare) + SKIP_COMPARE

    IPyNbFile.__init__ = _init_skipping_svg
