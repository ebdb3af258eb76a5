"""``autograd.functional``: derivatives of a whole function, ``f(inputs) -> outputs``.

Chapter 05 explains backward as a *vector-Jacobian product*: given ``v`` (the gradient of the
loss with respect to ``f``'s output), backward returns ``v^T J``, never ``J`` itself. This
module puts names on that idea and builds the rest from it:

* :func:`vjp` -- ``v^T J``: one backward pass;
* :func:`jacobian` -- ``J``: one backward pass per output element (each with a one-hot ``v``);
* :func:`jvp` -- ``J u``: forward-mode, obtained here with the *double-backward trick*: the
  vjp ``g(v) = J^T v`` is linear in ``v``, so its own vjp with ``u`` is ``J u``;
* :func:`hessian`, :func:`hvp`, :func:`vhp` -- second derivatives: the Jacobian of the gradient.

``inputs`` is a Tensor or a tuple of Tensors; results follow the same structure, as in
PyTorch. Results are detached unless ``create_graph=True``. ``vectorize`` and ``strategy`` are
accepted for compatibility: minitorch always loops over the rows in reverse mode.

Example:
    >>> import minitorch
    >>> from minitorch.autograd.functional import jacobian, hessian
    >>> jacobian(lambda x: x ** 2, minitorch.tensor([1.0, 2.0]))
    tensor([[2., 0.],
            [0., 4.]])
    >>> hessian(lambda x: (x ** 3).sum(), minitorch.tensor([1.0, 2.0]))
    tensor([[ 6.,  0.],
            [ 0., 12.]])
"""

from __future__ import annotations

from collections.abc import Callable

from minitorch.autograd import engine, grad_mode

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def _tensor_type():
    from minitorch._tensor import Tensor

    return Tensor


def _as_tuple(x, arg_name: str, fn_name: str) -> tuple[tuple, bool]:
    """``(tuple_of_tensors, was_a_tuple)``, with PyTorch's TypeError for anything else."""
    Tensor = _tensor_type()  # noqa: N806
    is_tuple = isinstance(x, tuple)
    items = tuple(x) if is_tuple else (x,)
    for i, el in enumerate(items):
        if not isinstance(el, Tensor):
            if is_tuple:
                raise TypeError(
                    f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of "
                    f"Tensors but the value at index {i} has type {type(el)}.")
            raise TypeError(
                f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of "
                f"Tensors but the given {arg_name} has type {type(el)}.")
    return items, is_tuple


def _unpack(items: tuple, is_tuple: bool):
    return items if is_tuple else items[0]


def _prepare_inputs(inputs: tuple, create_graph: bool) -> tuple:
    """Fresh tensors to differentiate with respect to. With ``create_graph`` they stay
    connected to the caller's graph, so the results can be differentiated again."""
    out = []
    for t in inputs:
        if create_graph and t.requires_grad:
            out.append(t.view_as(t))
        else:
            out.append(t.detach().requires_grad_(True))
    return tuple(out)


