// Stores fp32 accumulators into the user's output views: rounded as the kernel that writes them on the NPU
// (gradInput: Rounding::grad_input; gradWeight: kept fp32), then converted to the output dtype.
#pragma once

#include <cstdint>

#include "conv_bwd/algo/rounding.hpp"
#include "conv_bwd/tensor_io.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

enum class ResultKind { kGradInput, kGradWeight };

// Writes values[i] to the flat element j0 + i of the dims after the leading index/indices of `out`:
// dims 2..4 of out[a, b] (a plane) when b >= 0, dims 1..4 of out[a] (a weight row) when b < 0.
void store_run(const View5 &out, int64_t a, int64_t b, int64_t j0, int64_t count, const float *values, ResultKind kind,
               const Rounding &rounding);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
