"""OpInfo samples of ``F.scaled_dot_product_attention``, ``F.rms_norm`` and
``F.multi_head_attention_forward``.

``_opinfo_samples._build_table`` calls :func:`add_samples`; the samples use the same input
families and comparison as every other op (see ``tests/_opinfo_samples.py``): the families as
the query (ordinary, zeros, ties, inf, NaN, empty, layouts, float16, float64, int and bool),
bool and float masks that broadcast, fully masked rows, the causal mask, ``scale`` and
``enable_gqa``, the errors, and samples that compare the name of the node recorded. Dropout
draws random numbers; it is compared with a seed in ``tests/test_nn_attention_parity.py``.
"""

from __future__ import annotations

import numpy as np
from _opinfo_samples import NAN, A, Sample, all_families, f32, rnd


def _node(op):
    """Call ``F.<op>`` and also return the name of the node it records."""
    name = op.split(":")[1]

    def call(lib, *args, **kw):
        out = getattr(lib.nn.functional, name)(*args, **kw)
        return out, out.grad_fn.name() if out.grad_fn is not None else None
    return call


def _kv(q: A, s: int = 5) -> tuple:
    """A key and a value for query ``q``: ``s`` positions, its dtype and leading dims."""
    shape = q.arr.shape[:-2] + (s, q.arr.shape[-1]) if q.arr.ndim >= 2 else q.arr.shape
    return A(rnd(*shape).astype(q.arr.dtype)), A(rnd(*shape).astype(q.arr.dtype))


