"""``torch.func``: composable function transforms, built on minitorch's own autograd.

A *function transform* takes a function and returns a new one: ``grad(f)`` computes the
gradient of ``f``, ``vmap(f)`` runs ``f`` over a batch. They nest: ``grad(grad(f))``,
``jacrev(jacrev(f))``, ``vmap(grad(f))`` (per-sample gradients).

How minitorch does it, with no second set of derivative formulas:

* **grad, vjp, jacrev** run ``f`` on fresh tensors that require grad and call
  ``autograd.grad`` on its output. An input that already requires grad (because an outer
  transform, or the caller, differentiates it) is entered as a view of itself instead, so the
  result stays connected to it; the result keeps its graph (``create_graph=True``) exactly when
  the output's graph reaches a tensor that this transform did not create, so
  ``grad(f)(x)`` is a plain tensor, while inside ``grad(grad(f))`` the inner gradient can be
  differentiated again. Every backward formula is written in tensor ops, so that is enough.
* **jvp, jacfwd** use the *double-vjp trick*: the vjp ``g(u) = J^T u`` is linear in ``u``, so
  the vjp of ``g`` with the tangent ``t`` is ``J t``. No forward-mode formulas are needed.
* **hessian** is ``jacfwd(jacrev(f))``, as in PyTorch.
* **vmap** runs ``func`` once per slice of the batch and stacks the results. The values are
  those of PyTorch's batching rules, not their speed.

Example:
    >>> import minitorch
    >>> from minitorch.func import grad, vmap
    >>> x = minitorch.tensor([0.0, 1.0])
    >>> grad(lambda x: (x ** 3).sum())(x)
    tensor([0., 3.])
    >>> vmap(grad(lambda x: x.sin()))(x)
    tensor([1.0000, 0.5403])
"""

from __future__ import annotations

import collections
import contextlib
import functools
import itertools
import threading
from collections.abc import Callable, Sequence
from typing import Any

from minitorch._random import Generator, default_generator
from minitorch._tensor import Tensor
from minitorch.autograd import engine, grad_mode
from minitorch.autograd import function as _function
from minitorch.autograd.function import AccumulateGrad

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap",
           "functional_call", "stack_module_state", "replace_all_batch_norm_modules_",
           "linearize", "functionalize", "debug_unwrap"]


# ------------------------------------------------------------------------------ pytrees
class TreeSpec:
    """The shape of a nested tuple/list/dict, as ``torch.utils._pytree`` prints it."""

    def __init__(self, type_: type, context: Any, children: list) -> None:
        self.type, self._context, self._children = type_, context, children
        self.num_leaves = sum(c.num_leaves for c in children)

    def __eq__(self, other) -> bool:
        return (type(other) is type(self) and self.type is other.type
                and self._context == other._context and self._children == other._children)

    def __repr__(self, indent: int = 0) -> str:
        text = ""
        if self._children:
            indent += 2
            text = self._children[0].__repr__(indent) + ("," if len(self._children) > 1 else "")
            text += ",".join("\n" + " " * indent + c.__repr__(indent) for c in self._children[1:])
        return f"TreeSpec({self.type.__name__}, {self._context}, [{text}])"

    def pprint(self) -> str:
        inner = [c.pprint() for c in self._children]
        if self._context is not None:
            return "{" + ", ".join(f"{k!r}: {v}" for k, v in zip(self._context, inner)) + "}"
        if self.type is list:
            return "[" + ", ".join(inner) + "]"
        return "(" + ", ".join(inner) + ("," if len(inner) == 1 else "") + ")"


class LeafSpec(TreeSpec):
    def __init__(self) -> None:
        super().__init__(object, None, [])
        self.num_leaves = 1

    def __eq__(self, other) -> bool:
        return isinstance(other, LeafSpec)

    def __repr__(self, indent: int = 0) -> str:
        return "*"

    def pprint(self) -> str:
        return "*"


_LEAF = LeafSpec()


def _children(node) -> tuple | None:
    """``(type, context, children)`` of a tuple, list, namedtuple, dict or OrderedDict (the
    containers PyTorch's pytrees take apart); None for a leaf."""
    if type(node) in (tuple, list) or (isinstance(node, tuple) and hasattr(node, "_fields")):
        return type(node), None, list(node)
    if type(node) in (dict, collections.OrderedDict):
        return type(node), list(node), list(node.values())
    return None


def tree_flatten(tree) -> tuple[list, TreeSpec]:
    """``(leaves, spec)``: tuples, lists and dicts are nodes, everything else a leaf."""
    leaves: list = []

    def go(node) -> TreeSpec:
        parts = _children(node)
        if parts is None:
            leaves.append(node)
            return _LEAF
        return TreeSpec(parts[0], parts[1], [go(c) for c in parts[2]])

    spec = go(tree)
    return leaves, spec


def tree_unflatten(leaves, spec: TreeSpec):
    it = iter(leaves)

    def go(s: TreeSpec):
        if isinstance(s, LeafSpec):
            return next(it)
        kids = [go(c) for c in s._children]
        if s._context is not None:  # a dict or an OrderedDict
            return s.type(zip(s._context, kids))
        return s.type(*kids) if hasattr(s.type, "_fields") else s.type(kids)

    return go(spec)


def _tree_map(fn, tree):
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(x) for x in leaves], spec)


def _broadcast_to_and_flatten(tree, spec: TreeSpec) -> list | None:
    """``tree`` (a prefix of ``spec``: a leaf stands for a whole subtree) as one value per
    leaf of ``spec``; None when the structures do not match."""
    parts = _children(tree)
    if parts is None:
        return [tree] * spec.num_leaves
    if isinstance(spec, LeafSpec) or parts[0] is not spec.type or parts[1] != spec._context \
            or len(parts[2]) != len(spec._children):
        return None
    out: list = []
    for sub, sub_spec in zip(parts[2], spec._children):
        flat = _broadcast_to_and_flatten(sub, sub_spec)
        if flat is None:
            return None
        out += flat
    return out


