"""Golden files: a call described in JSON, its inputs and NPU-faithful outputs as raw ``.bin`` and ``.npy`` files.

A case file holds one call::

    {
      "input":  {"shape": [2, 3, 9, 9], "dtype": "float32"},
      "weight": {"shape": [8, 3, 3, 3], "dtype": "float32"},
      "grad_output": {"dtype": "float32"},
      "stride": [1, 1], "padding": [1, 1], "dilation": [1, 1], "transposed": false,
      "output_padding": [0, 0], "groups": 1, "output_mask": [true, true, true], "bias_sizes": [8],
      "cube_math_type": 1, "soc": "Ascend950", "threads": 2, "seed": 1, "low": -1.0, "high": 1.0,
      "output_dtypes": {"grad_input": "float16"}
    }

Only ``input`` and ``weight`` (with shapes) are required. ``grad_output``'s shape follows from the others when it is
left out. Defaults: stride and dilation 1, padding and output_padding 0, transposed false, groups 1, every output,
bias_sizes ``[channels]``, cube_math_type 0, the process's product and threads, seed 0, uniform values in
[low, high) = [-1, 1) rounded to the operand's dtype. An operand may instead name a file, ``{"file": "x.bin",
"shape": [...], "dtype": "bfloat16"}`` (raw little-endian elements) or ``{"file": "x.npy"}``, relative to the case
file; the 8-bit formats can only come from files. Every tensor is written as ``NAME.bin`` (raw elements: bfloat16
as 2 bytes, the 8-bit formats as 1) and ``NAME.npy`` (the same bits: uint16 for bfloat16, uint8 for 8-bit), and
``manifest.json`` lists them with shapes, dtypes and SHA-256 digests, the resolved call and the library used.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from . import _dtypes
from ._conv import INPUTS, OUTPUTS, parse_cube_math_type, convolution_backward, default_output_dtypes, \
    torch_npu_cube_math_type
from ._dtypes import DType
from ._library import library

_KEYS = set(INPUTS) | {"bias_sizes", "stride", "padding", "dilation", "transposed", "output_padding", "groups",
                       "output_mask", "cube_math_type", "soc", "threads", "seed", "low", "high", "output_dtypes"}


def _spatial_list(case: Mapping[str, Any], key: str, spatial: int, default: int) -> List[int]:
    value = case.get(key, default)
    return [int(value)] * spatial if isinstance(value, int) else [int(v) for v in value]


def grad_output_shape(input_shape: Sequence[int], weight_shape: Sequence[int], stride: Sequence[int],
                      padding: Sequence[int], dilation: Sequence[int], transposed: bool,
                      output_padding: Sequence[int], groups: int) -> List[int]:
    """The shape of the convolution's output (gradOutput) for these operands and attributes."""
    spatial = len(input_shape) - 2
    if len(padding) == 2 * spatial:
        begins, ends = list(padding[0::2]), list(padding[1::2])
    else:
        begins = ends = list(padding)
    sizes = []
    for d in range(spatial):
        span = dilation[d] * (weight_shape[2 + d] - 1) + 1
        if transposed:
            sizes.append((input_shape[2 + d] - 1) * stride[d] - begins[d] - ends[d] + span + output_padding[d])
        else:
            sizes.append((input_shape[2 + d] + begins[d] + ends[d] - span) // stride[d] + 1)
    channels = weight_shape[1] * groups if transposed else weight_shape[0]
    return [input_shape[0], channels] + sizes


def _load(spec: Mapping[str, Any], dtype: DType, base_dir: str, name: str) -> np.ndarray:
    path = os.path.join(base_dir, spec["file"])
    if path.endswith(".npy"):
        a = np.load(path)
        if a.dtype != np.dtype(dtype.numpy):
            raise ValueError(f"{name}: {path} holds {a.dtype}, but {dtype.name} is held as {dtype.numpy}")
        if "shape" in spec and list(a.shape) != list(spec["shape"]):
            raise ValueError(f"{name}: {path} has shape {list(a.shape)}, the case says {spec['shape']}")
        return a
    if "shape" not in spec:
        raise ValueError(f"{name}: a raw file needs a shape")
    a = np.fromfile(path, dtype=np.dtype(dtype.numpy).newbyteorder("<")).astype(dtype.numpy)
    count = math.prod(spec["shape"])
    if a.size != count:
        raise ValueError(f"{name}: {path} holds {a.size} elements of {dtype.name}, shape {spec['shape']} needs {count}")
    return a.reshape(spec["shape"])


def _random(shape: Sequence[int], dtype: DType, rng: np.random.Generator, low: float, high: float,
            name: str) -> np.ndarray:
    if dtype.is_8bit:
        raise ValueError(f"{name}: {dtype.name} operands must come from a file")
    values = rng.uniform(low, high, size=shape).astype(np.float32)
    if dtype is _dtypes.BFLOAT16:
        return _dtypes.float32_to_bfloat16_bits(values).reshape(shape)
    return values.astype(dtype.numpy)


def _write(out_dir: str, name: str, a: np.ndarray, dtype: DType) -> Dict[str, Any]:
    a = np.ascontiguousarray(a)
    raw = a.astype(np.dtype(dtype.numpy).newbyteorder("<")).tobytes()
    with open(os.path.join(out_dir, name + ".bin"), "wb") as f:
        f.write(raw)
    np.save(os.path.join(out_dir, name + ".npy"), a)
    return {"bin": name + ".bin", "npy": name + ".npy", "shape": list(a.shape), "dtype": dtype.name,
            "npy_dtype": str(a.dtype), "sha256": hashlib.sha256(raw).hexdigest()}


def generate(case: Mapping[str, Any], out_dir: str, base_dir: str = ".") -> Dict[str, Any]:
    """Runs the call ``case`` describes, writes its inputs and outputs into ``out_dir`` and returns the manifest."""
    unknown = set(case) - _KEYS
    if unknown:
        raise ValueError(f"unknown keys {sorted(unknown)}; expected some of {sorted(_KEYS)}")
    for name in ("input", "weight"):
        if name not in case:
            raise ValueError(f"{name}: missing")
    specs = {name: dict(case.get(name, {})) for name in INPUTS}
    dtypes = {name: _dtypes.by_name(specs[name].get("dtype", "float32"), f"{name}.dtype") for name in INPUTS}
    rng = np.random.default_rng(int(case.get("seed", 0)))
    low, high = float(case.get("low", -1.0)), float(case.get("high", 1.0))
    arrays: Dict[str, np.ndarray] = {}
    for name in ("input", "weight"):
        spec = specs[name]
        if "file" in spec:
            arrays[name] = _load(spec, dtypes[name], base_dir, name)
        elif "shape" in spec:
            arrays[name] = _random(spec["shape"], dtypes[name], rng, low, high, name)
        else:
            raise ValueError(f"{name}: needs a shape or a file")
    spatial = arrays["input"].ndim - 2
    transposed = bool(case.get("transposed", False))
    groups = int(case.get("groups", 1))
    stride = _spatial_list(case, "stride", spatial, 1)
    padding = _spatial_list(case, "padding", spatial, 0)
    dilation = _spatial_list(case, "dilation", spatial, 1)
    output_padding = _spatial_list(case, "output_padding", spatial, 0)
    spec = specs["grad_output"]
    if "file" in spec:
        arrays["grad_output"] = _load(spec, dtypes["grad_output"], base_dir, "grad_output")
    else:
        shape = spec.get("shape") or grad_output_shape(arrays["input"].shape, arrays["weight"].shape, stride,
                                                       padding, dilation, transposed, output_padding, groups)
        arrays["grad_output"] = _random(shape, dtypes["grad_output"], rng, low, high, "grad_output")
    mask = [bool(m) for m in case.get("output_mask", [True, True, True])]
    bias_sizes = case.get("bias_sizes", [arrays["grad_output"].shape[1]] if mask[2] else None)
    cube_math_type = case.get("cube_math_type", 0)
    soc: Optional[str] = case.get("soc")
    threads: Optional[int] = case.get("threads")
    wanted = dict(case.get("output_dtypes", {}))
    dtypes.update({name: _dtypes.by_name(wanted[name], f"output_dtypes[{name!r}]") if name in wanted else default
                   for name, default in zip(OUTPUTS, default_output_dtypes([dtypes[n] for n in INPUTS]))})
    dtype_names = {name: d.name for name, d in dtypes.items()}
    results = convolution_backward(arrays["grad_output"], arrays["input"], arrays["weight"], bias_sizes, stride,
                                   padding, dilation, transposed, output_padding, groups, mask,
                                   cube_math_type=cube_math_type, soc=soc, threads=threads, dtypes=dtype_names)
    lib = library()
    product = soc if soc is not None else lib.soc_name()
    if parse_cube_math_type(cube_math_type) is None:
        cube_math_type = torch_npu_cube_math_type([dtypes[name] for name in INPUTS], product)
    os.makedirs(out_dir, exist_ok=True)
    tensors = {name: _write(out_dir, name, arrays[name], dtypes[name]) for name in INPUTS}
    for name, result in zip(OUTPUTS, results):
        if result is not None:
            tensors[name] = _write(out_dir, name, result, dtypes[name])
    manifest = {
        "call": {"bias_sizes": bias_sizes, "stride": stride, "padding": padding, "dilation": dilation,
                 "transposed": transposed, "output_padding": output_padding, "groups": groups, "output_mask": mask,
                 "cube_math_type": cube_math_type, "soc": product, "threads": threads},
        "case": dict(case),
        "library": {"path": lib.path, "origin": lib.origin},
        "tensors": tensors,
    }
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    return manifest


def load_case(path: str) -> Tuple[Dict[str, Any], str]:
    """The case in the JSON file ``path`` and the directory its file names are relative to."""
    with open(path) as f:
        case = json.load(f)
    if not isinstance(case, dict):
        raise ValueError(f"{path}: expected a JSON object")
    return case, os.path.dirname(os.path.abspath(path))
