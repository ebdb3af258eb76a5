"""OpInfo samples of ``trace``, ``vdot``, ``inner``, ``kron``, ``tensordot``, ``chain_matmul``,
``cross``, ``det``, ``logdet``, ``slogdet``, ``inverse``, ``matrix_power``, ``cholesky``,
``dist`` and ``renorm`` (the functions, the Tensor methods and the ``linalg.*`` forms, with
``linalg.multi_dot``).

``_opinfo_samples._build_table`` calls :func:`add_samples`; the samples use the same input
families and the same comparison as every other op (see ``tests/_opinfo_samples.py``). The
matrices of the decompositions are well conditioned (``_spd``: a normal matrix plus 3 I), so
that PyTorch's rounding and NumPy's LAPACK agree to the tolerance; ``cholesky``'s samples go
through ``A A^T + I``, symmetric by construction, as PyTorch's own tests do (its gradient is
symmetric, and finite differences of the upper triangle, which it never reads, are 0).
"""

from __future__ import annotations

import numpy as np
from _opinfo_samples import (
    _OUT_ARGS,
    INF,
    NAN,
    A,
    Sample,
    _chain,
    _out_call,
    _spd,
    all_families,
    chain_matmul_samples,
    f32,
    linalg_square_samples,
    out_samples,
    rnd,
    tensordot_samples,
)
from _opinfo_samples_api import cross_samples
from _opinfo_samples_pointwise import _graph


def _call(op):
    """``op`` ("fn:name", "method:name" or "linalg:name") as ``call(lib, *args, **kw)``."""
    style, name = op.split(":")

    def call(lib, *args, **kw):
        if style == "method":
            return getattr(args[0], name)(*args[1:], **kw)
        return getattr(lib.linalg if style == "linalg" else lib, name)(*args, **kw)
    return call


def _node_sample(op, *args, **kw):
    return Sample(op, "node", args, kw, call=_graph(_call(op)))


# --------------------------------------------------------------------------- trace
def trace_samples(op):
    def gen():
        for fam, a in all_families():
            yield Sample(op, fam, (a,), gradgrad=fam == "ordinary")
        yield Sample(op, "square", (A(rnd(3, 3)),), gradgrad=True)
        yield Sample(op, "wide", (A(rnd(2, 5)),))
        yield Sample(op, "empty-both", (A(np.zeros((0, 0), np.float32)),))
        yield Sample(op, "int8", (A(np.array([[100, 1], [2, 100]], np.int8)),))
        yield Sample(op, "float16-sum", (A(np.full((300, 300), 100.0, np.float16)),))
        yield Sample(op, "inf-grad", (A(f32([[INF, 1.0], [2.0, -INF]])),))
        yield Sample(op, "1-d", (A(rnd(3)),))
        yield Sample(op, "3-d", (A(rnd(2, 2, 2)),))
        yield _node_sample(op, A(rnd(3, 3)))
    return gen


# --------------------------------------------------------------------------- vdot, inner, kron
def vdot_samples(op):
    def gen():
        yield Sample(op, "ordinary", (A(rnd(4)), A(rnd(4))), gradgrad=True)
        yield Sample(op, "float64", (A(rnd(3, dtype=np.float64)), A(rnd(3, dtype=np.float64))))
        yield Sample(op, "float16", (A(rnd(3, dtype=np.float16)), A(rnd(3, dtype=np.float16))))
        yield Sample(op, "int", (A(np.array([1, 2, 3])), A(np.array([4, -5, 6]))))
        yield Sample(op, "empty", (A(np.zeros(0, np.float32)), A(np.zeros(0, np.float32))))
        yield Sample(op, "inf-nan", (A(f32([INF, 1.0, NAN])), A(f32([1.0, 0.0, 2.0]))))
        yield Sample(op, "strided", (A(rnd(4), layout="step"), A(rnd(4))))
        yield Sample(op, "bool", (A(np.array([True])), A(np.array([True]))))
        yield Sample(op, "mixed-dtype", (A(np.array([1, 2])), A(f32([1.0, 2.0]))))
        yield Sample(op, "length-mismatch", (A(rnd(3)), A(rnd(4))))
        yield Sample(op, "2-d", (A(rnd(2, 2)), A(rnd(2, 2))))
        yield Sample(op, "0-d", (A(f32(1.0)), A(f32(2.0))))
        yield _node_sample(op, A(rnd(3)), A(rnd(3)))
    return gen


