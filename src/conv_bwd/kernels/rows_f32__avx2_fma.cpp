// Row kernels compiled for avx2_fma (flags: src/CMakeLists.txt).
#include "conv_bwd/kernels/rows_impl.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {  // internal linkage, as rows_impl's (rows_impl.hpp)
namespace rows_isa {
using namespace rows_impl;

// Six channels: 12 accumulator and 2 load ymm registers of the 16.
inline void taps_channels(const float *x, const int64_t *shift, const float *w, int64_t ldw, int64_t taps, int64_t n,
                          float *y, int64_t ldy, int64_t channels) {
  rows_impl::taps_channels6(x, shift, w, ldw, taps, n, y, ldy, channels);
}

// A block of 5 taps keeps its accumulators, y's vector and one x vector in registers.
inline void dot_taps(const float *y, const float *x, const int64_t *shift, int64_t taps, int64_t n, float *lanes) {
  rows_impl::dot_taps<5>(y, x, shift, taps, n, lanes);
}

}  // namespace rows_isa
}  // namespace

ACLNN_CPU_ROW_KERNELS(ACLNN_CPU_ROW_KERNEL_DEFINITION, avx2_fma)

}  // namespace conv_bwd
}  // namespace aclnn_cpu
