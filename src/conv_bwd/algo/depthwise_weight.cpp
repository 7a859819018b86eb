// depthwise_weight: gradWeight of a depthwise convolution (Cx_g = 1, any multiplier Cy_g, any stride) by row
// kernels instead of a GEMM whose K would be one position at a time. A work item is one group. The shifted layout
// (shifted_geometry.hpp): x's padded box per stride phase, dy in q-space, and per phase one dot_taps pass over the
// plane for all of that phase's taps (kernels/rows.hpp); 2-D 3 × 3 planes at stride 1 one dot_taps_3x3 pass
// (Grid3). The padding and junk positions add products with zeros, so a non-finite result hands the output to the
// reference, as for the shifted GEMMs. The order of every sum is fixed by the loops of its item (samples, m, taps,
// positions), never by the threads.
#include <algorithm>
#include <atomic>

#include "conv_bwd/algo/depthwise_planes.hpp"
#include "conv_bwd/algo/operand_runs.hpp"
#include "conv_bwd/algo/result_runs.hpp"
#include "conv_bwd/algo/shifted_windows.hpp"
#include "conv_bwd/algorithms.hpp"
#include "conv_bwd/parallel.hpp"
#include "core/int_math.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// Whether x's phase boxes can be packed in pairs across (pack_phase_pairs): stride 2 across, and each phase some tap
// reads has its partner across read too (PhaseTaps then puts the pair in consecutive runs, even one first).
bool phase_pairs_across(const ShiftedGeometry &geo, const PhaseTaps &pt) {
  if (geo.s[2] != 2 || pt.runs % 2 != 0) return false;
  for (int64_t r = 0; r < pt.runs; r += 2) {
    if (!geo.pair_across(pt.run_phase[r]) || pt.run_phase[r + 1] != pt.run_phase[r] + 1) return false;
  }
  return true;
}

// The x boxes of the phases (pack_phase_window's layout: zeros in the padding and past the box) for stride 2 across:
// each x row read once and split into its even and odd columns (deinterleave2), instead of gathered by stride once
// per phase. `row` holds the decoded x rows of one row phase for operands not read in place. Writes only the positions
// inside x, the same for every channel and sample: the caller zeroes the boxes once per run of items (zero_boxes), so
// the padding rows and columns and the tail past the box stay zero (four short fills per x row were a tenth of the
// stride-2 depthwise call).
void pack_phase_pairs(const RowKernels &k, const ShiftedGeometry &geo, const PhaseTaps &pt, const OperandReader &x,
                      int64_t n, int64_t channel, int64_t box, float *xs, float *row) {
  const View5 &v = x.view();
  const int64_t xd_n = v.shape[2], xh_n = v.shape[3], xw_n = v.shape[4], u = geo.u_min[2], wp = geo.wp;
  // Box columns z of phase a read x column (z + u)·2 + a: inside x for z in [lo[a], end[a]); both in [zc, ze).
  int64_t lo[2], end[2];
  for (int a = 0; a < 2; ++a) {
    lo[a] = std::min(std::max<int64_t>(ceil_div(-a, 2) - u, 0), wp);
    end[a] = std::max(lo[a], std::min(floor_div(xw_n - 1 - a, 2) - u + 1, wp));
  }
  const int64_t zc = std::max(lo[0], lo[1]), ze = std::min(end[0], end[1]);
  for (int64_t r = 0; r < pt.runs; r += 2) {
    const int64_t p = pt.run_phase[r], a_d = geo.coordinate(0, p), a_h = geo.coordinate(1, p);
    float *half[2] = {xs + r * box, xs + (r + 1) * box};
    // The box rows zh in [zh0, zh1) read x rows inside x, s[1] apart: all of them at once.
    const int64_t zh0 = std::min(std::max<int64_t>(ceil_div(-a_h, geo.s[1]) - geo.u_min[1], 0), geo.hp);
    const int64_t zh1 = std::max(zh0, std::min(floor_div(xh_n - 1 - a_h, geo.s[1]) - geo.u_min[1] + 1, geo.hp));
    const int64_t rows = zh1 - zh0;
    for (int64_t zd = 0; zd < geo.dp && rows > 0; ++zd) {
      const int64_t at = (zd * geo.hp + zh0) * wp, xd = geo.x_at(0, zd, a_d);
      if (xd < 0 || xd >= xd_n) continue;
      const int64_t index = v.index(n, channel, xd, geo.x_at(1, zh0, a_h), 0);
      const float *src = row;
      int64_t lds = xw_n;
      if (fp32_rows(x)) {
        src = static_cast<const float *>(v.data) + index;
        lds = geo.s[1] * v.strides[3];
      } else {
        read_rows(k, x, index, rows, xw_n, row, xw_n, geo.s[1]);  // BF16 widened by the row kernel, others decoded
      }
      if (ze > zc) k.deinterleave2(src + 2 * (zc + u), lds, rows, ze - zc, half[0] + at + zc, half[1] + at + zc, wp);
      for (int64_t i = 0; i < rows; ++i) {
        for (int a = 0; a < 2; ++a) {
          float *dst = half[a] + at + i * wp;
          const float *from = src + i * lds;
          for (int64_t z = lo[a]; z < std::min(zc, end[a]); ++z) dst[z] = from[(z + u) * 2 + a];
          for (int64_t z = std::max(ze, lo[a]); z < end[a]; ++z) dst[z] = from[(z + u) * 2 + a];
        }
      }
    }
    for (float *h : half) x.finish(h, box);
  }
}

