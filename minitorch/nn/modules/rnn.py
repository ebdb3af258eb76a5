"""Recurrent layers: ``nn.RNN``, ``nn.LSTM``, ``nn.GRU`` and their one-step cells.

A recurrent layer reads a sequence one step at a time and carries a *hidden state* ``h`` from
step to step. Every step applies the same weights, so after the forward pass the graph is the
cell *unrolled* in time: ``L`` copies of the same few operations, chained through ``h``. There
is nothing special for autograd here: the layers are built from ordinary minitorch
operations (``linear``, ``sigmoid``, ``tanh``, ``*``, ``+``), and backward through the unrolled
graph is "backpropagation through time".

One exception, PyTorch's: a float32 LSTM on the CPU runs each layer and direction as one fused
kernel (oneDNN's ``mkldnn_rnn_layer``), which records a single ``MkldnnRnnLayerBackward0`` node
for the whole sequence. :class:`MkldnnRnnLayer` is that node here: its forward loops over the
steps on arrays, its backward runs backpropagation through time with tensor operations (so it
can be differentiated again). Other dtypes keep the unrolled graph, as in PyTorch.

A :class:`~minitorch.nn.utils.rnn.PackedSequence` input (a batch of sequences of different
lengths, packed) runs as PyTorch's packed layers do: step ``t`` computes only the sequences
that are still running, so each one stops at its own length, and its final state is the state
after its own last step.

The equations are PyTorch's, with its gate order and parameter names, so a ``state_dict``
moves between the two libraries unchanged:

* RNN:  ``h' = tanh(W_ih x + b_ih + W_hh h + b_hh)`` (or ``relu``);
* LSTM: gates ``i, f, g, o`` (in that order in ``weight_ih``):
  ``c' = f * c + i * g``, ``h' = o * tanh(c')``, with ``g`` through tanh, the rest sigmoid;
* GRU:  gates ``r, z, n``: ``n = tanh(W_in x + b_in + r * (W_hn h + b_hn))``,
  ``h' = (1 - z) * n + z * h``.

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> lstm = nn.LSTM(input_size=3, hidden_size=5, batch_first=True)
    >>> out, (h, c) = lstm(minitorch.zeros(2, 7, 3))   # 2 sequences of 7 steps
    >>> out.shape, h.shape
    (torch.Size([2, 7, 5]), torch.Size([1, 2, 5]))
"""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

from minitorch import _creation, _dtype
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.nn import functional as F
from minitorch.nn import init
from minitorch.nn.modules.module import Module
from minitorch.nn.parameter import Parameter
from minitorch.nn.utils.rnn import PackedSequence
from minitorch.ops import shape as _shape
from minitorch.ops import unary as _unary

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


# ---------------------------------------------------------------- one step of each cell
def rnn_tanh_cell(x_proj: Tensor, h: Tensor, w_hh: Tensor, b_hh: Tensor | None) -> Tensor:
    """``tanh(W_hh h + b_hh + x_proj)``, where ``x_proj = W_ih x + b_ih`` is precomputed (the
    sum in PyTorch's order, so that the graph is PyTorch's)."""
    return _unary.tanh(F.linear(h, w_hh, b_hh) + x_proj)


def rnn_relu_cell(x_proj: Tensor, h: Tensor, w_hh: Tensor, b_hh: Tensor | None) -> Tensor:
    """``relu(W_hh h + b_hh + x_proj)``."""
    return _unary.relu(F.linear(h, w_hh, b_hh) + x_proj)


def lstm_cell(x_proj: Tensor, state: tuple, w_hh: Tensor, b_hh: Tensor | None) -> tuple:
    """One LSTM step: the four gates ``i, f, g, o`` come from one matrix product."""
    h, c = state
    gates = F.linear(h, w_hh, b_hh) + x_proj
    i, f, g, o = gates.unsafe_chunk(4, -1)  # PyTorch's: UnsafeSplitBackward0
    i, f, g, o = _unary.sigmoid(i), _unary.sigmoid(f), _unary.tanh(g), _unary.sigmoid(o)
    c = f * c + i * g          # forget some of the old memory, write some new
    h = o * _unary.tanh(c)     # show some of the memory
    return h, c


