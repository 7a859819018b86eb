// The GEMM families' tables, generated from their enumerator lists (gemm_ukernel.hpp, gemm_nt_ukernel.hpp,
// gemm_ra_ukernel.hpp, gemm_bf16_ukernel.hpp, gemm_ra_bf16_ukernel.hpp, gemm_nt_bf16_ukernel.hpp) in the lists' order,
// and the kernel each picks for the plan's ISA (already capped to what the CPU runs and to ACLNN_CPU_MAX_ISA). The x86
// kernels exist only where they were compiled (src/CMakeLists.txt); elsewhere their entries have no function and every
// ISA gets the portable ones.
#include "conv_bwd/kernels/gemm_ukernel.hpp"

#include <iterator>

#include "conv_bwd/kernels/gemm_bf16_ukernel.hpp"
#include "conv_bwd/kernels/gemm_nt_bf16_ukernel.hpp"
#include "conv_bwd/kernels/gemm_nt_ukernel.hpp"
#include "conv_bwd/kernels/gemm_ra_bf16_ukernel.hpp"
#include "conv_bwd/kernels/gemm_ra_ukernel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

#define ACLNN_CPU_GEMM_UKERNEL_ENTRY(tile, mr, nr, isa, level)                              \
  GemmUkernel{ACLNN_CPU_KERNEL_IF_BUILT(isa, gemm_f32_##tile##__##isa), mr, nr, Isa::level, \
              "gemm_f32_" #tile "__" #isa},
const GemmUkernel kGemmUkernels[] = {ACLNN_CPU_GEMM_UKERNELS(ACLNN_CPU_GEMM_UKERNEL_ENTRY)};
#undef ACLNN_CPU_GEMM_UKERNEL_ENTRY

#define ACLNN_CPU_GEMM_NT_UKERNEL_ENTRY(tile, mr, nr, lanes, isa, level)     \
  GemmNtUkernel{ACLNN_CPU_KERNEL_IF_BUILT(isa, gemm_nt_f32_##tile##__##isa), \
                mr,                                                          \
                nr,                                                          \
                lanes,                                                       \
                Isa::level,                                                  \
                "gemm_nt_f32_" #tile "__" #isa},
const GemmNtUkernel kGemmNtUkernels[] = {ACLNN_CPU_GEMM_NT_UKERNELS(ACLNN_CPU_GEMM_NT_UKERNEL_ENTRY)};
#undef ACLNN_CPU_GEMM_NT_UKERNEL_ENTRY

#define ACLNN_CPU_GEMM_RA_UKERNEL_ENTRY(tile, mr, nr, isa, level, transpose_isa)                  \
  GemmRaUkernel{ACLNN_CPU_KERNEL_IF_BUILT(isa, gemm_ra_f32_##tile##__##isa),                      \
                ACLNN_CPU_KERNEL_IF_BUILT(isa, gemm_ra_ct_f32_##tile##__##isa),                   \
                ACLNN_CPU_KERNEL_IF_BUILT(transpose_isa, gemm_ra_transpose_f32__##transpose_isa), \
                mr,                                                                               \
                nr,                                                                               \
                Isa::level,                                                                       \
                "gemm_ra_f32_" #tile "__" #isa},
const GemmRaUkernel kGemmRaUkernels[] = {ACLNN_CPU_GEMM_RA_UKERNELS(ACLNN_CPU_GEMM_RA_UKERNEL_ENTRY)};
#undef ACLNN_CPU_GEMM_RA_UKERNEL_ENTRY

#define ACLNN_CPU_GEMM_BF16_UKERNEL_ENTRY(tile, mr, nr, isa, level)            \
  GemmBf16Ukernel{ACLNN_CPU_KERNEL_IF_BUILT(isa, gemm_bf16_##tile##__##isa),   \
                  ACLNN_CPU_KERNEL_IF_BUILT(isa, gemm_bf16_pairs__##isa),      \
                  ACLNN_CPU_KERNEL_IF_BUILT(isa, gemm_bf16_step_pairs__##isa), \
                  ACLNN_CPU_KERNEL_IF_BUILT(isa, gemm_bf16_line_pairs__##isa), \
                  mr,                                                          \
                  nr,                                                          \
                  Isa::level,                                                  \
                  "gemm_bf16_" #tile "__" #isa},
const GemmBf16Ukernel kGemmBf16Ukernels[] = {ACLNN_CPU_GEMM_BF16_UKERNELS(ACLNN_CPU_GEMM_BF16_UKERNEL_ENTRY)};
#undef ACLNN_CPU_GEMM_BF16_UKERNEL_ENTRY

#define ACLNN_CPU_GEMM_RA_BF16_UKERNEL_ENTRY(tile, mr, nr, isa, level)                    \
  GemmRaBf16Ukernel{ACLNN_CPU_KERNEL_IF_BUILT(isa, gemm_ra_bf16_##tile##__##isa),         \
                    ACLNN_CPU_KERNEL_IF_BUILT(isa, gemm_ra_ct_bf16_##tile##__##isa),      \
                    ACLNN_CPU_KERNEL_IF_BUILT(isa, gemm_ra_bf16_window__##isa),           \
                    ACLNN_CPU_KERNEL_IF_BUILT(isa, gemm_ra_bf16_window_from_bf16__##isa), \
                    ACLNN_CPU_KERNEL_IF_BUILT(isa, gemm_ra_bf16_words_floor__##isa),      \
                    ACLNN_CPU_KERNEL_IF_BUILT(isa, gemm_ra_bf16_panel_from_bf16__##isa),  \
                    ACLNN_CPU_KERNEL_IF_BUILT(isa, gemm_bf16_pairs__##isa),               \
                    mr,                                                                   \
                    nr,                                                                   \
                    Isa::level,                                                           \
                    "gemm_ra_bf16_" #tile "__" #isa},
const GemmRaBf16Ukernel kGemmRaBf16Ukernels[] = {ACLNN_CPU_GEMM_RA_BF16_UKERNELS(ACLNN_CPU_GEMM_RA_BF16_UKERNEL_ENTRY)};
#undef ACLNN_CPU_GEMM_RA_BF16_UKERNEL_ENTRY

#define ACLNN_CPU_GEMM_NT_BF16_UKERNEL_ENTRY(tile, mr, nr, lanes, isa, level)           \
  GemmNtBf16Ukernel{ACLNN_CPU_KERNEL_IF_BUILT(isa, gemm_nt_bf16_##tile##__##isa),       \
                    ACLNN_CPU_KERNEL_IF_BUILT(isa, gemm_nt_bf16_rows__##isa),           \
                    ACLNN_CPU_KERNEL_IF_BUILT(isa, gemm_nt_bf16_rows_from_bf16__##isa), \
                    mr,                                                                 \
                    nr,                                                                 \
                    lanes,                                                              \
                    Isa::level,                                                         \
                    "gemm_nt_bf16_" #tile "__" #isa},
const GemmNtBf16Ukernel kGemmNtBf16Ukernels[] = {ACLNN_CPU_GEMM_NT_BF16_UKERNELS(ACLNN_CPU_GEMM_NT_BF16_UKERNEL_ENTRY)};
#undef ACLNN_CPU_GEMM_NT_BF16_UKERNEL_ENTRY

constexpr auto kAny = [](const auto &) { return true; };

}  // namespace

KernelList<GemmUkernel> gemm_ukernels() { return {std::begin(kGemmUkernels), std::end(kGemmUkernels)}; }
KernelList<GemmNtUkernel> gemm_nt_ukernels() { return {std::begin(kGemmNtUkernels), std::end(kGemmNtUkernels)}; }
KernelList<GemmBf16Ukernel> gemm_bf16_ukernels() {
  return {std::begin(kGemmBf16Ukernels), std::end(kGemmBf16Ukernels)};
}
KernelList<GemmRaBf16Ukernel> gemm_ra_bf16_ukernels() {
  return {std::begin(kGemmRaBf16Ukernels), std::end(kGemmRaBf16Ukernels)};
}
KernelList<GemmNtBf16Ukernel> gemm_nt_bf16_ukernels() {
  return {std::begin(kGemmNtBf16Ukernels), std::end(kGemmNtBf16Ukernels)};
}
KernelList<GemmRaUkernel> gemm_ra_ukernels() { return {std::begin(kGemmRaUkernels), std::end(kGemmRaUkernels)}; }

// The scalar kernels are always built: there is always one.
const GemmUkernel &gemm_ukernel(Isa isa) { return *best_kernel(gemm_ukernels(), isa, kAny); }

const GemmNtUkernel &gemm_nt_ukernel(Isa isa) { return *best_kernel(gemm_nt_ukernels(), isa, kAny); }

const GemmBf16Ukernel *gemm_bf16_ukernel(Isa isa, const GemmUkernel &nn) {
  return best_kernel(gemm_bf16_ukernels(), isa,
                     [&](const GemmBf16Ukernel &k) { return k.mr == nn.mr && k.nr == nn.nr; });
}

const GemmRaBf16Ukernel *gemm_ra_bf16_ukernel(Isa isa, const GemmRaUkernel &ra) {
  return best_kernel(gemm_ra_bf16_ukernels(), isa,
                     [&](const GemmRaBf16Ukernel &k) { return k.mr == ra.mr && k.nr == ra.nr; });
}

const GemmNtBf16Ukernel *gemm_nt_bf16_ukernel(Isa isa, const GemmNtUkernel &nt) {
  return best_kernel(gemm_nt_bf16_ukernels(), isa,
                     [&](const GemmNtBf16Ukernel &k) { return k.mr == nt.mr && k.nr == nt.nr && k.lanes == nt.lanes; });
}

const GemmRaUkernel *gemm_ra_ukernel(Isa isa, int64_t m) {
  const GemmRaUkernel *best = best_kernel(gemm_ra_ukernels(), isa, kAny);
  if (best == nullptr) return nullptr;
  const Isa level = best->isa;
  const GemmRaUkernel *widest = nullptr, *fitting = nullptr;
  for (const GemmRaUkernel &k : gemm_ra_ukernels()) {
    if (!k.built() || k.isa != level) continue;
    if (widest == nullptr || k.nr > widest->nr) widest = &k;
    if (m % k.nr == 0 && (fitting == nullptr || k.nr > fitting->nr)) fitting = &k;
  }
  return fitting != nullptr ? fitting : widest;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
