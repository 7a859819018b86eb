"""aclnn_cpu.compare against figures computed by hand, and ``python3 -m aclnn_cpu compare``."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import python_env


def test_metrics_are_the_hand_computed_ones(aclnn: Any) -> None:
    golden = np.array([2.0, 4.0, 0.0, -8.0])
    actual = np.array([2.0, 4.004, 0.0, -8.0])
    r = aclnn.compare(actual, golden, dtype="float32")
    # rms(golden) = sqrt((4 + 16 + 0 + 64) / 4) = sqrt(21); the floor is 1/32 of it.
    assert r.floor == pytest.approx(math.sqrt(21) / 32)
    assert r.max_abs_error == pytest.approx(0.004)
    assert r.max_rel_error == pytest.approx(0.001)  # 0.004 / 4
    assert r.mean_rel_error == pytest.approx(0.00025)  # (0 + 0.001 + 0 + 0) / 4
    assert r.cosine_similarity == pytest.approx(84.016 / math.sqrt(84.032016 * 84.0), abs=1e-15)
    assert (r.errors, r.count, r.error_ratio) == (1, 4, 0.25)  # 0.001 > rtol 1e-4
    assert (r.rtol, r.ratio, r.passed) == (1e-4, 1e-4, False)
    assert aclnn.compare(actual, golden, dtype="float32", rtol=1e-3).passed  # 0.001 is not above 1e-3
    assert aclnn.compare(actual, golden, dtype="float32", ratio=0.25).passed
    assert not aclnn.compare(actual, golden, dtype="float32", ratio=0.24).passed


def test_the_floor_judges_elements_near_zero_on_golden_scale(aclnn: Any) -> None:
    golden = np.array([0.0, 32.0, -32.0, 0.0])  # rms 16*sqrt(2), floor sqrt(2)/2
    actual = np.array([1e-4, 32.0, -32.0, 2e-4])
    r = aclnn.compare(actual, golden, dtype="float32")
    assert r.max_rel_error == pytest.approx(2e-4 / (math.sqrt(2) / 2))
    assert r.errors == 2  # 1e-4 / 0.707 = 1.4e-4 and 2.8e-4, both above rtol 1e-4
    r1 = aclnn.compare(actual, golden, dtype="float32", floor=1.0)
    assert r1.max_rel_error == pytest.approx(2e-4) and r1.errors == 1  # 1e-4 is not above 1e-4
    # An all-zero golden falls back to the dtype's smallest normal number: any non-zero actual is an error.
    z = aclnn.compare(np.array([0.0, 1e-30]), np.zeros(2), dtype="float32")
    assert z.floor == 2.0**-126 and z.errors == 1
    with pytest.raises(ValueError, match="floor"):
        aclnn.compare(actual, golden, dtype="float32", floor=0.0)


def test_nan_and_inf_must_match_in_place(aclnn: Any) -> None:
    inf, nan = float("inf"), float("nan")
    same = aclnn.compare(np.array([1.0, nan, inf, -inf]), np.array([1.0, nan, inf, -inf]), dtype="float16")
    assert same.passed and same.nan_inf_mismatches == 0 and same.max_abs_error == 0
    for actual in ([1.0, 2.0, inf, -inf], [1.0, nan, -inf, -inf], [1.0, nan, inf, 5.0]):
        r = aclnn.compare(np.array(actual), np.array([1.0, nan, inf, -inf]), dtype="float16", ratio=1.0)
        assert r.nan_inf_mismatches == 1 and not r.passed


def test_defaults_follow_the_dtype(aclnn: Any) -> None:
    assert aclnn.default_tolerances("float32") == (1e-4, 1e-4)
    assert aclnn.default_tolerances("f16") == (1e-3, 1e-3)
    assert aclnn.default_tolerances("bf16") == (4e-3, 4e-3)
    with pytest.raises(ValueError, match="hifloat8"):
        aclnn.default_tolerances("hif8")
    r = aclnn.compare(np.ones(3, np.float16), np.ones(3, np.float16))
    assert (r.dtype, r.rtol) == ("float16", 1e-3)
    with pytest.raises(ValueError, match="dtype"):
        aclnn.compare(np.ones(3), np.ones(3))  # float64 on both sides says nothing
    with pytest.raises(ValueError, match="shape"):
        aclnn.compare(np.ones(3, np.float32), np.ones(4, np.float32))


def test_raw_bfloat16_bits_and_torch_tensors(aclnn: Any) -> None:
    values = np.array([1.0, -2.5, 3.0, 0.0], np.float32)
    bits = aclnn.float32_to_bfloat16_bits(values)
    assert bits.dtype == np.uint16 and list(bits) == [0x3F80, 0xC020, 0x4040, 0]
    assert list(aclnn.bfloat16_bits_to_float32(bits)) == list(values)
    r = aclnn.compare(bits, values, dtype="bf16")
    assert r.passed and r.max_abs_error == 0 and r.rtol == 4e-3
    torch = pytest.importorskip("torch")
    t = torch.tensor(values, dtype=torch.bfloat16)
    assert aclnn.compare(t, bits, dtype="bf16").max_abs_error == 0
    assert aclnn.compare(t, values).dtype == "bfloat16"


def test_str_shows_every_metric(aclnn: Any) -> None:
    text = str(aclnn.compare(np.array([1.0, 2.0], np.float32), np.array([1.0, 2.1], np.float32)))
    for part in ("FAILED", "max_abs_error", "max_rel_error", "mean_rel_error", "cosine_similarity", "error_ratio",
                 "1 of 2 above rtol 0.0001", "nan_inf_mismatches 0"):
        assert part in text, text


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "aclnn_cpu", *args], env=python_env(), capture_output=True,
                          text=True, timeout=120)


def test_the_compare_command(tmp_path: Path, aclnn: Any) -> None:
    golden = np.arange(1, 7, dtype=np.float32)
    (tmp_path / "g.bin").write_bytes(aclnn.float32_to_bfloat16_bits(golden).tobytes())
    (tmp_path / "a.bin").write_bytes(aclnn.float32_to_bfloat16_bits(golden * 1.01).tobytes())
    np.save(tmp_path / "g.npy", aclnn.float32_to_bfloat16_bits(golden).reshape(2, 3))
    ok = cli("compare", str(tmp_path / "g.npy"), str(tmp_path / "g.bin"), "--dtype", "bf16", "--shape", "2,3")
    assert ok.returncode == 0 and "PASSED" in ok.stdout and "(bfloat16, 6 elements)" in ok.stdout, ok.stderr
    bad = cli("compare", str(tmp_path / "a.bin"), str(tmp_path / "g.bin"), "--dtype", "bf16")
    assert bad.returncode == 1 and "FAILED" in bad.stdout
    loose = cli("compare", str(tmp_path / "a.bin"), str(tmp_path / "g.bin"), "--dtype", "bf16", "--rtol", "0.02")
    assert loose.returncode == 0
    no_dtype = cli("compare", str(tmp_path / "a.bin"), str(tmp_path / "g.bin"))
    assert no_dtype.returncode == 2 and "--dtype" in no_dtype.stderr
    wrong_shape = cli("compare", str(tmp_path / "a.bin"), str(tmp_path / "g.bin"), "--dtype", "bf16", "--shape", "4,2")
    assert wrong_shape.returncode == 2
    for command in ([], ["compare"], ["golden"]):
        helped = cli(*command, "--help")
        assert helped.returncode == 0 and "usage:" in helped.stdout
