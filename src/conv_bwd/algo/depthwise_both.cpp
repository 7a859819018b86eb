// depthwise_both: both gradients of a stride-1 depthwise call in one pass over its planes (each dy channel read
// once), when depthwise_fused_refusal is "". It must give the bits of depthwise_weight then direct_data (the plan may
// choose either way, and ACLNN_CPU_ALGO=-depthwise_both skips it), so it runs their packing and storing steps
// (depthwise_planes.hpp) and the same kernels in the same order; only the buffers are shared.
#include <algorithm>
#include <atomic>

#include "conv_bwd/algo/depthwise_planes.hpp"
#include "conv_bwd/algo/grad_bias.hpp"
#include "conv_bwd/algo/operand_runs.hpp"
#include "conv_bwd/algo/result_runs.hpp"
#include "conv_bwd/algo/shifted_windows.hpp"
#include "conv_bwd/algorithms.hpp"
#include "conv_bwd/parallel.hpp"
#include "core/int_math.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// Both gradients of a stride-1 depthwise call whose planes keep their size (pads adding up to each dim's kernel
// reach): gradWeight's q-space of a dy channel is then gradInput's padded box of it (the flipped problem's) moved
// by the flipped leading pads, with the same row pitch; so one buffer per dy channel holds both, each channel is
// read once, and the x box, the dy boxes and the dx plane of a group stay in L1/L2 between the two.
struct FusedLayout {
  ShiftedGeometry geo, fgeo;  // gradWeight's (x box, dy in q-space), gradInput's (dy box, dx in q-space)
  int64_t wq, x_box;          // gradWeight's q-space (whole vectors) and the x box it reads
  int64_t dq;                 // gradInput's q-space (whole blocks)
  int64_t lead;               // where dy's q-space starts in its buffer (the flipped problem's leading pads)
  int64_t y_buf;              // floats per dy channel buffer: the q-space after `lead`, and gradInput's box

  explicit FusedLayout(const Canonical &c) : geo(c), fgeo(flipped_problem(c)) {
    const Canonical f = flipped_problem(c);
    wq = round_up(geo.q_len, kTapLanes);
    x_box = wq + geo.max_shift;
    dq = round_up(fgeo.q_len, kDirectBlock);
    lead = (f.pad_begin[0] * geo.hp + f.pad_begin[1]) * geo.wp + f.pad_begin[2];
    y_buf = std::max(lead + q_space_floats(geo, wq), dq + fgeo.max_shift);
  }

  int64_t slot_floats(const Canonical &c) const {
    const int64_t m_n = c.cy_per_group, kk = c.kernel_numel();
    return x_box + m_n * y_buf + m_n * kk * kTapLanes + dq + 2 * m_n * kk;
  }
};

// A group's multiply-adds, both outputs': the parallel loop's cost, and its item's in the work (work.hpp).
double depthwise_both_group_cost(const Canonical &c) {
  return 2.0 * static_cast<double>(c.batch) * c.cy_per_group * c.kernel_numel() * ShiftedGeometry(c).q_len;
}

