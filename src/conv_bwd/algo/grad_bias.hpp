// gradBias (SPEC §3.2 / §3.3): db[c] = Σ_n Σ_o gradOutput[n, c, o], read from the user's gradOutput with its
// original values (never rounded to the compute type), summed n then o ascending, rounded to gradOutput's
// dtype (SPEC §3.5 step 5), then stored in gradBias's dtype.
#pragma once

#include "conv_bwd/algo/rounding.hpp"
#include "conv_bwd/problem.hpp"
#include "conv_bwd/tensor_io.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// `grad_bias` is the user's rank-1 output; its length equals grad_output's channels.
void grad_bias(const View5 &grad_output, const Rounding &rounding, const TensorArg &grad_bias);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
