"""Every op of the OpInfo table on a device, against the same op on the CPU.

``test_opinfo.py`` compares each sample with PyTorch on the CPU. Here each sample runs twice in
minitorch, once with its tensors on the CPU and once on a device, and the two must agree:
values, dtypes, shapes, gradients (second-order ones too), errors; and every tensor the op
returns must be on the device (an op that quietly builds its result on the CPU would leave a
GPU user's next step failing with "Expected all tensors to be on the same device").

The device is the GPU where minitorch can use one (CuPy), the pretend GPU otherwise (CI). CuPy
refuses to turn its arrays into NumPy arrays behind the program's back; the pretend GPU's
arrays are NumPy arrays, so on the pretend GPU minitorch's modules see a NumPy whose
``asarray``/``array``/``ascontiguousarray`` refuse them the same way. The first run of this
table on an H100 found ops that crashed on CuPy in just those places (``all``, ``any``, the
norms, ``argmax``, ``where`` with two numbers, factories with ``out=``, the backward of
``interpolate``) and backward formulas that made CPU tensors (``prod``, ``det``, ``svdvals``).
"""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest
from _opinfo_samples import AGREE, OPS, SAME_EXC, A, compare, run

import minitorch
from minitorch.backends.pretend import PretendArray, add_pretend_gpu

ON_CUDA = minitorch.cuda.is_available()

# Ops whose result belongs on the CPU whatever the input's device.
ON_THE_CPU_BY_DESIGN = {"method:cpu"}

# Where a real GPU gives other answers than the CPU, as PyTorch's CUDA build does too
# (sample-id prefixes). Not used on the pretend GPU, which computes with NumPy.
CUDA_DIFFERENCES = {
    # a float that is inf, NaN or out of range has no integer value: C leaves the conversion
    # undefined, and a GPU's answer differs from the CPU's
    "method:int[inf]", "method:int[nan]", "method:long[inf]", "method:to[inf-", "method:to[nan-",
    "method:type[inf-", "method:type[nan-", "method:type_as[inf]",
    "method:to[ordinary-uint8]", "method:to[noncontig-uint8]", "method:to[float16-uint8]",
    "method:type[ordinary-uint8]", "method:type[noncontig-uint8]", "method:type[float16-uint8]",
    # fmod of inf and of huge quotients, and gradients at the edge of overflow: CUDA's
    # elementwise kernels round (and fuse multiply-adds) differently
    "fn:remainder[inf]", "fn:remainder[f32-scalar-big]", "method:remainder[inf]",
    "method:remainder[f32-scalar-big]", "misc[overflowing-grad-",
    # CuPy's linalg does not report singular matrices (PyTorch's CUDA build does), nor
    # broadcast solve's right-hand side as NumPy does
    "linalg:inv[singular]", "linalg:inv[zeros]", "linalg:solve[singular]",
    "linalg:solve[broadcast]",
}

_MESSAGE = ("Implicit conversion to a NumPy array is not allowed. Please use `.get()` to "
            "construct a NumPy array explicitly.")


def _refusing(fn):
    def strict(a, *args, **kwargs):
        if isinstance(a, PretendArray) or (
                isinstance(a, (list, tuple)) and any(isinstance(x, PretendArray) for x in a)):
            raise TypeError(_MESSAGE)  # CuPy's words
        return fn(a, *args, **kwargs)
    return strict


class _CupyStrictNumpy:
    """NumPy as minitorch's modules see it during these tests: like CuPy, it will not turn a
    device array into a host array implicitly."""

    asarray = staticmethod(_refusing(np.asarray))
    array = staticmethod(_refusing(np.array))
    ascontiguousarray = staticmethod(_refusing(np.ascontiguousarray))

    def __getattr__(self, name):
        return getattr(np, name)


@pytest.fixture(scope="module")
def device():
    if ON_CUDA:
        yield minitorch.device("cuda")
        return
    sim = add_pretend_gpu()
    strict = _CupyStrictNumpy()
    patched = [m for name, m in list(sys.modules.items())
               if name.startswith("minitorch") and "pretend" not in name
               and getattr(m, "np", None) is np]
    for module in patched:
        module.np = strict
    try:
        yield sim
    finally:
        for module in patched:
            module.np = np


def _has_tensor(x) -> bool:
    if isinstance(x, A):
        return True
    if isinstance(x, (list, tuple)):
        return any(_has_tensor(y) for y in x)
    if isinstance(x, dict):
        return any(_has_tensor(y) for y in x.values())
    return False


def test_the_strict_numpy_refuses_device_arrays(device):
    """The check above must be able to fail: a module's ``np.asarray`` of a device array."""
    if ON_CUDA:
        pytest.skip("on a real GPU CuPy itself refuses")
    from minitorch.ops import reduction

    with pytest.raises(TypeError, match="Implicit conversion"):
        reduction.np.asarray(minitorch.ones(2, device=device)._data)
    assert reduction.np.asarray(np.ones(2)).shape == (2,)


@pytest.mark.parametrize("op", sorted(OPS))
def test_op_on_a_device_matches_the_cpu(op, device):
    problems = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for s in OPS[op]():
            if ON_CUDA and any(s.id.startswith(k) for k in CUDA_DIFFERENCES):
                continue
            on_cpu, on_device = run(minitorch, s), run(minitorch, s, device=device)
            verdict, detail = compare(on_device, on_cpu, s)
            if verdict not in (AGREE, SAME_EXC):
                problems.append(f"{s.id}: {verdict}: {detail}")
            elif (op not in ON_THE_CPU_BY_DESIGN and _has_tensor((s.args, s.kwargs))
                  and not on_device.error):
                elsewhere = [d for d in on_device.devices if d != device.type]
                if elsewhere:
                    problems.append(f"{s.id}: a result on {elsewhere[0]}, not on {device}")
    assert not problems, "\n".join(problems)
