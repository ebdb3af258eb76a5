"""Saving and loading a whole model: ``torch.save(model, path)`` and
``torch.load(path, weights_only=False)`` (PyTorch's "Save and Load the Model" tutorial).

``weights_only=False`` is the caller's statement that the file is trusted: the file is
unpickled in full, as PyTorch does, while the default (``weights_only=True``) stays
restricted (``tests/test_serialization.py``)."""

from __future__ import annotations

import collections
import io
import pickle
import zipfile

import numpy as np
import pytest

import minitorch
from minitorch import nn

CALLS: list = []


def _record(*args):
    """A harmless global function that a pickle can name (standing in for any code)."""
    CALLS.append(args)
    return "ran"


class _CallsRecord:
    def __reduce__(self):
        return (_record, ("from the file",))


class TinyNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.flatten = nn.Flatten()
        self.stack = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.BatchNorm1d(3),
                                   nn.Linear(3, 2))
        self.register_buffer("scale", minitorch.tensor(2.0))

    def forward(self, x):
        return self.stack(self.flatten(x)) * self.scale


def _saved(obj) -> bytes:
    buf = io.BytesIO()
    minitorch.save(obj, buf)
    return buf.getvalue()


def test_whole_model_round_trips_with_weights_only_false(tmp_path):
    minitorch.manual_seed(0)
    model = TinyNet()
    model.train()(minitorch.randn(5, 2, 2))  # running statistics that are not the defaults
    model.eval()
    path = tmp_path / "model.pth"
    minitorch.save(model, path)
    loaded = minitorch.load(path, weights_only=False)
    assert type(loaded) is TinyNet and loaded is not model
    assert repr(loaded) == repr(model)
    assert not loaded.training
    x = minitorch.randn(3, 2, 2)
    np.testing.assert_array_equal(loaded(x).detach().numpy(), model(x).detach().numpy())
    for (name, a), (_, b) in zip(model.state_dict().items(), loaded.state_dict().items()):
        np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=name)
    # the loaded parameters are Parameters that train on their own
    assert all(isinstance(p, nn.Parameter) for p in loaded.parameters())
    opt = minitorch.optim.SGD(loaded.parameters(), lr=0.1)
    loaded.train()
    loaded(x).pow(2).sum().backward()  # (a plain sum has no gradient through batch norm)
    opt.step()
    assert not np.array_equal(loaded.stack[0].weight.detach().numpy(),
                              model.stack[0].weight.detach().numpy())


def test_the_default_refuses_a_whole_model_with_pytorchs_advice():
    data = _saved(TinyNet())
    for weights_only in (None, True):
        with pytest.raises(pickle.UnpicklingError) as err:
            minitorch.load(io.BytesIO(data), weights_only=weights_only)
        text = str(err.value)
        assert text.startswith("Weights only load failed.")
        assert "`weights_only` set to `False` will likely succeed" in text
        assert "TinyNet" in text


def test_weights_only_false_runs_what_the_file_says():
    """As with pickle and torch.load(weights_only=False): the file's code runs."""
    CALLS.clear()
    data = _saved({"x": _CallsRecord(), "w": minitorch.ones(2)})
    with pytest.raises(pickle.UnpicklingError):
        minitorch.load(io.BytesIO(data))
    assert CALLS == []
    out = minitorch.load(io.BytesIO(data), weights_only=False)
    assert CALLS == [("from the file",)] and out["x"] == "ran"
    assert out["w"].tolist() == [1.0, 1.0]


def test_shared_storage_and_map_location_with_a_whole_model():
    model = nn.Linear(3, 2)
    pair = {"model": model, "weight": model.weight}
    out = minitorch.load(io.BytesIO(_saved(pair)), weights_only=False, map_location="cpu")
    assert out["model"].weight is out["weight"]  # one object, saved once (pickle memo)
    np.testing.assert_array_equal(out["model"].weight.detach().numpy(),
                                  out["weight"].detach().numpy())
    moved = minitorch.load(io.BytesIO(_saved(model)), weights_only=False,
                           map_location=lambda storage, loc: storage * 0)
    assert moved.weight.abs().sum().item() == 0


def test_pickle_module_arguments_are_pytorchs():
    data = _saved(minitorch.ones(1))
    with pytest.raises(RuntimeError, match="Can not safely load weights when explicit "
                                           "pickle_module is specified"):
        minitorch.load(io.BytesIO(data), pickle_module=pickle)
    assert minitorch.load(io.BytesIO(data), pickle_module=pickle,
                          weights_only=False).tolist() == [1.0]


def test_the_file_is_pytorchs_archive_layout():
    with zipfile.ZipFile(io.BytesIO(_saved(TinyNet()))) as z:
        names = z.namelist()
    assert "archive/data.pkl" in names and "archive/version" in names
    assert any(n.startswith("archive/data/") for n in names)


