"""minitorch: PyTorch's autograd, rebuilt small enough to read, on NumPy.

``import minitorch as torch`` runs PyTorch tutorial code: the names, printed output and errors
follow PyTorch 2.x. The package is built chapter by chapter in the course notebooks:

========================  ==================================================
chapter                   module
========================  ==================================================
01 Tensors                ``minitorch/_tensor.py``, ``_creation.py``
02 Recording the DAG      ``minitorch/autograd/function.py``, ``ops/``
03, 04 Backward           ``minitorch/autograd/engine.py``
05 Checking gradients     ``minitorch/autograd/gradcheck.py``, ``functional.py``
06 no_grad                ``minitorch/autograd/grad_mode.py``
========================  ==================================================

Layers
------
A module imports only from its own layer and the layers below it, when it is loaded and inside
its functions alike, and no modules import each other in a circle: a learner who reads
``a * b`` can follow it down and never back up. ``tests/test_layers.py`` reads this list and
checks it. ``name.*`` is a package and everything in it; every module must be on the list.

1. ``_dtype``, ``_device``, ``_size``, ``_about``, ``_tensor_str``, ``return_types``, ``_warnings``,
   ``_backend``, ``utils.threads``, ``__future__``: NumPy only (the backends register their
   device types).
2. ``autograd``, ``autograd.grad_mode``, ``autograd.function``, ``autograd.engine``,
   ``autograd.graph``, ``autograd.profiler``, ``autograd.anomaly_mode``,
   ``autograd.recorders``: the graph and the chain rule. They meet the Tensor class only at
   run time (``_tensor`` sets ``function.Tensor``); the profiler, anomaly mode and the
   recorders watch backward as observers the engine tells about each node.
3. ``_tensor``: the Tensor and its state. ``_tensor._wrap`` is the one place where an array
   becomes a Tensor.
4. ``ops.*``, ``_creation``, ``_random``, ``_legacy``: one ``Function`` per operation, and the
   functions that make tensors.
5. ``_tensor_methods``, ``_out``, ``functional``, ``linalg``, ``_linalg_torch``,
   ``autograd.functional``, ``autograd.gradcheck``, ``cuda``, ``accelerator``, ``backends.*``,
   ``autograd.variable``, ``profiler``, ``testing``, ``special``, ``func``: the operations become
   Tensor methods (``Tensor.__mul__ is ops.arithmetic.mul``), and the rest of ``torch.*`` is built
   from them.
6. ``nn.*``: layers, losses and their functional forms.
7. ``optim.*``, ``utils``, ``utils.checkpoint``, ``utils.data.*``, ``datasets.*``,
   ``serialization``: training.
8. ``minitorch``: this file, the public API.
9. ``viz.*``, ``exercises.*``: the course, on top.
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
    set_default_dtype,
    short,
    uint8,
)
# layout2 task: memory formats and layouts
from minitorch._dtype import (
    channels_last,
    channels_last_3d,
    contiguous_format,
    layout,
    memory_format,
    preserve_format,
    strided,
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
from minitorch.autograd.anomaly_mode import (
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    set_anomaly_enabled,
)
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
    clamp_max,
    clamp_min,
    clip,
    div,
    eq,
    floor_divide,
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
    remainder,
    sub,
    where,
)
from minitorch.ops.indexing import gather, narrow, select
from minitorch.ops.linalg import bmm, dot, matmul, mm, mv
from minitorch.ops.linalg import addbmm, addmm, baddbmm, cdist
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
    prod,
    std,
    sum,
    var,
)
from minitorch.ops.shape import (
    cat,
    chunk,
    concat,
    concatenate,
    diagonal,
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
from minitorch import _tensor_methods  # more Tensor methods, above ops
from minitorch import autograd, nn, return_types  # subpackages
from minitorch.autograd import graph as _graph
from minitorch.autograd.gradcheck import gradcheck as _gc, gradgradcheck as _ggc
from minitorch.functional import broadcast_shapes, norm

autograd.gradcheck, autograd.gradgradcheck, autograd.graph = _gc, _ggc, _graph

__version__ = "0.1.0"

subtract, multiply, divide, true_divide, negative = sub, mul, div, div, neg
absolute = abs


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


def clone(input: Tensor, *, memory_format=preserve_format) -> Tensor:  # noqa: A002, F811
    return input.clone(memory_format=memory_format)


def detach(input: Tensor) -> Tensor:  # noqa: A002
    return input.detach()


def square(input: Tensor) -> Tensor:  # noqa: A002
    """``input ** 2`` (a bool or integer tensor gives int64, as in PyTorch)."""
    return input.square()


def allclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,  # noqa: A002
             equal_nan: bool = False) -> bool:
    """Whether ``input`` and ``other`` are equal up to ``atol + rtol * |other|``."""
    from minitorch.ops.compare import allclose as _allclose

    return _allclose(input, other, rtol, atol, equal_nan)


def equal(input: Tensor, other: Tensor) -> bool:  # noqa: A002
    return input.equal(other)


def isnan(input: Tensor) -> Tensor:  # noqa: A002
    return input.isnan()


def isfinite(input: Tensor) -> Tensor:  # noqa: A002
    return input.isfinite()


def sin_(input: Tensor) -> Tensor:  # noqa: A002
    """``input.sin_()``: the sine of each element, written into ``input``."""
    return input.sin_()


def _lazy_submodule(name):
    import importlib

    return importlib.import_module(f"minitorch.{name}")


def __getattr__(name: str):
    # Heavier parts load on first use, so `import minitorch` stays fast.
    if name in ("optim", "utils", "datasets", "viz", "exercises", "cuda", "testing", "special",
                "serialization", "backends", "accelerator", "profiler", "functional", "linalg"):
        return _lazy_submodule(name)
    if name in ("save", "load"):  # torch.save / torch.load, in PyTorch's file format
        return getattr(_lazy_submodule("serialization"), name)
    raise AttributeError(f"module 'minitorch' has no attribute '{name}'")



# ---------------------------------------------------------------- more of PyTorch's API
from minitorch._backend import set_default_device
from minitorch._device import get_default_device
from minitorch._legacy import (
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
)
import functools as _functools

from minitorch._out import factory_with_out as _factory_out, with_out as _with_out
from minitorch.ops.arithmetic import (
    bitwise_and,
    bitwise_not_ as bitwise_not,
    bitwise_or,
    bitwise_xor,
)
from minitorch.ops.indexing import index_add, index_select
from minitorch.ops.indexing import index_copy, index_fill, take, take_along_dim
from minitorch.ops.sorting import unique
from minitorch.ops.compare import isclose
from minitorch.ops.einsum import einsum
from minitorch.ops.rounding import round
from minitorch.ops.scan import cumprod, cumsum, logsumexp
from minitorch.ops.scan import cummax, cummin
from minitorch.ops.reduction import aminmax, nanmean, nansum
from minitorch.ops.scatter import masked_select, nonzero, scatter, scatter_add
from minitorch.ops.scatter import argwhere, masked_scatter, scatter_reduce
from minitorch.ops.sampling import normal
from minitorch.ops.sampling import bernoulli, multinomial
from minitorch.ops.sorting import argsort, bincount, median, sort, topk
from minitorch.ops.sorting import kthvalue, mode
from minitorch.ops.softmax import dim_required_log_softmax as log_softmax
from minitorch.ops.softmax import dim_required_softmax as softmax
from minitorch.ops.triangular import tril, triu
from minitorch.ops.unary import acos, arccos, arcsin, arctan, asin, atan, ceil, floor
from minitorch.ops.linalg import outer
from minitorch.ops.pointwise import (
    erf,
    exp2,
    expm1,
    isinf,
    isneginf,
    isposinf,
    lerp,
    log1p,
    log2,
    log10,
    nan_to_num,
    rsqrt,
)
from minitorch.ops.shape import flip
from minitorch.ops.elementwise import (  # tan, the hyperbolic functions, atan2, addcmul...
    acosh,
    addcdiv,
    addcmul,
    arccosh,
    arcsinh,
    arctan2,
    arctanh,
    asinh,
    atan2,
    atanh,
    copysign,
    cosh,
    count_nonzero,
    deg2rad,
    erfc,
    fix,
    float_power,
    fmax,
    fmin,
    fmod,
    frac,
    gcd,
    heaviside,
    hypot,
    i0,
    lcm,
    ldexp,
    logaddexp,
    logaddexp2,
    logit,
    nextafter,
    positive,
    rad2deg,
    sgn,
    signbit,
    sinc,
    sinh,
    tan,
    trunc,
    xlogy,
)
from minitorch.ops.shape import (  # roll, movedim, the stacks, tensor_split, tile, diag...
    column_stack,
    diag,
    diag_embed,
    dstack,
    hstack,
    moveaxis,
    movedim,
    repeat_interleave,
    roll,
    row_stack,
    swapaxes,
    swapdims,
    tensor_split,
    tile,
    vstack,
)
from minitorch.functional import meshgrid
from minitorch.functional import chain_matmul
from minitorch.ops.linalg import dist, inner, kron, renorm, tensordot, trace, vdot
from minitorch._linalg_torch import (  # torch.* names of torch.linalg functions
    cholesky,
    cross,
    det,
    inverse,
    logdet,
    matrix_power,
    pinverse,
    slogdet,
    svd,
)
from minitorch._dtype import can_cast, finfo, iinfo
from minitorch.ops.type_queries import (
    is_complex,
    is_floating_point,
    is_nonzero,
    promote_types,
    result_type,
)
from minitorch.ops.indexing import index_put, index_put_, put

# ``out=``: the functions tutorials call with it write their result into a given tensor.
add, sub, mul, div, matmul, mm, bmm = (_with_out(f) for f in (add, sub, mul, div, matmul, mm,
                                                                bmm))
pow, exp, log, sqrt, sin, cos, tanh, sigmoid, abs, neg = (
    _with_out(f) for f in (pow, exp, log, sqrt, sin, cos, tanh, sigmoid, abs, neg))
clamp, maximum, minimum, cat, stack = (_with_out(f) for f in (clamp, maximum, minimum, cat,
                                                              stack))
log1p, expm1, rsqrt, log2, log10, exp2, erf = (
    _with_out(f) for f in (log1p, expm1, rsqrt, log2, log10, exp2, erf))
kron = _with_out(kron, "mul")  # PyTorch's kron(out=) is mul(out=)
vdot = _with_out(vdot)
renorm = _with_out(renorm)
(tan, sinh, cosh, asinh, acosh, atanh, arcsinh, arccosh, arctanh, deg2rad, rad2deg, sinc, erfc,
 logit, trunc, fix, frac, sgn, signbit, atan2, arctan2, hypot, copysign, logaddexp, logaddexp2,
 xlogy, fmax, fmin, fmod, addcmul, addcdiv, float_power, ldexp, nextafter, heaviside, gcd, lcm,
 i0) = (
    _with_out(f) for f in (
        tan, sinh, cosh, asinh, acosh, atanh, arcsinh, arccosh, arctanh, deg2rad, rad2deg, sinc,
        erfc, logit, trunc, fix, frac, sgn, signbit, atan2, arctan2, hypot, copysign, logaddexp,
        logaddexp2, xlogy, fmax, fmin, fmod, addcmul, addcdiv, float_power, ldexp, nextafter,
        heaviside, gcd, lcm, i0))
not_equal, greater, greater_equal, less, less_equal = ne, gt, ge, lt, le


def _outer_as_mul(input, vec2, *, _outer=outer):  # noqa: A002
    return _outer(input, vec2)


_outer_as_mul.__name__ = "mul"  # PyTorch's outer(out=) is mul(out=): its errors say mul()
outer = _functools.wraps(outer)(_with_out(_outer_as_mul))
# the aliases name the wrapped functions too
subtract, multiply, divide, true_divide, negative, absolute, clip, concat, concatenate = (  # noqa: F811
    sub, mul, div, div, neg, abs, clamp, cat, cat)
zeros, ones, empty, rand, randn, full, arange = (
    _factory_out(f) for f in (zeros, ones, empty, rand, randn, full, arange))

# the shape functions made of the shape ops (ops/rearrange.py)
from minitorch.ops.rearrange import (
    atleast_1d,
    atleast_2d,
    atleast_3d,
    broadcast_tensors,
    broadcast_to,
    dsplit,
    fliplr,
    flipud,
    hsplit,
    ravel,
    rot90,
    unflatten,
    vsplit,
)
from minitorch.ops.rearrange import diff as _diff, msort as _msort


def _diff_as_sub(*args, _diff=_diff, **kwargs):
    return _diff(*args, **kwargs)


def _msort_as_sort(*args, _msort=_msort, **kwargs):
    return _msort(*args, **kwargs)


# PyTorch's diff(out=) and msort(out=) are sub(out=) and sort(out=): their errors say so
_diff_as_sub.__name__, _msort_as_sort.__name__ = "sub", "sort"
diff = _functools.wraps(_diff)(_with_out(_diff_as_sub))
msort = _functools.wraps(_msort)(_with_out(_msort_as_sort))

# searching sorted values and counting (ops/search.py)
from minitorch.ops.search import bucketize, histc, isin, searchsorted, unravel_index
from minitorch.ops.sorting import unique_consecutive

searchsorted, bucketize, isin, histc = (_with_out(f) for f in (searchsorted, bucketize, isin,
                                                                histc))

# statistics (ops/statistics.py, ops/sorting.py)
from minitorch.ops.sorting import nanmedian
from minitorch.ops.statistics import nanquantile, quantile, std_mean, var_mean

# logspace, tril_indices, triu_indices, range (_creation.py)
from minitorch._creation import deprecated_range as range
from minitorch._creation import logspace, tril_indices, triu_indices

range, logspace = _factory_out(range), _factory_out(logspace)

# select_scatter, slice_scatter, diagonal_scatter (ops/view_scatter.py)
from minitorch.ops.view_scatter import diagonal_scatter, select_scatter, slice_scatter

# logcumsumexp, trapezoid, trapz, cumulative_trapezoid (ops/scan.py)
from minitorch.ops.scan import cumulative_trapezoid, logcumsumexp, trapezoid, trapz

logcumsumexp = _with_out(logcumsumexp)

# block_diag, diagflat, cartesian_prod, combinations, vander, cov, corrcoef (ops/matrices.py)
from minitorch.ops.matrices import (
    block_diag,
    cartesian_prod,
    combinations,
    corrcoef,
    cov,
    diagflat,
    vander,
)

# addmv, addr, ger (ops/linalg.py; task linalg2)
from minitorch.ops.linalg import addmv, addr

addmv, addr = _with_out(addmv), _with_out(addr)
addmm, baddbmm, addbmm = (_with_out(f) for f in (addmm, baddbmm, addbmm))  # (task misc2)
ger = outer  # PyTorch's older name of outer (out= included: its errors say mul())
from minitorch.ops.scatter import index_reduce

index_reduce = _with_out(index_reduce)
from minitorch.ops.scan import gradient
from minitorch.ops.search import histogram, histogramdd
from minitorch.ops.scatter import nonzero_static
from minitorch._linalg_torch import (
    cholesky_inverse,
    cholesky_solve,
    frobenius_norm,
    lu,
    lu_solve,
    lu_unpack,
    matrix_exp,
    nuclear_norm,
    orgqr,
    qr,
    triangular_solve,
)
# conv3d, conv_transpose1d, conv_transpose3d, max_pool3d (nn/functional.py; task nn3d)
from minitorch.nn.functional import conv3d, conv_transpose1d, conv_transpose3d


def max_pool3d(input, kernel_size, stride=(), padding=0, dilation=1,  # noqa: A002
               ceil_mode=False):
    """``torch.max_pool3d``: :func:`nn.functional.max_pool3d` without ``return_indices``."""
    return nn.functional.max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode)

# nn misc: embedding_renorm_, F.embedding's in-place max_norm (nn/functional.py)
from minitorch.nn.functional import _embedding_renorm_ as embedding_renorm_
# lgamma, digamma, polygamma, erfinv, mvlgamma, igamma, igammac (ops/gamma.py,
# ops/incomplete_gamma.py; task: the gamma family)
from minitorch.ops.gamma import digamma, erfinv, lgamma, mvlgamma, polygamma

from minitorch.ops.incomplete_gamma import igamma, igammac

lgamma, digamma, polygamma, erfinv, mvlgamma, igamma, igammac = (
    _with_out(f) for f in (lgamma, digamma, polygamma, erfinv, mvlgamma, igamma, igammac))

# the window functions (ops/windows.py; task: the gamma family)
from minitorch.ops.windows import (
    bartlett_window,
    blackman_window,
    hamming_window,
    hann_window,
    kaiser_window,
)

del _dtype

# torchnn task: the torch.* names of the nn functions. Where PyTorch's torch.X is its
# nn.functional.X, so is minitorch's; the others (another signature) are in nn/_aten.py.
from minitorch.nn.functional import (
    adaptive_avg_pool1d,
    avg_pool1d,
    bilinear,
    celu_,
    channel_shuffle,
    conv1d,
    conv2d,
    conv_transpose2d,
    cosine_similarity,
    hardshrink,
    native_channel_shuffle,
    pairwise_distance,
    pdist,
    pixel_shuffle,
    pixel_unshuffle,
    prelu,
    rms_norm,
    rrelu_,
    selu_,
    threshold_,
)
from minitorch.nn._aten import (
    adaptive_max_pool1d,
    alpha_dropout,
    alpha_dropout_,
    batch_norm,
    binary_cross_entropy_with_logits,
    celu,
    constant_pad_nd,
    convolution,
    cosine_embedding_loss,
    ctc_loss,
    dropout,
    dropout_,
    embedding,
    feature_alpha_dropout,
    feature_alpha_dropout_,
    feature_dropout,
    feature_dropout_,
    group_norm,
    gru_cell,
    hinge_embedding_loss,
    instance_norm,
    kl_div,
    layer_norm,
    lstm_cell,
    margin_ranking_loss,
    max_pool1d,
    max_pool1d_with_indices,
    max_pool2d,
    poisson_nll_loss,
    rnn_relu_cell,
    rnn_tanh_cell,
    rrelu,
    selu,
    threshold,
    triplet_margin_loss,
)

# Tensor.prelu and Tensor.hardshrink, the two of these that PyTorch also has as Tensor methods:
# attached here, as _tensor_methods (layer 5) may not import nn (layer 6)
# (hardshrink without its out= keyword, which the method does not have)
Tensor.prelu, Tensor.hardshrink = prelu, hardshrink.__wrapped__
# ------------------------------------------------------------ torch.abs_(x), ... (task: methods)
# PyTorch's functional in-place forms: ``torch.abs_(x)`` is ``x.abs_()`` (the same tensor
# back, its version up, its new node), and ``torch.fill(x, v)`` the out-of-place fill.
from minitorch.ops.shape import fill


# the overloaded ones list their signatures when ``input`` is no tensor; the binary ones
# name both missing arguments
_INPLACE_OVERLOADS = {
    "clamp_": ("Tensor input, Tensor min = None, Tensor max = None",
               "Tensor input, Number min = None, Number max = None"),
    "clamp_max_": ("Tensor input, Tensor max", "Tensor input, Number max"),
    "clamp_min_": ("Tensor input, Tensor min", "Tensor input, Number min"),
    "xlogy_": ("Tensor input, Tensor other", "Tensor input, Number other"),
    "fill_": ("Tensor input, Tensor value", "Tensor input, Number value"),
}
_INPLACE_OVERLOADS["clip_"] = _INPLACE_OVERLOADS["clamp_"]


def _inplace_function(name: str):
    method = getattr(Tensor, name)
    overloads = _INPLACE_OVERLOADS.get(name)

    def function(*args, **kwargs):
        if not args and "input" in kwargs:
            args = (kwargs.pop("input"),)
        if not args or not isinstance(args[0], Tensor):
            from minitorch.ops._util import check_tensor
            from minitorch.ops.shape import _invalid_combination

            if overloads or (name == "round_" and not args):
                got = ", ".join([type(a).__name__ for a in args]
                                + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
                raise _invalid_combination(name, got, *(overloads or (
                    "Tensor input", "Tensor input, *, int decimals")))
            if not args:
                raise TypeError(f'{name}() missing 2 required positional argument: "input", '
                                '"other"' if name in ("gcd_", "lcm_", "ldexp_") else
                                f'{name}() missing 1 required positional arguments: "input"')
            check_tensor(args[0], name, "input", 1)
        return method(*args, **kwargs)

    function.__name__ = function.__qualname__ = name
    function.__module__ = __name__
    function.__doc__ = f"``torch.{name}(input, ...)`` is ``input.{name}(...)``: in place."
    return function


for _name in (
        "abs_", "acos_", "acosh_", "arccos_", "arccosh_", "arcsin_", "arcsinh_", "arctan_",
        "arctanh_", "asin_", "asinh_", "atan_", "atanh_", "ceil_", "clamp_", "clamp_max_",
        "clamp_min_", "clip_", "cos_", "cosh_", "deg2rad_", "detach_", "erf_", "erfc_", "exp2_",
        "exp_", "expm1_", "fix_", "floor_", "frac_", "gcd_", "i0_", "lcm_", "ldexp_", "log10_",
        "log1p_", "log2_", "log_", "logit_", "nan_to_num_", "neg_", "negative_", "rad2deg_",
        "reciprocal_", "relu_", "round_", "rsqrt_", "sigmoid_", "sinc_", "sinh_", "sqrt_",
        "square_", "tan_", "tanh_", "trunc_", "xlogy_", "zero_", "fill_"):
    globals()[_name] = _inplace_function(_name)
del _name

# ------------------------------------------------------------ more torch.* (task: methods)
from minitorch._creation import empty_permuted, empty_strided, scalar_tensor
from minitorch._tensor_methods import COPY_FUNCTIONS as _COPY_FUNCTIONS
from minitorch.ops.arithmetic import bitwise_left_shift, bitwise_right_shift, logical_xor
from minitorch.ops.arithmetic import rsub_function as rsub
from minitorch.ops.pointwise import frexp

globals().update(_COPY_FUNCTIONS)


def _tensor_method_function(name: str, doc: str):
    """``torch.name(input, *args)``: ``input.name(*args)``, with PyTorch's error for an
    ``input`` that is no tensor."""
    method = getattr(Tensor, name)

    def function(input, *args, **kwargs):  # noqa: A002
        from minitorch.ops._util import check_tensor

        check_tensor(input, name, "input", 1)
        return method(input, *args, **kwargs)

    function.__name__ = function.__qualname__ = name
    function.__module__ = __name__
    function.__doc__ = doc
    return function


for _name, _doc in (
        ("adjoint", "The conjugate transpose of each matrix (``mT`` for real numbers)."),
        ("conj", "A real tensor is its own conjugate: ``input`` itself."),
        ("conj_physical", "A real tensor's conjugate: ``input`` itself."),
        ("conj_physical_", "``input.conj_physical_()``: in place."),
        ("resolve_conj", "``input`` itself (minitorch has no lazy conjugation)."),
        ("resolve_neg", "``input`` itself (minitorch has no lazy negation)."),
        ("is_conj", "Always False: minitorch has no lazy conjugation."),
        ("is_neg", "Always False: minitorch has no lazy negation."),
        ("isreal", "All True for a real tensor."),
        ("is_signed", "Whether the dtype holds negative numbers."),
        ("is_same_size", "Whether the two tensors have the same shape."),
        ("get_device", "The GPU's index, or -1 for the CPU."),
        ("is_inference", "Whether ``input`` was made inside ``inference_mode``."),
        ("split_with_sizes", "Pieces of the given sizes along ``dim`` (views)."),
        ("unsafe_chunk", "``chunk``, not recorded as views."),
        ("unsafe_split", "``split``, not recorded as views."),
        ("unsafe_split_with_sizes", "``split_with_sizes``, not recorded as views."),
        ("narrow_copy", "``narrow``, in memory of its own.")):
    globals()[_name] = _tensor_method_function(_name, _doc)


def real(input: Tensor) -> Tensor:  # noqa: A002
    """A real tensor's real part: ``input`` itself."""
    from minitorch.ops._util import check_tensor

    check_tensor(input, "real", "input", 1)
    return input


