"""``convolution_backward``: one aclnnConvolutionBackward call from numpy arrays or torch CPU tensors.

The call is what a CANN program makes: the operands' bytes go to device memory (``aclrtMalloc`` +
``aclrtMemcpy``) with their views kept (shape, strides and storage offset in ``aclCreateTensor``; only the bytes
the view spans are copied), the outputs are contiguous device tensors copied back into new host arrays, and the
two phases run on this thread's stream.
"""

from __future__ import annotations

import ctypes
import math
import sys
from dataclasses import dataclass
from typing import Any, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _dtypes
from ._dtypes import DType
from ._library import ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEMCPY_DEVICE_TO_HOST, ACL_MEMCPY_HOST_TO_DEVICE, Library, \
    library

INPUTS = ("grad_output", "input", "weight")
OUTPUTS = ("grad_input", "grad_weight", "grad_bias")
_FORMATS = {3: 47, 4: 0, 5: 30}  # ACL_FORMAT_NCL, ACL_FORMAT_NCHW, ACL_FORMAT_NCDHW by rank
_FORMAT_ND = 2
_ALIGN = 512  # each tensor in a call's device block starts on such a boundary (CANN's kernels want aligned data)
CUBE_MATH_TYPES = {"KEEP_DTYPE": 0, "ALLOW_FP32_DOWN_PRECISION": 1, "USE_FP16": 2, "USE_HF32": 3}

Array = Any  # numpy.ndarray or torch.Tensor
IntList = Union[int, Sequence[int]]


@dataclass
class _Operand:
    """A host operand as the library will see it: its view over the storage bytes it spans."""

    name: str
    obj: Array  # kept alive until the copy is done
    dtype: DType
    shape: Tuple[int, ...]
    strides: Tuple[int, ...]  # elements
    offset: int  # elements from the storage start to element 0
    storage: int  # host address of the storage start
    lo: int  # the elements the view touches: [lo, hi) from the storage start
    hi: int


def _torch() -> Any:
    """The torch module if it has been imported (a torch tensor cannot exist otherwise), else None."""
    return sys.modules.get("torch")


def _is_torch_tensor(x: object) -> bool:
    torch = _torch()
    return torch is not None and isinstance(x, torch.Tensor)


def _span(name: str, shape: Sequence[int], strides: Sequence[int], offset: int) -> Tuple[int, int]:
    """[lo, hi): the elements, from the storage start, that a view touches (a negative stride reaches back)."""
    if any(n == 0 for n in shape):
        return offset, offset
    lo = hi = offset
    for n, s in zip(shape, strides):
        if s < 0:
            lo += s * (n - 1)
        else:
            hi += s * (n - 1)
    if lo < 0:
        raise ValueError(f"{name}: the view reaches before its storage")
    return lo, hi + 1


