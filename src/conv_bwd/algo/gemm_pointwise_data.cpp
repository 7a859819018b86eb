// gradInput of a pointwise convolution (1×1 kernel, stride 1, no padding) on small planes, transposed:
// dxᵀ (positions × x channels) = dyᵀ (positions × y channels) · w (y channels × x channels), per group. The positions
// of every sample are one long M dimension (a tile may span samples), the x channels the kernel's vector dimension.
// gemm_backward_data vectorises over a sample's positions instead: a 7² plane is a 32-wide tile and a 17-wide
// remainder, and every sample packs the whole weight again.
//
// The weight is packed once for all items, as B panels of NR x channels over all of K (rounded on the way). An item
// is (group, chunk of positions, chunk of x channels): per K block it packs its positions' dy values as A panels, runs
// the kernel into its dxᵀ tile (the slot), and at the end stores the tile's columns into gradInput's planes.
// Sums: the K blocks of kGemmKc in ascending order, each block's sum added to the element once: gemm_backward_data's
// order, so the bits are its bits. No padding, so no products other than the defining ones: the result is exact.
#include <algorithm>

#include "conv_bwd/algo/gemm_algorithms.hpp"
#include "conv_bwd/algo/operand_runs.hpp"
#include "conv_bwd/algo/packing.hpp"
#include "conv_bwd/algo/result_runs.hpp"
#include "conv_bwd/algorithms.hpp"
#include "conv_bwd/parallel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// Group g's weight as B panels: panel j holds x channels [j·NR, j·NR + NR) over all Cy_g steps (step k's NR floats
// at k·NR), at g·panels·NR·Cy_g + j·NR·Cy_g.
void pack_weight(const Canonical &c, const GemmUkernel &uk, const OperandReader &w, int64_t g, int64_t j, float *panel,
                 float *tmp) {
  const int64_t x0 = j * uk.nr, lines = std::min<int64_t>(uk.nr, c.cx_per_group - x0);
  pack_row_panels(w, uk.nr, g * c.cy_per_group, c.cy_per_group, x0, lines, tmp, panel);
}

class PointwiseData {
 public:
  PointwiseData(const Canonical &c, const GemmUkernel &uk, const PointwiseBlocking &b, const Rounding &rounding,
                const float *weight)
      : c_(c),
        uk_(uk),
        b_(b),
        rounding_(rounding),
        dy_(c.y, rounding),
        plane_(c.y_plane()),
        panels_(ceil_div(c.cx_per_group, uk.nr)),
        weight_(weight) {}

  // Item = (group, chunk of positions, chunk of x channels), the channels innermost.
  void run(int64_t item, float *slot) const {
    const int64_t chunks = ceil_div(c_.cx_per_group, b_.channels_per_item);
    const int64_t g = item / (chunks * ceil_div(c_.batch * plane_, b_.positions_per_item));
    const int64_t t0 = item / chunks % ceil_div(c_.batch * plane_, b_.positions_per_item) * b_.positions_per_item;
    const int64_t x0 = item % chunks * b_.channels_per_item;
    const int64_t m = std::min(b_.positions_per_item, c_.batch * plane_ - t0);
    const int64_t n = std::min(b_.channels_per_item, c_.cx_per_group - x0);
    float *a = slot, *tile = a + round_up(b_.positions_per_item, uk_.mr) * kGemmKc;
    float *tmp = tile + b_.positions_per_item * b_.channels_per_item;
    const int64_t ldt = b_.channels_per_item;
    for (int64_t k0 = 0; k0 < c_.cy_per_group; k0 += kGemmKc) {
      const int64_t kc = std::min(kGemmKc, c_.cy_per_group - k0);
      pack_dy(g, t0, m, k0, kc, a, tmp);
      for (int64_t j = 0; j < n; j += uk_.nr) {
        const int nn = static_cast<int>(std::min<int64_t>(uk_.nr, n - j));
        const float *bj = weight_ + ((g * panels_ + (x0 + j) / uk_.nr) * c_.cy_per_group + k0) * uk_.nr;
        for (int64_t i = 0; i < m; i += uk_.mr) {
          const int mm = static_cast<int>(std::min<int64_t>(uk_.mr, m - i));
          uk_.run(kc, a + i * kc, bj, uk_.nr, tile + i * ldt + j, ldt, mm, nn, k0 > 0);
        }
      }
    }
    store(g, t0, m, x0, n, tile, ldt, tmp);
  }

 private:
  // A panels of positions [t0, t0 + m) (flat over the samples) at K steps [k0, k0 + kc): step k holds dy channel
  // g·Cy_g + k0 + k at those positions.
  void pack_dy(int64_t g, int64_t t0, int64_t m, int64_t k0, int64_t kc, float *a, float *tmp) const {
    const int64_t n0 = t0 / plane_, p0 = t0 % plane_;
    const bool one_sample = p0 + m <= plane_;
    pack_panels_by_steps(uk_.mr, m, kc, tmp, a, [&](int64_t k, float *out) -> const float * {
      const int64_t channel = g * c_.cy_per_group + k0 + k;
      if (one_sample) {
        if (const float *direct = plain_plane_run(dy_, n0, channel, p0)) return direct;
      }
      for (int64_t done = 0; done < m;) {  // sample by sample
        const int64_t t = t0 + done, len = std::min(m - done, plane_ - t % plane_);
        read_plane_run(dy_, t / plane_, channel, t % plane_, len, out + done);
        done += len;
      }
      return out;
    });
  }

