// The depthwise row kernels as plain loops the compiler vectorises with the flags of the file that includes this
// (dw_rows.hpp); fixed 16-lane blocks keep the same sums on every ISA.
#pragma once

#include <cstdint>

#include "conv_bwd/kernels/dw_rows.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace dw_impl {

inline void dot(const float *a, const float *b, int64_t b_stride, int64_t n, float *lanes) {
  float acc[kDwLanes];
  for (int l = 0; l < kDwLanes; ++l) acc[l] = lanes[l];
  int64_t i = 0;
  if (b_stride == 1) {
    for (; i + kDwLanes <= n; i += kDwLanes) {
      for (int l = 0; l < kDwLanes; ++l) acc[l] += a[i + l] * b[i + l];
    }
  } else {
    for (; i + kDwLanes <= n; i += kDwLanes) {
      for (int l = 0; l < kDwLanes; ++l) acc[l] += a[i + l] * b[(i + l) * b_stride];
    }
  }
  for (int l = 0; i < n; ++i, ++l) acc[l] += a[i] * b[i * b_stride];
  for (int l = 0; l < kDwLanes; ++l) lanes[l] = acc[l];
}

inline void axpy(float alpha, const float *x, int64_t n, float *y, int64_t y_stride) {
  if (y_stride == 1) {
    for (int64_t i = 0; i < n; ++i) y[i] += alpha * x[i];
  } else {
    for (int64_t i = 0; i < n; ++i) y[i * y_stride] += alpha * x[i];
  }
}

}  // namespace dw_impl
}  // namespace conv_bwd
}  // namespace aclnn_cpu