def imag(input: Tensor) -> Tensor:  # noqa: A002
    from minitorch.ops._util import check_tensor

    check_tensor(input, "imag", "input", 1)
    return input.imag


del _name, _doc

# func task: torch.func's function transforms (grad, vjp, jvp, jacrev, vmap...) and torch.vmap
from minitorch import func
from minitorch.func import vmap

# torch.__future__'s switches for Module.to() and friends (PyTorch imports it)
from minitorch import __future__

# ------------------------------------------------- asarray and global settings
import builtins as _builtins

from minitorch._creation import asarray

_matmul_precision = "highest"
_interop_threads = None  # set once by set_num_interop_threads


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:  # noqa: F811
    """Ask for deterministic algorithms, as ``torch.use_deterministic_algorithms`` does.

    minitorch's operations on the CPU are deterministic (NumPy adds in a fixed order, also
    where indices repeat), so the flag changes what PyTorch's CPU operations change: ``put_``
    without ``accumulate`` (and with it on a GPU) and ``max_unpool`` raise PyTorch's error
    (with ``warn_only=True``, its warning), as repeated indices leave the result undefined,
    and ``empty`` and the other uninitialised factories fill their memory with NaN (the
    largest value for integers, True for bool). minitorch's other GPU operations do not
    consult the flag yet."""
    from minitorch import _warnings

    if type(mode) is not _builtins.bool:
        raise TypeError("_set_deterministic_algorithms(): argument 'mode' (position 1) must be "
                        f"bool, not {type(mode).__name__}")
    if type(warn_only) is not _builtins.bool:
        raise TypeError("_set_deterministic_algorithms(): argument 'warn_only' must be bool, not "
                        f"{type(warn_only).__name__}")
    _warnings.deterministic, _warnings.deterministic_warn_only = mode, warn_only


