#!/usr/bin/env python3
"""Writes the Markdown verification report from the figures scripts/verify_report.sh recorded.

usage: verify_report_md.py DATA_DIR OUT.md
DATA_DIR holds machine.tsv, stages (one stage name a line, in run order) and <stage>.tsv (key<TAB>value lines;
a key may repeat, e.g. failed_test, target, row).
"""
import os
import sys

TITLES = {
    "release": "Conformance and unit tests (preset release)",
    "crosscheck": "PyTorch cross-check (torch_crosscheck*)",
    "fuzz": "Fuzzers, fixed seeds and run counts (preset fuzz, ASan+UBSan)",
    "asan": "Tests under ASan+UBSan+LSan (preset asan)",
    "tsan": "Tests under ThreadSanitizer (preset tsan)",
    "bench": "Benchmark beside oneDNN (bench/aclnn_cpu_bench)",
}


def read_tsv(path):
    pairs = []
    if os.path.exists(path):
        for line in open(path, encoding="utf-8", errors="replace"):
            key, _, value = line.rstrip("\n").partition("\t")
            pairs.append((key, value))
    return pairs


def first(pairs, key, default=""):
    return next((v for k, v in pairs if k == key), default)


def every(pairs, key):
    return [v for k, v in pairs if k == key]


def duration(seconds):
    s = int(seconds or 0)
    return f"{s // 60} min {s % 60} s" if s >= 60 else f"{s} s"


def ctest_text(f):
    if not first(f, "total"):
        return first(f, "ctest", "")
    text = f"{first(f, 'passed')}/{first(f, 'total')} ctest cases passed, {first(f, 'failed')} failed"
    skipped = first(f, "skipped", "0")
    if skipped != "0":
        text += f", {skipped} skipped"
    if first(f, "test_seconds"):
        text += f" (ctest {float(first(f, 'test_seconds')):.0f} s)"
    return text


def sanitizer_text(f):
    keys = [("asan_reports", "ASan"), ("ubsan_reports", "UBSan"), ("lsan_reports", "LSan"), ("tsan_reports", "TSan")]
    if not first(f, "asan_reports"):
        return ""
    total = sum(int(first(f, k, "0")) for k, _ in keys)
    if total == 0:
        return "no sanitizer report"
    return ", ".join(f"{name} {first(f, k)}" for k, name in keys if first(f, k, "0") != "0")


def fuzz_targets(f):
    rows = []
    for value in every(f, "target"):
        name, runs, rate, new, wall, result, finding = (value.split("|") + [""] * 7)[:7]
        rows.append(dict(name=name, runs=runs, rate=rate, new=new, wall=wall, result=result, finding=finding))
    return rows


def summary_figures(stage, f):
    if stage == "fuzz":
        rows = fuzz_targets(f)
        runs = sum(int(r["runs"]) for r in rows if r["runs"].isdigit())
        findings = sum(1 for r in rows if r["result"] != "Passed") + len(every(f, "artifact"))
        parts = [f"{len(rows)} targets, {runs:,} executions, {findings} findings"]
        if sanitizer_text(f):
            parts.append(sanitizer_text(f))
        return "; ".join(parts)
    if stage == "crosscheck" and every(f, "line"):
        counts = [line.split()[1:4:2] for line in every(f, "line")]  # "N configurations, F failed"
        configs = sum(int(c[0]) for c in counts)
        failed = sum(int(c[1]) for c in counts)
        return f"{ctest_text(f)}; {configs} configurations compared with PyTorch, {failed} differed"
    if stage == "bench":
        rows = [r.split() for r in every(f, "row")]
        ratios = [f"{r[0]} {r[1]}t {r[3]}" for r in rows if len(r) >= 4]
        return ("ours/oneDNN time (geomean): " + ", ".join(ratios)) if ratios else ""
    parts = [ctest_text(f)]
    if stage in ("asan", "tsan", "fuzz") and sanitizer_text(f):
        parts.append(sanitizer_text(f))
    return "; ".join(p for p in parts if p)


