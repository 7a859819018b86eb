// V12–V14 (docs/contract.md §2.3): what the real op rejects only once it builds its kernels (non-empty path).
//  V12: 3-D on a legacy product → 161002.
//  V13: A2/A3 native 3-D grouped weight gradient in FLOAT from FP16 arithmetic → 161002 (the 2-D re-routing
//       that turns it into 561103 upstream is not emulated, Q25).
//  V14: 950 gradBias outside {FLOAT16, FLOAT, BFLOAT16} → 561103.
// Also ours: a 3-D gradOutput whose batch differs from input's passes CANN's checker and fails in the kernel;
// we stop it here with the same kind of status (561103), since nothing could compute it.
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/validate/stages.hpp"
#include "conv_bwd/validate/text.hpp"
#include "core/dtype.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

int check_grouped_3d_weight_grad(const Call &call) {
  if (call.arch != ArchClass::kA2A3 || call.dims != 5 || !call.mask[1] || call.args.groups <= 1) {
    return ACLNN_SUCCESS;
  }
  if (call.args.gradWeight.dtype != ACL_FLOAT) return ACLNN_SUCCESS;
  if (call.args.cubeMathType == 2) {
    return fail_invalid("cubeMathType must be 0, 1 or 3 for a 3-D gradWeight of dtype FLOAT with groups " +
                        std::to_string(call.args.groups) + " > 1 on " + product_name(call.settings.product) +
                        ", but got 2 (USE_FP16).");
  }
  if (call.promoted == ACL_FLOAT16 || call.promoted == ACL_BF16) {
    return fail_invalid(std::string("a 3-D gradWeight of dtype FLOAT from ") + dtype_name(call.promoted) +
                        " inputs with groups " + std::to_string(call.args.groups) + " > 1 is not supported on " +
                        product_name(call.settings.product) + ".");
  }
  return ACLNN_SUCCESS;
}

}  // namespace

int check_compute_path(const Call &call) {
  if (call.dims == 5 && call.arch == ArchClass::kLegacy) {
    return fail_invalid(std::string("3-D convolution backward is not supported on ") +
                        product_name(call.settings.product) + " (npuArch " +
                        (call.settings.product == Product::kAscend910 ? "DAV_1001" : "DAV_2002") +
                        "); input shape " + ints_text(call.shape(kInput)) + ".");
  }
  if (int status = check_grouped_3d_weight_grad(call)) return status;
  if (call.arch == ArchClass::k950 && call.mask[2]) {
    aclDataType bias = call.args.gradBias.dtype;
    if (bias != ACL_FLOAT16 && bias != ACL_FLOAT && bias != ACL_BF16) {
      return fail_internal(std::string("gradBias dtype ") + dtype_name(bias) + " is not supported by the bias "
                           "reduction on Ascend950; expected FLOAT16, FLOAT or BFLOAT16.");
    }
  }
  if (call.dims == 5 && call.shape(kGradOutput)[0] != call.shape(kInput)[0]) {
    return fail_internal("the batch size of gradOutput " + ints_text(call.shape(kGradOutput)) +
                         " must equal the batch size of input " + ints_text(call.shape(kInput)) + ".");
  }
  return ACLNN_SUCCESS;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