def sdpa_samples(op):
    def gen():
        for shape in ((2, 3, 4), (2, 2, 3, 4)):
            tag = f"{len(shape)}d-"
            for fam, q in all_families(shape):
                k, v = _kv(q)
                yield Sample(op, tag + fam, (q, k, v), gradgrad=fam in ("ordinary", "float64"))
            q = A(rnd(*shape))
            k, v = _kv(q)
            bool_mask = rnd(3, 5) > 0
            bool_mask[1] = False  # a query that may attend to nothing: zeros, not NaN
            float_mask = np.where(bool_mask, rnd(3, 5), -np.inf).astype(np.float32)
            masks = {"bool-mask": bool_mask, "float-mask": float_mask,
                     "mask-row": rnd(1, 5), "mask-col": rnd(3, 1),
                     "mask-batch": np.broadcast_to(rnd(*shape[:-2], 1, 5), shape[:-2] + (3, 5)),
                     "mask-float64": rnd(3, 5, dtype=np.float64),
                     "mask-int": np.ones((3, 5), np.int64), "mask-bad-shape": rnd(4, 5),
                     "all-masked": np.zeros((3, 5), bool)}
            for fam, m in masks.items():
                yield Sample(op, tag + fam, (q, k, v), {"attn_mask": A(m, grad=False)},
                             gradgrad=fam == "float-mask")
            yield Sample(op, tag + "float64-bool-mask",
                         (A(rnd(*shape, dtype=np.float64)), *_kv(A(rnd(*shape, dtype=np.float64)))),
                         {"attn_mask": A(bool_mask)}, gradgrad=True)
            yield Sample(op, tag + "float16-float-mask",
                         (A(rnd(*shape, dtype=np.float16)), *_kv(A(rnd(*shape, dtype=np.float16)))),
                         {"attn_mask": A(float_mask, grad=False)})
            yield Sample(op, tag + "causal", (q, k, v), {"is_causal": True}, gradgrad=True)
            yield Sample(op, tag + "causal-square", (q, q, q), {"is_causal": True})
            yield Sample(op, tag + "causal-and-mask", (q, k, v),
                         {"is_causal": True, "attn_mask": A(bool_mask)})
            yield Sample(op, tag + "scale", (q, k, v), {"scale": 0.3})
            yield Sample(op, tag + "value-dim", (q, k, A(rnd(*shape[:-2], 5, 6))))
            yield Sample(op, tag + "empty-keys", (q, *_kv(q, 0)))
            yield Sample(op, tag + "key-dim-differs", (q, A(rnd(*shape[:-2], 5, 3)), v))
            yield Sample(op, tag + "dtypes-differ",
                         (q, A(rnd(*shape[:-2], 5, 4, dtype=np.float64)), v))
            yield Sample(op, tag + "int-key", (q, A(np.ones(shape[:-2] + (5, 4), np.int64)), v))
            yield Sample(op, tag + "node", (q, k, v), call=_node(op))
            yield Sample(op, tag + "node-mask", (q, k, v), {"attn_mask": A(bool_mask)},
                         call=_node(op))
            yield Sample(op, tag + "broadcast-batch", (q, A(rnd(1, *shape[1:-2], 5, 4)),
                                                       A(rnd(1, *shape[1:-2], 5, 4))))
        q = A(rnd(2, 4, 3, 4))
        kv = (A(rnd(2, 2, 5, 4)), A(rnd(2, 2, 5, 4)))
        yield Sample(op, "gqa", (q, *kv), {"enable_gqa": True}, gradgrad=True)
        yield Sample(op, "gqa-node", (q, *kv), {"enable_gqa": True}, call=_node(op))
        yield Sample(op, "2d", (A(rnd(3, 4)), A(rnd(5, 4)), A(rnd(5, 4))), gradgrad=True)
        yield Sample(op, "2d-node", (A(rnd(3, 4)), A(rnd(5, 4)), A(rnd(5, 4))), call=_node(op))
        yield Sample(op, "1d", (A(rnd(4)), A(rnd(4)), A(rnd(4))))
        yield Sample(op, "mask-needs-grad", (A(rnd(2, 2, 3, 4)), A(rnd(2, 2, 5, 4)),
                                             A(rnd(2, 2, 5, 4))), {"attn_mask": A(rnd(3, 5))})
        yield Sample(op, "bad-dropout", (q, q, q), {"dropout_p": 1.5})
        yield Sample(op, "query-not-a-tensor", ([1.0], q, q))
        yield Sample(op, "value-not-a-tensor", (q, q, [1.0]))
        yield Sample(op, "mask-not-a-tensor", (q, q, q), {"attn_mask": [1.0]})
        # graph task: no query or no value (zeros tied to the inputs by sum * 0, whatever the
        # other shapes), the fused kernel's conditions (last-dim stride 1, grouped heads) and
        # its result laid out as the query (a later transpose + reshape is then a view)
        for fam, shapes in [("empty-values", ((2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 0))),
                            ("empty-batch", ((0, 3, 4), (0, 5, 4), (0, 5, 4))),
                            ("empty-batch-values", ((0, 3, 4), (1, 5, 4), (0, 5, 4))),
                            ("empty-queries-other-batch", ((2, 0, 4), (3, 5, 4), (3, 5, 4))),
                            ("empty-2d", ((0, 4), (2, 4), (2, 4))),
                            ("no-features", ((2, 3, 0), (2, 5, 0), (2, 5, 4))),
                            ("gqa-3-groups", ((2, 6, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4))),
                            ("gqa-one-kv-head", ((1, 3, 2, 4), (1, 1, 5, 4), (1, 1, 5, 4)))]:
            yield Sample(op, fam, tuple(A(rnd(*sh)) for sh in shapes),
                         {"enable_gqa": True} if fam.startswith("gqa") else {})
        yield Sample(op, "empty-int", (A(np.zeros((2, 0, 4), np.int64)),) * 3)
        yield Sample(op, "empty-bool", (A(np.zeros((2, 0, 4), bool)),) * 3)
        yield Sample(op, "empty-with-mask", (A(rnd(1, 2, 0, 4)), A(rnd(1, 2, 3, 4)),
                                             A(rnd(1, 2, 3, 4))),
                     {"attn_mask": A(rnd(7, 3), grad=False), "dropout_p": 0.5})
        yield Sample(op, "empty-only-values-grad", (A(rnd(2, 0, 4), grad=False),
                                                    A(rnd(2, 3, 4), grad=False), A(rnd(2, 3, 4))))
        q4 = A(rnd(2, 2, 3, 4))
        for fam, args in [("4d-key-transposed", (q4, A(rnd(2, 2, 4, 5), layout="T"), *_kv(q4)[1:])),
                          ("4d-value-transposed", (q4, _kv(q4)[0], A(rnd(2, 2, 4, 5), layout="T"))),
                          ("gqa-noncontig", (A(rnd(2, 4, 4, 3), layout="T"),
                                             A(rnd(2, 2, 5, 4)), A(rnd(2, 2, 5, 4))))]:
            yield Sample(op, fam, args, {"enable_gqa": True} if fam.startswith("gqa") else {})
        yield Sample(op, "mask-transposed", (q4, *_kv(q4)),
                     {"attn_mask": A(rnd(5, 3), layout="T", grad=False)})
        yield Sample(op, "gqa-mask", (A(rnd(2, 4, 3, 4)), A(rnd(2, 2, 5, 4)), A(rnd(2, 2, 5, 4))),
                     {"enable_gqa": True, "attn_mask": A(rnd(3, 5) > 0)})
        yield Sample(op, "gqa-heads-not-divisible", (A(rnd(2, 3, 3, 4)), A(rnd(2, 2, 5, 4)),
                                                     A(rnd(2, 2, 5, 4))), {"enable_gqa": True})
        yield Sample(op, "gqa-values-fewer", (A(rnd(2, 4, 3, 4)), A(rnd(2, 4, 5, 4)),
                                              A(rnd(2, 2, 5, 4))), {"enable_gqa": True})
        yield Sample(op, "gqa-3d", (A(rnd(4, 3, 4)), A(rnd(2, 5, 4)), A(rnd(2, 5, 4))),
                     {"enable_gqa": True})
        yield Sample(op, "gqa-2d", (A(rnd(3, 4)), A(rnd(5, 4)), A(rnd(5, 4))),
                     {"enable_gqa": True})
        yield Sample(op, "query-heads-last", (A(rnd(2, 2, 3, 4)), *_kv(A(rnd(2, 2, 3, 4)))),
                     call=_heads_last)
    return gen


