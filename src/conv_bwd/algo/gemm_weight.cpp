// gradWeight as GEMMs: per group, dW (Cy_g × Cx_g·K) = Σ over n and K blocks of y positions of
// dy rows (A, packed by rows) times implicit im2col columns of x (B, packed by columns).
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

bool gemm_weight(const Canonical &c, const GemmUkernel &uk, const GemmBlocking &b, const GemmScratch &s,
                 const Rounding &rounding, const View5 &grad_weight) {
  const OperandReader x(c.x, rounding), dy(c.y, rounding);
  const int64_t kk = c.kernel_numel(), m = c.cy_per_group, n_cols = c.cx_per_group * kk;
  const int64_t plane = c.y_size[0] * c.y_size[1] * c.y_size[2];
  const int64_t nc_max = b.cols_per_item, items_per_group = b.items / c.groups;
  std::atomic<bool> finite{true};
  parallel_for_slots(b.items, s.slots, b.flops / 2, [&](int slot, int64_t begin, int64_t end) {
    float *a_pack = s.base + slot * s.slot_stride;
    float *b_pack = a_pack + round_up(m, uk.mr) * kGemmKc;
    float *acc = b_pack + nc_max * kGemmKc;
    float *tmp = acc + m * nc_max;
    for (int64_t item = begin; item < end; ++item) {
      const int64_t g = item / items_per_group, j0 = (item % items_per_group) * nc_max;
      const int64_t nc = std::min(nc_max, n_cols - j0);
      bool fin = true, first = true;
      for (int64_t n = 0; n < c.batch; ++n) {
        for (int64_t o0 = 0; o0 < plane; o0 += kGemmKc) {
          const int64_t kc = std::min(kGemmKc, plane - o0);
          pack_a_by_rows(uk.mr, m, kc, tmp, a_pack, [&](int64_t r, float *out) {
            fin &= read_plane_run(dy, n, g * c.cy_per_group + r, o0, kc, out);
          });
          pack_b_by_cols(uk.nr, nc, kc, tmp, b_pack, [&](int64_t j, float *out) {
            const int64_t col = j0 + j;
            im2col_run(c, x, n, g * c.cx_per_group + col / kk, col % kk, o0, kc, out);
          });
          run_tiles(uk, m, nc, kc, a_pack, b_pack, acc, nc_max, !first);
          first = false;
        }
      }
      if (!fin) finite.store(false, std::memory_order_relaxed);
      for (int64_t r = 0; r < m; ++r) {
        store_run(grad_weight, g * c.cy_per_group + r, -1, j0, nc, acc + r * nc_max, ResultKind::kGradWeight,
                  rounding);
      }
    }
  });
  return finite.load();
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
