// BF16 pair GEMM microkernels: the NN product of gemm_ukernel.hpp on BF16 operands, two K steps per instruction
// (VDPBF16PS), giving the bits of the fp32 NN kernel of the same tile on the same panels wherever `pairs_exact` holds.
//   Pair panels: the fp32 panels of gemm_ukernel.hpp (kc steps of `width` lines, every value a BF16 value: the
//   operands of a call computing in BF16) converted by `to_pairs` into ceil(kc / 2) steps of `width` 32-bit words,
//   word (i, line) = BF16 of step 2i in the high half, of step 2i + 1 (zero past kc) in the low half.
//   Why that way round: VDPBF16PS adds the high halves' product to the accumulator before the low halves' (Intel SDM,
//   VDPBF16PS; checked on AMD Zen 4 and Zen 5 by tests/unit/kernels_gemm_bf16_test.cpp), so each lane still adds its
//   products in ascending k, one rounding each (a BF16 product is exact in fp32), as the fp32 FMA kernels do. The pad
//   adds +0 · +0, which leaves an fp32 sum that started at +0 unchanged.
//   The instruction flushes BF16 subnormal inputs, the accumulator it reads and every result below 2^-126 to zero.
//   pairs_exact(fa, fb) says from the panels' exponent floors (to_pairs's results) that none of that can happen:
//   every nonzero product is a multiple of 2^(ea + eb - 14) (8-bit significands) and so is every partial sum, so
//   with ea_min + eb_min >= -112 no nonzero value falls below 2^-126. Blocks failing it (tiny, subnormal, Inf or
//   NaN values) run the fp32 kernel on the fp32 panels, so results are those of the fp32 path in every case.
//   B: always pair panels (NR words per step); C as in gemm_ukernel.hpp, added to once at the end when `accumulate`.
#pragma once

#include <cstdint>

#include "conv_bwd/kernels/gemm_ukernel.hpp"
#include "conv_bwd/kernels/kernel_isas.hpp"
#include "core/isa.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// The family's enumerator list: X(tile, mr, nr, isa, level) for kernel gemm_bf16_<tile>__<isa> with its panel
// conversions gemm_bf16_pairs__<isa>, gemm_bf16_step_pairs__<isa> and gemm_bf16_line_pairs__<isa>, MR × NR, which needs
// ISA `level`. It drives the prototypes (below), the table and the selection (gemm_ukernel.cpp) and the tests
// (kernels_gemm_bf16_test.cpp). A kernel replaces the fp32 NN kernel of the same tile only (gemm_bf16_ukernel), so that
// the blocking, and with it every sum, stays the same.
#define ACLNN_CPU_GEMM_BF16_UKERNELS(X) X(8x32, 8, 32, avx512bf16, kAvx512Bf16)

// C (= or +=) A·B over kp pair steps, m ≤ MR, n ≤ NR.
using GemmBf16UkernelSignature = void(int64_t kp, const uint32_t *a, const uint32_t *b, float *c, int64_t ldc, int m,
                                      int n, bool accumulate);
// Converts `panels` consecutive fp32 panels (kc steps × width floats each) into pair panels (ceil(kc / 2) steps ×
// width words each) and returns their exponent floor: 0 when any value is subnormal, infinite or NaN, else the
// smallest biased exponent of a nonzero value (254 when all are zero). width is a multiple of 8.
using GemmBf16PairsSignature = int(const float *src, int64_t panels, int width, int64_t kc, uint32_t *dst);
// The same pair panels and floor straight from BF16 memory: step k's `lines` values at steps[k] (a BF16 operand
// that needs no rounding, e.g. gradOutput's or the weight's rows), lines past `lines` zero; ceil(lines / width) panels
// of ceil(kc / 2) steps × width words, panel p at dst + p · panel_words (≥ ceil(kc / 2) · width: a block's part of
// panels that hold more K steps). It skips the fp32 panels, which only blocks failing pairs_exact need.
using GemmBf16StepPairsSignature = int(const uint16_t *const *steps, int64_t kc, int64_t lines, int width,
                                       uint32_t *dst, int64_t panel_words);
// The same pair panels and floor from fp32 lines: line i's kc values (BF16 values held as fp32) at src + i · ld,
// lines past `lines` zero; ceil(lines / width) panels of ceil(kc / 2) steps × width words, back to back from dst
// (width a multiple of 8). For operands fetched line by line (gemm_weight's dy rows and im2col columns): one pass from
// the lines to the pairs, where packing the lines into fp32 panels scattered every value and to_pairs read them all
// again.
using GemmBf16LinePairsSignature = int(const float *src, int64_t ld, int64_t lines, int64_t kc, int width,
                                       uint32_t *dst);

// The floor of panels whose values are all zero: the neutral element of combining floors by std::min.
constexpr int kBf16FloorAllZero = 254;

// Whether the pair kernel gives the fp32 kernel's bits on panels of exponent floors fa and fb (above).
inline bool pairs_exact(int fa, int fb) { return fa > 0 && fb > 0 && fa + fb >= 142; }

// Pair steps of kc K steps.
inline int64_t pair_steps(int64_t kc) { return (kc + 1) / 2; }

struct GemmBf16Ukernel {
  GemmBf16UkernelSignature *run;  // nullptr: not built for this target (kernel_isas.hpp)
  GemmBf16PairsSignature *to_pairs;
  GemmBf16StepPairsSignature *steps_to_pairs;
  GemmBf16LinePairsSignature *lines_to_pairs;
  int mr, nr;
  Isa isa;
  const char *name;

  bool built() const { return run != nullptr; }
};

#define ACLNN_CPU_GEMM_BF16_UKERNEL_PROTOTYPES(tile, mr, nr, isa, level) \
  GemmBf16UkernelSignature gemm_bf16_##tile##__##isa;                    \
  GemmBf16PairsSignature gemm_bf16_pairs__##isa;                         \
  GemmBf16StepPairsSignature gemm_bf16_step_pairs__##isa;                \
  GemmBf16LinePairsSignature gemm_bf16_line_pairs__##isa;
ACLNN_CPU_GEMM_BF16_UKERNELS(ACLNN_CPU_GEMM_BF16_UKERNEL_PROTOTYPES)
#undef ACLNN_CPU_GEMM_BF16_UKERNEL_PROTOTYPES

// Every kernel of ACLNN_CPU_GEMM_BF16_UKERNELS, in its order.
KernelList<GemmBf16Ukernel> gemm_bf16_ukernels();

// The pair kernel standing in for `nn` (same MR and NR) at `isa`, or nullptr.
const GemmBf16Ukernel *gemm_bf16_ukernel(Isa isa, const GemmUkernel &nn);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
