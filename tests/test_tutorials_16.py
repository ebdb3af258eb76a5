"""The tutorial-style programs in tests/tutorials/ run with minitorch and print PyTorch's
numbers: each runs once as written (``import minitorch as torch``) and once with ``minitorch``
replaced by ``torch``; the printed text must agree exactly and every number to float32
rounding."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

HERE = Path(__file__).parent / "tutorials"
SCRIPTS = sorted(p.name for p in HERE.glob("*.py"))
NUMBER = re.compile(r"-?\d+\.?\d*(?:e[-+]?\d+)?")
ADDRESS = re.compile(r"0x[0-9a-f]+")  # an object's address in its repr
ROOT = Path(__file__).parent.parent


def _run(source: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONWARNINGS="ignore")
    done = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True,
                          env=env, cwd=HERE, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _normalise(text: str) -> str:
    # minitorch prints "minitorch" where PyTorch prints "torch" only in a few reprs (modules);
    # objects' addresses differ; the rest of the text, numbers blanked and spaces collapsed,
    # must be the same
    text = ADDRESS.sub("0xADDR", text.replace("minitorch", "torch"))
    return re.sub(r"\s+", " ", NUMBER.sub("#", text)).strip()


def _numbers(text: str) -> np.ndarray:
    return np.array([float(x) for x in NUMBER.findall(ADDRESS.sub("0xADDR", text))])


@pytest.mark.parametrize("script", SCRIPTS)
def test_tutorial_prints_pytorchs_numbers(script):
    source = (HERE / script).read_text()
    assert "import minitorch as torch" in source
    mine = _run(source)
    ref = _run(source.replace("minitorch", "torch"))
    assert _normalise(mine) == _normalise(ref), f"\n--- minitorch\n{mine}\n--- torch\n{ref}"
    np.testing.assert_allclose(_numbers(mine), _numbers(ref), rtol=2e-4, atol=2e-4,
                               err_msg=f"\n--- minitorch\n{mine}\n--- torch\n{ref}")