def inner_samples(op):
    def gen():
        yield Sample(op, "ordinary", (A(rnd(3, 4)), A(rnd(2, 4))), gradgrad=True)
        yield Sample(op, "vectors", (A(rnd(4)), A(rnd(4))))
        yield Sample(op, "vector-matrix", (A(rnd(4)), A(rnd(2, 3, 4))))
        yield Sample(op, "3-d", (A(rnd(2, 3, 4)), A(rnd(5, 4))))
        yield Sample(op, "noncontig", (A(rnd(3, 4), layout="T"), A(rnd(2, 4))))
        yield Sample(op, "0-d", (A(f32(2.5)), A(rnd(2, 3))))
        yield Sample(op, "0-d-other", (A(rnd(2, 3)), A(f32(2.5))))
        yield Sample(op, "0-d-int-float", (A(np.array(2)), A(rnd(3))))
        yield Sample(op, "float64", (A(rnd(2, 3, dtype=np.float64)),
                                     A(rnd(3, dtype=np.float64))))
        yield Sample(op, "int", (A(np.array([[1, 2], [3, 4]])), A(np.array([5, 6]))))
        yield Sample(op, "empty", (A(np.zeros((0, 3), np.float32)), A(rnd(2, 3))))
        yield Sample(op, "empty-inner", (A(np.zeros((2, 0), np.float32)),
                                         A(np.zeros((3, 0), np.float32))))
        yield Sample(op, "mismatch", (A(rnd(3)), A(rnd(4))))
        yield Sample(op, "mismatch-2-d", (A(rnd(2, 3)), A(rnd(4, 4))))
        yield Sample(op, "mixed-dtype", (A(np.array([1, 2])), A(f32([1.0, 2.0]))))
        yield Sample(op, "bool", (A(np.array([True, False])), A(np.array([True, True]))))
        yield Sample(op, "bool-2-d", (A(np.ones((2, 2), bool)), A(np.ones((3, 2), bool))))
        yield _node_sample(op, A(rnd(2, 3)), A(rnd(3)))
        yield Sample(op, "node-vectors", (A(rnd(3)), A(rnd(3))), call=_graph(_call(op)))
    return gen


def kron_samples(op):
    def gen():
        yield Sample(op, "ordinary", (A(rnd(2, 3)), A(rnd(3, 2))), gradgrad=True)
        yield Sample(op, "vectors", (A(rnd(2)), A(rnd(3))))
        yield Sample(op, "vector-matrix", (A(rnd(2)), A(rnd(3, 4))))
        yield Sample(op, "3-d-2-d", (A(rnd(2, 1, 2)), A(rnd(2, 3))))
        yield Sample(op, "0-d", (A(f32(2.0)), A(rnd(2, 2))))
        yield Sample(op, "0-d-both", (A(f32(2.0)), A(f32(-3.0))))
        yield Sample(op, "noncontig", (A(rnd(2, 3), layout="T"), A(rnd(2, 2))))
        yield Sample(op, "empty", (A(np.zeros((0, 2), np.float32)), A(rnd(2, 2))))
        yield Sample(op, "float64", (A(rnd(2, 2, dtype=np.float64)),
                                     A(rnd(2, 2, dtype=np.float64))))
        yield Sample(op, "float16", (A(rnd(2, 2, dtype=np.float16)),
                                     A(rnd(2, 2, dtype=np.float16))))
        yield Sample(op, "int-float", (A(np.array([[1, 2]])), A(rnd(2, 2))))
        yield Sample(op, "int", (A(np.array([[1, -2]])), A(np.array([[3], [4]], np.int32))))
        yield Sample(op, "bool", (A(np.array([True, False])), A(np.array([[True, True]]))))
        yield Sample(op, "inf-nan", (A(f32([INF, 0.0])), A(f32([1.0, NAN]))))
        yield _node_sample(op, A(rnd(2, 2)), A(rnd(2)))
    return gen


# --------------------------------------------------------------------------- cross without dim
def torch_cross_samples(op):
    """``torch.cross`` and ``Tensor.cross``: ``linalg.cross``'s samples with ``dim`` given,
    and the deprecated default (the first dimension of size 3)."""
    def gen():
        for s in cross_samples(op)():
            if "dim" not in s.kwargs:
                s.kwargs["dim"] = -1
            yield s
        yield Sample(op, "default-dim", (A(rnd(3, 3)), A(rnd(3, 3))), gradgrad=True)
        yield Sample(op, "default-dim-last", (A(rnd(4, 3)), A(rnd(4, 3))))
        yield Sample(op, "default-dim-middle", (A(rnd(2, 3, 5)), A(rnd(2, 3, 5))))
        yield Sample(op, "default-dim-broadcast", (A(rnd(1, 3)), A(rnd(4, 3))))
        yield Sample(op, "default-dim-none", (A(rnd(4, 4)), A(rnd(4, 4))))
        yield Sample(op, "default-dim-ndim", (A(rnd(3)), A(rnd(2, 3))))
        yield Sample(op, "dim-None", (A(rnd(3, 2)), A(rnd(3, 2))), {"dim": None})
        yield _node_sample(op, A(rnd(2, 3)), A(rnd(2, 3)), dim=1)
    return gen


