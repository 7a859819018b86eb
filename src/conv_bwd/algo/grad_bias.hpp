// gradBias (SPEC §3.2 / §3.3): db[c] = Σ_n Σ_o gradOutput[n, c, o], read from the user's gradOutput with its
// original values (never rounded to the compute type), summed in eight double lanes in a fixed order, rounded to
// gradOutput's dtype (SPEC §3.5 step 5), then stored in gradBias's dtype.
#pragma once

#include "conv_bwd/algo/rounding.hpp"
#include "conv_bwd/problem.hpp"
#include "conv_bwd/tensor_io.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// Two steps: the sums (already rounded to gradOutput's dtype) go to `sums` (one float per channel, in the
// workspace) before any output is written, and are stored in `grad_bias` (the user's rank-1 output) at the end,
// so that no output, whatever memory it shares with an operand, changes what another output reads.
void sum_grad_bias(const View5 &grad_output, const Rounding &rounding, float *sums);
void store_grad_bias(const float *sums, int64_t channels, const Rounding &rounding, const TensorArg &grad_bias);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