def gru_cell(x_proj: Tensor, h: Tensor, w_hh: Tensor, b_hh: Tensor | None) -> Tensor:
    """One GRU step: ``r`` decides how much of ``h`` feeds the candidate ``n``, ``z`` how much
    of ``h`` is kept: ``(1 - z) n + z h``, computed as PyTorch does, ``(h - n) z + n``."""
    x_r, x_z, x_n = x_proj.unsafe_chunk(3, -1)
    h_r, h_z, h_n = F.linear(h, w_hh, b_hh).unsafe_chunk(3, -1)
    r = _unary.sigmoid(h_r + x_r)
    z = _unary.sigmoid(h_z + x_z)
    # PyTorch multiplies in place (``mul_``): the gradient of r and of z reads a clone of the
    # other factor saved before the change (CloneBackward0, as its create_graph=True shows)
    n = _unary.tanh(x_n + h_n.mul_(r))
    return (h - n).mul_(z) + n


_CELLS = {"RNN_TANH": rnn_tanh_cell, "RNN_RELU": rnn_relu_cell, "LSTM": lstm_cell,
          "GRU": gru_cell}


# ---------------------------------------------------------------- the fused float32 LSTM layer
class MkldnnRnnLayer(Function):
    """One LSTM layer in one direction over the whole sequence, as one node: PyTorch's
    ``mkldnn_rnn_layer``, which its CPU build runs for a float32 LSTM.

    Inputs ``x`` ``(T, N, I)``, the layer's weights (biases ``None`` without bias), its initial
    state ``hx``, ``cx`` ``(N, H)`` and ``reverse`` (the backward direction of a bidirectional
    layer reads the steps last to first). Outputs ``(output, hy, cy)``: every step's ``h``
    ``(T, N, H)`` and the final state. The node's seven edges, in PyTorch's order: input,
    ``weight_ih``, ``weight_hh``, ``bias_ih``, ``bias_hh``, ``hx``, ``cx``.
    """

    node_name = "MkldnnRnnLayerBackward0"
    saved_names = ("input", "weight0", "weight1", "weight2", "weight3", "hx_", "cx_", "result0")
    _builtin = True
    _edge_args = (0, 1, 2, 3, 4, 5, 6)

    @staticmethod
    def forward(ctx, x, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse):
        xd, w_hh_t = x._data, w_hh._data.T
        proj = xd @ w_ih._data.T  # W_ih x for every step at once
        if b_ih is not None:
            proj += b_ih._data + b_hh._data
        h, c = hx._data, cx._data
        out = np.empty(xd.shape[:2] + h.shape[-1:], dtype=xd.dtype)
        for t in _steps(xd.shape[0], reverse):
            i, f, g, o = np.split(proj[t] + h @ w_hh_t, 4, axis=-1)
            # sigmoid(a) = (1 + tanh(a / 2)) / 2: no overflow for any a
            i, f, o = [np.tanh(a * 0.5) * 0.5 + 0.5 for a in (i, f, o)]
            c = f * c + i * np.tanh(g)
            h = out[t] = o * np.tanh(c)
        output = _wrap(out)
        ctx.save_for_backward(x, w_ih, w_hh, b_ih, b_hh, hx, cx, output)
        ctx.reverse = reverse
        return output, _wrap(h), _wrap(c)

    @staticmethod
    def backward(ctx, grad_output, grad_hy, grad_cy):
        """Backpropagation through time, in tensor operations. The gates of every step come
        back in one batch (the state each step started from is ``hx`` or a saved output); the
        cell states, then the gradients, step by step."""
        x, w_ih, w_hh, b_ih, b_hh, hx, cx, output = ctx.saved_tensors
        steps = _steps(x.shape[0], ctx.reverse)
        ends = (output[1:], hx.unsqueeze(0)) if ctx.reverse else (hx.unsqueeze(0), output[:-1])
        h_prev = _shape.cat(ends, 0)
        gates = F.linear(x, w_ih, b_ih) + F.linear(h_prev, w_hh, b_hh)
        i, f, g, o = gates.unsafe_chunk(4, -1)
        i, f, g, o = _unary.sigmoid(i), _unary.sigmoid(f), _unary.tanh(g), _unary.sigmoid(o)
        f_t, i_t, g_t = f.unbind(0), i.unbind(0), g.unbind(0)
        c, c_before, c_after = cx, [None] * len(steps), [None] * len(steps)
        for t in steps:  # the cell states: c = f c_before + i g
            c_before[t] = c
            c = c_after[t] = f_t[t] * c + i_t[t] * g_t[t]
        c_before, tanh_c = _shape.stack(c_before, 0), _unary.tanh(_shape.stack(c_after, 0))
        # One step backwards: h = o tanh(c) gives dc += dh o (1 - tanh(c)^2); then the gates
        # i, f, g get dc times g, c_before, i, and o gets dh tanh(c), each times the
        # derivative of its sigmoid or tanh; dc_before = dc f, dh_before = d_gates W_hh.
        dc_dh = (o * (1 - tanh_c * tanh_c)).unbind(0)
        local = _shape.cat([g * i * (1 - i), c_before * f * (1 - f), i * (1 - g * g),
                            tanh_c * o * (1 - o)], -1).unbind(0)
        grad_output = grad_output.unbind(0)
        dh, dc, d_gates = grad_hy, grad_cy, [None] * len(steps)
        for t in reversed(steps):
            dh = grad_output[t] + dh
            dc = dc + dh * dc_dh[t]
            d_gates[t] = _shape.cat([dc, dc, dc, dh], -1) * local[t]
            dc = dc * f_t[t]
            dh = d_gates[t].matmul(w_hh)
        d_gates = _shape.stack(d_gates, 0)
        flat = d_gates.flatten(0, 1).t()  # (4H, T N): sums over steps and batch as one product
        needs = ctx.needs_input_grad
        d_bias = d_gates.sum((0, 1)) if b_ih is not None and (needs[3] or needs[4]) else None
        return (d_gates.matmul(w_ih) if needs[0] else None,
                flat.matmul(x.flatten(0, 1)) if needs[1] else None,
                flat.matmul(h_prev.flatten(0, 1)) if needs[2] else None,
                d_bias if needs[3] else None, d_bias if needs[4] else None,
                dh if needs[5] else None, dc if needs[6] else None)


