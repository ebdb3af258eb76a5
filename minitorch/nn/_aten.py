"""The ``torch.*`` names of the neural-network functions: ``torch.dropout``,
``torch.layer_norm``, ``torch.kl_div``, ...

PyTorch exposes its ATen kernels under ``torch.*`` too, with the kernel's own signature, which
often differs from the ``nn.functional`` function of the same name: ``torch.dropout(input, p,
train)`` has no defaults, ``torch.batch_norm`` takes the weight before the running statistics,
``torch.embedding(weight, indices)`` swaps the arguments, and the losses take ``reduction`` as
an integer (0 none, 1 mean, 2 sum; any other number: none) and skip ``nn.functional``'s Python
checks and warnings. Each function here is a thin wrapper: it translates the arguments and
calls the ``nn.functional`` function (or the part of it after those Python checks); none
computes anything of its own. ``minitorch/__init__.py`` exports them; the names whose
``torch.*`` function *is* the ``nn.functional`` one (``conv2d``, ``pixel_shuffle``, ...) are
exported from ``nn.functional`` directly.

One quirk is PyTorch's, kept on purpose: the schemas say ``int reduction=Mean``, but the
Python binding cannot read ``Mean`` and falls back to 0, so a loss called without
``reduction`` is not reduced (``torch.kl_div(x, y).shape == x.shape``).

Example:
    >>> import minitorch
    >>> x = minitorch.tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> minitorch.layer_norm(x, [2])
    tensor([[ 1.0000, -1.0000],
            [-1.0000,  1.0000]])
    >>> minitorch.kl_div(x, x, 2, log_target=True)  # 2: the sum
    tensor(0.)
    >>> minitorch.kl_div(x, x, log_target=True)  # no reduction given: none
    tensor([[0., 0.],
            [0., 0.]])
"""

from __future__ import annotations

import functools
import inspect

import numpy as np

from minitorch._out import with_out
from minitorch._tensor import Tensor
from minitorch.nn import functional as F
from minitorch.nn._dropout import dropout as _dropout_impl
from minitorch.nn._margin_loss import _margin_ranking_loss, _triplet_margin_loss
from minitorch.nn.modules import rnn as _rnn
from minitorch.ops._util import broadcast_error

_NONE = 0  # the default reduction, as PyTorch's Python binding reads ``int reduction=Mean``


def _reduction(name: str, value, position: int, overloads: str = "") -> str:
    """``nn.functional``'s name for the integer ``reduction`` (PyTorch's TypeError for
    anything that is not an int; ``overloads``: the signatures PyTorch lists when the
    function has several)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        if overloads:
            raise TypeError(f"{name}() received an invalid combination of arguments - got a "
                            f"reduction of type {type(value).__name__}, but expected one of:\n"
                            f"{overloads}")
        raise TypeError(f"{name}(): argument 'reduction' (position {position}) must be int, "
                        f"not {type(value).__name__}")
    return {1: "mean", 2: "sum"}.get(int(value), "none")


def _int_list(name: str, arg: str, value, position: int) -> list:
    """An ``int[]`` argument, as PyTorch's parser takes it (a list or tuple, not an int)."""
    if not isinstance(value, (list, tuple)) or not all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value):
        raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be tuple of "
                        f"ints, not {type(value).__name__}")
    return [int(v) for v in value]


def _default_stride(stride):
    """PyTorch's ``stride=[]`` (or None): the kernel size."""
    return None if stride is None or (isinstance(stride, (list, tuple)) and not stride) \
        else stride


# ---------------------------------------------------------------- dropout
def _check_p(p) -> None:
    if p < 0.0 or p > 1.0:  # the kernel's check: a RuntimeError, even out of training
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input: Tensor, p: float, train: bool) -> Tensor:  # noqa: A002
    """``nn.functional.dropout(input, p, train)``; every argument is required."""
    _check_p(p)
    return _dropout_impl(input, p, train, False)


def dropout_(input: Tensor, p: float, train: bool) -> Tensor:  # noqa: A002
    """In-place :func:`dropout`."""
    _check_p(p)
    return _dropout_impl(input, p, train, True)


def feature_dropout(input: Tensor, p: float, train: bool) -> Tensor:  # noqa: A002
    """Dropout of whole channels (dimension 1) of an input with at least 2 dimensions."""
    _check_p(p)
    return _dropout_impl(input, p, train, False, feature=True)


