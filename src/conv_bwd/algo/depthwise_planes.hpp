// What the direct (row kernel) algorithms share: the rounded planes of one group in the slot (the shifted layout's
// boxes and q-space, shifted_geometry.hpp), how they are packed from the operands and stored back, the taps grouped by
// stride phase, the 3 × 3 grid the grid kernels take, and the shapes the algorithms take. The algorithms themselves
// are one file each: depthwise_weight.cpp, direct_data.cpp and depthwise_both.cpp (both gradients in one pass, which
// must give the bits of the other two: hence one copy of every packing and storing step, here).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "conv_bwd/algo/depthwise.hpp"
#include "conv_bwd/algo/operand_reader.hpp"
#include "conv_bwd/algo/shifted_geometry.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

constexpr int64_t kDirectBlock = 16;  // direct_data's q-space is whole blocks of this many positions

inline int64_t box_floats(const ShiftedGeometry &geo) { return geo.dp * geo.hp * geo.wp; }

// The buffer pack_q_space needs for len positions of q-space: the whole box, for pack_channel_box.
inline int64_t q_space_floats(const ShiftedGeometry &geo, int64_t len) { return std::max(len, box_floats(geo)); }

// Zeroes the buffers pack_box and pack_q_space fill (their padding and junk positions stay zero from then on).
inline void zero_boxes(float *buffers, int64_t floats) { std::fill(buffers, buffers + floats, 0.0f); }

// Whether r's rows are FP32 with unit spacing: read where they lie (copied by copy_rows, or by round_rows_hf32 when
// the compute type is HF32), instead of decoded row by row.
inline bool fp32_rows(const OperandReader &r) { return r.view().dtype == ACL_FLOAT && r.view().strides[4] == 1; }

// rows × n values of channel rows from element `at` of r's operand into dst (row pitch ldd), every row_step-th row:
// copied when FP32 (and rounded on the way for HF32), widened by vectors for BF16 and FP16 rows, else decoded. Returns
// whether the values are final; if not, the caller's finish() rounds them.
bool read_rows(const RowKernels &k, const OperandReader &r, int64_t at, int64_t rows, int64_t n, float *dst,
               int64_t ldd, int64_t row_step = 1);

// The x box of a stride-1 geometry (pack_box_window), by pack_channel_box (depthwise_planes.cpp) when its buffer
// (zeroed by zero_boxes) holds the whole box.
void pack_box(const RowKernels &k, const Canonical &c, const ShiftedGeometry &geo, const OperandReader &x, int64_t n,
              int64_t channel, int64_t len, float *out);

// ys[0 .. len) = dy channel `channel` of sample n in q-space (geo's), rounded; zeros at the junk positions and past
// the last real one (ys holds q_space_floats(geo, len), zeroed by zero_boxes).
void pack_q_space(const RowKernels &k, const ShiftedGeometry &geo, const OperandReader &dy, int64_t n, int64_t channel,
                  float *ys);

// The taps grouped by the stride phase they read (shifted_geometry.hpp), stably: tap order[j] has lane block j;
// taps [run_begin[r], run_begin[r + 1]) read phase box r.
struct PhaseTaps {
  int64_t order[kMaxDwTaps], shift[kMaxDwTaps], run_begin[kMaxDwTaps + 1], run_phase[kMaxDwTaps];
  int64_t runs = 0;

  void init(const Canonical &c, const ShiftedGeometry &geo);
};

// A 2-D plane whose nine taps form the 3 × 3 grid the row kernels' taps_3x3 / dot_taps_3x3 take: tap t of geo's
// relation for c at (t / 3)·ld + (t % 3)·dc in one box (stride 1, one depth, unit dilation down), and rows × width the
// plane of positions in q-space. `ok` false otherwise (the flat kernels then).
struct Grid3 {
  bool ok = false;
  int64_t ld = 0, dc = 0, rows = 0, width = 0;
};
Grid3 grid_3x3(const Canonical &c, const ShiftedGeometry &geo);

// gradInput's taps over the grid when a strip of 16 columns fits the rows of q-space (positions < n): taps_3x3, else
// the flat `taps` over all n positions (the same bits). Inline: called once per plane from the algorithms' loops.
inline void grid_or_flat_taps(const RowKernels &k, const Grid3 &g, const float *x, const int64_t *shift, const float *w,
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
inline void grid_or_flat_dot_taps(const RowKernels &k, const Grid3 &g, const float *y, const float *x,
                                  const int64_t *shift, int64_t taps, int64_t n, float *lanes) {
  if (g.ok && taps == 9 && g.width >= 8) {
    k.dot_taps_3x3(y, x + shift[0], g.ld, g.dc, g.rows, g.width, lanes);
    return;
  }
  k.dot_taps(y, x, shift, taps, n, lanes);
}

// Whether gradInput planes can be written as the fp32 accumulators hold them: dense FP32 that keeps their bits.
inline bool planes_stored_as_is(const View5 &grad_input, const Rounding &rounding) {
  return grad_input.dtype == ACL_FLOAT && grad_input.contiguous_planes() && rounding.grad_input_is_identity();
}

// Whether gradInput planes can be written as BF16 straight from the fp32 accumulators by narrow_bf16_rows: dense BF16
// planes whose stored value is the accumulator converted (C is not FP16/BF16, or is BF16 itself).
inline bool planes_stored_as_bf16(const View5 &grad_input, const Rounding &rounding) {
  return grad_input.dtype == ACL_BF16 && grad_input.contiguous_planes() &&
         rounding.grad_input_left_to_the_store(ACL_BF16);
}

// Stores gradInput's plane of (n, channel) from its q-space (geo's layout): dense BF16 planes row by row by
// narrow_bf16_rows; else through store_run, the rows compacted in place (each moves down, never onto a row still to
// move), then the whole plane as one run, so that the rounding and the conversion run once per plane instead of once
// per row. False when a value is not finite.
bool store_q_plane(const RowKernels &k, const ShiftedGeometry &geo, const int64_t size[kSpatial], float *q,
                   const View5 &out, int64_t n, int64_t channel, const Rounding &rounding);

// Folds the lanes of group g's (dy channel, tap) sums and stores its gradWeight rows; false if a sum is not finite.
// Lane block j of a dy channel holds tap order[j]. A dense FP32 weight row (gradWeight stays fp32) is written where it
// lies: store_run's index walk and chunking cost more than the nine sums of a 3 × 3 row (a few % of a 14² call).
bool store_lanes(const Canonical &c, int64_t g, float *lanes, const int64_t *order, const Rounding &rounding,
                 const View5 &grad_weight);

// The shapes the direct algorithms take (gradInput's when for_input, else gradWeight's): "" when they take c.
std::string direct_refusal(const Canonical &c, bool for_input);

// The verbose name of the kernels they run: the row kernels, on the shifted layout's boxes.
std::string direct_kernel(const GemmKernels &k);

// A blocking of one item per group with slot_floats per slot, and the call's flops.
DirectBlocking direct_blocking(const Canonical &c, int64_t slot_floats);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
