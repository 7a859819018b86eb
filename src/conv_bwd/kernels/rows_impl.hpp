// The row kernels in GCC/Clang vector extensions, compiled with the flags of the file that includes
// this (rows.hpp); fixed 64-lane blocks keep the same sums on every ISA.
#pragma once

#include <algorithm>
#include <cstdint>

#include "conv_bwd/kernels/row_vectors.hpp"
#include "conv_bwd/kernels/rows.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace rows_impl {
// Internal linkage: each ISA's file gets its own copy. As ordinary inline functions the three copies, compiled with
// different -m flags, would be one symbol to the linker, which would keep any one of them (an AVX-512 body on an
// AVX2-only CPU). Passing vectors by value therefore never crosses an ABI boundary either.
namespace {

// taps_block16 packs the weights of this many terms at a time (all of them, once, for the usual term counts).
constexpr int64_t kBlockTerms = 512;

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

// 16 positions of C channels (C ≤ 6), one named accumulator each: 1 vector load and C broadcasts per C
// multiply-adds. With 16 vector registers (AVX2: a V16 is two) six channels keep 12 accumulators in flight, where
// taps_block<2>'s 8 leave the FMA units waiting on their latency.
template <int C>
inline void taps_block16(const float *x, const int64_t *shift, const float *w, int64_t ldw, int64_t taps_n, int64_t n,
                         float *y, int64_t ldy) {
  static_assert(C >= 1 && C <= 6, "at most six channels of one named accumulator");
  // The C weights of a term side by side: one pointer walks them (six row pointers cost GCC stack reloads per term,
  // which made the loop load-bound).
  float wi[kBlockTerms * C];
  const V16 zero = {};
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    V16 a0 = zero, a1 = zero, a2 = zero, a3 = zero, a4 = zero, a5 = zero;
    for (int64_t t0 = 0; t0 < taps_n; t0 += kBlockTerms) {
      const int64_t tn = std::min(kBlockTerms, taps_n - t0);
      if (i == 0 || taps_n > kBlockTerms) {
        for (int64_t t = 0; t < tn; ++t) {
          for (int c = 0; c < C; ++c) wi[t * C + c] = w[c * ldw + t0 + t];
        }
      }
      const float *xi = x + i;
      const float *p = wi;
      for (int64_t t = t0; t < t0 + tn; ++t, p += C) {
        const V16 u = load16(xi + shift[t]);
        a0 += p[0] * u;
        if constexpr (C > 1) a1 += p[1] * u;
        if constexpr (C > 2) a2 += p[2] * u;
        if constexpr (C > 3) a3 += p[3] * u;
        if constexpr (C > 4) a4 += p[4] * u;
        if constexpr (C > 5) a5 += p[5] * u;
      }
    }
    store16(y + i, a0);
    if constexpr (C > 1) store16(y + ldy + i, a1);
    if constexpr (C > 2) store16(y + 2 * ldy + i, a2);
    if constexpr (C > 3) store16(y + 3 * ldy + i, a3);
    if constexpr (C > 4) store16(y + 4 * ldy + i, a4);
    if constexpr (C > 5) store16(y + 5 * ldy + i, a5);
  }
  if (i == n) return;
  for (int c = 0; c < C; ++c) taps(x + i, shift, w + c * ldw, taps_n, n - i, y + c * ldy + i);
}

// All `channels` in blocks of six over 16 positions (taps_block16), the rest in the widest block that fits.
inline void taps_channels6(const float *x, const int64_t *shift, const float *w, int64_t ldw, int64_t taps_n, int64_t n,
                           float *y, int64_t ldy, int64_t channels) {
  int64_t c = 0;
  for (; c + 6 <= channels; c += 6) taps_block16<6>(x, shift, w + c * ldw, ldw, taps_n, n, y + c * ldy, ldy);
  const float *wc = w + c * ldw;
  float *yc = y + c * ldy;
  switch (channels - c) {
    case 5:
      return taps_block16<5>(x, shift, wc, ldw, taps_n, n, yc, ldy);
    case 4:
      return taps_block16<4>(x, shift, wc, ldw, taps_n, n, yc, ldy);
    case 3:
      return taps_block16<3>(x, shift, wc, ldw, taps_n, n, yc, ldy);
    case 2:
      return taps_block<2, false>(x, shift, wc, ldw, taps_n, n, yc, ldy);
    case 1:
      return taps(x, shift, wc, taps_n, n, yc);
    default:
      return;
  }
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
  static_assert(kTapLanes == 16, "one vector per tap");
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
    dot_taps_of<B>(count, y, x, shift + t0, n, lanes + t0 * kTapLanes);
  }
}

