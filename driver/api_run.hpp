// One problem through the public CANN API, exactly as an application calls it: device buffers and tensors,
// aclnnConvolutionBackwardGetWorkspaceSize, workspace allocation, aclnnConvolutionBackward on a stream,
// aclrtSynchronizeStream. The first call's outputs are kept for checking; then `reps` timed calls follow, each
// compared bitwise with the first.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "conv_bwd/descriptor.hpp"
#include "host_data.hpp"

namespace aclnn_cpu {
namespace demo {

struct ApiRun {
  bool ok = false;
  std::string failed_call;  // the API call that failed, when !ok
  int status = 0;           // its return value
  std::string message;      // aclGetRecentErrMsg (or our own text)
  uint64_t workspace_bytes = 0;
  std::vector<unsigned char> outputs[3];  // downloaded gradInput, gradWeight, gradBias (present ones)
  double first_ms = 0;                    // the checked call
  double ms_per_call = 0;                 // mean over the timed repetitions
  double min_ms = 0;                      // the fastest of them (the least disturbed by a busy machine)
  int reps = 0;
  bool bitwise_repeatable = true;  // every repetition reproduced the first call's outputs
  std::string dispatch;            // the first call's plan (aclnnCpuDescribeExecutor), when asked for
};

// A look at an executor between the two phases.
using ExecutorHook = std::function<void(aclOpExecutor *)>;

// `describe`: keep the first call's dispatch lines in ApiRun::dispatch.
ApiRun run_through_api(const conv_bwd::ConvDesc &desc, const HostData &host, aclrtStream stream, int reps,
                       bool describe = false);

// Phase one only (GetWorkspaceSize with the calling thread's settings), the executor handed to `inspect` and then
// destroyed: nothing is computed.
ApiRun plan_through_api(const conv_bwd::ConvDesc &desc, const HostData &host, const ExecutorHook &inspect);

// `calls` calls (both phases) with the same tensors and workspace, each executor handed to `between` before its
// launch; outputs are not kept, first_ms is the last call's.
ApiRun repeat_through_api(const conv_bwd::ConvDesc &desc, const HostData &host, aclrtStream stream, int calls,
                          const ExecutorHook &between);
}  // namespace demo
}  // namespace aclnn_cpu
