"""Command line: ``python3 -m aclnn_cpu {golden,compare,info} ...`` (``--help`` for each)."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import List, Optional

import numpy as np

from . import _dtypes
from ._compare import compare
from ._errors import AclnnError
from .golden import generate, load_case


def _read(path: str, dtype: Optional[str], shape: Optional[List[int]]) -> np.ndarray:
    """A ``.npy`` file, or a raw little-endian file of ``dtype`` elements (reshaped to ``shape`` if given)."""
    if path.endswith(".npy"):
        a = np.load(path)
    else:
        if dtype is None:
            raise ValueError(f"{path}: a raw file needs --dtype")
        held = np.dtype(_dtypes.by_name(dtype, "--dtype").numpy)
        a = np.fromfile(path, dtype=held.newbyteorder("<")).astype(held)
    if shape is not None:
        if a.size != math.prod(shape):
            raise ValueError(f"{path}: {a.size} elements do not make shape {shape}")
        a = a.reshape(shape)
    return a


def _shape(text: str) -> List[int]:
    try:
        return [int(v) for v in text.replace("x", ",").split(",") if v]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a shape like 2,3,8,8") from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python3 -m aclnn_cpu",
                                     description="NPU-faithful convolution gradients: golden files and comparison.")
    sub = parser.add_subparsers(dest="command", required=True)
    golden = sub.add_parser("golden", help="run a call described in JSON and write its inputs and outputs",
                            description="Runs the aclnnConvolutionBackward call CASE.json describes (see "
                            "aclnn_cpu.golden's documentation for the format) and writes every input and output as "
                            "NAME.bin (raw little-endian elements) and NAME.npy, plus manifest.json.")
    golden.add_argument("case", metavar="CASE.json")
    golden.add_argument("--out", required=True, metavar="DIR", help="output directory (created if needed)")
    comp = sub.add_parser("compare", help="compare a result with a golden one",
                          description="Prints max/mean errors, cosine similarity and the error ratio of ACTUAL "
                          "against GOLDEN; exits 0 when the comparison passes, 1 when it fails, 2 on bad input.")
    comp.add_argument("actual", metavar="ACTUAL")
    comp.add_argument("golden", metavar="GOLDEN")
    comp.add_argument("--dtype", help="element type of raw files and of the default tolerances: float32 (f32), "
                      "float16 (f16), bfloat16 (bf16), hifloat8 (hif8), float8_e4m3fn (e4m3)")
    comp.add_argument("--shape", type=_shape, help="shape of raw files, e.g. 2,3,8,8 (default: flat)")
    comp.add_argument("--rtol", type=float, help="relative error above which an element is an error")
    comp.add_argument("--ratio", type=float, help="largest fraction of errors that passes")
    comp.add_argument("--floor", type=float, help="smallest denominator of the relative error")
    sub.add_parser("info", help="print which libraries are loaded, from where, and the product")
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "golden":
            case, base_dir = load_case(args.case)
            manifest = generate(case, args.out, base_dir)
            for name, t in manifest["tensors"].items():
                print(f"{name:12s} {t['dtype']:14s} {'x'.join(map(str, t['shape'])):16s} {args.out}/{t['bin']}")
            return 0
        if args.command == "compare":
            actual = _read(args.actual, args.dtype, args.shape)
            golden = _read(args.golden, args.dtype, args.shape)
            result = compare(actual, golden, args.dtype, args.rtol, args.ratio, floor=args.floor)
            print(result)
            return 0 if result.passed else 1
        from . import library_info
        print(json.dumps(library_info(), indent=2))
        return 0
    except AclnnError as e:
        print(f"python3 -m aclnn_cpu {args.command}: {e.api} returned {e.status}: {e}", file=sys.stderr)
        return 2
    except (OSError, ValueError, TypeError) as e:
        print(f"python3 -m aclnn_cpu {args.command}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
