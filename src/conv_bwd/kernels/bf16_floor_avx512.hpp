// The exponent floor of BF16 operand values (gemm_bf16_ukernel.hpp's pairs_exact), gathered 8 values at a time, for
// the pair kernels' files (compiled with -mavx512f -mavx512bf16). In an unnamed namespace: each file keeps its own
// copy, compiled with its own flags (kernel_isas.hpp).
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// What the floor needs to know of the values seen: the largest magnitude and the smallest nonzero one, as bits.
struct Magnitudes {
  __m256i max = _mm256_setzero_si256();
  __m256i min_nonzero = _mm256_set1_epi32(0x7F7FFFFF);

  void add(__m256i v) {
    const __m256i mag = _mm256_and_si256(v, _mm256_set1_epi32(0x7FFFFFFF));
    const __m256i zero = _mm256_cmpeq_epi32(mag, _mm256_setzero_si256());
    max = _mm256_max_epu32(max, mag);
    min_nonzero = _mm256_min_epu32(min_nonzero, _mm256_blendv_epi8(mag, _mm256_set1_epi32(0x7F7FFFFF), zero));
  }

  // 0 when a value was infinite, NaN or subnormal; else the smallest biased exponent of a nonzero value (254 when
  // all were zero).
  int floor() const {
    alignas(32) uint32_t hi[8], lo[8];
    _mm256_store_si256(reinterpret_cast<__m256i *>(hi), max);
    _mm256_store_si256(reinterpret_cast<__m256i *>(lo), min_nonzero);
    uint32_t largest = 0, smallest = 0x7F7FFFFF;
    for (int i = 0; i < 8; ++i) {
      largest = hi[i] > largest ? hi[i] : largest;
      smallest = lo[i] < smallest ? lo[i] : smallest;
    }
    if (largest >= 0x7F800000u || smallest < 0x00800000u) return 0;
    return static_cast<int>(smallest >> 23);
  }
};

}  // namespace
}  // namespace conv_bwd
}  // namespace aclnn_cpu
