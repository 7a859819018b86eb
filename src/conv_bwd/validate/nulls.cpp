// V1 (docs/contract.md §2.3): CANN's null checks. All failures are 161001, including a wrong outputMask length (Q2).
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/validate/stages.hpp"
#include "conv_bwd/validate/text.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

int null_argument(const char *kind, const char *name) {
  return fail_null(std::string("expected ") + kind + " but got null for argument " + name + ".");
}

}  // namespace

int check_nulls(Call *call) {
  const Args &a = call->args;
  // biasSizes is not checked here: NULL is fine unless the empty path needs it (E1, Q1).
  if (!a.gradOutput.given) return null_argument("a proper Tensor", "gradOutput");
  if (!a.input.given) return null_argument("a proper Tensor", "input");
  if (!a.weight.given) return null_argument("a proper Tensor", "weight");
  if (!a.stride.given) return null_argument("a value of type List[int]", "stride");
  if (!a.padding.given) return null_argument("a value of type List[int]", "padding");
  if (!a.dilation.given) return null_argument("a value of type List[int]", "dilation");
  if (!a.outputPadding.given) return null_argument("a value of type List[int]", "outputPadding");
  if (!a.outputMask.given) return null_argument("a value of type List[bool]", "outputMask");

  const Span<uint8_t> mask = a.outputMask.values;
  if (mask.size() != 3) {
    return fail_null("outputMask should have 3 elements [gradInput, gradWeight, gradBias], but got " +
                     std::to_string(mask.size()) + ": " + bools_text(mask) + ".");
  }
  for (int i = 0; i < 3; ++i) call->mask[i] = mask[i] != 0;

  const TensorView *const outputs[3] = {&a.gradInput, &a.gradWeight, &a.gradBias};
  for (int i = 0; i < 3; ++i) {
    if (call->mask[i] && !outputs[i]->given) {
      return fail_null(std::string("outputMask[") + std::to_string(i) + "] is true, so " +
                       slot_name(kGradInput + i) + " must not be null.");
    }
  }
  return ACLNN_SUCCESS;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
