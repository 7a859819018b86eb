#include "conv_bwd/algo/shifted_windows.hpp"

#include <algorithm>

namespace aclnn_cpu {
namespace conv_bwd {

void copy_run(const OperandReader &r, int64_t index, int64_t stride, int64_t count, float *out) {
  const View5 &v = r.view();
  if (v.dtype != ACL_FLOAT) {
    r.decode(index, stride, count, out);
    return;
  }
  const float *src = static_cast<const float *>(v.data) + index;
  if (stride == 1) {
    for (int64_t i = 0; i < count; ++i) out[i] = src[i];
  } else {
    for (int64_t i = 0; i < count; ++i) out[i] = src[i * stride];
  }
}

namespace {

// The few values of a row's padding: plain stores below 64 bytes. The empty asm keeps the compiler from turning the
// loop back into memset (a call, or `rep stos` with its start-up cost, for two values).
template <typename T>
void zero_short(T *v, int64_t count) {
  if (count * static_cast<int64_t>(sizeof(T)) > 64) {
    std::fill(v, v + count, T{0});
    return;
  }
  for (int64_t i = 0; i < count; ++i) {
    v[i] = 0;
    __asm__("" : : "r"(v + i) : "memory");
  }
}

// The whole box of a stride-1 geometry from its start: one fill, then every x row inside it copied where it lands
// (no per-row padding arithmetic; 14-wide rows spent more there than in the copy).
void pack_whole_box(const Canonical &c, const ShiftedGeometry &geo, const OperandReader &x, int64_t n, int64_t channel,
                    int64_t len, float *win) {
  const View5 &v = x.view();
  std::fill(win, win + len, 0.0f);
  // x coordinates in [lo, hi) land inside the box at z = x − u_min (a negative pad, u_min > 0, crops x's start).
  int64_t lo[kSpatial], hi[kSpatial];
  const int64_t box[kSpatial] = {geo.dp, geo.hp, geo.wp};
  for (int d = 0; d < kSpatial; ++d) {
    lo[d] = std::max<int64_t>(0, geo.u_min[d]);
    hi[d] = std::min(c.x_size[d], box[d] + geo.u_min[d]);
    if (lo[d] >= hi[d]) {
      x.finish(win, len);
      return;
    }
  }
  for (int64_t xd = lo[0]; xd < hi[0]; ++xd) {
    for (int64_t xh = lo[1]; xh < hi[1]; ++xh) {
      const int64_t at = ((xd - geo.u_min[0]) * geo.hp + xh - geo.u_min[1]) * geo.wp + lo[2] - geo.u_min[2];
      copy_run(x, v.index(n, channel, xd, xh, lo[2]), v.strides[4], hi[2] - lo[2], win + at);
    }
  }
  x.finish(win, len);
}

// Walks phase `phase`'s box positions [z0, z0 + len) row segment by row segment: zero(at, count) for positions
// in the padding or past the box, copy(at, index, stride, count) for a run of x elements of channel `channel` of
// sample n (its element index and spacing), `at` counting from z0. Each position is visited once: the padding around
// a row's run is its own call, not a fill of the whole window first.
template <typename Zero, typename Copy>
void for_each_window_run(const Canonical &c, const ShiftedGeometry &geo, const View5 &v, int64_t n, int64_t channel,
                         int64_t phase, int64_t z0, int64_t len, Zero zero, Copy copy) {
  const int64_t a_d = geo.coordinate(0, phase), a_h = geo.coordinate(1, phase), a_w = geo.coordinate(2, phase);
  const int64_t xd_n = c.x_size[0], xh_n = c.x_size[1], xw_n = c.x_size[2];
  // The box columns whose x column (z + u_min)·s + a lies inside x.
  const int64_t z_lo = ceil_div(-a_w, geo.s[2]) - geo.u_min[2];
  const int64_t z_end = floor_div(xw_n - 1 - a_w, geo.s[2]) - geo.u_min[2] + 1;
  for_each_box_row(geo, z0, len, [&](int64_t zd, int64_t zh, int64_t w, int64_t count, int64_t at) {
    const int64_t xd = geo.x_at(0, zd, a_d), xh = geo.x_at(1, zh, a_h);
    const bool row_in = zd < geo.dp && xd >= 0 && xd < xd_n && xh >= 0 && xh < xh_n;
    const int64_t lo = row_in ? std::max(w, z_lo) : w, hi = row_in ? std::min(w + count, z_end) : w;
    if (lo >= hi) {
      zero(at, count);
      return;
    }
    if (lo > w) zero(at, lo - w);
    copy(at + lo - w, v.index(n, channel, xd, xh, geo.x_at(2, lo, a_w)), v.strides[4] * geo.s[2], hi - lo);
    if (w + count > hi) zero(at + hi - w, w + count - hi);
  });
}

}  // namespace

void zero_floats(float *v, int64_t count) { zero_short(v, count); }

void pack_phase_window(const Canonical &c, const ShiftedGeometry &geo, const OperandReader &x, int64_t n,
                       int64_t channel, int64_t phase, int64_t z0, int64_t len, float *win) {
  if (geo.unit() && z0 == 0 && len >= geo.dp * geo.hp * geo.wp) {
    pack_whole_box(c, geo, x, n, channel, len, win);
    return;
  }
  for_each_window_run(
      c, geo, x.view(), n, channel, phase, z0, len, [&](int64_t at, int64_t count) { zero_floats(win + at, count); },
      [&](int64_t at, int64_t index, int64_t stride, int64_t count) { copy_run(x, index, stride, count, win + at); });
  x.finish(win, len);
}

void pack_phase_window_bf16(const Canonical &c, const ShiftedGeometry &geo, const OperandReader &x,
                            const GemmRaBf16Ukernel &k, int64_t n, int64_t channel, int64_t phase, int64_t z0,
                            int64_t len, uint16_t *end) {
  const uint16_t *data = x.bf16_data();
  // Window values [at, at + count) lie reversed at end − at − count + 1 ..= end − at.
  for_each_window_run(
      c, geo, x.view(), n, channel, phase, z0, len,
      [&](int64_t at, int64_t count) { zero_short(end - at - count + 1, count); },
      [&](int64_t at, int64_t index, int64_t stride, int64_t count) {
        k.window_from_bf16(data + index, stride, count, end - at);
      });
}

void pack_phase_window_pair(const Canonical &c, const ShiftedGeometry &geo, const OperandReader &x,
                            const RowKernels &rk, int64_t n, int64_t channel, int64_t phase, int64_t z0, int64_t len,
                            float *win_even, float *win_odd, float *row) {
  const View5 &v = x.view();
  const int64_t a_d = geo.coordinate(0, phase), a_h = geo.coordinate(1, phase);
  const int64_t xd_n = c.x_size[0], xh_n = c.x_size[1], xw_n = c.x_size[2], u = geo.u_min[2];
  const bool direct = v.dtype == ACL_FLOAT && v.strides[4] == 1;
  // Phase a's box columns z read x column (z + u)·2 + a: inside x for z in [z_lo[a], z_end[a]).
  int64_t z_lo[2], z_end[2];
  for (int a = 0; a < 2; ++a) {
    z_lo[a] = ceil_div(-a, 2) - u;
    z_end[a] = floor_div(xw_n - 1 - a, 2) - u + 1;
  }
  float *const win[2] = {win_even, win_odd};
  for_each_box_row(geo, z0, len, [&](int64_t zd, int64_t zh, int64_t w, int64_t count, int64_t at) {
    const int64_t xd = geo.x_at(0, zd, a_d), xh = geo.x_at(1, zh, a_h);
    const bool row_in = zd < geo.dp && xd >= 0 && xd < xd_n && xh >= 0 && xh < xh_n;
    int64_t lo[2], hi[2];
    for (int a = 0; a < 2; ++a) {
      lo[a] = row_in ? std::max(w, z_lo[a]) : w;
      hi[a] = row_in ? std::max(lo[a], std::min(w + count, z_end[a])) : w;
    }
    const float *src = row;
    if (hi[0] > lo[0] || hi[1] > lo[1]) {
      const int64_t index = v.index(n, channel, xd, xh, 0);
      if (direct) {
        src = static_cast<const float *>(v.data) + index;
      } else {
        x.decode(index, v.strides[4], xw_n, row);
      }
    }
    // Both phases' columns in [zc, ze): one split of the x row; the rest of each phase's columns one by one.
    const int64_t zc = std::max(lo[0], lo[1]), ze = std::min(hi[0], hi[1]);
    if (ze > zc) rk.deinterleave2(src + 2 * (zc + u), 0, 1, ze - zc, win[0] + at + zc - w, win[1] + at + zc - w, 0);
    for (int a = 0; a < 2; ++a) {
      float *seg = win[a] + at - w;  // seg[z]: box column z of this row
      zero_floats(seg + w, lo[a] - w);
      for (int64_t z = lo[a]; z < std::min(hi[a], zc); ++z) seg[z] = src[(z + u) * 2 + a];
      for (int64_t z = std::max(lo[a], ze); z < hi[a]; ++z) seg[z] = src[(z + u) * 2 + a];
      zero_floats(seg + hi[a], w + count - hi[a]);
    }
  });
  x.finish(win_even, len);
  x.finish(win_odd, len);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