# --------------------------------------------------------------------------- multi_dot
def _multi_dot(lib, *tensors, **kw):
    return lib.linalg.multi_dot(list(tensors), **kw)


def multi_dot_samples(op):
    def gen():
        for fam, shapes in [("two", ((2, 3), (3, 4))), ("three", ((2, 3), (3, 4), (4, 2))),
                            ("three-right", ((5, 4), (4, 3), (3, 1))),
                            ("four", ((2, 5), (5, 3), (3, 6), (6, 2))),
                            ("five", ((10, 3), (3, 8), (8, 2), (2, 9), (9, 4))),
                            ("vector-first", ((3,), (3, 4), (4, 2))),
                            ("vector-last", ((2, 3), (3, 4), (4,))),
                            ("vectors", ((3,), (3,))), ("vector-both", ((3,), (3, 4), (4,))),
                            ("empty", ((0, 3), (3, 2))), ("empty-inner", ((2, 0), (0, 3)))]:
            yield Sample(op, fam, tuple(A(rnd(*s)) for s in shapes),
                         gradgrad=fam in ("three", "four"), call=_multi_dot)
        yield Sample(op, "float64", (A(rnd(2, 2, dtype=np.float64)),
                                     A(rnd(2, 2, dtype=np.float64))), call=_multi_dot)
        yield Sample(op, "int", (A(np.array([[1, 2]])), A(np.array([[3], [4]]))),
                     call=_multi_dot)
        yield Sample(op, "one", (A(rnd(2, 2)),), call=_multi_dot)
        yield Sample(op, "none", (), call=_multi_dot)
        yield Sample(op, "3-d-first", (A(rnd(2, 2, 2)), A(rnd(2, 2))), call=_multi_dot)
        yield Sample(op, "3-d-last", (A(rnd(2, 2)), A(rnd(2, 2, 2))), call=_multi_dot)
        yield Sample(op, "1-d-middle", (A(rnd(2, 2)), A(rnd(2)), A(rnd(2, 2))), call=_multi_dot)
        yield Sample(op, "mismatch", (A(rnd(3, 4)), A(rnd(3, 2))), call=_multi_dot)
        yield Sample(op, "mixed-dtype", (A(rnd(2, 2)), A(np.eye(2, dtype=np.int64))),
                     call=_multi_dot)
        yield Sample(op, "node", (A(rnd(2, 3)), A(rnd(3, 4)), A(rnd(4, 2))),
                     call=_graph(_multi_dot))
    return gen


# --------------------------------------------------------------------------- determinants
def slogdet_samples(op):
    """``linalg_square_samples`` (ordinary, batch, singular, empty, errors, NaN) and the sign
    of a negative determinant (``logdet`` is NaN there)."""
    def gen():
        yield from linalg_square_samples(op)()
        yield Sample(op, "negative", (A(f32([[0.0, 2.0], [3.0, 1.0]])),), gradgrad=True)
        yield Sample(op, "batch-signs", (A(np.stack([_spd(3, 3), -_spd(3, 3)])),))
        yield Sample(op, "large", (A(_spd(40, 40, dtype=np.float64) * 100),))
        logabsdet = _call(op) if op.endswith(":logdet") else \
            (lambda lib, a: _call(op)(lib, a).logabsdet)
        yield Sample(op, "node", (A(_spd(3, 3)),), call=_graph(logabsdet))
    return gen


# --------------------------------------------------------------------------- matrix power
def matrix_power_samples(op):
    def gen():
        a = A(_spd(3, 3))
        for n in (0, 1, 2, 3, 4, 5, 6, 7, 13, -1, -2, -3, -6):
            yield Sample(op, f"n{n}", (a, n), gradgrad=n in (0, 3, 6, -2))
        yield Sample(op, "batch", (A(_spd(2, 3, 3)), 5))
        yield Sample(op, "batch-inverse", (A(_spd(2, 3, 3)), -4))
        yield Sample(op, "float64", (A(_spd(3, 3, dtype=np.float64)), 6))
        yield Sample(op, "float16", (A(_spd(2, 2, dtype=np.float16)), 3))
        yield Sample(op, "float16-inverse", (A(_spd(2, 2, dtype=np.float16)), -1))
        yield Sample(op, "int", (A(np.array([[1, 1], [0, 1]])), 9))
        yield Sample(op, "int-0", (A(np.array([[1, 1], [0, 1]])), 0))
        yield Sample(op, "int-inverse", (A(np.array([[1, 1], [0, 1]])), -1))
        yield Sample(op, "bool", (A(np.eye(2, dtype=bool)), 2))
        yield Sample(op, "empty", (A(np.zeros((0, 0), np.float32)), 4))
        yield Sample(op, "empty-batch", (A(np.zeros((0, 2, 2), np.float32)), 3))
        yield Sample(op, "noncontig", (A(_spd(3, 3), layout="T"), 4))
        yield Sample(op, "singular-inverse", (A(f32([[1.0, 2.0], [2.0, 4.0]])), -2))
        yield Sample(op, "not-square", (A(rnd(2, 3)), 2))
        yield Sample(op, "1-d", (A(rnd(3)), 2))
        yield Sample(op, "float-n", (a, 2.0), msg=0)
        yield _node_sample(op, A(_spd(3, 3)), 5)
    return gen


