"""OpInfo samples of the 3-d and transposed convolutions (``F.conv3d``,
``F.conv_transpose1d``, ``F.conv_transpose3d`` and their ``torch.*`` names), the 3-d pools,
unpooling and the power-average pools.

``_opinfo_samples._build_table`` calls :func:`add_samples`; the samples use the same input
families and comparison as every other op (see ``tests/_opinfo_samples.py``): values and
gradients against PyTorch, second derivatives where marked, float64 / float16 / empty batch /
non-contiguous inputs, the errors PyTorch raises, and the names of the nodes recorded.
"""

from __future__ import annotations

import numpy as np
from _opinfo_samples import INF, NAN, A, Sample, rnd


def _names(out) -> list:
    """The names of ``out``'s node and of the nodes feeding it."""
    node = out.grad_fn
    return [node.name()] + [n and n.name() for n, _ in node.next_functions]


def _graph(name, lib_attr="nn.functional", pick=None):
    def call(lib, *args, **kw):
        fn = lib
        for part in lib_attr.split("."):
            fn = getattr(fn, part)
        out = getattr(fn, name)(*args, **kw)
        out = out if pick is None else out[pick]
        return out, _names(out)
    return call


# ------------------------------------------------------------------ convolutions
def conv3d_samples(op):
    def gen():
        x, w, b = A(rnd(2, 3, 4, 5, 4)), A(rnd(4, 3, 2, 3, 2)), A(rnd(4))
        yield Sample(op, "ordinary", (x, w, b), gradgrad=True)
        yield Sample(op, "stride-pad", (x, w), {"stride": 2, "padding": 1}, gradgrad=True)
        yield Sample(op, "tuple-args", (x, w, b), {"stride": (1, 2, 1), "padding": (1, 0, 1),
                                                   "dilation": (2, 1, 1)})
        yield Sample(op, "dilation", (A(rnd(1, 3, 5, 5, 5)), w), {"dilation": 2})
        yield Sample(op, "same", (x, A(rnd(2, 3, 3, 1, 3)), A(rnd(2))), {"padding": "same"})
        yield Sample(op, "bad-bias", (x, w, A(rnd(3))))
        yield Sample(op, "valid", (x, w, b), {"padding": "valid"})
        yield Sample(op, "4-d-input", (A(rnd(3, 4, 5, 4)), w, b))
        yield Sample(op, "float64", (A(rnd(1, 3, 3, 4, 3, dtype=np.float64)),
                                     A(rnd(2, 3, 2, 2, 2, dtype=np.float64))), gradgrad=True)
        yield Sample(op, "noncontig", (A(rnd(2, 3, 4, 5, 4), layout="T"), w, b))
        yield Sample(op, "empty-batch", (A(np.zeros((0, 3, 4, 5, 4), np.float32)), w, b))
        yield Sample(op, "inf-nan", (A(np.where(rnd(1, 3, 3, 3, 3) > 0, INF, NAN)
                                       .astype(np.float32)), w))
        yield Sample(op, "bad-channels", (A(rnd(1, 2, 4, 4, 4)), w))
        yield Sample(op, "kernel-too-big", (A(rnd(1, 3, 1, 4, 4)), w))
        yield Sample(op, "bad-stride-len", (x, w), {"stride": (1, 2)})
        yield Sample(op, "same-strided", (x, w), {"padding": "same", "stride": 2})
        yield Sample(op, "bad-padding-string", (x, w), {"padding": "full"})
        yield Sample(op, "3-d-input", (A(rnd(3, 4, 5)), w))
        yield Sample(op, "6-d-input", (A(rnd(1, 1, 3, 4, 5, 4)), w))
        xg = A(rnd(2, 6, 3, 4, 3))
        yield Sample(op, "groups", (xg, A(rnd(4, 3, 2, 2, 2)), b), {"groups": 2}, gradgrad=True)
        yield Sample(op, "groups-depthwise", (xg, A(rnd(6, 1, 2, 3, 1))),
                     {"groups": 6, "stride": (1, 2, 1), "padding": 1, "dilation": (2, 1, 1)},
                     gradgrad=True)
        yield Sample(op, "groups-bad-channels", (x, A(rnd(4, 2, 2, 2, 2))), {"groups": 2})
        yield Sample(op, "groups-not-divisible", (xg, A(rnd(4, 2, 2, 2, 2))), {"groups": 3})
        yield Sample(op, "groups-too-many", (xg, A(rnd(2, 1, 2, 2, 2))), {"groups": 6})
        yield Sample(op, "groups0", (x, w), {"groups": 0})
        yield Sample(op, "negative-padding", (x, w), {"padding": -1})
        yield Sample(op, "stride0", (x, w), {"stride": 0})
        yield Sample(op, "dilation0", (x, w), {"dilation": 0})
        yield Sample(op, "node", (x, w, b), call=_graph("conv3d"))
    return gen