# -------------------------------------------------------------------- argnums, checks
def _validate_and_wrap_argnum(argnum: int, num_args: int) -> int:
    if not isinstance(argnum, int):
        raise RuntimeError(f"argnum must be int, got: {type(argnum)}")
    if 0 <= argnum < num_args:
        return argnum
    if -num_args <= argnum < 0:
        return argnum + num_args
    raise RuntimeError(f"Got argnum={argnum}, but only {num_args} positional inputs")


def _wrap_argnums(argnums, num_args: int):
    """``argnums`` checked and made non-negative, as PyTorch's ``_slice_argnums``."""
    if not isinstance(argnums, (int, tuple)):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    if isinstance(argnums, int):
        return _validate_and_wrap_argnum(argnums, num_args)
    wrapped = tuple(_validate_and_wrap_argnum(a, num_args) for a in argnums)
    if len(argnums) == 0:
        raise RuntimeError("argnums must be non-empty")
    if len(set(argnums)) != len(argnums):
        raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    return wrapped


def _check_tensors(tree, what=None) -> list:
    """The leaves of ``tree``, which must be tensors (PyTorch's ``_undo_create_differentiable``
    error otherwise)."""
    leaves = tree_flatten(tree)[0]
    for x in leaves:
        if not isinstance(x, Tensor):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(x)}")
    return leaves


def _split_aux(output, has_aux: bool, api: str):
    if not has_aux:
        return output, None, []
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(f"{api}: output of function f should be a tuple: (output, aux) "
                           "if has_aux is True")
    return output[0], output[1], _check_tensors(output[1])


def _check_outputs(flat: list, api: str) -> None:
    if (len(flat) == 1 and flat[0] is None) or len(flat) < 1:
        raise RuntimeError(f"{api}: Expected f to be a function that has non-empty output "
                           f"(got output = {flat})")
    for o in flat:
        if not isinstance(o, Tensor):
            raise RuntimeError(f"{api}: expected f(*primals) to return only tensors, got "
                               f"unsupported type {type(o)}")


# ------------------------------------------------------------ differentiating, levels
_serials = itertools.count()


class _Level:
    """One differentiating transform at work: the tensors it made differentiable, and whether
    grad mode was on when it was called (under ``no_grad`` its results carry no graph)."""

    def __init__(self) -> None:
        self.ours: dict[int, Tensor] = {}
        self.grad_enabled = grad_mode.is_grad_enabled()
        self.serial = next(_serials)  # levels made later than this one are nested in it

    def differentiable(self, x) -> Tensor:
        """``x`` entered into this transform: a fresh leaf, or a view of ``x`` when something
        outside already differentiates ``x`` (then the result stays connected to it)."""
        if not isinstance(x, Tensor):
            raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
        if x.requires_grad:
            return x.view_as(x)
        if x.is_inference() and not grad_mode.is_inference_mode_enabled():
            x = x.clone()  # (an inference tensor may not be saved for backward: a normal copy)
        return self.leaf(x.detach().requires_grad_(True))

    def leaf(self, t: Tensor) -> Tensor:
        self.ours[id(t)] = t
        t._func_level = self.serial  # (a transform's own leaf, never an outside variable)
        return t

    def _inside(self, t: Tensor) -> bool:
        """A leaf this transform made, or one a transform nested in it made (the graph of an
        inner ``grad`` that closes over our variable ends at the inner's own leaf too)."""
        return id(t) in self.ours or getattr(t, "_func_level", -1) > self.serial

    def reaches_outside(self, tensors) -> bool:
        """Whether the graph of ``tensors`` reaches a leaf this transform did not create: then
        someone outside differentiates through us, and our results must keep their graph."""
        if not self.grad_enabled:
            return False
        stack, seen = [], set()
        for t in tensors:
            if isinstance(t, Tensor) and t.requires_grad:
                if t.grad_fn is None:
                    if not self._inside(t):
                        return True
                else:
                    stack.append(t.grad_fn)
        while stack:
            node = stack.pop()
            if node is None or id(node) in seen:
                continue
            seen.add(id(node))
            if isinstance(node, AccumulateGrad):
                if not self._inside(node.variable):
                    return True
                continue
            stack.extend(n for n, _ in node.next_functions)
        return False


def _normal_tensors(fn: Callable) -> Callable:
    """``fn`` run with ``inference_mode`` off (grad mode as it was): PyTorch's differentiating
    transforms work, and make their results, as normal tensors even when called under
    ``inference_mode``; only ``vmap`` makes inference tensors there, as plain ops do."""

    @functools.wraps(fn)
    def run(*args, **kwargs):
        if not grad_mode.is_inference_mode_enabled():
            return fn(*args, **kwargs)
        enabled = grad_mode.is_grad_enabled()
        with grad_mode.inference_mode(False), grad_mode.set_grad_enabled(enabled):
            return fn(*args, **kwargs)

    return run


def _detach_tree(tree, keep: bool):
    if keep:
        return tree
    return _tree_map(lambda x: x.detach() if isinstance(x, Tensor) else x, tree)


def _autograd_grad(outputs, inputs, grad_outputs=None, retain_graph=True,
                   create_graph=False) -> tuple:
    """``autograd.grad`` of the outputs that require grad; zeros where nothing depends (as
    PyTorch's ``_autograd_grad``)."""
    from minitorch._creation import zeros_like

    if grad_outputs is None:
        pairs = [(o, None) for o in outputs if o.requires_grad]
    else:
        pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    grads: tuple = (None,) * len(inputs)
    if pairs:
        grads = engine.grad([o for o, _ in pairs], list(inputs),
                            None if grad_outputs is None else [g for _, g in pairs],
                            retain_graph=retain_graph, create_graph=create_graph,
                            allow_unused=True)
    return tuple(zeros_like(x) if g is None else g for g, x in zip(grads, inputs))


def _enter_args(level: _Level, args: tuple, argnums) -> tuple[tuple, list, TreeSpec]:
    """``args`` with the arguments named by ``argnums`` (all of them when None) made
    differentiable; also the flat list of those tensors and their structure."""
    if argnums is None:
        flat, spec = tree_flatten(args)
        new = [level.differentiable(x) for x in flat]
        return tree_unflatten(new, spec), new, spec
    argnums = _wrap_argnums(argnums, len(args))
    picked = args[argnums] if isinstance(argnums, int) else tuple(args[i] for i in argnums)
    flat, spec = tree_flatten(picked)
    new = [level.differentiable(x) for x in flat]
    replaced = tree_unflatten(new, spec)
    args = list(args)
    if isinstance(argnums, int):
        args[argnums] = replaced
    else:
        for i, value in zip(argnums, replaced):
            args[i] = value
    return tuple(args), new, spec