# --------------------------------------------------------------------------- cholesky
def _spd_call(op):
    """``op`` applied to ``A A^T + I`` (or ``A`` itself with ``raw=True``)."""
    call = _call(op)

    def spd_call(lib, a, *args, raw=False, **kw):
        if not raw:
            a = a @ a.mT + lib.eye(a.shape[-1], dtype=a.dtype, device=a.device)
        return call(lib, a, *args, **kw)
    return spd_call


def cholesky_samples(op):
    upper = {"upper": True} if op != "fn:cholesky" else {}
    upper_args = (True,) if op == "fn:cholesky" else ()

    def gen():
        call = _spd_call(op)
        yield Sample(op, "ordinary", (A(rnd(3, 3)),), gradgrad=True, call=call)
        yield Sample(op, "upper", (A(rnd(3, 3)), *upper_args), upper, gradgrad=True, call=call)
        yield Sample(op, "batch", (A(rnd(2, 4, 4)),), call=call)
        yield Sample(op, "float64", (A(rnd(4, 4, dtype=np.float64)),), gradgrad=True,
                     call=call)
        yield Sample(op, "1x1", (A(f32([[4.0]])),), {"raw": True}, call=call)
        yield Sample(op, "empty", (A(np.zeros((0, 0), np.float32)),), {"raw": True}, call=call)
        yield Sample(op, "lower-triangle-read", (A(f32([[4.0, 100.0], [2.0, 5.0]])),),
                     {"raw": True}, call=call)
        yield Sample(op, "noncontig", (A(_spd(3, 3), layout="T"),), {"raw": True}, call=call)
        yield Sample(op, "not-positive-definite", (A(f32([[1.0, 2.0], [2.0, 1.0]])),),
                     {"raw": True}, call=call, msg=400)
        yield Sample(op, "negative-first", (A(f32([[-1.0, 0.0], [0.0, 1.0]])),),
                     {"raw": True}, call=call, msg=400)
        yield Sample(op, "order-3", (A(f32([[2.0, 1.0, 0.0], [1.0, 2.0, 3.0],
                                            [0.0, 3.0, 1.0]])),),
                     {"raw": True}, call=call, msg=400)
        yield Sample(op, "batch-element", (A(np.stack([np.eye(2, dtype=np.float32),
                                                       f32([[1.0, 2.0], [2.0, 1.0]])])),),
                     {"raw": True}, call=call, msg=400)
        yield Sample(op, "nan", (A(f32([[NAN, 0.0], [0.0, 1.0]])),), {"raw": True}, call=call,
                     msg=400)
        yield Sample(op, "not-square", (A(rnd(2, 3)),), {"raw": True}, call=call)
        yield Sample(op, "1-d", (A(rnd(3)),), {"raw": True}, call=call)
        yield Sample(op, "int", (A(np.eye(2, dtype=np.int64)),), {"raw": True}, call=call)
        yield Sample(op, "float16", (A(np.eye(2, dtype=np.float16)),), {"raw": True}, call=call)
        yield Sample(op, "node", (A(_spd(3, 3) @ _spd(3, 3).T),), call=_graph(_call(op)))
    return gen


# --------------------------------------------------------------------------- dist, renorm
def dist_samples(op):
    def gen():
        for fam, a in all_families():
            b = A(np.ones_like(a.arr))
            for p in (2, 1, 3, 0.5, INF, -INF, 0, -1):
                yield Sample(op, f"{fam}-p{p}", (a, b, p), gradgrad=fam == "ordinary")
        yield Sample(op, "default-p", (A(rnd(3, 4)), A(rnd(3, 4))), gradgrad=True)
        yield Sample(op, "broadcast", (A(rnd(3, 1)), A(rnd(4))), {"p": 3})
        yield Sample(op, "0-d-other", (A(rnd(3)), A(np.array(1.0))))
        yield Sample(op, "promotion", (A(rnd(3, dtype=np.float16)), A(rnd(3))))
        yield Sample(op, "int-float", (A(np.array([1, 2, 3])), A(rnd(3))))
        yield Sample(op, "equal", (A(f32([1.0, 2.0])), A(f32([1.0, 2.0]))), {"p": 3})
        yield Sample(op, "mismatch", (A(rnd(3)), A(rnd(4))))
        yield Sample(op, "other-number", (A(rnd(3)), 1.0), msg=0)
        yield Sample(op, "p-str", (A(rnd(3)), A(rnd(3)), "fro"), msg=0)
        yield Sample(op, "empty-inf", (A(np.zeros(0, np.float32)), A(np.zeros(0, np.float32)),
                                       INF))
        yield _node_sample(op, A(rnd(3)), A(rnd(3)))
    return gen


