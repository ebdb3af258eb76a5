"""Device machinery without a GPU: the pretend GPU registered as the "cuda" backend.

CI has no GPU, so these tests register the package's pretend GPU
(``minitorch/backends/pretend.py``, the one the GPU chapters use) for the device type "cuda":
its arrays are a NumPy subclass (``PretendArray``). Everything that decides where a tensor lives,
moves it, or refuses to mix devices runs for real; an operation that forgets the seam and makes
a plain NumPy array on the "GPU" ends up on the CPU and fails these tests, exactly as it would
fail with CuPy. The real-CuPy tests are in ``test_gpu.py`` (marked ``gpu``).
"""

from __future__ import annotations

import numpy as np
import pytest

import minitorch
from minitorch.backends.pretend import PretendArray


def on_gpu(t) -> bool:
    return isinstance(t._data, PretendArray) and t.device == minitorch.device("cuda", 0)


def test_to_cuda_without_gpu_says_what_is_missing():
    if minitorch.cuda.is_available():
        pytest.skip("a real GPU is available here")
    with pytest.raises(RuntimeError, match="Cannot use device 'cuda'") as info:
        minitorch.ones(2).to("cuda")
    reason = minitorch.cuda.unavailable_reason()
    assert reason and reason in str(info.value)
    assert "cpu" in str(info.value)
    assert minitorch.cuda.device_count() == 0


def test_transfer_round_trip(gpu):
    x = minitorch.tensor([1.0, 2.0, 3.0])
    g = x.to("cuda")
    assert on_gpu(g)
    assert repr(g) == "tensor([1., 2., 3.], device='cuda:0')"
    assert g.is_cuda and not x.is_cuda
    back = g.cpu()
    assert type(back._data) is np.ndarray and back.device == minitorch.device("cpu")
    np.testing.assert_array_equal(back.numpy(), [1.0, 2.0, 3.0])
    assert x.to("cpu") is x  # no move: the same tensor, as in PyTorch
    assert g.to("cuda") is g
    assert on_gpu(x.cuda())


def test_factories_and_like(gpu):
    z = minitorch.zeros(2, 3, device="cuda")
    assert on_gpu(z) and z.shape == (2, 3)
    assert on_gpu(minitorch.ones_like(z))
    assert on_gpu(minitorch.randn(4, device=gpu))
    assert on_gpu(minitorch.tensor([1, 2], device="cuda"))


def test_ops_stay_on_device(gpu):
    x = minitorch.arange(6.0).reshape(2, 3).to("cuda")
    results = [x * 2 + 1, x.exp(), x.sum(), x.sum(1), x.max(), x.max(1).values,
               x.max(1).indices, x @ x.T, x[0], x[:, 1:], x[minitorch.tensor([1, 1])],
               x > 2, x.relu(), x.mean(0), x.var(), minitorch.cat([x, x]),
               minitorch.where(x > 2, x, 0.0), x.clamp(1, 3), 2 - x, 1 / (x + 1)]
    for r in results:
        assert on_gpu(r), r


def test_mixed_devices_raise_pytorch_error(gpu):
    a = minitorch.ones(3).to("cuda")
    b = minitorch.ones(3)
    msg = ("Expected all tensors to be on the same device, but found at least two devices, "
           "cuda:0 and cpu!")
    for op in (lambda: a + b, lambda: b * a, lambda: a @ b, lambda: minitorch.cat([a, b]),
               lambda: minitorch.maximum(a, b)):
        with pytest.raises(RuntimeError) as info:
            op()
        assert str(info.value) == msg


def test_numpy_of_gpu_tensor_is_refused(gpu):
    with pytest.raises(TypeError, match="can't convert cuda:0 device type tensor to numpy"):
        minitorch.ones(2).to("cuda").numpy()


def test_gradient_flows_back_to_the_cpu_leaf(gpu):
    w = minitorch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    wg = w.to("cuda")
    assert wg.grad_fn.name() == "ToCopyBackward0" and wg.requires_grad
    loss = (wg * wg).sum()
    loss.backward()
    assert type(w.grad._data) is np.ndarray  # the gradient came home to the CPU
    np.testing.assert_allclose(w.grad.numpy(), [2.0, -4.0, 6.0])


