// The C tile of the AVX-512 8 × 32 kernels (NN and RA) and 8 × 16 (RA), for files compiled with -mavx512f only: one
// accumulator per row and 16 columns, stored (or added to C) in place when the tile is whole, else through a scratch
// tile and store_tile.
#pragma once

#include "conv_bwd/kernels/avx512_intrinsics.hpp"
#include "conv_bwd/kernels/gemm_ukernel.hpp"

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

static inline void store_tile_8x32(__m512 (*acc)[2], float *c, int64_t ldc, int m, int n, bool accumulate) {
  store_tile_8xn<2>(acc, c, ldc, m, n, accumulate);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