def _numpy_operand(name: str, a: np.ndarray, dtype: DType) -> _Operand:
    itemsize = a.dtype.itemsize
    if any(s % itemsize for s in a.strides):
        raise ValueError(f"{name}: strides {a.strides} (bytes) are not multiples of the element size {itemsize}")
    strides = tuple(s // itemsize for s in a.strides)
    first = a.__array_interface__["data"][0]
    # The storage is the buffer of the array the view was taken from, so its offset into that buffer reaches
    # aclCreateTensor as it is.
    root = a
    while isinstance(root.base, np.ndarray):
        root = root.base
    start = root.__array_interface__["data"][0]
    if start > first or (first - start) % itemsize:
        start = first
    offset = (first - start) // itemsize
    lo, hi = _span(name, a.shape, strides, offset)
    return _Operand(name, a, dtype, tuple(a.shape), strides, offset, start, lo, hi)


def _torch_operand(name: str, t: Any, dtype: DType) -> _Operand:
    if t.device.type != "cpu" or t.layout != _torch().strided:
        raise TypeError(f"{name}: a {t.device.type} tensor of layout {t.layout}; expected a strided CPU tensor")
    itemsize = t.element_size()
    offset = t.storage_offset()
    shape, strides = tuple(t.shape), tuple(t.stride())
    lo, hi = _span(name, shape, strides, offset)
    return _Operand(name, t, dtype, shape, strides, offset, t.data_ptr() - offset * itemsize, lo, hi)


def _operand(name: str, x: object, kind: str, dtypes: Mapping[str, str]) -> _Operand:
    wanted = _dtypes.by_name(dtypes[name], f"dtypes[{name!r}]") if name in dtypes else None
    if kind == "numpy":
        if not isinstance(x, np.ndarray):
            raise TypeError(f"{name}: expected a numpy array like grad_output, got {type(x).__name__}")
        held, own, make = str(x.dtype), _dtypes.of_numpy(x.dtype), _numpy_operand
        wanted_held = wanted.numpy if wanted is not None else None
        accepted = "float32 or float16 (bfloat16 as uint16 bits and the 8-bit formats as uint8 with dtypes=)"
    else:
        if not _is_torch_tensor(x):
            raise TypeError(f"{name}: expected a torch tensor like grad_output, got {type(x).__name__}")
        held = str(x.dtype).replace("torch.", "")
        own, make = _dtypes.of_torch_name(held), _torch_operand
        wanted_held = wanted.torch if wanted is not None else None
        accepted = "float32, float16 or bfloat16 (the 8-bit formats as uint8 with dtypes=)"
    if wanted is not None and held != wanted_held:
        raise TypeError(f"{name}: dtypes[{name!r}] is {wanted.name}, held in {kind} as {wanted_held}, but it is "
                        f"{held}")
    dtype = wanted or own
    if dtype is None:
        raise TypeError(f"{name}: {kind} dtype {held} is not accepted; expected {accepted}")
    return make(name, x, dtype)


def _int_list(name: str, value: object, length: int) -> List[int]:
    """An int (repeated ``length`` times) or a sequence of ints, as a list."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return [int(value)] * length
    try:
        items = list(value)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(f"{name}: expected an int or a sequence of ints, got {type(value).__name__}") from None
    for v in items:
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{name}: expected ints, got {v!r}")
        if not -2**63 <= int(v) < 2**63:
            raise ValueError(f"{name}: {int(v)} does not fit int64")
    return [int(v) for v in items]


def torch_npu_cube_math_type(dtypes: Sequence[DType], soc: str) -> int:
    """What torch_npu passes by default for operands of these dtypes: FP32 with allow_hf32 (USE_HF32), FP16/BF16
    KEEP_DTYPE. The legacy products reject USE_HF32 and KEEP_DTYPE for FP32; ALLOW_FP32_DOWN_PRECISION is what they
    accept (FP32 computed in FP16)."""
    if dtypes[0] == dtypes[1] == dtypes[2] and dtypes[0] is not _dtypes.FLOAT32:
        return CUBE_MATH_TYPES["KEEP_DTYPE"]
    legacy = soc.startswith("Ascend310P") or (
        soc.startswith("Ascend910") and not soc.startswith(("Ascend910B", "Ascend910_93")))
    return CUBE_MATH_TYPES["ALLOW_FP32_DOWN_PRECISION" if legacy else "USE_HF32"]


def default_output_dtypes(dtypes: Sequence[DType]) -> Tuple[DType, DType, DType]:
    """CANN's output dtypes for operands (grad_output, input, weight) of these dtypes, as torch_npu allocates them:
    grad_input input's, grad_weight weight's (float32 for an 8-bit weight), grad_bias grad_output's."""
    return dtypes[1], _dtypes.FLOAT32 if dtypes[2].is_8bit else dtypes[2], dtypes[0]


def parse_cube_math_type(value: object) -> Optional[int]:
    """The int to pass, or None for "torch_npu" (which depends on dtypes and product)."""
    if isinstance(value, str):
        if value == "torch_npu":
            return None
        if value in CUBE_MATH_TYPES:
            return CUBE_MATH_TYPES[value]
        raise ValueError(f"cube_math_type: {value!r} is not 0-3, a name ({', '.join(CUBE_MATH_TYPES)}) or "
                         "'torch_npu'")
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"cube_math_type: expected an int or 'torch_npu', got {type(value).__name__}")
    if not -128 <= int(value) <= 127:
        raise ValueError(f"cube_math_type: {int(value)} does not fit int8")
    return int(value)