def conv_transpose_nd_samples(op, n):
    name = op.split(":")[1]

    def gen():
        sp = (4, 3, 3)[:n] if n == 3 else (5,)
        ks = (2, 3, 2)[:n] if n == 3 else (3,)
        x, w, b = A(rnd(2, 3, *sp)), A(rnd(3, 2, *ks)), A(rnd(2))
        yield Sample(op, "ordinary", (x, w, b), gradgrad=True)
        yield Sample(op, "stride", (x, w), {"stride": 2}, gradgrad=True)
        yield Sample(op, "stride-pad", (x, w, b), {"stride": 2, "padding": 1})
        yield Sample(op, "output-padding", (x, w), {"stride": 2, "output_padding": 1},
                     gradgrad=True)
        yield Sample(op, "dilation", (x, w), {"dilation": 2})
        yield Sample(op, "dilation-output-padding", (x, w), {"dilation": 2,
                                                             "output_padding": 1})
        yield Sample(op, "tuple-args", (x, w, b), {"stride": (2,) * n, "padding": (1,) * n})
        yield Sample(op, "unbatched", (A(rnd(3, *sp)), w, b))
        yield Sample(op, "float64", (A(rnd(1, 3, *sp, dtype=np.float64)),
                                     A(rnd(3, 2, *ks, dtype=np.float64))), gradgrad=True)
        yield Sample(op, "noncontig", (A(rnd(2, 3, *sp), layout="T"), w, b))
        yield Sample(op, "empty-batch", (A(np.zeros((0, 3, *sp), np.float32)), w, b))
        yield Sample(op, "bad-channels", (A(rnd(1, 4, *sp)), w))
        yield Sample(op, "bad-bias", (x, w, A(rnd(3))))
        yield Sample(op, "bad-output-padding", (x, w), {"output_padding": 1})
        yield Sample(op, "too-small", (A(rnd(1, 3, *(1,) * n)), w), {"padding": 2})
        yield Sample(op, "bad-rank", (A(rnd(*(2,) * (n + 3))), w))
        yield Sample(op, "bad-stride-len", (x, w), {"stride": (1,) * (n + 1)})
        yield Sample(op, "padding-string", (x, w), {"padding": "same"})
        xg = A(rnd(2, 4, *sp))
        yield Sample(op, "groups", (xg, A(rnd(4, 3, *ks)), A(rnd(6))), {"groups": 2},
                     gradgrad=True)
        yield Sample(op, "groups-stride", (xg, A(rnd(4, 1, *ks))),
                     {"groups": 4, "stride": 2, "padding": 1, "output_padding": 1,
                      "dilation": 2}, gradgrad=True)
        yield Sample(op, "groups-bad-bias", (xg, A(rnd(4, 3, *ks)), A(rnd(3))), {"groups": 2})
        yield Sample(op, "groups-not-divisible", (A(rnd(2, 3, *sp)), w), {"groups": 2})
        yield Sample(op, "groups0", (x, w), {"groups": 0})
        yield Sample(op, "negative-output-padding", (x, w), {"output_padding": -1})
        yield Sample(op, "negative-padding", (x, w), {"padding": -1})
        yield Sample(op, "stride0", (x, w), {"stride": 0})
        yield Sample(op, "node", (x, w, b), call=_graph(name))
    return gen