def _steps(steps: int, reverse: bool) -> range:
    """The order a direction reads the steps in."""
    return range(steps - 1, -1, -1) if reverse else range(steps)


class RNNBase(Module):
    """What RNN, LSTM and GRU share: the parameters and the loop over layers and time."""

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device=None,
                 dtype=None) -> None:
        super().__init__()
        if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or \
                isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn(
                "dropout option adds dropout after all but last recurrent layer, so non-zero "
                f"dropout expects num_layers greater than 1, but got dropout={dropout} and "
                f"num_layers={num_layers}", UserWarning, stacklevel=3)
        if not isinstance(hidden_size, int) or isinstance(hidden_size, bool):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size != 0:
            raise NotImplementedError("minitorch's LSTM does not support proj_size")
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        gate_size = _GATES[mode] * hidden_size
        directions = 2 if bidirectional else 1
        self._flat_weights_names: list[str] = []
        for layer in range(num_layers):
            layer_input = input_size if layer == 0 else hidden_size * directions
            for direction in range(directions):
                suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
                shapes = [("weight_ih", (gate_size, layer_input)),
                          ("weight_hh", (gate_size, hidden_size))]
                if bias:
                    shapes += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                for name, shape in shapes:
                    setattr(self, name + suffix, Parameter(_creation.empty(
                        *shape, dtype=dtype, device=device)))
                    self._flat_weights_names.append(name + suffix)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every weight and bias uniform in ``[-1/sqrt(hidden_size), 1/sqrt(hidden_size)]``."""
        stdv = 1.0 / math.sqrt(self.hidden_size)
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    @property
    def all_weights(self) -> list:
        """The parameters, one list per layer and direction: ``[w_ih, w_hh, b_ih, b_hh]``."""
        per = 4 if self.bias else 2
        names = self._flat_weights_names
        return [[getattr(self, n) for n in names[i:i + per]] for i in range(0, len(names), per)]

    def _layer_weights(self, layer: int, direction: int) -> tuple:
        suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
        get = self._parameters.get
        return (get("weight_ih" + suffix), get("weight_hh" + suffix),
                get("bias_ih" + suffix), get("bias_hh" + suffix))

    def _check_input(self, input: Tensor) -> bool:  # noqa: A002
        """Check the input's shape and dtype; return whether it has a batch dimension."""
        if input.dim() not in (2, 3):
            raise ValueError(f"{type(self).__name__}: Expected input to be 2D or 3D, got "
                             f"{input.dim()}D instead")
        weight = self._layer_weights(0, 0)[0]
        if input.dtype != weight.dtype:  # float64 from NumPy, say: PyTorch's advice, not F.linear's
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype "
                             f"({weight.dtype}). Convert input: input.to({weight.dtype}), or "
                             f"convert model: model.to({input.dtype})")
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.shape[-1]}")
        return input.dim() == 3

    def _check_hidden(self, h: Tensor, expected: tuple, what: str = "hidden") -> None:
        if tuple(h.shape) != expected:
            raise RuntimeError(f"Expected {what} size {expected}, got "
                               f"[{', '.join(map(str, h.shape))}]")

    def _run(self, x: Tensor, states: list, fused: bool = False) -> tuple:
        """Run all layers over ``x`` (time, batch, features).

        ``states[k]`` is the initial state of layer/direction ``k`` (a tensor, or ``(h, c)``
        for LSTM). Returns the last layer's outputs and the final state of every
        layer/direction. ``fused``: each layer/direction of an LSTM as one
        :class:`MkldnnRnnLayer` node, instead of the steps unrolled.
        """
        cell = _CELLS[self.mode]
        directions = 2 if self.bidirectional else 1
        finals = []
        steps = x.shape[0]
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                w_ih, w_hh, b_ih, b_hh = self._layer_weights(layer, direction)
                state = states[layer * directions + direction]
                if fused:
                    out, h, c = MkldnnRnnLayer.apply(x, w_ih, w_hh, b_ih, b_hh, *state,
                                                     direction == 1)
                    finals.append((h, c))
                    outputs.append(out)
                    continue
                # W_ih x + b_ih for every step at once, then one step each (unbind, as PyTorch)
                x_proj = F.linear(x, w_ih, b_ih).unbind(0)
                hs = [None] * steps
                for t in _steps(steps, direction == 1):  # each step needs the previous state
                    state = cell(x_proj[t], state, w_hh, b_hh)
                    hs[t] = state[0] if self.mode == "LSTM" else state
                finals.append(state)
                outputs.append(_shape.stack(hs, 0))
            x = self._layer_output(outputs, layer)
        return x, finals

    def _layer_output(self, outputs: list, layer: int):
        """A layer's output, the next one's input: its directions side by side, with dropout
        between layers in training."""
        x = outputs[0] if len(outputs) == 1 else _shape.cat(outputs, -1)
        if self.dropout and self.training and layer < self.num_layers - 1:
            x = F.dropout(x, self.dropout, True)
        return x

    def _forward(self, input: Tensor, hx):  # noqa: A002
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        batched = self._check_input(input)
        batch_dim = 0 if self.batch_first else 1
        if not batched:  # a batch of one, where batch_first puts it (as PyTorch)
            input = input.unsqueeze(batch_dim)  # noqa: A001
        if self.batch_first:
            input = input.transpose(0, 1)  # noqa: A001
        if input.shape[0] == 0:
            raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
        n = input.shape[1]
        directions = 2 if self.bidirectional else 1
        expected = (self.num_layers * directions, n, self.hidden_size)
        is_lstm = self.mode == "LSTM"
        if hx is None:
            zeros = _creation.zeros(*expected, dtype=input.dtype, device=input.device)
            hx = (zeros, zeros) if is_lstm else zeros
        elif not batched:
            if is_lstm:
                if hx[0].dim() != 2 or hx[1].dim() != 2:
                    raise RuntimeError("For unbatched 2-D input, hx and cx should also be 2-D "
                                       f"but got ({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
                hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
            else:
                if hx.dim() != 2:
                    raise RuntimeError("For unbatched 2-D input, hx should also be 2-D but got "
                                       f"{hx.dim()}-D tensor")
                hx = hx.unsqueeze(1)
        # PyTorch's CPU kernel for a float32 LSTM: a contiguous input, each layer's state
        # picked out with hx[k] (SelectBackward0), each layer/direction one node
        fused = is_lstm and input.dtype == _dtype.float32 and input.device.type == "cpu" \
            and input.numel() != 0
        if is_lstm:
            h0, c0 = hx[0], hx[1]
            self._check_hidden(h0, expected)
            self._check_hidden(c0, expected, "cell")
            if fused:
                input, h0, c0 = input.contiguous(), h0.contiguous(), c0.contiguous()  # noqa: A001
                states = [(h0[k], c0[k]) for k in range(len(h0))]
            else:
                states = list(zip(h0.unbind(0), c0.unbind(0)))
        else:
            self._check_hidden(hx, expected)
            states = list(hx.unbind(0))
        out, finals = self._run(input, states, fused)
        if is_lstm:
            h_n = _shape.stack([s[0] for s in finals], 0)
            c_n = _shape.stack([s[1] for s in finals], 0)
        else:
            h_n = _shape.stack(finals, 0)
        if self.batch_first:  # (PyTorch's RNN and GRU kernels transpose in place; LSTM's not)
            out = out.transpose(0, 1) if is_lstm else out.transpose_(0, 1)
        if not batched:
            out = out.squeeze(batch_dim)
            h_n = h_n.squeeze(1)
            if is_lstm:
                c_n = c_n.squeeze(1)
        return (out, (h_n, c_n)) if is_lstm else (out, h_n)

    # ------------------------------------------------------------ packed sequences
    def _forward_packed(self, packed: PackedSequence, hx):
        """The layers over a :class:`PackedSequence`: each sequence stops at its own length,
        and its final state is the state after its last step. The output is packed as the
        input was; ``hx`` and the final states are in the caller's batch order (permuted
        with ``sorted_indices`` on the way in, ``unsorted_indices`` on the way out)."""
        data, batch_sizes, sorted_indices, unsorted_indices = packed
        weight = self._layer_weights(0, 0)[0]
        is_lstm = self.mode == "LSTM"
        # PyTorch's RNN and GRU check the input in Python; its LSTM leaves a packed input to
        # the kernel, where the first matrix product finds a wrong dtype or size (F.linear's)
        if not is_lstm:
            if data.dtype != weight.dtype:
                raise ValueError(f"RNN input dtype ({data.dtype}) does not match weight dtype "
                                 f"({weight.dtype}). Convert input: input.to({weight.dtype}), "
                                 f"or convert model: model.to({data.dtype})")
            if data.dim() != 2:
                raise RuntimeError(f"input must have 2 dimensions, got {data.dim()}")
            if data.shape[-1] != self.input_size:
                raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                                   f"{self.input_size}, got {data.shape[-1]}")
        sizes = batch_sizes.tolist()
        directions = 2 if self.bidirectional else 1
        expected = (self.num_layers * directions, sizes[0], self.hidden_size)
        if hx is None:
            zeros = _creation.zeros(*expected, dtype=data.dtype, device=data.device)
            hx = (zeros, zeros) if is_lstm else zeros
        else:
            for h, what in zip(hx if is_lstm else (hx,), ("hidden", "cell")):
                self._check_hidden(h, expected, what)
            if sorted_indices is not None:
                hx = tuple(h.index_select(1, sorted_indices) for h in hx) if is_lstm else \
                    hx.index_select(1, sorted_indices)
        states = list(zip(hx[0].unbind(0), hx[1].unbind(0))) if is_lstm else list(hx.unbind(0))
        out, finals = self._run_packed(data, sizes, states)
        finals = [_shape.stack(f, 0) for f in zip(*finals)] if is_lstm else \
            [_shape.stack(finals, 0)]
        if unsorted_indices is not None:
            finals = [f.index_select(1, unsorted_indices) for f in finals]
        hidden = tuple(finals) if is_lstm else finals[0]
        return PackedSequence(out, batch_sizes, sorted_indices, unsorted_indices), hidden

    def _run_packed(self, data: Tensor, sizes: list, states: list) -> tuple:
        """:meth:`_run` over packed ``data``: step ``t`` is ``sizes[t]`` rows, the sequences
        still running. Forwards, a sequence that ends leaves its state behind (the batch only
        shrinks); backwards, the steps run last to first and a sequence joins with its
        initial state at its last step (the batch only grows). PyTorch's packed layers."""
        cell = _CELLS[self.mode]
        is_lstm = self.mode == "LSTM"
        directions = 2 if self.bidirectional else 1
        starts = [0]
        for size in sizes[:-1]:
            starts.append(starts[-1] + size)

        def rows(state, begin, end):  # rows begin:end of a state (both halves of an LSTM's)
            return tuple(s[begin:end] for s in state) if is_lstm else state[begin:end]

        def join(parts):
            return tuple(_shape.cat(p, 0) for p in zip(*parts)) if is_lstm else \
                _shape.cat(parts, 0)

        finals = []
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                w_ih, w_hh, b_ih, b_hh = self._layer_weights(layer, direction)
                initial = states[layer * directions + direction]
                x_proj = F.linear(data, w_ih, b_ih)
                hs = [None] * len(sizes)
                if direction == 0:
                    state, ended, last = initial, [], sizes[0]
                    for t, size in enumerate(sizes):
                        if size < last:  # sequences size:last have ended
                            ended.append(rows(state, size, last))
                            state = rows(state, 0, size)
                        last = size
                        state = cell(x_proj[starts[t]:starts[t] + size], state, w_hh, b_hh)
                        hs[t] = state[0] if is_lstm else state
                    final = join([state, *reversed(ended)]) if ended else state
                else:
                    last = sizes[-1]
                    state = rows(initial, 0, last)
                    for t in range(len(sizes) - 1, -1, -1):
                        size = sizes[t]
                        if size > last:  # sequences last:size start here
                            state = join([state, rows(initial, last, size)])
                        last = size
                        state = cell(x_proj[starts[t]:starts[t] + size], state, w_hh, b_hh)
                        hs[t] = state[0] if is_lstm else state
                    final = state
                finals.append(final)
                outputs.append(_shape.cat(hs, 0))
            data = self._layer_output(outputs, layer)
        return data, finals

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s


