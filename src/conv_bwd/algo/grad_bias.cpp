#include "conv_bwd/algo/grad_bias.hpp"

#include <algorithm>

#include "conv_bwd/algo/operand_reader.hpp"
#include "conv_bwd/parallel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

constexpr int64_t kChunk = 256;
constexpr int kLanes = BiasSum::kLanes;
// Independent double chains per channel: an add's latency over its throughput is about 4 on the vector units, so 4
// vectors of 8 keep them busy; fewer lanes would tie the sum to the latency of one chain.

// Eight doubles as one value (GCC/Clang vector extension): one zmm, two ymm or four xmm. Lane 8j + l of the sums
// is lane l of vector j, so the width only changes how many adds run at once, never a sum's bits.
typedef double D8 __attribute__((vector_size(64), aligned(8)));
typedef float F8 __attribute__((vector_size(32), aligned(4)));

// Internal and inlined: its vector return never crosses an ABI boundary (GCC warns about the AVX-512 ABI anyway).
#pragma GCC diagnostic ignored "-Wpsabi"
__attribute__((always_inline)) inline D8 widen(const float *v) {
  F8 f;
  __builtin_memcpy(&f, v, sizeof f);
  return __builtin_convertvector(f, D8);
}

// The whole blocks of kLanes of add_to_lanes, compiled for AVX-512 and AVX2 too and picked at load time (GCC's
// function multiversioning): the same double adds, wider.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
void add_whole_blocks(const float *v, int64_t n, double lanes[kLanes]) {
  D8 a0, a1, a2, a3;
  __builtin_memcpy(&a0, lanes, sizeof a0);
  __builtin_memcpy(&a1, lanes + 8, sizeof a1);
  __builtin_memcpy(&a2, lanes + 16, sizeof a2);
  __builtin_memcpy(&a3, lanes + 24, sizeof a3);
  for (int64_t i = 0; i + kLanes <= n; i += kLanes) {
    a0 += widen(v + i);
    a1 += widen(v + i + 8);
    a2 += widen(v + i + 16);
    a3 += widen(v + i + 24);
  }
  __builtin_memcpy(lanes, &a0, sizeof a0);
  __builtin_memcpy(lanes + 8, &a1, sizeof a1);
  __builtin_memcpy(lanes + 16, &a2, sizeof a2);
  __builtin_memcpy(lanes + 24, &a3, sizeof a3);
}

// Adds v[0 .. n) into the double lane sums (the channel's k-th element into lane k mod kLanes, continuing at lane
// `*next`): independent chains instead of one, in an order fixed by the problem, never by the threads.
void add_to_lanes(const float *v, int64_t n, double lanes[kLanes], int *next) {
  int64_t i = 0;
  while (i < n && *next != 0) {
    lanes[(*next)++] += v[i++];
    *next %= kLanes;
  }
  const int64_t whole = (n - i) / kLanes * kLanes;
  add_whole_blocks(v + i, whole, lanes);
  for (i += whole; i < n; ++i) {
    lanes[(*next)++] += v[i];
    *next %= kLanes;
  }
}

// The lanes folded by a fixed tree.
double fold(double lanes[kLanes]) {
  for (int width = kLanes / 2; width > 0; width /= 2) {
    for (int l = 0; l < width; ++l) lanes[l] += lanes[l + width];
  }
  return lanes[0];
}

}  // namespace

void BiasSum::add_plane(const View5 &go, int64_t n, int64_t c) {
  // A dense plane is one run (the lanes continue across rows either way, so the bits are the same); FP32 runs with
  // unit spacing are read in place.
  const bool dense = go.dense_from(2);
  const int64_t run = dense ? go.spatial_numel() : go.shape[4];
  const bool in_place = go.dtype == ACL_FLOAT && go.strides[4] == 1;
  float buf[kChunk];
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
      add_to_lanes(v, len, lanes_, &next_);
    }
  }
}

float BiasSum::result(const Rounding &rounding) { return rounding.grad_bias(fold(lanes_)); }

void sum_grad_bias(const View5 &go, const Rounding &rounding, float *sums) {
  parallel_for(go.shape[1], go.shape[0] * go.spatial_numel(), [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) {
      BiasSum sum;
      for (int64_t n = 0; n < go.shape[0]; ++n) sum.add_plane(go, n, c);
      sums[c] = sum.result(rounding);
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