def test_leaf_on_device_gets_device_gradients(gpu):
    w = minitorch.randn(4, 3).to("cuda").requires_grad_()
    x = minitorch.randn(5, 4).to("cuda")
    y = (x @ w).relu()
    idx = minitorch.tensor([0, 0, 2]).to("cuda")
    loss = y[idx].sum() + y.max(1).values.sum() + y[1].sum()
    loss.backward()
    assert on_gpu(w.grad)
    # same computation on the CPU gives the same gradient
    wc = minitorch.tensor(w.detach().cpu().numpy(), requires_grad=True)
    xc = x.cpu()
    yc = (xc @ wc).relu()
    (yc[minitorch.tensor([0, 0, 2])].sum() + yc.max(1).values.sum() + yc[1].sum()).backward()
    np.testing.assert_allclose(w.grad.cpu().numpy(), wc.grad.numpy(), rtol=1e-5)


def test_index_put_and_gather_on_device(gpu):
    x = minitorch.zeros(3, 4).to("cuda")
    v = minitorch.ones(4, requires_grad=True)
    x[1] = v.to("cuda") * 3
    assert on_gpu(x) and x.grad_fn.name() == "torch::autograd::CopySlices"
    x.sum().backward()
    np.testing.assert_allclose(v.grad.numpy(), [3.0] * 4)
    src = minitorch.arange(6.0).reshape(2, 3).to("cuda").requires_grad_()
    g = src.gather(1, minitorch.tensor([[0, 0], [2, 1]]).to("cuda"))
    g.sum().backward()
    assert on_gpu(src.grad)
    np.testing.assert_allclose(src.grad.cpu().numpy(), [[2, 0, 0], [0, 1, 1]])


def test_copy_across_devices_and_state_dict(gpu):
    src = minitorch.tensor([1.0, 2.0], requires_grad=True)
    dst = minitorch.zeros(2).to("cuda")
    dst.copy_(src * 3)
    assert on_gpu(dst)
    np.testing.assert_allclose(dst.detach().cpu().numpy(), [3.0, 6.0])
    dst.sum().backward()
    np.testing.assert_allclose(src.grad.numpy(), [3.0, 3.0])
    nn = minitorch.nn
    minitorch.manual_seed(0)
    on_device = nn.Linear(3, 2).to("cuda")
    assert all(on_gpu(p) for p in on_device.parameters())
    on_cpu = nn.Linear(3, 2)
    on_cpu.load_state_dict(on_device.state_dict())
    np.testing.assert_allclose(on_cpu.weight.detach().numpy(),
                               on_device.weight.detach().cpu().numpy())


def test_zero_dim_cpu_tensor_is_a_scalar_on_any_device(gpu):
    x = minitorch.ones(3).to("cuda")
    y = x * minitorch.tensor(2.0)
    assert on_gpu(y)
    np.testing.assert_allclose(y.cpu().numpy(), [2.0, 2.0, 2.0])
    with pytest.raises(RuntimeError, match="same device"):
        x * minitorch.tensor([2.0, 2.0, 2.0])


def test_numpy_of_requires_grad_tensor_under_no_grad():
    w = minitorch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="Can't call numpy"):
        w.numpy()
    with minitorch.no_grad():
        np.testing.assert_array_equal(w.numpy(), [1.0, 1.0])


def test_manual_update_on_the_device(gpu):
    """The tutorials' raw-tensor step, ``w -= lr * w.grad`` under ``no_grad``, on the device.
    CuPy's arrays have no ``writeable`` flag, and neither have the pretend GPU's: this failed
    on a real GPU with "'Flags' object has no attribute 'writeable'"."""
    rng = np.random.default_rng(0)
    start = rng.standard_normal((3, 2)).astype(np.float32)
    x = rng.standard_normal((4, 3)).astype(np.float32)
    ends = []
    for device in ("cpu", "cuda"):
        w = minitorch.tensor(start, device=device, requires_grad=True)
        for _ in range(3):
            loss = (minitorch.tensor(x, device=device) @ w).relu().sum()
            loss.backward()
            with minitorch.no_grad():
                w -= 0.1 * w.grad
                w.grad.zero_()
        assert w.device.type == device and w.is_leaf
        ends.append(w.detach().cpu().numpy())
    np.testing.assert_array_equal(ends[1], ends[0])


