// fp32 GEMM microkernels with A given as row pointers: C[m×n] (= or +=) A[m×kc]·B[kc×n], m ≤ MR, n ≤ NR.
//   K: step k of B pairs with column at[k] of every A row (kc steps). at[k] = k is a plain GEMM; gemm_weight_shifted
//   passes the block's real y positions, so q-space's junk positions (12 % of a 14² plane's) cost nothing. A table,
//   not runs: runs of 14 (a 14² plane's rows) cost the kernel 11 % in loop exits, the table's load nothing.
//   A: MR rows, row r at a[r] (any address: a shifted view into a packed x window; for r ≥ m the caller repeats a
//   valid row, whose results are dropped);
//   B, C and the order of every sum exactly as the NN kernels (gemm_ukernel.hpp): one fp32 sum over k ascending,
//   added to C once when `accumulate`. So a kernel gives the bits its ISA's NN kernel gives on A packed.
//   run_ct stores C transposed instead: element (r, i) at c[i·ldc + r], nothing outside those n rows × m columns read
//   or written (masked stores), and returns whether every value it stored is finite.
// gradWeight transposed (gemm_weight_shifted): rows of A are the (x channel, tap) rows of the shifted layout,
// broadcast where they lie, B is the dy block transposed (positions × output channels), so no tile waits on a
// reduction across lanes at the end of a short K block (the NT kernels' cost on small planes); run_ct puts a tile
// straight back into dW's rows (output channels).
// Calls computing in BF16 at avx512_bf16 run the pair kernels of gemm_ra_bf16_ukernel.hpp instead: the same tiles and
// sums, two K steps per instruction.
#pragma once

#include <cstdint>

#include "conv_bwd/kernels/kernel_isas.hpp"
#include "core/isa.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// The family's enumerator list: X(tile, mr, nr, isa, level, transpose_isa) for kernel gemm_ra_f32_<tile>__<isa>
// (run) with gemm_ra_ct_f32_<tile>__<isa> (run_ct), MR × NR, which needs ISA `level`, and the transpose of
// transpose_isa (gemm_ra_transpose_f32__<transpose_isa>: AVX-512 CPUs run the AVX2 one, 8 × 8 blocks, the panels and
// columns it moves being a small part; NEON's moves 4 × 4 blocks). It drives the prototypes (below), the table and the
// selection (gemm_ukernel.cpp) and the tests (kernels_gemm_ra_test.cpp). The portable 4 × 8 one tried lost to the
// scalar NT kernel (one thread, ResNeXt's 14² × 16 per group 5.0 -> 5.9 ms, ResNet's 14² 3×3 40 -> 48 ms): no scalar
// entry.
#define ACLNN_CPU_GEMM_RA_UKERNELS(X)        \
  X(6x16, 6, 16, avx2_fma, kAvx2, avx2_fma)  \
  X(8x32, 8, 32, avx512f, kAvx512, avx2_fma) \
  X(8x16, 8, 16, avx512f, kAvx512, avx2_fma) \
  X(6x16, 6, 16, neon, kNeon, neon)

using GemmRaUkernelSignature = void(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb,
                                    float *c, int64_t ldc, int m, int n, bool accumulate);
using GemmRaCtUkernelSignature = bool(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb,
                                      float *c, int64_t ldc, int m, int n, bool accumulate);
using GemmRaUkernelFn = GemmRaUkernelSignature *;
using GemmRaCtUkernelFn = GemmRaCtUkernelSignature *;

constexpr int kMaxRaMr = 8;  // the most A rows a kernel reads (callers size their row-pointer arrays by it)

// dst[j·ldd + i] = src[i·lds + j] for i < rows, j < cols (the RA product's dy blocks into panels, its columns back
// into gradWeight's rows).
using GemmRaTransposeSignature = void(const float *src, int64_t lds, int64_t rows, int64_t cols, float *dst,
                                      int64_t ldd);
using GemmRaTransposeFn = GemmRaTransposeSignature *;

struct GemmRaUkernel {
  GemmRaUkernelFn run;  // nullptr: not built for this target (kernel_isas.hpp)
  GemmRaCtUkernelFn run_ct;
  GemmRaTransposeFn transpose;
  int mr, nr;
  Isa isa;
  const char *name;

  bool built() const { return run != nullptr; }
};

#define ACLNN_CPU_GEMM_RA_UKERNEL_PROTOTYPES(tile, mr, nr, isa, level, transpose_isa) \
  GemmRaUkernelSignature gemm_ra_f32_##tile##__##isa;                                 \
  GemmRaCtUkernelSignature gemm_ra_ct_f32_##tile##__##isa;
ACLNN_CPU_GEMM_RA_UKERNELS(ACLNN_CPU_GEMM_RA_UKERNEL_PROTOTYPES)
#undef ACLNN_CPU_GEMM_RA_UKERNEL_PROTOTYPES
GemmRaTransposeSignature gemm_ra_transpose_f32__avx2_fma;
GemmRaTransposeSignature gemm_ra_transpose_f32__neon;

// Every kernel of ACLNN_CPU_GEMM_RA_UKERNELS, in its order.
KernelList<GemmRaUkernel> gemm_ra_ukernels();

// The kernel for `isa` whose panels best fit m output channels, or nullptr (no kernel at or below `isa`): of the
// highest ISA's, the widest whose NR divides m (no panel part empty), else the widest. AVX2 has one (16 wide),
// AVX-512 two (32 wide, and 16 wide when m is not a multiple of 32), NEON one (16 wide).
const GemmRaUkernel *gemm_ra_ukernel(Isa isa, int64_t m);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
