// The end of the AVX-512 NT kernels (gemm_nt_ukernel.hpp, gemm_nt_bf16_ukernel.hpp): 16 accumulators of 16 lanes,
// one per element of a 4 × 4 tile, folded by one transposing tree and stored. Shared so that the fp32 and the BF16
// pair kernel fold their lanes in the same order (the pair kernel's claim to the fp32 kernel's bits rests on it). In
// an unnamed namespace: each kernel file keeps its own copy, compiled with its own flags (kernel_isas.hpp).
#pragma once

#include <cstdint>

#include "conv_bwd/kernels/avx512_intrinsics.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// The 16 lanes of a and b, pairwise: 128-bit block L of the result holds
// [a(L0+L2), b(L0+L2), a(L1+L3), b(L1+L3)] over a's and b's lanes 4L..4L+3.
inline __m512 nt_pair_sum(__m512 a, __m512 b) {
  return _mm512_add_ps(_mm512_unpacklo_ps(a, b), _mm512_unpackhi_ps(a, b));
}

// Two nt_pair_sum results: block L holds the four accumulators' sums over their lanes 4L..4L+3.
inline __m512 nt_quad_sum(__m512 ab, __m512 cd) {
  const __m512d x = _mm512_castps_pd(ab), y = _mm512_castps_pd(cd);
  return _mm512_add_ps(_mm512_castpd_ps(_mm512_unpacklo_pd(x, y)), _mm512_castpd_ps(_mm512_unpackhi_pd(x, y)));
}

// Sums 128-bit blocks: (t, u) -> [t(B0+B1), t(B2+B3), u(B0+B1), u(B2+B3)] (as 4-float blocks).
inline __m512 nt_block_sum(__m512 t, __m512 u) {
  return _mm512_add_ps(_mm512_shuffle_f32x4(t, u, 0x88), _mm512_shuffle_f32x4(t, u, 0xDD));
}

// The 4 × 4 tile's accumulators, c[i][j] for element (i, j).
struct NtTile4x4 {
  __m512 c[4][4];
};

// All 16 sums at once, every one by the same tree ((l0 + l2) + (l1 + l3)) per 4 lanes, then the four blocks as
// (B0 + B1) + (B2 + B3): element (i, j) lands in float 4i + j. Stored into the m × n corner of C, added to it when
// `accumulate`.
inline void nt_reduce_store_4x4(const NtTile4x4 &t, float *c, int64_t ldc, int m, int n, bool accumulate) {
  __m512 r[4];
  for (int i = 0; i < 4; ++i) {
    r[i] = nt_quad_sum(nt_pair_sum(t.c[i][0], t.c[i][1]), nt_pair_sum(t.c[i][2], t.c[i][3]));
  }
  const __m512 sums = nt_block_sum(nt_block_sum(r[0], r[1]), nt_block_sum(r[2], r[3]));
  if (m == 4 && n == 4) {
    const __m128 rows[4] = {_mm512_extractf32x4_ps(sums, 0), _mm512_extractf32x4_ps(sums, 1),
                            _mm512_extractf32x4_ps(sums, 2), _mm512_extractf32x4_ps(sums, 3)};
    for (int i = 0; i < 4; ++i) {
      float *ci = c + i * ldc;
      _mm_storeu_ps(ci, accumulate ? _mm_add_ps(_mm_loadu_ps(ci), rows[i]) : rows[i]);
    }
    return;
  }
  alignas(64) float s[16];
  _mm512_store_ps(s, sums);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) c[i * ldc + j] = accumulate ? c[i * ldc + j] + s[4 * i + j] : s[4 * i + j];
  }
}

}  // namespace
}  // namespace conv_bwd
}  // namespace aclnn_cpu