  // The tile's columns into gradInput's planes sample by sample, kPackStepBlock x channels at a time: gathered row by
  // row into `columns` (kPackStepBlock × m floats), so the tile is read a row's run at a time, not a float per row
  // (column by column, the gather took a 1 × 1 layer at 14² longer than its products).
  void store(int64_t g, int64_t t0, int64_t m, int64_t x0, int64_t n, const float *tile, int64_t ldt,
             float *columns) const {
    for (int64_t ch0 = 0; ch0 < n; ch0 += kPackStepBlock) {
      const int64_t w = std::min<int64_t>(kPackStepBlock, n - ch0);
      for (int64_t i = 0; i < m; ++i) {
        const float *row = tile + i * ldt + ch0;
        for (int64_t j = 0; j < w; ++j) columns[j * m + i] = row[j];
      }
      for (int64_t j = 0; j < w; ++j) {
        for (int64_t done = 0; done < m;) {
          const int64_t t = t0 + done, len = std::min(m - done, plane_ - t % plane_);
          store_run(c_.grad_input, t / plane_, g * c_.cx_per_group + x0 + ch0 + j, t % plane_, len,
                    columns + j * m + done, ResultKind::kGradInput, rounding_);
          done += len;
        }
      }
    }
  }

  const Canonical &c_;
  const GemmUkernel &uk_;
  const PointwiseBlocking &b_;
  const Rounding &rounding_;
  const OperandReader dy_;
  const int64_t plane_, panels_;
  const float *weight_;
};

}  // namespace

std::string gemm_pointwise_data_refusal(const Canonical &c) {
  std::string why = call_kind_refusal(c, false);
  if (!why.empty()) return why;
  if (!positions_one_to_one(c)) return "not pointwise: needs a 1x1 kernel at stride 1 without padding";
  // gemm_backward_data's BF16 pair kernels beat this algorithm's fp32 kernel on BF16 calls (AVX512-BF16, one thread,
  // mini-batch 8, 7²: 512 -> 2048 channels 4.5 against 5.8-6.5 ms, 2048 -> 512 3.6-3.9 against 6.3-8.4).
  if (c.compute == ComputeType::kBf16) return "BF16 compute: gemm_backward_data's pair kernels";
  if (c.y_plane() >= kPointwiseMaxPlane) {
    return "planes of " + std::to_string(c.y_plane()) + " positions (" + std::to_string(kPointwiseMaxPlane) +
           " or more fill gemm_backward_data's position tiles)";
  }
  return "";
}

bool gemm_pointwise_data_run(const Canonical &c, const GemmKernels &k, const PointwiseBlocking &b, const GemmScratch &s,
                             const Rounding &rounding) {
  const GemmUkernel &uk = *k.nn;
  const OperandReader w(c.w, rounding);
  const int64_t panels = ceil_div(c.cx_per_group, uk.nr);
  // The weight's panels first, in one parallel pass (each slot's start as the packing's tmp).
  parallel_for_slots(c.groups * panels, s.slots, static_cast<double>(c.groups) * c.cy_per_group * c.cx_per_group,
                     [&](int slot, int64_t begin, int64_t end) {
                       for (int64_t u = begin; u < end; ++u) {
                         pack_weight(c, uk, w, u / panels, u % panels, s.shared + u * uk.nr * c.cy_per_group,
                                     s.base + slot * s.slot_stride);
                       }
                     });
  const PointwiseData gemm(c, uk, b, rounding, s.shared);
  parallel_for_slots(b.items, s.slots, b.flops / 2, [&](int slot, int64_t begin, int64_t end) {
    for (int64_t item = begin; item < end; ++item) gemm.run(item, s.base + slot * s.slot_stride);
  });
  return true;
}

std::string gemm_pointwise_data_kernel(const GemmKernels &k, const PointwiseBlocking &) { return k.nn->name; }

Work gemm_pointwise_data_work(const Canonical &c, const GemmKernels &k, const PointwiseBlocking &b, const Rounding &,
                              int slots) {
  const GemmUkernel &uk = *k.nn;
  const double move = move_cost(uk.isa);
  const int64_t panels = ceil_div(c.cx_per_group, uk.nr), cy = c.cy_per_group;
  Work work;
  work.push_back(uniform_phase("pack_weight", LoopKind::kSlots, c.groups * panels, slots,
                               static_cast<double>(c.groups) * cy * c.cx_per_group, move * uk.nr * cy));
  // Items as PointwiseData::run cuts them: (group, position chunk, channel chunk), channels innermost.
  const int64_t chunks = ceil_div(c.cx_per_group, b.channels_per_item);
  const int64_t flat = c.batch * c.y_plane(), position_chunks = ceil_div(flat, b.positions_per_item);
  WorkPhase items = uniform_phase("items", LoopKind::kSlots, b.items, slots, b.flops / 2, 0);
  for (int64_t item = 0; item < b.items; ++item) {
    const int64_t t0 = item / chunks % position_chunks * b.positions_per_item, x0 = item % chunks * b.channels_per_item;
    const int64_t m = std::min(b.positions_per_item, flat - t0), n = std::min(b.channels_per_item, c.cx_per_group - x0);
    const double macs = static_cast<double>(round_up(m, uk.mr)) * round_up(n, uk.nr) * cy;
    items.cost.push_back(macs + move * static_cast<double>(m * cy + m * n));  // dy packed, the tile stored
  }
  work.push_back(std::move(items));
  return work;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