def _renorm_(lib, x, *args):
    return x.clone().renorm_(*args)


def renorm_samples(op):
    call = _renorm_ if op == "method:renorm_" else None

    def gen():
        for fam, a in all_families():
            for p, dim, maxnorm in ((2, 0, 1.0), (1, -1, 0.5), (3, 1, 2.0), (INF, 0, 0.7)):
                yield Sample(op, f"{fam}-p{p}-dim{dim}", (a, p, dim, maxnorm),
                             gradgrad=fam == "ordinary", call=call)
        yield Sample(op, "3-d", (A(rnd(2, 3, 4)), 2, 1, 1.5), gradgrad=True, call=call)
        yield Sample(op, "p-half", (A(rnd(3, 4)), 0.5, 0, 3.0), call=call)
        yield Sample(op, "maxnorm-0", (A(rnd(3, 4)), 2, 0, 0.0), call=call)
        yield Sample(op, "big-maxnorm", (A(rnd(3, 4)), 2, 0, 100.0), call=call)
        yield Sample(op, "int-args", (A(rnd(3, 4)), 2, 0, 1), call=call)
        yield Sample(op, "p-0", (A(rnd(3, 4)), 0, 0, 1.0), call=call)
        yield Sample(op, "p-negative", (A(rnd(3, 4)), -1, 0, 1.0), call=call)
        yield Sample(op, "maxnorm-negative", (A(rnd(3, 4)), 2, 0, -1.0), call=call)
        yield Sample(op, "1-d", (A(rnd(3)), 2, 0, 1.0), call=call)
        yield Sample(op, "bad-dim", (A(rnd(3, 4)), 2, 2, 1.0), call=call)
        if call is None:
            yield _node_sample(op, A(rnd(3, 4)), 2, 0, 1.0)
    return gen


# --------------------------------------------------------------------------- eigh, eigvalsh, qr
def _sym(*shape, dtype=np.float32):
    m = rnd(*shape, dtype=np.float64)
    return ((m + np.swapaxes(m, -1, -2)) / 2).astype(dtype)


def _eigh_invariants(lib, a, **kw):
    """What does not depend on the eigenvectors' signs: the eigenvalues, ``V diag(L) V^T``
    (it is ``A``'s chosen triangle made symmetric), ``V V^T`` and each ``V_ij^2`` weighted
    by ``L_j`` (which feed every part of the backward)."""
    values, vectors = lib.linalg.eigh(a, **kw)
    return (values, vectors @ lib.diag_embed(values) @ vectors.mT, vectors @ vectors.mT,
            vectors * vectors * values.unsqueeze(-2))


def _symmetrized(call):
    """``call`` of ``(A + A^T) / 2``: finite differences of the triangle that ``eigh`` does
    not read are 0, and its gradient is symmetric, so gradcheck needs a symmetric function."""
    return lambda lib, a, **kw: call(lib, (a + a.mT) / 2, **kw)


def eigh_samples(op):
    call = _eigh_invariants if op == "linalg:eigh" else _call(op)

    def gen():
        yield Sample(op, "ordinary", (A(rnd(4, 4)),), gradgrad=True, call=_symmetrized(call))
        yield Sample(op, "float64", (A(rnd(4, 4, dtype=np.float64)),), gradgrad=True,
                     call=_symmetrized(call))
        yield Sample(op, "batch", (A(_sym(2, 3, 3)),), call=call)
        yield Sample(op, "upper", (A(rnd(3, 3)),), {"UPLO": "U"}, call=call)
        yield Sample(op, "lower-read", (A(rnd(3, 3)),), call=call)
        yield Sample(op, "1x1", (A(f32([[2.0]])),), call=call)
        yield Sample(op, "empty", (A(np.zeros((0, 0), np.float32)),), call=call)
        yield Sample(op, "empty-batch", (A(np.zeros((0, 2, 2), np.float32)),), call=call)
        yield Sample(op, "diagonal", (A(f32([[3.0, 0.0], [0.0, -1.0]])),), call=call)
        yield Sample(op, "noncontig", (A(_sym(3, 3), layout="T"),), call=call)
        yield Sample(op, "bad-uplo", (A(_sym(2, 2)),), {"UPLO": "X"}, call=call)
        yield Sample(op, "not-square", (A(rnd(2, 3)),), call=call)
        yield Sample(op, "1-d", (A(rnd(3)),), call=call)
        yield Sample(op, "int", (A(np.eye(2, dtype=np.int64)),), call=call)
        yield Sample(op, "float16", (A(np.eye(2, dtype=np.float16)),), call=call)
        if op == "linalg:eigvalsh":
            yield _node_sample(op, A(_sym(3, 3)))
    return gen


