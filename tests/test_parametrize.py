"""``nn.utils.parametrize`` (and ``nn.init.orthogonal_``) against PyTorch.

Each test builds the same modules with both libraries (the parametrizations are classes made
from each library's ``nn.Module``), copies the same NumPy weights in, and compares what is
printed, the state_dict keys, the values, the gradients and the errors.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import minitorch
from minitorch.nn.utils import parametrize as mt_parametrize

torch = pytest.importorskip("torch")
import torch.nn.utils.parametrize as torch_parametrize  # noqa: E402

LIBS = {"mt": (minitorch, mt_parametrize), "torch": (torch, torch_parametrize)}


def kinds(lib):
    """The tutorial's parametrizations, built on ``lib.nn.Module``."""
    nn = lib.nn

    class Symmetric(nn.Module):
        def forward(self, x):
            return x.triu() + x.triu(1).transpose(-1, -2)

    class Skew(nn.Module):
        def forward(self, x):
            a = x.triu(1)
            return a - a.transpose(-1, -2)

        def right_inverse(self, a):
            return a.triu(1)

    class CayleyMap(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.register_buffer("Id", lib.eye(n, dtype=lib.float64))

        def forward(self, x):
            return lib.linalg.solve(self.Id - x, self.Id + x)

        def right_inverse(self, a):
            return lib.linalg.solve(a + self.Id, self.Id - a)

    class Scale(nn.Module):  # has a parameter of its own
        def __init__(self):
            super().__init__()
            self.s = nn.Parameter(lib.tensor(2.0, dtype=lib.float64))

        def forward(self, x):
            return x * self.s

    class Counting(nn.Module):
        calls = 0

        def forward(self, x):
            type(self).calls += 1
            return x + 0  # a new tensor each time

    class Split(nn.Module):  # two originals: original0, original1
        def forward(self, a, b):
            return a + b

        def right_inverse(self, x):
            return (x / 2, x / 2)

    class Flatten(nn.Module):
        def forward(self, x):
            return x.flatten()

    class ToFloat32(nn.Module):
        def forward(self, x):
            return x.float()

    class NotATensor(nn.Module):
        def forward(self, x):
            return 3

    return dict(Symmetric=Symmetric, Skew=Skew, CayleyMap=CayleyMap, Scale=Scale,
                Counting=Counting, Split=Split, Flatten=Flatten, ToFloat32=ToFloat32,
                NotATensor=NotATensor)


W = np.random.default_rng(0).standard_normal((3, 3))
B = np.random.default_rng(1).standard_normal(3)


def linear(lib):
    layer = lib.nn.Linear(3, 3, dtype=lib.float64)
    with lib.no_grad():
        layer.weight.copy_(lib.from_numpy(W.copy()))
        layer.bias.copy_(lib.from_numpy(B.copy()))
    return layer


def both(build):
    """``build(lib, parametrize, kinds)`` run with each library."""
    return {name: build(lib, p, kinds(lib)) for name, (lib, p) in LIBS.items()}


def np_of(t):
    return t.detach().numpy()


def test_register_renames_the_class_and_prints_as_torch():
    def build(lib, p, k):
        layer = linear(lib)
        before = repr(layer)
        out = p.register_parametrization(layer, "weight", k["Symmetric"]())
        assert out is layer
        return (before, repr(layer), repr(layer.parametrizations),
                repr(layer.parametrizations.weight), repr(layer.parametrizations.weight[0]),
                type(layer).__name__, type(layer).__bases__[0].__name__,
                p.type_before_parametrizations(layer).__name__,
                list(layer.state_dict()), [n for n, _ in layer.named_parameters()],
                type(layer.parametrizations.weight.original).__name__,
                p.is_parametrized(layer), p.is_parametrized(layer, "weight"),
                p.is_parametrized(layer, "bias"), isinstance(layer, lib.nn.Linear))
    got = both(build)
    assert got["mt"] == got["torch"]
    assert got["mt"][5] == "ParametrizedLinear"


def test_values_and_gradients_match_torch():
    def build(lib, p, k):
        layer = linear(lib)
        p.register_parametrization(layer, "weight", k["Symmetric"]())
        x = lib.from_numpy(np.arange(6.0).reshape(2, 3))
        y = layer(x)
        (y * y).sum().backward()
        original = layer.parametrizations.weight.original
        return np_of(layer.weight), np_of(y), original.grad.numpy(), layer.bias.grad.numpy()
    got = both(build)
    for mine, theirs in zip(got["mt"], got["torch"]):
        np.testing.assert_allclose(mine, theirs, rtol=1e-12)


def test_the_weight_is_recomputed_each_time():
    layer = linear(minitorch)
    mt_parametrize.register_parametrization(layer, "weight", kinds(minitorch)["Symmetric"]())
    assert layer.weight is not layer.weight
    assert layer.weight.grad_fn.name() == "AddBackward0"
    with minitorch.no_grad():
        layer.parametrizations.weight.original.mul_(2)
    np.testing.assert_allclose(np_of(layer.weight), 2 * (np.triu(W) + np.triu(W, 1).T))


def test_gradcheck_through_chained_parametrizations():
    k = kinds(minitorch)
    layer = linear(minitorch)
    mt_parametrize.register_parametrization(layer, "weight", k["Skew"]())
    mt_parametrize.register_parametrization(layer, "weight", k["CayleyMap"](3))
    original = layer.parametrizations.weight.original

    def f(o):
        with minitorch.no_grad():
            original.copy_(o)
        return layer.weight

    def g(o):  # the same function written out, so gradcheck sees the input
        a = o.triu(1)
        a = a - a.transpose(-1, -2)
        eye = minitorch.eye(3, dtype=minitorch.float64)
        return minitorch.linalg.solve(eye - a, eye + a)
    start = minitorch.from_numpy(W.copy()).requires_grad_()
    np.testing.assert_allclose(np_of(f(start)), np_of(g(start)))
    assert minitorch.autograd.gradcheck(g, (start,))
    # and the gradient that reaches ``original`` is g's
    (layer.weight * minitorch.from_numpy(W)).sum().backward()
    (g(start) * minitorch.from_numpy(W)).sum().backward()
    np.testing.assert_allclose(original.grad.numpy(), start.grad.numpy(), rtol=1e-10)


def test_chained_with_right_inverse_and_assignment_match_torch():
    def build(lib, p, k):
        layer = linear(lib)
        p.register_parametrization(layer, "weight", k["Skew"]())
        p.register_parametrization(layer, "weight", k["CayleyMap"](3))
        after_register = np_of(layer.weight)
        q = np.linalg.qr(W)[0]
        q = q if np.linalg.det(q) > 0 else -q
        original = layer.parametrizations.weight.original
        layer.weight = lib.from_numpy(q.copy())
        assert layer.parametrizations.weight.original is original  # the same Parameter
        return (after_register, np_of(layer.weight), np_of(original), repr(layer),
                list(layer.state_dict()))
    got = both(build)
    for mine, theirs in zip(got["mt"][:3], got["torch"][:3]):
        np.testing.assert_allclose(mine, theirs, rtol=1e-10, atol=1e-12)
    assert got["mt"][3:] == got["torch"][3:]


def test_parametrization_with_parameters_and_buffers():
    def build(lib, p, k):
        layer = linear(lib)
        p.register_parametrization(layer, "weight", k["Scale"]())
        p.register_parametrization(layer, "bias", k["Scale"]())
        bn = lib.nn.BatchNorm1d(3, dtype=lib.float64)
        p.register_parametrization(bn, "running_mean", k["Scale"]())
        layer(lib.ones(2, 3, dtype=lib.float64)).sum().backward()
        return (list(layer.state_dict()), [n for n, _ in layer.named_parameters()],
                list(bn.state_dict()), [n for n, _ in bn.named_buffers()],
                type(bn.parametrizations.running_mean.original).__name__,
                layer.parametrizations.weight[0].s.grad.item(), repr(layer), repr(bn))
    got = both(build)
    assert got["mt"][:5] == got["torch"][:5]
    assert got["mt"][5] == pytest.approx(got["torch"][5])
    assert got["mt"][6:] == got["torch"][6:]


def test_state_dict_round_trip():
    k = kinds(minitorch)
    a, b = linear(minitorch), minitorch.nn.Linear(3, 3, dtype=minitorch.float64)
    for m in (a, b):
        mt_parametrize.register_parametrization(m, "weight", k["Symmetric"]())
    b.load_state_dict(a.state_dict())
    np.testing.assert_array_equal(np_of(a.weight), np_of(b.weight))


def test_cached_computes_once():
    def build(lib, p, k):
        counting = k["Counting"]
        layer = linear(lib)
        p.register_parametrization(layer, "weight", counting())
        counts = [counting.calls]
        _ = layer.weight + layer.weight.T
        counts.append(counting.calls)
        with p.cached():
            w = layer.weight
            same = w is layer.weight
            with p.cached():
                same = same and w is layer.weight
            same = same and w is layer.weight  # the inner block's end keeps the cache
            counts.append(counting.calls)
        counts.append(counting.calls)
        return counts, same, layer.weight is w
    got = both(build)
    assert got["mt"] == got["torch"] == ([1, 3, 4, 4], True, False)


@pytest.mark.parametrize("leave_parametrized", [True, False])
def test_remove_parametrizations(leave_parametrized):
    def build(lib, p, k):
        layer = linear(lib)
        p.register_parametrization(layer, "weight", k["Skew"]())
        p.register_parametrization(layer, "bias", k["Scale"]())
        original = layer.parametrizations.weight.original
        p.remove_parametrizations(layer, "weight", leave_parametrized=leave_parametrized)
        assert layer.weight is original
        mid = (repr(layer), type(layer).__name__, list(layer.state_dict()))
        p.remove_parametrizations(layer, "bias", leave_parametrized=leave_parametrized)
        return (mid, repr(layer), type(layer).__name__, type(layer.weight).__name__,
                layer.weight.requires_grad, list(layer.state_dict()),
                hasattr(layer, "parametrizations"),
                p.is_parametrized(layer), np_of(layer.weight).tolist(), np_of(layer.bias).tolist())
    got = both(build)
    assert got["mt"] == got["torch"]
    assert got["mt"][2] == "Linear"


def test_sequence_right_inverse_gives_original0_original1():
    def build(lib, p, k):
        layer = linear(lib)
        p.register_parametrization(layer, "weight", k["Split"]())
        pl = layer.parametrizations.weight
        names = list(layer.state_dict())
        value = np_of(layer.weight)
        layer.weight = lib.from_numpy(2 * W)
        halves = np_of(pl.original0), np_of(pl.original1)
        with pytest.raises(ValueError) as info:
            p.remove_parametrizations(layer, "weight", leave_parametrized=False)
        p.remove_parametrizations(layer, "weight")
        return (names, pl.is_tensor, pl.ntensors, value.tolist(), [h.tolist() for h in halves],
                str(info.value), type(layer.weight).__name__, np_of(layer.weight).tolist())
    got = both(build)
    assert got["mt"] == got["torch"]


def test_transfer_parametrizations_and_params():
    def build(lib, p, k):
        a = linear(lib)
        p.register_parametrization(a, "weight", k["Symmetric"]())
        b = lib.nn.Linear(3, 3, dtype=lib.float64)
        out = p.transfer_parametrizations_and_params(a, b)
        assert out is b
        assert b.parametrizations.weight.original is a.parametrizations.weight.original
        c = lib.nn.Linear(3, 3, dtype=lib.float64)
        del c.weight
        p.transfer_parametrizations_and_params(a, c, "weight")
        return repr(b), list(b.state_dict()), np_of(b.weight).tolist(), np_of(c.weight).tolist()
    got = both(build)
    assert got["mt"] == got["torch"]


def errors(build):
    """The exception type and message each library raises."""
    out = {}
    for name, (lib, p) in LIBS.items():
        with pytest.raises(Exception) as info:
            build(lib, p, kinds(lib))
        out[name] = (type(info.value), str(info.value))
    return out


@pytest.mark.parametrize("case", [
    "missing_name", "shape", "dtype", "not_a_tensor", "chained_shape", "chained_dtype",
    "remove_missing", "assign_without_right_inverse", "empty_list", "pickle",
])
def test_errors_match_torch(case):
    def build(lib, p, k):
        layer = linear(lib)
        if case == "missing_name":
            p.register_parametrization(layer, "weights", k["Symmetric"]())
        elif case == "shape":
            p.register_parametrization(layer, "weight", k["Flatten"]())
        elif case == "dtype":
            p.register_parametrization(layer, "weight", k["ToFloat32"]())
        elif case == "not_a_tensor":
            p.register_parametrization(layer, "weight", k["NotATensor"]())
        elif case in ("chained_shape", "chained_dtype"):
            p.register_parametrization(layer, "weight", k["Symmetric"]())
            bad = k["Flatten"]() if case == "chained_shape" else k["ToFloat32"]()
            p.register_parametrization(layer, "weight", bad)
        elif case == "remove_missing":
            p.remove_parametrizations(layer, "weight")
        elif case == "assign_without_right_inverse":
            p.register_parametrization(layer, "weight", k["Symmetric"]())
            layer.weight = lib.zeros(3, 3, dtype=lib.float64)
        elif case == "empty_list":
            p.ParametrizationList([], layer.weight)
        elif case == "pickle":
            p.register_parametrization(layer, "weight", k["Symmetric"]())
            pickle.dumps(layer)
    got = errors(build)
    assert got["mt"] == got["torch"]


def test_unsafe_allows_a_new_shape_and_dtype():
    def build(lib, p, k):
        layer = linear(lib)
        p.register_parametrization(layer, "weight", k["Flatten"](), unsafe=True)
        p.register_parametrization(layer, "weight", k["ToFloat32"](), unsafe=True)
        return (tuple(layer.weight.shape), str(layer.weight.dtype).split(".")[-1],
                layer.parametrizations.weight.unsafe)
    got = both(build)
    assert got["mt"] == got["torch"]


def test_deepcopy_keeps_the_parametrization():
    layer = linear(minitorch)
    mt_parametrize.register_parametrization(layer, "weight", kinds(minitorch)["Symmetric"]())
    twin = copy.deepcopy(layer)
    assert type(twin).__name__ == "ParametrizedLinear"
    assert twin.parametrizations.weight.original is not layer.parametrizations.weight.original
    np.testing.assert_array_equal(np_of(twin.weight), np_of(layer.weight))


def test_modules_without_parametrizations_are_untouched():
    layer = linear(minitorch)
    assert type(layer) is minitorch.nn.Linear
    assert not mt_parametrize.is_parametrized(layer)
    assert mt_parametrize.type_before_parametrizations(layer) is minitorch.nn.Linear
    assert "weight" in layer._parameters


def test_import_paths_as_torch():
    import minitorch.nn.utils.parametrize as p

    assert minitorch.nn.utils.parametrize is p
    assert sorted(p.__all__) == sorted(torch_parametrize.__all__)


@pytest.mark.parametrize("shape", [(3, 5), (5, 3), (4, 2, 3), (1, 1), (6, 6)])
def test_orthogonal_init_matches_torch(shape):
    minitorch.manual_seed(0)
    torch.manual_seed(0)
    mine = minitorch.nn.init.orthogonal_(minitorch.empty(*shape), gain=2.0)
    theirs = torch.nn.init.orthogonal_(torch.empty(*shape), gain=2.0)
    np.testing.assert_allclose(mine.numpy(), theirs.numpy(), atol=2e-6)
    assert minitorch.randn(2).tolist() == pytest.approx(torch.randn(2).tolist())  # same draws


def test_orthogonal_init_errors_and_empty():
    for lib in (minitorch, torch):
        with pytest.raises(ValueError, match="^Only tensors with 2 or more dimensions are "
                                             "supported$"):
            lib.nn.init.orthogonal_(lib.empty(3))
        empty = lib.empty(0, 3)
        assert lib.nn.init.orthogonal_(empty) is empty


# ---------------------------------------------------------------- weight_norm, spectral_norm
def norms(lib):
    from importlib import import_module

    return import_module(f"{lib.__name__}.nn.utils.parametrizations")


def seeded(lib, make):
    lib.manual_seed(0)
    return make(lib)


@pytest.mark.parametrize("dim", [0, 1, 2, -1, None])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_weight_norm_matches_torch(dim, dtype):
    def build(lib, p, k):
        m = seeded(lib, lambda lib: lib.nn.Conv1d(2, 3, 2, dtype=getattr(lib, dtype)))
        out = norms(lib).weight_norm(m, dim=dim)
        assert out is m
        pl = m.parametrizations.weight
        x = lib.from_numpy(np.linspace(-1, 1, 8).reshape(1, 2, 4).astype(dtype))
        (m(x) ** 2).sum().backward()
        return (repr(m), list(m.state_dict()), m.weight.grad_fn.name(), tuple(pl.original0.shape),
                np_of(m.weight), np_of(pl.original0), pl.original0.grad.numpy(),
                pl.original1.grad.numpy())
    got = both(build)
    assert got["mt"][:4] == got["torch"][:4]
    for mine, theirs in zip(got["mt"][4:], got["torch"][4:]):
        np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-6)


