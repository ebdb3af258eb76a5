"""OpInfo samples of the ``torch.*`` names of the nn functions (``torch.dropout``,
``torch.layer_norm``, ``torch.kl_div``, ``torch.pdist``, ...), of ``F.channel_shuffle``,
``F.native_channel_shuffle`` and ``F.pdist``, and of ``Tensor.prelu`` / ``Tensor.hardshrink``.

``_opinfo_samples._build_table`` calls :func:`add_samples`. Most samples are those of the
``nn.functional`` function, carried over: a ``torch.X`` that *is* ``F.X`` in PyTorch gets
F.X's samples as they are; one with another signature gets them translated (the arguments
bound to F's signature, then passed in the kernel's order, ``reduction`` as an int). On top:
each name's own checks, its ``TypeError`` for a missing or unknown argument, the integer
reductions, the default reduction (none: PyTorch's binding reads ``reduction=Mean`` as 0),
the graph's node names, and the random ones seeded (their numbers are PyTorch's, bit for bit).
"""

from __future__ import annotations

import inspect

import numpy as np
from _opinfo_samples import INF, NAN, A, Sample, all_families, f32, float_families, rnd

# torch.X is nn.functional.X in PyTorch (and in minitorch): F's samples, as they are
SAME_AS_F = ["adaptive_avg_pool1d", "avg_pool1d", "bilinear", "celu_", "conv1d", "conv2d",
             "conv_transpose2d", "cosine_similarity", "hardshrink", "pairwise_distance",
             "pixel_shuffle", "pixel_unshuffle", "prelu", "rms_norm", "rrelu_", "selu_",
             "threshold_"]
_R = {"none": 0, "mean": 1, "sum": 2}


def _plain(b, *names):
    return tuple(b[n] for n in names), {}


def _loss(*names, extra=None):
    """A loss's translation: its legacy arguments must be unused and ``reduction`` one of
    PyTorch's three (then as an int, at the end of ``names``' arguments)."""
    def tr(b):
        if b.get("size_average") is not None or b.get("reduce") is not None \
                or b["reduction"] not in _R:
            return None
        args = tuple(b[n] for n in names) + (_R[b["reduction"]],)
        return args, {k: b[k] for k in (extra or ())}
    return tr


def _not_inplace(*names):
    def tr(b):
        return None if b.get("inplace") else _plain(b, *names)
    return tr


def _stride(b):
    return [] if b["stride"] is None else b["stride"]


# name: (the F function whose samples are translated, the translation: F's bound arguments ->
# (args, kwargs) of torch.name, or None to leave the sample out)
TRANSLATED = {
    "celu": ("celu", _not_inplace("input", "alpha")),
    "selu": ("selu", _not_inplace("input")),
    "threshold": ("threshold", _not_inplace("input", "threshold", "value")),
    "adaptive_max_pool1d": ("adaptive_max_pool1d", lambda b: _plain(b, "input", "output_size")),
    "max_pool1d": ("max_pool1d", lambda b: None if b["return_indices"] else (
        (b["input"], b["kernel_size"], _stride(b), b["padding"], b["dilation"],
         b["ceil_mode"]), {})),
    "max_pool1d_with_indices": ("max_pool1d_with_indices", lambda b: (
        (b["input"], b["kernel_size"], _stride(b), b["padding"], b["dilation"],
         b["ceil_mode"]), {})),
    "max_pool2d": ("max_pool2d", lambda b: None if b["return_indices"] else (
        (b["input"], b["kernel_size"], _stride(b), b["padding"], b["dilation"],
         b["ceil_mode"]), {})),
    "layer_norm": ("layer_norm", lambda b: _plain(b, "input", "normalized_shape", "weight",
                                                  "bias", "eps")),
    "group_norm": ("group_norm", lambda b: _plain(b, "input", "num_groups", "weight", "bias",
                                                  "eps")),
    "batch_norm": ("batch_norm", lambda b: None if not b["training"] and (
        b["running_mean"] is None) else (
        (b["input"], b["weight"], b["bias"], b["running_mean"], b["running_var"],
         b["training"], b["momentum"], b["eps"], True), {})),
    "instance_norm": ("instance_norm", lambda b: (
        (b["input"], b["weight"], b["bias"], b["running_mean"], b["running_var"],
         b["use_input_stats"], b["momentum"], b["eps"], True), {})),
    "embedding": ("embedding", lambda b: None if b["max_norm"] is not None else (
        (b["weight"], b["input"], -1 if b["padding_idx"] is None else b["padding_idx"]), {})),
    "binary_cross_entropy_with_logits": ("binary_cross_entropy_with_logits", _loss(
        "input", "target", "weight", "pos_weight")),
    "cosine_embedding_loss": ("cosine_embedding_loss", _loss("input1", "input2", "target",
                                                             "margin")),
    "ctc_loss": ("ctc_loss", lambda b: None if b["reduction"] not in _R else (
        (b["log_probs"], b["targets"], b["input_lengths"], b["target_lengths"], b["blank"],
         _R[b["reduction"]], b["zero_infinity"]), {})),
    "hinge_embedding_loss": ("hinge_embedding_loss", _loss("input", "target", "margin")),
    "kl_div": ("kl_div", _loss("input", "target", extra=("log_target",))),
    "margin_ranking_loss": ("margin_ranking_loss", _loss("input1", "input2", "target",
                                                         "margin")),
    "poisson_nll_loss": ("poisson_nll_loss", _loss("input", "target", "log_input", "full",
                                                   "eps")),
    "triplet_margin_loss": ("triplet_margin_loss", _loss("anchor", "positive", "negative",
                                                         "margin", "p", "eps", "swap")),
}


