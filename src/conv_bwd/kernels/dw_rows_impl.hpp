// The depthwise row kernels in GCC/Clang vector extensions, compiled with the flags of the file that includes
// this (dw_rows.hpp); fixed 64-lane blocks keep the same sums on every ISA.
#pragma once

#include <cstdint>

#include "conv_bwd/kernels/dw_rows.hpp"
#include "conv_bwd/kernels/dw_vectors.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace dw_impl {
// Internal linkage: each ISA's file gets its own copy. As ordinary inline functions the three copies, compiled with
// different -m flags, would be one symbol to the linker, which would keep any one of them (an AVX-512 body on an
// AVX2-only CPU). Passing vectors by value therefore never crosses an ABI boundary either.
namespace {

inline void taps(const float *x, const int64_t *shift, const float *w, int64_t taps, int64_t n, float *y) {
  const V16 zero = {};
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    V16 acc0 = zero, acc1 = zero, acc2 = zero, acc3 = zero;
    for (int64_t t = 0; t < taps; ++t) {
      const float wt = w[t], *xt = x + shift[t] + i;
      acc0 += wt * load16(xt);
      acc1 += wt * load16(xt + 16);
      acc2 += wt * load16(xt + 32);
      acc3 += wt * load16(xt + 48);
    }
    store16(y + i, acc0);
    store16(y + i + 16, acc1);
    store16(y + i + 32, acc2);
    store16(y + i + 48, acc3);
  }
  for (; i + 16 <= n; i += 16) {
    V16 acc = zero;
    for (int64_t t = 0; t < taps; ++t) acc += w[t] * load16(x + shift[t] + i);
    store16(y + i, acc);
  }
  for (; i < n; ++i) {
    float acc = 0.0f;
    for (int64_t t = 0; t < taps; ++t) acc += w[t] * x[shift[t] + i];
    y[i] = acc;
  }
}

// `taps` for C output channels at once (C ≤ 4; channel c's weights at w + c·ldw, its output at y + c·ldy): each x
// vector loaded feeds C accumulators, where `taps` is bound by one load per multiply-add. Each output element gets
// the same sum in the same order as from `taps` (positions past the last whole 32 go through it).
// 64 positions of C channels (16 named accumulators at most): 4 vector loads and C broadcasts per 4·C multiply-adds,
// where the 32-wide step needs 2 and C per 2·C. For ISAs with 32 vector registers.
template <int C>
inline void taps_step64(const float *x, const int64_t *shift, const float *w, int64_t ldw, int64_t taps_n, float *y,
                        int64_t ldy) {
  const V16 zero = {};
  V16 a0 = zero, a1 = zero, a2 = zero, a3 = zero, b0 = zero, b1 = zero, b2 = zero, b3 = zero;
  V16 c0 = zero, c1 = zero, c2 = zero, c3 = zero, d0 = zero, d1 = zero, d2 = zero, d3 = zero;
  for (int64_t t = 0; t < taps_n; ++t) {
    const float *xt = x + shift[t];
    const V16 u0 = load16(xt), u1 = load16(xt + 16), u2 = load16(xt + 32), u3 = load16(xt + 48);
    const float s0 = w[t];
    a0 += s0 * u0;
    a1 += s0 * u1;
    a2 += s0 * u2;
    a3 += s0 * u3;
    if constexpr (C > 1) {
      const float s1 = w[ldw + t];
      b0 += s1 * u0;
      b1 += s1 * u1;
      b2 += s1 * u2;
      b3 += s1 * u3;
    }
    if constexpr (C > 2) {
      const float s2 = w[2 * ldw + t];
      c0 += s2 * u0;
      c1 += s2 * u1;
      c2 += s2 * u2;
      c3 += s2 * u3;
    }
    if constexpr (C > 3) {
      const float s3 = w[3 * ldw + t];
      d0 += s3 * u0;
      d1 += s3 * u1;
      d2 += s3 * u2;
      d3 += s3 * u3;
    }
  }
  store16(y, a0);
  store16(y + 16, a1);
  store16(y + 32, a2);
  store16(y + 48, a3);
  if constexpr (C > 1) {
    store16(y + ldy, b0);
    store16(y + ldy + 16, b1);
    store16(y + ldy + 32, b2);
    store16(y + ldy + 48, b3);
  }
  if constexpr (C > 2) {
    store16(y + 2 * ldy, c0);
    store16(y + 2 * ldy + 16, c1);
    store16(y + 2 * ldy + 32, c2);
    store16(y + 2 * ldy + 48, c3);
  }
  if constexpr (C > 3) {
    store16(y + 3 * ldy, d0);
    store16(y + 3 * ldy + 16, d1);
    store16(y + 3 * ldy + 32, d2);
    store16(y + 3 * ldy + 48, d3);
  }
}

