#include "precision.hpp"

#include <algorithm>
#include <cmath>

#include "conformance_tensor.hpp"

namespace aclnn_cpu {
namespace demo {
namespace {

using conformance::OperandFormat;
using conv_bwd::ConvDesc;

bool is_8bit(aclDataType t) { return t == ACL_HIFLOAT8 || t == ACL_FLOAT8_E4M3FN; }

bool legacy(Product p) { return p == Product::kAscend910 || p == Product::kAscend310P; }

// docs/contract.md §2.1: equal dtypes keep theirs; every other accepted mix promotes to FLOAT.
aclDataType promoted(const ConvDesc &d) {
  const aclDataType a = d.dtype[conv_bwd::kDescGradOutput];
  const aclDataType b = d.dtype[conv_bwd::kDescInput];
  const aclDataType c = d.dtype[conv_bwd::kDescWeight];
  return (a == b && b == c) ? a : ACL_FLOAT;
}

double roundoff(aclDataType t) {
  switch (t) {
    case ACL_FLOAT:
      return 0x1p-24;
    case ACL_FLOAT16:
      return 0x1p-11;
    case ACL_BF16:
      return 0x1p-8;
    default:
      return 0x1p-4;  // 8-bit formats: 3 mantissa bits near 1
  }
}

double roundoff(OperandFormat f) {
  switch (f) {
    case OperandFormat::kFp16:
      return 0x1p-11;
    case OperandFormat::kBf16:
      return 0x1p-8;
    default:
      return 0x1p-24;  // HF32 rounds operands only; results stay fp32
  }
}

aclDataType output_dtype(const ConvDesc &d, Output out) { return d.dtype[conv_bwd::kDescGradInput + out]; }

}  // namespace

OperandFormat operand_format(const ConvDesc &d) {
  const aclDataType p = promoted(d);
  if (is_8bit(p)) return OperandFormat::kExact;  // decoded to fp32, never re-rounded
  const int cmt = d.cube_math_type;
  if (cmt == 2 || (legacy(d.product) && cmt == 1)) return OperandFormat::kFp16;
  if (p == ACL_FLOAT) {
    const bool hf32 = !legacy(d.product) && (cmt == 1 || cmt == 3);
    return hf32 ? OperandFormat::kHf32 : OperandFormat::kExact;
  }
  return p == ACL_BF16 ? OperandFormat::kBf16 : OperandFormat::kFp16;
}

const char *operand_format_name(OperandFormat format) {
  switch (format) {
    case OperandFormat::kHf32:
      return "HF32";
    case OperandFormat::kFp16:
      return "FP16";
    case OperandFormat::kBf16:
      return "BF16";
    case OperandFormat::kExact:
      break;
  }
  return "exact";
}

int hf32_mantissa_bits(Product product) { return product == Product::kAscend950 ? 10 : 11; }

double stored_value(const ConvDesc &d, Output out, double sum, Fp8Overflow overflow) {
  double v = static_cast<float>(sum);
  if (out == kGradInput) {
    const OperandFormat f = operand_format(d);
    if (f == OperandFormat::kFp16) v = conformance::round_to(ACL_FLOAT16, v);
    if (f == OperandFormat::kBf16) v = conformance::round_to(ACL_BF16, v);
  } else if (out == kGradBias) {
    v = conformance::round_to(d.dtype[conv_bwd::kDescGradOutput], v, overflow);
  }
  return conformance::round_to(output_dtype(d, out), v, overflow);
}

double chain_roundoff(const ConvDesc &d, Output out) {
  double u = roundoff(output_dtype(d, out));
  if (out == kGradInput) u = std::max(u, roundoff(operand_format(d)));
  if (out == kGradBias) u = std::max(u, roundoff(d.dtype[conv_bwd::kDescGradOutput]));
  return u;
}

double tolerance(const ConvDesc &d, Output out, int64_t terms) {
  const double t = static_cast<double>(std::max<int64_t>(terms, 1));
  return 4.0 * chain_roundoff(d, out) + 4.0 * 0x1p-24 * std::sqrt(t);
}

}  // namespace demo
}  // namespace aclnn_cpu
