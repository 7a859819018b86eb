// fp32 "NT" GEMM microkernels, C[m×n] (= or +=) A·Bᵀ, for operands whose reduction dimension is the contiguous
// one (gradWeight: dy rows and im2col rows both run along positions), so packing is a copy, not a transpose.
//   A: MR rows of kc floats, row i at a + i·lda (rows ≥ m are read too: packing fills them with zeros);
//   B: NR rows of kc floats, row j at b[j] (any address: a packed row, or a shifted view into a padded x plane;
//   for j ≥ n the caller repeats a valid row, whose results are dropped);
//   kc is a multiple of `lanes` (every row holds kc readable floats; A's padding is zeros).
// Each C element is `lanes` fp32 partial sums (lane l takes k ≡ l mod lanes, ascending, fused multiply-add where
// the ISA has it) added in a fixed tree, then added to C once when `accumulate`. The order depends only on the
// kernel, never on the tile position or the thread.
#pragma once

#include <cstdint>

#include "core/isa.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

using GemmNtUkernelFn = void (*)(int64_t kc, const float *a, int64_t lda, const float *const *b, float *c, int64_t ldc,
                                 int m, int n, bool accumulate);

constexpr int kMaxNtNr = 4;  // the widest NR of the NT kernels (callers size their row-pointer arrays by it)

struct GemmNtUkernel {
  GemmNtUkernelFn run;
  int mr, nr, lanes;
  Isa isa;
  const char *name;
};

void gemm_nt_f32_2x2__scalar(int64_t kc, const float *a, int64_t lda, const float *const *b, float *c, int64_t ldc,
                             int m, int n, bool accumulate);
void gemm_nt_f32_3x4__avx2_fma(int64_t kc, const float *a, int64_t lda, const float *const *b, float *c, int64_t ldc,
                               int m, int n, bool accumulate);
void gemm_nt_f32_4x4__avx512f(int64_t kc, const float *a, int64_t lda, const float *const *b, float *c, int64_t ldc,
                              int m, int n, bool accumulate);

const GemmNtUkernel &gemm_nt_ukernel(Isa isa);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
