"""aclnn_cpu.convolution_backward: results bitwise equal to the C API's, against PyTorch in float64, views, the
per-call product, thread count and cubeMathType, errors and their status codes, and no leaks."""

from __future__ import annotations

import json
import re
import textwrap
import threading
from typing import Any, Dict, List

import numpy as np
import pytest

from cases import BITWISE_CASES, REJECTED_CASES, Case, as_kind, operands
from conftest import CRunner, descriptor, python_env, raw, run_python


def call(aclnn: Any, case: Case, inputs: List[Any], **kwargs: Any) -> tuple:
    return aclnn.convolution_backward(*inputs, [case.g[1]], case.stride, case.padding, case.dilation,
                                      case.transposed, case.op, case.groups, list(case.mask), cube_math_type=case.cmt,
                                      soc=case.soc, dtypes=case.dtype_map(), **kwargs)


def case_descriptor(case: Case) -> str:
    return descriptor((case.g, case.x, case.w), case.dtypes, case.stride, case.padding, case.dilation,
                      case.transposed, case.op, case.groups, case.mask, case.cmt, case.soc)


@pytest.fixture(scope="module")
def c_results(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Dict[str, object]]:
    """Every case of BITWISE_CASES and REJECTED_CASES through the C runner, by case name."""
    runner = CRunner(tmp_path_factory.mktemp("c_runner"))
    ids = {case.name: runner.add(case_descriptor(case), operands(case)) for case in BITWISE_CASES + REJECTED_CASES}
    results = runner.run()
    return {name: results[case_id] for name, case_id in ids.items()}


def test_the_documentation_sample_gives_2_98_98(aclnn: Any) -> None:
    ones = [np.ones(s, np.float32) for s in ((2, 2, 7, 7), (2, 2, 7, 7), (2, 2, 1, 1))]
    gi, gw, gb = aclnn.convolution_backward(*ones, [2], [1, 1], [0, 0], [1, 1], False, [0, 0], 1, [True] * 3,
                                            cube_math_type=1)
    assert gi.shape == (2, 2, 7, 7) and gi.dtype == np.float32 and np.all(gi == 2)
    assert np.all(gw == 98) and np.all(gb == 98)


@pytest.mark.parametrize("case", BITWISE_CASES, ids=lambda c: c.name)
def test_results_are_bitwise_the_c_apis(aclnn: Any, case: Case, c_results: Dict[str, Dict[str, object]]) -> None:
    c = c_results[case.name]
    assert c["status"] == 0, c["message"]
    results = call(aclnn, case, as_kind(operands(case), case))
    for slot, wanted, got, dtype in zip(("gradInput", "gradWeight", "gradBias"), case.mask, results, case.dtypes[3:]):
        if not wanted or dtype is None:
            assert got is None
            continue
        assert type(got).__module__.split(".")[0] == case.kind
        assert raw(got) == c[slot], f"{slot} differs from the C API's"


@pytest.mark.parametrize("case", REJECTED_CASES, ids=lambda c: c.name)
def test_a_refused_call_raises_the_c_apis_status_and_message(aclnn: Any, case: Case,
                                                            c_results: Dict[str, Dict[str, object]]) -> None:
    c = c_results[case.name]
    assert c["status"] == case.expect_status
    with pytest.raises(aclnn.AclnnError) as caught:
        call(aclnn, case, operands(case))
    assert isinstance(caught.value, ValueError)
    assert caught.value.status == case.expect_status
    assert caught.value.api == "aclnnConvolutionBackwardGetWorkspaceSize"
    assert str(caught.value).replace("\n", " ") == c["message"]


def test_inconsistent_channels_are_refused_with_161002(aclnn: Any) -> None:
    args = seed_args(weight=np.ones((2, 3, 1, 1), np.float32))
    with pytest.raises(aclnn.AclnnError) as caught:
        aclnn.convolution_backward(*args.values())
    assert caught.value.status == 161002 and "weight.shape[1] = 3" in str(caught.value)


