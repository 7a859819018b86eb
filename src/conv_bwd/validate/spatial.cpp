// Spatial sizes of gradOutput against input, weight and the attributes.
//  * 3-D: CANN's V10 (docs/contract.md §2.3): Y must be the forward-conv size of X (X/Y roles of §2.1), so a transposed
// call    accepts any gradOutput size that some outputPadding in [0, stride) would give.
//  * 1-D/2-D: CANN checks nothing here; we reject an inconsistent gradOutput (docs/contract.md §6 Q3) with 161002. The
//    expected size is the forward-conv output for transposed=false and, for transposed=true, the transposed one
//    with the outputPadding given (exact match; formulas in conv_bwd/output_size.hpp).
//  * 1-D/2-D batch: gradOutput.shape[0] must equal input.shape[0] (Q3). (3-D: see check_compute_path.)
// Our 1-D/2-D rules apply only on the non-empty path: the empty path (§2.5) has its own rules.
#include <string>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/output_size.hpp"
#include "conv_bwd/validate/stages.hpp"
#include "conv_bwd/validate/text.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// The sizes and attributes of spatial dim d, the formula starting from `slot`'s size.
DimSizes dim_sizes(const Call &call, int slot, int d) {
  DimSizes sizes;
  sizes.in = call.shape(slot)[2 + d];
  sizes.kernel = call.shape(kWeight)[2 + d];
  sizes.attr = spatial_attr(call, d);
  return sizes;
}

std::string attrs_text(const Call &call) {
  return "stride " + ints_text(call.stride()) + ", padding " + ints_text(call.padding()) + ", dilation " +
         ints_text(call.dilation()) + (call.transposed() ? ", outputPadding " + ints_text(call.output_padding()) : "");
}

std::string context_text(const Call &call) {
  return "input " + ints_text(call.shape(kInput)) + ", weight " + ints_text(call.shape(kWeight)) + ", " +
         attrs_text(call);
}

int size_problem(const Call &call, const OutputSize &size, int d) {
  if (size.overflow) {
    return fail_invalid(std::string("the output size along ") + spatial_name(call.dims, d) + " overflows int64 with " +
                        context_text(call) + ".");
  }
  return fail_invalid(std::string("along ") + spatial_name(call.dims, d) +
                      " the dilated kernel is larger than the padded " + slot_name(call.x_slot()) + " (" +
                      ints_text(call.shape(call.x_slot())) + ", weight " + ints_text(call.shape(kWeight)) + ", " +
                      attrs_text(call) + ").");
}

// V10: Y's spatial dims must be the forward-conv sizes of X's (symmetric 3-D padding).
int check_3d(const Call &call) {
  const int x = call.x_slot();
  const int y = call.y_slot();
  std::vector<int64_t> expected = call.shape(y).to_vector();
  for (int d = 0; d < 3; ++d) {
    const OutputSize size = forward_output_size(dim_sizes(call, x, d));
    if (size.overflow || size.kernel_too_big) return size_problem(call, size, d);
    expected[2 + d] = static_cast<int64_t>(size.exact);
  }
  if (expected == call.shape(y)) return ACLNN_SUCCESS;
  return fail_invalid(std::string("the shape of ") + slot_name(y) + " should equal " + ints_text(expected) +
                      " for " + slot_name(x) + " " + ints_text(call.shape(x)) + ", weight " +
                      ints_text(call.shape(kWeight)) + ", " + attrs_text(call) + ", but got " +
                      ints_text(call.shape(y)) + ".");
}

// Q3: gradOutput's spatial dims for 1-D/2-D, computed forwards from input in both modes.
int check_1d_2d(const Call &call) {
  std::vector<int64_t> expected = call.shape(kGradOutput).to_vector();
  for (int d = 0; d < call.dims - 2; ++d) {
    const DimSizes sizes = dim_sizes(call, kInput, d);
    const OutputSize size = call.transposed() ? transposed_output_size(sizes) : forward_output_size(sizes);
    if (size.overflow || size.kernel_too_big) return size_problem(call, size, d);
    expected[2 + d] = static_cast<int64_t>(size.exact);
  }
  if (expected == call.shape(kGradOutput)) return ACLNN_SUCCESS;
  return fail_invalid("the shape of gradOutput should equal " + ints_text(expected) + " for " + context_text(call) +
                      ", but got " + ints_text(call.shape(kGradOutput)) + ".");
}

}  // namespace

int check_spatial(const Call &call) {
  if (call.dims == 5) return check_3d(call);
  if (call.any_input_empty()) return ACLNN_SUCCESS;
  if (call.shape(kGradOutput)[0] != call.shape(kInput)[0]) {
    return fail_invalid("the batch size of gradOutput " + ints_text(call.shape(kGradOutput)) +
                        " must equal the batch size of input " + ints_text(call.shape(kInput)) + ".");
  }
  return check_1d_2d(call);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
