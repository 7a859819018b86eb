"""Shared set-up of the aclnn_cpu tests: the checkout's package, the libraries, the C runner and helpers.

CTest (python.pytest) runs the suite against the compat tests' installed tree and names it in the environment:
ACLNN_CPU_LIB_DIR (its lib64), ACLNN_CPU_TEST_PREFIX (the prefix), ACLNN_CPU_TEST_PYTHON_DIR (the package's
directory under it) and ACLNN_CPU_TEST_RUNNER (tools/crosscheck_runner). Run by hand, the defaults are those of the
release build tree (build/release), once ``ctest -R compat.install`` has installed it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Sequence

import numpy as np
import pytest

PYTHON_DIR = Path(__file__).resolve().parents[1]
REPO = PYTHON_DIR.parent
BUILD = REPO / "build" / "release"
PREFIX = Path(os.environ.get("ACLNN_CPU_TEST_PREFIX", BUILD / "compat" / "prefix"))
PACKAGE_UNDER_PREFIX = os.environ.get("ACLNN_CPU_TEST_PYTHON_DIR", "lib/python3/site-packages")
RUNNER = Path(os.environ.get("ACLNN_CPU_TEST_RUNNER", BUILD / "tools" / "crosscheck_runner"))
os.environ.setdefault("ACLNN_CPU_LIB_DIR", str(PREFIX / "lib64"))
LIB_DIR = os.environ["ACLNN_CPU_LIB_DIR"]
sys.path.insert(0, str(PYTHON_DIR))

SLOTS = ("gradOutput", "input", "weight", "gradInput", "gradWeight", "gradBias")
SHORT = {"float32": "f32", "float16": "f16", "bfloat16": "bf16", "hifloat8": "hif8", "float8_e4m3fn": "e4m3"}
LETTERS = {1: "w", 2: "hw", 3: "dhw"}


def pytest_configure(config: pytest.Config) -> None:
    if not Path(LIB_DIR, "libascendcl.so").is_file():
        raise pytest.UsageError(f"no libascendcl.so in ACLNN_CPU_LIB_DIR={LIB_DIR}: build and install first "
                                "(cmake --build --preset release && ctest --test-dir build/release -R compat.install)")


def python_env(**changes: Optional[str]) -> Dict[str, str]:
    """This environment with the checkout's package on PYTHONPATH and ``changes`` (None removes a variable), for a
    child /usr/bin/python3."""
    env = dict(os.environ, PYTHONPATH=str(PYTHON_DIR))
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def run_python(code: str, env: Mapping[str, str], cwd: Optional[Path] = None,
               python: str = sys.executable) -> subprocess.CompletedProcess:
    """Runs ``code`` in a fresh interpreter; the result has text stdout and stderr."""
    return subprocess.run([python, "-c", code], env=dict(env), cwd=cwd, capture_output=True, text=True, timeout=300)


def raw(x: object) -> bytes:
    """The bytes of an array or tensor's elements in C order."""
    if isinstance(x, np.ndarray):
        return np.ascontiguousarray(x).tobytes()
    import torch

    t = x.contiguous()
    if t.dtype == torch.bfloat16:
        t = t.view(torch.int16)
    return t.numpy().tobytes()


def descriptor(shapes: Sequence[Sequence[int]], dtypes: Sequence[Optional[str]], stride: Sequence[int],
               padding: Sequence[int], dilation: Sequence[int], transposed: bool, output_padding: Sequence[int],
               groups: int, mask: Sequence[bool], cmt: int, soc: str) -> str:
    """The crosscheck_runner descriptor (src/conv_bwd/descriptor.hpp) of a call; shapes of grad_output, input,
    weight; dtypes of the six tensors (None: not passed)."""
    g, x, w = shapes
    rank = len(x) - 2
    letters = LETTERS[rank]

    def spatial(prefix: str, values: Sequence[int]) -> str:
        return "".join(f"{prefix}{letters[d]}{values[d]}" for d in range(rank))

    if len(padding) == 2 * rank:
        pads = "".join(f"p{letters[d]}{padding[2 * d]}:{padding[2 * d + 1]}" for d in range(rank))
    else:
        pads = spatial("p", padding)
    parts = [f"mb{x[0]}", f"g{groups}", f"ic{x[1]}oc{g[1]}", spatial("i", x[2:]), spatial("o", g[2:]),
             spatial("k", w[2:]), spatial("s", stride), pads, spatial("d", dilation)]
    if transposed:
        parts += ["tr1", spatial("op", output_padding)]
    parts += ["dt" + ":".join(SHORT[d] if d else "-" for d in dtypes),
              "mask" + "".join("1" if m else "0" for m in mask), f"cmt{cmt}", soc]
    return "_".join(parts)


class CRunner:
    """Runs calls through tools/crosscheck_runner: the same call made from C (aclInit, aclrtMalloc'd tensors,
    GetWorkspaceSize, launch on a stream)."""

    def __init__(self, work: Path) -> None:
        if not RUNNER.is_file():
            pytest.skip(f"no C runner at {RUNNER} (ACLNN_CPU_TEST_RUNNER)")
        self.work = work
        self.cases: List[str] = []

    def add(self, desc: str, inputs: Sequence[np.ndarray]) -> str:
        """Queues a call on contiguous inputs (numpy arrays holding the dtypes' bits); returns its id."""
        case_id = f"c{len(self.cases)}"
        for slot, a in zip(SLOTS, inputs):
            (self.work / f"{case_id}.{slot}").write_bytes(raw(a))
        self.cases.append(f"{case_id} {desc}")
        return case_id

    def run(self) -> Dict[str, Dict[str, object]]:
        """Runs every queued call: {id: {"status": int, "message": str, "gradInput": bytes or None, ...}}."""
        (self.work / "cases.txt").write_text("\n".join(self.cases) + "\n")
        done = subprocess.run([str(RUNNER), str(self.work)], capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        results: Dict[str, Dict[str, object]] = {}
        for line in (self.work / "results.txt").read_text().splitlines():
            case_id, status, message = (line.split(" ", 2) + [""])[:3]
            entry: Dict[str, object] = {"status": int(status), "message": message}
            for slot in SLOTS[3:]:
                path = self.work / f"{case_id}.{slot}"
                entry[slot] = path.read_bytes() if path.exists() else None
            results[case_id] = entry
        return results


@pytest.fixture(scope="session")
def aclnn():
    """The package under test, from the checkout."""
    import aclnn_cpu

    return aclnn_cpu
