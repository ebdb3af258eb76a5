"""Indexing, joining and picking ops at their edges, against PyTorch: each case runs the same
code with both libraries and compares what it printed (values, dtype, the node that recorded
it) or the exception it raised (type and message).

Found by a differential fuzz: negative indices that index_add wrapped, a 0-d index_select that
never looked at its index, chunk of an empty dimension, index tensors of int8/int16, masked
writes of a number of another dtype, ``x[True] = v``, and errors that came from NumPy.
"""

from __future__ import annotations

import numpy as np
import pytest

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the oracle for these cases")


def _outcome(call) -> str:
    try:
        out = call()
    except Exception as e:  # the exception is what is compared
        return f"{type(e).__name__}: {e}"
    if isinstance(out, (tuple, list)):  # pieces: their shapes and nodes
        return repr([(tuple(p.shape), p.grad_fn.name() if p.grad_fn else None) for p in out])
    node = getattr(out, "grad_fn", None)
    return repr(out) + (f" {node.name()}" if node is not None else "")


def _index_add(lib, shape, dim, idx):
    src = list(shape)
    src[dim] = 1
    return lambda: lib.index_add(lib.zeros(*shape), dim, lib.tensor([idx]), lib.ones(*src))


def _set(lib, make, key, value):
    def run():
        y = make()
        y[key(lib) if callable(key) else key] = value(lib) if callable(value) else value
        return y
    return run


def _set_backward(lib):
    y = lib.zeros(3) * 1
    v = lib.tensor(2.0, dtype=lib.float64, requires_grad=True)
    y[lib.tensor([True, False, True])] = v
    (y * lib.tensor([1.0, 2.0, 3.0])).sum().backward()
    return v.grad


def _gather_backward(lib, x, index, weight):
    x = lib.tensor(x, requires_grad=True)
    (lib.gather(x, 0, lib.tensor(index)) * weight).sum().backward()
    return x.grad


def _max_backward(lib, f, keepdim):
    s = lib.tensor(2.0, requires_grad=True)
    out = f(s, 0, keepdim=keepdim)
    (out.values * 3).backward()
    return f"{out!r} {out.values.grad_fn.name()} {s.grad!r}"


