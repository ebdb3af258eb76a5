"""Sort what differs on a GPU, with PyTorch's CUDA build as the judge.

For each op, the samples where minitorch on the GPU differs from minitorch on the CPU, each with
what PyTorch's own builds do with the same sample: its CPU against its GPU, and ours against its
GPU. A difference PyTorch's CUDA build shares is PyTorch's (``CUDA_DIFFERENCES`` in
``tests/test_opinfo_device.py``); one it does not share is ours to fix.

Usage, on a GPU machine with CuPy and PyTorch's CUDA build, from the repository root:
    python3 scripts/gpu_oracle.py OP[,OP...]     (names as in the table: fn:cummax, F:elu)
"""

import sys
import warnings

sys.path.insert(0, "tests")

import torch
from _opinfo_samples import AGREE, OPS, SAME_EXC, compare, run

import minitorch


def main() -> None:
    ops = sys.argv[1].split(",") if len(sys.argv) > 1 else sorted(OPS)
    ours, theirs = minitorch.device("cuda"), torch.device("cuda")
    warnings.simplefilter("ignore")
    for op in ops:
        for s in OPS[op]():
            try:
                minitorch.manual_seed(0)
                on_cpu = run(minitorch, s)
                minitorch.manual_seed(0)
                on_gpu = run(minitorch, s, device=ours)
                verdict, detail = compare(on_gpu, on_cpu, s)
                if verdict in (AGREE, SAME_EXC):
                    continue
                torch.manual_seed(0)
                torch_cpu = run(torch, s)
                torch.manual_seed(0)
                torch_gpu = run(torch, s, device=theirs)
                tv, td = compare(torch_gpu, torch_cpu, s)
                ov, od = compare(on_gpu, torch_gpu, s)
                print(f"{s.id} | ours cpu/gpu: {verdict} {detail[:60]} | torch cpu/gpu: {tv} "
                      f"{td[:60]} | ours gpu vs torch gpu: {ov} {od[:60]}", flush=True)
            except Exception as e:  # a sample the probe itself cannot run: say so, go on
                print(f"{s.id} | probe failed: {type(e).__name__}: {str(e)[:120]}", flush=True)


if __name__ == "__main__":
    main()
