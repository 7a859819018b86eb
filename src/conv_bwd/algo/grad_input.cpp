#include "conv_bwd/algo/grad_input.hpp"

#include "conv_bwd/algo/gather.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

void grad_input(const Canonical &c, const float *grad_output, const float *weight, const Rounding &rounding,
                const View5 &grad_input) {
  // The staged weight is [Cy][Cx_g][k…] in both modes (canonical.hpp).
  const int64_t K = c.kernel_numel();
  GatherSpec spec;
  spec.batch = c.batch;
  spec.groups = c.groups;
  if (c.transposed) {
    // y-shaped result from x := gradOutput: out channel (g, a = cy), summed over b = cx.
    spec.rule = TapRule::kForward;
    spec.out_per_group = c.cy_per_group;
    spec.in_per_group = c.cx_per_group;
    spec.w_group_stride = c.cy_per_group * c.cx_per_group * K;
    spec.w_out_stride = c.cx_per_group * K;
    spec.w_in_stride = K;
  } else {
    // x-shaped result from dy := gradOutput: out channel (g, a = cx), summed over b = cy.
    spec.rule = TapRule::kBackwardData;
    spec.out_per_group = c.cx_per_group;
    spec.in_per_group = c.cy_per_group;
    spec.w_group_stride = c.cy_per_group * c.cx_per_group * K;
    spec.w_out_stride = K;
    spec.w_in_stride = c.cx_per_group * K;
  }
  for (int d = 0; d < kSpatial; ++d) {
    spec.out_size[d] = c.transposed ? c.y_size[d] : c.x_size[d];
    spec.in_size[d] = c.transposed ? c.x_size[d] : c.y_size[d];
    spec.kernel[d] = c.kernel[d];
    spec.stride[d] = c.stride[d];
    spec.dilation[d] = c.dilation[d];
    spec.pad_begin[d] = c.pad_begin[d];
  }
  gather(spec, grad_output, weight, rounding, grad_input);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
