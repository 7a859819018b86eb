#include "conv_bwd/algo/rounding.hpp"

#include <cstring>

#include "conv_bwd/tensor_io.hpp"
#include "numerics/batch.hpp"
#include "numerics/formats.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

Rounding::Rounding(const Problem &problem)
    : compute_(problem.compute),
      hf32_mantissa_bits_(problem.hf32_mantissa_bits),
      hf32_rounding_(problem.hf32_rounding),
      fp8_overflow_(problem.fp8_overflow),
      grad_output_dtype_(problem.grad_output.dtype) {}

float Rounding::operand(float value) const {
  switch (compute_) {
    case ComputeType::kFp16:
      return numerics::round_to_fp16(value);
    case ComputeType::kBf16:
      return numerics::round_to_bf16(value);
    case ComputeType::kHf32:
      return numerics::round_to_hf32(value, hf32_mantissa_bits_, hf32_rounding_);
    case ComputeType::kFp32:
    case ComputeType::kHif8:
      return value;
  }
  return value;
}

float Rounding::grad_input(double sum) const { return grad_input(static_cast<float>(sum)); }

float Rounding::grad_input(float accumulator) const {
  switch (compute_) {
    case ComputeType::kFp16:
      return numerics::round_to_fp16(accumulator);
    case ComputeType::kBf16:
      return numerics::round_to_bf16(accumulator);
    default:
      return accumulator;
  }
}

void Rounding::operands(float *v, int64_t count) const {
  switch (compute_) {
    case ComputeType::kFp16:
      numerics::round_to_fp16_n(v, count);
      return;
    case ComputeType::kBf16:
      numerics::round_to_bf16_n(v, count);
      return;
    case ComputeType::kHf32:
      numerics::round_to_hf32_n(v, count, hf32_mantissa_bits_, hf32_rounding_);
      return;
    case ComputeType::kFp32:
    case ComputeType::kHif8:
      return;
  }
}

void Rounding::operands_copy(const float *src, int64_t count, float *dst) const {
  if (compute_ == ComputeType::kHf32) {
    numerics::round_to_hf32_copy(src, count, dst, hf32_mantissa_bits_, hf32_rounding_);
    return;
  }
  std::memcpy(dst, src, static_cast<size_t>(count) * sizeof(float));
  operands(dst, count);
}

void Rounding::grad_inputs(float *v, int64_t count) const {
  if (compute_ == ComputeType::kFp16) numerics::round_to_fp16_n(v, count);
  if (compute_ == ComputeType::kBf16) numerics::round_to_bf16_n(v, count);
}

bool Rounding::keeps_every_value_of(aclDataType dtype) const {
  switch (compute_) {
    case ComputeType::kFp32:
    case ComputeType::kHif8:
      return true;
    case ComputeType::kHf32:  // FP16's 10 and BF16's 7 mantissa bits fit HF32's 10 or 11, exponents too
      return hf32_mantissa_bits_ >= 10 && (dtype == ACL_FLOAT16 || dtype == ACL_BF16);
    case ComputeType::kFp16:
      return dtype == ACL_FLOAT16;
    case ComputeType::kBf16:
      return dtype == ACL_BF16;
  }
  return false;
}

float Rounding::grad_bias(double sum) const {
  return round_to_dtype(static_cast<float>(sum), grad_output_dtype_, fp8_overflow_);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
