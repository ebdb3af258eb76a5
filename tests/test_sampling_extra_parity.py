"""``torch.bernoulli``, ``torch.multinomial`` and ``WeightedRandomSampler``: the same draws as
the pinned PyTorch for the same seed, bit for bit (shape and dtype too), and its errors.

``multinomial`` without replacement (or for one sample) draws an exponential per weight and
takes the largest ``weight / exponential`` with PyTorch's ``topk``, whose order among equal
values is that of the C++ library's ``nth_element`` / ``partial_sort``: the cases with zero
weights and more samples than non-zero weights exercise exactly those ties, in both of its
paths (``k * 64 <= n`` or not). ``get_worker_info`` is None in the main process.
"""

from __future__ import annotations

import numpy as np
import pytest

import minitorch as mt

torch = pytest.importorskip("torch", reason="PyTorch is the oracle for random-stream parity")

SEEDS = (0, 1, 7, 123, 2**40 + 12345)
DTYPES = ("float16", "float32", "float64")


def _same(mine, ref, what: str = "") -> None:
    a, b = mine.detach().numpy(), ref.detach().numpy()
    assert (a.shape, a.dtype) == (b.shape, b.dtype), what
    assert a.tobytes() == b.tobytes(), f"{what}: {int((a != b).sum())} differ\n{a}\n{b}"[:2000]


def _pair(arr: np.ndarray, view: str | None = None):
    """The same probabilities in both libraries, as a view of the kind ``view`` names."""
    out = []
    for lib in (mt, torch):
        if view == "T":
            dims = tuple(reversed(range(arr.ndim)))  # every dimension reversed
            t = lib.tensor(np.ascontiguousarray(arr.transpose(dims))).permute(*dims)
        elif view == "step":
            t = lib.tensor(np.repeat(arr, 2, axis=-1))[..., ::2]
        else:
            t = lib.tensor(arr)
        out.append(t)
    return out


def _raises_same(fn_mine, fn_ref) -> None:
    with pytest.raises(Exception) as ref:
        fn_ref()
    with pytest.raises(Exception) as mine:
        fn_mine()
    assert type(mine.value) is type(ref.value)
    assert str(mine.value) == str(ref.value)


# ------------------------------------------------------------------ bernoulli
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (1,), (7,), (3, 5), (4, 33), (2, 3, 4)],
                         ids=str)
@pytest.mark.parametrize("view", [None, "T", "step"])
def test_bernoulli_of_probabilities(dtype, shape, view):
    rng = np.random.default_rng(len(shape))
    probs = rng.random(shape).astype(dtype)
    if probs.size:
        probs.flat[0] = 0.0  # the ends are exact: never and always
        probs.flat[-1] = 1.0
    if view and len(shape) < 2:
        view = "step" if shape else None
    p_mine, p_ref = _pair(probs, view)
    for seed in SEEDS:
        mt.manual_seed(seed)
        torch.manual_seed(seed)
        _same(mt.bernoulli(p_mine), torch.bernoulli(p_ref), f"seed {seed}")
        _same(p_mine.bernoulli(), p_ref.bernoulli(), f"method, seed {seed}")
        _same(mt.rand(3), torch.rand(3), "the stream after it")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("p", [0.0, 0.3, 0.5, 1.0])
def test_bernoulli_with_one_probability(dtype, p):
    rng = np.random.default_rng(3)
    x = rng.random((4, 9)).astype(dtype)
    for view in (None, "T"):
        x_mine, x_ref = _pair(x, view)
        for seed in SEEDS:
            mt.manual_seed(seed)
            torch.manual_seed(seed)
            _same(mt.bernoulli(x_mine, p), torch.bernoulli(x_ref, p), f"{view} seed {seed}")


def test_bernoulli_with_generators():
    probs = np.linspace(0, 1, 50).astype(np.float32)
    for seed in SEEDS:
        gm, gt = mt.Generator().manual_seed(seed), torch.Generator().manual_seed(seed)
        _same(mt.bernoulli(mt.tensor(probs), generator=gm),
              torch.bernoulli(torch.tensor(probs), generator=gt))
        _same(mt.bernoulli(mt.tensor(probs), 0.25, generator=gm),
              torch.bernoulli(torch.tensor(probs), 0.25, generator=gt))


