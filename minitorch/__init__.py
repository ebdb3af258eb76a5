"""minitorch: PyTorch's autograd, rebuilt small enough to read, on NumPy.

``import minitorch as torch`` runs PyTorch tutorial code: the names, printed output and errors
follow PyTorch 2.x. The package is built chapter by chapter in the course notebooks:

========================  ==================================================
chapter                   module
========================  ==================================================
01 Tensors                ``minitorch/_tensor.py``, ``_creation.py``
02 Recording the DAG      ``minitorch/autograd/function.py``, ``ops/``
03 Backward               ``minitorch/autograd/engine.py``
04 no_grad                ``minitorch/autograd/grad_mode.py``
========================  ==================================================
"""

from minitorch import _dtype
from minitorch._creation import (
    arange,
    as_tensor,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    normal,
    ones,
    ones_like,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
    tensor,
    zeros,
    zeros_like,
)
from minitorch._device import device
from minitorch._dtype import (
    bool,
    double,
    dtype,
    float,
    float16,
    float32,
    float64,
    get_default_dtype,
    half,
    int,
    int8,
    int16,
    int32,
    int64,
    long,
    promote_types,
    set_default_dtype,
    short,
    uint8,
)
from minitorch._random import (
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
from minitorch._size import Size
from minitorch._tensor import Tensor
from minitorch._tensor_str import set_printoptions
from minitorch.autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from minitorch.ops.arithmetic import (
    add,
    clamp,
    clip,
    div,
    eq,
    ge,
    gt,
    le,
    logical_and,
    logical_not,
    logical_or,
    lt,
    masked_fill,
    maximum,
    minimum,
    mul,
    ne,
    neg,
    pow,
    reciprocal,
    sub,
    where,
)
from minitorch.ops.indexing import gather
from minitorch.ops.linalg import bmm, dot, matmul, mm, mv
from minitorch.ops.reduction import (
    all,
    amax,
    amin,
    any,
    argmax,
    argmin,
    max,
    mean,
    min,
    norm,
    std,
    sum,
    var,
)
from minitorch.ops.shape import (
    cat,
    chunk,
    concat,
    concatenate,
    flatten,
    permute,
    reshape,
    split,
    squeeze,
    stack,
    t,
    transpose,
    unbind,
    unsqueeze,
)
from minitorch.ops.unary import abs, cos, exp, log, relu, sigmoid, sign, sin, sqrt, tanh
from minitorch import autograd, nn, return_types  # noqa: E402  (subpackages)
from minitorch.autograd import graph as _graph  # noqa: E402
from minitorch.autograd.gradcheck import gradcheck as _gc, gradgradcheck as _ggc  # noqa: E402

autograd.gradcheck, autograd.gradgradcheck, autograd.graph = _gc, _ggc, _graph

__version__ = "0.1.0"

subtract, multiply, divide, true_divide, negative = sub, mul, div, div, neg
absolute = abs


def broadcast_shapes(*shapes) -> Size:
    """The shape that tensors of ``shapes`` broadcast to, or PyTorch's error.

    >>> broadcast_shapes((2, 1), (3,))
    torch.Size([2, 3])
    """
    import numpy as _np

    try:
        return Size(_np.broadcast_shapes(*[tuple(s) if hasattr(s, "__len__") else (s,)
                                          for s in shapes]))
    except ValueError:
        from minitorch.ops._util import broadcast_error

        raise broadcast_error(*shapes[:2]) from None


def set_num_threads(n: int) -> None:
    """Let NumPy's BLAS (minitorch's matrix products) use ``n`` threads, as
    ``torch.set_num_threads`` does for PyTorch. One thread is often fastest for small models."""
    from minitorch.utils.threads import set_num_threads as _set

    _set(n)


def get_num_threads() -> "int | None":
    """The number of BLAS threads (None when threadpoolctl is not installed to tell)."""
    from minitorch.utils.threads import get_num_threads as _get

    return _get()


def numel(input: Tensor) -> int:  # noqa: A002
    """The number of elements of ``input``."""
    return input.numel()


def is_tensor(obj) -> bool:
    """Whether ``obj`` is a minitorch Tensor."""
    return isinstance(obj, Tensor)


def clone(input: Tensor) -> Tensor:  # noqa: A002
    return input.clone()


def detach(input: Tensor) -> Tensor:  # noqa: A002
    return input.detach()


def square(input: Tensor) -> Tensor:  # noqa: A002
    return input * input


def allclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,  # noqa: A002
             equal_nan: bool = False) -> bool:
    return input.allclose(other, rtol, atol, equal_nan)


def equal(input: Tensor, other: Tensor) -> bool:  # noqa: A002
    return input.equal(other)


def isnan(input: Tensor) -> Tensor:  # noqa: A002
    return input.isnan()


def isfinite(input: Tensor) -> Tensor:  # noqa: A002
    return input.isfinite()


def _lazy_submodule(name):
    import importlib

    return importlib.import_module(f"minitorch.{name}")


def __getattr__(name: str):
    # Heavier parts load on first use, so `import minitorch` stays fast.
    if name in ("optim", "utils", "datasets", "viz", "exercises", "cuda", "testing",
                "serialization"):
        return _lazy_submodule(name)
    if name in ("save", "load"):  # torch.save / torch.load, in PyTorch's file format
        return getattr(_lazy_submodule("serialization"), name)
    raise AttributeError(f"module 'minitorch' has no attribute '{name}'")


del _dtype
