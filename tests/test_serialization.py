"""``minitorch.save`` / ``minitorch.load`` against the pinned PyTorch, in both directions.

Files minitorch writes must load in ``torch.load`` (``weights_only=True`` and ``False``) with the
same values, dtypes, shapes, strides, shared storages and ``requires_grad``; files ``torch.save``
writes must load in minitorch without importing torch; a pickle that would run code is refused.
"""

from __future__ import annotations

import collections
import io
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import minitorch

DTYPES = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"]


def _values(t) -> tuple:
    a = t.detach().numpy()
    return str(t.dtype), tuple(t.shape), a.tobytes(), bool(t.requires_grad)


def _strides(t) -> tuple:
    """Strides in elements (minitorch's come from its NumPy array)."""
    if isinstance(t, minitorch.Tensor):
        return tuple(s // t._data.itemsize for s in t._data.strides)
    return tuple(t.stride())


def _minitorch_objects():
    base = minitorch.arange(24.0).reshape(4, 6)
    sd = collections.OrderedDict()
    sd["base"] = base
    sd["view"] = base[1:3, ::2]
    sd["transposed"] = base.t()
    sd["scalar"] = minitorch.tensor(3.5)
    sd["empty"] = minitorch.zeros(0, 3)
    sd["param"] = minitorch.nn.Parameter(minitorch.ones(2))
    sd["leaf"] = minitorch.ones(2, requires_grad=True)
    for name in DTYPES:
        sd[name] = minitorch.tensor([0, 1, 1, 0, 1], dtype=getattr(minitorch, name))[1:]
    sd["nested"] = {"list": [1, 2.5, "x", (True, None)], "dtype": minitorch.float16,
                    "size": minitorch.Size([2, 3]), "bytes": b"a\xff", "set": {1, 2},
                    "tensors": (minitorch.eye(2), [minitorch.arange(3)])}
    return sd


# ------------------------------------------------------------------------ minitorch -> torch
@pytest.mark.parametrize("weights_only", [True, False])
def test_files_minitorch_writes_load_in_torch(tmp_path, weights_only):
    torch = pytest.importorskip("torch", reason="PyTorch is the oracle for the file format")
    sd = _minitorch_objects()
    path = tmp_path / "model.pt"
    minitorch.save(sd, path)
    out = torch.load(path, weights_only=weights_only)
    assert type(out) is collections.OrderedDict and list(out) == list(sd)
    for key, mine in sd.items():
        theirs = out[key]
        if isinstance(mine, minitorch.Tensor):
            assert _values(mine) == _values(theirs), key
            assert _strides(mine) == _strides(theirs), key
        elif key != "nested":
            assert mine == theirs
    assert isinstance(out["param"], torch.nn.Parameter) and out["param"].requires_grad
    assert not isinstance(out["leaf"], torch.nn.Parameter) and out["leaf"].requires_grad
    nested = out["nested"]
    assert nested["list"] == [1, 2.5, "x", (True, None)]
    assert nested["dtype"] is torch.float16 and nested["size"] == torch.Size([2, 3])
    assert nested["bytes"] == b"a\xff" and nested["set"] == {1, 2}
    assert torch.equal(nested["tensors"][0], torch.eye(2))
    # views still share one storage: writing through one shows in the others
    assert out["view"].untyped_storage().data_ptr() == out["base"].untyped_storage().data_ptr()
    out["base"][1, 0] = 100.0
    assert out["view"][0, 0].item() == 100.0 and out["transposed"][0, 1].item() == 100.0


def test_torch_can_mmap_minitorch_files(tmp_path):
    torch = pytest.importorskip("torch", reason="PyTorch is the oracle for the file format")
    minitorch.save({"w": minitorch.arange(10.0), "b": minitorch.ones(3, dtype=minitorch.int64)},
                   tmp_path / "m.pt")
    out = torch.load(tmp_path / "m.pt", weights_only=True, mmap=True)  # needs aligned storages
    assert out["w"].tolist() == list(map(float, range(10))) and out["b"].tolist() == [1, 1, 1]


# ------------------------------------------------------------------------ torch -> minitorch
def _torch_file(path) -> None:
    torch = pytest.importorskip("torch", reason="PyTorch writes the files to read")
    base = torch.arange(24.0).reshape(4, 6)
    sd = collections.OrderedDict()
    sd["base"], sd["view"], sd["transposed"] = base, base[1:3, ::2], base.t()
    sd["param"] = torch.nn.Parameter(torch.full((2,), 0.5))
    sd["leaf"] = torch.ones(2, requires_grad=True)
    sd["scalar"], sd["empty"] = torch.tensor(7), torch.zeros(0, 2, dtype=torch.int32)
    for name in DTYPES:
        sd[name] = torch.tensor([0, 1, 1, 0, 1], dtype=getattr(torch, name))[1:]
    sd["nested"] = {"x": [1, (2, "y")], "dtype": torch.float64, "size": torch.Size([3]),
                    "device": torch.device("cpu"), "t": [torch.arange(3)]}
    torch.save(sd, path)
    return sd


def test_files_torch_writes_load_in_minitorch(tmp_path):
    ref = _torch_file(tmp_path / "t.pt")
    with open(tmp_path / "t.pt", "rb") as fh:  # a file object works as well as a path
        out = minitorch.load(fh, map_location="cpu", weights_only=True)
    assert type(out) is collections.OrderedDict and list(out) == list(ref)
    for key, theirs in ref.items():
        if key != "nested":
            assert _values(out[key]) == _values(theirs), key
            assert _strides(out[key]) == _strides(theirs), key
    assert isinstance(out["param"], minitorch.nn.Parameter) and out["param"].requires_grad
    assert out["nested"]["x"] == [1, (2, "y")] and out["nested"]["dtype"] is minitorch.float64
    assert out["nested"]["size"] == minitorch.Size([3])
    assert out["nested"]["device"] == minitorch.device("cpu")
    out["base"][1, 0] = 100.0
    assert out["view"][0, 0].item() == 100.0 and out["transposed"][0, 1].item() == 100.0


def test_minitorch_reads_torch_files_without_importing_torch(tmp_path):
    ref = _torch_file(tmp_path / "t.pt")
    expected = {k: v.detach().numpy().tolist() for k, v in ref.items() if k != "nested"}
    script = textwrap.dedent(f"""
        import sys, minitorch
        out = minitorch.load({str(tmp_path / "t.pt")!r})
        assert "torch" not in sys.modules, "loading imported torch"
        got = {{k: v.detach().numpy().tolist() for k, v in out.items() if k != "nested"}}
        assert got == {expected!r}, got
        print("ok")
    """)
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(minitorch.__file__)))
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr


