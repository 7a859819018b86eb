// Depthwise row kernels compiled for avx2_fma (flags: src/CMakeLists.txt).
#include "conv_bwd/kernels/dw_rows_impl.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

void dw_taps_f32__avx2_fma(const float *x, const int64_t *shift, const float *w, int64_t taps, int64_t n, float *y) {
  dw_impl::taps(x, shift, w, taps, n, y);
}

// Six channels: 12 accumulator and 2 load ymm registers of the 16.
void dw_taps_channels_f32__avx2_fma(const float *x, const int64_t *shift, const float *w, int64_t ldw, int64_t taps,
                                    int64_t n, float *y, int64_t ldy, int64_t channels) {
  dw_impl::taps_channels6(x, shift, w, ldw, taps, n, y, ldy, channels);
}

// A block of 5 taps keeps its accumulators, y's vector and one x vector in registers.
void dw_dot_taps_f32__avx2_fma(const float *y, const float *x, const int64_t *shift, int64_t taps, int64_t n,
                               float *lanes) {
  dw_impl::dot_taps<5>(y, x, shift, taps, n, lanes);
}

bool dw_copy_rows_f32__avx2_fma(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd) {
  return dw_impl::copy_rows(src, lds, rows, n, dst, ldd);
}

void dw_widen_bf16_rows__avx2_fma(const uint16_t *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd) {
  dw_impl::widen_bf16_rows(src, lds, rows, n, dst, ldd);
}

bool dw_narrow_bf16_rows__avx2_fma(const float *src, int64_t lds, int64_t rows, int64_t n, uint16_t *dst, int64_t ldd) {
  return dw_impl::narrow_bf16_rows(src, lds, rows, n, dst, ldd);
}

void dw_round_rows_hf32__avx2_fma(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd,
                                  const Hf32Rows &h) {
  dw_impl::round_rows_hf32(src, lds, rows, n, dst, ldd, h);
}

void dw_deinterleave2_f32__avx2_fma(const float *src, int64_t lds, int64_t rows, int64_t n, float *even, float *odd,
                                    int64_t ldd) {
  dw_impl::deinterleave2(src, lds, rows, n, even, odd, ldd);
}

bool dw_interleave_f32__avx2_fma(const float *src, int64_t plane, int64_t s, int64_t lds, int64_t rows, int64_t n,
                                 float *dst, int64_t ldd) {
  return dw_impl::interleave(src, plane, s, lds, rows, n, dst, ldd);
}

void dw_add_rows_f32__avx2_fma(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd) {
  dw_impl::add_rows(src, lds, rows, n, dst, ldd);
}

void dw_taps_3x3_f32__avx2_fma(const float *x, int64_t ld, int64_t dc, const float *w, int64_t rows, int64_t width,
                               int64_t span, float *y) {
  dw_impl::taps_3x3(x, ld, dc, w, rows, width, span, y);
}

void dw_dot_taps_3x3_f32__avx2_fma(const float *y, const float *x, int64_t ld, int64_t dc, int64_t rows, int64_t width,
                                   float *lanes) {
  dw_impl::dot_taps_3x3(y, x, ld, dc, rows, width, lanes);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