def are_deterministic_algorithms_enabled() -> bool:
    """Whether :func:`use_deterministic_algorithms` turned the flag on."""
    from minitorch import _warnings

    return _warnings.deterministic


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    """Whether :func:`use_deterministic_algorithms` was given ``warn_only=True``."""
    from minitorch import _warnings

    return _warnings.deterministic_warn_only


def set_deterministic_debug_mode(debug_mode) -> None:
    """The determinism flag as one number: 0 or ``"default"`` (off), 1 or ``"warn"`` (on,
    warn only), 2 or ``"error"`` (on)."""
    if not isinstance(debug_mode, (_builtins.int, str)):
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if isinstance(debug_mode, str):
        modes = {"default": 0, "warn": 1, "error": 2}
        if debug_mode not in modes:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, "
                               f"`error`, but got {debug_mode}")
        debug_mode = modes[debug_mode]
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got "
                           f"{debug_mode}")
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode() -> int:
    """The determinism flag as :func:`set_deterministic_debug_mode` numbers it."""
    from minitorch import _warnings

    if not _warnings.deterministic:
        return 0
    return 1 if _warnings.deterministic_warn_only else 2


def set_float32_matmul_precision(precision: str) -> None:
    """Store the float32 matrix product precision, ``"highest"``, ``"high"`` or ``"medium"``.

    minitorch's matrix products always compute in full float32 (NumPy has no TensorFloat-32
    or bfloat16 shortcut), so the setting is only read back by
    :func:`get_float32_matmul_precision`. Another string is PyTorch's warning and no change."""
    global _matmul_precision
    if not isinstance(precision, str):
        raise RuntimeError(f"set_float32_matmul_precision expects a str, but got "
                           f"{type(precision).__name__}")
    if precision not in ("highest", "high", "medium"):
        import warnings

        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      "setFloat32MatmulPrecision call has no effect.", UserWarning, stacklevel=2)
        return
    _matmul_precision = precision


