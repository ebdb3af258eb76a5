"""A node's ``_saved_<name>`` attributes: what it saved for backward, as PyTorch shows it.

For the nodes of the common operations, each attribute PyTorch 2.13 has (the
``_sym_strides`` ones aside) must exist in minitorch with the same value and type (a tensor,
a number, a bool or a tuple), and after a backward that freed the graph, an attribute that
reads a saved tensor must raise PyTorch's error where PyTorch's does. Saved inputs are the
input tensors themselves; a saved output is a new tensor on the output's memory whose
``grad_fn`` is the node. None of it is worked out when the node is recorded.
"""

from __future__ import annotations

import numpy as np
import pytest

import minitorch

torch = pytest.importorskip("torch", reason="these tests compare _saved_ attributes with torch")

X = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=np.float32)
W = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]], dtype=np.float32)
M = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
B = np.array([0.1, 0.2, -0.3, 0.4], dtype=np.float32)


def _ops(lib):
    """name -> a function of the leaves (x, w, m, b) giving the tensor whose node is probed
    (or the node itself)."""
    F = lib.nn.functional
    const = lib.tensor(W)
    t = lib.tensor([0, 2])
    return {
        "add": lambda x, w, m, b: x + w,
        "add alpha int": lambda x, w, m, b: lib.add(x, w, alpha=2),
        "add alpha float": lambda x, w, m, b: lib.add(x, w, alpha=2.5),
        "add number": lambda x, w, m, b: x + 2,
        "number add": lambda x, w, m, b: 2 + x,
        "sub": lambda x, w, m, b: x - w,
        "sub alpha": lambda x, w, m, b: lib.sub(x, w, alpha=0.5),
        "sub number": lambda x, w, m, b: x - 2,
        "number sub": lambda x, w, m, b: 2 - x,
        "rsub alpha": lambda x, w, m, b: lib.rsub(x, w, alpha=2),
        "mul": lambda x, w, m, b: x * w,
        "mul by a constant": lambda x, w, m, b: x * const,
        "constant mul": lambda x, w, m, b: const * x,
        "mul int": lambda x, w, m, b: x * 2,
        "mul float": lambda x, w, m, b: x * 2.5,
        "int mul": lambda x, w, m, b: 3 * x,
        "mul float, float64": lambda x, w, m, b: x.double() * 2.5,
        "div": lambda x, w, m, b: x / w,
        "div by a constant": lambda x, w, m, b: x / const,
        "constant div": lambda x, w, m, b: const / x,
        "div int": lambda x, w, m, b: x / 2,
        "div float": lambda x, w, m, b: x / 2.5,
        "int div": lambda x, w, m, b: 2 / x,
        "pow int": lambda x, w, m, b: x ** 2,
        "pow float": lambda x, w, m, b: x ** 2.5,
        "pow negative": lambda x, w, m, b: x ** -1,
        "pow tensor": lambda x, w, m, b: x ** w,
        "int pow": lambda x, w, m, b: 2 ** x,
        "float pow": lambda x, w, m, b: 2.5 ** x,
        "exp": lambda x, w, m, b: x.exp(),
        "log": lambda x, w, m, b: x.log(),
        "sigmoid": lambda x, w, m, b: lib.sigmoid(x),
        "tanh": lambda x, w, m, b: x.tanh(),
        "relu": lambda x, w, m, b: F.relu(x),
        "sqrt": lambda x, w, m, b: x.sqrt(),
        "neg": lambda x, w, m, b: -x,
        "sum": lambda x, w, m, b: x.sum(),
        "sum dim": lambda x, w, m, b: x.sum(1),
        "sum dims": lambda x, w, m, b: x.sum((0, 1)),
        "sum keepdim": lambda x, w, m, b: x.sum(1, keepdim=True),
        "mean": lambda x, w, m, b: x.mean(),
        "mean dim": lambda x, w, m, b: x.mean(0, keepdim=True),
        "mm": lambda x, w, m, b: x.mm(m),
        "mm by a constant": lambda x, w, m, b: x.mm(lib.tensor(M)),
        "constant mm": lambda x, w, m, b: lib.tensor(X).mm(m),
        "matmul": lambda x, w, m, b: x @ m,
        "addmm": lambda x, w, m, b: lib.addmm(b, x, m),
        "addmm beta alpha": lambda x, w, m, b: lib.addmm(b, x, m, beta=2, alpha=0.5),
        "linear": lambda x, w, m, b: F.linear(x, m.t(), b),
        "linear without bias": lambda x, w, m, b: F.linear(x, m.t()),
        "view": lambda x, w, m, b: x.view(3, 2),
        "view -1": lambda x, w, m, b: x.view(-1),
        "reshape": lambda x, w, m, b: x.reshape(6),
        "t": lambda x, w, m, b: x.t(),
        "transpose": lambda x, w, m, b: x.transpose(0, 1),
        "softmax": lambda x, w, m, b: x.softmax(1),
        "log_softmax": lambda x, w, m, b: F.log_softmax(x, dim=0),
        "cross_entropy": lambda x, w, m, b: F.cross_entropy(x, t),
        "cross_entropy's log_softmax": lambda x, w, m, b: F.cross_entropy(x, t),
        "nll_loss": lambda x, w, m, b: F.nll_loss(x, t),
        "nll_loss weight, sum": lambda x, w, m, b: F.nll_loss(
            x, t, weight=lib.tensor([1.0, 2.0, 3.0]), ignore_index=1, reduction="sum"),
        "nll_loss none": lambda x, w, m, b: F.nll_loss(x, t, reduction="none"),
        "nll_loss all ignored": lambda x, w, m, b: F.nll_loss(x, t, ignore_index=0),
        "mse_loss": lambda x, w, m, b: F.mse_loss(x, w),
        "mse_loss sum": lambda x, w, m, b: F.mse_loss(x, w, reduction="sum"),
        "mse_loss none": lambda x, w, m, b: F.mse_loss(x, const, reduction="none"),
        # dims as called: a negative one shows as its int64 read unsigned (-1: 2**64 - 1),
        # several in the order given
        "sum -1": lambda x, w, m, b: x.sum(-1),
        "sum dims in their order": lambda x, w, m, b: x.sum((1, 0)),
        "sum negative dims": lambda x, w, m, b: x.sum([-1, 0]),
        "sum None keepdim": lambda x, w, m, b: x.sum(None, keepdim=True),
        "sum no dims": lambda x, w, m, b: x.sum([]),
        "sum -1 of a 0-d tensor": lambda x, w, m, b: x[0, 0].sum(-1),
        "mean -1 keepdim": lambda x, w, m, b: x.mean(-1, keepdim=True),
        "mean dims in their order": lambda x, w, m, b: x.mean((1, -2)),
        "mean None keepdim": lambda x, w, m, b: x.mean(None, True),
        "softmax -1": lambda x, w, m, b: x.softmax(-1),
        "log_softmax -2": lambda x, w, m, b: F.log_softmax(x, dim=-2),
        "transpose -1 0": lambda x, w, m, b: x.transpose(-1, 0),
        "transpose 1 -2": lambda x, w, m, b: x.transpose(1, -2),
        "swapaxes -1 -2": lambda x, w, m, b: x.swapaxes(-1, -2),
        # a bool number is saved as a bool tensor
        "mul True": lambda x, w, m, b: x * True,
        "False mul": lambda x, w, m, b: False * x,
        "mul True, float64": lambda x, w, m, b: lib.mul(x.double(), True),
        "div True": lambda x, w, m, b: x / True,
        # nll_loss of images (and of (N, C, d) scores, viewed as (N, C, 1, d))
        "nll_loss 2d": lambda x, w, m, b: F.nll_loss(x.reshape(1, 2, 3, 1),
                                                     lib.tensor([[[0], [1], [1]]])),
        "nll_loss 2d weight, sum": lambda x, w, m, b: F.nll_loss(
            x.reshape(1, 2, 1, 3), lib.tensor([[[0, 1, 1]]]), weight=lib.tensor([1.0, 2.0]),
            ignore_index=0, reduction="sum"),
        "nll_loss 3d": lambda x, w, m, b: F.nll_loss(x.reshape(1, 2, 3), lib.tensor([[0, 1, 1]])),
        "nll_loss 3d none's nll_loss2d": lambda x, w, m, b: F.nll_loss(
            x.reshape(1, 2, 3), lib.tensor([[0, 1, -100]]), reduction="none"),
        "cross_entropy 3d": lambda x, w, m, b: F.cross_entropy(x.reshape(1, 2, 3),
                                                               lib.tensor([[0, 1, 1]])),
        # convolutions (input and weight saved both, as PyTorch does)
        "conv2d": lambda x, w, m, b: F.conv2d(x.reshape(1, 1, 2, 3), w.reshape(2, 1, 1, 3),
                                              b[:2], padding=(0, 1)),
        "conv2d stride, dilation": lambda x, w, m, b: F.conv2d(
            x.reshape(1, 2, 3, 1), m.reshape(3, 2, 2, 1), stride=(2, 1), padding=1,
            dilation=(2, 1)),
        "conv2d groups": lambda x, w, m, b: F.conv2d(x.reshape(1, 2, 3, 1),
                                                     w.reshape(2, 1, 3, 1), groups=2,
                                                     padding=(1, 0)),
        "conv2d by a constant": lambda x, w, m, b: F.conv2d(x.reshape(1, 1, 2, 3),
                                                            const.reshape(2, 1, 1, 3)),
        "constant conv2d": lambda x, w, m, b: F.conv2d(const.reshape(1, 1, 2, 3),
                                                       w.reshape(2, 1, 1, 3)),
        "conv2d unbatched's conv": lambda x, w, m, b: F.conv2d(x.reshape(1, 2, 3),
                                                               w.reshape(2, 1, 1, 3)),
        "conv1d": lambda x, w, m, b: F.conv1d(x.reshape(1, 2, 3), w.reshape(1, 2, 3),
                                              stride=2, padding=1),
        "conv1d bias, dilation": lambda x, w, m, b: F.conv1d(
            x.reshape(1, 2, 3), m.reshape(2, 2, 3), b[:2], padding=2, dilation=2),
        "conv1d groups": lambda x, w, m, b: F.conv1d(x.reshape(1, 2, 3), w.reshape(2, 1, 3),
                                                     b[:2], groups=2),
        "conv3d": lambda x, w, m, b: F.conv3d(x.reshape(1, 1, 2, 3, 1),
                                              w.reshape(2, 1, 1, 3, 1), padding=(0, 1, 0)),
        "conv_transpose2d": lambda x, w, m, b: F.conv_transpose2d(
            x.reshape(1, 2, 3, 1), w.reshape(2, 3, 1, 1), b[:3], stride=2, output_padding=1),
        "conv_transpose2d groups": lambda x, w, m, b: F.conv_transpose2d(
            x.reshape(1, 2, 3, 1), w.reshape(2, 1, 3, 1), groups=2, stride=(1, 2),
            padding=(1, 0), output_padding=(0, 1)),
        "conv_transpose1d": lambda x, w, m, b: F.conv_transpose1d(
            x.reshape(1, 2, 3), w.reshape(2, 1, 3), stride=2, padding=1, output_padding=1),
        # normalizations and lookups
        "batch_norm": lambda x, w, m, b: F.batch_norm(x, lib.zeros(3), lib.ones(3), b[:3],
                                                      b[1:], training=True),
        "batch_norm eval": lambda x, w, m, b: F.batch_norm(x, lib.zeros(3), lib.ones(3),
                                                           b[:3], b[1:], eps=0.1),
        "batch_norm without statistics": lambda x, w, m, b: F.batch_norm(
            x.reshape(1, 2, 3), None, None, training=True, eps=1e-3),
        "batch_norm float64": lambda x, w, m, b: F.batch_norm(x.double(), None, None,
                                                              training=True),
        "batch_norm float16": lambda x, w, m, b: F.batch_norm(x.half(), None, None,
                                                              training=True),
        "layer_norm": lambda x, w, m, b: F.layer_norm(x, (3,), w[0], w[1]),
        "layer_norm without affine": lambda x, w, m, b: F.layer_norm(x.reshape(1, 2, 3),
                                                                     (2, 3), eps=1e-3),
        "layer_norm bias only": lambda x, w, m, b: F.layer_norm(x, (3,), None, b[:3]),
        "embedding": lambda x, w, m, b: F.embedding(t, m),
        "embedding padding_idx": lambda x, w, m, b: F.embedding(
            lib.tensor([[0, 2], [1, 1]]), m, padding_idx=-1, scale_grad_by_freq=True),
        "embedding max_norm": lambda x, w, m, b: F.embedding(t, m, max_norm=1.0),
        "dropout p=1": lambda x, w, m, b: F.dropout(x, 1.0),
        # pooling (a stride left out shows as ())
        "max_pool2d": lambda x, w, m, b: F.max_pool2d(m.reshape(1, 1, 3, 4), 2),
        "max_pool2d stride, padding, dilation, ceil_mode": lambda x, w, m, b: F.max_pool2d(
            m.reshape(1, 1, 3, 4), (3, 2), stride=1, padding=1, dilation=(1, 2),
            ceil_mode=True),
        "max_pool2d unbatched, return_indices": lambda x, w, m, b: F.max_pool2d(
            m.reshape(1, 3, 4), 2, 2, return_indices=True)[0],
        "max_pool2d with ties": lambda x, w, m, b: F.max_pool2d(
            (m * 0).reshape(1, 1, 3, 4), 2, 1),
        "avg_pool2d": lambda x, w, m, b: F.avg_pool2d(m.reshape(1, 1, 3, 4), 2),
        "avg_pool2d options": lambda x, w, m, b: F.avg_pool2d(
            m.reshape(1, 3, 4), 3, stride=2, padding=1, ceil_mode=True,
            count_include_pad=False, divisor_override=2),
        "adaptive_avg_pool2d": lambda x, w, m, b: F.adaptive_avg_pool2d(m.reshape(1, 1, 3, 4),
                                                                        (2, 3)),
        "adaptive_avg_pool2d to 1": lambda x, w, m, b: F.adaptive_avg_pool2d(
            m.reshape(1, 1, 3, 4), 1),
        # activations
        "gelu": lambda x, w, m, b: F.gelu(x),
        "gelu tanh": lambda x, w, m, b: F.gelu(x, approximate="tanh"),
        "silu": lambda x, w, m, b: F.silu(x),
        "leaky_relu": lambda x, w, m, b: F.leaky_relu(x),
        "leaky_relu 0.2": lambda x, w, m, b: F.leaky_relu(w, 0.2),
        "leaky_relu int slope": lambda x, w, m, b: F.leaky_relu(w, 2),
        # joining, reordering and reshaping (dims as called)
        "cat": lambda x, w, m, b: lib.cat([x, w]),
        "cat -1 with a constant": lambda x, w, m, b: lib.cat((x, const), dim=-1),
        "cat with a legacy empty tensor": lambda x, w, m, b: lib.cat([x, b[:0]]),
        "stack": lambda x, w, m, b: lib.stack([x, w]),
        "stack -1": lambda x, w, m, b: lib.stack([x, w], -1),
        "permute": lambda x, w, m, b: x.permute(1, 0),
        "permute negative": lambda x, w, m, b: lib.permute(x.reshape(1, 2, 3), [-1, -3, 1]),
        "T": lambda x, w, m, b: x.T,
        "movedim": lambda x, w, m, b: lib.movedim(x.reshape(1, 2, 3), -1, 0),
        "unsqueeze -1": lambda x, w, m, b: x.unsqueeze(-1),
        "unsqueeze 0": lambda x, w, m, b: x.unsqueeze(0),
        "squeeze": lambda x, w, m, b: x.reshape(1, 2, 3, 1).squeeze(),
        "squeeze -1": lambda x, w, m, b: x.reshape(1, 2, 3, 1).squeeze(-1),
        "squeeze a dim not of size 1": lambda x, w, m, b: x.reshape(1, 2, 3, 1).squeeze(1),
        "squeeze dims": lambda x, w, m, b: x.reshape(1, 2, 3, 1).squeeze((0, -1)),
        "vector matmul": lambda x, w, m, b: b[:3] @ m,
        "expand": lambda x, w, m, b: x.expand(4, 2, 3),
        "expand -1": lambda x, w, m, b: b.reshape(4, 1).expand(-1, 3),
        # max / min along a dim (the indices they returned), cumsum
        "max dim": lambda x, w, m, b: w.max(1)[0],
        "max -1 keepdim": lambda x, w, m, b: w.max(-1, keepdim=True).values,
        "min dim": lambda x, w, m, b: lib.min(w, 0)[0],
        "min -2 keepdim": lambda x, w, m, b: w.min(-2, True)[0],
        "max of a 0-d tensor": lambda x, w, m, b: w[0, 0].max(-1)[0],
        "max with ties": lambda x, w, m, b: (w * 0).max(1)[0],
        "cumsum": lambda x, w, m, b: x.cumsum(1),
        "cumsum -1 float64": lambda x, w, m, b: x.cumsum(-1, dtype=lib.float64),
        "cumsum -2": lambda x, w, m, b: lib.cumsum(x, -2),
        # elementwise selections, batched products, binary cross-entropy
        "abs": lambda x, w, m, b: w.abs(),
        "clamp": lambda x, w, m, b: w.clamp(-1, 2),
        "clamp min": lambda x, w, m, b: w.clamp(min=-1),
        "clamp max float": lambda x, w, m, b: lib.clamp(w, max=1.5),
        "clamp tensors": lambda x, w, m, b: w.clamp(b[:3], const[0]),
        "clamp tensor min": lambda x, w, m, b: w.clamp(min=const[1]),
        "clamp_min": lambda x, w, m, b: w.clamp_min(0.5),
        "clamp_max": lambda x, w, m, b: w.clamp_max(1),
        "clamp_min tensor": lambda x, w, m, b: w.clamp_min(b[:3]),
        "where": lambda x, w, m, b: lib.where(w > 0, x, w),
        "where number": lambda x, w, m, b: lib.where(w > 0, 1.0, x),
        "masked_fill": lambda x, w, m, b: x.masked_fill(w > 0, 0.5),
        "masked_fill tensor": lambda x, w, m, b: x.masked_fill(w > 0, b[0]),
        "bmm": lambda x, w, m, b: lib.bmm(x.reshape(1, 2, 3), m.reshape(1, 3, 4)),
        "bmm by a constant": lambda x, w, m, b: lib.bmm(x.reshape(1, 2, 3),
                                                        const.reshape(1, 3, 2)),
        "matmul 3d's mm": lambda x, w, m, b: x.reshape(1, 2, 3) @ m,
        "matmul 3d": lambda x, w, m, b: x.reshape(1, 2, 3) @ m,
        "binary_cross_entropy": lambda x, w, m, b: F.binary_cross_entropy(
            lib.sigmoid(x), const.sigmoid()),
        "binary_cross_entropy weight, sum": lambda x, w, m, b: F.binary_cross_entropy(
            lib.sigmoid(x), const.sigmoid(), weight=lib.tensor([1.0, 2.0, 3.0]),
            reduction="sum"),
        "binary_cross_entropy_with_logits": lambda x, w, m, b: (
            F.binary_cross_entropy_with_logits(x, w)),
        "binary_cross_entropy_with_logits weights": lambda x, w, m, b: (
            F.binary_cross_entropy_with_logits(x, const.sigmoid(),
                                               weight=lib.tensor([1.0, 2.0, 3.0]),
                                               pos_weight=lib.tensor([[2.0], [0.5]]),
                                               reduction="none")),
        # var and std: the dims and the correction as called (None for neither)
        "var": lambda x, w, m, b: w.var(),
        "var dim": lambda x, w, m, b: w.var(1),
        "var dim, unbiased=False": lambda x, w, m, b: w.var(1, False),
        "var correction=0": lambda x, w, m, b: w.var(correction=0),
        "var dims, correction 1.5": lambda x, w, m, b: lib.var(w, [-1, 0], correction=1.5),
        "var unbiased": lambda x, w, m, b: w.var(unbiased=True),
        "var keepdim": lambda x, w, m, b: w.var(keepdim=True),
        "std": lambda x, w, m, b: w.std(),
        "std -1, correction=0, keepdim": lambda x, w, m, b: w.std(-1, correction=0,
                                                                  keepdim=True),
        "std unbiased=False": lambda x, w, m, b: lib.std(w, unbiased=False),
        # norms: ord and dims as called
        "norm": lambda x, w, m, b: w.norm(),
        "norm dim": lambda x, w, m, b: w.norm(dim=1),
        "norm p=3": lambda x, w, m, b: w.norm(p=3),
        "norm 2.5, dims, keepdim": lambda x, w, m, b: lib.norm(w, 2.5, (0, -1), True),
        "vector_norm 1, -1": lambda x, w, m, b: lib.linalg.vector_norm(w, 1, -1),
        "vector_norm 0": lambda x, w, m, b: lib.linalg.vector_norm(w, 0),
        "vector_norm -inf": lambda x, w, m, b: lib.linalg.vector_norm(w, -float("inf"), (0, 1)),
        "vector_norm float64": lambda x, w, m, b: lib.linalg.vector_norm(w, dtype=lib.float64),
        # select (x[i] included) and unbind: dim and index as called
        "x[1]": lambda x, w, m, b: x[1],
        "x[-1]": lambda x, w, m, b: x[-1],
        "x[:, -1]": lambda x, w, m, b: x[:, -1],
        "x[1, -2]": lambda x, w, m, b: x[1, -2],
        "x[..., 0]": lambda x, w, m, b: x[..., 0],
        "x[None, 1]": lambda x, w, m, b: x[None, 1],
        "x[0-d tensor]": lambda x, w, m, b: x[lib.tensor(-1)],
        "select": lambda x, w, m, b: x.select(0, -1),
        "select -1": lambda x, w, m, b: lib.select(x, -1, 1),
        "unbind": lambda x, w, m, b: x.unbind(1)[2],
        "unbind -1": lambda x, w, m, b: lib.unbind(x, -1)[0],
    }


