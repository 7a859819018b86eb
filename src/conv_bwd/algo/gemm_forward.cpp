// gradInput of a transposed convolution: the forward relation, y tile (Cy_g × positions) = w rows (packed by
// rows) · implicit im2col of x := gradOutput (packed by K = (x channel, tap) rows).
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

bool gemm_forward(const Canonical &c, const GemmUkernel &uk, const GemmBlocking &b, const GemmScratch &s,
                  const Rounding &rounding, const View5 &grad_input) {
  const OperandReader w(c.w, rounding, true), x(c.x, rounding);
  const int64_t kk = c.kernel_numel(), m = c.cy_per_group, k_total = c.cx_per_group * kk, nt_max = b.tile;
  const int64_t y_plane = c.y_size[0] * c.y_size[1] * c.y_size[2];
  const int64_t tiles = (y_plane + nt_max - 1) / nt_max;
  std::atomic<bool> finite{true};
  parallel_for_slots(b.items, s.slots, b.flops / 2, [&](int slot, int64_t begin, int64_t end) {
    float *a_pack = s.base + slot * s.slot_stride;
    float *b_pack = a_pack + round_up(m, uk.mr) * kGemmKc;
    float *cbuf = b_pack + nt_max * kGemmKc;
    float *tmp = cbuf + m * nt_max;
    for (int64_t item = begin; item < end; ++item) {
      const int64_t t = item % tiles, g = (item / tiles) % c.groups, n = item / (tiles * c.groups);
      const int64_t p0 = t * nt_max, nt = std::min(nt_max, y_plane - p0);
      bool fin = true;
      for (int64_t k0 = 0; k0 < k_total; k0 += kGemmKc) {
        const int64_t kc = std::min(kGemmKc, k_total - k0);
        pack_a_by_rows(uk.mr, m, kc, tmp, a_pack, [&](int64_t r, float *out) {
          fin &= read_row_run(w, g * c.cy_per_group + r, k0, kc, out);
        });
        pack_b_by_ks(uk.nr, nt, kc, tmp, b_pack, [&](int64_t k, float *out) {
          const int64_t j = k0 + k;
          im2col_run(c, x, n, g * c.cx_per_group + j / kk, j % kk, p0, nt, out);
        });
        run_tiles(uk, m, nt, kc, a_pack, b_pack, cbuf, nt_max, k0 > 0);
      }
      if (!fin) finite.store(false, std::memory_order_relaxed);
      for (int64_t r = 0; r < m; ++r) {
        store_run(grad_input, n, g * c.cy_per_group + r, p0, nt, cbuf + r * nt_max, ResultKind::kGradInput, rounding);
      }
    }
  });
  return finite.load();
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
