// AVX2+FMA kernel: gemm_f32_6x16__avx2_fma with each A row broadcast from its own pointer (6 base registers and one
// index: the same 2 B loads and 6 broadcasts per k step). Compiled with -mavx2 -mfma.
#include <immintrin.h>

#include "conv_bwd/kernels/gemm_ra_ukernel.hpp"
#include "conv_bwd/kernels/gemm_ukernel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

void gemm_ra_f32_6x16__avx2_fma(int64_t kc, const float *const *a, const float *b, int64_t ldb, float *c, int64_t ldc,
                                int m, int n, bool accumulate) {
  constexpr int kMr = 6, kNr = 16;
  __m256 c00 = _mm256_setzero_ps(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00;
  __m256 c30 = c00, c31 = c00, c40 = c00, c41 = c00, c50 = c00, c51 = c00;
  const float *a0 = a[0], *a1 = a[1], *a2 = a[2], *a3 = a[3], *a4 = a[4], *a5 = a[5];
  for (int64_t k = 0; k < kc; ++k) {
    const __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
    __m256 ar = _mm256_broadcast_ss(a0 + k);
    c00 = _mm256_fmadd_ps(ar, b0, c00);
    c01 = _mm256_fmadd_ps(ar, b1, c01);
    ar = _mm256_broadcast_ss(a1 + k);
    c10 = _mm256_fmadd_ps(ar, b0, c10);
    c11 = _mm256_fmadd_ps(ar, b1, c11);
    ar = _mm256_broadcast_ss(a2 + k);
    c20 = _mm256_fmadd_ps(ar, b0, c20);
    c21 = _mm256_fmadd_ps(ar, b1, c21);
    ar = _mm256_broadcast_ss(a3 + k);
    c30 = _mm256_fmadd_ps(ar, b0, c30);
    c31 = _mm256_fmadd_ps(ar, b1, c31);
    ar = _mm256_broadcast_ss(a4 + k);
    c40 = _mm256_fmadd_ps(ar, b0, c40);
    c41 = _mm256_fmadd_ps(ar, b1, c41);
    ar = _mm256_broadcast_ss(a5 + k);
    c50 = _mm256_fmadd_ps(ar, b0, c50);
    c51 = _mm256_fmadd_ps(ar, b1, c51);
    b += ldb;
  }
  float tile[kMr * kNr];
  const __m256 acc[kMr * 2] = {c00, c01, c10, c11, c20, c21, c30, c31, c40, c41, c50, c51};
  if (m == kMr && n == kNr) {
    for (int r = 0; r < kMr; ++r) {
      float *row = c + r * ldc;
      __m256 lo = acc[2 * r], hi = acc[2 * r + 1];
      if (accumulate) {
        lo = _mm256_add_ps(_mm256_loadu_ps(row), lo);
        hi = _mm256_add_ps(_mm256_loadu_ps(row + 8), hi);
      }
      _mm256_storeu_ps(row, lo);
      _mm256_storeu_ps(row + 8, hi);
    }
    return;
  }
  for (int r = 0; r < kMr; ++r) {
    _mm256_storeu_ps(tile + r * kNr, acc[2 * r]);
    _mm256_storeu_ps(tile + r * kNr + 8, acc[2 * r + 1]);
  }
  store_tile(tile, kNr, c, ldc, m, n, accumulate);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
