// The C tile of the NEON 6 × 16 kernels (NN and RA), for aarch64 kernel files: 24 accumulators, four per row, stored
// (or added to C) in place when the tile is whole, else through a scratch tile and store_tile; or stored transposed
// (the RA kernels' ct), checking that every value stored is finite.
#pragma once

#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "conv_bwd/kernels/gemm_ukernel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

constexpr int kNeonMr = 6, kNeonNr = 16, kNeonParts = kNeonNr / 4;

#define ACLNN_CPU_NEON_ROW(c, r, b0, b1, b2, b3, lane_fma, v, lane) \
  c##r##0 = lane_fma(c##r##0, b0, v, lane);                         \
  c##r##1 = lane_fma(c##r##1, b1, v, lane);                         \
  c##r##2 = lane_fma(c##r##2, b2, v, lane);                         \
  c##r##3 = lane_fma(c##r##3, b3, v, lane);
#define ACLNN_CPU_NEON_6X16_STEP(c, b0, b1, b2, b3, a03, a45)       \
  ACLNN_CPU_NEON_ROW(c, 0, b0, b1, b2, b3, vfmaq_laneq_f32, a03, 0) \
  ACLNN_CPU_NEON_ROW(c, 1, b0, b1, b2, b3, vfmaq_laneq_f32, a03, 1) \
  ACLNN_CPU_NEON_ROW(c, 2, b0, b1, b2, b3, vfmaq_laneq_f32, a03, 2) \
  ACLNN_CPU_NEON_ROW(c, 3, b0, b1, b2, b3, vfmaq_laneq_f32, a03, 3) \
  ACLNN_CPU_NEON_ROW(c, 4, b0, b1, b2, b3, vfmaq_lane_f32, a45, 0)  \
  ACLNN_CPU_NEON_ROW(c, 5, b0, b1, b2, b3, vfmaq_lane_f32, a45, 1)

// The 24 accumulators as named variables: GCC 12 kept an array of them in memory and stored it to the stack every k
// step (the AVX2 kernels' lesson, gemm_f32_6x16__avx2_fma.cpp). STEP(c, b0..b3, a03, a45) is one k step: row r's
// four multiply-adds by lane r of a03 (rows 0-3) or lane r - 4 of a45 (rows 4-5), FMLA by element.
#define ACLNN_CPU_NEON_6X16_ZERO(c)                                                                                    \
  float32x4_t c##00 = vdupq_n_f32(0.0f), c##01 = c##00, c##02 = c##00, c##03 = c##00, c##10 = c##00, c##11 = c##00,    \
              c##12 = c##00, c##13 = c##00, c##20 = c##00, c##21 = c##00, c##22 = c##00, c##23 = c##00, c##30 = c##00, \
              c##31 = c##00, c##32 = c##00, c##33 = c##00, c##40 = c##00, c##41 = c##00, c##42 = c##00, c##43 = c##00, \
              c##50 = c##00, c##51 = c##00, c##52 = c##00, c##53 = c##00
#define ACLNN_CPU_NEON_6X16_TILE(c)                                                           \
  {                                                                                           \
    {c##00, c##01, c##02, c##03}, {c##10, c##11, c##12, c##13}, {c##20, c##21, c##22, c##23}, \
        {c##30, c##31, c##32, c##33}, {c##40, c##41, c##42, c##43}, {                         \
      c##50, c##51, c##52, c##53                                                              \
    }                                                                                         \
  }

static inline void store_tile_6x16(const float32x4_t acc[kNeonMr][kNeonParts], float *c, int64_t ldc, int m, int n,
                                   bool accumulate) {
  if (m == kNeonMr && n == kNeonNr) {
    for (int r = 0; r < kNeonMr; ++r) {
      float *row = c + r * ldc;
      for (int p = 0; p < kNeonParts; ++p) {
        const float32x4_t v = accumulate ? vaddq_f32(vld1q_f32(row + 4 * p), acc[r][p]) : acc[r][p];
        vst1q_f32(row + 4 * p, v);
      }
    }
    return;
  }
  float tile[kNeonMr * kNeonNr];
  for (int r = 0; r < kNeonMr; ++r) {
    for (int p = 0; p < kNeonParts; ++p) vst1q_f32(tile + r * kNeonNr + 4 * p, acc[r][p]);
  }
  store_tile(tile, kNeonNr, c, ldc, m, n, accumulate);
}

// Element (r, i) of the tile to c[i·ldc + r] (+= when accumulating) for r < m, i < n, nothing else read or written.
// Returns whether every value stored is finite (its exponent bits not all set). The transpose goes through a scratch
// tile: it runs once per tile and K block, beside kc steps of 24 multiply-adds.
static inline bool store_tile_6x16_transposed(const float32x4_t acc[kNeonMr][kNeonParts], float *c, int64_t ldc, int m,
                                              int n, bool accumulate) {
  float tile[kNeonMr * kNeonNr];
  for (int r = 0; r < kNeonMr; ++r) {
    for (int p = 0; p < kNeonParts; ++p) vst1q_f32(tile + r * kNeonNr + 4 * p, acc[r][p]);
  }
  uint32_t special = 0;
  for (int i = 0; i < n; ++i) {
    float *dst = c + i * ldc;
    for (int r = 0; r < m; ++r) {
      const float v = accumulate ? dst[r] + tile[r * kNeonNr + i] : tile[r * kNeonNr + i];
      dst[r] = v;
      uint32_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      special |= static_cast<uint32_t>((bits & 0x7F800000u) == 0x7F800000u);
    }
  }
  return special == 0;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