def _qr_invariants(lib, a, **kw):
    """``Q R``, ``Q^T Q`` and ``|R|``: the same whatever the signs LAPACK picks."""
    q, r = lib.linalg.qr(a, **kw)
    return q @ r, q.mT @ q, r.abs()


def qr_samples(op):
    def gen():
        for fam, shape in (("square", (3, 3)), ("tall", (5, 3)), ("wide", (3, 5)),
                           ("batch", (2, 4, 3)), ("batch-wide", (2, 2, 4))):
            yield Sample(op, fam, (A(rnd(*shape)),), gradgrad=fam in ("tall", "wide"))
            yield Sample(op, f"{fam}-invariants", (A(rnd(*shape)),), call=_qr_invariants)
        yield Sample(op, "ordinary", (A(rnd(4, 3, dtype=np.float64)),), gradgrad=True)
        yield Sample(op, "complete-square", (A(rnd(3, 3)),), {"mode": "complete"})
        yield Sample(op, "complete-wide", (A(rnd(2, 4)),), {"mode": "complete"})
        yield Sample(op, "complete-tall", (A(rnd(4, 2)),), {"mode": "complete"})
        yield Sample(op, "r", (A(rnd(4, 3)),), {"mode": "r"})
        yield Sample(op, "noncontig", (A(rnd(3, 3), layout="T"),))
        yield Sample(op, "zeros", (A(np.zeros((3, 2), np.float32)),), call=_qr_invariants)
        yield Sample(op, "empty", (A(np.zeros((0, 3), np.float32)),))
        yield Sample(op, "bad-mode", (A(rnd(2, 2)),), {"mode": "x"})
        yield Sample(op, "1-d", (A(rnd(3)),))
        yield Sample(op, "int", (A(np.eye(2, dtype=np.int64)),))
        yield Sample(op, "float16", (A(np.eye(2, dtype=np.float16)),))
        yield Sample(op, "node", (A(rnd(3, 3)),), call=_graph(lambda lib, a: lib.linalg.qr(a).Q))
    return gen


# --------------------------------------------------------------------------- pinv, matrix_rank, svd
def _rank_deficient(dtype=np.float32):
    """A 4 x 3 matrix of rank 2: a column of zeros, whose singular value is exactly 0 (a
    column that is a sum of the others would leave one of rounding size, which the
    pseudo-inverse magnifies differently in each library)."""
    return np.concatenate([rnd(4, 2), np.zeros((4, 1))], 1).astype(dtype)


def pinv_samples(op):
    def gen():
        for fam, shape in (("square", (3, 3)), ("tall", (5, 3)), ("wide", (3, 5)),
                           ("batch", (2, 4, 3))):
            yield Sample(op, fam, (A(rnd(*shape)),), gradgrad=fam in ("tall", "wide"))
        yield Sample(op, "ordinary", (A(rnd(4, 3, dtype=np.float64)),), gradgrad=True)
        yield Sample(op, "rank-deficient", (A(_rank_deficient()),))
        yield Sample(op, "rank-deficient-float64", (A(_rank_deficient(np.float64)),))
        yield Sample(op, "zeros", (A(np.zeros((3, 2), np.float32)),))
        yield Sample(op, "empty", (A(np.zeros((0, 3), np.float32)),))
        yield Sample(op, "noncontig", (A(rnd(3, 3), layout="T"),))
        if op == "fn:pinverse" or op == "method:pinverse":
            yield Sample(op, "rcond", (A(rnd(3, 3)), 0.3))
        else:
            yield Sample(op, "hermitian", (A(_sym(3, 3) + 3 * np.eye(3, dtype=np.float32)),),
                         {"hermitian": True})
            yield Sample(op, "rtol", (A(rnd(3, 3)),), {"rtol": 0.3})
            yield Sample(op, "atol", (A(rnd(3, 3)),), {"atol": 0.5})
            yield Sample(op, "atol-rtol", (A(rnd(3, 3)),), {"atol": 0.1, "rtol": 0.4})
            yield Sample(op, "rcond", (A(rnd(3, 3)),), {"rcond": 0.3})
        yield Sample(op, "1-d", (A(rnd(3)),))
        yield Sample(op, "int", (A(np.eye(2, dtype=np.int64)),))
        yield Sample(op, "float16", (A(np.eye(2, dtype=np.float16)),))
        yield _node_sample(op, A(rnd(3, 2)))
    return gen


