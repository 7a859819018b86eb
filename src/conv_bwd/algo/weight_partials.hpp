// gradWeight's fixed K parts (gemm_weight, gemm_weight_shifted): the K blocks of all samples are cut into
// `parts` consecutive runs; each run sums into its own fp32 partial dW, and the partials are added in part order.
// Neither cut depends on the thread count, so neither do the bits of dW.
#pragma once

#include <algorithm>
#include <cstdint>

#include "conv_bwd/algo/gemm_algorithms.hpp"

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

// Adds the partials of every (group, row) in part order into part 0 and stores the row in gradWeight.
// Returns whether every sum is finite.
bool store_weight_partials(const Canonical &c, int64_t parts, const GemmScratch &s, const Rounding &rounding,
                           const View5 &grad_weight);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
