// Operands staged in the workspace: contiguous fp32 copies of gradOutput, input and weight in their
// [A][B][D][H][W] order, each element already rounded to the compute type, so that the algorithms read plain
// floats whatever the user's dtype, strides and offset (CANN's executor makes the same contiguous, cast
// copies before its kernels run, docs/contract.md §3.10).
#pragma once

#include <cstdint>

#include "conv_bwd/algo/rounding.hpp"
#include "conv_bwd/problem.hpp"
#include "conv_bwd/tensor_io.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// Where each staged operand lives in the workspace (byte offsets; `bytes` is the total, 0 if none needed).
struct StagingLayout {
  bool grad_output = false, input = false, weight = false;
  uint64_t grad_output_at = 0, input_at = 0, weight_at = 0;
  uint64_t bytes = 0;
};

// For the outputs the reference computes (the GEMM algorithms read the user's tensors directly): gradInput needs
// gradOutput and weight, gradWeight gradOutput and input; gradBias reads gradOutput unrounded from the user's
// buffer. The empty path stages nothing.
StagingLayout staging_layout(const Problem &problem, bool grad_input, bool grad_weight);

void stage_operand(const View5 &src, const Rounding &rounding, float *dst);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
