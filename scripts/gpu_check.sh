#!/bin/bash
# The GPU checks in one go, for a GPU machine that can reach no package index (run from the
# repository root). Wheels for what that machine lacks (Jupyter's kernel and nbclient, for
# chapters 11-12) are downloaded beforehand into .whl/ on a machine that can, e.g.
#   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 \
#     --platform manylinux_2_28_x86_64 -d .whl nbclient nbformat ipykernel jupyter_client ...
# (the versions of constraints.txt; bench/results/gpu_h200_2026-11-27.md lists the run).
# What it writes goes to $OUT (default: gpu-check/).
OUT=${OUT:-gpu-check}; mkdir -p "$OUT"
if ls .whl/*.whl >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl || exit 1
    export PYTHONPATH=/tmp/site
fi
export PYTHONPATH=$PYTHONPATH:$PWD PYTHONUNBUFFERED=1 MPLBACKEND=Agg
nvidia-smi -L
python3 -m pytest -q -p no:cacheprovider -n 12 tests/test_gpu.py tests/test_gpu_issue16.py \
  tests/test_device.py tests/test_debug_tools_device.py tests/test_checks_ch11_gpu.py \
  tests/test_checks_ch12_gpu_backends.py tests/test_inplace_methods.py tests/test_api_more.py \
  tests/test_special_parity.py tests/test_opinfo_device.py > "$OUT/pytest.log" 2>&1
echo "pytest rc=$?"; tail -1 "$OUT/pytest.log"
# every op whose table test failed: what PyTorch's own CUDA build does with the same samples
grep "^FAILED tests/test_opinfo_device.py::test_op_on" "$OUT/pytest.log" \
  | sed 's/.*cpu\[\(.*\)\].*/\1/' | sort -u | paste -sd, > "$OUT/ops.txt"
[ -s "$OUT/ops.txt" ] && python3 scripts/gpu_oracle.py "$(cat "$OUT/ops.txt")" > "$OUT/oracle.txt"
for nb in 11_gpu 12_gpu_backends; do
    python3 scripts/gpu_exec_notebook.py "notebooks/$nb.ipynb" "$OUT/$nb.ipynb"
done
python3 bench/bench_gpu.py --repeat 7 --json "$OUT/gpu.json" > "$OUT/gpu.md"
