"""autograd.profiler: a real profiler. The checks are on structure (which events, how they
nest, how self time relates to total time, the table's layout against PyTorch's), never on
how long anything took."""

from __future__ import annotations

import re
import warnings

import pytest

import minitorch as mt
from minitorch.autograd import function as _function
from minitorch.autograd.profiler import profile, record_function

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")


def _run(lib):
    lib.manual_seed(0)
    x = lib.randn(4, 3, requires_grad=True)
    w = lib.randn(3, 2, requires_grad=True)
    with lib.autograd.profiler.profile() as prof:
        with lib.autograd.profiler.record_function("my_block"):
            y = (x @ w).relu().sum()
        y.backward()
    return prof


def test_forward_ops_backward_nodes_and_ranges_are_recorded():
    prof = _run(mt)
    names = [e.name for e in prof.function_events]
    assert names[:4] == ["my_block", "aten::mm", "aten::relu", "aten::sum"]
    for node in ("SumBackward0", "ReluBackward0", "MmBackward0",
                 "torch::autograd::AccumulateGrad"):
        assert node in names
    ref = _run(torch).function_events
    ref_names = {e.name for e in ref}
    # every name minitorch reports for this program is one PyTorch reports too, except the
    # kernel inside AccumulateGrad, which clones the first gradient (PyTorch detaches)
    assert {n for n in names if n != "aten::clone"} <= ref_names
    # relu's backward selects the gradient in one kernel, PyTorch's threshold_backward
    for events in (prof.function_events, ref):
        relu_backward = next(e for e in events if e.name == "ReluBackward0")
        assert [c.name for c in relu_backward.cpu_children] == ["aten::threshold_backward"]


def test_nesting_and_self_time():
    prof = _run(mt)
    events = prof.function_events
    block = events[0]
    assert [c.name for c in block.cpu_children] == ["aten::mm", "aten::relu", "aten::sum"]
    for e in events:
        assert e.cpu_time_total >= 0
        assert e.self_cpu_time_total <= e.cpu_time_total + 1e-9
        assert e.self_cpu_time_total >= -1e-6
        for c in e.cpu_children:
            assert c.cpu_parent is e
            assert e.start_us <= c.start_us <= c.end_us <= e.end_us
    mm_backward = next(e for e in events if e.name == "MmBackward0")
    assert [c.name for c in mm_backward.cpu_children] == ["aten::t", "aten::mm", "aten::t",
                                                          "aten::mm"]
    top = [e for e in events if e.cpu_parent is None]
    total = prof.self_cpu_time_total
    assert total == pytest.approx(sum(e.cpu_time_total for e in top))


def test_key_averages_add_up():
    prof = _run(mt)
    avgs = {a.key: a for a in prof.key_averages()}
    assert avgs["aten::mm"].count == 3  # one forward, two in MmBackward0
    mm = [e for e in prof.function_events if e.name == "aten::mm"]
    assert avgs["aten::mm"].cpu_time_total == pytest.approx(sum(e.cpu_time_total for e in mm))
    assert avgs["aten::mm"].cpu_time == pytest.approx(avgs["aten::mm"].cpu_time_total / 3)


def _layout(table: str) -> list[str]:
    """The table with numbers and names blanked out: its shape only."""
    return [re.sub(r"[^\s-]+", "x", line) if i > 3 else line
            for i, line in enumerate(table.splitlines())]


@pytest.mark.parametrize("sort_by", ["cpu_time_total", "self_cpu_time_total", "count",
                                     "cpu_time"])
def test_table_has_torch_layout_and_sort_order(sort_by):
    mine = _run(mt).key_averages().table(sort_by=sort_by, row_limit=5)
    ref = _run(torch).key_averages().table(sort_by=sort_by, row_limit=5)
    m_lines, r_lines = mine.splitlines(), ref.splitlines()
    assert m_lines[0].startswith("---") and m_lines[2] == m_lines[0]
    # same headers, right-aligned in columns of the same widths (the name column depends on
    # the longest name, which differs)
    assert m_lines[1].split() == r_lines[1].split()
    assert [len(c) for c in m_lines[0].split()[1:]] == [len(c) for c in r_lines[0].split()[1:]]
    assert len(m_lines) == len(r_lines)
    assert m_lines[-1].startswith("Self CPU time total: ")
    rows = [line.split() for line in m_lines[3:-2]]
    assert len(rows) == 5
    column = {"self_cpu_time_total": 2, "cpu_time_total": 4, "cpu_time": 5}.get(sort_by)
    if column is None:
        counts = [int(r[-1]) for r in rows]
        assert counts == sorted(counts, reverse=True)
    else:
        def us(text):
            scale = {"us": 1, "ms": 1e3, "s": 1e6}
            unit = re.sub(r"[\d.]", "", text)
            return float(text[:-len(unit)]) * scale[unit]

        values = [us(r[column - 7]) for r in rows]
        assert values == sorted(values, reverse=True)


