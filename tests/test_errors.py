"""Error messages against PyTorch: the same code must fail with the same exception and text.

A learner who copies a PyTorch tutorial and makes a mistake should see PyTorch's message, so
every case runs once with ``m = torch`` and once with ``m = minitorch`` and compares
``type(exc).__name__`` and ``str(exc)`` exactly.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")


def leaf(m, n: int = 3):
    return m.arange(1.0, n + 1.0).requires_grad_()


# ---------------------------------------------------------------- code that must fail
def _iadd_leaf(m):
    x = leaf(m)
    x += 1


def _setitem_leaf(m):
    x = leaf(m)
    x[0] = 5.0


def _version_output(m):
    y = leaf(m).exp()  # exp saves its output
    y.add_(1)
    y.sum().backward()


def _version_input(m):
    a = leaf(m)
    b = m.ones(3)
    y = a * b  # mul saves b
    b.mul_(2)
    y.sum().backward()


def _version_twice(m):
    x = leaf(m) * 1
    y = x.sin()  # sin saves x, which is output 0 of MulBackward0
    x[0] = 0.0
    x.mul_(2)
    y.sum().backward()


def _version_view(m):
    x = leaf(m, 4) * 1
    v = x.view(2, 2)
    y = v.tanh()  # tanh saves its output; changing the base changes it too
    with m.no_grad():
        y.zero_()
    y.sum().backward()


def _freed_graph(m):
    y = leaf(m).exp().sum()
    y.backward()
    y.backward()


def _freed_graph_grad(m):
    x = leaf(m)
    y = (x * x).sum()
    m.autograd.grad(y, x)
    m.autograd.grad(y, x)


def _freed_graph_new_root(m):
    x = leaf(m)
    h = x.sigmoid()
    h.sum().backward()
    (h * 2).sum().backward()


def _if_tensor(m):
    if m.tensor([True, False]):
        pass


def _grad_shape(m):
    y = leaf(m) * 2
    y.backward(m.ones(2))


def _grad_shape_2d(m):
    y = leaf(m, 6).view(2, 3) * 2
    y.backward(m.ones(3, 2))


def _grad_unused(m):
    x, z = leaf(m), leaf(m)
    m.autograd.grad((x * 2).sum(), [x, z])


def _assign_grad(m):
    x = leaf(m)
    x.grad = m.ones(2)


def _setitem_value_shape(m):
    x = m.zeros(3)
    x[0:2] = m.ones(3)


def _setitem_value_shape_2d(m):
    x = m.zeros(2, 3)
    x[:, 1:] = m.ones(2, 3)


def _setitem_advanced_shape(m):
    x = m.zeros(3)
    x[m.tensor([0, 1])] = m.ones(3)


def _setitem_advanced_dtype(m):
    x = m.zeros(3)
    x[m.tensor([0, 1])] = m.ones(2, dtype=m.float64)


def _custom(forward, backward):
    def run(m):
        class F(m.autograd.Function):
            @staticmethod
            def forward(ctx, x, k):
                return forward(x, k)

            @staticmethod
            def backward(ctx, g):
                return backward(g)

        F.apply(leaf(m), 2.0).sum().backward()

    return run



def _changed_after_saving(how: str):
    """A tensor saved for backward, then changed in place (backward then fails)."""
    def run(m):
        x = m.ones(2, requires_grad=True)
        y = x.sigmoid() if how == "own_output" else x * 1
        z = y if how == "own_output" else y * y  # SigmoidBackward0 saves y; MulBackward0 too
        if how == "view":
            y[0].mul_(3)
        elif how == "mul_add":
            y.mul_(2)
            y.add_(1)
        else:
            y.add_(1)
        z.sum().backward()
    return run



def _view_saved_then_changed(through: str):
    """A view saved for backward, then changed in place, itself or through its base: its
    node is made when it is used (AsStridedBackward0), and the error names it."""
    def run(m):
        x = m.ones(4, requires_grad=True)
        y = x * 1
        v = y[:2]
        z = v * v
        (y if through == "base" else v).add_(1)
        z.sum().backward()
    return run


ERRORS = {
    # backward
    "backward_non_scalar": lambda m: (leaf(m) * 2).backward(),
    "backward_no_grad_fn": lambda m: m.ones(3).sum().backward(),
    "backward_leaf_without_grad": lambda m: m.ones(3).backward(m.ones(3)),
    "grad_shape_mismatch": _grad_shape,
    "grad_shape_mismatch_2d": _grad_shape_2d,
    "autograd_grad_unused_input": _grad_unused,
    "autograd_grad_input_without_grad": lambda m: m.autograd.grad(leaf(m).sum(), m.ones(3)),
    "autograd_grad_non_scalar": lambda m: m.autograd.grad(leaf(m) * 2, leaf(m)),
    "freed_graph": _freed_graph,
    "freed_graph_autograd_grad": _freed_graph_grad,
    "freed_graph_new_root": _freed_graph_new_root,
    # requires_grad
    "requires_grad_true_on_non_leaf": lambda m: setattr(leaf(m) * 2, "requires_grad", True),
    "requires_grad_false_on_non_leaf": lambda m: setattr(leaf(m) * 2, "requires_grad", False),
    "requires_grad__false_on_non_leaf": lambda m: (leaf(m) * 2).requires_grad_(False),
    "int_factory_requires_grad": lambda m: m.tensor([1, 2], requires_grad=True),
    "int_zeros_requires_grad": lambda m: m.zeros(2, dtype=m.int64, requires_grad=True),
    "int_requires_grad_": lambda m: m.tensor([1, 2]).requires_grad_(),
    "int_requires_grad_attribute": lambda m: setattr(m.arange(3), "requires_grad", True),
    "bool_requires_grad_": lambda m: m.tensor([True]).requires_grad_(),
    "retain_grad_without_grad": lambda m: m.ones(2).retain_grad(),
    "hook_without_grad": lambda m: m.ones(2).register_hook(lambda g: g),
    "assign_grad_of_wrong_shape": _assign_grad,
    # in-place
    "inplace_on_leaf": lambda m: leaf(m).add_(1),
    "inplace_iadd_on_leaf": _iadd_leaf,
    "inplace_zero_on_leaf": lambda m: leaf(m).zero_(),
    "inplace_on_view_of_leaf": lambda m: leaf(m)[0:2].mul_(2),
    "inplace_on_select_of_leaf": lambda m: leaf(m)[1].clamp_(0, 1),
    "setitem_on_leaf": _setitem_leaf,
    "version_counter_output": _version_output,
    "version_counter_input": _version_input,
    "version_counter_twice": _version_twice,
    "version_counter_view": _version_view,
    "inplace_result_dtype": lambda m: m.ones(2, dtype=m.int64).add_(1.5),
    "inplace_result_shape": lambda m: m.ones(2).add_(m.ones(3, 2)),
    "setitem_value_shape": _setitem_value_shape,
    "setitem_value_shape_2d": _setitem_value_shape_2d,
    "setitem_advanced_value_shape": _setitem_advanced_shape,
    "setitem_advanced_dtype": _setitem_advanced_dtype,
    # shapes
    "broadcast_mismatch": lambda m: m.ones(2, 3) + m.ones(4),
    "broadcast_mismatch_3d": lambda m: m.ones(2, 3, 4) * m.ones(3, 1, 5),
    "broadcast_mismatch_where": lambda m: m.where(m.ones(3) > 0, m.ones(2), 0.0),
    "mm_mismatch": lambda m: m.ones(2, 3).mm(m.ones(4, 5)),
    "mm_not_a_matrix": lambda m: m.mm(m.ones(3), m.ones(3, 2)),
    "mv_mismatch": lambda m: m.ones(2, 3).mv(m.ones(4)),
    "dot_mismatch": lambda m: m.ones(3).dot(m.ones(4)),
    "dot_not_1d": lambda m: m.dot(m.ones(2, 3), m.ones(3)),
    "bmm_mismatch": lambda m: m.ones(2, 3, 4).bmm(m.ones(2, 5, 6)),
    "bmm_batch_mismatch": lambda m: m.bmm(m.ones(2, 3, 4), m.ones(3, 4, 5)),
    "bmm_not_3d": lambda m: m.ones(3, 4).bmm(m.ones(4, 5)),
    "matmul_mismatch": lambda m: m.ones(2, 3) @ m.ones(4, 5),
    "matmul_mismatch_vector": lambda m: m.ones(3) @ m.ones(4, 5),
    "matmul_mismatch_batched": lambda m: m.ones(2, 2, 3) @ m.ones(2, 4, 5),
    "matmul_mismatch_folded": lambda m: m.ones(2, 2, 3) @ m.ones(4, 5),
    "matmul_batch_mismatch": lambda m: m.ones(2, 2, 3) @ m.ones(3, 3, 5),
    "matmul_dtype": lambda m: m.ones(2, 3) @ m.ones(3, 2, dtype=m.float64),
    "matmul_dtype_vectors": lambda m: m.ones(3) @ m.ones(3, dtype=m.float64),
    "matmul_dtype_matrix_vector": lambda m: m.ones(2, 3) @ m.ones(3, dtype=m.float64),
    "matmul_dtype_batched": lambda m: m.ones(2, 2, 3) @ m.ones(2, 3, 2, dtype=m.float64),
    "matmul_int_float": lambda m: m.ones(2, 3, dtype=m.int64) @ m.ones(3, 2),
    "matmul_0d": lambda m: m.tensor(1.0) @ m.ones(3),
    "view_non_contiguous": lambda m: m.ones(2, 3).t().view(6),
    "invalid_reshape": lambda m: m.ones(2, 3).reshape(4, 2),
    "invalid_view_inferred": lambda m: m.ones(2, 3).view(-1, 4),
    "two_inferred_dims": lambda m: m.ones(2, 3).reshape(-1, -1),
    "cat_size_mismatch": lambda m: m.cat([m.ones(2, 3), m.ones(2, 4)], 0),
    "cat_ndim_mismatch": lambda m: m.cat([m.ones(2, 3), m.ones(2, 3, 1)]),
    "cat_empty": lambda m: m.cat([]),
    "stack_empty": lambda m: m.stack([]),
    "stack_size_mismatch": lambda m: m.stack([m.ones(2), m.ones(3)]),
    "expand_mismatch": lambda m: m.ones(2, 3).expand(4, 3),
    "expand_too_few_sizes": lambda m: m.ones(2, 3).expand(3),
    "permute_wrong_length": lambda m: m.ones(2, 3).permute(0),
    "repeat_too_few": lambda m: m.ones(2, 3).repeat(2),
    "split_sizes_sum": lambda m: m.ones(5).split([2, 2]),
    "t_of_3d": lambda m: m.ones(2, 3, 4).t(),
    # conversions
    "numpy_of_requires_grad": lambda m: leaf(m).numpy(),
    "item_of_many": lambda m: m.ones(3).item(),
    "bool_of_many": lambda m: bool(m.ones(2)),
    "if_tensor": _if_tensor,
    "len_of_0d": lambda m: len(m.tensor(1.0)),
    "deepcopy_non_leaf": lambda m: copy.deepcopy(leaf(m) * 2),
    # indexing
    "index_out_of_bounds": lambda m: m.ones(3)[5],
    "index_out_of_bounds_negative": lambda m: m.ones(3)[-4],
    "index_out_of_bounds_2d": lambda m: m.ones(2, 3)[0, 3],
    "index_tensor_out_of_bounds": lambda m: m.ones(3)[m.tensor([0, 5])],
    "index_too_many": lambda m: m.ones(3)[0, 0],
    "index_0d": lambda m: m.tensor(1.0)[0],
    "index_float_tensor": lambda m: m.ones(3)[m.tensor([0.0])],
    "index_negative_step": lambda m: m.ones(3)[::-1],
    # dims
    "dim_out_of_range_sum": lambda m: m.ones(2, 3).sum(2),
    "dim_out_of_range_negative": lambda m: m.ones(2, 3).mean(-3),
    "dim_out_of_range_transpose": lambda m: m.ones(2, 3).transpose(0, 2),
    "dim_out_of_range_unsqueeze": lambda m: m.ones(2, 3).unsqueeze(3),
    "dim_out_of_range_squeeze": lambda m: m.ones(2, 3).squeeze(2),
    "dim_out_of_range_cat": lambda m: m.cat([m.ones(2)], 1),
    "dim_out_of_range_max": lambda m: m.ones(2).max(1),
    "dim_out_of_range_size": lambda m: m.ones(2).size(1),
    "dim_repeated": lambda m: m.ones(2, 3).sum((0, -2)),
    # dtypes
    "sub_bools": lambda m: m.tensor([True]) - m.tensor([False]),
    "neg_bool": lambda m: -m.tensor([True]),
    "mean_of_ints": lambda m: m.tensor([1, 2]).mean(),
    "where_non_bool": lambda m: m.where(m.ones(2), m.ones(2), m.zeros(2)),
    "clamp_without_bounds": lambda m: m.ones(2).clamp(),
    # reductions given keepdim without dim (PyTorch's overloads), or dim=None where one int
    # is needed (issue 26)
    "sum_keepdim_without_dim": lambda m: m.sum(m.ones(2, 3), keepdim=True),
    "mean_keepdim_without_dim": lambda m: m.mean(m.ones(2, 3), keepdim=False),
    "prod_keepdim_without_dim": lambda m: m.prod(m.ones(2, 3), keepdim=True),
    "max_keepdim_without_dim": lambda m: m.max(m.ones(2, 3), keepdim=True),
    "min_keepdim_without_dim": lambda m: m.min(m.ones(2, 3), keepdim=True),
    "sum_keepdim_and_dtype_without_dim": lambda m: m.ones(3).sum(keepdim=True, dtype=m.float64),
    "max_dim_none": lambda m: m.ones(3).max(dim=None, keepdim=True),
    "prod_dim_none": lambda m: m.prod(m.ones(3), dim=None, keepdim=False),
    # bool matrix products: PyTorch's CPU kernels are not built for bools (issue 26)
    "matmul_bool": lambda m: m.ones(2, 3, dtype=m.bool) @ m.ones(3, 2, dtype=m.bool),
    "mm_bool": lambda m: m.ones(2, 3, dtype=m.bool).mm(m.ones(3, 2, dtype=m.bool)),
    "mv_bool": lambda m: m.mv(m.ones(2, 3, dtype=m.bool), m.ones(3, dtype=m.bool)),
    "dot_bool": lambda m: m.dot(m.ones(3, dtype=m.bool), m.ones(3, dtype=m.bool)),
    "bmm_bool_int": lambda m: m.bmm(m.ones(1, 2, 3, dtype=m.bool), m.ones(1, 3, 2).long()),
    # numbers that do not fit the tensor's dtype: PyTorch's checked conversion (issue 26)
    "clamp_min_overflows_float16": lambda m: m.ones(3, dtype=m.float16).clamp(min=2 ** 31),
    "clamp_max_overflows_float32": lambda m: m.ones(3).clamp(max=1e40),
    "pow_overflows_int32": lambda m: m.ones(3, dtype=m.int32) ** 2 ** 31,
    "pow_overflows_float16": lambda m: m.ones(3, dtype=m.float16) ** 1e5,
    "full_overflows_float32": lambda m: m.full((2,), 1e40),
    "full_nan_int64": lambda m: m.full((2,), float("nan"), dtype=m.int64),
    "fill_nan_int64": lambda m: m.ones(3, dtype=m.int64).fill_(float("nan")),
    "masked_fill_overflows_float16": lambda m: m.ones(2, dtype=m.float16).masked_fill(
        m.tensor([True, False]), 1e5),
    "setitem_nan_int64": lambda m: m.ones(2, 3, dtype=m.int64).__setitem__((..., 1),
                                                                        float("nan")),
    "setitem_beyond_int64": lambda m: m.ones(3).__setitem__(0, 2 ** 63),
    "where_overflows_int32": lambda m: m.where(m.tensor([True]), m.ones(1, dtype=m.int32),
                                               2 ** 31),
    "add_beyond_64_bits": lambda m: m.ones(3) + 2 ** 64,
    # argument errors of one_hot, binary_cross_entropy, softmax and sequence keys (issue 26)
    "one_hot_of_empty": lambda m: m.nn.functional.one_hot(m.zeros(0, dtype=m.int64)),
    "bce_nan_input": lambda m: m.nn.functional.binary_cross_entropy(
        m.tensor([float("nan"), 0.5]), m.tensor([1.0, 0.0])),
    "bce_target_out_of_range": lambda m: m.nn.functional.binary_cross_entropy(
        m.tensor([0.5]), m.tensor([1.5])),
    "softmax_dim_tuple": lambda m: m.nn.functional.softmax(m.ones(3), (0,)),
    "log_softmax_dim_float": lambda m: m.nn.functional.log_softmax(m.ones(3), 0.5),
    "softmax_method_dim_none": lambda m: m.ones(3).softmax(None),
    "index_mask_too_short": lambda m: m.ones(2, 3)[0, m.tensor([True, False])],
    "index_lists_do_not_broadcast": lambda m: m.ones(4, 3)[[0, 1], []],
    "index_numpy_float_in_list": lambda m: m.ones(4, 3)[[np.float32(1.0)]],
    "index_beyond_int64": lambda m: m.ones(4, 3)[[2 ** 63]],
    # messages that once differed (the OpInfo suite's NOT_YET_FIXED list), whole
    "tensor_ragged": lambda m: m.tensor([[1, 2], [3]]),
    "tensor_ragged_deep": lambda m: m.tensor([[[1, 2], [3, 4]], [[5, 6], [7]]]),
    "tensor_ragged_tuples": lambda m: m.tensor([(1, 2), (3,)]),
    "tensor_ragged_empty_row": lambda m: m.tensor([[1], []]),
    "tensor_list_where_int": lambda m: m.tensor([1, [2]]),
    "tensor_list_where_float": lambda m: m.tensor([1.0, [2]]),
    "tensor_number_where_list": lambda m: m.tensor([[1, 2], 3]),
    "tensor_str": lambda m: m.tensor("abc"),
    "tensor_str_inside": lambda m: m.tensor([1, "a"]),
    "tensor_str_first": lambda m: m.tensor(["a"]),
    "tensor_none": lambda m: m.tensor(None),
    "tensor_none_inside": lambda m: m.tensor([1.0, None]),
    "tensor_dict": lambda m: m.tensor({1: 2}),
    "linear_mixed_no_bias": lambda m: m.nn.functional.linear(m.ones(2, 3).double(), m.ones(4, 3)),
    "linear_mixed_3d_no_bias": lambda m: m.nn.functional.linear(m.ones(5, 2, 3).half(),
                                                                m.ones(4, 3)),
    "linear_mixed_input": lambda m: m.nn.functional.linear(m.ones(2, 3).double(), m.ones(4, 3),
                                                           m.ones(4)),
    "linear_mixed_bias": lambda m: m.nn.functional.linear(m.ones(2, 3), m.ones(4, 3),
                                                          m.ones(4).double()),
    "linear_mixed_bias_1d": lambda m: m.nn.functional.linear(m.ones(3).double(), m.ones(4, 3),
                                                             m.ones(4).double()),
    "linear_mixed_and_shapes": lambda m: m.nn.functional.linear(m.ones(2, 5).double(),
                                                                m.ones(4, 3), m.ones(4)),
    "copy_into_0d": lambda m: m.zeros(()).copy_(m.zeros(1)),
    "copy_broadcast_larger": lambda m: m.zeros(3, 1).copy_(m.zeros(1, 4)),
    "copy_no_broadcast": lambda m: m.zeros(3, 2).copy_(m.zeros(4, 1)),
    "masked_fill_bool_mask": lambda m: m.ones(3).masked_fill_(True, 1.0),
    "masked_fill_method_list_mask": lambda m: m.ones(3).masked_fill([True, False, True], 1),
    "masked_fill_tuple_mask": lambda m: m.ones(3).masked_fill((True, False), 1.0),
    "masked_fill_function_bool_mask": lambda m: m.masked_fill(m.ones(3), True, 1.0),
    "masked_fill_str_value": lambda m: m.ones(3).masked_fill(m.ones(3) > 0, "a"),
    "masked_fill_tensor_value_bool_mask": lambda m: m.ones(3).masked_fill(None, m.ones(())),
    "maximum_method_number": lambda m: m.ones(3).maximum(1),
    "maximum_function_number": lambda m: m.maximum(m.ones(3), 1.0),
    "minimum_method_number": lambda m: m.ones(3).minimum(True),
    "logical_and_method_number": lambda m: m.ones(3).logical_and(1),
    "logical_or_function_number": lambda m: m.logical_or(m.ones(3), 1.0),
    "index_select_method_list": lambda m: m.ones(4, 3).index_select(0, [0]),
    "index_select_function_list": lambda m: m.index_select(m.ones(4, 3), 0, [0]),
    "index_add_method_list": lambda m: m.ones(4, 3).index_add(0, [0], m.ones(1, 3)),
    "index_add__list": lambda m: m.ones(4, 3).index_add_(0, [0], m.ones(1, 3)),
    "index_add_function_list": lambda m: m.index_add(m.ones(4, 3), 0, [0], m.ones(1, 3)),
    "index_add_source_shape": lambda m: m.ones(4, 3).index_add(0, m.tensor([0]), m.ones(1, 2)),
    "t__3d": lambda m: m.ones(2, 3, 4).t_(),
    "sum_to_size_not_expandable": lambda m: m.ones(3, 4).sum_to_size(2, 4),
    "zeros_negative": lambda m: m.zeros(2, -3),
    "ones_negative": lambda m: m.ones(2, -3),
    "expand_double": lambda m: m.ones(2, 3, 4).double().expand(3, 4),
    "expand_bool": lambda m: m.ones(2, 3).bool().expand(3),
    "expand_as_int8": lambda m: m.ones(2, 3).to(m.int8).expand_as(m.ones(3)),
    "bitwise_half_double": lambda m: m.ones(2).half() & m.ones(2).double(),
    "bitwise_float_0d_double": lambda m: m.ones(2) | m.ones(()).double(),
    "bitwise_int_float_number": lambda m: m.bitwise_xor(m.ones(2).long(), 1.5),
    "bitwise_float_numpy_int": lambda m: m.ones(2) & np.int64(1),
    "invert_float": lambda m: ~m.ones(2),
    # the losses' dtypes (found by a differential fuzz against torch)
    "bce_logits_long_target": lambda m: m.nn.functional.binary_cross_entropy_with_logits(
        m.tensor([0.5, -1.0]), m.tensor([1, 0])),
    "bce_logits_bool_target": lambda m: m.nn.BCEWithLogitsLoss()(
        m.tensor([0.5, -1.0]), m.tensor([True, False])),
    "bce_long_target": lambda m: m.nn.functional.binary_cross_entropy(
        m.tensor([0.5, 0.2]), m.tensor([1, 0])),
    "bce_double_target": lambda m: m.nn.BCELoss()(
        m.tensor([0.5, 0.2]), m.tensor([1.0, 0.0], dtype=m.float64)),
    "bce_float_target_double_input": lambda m: m.nn.functional.binary_cross_entropy(
        m.tensor([0.5, 0.2], dtype=m.float64), m.tensor([1.0, 0.0])),
    "bce_long_input": lambda m: m.nn.functional.binary_cross_entropy(
        m.tensor([1, 0]), m.tensor([1, 0])),
    "nll_double_weight": lambda m: m.nn.functional.nll_loss(
        m.tensor([[-0.5, -1.0]]), m.tensor([0]), m.tensor([1.0, 2.0], dtype=m.float64)),
    "cross_entropy_double_weight": lambda m: m.nn.CrossEntropyLoss(
        weight=m.tensor([1.0, 2.0], dtype=m.float64))(m.tensor([[-0.5, -1.0]]), m.tensor([0])),
    "nll_weight_requires_grad": lambda m: m.nn.functional.nll_loss(
        m.tensor([[-0.5, -1.0]]), m.tensor([0]), m.tensor([1.0, 2.0], requires_grad=True)),
    "cross_entropy_weight_requires_grad": lambda m: m.nn.functional.cross_entropy(
        m.tensor([[-0.5, -1.0]]), m.tensor([0]), m.tensor([1.0, 2.0], requires_grad=True)),
    "cross_entropy_smoothing_double_weight": lambda m: m.nn.functional.cross_entropy(
        m.tensor([[-0.5, -1.0]]), m.tensor([0]), m.tensor([1.0, 2.0], dtype=m.float64),
        label_smoothing=0.1),
    "cross_entropy_one_hot_long_target": lambda m: m.nn.functional.cross_entropy(
        m.ones(2, 3), m.nn.functional.one_hot(m.tensor([0, 2]), 3)),
    "cross_entropy_1d_long_target": lambda m: m.nn.functional.cross_entropy(
        m.ones(3), m.zeros(3, dtype=m.int64)),
    "cross_entropy_bool_target_like_input": lambda m: m.nn.CrossEntropyLoss()(
        m.ones(2, 3), m.ones(2, 3).bool()),
    "conv2d_same_strided": lambda m: m.nn.functional.conv2d(
        m.ones(1, 1, 5, 5), m.ones(1, 1, 3, 3), stride=2, padding="same"),
    "conv1d_same_strided": lambda m: m.nn.functional.conv1d(
        m.ones(1, 1, 5), m.ones(1, 1, 3), stride=2, padding="same"),
    "conv2d_module_same_strided": lambda m: m.nn.Conv2d(1, 1, 3, stride=2, padding="same"),
    # version errors name the tensor's last in-place operation, or the node that saved its
    # own output
    "version_error_names_the_last_inplace_op": _changed_after_saving("add"),
    "version_error_names_two_inplace_ops": _changed_after_saving("mul_add"),
    "version_error_names_copyslices": _changed_after_saving("view"),
    "version_error_names_the_saving_node": _changed_after_saving("own_output"),
    "version_error_of_a_view_of_a_changed_base": _view_saved_then_changed("base"),
    "version_error_of_a_changed_view": _view_saved_then_changed("view"),
    "float_of_two_elements": lambda m: float(m.tensor([1.0, 2.0])),
    "int_of_two_elements": lambda m: int(m.tensor([1, 2])),
    "float_of_empty": lambda m: float(m.tensor([])),
    "format_spec_of_a_vector": lambda m: f"{m.tensor([1.5]):.2f}",
    "format_spec_of_a_matrix": lambda m: format(m.tensor([[1.0]]), ">10"),
    # random numbers into integer tensors, and other creation errors
    "rand_long": lambda m: m.rand(3, dtype=m.int64),
    "randn_byte": lambda m: m.randn(2, dtype=m.uint8),
    "rand_like_int": lambda m: m.rand_like(m.ones(2, dtype=m.int32)),
    "randn_like_long": lambda m: m.randn_like(m.ones(2, dtype=m.int64)),
    "normal_long": lambda m: m.normal(0.0, 1.0, (2,), dtype=m.int64),
    "uniform__long": lambda m: m.empty(2, dtype=m.int64).uniform_(),
    "normal__bool": lambda m: m.empty(2, dtype=m.bool).normal_(),
    "from_numpy_negative_stride": lambda m: m.from_numpy(np.arange(6).reshape(2, 3)[:, ::-1]),
    "full_with_a_length": lambda m: m.full(2, 1),
    # layers given another dtype
    "layer_norm_double_input": lambda m: m.nn.LayerNorm(5)(m.ones(2, 5, dtype=m.float64)),
    "layer_norm_half_weight": lambda m: m.nn.functional.layer_norm(
        m.ones(2, 4), (4,), m.ones(4, dtype=m.float16)),
    "layer_norm_double_bias_of_half": lambda m: m.nn.functional.layer_norm(
        m.ones(2, 4, dtype=m.float16), (4,), None, m.zeros(4, dtype=m.float64)),
    "uniform__range_too_wide": lambda m: m.zeros(3).uniform_(-3e38, 3e38),
    "uniform__half_range_too_wide": lambda m: m.zeros(3, dtype=m.float16).uniform_(-6e4, 6e4),
    "lstm_double_input": lambda m: m.nn.LSTM(3, 4)(m.ones(5, 2, 3, dtype=m.float64)),
    "gru_long_input": lambda m: m.nn.GRU(3, 4)(m.ones(5, 2, 3, dtype=m.int64)),
    "rnn_double_model": lambda m: m.nn.RNN(3, 4, dtype=m.float64)(m.ones(5, 3)),
    "lstm_cell_tensor_hx": lambda m: m.nn.LSTMCell(3, 4)(m.ones(2, 3), m.zeros(2, 4)),
    "lstm_cell_one_state": lambda m: m.nn.LSTMCell(3, 4)(m.ones(2, 3), (m.zeros(2, 4),)),
    # custom Functions
    "function_too_few_gradients": _custom(lambda x, k: x * k, lambda g: g),
    "function_too_many_gradients": _custom(lambda x, k: x * k, lambda g: (g, None, g)),
    "function_gradient_for_a_number": _custom(lambda x, k: x * k, lambda g: (g, g)),
    "function_gradient_shape": _custom(lambda x, k: x * k, lambda g: (g[:2], None)),
}


def outcome(m, fn):
    """``(exception type name, message)``, or None when nothing was raised."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn(m)
    except Exception as e:  # the exception is what we compare
        return type(e).__name__, str(e)
    return None


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_matches_torch(name):
    expected = outcome(torch, ERRORS[name])
    assert expected is not None, "the case must fail in PyTorch"
    assert outcome(minitorch, ERRORS[name]) == expected


