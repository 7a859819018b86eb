// The NPU's rounding model for one call (docs/contract.md §3.5–3.6), applied by every algorithm:
// operands are rounded to the compute type C, products are exact, sums are accumulated in double and rounded
// once to the fp32 accumulator the cube writes, then to the kernel's output type, then stored in the user's
// dtype (tensor_io's store_value).
#pragma once

#include <cstdint>

#include "acl/acl_base.h"
#include "conv_bwd/problem.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

class Rounding {
 public:
  explicit Rounding(const Problem &problem);

  // gradOutput, input or weight element as the cube reads it: RNE to FP16/BF16, HF32 with the product's
  // mantissa width and rounding, unchanged for FP32 and decoded 8-bit values.
  float operand(float value) const;

  // operand() applied in place to v[0 .. count).
  void operands(float *v, int64_t count) const;

  // dst[i] = operand(src[i]), i < count (the arrays apart); HF32 in one pass.
  void operands_copy(const float *src, int64_t count, float *dst) const;

  // Whether operand() rounds to HF32 (the compute type), and if so with how many mantissa bits and which ties.
  bool hf32(int *mantissa_bits, Hf32Rounding *ties) const {
    if (compute_ != ComputeType::kHf32) return false;
    *mantissa_bits = hf32_mantissa_bits_;
    *ties = hf32_rounding_;
    return true;
  }

  // Whether every value of `dtype` is already a value of the compute type (operand() is then the identity).
  bool keeps_every_value_of(aclDataType dtype) const;

  // The fast algorithms' fp32 accumulator, rounded as grad_input(double) rounds its sum.
  float grad_input(float accumulator) const;

  // dX kernels output C: fp32 accumulator, then FP16/BF16 when C is one of them (docs/contract.md §3.5 step 4).
  float grad_input(double sum) const;

  // grad_input(float) applied in place to v[0 .. count).
  void grad_inputs(float *v, int64_t count) const;

  // Whether grad_input(float) returns its argument unchanged (C is not FP16/BF16).
  bool grad_input_is_identity() const { return compute_ != ComputeType::kFp16 && compute_ != ComputeType::kBf16; }

  // Whether storing an fp32 accumulator into `dtype` gives grad_input(accumulator)'s stored value with no rounding
  // before: grad_input is the identity, or C is FP16 or BF16 and so is dtype (converting to a format rounds to it
  // exactly as grad_input does, RNE, NaN quieted with its top payload kept; rounding twice to one format is rounding
  // once).
  bool grad_input_left_to_the_store(aclDataType dtype) const {
    return grad_input_is_identity() || (compute_ == ComputeType::kFp16 && dtype == ACL_FLOAT16) ||
           (compute_ == ComputeType::kBf16 && dtype == ACL_BF16);
  }

  // dW kernels always output fp32.
  float grad_weight(double sum) const { return static_cast<float>(sum); }

  // gradBias is a ReduceSum of the original gradOutput in gradOutput's dtype (docs/contract.md §3.5 step 5).
  float grad_bias(double sum) const;

  Fp8Overflow fp8_overflow() const { return fp8_overflow_; }

 private:
  ComputeType compute_;
  int hf32_mantissa_bits_;
  Hf32Rounding hf32_rounding_;
  Fp8Overflow fp8_overflow_;
  aclDataType grad_output_dtype_;
};

}  // namespace conv_bwd
}  // namespace aclnn_cpu
