// Bit-exact number formats of docs/contract.md §4: FP16, BF16, HF32, HiFloat8, FLOAT8_E4M3FN.
// Integer implementations (no _Float16/F16C), so results are the same on every compiler and ISA.
#pragma once

#include <cstdint>

#include "core/config.hpp"

namespace aclnn_cpu {
namespace numerics {

// IEEE binary16, round to nearest even (subnormals included), overflow to ±Inf (|x| ≥ 65520).
// NaN → quiet NaN with the sign and the top 9 payload bits kept (what F16C does); decoding quiets a signalling NaN.
uint16_t fp32_to_fp16(float x);
float fp16_to_fp32(uint16_t h);

// bfloat16 = the upper half of binary32, round to nearest even, overflow to ±Inf. NaN → quiet NaN (sign and top
// payload kept). Decoding is the exact 16-bit shift (NaN patterns kept as they are).
uint16_t fp32_to_bf16(float x);
float bf16_to_fp32(uint16_t b);

// HF32: binary32 keeping `mantissa_bits` (11 on A2/A3, 10 on 950; any 1..23 works) of the 23, rounding the
// magnitude pattern as an integer: a carry may round the largest finite values to ±Inf, and subnormals are
// rounded on the same grid as the lowest normal binade (no flush). NaN/Inf unchanged; the sign of zero is kept.
float round_to_hf32(float x, int mantissa_bits, Hf32Rounding rounding);

// HiFloat8 (ACL_HIFLOAT8): encode rounds ties away from zero, no saturation (|x| ≥ 40960 → ±Inf), values below
// 2^-23 → 0x00 (one unsigned zero); NaN = 0x80, ±Inf = 0x6F/0xEF. Decode of 0x80 is a positive quiet NaN.
uint8_t fp32_to_hif8(float x);
float hif8_to_fp32(uint8_t code);

// FLOAT8_E4M3FN (OCP E4M3, no infinities): encode is RNE (subnormals included, ±0 kept). Overflow means the RNE
// result would pass 448, i.e. |x| > 464 or ±Inf: it saturates to ±448 (kSaturate) or gives NaN with the input's
// sign (kNan: exactly PyTorch's float8_e4m3fn cast, where 464 < |x| < 480 is NaN as well). NaN → NaN with the
// input's sign (0x7F / 0xFF) in both modes. Decoding keeps the sign of zeros and NaNs.
uint8_t fp32_to_e4m3fn(float x, Fp8Overflow overflow);
float e4m3fn_to_fp32(uint8_t code);

inline float round_to_fp16(float x) { return fp16_to_fp32(fp32_to_fp16(x)); }
inline float round_to_bf16(float x) { return bf16_to_fp32(fp32_to_bf16(x)); }

}  // namespace numerics
}  // namespace aclnn_cpu
