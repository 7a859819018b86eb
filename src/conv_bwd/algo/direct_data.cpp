// direct_data: gradInput of a convolution by row kernels on rounded planes, instead of GEMMs whose K or M would be
// small (Cx_g = 1 at any stride; at stride 1 up to kMaxDirectChannels channels per group, depthwise.hpp). A work item
// is one group; its planes are rounded into the slot once per sample.
//   stride 1: the flipped forward relation in the shifted layout, one `taps` call per plane (taps_3x3 for a 2-D
//     3 × 3 plane: the same bits), or one taps_channels call for the group's x channels;
//   other strides: per stride phase of x a stride-1 correlation of dy with that phase's taps, all phases reading one
//     padded box of dy (one `taps` call per phase), then the phase planes woven into dx rows.
// The padding positions add products with zeros, so a non-finite result hands the output to the reference. The
// order of every sum is fixed by the loops of its item (samples, taps, positions), never by the threads.
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

double direct_data_group_cost(const Canonical &c);

// Stride 1: the flipped forward relation (gemm_forward.cpp) in the shifted layout, for Cx_g ≥ 1: per sample the
// padded boxes of the group's Cy_g dy channels, then one `taps_channels` call for its x channels (each x channel's
// Cy_g·K terms are (dy channel, reversed tap) pairs: a shift into those boxes and a weight; the channels share the
// box loads). False when a result is not finite.
bool direct_data_shifted(const Canonical &c, const RowKernels &k, const GemmScratch &s, const Rounding &rounding,
                         const View5 &grad_input) {
  const Canonical f = flipped_problem(c);
  const OperandReader w(c.w, rounding), dy(f.x, rounding);
  const ShiftedGeometry geo(f);
  const int64_t cx_n = c.cx_per_group, m_n = c.cy_per_group, kk = c.kernel_numel(), terms = m_n * kk;
  // q-space rounded up to whole vectors of 16 (the positions past q_len are junk, never stored), and boxes as long
  // as that reach needs.
  const int64_t q_len = round_up(geo.q_len, kDirectBlock), box = q_len + geo.max_shift;
  const int64_t od_n = f.y_size[0], oh_n = f.y_size[1], ow_n = f.y_size[2];
  // A dense FP32 plane that keeps the accumulators' bits is written by whole rows (the common case).
  const bool plain_out = planes_stored_as_is(grad_input, rounding);
  const Grid3 grid = grid_3x3(f, geo);
  const double cost = direct_data_group_cost(c);
  std::atomic<bool> finite{true};
  parallel_for_slots(c.groups, s.slots, cost * c.groups, [&](int slot, int64_t begin, int64_t end) {
    float *dx = s.base + slot * s.slot_stride, *boxes = dx + cx_n * q_len, *taps = boxes + m_n * box;
    float *w_row = taps + cx_n * terms;
    zero_boxes(boxes, m_n * box);
    int64_t shifts[kMaxDwTaps];
    for (int64_t m = 0; m < m_n; ++m) {
      for (int64_t t = 0; t < kk; ++t) shifts[m * kk + t] = m * box + geo.shift(f, t);
    }
    bool fin = true;
    for (int64_t g = begin; g < end; ++g) {
      // taps[cx][m·K + t] = w[g·Cy_g + m, cx, K − 1 − t]: the flipped relation reads the taps reversed.
      for (int64_t m = 0; m < m_n; ++m) {
        read_row_run(w, g * m_n + m, 0, cx_n * kk, w_row);
        for (int64_t cx = 0; cx < cx_n; ++cx) {
          for (int64_t t = 0; t < kk; ++t) taps[cx * terms + m * kk + t] = w_row[cx * kk + kk - 1 - t];
        }
      }
      for (int64_t n = 0; n < c.batch; ++n) {
        for (int64_t m = 0; m < m_n; ++m) pack_box(k, f, geo, dy, n, g * m_n + m, box, boxes + m * box);
        if (cx_n == 1) {
          grid_or_flat_taps(k, grid, boxes, shifts, taps, terms, q_len, dx);
        } else {
          k.taps_channels(boxes, shifts, taps, terms, terms, q_len, dx, q_len, cx_n);
        }
        for (int64_t cx = 0; cx < cx_n; ++cx) {
          const int64_t channel = g * cx_n + cx;
          float *q = dx + cx * q_len;
          if (plain_out) {
            // One copy_rows per depth straight into the plane, the finite scan fused in.
            float *plane = static_cast<float *>(grad_input.data) + grad_input.index(n, channel, 0, 0, 0);
            for (int64_t od = 0; od < od_n; ++od) {
              fin &= k.copy_rows(q + od * geo.hp * geo.wp, geo.wp, oh_n, ow_n, plane + od * oh_n * ow_n, ow_n);
            }
            continue;
          }
          fin &= store_q_plane(k, geo, f.y_size, q, grad_input, n, channel, rounding);
        }
      }
    }
    if (!fin) finite.store(false, std::memory_order_relaxed);
  });
  return finite.load();
}

