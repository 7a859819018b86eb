// The shifted layout: y positions laid out with the row length of x's padded box, so that every kernel tap's
// im2col row is one window of that box, shifted by a constant (docs/performance.md).
//
// Stride 1: with the padded box Dp × Hp × Wp (Wp = Ow + (Kw − 1)·dw, likewise H, D) and the position index
//   q = (od·Hp + oh)·Wp + ow   (q-space; the q with oh ≥ Oh or ow ≥ Ow are "junk": dy is 0 there),
// the x value that y position q reads through tap (kd, kh, kw) is box[q + shift(tap)], with
//   shift = (kd·dd·Hp + kh·dh)·Wp + kw·dw,   box[(zd·Hp + zh)·Wp + zw] = x[zd − pd, zh − ph, zw − pw] (0 outside).
// Stride s (per dim) splits x into s phases per dim: tap k reads x[o·s + e], e = k·dil − pb = u·s + a with
// 0 ≤ a < s, i.e. x[(o + u)·s + a]: phase a's box at o + u. Each phase has its own box (all the same size, Op +
// the span of u), and a tap is (its phase, a shift inside that phase's box). Stride 1 is the one-phase case.
// Only the phases some tap reads are kept, numbered in order of their coordinates (a_d, a_h, a_w): the taps of a dim
// have at most K distinct coordinates a, however large the stride, so phase layouts never grow with the stride.
#pragma once

#include <cstdint>
#include <string>

#include "conv_bwd/canonical.hpp"
#include "conv_bwd/plan_steps.hpp"
#include "core/int_math.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// The most phase coordinates a dim may have for the shifted algorithms (a stride and a kernel both above it, every
// tap of a different phase: ViT-like patchify kernels, which the shifted layouts gain nothing from).
constexpr int64_t kMaxPhaseCoordinates = 64;

struct ShiftedGeometry {
  int64_t s[kSpatial] = {1, 1, 1};      // strides
  int64_t u_min[kSpatial] = {0, 0, 0};  // tap 0's offset u, in phase units (the smallest)
  int64_t dp = 1, hp = 1, wp = 1;       // one phase's box
  int64_t phases = 1;                   // the phases some tap reads (0 when a dim has too many: tabled false)
  int64_t q_len = 0;                    // q-space positions per sample: the last real one + 1
  int64_t max_shift = 0;                // the largest shift inside a box
  bool tabled = true;                   // at most kMaxPhaseCoordinates phase coordinates per dim

  explicit ShiftedGeometry(const Canonical &c) {
    int64_t extent[kSpatial], span[kSpatial];
    for (int d = 0; d < kSpatial; ++d) {
      s[d] = c.stride[d];
      u_min[d] = floor_div(-c.pad_begin[d], s[d]);
      span[d] = floor_div((c.kernel[d] - 1) * c.dilation[d] - c.pad_begin[d], s[d]) - u_min[d];
      extent[d] = c.y_size[d] + span[d];
      tabled = tabled && table_coordinates(c, d);
    }
    dp = extent[0];
    hp = extent[1];
    wp = extent[2];
    phases = tabled ? count_[0] * count_[1] * count_[2] : 0;
    q_len = ((c.y_size[0] - 1) * hp + (c.y_size[1] - 1)) * wp + c.y_size[2];
    max_shift = (span[0] * hp + span[1]) * wp + span[2];
  }

  // Whether every stride is 1: one phase, x's coordinates are the box's moved by u_min.
  bool unit() const { return s[0] == 1 && s[1] == 1 && s[2] == 1; }

  // The shift of flat tap κ (over kD, kH, kW) inside its phase's box, and that phase's number (tabled only).
  int64_t shift(const Canonical &c, int64_t kappa) const {
    int64_t u[kSpatial], a[kSpatial];
    split(c, kappa, u, a);
    return ((u[0] - u_min[0]) * hp + (u[1] - u_min[1])) * wp + (u[2] - u_min[2]);
  }
  int64_t phase(const Canonical &c, int64_t kappa) const {
    int64_t u[kSpatial], a[kSpatial];
    split(c, kappa, u, a);
    return (rank(0, a[0]) * count_[1] + rank(1, a[1])) * count_[2] + rank(2, a[2]);
  }