def _carried(t, key, op, translate=None):
    """The samples of ``key`` (an ``F:`` entry) that make their call from ``op``, as ``op``'s
    (translated to its signature, when ``translate`` is given)."""
    import minitorch

    name = key.split(":")[1]
    sig = inspect.signature(getattr(minitorch.nn.functional, name))

    def gen():
        for s in t[key]():
            if s.call is not None:
                continue
            args, kwargs = s.args, s.kwargs
            if translate is not None:
                try:
                    bound = sig.bind(*args, **kwargs)
                except TypeError:
                    continue
                bound.apply_defaults()
                got = translate(bound.arguments)
                if got is None:
                    continue
                args, kwargs = got
            yield Sample(op, s.family, args, kwargs, gradgrad=s.gradgrad, msg=s.msg)
    return gen


def _chain(*gens):
    def gen():
        for g in gens:
            yield from g()
    return gen


# ------------------------------------------------------------------ calls
def _names(node) -> list:
    """The names of ``node`` and of every node that feeds it, depth first."""
    if node is None:
        return [None]
    return [node.name()] + [n for child, _ in node.next_functions for n in _names(child)]


def _graph(name):
    """``torch.name(...)`` and the names of the nodes of the graph it records."""
    def call(lib, *args, **kw):
        out = getattr(lib, name)(*args, **kw)
        first = out[0] if isinstance(out, tuple) else out
        return out, _names(first.grad_fn)
    return call


def _seeded(name, inplace=False):
    """``torch.name(...)`` after ``manual_seed(7)``, and two numbers drawn after it (the same
    numbers drawn: the same state after)."""
    def call(lib, x, *args, **kw):
        lib.manual_seed(7)
        if inplace:
            x = x * 1.0 if x.requires_grad else x.clone()
        out = getattr(lib, name)(x, *args, **kw)
        after = lib.rand(2).tolist()
        return (out, out is x, after) if inplace else (out, after)
    return call


def _inplace(name):
    """``torch.name_`` of a copy (a leaf cannot be changed in place): the result, whether it
    is the input, and its node."""
    def call(lib, x, *args, **kw):
        x = x * 1.0 if x.requires_grad else x.clone()
        out = getattr(lib, name)(x, *args, **kw)
        return out, out is x, _names(out.grad_fn)
    return call


def _generator(name):
    def call(lib, x, *args):
        gen = lib.Generator().manual_seed(3)
        return getattr(lib, name)(x, *args, generator=gen), lib.rand(1).tolist()
    return call


def _is_input(name):
    def call(lib, x, *args):
        return getattr(lib, name)(x, *args) is x
    return call


# ------------------------------------------------------------------ samples of each name
def common_samples(op, n_args):
    """A call with one argument too many, and one with an unknown keyword: TypeErrors."""
    def gen():
        x = A(rnd(2, 3, 4))
        yield Sample(op, "too-many-args", (x,) + (0,) * (n_args + 5), msg=0)
        yield Sample(op, "unknown-keyword", (x,), {"no_such_argument": 1}, msg=0)
    return gen


