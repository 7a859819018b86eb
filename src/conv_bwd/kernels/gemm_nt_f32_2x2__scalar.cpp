// Portable NT kernel: one lane, plain multiply and add.
#include "conv_bwd/kernels/gemm_nt_ukernel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

void gemm_nt_f32_2x2__scalar(int64_t kc, const float *a, int64_t lda, const float *const *b, float *c, int64_t ldc,
                             int m, int n, bool accumulate) {
  float s00 = 0, s01 = 0, s10 = 0, s11 = 0;
  const float *a1 = a + lda, *b0 = b[0], *b1 = b[1];
  for (int64_t k = 0; k < kc; ++k) {
    s00 += a[k] * b0[k];
    s01 += a[k] * b1[k];
    s10 += a1[k] * b0[k];
    s11 += a1[k] * b1[k];
  }
  const float s[2][2] = {{s00, s01}, {s10, s11}};
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) c[i * ldc + j] = accumulate ? c[i * ldc + j] + s[i][j] : s[i][j];
  }
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
