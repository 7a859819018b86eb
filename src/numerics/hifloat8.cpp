// HiFloat8 (docs/contract.md §4.3): a tapered 8-bit format. After the sign, a prefix ("Dot") code says how many
// exponent bits D follow; the exponent field is sign-magnitude with an implicit leading magnitude bit; the rest is
// mantissa. Codes 0x01..0x07 (Dot 0000) are the "denormal" binades 2^-22..2^-16. NaN = 0x80, ±Inf = 0x6F/0xEF, one
// zero.
#include <cstdlib>

#include "numerics/bits.hpp"
#include "numerics/formats.hpp"

namespace aclnn_cpu {
namespace numerics {
namespace {

using namespace detail;

constexpr uint8_t kHif8Nan = 0x80;
constexpr uint8_t kHif8Inf = 0x6F;
constexpr uint8_t kHif8Sign = 0x80;
constexpr int kMaxExponent = 15;
constexpr int kDenormalBias = 23;       // DML code m stands for 2^(m - 23)
constexpr int kMinDenormalExponent = -22;
constexpr int kMaxDenormalExponent = -16;
constexpr uint32_t kOverflowBits = (127u + 16u) << 23;  // 2^16: the exponent alone is out of range
constexpr uint32_t kUnderflowBits = (127u - 23u) << 23; // 2^-23: below it everything rounds to zero

// Exponent field width D for |E| (D = 0 means the exponent is 0 and there is no field).
int exponent_bits(int magnitude) {
  if (magnitude == 0) return 0;
  if (magnitude == 1) return 1;
  if (magnitude <= 3) return 2;
  if (magnitude <= 7) return 3;
  return 4;
}

// 3 bits up to D = 2; beyond, the 7 magnitude bits minus the 2-bit Dot minus D.
int mantissa_bits_for_d(int d) { return d <= 2 ? 3 : 5 - d; }

// Fraction bits kept for a value with exponent e (0 in the denormal binades).
int mantissa_bits_for_exponent(int e) {
  const int magnitude = std::abs(e);
  return magnitude > kMaxExponent ? 0 : mantissa_bits_for_d(exponent_bits(magnitude));
}

// The Dot prefix, already in position, for each D.
constexpr uint8_t kDotPrefix[5] = {0x08, 0x10, 0x20, 0x40, 0x60};

// D from the code's magnitude bits (b6..b0 ≥ 0x08, i.e. not a denormal code).
int exponent_bits_of_code(uint8_t b) {
  if (b >= 0x60) return 4;
  if (b >= 0x40) return 3;
  if (b >= 0x20) return 2;
  if (b >= 0x10) return 1;
  return 0;
}

// The code of the positive value (1 + mant / 2^M) · 2^e, or 2^e in the denormal range.
uint8_t encode_magnitude(int e, uint32_t mant) {
  if (e <= kMaxDenormalExponent) return static_cast<uint8_t>(e + kDenormalBias);
  const int magnitude = std::abs(e);
  const int d = exponent_bits(magnitude);
  if (d == 0) return static_cast<uint8_t>(kDotPrefix[0] | mant);
  const int m = mantissa_bits_for_d(d);
  const uint32_t implicit = 1u << (d - 1);
  const uint32_t field = (e < 0 ? implicit : 0u) | (static_cast<uint32_t>(magnitude) - implicit);
  return static_cast<uint8_t>(kDotPrefix[d] | (field << m) | mant);
}

}  // namespace

uint8_t fp32_to_hif8(float x) {
  const uint32_t u = float_bits(x);
  const uint32_t a = u & kFp32AbsMask;
  if (a > kFp32Inf) return kHif8Nan;
  const uint8_t sign = static_cast<uint8_t>((u >> 24) & kHif8Sign);
  // No saturation: anything whose exponent is past 15 (and Inf) is Inf.
  if (a >= kOverflowBits) return static_cast<uint8_t>(sign | kHif8Inf);
  // Zero has no sign in HiFloat8 (0x80 is NaN).
  if (a < kUnderflowBits) return 0x00;
  int e = static_cast<int>(a >> 23) - 127;
  // [2^-23, 2^-22) is at least half of 2^-22 and there is no 2^-23 code: ties away sends it up.
  if (e < kMinDenormalExponent) return static_cast<uint8_t>(sign | 0x01);
  const int drop = 23 - mantissa_bits_for_exponent(e);
  const uint32_t rounded = shift_right_ties_away(a, drop) << drop;
  // A carry may reach the next binade, which can have fewer mantissa bits; its mantissa is 0 then, so re-reading
  // the width from the new exponent is all that is needed.
  e = static_cast<int>(rounded >> 23) - 127;
  if (e > kMaxExponent) return static_cast<uint8_t>(sign | kHif8Inf);
  // 1.5 · 2^15 (rounded from [40960, 49152)) encodes to 0x6F, which is the Inf pattern: intended (docs/contract.md
  // §4.3).
  const uint32_t mant = (rounded & kFp32MantissaMask) >> (23 - mantissa_bits_for_exponent(e));
  return static_cast<uint8_t>(sign | encode_magnitude(e, mant));
}

float hif8_to_fp32(uint8_t code) {
  if (code == kHif8Nan) return bits_float(kFp32Inf | kFp32QuietBit);
  const uint32_t sign = static_cast<uint32_t>(code & kHif8Sign) << 24;
  const uint8_t b = code & 0x7F;
  if (b == kHif8Inf) return bits_float(sign | kFp32Inf);
  if (b == 0) return 0.0f;
  if (b < kDotPrefix[0]) return bits_float(sign | (static_cast<uint32_t>(127 + b - kDenormalBias) << 23));
  const int d = exponent_bits_of_code(b);
  const int m = mantissa_bits_for_d(d);
  const uint32_t mant = b & ((1u << m) - 1u);
  int e = 0;
  if (d > 0) {
    const uint32_t field = (b >> m) & ((1u << d) - 1u);
    const uint32_t implicit = 1u << (d - 1);
    const int magnitude = static_cast<int>(implicit | (field & (implicit - 1u)));
    e = (field & implicit) != 0 ? -magnitude : magnitude;
  }
  return bits_float(sign | (static_cast<uint32_t>(e + 127) << 23) | (mant << (23 - m)));
}

}  // namespace numerics
}  // namespace aclnn_cpu
