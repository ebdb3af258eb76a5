"""Every differentiable operation against PyTorch: values, gradients and the recorded graph.

Each case is a function ``fn(m, *tensors, **params)`` written once and run twice, with
``m = minitorch`` and ``m = torch``, on copies of the same NumPy arrays that Hypothesis draws
(shapes included, with broadcasting). Then we compare

* the forward values and dtypes,
* the gradients of every floating input, for the same random upstream gradient,
* the graph: ``type(grad_fn).__name__`` and ``next_functions`` all the way to the leaves
  (None edges, AccumulateGrad, output numbers), which is what a learner sees when exploring it.

Second-order gradients (``create_graph=True``) are compared the same way at the end.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from _oracle import F32, assert_same_values, graph_signature, to_numpy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

SETTINGS = settings(max_examples=12, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# ---------------------------------------------------------------- element strategies
def grid(lo: int, hi: int, step: float = 1 / 64):
    """Numbers ``i * step``: exact in float32, no subnormals, and ties happen."""
    return st.integers(lo, hi).map(lambda i: i * step)


FLOATS = grid(-192, 192)  # [-3, 3]
POSITIVE = grid(16, 192)  # [0.25, 3]
NONZERO = st.one_of(grid(-192, -16), POSITIVE)
WIDE = grid(-192, 192, 1 / 16)  # [-12, 12]
TIES = st.sampled_from([-1.0, 0.0, 0.5, 2.0])  # repeated values: ties in max/min/amax
SHAPES = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=4)


def arrays(shape, elements=FLOATS, unique=False, dtype=np.float32):
    return hnp.arrays(dtype, shape, elements=elements, unique=unique)


@st.composite
def one(draw, elements=FLOATS, shapes=SHAPES, unique=False):
    """One float32 array."""
    return (draw(arrays(draw(shapes), elements, unique)),), {}


@st.composite
def broadcast(draw, *elements, dims=(0, 3)):
    """Arrays whose shapes broadcast together (one per element strategy)."""
    bs = draw(hnp.mutually_broadcastable_shapes(num_shapes=len(elements), min_dims=dims[0],
                                                max_dims=dims[1], max_side=4))
    return tuple(draw(arrays(s, e)) for s, e in zip(bs.input_shapes, elements)), {}


@st.composite
def bounds(draw, *elements):
    """An array and bounds that broadcast to its shape (clamp keeps the input's shape)."""
    shape = draw(SHAPES)
    arrs = [draw(arrays(shape, elements[0]))]
    for e in elements[1:]:
        s = [n if draw(st.booleans()) else 1 for n in shape[draw(st.integers(0, len(shape))):]]
        arrs.append(draw(arrays(tuple(s), e)))
    return tuple(arrs), {}


@st.composite
def with_dim(draw, elements=FLOATS, min_dims=0, unique=False, min_side=1):
    """An array, one dim of it and a keepdim flag."""
    shape = draw(hnp.array_shapes(min_dims=min_dims, max_dims=3, min_side=min_side, max_side=4))
    n = max(len(shape), 1)
    return ((draw(arrays(shape, elements, unique)),),
            {"dim": draw(st.integers(-n, n - 1)), "keepdim": draw(st.booleans())})


@st.composite
def with_dims(draw, elements=FLOATS, unique=False, min_side=1):
    """An array, a tuple of distinct dims of it and a keepdim flag."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=min_side, max_side=4))
    dims = draw(st.lists(st.integers(0, len(shape) - 1), min_size=1, unique=True))
    dims = tuple(d - len(shape) if draw(st.booleans()) else d for d in dims)  # some negative
    return (draw(arrays(shape, elements, unique)),), {"dim": dims, "keepdim": draw(st.booleans())}


# ---------------------------------------------------------------- shape-op strategies
@st.composite
def reshape_target(draw):
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=4))
    a = draw(arrays(shape))
    target = list(draw(st.permutations(shape)))
    for _ in range(draw(st.integers(0, 2))):
        target.insert(draw(st.integers(0, len(target))), 1)
    if target and draw(st.booleans()):
        target[draw(st.integers(0, len(target) - 1))] = -1
    return (a,), {"shape": tuple(target)}


@st.composite
def two_dims(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=3))
    n = len(shape)
    return ((draw(arrays(shape)),),
            {"d0": draw(st.integers(-n, n - 1)), "d1": draw(st.integers(-n, n - 1))})


@st.composite
def permutation(draw):
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=1, max_side=3))
    return (draw(arrays(shape)),), {"dims": tuple(draw(st.permutations(range(len(shape)))))}


@st.composite
def with_ones(draw):
    """An array with some dimensions of size 1 (for squeeze and expand)."""
    shape = draw(st.lists(st.sampled_from([1, 1, 2, 3]), min_size=0, max_size=4))
    n = max(len(shape), 1)
    dims = tuple(draw(st.lists(st.integers(-n, n - 1), max_size=3, unique_by=lambda d: d % n)))
    return (draw(arrays(tuple(shape))),), {"dim": draw(st.integers(-n, n - 1)), "dims": dims}


@st.composite
def expand_target(draw):
    shape = draw(st.lists(st.sampled_from([1, 1, 2, 3]), min_size=0, max_size=3))
    target = [draw(st.integers(1, 3)) if s == 1 else draw(st.sampled_from([s, -1]))
              for s in shape]
    lead = draw(st.lists(st.integers(1, 3), max_size=2))
    return (draw(arrays(tuple(shape))),), {"shape": tuple(lead + target)}


@st.composite
def repeats(draw):
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3))
    reps = draw(st.lists(st.integers(1, 3), min_size=max(len(shape), 1),
                         max_size=len(shape) + 2))
    return (draw(arrays(shape)),), {"reps": tuple(reps)}


@st.composite
def to_join(draw, same_shape=False):
    """1 to 3 arrays for cat (equal except along dim) or stack (equal)."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3))
    n = len(shape)
    dim = draw(st.integers(-n, n - 1)) if not same_shape else draw(st.integers(-n - 1, n))
    arrs = []
    for _ in range(draw(st.integers(1, 3))):
        s = list(shape)
        if not same_shape:
            s[dim] = draw(st.integers(1, 3))
        arrs.append(draw(arrays(tuple(s))))
    return tuple(arrs), {"dim": dim}


@st.composite
def to_split(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5))
    n = len(shape)
    dim = draw(st.integers(-n, n - 1))
    size = shape[dim]
    sizes, left = [], size
    while left:
        sizes.append(draw(st.integers(1, left)))
        left -= sizes[-1]
    return ((draw(arrays(shape)),),
            {"dim": dim, "size": draw(st.integers(1, size + 1)), "sizes": sizes,
             "chunks": draw(st.integers(1, size + 1))})