class _Resources:
    """What one call creates in the library, released on every path (tensors, arrays, executor, memory)."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib
        self.tensors: List[int] = []
        self.int_arrays: List[int] = []
        self.bool_arrays: List[int] = []
        self.blocks: List[int] = []
        self.executor: Optional[int] = None  # owned until the launch consumes it

    def malloc(self, size: int) -> int:
        ptr = ctypes.c_void_p()
        self.lib.check(self.lib.aclrtMalloc(ctypes.byref(ptr), size, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc")
        self.blocks.append(ptr.value or 0)
        return ptr.value or 0

    def tensor(self, shape: Sequence[int], dtype: DType, strides: Sequence[int], offset: int, fmt: int,
               storage: int, data: int) -> int:
        n = len(shape)
        handle = self.lib.aclCreateTensor((ctypes.c_int64 * n)(*shape), n, dtype.acl, (ctypes.c_int64 * n)(*strides),
                                          offset, fmt, (ctypes.c_int64 * 1)(storage), 1, data or None)
        if not handle:
            raise MemoryError(f"aclCreateTensor failed: {self.lib.recent_error()}")
        self.tensors.append(handle)
        return handle

    def int_array(self, values: Optional[Sequence[int]]) -> Optional[int]:
        if values is None:
            return None
        handle = self.lib.aclCreateIntArray((ctypes.c_int64 * len(values))(*values), len(values))
        if not handle:
            raise MemoryError(f"aclCreateIntArray failed: {self.lib.recent_error()}")
        self.int_arrays.append(handle)
        return handle

    def bool_array(self, values: Sequence[bool]) -> int:
        handle = self.lib.aclCreateBoolArray((ctypes.c_bool * len(values))(*values), len(values))
        if not handle:
            raise MemoryError(f"aclCreateBoolArray failed: {self.lib.recent_error()}")
        self.bool_arrays.append(handle)
        return handle

    def release(self) -> None:
        lib = self.lib
        if self.executor is not None:
            lib.aclDestroyAclOpExecutor(self.executor)
        for handle in self.tensors:
            lib.aclDestroyTensor(handle)
        for handle in self.int_arrays:
            lib.aclDestroyIntArray(handle)
        for handle in self.bool_arrays:
            lib.aclDestroyBoolArray(handle)
        for block in self.blocks:
            lib.aclrtFree(block)


def _aligned(n: int) -> int:
    return (n + _ALIGN - 1) // _ALIGN * _ALIGN


def _new_output(kind: str, shape: Sequence[int], dtype: DType) -> Tuple[Array, int]:
    """A contiguous host array for an output and its data address."""
    if kind == "numpy":
        a = np.empty(shape, dtype=dtype.numpy)
        return a, a.__array_interface__["data"][0] if a.size else 0
    torch = _torch()
    t = torch.empty(list(shape), dtype=getattr(torch, dtype.torch))
    return t, t.data_ptr() if t.numel() else 0


def convolution_backward(grad_output: Array, input: Array, weight: Array, bias_sizes: Optional[Sequence[int]],
                         stride: IntList, padding: IntList, dilation: IntList, transposed: bool,
                         output_padding: IntList, groups: int, output_mask: Sequence[bool], *,
                         cube_math_type: Union[int, str] = 0, soc: Optional[str] = None,
                         threads: Optional[int] = None,
                         dtypes: Optional[Mapping[str, str]] = None) -> Tuple[Optional[Array], ...]:
    """The gradients of a convolution as the emulated NPU computes them: ``(grad_input, grad_weight, grad_bias)``.

    The positional arguments are those of ``torch.ops.aten.convolution_backward``, in its order and meaning:
    ``bias_sizes`` a list (or None), ``stride``, ``padding``, ``dilation`` and ``output_padding`` lists of ints (an
    int stands for the same value in every spatial dim; ``padding`` may have 4 values ``[top, bottom, left,
    right]`` for 2-D, as in CANN), ``output_mask`` three bools. A masked-off output is returned as None.

    Args:
        grad_output, input, weight: numpy arrays (float32, float16) or torch CPU tensors (float32, float16,
            bfloat16), all of one kind and rank (3, 4 or 5), of any strides and storage offset: a view reaches the
            library as a view.
        cube_math_type: CANN's cubeMathType, 0 KEEP_DTYPE, 1 ALLOW_FP32_DOWN_PRECISION, 2 USE_FP16, 3 USE_HF32
            (or those names), or ``"torch_npu"``: what torch_npu passes by default (USE_HF32 when the operands
            promote to FP32, KEEP_DTYPE for FP16/BF16; ALLOW_FP32_DOWN_PRECISION for FP32 on Ascend910 and
            Ascend310P, which reject the other two).
        soc: the emulated product for this call only (``aclnnCpuSetThreadSoc``); default: the process setting.
        threads: threads for this call only (``aclnnCpuSetThreadNumThreads``; 0: every CPU); default: the process
            setting.
        dtypes: element types by argument name (``grad_output`` ... ``grad_bias``), for what numpy cannot hold
            (``"bfloat16"`` as uint16 bits; ``"hifloat8"``, ``"float8_e4m3fn"`` as uint8) and for output dtypes
            other than CANN's defaults (grad_input: input's, grad_weight: weight's or float32 for an 8-bit weight,
            grad_bias: grad_output's).

    Returns:
        Contiguous arrays of the kind that came in (numpy or torch), in the output dtypes: numpy holds bfloat16
        and 8-bit outputs as their bits (uint16, uint8), torch holds bfloat16 itself and 8-bit as uint8.

    Raises:
        AclnnError: the library refused the call (``.status`` is CANN's status code, the message
            ``aclGetRecentErrMsg()``'s).
        TypeError, ValueError: an argument the library cannot be given (the message names it).
        ExtensionUnavailableError: ``soc`` or ``threads`` with a library lacking the ``aclnnCpu*`` extensions.
    """
    kind = "torch" if _is_torch_tensor(grad_output) else "numpy" if isinstance(grad_output, np.ndarray) else None
    if kind is None:
        raise TypeError(f"grad_output: expected a numpy array or a torch tensor, got {type(grad_output).__name__}")
    dtypes = dict(dtypes or {})
    unknown = set(dtypes) - set(INPUTS + OUTPUTS)
    if unknown:
        raise ValueError(f"dtypes: unknown names {sorted(unknown)}; expected {', '.join(INPUTS + OUTPUTS)}")
    operands = [_operand(name, x, kind, dtypes) for name, x in zip(INPUTS, (grad_output, input, weight))]
    rank = len(operands[0].shape)
    if rank not in _FORMATS:
        raise ValueError(f"grad_output: {rank}-D; expected 3-D (N, C, L), 4-D (N, C, H, W) or 5-D (N, C, D, H, W)")
    for op in operands[1:]:
        if len(op.shape) != rank:
            raise ValueError(f"{op.name}: {len(op.shape)}-D, but grad_output is {rank}-D")
    spatial = rank - 2
    attrs = {name: _int_list(name, value, spatial) for name, value in
             (("stride", stride), ("padding", padding), ("dilation", dilation), ("output_padding", output_padding))}
    biases = None if bias_sizes is None else _int_list("bias_sizes", bias_sizes, 1)
    if not isinstance(transposed, (bool, np.bool_)):
        raise TypeError(f"transposed: expected a bool, got {type(transposed).__name__}")
    if isinstance(groups, bool) or not isinstance(groups, (int, np.integer)):
        raise TypeError(f"groups: expected an int, got {type(groups).__name__}")
    if not -2**31 <= int(groups) < 2**31:
        raise ValueError(f"groups: {int(groups)} does not fit int32")
    mask = list(output_mask)
    if len(mask) != 3 or not all(isinstance(m, (bool, np.bool_)) for m in mask):
        raise ValueError(f"output_mask: expected three bools (grad_input, grad_weight, grad_bias), got {mask!r}")
    cmt = parse_cube_math_type(cube_math_type)
    if soc is not None and not isinstance(soc, str):
        raise TypeError(f"soc: expected a product name, got {type(soc).__name__}")
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, (int, np.integer))):
        raise TypeError(f"threads: expected an int, got {type(threads).__name__}")

    g, x, w = operands
    output_shapes = (x.shape, w.shape, (g.shape[1],))
    output_dtypes = [_dtypes.by_name(dtypes[name], f"dtypes[{name!r}]") if name in dtypes else default
                     for name, default in zip(OUTPUTS, default_output_dtypes([op.dtype for op in operands]))]

    lib = library()
    stream = lib.stream()
    if cmt is None:
        cmt = torch_npu_cube_math_type([op.dtype for op in operands], soc if soc is not None else lib.soc_name())
    return _run(lib, stream, kind, operands, attrs, biases, bool(transposed), int(groups), [bool(m) for m in mask],
                cmt, soc, None if threads is None else int(threads), output_shapes, output_dtypes)


def _run(lib: Library, stream: int, kind: str, operands: Sequence[_Operand], attrs: Mapping[str, List[int]],
         biases: Optional[List[int]], transposed: bool, groups: int, mask: List[bool], cmt: int, soc: Optional[str],
         threads: Optional[int], output_shapes: Sequence[Tuple[int, ...]],
         output_dtypes: Sequence[DType]) -> Tuple[Optional[Array], ...]:
    rank = len(operands[0].shape)
    # One device block holds every tensor: each input's storage up to the last element its view touches, then
    # each requested output, contiguous.
    places: List[int] = []
    size = 0
    for op in operands:
        places.append(size)
        size += _aligned(op.hi * op.dtype.itemsize)
    output_numels = [math.prod(s) for s in output_shapes]
    for numel, dtype, wanted in zip(output_numels, output_dtypes, mask):
        places.append(size)
        size += _aligned(numel * dtype.itemsize) if wanted else 0
    res = _Resources(lib)
    try:
        base = res.malloc(size) if size else 0
        inputs = []
        for op, place in zip(operands, places):
            data = base + place if op.hi else 0
            first, span = op.lo * op.dtype.itemsize, (op.hi - op.lo) * op.dtype.itemsize
            if span:
                lib.check(lib.aclrtMemcpy(data + first, span, op.storage + first, span, ACL_MEMCPY_HOST_TO_DEVICE),
                          "aclrtMemcpy")
            inputs.append(res.tensor(op.shape, op.dtype, op.strides, op.offset, _FORMATS[rank], op.hi, data))
        outputs: List[Optional[int]] = []
        for i in range(3):
            if not mask[i]:
                outputs.append(None)
                continue
            shape, numel = output_shapes[i], output_numels[i]
            strides = [math.prod(shape[d + 1:]) for d in range(len(shape))]
            data = base + places[3 + i] if numel else 0
            outputs.append(res.tensor(shape, output_dtypes[i], strides, 0, _FORMAT_ND if i == 2 else _FORMATS[rank],
                                      numel, data))
        workspace_size = ctypes.c_uint64()
        executor = ctypes.c_void_p()
        with lib.thread_overrides(soc, threads):
            status = lib.aclnnConvolutionBackwardGetWorkspaceSize(
                inputs[0], inputs[1], inputs[2], res.int_array(biases), res.int_array(attrs["stride"]),
                res.int_array(attrs["padding"]), res.int_array(attrs["dilation"]), transposed,
                res.int_array(attrs["output_padding"]), groups, res.bool_array(mask), cmt, outputs[0], outputs[1],
                outputs[2], ctypes.byref(workspace_size), ctypes.byref(executor))
            lib.check(status, "aclnnConvolutionBackwardGetWorkspaceSize")
        res.executor = executor.value
        workspace = res.malloc(workspace_size.value) if workspace_size.value else 0
        res.executor = None  # the launch consumes the executor whatever it returns
        lib.check(lib.aclnnConvolutionBackward(workspace or None, workspace_size.value, executor, stream),
                  "aclnnConvolutionBackward")
        lib.check(lib.aclrtSynchronizeStream(stream), "aclrtSynchronizeStream")
        results: List[Optional[Array]] = []
        for i in range(3):
            if not mask[i]:
                results.append(None)
                continue
            host, address = _new_output(kind, output_shapes[i], output_dtypes[i])
            nbytes = output_numels[i] * output_dtypes[i].itemsize
            if nbytes:
                lib.check(lib.aclrtMemcpy(address, nbytes, base + places[3 + i], nbytes, ACL_MEMCPY_DEVICE_TO_HOST),
                          "aclrtMemcpy")
            results.append(host)
        return tuple(results)
    finally:
        res.release()
