// The row kernels' dispatch tables, one per ISA, generated from ACLNN_CPU_ROW_KERNELS (rows.hpp) in its order.
#include "conv_bwd/kernels/rows.hpp"

#include <iterator>

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

#define ACLNN_CPU_ROW_KERNEL_ENTRY(isa, result, op, name, params, args) \
  ACLNN_CPU_KERNEL_IF_BUILT(isa, rows_##name##__##isa),
#define ACLNN_CPU_ROW_KERNEL_TABLE(isa, level) \
  RowKernels{ACLNN_CPU_ROW_KERNELS(ACLNN_CPU_ROW_KERNEL_ENTRY, isa) Isa::level, "rows_f32__" #isa},
const RowKernels kTables[] = {ACLNN_CPU_KERNEL_ISAS(ACLNN_CPU_ROW_KERNEL_TABLE)};
#undef ACLNN_CPU_ROW_KERNEL_TABLE
#undef ACLNN_CPU_ROW_KERNEL_ENTRY

}  // namespace

KernelList<RowKernels> row_kernel_tables() { return {std::begin(kTables), std::end(kTables)}; }

const RowKernels &row_kernels(Isa isa) {
  // The scalar table is always built, so there is always one.
  return *best_kernel(row_kernel_tables(), isa, [](const RowKernels &) { return true; });
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
