// Instruction-set levels our kernels are built for, what this CPU supports, and the ACLNN_CPU_MAX_ISA cap.
#pragma once

#include <string>

namespace aclnn_cpu {

// Ordered: each level implies the ones below it.
enum class Isa { kScalar = 0, kAvx2 = 1, kAvx512 = 2, kAvx512Bf16 = 3 };

// The best level of all (the default cap).
constexpr Isa kBestIsa = Isa::kAvx512Bf16;

const char *isa_name(Isa isa);  // "scalar", "avx2", "avx512", "avx512_bf16"

// Parses "scalar", "avx2", "avx512", "avx512_bf16" (ACLNN_CPU_MAX_ISA). Returns false for anything else.
bool parse_isa(const std::string &name, Isa *out);

// The best level this CPU and OS support (CPUID: AVX2+FMA; AVX-512F with the OS saving zmm state; AVX512-BF16 on
// top of it, VDPBF16PS).
Isa cpu_isa();

// min(cpu_isa(), the ACLNN_CPU_MAX_ISA setting): what the next plan uses.
Isa usable_isa();

}  // namespace aclnn_cpu
