#include "conv_bwd/algo/grad_input.hpp"

#include "conv_bwd/algo/gather.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

void grad_input(const Canonical &c, const float *grad_output, const float *weight, const Rounding &rounding,
                const View5 &grad_input) {
  GatherSpec spec;
  spec.batch = c.batch;
  spec.groups = c.groups;
  if (c.transposed) {
    // y-shaped result from x := gradOutput: out channel (g, a = cy), summed over b = cx.
    spec.rule = TapRule::kForward;
    spec.out_per_group = c.cy_per_group;
    spec.in_per_group = c.cx_per_group;
  } else {
    // x-shaped result from dy := gradOutput: out channel (g, a = cx), summed over b = cy.
    spec.rule = TapRule::kBackwardData;
    spec.out_per_group = c.cx_per_group;
    spec.in_per_group = c.cy_per_group;
  }
  for (int d = 0; d < kSpatial; ++d) {
    spec.out_size[d] = c.transposed ? c.y_size[d] : c.x_size[d];
    spec.in_size[d] = c.transposed ? c.x_size[d] : c.y_size[d];
    spec.kernel[d] = c.kernel[d];
    spec.stride[d] = c.stride[d];
    spec.dilation[d] = c.dilation[d];
    spec.pad_begin[d] = c.pad_begin[d];
  }
  const RefOperand in(grad_output, c.transposed ? c.x : c.y, rounding), w(weight, c.w, rounding);
  gather(spec, in, w, rounding, grad_input);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