def test_an_empty_weight_takes_the_empty_path(aclnn: Any) -> None:
    """gradWeight and gradBias of an empty weight are empty; gradInput needs an empty input there (CANN's rule), so
    no output is ever left unwritten."""
    x = np.ones((1, 4, 4, 4), np.float32)
    empty = [np.ones((1, 0, 4, 4), np.float32), x, np.ones((0, 4, 1, 1), np.float32)]
    args = ([0], [1, 1], [0, 0], [1, 1], False, [0, 0], 1)
    gi, gw, gb = aclnn.convolution_backward(*empty, *args, [False, True, True])
    assert gi is None and gw.shape == (0, 4, 1, 1) and gb.shape == (0,)
    with pytest.raises(aclnn.AclnnError, match="input must have N or C equal to 0") as caught:
        aclnn.convolution_backward(*empty, *args, [True, True, True])
    assert caught.value.status == 161002


def test_an_8bit_input_gets_an_8bit_output_held_as_uint8(aclnn: Any) -> None:
    case = next(c for c in BITWISE_CASES if c.name == "2d_transposed_hif8_950")
    gi, gw, gb = call(aclnn, case, operands(case))
    assert gi.dtype == np.uint8 and gi.shape == case.x and gw is None and gb is None


def torch_reference(case: Case, inputs: List[Any]) -> tuple:
    import torch

    return torch.ops.aten.convolution_backward(*[t.double() for t in inputs], [case.g[1]], case.stride,
                                               case.padding, case.dilation, case.transposed, case.op, case.groups,
                                               list(case.mask))


TORCH_CASES = [
    Case("2d_f32", (2, 8, 10, 10), (16, 8, 3, 3), [1, 1], [1, 1], [1, 1], kind="torch"),
    Case("2d_f32_groups_strided", (2, 8, 11, 9), (12, 4, 3, 3), [2, 2], [1, 1], [1, 1], groups=2, kind="torch"),
    Case("1d_f16", (2, 16, 40), (16, 16, 5), [1], [2], [1], dtypes=("float16",) * 6, kind="torch"),
    Case("2d_bf16_transposed", (2, 8, 7, 7), (8, 6, 4, 4), [2, 2], [1, 1], [1, 1], transposed=True,
         output_padding=[0, 0], dtypes=("bfloat16",) * 6, kind="torch"),
    Case("3d_f32_dilated", (1, 4, 6, 6, 6), (6, 4, 3, 3, 3), [1, 1, 1], [2, 2, 2], [2, 2, 2], kind="torch"),
]


@pytest.mark.parametrize("case", TORCH_CASES, ids=lambda c: c.name)
def test_close_to_pytorch_in_float64(aclnn: Any, case: Case) -> None:
    """KEEP_DTYPE computes with the operands as they are, so float64 PyTorch on the same values is the exact
    result; compare()'s defaults for the output dtype hold (docs/python.md)."""
    pytest.importorskip("torch")
    inputs = as_kind(operands(case, seed=3), case)
    ours = call(aclnn, case, inputs)
    for name, got, want in zip(("grad_input", "grad_weight", "grad_bias"), ours, torch_reference(case, inputs)):
        result = aclnn.compare(got, want, dtype=case.dtypes[0])
        assert result.passed, f"{name}:\n{result}"
        # ... and the comparison can fail: the same result against a golden off by one part in 100.
        assert not aclnn.compare(got, want * 1.01, dtype=case.dtypes[0]).passed