def add_samples(t: dict) -> None:
    t["F:conv3d"] = conv3d_samples("F:conv3d")
    t["fn:conv3d"] = conv3d_samples("fn:conv3d")
    for n in (1, 3):
        for style in ("F", "fn"):
            op = f"{style}:conv_transpose{n}d"
            t[op] = conv_transpose_nd_samples(op, n)
    for name in ("max_pool3d", "max_pool3d_with_indices", "avg_pool3d"):
        t[f"F:{name}"] = pool3d_samples(f"F:{name}")
    t["fn:max_pool3d"] = pool3d_samples("fn:max_pool3d")
    for name in ("adaptive_avg_pool3d", "adaptive_max_pool3d",
                 "adaptive_max_pool3d_with_indices"):
        t[f"F:{name}"] = adaptive3d_samples(f"F:{name}")
    for n in (1, 2, 3):
        t[f"F:max_unpool{n}d"] = unpool_samples(f"F:max_unpool{n}d", n)
        t[f"F:lp_pool{n}d"] = lp_pool_samples(f"F:lp_pool{n}d", n)
    for n in (2, 3):
        for name in (f"fractional_max_pool{n}d", f"fractional_max_pool{n}d_with_indices"):
            t[f"F:{name}"] = fractional_samples(f"F:{name}", n)


