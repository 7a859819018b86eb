#!/usr/bin/python3
"""Cross-check of aclnn-cpu's aclnnConvolutionBackward against PyTorch.

Generates seeded random convolution-backward configurations (1-D/2-D/3-D, groups and depthwise, stride, dilation,
symmetric and asymmetric 2-D padding, transposed with output padding, every outputMask, fp32/fp16/bf16 and mixed output
dtypes, cubeMathType 0-3 on Ascend910B and Ascend950), writes their inputs, runs them through the public API with
tools/crosscheck_runner, and compares every output element with torch.ops.aten.convolution_backward in float64 on the
operands rounded the way the precision mode rounds them (docs/contract.md §3.5: HF32 with 11 or 10 mantissa bits ties
away, fp16/bf16 RNE). Asymmetric padding is expressed through explicit zero padding (non-transposed: pad the input;
transposed: pad gradOutput up to the uncropped transposed output). The expected value then follows the library's
rounding chain (fp32 accumulator; gradInput in the compute type for fp16/bf16; gradBias summed from the original
gradOutput and rounded to its dtype; cast to the output dtype); the allowed difference is one rounding step per stage
plus 1e-10 of the sum of |terms| (other summation orders). Needs Debian's python3-torch.

usage: /usr/bin/python3 tools/torch_crosscheck.py --runner build/tools/crosscheck_runner [--count 300] [--seed 1]
       [--sweep]   (once per algorithm of the library's table, each as its output's first choice)
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torch.nn.functional as F

TORCH_DTYPE = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
RAW_VIEW = {"f32": torch.int32, "f16": torch.int16, "bf16": torch.int16}
NP_RAW = {"f32": np.int32, "f16": np.int16, "bf16": np.int16}
SLOTS = ["gradOutput", "input", "weight", "gradInput", "gradWeight", "gradBias"]
LETTERS = "dhw"


# ---------------------------------------------------------------------------------------------- configurations
def implied_out(cfg, d):
    span = cfg["dil"][d] * (cfg["k"][d] - 1) + 1
    if cfg["transposed"]:
        return (cfg["in"][d] - 1) * cfg["s"][d] - cfg["pb"][d] - cfg["pe"][d] + span + cfg["op"][d]
    return (cfg["in"][d] + cfg["pb"][d] + cfg["pe"][d] - span) // cfg["s"][d] + 1


def compute_format(cfg):
    """The table of docs/contract.md §3.5 for the products used here (A2/A3 and 950)."""
    dt = cfg["dt"]
    p = dt[0] if dt[0] == dt[1] == dt[2] else "f32"
    cmt = cfg["cmt"]
    if cmt == 2:
        return "f16"
    if p == "f32":
        return "hf32" if cmt in (1, 3) else "exact"
    return p


def rejected(cfg):
    """A2/A3 refuse a grouped 3-D weight gradient into FLOAT computed in fp16/bf16 (docs/contract.md §2.3 V13)."""
    p = cfg["dt"][0] if cfg["dt"][0] == cfg["dt"][1] == cfg["dt"][2] else "f32"
    return (cfg["product"] == "Ascend910B" and cfg["rank"] == 3 and cfg["mask"][1] and cfg["g"] > 1
            and cfg["dt"][4] == "f32" and (cfg["cmt"] == 2 or p in ("f16", "bf16")))


def random_config(rng):
    while True:
        r = rng.randint(1, 3)
        transposed = rng.random() < 0.35
        depthwise = rng.random() < 0.2
        g = rng.randint(2, 4) if depthwise else rng.choice([1, 1, 1, 2, 3])
        cx_g = 1 if depthwise else rng.randint(1, 4)
        cy_g = rng.randint(1, 3)
        cfg = {"rank": r, "transposed": transposed, "g": g, "mb": rng.randint(1, 3),
               "k": [1] * 3, "s": [1] * 3, "dil": [1] * 3, "pb": [0] * 3, "pe": [0] * 3, "op": [0] * 3, "in": [1] * 3}
        max_size = {1: 16, 2: 9, 3: 5}[r]
        for d in range(3 - r, 3):
            cfg["k"][d] = rng.randint(1, 3 if r < 3 else 2)
            cfg["s"][d] = rng.randint(1, 3)
            cfg["dil"][d] = rng.randint(1, 2)
            cfg["pb"][d] = rng.randint(0, cfg["k"][d] + 1)
            cfg["pe"][d] = cfg["pb"][d]
            if r == 2 and rng.random() < 0.35:
                cfg["pe"][d] = rng.randint(0, cfg["k"][d] + 1)
            span = cfg["dil"][d] * (cfg["k"][d] - 1) + 1
            if transposed:
                cfg["op"][d] = rng.randint(0, cfg["s"][d] - 1)
                cfg["in"][d] = rng.randint(1, max(1, max_size // cfg["s"][d]))
                while implied_out(cfg, d) < 1:
                    cfg["in"][d] += 1
            else:
                cfg["in"][d] = max(1, span - cfg["pb"][d] - cfg["pe"][d]) + rng.randint(0, max_size - 1)
        cfg["ic"] = g * (cy_g if transposed else cx_g)
        cfg["oc"] = g * (cx_g if transposed else cy_g)
        cfg["out"] = [implied_out(cfg, d) for d in range(3)]
        mask = [False, False, False]
        while not any(mask):
            mask = [rng.random() < 0.75 for _ in range(3)]
        cfg["mask"] = mask
        cfg["product"] = rng.choice(["Ascend910B", "Ascend950"])
        cfg["cmt"] = rng.randint(0, 3)
        roll = rng.random()
        base = "f32" if roll < 0.5 else "f16" if roll < 0.72 else "bf16"
        dt = [base] * 6
        if cfg["product"] == "Ascend910B" and rng.random() < 0.3:  # A2/A3 accept any output dtype
            dt[3:] = [rng.choice(["f32", "f16", "bf16"]) for _ in range(3)]
        cfg["dt"] = dt
        if not rejected(cfg):
            return cfg


def descriptor(cfg):
    dims = range(3 - cfg["rank"], 3)

    def spatial(prefix, values):
        return "".join("%s%s%d" % (prefix, LETTERS[d], values[d]) for d in dims)

    pads = "".join("p%s%d" % (LETTERS[d], cfg["pb"][d]) + (":%d" % cfg["pe"][d] if cfg["pe"][d] != cfg["pb"][d] else "")
                   for d in dims)
    parts = ["mb%d" % cfg["mb"], "g%d" % cfg["g"], "ic%doc%d" % (cfg["ic"], cfg["oc"]), spatial("i", cfg["in"]),
             spatial("o", cfg["out"]), spatial("k", cfg["k"]), spatial("s", cfg["s"]), pads, spatial("d", cfg["dil"])]
    if cfg["transposed"]:
        parts += ["tr1", spatial("op", cfg["op"])]
    parts += ["dt" + ":".join(cfg["dt"]), "mask" + "".join("1" if m else "0" for m in cfg["mask"]),
              "cmt%d" % cfg["cmt"], cfg["product"]]
    return "_".join(parts)


def shapes(cfg):
    dims = range(3 - cfg["rank"], 3)
    sp = lambda key: [cfg[key][d] for d in dims]
    g = cfg["g"]
    weight = [cfg["ic"], cfg["oc"] // g] if cfg["transposed"] else [cfg["oc"], cfg["ic"] // g]
    go = [cfg["mb"], cfg["oc"]] + sp("out")
    inp = [cfg["mb"], cfg["ic"]] + sp("in")
    w = weight + sp("k")
    return [go, inp, w, inp, w, [cfg["oc"]]]


# ---------------------------------------------------------------------------------------------- rounding model
def round_hf32(t, bits):
    """FP32 -> HF32 keeping `bits` mantissa bits, ties away from zero on the magnitude; NaN/Inf kept.

    docs/contract.md §4.2."""
    u = t.to(torch.float32).numpy().view(np.uint32).astype(np.uint64)
    sign = u & 0x80000000
    mag = u & 0x7FFFFFFF
    drop = 23 - bits
    kept = ((mag + (1 << (drop - 1))) >> drop) << drop
    out = np.where((mag & 0x7F800000) == 0x7F800000, u, sign | kept).astype(np.uint32)
    return torch.from_numpy(out.view(np.float32).copy()).to(torch.float64)


def round_operand(t, fmt, product):
    if fmt == "hf32":
        return round_hf32(t, 10 if product == "Ascend950" else 11)
    if fmt in ("f16", "bf16"):
        return t.to(TORCH_DTYPE[fmt]).to(torch.float64)
    return t


def to_dtype(t, dt):
    return t.to(torch.float32).to(TORCH_DTYPE[dt]).to(torch.float64)


def ulp_bound(t, dt):
    rel, tiny = {"f32": (2.0 ** -23, 2.0 ** -149), "f16": (2.0 ** -10, 2.0 ** -24), "bf16": (2.0 ** -7, 2.0 ** -133)}[dt]
    return torch.clamp(t.abs() * rel, min=tiny)


# ---------------------------------------------------------------------------------------------- PyTorch side
def aten_backward(cfg, go, x, w):
    """torch.ops.aten.convolution_backward in float64, asymmetric padding through explicit zero padding."""
    r = cfg["rank"]
    dims = list(range(3 - r, 3))
    s = [cfg["s"][d] for d in dims]
    dil = [cfg["dil"][d] for d in dims]
    op = [cfg["op"][d] for d in dims]
    pb = [cfg["pb"][d] for d in dims]
    pe = [cfg["pe"][d] for d in dims]
    mask = [True, True, True]
    flat_pads = []  # F.pad order: last dim first
    for b, e in zip(reversed(pb), reversed(pe)):
        flat_pads += [b, e]
    if pb == pe:
        return torch.ops.aten.convolution_backward(go, x, w, [cfg["oc"]], s, pb, dil, cfg["transposed"],
                                                   op if cfg["transposed"] else [0] * r, cfg["g"], mask)
    if not cfg["transposed"]:
        x_padded = F.pad(x, flat_pads)
        gi, gw, gb = torch.ops.aten.convolution_backward(go, x_padded, w, [cfg["oc"]], s, [0] * r, dil, False,
                                                         [0] * r, cfg["g"], mask)
        crop = [slice(None), slice(None)] + [slice(b, b + n) for b, n in zip(pb, x.shape[2:])]
        return gi[tuple(crop)], gw, gb
    # transposed: the uncropped output is cropped by (pb, pe), so its gradient is gradOutput padded with zeros.
    go_full = F.pad(go, flat_pads)
    return torch.ops.aten.convolution_backward(go_full, x, w, [cfg["oc"]], s, [0] * r, dil, True, op, cfg["g"], mask)


def expected(cfg, data):
    """Expected stored values and tolerances of the three outputs."""
    fmt = compute_format(cfg)
    go, x, w = (data[i].to(torch.float64) for i in range(3))
    rgo, rx, rw = (round_operand(t, fmt, cfg["product"]) for t in (go, x, w))
    gi, gw, _ = aten_backward(cfg, rgo, rx, rw)
    agi, agw, _ = aten_backward(cfg, rgo.abs(), rx.abs(), rw.abs())
    # The library adds products in fp32 (as the cube does): a sum of k terms moves by at most (k+1)·2⁻²⁴ of the
    # sum of their magnitudes. k per element = the same backward on all-ones operands.
    ngi, ngw, _ = aten_backward(cfg, torch.ones_like(go), torch.ones_like(x), torch.ones_like(w))
    agi = agi * (ngi + 1) * 2.0 ** -24
    agw = agw * (ngw + 1) * 2.0 ** -24
    reduce_dims = [0] + list(range(2, go.dim()))
    gb = go.sum(dim=reduce_dims)
    agb = go.abs().sum(dim=reduce_dims)
    out = {}
    # gradInput: fp32 accumulator, the compute type when it is fp16/bf16, then the output dtype.
    v = gi.to(torch.float32).to(torch.float64)
    bound = ulp_bound(v, "f32")
    if fmt in ("f16", "bf16"):
        v = to_dtype(v, fmt)
        bound = bound + ulp_bound(v, fmt)
    v = to_dtype(v, cfg["dt"][3])
    out[3] = (v, bound + ulp_bound(v, cfg["dt"][3]) + agi)
    v = gw.to(torch.float32).to(torch.float64)
    bound = ulp_bound(v, "f32")
    v = to_dtype(v, cfg["dt"][4])
    out[4] = (v, bound + ulp_bound(v, cfg["dt"][4]) + agw)
    v = to_dtype(gb.to(torch.float32).to(torch.float64), cfg["dt"][0])  # ReduceSum in gradOutput's dtype
    bound = ulp_bound(v, "f32") + ulp_bound(v, cfg["dt"][0])
    v = to_dtype(v, cfg["dt"][5])
    out[5] = (v, bound + ulp_bound(v, cfg["dt"][5]) + 1e-10 * agb)
    return out


# ---------------------------------------------------------------------------------------------- driver
def write_raw(t, dt, path):
    with open(path, "wb") as f:
        f.write(t.contiguous().view(RAW_VIEW[dt]).numpy().tobytes())


def read_raw(path, dt, shape):
    with open(path, "rb") as f:
        raw = np.frombuffer(f.read(), dtype=NP_RAW[dt]).copy()
    return torch.from_numpy(raw).view(TORCH_DTYPE[dt]).reshape(shape).to(torch.float64)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runner", required=True, help="path of the crosscheck_runner executable")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="keep the case files in this directory")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--sweep", action="store_true",
                    help="run the cases once per algorithm of the library's table, each as its output's first choice")
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    work = args.keep or tempfile.mkdtemp(prefix="aclnn_cpu_crosscheck_")
    os.makedirs(work, exist_ok=True)
    configs, inputs = [], []
    gen = torch.Generator().manual_seed(args.seed)
    with open(os.path.join(work, "cases.txt"), "w") as cases:
        for i in range(args.count):
            cfg = random_config(rng)
            shp = shapes(cfg)
            data = []
            for slot in range(3):
                t = (torch.rand(shp[slot], generator=gen, dtype=torch.float64) * 2 - 1).to(TORCH_DTYPE[cfg["dt"][slot]])
                write_raw(t, cfg["dt"][slot], os.path.join(work, "c%d.%s" % (i, SLOTS[slot])))
                data.append(t)
            cases.write("c%d %s\n" % (i, descriptor(cfg)))
            configs.append(cfg)
            inputs.append(data)
    runs = [("default", None)]
    if args.sweep:
        listed = subprocess.run([args.runner, "--algorithm-sweeps"], check=True, capture_output=True, text=True)
        runs = [tuple(line.split(" ", 1)) for line in listed.stdout.splitlines() if line]
    failures, worst = 0, 0.0
    for name, setting in runs:
        env = dict(os.environ)
        if setting is not None:
            env["ACLNN_CPU_ALGO"] = setting
        subprocess.run([args.runner, work], check=True, env=env)
        f, w = check_results(work, configs, inputs, args.verbose, name)
        failures, worst = failures + f, max(worst, w)
    print("torch_crosscheck: %d configurations%s, %d failed; largest |difference| / tolerance = %.3g (torch %s)" % (
        len(configs), " x %d algorithm settings" % len(runs) if args.sweep else "", failures, worst,
        torch.__version__))
    if not args.keep:
        for name in os.listdir(work):
            os.remove(os.path.join(work, name))
        os.rmdir(work)
    return 1 if failures else 0


def check_results(work, configs, inputs, verbose, run_name):
    """Compares one run's results.txt and outputs with PyTorch; returns (failures, worst difference / tolerance)."""
    status = {}
    with open(os.path.join(work, "results.txt")) as f:
        for line in f:
            cid, code, message = (line.rstrip("\n").split(" ", 2) + [""])[:3]
            status[cid] = (int(code), message)
    failures, worst = 0, 0.0
    for i, (cfg, data) in enumerate(zip(configs, inputs)):
        cid = "c%d" % i
        code, message = status.get(cid, (-1, "no result"))
        if code != 0:
            failures += 1
            print("FAIL [%s] %s status %d (%s): %s" % (run_name, cid, code, message, descriptor(cfg)))
            continue
        exp = expected(cfg, data)
        shp = shapes(cfg)
        for slot in (3, 4, 5):
            if not cfg["mask"][slot - 3]:
                continue
            got = read_raw(os.path.join(work, "%s.%s" % (cid, SLOTS[slot])), cfg["dt"][slot], shp[slot])
            want, tol = exp[slot]
            diff = (got - want).abs()
            same = (got == want) | (torch.isnan(got) & torch.isnan(want))
            bad = ~(same | (diff <= tol))
            if want.numel() > 0:
                worst = max(worst, float((diff / (tol + 1e-300)).max()))
            if bool(bad.any()):
                failures += 1
                idx = int(torch.nonzero(bad.flatten())[0])
                print("FAIL [%s] %s %s element %d: got %r expected %r (tolerance %r): %s" % (
                    run_name, cid, SLOTS[slot], idx, float(got.flatten()[idx]), float(want.flatten()[idx]),
                    float(tol.flatten()[idx]), descriptor(cfg)))
                break
        if verbose:
            print("ok   [%s] %s %s" % (run_name, cid, descriptor(cfg)))
    return failures, worst


if __name__ == "__main__":
    sys.exit(main())
