"""The gradients' graphs that still differ from PyTorch 2.13's (gradgraph task).

``test_opinfo.py`` compares, for every sample with a floating output and an input that
requires grad, the graph that ``create_graph=True`` records for the first-order gradients,
node for node (verdict ``GRAD_GRAPH``). The values and second derivatives agree (the table
compares them too); what differs is how minitorch's backward formula is recorded. The
samples in ``GRAD_GRAPHS_NOT_YET_FIXED`` differ and are not fixed yet (NOT deliberate: each
should be fixed and removed; none is left); those in ``GRAD_GRAPHS_KEPT_DIFFERENT`` differ on
purpose. For each op: the families that differ (``"*"``: all its samples), and the first node
that differs, the one most of its samples show (minitorch's, PyTorch's). The usual causes, by
that pair:

* ``MulBackward0`` vs ``MulBackward1`` (``Add``, ``Sub``, ``Div`` the same): the formula
  combines a tensor with a Python number through minitorch's operators (the number gets an
  empty edge) where PyTorch's C++ uses the Scalar overload (one edge). ``MulScalar``,
  ``AddScalar``, ``SubScalar``, ``DivScalar`` of ``ops/arithmetic.py`` record the latter.
* ``...`` vs ``XBackwardBackward0``: PyTorch's backward is one kernel (``x_backward``) that is
  differentiable itself; minitorch's is a composition of tensor operations. A Function for the
  kernel, whose backward is in tensor operations (``TanhBackward`` in ``ops/unary.py``,
  ``GeluGrad``, ``MseLossGrad``), fixes it.
* ``AccumulateGrad`` vs ``CloneBackward0``: an in-place op whose derivative reads its input:
  PyTorch saves a clone of it before the change. ``Tensor._inplace`` does the same now (its
  node hands the saved input out as a clone, ``autograd.function.SavedClone``); one
  that does not go through it (some nn functions' ``inplace=True``) still saves the tensor.
* ``SignBackward0`` vs ``SgnBackward0``: the formula multiplies by ``sign(x)`` where PyTorch's
  uses ``sgn(x)`` (``Sgn`` in ``ops/unary.py``).
* other pairs: minitorch's formula is written another way than PyTorch's (views, reshapes,
  masked_fill for where, a solve for an inverse, ...).
"""

from __future__ import annotations

GRAD_GRAPHS_NOT_YET_FIXED: dict = {}  # op: (families, minitorch's node, PyTorch's node)

# Kept different on purpose: PyTorch's CPU flash-attention kernel (the 4-d path of
# scaled_dot_product_attention, and multi_head_attention_forward with need_weights=False, which
# takes it) records its gradient under a torch::autograd::NotImplemented node, so a second
# derivative raises there; minitorch's attention gradient is made of differentiable
# operations, and its second derivatives are checked (test_nn_attention_parity.py's
# gradgradcheck tests, and the table's ACCEPTS entries for the same samples).
GRAD_GRAPHS_KEPT_DIFFERENT = {  # op: (families, minitorch's node, PyTorch's node)
    "F:multi_head_attention_forward": (
        ("no-weights", "self-no-weights", "padding-False", "attn-mask-2d-False",
         "attn-mask-3d-False", "both-masks-False", "mixed-masks-False", "unbatched-no-weights"),
        "ViewBackward0", "UnsafeViewBackward0"),
    "F:scaled_dot_product_attention": (
        ("4d-zeros", "4d-ties", "4d-strided", "4d-float16", "4d-bool-mask", "4d-mask-row",
         "4d-mask-col", "4d-mask-batch", "4d-all-masked", "4d-float16-float-mask",
         "4d-causal-square", "4d-causal-and-mask", "4d-scale", "4d-node", "4d-node-mask",
         "gqa-node", "gqa-3-groups", "gqa-one-kv-head", "gqa-mask", "query-heads-last"),
        "MulBackward0", "torch::autograd::NotImplemented"),
}


def not_yet_fixed() -> dict:
    """``{sample id: reason}`` for the samples above (both lists)."""
    from _opinfo_samples import OPS

    out = {}
    listed = {**GRAD_GRAPHS_NOT_YET_FIXED, **GRAD_GRAPHS_KEPT_DIFFERENT}
    for op, (families, mine, theirs) in listed.items():
        kept = " (kept on purpose)" if op in GRAD_GRAPHS_KEPT_DIFFERENT else ""
        reason = (f"the gradient's graph (create_graph=True) differs from PyTorch's{kept}: "
                  f"{mine} where PyTorch records {theirs} "
                  "(see tests/_opinfo_samples_gradgraph.py)")
        if families == "*":
            families = [s.family for s in OPS[op]()] if op in OPS else []
        out.update({f"{op}[{family}]": reason for family in families})
    return out
