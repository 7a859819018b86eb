#include "conv_bwd/algo/grad_weight.hpp"

#include <algorithm>

#include "conv_bwd/algo/im2col.hpp"
#include "conv_bwd/algo/ref_operand.hpp"
#include "conv_bwd/parallel.hpp"
#include "core/int_math.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

template <typename XReader, typename DyReader>
void grad_weight_with(const Canonical &c, const RefOperand &x, const XReader &x_values, const RefOperand &dy,
                      const DyReader &dy_values, const Rounding &rounding, const View5 &grad_weight) {
  const int64_t cy_total = c.y_channels(), cx_g = c.cx_per_group;
  const int64_t y_plane = c.y_plane();
  const int64_t K = c.kernel_numel();
  const int64_t count = cy_total * cx_g * K;
  const int64_t cost = std::max<int64_t>(1, c.batch * y_plane);

  parallel_for(count, cost, [&](int64_t begin, int64_t end) {
    for (int64_t e = begin; e < end; ++e) {
      int64_t rest = e;
      const int64_t kw = rest % c.kernel[2];
      rest /= c.kernel[2];
      const int64_t kh = rest % c.kernel[1];
      rest /= c.kernel[1];
      const int64_t kd = rest % c.kernel[0];
      rest /= c.kernel[0];
      const int64_t cx = rest % cx_g;
      const int64_t cy = rest / cx_g;
      const int64_t g = cy / c.cy_per_group;
      const int64_t k[3] = {kd, kh, kw};
      DimReach r[3];
      int64_t shift[3];
      for (int d = 0; d < kSpatial; ++d) {
        r[d] = positions_reaching_x(c, d, k[d]);
        shift[d] = k[d] * c.dilation[d] - c.pad_begin[d];
      }
      double sum = 0.0;
      for (int64_t n = 0; n < c.batch; ++n) {
        const int64_t dy_nc = dy.index(n, cy, 0, 0, 0), x_nc = x.index(n, g * cx_g + cx, 0, 0, 0);
        for (int64_t od = r[0].lo; od <= r[0].hi; ++od) {
          const int64_t id = od * c.stride[0] + shift[0];
          for (int64_t oh = r[1].lo; oh <= r[1].hi; ++oh) {
            const int64_t ih = oh * c.stride[1] + shift[1];
            const int64_t dy_row = dy_nc + od * dy.stride(2) + oh * dy.stride(3);
            const int64_t x_row = x_nc + id * x.stride(2) + ih * x.stride(3);
            for (int64_t ow = r[2].lo; ow <= r[2].hi; ++ow) {
              sum += dy_values.at(dy_row + ow * dy.stride(4)) *
                     x_values.at(x_row + (ow * c.stride[2] + shift[2]) * x.stride(4));
            }
          }
        }
      }
      store_value(grad_weight.data, grad_weight.dtype, grad_weight.index(cy, cx, kd, kh, kw), rounding.grad_weight(sum),
                  rounding.fp8_overflow());
    }
  });
}

}  // namespace

void grad_weight(const Canonical &c, const float *x_staged, const float *dy_staged, const Rounding &rounding,
                 const View5 &grad_weight) {
  const RefOperand x(x_staged, c.x, rounding), dy(dy_staged, c.y, rounding);
  x.with_reader([&](const auto &x_values) {
    dy.with_reader(
        [&](const auto &dy_values) { grad_weight_with(c, x, x_values, dy, dy_values, rounding, grad_weight); });
  });
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