def _cases(lib):
    m = lib.tensor([True, False, True])
    graph = lambda *shape: lib.zeros(*shape, requires_grad=True) * 1  # noqa: E731
    cases = {
        # index_add: no negative indices; the message depends on PyTorch's kernel
        **{f"index_add_{shape}_{dim}_{idx}": _index_add(lib, shape, dim, idx)
           for shape, dim, idx in [((3, 2), 0, 3), ((3, 2), 0, -1), ((2, 3), 1, -1),
                                   ((2, 3), 1, 3), ((2, 3, 4), 1, 5), ((2, 3, 4), 1, -1),
                                   ((2, 3, 4), 2, -1), ((3,), 0, -1), ((3,), 0, 3),
                                   ((3,), 0, 2)]},
        "index_add_0d_minus_one": lambda: lib.index_add(lib.tensor(1.0), 0, lib.tensor([-1]),
                                                      lib.tensor(2.0)),
        **{f"index_add_alpha2_{shape}_{dim}_{idx}": (
            lambda shape=shape, dim=dim, idx=idx: lib.index_add(
                lib.zeros(*shape), dim, lib.tensor([idx]),
                lib.ones(*[1 if k == dim else n for k, n in enumerate(shape)]), alpha=2))
           for shape, dim, idx in [((3, 2), 0, 3), ((3, 4), 0, -1), ((2, 3), 1, -1)]},
        "index_add_0d": lambda: lib.index_add(lib.tensor(1.0), 0, lib.tensor([0]), lib.tensor(2.0)),
        # index_select of a 0-d tensor: exactly one index, 0
        "index_select_0d_two": lambda: lib.index_select(lib.tensor(3.0), 0, lib.tensor([0, 0])),
        "index_select_0d_one": lambda: lib.index_select(lib.tensor(3.0), 0, lib.tensor([1])),
        "index_select_0d_minus": lambda: lib.index_select(lib.tensor(3.0), 0, lib.tensor([-1])),
        "index_select_0d_empty": lambda: lib.index_select(lib.tensor(3.0), 0,
                                                        lib.tensor([], dtype=lib.long)),
        "index_select_0d": lambda: lib.index_select(lib.tensor(3.0, requires_grad=True), 0,
                                                  lib.tensor([0])),
        # chunk, split, unbind, cat, stack, repeat
        **{f"chunk_{n}_{c}": (lambda n=n, c=c: lib.chunk(graph(n, 3), c))
           for n, c in [(0, 2), (0, 1), (0, 3), (5, 2), (5, 3), (6, 4), (1, 3), (2, 5)]},
        "chunk_empty_dim1": lambda: lib.chunk(lib.zeros(3, 0), 2, 1),
        "chunk_negative": lambda: lib.chunk(lib.zeros(5), -1),
        "chunk_zero": lambda: lib.chunk(lib.zeros(5), 0),
        "chunk_float": lambda: lib.ones(2).chunk(2.0),
        "chunk_0d": lambda: lib.chunk(lib.tensor(1.0), 2),
        "split_0d": lambda: lib.split(lib.tensor(1.0), 1),
        "split_0d_sizes": lambda: lib.split(lib.tensor(1.0), [1]),
        "split_float": lambda: lib.split(lib.ones(4), 2.0),
        "unbind_0d": lambda: lib.unbind(lib.tensor(1.0)),
        "unbind_0d_minus_one": lambda: lib.unbind(lib.tensor(1.0), -1),
        "unbind_0d_out_of_range": lambda: lib.unbind(lib.tensor(1.0), 2),
        "cat_a_tensor": lambda: lib.cat(lib.ones(2, 3)),
        "stack_a_tensor": lambda: lib.stack(lib.ones(2, 3)),
        "cat_float_dim": lambda: lib.cat((lib.ones(2, 3),), 0.0),
        "cat_tensor_dim": lambda: lib.cat([lib.ones(2)], lib.tensor(0)),
        "repeat_negative": lambda: lib.ones(3).repeat(-1, 2),
        "repeat_negative_middle": lambda: lib.ones(2, 3).repeat(2, -2, 1),
        # index tensors: long, int, byte or bool only
        **{f"index_{d}": (lambda d=d: lib.arange(5)[lib.tensor([1, 0, 1, 1, 0],
                                                               dtype=getattr(lib, d))])
           for d in ("int8", "int16", "int32", "int64", "uint8", "bool", "float32")},
        "index_0d_int16": lambda: lib.arange(5)[lib.tensor(1, dtype=lib.int16)],
        # gather with a 0-d index, or of a 0-d input, and its gradient
        "gather_0d_index": lambda: lib.gather(lib.tensor([1.0, 2, 3], requires_grad=True), 0,
                                            lib.tensor(2)),
        "gather_0d_index_backward": lambda: _gather_backward(lib, [1.0, 2, 3], 2, 5.0),
        "gather_0d_input_backward": lambda: _gather_backward(lib, 5.0, [0, 0],
                                                             lib.tensor([2.0, 3.0])),
        "gather_sparse_grad_false": lambda: lib.tensor([1.0, 2]).gather(0, lib.tensor([1]),
                                                                      sparse_grad=False),
        # masked_fill takes a 0-d value tensor only
        "masked_fill_1d_value": lambda: lib.masked_fill(lib.zeros(3), m, lib.tensor([2.5])),
        "masked_fill_2d_value": lambda: lib.zeros(3).masked_fill(m, lib.tensor([[2.5]])),
        "masked_fill__1d_value": lambda: lib.zeros(3).masked_fill_(m, lib.tensor([2.5])),
        # sort's stable overload, max/min over the dim of a 0-d tensor
        "sort_stable": lambda: lib.sort(lib.tensor([3.0, 1, 2], requires_grad=True),
                                      stable=True).values,
        "sort_stable_false": lambda: lib.tensor([3.0, 1, 2], requires_grad=True).sort(
            stable=False).values,
        "sort_positional": lambda: lib.tensor([3.0, 1, 2], requires_grad=True).sort(0, True)
        .values,
        "max_0d": lambda: _max_backward(lib, lib.max, False),
        "min_0d_keepdim": lambda: _max_backward(lib, lib.min, True),
        # writes: a bool, a mask with one value of another dtype, shapes before bounds
        "set_mask_double_value": _set(lib, lambda: graph(3), m, lambda lib: lib.tensor(
            2.0, dtype=lib.float64)),
        "set_mask_float_into_long": _set(lib, lambda: lib.zeros(3, dtype=lib.int64), m,
                                         lambda lib: lib.tensor(2.7)),
        "set_mask_number_into_long": _set(lib, lambda: lib.zeros(3, dtype=lib.int64), m, 2.7),
        "set_mask_rows": _set(lib, lambda: lib.zeros(2, 3), lambda lib: lib.tensor([True, False]),
                              lambda lib: lib.tensor(4.0, dtype=lib.float64)),
        "set_mask_after_slice": _set(lib, lambda: lib.zeros(2, 3), (slice(None), m),
                                     lambda lib: lib.tensor([4.0], dtype=lib.float64)),
        "set_mask_value_backward": lambda: _set_backward(lib),
        "set_0d_mask_other_dtype": _set(lib, lambda: lib.ones(2, 3), lambda lib: lib.tensor(True),
                                        lambda lib: lib.tensor(3)),
        "set_0d_false_mask_other_dtype": _set(lib, lambda: lib.ones(2, 3),
                                              lambda lib: lib.tensor(False),
                                              lambda lib: lib.tensor(3.0, dtype=lib.float64)),
        "narrow_tensor_start": lambda: lib.zeros(5).narrow(0, lib.tensor(1), 2),
        "narrow_float_tensor_start": lambda: lib.zeros(5).narrow(0, lib.tensor(1.0), 2),
        "narrow_numpy_start": lambda: lib.zeros(5).narrow(-1, np.int64(-2), 1),
        "take_along_dim_flat_transposed": lambda: lib.take_along_dim(lib.ones(2, 3).t(),
                                                                      lib.tensor([0, 1])),
        "take_along_dim_flat": lambda: lib.take_along_dim(graph(2, 3), lib.tensor([[0, 4]]).t()),
        "set_true": _set(lib, lambda: graph(2, 3), True, 1.0),
        "set_true_double": _set(lib, lambda: lib.zeros(2, 3), True,
                                lambda lib: lib.ones(3, dtype=lib.float64)),
        "set_false": _set(lib, lambda: graph(2, 3), False, 1.0),
        "set_mask_shape_mismatch": _set(lib, lambda: lib.zeros(2, 3),
                                        lambda lib: lib.ones(2, 3, dtype=lib.bool),
                                        lambda lib: lib.ones(3, 1)),
        "set_out_of_range_and_shape": _set(lib, lambda: lib.zeros(3), lambda lib: lib.tensor([9]),
                                           lambda lib: lib.ones(2)),
        "set_out_of_range": _set(lib, lambda: lib.zeros(3), lambda lib: lib.tensor([9]),
                                 lambda lib: lib.ones(1)),
        "set_index_shape_mismatch": _set(lib, lambda: lib.zeros(2, 3),
                                         lambda lib: (lib.tensor([0, 1]), lib.tensor([0, 5])),
                                         lambda lib: lib.ones(3)),
    }
    return cases


