#include "conv_bwd/algo/operand_runs.hpp"

#include <algorithm>

#include "conv_bwd/algo/packing.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

const float *plain_flat(const OperandReader &r, int64_t a, int64_t b, int first, int64_t j0) {
  const View5 &v = r.view();
  if (!r.plain() || v.strides[4] != 1 || !v.dense_from(first)) return nullptr;
  return r.plain_data() + v.index(a, b, 0, 0, 0) + j0;
}

// idx[first ..] are zero on entry; j0 sets them (no divisions once the rest is 0: a run from the start of its row,
// e.g. a depthwise channel's taps read per channel, costs none).
bool read_flat(const OperandReader &r, int64_t idx[5], int first, int64_t j0, int64_t count, float *out) {
  const View5 &v = r.view();
  const bool dense = v.dense_from(first);
  int64_t rest = j0;
  for (int d = 4; d >= first && rest != 0; --d) {
    idx[d] = rest % v.shape[d];
    rest /= v.shape[d];
  }
  if (dense) return r.read(v.index(idx[0], idx[1], idx[2], idx[3], idx[4]), v.strides[4], count, out);
  bool finite = true;
  int64_t done = 0;
  while (done < count) {
    const int64_t len = std::min(count - done, v.shape[4] - idx[4]);
    finite &= r.read(v.index(idx[0], idx[1], idx[2], idx[3], idx[4]), v.strides[4], len, out + done);
    done += len;
    idx[4] = 0;
    for (int d = 3; d >= first; --d) {
      if (++idx[d] < v.shape[d]) break;
      idx[d] = 0;
    }
  }
  return finite;
}

}  // namespace

const float *plain_plane_run(const OperandReader &r, int64_t a, int64_t b, int64_t j0) {
  return plain_flat(r, a, b, 2, j0);
}

const float *plain_row_run(const OperandReader &r, int64_t a, int64_t j0) { return plain_flat(r, a, 0, 1, j0); }

bool read_plane_run(const OperandReader &r, int64_t a, int64_t b, int64_t j0, int64_t count, float *out) {
  int64_t idx[5] = {a, b, 0, 0, 0};
  return read_flat(r, idx, 2, j0, count, out);
}

bool read_row_run(const OperandReader &r, int64_t a, int64_t j0, int64_t count, float *out) {
  int64_t idx[5] = {a, 0, 0, 0, 0};
  return read_flat(r, idx, 1, j0, count, out);
}

void pack_row_panels(const OperandReader &r, int width, int64_t row0, int64_t steps, int64_t j0, int64_t lines,
                     float *tmp, float *dst) {
  pack_panels_by_steps(width, lines, steps, tmp, dst, [&](int64_t k, float *out) -> const float * {
    if (const float *direct = plain_row_run(r, row0 + k, j0)) return direct;
    read_row_run(r, row0 + k, j0, lines, out);
    return out;
  });
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