// Stride above 1, seen from dx: x position z·s + a (per dim) receives the taps with k·dil − pb = u·s + a, from
// dy[z − u], so dx restricted to phase a is a stride-1 correlation of dy with that phase's taps. Every phase reads
// one box of dy, box[b] = dy[b − u_hi] per dim (u_hi: the last tap's u), tap k at shift u_hi − u_k; the phase planes
// are in the q-space of that box over Z = ⌈X / s⌉ positions per dim (the longest phase). This is the stride-1
// geometry of the problem below: dy as x, kernel u_hi − u_lo + 1, dilation 1, leading pad u_hi.
Canonical phase_problem(const Canonical &c) {
  Canonical f = flipped_problem(c);
  for (int d = 0; d < kSpatial; ++d) {
    const int64_t u_lo = floor_div(-c.pad_begin[d], c.stride[d]);
    const int64_t u_hi = floor_div((c.kernel[d] - 1) * c.dilation[d] - c.pad_begin[d], c.stride[d]);
    f.y_size[d] = ceil_div(c.x_size[d], c.stride[d]);
    f.kernel[d] = u_hi - u_lo + 1;
    f.dilation[d] = 1;
    f.pad_begin[d] = u_hi;
  }
  return f;
}

// A group's multiply-adds, as the row kernels run them (stride 1: every x channel's taps over the flipped problem's
// q-space; at a stride, the phase problem's): the parallel loop's cost, and its item's in the work (work.hpp).
double direct_data_group_cost(const Canonical &c) {
  if (unit_stride(c)) {
    const ShiftedGeometry geo(flipped_problem(c));
    return static_cast<double>(c.batch) * c.cx_per_group * c.cy_per_group * c.kernel_numel() * geo.q_len;
  }
  const ShiftedGeometry geo(phase_problem(c));
  return static_cast<double>(c.batch) * c.cy_per_group * c.kernel_numel() * geo.q_len;
}

// The (dy channel, tap) terms of every phase some tap reads, phase by phase: run r (phase run_phase[r]) has the
// terms [m_n·b, m_n·e) for its taps [b, e) = [run_begin[r], run_begin[r + 1]) of PhaseTaps' order, dy channel
// outermost (term m·(e − b) + i: tap order[b + i] of dy channel m, at shift m·box + its shift in the box). The
// order of the terms is the order of the sum.
// dx's phase planes: one per x phase coordinate (a_d, a_h, a_w) with a < min(s, X) per dim (a larger one holds no x
// position), in that order; run r adds into plane run_plane[r], or into none (-1) when its phase holds no x position.
struct DataPhases {
  PhaseTaps pt;
  int64_t term_shift[kMaxDwTaps];
  int64_t x_phases[kSpatial];
  int64_t run_plane[kMaxDwTaps];

  DataPhases(const Canonical &c, const Canonical &f, const ShiftedGeometry &geo, int64_t box) {
    const ShiftedGeometry cgeo(c);
    pt.init(c, cgeo);
    for (int d = 0; d < kSpatial; ++d) x_phases[d] = std::min(c.stride[d], c.x_size[d]);
    for (int64_t r = 0; r < pt.runs; ++r) {
      int64_t a[kSpatial];
      bool holds_x = true;
      for (int d = 0; d < kSpatial; ++d) {
        a[d] = cgeo.coordinate(d, pt.run_phase[r]);
        holds_x = holds_x && a[d] < x_phases[d];
      }
      run_plane[r] = holds_x ? (a[0] * x_phases[1] + a[1]) * x_phases[2] + a[2] : -1;
    }
    const int64_t m_n = c.cy_per_group;
    for (int64_t r = 0; r < pt.runs; ++r) {
      const int64_t b = pt.run_begin[r], len = pt.run_begin[r + 1] - b;
      for (int64_t i = 0; i < len; ++i) {
        const int64_t shift = shift_of(c, f, geo, pt.order[b + i]);
        for (int64_t m = 0; m < m_n; ++m) term_shift[m_n * b + m * len + i] = m * box + shift;
      }
    }
  }