# ------------------------------------------------------------------ 3-d pools
def pool3d_samples(op):
    name = op.split(":")[1]
    is_max = "max" in name

    def gen():
        x = A(rnd(2, 3, 4, 5, 4))
        yield Sample(op, "ordinary", (x, 2), gradgrad=True)
        yield Sample(op, "stride-pad", (x, 3), {"stride": 2, "padding": 1}, gradgrad=True)
        yield Sample(op, "tuple-args", (x, (2, 3, 1)), {"stride": (1, 2, 1),
                                                        "padding": (1, 1, 0)})
        yield Sample(op, "overlap", (A(rnd(1, 2, 4, 4, 5)), 3), {"stride": 1}, gradgrad=True)
        yield Sample(op, "ceil", (A(rnd(1, 2, 5, 5, 5)), 2), {"ceil_mode": True})
        yield Sample(op, "ceil-pad", (A(rnd(1, 2, 6, 5, 6)), 3), {"stride": 2, "padding": 1,
                                                                  "ceil_mode": True})
        yield Sample(op, "unbatched", (A(rnd(3, 4, 4, 4)), 2))
        yield Sample(op, "float64", (A(rnd(1, 2, 4, 4, 4, dtype=np.float64)), 2),
                     gradgrad=True)
        yield Sample(op, "noncontig", (A(rnd(2, 3, 4, 5, 4), layout="T"), 2))
        yield Sample(op, "strided", (A(rnd(2, 3, 4, 5, 4), layout="step"), 2))
        yield Sample(op, "empty-batch", (A(np.zeros((0, 2, 4, 4, 4), np.float32)), 2))
        yield Sample(op, "empty-channels", (A(np.zeros((2, 0, 4, 4, 4), np.float32)), 2))
        yield Sample(op, "empty-unbatched", (A(np.zeros((0, 4, 4, 4), np.float32)), 2))
        ties = np.ones((1, 1, 4, 4, 4), np.float32)
        yield Sample(op, "ties", (A(ties), 2), {"stride": 1})
        special = rnd(1, 1, 4, 4, 4)
        special[0, 0, 0, 0, 1] = special[0, 0, 1, 1, 0] = NAN
        special[0, 0, 3, 3, 3], special[0, 0, 2, 0, 0] = INF, -INF
        yield Sample(op, "nan-inf", (A(special), 2))
        yield Sample(op, "int64", (A(np.arange(-30, 34).reshape(1, 1, 4, 4, 4)), 3),
                     {"stride": 2, "padding": 1})
        yield Sample(op, "int32", (A(np.arange(64, dtype=np.int32).reshape(1, 1, 4, 4, 4)), 2))
        yield Sample(op, "float16", (A(rnd(1, 2, 4, 4, 4, dtype=np.float16)), 2))
        yield Sample(op, "bool", (A(np.ones((1, 1, 2, 2, 2), bool)), 2))
        yield Sample(op, "kernel0", (x, 0))
        yield Sample(op, "kernel-zero-dim", (x, (2, 0, 2)), {"stride": 1})
        yield Sample(op, "stride0", (x, 2, (1, 0, 1)))
        yield Sample(op, "pad-negative", (x, 2), {"padding": -1})
        yield Sample(op, "pad-too-big", (x, 2), {"padding": 2})
        yield Sample(op, "kernel-pair", (x, (2, 2)))
        yield Sample(op, "stride-pair", (x, 2), {"stride": (1, 1)})
        yield Sample(op, "pad-pair", (x, 2), {"padding": (1, 1)})
        yield Sample(op, "stride-empty", (x, 2), {"stride": []})
        yield Sample(op, "too-small", (A(rnd(1, 1, 1, 4, 4)), 2))
        yield Sample(op, "too-small-kernel", (A(rnd(1, 1, 1, 4, 4)), (1, 5, 1)))
        yield Sample(op, "3-d-input", (A(rnd(3, 4, 5)), 2))
        yield Sample(op, "6-d-input", (A(rnd(1, 1, 2, 2, 2, 2)), 2))
        if is_max:
            yield Sample(op, "dilation", (A(rnd(1, 2, 5, 5, 6)), 2),
                         {"dilation": (1, 2, 2), "padding": 1}, gradgrad=True)
            yield Sample(op, "dilation0", (x, 2), {"dilation": 0})
            yield Sample(op, "dilation-pair", (x, 2), {"dilation": (1, 1)})
            if name == "max_pool3d":
                yield Sample(op, "indices", (x, 3), {"stride": 2, "padding": 1,
                                                     "return_indices": True})
        else:
            yield Sample(op, "no-count-pad", (x, 3), {"stride": 2, "padding": 1,
                                                      "count_include_pad": False},
                         gradgrad=True)
            yield Sample(op, "ceil-no-count-pad", (A(rnd(1, 2, 5, 5, 5)), 2),
                         {"padding": 1, "ceil_mode": True, "count_include_pad": False})
            yield Sample(op, "divisor", (x, 3), {"stride": 2, "padding": 1,
                                                 "divisor_override": 5}, gradgrad=True)
            yield Sample(op, "divisor0", (x, 2), {"divisor_override": 0})
            yield Sample(op, "int64-no-count-pad", (A(np.arange(-30, 34).reshape(1, 1, 4, 4, 4)),
                                                    3), {"stride": 2, "padding": 1,
                                                         "count_include_pad": False})
        if op.startswith("F:"):
            yield Sample(op, "node", (x, 2), call=_graph(name, pick=0 if "indices" in name
                                                         else None))
    return gen


