// Depthwise convolutions (one x channel per group: Cx_g = 1, any multiplier Cy_g) by direct row loops instead of
// GEMMs whose K or M would be 1. A work item is one group; its planes are rounded into the slot once per sample.
//   gradWeight (any stride): the shifted layout (shifted_geometry.hpp): x's padded box per stride phase, dy in
//     q-space, and per phase one dot_taps pass over the plane for all of that phase's taps (kernels/dw_rows.hpp);
//     2-D 3 × 3 planes at stride 1 one dot_taps_3x3 pass (Grid3).
//   gradInput, stride 1: the flipped forward relation in the shifted layout, one `taps` call per plane (taps_3x3 for
//     a 2-D 3 × 3 plane: the same bits).
//   gradInput, other strides: per stride phase of x a stride-1 correlation of dy with that phase's taps, all phases
//     reading one padded box of dy (one `taps` call per phase), then the phase planes woven into dx rows.
// In the shifted layout the padding and junk positions add products with zeros, so a non-finite result hands the
// output to the reference, as for the shifted GEMMs. The order of every sum is fixed by the loops of its item
// (samples, m, taps, positions), never by the threads.
#include "conv_bwd/algo/depthwise.hpp"

#include <algorithm>
#include <atomic>

#include "conv_bwd/algo/grad_bias.hpp"
#include "conv_bwd/algo/operand_runs.hpp"
#include "conv_bwd/algo/packing.hpp"
#include "conv_bwd/algo/result_runs.hpp"
#include "conv_bwd/algo/shifted_windows.hpp"
#include "conv_bwd/algorithms.hpp"
#include "conv_bwd/parallel.hpp"
#include "conv_bwd/plan_steps.hpp"
#include "core/int_math.hpp"
#include "numerics/batch.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

int64_t plane_of(const int64_t size[kSpatial]) { return size[0] * size[1] * size[2]; }

constexpr int64_t kDirectBlock = 16;  // direct_data's q-space is whole blocks of this many positions

// The fixed tree that folds a tap's kDwTapLanes lanes into one sum: halves added lane by lane, 16 → 8 → 4 → 2 → 1.
// Into a local array of fixed size (in place, GCC compiled it as a generic loop with overlap checks: half of
// store_lanes' time on 14² planes).
float fold_lanes(const float *lanes) {
  static_assert(kDwTapLanes == 16, "a tree of four levels");
  float s[8];
  for (int l = 0; l < 8; ++l) s[l] = lanes[l] + lanes[l + 8];
  for (int l = 0; l < 4; ++l) s[l] += s[l + 4];
  for (int l = 0; l < 2; ++l) s[l] += s[l + 2];
  return s[0] + s[1];
}

// Folds the lanes of group g's (dy channel, tap) sums and stores its gradWeight rows; false if a sum is not finite.
// Lane block j of a dy channel holds tap order[j]. A dense FP32 weight row (gradWeight stays fp32) is written where it
// lies: store_run's index walk and chunking cost more than the nine sums of a 3 × 3 row (a few % of a 14² call).
bool store_lanes(const Canonical &c, int64_t g, float *lanes, const int64_t *order, const Rounding &rounding,
                 const View5 &grad_weight) {
  const int64_t m_n = c.cy_per_group, kk = c.kernel_numel();
  const bool direct = grad_weight.dtype == ACL_FLOAT && grad_weight.strides[4] == 1 && grad_weight.dense_from(1);
  bool finite = true;
  for (int64_t m = 0; m < m_n; ++m) {
    float sums[kMaxDwTaps];
    for (int64_t j = 0; j < kk; ++j) sums[order[j]] = fold_lanes(lanes + (m * kk + j) * kDwTapLanes);
    finite = finite && all_finite(sums, kk);
    if (direct) {
      float *row = static_cast<float *>(grad_weight.data) + grad_weight.index(g * m_n + m, 0, 0, 0, 0);
      for (int64_t t = 0; t < kk; ++t) row[t] = sums[t];
      continue;
    }
    store_run(grad_weight, g * m_n + m, -1, 0, kk, sums, ResultKind::kGradWeight, rounding);
  }
  return finite;
}

