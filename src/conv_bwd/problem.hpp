// One validated aclnnConvolutionBackward call, normalised once, owned by its executor.
// Everything execution needs is copied here: callers may destroy their aclTensor/aclIntArray/aclBoolArray
// objects as soon as aclnnConvolutionBackward has returned.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "core/config.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// A copy of the parts of an aclTensor that execution reads.
struct TensorArg {
  bool present = false;  // false: the caller passed NULL
  aclDataType dtype = ACL_DT_UNDEFINED;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // elements
  int64_t offset = 0;            // elements
  void *data = nullptr;
  int64_t numel = 0;
};

// Number format the matrix products read their operands in (docs/contract.md §3.5).
enum class ComputeType { kFp32, kHf32, kFp16, kBf16, kHif8 };

constexpr int kSpatial = 3;

struct Problem {
  // The call as made (ranks 3/4/5 ⇒ 1D/2D/3D).
  int rank = 0;
  bool transposed = false;
  int64_t groups = 1;
  int8_t cube_math_type = 0;
  bool mask[3] = {false, false, false};  // gradInput, gradWeight, gradBias
  TensorArg grad_output, input, weight;
  TensorArg grad_input, grad_weight, grad_bias;  // present iff the caller passed them

  // Attributes lifted to 3 spatial dims (D, H, W); 1D uses W, 2D uses H and W; lifted dims get
  // stride 1, dilation 1, pads 0. 2D 4-value padding is [top, bottom, left, right].
  int64_t stride[kSpatial] = {1, 1, 1};
  int64_t dilation[kSpatial] = {1, 1, 1};
  int64_t pad_begin[kSpatial] = {0, 0, 0};
  int64_t pad_end[kSpatial] = {0, 0, 0};
  int64_t output_padding[kSpatial] = {0, 0, 0};

  // Empty-tensor path (docs/contract.md §2.5): only zero fills of gradWeight/gradBias, no arithmetic.
  bool empty_path = false;

  // Precision, fixed at GetWorkspaceSize from the emulated product and cubeMathType.
  aclDataType promoted = ACL_FLOAT;
  ComputeType compute = ComputeType::kFp32;
  int hf32_mantissa_bits = 11;
  Hf32Rounding hf32_rounding = Hf32Rounding::kTiesAway;
  Fp8Overflow fp8_overflow = Fp8Overflow::kSaturate;
  Product product = Product::kAscend910B;
};

}  // namespace conv_bwd
}  // namespace aclnn_cpu
