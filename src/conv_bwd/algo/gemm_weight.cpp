// gradWeight as GEMMs: per group, dW (Cy_g × Cx_g·K) = Σ over K blocks (one sample's kGemmKc y positions each)
// of dy rows (A, packed by rows) times implicit im2col columns of x (B, packed by columns). The K blocks are
// cut into k_parts fixed parts; each part sums its blocks into its own fp32 partial, and the partials are added
// in part order, so the result does not depend on the thread count.
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
namespace {

int64_t part_begin(int64_t blocks, int64_t parts, int64_t p) {
  return p * (blocks / parts) + std::min(p, blocks % parts);
}

}  // namespace

bool gemm_weight(const Canonical &c, const GemmUkernel &uk, const GemmBlocking &b, const GemmScratch &s,
                 const Rounding &rounding, const View5 &grad_weight) {
  const OperandReader x(c.x, rounding), dy(c.y, rounding);
  const int64_t kk = c.kernel_numel(), m = c.cy_per_group, n_cols = c.cx_per_group * kk;
  const int64_t plane = c.y_size[0] * c.y_size[1] * c.y_size[2];
  const int64_t blocks_per_sample = (plane + kGemmKc - 1) / kGemmKc, blocks = weight_k_blocks(c);
  const int64_t nc_max = b.cols_per_item, chunks = (n_cols + nc_max - 1) / nc_max;
  const int64_t group_floats = m * n_cols;
  // partial(part, g) = shared + (part·groups + g)·group_floats, row-major Cy_g × Cx_g·K.
  std::atomic<bool> finite{true};
  parallel_for_slots(b.items, s.slots, b.flops / 2, [&](int slot, int64_t begin, int64_t end) {
    float *a_pack = s.base + slot * s.slot_stride;
    float *b_pack = a_pack + round_up(m, uk.mr) * kGemmKc;
    float *tmp = b_pack + nc_max * kGemmKc;
    bool fin = true;
    for (int64_t item = begin; item < end; ++item) {
      const int64_t chunk = item % chunks, part = (item / chunks) % b.k_parts, g = item / (chunks * b.k_parts);
      const int64_t j0 = chunk * nc_max, nc = std::min(nc_max, n_cols - j0);
      float *acc = s.shared + (part * c.groups + g) * group_floats + j0;
      for (int64_t blk = part_begin(blocks, b.k_parts, part); blk < part_begin(blocks, b.k_parts, part + 1); ++blk) {
        const int64_t n = blk / blocks_per_sample, o0 = (blk % blocks_per_sample) * kGemmKc;
        const int64_t kc = std::min(kGemmKc, plane - o0);
        pack_a_by_rows(uk.mr, m, kc, tmp, a_pack, [&](int64_t r, float *out) {
          fin &= read_plane_run(dy, n, g * c.cy_per_group + r, o0, kc, out);
        });
        pack_b_by_cols(uk.nr, nc, kc, tmp, b_pack, [&](int64_t j, float *out) {
          const int64_t col = j0 + j;
          im2col_run(c, x, n, g * c.cx_per_group + col / kk, col % kk, o0, kc, out);
        });
        run_tiles(uk, m, nc, kc, a_pack, b_pack, acc, n_cols, blk != part_begin(blocks, b.k_parts, part));
      }
    }
    if (!fin) finite.store(false, std::memory_order_relaxed);
  });
  // Partials added in part order (into part 0), then stored: one dW row per item.
  const int64_t rows = c.groups * m;
  parallel_for_slots(rows, s.slots, static_cast<double>(rows) * n_cols * b.k_parts,
                     [&](int, int64_t begin, int64_t end) {
                       for (int64_t r = begin; r < end; ++r) {
                         const int64_t g = r / m, row = r % m;
                         float *sum = s.shared + g * group_floats + row * n_cols;
                         for (int64_t part = 1; part < b.k_parts; ++part) {
                           const float *add = s.shared + (part * c.groups + g) * group_floats + row * n_cols;
                           for (int64_t j = 0; j < n_cols; ++j) sum[j] += add[j];
                         }
                         store_run(grad_weight, r, -1, 0, n_cols, sum, ResultKind::kGradWeight, rounding);
                       }
                     });
  return finite.load();
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
