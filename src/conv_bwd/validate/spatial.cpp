// Spatial sizes of gradOutput against input, weight and the attributes.
//  * 3-D: CANN's V10 (SPEC §2.3): Y must be the forward-conv size of X (X/Y roles of §2.1), so a transposed call
//    accepts any gradOutput size that some outputPadding in [0, stride) would give.
//  * 1-D/2-D: CANN checks nothing here; we reject an inconsistent gradOutput (issue 2, Q3) with 161002. The
//    expected size is the forward-conv output for transposed=false and, for transposed=true,
//    (In-1)*s - (pb+pe) + dil*(k-1) + outputPadding + 1 with the outputPadding given (exact match).
//  * 1-D/2-D batch: gradOutput.shape[0] must equal input.shape[0] (Q3). (3-D: see check_compute_path.)
// Our 1-D/2-D rules apply only on the non-empty path: the empty path (§2.5) has its own rules.
#include <string>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/validate/stages.hpp"
#include "conv_bwd/validate/text.hpp"
#include "core/checked.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

struct Size {
  bool overflow = false;
  bool kernel_too_big = false;  // the dilated kernel does not fit into the padded input
  int64_t value = 0;
};

// floor((in + pads - dil*(k-1) - 1) / s) + 1
Size forward_size(int64_t in, int64_t pads, int64_t k, int64_t dil, int64_t s) {
  Size r;
  int64_t reach = 0;
  int64_t span = 0;
  if (!checked_mul(k - 1, dil, &reach) || !checked_add(in, pads, &span) || !checked_sub(span, reach, &span) ||
      !checked_sub(span, 1, &span)) {
    r.overflow = true;
    return r;
  }
  if (span < 0) {
    r.kernel_too_big = true;
    return r;
  }
  r.value = span / s + 1;
  return r;
}

// (in-1)*s - pads + dil*(k-1) + op + 1
Size transposed_size(int64_t in, int64_t pads, int64_t k, int64_t dil, int64_t s, int64_t op) {
  Size r;
  int64_t v = 0;
  int64_t reach = 0;
  r.overflow = !checked_mul(in - 1, s, &v) || !checked_sub(v, pads, &v) || !checked_mul(k - 1, dil, &reach) ||
               !checked_add(v, reach, &v) || !checked_add(v, op, &v) || !checked_add(v, 1, &v);
  r.value = v;
  return r;
}

std::string attrs_text(const Call &call) {
  return "stride " + ints_text(call.stride()) + ", padding " + ints_text(call.padding()) + ", dilation " +
         ints_text(call.dilation()) + (call.transposed() ? ", outputPadding " + ints_text(call.output_padding()) : "");
}

std::string context_text(const Call &call) {
  return "input " + ints_text(call.shape(kInput)) + ", weight " + ints_text(call.shape(kWeight)) + ", " +
         attrs_text(call);
}

int size_problem(const Call &call, const Size &size, int d) {
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
    const SpatialAttr a = spatial_attr(call, d);
    int64_t pads = 0;
    const bool ok = checked_add(a.pad_begin, a.pad_end, &pads);
    Size size = ok ? forward_size(call.shape(x)[2 + d], pads, call.shape(kWeight)[2 + d], a.dilation, a.stride)
                   : Size{true, false, 0};
    if (size.overflow || size.kernel_too_big) return size_problem(call, size, d);
    expected[2 + d] = size.value;
  }
  if (expected == call.shape(y)) return ACLNN_SUCCESS;
  return fail_invalid(std::string("the shape of ") + slot_name(y) + " should equal " + ints_text(expected) +
                      " for " + slot_name(x) + " " + ints_text(call.shape(x)) + ", weight " +
                      ints_text(call.shape(kWeight)) + ", " + attrs_text(call) + ", but got " +
                      ints_text(call.shape(y)) + ".");
}

// Q3: gradOutput's spatial dims for 1-D/2-D, computed forwards from input in both modes.
int check_1d_2d(const Call &call) {
  const Span<int64_t> in = call.shape(kInput);
  const Span<int64_t> w = call.shape(kWeight);
  std::vector<int64_t> expected = call.shape(kGradOutput).to_vector();
  for (int d = 0; d < call.dims - 2; ++d) {
    const SpatialAttr a = spatial_attr(call, d);
    int64_t pads = 0;
    Size size;
    if (!checked_add(a.pad_begin, a.pad_end, &pads)) {
      size.overflow = true;
    } else if (call.transposed()) {
      size = transposed_size(in[2 + d], pads, w[2 + d], a.dilation, a.stride, a.output_padding);
    } else {
      size = forward_size(in[2 + d], pads, w[2 + d], a.dilation, a.stride);
    }
    if (size.overflow || size.kernel_too_big) return size_problem(call, size, d);
    expected[2 + d] = size.value;
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
