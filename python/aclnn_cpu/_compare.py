"""``compare``: precision metrics of a result against a golden one, as Ascend operator tests measure them.

An element's relative error is ``|actual - golden| / max(|golden|, floor)``; it is an error when that exceeds
``rtol``, and the comparison passes when the fraction of errors (``error_ratio``) is at most ``ratio`` and NaN and
±Inf sit in the same places in both.

The floor keeps elements where golden is 0, or nearly 0 after cancellation, from failing on rounding noise: by
default it is 1/32 of golden's root mean square (at least the dtype's smallest normal number). An fp32 sum of
products carries an error of about 1e-6 of the output's RMS whatever the element's own size (measured on 3x3
layers of 3 to 128 channels against float64: at most 3e-6), so 1/32 of the RMS keeps it under float32's 1e-4;
elements above the floor are judged by their own magnitude.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple

import numpy as np

from . import _dtypes
from ._dtypes import DType

# (rtol, ratio) per dtype: the "double thousandth" habit of Ascend's precision standards (at most 1/1000 of the
# elements more than 1/1000 off, for float16), with 1e-4 for float32 and 4e-3 (about one bfloat16 rounding step)
# for bfloat16.
_DEFAULTS: Dict[str, Tuple[float, float]] = {
    "float32": (1e-4, 1e-4),
    "float16": (1e-3, 1e-3),
    "bfloat16": (4e-3, 4e-3),
}
_SMALLEST_NORMAL = {"float32": 2.0**-126, "float16": 2.0**-14, "bfloat16": 2.0**-126, "hifloat8": 2.0**-15,
                    "float8_e4m3fn": 2.0**-6}
FLOOR_FRACTION = 2.0**-5  # of golden's RMS: the default floor


def default_tolerances(dtype: str) -> Tuple[float, float]:
    """(rtol, ratio) for ``dtype``; ValueError for a dtype without defaults (the 8-bit formats)."""
    d = _dtypes.by_name(dtype)
    if d.name not in _DEFAULTS:
        raise ValueError(f"dtype: {d.name} has no default tolerances; pass rtol and ratio")
    return _DEFAULTS[d.name]


@dataclass(frozen=True)
class CompareResult:
    """The metrics of one comparison (errors over the elements finite in both)."""

    dtype: str
    count: int
    rtol: float
    ratio: float
    floor: float
    max_abs_error: float
    max_rel_error: float
    mean_rel_error: float
    cosine_similarity: float
    error_ratio: float
    errors: int  # elements whose relative error exceeds rtol
    nan_inf_mismatches: int  # elements where NaN or ±Inf is in one and not the same in the other
    passed: bool

    def __str__(self) -> str:
        verdict = "PASSED" if self.passed else "FAILED"
        return (f"compare ({self.dtype}, {self.count} elements): {verdict}\n"
                f"  max_abs_error      {self.max_abs_error:.6g}\n"
                f"  max_rel_error      {self.max_rel_error:.6g}\n"
                f"  mean_rel_error     {self.mean_rel_error:.6g}\n"
                f"  cosine_similarity  {self.cosine_similarity:.9f}\n"
                f"  error_ratio        {self.error_ratio:.6g} ({self.errors} of {self.count} above rtol "
                f"{self.rtol:g}; allowed {self.ratio:g})\n"
                f"  nan_inf_mismatches {self.nan_inf_mismatches}\n"
                f"  relative error floor {self.floor:g}")


def _values(x: Any, dtype: Optional[DType], name: str) -> Tuple[np.ndarray, Optional[DType]]:
    """float64 values of an array or tensor and the dtype it holds (None for float64 and other plain types)."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(x, torch.Tensor):
        t = x.detach().cpu()
        held = _dtypes.of_torch_name(str(t.dtype).replace("torch.", ""))
        if dtype is not None and dtype.is_8bit and t.dtype == torch.uint8:
            return _dtypes.to_float(t.numpy(), dtype).astype(np.float64), dtype
        return t.double().numpy(), held
    a = np.asarray(x)
    if dtype is not None and dtype.raw and a.dtype == np.dtype(dtype.numpy):
        return _dtypes.to_float(a, dtype).astype(np.float64), dtype
    if a.dtype.kind not in "fiu":
        raise TypeError(f"{name}: expected numbers, got dtype {a.dtype}")
    return a.astype(np.float64), _dtypes.of_numpy(a.dtype)


