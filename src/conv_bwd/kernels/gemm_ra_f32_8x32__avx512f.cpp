// AVX-512 RA kernels: gemm_f32_8x32__avx512f with each A row broadcast from its own pointer (8 base registers and one
// index, the A column read from a table: per k step the B loads of its 32 or 16 columns and 8 broadcasts), the tile
// stored as it is or transposed (ct: in 8 × 8 blocks of AVX registers). The 16-wide one takes groups of 16 output
// channels (ResNeXt's). Compiled with -mavx512f.
#include "conv_bwd/kernels/avx512_intrinsics.hpp"
#include "conv_bwd/kernels/gemm_ra_ukernel.hpp"
#include "conv_bwd/kernels/gemm_tile_avx512.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

template <int kHalves, bool kTransposedC>
inline bool ra_8xn(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb, float *c,
                   int64_t ldc, int m, int n, bool accumulate) {
  constexpr int kMr = 8;
  const float *rows[kMr];
#pragma GCC unroll 8
  for (int r = 0; r < kMr; ++r) rows[r] = a[r];
  __m512 acc[kMr][kHalves];
#pragma GCC unroll 8
  for (int r = 0; r < kMr; ++r) {
    for (int h = 0; h < kHalves; ++h) acc[r][h] = _mm512_setzero_ps();
  }
  for (int64_t step = 0; step < kc; ++step) {
    const int64_t k = at[step];
    __m512 bh[kHalves];
    for (int h = 0; h < kHalves; ++h) bh[h] = _mm512_loadu_ps(b + 16 * h);
#pragma GCC unroll 8
    for (int r = 0; r < kMr; ++r) {
      const __m512 ar = _mm512_set1_ps(rows[r][k]);
      for (int h = 0; h < kHalves; ++h) acc[r][h] = _mm512_fmadd_ps(ar, bh[h], acc[r][h]);
    }
    b += ldb;
  }
  if constexpr (!kTransposedC) {
    store_tile_8xn<kHalves>(acc, c, ldc, m, n, accumulate);
    return true;
  }
  return store_tile_8xn_transposed<kHalves>(acc, c, ldc, m, n, accumulate);
}

}  // namespace

void gemm_ra_f32_8x32__avx512f(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb,
                               float *c, int64_t ldc, int m, int n, bool accumulate) {
  ra_8xn<2, false>(kc, at, a, b, ldb, c, ldc, m, n, accumulate);
}

bool gemm_ra_ct_f32_8x32__avx512f(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb,
                                  float *c, int64_t ldc, int m, int n, bool accumulate) {
  return ra_8xn<2, true>(kc, at, a, b, ldb, c, ldc, m, n, accumulate);
}

void gemm_ra_f32_8x16__avx512f(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb,
                               float *c, int64_t ldc, int m, int n, bool accumulate) {
  ra_8xn<1, false>(kc, at, a, b, ldb, c, ldc, m, n, accumulate);
}

bool gemm_ra_ct_f32_8x16__avx512f(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb,
                                  float *c, int64_t ldc, int m, int n, bool accumulate) {
  return ra_8xn<1, true>(kc, at, a, b, ldb, c, ldc, m, n, accumulate);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