def test_freed_graph_message_text():
    """The message, spelled out once, so that a change in either library is noticed."""
    kind, message = outcome(minitorch, _freed_graph)
    assert kind == "RuntimeError"
    assert message.startswith("Trying to backward through the graph a second time (or directly "
                              "access saved tensors after they have already been freed).")
    assert message.endswith("Specify retain_graph=True if you need to backward through the "
                            "graph a second time or if you need to access saved tensors after "
                            "calling backward.")


def test_version_counter_message_names_the_op_and_both_versions():
    kind, message = outcome(minitorch, _version_twice)
    assert kind == "RuntimeError"
    assert ("[torch.FloatTensor [3]], which is output 0 of Mul, is at version 2; "
            "expected version 0 instead.") in message


# ---------------------------------------------------------------- warnings
def _warnings(m, fn) -> list:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(m)
    return [(w.category.__name__, str(w.message).split(" (Triggered internally")[0])
            for w in caught]


@pytest.mark.parametrize("name, fn", [
    ("grad_of_non_leaf", lambda m: (leaf(m) * 2).grad),
    ("grad_of_non_leaf_after_backward", lambda m: _grad_after_backward(m)),
    ("var_without_degrees_of_freedom", lambda m: m.ones(1).var()),
    ("std_without_degrees_of_freedom", lambda m: m.ones(3, 1).std(1)),
    ("tensor_from_tensor", lambda m: m.tensor(m.ones(2))),
])
def test_warning_matches_torch(name, fn):
    expected = _warnings(torch, fn)
    assert expected, "PyTorch must warn here"
    assert _warnings(minitorch, fn) == expected


