// BF16 pair RA microkernels: the RA product of gemm_ra_ukernel.hpp on BF16 operands, two K steps per instruction
// (VDPBF16PS), giving the bits of the fp32 RA kernel of the same tile wherever pairs_exact (gemm_bf16_ukernel.hpp)
// holds for the operands' exponent floors.
//   K: pair step i reads A columns at[i] and at[i] + 1 of every row and B's pair step i (NR words: the B steps of those
//   two columns, or of the first one and a zero). ra_pair_steps turns an RA kernel's K steps (real y positions in
//   ascending order, runs of consecutive ones) into pair steps: a run pairs up its neighbours, and its last step,
//   when it has no neighbour in the run, pairs with the column after it and a zero B step. That extra product is
//   +0 or −0 (a finite A value times +0), which leaves the fp32 sum unchanged (it never holds −0: it starts at +0
//   and round-to-nearest gives +0 for exact cancellations), so each lane still adds the same products in the same
//   order, ascending, one rounding each, as the fp32 RA kernel.
//   A: MR rows as BF16 windows stored in reverse (to_window: dst[−f] = BF16 of src[f]; or window_from_bf16 from
//   BF16 rows), row r given as a pointer a[r] such that the 32-bit word at a[r] − k holds column k in its high half
//   and column k + 1 in its low half: VDPBF16PS adds the high halves' product first (gemm_bf16_ukernel.hpp), so
//   column k's product comes first as in ascending k. Column at[i] + 1 must be readable (the caller's windows end
//   with a zero); its value must be finite and is part of the window's exponent floor, as every A value read is.
//   B: pair panels as gemm_bf16_ukernel.hpp's, converted from the fp32 RA panels run by run (ra_b_pairs), or made
//   from BF16 rows run by run (panel_from_bf16).
//   C, run_ct and the finite check exactly as gemm_ra_ukernel.hpp's.
#pragma once

#include <cstdint>

#include "conv_bwd/kernels/gemm_bf16_ukernel.hpp"
#include "conv_bwd/kernels/gemm_ra_ukernel.hpp"
#include "conv_bwd/kernels/kernel_isas.hpp"
#include "core/isa.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// The family's enumerator list: X(tile, mr, nr, isa, level) for kernel gemm_ra_bf16_<tile>__<isa> (run) with
// gemm_ra_ct_bf16_<tile>__<isa> (run_ct), the window conversions gemm_ra_bf16_window__<isa>,
// gemm_ra_bf16_window_from_bf16__<isa> and gemm_ra_bf16_words_floor__<isa>, and the panel conversions
// gemm_bf16_pairs__<isa> and gemm_ra_bf16_panel_from_bf16__<isa>, MR × NR, which needs ISA `level`. It drives the
// prototypes (below), the table and the selection (gemm_ukernel.cpp) and the tests (kernels_gemm_ra_bf16_test.cpp). A
// kernel replaces the fp32 RA kernel of the same tile only (gemm_ra_bf16_ukernel), so the blocking, and with it every
// sum, stays the same.
#define ACLNN_CPU_GEMM_RA_BF16_UKERNELS(X) \
  X(8x32, 8, 32, avx512bf16, kAvx512Bf16)  \
  X(8x16, 8, 16, avx512bf16, kAvx512Bf16)

using GemmRaBf16UkernelSignature = void(int64_t kp, const int32_t *at, const uint16_t *const *a, const uint32_t *b,
                                        int64_t ldb, float *c, int64_t ldc, int m, int n, bool accumulate);
using GemmRaCtBf16UkernelSignature = bool(int64_t kp, const int32_t *at, const uint16_t *const *a, const uint32_t *b,
                                          int64_t ldb, float *c, int64_t ldc, int m, int n, bool accumulate);
