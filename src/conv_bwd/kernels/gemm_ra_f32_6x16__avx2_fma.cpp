// AVX2+FMA kernels: gemm_f32_6x16__avx2_fma with each A row broadcast from its own pointer (6 base registers and
// one index, the A column read from a table: the same 2 B loads and 6 broadcasts per k step), the tile stored as it
// is or transposed (ct). Compiled with -mavx2 -mfma.
#include <immintrin.h>

#include "conv_bwd/kernels/gemm_ra_ukernel.hpp"
#include "conv_bwd/kernels/gemm_tile_avx2.hpp"
#include "conv_bwd/kernels/transpose_avx2.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

template <bool kTransposedC>
inline bool ra_6x16(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb, float *c,
                    int64_t ldc, int m, int n, bool accumulate) {
  __m256 c00 = _mm256_setzero_ps(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00;
  __m256 c30 = c00, c31 = c00, c40 = c00, c41 = c00, c50 = c00, c51 = c00;
  const float *a0 = a[0], *a1 = a[1], *a2 = a[2], *a3 = a[3], *a4 = a[4], *a5 = a[5];
  for (int64_t step = 0; step < kc; ++step) {
    const int64_t k = at[step];
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
  if constexpr (!kTransposedC) {
    const __m256 acc[12] = {c00, c01, c10, c11, c20, c21, c30, c31, c40, c41, c50, c51};
    store_tile_6x16(acc, c, ldc, m, n, accumulate);
    return true;
  }
  // Each half of the tile's columns (8 output channels) as 8 rows of 6 (two rows of zeros), transposed.
  const __m256 zero = _mm256_setzero_ps();
  __m256 lo[8] = {c00, c10, c20, c30, c40, c50, zero, zero}, hi[8] = {c01, c11, c21, c31, c41, c51, zero, zero};
  transpose8x8_ps(lo);
  const bool finite = store_columns_8(lo, c, ldc, m, n, accumulate);
  if (n <= 8) return finite;
  transpose8x8_ps(hi);
  return store_columns_8(hi, c + 8 * ldc, ldc, m, n - 8, accumulate) && finite;
}

}  // namespace

void gemm_ra_f32_6x16__avx2_fma(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb,
                                float *c, int64_t ldc, int m, int n, bool accumulate) {
  ra_6x16<false>(kc, at, a, b, ldb, c, ldc, m, n, accumulate);
}

bool gemm_ra_ct_f32_6x16__avx2_fma(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb,
                                   float *c, int64_t ldc, int m, int n, bool accumulate) {
  return ra_6x16<true>(kc, at, a, b, ldb, c, ldc, m, n, accumulate);
}

namespace {

// One 8 × 8 block: dst row j = src column j.
inline void transpose8x8(const float *src, int64_t lds, float *dst, int64_t ldd) {
  __m256 r[8];
  for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(src + i * lds);
  transpose8x8_ps(r);
  for (int j = 0; j < 8; ++j) _mm256_storeu_ps(dst + j * ldd, r[j]);
}

}  // namespace

void gemm_ra_transpose_f32__avx2_fma(const float *src, int64_t lds, int64_t rows, int64_t cols, float *dst,
                                     int64_t ldd) {
  int64_t i0 = 0;
  for (; i0 + 8 <= rows; i0 += 8) {
    int64_t j = 0;
    for (; j + 8 <= cols; j += 8) transpose8x8(src + i0 * lds + j, lds, dst + j * ldd + i0, ldd);
    for (; j < cols; ++j) {
      for (int64_t i = i0; i < i0 + 8; ++i) dst[j * ldd + i] = src[i * lds + j];
    }
  }
  for (; i0 < rows; ++i0) {
    for (int64_t j = 0; j < cols; ++j) dst[j * ldd + i0] = src[i0 * lds + j];
  }
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
