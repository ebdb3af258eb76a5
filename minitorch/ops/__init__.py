"""The built-in operations, one module per family.

Each operation is an :class:`minitorch.autograd.Function` with its forward and backward side by
side, exactly the pattern a learner uses for a custom operation. Backward formulas are written
with tensor operations, so they are differentiable too (``create_graph=True``).

* ``arithmetic``: ``+ - * / **``, comparisons, ``maximum``, ``minimum``, ``clamp``, ``where``
* ``unary``: ``exp``, ``log``, ``sqrt``, ``abs``, ``sin``, ``cos``, ``tanh``, ``sigmoid``, ``relu``
* ``pointwise``: ``log1p``, ``expm1``, ``rsqrt``, ``log2``, ``log10``, ``exp2``, ``erf``,
  ``isinf``, ``nan_to_num``, ``lerp``
* ``elementwise``: ``tan``, the hyperbolic functions, ``atan2``, ``hypot``, ``logaddexp``,
  ``xlogy``, ``fmax``, ``fmod``, ``addcmul``, ``addcdiv``, ... and their Tensor methods
* ``reduction``: ``sum``, ``mean``, ``max``, ``min``, ``var``, ``std``, ...
* ``shape``: ``reshape``/``view``, ``transpose``, ``permute``, ``squeeze``, ``expand``, ``cat``, ...
* ``indexing``: ``x[...]`` reads and writes
* ``views``: in-place changes made through a view (``CopySlices``, ``AsStridedBackward0``)
* ``linalg``: ``matmul`` and friends
* ``sorting``: ``sort``, ``argsort``, ``topk``, ``median``, ``unique``, ``bincount``
* ``scan``: ``cumsum``, ``cumprod``, ``logsumexp``
* ``scatter``: ``scatter``, ``scatter_add``, ``masked_select``, ``nonzero``
* ``einsum``, ``triangular`` (``tril``, ``triu``), ``rounding`` (``round``), ``compare``
  (``isclose``, ``allclose``), ``sampling`` (``bernoulli_``, ``random_``)
"""