def feature_dropout_(input: Tensor, p: float, train: bool) -> Tensor:  # noqa: A002
    """In-place :func:`feature_dropout`."""
    _check_p(p)
    return _dropout_impl(input, p, train, True, feature=True)


def alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:  # noqa: A002
    """``nn.functional.alpha_dropout(input, p, train)``; every argument is required."""
    _check_p(p)
    return _dropout_impl(input, p, train, False, alpha=True)


def alpha_dropout_(input: Tensor, p: float, train: bool) -> Tensor:  # noqa: A002
    """In-place :func:`alpha_dropout`."""
    _check_p(p)
    return _dropout_impl(input, p, train, True, alpha=True)


def feature_alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:  # noqa: A002
    """``nn.functional.feature_alpha_dropout(input, p, train)``."""
    _check_p(p)
    return _dropout_impl(input, p, train, False, feature=True, alpha=True)


def feature_alpha_dropout_(input: Tensor, p: float, train: bool) -> Tensor:  # noqa: A002
    """In-place :func:`feature_alpha_dropout`."""
    _check_p(p)
    return _dropout_impl(input, p, train, True, feature=True, alpha=True)


# ---------------------------------------------------------------- activations
def celu(input: Tensor, alpha: float = 1.0) -> Tensor:  # noqa: A002
    """``nn.functional.celu`` without ``inplace`` (that is ``celu_``)."""
    return F.celu(input, alpha)


def selu(input: Tensor) -> Tensor:  # noqa: A002
    """``nn.functional.selu`` without ``inplace`` (that is ``selu_``)."""
    return F.selu(input)


@with_out
def threshold(input: Tensor, threshold: float, value: float) -> Tensor:  # noqa: A002
    """``nn.functional.threshold`` without ``inplace`` (that is ``threshold_``); ``out=``
    writes the result into a given tensor."""
    return F.threshold(input, threshold, value)


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,  # noqa: A002
          training: bool = False, generator=None) -> Tensor:
    """``nn.functional.rrelu``, its slopes drawn from ``generator`` (no ``inplace``)."""
    return F._rrelu(input, lower, upper, training, False, generator)




# ---------------------------------------------------------------- pools and padding
def adaptive_max_pool1d(input: Tensor, output_size) -> tuple:  # noqa: A002
    """The pooled tensor and the index of each maximum (always both)."""
    return tuple(F.adaptive_max_pool1d(input, output_size, True))


def max_pool1d(input: Tensor, kernel_size, stride=(), padding=0, dilation=1,  # noqa: A002
               ceil_mode: bool = False) -> Tensor:
    """``nn.functional.max_pool1d`` (``stride=[]``: the kernel size)."""
    return F.max_pool1d(input, kernel_size, _default_stride(stride), padding, dilation,
                        ceil_mode)


def max_pool1d_with_indices(input: Tensor, kernel_size, stride=(), padding=0,  # noqa: A002
                            dilation=1, ceil_mode: bool = False) -> tuple:
    """:func:`max_pool1d` and the index of each maximum."""
    return tuple(F.max_pool1d_with_indices(input, kernel_size, _default_stride(stride),
                                           padding, dilation, ceil_mode))


def max_pool2d(input: Tensor, kernel_size, stride=(), padding=0, dilation=1,  # noqa: A002
               ceil_mode: bool = False) -> Tensor:
    """``nn.functional.max_pool2d`` (``stride=[]``: the kernel size)."""
    return F.max_pool2d(input, kernel_size, _default_stride(stride), padding, dilation,
                        ceil_mode)


def constant_pad_nd(input: Tensor, pad, value=0) -> Tensor:  # noqa: A002
    """``nn.functional.pad(input, pad, "constant", value)``, with the kernel's messages."""
    pad = F._check_pad_args(input, pad, "constant", value)
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    if len(pad) > 2 * input.dim():
        raise RuntimeError(f"Length of pad should be no more than twice the number of "
                           f"dimensions of the input. Pad length is {len(pad)}while the input "
                           f"has {input.dim()}dimensions.")
    return F.pad(input, pad, "constant", value)


