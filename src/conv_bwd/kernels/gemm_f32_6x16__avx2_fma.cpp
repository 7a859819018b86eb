// AVX2+FMA kernel: 6 rows × 2 ymm columns = 12 accumulators, 2 B loads and 6 broadcasts per k step.
// Compiled with -mavx2 -mfma (src/CMakeLists.txt); called only when CPUID reports both.
#include <immintrin.h>

#include "conv_bwd/kernels/gemm_ukernel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

void gemm_f32_6x16__avx2_fma(int64_t kc, const float *a, const float *b, float *c, int64_t ldc, int m, int n,
                             bool accumulate) {
  constexpr int kMr = 6, kNr = 16;
  __m256 acc[kMr][2];
#pragma GCC unroll 6
  for (int r = 0; r < kMr; ++r) acc[r][0] = acc[r][1] = _mm256_setzero_ps();
  for (int64_t k = 0; k < kc; ++k) {
    const __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
#pragma GCC unroll 6
    for (int r = 0; r < kMr; ++r) {
      const __m256 ar = _mm256_broadcast_ss(a + r);
      acc[r][0] = _mm256_fmadd_ps(ar, b0, acc[r][0]);
      acc[r][1] = _mm256_fmadd_ps(ar, b1, acc[r][1]);
    }
    a += kMr;
    b += kNr;
  }
  if (m == kMr && n == kNr) {
#pragma GCC unroll 6
    for (int r = 0; r < kMr; ++r) {
      float *row = c + r * ldc;
      if (accumulate) {
        acc[r][0] = _mm256_add_ps(_mm256_loadu_ps(row), acc[r][0]);
        acc[r][1] = _mm256_add_ps(_mm256_loadu_ps(row + 8), acc[r][1]);
      }
      _mm256_storeu_ps(row, acc[r][0]);
      _mm256_storeu_ps(row + 8, acc[r][1]);
    }
    return;
  }
  float tile[kMr * kNr];
  for (int r = 0; r < kMr; ++r) {
    _mm256_storeu_ps(tile + r * kNr, acc[r][0]);
    _mm256_storeu_ps(tile + r * kNr + 8, acc[r][1]);
  }
  store_tile(tile, kNr, c, ldc, m, n, accumulate);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