def test_weight_norm_gradcheck_and_gradgradcheck():
    wn = norms(minitorch)
    rng = np.random.default_rng(2)
    for dim in (0, 2, 1):  # the fused node (first, last dimension) and the formula
        v = minitorch.from_numpy(rng.standard_normal((3, 2, 4))).requires_grad_()
        g = wn._norm_except_dim(v.detach(), dim).mul(1.5).requires_grad_()

        def f(v, g, dim=dim):
            return wn._weight_norm(v, g, dim)
        assert minitorch.autograd.gradcheck(f, (v, g))
        assert minitorch.autograd.gradgradcheck(f, (v, g))
    assert wn._weight_norm(v, g, 0).grad_fn.name() == "WeightNormInterfaceBackward0"


def test_weight_norm_assignment_and_removal_match_torch():
    def build(lib, p, k):
        m = norms(lib).weight_norm(linear(lib))
        m.weight = lib.from_numpy(2 * W)
        pl = m.parametrizations.weight
        g, v = np_of(pl.original0), np_of(pl.original1)
        p.remove_parametrizations(m, "weight")
        return g.tolist(), v.tolist(), type(m).__name__, np_of(m.weight).tolist()
    got = both(build)
    np.testing.assert_allclose(got["mt"][0], got["torch"][0], rtol=1e-12)
    assert got["mt"][1:3] == got["torch"][1:3]
    np.testing.assert_allclose(got["mt"][3], got["torch"][3], rtol=1e-12)


