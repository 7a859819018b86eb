// Bit-exact number formats of SPEC §4: FP16, BF16, HF32, HiFloat8, FLOAT8_E4M3FN.
#pragma once

#include <cstdint>

#include "core/config.hpp"

namespace aclnn_cpu {
namespace numerics {

// IEEE binary16, round to nearest even, overflow to ±Inf, NaN stays NaN.
uint16_t fp32_to_fp16(float x);
float fp16_to_fp32(uint16_t h);

// bfloat16 = the upper half of binary32, round to nearest even, NaN stays (quiet) NaN.
uint16_t fp32_to_bf16(float x);
float bf16_to_fp32(uint16_t b);

// HF32: binary32 keeping `mantissa_bits` (11 on A2/A3, 10 on 950) of the 23; NaN/Inf unchanged; a carry may
// round the largest finite values to ±Inf.
float round_to_hf32(float x, int mantissa_bits, Hf32Rounding rounding);

// HiFloat8 (ACL_HIFLOAT8): encode rounds ties away from zero; NaN = 0x80, ±Inf = 0x6F/0xEF.
uint8_t fp32_to_hif8(float x);
float hif8_to_fp32(uint8_t code);

// FLOAT8_E4M3FN (OCP E4M3, no infinities): encode is RNE; on overflow (|x| ≥ 480 or ±Inf) it saturates to
// ±448 (kSaturate) or gives NaN with the input's sign (kNan, PyTorch's convention). NaN → NaN.
uint8_t fp32_to_e4m3fn(float x, Fp8Overflow overflow);
float e4m3fn_to_fp32(uint8_t code);

inline float round_to_fp16(float x) { return fp16_to_fp32(fp32_to_fp16(x)); }
inline float round_to_bf16(float x) { return bf16_to_fp32(fp32_to_bf16(x)); }

}  // namespace numerics
}  // namespace aclnn_cpu
