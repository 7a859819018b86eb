// AVX-512 NT kernel: 4 A rows × 4 B rows = 16 zmm accumulators of 16 lanes; per 16 k: 4 + 4 loads, 16 FMAs.
// Compiled with -mavx512f. Named accumulators (an array would live on the stack, see the NN AVX2 kernel).
#include "conv_bwd/kernels/avx512_intrinsics.hpp"
#include "conv_bwd/kernels/gemm_nt_ukernel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// The 16 lanes of a and b, pairwise: 128-bit block L of the result holds
// [a(L0+L2), b(L0+L2), a(L1+L3), b(L1+L3)] over a's and b's lanes 4L..4L+3.
inline __m512 pair_sum(__m512 a, __m512 b) { return _mm512_add_ps(_mm512_unpacklo_ps(a, b), _mm512_unpackhi_ps(a, b)); }

// Two pair_sum results: block L holds the four accumulators' sums over their lanes 4L..4L+3.
inline __m512 quad_sum(__m512 ab, __m512 cd) {
  const __m512d x = _mm512_castps_pd(ab), y = _mm512_castps_pd(cd);
  return _mm512_add_ps(_mm512_castpd_ps(_mm512_unpacklo_pd(x, y)), _mm512_castpd_ps(_mm512_unpackhi_pd(x, y)));
}

// Sums 128-bit blocks: (t, u) -> [t(B0+B1), t(B2+B3), u(B0+B1), u(B2+B3)] (as 4-float blocks).
inline __m512 block_sum(__m512 t, __m512 u) {
  return _mm512_add_ps(_mm512_shuffle_f32x4(t, u, 0x88), _mm512_shuffle_f32x4(t, u, 0xDD));
}

}  // namespace

void gemm_nt_f32_4x4__avx512f(int64_t kc, const float *a, int64_t lda, const float *const *b, float *c, int64_t ldc,
                              int m, int n, bool accumulate) {
  __m512 c00 = _mm512_setzero_ps(), c01 = c00, c02 = c00, c03 = c00;
  __m512 c10 = c00, c11 = c00, c12 = c00, c13 = c00;
  __m512 c20 = c00, c21 = c00, c22 = c00, c23 = c00;
  __m512 c30 = c00, c31 = c00, c32 = c00, c33 = c00;
  const float *a1 = a + lda, *a2 = a1 + lda, *a3 = a2 + lda;
  const float *b0 = b[0], *b1 = b[1], *b2 = b[2], *b3 = b[3];
  for (int64_t k = 0; k < kc; k += 16) {
    const __m512 x0 = _mm512_loadu_ps(a + k), x1 = _mm512_loadu_ps(a1 + k);
    const __m512 x2 = _mm512_loadu_ps(a2 + k), x3 = _mm512_loadu_ps(a3 + k);
    __m512 y = _mm512_loadu_ps(b0 + k);
    c00 = _mm512_fmadd_ps(x0, y, c00);
    c10 = _mm512_fmadd_ps(x1, y, c10);
    c20 = _mm512_fmadd_ps(x2, y, c20);
    c30 = _mm512_fmadd_ps(x3, y, c30);
    y = _mm512_loadu_ps(b1 + k);
    c01 = _mm512_fmadd_ps(x0, y, c01);
    c11 = _mm512_fmadd_ps(x1, y, c11);
    c21 = _mm512_fmadd_ps(x2, y, c21);
    c31 = _mm512_fmadd_ps(x3, y, c31);
    y = _mm512_loadu_ps(b2 + k);
    c02 = _mm512_fmadd_ps(x0, y, c02);
    c12 = _mm512_fmadd_ps(x1, y, c12);
    c22 = _mm512_fmadd_ps(x2, y, c22);
    c32 = _mm512_fmadd_ps(x3, y, c32);
    y = _mm512_loadu_ps(b3 + k);
    c03 = _mm512_fmadd_ps(x0, y, c03);
    c13 = _mm512_fmadd_ps(x1, y, c13);
    c23 = _mm512_fmadd_ps(x2, y, c23);
    c33 = _mm512_fmadd_ps(x3, y, c33);
  }
  // All 16 sums at once, every one by the same tree ((l0 + l2) + (l1 + l3)) per 4 lanes, then the four blocks
  // as (B0 + B1) + (B2 + B3): element (i, j) of the tile lands in float 4i + j.
  const __m512 r0 = quad_sum(pair_sum(c00, c01), pair_sum(c02, c03));
  const __m512 r1 = quad_sum(pair_sum(c10, c11), pair_sum(c12, c13));
  const __m512 r2 = quad_sum(pair_sum(c20, c21), pair_sum(c22, c23));
  const __m512 r3 = quad_sum(pair_sum(c30, c31), pair_sum(c32, c33));
  const __m512 sums = block_sum(block_sum(r0, r1), block_sum(r2, r3));
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

}  // namespace conv_bwd
}  // namespace aclnn_cpu
