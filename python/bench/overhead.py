#!/usr/bin/python3
"""Per-call overhead of aclnn_cpu.convolution_backward from Python against the same call from C.

For the seed problem (CANN's documentation sample, the demo's first default problem) and one ResNet-50 layer it
times a whole call (GetWorkspaceSize + launch + synchronize, with the copies to and from device memory on the
Python side) from numpy and from torch, and runs the demo driver (``aclnn_cpu_demo PROBLEM --reps=N``, the C API
with the tensors already in device memory) for the C time, in alternating rounds. Prints the CPU it ran on.
Figures only, no thresholds.

usage: ACLNN_CPU_LIB_DIR=<prefix>/lib64 /usr/bin/python3 python/bench/overhead.py [--demo PATH] [--threads 1]
       [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List

import numpy as np

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "python"))

# (name, demo descriptor, grad_output, input and weight shapes, stride, padding, cube_math_type, repetitions)
PROBLEMS = [
    ("seed: CANN sample 2x2x7x7, 1x1, HF32", "mb2_g1_ic2oc2_ih7iw7_kh1kw1_sh1sw1_ph0pw0_dh1dw1_dtf32_mask111_cmt1",
     ((2, 2, 7, 7), (2, 2, 7, 7), (2, 2, 1, 1)), [1, 1], [0, 0], 1, 3000),
    ("ResNet-50 conv3_x 3x3, 128 ch, 28x28, FP32",
     "mb1_g1_ic128oc128_ih28iw28_kh3kw3_sh1sw1_ph1pw1_dh1dw1_dtf32_mask111_cmt0",
     ((1, 128, 28, 28), (1, 128, 28, 28), (128, 128, 3, 3)), [1, 1], [1, 1], 0, 40),
]


def cpu() -> str:
    """The CPU's model name and its best vector ISA, from lscpu."""
    text = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    model = re.search(r"Model name:\s*(.+)", text)
    flags = re.search(r"Flags:\s*(.+)", text)
    isa = "scalar"
    if flags:
        names = flags.group(1).split()
        isa = "AVX-512" if "avx512f" in names else "AVX2+FMA" if "avx2" in names and "fma" in names else "scalar"
    return f"{model.group(1).strip() if model else 'unknown CPU'} ({os.cpu_count()} CPUs, best ISA {isa})"


def demo_ms(demo: Path, desc: str, reps: int, threads: int) -> float:
    """The mean ms per call the demo driver reports for ``desc``."""
    done = subprocess.run([str(demo), desc, f"--reps={reps}", f"--threads={threads}"], capture_output=True, text=True,
                          timeout=600)
    found = re.search(r"time: ([0-9.]+) ms/call \(mean of \d+ reps", done.stdout)
    if done.returncode != 0 or not found:
        raise RuntimeError(f"{demo} {desc} failed:\n{done.stdout}{done.stderr}")
    return float(found.group(1))


def python_ms(fn: Callable[[], Any], reps: int) -> float:
    """The mean ms per call of ``fn`` over ``reps`` calls, after a few warm-up calls."""
    for _ in range(min(reps, 20)):
        fn()
    start = time.perf_counter()
    for _ in range(reps):
        fn()
    return 1e3 * (time.perf_counter() - start) / reps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--demo", type=Path, default=REPO / "build" / "release" / "driver" / "aclnn_cpu_demo")
    parser.add_argument("--threads", type=int, default=1, help="threads per call, both sides (default 1)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds of C and Python (default 5)")
    args = parser.parse_args()
    os.environ["ACLNN_CPU_NUM_THREADS"] = str(args.threads)  # read at aclInit, before the first call
    import aclnn_cpu

    try:
        import torch
    except ImportError:
        torch = None
    info = aclnn_cpu.library_info()
    print(f"CPU: {cpu()}")
    print(f"library: {info['path']} ({info['origin']}), aclnn-cpu {info['version']}, {args.threads} thread(s) per call")
    print(f"python: {sys.version.split()[0]}, numpy {np.__version__}"
          + (f", torch {torch.__version__}" if torch is not None else ""))
    print()
    header = f"{'problem':44s} {'C (demo)':>10s} {'numpy':>10s} {'torch':>10s} {'overhead numpy':>15s} {'torch':>9s}"
    print(header + "\n" + "-" * len(header))
    for name, desc, shapes, stride, padding, cmt, reps in PROBLEMS:
        rng = np.random.default_rng(1)
        arrays = [rng.uniform(-1, 1, s).astype(np.float32) for s in shapes]
        rest = ([shapes[0][1]], stride, padding, [1, 1], False, [0, 0], 1, [True] * 3)
        calls: Dict[str, Callable[[], Any]] = {
            "numpy": lambda: aclnn_cpu.convolution_backward(*arrays, *rest, cube_math_type=cmt)}
        if torch is not None:
            tensors = [torch.from_numpy(a) for a in arrays]
            calls["torch"] = lambda: aclnn_cpu.convolution_backward(*tensors, *rest, cube_math_type=cmt)
        # Rounds alternate between the sides, so that load from elsewhere on the machine hits both alike.
        rounds: Dict[str, List[float]] = {side: [] for side in ["c", *calls]}
        for _ in range(args.rounds):
            rounds["c"].append(demo_ms(args.demo, desc, reps, args.threads))
            for side, fn in calls.items():
                rounds[side].append(python_ms(fn, reps))
        ms = {side: statistics.median(values) for side, values in rounds.items()}
        overhead = {side: 1e3 * statistics.median(p - c for p, c in zip(rounds[side], rounds["c"])) for side in calls}
        cells = [f"{ms[k]:10.3f}" if k in ms else f"{'-':>10s}" for k in ("c", "numpy", "torch")]
        torch_cell = f"{overhead['torch']:6.1f} us" if "torch" in overhead else "-"
        print(f"{name:44s} {' '.join(cells)} {overhead['numpy']:12.1f} us {torch_cell:>9s}")
    print(f"\nms per call (GetWorkspaceSize + launch + synchronize), medians over {args.rounds} rounds; overhead: the")
    print("median of each round's Python - C difference. The C figure is the demo's call with its tensors already in")
    print("device memory; the Python call also allocates device memory, copies the operands in and the outputs out.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