# ---------------------------------------------------------------- convolution, embedding
_CONVOLUTIONS = {(False, 1): "conv1d", (False, 2): "conv2d", (False, 3): "conv3d",
                 (True, 1): "conv_transpose1d", (True, 2): "conv_transpose2d",
                 (True, 3): "conv_transpose3d"}


def convolution(input: Tensor, weight: Tensor, bias: Tensor | None, stride, padding,  # noqa: A002
                dilation, transposed: bool, output_padding, groups: int) -> Tensor:
    """The convolution every ``conv*`` calls: 1, 2 or 3 spatial dimensions (from ``weight``),
    ``transposed`` or not; each list argument has one value, or one per dimension."""
    args = {"stride": stride, "padding": padding, "dilation": dilation,
            "output_padding": output_padding}
    for position, (arg, value) in zip((4, 5, 6, 8), args.items()):
        args[arg] = _int_list("convolution", arg, value, position)
    k = weight.ndim - 2
    if input.ndim != weight.ndim:
        raise RuntimeError(f"Expected {weight.ndim}-dimensional input for {weight.ndim}-"
                           f"dimensional weight {list(weight.shape)}, but got {input.ndim}-"
                           f"dimensional input of size {list(input.shape)} instead")
    for arg, value in args.items():
        if len(value) not in (1, k):
            raise RuntimeError(f"expected {arg} to be a single integer value or a list of {k} "
                               f"values to match the convolution dimensions, but got {arg}="
                               f"{value}")
        args[arg] = tuple(value * k if len(value) == 1 else value)
    name = _CONVOLUTIONS.get((bool(transposed), k))
    conv = getattr(F, name, None) if name else None
    if conv is None:
        raise NotImplementedError(f"minitorch's convolution has no {k}-d "
                                  f"{'transposed ' if transposed else ''}convolution")
    if transposed:
        return conv(input, weight, bias, args["stride"], args["padding"],
                    args["output_padding"], groups, args["dilation"])
    return conv(input, weight, bias, args["stride"], args["padding"], args["dilation"], groups)


def embedding(weight: Tensor, indices: Tensor, padding_idx: int = -1,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """``nn.functional.embedding(indices, weight, ...)``, the arguments swapped; a negative
    ``padding_idx`` means none (``nn.functional`` has already made its own positive)."""
    return F._embedding(indices, weight, None if padding_idx < 0 else padding_idx,
                        scale_grad_by_freq, sparse)


# ---------------------------------------------------------------- normalisation
def batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None,  # noqa: A002
               running_mean: Tensor | None, running_var: Tensor | None, training: bool,
               momentum: float, eps: float, cudnn_enabled: bool) -> Tensor:
    """``nn.functional.batch_norm`` with the weight first, every argument required; without
    its Python check of the batch size, and an error instead of the batch's statistics when
    evaluating without running ones."""
    if not training:
        for name, stat in (("running_mean", running_mean), ("running_var", running_var)):
            if stat is None:
                raise RuntimeError(f"{name} must be defined in evaluation mode")
    return F._batch_norm(input, running_mean, running_var, weight, bias, training, momentum,
                         eps)


def instance_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None,  # noqa: A002
                  running_mean: Tensor | None, running_var: Tensor | None,
                  use_input_stats: bool, momentum: float, eps: float,
                  cudnn_enabled: bool) -> Tensor:
    """``nn.functional.instance_norm`` with the weight first, every argument required, and
    without its Python check of the spatial size."""
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when "
                           "use_input_stats is false")
    return F._instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                            momentum, eps)


def layer_norm(input: Tensor, normalized_shape, weight: Tensor | None = None,  # noqa: A002
               bias: Tensor | None = None, eps: float = 1e-05,
               cudnn_enable: bool = True) -> Tensor:
    """``nn.functional.layer_norm`` (``cudnn_enable`` changes nothing on the CPU)."""
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None,  # noqa: A002
               bias: Tensor | None = None, eps: float = 1e-05,
               cudnn_enabled: bool = True) -> Tensor:
    """``nn.functional.group_norm`` (``cudnn_enabled`` changes nothing on the CPU)."""
    if input.dim() < 2:  # the kernel reads input.size(1) first
        raise IndexError("Dimension specified as 0 but tensor has no dimensions" if not
                         input.dim() else "Dimension out of range (expected to be in range "
                         "of [-1, 0], but got 1)")
    return F.group_norm(input, num_groups, weight, bias, eps)


