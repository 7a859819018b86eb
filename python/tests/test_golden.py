"""``python3 -m aclnn_cpu golden``: files and manifest, outputs equal to the direct call's and the C API's."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict

import numpy as np
import pytest

from conftest import CRunner, descriptor, python_env


def golden(case: Dict[str, Any], tmp_path: Path, out: str = "out") -> subprocess.CompletedProcess:
    path = tmp_path / "case.json"
    path.write_text(json.dumps(case))
    return subprocess.run([sys.executable, "-m", "aclnn_cpu", "golden", str(path), "--out", str(tmp_path / out)],
                          env=python_env(), capture_output=True, text=True, timeout=300)


def read(out: Path, manifest: Dict[str, Any], name: str) -> np.ndarray:
    t = manifest["tensors"][name]
    a = np.fromfile(out / t["bin"], dtype=t["npy_dtype"]).reshape(t["shape"])
    assert np.array_equal(np.load(out / t["npy"]), a)
    return a


CASE = {"input": {"shape": [2, 3, 9, 9], "dtype": "float32"}, "weight": {"shape": [8, 3, 3, 3], "dtype": "float32"},
        "stride": [2, 2], "padding": [1, 1], "cube_math_type": 1, "soc": "Ascend950", "threads": 2, "seed": 5}


def test_golden_files_match_the_c_api_and_the_direct_call(tmp_path: Path, aclnn: Any) -> None:
    done = golden(CASE, tmp_path)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "out"
    manifest = json.loads((out / "manifest.json").read_text())
    assert sorted(manifest["tensors"]) == sorted(["grad_output", "input", "weight", "grad_input", "grad_weight",
                                                  "grad_bias"])
    assert manifest["tensors"]["grad_output"]["shape"] == [2, 8, 5, 5]  # derived from input, weight and stride
    assert manifest["call"]["soc"] == "Ascend950" and manifest["call"]["bias_sizes"] == [8]
    for t in manifest["tensors"].values():
        assert hashlib.sha256((out / t["bin"]).read_bytes()).hexdigest() == t["sha256"]
        assert t["bin"] in done.stdout
    g, x, w = (read(out, manifest, n) for n in ("grad_output", "input", "weight"))
    assert x.min() >= -1 and x.max() < 1 and len(np.unique(x)) > 100  # seeded uniform values
    direct = aclnn.convolution_backward(g, x, w, [8], [2, 2], [1, 1], [1, 1], False, [0, 0], 1, [True] * 3,
                                        cube_math_type=1, soc="Ascend950")
    runner = CRunner(tmp_path / "c")
    (tmp_path / "c").mkdir()
    case_id = runner.add(descriptor((g.shape, x.shape, w.shape), ["float32"] * 6, [2, 2], [1, 1], [1, 1], False,
                                    [0, 0], 1, [True] * 3, 1, "Ascend950"), [g, x, w])
    c = runner.run()[case_id]
    for name, slot, want in zip(("grad_input", "grad_weight", "grad_bias"), ("gradInput", "gradWeight", "gradBias"),
                                direct):
        assert (out / f"{name}.bin").read_bytes() == want.tobytes() == c[slot]
    # compare: golden against itself passes, against another product's HF32 it does not.
    gi = str(out / "grad_input.bin")
    same = subprocess.run([sys.executable, "-m", "aclnn_cpu", "compare", gi, gi, "--dtype", "f32"], env=python_env(),
                          capture_output=True, text=True)
    assert same.returncode == 0, same.stdout + same.stderr
    other = golden({**CASE, "soc": "Ascend910B"}, tmp_path, "out910b")
    assert other.returncode == 0, other.stderr
    differ = subprocess.run([sys.executable, "-m", "aclnn_cpu", "compare", str(tmp_path / "out910b/grad_weight.bin"),
                             str(out / "grad_weight.bin"), "--dtype", "f32"], env=python_env(), capture_output=True,
                            text=True)
    assert differ.returncode == 1 and "FAILED" in differ.stdout


def test_inputs_from_files_transposed_bfloat16_and_output_dtypes(tmp_path: Path, aclnn: Any) -> None:
    rng = np.random.default_rng(2)
    x_bits = aclnn.float32_to_bfloat16_bits(rng.uniform(-1, 1, (1, 4, 5, 5)).astype(np.float32))
    x_bits.tofile(tmp_path / "x.bin")
    w = rng.uniform(-1, 1, (4, 2, 3, 3)).astype(np.float32)
    np.save(tmp_path / "w.npy", aclnn.float32_to_bfloat16_bits(w).reshape(w.shape))
    case = {"input": {"file": "x.bin", "shape": [1, 4, 5, 5], "dtype": "bf16"},
            "weight": {"file": "w.npy", "dtype": "bfloat16"}, "grad_output": {"dtype": "bfloat16"},
            "transposed": True, "stride": 2, "padding": 1, "output_padding": 1, "output_mask": [True, True, False],
            "output_dtypes": {"grad_weight": "float32"}}
    done = golden(case, tmp_path)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "out"
    manifest = json.loads((out / "manifest.json").read_text())
    assert "grad_bias" not in manifest["tensors"] and manifest["call"]["bias_sizes"] is None
    assert manifest["tensors"]["grad_output"]["shape"] == [1, 2, 10, 10]
    assert manifest["tensors"]["grad_input"]["dtype"] == "bfloat16"
    assert manifest["tensors"]["grad_input"]["npy_dtype"] == "uint16"
    assert manifest["tensors"]["grad_weight"]["dtype"] == "float32"
    assert (out / "input.bin").read_bytes() == x_bits.tobytes()
    g = read(out, manifest, "grad_output")
    gi, gw, _ = aclnn.convolution_backward(g, x_bits, aclnn.float32_to_bfloat16_bits(w).reshape(w.shape), None,
                                           [2, 2], [1, 1], [1, 1], True, [1, 1], 1, [True, True, False],
                                           dtypes={"grad_output": "bf16", "input": "bf16", "weight": "bf16",
                                                   "grad_weight": "float32"})
    assert (out / "grad_input.bin").read_bytes() == gi.tobytes()
    assert (out / "grad_weight.bin").read_bytes() == gw.tobytes()


@pytest.mark.parametrize("case,text", [
    ({"weight": {"shape": [1, 1, 1]}}, "input: missing"),
    ({**CASE, "strides": [1, 1]}, "unknown keys ['strides']"),
    ({**CASE, "input": {"shape": [2, 3, 9, 9], "dtype": "hif8"}}, "must come from a file"),
    ({**CASE, "groups": 2}, "161002"),
])
def test_a_bad_case_exits_2_with_a_message(tmp_path: Path, case: Dict[str, Any], text: str) -> None:
    done = golden(case, tmp_path)
    assert done.returncode == 2 and text in done.stderr, done.stderr
