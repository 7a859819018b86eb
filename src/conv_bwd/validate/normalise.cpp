// Turns a validated call into the Problem execution reads: copies of the tensors (callers may destroy theirs
// right after the call), attributes lifted to 3 spatial dims, and the precision (docs/contract.md §3.5).
#include "conv_bwd/validate/stages.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

TensorArg copy_tensor(const TensorView &t, int64_t numel) {
  TensorArg arg;
  if (!t.given) return arg;
  arg.present = true;
  arg.dtype = t.dtype;
  arg.shape = t.shape.to_vector();
  arg.strides = t.strides.to_vector();
  arg.offset = t.offset;
  arg.data = t.data;
  arg.numel = numel;
  return arg;
}

// docs/contract.md §3.5: FP16 for USE_FP16 and (on legacy) for ALLOW_FP32_DOWN_PRECISION; HF32 for FLOAT with 1 or 3 on
// A2/A3/950; 8-bit operands are never widened or narrowed by cubeMathType. FLOAT8_E4M3FN (only reachable with
// all inputs FLOAT8_E4M3FN) decodes exactly to FP32, so it computes as FP32.
ComputeType compute_type(ArchClass arch, aclDataType promoted, int cmt) {
  if (promoted == ACL_HIFLOAT8) return ComputeType::kHif8;
  if (promoted == ACL_FLOAT8_E4M3FN) return ComputeType::kFp32;
  if (cmt == 2 || (arch == ArchClass::kLegacy && cmt == 1)) return ComputeType::kFp16;
  if (promoted == ACL_FLOAT) {
    return (arch != ArchClass::kLegacy && (cmt == 1 || cmt == 3)) ? ComputeType::kHf32 : ComputeType::kFp32;
  }
  if (promoted == ACL_BF16) return ComputeType::kBf16;
  return ComputeType::kFp16;
}

// HF32 keeps 11 mantissa bits on Ascend910B / Ascend910_93 and 10 on Ascend950 (docs/contract.md §4.2, §6 Q8); legacy
// has no HF32.
int hf32_bits(Product product) { return product == Product::kAscend950 ? 10 : 11; }

void lift_attributes(const Call &call, Problem *p) {
  const int spatial = call.dims - 2;
  const int first = kSpatial - spatial;  // 1-D → W only, 2-D → H and W
  for (int d = 0; d < kSpatial; ++d) {
    p->stride[d] = 1;
    p->dilation[d] = 1;
    p->pad_begin[d] = p->pad_end[d] = p->output_padding[d] = 0;
  }
  for (int d = 0; d < spatial; ++d) {
    const SpatialAttr a = spatial_attr(call, d);
    p->stride[first + d] = a.stride;
    p->dilation[first + d] = a.dilation;
    p->pad_begin[first + d] = a.pad_begin;
    p->pad_end[first + d] = a.pad_end;
    p->output_padding[first + d] = a.output_padding;
  }
}

}  // namespace

void normalise(const Call &call, Problem *p) {
  p->rank = call.dims;
  p->transposed = call.transposed();
  p->groups = call.args.groups;
  p->cube_math_type = call.args.cubeMathType;
  for (int i = 0; i < 3; ++i) p->mask[i] = call.mask[i];
  p->grad_output = copy_tensor(call.args.gradOutput, call.numel[kGradOutput]);
  p->input = copy_tensor(call.args.input, call.numel[kInput]);
  p->weight = copy_tensor(call.args.weight, call.numel[kWeight]);
  p->grad_input = copy_tensor(call.args.gradInput, call.numel[kGradInput]);
  p->grad_weight = copy_tensor(call.args.gradWeight, call.numel[kGradWeight]);
  p->grad_bias = copy_tensor(call.args.gradBias, call.numel[kGradBias]);
  lift_attributes(call, p);
  p->empty_path = call.any_input_empty();
  p->promoted = call.promoted;
  p->compute = compute_type(call.arch, call.promoted, call.args.cubeMathType);
  p->hf32_mantissa_bits = hf32_bits(call.settings.product);
  p->hf32_rounding = call.settings.hf32_rounding;
  p->fp8_overflow = call.settings.fp8_overflow;
  p->product = call.settings.product;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
