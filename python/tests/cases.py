"""Calls shared by the tests: their geometry, dtypes and settings, and seeded operands for them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from aclnn_cpu import float32_to_bfloat16_bits
from aclnn_cpu.golden import grad_output_shape

NAMES = ("grad_output", "input", "weight", "grad_input", "grad_weight", "grad_bias")
_HIF8_SPECIAL = {0x80, 0x6F, 0xEF}  # NaN, ±Inf
_E4M3_SPECIAL = {0x7F, 0xFF}  # NaN


@dataclass
class Case:
    """One call: shapes of input and weight, attributes, dtypes of the six tensors (None: output not passed)."""

    name: str
    x: Tuple[int, ...]
    w: Tuple[int, ...]
    stride: Sequence[int]
    padding: Sequence[int]
    dilation: Sequence[int]
    transposed: bool = False
    output_padding: Optional[Sequence[int]] = None
    groups: int = 1
    mask: Sequence[bool] = (True, True, True)
    cmt: int = 0
    soc: str = "Ascend910B"
    dtypes: Sequence[Optional[str]] = ("float32",) * 6
    kind: str = "numpy"
    expect_status: int = 0
    extra: Dict[str, Any] = field(default_factory=dict)

    @property
    def g(self) -> Tuple[int, ...]:
        return tuple(grad_output_shape(self.x, self.w, self.stride, self.padding, self.dilation, self.transposed,
                                       self.op, self.groups))

    @property
    def op(self) -> List[int]:
        return list(self.output_padding) if self.output_padding is not None else [0] * (len(self.x) - 2)

    def dtype_map(self) -> Dict[str, str]:
        """The dtypes= keyword: every tensor's dtype spelled out (outputs not passed are left out)."""
        return {n: d for n, d in zip(NAMES, self.dtypes) if d is not None}


def operand_bits(shape: Sequence[int], dtype: str, rng: np.random.Generator) -> np.ndarray:
    """Seeded operand values in [-1, 1) (8-bit: finite codes), held as numpy holds the dtype."""
    if dtype in ("hifloat8", "float8_e4m3fn"):
        special = _HIF8_SPECIAL if dtype == "hifloat8" else _E4M3_SPECIAL
        codes = rng.integers(0, 256, size=shape, dtype=np.uint8)
        return np.where(np.isin(codes, list(special)), np.uint8(0x08), codes).astype(np.uint8)
    values = rng.uniform(-1.0, 1.0, size=shape).astype(np.float32)
    if dtype == "bfloat16":
        return float32_to_bfloat16_bits(values).reshape(shape)
    return values.astype(dtype)


def operands(case: Case, seed: int = 1) -> List[np.ndarray]:
    """grad_output, input, weight of ``case`` as numpy arrays of the dtypes' bits."""
    rng = np.random.default_rng(seed)
    return [operand_bits(shape, dtype, rng) for shape, dtype in zip((case.g, case.x, case.w), case.dtypes[:3])]


def as_kind(arrays: Sequence[np.ndarray], case: Case) -> List[Any]:
    """The operands in the case's kind: numpy as they are, torch tensors (bfloat16 from its bits)."""
    if case.kind == "numpy":
        return list(arrays)
    import torch

    out = []
    for a, dtype in zip(arrays, case.dtypes[:3]):
        t = torch.from_numpy(a.view(np.int16) if dtype == "bfloat16" else a.copy())
        out.append(t.view(torch.bfloat16) if dtype == "bfloat16" else t)
    return out


F32 = ("float32",) * 6
F16 = ("float16",) * 6
BF16 = ("bfloat16",) * 6