def matrix_rank_samples(op):
    def gen():
        yield Sample(op, "full", (A(rnd(3, 3)),))
        yield Sample(op, "rank-deficient", (A(_rank_deficient()),))
        yield Sample(op, "rank-deficient-float64", (A(_rank_deficient(np.float64)),))
        yield Sample(op, "ones", (A(np.ones((3, 4), np.float32)),))
        yield Sample(op, "zeros", (A(np.zeros((3, 2), np.float32)),))
        yield Sample(op, "batch", (A(np.stack([np.eye(3), np.ones((3, 3))]).astype(np.float32)),))
        yield Sample(op, "empty", (A(np.zeros((0, 3), np.float32)),))
        yield Sample(op, "hermitian", (A(_sym(3, 3)),), {"hermitian": True})
        yield Sample(op, "tol", (A(np.diag(f32([3.0, 0.4, 0.1]))), 0.5))
        yield Sample(op, "atol", (A(np.diag(f32([3.0, 0.4, 0.1]))),), {"atol": 0.2})
        yield Sample(op, "rtol", (A(np.diag(f32([3.0, 0.4, 0.1]))),), {"rtol": 0.1})
        yield Sample(op, "atol-rtol", (A(np.diag(f32([3.0, 0.4, 0.1]))),),
                     {"atol": 0.05, "rtol": 0.1})
        yield Sample(op, "1-d", (A(rnd(3)),))
        yield Sample(op, "int", (A(np.eye(2, dtype=np.int64)),))
    return gen


def torch_svd_samples(op):
    method = op == "method:svd"

    def call(lib, a, *args):
        u, s, v = a.svd(*args) if method else lib.svd(a, *args)
        k = s.shape[-1]
        u_k, v_k = u[..., :k], v[..., :k]
        return s, (u_k * s.unsqueeze(-2)) @ v_k.mT, u_k @ u_k.mT, v_k @ v_k.mT, u.shape, v.shape

    def gen():
        for fam, shape in (("square", (3, 3)), ("tall", (4, 2)), ("wide", (2, 4)),
                           ("batch", (2, 3, 2))):
            yield Sample(op, fam, (A(rnd(*shape)),), call=call)
            yield Sample(op, f"{fam}-not-some", (A(rnd(*shape)), False), call=call)
        yield Sample(op, "ordinary", (A(rnd(3, 3, dtype=np.float64)),), call=call)
        yield Sample(op, "values-only", (A(rnd(3, 2)), True, False))
        yield Sample(op, "values-only-not-some", (A(rnd(3, 2)), False, False))
        yield Sample(op, "1-d", (A(rnd(3)),))
        yield Sample(op, "int", (A(np.eye(2, dtype=np.int64)),))
        yield Sample(op, "node-V", (A(rnd(3, 2)),), call=_graph(
            lambda lib, a: a.svd().V if method else lib.svd(a).V))
    return gen


# --------------------------------------------------------------------------- the table
_OUT_ARGS.update({
    "kron": lambda: ((A(rnd(2), grad=False), A(rnd(2, 2), grad=False)), (2, 4)),
    "inverse": lambda: ((A(_spd(3, 3), grad=False),), (3, 3)),
    "cross": lambda: ((A(rnd(2, 3), grad=False), A(rnd(2, 3), grad=False), 1), (2, 3)),
    "renorm": lambda: ((A(rnd(2, 3), grad=False), 2, 0, 1.0), (2, 3)),
    "vdot": lambda: ((A(rnd(3), grad=False), A(rnd(3), grad=False)), ()),
    "chain_matmul": lambda: ((A(rnd(2, 3), grad=False), A(rnd(3, 4), grad=False),
                              A(rnd(4, 2), grad=False)), (2, 2)),
})


def known_differences() -> list:
    """(sample-id pattern, verdict, reason), added to ``_opinfo_samples.KNOWN_DIFFERENCES``."""
    from _opinfo_samples import ACCEPTS, REJECTS, SILENT

    singular = ("the gradient of log|det A| at a singular matrix, where it is infinite: "
                "PyTorch's LU solve returns a mixture of inf and NaN that depends on its "
                "pivoting; minitorch's backward (A^-T) raises linalg.inv's LinAlgError instead "
                "of returning numbers that mean nothing. The values (sign 0, -inf) agree")
    return [
        ("*:det[singular]", SILENT, "as linalg:det[singular]: the gradient of det at a "
         "singular matrix (minitorch: the cofactor matrix, which finite differences confirm)"),
        ("*:*logdet[singular]", REJECTS, singular),
        ("*:*logdet[zeros]", REJECTS, singular),
        ("linalg:qr[zeros]", REJECTS,
         "the gradient of QR at a rank-deficient matrix (R has a zero on its diagonal), which "
         "is not defined: PyTorch's triangular solve divides by that zero and returns inf and "
         "NaN; minitorch's backward (a solve with R) raises linalg.solve's LinAlgError"),
        ("*:kron[noncontig]", ACCEPTS,
         "PyTorch 2.13's kron of a transposed operand raises 'view size is not compatible': "
         "its broadcast product keeps the operand's memory order and the final _unsafe_view "
         "cannot see it as the result's shape; minitorch returns the Kronecker product (the "
         "same operand made contiguous gives the same numbers in both)"),
    ]


