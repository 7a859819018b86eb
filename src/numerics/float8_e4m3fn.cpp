// FLOAT8_E4M3FN (docs/contract.md §4.4, OCP E4M3): S | E4 (bias 7) | M3, no infinities, NaN = S.1111.111, ±0.
#include "numerics/bits.hpp"
#include "numerics/formats.hpp"

namespace aclnn_cpu {
namespace numerics {
namespace {

using namespace detail;

constexpr uint8_t kE4m3Sign = 0x80;
constexpr uint8_t kE4m3Nan = 0x7F;
constexpr uint8_t kE4m3Max = 0x7E;  // 448
// 464 is the tie between 448 (even) and the NaN pattern's 480: above it RNE would leave the finite range.
constexpr uint32_t kLargestInRangeBits = 0x43E80000u;
constexpr uint32_t kMinNormalBits = 0x3C800000u;  // 2^-6
constexpr uint32_t kRebias = (127u - 7u) << 23;
constexpr int kSubnormalExponent = -9;

}  // namespace

uint8_t fp32_to_e4m3fn(float x, Fp8Overflow overflow) {
  const uint32_t u = float_bits(x);
  const uint8_t sign = static_cast<uint8_t>((u >> 24) & kE4m3Sign);
  const uint32_t a = u & kFp32AbsMask;
  if (a > kFp32Inf) return static_cast<uint8_t>(sign | kE4m3Nan);
  if (a > kLargestInRangeBits) {
    return static_cast<uint8_t>(sign | (overflow == Fp8Overflow::kSaturate ? kE4m3Max : kE4m3Nan));
  }
  if (a >= kMinNormalBits) return static_cast<uint8_t>(sign | shift_right_rne(a - kRebias, 20));
  return static_cast<uint8_t>(sign | fp32_to_units_rne(a, kSubnormalExponent));
}

float e4m3fn_to_fp32(uint8_t code) {
  const uint32_t sign = static_cast<uint32_t>(code & kE4m3Sign) << 24;
  const uint32_t b = code & 0x7Fu;
  if (b == kE4m3Nan) return bits_float(sign | kFp32Inf | kFp32QuietBit);
  const uint32_t exponent = b >> 3;
  const uint32_t mant = b & 0x7u;
  if (exponent == 0) return bits_float(sign | fp32_from_units(mant, kSubnormalExponent));
  return bits_float(sign | ((exponent << 23) + kRebias) | (mant << 20));
}

}  // namespace numerics
}  // namespace aclnn_cpu