def adaptive3d_samples(op):
    name = op.split(":")[1]

    def gen():
        x = A(rnd(2, 3, 5, 4, 6))
        yield Sample(op, "ordinary", (x, (2, 3, 4)), gradgrad=True)
        yield Sample(op, "int-size", (x, 2), gradgrad=True)
        yield Sample(op, "overlapping-bins", (x, (3, 3, 4)))
        yield Sample(op, "larger", (A(rnd(1, 2, 2, 3, 2)), (3, 4, 5)))
        yield Sample(op, "none", (x, (None, 2, None)))
        yield Sample(op, "global", (x, 1))
        yield Sample(op, "unbatched", (A(rnd(3, 5, 4, 6)), (2, 2, 3)))
        yield Sample(op, "float64", (A(rnd(1, 2, 4, 4, 4, dtype=np.float64)), 3),
                     gradgrad=True)
        yield Sample(op, "float16", (A(rnd(1, 2, 4, 4, 4, dtype=np.float16)), 2))
        yield Sample(op, "noncontig", (A(rnd(2, 3, 5, 4, 6), layout="T"), 2))
        yield Sample(op, "empty-batch", (A(np.zeros((0, 2, 4, 4, 4), np.float32)), 2))
        special = rnd(1, 1, 4, 4, 4)
        special[0, 0, 0, 0, 1] = special[0, 0, 1, 1, 0] = NAN
        special[0, 0, 3, 3, 3], special[0, 0, 2, 0, 0] = INF, -INF
        yield Sample(op, "nan-inf", (A(special), 2))
        yield Sample(op, "ties", (A(np.ones((1, 1, 4, 4, 4), np.float32)), 3))
        yield Sample(op, "int64", (A(np.arange(64).reshape(1, 1, 4, 4, 4)), 2))
        yield Sample(op, "bad-size", (x, (2, 3)))
        yield Sample(op, "3-d-input", (A(rnd(3, 4, 5)), 2))
        if "max" in name:
            yield Sample(op, "indices", (x, (2, 3, 4), True))
        if op.startswith("F:"):
            yield Sample(op, "node", (x, 2), call=_graph(name, pick=0 if "indices" in name
                                                         else None))
    return gen


# ------------------------------------------------------------------ unpooling, LP pools
def _pooled(shape, n, kernel=2, dtype=np.float32, **kw):
    """``max_pool{n}d``'s output and indices for a random input, computed by PyTorch's
    algorithm on NumPy (so both libraries get the same arrays)."""
    import torch

    x = torch.tensor(rnd(*shape, dtype=dtype))
    out, idx = getattr(torch.nn.functional, f"max_pool{n}d")(x, kernel, return_indices=True,
                                                             **kw)
    return out.numpy(), idx.numpy()


def unpool_samples(op, n):
    def gen():
        sp = {1: (6,), 2: (4, 6), 3: (4, 4, 6)}[n]
        try:
            out, idx = _pooled((2, 3, *sp), n)
        except ImportError:  # the table is built without torch too (its tests then skip)
            return
        yield Sample(op, "ordinary", (A(out), A(idx, grad=False), 2), gradgrad=True)
        yield Sample(op, "output-size", (A(out), A(idx, grad=False), 2),
                     {"output_size": tuple(s + 1 for s in sp)})
        yield Sample(op, "output-size-full", (A(out), A(idx, grad=False), 2),
                     {"output_size": (2, 3, *sp)})
        yield Sample(op, "bad-output-size", (A(out), A(idx, grad=False), 2),
                     {"output_size": tuple(s + 3 for s in sp)})
        yield Sample(op, "bad-output-size-len", (A(out), A(idx, grad=False), 2),
                     {"output_size": (5,) * (n + 1)})
        o2, i2 = _pooled((2, 3, *(s + 1 for s in sp)), n, 3, stride=2, padding=1)
        yield Sample(op, "stride-pad", (A(o2), A(i2, grad=False), 3, 2, 1),
                     {"output_size": tuple(s + 1 for s in sp)}, gradgrad=True)
        yield Sample(op, "unbatched", (A(out[0]), A(idx[0], grad=False), 2))
        o64, i64 = _pooled((1, 2, *sp), n, dtype=np.float64)
        yield Sample(op, "float64", (A(o64), A(i64, grad=False), 2), gradgrad=True)
        yield Sample(op, "float16", (A(out.astype(np.float16)), A(idx, grad=False), 2))
        # (non-contiguous indices: PyTorch's backward fails to view them)
        yield Sample(op, "noncontig", (A(out, layout="T"), A(idx, grad=False), 2))
        yield Sample(op, "empty-batch", (A(out[:0]), A(idx[:0], grad=False), 2))
        yield Sample(op, "empty-channels", (A(out[:, :0]), A(idx[:, :0], grad=False), 2))
        yield Sample(op, "nan-inf", (A(np.where(out > 0, INF, NAN).astype(np.float32)),
                                     A(idx, grad=False), 2))
        yield Sample(op, "duplicate-index", (A(out), A(np.zeros_like(idx), grad=False), 2))
        # one bad index: PyTorch's threads may meet several in any order
        bad = idx.copy()
        bad.reshape(-1)[5] = 1000
        yield Sample(op, "bad-index", (A(out), A(bad, grad=False), 2))
        bad.reshape(-1)[5] = -3
        yield Sample(op, "negative-index", (A(out), A(bad, grad=False), 2))
        yield Sample(op, "float-index", (A(out), A(idx.astype(np.float32), grad=False), 2))
        yield Sample(op, "int32-index", (A(out), A(idx.astype(np.int32), grad=False), 2))
        yield Sample(op, "bad-index-shape", (A(out), A(idx[:1], grad=False), 2))
        yield Sample(op, "int64-input", (A(idx.copy(), grad=False), A(idx, grad=False), 2))
        yield Sample(op, "low-rank", (A(out[0, 0]), A(idx[0, 0], grad=False), 2))
        yield Sample(op, "node", (A(out), A(idx, grad=False), 2),
                     call=_graph(op.split(":")[1]))
    return gen