  // The weights of group g's terms, in term order, from its weight rows (w_rows[m·K + tap]).
  void weights(int64_t m_n, int64_t kk, const float *w_rows, float *out) const {
    for (int64_t r = 0; r < pt.runs; ++r) {
      const int64_t b = pt.run_begin[r], len = pt.run_begin[r + 1] - b;
      for (int64_t m = 0; m < m_n; ++m) {
        for (int64_t i = 0; i < len; ++i) out[m_n * b + m * len + i] = w_rows[m * kk + pt.order[b + i]];
      }
    }
  }

 private:
  static int64_t shift_of(const Canonical &c, const Canonical &f, const ShiftedGeometry &geo, int64_t kappa) {
    const int64_t k[kSpatial] = {kappa / (c.kernel[2] * c.kernel[1]), (kappa / c.kernel[2]) % c.kernel[1],
                                 kappa % c.kernel[2]};
    int64_t back[kSpatial];  // u_hi − u per dim
    for (int d = 0; d < kSpatial; ++d)
      back[d] = f.pad_begin[d] - floor_div(k[d] * c.dilation[d] - c.pad_begin[d], c.stride[d]);
    return (back[0] * geo.hp + back[1]) * geo.wp + back[2];
  }
};

// Per group and sample: the boxes of its Cy_g dy channels, one `taps` call per phase a tap reads into that phase's
// plane (the other planes stay zero), then per x depth and phase row the planes woven into dx rows by `interleave`
// (straight into a dense FP32 plane that keeps the bits, else a row at a time: narrowed into a dense BF16 plane, or
// through store_run). False when a result is not finite (padding products).
bool direct_data_phases(const Canonical &c, const RowKernels &k, const GemmScratch &s, const Rounding &rounding,
                        const View5 &grad_input) {
  const Canonical f = phase_problem(c);
  const ShiftedGeometry geo(f);
  const OperandReader w(c.w, rounding), dy(c.y, rounding);
  const int64_t m_n = c.cy_per_group, kk = c.kernel_numel();
  const int64_t sd = c.stride[0], sh = c.stride[1], sw = c.stride[2];
  const int64_t xd_n = c.x_size[0], xh_n = c.x_size[1], xw_n = c.x_size[2];
  const int64_t q_len = round_up(geo.q_len, kDirectBlock), box = q_len + geo.max_shift, plane = geo.hp * geo.wp;
  const bool plain_out = planes_stored_as_is(grad_input, rounding);
  const bool bf16_out = planes_stored_as_bf16(grad_input, rounding);
  const DataPhases dp(c, f, geo, box);
  const int64_t nh = dp.x_phases[1], nw = dp.x_phases[2], phases = dp.x_phases[0] * nh * nw;
  const double cost = direct_data_group_cost(c);
  std::atomic<bool> finite{true};
  parallel_for_slots(c.groups, s.slots, cost * c.groups, [&](int slot, int64_t begin, int64_t end) {
    float *boxes = s.base + slot * s.slot_stride, *planes = boxes + m_n * box, *w_rows = planes + phases * q_len;
    float *weights = w_rows + m_n * kk, *row = weights + m_n * kk;
    std::fill(planes, planes + phases * q_len, 0.0f);  // the phases no tap reads stay zero
    zero_boxes(boxes, m_n * box);
    bool fin = true;
    for (int64_t g = begin; g < end; ++g) {
      for (int64_t m = 0; m < m_n; ++m) read_row_run(w, g * m_n + m, 0, kk, w_rows + m * kk);
      dp.weights(m_n, kk, w_rows, weights);
      for (int64_t n = 0; n < c.batch; ++n) {
        for (int64_t m = 0; m < m_n; ++m) pack_box(k, f, geo, dy, n, g * m_n + m, box, boxes + m * box);
        for (int64_t r = 0; r < dp.pt.runs; ++r) {
          if (dp.run_plane[r] < 0) continue;
          const int64_t b = m_n * dp.pt.run_begin[r], terms = m_n * dp.pt.run_begin[r + 1] - b;
          k.taps(boxes, dp.term_shift + b, weights + b, terms, q_len, planes + dp.run_plane[r] * q_len);
        }
        for (int64_t id = 0; id < xd_n; ++id) {
          const int64_t bf16_plane = bf16_out ? grad_input.index(n, g, 0, 0, 0) : 0;
          for (int64_t a1 = 0; a1 < sh && a1 < xh_n; ++a1) {
            const float *src = planes + ((id % sd) * nh + a1) * nw * q_len + (id / sd) * plane;
            const int64_t rows = ceil_div(xh_n - a1, sh);
            if (plain_out) {
              float *dst = static_cast<float *>(grad_input.data) + grad_input.index(n, g, id, a1, 0);
              fin &= k.interleave(src, q_len, sw, geo.wp, rows, xw_n, dst, sh * xw_n);
              continue;
            }
            // The phase's rows woven together, then stored (one call each: rows of 56 cost BF16 a third of its
            // time as two calls per row).
            fin &= k.interleave(src, q_len, sw, geo.wp, rows, xw_n, row, xw_n);
            const int64_t at = (id * xh_n + a1) * xw_n;
            if (bf16_out) {
              k.narrow_bf16_rows(row, xw_n, rows, xw_n, static_cast<uint16_t *>(grad_input.data) + bf16_plane + at,
                                 sh * xw_n);
              continue;
            }
            for (int64_t z = 0; z < rows; ++z) {
              store_run(grad_input, n, g, at + z * sh * xw_n, xw_n, row + z * xw_n, ResultKind::kGradInput, rounding);
            }
          }
        }
      }
    }
    if (!fin) finite.store(false, std::memory_order_relaxed);
  });
  return finite.load();
}

}  // namespace

