// The geometry of gemm_weight_shifted (stride-1 convolutions): y positions laid out with x's padded row length,
// so that every kernel tap's im2col row is the padded x plane itself, shifted by a constant.
//
// With the padded box Dp × Hp × Wp (Wp = Ow + (Kw − 1)·dw, likewise H, D) and the position index
//   q = (od·Hp + oh)·Wp + ow   (q-space; the q with oh ≥ Oh or ow ≥ Ow are "junk": dy is 0 there),
// the x value that y position q reads through tap (kd, kh, kw) is xbox[q + shift(tap)], with
//   shift = (kd·dd·Hp + kh·dh)·Wp + kw·dw,   xbox[(zd·Hp + zh)·Wp + zw] = x[zd − pd, zh − ph, zw − pw] (0 outside).
// So dW[cy, cx, tap] = Σ_q dy_q[cy, q] · xbox[cx, q + shift(tap)]: x is rounded and copied once per block, not
// once per tap, and the NT kernel reads the shifted rows where they lie.
#pragma once

#include <cstdint>

#include "conv_bwd/canonical.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

struct ShiftedGeometry {
  int64_t dp = 1, hp = 1, wp = 1;  // the padded box
  int64_t q_len = 0;               // q-space positions per sample: the last real one + 1
  int64_t max_shift = 0;           // shift of the last tap

  explicit ShiftedGeometry(const Canonical &c)
      : dp(c.y_size[0] + (c.kernel[0] - 1) * c.dilation[0]),
        hp(c.y_size[1] + (c.kernel[1] - 1) * c.dilation[1]),
        wp(c.y_size[2] + (c.kernel[2] - 1) * c.dilation[2]) {
    q_len = ((c.y_size[0] - 1) * hp + (c.y_size[1] - 1)) * wp + c.y_size[2];
    max_shift = shift(c, c.kernel_numel() - 1);
  }

  // The shift of flat tap κ (over kD, kH, kW).
  int64_t shift(const Canonical &c, int64_t kappa) const {
    const int64_t kw = kappa % c.kernel[2], kh = (kappa / c.kernel[2]) % c.kernel[1],
                  kd = kappa / (c.kernel[2] * c.kernel[1]);
    return (kd * c.dilation[0] * hp + kh * c.dilation[1]) * wp + kw * c.dilation[2];
  }
};

// Whether the convolution has stride 1 in every dim (what the shifted layout needs).
inline bool unit_stride(const Canonical &c) { return c.stride[0] == 1 && c.stride[1] == 1 && c.stride[2] == 1; }

}  // namespace conv_bwd
}  // namespace aclnn_cpu
