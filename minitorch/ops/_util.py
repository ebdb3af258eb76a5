"""Small helpers shared by the operation modules: dims, operands and error messages."""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from minitorch import _backend, _dtype
from minitorch._backend import array_module
from minitorch._tensor import Tensor, _check_devices, _in_format, _suggest_memory_format, _wrap
from minitorch.autograd.function import Function, _unpack_saved


def _make_quietly():
    """``quietly(np_fn, *args)``: ``np_fn(*args)`` without NumPy's floating-point warnings
    ("overflow encountered in exp"), since PyTorch gives inf and nan without a word.

    It runs on every elementwise operation, so it does what ``with np.errstate(all="ignore")``
    does without rebuilding the error state on each call: NumPy 2 keeps that state in a
    context variable, and setting it to a state made once is about ten times cheaper. Where
    that private detail is missing (NumPy 1.x), ``np.errstate`` itself is used.
    """
    try:
        from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj

        ignore_all = _make_extobj(all="ignore")
    except (ImportError, AttributeError, TypeError):
        @np.errstate(all="ignore")
        def quietly(np_fn, *args):
            return np_fn(*args)

        return quietly

    def quietly(np_fn, *args):
        token = _extobj_contextvar.set(ignore_all)
        try:
            return np_fn(*args)
        finally:
            _extobj_contextvar.reset(token)

    return quietly


quietly = _make_quietly()


def drop_numpy_fp_warnings() -> None:
    """Drop NumPy's floating-point warnings ("overflow encountered in multiply") raised in
    minitorch's own code: ``inf - inf`` is NaN without a word, as in PyTorch.

    ``quietly`` costs a little on every call, so the rest of the arithmetic (add, mul,
    matmul, sums, the optimizers' updates) goes without it, and this filter, installed once
    by ``import minitorch``, drops what NumPy would say. Only warnings that NumPy attributes
    to a minitorch module are dropped: a learner's own NumPy code still warns. (NumPy
    functions written in Python, such as ``np.mean`` and ``np.var``, warn from NumPy's own
    modules: minitorch calls those through ``quietly``.)
    """
    warnings.filterwarnings(
        "ignore", r"(overflow|invalid value|divide by zero|underflow) encountered in ",
        RuntimeWarning, r"minitorch(\.|$)")


drop_numpy_fp_warnings()


def normalize_dim(dim: int, ndim: int) -> int:
    """Turn a possibly negative ``dim`` into an index, with PyTorch's IndexError."""
    n = ndim if ndim > 0 else 1
    if not -n <= dim < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        )
    return dim + n if dim < 0 else dim


def normalize_dims(dim, ndim: int) -> tuple:
    """``None`` or ``()`` -> all dims; an int or a sequence -> sorted tuple of non-negative dims.

    As in PyTorch, an empty tuple of dims means *every* dim for ``sum``, ``mean``, ``var``...
    """
    if type(dim) is int:  # the common case: one dim
        d = normalize_dim(dim, ndim)
        return (d,) if ndim else ()
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return tuple(range(ndim))
    if isinstance(dim, np.integer):
        dim = (dim,)
    given = [normalize_dim(int(d), ndim) for d in dim]
    for i, d in enumerate(given):
        if d in given[:i]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    dims = tuple(sorted(given))
    return dims if ndim else ()  # a 0-dim tensor accepts dim 0 or -1, and has nothing to reduce


def check_in_bounds(index, dim: int, size: int) -> None:
    """PyTorch's error for an index of ``gather``/``scatter`` outside ``[0, size)`` (no
    negative ones), naming the first such index. The common case costs two small reductions
    (two numbers read back from a GPU)."""
    bad = first_out_of_bounds(index, size)
    if bad is not None:
        raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size {size}")


def first_out_of_bounds(index, size: int) -> int | None:
    """The first number of the integer array ``index`` outside ``[0, size)``, or None."""
    if not index.size or (index.min() >= 0 and index.max() < size):
        return None
    return int(index[(index < 0) | (index >= size)].reshape(-1)[0])


