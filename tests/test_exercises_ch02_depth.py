"""Tests for chapter 2's check_dynamic_graph: the right prediction passes, wrong ones fail."""

from __future__ import annotations

import minitorch
from minitorch.exercises.ch02_recording_the_dag import check_dynamic_graph, dynamic_f

RIGHT = {1.0: ["MulBackward0", "ExpBackward0", "MulBackward0", "AccumulateGrad"],
         0.25: ["MulBackward0"] * 4 + ["NegBackward0", "MulBackward0", "AccumulateGrad"]}


def predicted_nodes_right():
    return RIGHT


def _run(predicted, capsys):
    passed = check_dynamic_graph(lambda: predicted)
    return passed, capsys.readouterr().out


def test_right(capsys):
    passed, out = _run(RIGHT, capsys)
    assert passed and "all 2 cases passed" in out


def test_reference_is_the_real_graph():
    out = dynamic_f(minitorch.tensor(0.25), minitorch.tensor(2.0, requires_grad=True))
    assert out.item() == -40.5


def test_todo(capsys):
    def todo():
        raise NotImplementedError("your code here")

    assert "not done yet" in (check_dynamic_graph(todo), capsys.readouterr().out)[1]


def test_same_graph_for_both_fails(capsys):
    passed, _ = _run({1.0: RIGHT[1.0], 0.25: RIGHT[1.0]}, capsys)
    assert not passed


def test_wrong_loop_count_fails(capsys):
    wrong = {**RIGHT, 0.25: ["MulBackward0"] * 3 + RIGHT[0.25][4:]}
    passed, out = _run(wrong, capsys)
    assert not passed and "loop" in out


def test_leaf_first_order_fails(capsys):
    passed, out = _run({k: v[::-1] for k, v in RIGHT.items()}, capsys)
    assert not passed and "root" in out


def test_missing_leaf_fails(capsys):
    passed, out = _run({k: v[:-1] for k, v in RIGHT.items()}, capsys)
    assert not passed and "AccumulateGrad" in out


def test_wrong_branch_fails(capsys):
    wrong = {**RIGHT, 1.0: ["MulBackward0", "NegBackward0", "MulBackward0", "AccumulateGrad"]}
    passed, out = _run(wrong, capsys)
    assert not passed and "branch of the `if`" in out


def test_failure_does_not_show_the_answer(capsys):
    passed, out = _run({1.0: RIGHT[0.25], 0.25: RIGHT[1.0]}, capsys)
    assert not passed and "ExpBackward0" not in out.split("got:")[0]


def test_reference_matches_pytorch():
    torch = __import__("pytest").importorskip("torch", reason="PyTorch is not installed")
    from minitorch.exercises.ch02_recording_the_dag import _chain_names

    for x in (1.0, 0.25):
        w = torch.tensor(2.0, requires_grad=True)
        mine = _chain_names(dynamic_f(minitorch.tensor(x),
                                      minitorch.tensor(2.0, requires_grad=True)))
        assert _chain_names(dynamic_f(torch.tensor(x), w)) == mine == RIGHT[x]