def compare(actual: Any, golden: Any, dtype: Optional[str] = None, rtol: Optional[float] = None,
            ratio: Optional[float] = None, *, floor: Optional[float] = None) -> CompareResult:
    """Compares ``actual`` with ``golden`` elementwise (numpy arrays, torch tensors or sequences of one shape).

    Args:
        dtype: the dtype the defaults are taken from, and how raw bits are read (``"bfloat16"`` for uint16 bits,
            ``"hifloat8"``/``"float8_e4m3fn"`` for uint8 codes); default: actual's dtype, else golden's.
        rtol: relative error above which an element counts as an error (default per dtype: float32 1e-4,
            float16 1e-3, bfloat16 4e-3).
        ratio: the largest fraction of errors that passes (default per dtype: the same numbers).
        floor: the smallest denominator of the relative error (default: FLOOR_FRACTION = 1/32 of golden's root
            mean square over its finite elements, at least the dtype's smallest normal number).
    """
    wanted = _dtypes.by_name(dtype) if dtype is not None else None
    a, a_dtype = _values(actual, wanted, "actual")
    g, g_dtype = _values(golden, wanted, "golden")
    if a.shape != g.shape:
        raise ValueError(f"actual has shape {a.shape} but golden has {g.shape}")
    chosen = wanted or a_dtype or g_dtype
    if chosen is None:
        raise ValueError("dtype: cannot tell from float64 or integer data; pass dtype=")
    if rtol is None or ratio is None:
        default_rtol, default_ratio = default_tolerances(chosen.name)
        rtol = default_rtol if rtol is None else rtol
        ratio = default_ratio if ratio is None else ratio
    a, g = a.ravel(), g.ravel()
    finite = np.isfinite(a) & np.isfinite(g)
    if floor is None:
        rms = math.sqrt(float(np.mean(np.square(g[finite])))) if np.any(finite) else 0.0
        floor = max(_SMALLEST_NORMAL[chosen.name], FLOOR_FRACTION * rms)
    floor = float(floor)
    if not floor > 0:
        raise ValueError(f"floor: {floor} must be positive")
    # NaN matches NaN, +Inf matches +Inf: what is not finite must be the same in both.
    special_same = (np.isnan(a) & np.isnan(g)) | (np.isinf(a) & (a == g))
    mismatches = int(np.count_nonzero(~finite & ~special_same))
    af, gf = a[finite], g[finite]
    abs_err = np.abs(af - gf)
    rel_err = abs_err / np.maximum(np.abs(gf), floor)
    errors = int(np.count_nonzero(rel_err > rtol))
    count = int(a.size)
    norm = float(np.linalg.norm(af)) * float(np.linalg.norm(gf))
    if norm > 0:
        cosine = float(np.dot(af, gf)) / norm
    else:
        cosine = 1.0 if not np.any(af) and not np.any(gf) else 0.0
    error_ratio = errors / count if count else 0.0
    return CompareResult(
        dtype=chosen.name, count=count, rtol=float(rtol), ratio=float(ratio), floor=floor,
        max_abs_error=float(abs_err.max()) if abs_err.size else 0.0,
        max_rel_error=float(rel_err.max()) if rel_err.size else 0.0,
        mean_rel_error=float(rel_err.mean()) if rel_err.size else 0.0,
        cosine_similarity=cosine if math.isfinite(cosine) else 0.0,
        error_ratio=error_ratio, errors=errors, nan_inf_mismatches=mismatches,
        passed=error_ratio <= ratio and mismatches == 0)
