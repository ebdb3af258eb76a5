"""``trace``, ``vdot``, ``inner``, ``kron``, ``tensordot``, ``linalg.multi_dot``, ``cross``,
``slogdet``, ``logdet``, ``matrix_power``, ``cholesky``, ``dist``, ``renorm``, ``eigh``,
``qr``, ``pinv`` and ``svd``: gradients and second derivatives against finite differences
(``gradcheck``/``gradgradcheck``, float64; a symmetric input where only one triangle is
read), shapes drawn by Hypothesis against PyTorch, and the deprecation warnings PyTorch
gives once a process.

Their values, dtypes, gradients, node names and errors on the input families are compared
with PyTorch's in ``tests/test_opinfo.py`` (samples in ``tests/_opinfo_samples_linalg_more.py``).
"""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch

_RNG = np.random.default_rng(11)


def _t(*shape):
    return minitorch.tensor(_RNG.standard_normal(shape), requires_grad=True)


def _well_conditioned(*shape):
    return minitorch.tensor(_RNG.standard_normal(shape) + 3 * np.eye(shape[-1]),
                            requires_grad=True)


def _spd(a):
    """``A A^T + I``: symmetric positive-definite, as cholesky needs (and reads both halves of
    ``a`` so that finite differences see the whole of it)."""
    return a @ a.mT + minitorch.eye(a.shape[-1], dtype=a.dtype)


def _sign_free_eigh(a):
    values, vectors = minitorch.linalg.eigh(a)
    return vectors @ minitorch.diag_embed(values.exp()) @ vectors.mT, vectors * vectors