@pytest.mark.parametrize("make", ["linear", "conv2d", "conv_transpose1d", "bias", "iters3_dim-1"])
def test_spectral_norm_matches_torch(make):
    def module(lib):
        if make in ("linear", "bias"):
            return lib.nn.Linear(4, 3)
        if make == "conv_transpose1d":
            return lib.nn.ConvTranspose1d(2, 3, 2)
        return lib.nn.Conv2d(2, 3, 2)

    def build(lib, p, k):
        m = seeded(lib, module)
        kwargs = {"name": "bias"} if make == "bias" else \
            {"n_power_iterations": 3, "dim": -1} if make.startswith("iters") else {}
        norms(lib).spectral_norm(m, **kwargs)
        name = kwargs.get("name", "weight")
        first, second = np_of(getattr(m, name)), np_of(getattr(m, name))  # u, v move each time
        getattr(m, name).sum().backward()
        grad = m.parametrizations[name].original.grad.numpy()
        buffers = [np_of(b) for b in m.parametrizations[name][0].buffers()]
        m.eval()
        frozen = np_of(getattr(m, name)), np_of(getattr(m, name))
        return ((repr(m), list(m.state_dict()), getattr(m, name).grad_fn.name()),
                [first, second, grad, *buffers, *frozen])
    got = both(build)
    assert got["mt"][0] == got["torch"][0]
    for mine, theirs in zip(got["mt"][1], got["torch"][1]):
        np.testing.assert_allclose(mine, theirs, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("case", ["no_such_tensor", "dim", "iterations", "weight_norm_name"])
def test_norm_errors_match_torch(case):
    def build(lib, p, k):
        m, n = lib.nn.Linear(4, 3), norms(lib)
        if case == "no_such_tensor":
            n.spectral_norm(m, name="foo")
        elif case == "dim":
            n.spectral_norm(m, dim=3)
        elif case == "iterations":
            n.spectral_norm(m, n_power_iterations=0)
        else:
            n.weight_norm(m, name="foo")
    got = errors(build)
    assert got["mt"] == got["torch"]


# ---------------------------------------------------------------- orthogonal
def orth_module(lib, shape, dtype="float32"):
    """A module whose ``weight`` has ``shape``, seeded: ``nn.Linear`` for a matrix."""
    lib.manual_seed(0)
    if len(shape) == 2:
        return lib.nn.Linear(shape[1], shape[0], dtype=getattr(lib, dtype))
    m = lib.nn.Module()
    m.weight = lib.nn.Parameter(lib.randn(*shape, dtype=getattr(lib, dtype)))
    return m


@pytest.mark.parametrize("shape", [(3, 3), (5, 3), (3, 5), (2, 4, 4), (2, 5, 3), (2, 3, 5)])
@pytest.mark.parametrize("orthogonal_map", [None, "matrix_exp", "cayley", "householder"])
@pytest.mark.parametrize("use_trivialization", [True, False])
def test_orthogonal_matches_torch(shape, orthogonal_map, use_trivialization):
    def build(lib, p, k):
        m = orth_module(lib, shape)
        out = norms(lib).orthogonal(m, orthogonal_map=orthogonal_map,
                                    use_trivialization=use_trivialization)
        assert out is m
        w = m.weight
        weights = lib.from_numpy(np.sin(np.arange(w.numel())).reshape(shape).astype("float32"))
        (w * weights).sum().backward()
        pl = m.parametrizations.weight
        return ((repr(m), list(m.state_dict()), w.grad_fn.name(), w.dtype.__repr__()),
                [np_of(w), np_of(pl.original), pl.original.grad.numpy()]
                + [np_of(b) for b in pl[0].buffers()])
    got = both(build)
    assert got["mt"][0] == got["torch"][0]
    assert len(got["mt"][1]) == len(got["torch"][1])
    for mine, theirs in zip(got["mt"][1], got["torch"][1]):
        np.testing.assert_allclose(mine, theirs, rtol=1e-4, atol=1e-5)
    w = got["mt"][1][0]
    q = w if shape[-2] >= shape[-1] else np.swapaxes(w, -1, -2)  # orthonormal columns
    np.testing.assert_allclose(np.swapaxes(q, -1, -2) @ q, np.broadcast_to(
        np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2), atol=1e-5)


@pytest.mark.parametrize("orthogonal_map", ["matrix_exp", "cayley", "householder"])
@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4)])
def test_orthogonal_gradcheck(orthogonal_map, shape):
    m = orth_module(minitorch, shape, "float64")
    norms(minitorch).orthogonal(m, orthogonal_map=orthogonal_map)
    pl = m.parametrizations.weight
    x = minitorch.from_numpy(np.random.default_rng(3).standard_normal(shape) * 0.3)
    x = x.requires_grad_()

    def f(x):
        return pl[0](x)
    assert minitorch.autograd.gradcheck(f, (x,))
    if orthogonal_map != "householder":  # (whose signs come from x's diagonal: not smooth)
        assert minitorch.autograd.gradgradcheck(f, (x,))


