// AVX2+FMA kernel: 6 rows × 2 ymm columns = 12 accumulators, 2 B loads and 6 broadcasts per k step.
// Compiled with -mavx2 -mfma (src/CMakeLists.txt); called only when CPUID reports both.
// The accumulators are named variables, not an array: GCC kept an array in memory and stored all twelve to the
// stack every k step (52 instead of 100+ GFLOP/s on one Zen 5 core).
#include <immintrin.h>

#include "conv_bwd/kernels/gemm_tile_avx2.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

void gemm_f32_6x16__avx2_fma(int64_t kc, const float *a, const float *b, int64_t ldb, float *c, int64_t ldc, int m,
                             int n, bool accumulate) {
  constexpr int kMr = 6;
  __m256 c00 = _mm256_setzero_ps(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00;
  __m256 c30 = c00, c31 = c00, c40 = c00, c41 = c00, c50 = c00, c51 = c00;
  for (int64_t k = 0; k < kc; ++k) {
    const __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
    __m256 ar = _mm256_broadcast_ss(a + 0);
    c00 = _mm256_fmadd_ps(ar, b0, c00);
    c01 = _mm256_fmadd_ps(ar, b1, c01);
    ar = _mm256_broadcast_ss(a + 1);
    c10 = _mm256_fmadd_ps(ar, b0, c10);
    c11 = _mm256_fmadd_ps(ar, b1, c11);
    ar = _mm256_broadcast_ss(a + 2);
    c20 = _mm256_fmadd_ps(ar, b0, c20);
    c21 = _mm256_fmadd_ps(ar, b1, c21);
    ar = _mm256_broadcast_ss(a + 3);
    c30 = _mm256_fmadd_ps(ar, b0, c30);
    c31 = _mm256_fmadd_ps(ar, b1, c31);
    ar = _mm256_broadcast_ss(a + 4);
    c40 = _mm256_fmadd_ps(ar, b0, c40);
    c41 = _mm256_fmadd_ps(ar, b1, c41);
    ar = _mm256_broadcast_ss(a + 5);
    c50 = _mm256_fmadd_ps(ar, b0, c50);
    c51 = _mm256_fmadd_ps(ar, b1, c51);
    a += kMr;
    b += ldb;
  }
  const __m256 acc[kMr * 2] = {c00, c01, c10, c11, c20, c21, c30, c31, c40, c41, c50, c51};
  store_tile_6x16(acc, c, ldc, m, n, accumulate);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