def dropout_samples(op):
    name = op.split(":")[1]
    inplace = name.endswith("_")
    feature = "feature" in name
    call = _seeded(name, inplace)

    def gen():
        shape = (2, 3, 4)
        for fam, a in all_families(shape):
            if feature and a.arr.ndim < 2:
                continue
            yield Sample(op, fam, (a, 0.5, True), gradgrad=fam in ("ordinary", "float64"),
                         call=call)
        x = A(rnd(*shape))
        for p in (0.1, 0.7, 0.0, 1.0):
            yield Sample(op, f"p{p}", (x, p, True), call=call)
            yield Sample(op, f"p{p}-float16", (A(rnd(*shape, dtype=np.float16)), p, True),
                         call=call)
        yield Sample(op, "noncontig-4d", (A(rnd(2, 3, 4, 5), layout="T"), 0.3, True), call=call)
        yield Sample(op, "eval-is-input", (x, 0.5, False), call=_is_input(name))
        yield Sample(op, "keywords", (x,), {"p": 0.4, "train": True}, call=call)
        yield Sample(op, "training-keyword", (x,), {"p": 0.4, "training": True}, call=call,
                     msg=0)
        yield Sample(op, "missing-train", (x, 0.5), call=call, msg=0)
        yield Sample(op, "missing-p", (x,), call=call, msg=0)
        yield Sample(op, "too-many", (x, 0.5, True, True), call=call, msg=0)
        for p in (1.5, -0.1):
            for train in (True, False):
                yield Sample(op, f"bad-p{p}-train{train}", (x, p, train), call=call)
        yield Sample(op, "1-d", (A(rnd(5)), 0.5, True), call=call)
        yield Sample(op, "0-d", (A(f32(0.7)), 0.5, True), call=call)
        yield Sample(op, "int", (A(np.arange(6)), 0.5, True), call=call)
        if inplace:
            yield Sample(op, "leaf", (A(rnd(3, 4)), 0.5, True))
        else:
            yield Sample(op, "node", (x, 0.5, True), call=_graph(name))
    return gen


def rrelu_samples(op):
    name = op.split(":")[1]
    inplace = name.endswith("_")
    call = _seeded(name, inplace)

    def gen():
        for training in (True, False):
            for fam, a in all_families():
                yield Sample(op, f"{fam}-training{training}", (a, 0.1, 0.3, training),
                             gradgrad=fam in ("ordinary", "float64"), call=call)
        x = A(rnd(3, 4))
        yield Sample(op, "defaults", (x,), call=call)
        yield Sample(op, "keywords", (x,), {"lower": 0.2, "upper": 0.4, "training": True},
                     call=call)
        yield Sample(op, "generator", (A(rnd(3, 4), grad=False), 0.1, 0.3, True),
                     call=_generator(name))
        yield Sample(op, "bad-bounds", (x, 0.3, 0.1, True), call=call)
        yield Sample(op, "inplace-keyword", (x,), {"inplace": True}, call=call, msg=0)
        yield Sample(op, "not-a-tensor", (1.5,))
        if not inplace:
            yield Sample(op, "node", (x, 0.1, 0.3, True), call=_graph(name))
    return gen


def activation_families_samples(op):
    """``celu``, ``selu``, ``threshold`` and their in-place forms on every family."""
    name = op.split(":")[1]
    args = {"celu": (0.7,), "selu": (), "threshold": (0.1, -2.0)}[name.rstrip("_")]
    call = _inplace(name) if name.endswith("_") else None

    def gen():
        for fam, a in all_families():
            yield Sample(op, fam, (a,) + args, gradgrad=fam in ("ordinary", "float64"),
                         call=call)
        yield Sample(op, "kinks", (A(f32([-1.0, -0.0, 0.0, 0.1, 1.0, NAN, INF, -INF])),) + args,
                     call=call)
        if name.endswith("_"):
            yield Sample(op, "leaf", (A(rnd(3, 4)),) + args)
    return gen


def activation_extra_samples(op):
    """The calls ``nn.functional``'s version allows and ``torch.*``'s does not (``inplace``),
    the keywords, the nodes."""
    name = op.split(":")[1]

    def gen():
        x = A(rnd(3, 4))
        if name == "celu":
            yield Sample(op, "inplace-arg", (x, 1.0, True), msg=0)
            yield Sample(op, "keywords", (), {"input": x, "alpha": 0.5})
            yield Sample(op, "node", (x, 2.0), call=_graph(name))
        if name == "selu":
            yield Sample(op, "inplace-arg", (x, True), msg=0)
            yield Sample(op, "node", (x,), call=_graph(name))
        if name == "threshold":
            yield Sample(op, "missing-value", (x, 0.1), msg=0)
            yield Sample(op, "inplace-arg", (x, 0.1, 2.0, True), msg=0)
            yield Sample(op, "keywords", (), {"input": x, "threshold": 0.1, "value": 2.0})
            yield Sample(op, "node", (x, 0.1, 2.0), call=_graph(name))
    return gen


