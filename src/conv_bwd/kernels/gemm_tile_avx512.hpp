// The C tile of the AVX-512 8 × 32 kernels (NN and RA), for files compiled with -mavx512f only: 16 accumulators, two
// per row, stored (or added to C) in place when the tile is whole, else through a scratch tile and store_tile.
#pragma once

#include "conv_bwd/kernels/avx512_intrinsics.hpp"
#include "conv_bwd/kernels/gemm_ukernel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

static inline void store_tile_8x32(__m512 (*acc)[2], float *c, int64_t ldc, int m, int n, bool accumulate) {
  constexpr int kMr = 8, kNr = 32;
  if (m == kMr && n == kNr) {
#pragma GCC unroll 8
    for (int r = 0; r < kMr; ++r) {
      float *row = c + r * ldc;
      if (accumulate) {
        acc[r][0] = _mm512_add_ps(_mm512_loadu_ps(row), acc[r][0]);
        acc[r][1] = _mm512_add_ps(_mm512_loadu_ps(row + 16), acc[r][1]);
      }
      _mm512_storeu_ps(row, acc[r][0]);
      _mm512_storeu_ps(row + 16, acc[r][1]);
    }
    return;
  }
  float tile[kMr * kNr];
  for (int r = 0; r < kMr; ++r) {
    _mm512_storeu_ps(tile + r * kNr, acc[r][0]);
    _mm512_storeu_ps(tile + r * kNr + 16, acc[r][1]);
  }
  store_tile(tile, kNr, c, ldc, m, n, accumulate);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