CASES = list(_ops(minitorch))


def _build(lib, case):
    """The case's output and the node probed (its grad_fn, or the node below for a name
    with "'s")."""
    leaves = [lib.tensor(a, requires_grad=True) for a in (X, W, M, B)]
    out = _ops(lib)[case](*leaves)
    node = out.grad_fn
    if "'s " in case:
        node = node.next_functions[0][0]
    return out, node


def _names(node) -> list:
    return sorted(a for a in dir(node) if a.startswith("_saved_") and "strides" not in a)


def _read(node, name):
    """The attribute as a comparable value: (kind, ...), or the error it raised."""
    try:
        v = getattr(node, name)
    except Exception as e:  # the type and message are what is compared
        return ("raised", type(e).__name__, str(e))
    if isinstance(v, tuple):  # of Python ints (or bools), not NumPy's
        return ("tuple", tuple((type(e).__name__, e) for e in v))
    if v is None or isinstance(v, (bool, int, float, str)):
        return (type(v).__name__, v)
    assert type(v).__name__ == "Tensor", f"{name} is a {type(v).__name__}"
    return ("tensor", tuple(v.shape), str(v.dtype).removeprefix("torch."),
            np.round(np.asarray(v.detach().numpy(), dtype=np.float64), 4).tolist())


@pytest.mark.parametrize("case", CASES)
def test_saved_attributes_match_torch(case):
    _, mine = _build(minitorch, case)
    _, theirs = _build(torch, case)
    assert mine.name() == theirs.name()
    assert _names(mine) == _names(theirs)
    for name in _names(theirs):
        assert _read(mine, name) == _read(theirs, name), name


