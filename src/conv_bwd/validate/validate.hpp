// Validation of aclnnConvolutionBackwardGetWorkspaceSize, in the order the real op applies its rules
// (SPEC §2.3 V1–V14, empty path §2.5), plus our own bounds and overflow safety and the optional strict mode.
#pragma once

#include "aclnn/acl_meta.h"
#include "conv_bwd/problem.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// The call's arguments exactly as received.
struct Args {
  const aclTensor *gradOutput = nullptr;
  const aclTensor *input = nullptr;
  const aclTensor *weight = nullptr;
  const aclIntArray *biasSizes = nullptr;
  const aclIntArray *stride = nullptr;
  const aclIntArray *padding = nullptr;
  const aclIntArray *dilation = nullptr;
  bool transposed = false;
  const aclIntArray *outputPadding = nullptr;
  int groups = 1;
  const aclBoolArray *outputMask = nullptr;
  int8_t cubeMathType = 0;
  aclTensor *gradInput = nullptr;
  aclTensor *gradWeight = nullptr;
  aclTensor *gradBias = nullptr;
};

// Checks `args` against the rules of the emulated product (config.hpp) and, on success, fills `*problem`.
// Returns an aclnnStatus (ACLNN_SUCCESS, 161001, 161002, 561103); on failure the thread's recent error holds a
// message naming the API, the parameter, the value and the rule, and `*problem` must not be used.
int validate(const Args &args, Problem *problem);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
