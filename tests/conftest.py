"""Test-wide settings.

Hypothesis draws its examples from a random seed. Under CI (``CI`` set, as ``.ci/run`` runs)
the seed is fixed (``derandomize``), so that a submission's CI result cannot depend on the luck
of the draw: nothing unpinned decides whether the suite passes. Locally the draws vary from run
to run and keep exploring; a failure they find prints the example to add as a regression case.
No deadline anywhere: this 2-core machine is shared, and a slow example is not a wrong one.

Checks save their verdicts for the progress table (``minitorch/exercises/progress.py``): during
the tests, in this process and in every kernel or server it starts, they go to a temporary file
instead of the tester's ``~/.minitorch/progress.json``.
"""

from __future__ import annotations

import os
import tempfile

import pytest

_progress_folder = tempfile.TemporaryDirectory(prefix="minitorch-test-progress-")
os.environ["MINITORCH_PROGRESS"] = os.path.join(_progress_folder.name, "progress.json")

try:
    from hypothesis import settings
except ImportError:  # Hypothesis is part of the test extra; without it nothing to configure
    settings = None

if settings is not None:
    settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
    settings.register_profile("dev", deadline=None, print_blob=True)
    settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _minitorch_warning_filter():
    """The warnings filter that ``import minitorch`` installs, as a learner's session has it.

    minitorch drops NumPy's floating-point warnings from its own code (PyTorch has none; see
    ``minitorch/ops/_util.py``). pytest imports the test modules, and so minitorch, inside
    ``warnings.catch_warnings`` and runs each test inside another made from the filters it
    saw before: the filter would be gone. It is put back for each test.
    """
    from minitorch.ops._util import drop_numpy_fp_warnings

    drop_numpy_fp_warnings()


@pytest.fixture
def gpu():
    """The device "cuda" as the pretend GPU (``minitorch.backends.pretend``: NumPy behind a
    wall, with CuPy's refusals), registered for one test and taken away after it."""
    import minitorch
    from minitorch import _backend
    from minitorch.backends.pretend import PretendGPU

    old = _backend.register_backend("cuda", PretendGPU())
    old_flag = _backend.devices_in_use
    try:
        yield minitorch.device("cuda")
    finally:
        _backend.register_backend("cuda", old)
        _backend.devices_in_use = old_flag