def unpacked_by_hooks(node) -> bool:
    """Whether ``node``'s saved indices came back from a ``saved_tensors_hooks`` unpack hook,
    which may hand back any numbers (the backwards of ``gather``, ``scatter_add`` and
    ``max(dim)`` then check them, as PyTorch's kernels do); without hooks they are the
    forward's own, already checked."""
    return "_unpack_extras" in vars(node)


def check_tensor(value, func: str, arg: str, position: int) -> None:
    """PyTorch's TypeError for an argument that must be a tensor. ``position`` counts the
    arguments as called: 2 for ``other`` in ``torch.maximum(x, other)``, 1 in
    ``x.maximum(other)`` (a method counts from after ``self``)."""
    if not isinstance(value, Tensor):
        raise TypeError(f"{func}(): argument '{arg}' (position {position}) must be Tensor, not "
                        f"{type(value).__name__}")


def as_tensor(value, like: Tensor) -> Tensor:
    """An operand as a Tensor. Python numbers become 'wrapped numbers', which type promotion
    treats as weaker than any tensor (``float32_tensor * 2.5`` stays float32)."""
    if isinstance(value, Tensor):
        return value
    data = like._data
    if ((type(value) is float or type(value) is int and -2**53 < value < 2**53)
            and data.dtype.kind == "f" and type(data) is np.ndarray):
        # The common case, ``x * 0.5`` on a floating-point CPU tensor: the number takes the
        # tensor's dtype (the general rule below gives the same answer, more slowly).
        t = _wrap(np.array(value, data.dtype))
        t._wrapped = True
        return t
    if isinstance(value, (numbers.Number, np.number, np.bool_)):
        _dtype.check_python_int(value)  # 2**64 is beyond PyTorch's 64-bit arguments
        d = _dtype.scalar_dtype(value)
        if d.category <= like.dtype.category:
            d = like.dtype
        try:
            host = np.array(value, dtype=d.np)
        except OverflowError:  # -1 next to a uint8 tensor wraps to 255, as in PyTorch
            host = np.array(value).astype(d.np)
        # a number next to a GPU tensor goes to the GPU too
        t = _wrap(host if type(data) is np.ndarray else _backend.onto_device_of(host, data))
        t._wrapped = True
        return t
    if isinstance(value, np.ndarray):
        from minitorch._creation import tensor

        return tensor(value)
    raise TypeError(
        f"unsupported operand type: expected a Tensor or a number, got {type(value).__name__}"
    )


def operands(a: Tensor, b: Tensor):
    """The arrays of ``a`` and ``b`` converted to their promoted common dtype."""
    da, db = a._data, b._data
    if da.dtype != db.dtype:
        rt = _dtype.result_type(a, b).np
        if da.dtype != rt:
            da = da.astype(rt)
        if db.dtype != rt:
            db = db.astype(rt)
    if type(da) is not type(db):
        check_same_device(a, b)
        if type(da) is np.ndarray:  # a 0-d CPU tensor meets a device tensor: move it there
            da = _backend.onto_device_of(da, db)
        elif type(db) is np.ndarray:
            db = _backend.onto_device_of(db, da)
    return da, db


def check_same_device(*tensors: Tensor) -> None:
    """PyTorch's error when tensors on different devices meet in one operation."""
    if _backend.devices_in_use:  # while every tensor is on the CPU, there is nothing to check
        _check_devices(tensors)


def broadcast_error(*shapes) -> RuntimeError:
    """PyTorch's message for shapes that do not broadcast, naming the first clash."""
    a, b = shapes[0], shapes[1]
    n = max(len(a), len(b))
    pa, pb = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    for i in range(n - 1, -1, -1):
        if pa[i] != pb[i] and pa[i] != 1 and pb[i] != 1:
            return RuntimeError(
                f"The size of tensor a ({pa[i]}) must match the size of tensor b ({pb[i]}) at "
                f"non-singleton dimension {i}"
            )
    return RuntimeError(f"shapes {list(a)} and {list(b)} cannot be broadcast together")