def pool_extra_samples(op):
    name = op.split(":")[1]

    def gen():
        x = A(rnd(2, 3, 8))
        x4 = A(rnd(2, 3, 6, 6))
        if name == "adaptive_max_pool1d":
            yield Sample(op, "tuple", (x, 3), call=lambda lib, *a: type(getattr(lib, name)(
                *a)).__name__)
            yield Sample(op, "node", (x, 3), call=_graph(name))
            yield Sample(op, "return-indices", (x, 3, True), msg=0)
        elif name == "max_pool2d":
            yield Sample(op, "default-stride", (x4, 2))
            yield Sample(op, "empty-stride", (x4, 2, []))
            yield Sample(op, "none-stride", (x4, 2, None))
            yield Sample(op, "keywords", (x4,), {"kernel_size": 3, "stride": 2, "padding": 1,
                                                 "dilation": 1, "ceil_mode": True})
            yield Sample(op, "return-indices", (x4, 2), {"return_indices": True}, msg=0)
            yield Sample(op, "node", (x4, 2), call=_graph(name))
        else:
            yield Sample(op, "default-stride", (x, 2))
            yield Sample(op, "empty-stride", (x, 3, []))
            yield Sample(op, "none-stride", (x, 3, None))
            yield Sample(op, "node", (x, 2), call=_graph(name))
            if name == "max_pool1d_with_indices":
                yield Sample(op, "tuple", (x, 3), call=lambda lib, *a: type(getattr(lib, name)(
                    *a)).__name__)
            if name != "avg_pool1d":
                yield Sample(op, "return-indices", (x, 2), {"return_indices": True}, msg=0)
    return gen


def norm_extra_samples(op):
    name = op.split(":")[1]

    def gen():
        x = A(rnd(2, 3, 4))
        w, b = A(rnd(3) + 1), A(rnd(3))
        mean, var = A(rnd(3), grad=False), A(np.abs(rnd(3)) + 0.5, grad=False)
        if name == "batch_norm":
            for training in (True, False):
                yield Sample(op, f"all-training{training}", (x, w, b, mean, var, training, 0.1,
                                                             1e-5, True), gradgrad=True)
                yield Sample(op, f"one-per-channel-training{training}",
                             (A(rnd(1, 3, 1)), w, b, mean, var, training, 0.1, 1e-5, True))
            yield Sample(op, "eval-no-mean", (x, None, None, None, var, False, 0.1, 1e-5, True))
            yield Sample(op, "eval-no-var", (x, None, None, mean, None, False, 0.1, 1e-5, True))
            yield Sample(op, "training-no-stats", (x, None, None, None, None, True, 0.1, 1e-5,
                                                   True))
            yield Sample(op, "running-stats-updated", (x, w, b, mean, var),
                         call=_running_stats("batch_norm"))
            yield Sample(op, "missing-args", (x, w, b, mean, var, True), msg=0)
            yield Sample(op, "node", (x, w, b, mean, var, True, 0.1, 1e-5, True),
                         call=_graph(name))
        elif name == "instance_norm":
            yield Sample(op, "all", (x, w, b, mean, var, True, 0.1, 1e-5, True))
            yield Sample(op, "running-stats-eval", (x, w, b, mean, var, False, 0.1, 1e-5, True))
            yield Sample(op, "eval-no-stats", (x, w, b, None, None, False, 0.1, 1e-5, True))
            yield Sample(op, "running-stats-updated", (x, w, b, mean, var),
                         call=_running_stats("instance_norm"))
            yield Sample(op, "missing-args", (x, w, b), msg=0)
            yield Sample(op, "node", (x, w, b, None, None, True, 0.1, 1e-5, True),
                         call=_graph(name))
        elif name == "layer_norm":
            yield Sample(op, "cudnn", (x, [4], A(rnd(4)), A(rnd(4)), 1e-3, False))
            yield Sample(op, "keywords", (x,), {"normalized_shape": (3, 4), "eps": 0.1,
                                                "cudnn_enable": True})
            yield Sample(op, "int-shape", (x, 4))
            yield Sample(op, "node", (x, [4]), call=_graph(name))
        elif name == "group_norm":
            yield Sample(op, "cudnn", (A(rnd(2, 4, 3)), 2, A(rnd(4)), A(rnd(4)), 1e-3, False))
            yield Sample(op, "keywords", (A(rnd(2, 4, 3)),), {"num_groups": 4,
                                                              "cudnn_enabled": True})
            yield Sample(op, "node", (A(rnd(2, 4, 3)), 2), call=_graph(name))
    return gen


def _running_stats(name):
    def call(lib, x, w, b, mean, var):
        mean, var = mean.clone(), var.clone()
        out = getattr(lib, name)(x, w, b, mean, var, True, 0.3, 1e-5, True)
        return out, mean, var
    return call