@pytest.mark.parametrize("p_dtype", DTYPES)
def test_bernoulli_in_place_with_probabilities_of_each_dtype(p_dtype):
    """``bernoulli_(p)`` draws a 53-bit double per element for float64 ``p`` (else a float)."""
    probs = np.random.default_rng(5).random((6, 7)).astype(p_dtype)
    for seed in SEEDS:
        mt.manual_seed(seed)
        torch.manual_seed(seed)
        _same(mt.empty(6, 7).bernoulli_(mt.tensor(probs)),
              torch.empty(6, 7).bernoulli_(torch.tensor(probs)), f"seed {seed}")


def test_bernoulli_graph_as_torch():
    for lib in (mt, torch):
        p = lib.tensor([0.2, 0.9], requires_grad=True)
        out = lib.bernoulli(p)
        assert out.grad_fn.name() == "BernoulliBackward0"
        out.sum().backward()
        assert p.grad.tolist() == [0.0, 0.0]
        fixed = lib.bernoulli(p, 0.5)
        assert fixed.requires_grad and "grad_fn=<NotImplemented>" in repr(fixed)
        assert fixed.grad_fn.name() == "torch::autograd::NotImplemented"
        with pytest.raises(RuntimeError, match="derivative for aten::bernoulli is not "):
            fixed.sum().backward()


@pytest.mark.parametrize("args", [
    (np.array([1, 0]),), (np.array([True, False]),), (np.array([1.5], np.float32),),
    (np.array([-0.5], np.float32),), (np.array([np.nan], np.float32),),
    (np.array([0.5], np.float32), 1.5), (np.array([0.5], np.float32), -0.1),
], ids=["int", "bool", "above-1", "negative", "nan", "p-above-1", "p-negative"])
def test_bernoulli_errors_as_torch(args):
    arr, *rest = args
    _raises_same(lambda: mt.bernoulli(mt.tensor(arr), *rest),
                 lambda: torch.bernoulli(torch.tensor(arr), *rest))


def test_bernoulli_of_int_input_with_one_probability():
    for seed in SEEDS:
        mt.manual_seed(seed)
        torch.manual_seed(seed)
        _same(mt.bernoulli(mt.tensor([1, 0, 5]), 0.5),
              torch.bernoulli(torch.tensor([1, 0, 5]), 0.5))


# ------------------------------------------------------------------ multinomial
def _weights(shape, kind: str, dtype: str, rng) -> np.ndarray:
    w = rng.random(shape)
    if kind == "zeros":  # ties at 0 once the non-zero ones are used up
        w[..., 1::2] = 0
    elif kind == "coarse":  # few distinct values: ties among the ratios too
        w = np.round(w * 2) / 2 + (np.round(w * 2) == 0)
    elif kind == "one-hot":
        w = np.zeros(shape)
        w[..., -1] = 3.0
    elif kind == "spread":
        w = np.exp(rng.standard_normal(shape) * 3)
    return w.astype(dtype)


