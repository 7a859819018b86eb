// NEON (ASIMD) kernel for aarch64: 6 rows × 4 q-register columns = 24 accumulators of the 32 vector registers, per k
// step 4 B loads and the A column's 6 floats in 2 loads, each row's multiply-adds taking its factor from a lane of
// those (FMLA by element: no broadcasts). Fused multiply-add, so the bits of the x86 FMA kernels.
#include <arm_neon.h>

#include "conv_bwd/kernels/gemm_tile_neon.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

void gemm_f32_6x16__neon(int64_t kc, const float *a, const float *b, int64_t ldb, float *c, int64_t ldc, int m, int n,
                         bool accumulate) {
  ACLNN_CPU_NEON_6X16_ZERO(c);
  for (int64_t k = 0; k < kc; ++k) {
    const float32x4_t b0 = vld1q_f32(b), b1 = vld1q_f32(b + 4), b2 = vld1q_f32(b + 8), b3 = vld1q_f32(b + 12);
    const float32x4_t a03 = vld1q_f32(a);
    const float32x2_t a45 = vld1_f32(a + 4);
    ACLNN_CPU_NEON_6X16_STEP(c, b0, b1, b2, b3, a03, a45)
    a += kNeonMr;
    b += ldb;
  }
  const float32x4_t acc[kNeonMr][kNeonParts] = ACLNN_CPU_NEON_6X16_TILE(c);
  store_tile_6x16(acc, c, ldc, m, n, accumulate);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