// The 3 × 3 grid kernels (taps_3x3, dot_taps_3x3): tap kr·3 + kc reads x at kr·ld + kc·dc from y's position, and
// y's rows have x's pitch ld (the shifted layout). Going down a strip of columns, x row ρ meets y rows ρ, ρ − 1 and
// ρ − 2 through tap rows 0, 1 and 2, so each x vector is loaded once for three rows instead of once per tap. At an
// x row, Start: y row ρ exists (tap row 0), Mid: y row ρ − 1 (tap row 1), End: y row ρ − 2 (tap row 2).
struct Taps9 {
  float w0, w1, w2, w3, w4, w5, w6, w7, w8;
};

inline Taps9 taps9(const float *w) { return Taps9{w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8]}; }

// acc plus one tap row's three taps of x row xr (weights w0, w1, w2), in kc order: the strip's edge rows, where not
// every accumulator takes that x row. (By value: a vector passed by reference needs a frame slot, and the asan
// build's aligned moves of a zmm there fault on ASan's fake stack.)
inline V16 add_tap_row(V16 acc, const float *xr, int64_t dc, float w0, float w1, float w2) {
  acc += w0 * load16(xr);
  acc += w1 * load16(xr + dc);
  acc += w2 * load16(xr + 2 * dc);
  return acc;
}

// A strip of 16 columns of taps_3x3 down all rows (rows ≥ 1). Accumulator c starts y row ρ at x row ρ, b holds
// row ρ − 1 and a row ρ − 2, which x row ρ finishes (stored); then they move up. In the steady loop each x vector
// is loaded once and feeds all three, one load at a time (three live x vectors spill on AVX2); each accumulator
// still takes its taps in kc order, so every y element gets its sum in tap order.
inline void taps_3x3_strip(const float *x, int64_t ld, int64_t dc, const Taps9 &t, int64_t rows, float *y) {
  const V16 zero = {};
  V16 a = add_tap_row(zero, x, dc, t.w0, t.w1, t.w2);  // y row 0
  a = add_tap_row(a, x + ld, dc, t.w3, t.w4, t.w5);
  V16 b = rows > 1 ? add_tap_row(zero, x + ld, dc, t.w0, t.w1, t.w2) : zero;  // y row 1
  int64_t rho = 2;
  for (; rho < rows; ++rho) {
    const float *xr = x + rho * ld;
    V16 c = zero;
    const V16 u0 = load16(xr);
    c += t.w0 * u0;
    b += t.w3 * u0;
    a += t.w6 * u0;
    const V16 u1 = load16(xr + dc);
    c += t.w1 * u1;
    b += t.w4 * u1;
    a += t.w7 * u1;
    const V16 u2 = load16(xr + 2 * dc);
    c += t.w2 * u2;
    b += t.w5 * u2;
    a += t.w8 * u2;
    store16(y + (rho - 2) * ld, a);
    a = b;
    b = c;
  }
  for (; rho < rows + 2; ++rho) {  // the last two y rows
    const float *xr = x + rho * ld;
    if (rho == rows) b = add_tap_row(b, xr, dc, t.w3, t.w4, t.w5);
    a = add_tap_row(a, xr, dc, t.w6, t.w7, t.w8);
    store16(y + (rho - 2) * ld, a);
    a = b;
  }
}

