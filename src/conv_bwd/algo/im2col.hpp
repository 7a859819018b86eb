// Runs of the implicit im2col matrix and its transpose, never materialised as a whole: for one x channel and one
// kernel tap κ (flat over D, H, W), the x value each y position o (flat over D, H, W) reads,
//   x[n, channel, o·s − pb + κ·dil]   (0 where that lies in the padding),
// for `count` consecutive positions from o0.
#pragma once

#include <cstdint>

#include "conv_bwd/algo/operand_reader.hpp"
#include "conv_bwd/canonical.hpp"
#include "conv_bwd/kernels/rows.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// Whether some position of the implicit im2col lies in x's padding (a pad, or a last window past x's end): only then
// does a GEMM over it multiply zeros that the defining sums do not have (0·Inf: see gemm_algorithms.hpp).
bool im2col_reads_padding(const Canonical &c);

// Along spatial dim d, the y positions o whose tap index k reads inside x: [lo, hi] (empty when lo > hi). The
// implicit im2col is a zero of the padding at every other position.
struct DimReach {
  int64_t lo, hi;
  int64_t count() const { return hi >= lo ? hi - lo + 1 : 0; }
};
DimReach positions_reaching_x(const Canonical &c, int d, int64_t k);

// Position o0 as (od, oh, ow): computed once for every run that starts there.
struct Im2colStart {
  int64_t od, oh, ow;
};
Im2colStart im2col_start(const Canonical &c, int64_t o0);

// Kernel tap κ as (kd, kh, kw); next() steps to κ + 1 (wrapping to tap 0) without dividing, for callers that walk
// (channel, tap) columns in order.
struct Im2colTap {
  int64_t kd = 0, kh = 0, kw = 0;
  Im2colTap(const Canonical &c, int64_t kappa)
      : kd(kappa / (c.kernel[2] * c.kernel[1])), kh((kappa / c.kernel[2]) % c.kernel[1]), kw(kappa % c.kernel[2]) {}
  // Returns true when it wrapped (the next channel's first tap).
  bool next(const Canonical &c) {
    if (++kw < c.kernel[2]) return false;
    kw = 0;
    if (++kh < c.kernel[1]) return false;
    kh = 0;
    if (++kd < c.kernel[0]) return false;
    kd = 0;
    return true;
  }
};

// The y positions whose tap reads inside x: a box of positions_reaching_x per spatial dim.
struct TapReach {
  DimReach dim[kSpatial];
  TapReach(const Canonical &c, const Im2colTap &tap)
      : dim{positions_reaching_x(c, 0, tap.kd), positions_reaching_x(c, 1, tap.kh),
            positions_reaching_x(c, 2, tap.kw)} {}
  int64_t count() const { return dim[0].count() * dim[1].count() * dim[2].count(); }
};

// Σ over the kernel taps of TapReach::count(): the im2col entries of one (sample, x channel) that lie inside x.
int64_t im2col_entries_inside(const Canonical &c);

// Reads the run of tap `tap` from position `start` (count positions) into out[0 .. count) through `x` (rounded).
// Returns true when every value read is finite.
bool im2col_run(const Canonical &c, const OperandReader &x, int64_t n, int64_t channel, const Im2colTap &tap,
                const Im2colStart &start, int64_t count, float *out);

// The transpose for `channels` x channels at once: for each channel ch, adds src[ch·src_stride + i] to
// plane[ch·plane_stride + position read by o0 + i] for every i whose position lies inside x, i ascending; a
// plane is one contiguous x channel (D·H·W floats). One walk over the positions serves every channel; at stride 1
// along W each segment is one call of the ISA's row kernel over all channels.
void col2im_rows(const Canonical &c, const RowKernels &rk, int64_t kappa, int64_t o0, int64_t count, int64_t channels,
                 const float *src, int64_t src_stride, float *plane, int64_t plane_stride);

// col2im_rows for taps t0 .. t1 − 1 in order, tap κ's values at src + (κ − t0)·tap_stride: each x value gets the
// same additions in the same order. At stride 1 along W the taps of one kernel row (same kd, kh) add into the same x
// rows; where those rows are short, each segment adds all of them in one pass over its rows (add_taps_rows).
void col2im_taps(const Canonical &c, const RowKernels &rk, int64_t t0, int64_t t1, int64_t o0, int64_t count,
                 int64_t channels, const float *src, int64_t tap_stride, int64_t src_stride, float *plane,
                 int64_t plane_stride);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