// A group's multiply-adds over its q-space: the parallel loop's cost, and its item's in the work (work.hpp).
double depthwise_weight_group_cost(const Canonical &c) {
  const ShiftedGeometry geo(c);
  return static_cast<double>(c.batch) * c.cy_per_group * geo.q_len * c.kernel_numel();
}

// Per sample, x's padded box of each phase a tap reads; per dy plane, its q-space copy (zeros at the junk positions
// and up to a whole vector); then one dot_taps pass over the plane per phase for all of that phase's taps (16 lanes
// per tap). Stride 1 is one phase. False when a sum is not finite (the padding and junk positions add products with
// zeros).
bool depthwise_weight_shifted(const Canonical &c, const RowKernels &k, const GemmScratch &s, const Rounding &rounding,
                              const View5 &grad_weight) {
  const OperandReader x(c.x, rounding), dy(c.y, rounding);
  const ShiftedGeometry geo(c);
  const int64_t m_n = c.cy_per_group, kk = c.kernel_numel(), used = geo.phases;
  const int64_t q_len = round_up(geo.q_len, kTapLanes), box = q_len + geo.max_shift;
  const double cost = depthwise_weight_group_cost(c);
  const Grid3 grid = grid_3x3(c, geo);
  std::atomic<bool> finite{true};
  parallel_for_slots(c.groups, s.slots, cost * c.groups, [&](int slot, int64_t begin, int64_t end) {
    float *xs = s.base + slot * s.slot_stride, *ys = xs + used * box, *lanes = ys + q_space_floats(geo, q_len);
    float *row = lanes + m_n * kk * kTapLanes;
    PhaseTaps pt;
    pt.init(c, geo);
    const bool pairs = phase_pairs_across(geo, pt);
    zero_boxes(xs, used * box + q_space_floats(geo, q_len));
    for (int64_t g = begin; g < end; ++g) {
      std::fill(lanes, lanes + m_n * kk * kTapLanes, 0.0f);
      for (int64_t n = 0; n < c.batch; ++n) {
        if (geo.unit()) {
          pack_box(k, c, geo, x, n, g, box, xs);
        } else if (pairs) {
          pack_phase_pairs(k, geo, pt, x, n, g, box, xs, row);
        } else {
          for (int64_t r = 0; r < pt.runs; ++r)
            pack_phase_window(c, geo, x, n, g, pt.run_phase[r], 0, box, xs + r * box);
        }
        for (int64_t m = 0; m < m_n; ++m) {
          pack_q_space(k, geo, dy, n, g * m_n + m, ys);
          float *acc = lanes + m * kk * kTapLanes;
          for (int64_t r = 0; r < pt.runs; ++r) {
            const int64_t j = pt.run_begin[r];
            grid_or_flat_dot_taps(k, grid, ys, xs + r * box, pt.shift + j, pt.run_begin[r + 1] - j, q_len,
                                  acc + j * kTapLanes);
          }
        }
      }
      if (!store_lanes(c, g, lanes, pt.order, rounding, grad_weight)) {
        finite.store(false, std::memory_order_relaxed);
      }
    }
  });
  return finite.load();
}

}  // namespace

bool depthwise_weight(const Canonical &c, const RowKernels &k, const GemmScratch &s, const Rounding &rounding,
                      const View5 &grad_weight) {
  return depthwise_weight_shifted(c, k, s, rounding, grad_weight);
}

DirectBlocking depthwise_weight_blocking(const Canonical &c, const GemmKernels &, int) {
  const int64_t kk = c.kernel_numel(), m = c.cy_per_group;
  // x's box per phase read + dy's q-space (both to whole vectors) + the lanes of every (dy channel, tap).
  const ShiftedGeometry geo(c);
  const int64_t q_len = round_up(geo.q_len, kTapLanes);
  int64_t slot_floats = q_space_floats(geo, q_len) + geo.phases * (q_len + geo.max_shift) + m * kk * kTapLanes;
  PhaseTaps pt;
  pt.init(c, geo);
  if (!geo.unit() && phase_pairs_across(geo, pt)) {  // the decoded x rows of one row phase
    slot_floats += (c.x_size[1] + c.stride[1] - 1) / c.stride[1] * c.x_size[2];
  }
  return direct_blocking(c, slot_floats);
}

std::string depthwise_weight_refusal(const Canonical &c) {
  std::string why = direct_refusal(c, false);
  if (why.empty()) why = phase_refusal(c, false);
  return why;
}

bool depthwise_weight_run(const Canonical &c, const GemmKernels &k, const DirectBlocking &, const GemmScratch &s,
                          const Rounding &rounding) {
  return depthwise_weight(c, *k.rows, s, rounding, c.grad_weight);
}

std::string depthwise_weight_kernel(const GemmKernels &k, const DirectBlocking &) { return direct_kernel(k); }

Work depthwise_weight_work(const Canonical &c, const GemmKernels &, const DirectBlocking &, const Rounding &,
                           int slots) {
  const double cost = depthwise_weight_group_cost(c);
  return {uniform_phase("groups", LoopKind::kSlots, c.groups, slots, cost * c.groups, cost)};
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