# A float in which the product of two numbers of the dtype is exact (float64 for float32) or
# nearly so (the x87 extended precision for float64).
_WIDER = {np.dtype(np.float16): np.float64, np.dtype(np.float32): np.float64,
          np.dtype(np.float64): np.longdouble}


def fused_multiply_add(x, y: np.ndarray, z: np.ndarray,
                       out: np.ndarray | None = None) -> np.ndarray:
    """``x * y + z`` rounded once, in ``z``'s dtype (into ``out`` when given): the fused
    multiply-add (FMA) of PyTorch's CPU kernels for ``add(z, y, alpha=x)``, ``addcmul``,
    ``lerp`` and the optimizers' steps. ``x`` is an array or a NumPy scalar, ``y`` an array.

    Rounding ``x * y`` first and then the sum, as NumPy does, differs in the last bit, and over
    thousands of training steps such bits add up. NumPy has no FMA: the product is taken in a
    wider float, where it is exact. (On a CuPy array this is the plain ``x * y + z``.)

    >>> tenth, three, z = np.float32(0.1), np.array(3, np.float32), np.array([-0.3], np.float32)
    >>> (tenth * three + z).tolist(), fused_multiply_add(tenth, three, z).tolist()
    ([0.0], [-7.450580596923828e-09])
    """
    wide = _WIDER.get(z.dtype)
    if wide is None or not isinstance(z, np.ndarray):  # an integer, or a GPU array
        exact = x * y + z
    else:  # in place where the shapes allow (this runs in every optimizer step)
        # exact: the product of two float32 numbers fits a float64 (one pass: the ufunc
        # converts as it multiplies)
        exact = np.multiply(y, x, dtype=wide)
        if z.shape == exact.shape:
            exact += z  # the one rounding (to ``wide``; the cast below is harmless)
        else:
            exact = exact + z
    if out is None:
        return exact.astype(z.dtype, copy=False)
    out[...] = exact
    return out


def full_like_result(x, value=None):
    """An array of ``value`` (zeros when None) shaped like ``x`` and laid out as an elementwise
    operation on ``x`` lays out its result (PyTorch's rule): like ``x`` when ``x`` is dense in
    another order (a transposed input gives a transposed result), else in C order (a sliced or
    expanded input gives a contiguous result)."""
    xp = array_module(x)
    if x.flags.c_contiguous or 0 in x.strides:
        if value is None:  # (fresh zeroed memory is quicker than filling)
            return xp.zeros(x.shape, x.dtype)
        return xp.full(x.shape, value, x.dtype)
    return xp.zeros_like(x) if value is None else xp.full_like(x, value)


def against_number(np_fn, x, number=None):
    """``np_fn(x, number)`` (``np.maximum`` or ``np.minimum``; ``number`` None is 0) that
    returns ``x`` on a tie, as PyTorch's relu and clamp do (``relu(-0.0)`` is -0.0). It runs
    against an array full of the number: NumPy's loop for an array and a scalar is not
    vectorised (3 to 4 times slower from about 10,000 elements). A tie can only be of two
    zeros, and its answer is the operand that NumPy's loop prefers: the second, but the first
    in float16's loop."""
    full = full_like_result(x, number)
    return np_fn(x, full, out=full) if x.dtype.char == "e" else np_fn(full, x, out=full)


def float_type(t: Tensor) -> np.dtype:
    """The dtype an op like ``exp`` computes in: the tensor's own if floating, else float32."""
    return t._data.dtype if t._data.dtype.kind == "f" else _dtype.get_default_dtype().np


# -- task nodecall: the getters behind a node's ``_saved_<name>`` (a Function's
# ``saved_values``). PyTorch's nodes show what they saved; minitorch's work it out from what
# the node keeps anyway, only when the attribute is read.
REDUCTION_ENUM = {"none": 0, "mean": 1, "sum": 2}  # PyTorch's at::Reduction numbers


def saved_attr(attr: str, default=None, convert=None):
    """``_saved_<name>``: the node's ``ctx.<attr>`` (``default`` where it was never set),
    passed through ``convert`` if given."""
    if convert is None:
        return lambda node: getattr(node, attr, default)
    return lambda node: convert(getattr(node, attr, default))


