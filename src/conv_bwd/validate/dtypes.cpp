// V2 (docs/contract.md §2.3): every tensor's dtype must be in the emulated product's list; on the 950 the outputs must
// also match their inputs. Also the dtype promotion of docs/contract.md §2.1.
#include <algorithm>
#include <string>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/validate/stages.hpp"
#include "conv_bwd/validate/text.hpp"
#include "core/dtype.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

std::vector<aclDataType> supported_dtypes(const Call &call) {
  switch (call.arch) {
    case ArchClass::kLegacy:
      return {ACL_FLOAT, ACL_FLOAT16};
    case ArchClass::kA2A3:
      return {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
    case ArchClass::k950:
      // The code's lists (docs/contract.md §6 Q5): FLOAT8_E4M3FN only for transposed=false.
      if (call.transposed()) return {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_HIFLOAT8};
      return {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_HIFLOAT8, ACL_FLOAT8_E4M3FN};
  }
  return {};
}

int check_listed(const Call &call, int slot, const std::vector<aclDataType> &allowed) {
  aclDataType dtype = call.tensor(slot).dtype;
  if (std::find(allowed.begin(), allowed.end(), dtype) != allowed.end()) return ACLNN_SUCCESS;
  return fail_invalid(std::string("Tensor ") + slot_name(slot) + " not implemented for " + dtype_name(dtype) +
                      " on " + product_name(call.settings.product) + ", should be in dtype support list " +
                      dtypes_text(allowed) + ".");
}

int check_same(const Call &call, int output, int source) {
  aclDataType out = call.tensor(output).dtype;
  aclDataType in = call.tensor(source).dtype;
  if (out == in) return ACLNN_SUCCESS;
  return fail_invalid(std::string("the dtypes of [") + slot_name(output) + ", " + slot_name(source) +
                      "] must be the same on " + product_name(call.settings.product) + ", but got [" +
                      dtype_name(out) + ", " + dtype_name(in) + "].");
}

}  // namespace

bool is_8bit(aclDataType dtype) { return dtype == ACL_HIFLOAT8 || dtype == ACL_FLOAT8_E4M3FN; }

aclDataType promote_dtype(aclDataType a, aclDataType b) {
  if (a == b) return a;
  // Mixes with an 8-bit type have no table entry; CANN's lookup yields 0 = FLOAT (docs/contract.md §6 Q16).
  // FLOAT with FLOAT16/BF16 and FLOAT16 with BF16 all promote to FLOAT.
  return ACL_FLOAT;
}

int check_dtypes(const Call &call) {
  const std::vector<aclDataType> allowed = supported_dtypes(call);
  const bool is950 = call.arch == ArchClass::k950;
  for (int slot : {kGradOutput, kInput, kWeight}) {
    if (int status = check_listed(call, slot, allowed)) return status;
  }
  if (call.args.gradInput.given) {
    if (int status = check_listed(call, kGradInput, allowed)) return status;
    if (is950) {
      if (int status = check_same(call, kGradInput, kInput)) return status;
    }
  }
  if (call.args.gradWeight.given) {
    if (int status = check_listed(call, kGradWeight, allowed)) return status;
    // An 8-bit weight gets its gradient in a wider type (FLOAT, V3).
    if (is950 && !is_8bit(call.args.weight.dtype)) {
      if (int status = check_same(call, kGradWeight, kWeight)) return status;
    }
  }
  if (call.args.gradBias.given) {
    if (int status = check_listed(call, kGradBias, allowed)) return status;
    if (is950) {
      if (int status = check_same(call, kGradBias, kGradOutput)) return status;
    }
  }
  return ACLNN_SUCCESS;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