def test_disabled_profiler_and_nothing_left_behind():
    with profile(enabled=False) as prof:
        mt.ones(2, requires_grad=True).sum().backward()
    assert len(prof.function_events) == 0
    assert _function._profiler is None
    with pytest.raises(ValueError), profile():
        raise ValueError("boom")
    assert _function._profiler is None


def test_record_function_as_decorator_and_without_profiler():
    @record_function("helper")
    def helper(t):
        return t * 2

    helper(mt.ones(1))  # no profiler: nothing happens
    with profile() as prof:
        helper(mt.ones(1, requires_grad=True))
    assert [e.name for e in prof.function_events] == ["helper", "aten::mul"]


def test_custom_function_keeps_its_name():
    class Double(mt.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    with profile() as prof:
        Double.apply(mt.ones(2, requires_grad=True)).sum().backward()
    names = [e.name for e in prof.function_events]
    assert names[0] == "Double" and prof.function_events[0].cpu_children[0].name == "aten::mul"
    assert "DoubleBackward" in names


def test_record_shapes_and_group_by_input_shape():
    with profile(record_shapes=True) as prof:
        mt.ones(2, 3, requires_grad=True) @ mt.ones(3, 4)
        mt.ones(5, 3, requires_grad=True) @ mt.ones(3, 4)
    groups = prof.key_averages(group_by_input_shape=True)
    assert sorted(g.input_shapes for g in groups) == [[[2, 3], [3, 4]], [[5, 3], [3, 4]]]


def test_torch_profiler_spelling_and_chrome_trace(tmp_path):
    from minitorch.profiler import ProfilerActivity
    from minitorch.profiler import profile as new_profile

    seen = []
    with new_profile(activities=[ProfilerActivity.CPU], record_shapes=True,
                     on_trace_ready=seen.append) as prof:
        with mt.profiler.record_function("model_inference"):
            mt.nn.Linear(3, 2)(mt.ones(4, 3))
    assert seen == [prof]
    assert prof.key_averages()[0].key == "model_inference"
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    assert '"model_inference"' in path.read_text()


# ---------------------------------------------------------------- torch.profiler.schedule
_SCHEDULES = [dict(wait=1, warmup=1, active=2), dict(skip_first=10, wait=5, warmup=1, active=3,
                                                     repeat=2),
              dict(wait=0, warmup=1, active=1, repeat=1), dict(wait=1, warmup=1, active=3),
              dict(wait=2, warmup=1, active=1, skip_first=3, skip_first_wait=1)]


@pytest.mark.parametrize("kwargs", _SCHEDULES)
def test_schedule_actions_match_torch(kwargs):
    mine = mt.profiler.schedule(**kwargs)
    ref = torch.profiler.schedule(**kwargs)
    assert [mine(i).name for i in range(40)] == [ref(i).name for i in range(40)]


@pytest.mark.parametrize("call", [
    lambda lib: lib.profiler.schedule(wait=-1, warmup=1, active=1),
    lambda lib: lib.profiler.schedule(wait=0, warmup=1, active=0),
    lambda lib: lib.profiler.schedule(wait=0, warmup=1, active=1)(-1),
])
def test_schedule_errors_match_torch(call):
    with pytest.raises(AssertionError) as ref:
        call(torch)
    with pytest.raises(AssertionError) as mine:
        call(mt)
    assert str(mine.value) == str(ref.value)


def test_schedule_without_warmup_warns_as_torch():
    messages = []
    for lib in (mt, torch):
        with pytest.warns(UserWarning) as caught:
            lib.profiler.schedule(wait=1, warmup=0, active=1)
        messages.append([str(w.message) for w in caught])
    assert messages[0] == messages[1]


def _scheduled_traces(lib, kwargs, steps):
    """What each ``on_trace_ready`` call sees (step number, the ranges and step markers), and
    what is left after the block: the profiler recipe's long-running-job section."""
    x = lib.ones(3, 3, requires_grad=True)
    seen = []

    def keys(p):
        return sorted((e.key, e.count) for e in p.key_averages()
                      if e.key.startswith(("step", "ProfilerStep")))

    schedule = lib.profiler.schedule(**kwargs) if kwargs is not None else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's "clears events" warning, once per process
        with lib.profiler.profile(activities=[lib.profiler.ProfilerActivity.CPU],
                                  schedule=schedule,
                                  on_trace_ready=lambda p: seen.append((p.step_num, keys(p)))
                                  ) as p:
            for i in range(steps):
                with lib.profiler.record_function(f"step{i}"):
                    (x * 2).sum()
                p.step()
    return seen, p.step_num, keys(p)


@pytest.mark.parametrize("kwargs, steps", [(_SCHEDULES[0], 9), (_SCHEDULES[0], 8),
                                           (_SCHEDULES[2], 5), (_SCHEDULES[3], 3),
                                           (None, 3)])
def test_scheduled_profile_traces_match_torch(kwargs, steps):
    assert _scheduled_traces(mt, kwargs, steps) == _scheduled_traces(torch, kwargs, steps)


def test_profile_start_stop_hands_the_trace_over_once_as_torch():
    out = []
    for lib in (mt, torch):
        seen = []
        p = lib.profiler.profile(activities=[lib.profiler.ProfilerActivity.CPU],
                                 on_trace_ready=seen.append)
        p.start()
        with lib.profiler.record_function("block"):
            lib.ones(2, requires_grad=True).sum()
        p.stop()
        out.append((len(seen), [e.key for e in p.key_averages() if e.key == "block"]))
    assert out[0] == out[1] == (1, ["block"])


# ---------------------------------------------------------------- profile_memory
def _memory_profile(lib, profile_memory, sort_by):
    x = lib.ones(100, 100, requires_grad=True)
    with lib.profiler.profile(activities=[lib.profiler.ProfilerActivity.CPU],
                              profile_memory=profile_memory) as prof:
        (x * 2).relu().sum()
    averages = prof.key_averages()
    table = averages.table(sort_by=sort_by, row_limit=10)
    total = [(e.cpu_memory_usage, e.self_cpu_memory_usage) for e in averages
             if e.key == "aten::sum"]
    return table.splitlines()[1].split(), table.splitlines()[-1].split(":")[0], total


@pytest.mark.parametrize("sort_by", ["self_cpu_memory_usage", "cpu_memory_usage"])
@pytest.mark.parametrize("profile_memory", [True, False])
def test_memory_columns_and_sort_keys_match_torch(profile_memory, sort_by):
    # the profiler recipe's "analyze memory consumption" section
    mine = _memory_profile(mt, profile_memory, sort_by)
    ref = _memory_profile(torch, profile_memory, sort_by)
    assert mine == ref
    assert ("Mem" in mine[0]) is profile_memory


def test_memory_is_formatted_as_torch():
    from torch.autograd.profiler_util import _format_memory as ref

    from minitorch.autograd.profiler import _format_memory as mine

    for n in (0, 4, 1023, 1024, 40000, -39992, 3 * 1024 ** 2 + 5, 5 * 1024 ** 3):
        assert mine(n) == ref(n)


def _shapes_table(lib, group_by_input_shape):
    x = lib.ones(2, 3, requires_grad=True)
    w = lib.ones(3, 4)
    with lib.profiler.profile(activities=[lib.profiler.ProfilerActivity.CPU],
                              record_shapes=True) as prof:
        x @ w
    table = prof.key_averages(group_by_input_shape=group_by_input_shape).table(
        sort_by="cpu_time_total", row_limit=10)
    rows = [line for line in table.splitlines() if "aten::mm" in line]
    shapes = [row[-20:].strip() for row in rows] if group_by_input_shape else []
    return table.splitlines()[1].split(), shapes


@pytest.mark.parametrize("group_by_input_shape", [True, False])
def test_input_shapes_column_matches_torch(group_by_input_shape):
    # the recipe's key_averages(group_by_input_shape=True): an Input Shapes column
    assert _shapes_table(mt, group_by_input_shape) == _shapes_table(torch, group_by_input_shape)