# ---------------------------------------------------------------- index strategies
@st.composite
def basic_index(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    key = draw(hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True).filter(
        lambda k: all(not isinstance(i, slice) or i.step is None or i.step > 0
                      for i in (k if isinstance(k, tuple) else (k,)))))
    return (draw(arrays(shape)),), {"key": key}


@st.composite
def mixed_index(draw, unique=False, masks=True):
    """Ints, slices, None, ``...``, integer index arrays (with repeats) and bool masks."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    n_idx = draw(st.integers(1, 3))  # all index arrays share this length, so they broadcast
    if unique:
        n_idx = min(n_idx, *shape)
    key, dim, ellipsis, masked = [], 0, False, False
    while dim < len(shape):
        kind = draw(st.sampled_from(["int", "slice", "array", "array", "none", "mask", "stop"]))
        size = shape[dim]
        if kind == "int":
            key.append(draw(st.integers(-size, size - 1)))
        elif kind == "slice":
            start = draw(st.none() | st.integers(-size, size))
            key.append(slice(start, draw(st.none() | st.integers(-size, size)),
                             draw(st.none() | st.integers(1, 2))))
        elif kind == "array":
            values = st.integers(-size, size - 1)
            if masked:  # a mask and an index array would have to broadcast
                key.append(slice(None))
                dim += 1
                continue
            if unique:  # x[k] = v with repeated indices is undefined in PyTorch
                arr = draw(st.permutations(range(size)))[:n_idx]
            else:
                arr = draw(st.lists(values, min_size=n_idx, max_size=n_idx))
            key.append(np.array(arr, dtype=np.int64))
        elif kind == "none":
            key.append(None)
            continue
        elif kind == "mask" and masks and not any(isinstance(k, np.ndarray) for k in key):
            key.append(draw(arrays((size,), st.booleans(), dtype=np.bool_)))
            masked = True
        elif kind == "stop" and not ellipsis:
            key.append(Ellipsis)
            ellipsis = True
            break
        else:
            key.append(slice(None))
        dim += 1
    if not any(isinstance(k, np.ndarray) for k in key):  # make it advanced
        size = shape[0]
        key = [np.array(draw(st.permutations(range(size)))[:n_idx] if unique else
                        draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=3)))]
    return (draw(arrays(shape)),), {"key": tuple(key)}


@st.composite
def list_index(draw):
    """A Python list of ints (with repeats) as the key: ``x[[0, 0, 2]]``."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    key = draw(st.lists(st.integers(-shape[0], shape[0] - 1), min_size=1, max_size=4))
    return (draw(arrays(shape)),), {"key": key}


def _key_for(m, key):
    """The key with NumPy index arrays turned into tensors of library ``m``."""
    keys = key if isinstance(key, tuple) else (key,)
    out = tuple(m.from_numpy(k.copy()) if isinstance(k, np.ndarray) else k for k in keys)
    return out if isinstance(key, tuple) else out[0]


def _setitem(m, x, v, key):
    y = x * 1  # a non-leaf, so that it can be written into
    y[_key_for(m, key)] = v
    return y


@st.composite
def setitem_case(draw, advanced):
    (x,), p = draw(mixed_index(unique=True, masks=False) if advanced else basic_index())
    shape = tuple(torch.zeros(x.shape)[_key_for(torch, p["key"])].shape)
    if shape and draw(st.booleans()):  # a value that is broadcast into the slot
        shape = shape[draw(st.integers(0, len(shape))):]
    return (x, draw(arrays(shape))), p


# ---------------------------------------------------------------- linalg strategies
@st.composite
def matmul_case(draw):
    bs = draw(hnp.mutually_broadcastable_shapes(signature=np.matmul.signature, max_dims=2,
                                                max_side=3))
    a, b = (draw(arrays(s)) for s in bs.input_shapes)
    ra, rb = draw(st.sampled_from([(True, True), (True, False), (False, True)]))
    transpose_a = a.ndim >= 2 and draw(st.booleans())
    if transpose_a:  # pass a transposed copy, which _matmul transposes back: non-contiguous
        a = np.swapaxes(a, 0, 1).copy()
    return (a, b), {"_rg": (ra, rb), "transpose_a": transpose_a}


def _matmul(m, a, b, transpose_a):
    return m.matmul(a.transpose(0, 1) if transpose_a else a, b)


@st.composite
def mm_case(draw, kind):
    n, k, p, batch = (draw(st.integers(1, 4)) for _ in range(4))
    shapes = {"mm": [(n, k), (k, p)], "mv": [(n, k), (k,)], "dot": [(k,), (k,)],
              "bmm": [(batch, n, k), (batch, k, p)]}[kind]
    return tuple(draw(arrays(s)) for s in shapes), {}


