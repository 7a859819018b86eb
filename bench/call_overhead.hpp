// The fixed cost of a call (the documentation sample's tiny problem): many back-to-back calls of ours with each phase
// timed, no idle gap, no oneDNN in between — what a training loop of small layers pays per call.
#ifndef ACLNN_CPU_BENCH_CALL_OVERHEAD_HPP_
#define ACLNN_CPU_BENCH_CALL_OVERHEAD_HPP_

#include <vector>

#include "acl/acl.h"
#include "layer.hpp"
#include "options.hpp"

namespace aclnn_cpu {
namespace bench {

// For each layer, precision and thread count: o.calls calls after 100 untimed ones; prints the median µs of
// GetWorkspaceSize, launch, synchronize and the whole call. Returns false when a call failed.
bool report_call_overhead(const std::vector<Layer> &layers, const Options &o, aclrtStream stream);

}  // namespace bench
}  // namespace aclnn_cpu

#endif  // ACLNN_CPU_BENCH_CALL_OVERHEAD_HPP_