// y[j·ld + i] = 0 + w[0]·x[j·ld + i] + w[1]·x[j·ld + i + dc] + ... + w[8]·x[(j + 2)·ld + i + 2·dc] (tap order: the
// bits `taps` gives with shifts kr·ld + kc·dc) for j < rows, i < width; y's columns [width, span) of those rows may be
// written too (junk positions of the q-space), and x is read up to column span − 1 + 2·dc. Strips of 16 columns, the
// last one moved back to end at span (overlapping: the same values, written twice); spans below 16 go by element.
inline void taps_3x3(const float *x, int64_t ld, int64_t dc, const float *w, int64_t rows, int64_t width, int64_t span,
                     float *y) {
  if (rows <= 0 || width <= 0) return;
  const Taps9 t = taps9(w);
  if (span < 16) {
    for (int64_t j = 0; j < rows; ++j) {
      for (int64_t i = 0; i < width; ++i) {
        const float *xp = x + j * ld + i;
        float acc = 0.0f;
        for (int64_t kr = 0; kr < 3; ++kr) {
          for (int64_t kc = 0; kc < 3; ++kc) acc += w[kr * 3 + kc] * xp[kr * ld + kc * dc];
        }
        y[j * ld + i] = acc;
      }
    }
    return;
  }
  for (int64_t c0 = 0; c0 < width; c0 += 16) {
    const int64_t c = c0 + 16 <= span ? c0 : span - 16;
    taps_3x3_strip(x + c, ld, dc, t, rows, y + c);
  }
}

// dot_taps_3x3's vectors: the ISA's own, at most 8 lanes (AVX-512 too: with 16-lane strips its nine accumulators took
// one multiply-add per x row each and ran at 40 % of the peak; the order of the sums does not depend on the width).
constexpr int kGridLanes = kNativeLanes < 8 ? kNativeLanes : 8;
typedef typename Native<kGridLanes>::F NF;
typedef typename Native<kGridLanes>::J NJ;

// Through load_native's naturally aligned local (an element-aligned one stays in memory).
inline NF load_nf(const float *p) { return load_native<NF>(p); }
inline void store_nf(float *p, NF v) { store_native<NF>(p, v); }

// One x row of a dot_taps_3x3 strip: the y rows ρ (yc, tap row 0), ρ − 1 (yb, tap row 1), ρ − 2 (ya, tap row 2)
// times the row's three x vectors, into the nine tap accumulators (named, not an array or a struct: see
// dot_taps_block).
template <bool Start, bool Mid, bool End>
inline void dot_3x3_row(const float *xr, int64_t dc, NF ya, NF yb, NF yc, NF &t0, NF &t1, NF &t2, NF &t3, NF &t4,
                        NF &t5, NF &t6, NF &t7, NF &t8) {
  const NF u0 = load_nf(xr), u1 = load_nf(xr + dc), u2 = load_nf(xr + 2 * dc);
  if constexpr (Start) {
    t0 += yc * u0;
    t1 += yc * u1;
    t2 += yc * u2;
  }
  if constexpr (Mid) {
    t3 += yb * u0;
    t4 += yb * u1;
    t5 += yb * u2;
  }
  if constexpr (End) {
    t6 += ya * u0;
    t7 += ya * u1;
    t8 += ya * u2;
  }
}

// y's vector at p, its lanes from `keep` on zero when Partial (columns past the plane's width).
template <bool Partial>
inline NF load_y(const float *p, NJ keep) {
  const NF v = load_nf(p);
  if constexpr (Partial) return (NF)((NJ)v & keep);
  return v;
}