_OUT_ARGS.update({  # the linalg functions' out=, under names of their own
    "linalg.inv": _OUT_ARGS["inverse"],
    "linalg.det": lambda: ((A(_spd(3, 3), grad=False),), ()),
    "linalg.cross": lambda: ((A(rnd(2, 3), grad=False), A(rnd(2, 3), grad=False)), (2, 3)),
    "linalg.cholesky": lambda: ((A(_gram(_spd(3, 3)), grad=False),), (3, 3)),
    "linalg.pinv": lambda: ((A(rnd(3, 2), grad=False),), (2, 3)),
    "linalg.multi_dot": lambda: (([A(rnd(2, 3), grad=False), A(rnd(3, 4), grad=False),
                                   A(rnd(4, 2), grad=False)],), (2, 2)),
    "linalg.solve": lambda: ((A(_spd(3, 3), grad=False), A(rnd(3, 2), grad=False)), (3, 2)),
})


def _gram(m):
    return m @ m.T


def _linalg_out_samples(name):
    """``out_samples`` of ``linalg.<name>``, called as ``lib.linalg.<name>(..., out=t)``."""
    def call(lib, *args, out, **kw):
        result = getattr(lib.linalg, name)(*args, out=out, **kw)
        values = result.float() if result.dtype == lib.float64 else result
        return result.dtype, values, result is out

    def gen():
        for s in out_samples(f"linalg.{name}")():
            yield Sample(f"linalg:{name}", s.family, s.args, s.kwargs, call=call, msg=s.msg)
    return gen


def add_samples(t: dict) -> None:
    for style in ("fn", "method"):
        for name, gen in (("trace", trace_samples), ("vdot", vdot_samples),
                          ("inner", inner_samples), ("kron", kron_samples),
                          ("cross", torch_cross_samples), ("det", linalg_square_samples),
                          ("logdet", slogdet_samples), ("slogdet", slogdet_samples),
                          ("inverse", linalg_square_samples),
                          ("matrix_power", matrix_power_samples),
                          ("cholesky", cholesky_samples), ("dist", dist_samples),
                          ("renorm", renorm_samples)):
            t[f"{style}:{name}"] = gen(f"{style}:{name}")
    t["fn:tensordot"] = tensordot_samples("fn:tensordot")
    t["fn:chain_matmul"] = _chain(chain_matmul_samples("fn:chain_matmul"), lambda: (
        Sample("fn:chain_matmul", f"one-{fam}", (A(rnd(2, 3), grad=False),),
               {"out": A(np.zeros(shape, np.float32), False, "own")},
               call=_out_call("chain_matmul")) for fam, shape in (("out", (2, 3)),
                                                                  ("out-empty", (0,)),
                                                                  ("out-resize", (5,)))))
    t["method:renorm_"] = renorm_samples("method:renorm_")
    t["linalg:multi_dot"] = multi_dot_samples("linalg:multi_dot")
    for name in ("eigh", "eigvalsh"):
        t[f"linalg:{name}"] = eigh_samples(f"linalg:{name}")
    t["linalg:qr"] = qr_samples("linalg:qr")
    t["linalg:pinv"] = pinv_samples("linalg:pinv")
    t["linalg:matrix_rank"] = matrix_rank_samples("linalg:matrix_rank")
    for style in ("fn", "method"):
        t[f"{style}:pinverse"] = pinv_samples(f"{style}:pinverse")
        t[f"{style}:svd"] = torch_svd_samples(f"{style}:svd")
    for name in ("slogdet", "matrix_power", "cholesky"):
        gen = {"slogdet": slogdet_samples, "matrix_power": matrix_power_samples,
               "cholesky": cholesky_samples}[name]
        t[f"linalg:{name}"] = gen(f"linalg:{name}")
    for name in _OUT_ARGS_LINALG:
        t[f"fn:{name}"] = _chain(t[f"fn:{name}"], out_samples(name))
    for name in ("inv", "det", "cross", "cholesky", "pinv", "solve", "multi_dot"):
        t[f"linalg:{name}"] = _chain(t[f"linalg:{name}"], _linalg_out_samples(name))


_OUT_ARGS_LINALG = ("kron", "inverse", "cross", "renorm", "chain_matmul", "vdot")
