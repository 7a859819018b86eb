// The C tile of the AVX-512 8 × 32 kernels (NN and RA, fp32 and BF16 pairs) and 8 × 16 (RA), for files compiled with
// -mavx512f only: one accumulator per row and 16 columns, stored (or added to C) in place when the tile is whole, else
// through a scratch tile and store_tile.
#pragma once

#include "conv_bwd/kernels/avx512_intrinsics.hpp"
#include "conv_bwd/kernels/gemm_ukernel.hpp"
#include "conv_bwd/kernels/transpose_avx2.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

template <int kHalves>
static inline void store_tile_8xn(__m512 (*acc)[kHalves], float *c, int64_t ldc, int m, int n, bool accumulate) {
  constexpr int kMr = 8, kNr = 16 * kHalves;
  if (m == kMr && n == kNr) {
#pragma GCC unroll 8
    for (int r = 0; r < kMr; ++r) {
      float *row = c + r * ldc;
      for (int h = 0; h < kHalves; ++h) {
        if (accumulate) acc[r][h] = _mm512_add_ps(_mm512_loadu_ps(row + 16 * h), acc[r][h]);
        _mm512_storeu_ps(row + 16 * h, acc[r][h]);
      }
    }
    return;
  }
  float tile[kMr * kNr];
  for (int r = 0; r < kMr; ++r) {
    for (int h = 0; h < kHalves; ++h) _mm512_storeu_ps(tile + r * kNr + 16 * h, acc[r][h]);
  }
  store_tile(tile, kNr, c, ldc, m, n, accumulate);
}

// The RA kernels' transposed store (gemm_ra_ukernel.hpp's run_ct): element (r, i) at c[i·ldc + r], in 8 × 8 blocks
// of AVX registers (output channels 8q .. 8q + 7 are the low or high 256 bits of one half of every row); returns
// whether every value stored is finite.
template <int kHalves>
static inline bool store_tile_8xn_transposed(__m512 (*acc)[kHalves], float *c, int64_t ldc, int m, int n,
                                             bool accumulate) {
  constexpr int kMr = 8;
  bool finite = true;
  for (int q = 0; q < 2 * kHalves && 8 * q < n; ++q) {
    __m256 block[8];
#pragma GCC unroll 8
    for (int r = 0; r < kMr; ++r) {
      const __m512d v = _mm512_castps_pd(acc[r][q / 2]);
      block[r] = _mm256_castpd_ps(q % 2 == 0 ? _mm512_castpd512_pd256(v) : _mm512_extractf64x4_pd(v, 1));
    }
    transpose8x8_ps(block);
    finite = store_columns_8(block, c + 8 * q * ldc, ldc, m, n - 8 * q, accumulate) && finite;
  }
  return finite;
}

static inline void store_tile_8x32(__m512 (*acc)[2], float *c, int64_t ldc, int m, int n, bool accumulate) {
  store_tile_8xn<2>(acc, c, ldc, m, n, accumulate);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