# ---------------------------------------------------------------------- grad and vjp
def grad_and_value(func: Callable, argnums=0, has_aux: bool = False) -> Callable:
    """``grad_and_value(func)(*args)`` returns ``(gradient, value)`` of the scalar ``func``
    (``(gradient, (value, aux))`` with ``has_aux``). ``argnums`` picks the argument(s) to
    differentiate (an int, or a tuple for a tuple of gradients); an argument may be a
    tuple/list/dict of tensors, and its gradient has the same structure."""

    @functools.wraps(func)
    @_normal_tensors
    def wrapper(*args, **kwargs):
        level = _Level()
        with grad_mode.enable_grad():
            args, flat_diff, spec = _enter_args(level, args, argnums)
            output = func(*args, **kwargs)
            output, aux, flat_aux = _split_aux(output, has_aux, "grad_and_value(f)(*args)")
            if not isinstance(output, Tensor):
                raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a "
                                   f"Tensor, got {type(output)}")
            if output.dim() != 0:
                raise RuntimeError(
                    "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, "
                    f"got tensor with {output.dim()} dims. Maybe you wanted to use the vjp or "
                    "jacrev APIs instead?")
            keep = level.reaches_outside([output, *flat_aux])
            grads = _autograd_grad([output], flat_diff, create_graph=keep)
        grads = tree_unflatten(grads, spec)
        value = _detach_tree(output, keep)
        if has_aux:
            return grads, (value, _detach_tree(aux, keep))
        return grads, value

    return wrapper


def grad(func: Callable, argnums=0, has_aux: bool = False) -> Callable:
    """``grad(func)(*args)``: the gradient of the scalar ``func`` with respect to
    ``args[argnums]`` (``(gradient, aux)`` with ``has_aux``). The inputs need not require
    grad; the result carries a graph only when an outer transform (or the caller's autograd)
    differentiates through it, so ``grad(grad(f))`` works.

    >>> import minitorch
    >>> from minitorch.func import grad
    >>> grad(grad(lambda x: x.sin()))(minitorch.tensor(0.5))
    tensor(-0.4794)
    """
    g_and_v = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        grads, value = g_and_v(*args, **kwargs)
        return (grads, value[1]) if has_aux else grads

    return wrapper


class _Traced:
    """``func`` run once (in grad mode) on ``primals`` entered into a fresh level: the
    differentiable inputs (``flat_diff``), the outputs (``flat_out``), and whether they reach
    a variable outside (``keep``: then they keep their graph)."""

    def _trace(self, func, primals: tuple, argnums, has_aux: bool, api: str) -> tuple:
        """Fill in the above; ``(out, aux)`` as ``func`` gave them."""
        self.level = level = _Level()  # (made first: it notes whether grad mode was on)
        with grad_mode.enable_grad():
            args, self.flat_diff, self.diff_spec = _enter_args(level, primals, argnums)
            out, aux, flat_aux = _split_aux(func(*args), has_aux, api)
            self.flat_out, self.out_spec = tree_flatten(out)
            _check_outputs(self.flat_out, api)
            self.keep = level.reaches_outside(self.flat_out + flat_aux)
        return out, aux


class _VJP(_Traced):
    """``func`` run once on differentiable inputs: its outputs, ready for any number of
    vector-Jacobian products."""

    def __init__(self, func, primals: tuple, argnums, has_aux: bool, api="vjp(f, *primals)"):
        out, aux = self._trace(func, primals, argnums, has_aux, api)
        for o in self.flat_out:
            if not o.is_floating_point():
                raise RuntimeError("vjp(f, ...): All outputs of f must be floating-point or "
                                   f"complex Tensors, got Tensor with dtype {o.dtype}")
        self.out = _detach_tree(out, self.keep)
        self.aux = _detach_tree(aux, self.keep)

    def grads(self, flat_cotangents: list, retain_graph=True, create_graph=True) -> tuple:
        with grad_mode.enable_grad():
            need = create_graph and self.level.reaches_outside(self.flat_out + flat_cotangents)
            return _autograd_grad(self.flat_out, self.flat_diff, flat_cotangents,
                                  retain_graph=retain_graph, create_graph=need)


@_normal_tensors
def vjp(func: Callable, *primals, has_aux: bool = False):
    """``(output, vjp_fn)``: ``vjp_fn(cotangents)`` is the vector-Jacobian product, one
    gradient per primal (always a tuple). ``vjp_fn`` may be called many times. With
    ``has_aux``: ``(output, vjp_fn, aux)``."""
    state = _VJP(func, primals, None, has_aux)

    @_normal_tensors
    def vjp_fn(cotangents, retain_graph: bool = True, create_graph: bool | None = None):
        if create_graph is None:
            create_graph = grad_mode.is_grad_enabled()
        flat_cot, cot_spec = tree_flatten(cotangents)
        if cot_spec != state.out_spec:
            raise RuntimeError(
                "Expected pytree structure of cotangents to be the same as pytree structure "
                f"of outputs to the function. cotangents: {cot_spec.pprint()}, primal output: "
                f"{state.out_spec.pprint()}")
        grads = state.grads(flat_cot, retain_graph, create_graph)
        return tree_unflatten(grads, state.diff_spec)

    if has_aux:
        return state.out, vjp_fn, state.aux
    return state.out, vjp_fn


def _basis(t: Tensor) -> Tensor:
    """The one-hot tensors of ``t``'s shape, stacked: ``(t.numel(), *t.shape)``."""
    from minitorch._creation import eye

    n = t.numel()
    return eye(n, dtype=t.dtype, device=t.device).reshape((n, *t.shape))


