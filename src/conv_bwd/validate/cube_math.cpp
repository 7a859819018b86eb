// V6 (docs/contract.md §2.3): cubeMathType must be 0..3 (4, USE_FP32_ADD, was dropped upstream: Q7), and the legacy
// products' cube unit has no FP32/BF16 mode for some of those values.
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/validate/stages.hpp"
#include "core/dtype.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// True when a legacy product cannot honour cubeMathType `cmt` for promoted dtype `p`.
bool legacy_unsupported(int cmt, aclDataType p) {
  if (p == ACL_BF16) return true;                      // no BF16 cube mode at all
  if (p == ACL_FLOAT) return cmt == 0 || cmt == 3;     // KEEP_DTYPE / USE_HF32 would need an FP32 cube
  return false;
}

}  // namespace

int check_cube_math(Call *call) {
  const int cmt = call->args.cubeMathType;
  if (cmt < 0 || cmt > 3) {
    return fail_invalid("cubeMathType only supports {0: KEEP_DTYPE, 1: ALLOW_FP32_DOWN_PRECISION, 2: USE_FP16, "
                        "3: USE_HF32}, but got " + std::to_string(cmt) + ".");
  }
  call->promoted =
      promote_dtype(promote_dtype(call->args.gradOutput.dtype, call->args.input.dtype), call->args.weight.dtype);
  if (call->arch == ArchClass::kLegacy && legacy_unsupported(cmt, call->promoted)) {
    return fail_invalid(std::string("soc version ") + product_name(call->settings.product) +
                        " does not support bf16/fp32 in the cube unit: the promoted dtype is " +
                        dtype_name(call->promoted) + " with cubeMathType " + std::to_string(cmt) +
                        "; please change cubeMathType or the input dtype.");
  }
  return ACLNN_SUCCESS;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
