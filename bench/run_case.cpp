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

double spread(const std::vector<double> &v) {
  const auto range = std::minmax_element(v.begin(), v.end());
  return (*range.second - *range.first) / median(v);
}

// Times one call after an idle gap, so that neither side pays for the other's still-spinning workers.
template <class Call>
double timed_ms(Call call, int gap_ms) {
  if (gap_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(gap_ms));
  const auto start = std::chrono::steady_clock::now();
  call();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// Differences that the precision mode explains: FP32 sums in another order; HF32 operands (11-bit mantissa);
// BF16/FP16 results rounded to their dtype. A wrongly set-up problem differs by O(1).
double tolerance(Precision p) { return p == Precision::kF32 ? 1e-4 : 1e-2; }

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
  const Precision onednn_precision = p == Precision::kHF32 ? Precision::kF32 : p;
  std::string why;
  r.onednn = onednn.setup(layer, onednn_precision, inputs, &why);
  if (r.onednn) {
    r.onednn_dtype = onednn.dtypes();
    r.onednn_impl = onednn.implementation();
  } else {
    r.onednn_dtype = "n/a";
    r.onednn_impl = why;
  }

  // The checked pair. Without a oneDNN implementation in this dtype, the check uses oneDNN in FP32 on the same
  // (already rounded) values.
  if (!ours.run(&r.error)) return r;
  Gradients ours_grads, ref_grads;
  if (!ours.read(&ours_grads, &r.error)) return r;
  if (r.onednn) {
    onednn.run();
    ref_grads = onednn.read();
  } else {
    OnednnConv f32;
    std::string f32_why;
    if (f32.setup(layer, Precision::kF32, inputs, &f32_why)) {
      f32.run();
      ref_grads = f32.read();
      r.check_in_f32 = true;
    }
  }
  const bool checked = r.onednn || r.check_in_f32;
  r.max_rel = checked ? max_rel_diff(ours_grads, ref_grads) : -1;
  r.mismatch = checked && !(r.max_rel <= tolerance(p));

  std::vector<double> ours_ms, onednn_ms, ratios;
  for (int rep = 0; rep < o.reps; ++rep) {
    bool ok = true;
    ours_ms.push_back(timed_ms([&] { ok = ours.run(&r.error); }, o.gap_ms));
    if (!ok) return r;
    if (r.onednn) {
      onednn_ms.push_back(timed_ms([&] { onednn.run(); }, o.gap_ms));
      ratios.push_back(ours_ms.back() / onednn_ms.back());
    }
  }
  r.ours_ms = median(ours_ms);
  r.spread = spread(ours_ms);
  if (r.onednn) {
    r.onednn_ms = median(onednn_ms);
    r.ratio = median(ratios);
    r.spread = std::max(r.spread, spread(onednn_ms));
  }
  return r;
}

}  // namespace bench
}  // namespace aclnn_cpu