def section(stage, f, out):
    out.append(f"\n## {TITLES.get(stage, stage)}\n")
    out.append(f"Result: **{first(f, 'status', 'unknown')}** in {duration(first(f, 'seconds'))}. "
               f"Log: `logs/{stage}.log`.\n")
    if first(f, "total"):
        out.append(f"- {ctest_text(f)}")
    failed = every(f, "failed_test")
    if failed:
        out.append("- failed: " + ", ".join(f"`{t}`" for t in failed))
    if sanitizer_text(f):
        out.append(f"- sanitizers: {sanitizer_text(f)}")
    if stage == "crosscheck":
        if first(f, "torch"):
            out.append(f"- PyTorch {first(f, 'torch')}")
        for line in every(f, "line"):
            out.append(f"- `{line}`")
    if stage == "fuzz":
        rows = fuzz_targets(f)
        if rows:
            out.append("\n| target | executions | execs/s | new corpus units | wall time (s) | result | finding |")
            out.append("|---|---:|---:|---:|---:|---|---|")
            for r in rows:
                out.append(f"| `{r['name']}` | {r['runs']} | {r['rate']} | {r['new']} | {r['wall']} | {r['result']} "
                           f"| {r['finding'] or 'none'} |")
        for a in every(f, "artifact"):
            out.append(f"- saved input: `{a}`")
    if stage == "bench":
        if first(f, "args"):
            out.append(f"- `aclnn_cpu_bench {first(f, 'args')}`; full output `logs/bench.txt`")
        if first(f, "note"):
            out.append(f"- **{first(f, 'note')}**")
        if first(f, "header"):
            out.append(f"- {first(f, 'header')}")
        rows = [r.split() for r in every(f, "row")]
        if rows:
            out.append("\nGeometric means over the layers (ours/dnn: our time / oneDNN's, lower is better):\n")
            out.append("| precision | threads | layers | ours/oneDNN | ours GFLOP/s | oneDNN GFLOP/s | ours % peak "
                       "| oneDNN % peak |")
            out.append("|---|---:|---:|---:|---:|---:|---:|---:|")
            for r in rows:
                out.append("| " + " | ".join((r + [""] * 8)[:8]) + " |")
        for line in every(f, "line"):
            out.append(f"\n{line}")
    out.append("")


def main():
    data, out_path = sys.argv[1], sys.argv[2]
    machine = read_tsv(os.path.join(data, "machine.tsv"))
    stages_file = os.path.join(data, "stages")
    stages = [s.strip() for s in open(stages_file)] if os.path.exists(stages_file) else []
    figures = {s: read_tsv(os.path.join(data, s + ".tsv")) for s in stages}

    out = ["# aclnn-cpu verification report", ""]
    out.append(f"`{first(machine, 'command')}` on {first(machine, 'date')}, commit `{first(machine, 'commit')}` "
               f"(branch `{first(machine, 'branch')}`). What each stage does: `docs/verification.md`.")
    out.append("\n## Summary\n")
    out.append("| stage | result | figures | time |")
    out.append("|---|---|---|---:|")
    total = 0
    for s in stages:
        f = figures[s]
        total += int(first(f, "seconds", "0") or 0)
        out.append(f"| {s} | {first(f, 'status', 'unknown')} | {summary_figures(s, f)} | "
                   f"{duration(first(f, 'seconds'))} |")
    out.append(f"| **all** | | | {duration(total)} |")

    out.append("\n## Machine\n")
    out.append("| | |")
    out.append("|---|---|")
    for key, label in [("cpu", "CPU"), ("nproc", "CPUs (nproc)"), ("isa", "ISA flags"), ("memory", "memory"),
                       ("os", "OS / kernel"), ("gcc", "g++"), ("clang", "clang++"), ("cmake", "CMake"),
                       ("onednn", "libdnnl-dev")]:
        out.append(f"| {label} | {first(machine, key)} |")

    for s in stages:
        section(s, figures[s], out)
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
