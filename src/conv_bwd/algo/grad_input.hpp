// gradInput (docs/contract.md §3.2 non-transposed: backward-data of gradOutput; §3.3 transposed: forward convolution of
// gradOutput), both through the gather loop nest.
#pragma once

#include "conv_bwd/algo/rounding.hpp"
#include "conv_bwd/canonical.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// `grad_output` and `weight` are the staged operands, or nullptr to read c's views (RefOperand); `grad_input` the
// output view.
void grad_input(const Canonical &c, const float *grad_output, const float *weight, const Rounding &rounding,
                const View5 &grad_input);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
