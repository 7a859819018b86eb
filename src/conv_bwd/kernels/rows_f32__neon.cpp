// Row kernels compiled for aarch64 NEON (ASIMD: the baseline there; rows_impl's 16 lanes are four q registers).
#include "conv_bwd/kernels/rows_impl.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {  // internal linkage, as rows_impl's (rows_impl.hpp)
namespace rows_isa {
using namespace rows_impl;

// Six channels: 24 accumulator and 4 load q registers of the 32 (a V16 is four).
inline void taps_channels(const float *x, const int64_t *shift, const float *w, int64_t ldw, int64_t taps, int64_t n,
                          float *y, int64_t ldy, int64_t channels) {
  rows_impl::taps_channels6(x, shift, w, ldw, taps, n, y, ldy, channels);
}

// A block of 5 taps keeps its accumulators, y's vector and one x vector in registers (28 of the 32).
inline void dot_taps(const float *y, const float *x, const int64_t *shift, int64_t taps, int64_t n, float *lanes) {
  rows_impl::dot_taps<5>(y, x, shift, taps, n, lanes);
}

}  // namespace rows_isa
}  // namespace

ACLNN_CPU_ROW_KERNELS(ACLNN_CPU_ROW_KERNEL_DEFINITION, neon)

}  // namespace conv_bwd
}  // namespace aclnn_cpu