def _grad_after_backward(m):
    y = leaf(m) * 2
    y.sum().backward()
    return y.grad


def test_no_warning_for_retained_grad_or_leaf():
    for m in (torch, minitorch):
        x = leaf(m)
        y = x * 2
        y.retain_grad()
        y.sum().backward()
        assert _warnings(m, lambda m, x=x, y=y: (x.grad, y.grad)) == []


def test_reductions_show_pytorchs_signature_and_tell_no_dim_from_none():
    """``dim``'s default is a marker for "not given" that prints as None (issue 26)."""
    import inspect

    # Tensor.sum is ops.reduction.sum itself (its first argument, the tensor, is ``input``)
    assert str(inspect.signature(minitorch.Tensor.sum)) == \
        "(input: 'Tensor', dim=None, keepdim: 'bool' = False, *, dtype=None) -> 'Tensor'"
    for m in (torch, minitorch):
        x = m.ones(2, 3)
        assert x.sum(None, True).shape == (1, 1) and x.sum(dim=None).shape == ()
        assert x.mean(dim=None, keepdim=True).shape == (1, 1)
        assert x.max().shape == () and x.prod(dtype=m.float64).dtype == m.float64


def test_numbers_that_fit_are_converted_as_torch_converts_them():
    """-1 wraps into uint8, any number fits bool, inf fits float16 (issue 26)."""
    for make in (lambda m: m.clamp(m.tensor([0, 1, 2], dtype=m.uint8), min=1, max=-1),
                 lambda m: m.tensor([0, 1, 2], dtype=m.uint8).clamp_min(-1),
                 lambda m: m.full((2,), -1, dtype=m.uint8),
                 lambda m: m.ones(2, dtype=m.bool).fill_(2 ** 63),
                 lambda m: m.ones(2, dtype=m.float16).fill_(float("inf")),
                 lambda m: m.where(m.tensor([True, False]), m.ones(2, dtype=m.float16), 1e5),
                 lambda m: m.clamp(m.ones(3), min=1, max=-1)):
        expected, got = make(torch), make(minitorch)
        assert str(got.dtype) == str(expected.dtype)
        assert got.tolist() == expected.tolist()