@st.composite
def bce_case(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    x = draw(arrays(shape, WIDE))
    y = draw(arrays(shape, st.floats(0, 1, width=32)))
    arrs, p = [x, y], {"reduction": draw(st.sampled_from(["mean", "sum", "none"]))}
    if draw(st.booleans()):
        p["weight"] = len(arrs)
        arrs.append(draw(arrays(shape[draw(st.integers(0, len(shape))):], POSITIVE)))
    if draw(st.booleans()):
        p["pos_weight"] = len(arrs)
        arrs.append(draw(arrays(shape[-1:], POSITIVE)))
    rg = (True, draw(st.booleans())) + (False,) * (len(arrs) - 2)
    return tuple(arrs), {**p, "_rg": rg}


def _bce(m, *ts, reduction, weight=None, pos_weight=None):
    f = minitorch.nn.functional if m is minitorch else torch.nn.functional
    return f.binary_cross_entropy_with_logits(
        ts[0], ts[1], weight=None if weight is None else ts[weight], reduction=reduction,
        pos_weight=None if pos_weight is None else ts[pos_weight])


# ---------------------------------------------------------------- the cases
def _max_dim(m, a, dim, keepdim):
    values, indices = a.max(dim, keepdim=keepdim)
    return values, indices


CASES = {
    # arithmetic, with broadcasting
    "add": (lambda m, a, b: a + b, broadcast(FLOATS, FLOATS)),
    "sub": (lambda m, a, b: a - b, broadcast(FLOATS, FLOATS)),
    "mul": (lambda m, a, b: a * b, broadcast(FLOATS, FLOATS)),
    "div": (lambda m, a, b: a / b, broadcast(FLOATS, NONZERO)),
    "add_alpha": (lambda m, a, b: m.add(a, b, alpha=2.5), broadcast(FLOATS, FLOATS)),
    "sub_alpha": (lambda m, a, b: a.sub(b, alpha=0.5), broadcast(FLOATS, FLOATS)),
    "radd": (lambda m, a: 2 + a, one()),
    "rsub": (lambda m, a: 1.5 - a, one()),
    "rmul": (lambda m, a: 3 * a, one()),
    "rdiv": (lambda m, a: 1.5 / a, one(NONZERO)),
    "div_scalar": (lambda m, a: a / 4.0, one()),
    "sub_scalar": (lambda m, a: a - 1, one()),
    "pow_int": (lambda m, a: a ** 3, one()),
    "pow_float": (lambda m, a: a ** 2.5, one(POSITIVE)),
    "pow_negative": (lambda m, a: a.pow(-1.5), one(POSITIVE)),
    "pow_zero": (lambda m, a: a ** 0, one()),
    "pow_tensor": (lambda m, a, b: a ** b, broadcast(POSITIVE, FLOATS)),
    "pow_scalar_base": (lambda m, a: 2.0 ** a, one()),
    "neg": (lambda m, a: -a, one()),
    "reciprocal": (lambda m, a: a.reciprocal(), one(NONZERO)),
    "square": (lambda m, a: a.square(), one()),
    # elementwise functions
    "exp": (lambda m, a: a.exp(), one()),
    "log": (lambda m, a: m.log(a), one(POSITIVE)),
    "sqrt": (lambda m, a: a.sqrt(), one(POSITIVE)),
    "abs": (lambda m, a: a.abs(), one()),
    "sin": (lambda m, a: m.sin(a), one()),
    "cos": (lambda m, a: a.cos(), one()),
    "tanh": (lambda m, a: a.tanh(), one(WIDE)),
    "sigmoid": (lambda m, a: m.sigmoid(a), one(WIDE)),
    "relu": (lambda m, a: a.relu(), one()),
    "relu_fn": (lambda m, a: m.relu(a), one(TIES)),
    "clamp": (lambda m, a: a.clamp(-0.5, 0.5), one()),
    "clamp_min": (lambda m, a: m.clamp(a, min=-0.5), one(TIES)),
    "clamp_max": (lambda m, a: a.clamp(max=0.5), one(TIES)),
    "clamp_tensors": (lambda m, a, lo, hi: a.clamp(lo, hi), bounds(FLOATS, FLOATS, FLOATS)),
    "clamp_tensor_min": (lambda m, a, lo: a.clamp(min=lo), bounds(TIES, TIES)),
    "clamp_tensor_max": (lambda m, a, hi: m.clamp(a, max=hi), bounds(FLOATS, FLOATS)),
    "maximum": (lambda m, a, b: m.maximum(a, b), broadcast(TIES, TIES)),
    "minimum": (lambda m, a, b: m.minimum(a, b), broadcast(TIES, TIES)),
    "where": (lambda m, c, a, b: m.where(c > 0, a, b), broadcast(FLOATS, FLOATS, FLOATS)),
    "where_scalar": (lambda m, a: m.where(a > 0, a, 0.0), one()),
    # reductions
    "sum": (lambda m, a: a.sum(), one()),
    "sum_dim": (lambda m, a, dim, keepdim: a.sum(dim, keepdim=keepdim), with_dim()),
    "sum_dims": (lambda m, a, dim, keepdim: m.sum(a, dim, keepdim), with_dims()),
    "mean": (lambda m, a: a.mean(), one()),
    "mean_dim": (lambda m, a, dim, keepdim: a.mean(dim, keepdim=keepdim), with_dim()),
    "mean_dims": (lambda m, a, dim, keepdim: a.mean(dim, keepdim), with_dims()),
    "max": (lambda m, a: a.max(), one(TIES)),
    "min": (lambda m, a: m.min(a), one(TIES)),
    "max_dim": (_max_dim, with_dim(unique=True, min_dims=1)),
    "min_dim": (lambda m, a, dim, keepdim: tuple(m.min(a, dim, keepdim)),
                with_dim(unique=True, min_dims=1)),
    "var": (lambda m, a: a.var(), one(unique=True, shapes=hnp.array_shapes(min_side=2))),
    "var_dim": (lambda m, a, dim, keepdim: a.var(dim, keepdim=keepdim),
                with_dim(unique=True, min_dims=1, min_side=2)),
    "var_dims_c0": (lambda m, a, dim, keepdim: a.var(dim, keepdim=keepdim, correction=0),
                    with_dims(unique=True)),
    "std": (lambda m, a: m.std(a), one(unique=True, shapes=hnp.array_shapes(min_side=2))),
    "std_dim": (lambda m, a, dim, keepdim: a.std(dim, keepdim=keepdim),
                with_dim(unique=True, min_dims=1, min_side=2)),
    "std_unbiased_false": (lambda m, a, dim, keepdim: a.std(dim, False, keepdim),
                           with_dims(unique=True)),
    "amax": (lambda m, a: a.amax(), one(TIES)),
    "amax_dims": (lambda m, a, dim, keepdim: a.amax(dim, keepdim), with_dims(TIES)),
    "amin_dim": (lambda m, a, dim, keepdim: m.amin(a, dim, keepdim), with_dim(TIES, 1)),
    # shapes
    "reshape": (lambda m, a, shape: a.reshape(shape), reshape_target()),
    "reshape_flat": (lambda m, a: a.reshape(-1), one()),
    "reshape_noncontiguous": (lambda m, a, d0, d1: a.transpose(d0, d1).reshape(-1), two_dims()),
    "reshape_noncontiguous_view": (lambda m, a, d0, d1: a.transpose(d0, d1).reshape(
        a.transpose(d0, d1).shape), two_dims()),
    "view": (lambda m, a, shape: a.view(*shape) if shape else a.view(shape), reshape_target()),
    "flatten": (lambda m, a: a.flatten(), one()),
    "flatten_dims": (lambda m, a, d0, d1: m.flatten(a, min(d0 % a.dim(), d1 % a.dim()),
                                                    max(d0 % a.dim(), d1 % a.dim())),
                     two_dims()),
    "transpose": (lambda m, a, d0, d1: a.transpose(d0, d1), two_dims()),
    "t": (lambda m, a: a.t(), one(shapes=hnp.array_shapes(min_dims=0, max_dims=2))),
    "T": (lambda m, a: a.T, one(shapes=hnp.array_shapes(min_dims=2, max_dims=2))),
    "mT": (lambda m, a: a.mT, one(shapes=hnp.array_shapes(min_dims=2, max_dims=3))),
    "permute": (lambda m, a, dims: a.permute(dims), permutation()),
    "squeeze": (lambda m, a, dim, dims: a.squeeze(), with_ones()),
    "squeeze_dim": (lambda m, a, dim, dims: a.squeeze(dim), with_ones()),
    "squeeze_dims": (lambda m, a, dim, dims: m.squeeze(a, dims), with_ones()),
    "unsqueeze": (lambda m, a, dim, dims: a.unsqueeze(dim - 1 if dim < 0 < a.dim() else dim),
                  with_ones()),
    "expand": (lambda m, a, shape: a.expand(shape), expand_target()),
    "repeat": (lambda m, a, reps: a.repeat(*reps), repeats()),
    "cat": (lambda m, *ts, dim: m.cat(ts, dim), to_join()),
    "stack": (lambda m, *ts, dim: m.stack(ts, dim=dim), to_join(same_shape=True)),
    "split": (lambda m, a, dim, size, sizes, chunks: a.split(size, dim), to_split()),
    "split_sizes": (lambda m, a, dim, size, sizes, chunks: m.split(a, sizes, dim), to_split()),
    "chunk": (lambda m, a, dim, size, sizes, chunks: a.chunk(chunks, dim), to_split()),
    "unbind": (lambda m, a, dim, size, sizes, chunks: a.unbind(dim), to_split()),
    # indexing
    "index_basic": (lambda m, a, key: a[key], basic_index()),
    "index_mixed": (lambda m, a, key: a[_key_for(m, key)], mixed_index()),
    "index_list": (lambda m, a, key: a[key], list_index()),
    "setitem_basic": (lambda m, x, v, key: _setitem(m, x, v, key), setitem_case(False)),
    "setitem_advanced": (lambda m, x, v, key: _setitem(m, x, v, key), setitem_case(True)),
    # linear algebra
    "matmul": (_matmul, matmul_case()),
    "mm": (lambda m, a, b: a.mm(b), mm_case("mm")),
    "mv": (lambda m, a, b: m.mv(a, b), mm_case("mv")),
    "dot": (lambda m, a, b: a.dot(b), mm_case("dot")),
    "bmm": (lambda m, a, b: m.bmm(a, b), mm_case("bmm")),
    "matmul_operator": (lambda m, a, b: a @ b, mm_case("mm")),
    # copies and conversions
    "clone": (lambda m, a: a.clone() * 2, one()),
    "to_float64": (lambda m, a: a.to(m.float64).exp(), one()),
    "double_to_float": (lambda m, a: a.double().float(), one()),
    "to_copy": (lambda m, a: a.to(m.float32, copy=True), one()),
    # loss
    "bce_with_logits": (_bce, bce_case()),
}


def run(m, fn, arrays, params, seed: int):
    """Run ``fn`` in library ``m``; backward with a seeded upstream gradient."""
    params = dict(params)
    rg = params.pop("_rg", None) or [a.dtype.kind == "f" for a in arrays]
    inputs = [m.from_numpy(a.copy()).requires_grad_(bool(r)) if a.dtype.kind == "f"
              else m.from_numpy(a.copy()) for a, r in zip(arrays, rg)]
    out = fn(m, *inputs, **params)
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    rng = np.random.default_rng(seed)
    diff = [o for o in outs if o.requires_grad]
    grads = [m.from_numpy(rng.standard_normal(tuple(o.shape)).astype(
        np.float64 if o.dtype == m.float64 else np.float32)) for o in diff]
    if len(diff) == 1:
        diff[0].backward(grads[0])
    elif diff:  # several pieces (split, unbind): the last gets no gradient and counts as zeros
        sum((o * g).sum() for o, g in zip(diff[:-1], grads)).backward()
    return (outs, [graph_signature(o) for o in outs],
            [t.grad if t.requires_grad else None for t in inputs])


def compare(name, arrays, params, seed=0):
    fn = CASES[name][0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. torch's var() degrees-of-freedom warning
        ref_outs, ref_graphs, ref_grads = run(torch, fn, arrays, params, seed)
    outs, graphs, grads = run(minitorch, fn, arrays, params, seed)
    assert len(outs) == len(ref_outs)
    for o, r in zip(outs, ref_outs):
        assert_same_values(o, r)
        assert o.requires_grad == r.requires_grad
    assert graphs == ref_graphs
    for i, (g, r) in enumerate(zip(grads, ref_grads)):
        assert (g is None) == (r is None), f"gradient of input {i}"
        if r is not None:
            assert_same_values(g, r)


@pytest.mark.parametrize("name", sorted(CASES))
@SETTINGS
@given(data=st.data())
def test_forward_gradient_and_graph_match_torch(name, data):
    arrays, params = data.draw(CASES[name][1], label="inputs")
    compare(name, arrays, params, seed=data.draw(st.integers(0, 2**16), label="seed"))


# ---------------------------------------------------------------- fixed cases worth keeping
@pytest.mark.parametrize("name, arrays, params", [
    ("maximum", (np.array([1.0, 2.0, 3.0], np.float32), np.array([1.0, 5.0, 0.0], np.float32)),
     {}),  # a tie splits the gradient in half
    ("max", (np.array([[2.0, 2.0], [1.0, 2.0]], np.float32),), {}),  # three-way tie
    ("amax_dims", (np.array([[2.0, 2.0], [1.0, 0.0]], np.float32),),
     {"dim": (1,), "keepdim": False}),
    ("abs", (np.array([-1.0, 0.0, 2.0], np.float32),), {}),  # d|x|/dx at 0 is 0
    ("relu", (np.array([-1.0, 0.0, 2.0], np.float32),), {}),
    ("clamp_min", (np.array([-0.5, 0.0, -1.0], np.float32),), {}),  # on the bound
    ("index_mixed", (np.arange(24, dtype=np.float32).reshape(2, 3, 4),),
     {"key": (1, slice(None), np.array([0, 2, 2]))}),  # int then index: select first
    ("index_mixed", (np.arange(24, dtype=np.float32).reshape(2, 3, 4),),
     {"key": (np.array([1, 0]), slice(None), np.array([3, 3]))}),  # separated index arrays
    ("index_mixed", (np.arange(24, dtype=np.float32).reshape(2, 3, 4),),
     {"key": (np.array([[True, False, True], [False, False, True]]), 2)}),  # 2-d mask
    ("index_mixed", (np.arange(6, dtype=np.float32).reshape(2, 3),),
     {"key": (Ellipsis, np.array([0, 0, 0]))}),  # a repeated index gets the gradient 3 times
    ("index_basic", (np.arange(6, dtype=np.float32).reshape(2, 3),), {"key": Ellipsis}),
    ("index_basic", (np.arange(6, dtype=np.float32).reshape(2, 3),),
     {"key": (slice(None), slice(None))}),
    ("index_basic", (np.arange(6, dtype=np.float32).reshape(2, 3),), {"key": slice(None)}),
    ("index_basic", (np.array(3.0, np.float32),), {"key": (None, Ellipsis)}),
    ("setitem_advanced", (np.zeros((3, 4), np.float32), np.ones((2, 4), np.float32)),
     {"key": (np.array([2, 0]),)}),
    ("setitem_advanced", (np.zeros((2, 3, 4), np.float32), np.ones(2, np.float32)),
     {"key": (0, slice(None), np.array([3, 1]))}),
    ("setitem_basic", (np.zeros((3, 4), np.float32), np.ones(4, np.float32)), {"key": (1,)}),
    ("setitem_basic", (np.zeros((3, 4), np.float32), np.ones((1, 2), np.float32)),
     {"key": (slice(0, 2), slice(1, 3))}),
    ("matmul", (np.ones((2, 3, 4), np.float32), np.ones((4, 5), np.float32)),
     {"_rg": (True, True), "transpose_a": False}),  # folded into one mm
    ("matmul", (np.ones((2, 3, 4), np.float32), np.ones((4, 5), np.float32)),
     {"_rg": (True, False), "transpose_a": False}),  # contiguous: also folded
    ("matmul", (np.ones((4,), np.float32), np.ones((2, 4, 5), np.float32)),
     {"_rg": (True, True), "transpose_a": False}),  # vector @ batch: transposed fold
    ("matmul", (np.ones((3, 4), np.float32), np.ones((2, 4, 5), np.float32)),
     {"_rg": (True, True), "transpose_a": False}),  # matrix @ batch: mT().contiguous()
    ("matmul", (np.ones((1, 3, 4), np.float32), np.ones((2, 4, 5), np.float32)),
     {"_rg": (True, False), "transpose_a": False}),  # batch of one needing grad: squeezed
    ("matmul", (np.ones((2, 1, 3, 4), np.float32), np.ones((5, 4, 2), np.float32)),
     {"_rg": (True, True), "transpose_a": False}),  # broadcast batches: bmm
    ("matmul", (np.ones((2, 3, 4), np.float32), np.ones((4,), np.float32)),
     {"_rg": (False, True), "transpose_a": False}),
])
def test_fixed_examples_match_torch(name, arrays, params):
    compare(name, arrays, params)


def test_matmul_of_a_noncontiguous_batch_matches_torch():
    a = np.arange(24, dtype=np.float32).reshape(3, 2, 4) / 10
    b = np.arange(20, dtype=np.float32).reshape(4, 5) / 10
    fn = lambda m, a, b: a.transpose(0, 1) @ b  # noqa: E731  (strides stop the fold)
    CASES["_noncontiguous"] = (fn, None)
    try:
        compare("_noncontiguous", (a, b), {"_rg": (True, False)})
    finally:
        del CASES["_noncontiguous"]


def test_bce_with_logits_gradient_formula_for_target_and_pos_weight():
    x = np.array([[-20.0, -1.0, 0.0], [0.5, 3.0, 30.0]], np.float32)
    y = np.array([[0.0, 0.3, 1.0], [1.0, 0.0, 0.5]], np.float32)
    w = np.array([0.5, 1.0, 2.0], np.float32)
    p = np.array([3.0, 0.5, 1.0], np.float32)
    for reduction in ("mean", "sum", "none"):
        compare("bce_with_logits", (x, y, w, p),
                {"reduction": reduction, "weight": 2, "pos_weight": 3,
                 "_rg": (True, True, False, False)})


# ---------------------------------------------------------------- second order
SECOND_ORDER = {
    "cube": lambda m, x, w: (x ** 3 * w).sum(),
    "tanh": lambda m, x, w: (x.tanh() + w.tanh() ** 2).sum(),
    "sigmoid": lambda m, x, w: m.sigmoid(x * w).sum(),
    "exp_sin": lambda m, x, w: (x.exp() * x.sin() * w.cos()).sum(),
    "log_sqrt_div": lambda m, x, w: (x.abs().add(1).log() * (x * x + 1).sqrt() / (w * w + 1))
    .sum(),
    "matmul_chain": lambda m, x, w: ((x @ w).tanh() @ w.t()).pow(2).mean(),
    "reductions": lambda m, x, w: x.var() * x.std() + (x * w).amax() + x.mean(0).sum() ** 2,
    "shapes": lambda m, x, w: (m.cat([x, w], 0).reshape(-1)[1:].unsqueeze(0) ** 2).sum(),
    "indexing": lambda m, x, w: (x[:, m.tensor([0, 0, 1])] ** 2 * w[0, 1]).sum(),
    "bce": lambda m, x, w: _bce(m, x, w.sigmoid(), reduction="mean"),
    "maximum_where": lambda m, x, w: (m.maximum(x, w) * m.where(x > 0, x, w * w)).sum(),
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_second_order_gradients_match_torch(name):
    rng = np.random.default_rng(7)
    xs = rng.standard_normal((3, 3)).astype(np.float32)
    ws = rng.standard_normal((3, 3)).astype(np.float32)
    results = []
    for m in (minitorch, torch):
        x = m.from_numpy(xs.copy()).requires_grad_()
        w = m.from_numpy(ws.copy()).requires_grad_()
        y = SECOND_ORDER[name](m, x, w)
        gx, gw = m.autograd.grad(y, (x, w), create_graph=True)
        # d/dx and d/dw of a scalar made from both first derivatives
        z = (gx * gx).sum() + (gx * gw).sum()
        hx, hw = m.autograd.grad(z, (x, w), allow_unused=True)
        assert gx.requires_grad and gw.requires_grad  # create_graph=True recorded the backward
        results.append((y, gx, gw, hx, hw))
    # (The nodes of the first derivative differ: PyTorch has fused ones such as
    # TanhBackwardBackward0, minitorch builds its derivatives from ordinary operations.)
    for a, b in zip(*results):
        assert_same_values(a, b, rtol=2e-4, atol=2e-5)


def test_second_derivative_of_cube_by_backward_twice_matches_torch():
    for m in (minitorch, torch):
        x = m.tensor([0.5, -2.0, 3.0], requires_grad=True)
        (g,) = m.autograd.grad((x ** 3).sum(), x, create_graph=True)
        g.sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), [3.0, -12.0, 18.0], **F32)
        assert type(g.grad_fn).__name__ == "MulBackward0"


# ---------------------------------------------------------------- issue 26: the last edges
def _both(fn, *arrays, grad=True):
    """``fn(m, *tensors)`` with minitorch and with torch: (output, gradients) of each."""
    results = []
    for m in (minitorch, torch):
        xs = [m.from_numpy(a.copy()).requires_grad_(grad and a.dtype.kind == "f")
              for a in arrays]
        out = fn(m, *xs)
        leaves = [x for x in xs if x.requires_grad]
        grads = m.autograd.grad(out.sum(), leaves) if leaves else ()
        results.append((out, grads))
    return results


def _assert_bits(mine, ref):
    """The very same values: NaN where PyTorch has NaN, inf of the same sign, signed zeros."""
    a, b = to_numpy(mine), to_numpy(ref)
    assert str(mine.dtype) == str(ref.dtype) and a.shape == b.shape
    np.testing.assert_array_equal(np.isnan(a), np.isnan(b))
    np.testing.assert_array_equal(np.signbit(a[~np.isnan(a)]), np.signbit(b[~np.isnan(b)]))
    np.testing.assert_array_equal(a[~np.isnan(a)], b[~np.isnan(b)])


def test_float16_reductions_accumulate_in_float32_as_torch():
    """x.std() of 4,096 halves around 300 is about 300 in PyTorch, not inf: its reductions add
    up float16 in float32 and round once (the variance alone, 90,000, is no float16)."""
    data = (300 + 300 * np.random.default_rng(26).standard_normal((64, 64))).astype(np.float16)
    calls = {"std": lambda m, x: x.std(), "std0": lambda m, x: x.std(0),
             "var": lambda m, x: x.var(1), "mean": lambda m, x: x.mean(0),
             "sum0": lambda m, x: x.sum(0), "sum": lambda m, x: x.sum(),
             "norm": lambda m, x: x.norm(), "norm1": lambda m, x: x.norm(dim=1),
             "vector_norm": lambda m, x: m.linalg.vector_norm(x, dim=0),
             "mse": lambda m, x: m.nn.functional.mse_loss(x, x.detach() * 0.5),
             "softmax": lambda m, x: m.nn.functional.softmax(x / 64, 1),
             "batch_norm": lambda m, x: m.nn.functional.batch_norm(x, None, None,
                                                                   training=True)}
    for name, fn in calls.items():
        (mine, gm), (ref, gt) = _both(lambda m, x, fn=fn: fn(m, x).float(), data)
        np.testing.assert_allclose(to_numpy(mine), to_numpy(ref), rtol=2e-3, atol=2e-3,
                                   err_msg=name)
        np.testing.assert_allclose(to_numpy(gm[0]), to_numpy(gt[0]), rtol=1e-2, atol=1e-2,
                                   err_msg=name)
    std = minitorch.from_numpy(data.copy()).std().item()
    assert 250 < std < 350 and std == torch.from_numpy(data.copy()).std().item()


@pytest.mark.parametrize("upstream", [np.inf, np.nan])
def test_inf_and_nan_gradients_meet_the_formulas_as_in_torch(upstream):
    """PyTorch multiplies an incoming gradient by its masked formulas (inf * 0 is NaN) where it
    masks, and selects where it scatters (NLL, ceil): minitorch does each the same."""
    zero_base = np.array([0.0, 0.0, 2.0, 0.0], np.float32)
    exponent = np.array([2.0, 0.0, 1.5, -1.0], np.float32)
    logits = np.random.default_rng(1).standard_normal((4, 5)).astype(np.float32)
    target = np.array([1, 0, 4, -100])
    calls = {
        "pow": (lambda m, a, b: a ** b, zero_base, exponent),
        "rpow_zero": (lambda m, b: 0.0 ** b, exponent),
        "norm_at_zero": (lambda m, x: x.norm(), np.zeros(3, np.float32)),
        "fro_at_zero": (lambda m, x: x.norm(p="fro", dim=1), np.zeros((2, 3), np.float32)),
        "vector_norm_at_zero": (lambda m, x: m.linalg.vector_norm(x), np.zeros(3, np.float32)),
        "cross_entropy": (lambda m, x: m.nn.functional.cross_entropy(
            x, m.from_numpy(target.copy())), logits),
        "cross_entropy_none": (lambda m, x: m.nn.functional.cross_entropy(
            x, m.from_numpy(target.copy()), reduction="none"), logits),
        "nll_weight": (lambda m, x: m.nn.functional.nll_loss(
            x, m.from_numpy(target.copy()), weight=m.arange(1.0, 6.0)), logits),
        "prod_two_zeros": (lambda m, x: x.prod(), np.array([2.0, 0.0, 0.0], np.float32)),
        "ceil": (lambda m, x: x.ceil(), logits),
        "floor": (lambda m, x: m.floor(x), logits),
    }
    for name, (fn, *arrays) in calls.items():
        (_, gm), (_, gt) = _both(lambda m, *xs, fn=fn: fn(m, *xs) * m.tensor(upstream),
                                 *arrays)
        for a, b in zip(gm, gt):
            _assert_bits(a, b) if name not in ("cross_entropy", "cross_entropy_none") else \
                np.testing.assert_array_equal(np.isnan(to_numpy(a)), np.isnan(to_numpy(b)))


def test_signed_zeros_survive_clamp_and_maximum_as_in_torch():
    """clamp(x, 0) and maximum(x, 0) keep -0.0, so sqrt's gradient there is -inf."""
    for dtype in (np.float32, np.float16, np.float64):
        data = np.array([-0.0, 0.0, -1.0, 2.0], dtype)
        for fn in (lambda m, x: m.clamp(x, 0), lambda m, x: x.clamp(max=0.0),
                   lambda m, x: x.clamp_min(0.0), lambda m, x: m.maximum(x, m.zeros_like(x)),
                   lambda m, x: m.minimum(x, m.zeros_like(x)),
                   lambda m, x: m.clamp(x, m.zeros_like(x))):
            (out, gm), (ref, gt) = _both(lambda m, x, fn=fn: m.sqrt(fn(m, x)), data)
            _assert_bits(out, ref)
            _assert_bits(gm[0], gt[0])


def test_reciprocal_and_division_gradients_overflow_as_in_torch():
    """-grad * (out * out): PyTorch squares first, so a small gradient still gives -inf."""
    data = np.array([1e-20, 3e-39, 1e-30, 2.0], np.float32)
    for fn in (lambda m, x: x.reciprocal() * 1e-10, lambda m, x: 1.0 / x * 1e-10,
               lambda m, x: 2.0 / x * 1e-10, lambda m, x: x ** -1 * 1e-10):
        (_, gm), (_, gt) = _both(fn, data)
        _assert_bits(gm[0], gt[0])


def test_float16_times_a_number_rounds_once_as_torch():
    """PyTorch multiplies and divides float16 by a Python number in float32 (0 * 1e5 is 0,
    x / 1e5 no zero); 0 / x has PyTorch's gradient (NaN where 1 / x**2 overflows)."""
    data = np.concatenate([np.random.default_rng(2).standard_normal(2000),
                           [0.0, -0.0, 1e-4, 300.0, 6e4]]).astype(np.float16)
    for fn in (lambda m, x: x * 0.1, lambda m, x: x * 1e5, lambda m, x: 2 ** 31 * x,
               lambda m, x: x / 3, lambda m, x: x / 1e5, lambda m, x: 1e5 / x,
               lambda m, x: 0 / x, lambda m, x: x.clone().mul_(0.1),
               lambda m, x: x.clone().div_(1e5), lambda m, x: x - 0.1):
        (out, gm), (ref, gt) = _both(fn, data)
        _assert_bits(out, ref)
        _assert_bits(gm[0], gt[0])



# ---------------------------------------------------------------- backward(create_graph=True)
def _snap(t):
    """What a learner sees of a ``.grad``: values, requires_grad and the node's name."""
    return (to_numpy(t).tolist(), t.requires_grad,
            None if t.grad_fn is None else type(t.grad_fn).__name__)


def test_backward_create_graph_then_again_and_through_x_grad_matches_torch():
    """``y.backward(create_graph=True)`` leaves a recorded copy in ``x.grad`` (CopyBackwards);
    a second plain ``backward()`` adds into that very tensor; a backward through ``x.grad``
    then gives the second derivative, added to it; two create_graph backwards add out of place
    (AddBackward0). Every second-order test elsewhere goes through ``autograd.grad``."""
    results = []
    for m in (minitorch, torch):
        x = m.tensor([0.5, -2.0, 3.0], requires_grad=True)
        w = m.tensor([1.5, 0.25, -1.0], requires_grad=True)
        y = (x ** 3 * w).sum()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # PyTorch's note on the reference cycle
            y.backward(create_graph=True)  # x.grad = 3 x^2 w, w.grad = x^3, both recorded
        seen = [_snap(x.grad), _snap(w.grad)]
        gx = x.grad
        y.backward()  # a second backward: added into the same tensors, in place
        seen += [_snap(x.grad), x.grad is gx, _snap(w.grad)]
        gx.sum().backward()  # through x.grad: x.grad += 6 x w, w.grad += 3 x^2
        seen += [_snap(x.grad), _snap(w.grad)]
        x.grad = w.grad = None
        y = (x ** 3 * w).sum()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y.backward(create_graph=True)
            first = x.grad
            y.backward(create_graph=True)  # out of place: x.grad = first + second
        seen += [_snap(x.grad), x.grad is first, _snap(first)]
        x.grad.sum().backward()
        seen += [_snap(x.grad), _snap(w.grad)]
        results.append(seen)
    assert results[0] == results[1]


def test_one_gradient_reaching_two_leaves_matches_torch():
    """``(x + w).backward(g)`` twice, plain and after ``create_graph=True`` with a ``g`` that
    requires grad: each leaf has its own ``.grad``, and ``g`` is untouched, as in PyTorch."""
    for create_graph in (False, True):
        results = []
        for m in (minitorch, torch):
            x = m.tensor([1.0, 2.0], requires_grad=True)
            w = m.tensor([3.0, 4.0], requires_grad=True)
            g = m.tensor([1.0, 1.0], requires_grad=create_graph)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                (x + w).backward(g, create_graph=create_graph)
            seen = [x.grad is w.grad, x.grad is g, _snap(x.grad)]
            (x + w).backward(g)
            with m.no_grad():
                x.grad.mul_(10)  # x's gradient only
            seen += [_snap(x.grad), _snap(w.grad), _snap(g)]
            results.append(seen)
        assert results[0] == results[1]


@pytest.mark.parametrize("name,dim,shape", [("log_softmax", 1, (3, 4)), ("softmax", 1, (3, 4)),
                                            ("log_softmax", 0, (2, 3, 2)),
                                            ("softmax", -1, (2, 3, 2))])
def test_softmax_gradients_are_operations_of_their_own_as_in_torch(name, dim, shape):
    """PyTorch's softmax and log_softmax backward are operations (``_softmax_backward_data``,
    ``_log_softmax_backward_data``): with ``create_graph=True`` the gradient's node is
    ``SoftmaxBackwardDataBackward0`` with edges for the incoming gradient and the output,
    and its own gradients (the second and third derivatives) are PyTorch's."""
    rng = np.random.default_rng(3)
    xa, ua, va = (rng.standard_normal(shape) * 3 for _ in range(3))

    def derivatives(lib):
        x, u = lib.tensor(xa, requires_grad=True), lib.tensor(ua, requires_grad=True)
        y = getattr(lib.nn.functional, name)(x, dim)
        (g,) = lib.autograd.grad(y, x, u, create_graph=True)
        gx, gu = lib.autograd.grad((g * lib.tensor(va)).sum(), (x, u), create_graph=True)
        (third,) = lib.autograd.grad((gx * gx).sum() + (gu * gu).sum(), x)
        nodes = [type(t.grad_fn).__name__ for t in (g, gx, gu)]
        edges = [type(n).__name__ for n, _ in g.grad_fn.next_functions]
        return nodes, edges, [t.detach().numpy() for t in (g, gx, gu, third)]

    (nodes, edges, values), (t_nodes, t_edges, t_values) = derivatives(minitorch), \
        derivatives(torch)
    assert (nodes, edges) == (t_nodes, t_edges)
    for mine, theirs in zip(values, t_values):
        np.testing.assert_allclose(mine, theirs, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("shape", [(32, 10), (33, 1), (100, 32), (64, 7), (40, 33), (31, 10)])
def test_softmax_of_many_short_rows_matches_torch(name, dtype, shape):
    """From 32 rows of at most 32 scores, the row maximum is taken from a transposed copy
    (NumPy's reduction along a short last axis is slow): each row must still get its own
    maximum, with infinities, NaNs and signed zeros, and the gradient must follow it."""
    rng = np.random.default_rng(sum(shape))
    xa = (rng.standard_normal(shape) * 4).astype(dtype)
    rows = rng.permutation(shape[0])[:6]
    xa[rows[0]] = -np.inf  # a row of -inf: NaN everywhere, as in PyTorch
    xa[rows[1], 0] = np.inf
    xa[rows[2], -1] = np.nan
    xa[rows[3]] = 0.0
    xa[rows[3], ::2] = -0.0
    xa[rows[4], 0] = 1e4  # one score far above the others
    ga = rng.standard_normal(shape).astype(dtype)

    def run(lib):
        x = lib.tensor(xa, requires_grad=True)
        y = getattr(lib.nn.functional, name)(x, 1)
        y.backward(lib.tensor(ga))
        return y, x.grad

    tol = {"float16": {"rtol": 2e-3, "atol": 2e-3}, "float32": F32,
           "float64": {"rtol": 1e-12, "atol": 1e-12}}[dtype]
    for mine, theirs in zip(run(minitorch), run(torch)):
        assert_same_values(mine, theirs, **tol)
        assert np.array_equal(np.isnan(to_numpy(mine)), np.isnan(to_numpy(theirs)))


# ---------------------------------------------------------------- edges a fuzz against torch found
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("shape,dim", [((3, 0), 1), ((0, 3), 0), ((0, 3), 1), ((2, 0, 4), 1),
                                       ((2, 0, 4), -1), ((0,), 0)])
def test_softmax_along_an_empty_dim_is_empty_as_in_torch(name, shape, dim):
    """No maximum to shift by, and nothing to sum: NumPy's max would raise, and the log of the
    empty sum would warn. The result and the gradient are empty, as in PyTorch."""
    out = []
    for m in (minitorch, torch):
        x = m.zeros(*shape, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            y = getattr(m.nn.functional, name)(x, dim)
            y.sum().backward()
        out.append((tuple(y.shape), y.dtype == m.float32, tuple(x.grad.shape)))
    assert out[0] == out[1]


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_gradient_in_float16_is_computed_in_float32_as_in_torch(approximate):
    """In float16, x * x overflows from |x| = 256: the tanh form's slope was inf * 0 = NaN
    there. PyTorch computes in float32 and rounds once; so does minitorch now."""
    rng = np.random.default_rng(0)
    xs = np.concatenate([np.linspace(-3000, 3000, 401), rng.standard_normal(200) * 3,
                         [0.0, -0.0, 65504.0, -65504.0]]).astype(np.float16)
    upstream = rng.standard_normal(xs.size).astype(np.float16)
    grads = []
    for m in (minitorch, torch):
        x = m.tensor(xs, requires_grad=True)
        m.nn.functional.gelu(x, approximate=approximate).backward(m.tensor(upstream))
        grads.append(x.grad.numpy())
    ours, theirs = grads
    assert ours.dtype == theirs.dtype == np.float16
    assert not np.isnan(ours).any()
    np.testing.assert_allclose(ours.astype(np.float32), theirs.astype(np.float32),
                               rtol=2e-3, atol=1e-5)


@pytest.mark.parametrize("dtype,values,divisor", [
    ("uint8", [4, 100], -3), ("int32", [10, 4], 2**40), ("int8", [7, -7], 300),
    ("bool", [True, False], 2)])
def test_integer_true_division_makes_each_operand_a_float_as_in_torch(dtype, values, divisor):
    """A 0-d integer tensor does not set the promoted integer type, and need not fit in it:
    true division converts each operand to a float from its own dtype, as PyTorch does."""
    ours, theirs = ((m.tensor(values, dtype=getattr(m, dtype)) / m.tensor(divisor)).numpy()
                    for m in (minitorch, torch))
    assert ours.dtype == theirs.dtype
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("name", ["relu", "leaky_relu"])
def test_a_gradient_penalty_reaches_the_input_of_a_relu_network_as_in_torch(name):
    """relu's and leaky_relu's gradients are operations of their own whose input edge gets a
    zero gradient, as in PyTorch: the second derivative through them is connected (zeros),
    so a gradient penalty reaches the network's input, and the graphs are PyTorch's."""
    seen = []
    for m in (minitorch, torch):
        act = m.nn.ReLU() if name == "relu" else m.nn.LeakyReLU(0.2)
        m.manual_seed(0)
        net = m.nn.Sequential(m.nn.Linear(3, 4), act, m.nn.Linear(4, 1))
        x = m.tensor(np.linspace(-2, 2, 15, dtype=np.float32).reshape(5, 3), requires_grad=True)
        (gx,) = m.autograd.grad(net(x).sum(), x, create_graph=True)
        penalty = ((gx.norm(dim=1) - 1) ** 2).mean()
        penalty.backward()
        seen.append((graph_signature(gx), x.grad is None, to_numpy(net[0].weight.grad)))
    (ours_graph, ours_none, ours_w), (their_graph, their_none, their_w) = seen
    assert ours_graph == their_graph
    assert ours_none is their_none is False
    np.testing.assert_allclose(ours_w, their_w, rtol=1e-5, atol=1e-6)


_ONE_SIDED_CLAMPS = {
    "clamp_min_number": lambda m, x, b: x.clamp_min(0.0),
    "clamp_max_number": lambda m, x, b: x.clamp_max(0.0),
    "clamp_min_tensor": lambda m, x, b: x.clamp_min(b),
    "clamp_max_tensor": lambda m, x, b: m.clamp_max(x, b),
    "fn_clamp_min": lambda m, x, b: m.clamp_min(x, 0.5),
    "clamp_min_inplace": lambda m, x, b: (x * 1).clamp_min_(0.0),
    "clamp_min_keyword": lambda m, x, b: x.clamp(min=0.0),
    "normalize": lambda m, x, b: m.nn.functional.normalize(x.reshape(1, 4)),
}


@pytest.mark.parametrize("case", sorted(_ONE_SIDED_CLAMPS))
def test_one_sided_clamps_record_pytorchs_nodes(case):
    """``clamp_min``/``clamp_max`` are ops of their own in PyTorch (ClampMinBackward0, or
    ClampMinBackward1 with two edges for a tensor bound), not ``clamp`` (ClampBackward1);
    the gradients, the bound's included, agree."""
    seen = []
    for m in (minitorch, torch):
        x = m.tensor([1.0, -2.0, 0.0, 3.0], requires_grad=True)
        b = m.tensor(0.5, requires_grad=True)
        out = _ONE_SIDED_CLAMPS[case](m, x, b)
        out.sum().backward()
        seen.append((graph_signature(out), to_numpy(out).tolist(), to_numpy(x.grad).tolist(),
                     None if b.grad is None else b.grad.item()))
    assert seen[0] == seen[1]