# ---------------------------------------------------------------- losses
def binary_cross_entropy_with_logits(input: Tensor, target: Tensor,  # noqa: A002
                                     weight: Tensor | None = None,
                                     pos_weight: Tensor | None = None,
                                     reduction: int = _NONE) -> Tensor:
    """``nn.functional.binary_cross_entropy_with_logits``, ``reduction`` an int."""
    reduction = _reduction("binary_cross_entropy_with_logits", reduction, 5)
    if input.shape != target.shape:  # the kernel broadcasts the input to the target
        try:
            shape = np.broadcast_shapes(input.shape, target.shape)
        except ValueError:
            raise broadcast_error(input.shape, target.shape) from None
        if shape != tuple(target.shape):
            raise RuntimeError(f"output with shape {list(target.shape)} doesn't match the "
                               f"broadcast shape {list(shape)}")
        input = input.expand(shape)  # noqa: A001
    return F._binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor,
                          margin: float = 0.0, reduction: int = _NONE) -> Tensor:
    """``nn.functional.cosine_embedding_loss``, ``reduction`` an int."""
    reduction = _reduction("cosine_embedding_loss", reduction, 5)
    return F.cosine_embedding_loss(input1, input2, target, margin, reduction=reduction)


_CTC_OVERLOADS = "".join(
    f" * (Tensor log_probs, Tensor targets, {kind} input_lengths, {kind} target_lengths, int "
    "blank = 0, int reduction = at::Reduction::Mean, bool zero_infinity = False)\n"
    for kind in ("tuple of ints", "Tensor"))


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths, target_lengths,
             blank: int = 0, reduction: int = _NONE, zero_infinity: bool = False) -> Tensor:
    """``nn.functional.ctc_loss``, ``reduction`` an int."""
    reduction = _reduction("ctc_loss", reduction, 6, _CTC_OVERLOADS)
    return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, reduction,
                      zero_infinity)


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0,  # noqa: A002
                         reduction: int = _NONE) -> Tensor:
    """``nn.functional.hinge_embedding_loss``, ``reduction`` an int."""
    reduction = _reduction("hinge_embedding_loss", reduction, 4)
    return F.hinge_embedding_loss(input, target, margin, reduction=reduction)


def kl_div(input: Tensor, target: Tensor, reduction: int = _NONE, *,  # noqa: A002
           log_target: bool = False) -> Tensor:
    """``nn.functional.kl_div``, ``reduction`` an int (no ``batchmean``, and no warning for
    the mean)."""
    return F._kl_div(input, target, _reduction("kl_div", reduction, 3), log_target)


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                        reduction: int = _NONE) -> Tensor:
    """``nn.functional.margin_ranking_loss``, ``reduction`` an int."""
    reduction = _reduction("margin_ranking_loss", reduction, 5)
    return _margin_ranking_loss(input1, input2, target, margin, reduction)


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool, full: bool,  # noqa: A002
                     eps: float, reduction: int) -> Tensor:
    """``nn.functional.poisson_nll_loss``, every argument required, ``reduction`` an int."""
    reduction = _reduction("poisson_nll_loss", reduction, 6)
    return F.poisson_nll_loss(input, target, log_input, full, eps=eps, reduction=reduction)


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor,
                        margin: float = 1.0, p: float = 2.0, eps: float = 1e-06,
                        swap: bool = False, reduction: int = _NONE) -> Tensor:
    """``nn.functional.triplet_margin_loss``, ``reduction`` an int."""
    reduction = _reduction("triplet_margin_loss", reduction, 8)
    return _triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, reduction,
                                check_margin=False)


# ---------------------------------------------------------------- recurrent cells
def _dim_error(t: Tensor) -> IndexError:
    return IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)"
                      if t.dim() else "Dimension specified as 0 but tensor has no dimensions")


