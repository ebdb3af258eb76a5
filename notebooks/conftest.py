"""pytest configuration for the notebook tests (nbval).

nbval sends every cell with ``store_history=False``. IPython decides whether a trailing ``;``
silences a cell's result by looking at the last cell *stored in its history*, so under nbval
``check_something(fn);`` would still print ``True``, while JupyterLab, Colab and
``scripts/notebooks.py execute`` (nbclient) print nothing. Run the cells as Jupyter does, with
``store_history=True``, so the stored outputs and the tested outputs agree.
"""

from __future__ import annotations

try:
    from nbval.kernel import RunningKernel
except ImportError:  # nbval is not installed: nothing to configure
    RunningKernel = None

if RunningKernel is not None:

    def _execute_cell_input(self, cell_input, allow_stdin=None):
        return self.kc.execute(cell_input, store_history=True, allow_stdin=allow_stdin,
                               stop_on_error=False)

    RunningKernel.execute_cell_input = _execute_cell_input