def test_hf32_differs_from_pytorch_by_its_rounding(aclnn: Any) -> None:
    """USE_HF32 rounds the operands to 11 mantissa bits (Ascend910B): far from float64 PyTorch at float32's
    tolerance, within a few HF32 rounding steps (2^-12 each) of the output's RMS."""
    pytest.importorskip("torch")
    case = Case("hf32", (2, 8, 10, 10), (16, 8, 3, 3), [1, 1], [1, 1], [1, 1], kind="torch", cmt=3)
    inputs = as_kind(operands(case, seed=4), case)
    gi = call(aclnn, case, inputs)[0]
    want = torch_reference(case, inputs)[0]
    assert not aclnn.compare(gi, want).passed
    rms = float(want.square().mean().sqrt())
    assert aclnn.compare(gi, want, rtol=2.0**-9, ratio=0, floor=rms).passed


# --- views ---------------------------------------------------------------------------------------------------------

def record_tensors(aclnn: Any, monkeypatch: pytest.MonkeyPatch) -> List[Dict[str, Any]]:
    """What every aclCreateTensor call of the package receives (shape, strides, offset, storage size)."""
    lib = aclnn.library()
    original = lib.aclCreateTensor
    seen: List[Dict[str, Any]] = []

    def spy(dims, ndim, dtype, strides, offset, fmt, storage, nstorage, data):  # type: ignore[no-untyped-def]
        seen.append({"shape": tuple(dims[i] for i in range(ndim)), "strides": tuple(strides[i] for i in range(ndim)),
                     "offset": offset, "storage": storage[0]})
        return original(dims, ndim, dtype, strides, offset, fmt, storage, nstorage, data)

    monkeypatch.setattr(lib, "aclCreateTensor", spy)
    return seen


