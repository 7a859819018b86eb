#include "conv_bwd/algo/grad_bias.hpp"

#include <algorithm>

#include "conv_bwd/algo/operand_reader.hpp"
#include "conv_bwd/parallel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

constexpr int64_t kChunk = 256;
constexpr int kLanes = 8;

// Adds v[0 .. n) into eight double lane sums (the channel's k-th element into lane k mod 8, continuing at lane
// `*next`): independent chains instead of one, in an order fixed by the problem, never by the threads.
void add_to_lanes(const float *v, int64_t n, double lanes[kLanes], int *next) {
  int64_t i = 0;
  while (i < n && *next != 0) {
    lanes[(*next)++] += v[i++];
    *next %= kLanes;
  }
  for (; i + kLanes <= n; i += kLanes) {
    for (int l = 0; l < kLanes; ++l) lanes[l] += static_cast<double>(v[i + l]);
  }
  for (; i < n; ++i) {
    lanes[(*next)++] += v[i];
    *next %= kLanes;
  }
}

}  // namespace

void sum_grad_bias(const View5 &go, const Rounding &rounding, float *sums) {
  const int64_t channels = go.shape[1];
  // A dense plane is one run (the lanes continue across rows either way, so the bits are the same); FP32 runs with
  // unit spacing are read in place.
  const bool dense = go.dense_from(2);
  const int64_t run = dense ? go.spatial_numel() : go.shape[4];
  const bool in_place = go.dtype == ACL_FLOAT && go.strides[4] == 1;
  parallel_for(channels, go.shape[0] * go.spatial_numel(), [&](int64_t begin, int64_t end) {
    float buf[kChunk];
    for (int64_t c = begin; c < end; ++c) {
      double lanes[kLanes] = {};
      int next = 0;
      for (int64_t n = 0; n < go.shape[0]; ++n) {
        for (int64_t row = 0; row < go.spatial_numel() / run; ++row) {
          const int64_t at = dense ? go.index(n, c, 0, 0, 0) : go.index(n, c, row / go.shape[3], row % go.shape[3], 0);
          for (int64_t w0 = 0; w0 < run; w0 += kChunk) {
            const int64_t len = std::min(kChunk, run - w0);
            const float *v = buf;
            if (in_place) {
              v = static_cast<const float *>(go.data) + at + w0;
            } else {
              decode_run(go, at + w0 * go.strides[4], go.strides[4], len, buf);
            }
            add_to_lanes(v, len, lanes, &next);
          }
        }
      }
      const double sum =
          ((lanes[0] + lanes[4]) + (lanes[2] + lanes[6])) + ((lanes[1] + lanes[5]) + (lanes[3] + lanes[7]));
      sums[c] = rounding.grad_bias(sum);
    }
  });
}

void store_grad_bias(const float *sums, int64_t channels, const Rounding &rounding, const TensorArg &grad_bias) {
  for (int64_t c = 0; c < channels; ++c) {
    store_value(grad_bias.data, grad_bias.dtype, grad_bias.offset + c * grad_bias.strides[0], sums[c],
                rounding.fp8_overflow());
  }
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu
