// NEON RA kernels: gemm_f32_6x16__neon with each A row read from its own pointer (6 base registers and one index,
// the A column from a table: per k step 4 B loads and 6 lane loads gathering the column, whose lanes feed each row's
// 4 multiply-adds by element), the tile stored as it is or transposed (ct); and the 4 × 4-block transpose of the RA
// product's panels.
#include <arm_neon.h>

#include "conv_bwd/kernels/gemm_ra_ukernel.hpp"
#include "conv_bwd/kernels/gemm_tile_neon.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

template <bool kTransposedC>
inline bool ra_6x16(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb, float *c,
                    int64_t ldc, int m, int n, bool accumulate) {
  ACLNN_CPU_NEON_6X16_ZERO(c);
  const float *a0 = a[0], *a1 = a[1], *a2 = a[2], *a3 = a[3], *a4 = a[4], *a5 = a[5];
  for (int64_t step = 0; step < kc; ++step) {
    const int64_t k = at[step];
    const float32x4_t b0 = vld1q_f32(b), b1 = vld1q_f32(b + 4), b2 = vld1q_f32(b + 8), b3 = vld1q_f32(b + 12);
    // The column's 6 floats gathered into two registers, lane by lane: as 6 scalars beside the 24 accumulators and 4
    // B vectors they take 34 of the 32 registers, and GCC kept accumulators on the stack. It turns the lane loads
    // back into scalars unless the vectors must exist (the empty asm, which emits nothing).
    float32x4_t a03 = vld1q_dup_f32(a0 + k);
    a03 = vld1q_lane_f32(a1 + k, a03, 1);
    a03 = vld1q_lane_f32(a2 + k, a03, 2);
    a03 = vld1q_lane_f32(a3 + k, a03, 3);
    float32x2_t a45 = vld1_dup_f32(a4 + k);
    a45 = vld1_lane_f32(a5 + k, a45, 1);
    __asm__("" : "+w"(a03), "+w"(a45));
    ACLNN_CPU_NEON_6X16_STEP(c, b0, b1, b2, b3, a03, a45)
    b += ldb;
  }
  const float32x4_t acc[kNeonMr][kNeonParts] = ACLNN_CPU_NEON_6X16_TILE(c);
  if constexpr (!kTransposedC) {
    store_tile_6x16(acc, c, ldc, m, n, accumulate);
    return true;
  }
  return store_tile_6x16_transposed(acc, c, ldc, m, n, accumulate);
}

// One 4 × 4 block: dst row j = src column j (pairs of rows zipped, then pairs of those halves).
inline void transpose4x4(const float *src, int64_t lds, float *dst, int64_t ldd) {
  const float32x4_t r0 = vld1q_f32(src), r1 = vld1q_f32(src + lds), r2 = vld1q_f32(src + 2 * lds),
                    r3 = vld1q_f32(src + 3 * lds);
  const float64x2_t t0 = vreinterpretq_f64_f32(vzip1q_f32(r0, r1)), t1 = vreinterpretq_f64_f32(vzip2q_f32(r0, r1));
  const float64x2_t t2 = vreinterpretq_f64_f32(vzip1q_f32(r2, r3)), t3 = vreinterpretq_f64_f32(vzip2q_f32(r2, r3));
  vst1q_f32(dst, vreinterpretq_f32_f64(vzip1q_f64(t0, t2)));
  vst1q_f32(dst + ldd, vreinterpretq_f32_f64(vzip2q_f64(t0, t2)));
  vst1q_f32(dst + 2 * ldd, vreinterpretq_f32_f64(vzip1q_f64(t1, t3)));
  vst1q_f32(dst + 3 * ldd, vreinterpretq_f32_f64(vzip2q_f64(t1, t3)));
}

}  // namespace

void gemm_ra_f32_6x16__neon(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb, float *c,
                            int64_t ldc, int m, int n, bool accumulate) {
  ra_6x16<false>(kc, at, a, b, ldb, c, ldc, m, n, accumulate);
}

bool gemm_ra_ct_f32_6x16__neon(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb,
                               float *c, int64_t ldc, int m, int n, bool accumulate) {
  return ra_6x16<true>(kc, at, a, b, ldb, c, ldc, m, n, accumulate);
}

void gemm_ra_transpose_f32__neon(const float *src, int64_t lds, int64_t rows, int64_t cols, float *dst, int64_t ldd) {
  int64_t i0 = 0;
  for (; i0 + 4 <= rows; i0 += 4) {
    int64_t j = 0;
    for (; j + 4 <= cols; j += 4) transpose4x4(src + i0 * lds + j, lds, dst + j * ldd + i0, ldd);
    for (; j < cols; ++j) {
      for (int64_t i = i0; i < i0 + 4; ++i) dst[j * ldd + i] = src[i * lds + j];
    }
  }
  for (; i0 < rows; ++i0) {
    for (int64_t j = 0; j < cols; ++j) dst[j * ldd + i0] = src[i0 * lds + j];
  }
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
