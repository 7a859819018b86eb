// HF32 emulation (docs/contract.md §4.2): a binary32 value whose low 23 - m mantissa bits are zero.
//
// Rounding works on the magnitude pattern as an integer, the way the ops-nn goldens do: ties-away adds half of the
// kept LSB and truncates; RNE is the same with ties to even. Two properties follow and are intended:
//  * a mantissa carry moves into the exponent, so the largest finite binary32 values may round to Inf;
//  * subnormals are rounded on the same fixed grid of 2^(-149 + 23 - m) as the lowest normal binade, i.e. HF32 is
//    treated as having gradual underflow with the same m-bit mantissa field (no flush to zero).
#include "numerics/bits.hpp"
#include "numerics/formats.hpp"

namespace aclnn_cpu {
namespace numerics {

using namespace detail;

float round_to_hf32(float x, int mantissa_bits, Hf32Rounding rounding) {
  const uint32_t u = float_bits(x);
  // NaN and Inf are kept: the integer trick would turn some NaN payloads into Inf.
  if ((u & kFp32Inf) == kFp32Inf) return x;
  if (mantissa_bits >= 23) return x;
  const int drop = 23 - (mantissa_bits < 0 ? 0 : mantissa_bits);
  const uint32_t a = u & kFp32AbsMask;
  const uint32_t kept = rounding == Hf32Rounding::kTiesAway ? shift_right_ties_away(a, drop)
                                                             : shift_right_rne(a, drop);
  return bits_float((u & kFp32SignMask) | (kept << drop));
}

}  // namespace numerics
}  // namespace aclnn_cpu