def test_writes_into_shared_memory_refused_on_the_device(gpu):
    """An expanded tensor repeats one memory location: writing into it is PyTorch's error on
    every device, found from the strides where the array keeps no flag (CuPy, the pretend GPU)."""
    for device in ("cpu", "cuda"):
        row = minitorch.tensor([[1.0, 2.0]], device=device)
        with pytest.raises(RuntimeError, match="more than one element of the written-to"):
            row.expand(3, 2).add_(1.0)
        wide = row.expand(1, 2)  # one row: no element is repeated, so it may be written
        wide.add_(1.0)
        np.testing.assert_array_equal(row.cpu().numpy(), [[2.0, 3.0]])


def test_factories_make_tensors_on_the_device(gpu):
    """``ones(..., device="cuda")`` is made there, as in PyTorch: no copy op is recorded, so
    the profiler shows only the ops the program ran."""
    a = minitorch.ones(4, 4, device="cuda", requires_grad=True)
    assert on_gpu(a) and a.is_leaf and a.grad_fn is None
    with minitorch.autograd.profiler.profile() as prof:
        b = minitorch.ones(4, 4, device="cuda")
        (a @ b).sum()
    assert [e.name for e in prof.function_events] == ["aten::mm", "aten::sum"]
    assert on_gpu(minitorch.zeros(2, device=minitorch.device("cuda", 0)))
    assert on_gpu(minitorch.tensor([1, 2], device="cuda"))


def test_an_index_out_of_bounds_is_an_error_on_the_device(gpu):
    """CuPy reads an index out of bounds wrapped around, without a word (the pretend GPU does
    too): minitorch checks the key on the host first and raises PyTorch's IndexError."""
    x = minitorch.arange(12.0).reshape(3, 4).to("cuda")
    assert x._data[np.array([5]).view(PretendArray)].tolist() == [[8.0, 9.0, 10.0, 11.0]]
    for key in (minitorch.tensor([1, 5]), (minitorch.tensor([0]), minitorch.tensor([-9]))):
        key = tuple(k.to("cuda") for k in key) if isinstance(key, tuple) else key.to("cuda")
        with pytest.raises(IndexError, match="out of bounds for dimension"):
            x[key]
    assert x[minitorch.tensor([-1]).to("cuda")].tolist() == [[8.0, 9.0, 10.0, 11.0]]


def test_a_write_out_of_bounds_is_an_error_on_the_device(gpu):
    """CuPy writes an index out of bounds wrapped around, and adds (index_put_ with
    accumulate=True) outside the array, a crash that every later call reports; the pretend GPU
    does the first and raises that crash's error for the second. minitorch checks first."""
    x = minitorch.zeros(3, 4).to("cuda")
    bad = minitorch.tensor([1, 5]).to("cuda")
    ones = minitorch.ones(2, 4).to("cuda")
    for accumulate in (False, True):
        with pytest.raises(IndexError, match="index 5 is out of bounds for dimension 0"):
            x.index_put_((bad,), ones, accumulate=accumulate)
    with pytest.raises(IndexError, match="index 5 is out of bounds"):
        x[bad] = 1.0
    with pytest.raises(IndexError, match="index 7 is out of bounds for dimension 0 with size 4"):
        x[:, minitorch.tensor([7]).to("cuda")]
    assert x.sum().item() == 0.0


# ---------------------------------------------------------------- with device(...)
# Each factory as minitorch and torch spell it, made with no device inside the block.
_CPU = np.ones(2, dtype=np.float32)
_BLOCK_FACTORIES = {
    "tensor": lambda lib: lib.tensor([1.0]),
    "as_tensor": lambda lib: lib.as_tensor([1.0]),
    "ones": lambda lib: lib.ones(2),
    "zeros": lambda lib: lib.zeros(2, 3),
    "empty": lambda lib: lib.empty(2),
    "full": lambda lib: lib.full((2,), 1.5),
    "arange": lambda lib: lib.arange(3),
    "linspace": lambda lib: lib.linspace(0, 1, 3),
    "logspace": lambda lib: lib.logspace(0, 1, 3),
    "eye": lambda lib: lib.eye(2),
    "rand": lambda lib: lib.rand(2),
    "randn": lambda lib: lib.randn(2),
    "randint": lambda lib: lib.randint(3, (2,)),
    "randperm": lambda lib: lib.randperm(3),
    "scalar_tensor": lambda lib: lib.scalar_tensor(1),
    "tril_indices": lambda lib: lib.tril_indices(3, 3),
    "empty_strided": lambda lib: lib.empty_strided((2,), (1,)),
    "hann_window": lambda lib: lib.hann_window(3),
    "normal": lambda lib: lib.normal(0.0, 1.0, (2,)),
    "ones_like": lambda lib: lib.ones_like(lib.from_numpy(_CPU)),
    "randn_like": lambda lib: lib.randn_like(lib.from_numpy(_CPU)),
    "from_numpy": lambda lib: lib.from_numpy(_CPU),
    "Tensor": lambda lib: lib.Tensor([1.0]),
    "nn.Linear": lambda lib: lib.nn.Linear(2, 3).weight,
    "nn.Conv1d": lambda lib: lib.nn.Conv1d(1, 1, 1).bias,
    "nn.BatchNorm1d": lambda lib: lib.nn.BatchNorm1d(2).running_mean,
    "nn.Parameter": lambda lib: lib.nn.Parameter(lib.from_numpy(_CPU)),
}