// Lanes and x box as depthwise_weight_shifted, dy and dx as direct_data_shifted (the same sums, in the same order:
// the same bits as the two passes).
DepthwiseFinite depthwise_both_fused(const Canonical &c, const RowKernels &k, const GemmScratch &s,
                                     const Rounding &rounding, const View5 &grad_input, const View5 &grad_weight,
                                     float *bias_sums) {
  const Canonical f = flipped_problem(c);
  const FusedLayout L(c);
  const OperandReader x(c.x, rounding), dy(c.y, rounding), w(c.w, rounding);
  const int64_t m_n = c.cy_per_group, kk = c.kernel_numel(), terms = m_n * kk;
  const int64_t od_n = c.x_size[0], oh_n = c.x_size[1], ow_n = c.x_size[2];
  const bool plain_out = planes_stored_as_is(grad_input, rounding);
  const double cost = depthwise_both_group_cost(c);
  const Grid3 grid_w = grid_3x3(c, L.geo), grid_in = grid_3x3(f, L.fgeo);
  std::atomic<bool> input_finite{true}, weight_finite{true};
  parallel_for_slots(c.groups, s.slots, cost * c.groups, [&](int slot, int64_t begin, int64_t end) {
    float *xs = s.base + slot * s.slot_stride, *ys = xs + L.x_box, *lanes = ys + m_n * L.y_buf;
    float *dx = lanes + terms * kTapLanes, *taps = dx + L.dq, *w_rows = taps + terms;
    PhaseTaps pt;  // stride 1: one run, every tap
    pt.init(c, L.geo);
    int64_t shifts[kMaxDwTaps];
    for (int64_t m = 0; m < m_n; ++m) {
      for (int64_t t = 0; t < kk; ++t) shifts[m * kk + t] = m * L.y_buf + L.fgeo.shift(f, t);
    }
    // The parts of each dy buffer outside its q-space stay zero too: gradInput's box reads them as padding.
    zero_boxes(xs, L.x_box + m_n * L.y_buf);
    bool in_fin = true, w_fin = true;
    BiasSum bias[kMaxDwMultiplier];
    for (int64_t g = begin; g < end; ++g) {
      std::fill(bias, bias + m_n, BiasSum(k.isa));
      std::fill(lanes, lanes + terms * kTapLanes, 0.0f);
      for (int64_t m = 0; m < m_n; ++m) read_row_run(w, g * m_n + m, 0, kk, w_rows + m * kk);
      for (int64_t m = 0; m < m_n; ++m) {  // the flipped relation reads the taps reversed
        for (int64_t t = 0; t < kk; ++t) taps[m * kk + t] = w_rows[m * kk + kk - 1 - t];
      }
      for (int64_t n = 0; n < c.batch; ++n) {
        pack_box(k, c, L.geo, x, n, g, L.x_box, xs);
        for (int64_t m = 0; m < m_n; ++m) {
          float *q = ys + m * L.y_buf + L.lead;
          pack_q_space(k, L.geo, dy, n, g * m_n + m, q);
          if (bias_sums != nullptr) bias[m].add_plane(c.grad_output, n, g * m_n + m);  // the plane just read
          grid_or_flat_dot_taps(k, grid_w, q, xs, pt.shift, kk, L.wq, lanes + m * kk * kTapLanes);
        }
        grid_or_flat_taps(k, grid_in, ys, shifts, taps, terms, L.dq, dx);
        if (plain_out) {
          float *plane = static_cast<float *>(grad_input.data) + grad_input.index(n, g, 0, 0, 0);
          for (int64_t od = 0; od < od_n; ++od) {
            in_fin &=
                k.copy_rows(dx + od * L.fgeo.hp * L.fgeo.wp, L.fgeo.wp, oh_n, ow_n, plane + od * oh_n * ow_n, ow_n);
          }
          continue;
        }
        in_fin &= store_q_plane(k, L.fgeo, c.x_size, dx, grad_input, n, g, rounding);
      }
      w_fin &= store_lanes(c, g, lanes, pt.order, rounding, grad_weight);
      if (bias_sums != nullptr) {
        for (int64_t m = 0; m < m_n; ++m) bias_sums[g * m_n + m] = bias[m].result(rounding);
      }
    }
    if (!in_fin) input_finite.store(false, std::memory_order_relaxed);
    if (!w_fin) weight_finite.store(false, std::memory_order_relaxed);
  });
  return DepthwiseFinite{input_finite.load(), weight_finite.load()};
}

}  // namespace

std::string depthwise_fused_refusal(const Canonical &c) {
  if (c.cx_per_group != 1) return "not depthwise: " + std::to_string(c.cx_per_group) + " x channels per group";
  if (!unit_stride(c)) return "stride is not 1";
  for (int d = 0; d < kSpatial; ++d) {
    if (c.x_size[d] != c.y_size[d]) {
      return "the planes change size (pads not adding up to the kernel's reach): no shared dy buffer";
    }
  }
  return "";
}

int64_t depthwise_fused_floats(const Canonical &c) { return FusedLayout(c).slot_floats(c); }

DepthwiseFinite depthwise_both(const Canonical &c, const RowKernels &k, const GemmScratch &s, const Rounding &rounding,
                               const View5 &grad_input, const View5 &grad_weight, float *bias_sums) {
  return depthwise_both_fused(c, k, s, rounding, grad_input, grad_weight, bias_sums);
}

Work depthwise_both_work(const Canonical &c, int slots) {
  const double cost = depthwise_both_group_cost(c);
  return {uniform_phase("groups", LoopKind::kSlots, c.groups, slots, cost * c.groups, cost)};
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