def _heads_last(lib, q, k, v):
    """Attention of a query laid out (batch, length, heads, features), as multi-head attention
    makes it, then its heads merged: a view of PyTorch's fused result, laid out as the query."""
    q = q.transpose(1, 2).contiguous().transpose(1, 2)
    out = lib.nn.functional.scaled_dot_product_attention(q, k, v)
    return out.transpose(1, 2).reshape(out.shape[0], out.shape[2], -1)


def rms_norm_samples(op):
    def gen():
        for fam, a in all_families((3, 4)):
            if fam == "0-d":
                continue
            yield Sample(op, fam, (a, (4,)), gradgrad=fam in ("ordinary", "float64"))
            yield Sample(op, fam + "-weight", (a, (4,), A(rnd(4).astype(a.arr.dtype))),
                         gradgrad=fam == "ordinary")
        x = A(rnd(2, 3, 4))
        for fam, args, kw in (
                ("2-dims", (x, (3, 4), A(rnd(3, 4))), {}), ("all-dims", (x, [2, 3, 4]), {}),
                ("eps", (x, (4,)), {"eps": 0.1}), ("eps-none", (x, (4,)), {"eps": None}),
                ("tiny", (A(f32([[1e-20, -1e-20]])), (2,)), {}),
                ("tiny-eps-0", (A(f32([[1e-20, -1e-20]])), (2,)), {"eps": 0.0}),
                ("float16-float32-weight", (A(rnd(3, 4, dtype=np.float16)), (4,), A(rnd(4))), {}),
                ("float64-float32-weight", (A(rnd(3, 4, dtype=np.float64)), (4,), A(rnd(4))), {}),
                ("no-dims", (x, ()), {}), ("bad-shape", (x, (3,)), {}),
                ("too-many-dims", (A(rnd(4)), (2, 4)), {}), ("int-shape", (x, 4), {}),
                ("bad-weight", (x, (4,), A(rnd(3))), {}),
                ("input-not-a-tensor", ([1.0], (1,)), {}),
                ("weight-not-a-tensor", (x, (4,), [1.0] * 4), {}),
                ("nan", (A(f32([[NAN, 1.0]])), (2,)), {}),
                ("node", (x, (4,), A(rnd(4))), {"call": _node(op)}),
                ("node-float16", (A(rnd(3, 4, dtype=np.float16)), (4,)), {"call": _node(op)})):
            call = kw.pop("call", None)
            yield Sample(op, fam, args, kw, call=call, gradgrad=fam == "2-dims")
    return gen


