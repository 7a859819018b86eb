// Ours, beyond CANN (runs right after V4): every present view is well formed before any rule computes with its
// shape — one stride per dim, no negative dim, and an element count that fits int64. Failures are 161002.
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/validate/stages.hpp"
#include "conv_bwd/validate/text.hpp"
#include "core/checked.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

int check_view(const Call &call, int slot, int64_t *numel) {
  const TensorView &t = call.tensor(slot);
  const Span<int64_t> shape = t.shape;
  if (t.strides.size() != shape.size()) {
    return fail_invalid(std::string(slot_name(slot)) + " has " + std::to_string(t.strides.size()) +
                        " strides for a view of " + std::to_string(shape.size()) + " dims (shape " + ints_text(shape) +
                        "); expected one stride per dim.");
  }
  for (int64_t dim : shape) {
    if (dim < 0) {
      return fail_invalid(std::string("the shape of ") + slot_name(slot) + " " + ints_text(shape) +
                          " has a negative dim; every dim must be >= 0.");
    }
  }
  // A zero dim makes the view empty whatever the other dims are; otherwise the product must fit in int64.
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim == 0) {
      *numel = 0;
      return ACLNN_SUCCESS;
    }
  }
  for (int64_t dim : shape) {
    if (!checked_mul(count, dim, &count)) {
      return fail_invalid(std::string("the element count of ") + slot_name(slot) + " with shape " +
                          ints_text(shape) + " overflows int64.");
    }
  }
  *numel = count;
  return ACLNN_SUCCESS;
}

}  // namespace

int check_views(Call *call) {
  for (int slot = 0; slot < kSlotCount; ++slot) {
    call->numel[slot] = 0;
    if (!call->tensor(slot).given) continue;
    if (int status = check_view(*call, slot, &call->numel[slot])) return status;
  }
  return ACLNN_SUCCESS;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
