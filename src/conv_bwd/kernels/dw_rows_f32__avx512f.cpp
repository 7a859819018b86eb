// Depthwise row kernels compiled for avx512f (flags: src/CMakeLists.txt).
#include "conv_bwd/kernels/dw_rows_impl.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

void dw_dot_f32__avx512f(const float *a, const float *b, int64_t b_stride, int64_t n, float *lanes) {
  dw_impl::dot(a, b, b_stride, n, lanes);
}

void dw_axpy_f32__avx512f(float alpha, const float *x, int64_t n, float *y, int64_t y_stride) {
  dw_impl::axpy(alpha, x, n, y, y_stride);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