# ------------------------------------------------------------------------ models, both ways
def _pair():
    torch = pytest.importorskip("torch", reason="PyTorch is the oracle for the file format")

    def build(t):
        return t.nn.Sequential(t.nn.Conv2d(1, 2, 3), t.nn.ReLU(), t.nn.Flatten(),
                               t.nn.Linear(2 * 4 * 4, 3))

    return torch, build(torch), build(minitorch)


def test_state_dict_from_torch_runs_in_minitorch_model(tmp_path):
    torch, theirs, mine = _pair()
    torch.save(theirs.state_dict(), tmp_path / "t.pt")
    assert str(mine.load_state_dict(minitorch.load(tmp_path / "t.pt"))) == \
        "<All keys matched successfully>"
    x = np.random.default_rng(0).standard_normal((2, 1, 6, 6)).astype(np.float32)
    np.testing.assert_allclose(mine(minitorch.tensor(x)).detach().numpy(),
                               theirs(torch.tensor(x)).detach().numpy(), rtol=1e-5, atol=1e-6)


def test_state_dict_from_minitorch_runs_in_torch_model(tmp_path):
    torch, theirs, mine = _pair()
    minitorch.save(mine.state_dict(), tmp_path / "m.pt")
    theirs.load_state_dict(torch.load(tmp_path / "m.pt", weights_only=True))
    x = np.random.default_rng(1).standard_normal((2, 1, 6, 6)).astype(np.float32)
    np.testing.assert_allclose(mine(minitorch.tensor(x)).detach().numpy(),
                               theirs(torch.tensor(x)).detach().numpy(), rtol=1e-5, atol=1e-6)


def test_round_trip_within_minitorch():
    sd = _minitorch_objects()
    buf = io.BytesIO()
    minitorch.save(sd, buf)
    buf.seek(0)
    out = minitorch.load(buf)
    for key, mine in sd.items():
        if isinstance(mine, minitorch.Tensor):
            assert _values(out[key]) == _values(mine), key
    assert out["nested"]["list"] == sd["nested"]["list"]


# ------------------------------------------------------------------------ refusing code
class _RunsCode:
    def __reduce__(self):
        return (os.system, ("echo this-must-not-run",))


def _evil_zip() -> bytes:
    """A PyTorch-layout archive whose pickle calls ``os.system``."""
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("archive/data.pkl", pickle.dumps({"x": _RunsCode()}, protocol=2))
        z.writestr("archive/byteorder", "little")
        z.writestr("archive/version", "3\n")
    return buf.getvalue()


def test_a_pickle_that_runs_code_is_refused(capfd):
    for weights_only in (True, None):  # the default is weights_only=True, as in PyTorch 2.6+
        with pytest.raises(pickle.UnpicklingError, match="Weights only load failed") as err:
            minitorch.load(io.BytesIO(_evil_zip()), weights_only=weights_only)
        assert "system" in str(err.value)
        assert "`weights_only` set to `False` will likely succeed" in str(err.value)
    assert "this-must-not-run" not in capfd.readouterr().out


def test_torch_refuses_the_same_file():
    torch = pytest.importorskip("torch", reason="PyTorch is the oracle")
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
        torch.load(io.BytesIO(_evil_zip()), weights_only=True)


def test_clear_errors():
    with pytest.raises(RuntimeError, match="zip format"):
        minitorch.load(io.BytesIO(b"not a checkpoint"))
    buf = io.BytesIO()
    minitorch.save(minitorch.ones(1), buf)
    with pytest.raises(RuntimeError, match="don't know how to restore data location of tpu"):
        minitorch.load(io.BytesIO(buf.getvalue()), map_location="tpu")
    same = minitorch.load(io.BytesIO(buf.getvalue()), map_location=lambda storage, loc: storage)
    assert same.tolist() == [1.0]


def test_import_stays_light():
    # what the interpreter loaded at startup does not count (a site hook may load zipfile)
    code = ("import sys; before = set(sys.modules); import minitorch; "
            "print(any(m in sys.modules and m not in before "
            "for m in ('zipfile', 'minitorch.serialization')))")
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(minitorch.__file__)))
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert run.stdout.strip() == "False", run.stderr
