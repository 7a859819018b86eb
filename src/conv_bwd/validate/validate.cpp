// aclnnConvolutionBackwardGetWorkspaceSize's validation, stage by stage in CANN's order (docs/contract.md §2.2,
// §2.3), with our own safety stages placed where they first can run:
//   V1 nulls → V2 dtypes → V3 8-bit (950) → V4 formats → [views: shapes/strides well formed] → V5 attributes
//   (array lengths first) → V6 cubeMathType → V7 empty short-circuit → V8 shapes → [memory: data, extents,
//   allocation bounds] → V9 channels/groups → V10 spatial sizes (+ our 1-D/2-D rule) → V11 deterministic →
//   E1–E3 empty path | V12–V14 compute path → strict mode (off by default). (The reach of the sums, which the plan
//   computes, is checked by GetWorkspaceSize after validation: conv_bwd/plan.hpp, Plan::unplannable.)
#include "conv_bwd/validate/validate.hpp"

#include <utility>

#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/validate/stages.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// CheckParams (F1) up to V6: rules that hold for every call, empty or not.
int check_common_rules(Call *call) {
  if (int status = check_nulls(call)) return status;
  if (int status = check_dtypes(*call)) return status;
  if (int status = check_8bit(*call)) return status;
  if (int status = check_formats(call)) return status;
  if (int status = check_views(call)) return status;
  if (int status = check_attributes(*call)) return status;
  return check_cube_math(call);
}

// The rest of CheckParams (V7–V10) with the memory checks after V8, then V11 (F3).
int check_shape_rules(Call *call) {
  call->short_circuit = empty_short_circuit(*call);
  if (!call->short_circuit) {
    if (int status = check_shapes(*call)) return status;
  }
  if (int status = check_memory(*call)) return status;
  if (!call->short_circuit) {
    if (int status = check_channels(*call)) return status;
    if (int status = check_spatial(*call)) return status;
  }
  return check_deterministic(*call);
}

}  // namespace

int validate(const Args &args, Problem *problem) {
  if (problem == nullptr) return fail_internal("no Problem to fill (internal error).");
  Call call(args);
  call.settings = settings();
  call.arch = arch_class(call.settings.product);

  if (int status = check_common_rules(&call)) return status;
  if (int status = check_shape_rules(&call)) return status;
  // F4/F5: an empty input, weight or gradOutput takes the empty path, anything else the compute path.
  int status = call.any_input_empty() ? check_empty_path(call) : check_compute_path(call);
  if (status != ACLNN_SUCCESS) return status;

  Problem normalised;
  normalise(call, &normalised);
  if (int strict_status = check_strict(call, normalised)) return strict_status;
  *problem = std::move(normalised);
  return ACLNN_SUCCESS;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