template <int C, bool Wide>
inline void taps_block(const float *x, const int64_t *shift, const float *w, int64_t ldw, int64_t taps_n, int64_t n,
                       float *y, int64_t ldy) {
  static_assert(C >= 1 && C <= 4, "at most four channels of two named accumulators");
  const V16 zero = {};
  int64_t i = 0;
  if constexpr (Wide) {
    for (; i + 64 <= n; i += 64) taps_step64<C>(x + i, shift, w, ldw, taps_n, y + i, ldy);
  }
  for (; i + 32 <= n; i += 32) {
    V16 a0 = zero, b0 = zero, a1 = zero, b1 = zero, a2 = zero, b2 = zero, a3 = zero, b3 = zero;
    for (int64_t t = 0; t < taps_n; ++t) {
      const float *xt = x + shift[t] + i;
      const V16 u = load16(xt), v = load16(xt + 16);
      const float w0 = w[t];
      a0 += w0 * u;
      b0 += w0 * v;
      if constexpr (C > 1) {
        const float w1 = w[ldw + t];
        a1 += w1 * u;
        b1 += w1 * v;
      }
      if constexpr (C > 2) {
        const float w2 = w[2 * ldw + t];
        a2 += w2 * u;
        b2 += w2 * v;
      }
      if constexpr (C > 3) {
        const float w3 = w[3 * ldw + t];
        a3 += w3 * u;
        b3 += w3 * v;
      }
    }
    store16(y + i, a0);
    store16(y + i + 16, b0);
    if constexpr (C > 1) {
      store16(y + ldy + i, a1);
      store16(y + ldy + i + 16, b1);
    }
    if constexpr (C > 2) {
      store16(y + 2 * ldy + i, a2);
      store16(y + 2 * ldy + i + 16, b2);
    }
    if constexpr (C > 3) {
      store16(y + 3 * ldy + i, a3);
      store16(y + 3 * ldy + i + 16, b3);
    }
  }
  if (i == n) return;
  for (int c = 0; c < C; ++c) taps(x + i, shift, w + c * ldw, taps_n, n - i, y + c * ldy + i);
}

// All `channels` in blocks of up to B (the ISA's register budget), the last block smaller; Wide: 64-position steps
// first (32 vector registers).
template <int B, bool Wide>
inline void taps_channels(const float *x, const int64_t *shift, const float *w, int64_t ldw, int64_t taps_n, int64_t n,
                          float *y, int64_t ldy, int64_t channels) {
  int64_t c = 0;
  for (; c + B <= channels; c += B) taps_block<B, Wide>(x, shift, w + c * ldw, ldw, taps_n, n, y + c * ldy, ldy);
  const int64_t rest = channels - c;  // below B
  if constexpr (B > 3) {
    if (rest == 3) return taps_block<3, Wide>(x, shift, w + c * ldw, ldw, taps_n, n, y + c * ldy, ldy);
  }
  if constexpr (B > 2) {
    if (rest == 2) return taps_block<2, Wide>(x, shift, w + c * ldw, ldw, taps_n, n, y + c * ldy, ldy);
  }
  if (rest == 1) taps(x, shift, w + c * ldw, taps_n, n, y + c * ldy);
}

