// bfloat16 is the upper half of binary32; only the narrowing direction needs rounding.
#include "numerics/bits.hpp"
#include "numerics/formats.hpp"

namespace aclnn_cpu {
namespace numerics {

using namespace detail;

uint16_t fp32_to_bf16(float x) {
  const uint32_t u = float_bits(x);
  // Truncating a NaN could clear every payload bit left and make it Inf; setting the quiet bit prevents that.
  if (is_nan_bits(u)) return static_cast<uint16_t>((u >> 16) | (kFp32QuietBit >> 16));
  const uint32_t sign = (u >> 16) & 0x8000u;
  // A carry out of the mantissa bumps the exponent; past the largest finite value it lands exactly on Inf.
  return static_cast<uint16_t>(sign | shift_right_rne(u & kFp32AbsMask, 16));
}

// Exact widening; a NaN's pattern (including a signalling one) is kept as it is.
float bf16_to_fp32(uint16_t b) { return bits_float(static_cast<uint32_t>(b) << 16); }

}  // namespace numerics
}  // namespace aclnn_cpu
