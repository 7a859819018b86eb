// Instruction-set levels our kernels are built for, what this CPU supports, and the ACLNN_CPU_MAX_ISA cap.
#pragma once

#include <string>

namespace aclnn_cpu {

// Two chains of levels above scalar, one per architecture: x86's avx2 < avx512 < avx512_bf16, each implying the ones
// below it (avx512 needs AVX-512F; avx512_bf16 also AVX512BW and AVX512_BF16), and aarch64's neon (ASIMD). Levels of
// different architectures are not ordered: compare with isa_includes, never by value.
enum class Isa { kScalar = 0, kAvx2 = 1, kAvx512 = 2, kAvx512Bf16 = 3, kNeon = 4 };

// The best level of this build's architecture (the default cap).
#if defined(__aarch64__)
constexpr Isa kBestIsa = Isa::kNeon;
#else
constexpr Isa kBestIsa = Isa::kAvx512Bf16;
#endif

// The architecture chain a level belongs to: 0 for scalar (every one), 1 for x86, 2 for aarch64.
constexpr int isa_architecture(Isa isa) { return isa == Isa::kScalar ? 0 : isa == Isa::kNeon ? 2 : 1; }

// Whether a plan allowed `level` may run kernels built for `kernel`: scalar ones always, others when `kernel` is
// `level` or below it on the same architecture's chain.
constexpr bool isa_includes(Isa level, Isa kernel) {
  return kernel == Isa::kScalar ||
         (isa_architecture(kernel) == isa_architecture(level) && static_cast<int>(kernel) <= static_cast<int>(level));
}

const char *isa_name(Isa isa);  // "scalar", "avx2", "avx512", "avx512_bf16", "neon"

// Parses "scalar", "avx2", "avx512", "avx512_bf16", "neon" (ACLNN_CPU_MAX_ISA). Returns false for anything else.
bool parse_isa(const std::string &name, Isa *out);

// The best level this CPU and OS support. x86 (CPUID): AVX2+FMA; AVX-512F with the OS saving zmm state; AVX512-BF16
// on top of it, VDPBF16PS. aarch64 (getauxval(AT_HWCAP)): ASIMD.
Isa cpu_isa();

// The ACLNN_CPU_MAX_ISA setting applied to cpu_isa(): the cap when the CPU has it, the CPU's best when the cap is
// above it on its chain, scalar when the cap is a level of the other architecture (none of its kernels exist here).
// What the next plan uses.
Isa usable_isa();

// That rule for any cap and CPU level (usable_isa() is capped_isa(cpu_isa(), the setting)).
Isa capped_isa(Isa cpu, Isa cap);

}  // namespace aclnn_cpu