@pytest.mark.parametrize("key", [((0, 1),), [(0, 1), (1, 2)], [1.0, 2.0], [-1.5], [[[]]],
                                 [np.array([0, 1]), np.array([1, 2])], [np.array(1)]],
                         ids=str)
def test_sequence_keys_index_as_in_torch(key):
    """Tuples inside a key are index lists, Python floats in a list are truncated to ints,
    NumPy arrays in a list are index tensors (issue 26)."""
    data = np.arange(12.0, dtype=np.float32).reshape(4, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's deprecation of non-tuple sequences
        expected = torch.from_numpy(data.copy())[key]
    got = minitorch.from_numpy(data.copy())[key]
    assert tuple(got.shape) == tuple(expected.shape)
    np.testing.assert_array_equal(got.numpy(), expected.numpy())


@pytest.mark.parametrize("x_dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("y_dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_bce_with_logits_has_the_targets_dtype_as_in_torch(x_dtype, y_dtype, reduction):
    """PyTorch's first step is ``1 - target``: the loss has the target's dtype, and each
    gradient its own tensor's."""
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(6) * 3, rng.uniform(0, 1, 6)
    out = []
    for m in (minitorch, torch):
        xt = m.tensor(x, dtype=getattr(m, x_dtype), requires_grad=True)
        yt = m.tensor(y, dtype=getattr(m, y_dtype), requires_grad=True)
        loss = m.nn.functional.binary_cross_entropy_with_logits(xt, yt, reduction=reduction)
        loss.sum().backward()
        out.append([(str(t.dtype), t.detach().numpy().astype(np.float64))
                    for t in (loss, xt.grad, yt.grad)])
    tol = 2e-3 if "float16" in (x_dtype, y_dtype) else 1e-5
    for (our_dtype, ours), (their_dtype, theirs) in zip(*out):
        assert our_dtype == their_dtype
        np.testing.assert_allclose(ours, theirs, rtol=tol, atol=tol)


_LISTS = {
    "tensors_of_several_elements": lambda m: m.tensor([m.tensor([1.0, 2]), m.tensor([3.0, 4])]),
    "one_element_tensors_with_dims": lambda m: m.tensor([m.tensor([1.0]), m.tensor([2.0])]),
    "0d_tensors": lambda m: m.tensor([m.tensor(1.0), m.tensor(2.0)]),
    "int_tensor_and_float": lambda m: m.tensor([m.tensor(1), 2.5]),
    "nested_tensors": lambda m: m.tensor([[m.tensor(1.0)], [m.tensor(2)]]),
    "double_tensor_and_float": lambda m: m.tensor([m.tensor(1.0, dtype=m.float64), 2.0]),
    "bool_tensor_and_int": lambda m: m.tensor([m.tensor(True), 1]),
    "int8_and_uint8_tensors": lambda m: m.tensor([m.tensor(3, dtype=m.int8),
                                                  m.tensor(200, dtype=m.uint8)]),
    "numpy_double_and_int32": lambda m: m.tensor([np.float64(1.5), np.int32(2)]),
    "numpy_int16s": lambda m: m.tensor([np.int16(1), np.int16(2)]),
    "numpy_int16_and_int": lambda m: m.tensor([np.int16(1), 2]),
    "numpy_int32_and_float": lambda m: m.tensor([np.int32(1), 2.5]),
    "numpy_float32_and_bool": lambda m: m.tensor([np.float32(1), True]),
    "numpy_uint8_and_int8": lambda m: m.tensor([np.uint8(3), np.int8(-1)]),
    "numpy_half_and_int": lambda m: m.tensor([np.float16(1), 2]),
    "numpy_arrays_int16": lambda m: m.tensor([np.array([1, 2], dtype=np.int16),
                                              np.array([3, 4], dtype=np.int16)]),
    "plain_mixed": lambda m: m.tensor([[1, 2], [3, 4.5]]),
    # a float tensor inside a list made into integers is read as an index, and refused
    "float_tensor_to_int64": lambda m: m.tensor([m.tensor(1.5)], dtype=m.int64),
    "float_tensor_to_bool": lambda m: m.tensor([m.tensor(1.5)], dtype=m.bool),
    "half_tensor_to_int64": lambda m: m.tensor([m.tensor(1.5, dtype=m.float16)], dtype=m.int64),
    "nested_float_tensor_to_int64": lambda m: m.tensor([[m.tensor(1.5), 2]], dtype=m.int64),
    "int_and_float_tensor_to_int64": lambda m: m.tensor([1, m.tensor(2.5)], dtype=m.int64),
    "float_tensor_to_float16": lambda m: m.tensor([m.tensor(1.5)], dtype=m.float16),
    "int_tensor_to_float": lambda m: m.tensor([m.tensor(1)], dtype=m.float32),
    "numpy_double_to_int64": lambda m: m.tensor([np.float64(1.5)], dtype=m.int64),
}


@pytest.mark.parametrize("name", sorted(_LISTS))
def test_a_lists_dtype_comes_from_every_element_as_in_torch(name):
    """PyTorch infers a list's dtype from each element (a tensor's or a NumPy number's dtype,
    a Python number's kind) and promotes them; a tensor element must hold one number."""
    seen = []
    for m in (minitorch, torch):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # PyTorch: "a list of numpy.ndarrays is slow"
                t = _LISTS[name](m)
            seen.append((str(t.dtype), tuple(t.shape), t.tolist()))
        except Exception as e:  # the exception is what we compare
            seen.append((type(e).__name__, str(e)))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("bounds", [("float32", None), (None, "float64"), ("float32", "float64"),
                                    ("int_tensor", "int0d")], ids=str)
def test_clamp_of_an_integer_tensor_promotes_with_its_bounds_as_in_torch(bounds):
    def bound(m, kind, value):
        if kind is None:
            return None
        if kind == "int_tensor":
            return m.tensor([2, 2, 2])
        if kind == "int0d":
            return m.tensor(7)
        return m.tensor(value, dtype=getattr(m, kind))
    seen = []
    for m in (minitorch, torch):
        out = m.clamp(m.tensor([1, 5, 10]), bound(m, bounds[0], 2.5), bound(m, bounds[1], 7.5))
        seen.append((str(out.dtype), out.tolist()))
    assert seen[0] == seen[1]


def test_layer_norm_of_a_half_input_with_float_weights_runs_as_in_torch():
    """Mixed precision: PyTorch's CPU LayerNorm takes a float16 input with float32 weights."""
    outs = []
    for m in (minitorch, torch):
        x = m.tensor(np.linspace(-1, 1, 8).reshape(2, 4), dtype=m.float16)
        outs.append(m.nn.functional.layer_norm(x, (4,), m.ones(4) * 2, m.zeros(4) + 0.5))
    assert str(outs[0].dtype) == str(outs[1].dtype) == "torch.float16"
    np.testing.assert_allclose(outs[0].numpy().astype(np.float32),
                               outs[1].numpy().astype(np.float32), rtol=2e-3, atol=2e-3)


_PYTHON_DTYPES = {
    "zeros_float": lambda m: m.zeros(2, dtype=float),
    "ones_int": lambda m: m.ones(2, dtype=int),
    "empty_bool": lambda m: m.empty(0, dtype=bool),
    "tensor_float": lambda m: m.tensor([1, 2], dtype=float),
    "full_float": lambda m: m.full((2,), 3, dtype=float),
    "arange_float": lambda m: m.arange(3, dtype=float),
    "linspace_float": lambda m: m.linspace(0, 1, 3, dtype=float),
    "eye_int": lambda m: m.eye(2, dtype=int),
    "zeros_like_int": lambda m: m.zeros_like(m.ones(2), dtype=int),
    "randn_float": lambda m: m.randn(2, dtype=float),
    "to_float": lambda m: m.ones(2).to(float),
    "to_int": lambda m: m.ones(2).to(int),
    "to_dtype_bool": lambda m: m.ones(2).to(dtype=bool),
    "zeros_str": lambda m: m.zeros(2, dtype="float32"),
    "zeros_numpy_type": lambda m: m.zeros(2, dtype=np.float32),
    "tensor_numpy_type": lambda m: m.tensor([1.0], dtype=np.float64),
    # the functions with a dtype argument that are not factories
    "sum_float": lambda m: m.ones(2).sum(dtype=float),
    "sum_dim_int": lambda m: m.ones(2, 2).sum(0, dtype=int),
    "mean_float": lambda m: m.ones(2).mean(dtype=float),
    "prod_float": lambda m: m.ones(2).prod(dtype=float),
    "prod_dim_bool": lambda m: m.ones(2, 2).prod(1, dtype=bool),
    "cumsum_float": lambda m: m.ones(2).cumsum(0, dtype=float),
    "cumprod_int": lambda m: m.cumprod(m.ones(2), 0, dtype=int),
    "cumsum_str": lambda m: m.ones(2).cumsum(0, dtype="f"),
    "softmax_float": lambda m: m.ones(2).softmax(0, dtype=float),
    "softmax_str": lambda m: m.nn.functional.softmax(m.ones(2), 0, dtype="f"),
    "log_softmax_str": lambda m: m.log_softmax(m.ones(2), 0, dtype="f"),
    "norm_float": lambda m: m.ones(2).norm(dtype=float),
    "vector_norm_float": lambda m: m.linalg.vector_norm(m.ones(2), dtype=float),
    "vector_norm_str": lambda m: m.linalg.vector_norm(m.ones(2), dtype="f"),
    "matrix_norm_float": lambda m: m.linalg.matrix_norm(m.ones(2, 2), dtype=float),
    "linalg_norm_float": lambda m: m.linalg.norm(m.ones(2), dtype=float),
}


@pytest.mark.parametrize("name", sorted(_PYTHON_DTYPES))
def test_python_types_as_dtypes_as_in_torch(name):
    """PyTorch's factories and ``to`` take Python's float, int and bool as dtypes (float64,
    int64, bool), and refuse other things with a TypeError naming the argument."""
    seen = []
    for m in (minitorch, torch):
        m.manual_seed(0)
        try:
            t = _PYTHON_DTYPES[name](m)
            seen.append((str(t.dtype), t.tolist()))
        except TypeError as e:
            seen.append(("TypeError", str(e)))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("fn", ["sum", "mean", "prod"])
def test_reduction_dtype_of_another_kind_is_a_type_error(fn):
    """``x.sum(dtype="f")`` is PyTorch's TypeError (its message lists the overloads; ours names
    the argument), not an AttributeError from inside the reduction."""
    for m in (minitorch, torch):
        with pytest.raises(TypeError, match="dtype"):
            getattr(m.ones(2), fn)(dtype="f")
