// Strict mode (ACLNN_CPU_STRICT=1): also reject what the emulated product's hardware cannot run,
// per the limits its documentation lists (docs/contract.md §2.4c; CANN itself does not check them in the aclnn layer,
// the kernels fail later). Failures are 561103, like the real op's kernel-level failures. Runs on the normalised
// problem, so 1-D/2-D attributes are already in their D/H/W slots (lifted dims hold 1/0 and pass every limit).
#include <cstdint>
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/validate/stages.hpp"
#include "conv_bwd/validate/text.hpp"
#include "core/dtype.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

constexpr int64_t kMaxGroups = 65535;
constexpr int64_t kMaxKernel = 255;
constexpr int64_t kA2A3MaxStride3d = 63;
constexpr int64_t kA2A3MaxPad = 255;
constexpr int64_t kA2A3MaxDilation = 255;
constexpr int64_t k950MaxDepthAttr = 1000000;
constexpr int64_t k950MaxPlaneAttr = 2147483646;

// The call's own name of lifted dim d (the lifted dims before its first hold 1 or 0 and pass every limit).
const char *dim_name(const Problem &p, int d) { return spatial_name(p.rank, d - (kSpatial - (p.rank - 2))); }

int over_limit(const Problem &p, const std::string &what, int64_t value, int64_t limit) {
  return fail_internal(std::string(product_name(p.product)) + " supports " + what + " <= " + std::to_string(limit) +
                       ", but got " + std::to_string(value) + " (hardware limit enforced by strict mode).");
}

// Kernel size of lifted spatial dim d (1 for lifted dims).
int64_t kernel(const Problem &p, int d) {
  const int first = kSpatial - (p.rank - 2);
  return d < first ? 1 : p.weight.shape[static_cast<size_t>(2 + d - first)];
}

int check_kernel_hw(const Problem &p) {
  for (int d = 1; d < kSpatial; ++d) {
    if (kernel(p, d) > kMaxKernel) {
      return over_limit(p, std::string("kernel ") + dim_name(p, d), kernel(p, d), kMaxKernel);
    }
  }
  return ACLNN_SUCCESS;
}

// One attribute per D/H/W with separate limits for D and for H/W.
int check_attr(const Problem &p, const char *name, const int64_t *values, int64_t limit_d, int64_t limit_hw) {
  for (int d = 0; d < kSpatial; ++d) {
    const int64_t limit = d == 0 ? limit_d : limit_hw;
    if (values[d] > limit) return over_limit(p, std::string(name) + " " + dim_name(p, d), values[d], limit);
  }
  return ACLNN_SUCCESS;
}

int check_a2a3(const Problem &p) {
  if (p.transposed) return ACLNN_SUCCESS;  // documented limits cover transposed=false only
  if (p.rank == 5) {
    if (int s = check_attr(p, "stride", p.stride, INT64_MAX, kA2A3MaxStride3d)) return s;
  }
  const int64_t pad_d_limit = p.rank == 5 ? INT64_MAX : kA2A3MaxPad;
  if (int s = check_attr(p, "padding (begin)", p.pad_begin, pad_d_limit, kA2A3MaxPad)) return s;
  if (int s = check_attr(p, "padding (end)", p.pad_end, pad_d_limit, kA2A3MaxPad)) return s;
  if (int s = check_attr(p, "dilation", p.dilation, kA2A3MaxDilation, kA2A3MaxDilation)) return s;
  return check_kernel_hw(p);
}

bool any_8bit(const Problem &p) {
  for (const TensorArg *t : {&p.grad_output, &p.input, &p.weight, &p.grad_input, &p.grad_weight, &p.grad_bias}) {
    if (t->present && is_8bit(t->dtype)) return true;
  }
  return false;
}

int check_950(const Problem &p) {
  if (any_8bit(p) && !(p.transposed && p.mask[0])) {
    return fail_internal("Ascend950 supports HIFLOAT8/FLOAT8_E4M3FN only for transposed=true with outputMask[0]=true "
                         "(hardware limit enforced by strict mode).");
  }
  if (!p.transposed) return ACLNN_SUCCESS;
  if (int s = check_attr(p, "stride", p.stride, k950MaxDepthAttr, k950MaxPlaneAttr)) return s;
  if (int s = check_attr(p, "padding (begin)", p.pad_begin, k950MaxDepthAttr, k950MaxPlaneAttr)) return s;
  if (int s = check_attr(p, "padding (end)", p.pad_end, k950MaxDepthAttr, k950MaxPlaneAttr)) return s;
  if (int s = check_attr(p, "dilation", p.dilation, k950MaxDepthAttr, k950MaxPlaneAttr)) return s;
  return check_kernel_hw(p);
}

int check_common(const Problem &p) {
  if (p.groups > kMaxGroups) return over_limit(p, "groups", p.groups, kMaxGroups);
  if (!p.transposed) return ACLNN_SUCCESS;
  for (int d = 0; d < kSpatial; ++d) {
    if (p.output_padding[d] >= p.stride[d]) {
      return fail_internal(std::string(product_name(p.product)) + " supports outputPadding " + dim_name(p, d) +
                           " < stride " + dim_name(p, d) + " = " + std::to_string(p.stride[d]) + ", but got " +
                           std::to_string(p.output_padding[d]) + " (hardware limit enforced by strict mode).");
    }
  }
  return ACLNN_SUCCESS;
}

}  // namespace

int check_strict(const Call &call, const Problem &p) {
  if (!call.settings.strict) return ACLNN_SUCCESS;
  if (int s = check_common(p)) return s;
  switch (call.arch) {
    case ArchClass::kLegacy:
      if (p.empty_path) {
        return fail_internal(std::string(product_name(p.product)) + " does not support empty tensors (hardware "
                             "limit enforced by strict mode).");
      }
      return ACLNN_SUCCESS;
    case ArchClass::kA2A3:
      return check_a2a3(p);
    case ArchClass::k950:
      return check_950(p);
  }
  return ACLNN_SUCCESS;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