@pytest.mark.parametrize("case", CASES)
def test_saved_attributes_after_backward_freed_the_graph(case):
    got = {}
    for lib in (minitorch, torch):
        out, node = _build(lib, case)
        out.sum().backward()
        got[lib.__name__] = {name: _read(node, name) for name in _names(node)}
    assert got["minitorch"] == got["torch"]


@pytest.mark.parametrize("lib", [minitorch, torch], ids=["minitorch", "torch"])
def test_saved_inputs_are_the_inputs_and_a_saved_output_is_a_new_tensor_on_its_memory(lib):
    x = lib.tensor(X, requires_grad=True)
    w = lib.tensor(W, requires_grad=True)
    h = x * 3
    node = (h * w).grad_fn
    assert node._saved_self is h and node._saved_other is w
    y = x.exp()
    r = y.grad_fn._saved_result
    assert r is not y and r.grad_fn is y.grad_fn and r.requires_grad
    assert np.array_equal(r.detach().numpy(), y.detach().numpy())
    with lib.no_grad():
        y.grad_fn._saved_result.mul_(2)  # the same memory, and the same version counter
    assert y[0, 0].item() == pytest.approx(2 * np.e)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


@pytest.mark.parametrize("lib", [minitorch, torch], ids=["minitorch", "torch"])
@pytest.mark.parametrize("images", [False, True], ids=["nll_loss", "nll_loss2d"])
def test_nll_loss_saves_the_target_itself(lib, images):
    x = lib.tensor(X.reshape(1, 2, 3, 1) if images else X, requires_grad=True)
    target = lib.tensor([[[0], [1], [1]]] if images else [0, 2])
    F = lib.nn.functional
    for loss in (F.nll_loss(x, target), F.cross_entropy(x, target)):
        node = loss.grad_fn
        assert node._saved_target is target
        loss.backward()
        with pytest.raises(RuntimeError, match="after they have already been freed"):
            node._saved_target  # noqa: B018