def loss_extra_samples(op):
    """Every integer reduction (and numbers that are none), the default, the TypeError for
    a string, and the nodes."""
    name = op.split(":")[1]

    def gen():
        x, y = A(rnd(3, 4)), A(rnd(3, 4))
        sign = A(np.sign(rnd(3, 4)) + (rnd(3, 4) == 0), grad=False)
        inputs = {
            "binary_cross_entropy_with_logits": (x, A(rnd(3, 4, low=0) / 2), None, None),
            "cosine_embedding_loss": (x, y, A(f32([1, -1, 1]), grad=False), 0.1),
            "hinge_embedding_loss": (x, sign, 0.5),
            "kl_div": (x, A(rnd(3, 4, low=0) / 2)),
            "margin_ranking_loss": (x, y, sign, 0.2),
            "poisson_nll_loss": (x, A(rnd(3, 4, low=0)), True, True, 1e-8),
            "triplet_margin_loss": (x, y, A(rnd(3, 4)), 1.0, 2.0, 1e-6, True),
            "ctc_loss": (A(_log_probs()), A(np.array([[1, 2], [1, 1]]), grad=False),
                          [5, 4], [2, 2], 0),
        }[name]
        for r in (0, 1, 2, 3, -1):
            yield Sample(op, f"reduction{r}", inputs + (r,), gradgrad=r == 1 and
                         name != "ctc_loss")
            yield Sample(op, f"node-reduction{r}", inputs + (r,), call=_graph(name))
        yield Sample(op, "reduction-keyword", inputs, {"reduction": 2})
        yield Sample(op, "reduction-str", inputs + ("mean",))
        yield Sample(op, "reduction-bool", inputs + (True,))
        yield Sample(op, "reduction-float", inputs + (1.0,))
        if name != "poisson_nll_loss":  # its arguments are all required
            yield Sample(op, "default-reduction", inputs)
            yield Sample(op, "node-default-reduction", inputs, call=_graph(name))
        else:
            yield Sample(op, "missing-args", inputs[:2], msg=0)
        if name == "kl_div":
            yield Sample(op, "log-target", inputs + (1,), {"log_target": True})
            yield Sample(op, "log-target-positional", inputs + (1, True), msg=0)
        if name == "ctc_loss":
            lengths = (A(np.array([5, 4]), grad=False), A(np.array([2, 2]), grad=False))
            yield Sample(op, "tensor-lengths", inputs[:2] + lengths + (0, 2))
            yield Sample(op, "zero-infinity", inputs + (1, True))
    return gen


def _log_probs():
    x = rnd(5, 2, 4)
    return (x - np.log(np.exp(x).sum(-1, keepdims=True))).astype(np.float32)


def conv_samples(op):
    def gen():
        x1, w1 = A(rnd(2, 3, 7)), A(rnd(4, 3, 3))
        x2, w2 = A(rnd(2, 3, 6, 5)), A(rnd(4, 3, 3, 2))
        b = A(rnd(4))
        yield Sample(op, "1d", (x1, w1, b, [1], [0], [1], False, [0], 1), gradgrad=True)
        yield Sample(op, "1d-stride-pad-dilation", (x1, w1, None, [2], [1], [2], False, [0], 1))
        yield Sample(op, "2d", (x2, w2, b, [1, 1], [0, 0], [1, 1], False, [0, 0], 1),
                     gradgrad=True)
        yield Sample(op, "2d-one-value", (x2, w2, b, [2], [1], [1], False, [0], 1))
        yield Sample(op, "2d-tuples", (x2, w2, None, (1, 2), (1, 0), (2, 1), False, (0, 0), 1))
        yield Sample(op, "2d-transposed", (x2, A(rnd(3, 4, 3, 2)), b, [2, 1], [1, 0], [1, 1],
                                           True, [1, 0], 1), gradgrad=True)
        yield Sample(op, "float64", (A(rnd(2, 3, 7, dtype=np.float64)),
                                     A(rnd(4, 3, 3, dtype=np.float64)), None, [1], [0], [1],
                                     False, [0], 1))
        yield Sample(op, "int-stride", (x1, w1, None, 1, [0], [1], False, [0], 1))
        yield Sample(op, "wrong-length", (x1, w1, None, [1, 1], [0], [1], False, [0], 1))
        yield Sample(op, "wrong-rank", (A(rnd(3, 7)), w1, None, [1], [0], [1], False, [0], 1))
        yield Sample(op, "missing-groups", (x1, w1, None, [1], [0], [1], False, [0]), msg=0)
        yield Sample(op, "out", (x1, w1, None, [1], [0], [1], False, [0], 1), {"out": None},
                     msg=0)
        yield Sample(op, "node", (x2, w2, b, [1], [0], [1], False, [0], 1),
                     call=_graph("convolution"))
    return gen


def embedding_samples(op):
    def gen():
        w = A(rnd(5, 3))
        idx = A(np.array([[0, 1, 4], [4, 4, 2]]), grad=False)
        yield Sample(op, "plain", (w, idx), gradgrad=True)
        for pad in (1, -1, -2, 5, -7):
            yield Sample(op, f"padding_idx{pad}", (w, idx, pad))
        yield Sample(op, "keywords", (), {"weight": w, "indices": idx, "padding_idx": 4})
        yield Sample(op, "float64", (A(rnd(5, 3, dtype=np.float64)), idx))
        yield Sample(op, "empty", (w, A(np.zeros((0,), np.int64), grad=False)))
        yield Sample(op, "out-of-range", (w, A(np.array([5]), grad=False)))
        yield Sample(op, "float-indices", (w, A(f32([1.0]), grad=False)))
        yield Sample(op, "node", (w, idx), call=_graph("embedding"))
    return gen


