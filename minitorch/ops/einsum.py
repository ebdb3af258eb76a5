"""``einsum``: sums of products written as index equations (``"ij,jk->ik"`` is ``A @ B``).

Each operand gets one letter per dimension. A letter in the output (after ``->``) is a
dimension of the result; a letter that appears in the inputs but not in the output is summed
over. Without ``->`` the output is every letter that appears once, in alphabetical order.
``...`` stands for the leading dimensions, which broadcast.

minitorch computes an equation the way PyTorch does, with operations it already has, so the
graph and the gradients come for free: a letter repeated within one operand takes a diagonal
(``"ii->i"``), letters that only one operand has are summed out first, and the operands are
then combined left to right, two at a time: a batched matrix product (``bmm``) when the pair
shares letters to sum over, else a broadcast ``*``.

Example:
    >>> import minitorch
    >>> a = minitorch.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> minitorch.einsum("ij,jk->ik", a, a)
    tensor([[ 7., 10.],
            [15., 22.]])
    >>> minitorch.einsum("ii", a)
    tensor(5.)
"""

from __future__ import annotations

import math
import string

import numpy as np

from minitorch._tensor import Tensor
from minitorch.ops.linalg import bmm

__all__ = ["einsum"]

_LETTERS = set(string.ascii_letters)


def _parse(equation: str, operands) -> tuple:
    """The labels of each operand and of the output. A label is a letter, or ``(".", k)`` for
    the k-th dimension (counted from the right) that an ellipsis stands for."""
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) < len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    if len(terms) > len(operands):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the "
                           "equation")
    pos = 0
    labels, n_ellipsis = [], 0
    for i, (term, t) in enumerate(zip(terms, operands)):
        ndim = t._data.ndim
        letters = term.replace("...", "")
        for ch in letters:
            if ch not in _LETTERS:
                raise RuntimeError(f"einsum(): invalid subscript given at index "
                                   f"{pos + term.index(ch)} in the equation string, subscripts "
                                   "must be in [a-zA-Z]")
        if "..." in term:
            k = ndim - len(letters)
            if k < 0:
                raise RuntimeError(f"einsum(): the number of subscripts in the equation "
                                   f"({len(letters)}) is more than the number of dimensions "
                                   f"({ndim}) for operand {i}")
            n_ellipsis = max(n_ellipsis, k)
            head, tail = term.split("...")
            labels.append(list(head) + [(".", j) for j in range(k - 1, -1, -1)] + list(tail))
        else:
            if len(letters) != ndim:
                raise RuntimeError(f"einsum(): the number of subscripts in the equation "
                                   f"({len(letters)}) does not match the number of dimensions "
                                   f"({ndim}) for operand {i} and no ellipsis was given")
            labels.append(list(term))
        pos += len(term) + 1
    ellipsis = [(".", j) for j in range(n_ellipsis - 1, -1, -1)]
    if arrow:
        head, dots, tail = rhs.partition("...")
        for ch in head + tail:
            if ch not in _LETTERS:
                raise RuntimeError(f"einsum(): invalid subscript given at index "
                                   f"{len(lhs) + 2 + rhs.index(ch)} in the equation string, "
                                   "subscripts must be in [a-zA-Z]")
            if (head + tail).count(ch) > 1:
                raise RuntimeError(f"einsum(): output subscript {ch} appears more than once in "
                                   "the output")
            if not any(ch in ls for ls in labels):
                raise RuntimeError(f"einsum(): output subscript {ch} does not appear in the "
                                   "equation for any input operand")
        out = list(head) + (ellipsis if dots else []) + list(tail)
    else:  # implicit output: the ellipsis, then the letters seen once, alphabetically
        counts: dict = {}
        for ls in labels:
            for lab in ls:
                if isinstance(lab, str):
                    counts[lab] = counts.get(lab, 0) + 1
        out = ellipsis + sorted((ch for ch, n in counts.items() if n == 1),
                                key=lambda c: (c.islower(), c))
    return labels, out


def _check_sizes(operands, labels) -> None:
    """Every letter must have one size (or 1, which broadcasts), as in PyTorch."""
    seen: dict = {}
    for i, (t, ls) in enumerate(zip(operands, labels)):
        for lab, n in zip(ls, t._data.shape):
            if lab in seen and n != seen[lab] and 1 not in (n, seen[lab]):
                name = lab if isinstance(lab, str) else "..."
                raise RuntimeError(f"einsum(): subscript {name} has size {n} for operand {i} "
                                   f"which does not broadcast with previously seen size "
                                   f"{seen[lab]}")
            if lab not in seen or seen[lab] == 1:
                seen[lab] = n