class RNN(RNNBase):
    """An Elman RNN: ``h_t = tanh(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh)``.

    Args:
        input_size, hidden_size: the sizes of ``x_t`` and ``h_t``.
        num_layers: stacked layers (each reads the outputs of the one below).
        nonlinearity: ``"tanh"`` (default) or ``"relu"``.
        bias, batch_first, dropout, bidirectional: as in PyTorch.

    Call it as ``output, h_n = rnn(input, h_0=None)``; ``input`` is ``(L, N, input_size)``
    (``(N, L, input_size)`` with ``batch_first=True``, or ``(L, input_size)`` unbatched).
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 nonlinearity: str = "tanh", bias: bool = True, batch_first: bool = False,
                 dropout: float = 0.0, bidirectional: bool = False, device=None,
                 dtype=None) -> None:
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or "
                             "'relu'.")
        self.nonlinearity = nonlinearity
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size,
                         hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         device=device, dtype=dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None):  # noqa: A002
        return self._forward(input, hx)


class LSTM(RNNBase):
    """Long short-term memory: a hidden state ``h`` and a memory cell ``c`` that gates decide
    what to forget, what to write and what to show.

    Call it as ``output, (h_n, c_n) = lstm(input, (h_0, c_0))`` (the state may be omitted).
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device=None,
                 dtype=None) -> None:
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, proj_size, device=device, dtype=dtype)

    def forward(self, input: Tensor, hx: tuple | None = None):  # noqa: A002
        return self._forward(input, hx)