@pytest.mark.parametrize("lib", [minitorch, torch], ids=["minitorch", "torch"])
def test_saved_inputs_of_conv_batch_norm_and_embedding_are_the_inputs(lib):
    F = lib.nn.functional
    x = lib.tensor(X.reshape(1, 1, 2, 3), requires_grad=True)
    weight = lib.tensor(W.reshape(2, 1, 1, 3))  # no gradient: saved all the same
    node = F.conv2d(x, weight).grad_fn
    assert node._saved_input is x and node._saved_weight is weight
    mean, var, x2 = lib.zeros(3), lib.ones(3), lib.tensor(X, requires_grad=True)
    node = F.batch_norm(x2, mean, var, training=True).grad_fn
    assert node._saved_input is x2 and node._saved_running_mean is mean
    assert node._saved_running_var is var and node._saved_weight is None
    indices = lib.tensor([0, 1, 1])
    node = F.embedding(indices, x2).grad_fn
    assert node._saved_indices is indices


@pytest.mark.parametrize("number", [True, False])
@pytest.mark.parametrize("op", ["mul", "rmul", "div"])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_a_bool_number_gives_torchs_values_and_gradients(number, op, dtype):
    got = []
    for lib in (minitorch, torch):
        x = lib.tensor(X, dtype=getattr(lib, dtype), requires_grad=True)
        y = x * number if op == "mul" else number * x if op == "rmul" else x / number
        y.sum().backward()
        got.append((str(y.dtype), y.detach().numpy().tolist(), x.grad.numpy().tolist()))
    assert got[0] == got[1]


def test_saved_attributes_are_read_when_asked_not_recorded():
    """Recording a node stores nothing for them: they are properties of the node's class."""
    x = minitorch.tensor(X, requires_grad=True)
    for out in (x * 2, x.exp(), x.sum(1), x.view(6), x.mm(minitorch.tensor(M)),
                x.softmax(1), x.sum(-1), x.transpose(-1, 0), x * True,
                minitorch.nn.functional.mse_loss(x, x.detach())):
        node = out.grad_fn
        assert not [k for k in vars(node) if k.startswith("_saved_")]
        for name in _names(node):
            assert isinstance(getattr(type(node), name), property), name
