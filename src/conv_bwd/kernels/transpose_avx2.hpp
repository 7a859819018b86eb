// An 8 × 8 fp32 transpose in AVX registers (unpack pairs, then quads, then the 128-bit halves), for kernel files
// compiled with -mavx2 or -mavx512f: r[j] becomes column j of the rows r[0..7].
#pragma once

#include <immintrin.h>

namespace aclnn_cpu {
namespace conv_bwd {

static inline void transpose8x8_ps(__m256 r[8]) {
  const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]),
               t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]),
               t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]),
               t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
  const __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE),
               s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE),
               s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE),
               s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
  r[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
  r[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
  r[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
  r[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
  r[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
  r[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
  r[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
  r[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
}

// Stores the 8 columns of one transposed block: c[i·ldc + r] (+)= r-th lane of col[i], for lanes r < m and i < n
// (masked: nothing past m is read or written). Returns whether every value stored is finite (v − v is +0 for a
// finite v and NaN for Inf and NaN; the stored lanes' differences or-ed together are NaN only then).
static inline bool store_columns_8(const __m256 col[8], float *c, int64_t ldc, int m, int n, bool accumulate) {
  const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(m), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256 special = _mm256_setzero_ps();
  for (int i = 0; i < 8 && i < n; ++i) {
    float *dst = c + i * ldc;
    __m256 v = col[i];
    if (accumulate) v = _mm256_add_ps(_mm256_maskload_ps(dst, mask), v);
    _mm256_maskstore_ps(dst, mask, v);
    special = _mm256_or_ps(special, _mm256_and_ps(_mm256_sub_ps(v, v), _mm256_castsi256_ps(mask)));
  }
  return _mm256_movemask_ps(_mm256_cmp_ps(special, special, _CMP_UNORD_Q)) == 0;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
