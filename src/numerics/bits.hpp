// Internal helpers shared by the format conversions: float <-> bit pattern and integer right shifts that round.
#pragma once

#include <cstdint>
#include <cstring>

namespace aclnn_cpu {
namespace numerics {
namespace detail {

inline uint32_t float_bits(float x) {
  uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

inline float bits_float(uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

constexpr uint32_t kFp32SignMask = 0x80000000u;
constexpr uint32_t kFp32AbsMask = 0x7FFFFFFFu;
constexpr uint32_t kFp32Inf = 0x7F800000u;
constexpr uint32_t kFp32QuietBit = 0x00400000u;
constexpr uint32_t kFp32MantissaMask = 0x007FFFFFu;
constexpr uint32_t kFp32Hidden = 0x00800000u;

inline bool is_nan_bits(uint32_t u) { return (u & kFp32AbsMask) > kFp32Inf; }

// v / 2^shift rounded to nearest, ties to even (1 <= shift <= 31). When v is a rebiased float pattern, a carry out
// of the mantissa correctly bumps the exponent, which is why one helper serves normals and subnormals alike.
inline uint32_t shift_right_rne(uint32_t v, int shift) {
  const uint32_t half = 1u << (shift - 1);
  const uint32_t rest = v & ((half << 1) - 1u);
  uint32_t q = v >> shift;
  if (rest > half || (rest == half && (q & 1u) != 0)) ++q;
  return q;
}

// v / 2^shift rounded to nearest, ties away from zero (v is a magnitude; 1 <= shift <= 31).
inline uint32_t shift_right_ties_away(uint32_t v, int shift) {
  const uint32_t half = 1u << (shift - 1);
  return static_cast<uint32_t>((static_cast<uint64_t>(v) + half) >> shift);
}

// The significand of a finite, non-zero binary32 magnitude pattern, with the hidden bit for normals: the
// magnitude equals significand * 2^(max(biased_exponent, 1) - 150).
inline uint32_t fp32_significand(uint32_t abs_bits) {
  const uint32_t mant = abs_bits & kFp32MantissaMask;
  return (abs_bits >> 23) == 0 ? mant : (mant | kFp32Hidden);
}

inline int fp32_scale_exponent(uint32_t abs_bits) {
  const int biased = static_cast<int>(abs_bits >> 23);
  return (biased == 0 ? 1 : biased) - 150;
}

// A finite magnitude pattern divided by 2^unit_exponent, rounded to an integer with ties to even: the significand
// of a result that is subnormal in a narrower format whose subnormal step is 2^unit_exponent. Only valid when the
// result fits (the caller has already handled the normal range), i.e. the shift is at least 1.
inline uint32_t fp32_to_units_rne(uint32_t abs_bits, int unit_exponent) {
  const int shift = unit_exponent - fp32_scale_exponent(abs_bits);
  if (shift > 24) return 0;  // the significand is below 2^24, so the value is under half a unit
  return shift_right_rne(fp32_significand(abs_bits), shift);
}

// The binary32 magnitude pattern of units * 2^unit_exponent (exact; units < 2^24, result in the normal range).
inline uint32_t fp32_from_units(uint32_t units, int unit_exponent) {
  if (units == 0) return 0;
  int top = 0;
  while ((units >> (top + 1)) != 0) ++top;
  const uint32_t biased = static_cast<uint32_t>(top + unit_exponent + 127);
  return (biased << 23) | ((units << (23 - top)) & kFp32MantissaMask);
}

}  // namespace detail
}  // namespace numerics
}  // namespace aclnn_cpu