// A strip of kGridLanes columns down all rows (rows ≥ 1), the y rows loaded once each and kept for the three x
// rows that meet them.
template <bool Partial>
inline void dot_3x3_strip(const float *y, const float *x, int64_t ld, int64_t dc, int64_t rows, NJ keep, NF &t0, NF &t1,
                          NF &t2, NF &t3, NF &t4, NF &t5, NF &t6, NF &t7, NF &t8) {
  NF ya = {}, yb = {}, yc = load_y<Partial>(y, keep);
  dot_3x3_row<true, false, false>(x, dc, ya, yb, yc, t0, t1, t2, t3, t4, t5, t6, t7, t8);
  yb = yc;
  if (rows > 1) {
    yc = load_y<Partial>(y + ld, keep);
    dot_3x3_row<true, true, false>(x + ld, dc, ya, yb, yc, t0, t1, t2, t3, t4, t5, t6, t7, t8);
  } else {
    dot_3x3_row<false, true, false>(x + ld, dc, ya, yb, yc, t0, t1, t2, t3, t4, t5, t6, t7, t8);
  }
  int64_t rho = 2;
  for (; rho < rows; ++rho) {
    ya = yb;
    yb = yc;
    yc = load_y<Partial>(y + rho * ld, keep);
    dot_3x3_row<true, true, true>(x + rho * ld, dc, ya, yb, yc, t0, t1, t2, t3, t4, t5, t6, t7, t8);
  }
  for (; rho < rows + 2; ++rho) {
    ya = yb;
    yb = yc;
    if (rho == rows) {
      dot_3x3_row<false, true, true>(x + rho * ld, dc, ya, yb, yc, t0, t1, t2, t3, t4, t5, t6, t7, t8);
    } else {
      dot_3x3_row<false, false, true>(x + rho * ld, dc, ya, yb, yc, t0, t1, t2, t3, t4, t5, t6, t7, t8);
    }
  }
}