def _diagonal(t: Tensor, ls: list) -> tuple:
    """Take the diagonal of every label that ``t`` has more than once (``"ii"``)."""
    while True:
        repeated = next((lab for lab in ls if ls.count(lab) > 1), None)
        if repeated is None:
            return t, ls
        where = [i for i, lab in enumerate(ls) if lab == repeated]
        rest = [i for i in range(len(ls)) if i not in where]
        t = t.permute(rest + where)
        ar = np.arange(t._data.shape[-1])
        t = t[(Ellipsis,) + (ar,) * len(where)]  # the diagonal, as the last dimension
        ls = [ls[i] for i in rest] + [repeated]


def _sum_out(t: Tensor, ls: list, drop) -> tuple:
    drop = [lab for lab in ls if lab in drop]
    if not drop:
        return t, ls
    return t.sum(tuple(ls.index(lab) for lab in drop)), [lab for lab in ls if lab not in drop]


def _pair(a: Tensor, la: list, b: Tensor, lb: list, keep: set) -> tuple:
    """Combine two operands, summing the labels they share that are not in ``keep``."""
    a, la = _sum_out(a, la, [lab for lab in la if lab not in lb and lab not in keep])
    b, lb = _sum_out(b, lb, [lab for lab in lb if lab not in la and lab not in keep])
    summed = [lab for lab in la if lab in lb and lab not in keep]
    size_a = dict(zip(la, a._data.shape))
    size_b = dict(zip(lb, b._data.shape))
    for lab in summed:  # a size-1 (broadcast) side: sum the other side on its own first
        if size_a[lab] != size_b[lab]:
            if size_a[lab] == 1:
                b = b.sum(lb.index(lab), keepdim=True)
            else:
                a = a.sum(la.index(lab), keepdim=True)
            size_a[lab] = size_b[lab] = 1
    if not summed:  # nothing to sum over: a broadcast product
        out = la + [lab for lab in lb if lab not in la]
        a = a.reshape(a._data.shape + (1,) * (len(out) - len(la)))
        b = b.permute([lb.index(lab) for lab in out if lab in lb])
        b = b.reshape([size_b[lab] if lab in lb else 1 for lab in out])
        return a * b, out
    batch = [lab for lab in la if lab in lb and lab not in summed]
    a_only = [lab for lab in la if lab not in lb]
    b_only = [lab for lab in lb if lab not in la]
    batch_sizes = [max(size_a[lab], size_b[lab]) for lab in batch]
    a = a.permute([la.index(lab) for lab in batch + a_only + summed])
    b = b.permute([lb.index(lab) for lab in batch + summed + b_only])
    a = a.expand(batch_sizes + list(a._data.shape[len(batch):]))
    b = b.expand(batch_sizes + list(b._data.shape[len(batch):]))
    n_b, n_k = math.prod(batch_sizes), math.prod(size_a[lab] for lab in summed)
    m = math.prod(size_a[lab] for lab in a_only)
    n = math.prod(size_b[lab] for lab in b_only)
    product = bmm(a.reshape(n_b, m, n_k), b.reshape(n_b, n_k, n))
    shape = batch_sizes + [size_a[lab] for lab in a_only] + [size_b[lab] for lab in b_only]
    return product.reshape(shape), batch + a_only + b_only


def einsum(equation: str, *operands) -> Tensor:
    """Sum of products described by ``equation`` (see the module docstring). ``operands``
    may also be given as one list.

    >>> import minitorch
    >>> x = minitorch.tensor([1.0, 2.0, 3.0])
    >>> minitorch.einsum("i,i->", x, x), minitorch.einsum("i,j->ij", x, x).shape
    (tensor(14.), torch.Size([3, 3]))
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    for t in operands:
        if not isinstance(t, Tensor):
            raise TypeError(f"einsum(): argument 'operands' must be tuple of Tensors, not "
                            f"{type(t).__name__}")
    labels, out = _parse(equation, operands)
    _check_sizes(operands, labels)
    pairs = [_diagonal(t, list(ls)) for t, ls in zip(operands, labels)]
    result, lr = pairs[0]
    for i in range(1, len(pairs)):
        later = set(out)
        for _, ls in pairs[i + 1:]:
            later.update(ls)
        result, lr = _pair(result, lr, *pairs[i], later)
    result, lr = _sum_out(result, lr, [lab for lab in lr if lab not in out])
    missing = [lab for lab in out if lab not in lr]  # ellipsis dims no operand had
    if missing:
        result = result.reshape(result._data.shape + (1,) * len(missing))
        lr = lr + missing
    if lr != out:
        result = result.permute([lr.index(lab) for lab in out])
    return result
