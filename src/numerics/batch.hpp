// Array forms of the conversions the packing loops need per element, inline and branch-light so that compilers
// vectorise them. Each gives exactly what its scalar counterpart in formats.hpp gives (tests/unit/
// numerics_batch_test.cpp checks them against each other); NaNs are passed to the scalar function.
#pragma once

#include <cstdint>

#include "core/config.hpp"

namespace aclnn_cpu {
namespace numerics {

void round_to_fp16_n(float *v, int64_t n);
void round_to_bf16_n(float *v, int64_t n);
void round_to_hf32_n(float *v, int64_t n, int mantissa_bits, Hf32Rounding rounding);

// dst[i] = round_to_hf32(src[i]) in one pass (the arrays do not overlap): copying FP32 rows and then rounding them in
// place cost HF32 a second pass over every operand it packs.
void round_to_hf32_copy(const float *src, int64_t n, float *dst, int mantissa_bits, Hf32Rounding rounding);

// dst[i · stride] = fp32_to_fp16(v[i]) / fp32_to_bf16(v[i]).
void fp32_to_fp16_n(const float *v, int64_t n, uint16_t *dst, int64_t stride);
void fp32_to_bf16_n(const float *v, int64_t n, uint16_t *dst, int64_t stride);

// out[i] = fp16_to_fp32(src[i · stride]).
void fp16_to_fp32_n(const uint16_t *src, int64_t stride, int64_t n, float *out);

// dst[r · ldd + i] = fp16_to_fp32(src[r · lds + i]), r < rows, i < n: unit-spaced rows of a plane in one call.
void fp16_rows_to_fp32(const uint16_t *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd);

}  // namespace numerics
}  // namespace aclnn_cpu
