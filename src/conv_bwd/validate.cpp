// Placeholder until the validation rules land: accepts nothing.
#include "conv_bwd/validate.hpp"

#include "aclnn/opdev/op_errno.h"
#include "core/error.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

int validate(const Args &, Problem *) {
  return inner_error(ACLNN_ERR_INNER_NULLPTR, "aclnnConvolutionBackwardGetWorkspaceSize",
                     "validation is not implemented yet");
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
