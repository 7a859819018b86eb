// Packing of GEMM operands into the microkernels' panel layout (kernels/gemm_ukernel.hpp), and the loop that runs
// the microkernel over a packed block. The fetch callbacks read user tensors through OperandReader, so conversion
// and rounding happen here, once per packed element.
#pragma once

#include <algorithm>
#include <cstdint>

#include "conv_bwd/kernels/gemm_ukernel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

inline int64_t round_up(int64_t v, int64_t to) { return (v + to - 1) / to * to; }

// A table of int64 (e.g. tap offsets) kept in a float scratch slot from float offset `at` on, rounded up to 8 bytes
// (slots are 64-byte aligned); int64_table_floats(count) is what it takes of the slot, the rounding included.
inline int64_t *int64_table(float *slot, int64_t at) { return reinterpret_cast<int64_t *>(slot + round_up(at, 2)); }
inline int64_t int64_table_floats(int64_t count) { return 2 * count + 1; }

// Both operands use one layout: panels of `width` lines (A: MR rows; B: NR columns), each panel kc steps of
// `width` floats (line i of step k at panel[k·width + i]); lines past `lines` are zeros.

// From lines: fetch_line(i, tmp) writes the kc values of line i (a row of A, a column of B) into tmp.
template <typename FetchLine>
void pack_panels_by_lines(int width, int64_t lines, int64_t kc, float *tmp, float *dst, FetchLine fetch_line) {
  for (int64_t i = 0; i < round_up(lines, width); ++i) {
    float *d = dst + (i / width) * width * kc + i % width;
    if (i < lines) {
      fetch_line(i, tmp);
      for (int64_t k = 0; k < kc; ++k) d[k * width] = tmp[k];
    } else {
      for (int64_t k = 0; k < kc; ++k) d[k * width] = 0.0f;
    }
  }
}

// From steps: fetch_step(k, tmp) returns the `lines` values of step k (a column of A, a row of B): tmp after
// filling it, or a pointer to them where they already lie in fp32 (no copy on the way).
template <typename FetchStep>
void pack_panels_by_steps(int width, int64_t lines, int64_t kc, float *tmp, float *dst, FetchStep fetch_step) {
  const int64_t full = lines / width * width;
  for (int64_t k = 0; k < kc; ++k) {
    const float *src = fetch_step(k, tmp);
    // Chunks of 6 to 32 floats: inline loops, not a memmove call per chunk.
    for (int64_t p = 0; p < full; p += width) {
      float *d = dst + p * kc + k * width;
      for (int i = 0; i < width; ++i) d[i] = src[p + i];
    }
    if (full < lines) {
      float *d = dst + full * kc + k * width;
      for (int i = 0; i < width; ++i) d[i] = full + i < lines ? src[full + i] : 0.0f;
    }
  }
}

// C[m × n] (+)= A·B for packed A (m × kc) and B (kc × n); one B panel stays hot while every A panel passes.
inline void run_tiles(const GemmUkernel &uk, int64_t m, int64_t n, int64_t kc, const float *a, const float *b, float *c,
                      int64_t ldc, bool accumulate) {
  for (int64_t j = 0; j < n; j += uk.nr) {
    const float *bp = b + j * kc;
    const int nn = static_cast<int>(std::min<int64_t>(uk.nr, n - j));
    for (int64_t i = 0; i < m; i += uk.mr) {
      const int mm = static_cast<int>(std::min<int64_t>(uk.mr, m - i));
      uk.run(kc, a + i * kc, bp, uk.nr, c + i * ldc + j, ldc, mm, nn, accumulate);
    }
  }
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