def constant_pad_samples(op):
    def gen():
        for fam, a in all_families((3, 4)):
            yield Sample(op, fam, (a, (1, 2)), gradgrad=fam in ("ordinary", "float64"))
            yield Sample(op, fam + "-value", (a, [2, 0, 1, 1], 1.5))
        x = A(rnd(2, 3, 4))
        yield Sample(op, "crop", (x, (-1, 2)))
        yield Sample(op, "keyword-value", (x, (1, 1)), {"value": -2})
        yield Sample(op, "odd", (x, (1,)))
        yield Sample(op, "too-long", (x, (1,) * 8))
        yield Sample(op, "int-value-int", (A(np.arange(3)), (1, 1), 7))
        yield Sample(op, "node", (x, (1, 2)), call=_graph("constant_pad_nd"))
        yield Sample(op, "node-crop", (x, (-1, -1)), call=_graph("constant_pad_nd"))
    return gen


def channel_shuffle_samples(op):
    native = "native" in op

    def gen():
        for fam, a in all_families((2, 4, 3)):
            if a.arr.ndim < 3:
                continue
            if native:  # the values (its backward raises: see "backward-raises")
                a = A(a.arr, grad=False, layout=a.layout)
            yield Sample(op, fam, (a, 2), gradgrad=not native and fam in ("ordinary",
                                                                          "float64"))
        if native:
            yield Sample(op, "backward-raises", (A(rnd(2, 4, 3)), 2))
        for shape, g in (((1, 6, 1), 3), ((1, 6, 1), 6), ((1, 6, 1), 1), ((2, 6, 2, 3), 2),
                         ((0, 4, 2), 2), ((2, 4, 0), 4), ((1, 8, 2, 2, 2), 4)):
            yield Sample(op, f"shape{shape}-groups{g}", (A(rnd(*shape)), g))
        x = A(rnd(2, 4, 3))
        yield Sample(op, "not-divisible", (x, 3))
        yield Sample(op, "zero-groups", (x, 0))
        yield Sample(op, "negative-groups", (x, -2))
        yield Sample(op, "2-d", (A(rnd(2, 4)), 2))
        yield Sample(op, "1-d", (A(rnd(4)), 2))
        yield Sample(op, "keywords", (), {"input": x, "groups": 2})
        yield Sample(op, "float-groups", (x, 2.0), msg=0)
        call = _graph(op.split(":")[1]) if op.startswith("fn:") else None
        if call is not None:
            yield Sample(op, "node", (x, 2), call=call)
    return gen


def pdist_samples(op):
    def gen():
        for fam, a in float_families((4, 3)):
            if a.arr.ndim != 2:
                continue
            if fam == "empty":  # PyTorch's backward of pdist crashes (SIGSEGV) with no rows
                a = A(a.arr, grad=False)
            yield Sample(op, fam, (a,))
        x = A(rnd(5, 3))
        for p in (0, 0.5, 1, 1.5, 2, 3, INF):
            yield Sample(op, f"p{p}", (x, p))
            yield Sample(op, f"ties-p{p}", (A(f32([[0, 0], [0, 0], [1, 1], [1, 2]])), p))
        yield Sample(op, "float64-p3", (A(rnd(6, 2, dtype=np.float64)), 3.0))
        yield Sample(op, "many-rows", (A(rnd(30, 2)),))
        yield Sample(op, "one-row", (A(rnd(1, 3)),))
        yield Sample(op, "no-rows", (A(rnd(0, 3), grad=False),))
        yield Sample(op, "no-columns", (A(np.zeros((3, 0), np.float32)),))
        yield Sample(op, "nan", (A(f32([[NAN, 1], [0, 0], [1, 1]])),))
        yield Sample(op, "keyword", (x,), {"p": 1.0})
        yield Sample(op, "negative-p", (x, -1.0))
        yield Sample(op, "3-d", (A(rnd(2, 4, 3)),))
        yield Sample(op, "1-d", (A(rnd(4)),))
        yield Sample(op, "int", (A(np.arange(6).reshape(3, 2)),))
        yield Sample(op, "float16", (A(rnd(4, 3, dtype=np.float16)),))
        yield Sample(op, "node", (x,), call=_graph("pdist") if op.startswith("fn:") else
                     lambda lib, x: _names(lib.nn.functional.pdist(x).grad_fn))
        yield Sample(op, "node-noncontig", (A(rnd(4, 3), layout="T"),),
                     call=lambda lib, x: _names(lib.pdist(x).grad_fn))
    return gen