CASES = {  # name -> (function, its inputs)
    "trace": (lambda a: minitorch.trace(a * a), (_t(3, 4),)),
    "vdot": (lambda a, b: minitorch.vdot(a * b, b), (_t(4), _t(4))),
    "inner": (lambda a, b: minitorch.inner(a * a, b), (_t(2, 3), _t(4, 3))),
    "inner-0-d": (lambda a, b: minitorch.inner(a, b * b), (_t(), _t(2, 3))),
    "kron": (lambda a, b: minitorch.kron(a, b * a.sum()), (_t(2, 3), _t(2, 1, 2))),
    "tensordot": (lambda a, b: minitorch.tensordot(a, b * b, ([0, 2], [1, 0])),
                  (_t(2, 3, 4), _t(4, 2, 5))),
    "tensordot-full": (lambda a, b: minitorch.tensordot(a * b, b), (_t(2, 3), _t(2, 3))),
    "multi_dot": (lambda a, b, c, d: minitorch.linalg.multi_dot([a, b * b, c, d]),
                  (_t(2, 5), _t(5, 3), _t(3, 6), _t(6))),
    "cross-default-dim": (lambda a, b: minitorch.cross(a * a, b, dim=1),
                          (_t(2, 3), _t(2, 3))),
    "slogdet": (lambda a: minitorch.linalg.slogdet(a).logabsdet, (_well_conditioned(2, 3, 3),)),
    "logdet": (lambda a: minitorch.logdet(a @ a.mT), (_well_conditioned(3, 3),)),
    "det": (lambda a: a.det(), (_well_conditioned(3, 3),)),
    "inverse": (lambda a: a.inverse(), (_well_conditioned(2, 3, 3),)),
    "matrix_power-7": (lambda a: minitorch.matrix_power(a * 0.5, 7), (_well_conditioned(3, 3),)),
    "matrix_power--3": (lambda a: a.matrix_power(-3), (_well_conditioned(2, 3, 3),)),
    "matrix_power-0": (lambda a: minitorch.linalg.matrix_power(a, 0) * a, (_t(3, 3),)),
    "cholesky": (lambda a: minitorch.linalg.cholesky(_spd(a)), (_t(2, 4, 4),)),
    "cholesky-upper": (lambda a: minitorch.linalg.cholesky(_spd(a), upper=True), (_t(3, 3),)),
    "dist": (lambda a, b: minitorch.dist(a, b * b), (_t(3, 4), _t(4))),
    "dist-p3": (lambda a, b: a.dist(b, 3), (_t(2, 3), _t(2, 1))),
    "dist-p0.5": (lambda a, b: minitorch.dist(a, b, 0.5), (_t(5), _t(5))),
    "renorm": (lambda a: minitorch.renorm(a * a, 2, 0, 1.0), (_t(3, 4),)),
    "renorm-p1-dim1": (lambda a: a.renorm(1, 1, 0.7), (_t(2, 3, 4),)),
    # eigenvectors are unique up to sign: functions that do not depend on it
    "eigh": (lambda a: _sign_free_eigh(a + a.mT), (_t(2, 4, 4),)),
    "eigvalsh": (lambda a: minitorch.linalg.eigvalsh(a * a.mT, UPLO="U"), (_t(3, 3),)),
    "qr-tall": (lambda a: minitorch.linalg.qr(a), (_t(5, 3),)),
    "qr-wide": (lambda a: minitorch.linalg.qr(a), (_t(2, 3, 5),)),
    "qr-R-only": (lambda a: minitorch.linalg.qr(a).R, (_t(3, 4),)),
    "qr-complete-square": (lambda a: minitorch.linalg.qr(a, mode="complete").Q, (_t(3, 3),)),
    "pinv-tall": (lambda a: minitorch.linalg.pinv(a), (_t(2, 5, 3),)),
    "pinv-wide": (lambda a: a.pinverse(), (_t(3, 5),)),
    "pinv-hermitian": (lambda a: minitorch.linalg.pinv(_spd(a), hermitian=True), (_t(3, 3),)),
    "svd-V": (lambda a: (lambda u, s, v: (u * s.unsqueeze(-2)) @ v.mT)(*minitorch.svd(a)),
              (_t(4, 3),)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradients_match_finite_differences(name):
    fn, inputs = CASES[name]
    assert minitorch.autograd.gradcheck(fn, inputs)
    assert minitorch.autograd.gradgradcheck(fn, inputs)


def test_cholesky_factor_reconstructs_the_matrix_and_matches_torch():
    torch = pytest.importorskip("torch", reason="PyTorch is the oracle; install torch==2.13.0")
    a = _RNG.standard_normal((3, 5, 5))
    a = a @ np.swapaxes(a, -1, -2) + np.eye(5)
    low = minitorch.linalg.cholesky(minitorch.tensor(a)).numpy()
    np.testing.assert_allclose(low @ np.swapaxes(low, -1, -2), a, rtol=1e-12, atol=1e-12)
    assert np.array_equal(low, np.tril(low))
    np.testing.assert_allclose(low, torch.linalg.cholesky(torch.tensor(a)).numpy(), rtol=1e-12)


@settings(max_examples=30, deadline=None)
@given(a_shape=st.lists(st.integers(0, 3), min_size=0, max_size=3),
       b_shape=st.lists(st.integers(0, 3), min_size=0, max_size=3))
def test_kron_and_inner_of_any_shapes_match_torch(a_shape, b_shape):
    torch = pytest.importorskip("torch", reason="PyTorch is the oracle; install torch==2.13.0")
    a = _RNG.standard_normal(a_shape)
    b = _RNG.standard_normal(b_shape)
    mine = minitorch.kron(minitorch.tensor(a), minitorch.tensor(b)).numpy()
    np.testing.assert_allclose(mine, torch.kron(torch.tensor(a), torch.tensor(b)).numpy())
    if a.ndim and b.ndim:  # the last dimensions must agree
        b = _RNG.standard_normal(tuple(b_shape[:-1]) + a.shape[-1:])
    mine = minitorch.inner(minitorch.tensor(a), minitorch.tensor(b)).numpy()
    ref = torch.inner(torch.tensor(a), torch.tensor(b)).numpy()
    assert mine.shape == ref.shape
    np.testing.assert_allclose(mine, ref, rtol=1e-12, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(shapes=st.lists(st.integers(1, 6), min_size=3, max_size=7),
       vector_ends=st.tuples(st.booleans(), st.booleans()))
def test_multi_dot_of_any_chain_matches_torch(shapes, vector_ends):
    """Any chain, first and last possibly vectors: the values, and the gradient of each."""
    torch = pytest.importorskip("torch", reason="PyTorch is the oracle; install torch==2.13.0")
    arrays = [_RNG.standard_normal((shapes[i], shapes[i + 1])) for i in range(len(shapes) - 1)]
    if vector_ends[0]:
        arrays[0] = arrays[0][0]
    if vector_ends[1]:
        arrays[-1] = arrays[-1][:, 0]
    results = []
    for lib in (minitorch, torch):
        leaves = [lib.tensor(x, requires_grad=True) for x in arrays]
        out = lib.linalg.multi_dot(leaves)
        out.sum().backward()
        results.append([out.detach().numpy()] + [x.grad.numpy() for x in leaves])
    for mine, ref in zip(*results):
        assert mine.shape == ref.shape
        np.testing.assert_allclose(mine, ref, rtol=1e-10, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(-9, 20), batch=st.lists(st.integers(0, 2), max_size=2))
def test_matrix_power_matches_torch(n, batch):
    torch = pytest.importorskip("torch", reason="PyTorch is the oracle; install torch==2.13.0")
    a = (_RNG.standard_normal((*batch, 3, 3)) + 3 * np.eye(3)) / 3
    results = []
    for lib in (minitorch, torch):
        x = lib.tensor(a, requires_grad=True)
        out = lib.matrix_power(x, n)
        out.sum().backward()
        results.append((out.detach().numpy(), x.grad.numpy(), out.grad_fn.name()))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-10, atol=1e-12)
    assert results[0][2] == results[1][2]


_WARN_TWICE = '''
import warnings
import {lib} as lib
a = lib.ones(3, 3) + 2 * lib.eye(3)
for call in [lambda: lib.cross(a, a), lambda: lib.cholesky(a), lambda: lib.chain_matmul(a, a)]:
    for _ in range(2):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        print([str(w.message).split(" (Triggered")[0] for w in caught])  # torch adds where
'''


def test_deprecated_forms_warn_once_as_torch_does():
    """``cross`` without ``dim``, ``cholesky`` and ``chain_matmul`` warn once a process
    (TORCH_WARN_ONCE), so each library runs in a fresh interpreter."""
    pytest.importorskip("torch", reason="PyTorch is the oracle; install torch==2.13.0")
    printed = [subprocess.run([sys.executable, "-c", _WARN_TWICE.format(lib=name)],
                              capture_output=True, text=True, check=True).stdout
               for name in ("minitorch", "torch")]
    assert printed[0] == printed[1]
    lines = printed[0].splitlines()
    assert [len(eval(line)) for line in lines] == [1, 0, 1, 0, 1, 0]


def test_cross_without_dim_takes_the_first_dimension_of_size_3():
    a, b = _t(3, 3), _t(3, 3)
    with warnings.catch_warnings():  # the deprecation warning (tested above)
        warnings.simplefilter("ignore")
        out = minitorch.cross(a, b)
    np.testing.assert_array_equal(out.detach().numpy(), np.cross(a.detach().numpy(),
                                                                 b.detach().numpy(), axis=0))