@pytest.mark.parametrize("orthogonal_map", ["matrix_exp", "cayley", "householder"])
@pytest.mark.parametrize("use_trivialization", [True, False])
@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4)])
@pytest.mark.parametrize("value", ["orthogonal", "random"])
def test_orthogonal_assignment_matches_torch(orthogonal_map, use_trivialization, shape, value):
    rng = np.random.default_rng(4)
    a = rng.standard_normal(shape).astype("float32")
    if value == "orthogonal":
        q = np.linalg.qr(a if shape[0] >= shape[1] else a.T)[0]
        a = np.ascontiguousarray(q if shape[0] >= shape[1] else q.T).astype("float32")

    def build(lib, p, k):
        m = orth_module(lib, shape)
        norms(lib).orthogonal(m, orthogonal_map=orthogonal_map,
                              use_trivialization=use_trivialization)
        try:
            m.weight = lib.from_numpy(a.copy())
        except Exception as e:
            return (type(e), str(e)), []
        pl = m.parametrizations.weight
        return None, [np_of(m.weight), np_of(pl.original)] + [np_of(b) for b in pl[0].buffers()]
    got = both(build)
    assert got["mt"][0] == got["torch"][0]
    for mine, theirs in zip(got["mt"][1], got["torch"][1]):
        np.testing.assert_allclose(mine, theirs, rtol=1e-4, atol=1e-5)
    if value == "orthogonal" and got["mt"][1]:
        np.testing.assert_allclose(got["mt"][1][0], a, atol=1e-5)


@pytest.mark.parametrize("case", ["vector", "map", "no_such_tensor", "shape"])
def test_orthogonal_errors_match_torch(case):
    def build(lib, p, k):
        n = norms(lib)
        if case == "vector":
            n.orthogonal(lib.nn.Linear(3, 3), "bias")
        elif case == "map":
            n.orthogonal(lib.nn.Linear(3, 3), orthogonal_map="qr")
        elif case == "no_such_tensor":
            n.orthogonal(lib.nn.Linear(3, 3), "foo")
        else:
            m = n.orthogonal(lib.nn.Linear(3, 3))
            m.weight = lib.zeros(2, 3)
    got = errors(build)
    assert got["mt"] == got["torch"]
