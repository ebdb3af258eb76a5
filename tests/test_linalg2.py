"""Task linalg2: gradients of ``addmv``, ``addr`` and ``index_reduce`` against finite
differences in float64 (first and second order), so that PyTorch is not the only oracle.
The comparisons with PyTorch are in the op table (``tests/_opinfo_samples_linalg2.py``)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minitorch
from minitorch.autograd import gradcheck, gradgradcheck

rng = np.random.default_rng(7)


def _t(*shape):
    return minitorch.tensor(rng.standard_normal(shape), dtype=minitorch.float64,
                            requires_grad=True)


@pytest.mark.parametrize("kw", [{}, {"beta": 0.5, "alpha": -2.0}, {"beta": 0}])
def test_addmv_addr_gradcheck(kw):
    x, m, v = _t(3), _t(3, 4), _t(4)
    f = lambda x, m, v: minitorch.addmv(x, m, v, **kw)  # noqa: E731
    assert gradcheck(f, (x, m, v)) and gradgradcheck(f, (x, m, v))
    x, v1, v2 = _t(4), _t(3), _t(4)  # input broadcast to (3, 4)
    f = lambda x, a, b: minitorch.addr(x, a, b, **kw)  # noqa: E731
    assert gradcheck(f, (x, v1, v2)) and gradgradcheck(f, (x, v1, v2))


@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_index_reduce_gradcheck(reduce, include_self):
    x, src = _t(4, 3), _t(5, 3)
    index = minitorch.tensor([0, 2, 0, 3, 2])

    def f(x, src):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return minitorch.index_reduce(x, 0, index, src, reduce, include_self=include_self)
    assert gradcheck(f, (x, src)) and gradgradcheck(f, (x, src))


def test_index_reduce_prod_single_zero_gradcheck():
    """A single zero factor in a slot: its gradient is the product of the others, not 0."""
    x, src = _t(3, 2), _t(3, 2)
    with minitorch.no_grad():
        src[1, 0] = 0.0
        x[2, 1] = 0.0
    index = minitorch.tensor([0, 2, 0])

    def f(x, src):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return minitorch.index_reduce(x, 0, index, src, "prod")
    assert gradcheck(f, (x, src))


def test_index_reduce_warns_once_as_pytorch():
    import minitorch._warnings as w

    w._given.discard("index_reduce")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(2):
            minitorch.zeros(2).index_reduce(0, minitorch.tensor([1]), minitorch.ones(1), "amax")
    assert [str(c.message) for c in caught] == [
        "index_reduce() is in beta and the API may change at any time."]


def _well(n=3, batch=()):
    m = rng.standard_normal(batch + (n, n)) + 3 * np.eye(n)
    return minitorch.tensor(m, dtype=minitorch.float64, requires_grad=True)


def _check(f, *args, second=True):
    assert gradcheck(f, args)
    if second:
        assert gradgradcheck(f, args)


def test_matrix_exp_gradcheck():
    _check(minitorch.linalg.matrix_exp, _t(3, 3))
    _check(minitorch.matrix_exp, _t(2, 2, 2) * 3)


@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("unit", [True, False])
def test_solve_triangular_gradcheck(upper, left, unit):
    b = _t(3, 2) if left else _t(2, 3)
    _check(lambda a, b: minitorch.linalg.solve_triangular(a, b, upper=upper, left=left,
                                                          unitriangular=unit), _well(), b)


def test_ex_forms_gradcheck():
    _check(lambda a: minitorch.linalg.inv_ex(a).inverse, _well())
    _check(lambda a, b: minitorch.linalg.solve_ex(a, b).result, _well(), _t(3))
    # Cholesky reads one triangle and gives a symmetric gradient: check it on A + A^T
    spd = _well()
    _check(lambda a: minitorch.linalg.cholesky_ex(a @ a.mT).L, spd)
    _check(lambda a: minitorch.linalg.cholesky_ex(a @ a.mT, upper=True).L, spd)


def test_cond_and_tensor_forms_gradcheck():
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        minitorch.linalg.cond(_well(), "fro").backward()  # as PyTorch: the inverse changed
    _check(lambda a: minitorch.linalg.cond(a), _well(), second=False)
    _check(lambda a: minitorch.linalg.tensorinv(a.reshape(2, 2, 4), ind=2), _well(4))
    _check(lambda a, b: minitorch.linalg.tensorsolve(a.reshape(2, 2, 4), b), _well(4), _t(2, 2))
    _check(lambda x: minitorch.linalg.vander(x, N=4), _t(3))
    _check(minitorch.linalg.vecdot, _t(2, 3), _t(3))


@pytest.mark.parametrize("upper", [True, False])
def test_cholesky_inverse_solve_gradcheck(upper):
    # the factor made triangular inside f: PyTorch's gradient for it is a full matrix
    def tri(m):
        return m.triu() if upper else m.tril()
    _check(lambda f: minitorch.cholesky_inverse(tri(f), upper), _well())
    _check(lambda b, f: minitorch.cholesky_solve(b, tri(f), upper), _t(3, 2), _well())


@pytest.mark.parametrize("transpose", [True, False])
def test_triangular_solve_gradcheck(transpose):
    def f(b, a):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x, copy = minitorch.triangular_solve(b, a, False, transpose)
        return x, copy
    _check(f, _t(3, 2), _well())


def test_deprecated_forms_warn_once_as_pytorch():
    import minitorch._warnings as w

    a = minitorch.eye(2)
    for key, call, start in (
            ("triangular_solve", lambda: minitorch.triangular_solve(a, a),
             "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangular"),
            ("qr", lambda: minitorch.qr(a), "torch.qr is deprecated in favor of torch.linalg.qr"),
            ("nuclear_norm", lambda: minitorch.nuclear_norm(a), "at::nuclear_norm is deprecated"),
            ("frobenius_norm", lambda: minitorch.frobenius_norm(a, (0, 1)),
             "at::frobenius_norm is deprecated")):
        w._given.discard(key)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
            call()
        assert len(caught) == 1 and str(caught[0].message).startswith(start), key
        assert caught[0].filename == __file__


@pytest.mark.parametrize("shape", [(3, 3), (3, 5), (5, 3), (2, 3, 3)])
def test_lu_gradcheck(shape):
    a = _t(*shape)
    _check(lambda a: tuple(minitorch.linalg.lu(a))[1:], a)
    _check(lambda a: minitorch.linalg.lu_factor(a).LU, a)
    _check(lambda a: tuple(minitorch.lu_unpack(*minitorch.linalg.lu_factor(a)))[1:], a)


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("adjoint", [True, False])
def test_lu_solve_gradcheck(left, adjoint):
    b = _t(3, 2) if left else _t(2, 3)
    a = _well()
    pivots = minitorch.linalg.lu_factor(a.detach()).pivots
    # through lu_factor, and with LU itself as the input (PyTorch's gradient for LU)
    _check(lambda a, b: minitorch.linalg.lu_solve(*minitorch.linalg.lu_factor(a), b, left=left,
                                                  adjoint=adjoint), a, b)
    lu = minitorch.linalg.lu_factor(a.detach()).LU.requires_grad_()
    _check(lambda lu, b: minitorch.linalg.lu_solve(lu, pivots, b, left=left, adjoint=adjoint),
           lu, b)


def test_lu_pivots_are_lapacks():
    """Partial pivoting as LAPACK's getrf: the largest |value| of the column (the first of
    equal ones), 1-based int32 pivots, and the elimination goes on past a zero pivot."""
    a = minitorch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]])
    lu, pivots, info = minitorch.linalg.lu_factor_ex(a)
    assert pivots.tolist() == [3, 3, 3] and pivots.dtype is minitorch.int32 and info.item() == 0
    _, pivots, info = minitorch.linalg.lu_factor_ex(minitorch.tensor([[1.0, 2.0], [-1.0, 3.0]]))
    assert pivots.tolist() == [1, 2]
    lu, pivots, info = minitorch.linalg.lu_factor_ex(minitorch.tensor([[0.0, 1.0], [0.0, 2.0]]))
    assert info.item() == 1 and pivots.tolist() == [1, 2] and lu.tolist() == [[0, 1], [0, 2]]
    p, low, up = minitorch.linalg.lu(a)
    assert minitorch.allclose(p @ low @ up, a)


@pytest.mark.parametrize("driver", ["gelsy", "gelsd"])
@pytest.mark.parametrize("shape", [(5, 3), (3, 3), (2, 4)])
def test_lstsq_gradcheck(driver, shape):
    """The solution (and, for gelsd with a tall A, the residuals) against finite
    differences."""
    a, b = _t(*shape), _t(shape[0], 2)

    def f(a, b):
        out = minitorch.linalg.lstsq(a, b, driver=driver)
        return (out.solution, out.residuals) if out.residuals.numel() else out.solution
    _check(f, a, b)
    _check(lambda a, b: minitorch.linalg.lstsq(a, b, driver=driver).solution, a, _t(shape[0]))


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_gradcheck(edge_order):
    x = _t(4, 5)
    coords = minitorch.tensor([0.0, 1.0, 3.0, 4.0, 7.0], dtype=minitorch.float64,
                              requires_grad=True)
    _check(lambda x: minitorch.gradient(x, spacing=(0.5, 2.0), edge_order=edge_order), x)
    _check(lambda x, c: minitorch.gradient(x, spacing=(c,), dim=1, edge_order=edge_order),
           x, coords)


@pytest.mark.parametrize("shape, k", [((4, 3), 2), ((3, 3), 3), ((2, 4, 3), 3)])
def test_householder_product_gradcheck(shape, k):
    _check(minitorch.linalg.householder_product, _t(*shape), _t(*shape[:-2], k))