def _check_v(v: tuple, other: tuple, is_other_tuple: bool) -> None:
    if len(v) != len(other):
        if is_other_tuple:
            raise RuntimeError(
                f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for i, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.shape != el_other.shape:
            prepend = f"Entry {i} in " if is_other_tuple else ""
            raise RuntimeError(f"{prepend}v has invalid size: should be {el_other.shape} but "
                               f"got {el_v.shape}.")


def _grads(outputs: tuple, inputs: tuple, grad_outputs: tuple, create_graph: bool,
           retain_graph: bool = True) -> tuple:
    """``autograd.grad`` of the outputs that require grad; None where nothing depends."""
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return engine.grad([o for o, _ in pairs], inputs, [g for _, g in pairs],
                       retain_graph=retain_graph, create_graph=create_graph, allow_unused=True)


def _fill_zeros(grads: tuple, refs: tuple, strict: bool, message: str) -> tuple:
    from minitorch._creation import zeros_like

    out = []
    for i, (g, ref) in enumerate(zip(grads, refs)):
        if g is None:
            if strict:
                raise RuntimeError(message.format(i=i))
            g = zeros_like(ref)
        out.append(g)
    return tuple(out)


def _check_outputs_require_grad(outputs: tuple, strict: bool) -> None:
    if strict:
        for i, o in enumerate(outputs):
            if not o.requires_grad:
                raise RuntimeError(
                    f"Output {i} of the user-provided function does not require gradients. "
                    "The outputs must be computed in a differentiable manner from the input "
                    "when running in strict mode.")


def _finish(items: tuple, create_graph: bool) -> tuple:
    return tuple(t if create_graph else t.detach() for t in items)


_INDEPENDENT = ("The output of the user-provided function is independent of input {i}. This "
                "is not allowed in strict mode.")


def vjp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), v^T J)``: the vector-Jacobian product, which is what backward computes.

    ``v`` has the shape of ``func``'s output (it may be omitted when that is one element).

    >>> import minitorch
    >>> out, g = vjp(lambda x: x * 3, minitorch.ones(2), minitorch.tensor([1.0, 10.0]))
    >>> g
    tensor([ 3., 30.])
    """
    Tensor = _tensor_type()  # noqa: N806
    with grad_mode.enable_grad():
        inputs_t, is_inputs_tuple = _as_tuple(inputs, "inputs", "vjp")
        inputs_t = _prepare_inputs(inputs_t, create_graph)
        outputs_t, is_outputs_tuple = _as_tuple(func(*inputs_t), "outputs of the user-provided "
                                                "function", "vjp")
        _check_outputs_require_grad(outputs_t, strict)
        if v is not None:
            v_t, _ = _as_tuple(v, "v", "vjp")
            _check_v(v_t, outputs_t, is_outputs_tuple)
        else:
            if len(outputs_t) != 1 or outputs_t[0].numel() != 1:
                raise RuntimeError("The vector v can only be None if the user-provided "
                                   "function returns a single Tensor with a single element.")
            from minitorch._creation import ones_like

            v_t = (ones_like(outputs_t[0]),)
        grads = _grads(outputs_t, inputs_t, v_t, create_graph)
        grads = _fill_zeros(grads, inputs_t, strict, _INDEPENDENT)
    assert all(isinstance(g, Tensor) for g in grads)
    return (_unpack(_finish(outputs_t, create_graph), is_outputs_tuple),
            _unpack(_finish(grads, create_graph), is_inputs_tuple))


def jvp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), J u)``: the Jacobian-vector product (a directional derivative).

    Computed with two backward passes (the double-backward trick): ``g(w) = J^T w`` is linear
    in ``w``, and the vjp of ``g`` with ``u`` is ``J u``.

    >>> import minitorch
    >>> out, d = jvp(lambda x: x ** 2, minitorch.tensor([1.0, 2.0]), minitorch.ones(2))
    >>> d
    tensor([2., 4.])
    """
    from minitorch._creation import ones_like, zeros_like

    with grad_mode.enable_grad():
        inputs_t, is_inputs_tuple = _as_tuple(inputs, "inputs", "jvp")
        inputs_t = _prepare_inputs(inputs_t, create_graph)
        if v is not None:
            v_t, _ = _as_tuple(v, "v", "jvp")
            _check_v(v_t, inputs_t, is_inputs_tuple)
        else:
            if len(inputs_t) != 1 or inputs_t[0].numel() != 1:
                raise RuntimeError("The vector v can only be None if the input to the "
                                   "user-provided function is a single Tensor with a single "
                                   "element.")
            v_t = (ones_like(inputs_t[0]),)
        outputs_t, is_outputs_tuple = _as_tuple(func(*inputs_t), "outputs of the user-provided "
                                                "function", "jvp")
        _check_outputs_require_grad(outputs_t, strict)
        # w: a dummy cotangent for each output; g(w) = J^T w is linear in w
        w = tuple(zeros_like(o).requires_grad_(True) for o in outputs_t)
        g = _grads(outputs_t, inputs_t, w, create_graph=True)
        g = _fill_zeros(g, inputs_t, strict, _INDEPENDENT)
        # d/dw <g(w), u> = J u
        pairs = [(gi, vi) for gi, vi in zip(g, v_t) if gi.requires_grad]
        if pairs:
            result = engine.grad([p for p, _ in pairs], w, [u for _, u in pairs],
                                 retain_graph=True, create_graph=create_graph,
                                 allow_unused=True)
        else:
            result = (None,) * len(w)
        result = _fill_zeros(result, outputs_t, strict, (
            "The gradient with respect to the input is independent of entry {i} in the "
            "grad_outputs when using the double backward trick to compute forward mode "
            "gradients. This is not allowed in strict mode."))
    return (_unpack(_finish(outputs_t, create_graph), is_outputs_tuple),
            _unpack(_finish(result, create_graph), is_outputs_tuple))