def _mha_args(e=4, heads=2, kdim=None, batched=True):
    """query (3 positions), key and value (5) of a batch of 2 (sequence first) and the weights
    of a multi-head attention; its second derivatives are compared in float64 (in float32, the
    key bias's, zero in exact arithmetic, is rounding noise)."""
    kd = kdim or e
    batch = (2,) if batched else ()
    q, k, v = A(rnd(3, *batch, e)), A(rnd(5, *batch, kd)), A(rnd(5, *batch, kd))
    return [q, k, v, e, heads, A(rnd(3 * e, e)), A(rnd(3 * e)), None, None, False, 0.0,
            A(rnd(e, e)), A(rnd(e))]


def mha_samples(op):
    def gen():
        yield Sample(op, "ordinary", tuple(_mha_args()))
        yield Sample(op, "no-weights", tuple(_mha_args()), {"need_weights": False})
        yield Sample(op, "per-head-weights", tuple(_mha_args()), {"average_attn_weights": False})
        args = _mha_args()
        args[1] = args[2] = args[0]  # self-attention: one projection
        yield Sample(op, "self", tuple(args))
        yield Sample(op, "self-no-weights", tuple(args), {"need_weights": False})
        args = _mha_args()
        args[2] = args[1]  # key is value: two projections
        yield Sample(op, "kv-same", tuple(args))
        pad = np.zeros((2, 5), bool)
        pad[0, 3:] = True
        bool_mask = rnd(3, 5) > 0
        float_mask = rnd(2 * 2, 3, 5)
        for fam, kw in (("padding", {"key_padding_mask": A(pad)}),
                        ("attn-mask-2d", {"attn_mask": A(bool_mask)}),
                        ("attn-mask-3d", {"attn_mask": A(float_mask, grad=False)}),
                        ("both-masks", {"attn_mask": A(bool_mask), "key_padding_mask": A(pad)}),
                        ("mixed-masks", {"attn_mask": A(float_mask[0], grad=False),
                                         "key_padding_mask": A(pad)}),
                        ("causal-no-mask", {"is_causal": True}),
                        ("int-mask", {"attn_mask": A(np.ones((3, 5), np.int64))}),
                        ("bad-2d-mask", {"attn_mask": A(rnd(3, 4), grad=False)}),
                        ("bad-3d-mask", {"attn_mask": A(rnd(3, 3, 5), grad=False)}),
                        ("bad-padding", {"key_padding_mask": A(np.zeros((2, 4), bool))})):
            for need in (True, False):
                yield Sample(op, f"{fam}-{need}", tuple(_mha_args()),
                             dict(kw, need_weights=need))
        args = _mha_args()
        args[7], args[8], args[9] = A(rnd(1, 1, 4)), A(rnd(1, 1, 4)), True  # bias_kv, zero attn
        yield Sample(op, "bias-kv-zero-attn", tuple(args), {"key_padding_mask": A(pad),
                                                            "attn_mask": A(bool_mask)})
        args = _mha_args(kdim=3)
        args[5] = None
        yield Sample(op, "separate", tuple(args), {
            "use_separate_proj_weight": True, "q_proj_weight": A(rnd(4, 4)),
            "k_proj_weight": A(rnd(4, 3)), "v_proj_weight": A(rnd(4, 3))})
        yield Sample(op, "separate-missing", tuple(args), {"use_separate_proj_weight": True})
        yield Sample(op, "unbatched", tuple(_mha_args(batched=False)))
        yield Sample(op, "unbatched-no-weights", tuple(_mha_args(batched=False)),
                     {"need_weights": False, "key_padding_mask": A(pad[0])})
        yield Sample(op, "no-bias", tuple(_mha_args()[:6] + [None] + _mha_args()[7:12] + [None]))
        for fam, i, value in (("embed-dim", 3, 5), ("heads", 4, 3),
                              ("4-d", 0, A(rnd(1, 3, 2, 4))), ("key-2d", 1, A(rnd(5, 4)))):
            args = _mha_args()
            args[i] = value
            yield Sample(op, "bad-" + fam, tuple(args))
        for need in (True, False):
            yield Sample(op, f"float64-{need}", tuple(
                A(a.arr.astype(np.float64)) if isinstance(a, A) else a for a in _mha_args()),
                {"need_weights": need}, gradgrad=True)
    return gen


def add_samples(t: dict) -> None:
    t["F:scaled_dot_product_attention"] = sdpa_samples("F:scaled_dot_product_attention")
    t["F:rms_norm"] = rms_norm_samples("F:rms_norm")
    t["F:multi_head_attention_forward"] = mha_samples("F:multi_head_attention_forward")
