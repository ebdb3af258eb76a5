"""The grader's side inside a learner's kernel: rerun a chapter's checks on the learner's names.

``python -m minitorch.exercises grade`` (:mod:`.grading`) runs the learner's cells, then loads
*this file* into the same kernel by its path, under a fresh private name, and runs one cell per
check. Nothing the notebook did can stand in for a check:

* the checks come from fresh copies of the package's files, imported under a private package
  name that did not exist while the learner's cells ran, so a redefined ``check_mul`` or a
  monkeypatched ``minitorch.exercises.runner.run_check`` is never called (and the learner's
  ``minitorch`` must be the grader's own: not another copy found on the path);
* the verdict is the private runner's own :class:`CheckResult`, written to a file in a folder
  outside the notebook's working folder, tagged with a random token that appears only in the
  grader's cells; what the notebook printed or wrote is never read.

This is not a sandbox: code that sets out to attack the grader from inside the same process
(rewriting NumPy or the import system) is beyond what any in-process grader can rule out. Run
submissions you do not trust in a throwaway container or CI runner, as GitHub Classroom does.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
import types

_STATES: dict[str, dict] = {}


def load(exercises_dir: str, module: str, results: str, token: str, case_limit: float) -> None:
    """Import fresh copies of the runner and of chapter ``module`` (from ``exercises_dir``)
    under the private package ``_minitorch_grader_<token>``."""
    import minitorch

    expected = os.path.dirname(os.path.realpath(exercises_dir))
    found = os.path.dirname(os.path.realpath(getattr(minitorch, "__file__", None) or "?"))
    if found != expected:
        raise RuntimeError(f"the notebook uses the minitorch in {found}, not the grader's "
                           f"({expected})")
    package_name = f"_minitorch_grader_{token}"
    package = types.ModuleType(package_name)
    package.__path__ = [exercises_dir]
    package.__package__ = package_name
    sys.modules[package_name] = package
    runner = importlib.import_module(f"{package_name}.runner")
    runner.CheckResult.show = lambda self: None  # the grader reports; the kernel shows nothing
    runner.set_time_limit(case_limit)
    chapter = importlib.import_module(f"{package_name}.{module}")
    _STATES[token] = {"runner": runner, "chapter": chapter, "results": results}


def _write(state: dict, token: str, record: dict) -> None:
    record["token"] = token
    with open(state["results"], "a", encoding="utf-8") as file:
        file.write(json.dumps(record) + "\n")
        file.flush()
        os.fsync(file.fileno())


def run(token: str, check: str, name: str, namespace: dict) -> None:
    """Run ``check`` on ``namespace[name]`` and append its verdict to the results file."""
    state = _STATES[token]
    _write(state, token, {"check": check, "event": "start"})
    if name not in namespace:
        _write(state, token, {"check": check, "status": "not attempted",
                              "message": f"`{name}` is not defined in the notebook"})
        return
    runner = state["runner"]
    runner._last.result = None
    message = "the check gave no result"
    start = time.perf_counter()
    try:
        getattr(state["chapter"], check)(namespace[name])
        result = runner.last_result()
    except BaseException as error:
        result, message = None, f"the check itself raised {type(error).__name__}: {error}"
    seconds = time.perf_counter() - start
    if result is None:
        _write(state, token, {"check": check, "status": "error", "seconds": seconds,
                              "message": message})
        return
    _write(state, token, {
        "check": check, "title": result.title, "status": result.status, "seconds": seconds,
        "cases": [result.n_passed, result.n_total], "case": result.case,
        "lines": list(result.lines)})
