"""Fixtures of the real-browser tests: one JupyterLab server and one headless Chromium.

* ``lab_server`` starts ``jupyter lab --no-browser`` on a free loopback port with no token,
  its config and runtime folders in a temporary folder (the data folder stays the default one,
  where the ipywidgets lab extension lives), the news toast off, the notebook windowing mode
  pinned to "contentVisibility" (every cell in the DOM), autosave off and a pre-save hook that
  refuses every save: the tests run the course notebooks in place and must never write them.
* ``lab_browser`` is Debian's Chromium (``/usr/bin/chromium``, or ``$MINITORCH_CHROMIUM``)
  driven by Playwright, headless, with a fresh profile. Playwright's own browsers are never
  downloaded.

Both are made once per session and shared by every notebook, which run one after another. The
tests skip, with the reason, where Chromium, Playwright or JupyterLab is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts" / "browser"
CHROMIUM = os.environ.get("MINITORCH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-default-apps",
    "--disable-extensions",
]
VIEWPORT = {"width": 1280, "height": 900}

# JupyterLab settings for the test server (written into its temporary config folder).
USER_SETTINGS = {
    # every cell is in the DOM (JupyterLab 4.6's default; "full" would detach cells out of view)
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "contentVisibility"},
    # the notebooks are run in place: never write them back
    "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false",
                                                     "checkForUpdates": False},
}
PAGE_CONFIG = {
    "disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True},
    # no "is the JupyterLab build up to date?" check (node and yarn) on every page load
    "buildCheck": False, "buildAvailable": False,
}
SERVER_CONFIG = '''\
# Written by tests/browser/conftest.py: the browser tests never save a notebook.
from tornado.web import HTTPError


def _refuse_save(model=None, path="", contents_manager=None, **kwargs):
    raise HTTPError(403, f"the browser tests do not save files ({path})")


c.ContentsManager.pre_save_hook = _refuse_save
'''

# Timings of every notebook, printed at the end of the session.
TIMINGS: dict[str, dict[str, float]] = {}


def missing_requirement() -> str | None:
    """Why the browser tests cannot run here, or ``None`` when they can."""
    if not Path(CHROMIUM).exists():
        return (f"chromium not found at {CHROMIUM}: apt-get install chromium "
                "(or set MINITORCH_CHROMIUM to a Chromium binary)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return ("python package playwright not installed: pip install playwright "
                "(no browser download needed; the tests drive the system Chromium)")
    for module, extra in (("jupyterlab", "course"), ("ipywidgets", "course"),
                          ("jupyterlab_widgets", "course"), ("ipykernel", "test")):
        try:
            __import__(module)
        except ImportError:
            return f"python package {module} not installed: pip install -e '.[{extra}]'"
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def _write_config(config_dir: Path) -> None:
    for plugin, settings in USER_SETTINGS.items():
        path = config_dir / "lab" / "user-settings" / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings))
    (config_dir / "labconfig").mkdir(parents=True, exist_ok=True)
    (config_dir / "labconfig" / "page_config.json").write_text(json.dumps(PAGE_CONFIG))
    (config_dir / "jupyter_server_config.py").write_text(SERVER_CONFIG)


class LabServer:
    """A running ``jupyter lab`` (``url`` is its base URL, ``log`` its output file)."""

    def __init__(self, process: subprocess.Popen, url: str, log: Path) -> None:
        self.process, self.url, self.log = process, url, log

    def log_tail(self, n: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""

    def api(self, method: str, path: str) -> object:
        request = urllib.request.Request(self.url + path, method=method)
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
        return json.loads(body) if body else None

    def shutdown_kernels(self) -> None:
        """End every session (and its kernel), so each notebook starts from a quiet machine."""
        try:
            for session in self.api("GET", "/api/sessions") or []:
                self.api("DELETE", f"/api/sessions/{session['id']}")
        except (urllib.error.URLError, OSError, ValueError):
            pass

    def stop(self) -> None:
        """SIGTERM the process group (the server then shuts its kernels down), then SIGKILL."""
        self.shutdown_kernels()
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.process.wait(timeout=10)


@pytest.fixture(scope="session")
def browser_timings() -> dict[str, dict[str, float]]:
    """Per-notebook timings (seconds by phase), printed at the end of the session."""
    return TIMINGS


@pytest.fixture(scope="session")
def browser_requirements() -> None:
    reason = missing_requirement()
    if reason:
        pytest.skip(reason)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """``tests/artifacts/browser/`` (each notebook's test empties its own folder in it)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def lab_server(browser_requirements, artifacts: Path):
    """A JupyterLab server on 127.0.0.1 with the repository as its root; stopped at the end."""
    tmp = Path(tempfile.mkdtemp(prefix="minitorch-lab-"))
    config_dir, runtime_dir = tmp / "config", tmp / "runtime"
    runtime_dir.mkdir(parents=True)
    _write_config(config_dir)
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(config_dir),
               JUPYTER_RUNTIME_DIR=str(runtime_dir), PYTHONUNBUFFERED="1")
    env.pop("JUPYTER_TOKEN", None)
    port = _free_port()
    command = [
        sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
        "--ServerApp.port_retries=0", "--ServerApp.token=", "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True", f"--ServerApp.root_dir={ROOT}",
        "--LabApp.expose_app_in_browser=True", "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.extension_manager=readonly",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")  # CI containers run as root
    log = artifacts / "jupyter-lab.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                                   stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    server = LabServer(process, f"http://127.0.0.1:{port}", log)
    try:
        deadline = time.monotonic() + 90
        while not _answers(server.url + "/api/status"):
            if process.poll() is not None:
                pytest.fail(f"jupyter lab exited with {process.returncode}:\n{server.log_tail()}")
            if time.monotonic() > deadline:
                pytest.fail(f"jupyter lab did not answer within 90 s:\n{server.log_tail()}")
            time.sleep(0.3)
        yield server
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="session")
def lab_browser(browser_requirements):
    """A Playwright ``BrowserContext`` of headless Chromium with a fresh profile."""
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="minitorch-chromium-")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
            viewport=VIEWPORT, device_scale_factor=1, timeout=60_000,
        )
        try:
            yield context
        finally:
            context.close()
    shutil.rmtree(profile, ignore_errors=True)


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    if not TIMINGS:
        return
    write = terminalreporter.write_line
    terminalreporter.section("notebooks in the browser (seconds)")
    phases = ["page", "open", "run", "render", "interact", "screenshots", "total"]
    write(f"{'notebook':<44}" + "".join(f"{p:>12}" for p in phases))
    for name, timing in TIMINGS.items():
        write(f"{name:<44}" + "".join(f"{timing.get(p, 0.0):>12.1f}" for p in phases))
    write(f"{'all notebooks':<44}{'':>72}"
          f"{sum(t.get('total', 0.0) for t in TIMINGS.values()):>12.1f}")
    write(f"screenshots and reports: {ARTIFACTS.relative_to(ROOT)}/")
