"""``einsum``: sums of products written as index equations (``"ij,jk->ik"`` is ``A @ B``).

Each operand gets one letter per dimension. A letter in the output (after ``->``) is a
dimension of the result; a letter that appears in the inputs but not in the output is summed
over. Without ``->`` the output is every letter that appears once, in alphabetical order.
``...`` stands for the leading dimensions, which broadcast.

minitorch computes an equation the way PyTorch's ``einsum`` does (ATen's Linear.cpp), with
operations it already has, so the graph and the gradients come for free and are PyTorch's node
for node. Every operand is first brought to the same dimensions, one per label (``_align``: a
letter repeated within an operand takes a ``diagonal``, a missing letter is an ``unsqueeze``,
then a ``permute``). The operands are then contracted left to right, two at a time
(``_sumproduct_pair``): a dimension only one of the pair carries, and that no later operand
needs, is summed on its own; the dimensions both sum over become a batched matrix product
(``bmm``), and a pair with nothing to sum over is a broadcast ``*``.

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


def _align(operands, labels: list, out: list) -> tuple:
    """Bring every operand to the same dimensions, as PyTorch's ``einsum`` does: one dimension
    per label, the output's labels first (in the output's order), then the labels summed over
    (the ellipsis's dimensions if the output has none, then the letters, uppercase first). A
    label an operand has twice becomes its diagonal, a label it lacks a size-1 dimension
    (``unsqueeze``), and a ``permute`` puts the dimensions in that order.

    Returns the aligned operands, the number of output dimensions, and for each dimension the
    number of operands in which it has a size other than 1 (the operands that still carry it:
    a dimension is summed as soon as at most one operand carries it)."""
    ellipsis = sorted({lab for ls in labels for lab in ls if not isinstance(lab, str)},
                      reverse=True)
    order = list(out) + [lab for lab in ellipsis if lab not in out]
    order += sorted({lab for ls in labels for lab in ls if lab not in order},
                    key=lambda c: (c.islower(), c))
    sizes: dict = {}
    counts = dict.fromkeys(order, 0)
    aligned = []
    for i, (t, ls) in enumerate(zip(operands, labels)):
        where: dict = {}  # label -> its dimension in t
        dim = 0
        for lab in ls:
            n = t.shape[dim]
            if lab in where:  # a repeated label: the diagonal, moved to the first one's place
                prev = where[lab]
                if n != t.shape[prev]:
                    raise RuntimeError(f"einsum(): subscript {lab} is repeated for operand "
                                       f"{i} but the sizes don't match, {n} != "
                                       f"{t.shape[prev]}")
                t = t.diagonal(0, prev, dim).movedim(-1, prev)
                continue
            if n != 1:
                seen = sizes.get(lab, 1)
                if seen not in (1, n):
                    if isinstance(lab, str):
                        raise RuntimeError(f"einsum(): subscript {lab} has size {n} for "
                                           f"operand {i} which does not broadcast with "
                                           f"previously seen size {seen}")
                    raise RuntimeError(f"einsum(): dimension {dim} covered by ellipsis in "
                                       f"operand {i}has size {n} which does not broadcast "
                                       f"with previously seen ellipsis with size {seen} for "
                                       "the respective dimension")
                sizes[lab] = n
                counts[lab] += 1
            where[lab] = dim
            dim += 1
        for lab in order:  # the labels t lacks, in order, as size-1 dimensions at the end
            if lab not in where:
                t = t.unsqueeze(dim)
                where[lab] = dim
                dim += 1
        aligned.append(t.permute([where[lab] for lab in order]))
    return aligned, len(out), [counts[lab] for lab in order]


def _sumproduct_pair(left: Tensor, right: Tensor, sum_dims: list) -> Tensor:
    """``(left * right).sum(sum_dims, keepdim=True)`` for two aligned operands, by a batched
    matrix product (PyTorch's ``sumproduct_pair``): the dimensions both operands carry and keep
    are the batch, those only the left one carries the rows, the summed ones the inner
    dimension, those only the right one carries the columns. Both operands are permuted and
    reshaped to that, multiplied with ``bmm``, and the product viewed and permuted back."""
    if not sum_dims:
        return left * right
    both, only_left, only_right = [], [], []
    for i in range(left.dim()):
        sl, sr = left.shape[i] != 1, right.shape[i] != 1
        if i in sum_dims:  # a summed dimension only one side carries: sum it there first
            if sl and not sr:
                left = left.sum(i, keepdim=True)
            elif sr and not sl:
                right = right.sum(i, keepdim=True)
        elif sl and sr:
            both.append(i)
        elif sl:
            only_left.append(i)
        else:
            only_right.append(i)
    n_both = math.prod(left.shape[i] for i in both)
    n_left = math.prod(left.shape[i] for i in only_left)
    n_right = math.prod(right.shape[i] for i in only_right)
    n_sum = math.prod(left.shape[i] for i in sum_dims)
    out_size = ([left.shape[i] for i in both + only_left] + [1] * len(sum_dims)
                + [right.shape[i] for i in only_right])
    left = left.permute(both + only_left + sum_dims + only_right)
    right = right.permute(both + sum_dims + only_right + only_left)
    product = bmm(left.reshape(n_both, n_left, n_sum), right.reshape(n_both, n_sum, n_right))
    order = both + only_left + sum_dims + only_right
    return product.view(out_size).permute([order.index(i) for i in range(len(order))])


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
    ops, n_out, counts = _align(operands, labels, out)
    while len(ops) > 1:  # contract left to right, two operands at a time
        a, b = ops.pop(0), ops.pop(0)
        sum_dims, a_sums, b_sums = [], [], []
        for d in range(n_out, len(counts)):  # the dimensions no later operand carries
            if a.shape[d] != 1 and b.shape[d] != 1:
                counts[d] -= 1
                if counts[d] == 1:
                    sum_dims.append(d)
                    counts[d] = 0
            elif counts[d] == 1:  # only a (or only b) carries it: sum it there now
                if a.shape[d] != 1:
                    a_sums.append(d)
                    counts[d] = 0
                elif b.shape[d] != 1:
                    b_sums.append(d)
                    counts[d] = 0
        if a_sums:
            a = a.sum(a_sums, keepdim=True)
        if b_sums:
            b = b.sum(b_sums, keepdim=True)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims))
    result = ops[0]
    if len(counts) > n_out:  # the summed dimensions
        if len(operands) > 1:  # already summed to size 1 by the contractions
            return result.view(result.shape[:n_out])
        return result.sum(list(range(n_out, len(counts))))
    return result
