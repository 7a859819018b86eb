#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <tuple>
#include <utility>

#include "aclnn_cpu/ext.h"
#include "onednn.hpp"

namespace aclnn_cpu {
namespace bench {
namespace {

// Milliseconds to about three significant digits (the tiny calls take microseconds).
void print_ms(double ms) { std::printf(ms < 1 ? "%9.4f " : ms < 100 ? "%9.3f " : "%9.2f ", ms); }

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, implementer;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    // aarch64 kernels name no model: the implementer and part codes (0x48 0xd01: HiSilicon's Kunpeng 920).
    if (line.rfind("CPU implementer", 0) == 0) implementer = line.substr(line.find(':') + 2);
    if (line.rfind("CPU part", 0) == 0 && !implementer.empty()) {
      return "implementer " + implementer + " part " + line.substr(line.find(':') + 2);
    }
  }
  return "unknown CPU";
}

double geomean(const std::vector<double> &v) {
  double log_sum = 0;
  for (double x : v) log_sum += std::log(x);
  return v.empty() ? 0 : std::exp(log_sum / v.size());
}

template <typename Int>
std::string joined(const std::vector<Int> &v) {
  std::string text;
  for (Int x : v) text += (text.empty() ? "" : ",") + std::to_string(x);
  return text;
}

std::string precisions(const std::vector<Precision> &v) {
  std::string text;
  for (Precision p : v) text += (text.empty() ? "" : ",") + std::string(info(p).name);
  return text;
}

}  // namespace

double gflops(const Layer &l, double ms) { return ms > 0 ? 2.0 * 2.0 * l.macs() / (ms * 1e6) : 0; }

double percent_of_peak(double gf, int threads, const Peak &peak) {
  return peak.per_core_gflops > 0 ? 100.0 * gf / (threads * peak.per_core_gflops) : 0;
}

void print_header(const Options &o, const Peak &peak, const std::vector<Layer> &layers) {
  std::printf("aclnn-cpu %s aclnnConvolutionBackward vs oneDNN %s (ISA %s%s), %s, %u CPUs\n", aclnnCpuGetVersion(),
              onednn_version().c_str(), onednn_isa().c_str(), o.onednn_isa.empty() ? "" : ", capped by --onednn-isa",
              cpu_model().c_str(), std::thread::hardware_concurrency());
  if (peak.neon_gflops > 0) {
    std::printf("peak: 128-bit NEON FMA loop %.1f GFLOP/s per thread (= 2 FMA x 4 lanes x 2 flops x %.2f GHz)",
                peak.neon_gflops, peak.neon_gflops / 16);
  } else {
    std::printf(
        "peak: 256-bit FMA loop %.1f GFLOP/s per thread (= 2 FMA x 8 lanes x 2 flops x %.2f GHz); "
        "/proc/cpuinfo %.2f GHz (%.1f GFLOP/s)",
        peak.avx2_gflops, peak.avx2_gflops / 32, peak.nominal_ghz, 32 * peak.nominal_ghz);
  }
  if (peak.avx512_gflops > 0) std::printf("; 512-bit FMA loop %.1f GFLOP/s", peak.avx512_gflops);
  const char *unit = peak.neon_gflops > 0                         ? "NEON FMA"
                     : peak.per_core_gflops == peak.avx512_gflops ? "AVX-512 FMA"
                                                                  : "AVX2+FMA";
  std::printf("\n      %%pk = GFLOP/s / (threads x %.1f), the %s peak (--peak)\n", peak.per_core_gflops, unit);
  std::printf(
      "work: GFLOP/s = 2 x MACs x 2 (gradInput + gradWeight; gradBias' adds not counted) / median time\n"
      "ours: GetWorkspaceSize + aclnnConvolutionBackward + aclrtSynchronizeStream via the public API, all three\n"
      "      outputs, plain NC[D]HW/NCL tensors; threads set by aclnnCpuSetNumThreads\n"
      "oneDNN: backward-data + backward-weights (with gradBias) primitives, direct algorithm (deconvolution for\n"
      "      transposed layers), format_tag::any; its time INCLUDES the reorders of the plain inputs into its\n"
      "      blocked layouts and of the gradients back; threads set by omp_set_num_threads\n"
      "hf32 (cubeMathType 3): oneDNN has no HF32, so those rows compare with its FP32. bf16/f16: 'n/a' where\n"
      "      oneDNN has no implementation of that dtype on this CPU (ISA)\n"
      "timing: per case one untimed checked pair, then %d timed pairs interleaved ours, oneDNN, ours, oneDNN, ...\n"
      "      each after %d ms idle, each the mean of %d back-to-back calls; ms = median; ours/dnn = median of\n"
      "      the paired ratios\n"
      "maxrel: max|ours - oneDNN| / max|oneDNN| over gradInput, gradWeight, gradBias (worst of the three), from\n"
      "      the checked pair; '*' = against oneDNN FP32 on the same values (no oneDNN kernel for the dtype);\n"
      "      '!' = beyond 1e-4 (f32) or 1e-2 (other modes)\n"
      "spread: interquartile range / median of the timed calls, the worse of the two sides; large = the machine\n"
      "      was busy during the case (re-run it: --cases=NAME --reps=9)\n",
      o.reps, o.gap_ms, o.burst);
  std::printf("run: mini-batches %s, precisions %s, threads %s, seed %u, emulated product %s\n\n",
              joined(o.mbs).c_str(), precisions(o.precisions).c_str(), joined(o.threads).c_str(), o.seed,
              aclnnCpuGetSoc());
  std::printf(
      "layers (GFLOP = 2 x MACs of one gradient, taps on padding included; real = the share of them whose tap\n"
      "lies inside the tensor, what a direct convolution bounding its tap loops computes):\n");
  for (const Layer &l : layers) {
    std::printf("  %-22s %8.3f %5.1f%%  %s\n", l.name.c_str(), 2 * l.macs() * 1e-9, 100 * l.real_share(),
                l.descriptor().c_str());
  }
  std::printf("\n");
}

