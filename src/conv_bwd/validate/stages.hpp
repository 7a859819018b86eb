// The validation stages, in the order validate() runs them (docs/contract.md §2.3 V1–V14, §2.5 E1–E3, plus our view and
// memory safety checks and strict mode). Each returns ACLNN_SUCCESS or the failing status, having recorded the
// message; a stage may rely on every stage before it having passed.
#pragma once

#include <cstdint>
#include <string>

#include "conv_bwd/output_size.hpp"
#include "conv_bwd/problem.hpp"
#include "conv_bwd/validate/call.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// V1: required pointers, outputMask length, requested outputs present. Sets call->mask.
int check_nulls(Call *call);
// V2: dtype lists per product; on the 950 outputs must match their inputs.
int check_dtypes(const Call &call);
// V3: HIFLOAT8 / FLOAT8_E4M3FN combinations (950 only).
int check_8bit(const Call &call);
// V4: storage format per view rank; gradBias ND. Sets call->dims.
int check_formats(Call *call);
// Ours: view shapes and strides are well formed (no negative dim, element count fits int64). Sets call->numel.
int check_views(Call *call);
// V5 (array lengths first, then values).
int check_attributes(const Call &call);
// V6: cubeMathType range and the product's cube capabilities. Sets call->promoted.
int check_cube_math(Call *call);
// V7: true when CANN's checker stops early because input or weight is empty.
bool empty_short_circuit(const Call &call);
// V8: ranks, output shapes.
int check_shapes(const Call &call);
// Ours: data pointers present, view extents representable and inside their aclrtMalloc allocation.
int check_memory(const Call &call);
// V9 and our weight.shape[0] % groups rule (docs/contract.md §6 Q4).
int check_channels(const Call &call);

// A rule broken by one tensor: its slot (-1 when the rule holds) and the message it fails with.
struct Fault {
  int slot = -1;
  std::string text;
};
// The first of V9's rules 1-3 (channel counts against weight and groups) that fails, among those about tensor
// `about` (-1: any), without recording anything: check_channels, and the root cause of an earlier rule that
// fails because of it. Needs V8's equal ranks.
Fault channel_fault(const Call &call, int about);
// V10 for 3-D; for 1-D/2-D our gradOutput batch/spatial consistency rule (docs/contract.md §6 Q3).
int check_spatial(const Call &call);
// V11: deterministic mode with groups > 1.
int check_deterministic(const Call &call);
// E1–E3: the empty-tensor path.
int check_empty_path(const Call &call);
// V12–V14: what the real op rejects on its compute path.
int check_compute_path(const Call &call);
// Strict mode: the emulated product's documented hardware limits (docs/contract.md §2.4c), on the normalised problem.
int check_strict(const Call &call, const Problem &problem);

// docs/contract.md §2.1 promotion of two accepted dtypes.
aclDataType promote_dtype(aclDataType a, aclDataType b);
bool is_8bit(aclDataType dtype);

// The attributes of one spatial dimension of the call (index 0 .. dims-3), read once lengths are valid.
using SpatialAttr = DimAttr;
SpatialAttr spatial_attr(const Call &call, int d);

// Fills everything execution needs (tensors, lifted attributes, precision).
void normalise(const Call &call, Problem *problem);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
