// The depthwise row kernels in GCC/Clang vector extensions, compiled with the flags of the file that includes
// this (dw_rows.hpp); fixed 64-lane blocks keep the same sums on every ISA.
#pragma once

#include <cstdint>

#include "conv_bwd/kernels/dw_rows.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace dw_impl {
// Internal linkage: each ISA's file gets its own copy. As ordinary inline functions the three copies, compiled with
// different -m flags, would be one symbol to the linker, which would keep any one of them (an AVX-512 body on an
// AVX2-only CPU). Passing vectors by value therefore never crosses an ABI boundary either.
namespace {
#pragma GCC diagnostic ignored "-Wpsabi"

// 16 floats as one value (GCC/Clang vector extension): the compiler keeps it in registers and maps it onto what
// the file's ISA has (one zmm, two ymm or four xmm). Declared with float alignment: a 64-byte aligned type that
// spills to the stack gets aligned moves, and ASan's fake stack (detect_stack_use_after_return) does not honour
// 64-byte alignment (a general-protection fault under the asan preset).
typedef float V16 __attribute__((vector_size(64), aligned(4)));

inline V16 load16(const float *p) {
  V16 v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

inline void store16(float *p, V16 v) { __builtin_memcpy(p, &v, sizeof v); }

// No local arrays: under ASan's fake stack a 64-byte aligned frame slot is not 64-byte aligned (see V16).
inline void dot(const float *a, int64_t lda, const float *b, int64_t ldb, int64_t rows, int64_t n, float *lanes) {
  static_assert(kDwLanes == 64, "four 16-float chains");
  const V16 zero = {};
  V16 acc0 = zero, acc1 = zero, acc2 = zero, acc3 = zero;
  for (int64_t r = 0; r < rows; ++r, a += lda, b += ldb) {
    int64_t i = 0;
    for (; i + 64 <= n; i += 64) {
      acc0 += load16(a + i) * load16(b + i);
      acc1 += load16(a + i + 16) * load16(b + i + 16);
      acc2 += load16(a + i + 32) * load16(b + i + 32);
      acc3 += load16(a + i + 48) * load16(b + i + 48);
    }
    if (i + 16 <= n) {
      acc0 += load16(a + i) * load16(b + i);
      i += 16;
      if (i + 16 <= n) {
        acc1 += load16(a + i) * load16(b + i);
        i += 16;
        if (i + 16 <= n) {
          acc2 += load16(a + i) * load16(b + i);
          i += 16;
        }
      }
    }
    // The columns past the last full block of 16 go straight into their lanes (lane i mod 64).
    for (; i < n; ++i) lanes[i % 64] += a[i] * b[i];
  }
  store16(lanes, load16(lanes) + acc0);
  store16(lanes + 16, load16(lanes + 16) + acc1);
  store16(lanes + 32, load16(lanes + 32) + acc2);
  store16(lanes + 48, load16(lanes + 48) + acc3);
}

inline void axpy(float alpha, const float *x, int64_t ldx, int64_t rows, int64_t n, float *y, int64_t ldy) {
  for (int64_t r = 0; r < rows; ++r, x += ldx, y += ldy) {
    for (int64_t i = 0; i < n; ++i) y[i] += alpha * x[i];
  }
}

inline void taps(const float *x, const int64_t *shift, const float *w, int64_t taps, int64_t n, float *y) {
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    V16 acc0 = load16(y + i), acc1 = load16(y + i + 16), acc2 = load16(y + i + 32), acc3 = load16(y + i + 48);
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
    V16 acc = load16(y + i);
    for (int64_t t = 0; t < taps; ++t) acc += w[t] * load16(x + shift[t] + i);
    store16(y + i, acc);
  }
  for (; i < n; ++i) {
    float acc = y[i];
    for (int64_t t = 0; t < taps; ++t) acc += w[t] * x[shift[t] + i];
    y[i] = acc;
  }
}

}  // namespace
}  // namespace dw_impl
}  // namespace conv_bwd
}  // namespace aclnn_cpu