int64_t box_floats(const ShiftedGeometry &geo) { return geo.dp * geo.hp * geo.wp; }

// A 2-D plane whose nine taps form the 3 × 3 grid the row kernels' taps_3x3 / dot_taps_3x3 take: tap t of geo's
// relation for c at (t / 3)·ld + (t % 3)·dc in one box (stride 1, one depth, unit dilation down), and rows × width the
// plane of positions in q-space. `ok` false otherwise (the flat kernels then).
struct Grid3 {
  bool ok = false;
  int64_t ld = 0, dc = 0, rows = 0, width = 0;
};

Grid3 grid_3x3(const Canonical &c, const ShiftedGeometry &geo) {
  Grid3 g;
  if (c.kernel[0] != 1 || c.kernel[1] != 3 || c.kernel[2] != 3 || !geo.unit() || geo.dp != 1) return g;
  g.ld = geo.wp;
  g.dc = c.dilation[2];
  for (int64_t t = 0; t < 9; ++t) {
    if (geo.shift(c, t) != (t / 3) * g.ld + (t % 3) * g.dc) return g;
  }
  g.rows = c.y_size[1];
  g.width = c.y_size[2];
  g.ok = true;
  return g;
}

// gradInput's taps over the grid when a strip of 16 columns fits the rows of q-space (positions < n): taps_3x3, else
// the flat `taps` over all n positions (the same bits).
void grid_or_flat_taps(const DwRowKernels &k, const Grid3 &g, const float *x, const int64_t *shift, const float *w,
                       int64_t taps, int64_t n, float *y) {
  const int64_t span = g.ok && taps == 9 ? std::min(g.ld, n - (g.rows - 1) * g.ld) : 0;
  if (span >= 16) {
    k.taps_3x3(x + shift[0], g.ld, g.dc, w, g.rows, g.width, span, y);
    return;
  }
  k.taps(x, shift, w, taps, n, y);
}

// gradWeight's nine lane blocks over the grid (dot_taps_3x3, its own order) for planes at least 8 wide, else the flat
// dot_taps. The columns dot_taps_3x3 reads past the x box (at most 7, meeting zeroed y lanes) fall in dy's buffer of
// the same group, which follows it in the slot: readable, and not finite only when the group's gradWeight is not
// finite anyway (the whole output then goes to the reference).
void grid_or_flat_dot_taps(const DwRowKernels &k, const Grid3 &g, const float *y, const float *x, const int64_t *shift,
                           int64_t taps, int64_t n, float *lanes) {
  if (g.ok && taps == 9 && g.width >= 8) {
    k.dot_taps_3x3(y, x + shift[0], g.ld, g.dc, g.rows, g.width, lanes);
    return;
  }
  k.dot_taps(y, x, shift, taps, n, lanes);
}

// Whether gradInput planes can be written as the fp32 accumulators hold them: dense FP32 that keeps their bits.
bool planes_stored_as_is(const View5 &grad_input, const Rounding &rounding) {
  return grad_input.dtype == ACL_FLOAT && grad_input.contiguous_planes() && rounding.grad_input_is_identity();
}

// Whether r's rows are FP32 with unit spacing: read where they lie (copied by copy_rows, or by round_rows_hf32 when
// the compute type is HF32), instead of decoded row by row.
bool fp32_rows(const OperandReader &r) { return r.view().dtype == ACL_FLOAT && r.view().strides[4] == 1; }