class GRU(RNNBase):
    """Gated recurrent unit: a reset gate ``r`` and an update gate ``z`` around a tanh cell.

    Call it as ``output, h_n = gru(input, h_0=None)``.
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, device=None, dtype=None) -> None:
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, device=device, dtype=dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None):  # noqa: A002
        return self._forward(input, hx)


# ---------------------------------------------------------------- cells: one step
class RNNCellBase(Module):
    """What the cells share: ``weight_ih``, ``weight_hh``, ``bias_ih``, ``bias_hh``."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int,
                 device=None, dtype=None) -> None:
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        kw = {"dtype": dtype, "device": device}
        self.weight_ih = Parameter(_creation.empty(num_chunks * hidden_size, input_size, **kw))
        self.weight_hh = Parameter(_creation.empty(num_chunks * hidden_size, hidden_size, **kw))
        if bias:
            self.bias_ih = Parameter(_creation.empty(num_chunks * hidden_size, **kw))
            self.bias_hh = Parameter(_creation.empty(num_chunks * hidden_size, **kw))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _prepare(self, input: Tensor, hx, n_states: int):  # noqa: A002
        if input.dim() not in (1, 2):
            raise ValueError(f"{type(self).__name__}: Expected input to be 1D or 2D, got "
                             f"{input.dim()}D instead")
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.shape[-1]} "
                               f"expected {self.input_size}")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)  # noqa: A001
        if hx is None:
            zeros = _creation.zeros(input.shape[0], self.hidden_size, dtype=input.dtype,
                                    device=input.device)
            hx = (zeros,) * n_states
        else:
            if n_states > 1:  # LSTMCell: (h, c)
                if isinstance(hx, Tensor):
                    raise TypeError("lstm_cell(): argument 'hx' (position 2) must be tuple of "
                                    "Tensors, not Tensor")
                if len(hx) != n_states:
                    raise RuntimeError("lstm_cell expects two hidden states")
            hx = tuple(hx) if n_states > 1 else (hx,)
            for i, h in enumerate(hx):
                if h.dim() not in (1, 2):
                    which = f"hx[{i}]" if n_states > 1 else "hidden"
                    raise ValueError(f"{type(self).__name__}: Expected {which} to be 1D or 2D, "
                                     f"got {h.dim()}D instead")
            if not batched:
                hx = tuple(h.unsqueeze(0) for h in hx)
            for i, h in enumerate(hx):  # the batch, then the hidden size, of each state
                if h.shape[0] != input.shape[0]:
                    raise RuntimeError(f"Input batch size {input.shape[0]} doesn't match "
                                       f"hidden{i} batch size {h.shape[0]}")
                if h.shape[1] != self.hidden_size:
                    raise RuntimeError(f"hidden{i} has inconsistent hidden_size: got "
                                       f"{h.shape[1]}, expected {self.hidden_size}")
        return input, hx, batched

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        nonlinearity = getattr(self, "nonlinearity", "tanh")
        if nonlinearity != "tanh":
            s += f", nonlinearity={nonlinearity}"
        return s