def _cell_checks(input: Tensor, hx: tuple, w_ih: Tensor, w_hh: Tensor) -> None:  # noqa: A002
    """The kernels' checks, in their order: the input's size, then each hidden state's batch
    and size."""
    if input.dim() < 2:
        raise _dim_error(input)
    if input.shape[1] != w_ih.shape[-1]:
        raise RuntimeError(f"input has inconsistent input_size: got {input.shape[1]} "
                           f"expected {w_ih.shape[-1]}")
    for i, h in enumerate(hx):
        if h.dim() < 1:
            raise _dim_error(h)
        if h.shape[0] != input.shape[0]:
            raise RuntimeError(f"Input batch size {input.shape[0]} doesn't match hidden{i} "
                               f"batch size {h.shape[0]}")
        if h.dim() < 2:
            raise _dim_error(h)
        if h.shape[1] != w_hh.shape[-1]:
            raise RuntimeError(f"hidden{i} has inconsistent hidden_size: got {h.shape[1]}, "
                               f"expected {w_hh.shape[-1]}")


def rnn_tanh_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor,  # noqa: A002
                  b_ih: Tensor | None = None, b_hh: Tensor | None = None) -> Tensor:
    """One step of ``nn.RNNCell``: ``tanh(W_ih x + b_ih + W_hh h + b_hh)``."""
    _cell_checks(input, (hx,), w_ih, w_hh)
    return _rnn.rnn_tanh_cell(F.linear(input, w_ih, b_ih), hx, w_hh, b_hh)


def rnn_relu_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor,  # noqa: A002
                  b_ih: Tensor | None = None, b_hh: Tensor | None = None) -> Tensor:
    """One step of ``nn.RNNCell(nonlinearity="relu")``."""
    _cell_checks(input, (hx,), w_ih, w_hh)
    return _rnn.rnn_relu_cell(F.linear(input, w_ih, b_ih), hx, w_hh, b_hh)


def lstm_cell(input: Tensor, hx, w_ih: Tensor, w_hh: Tensor,  # noqa: A002
              b_ih: Tensor | None = None, b_hh: Tensor | None = None) -> tuple:
    """One step of ``nn.LSTMCell``: ``hx = (h, c)``, returns ``(h', c')``."""
    if isinstance(hx, Tensor) or not isinstance(hx, (tuple, list)):
        raise TypeError(f"lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, "
                        f"not {type(hx).__name__}")
    if len(hx) != 2:
        raise RuntimeError("lstm_cell expects two hidden states")
    _cell_checks(input, tuple(hx), w_ih, w_hh)
    return _rnn.lstm_cell(F.linear(input, w_ih, b_ih), tuple(hx), w_hh, b_hh)


def gru_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor,  # noqa: A002
             b_ih: Tensor | None = None, b_hh: Tensor | None = None) -> Tensor:
    """One step of ``nn.GRUCell``."""
    _cell_checks(input, (hx,), w_ih, w_hh)
    return _rnn.gru_cell(F.linear(input, w_ih, b_ih), hx, w_hh, b_hh)


# ---------------------------------------------------------------- PyTorch's argument parser
def _tensor_args(fn):
    """``fn`` with the first check of PyTorch's argument parser: each argument annotated
    ``Tensor`` is one (``Tensor | None``: or None), else ``fn(): argument 'input' (position
    1) must be Tensor, not float``. A call that does not fit the signature gets Python's own
    TypeError, as in PyTorch."""
    parsed: list = []  # the signature and its Tensor arguments, read on the first call

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if not parsed:
            sig = inspect.signature(fn)
            parsed[:] = [sig, list(sig.parameters), {
                n: p.annotation.endswith("None") for n, p in sig.parameters.items()
                if isinstance(p.annotation, str) and p.annotation.startswith("Tensor")}]
        sig, params, tensors = parsed
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError:
            return fn(*args, **kwargs)  # Python's message for the call
        for name, value in bound.arguments.items():
            if name in tensors and not isinstance(value, Tensor) and not (
                    value is None and tensors[name]):
                if fn.__name__ == "ctc_loss":  # two overloads: PyTorch lists them
                    got = ", ".join(type(a).__name__ for a in args)
                    raise TypeError(f"ctc_loss() received an invalid combination of arguments "
                                    f"- got ({got}), but expected one of:\n{_CTC_OVERLOADS}")
                raise TypeError(f"{fn.__name__}(): argument '{name}' (position "
                                f"{params.index(name) + 1}) must be Tensor, not "
                                f"{type(value).__name__}")
        return fn(*args, **kwargs)
    return wrapper


__all__ = [name for name, obj in list(globals().items())
           if inspect.isfunction(obj) and not name.startswith("_")
           and obj.__module__ == __name__]
for _name in __all__:
    globals()[_name] = _tensor_args(globals()[_name])