bool direct_data(const Canonical &c, const RowKernels &k, const GemmScratch &s, const Rounding &rounding,
                 const View5 &grad_input) {
  return unit_stride(c) ? direct_data_shifted(c, k, s, rounding, grad_input)
                        : direct_data_phases(c, k, s, rounding, grad_input);
}

DirectBlocking direct_data_blocking(const Canonical &c, const GemmKernels &, int) {
  const int64_t kk = c.kernel_numel(), m = c.cy_per_group, cx = c.cx_per_group;
  if (unit_stride(c)) {
    // dx's q-space per x channel of the group + the boxes of its dy channels (the flipped problem's) + the terms + one
    // weight row.
    const ShiftedGeometry geo(flipped_problem(c));
    const int64_t q_len = round_up(geo.q_len, kDirectBlock);
    return direct_blocking(c, cx * q_len + m * (q_len + geo.max_shift) + cx * m * kk + cx * kk);
  }
  // The boxes of the group's dy channels + a plane per stride phase of x (q-space of the phase problem) + the weight
  // rows + the terms' weights + the dx rows of one row phase (woven, then stored together).
  const ShiftedGeometry geo(phase_problem(c));
  int64_t phases = 1;  // DataPhases' x phase planes
  for (int d = 0; d < kSpatial; ++d) phases *= std::min(c.stride[d], c.x_size[d]);
  const int64_t q_len = round_up(geo.q_len, kDirectBlock);
  const int64_t rows = (c.x_size[1] + c.stride[1] - 1) / c.stride[1];
  return direct_blocking(c, m * (q_len + geo.max_shift) + phases * q_len + 2 * m * kk + rows * c.x_size[2]);
}

std::string direct_data_refusal(const Canonical &c) {
  std::string why = direct_refusal(c, true);
  if (why.empty()) why = call_kind_refusal(c, false);
  if (why.empty()) why = phase_refusal(c, false);
  return why;
}

bool direct_data_run(const Canonical &c, const GemmKernels &k, const DirectBlocking &, const GemmScratch &s,
                     const Rounding &rounding) {
  return direct_data(c, *k.rows, s, rounding, c.grad_input);
}

std::string direct_data_kernel(const GemmKernels &k, const DirectBlocking &) { return direct_kernel(k); }

Work direct_data_work(const Canonical &c, const GemmKernels &, const DirectBlocking &, const Rounding &, int slots) {
  const double cost = direct_data_group_cost(c);
  return {uniform_phase("groups", LoopKind::kSlots, c.groups, slots, cost * c.groups, cost)};
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
