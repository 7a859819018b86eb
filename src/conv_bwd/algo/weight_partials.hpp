// gradWeight's fixed K parts (gemm_weight, gemm_weight_shifted): the K blocks of all samples are cut into
// `parts` consecutive runs; each run sums into its own fp32 partial dW, and the partials are added in part order.
// Neither cut depends on the thread count, so neither do the bits of dW.
#pragma once

#include <algorithm>
#include <cstdint>

#include "conv_bwd/algo/gemm_algorithms.hpp"
#include "conv_bwd/work.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// The first K block of part p when `blocks` blocks are cut into `parts` parts.
inline int64_t part_begin(int64_t blocks, int64_t parts, int64_t p) {
  return p * (blocks / parts) + std::min(p, blocks % parts);
}

// The partial of (part, group): row-major Cy_g × Cx_g·K floats in the shared area.
inline float *weight_partial(const Canonical &c, const GemmScratch &s, int64_t part, int64_t g) {
  return s.shared + (part * c.groups + g) * c.cy_per_group * c.cx_per_group * c.kernel_numel();
}

// With a single K part, an item's dW columns are final once its blocks are summed, so the item stores them itself
// (while they are in cache; no second pass over a partial buffer). FP32 gradWeight with dense rows is then the
// accumulator itself: the kernel writes it where it lies.
bool weight_written_in_place(int64_t k_parts, const Canonical &c, const View5 &grad_weight);

// Where the item of (part, group) accumulates from row row0 and column col0 of the group's dW on: gradWeight itself
// (in place) or the partial, whose row step goes to *ldc.
float *weight_accumulator(const Canonical &c, const GemmScratch &s, const View5 &grad_weight, bool in_place,
                          int64_t part, int64_t g, int64_t row0, int64_t col0, int64_t *ldc);

// After the only K part: stores columns [col0, col0 + count) of group g's rows [row0, row0 + rows) from acc (at row0,
// col0; unless in place). Returns whether they are all finite (with `scan`; without, the caller knows it and gets
// true).
bool finish_weight_columns(const Canonical &c, const View5 &grad_weight, bool in_place, const float *acc, int64_t ldc,
                           int64_t g, int64_t row0, int64_t rows, int64_t col0, int64_t count, const Rounding &rounding,
                           bool scan = true);

// Adds the partials of every (group, row) in part order into part 0 and stores the row in gradWeight.
// Returns whether every sum is finite.
bool store_weight_partials(const Canonical &c, int64_t parts, const GemmScratch &s, const Rounding &rounding,
                           const View5 &grad_weight);
// Its job (work.hpp), which runs after the items when there are several parts.
WorkPhase weight_partials_phase(const Canonical &c, int64_t parts, int slots, Isa isa);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