def jacrev(func: Callable, argnums=0, *, has_aux: bool = False, chunk_size: int | None = None,
           _preallocate_and_copy: bool = False) -> Callable:
    """The Jacobian of ``func`` by reverse mode: one vjp per output element (``chunk_size`` is
    checked but changes nothing here). Each output leaf ``o`` and argument ``a`` give a
    tensor of shape ``o.shape + a.shape``; the result has the outputs' structure, each leaf
    replaced by the arguments' structure (a tuple of them when ``argnums`` is a tuple)."""
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    @functools.wraps(func)
    @_normal_tensors
    def wrapper(*args):
        from minitorch._creation import zeros, zeros_like
        from minitorch.ops.shape import stack

        state = _VJP(func, args, argnums, has_aux)
        outs, diff = state.flat_out, state.flat_diff
        per_output = []
        for k, o in enumerate(outs):
            rows = []
            for onehot in _basis(o):
                cot = [onehot if j == k else zeros_like(p) for j, p in enumerate(outs)]
                rows.append(state.grads(cot))
            jacs = [stack([r[i] for r in rows]).reshape(o.shape + x.shape) if rows
                    else zeros(o.shape + x.shape, dtype=x.dtype, device=x.device)
                    for i, x in enumerate(diff)]
            per_output.append(tree_unflatten(jacs, state.diff_spec))
        jac = tree_unflatten(per_output, state.out_spec)
        return (jac, state.aux) if has_aux else jac

    return wrapper


# --------------------------------------------------------------------- jvp and jacfwd
_JVP = "jvp(f, primals, tangents)"


class _JVPState(_Traced):
    """``func`` run once on differentiable primals, with the first half of the double-vjp
    trick done: ``g = J^T u`` for dummy cotangents ``u``. ``column(tangents)`` is then
    ``J t``, the vjp of ``g`` with ``t``."""

    def __init__(self, func, primals: tuple, argnums, has_aux: bool, strict=False):
        from minitorch._creation import zeros_like

        self.strict = strict
        out, aux = self._trace(func, primals, argnums, has_aux, _JVP)
        with grad_mode.enable_grad():
            self.us = [self.level.leaf(zeros_like(o).requires_grad_(True))
                       if o.is_floating_point() and o.requires_grad else None
                       for o in self.flat_out]
            pairs = [(o, u) for o, u in zip(self.flat_out, self.us) if u is not None]
            self.g: tuple = (None,) * len(self.flat_diff)
            if pairs:
                self.g = engine.grad([o for o, _ in pairs], self.flat_diff,
                                     [u for _, u in pairs], retain_graph=True,
                                     create_graph=True, allow_unused=True)
        self.out = _detach_tree(out, self.keep)
        self.aux = _detach_tree(aux, self.keep)

    def column(self, flat_tangents: list) -> list:
        """``J t`` for each output (zeros where the output does not depend on the primals)."""
        from minitorch._creation import zeros_like

        with grad_mode.enable_grad():
            pairs = [(g, t) for g, t in zip(self.g, flat_tangents)
                     if g is not None and g.requires_grad]
            us = [u for u in self.us if u is not None]
            found: tuple = (None,) * len(us)
            if pairs and us:
                need = self.keep or self.level.reaches_outside(flat_tangents)
                found = engine.grad([g for g, _ in pairs], us, [t for _, t in pairs],
                                    retain_graph=True, create_graph=need, allow_unused=True)
        found_it = iter(found)
        cols = []
        for o, u in zip(self.flat_out, self.us):
            col = next(found_it) if u is not None else None
            if col is None:
                if self.strict:
                    raise RuntimeError(
                        "jvp(f, primals, tangents, strict=True): The output of f is "
                        "independent of the inputs. This is not allowed with strict=True.")
                col = zeros_like(o)
            cols.append(col)
        return cols


@_normal_tensors
def jvp(func: Callable, primals, tangents, *, strict: bool = False, has_aux: bool = False):
    """``(output, jvp_out)``: the Jacobian-vector product ``J @ tangents``, by the
    double-vjp trick (two backward passes, no forward-mode formulas). ``primals`` is the
    tuple of arguments of ``func``; ``tangents`` has the same structure.

    >>> import minitorch
    >>> from minitorch.func import jvp
    >>> jvp(lambda x: x ** 2, (minitorch.tensor([1.0, 2.0]),), (minitorch.ones(2),))
    (tensor([1., 4.]), tensor([2., 4.]))
    """
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{_JVP}: Expected primals to be a tuple. E.g. it should be valid "
                           "to call f(*primals).")
    flat_p, p_spec = tree_flatten(primals)
    flat_t, t_spec = tree_flatten(tangents)
    if p_spec != t_spec:
        raise RuntimeError(
            f"{_JVP}: Expected primals and tangents to have the same python structure. For "
            "example, if primals is a tuple of 3 tensors, tangents also must be. Got primals "
            f"with structure {p_spec} and tangents with structure {t_spec}")
    for name, flat in (("primals", flat_p), ("tangents", flat_t)):
        if len(flat) == 0:
            raise RuntimeError(f"{_JVP}: Expected {name} to contain at least one Tensor.")
        for x in flat:
            if not isinstance(x, Tensor):
                raise RuntimeError(f"{_JVP}: Expected {name} to only contain Tensors, got "
                                   f"{type(x)}")
    for p, t in zip(flat_p, flat_t):
        if p.shape != t.shape:  # (PyTorch's words, from setting a forward gradient)
            raise RuntimeError(
                "Trying to set a forward gradient that has a different size than that of the "
                "original Tensor, this is not supported. Tensor is of size "
                f"[{', '.join(map(str, p.shape))}] while the given forward gradient is of size "
                f"[{', '.join(map(str, t.shape))}].")
    state = _JVPState(func, primals, None, has_aux, strict)
    out_tangents = tree_unflatten(state.column(flat_t), state.out_spec)
    if has_aux:
        return state.out, out_tangents, state.aux
    return state.out, out_tangents