void print_table_head() {
  std::printf("%-22s %4s %-4s %3s %3s %9s %9s %7s %7s %6s %6s %8s %9s %6s  %s\n", "layer", "mb", "prec", "cmt", "thr",
              "ours_ms", "dnn_ms", "ours_GF", "dnn_GF", "ours%", "dnn%", "ours/dnn", "maxrel", "spread", "dnn_dtype");
}

void print_row(const CaseResult &r, const Peak &peak) {
  const PrecisionInfo &pi = info(r.precision);
  if (!r.error.empty()) {
    std::printf("%-22s %4lld %-4s %3d %3d  ERROR: %s\n", r.layer.name.c_str(), static_cast<long long>(r.layer.mb),
                pi.name, pi.cube_math_type, r.threads, r.error.c_str());
    std::fflush(stdout);
    return;
  }
  const double ours_gf = gflops(r.layer, r.ours_ms);
  std::printf("%-22s %4lld %-4s %3d %3d ", r.layer.name.c_str(), static_cast<long long>(r.layer.mb), pi.name,
              pi.cube_math_type, r.threads);
  print_ms(r.ours_ms);
  if (r.onednn) {
    print_ms(r.onednn_ms);
  } else {
    std::printf("%9s ", "n/a");
  }
  std::printf("%7.2f ", ours_gf);
  if (r.onednn) {
    std::printf("%7.2f ", gflops(r.layer, r.onednn_ms));
  } else {
    std::printf("%7s ", "n/a");
  }
  std::printf("%5.1f%% ", percent_of_peak(ours_gf, r.threads, peak));
  if (r.onednn) {
    std::printf("%5.1f%% %8.2f ", percent_of_peak(gflops(r.layer, r.onednn_ms), r.threads, peak), r.ratio);
  } else {
    std::printf("%6s %8s ", "n/a", "n/a");
  }
  if (r.max_rel >= 0) {
    std::printf("%8.1e%s%s", r.max_rel, r.check_in_f32 ? "*" : " ", r.mismatch ? "!" : " ");
  } else {
    std::printf("%9s ", "-");
  }
  std::printf("%5.0f%%  %s\n", 100 * r.spread, r.onednn_dtype.c_str());
  std::fflush(stdout);
}

