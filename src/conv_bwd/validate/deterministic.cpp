// V11 (docs/contract.md §2.3): with the process-level deterministic option on, the real op refuses grouped weight
// gradients on the archs it names (in practice 3-D on legacy products, which V12 rejects anyway).
#include <string>

#include "acl/acl_rt.h"
#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/validate/stages.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

int64_t deterministic_option() {
  int64_t value = 0;
  // Like the real op, a failed read counts as "off".
  if (aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &value) != ACL_SUCCESS) return 0;
  return value;
}

}  // namespace

int check_deterministic(const Call &call) {
  if (!call.mask[1]) return ACLNN_SUCCESS;
  const bool is950 = call.arch == ArchClass::k950;
  const bool dims_match = call.dims == 5 || (call.dims == 4 && is950);
  if (!dims_match || is950 || call.arch == ArchClass::kA2A3) return ACLNN_SUCCESS;
  if (call.args.groups <= 1 || deterministic_option() != 1) return ACLNN_SUCCESS;
  return fail_invalid("groups must be 1 in deterministic calculations on " +
                      std::string(product_name(call.settings.product)) + ", but got groups " +
                      std::to_string(call.args.groups) + " with ACL_OPT_DETERMINISTIC = 1.");
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
