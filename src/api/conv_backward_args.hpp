// The arguments of aclnnConvolutionBackwardGetWorkspaceSize as the caller's handles, and their plain description
// for the validator, so that the operator layer reads no API object.
#pragma once

#include "aclnn/acl_meta.h"
#include "conv_bwd/validate/validate.hpp"

namespace aclnn_cpu {

struct ConvBackwardHandles {
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

// Borrows from the handles' objects: valid as long as they live and are not changed.
conv_bwd::Args describe(const ConvBackwardHandles &handles);

}  // namespace aclnn_cpu
