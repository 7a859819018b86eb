// V3 (docs/contract.md §2.3, 950 only): which combinations of HIFLOAT8 / FLOAT8_E4M3FN tensors the real op accepts.
// With both gradInput and gradWeight passed, 8-bit only survives for transposed=true with outputMask[0].
#include <string>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/validate/stages.hpp"
#include "conv_bwd/validate/text.hpp"
#include "core/dtype.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

std::string dtype_of(const Call &call, int slot) { return dtype_name(call.tensor(slot).dtype); }

// The present tensors among `slots`.
std::vector<int> present(const Call &call, std::initializer_list<int> slots) {
  std::vector<int> out;
  for (int slot : slots) {
    if (call.tensor(slot).given) out.push_back(slot);
  }
  return out;
}

bool any_has(const Call &call, const std::vector<int> &slots, aclDataType dtype) {
  for (int slot : slots) {
    if (call.tensor(slot).dtype == dtype) return true;
  }
  return false;
}

bool any_8bit(const Call &call, const std::vector<int> &slots) {
  for (int slot : slots) {
    if (is_8bit(call.tensor(slot).dtype)) return true;
  }
  return false;
}

// "If one of them is T, all of them must be T."
int all_or_none(const Call &call, const std::vector<int> &slots, aclDataType dtype, const char *why) {
  if (!any_has(call, slots, dtype)) return ACLNN_SUCCESS;
  for (int slot : slots) {
    if (call.tensor(slot).dtype != dtype) {
      return fail_invalid(std::string(why) + ": when one of the tensors is " + dtype_name(dtype) +
                          ", all of them must be, but " + slot_name(slot) + " is " + dtype_of(call, slot) + ".");
    }
  }
  return ACLNN_SUCCESS;
}

// Both gradient outputs present with any 8-bit tensor: only the transposed gradInput path supports 8-bit.
int intercept(const Call &call, const char *why) {
  if (call.transposed() && call.mask[0]) return ACLNN_SUCCESS;
  if (!call.args.gradInput.given || !call.args.gradWeight.given) return ACLNN_SUCCESS;
  std::vector<int> five = {kGradOutput, kInput, kWeight, kGradInput, kGradWeight};
  if (!any_8bit(call, five)) return ACLNN_SUCCESS;
  return fail_invalid(std::string(why) + ": HIFLOAT8/FLOAT8_E4M3FN are only supported for transposed=true with "
                      "outputMask[0]=true when both gradInput and gradWeight are passed; got transposed=" +
                      (call.transposed() ? "true" : "false") + ", gradOutput " + dtype_of(call, kGradOutput) +
                      ", input " + dtype_of(call, kInput) + ", weight " + dtype_of(call, kWeight) + ".");
}

int check_grad_input_8bit(const Call &call) {
  const char *why = "gradInput with 8-bit dtypes";
  if (int status = intercept(call, why)) return status;
  std::vector<int> slots = present(call, {kGradOutput, kInput, kWeight, kGradInput, kGradBias});
  if (int status = all_or_none(call, slots, ACL_HIFLOAT8, why)) return status;
  return all_or_none(call, slots, ACL_FLOAT8_E4M3FN, why);
}

int check_grad_weight_8bit(const Call &call) {
  const char *why = "gradWeight with 8-bit dtypes";
  if (int status = intercept(call, why)) return status;
  std::vector<int> slots = present(call, {kGradOutput, kInput, kWeight, kGradBias});
  if (int status = all_or_none(call, slots, ACL_HIFLOAT8, why)) return status;
  if (any_has(call, slots, ACL_HIFLOAT8) && call.args.gradWeight.dtype != ACL_FLOAT) {
    return fail_invalid(std::string(why) + ": with HIFLOAT8 inputs gradWeight must be FLOAT, but got " +
                        dtype_of(call, kGradWeight) + ".");
  }
  for (int slot : present(call, {kGradOutput, kInput, kWeight, kGradInput, kGradWeight, kGradBias})) {
    if (call.tensor(slot).dtype == ACL_FLOAT8_E4M3FN) {
      return fail_invalid(std::string(why) + ": FLOAT8_E4M3FN is not supported when outputMask[1] is true, but " +
                          slot_name(slot) + " is FLOAT8_E4M3FN.");
    }
  }
  if (!is_8bit(call.args.input.dtype)) return ACLNN_SUCCESS;
  if (call.transposed()) {
    for (int64_t op : call.output_padding()) {
      if (op != 0) {
        return fail_invalid(std::string(why) + ": with an 8-bit input and transposed=true, outputPadding must be "
                            "all 0, but got " + ints_text(call.output_padding()) + ".");
      }
    }
  }
  if (call.args.groups != 1) {
    return fail_invalid(std::string(why) + ": with an 8-bit input, groups must be 1, but got " +
                        std::to_string(call.args.groups) + ".");
  }
  return ACLNN_SUCCESS;
}

}  // namespace

int check_8bit(const Call &call) {
  if (call.arch != ArchClass::k950) return ACLNN_SUCCESS;
  if (call.mask[0]) {
    if (int status = check_grad_input_8bit(call)) return status;
  }
  if (call.mask[1]) {
    if (int status = check_grad_weight_8bit(call)) return status;
  }
  return ACLNN_SUCCESS;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
