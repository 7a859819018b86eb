"""NPU-faithful convolution gradients from Python, through CANN's C API (aclnn-cpu, or a CANN toolkit).

``convolution_backward`` takes the arguments of ``torch.ops.aten.convolution_backward`` and returns what the
emulated Ascend NPU computes (operands rounded per product and cubeMathType, fp32 accumulation, CANN's status
codes as ``AclnnError``). ``compare`` measures results the way Ascend operator tests do. ``aclnn_cpu.torch``
routes PyTorch's own convolution backward through it. The libraries are found in ``ACLNN_CPU_LIB_DIR``, else a
copy in the package, else the prefix ``cmake --install`` put the package in, else the dynamic loader's path.

This module never imports torch; ``aclnn_cpu.torch`` is a submodule, so the name ``torch`` here may be that
submodule and is not used.
"""

from __future__ import annotations

from typing import Dict, Optional

from ._compare import FLOOR_FRACTION, CompareResult, compare, default_tolerances
from ._conv import CUBE_MATH_TYPES, convolution_backward
from ._dtypes import bfloat16_bits_to_float32, float32_to_bfloat16_bits
from ._errors import AclnnError, ExtensionUnavailableError, LibraryNotFoundError
from ._library import ENV_LIB_DIR, library

__version__ = "0.1.0"

__all__ = [
    "AclnnError",
    "CUBE_MATH_TYPES",
    "CompareResult",
    "ENV_LIB_DIR",
    "ExtensionUnavailableError",
    "FLOOR_FRACTION",
    "LibraryNotFoundError",
    "bfloat16_bits_to_float32",
    "compare",
    "convolution_backward",
    "default_tolerances",
    "float32_to_bfloat16_bits",
    "library_info",
    "live_objects",
]


def library_info() -> Dict[str, Optional[str]]:
    """Which libraries are loaded and how they were found: path, directory, origin, version, soc."""
    lib = library()
    version = lib.extension("aclnnCpuGetVersion", "version")() if lib.has_extensions() else None
    return {
        "path": lib.path,
        "directory": lib.directory or None,
        "origin": lib.origin,
        "version": version.decode() if isinstance(version, bytes) else None,
        "soc": lib.soc_name(),
    }


def live_objects() -> Dict[str, int]:
    """What is alive in aclnn-cpu: {"aclTensor": 2, "memory blocks": 1, "device bytes": 96, ...} ({} if nothing)."""
    return library().live_objects()
