// E1–E3 (docs/contract.md §2.5): the empty-tensor path, entered when input, weight or gradOutput holds no element. All
// failures are 161002 (a NULL biasSizes too). E3 applies to A2/A3 and 950 only.
// Deviation (docs/contract.md §6 Q24): the padded-size test uses each dim's begin+end pads, not CANN's padding[i-2]
// quirk.
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/validate/stages.hpp"
#include "conv_bwd/validate/text.hpp"
#include "core/checked.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

int check_bias_sizes(const Call &call) {
  const IntArrayView &sizes = call.args.biasSizes;
  if (!sizes.given) {
    return fail_invalid("biasSizes is nullptr, expected not nullptr when outputMask[2] is true and a tensor is "
                        "empty.");
  }
  const Span<int64_t> w = call.shape(kWeight);
  int64_t channels = call.shape(kGradOutput)[1];
  const char *source = "gradOutput.shape[1]";
  if (call.transposed()) {
    source = "weight.shape[1] * groups";
    if (!checked_mul(w[1], call.args.groups, &channels)) {
      return fail_invalid("weight.shape[1] * groups overflows int64 (weight shape " + ints_text(w) + ").");
    }
  }
  if (sizes.values.size() == 1 && sizes.values[0] == channels) return ACLNN_SUCCESS;
  return fail_invalid("biasSizes must be [" + std::to_string(channels) + "] (" + source + "), but got " +
                      ints_text(sizes.values) + ".");
}

int check_empty_input(const Call &call) {
  const Span<int64_t> in = call.shape(kInput);
  if (in[0] == 0 || in[1] == 0) return ACLNN_SUCCESS;
  return fail_invalid("when a tensor is empty and outputMask[0] is true, input must have N or C equal to 0, but got "
                      "input shape " + ints_text(in) + ".");
}

int check_empty_channels(const Call &call) {
  const Span<int64_t> w = call.shape(kWeight);
  const int64_t groups = call.args.groups;
  if (w[0] % groups != 0) {
    return fail_invalid("weight.shape[0] must be a multiple of groups " + std::to_string(groups) +
                        ", but got weight shape " + ints_text(w) + ".");
  }
  if (call.transposed() && call.shape(kInput)[0] == 0) return ACLNN_SUCCESS;
  const int x = call.x_slot();
  const int64_t x_channels = call.shape(x)[1];
  if (x_channels == 0 && w[1] == 0) return ACLNN_SUCCESS;
  if (w[1] == 0 || x_channels % w[1] != 0 || x_channels / w[1] != groups) {
    return fail_invalid(std::string(slot_name(x)) + ".shape[1] = " + std::to_string(x_channels) +
                        " must equal weight.shape[1] * groups = " + std::to_string(w[1]) + " * " +
                        std::to_string(groups) + " (weight shape " + ints_text(w) + ").");
  }
  return ACLNN_SUCCESS;
}

int check_empty_transposed(const Call &call) {
  const Span<int64_t> w = call.shape(kWeight);
  const int64_t in_channels = call.shape(kInput)[1];
  if (w[0] > 0 && w[0] == in_channels) return ACLNN_SUCCESS;
  return fail_invalid("for transposed=true weight.shape[0] must be positive and equal input.shape[1] = " +
                      std::to_string(in_channels) + ", but got weight shape " + ints_text(w) + ".");
}

int check_empty_kernel_fits(const Call &call) {
  const Span<int64_t> in = call.shape(kInput);
  const Span<int64_t> w = call.shape(kWeight);
  for (int d = 0; d < call.dims - 2; ++d) {
    const SpatialAttr a = spatial_attr(call, d);
    int64_t padded = 0;
    int64_t reach = 0;
    bool ok = checked_add(in[2 + d], a.pad_begin, &padded) && checked_add(padded, a.pad_end, &padded) &&
              checked_mul(w[2 + d] - 1, a.dilation, &reach) && checked_add(reach, 1, &reach);
    if (!ok) {
      return fail_invalid(std::string("the padded input or dilated kernel size along ") + spatial_name(call.dims, d) +
                          " overflows int64 (input " + ints_text(in) + ", weight " + ints_text(w) + ").");
    }
    if (padded < reach) {
      return fail_invalid(std::string("along ") + spatial_name(call.dims, d) + " the padded input size " +
                          std::to_string(padded) + " is smaller than the dilated kernel size " + std::to_string(reach) +
                          " (input " + ints_text(in) + ", weight " + ints_text(w) + ", padding " +
                          ints_text(call.padding()) + ", dilation " + ints_text(call.dilation()) + ").");
    }
  }
  return ACLNN_SUCCESS;
}

// E3. Array lengths were already checked in V5.
int check_empty_shapes(const Call &call) {
  // CANN skipped V8 on this path; we still need weight and input to have the same rank to index them.
  if (call.rank(kWeight) != call.dims) {
    return fail_invalid("the dim of weight " + ints_text(call.shape(kWeight)) + " must equal the dim of input " +
                        ints_text(call.shape(kInput)) + ".");
  }
  if (int status = check_empty_channels(call)) return status;
  return call.transposed() ? check_empty_transposed(call) : check_empty_kernel_fits(call);
}

}  // namespace

int check_empty_path(const Call &call) {
  if (call.mask[2]) {
    if (int status = check_bias_sizes(call)) return status;
  }
  if (call.mask[0]) {
    if (int status = check_empty_input(call)) return status;
  }
  if (call.arch == ArchClass::kLegacy) return ACLNN_SUCCESS;
  return check_empty_shapes(call);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
