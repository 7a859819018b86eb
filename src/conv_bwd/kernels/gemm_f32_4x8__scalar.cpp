// Portable kernel for CPUs without AVX2+FMA (and the ACLNN_CPU_MAX_ISA=scalar path): plain multiply and add, which
// the compiler may vectorise with the baseline ISA. GCC contracts C++ into fused multiply-adds where the baseline has
// them (aarch64: the NEON kernels' bits), never on x86-64's baseline, which has none.
#include "conv_bwd/kernels/gemm_ukernel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

void gemm_f32_4x8__scalar(int64_t kc, const float *a, const float *b, int64_t ldb, float *c, int64_t ldc, int m, int n,
                          bool accumulate) {
  constexpr int kMr = 4, kNr = 8;
  float acc[kMr * kNr] = {};
  for (int64_t k = 0; k < kc; ++k) {
    for (int r = 0; r < kMr; ++r) {
      const float ar = a[r];
      for (int j = 0; j < kNr; ++j) acc[r * kNr + j] += ar * b[j];
    }
    a += kMr;
    b += ldb;
  }
  store_tile(acc, kNr, c, ldc, m, n, accumulate);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