// T taps at once (T ≤ 9), one named accumulator each: the unused ones fold away. Not an array: GCC gives a local
// array of zmm vectors a 64-byte aligned frame slot and aligned moves, which fault on ASan's fake stack (the asan
// preset's build keeps locals in memory); named AVX-512 V16 locals keep the type's float alignment.
template <int T>
inline void dot_taps_block(const float *y, const float *x, const int64_t *shift, int64_t n, float *lanes) {
  static_assert(kDwTapLanes == 16, "one vector per tap");
  static_assert(T >= 1 && T <= 9, "at most nine named accumulators");
  V16 a0 = {}, a1 = {}, a2 = {}, a3 = {}, a4 = {}, a5 = {}, a6 = {}, a7 = {}, a8 = {};
  const float *x0 = x + shift[0], *x1 = x + shift[T > 1 ? 1 : 0], *x2 = x + shift[T > 2 ? 2 : 0];
  const float *x3 = x + shift[T > 3 ? 3 : 0], *x4 = x + shift[T > 4 ? 4 : 0], *x5 = x + shift[T > 5 ? 5 : 0];
  const float *x6 = x + shift[T > 6 ? 6 : 0], *x7 = x + shift[T > 7 ? 7 : 0], *x8 = x + shift[T > 8 ? 8 : 0];
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const V16 yv = load16(y + i);
    a0 += yv * load16(x0 + i);
    if constexpr (T > 1) a1 += yv * load16(x1 + i);
    if constexpr (T > 2) a2 += yv * load16(x2 + i);
    if constexpr (T > 3) a3 += yv * load16(x3 + i);
    if constexpr (T > 4) a4 += yv * load16(x4 + i);
    if constexpr (T > 5) a5 += yv * load16(x5 + i);
    if constexpr (T > 6) a6 += yv * load16(x6 + i);
    if constexpr (T > 7) a7 += yv * load16(x7 + i);
    if constexpr (T > 8) a8 += yv * load16(x8 + i);
  }
  store16(lanes, load16(lanes) + a0);
  if constexpr (T > 1) store16(lanes + 16, load16(lanes + 16) + a1);
  if constexpr (T > 2) store16(lanes + 32, load16(lanes + 32) + a2);
  if constexpr (T > 3) store16(lanes + 48, load16(lanes + 48) + a3);
  if constexpr (T > 4) store16(lanes + 64, load16(lanes + 64) + a4);
  if constexpr (T > 5) store16(lanes + 80, load16(lanes + 80) + a5);
  if constexpr (T > 6) store16(lanes + 96, load16(lanes + 96) + a6);
  if constexpr (T > 7) store16(lanes + 112, load16(lanes + 112) + a7);
  if constexpr (T > 8) store16(lanes + 128, load16(lanes + 128) + a8);
  for (; i < n; ++i) {
    for (int t = 0; t < T; ++t) lanes[t * 16 + (i & 15)] += y[i] * x[shift[t] + i];
  }
}

template <int T>
inline void dot_taps_of(int64_t count, const float *y, const float *x, const int64_t *shift, int64_t n, float *lanes) {
  if (count == T) {
    dot_taps_block<T>(y, x, shift, n, lanes);
  } else if constexpr (T > 1) {
    dot_taps_of<T - 1>(count, y, x, shift, n, lanes);
  }
}

// Taps in blocks of up to B (the ISA's register budget); each tap's sums are the same whatever the blocks.
template <int B>
inline void dot_taps(const float *y, const float *x, const int64_t *shift, int64_t taps, int64_t n, float *lanes) {
  for (int64_t t0 = 0; t0 < taps; t0 += B) {
    const int64_t count = taps - t0 < B ? taps - t0 : B;
    dot_taps_of<B>(count, y, x, shift + t0, n, lanes + t0 * kDwTapLanes);
  }
}

// Half-width rows (8 to 15 floats, e.g. MobileNet's 14-wide planes): two overlapping 8-float moves per row.
inline bool copy_half_rows(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd) {
  I8 any = {};
  for (int64_t r = 0; r < rows; ++r, src += lds, dst += ldd) {
    const V8 head = load8(src), tail = load8(src + n - 8);  // overlapping: the same values, written twice
    store8(dst, head);
    store8(dst + n - 8, tail);
    any |= specials(head) | specials(tail);
  }
  return any_lane(any) == 0;
}

inline bool copy_rows(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd) {
  if (n >= 8 && n < 16) return copy_half_rows(src, lds, rows, n, dst, ldd);
  I16 any = {};
  uint32_t scalar_any = 0;
  for (int64_t r = 0; r < rows; ++r, src += lds, dst += ldd) {
    if (n < 16) {
      for (int64_t i = 0; i < n; ++i) {
        uint32_t bits;
        __builtin_memcpy(&bits, src + i, 4);
        scalar_any |= static_cast<uint32_t>((bits & 0x7F800000u) == 0x7F800000u);
        dst[i] = src[i];
      }
      continue;
    }
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
      const V16 v = load16(src + i);
      store16(dst + i, v);
      any |= specials(v);
    }
    if (i < n) {  // the last 16 again, overlapping: the same values, written twice
      const V16 v = load16(src + n - 16);
      store16(dst + n - 16, v);
      any |= specials(v);
    }
  }
  return (scalar_any | any_lane(any)) == 0;
}

