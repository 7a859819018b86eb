// The C tile of the AVX2 6 × 16 kernels (NN and RA), for files compiled with -mavx2 -mfma only: 12 accumulators,
// two per row, stored (or added to C) in place when the tile is whole, else through a scratch tile and store_tile.
#pragma once

#include <immintrin.h>

#include "conv_bwd/kernels/gemm_ukernel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

static inline void store_tile_6x16(const __m256 *acc, float *c, int64_t ldc, int m, int n, bool accumulate) {
  constexpr int kMr = 6, kNr = 16;
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
  float tile[kMr * kNr];
  for (int r = 0; r < kMr; ++r) {
    _mm256_storeu_ps(tile + r * kNr, acc[2 * r]);
    _mm256_storeu_ps(tile + r * kNr + 8, acc[2 * r + 1]);
  }
  store_tile(tile, kNr, c, ldc, m, n, accumulate);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
