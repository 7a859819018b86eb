// The exponent floor of BF16 operand values (gemm_bf16_ukernel.hpp's pairs_exact), gathered 8 values at a time, for
// the pair kernels' files (compiled with -mavx512f -mavx512bw -mavx512bf16). In an unnamed namespace: each file keeps
// its own copy, compiled with its own flags (kernel_isas.hpp).
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

// The same for BF16 words, 32 at a time (AVX512BW): a BF16 value's bits are its fp32 bits' high half, so the
// bounds are those above shifted by 16.
struct WordMagnitudes {
  __m512i max = _mm512_setzero_si512();
  __m512i min_nonzero = _mm512_set1_epi16(0x7F7F);

  void add(__m512i v) {
    const __m512i mag = _mm512_and_si512(v, _mm512_set1_epi16(0x7FFF));
    max = _mm512_max_epu16(max, mag);
    min_nonzero = _mm512_mask_min_epu16(min_nonzero, _mm512_test_epi16_mask(mag, mag), min_nonzero, mag);
  }

  int floor() const {
    alignas(64) uint16_t hi[32], lo[32];
    _mm512_store_si512(hi, max);
    _mm512_store_si512(lo, min_nonzero);
    uint16_t largest = 0, smallest = 0x7F7F;
    for (int i = 0; i < 32; ++i) {
      largest = hi[i] > largest ? hi[i] : largest;
      smallest = lo[i] < smallest ? lo[i] : smallest;
    }
    if (largest >= 0x7F80u || smallest < 0x0080u) return 0;
    return smallest >> 7;
  }
};

}  // namespace
}  // namespace conv_bwd
}  // namespace aclnn_cpu
