// IEEE binary16 <-> binary32 with integer arithmetic only (no _Float16/F16C), so every compiler and ISA agrees.
#include "numerics/bits.hpp"
#include "numerics/formats.hpp"

namespace aclnn_cpu {
namespace numerics {
namespace {

using namespace detail;

constexpr uint16_t kFp16Sign = 0x8000;
constexpr uint16_t kFp16Inf = 0x7C00;
constexpr uint16_t kFp16QuietBit = 0x0200;
constexpr uint16_t kFp16MantissaMask = 0x03FF;
// 65520 = 65504 + half an ulp: the tie rounds to the even neighbour 2^16, which overflows to Inf.
constexpr uint32_t kFp16OverflowBits = 0x477FF000u;
constexpr uint32_t kFp16MinNormalBits = 0x38800000u;  // 2^-14
constexpr uint32_t kRebias = (127u - 15u) << 23;
constexpr int kFp16SubnormalExponent = -24;

}  // namespace

uint16_t fp32_to_fp16(float x) {
  const uint32_t u = float_bits(x);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & kFp16Sign);
  const uint32_t a = u & kFp32AbsMask;
  if (a > kFp32Inf) {
    // Quiet the NaN and keep the top payload bits, as hardware converters (F16C, ARM FCVT) do.
    return static_cast<uint16_t>(sign | kFp16Inf | kFp16QuietBit | ((a >> 13) & kFp16MantissaMask));
  }
  if (a >= kFp16OverflowBits) return static_cast<uint16_t>(sign | kFp16Inf);
  if (a >= kFp16MinNormalBits) return static_cast<uint16_t>(sign | shift_right_rne(a - kRebias, 13));
  return static_cast<uint16_t>(sign | fp32_to_units_rne(a, kFp16SubnormalExponent));
}

float fp16_to_fp32(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & kFp16Sign) << 16;
  const uint32_t exponent = (h >> 10) & 0x1Fu;
  const uint32_t mant = h & kFp16MantissaMask;
  if (exponent == 0x1F) {
    // A signalling NaN is quieted (IEEE conversion semantics); the payload is kept.
    return bits_float(sign | kFp32Inf | (mant == 0 ? 0u : (kFp32QuietBit | (mant << 13))));
  }
  if (exponent == 0) return bits_float(sign | fp32_from_units(mant, kFp16SubnormalExponent));
  return bits_float(sign | ((exponent << 23) + kRebias) | (mant << 13));
}

}  // namespace numerics
}  // namespace aclnn_cpu