  // Phase `phase`'s coordinate a along dim d (its x columns are (z + u_min)·s + a).
  int64_t coordinate(int d, int64_t phase) const {
    const int64_t at[kSpatial] = {phase / (count_[1] * count_[2]), (phase / count_[2]) % count_[1], phase % count_[2]};
    return coordinate_[d][at[d]];
  }

  // Whether `phase` and phase + 1 are the pair across of stride 2 across (coordinates a_w 0 and 1, the rest equal),
  // which pack_phase_window_pair packs from one read of each x row.
  bool pair_across(int64_t phase) const { return s[2] == 2 && count_[2] == 2 && phase % 2 == 0; }

  // Floats of the x row that a pair of stride-2 phases across is decoded through (pack_phase_window_pair; 0 at other
  // strides): part of gemm_weight_shifted's slot.
  int64_t pair_row_floats(const Canonical &c) const { return s[2] == 2 ? c.x_size[2] : 0; }

  // Whether q-space has no junk before its last real y position (a single row, or rows as wide as the box and, with
  // several depths, planes as high): q = (od·Hp + oh)·Wp + ow is then the offset of y position (od, oh, ow) in its
  // dense plane.
  bool q_space_dense(const Canonical &c) const {
    if (c.y_size[0] * c.y_size[1] == 1) return true;
    return wp == c.y_size[2] && (c.y_size[0] == 1 || hp == c.y_size[1]);
  }
  // The q-space position of y position (od, oh, ow).
  int64_t q(int64_t od, int64_t oh, int64_t ow) const { return (od * hp + oh) * wp + ow; }

  // x's coordinate along dim d of box position z in phase coordinate a.
  int64_t x_at(int d, int64_t z, int64_t a) const { return (z + u_min[d]) * s[d] + a; }

 private:
  // The coordinates a some tap reads, ascending: count_[d] of them written (the rest never read, not cleared: planning
  // builds several geometries per call).
  int64_t coordinate_[kSpatial][kMaxPhaseCoordinates];
  int64_t count_[kSpatial] = {1, 1, 1};

  int64_t coordinate_of(const Canonical &c, int d, int64_t k) const {
    const int64_t e = k * c.dilation[d] - c.pad_begin[d];
    return e - floor_div(e, s[d]) * s[d];
  }

  // Collects dim d's coordinates (sorted, distinct): false when there are more than the table holds.
  bool table_coordinates(const Canonical &c, int d) {
    if (s[d] == 1) {  // one phase
      coordinate_[d][0] = 0;
      count_[d] = 1;
      return true;
    }
    int64_t n = 0;
    for (int64_t k = 0; k < c.kernel[d]; ++k) {
      const int64_t a = coordinate_of(c, d, k);
      int64_t i = 0;
      while (i < n && coordinate_[d][i] < a) ++i;
      if (i < n && coordinate_[d][i] == a) continue;
      if (n == kMaxPhaseCoordinates) return false;
      for (int64_t j = n; j > i; --j) coordinate_[d][j] = coordinate_[d][j - 1];
      coordinate_[d][i] = a;
      ++n;
    }
    count_plan_steps(c.kernel[d]);
    count_[d] = n;
    return true;
  }

  int64_t rank(int d, int64_t a) const {
    int64_t i = 0;
    while (coordinate_[d][i] != a) ++i;
    return i;
  }

  void split(const Canonical &c, int64_t kappa, int64_t u[kSpatial], int64_t a[kSpatial]) const {
    const int64_t k[kSpatial] = {kappa / (c.kernel[2] * c.kernel[1]), (kappa / c.kernel[2]) % c.kernel[1],
                                 kappa % c.kernel[2]};
    for (int d = 0; d < kSpatial; ++d) {
      const int64_t e = k[d] * c.dilation[d] - c.pad_begin[d];
      u[d] = floor_div(e, s[d]);
      a[d] = e - u[d] * s[d];
    }
  }
};

// Whether the convolution has stride 1 in every dim (one phase: what the forward and direct layouts need).
inline bool unit_stride(const Canonical &c) { return c.stride[0] == 1 && c.stride[1] == 1 && c.stride[2] == 1; }

// "2x2x1": the (reduced) stride, as refusals name it.
std::string stride_text(const Canonical &c);

// Why the shifted layout cannot take c's stride phases, or "": more coordinates along a dim than its tables hold,
// or, with `sharing`, fewer than two taps per phase (then no x value is read twice: nothing to gain from a box).
std::string phase_refusal(const Canonical &c, bool sharing);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
