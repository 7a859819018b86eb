// Row kernels compiled for avx512f (flags: src/CMakeLists.txt).
#include "conv_bwd/kernels/avx512_intrinsics.hpp"
#include "conv_bwd/kernels/rows_impl.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {  // internal linkage, as rows_impl's (rows_impl.hpp)
namespace rows_isa {
using namespace rows_impl;

// Four channels, 64 positions a step: 16 accumulator and 4 load zmm registers of the 32.
inline void taps_channels(const float *x, const int64_t *shift, const float *w, int64_t ldw, int64_t taps, int64_t n,
                          float *y, int64_t ldy, int64_t channels) {
  rows_impl::taps_channels<4, true>(x, shift, w, ldw, taps, n, y, ldy, channels);
}

// A block of 9 taps keeps its accumulators, y's vector and one x vector in registers.
inline void dot_taps(const float *y, const float *x, const int64_t *shift, int64_t taps, int64_t n, float *lanes) {
  rows_impl::dot_taps<9>(y, x, shift, taps, n, lanes);
}

// Each row's last partial vector in one masked add: the generic loop (rows_impl::add_rows) as compiled left up to 7
// columns of it to scalar adds, and col2im's rows are short (14 floats in 3-D and 14² layers: 8 + 6 scalar). Each
// sum is the same single addition, dst's value first.
inline void add_rows(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd) {
  const int64_t whole = n / 16 * 16;
  const __mmask16 tail = static_cast<__mmask16>((1u << (n - whole)) - 1u);
  for (int64_t r = 0; r < rows; ++r, src += lds, dst += ldd) {
    for (int64_t i = 0; i < whole; i += 16) {
      _mm512_storeu_ps(dst + i, _mm512_add_ps(_mm512_loadu_ps(dst + i), _mm512_loadu_ps(src + i)));
    }
    if (tail == 0) continue;
    const __m512 sum =
        _mm512_add_ps(_mm512_maskz_loadu_ps(tail, dst + whole), _mm512_maskz_loadu_ps(tail, src + whole));
    _mm512_mask_storeu_ps(dst + whole, tail, sum);
  }
}

// Eight src values a step, spread over the even lanes of dst's 16 (vpermps) and added under the even-lane mask, so
// the odd columns keep their bits (+0 would turn −0 into +0); the last step's masks stop at column 2(n − 1).
inline void add_rows_every_second(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd) {
  const __m512i spread = _mm512_set_epi32(7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0);
  constexpr __mmask16 kEven = 0x5555;
  for (int64_t r = 0; r < rows; ++r, src += lds, dst += ldd) {
    for (int64_t i = 0; i < n; i += 8) {
      const int64_t k = std::min<int64_t>(8, n - i);
      const __mmask16 from = static_cast<__mmask16>((1u << k) - 1u),
                      lanes = static_cast<__mmask16>((1u << (2 * k - 1)) - 1u);
      const __m512 v = _mm512_permutexvar_ps(spread, _mm512_maskz_loadu_ps(from, src + i));
      float *d = dst + 2 * i;
      const __m512 x = _mm512_maskz_loadu_ps(lanes, d);
      _mm512_mask_storeu_ps(d, lanes & kEven, _mm512_mask_add_ps(x, kEven, x, v));
    }
  }
}

// A row's taps in 16-column steps: dst's vector loaded once, each tap's columns in it added under a merge mask
// (columns it lacks keep their value: +0 would turn −0 into +0), stored once under the union of the taps' masks,
// so columns no tap owns are not written. Lanes a mask leaves out are never read (AVX-512 masked loads), so dst is
// read only inside the taps' columns' span and src only at columns a tap owns. The masks of a step serve every row.
constexpr int64_t kMaxAddTaps = 16;

inline void add_taps_rows(const float *src, int64_t lds, const int64_t *src_at, const int64_t *begin,
                          const int64_t *end, int64_t taps, int64_t rows, float *dst, int64_t ldd) {
  if (taps > kMaxAddTaps) {
    add_taps_rows(src, lds, src_at, begin, end, kMaxAddTaps, rows, dst, ldd);
    add_taps_rows(src, lds, src_at + kMaxAddTaps, begin + kMaxAddTaps, end + kMaxAddTaps, taps - kMaxAddTaps, rows, dst,
                  ldd);
    return;
  }
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (int64_t t = 0; t < taps; ++t) {
    if (begin[t] >= end[t]) continue;
    lo = std::min(lo, begin[t]);
    hi = std::max(hi, end[t]);
  }
  for (int64_t i = lo; i < hi; i += 16) {
    __mmask16 mask[kMaxAddTaps];
    const float *from[kMaxAddTaps];
    int64_t n = 0;
    __mmask16 any = 0;
    for (int64_t t = 0; t < taps; ++t) {
      const int64_t a = std::max(begin[t], i), b = std::min(end[t], i + 16);
      if (a >= b) continue;
      mask[n] = static_cast<__mmask16>(((1u << (b - a)) - 1u) << (a - i));
      from[n++] = src + src_at[t] + i;
      any |= mask[n - 1];
    }
    const __mmask16 span = static_cast<__mmask16>((1u << std::min<int64_t>(16, hi - i)) - 1u);  // inside the row
    for (int64_t r = 0; r < rows; ++r) {
      float *d = dst + r * ldd + i;
      __m512 x = _mm512_maskz_loadu_ps(span, d);
      for (int64_t t = 0; t < n; ++t)
        x = _mm512_mask_add_ps(x, mask[t], x, _mm512_maskz_loadu_ps(mask[t], from[t] + r * lds));
      _mm512_mask_storeu_ps(d, any, x);
    }
  }
}

}  // namespace rows_isa
}  // namespace

ACLNN_CPU_ROW_KERNELS(ACLNN_CPU_ROW_KERNEL_DEFINITION, avx512f)

}  // namespace conv_bwd
}  // namespace aclnn_cpu