@pytest.mark.parametrize("name", sorted(_BLOCK_FACTORIES))
def test_with_device_reaches_the_factories_torch_reaches(gpu, name):
    """``with torch.device(...)`` reaches the factories of PyTorch's list (torch/utils/_device.py)
    and the layers' parameters, but not ``*_like``, ``from_numpy``, ``Tensor(...)`` or
    ``normal``. torch's "meta" device stands in for the GPU it lacks."""
    torch = pytest.importorskip("torch")
    make = _BLOCK_FACTORIES[name]
    with torch.device("meta"):
        expected = make(torch).device.type == "meta"
    with minitorch.device("cuda") as entered:
        assert entered == gpu
        made = make(minitorch)
    assert on_gpu(made) == expected
    assert not on_gpu(make(minitorch))  # back on the CPU after the block


def test_with_device_nests_and_restores(gpu):
    torch = pytest.importorskip("torch")
    for lib, other in ((torch, "meta"), (minitorch, "cuda")):
        d = lib.device(other)
        with d as entered:
            assert entered is d
            assert lib.get_default_device().type == other
            with lib.device("cpu"):
                assert lib.ones(1).device.type == "cpu"
                assert lib.get_default_device() == lib.device("cpu")
            assert lib.ones(1).device.type == other
            assert lib.ones(1, device="cpu").device.type == "cpu"
        assert lib.get_default_device() == lib.device("cpu")
        with pytest.raises(ValueError), lib.device(other):  # an exception leaves the block
            raise ValueError("x")
        assert lib.ones(1).device.type == "cpu"


def test_with_device_inside_set_default_device(gpu):
    minitorch.set_default_device("cuda")  # the pretend GPU (it raised AttributeError before)
    try:
        assert on_gpu(minitorch.ones(1))
        with minitorch.device("cpu"):
            assert not on_gpu(minitorch.ones(1))
        assert on_gpu(minitorch.ones(1))
    finally:
        minitorch.set_default_device(None)
    assert not on_gpu(minitorch.ones(1))


def test_with_cuda_without_gpu_raises_at_the_factory():
    if minitorch.cuda.is_available():
        pytest.skip("a real GPU is available here")
    with minitorch.device("cuda"):  # entering does not check, as in PyTorch
        with pytest.raises(RuntimeError, match="Cannot use device 'cuda'"):
            minitorch.ones(2)
    assert minitorch.ones(2).device == minitorch.device("cpu")


def test_data_parallel_with_one_gpu_runs_the_module_there(gpu):
    """As PyTorch's with one GPU: the module moves to cuda:0, inputs (in tuples, lists and
    dicts) are moved there, and a parameter moved away is refused with its error."""
    model = minitorch.nn.Linear(3, 2)
    dp = minitorch.nn.DataParallel(model)
    assert dp.device_ids == [0] and on_gpu(model.weight)
    out = dp(minitorch.ones(4, 3))
    assert on_gpu(out) and out.shape == (4, 2)

    class Pair(minitorch.nn.Module):
        def forward(self, pair, scale=None):
            return pair[0] + pair[1] * scale["by"]

    assert on_gpu(minitorch.nn.DataParallel(Pair())(
        [minitorch.ones(2), minitorch.ones(2)], scale={"by": minitorch.tensor(2.0)}))
    model.bias.data = model.bias.data.cpu()
    with pytest.raises(RuntimeError, match=r"module must have its parameters and buffers on "
                       r"device cuda:0 \(device_ids\[0\]\) but found one of them on device: cpu"):
        dp(minitorch.ones(4, 3))
    with pytest.raises(NotImplementedError, match="one GPU"):
        minitorch.nn.DataParallel(model, device_ids=[0, 1])