_OWN = {
    "dropout": dropout_samples, "dropout_": dropout_samples, "alpha_dropout": dropout_samples,
    "alpha_dropout_": dropout_samples, "feature_dropout": dropout_samples,
    "feature_dropout_": dropout_samples, "feature_alpha_dropout": dropout_samples,
    "feature_alpha_dropout_": dropout_samples, "rrelu": rrelu_samples,
    "convolution": conv_samples, "embedding": embedding_samples,
    "constant_pad_nd": constant_pad_samples, "channel_shuffle": channel_shuffle_samples,
    "native_channel_shuffle": channel_shuffle_samples, "pdist": pdist_samples,
}
_ARGS = {"celu": 2, "selu": 1, "threshold": 3, "adaptive_max_pool1d": 2, "max_pool1d": 6,
         "max_pool1d_with_indices": 6, "max_pool2d": 6, "avg_pool1d": 6, "layer_norm": 6,
         "group_norm": 6, "batch_norm": 9, "instance_norm": 9, "embedding": 5,
         "binary_cross_entropy_with_logits": 5, "cosine_embedding_loss": 5, "ctc_loss": 7,
         "hinge_embedding_loss": 4, "kl_div": 3, "margin_ranking_loss": 5,
         "poisson_nll_loss": 6, "triplet_margin_loss": 8, "convolution": 9,
         "constant_pad_nd": 3, "pdist": 2, "channel_shuffle": 2, "native_channel_shuffle": 2}


def add_samples(t: dict) -> None:
    import _opinfo_samples

    # out=: only these two of the names take it in PyTorch
    _opinfo_samples._OUT_ARGS["threshold"] = lambda: ((A(rnd(3), grad=False), 0.1, -1.0), (3,))
    _opinfo_samples._OUT_ARGS["hardshrink"] = lambda: ((A(rnd(3), grad=False), 0.3), (3,))
    for name in SAME_AS_F:
        t[f"fn:{name}"] = _carried(t, f"F:{name}", f"fn:{name}")
    t["fn:rrelu_"] = _chain(t["fn:rrelu_"], rrelu_samples("fn:rrelu_"))
    for name in ("celu_", "selu_", "threshold_"):
        t[f"fn:{name}"] = _chain(t[f"fn:{name}"], activation_families_samples(f"fn:{name}"))
    t["fn:avg_pool1d"] = _chain(t["fn:avg_pool1d"], pool_extra_samples("fn:avg_pool1d"))
    for name in ("prelu", "hardshrink"):  # the two Tensor methods among them
        t[f"method:{name}"] = _carried(t, f"F:{name}", f"method:{name}")
    extras = {"celu": activation_extra_samples, "selu": activation_extra_samples,
              "threshold": activation_extra_samples, "layer_norm": norm_extra_samples,
              "group_norm": norm_extra_samples, "batch_norm": norm_extra_samples,
              "instance_norm": norm_extra_samples}
    for name in ("adaptive_max_pool1d", "max_pool1d", "max_pool1d_with_indices", "max_pool2d"):
        extras[name] = pool_extra_samples
    for name in ("binary_cross_entropy_with_logits", "cosine_embedding_loss", "ctc_loss",
                 "hinge_embedding_loss", "kl_div", "margin_ranking_loss", "poisson_nll_loss",
                 "triplet_margin_loss"):
        extras[name] = loss_extra_samples
    for name, (f_name, translate) in TRANSLATED.items():
        op = f"fn:{name}"
        gens = [_carried(t, f"F:{f_name}", op, translate)]
        if name in extras:
            gens.append(extras[name](op))
        if name in ("celu", "selu", "threshold"):
            gens.append(activation_families_samples(op))
        gens.append(common_samples(op, _ARGS.get(name, 3)))
        t[op] = _chain(*gens)
    for name, samples in _OWN.items():
        op = f"fn:{name}"
        t[op] = _chain(samples(op), common_samples(op, _ARGS.get(name, 3)))
    for name in ("channel_shuffle", "native_channel_shuffle", "pdist"):
        t[f"F:{name}"] = _OWN[name](f"F:{name}")
    for name in ("threshold", "hardshrink"):
        t[f"fn:{name}"] = _chain(t[f"fn:{name}"], _opinfo_samples.out_samples(name))
    t["method:hardshrink"] = _chain(t["method:hardshrink"], lambda: iter([Sample(
        "method:hardshrink", "no-out", (A(rnd(3)),), {"out": A(np.zeros(3, np.float32), False,
                                                              "own")}, msg=0)]))


