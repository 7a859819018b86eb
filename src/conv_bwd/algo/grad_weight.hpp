// gradWeight (docs/contract.md §3.2 / §3.3, one formula in canonical roles):
//   dw[g·Cy_g + cy, cx, κ] = Σ_n Σ_o dy[n, g·Cy_g + cy, o] · x[n, g·Cx_g + cx, o·s − pb + κ·dil]
// with dy := gradOutput, x := input (non-transposed) or dy := input, x := gradOutput (transposed), and o
// restricted in closed form to the positions whose x index lies in [0, In). Summed n, then o in D, H, W
// order, ascending; rounded to fp32 (the dW kernels' output) and stored in gradWeight's dtype.
#pragma once

#include "conv_bwd/algo/rounding.hpp"
#include "conv_bwd/canonical.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// `x` and `dy` are the staged operands in their canonical roles (contiguous [N][C][spatial]), or nullptr to read c's
// views (RefOperand). Allocates nothing.
void grad_weight(const Canonical &c, const float *x, const float *dy, const Rounding &rounding,
                 const View5 &grad_weight);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
