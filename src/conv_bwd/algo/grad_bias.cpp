#include "conv_bwd/algo/grad_bias.hpp"

#include <algorithm>
#include <utility>

#include "conv_bwd/algo/operand_reader.hpp"
#include "conv_bwd/parallel.hpp"
#include "core/int_math.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

constexpr int64_t kChunk = 256;
// sum_grad_bias's channel blocks: at most kBlockChannels channels (their BiasSums, 1.3 KB each, live on the worker's
// stack), and at least kBlocksPerThread blocks per thread where the channels allow, so that many threads still share
// them.
constexpr int64_t kBlockChannels = 16;
constexpr int64_t kBlocksPerThread = 4;
constexpr int kLanes = BiasSum::kLanes;
// Independent double chains per channel: an add's latency over its throughput is about 4 on the vector units, so 4
// vectors keep them busy; fewer lanes would tie the sum to the latency of one chain.

// Double vectors of 2, 4 and 8 lanes: each ISA's version of add_whole_blocks uses its register width. (One 8-lane
// type compiled for every ISA, as before, was kept in memory by GCC 12 wherever it is wider than the registers: on
// AVX2 and baseline x86-64 every add went through the stack.) Element alignment, and only named scalar locals of
// these types (no arrays or structs, which x86 GCC gives a slot as aligned as the vector): ASan's fake stack does not
// honour 64-byte alignment, and the asan preset's build keeps such values in memory.
typedef double D2 __attribute__((vector_size(16), aligned(8)));
typedef double D4 __attribute__((vector_size(32), aligned(8)));
typedef double D8 __attribute__((vector_size(64), aligned(8)));

// Named as a member: a vector type passed as a template argument loses its alignment attribute.
template <int W>
struct Wide;
template <>
struct Wide<2> {
  typedef D2 D;
};
template <>
struct Wide<4> {
  typedef D4 D;
};
template <>
struct Wide<8> {
  typedef D8 D;
};

// Internal and inlined into each ISA's function: its vectors never cross an ABI boundary.
#pragma GCC diagnostic ignored "-Wpsabi"
// W floats as doubles, W doubles loaded and stored: element by element, which GCC turns into one conversion or
// move (__builtin_convertvector and memcpy went through the stack in the AVX2 function).
template <int W, std::size_t... K>
__attribute__((always_inline)) inline typename Wide<W>::D widen(const float *v, std::index_sequence<K...>) {
  return typename Wide<W>::D{static_cast<double>(v[K])...};
}

template <int W, std::size_t... K>
__attribute__((always_inline)) inline typename Wide<W>::D load(const double *p, std::index_sequence<K...>) {
  return typename Wide<W>::D{p[K]...};
}

template <int W, std::size_t... K>
__attribute__((always_inline)) inline void store(double *p, typename Wide<W>::D v, std::index_sequence<K...>) {
  ((p[K] = v[K]), ...);
}

// Lanes [first, first + 4W) of every whole block of kLanes, in 4 named accumulators.
template <int W>
__attribute__((always_inline)) inline void add_lane_group(const float *v, int64_t n, double *lanes, int first) {
  typedef typename Wide<W>::D D;
  static_assert(alignof(D) == 8, "element-aligned");
  constexpr auto w = std::make_index_sequence<W>();
  D a0 = load<W>(lanes + first, w), a1 = load<W>(lanes + first + W, w);
  D a2 = load<W>(lanes + first + 2 * W, w), a3 = load<W>(lanes + first + 3 * W, w);
  for (int64_t i = first; i + kLanes - first <= n; i += kLanes) {
    a0 += widen<W>(v + i, w);
    a1 += widen<W>(v + i + W, w);
    a2 += widen<W>(v + i + 2 * W, w);
    a3 += widen<W>(v + i + 3 * W, w);
  }
  store<W>(lanes + first, a0, w);
  store<W>(lanes + first + W, a1, w);
  store<W>(lanes + first + 2 * W, a2, w);
  store<W>(lanes + first + 3 * W, a3, w);
}

// The whole blocks of kLanes in passes of 4W lanes (one for 8-double vectors, four for 2): each lane's sum is the
// same whatever the pass.
template <int W>
__attribute__((always_inline)) inline void add_blocks(const float *v, int64_t n, double lanes[kLanes]) {
  static_assert(kLanes % (4 * W) == 0, "whole passes");
  for (int first = 0; first < kLanes; first += 4 * W) add_lane_group<W>(v, n, lanes, first);
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx512f"))) void add_whole_blocks_avx512(const float *v, int64_t n, double lanes[kLanes]) {
  add_blocks<8>(v, n, lanes);
}

__attribute__((target("avx2"))) void add_whole_blocks_avx2(const float *v, int64_t n, double lanes[kLanes]) {
  add_blocks<4>(v, n, lanes);
}
#endif

void add_whole_blocks_baseline(const float *v, int64_t n, double lanes[kLanes]) { add_blocks<2>(v, n, lanes); }

using AddBlocks = void (*)(const float *v, int64_t n, double lanes[kLanes]);