@pytest.mark.parametrize("case", sorted(_cases(minitorch)))
def test_indexing_edges_as_in_torch(case):
    assert _outcome(_cases(minitorch)[case]) == _outcome(_cases(torch)[case])


def test_gather_sparse_grad_is_refused_clearly():
    """minitorch has no sparse tensors: a sparse gradient is refused, not made dense."""
    with pytest.raises(NotImplementedError, match="sparse"):
        minitorch.gather(minitorch.ones(2), 0, minitorch.tensor([0]), sparse_grad=True)


_FLOAT_SIZES = {
    "view": lambda x: x.view(2.5, -1),  # n / 2 where n is odd: cut down to 2, silently
    "view_tuple": lambda x: x.view((2.0, 6)),
    "reshape": lambda x: x.reshape(6, 2.0),
    "expand": lambda x: x[:, :1].expand(4.0, 3),
    "repeat": lambda x: x.repeat(2.0, 1),
    "permute": lambda x: x.permute(1.0, 0),
    "sum_to_size": lambda x: x.sum_to_size(1.0, 3),
    "narrow_start": lambda x: x.narrow(0, 1.0, 2),
    "narrow_length": lambda x: x.narrow(0, 1, 2.0),
    "narrow_dim": lambda x: x.narrow(0.0, 1, 2),
    "narrow_bool_start": lambda x: x.narrow(0, True, 2),
    "view_float_tensor": lambda x: x.view(type(x)([2.0]).reshape(()), 6),
}


