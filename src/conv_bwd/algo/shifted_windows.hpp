// Packing for the shifted layout (shifted_geometry.hpp): windows of a channel's padded box, and the walk over
// box rows that both the windows and the q-space runs of y use.
#pragma once

#include <algorithm>
#include <cstdint>

#include "conv_bwd/algo/operand_reader.hpp"
#include "conv_bwd/algo/shifted_geometry.hpp"
#include "conv_bwd/kernels/gemm_ra_bf16_ukernel.hpp"
#include "conv_bwd/kernels/rows.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// Visits [z0, z0 + len) of a box (rows of geo.wp, planes of geo.hp rows) one row segment at a time:
// (zd, zh, column, count, offset from z0). One division for the start; the rows after it are counted, not divided
// (a window visits every row of a plane, so per-row divisions would cost more than the short copies they steer).
template <typename Visit>
void for_each_box_row(const ShiftedGeometry &geo, int64_t z0, int64_t len, Visit visit) {
  if (len <= 0) return;
  const int64_t row = z0 / geo.wp;
  int64_t zd = row / geo.hp, zh = row % geo.hp, w = z0 % geo.wp;
  for (int64_t at = 0; at < len;) {
    const int64_t count = std::min(geo.wp - w, len - at);
    visit(zd, zh, w, count, at);
    at += count;
    w = 0;
    if (++zh == geo.hp) {
      zh = 0;
      ++zd;
    }
  }
}

// Visits the real y positions of q-space [q0, q0 + len), junk positions skipped, one output-row run at a time:
// (od, oh, ow, count, offset from q0). oh_n, ow_n: y's height and width.
template <typename Visit>
void for_each_real_run(const ShiftedGeometry &geo, int64_t oh_n, int64_t ow_n, int64_t q0, int64_t len, Visit visit) {
  for_each_box_row(geo, q0, len, [&](int64_t od, int64_t oh, int64_t w, int64_t count, int64_t at) {
    if (oh >= oh_n || w >= ow_n) return;
    visit(od, oh, w, std::min(count, ow_n - w), at);
  });
}

// Copies count elements of r's tensor from element index (spacing stride) to out, unrounded: an inline loop for
// FP32 (runs are one row: a library call each would cost more than the copy), decode otherwise.
void copy_run(const OperandReader &r, int64_t index, int64_t stride, int64_t count, float *out);

// v[0 .. count) = 0, cheap for the short runs of a row's padding.
void zero_floats(float *v, int64_t count);

// win[0 .. len) = phase `phase`'s (ShiftedGeometry's numbering) box of x channel `channel` of sample n over box
// positions [z0, z0 + len), rounded (zeros in the padding and past the box). The geometry is geo's, computed from c.
void pack_phase_window(const Canonical &c, const ShiftedGeometry &geo, const OperandReader &x, int64_t n,
                       int64_t channel, int64_t phase, int64_t z0, int64_t len, float *win);

// pack_phase_window for a pair of phases across at stride 2 across (ShiftedGeometry::pair_across: `phase` and
// phase + 1): the same values in
// the same layouts, with each x row read once and split into its even and odd columns by the row kernel instead of
// gathered by stride once per phase. `row` holds x's width in floats (a decoded row, when x's rows are not FP32 and
// dense).
void pack_phase_window_pair(const Canonical &c, const ShiftedGeometry &geo, const OperandReader &x,
                            const RowKernels &rk, int64_t n, int64_t channel, int64_t phase, int64_t z0, int64_t len,
                            float *win_even, float *win_odd, float *row);

// pack_phase_window's values as the reversed BF16 window of the RA pair kernels (gemm_ra_bf16_ukernel.hpp): value f at
// end[−f], f < len, zeros in the padding and past the box, the words copied from x's BF16 rows by k.window_from_bf16
// with no fp32 copy between. x must be bf16_exact() (its values need no rounding).
void pack_phase_window_bf16(const Canonical &c, const ShiftedGeometry &geo, const OperandReader &x,
                            const GemmRaBf16Ukernel &k, int64_t n, int64_t channel, int64_t phase, int64_t z0,
                            int64_t len, uint16_t *end);

// The one box of a stride-1 geometry.
inline void pack_box_window(const Canonical &c, const ShiftedGeometry &geo, const OperandReader &x, int64_t n,
                            int64_t channel, int64_t z0, int64_t len, float *win) {
  pack_phase_window(c, geo, x, n, channel, 0, z0, len, win);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