def saved_sizes(edge: int = 0, numel: bool = False):
    """``_saved_<input>_sym_sizes`` (or ``_sym_numel``): the shape (or the number of elements)
    of the input on edge ``edge``, which the node keeps to check gradients against."""
    def get(node):
        shape = node._input_meta[edge][0]
        return int(np.prod(shape)) if numel else tuple(shape)
    return get


def saved_number(attr: str):
    """``_saved_other`` of ``tensor * number`` or ``tensor / number``: PyTorch saves the number
    as a 0-d tensor (int64, float64 or bool, as it was given), freed by backward like the rest
    of what the node saved."""
    def get(node):
        node.saved_tensors  # noqa: B018 - raises the freed-graph error after backward
        return _wrap(np.asarray(getattr(node, attr)))
    return get


def name_saved(fn, names: tuple = ()) -> None:
    """Give ``fn``'s node the ``_saved_<name>`` attributes that ``saved_names = names`` in the
    class body would (for a class whose source a chapter prints as it is)."""
    for i, name in enumerate(names):
        setattr(fn._backward_cls, f"_saved_{name}",
                property(lambda node, i=i: _unpack_saved(node, i)))


# layout2 task: results laid out as their input
def laid_out_as(x, like):
    """The array ``x`` (of ``like``'s rank) in ``like``'s memory layout: NumPy's
    ``empty_like`` with order "K" keeps the order of ``like``'s dimensions in memory, as
    PyTorch's ``sort`` and others lay out their results. ``x`` itself where ``like`` is
    contiguous (or a device's array)."""
    if type(like) is not np.ndarray or like.flags.c_contiguous or x.ndim != like.ndim:
        return x
    out = np.empty_like(like, dtype=x.dtype, shape=x.shape)
    out[...] = x
    return out