// dst_end[−f] = the high half of src[f] (BF16 values held as fp32 lose nothing) for f < n; returns the values'
// exponent floor as gemm_bf16_ukernel.hpp's to_pairs does.
using GemmRaBf16WindowSignature = int(const float *src, int64_t n, uint16_t *dst_end);
// dst_end[−f] = src[f·stride] for f < n, BF16 words copied as they are: a run of a window made straight from a BF16
// operand's row (any stride, negative included), without the fp32 values to_window takes.
using GemmRaBf16WindowFromBf16Signature = void(const uint16_t *src, int64_t stride, int64_t n, uint16_t *dst_end);
// The exponent floor of n BF16 words, as to_window returns it for the same values.
using GemmRaBf16WordsFloorSignature = int(const uint16_t *words, int64_t n);
// One run of len consecutive K steps of NR B lines as pair steps, straight from BF16 rows (line i's steps at
// src + i·ld): dst[s·NR + i] = step 2s in the high half and step 2s + 1 (0 past len) in the low half, s < ⌈len / 2⌉,
// as ra_b_pairs makes them from the fp32 panels.
using GemmRaBf16PanelFromBf16Signature = void(const uint16_t *src, int64_t ld, int nr, int64_t len, uint32_t *dst);

struct GemmRaBf16Ukernel {
  GemmRaBf16UkernelSignature *run;  // nullptr: not built for this target (kernel_isas.hpp)
  GemmRaCtBf16UkernelSignature *run_ct;
  GemmRaBf16WindowSignature *to_window;
  GemmRaBf16WindowFromBf16Signature *window_from_bf16;
  GemmRaBf16WordsFloorSignature *words_floor;
  GemmRaBf16PanelFromBf16Signature *panel_from_bf16;
  GemmBf16PairsSignature *to_pairs;
  int mr, nr;
  Isa isa;
  const char *name;

  bool built() const { return run != nullptr; }
};

#define ACLNN_CPU_GEMM_RA_BF16_UKERNEL_PROTOTYPES(tile, mr, nr, isa, level) \
  GemmRaBf16UkernelSignature gemm_ra_bf16_##tile##__##isa;                  \
  GemmRaCtBf16UkernelSignature gemm_ra_ct_bf16_##tile##__##isa;             \
  GemmRaBf16WindowSignature gemm_ra_bf16_window__##isa;                     \
  GemmRaBf16WindowFromBf16Signature gemm_ra_bf16_window_from_bf16__##isa;   \
  GemmRaBf16WordsFloorSignature gemm_ra_bf16_words_floor__##isa;            \
  GemmRaBf16PanelFromBf16Signature gemm_ra_bf16_panel_from_bf16__##isa;
ACLNN_CPU_GEMM_RA_BF16_UKERNELS(ACLNN_CPU_GEMM_RA_BF16_UKERNEL_PROTOTYPES)
#undef ACLNN_CPU_GEMM_RA_BF16_UKERNEL_PROTOTYPES

// Every kernel of ACLNN_CPU_GEMM_RA_BF16_UKERNELS, in its order.
KernelList<GemmRaBf16Ukernel> gemm_ra_bf16_ukernels();

// The pair kernel standing in for `ra` (same MR and NR) at `isa`, or nullptr.
const GemmRaBf16Ukernel *gemm_ra_bf16_ukernel(Isa isa, const GemmRaUkernel &ra);

// The pair steps of kc RA K steps `at` (ascending): writes pair_at (at most kc entries) and the length of each run
// of consecutive steps to run_steps (at most kc entries); returns the number of pair steps, and the runs in *runs.
int64_t ra_pair_steps(const int32_t *at, int64_t kc, int32_t *pair_at, int32_t *run_steps, int64_t *runs);

// Converts `panels` fp32 RA panels (kc_stride steps of NR floats apart; the first Σ run_steps steps used) into pair
// panels of kp = Σ ⌈run_steps / 2⌉ steps each (kp·NR words apart), run by run; returns their exponent floor.
int ra_b_pairs(const GemmRaBf16Ukernel &k, const float *b, int64_t kc_stride, int64_t panels, const int32_t *run_steps,
               int64_t runs, uint32_t *dst);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
