// Instruction-set levels our kernels are built for, what this CPU supports, and the ACLNN_CPU_MAX_ISA cap.
#pragma once

#include <string>

namespace aclnn_cpu {

// Ordered: each level implies the ones below it.
enum class Isa { kScalar = 0, kAvx2 = 1, kAvx512 = 2 };

const char *isa_name(Isa isa);  // "scalar", "avx2", "avx512"

// Parses "scalar", "avx2", "avx512" (ACLNN_CPU_MAX_ISA). Returns false for anything else.
bool parse_isa(const std::string &name, Isa *out);

// The best level this CPU and OS support (CPUID: AVX2+FMA; AVX-512F with the OS saving zmm state).
Isa cpu_isa();

// min(cpu_isa(), the ACLNN_CPU_MAX_ISA setting): what the next plan uses.
Isa usable_isa();

}  // namespace aclnn_cpu
