"""PyTorch integration: ``aten::convolution_backward`` of CPU tensors through aclnn-cpu.

Inside ``with aclnn_cpu.torch.enable(...):`` the backward pass of every Conv1d/2d/3d and ConvTranspose1d/2d/3d on
CPU tensors (``loss.backward()``, ``torch.autograd.grad``) computes the gradients the emulated NPU would: the block
registers a CPU kernel for ``aten::convolution_backward`` with ``torch.library``, and leaving the last open block
removes it, which brings PyTorch's own kernel back.

Blocks nest and may be open on several threads at once. PyTorch has one dispatch table, so the kernel is
registered while any block is open anywhere in the process; each call uses the settings of the innermost block open
on its own thread, and a thread with no block of its own uses those of the oldest block still open.

Not intercepted: tensors of other backends (CUDA, MKLDNN-layout and other non-CPU keys) and the second derivative
(double backward computes its own terms with PyTorch's formulas; only the first-order gradients come from
aclnn-cpu). Inside a block, dtypes the NPU cannot compute (float64, ...) raise TypeError.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator, List, Optional, Sequence, Tuple, Union

import torch  # the real PyTorch: absolute imports do not see this module's own name

from ._conv import parse_cube_math_type, convolution_backward
from ._library import library

__all__ = ["enable", "is_enabled", "intercepted_calls"]


@dataclass(frozen=True)
class _Settings:
    soc: Optional[str]
    cube_math_type: Union[int, str]
    threads: Optional[int]


class _Block:
    """One open ``enable`` block (compared by identity)."""

    def __init__(self, settings: _Settings) -> None:
        self.settings = settings


_lock = threading.Lock()
_open: List[_Block] = []  # every open block, in the order they were entered
_local = threading.local()
_registration: Optional[Any] = None  # the torch.library.Library holding the kernel
_calls = 0


def _thread_blocks() -> List[_Block]:
    blocks = getattr(_local, "blocks", None)
    if blocks is None:
        blocks = _local.blocks = []
    return blocks


def _settings() -> _Settings:
    own = _thread_blocks()
    if own:
        return own[-1].settings
    with _lock:
        return _open[0].settings


def _kernel(grad_output: torch.Tensor, input: torch.Tensor, weight: torch.Tensor,
            bias_sizes: Optional[Sequence[int]], stride: Sequence[int], padding: Sequence[int],
            dilation: Sequence[int], transposed: bool, output_padding: Sequence[int], groups: int,
            output_mask: Sequence[bool]) -> Tuple[Optional[torch.Tensor], ...]:
    global _calls
    s = _settings()
    with _lock:
        _calls += 1
    return convolution_backward(grad_output, input, weight, bias_sizes, stride, padding, dilation, transposed,
                                output_padding, groups, output_mask, cube_math_type=s.cube_math_type, soc=s.soc,
                                threads=s.threads)


def _register() -> None:
    global _registration
    registration = torch.library.Library("aten", "IMPL")
    registration.impl("convolution_backward", _kernel, "CPU")
    _registration = registration


@contextmanager
def enable(soc: Optional[str] = None, cube_math_type: Union[int, str] = "torch_npu",
           threads: Optional[int] = None) -> Iterator[None]:
    """Routes CPU ``aten::convolution_backward`` through aclnn-cpu for the duration of the block.

    Args:
        soc: the emulated product (default: the process setting, ``ACLNN_CPU_SOC``).
        cube_math_type: as in ``aclnn_cpu.convolution_backward``; the default ``"torch_npu"`` is what a
            torch_npu training step passes (USE_HF32 for FP32, KEEP_DTYPE for FP16/BF16).
        threads: threads per call (default: the process setting).
    """
    global _registration
    parse_cube_math_type(cube_math_type)
    # An unknown product or thread count, or a library without the extensions, fails here, not in backward().
    with library().thread_overrides(soc, threads):
        pass
    block = _Block(_Settings(soc, cube_math_type, threads))
    with _lock:
        if not _open:
            _register()
        _open.append(block)
    own = _thread_blocks()
    own.append(block)
    try:
        yield
    finally:
        own.remove(block)
        with _lock:
            _open.remove(block)
            if not _open:
                # Dropping the only reference deletes the registration, which restores PyTorch's kernel.
                _registration = None


def is_enabled() -> bool:
    """Whether the kernel is registered (some block is open on some thread)."""
    with _lock:
        return _registration is not None


def intercepted_calls() -> int:
    """How many convolution_backward calls the kernel has served in this process."""
    with _lock:
        return _calls
