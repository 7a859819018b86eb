// V9 (docs/contract.md §2.3): channel counts against weight and groups, with the X/Y roles of docs/contract.md §2.1
// (X = input, Y = gradOutput; swapped when transposed). Plus, on the non-empty path, our rule that
// weight.shape[0] is a multiple of groups (docs/contract.md §6 Q4; CANN checks it only on the empty path).
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/validate/stages.hpp"
#include "conv_bwd/validate/text.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

std::string channel_text(const Call &call, int slot) {
  return std::string(slot_name(slot)) + ".shape[1] = " + std::to_string(call.shape(slot)[1]) + " (shape " +
         ints_text(call.shape(slot)) + ")";
}

int check_legacy_depthwise(const Call &call, int64_t x_channels, int64_t y_channels, int64_t groups) {
  if (call.arch != ArchClass::kLegacy || x_channels != groups) return ACLNN_SUCCESS;
  if (y_channels >= groups && y_channels % groups == 0) return ACLNN_SUCCESS;
  return fail_invalid("when " + channel_text(call, call.x_slot()) + " equals groups " + std::to_string(groups) +
                      ", " + channel_text(call, call.y_slot()) + " must be a positive multiple of groups on " +
                      product_name(call.settings.product) + ".");
}

}  // namespace

Fault channel_fault(const Call &call, int about) {
  const int x = call.x_slot();
  const int y = call.y_slot();
  const int64_t x_channels = call.shape(x)[1];
  const Span<int64_t> w = call.shape(kWeight);
  const bool x_counts = about < 0 || about == x;
  if ((about < 0 || about == y) && call.shape(y)[1] != w[0]) {
    return {y, channel_text(call, y) + " must equal weight.shape[0] = " + std::to_string(w[0]) + " (weight shape " +
                   ints_text(w) + ")."};
  }
  if (x_counts && (w[1] == 0 || x_channels % w[1] != 0)) {
    return {x, channel_text(call, x) + " must be a multiple of weight.shape[1] = " + std::to_string(w[1]) +
                   " (weight shape " + ints_text(w) + "), which must not be 0."};
  }
  if (x_counts && x_channels / w[1] != call.args.groups) {
    return {x, channel_text(call, x) + " divided by weight.shape[1] = " + std::to_string(w[1]) +
                   " must equal groups, but got " + std::to_string(x_channels / w[1]) + " and groups " +
                   std::to_string(call.args.groups) + "."};
  }
  return {};
}

int check_channels(const Call &call) {
  const Fault fault = channel_fault(call, -1);
  if (fault.slot >= 0) return fail_invalid(fault.text);
  const int64_t x_channels = call.shape(call.x_slot())[1];
  const int64_t y_channels = call.shape(call.y_slot())[1];
  const Span<int64_t> w = call.shape(kWeight);
  const int64_t groups = call.args.groups;
  if (int status = check_legacy_depthwise(call, x_channels, y_channels, groups)) return status;
  if (!call.any_input_empty() && w[0] % groups != 0) {
    return fail_invalid("weight.shape[0] = " + std::to_string(w[0]) + " (weight shape " + ints_text(w) +
                        ") must be a multiple of groups " + std::to_string(groups) + ".");
  }
  return ACLNN_SUCCESS;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
