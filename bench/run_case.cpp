#include "run_case.hpp"

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "aclnn_cpu/ext.h"
#include "data.hpp"
#include "onednn.hpp"
#include "ours.hpp"

namespace aclnn_cpu {
namespace bench {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Interquartile range relative to the median: one stray slow call (which the median ignores) does not raise it,
// a machine that stayed busy during the case does.
double spread(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return (v[(3 * n) / 4 - (n % 4 == 0 ? 1 : 0)] - v[n / 4]) / median(v);
}

// Times `burst` back-to-back calls after an idle gap (so that neither side pays for the other's still-spinning
// workers) and returns the time of one call.
template <class Call>
double timed_ms(Call call, int gap_ms, int burst) {
  if (gap_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(gap_ms));
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < burst; ++i) call();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / burst;
}

// Differences that the precision mode explains: FP32 sums in another order; HF32 operands (11-bit mantissa);
// BF16/FP16 results rounded to their dtype. A wrongly set-up problem differs by O(1).
double tolerance(Precision p) { return p == Precision::kF32 ? 1e-4 : 1e-2; }

// The checked pair: our gradients against oneDNN's, or, without a oneDNN implementation in this dtype, against
// oneDNN in FP32 on the same (already rounded) values. False when our call failed.
bool check_pair(const Layer &layer, Precision p, const HostInputs &inputs, OursConv *ours, OnednnConv *onednn,
                CaseResult *r) {
  Gradients ours_grads, ref_grads;
  if (!ours->run(&r->error) || !ours->read(&ours_grads, &r->error)) return false;
  if (r->onednn) {
    onednn->run();
    ref_grads = onednn->read();
  } else {
    OnednnConv f32;
    std::string why;
    if (f32.setup(layer, Precision::kF32, inputs, &why)) {
      f32.run();
      ref_grads = f32.read();
      r->check_in_f32 = true;
    }
  }
  const bool checked = r->onednn || r->check_in_f32;
  r->max_rel = checked ? max_rel_diff(ours_grads, ref_grads) : -1;
  r->mismatch = checked && !(r->max_rel <= tolerance(p));
  return true;
}

// The timed pairs, ours first. False when our call failed.
bool time_pairs(int reps, int gap_ms, int burst, OursConv *ours, OnednnConv *onednn, CaseResult *r) {
  std::vector<double> ours_ms, onednn_ms, ratios;
  for (int rep = 0; rep < reps; ++rep) {
    bool ok = true;
    ours_ms.push_back(timed_ms([&] { ok = ok && ours->run(&r->error); }, gap_ms, burst));
    if (!ok) return false;
    if (r->onednn) {
      onednn_ms.push_back(timed_ms([&] { onednn->run(); }, gap_ms, burst));
      ratios.push_back(ours_ms.back() / onednn_ms.back());
    }
  }
  r->ours_ms = median(ours_ms);
  r->spread = spread(ours_ms);
  if (r->onednn) {
    r->onednn_ms = median(onednn_ms);
    r->ratio = median(ratios);
    r->spread = std::max(r->spread, spread(onednn_ms));
  }
  return true;
}

}  // namespace

CaseResult run_case(const Layer &layer, Precision p, int threads, const Options &o, aclrtStream stream) {
  CaseResult r;
  r.layer = layer;
  r.precision = p;
  r.threads = threads;
  aclnnCpuSetNumThreads(threads);
  set_onednn_threads(threads);  // before the primitives are created: oneDNN picks its blocking by thread count

  const HostInputs inputs = make_inputs(layer, p, o.seed);
  OursConv ours(stream);
  if (!ours.setup(layer, p, inputs, &r.error)) return r;
  OnednnConv onednn;
  std::string why;
  r.onednn = onednn.setup(layer, p == Precision::kHF32 ? Precision::kF32 : p, inputs, &why);
  r.onednn_dtype = r.onednn ? onednn.dtypes() : "n/a";
  r.onednn_impl = r.onednn ? onednn.implementation() : why;

  if (check_pair(layer, p, inputs, &ours, &onednn, &r)) time_pairs(o.reps, o.gap_ms, o.burst, &ours, &onednn, &r);
  return r;
}

}  // namespace bench
}  // namespace aclnn_cpu
