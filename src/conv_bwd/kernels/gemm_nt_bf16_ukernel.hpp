// BF16 pair NT microkernels: the NT product of gemm_nt_ukernel.hpp on BF16 operands, two K steps per instruction
// (VDPBF16PS), giving the bits of the fp32 NT kernel of the same tile and lanes wherever pairs_exact
// (gemm_bf16_ukernel.hpp) holds for the operands' exponent floors.
//   NT pair rows: a row of kc values (kc a multiple of the kernel's `lanes`, 16) as nt_pair_words(kc) 32-bit words,
//   chunk t (16 words) holding value 32t + l in the high half of word l and value 32t + 16 + l (zero past kc) in its
//   low half. VDPBF16PS adds the high halves' product first (gemm_bf16_ukernel.hpp), so lane l adds k = 32t + l, then
//   32t + 16 + l: the fp32 kernel's lane l, k ≡ l (mod 16) ascending, one rounding each (a BF16 product is exact in
//   fp32). The pad adds ±0, which leaves a sum that started at +0 unchanged. The lanes are then folded by the fp32
//   kernel's own tree (gemm_nt_reduce_avx512.hpp).
//   A: MR pair rows, row i at a + i·lda words (rows ≥ m are read too: zeros); B: NR pair rows given as pointers (for
//   j ≥ n the caller repeats a valid row, as for the fp32 kernel). C as in gemm_nt_ukernel.hpp.
#pragma once

#include <algorithm>
#include <cstdint>

#include "conv_bwd/kernels/gemm_bf16_ukernel.hpp"
#include "conv_bwd/kernels/gemm_nt_ukernel.hpp"
#include "conv_bwd/kernels/kernel_isas.hpp"
#include "core/isa.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// The family's enumerator list: X(tile, mr, nr, lanes, isa, level) for kernel gemm_nt_bf16_<tile>__<isa> with its row
// conversions gemm_nt_bf16_rows__<isa> and gemm_nt_bf16_rows_from_bf16__<isa>, MR × NR with `lanes` partial sums per
// element, which needs ISA `level`. It drives the prototypes (below), the table and the selection (gemm_ukernel.cpp)
// and the tests (kernels_gemm_nt_bf16_test.cpp). A kernel replaces the fp32 NT kernel of the same tile and lanes only
// (gemm_nt_bf16_ukernel), so the blocking, and with it every sum, stays the same.
#define ACLNN_CPU_GEMM_NT_BF16_UKERNELS(X) X(4x4, 4, 4, 16, avx512bf16, kAvx512Bf16)

// C (= or +=) A·Bᵀ over kw words of pair rows (kw a multiple of 16), m ≤ MR, n ≤ NR; lda in words.
using GemmNtBf16UkernelSignature = void(int64_t kw, const uint32_t *a, int64_t lda, const uint32_t *const *b, float *c,
                                        int64_t ldc, int m, int n, bool accumulate);
// Converts `rows` rows of kc values (kc a multiple of 16; row r at src + r·ld) into NT pair rows of nt_pair_words(kc)
// words each, one after the other from dst, and returns their exponent floor as gemm_bf16_ukernel.hpp's to_pairs does.
using GemmNtBf16RowsSignature = int(const float *src, int64_t ld, int64_t rows, int64_t kc, uint32_t *dst);
// The same pair rows and floor straight from BF16 memory (an operand that needs no rounding, e.g. 1×1 gradWeight's x
// and dy rows): row r's first n values (n ≤ kc; any kc) at src + r·ld, its values from n to kc zero, nothing read past
// n. It skips the fp32 rows, which only blocks failing pairs_exact need.
using GemmNtBf16RowsFromBf16Signature = int(const uint16_t *src, int64_t ld, int64_t rows, int64_t n, int64_t kc,
                                            uint32_t *dst);

// Words of an NT pair row of kc values.
inline int64_t nt_pair_words(int64_t kc) { return (kc + 31) / 32 * 16; }

struct GemmNtBf16Ukernel {
  GemmNtBf16UkernelSignature *run;  // nullptr: not built for this target (kernel_isas.hpp)
  GemmNtBf16RowsSignature *to_rows;
  GemmNtBf16RowsFromBf16Signature *rows_from_bf16;
  int mr, nr, lanes;
  Isa isa;
  const char *name;

  bool built() const { return run != nullptr; }

  // rows_from_bf16 for `real` rows, then zero rows up to `rows` (a tile's rows past the operand's, as packing fills
  // them); their floor.
  int padded_rows_from_bf16(const uint16_t *src, int64_t ld, int64_t real, int64_t rows, int64_t n, int64_t kc,
                            uint32_t *dst) const {
    const int floor = rows_from_bf16(src, ld, real, n, kc, dst);
    std::fill(dst + real * nt_pair_words(kc), dst + rows * nt_pair_words(kc), 0u);
    return floor;
  }
};

#define ACLNN_CPU_GEMM_NT_BF16_UKERNEL_PROTOTYPES(tile, mr, nr, lanes, isa, level) \
  GemmNtBf16UkernelSignature gemm_nt_bf16_##tile##__##isa;                         \
  GemmNtBf16RowsSignature gemm_nt_bf16_rows__##isa;                                \
  GemmNtBf16RowsFromBf16Signature gemm_nt_bf16_rows_from_bf16__##isa;
ACLNN_CPU_GEMM_NT_BF16_UKERNELS(ACLNN_CPU_GEMM_NT_BF16_UKERNEL_PROTOTYPES)
#undef ACLNN_CPU_GEMM_NT_BF16_UKERNEL_PROTOTYPES

// Every kernel of ACLNN_CPU_GEMM_NT_BF16_UKERNELS, in its order.
KernelList<GemmNtBf16Ukernel> gemm_nt_bf16_ukernels();

// The pair kernel standing in for `nt` (same MR, NR and lanes) at `isa`, or nullptr.
const GemmNtBf16Ukernel *gemm_nt_bf16_ukernel(Isa isa, const GemmNtUkernel &nt);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
