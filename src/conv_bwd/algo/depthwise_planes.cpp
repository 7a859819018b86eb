// The packing, storing and shape checks the direct algorithms share (depthwise_planes.hpp).
#include "conv_bwd/algo/depthwise_planes.hpp"

#include <algorithm>

#include "conv_bwd/algo/packing.hpp"
#include "conv_bwd/algo/result_runs.hpp"
#include "conv_bwd/algo/shifted_windows.hpp"
#include "conv_bwd/plan_steps.hpp"
#include "numerics/batch.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// The fixed tree that folds a tap's kTapLanes lanes into one sum: halves added lane by lane, 16 → 8 → 4 → 2 → 1.
// Into a local array of fixed size (in place, GCC compiled it as a generic loop with overlap checks: half of
// store_lanes' time on 14² planes).
float fold_lanes(const float *lanes) {
  static_assert(kTapLanes == 16, "a tree of four levels");
  float s[8];
  for (int l = 0; l < 8; ++l) s[l] = lanes[l] + lanes[l + 8];
  for (int l = 0; l < 4; ++l) s[l] += s[l + 4];
  for (int l = 0; l < 2; ++l) s[l] += s[l + 2];
  return s[0] + s[1];
}

// Stride 1: out[0 .. max(len, box)) = channel `channel` of sample n of r's operand at box position (z + off) for each
// dim (geo's box; off = −u_min, the leading padding), rounded: one read_rows per depth plane for the part inside the
// operand. The positions outside the operand are the same for every channel and sample and nothing else writes
// them, so the caller zeroes the buffer once per run of items (zero_boxes) instead of once per plane (about 60 short
// fills per 14 × 14 plane). The shifted x boxes are off = padding; the q-space of dy is off = 0 (its buffer must hold
// the whole box: q-space stops short of it).
void pack_channel_box(const RowKernels &k, const ShiftedGeometry &geo, const OperandReader &r, int64_t n,
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

}  // namespace

bool read_rows(const RowKernels &k, const OperandReader &r, int64_t at, int64_t rows, int64_t n, float *dst,
               int64_t ldd, int64_t row_step) {
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

void pack_box(const RowKernels &k, const Canonical &c, const ShiftedGeometry &geo, const OperandReader &x, int64_t n,
              int64_t channel, int64_t len, float *out) {
  if (len < box_floats(geo)) {
    pack_box_window(c, geo, x, n, channel, 0, len, out);
    return;
  }
  const int64_t off[kSpatial] = {-geo.u_min[0], -geo.u_min[1], -geo.u_min[2]};
  pack_channel_box(k, geo, x, n, channel, off, out);
}

void pack_q_space(const RowKernels &k, const ShiftedGeometry &geo, const OperandReader &dy, int64_t n, int64_t channel,
                  float *ys) {
  const int64_t off[kSpatial] = {0, 0, 0};
  pack_channel_box(k, geo, dy, n, channel, off, ys);
}

void PhaseTaps::init(const Canonical &c, const ShiftedGeometry &geo) {
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

// Folds the lanes of group g's (dy channel, tap) sums and stores its gradWeight rows; false if a sum is not finite.
// Lane block j of a dy channel holds tap order[j]. A dense FP32 weight row (gradWeight stays fp32) is written where it
// lies: store_run's index walk and chunking cost more than the nine sums of a 3 × 3 row (a few % of a 14² call).
bool store_lanes(const Canonical &c, int64_t g, float *lanes, const int64_t *order, const Rounding &rounding,
                 const View5 &grad_weight) {
  const int64_t m_n = c.cy_per_group, kk = c.kernel_numel();
  const bool direct = grad_weight.dtype == ACL_FLOAT && grad_weight.contiguous_rows();
  bool finite = true;
  for (int64_t m = 0; m < m_n; ++m) {
    float sums[kMaxDwTaps];
    for (int64_t j = 0; j < kk; ++j) sums[order[j]] = fold_lanes(lanes + (m * kk + j) * kTapLanes);
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

bool store_q_plane(const RowKernels &k, const ShiftedGeometry &geo, const int64_t size[kSpatial], float *q,
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

std::string direct_kernel(const GemmKernels &k) { return std::string(k.rows->name) + "+shifted"; }

DirectBlocking direct_blocking(const Canonical &c, int64_t slot_floats) {
  const int64_t plane = c.y_plane();
  DirectBlocking b;
  b.items = c.groups;
  b.slot_floats = slot_floats;
  b.flops = 2.0 * static_cast<double>(c.batch) * c.groups * c.cy_per_group * c.cx_per_group * c.kernel_numel() * plane;
  return b;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