def jacfwd(func: Callable, argnums=0, has_aux: bool = False, *,
           randomness: str = "error") -> Callable:
    """The Jacobian of ``func`` by forward mode: one jvp per input element (the output is
    ``func`` evaluated once; its structure as :func:`jacrev`'s)."""
    @functools.wraps(func)
    @_normal_tensors
    def wrapper(*args):
        from minitorch._creation import zeros, zeros_like
        from minitorch.ops.shape import stack

        _check_randomness_arg(randomness)
        with _random_guard(randomness):
            state = _JVPState(func, args, argnums, has_aux)
        diff = state.flat_diff
        per_input = []  # [input][output] -> jacobian
        for i, x in enumerate(diff):
            cols = []
            for onehot in _basis(x):
                cols.append(state.column([onehot if j == i else zeros_like(p)
                                          for j, p in enumerate(diff)]))
            per_input.append([
                stack([c[k] for c in cols], -1).reshape(o.shape + x.shape) if cols
                else zeros(o.shape + x.shape, dtype=o.dtype, device=o.device)
                for k, o in enumerate(state.flat_out)])
        jac = tree_unflatten([tree_unflatten([per_input[i][k] for i in range(len(diff))],
                                             state.diff_spec)
                              for k in range(len(state.flat_out))], state.out_spec)
        return (jac, state.aux) if has_aux else jac

    return wrapper


@_normal_tensors
def linearize(func: Callable, *primals) -> tuple:
    """``(output, jvp_fn)``: ``func(*primals)`` and the function ``jvp_fn(*tangents)`` that
    gives the Jacobian-vector product at ``primals`` for any tangents (one per primal, of its
    shape and dtype), as :func:`jvp` would, without running ``func`` again. As in PyTorch,
    ``func`` runs twice here: once for the output, once for the graph that ``jvp_fn`` uses.

    >>> import minitorch
    >>> from minitorch.func import linearize
    >>> out, jvp_fn = linearize(lambda x: x ** 2, minitorch.tensor([1.0, 2.0]))
    >>> jvp_fn(minitorch.ones(2))
    tensor([2., 4.])
    """
    output = func(*primals)
    flat_primals, primals_spec = tree_flatten(primals)
    state = _JVPState(func, primals, None, False)
    meta = [(p.shape, p.device, p.dtype) for p in flat_primals]

    @_normal_tensors
    def jvp_fn(*tangents):
        flat_tangents, tangents_spec = tree_flatten(tangents)
        if tangents_spec != primals_spec:
            raise RuntimeError(f"Expected the tangents {tangents_spec} to have the same argspec "
                               f"as the primals {primals_spec}")
        for idx, (t, values) in enumerate(zip(flat_tangents, meta)):
            for what, mine, primal in zip(("shape", "device", "dtype"),
                                          (t.shape, t.device, t.dtype), values):
                if mine != primal:
                    raise RuntimeError(
                        f"tangent:{idx} with {what} {mine} in flattened pytree doesn't match "
                        f"the {what} {primal} of the corresponding primal.")
        return tree_unflatten(state.column(flat_tangents), state.out_spec)

    return output, jvp_fn


def hessian(func: Callable, argnums=0) -> Callable:
    """The Hessian of the scalar ``func``: ``jacfwd(jacrev(func, argnums), argnums)``.

    >>> import minitorch
    >>> from minitorch.func import hessian
    >>> hessian(lambda x: (x ** 3).sum())(minitorch.tensor([1.0, 2.0]))
    tensor([[ 6.,  0.],
            [ 0., 12.]])
    """
    return jacfwd(jacrev(func, argnums), argnums)


# ------------------------------------------------------------------------------ vmap
_RANDOM_ERROR = ("vmap: called random operation while in randomness error mode. Please either "
                 "use the 'same' or 'different' randomness flags on vmap or perform the "
                 "randomness operation out of vmap")


class _VmapState(threading.local):
    """Per thread, as PyTorch's transforms are: the vmaps at work (their serials, outermost
    first), how many of them refuse random numbers, and the graph nodes that a backward in a
    slice must keep for the next slices (those older than ``keep_before``)."""

    def __init__(self) -> None:
        self.levels: list[int] = []
        self.refusing_draws = 0
        self.keep_before: int | None = None


_vmap_state = _VmapState()
_patch_lock = threading.Lock()
_patch_users: dict = {}  # (class, name) -> the blocks, in any thread, that need the patch


@contextlib.contextmanager
def _patched(cls, name: str, replacement, original):
    """``cls.name`` is ``replacement`` while any thread is inside such a block: a method that
    every call goes through (a Generator's draw, a node's release) is replaced only while a
    transform needs it, so nothing is paid outside one. The replacement asks this thread's
    ``_vmap_state`` what to do, so other threads are unaffected."""
    key = (cls, name)
    with _patch_lock:
        _patch_users[key] = _patch_users.get(key, 0) + 1
        setattr(cls, name, replacement)
    try:
        yield
    finally:
        with _patch_lock:
            _patch_users[key] -= 1
            if not _patch_users[key]:
                setattr(cls, name, original)


_RAW_DRAWS = {name: Generator.__dict__[name] for name in ("_random32", "_random64")}


def _guarded_draw(raw):
    def draw(self, *args):
        if _vmap_state.refusing_draws:
            raise RuntimeError(_RANDOM_ERROR)
        return raw(self, *args)
    return draw


_GUARDED_DRAWS = {name: _guarded_draw(raw) for name, raw in _RAW_DRAWS.items()}


@contextlib.contextmanager
def _random_guard(randomness: str):
    """With ``randomness="error"``: any draw from a minitorch Generator in this thread (all of
    minitorch's random numbers come from its ``_random32``/``_random64``) raises PyTorch's
    error."""
    if randomness != "error":
        yield
        return
    with contextlib.ExitStack() as stack:
        for name, raw in _RAW_DRAWS.items():
            stack.enter_context(_patched(Generator, name, _GUARDED_DRAWS[name], raw))
        _vmap_state.refusing_draws += 1
        try:
            yield
        finally:
            _vmap_state.refusing_draws -= 1


def _check_batch_norm_stats(running_mean, running_var) -> None:
    """PyTorch's error for batch norm in training inside ``vmap`` when the running statistics
    it would update in place are not batched at every vmap at work (a tensor is batched when
    it is a slice that the vmap handed to its function). minitorch takes the input to be
    batched, as it nearly always is; PyTorch's check also asks whether it is."""
    for level in _vmap_state.levels:
        for stat in (running_mean, running_var):
            if stat is not None and level not in getattr(stat, "_vmap_levels", ()):
                raise RuntimeError(
                    "Batch norm got a batched tensor as input while the running_mean or "
                    "running_var, which will be updated in place, were not batched.\nIf you "
                    "are using a module and do not need eval mode, please set "
                    "`track_running_stats` to be False.If you are using a prebuilt module and "
                    "do not need eval mode, please see the functorch website for resources on "
                    "how to patch your module to work with vmap")


