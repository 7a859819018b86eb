// Placeholder until the algorithms land: computes nothing.
#include "conv_bwd/execute.hpp"

#include "aclnn/opdev/op_errno.h"
#include "core/error.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

uint64_t workspace_size(const Problem &) { return 0; }

int execute(const Problem &, void *, uint64_t) {
  return inner_error(ACLNN_ERR_INNER_NULLPTR, "aclnnConvolutionBackward", "computation is not implemented yet");
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
