// V5 (docs/contract.md §2.3): attribute values. The array lengths (CANN checks them later, in V8) are checked first
// here so no rule ever indexes past an array; every length or value failure is 161002 either way.
#include <string>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/validate/stages.hpp"
#include "conv_bwd/validate/text.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

bool length_fits(size_t length, int dims, bool four_allowed) {
  return length == static_cast<size_t>(dims - 2) || (four_allowed && dims == 4 && length == 4);
}

// The lengths follow input's rank; when gradOutput and weight agree on another rank that the list fits, input's
// rank is what is wrong (V8 would say so later).
std::string rank_root_cause(const Call &call, size_t length, bool four_allowed) {
  const int others = call.rank(kWeight);
  if (call.rank(kGradOutput) != others || others == call.dims || !length_fits(length, others, four_allowed)) return "";
  return "the dim of input " + ints_text(call.shape(kInput)) + " must equal the dim of gradOutput " +
         ints_text(call.shape(kGradOutput)) + " and weight " + ints_text(call.shape(kWeight)) + ", but got " +
         std::to_string(call.dims) + " and " + std::to_string(others) + ".";
}

int check_length(const Call &call, const char *name, Span<int64_t> values, bool four_allowed) {
  if (length_fits(values.size(), call.dims, four_allowed)) return ACLNN_SUCCESS;
  std::string expected = std::to_string(call.dims - 2);
  if (four_allowed && call.dims == 4) expected += " or 4";
  const std::string symptom = std::string("expected ") + name + " to have " + expected + " elements for a " +
                              std::to_string(call.dims) + "-dim input, but got " + std::to_string(values.size()) +
                              ": " + ints_text(values) + ".";
  const std::string root = rank_root_cause(call, values.size(), four_allowed);
  return fail_invalid(root.empty() ? symptom : with_root_cause(root, symptom));
}

int check_lengths(const Call &call) {
  if (int status = check_length(call, "stride", call.stride(), false)) return status;
  if (int status = check_length(call, "dilation", call.dilation(), false)) return status;
  if (int status = check_length(call, "padding", call.padding(), true)) return status;
  return check_length(call, "outputPadding", call.output_padding(), true);
}

int check_at_least(const char *name, Span<int64_t> values, int64_t minimum) {
  for (int64_t v : values) {
    if (v < minimum) {
      return fail_invalid(std::string("value of ") + name + " must be >= " + std::to_string(minimum) + ", but got " +
                          ints_text(values) + ".");
    }
  }
  return ACLNN_SUCCESS;
}

int check_output_padding(const Call &call) {
  const Span<int64_t> op = call.output_padding();
  if (!call.transposed()) {
    for (int64_t v : op) {
      if (v != 0) {
        return fail_invalid("value of outputPadding must be 0 when transposed is false, but got " + ints_text(op) +
                            ".");
      }
    }
    return ACLNN_SUCCESS;
  }
  if (int status = check_at_least("outputPadding", op, 0)) return status;
  // Only 3-D calls bound outputPadding by stride (docs/contract.md §6 Q12); the test is strict.
  if (call.dims == 5) {
    const Span<int64_t> stride = call.stride();
    for (size_t i = 0; i < op.size(); ++i) {
      if (op[i] >= stride[i]) {
        return fail_invalid("value of outputPadding must be less than stride for a transposed 3-D convolution, but "
                            "got outputPadding " + ints_text(op) + " and stride " + ints_text(stride) + ".");
      }
    }
  }
  return ACLNN_SUCCESS;
}

}  // namespace

int check_attributes(const Call &call) {
  if (int status = check_lengths(call)) return status;
  if (int status = check_at_least("stride", call.stride(), 1)) return status;
  if (int status = check_at_least("padding", call.padding(), 0)) return status;
  if (int status = check_at_least("dilation", call.dilation(), 1)) return status;
  if (int status = check_output_padding(call)) return status;
  if (call.args.groups < 1) {
    return fail_invalid("value of groups must be >= 1, but got " + std::to_string(call.args.groups) + ".");
  }
  return ACLNN_SUCCESS;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