// BF16 is fp32's upper half: 16 codes widened per vector, 8 at a time for rows of 8 to 15, the row's last vector
// again when it is not whole (overlapping: the same values, written twice).
inline void widen_bf16_rows(const uint16_t *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd) {
  for (int64_t r = 0; r < rows; ++r, src += lds, dst += ldd) {
    if (n >= 16) {
      int64_t i = 0;
      for (; i + 16 <= n; i += 16) widen_bf16<16>(src + i, dst + i);
      if (i < n) widen_bf16<16>(src + n - 16, dst + n - 16);
    } else if (n >= 8) {
      widen_bf16<8>(src, dst);
      widen_bf16<8>(src + n - 8, dst + n - 8);
    } else {
      for (int64_t i = 0; i < n; ++i) {
        const uint32_t u = static_cast<uint32_t>(src[i]) << 16;
        __builtin_memcpy(dst + i, &u, 4);
      }
    }
  }
}

// 16 even and 16 odd columns from 32 consecutive ones.
inline void split16(const float *src, float *even, float *odd) {
  const V16 a = load16(src), b = load16(src + 16);
  store16(even, split_lanes<false>(a, b));
  store16(odd, split_lanes<true>(a, b));
}

// The inverse of interleave at stride 2: even[r·ldd + z] = src[r·lds + 2z], odd[r·ldd + z] = src[r·lds + 2z + 1]
// for z < n (reads 2n columns). The row's last 16 again when it is not whole (overlapping: the same values).
inline void deinterleave2(const float *src, int64_t lds, int64_t rows, int64_t n, float *even, float *odd,
                          int64_t ldd) {
  for (int64_t r = 0; r < rows; ++r, src += lds, even += ldd, odd += ldd) {
    int64_t z = 0;
    if (n >= 16) {
      for (; z + 16 <= n; z += 16) split16(src + 2 * z, even + z, odd + z);
      if (z < n) split16(src + 2 * (n - 16), even + n - 16, odd + n - 16);
      continue;
    }
    for (; z < n; ++z) {
      even[z] = src[2 * z];
      odd[z] = src[2 * z + 1];
    }
  }
}

inline uint32_t special_bit(float v) {
  uint32_t bits;
  __builtin_memcpy(&bits, &v, 4);
  return static_cast<uint32_t>((bits & 0x7F800000u) == 0x7F800000u);
}

// dst[0 .. 16) = a[0], b[0], a[1], b[1], ... a[7], b[7] from src (a) and src + plane (b); returns their specials
// (returned, not added to the caller's vector by reference: that would put it in memory, see any_lane).
inline I16 weave16(const float *src, int64_t plane, float *dst) {
  const V8 a = load8(src), b = load8(src + plane);
  const V16 v = zip8(a, b);
  store16(dst, v);
  return specials(v);
}

// dst[r·ldd + i] += src[r·lds + i] for i < n (col2im's rows): a plain loop, which GCC vectorises with the file's ISA.
inline void add_rows(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd) {
  for (int64_t r = 0; r < rows; ++r, src += lds, dst += ldd) {
#pragma GCC ivdep
    for (int64_t i = 0; i < n; ++i) dst[i] += src[i];
  }
}

// Stride 1 is a copy. Stride 2 weaves two vectors into two, then one half step, then the last 16 even columns again
// (overlapping: the same values, written twice), so only an odd last column is left. Other strides go by element.
// The columns past the vector part start at a multiple of s, so each phase's run is contiguous.
inline bool interleave(const float *src, int64_t plane, int64_t s, int64_t lds, int64_t rows, int64_t n, float *dst,
                       int64_t ldd) {
  if (s == 1) return copy_rows(src, lds, rows, n, dst, ldd);
  I16 any = {};
  uint32_t scalar_any = 0;
  for (int64_t r = 0; r < rows; ++r, src += lds, dst += ldd) {
    int64_t i = 0;
    if (s == 2 && n >= 16) {
      for (; i + 32 <= n; i += 32) {
        any |= weave16(src + i / 2, plane, dst + i) | weave16(src + i / 2 + 8, plane, dst + i + 16);
      }
      if (i + 16 <= n) {
        any |= weave16(src + i / 2, plane, dst + i);
        i += 16;
      }
      const int64_t even = n - n % 2;
      if (i < even) {
        any |= weave16(src + (even - 16) / 2, plane, dst + even - 16);
        i = even;
      }
    }
    for (int64_t a = 0; a < s; ++a) {
      const float *from = src + a * plane;
      for (int64_t z = i / s, col = i + a; col < n; ++z, col += s) {
        scalar_any |= special_bit(from[z]);
        dst[col] = from[z];
      }
    }
  }
  return (scalar_any | any_lane(any)) == 0;
}

}  // namespace
}  // namespace dw_impl
}  // namespace conv_bwd
}  // namespace aclnn_cpu
