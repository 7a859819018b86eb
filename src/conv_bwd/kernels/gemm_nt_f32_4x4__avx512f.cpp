// AVX-512 NT kernel: 4 A rows × 4 B rows = 16 zmm accumulators of 16 lanes; per 16 k: 4 + 4 loads, 16 FMAs.
// Compiled with -mavx512f. Named accumulators (an array would live on the stack, see the NN AVX2 kernel).
// GCC 12 warns that the undefined source operand inside some AVX-512 intrinsics is uninitialised (GCC bug
// 105593, fixed in GCC 13); the operand is never read.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include "conv_bwd/kernels/gemm_nt_ukernel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// Lanes 0..15 summed pairwise, halves first: the same fixed tree for every element.
inline float lane_sum(__m512 v) {
  // 0x4E swaps the 256-bit halves (GCC 12 warns on _mm512_extractf64x4_pd's undefined source).
  const __m256 h = _mm512_castps512_ps256(_mm512_add_ps(v, _mm512_shuffle_f32x4(v, v, 0x4E)));
  const __m128 q = _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
  const __m128 d = _mm_add_ps(q, _mm_movehl_ps(q, q));
  return _mm_cvtss_f32(_mm_add_ss(d, _mm_shuffle_ps(d, d, 1)));
}

}  // namespace

void gemm_nt_f32_4x4__avx512f(int64_t kc, const float *a, const float *b, float *c, int64_t ldc, int m, int n,
                              bool accumulate) {
  __m512 c00 = _mm512_setzero_ps(), c01 = c00, c02 = c00, c03 = c00;
  __m512 c10 = c00, c11 = c00, c12 = c00, c13 = c00;
  __m512 c20 = c00, c21 = c00, c22 = c00, c23 = c00;
  __m512 c30 = c00, c31 = c00, c32 = c00, c33 = c00;
  const float *a1 = a + kc, *a2 = a1 + kc, *a3 = a2 + kc;
  const float *b1 = b + kc, *b2 = b1 + kc, *b3 = b2 + kc;
  for (int64_t k = 0; k < kc; k += 16) {
    const __m512 x0 = _mm512_loadu_ps(a + k), x1 = _mm512_loadu_ps(a1 + k);
    const __m512 x2 = _mm512_loadu_ps(a2 + k), x3 = _mm512_loadu_ps(a3 + k);
    __m512 y = _mm512_loadu_ps(b + k);
    c00 = _mm512_fmadd_ps(x0, y, c00);
    c10 = _mm512_fmadd_ps(x1, y, c10);
    c20 = _mm512_fmadd_ps(x2, y, c20);
    c30 = _mm512_fmadd_ps(x3, y, c30);
    y = _mm512_loadu_ps(b1 + k);
    c01 = _mm512_fmadd_ps(x0, y, c01);
    c11 = _mm512_fmadd_ps(x1, y, c11);
    c21 = _mm512_fmadd_ps(x2, y, c21);
    c31 = _mm512_fmadd_ps(x3, y, c31);
    y = _mm512_loadu_ps(b2 + k);
    c02 = _mm512_fmadd_ps(x0, y, c02);
    c12 = _mm512_fmadd_ps(x1, y, c12);
    c22 = _mm512_fmadd_ps(x2, y, c22);
    c32 = _mm512_fmadd_ps(x3, y, c32);
    y = _mm512_loadu_ps(b3 + k);
    c03 = _mm512_fmadd_ps(x0, y, c03);
    c13 = _mm512_fmadd_ps(x1, y, c13);
    c23 = _mm512_fmadd_ps(x2, y, c23);
    c33 = _mm512_fmadd_ps(x3, y, c33);
  }
  const float s[4][4] = {{lane_sum(c00), lane_sum(c01), lane_sum(c02), lane_sum(c03)},
                         {lane_sum(c10), lane_sum(c11), lane_sum(c12), lane_sum(c13)},
                         {lane_sum(c20), lane_sum(c21), lane_sum(c22), lane_sum(c23)},
                         {lane_sum(c30), lane_sum(c31), lane_sum(c32), lane_sum(c33)}};
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) c[i * ldc + j] = accumulate ? c[i * ldc + j] + s[i][j] : s[i][j];
  }
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