def lp_pool_samples(op, n):
    def gen():
        sp = {1: (7,), 2: (4, 6), 3: (4, 4, 5)}[n]
        x = A(np.abs(rnd(2, 3, *sp)) + 0.1)
        yield Sample(op, "ordinary", (x, 2, 2), gradgrad=True)
        yield Sample(op, "p1.5-stride", (x, 1.5, 3), {"stride": 1}, gradgrad=True)
        yield Sample(op, "p3-ceil", (x, 3, 2), {"ceil_mode": True})
        yield Sample(op, "negative-values", (A(rnd(2, 3, *sp)), 2, 2))
        yield Sample(op, "odd-power", (A(rnd(2, 3, *sp)), 3, 2))
        yield Sample(op, "inf", (A(rnd(2, 3, *sp)), float("inf"), 2))
        yield Sample(op, "minus-inf", (A(rnd(2, 3, *sp)), float("-inf"), 2))
        yield Sample(op, "zeros", (A(np.zeros((1, 2, *sp), np.float32)), 2, 2))
        yield Sample(op, "unbatched", (A(np.abs(rnd(3, *sp))), 2, 2))
        yield Sample(op, "float64", (A(np.abs(rnd(1, 2, *sp, dtype=np.float64)) + 0.1), 2, 2),
                     gradgrad=True)
        yield Sample(op, "noncontig", (A(np.abs(rnd(2, 3, *sp)), layout="T"), 2, 2))
        yield Sample(op, "empty-batch", (A(np.zeros((0, 2, *sp), np.float32)), 2, 2))
        if n > 1:
            yield Sample(op, "tuple-kernel", (x, 2, (2,) * (n - 1) + (3,)), {"stride": 1})
        yield Sample(op, "too-small", (A(rnd(1, 1, *(1,) * n)), 2, 2))
        yield Sample(op, "node", (x, 2, 2), call=_graph(op.split(":")[1]))
    return gen


# ------------------------------------------------------------------ fractional max pools
def _seeded_call(name):
    """``F.<name>`` after the same seed in both libraries: the same random windows."""
    def call(lib, *args, **kw):
        lib.manual_seed(5)
        return getattr(lib.nn.functional, name)(*args, **kw)
    return call


