// Flat runs of a user operand seen as View5: the elements j0 .. j0 + count − 1 of the row-major flattening of
// the dims after the fixed leading indices, read (and rounded) through an OperandReader. One read when those
// dims are dense, one per W row otherwise.
#pragma once

#include <cstdint>

#include "conv_bwd/algo/operand_reader.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// Dims 2..4 (D, H, W) of view[a, b]: a spatial plane. Returns true when every value is finite.
bool read_plane_run(const OperandReader &r, int64_t a, int64_t b, int64_t j0, int64_t count, float *out);

// Dims 1..4 of view[a]: for a weight, the (input channel, kD, kH, kW) row of output channel a.
bool read_row_run(const OperandReader &r, int64_t a, int64_t j0, int64_t count, float *out);

// Where read_plane_run / read_row_run would copy from when they are plain copies (OperandReader::plain() and the
// dims dense): the run's first element in the user's tensor; nullptr otherwise.
const float *plain_plane_run(const OperandReader &r, int64_t a, int64_t b, int64_t j0);
const float *plain_row_run(const OperandReader &r, int64_t a, int64_t j0);

// GEMM panels (packing.hpp) of `width` lines whose step k is row row0 + k (dims 1..4, as read_row_run), its `lines`
// values from j0: a weight's rows as A (MR) or B (NR) panels, read in place where plain. tmp: kPackStepBlock × lines.
void pack_row_panels(const OperandReader &r, int width, int64_t row0, int64_t steps, int64_t j0, int64_t lines,
                     float *tmp, float *dst);

}  // namespace conv_bwd
}  // namespace aclnn_cpu
