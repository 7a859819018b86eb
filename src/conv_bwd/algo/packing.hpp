// Packing of GEMM operands into the microkernels' panel layout (kernels/gemm_ukernel.hpp), and the loop that runs
// the microkernel over a packed block. The fetch callbacks read user tensors through OperandReader, so conversion
// and rounding happen here, once per packed element.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "conv_bwd/kernels/gemm_ra_ukernel.hpp"
#include "conv_bwd/kernels/gemm_ukernel.hpp"
#include "core/int_math.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// A table of int64 (e.g. tap offsets) kept in a float scratch slot from float offset `at` on, rounded up to 8 bytes
// (slots are 64-byte aligned); int64_table_floats(count) is what it takes of the slot, the rounding included.
inline int64_t *int64_table(float *slot, int64_t at) { return reinterpret_cast<int64_t *>(slot + round_up(at, 2)); }
inline int64_t int64_table_floats(int64_t count) { return 2 * count + 1; }

// Both operands use one layout: panels of `width` lines (A: MR rows; B: NR columns), each panel kc steps of
// `width` floats (line i of step k at panel[k·width + i]); lines past `lines` are zeros.

// From lines: fetch_line(i, out) writes the kc values of line i (a row of A, a column of B) into out. With a
// transpose kernel (an ISA's 8 × 8 blocks), kPackLineBlock lines at a time (a panel's width when it is no multiple of
// that: AVX2's and NEON's 6-row A) are fetched into tmp, then moved into their panel; without one, or for other
// widths, one line into tmp and then value by value, each store a panel's width after the last (that scalar loop was
// 4 % of ResNet's 7² 3 × 3 512 FP32 gradWeight on Zen 5). tmp: kPackLineBlock·kc floats with a transpose, else kc.
constexpr int64_t kPackLineBlock = 8;
template <typename FetchLine>
void pack_panels_by_lines(int width, int64_t lines, int64_t kc, float *tmp, float *dst, GemmRaTransposeFn transpose,
                          FetchLine fetch_line) {
  if (transpose != nullptr && (width % kPackLineBlock == 0 || width < kPackLineBlock)) {
    const int64_t chunk = width % kPackLineBlock == 0 ? kPackLineBlock : width;
    for (int64_t i0 = 0; i0 < round_up(lines, width); i0 += chunk) {
      const int64_t n = std::clamp<int64_t>(lines - i0, 0, chunk);
      for (int64_t i = 0; i < n; ++i) fetch_line(i0 + i, tmp + i * kc);
      std::fill(tmp + n * kc, tmp + chunk * kc, 0.0f);  // lines past `lines`
      transpose(tmp, kc, chunk, kc, dst + i0 / width * width * kc + i0 % width, width);
    }
    return;
  }
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

// Copies `count` consecutive steps (step k0 + j's values at steps[j]) into the panels, panel by panel: each panel
// then takes count·width contiguous floats at once. Step by step, a step's chunks land kc·width floats apart: a
// power of two when kc is, so all of a step's stores fall in one L1 set (measured 4.7× slower on a 144-row panel).
template <int W>
void copy_steps_to_panels(const float *const *steps, int count, int64_t lines, int64_t kc, int64_t k0, float *dst) {
  const int64_t full = lines / W * W;
  for (int64_t p = 0; p < full; p += W) {
    float *d = dst + p * kc + k0 * W;
    for (int j = 0; j < count; ++j) std::memcpy(d + j * W, steps[j] + p, W * sizeof(float));
  }
  if (full == lines) return;
  float *d = dst + full * kc + k0 * W;
  for (int j = 0; j < count; ++j) {
    for (int i = 0; i < W; ++i) d[j * W + i] = full + i < lines ? steps[j][full + i] : 0.0f;
  }
}

// The kernels' widths get compile-time copies (a few vector moves per chunk); others a plain loop.
inline void copy_steps_to_panels(int width, const float *const *steps, int count, int64_t lines, int64_t kc, int64_t k0,
                                 float *dst) {
  switch (width) {
    case 4:
      return copy_steps_to_panels<4>(steps, count, lines, kc, k0, dst);
    case 6:
      return copy_steps_to_panels<6>(steps, count, lines, kc, k0, dst);
    case 8:
      return copy_steps_to_panels<8>(steps, count, lines, kc, k0, dst);
    case 16:
      return copy_steps_to_panels<16>(steps, count, lines, kc, k0, dst);
    case 32:
      return copy_steps_to_panels<32>(steps, count, lines, kc, k0, dst);
    default:
      break;
  }
  for (int64_t i = 0; i < round_up(lines, width); ++i) {
    float *d = dst + (i / width) * width * kc + k0 * width + i % width;
    for (int j = 0; j < count; ++j) d[j * width] = i < lines ? steps[j][i] : 0.0f;
  }
}

// Steps packed together (copy_steps_to_panels); pack_panels_by_steps' tmp holds this many steps.
constexpr int kPackStepBlock = 8;

// From steps: fetch_step(k, out) returns the `lines` values of step k (a column of A, a row of B): `out` (a slot of
// tmp) after filling it, or a pointer to them where they already lie in fp32 (no copy on the way). tmp holds
// kPackStepBlock × lines floats: the steps are copied into the panels kPackStepBlock at a time.
template <typename FetchStep>
void pack_panels_by_steps(int width, int64_t lines, int64_t kc, float *tmp, float *dst, FetchStep fetch_step) {
  const float *pending[kPackStepBlock] = {};
  for (int64_t k0 = 0; k0 < kc; k0 += kPackStepBlock) {
    const int count = static_cast<int>(std::min<int64_t>(kPackStepBlock, kc - k0));
    for (int j = 0; j < count; ++j) pending[j] = fetch_step(k0 + j, tmp + j * lines);
    copy_steps_to_panels(width, pending, count, lines, kc, k0, dst);
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