def fractional_samples(op, n):
    name = op.split(":")[1]

    def gen():
        sp = {2: (9, 11), 3: (5, 6, 5)}[n]
        out = {2: (4, 6), 3: (2, 3, 3)}[n]
        call = _seeded_call(name)
        x = A(rnd(2, 3, *sp) if n == 2 else rnd(1, 2, *sp))
        yield Sample(op, "ordinary", (x, 2), {"output_size": out}, gradgrad=True, call=call)
        yield Sample(op, "ratio", (x, 2), {"output_ratio": (0.5,) * n}, call=call)
        yield Sample(op, "tuple-kernel", (x, (3,) + (2,) * (n - 1)), {"output_size": 5 - n},
                     call=call)
        yield Sample(op, "indices", (x, 2), {"output_size": out, "return_indices": True},
                     call=call)
        yield Sample(op, "big", (A(rnd(3, 4, *(s * 3 for s in sp))), 3),
                     {"output_size": tuple(o * 2 + 1 for o in out), "return_indices": True},
                     call=call)
        yield Sample(op, "unbatched", (A(rnd(3, *sp)), 2), {"output_size": out}, call=call)
        yield Sample(op, "float64", (A(rnd(1, 2, *sp, dtype=np.float64)), 2),
                     {"output_size": out}, gradgrad=True, call=call)
        yield Sample(op, "float16", (A(rnd(2, 2, *sp, dtype=np.float16)), 2),
                     {"output_size": out, "return_indices": True}, call=call)
        yield Sample(op, "noncontig", (A(rnd(2, 3, *sp), layout="T"), 2),
                     {"output_size": out}, call=call)
        yield Sample(op, "empty-batch", (A(np.zeros((0, 2, *sp), np.float32)), 2),
                     {"output_size": out}, call=call)
        special = rnd(1, 2, *sp)
        special.reshape(-1)[[3, 4, 20]] = NAN
        special.reshape(-1)[[7, 30]] = INF
        special.reshape(-1)[[8, 31]] = -INF
        yield Sample(op, "nan-inf", (A(special), 2), {"output_size": out,
                                                     "return_indices": True}, call=call)
        yield Sample(op, "ties", (A(np.ones((1, 2, *sp), np.float32)), 5 - n),
                     {"output_size": out, "return_indices": True}, call=call)
        c = x.arr.shape[1]
        samples = A(np.linspace(0.05, 0.95, 2 * c * n).reshape(2, c, n).astype(np.float32),
                    grad=False)
        yield Sample(op, "given-samples", (x, 2), {"output_size": out,
                                                   "_random_samples": samples})
        yield Sample(op, "no-size", (x, 2), call=call)
        yield Sample(op, "too-large", (x, 3), {"output_size": sp}, call=call)
        yield Sample(op, "bad-kernel", (x, (2,) * (n + 1)), {"output_size": out}, call=call)
        yield Sample(op, "bad-output-size", (x, 2), {"output_size": (2,) * (n + 1)},
                     call=call)
        yield Sample(op, "empty-channels", (A(np.zeros((2, 0, *sp), np.float32)), 2),
                     {"output_size": out}, call=call)
        yield Sample(op, "low-rank", (A(rnd(*sp)), 2), {"output_size": out}, call=call)
        yield Sample(op, "bad-samples", (x, 2), {"output_size": out, "_random_samples":
                                                 A(rnd(2, c, n + 1), grad=False)})
        yield Sample(op, "few-samples", (A(rnd(2, 3, *sp)), 2), {
            "output_size": out, "_random_samples": A(rnd(1, 3, n), grad=False)})
        yield Sample(op, "samples-channels", (x, 2), {"output_size": out, "_random_samples":
                                                      A(rnd(2, 4, n), grad=False)})
        yield Sample(op, "samples-2-d", (x, 2), {"output_size": out, "_random_samples":
                                                 A(rnd(2, 3), grad=False)})
        yield Sample(op, "samples-float64", (x, 2), {"output_size": out, "_random_samples":
                                                     A(rnd(2, 3, n, dtype=np.float64),
                                                       grad=False)})
        yield Sample(op, "window-at-end", (x, 2), {"output_size": tuple(s - 1 for s in sp)},
                     call=call)
        graph = _graph(name, pick=0 if "indices" in name else None)

        def seeded_graph(lib, *a, **kw):
            lib.manual_seed(5)
            return graph(lib, *a, **kw)

        yield Sample(op, "node", (x, 2), {"output_size": out}, call=seeded_graph)
    return gen
