// fp32 GEMM microkernels: C[m×n] (= or +=) A[m×kc]·B[kc×n] on packed panels, m ≤ MR, n ≤ NR.
//   A panel: kc steps of MR floats (row r of step k at a[k·MR + r]); rows ≥ m hold zeros.
//   B: kc steps of NR floats (column j of step k at b[k·ldb + j]): a packed panel (ldb = NR; columns ≥ n hold
//   zeros) or NR columns of a row-major matrix read in place (every step's NR floats readable).
//   C: row-major with leading dimension ldc; only the m×n corner is read or written.
// Each C element is one fp32 sum over k in ascending order (fused multiply-add where the ISA has it), added to
// C once at the end when `accumulate`; the result never depends on the tile position or the thread.
// Names follow <family>_<dtype>_<MR>x<NR>__<isa>; each ISA's file is compiled with that ISA's flags only.
#pragma once

#include <cstdint>

#include "conv_bwd/kernels/kernel_isas.hpp"
#include "core/isa.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// The family's enumerator list: X(tile, mr, nr, isa, level) for kernel gemm_f32_<tile>__<isa>, MR × NR, which
// needs ISA `level` (an Isa enumerator). It drives the prototypes (below), the table and the ISA selection
// (gemm_ukernel.cpp) and the tests (kernels_gemm_test.cpp). One kernel per ISA: the selection takes the one of the
// highest ISA at or below the plan's. Adding a kernel: its file (src/CMakeLists.txt's flags) and one line here.
#define ACLNN_CPU_GEMM_UKERNELS(X) \
  X(4x8, 4, 8, scalar, kScalar)    \
  X(6x16, 6, 16, avx2_fma, kAvx2)  \
  X(8x32, 8, 32, avx512f, kAvx512) \
  X(6x16, 6, 16, neon, kNeon)

// C (= or +=) A·B for m ≤ MR, n ≤ NR (above).
using GemmUkernelSignature = void(int64_t kc, const float *a, const float *b, int64_t ldb, float *c, int64_t ldc, int m,
                                  int n, bool accumulate);
using GemmUkernelFn = GemmUkernelSignature *;

struct GemmUkernel {
  GemmUkernelFn run;  // nullptr: not built for this target (kernel_isas.hpp)
  int mr, nr;
  Isa isa;
  const char *name;

  bool built() const { return run != nullptr; }
};

#define ACLNN_CPU_GEMM_UKERNEL_PROTOTYPE(tile, mr, nr, isa, level) GemmUkernelSignature gemm_f32_##tile##__##isa;
ACLNN_CPU_GEMM_UKERNELS(ACLNN_CPU_GEMM_UKERNEL_PROTOTYPE)
#undef ACLNN_CPU_GEMM_UKERNEL_PROTOTYPE

// Every kernel of ACLNN_CPU_GEMM_UKERNELS, in its order.
KernelList<GemmUkernel> gemm_ukernels();

// The kernel for `isa` (the best one this build has at or below it).
const GemmUkernel &gemm_ukernel(Isa isa);

// Adds (or copies) an MR×NR register tile held in `tile` into the m×n corner of C. Internal linkage on purpose:
// a shared inline copy could be taken from an AVX-512 object file and run on a CPU without it.
static inline void store_tile(const float *tile, int nr, float *c, int64_t ldc, int m, int n, bool accumulate) {
  for (int r = 0; r < m; ++r) {
    float *row = c + r * ldc;
    const float *t = tile + r * nr;
    if (accumulate) {
      for (int j = 0; j < n; ++j) row[j] += t[j];
    } else {
      for (int j = 0; j < n; ++j) row[j] = t[j];
    }
  }
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