# (sample-id pattern, verdict, reason): as _opinfo_samples.KNOWN_DIFFERENCES (the verdicts
# spelled out: _opinfo_samples imports this module before it defines them)
SILENT, DIFF_MSG = "SILENT", "same-class-different-message"
KNOWN_DIFFERENCES = [
    ("fn:pixel_unshuffle[empty*]", SILENT, "as F:pixel_unshuffle[empty*] (the same function)"),
    ("fn:conv*[mixed-dtype]", DIFF_MSG, "as F:conv*[mixed-dtype] (the same functions)"),
    ("fn:instance_norm[one-position]", SILENT,
     "one value per channel and sample, normalised: x - mean(x) is 0 in minitorch, and "
     "PyTorch's vectorised mean leaves a rounding error of about 1e-7 that the division by "
     "sqrt(eps) makes 1e-5 (F.instance_norm refuses such an input)"),
]


# ------------------------------------------------------------------ the recurrent cells
_GATES = {"rnn_tanh_cell": 1, "rnn_relu_cell": 1, "lstm_cell": 4, "gru_cell": 3}


def _cell_graph(name):
    """The cell's output(s) and the names of the nodes of the graph (the gates split with
    ``unsafe_chunk``, UnsafeSplitBackward0, in both)."""
    def call(lib, *args):
        out = getattr(lib, name)(*args)
        outs = out if isinstance(out, tuple) else (out,)
        return out, [_names(o.grad_fn) for o in outs]
    return call


def cell_samples(op):
    name = op.split(":")[1]
    g = _GATES[name]

    def hidden(a):
        return [a, A(rnd(*a.arr.shape, dtype=a.arr.dtype))] if name == "lstm_cell" else a

    def gen():
        for dtype in (np.float32, np.float64):
            x, h = A(rnd(2, 3, dtype=dtype)), A(rnd(2, 4, dtype=dtype))
            w, u = A(rnd(4 * g, 3, dtype=dtype)), A(rnd(4 * g, 4, dtype=dtype))
            b1, b2 = A(rnd(4 * g, dtype=dtype)), A(rnd(4 * g, dtype=dtype))
            fam = np.dtype(dtype).name
            # (second derivatives in float64: in float32 PyTorch's in-place gates round theirs
            # otherwise)
            yield Sample(op, fam, (x, hidden(h), w, u, b1, b2), gradgrad=dtype == np.float64)
            yield Sample(op, fam + "-no-bias", (x, hidden(h), w, u))
            yield Sample(op, fam + "-one-bias", (x, hidden(h), w, u, None, b2))
            yield Sample(op, fam + "-node", (x, hidden(h), w, u, b1, b2), call=_cell_graph(name))
            yield Sample(op, fam + "-node-one-bias", (x, hidden(h), w, u, b1, None),
                         call=_cell_graph(name))
        x, h, w, u = A(rnd(2, 3)), A(rnd(2, 4)), A(rnd(4 * g, 3)), A(rnd(4 * g, 4))
        yield Sample(op, "keywords", (), {"input": x, "hx": hidden(h), "w_ih": w, "w_hh": u,
                                          "b_ih": A(rnd(4 * g)), "b_hh": A(rnd(4 * g))})
        yield Sample(op, "noncontig", (A(rnd(2, 3), layout="T"), hidden(h),
                                       A(rnd(4 * g, 3), layout="T"), u))
        yield Sample(op, "zeros", (A(np.zeros((2, 3), np.float32)), hidden(A(np.zeros((2, 4),
                                                                                   np.float32))),
                                   w, u))
        yield Sample(op, "inf", (A(f32([[INF, 0, -INF], [1, 2, 3]])), hidden(h), w, u))
        yield Sample(op, "empty-batch", (A(rnd(0, 3)), hidden(A(rnd(0, 4))), w, u))
        yield Sample(op, "unbatched", (A(rnd(3)), hidden(A(rnd(4))), w, u))
        yield Sample(op, "unbatched-hidden", (x, hidden(A(rnd(4))), w, u))
        yield Sample(op, "unbatched-hidden-batch-4", (A(rnd(4, 3)), hidden(A(rnd(4))), w, u))
        yield Sample(op, "0-d-hidden", (x, hidden(A(f32(1.0))), w, u))
        yield Sample(op, "input-size", (A(rnd(2, 5)), hidden(h), w, u))
        yield Sample(op, "hidden-size", (x, hidden(A(rnd(2, 5))), w, u))
        yield Sample(op, "batch", (x, hidden(A(rnd(3, 4))), w, u))
        yield Sample(op, "missing-weights", (x, hidden(h), w), msg=0)
        if name == "lstm_cell":
            yield Sample(op, "hx-tuple", (x, (h, A(rnd(2, 4))), w, u))
            yield Sample(op, "hx-tensor", (x, h, w, u))
            yield Sample(op, "hx-one", (x, [h], w, u))
            yield Sample(op, "c-batch", (x, [h, A(rnd(3, 4))], w, u))
    return gen


def add_cell_samples(t: dict) -> None:
    for name in _GATES:
        op = f"fn:{name}"
        t[op] = _chain(cell_samples(op), common_samples(op, 6))