// rows × n values of channel rows from element `at` of r's operand into dst (row pitch ldd), every row_step-th row:
// copied when FP32 (and rounded on the way for HF32), widened by vectors for BF16 and FP16 rows, else decoded. Returns
// whether the values are final; if not, the caller's finish() rounds them.
bool read_rows(const DwRowKernels &k, const OperandReader &r, int64_t at, int64_t rows, int64_t n, float *dst,
               int64_t ldd, int64_t row_step = 1) {
  const View5 &v = r.view();
  const int64_t lds = row_step * v.strides[3];
  int bits = 0;
  Hf32Rounding ties = Hf32Rounding::kTiesAway;
  if (fp32_rows(r)) {
    const float *src = static_cast<const float *>(v.data) + at;
    if (r.plain()) {
      k.copy_rows(src, lds, rows, n, dst, ldd);
      return true;
    }
    if (r.rounding().hf32(&bits, &ties) && bits >= 1 && bits < 23) {
      k.round_rows_hf32(src, lds, rows, n, dst, ldd, Hf32Rows::of(bits, ties == Hf32Rounding::kTiesAway));
      return true;
    }
    k.copy_rows(src, lds, rows, n, dst, ldd);
    return false;
  }
  if (v.dtype == ACL_BF16 && v.strides[4] == 1) {
    k.widen_bf16_rows(static_cast<const uint16_t *>(v.data) + at, lds, rows, n, dst, ldd);
    return false;
  }
  if (v.dtype == ACL_FLOAT16 && v.strides[4] == 1) {
    numerics::fp16_rows_to_fp32(static_cast<const uint16_t *>(v.data) + at, lds, rows, n, dst, ldd);
    return false;
  }
  for (int64_t i = 0; i < rows; ++i) r.decode(at + i * lds, v.strides[4], n, dst + i * ldd);
  return false;
}

// Stride 1: out[0 .. max(len, box)) = channel `channel` of sample n of r's operand at box position (z + off) for each
// dim (geo's box; off = −u_min, the leading padding), rounded: one read_rows per depth plane for the part inside the
// operand. The positions outside the operand are the same for every channel and sample and nothing else writes
// them, so the caller zeroes the buffer once per run of items (zero_boxes) instead of once per plane (about 60 short
// fills per 14 × 14 plane). The shifted x boxes are off = padding; the q-space of dy is off = 0 (its buffer must hold
// the whole box: q-space stops short of it).
void pack_channel_box(const DwRowKernels &k, const ShiftedGeometry &geo, const OperandReader &r, int64_t n,
                      int64_t channel, const int64_t off[kSpatial], float *out) {
  const View5 &v = r.view();
  const int64_t box_len[kSpatial] = {geo.dp, geo.hp, geo.wp}, plane = geo.hp * geo.wp;
  int64_t lo[kSpatial], hi[kSpatial];  // the box coordinates inside the operand, per dim
  for (int d = 0; d < kSpatial; ++d) {
    lo[d] = std::min(std::max<int64_t>(off[d], 0), box_len[d]);
    hi[d] = std::max(lo[d], std::min(v.shape[d + 2] + off[d], box_len[d]));
  }
  if (lo[1] >= hi[1] || lo[2] >= hi[2]) return;
  bool final = true;
  for (int64_t zd = lo[0]; zd < hi[0]; ++zd) {
    const int64_t at = v.index(n, channel, zd - off[0], lo[1] - off[1], lo[2] - off[2]);
    final = read_rows(k, r, at, hi[1] - lo[1], hi[2] - lo[2], out + zd * plane + lo[1] * geo.wp + lo[2], geo.wp);
  }
  if (!final) r.finish(out, geo.dp * plane);  // zeros stay zeros
}

// Zeroes the buffers pack_box and pack_q_space fill (their padding and junk positions stay zero from then on).
void zero_boxes(float *buffers, int64_t floats) { std::fill(buffers, buffers + floats, 0.0f); }

// The x box of a stride-1 geometry (pack_box_window), by pack_channel_box when its buffer (zeroed by zero_boxes)
// holds the whole box.
void pack_box(const DwRowKernels &k, const Canonical &c, const ShiftedGeometry &geo, const OperandReader &x, int64_t n,
              int64_t channel, int64_t len, float *out) {
  if (len < box_floats(geo)) {
    pack_box_window(c, geo, x, n, channel, 0, len, out);
    return;
  }
  const int64_t off[kSpatial] = {-geo.u_min[0], -geo.u_min[1], -geo.u_min[2]};
  pack_channel_box(k, geo, x, n, channel, off, out);
}