SHAPES = [(1,), (5,), (40,), (200,), (3, 7), (2, 130), (4, 1), (1, 64)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("kind", ["uniform", "zeros", "coarse", "one-hot", "spread"])
def test_multinomial_matches_torch(dtype, shape, kind):
    rng = np.random.default_rng([*shape, len(kind), ord(kind[0])])
    w = _weights(shape, kind, dtype, rng)
    w_mine, w_ref = mt.tensor(w), torch.tensor(w)
    n = shape[-1]
    counts = sorted({1, 2, min(3, n), max(n // 2, 1), n})
    for seed in SEEDS:
        for k in counts:
            for replacement in (False, True):
                if not replacement and (k > n or kind == "one-hot" and k > 1):
                    continue  # fine for both, but only ties at 0: covered by "zeros"
                mt.manual_seed(seed)
                torch.manual_seed(seed)
                _same(mt.multinomial(w_mine, k, replacement),
                      torch.multinomial(w_ref, k, replacement),
                      f"k={k} replacement={replacement} seed={seed}")
        mt.manual_seed(seed)
        torch.manual_seed(seed)
        _same(mt.multinomial(w_mine, 4 * n + 3, True), torch.multinomial(w_ref, 4 * n + 3, True),
              f"many with replacement, seed={seed}")
        _same(mt.rand(2), torch.rand(2), "the stream after it")


@pytest.mark.parametrize("view", ["T", "step"])
@pytest.mark.parametrize("replacement", [False, True])
def test_multinomial_of_views(view, replacement):
    """The exponentials fill a tensor laid out like the weights: in their memory order."""
    w = np.random.default_rng(9).random((6, 5)).astype(np.float32)
    w_mine, w_ref = _pair(w, view)
    for seed in SEEDS:
        for k in (1, 3):
            mt.manual_seed(seed)
            torch.manual_seed(seed)
            _same(mt.multinomial(w_mine, k, replacement), torch.multinomial(w_ref, k, replacement))


def test_multinomial_ties_in_both_topk_paths():
    """Many zero weights and more samples than non-zero ones: the order of the zeros comes
    from ``std::nth_element`` + ``std::sort`` (k * 64 > n) or ``std::partial_sort``."""
    rng = np.random.default_rng(11)
    for n, k in ((1000, 900), (1000, 15), (300, 4), (257, 200), (70, 70), (64, 1), (640, 10)):
        w = np.zeros(n, np.float32)
        w[rng.choice(n, 3, replace=False)] = rng.random(3).astype(np.float32) + 0.1
        for seed in SEEDS:
            mt.manual_seed(seed)
            torch.manual_seed(seed)
            _same(mt.multinomial(mt.tensor(w), k), torch.multinomial(torch.tensor(w), k),
                  f"n={n} k={k} seed={seed}")


def test_multinomial_float16_ratios_that_overflow():
    """Large float16 weights over small exponentials overflow to inf: ties at inf, where one
    sample takes the first (``argmax``) and more take ``topk``'s order."""
    w = np.array([1e4, 3.0, 2e4, 6e4, 0.5, 3e4] * 7, np.float16)
    for seed in range(40):
        for k, replacement in ((1, False), (1, True), (2, False), (5, False), (42, False)):
            mt.manual_seed(seed)
            torch.manual_seed(seed)
            _same(mt.multinomial(mt.tensor(w), k, replacement),
                  torch.multinomial(torch.tensor(w), k, replacement), f"k={k} seed={seed}")


def test_multinomial_with_generators_and_methods():
    w = np.random.default_rng(2).random((3, 10)).astype(np.float64)
    for seed in SEEDS:
        gm, gt = mt.Generator().manual_seed(seed), torch.Generator().manual_seed(seed)
        _same(mt.tensor(w).multinomial(4, generator=gm),
              torch.tensor(w).multinomial(4, generator=gt))
        _same(mt.multinomial(mt.tensor(w), 6, True, generator=gm),
              torch.multinomial(torch.tensor(w), 6, True, generator=gt))


@pytest.mark.parametrize(("arr", "args"), [
    (np.ones((2, 2, 2), np.float32), (1,)), (np.float32(1.0), (1,)),
    (np.ones(3, np.int64), (1,)), (np.ones(3, bool), (1,)),
    (np.ones(3, np.float32), (0,)), (np.ones(3, np.float32), (-1,)),
    (np.ones(3, np.float32), (4,)), (np.ones(0, np.float32), (1,)),
    (np.ones(0, np.float32), (1, True)), (np.ones(0, np.float32), (2, True)),
    (np.zeros(3, np.float32), (1,)), (np.zeros(3, np.float32), (2, True)),
    (np.array([1.0, -1.0], np.float32), (1,)), (np.array([1.0, -1.0], np.float32), (2, True)),
    (np.array([1.0, np.nan], np.float32), (1,)), (np.array([1.0, np.nan], np.float32), (2, True)),
    (np.array([1.0, np.inf], np.float32), (1, True)),
    (np.array([1.0, np.inf], np.float32), (2, True)),
    (np.array([[1.0, 2.0], [0.0, 0.0]], np.float32), (1, True)),
    (np.array([[1.0, 2.0], [0.0, 0.0]], np.float32), (2, True)),
    (np.ones((2, 0), np.float32), (2, True)),
    (np.ones(3, np.float32), (2.0,)), (np.ones(3, np.float32), (True,)),
], ids=lambda v: str(v).replace("\n", "") if not isinstance(v, np.ndarray) else
    f"{v.dtype}{list(v.shape)}")
def test_multinomial_errors_as_torch(arr, args):
    _raises_same(lambda: mt.multinomial(mt.tensor(arr), *args),
                 lambda: torch.multinomial(torch.tensor(arr), *args))


def test_multinomial_of_no_distributions_is_empty():
    for lib in (mt, torch):
        out = lib.multinomial(lib.ones(0, 3), 2)
        assert tuple(out.shape) == (0, 2) and out.dtype == lib.int64


def test_multinomial_result_has_no_gradient():
    for lib in (mt, torch):
        out = lib.multinomial(lib.tensor([1.0, 2.0], requires_grad=True), 2)
        assert out.dtype == lib.int64 and not out.requires_grad


# ------------------------------------------------------------------ WeightedRandomSampler
WEIGHTS = [0.1, 0.9, 0.4, 0.7, 3.0, 0.6]


@pytest.mark.parametrize("replacement", [True, False])
@pytest.mark.parametrize("num_samples", [1, 5, 6, 40])
def test_weighted_random_sampler_draws_as_torch(replacement, num_samples):
    from torch.utils.data import WeightedRandomSampler as Ref

    from minitorch.utils.data import WeightedRandomSampler as Mine

    if not replacement and num_samples > len(WEIGHTS):
        _raises_same(lambda: list(Mine(WEIGHTS, num_samples, False)),
                     lambda: list(Ref(WEIGHTS, num_samples, False)))
        return
    for seed in SEEDS:
        mine = Mine(WEIGHTS, num_samples, replacement, generator=mt.Generator().manual_seed(seed))
        ref = Ref(WEIGHTS, num_samples, replacement,
                  generator=torch.Generator().manual_seed(seed))
        assert len(mine) == len(ref) == num_samples
        assert list(mine) == list(ref)
        assert list(mine) == list(ref)  # a second epoch goes on from the generator
        mt.manual_seed(seed)
        torch.manual_seed(seed)  # no generator: the global one
        assert list(Mine(mt.tensor(WEIGHTS), num_samples, replacement)) == \
            list(Ref(torch.tensor(WEIGHTS), num_samples, replacement))
        assert mine.weights.dtype == mt.float64


def test_weighted_random_sampler_in_a_data_loader():
    from minitorch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler

    data = np.arange(12, dtype=np.float32).reshape(6, 2)
    batches = []
    for lib, sampler_cls, loader_cls, ds_cls in (
            (mt, WeightedRandomSampler, DataLoader, TensorDataset),
            (torch, torch.utils.data.WeightedRandomSampler, torch.utils.data.DataLoader,
             torch.utils.data.TensorDataset)):
        sampler = sampler_cls(WEIGHTS, 10, generator=lib.Generator().manual_seed(4))
        loader = loader_cls(ds_cls(lib.tensor(data)), batch_size=4, sampler=sampler)
        batches.append([b[0].numpy().tolist() for b in loader])
    assert batches[0] == batches[1]


@pytest.mark.parametrize(("args", "kwargs"), [
    ((WEIGHTS, 0), {}), ((WEIGHTS, -2), {}), ((WEIGHTS, 2.0), {}), ((WEIGHTS, True), {}),
    ((WEIGHTS, 2), {"replacement": 1}), (([[0.1, 0.2]], 2), {}), ((0.5, 2), {}),
], ids=str)
def test_weighted_random_sampler_errors_as_torch(args, kwargs):
    from torch.utils.data import WeightedRandomSampler as Ref

    from minitorch.utils.data import WeightedRandomSampler as Mine

    _raises_same(lambda: Mine(*args, **kwargs), lambda: Ref(*args, **kwargs))


def test_get_worker_info_is_none_in_the_main_process():
    from torch.utils.data import get_worker_info as ref

    from minitorch.utils.data import get_worker_info

    assert get_worker_info() is None and ref() is None
    assert mt.utils.data.get_worker_info is get_worker_info
