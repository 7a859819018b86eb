// V7 and V8 (docs/contract.md §2.3): the empty short-circuit of A2/A3/950, then ranks and output shapes. V8's
// array-length checks already ran at the start of V5.
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/validate/stages.hpp"
#include "conv_bwd/validate/text.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

int check_same_rank(const Call &call, int a, int b) {
  if (call.rank(a) == call.rank(b)) return ACLNN_SUCCESS;
  return fail_invalid(std::string("the dim of ") + slot_name(a) + " " + ints_text(call.shape(a)) +
                      " must equal the dim of " + slot_name(b) + " " + ints_text(call.shape(b)) + ", but got " +
                      std::to_string(call.rank(a)) + " and " + std::to_string(call.rank(b)) + ".");
}

int check_same_shape(const Call &call, int output, int source) {
  if (call.shape(output) == call.shape(source)) return ACLNN_SUCCESS;
  return fail_invalid(std::string("Expected tensor for ") + slot_name(output) + " to have same size as tensor for " +
                      slot_name(source) + ", but " + ints_text(call.shape(output)) + " does not equal " +
                      ints_text(call.shape(source)) + ".");
}

// gradBias is measured against gradOutput's channels; when those disagree with weight (V9, checked later),
// gradOutput is the tensor to name first.
int check_grad_bias_shape(const Call &call) {
  const Span<int64_t> bias = call.shape(kGradBias);
  const int64_t channels = call.shape(kGradOutput)[1];
  if (bias.size() == 1 && bias[0] == channels) return ACLNN_SUCCESS;
  const std::string symptom = "gradBias must be 1-D with gradOutput.shape[1] = " + std::to_string(channels) +
                              " elements, but got shape " + ints_text(bias) + ".";
  const Fault root = channel_fault(call, kGradOutput);
  return fail_invalid(root.slot < 0 ? symptom : with_root_cause(root.text, symptom));
}

}  // namespace

bool empty_short_circuit(const Call &call) {
  if (call.arch == ArchClass::kLegacy) return false;
  return call.numel[kInput] == 0 || call.numel[kWeight] == 0;
}

int check_shapes(const Call &call) {
  if (int status = check_same_rank(call, kGradOutput, kInput)) return status;
  if (int status = check_same_rank(call, kInput, kWeight)) return status;
  for (int slot : {kGradOutput, kWeight}) {
    if (call.numel[slot] == 0) {
      return fail_invalid(std::string("do not support empty tensors: ") + slot_name(slot) + " has shape " +
                          ints_text(call.shape(slot)) + (call.arch == ArchClass::kLegacy
                                                             ? "."
                                                             : " while input and weight are not empty."));
    }
  }
  if (call.args.gradInput.given) {
    if (int status = check_same_shape(call, kGradInput, kInput)) return status;
  }
  if (call.args.gradWeight.given) {
    if (int status = check_same_shape(call, kGradWeight, kWeight)) return status;
  }
  if (call.args.gradBias.given) {
    if (int status = check_grad_bias_shape(call)) return status;
  }
  return ACLNN_SUCCESS;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
