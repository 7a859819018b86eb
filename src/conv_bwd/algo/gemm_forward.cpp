// The forward relation as GEMMs: y tile (Cy_g × positions) = weight rows (K = Cx_g·taps) · implicit im2col of x.
// Two uses (gemm_algorithms.hpp):
//   transposed gradInput: x := gradOutput, weight rows w[cy, ·] as stored;
//   flipped (stride-1 gradInput of a convolution): x := gradOutput, output dx, weight rows wᵀ with the taps
//   reversed, and begin pads (k−1)·dil − pb: dx[c, p] = Σ_{cy, κ'} w[cy, c, K−1−κ'] · dy[cy, p − pb' + κ'·dil].
// The weight is rounded and packed once into the shared area, in panels every tile uses as they are.
#include <algorithm>
#include <atomic>

#include "conv_bwd/algo/gemm_algorithms.hpp"
#include "conv_bwd/algo/im2col.hpp"
#include "conv_bwd/algo/operand_runs.hpp"
#include "conv_bwd/algo/packing.hpp"
#include "conv_bwd/algo/result_runs.hpp"
#include "conv_bwd/parallel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

Canonical flipped_problem(const Canonical &c) {
  Canonical f = c;
  f.transposed = false;
  f.cx_per_group = c.cy_per_group;  // summed over: gradOutput's channels
  f.cy_per_group = c.cx_per_group;  // produced: gradInput's channels
  for (int d = 0; d < kSpatial; ++d) {
    f.x_size[d] = c.y_size[d];
    f.y_size[d] = c.x_size[d];
    f.stride[d] = 1;
    f.pad_begin[d] = (c.kernel[d] - 1) * c.dilation[d] - c.pad_begin[d];
  }
  f.x = c.y;
  return f;
}

namespace {

// The GEMM's A for every group, rounded and packed once in the microkernel's panel layout (packing.hpp):
// group g, K block k0 starts at g·Mp·K + k0·Mp (Mp = M rounded up to MR). False if a weight is not finite.
bool pack_weight_panels(const Canonical &c, const Canonical &f, bool flipped, const GemmUkernel &uk,
                        const Rounding &rounding, const GemmScratch &s) {
  const OperandReader w(c.w, rounding, true);
  const int64_t kk = c.kernel_numel(), m = f.cy_per_group, k_total = f.cx_per_group * kk, mp = round_up(m, uk.mr);
  const int64_t panels = mp / uk.mr;
  std::atomic<bool> finite{true};
  // Work items are panels (MR rows of A): each writes only its own part of the shared area, so no two threads
  // share a cache line. A row holds K values of the transposed call's w[g·M + a], or for the flipped form the
  // taps of w[g·Cy_g + b, a] reversed, for every b.
  parallel_for_slots(f.groups * panels, s.slots, static_cast<double>(f.groups) * mp * k_total * 4,
                     [&](int slot, int64_t begin, int64_t end) {
                       float *tmp = s.base + slot * s.slot_stride;  // MR rows of K floats
                       bool fin = true;
                       for (int64_t item = begin; item < end; ++item) {
                         const int64_t g = item / panels, a0 = (item % panels) * uk.mr;
                         const int64_t rows = std::min<int64_t>(uk.mr, m - a0);
                         std::fill(tmp, tmp + uk.mr * k_total, 0.0f);
                         if (!flipped) {
                           for (int64_t r = 0; r < rows; ++r) {
                             fin &= read_row_run(w, g * m + a0 + r, 0, k_total, tmp + r * k_total);
                           }
                         } else {
                           float *taps = tmp + uk.mr * k_total;  // rows·K more floats: w[b, a0 .. a0 + rows)
                           for (int64_t b = 0; b < f.cx_per_group; ++b) {
                             fin &= read_row_run(w, g * c.cy_per_group + b, a0 * kk, rows * kk, taps);
                             for (int64_t r = 0; r < rows; ++r) {
                               for (int64_t t = 0; t < kk; ++t)
                                 tmp[r * k_total + b * kk + t] = taps[r * kk + kk - 1 - t];
                             }
                           }
                         }
                         float *group = s.shared + g * mp * k_total;
                         for (int64_t k0 = 0; k0 < k_total; k0 += kGemmKc) {
                           const int64_t kc = std::min(kGemmKc, k_total - k0);
                           float *panel = group + k0 * mp + a0 * kc;
                           for (int64_t k = 0; k < kc; ++k) {
                             for (int64_t r = 0; r < uk.mr; ++r) panel[k * uk.mr + r] = tmp[r * k_total + k0 + k];
                           }
                         }
                       }
                       if (!fin) finite.store(false, std::memory_order_relaxed);
                     });
  return finite.load();
}

}  // namespace

bool gemm_forward(const Canonical &c, bool flipped, const GemmUkernel &uk, const GemmBlocking &b, const GemmScratch &s,
                  const Rounding &rounding, const View5 &grad_input) {
  const Canonical f = flipped ? flipped_problem(c) : c;
  const OperandReader x(f.x, rounding);
  const int64_t kk = f.kernel_numel(), m = f.cy_per_group, k_total = f.cx_per_group * kk, nt_max = b.tile;
  const int64_t y_plane = f.y_size[0] * f.y_size[1] * f.y_size[2];
  const int64_t tiles = (y_plane + nt_max - 1) / nt_max;
  const int64_t mp = round_up(m, uk.mr);
  const bool finite = pack_weight_panels(c, f, flipped, uk, rounding, s);
  parallel_for_slots(b.items, s.slots, b.flops / 2, [&](int slot, int64_t begin, int64_t end) {
    float *b_pack = s.base + slot * s.slot_stride;
    float *cbuf = b_pack + nt_max * kGemmKc;
    float *tmp = cbuf + m * nt_max;
    for (int64_t item = begin; item < end; ++item) {
      const int64_t t = item % tiles, g = (item / tiles) % f.groups, n = item / (tiles * f.groups);
      const int64_t p0 = t * nt_max, nt = std::min(nt_max, y_plane - p0);
      const float *a_group = s.shared + g * mp * k_total;
      for (int64_t k0 = 0; k0 < k_total; k0 += kGemmKc) {
        const int64_t kc = std::min(kGemmKc, k_total - k0);
        const float *a_pack = a_group + k0 * mp;
        pack_panels_by_steps(uk.nr, nt, kc, tmp, b_pack, [&](int64_t k, float *out) -> const float * {
          const int64_t j = k0 + k;
          im2col_run(f, x, n, g * f.cx_per_group + j / kk, j % kk, p0, nt, out);
          return out;
        });
        run_tiles(uk, m, nt, kc, a_pack, b_pack, cbuf, nt_max, k0 > 0);
      }
      for (int64_t r = 0; r < m; ++r) {
        store_run(grad_input, n, g * m + r, p0, nt, cbuf + r * nt_max, ResultKind::kGradInput, rounding);
      }
    }
  });
  return finite;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
