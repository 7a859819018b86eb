// The state shared by the validation stages of aclnnConvolutionBackwardGetWorkspaceSize: the arguments, the
// emulated product, and what earlier stages have established (rank, element counts, promoted dtype, path).
#pragma once

#include <cstdint>
#include <string>

#include "acl/acl_base.h"
#include "conv_bwd/validate/validate.hpp"
#include "core/config.hpp"
#include "core/span.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

constexpr const char *kApi = "aclnnConvolutionBackwardGetWorkspaceSize";

// The six tensors in CANN's checking order.
enum Slot { kGradOutput = 0, kInput, kWeight, kGradInput, kGradWeight, kGradBias, kSlotCount };

inline const char *slot_name(int slot) {
  static const char *const names[kSlotCount] = {"gradOutput", "input",      "weight",
                                                "gradInput",  "gradWeight", "gradBias"};
  return names[slot];
}

struct Call {
  explicit Call(const Args &a) : args(a) {}

  const Args &args;
  Settings settings;
  ArchClass arch = ArchClass::kA2A3;

  // Known after V1.
  bool mask[3] = {false, false, false};
  // Known after V4: rank of `input` (3, 4 or 5).
  int dims = 0;
  // Known after the view checks: element count of each present tensor (0 for absent ones).
  int64_t numel[kSlotCount] = {0, 0, 0, 0, 0, 0};
  // Known after V6.
  aclDataType promoted = ACL_FLOAT;
  // V7: input or weight is empty on A2/A3/950, so V8.3–V10 are skipped.
  bool short_circuit = false;

  const TensorView &tensor(int slot) const {
    const TensorView *const all[kSlotCount] = {&args.gradOutput, &args.input,      &args.weight,
                                               &args.gradInput,  &args.gradWeight, &args.gradBias};
    return *all[slot];
  }
  Span<int64_t> shape(int slot) const { return tensor(slot).shape; }
  int rank(int slot) const { return static_cast<int>(tensor(slot).shape.size()); }

  bool transposed() const { return args.transposed; }
  // X plays the forward-conv input, Y the forward-conv output (docs/contract.md §2.1).
  int x_slot() const { return args.transposed ? kGradOutput : kInput; }
  int y_slot() const { return args.transposed ? kInput : kGradOutput; }

  // Any of input, weight, gradOutput holds no element: the empty-tensor path (docs/contract.md §2.2 F4).
  bool any_input_empty() const { return numel[kGradOutput] == 0 || numel[kInput] == 0 || numel[kWeight] == 0; }

  Span<int64_t> stride() const { return args.stride.values; }
  Span<int64_t> padding() const { return args.padding.values; }
  Span<int64_t> dilation() const { return args.dilation.values; }
  Span<int64_t> output_padding() const { return args.outputPadding.values; }
};

// Status helpers: every message names the API; callers put parameter, value and rule in `detail`.
int fail_null(const std::string &detail);      // 161001
int fail_invalid(const std::string &detail);   // 161002
int fail_internal(const std::string &detail);  // 561103

}  // namespace conv_bwd
}  // namespace aclnn_cpu