def get_float32_matmul_precision() -> str:
    """The precision :func:`set_float32_matmul_precision` stored (``"highest"`` at first)."""
    return _matmul_precision


def typename(obj, /) -> str:
    """The full name of ``obj``'s type: ``'torch.FloatTensor'`` for a float32 tensor, the
    module and name of a class or of an object's class otherwise (``'int'`` for builtins)."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = obj.__class__.__module__ or ""
        qualname = obj.__class__.__qualname__
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


def is_storage(obj, /) -> bool:
    """Whether ``obj`` is a storage object: always False, as minitorch keeps a tensor's memory
    in a NumPy array and has no storage objects."""
    return False


def set_warn_always(b: bool, /) -> None:
    """Give the warnings PyTorch gives once a process (a deprecated call, a slow path) every
    time, as ``torch.set_warn_always(True)`` does."""
    from minitorch import _warnings

    if type(b) is not _builtins.bool:
        raise RuntimeError(f"setWarnOnlyOnce expects a bool, but got {type(b).__name__}")
    _warnings.warn_always = b


def is_warn_always_enabled() -> bool:
    """Whether :func:`set_warn_always` turned the once-a-process warnings into every-time
    ones."""
    from minitorch import _warnings

    return _warnings.warn_always


def get_num_interop_threads() -> int:
    """The number of threads for running independent operations side by side: what
    :func:`set_num_interop_threads` set, else the CPU count. minitorch runs one operation
    at a time, so the number is only stored."""
    import os

    return _interop_threads or os.cpu_count() or 1


def set_num_interop_threads(num: int, /) -> None:
    """Set the number :func:`get_num_interop_threads` gives: once a process, as in PyTorch."""
    global _interop_threads
    if type(num) is not _builtins.int:
        raise RuntimeError(f"set_num_interop_threads expects an int, but got "
                           f"{type(num).__name__}")
    if num <= 0:
        raise RuntimeError("set_num_interop_threads expects a positive integer")
    if _interop_threads is not None:
        raise RuntimeError("Error: cannot set number of interop threads after parallel work has "
                           "started or set_num_interop_threads called")
    _interop_threads = num


def set_default_tensor_type(t, /) -> None:  # noqa: F811
    """Deprecated (PyTorch warns once): set the default floating dtype from a legacy tensor
    type (``torch.DoubleTensor`` or ``"torch.DoubleTensor"``); prefer
    :func:`set_default_dtype` and :func:`set_default_device`."""
    from minitorch._legacy import _LegacyTensorType
    from minitorch._warnings import warn_once

    if isinstance(t, str):
        t = _dotted_name(t)
    warn_once("set_default_tensor_type", "torch.set_default_tensor_type() is deprecated as of "
              "PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() "
              "as alternatives.")
    if not isinstance(t, _LegacyTensorType):
        raise TypeError("invalid type object: only floating-point types are supported as the "
                        "default type")
    if not t.dtype.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    set_default_dtype(t.dtype)


def _dotted_name(name: str):
    """What ``"torch.DoubleTensor"`` names (``torch`` is minitorch), or PyTorch's error."""
    import importlib
    import sys

    first, *rest = name.split(".")
    obj = sys.modules[__name__] if first in ("torch", "minitorch") else \
        importlib.import_module(first)
    path = first
    for part in rest:
        if not hasattr(obj, part):
            raise AttributeError(f"module '{path}' has no attribute '{part}'")
        obj, path = getattr(obj, part), f"{path}.{part}"
    return obj
