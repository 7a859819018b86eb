// The ISAs a microkernel family is built for, for the enumerator lists of the families (rows.hpp, gemm_ukernel.hpp,
// gemm_nt_ukernel.hpp, gemm_ra_ukernel.hpp), which name each kernel once and expand into its declarations, the
// wrapper definitions of each ISA's file and the dispatch tables.
// A kernel of an architecture's ISA exists only where src/CMakeLists.txt compiled its file (ACLNN_CPU_HAVE_X86_KERNELS
// or ACLNN_CPU_HAVE_NEON_KERNELS, defined for the library's own sources): elsewhere its table entry has no function
// (nullptr) and dispatch skips it, so the lists, the names and the tests stay the same on every target.
#pragma once

#include "core/isa.hpp"

// X(suffix, level): an ISA's function-name suffix (after "__") and its Isa enumerator, each chain lowest first (the
// row kernels have one table per ISA of this list). avx512bf16 (Isa::kAvx512Bf16) has only the BF16 pair kernels
// (gemm_bf16_ukernel.hpp, gemm_ra_bf16_ukernel.hpp, gemm_nt_bf16_ukernel.hpp); every other family runs its avx512f
// kernels there. neon (Isa::kNeon) is aarch64's ASIMD, which every aarch64 CPU has.
#define ACLNN_CPU_KERNEL_ISAS(X) \
  X(scalar, kScalar)             \
  X(avx2_fma, kAvx2)             \
  X(avx512f, kAvx512)            \
  X(neon, kNeon)

// fn when this build has the kernels of the ISA whose suffix is `isa`, else nullptr.
#define ACLNN_CPU_KERNEL_IF_BUILT(isa, fn) ACLNN_CPU_KERNEL_BUILT_##isa(fn)
#define ACLNN_CPU_KERNEL_BUILT_scalar(fn) fn
#if defined(ACLNN_CPU_HAVE_X86_KERNELS)
#define ACLNN_CPU_KERNEL_BUILT_avx2_fma(fn) fn
#define ACLNN_CPU_KERNEL_BUILT_avx512f(fn) fn
#define ACLNN_CPU_KERNEL_BUILT_avx512bf16(fn) fn
#else
#define ACLNN_CPU_KERNEL_BUILT_avx2_fma(fn) nullptr
#define ACLNN_CPU_KERNEL_BUILT_avx512f(fn) nullptr
#define ACLNN_CPU_KERNEL_BUILT_avx512bf16(fn) nullptr
#endif
#if defined(ACLNN_CPU_HAVE_NEON_KERNELS)
#define ACLNN_CPU_KERNEL_BUILT_neon(fn) fn
#else
#define ACLNN_CPU_KERNEL_BUILT_neon(fn) nullptr
#endif

namespace aclnn_cpu {
namespace conv_bwd {

// The inline functions here and the families' built() are for the dispatch (compiled with the baseline flags) and
// the tests. The kernels' own files, compiled with an ISA's flags, include these headers but must not call them: the
// linker keeps one copy of an inline function, which could then be one compiled for an ISA this CPU lacks (see
// store_tile in gemm_ukernel.hpp).

// A family's table: every kernel of its enumerator list, in the list's order (built or not: see above).
template <typename Kernel>
struct KernelList {
  const Kernel *first, *last;
  const Kernel *begin() const { return first; }
  const Kernel *end() const { return last; }
};

// The built kernel (Kernel::built()) of `list` with the highest ISA `isa` includes (isa_includes: scalar, or at or
// below it on its architecture's chain) for which accept(kernel) holds, or nullptr (the first such in the list's order
// when several of one ISA do). So the plan's ISA (already capped by the CPU and ACLNN_CPU_MAX_ISA) runs the best kernel
// this build has for it.
template <typename Kernel, typename Accept>
const Kernel *best_kernel(KernelList<Kernel> list, Isa isa, Accept accept) {
  const Kernel *best = nullptr;
  for (const Kernel &k : list) {
    if (!k.built() || !isa_includes(isa, k.isa) || !accept(k)) continue;
    if (best == nullptr || static_cast<int>(k.isa) > static_cast<int>(best->isa)) best = &k;
  }
  return best;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