def jacobian(func: Callable, inputs, create_graph: bool = False, strict: bool = False,
             vectorize: bool = False, strategy: str = "reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``: entry ``[i..., j...]`` is
    ``d output[i...] / d input[j...]``, so its shape is ``output.shape + input.shape``.

    For tuples of inputs (and/or outputs) the result is a tuple (of tuples), indexed
    ``[output][input]`` as in PyTorch. One backward pass per output element.

    >>> import minitorch
    >>> jacobian(lambda a, b: a * b, (minitorch.tensor(2.0), minitorch.tensor(3.0)))
    (tensor(3.), tensor(2.))
    """
    from minitorch._creation import zeros
    from minitorch.ops.shape import stack

    if strategy not in ("forward-mode", "reverse-mode"):
        raise ValueError('Expected strategy to be either "forward-mode" or "reverse-mode". '
                         "Hint: If your function has more outputs than inputs, \"forward-mode\" "
                         "tends to be more performant. Otherwise, prefer to use "
                         '"reverse-mode".')
    if strategy == "forward-mode" and not vectorize:
        raise NotImplementedError("torch.autograd.functional.jacobian: `strategy=\"forward-mode"
                                  "\"` is only implemented with `vectorize=True`.")
    with grad_mode.enable_grad():
        inputs_t, is_inputs_tuple = _as_tuple(inputs, "inputs", "jacobian")
        inputs_t = _prepare_inputs(inputs_t, create_graph)
        outputs_t, is_outputs_tuple = _as_tuple(func(*inputs_t), "outputs of the user-provided "
                                                "function", "jacobian")
        _check_outputs_require_grad(outputs_t, strict)
        jac: list[tuple] = []
        for out in outputs_t:
            rows: list[list] = [[] for _ in inputs_t]
            flat = out.reshape(-1)
            for k in range(flat.numel()):
                if out.requires_grad:
                    row = engine.grad(flat[k], inputs_t, retain_graph=True,
                                      create_graph=create_graph, allow_unused=True)
                else:
                    row = (None,) * len(inputs_t)
                for j, (g, inp) in enumerate(zip(row, inputs_t)):
                    if g is None:
                        if strict:
                            raise RuntimeError(
                                f"Output {len(jac)} of the user-provided function is "
                                f"independent of input {j}. This is not allowed in strict "
                                "mode.")
                        g = zeros(*inp.shape, dtype=inp.dtype, device=inp.device)
                    rows[j].append(g)
            blocks = []
            for j, inp in enumerate(inputs_t):
                if rows[j]:
                    block = stack(rows[j], 0).reshape(*out.shape, *inp.shape)
                else:  # an empty output
                    block = zeros(*out.shape, *inp.shape, dtype=inp.dtype, device=inp.device)
                blocks.append(block if create_graph else block.detach())
            jac.append(tuple(blocks))
    if is_outputs_tuple:
        return tuple(_unpack(row, is_inputs_tuple) for row in jac)
    return _unpack(jac[0], is_inputs_tuple)


def hessian(func: Callable, inputs, create_graph: bool = False, strict: bool = False,
            vectorize: bool = False, outer_jacobian_strategy: str = "reverse-mode"):
    """The Hessian of a scalar function: the Jacobian of its gradient. Its shape is
    ``input.shape + input.shape`` (a tuple of tuples for several inputs).

    >>> import minitorch
    >>> hessian(lambda x: (x[0] * x[1]), minitorch.tensor([1.0, 2.0]))
    tensor([[0., 1.],
            [1., 0.]])
    """
    inputs_t, is_inputs_tuple = _as_tuple(inputs, "inputs", "hessian")

    def gradient(*inp):
        out = func(*inp)
        out_t, is_out_tuple = _as_tuple(out, "outputs of the user-provided function", "hessian")
        if is_out_tuple or out_t[0].numel() != 1:
            raise RuntimeError("The function given to hessian should return a single Tensor "
                               "with a single element.")
        if not out_t[0].requires_grad:
            if strict:
                raise RuntimeError("Output 0 of the user-provided function does not require "
                                   "gradients. The outputs must be computed in a "
                                   "differentiable manner from the input when running in "
                                   "strict mode.")
            from minitorch._creation import zeros_like

            return tuple(zeros_like(i).requires_grad_(True) for i in inp)
        grads = engine.grad(out_t[0].reshape(()), inp, create_graph=True, allow_unused=True)
        return _fill_zeros(grads, inp, strict, (
            "The jacobian of the user-provided function is independent of input {i}. This is "
            "not allowed in strict mode."))

    res = jacobian(gradient, inputs_t, create_graph=create_graph, strict=strict,
                   vectorize=vectorize, strategy=outer_jacobian_strategy)
    if is_inputs_tuple:
        return res
    return res[0][0] if isinstance(res, tuple) and isinstance(res[0], tuple) else res[0]


def vhp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), v^T H)``: a vector-Hessian product, without forming ``H``."""
    return _second_order(func, inputs, v, create_graph, strict, "vhp")


def hvp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), H v)``: a Hessian-vector product (``H`` is symmetric, so this equals
    :func:`vhp` for twice-differentiable functions)."""
    return _second_order(func, inputs, v, create_graph, strict, "hvp")


def _second_order(func, inputs, v, create_graph, strict, name):
    from minitorch._creation import ones_like

    with grad_mode.enable_grad():
        inputs_t, is_inputs_tuple = _as_tuple(inputs, "inputs", name)
        inputs_t = _prepare_inputs(inputs_t, create_graph)
        if v is not None:
            v_t, _ = _as_tuple(v, "v", name)
            _check_v(v_t, inputs_t, is_inputs_tuple)
        else:
            if len(inputs_t) != 1 or inputs_t[0].numel() != 1:
                raise RuntimeError("The vector v can only be None if the input to the "
                                   "user-provided function is a single Tensor with a single "
                                   "element.")
            v_t = (ones_like(inputs_t[0]),)
        outputs_t, is_outputs_tuple = _as_tuple(func(*inputs_t), "outputs of the user-provided "
                                                "function", name)
        if is_outputs_tuple or outputs_t[0].numel() != 1:
            raise RuntimeError("The function given to hvp should return a single Tensor "
                               "with a single element.".replace("hvp", name))
        _check_outputs_require_grad(outputs_t, strict)
        out = outputs_t[0]
        jac = _grads((out,), inputs_t, (ones_like(out),), create_graph=True)
        jac = _fill_zeros(jac, inputs_t, strict, _INDEPENDENT)
        pairs = [(j, u) for j, u in zip(jac, v_t) if j.requires_grad]
        if pairs:
            res = engine.grad([j for j, _ in pairs], inputs_t, [u for _, u in pairs],
                              retain_graph=True, create_graph=create_graph, allow_unused=True)
        else:
            res = (None,) * len(inputs_t)
        res = _fill_zeros(res, inputs_t, strict, (
            "The hessian of the user-provided function with respect to input {i} is "
            "independent of the input. This is not allowed in strict mode."))
    return (_finish((out,), create_graph)[0], _unpack(_finish(res, create_graph),
                                                        is_inputs_tuple))
