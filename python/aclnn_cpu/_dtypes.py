"""The element types CANN's convolution backward takes, and how numpy and torch hold them.

numpy has no bfloat16 and neither library has the Ascend 8-bit formats, so those travel as their raw bits:
bfloat16 in ``uint16`` arrays, HIFLOAT8 and FLOAT8_E4M3FN in ``uint8`` arrays (torch holds bfloat16 itself).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Dict, Optional

import numpy as np


@dataclass(frozen=True)
class DType:
    """One element type: its name, CANN's ``aclDataType`` value and how its elements are stored."""

    name: str
    acl: int  # aclDataType
    itemsize: int
    numpy: str  # numpy dtype holding the elements (raw bits for bfloat16 and the 8-bit formats)
    torch: str  # attribute of the torch module holding them
    raw: bool  # numpy holds bits, not values

    @property
    def is_8bit(self) -> bool:
        return self.itemsize == 1


FLOAT32 = DType("float32", 0, 4, "float32", "float32", False)
FLOAT16 = DType("float16", 1, 2, "float16", "float16", False)
BFLOAT16 = DType("bfloat16", 27, 2, "uint16", "bfloat16", True)
HIFLOAT8 = DType("hifloat8", 34, 1, "uint8", "uint8", True)
FLOAT8_E4M3FN = DType("float8_e4m3fn", 36, 1, "uint8", "uint8", True)

ALL = (FLOAT32, FLOAT16, BFLOAT16, HIFLOAT8, FLOAT8_E4M3FN)

_ALIASES: Dict[str, DType] = {}
for _d, _names in (
    (FLOAT32, ("float32", "f32", "fp32", "float")),
    (FLOAT16, ("float16", "f16", "fp16", "half")),
    (BFLOAT16, ("bfloat16", "bf16")),
    (HIFLOAT8, ("hifloat8", "hif8")),
    (FLOAT8_E4M3FN, ("float8_e4m3fn", "e4m3", "e4m3fn", "fp8_e4m3fn")),
):
    for _n in _names:
        _ALIASES[_n] = _d


def by_name(name: str, what: str = "dtype") -> DType:
    """The dtype called ``name`` (``"float32"``, ``"bf16"``, ``"hif8"``, ...); ValueError naming ``what`` if unknown."""
    try:
        return _ALIASES[str(name).lower()]
    except KeyError:
        known = ", ".join(d.name for d in ALL)
        raise ValueError(f"{what}: unknown dtype {name!r}; expected one of {known} (or f32, f16, bf16, hif8, e4m3)") \
            from None


def of_numpy(dtype: np.dtype) -> Optional[DType]:
    """The dtype a numpy array of ``dtype`` holds by itself (float32, float16), or None."""
    if dtype == np.float32:
        return FLOAT32
    if dtype == np.float16:
        return FLOAT16
    return None


def of_torch_name(name: str) -> Optional[DType]:
    """The dtype a torch tensor of ``torch.<name>`` holds by itself, or None."""
    return {"float32": FLOAT32, "float16": FLOAT16, "bfloat16": BFLOAT16}.get(name)


def float32_to_bfloat16_bits(values: np.ndarray) -> np.ndarray:
    """Rounds float32 values to bfloat16 (to nearest even; NaN stays NaN) and returns their bits as uint16."""
    bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))) >> np.uint32(16)
    nan = (bits & np.uint32(0x7FFFFFFF)) > np.uint32(0x7F800000)
    return np.where(nan, (bits >> np.uint32(16)) | np.uint32(0x0040), rounded).astype(np.uint16)


def bfloat16_bits_to_float32(bits: np.ndarray) -> np.ndarray:
    """The float32 values (exact) of bfloat16 bits held in uint16."""
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32)


def _e4m3fn_value(code: int) -> float:
    sign = -1.0 if code & 0x80 else 1.0
    exponent = (code >> 3) & 0xF
    mantissa = code & 0x7
    if exponent == 0xF and mantissa == 0x7:
        return float("nan")
    if exponent == 0:
        return sign * mantissa / 8.0 * 2.0**-6
    return sign * (1.0 + mantissa / 8.0) * 2.0 ** (exponent - 7)


def _hifloat8_value(code: int) -> float:
    # A sign, then a prefix ("Dot") that gives the width D of a sign-magnitude exponent field with an implicit
    # leading bit, then the mantissa; codes 1..7 are the binades 2^-22..2^-16; 0x80 is NaN, 0x6F/0xEF are ±Inf.
    if code == 0x80:
        return float("nan")
    sign = -1.0 if code & 0x80 else 1.0
    b = code & 0x7F
    if b == 0x6F:
        return sign * float("inf")
    if b == 0:
        return 0.0
    if b < 0x08:
        return sign * 2.0 ** (b - 23)
    d = 4 if b >= 0x60 else 3 if b >= 0x40 else 2 if b >= 0x20 else 1 if b >= 0x10 else 0
    m = 3 if d <= 2 else 5 - d
    mantissa = b & ((1 << m) - 1)
    exponent = 0
    if d > 0:
        field = (b >> m) & ((1 << d) - 1)
        implicit = 1 << (d - 1)
        magnitude = implicit | (field & (implicit - 1))
        exponent = -magnitude if field & implicit else magnitude
    return sign * (1.0 + mantissa / 2.0**m) * 2.0**exponent


@functools.lru_cache(maxsize=None)
def _table(name: str) -> np.ndarray:
    value = _hifloat8_value if name == HIFLOAT8.name else _e4m3fn_value
    return np.array([value(c) for c in range(256)], dtype=np.float32)


def to_float(values: np.ndarray, dtype: DType) -> np.ndarray:
    """The values of elements stored as ``dtype`` holds them (raw bits for bfloat16 and 8-bit), as float32."""
    if dtype is BFLOAT16:
        return bfloat16_bits_to_float32(values)
    if dtype.is_8bit:
        return _table(dtype.name)[np.asarray(values, dtype=np.uint8)]
    return np.asarray(values, dtype=np.float32)