def suggested_layout(x, like):
    """The array ``x`` in C order, or channels-last where the 4-d (5-d) ``like`` is: the
    layout PyTorch gives the results of ops that make their input contiguous first, or
    allocate with its ``suggest_memory_format`` (``constant_pad_nd``, ``renorm``, ...)."""
    if type(x) is not np.ndarray or like.flags.c_contiguous and x.flags.c_contiguous:
        return x
    fmt = _suggest_memory_format(like.shape, tuple(s // like.itemsize for s in like.strides))
    if fmt.name == "contiguous_format":
        return x if x.flags.c_contiguous else x.copy()  # (C order)
    return _in_format(x, fmt) if x.ndim == like.ndim else x
def as_int64_shown(d):
    """A dim as PyTorch's nodes show it: the int64 read back as unsigned, so that -1 is
    ``2**64 - 1``; a sequence of them as a tuple, None as None."""
    if d is None:
        return None
    if isinstance(d, (tuple, list)):
        return tuple([int(e) % (1 << 64) for e in d])
    return int(d) % (1 << 64)


def saved_dim(given: str, normalized: str | None = None, as_tuple: bool = False):
    """``_saved_dim``: the dim as the call gave it (``ctx.<given>``; else the normalized
    ``ctx.<normalized>``), negative ones shown as PyTorch shows them (``as_int64_shown``).
    With ``as_tuple`` one int is shown as a tuple of it, as for ``sum(x, -1)``."""
    def get(node):
        d = getattr(node, given, None) if normalized is None else getattr(
            node, given, getattr(node, normalized))
        if as_tuple and d is not None and not isinstance(d, (tuple, list)):
            d = (d,)
        return as_int64_shown(d)
    return get


# gradgraph task: the backward of a node that is a gradient kernel (nn/_norm.py, linalg.py)
def differentiate_kernel(formula, saved: tuple, args: tuple, ggs: tuple) -> tuple:
    """The backward of a node whose forward is ``formula(*saved, *args)`` computed unrecorded
    (a gradient kernel, as ``NativeLayerNormGrad`` of nn or ``CdistGrad``): that formula
    recorded on aliases of the ``saved`` tensors and differentiated, its outputs weighted by
    ``ggs``. One gradient per saved tensor (None where it needs none)."""
    from minitorch.autograd import grad as autograd_grad
    from minitorch.autograd.grad_mode import enable_grad, is_grad_enabled

    with enable_grad():  # aliases: partial derivatives (the weight may depend on x)
        inputs = [t if t is None or not t._requires_grad else t.view_as(t) for t in saved]
        outs = formula(*inputs, *args)
    wrt = [t for t in inputs if t is not None and t._requires_grad]
    pairs = [(o, g) for o, g in zip(outs, ggs)
             if o is not None and g is not None and o._requires_grad]
    if not wrt or not pairs:
        return (None,) * len(saved)
    got = iter(autograd_grad([o for o, _ in pairs], wrt, [g for _, g in pairs],
                             retain_graph=True, allow_unused=True,  # (x's own graph)
                             create_graph=is_grad_enabled()))
    return tuple(next(got) if t is not None and t._requires_grad else None for t in inputs)


class KernelNode(Function):
    """One of PyTorch's backward kernels as one node (``CdistBackwardBackward0``, ...), whose
    edges are its first ``len(_edge_args)`` arguments, tensors: ``forward`` runs
    ``_formula(*tensors, *args)`` unrecorded, and ``backward`` differentiates that same formula
    (:func:`differentiate_kernel`), so second derivatives stay. A subclass sets ``node_name``,
    ``_builtin = True`` (the node class reads the subclass's own), ``_edge_args``, ``_formula``
    and ``_first_only`` when the node gives only the first of the formula's results."""

    _builtin = True
    _edge_args = ()
    _first_only = False

    @classmethod
    def forward(cls, ctx, *args):
        n = len(cls._edge_args)
        tensors, ctx.args = args[:n], args[n:]
        ctx.save_for_backward(*tensors)
        ctx.set_materialize_grads(False)  # a gradient that is not used stays None
        from minitorch.autograd.grad_mode import no_grad

        with no_grad():
            out = cls._formula(*(t.detach() for t in tensors), *ctx.args)
        return out[0] if cls._first_only else out

    @classmethod
    def backward(cls, ctx, *ggs):
        return differentiate_kernel(cls._formula, ctx.saved_tensors, ctx.args, ggs)


def sort_dims(ndim: int, should_swap) -> list:
    """The dimensions, fastest first, as PyTorch's TensorIterator sorts them (an insertion
    sort): ``should_swap(d0, d1)`` is 1 to swap the pair, -1 to stop, 0 when it cannot tell
    (the pair stays as it is)."""
    perm = list(range(ndim - 1, -1, -1))
    for i in range(1, ndim):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    return perm


def iterator_layout(out, *operands):
    """``out``, the result of an elementwise op of the Tensors ``operands`` (broadcast to its
    shape), in the memory layout PyTorch's TensorIterator gives it when an operand is not in
    C order: its dimensions ordered as the operands' strides order them, the first operand
    that tells two dimensions apart deciding (``x.mT - y`` is laid out as ``x.mT``). NumPy
    lays such a result out in C order; the layout decides, for one, whether a later reshape
    records ``ViewBackward0`` or ``ReshapeAliasBackward0``."""
    nd = out.ndim
    if nd < 2 or all(t._data.flags.c_contiguous for t in operands) or not out.size:
        return out
    shape = out.shape
    strides = []  # each operand's strides as the iterator sees them: 0 where broadcast
    for t in operands:
        have = t.shape
        lead = nd - len(have)
        st = t.stride()
        strides.append([0] * lead + [0 if have[i] == 1 and shape[lead + i] != 1 else st[i]
                                     for i in range(len(have))])

    def should_swap(d0: int, d1: int) -> int:
        for st in strides:
            s0, s1 = st[d0], st[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    order = sort_dims(nd, should_swap)[::-1]  # slowest first
    xp = array_module(out)
    if order == list(range(nd)):
        return out if out.flags.c_contiguous else xp.ascontiguousarray(out)
    laid = xp.ascontiguousarray(out.transpose(order))
    return laid.transpose(tuple(int(d) for d in np.argsort(order)))
