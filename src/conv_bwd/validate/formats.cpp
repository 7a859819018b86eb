// V4 (docs/contract.md §2.3): the storage format each view rank allows; ranks other than 3/4/5 are rejected here.
// gradBias must be ND for transposed=false on A2/A3 and 950.
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/validate/stages.hpp"
#include "conv_bwd/validate/text.hpp"
#include "core/dtype.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

bool format_fits_rank(aclFormat format, size_t rank) {
  switch (rank) {
    case 3: return format == ACL_FORMAT_ND || format == ACL_FORMAT_NCL;  // ND is read as NCL
    case 4: return format == ACL_FORMAT_NCHW;
    case 5: return format == ACL_FORMAT_NCDHW;
    default: return false;
  }
}

int check_format(const Call &call, int slot) {
  const TensorView &t = call.tensor(slot);
  size_t rank = t.shape.size();
  if (rank < 3 || rank > 5) {
    return fail_invalid(std::string("invalid shape dim of ") + slot_name(slot) + ": expected 3 or 4 or 5 dims, but "
                        "got " + std::to_string(rank) + " (shape " + ints_text(t.shape) + ").");
  }
  if (format_fits_rank(t.format, rank)) return ACLNN_SUCCESS;
  const char *expected = rank == 3 ? "ND or NCL" : rank == 4 ? "NCHW" : "NCDHW";
  return fail_invalid(std::string("the format of ") + slot_name(slot) + " with " + std::to_string(rank) +
                      " dims (shape " + ints_text(t.shape) + ") must be " + expected + ", but got " +
                      format_name(t.format) + ".");
}

}  // namespace

int check_formats(Call *call) {
  for (int slot : {kGradOutput, kInput, kWeight, kGradInput, kGradWeight}) {
    if (!call->tensor(slot).given) continue;
    if (int status = check_format(*call, slot)) return status;
  }
  call->dims = call->rank(kInput);

  const TensorView &bias = call->args.gradBias;
  if (bias.given && !call->transposed() && call->arch != ArchClass::kLegacy && bias.format != ACL_FORMAT_ND) {
    return fail_invalid(std::string("the format of gradBias must be ND when transposed is false on ") +
                        product_name(call->settings.product) + ", but got " + format_name(bias.format) + ".");
  }
  return ACLNN_SUCCESS;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