_RAW_RELEASE = _function.BackwardCFunction._release


def _release_unless_kept(node) -> None:
    keep_before = _vmap_state.keep_before
    if keep_before is None or node._seq >= keep_before:
        _RAW_RELEASE(node)


@contextlib.contextmanager
def _keep_outside_graph(start: int, keep: bool):
    """While ``keep``: a backward without ``retain_graph`` in this thread frees only the graph
    nodes made after ``start``. PyTorch's vmap runs one batched backward through a graph made
    outside it (``vmap(lambda v: autograd.grad(y, x, v))``); minitorch runs one per slice, so
    that graph must last until the last slice, which frees it."""
    if not keep:
        yield
        return
    with _patched(_function.BackwardCFunction, "_release", _release_unless_kept, _RAW_RELEASE):
        previous, _vmap_state.keep_before = _vmap_state.keep_before, start
        try:
            yield
        finally:
            _vmap_state.keep_before = previous


def _check_randomness_arg(randomness: str) -> None:
    if randomness not in ["error", "different", "same"]:
        raise RuntimeError("Only allowed values for randomness are 'error', 'different', or "
                           f"'same'. Got {randomness}")


def _get_name(func) -> str:
    return getattr(func, "__name__", repr(func))


def _check_out_dims(out_dims, func) -> None:
    if isinstance(out_dims, int):
        return
    for x in tree_flatten(out_dims)[0]:
        if not (x is None or isinstance(x, int)):
            raise ValueError(
                f"vmap({_get_name(func)}, ..., out_dims={out_dims}): `out_dims` must be an int, "
                "None or a python collection of ints representing where in the outputs the "
                "vmapped dimension should appear.")