// The buffer pack_q_space needs for len positions of q-space: the whole box, for pack_channel_box.
int64_t q_space_floats(const ShiftedGeometry &geo, int64_t len) { return std::max(len, box_floats(geo)); }

// ys[0 .. len) = dy channel `channel` of sample n in q-space (geo's), rounded; zeros at the junk positions and past
// the last real one (ys holds q_space_floats(geo, len), zeroed by zero_boxes).
void pack_q_space(const DwRowKernels &k, const ShiftedGeometry &geo, const OperandReader &dy, int64_t n,
                  int64_t channel, float *ys) {
  const int64_t off[kSpatial] = {0, 0, 0};
  pack_channel_box(k, geo, dy, n, channel, off, ys);
}

// The taps grouped by the stride phase they read (shifted_geometry.hpp), stably: tap order[j] has lane block j;
// taps [run_begin[r], run_begin[r + 1]) read phase box r.
struct PhaseTaps {
  int64_t order[kMaxDwTaps], shift[kMaxDwTaps], run_begin[kMaxDwTaps + 1], run_phase[kMaxDwTaps];
  int64_t runs = 0;

  void init(const Canonical &c, const ShiftedGeometry &geo) {
    const int64_t kk = c.kernel_numel();
    int64_t j = 0;
    runs = 0;
    for (int64_t p = 0; p < geo.phases; ++p) {
      run_begin[runs] = j;
      run_phase[runs++] = p;
      for (int64_t t = 0; t < kk; ++t) {
        if (geo.phase(c, t) != p) continue;
        order[j] = t;
        shift[j++] = geo.shift(c, t);
      }
    }
    run_begin[runs] = j;
    count_plan_steps(geo.phases * kk);
  }
};

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
void pack_phase_pairs(const DwRowKernels &k, const ShiftedGeometry &geo, const PhaseTaps &pt, const OperandReader &x,
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

// Per sample, x's padded box of each phase a tap reads; per dy plane, its q-space copy (zeros at the junk positions
// and up to a whole vector); then one dot_taps pass over the plane per phase for all of that phase's taps (16 lanes
// per tap). Stride 1 is one phase. False when a sum is not finite (the padding and junk positions add products with
// zeros).
bool depthwise_weight_shifted(const Canonical &c, const DwRowKernels &k, const GemmScratch &s, const Rounding &rounding,
                              const View5 &grad_weight) {
  const OperandReader x(c.x, rounding), dy(c.y, rounding);
  const ShiftedGeometry geo(c);
  const int64_t m_n = c.cy_per_group, kk = c.kernel_numel(), used = geo.phases;
  const int64_t q_len = round_up(geo.q_len, kDwTapLanes), box = q_len + geo.max_shift;
  const double cost = static_cast<double>(c.batch) * m_n * geo.q_len * kk;
  const Grid3 grid = grid_3x3(c, geo);
  std::atomic<bool> finite{true};
  parallel_for_slots(c.groups, s.slots, cost * c.groups, [&](int slot, int64_t begin, int64_t end) {
    float *xs = s.base + slot * s.slot_stride, *ys = xs + used * box, *lanes = ys + q_space_floats(geo, q_len);
    float *row = lanes + m_n * kk * kDwTapLanes;
    PhaseTaps pt;
    pt.init(c, geo);
    const bool pairs = phase_pairs_across(geo, pt);
    zero_boxes(xs, used * box + q_space_floats(geo, q_len));
    for (int64_t g = begin; g < end; ++g) {
      std::fill(lanes, lanes + m_n * kk * kDwTapLanes, 0.0f);
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
          float *acc = lanes + m * kk * kDwTapLanes;
          for (int64_t r = 0; r < pt.runs; ++r) {
            const int64_t j = pt.run_begin[r];
            grid_or_flat_dot_taps(k, grid, ys, xs + r * box, pt.shift + j, pt.run_begin[r + 1] - j, q_len,
                                  acc + j * kDwTapLanes);
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

// Whether gradInput planes can be written as BF16 straight from the fp32 accumulators by narrow_bf16_rows: dense BF16
// planes whose stored value is the accumulator converted (C is not FP16/BF16, or is BF16 itself).
bool planes_stored_as_bf16(const View5 &grad_input, const Rounding &rounding) {
  return grad_input.dtype == ACL_BF16 && grad_input.contiguous_planes() &&
         rounding.grad_input_left_to_the_store(ACL_BF16);
}

// Stores gradInput's plane of (n, channel) from its q-space (geo's layout): dense BF16 planes row by row by
// narrow_bf16_rows; else through store_run, the rows compacted in place (each moves down, never onto a row still to
// move), then the whole plane as one run, so that the rounding and the conversion run once per plane instead of once
// per row. False when a value is not finite.
bool store_q_plane(const DwRowKernels &k, const ShiftedGeometry &geo, const int64_t size[kSpatial], float *q,
                   const View5 &out, int64_t n, int64_t channel, const Rounding &rounding) {
  const int64_t rows = size[0] * size[1], ow_n = size[2];
  if (planes_stored_as_bf16(out, rounding)) {
    uint16_t *plane = static_cast<uint16_t *>(out.data) + out.index(n, channel, 0, 0, 0);
    bool finite = true;
    for (int64_t od = 0; od < size[0]; ++od) {
      finite &= k.narrow_bf16_rows(q + od * geo.hp * geo.wp, geo.wp, size[1], ow_n, plane + od * size[1] * ow_n, ow_n);
    }
    return finite;
  }
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t from = ((r / size[1]) * geo.hp + r % size[1]) * geo.wp;
    // Down, never up (from ≥ r·ow_n), so ascending copies are safe; inline (a memmove call per short row cost more).
    if (from != r * ow_n) {
      for (int64_t i = 0; i < ow_n; ++i) q[r * ow_n + i] = q[from + i];
    }
  }
  const bool finite = all_finite(q, rows * ow_n);
  store_run(out, n, channel, 0, rows * ow_n, q, ResultKind::kGradInput, rounding);
  return finite;
}

// Stride 1: the flipped forward relation (gemm_forward.cpp) in the shifted layout, for Cx_g ≥ 1: per sample the
// padded boxes of the group's Cy_g dy channels, then one `taps_channels` call for its x channels (each x channel's
// Cy_g·K terms are (dy channel, reversed tap) pairs: a shift into those boxes and a weight; the channels share the
// box loads). False when a result is not finite.
bool direct_data_shifted(const Canonical &c, const DwRowKernels &k, const GemmScratch &s, const Rounding &rounding,
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
  const double cost = static_cast<double>(c.batch) * cx_n * terms * geo.q_len;
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
bool direct_data_phases(const Canonical &c, const DwRowKernels &k, const GemmScratch &s, const Rounding &rounding,
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
  const double cost = static_cast<double>(c.batch) * m_n * kk * geo.q_len;
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
    wq = round_up(geo.q_len, kDwTapLanes);
    x_box = wq + geo.max_shift;
    dq = round_up(fgeo.q_len, kDirectBlock);
    lead = (f.pad_begin[0] * geo.hp + f.pad_begin[1]) * geo.wp + f.pad_begin[2];
    y_buf = std::max(lead + q_space_floats(geo, wq), dq + fgeo.max_shift);
  }

  int64_t slot_floats(const Canonical &c) const {
    const int64_t m_n = c.cy_per_group, kk = c.kernel_numel();
    return x_box + m_n * y_buf + m_n * kk * kDwTapLanes + dq + 2 * m_n * kk;
  }
};

// Lanes and x box as depthwise_weight_shifted, dy and dx as direct_data_shifted (the same sums, in the same order:
// the same bits as the two passes).
DepthwiseFinite depthwise_both_fused(const Canonical &c, const DwRowKernels &k, const GemmScratch &s,
                                     const Rounding &rounding, const View5 &grad_input, const View5 &grad_weight,
                                     float *bias_sums) {
  const Canonical f = flipped_problem(c);
  const FusedLayout L(c);
  const OperandReader x(c.x, rounding), dy(c.y, rounding), w(c.w, rounding);
  const int64_t m_n = c.cy_per_group, kk = c.kernel_numel(), terms = m_n * kk;
  const int64_t od_n = c.x_size[0], oh_n = c.x_size[1], ow_n = c.x_size[2];
  const bool plain_out = planes_stored_as_is(grad_input, rounding);
  const double cost = 2.0 * static_cast<double>(c.batch) * terms * L.geo.q_len;
  const Grid3 grid_w = grid_3x3(c, L.geo), grid_in = grid_3x3(f, L.fgeo);
  std::atomic<bool> input_finite{true}, weight_finite{true};
  parallel_for_slots(c.groups, s.slots, cost * c.groups, [&](int slot, int64_t begin, int64_t end) {
    float *xs = s.base + slot * s.slot_stride, *ys = xs + L.x_box, *lanes = ys + m_n * L.y_buf;
    float *dx = lanes + terms * kDwTapLanes, *taps = dx + L.dq, *w_rows = taps + terms;
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
      std::fill(lanes, lanes + terms * kDwTapLanes, 0.0f);
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
          grid_or_flat_dot_taps(k, grid_w, q, xs, pt.shift, kk, L.wq, lanes + m * kk * kDwTapLanes);
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

bool depthwise_weight(const Canonical &c, const DwRowKernels &k, const GemmScratch &s, const Rounding &rounding,
                      const View5 &grad_weight) {
  return depthwise_weight_shifted(c, k, s, rounding, grad_weight);
}

bool direct_data(const Canonical &c, const DwRowKernels &k, const GemmScratch &s, const Rounding &rounding,
                 const View5 &grad_input) {
  return unit_stride(c) ? direct_data_shifted(c, k, s, rounding, grad_input)
                        : direct_data_phases(c, k, s, rounding, grad_input);
}

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

DepthwiseFinite depthwise_both(const Canonical &c, const DwRowKernels &k, const GemmScratch &s,
                               const Rounding &rounding, const View5 &grad_input, const View5 &grad_weight,
                               float *bias_sums) {
  return depthwise_both_fused(c, k, s, rounding, grad_input, grad_weight, bias_sums);
}

namespace {

DirectBlocking depthwise_blocking(const Canonical &c, bool for_weight) {
  const int64_t kk = c.kernel_numel(), m = c.cy_per_group, cx = c.cx_per_group;
  DirectBlocking b;
  b.items = c.groups;
  if (for_weight) {
    // x's box per phase read + dy's q-space (both to whole vectors) + the lanes of every (dy channel, tap).
    const ShiftedGeometry geo(c);
    const int64_t q_len = round_up(geo.q_len, kDwTapLanes);
    b.slot_floats = q_space_floats(geo, q_len) + geo.phases * (q_len + geo.max_shift) + m * kk * kDwTapLanes;
    PhaseTaps pt;
    pt.init(c, geo);
    if (!geo.unit() && phase_pairs_across(geo, pt)) {  // the decoded x rows of one row phase
      b.slot_floats += (c.x_size[1] + c.stride[1] - 1) / c.stride[1] * c.x_size[2];
    }
  } else if (unit_stride(c)) {
    // dx's q-space per x channel of the group + the boxes of its dy channels (the flipped problem's) + the terms + one
    // weight row.
    const ShiftedGeometry geo(flipped_problem(c));
    const int64_t q_len = round_up(geo.q_len, kDirectBlock);
    b.slot_floats = cx * q_len + m * (q_len + geo.max_shift) + cx * m * kk + cx * kk;
  } else {
    // The boxes of the group's dy channels + a plane per stride phase of x (q-space of the phase problem) + the
    // weight rows + the terms' weights + the dx rows of one row phase (woven, then stored together).
    const ShiftedGeometry geo(phase_problem(c));
    int64_t phases = 1;  // DataPhases' x phase planes
    for (int d = 0; d < kSpatial; ++d) phases *= std::min(c.stride[d], c.x_size[d]);
    const int64_t q_len = round_up(geo.q_len, kDirectBlock);
    const int64_t rows = (c.x_size[1] + c.stride[1] - 1) / c.stride[1];
    b.slot_floats = m * (q_len + geo.max_shift) + phases * q_len + 2 * m * kk + rows * c.x_size[2];
  }
  b.flops = 2.0 * static_cast<double>(c.batch) * c.groups * m * cx * kk * plane_of(c.y_size);
  return b;
}

}  // namespace

DirectBlocking depthwise_weight_blocking(const Canonical &c, const GemmKernels &, int) {
  return depthwise_blocking(c, true);
}

DirectBlocking direct_data_blocking(const Canonical &c, const GemmKernels &, int) { return depthwise_blocking(c, false); }

namespace {

// The shapes the direct (row kernel) algorithms take: "" when they take c.
std::string direct_refusal(const Canonical &c, bool for_input) {
  const int64_t cx = c.cx_per_group, cy = c.cy_per_group;
  const bool few = cx <= kMaxDirectChannels && cy <= kMaxDirectChannels;
  if (for_input && cx > 1 && !(few && unit_stride(c))) {
    return std::to_string(cx) + "x" + std::to_string(cy) + " channels per group: beyond depthwise, takes at most " +
           std::to_string(kMaxDirectChannels) + " each, at stride 1";
  }
  const int64_t one_group = kMaxDirectChannelsOneGroup;
  if (for_input && cx > 1 && (cx > one_group || cy > one_group) && c.groups < 2) {
    return std::to_string(cx) + "x" + std::to_string(cy) + " channels in one group: above " +
           std::to_string(one_group) + " each it takes two groups or more (a group is one item)";
  }
  if (!for_input && cx != 1) return "not depthwise: " + std::to_string(cx) + " x channels per group (needs 1)";
  if (cx == 1 && cy > kMaxDwMultiplier) {
    return std::to_string(cy) + " y channels per group, above " + std::to_string(kMaxDwMultiplier) + " (a GEMM's M)";
  }
  if (cy * c.kernel_numel() > kMaxDwTaps) {
    return std::to_string(cy * c.kernel_numel()) + " (y channel, tap) terms, above " + std::to_string(kMaxDwTaps);
  }
  return "";
}

// The row kernels, on the shifted layout's boxes.
std::string direct_kernel(const GemmKernels &k) { return std::string(k.dw->name) + "+shifted"; }

}  // namespace

std::string direct_data_refusal(const Canonical &c) {
  std::string why = direct_refusal(c, true);
  if (why.empty()) why = call_kind_refusal(c, false);
  if (why.empty()) why = phase_refusal(c, false);
  return why;
}

bool direct_data_run(const Canonical &c, const GemmKernels &k, const DirectBlocking &, const GemmScratch &s,
                     const Rounding &rounding) {
  return direct_data(c, *k.dw, s, rounding, c.grad_input);
}

std::string direct_data_kernel(const GemmKernels &k, const DirectBlocking &) { return direct_kernel(k); }

std::string depthwise_weight_refusal(const Canonical &c) {
  std::string why = direct_refusal(c, false);
  if (why.empty()) why = phase_refusal(c, false);
  return why;
}

bool depthwise_weight_run(const Canonical &c, const GemmKernels &k, const DirectBlocking &, const GemmScratch &s,
                          const Rounding &rounding) {
  return depthwise_weight(c, *k.dw, s, rounding, c.grad_weight);
}

std::string depthwise_weight_kernel(const GemmKernels &k, const DirectBlocking &) { return direct_kernel(k); }

}  // namespace conv_bwd
}  // namespace aclnn_cpu