# Every rank, dtype and product, transposed, groups and depthwise, 4-value padding, mixed dtypes, 8-bit, empty.
BITWISE_CASES = [
    Case("1d_f32", (2, 3, 11), (4, 3, 3), [2], [1], [2]),
    Case("1d_depthwise_f16", (2, 4, 9), (8, 1, 3), [1], [1], [1], groups=4, dtypes=F16),
    Case("2d_groups_hf32_950", (2, 4, 7, 8), (6, 2, 3, 2), [2, 1], [1, 0], [1, 2], groups=2, cmt=1,
         soc="Ascend950"),
    Case("2d_pad4_usehf32_910_93", (1, 3, 6, 7), (2, 3, 3, 3), [1, 1], [0, 2, 1, 0], [1, 1], cmt=3,
         soc="Ascend910_93"),
    Case("2d_bf16_torch", (2, 3, 9, 9), (5, 3, 3, 3), [1, 1], [1, 1], [1, 1], dtypes=BF16, kind="torch"),
    Case("2d_bf16_numpy_bits_950", (2, 3, 6, 6), (4, 3, 3, 3), [2, 2], [1, 1], [1, 1], dtypes=BF16, soc="Ascend950"),
    Case("2d_f16_in_f32_out", (2, 4, 6, 6), (4, 4, 1, 1), [1, 1], [0, 0], [1, 1],
         dtypes=("float16",) * 3 + ("float32",) * 3),
    Case("2d_transposed_fp16_compute", (1, 4, 5, 5), (4, 3, 3, 3), [2, 2], [1, 1], [1, 1], transposed=True,
         output_padding=[1, 1], cmt=2),
    Case("3d_f32", (1, 2, 4, 5, 4), (3, 2, 3, 3, 3), [1, 1, 1], [1, 1, 1], [1, 1, 1]),
    Case("3d_transposed_f16_torch_950", (1, 2, 3, 4, 3), (2, 3, 2, 3, 2), [2, 1, 2], [0, 1, 0], [1, 1, 1],
         transposed=True, output_padding=[1, 0, 0], dtypes=F16, kind="torch", soc="Ascend950"),
    Case("2d_legacy_910_dilated", (1, 2, 6, 6), (2, 2, 3, 3), [1, 1], [2, 2], [2, 2], cmt=1, soc="Ascend910"),
    Case("2d_legacy_310p_f16", (2, 2, 5, 5), (3, 2, 3, 3), [1, 1], [1, 1], [1, 1], dtypes=F16, soc="Ascend310P"),
    Case("2d_transposed_hif8_950", (1, 8, 4, 4), (8, 4, 2, 2), [2, 2], [0, 0], [1, 1], transposed=True,
         output_padding=[0, 0], mask=(True, False, False), soc="Ascend950",
         dtypes=("hifloat8",) * 4 + (None, None)),
    Case("2d_e4m3_grad_input_950", (1, 4, 5, 5), (4, 4, 3, 3), [1, 1], [1, 1], [1, 1], mask=(True, False, False),
         soc="Ascend950", dtypes=("float8_e4m3fn",) * 4 + (None, None)),
    Case("empty_batch_950", (0, 1, 1), (1, 1, 1), [1], [0], [1], transposed=True, output_padding=[0],
         dtypes=F16, soc="Ascend950"),
] + [
    Case(f"2d_mask{''.join('1' if m else '0' for m in mask)}", (2, 3, 6, 6), (4, 3, 3, 3), [1, 1], [1, 1], [1, 1],
         mask=mask)
    for mask in [(a, b, c) for a in (True, False) for b in (True, False) for c in (True, False) if a or b or c]
]

# Calls CANN refuses: the status and message must be the C API's.
REJECTED_CASES = [
    Case("3d_on_legacy", (1, 2, 3, 3, 3), (2, 2, 1, 1, 1), [1, 1, 1], [0, 0, 0], [1, 1, 1], cmt=1, soc="Ascend910",
         expect_status=161002),
    Case("grouped_3d_fp32_grad_weight_from_fp16_on_910b", (1, 4, 3, 3, 3), (4, 2, 1, 1, 1), [1, 1, 1], [0, 0, 0],
         [1, 1, 1], groups=2, dtypes=("float16",) * 4 + ("float32", "float16"), expect_status=161002),
    Case("cube_math_type_5", (1, 2, 5, 5), (2, 2, 3, 3), [1, 1], [1, 1], [1, 1], cmt=5, expect_status=161002),
    Case("keep_dtype_fp32_on_310p", (1, 2, 5, 5), (2, 2, 3, 3), [1, 1], [1, 1], [1, 1], soc="Ascend310P",
         expect_status=161002),
]