def test_pytorch_loads_minitorchs_state_dict_and_refuses_its_model_by_default():
    torch = pytest.importorskip("torch", reason="PyTorch is the oracle")
    model = TinyNet()
    sd = torch.load(io.BytesIO(_saved(model.state_dict())), weights_only=True)
    assert sorted(sd) == sorted(model.state_dict())
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
        torch.load(io.BytesIO(_saved(model)))


# ---------------------------------------------------------------- safe globals
class _Point:
    """A plain class a checkpoint may hold; safe only once marked so."""

    def __init__(self, x, y):
        self.x, self.y = x, y


def _torch_saved(obj) -> bytes:
    torch = pytest.importorskip("torch", reason="PyTorch is the test oracle")
    buf = io.BytesIO()
    torch.save(obj, buf)
    return buf.getvalue()


def _load_both(data, **kw):
    """What torch.load and minitorch.load make of the same bytes: a value or (type, message)."""
    torch = pytest.importorskip("torch", reason="PyTorch is the test oracle")
    out = []
    for lib in (torch, minitorch):
        try:
            got = lib.load(io.BytesIO(data), **kw)
            out.append(("ok", got["p"].x, got["p"].y) if isinstance(got, dict) else repr(got))
        except Exception as e:
            out.append((type(e).__name__, str(e)))
    return out


@pytest.mark.parametrize("obj", [{"p": _Point(1, 2)}, {"f": print}, {"s": _torch_saved}],
                         ids=["class", "builtin", "function"])
def test_an_unsafe_global_is_refused_with_pytorchs_whole_message(obj):
    ref, mine = _load_both(_torch_saved(obj))
    assert mine == ref


def _both_libs(fn):
    torch = pytest.importorskip("torch", reason="PyTorch is the test oracle")
    out = []
    for lib in (torch, minitorch):
        before = lib.serialization.get_safe_globals()  # torch marks a few of its own
        lib.serialization.clear_safe_globals()
        try:
            out.append(fn(lib))
        except Exception as e:
            out.append((type(e).__name__, str(e)))
        finally:
            lib.serialization.clear_safe_globals()
            lib.serialization.add_safe_globals(before)
    return out


def test_safe_globals_block_allows_the_class_for_the_block_only():
    data = _torch_saved({"p": _Point(3, 4)})

    def fn(lib):
        with lib.serialization.safe_globals([_Point]):
            inside = lib.serialization.get_safe_globals()
            got = lib.load(io.BytesIO(data))
        return inside == [_Point], (got["p"].x, got["p"].y), lib.serialization.get_safe_globals()

    ref, mine = _both_libs(fn)
    assert mine == ref == (True, (3, 4), [])


def test_add_safe_globals_stays_until_cleared_and_takes_a_path():
    data = _torch_saved({"p": _Point(5, 6)})

    def fn(lib):
        s = lib.serialization
        s.add_safe_globals([(_Point, f"{__name__}._Point")])
        got = lib.load(io.BytesIO(data))["p"]
        kept = s.get_safe_globals() == [(_Point, f"{__name__}._Point")]
        s.clear_safe_globals()
        after = s.get_safe_globals()
        try:
            lib.load(io.BytesIO(data))
            refused = False
        except pickle.UnpicklingError:
            refused = True
        return got.x, got.y, kept, after, refused

    ref, mine = _both_libs(fn)
    assert mine == ref == (5, 6, True, [], True)


@pytest.mark.parametrize("bad", [(_Point,), (_Point, 3), (_Point, "a", "b")],
                         ids=["short", "not-a-str", "long"])
def test_a_bad_safe_global_pair_raises_pytorchs_error(bad):
    data = _torch_saved({"p": _Point(1, 1)})

    def fn(lib):
        lib.serialization.add_safe_globals([bad])
        return lib.load(io.BytesIO(data))

    ref, mine = _both_libs(fn)
    assert mine == ref


# ---------------------------------------------------------------- state_dict metadata
def _stack(lib):
    nn = lib.nn
    return nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3),
                         nn.Sequential(nn.InstanceNorm1d(3, affine=True), nn.ReLU()))


def test_state_dict_carries_pytorchs_metadata():
    torch = pytest.importorskip("torch", reason="PyTorch is the test oracle")
    for kw in ({}, {"prefix": "model."}, {"keep_vars": True}):
        mine, ref = _stack(minitorch).state_dict(**kw), _stack(torch).state_dict(**kw)
        assert type(mine._metadata) is collections.OrderedDict
        assert mine._metadata == ref._metadata, kw
        assert list(mine) == list(ref)
    assert not hasattr(_stack(minitorch).state_dict(destination={}), "_metadata")


def test_state_dict_metadata_travels_through_files_both_ways():
    torch = pytest.importorskip("torch", reason="PyTorch is the test oracle")
    buf = io.BytesIO()
    minitorch.save(_stack(minitorch).state_dict(), buf)
    theirs = torch.load(io.BytesIO(buf.getvalue()), weights_only=True)
    assert theirs._metadata == _stack(torch).state_dict()._metadata
    mine = minitorch.load(io.BytesIO(_torch_saved(_stack(torch).state_dict())))
    assert mine._metadata == _stack(minitorch).state_dict()._metadata