// The plan's ISA picks the width (ACLNN_CPU_MAX_ISA caps it, so the tests run every version on one machine).
AddBlocks add_whole_blocks_for(Isa isa) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (isa_includes(isa, Isa::kAvx512)) return add_whole_blocks_avx512;
  if (isa_includes(isa, Isa::kAvx2)) return add_whole_blocks_avx2;
#endif
  (void)isa;
  return add_whole_blocks_baseline;
}

// lanes[j] += v[j] for j < len (≤ kLanes): distinct lanes, so the loop vectorises.
void add_segment(const float *__restrict v, int64_t len, double *__restrict lanes) {
  for (int64_t j = 0; j < len; ++j) lanes[j] += v[j];
}

// Adds v[0 .. n) into the double lane sums (the channel's k-th element into lane k mod kLanes, continuing at lane
// `*next`): independent chains instead of one, in an order fixed by the problem, never by the threads. The elements
// before lane 0 comes round and after the last whole block go in as segments of distinct lanes (one element at a time
// they were most of a 7² plane's sum: 1.1 ms of a 2048-channel layer's gradBias at mini-batch 8).
void add_to_lanes(AddBlocks add_whole_blocks, const float *v, int64_t n, double lanes[kLanes], int *next) {
  int64_t i = 0;
  if (*next != 0) {
    i = std::min<int64_t>(n, kLanes - *next);
    add_segment(v, i, lanes + *next);
    *next = static_cast<int>((*next + i) % kLanes);
  }
  const int64_t whole = (n - i) / kLanes * kLanes;
  add_whole_blocks(v + i, whole, lanes);
  i += whole;
  if (i < n) {
    add_segment(v + i, n - i, lanes + *next);
    *next += static_cast<int>(n - i);
  }
}

// The lanes folded by a fixed tree: halves added lane by lane, 32 → 16 → ... → 1. Into a local array of fixed size
// (in place, GCC compiled a generic loop with overlap checks).
double fold(const double lanes[kLanes]) {
  static_assert(kLanes == 32, "a tree of five levels");
  double s[16];
  for (int l = 0; l < 16; ++l) s[l] = lanes[l] + lanes[l + 16];
  for (int width = 8; width > 0; width /= 2) {
#pragma GCC unroll 8
    for (int l = 0; l < width; ++l) s[l] += s[l + width];
  }
  return s[0];
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
    if (run <= kPending) {  // short runs as one: a whole block of lanes per add instead of a few lanes' segment per run
      if (pending_ + run > kPending) flush();
      decode_run(go, at, go.strides[4], run, pending_values_ + pending_);
      pending_ += static_cast<int>(run);
      continue;
    }
    flush();
    for (int64_t w0 = 0; w0 < run; w0 += kChunk) {
      const int64_t len = std::min(kChunk, run - w0);
      const float *v = buf;
      if (in_place) {
        v = static_cast<const float *>(go.data) + at + w0;
      } else {
        decode_run(go, at + w0 * go.strides[4], go.strides[4], len, buf);
      }
      add_run(v, len);
    }
  }
}

void BiasSum::add_run(const float *v, int64_t n) { add_to_lanes(add_blocks_, v, n, lanes_, &next_); }

void BiasSum::flush() {
  if (pending_ == 0) return;
  add_run(pending_values_, pending_);
  pending_ = 0;
}

float BiasSum::result(const Rounding &rounding) {
  flush();
  return rounding.grad_bias(fold(lanes_));
}

BiasSum::BiasSum(Isa isa) : add_blocks_(add_whole_blocks_for(isa)) {}

int64_t grad_bias_block(int64_t channels, int threads) {
  return std::max<int64_t>(1, std::min<int64_t>(kBlockChannels, channels / (kBlocksPerThread * threads)));
}

void sum_grad_bias(const View5 &go, Isa isa, int threads, const Rounding &rounding, float *sums) {
  // Channels in blocks, each block sample by sample: a dense gradOutput's planes of one sample and consecutive channels
  // lie one after another, one long stream for the prefetchers, where channel by channel each plane is a short run
  // read cold from pages of its own (a BF16 56² plane is 6 KB; ResNet-50's 64 -> 256 gradBias at mini-batch 16 took
  // 1.4-3.3 ms, Zen 5, 2 threads). Every channel still sums its planes in sample order: the bits depend neither on the
  // blocks nor on the thread count that sizes them.
  const int64_t channels = go.shape[1];
  const int64_t block = grad_bias_block(channels, threads);
  parallel_for(ceil_div(channels, block), go.shape[0] * go.spatial_numel() * block, [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) {
      const int64_t c0 = b * block, count = std::min(block, channels - c0);
      BiasSum sum[kBlockChannels];
      for (int64_t i = 0; i < count; ++i) sum[i] = BiasSum(isa);
      for (int64_t n = 0; n < go.shape[0]; ++n) {
        for (int64_t i = 0; i < count; ++i) sum[i].add_plane(go, n, c0 + i);
      }
      for (int64_t i = 0; i < count; ++i) sums[c0 + i] = sum[i].result(rounding);
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
