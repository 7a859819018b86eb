#include "conv_bwd/algo/grad_weight.hpp"

#include <algorithm>

#include "conv_bwd/parallel.hpp"
#include "core/int_math.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// The y positions o (along one dim) whose tap κ lands inside x: [lo, hi], empty when lo > hi.
struct Range {
  int64_t lo, hi;
};

Range reaching(const Canonical &c, int d, int64_t k) {
  const int64_t s = c.stride[d], shift = k * c.dilation[d] - c.pad_begin[d];  // x index = o·s + shift
  Range r;
  r.lo = std::max<int64_t>(0, ceil_div(-shift, s));
  r.hi = std::min<int64_t>(c.y_size[d] - 1, floor_div(c.x_size[d] - 1 - shift, s));
  return r;
}

}  // namespace

void grad_weight(const Canonical &c, const float *x, const float *dy, const Rounding &rounding,
                 const View5 &grad_weight) {
  const int64_t cy_total = c.y_channels(), cx_g = c.cx_per_group;
  const int64_t x_plane = c.x_size[0] * c.x_size[1] * c.x_size[2];
  const int64_t y_plane = c.y_size[0] * c.y_size[1] * c.y_size[2];
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
      Range r[3];
      int64_t shift[3];
      for (int d = 0; d < kSpatial; ++d) {
        r[d] = reaching(c, d, k[d]);
        shift[d] = k[d] * c.dilation[d] - c.pad_begin[d];
      }
      double sum = 0.0;
      for (int64_t n = 0; n < c.batch; ++n) {
        const float *dy_plane = dy + (n * cy_total + cy) * y_plane;
        const float *x_plane_base = x + (n * c.x_channels() + g * cx_g + cx) * x_plane;
        for (int64_t od = r[0].lo; od <= r[0].hi; ++od) {
          const int64_t id = od * c.stride[0] + shift[0];
          for (int64_t oh = r[1].lo; oh <= r[1].hi; ++oh) {
            const int64_t ih = oh * c.stride[1] + shift[1];
            const float *dy_row = dy_plane + (od * c.y_size[1] + oh) * c.y_size[2];
            // x_row_at + ow·s stays inside the row for ow in the range (it may start below zero).
            const int64_t x_row_at = (id * c.x_size[1] + ih) * c.x_size[2] + shift[2];
            for (int64_t ow = r[2].lo; ow <= r[2].hi; ++ow) {
              sum += static_cast<double>(dy_row[ow]) * static_cast<double>(x_plane_base[x_row_at + ow * c.stride[2]]);
            }
          }
        }
      }
      store_value(grad_weight.data, grad_weight.dtype, grad_weight.index(cy, cx, kd, kh, kw), rounding.grad_weight(sum),
                  rounding.fp8_overflow());
    }
  });
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