def _process_inputs(in_dims, args: tuple, func) -> tuple:
    name = _get_name(func)
    if not isinstance(in_dims, (int, tuple)):
        raise ValueError(
            f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` to be int or a "
            "(potentially nested) tuple matching the structure of inputs, got: "
            f"{type(in_dims)}.")
    if len(args) == 0:
        raise ValueError(
            f"vmap({name})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are "
            "trying to vmap over a function with no inputs. The latter is unsupported.")
    flat_args, spec = tree_flatten(args)
    flat_dims = _broadcast_to_and_flatten(in_dims, spec)
    if flat_dims is None:
        raise ValueError(
            f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with "
            f"the structure of `inputs`. in_dims has structure {tree_flatten(in_dims)[1]} but "
            f"inputs has structure {spec}.")
    for i, (arg, d) in enumerate(zip(flat_args, flat_dims)):
        prefix = f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for "
        if not isinstance(d, int) and d is not None:
            raise ValueError(prefix + "an input but in_dim must be either an integer dimension "
                             "or None.")
        if isinstance(d, int) and not isinstance(arg, Tensor):
            raise ValueError(prefix + f"an input but the input is of type {type(arg)}. We "
                             "cannot vmap over non-Tensor arguments, please use None as the "
                             "respective in_dim")
        if d is not None and not -arg.dim() <= d < arg.dim():
            raise ValueError(prefix + f"some input, but that input is a Tensor of "
                             f"dimensionality {arg.dim()} so expected in_dim to satisfy "
                             f"-{arg.dim()} <= in_dim < {arg.dim()}.")
        if d is not None and d < 0:
            flat_dims[i] = d % arg.dim()
    sizes = [a.size(d) for a, d in zip(flat_args, flat_dims) if d is not None]
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if any(s != sizes[0] for s in sizes):
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sizes} for the mapped dimension")
    return sizes[0], flat_dims, flat_args, spec


def _unstacked(pieces: list, d: int, handed: list, flat_args: list, flat_dims: list):
    """What PyTorch's vmap gives back without a copy, as its ``_remove_batch_dim`` does, or
    None: the input itself when each slice returned the slice it was handed (moved from its
    in-dim to ``d`` when they differ), and an expanded view of a tensor that is not batched
    (the same one returned by every slice: an unmapped argument, or one the function closes
    over) when ``d`` is 0."""
    first = pieces[0]
    if not -first.dim() - 1 <= d <= first.dim():
        return None  # (stacking raises PyTorch's error)
    d %= first.dim() + 1
    for j, (arg, dim) in enumerate(zip(flat_args, flat_dims)):
        if dim is not None and all(p is h[j] for p, h in zip(pieces, handed)):
            return arg if d == dim else arg.movedim(dim, d)
    if d or not all(p is first for p in pieces):
        return None
    if len(pieces) > 1 or any(first is a for a, dim in zip(flat_args, flat_dims) if dim is None):
        return first.unsqueeze(0).expand(len(pieces), *first.shape)
    return None


def _stack_outputs(results: list, out_dims, func, batch_size: int, handed=None,
                   flat_args=None, arg_dims=None):
    """The outputs of the slices, stacked at ``out_dims`` (PyTorch's ``_unwrap_batched``);
    ``handed``: the slices each call was given, to find the outputs that need no copy."""
    from minitorch._creation import zeros
    from minitorch.ops.shape import stack

    name = _get_name(func)
    flat0, spec = tree_flatten(results[0])
    flats = [flat0] + [tree_flatten(r)[0] for r in results[1:]]

    def incompatible():
        raise ValueError(
            f"vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible with "
            f"the structure of `outputs`. out_dims has structure {tree_flatten(out_dims)[1]} "
            f"but outputs has structure {spec}.")

    if isinstance(results[0], Tensor):
        if isinstance(out_dims, int) or out_dims is None:
            flat_dims = [out_dims]
        elif isinstance(out_dims, tuple) and len(out_dims) == 1:
            flat_dims = list(out_dims)
        else:
            incompatible()
    else:
        flat_dims = _broadcast_to_and_flatten(out_dims, spec)
        if flat_dims is None:
            incompatible()
    out = []
    for k, d in enumerate(flat_dims):
        pieces = [f[k] for f in flats]
        if d is None:
            first = pieces[0]
            if isinstance(first, Tensor) and batch_size and not all(
                    p is first or p.equal(first) for p in pieces):
                raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor "
                                 "when out_dim is None")
            out.append(first)
            continue
        if not isinstance(pieces[0], Tensor):
            raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type "
                             f"{type(pieces[0])}. Did you mean to set out_dims= to None for "
                             "output?")
        same = None if handed is None else _unstacked(pieces, d, handed, flat_args, arg_dims)
        if same is not None:
            out.append(same)
            continue
        # (PyTorch's vmap hands back the slices' own result: an inference tensor only when
        # the slices made one under inference_mode, not a view of a normal tensor)
        normal = not any(p.is_inference() for p in pieces)
        if batch_size == 0:
            empty = (_normal_tensors(zeros) if normal else zeros)(
                (0, *pieces[0].shape), dtype=pieces[0].dtype, device=pieces[0].device)
            out.append(empty.movedim(0, d))
        else:
            out.append((_normal_tensors(stack) if normal else stack)(pieces, d))
    return tree_unflatten(out, spec)


def vmap(func: Callable, in_dims=0, out_dims=0, randomness: str = "error", *,
         chunk_size: int | None = None) -> Callable:
    """``vmap(func)(*args)`` maps ``func`` over dimension ``in_dims`` of the arguments (an
    int, or a structure like the arguments with None for an argument that is not mapped;
    keyword arguments are never mapped) and stacks the results at ``out_dims``.

    minitorch runs ``func`` once per slice of the batch and stacks the outputs: the values
    are those of PyTorch's batching rules, not their speed (``chunk_size`` is checked but
    changes nothing). ``randomness``: ``"error"`` raises PyTorch's error when ``func`` draws
    random numbers from a minitorch generator; ``"different"`` lets each slice draw in turn;
    ``"same"`` gives every slice the default generator's same numbers (a generator passed
    explicitly advances per slice). With ``out_dims=None`` an output must be the same for
    every slice (PyTorch's error otherwise; minitorch compares the values).

    Because ``func`` really runs once per slice, some code that PyTorch's ``vmap`` refuses runs
    here, slice by slice: ``.item()`` and ``if`` on a tensor's value, an in-place change of a
    tensor the function closes over, side effects (they happen once per slice). Keep such code
    out of a function you map. Batch norm in training raises PyTorch's error when the running
    statistics it would update are not batched (see :func:`replace_all_batch_norm_modules_`).

    >>> import minitorch
    >>> from minitorch.func import vmap
    >>> vmap(minitorch.dot)(minitorch.ones(2, 3), minitorch.ones(2, 3))
    tensor([3., 3.])
    """
    _check_randomness_arg(randomness)
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from minitorch._creation import zeros

        _check_out_dims(out_dims, func)
        batch_size, flat_dims, flat_args, spec = _process_inputs(in_dims, args, func)
        level = next(_serials)
        start = next(_function._sequence)  # (graph nodes made from now on are the slices' own)
        state = default_generator.get_state() if randomness == "same" else None
        results, handed = [], []
        for b in range(max(batch_size, 1)):
            if batch_size == 0:  # run once on zeros, for the outputs' shapes
                sliced = [a if d is None else (zeros if a.is_inference() else _normal_tensors(
                    zeros))(a.shape[:d] + a.shape[d + 1:], dtype=a.dtype, device=a.device)
                          for a, d in zip(flat_args, flat_dims)]
            else:
                sliced = [a if d is None else a.select(d, b) for a, d in zip(flat_args, flat_dims)]
            handed.append(sliced)  # (the outputs that are these slices are not copied)
            for a, d, t in zip(flat_args, flat_dims, sliced):
                if d is not None:  # (batched at this level, and at the levels its source was)
                    t._vmap_levels = getattr(a, "_vmap_levels", frozenset()) | {level}
            if state is not None:
                default_generator.set_state(state)
            _vmap_state.levels.append(level)
            try:
                with _random_guard(randomness), _keep_outside_graph(start, b < batch_size - 1):
                    results.append(func(*tree_unflatten(sliced, spec), **kwargs))
            finally:
                _vmap_state.levels.pop()
        return _stack_outputs(results, out_dims, func, batch_size, handed, flat_args, flat_dims)

    return wrapper


# ------------------------------------------------------------ modules as functions
def _swap_tensor(module, name: str, value):
    """Put ``value`` at the dotted ``name`` of ``module`` (a parameter, a buffer or a plain
    attribute); return what was there (``_MISSING`` when nothing)."""
    *path, leaf = name.split(".")
    for part in path:
        module = getattr(module, part)
    for registry in (module.__dict__.get("_parameters"), module.__dict__.get("_buffers")):
        if registry is not None and leaf in registry:
            old = registry[leaf]
            if value is _MISSING:
                del registry[leaf]
            else:
                registry[leaf] = value
            return old
    old = module.__dict__.get(leaf, _MISSING)
    if value is _MISSING:
        module.__dict__.pop(leaf, None)
    else:
        module.__dict__[leaf] = value
    return old


_MISSING = object()


def _named_tensors(module) -> dict:
    named = dict(module.named_parameters(remove_duplicate=False))
    named.update(module.named_buffers(remove_duplicate=False))
    return named


def _untie(module, given: dict) -> dict:
    """PyTorch's ``_untie_named_tensors_map``: a value given for one of several names of the
    same (tied) tensor is used for all of them."""
    groups: dict[int, set] = {}
    for name, t in _named_tensors(module).items():
        groups.setdefault(id(t), set()).add(name)
    tied = {n: names for names in groups.values() if len(names) > 1 for n in names}
    given_tied = [n for n in given if n in tied]
    for n in given_tied:
        names = tied[n]
        values = {id(given[m]) for m in names if m in given}
        if len(names.intersection(given_tied)) > 1 and len(values) != 1:
            raise ValueError(f"functional_call got multiple values for keys {sorted(names)}, "
                             "which are tied. Consider using tie_weights=False")
    out = dict(given)
    for n in given_tied:
        for m in tied[n]:
            out[m] = given[n]
    return out


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *,
                    tie_weights: bool = True, strict: bool = False):
    """Call ``module`` with its parameters and buffers replaced by the tensors of
    ``parameter_and_buffer_dicts`` (a dict, or a tuple/list of dicts, keyed as
    ``named_parameters()``); the module is left as it was. With ``vmap`` and ``grad`` this
    gives per-sample gradients and model ensembles."""
    if isinstance(parameter_and_buffer_dicts, dict):
        given = parameter_and_buffer_dicts
    elif isinstance(parameter_and_buffer_dicts, Sequence):
        if not all(isinstance(d, dict) for d in parameter_and_buffer_dicts):
            raise ValueError("Expected all elements of parameter_and_buffer_dicts to be "
                             "dictionaries")
        counts: dict = {}
        for d in parameter_and_buffer_dicts:
            for k in d:
                counts[k] = counts.get(k, 0) + 1
        repeated = [k for k, n in counts.items() if n > 1]
        if repeated:
            raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of "
                             "functional call is ambiguous")
        given = {k: v for d in parameter_and_buffer_dicts for k, v in d.items()}
    else:
        raise ValueError("Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of "
                         f"dicts, but got {type(parameter_and_buffer_dicts)}")
    if tie_weights:
        given = _untie(module, given)
    if strict:
        valid = set(_named_tensors(module))
        missing, unexpected = sorted(valid - set(given)), sorted(set(given) - valid)
        msgs = []
        if unexpected:
            msgs.append(f"Unexpected key(s): {', '.join(map(repr, unexpected))}.")
        if missing:
            msgs.append(f"Missing key(s): {', '.join(map(repr, missing))}.")
        if msgs:
            raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}:\n\t"
                               + "\n\t".join(msgs))
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    old = {}
    try:
        for name, value in given.items():
            old[name] = _swap_tensor(module, name, value)
        return module(*args, **(kwargs or {}))
    finally:
        for name, value in reversed(list(old.items())):
            _swap_tensor(module, name, value)


def stack_module_state(models) -> tuple[dict, dict]:
    """``(params, buffers)``: each parameter and buffer of the (same-class) ``models``
    stacked along a new first dimension, for ``vmap`` over an ensemble with
    :func:`functional_call`. Stacked parameters are new leaves that require grad."""
    from minitorch.ops.shape import stack

    models = list(models)
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError(
            "stack_module_state: Expected all models to have the same training/eval mode.")
    if not all(type(m) is type(models[0]) for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")

    def stacked(tensors, name):
        all_rg = all(t.requires_grad for t in tensors)
        if not all_rg and any(t.requires_grad for t in tensors):
            raise RuntimeError(f"Expected {name} from each model to have the same "
                               ".requires_grad")
        result = stack(tensors)
        return result.detach().requires_grad_() if all_rg else result

    all_params = [dict(m.named_parameters()) for m in models]
    all_buffers = [dict(m.named_buffers()) for m in models]
    params = {k: stacked([p[k] for p in all_params], k) for k in all_params[0]}
    buffers = {k: stacked([b[k] for b in all_buffers], k) for k in all_buffers[0]}
    return params, buffers


# batch norm under vmap
def _is_batch_norm(module) -> bool:
    """Whether ``module`` is a BatchNorm (PyTorch's ``_BatchNorm``; minitorch's InstanceNorm
    derives from it, PyTorch's does not). By class name: ``nn`` is a layer above this one."""
    names = {c.__name__ for c in type(module).__mro__ if c.__module__.startswith("minitorch.nn")}
    return "_BatchNorm" in names and "_InstanceNorm" not in names


def replace_all_batch_norm_modules_(root):
    """Make every BatchNorm module in ``root`` (``root`` included) keep no running statistics,
    in place: ``running_mean``, ``running_var`` and ``num_batches_tracked`` become None and
    ``track_running_stats`` False, so the modules always normalise with the batch's own
    statistics and work under :func:`vmap`, where updating unbatched running statistics raises.
    Returns ``root``."""
    for module in (root, *root.modules()):
        if _is_batch_norm(module) and module.track_running_stats:
            module.running_mean = None
            module.running_var = None
            module.num_batches_tracked = None
            module.track_running_stats = False
    return root


def functionalize(func: Callable, *, remove: str = "mutations") -> Callable:
    """``func`` with its mutations removed, PyTorch's program transform. Run eagerly, as here,
    the values are ``func``'s own, and an input that ``func`` changes in place is changed;
    what differs is aliasing, as in PyTorch: an input that ``func`` changed in place
    (``x.add_(1)`` returns ``x``), or a view of one, comes back as a new tensor (a view of its
    own copy); an input returned unchanged is itself; and with
    ``remove="mutations_and_views"`` every view comes back as a copy."""
    if remove not in ("mutations", "mutations_and_views"):
        raise RuntimeError(
            f"functionalize(f, remove='mutations'): received invalid argument for "
            f"remove={remove}. Valid options are:\n     remove='mutations': all inplace and "
            "out= operators will be removed from the program, and replaced with their "
            "out-of-place equivalents.\n     remove='mutations_and_views': In addition to the "
            "above, all aliasing operators {view} will be replaced with their non-aliasing "
            "counterparts, {view}_copy.\n")

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        inputs = {id(t): (t, t._version) for t in tree_flatten((args, kwargs))[0]
                  if isinstance(t, Tensor)}

        def unaliased(t):
            if not isinstance(t, Tensor):
                return t
            root = t if t._base is None else t._base
            seen = inputs.get(id(root))
            changed = seen is not None and seen[0] is root and root._version != seen[1]
            if t._base is None:
                return t.clone() if changed else t
            if remove == "mutations_and_views":
                return t.clone()
            if changed:  # a view of an input that func changed: a view of a copy
                copy = t.clone()
                return copy.view(copy.shape)
            return t

        return _tree_map(unaliased, func(*args, **kwargs))

    return wrapped


def debug_unwrap(tensor: Tensor, *, recurse: bool = True) -> Tensor:
    """PyTorch's transforms wrap tensors (a batched tensor inside ``vmap``, a grad-tracking
    one inside ``grad``); this unwraps one, for debugging. minitorch's transforms work on
    plain tensors, so ``tensor`` itself is returned."""
    return tensor
