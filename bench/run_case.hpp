// One benchmark case: a layer in one precision mode on one thread count, ours and oneDNN interleaved.
#ifndef ACLNN_CPU_BENCH_RUN_CASE_HPP_
#define ACLNN_CPU_BENCH_RUN_CASE_HPP_

#include <cstdint>
#include <string>

#include "acl/acl.h"
#include "layer.hpp"
#include "options.hpp"
#include "precision.hpp"

namespace aclnn_cpu {
namespace bench {

struct CaseResult {
  Layer layer;
  Precision precision = Precision::kF32;
  int threads = 1;
  int64_t sweep_mb = 1;      // the --mb block the case belongs to (the layer's own mini-batch may be fixed)
  std::string error;         // non-empty: our call failed, no numbers
  double ours_ms = 0;        // median of the timed calls
  bool onednn = false;       // oneDNN has an implementation in this dtype
  std::string onednn_dtype;  // what it computes in ("f32", "bf16", "bf16/w:f32"), or why not
  std::string onednn_impl;
  double onednn_ms = 0;
  double ratio = 0;    // median over the pairs of ours / oneDNN
  double spread = 0;   // worst of both sides' interquartile range / median: high means the machine was busy
  double max_rel = 0;  // ours against oneDNN (in FP32 on the same values when it has no such dtype)
  bool check_in_f32 = false;
  bool mismatch = false;  // max_rel beyond what the precision mode explains
};

// First an untimed pair (which also allocates our workspace) whose gradients are compared; then `reps` timed
// pairs, ours first.
CaseResult run_case(const Layer &layer, Precision p, int threads, const Options &o, aclrtStream stream);

}  // namespace bench
}  // namespace aclnn_cpu

#endif  // ACLNN_CPU_BENCH_RUN_CASE_HPP_
