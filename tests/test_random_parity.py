"""Same seed, same numbers: minitorch's random functions against the pinned PyTorch, bit for bit.

Every check seeds both libraries alike, draws, and compares the raw bytes (shape and dtype too).
Shapes cover 0-d, empty, the sizes around 16 where ``normal_`` switches from its scalar path to
its 16-at-a-time path, ragged tails, and a large 1000 x 37.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the oracle for random-stream parity")

SEEDS = (0, 1, 2**40 + 12345)
SHAPES = [(), (0,), (1,), (2,), (5,), (15,), (16,), (17,), (31,), (32,), (33,), (3, 5),
          (4, 4), (2, 3, 4), (7, 0, 3), (48, 3), (2, 2, 2, 2), (100,), (250,), (1000, 37)]
DTYPES = ("float32", "float64")


def _bytes(t) -> tuple:
    a = np.ascontiguousarray(t.detach().numpy())
    return a.shape, str(a.dtype), a.tobytes()


def _assert_same(mine, ref, what: str) -> None:
    if not isinstance(mine, tuple):
        mine, ref = (mine,), (ref,)
    assert len(mine) == len(ref)
    for i, (a, b) in enumerate(zip(mine, ref)):
        if _bytes(a) != _bytes(b):
            x, y = a.detach().numpy(), b.detach().numpy()
            diff = int((x != y).sum()) if x.shape == y.shape else "shape"
            raise AssertionError(f"{what} [{i}]: {diff} elements differ; {x!r} vs {y!r}"[:2000])


def _both(fn, seed, what):
    minitorch.manual_seed(seed)
    torch.manual_seed(seed)
    _assert_same(fn(minitorch), fn(torch), f"{what} seed={seed}")


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("seed", SEEDS)
def test_factories(shape, dtype, seed):
    def draw(t):
        dt = getattr(t, dtype)
        return (t.rand(shape, dtype=dt), t.randn(shape, dtype=dt),
                t.empty(shape, dtype=dt).uniform_(-0.3, 0.55),
                t.empty(shape, dtype=dt).normal_(0.25, 1.7),
                t.normal(2.0, 3.0, shape, dtype=dt))

    _both(draw, seed, f"rand/randn/uniform_/normal_ {shape} {dtype}")


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("seed", SEEDS)
def test_randint(shape, seed):
    def draw(t):
        return (t.randint(10, shape), t.randint(-3, 4, shape),
                t.randint(0, 2**40, shape), t.randint(0, 7, shape, dtype=t.int32),
                t.randint(5, 2**33, shape, dtype=t.float64))

    _both(draw, seed, f"randint {shape}")


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 16, 17, 100, 1000, 4097])
@pytest.mark.parametrize("seed", SEEDS)
def test_randperm(n, seed):
    _both(lambda t: t.randperm(n), seed, f"randperm({n})")


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("seed", SEEDS)
def test_interleaved_calls_share_one_stream(shape, seed):
    # a scalar-path randn leaves a cached Box-Muller value; the next small randn uses it
    def draw(t):
        return (t.rand(shape), t.randn(3), t.randn(shape), t.randint(5, shape), t.randn(1),
                t.randperm(7), t.randn(shape, dtype=t.float64), t.rand(2))

    _both(draw, seed, f"interleaved {shape}")


@pytest.mark.parametrize("shape", [(), (0,), (5,), (16,), (17,), (3, 5), (1000, 37)], ids=str)
@pytest.mark.parametrize("p", [0.1, 0.5, 0.9, 1.0])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("seed", SEEDS)
def test_dropout_masks(shape, p, dtype, seed):
    def draw(t):
        x = t.arange(1, math.prod(shape) + 1, dtype=getattr(t, dtype)).reshape(shape) / 7
        return (t.nn.functional.dropout(x, p), t.nn.Dropout(p)(x), t.rand(2))

    _both(draw, seed, f"dropout p={p} {shape}")


@pytest.mark.parametrize("seed", SEEDS)
def test_default_layer_initialisation(seed):
    def build(t):
        layers = [t.nn.Linear(3, 4), t.nn.Linear(784, 128), t.nn.Linear(5, 1, bias=False),
                  t.nn.Conv2d(1, 6, 5), t.nn.Conv2d(3, 16, (3, 5)), t.nn.Embedding(10, 3)]
        return tuple(p.detach() for layer in layers for p in layer.parameters())

    _both(build, seed, "layer parameters")


INITS = [("uniform_", ()), ("uniform_", (-2.0, 3.0)), ("normal_", ()), ("normal_", (1.0, 0.02)),
         ("xavier_uniform_", ()), ("xavier_normal_", (2.0,)), ("kaiming_uniform_", ()),
         ("kaiming_uniform_", (math.sqrt(5),)), ("kaiming_normal_", ()),
         ("kaiming_normal_", (0, "fan_out", "relu"))]


@pytest.mark.parametrize("shape", [(3, 5), (16, 1), (2, 9), (64, 32), (6, 1, 5, 5)], ids=str)
@pytest.mark.parametrize("name,args", INITS, ids=[f"{n}{a}" for n, a in INITS])
@pytest.mark.parametrize("seed", SEEDS)
def test_nn_init(shape, name, args, seed):
    _both(lambda t: getattr(t.nn.init, name)(t.empty(shape), *args), seed,
          f"nn.init.{name}{args} {shape}")


@pytest.mark.parametrize("seed", SEEDS)
def test_generator_objects(seed):
    def draw(t):
        g = t.Generator().manual_seed(seed + 1)
        return (t.rand(4, generator=g), t.randn(20, generator=g), t.randn(2, generator=g),
                t.randint(0, 7, (5,), generator=g), t.randperm(9, generator=g), t.rand(3),
                t.empty(4).uniform_(generator=g), t.empty(17).normal_(generator=g))

    _both(draw, seed, "Generator")


@pytest.mark.parametrize("seed", SEEDS)
def test_data_loader_shuffling(seed):
    def draw(t):
        ds = t.utils.data.TensorDataset(t.arange(50.0).reshape(25, 2), t.arange(25))
        out = [yb for _ in range(2)
               for _, yb in t.utils.data.DataLoader(ds, batch_size=4, shuffle=True)]
        train, _ = t.utils.data.random_split(ds, [0.6, 0.4])
        out.append(t.tensor(list(train.indices)))
        out.append(t.tensor(list(t.utils.data.RandomSampler(range(10), replacement=True,
                                                            num_samples=40))))
        out.append(t.tensor(list(t.utils.data.RandomSampler(range(10), num_samples=25))))
        out.append(t.tensor(list(t.utils.data.SubsetRandomSampler([3, 5, 7, 9]))))
        return tuple(out)

    _both(draw, seed, "data loading")


def test_rng_state_round_trips_with_pytorch():
    minitorch.manual_seed(5)
    torch.manual_seed(5)
    minitorch.randn(1)  # leaves a cached normal, which the state carries
    torch.randn(1)
    assert _bytes(minitorch.get_rng_state()) == _bytes(torch.get_rng_state())
    state = torch.get_rng_state()
    minitorch.set_rng_state(minitorch.tensor(state.numpy()))
    _assert_same((minitorch.randn(7), minitorch.rand(20)), (torch.randn(7), torch.rand(20)),
                 "after set_rng_state")
    g = minitorch.Generator().manual_seed(3)
    saved = g.get_state()
    first = minitorch.randn(5, generator=g)
    g.set_state(saved)
    _assert_same(minitorch.randn(5, generator=g), first, "Generator.set_state")


def test_seeds_and_errors_match_pytorch():
    for s in (0, 7, 2**32 + 7, 2**63 - 1, -1):
        assert minitorch.manual_seed(s).initial_seed() == torch.manual_seed(s).initial_seed()
    assert minitorch.Generator().initial_seed() == torch.Generator().initial_seed()
    with pytest.raises(RuntimeError, match="Expected a CPUGeneratorImplState of size 5056"):
        minitorch.set_rng_state(minitorch.zeros(10, dtype=minitorch.uint8))
    with pytest.raises(RuntimeError, match="random_ expects 'from' to be less than 'to'"):
        minitorch.randint(3, 3, (2,))
    with pytest.raises(RuntimeError, match="random_ expects 'from' to be less than 'to'"):
        torch.randint(3, 3, (2,))


@pytest.mark.parametrize("shape", [(), (0,), (5,), (15,), (16,), (33,), (1000, 37)], ids=str)
@pytest.mark.parametrize("seed", SEEDS)
def test_float16_rand_and_small_randn(shape, seed):
    # rand in float16 is a float32 draw, rounded; randn below 16 numbers is the scalar path.
    # (float16 uniform_(a, b) is not bit-exact yet.)
    def draw(t):
        return t.rand(shape, dtype=t.float16), t.randn(3, dtype=t.float16), t.rand(2)

    _both(draw, seed, f"float16 {shape}")


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("seed", SEEDS)
def test_float16_normal(shape, seed):
    """From 16 numbers, float16 normals are computed in float32 16 at a time, and a last,
    partial block draws 16 fresh uniforms (float32 draws all n first, then 16 more)."""
    def draw(t):
        return (t.randn(shape, dtype=t.float16),
                t.empty(shape, dtype=t.float16).normal_(0.25, 1.7), t.rand(3))

    _both(draw, seed, f"float16 randn/normal_ {shape}")


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("shapes", [((5,), (5,)), ((17,), (17,)), ((3, 1), (4,)), ((), (40,)),
                                    ((20,), ())], ids=str)
@pytest.mark.parametrize("seed", SEEDS)
def test_normal_of_tensors(dtype, shapes, seed):
    """torch.normal(mean, std) with tensors, or a tensor and a number: N(0, 1) in the
    broadcast shape, times std, plus mean (N(0, std) plus mean for a number std)."""
    rng = np.random.default_rng(seed % 2**32)
    mean = rng.standard_normal(shapes[0]).astype(dtype)
    std = rng.uniform(0, 3, shapes[1]).astype(dtype)

    def draw(t):
        m, s = t.tensor(mean), t.tensor(std)
        return t.normal(m, s), t.normal(m, 1.7), t.normal(-2.5, s), t.rand(2)

    _both(draw, seed, f"normal(mean, std) {shapes} {dtype}")


def test_normal_of_tensors_records_a_zero_gradient_as_in_torch():
    seen = []
    for t in (minitorch, torch):
        mean = t.tensor([1.0, 2.0], requires_grad=True)
        std = t.tensor([0.5, 2.0], requires_grad=True)
        out = (t.normal(mean, std), t.normal(mean, 2.0), t.normal(2.0, std))
        sum(o.sum() for o in out).backward()
        seen.append(([o.grad_fn.name() for o in out], mean.grad.tolist(), std.grad.tolist()))
    assert seen[0] == seen[1]
    assert seen[0][0] == ["NormalBackward3", "NormalBackward1", "NormalBackward2"]


@pytest.mark.parametrize("args", ["negative std", "negative std number", "integer mean",
                                  "shapes"])
def test_normal_of_tensors_errors_as_in_torch(args):
    def call(t):
        return {"negative std": lambda: t.normal(t.zeros(2), t.tensor([1.0, -1.0])),
                "negative std number": lambda: t.normal(t.zeros(2), -1.0),
                "integer mean": lambda: t.normal(t.tensor([1, 2]), t.ones(2)),
                "shapes": lambda: t.normal(t.zeros(2), t.ones(3))}[args]()
    errors = []
    for t in (minitorch, torch):
        with pytest.raises(Exception) as info:
            call(t)
        errors.append((type(info.value).__name__, str(info.value)))
    assert errors[0] == errors[1]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("bounds", [(-0.3, 0.55), (0.9999, 1.0001), (1 - 1e-12, 1 + 1e-12),
                                    (-2.0, -1.0), (2.0, 7.0)], ids=str)
@pytest.mark.parametrize("seed", SEEDS)
def test_uniform_with_bounds(dtype, bounds, seed):
    """float16 is drawn in float32 with float32 bounds, then rounded; in every dtype a number
    that rounds up to ``to`` becomes ``from``, so they lie in [from, to) as in PyTorch."""
    def draw(t):
        return t.empty(1000, dtype=getattr(t, dtype)).uniform_(*bounds), t.rand(2)

    _both(draw, seed, f"uniform_{bounds} {dtype}")


@pytest.mark.parametrize("dtype,bounds", [("float16", (1e8, 1e8 + 8)), ("float16", (0.0, 1e5)),
                                          ("float32", (2.0, 1.0)), ("float32", (-1e39, 0.0)),
                                          ("float64", (0.0, float("inf"))),
                                          ("float64", (0.5, -0.25))])
def test_uniform_range_errors_as_in_torch(dtype, bounds):
    errors = []
    for t in (minitorch, torch):
        with pytest.raises(RuntimeError) as info:
            t.empty(3, dtype=getattr(t, dtype)).uniform_(*bounds)
        errors.append(str(info.value))
    assert errors[0] == errors[1]


_VIEWS = {  # views whose dimensions are not in memory order, or that skip memory
    "transposed": lambda m, d: m.zeros(8, 8, dtype=d).t(),
    "transposed_small": lambda m, d: m.zeros(3, 4, dtype=d).t(),
    "strided": lambda m, d: m.zeros(3, 40, dtype=d)[:, ::3],
    "permuted": lambda m, d: m.zeros(2, 3, 5, dtype=d).permute(1, 2, 0),
    "transposed_sliced": lambda m, d: m.zeros(5, 7, dtype=d).t()[1:],
    "column": lambda m, d: m.zeros(33, 2, dtype=d)[:, 0],
    "size_one_dim": lambda m, d: m.zeros(1, 5, 4, dtype=d).transpose(0, 1),
}
_FILLS = {"uniform_": (-2, 3), "normal_": (1.5, 2.0), "bernoulli_": (0.3,), "random_": (0, 7)}


@pytest.mark.parametrize("seed", SEEDS[:2])
@pytest.mark.parametrize("fill", sorted(_FILLS))
@pytest.mark.parametrize("dtype", ("float16", "float32", "float64"))
@pytest.mark.parametrize("view", sorted(_VIEWS))
def test_fills_of_views_go_in_memory_order(view, dtype, fill, seed):
    """PyTorch fills a tensor in the order of its memory: a transposed tensor gets its numbers
    in the order of its storage, not of its indices, and ``normal_`` of a tensor that is not
    contiguous draws one number at a time even from 16 on. The stream goes on alike after."""
    outs = []
    for m in (minitorch, torch):
        m.manual_seed(seed)
        view_of = _VIEWS[view](m, getattr(m, dtype))
        getattr(view_of, fill)(*_FILLS[fill])
        outs.append((view_of, m.rand(3)))
    _assert_same(outs[0], outs[1], f"{view}.{fill}")


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_bernoulli_of_tensor_probabilities_on_a_view(seed):
    outs = []
    for m in (minitorch, torch):
        m.manual_seed(seed)
        view_of = m.zeros(6, 5).t()
        view_of.bernoulli_(m.linspace(0, 1, 30).reshape(5, 6))
        outs.append(view_of)
    _assert_same(outs[0], outs[1], "bernoulli_(p) of a transposed tensor")


# a random factory given a bad device string raises PyTorch's error before it
# draws: the stream goes on as PyTorch's does (the introyt tensors tutorial's device='gpu')
@pytest.mark.parametrize("name", ["rand", "randn", "randint", "randperm", "normal", "rand_like",
                                  "randn_like", "randint_like"])
@pytest.mark.parametrize("device", ["gpu", "cuda:x"])
def test_a_bad_device_raises_before_drawing(name, device):
    def run(lib):
        args = {"rand": (2,), "randn": (2,), "randint": (5, (2,)), "randperm": (3,),
                "normal": (0.0, 1.0, (2,)), "rand_like": (lib.ones(2),),
                "randn_like": (lib.ones(2),), "randint_like": (lib.ones(2), 5)}[name]
        lib.manual_seed(0)
        with pytest.raises(RuntimeError) as info:
            getattr(lib, name)(*args, device=device)
        return str(info.value), _bytes(lib.rand(3))

    assert run(minitorch) == run(torch)