@pytest.mark.parametrize("case", sorted(_FLOAT_SIZES))
def test_a_float_size_is_a_type_error_as_in_torch(case):
    """A size given as a float (``x.view(n / 2, -1)``) is PyTorch's TypeError, not truncated
    to an int (2.5 became 2 and the -1 took the rest). PyTorch's wording comes from its argument
    parser and differs from function to function; minitorch names the element."""
    for lib in (minitorch, torch):
        with pytest.raises(TypeError) as caught:
            _FLOAT_SIZES[case](lib.zeros(4, 3))
        if lib is minitorch:
            assert ("must be tuple of ints, but found element of type" in str(caught.value)
                    or "must be int, not" in str(caught.value))


@pytest.mark.parametrize("size", [(2, 6), ((2, 6),), ([2, 6],), (-1,), (np.int64(2), 6),
                                  "int tensor"], ids=str)
def test_integer_sizes_in_every_form_still_work(size):
    shapes = []
    for lib in (minitorch, torch):
        args = (lib.tensor(2), 6) if size == "int tensor" else size
        shapes.append(tuple(lib.zeros(4, 3).view(*args).shape))
    assert shapes[0] == shapes[1] != (4, 3)


_OUT_OF_BOUNDS = {  # name: the key, with ("i", values) for an index tensor
    "slice-then-index": (slice(None), ("i", [5])),
    "two-slices": (slice(None), slice(None), ("i", [9])),
    "index-slice-index": (("i", [0]), slice(None), ("i", [9])),
    "int-then-index": (0, ("i", [7])),
    "ellipsis": (Ellipsis, ("i", [9])),
    "none": (None, slice(None), ("i", [9])),
    "mask-then-index": (("m", [True, False]), ("i", [9])),
    "2-d-mask-then-index": (("m", [[True] * 3] * 2), ("i", [9])),
    "index-int-index": (("i", [0]), 0, ("i", [9])),
    "negative-after-ellipsis": (("i", [0]), Ellipsis, ("i", [-9])),
    "start-slice": (slice(1, None), ("i", [5])),
}


@pytest.mark.parametrize("name", sorted(_OUT_OF_BOUNDS))
@pytest.mark.parametrize("how", ["read", "write"])
def test_an_index_out_of_bounds_names_torchs_dimension(name, how):
    """PyTorch numbers the dimension by the index tensors (x[:, i] says dimension 0)."""
    def run(lib):
        x = lib.zeros(2, 3, 4)
        key = tuple(lib.tensor(k[1]) if isinstance(k, tuple) else k for k in _OUT_OF_BOUNDS[name])
        try:
            if how == "read":
                x[key]
            else:
                x[key] = 1.0
        except IndexError as e:
            return str(e)
        return "no error"

    assert run(minitorch) == run(torch)