class RNNCell(RNNCellBase):
    """One step of :class:`RNN`: ``h' = tanh(W_ih x + b_ih + W_hh h + b_hh)``."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 nonlinearity: str = "tanh", device=None, dtype=None) -> None:
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity: {nonlinearity}")
        self.nonlinearity = nonlinearity
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:  # noqa: A002
        x, (h,), batched = self._prepare(input, hx, 1)
        cell = rnn_tanh_cell if self.nonlinearity == "tanh" else rnn_relu_cell
        out = cell(F.linear(x, self.weight_ih, self.bias_ih), h, self.weight_hh, self.bias_hh)
        return out if batched else out.squeeze(0)


class LSTMCell(RNNCellBase):
    """One step of :class:`LSTM`: returns ``(h', c')``."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(self, input: Tensor, hx: tuple | None = None) -> tuple:  # noqa: A002
        x, (h, c), batched = self._prepare(input, hx, 2)
        h, c = lstm_cell(F.linear(x, self.weight_ih, self.bias_ih), (h, c), self.weight_hh,
                         self.bias_hh)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One step of :class:`GRU`."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:  # noqa: A002
        x, (h,), batched = self._prepare(input, hx, 1)
        out = gru_cell(F.linear(x, self.weight_ih, self.bias_ih), h, self.weight_hh,
                       self.bias_hh)
        return out if batched else out.squeeze(0)