def test_numpy_views_reach_the_library_as_views(aclnn: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(5)
    big_x = rng.uniform(-1, 1, (2, 9, 7, 3)).astype(np.float32)  # NHWC, then a channel slice
    x = big_x.transpose(0, 3, 1, 2)[:, 1:, :, :]  # (2, 2, 9, 7), starting at channel 1
    w = rng.uniform(-1, 1, (4, 2, 3, 3)).astype(np.float32)
    g_big = rng.uniform(-1, 1, (2, 4, 18, 14)).astype(np.float32)
    g = g_big[:, :, ::2, ::2]
    assert not x.flags.c_contiguous and not g.flags.c_contiguous
    args = ([4], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [True] * 3)
    want = aclnn.convolution_backward(np.ascontiguousarray(g), np.ascontiguousarray(x), w.copy(), *args)
    seen = record_tensors(aclnn, monkeypatch)
    got = aclnn.convolution_backward(g, x, w, *args)
    assert [raw(a) for a in got] == [raw(a) for a in want]
    assert seen[0]["strides"] == tuple(s // 4 for s in g.strides) and seen[0]["offset"] == 0
    assert seen[1]["strides"] == (189, 1, 21, 3) and seen[1]["offset"] == 1  # x starts at channel 1 of its buffer
    assert seen[1]["storage"] == 1 + 189 + 1 * 1 + 8 * 21 + 6 * 3 + 1  # up to x's last element


def test_torch_views_reach_the_library_as_views(aclnn: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    torch = pytest.importorskip("torch")
    gen = torch.Generator().manual_seed(6)
    x = torch.rand(2, 3, 8, 8, generator=gen).to(memory_format=torch.channels_last)
    w_storage = torch.rand(5 * 3 * 3 * 3 + 7, generator=gen)
    w = w_storage[7:].view(5, 3, 3, 3)  # storage offset 7
    g = torch.rand(2, 8, 6, 8, generator=gen).transpose(1, 2)[:, 1:6]  # (2, 5, 8, 8), not contiguous
    assert not g.is_contiguous() and not x.is_contiguous() and w.storage_offset() == 7
    args = ([5], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [True] * 3)
    want = aclnn.convolution_backward(g.contiguous(), x.contiguous(), w.contiguous(), *args)
    seen = record_tensors(aclnn, monkeypatch)
    got = aclnn.convolution_backward(g, x, w, *args)
    assert all(isinstance(t, torch.Tensor) and t.is_contiguous() for t in got)
    assert [raw(t) for t in got] == [raw(t) for t in want]
    assert [s["strides"] for s in seen[:3]] == [tuple(g.stride()), tuple(x.stride()), tuple(w.stride())]
    assert [s["offset"] for s in seen[:3]] == [g.storage_offset(), 0, 7]


# --- per-call settings ---------------------------------------------------------------------------------------------

VERBOSE_SCRIPT = textwrap.dedent("""
    import json, sys
    import numpy as np
    import aclnn_cpu
    rng = np.random.default_rng(7)
    def ops(dtype):
        return [rng.uniform(-1, 1, s).astype(dtype) for s in ((2, 4, 12, 12), (2, 4, 12, 12), (4, 4, 3, 3))]
    args = ([4], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [True, True, False])
    lib = aclnn_cpu.library()
    get_soc = lib.extension("aclnnCpuGetSoc", "test")
    get_threads = lib.extension("aclnnCpuGetNumThreads", "test")
    calls = [dict(cube_math_type=1, soc="Ascend950", threads=3), dict(cube_math_type=1),
             dict(cube_math_type="torch_npu"), dict(cube_math_type="torch_npu", soc="Ascend910"),
             dict(cube_math_type="torch_npu", threads=2, dtype="float16")]
    for kw in calls:
        dtype = kw.pop("dtype", "float32")
        aclnn_cpu.convolution_backward(*ops(dtype), *args, **kw)
        print("after", get_soc().decode(), get_threads(), file=sys.stderr, flush=True)
""")


def test_soc_threads_and_cube_math_type_take_effect_for_the_call_only(aclnn: Any) -> None:
    """The verbose line of each call names its product, compute format and threads; the process setting stays."""
    done = run_python(VERBOSE_SCRIPT, python_env(ACLNN_CPU_VERBOSE="1", ACLNN_CPU_NUM_THREADS="1",
                                                 ACLNN_CPU_SOC="Ascend910B"))
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith(("aclnn_cpu_verbose,", "after"))]
    expected = [
        r"_cmt1_Ascend950,compute=hf32-10,threads=3,",
        r"_cmt1_Ascend910B,compute=hf32-11,threads=1,",
        r"_dtf32:.*_cmt3_Ascend910B,compute=hf32-11,threads=1,",  # torch_npu: FP32 is USE_HF32
        r"_dtf32:.*_cmt1_Ascend910,compute=fp16,threads=1,",  # legacy: ALLOW_FP32_DOWN_PRECISION
        r"_dtf16:.*_cmt0_Ascend910B,compute=fp16,threads=2,",  # torch_npu: FP16 is KEEP_DTYPE
    ]
    assert len(lines) == 2 * len(expected), done.stderr
    for i, pattern in enumerate(expected):
        assert re.search(pattern, lines[2 * i]), (pattern, lines[2 * i])
        assert lines[2 * i + 1] == "after Ascend910B 1", lines[2 * i + 1]


def test_threads_of_one_process_use_their_own_products_at_once(aclnn: Any) -> None:
    case = Case("hf32", (2, 8, 12, 12), (8, 8, 3, 3), [1, 1], [1, 1], [1, 1], cmt=1)
    inputs = operands(case, seed=8)
    alone = {soc: call(aclnn, Case(**{**case.__dict__, "soc": soc}), inputs) for soc in ("Ascend950", "Ascend910B")}
    assert raw(alone["Ascend950"][1]) != raw(alone["Ascend910B"][1])  # HF32 keeps 10 vs 11 mantissa bits
    barrier = threading.Barrier(4)
    got: Dict[int, tuple] = {}

    def work(i: int) -> None:
        soc = ("Ascend950", "Ascend910B")[i % 2]
        barrier.wait()
        for _ in range(5):
            got[i] = call(aclnn, Case(**{**case.__dict__, "soc": soc}), inputs, threads=1 + i % 2)

    workers = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    for i, results in got.items():
        want = alone[("Ascend950", "Ascend910B")[i % 2]]
        assert [raw(r) for r in results] == [raw(r) for r in want]


def test_threads_that_ended_leave_their_streams_to_later_ones(aclnn: Any) -> None:
    args = list(seed_args().values())

    def batch() -> int:
        workers = [threading.Thread(target=aclnn.convolution_backward, args=args) for _ in range(3)]
        for t in workers:
            t.start()
        for t in workers:
            t.join()
        return aclnn.live_objects().get("streams", 0)

    first = batch()
    assert [batch() for _ in range(3)] == [first] * 3


def test_results_do_not_depend_on_the_thread_count(aclnn: Any) -> None:
    case = Case("threads", (2, 16, 14, 14), (16, 16, 3, 3), [1, 1], [1, 1], [1, 1])
    inputs = operands(case, seed=9)
    one, three = (call(aclnn, case, inputs, threads=n) for n in (1, 3))
    assert [raw(a) for a in one] == [raw(a) for a in three]


# --- errors and misuse ---------------------------------------------------------------------------------------------

def seed_args(**changes: Any) -> Dict[str, Any]:
    args: Dict[str, Any] = dict(grad_output=np.ones((2, 2, 7, 7), np.float32), input=np.ones((2, 2, 7, 7), np.float32),
                                weight=np.ones((2, 2, 1, 1), np.float32), bias_sizes=[2], stride=[1, 1],
                                padding=[0, 0], dilation=[1, 1], transposed=False, output_padding=[0, 0], groups=1,
                                output_mask=[True, True, True])
    args.update(changes)
    return args


MISUSES = [
    (dict(grad_output=[[1.0]]), TypeError, "grad_output"),
    (dict(input=np.ones((2, 2, 7, 7), np.float64)), TypeError, "input: numpy dtype float64"),
    (dict(weight=np.ones((2, 2, 1, 1, 1), np.float32)), ValueError, "weight: 5-D, but grad_output is 4-D"),
    (dict(grad_output=np.ones((2, 2, 7), np.float32), input=np.ones((2, 2, 7, 7, 7), np.float32)), ValueError,
     "input: 5-D"),
    (dict(grad_output=np.ones((2, 7), np.float32)), ValueError, "grad_output: 2-D"),
    (dict(output_mask=[True, False]), ValueError, "output_mask"),
    (dict(stride=[1.5, 1]), TypeError, "stride"),
    (dict(padding="same"), TypeError, "padding"),
    (dict(groups=1.0), TypeError, "groups"),
    (dict(transposed=1), TypeError, "transposed"),
    (dict(cube_math_type="fast"), ValueError, "cube_math_type"),
    (dict(cube_math_type=300), ValueError, "cube_math_type"),
    (dict(soc="Ascend999"), ValueError, "soc"),
    (dict(threads=-5), ValueError, "threads"),
    (dict(threads="2"), TypeError, "threads"),
    (dict(dtypes={"grad_output": "bfloat16"}), TypeError, "grad_output: dtypes['grad_output'] is bfloat16"),
    (dict(dtypes={"gradInput": "float16"}), ValueError, "dtypes: unknown names"),
    (dict(dtypes={"grad_input": "float64"}), ValueError, "dtypes['grad_input']: unknown dtype"),
]


@pytest.mark.parametrize("change,error,text", MISUSES, ids=[m[2] for m in MISUSES])
def test_misuse_raises_naming_the_argument(aclnn: Any, change: Dict[str, Any], error: type, text: str) -> None:
    args = seed_args(**change)
    keywords = {k: args.pop(k) for k in ("cube_math_type", "soc", "threads", "dtypes") if k in args}
    with pytest.raises(error) as caught:
        aclnn.convolution_backward(*args.values(), **keywords)
    assert not isinstance(caught.value, aclnn.AclnnError)
    assert text in str(caught.value)


def test_mixing_numpy_and_torch_is_a_type_error(aclnn: Any) -> None:
    torch = pytest.importorskip("torch")
    args = seed_args(weight=torch.ones(2, 2, 1, 1))
    with pytest.raises(TypeError, match="weight: expected a numpy array"):
        aclnn.convolution_backward(*args.values())


def test_strict_mode_refuses_what_the_hardware_cannot_run_with_561103() -> None:
    script = textwrap.dedent("""
        import numpy as np, aclnn_cpu
        ops = [np.ones(s, np.float32) for s in ((1, 1, 1), (1, 1, 256), (1, 1, 256))]
        try:
            aclnn_cpu.convolution_backward(*ops, [1], [1], [0], [1], False, [0], 1, [True] * 3)
        except aclnn_cpu.AclnnError as e:
            print(e.status, e)
    """)
    done = run_python(script, python_env(ACLNN_CPU_STRICT="1"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("561103 ") and "255" in done.stdout, done.stdout


def test_no_object_or_memory_outlives_passing_and_failing_calls(aclnn: Any) -> None:
    ok = seed_args()
    aclnn.convolution_backward(*ok.values())  # the first call creates this thread's stream
    before = aclnn.live_objects()
    bad = seed_args(weight=np.ones((2, 3, 1, 1), np.float32))
    for i in range(40):
        aclnn.convolution_backward(*ok.values(), threads=1 + i % 2, soc="Ascend950")
        with pytest.raises(aclnn.AclnnError):
            aclnn.convolution_backward(*bad.values())
        with pytest.raises(ValueError):
            aclnn.convolution_backward(*ok.values(), soc="Ascend0")
        with pytest.raises(TypeError):
            aclnn.convolution_backward(*seed_args(input=ok["input"].astype(np.float64)).values())
    assert aclnn.live_objects() == before
    assert "aclTensor" not in before and "aclOpExecutor" not in before and "memory blocks" not in before


MEMORY_SCRIPT = textwrap.dedent("""
    import json, numpy as np, aclnn_cpu
    from aclnn_cpu import _conv
    sizes = []
    original = _conv._Resources.malloc
    def malloc(self, size):
        sizes.append(size)
        return original(self, size)
    _conv._Resources.malloc = malloc
    rng = np.random.default_rng(1)
    ops = [rng.uniform(-1, 1, s).astype(np.float32) for s in ((1, 16, 14, 14), (1, 16, 14, 14), (16, 16, 3, 3))]
    args = ([16], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [True] * 3)
    outcome = "ok"
    try:
        aclnn_cpu.convolution_backward(*ops, *args)
    except aclnn_cpu.AclnnError as e:
        outcome = [e.status, e.api]
    print(json.dumps({"sizes": sizes, "outcome": outcome, "live": aclnn_cpu.live_objects()}))
""")


def test_out_of_device_memory_raises_207001_and_leaks_nothing() -> None:
    """ACLNN_CPU_MEM_LIMIT makes the tensors' block, then the workspace, fail to allocate."""
    first = run_python(MEMORY_SCRIPT, python_env())
    assert first.returncode == 0, first.stderr
    tensors, workspace = json.loads(first.stdout)["sizes"]
    reserved = (tensors + 31) // 32 * 32 + 32  # what aclrtMalloc reserves (src/runtime/README.md)
    for limit, api in ((reserved - 32, "aclrtMalloc"), (reserved + workspace // 2, "aclrtMalloc")):
        done = run_python(MEMORY_SCRIPT, python_env(ACLNN_CPU_MEM_LIMIT=str(limit)))
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        assert report["outcome"] == [207001, api]
        assert len(report["sizes"]) == (1 if limit < reserved else 2)
        for kind in ("aclTensor", "aclIntArray", "aclBoolArray", "aclOpExecutor", "memory blocks", "device bytes"):
            assert kind not in report["live"], report["live"]
