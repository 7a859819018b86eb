// NEON NT kernel for aarch64: 4 A rows × 4 B rows = 16 q-register accumulators of 4 lanes; per 4 k: 4 + 4 loads,
// 16 fused multiply-adds. Each element's 4 lanes are summed by the tree (l0 + l1) + (l2 + l3) (pairwise adds).
#include <arm_neon.h>

#include "conv_bwd/kernels/gemm_nt_ukernel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// Float j of the result: the lane sum of accumulator j.
inline float32x4_t row_sums(float32x4_t s0, float32x4_t s1, float32x4_t s2, float32x4_t s3) {
  return vpaddq_f32(vpaddq_f32(s0, s1), vpaddq_f32(s2, s3));
}

}  // namespace

void gemm_nt_f32_4x4__neon(int64_t kc, const float *a, int64_t lda, const float *const *b, float *c, int64_t ldc, int m,
                           int n, bool accumulate) {
  float32x4_t c00 = vdupq_n_f32(0.0f), c01 = c00, c02 = c00, c03 = c00, c10 = c00, c11 = c00, c12 = c00, c13 = c00;
  float32x4_t c20 = c00, c21 = c00, c22 = c00, c23 = c00, c30 = c00, c31 = c00, c32 = c00, c33 = c00;
  const float *a1 = a + lda, *a2 = a1 + lda, *a3 = a2 + lda;
  const float *b0 = b[0], *b1 = b[1], *b2 = b[2], *b3 = b[3];
  for (int64_t k = 0; k < kc; k += 4) {
    const float32x4_t x0 = vld1q_f32(a + k), x1 = vld1q_f32(a1 + k), x2 = vld1q_f32(a2 + k), x3 = vld1q_f32(a3 + k);
    float32x4_t y = vld1q_f32(b0 + k);
    c00 = vfmaq_f32(c00, x0, y);
    c10 = vfmaq_f32(c10, x1, y);
    c20 = vfmaq_f32(c20, x2, y);
    c30 = vfmaq_f32(c30, x3, y);
    y = vld1q_f32(b1 + k);
    c01 = vfmaq_f32(c01, x0, y);
    c11 = vfmaq_f32(c11, x1, y);
    c21 = vfmaq_f32(c21, x2, y);
    c31 = vfmaq_f32(c31, x3, y);
    y = vld1q_f32(b2 + k);
    c02 = vfmaq_f32(c02, x0, y);
    c12 = vfmaq_f32(c12, x1, y);
    c22 = vfmaq_f32(c22, x2, y);
    c32 = vfmaq_f32(c32, x3, y);
    y = vld1q_f32(b3 + k);
    c03 = vfmaq_f32(c03, x0, y);
    c13 = vfmaq_f32(c13, x1, y);
    c23 = vfmaq_f32(c23, x2, y);
    c33 = vfmaq_f32(c33, x3, y);
  }
  const float32x4_t rows[4] = {row_sums(c00, c01, c02, c03), row_sums(c10, c11, c12, c13), row_sums(c20, c21, c22, c23),
                               row_sums(c30, c31, c32, c33)};
  if (n == 4) {
    for (int i = 0; i < m; ++i) {
      float *ci = c + i * ldc;
      vst1q_f32(ci, accumulate ? vaddq_f32(vld1q_f32(ci), rows[i]) : rows[i]);
    }
    return;
  }
  float s[4][4];
  for (int i = 0; i < 4; ++i) vst1q_f32(s[i], rows[i]);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) c[i * ldc + j] = accumulate ? c[i * ldc + j] + s[i][j] : s[i][j];
  }
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
