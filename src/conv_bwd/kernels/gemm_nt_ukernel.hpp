// fp32 "NT" GEMM microkernels, C[m×n] (= or +=) A·Bᵀ, for operands whose reduction dimension is the contiguous
// one (gradWeight: dy rows and im2col rows both run along positions), so packing is a copy, not a transpose.
//   A: MR rows of kc floats, row i at a + i·lda (rows ≥ m are read too: packing fills them with zeros);
//   B: NR rows of kc floats, row j at b[j] (any address: a packed row, or a shifted view into a padded x plane;
//   for j ≥ n the caller repeats a valid row, whose results are dropped);
//   kc is a multiple of `lanes` (every row holds kc readable floats; A's padding is zeros).
// Each C element is `lanes` fp32 partial sums (lane l takes k ≡ l mod lanes, ascending, fused multiply-add where
// the ISA has it) added in a fixed tree, then added to C once when `accumulate`. The order depends only on the
// kernel, never on the tile position or the thread.
// Calls computing in BF16 at avx512_bf16 run the pair kernel of gemm_nt_bf16_ukernel.hpp instead: the same tile, lanes
// and sums, two K steps per lane and instruction.
#pragma once

#include <cstdint>

#include "conv_bwd/kernels/kernel_isas.hpp"
#include "core/isa.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// The family's enumerator list: X(tile, mr, nr, lanes, isa, level) for kernel gemm_nt_f32_<tile>__<isa>, MR × NR
// with `lanes` partial sums per element, which needs ISA `level`. It drives the prototypes (below), the table and the
// ISA selection (gemm_ukernel.cpp) and the tests (kernels_gemm_nt_test.cpp); one kernel per ISA, as the NN family.
#define ACLNN_CPU_GEMM_NT_UKERNELS(X) \
  X(2x2, 2, 2, 1, scalar, kScalar)    \
  X(3x4, 3, 4, 8, avx2_fma, kAvx2)    \
  X(4x4, 4, 4, 16, avx512f, kAvx512)  \
  X(4x4, 4, 4, 4, neon, kNeon)

using GemmNtUkernelSignature = void(int64_t kc, const float *a, int64_t lda, const float *const *b, float *c,
                                    int64_t ldc, int m, int n, bool accumulate);
using GemmNtUkernelFn = GemmNtUkernelSignature *;

constexpr int kMaxNtNr = 4;  // the widest NR of the NT kernels (callers size their row-pointer arrays by it)

struct GemmNtUkernel {
  GemmNtUkernelFn run;  // nullptr: not built for this target (kernel_isas.hpp)
  int mr, nr, lanes;
  Isa isa;
  const char *name;

  bool built() const { return run != nullptr; }
};

#define ACLNN_CPU_GEMM_NT_UKERNEL_PROTOTYPE(tile, mr, nr, lanes, isa, level) \
  GemmNtUkernelSignature gemm_nt_f32_##tile##__##isa;
ACLNN_CPU_GEMM_NT_UKERNELS(ACLNN_CPU_GEMM_NT_UKERNEL_PROTOTYPE)
#undef ACLNN_CPU_GEMM_NT_UKERNEL_PROTOTYPE

// Every kernel of ACLNN_CPU_GEMM_NT_UKERNELS, in its order.
KernelList<GemmNtUkernel> gemm_nt_ukernels();

// The kernel for `isa` (the best one this build has at or below it).
const GemmNtUkernel &gemm_nt_ukernel(Isa isa);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