// lanes[t·16 + l] += y[j·ld + i]·x[j·ld + i + kr·ld + kc·dc] (t = kr·3 + kc) over the columns i < width with
// i ≡ l (mod 16), ascending, and in each column the rows j < rows, ascending: per lane block of the ISA's width,
// nine accumulators that start at 0 and run through every strip of that block, then are added to the lanes. The
// last strip's columns past width are zeroed in y; x is read up to kGridLanes − 1 columns past width + 2·dc in the
// last rows, so the caller's x buffer must be readable that far (the values there meet those zeroed lanes: a
// non-finite one makes the sums NaN, which the callers' finite checks send to the reference).
inline void dot_taps_3x3(const float *y, const float *x, int64_t ld, int64_t dc, int64_t rows, int64_t width,
                         float *lanes) {
  static_assert(kTapLanes % kGridLanes == 0, "whole lane blocks");
  if (rows <= 0 || width <= 0) return;
  NJ lane = {};
  for (int l = 0; l < kGridLanes; ++l) lane[l] = l;
  for (int64_t block = 0; block < kTapLanes && block < width; block += kGridLanes) {
    NF t0 = {}, t1 = {}, t2 = {}, t3 = {}, t4 = {}, t5 = {}, t6 = {}, t7 = {}, t8 = {};
    int64_t c0 = block;
    for (; c0 + kGridLanes <= width; c0 += kTapLanes) {
      dot_3x3_strip<false>(y + c0, x + c0, ld, dc, rows, NJ{}, t0, t1, t2, t3, t4, t5, t6, t7, t8);
    }
    if (c0 < width) {
      const NJ keep = lane < static_cast<int32_t>(width - c0);
      dot_3x3_strip<true>(y + c0, x + c0, ld, dc, rows, keep, t0, t1, t2, t3, t4, t5, t6, t7, t8);
    }
    float *l = lanes + block;
    store_nf(l, load_nf(l) + t0);
    store_nf(l + 16, load_nf(l + 16) + t1);
    store_nf(l + 32, load_nf(l + 32) + t2);
    store_nf(l + 48, load_nf(l + 48) + t3);
    store_nf(l + 64, load_nf(l + 64) + t4);
    store_nf(l + 80, load_nf(l + 80) + t5);
    store_nf(l + 96, load_nf(l + 96) + t6);
    store_nf(l + 112, load_nf(l + 112) + t7);
    store_nf(l + 128, load_nf(l + 128) + t8);
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

// Rows of 4 to 7 (a 7 × 7 plane's): the first and the last 4 floats, overlapping (the scalar loop took 20
// instructions a float, a tenth of the seed problem's call).
inline bool copy_quarter_rows(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd) {
  J4 any = {};
  for (int64_t r = 0; r < rows; ++r, src += lds, dst += ldd) {
    F4 head, tail;
    __builtin_memcpy(&head, src, sizeof(head));
    __builtin_memcpy(&tail, src + n - 4, sizeof(tail));
    __builtin_memcpy(dst, &head, sizeof(head));
    __builtin_memcpy(dst + n - 4, &tail, sizeof(tail));
    any |= (((J4)head & 0x7F800000) == 0x7F800000) | (((J4)tail & 0x7F800000) == 0x7F800000);
  }
  return (any[0] | any[1] | any[2] | any[3]) == 0;
}

inline bool copy_rows(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd) {
  if (n >= 8 && n < 16) return copy_half_rows(src, lds, rows, n, dst, ldd);
  if (n >= 4 && n < 8) return copy_quarter_rows(src, lds, rows, n, dst, ldd);
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

// fp32 bits to BF16 bits as numerics' fp32_to_bf16: RNE on the bits (a carry moves into the exponent), a NaN quieted
// with its sign and top payload kept.
inline uint16_t bf16_of_bits(uint32_t u) {
  const uint32_t value = (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16, quiet = (u | 0x00400000u) >> 16;
  return static_cast<uint16_t>((u & 0x7FFFFFFFu) > 0x7F800000u ? quiet : value);
}

// One native vector of narrow_bf16_rows; its Inf/NaN lanes or-ed into `special`.
inline void narrow_bf16_native(const float *src, uint16_t *dst, typename Native<kNativeLanes>::J &special) {
  typedef typename Native<kNativeLanes>::U U;
  typedef typename Native<kNativeLanes>::J J;
  typedef typename Native<kNativeLanes>::H H;
  U u;
  __builtin_memcpy(&u, src, sizeof u);
  const U nan = (U)((u & 0x7FFFFFFFu) > 0x7F800000u);
  const U value = (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16, quiet = (u | 0x00400000u) >> 16;
  const H h = __builtin_convertvector((quiet & nan) | (value & ~nan), H);
  __builtin_memcpy(dst, &h, sizeof h);
  special |= (J)((u & 0x7F800000u) == 0x7F800000u);
}

inline bool narrow_bf16_rows(const float *src, int64_t lds, int64_t rows, int64_t n, uint16_t *dst, int64_t ldd) {
  constexpr int64_t W = kNativeLanes;
  typename Native<kNativeLanes>::J special = {};
  uint32_t scalar_special = 0;
  for (int64_t r = 0; r < rows; ++r, src += lds, dst += ldd) {
    if (n < W) {
      for (int64_t i = 0; i < n; ++i) {
        uint32_t u;
        __builtin_memcpy(&u, src + i, 4);
        scalar_special |= static_cast<uint32_t>((u & 0x7F800000u) == 0x7F800000u);
        dst[i] = bf16_of_bits(u);
      }
      continue;
    }
    int64_t i = 0;
    for (; i + W <= n; i += W) narrow_bf16_native(src + i, dst + i, special);
    if (i < n) narrow_bf16_native(src + n - W, dst + n - W, special);  // the last W again: the same values
  }
  return (any_native(special) | scalar_special) == 0;
}

// One element of round_rows_hf32 (numerics' round_to_hf32 on the bits): the same formula per lane below.
template <bool TiesAway>
inline uint32_t hf32_bits(uint32_t u, const Hf32Rows &h) {
  const uint32_t a = u & 0x7FFFFFFFu;
  const uint32_t kept = TiesAway ? (a + h.half) & h.keep : (a + (h.half - 1u) + ((a >> h.drop) & 1u)) & h.keep;
  return a > 0x7F800000u ? u : (u & 0x80000000u) | kept;
}

// One native vector of round_rows_hf32 from src to dst.
template <bool TiesAway>
inline void round_hf32_native(const float *src, float *dst, const Hf32Rows &h) {
  typedef typename Native<kNativeLanes>::U U;
  U u;
  __builtin_memcpy(&u, src, sizeof u);
  const U a = u & 0x7FFFFFFFu;
  const U kept = TiesAway ? (a + h.half) & h.keep : (a + (h.half - 1u) + ((a >> h.drop) & 1u)) & h.keep;
  const U nan = (U)(a > 0x7F800000u);  // all ones in the lanes of a NaN: kept as it is
  const U out = (u & nan) | (((u & 0x80000000u) | kept) & ~nan);
  __builtin_memcpy(dst, &out, sizeof out);
}

template <bool TiesAway>
inline void round_rows_hf32_as(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd,
                               const Hf32Rows &h) {
  constexpr int64_t W = kNativeLanes;
  for (int64_t r = 0; r < rows; ++r, src += lds, dst += ldd) {
    if (n < W) {
      for (int64_t i = 0; i < n; ++i) {
        uint32_t u;
        __builtin_memcpy(&u, src + i, 4);
        u = hf32_bits<TiesAway>(u, h);
        __builtin_memcpy(dst + i, &u, 4);
      }
      continue;
    }
    int64_t i = 0;
    for (; i + W <= n; i += W) round_hf32_native<TiesAway>(src + i, dst + i, h);
    if (i < n) round_hf32_native<TiesAway>(src + n - W, dst + n - W, h);  // the last W again: the same values
  }
}

inline void round_rows_hf32(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd,
                            const Hf32Rows &h) {
  if (h.ties_away) {
    round_rows_hf32_as<true>(src, lds, rows, n, dst, ldd, h);
  } else {
    round_rows_hf32_as<false>(src, lds, rows, n, dst, ldd, h);
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

// By 4-float vectors: the odd elements between are stored back as they were (a blend, not + 0, which would turn −0
// into +0), and nothing past dst[2(n − 1)] is touched.
inline void add_every_second(const float *from, int64_t n, float *row) {
  typedef float F4 __attribute__((vector_size(16), aligned(4)));
  int64_t i = 0;
  for (; i + 5 <= n; i += 4) {  // row[2i .. 2i + 7], and 2i + 7 ≤ 2(n − 1)
    F4 a, b, f;
    __builtin_memcpy(&a, row + 2 * i, sizeof(a));
    __builtin_memcpy(&b, row + 2 * i + 4, sizeof(b));
    __builtin_memcpy(&f, from + i, sizeof(f));
    const F4 lo = a + __builtin_shufflevector(f, f, 0, 0, 1, 1), hi = b + __builtin_shufflevector(f, f, 2, 2, 3, 3);
    a = __builtin_shufflevector(lo, a, 0, 5, 2, 7);
    b = __builtin_shufflevector(hi, b, 0, 5, 2, 7);
    __builtin_memcpy(row + 2 * i, &a, sizeof(a));
    __builtin_memcpy(row + 2 * i + 4, &b, sizeof(b));
  }
  for (; i < n; ++i) row[2 * i] += from[i];
}

inline void add_rows_every_second(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd) {
  for (int64_t r = 0; r < rows; ++r, src += lds, dst += ldd) add_every_second(src, n, dst);
}

// add_rows tap by tap: the generic loop loads and stores dst once per tap (ISAs with masked vectors do better).
inline void add_taps_rows(const float *src, int64_t lds, const int64_t *src_at, const int64_t *begin,
                          const int64_t *end, int64_t taps, int64_t rows, float *dst, int64_t ldd) {
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t t = 0; t < taps; ++t) {
      if (begin[t] < end[t])
        add_rows(src + (r * lds + src_at[t] + begin[t]), 0, 1, end[t] - begin[t], dst + (r * ldd + begin[t]), 0);
    }
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
    for (int64_t a = 0; a < s && a < n; ++a) {  // (a stride past the row: its columns a < n only)
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
}  // namespace rows_impl
}  // namespace conv_bwd
}  // namespace aclnn_cpu

// The wrapper of one kernel in the file of ISA `isa` (X of ACLNN_CPU_ROW_KERNELS): rows_<name>__<isa> forwards to
// rows_isa::<op>, a namespace that file defines with `using namespace rows_impl` and its own definitions of the
// kernels whose blocking depends on the ISA's registers (they hide rows_impl's templates of the same name).
#define ACLNN_CPU_ROW_KERNEL_DEFINITION(isa, result, op, name, params, args) \
  result rows_##name##__##isa params { return rows_isa::op args; }
