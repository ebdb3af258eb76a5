"""The README's first command, ``bash scripts/course.sh``, really starts the course.

It installs the package with the ``course`` extra into the active environment and starts
JupyterLab on chapter 00. JupyterLab refuses to run as root unless told it is meant, and root is
the only user in a Docker container or on many cloud VMs, so the script passes ``--allow-root``
there. This test runs the script as whoever runs the suite (root in CI), waits until JupyterLab
serves chapter 00, and stops it.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


def test_course_command_starts_jupyterlab_on_chapter_00(tmp_path):
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
               JUPYTER_CONFIG_DIR=str(tmp_path / "config"), BROWSER="true")
    log = tmp_path / "jupyter.log"
    with open(log, "w") as out:
        process = subprocess.Popen(
            ["bash", "scripts/course.sh", "--no-browser", "--ServerApp.port=0",
             "--IdentityProvider.token=minitorch-test"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)
    try:
        url = None
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and process.poll() is None:
            match = re.search(r"(http://(?:127\.0\.0\.1|localhost):\d+/)\S*", log.read_text())
            if match:
                url = match.group(1)
                break
            time.sleep(1)
        text = log.read_text()
        assert url, f"JupyterLab did not start (exit code {process.poll()}):\n{text[-3000:]}"
        assert "Running as root is not recommended" not in text
        # JupyterLab serves from the folder of the notebook it was asked to open, or above it
        found = []
        for path in ("00_start_here.ipynb", "notebooks/00_start_here.ipynb"):
            try:
                urllib.request.urlopen(f"{url}api/contents/{path}?token=minitorch-test&content=0",
                                       timeout=30)
                found.append(path)
            except urllib.error.HTTPError:
                pass
        assert found, f"JupyterLab at {url} does not serve chapter 00:\n{text[-3000:]}"
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
