// AVX2+FMA NT kernel: 3 A rows × 4 B rows = 12 ymm accumulators of 8 lanes; per 8 k: 3 + 4 loads, 12 FMAs.
// Compiled with -mavx2 -mfma. Named accumulators (an array would live on the stack, see the NN kernel).
#include <immintrin.h>

#include "conv_bwd/kernels/gemm_nt_ukernel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// Lanes 0..7 summed as ((0+4)+(2+6))+((1+5)+(3+7)).
inline float lane_sum(__m256 v) {
  const __m128 q = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  const __m128 h = _mm_add_ps(q, _mm_movehl_ps(q, q));
  return _mm_cvtss_f32(_mm_add_ss(h, _mm_shuffle_ps(h, h, 1)));
}

}  // namespace

void gemm_nt_f32_3x4__avx2_fma(int64_t kc, const float *a, const float *b, float *c, int64_t ldc, int m, int n,
                               bool accumulate) {
  __m256 c00 = _mm256_setzero_ps(), c01 = c00, c02 = c00, c03 = c00;
  __m256 c10 = c00, c11 = c00, c12 = c00, c13 = c00;
  __m256 c20 = c00, c21 = c00, c22 = c00, c23 = c00;
  const float *a1 = a + kc, *a2 = a1 + kc;
  const float *b1 = b + kc, *b2 = b1 + kc, *b3 = b2 + kc;
  for (int64_t k = 0; k < kc; k += 8) {
    const __m256 x0 = _mm256_loadu_ps(a + k), x1 = _mm256_loadu_ps(a1 + k), x2 = _mm256_loadu_ps(a2 + k);
    __m256 y = _mm256_loadu_ps(b + k);
    c00 = _mm256_fmadd_ps(x0, y, c00);
    c10 = _mm256_fmadd_ps(x1, y, c10);
    c20 = _mm256_fmadd_ps(x2, y, c20);
    y = _mm256_loadu_ps(b1 + k);
    c01 = _mm256_fmadd_ps(x0, y, c01);
    c11 = _mm256_fmadd_ps(x1, y, c11);
    c21 = _mm256_fmadd_ps(x2, y, c21);
    y = _mm256_loadu_ps(b2 + k);
    c02 = _mm256_fmadd_ps(x0, y, c02);
    c12 = _mm256_fmadd_ps(x1, y, c12);
    c22 = _mm256_fmadd_ps(x2, y, c22);
    y = _mm256_loadu_ps(b3 + k);
    c03 = _mm256_fmadd_ps(x0, y, c03);
    c13 = _mm256_fmadd_ps(x1, y, c13);
    c23 = _mm256_fmadd_ps(x2, y, c23);
  }
  const float s[3][4] = {{lane_sum(c00), lane_sum(c01), lane_sum(c02), lane_sum(c03)},
                         {lane_sum(c10), lane_sum(c11), lane_sum(c12), lane_sum(c13)},
                         {lane_sum(c20), lane_sum(c21), lane_sum(c22), lane_sum(c23)}};
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) c[i * ldc + j] = accumulate ? c[i * ldc + j] + s[i][j] : s[i][j];
  }
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