namespace {

// A block of the summary: one precision mode at one mini-batch of the sweep on one thread count.
using GroupKey = std::tuple<int, int64_t, int>;  // precision, sweep mini-batch, threads
using Groups = std::map<GroupKey, std::vector<const CaseResult *>>;

void print_group(const GroupKey &key, const std::vector<const CaseResult *> &cases, const Peak &peak) {
  std::vector<double> ratio, ours_gf, dnn_gf;
  const CaseResult *worst = nullptr;
  for (const CaseResult *r : cases) {
    ours_gf.push_back(gflops(r->layer, r->ours_ms));
    if (!r->onednn) continue;
    ratio.push_back(r->ratio);
    dnn_gf.push_back(gflops(r->layer, r->onednn_ms));
    if (worst == nullptr || r->ratio > worst->ratio) worst = r;
  }
  const int t = std::get<2>(key);
  const bool all = ratio.size() == ours_gf.size();
  std::printf("%-4s %4lld %3d %6zu ", info(static_cast<Precision>(std::get<0>(key))).name,
              static_cast<long long>(std::get<1>(key)), t, cases.size());
  if (!all) {
    std::printf("%9s %8.2f %8s %6.1f%% %7s\n", "n/a", geomean(ours_gf), "n/a",
                percent_of_peak(geomean(ours_gf), t, peak), "n/a");
    return;
  }
  std::printf("%9.2f %8.2f %8.2f %6.1f%% %6.1f%%  %.2f %s\n", geomean(ratio), geomean(ours_gf), geomean(dnn_gf),
              percent_of_peak(geomean(ours_gf), t, peak), percent_of_peak(geomean(dnn_gf), t, peak), worst->ratio,
              worst->layer.name.c_str());
}

const CaseResult *find_case(const std::vector<CaseResult> &results, const CaseResult &like, Precision p, int t) {
  for (const CaseResult &r : results) {
    if (r.error.empty() && r.layer.name == like.layer.name && r.sweep_mb == like.sweep_mb && r.precision == p &&
        r.threads == t) {
      return &r;
    }
  }
  return nullptr;
}

// Scaling from the fewest to the most threads, per precision mode and mini-batch: the speedup (geomean of the time
// ratios) and the parallel efficiency it means, speedup × fewest / most threads (compare the demo driver's
// --simulate-threads, the efficiency the plan predicts).
void print_scaling(const std::vector<CaseResult> &results, const Groups &groups) {
  int t_lo = 1 << 30, t_hi = 0;
  for (const CaseResult &r : results) {
    t_lo = std::min(t_lo, r.threads);
    t_hi = std::max(t_hi, r.threads);
  }
  if (t_hi <= t_lo) return;
  std::printf("scaling %d -> %d threads (geomean of time ratios; E = that x %d / %d):", t_lo, t_hi, t_lo, t_hi);
  for (const auto &group : groups) {
    if (std::get<2>(group.first) != t_hi) continue;
    const Precision p = static_cast<Precision>(std::get<0>(group.first));
    std::vector<double> ours, dnn;
    for (const CaseResult *r : group.second) {
      const CaseResult *lo = find_case(results, *r, p, t_lo);
      if (lo == nullptr) continue;
      ours.push_back(lo->ours_ms / r->ours_ms);
      if (r->onednn && lo->onednn) dnn.push_back(lo->onednn_ms / r->onednn_ms);
    }
    const double share = static_cast<double>(t_lo) / static_cast<double>(t_hi);
    std::printf("  %s/mb%lld ours %.2fx (E %.2f)", info(p).name, static_cast<long long>(std::get<1>(group.first)),
                geomean(ours), geomean(ours) * share);
    if (!dnn.empty()) std::printf(" oneDNN %.2fx (E %.2f)", geomean(dnn), geomean(dnn) * share);
  }
  std::printf("\n");
}

// Each mode's cost relative to our FP32 on the same layers.
void print_costs(const std::vector<CaseResult> &results, const Groups &groups) {
  std::string costs;
  for (const auto &group : groups) {
    const Precision p = static_cast<Precision>(std::get<0>(group.first));
    if (p == Precision::kF32) continue;
    std::vector<double> cost;
    for (const CaseResult *r : group.second) {
      const CaseResult *f32 = find_case(results, *r, Precision::kF32, r->threads);
      if (f32 != nullptr) cost.push_back(r->ours_ms / f32->ours_ms);
    }
    if (cost.empty()) continue;
    char text[80];
    std::snprintf(text, sizeof text, "  %s/mb%lld/%dt %.2fx", info(p).name,
                  static_cast<long long>(std::get<1>(group.first)), std::get<2>(group.first), geomean(cost));
    costs += text;
  }
  if (!costs.empty()) std::printf("our cost vs our f32 (geomean of time ratios):%s\n", costs.c_str());
}

// Layers grouped by the implementation oneDNN chose (or its reason for having none), per precision mode.
void print_onednn_implementations(const std::vector<CaseResult> &results) {
  std::printf("\noneDNN implementations (backward data / backward weights), or why it has none:\n");
  std::map<std::pair<int, std::string>, std::string> layers_by_impl;
  std::map<std::string, bool> seen;
  for (const CaseResult &r : results) {
    const std::string name = r.layer.name + "/mb" + std::to_string(r.layer.mb);
    const std::string key = name + " " + info(r.precision).name;
    if (!r.error.empty() || seen[key]) continue;
    seen[key] = true;
    std::string &list = layers_by_impl[{static_cast<int>(r.precision), r.onednn_impl}];
    list += (list.empty() ? "" : ", ") + name;
  }
  for (const auto &entry : layers_by_impl) {
    std::printf("  %-4s %s: %s\n", info(static_cast<Precision>(entry.first.first)).name, entry.first.second.c_str(),
                entry.second.c_str());
  }
}

}  // namespace

void print_summary(const std::vector<CaseResult> &results, const Peak &peak) {
  // Geometric means per (precision, mini-batch, threads) over the layers where both sides ran.
  Groups groups;
  for (const CaseResult &r : results) {
    if (r.error.empty()) groups[GroupKey{static_cast<int>(r.precision), r.sweep_mb, r.threads}].push_back(&r);
  }
  std::printf("\nsummary: geometric means over the layers, per precision mode, mini-batch and thread count\n");
  std::printf("%-4s %4s %3s %6s %9s %8s %8s %7s %7s  %s\n", "prec", "mb", "thr", "layers", "ours/dnn", "ours_GF",
              "dnn_GF", "ours%", "dnn%", "worst ours/dnn");
  for (const auto &group : groups) print_group(group.first, group.second, peak);
  print_scaling(results, groups);
  print_costs(results, groups);
  print_onednn_implementations(results);
}

}  // namespace bench
}  // namespace aclnn_cpu
