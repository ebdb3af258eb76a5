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
        yield Sample(op, "node", (x, w, b), call=_graph(name))
    return gen


def add_samples(t: dict) -> None:
    t["F:conv3d"] = conv3d_samples("F:conv3d")
    t["fn:conv3d"] = conv3d_samples("fn:conv3d")
    for n in (1, 3):
        for style in ("F", "fn"):
            op = f"{style}:conv_transpose{n}d"
            t[op] = conv_transpose_nd_samples(op, n)
