// AVX2+FMA NT kernel: 3 A rows × 4 B rows = 12 ymm accumulators of 8 lanes; per 8 k: 3 + 4 loads, 12 FMAs.
// Compiled with -mavx2 -mfma. Named accumulators (an array would live on the stack, see the NN kernel).
#include <immintrin.h>

#include "conv_bwd/kernels/gemm_nt_ukernel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// The four accumulators of one tile row summed at once, each by the same tree: ((l0 + l2) + (l1 + l3)) within
// each 128-bit half, then the halves added; float j of the result is accumulator j's sum.
inline __m128 row_sums(__m256 a, __m256 b, __m256 c, __m256 d) {
  const __m256 ab = _mm256_add_ps(_mm256_unpacklo_ps(a, b), _mm256_unpackhi_ps(a, b));
  const __m256 cd = _mm256_add_ps(_mm256_unpacklo_ps(c, d), _mm256_unpackhi_ps(c, d));
  const __m256d x = _mm256_castps_pd(ab), y = _mm256_castps_pd(cd);
  const __m256 q =
      _mm256_add_ps(_mm256_castpd_ps(_mm256_unpacklo_pd(x, y)), _mm256_castpd_ps(_mm256_unpackhi_pd(x, y)));
  return _mm_add_ps(_mm256_castps256_ps128(q), _mm256_extractf128_ps(q, 1));
}

}  // namespace

void gemm_nt_f32_3x4__avx2_fma(int64_t kc, const float *a, int64_t lda, const float *const *b, float *c, int64_t ldc,
                               int m, int n, bool accumulate) {
  __m256 c00 = _mm256_setzero_ps(), c01 = c00, c02 = c00, c03 = c00;
  __m256 c10 = c00, c11 = c00, c12 = c00, c13 = c00;
  __m256 c20 = c00, c21 = c00, c22 = c00, c23 = c00;
  const float *a1 = a + lda, *a2 = a1 + lda;
  const float *b0 = b[0], *b1 = b[1], *b2 = b[2], *b3 = b[3];
  for (int64_t k = 0; k < kc; k += 8) {
    const __m256 x0 = _mm256_loadu_ps(a + k), x1 = _mm256_loadu_ps(a1 + k), x2 = _mm256_loadu_ps(a2 + k);
    __m256 y = _mm256_loadu_ps(b0 + k);
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
  const __m128 rows[3] = {row_sums(c00, c01, c02, c03), row_sums(c10, c11, c12, c13), row_sums(c20, c21, c22, c23)};
  if (n == 4) {
    for (int i = 0; i < m; ++i) {
      float *ci = c + i * ldc;
      _mm_storeu_ps(ci, accumulate ? _mm_add_ps(_mm_loadu_ps(ci), rows[i]) : rows[i]);
    }
    return;
  }
  alignas(16) float s[3][4];
  for (int i = 0; i < 3; ++i) _mm_store_ps(s[i], rows[i]);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) c[i * ldc + j] = accumulate ? c[i * ldc + j] + s[i][j] : s[i][j];
  }
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
